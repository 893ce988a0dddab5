"""The shape of the lab's saved result (``run.py``) and of the grammar summary, defined once (no I/O).

TypedDicts and their field tables, as :mod:`~_conflict_gate.results.shapes` holds them for decisions and
answer checks (see its docstring for how they are used).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Final, Literal, TypedDict

from ..base.registry import INGESTION_REASONS, RENDERERS
from .shapes import (
    ANSWER_CHECK_FIELDS,
    REFUSED_FIELDS,
    RESULT_FIELDS,
    TAIL_FIELDS,
    AnswerCheck,
    ClaimRecord,
    Decision,
    OneOf,
    RefusedSourceRecord,
)

__all__ = [
    "CHANGED_SOURCE_FIELDS",
    "GRAMMAR_REPORT_FIELDS",
    "INGESTION_REFUSAL_FIELDS",
    "LAB_ANSWER_FIELDS",
    "LAB_CASE_FIELDS",
    "LAB_RESULT_FIELDS",
    "SHAPES",
    "ChangedSourceCase",
    "EnumRuleSummary",
    "GrammarReport",
    "GrammarSummary",
    "IngestionRefusal",
    "IntegerRuleSummary",
    "LabAnswer",
    "LabCase",
    "LabResult",
    "ValueRuleSummary",
]

_ro = MappingProxyType


class EnumRuleSummary(TypedDict):
    """An enumerated value rule, as the manifest writes it."""

    type: Literal["enum"]
    values: list[str]


class _IntegerRuleType(TypedDict):
    type: Literal["integer"]


class IntegerRuleSummary(_IntegerRuleType, total=False):
    """An integer value rule, as the manifest writes it (bounds only where given)."""

    min: int
    max: int


ValueRuleSummary = EnumRuleSummary | IntegerRuleSummary


class GrammarSummary(TypedDict):
    """The grammar as ``conflict-gate grammar --format json`` prints it."""

    namespace: str
    product: str
    directive: str
    operations: dict[str, dict[str, ValueRuleSummary]]


class GrammarReport(GrammarSummary):
    """What ``conflict-gate grammar --format json`` prints: the grammar, and the renderer its pages are read by."""

    renderer: Annotated[str, OneOf.of(RENDERERS)]


GRAMMAR_REPORT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "namespace": "the namespace every directive starts with (after `@`)",
        "product": "the documented product's name",
        "directive": "the directive form, `@<namespace> <operation> <key>=<value>`",
        "operations": "operation -> key -> value rule, as the manifest writes them",
        "renderer": "the manifest's renderer (`portable` when it names none)",
    }
)


class LabCase(TypedDict):
    """One lab case and the gate's decision."""

    case_id: str
    shows: str
    candidate_ids: list[str]
    requested_version: str
    claim_key: str
    result: Decision


LAB_CASE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "case_id": "the case",
        "shows": "what it shows",
        "candidate_ids": "the candidates asked about",
        "requested_version": "the version asked about",
        "claim_key": "the key asked about",
        "result": "the gate's decision",
    }
)


class IngestionRefusal(TypedDict):
    """A refusal before anything was decided: loading the corpus failed (the lab's changed-source case).

    It has a ``refused`` decision's fields (:func:`decision_fields` of any
    refused reason), but the eligibility fields are ``None`` (no corpus was
    loaded to say who is eligible), ``error`` is ``IngestionError`` and
    ``reason`` an ingestion reason.
    """

    requested_version: str
    claim_key: str
    operation: str
    candidate_ids: list[str]
    eligible_source_ids: None
    excluded_wrong_version_ids: None
    excluded_unapproved_ids: None
    candidates: None
    status: Literal["refused"]
    reason: Annotated[str, OneOf.of(INGESTION_REASONS)]
    error: Literal["IngestionError"]
    message: str
    source_id: str | None
    path: str | None
    line: int | None
    column: int | None
    refused_sources: list[RefusedSourceRecord]
    parsed_source_ids: None
    claims: list[ClaimRecord]
    answer_request: None


#: The fields of an :class:`IngestionRefusal`, in order: a refused decision's.
INGESTION_REFUSAL_FIELDS: Final[Mapping[str, str]] = _ro({**RESULT_FIELDS, **REFUSED_FIELDS, **TAIL_FIELDS})


class ChangedSourceCase(TypedDict):
    """The lab's changed-source case: a fixture edited without re-pinning, and the refusal that follows."""

    case_id: str
    source_id: str
    edit: str
    candidate_ids: list[str]
    requested_version: str
    operation: str
    claim_key: str
    result: IngestionRefusal


CHANGED_SOURCE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "case_id": "`changed-source`",
        "source_id": "the fixture edited in a temporary copy",
        "edit": "what was edited",
        "candidate_ids": "the candidates asked about",
        "requested_version": "the version asked about",
        "operation": "the operation asked about",
        "claim_key": "the key asked about",
        "result": "the refusal: a decision's fields, loading failed (`IngestionError`, `hash_mismatch`)",
    }
)


class _LabAnswerHead(TypedDict):
    answer_id: str
    case_id: str
    path: str
    shows: str


class LabAnswer(_LabAnswerHead, AnswerCheck):
    """One canned answer and the answer check's report on it."""


LAB_ANSWER_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "answer_id": "the canned answer",
        "case_id": "the case whose decision it answers",
        "path": "the answer file",
        "shows": "what it shows",
        **ANSWER_CHECK_FIELDS,
    }
)


class LabResult(TypedDict):
    """The lab's saved result: ``python run.py --output result.json``."""

    execution_mode: str
    model_called: Literal[False]
    fixture_kind: str
    grammar: GrammarSummary
    version_scheme: str
    cases: list[LabCase]
    changed_source: ChangedSourceCase
    answers: list[LabAnswer]
    policy: list[str]
    limit: str
    renderer: Annotated[str, OneOf.of(RENDERERS)]


LAB_RESULT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "execution_mode": "how it ran: offline, pinned local fixtures, requests built but never sent",
        "model_called": "always `false`",
        "fixture_kind": "what the fixtures are",
        "grammar": "the lab's grammar as `conflict-gate grammar --format json` prints it, but for its `renderer`",
        "version_scheme": "the manifest's version scheme",
        "cases": "one object per case: `case_id`, `shows`, `candidate_ids`, `requested_version`, "
        "`claim_key`, and the gate's `result`",
        "changed_source": "a temporary copy of a fixture edited without re-pinning: `case_id`, `source_id`, "
        "`edit`, `candidate_ids`, `requested_version`, `operation`, `claim_key` and `result`",
        "answers": "one object per canned answer: `answer_id`, `case_id`, `path`, `shows`, and the answer "
        "check's `verdict`, `verdict_class`, `findings` and `decision`",
        "policy": "the rules the gate applies, in words",
        "limit": "what the gate does not do",
        "renderer": "the lab manifest's renderer, by which the fixtures are read",
    }
)

# --------------------------------------------------------------------------


#: TypedDict -> its field table (meanings and order), for the shapes defined here.
SHAPES: Final[Mapping[type, Mapping[str, str]]] = _ro(
    {
        GrammarReport: GRAMMAR_REPORT_FIELDS,
        LabCase: LAB_CASE_FIELDS,
        IngestionRefusal: INGESTION_REFUSAL_FIELDS,
        ChangedSourceCase: CHANGED_SOURCE_FIELDS,
        LabAnswer: LAB_ANSWER_FIELDS,
        LabResult: LAB_RESULT_FIELDS,
    }
)
