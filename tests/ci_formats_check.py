"""The CI formats end to end: ``audit`` and ``pin --check`` in every format, on the lab and on a Git
repository whose manifest sits in a subfolder; the SARIF validated against the official schema.

Not part of the default suite (the file name does not start with ``test_``): ``.ci/run`` runs it in the
throwaway virtual environment that has jsonschema (pinned there)::

    python -m unittest tests.ci_formats_check -v

Without jsonschema the schema validation skips, saying so; the rest needs the standard library only
(``git`` makes the repository when it is installed; otherwise a ``.git`` folder stands for it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

from _conflict_gate.base.registry import EXIT_CODES, SEVERITIES
from _conflict_gate.cli.ci import ANNOTATIONS_PER_SEVERITY
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import audit
from tests.support import REPO, run_cli, write_corpus
from tests.test_ci import runner_parse

try:
    import jsonschema
except ImportError:  # the default suite runs with nothing installed
    jsonschema = None

SCHEMA_DIR = REPO / "tests" / "sarif"
SCHEMA = SCHEMA_DIR / "sarif-schema-2.1.0.json"
FORMATS = ("github", "sarif", "junit")


def vendored_digest() -> str:
    """The SHA-256 the vendored schema's README records."""
    match = re.search(r"\| SHA-256 \| `([0-9a-f]{64})` \|", (SCHEMA_DIR / "README.md").read_text(encoding="utf-8"))
    assert match is not None, "tests/sarif/README.md gives no SHA-256"
    return match.group(1)


def git_repository(folder: Path) -> None:
    """Make ``folder`` a Git repository: ``git init`` when git is installed, else a bare ``.git`` folder
    (all the root detection looks for)."""
    if shutil.which("git"):
        subprocess.run(["git", "init", "--quiet", str(folder)], check=True)
    else:
        (folder / ".git").mkdir()


class CiFormatsCheck(unittest.TestCase):
    repo: ClassVar[Path]
    manifest: ClassVar[Path]
    runs: ClassVar[dict[tuple[str, str, str], tuple[int, str, str]]]

    @classmethod
    def setUpClass(cls) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-ci-")
        cls.addClassCleanup(tmp.cleanup)
        cls.repo = Path(os.path.realpath(tmp.name)) / "docs-repo"
        cls.repo.mkdir()
        git_repository(cls.repo)
        pages = {
            f"v1/page{i}.md": f"# Page {i}\n\n@quill create_copy existing_path={'refuse' if i % 3 else 'overwrite'}\n".encode()
            for i in range(14)
        }
        pages["v1/odd dir/broken.md"] = b"# Broken\n\n@quill create_copy existing_path = refuse\n"
        pages["v1/draft.md"] = b"# Draft\n\n@quill create_copy close_required=maybe\n"
        pages["v1/example.md"] = b"# Example\n\n```\n@quill create_copy existing_path=refuse\n```\n"
        cls.manifest = write_corpus(cls.repo / "site" / "content", pages, statuses={"draft": "draft"})
        cls.runs = {}
        for command in ("audit", "pin"):  # the audit first; then a page changes, for pin --check
            if command == "pin":
                (cls.repo / "site" / "content" / "v1" / "page1.md").write_bytes(b"# Page 1, edited\n")
            for where, manifest in (("lab", REPO / "manifest.json"), ("repo", cls.manifest)):
                for fmt in FORMATS:
                    argv = [command, "--manifest", str(manifest), "--format", fmt]
                    if command == "pin":
                        argv.insert(1, "--check")
                    summary = {"GITHUB_STEP_SUMMARY": str(cls.repo.parent / f"summary-{where}-{command}.md")}
                    cls.runs[(where, command, fmt)] = run_cli(argv, environ=summary)

    def test_the_exit_codes_are_the_commands_own(self) -> None:
        expected = {
            ("lab", "audit"): "findings",
            ("lab", "pin"): "ok",
            ("repo", "audit"): "findings",
            ("repo", "pin"): "findings",
        }
        for (where, command, fmt), (code, _, err) in self.runs.items():
            with self.subTest(where=where, command=command, fmt=fmt):
                self.assertEqual(code, EXIT_CODES[expected[(where, command)]][0], err)

    def test_the_repository_paths_start_at_its_root(self) -> None:
        _, out, _ = self.runs[("repo", "pin", "github")]
        self.assertIn("::error file=site/content/v1/page1.md,title=stale pin%3A page1::", out)
        _, out, _ = self.runs[("repo", "audit", "github")]
        self.assertIn(
            "::error file=site/content/v1/odd dir/broken.md,line=3,col=33,title=refused%3A malformed_directive::", out
        )
        self.assertIn("::warning file=site/content/v1/draft.md,line=3,col=35,", out)
        sarif = json.loads(self.runs[("repo", "audit", "sarif")][1])
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
        self.assertIn("site/content/v1/odd%20dir/broken.md", uris)
        self.assertEqual(sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"], self.repo.as_uri() + "/")

    def test_sarif_validates_against_the_official_schema(self) -> None:
        if jsonschema is None:
            self.skipTest("jsonschema is not installed (.ci/run installs it, pinned, in a throwaway venv)")
        raw = SCHEMA.read_bytes()
        self.assertEqual(hashlib.sha256(raw).hexdigest(), vendored_digest(), "the vendored schema changed")
        schema = json.loads(raw)
        jsonschema.Draft4Validator.check_schema(schema)
        validator = jsonschema.Draft4Validator(schema)
        checked = 0
        for (where, command, fmt), (_code, out, _) in self.runs.items():
            if fmt != "sarif" or not out:
                continue
            with self.subTest(where=where, command=command):
                log = json.loads(out)
                errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
                self.assertEqual([f"{list(e.absolute_path)}: {e.message}" for e in errors], [])
                self.assertEqual(log["$schema"], schema["id"])
                checked += 1
                broken = json.loads(out)
                broken["runs"][0]["results"].append({"ruleId": "x", "level": "fatal", "message": {"text": "x"}})
                self.assertFalse(validator.is_valid(broken), "the schema must refuse a level SARIF lacks")
        self.assertEqual(checked, 4)

    def test_junit_parses(self) -> None:
        for (where, command, fmt), (code, out, _) in self.runs.items():
            if fmt != "junit" or not out:
                continue
            with self.subTest(where=where, command=command):
                root = ET.fromstring(out)
                (suite,) = root.findall("testsuite")
                cases = suite.findall("testcase")
                self.assertEqual(int(suite.get("tests", "-1")), len(cases))
                self.assertEqual(int(suite.get("failures", "-1")), sum(c.find("failure") is not None for c in cases))
                self.assertEqual(code != 0, any(c.find("failure") is not None for c in cases))

    def test_github_lines_stop_at_the_caps(self) -> None:
        for (where, command, fmt), (_code, out, _) in self.runs.items():
            if fmt != "github" or not out:
                continue
            with self.subTest(where=where, command=command):
                parsed = [runner_parse(line) for line in out.splitlines() if line.startswith("::")]
                for name in SEVERITIES:
                    self.assertLessEqual(sum(p[0] == name for p in parsed), ANNOTATIONS_PER_SEVERITY)
                self.assertTrue(
                    out.splitlines()[-1].startswith(f"conflict-gate {command.replace('pin', 'pin --check')}: ")
                )
        _, lab_audit, _ = self.runs[("lab", "audit", "github")]
        self.assertIn("are not annotated", lab_audit)  # the lab has more notices than the cap of 10
        summary = (self.repo.parent / "summary-lab-audit.md").read_text(encoding="utf-8")
        report = audit(load_documents(REPO / "manifest.json"))  # a notice per silent page and per near-miss
        notices = sum(len(key["silent"]) for group in report["operations"] for key in group["keys"]) + len(
            report["near_misses"]
        )
        self.assertGreater(notices, 10)
        self.assertEqual(summary.count("| notice |"), notices)


class ReposAuditCheck(unittest.TestCase):
    def test_a_clean_subfolder_repository_in_every_format(self) -> None:
        """A second repository, its manifest two folders down (a/b): a conflict in all three formats."""
        with tempfile.TemporaryDirectory(prefix="conflict-gate-ci-") as tmp:
            repo = Path(os.path.realpath(tmp))
            git_repository(repo)
            manifest = write_corpus(
                repo / "a" / "b",
                {
                    "guide.md": b"# G\n\n@quill create_copy existing_path=refuse\n",
                    "ref.md": b"# R\n\n@quill create_copy existing_path=overwrite\n",
                },
            )
            outputs: dict[str, Any] = {}
            for fmt in FORMATS:
                code, out, err = run_cli(["audit", "--manifest", str(manifest), "--format", fmt])
                self.assertEqual(code, EXIT_CODES["findings"][0], err)
                outputs[fmt] = out
            self.assertIn("::error file=a/b/guide.md,line=3,", outputs["github"])
            uris = [
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in json.loads(outputs["sarif"])["runs"][0]["results"]
            ]
            self.assertEqual(uris, ["a/b/guide.md", "a/b/ref.md"])
            self.assertEqual(len(ET.fromstring(outputs["junit"]).findall("testsuite/testcase/failure")), 1)
            if jsonschema is not None:
                validator = jsonschema.Draft4Validator(json.loads(SCHEMA.read_bytes()))
                self.assertTrue(validator.is_valid(json.loads(outputs["sarif"])))


if __name__ == "__main__":
    unittest.main()
