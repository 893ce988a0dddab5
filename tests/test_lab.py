"""The lab run: golden file, CLI (--output, --check, --help), case outcomes, no side effects."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

import run
from conflict_gate import grammar_summary
from tests.support import REPO, assert_span_invariants, fixture_bytes

EXPECTED = REPO / "expected-result.json"
TOP_LEVEL_KEYS = ["execution_mode", "model_called", "fixture_kind", "grammar", "cases",
                  "changed_source", "policy", "limit"]


def fixture_line(source_id: str, line_text: str) -> int:
    """1-based number of the fixture line equal to ``line_text`` (lines end at \\n only)."""
    return fixture_bytes(source_id).decode("utf-8").split("\n").index(line_text) + 1


#: case id -> expected fields, from the issue's case table (what each fixture is designed to show).
CASE_EXPECTATIONS: dict[str, dict[str, Any]] = {
    "newer-wrong-version-excluded": {
        "status": "ready", "reason": "eligible_directives_agree", "agreed_value": "refuse",
        "eligible_source_ids": ["quill-guide"], "excluded_wrong_version_ids": ["quill-new-version"]},
    "compatible-agreement": {
        "status": "ready", "reason": "eligible_directives_agree", "agreed_value": "refuse",
        "eligible_source_ids": ["quill-guide", "quill-reference"], "excluded_wrong_version_ids": []},
    "same-version-conflict": {
        "status": "conflict", "reason": "same_version_directives_disagree",
        "eligible_source_ids": ["quill-conflicting-guide", "quill-guide"]},
    "absent-version": {
        "status": "not_in_docs", "reason": "no_eligible_version", "candidate_versions": ["1.0", "2.0"],
        "eligible_source_ids": [], "excluded_wrong_version_ids": ["quill-guide", "quill-new-version"],
        "claims": []},
    "missing-claim": {
        "status": "not_in_docs", "reason": "requested_claim_missing",
        "missing_claim_source_ids": ["quill-guide"], "claims": []},
    "partial-missing-claim": {
        "status": "not_in_docs", "reason": "requested_claim_missing",
        "missing_claim_source_ids": ["quill-missing-claim"]},
    "unknown-directive-value": {
        "status": "refused", "reason": "unknown_directive_value", "error": "DirectiveError",
        "source_id": "quill-unknown-value", "path": "docs/quill-unknown-value.md",
        "line": ("quill-unknown-value", "@quill create_copy existing_path=merge"),
        "column": len("@quill create_copy existing_path=") + 1, "claims": []},
    "malformed-directive": {
        "status": "refused", "reason": "malformed_directive", "error": "DirectiveError",
        "source_id": "quill-malformed", "path": "docs/quill-malformed.md",
        "line": ("quill-malformed", "@quill create_copy existing_path = refuse"),
        "column": len("@quill create_copy existing_path") + 1, "claims": []},
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "run.py", *args], cwd=REPO, capture_output=True,
                          timeout=120)


def tree_digest() -> dict[str, str]:
    """sha256 of every file under docs/ plus manifest.json and expected-result.json."""
    paths = sorted(p for p in (REPO / "docs").rglob("*") if p.is_file())
    paths += [REPO / "manifest.json", EXPECTED]
    return {str(p.relative_to(REPO)): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


class LabResultTest(unittest.TestCase):
    """The in-process lab run and its saved form."""

    @classmethod
    def setUpClass(cls):
        cls.text = run.render_json(run.run_lab())
        cls.data = json.loads(cls.text)

    def test_golden_file_byte_for_byte(self):
        self.assertEqual(self.text.encode("utf-8"), EXPECTED.read_bytes(),
                         "expected-result.json is stale: regenerate with "
                         "'python run.py --output expected-result.json'")

    def test_deterministic_and_one_final_newline(self):
        again = run.render_json(run.run_lab())
        self.assertEqual(again, self.text)
        self.assertTrue(self.text.endswith("}\n"))
        self.assertFalse(self.text.endswith("\n\n"))

    def test_top_level(self):
        self.assertEqual(list(self.data), TOP_LEVEL_KEYS)
        self.assertIs(self.data["model_called"], False)
        self.assertEqual(self.data["grammar"], grammar_summary())
        self.assertEqual(self.data["policy"], list(run.POLICY))
        self.assertEqual(self.data["limit"], run.LIMIT)

    def test_cases_match_the_case_table(self):
        self.assertEqual([c["case_id"] for c in self.data["cases"]], list(CASE_EXPECTATIONS))
        self.assertEqual(len(run.LAB_CASES), 8)
        for case, (case_id, candidates, version, key, shows) in zip(self.data["cases"], run.LAB_CASES):
            with self.subTest(case=case_id):
                self.assertEqual(list(case), ["case_id", "shows", "candidate_ids",
                                              "requested_version", "claim_key", "result"])
                self.assertEqual((case["case_id"], case["shows"], case["candidate_ids"],
                                  case["requested_version"], case["claim_key"]),
                                 (case_id, shows, list(candidates), version, key))
                result = case["result"]
                self.assertEqual((result["candidate_ids"], result["requested_version"],
                                  result["claim_key"]), (list(candidates), version, key))
                for field, expected in CASE_EXPECTATIONS[case_id].items():
                    if field == "line":
                        expected = fixture_line(*expected)
                    self.assertEqual(result[field], expected, field)
                self.assertEqual(result["answer_request"] is not None, result["status"] == "ready")

    def test_conflict_keeps_both_claims(self):
        result = next(c["result"] for c in self.data["cases"] if c["case_id"] == "same-version-conflict")
        self.assertEqual([(c["source_id"], c["value"]) for c in result["claims"]],
                         [("quill-conflicting-guide", "overwrite"), ("quill-guide", "refuse")])
        self.assertNotIn("agreed_value", result)

    def test_refusals_name_source_and_line(self):
        for case_id in ("unknown-directive-value", "malformed-directive"):
            with self.subTest(case=case_id):
                result = next(c["result"] for c in self.data["cases"] if c["case_id"] == case_id)
                expected = CASE_EXPECTATIONS[case_id]
                line = fixture_line(*expected["line"])
                self.assertTrue(result["message"].startswith(
                    f"source '{expected['source_id']}' ({expected['path']}:{line}:{expected['column']}): "),
                    result["message"])

    def test_changed_source_refused_with_hash_mismatch(self):
        changed = self.data["changed_source"]
        self.assertEqual(list(changed), ["case_id", "source_id", "edit", "candidate_ids",
                                         "requested_version", "claim_key", "result"])
        self.assertEqual((changed["case_id"], changed["source_id"]), ("changed-source", "quill-guide"))
        result = changed["result"]
        self.assertEqual((result["status"], result["error"], result["reason"]),
                         ("refused", "IngestionError", "hash_mismatch"))
        self.assertEqual((result["source_id"], result["path"]), ("quill-guide", "docs/quill-guide.md"))
        self.assertEqual((result["claims"], result["answer_request"]), ([], None))
        pinned = next(d["sha256"] for d in json.loads((REPO / "manifest.json").read_text())["documents"]
                      if d["source_id"] == "quill-guide")
        self.assertIn(f"pinned {pinned}", result["message"])

    def test_every_saved_claim_satisfies_span_invariant(self):
        seen = 0
        for case in self.data["cases"]:
            result = case["result"]
            claims = list(result["claims"])
            if result["answer_request"] is not None:
                user = result["answer_request"]["messages"][1]["content"]
                claims += json.loads(user)["claims"]
            for claim in claims:
                with self.subTest(case=case["case_id"], source=claim["source_id"]):
                    assert_span_invariants(fixture_bytes(claim["source_id"]), claim)
                    seen += 1
        self.assertGreater(seen, 0)


class LabCliTest(unittest.TestCase):
    """python run.py ... in a subprocess, and run.main in process for --check drift."""

    def test_output_writes_the_golden_bytes(self):
        before = tree_digest()
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "result.json"
            proc = run_cli("--output", str(out))
            self.assertEqual(proc.stderr, b"")
            self.assertEqual(proc.returncode, 0)
            self.assertEqual(proc.stdout.decode(),
                             f"wrote {out}: 8 cases and the changed-source case\n")
            self.assertEqual(out.read_bytes(), EXPECTED.read_bytes())
            second = Path(tmp) / "again.json"
            self.assertEqual(run_cli("--output", str(second)).returncode, 0)
            self.assertEqual(second.read_bytes(), out.read_bytes())
        self.assertEqual(tree_digest(), before)

    def test_check_up_to_date(self):
        before = tree_digest()
        proc = run_cli("--check")
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr),
                         (0, b"expected-result.json is up to date\n", b""))
        self.assertEqual(tree_digest(), before)

    def test_help(self):
        proc = run_cli("--help")
        self.assertEqual((proc.returncode, proc.stderr), (0, b""))
        out = proc.stdout.decode()
        for option in ("--output", "--check"):
            self.assertIn(option, out)
        self.assertIn("exit codes:", out)
        for code, meaning in run.EXIT_CODES.values():
            self.assertIn(f"  {code}  {meaning}", out)

    def check_in_process(self, expected_path: Path) -> tuple[int, str, str]:
        stdout, stderr = io.StringIO(), io.StringIO()
        with mock.patch.object(run, "EXPECTED_RESULT", expected_path), \
                contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = run.main(["--check"])
        return code, stdout.getvalue(), stderr.getvalue()

    def test_check_reports_drift(self):
        before = tree_digest()
        with tempfile.TemporaryDirectory() as tmp:
            stale = Path(tmp) / "stale-result.json"
            golden = EXPECTED.read_text(encoding="utf-8")
            self.assertIn('  "model_called": false,\n', golden)
            stale.write_text(golden.replace('  "model_called": false,\n', '  "model_called": true,\n'),
                             encoding="utf-8")
            code, out, err = self.check_in_process(stale)
            self.assertEqual(code, run.EXIT_CODES["findings"][0])
            self.assertEqual(code, 1)
            self.assertTrue(out.startswith(f"--- {stale.name}\n+++ fresh run\n"), out[:200])
            self.assertIn('\n-  "model_called": true,\n+  "model_called": false,\n', out)
            self.assertEqual(err, f"drift: a fresh run differs from {stale.name}\n")

            missing = Path(tmp) / "missing.json"
            code, out, err = self.check_in_process(missing)
            self.assertEqual((code, err), (1, f"drift: a fresh run differs from {missing.name}\n"))
            self.assertTrue(out.startswith(f"--- {missing.name}\n+++ fresh run\n"))

            good = Path(tmp) / "good.json"
            good.write_bytes(EXPECTED.read_bytes())
            self.assertEqual(self.check_in_process(good), (0, f"{good.name} is up to date\n", ""))
        self.assertEqual(tree_digest(), before)

    def test_in_process_run_leaves_fixtures_untouched(self):
        before = tree_digest()
        run.run_lab()
        self.assertEqual(tree_digest(), before)


if __name__ == "__main__":
    unittest.main()
