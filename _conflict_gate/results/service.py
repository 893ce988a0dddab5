"""The shapes of what a long-running gate answers besides decisions (no I/O): the versions listing
(``conflict-gate versions --format json``, the MCP server's ``versions`` tool) and a tool's error
result (the MCP server's ``isError`` results).

TypedDicts and their field tables, as :mod:`~_conflict_gate.results.shapes` holds them for decisions and
answer checks (see its docstring for how they are used).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, Final, Literal, TypedDict

from ..base.registry import DECISION_FILE_REASONS, GATE_REASONS, GRAMMAR_REASONS, INGESTION_REASONS, RENDERERS
from .lab import GrammarSummary
from .shapes import OneOf, RefusedReason

__all__ = [
    "SHAPES",
    "TOOL_ERROR_CLASSES",
    "TOOL_ERROR_FIELDS",
    "VERSIONS_FIELDS",
    "VERSION_LISTING_FIELDS",
    "VERSION_SOURCE_FIELDS",
    "ToolError",
    "VersionListing",
    "VersionSource",
    "Versions",
]

_ro = MappingProxyType


class VersionSource(TypedDict):
    """One approved source of a version, as the versions listing shows it."""

    source_id: str
    url: str | None
    path: str
    keys: dict[str, list[str]]
    refused: RefusedReason | None
    message: str | None


VERSION_SOURCE_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "source_id": "the id to pass as a candidate",
        "url": "its URL, or `null`",
        "path": "its file, relative to the manifest's folder",
        "keys": "operation -> the keys the source declares for it, in line order (`{}` when refused)",
        "refused": "`null`, or why the source is refused (a directive the gate cannot use, or a failed "
        "verification): every request it is eligible for is refused",
        "message": "`null`, or the refusal as one line: source, path, line:column, what is wrong",
    }
)


class VersionListing(TypedDict):
    """One version and its approved sources."""

    version: str
    sources: list[VersionSource]


VERSION_LISTING_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "version": "the version, as the manifest writes it",
        "sources": "its approved sources, by source id",
    }
)


class Versions(TypedDict):
    """What ``conflict-gate versions --format json`` prints and the ``versions`` tool returns: what can
    be asked, and of which pages, without a retriever."""

    grammar: GrammarSummary
    renderer: Annotated[str, OneOf.of(RENDERERS)]
    version_scheme: str
    versions: list[VersionListing]


VERSIONS_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "grammar": "the grammar: namespace, product, directive form, operations -> key -> value rule",
        "renderer": "how the pages are read: the renderer whose reading a directive must survive",
        "version_scheme": "how versions are written (`requested_version` must fit it)",
        "versions": "every version that has approved sources, in the scheme's order; drafts and deprecated "
        "pages are not listed (they are never eligible)",
    }
)

#: The typed errors a tool reports as an error result, in the order the command line's handler names them.
TOOL_ERROR_CLASSES: Final = ("GateError", "DecisionError", "IngestionError", "GrammarError")


class ToolError(TypedDict):
    """A tool's error result (``isError: true``): its structured content. The text content is the
    command line's one stderr line for the same error."""

    error: Literal["GateError", "DecisionError", "IngestionError", "GrammarError"]
    reason: Annotated[
        str, OneOf(tuple(dict.fromkeys((*GATE_REASONS, *DECISION_FILE_REASONS, *INGESTION_REASONS, *GRAMMAR_REASONS))))
    ]
    message: str


TOOL_ERROR_FIELDS: Final[Mapping[str, str]] = _ro(
    {
        "error": "the error's class: `GateError` (a bad request), `DecisionError` (a decision this corpus "
        "did not give), `IngestionError` (the manifest or a source cannot be loaded), `GrammarError`",
        "reason": "its registered reason",
        "message": "the error as one line: source, path, line:column or JSON pointer, what is wrong",
    }
)

#: TypedDict -> its field table (meanings and order), for the shapes defined here.
SHAPES: Final[Mapping[type, Mapping[str, str]]] = _ro(
    {
        VersionSource: VERSION_SOURCE_FIELDS,
        VersionListing: VERSION_LISTING_FIELDS,
        Versions: VERSIONS_FIELDS,
        ToolError: TOOL_ERROR_FIELDS,
    }
)
