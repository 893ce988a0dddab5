"""The benchmark still runs (a smoke run, not a timing: speed is judged by bench/run.py itself)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from tests.support import REPO


class BenchSmokeTest(unittest.TestCase):
    def test_quick_run_reports_every_figure(self) -> None:
        """Guards against bench/run.py rotting when the loader or gate API changes."""
        with tempfile.TemporaryDirectory() as tmp:
            report_path = Path(tmp) / "bench.json"
            done = subprocess.run([sys.executable, str(REPO / "bench" / "run.py"), "--quick",
                                   "--json", str(report_path)],
                                  cwd=tmp, capture_output=True, text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stderr)
            report = json.loads(report_path.read_text(encoding="utf-8"))
        self.assertEqual(list(report), ["environment", "parameters", "corpus", "figures", "targets"])
        self.assertEqual(report["corpus"]["audit_summary"]["refused"], 0)
        figures = report["figures"]
        for size in ("small", "large"):
            with self.subTest(size=size):
                self.assertGreater(figures["verification"][size]["floor"], 0)
                self.assertGreater(figures["verification"][size]["cold_workers_1"], 0)
                self.assertGreater(figures["warm"][size]["median_us"], 0)
        self.assertEqual(len(report["targets"]), 5)
        self.assertTrue(all(isinstance(target["met"], bool) for target in report["targets"]))


if __name__ == "__main__":
    unittest.main()
