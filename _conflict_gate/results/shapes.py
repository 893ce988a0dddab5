"""The shape of every result, defined once (no I/O).

Each result is a plain ``dict`` (JSON as it is printed and saved), typed for a
type checker by a :class:`~typing.TypedDict` here, and built by :func:`build`
from a *field table*: an ordered ``name -> meaning`` mapping that fixes the
keys and their order. Three things derive from these two:

* the builders in :mod:`~_conflict_gate.decide.decision` and :mod:`~_conflict_gate.answer.check`
  (and the lab in ``run.py``) fill the tables, in their order;
* :mod:`~_conflict_gate.results.schema` renders a JSON Schema (draft 2020-12) from
  the TypedDicts' annotations, the tables' meanings and the registry's
  vocabularies (``Annotated[str, OneOf(...)]``);
* :mod:`~reference._tools` renders the reference pages' field tables.

A TypedDict and its table name the same keys; ``tests/test_results.py``
checks every pair, so neither can gain a field the other lacks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal, TypedDict, TypeVar, cast

from ..base.registry import (
    DECISIONS,
    DEFAULT_UNRELATED,
    DIRECTIVE_REASONS,
    FINDINGS,
    PAGE_STATUSES,
    VERDICT_CLASSES,
    VERDICTS,
)

__all__ = [
    "ANSWER_CHECK_FIELDS",
    "CANDIDATE_FIELDS",
    "CLAIM_FIELDS",
    "DECISION_ECHO_FIELDS",
    "FINDING_FIELDS",
    "REASON_FIELDS",
    "REASON_FIELD_MEANINGS",
    "REFUSED_FIELDS",
    "REFUSED_SOURCE_FIELDS",
    "RESULT_FIELDS",
    "SET_ASIDE_FIELDS",
    "SHAPES",
    "TAIL_FIELDS",
    "AnswerCheck",
    "AnswerRequest",
    "CandidateRecord",
    "ChatMessage",
    "ClaimRecord",
    "Decision",
    "DecisionEcho",
    "DecisionReason",
    "DecisionStatus",
    "DirectiveReason",
    "Finding",
    "OneOf",
    "PageStatus",
    "Pattern",
    "RefusalError",
    "RefusedReason",
    "RefusedSourceRecord",
    "Sha256",
    "Size",
    "build",
    "decision_fields",
]

_ro = MappingProxyType


@dataclass(frozen=True)
class OneOf:
    """``Annotated`` metadata: the string is one of ``values`` (a registry table's keys)."""

    values: tuple[str, ...]

    @classmethod
    def of(cls, table: Mapping[str, Any]) -> OneOf:
        return cls(tuple(table))


@dataclass(frozen=True)
class Pattern:
    """``Annotated`` metadata: the string matches ``regex`` (JSON Schema ``pattern``, anchored)."""

    regex: str


@dataclass(frozen=True)
class Size:
    """``Annotated`` metadata: the list holds ``minimum`` to ``maximum`` items (JSON Schema ``minItems``,
    ``maxItems``)."""

    minimum: int
    maximum: int


_DECISION_REASONS: Final = tuple(reason for reasons in DECISIONS.values() for reason in reasons)
Sha256 = Annotated[str, Pattern("^[0-9a-f]{64}$")]
DecisionStatus = Annotated[str, OneOf.of(DECISIONS)]
DecisionReason = Annotated[str, OneOf(_DECISION_REASONS)]
PageStatus = Annotated[str, OneOf.of(PAGE_STATUSES)]
DirectiveReason = Annotated[str, OneOf.of(DIRECTIVE_REASONS)]
#: A refused decision's reason: a directive reason, or the ingestion reason of a failed source.
RefusedReason = Annotated[str, OneOf.of(DECISIONS["refused"])]
#: The class of a refusal: a directive the gate cannot use, or a source that failed verification.
RefusalError = Literal["DirectiveError", "IngestionError"]

# --------------------------------------------------------------------------
# A decision (``gate``)


class CandidateRecord(TypedDict):
    """One candidate as the decision saw it."""

    source_id: str
    version: str
    status: PageStatus


CANDIDATE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the candidate's source id",
        "version": "its version",
        "status": "its page status",
    }
)


class ClaimRecord(TypedDict):
    """One counted directive: who declares what, and exactly where."""

    source_id: str
    version: str
    path: str
    url: str | None
    source_sha256: Sha256
    document_revision: Sha256
    operation: str
    claim_key: str
    value: str
    start_line: int
    end_line: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    quote: str


CLAIM_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the source that declares it",
        "version": "the source's version",
        "path": "the file, relative to the manifest's folder",
        "url": "the source's URL, or `null`",
        "source_sha256": "the verified SHA-256 of the file's raw bytes (the pin)",
        "document_revision": "SHA-256 of the source's manifest entry as written, in canonical JSON "
        "(sorted keys, no spaces, UTF-8): editing the entry makes a new revision",
        "operation": "the directive's operation",
        "claim_key": "the directive's key",
        "value": "the directive's value token, a string (also for integer rules)",
        "start_line": "1-based line of the directive",
        "end_line": "the same line: a directive is one line",
        "start": "offset of the line's first character, in code points into the decoded text (BOM excluded)",
        "end": "offset after its value (code points, end exclusive; the spaces and tabs after it and the line ending "
        "excluded)",
        "byte_start": "offset of the line in bytes into the pinned raw file (BOM included)",
        "byte_end": "offset after its value in bytes (end exclusive; the spaces and tabs after it and the line ending "
        "excluded)",
        "quote": "the source line without the spaces and tabs after the value, exactly: `text[start:end]` and "
        "`raw[byte_start:byte_end]`",
    }
)


class RefusedSourceRecord(TypedDict):
    """One refused eligible source of a ``refused`` decision."""

    source_id: str
    reason: RefusedReason
    line: int | None
    column: int | None
    message: str


REFUSED_SOURCE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the refused source",
        "reason": "why it is refused",
        "line": "1-based line of the problem, or `null`",
        "column": "1-based column of the problem in code points, or `null`",
        "message": "the refusal as one line: source, path, line:column, what is wrong",
    }
)


class ChatMessage(TypedDict):
    """One chat message of an answer request."""

    role: Literal["system", "user"]
    content: str


class AnswerRequest(TypedDict):
    """Chat messages for a model (prepared, never sent): a system message, a user message holding the
    question's request and the claims as canonical JSON, then, when the user's question was given, a
    second user message holding it as written."""

    messages: Annotated[list[ChatMessage], Size(2, 3)]


class _DecisionAlways(TypedDict):
    requested_version: str
    claim_key: str
    operation: str
    candidate_ids: list[str]
    eligible_source_ids: list[str]
    excluded_wrong_version_ids: list[str]
    excluded_unapproved_ids: list[str]
    candidates: list[CandidateRecord]
    status: DecisionStatus
    reason: DecisionReason
    claims: list[ClaimRecord]
    answer_request: AnswerRequest | None


class Decision(_DecisionAlways, total=False):
    """What ``gate`` returns: the request echoed, who is eligible, the status and reason, the
    reason's own fields, the claims and (only when ``ready``) the answer request."""

    agreed_value: str
    missing_claim_source_ids: list[str]
    candidate_versions: list[str]
    error: RefusalError
    message: str
    source_id: str | None
    path: str | None
    line: int | None
    column: int | None
    refused_sources: list[RefusedSourceRecord]
    parsed_source_ids: list[str] | None
    set_aside_unrelated_ids: list[str]


#: The fields every decision starts with, in order.
RESULT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "requested_version": "the version asked for, as given",
        "claim_key": "the key asked for",
        "operation": "the operation asked for",
        "candidate_ids": "the candidate ids as given, in the order given",
        "eligible_source_ids": "approved candidates whose version equals `requested_version` exactly",
        "excluded_wrong_version_ids": "candidates of another version, set aside",
        "excluded_unapproved_ids": "candidates of the requested version that are `draft` or `deprecated`, set aside",
        "candidates": "every candidate as `{source_id, version, status}`",
        "status": "`ready`, `conflict`, `not_in_docs` or `refused`",
        "reason": "why; one of the status's reasons",
    }
)
#: The fields a decision adds for its reason (not ``refused``), after :data:`RESULT_FIELDS`.
REASON_FIELDS: Final[Mapping[str, tuple[str, ...]]] = _ro(
    {
        "eligible_directives_agree": ("agreed_value",),
        "requested_claim_missing": ("missing_claim_source_ids",),
        "no_eligible_version": ("candidate_versions",),
        "no_approved_source": (),
        "same_version_directives_disagree": (),
        "no_related_source": (),
    }
)
REASON_FIELD_MEANINGS: Final[Mapping[str, str]] = _ro(
    {
        "agreed_value": "the value every eligible source declares: the directive's token, a string",
        "missing_claim_source_ids": "the eligible sources that do not declare the claim",
        "candidate_versions": "the distinct versions the candidates have, in the scheme's order",
    }
)
#: The fields a ``refused`` decision adds, for every reason of that status.
REFUSED_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "error": "the class of the first refused source's error: `DirectiveError` (it says something the gate "
        "cannot use) or `IngestionError` (it failed verification, in a non-strict load)",
        "message": "the first refused source's message: source, path, line:column, what is wrong",
        "source_id": "the first refused source",
        "path": "its path, relative to the manifest's folder",
        "line": "1-based line of the problem (`null` for a failed verification)",
        "column": "1-based column of the problem, in code points (`null` for a failed verification)",
        "refused_sources": "every refused eligible source: `{source_id, reason, line, column, message}`",
        "parsed_source_ids": "the eligible sources that read cleanly",
    }
)
#: The fields every decision ends with.
TAIL_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "claims": "the claims found, one object each (fields below); `[]` when refused",
        "answer_request": "`{messages: [system, user]}` (`[system, user, user]` with the user's question) when "
        "`ready`, else `null`",
    }
)
#: The fields a decision made with ``unrelated="set_aside"`` adds after :data:`TAIL_FIELDS`, whatever
#: its reason (a decision made with the default has none: it is what it was before the option).
SET_ASIDE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "set_aside_unrelated_ids": "eligible sources that read cleanly and are about other operations (they "
        "declare no key of the requested one), set aside: they take no part in "
        "the decision",
    }
)


def _decision_orders() -> Mapping[tuple[str, bool], tuple[str, ...]]:
    """(reason, set aside?) -> the fields of such a decision, in order, for every decision reason."""
    orders = {}
    for status, reasons in DECISIONS.items():
        for reason in reasons:
            own = tuple(REFUSED_FIELDS) if status == "refused" else REASON_FIELDS[reason]
            orders[reason, False] = (*RESULT_FIELDS, *own, *TAIL_FIELDS)
            orders[reason, True] = (*RESULT_FIELDS, *own, *TAIL_FIELDS, *SET_ASIDE_FIELDS)
    return _ro(orders)


_DECISION_ORDERS: Final = _decision_orders()


def decision_fields(reason: str, *, unrelated: str = DEFAULT_UNRELATED) -> tuple[str, ...]:
    """Every field of a decision with ``reason`` (a decision reason), in order; ``unrelated`` is the
    option the decision was made with (a key of :data:`~_conflict_gate.base.registry.UNRELATED_OPTIONS`).
    The same tuple for the same reason and option on every call; ``KeyError`` for another reason."""
    return _DECISION_ORDERS[reason, unrelated != DEFAULT_UNRELATED]


# --------------------------------------------------------------------------
# The answer check (``check_answer``)


class _FindingAlways(TypedDict):
    kind: Annotated[str, OneOf.of(FINDINGS)]
    detail: str
    start: int | None
    end: int | None


class Finding(_FindingAlways, total=False):
    """One thing the answer check found, located in the answer where it has a place."""

    quote: str
    source_id: str
    line: int


FINDING_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "kind": "what was found (each kind calls for one verdict)",
        "detail": "what is wrong, in words",
        "start": "offset in code points into the answer as given, the form's backticks or brackets "
        "included; `null` for something the answer lacks or the whole answer",
        "end": "offset after it (code points, end exclusive), or `null`",
        "quote": "the form's content, without its backticks (where the finding is about a form)",
        "source_id": "the cited or missing source (where the finding is about a citation)",
        "line": "the cited or missing claim line (where the finding is about a citation)",
    }
)


class DecisionEcho(TypedDict):
    """The decision an answer was checked against, in brief."""

    requested_version: str
    operation: str | None
    claim_key: str | None
    status: DecisionStatus
    reason: DecisionReason


DECISION_ECHO_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "requested_version": "the decision's requested version",
        "operation": "its operation (`null` for a context decision, `gate_context`'s, which has none)",
        "claim_key": "its claim key (`null` for a context decision)",
        "status": "its status",
        "reason": "its reason",
    }
)


class AnswerCheck(TypedDict):
    """What ``check_answer`` returns."""

    verdict: Annotated[str, OneOf.of(VERDICTS)]
    verdict_class: Annotated[str, OneOf(VERDICT_CLASSES)]
    findings: list[Finding]
    decision: DecisionEcho


ANSWER_CHECK_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "verdict": "the first verdict, in precedence order, that a finding calls for",
        "verdict_class": "the verdict's class, which picks the exit code",
        "findings": "every finding, in the order found",
        "decision": "the decision checked against: request, status and reason",
    }
)


#: TypedDict -> its field table (meanings and order), for the shapes defined here (the audit's and
#: the lab's are in results_audit and results_lab; schema.ALL_SHAPES holds them all). The decision's
#: table is the union of :data:`RESULT_FIELDS`, the reason fields, :data:`REFUSED_FIELDS`,
#: :data:`TAIL_FIELDS` and :data:`SET_ASIDE_FIELDS`.
SHAPES: Final[Mapping[type, Mapping[str, str]]] = _ro(
    {
        CandidateRecord: CANDIDATE_FIELDS,
        ClaimRecord: CLAIM_FIELDS,
        RefusedSourceRecord: REFUSED_SOURCE_FIELDS,
        Decision: _ro({**RESULT_FIELDS, **REASON_FIELD_MEANINGS, **REFUSED_FIELDS, **TAIL_FIELDS, **SET_ASIDE_FIELDS}),
        Finding: FINDING_FIELDS,
        DecisionEcho: DECISION_ECHO_FIELDS,
        AnswerCheck: ANSWER_CHECK_FIELDS,
    }
)

_Shape = TypeVar("_Shape")


def build(shape: type[_Shape], fields: Sequence[str] | Mapping[str, str], values: Mapping[str, Any]) -> _Shape:
    """A result of ``shape``: the keys of ``fields``, in that order, each taken from ``values``.

    Keys of ``fields`` missing from ``values`` are left out (optional fields
    are given only where they apply); a key of ``values`` outside ``fields``
    raises ``KeyError``, so a builder cannot add an undocumented field.
    Types are checked by mypy at the TypedDict and by the JSON Schema at run
    time, not here. ``values`` itself when it is a dict of every field in
    order (the builders pass a new literal: a report of 28,000 records makes
    no copies), else a new dict.
    """
    known = _ORDERS.get(id(fields))
    if known is None or known[0] is not fields:  # the tables are constants: each is looked at once
        known = (fields, tuple(fields), frozenset(fields))
        if len(_ORDERS) < _MAX_ORDERS:  # bounded: a caller making a table per call would grow it forever
            _ORDERS[id(fields)] = known
    order = known[1]
    if type(values) is dict and tuple(values) == order:  # every field, in order: builders run once per item
        return cast(_Shape, values)
    if not known[2].issuperset(values):
        extra = values.keys() - known[2]
        raise KeyError(f"not fields of {getattr(shape, '__name__', shape)}: {sorted(extra)}")
    return cast(_Shape, {name: values[name] for name in order if name in values})


#: id of a field table -> (the table, its names in order, as a set), for :func:`build`.
_ORDERS: dict[int, tuple[object, tuple[str, ...], frozenset[str]]] = {}
#: At most this many tables are kept in :data:`_ORDERS` (the results define a few dozen; each kept
#: table's object stays alive).
_MAX_ORDERS: Final = 256
