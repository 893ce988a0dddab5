"""The gate as a long-running service (what the MCP server's tools call), standard library only.

* :class:`LabEqualityTest`: every tool's result over the lab equals the command line's JSON, byte for
  byte (``gate`` per lab case, ``check_answer`` per canned answer, ``audit --format json``,
  ``versions --format json``);
* :class:`FreshnessTest`: a page edited during the session is refused on the next call, as a fresh
  non-strict load would refuse it, and counts again once restored; unchanged pages are hashed, never
  read for directives again; a manifest change reloads, a manifest that stops loading is an error
  until it loads; calls wait while a reload runs;
* :class:`ToolErrorTest`: error results carry the command line's stderr line and ``{error, reason,
  message}``; the ``--operation`` rule is one function with registered reasons;
* :class:`AuditLimitTest`: ``limit`` cuts lists, keeps the counts, says ``truncated``;
* :class:`VersionsCommandTest`, :class:`McpCommandTest`: the two new commands (the MCP server itself is
  driven through the SDK in ``tests/test_mcp.py`` and ``tests/mcp_check.py``);
* :class:`OptionalExtraTest`: ``import conflict_gate`` never imports the SDK, ``dependencies = []``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import run
from _conflict_gate.base.errors import DecisionError, GateError, GrammarError, IngestionError
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.base.registry import EXIT_CODES
from _conflict_gate.corpus import load as corpus_module
from _conflict_gate.corpus.load import Corpus, load_documents
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.results.service import TOOL_ERROR_CLASSES, ToolError
from _conflict_gate.service.gate import RACY_SECONDS, TOOLS, GateService, _Stamp
from tests.support import REPO, modules_after_import, run_cli, without_the_mcp_sdk

BEFORE, AFTER = run.CHANGED_LINE


def code(name: str) -> int:
    return EXIT_CODES[name][0]


class LabCopyCase(unittest.TestCase):
    """A copy of the lab's manifest and docs/ in a temporary folder (``self.manifest``, ``self.m``)."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-service-")
        self.addCleanup(tmp.cleanup)
        self.root = Path(os.path.realpath(tmp.name))
        shutil.copytree(REPO / "docs", self.root / "docs")
        shutil.copy2(REPO / "manifest.json", self.root / "manifest.json")
        self.manifest = self.root / "manifest.json"
        self.m = str(self.manifest)

    def cli(self, *argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
        return run_cli(argv, stdin=stdin)

    def cli_gate(
        self, candidates: tuple[str, ...] | list[str], version: str, operation: str | None, key: str, *options: str
    ) -> tuple[int, str, str]:
        return self.cli(
            "gate",
            "--manifest",
            self.m,
            "--version",
            version,
            "--claim",
            key,
            *(("--operation", operation) if operation else ()),
            *options,
            *candidates,
        )

    def edit(self, rel: str, before: bytes = BEFORE, after: bytes = AFTER) -> Callable[[], None]:
        """Replace the one ``before`` in the file with ``after``; return what restores the file."""
        path = self.root / rel
        raw = path.read_bytes()
        self.assertEqual(raw.count(before), 1)
        path.write_bytes(raw.replace(before, after))

        def restore() -> None:
            path.write_bytes(raw)

        return restore


class LabEqualityTest(LabCopyCase):
    def test_every_tool_equals_the_command_lines_json_for_the_lab(self) -> None:
        service = GateService(self.m)
        decisions = {}
        for case_id, candidates, version, operation, key, _ in run.LAB_CASES:
            with self.subTest(case_id):
                result = service.gate(list(candidates), version, key, operation)
                status, out, err = self.cli_gate(candidates, version, operation, key)
                self.assertEqual(render_json(result), out, err)
                self.assertEqual(
                    render_json(service.gate(list(candidates), version, key)),
                    out,
                    "without an operation: the only one that has the key",
                )
                decisions[case_id] = (result, out)
        for answer_id, case_id, _ in run.LAB_ANSWERS:
            with self.subTest(answer_id):
                answer = (self.root / "docs" / "answers" / f"{answer_id}.txt").read_bytes()
                _decision, text = decisions[case_id]
                (self.root / "decision.json").write_text(text, encoding="utf-8")
                status, out, err = self.cli(
                    "check-answer",
                    "--manifest",
                    self.m,
                    "--decision",
                    str(self.root / "decision.json"),
                    "--answer",
                    "-",
                    stdin=answer,
                )
                self.assertEqual(render_json(service.check_answer(json.loads(text), answer.decode("utf-8"))), out)
        status, out, _ = self.cli("audit", "--manifest", self.m, "--format", "json")
        self.assertEqual(render_json(service.audit()), out)
        status, out, _ = self.cli("versions", "--manifest", self.m, "--format", "json")
        self.assertEqual((status, render_json(service.versions())), (code("ok"), out))
        self.assertEqual((service.reloads, service.reread), (0, 0))

    def test_the_gate_tool_carries_the_users_question_as_the_command_line_does(self) -> None:
        """Guards against the gate tool and ``gate --question`` building different requests (issue 31)."""
        service = GateService(self.m)
        question = "Does create_copy overwrite in 1.0?"
        result = service.gate(["quill-guide", "quill-reference"], "1.0", "existing_path", question=question)
        status, out, err = self.cli(
            "gate",
            "--manifest",
            self.m,
            "--version",
            "1.0",
            "--claim",
            "existing_path",
            "--question",
            question,
            "quill-guide",
            "quill-reference",
        )
        self.assertEqual((status, render_json(result)), (code("ok"), out), err)
        request = result["answer_request"]
        assert request is not None
        self.assertEqual(request["messages"][2], {"role": "user", "content": question})


class FreshnessTest(LabCopyCase):
    READY = (["quill-guide", "quill-reference"], "1.0", "existing_path", "create_copy")
    NEWER = (["quill-new-version"], "2.0", "existing_path", "create_copy")

    def test_a_page_not_pinned_yet_stays_refused_as_not_pinned(self) -> None:
        """Guards against the re-verification of a page listed with an empty pin calling it changed
        (``hash_mismatch``): until the manifest pins it, it is ``source_unpinned``, as a fresh load says."""
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        next(e for e in data["documents"] if e["source_id"] == "quill-guide")["sha256"] = ""
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        service = GateService(self.m)
        fresh = self.cli_gate(*self._cli(self.READY), "--no-strict")
        for _ in range(2):  # loaded, then re-verified
            refused = service.gate(*self.READY)
            self.assertEqual((refused["reason"], render_json(refused)), ("source_unpinned", fresh[1]))
        self.assertEqual(service.gate(*self.NEWER)["status"], "ready")

    def test_a_page_edited_during_the_session_is_refused_on_the_next_call(self) -> None:
        """Guards against a long-running gate serving a page's old claims after the page changed."""
        service = GateService(self.m)
        self.assertEqual(service.gate(*self.READY)["status"], "ready")
        restore = self.edit("docs/quill-guide.md")
        edited = service.gate(*self.READY)
        self.assertEqual(
            (edited["status"], edited["reason"], edited["source_id"]), ("refused", "hash_mismatch", "quill-guide")
        )
        status, out, _ = self.cli_gate(*self._cli(self.READY), "--no-strict")
        self.assertEqual((status, render_json(edited)), (code("refused"), out), "what a fresh non-strict load says")
        self.assertEqual(service.gate(*self.NEWER)["status"], "ready", "a page not eligible is unaffected")
        self.assertEqual(service.versions()["versions"][0]["sources"][1]["refused"], "hash_mismatch")
        self.assertEqual(service.audit()["summary"]["failed"], 1)
        self.assertEqual(service.reread, 0)
        restore()  # its bytes match the pin again
        self.assertEqual(service.gate(*self.READY)["status"], "ready")
        self.assertEqual(service.reread, 1)
        (self.root / "docs" / "quill-guide.md").unlink()
        gone = service.gate(*self.READY)
        self.assertEqual(
            (gone["reason"], render_json(gone)),
            ("source_missing", self.cli_gate(*self._cli(self.READY), "--no-strict")[1]),
        )
        self.assertEqual(service.reloads, 0)

    @staticmethod
    def _cli(request: tuple[list[str], str, str, str]) -> tuple[list[str], str, str, str]:
        candidates, version, key, operation = request
        return candidates, version, operation, key

    def test_unchanged_pages_are_hashed_never_read_again(self) -> None:
        """Guards against re-verification re-reading every page for directives on every call."""
        service = GateService(self.m)
        reads: list[str] = []
        real = read_directives

        def counting(text: str, *args: Any, **kwargs: Any) -> Any:
            reads.append(kwargs.get("source_id") or "")
            return real(text, *args, **kwargs)

        with mock.patch.object(corpus_module, "_reader", return_value=counting):
            for _ in range(3):
                service.gate(*self.READY)
                service.versions()
                service.audit()
            self.assertEqual(reads, [])
            restore = self.edit("docs/quill-guide.md")
            service.audit()
            restore()
            service.audit()
            service.audit()
        self.assertEqual(reads, ["quill-guide"], "only the page restored to its pin is read again, once")

    def test_a_decision_made_before_an_edit_no_longer_checks(self) -> None:
        service = GateService(self.m)
        decision = service.gate(*self.READY)
        answer = (self.root / "docs" / "answers" / "supported.txt").read_text(encoding="utf-8")
        self.assertEqual(service.check_answer(decision, answer)["verdict"], "supported")
        self.edit("docs/quill-guide.md")
        with self.assertRaises(DecisionError) as caught:  # the gate now refuses: a stale decision
            service.check_answer(decision, answer)
        self.assertEqual((caught.exception.reason, caught.exception.pointer), ("decision_mismatch", "/status"))

    def test_an_answer_looked_up_in_the_pinned_bytes_after_another_page_changed(self) -> None:
        """The invented quote is looked up in every source; a page the decision does not use changed
        meanwhile: the check re-verifies everything, then gives the command line's verdict."""
        service = GateService(self.m)
        decision = service.gate(*self.READY)
        answer = (self.root / "docs" / "answers" / "invented-quote.txt").read_bytes()
        self.edit("docs/quill-conflicting-guide.md", b"existing_path=overwrite", b"existing_path=refuse")
        result = service.check_answer(decision, answer.decode("utf-8"))
        (self.root / "decision.json").write_text(render_json(decision), encoding="utf-8")
        _status, out, _ = self.cli(
            "check-answer",
            "--manifest",
            self.m,
            "--decision",
            str(self.root / "decision.json"),
            "--answer",
            "-",
            "--no-strict",
            stdin=answer,
        )
        self.assertEqual(render_json(result), out)
        self.assertEqual(
            service.corpus.sources["quill-conflicting-guide"].refusal.reason,  # type: ignore[union-attr]
            "hash_mismatch",
        )

    def test_a_manifest_change_reloads_and_a_broken_one_is_an_error_until_fixed(self) -> None:
        service = GateService(self.m)
        self.edit("docs/quill-guide.md")
        self.assertEqual(self.cli("pin", "--manifest", self.m)[0], code("ok"))  # re-pinned: a manifest change
        conflict = service.gate(*self.READY)
        self.assertEqual((service.reloads, conflict["status"]), (1, "conflict"))
        good = self.manifest.read_bytes()
        self.manifest.write_bytes(good.replace(b'"documents": [', b'"documents": [,', 1))
        for _ in range(2):  # every call, until it loads again
            with self.assertRaises(IngestionError) as caught:
                service.gate(*self.READY)
            self.assertEqual(caught.exception.reason, "manifest_not_json")
            text, content = service.error_result(caught.exception)
            status, _, err = self.cli_gate(*self._cli(self.READY))
            self.assertEqual((status, text + "\n"), (code("input"), err))
            self.assertEqual(
                content, {"error": "IngestionError", "reason": "manifest_not_json", "message": str(caught.exception)}
            )
        data = json.loads(good)
        data["grammar"]["namespace"] = "Quill"
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        with self.assertRaises(GrammarError):
            service.audit()
        self.manifest.write_bytes(good)  # the bytes the corpus was loaded from: no reload needed
        self.assertEqual(service.gate(*self.READY)["status"], "conflict")
        self.assertEqual(service.reloads, 1)

    def test_the_manifest_is_hashed_only_while_its_stat_cannot_be_trusted(self) -> None:
        """A stat equal to the recorded one is trusted only once the mtime is older than the hash by
        RACY_SECONDS: an edit within one timestamp tick keeps the mtime."""
        self.manifest.write_bytes(self.manifest.read_bytes())  # modified now
        now = [time.time()]
        service = GateService(self.m, clock=lambda: now[0])
        hashed: list[int] = []
        real = _Stamp.of.__func__  # type: ignore[attr-defined]

        def of(cls: type[_Stamp], path: str, clock: Callable[[], float]) -> _Stamp:
            hashed.append(1)
            stamp: _Stamp = real(cls, path, clock)
            return stamp

        with mock.patch.object(_Stamp, "of", classmethod(of)):
            service.versions()
            self.assertEqual(len(hashed), 1, "just written: racy, hashed")
            now[0] += RACY_SECONDS + 1
            service.versions()
            service.versions()
            self.assertEqual(len(hashed), 2, "hashed once more when old enough, then trusted")
        key = _Stamp.stat_key(self.m)
        assert key is not None
        self.assertFalse(_Stamp(key, "x", key[3] / 1e9 + RACY_SECONDS / 2).trusted(key))
        self.assertTrue(_Stamp(key, "x", key[3] / 1e9 + RACY_SECONDS * 2).trusted(key))
        self.assertFalse(_Stamp(key, "x", key[3] / 1e9 + RACY_SECONDS * 2).trusted((*key[:2], key[2] + 1, *key[3:])))

    def test_calls_wait_while_a_reload_runs(self) -> None:
        """Guards against a call answering from the old corpus while the new manifest is being loaded."""
        entered, release = threading.Event(), threading.Event()
        loads = [0]

        def slow_load(path: str, *, strict: bool) -> Corpus:
            loads[0] += 1
            if loads[0] == 2:  # the reload
                entered.set()
                release.wait(10)
            return load_documents(path, strict=strict)

        service = GateService(self.m, load=slow_load)
        self.edit("docs/quill-guide.md")
        self.assertEqual(self.cli("pin", "--manifest", self.m)[0], code("ok"))
        results: dict[str, str] = {}
        first = threading.Thread(target=lambda: results.setdefault("first", service.gate(*self.READY)["status"]))
        second = threading.Thread(target=lambda: results.setdefault("second", service.gate(*self.READY)["status"]))
        first.start()
        self.assertTrue(entered.wait(10))
        second.start()
        second.join(0.2)
        self.assertTrue(second.is_alive(), "the second call must wait for the reload")
        release.set()
        first.join(10)
        second.join(10)
        self.assertEqual(results, {"first": "conflict", "second": "conflict"})
        self.assertEqual(loads[0], 2)

    def test_a_duplicate_path_stays_refused_until_the_manifest_changes(self) -> None:
        os.link(self.root / "docs" / "quill-guide.md", self.root / "docs" / "guide-link.md")
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        guide = next(d for d in data["documents"] if d["source_id"] == "quill-guide")
        data["documents"].append({**guide, "source_id": "guide-link", "path": "docs/guide-link.md"})
        self.manifest.write_text(json.dumps(data, indent=2), encoding="utf-8")
        service = GateService(self.m)
        for _ in range(2):
            self.assertEqual(service.gate(["guide-link"], "1.0", "existing_path")["reason"], "duplicate_path")
            self.assertEqual(service.gate(*self.READY)["status"], "ready")


class ToolErrorTest(LabCopyCase):
    def test_error_results_are_the_command_lines_lines(self) -> None:
        service = GateService(self.m)
        requests = {
            "unknown_candidate": (["quill-guide", "quill-gide"], "1.0", "existing_path"),
            "invalid_requested_version": (["quill-guide"], "1.0.0", "existing_path"),
            "duplicate_candidate": (["quill-guide", "quill-guide"], "1.0", "existing_path"),
            "invalid_candidate_ids": ([""], "1.0", "existing_path"),
        }
        for reason, (candidates, version, key) in requests.items():
            with self.subTest(reason):
                with self.assertRaises(GateError) as caught:
                    service.gate(candidates, version, key)
                text, content = service.error_result(caught.exception)
                status, out, err = self.cli_gate(candidates, version, "create_copy", key)
                self.assertEqual((status, out, text + "\n"), (code("usage"), "", err))
                self.assertEqual(content, {"error": "GateError", "reason": reason, "message": str(caught.exception)})
        decision = service.gate(*FreshnessTest.READY)
        with self.assertRaises(DecisionError) as mismatch:
            service.check_answer({**decision, "agreed_value": "overwrite"}, "x")
        self.assertEqual(service.error_result(mismatch.exception)[1]["reason"], "decision_mismatch")
        self.assertEqual(tuple(ToolError.__annotations__), ("error", "reason", "message"))
        self.assertEqual(TOOL_ERROR_CLASSES, ("GateError", "DecisionError", "IngestionError", "GrammarError"))

    def test_the_operation_rule_is_the_command_lines(self) -> None:
        """Guards against either the tool or the command line picking one of several operations."""
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        data["grammar"]["operations"]["move"] = {"existing_path": {"type": "enum", "values": ["refuse", "overwrite"]}}
        self.manifest.write_text(json.dumps(data, indent=2), encoding="utf-8")
        self.assertEqual(self.cli("pin", "--manifest", self.m)[0], code("ok"))
        service = GateService(self.m)
        for key, reason in (("existing_path", "ambiguous_claim_key"), ("colour", "unsupported_requested_claim")):
            with self.subTest(key):
                with self.assertRaises(GateError) as caught:
                    service.gate(["quill-guide"], "1.0", key)
                self.assertEqual(caught.exception.reason, reason)
                status, _, err = self.cli_gate(["quill-guide"], "1.0", None, key)
                self.assertEqual(status, code("usage"))
                self.assertTrue(err.endswith(f"[{reason}]\n"), err)
        self.assertIn("name one in the gate tool's operation", str(self._raised(service, "existing_path")))
        self.assertEqual(
            service.gate(["quill-guide"], "1.0", "existing_path", "move")["reason"], "requested_claim_missing"
        )

    @staticmethod
    def _raised(service: GateService, key: str) -> GateError:
        try:
            service.gate(["quill-guide"], "1.0", key)
        except GateError as error:
            return error
        raise AssertionError("no error")


class AuditLimitTest(LabCopyCase):
    def test_a_limit_cuts_lists_keeps_counts_and_says_so(self) -> None:
        service = GateService(self.m)
        full = service.audit()
        self.assertNotIn("truncated", full)
        one = service.audit(1)
        self.assertIs(one["truncated"], True)
        for name in ("source_count", "versions", "summary", "clean"):
            self.assertEqual(one[name], full[name], name)
        self.assertEqual(one["near_misses"], full["near_misses"][:1])
        self.assertEqual(len(one["operations"]), 1)
        for operation in one["operations"]:
            self.assertLessEqual(len(operation["keys"]), 1)
            for entry in operation["keys"]:
                self.assertLessEqual(len(entry["claims"]), 1)
                self.assertEqual(
                    entry["values"],
                    next(
                        e
                        for o in full["operations"]
                        for e in o["keys"]
                        if (o["version"], o["operation"], e["claim_key"])
                        == (operation["version"], operation["operation"], entry["claim_key"])
                    )["values"],
                )
        roomy = service.audit(10_000)
        self.assertEqual((roomy.pop("truncated"), roomy), (False, full))
        self.assertEqual(service.audit(0)["operations"], [])
        with self.assertRaises(ValueError):
            service.audit(-1)


class VersionsCommandTest(LabCopyCase):
    def test_table_and_json(self) -> None:
        status, out, err = self.cli("versions", "--manifest", self.m)
        self.assertEqual((status, err), (code("ok"), ""))
        self.assertIn(
            "| 1.0 | `quill-guide` | https://docs.quill.example/1.0/guide | create_copy: existing_path |", out
        )
        self.assertIn(
            "| 1.0 | `quill-malformed` | https://docs.quill.example/1.0/malformed | refused: malformed_directive |", out
        )
        self.assertNotIn("quill-draft", out)
        listing = json.loads(self.cli("versions", "--manifest", self.m, "--format", "json")[1])
        self.assertEqual([v["version"] for v in listing["versions"]], ["1.0", "2.0"])
        self.assertEqual(listing["renderer"], "portable")

    def test_the_listing_names_the_manifests_renderer(self) -> None:
        """Regression: the listing named the default renderer whatever the manifest said."""
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        data["renderer"] = "github"
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        listing = json.loads(self.cli("versions", "--manifest", self.m, "--format", "json")[1])
        self.assertEqual(listing["renderer"], "github")

    def test_strict_and_not(self) -> None:
        self.edit("docs/quill-guide.md")
        status, out, err = self.cli("versions", "--manifest", self.m, "--strict")
        self.assertEqual((status, out), (code("input"), ""))
        self.assertIn("[hash_mismatch]", err)
        status, out, err = self.cli("versions", "--manifest", self.m, "--format", "json")
        self.assertEqual(status, code("ok"))
        self.assertTrue(err.startswith("conflict-gate: warning: 1 of 8 sources failed verification"), err)
        guide = next(s for s in json.loads(out)["versions"][0]["sources"] if s["source_id"] == "quill-guide")
        self.assertEqual((guide["refused"], guide["keys"]), ("hash_mismatch", {}))


class McpCommandTest(LabCopyCase):
    def test_without_the_sdk_it_says_how_to_install_it(self) -> None:
        """Guards against a traceback (or a server that never starts) when the optional extra is missing."""
        with without_the_mcp_sdk():
            status, out, err = self.cli("mcp", "--manifest", self.m)
        self.assertEqual((status, out), (code("usage"), ""))
        self.assertEqual(err.count("\n"), 1, err)
        self.assertTrue(err.startswith("conflict-gate: error: the mcp command needs the MCP Python SDK 2.x"), err)
        self.assertIn('pip install "conflict-gate[mcp]"', err)

    def test_the_tools_are_described_with_the_flow_and_the_answer_form(self) -> None:
        self.assertEqual(list(TOOLS), ["versions", "gate", "check_answer", "audit"])
        for name, spec in TOOLS.items():
            with self.subTest(name):
                for part in (
                    "versions",
                    "gate",
                    "check_answer",
                    "answer_request",
                    "[source: ID:LINE]",
                    "`version=V`",
                    "`key=value`",
                    "never fall back to another version",
                ):
                    self.assertIn(part, spec.description)
                self.assertLessEqual(set(spec.required), set(spec.parameters))


class OptionalExtraTest(unittest.TestCase):
    def test_importing_conflict_gate_never_imports_the_sdk(self) -> None:
        loaded = modules_after_import()["with_cli"]  # a fresh interpreter's, after conflict_gate and the CLI
        self.assertIn("_conflict_gate.cli.main", loaded)
        sdk = [
            m
            for m in loaded
            if m.split(".")[0] in ("mcp", "pydantic")
            or m in ("_conflict_gate.service.mcp", "_conflict_gate.service.gate")
        ]
        self.assertEqual(sdk, [])

    def test_no_runtime_dependency_and_the_extra(self) -> None:
        if sys.version_info < (3, 11):
            self.skipTest("tomllib needs Python 3.11")
        else:
            import tomllib

            project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
            self.assertEqual(project["dependencies"], [])
            self.assertEqual(
                project["optional-dependencies"],
                {
                    "mcp": ["mcp>=2,<3"],  # the RAG adapters' extras, pinned (reference/rag.md)
                    "llamaindex": ["llama-index-core==0.14.25"],
                    "langchain": ["langchain-core==1.8.1"],
                    "haystack": ["haystack-ai==3.4.1"],
                },
            )


if __name__ == "__main__":
    unittest.main()
