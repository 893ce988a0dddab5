"""gate_context (retrieved pages -> a decision over every claim they declare), its answer check, and the
chunk -> source look-up. Standard library only: no RAG framework is needed (tests/test_rag_*.py test the
adapters, where the frameworks are installed)."""

from __future__ import annotations

import json
import os
import unittest
from pathlib import Path
from typing import Any, ClassVar

import conflict_gate
from _conflict_gate.base.errors import DecisionError, GateError, IngestionError
from _conflict_gate.corpus.chunks import chunk_source
from _conflict_gate.decide.context import gate_context
from tests.support import (
    FIXTURE_MANIFEST,
    REPO,
    CorpusTestCase,
    directive,
    modules_after_import,
    schema_validator,
    write_corpus,
)

GUIDE = b"# Guide\n\nCopy a file.\n\n" + directive("refuse") + b"\n\n" + directive("no", "close_required") + b"\n"
REFERENCE = b"# Reference\n\n" + directive("refuse") + b"\n\n" + directive("no", "close_required") + b"\n"
ONLY_PATH = b"# Short\n\n" + directive("refuse") + b"\n"
OTHER = b"# Other\n\n" + directive("overwrite") + b"\n"
PLAIN = b"# Plain\n\nNo directive here.\n"

SUPPORTED = (
    "In Quill 1.0 (`version=1.0`) an existing destination is refused: `existing_path=refuse` "
    "[source: guide:5] [source: reference:3].\n"
)


class GateContextTest(CorpusTestCase):
    def test_ready_lists_agreed_keys_and_carries_question_claims_and_text(self) -> None:
        """Guards against a context decision that omits the question, the claims or the pages' text."""
        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE})
        decision = gate_context(corpus, ["reference", "guide"], "1.0", question="What if it exists?")
        self.assertEqual((decision["status"], decision["reason"]), ("ready", "eligible_directives_agree"))
        self.assertEqual(
            [(a["claim_key"], a["value"]) for a in decision["agreed"]],
            [("close_required", "no"), ("existing_path", "refuse")],
        )
        self.assertEqual(decision["partial"], [])
        request = decision["answer_request"]
        assert request is not None
        messages = request["messages"]
        self.assertEqual([m["role"] for m in messages], ["system", "user", "user"])
        self.assertEqual(messages[2]["content"], "What if it exists?")
        self.assertIn("Copy a file.", messages[1]["content"])
        self.assertIn("@quill create_copy existing_path=refuse", messages[1]["content"])
        self.assertEqual([p["source_id"] for p in decision["pages"]], ["reference", "guide"])  # retriever order

    def test_a_key_only_some_pages_declare_is_partial_not_agreed(self) -> None:
        """Guards against counting one page's silence as agreement (close_required declared by one page)."""
        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/short.md": ONLY_PATH})
        decision = gate_context(corpus, ["guide", "short"], "1.0")
        self.assertEqual(decision["status"], "ready")
        self.assertEqual([a["claim_key"] for a in decision["agreed"]], ["existing_path"])
        self.assertEqual(
            [(p["claim_key"], p["source_ids"], p["silent_source_ids"]) for p in decision["partial"]],
            [("close_required", ["guide"], ["short"])],
        )
        answer = SUPPORTED.replace("reference:3", "short:3")
        self.assertEqual(conflict_gate.check_answer(corpus, decision, answer)["verdict"], "supported")
        answer += "Close it first: `close_required=no` [source: guide:7].\n"
        check = conflict_gate.check_answer(corpus, decision, answer)
        self.assertEqual(check["verdict"], "contradicts_decision")
        self.assertIn("other_value", [f["kind"] for f in check["findings"]])

    def test_conflict_names_each_key_page_line_and_value(self) -> None:
        """Guards against a conflict smoothed over, or reported without where each value is declared."""
        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/other.md": OTHER})
        decision = gate_context(corpus, ["guide", "other"], "1.0")
        self.assertEqual((decision["status"], decision["reason"]), ("conflict", "same_version_directives_disagree"))
        self.assertIsNone(decision["answer_request"])
        (conflict,) = decision["conflicts"]
        self.assertEqual((conflict["claim_key"], conflict["values"]), ("existing_path", ["overwrite", "refuse"]))
        self.assertEqual(
            [(c["source_id"], c["path"], c["start_line"], c["value"]) for c in conflict["claims"]],
            [("guide", "docs/guide.md", 5, "refuse"), ("other", "docs/other.md", 3, "overwrite")],
        )
        self.assertEqual(conflict_gate.check_answer(corpus, decision, SUPPORTED)["verdict"], "no_answer_allowed")

    def test_no_key_every_page_declares_is_not_in_docs(self) -> None:
        """Guards against `ready` with nothing agreed (a page without directives beside one with)."""
        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/plain.md": PLAIN})
        decision = gate_context(corpus, ["guide", "plain"], "1.0")
        self.assertEqual((decision["status"], decision["reason"]), ("not_in_docs", "requested_claim_missing"))
        self.assertEqual(decision["missing_claim_source_ids"], ["plain"])

    def test_version_status_and_refusal_as_gate_gives_them(self) -> None:
        """Guards against another version or a draft used as a fallback, and a refused page ignored."""
        corpus, _ = self.corpus(
            {
                "docs/guide.md": GUIDE,
                "docs/new.md": OTHER,
                "docs/draft.md": OTHER,
                "docs/bad.md": b"# Bad\n\n@quill create_copy existing_path = refuse\n",
            },
            versions={"new": "2.0"},
            statuses={"draft": "draft"},
        )
        self.assertEqual(gate_context(corpus, ["new"], "1.0")["reason"], "no_eligible_version")
        self.assertEqual(gate_context(corpus, ["draft"], "1.0")["reason"], "no_approved_source")
        ready = gate_context(corpus, ["guide", "new", "draft"], "1.0")
        self.assertEqual(
            (ready["status"], ready["excluded_wrong_version_ids"], ready["excluded_unapproved_ids"]),
            ("ready", ["new"], ["draft"]),
        )
        refused = gate_context(corpus, ["guide", "bad"], "1.0")
        self.assertEqual(
            (refused["status"], refused["reason"], refused["source_id"]), ("refused", "malformed_directive", "bad")
        )

    def test_pages_declaring_nothing_can_be_set_aside(self) -> None:
        """Guards against one retrieved page without any directive (an install page beside the reference)
        withholding every answer with no way round it, as gate's unrelated="set_aside" gives for gate:
        set aside, it takes no part and sends no text; a refused page is never set aside; the default
        still counts it as silent."""
        corpus, _ = self.corpus(
            {
                "docs/guide.md": GUIDE,
                "docs/reference.md": REFERENCE,
                "docs/plain.md": PLAIN,
                "docs/bad.md": b"# Bad\n\n@quill create_copy existing_path = refuse\n",
            }
        )
        withheld = gate_context(corpus, ["plain", "guide", "reference"], "1.0")
        self.assertEqual(withheld["reason"], "requested_claim_missing")
        self.assertNotIn("set_aside_unrelated_ids", withheld)
        ready = gate_context(corpus, ["plain", "guide", "reference"], "1.0", unrelated="set_aside")
        self.assertEqual((ready["status"], ready["set_aside_unrelated_ids"]), ("ready", ["plain"]))
        self.assertEqual(ready["eligible_source_ids"], ["guide", "plain", "reference"])
        self.assertEqual([p["source_id"] for p in ready["pages"]], ["guide", "reference"])
        self.assertEqual(list(ready)[-1], "set_aside_unrelated_ids")  # as gate's: the field it ends with
        request = ready["answer_request"]
        assert request is not None
        self.assertNotIn("No directive here.", request["messages"][1]["content"])
        self.assertEqual(conflict_gate.check_answer(corpus, ready, SUPPORTED)["verdict"], "supported")
        alone = gate_context(corpus, ["plain"], "1.0", unrelated="set_aside")
        self.assertEqual((alone["status"], alone["reason"]), ("not_in_docs", "no_related_source"))
        refused = gate_context(corpus, ["bad", "guide"], "1.0", unrelated="set_aside")
        self.assertEqual((refused["reason"], refused["set_aside_unrelated_ids"]), ("malformed_directive", []))
        with self.assertRaises(GateError) as caught:
            gate_context(corpus, ["guide"], "1.0", unrelated="drop")
        self.assertEqual(caught.exception.reason, "invalid_unrelated_option")

    def test_the_size_limit_cuts_text_and_says_so(self) -> None:
        """Guards against a request over the caller's limit, or a cut the model is not told about."""
        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE})
        decision = gate_context(corpus, ["guide", "reference"], "1.0", max_context_chars=30)
        self.assertEqual([(p["included_chars"], p["truncated"]) for p in decision["pages"]], [(30, True), (0, True)])
        request = decision["answer_request"]
        assert request is not None
        self.assertIn("cut at the size limit", request["messages"][0]["content"])
        self.assertIn('"included_chars":30', request["messages"][1]["content"])
        whole = gate_context(corpus, ["guide", "reference"], "1.0", max_context_chars=10_000)
        self.assertFalse(any(p["truncated"] for p in whole["pages"]))
        for bad in (-1, True, 1.5, 1 << 40):
            with self.subTest(bad), self.assertRaises(ValueError):
                gate_context(corpus, ["guide"], "1.0", max_context_chars=bad)  # type: ignore[arg-type]

    def test_bad_requests_raise_gate_errors(self) -> None:
        corpus, _ = self.corpus({"docs/guide.md": GUIDE})
        for ids, version, reason in (
            (["nope"], "1.0", "unknown_candidate"),
            (["guide", "guide"], "1.0", "duplicate_candidate"),
            ("guide", "1.0", "invalid_candidate_ids"),
            (["guide"], "v1", "invalid_requested_version"),
        ):
            with self.subTest(reason), self.assertRaises(GateError) as caught:
                gate_context(corpus, ids, version)
            self.assertEqual(caught.exception.reason, reason)
        with self.assertRaises(GateError):
            gate_context(corpus, ["guide"], "1.0", question="\x1b[2J")

    def test_a_page_changed_after_the_load_is_not_sent(self) -> None:
        """Guards against sending a model text whose bytes no longer match the pin."""
        corpus, manifest = self.corpus({"docs/guide.md": GUIDE})
        (manifest.parent / "docs/guide.md").write_bytes(GUIDE.replace(b"Copy", b"Move"))
        with self.assertRaises(IngestionError) as caught:
            gate_context(corpus, ["guide"], "1.0")
        self.assertEqual(caught.exception.reason, "hash_mismatch")

    def test_the_result_validates_against_its_schema_where_jsonschema_is_installed(self) -> None:
        try:
            import jsonschema
        except ImportError:
            self.skipTest("jsonschema is not installed (the oracles venv has it)")
        corpus, _ = self.corpus(
            {
                "docs/guide.md": GUIDE,
                "docs/other.md": OTHER,
                "docs/reference.md": REFERENCE,
                "docs/plain.md": PLAIN,
                "docs/bad.md": b"# Bad\n\n@quill create_copy x=y\n",
                "docs/draft.md": GUIDE,
            },
            statuses={"draft": "draft"},
        )
        validator = schema_validator("context-decision")  # what jsonschema.validate does, checked once
        seen = set()
        for ids in (["guide", "reference"], ["guide", "other"], [], ["guide", "plain"], ["guide", "bad"], ["draft"]):
            decision = gate_context(corpus, ids, "1.0", question="q")
            seen.add(decision["reason"])
            validator.validate(decision)
        for ids in (["guide", "plain"], ["plain"]):
            decision = gate_context(corpus, ids, "1.0", unrelated="set_aside")
            seen.add(decision["reason"])
            validator.validate(decision)
        self.assertEqual(len(seen), 7)
        wrong = dict(gate_context(corpus, ["guide", "other"], "1.0"), missing_claim_source_ids=["guide"])
        with self.assertRaises(jsonschema.ValidationError):  # a field of another reason
            validator.validate(wrong)


class ContextAnswerCheckTest(CorpusTestCase):
    def setUp(self) -> None:
        self.corpus_, _ = self.corpus({"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE})
        self.decision = gate_context(self.corpus_, ["guide", "reference"], "1.0", question="What if it exists?")

    def verdict(self, answer: str) -> str:
        return conflict_gate.check_answer(self.corpus_, self.decision, answer)["verdict"]

    def test_an_answer_stating_agreed_values_with_citations_is_supported(self) -> None:
        """Guards against a context decision check_answer cannot read (it has no operation or key)."""
        check = conflict_gate.check_answer(self.corpus_, self.decision, SUPPORTED)
        self.assertEqual((check["verdict"], check["findings"]), ("supported", []))
        self.assertEqual(check["decision"]["operation"], None)
        both = SUPPORTED + "Close the handle: `close_required=no` [source: guide:7] [source: reference:5].\n"
        self.assertEqual(self.verdict(both), "supported")

    def test_every_stated_key_must_match_its_agreed_value(self) -> None:
        """Guards against another value of any agreed key passing (not only the first key's)."""
        self.assertEqual(self.verdict(SUPPORTED + "Or `close_required=yes`.\n"), "contradicts_decision")
        self.assertEqual(
            self.verdict(SUPPORTED.replace("existing_path=refuse", "existing_path=overwrite")), "contradicts_decision"
        )
        self.assertEqual(
            self.verdict(SUPPORTED + "```python\ncreate_copy(a, b, close_required='yes')\n```\n"),
            "contradicts_decision",
        )

    def test_a_stated_key_needs_its_claims_cited_and_the_version_stated(self) -> None:
        self.assertEqual(self.verdict(SUPPORTED.replace(" [source: reference:3]", "")), "missing_citation")
        self.assertEqual(self.verdict(SUPPORTED.replace("(`version=1.0`) ", "")), "missing_statement")
        self.assertEqual(self.verdict("Quill 1.0 (`version=1.0`) copies files.\n"), "missing_statement")
        self.assertEqual(self.verdict(SUPPORTED + "See [source: guide:1].\n"), "unknown_citation")

    def test_an_edited_context_decision_is_refused(self) -> None:
        """Guards against checking an answer against agreed values the caller edited."""
        edited = dict(self.decision, agreed=[dict(a, value="overwrite") for a in self.decision["agreed"]])
        with self.assertRaises(DecisionError):
            conflict_gate.check_answer(self.corpus_, edited, SUPPORTED)
        with self.assertRaises(DecisionError):
            conflict_gate.check_answer(self.corpus_, dict(self.decision, max_context_chars=-5), SUPPORTED)

    def test_check_answer_on_the_command_line_reads_a_context_decision_file(self) -> None:
        """Guards against the command line's check-answer assuming a decision has an operation and key."""
        import json

        from tests.support import run_cli

        folder = self.folder()
        (folder / "decision.json").write_text(json.dumps(self.decision), encoding="utf-8")
        (folder / "answer.txt").write_text(SUPPORTED, encoding="utf-8")
        manifest = Path(self.corpus_.manifest.path)
        code, out, err = run_cli(
            [
                "check-answer",
                "--manifest",
                str(manifest),
                "--decision",
                str(folder / "decision.json"),
                "--answer",
                str(folder / "answer.txt"),
            ]
        )
        self.assertEqual((code, json.loads(out)["verdict"]), (0, "supported"), err)

    def test_the_lab_supported_answer_passes_a_context_decision_too(self) -> None:
        corpus = conflict_gate.load_documents(FIXTURE_MANIFEST, cache=False)
        decision = gate_context(corpus, ["quill-guide", "quill-reference"], "1.0")
        answer = (REPO / "docs/answers/supported.txt").read_bytes()
        self.assertEqual(conflict_gate.check_answer(corpus, decision, answer)["verdict"], "supported")


class ChunkSourceTest(CorpusTestCase):
    def setUp(self) -> None:
        self.corpus_, self.manifest = self.corpus({"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE})
        self.root = self.manifest.parent

    def test_paths_relative_absolute_and_source_ids_find_the_entry(self) -> None:
        """Guards against a chunk's path (as LlamaIndex's file_path or LangChain's source hold it) not found."""
        absolute = str(self.root / "docs" / "guide.md")
        for metadata in (
            {"file_path": absolute},
            {"source": "docs/guide.md"},
            {"source": "./docs/../docs/guide.md"},
            {"source_id": "guide"},
            absolute,
            {"source": "https://docs.quill.example/1.0/guide"},
            {"source_id": "guide", "file_path": absolute},
            {"file_path": "file://" + absolute},
        ):
            with self.subTest(metadata):
                self.assertEqual(chunk_source(self.corpus_, metadata).source_id, "guide")

    def test_the_source_id_key_can_be_renamed_or_ignored(self) -> None:
        """Guards against a framework's own `source_id` (Haystack's splitter: the parent document's hash)
        refusing every chunk when the adapter is told not to read it."""
        meta = {"source_id": "0" * 64, "file_path": str(self.root / "docs" / "guide.md")}
        with self.assertRaises(GateError):
            chunk_source(self.corpus_, meta)
        self.assertEqual(chunk_source(self.corpus_, meta, id_key=None).source_id, "guide")
        self.assertEqual(chunk_source(self.corpus_, {"page": "reference"}, id_key="page").source_id, "reference")

    def test_a_path_relative_to_the_current_directory(self) -> None:
        previous = os.getcwd()
        os.chdir(self.root.parent)
        self.addCleanup(os.chdir, previous)
        relative = os.path.join(self.root.name, "docs", "reference.md")
        self.assertEqual(chunk_source(self.corpus_, {"file_path": relative}).source_id, "reference")

    def test_a_pathlib_path_is_a_path(self) -> None:
        """Guards against a chunk given as a pathlib.Path (rag.md: "or a path"), or a metadata value that is
        one, refused as "not a mapping" / "not a path" (a newcomer's finding)."""
        absolute = self.root / "docs" / "guide.md"
        for metadata in (absolute, {"file_path": absolute}, {"source": Path("docs/guide.md")}):
            with self.subTest(metadata):
                self.assertEqual(chunk_source(self.corpus_, metadata).source_id, "guide")
        with self.assertRaises(GateError):
            chunk_source(self.corpus_, {"file_path": os.fsencode(absolute)})  # bytes are no path here

    def test_a_file_uri_as_pathlib_writes_it(self) -> None:
        """Guards against a file URI refused because it is percent-encoded (Path.as_uri(): a space is %20)
        or names localhost, as file URIs may (a newcomer's finding)."""
        manifest = write_corpus(self.folder(), {"docs/guide.md": GUIDE})
        page = manifest.parent / "docs" / "my guide.md"
        (manifest.parent / "docs" / "guide.md").rename(page)
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["documents"][0]["path"] = "docs/my guide.md"
        manifest.write_text(json.dumps(data), encoding="utf-8")
        corpus = conflict_gate.load_documents(manifest, cache=False)
        for uri in (page.as_uri(), "file://localhost" + page.as_uri()[len("file://") :], "file://" + str(page)):
            with self.subTest(uri):
                self.assertEqual(chunk_source(corpus, {"source": uri}).source_id, "guide")
        for uri in ("file://elsewhere" + str(page), page.as_uri().replace("%20", "%00")):
            with self.subTest(uri), self.assertRaises(GateError):
                chunk_source(corpus, {"source": uri})

    def test_a_file_name_alone_says_what_to_give_instead(self) -> None:
        """Guards against a bare file name (Haystack's converters without store_full_path, LlamaIndex's
        file_name) refused with a message that does not say why: it names the page it might be and asks
        for the whole path."""
        with self.assertRaises(GateError) as caught:
            chunk_source(self.corpus_, {"file_path": "guide.md"})
        self.assertEqual(caught.exception.reason, "unknown_candidate")
        self.assertIn("docs/guide.md", str(caught.exception))
        self.assertIn("store_full_path", str(caught.exception))

    def test_unknown_or_missing_sources_fail_closed(self) -> None:
        """Guards against a chunk from a page the manifest does not list being let through."""
        outside = self.folder() / "guide.md"
        for metadata in (
            {"file_path": str(outside)},
            {"source": "docs/nope.md"},
            {"source_id": "nope"},
            {},
            {"source": 3},
            {"source_id": "guide", "source": "docs/reference.md"},
            {"file_path": str(self.root / "manifest.json")},
            {"source": ""},
        ):
            with self.subTest(metadata), self.assertRaises(GateError) as caught:
                chunk_source(self.corpus_, metadata)
            self.assertEqual(caught.exception.reason, "unknown_candidate")


class ImportTest(unittest.TestCase):
    def test_importing_conflict_gate_needs_no_rag_framework(self) -> None:
        """Guards against the public module importing an optional framework (LlamaIndex, LangChain, Haystack)."""
        frameworks = ("llama_index", "langchain_core", "langchain", "haystack")
        adapters = ("_conflict_gate.rag.llamaindex", "_conflict_gate.rag.langchain", "_conflict_gate.rag.haystack")
        loaded = modules_after_import()["conflict_gate"]  # a fresh interpreter's, after import conflict_gate
        self.assertEqual([m for m in loaded if m.split(".")[0] in frameworks or m in adapters], [])
        self.assertIn("conflict_gate", loaded)
        self.assertTrue(callable(conflict_gate.gate_context) and callable(conflict_gate.chunk_source))


if __name__ == "__main__":
    unittest.main()


class FilterChunksTest(CorpusTestCase):
    """rag.filter_chunks, which every framework adapter wraps (tested here without any framework)."""

    def test_ready_keeps_the_eligible_pages_chunks_in_order(self) -> None:
        from _conflict_gate.rag.filter import filter_chunks

        corpus, manifest = self.corpus(
            {"docs/guide.md": GUIDE, "docs/reference.md": REFERENCE, "docs/new.md": OTHER}, versions={"new": "2.0"}
        )
        chunks = [
            {"source": "docs/new.md"},
            {"source": "docs/guide.md"},
            {"source_id": "reference"},
            {"file_path": str(manifest.parent / "docs/guide.md")},
        ]
        result = filter_chunks(corpus, "1.0", chunks, question="q?")
        self.assertEqual((result.decision["status"], result.kept, result.withheld), ("ready", (1, 2, 3), False))
        self.assertEqual(result.decision["candidate_ids"], ["new", "guide", "reference"])

    def test_anything_but_ready_keeps_no_chunk(self) -> None:
        """Guards against chunks passed on beside a conflict (the answer must be withheld)."""
        from _conflict_gate.rag.filter import filter_chunks

        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/other.md": OTHER})
        result = filter_chunks(corpus, "1.0", [{"source": "docs/guide.md"}, {"source": "docs/other.md"}])
        self.assertEqual((result.decision["status"], result.kept, result.withheld), ("conflict", (), True))
        self.assertEqual(filter_chunks(corpus, "1.0", []).decision["reason"], "no_eligible_version")
        with self.assertRaises(GateError):
            filter_chunks(corpus, "1.0", [{"source": "docs/guide.md"}, {"source": "docs/unlisted.md"}])

    def test_set_aside_pages_chunks_are_dropped(self) -> None:
        """Guards against a set-aside page's chunks reaching the model beside a ready decision's pages."""
        from _conflict_gate.rag.filter import filter_chunks

        corpus, _ = self.corpus({"docs/guide.md": GUIDE, "docs/plain.md": PLAIN})
        chunks = [{"source": "docs/plain.md"}, {"source": "docs/guide.md"}]
        self.assertTrue(filter_chunks(corpus, "1.0", chunks).withheld)
        result = filter_chunks(corpus, "1.0", chunks, unrelated="set_aside")
        self.assertEqual((result.decision["status"], result.kept), ("ready", (1,)))


class TwoOperationsTest(CorpusTestCase):
    """A context decision whose agreed keys belong to two operations: one check per operation, each
    finding reported once."""

    GRAMMAR: ClassVar[dict[str, Any]] = {
        "namespace": "quill",
        "product": "Quill",
        "operations": {
            "create_copy": {"existing_path": {"type": "enum", "values": ["refuse", "overwrite"]}},
            "move": {"replace": {"type": "enum", "values": ["yes", "no"]}},
        },
    }

    def setUp(self) -> None:
        page = b"# P\n\n@quill create_copy existing_path=refuse\n\n@quill move replace=no\n"
        self.corpus_, _ = self.corpus({"docs/a.md": page, "docs/b.md": page}, grammar=self.GRAMMAR)
        self.decision = gate_context(self.corpus_, ["a", "b"], "1.0")

    def check(self, answer: str) -> Any:
        return conflict_gate.check_answer(self.corpus_, self.decision, answer)

    def test_both_operations_are_judged(self) -> None:
        """Guards against the keys of the second operation going unread (one FormWords per operation)."""
        self.assertEqual(
            [(a["operation"], a["claim_key"]) for a in self.decision["agreed"]],
            [("create_copy", "existing_path"), ("move", "replace")],
        )
        good = (
            "In `version=1.0`: `existing_path=refuse` [source: a:3] [source: b:3] and `replace=no` "
            "[source: a:5] [source: b:5].\n"
        )
        self.assertEqual((self.check(good)["verdict"], self.check(good)["findings"]), ("supported", []))
        bad = self.check(good.replace("`replace=no`", "`replace=yes`"))
        self.assertEqual(bad["verdict"], "contradicts_decision")
        kinds = [(f["kind"], f["start"]) for f in bad["findings"]]
        self.assertEqual(len(kinds), len(set(kinds)), "a finding reported twice")
        quoted = self.check(good + "As written: `@quill move replace=yes` [source: a:5]\n")
        self.assertEqual(quoted["verdict"], "quote_not_found")  # a quote is looked up, as for gate's decisions
        unknown = self.check(good + "See [source: a:1].\n")
        self.assertEqual([f["kind"] for f in unknown["findings"]], ["unknown_citation"])
