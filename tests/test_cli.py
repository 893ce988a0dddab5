"""The command line: gate, audit, pin, init, grammar, check-answer and the lab (``run.py``).

Every test but three calls ``main(argv)`` in process (:func:`tests.support.run_cli`)
and checks the exit code, stdout and stderr. Exit codes are always read from
:data:`~_conflict_gate.base.registry.EXIT_CODES` by name; :class:`ExitCodeTableTest`
reaches every code :data:`~_conflict_gate.base.registry.COMMAND_EXIT_CODES` lists for
each command. A user error must be exactly one line on stderr, starting with the
program name, with no raw control character in it. Three subprocess tests run
the real entry point, ``python run.py``.

The program name in messages is how the command is typed, passed to ``main``
(``python run.py`` in a checkout, ``conflict-gate`` when installed); the lab
is passed in too (:func:`run.lab_command`), so no test patches where it reads.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, NamedTuple
from unittest import mock

import run
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.base.registry import COMMAND_EXIT_CODES, EXIT_CODES, RENDERERS, VERDICTS
from _conflict_gate.cli.main import main
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import gate as library_gate
from _conflict_gate.results.schema import SCHEMAS, result_schema
from tests.support import REPO, run_cli, without_the_mcp_sdk, write_corpus

LAB = "run.py (the lab)"
COMMANDS = ("gate", "audit", "pin", "init", "grammar", "check-answer")
#: Exit-code names that are user errors (one ``PROG: error: ...`` line); the others are outcomes.
ERROR_KINDS = frozenset({"usage", "input", "output", "grammar", "decision"})
#: What commands print on stderr when they end with an outcome rather than an error.
OUTCOME_LINES = (
    *(f"{status}: " for status in ("conflict", "not_in_docs", "refused")),
    *(f"{verdict}: " for verdict in VERDICTS),
    "left out: ",
    "wrote ",
    "next: ",
    "drift: ",
    "python run.py: serving ",
)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
SENTINEL = b'{"sentinel": "an earlier file that must survive"}\n'


def code(name: str) -> int:
    """The exit code called ``name`` in the one table."""
    return EXIT_CODES[name][0]


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


# --------------------------------------------------------------------------
# the test corpus: version 1.0 has an agreement, a conflict, a silent page, a
# refused page and a draft; 2.0 has one page. Two operations share a key.

GRAMMAR: dict[str, Any] = {
    "namespace": "quill",
    "product": "Quill",
    "operations": {
        "create_copy": {
            "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
            "close_required": {"type": "enum", "values": ["yes", "no"]},
        },
        "move": {"existing_path": {"type": "enum", "values": ["refuse", "overwrite"]}},
    },
}
GUIDE = (
    b"# Guide\n"
    b"\n"
    b"@quill create_copy existing_path=refuse\n"
    b"@quill create_copy close_required=yes\n"
    b"\n"
    b"Write `@quill create_copy existing_path=overwrite` to say the opposite.\n"
)
REFERENCE = b"# Reference\n\n@quill create_copy existing_path=refuse\n"
RIVAL = b"# Rival\n\n@quill create_copy existing_path=overwrite\n"
BROKEN = b"# Broken\n\n@quill create_copy existing_path = refuse\n"
NEXT = b"# Next\n\n@quill create_copy existing_path=overwrite\n"
DRAFT = b"# Draft\n\n@quill create_copy existing_path=overwrite\n"
FILES = {
    "docs/guide.md": GUIDE,
    "docs/reference.md": REFERENCE,
    "docs/rival.md": RIVAL,
    "docs/broken.md": BROKEN,
    "docs/next.md": NEXT,
    "docs/draft.md": DRAFT,
}
IDS = ("guide", "reference", "rival", "broken", "next", "draft")
#: "@quill create_copy existing_path" is 32 code points; the line goes wrong at the space after it.
BROKEN_MESSAGE = (
    "source 'broken' (docs/broken.md:3:33): expected exactly "
    "'@quill <operation> <key>=<value>', got '@quill create_copy existing_path = refuse'; "
    "use single spaces, names from the grammar and nothing after the value"
)

AUDIT_MARKDOWN = (
    """\
# conflict-gate audit: {manifest}

6 sources, versions 1.0, 2.0: **NOT CLEAN** (1 agree, 1 conflict, 1 partial, 1 refused approved (failed ones \
included), 1 unapproved conflicting, 1 near-misses, 0 failed verification).

Pages read as the `portable` renderer shows them.

## Claims (approved sources, per operation they are about)

| version | claim | status | values | sources | silent |
|---|---|---|---|---|---|
| 1.0 | create_copy close_required | partial | yes | guide | reference, rival |
| 1.0 | create_copy existing_path | conflict | overwrite, refuse | guide, reference, rival | - |
| 2.0 | create_copy existing_path | agree | overwrite | next | - |

## Conflicts

| version | claim | source | location | value | quote |
|---|---|---|---|---|---|
| 1.0 | create_copy existing_path | guide | docs/guide.md:3 | refuse | `@quill create_copy existing_path=refuse` |
| 1.0 | create_copy existing_path | reference | docs/reference.md:3 | refuse | `@quill create_copy existing_path=refuse` |
| 1.0 | create_copy existing_path | rival | docs/rival.md:3 | overwrite | `@quill create_copy existing_path=overwrite` |

## Refused sources

| source | status | location | reason | message |
|---|---|---|---|---|
| broken | approved | docs/broken.md:3:33 | malformed_directive | `"""
    + BROKEN_MESSAGE
    + """` |

## Drafts and deprecated pages that would conflict once approved

| source | status | location | claim | value | approved values |
|---|---|---|---|---|---|
| draft | draft | docs/draft.md:3 | create_copy existing_path | overwrite | overwrite, refuse |

## Near-misses (directive text in code or hidden HTML, mentions: count for nothing)

| source | location | where | quote |
|---|---|---|---|
| guide | docs/guide.md:6:8 | code | ``Write `@quill create_copy existing_path=overwrite` to say the opposite.`` |
"""
)


class Run(NamedTuple):
    code: int
    out: str
    err: str


def tree_digest(*paths: Path) -> dict[str, str]:
    """Path -> SHA-256 of every file under ``paths`` (folders walked)."""
    digests = {}
    for top in paths:
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            digests[str(path)] = sha(path.read_bytes())
    return digests


class CliCase(unittest.TestCase):
    """Helpers: a fresh corpus per test, the CLI in process, the user-error shape."""

    def setUp(self) -> None:
        self.tmp = self.folder()
        self.root = self.tmp / "corpus"
        self.manifest = write_corpus(
            self.root,
            FILES,
            versions={"next": "2.0"},
            statuses={"draft": "draft"},
            grammar=GRAMMAR,
            urls=dict.fromkeys(IDS),
        )
        self.m = str(self.manifest)

    def folder(self) -> Path:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-cli-")
        self.addCleanup(tmp.cleanup)
        return Path(os.path.realpath(tmp.name))

    #: The lab ``cli(..., lab=True)`` runs (see :meth:`lab_on`).
    lab_program: Callable[..., int] = staticmethod(run.lab)

    def cli(self, *argv: str, stdin: bytes = b"", lab: bool = False, environ: dict[str, str] | None = None) -> Run:
        """``main(argv)`` in process as ``conflict-gate`` (or, with ``lab``, as ``python run.py``), in
        ``environ`` (default: an empty environment)."""
        if "--help" in argv:
            return self._help(argv, self.lab_program if lab else None)
        result = Run(*run_cli(argv, stdin=stdin, lab=self.lab_program if lab else None, environ=environ))
        self.assertNotIn("Traceback", result.err)
        return result

    @contextlib.contextmanager
    def lab_on(self, manifest: Path, expected: Path) -> Iterator[None]:
        """Run the lab over another fixture manifest and golden file inside the block."""
        self.lab_program = run.lab_command(manifest, expected)
        try:
            yield
        finally:
            del self.lab_program

    @staticmethod
    def _help(argv: tuple[str, ...], lab: Callable[..., int] | None) -> Run:
        """``--help``: argparse prints and raises ``SystemExit``; its code is returned like any other."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv), prog="python run.py" if lab else "conflict-gate", lab=lab)
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 0
        return Run(status, out.getvalue(), err.getvalue())

    def gate(self, *args: str, manifest: str | None = None) -> Run:
        return self.cli("gate", "--manifest", manifest or self.m, *args)

    def assertOneLine(self, text: str) -> None:
        """``text`` is exactly one line: no raw control character, no lone surrogate, encodable."""
        self.assertTrue(text.endswith("\n") and text.count("\n") == 1, f"not exactly one line: {text!r}")
        self.assertTrue(text[:-1].isprintable(), f"raw control character in {text!r}")
        text.encode("utf-8")  # strict: a lone surrogate would crash a real terminal

    def assertPrintableLines(self, text: str, prefixes: tuple[str, ...] = ("",)) -> None:
        """Every line of ``text`` is printable, strict-UTF-8 encodable and starts with one of ``prefixes``
        (so a newline inside a path, which would start a line of its own, is caught)."""
        for line in text.splitlines():
            self.assertTrue(line.isprintable(), f"raw control character in {line!r}")
            self.assertTrue(line.startswith(prefixes), f"a line starting otherwise: {line!r} in {text!r}")
        text.encode("utf-8")

    def assertUserError(
        self, result: Run, kind: str, *parts: str, prog: str = "conflict-gate", stdout: str | None = ""
    ) -> str:
        """``result`` is the user error ``kind``: its exit code, one ``PROG: error: `` line holding ``parts``."""
        self.assertEqual(result.code, code(kind), result.err)
        self.assertTrue(result.err.startswith(f"{prog}: error: "), result.err)
        self.assertOneLine(result.err)
        for part in parts:
            self.assertIn(part, result.err)
        if stdout is not None:
            self.assertEqual(result.out, stdout)
        return result.err

    def write_json(self, path: Path, data: Any) -> str:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return str(path)

    def manifest_data(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.manifest.read_text(encoding="utf-8"))
        return data

    def sub_manifest(self, name: str, ids: tuple[str, ...], **overrides: dict[str, Any]) -> str:
        """A manifest beside the main one listing ``ids`` (entries overridden per id); its path."""
        data = self.manifest_data()
        by_id = {d["source_id"]: d for d in data["documents"]}
        data["documents"] = [{**by_id[sid], **overrides.get(sid, {})} for sid in ids]
        return self.write_json(self.root / name, data)

    def bad_grammar_manifest(self) -> str:
        data = self.manifest_data()
        data["grammar"]["operations"]["create_copy"]["existing_path"]["values"][1] = "over write"
        return self.write_json(self.root / "bad-grammar.json", data)

    def decision(self, *ids: str, claim: str = "existing_path", version: str = "1.0") -> str:
        """Save the gate's result for a request (create_copy) as a decision file; its path."""
        result = self.gate("--version", version, "--claim", claim, "--operation", "create_copy", *ids)
        path = self.tmp / f"decision-{'-'.join(ids)}.json"
        path.write_text(result.out, encoding="utf-8")
        return str(path)

    def check_answer(self, decision: str, answer: bytes, manifest: str | None = None) -> Run:
        return self.cli(
            "check-answer", "--manifest", manifest or self.m, "--decision", decision, "--answer", "-", stdin=answer
        )


SUPPORTED_ANSWER = (
    b"In Quill 1.0 (`version=1.0`) create_copy refuses: `existing_path=refuse`.\n"
    b"`@quill create_copy existing_path=refuse` [source: guide:3]\n"
    b"`@quill create_copy existing_path=refuse` [source: reference:3]\n"
)


def copy_lab_fixtures(target: Path) -> Path:
    """Copy the lab's manifest and docs/ to ``target``; return the copied manifest."""
    shutil.copytree(REPO / "docs", target / "docs")
    shutil.copy2(REPO / "manifest.json", target / "manifest.json")
    return target / "manifest.json"


# ==========================================================================
# every exit code of every command


class ExitCodeTableTest(CliCase):
    """Each command reaches every exit code COMMAND_EXIT_CODES lists for it; user errors are one line."""

    def scenarios(self) -> dict[str, dict[str, Callable[[], Run]]]:
        ready = ("--version", "1.0", "--claim", "existing_path", "--operation", "create_copy")
        clean = self.sub_manifest("clean.json", ("guide", "reference", "next"))
        current = self.sub_manifest("current.json", ("guide", "reference"))
        stale = self.sub_manifest("stale.json", ("guide", "reference"), reference={"sha256": sha(b"old")})
        not_json = self.root / "not-json.json"
        not_json.write_text('{"documents": [\n  {,}\n]}\n', encoding="utf-8")
        drifted = self.sub_manifest("drifted.json", ("guide",), guide={"sha256": sha(b"old")})
        docs = self.tmp / "site"
        (docs / "1.0").mkdir(parents=True)
        (docs / "1.0" / "page.md").write_bytes(REFERENCE)
        existing = self.tmp / "existing.json"
        existing.write_bytes(SENTINEL)
        ready_decision = self.decision("guide", "reference")
        conflict_decision = self.decision("guide", "rival")
        lab_tmp = self.tmp / "lab"
        lab_manifest = copy_lab_fixtures(lab_tmp)
        expected = lab_tmp / "expected-result.json"
        bad_lab = self.tmp / "bad-lab"
        bad_lab_manifest = copy_lab_fixtures(bad_lab)
        data = json.loads(bad_lab_manifest.read_text(encoding="utf-8"))
        data["grammar"]["namespace"] = "Quill"
        bad_lab_manifest.write_text(json.dumps(data), encoding="utf-8")

        def lab(*argv: str, manifest: Path = lab_manifest, golden: bytes | None = None) -> Callable[[], Run]:
            def call() -> Run:
                with self.lab_on(manifest, expected):
                    if golden is not None:
                        expected.write_bytes(golden)
                    return self.cli(*argv, lab=True)

            return call

        def failing_replace() -> Run:
            with mock.patch.object(os, "replace", side_effect=OSError(errno.EIO, os.strerror(errno.EIO))):
                return self.cli("pin", "--manifest", stale)

        fresh = render_json(run.run_lab(lab_manifest)).encode("utf-8")
        return {
            "gate": {
                "ok": lambda: self.gate(*ready, "guide", "reference"),
                "conflict": lambda: self.gate(*ready, "guide", "rival"),
                "not_in_docs": lambda: self.gate("--version", "1.0", "--claim", "close_required", "guide", "reference"),
                "refused": lambda: self.gate(*ready, "guide", "broken"),
                "usage": lambda: self.gate(*ready, "guide", "ghost"),
                "input": lambda: self.gate(*ready, "guide", manifest=str(self.root / "absent.json")),
                "grammar": lambda: self.gate(*ready, "guide", manifest=self.bad_grammar_manifest()),
            },
            "audit": {
                "ok": lambda: self.cli("audit", "--manifest", clean),
                "findings": lambda: self.cli("audit", "--manifest", self.m),
                "usage": lambda: self.cli("audit", "--manifest", self.m, "--format", "html"),
                "input": lambda: self.cli("audit", "--manifest", drifted),
                "grammar": lambda: self.cli("audit", "--manifest", self.bad_grammar_manifest()),
                "output": lambda: self.cli(
                    "audit",
                    "--manifest",
                    clean,
                    "--format",
                    "github",
                    environ={"GITHUB_STEP_SUMMARY": str(self.tmp / "no-such-folder" / "summary.md")},
                ),
            },
            "pin": {
                "ok": lambda: self.cli("pin", "--manifest", current),
                "findings": lambda: self.cli("pin", "--check", "--manifest", stale),
                "usage": lambda: self.cli("pin", "--check"),
                "input": lambda: self.cli("pin", "--manifest", str(not_json)),
                "grammar": lambda: self.cli("pin", "--manifest", self.bad_grammar_manifest()),
                "output": failing_replace,
            },
            "init": {
                "ok": lambda: self.cli("init", str(docs), "--version-from", "{version}/**"),
                "usage": lambda: self.cli("init", str(docs), "--version-from", "docs/**"),
                "input": lambda: self.cli("init", str(self.tmp / "no-such-docs"), "--version-from", "{version}/**"),
                "output": lambda: self.cli(
                    "init", str(docs), "--version-from", "{version}/**", "--manifest", str(existing)
                ),
                "grammar": lambda: self.cli("init", "--update", "--manifest", self.bad_grammar_manifest()),
            },
            "grammar": {
                "ok": lambda: self.cli("grammar", "--manifest", self.m),
                "usage": lambda: self.cli("grammar", "--manifest", self.m, "--format", "yaml"),
                "input": lambda: self.cli("grammar", "--manifest", str(not_json)),
                "grammar": lambda: self.cli("grammar", "--manifest", self.bad_grammar_manifest()),
            },
            "check-answer": {
                "ok": lambda: self.check_answer(ready_decision, SUPPORTED_ANSWER),
                "unsupported": lambda: self.check_answer(
                    ready_decision, SUPPORTED_ANSWER.replace(b"`existing_path=refuse`", b"`existing_path=overwrite`")
                ),
                "withheld": lambda: self.check_answer(conflict_decision, SUPPORTED_ANSWER),
                "malformed": lambda: self.check_answer(ready_decision, b"  \n"),
                "decision": lambda: self.check_answer(str(self.tmp / "no-decision.json"), SUPPORTED_ANSWER),
                "usage": lambda: self.cli("check-answer", "--manifest", self.m, "--answer", "-"),
                "input": lambda: self.cli(
                    "check-answer",
                    "--manifest",
                    self.m,
                    "--decision",
                    ready_decision,
                    "--answer",
                    str(self.tmp / "no-answer.txt"),
                ),
                "grammar": lambda: self.check_answer(
                    ready_decision, SUPPORTED_ANSWER, manifest=self.bad_grammar_manifest()
                ),
            },
            "schema": {
                "ok": lambda: self.cli("schema", "decision"),
                "usage": lambda: self.cli("schema", "verdict"),
            },
            "versions": {
                "ok": lambda: self.cli("versions", "--manifest", self.m),
                "usage": lambda: self.cli("versions", "--manifest", self.m, "--format", "yaml"),
                "input": lambda: self.cli("versions", "--manifest", drifted, "--strict"),
                "grammar": lambda: self.cli("versions", "--manifest", self.bad_grammar_manifest()),
            },
            "mcp": {  # the SDK is an optional extra: without it, the scenarios that start a server skip
                "ok": lambda: self.serve_until_stdin_closes(clean),
                "usage": self.mcp_without_the_sdk,
                "input": lambda: self.with_sdk("mcp", "--manifest", str(self.root / "absent.json")),
                "grammar": lambda: self.with_sdk("mcp", "--manifest", self.bad_grammar_manifest()),
            },
            LAB: {
                "ok": lab("--check", golden=fresh),
                "findings": lab("--check", golden=fresh.replace(b'"model_called": false', b'"model_called": true')),
                "usage": lab("--check", "--output", str(self.tmp / "r.json")),
                "input": lab("--check", manifest=lab_tmp / "absent.json"),
                "grammar": lab("--check", manifest=bad_lab_manifest),
                "output": lab("--output", str(self.tmp / "no-such-folder" / "r.json")),
            },
        }

    def with_sdk(self, *argv: str) -> Run:
        if importlib.util.find_spec("mcp") is None:
            self.skipTest("SKIPPED: the MCP SDK is not installed (.ci/run's MCP step runs this with it)")
        return self.cli(*argv)

    def mcp_without_the_sdk(self) -> Run:
        with without_the_mcp_sdk():
            return self.cli("mcp", "--manifest", self.m)

    def serve_until_stdin_closes(self, manifest: str) -> Run:
        """``python run.py mcp`` as a real process whose client closes stdin at once: it ends, exit 0."""
        if importlib.util.find_spec("mcp") is None:
            self.skipTest("SKIPPED: the MCP SDK is not installed (.ci/run's MCP step runs this with it)")
        done = subprocess.run(
            [sys.executable, "run.py", "mcp", "--manifest", manifest],
            check=False,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        self.assertEqual(done.stdout, "")
        return Run(done.returncode, done.stdout, done.stderr)

    def test_every_command_reaches_every_listed_exit_code(self) -> None:
        scenarios = self.scenarios()
        self.assertEqual(set(scenarios), set(COMMAND_EXIT_CODES))
        for command, cases in scenarios.items():
            with self.subTest(command):
                self.assertEqual(
                    sorted(cases),
                    sorted(COMMAND_EXIT_CODES[command]),
                    "the table of scenarios must match COMMAND_EXIT_CODES",
                )
            for name, scenario in cases.items():
                with self.subTest(command, exit=name):
                    result = scenario()
                    self.assertEqual(result.code, code(name), result)
                    if name in ERROR_KINDS:
                        self.assertUserError(
                            result, name, prog="python run.py" if command == LAB else "conflict-gate", stdout=None
                        )
                    else:
                        self.assertNotIn("error:", result.err)
                        self.assertPrintableLines(result.err, OUTCOME_LINES)

    def test_exit_codes_are_distinct_and_command_tables_name_known_codes(self) -> None:
        """Guards against two meanings sharing a number, or a command listing an undefined code."""
        numbers = [number for number, _ in EXIT_CODES.values()]
        self.assertEqual(len(numbers), len(set(numbers)))
        self.assertEqual(code("ok"), 0)
        for command, names in COMMAND_EXIT_CODES.items():
            with self.subTest(command):
                self.assertLessEqual(set(names), set(EXIT_CODES))
                self.assertIn("ok", names)
                self.assertIn("usage", names)


# ==========================================================================
# gate


class GateTest(CliCase):
    def test_ready_prints_the_library_result_and_nothing_on_stderr(self) -> None:
        result = self.gate(
            "--version", "1.0", "--claim", "existing_path", "--operation", "create_copy", "reference", "guide"
        )
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        expected = library_gate(load_documents(self.m), ["reference", "guide"], "1.0", "create_copy", "existing_path")
        self.assertEqual(result.out, render_json(expected))
        decision = json.loads(result.out)
        self.assertEqual((decision["status"], decision["agreed_value"]), ("ready", "refuse"))
        self.assertIsNotNone(decision["answer_request"])

    def test_gate_verifies_only_its_candidates_pages(self) -> None:
        """Guards against the command line's gate reading and verifying every page of the manifest
        (issue 33 item 2: 7.8 s on 10,000 pages): a page that is no candidate, changed or gone, does
        not stop it, while the manifest is still checked whole and a candidate that changed does."""
        (self.root / "docs/rival.md").write_bytes(b"# Rival\n\nchanged since the pin\n")
        (self.root / "docs/next.md").unlink()
        args = ("--version", "1.0", "--claim", "existing_path", "--operation", "create_copy")
        result = self.gate(*args, "reference", "guide")
        self.assertEqual((result.code, json.loads(result.out)["status"]), (code("ok"), "ready"))
        self.assertUserError(self.gate(*args, "reference", "rival"), "input", "rival")
        self.assertEqual(self.cli("audit", "--manifest", self.m).code, code("input"))  # the audit reads all

    def test_operation_may_be_omitted_when_one_operation_has_the_key(self) -> None:
        """close_required belongs to create_copy only: --operation is not needed."""
        without = self.gate("--version", "1.0", "--claim", "close_required", "guide")
        with_ = self.gate("--version", "1.0", "--claim", "close_required", "--operation", "create_copy", "guide")
        self.assertEqual(without, with_)
        self.assertEqual(without.code, code("ok"))
        self.assertEqual(json.loads(without.out)["operation"], "create_copy")

    def test_operation_needed_when_several_operations_have_the_key(self) -> None:
        """Guards against the gate picking one of several operations for an ambiguous key."""
        self.assertUserError(
            self.gate("--version", "1.0", "--claim", "existing_path", "guide"),
            "usage",
            "existing_path",
            "create_copy, move",
            "--operation",
        )

    def test_unknown_key_lists_the_claims_and_how_to_see_the_grammar(self) -> None:
        for operation in ((), ("--operation", "create_copy")):
            with self.subTest(operation=operation):
                err = self.assertUserError(
                    self.gate("--version", "1.0", "--claim", "colour", *operation, "guide"),
                    "usage",
                    "'colour'",
                    "create_copy existing_path",
                    "create_copy close_required",
                    "move existing_path",
                )
                if not operation:
                    self.assertIn("grammar --manifest", err)

    def test_stderr_summary_per_status(self) -> None:
        cases = [
            ("ready", ("1.0", "existing_path", "guide", "reference"), "ok", ""),
            (
                "conflict",
                ("1.0", "existing_path", "guide", "rival"),
                "conflict",
                "conflict: guide=refuse, rival=overwrite\n",
            ),
            (
                "one silent",
                ("1.0", "close_required", "guide", "reference"),
                "not_in_docs",
                "not_in_docs: reference does not declare create_copy close_required\n",
            ),
            (
                "two silent",
                ("1.0", "close_required", "guide", "reference", "rival"),
                "not_in_docs",
                "not_in_docs: reference, rival do not declare create_copy close_required\n",
            ),
            (
                "absent version",
                ("3.0", "existing_path", "guide", "next"),
                "not_in_docs",
                "not_in_docs: no candidate has version 3.0; candidates have: 1.0, 2.0\n",
            ),
            (
                "draft only",
                ("1.0", "existing_path", "draft", "next"),
                "not_in_docs",
                "not_in_docs: no approved candidate has version 1.0 (set aside: draft)\n",
            ),
            (
                "refused",
                ("1.0", "existing_path", "guide", "broken"),
                "refused",
                f"refused: {BROKEN_MESSAGE} [malformed_directive]\n",
            ),
        ]
        for label, (version, claim, *ids), exit_name, stderr in cases:
            with self.subTest(label):
                result = self.gate("--version", version, "--claim", claim, "--operation", "create_copy", *ids)
                self.assertEqual((result.code, result.err), (code(exit_name), stderr))
                self.assertEqual(result.out, render_json(json.loads(result.out)))

    def test_a_draft_never_decides(self) -> None:
        result = self.gate(
            "--version", "1.0", "--claim", "existing_path", "--operation", "create_copy", "guide", "reference", "draft"
        )
        decision = json.loads(result.out)
        self.assertEqual((result.code, decision["status"], decision["agreed_value"]), (code("ok"), "ready", "refuse"))
        self.assertEqual(decision["excluded_unapproved_ids"], ["draft"])

    def test_request_errors_are_one_line(self) -> None:
        ready = ("--claim", "existing_path", "--operation", "create_copy")
        cases = {
            "bad version": (("--version", "v1.0", *ready, "guide"), "[invalid_requested_version]"),
            "unknown candidate": (
                ("--version", "1.0", *ready, "guidee"),
                "source 'guidee': not in the manifest (did you mean 'guide'?) [unknown_candidate]",
            ),
            "duplicate candidate": (("--version", "1.0", *ready, "guide", "guide"), "[duplicate_candidate]"),
            "unknown option": (("--version", "1.0", *ready, "--bogus", "guide"), "--bogus"),
            "no candidates": (("--version", "1.0", *ready), "SOURCE_ID"),
            "no manifest option": (
                (
                    "--version",
                    "1.0",
                ),
                "--manifest",
            ),
        }
        for label, (args, part) in cases.items():
            with self.subTest(label):
                if label == "no manifest option":
                    result = self.cli("gate", *args, *ready, "guide")
                else:
                    result = self.gate(*args)
                self.assertUserError(result, "usage", part)

    def test_input_errors_name_the_fix(self) -> None:
        edited = REFERENCE + b"\nEdited after pinning.\n"
        (self.root / "docs/reference.md").write_bytes(edited)
        ready = ("--version", "1.0", "--claim", "existing_path", "--operation", "create_copy", "guide")
        self.assertEqual(
            self.gate(*ready, "reference"),
            Run(
                code("input"),
                "",
                f"conflict-gate: error: source 'reference' (docs/reference.md): sha256 is {sha(edited)}, pinned "
                f"{sha(REFERENCE)} [hash_mismatch]; if the edit is intended, re-pin: conflict-gate pin "
                f"--manifest {shlex.quote(self.m)}\n",
            ),
        )
        unpinned = self.sub_manifest("unpinned.json", ("guide",), guide={"sha256": ""})
        self.assertUserError(
            self.gate(*ready, manifest=unpinned),
            "input",
            "[source_unpinned]",
            "review the page, then pin it: conflict-gate pin --manifest " + shlex.quote(unpinned),
        )

    def test_control_characters_in_ids_paths_and_values_stay_escaped(self) -> None:
        """Regression: a newline or an escape in a path, id or version could forge a line on a terminal."""
        ready = ("--claim", "existing_path", "--operation", "create_copy")
        newline_manifest = self.sub_manifest("new\nline.json", ("guide",), guide={"sha256": ""})
        cases = {
            "id with a newline": (self.gate("--version", "1.0", *ready, "gu\nide"), "usage", "'gu\\nide'"),
            "id with an escape": (self.gate("--version", "1.0", *ready, "\x1b[2Jguide"), "usage", "\\x1b[2J"),
            "version with an escape": (self.gate("--version", "1.0\x1b[31m", *ready, "guide"), "usage", "\\x1b[31m"),
            "key with a newline": (
                self.gate("--version", "1.0", "--claim", "close\nrequired", "guide"),
                "usage",
                "close\\nrequired",
            ),
            "missing manifest with a newline": (
                self.gate("--version", "1.0", *ready, "guide", manifest=str(self.root / "a\nb.json")),
                "input",
                "a\\nb.json",
            ),
            "manifest path with a newline": (
                self.gate("--version", "1.0", *ready, "guide", manifest=newline_manifest),
                "input",
                "new\\nline",
            ),
            "path in the manifest with a newline": (
                self.gate(
                    "--version",
                    "1.0",
                    *ready,
                    "guide",
                    manifest=self.sub_manifest("p.json", ("guide",), guide={"path": "docs/gu\nide.md"}),
                ),
                "input",
                "[invalid_path]",
            ),
            "path with an escape": (
                self.gate(
                    "--version",
                    "1.0",
                    *ready,
                    "guide",
                    manifest=self.sub_manifest("q.json", ("guide",), guide={"path": "docs/\x1b]0;x\x07.md"}),
                ),
                "input",
                "[invalid_path]",
            ),
            "url with an escape": (
                self.gate(
                    "--version",
                    "1.0",
                    *ready,
                    "guide",
                    manifest=self.sub_manifest("u.json", ("guide",), guide={"url": "https://x/\x1b[2J"}),
                ),
                "input",
                "[invalid_url]",
            ),
            "source id with an escape in the manifest": (
                self.gate(
                    "--version",
                    "1.0",
                    *ready,
                    "guide",
                    manifest=self.sub_manifest("r.json", ("guide",), guide={"source_id": "gu\x1bide"}),
                ),
                "input",
                "[invalid_source_id]",
            ),
        }
        for label, (result, kind, part) in cases.items():
            with self.subTest(label):
                self.assertUserError(result, kind, part)

    def test_bad_grammar_exits_8_before_deciding(self) -> None:
        self.assertUserError(
            self.gate("--version", "1.0", "--claim", "existing_path", "guide", manifest=self.bad_grammar_manifest()),
            "grammar",
            "/grammar/operations/create_copy/existing_path/values/1",
            "[invalid_value_rule]",
        )


# ==========================================================================
# audit


class AuditTest(CliCase):
    def test_markdown_exact(self) -> None:
        """Claims, conflicts, refused sources, drafts that would conflict and near-misses, in that order."""
        self.assertEqual(
            self.cli("audit", "--manifest", self.m), Run(code("findings"), AUDIT_MARKDOWN.format(manifest=self.m), "")
        )

    def test_json_shape(self) -> None:
        result = self.cli("audit", "--manifest", self.m, "--format", "json")
        self.assertEqual((result.code, result.err), (code("findings"), ""))
        report = json.loads(result.out)
        self.assertEqual(result.out, render_json(report))
        self.assertEqual(
            list(report),
            [
                "source_count",
                "versions",
                "operations",
                "refused_sources",
                "unapproved_conflicts",
                "near_misses",
                "left_out_readings",
                "summary",
                "clean",
                "unlisted_sources",
                "renderer",
            ],
        )
        self.assertEqual(report["renderer"], "portable")
        self.assertEqual(
            report["summary"],
            {
                "agree": 1,
                "conflict": 1,
                "partial": 1,
                "refused": 1,
                "unapproved_conflicts": 1,
                "near_misses": 1,
                "failed": 0,
            },
        )
        self.assertFalse(report["clean"])
        self.assertEqual(
            [(r["source_id"], r["status"], r["reason"], r["line"], r["column"]) for r in report["refused_sources"]],
            [("broken", "approved", "malformed_directive", 3, 33)],
        )
        self.assertEqual(
            report["unapproved_conflicts"],
            [
                {
                    "source_id": "draft",
                    "status": "draft",
                    "version": "1.0",
                    "path": "docs/draft.md",
                    "line": 3,
                    "operation": "create_copy",
                    "claim_key": "existing_path",
                    "value": "overwrite",
                    "approved_values": ["overwrite", "refuse"],
                }
            ],
        )

    def test_exit_code_follows_conflicts_and_refused_approved_sources_only(self) -> None:
        """A partial claim, a conflicting draft, a refused draft and near-misses are reported; CI passes."""
        cases = [
            (("guide", "reference", "next"), {}, "ok", "**clean**"),
            (("guide", "reference", "draft"), {}, "ok", "**clean**"),
            (("guide", "reference", "broken"), {"broken": {"status": "draft"}}, "ok", "**clean**"),
            (("guide", "rival"), {}, "findings", "**NOT CLEAN**"),
            (("guide", "broken"), {}, "findings", "**NOT CLEAN**"),
        ]
        for ids, overrides, exit_name, verdict in cases:
            with self.subTest(ids=ids, overrides=overrides):
                manifest = self.sub_manifest("-".join(ids) + ".json", ids, **overrides)
                result = self.cli("audit", "--manifest", manifest)
                self.assertEqual((result.code, result.err), (code(exit_name), ""))
                self.assertIn(verdict, result.out.splitlines()[2])
                if "broken" in ids:
                    self.assertIn("## Refused sources", result.out)
                if "draft" in ids:
                    self.assertIn(
                        "## Drafts and deprecated pages that would conflict once approved\n\n"
                        "| source | status | location | claim | value | approved values |\n"
                        "|---|---|---|---|---|---|\n"
                        "| draft | draft | docs/draft.md:3 | create_copy existing_path | overwrite | refuse |\n",
                        result.out,
                    )

    def test_a_deprecated_page_is_listed_like_a_draft(self) -> None:
        manifest = self.sub_manifest("deprecated.json", ("guide", "rival"), rival={"status": "deprecated"})
        result = self.cli("audit", "--manifest", manifest)
        self.assertEqual(result.code, code("ok"))
        self.assertIn(
            "| rival | deprecated | docs/rival.md:3 | create_copy existing_path | overwrite | refuse |", result.out
        )

    def test_manifest_whose_name_is_not_utf8(self) -> None:
        """Regression: audit printed the raw manifest path; on a strict UTF-8 terminal, a traceback."""
        odd = os.fsencode(self.root) + b"/m\xff.json"
        try:
            shutil.copy(os.fsencode(self.sub_manifest("clean.json", ("guide", "reference"))), odd)
        except OSError as error:  # e.g. macOS file systems refuse names that are not UTF-8
            self.skipTest(f"this file system refuses a name that is not UTF-8: {error}")
        for fmt in ("markdown", "json"):
            with self.subTest(fmt):
                result = self.cli("audit", "--manifest", os.fsdecode(odd), "--format", fmt)
                self.assertEqual((result.code, result.err), (code("ok"), ""))
                result.out.encode("utf-8")
        heading = self.cli("audit", "--manifest", os.fsdecode(odd)).out.splitlines()[0]
        self.assertEqual(heading, f"# conflict-gate audit: {self.root}/m\\xff.json")

    def test_an_undecodable_byte_is_written_alike_in_every_message(self) -> None:
        """Guards against hostile round 1, finding 12 (open until round 3): an undecodable byte of a path
        or an argument was written ``\\udcff`` in some messages (the manifest's, the decision's, a quoted
        source id or version) and ``\\xff`` in others (the answer's, JSON results); now ``\\xff`` in all.
        A backslash the user typed stays escaped (``a\\udcff`` typed is ``'a\\\\udcff'``)."""
        missing = os.fsdecode(os.fsencode(self.root) + b"/no\xff.json")
        manifest = self.sub_manifest("clean.json", ("guide", "reference"))
        for argv, kind in (
            (
                (
                    "gate",
                    "--manifest",
                    missing,
                    "--version",
                    "1.0",
                    "--operation",
                    "create_copy",
                    "--claim",
                    "existing_path",
                    "guide",
                ),
                "input",
            ),
            (
                (
                    "gate",
                    "--manifest",
                    manifest,
                    "--version",
                    "1.0",
                    "--operation",
                    "create_copy",
                    "--claim",
                    "existing_path",
                    os.fsdecode(b"guide\xff"),
                ),
                "usage",
            ),
            (
                (
                    "gate",
                    "--manifest",
                    manifest,
                    "--version",
                    os.fsdecode(b"\xff"),
                    "--operation",
                    "create_copy",
                    "--claim",
                    "existing_path",
                    "guide",
                ),
                "usage",
            ),
            (("check-answer", "--manifest", manifest, "--decision", missing, "--answer", "-"), "decision"),
            (
                (
                    "check-answer",
                    "--manifest",
                    manifest,
                    "--decision",
                    missing.replace(".json", ".d"),
                    "--answer",
                    missing,
                ),
                "decision",
            ),
        ):
            with self.subTest(argv=argv):
                result = self.cli(*argv)
                self.assertUserError(result, kind, "\\xff")
                self.assertNotIn("udcff", result.err)
        result = self.cli(
            "gate",
            "--manifest",
            manifest,
            "--version",
            "1.0",
            "--operation",
            "create_copy",
            "--claim",
            "existing_path",
            "a\\udcff",
        )
        self.assertUserError(result, "usage", "'a\\\\udcff'")

    def test_a_heading_path_with_a_newline_stays_one_line(self) -> None:
        manifest = self.sub_manifest("a\nb.json", ("guide", "reference"))
        result = self.cli("audit", "--manifest", manifest)
        self.assertEqual(result.out.splitlines()[0], f"# conflict-gate audit: {self.root}/a\\nb.json")


# ==========================================================================
# pin


class PinTest(CliCase):
    def setUp(self) -> None:
        super().setUp()
        self.entries = self.manifest_data()["documents"]

    def line(self, verb: str, sid: str, old: str, raw: bytes) -> str:
        path = next(e["path"] for e in self.entries if e["source_id"] == sid)
        return f"{verb} {sid} ({path}): {old} -> {sha(raw)} ({len(raw)} bytes)\n"

    def assertFolderHolds(self, folder: Path, names: set[str]) -> None:
        """No temporary file of the atomic write is left behind."""
        self.assertEqual({p.name for p in folder.iterdir() if p.is_file()}, names)

    def test_first_pin_of_an_unpinned_manifest(self) -> None:
        data = self.manifest_data()
        for entry in data["documents"]:
            entry["sha256"] = ""
        self.write_json(self.manifest, data)
        raw = {sid: FILES[f"docs/{sid}.md"] for sid in IDS}
        # a newcomer read "stale" as "edited since its pin": a page never pinned is "unpinned"
        self.assertEqual(
            self.cli("pin", "--check", "--manifest", self.m).out.splitlines()[0],
            self.line("unpinned", IDS[0], "(unpinned)", raw[IDS[0]]).rstrip("\n"),
        )
        result = self.cli("pin", "--manifest", self.m)
        self.assertEqual(
            result,
            Run(
                code("ok"),
                "".join(self.line("pinned", sid, "(unpinned)", raw[sid]) for sid in IDS)
                + f"wrote {self.m}: 6 pins updated\n",
                "",
            ),
        )
        self.assertEqual([e["sha256"] for e in self.manifest_data()["documents"]], [sha(raw[sid]) for sid in IDS])
        self.assertFolderHolds(self.root, {"manifest.json"})
        self.assertEqual(
            self.cli("pin", "--check", "--manifest", self.m), Run(code("ok"), "all 6 pins are current\n", "")
        )
        self.assertEqual(self.gate("--version", "1.0", "--claim", "close_required", "guide").code, code("ok"))

    def test_after_an_edit_only_that_pin_changes_in_place(self) -> None:
        """Guards against pin reformatting a hand-written manifest: indent, key order, CRLF and BOM kept."""
        rows = ",\r\n".join(
            f'    {{"sha256" :  "{e["sha256"]}", "path": "{e["path"]}", "version": "{e["version"]}",'
            f' "source_id": "{e["source_id"]}"' + (f', "status": "{e["status"]}"' if "status" in e else "") + "}"
            for e in self.entries
        )
        grammar = json.dumps(GRAMMAR)
        before = (
            '\ufeff{\r\n  "version_scheme": "major.minor",\r\n  "grammar": '
            + grammar
            + ',\r\n  "documents": [\r\n'
            + rows
            + "\r\n  ]\r\n}\r\n"
        )
        self.manifest.write_bytes(before.encode("utf-8"))
        self.manifest.chmod(0o640)
        edited = REFERENCE + b"\nA new paragraph.\n"
        (self.root / "docs/reference.md").write_bytes(edited)
        result = self.cli("pin", "--manifest", self.m)
        self.assertEqual(
            result,
            Run(
                code("ok"),
                self.line("pinned", "reference", sha(REFERENCE), edited) + f"wrote {self.m}: 1 pin updated\n",
                "",
            ),
        )
        self.assertEqual(before.count(sha(REFERENCE)), 1)
        self.assertEqual(self.manifest.read_bytes(), before.replace(sha(REFERENCE), sha(edited)).encode("utf-8"))
        self.assertEqual(self.manifest.stat().st_mode & 0o777, 0o640)
        self.assertFolderHolds(self.root, {"manifest.json"})

    def test_a_pin_key_written_with_an_escape_falls_back_to_rendering(self) -> None:
        """The pins cannot be matched in place: the manifest is re-rendered, every pin right."""
        text = self.manifest.read_text(encoding="utf-8").replace('"sha256"', '"\\u0073ha256"', 1)
        self.manifest.write_text(text, encoding="utf-8")
        edited = GUIDE + b"\nMore.\n"
        (self.root / "docs/guide.md").write_bytes(edited)
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        data = self.manifest_data()
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), render_json(data))
        self.assertEqual(data["documents"][0]["sha256"], sha(edited))
        self.assertEqual(self.cli("pin", "--check", "--manifest", self.m).code, code("ok"))

    def test_nothing_changed_leaves_the_file_untouched(self) -> None:
        before = self.manifest.read_bytes()
        info = self.manifest.stat()
        result = self.cli("pin", "--manifest", self.m)
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        self.assertTrue(
            result.out.startswith("all 6 pins are current; ") and result.out.endswith(" unchanged\n"), result.out
        )
        after = self.manifest.stat()
        self.assertEqual(
            (self.manifest.read_bytes(), after.st_mtime_ns, after.st_ino), (before, info.st_mtime_ns, info.st_ino)
        )
        self.assertFolderHolds(self.root, {"manifest.json"})

    def test_check_reports_drift_and_changes_nothing(self) -> None:
        edited = REFERENCE + b"\nA new paragraph.\n"
        crlf = RIVAL.replace(b"\n", b"\r\n")
        cases: dict[str, tuple[dict[str, bytes | None], str, str]] = {
            "clean": ({}, "ok", "all 6 pins are current\n"),
            "stale": (
                {"docs/reference.md": edited},
                "findings",
                self.line("stale", "reference", sha(REFERENCE), edited),
            ),
            "missing": ({"docs/next.md": None}, "findings", "missing next (docs/next.md): file does not exist\n"),
            "crlf": (
                {"docs/rival.md": crlf},
                "findings",
                self.line("stale", "rival", sha(RIVAL), crlf)[:-1]
                + "; only line endings differ: the file has CRLF where the pinned bytes have LF\n",
            ),
            "stale and missing, in manifest order": (
                {"docs/next.md": None, "docs/reference.md": edited},
                "findings",
                self.line("stale", "reference", sha(REFERENCE), edited)
                + "missing next (docs/next.md): file does not exist\n",
            ),
        }
        repin = f"once the changed pages are reviewed, pin them: conflict-gate pin --manifest {self.m}\n"
        for label, (changes, exit_name, stdout) in cases.items():
            if label not in ("missing", "clean"):  # a changed page: the command that pins it, once reviewed
                stdout += repin
            with self.subTest(label):
                for rel, raw in FILES.items():
                    (self.root / rel).write_bytes(raw)
                for rel, change in changes.items():
                    if change is None:
                        (self.root / rel).unlink()
                    else:
                        (self.root / rel).write_bytes(change)
                before = self.manifest.read_bytes()
                mtime = self.manifest.stat().st_mtime_ns
                self.assertEqual(self.cli("pin", "--check", "--manifest", self.m), Run(code(exit_name), stdout, ""))
                self.assertEqual((self.manifest.read_bytes(), self.manifest.stat().st_mtime_ns), (before, mtime))
                self.assertFolderHolds(self.root, {"manifest.json"})

    def test_missing_source_without_check_is_an_input_error_and_writes_nothing(self) -> None:
        before = self.manifest.read_bytes()
        (self.root / "docs/next.md").unlink()
        (self.root / "docs/reference.md").write_bytes(REFERENCE + b"\nA new paragraph.\n")
        self.assertEqual(
            self.cli("pin", "--manifest", self.m),
            Run(
                code("input"),
                "",
                "conflict-gate: error: source 'next' (docs/next.md): file does not exist (paths are "
                "relative to the folder that holds the manifest) [source_missing]; restore the "
                'file, or remove its entry from the manifest (with "sources": conflict-gate '
                f"init --update --prune --manifest {self.m})\n",
            ),
        )
        self.assertEqual(self.manifest.read_bytes(), before)

    def test_a_page_that_is_not_utf8_is_refused_with_the_byte_offset(self) -> None:
        """Regression: pin pinned a page that is not UTF-8, which every later load then refused."""
        before = self.manifest.read_bytes()
        (self.root / "docs/reference.md").write_bytes(b"\xef\xbb\xbf# Ref\xe9rence\n")
        for check in ((), ("--check",)):
            with self.subTest(check=check):
                self.assertUserError(
                    self.cli("pin", *check, "--manifest", self.m),
                    "input",
                    "source 'reference' (docs/reference.md): invalid UTF-8 at byte 8 [source_not_utf8]",
                )
                self.assertEqual(self.manifest.read_bytes(), before)

    def test_missing_manifest_with_and_without_check(self) -> None:
        absent = str(self.root / "absent.json")
        for check in ((), ("--check",)):
            with self.subTest(check=check):
                self.assertEqual(
                    self.cli("pin", *check, "--manifest", absent),
                    Run(
                        code("input"),
                        "",
                        f"conflict-gate: error: {absent}: file does not exist [manifest_unreadable]\n",
                    ),
                )
                self.assertFalse(os.path.lexists(absent))

    def test_symlinked_manifest_is_written_through_and_read_beside_the_real_file(self) -> None:
        """Regression: pin must write the file the link names, report it, and read the sources gate reads.

        Beside the link lies a decoy docs/ with other bytes: pinning those would make
        every later gate fail with hash_mismatch.
        """
        real = self.manifest
        data = self.manifest_data()
        for entry in data["documents"]:
            entry["sha256"] = ""
        self.write_json(real, data)
        elsewhere = self.tmp / "elsewhere"
        (elsewhere / "docs").mkdir(parents=True)
        for rel in FILES:
            (elsewhere / rel).write_bytes(b"# decoy\n")
        link = elsewhere / "link.json"
        link.symlink_to(os.path.relpath(real, elsewhere))
        result = self.cli("pin", "--manifest", str(link))
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        self.assertTrue(link.is_symlink(), "the link must stay a link")
        self.assertEqual(
            [e["sha256"] for e in json.loads(real.read_text(encoding="utf-8"))["documents"]],
            [sha(FILES[f"docs/{sid}.md"]) for sid in IDS],
        )
        wrote = result.out.splitlines()[-1]
        self.assertTrue(wrote.startswith(f"wrote {link}"), wrote)
        self.assertIn(str(real), wrote, "pin must name the file it wrote, not only the link")
        self.assertFolderHolds(elsewhere, {"link.json"})
        self.assertFolderHolds(self.root, {"manifest.json"})
        for manifest in (str(link), self.m):
            with self.subTest(manifest=manifest):
                ready = self.gate("--version", "1.0", "--claim", "close_required", "guide", manifest=manifest)
                self.assertEqual(ready.code, code("ok"), ready.err)
                self.assertEqual(self.cli("pin", "--check", "--manifest", manifest).code, code("ok"))

    def test_two_entries_reaching_one_file_are_refused_like_the_loader(self) -> None:
        """Guards against pin accepting what gate will refuse (one file counted twice)."""
        (self.root / "docs/alias.md").symlink_to("reference.md")
        data = self.manifest_data()
        guide, reference = data["documents"][:2]
        manifests = []
        for name, path in (("linked.json", "docs/alias.md"), ("same-text.json", "docs/reference.md")):
            data["documents"] = [guide, reference, {**reference, "source_id": "alias", "path": path}]
            manifests.append(self.write_json(self.root / name, data))
        linked, same_text = manifests
        for label, manifest in (("through a link", linked), ("same path text", same_text)):
            for args in (
                ("pin", "--manifest", manifest),
                ("pin", "--check", "--manifest", manifest),
                (
                    "gate",
                    "--manifest",
                    manifest,
                    "--version",
                    "1.0",
                    "--claim",
                    "close_required",
                    "guide",
                    "reference",
                    "alias",
                ),
            ):
                with self.subTest(label, command=" ".join(args[:2])):
                    before = Path(manifest).read_bytes()
                    self.assertUserError(self.cli(*args), "input", "source 'alias'", "[duplicate_path]")
                    self.assertEqual(Path(manifest).read_bytes(), before)

    def test_a_failure_mid_write_keeps_the_manifest_and_leaves_no_temp_file(self) -> None:
        before = self.manifest.read_bytes()
        (self.root / "docs/guide.md").write_bytes(GUIDE + b"\nMore.\n")
        for step in ("fsync", "replace"):
            with self.subTest(step):
                failure = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                with mock.patch.object(os, step, side_effect=failure) as patched:
                    result = self.cli("pin", "--manifest", self.m)
                self.assertTrue(patched.called)
                self.assertUserError(
                    result, "output", f"cannot write {self.m}: {os.strerror(errno.ENOSPC)}", stdout=None
                )
                self.assertEqual(self.manifest.read_bytes(), before)
                self.assertFolderHolds(self.root, {"manifest.json"})

    def test_a_manifest_name_that_is_not_utf8_or_holds_a_newline(self) -> None:
        """Regression: pin printed the manifest path raw in its report: a lone surrogate crashed a
        strict UTF-8 terminal (after the write), a newline forged a second line."""
        names = {
            "newline": os.fsencode(self.root) + b"/new\nline.json",
            "not UTF-8": os.fsencode(self.root) + b"/m\xff.json",
        }
        for label, name in names.items():
            for edit in (False, True):
                with self.subTest(label, edit=edit):
                    for rel, raw in FILES.items():
                        (self.root / rel).write_bytes(raw)
                    try:
                        shutil.copy(os.fsencode(self.manifest), name)
                    except OSError as error:
                        self.skipTest(f"this file system refuses the name {name!r}: {error}")
                    if edit:
                        (self.root / "docs/guide.md").write_bytes(GUIDE + b"\nMore.\n")
                    result = self.cli("pin", "--manifest", os.fsdecode(name))
                    self.assertEqual((result.code, result.err), (code("ok"), ""))
                    self.assertPrintableLines(result.out, ("pinned ", "wrote ", "all "))
                    self.assertEqual(len(result.out.splitlines()), 2 if edit else 1, result.out)


# ==========================================================================
# init


ACME_GRAMMAR_EDIT = {"type": "integer", "min": 0, "max": 10}
#: What init writes on stderr: one line per page left out, then what it wrote and what to do next.
INIT_LINES = ("left out: ", "wrote ", "next: ")


class InitTest(CliCase):
    def site(self) -> Path:
        """An Acme Widgets docs tree: semver folders, one page that fits no version, one draft-to-be."""
        docs = self.tmp / "site"
        pages = {
            "1.0.0/client/connect.md": b"# Connect\n\n@acme-widgets client.connect max-retries=3\n",
            "1.0.0/client/reference.markdown": b"# Reference\n\n@acme-widgets client.connect max-retries=3\n",
            "1.0.0/client/retries-draft.md": b"# Draft\n\n@acme-widgets client.connect max-retries=5\n",
            "2.1.0-beta.1/client/connect.md": b"# Beta\n\n@acme-widgets client.connect max-retries=5\n"
            b"@acme-widgets client.connect mode=fast\n",
            "README.md": b"# Acme Widgets docs\n",
            "1.0.0/notes.txt": b"not markdown\n",
        }
        for rel, raw in pages.items():
            (docs / rel).parent.mkdir(parents=True, exist_ok=True)
            (docs / rel).write_bytes(raw)
        return docs

    def test_pages_with_no_version_in_their_path_are_told_where_to_go(self) -> None:
        """Guards against a newcomer's one-version tree (docs/guide.md) stopping with only "does not match
        '{version}/**'": the error says a page's version is a part of its path, and what to do."""
        docs = self.tmp / "flat"
        docs.mkdir()
        (docs / "guide.md").write_bytes(b"# Guide\n\n@acme net.connect tls=required\n")
        result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertUserError(result, "input", "no page under", "nothing written", "a folder named for its version")
        self.assertFalse((docs / "manifest.json").exists())

    def test_the_proposed_grammar_leaves_out_examples_in_code(self) -> None:
        """Regression: init proposed values and operations from directive lines in fenced examples; and the
        operations it then left out of the grammar went unnamed (a newcomer's refused page lost its operation)."""
        docs = self.tmp / "site"
        (docs / "1.0").mkdir(parents=True)
        (docs / "1.0" / "a.md").write_bytes(
            b"@acme net.connect tls=required\n\n```\n@acme net.connect tls=disabled\n@acme debug.log verbose=yes\n```\n"
        )
        result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertIn("grammar proposed from 1 directive line", result.err)
        # the lines left out are counted (a newcomer's pages were refused without a word until audit)
        self.assertIn("2 more lines left out: in code, or on pages the reader refuses (audit names them)", result.err)
        # a claim only left-out lines hold is named: on a refused page it may be a real directive, and audit
        # would otherwise report its line as an unsupported operation, not as the refusal it is
        self.assertIn("not in the grammar, as only left-out lines hold them: debug.log verbose", result.err)
        data = json.loads((docs / "manifest.json").read_text(encoding="utf-8"))
        self.assertEqual(
            data["grammar"]["operations"], {"net.connect": {"tls": {"type": "enum", "values": ["required"]}}}
        )

    def test_renderer_is_written(self) -> None:
        """Issue 15: ``init --renderer NAME`` writes ``"renderer"`` after the version scheme, reads the pages
        by it for the proposed grammar and says so; without it no key is written (``commonmark``); an
        unknown name is a usage error and nothing is written."""
        docs = self.site()
        result = self.cli("init", str(docs), "--version-from", "{version}/**", "--renderer", "github")
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertIn("version scheme 'semver', renderer 'github', unpinned;", result.err)
        data = json.loads((docs / "manifest.json").read_text(encoding="utf-8"))
        self.assertEqual(list(data), ["grammar", "version_scheme", "renderer", "sources", "documents"])
        self.assertEqual(data["renderer"], "github")
        (docs / "manifest.json").unlink()
        result = self.cli("init", str(docs), "--version-from", "{version}/**", "--renderer", "gitlab")
        self.assertEqual((result.code, result.out), (code("usage"), ""))
        self.assertEqual(len(result.err.splitlines()), 1, result.err)
        self.assertIn("--renderer", result.err)
        self.assertFalse((docs / "manifest.json").exists())

    def test_starter_manifest_then_pin_grammar_audit_gate(self) -> None:
        docs = self.site()
        manifest = docs / "manifest.json"
        result = self.cli(
            "init", str(docs), "--version-from", "{version}/**", "--base-url", "https://widgets.acme.example/docs/"
        )
        self.assertEqual((result.code, result.out), (code("ok"), ""))
        err = result.err.splitlines()
        self.assertEqual(err[0], "left out: README.md: does not match '{version}/**'")
        self.assertTrue(err[1].startswith(f"wrote {manifest}: 4 sources, version scheme 'semver', unpinned; "), err[1])
        self.assertEqual(
            err[2],
            f'next: edit the grammar (and any "status": "draft"), then run: conflict-gate pin --manifest {manifest}',
        )
        self.assertEqual(len(err), 3)
        data = json.loads(manifest.read_text(encoding="utf-8"))
        self.assertEqual(manifest.read_text(encoding="utf-8"), render_json(data))
        self.assertEqual(data["version_scheme"], "semver")
        self.assertEqual(
            data["grammar"],
            {
                "namespace": "acme-widgets",
                "product": "Acme Widgets",
                "operations": {
                    "client.connect": {"max-retries": {"type": "integer"}, "mode": {"type": "enum", "values": ["fast"]}}
                },
            },
        )
        self.assertEqual(
            data["documents"],
            [
                {
                    "source_id": sid,
                    "version": sid.split("/")[0],
                    "path": path,
                    "url": f"https://widgets.acme.example/docs/{sid}",
                    "sha256": "",
                }
                for sid, path in (
                    ("1.0.0/client/connect", "1.0.0/client/connect.md"),
                    ("1.0.0/client/reference", "1.0.0/client/reference.markdown"),
                    ("1.0.0/client/retries-draft", "1.0.0/client/retries-draft.md"),
                    ("2.1.0-beta.1/client/connect", "2.1.0-beta.1/client/connect.md"),
                )
            ],
        )

        # the user's edits: bounds on the integer, the draft marked as such
        data["grammar"]["operations"]["client.connect"]["max-retries"] = ACME_GRAMMAR_EDIT
        data["documents"][2]["status"] = "draft"
        self.write_json(manifest, data)
        m = str(manifest)
        self.assertEqual(self.cli("pin", "--check", "--manifest", m).code, code("findings"))
        pinned = self.cli("pin", "--manifest", m)
        self.assertEqual((pinned.code, pinned.out.splitlines()[-1]), (code("ok"), f"wrote {m}: 4 pins updated"))
        self.assertEqual(self.cli("pin", "--check", "--manifest", m), Run(code("ok"), "all 4 pins are current\n", ""))
        grammar = self.cli("grammar", "--manifest", m)
        self.assertEqual(grammar.code, code("ok"))
        self.assertIn("| `client.connect` | `max-retries` | integer 0..10 |", grammar.out)
        audit = self.cli("audit", "--manifest", m)
        self.assertEqual(audit.code, code("ok"), audit.out)
        self.assertIn(
            "| 1.0.0/client/retries-draft | draft | 1.0.0/client/retries-draft.md:3 | "
            "client.connect max-retries | 5 | 3 |",
            audit.out,
        )
        ids = ("1.0.0/client/connect", "1.0.0/client/reference", "1.0.0/client/retries-draft")
        ready = self.cli("gate", "--manifest", m, "--version", "1.0.0", "--claim", "max-retries", *ids)
        decision = json.loads(ready.out)
        self.assertEqual(
            (ready.code, decision["agreed_value"], decision["excluded_unapproved_ids"]),
            (code("ok"), "3", ["1.0.0/client/retries-draft"]),
        )
        beta = self.cli(
            "gate",
            "--manifest",
            m,
            "--version",
            "2.1.0-beta.1",
            "--claim",
            "max-retries",
            "2.1.0-beta.1/client/connect",
        )
        self.assertEqual((beta.code, json.loads(beta.out)["agreed_value"]), (code("ok"), "5"))
        absent = self.cli("gate", "--manifest", m, "--version", "2.1.0", "--claim", "max-retries", *ids)
        self.assertEqual(absent.code, code("not_in_docs"))

    def test_never_overwrites_a_file(self) -> None:
        docs = self.site()
        targets = {"the default manifest": docs / "manifest.json", "--manifest": self.tmp / "m.json"}
        for label, target in targets.items():
            with self.subTest(label):
                target.write_bytes(SENTINEL)
                extra = () if label == "the default manifest" else ("--manifest", str(target))
                self.assertUserError(
                    self.cli("init", str(docs), "--version-from", "{version}/**", *extra),
                    "output",
                    f"{target} exists; init never overwrites a file",
                )
                self.assertEqual(target.read_bytes(), SENTINEL)
        dangling = self.tmp / "dangling.json"
        dangling.symlink_to(self.tmp / "nowhere.json")
        self.assertUserError(
            self.cli("init", str(docs), "--version-from", "{version}/**", "--manifest", str(dangling)),
            "output",
            "init never overwrites a file",
        )
        self.assertFalse((self.tmp / "nowhere.json").exists())
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), ["corpus", "dangling.json", "m.json", "site"])

    def test_a_file_that_appears_during_the_write_is_not_overwritten(self) -> None:
        """Guards against the check-then-write race: the final step must fail if the file now exists."""
        docs = self.site()
        target = docs / "manifest.json"
        real_link = os.link

        def appear_then_link(src: str, dst: str) -> None:
            Path(dst).write_bytes(SENTINEL)
            real_link(src, dst)

        with mock.patch.object(os, "link", side_effect=appear_then_link):
            result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertUserError(result, "output", "init never overwrites a file")
        self.assertEqual(target.read_bytes(), SENTINEL)
        self.assertFalse([p for p in docs.iterdir() if p.name.endswith(".tmp")])

    def test_version_scheme_is_detected_or_given(self) -> None:
        cases = {
            "major.minor": (("1.0", "2.13"), (), "major.minor", []),
            "semver": (("1.0.0", "2.1.0-beta.1"), (), "semver", []),
            "calver": (("2024-06-01", "2025-01-31"), (), "calver", []),
            "label": (("v2", "stable"), (), "label", []),
            "mixed falls back to label": (("1.0", "stable"), (), "label", []),
            "given scheme leaves out what does not fit": (
                ("1.0", "1.0.0"),
                ("--scheme", "semver"),
                "semver",
                ["1.0/page.md"],
            ),
        }
        for label, (versions, extra, scheme, left_out) in cases.items():
            with self.subTest(label):
                docs = self.folder() / "docs"
                for version in versions:
                    (docs / version).mkdir(parents=True)
                    (docs / version / "page.md").write_bytes(b"# Page\n")
                result = self.cli("init", str(docs), "--version-from", "{version}/**", *extra)
                self.assertEqual(result.code, code("ok"), result.err)
                data = json.loads((docs / "manifest.json").read_text(encoding="utf-8"))
                self.assertEqual(data["version_scheme"], scheme)
                kept = [v for v in versions if f"{v}/page.md" not in left_out]
                self.assertEqual(
                    [(d["source_id"], d["version"]) for d in data["documents"]], sorted((f"{v}/page", v) for v in kept)
                )
                for rel in left_out:
                    self.assertIn(f"left out: {rel}: version ", result.err)
                self.assertNotIn("url", json.dumps(data["documents"]))
                # label chosen though a folder fits a stricter scheme: the folder that kept it out is named
                self.assertEqual(
                    "version scheme 'label' (the folder 'stable' is no major.minor version; name a "
                    "scheme with --scheme" in result.err,
                    label == "mixed falls back to label",
                    result.err,
                )

    def test_placeholder_grammar_when_no_directive_is_found(self) -> None:
        docs = self.tmp / "plain"
        (docs / "1.0").mkdir(parents=True)
        (docs / "1.0" / "page.md").write_bytes(b"# Page\n\nNo directives here.\n")
        result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertEqual(result.code, code("ok"))
        self.assertIn("no directive lines found: the grammar is a placeholder to edit", result.err)
        m = str(docs / "manifest.json")
        self.assertEqual(self.cli("pin", "--manifest", m).code, code("ok"))
        self.assertEqual(self.cli("grammar", "--manifest", m).code, code("ok"))

    def test_manifest_elsewhere_gets_paths_relative_to_its_folder(self) -> None:
        docs = self.site()
        target = self.tmp / "manifest.json"
        result = self.cli("init", str(docs), "--version-from", "{version}/**", "--manifest", str(target))
        self.assertEqual(result.code, code("ok"), result.err)
        data = json.loads(target.read_text(encoding="utf-8"))
        self.assertEqual(data["documents"][0]["path"], "site/1.0.0/client/connect.md")
        self.assertEqual(data["documents"][0]["source_id"], "1.0.0/client/connect")
        self.assertEqual(self.cli("pin", "--manifest", str(target)).code, code("ok"))

    def test_a_page_linked_inside_the_tree_is_listed_once(self) -> None:
        """Regression: init listed a symlinked page and its target as two entries with the same path,
        so the manifest it wrote was refused by the very next step, pin (duplicate_path)."""
        docs = self.tmp / "linked"
        (docs / "1.0").mkdir(parents=True)
        (docs / "1.0" / "guide.md").write_bytes(REFERENCE)
        (docs / "1.0" / "latest.md").symlink_to("guide.md")
        result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertEqual(result.code, code("ok"), result.err)
        paths = [d["path"] for d in json.loads((docs / "manifest.json").read_text(encoding="utf-8"))["documents"]]
        self.assertEqual(len(paths), len(set(paths)), paths)
        pinned = self.cli("pin", "--manifest", str(docs / "manifest.json"))
        self.assertEqual(pinned.code, code("ok"), pinned.err)

    def test_usage_input_and_output_errors_are_one_line(self) -> None:
        docs = self.site()
        cases = {
            "no {version}": ((str(docs), "--version-from", "docs/**"), "usage", "--version-from must hold"),
            "two {version}": ((str(docs), "--version-from", "{version}/{version}"), "usage", "once"),
            "unknown scheme": ((str(docs), "--version-from", "{version}/**", "--scheme", "date"), "usage", "date"),
            "no docs folder": (
                (str(self.tmp / "gone\ndocs"), "--version-from", "{version}/**"),
                "input",
                "gone\\ndocs is not a folder",
            ),
            "docs is a file": ((str(docs / "README.md"), "--version-from", "{version}/**"), "input", "not a folder"),
            "manifest folder missing": (
                (str(docs), "--version-from", "{version}/**", "--manifest", str(self.tmp / "no" / "m.json")),
                "output",
                "does not exist",
            ),
            "manifest is a folder": (
                (str(docs), "--version-from", "{version}/**", "--manifest", str(docs)),
                "output",
                "it is a directory",
            ),
        }
        for label, (args, kind, part) in cases.items():
            with self.subTest(label):
                self.assertUserError(self.cli("init", *args), kind, part)
                self.assertFalse((docs / "manifest.json").exists())

    def test_odd_file_names_are_left_out_on_printable_lines(self) -> None:
        """Regression: a page or folder name with a newline or an escape must not forge stderr lines."""
        docs = self.tmp / "odd"
        (docs / "1.0").mkdir(parents=True)
        (docs / "1.0" / "good.md").write_bytes(b"# Good\n")
        (docs / "1.0" / "bad\nname.md").write_bytes(b"# Bad\n")
        (docs / "1.0" / "esc\x1b[2J.md").write_bytes(b"# Esc\n")
        target_dir = self.tmp / "out\nput"
        target_dir.mkdir()
        result = self.cli(
            "init", str(docs), "--version-from", "{version}/**", "--manifest", str(target_dir / "manifest.json")
        )
        # The docs are outside the manifest's folder: no page fits, nothing is written.
        self.assertUserError(result, "input", "no page under", "out\\nput", "nothing written")
        self.assertFalse((target_dir / "manifest.json").exists())
        result = self.cli("init", str(docs), "--version-from", "{version}/**")
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertPrintableLines(result.err, INIT_LINES)
        self.assertIn("left out: 1.0/bad\\nname.md: ", result.err)
        self.assertIn("left out: 1.0/esc\\x1b[2J.md: ", result.err)
        data = json.loads((docs / "manifest.json").read_text(encoding="utf-8"))
        self.assertEqual([d["source_id"] for d in data["documents"]], ["1.0/good"])


# ==========================================================================
# grammar


class SchemaCommandTest(CliCase):
    def test_prints_each_schema_as_result_schema_gives_it(self) -> None:
        for name in SCHEMAS:
            with self.subTest(name):
                result = self.cli("schema", name)
                self.assertEqual(result, Run(code("ok"), render_json(result_schema(name)), ""))
                self.assertEqual(json.loads(result.out)["$schema"], "https://json-schema.org/draft/2020-12/schema")

    def test_an_unknown_or_missing_name_is_a_usage_error(self) -> None:
        """Guards against a typo printing some schema (or none) with exit 0."""
        for argv in (("schema", "decisions"), ("schema",), ("schema", "decision", "audit")):
            with self.subTest(argv=argv):
                result = self.cli(*argv)
                self.assertUserError(result, "usage", "(see 'conflict-gate")

    def test_an_unknown_option_points_to_its_commands_help(self) -> None:
        """Guards against a newcomer's finding: ``gate ... --bogus`` pointed to the top-level help,
        which does not list gate's options."""
        result = self.cli("schema", "decision", "--bogus")
        self.assertUserError(result, "usage", "unrecognized arguments: --bogus (see 'conflict-gate schema --help')")


class GrammarCommandTest(CliCase):
    def test_table(self) -> None:
        self.assertEqual(
            self.cli("grammar", "--manifest", self.m),
            Run(
                code("ok"),
                (
                    "Quill: directives are whole lines '@quill <operation> <key>=<value>'\n"
                    f"renderer: portable ({RENDERERS['portable']})\n"
                    "\n"
                    "| operation | key | allowed values |\n"
                    "|---|---|---|\n"
                    "| `create_copy` | `existing_path` | refuse \\| overwrite |\n"
                    "| `create_copy` | `close_required` | yes \\| no |\n"
                    "| `move` | `existing_path` | refuse \\| overwrite |\n"
                ),
                "",
            ),
        )

    def test_json(self) -> None:
        result = self.cli("grammar", "--manifest", self.m, "--format", "json")
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        self.assertEqual(
            json.loads(result.out),
            {
                "namespace": "quill",
                "product": "Quill",
                "directive": "@quill <operation> <key>=<value>",
                "operations": GRAMMAR["operations"],
                "renderer": "portable",
            },
        )
        self.assertEqual(result.out, render_json(json.loads(result.out)))
        self.assertEqual(list(json.loads(result.out)), ["namespace", "product", "directive", "operations", "renderer"])

    def test_the_renderer_is_named(self) -> None:
        """``grammar`` names the manifest's renderer, in the table and in JSON (issue 15)."""
        data = self.manifest_data()
        data["renderer"] = "github"
        manifest = self.write_json(self.root / "github.json", data)
        self.assertIn(f"renderer: github ({RENDERERS['github']})\n", self.cli("grammar", "--manifest", manifest).out)
        self.assertEqual(
            json.loads(self.cli("grammar", "--manifest", manifest, "--format", "json").out)["renderer"], "github"
        )

    def test_integer_rules_are_described(self) -> None:
        grammar = {
            "namespace": "acme",
            "product": "Acme",
            "operations": {
                "connect": {
                    "a": {"type": "integer"},
                    "b": {"type": "integer", "min": 0},
                    "c": {"type": "integer", "max": 5},
                    "d": {"type": "integer", "min": -1, "max": 3},
                }
            },
        }
        (self.tmp / "acme").mkdir()
        manifest = write_corpus(self.tmp / "acme", {}, grammar=grammar, scheme="semver")
        table = self.cli("grammar", "--manifest", str(manifest)).out.splitlines()[-4:]
        self.assertEqual(
            table,
            [
                "| `connect` | `a` | integer |",
                "| `connect` | `b` | integer >= 0 |",
                "| `connect` | `c` | integer <= 5 |",
                "| `connect` | `d` | integer -1..3 |",
            ],
        )

    def test_bad_grammar_is_one_line_with_the_json_pointer(self) -> None:
        _absent = object()

        def with_grammar(grammar: Any) -> str:
            data = self.manifest_data()
            if grammar is _absent:
                del data["grammar"]
            else:
                data["grammar"] = grammar
            return self.write_json(self.root / "g.json", data)

        ops = GRAMMAR["operations"]
        cases = {
            "no grammar": (_absent, "at /grammar: ", "[missing_grammar]"),
            "grammar null": (None, "at /grammar: ", "[missing_grammar]"),
            "not an object": ([], "at /grammar: ", "[invalid_grammar]"),
            "bad namespace": ({**GRAMMAR, "namespace": "Quill"}, "at /grammar/namespace: ", "[invalid_name]"),
            "bad value": (
                {
                    **GRAMMAR,
                    "operations": {
                        "create_copy": {"existing_path": {"type": "enum", "values": ["refuse", "re\nfuse"]}}
                    },
                },
                "at /grammar/operations/create_copy/existing_path/values/1: ",
                "[invalid_value_rule]",
            ),
            "min over max": (
                {**GRAMMAR, "operations": {"connect": {"max-retries": {"type": "integer", "min": 5, "max": 1}}}},
                "at /grammar/operations/connect/max-retries: ",
                "[invalid_value_rule]",
            ),
            "a slash in a name": (
                {**GRAMMAR, "operations": {"a/b": ops["create_copy"]}},
                "at /grammar/operations/a~1b: ",
                "[invalid_name]",
            ),
        }
        for label, (grammar, pointer, reason) in cases.items():
            with self.subTest(label):
                manifest = with_grammar(grammar)
                for fmt in ("table", "json"):
                    err = self.assertUserError(
                        self.cli("grammar", "--manifest", manifest, "--format", fmt),
                        "grammar",
                        f"{manifest} {pointer}",
                        reason,
                    )
                    self.assertTrue(err.endswith(f"{reason}\n"), err)


# ==========================================================================
# check-answer


class CheckAnswerTest(CliCase):
    def setUp(self) -> None:
        super().setUp()
        self.ready = self.decision("guide", "reference")

    def test_supported_answer_from_stdin_and_from_a_file(self) -> None:
        path = self.tmp / "answer.txt"
        path.write_bytes(SUPPORTED_ANSWER)
        from_stdin = self.check_answer(self.ready, SUPPORTED_ANSWER)
        from_file = self.cli("check-answer", "--manifest", self.m, "--decision", self.ready, "--answer", str(path))
        self.assertEqual(from_stdin, from_file)
        self.assertEqual((from_stdin.code, from_stdin.err), (code("ok"), "supported: no findings\n"))
        report = json.loads(from_stdin.out)
        self.assertEqual(from_stdin.out, render_json(report))
        self.assertEqual(
            (report["verdict"], report["verdict_class"], report["findings"]), ("supported", "supported", [])
        )

    def test_a_decision_made_with_the_users_question(self) -> None:
        """Guards against issue 31's request without the user's question: ``gate --question`` puts it in a
        third message (a user message after the claims), and check-answer accepts the decision it wrote;
        a question with a control character is one usage line."""
        question = "Will create_copy replace backup/report.md if it already exists?"
        result = self.gate(
            "--version",
            "1.0",
            "--claim",
            "existing_path",
            "--operation",
            "create_copy",
            "--question",
            question,
            "guide",
            "reference",
        )
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        messages = json.loads(result.out)["answer_request"]["messages"]
        self.assertEqual([m["role"] for m in messages], ["system", "user", "user"])
        self.assertEqual(messages[2]["content"], question)
        self.assertEqual(
            messages[:2], json.loads(Path(self.ready).read_text(encoding="utf-8"))["answer_request"]["messages"]
        )
        path = self.tmp / "decision-question.json"
        path.write_text(result.out, encoding="utf-8")
        checked = self.check_answer(str(path), SUPPORTED_ANSWER)
        self.assertEqual((checked.code, checked.err), (code("ok"), "supported: no findings\n"))
        self.assertUserError(
            self.gate(
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "--operation",
                "create_copy",
                "--question",
                "a\x1b[2Kb",
                "guide",
            ),
            "usage",
            "invalid_question",
        )

    def test_exit_code_per_verdict_class(self) -> None:
        conflict = self.decision("guide", "rival")
        other_value = SUPPORTED_ANSWER.replace(b"`existing_path=refuse`", b"`existing_path=overwrite`")
        other_version = SUPPORTED_ANSWER.replace(b"`version=1.0`", b"`version=2.0`")
        uncited = SUPPORTED_ANSWER.replace(b"`@quill create_copy existing_path=refuse` [source: reference:3]\n", b"")
        invented = SUPPORTED_ANSWER.replace(b"refuse` [source: reference:3]", b"skip` [source: reference:3]")
        cases = {
            "supported": (self.ready, SUPPORTED_ANSWER, "supported", "supported"),
            "other value": (self.ready, other_value, "contradicts_decision", "unsupported"),
            "other version": (self.ready, other_version, "contradicts_decision", "unsupported"),
            "a claim not cited": (self.ready, uncited, "missing_citation", "unsupported"),
            "invented quote": (self.ready, invented, "quote_not_found", "unsupported"),
            "unknown citation": (
                self.ready,
                SUPPORTED_ANSWER + b"See [source: rival:3].\n",
                "unknown_citation",
                "unsupported",
            ),
            "withheld": (conflict, SUPPORTED_ANSWER, "no_answer_allowed", "withheld"),
            "empty": (self.ready, b"", "malformed_answer", "malformed"),
            "not UTF-8": (self.ready, b"\xff" + SUPPORTED_ANSWER, "malformed_answer", "malformed"),
            "broken citation": (self.ready, SUPPORTED_ANSWER + b"[source: guide\n", "malformed_answer", "malformed"),
        }
        for label, (decision, answer, verdict, verdict_class) in cases.items():
            with self.subTest(label):
                result = self.check_answer(decision, answer)
                report = json.loads(result.out)
                self.assertEqual((report["verdict"], report["verdict_class"]), (verdict, verdict_class))
                self.assertEqual(VERDICTS[verdict][0], verdict_class)
                self.assertEqual(result.code, code("ok" if verdict_class == "supported" else verdict_class))
                self.assertTrue(result.err.startswith(f"{verdict}: "), result.err)
                self.assertOneLine(result.err)

    def test_an_answer_that_states_neither_value_nor_version_is_not_supported(self) -> None:
        """Regression: the findings missing_value/missing_version mapped to a verdict not in VERDICTS
        ('missing_statement'), so the answer was reported 'supported' with exit 0."""
        quotes_only = b"".join(line + b"\n" for line in SUPPORTED_ANSWER.splitlines()[1:])
        result = self.check_answer(self.ready, quotes_only)
        report = json.loads(result.out)
        self.assertEqual({f["kind"] for f in report["findings"]}, {"missing_value", "missing_version"})
        self.assertIn(report["verdict"], VERDICTS)
        self.assertEqual(report["verdict_class"], "unsupported")
        self.assertEqual(result.code, code("unsupported"))

    def test_decision_file_errors_exit_12_with_one_line(self) -> None:
        edited = json.loads(Path(self.ready).read_text(encoding="utf-8"))
        edited["agreed_value"] = "overwrite"
        mismatch = self.write_json(self.tmp / "edited.json", edited)
        not_json = self.tmp / "not-json.json"
        not_json.write_text("{\n", encoding="utf-8")
        not_object = self.write_json(self.tmp / "list.json", [])
        text = Path(self.ready).read_text(encoding="utf-8")
        repeated = self.tmp / "repeated.json"  # the last key wins in json.loads: a reader may take the first
        repeated.write_text(
            text.replace('"agreed_value": "refuse"', '"agreed_value": "overwrite", "agreed_value": "refuse"'),
            encoding="utf-8",
        )
        nan = self.tmp / "nan.json"
        nan.write_text(re.sub(r'"start_line": [0-9]+', '"start_line": NaN', text, count=1), encoding="utf-8")
        cases = {
            "missing": (str(self.tmp / "no\ndecision.json"), "no\\ndecision.json", "[decision_unreadable]"),
            "not JSON": (str(not_json), str(not_json), "[decision_unreadable]"),
            "NaN": (str(nan), "NaN is not JSON", "[decision_unreadable]"),
            "a repeated key": (str(repeated), "duplicate key 'agreed_value'", "[invalid_decision]"),
            "a folder": (str(self.tmp), "not a regular file", "[decision_unreadable]"),
            "not an object": (not_object, "a decision is a JSON object", "[invalid_decision]"),
            "edited": (mismatch, "at /agreed_value", "[decision_mismatch]"),
        }
        for label, (decision, part, reason) in cases.items():
            with self.subTest(label):
                self.assertUserError(self.check_answer(decision, SUPPORTED_ANSWER), "decision", part, reason)

    def test_a_decision_made_before_a_re_pin_is_refused(self) -> None:
        """Guards against checking an answer against evidence that has since changed."""
        (self.root / "docs/reference.md").write_bytes(REFERENCE + b"\nEdited.\n")
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        self.assertUserError(self.check_answer(self.ready, SUPPORTED_ANSWER), "decision", "[decision_mismatch]")

    def test_a_decision_the_gate_now_answers_otherwise_says_so(self) -> None:
        """Regression: a ready decision checked after a page was changed to disagree and re-pinned was
        ``invalid_decision`` ("not the shape of a gate result"); it is a real result, only stale."""
        (self.root / "docs/reference.md").write_bytes(RIVAL)
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        err = self.assertUserError(
            self.check_answer(self.ready, SUPPORTED_ANSWER),
            "decision",
            "[decision_mismatch]",
            "at /status",
            "now answers 'conflict', not 'ready'",
            "run the gate again",
        )
        self.assertNotIn("shape", err)

    def test_answer_file_errors_are_input_errors(self) -> None:
        """Guards against a FIFO (or a symlink to one) as the answer blocking the check forever."""
        folder = self.tmp / "a-folder"
        folder.mkdir()
        cases = [
            ("missing", str(self.tmp / "no\x1b.txt"), "file does not exist"),
            ("a folder", str(folder), "not a regular file"),
        ]
        if hasattr(os, "mkfifo"):
            fifo = self.tmp / "answer.fifo"
            os.mkfifo(fifo)  # no writer: opening it to read would block; it is refused at once
            cases.append(("a FIFO", str(fifo), "not a regular file"))
            link = self.tmp / "answer-link.txt"
            link.symlink_to(fifo)
            cases.append(("a symlink to a FIFO", str(link), "not a regular file"))
        for label, answer, why in cases:
            with self.subTest(label):
                self.assertUserError(
                    self.cli("check-answer", "--manifest", self.m, "--decision", self.ready, "--answer", answer),
                    "input",
                    "cannot read the answer ",
                    why,
                )


# ==========================================================================
# writing files: --output (the lab), pin and init share one atomic write


class OutputErrorTest(CliCase):
    lab_result: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls.lab_result = run.run_lab()

    def lab_output(self, target: Path | str) -> Run:
        """``run.py --output target`` with the lab result computed beforehand (so a patch hits the write only)."""
        with mock.patch.object(run, "run_lab", return_value=self.lab_result):
            return self.cli("--output", str(target), lab=True)

    def test_onto_a_pipe_or_a_symlink_is_refused(self) -> None:
        """Regression: ``--output`` replaced a FIFO or a symlink with a regular file and reported success."""
        link = self.tmp / "link.json"
        link.symlink_to(self.tmp / "elsewhere.json")
        targets = [link]
        if hasattr(os, "mkfifo"):
            os.mkfifo(self.tmp / "fifo")
            targets.append(self.tmp / "fifo")
        for target in targets:
            with self.subTest(target=target.name):
                self.assertUserError(
                    self.lab_output(target), "output", "it is not a regular file", prog="python run.py"
                )
        self.assertTrue(link.is_symlink())
        self.assertFalse((self.tmp / "elsewhere.json").exists())

    def test_stdout_that_fails_is_one_line_and_the_output_code(self) -> None:
        """Regression: a closed pipe (``| head``) or a full disk on stdout ended in a traceback, exit 1."""

        class Failing(io.StringIO):
            def __init__(self, error: OSError) -> None:
                super().__init__()
                self.error = error

            def write(self, text: str) -> int:
                raise self.error

        from _conflict_gate.cli.main import main

        for error, words in (
            (BrokenPipeError(32, "Broken pipe"), "standard output was closed"),
            (OSError(28, "No space left on device"), "No space left on device"),
        ):
            err = io.StringIO()
            with (
                self.subTest(error=error),
                mock.patch.object(sys, "argv", ["conflict-gate"]),
                contextlib.redirect_stdout(Failing(error)),
                contextlib.redirect_stderr(err),
            ):
                exit_code_ = main(["audit", "--manifest", str(REPO / "manifest.json")])
            self.assertEqual(exit_code_, code("output"))
            self.assertEqual(err.getvalue().count("\n"), 1, err.getvalue())
            self.assertIn(words, err.getvalue())

    def test_an_output_path_that_is_not_utf8_is_written_and_named_escaped(self) -> None:
        """Regression (issue 34 item 8): ``run.py --output`` with a file name that is not UTF-8 (a lone
        surrogate once decoded) wrote the file, then printed the name raw: on a stdout that encodes
        strictly (``PYTHONIOENCODING=utf-8``), a traceback after the work was done. Now the file is
        written and the one line names it escaped, exit 0; any line a stream cannot encode is written
        with backslash escapes rather than failing."""
        raw_name = os.fsencode(self.tmp) + b"/lab-\xff.json"
        try:
            target = os.fsdecode(raw_name)
            Path(target).touch()
            os.unlink(target)
        except (OSError, UnicodeError):
            self.skipTest("the file system takes no file name that is not UTF-8")
        stdout_bytes = io.BytesIO()
        out = io.TextIOWrapper(stdout_bytes, encoding="utf-8", errors="strict", write_through=True)
        err = io.StringIO()
        with (
            mock.patch.object(run, "run_lab", return_value=self.lab_result),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            status = main(["--output", target], prog="python run.py", lab=run.lab)
        self.assertEqual((status, err.getvalue()), (code("ok"), ""))
        self.assertTrue(os.path.isfile(raw_name))
        self.assertEqual(
            stdout_bytes.getvalue().decode("ascii"),
            f"wrote {self.tmp}/lab-\\xff.json: {len(run.LAB_CASES)} cases, the changed-source case "
            f"and {len(run.LAB_ANSWERS)} checked answers\n",
        )
        from _conflict_gate.cli.support import DefusedLines

        lines = DefusedLines(io.TextIOWrapper(stdout_bytes, encoding="utf-8", errors="strict", write_through=True))
        stdout_bytes.seek(0)
        stdout_bytes.truncate()
        lines.write("name: caf\u00e9 \udcff::x\n")
        self.assertEqual(stdout_bytes.getvalue(), b"name: caf\\xe9 \\udcff:\\x3ax\n")

    def test_into_a_missing_folder(self) -> None:
        target = self.tmp / "no-such-folder" / "result.json"
        self.assertUserError(
            self.lab_output(target),
            "output",
            f"cannot write {target}: folder {target.parent} does not exist",
            prog="python run.py",
        )
        self.assertFalse(target.parent.exists())

    def test_onto_a_directory_or_under_a_file(self) -> None:
        folder = self.tmp / "result.json"
        folder.mkdir()
        (folder / "keep.json").write_bytes(SENTINEL)
        self.assertUserError(
            self.lab_output(folder), "output", f"cannot write {folder}: it is a directory", prog="python run.py"
        )
        self.assertEqual(os.listdir(folder), ["keep.json"])
        plain = self.tmp / "plain.json"
        plain.write_bytes(SENTINEL)
        self.assertUserError(self.lab_output(plain / "result.json"), "output", "does not exist", prog="python run.py")
        self.assertEqual(plain.read_bytes(), SENTINEL)

    @unittest.skipIf(IS_ROOT, "running as root: a read-only folder does not stop root from writing")
    def test_into_a_read_only_folder_keeps_the_old_file(self) -> None:
        folder = self.tmp / "ro"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL)
        folder.chmod(0o555)
        self.addCleanup(folder.chmod, 0o755)
        self.assertUserError(
            self.lab_output(target), "output", f"cannot write {target}: Permission denied", prog="python run.py"
        )
        self.assertEqual(target.read_bytes(), SENTINEL)
        self.assertEqual(os.listdir(folder), ["result.json"])

    def test_a_failure_mid_write_keeps_the_old_file_and_leaves_no_temp_file(self) -> None:
        """Guards against a partial result replacing a good one, and against stray temp files."""
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        for step in ("fsync", "replace"):
            with self.subTest(step):
                target.write_bytes(SENTINEL)
                failure = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                with mock.patch.object(os, step, side_effect=failure) as patched:
                    result = self.lab_output(target)
                self.assertTrue(patched.called, f"os.{step} is no longer part of the write")
                self.assertEqual(
                    result,
                    Run(
                        code("output"),
                        "",
                        f"python run.py: error: cannot write {target}: {os.strerror(errno.ENOSPC)}\n",
                    ),
                )
                self.assertEqual(target.read_bytes(), SENTINEL)
                self.assertEqual(os.listdir(folder), ["result.json"])

    def test_ctrl_c_mid_write_leaves_no_temp_file(self) -> None:
        """Regression: Ctrl-C (or any non-OSError) during the write left '.result.json.*.tmp' behind."""
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL)
        for step in ("fsync", "replace"):
            with self.subTest(step):
                with mock.patch.object(os, step, side_effect=KeyboardInterrupt), self.assertRaises(KeyboardInterrupt):
                    self.lab_output(target)
                self.assertEqual(target.read_bytes(), SENTINEL)
                self.assertEqual(os.listdir(folder), ["result.json"])

    def test_a_successful_write_replaces_the_old_file_completely(self) -> None:
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL * 1000)
        result = self.lab_output(target)
        self.assertEqual((result.code, result.err), (code("ok"), ""))
        self.assertEqual(target.read_text(encoding="utf-8"), render_json(self.lab_result))
        self.assertEqual(os.listdir(folder), ["result.json"])


# ==========================================================================
# the lab


class LabTest(CliCase):
    def test_output_writes_what_the_lab_prints(self) -> None:
        printed = self.cli(lab=True)
        self.assertEqual((printed.code, printed.err), (code("ok"), ""))
        self.assertEqual(printed.out, render_json(json.loads(printed.out)))
        target = self.tmp / "result.json"
        written = self.cli("--output", str(target), lab=True)
        self.assertEqual((written.code, written.err), (code("ok"), ""))
        self.assertTrue(written.out.startswith(f"wrote {target}: {len(run.LAB_CASES)} cases"), written.out)
        self.assertOneLine(written.out)
        self.assertEqual(target.read_bytes(), printed.out.encode("utf-8"))

    def test_check_up_to_date_and_drift(self) -> None:
        golden = self.tmp / "expected-result.json"
        fresh = self.cli(lab=True).out.encode("utf-8")
        with self.lab_on(run.FIXTURE_MANIFEST, golden):
            golden.write_bytes(fresh)
            self.assertEqual(self.cli("--check", lab=True), Run(code("ok"), f"{golden.name} is up to date\n", ""))
            golden.write_bytes(fresh.replace(b'"model_called": false', b'"model_called": true'))
            drift = self.cli("--check", lab=True)
            self.assertEqual(
                (drift.code, drift.err), (code("findings"), f"drift: a fresh run differs from {golden.name}\n")
            )
            self.assertIn('-  "model_called": true,\n+  "model_called": false,\n', drift.out)
            self.assertTrue(drift.out.startswith(f"--- {golden.name}\n+++ fresh run\n"), drift.out[:200])
            golden.unlink()
            missing = self.cli("--check", lab=True)
            self.assertEqual(missing.code, code("findings"))
        self.assertFalse(golden.exists(), "--check never writes the golden file")

    def test_drift_in_a_copied_corpus(self) -> None:
        """A fixture edited and re-pinned in a copy: the result changes, --check reports drift."""
        copy = copy_lab_fixtures(self.tmp / "lab")
        golden = self.tmp / "lab" / "expected-result.json"
        golden.write_text(render_json(run.run_lab(copy)), encoding="utf-8")
        with self.lab_on(copy, golden):
            self.assertEqual(self.cli("--check", lab=True).code, code("ok"))
            path = self.tmp / "lab" / "docs" / "quill-reference.md"
            path.write_bytes(path.read_bytes() + b"\nOne more paragraph.\n")
            unpinned = self.cli("--check", lab=True)
            self.assertUserError(unpinned, "input", "[hash_mismatch]", prog="python run.py")
            self.assertEqual(self.cli("pin", "--manifest", str(copy)).code, code("ok"))
            drift = self.cli("--check", lab=True)
            self.assertEqual(drift.code, code("findings"))
            self.assertIn('"source_sha256"', drift.out)

    def test_edited_directive_the_changed_source_case_needs_is_one_clear_line(self) -> None:
        """The changed-source case edits one directive line; a learner who edited and re-pinned it
        gets one line naming the file and how to restore it, never a traceback."""
        copy = copy_lab_fixtures(self.tmp / "lab")
        path = self.tmp / "lab" / "docs" / "quill-guide.md"
        path.write_bytes(path.read_bytes().replace(b"existing_path=refuse\n", b"existing_path=overwrite\n", 1))
        self.assertEqual(self.cli("pin", "--manifest", str(copy)).code, code("ok"))
        with self.lab_on(copy, self.tmp / "lab" / "expected-result.json"):
            run_ = self.cli("--output", str(self.tmp / "result.json"), lab=True)
        self.assertUserError(run_, "input", "docs/quill-guide.md no longer holds", prog="python run.py")
        self.assertIn("git checkout docs/ manifest.json", run_.err)
        self.assertFalse((self.tmp / "result.json").exists())

    def test_outside_a_checkout_is_one_clear_line(self) -> None:
        missing = self.tmp / "absent" / "manifest.json"
        with self.lab_on(missing, self.tmp / "expected-result.json"):
            self.assertEqual(
                self.cli("--check", lab=True),
                Run(
                    code("input"),
                    "",
                    f"python run.py: error: the lab runs from a checkout of conflict-gate: {missing} is not "
                    "there; on your own docs use the gate, audit and pin commands\n",
                ),
            )

    def test_lab_options_with_a_command_are_a_usage_error(self) -> None:
        target = self.tmp / "x.json"
        for option in (("--output", str(target)), ("--check",)):
            for command in (
                ("gate", "--manifest", self.m, "--version", "1.0", "--claim", "close_required", "guide"),
                ("audit", "--manifest", self.m),
                ("grammar", "--manifest", self.m),
            ):
                with self.subTest(option=option[0], command=command[0]):
                    self.assertEqual(
                        self.cli(*option, *command, lab=True),
                        Run(
                            code("usage"),
                            "",
                            "python run.py: error: --output and --check come without a command, "
                            f"not with {command[0]!r}\n",
                        ),
                    )
        self.assertFalse(target.exists())
        self.assertUserError(
            self.cli("--check", "--output", str(target), lab=True), "usage", "--check", prog="python run.py"
        )
        self.assertUserError(self.cli("--output", str(target)), "usage", "invalid choice")  # no lab: no such option

    def test_commands_never_modify_the_fixtures(self) -> None:
        """Guards against the lab's changed-source case (or any command) editing docs/ or manifest.json."""
        watched = (REPO / "docs", REPO / "manifest.json", REPO / "expected-result.json")
        before = tree_digest(*watched)
        fixture = str(REPO / "manifest.json")
        decision = self.tmp / "decision.json"
        decision.write_text(
            self.cli(
                "gate",
                "--manifest",
                fixture,
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "quill-guide",
                "quill-reference",
            ).out,
            encoding="utf-8",
        )
        commands = (
            (("--output", str(self.tmp / "result.json")), True),
            (("--check",), True),
            ((), True),
            (("audit", "--manifest", fixture), False),
            (("audit", "--manifest", fixture, "--format", "json"), False),
            (("pin", "--check", "--manifest", fixture), False),
            (("grammar", "--manifest", fixture), False),
            (
                (
                    "gate",
                    "--manifest",
                    fixture,
                    "--version",
                    "1.0",
                    "--claim",
                    "existing_path",
                    "quill-guide",
                    "quill-conflicting-guide",
                ),
                False,
            ),
            (("check-answer", "--manifest", fixture, "--decision", str(decision), "--answer", "-"), False),
        )
        for args, lab in commands:
            with self.subTest(args=args[:2]):
                result = self.cli(*args, lab=lab, stdin=b"[source: quill-guide:37]\n")
                self.assertNotIn("error:", result.err)
        self.assertTrue((self.tmp / "result.json").is_file())
        self.assertEqual(tree_digest(*watched), before)


# ==========================================================================
# help


class HelpTest(CliCase):
    def test_each_command_lists_its_exit_codes_from_the_one_table(self) -> None:
        for command in (*COMMANDS, LAB):
            with self.subTest(command):
                lab = command == LAB
                result = self.cli(*(() if lab else (command,)), "--help", lab=lab)
                self.assertEqual(result.code, code("ok"))
                _, _, codes = result.out.partition("exit codes:\n")
                listed = [line for line in codes.splitlines() if line[:4].strip().isdigit()]
                self.assertEqual(
                    listed,
                    [
                        f"  {number:>2}  {meaning}"
                        for number, meaning in sorted(EXIT_CODES[name] for name in COMMAND_EXIT_CODES[command])
                    ],
                )

    def test_help_is_wrapped_to_the_width_shutil_finds(self) -> None:
        """Guards against the parser's own width lookup (it spares every run importing shutil) parting
        from argparse's: ``$COLUMNS`` when a positive number, else the terminal, else 80."""
        from _conflict_gate.cli.main import _terminal_columns

        for columns in ("50", "200", "", "x", "0", "-3", None):
            with self.subTest(columns=columns):
                environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
                if columns is not None:
                    environ["COLUMNS"] = columns
                with mock.patch.dict(os.environ, environ, clear=True):
                    self.assertEqual(_terminal_columns(), shutil.get_terminal_size().columns)
        usage_lines = {}
        for columns in ("40", "300"):
            with mock.patch.dict(os.environ, {"COLUMNS": columns}):
                usage_lines[columns] = self.cli("gate", "--help").out.partition("\n\n")[0].count("\n")
        self.assertEqual(usage_lines["300"], 0)  # one line when wide enough
        self.assertGreater(usage_lines["40"], 3)  # wrapped when narrow

    def test_gate_help_says_how_to_list_the_grammar(self) -> None:
        out = self.cli("gate", "--help").out
        self.assertIn("conflict-gate grammar --manifest", out)
        self.assertIn("--operation", out)

    def test_top_level_help_lists_every_command(self) -> None:
        for lab in (False, True):
            with self.subTest(lab=lab):
                out = self.cli("--help", lab=lab).out
                for command in COMMANDS:
                    self.assertIn(f"    {command}", out)


class VersionFlagTest(CliCase):
    def test_version_alone_prints_the_program_version(self) -> None:
        from _conflict_gate import __version__

        for lab in (False, True):
            with self.subTest(lab=lab):
                out = io.StringIO()
                with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as caught:
                    main(
                        ["--version"],
                        prog="python run.py" if lab else "conflict-gate",
                        lab=self.lab_program if lab else None,
                    )
                self.assertEqual((caught.exception.code, out.getvalue()), (0, f"conflict-gate {__version__}\n"))

    def test_version_before_the_command_is_a_usage_error(self) -> None:
        """Regression: `conflict-gate --version 2.0 gate ...` printed the program's version and exited 0,
        so a script meaning to gate version 2.0 went on as if it had been decided."""
        ready = ("--claim", "existing_path", "--operation", "create_copy", "guide", "reference")
        for argv in (
            ("--version", "2.0", "gate", "--manifest", self.m, *ready),
            ("--version=2.0", "gate", "--manifest", self.m, *ready),
            ("--vers", "1.0", "gate", "--manifest", self.m, *ready),
            ("--version", "gate", "--manifest", self.m, "--version", "1.0", *ready),
            ("--version", "audit", "--manifest", self.m),
        ):
            with self.subTest(argv=argv[:2]):
                self.assertUserError(self.cli(*argv), "usage", "put --version after the command")
        self.assertEqual(self.gate("--version", "1.0", *ready).code, code("ok"))

    def test_a_misspelt_command_is_named_not_taken_for_a_version_flag(self) -> None:
        """Regression: `conflict-gate check-anwser --manifest M --version 1.0.0` said "put --version after
        the command" instead of naming the unknown command."""
        for argv in (("check-anwser", "--manifest", self.m, "--version", "1.0"), ("gaet", "--version", "1.0")):
            with self.subTest(argv=argv[0]):
                self.assertUserError(self.cli(*argv), "usage", f"invalid choice: {argv[0]!r}")


# ==========================================================================
# the real entry point (the only subprocess tests)


class EntryPointTest(CliCase):
    def run_py(self, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
        env["PYTHONIOENCODING"] = "utf-8"
        return subprocess.run(
            [sys.executable, str(REPO / "run.py"), *args],
            check=False,
            cwd=cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=120,
        )

    def test_help(self) -> None:
        proc = self.run_py("--help", cwd=self.tmp)
        self.assertEqual((proc.returncode, proc.stderr), (code("ok"), ""))
        # the hints say how the script was started: here by its absolute path, from another folder
        self.assertTrue(proc.stdout.startswith(f"usage: python {shlex.quote(str(REPO / 'run.py'))} "), proc.stdout[:80])
        for command in COMMANDS:
            self.assertIn(command, proc.stdout)

    def test_gate_end_to_end(self) -> None:
        """From another folder, with a relative manifest path: same bytes as in process."""
        args = (
            "gate",
            "--manifest",
            "corpus/manifest.json",
            "--version",
            "1.0",
            "--claim",
            "existing_path",
            "--operation",
            "create_copy",
            "guide",
            "rival",
        )
        proc = self.run_py(*args, cwd=self.tmp)
        self.assertEqual(
            (proc.returncode, proc.stderr), (code("conflict"), "conflict: guide=refuse, rival=overwrite\n")
        )
        in_process = self.cli(*args[:2], self.m, *args[3:])
        self.assertEqual(proc.stdout, in_process.out)

    def test_usage_error_is_one_stderr_line(self) -> None:
        proc = self.run_py("gate", "--manifest", "corpus/manifest.json", "--claim", "x\x1b[2J", cwd=self.tmp)
        self.assertEqual((proc.returncode, proc.stdout), (code("usage"), ""))
        self.assertTrue(proc.stderr.startswith(f"python {shlex.quote(str(REPO / 'run.py'))}: error: "), proc.stderr)
        self.assertOneLine(proc.stderr)


if __name__ == "__main__":
    unittest.main()
