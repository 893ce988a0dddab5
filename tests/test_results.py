"""Result shapes: each TypedDict against its field table, the builders against both, and the registry's cross-links.

Standard library only. The JSON Schemas derived from these shapes are tested in
:mod:`tests.test_schema`.
"""

from __future__ import annotations

import typing
import unittest
from typing import Any, ClassVar, get_type_hints

from _conflict_gate.base.registry import (
    DECISIONS,
    DEFAULT_STATUS,
    ELIGIBLE_STATUS,
    FINDINGS,
    PAGE_STATUSES,
    VERDICT_CLASSES,
    VERDICTS,
)
from _conflict_gate.results import audit as results_audit
from _conflict_gate.results import context as results_context
from _conflict_gate.results import lab as results_lab
from _conflict_gate.results import service as results_service
from _conflict_gate.results import shapes as results
from _conflict_gate.results.schema import ALL_SHAPES as SHAPES
from _conflict_gate.results.shapes import (
    REASON_FIELD_MEANINGS,
    REASON_FIELDS,
    REFUSED_FIELDS,
    RESULT_FIELDS,
    SET_ASIDE_FIELDS,
    TAIL_FIELDS,
    ClaimRecord,
    Decision,
    build,
    decision_fields,
)
from tests.support import FIXTURE_MANIFEST


def typeddicts() -> list[type]:
    """Every TypedDict the results module defines (public ones)."""
    return [
        value
        for module in (results, results_audit, results_lab, results_service, results_context)
        for name, value in vars(module).items()
        if not name.startswith("_") and typing.is_typeddict(value) and value.__module__ == module.__name__
    ]


class ShapeTableTest(unittest.TestCase):
    def test_every_shape_has_a_table_naming_exactly_its_keys(self) -> None:
        """Guards against a field typed but undocumented, or documented but never typed."""
        shapes = typeddicts()
        self.assertGreater(len(shapes), 15)
        summaries = {
            results_lab.EnumRuleSummary,
            results_lab.IntegerRuleSummary,
            results_lab.GrammarSummary,
            results.ChatMessage,
            results.AnswerRequest,
        }  # described by their docstrings
        self.assertEqual(set(SHAPES) | summaries, set(shapes))
        for shape, table in SHAPES.items():
            with self.subTest(shape.__name__):
                self.assertEqual(set(get_type_hints(shape)), set(table))
                self.assertTrue(all(isinstance(meaning, str) and meaning for meaning in table.values()))

    def test_decision_required_and_optional_keys_follow_the_tables(self) -> None:
        self.assertEqual(Decision.__required_keys__, {*RESULT_FIELDS, *TAIL_FIELDS})
        self.assertEqual(Decision.__optional_keys__, {*REASON_FIELD_MEANINGS, *REFUSED_FIELDS, *SET_ASIDE_FIELDS})
        named = {field for fields in REASON_FIELDS.values() for field in fields}
        self.assertEqual(named, set(REASON_FIELD_MEANINGS))

    def test_every_decision_reason_has_its_fields(self) -> None:
        not_refused = {reason for status, reasons in DECISIONS.items() if status != "refused" for reason in reasons}
        self.assertEqual(set(REASON_FIELDS), not_refused)
        for reason in DECISIONS["refused"]:
            self.assertEqual(decision_fields(reason), (*RESULT_FIELDS, *REFUSED_FIELDS, *TAIL_FIELDS))
        self.assertEqual(decision_fields("eligible_directives_agree"), (*RESULT_FIELDS, "agreed_value", *TAIL_FIELDS))
        for reason in (*DECISIONS["refused"], "eligible_directives_agree", "no_related_source"):
            self.assertEqual(
                decision_fields(reason, unrelated="set_aside"), (*decision_fields(reason), *SET_ASIDE_FIELDS), reason
            )
        with self.assertRaises(KeyError):
            decision_fields("not_a_reason")


class BuildTest(unittest.TestCase):
    def test_keys_follow_the_table_whatever_order_they_are_given_in(self) -> None:
        values = {name: index for index, name in enumerate(reversed(list(results.CLAIM_FIELDS)))}
        record = build(ClaimRecord, results.CLAIM_FIELDS, values)
        self.assertEqual(list(record), list(results.CLAIM_FIELDS))
        self.assertEqual(dict(record), values)

    def test_a_key_outside_the_table_is_refused(self) -> None:
        """Guards against a builder adding a field no table, schema or reference page names."""
        with self.assertRaisesRegex(KeyError, "extra"):
            build(ClaimRecord, results.CLAIM_FIELDS, {"source_id": "a", "extra": 1})

    def test_optional_keys_missing_from_the_values_are_left_out(self) -> None:
        finding = build(
            results.Finding,
            results.FINDING_FIELDS,
            {"line": 3, "kind": "missing_citation", "source_id": "a", "detail": "d", "start": None, "end": None},
        )
        self.assertEqual(list(finding), ["kind", "detail", "start", "end", "source_id", "line"])


class RegistryLinksTest(unittest.TestCase):
    def test_every_finding_calls_for_a_registered_verdict(self) -> None:
        """The link FINDINGS -> VERDICTS is data now; a typo in it must fail here, not at import."""
        for kind, (verdict, meaning) in FINDINGS.items():
            with self.subTest(kind):
                self.assertIn(verdict, VERDICTS)
                self.assertNotIn(verdict, ("supported", "no_answer_allowed"))
                self.assertTrue(meaning)

    def test_verdict_classes_are_the_classes_in_precedence_order(self) -> None:
        self.assertEqual(VERDICT_CLASSES, ("withheld", "malformed", "unsupported", "supported"))

    def test_the_eligible_status_is_a_page_status_and_the_default(self) -> None:
        self.assertIn(ELIGIBLE_STATUS, PAGE_STATUSES)
        self.assertEqual(DEFAULT_STATUS, ELIGIBLE_STATUS)
        self.assertEqual(next(iter(PAGE_STATUSES)), ELIGIBLE_STATUS)


class ProducedResultsTest(unittest.TestCase):
    """Every result the lab produces has its table's keys in order (the saved file is built so)."""

    lab: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        import run

        cls.lab = run.run_lab(FIXTURE_MANIFEST)

    def test_lab_result_and_its_parts(self) -> None:
        lab = self.lab
        self.assertEqual(list(lab), list(results_lab.LAB_RESULT_FIELDS))
        for case in lab["cases"]:
            self.assertEqual(list(case), list(results_lab.LAB_CASE_FIELDS))
            self.assertEqual(list(case["result"]), list(decision_fields(case["result"]["reason"])))
            for claim in case["result"]["claims"]:
                self.assertEqual(list(claim), list(results.CLAIM_FIELDS))
        changed = lab["changed_source"]
        self.assertEqual(list(changed), list(results_lab.CHANGED_SOURCE_FIELDS))
        self.assertEqual(list(changed["result"]), list(results_lab.INGESTION_REFUSAL_FIELDS))
        for answer in lab["answers"]:
            self.assertEqual(list(answer), list(results_lab.LAB_ANSWER_FIELDS))
            self.assertEqual(list(answer["decision"]), list(results.DECISION_ECHO_FIELDS))
            for finding in answer["findings"]:
                order = [name for name in results.FINDING_FIELDS if name in finding]
                self.assertEqual(list(finding), order)
                self.assertTrue({"kind", "detail", "start", "end"} <= set(finding))


if __name__ == "__main__":
    unittest.main()
