"""The shape of a context decision (``gate_context``: retrieved pages, every claim they declare), defined once (no I/O).

Built like every result (:func:`~_conflict_gate.results.shapes.build` over a field
table); :mod:`~_conflict_gate.results.schema` renders its JSON Schema and
:mod:`~reference._tools` its field table (``reference/rag.md``). Its
status and reason are the decision vocabulary's
(:data:`~_conflict_gate.base.registry.DECISIONS`); its claims are
:class:`~_conflict_gate.results.shapes.ClaimRecord` objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, TypedDict

from ..base.registry import DEFAULT_UNRELATED
from .shapes import (
    REFUSED_FIELDS,
    AnswerRequest,
    CandidateRecord,
    ClaimRecord,
    DecisionReason,
    DecisionStatus,
    RefusalError,
    RefusedSourceRecord,
)

__all__ = [
    "AGREED_FIELDS",
    "CONFLICT_FIELDS",
    "CONTEXT_FIELDS",
    "CONTEXT_PAGE_FIELDS",
    "CONTEXT_REASON_FIELDS",
    "CONTEXT_SET_ASIDE_FIELDS",
    "CONTEXT_TAIL_FIELDS",
    "PARTIAL_FIELDS",
    "SHAPES",
    "AgreedClaim",
    "ContextConflict",
    "ContextDecision",
    "ContextPage",
    "PartialClaim",
    "context_fields",
]

_ro = MappingProxyType


class AgreedClaim(TypedDict):
    """A key every eligible page declares, all with one value."""

    operation: str
    claim_key: str
    value: str
    source_ids: list[str]


AGREED_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "operation": "the directive's operation",
        "claim_key": "its key",
        "value": "the value every eligible page declares",
        "source_ids": "the pages that declare it: every eligible page",
    }
)


class PartialClaim(TypedDict):
    """A key only some eligible pages declare: listed, never counted as agreement."""

    operation: str
    claim_key: str
    values: list[str]
    source_ids: list[str]
    silent_source_ids: list[str]


PARTIAL_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "operation": "the directive's operation",
        "claim_key": "its key",
        "values": "the distinct values declared (one, unless it is also in `conflicts`)",
        "source_ids": "the eligible pages that declare it",
        "silent_source_ids": "the eligible pages that do not",
    }
)


class ContextConflict(TypedDict):
    """A key eligible pages declare with different values: who says what, where."""

    operation: str
    claim_key: str
    values: list[str]
    claims: list[ClaimRecord]


CONFLICT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "operation": "the directive's operation",
        "claim_key": "its key",
        "values": "the distinct values declared, sorted",
        "claims": "every claim of the key: page (`source_id`, `path`), line (`start_line`) and `value`",
    }
)


class ContextPage(TypedDict):
    """One eligible page's text as the answer request carries it."""

    source_id: str
    path: str
    chars: int
    included_chars: int
    truncated: bool


CONTEXT_PAGE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the page",
        "path": "its file, relative to the manifest's folder",
        "chars": "its text's length, in code points (BOM excluded)",
        "included_chars": "how many of them the answer request carries (from the start of the text)",
        "truncated": "`true` when `included_chars` is less than `chars`: the request says so to the model",
    }
)


class _ContextAlways(TypedDict):
    requested_version: str
    candidate_ids: list[str]
    max_context_chars: int
    eligible_source_ids: list[str]
    excluded_wrong_version_ids: list[str]
    excluded_unapproved_ids: list[str]
    candidates: list[CandidateRecord]
    status: DecisionStatus
    reason: DecisionReason
    agreed: list[AgreedClaim]
    partial: list[PartialClaim]
    conflicts: list[ContextConflict]
    claims: list[ClaimRecord]
    pages: list[ContextPage]
    answer_request: AnswerRequest | None


class ContextDecision(_ContextAlways, total=False):
    """What ``gate_context`` returns: the request echoed, who is eligible, the status and reason, the
    reason's own fields, the agreed, partial and conflicting keys, every claim, the pages' text
    budget and (only when ``ready``) the answer request."""

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


#: The fields every context decision starts with, in order.
CONTEXT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "requested_version": "the version asked for, as given",
        "candidate_ids": "the candidate ids as given, in the order given (the pages' text follows this order)",
        "max_context_chars": "the caller's limit on the pages' text the answer request carries, in code points",
        "eligible_source_ids": "approved candidates whose version equals `requested_version` exactly",
        "excluded_wrong_version_ids": "candidates of another version, set aside",
        "excluded_unapproved_ids": "candidates of the requested version that are `draft` or `deprecated`, set aside",
        "candidates": "every candidate as `{source_id, version, status}`",
        "status": "`ready`, `conflict`, `not_in_docs` or `refused`",
        "reason": "why; one of the status's reasons",
    }
)
#: The fields a context decision adds for its reason (not ``refused``), after :data:`CONTEXT_FIELDS`.
CONTEXT_REASON_FIELDS: Final[Mapping[str, tuple[str, ...]]] = _ro(
    {
        "eligible_directives_agree": (),
        "requested_claim_missing": ("missing_claim_source_ids",),
        "no_eligible_version": ("candidate_versions",),
        "no_approved_source": (),
        "same_version_directives_disagree": (),
        "no_related_source": (),
    }
)
_REASON_MEANINGS: Final[Mapping[str, str]] = _ro(
    {
        "missing_claim_source_ids": "no key is declared by every eligible page: the eligible pages silent on a "
        "declared key (every eligible page when none declares anything)",
        "candidate_versions": "the distinct versions the candidates have, in the scheme's order",
    }
)
#: The fields every context decision ends with.
CONTEXT_TAIL_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "agreed": "the keys every eligible page declares with one value: `{operation, claim_key, value, source_ids}`",
        "partial": "the keys only some eligible pages declare (not agreement): `{operation, claim_key, values, "
        "source_ids, silent_source_ids}`",
        "conflicts": "the keys eligible pages declare with different values: `{operation, claim_key, values, claims}`",
        "claims": "every claim the eligible pages declare (claim fields), by page then line; `[]` when no page was read "
        "(no eligible page, or a refused one)",
        "pages": "when ready, each eligible page's text budget, in candidate order: `{source_id, path, chars, "
        "included_chars, truncated}`; else `[]`",
        "answer_request": "`{messages: [system, user]}` (`[system, user, user]` with the user's question) when "
        "`ready`, else `null`; the first user message holds the agreed claims and the pages' text",
    }
)


#: The field a context decision made with ``unrelated="set_aside"`` ends with.
CONTEXT_SET_ASIDE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "set_aside_unrelated_ids": 'with `unrelated="set_aside"`: eligible pages that read cleanly and declare no '
        "directive at all, set aside: not in the agreement, their text not sent",
    }
)


def context_fields(reason: str, refused: bool, unrelated: str = DEFAULT_UNRELATED) -> tuple[str, ...]:
    """Every field of a context decision with ``reason``, in order (``refused``: a refused reason;
    ``unrelated``: the option it was made with)."""
    own = tuple(REFUSED_FIELDS) if refused else CONTEXT_REASON_FIELDS[reason]
    aside = tuple(CONTEXT_SET_ASIDE_FIELDS) if unrelated != DEFAULT_UNRELATED else ()
    return (*CONTEXT_FIELDS, *own, *CONTEXT_TAIL_FIELDS, *aside)


SHAPES: Final[Mapping[type, Mapping[str, str]]] = _ro(
    {
        AgreedClaim: AGREED_FIELDS,
        PartialClaim: PARTIAL_FIELDS,
        ContextConflict: CONFLICT_FIELDS,
        ContextPage: CONTEXT_PAGE_FIELDS,
        ContextDecision: _ro(
            {
                **CONTEXT_FIELDS,
                **_REASON_MEANINGS,
                **REFUSED_FIELDS,
                **CONTEXT_TAIL_FIELDS,
                **CONTEXT_SET_ASIDE_FIELDS,
            }
        ),
    }
)
