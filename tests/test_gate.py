"""Tests for conflict_gate.gate(): statuses, reasons, request errors, result shape, rules.

Temporary corpora are built with tests.support; the fixture corpus (manifest.json
+ docs/) is loaded once per class. Every claim that comes out of a gate here is
checked with assert_span_invariants.
"""

from __future__ import annotations

import itertools
import json
import unittest
from pathlib import Path
from typing import Any, Mapping
from unittest import mock

import conflict_gate
from conflict_gate import (
    DECISIONS,
    DIRECTIVE_REASONS,
    GATE_REASONS,
    DirectiveError,
    GateError,
    parse_directive,
    source_claims,
)
from load_documents import IngestionError, load_documents
from tests.support import (
    FIXTURE_MANIFEST,
    CorpusTestCase,
    assert_span_invariants,
    checked_gate,
    directive,
    fixture_bytes,
)

#: Every gate() call in this module goes through checked_gate, so the span
#: invariant is asserted for every claim any test here produces.
gate = checked_gate

STATUS_OF = {reason: status for status, reasons in DECISIONS.items() for reason in reasons}
ALL_REASONS = frozenset(STATUS_OF)

#: The key order gate()'s docstring documents, per reason.
BASE_KEYS = ("requested_version", "claim_key", "operation", "candidate_ids",
             "eligible_source_ids", "excluded_wrong_version_ids", "status", "reason")
EXTRA_KEYS = {
    "eligible_directives_agree": ("agreed_value",),
    "same_version_directives_disagree": (),
    "no_eligible_version": ("candidate_versions",),
    "requested_claim_missing": ("missing_claim_source_ids",),
}
#: refused_result()'s error fields other than ``reason`` (which the base keys already hold).
ERROR_FIELDS = ("error", "message", "source_id", "path", "line", "column")
TAIL_KEYS = ("claims", "answer_request")


def documented_keys(reason: str) -> list[str]:
    """The key order of a result with ``reason``, as gate()'s docstring lists it."""
    middle = ERROR_FIELDS if STATUS_OF[reason] == "refused" else EXTRA_KEYS[reason]
    return [*BASE_KEYS, *middle, *TAIL_KEYS]


def text(*lines: str | bytes) -> bytes:
    """Join lines with ``\\n`` and end with ``\\n``; str lines are UTF-8 encoded."""
    return b"\n".join(l if isinstance(l, bytes) else l.encode("utf-8") for l in lines) + b"\n"


def decision(result: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a result that are the decision: no echo of candidate order, no URLs."""
    kept = {k: v for k, v in result.items()
            if k not in ("candidate_ids", "claims", "answer_request")}
    kept["claims"] = [(c["source_id"], c["version"], c["value"], c["start_line"], c["start"],
                       c["byte_start"], c["quote"]) for c in result["claims"]]
    kept["has_answer_request"] = result["answer_request"] is not None
    return kept


#: reason -> (files, versions, candidates, requested version, claim key, expected fields).
#: Every reason of DECISIONS must have a case (checked below), so adding a reason
#: without a test fails. Refusal cases put the bad line on line 3 of source "b".
REASON_CASES: dict[str, tuple[dict[str, bytes], dict[str, str], list[str], str, str, dict[str, Any]]] = {
    "eligible_directives_agree": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "prose", directive("refuse"))},
        {}, ["a", "b"], "1.0", "existing_path",
        {"agreed_value": "refuse", "eligible_source_ids": ["a", "b"]}),
    "same_version_directives_disagree": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", directive("overwrite"))},
        {}, ["a", "b"], "1.0", "existing_path", {"eligible_source_ids": ["a", "b"]}),
    "no_eligible_version": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", directive("overwrite"))},
        {"b": "2.0"}, ["a", "b"], "3.0", "existing_path",
        {"candidate_versions": ["1.0", "2.0"], "eligible_source_ids": [],
         "excluded_wrong_version_ids": ["a", "b"]}),
    "requested_claim_missing": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "Existing paths are refused (prose only).")},
        {}, ["a", "b"], "1.0", "existing_path", {"missing_claim_source_ids": ["b"]}),
    "malformed_directive": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "@quill create_copy existing_path = refuse")},
        {}, ["a", "b"], "1.0", "existing_path",
        {"source_id": "b", "line": 3, "column": len("@quill create_copy existing_path") + 1}),
    "unsupported_operation": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "@quill copy_file existing_path=refuse")},
        {}, ["a", "b"], "1.0", "existing_path",
        {"source_id": "b", "line": 3, "column": len("@quill ") + 1}),
    "unsupported_claim_key": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "@quill create_copy mode=refuse")},
        {}, ["a", "b"], "1.0", "existing_path",
        {"source_id": "b", "line": 3, "column": len("@quill create_copy ") + 1}),
    "unknown_directive_value": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", "", "@quill create_copy existing_path=merge")},
        {}, ["a", "b"], "1.0", "existing_path",
        {"source_id": "b", "line": 3, "column": len("@quill create_copy existing_path=") + 1}),
    "duplicate_directive": (
        {"docs/a.md": text("# A", "", directive("refuse")),
         "docs/b.md": text("# B", directive("refuse"), directive("refuse"))},
        {}, ["a", "b"], "1.0", "existing_path", {"source_id": "b", "line": 3, "column": 1}),
}

#: reason -> (candidates, version, claim key) over the fixture corpus; the
#: reasons the fixtures can show (the others need temporary corpora).
FIXTURE_CASES = {
    "eligible_directives_agree": (["quill-guide", "quill-reference"], "1.0", "existing_path"),
    "same_version_directives_disagree": (["quill-guide", "quill-conflicting-guide"], "1.0",
                                         "existing_path"),
    "no_eligible_version": (["quill-guide", "quill-new-version"], "3.0", "existing_path"),
    "requested_claim_missing": (["quill-guide"], "1.0", "close_required"),
    "unknown_directive_value": (["quill-guide", "quill-unknown-value"], "1.0", "existing_path"),
    "malformed_directive": (["quill-guide", "quill-malformed"], "1.0", "existing_path"),
}


def check_claims(testcase: unittest.TestCase, result: Mapping[str, Any],
                 raws: Mapping[str, bytes]) -> None:
    """Every claim of ``result`` satisfies the span invariants against its source's bytes."""
    for claim in result["claims"]:
        with testcase.subTest(claim_of=claim["source_id"]):
            assert_span_invariants(raws[claim["source_id"]], claim)


def raws_of(files: Mapping[str, bytes]) -> dict[str, bytes]:
    return {Path(path).stem: raw for path, raw in files.items()}


class ReasonTableTest(CorpusTestCase):
    """Every status and reason of DECISIONS is produced by at least one request."""

    def run_case(self, reason: str) -> dict[str, Any]:
        files, versions, candidates, version, key, _ = REASON_CASES[reason]
        corpus, _ = self.corpus(files, versions)
        result = gate(corpus, candidates, version, key)
        check_claims(self, result, raws_of(files))
        return result

    def test_table_covers_every_reason(self):
        """Adding a reason to DECISIONS without a test case here must fail."""
        self.assertEqual(set(REASON_CASES), set(ALL_REASONS))
        self.assertEqual(set(DECISIONS["refused"]), set(DIRECTIVE_REASONS))
        self.assertEqual({STATUS_OF[r] for r in REASON_CASES}, set(DECISIONS))

    def test_each_reason_is_produced(self):
        for reason, (*_, expected) in REASON_CASES.items():
            with self.subTest(reason=reason):
                result = self.run_case(reason)
                self.assertEqual(result["status"], STATUS_OF[reason])
                self.assertEqual(result["reason"], reason)
                for key, value in expected.items():
                    self.assertEqual(result[key], value, key)

    def test_refusals_carry_the_error_location(self):
        for reason in DIRECTIVE_REASONS:
            with self.subTest(reason=reason):
                result = self.run_case(reason)
                expected = REASON_CASES[reason][-1]
                self.assertEqual(result["error"], "DirectiveError")
                self.assertEqual(result["path"], "docs/b.md")
                self.assertEqual(result["claims"], [])
                self.assertIsNone(result["answer_request"])
                self.assertEqual(
                    result["message"].split(": ", 1)[0],
                    f"source 'b' (docs/b.md:{expected['line']}:{expected['column']})")

    def test_key_order_matches_docstring(self):
        for reason in REASON_CASES:
            if STATUS_OF[reason] == "refused":
                continue  # see test_refused_key_order_matches_docstring
            with self.subTest(reason=reason):
                self.assertEqual(list(self.run_case(reason)), documented_keys(reason))

    def test_refused_key_set(self):
        """Whatever the order, a refusal carries exactly the documented keys."""
        for reason in DIRECTIVE_REASONS:
            with self.subTest(reason=reason):
                self.assertEqual(sorted(self.run_case(reason)), sorted(documented_keys(reason)))

    def test_refused_key_order_matches_docstring(self):
        """Guards the documented key order of a refused result (status, reason, error fields)."""
        for reason in DIRECTIVE_REASONS:
            with self.subTest(reason=reason):
                self.assertEqual(list(self.run_case(reason)), documented_keys(reason))

    def test_status_specific_fields_only_where_documented(self):
        for reason in REASON_CASES:
            with self.subTest(reason=reason):
                result = self.run_case(reason)
                ready = result["status"] == "ready"
                self.assertEqual("agreed_value" in result, ready)
                self.assertEqual("missing_claim_source_ids" in result,
                                 reason == "requested_claim_missing")
                self.assertEqual("candidate_versions" in result, reason == "no_eligible_version")
                self.assertEqual("error" in result, result["status"] == "refused")
                self.assertEqual(result["answer_request"] is not None, ready)


class FixtureReasonTest(unittest.TestCase):
    """The same statuses and reasons, produced over the pinned fixture corpus."""

    @classmethod
    def setUpClass(cls):
        cls.corpus = load_documents(FIXTURE_MANIFEST)

    def test_fixture_cases_cover_every_status(self):
        self.assertEqual({STATUS_OF[r] for r in FIXTURE_CASES}, set(DECISIONS))
        self.assertLessEqual(set(FIXTURE_CASES), set(ALL_REASONS))

    def test_each_fixture_reason(self):
        for reason, (candidates, version, key) in FIXTURE_CASES.items():
            with self.subTest(reason=reason):
                result = gate(self.corpus, candidates, version, key)
                self.assertEqual((result["status"], result["reason"]), (STATUS_OF[reason], reason))
                if STATUS_OF[reason] != "refused":
                    self.assertEqual(list(result), documented_keys(reason))
                for claim in result["claims"]:
                    assert_span_invariants(fixture_bytes(claim["source_id"]), claim)

    def test_fixture_ready_on_close_required(self):
        """The missing-claim page is the only 1.0 source declaring close_required."""
        result = gate(self.corpus, ["quill-missing-claim"], "1.0", "close_required")
        self.assertEqual((result["status"], result["agreed_value"]), ("ready", "yes"))

    def test_fixture_directive_errors(self):
        raw_malformed = fixture_bytes("quill-malformed").decode("utf-8").split("\n")
        raw_unknown = fixture_bytes("quill-unknown-value").decode("utf-8").split("\n")
        cases = {
            "quill-malformed": ("malformed_directive",
                                raw_malformed.index("@quill create_copy existing_path = refuse") + 1,
                                len("@quill create_copy existing_path") + 1),
            "quill-unknown-value": ("unknown_directive_value",
                                    raw_unknown.index("@quill create_copy existing_path=merge") + 1,
                                    len("@quill create_copy existing_path=") + 1),
        }
        for sid, (reason, line, column) in cases.items():
            with self.subTest(source=sid):
                with self.assertRaises(DirectiveError) as caught:
                    source_claims(self.corpus, sid)
                error = caught.exception
                self.assertEqual((error.reason, error.source_id, error.line, error.column),
                                 (reason, sid, line, column))
                self.assertEqual(error.path, f"docs/{sid}.md")


class ParseDirectiveTest(unittest.TestCase):
    """parse_directive(): exact shape, columns where the line goes wrong."""

    def test_accepts_every_grammar_value(self):
        for operation, keys in conflict_gate.GRAMMAR.items():
            for key, values in keys.items():
                for value in values:
                    line = directive(value, key, operation).decode()
                    self.assertEqual(parse_directive(line), (operation, key, value))

    def test_refusals_with_columns(self):
        prefix = "@quill create_copy existing_path"
        cases = [
            # (line, reason, column)
            (prefix + " = refuse", "malformed_directive", len(prefix) + 1),
            (prefix + ":refuse", "malformed_directive", len(prefix) + 1),
            ("@quill  create_copy existing_path=refuse", "malformed_directive", 8),
            ("@quill\tcreate_copy existing_path=refuse", "malformed_directive", 7),
            (prefix + "=refuse ", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse\r", "malformed_directive", len(prefix + "=refuse") + 1),
            (prefix + "=refuse # note", "malformed_directive", len(prefix + "=refuse") + 1),
            (" " + prefix + "=refuse", "malformed_directive", 1),
            ("\u200b" + prefix + "=refuse", "malformed_directive", 1),
            ("@quil create_copy existing_path=refuse", "malformed_directive", 2),
            ("@QUILL create_copy existing_path=refuse", "malformed_directive", 2),
            ("@quill.task", "malformed_directive", len("@quill") + 1),
            ("@retry(times=3)", "malformed_directive", 2),
            ("@quill create_copy", "malformed_directive", len("@quill create_copy") + 1),
            (prefix + "=", "malformed_directive", len(prefix + "=") + 1),
            (prefix + "=Refuse", "malformed_directive", len(prefix + "=") + 1),
            (prefix + "=\uff52efuse", "malformed_directive", len(prefix + "=") + 1),
            ("@quill create-copy existing_path=refuse", "malformed_directive", len("@quill create") + 1),
            ("@quill copy_file existing_path=refuse", "unsupported_operation", len("@quill ") + 1),
            ("@quill create_copy mode=refuse", "unsupported_claim_key", len("@quill create_copy ") + 1),
            (prefix + "=merge", "unknown_directive_value", len(prefix + "=") + 1),
            ("@quill create_copy close_required=refuse", "unknown_directive_value",
             len("@quill create_copy close_required=") + 1),
        ]
        for line, reason, column in cases:
            with self.subTest(line=line):
                with self.assertRaises(DirectiveError) as caught:
                    parse_directive(line, source_id="s", path="p.md", line=4)
                error = caught.exception
                self.assertEqual((error.reason, error.column), (reason, column))
                self.assertEqual((error.source_id, error.path, error.line, error.quote),
                                 ("s", "p.md", 4, line))
                self.assertTrue(str(error).startswith(f"source 's' (p.md:4:{column}): "), str(error))
        self.assertEqual({reason for _, reason, _ in cases} | {"duplicate_directive"},
                         set(DIRECTIVE_REASONS))


class DirectiveErrorThroughGateTest(CorpusTestCase):
    """Each DirectiveError reason, through load + gate, with exact line and column."""

    def test_exact_line_and_column(self):
        cases = {
            # reason: (lines of source b, line, column)
            "malformed_directive": (["# B", "", "prose", "@quill create_copy existing_path=refuse "],
                                    4, len("@quill create_copy existing_path=refuse") + 1),
            "unsupported_operation": (["# B", "@quill delete existing_path=refuse"], 2, 8),
            "unsupported_claim_key": (["# B", "", "", "", "@quill create_copy mode=refuse"], 5, 20),
            "unknown_directive_value": (["@quill create_copy existing_path=merge"], 1, 34),
            "duplicate_directive": ([directive("refuse"),
                                     "text", directive("overwrite"), "", directive("refuse")], 3, 1),
        }
        self.assertEqual(set(cases), set(DIRECTIVE_REASONS))
        for reason, (lines, line, column) in cases.items():
            with self.subTest(reason=reason):
                files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(*lines)}
                corpus, _ = self.corpus(files)
                result = gate(corpus, ["b", "a"], "1.0", "existing_path")
                self.assertEqual((result["status"], result["reason"], result["error"]),
                                 ("refused", reason, "DirectiveError"))
                self.assertEqual((result["source_id"], result["path"], result["line"],
                                  result["column"]), ("b", "docs/b.md", line, column))

    def test_first_bad_line_in_line_order(self):
        files = {"docs/b.md": text("@quill create_copy existing_path=merge",
                                   "@quill create_copy existing_path = refuse")}
        corpus, _ = self.corpus(files)
        result = gate(corpus, ["b"], "1.0")
        self.assertEqual((result["reason"], result["line"]), ("unknown_directive_value", 1))

    def test_duplicate_names_the_first_line(self):
        files = {"docs/b.md": text("x", directive("refuse"), directive("refuse"))}
        corpus, _ = self.corpus(files)
        with self.assertRaises(DirectiveError) as caught:
            source_claims(corpus, "b")
        self.assertEqual((caught.exception.reason, caught.exception.line), ("duplicate_directive", 3))
        self.assertIn("line 2", caught.exception.detail)

    def test_other_keys_in_one_source_are_not_duplicates(self):
        files = {"docs/b.md": text(directive("refuse"), directive("yes", "close_required"))}
        corpus, _ = self.corpus(files)
        claims = source_claims(corpus, "b")
        self.assertEqual(sorted(claims), [("create_copy", "close_required"),
                                          ("create_copy", "existing_path")])
        for claim in claims.values():
            assert_span_invariants(files["docs/b.md"], claim)


class MalformedHintTest(unittest.TestCase):
    """A malformed directive says what to do, by the kind of mistake."""

    def test_hints(self):
        cases = {
            "  @quill create_copy existing_path=refuse": "may not be indented",
            "@alice reviewed this page": "put other '@' text in backticks or a fence",
            "@quill create_copy existing_path=Refuse": "lowercase names",
        }
        for line, hint in cases.items():
            with self.subTest(line=line), self.assertRaises(DirectiveError) as caught:
                parse_directive(line)
            self.assertEqual(caught.exception.reason, "malformed_directive")
            self.assertIn(hint, str(caught.exception))


class GrammarCheckTest(unittest.TestCase):
    """An edited grammar that no directive line could match is refused at import."""

    def test_bad_grammar_edits(self):
        cases = {
            "a key with a hyphen": ("quill", {"create_copy": {"keep-metadata": ("yes",)}}),
            "an upper-case namespace": ("Acme", {"create_copy": {"existing_path": ("refuse",)}}),
            "a key without values": ("quill", {"create_copy": {"existing_path": ()}}),
        }
        for name, (namespace, grammar) in cases.items():
            with self.subTest(name), mock.patch.object(conflict_gate, "NAMESPACE", namespace), \
                    mock.patch.object(conflict_gate, "GRAMMAR", grammar):
                with self.assertRaises(ValueError):
                    conflict_gate._check_grammar()

    def test_shipped_grammar_passes(self):
        self.assertIsNone(conflict_gate._check_grammar())


class GateErrorTest(CorpusTestCase):
    """Invalid requests raise GateError with the exact reason, before any decision."""

    @classmethod
    def setUpClass(cls):
        cls.fixture = load_documents(FIXTURE_MANIFEST)

    def assertGateError(self, reason, source_id=None, manifest=None, **request):
        args = {"candidate_ids": ["quill-guide"], "requested_version": "1.0",
                "claim_key": "existing_path"} | request
        with self.assertRaises(GateError) as caught:
            gate(self.fixture if manifest is None else manifest, **args)
        self.assertEqual(caught.exception.reason, reason)
        self.assertEqual(caught.exception.source_id, source_id)
        self.assertIn(reason, GATE_REASONS)
        return caught.exception

    def test_invalid_candidate_ids(self):
        for value in ("quill-guide", None, ["quill-guide", ""], ["quill-guide", 1], {"quill-guide"},
                      [None], ("ok", b"bytes")):
            with self.subTest(candidate_ids=value):
                self.assertGateError("invalid_candidate_ids", candidate_ids=value)

    def test_duplicate_candidate(self):
        error = self.assertGateError("duplicate_candidate", "quill-guide",
                                     candidate_ids=["quill-guide", "quill-reference", "quill-guide"])
        self.assertEqual(str(error), "source 'quill-guide': candidate is listed twice")

    def test_invalid_requested_version(self):
        for value in ("1", "v1.0", "1.0.0", "01.0", "1.00", " 1.0", "1.0\n", "\uff11.0", "1.x", "",
                      1.0, None):
            with self.subTest(version=value):
                self.assertGateError("invalid_requested_version", requested_version=value)

    def test_unsupported_requested_claim(self):
        for claim_key, operation in (("mode", "create_copy"), ("existing_path", "delete"),
                                     ("refuse", "create_copy"), ("", "create_copy")):
            with self.subTest(claim_key=claim_key, operation=operation):
                self.assertGateError("unsupported_requested_claim", claim_key=claim_key,
                                     operation=operation)

    def test_unhashable_claim_is_a_gate_error(self):
        """Guards against a bad request escaping as TypeError (a traceback in the CLI's callers)."""
        for claim_key, operation in ((["existing_path"], "create_copy"),
                                     ("existing_path", {"create_copy": 1})):
            with self.subTest(claim_key=claim_key, operation=operation):
                self.assertGateError("unsupported_requested_claim", claim_key=claim_key,
                                     operation=operation)

    def test_unknown_candidate(self):
        self.assertGateError("unknown_candidate", "quill-nope",
                             candidate_ids=["quill-guide", "quill-nope"])

    def test_unknown_candidate_suggests_close_ids(self):
        """Guards against a typo'd id leaving the user to search a large manifest by hand."""
        error = self.assertGateError("unknown_candidate", "quill-giude", candidate_ids=["quill-giude"])
        self.assertEqual(str(error), "source 'quill-giude': not in the manifest "
                                     "(did you mean 'quill-guide'?)")

    def test_invalid_source_version(self):
        for bad in ("1", "latest", "1.0.0", "01.0", "v2.0"):
            with self.subTest(version=bad):
                corpus, _ = self.corpus({"docs/a.md": text(directive("refuse")),
                                         "docs/b.md": text(directive("refuse"))}, {"b": bad})
                self.assertGateError("invalid_source_version", "b", corpus,
                                     candidate_ids=["a", "b"])
                # a non-candidate with a bad version changes nothing
                self.assertEqual(gate(corpus, ["a"], "1.0")["status"], "ready")

    def test_request_checked_before_any_file_is_read(self):
        """A bad request over a missing manifest is a GateError, not an IngestionError."""
        missing = Path(self.fixture.manifest_path).parent / "no-such-dir" / "manifest.json"
        self.assertGateError("invalid_candidate_ids", manifest=str(missing), candidate_ids="x")
        self.assertGateError("invalid_requested_version", manifest=str(missing),
                             requested_version="one")
        with self.assertRaises(IngestionError):
            gate(str(missing), ["x"], "1.0")

    def test_reason_table_is_covered(self):
        covered = {"invalid_candidate_ids", "duplicate_candidate", "invalid_requested_version",
                   "unsupported_requested_claim", "unknown_candidate", "invalid_source_version"}
        self.assertEqual(covered, set(GATE_REASONS))


class ResultShapeTest(CorpusTestCase):
    """Fields of a result: sorting, candidate_versions, answer_request."""

    def test_empty_candidate_list(self):
        corpus, _ = self.corpus({"docs/a.md": text(directive("refuse"))})
        for candidates in ([], ()):
            with self.subTest(candidates=candidates):
                result = gate(corpus, candidates, "1.0")
                self.assertEqual((result["status"], result["reason"]),
                                 ("not_in_docs", "no_eligible_version"))
                self.assertEqual(result["candidate_versions"], [])
                self.assertEqual(result["candidate_ids"], [])
                self.assertEqual((result["eligible_source_ids"], result["excluded_wrong_version_ids"],
                                  result["claims"], result["answer_request"]), ([], [], [], None))
                self.assertEqual(list(result), documented_keys("no_eligible_version"))

    def test_candidate_versions_numeric_and_unique(self):
        """1.9 sorts before 1.10 (numbers, not strings); each version once."""
        files = {f"docs/{sid}.md": text(directive("refuse")) for sid in "abcd"}
        corpus, _ = self.corpus(files, {"a": "1.10", "b": "1.9", "c": "2.0", "d": "1.9"})
        result = gate(corpus, ["a", "b", "c", "d"], "1.1")
        self.assertEqual(result["reason"], "no_eligible_version")
        self.assertEqual(result["candidate_versions"], ["1.9", "1.10", "2.0"])
        self.assertEqual(result["excluded_wrong_version_ids"], ["a", "b", "c", "d"])

    def test_lists_sorted_by_source_id(self):
        files = {"docs/c.md": text("silent"), "docs/a.md": text(directive("refuse")),
                 "docs/d.md": text(directive("refuse")), "docs/b.md": text("silent too"),
                 "docs/e.md": text(directive("overwrite"))}
        corpus, _ = self.corpus(files, {"e": "2.0"})
        result = gate(corpus, ["e", "d", "c", "b", "a"], "1.0")
        self.assertEqual(result["candidate_ids"], ["e", "d", "c", "b", "a"])
        self.assertEqual(result["eligible_source_ids"], ["a", "b", "c", "d"])
        self.assertEqual(result["excluded_wrong_version_ids"], ["e"])
        self.assertEqual(result["missing_claim_source_ids"], ["b", "c"])
        self.assertEqual([c["source_id"] for c in result["claims"]], ["a", "d"])
        check_claims(self, result, raws_of(files))

    def test_tuple_candidates_echoed_as_list(self):
        corpus, _ = self.corpus({"docs/a.md": text(directive("refuse"))})
        self.assertEqual(gate(corpus, ("a",), "1.0")["candidate_ids"], ["a"])

    def test_answer_request_when_ready(self):
        files = {"docs/alpha-src.md": text("# Alpha", directive("refuse")),
                 "docs/beta-src.md": text("# Beta — naïve", "", directive("refuse")),
                 "docs/gamma-src.md": text("\u2028x", directive("refuse")),
                 "docs/delta-new.md": text(directive("overwrite"))}
        corpus, _ = self.corpus(files, {"delta-new": "2.0"},
                                {"alpha-src": "https://docs.quill.example/1.0/gúide"})
        result = gate(corpus, ["gamma-src", "delta-new", "alpha-src", "beta-src"], "1.0")
        self.assertEqual(result["status"], "ready")
        request = result["answer_request"]
        self.assertEqual(list(request), ["messages"])
        self.assertEqual([m["role"] for m in request["messages"]], ["system", "user"])
        system, user = (m["content"] for m in request["messages"])
        for sid in result["eligible_source_ids"]:
            self.assertIn(sid, system)
        self.assertNotIn("delta-new", system)
        self.assertIn("1.0", system)
        payload = json.loads(user)
        self.assertEqual(json.dumps(payload, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False), user)
        self.assertIn("gúide", user)  # UTF-8, not \u escapes
        self.assertEqual(payload["claims"], result["claims"])
        self.assertEqual(payload["question"], {"requested_version": "1.0",
                                               "operation": "create_copy",
                                               "claim_key": "existing_path"})
        check_claims(self, result, raws_of(files))
        for claim in payload["claims"]:
            assert_span_invariants(raws_of(files)[claim["source_id"]], claim)

    def test_answer_request_only_when_ready(self):
        for reason, (files, versions, candidates, version, key, _) in REASON_CASES.items():
            with self.subTest(reason=reason):
                corpus, _ = self.corpus(files, versions)
                result = gate(corpus, candidates, version, key)
                if result["status"] == "ready":
                    self.assertIsInstance(result["answer_request"], dict)
                else:
                    self.assertIsNone(result["answer_request"])

    def test_precedence_refused_conflict_not_in_docs_ready(self):
        files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(directive("overwrite")),
                 "docs/c.md": text("silent"), "docs/d.md": text("@quill create_copy existing_path")}
        corpus, _ = self.corpus(files)
        steps = [(["a", "b", "c", "d"], "refused"), (["a", "b", "c"], "conflict"),
                 (["a", "c"], "not_in_docs"), (["a"], "ready")]
        for candidates, status in steps:
            with self.subTest(candidates=candidates):
                self.assertEqual(gate(corpus, candidates, "1.0")["status"], status)

    def test_conflict_keeps_every_claim(self):
        files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(directive("overwrite")),
                 "docs/c.md": text("x", directive("refuse"))}
        corpus, _ = self.corpus(files)
        result = gate(corpus, ["c", "b", "a"], "1.0")
        self.assertEqual(result["status"], "conflict")
        self.assertEqual([(c["source_id"], c["value"]) for c in result["claims"]],
                         [("a", "refuse"), ("b", "overwrite"), ("c", "refuse")])
        check_claims(self, result, raws_of(files))


class OrderIndependenceTest(CorpusTestCase):
    """All permutations of the candidates give the same result but for the echoed ids."""

    SCENARIOS = {
        "ready": ({"a": "refuse", "b": "refuse", "c": "refuse", "n": "overwrite"}, {"n": "2.0"}),
        "conflict": ({"a": "refuse", "b": "overwrite", "c": None, "n": "refuse"}, {"n": "2.0"}),
        "missing": ({"a": "refuse", "b": None, "c": None, "n": "overwrite"}, {"n": "2.0"}),
        "refused": ({"a": "refuse", "b": "merge", "c": "= refuse", "n": "overwrite"}, {"n": "2.0"}),
        "no_version": ({"a": "refuse", "b": "refuse", "c": "refuse", "n": "overwrite"},
                       {"a": "1.10", "b": "1.9", "c": "2.0", "n": "2.0"}),
    }

    def test_permutations(self):
        for name, (values, versions) in self.SCENARIOS.items():
            files = {}
            for sid, value in values.items():
                line = b"no claim" if value is None else (
                    b"@quill create_copy existing_path " + value.encode() if value.startswith("=")
                    else directive(value))
                files[f"docs/{sid}.md"] = text(f"# {sid}", line)
            corpus, _ = self.corpus(files, versions)
            results = []
            for perm in itertools.permutations(values):
                result = gate(corpus, list(perm), "1.0")
                self.assertEqual(result["candidate_ids"], list(perm))
                results.append({k: v for k, v in result.items() if k != "candidate_ids"})
                check_claims(self, result, raws_of(files))
            with self.subTest(scenario=name):
                self.assertEqual(len(results), 24)
                for other in results[1:]:
                    self.assertEqual(other, results[0])
                if name == "refused":
                    # the first bad source by id, whatever the order
                    self.assertEqual((results[0]["source_id"], results[0]["reason"]),
                                     ("b", "unknown_directive_value"))

    def test_fixture_permutations(self):
        corpus = load_documents(FIXTURE_MANIFEST)
        ids = ["quill-guide", "quill-reference", "quill-conflicting-guide", "quill-new-version"]
        first = None
        for perm in itertools.permutations(ids):
            result = {k: v for k, v in gate(corpus, list(perm), "1.0").items() if k != "candidate_ids"}
            first = first or result
            self.assertEqual(result, first)
        self.assertEqual(first["status"], "conflict")


class ExcludedSourceTest(CorpusTestCase):
    """Only eligible candidates count: wrong versions and non-candidates change nothing."""

    def test_bad_or_conflicting_excluded_sources_change_nothing(self):
        files = {"docs/good.md": text("# Good", directive("refuse")),
                 "docs/new-bad.md": text("@quill create_copy existing_path = overwrite"),
                 "docs/new-conflict.md": text(directive("overwrite")),
                 "docs/new-dup.md": text(directive("overwrite"), directive("overwrite")),
                 "docs/other-conflict.md": text(directive("overwrite")),
                 "docs/other-bad.md": text("@quill create_copy existing_path=merge")}
        versions = {"new-bad": "2.0", "new-conflict": "1.1", "new-dup": "2.0"}
        corpus, _ = self.corpus(files, versions)
        alone = gate(corpus, ["good"], "1.0")
        mixed = gate(corpus, ["new-bad", "good", "new-dup", "new-conflict"], "1.0")
        self.assertEqual((mixed["status"], mixed["agreed_value"]), ("ready", "refuse"))
        self.assertEqual(mixed["excluded_wrong_version_ids"], ["new-bad", "new-conflict", "new-dup"])
        for key in alone:
            if key not in ("candidate_ids", "excluded_wrong_version_ids"):
                self.assertEqual(mixed[key], alone[key], key)
        self.assertEqual(set(corpus.parse_cache), {"good"})
        check_claims(self, mixed, raws_of(files))

    def test_newer_version_never_wins(self):
        files = {"docs/old.md": text(directive("refuse")), "docs/newer.md": text(directive("overwrite")),
                 "docs/minor.md": text(directive("overwrite"))}
        corpus, _ = self.corpus(files, {"newer": "2.0", "minor": "1.1"})
        for version, expected in (("1.0", ("ready", ["old"], "refuse")),
                                  ("1.1", ("ready", ["minor"], "overwrite")),
                                  ("2.0", ("ready", ["newer"], "overwrite"))):
            with self.subTest(version=version):
                result = gate(corpus, ["newer", "minor", "old"], version)
                self.assertEqual((result["status"], result["eligible_source_ids"],
                                  result["agreed_value"]), expected)

    def test_newer_version_with_requested_one_missing(self):
        """Requested 1.0 is silent (or absent) and 2.0 declares the claim: not_in_docs, no fallback."""
        files = {"docs/old.md": text("# Old", directive("refuse")),
                 "docs/newer.md": text(directive("yes", "close_required"))}
        corpus, _ = self.corpus(files, {"newer": "2.0"})
        result = gate(corpus, ["newer", "old"], "1.0", "close_required")
        self.assertEqual((result["status"], result["reason"]), ("not_in_docs", "requested_claim_missing"))
        self.assertEqual((result["missing_claim_source_ids"], result["claims"]), (["old"], []))
        result = gate(corpus, ["newer"], "1.0", "close_required")
        self.assertEqual((result["status"], result["reason"], result["candidate_versions"]),
                         ("not_in_docs", "no_eligible_version", ["2.0"]))
        self.assertNotIn("newer", corpus.parse_cache)

    def test_versions_compared_as_exact_strings(self):
        files = {"docs/a.md": text(directive("refuse"))}
        corpus, _ = self.corpus(files, {"a": "1.10"})
        result = gate(corpus, ["a"], "1.1")
        self.assertEqual(result["reason"], "no_eligible_version")
        self.assertEqual(gate(corpus, ["a"], "1.10")["status"], "ready")


class LazyParsingTest(CorpusTestCase):
    """Only eligible sources are parsed, each at most once."""

    def test_excluded_sources_not_parsed_on_fixture(self):
        import run
        for case_id, candidates, version, key, _ in run.LAB_CASES:
            with self.subTest(case=case_id):
                corpus = load_documents(FIXTURE_MANIFEST)
                result = gate(corpus, list(candidates), version, key)
                self.assertEqual(set(corpus.parse_cache), set(result["eligible_source_ids"]))
                for sid in result["excluded_wrong_version_ids"]:
                    self.assertNotIn(sid, corpus.parse_cache)

    def test_each_source_parsed_once(self):
        files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(directive("refuse")),
                 "docs/bad.md": text("@quill create_copy existing_path=merge")}
        corpus, _ = self.corpus(files)
        calls = []
        real = conflict_gate._parse_source

        def counting(source):
            calls.append(source.source_id)
            return real(source)

        with mock.patch.object(conflict_gate, "_parse_source", counting):
            first = gate(corpus, ["a", "b"], "1.0")
            cached_a = corpus.parse_cache["a"]
            second = gate(corpus, ["b", "a"], "1.0")
            gate(corpus, ["a"], "1.0", "close_required")
            refused1 = gate(corpus, ["bad", "a"], "1.0")
            refused2 = gate(corpus, ["bad"], "1.0")
        self.assertEqual(sorted(calls), ["a", "b", "bad"])
        self.assertIs(corpus.parse_cache["a"], cached_a)
        self.assertEqual({k: v for k, v in first.items() if k != "candidate_ids"},
                         {k: v for k, v in second.items() if k != "candidate_ids"})
        self.assertEqual(refused1["reason"], "unknown_directive_value")
        self.assertEqual(refused1["message"], refused2["message"])

    def test_editing_a_result_does_not_change_later_decisions(self):
        """Guards against result claims aliasing corpus.parse_cache (the cache must never change
        what a source says)."""
        files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(directive("refuse"))}
        corpus, _ = self.corpus(files)
        first = gate(corpus, ["a", "b"], "1.0")
        first["claims"][0]["value"] = "overwrite"
        again = gate(corpus, ["a", "b"], "1.0")
        self.assertEqual((again["status"], again.get("agreed_value")), ("ready", "refuse"))


class ManifestInputTest(CorpusTestCase):
    """gate() over a manifest path is gate() over the loaded corpus."""

    def test_path_equals_corpus_on_fixture(self):
        import run
        corpus = load_documents(FIXTURE_MANIFEST)
        for case_id, candidates, version, key, _ in run.LAB_CASES:
            with self.subTest(case=case_id):
                expected = gate(corpus, list(candidates), version, key)
                self.assertEqual(gate(str(FIXTURE_MANIFEST), list(candidates), version, key), expected)
                self.assertEqual(gate(FIXTURE_MANIFEST, list(candidates), version, key), expected)

    def test_path_verifies_every_source(self):
        """A changed non-candidate refuses a path-based gate: every source is verified first."""
        files = {"docs/a.md": text(directive("refuse")), "docs/other.md": text("x")}
        _, manifest = self.corpus(files)
        (manifest.parent / "docs/other.md").write_bytes(b"y\n")
        with self.assertRaises(IngestionError) as caught:
            gate(str(manifest), ["a"], "1.0")
        self.assertEqual((caught.exception.reason, caught.exception.source_id),
                         ("hash_mismatch", "other"))

    def test_urls_never_change_the_decision(self):
        files = {"docs/a.md": text(directive("refuse")), "docs/b.md": text(directive("overwrite")),
                 "docs/c.md": text(directive("refuse")), "docs/n.md": text(directive("overwrite"))}
        versions = {"n": "2.0"}
        plain, _ = self.corpus(files, versions)
        misleading, _ = self.corpus(files, versions, {
            "a": "https://docs.quill.example/latest/a", "b": "https://docs.quill.example/2.0/stable",
            "c": "https://docs.quill.example/0.1/old", "n": "https://docs.quill.example/1.0/n"})
        for candidates in (["a", "c", "n"], ["a", "b", "n"], ["b", "n"], ["n"]):
            for version in ("1.0", "2.0"):
                with self.subTest(candidates=candidates, version=version):
                    one = gate(plain, candidates, version)
                    two = gate(misleading, list(reversed(candidates)), version)
                    self.assertEqual(decision(one), decision(two))


if __name__ == "__main__":
    unittest.main()
