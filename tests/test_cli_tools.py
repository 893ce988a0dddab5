"""The docs-CI commands ``gate``, ``audit`` and ``pin`` (issue 5), run as a user runs them.

Every test runs ``python run.py ...`` in a subprocess with ``cwd`` set to a
temporary corpus, so the paths in the output are the relative ones passed on
the command line, and checks the exact exit code, stdout and stderr.

The corpus (see :meth:`CliToolsTest.setUp`) has, at version 1.0, a known
conflict (``guide``/``reference`` say ``refuse``, ``rival`` says
``overwrite``), a partial claim (only ``guide`` declares ``close_required``),
a refused source (``broken``: spaces around ``=``) and two near-misses in
``guide`` (directive text in inline code and in a fence); ``next`` is 2.0.
Drifted pins are made inside the tests that need them.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import run
from tests.support import REPO, write_corpus

RUN = REPO / "run.py"

GUIDE = (b"# Widget guide\n"
         b"\n"
         b"@quill create_copy existing_path=refuse\n"
         b"@quill create_copy close_required=yes\n"
         b"\n"
         b"Write `@quill create_copy existing_path=overwrite` to say the opposite.\n"
         b"\n"
         b"```text\n"
         b"@quill create_copy close_required=no\n"
         b"```\n")
REFERENCE = b"# Widget reference\n\n@quill create_copy existing_path=refuse\n"
RIVAL = b"# Rival page\n\n@quill create_copy existing_path=overwrite\n"
BROKEN = b"# Broken page\n\n@quill create_copy existing_path = refuse\n"
NEXT = b"# Widgets 2.0\n\n@quill create_copy existing_path=overwrite\n"

FILES = {"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE, "docs/rival.md": RIVAL,
         "docs/broken.md": BROKEN, "docs/next.md": NEXT}
VERSIONS = {"next": "2.0"}

#: "@quill create_copy existing_path" is 32 code points; the line goes wrong at the space after it.
BROKEN_MESSAGE = ("source 'broken' (docs/broken.md:3:33): expected exactly "
                  "'@quill <operation> <key>=<value>', got '@quill create_copy existing_path = refuse'; "
                  "use single spaces, lowercase names and nothing after the value")


def code(name: str) -> int:
    return run.EXIT_CODES[name][0]


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def canonical(data: object) -> str:
    """The documented output format: 2-space indented JSON, UTF-8 as is, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


class CliToolsTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-cli-")
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        self.manifest = write_corpus(self.root, FILES, versions=VERSIONS)
        self.entries = json.loads(self.manifest.read_text(encoding="utf-8"))["documents"]

    # helpers

    def cli(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        proc = subprocess.run([sys.executable, str(RUN), *args], cwd=self.root, capture_output=True,
                              text=True, encoding="utf-8", env=env)
        return proc.returncode, proc.stdout, proc.stderr

    def sub_manifest(self, name: str, source_ids: list[str], **overrides: dict[str, str]) -> str:
        """Write ``name`` (next to manifest.json) listing ``source_ids`` in that order; return ``name``."""
        by_id = {e["source_id"]: e for e in self.entries}
        documents = [{**by_id[sid], **overrides.get(sid, {})} for sid in source_ids]
        (self.root / name).write_text(canonical({"documents": documents}), encoding="utf-8")
        return name

    def assertCli(self, args: list[str], exit_name: str, stdout: str, stderr: str) -> None:
        self.assertEqual(self.cli(*args), (code(exit_name), stdout, stderr))

    def gate(self, *args: str) -> tuple[int, dict, str]:
        rc, out, err = self.cli("gate", "--manifest", "manifest.json", *args)
        result = json.loads(out)
        self.assertEqual(out, canonical(result), "gate prints deterministic 2-space JSON")
        return rc, result, err

    def library_gate(self, ids: list[str], version: str, claim: str) -> str:
        """What the library returns for the same request, rendered as the CLI promises to print it."""
        from conflict_gate import gate
        return canonical(gate(str(self.manifest), ids, version, claim))

    # ------------------------------------------------------------------ gate

    def test_gate_ready_prints_the_result_and_exits_0(self) -> None:
        rc, result, err = self.gate("--version", "1.0", "--claim", "existing_path", "reference", "guide")
        self.assertEqual((rc, err), (code("ok"), ""))
        self.assertEqual((result["status"], result["reason"], result["agreed_value"]),
                         ("ready", "eligible_directives_agree", "refuse"))
        self.assertEqual(result["candidate_ids"], ["reference", "guide"])
        self.assertEqual(result["eligible_source_ids"], ["guide", "reference"])
        self.assertEqual([(c["source_id"], c["path"], c["start_line"], c["quote"]) for c in result["claims"]],
                         [("guide", "docs/guide.md", 3, "@quill create_copy existing_path=refuse"),
                          ("reference", "docs/reference.md", 3, "@quill create_copy existing_path=refuse")])
        self.assertIsNotNone(result["answer_request"])
        _, out, _ = self.cli("gate", "--manifest", "manifest.json", "--version", "1.0",
                             "--claim", "existing_path", "reference", "guide")
        self.assertEqual(out, self.library_gate(["reference", "guide"], "1.0", "existing_path"))

    def test_gate_conflict_exits_3_and_names_every_value(self) -> None:
        rc, result, err = self.gate("--version", "1.0", "--claim", "existing_path", "guide", "rival")
        self.assertEqual(rc, code("conflict"))
        self.assertEqual(err, "conflict: guide=refuse, rival=overwrite\n")
        self.assertEqual((result["status"], result["reason"]), ("conflict", "same_version_directives_disagree"))
        self.assertEqual([(c["source_id"], c["value"], c["start_line"]) for c in result["claims"]],
                         [("guide", "refuse", 3), ("rival", "overwrite", 3)])
        self.assertIsNone(result["answer_request"])

    def test_gate_not_in_docs_when_an_eligible_source_is_silent(self) -> None:
        rc, result, err = self.gate("--version", "1.0", "--claim", "close_required",
                                    "guide", "reference", "rival")
        self.assertEqual(rc, code("not_in_docs"))
        self.assertEqual(err, "not_in_docs: reference, rival do not declare create_copy close_required\n")
        self.assertEqual((result["reason"], result["missing_claim_source_ids"]),
                         ("requested_claim_missing", ["reference", "rival"]))
        self.assertIsNone(result["answer_request"])

    def test_gate_not_in_docs_for_an_absent_version_lists_the_candidate_versions(self) -> None:
        """Guards against a silent fallback to another version, and a message that hides what exists."""
        rc, result, err = self.gate("--version", "3.0", "--claim", "existing_path", "next", "guide")
        self.assertEqual(rc, code("not_in_docs"))
        self.assertEqual(err, "not_in_docs: no candidate has version 3.0; candidates have: 1.0, 2.0\n")
        self.assertEqual((result["status"], result["reason"], result["candidate_versions"]),
                         ("not_in_docs", "no_eligible_version", ["1.0", "2.0"]))
        self.assertEqual((result["eligible_source_ids"], result["excluded_wrong_version_ids"]),
                         ([], ["guide", "next"]))

    def test_gate_refused_exits_5_with_the_location(self) -> None:
        rc, result, err = self.gate("--version", "1.0", "--claim", "existing_path", "guide", "broken")
        self.assertEqual(rc, code("refused"))
        self.assertEqual(err, f"refused: {BROKEN_MESSAGE} [malformed_directive]\n")
        self.assertEqual({k: result[k] for k in ("status", "error", "reason", "source_id", "path", "line", "column")},
                         {"status": "refused", "error": "DirectiveError", "reason": "malformed_directive",
                          "source_id": "broken", "path": "docs/broken.md", "line": 3, "column": 33})
        self.assertEqual((result["claims"], result["answer_request"]), ([], None))

    def test_gate_only_parses_eligible_sources(self) -> None:
        """A refused source of another version does not block a request it cannot answer."""
        rc, result, err = self.gate("--version", "2.0", "--claim", "existing_path", "next", "broken")
        self.assertEqual((rc, err, result["status"], result["agreed_value"]), (0, "", "ready", "overwrite"))

    def test_gate_request_errors_exit_2_with_one_line(self) -> None:
        bad_version = self.sub_manifest("bad-version.json", ["guide", "reference"],
                                        guide={"version": "latest"})
        cases = [
            (["--version", "1", "--claim", "existing_path", "guide"],
             "requested version must be MAJOR.MINOR (e.g. 1.0), got '1' [invalid_requested_version]"),
            (["--version", "1.0", "--claim", "existing_path", "guide", "ghost"],
             "source 'ghost': not in the manifest [unknown_candidate]"),
            (["--version", "1.0", "--claim", "existing_path", "guide", "guide"],
             "source 'guide': candidate is listed twice [duplicate_candidate]"),
            (["--manifest", bad_version, "--version", "1.0", "--claim", "existing_path", "guide"],
             "source 'guide': manifest version 'latest' is not MAJOR.MINOR [invalid_source_version]"),
        ]
        for args, message in cases:
            with self.subTest(args=args):
                manifest = [] if "--manifest" in args else ["--manifest", "manifest.json"]
                self.assertCli(["gate", *manifest, *args], "usage", "", f"run.py: error: {message}\n")

    def test_gate_bad_claim_choice_exits_2_with_one_line(self) -> None:
        # argparse words "invalid choice" differently across Python versions; derive it from this one.
        probe = argparse.ArgumentParser(prog="probe", exit_on_error=False)
        probe.add_argument("--claim", choices=["close_required", "existing_path"])
        with self.assertRaises(argparse.ArgumentError) as caught:
            probe.parse_args(["--claim", "color"])
        self.assertCli(["gate", "--manifest", "manifest.json", "--version", "1.0", "--claim", "color", "guide"],
                       "usage", "", f"run.py: error: {caught.exception} (see 'run.py gate --help')\n")

    def test_gate_on_a_drifted_pin_exits_6(self) -> None:
        edited = REFERENCE + b"\nEdited after pinning.\n"
        (self.root / "docs/reference.md").write_bytes(edited)
        self.assertCli(["gate", "--manifest", "manifest.json", "--version", "1.0", "--claim", "existing_path",
                        "guide"], "input", "",
                       f"run.py: error: source 'reference' (docs/reference.md): sha256 is {sha(edited)}, "
                       f"pinned {sha(REFERENCE)} [hash_mismatch]; if the edit is intended, re-pin: "
                       "run.py pin --manifest manifest.json\n")

    def test_lab_options_do_not_combine_with_a_command(self) -> None:
        self.assertCli(["--output", "x.json", "gate", "--manifest", "manifest.json", "--version", "1.0",
                        "--claim", "existing_path", "guide"], "usage", "",
                       "run.py: error: --output and --check come without a command, not with 'gate'\n")
        self.assertFalse((self.root / "x.json").exists())

    # ------------------------------------------------------------------ audit

    AUDIT_MARKDOWN = """\
# conflict-gate audit: manifest.json

5 sources, versions 1.0, 2.0: **NOT CLEAN** (1 agree, 1 conflict, 1 partial, 1 refused, 2 near_misses).

## Claims

| version | claim | status | values | sources | silent | refused |
|---|---|---|---|---|---|---|
| 1.0 | create_copy close_required | partial | yes | guide | reference, rival | broken |
| 1.0 | create_copy existing_path | conflict | overwrite, refuse | guide, reference, rival | - | broken |
| 2.0 | create_copy existing_path | agree | overwrite | next | - | - |

## Conflicts

| version | claim | source | location | value | quote |
|---|---|---|---|---|---|
| 1.0 | create_copy existing_path | guide | docs/guide.md:3 | refuse | `@quill create_copy existing_path=refuse` |
| 1.0 | create_copy existing_path | reference | docs/reference.md:3 | refuse | `@quill create_copy existing_path=refuse` |
| 1.0 | create_copy existing_path | rival | docs/rival.md:3 | overwrite | `@quill create_copy existing_path=overwrite` |

## Refused sources

| source | location | reason | message |
|---|---|---|---|
| broken | docs/broken.md:3:33 | malformed_directive | `""" + BROKEN_MESSAGE + """` |

## Near-misses (directive text that counts for nothing)

| source | location | where | quote |
|---|---|---|---|
| guide | docs/guide.md:6:8 | prose | ``Write `@quill create_copy existing_path=overwrite` to say the opposite.`` |
| guide | docs/guide.md:9:1 | fence | `@quill create_copy close_required=no` |
"""

    def test_audit_markdown_exact(self) -> None:
        """Sources sorted by id; the refused source shows in its version's rows as refused, never as silent."""
        self.assertCli(["audit", "--manifest", "manifest.json"], "findings", self.AUDIT_MARKDOWN, "")

    def test_audit_json_has_the_documented_shape(self) -> None:
        rc, out, err = self.cli("audit", "--manifest", "manifest.json", "--format", "json")
        self.assertEqual((rc, err), (code("findings"), ""))
        report = json.loads(out)
        self.assertEqual(out, canonical(report))
        self.assertEqual(list(report), ["source_count", "versions", "claims", "refused_sources",
                                        "near_misses", "summary", "clean"])
        self.assertEqual((report["source_count"], report["versions"], report["clean"]), (5, ["1.0", "2.0"], False))
        self.assertEqual(report["summary"],
                         {"agree": 1, "conflict": 1, "partial": 1, "refused": 1, "near_misses": 2})
        self.assertEqual([(e["version"], e["claim_key"], e["status"], e["values"], e["source_ids"],
                           e["missing_source_ids"], e["refused_source_ids"]) for e in report["claims"]],
                         [("1.0", "close_required", "partial", ["yes"], ["guide"], ["reference", "rival"],
                           ["broken"]),
                          ("1.0", "existing_path", "conflict", ["overwrite", "refuse"],
                           ["guide", "reference", "rival"], [], ["broken"]),
                          ("2.0", "existing_path", "agree", ["overwrite"], ["next"], [], [])])
        conflict = report["claims"][1]
        self.assertEqual(conflict["claims"][2], {"source_id": "rival", "path": "docs/rival.md", "line": 3,
                                                 "value": "overwrite",
                                                 "quote": "@quill create_copy existing_path=overwrite"})
        self.assertEqual(report["refused_sources"],
                         [{"source_id": "broken", "version": "1.0", "path": "docs/broken.md",
                           "error": "DirectiveError", "reason": "malformed_directive", "line": 3,
                           "column": 33, "message": BROKEN_MESSAGE}])
        self.assertEqual([(n["source_id"], n["line"], n["column"], n["where"]) for n in report["near_misses"]],
                         [("guide", 6, 8, "prose"), ("guide", 9, 1, "fence")])

    def test_audit_exit_code_follows_conflicts_and_refusals_only(self) -> None:
        """A partial claim and near-misses are reported but do not fail CI; a conflict or refusal does."""
        cases = [
            (["guide", "reference", "next"], "ok",
             "3 sources, versions 1.0, 2.0: **clean** (2 agree, 0 conflict, 1 partial, 0 refused, 2 near_misses)."),
            (["guide", "rival"], "findings",
             "2 sources, versions 1.0: **NOT CLEAN** (0 agree, 1 conflict, 1 partial, 0 refused, 2 near_misses)."),
            (["guide", "broken"], "findings",
             "2 sources, versions 1.0: **NOT CLEAN** (0 agree, 0 conflict, 2 partial, 1 refused, 2 near_misses)."),
        ]
        for ids, exit_name, verdict in cases:
            with self.subTest(ids=ids):
                name = self.sub_manifest("-".join(ids) + ".json", ids)
                rc, out, err = self.cli("audit", "--manifest", name)
                self.assertEqual((rc, err), (code(exit_name), ""))
                self.assertEqual(out.splitlines()[:3], [f"# conflict-gate audit: {name}", "", verdict])

    def test_audit_is_deterministic(self) -> None:
        """Guards against output depending on hash seeds, manifest order or run."""
        reversed_name = self.sub_manifest("reversed.json", [e["source_id"] for e in reversed(self.entries)])
        outputs = {}
        for seed in ("1", "2"):
            env = {**os.environ, "PYTHONHASHSEED": seed}
            for fmt in ("markdown", "json"):
                for manifest in ("manifest.json", reversed_name):
                    outputs[(seed, fmt, manifest)] = self.cli("audit", "--manifest", manifest, "--format", fmt,
                                                              env=env)
        self.assertEqual(outputs[("1", "markdown", "manifest.json")], (1, self.AUDIT_MARKDOWN, ""))
        for (seed, fmt, manifest), output in outputs.items():
            with self.subTest(seed=seed, fmt=fmt, manifest=manifest):
                expected = outputs[("1", fmt, "manifest.json")]
                if fmt == "markdown" and manifest == reversed_name:  # only the heading names the manifest
                    expected = (expected[0], expected[1].replace("audit: manifest.json", f"audit: {manifest}", 1),
                                expected[2])
                self.assertEqual(output, expected)

    def test_audit_refuses_an_unpinned_manifest(self) -> None:
        """audit verifies pins; an unpinned manifest must go through 'pin' first."""
        name = self.sub_manifest("unpinned.json", ["guide"], guide={"sha256": ""})
        self.assertCli(["audit", "--manifest", name], "input", "",
                       f"run.py: error: source 'guide' ({name}): documents[0]: sha256 must be 64 lowercase "
                       "hex characters, got '' [invalid_sha256]; an empty sha256 means not pinned yet: "
                       f"run.py pin --manifest {name}\n")

    # ------------------------------------------------------------------ pin

    def pin_line(self, verb: str, sid: str, old: str, raw: bytes, hint: str = "") -> str:
        path = next(e["path"] for e in self.entries if e["source_id"] == sid)
        return f"{verb} {sid} ({path}): {old} -> {sha(raw)} ({len(raw)} bytes)" + (f"; {hint}" if hint else "") + "\n"

    def assertFolderHoldsOnly(self, names: set[str]) -> None:
        """No temporary file from the atomic write is left behind."""
        self.assertEqual({p.name for p in self.root.iterdir() if p.is_file()}, names)

    def test_pin_first_pin_of_an_unpinned_manifest(self) -> None:
        unpinned = [{**e, "sha256": ""} for e in self.entries]
        self.manifest.write_text(canonical({"documents": unpinned}), encoding="utf-8")
        expected_out = "".join(self.pin_line("pinned", sid, "(unpinned)", raw)
                               for sid, raw in [("guide", GUIDE), ("reference", REFERENCE), ("rival", RIVAL),
                                                ("broken", BROKEN), ("next", NEXT)])
        self.assertCli(["pin", "--manifest", "manifest.json"], "ok", expected_out, "")
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), canonical({"documents": self.entries}))
        self.assertFolderHoldsOnly({"manifest.json"})

    def test_pin_after_an_edit_rewrites_only_that_pin(self) -> None:
        before = self.manifest.read_text(encoding="utf-8")
        edited = REFERENCE + b"\nA new paragraph.\n"
        (self.root / "docs/reference.md").write_bytes(edited)
        self.assertCli(["pin", "--manifest", "manifest.json"], "ok",
                       self.pin_line("pinned", "reference", sha(REFERENCE), edited), "")
        self.assertEqual(before.count(sha(REFERENCE)), 1)
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), before.replace(sha(REFERENCE), sha(edited)))
        self.assertFolderHoldsOnly({"manifest.json"})
        self.assertCli(["pin", "--manifest", "manifest.json", "--check"], "ok", "all 5 pins are current\n", "")

    def test_pin_keeps_a_hand_written_layout(self) -> None:
        """Guards against pin reformatting a hand-written manifest (other indent, other key order)."""
        rows = ",\n".join(
            f'    {{"source_id": "{e["source_id"]}", "path": "{e["path"]}", "version": "{e["version"]}", '
            f'"url": "{e["url"]}", "sha256": "{e["sha256"]}"}}' for e in self.entries[:2])
        before = '{"documents": [\n' + rows + "\n]}\n"
        self.manifest.write_text(before, encoding="utf-8")
        edited = REFERENCE + b"\nA new paragraph.\n"
        (self.root / "docs/reference.md").write_bytes(edited)
        rc, _, _ = self.cli("pin", "--manifest", "manifest.json")
        self.assertEqual(rc, code("ok"))
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), before.replace(sha(REFERENCE), sha(edited)))

    def test_pin_with_nothing_changed_leaves_the_manifest_untouched(self) -> None:
        before = self.manifest.read_bytes()
        mtime = self.manifest.stat().st_mtime_ns
        self.assertCli(["pin", "--manifest", "manifest.json"], "ok",
                       "all 5 pins are current; manifest.json unchanged\n", "")
        self.assertEqual((self.manifest.read_bytes(), self.manifest.stat().st_mtime_ns), (before, mtime))

    def test_pin_check_reports_drift_and_changes_nothing(self) -> None:
        edited = REFERENCE + b"\nA new paragraph.\n"
        crlf = RIVAL.replace(b"\n", b"\r\n")
        cases = {
            "clean": ({}, "ok", "all 5 pins are current\n"),
            "stale": ({"docs/reference.md": edited}, "findings",
                      self.pin_line("stale", "reference", sha(REFERENCE), edited)),
            "missing": ({"docs/next.md": None}, "findings", "missing next (docs/next.md): file does not exist\n"),
            "crlf": ({"docs/rival.md": crlf}, "findings",
                     self.pin_line("stale", "rival", sha(RIVAL), crlf,
                                   "only line endings differ: the file has CRLF where the pinned bytes have LF")),
            "stale and missing, in manifest order": (
                {"docs/next.md": None, "docs/reference.md": edited}, "findings",
                self.pin_line("stale", "reference", sha(REFERENCE), edited)
                + "missing next (docs/next.md): file does not exist\n"),
        }
        for label, (changes, exit_name, stdout) in cases.items():
            with self.subTest(label):
                for rel, raw in FILES.items():
                    (self.root / rel).write_bytes(raw)
                for rel, raw in changes.items():
                    if raw is None:
                        (self.root / rel).unlink()
                    else:
                        (self.root / rel).write_bytes(raw)
                before = self.manifest.read_bytes()
                mtime = self.manifest.stat().st_mtime_ns
                self.assertCli(["pin", "--manifest", "manifest.json", "--check"], exit_name, stdout, "")
                self.assertEqual((self.manifest.read_bytes(), self.manifest.stat().st_mtime_ns), (before, mtime))
                self.assertFolderHoldsOnly({"manifest.json"})

    def test_pin_without_check_refuses_a_missing_file_and_writes_nothing(self) -> None:
        before = self.manifest.read_bytes()
        (self.root / "docs/next.md").unlink()
        (self.root / "docs/reference.md").write_bytes(REFERENCE + b"\nA new paragraph.\n")
        self.assertCli(["pin", "--manifest", "manifest.json"], "input", "",
                       "run.py: error: source 'next' (docs/next.md): file does not exist (paths are relative to the manifest's folder) [source_missing]\n")
        self.assertEqual(self.manifest.read_bytes(), before)

    # ------------------------------------------------------------------ the lab and packaging

    def test_lab_output_is_unchanged(self) -> None:
        """Guards against the docs-CI commands changing `python run.py --output result.json`."""
        self.assertCli(["--output", "result.json"], "ok",
                       f"wrote result.json: {len(run.LAB_CASES)} cases and the changed-source case\n", "")
        self.assertEqual((self.root / "result.json").read_bytes(), run.EXPECTED_RESULT.read_bytes())
        self.assertCli(["--output", "nowhere/result.json"], "output", "",
                       "run.py: error: cannot write nowhere/result.json: folder nowhere does not exist\n")

    def test_console_script_points_at_run_main(self) -> None:
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            self.skipTest("tomllib needs Python 3.11+")
        with open(REPO / "pyproject.toml", "rb") as handle:
            project = tomllib.load(handle)
        self.assertEqual(project["project"]["scripts"], {"conflict-gate": "run:main"})
        self.assertIn("run", project["tool"]["setuptools"]["py-modules"])
        self.assertTrue(callable(run.main))


class CliDetailsTest(unittest.TestCase):
    """Small behaviours a newcomer tripped over."""

    def test_table_cells_keep_spaces_and_escape_pipes(self) -> None:
        """Guards against the audit table collapsing '  @quill' (an indented directive) to one space."""
        self.assertEqual(run._cell("got '  @quill a|b'\nnext\u2028line"), "got '  @quill a\\|b' next line")

    def test_lab_outside_a_checkout_is_one_clear_line(self) -> None:
        """Guards against the installed console script failing on a missing site-packages manifest."""
        missing = Path(tempfile.mkdtemp()) / "manifest.json"
        with mock.patch.object(run, "FIXTURE_MANIFEST", missing), \
                mock.patch("sys.stderr", new_callable=io.StringIO) as stderr:
            self.assertEqual(run.main(["--check"]), code("input"))
        self.assertEqual(stderr.getvalue(),
                         f"run.py: error: the lab runs from a checkout of conflict-gate: {missing} is not "
                         "there; on your own docs use the gate, audit and pin commands\n")
        missing.parent.rmdir()


if __name__ == "__main__":
    unittest.main()
