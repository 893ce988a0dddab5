"""The shape of the audit's result (``audit``, ``conflict-gate audit --format json``), defined once (no I/O).

TypedDicts and their field tables, as :mod:`~_conflict_gate.results.shapes` holds them for decisions and
answer checks (see its docstring for how they are used).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Final, TypedDict

from ..base.registry import AUDIT_STATUSES, NEAR_MISS_PLACES, RENDERERS, TREE_FINDINGS
from .shapes import OneOf, PageStatus, RefusalError, RefusedReason

__all__ = [
    "AUDIT_CLAIM_FIELDS",
    "AUDIT_ENTRY_FIELDS",
    "AUDIT_FIELDS",
    "AUDIT_OPERATION_FIELDS",
    "AUDIT_REFUSAL_FIELDS",
    "AUDIT_SILENCE_FIELDS",
    "AUDIT_SUMMARY_FIELDS",
    "AUDIT_SUMMARY_WORDS",
    "LEFT_OUT_FIELDS",
    "NEAR_MISS_FIELDS",
    "SHAPES",
    "UNAPPROVED_CONFLICT_FIELDS",
    "UNLISTED_SOURCE_FIELDS",
    "AuditClaim",
    "AuditEntry",
    "AuditOperation",
    "AuditRefusal",
    "AuditReport",
    "AuditSilence",
    "AuditSummary",
    "LeftOutRecord",
    "NearMissRecord",
    "UnapprovedConflict",
    "UnlistedSource",
]

_ro = MappingProxyType


class AuditClaim(TypedDict):
    """One claim in an audit entry."""

    source_id: str
    path: str
    line: int
    value: str
    quote: str


AUDIT_CLAIM_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the source that declares it",
        "path": "its path, relative to the manifest's folder",
        "line": "1-based line of the directive",
        "value": "the declared value",
        "quote": "the directive line",
    }
)


class AuditSilence(TypedDict):
    """An approved source about the operation (it declares another key of it) that is silent on this key."""

    source_id: str
    path: str
    line: int


AUDIT_SILENCE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the silent source",
        "path": "its path, relative to the manifest's folder",
        "line": "1-based line of its first directive of the operation: what makes it about the operation, "
        "and where the missing key would go",
    }
)


class AuditEntry(TypedDict):
    """One key of an operation that an approved source of the version declares."""

    claim_key: str
    status: Annotated[str, OneOf.of(AUDIT_STATUSES)]
    values: list[str]
    claims: list[AuditClaim]
    silent: list[AuditSilence]


AUDIT_ENTRY_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "claim_key": "the key",
        "status": "whether the approved sources of the version that are about the operation agree on it",
        "values": "the distinct declared values (integers in numeric order)",
        "claims": "every claim of the key, with path, line and quote, by source id",
        "silent": "the sources about the operation that do not declare the key, by source id",
    }
)


class AuditOperation(TypedDict):
    """One version x operation that approved sources of the version are about (declare a key of)."""

    version: str
    operation: str
    source_ids: list[str]
    keys: list[AuditEntry]


AUDIT_OPERATION_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "version": "the version",
        "operation": "the operation",
        "source_ids": "the approved sources of the version about the operation (each declares a key of it)",
        "keys": "per key one of them declares, by key: whether they agree",
    }
)


class AuditRefusal(TypedDict):
    """One refused source (of any status)."""

    source_id: str
    version: str
    status: PageStatus
    path: str
    error: RefusalError
    reason: RefusedReason
    line: int | None
    column: int | None
    message: str


AUDIT_REFUSAL_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the refused source",
        "version": "its version",
        "status": "its page status",
        "path": "its path, relative to the manifest's folder",
        "error": "the class of the error: `DirectiveError` (a directive the gate cannot use) or `IngestionError` "
        "(the source failed verification: the audit exits 6)",
        "reason": "why it is refused",
        "line": "1-based line of the problem, or `null`",
        "column": "1-based column in code points, or `null`",
        "message": "the refusal as one line",
    }
)


class UnapprovedConflict(TypedDict):
    """A claim of a draft or deprecated page that differs from the approved ones of its version."""

    source_id: str
    status: PageStatus
    version: str
    path: str
    line: int
    operation: str
    claim_key: str
    value: str
    approved_values: list[str]


UNAPPROVED_CONFLICT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the draft or deprecated source",
        "status": "its page status",
        "version": "its version",
        "path": "its path, relative to the manifest's folder",
        "line": "1-based line of the directive",
        "operation": "the operation",
        "claim_key": "the key",
        "value": "the value it declares",
        "approved_values": "what the approved sources of its version declare",
    }
)


class NearMissRecord(TypedDict):
    """Directive-shaped text in code or hidden HTML, or a mention of the namespace: reported, never counted."""

    source_id: str
    path: str
    line: int
    column: int
    where: Annotated[str, OneOf.of(NEAR_MISS_PLACES)]
    quote: str


NEAR_MISS_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the source",
        "path": "its path, relative to the manifest's folder",
        "line": "1-based line",
        "column": "1-based column of the at sign, in code points",
        "where": "where a reader meets it",
        "quote": "the source line, cut to 200 code points",
    }
)


class LeftOutRecord(TypedDict):
    """A reading the default renderer did not judge a page by, because the page does not build under it."""

    source_id: str
    path: str
    reading: Annotated[str, OneOf.of(RENDERERS)]
    line: int
    why: str


LEFT_OUT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the source",
        "path": "its path, relative to the manifest's folder",
        "reading": "the renderer whose reading was left out (`docusaurus`: MDX does not build the page)",
        "line": "1-based line of what breaks that reading's build",
        "why": "the build error, in that reading's terms",
    }
)


class UnlistedSource(TypedDict):
    """A page the manifest's ``sources`` take that its ``documents`` do not list."""

    path: str
    reason: Annotated[str, OneOf.of(TREE_FINDINGS)]
    version: str
    source_id: str | None
    message: str


UNLISTED_SOURCE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "path": "the page, relative to the manifest's folder",
        "reason": "`unlisted_source`",
        "version": "its version, from the include pattern that takes it",
        "source_id": "the id `init --update` would give it, or `null` when it cannot add it",
        "message": "what is wrong and what to do, in one line",
    }
)


class AuditSummary(TypedDict):
    """The audit's counts; ``agree``, ``conflict`` and ``partial`` are the audit statuses."""

    agree: int
    conflict: int
    partial: int
    refused: int
    unapproved_conflicts: int
    near_misses: int
    failed: int


AUDIT_SUMMARY_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        **{
            status: f"keys (in `operations`, version x operation x key) whose status is `{status}`"
            for status in AUDIT_STATUSES
        },
        "refused": "refused approved sources (failed ones included)",
        "unapproved_conflicts": "draft or deprecated claims that would conflict once approved",
        "near_misses": "near-misses reported",
        "failed": "sources of any status that failed verification (`error` `IngestionError` in `refused_sources`)",
    }
)


#: How the Markdown audit's summary line names each count of :data:`AUDIT_SUMMARY_FIELDS` (``N words``).
AUDIT_SUMMARY_WORDS: Final[Mapping[str, str]] = _ro(
    {
        **{status: status for status in AUDIT_STATUSES},
        "refused": "refused approved (failed ones included)",
        "unapproved_conflicts": "unapproved conflicting",
        "near_misses": "near-misses",
        "failed": "failed verification",
    }
)


class _AuditReportAlways(TypedDict):
    source_count: int
    versions: list[str]
    operations: list[AuditOperation]
    refused_sources: list[AuditRefusal]
    unapproved_conflicts: list[UnapprovedConflict]
    near_misses: list[NearMissRecord]
    left_out_readings: list[LeftOutRecord]
    summary: AuditSummary
    clean: bool
    unlisted_sources: list[UnlistedSource]
    renderer: Annotated[str, OneOf.of(RENDERERS)]


class AuditReport(_AuditReportAlways, total=False):
    """What ``audit`` returns (``truncated`` only from the MCP server's ``audit`` tool, given a ``limit``)."""

    truncated: bool


AUDIT_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_count": "sources in the manifest",
        "versions": "their distinct versions, in the scheme's order",
        "operations": "per version and operation that approved sources of the version are about: those "
        "sources and, per key, whether they agree",
        "refused_sources": "every refused source, of any status, by source id",
        "unapproved_conflicts": "claims of drafts and deprecated pages that would conflict once approved",
        "near_misses": "directive-shaped text in code or hidden HTML, and mentions of the namespace",
        "left_out_readings": "under the default renderer (`portable`), the readings a page was not judged by, because "
        "it does not build under them (`[]` under any other renderer)",
        "summary": "the counts",
        "clean": "no approved sources conflict, no approved source is refused, no source failed verification "
        "and no page is unlisted",
        "unlisted_sources": "pages the manifest's `sources` take that its `documents` do not list "
        "(`[]` without `sources`)",
        "renderer": "the renderer the pages were read by (the manifest's `renderer`, `portable` when it names none)",
        "truncated": "only from the `audit` tool given a `limit`: whether a list was cut to `limit` items "
        "(`summary`, `source_count`, `versions` and `clean` stay whole); absent otherwise",
    }
)


#: TypedDict -> its field table (meanings and order), for the shapes defined here.
SHAPES: Final[Mapping[type, Mapping[str, str]]] = _ro(
    {
        AuditClaim: AUDIT_CLAIM_FIELDS,
        AuditSilence: AUDIT_SILENCE_FIELDS,
        AuditEntry: AUDIT_ENTRY_FIELDS,
        AuditOperation: AUDIT_OPERATION_FIELDS,
        AuditRefusal: AUDIT_REFUSAL_FIELDS,
        UnapprovedConflict: UNAPPROVED_CONFLICT_FIELDS,
        NearMissRecord: NEAR_MISS_FIELDS,
        LeftOutRecord: LEFT_OUT_FIELDS,
        UnlistedSource: UNLISTED_SOURCE_FIELDS,
        AuditSummary: AUDIT_SUMMARY_FIELDS,
        AuditReport: AUDIT_FIELDS,
    }
)
