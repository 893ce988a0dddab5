"""The typed errors: one base class, each subclass with a fixed reason registry.

Every error carries a machine-readable ``reason`` (a key of its class's
registry in :mod:`_conflict_gate.base.registry`) and says where it happened. The
message is built from those parts, so it is always one printable line::

    source 'quill-malformed' (docs/quill-malformed.md:15:33): expected exactly ...
    manifest.json at /documents/3/version: '1.0.0' does not fit the version scheme ...
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar, Final

from .registry import DECISION_FILE_REASONS, DIRECTIVE_REASONS, GATE_REASONS, GRAMMAR_REASONS, INGESTION_REASONS

__all__ = [
    "RUNNER_MARK_ESCAPES",
    "DecisionError",
    "DirectiveError",
    "GateError",
    "GrammarError",
    "IngestionError",
    "LocatedError",
    "defuse_commands",
    "located_message",
    "printable",
    "shown_id",
]


def printable(text: str) -> str:
    """``text`` with every non-printable character (newline, escape, U+2028, lone surrogate) escaped.

    Used for every path, id and quote placed in a message, so that a message
    is one printable line and no input can forge a line on a terminal. A lone
    surrogate U+DC80..U+DCFF is the byte of an undecodable command-line
    argument or file name (Python's ``surrogateescape``): written as that byte,
    ``\\xff``, as a path is everywhere else (messages and JSON results alike).
    """
    if text.isprintable():
        return text
    return "".join(
        ch
        if ch.isprintable()
        else f"\\x{ord(ch) - 0xDC00:02x}"
        if "\udc80" <= ch <= "\udcff"
        else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


#: What GitHub's runner reads as a workflow command in a line of a step's output (stdout and stderr alike),
#: from actions/runner's ``ActionCommand``: ``TryParseV2`` takes a line whose start, once leading white
#: space is trimmed, is ``::`` (``::add-mask::x``); the legacy ``TryParse`` takes ``##[`` anywhere in a
#: line (``##[set-output name=x;]y``). A text holding neither mark cannot be read as a command.
_RUNNER_MARKS: Final = re.compile(r"::|##\[")

#: How each kind of output writes the second character of a mark (``::`` -> ``:`` + first, ``##[`` ->
#: ``#`` + second + ``[``): ``text`` (log lines, Markdown, stderr) as this tool writes any character it
#: will not print, a Python escape, so a reader sees the neutralising (``:\x3a``, ``#\x23[``); ``json``
#: and ``xml`` with the format's own escape, so a reader of the format gets the very same text back.
RUNNER_MARK_ESCAPES: Final[Mapping[str, tuple[str, str]]] = MappingProxyType(
    {"text": ("\\x3a", "\\x23"), "json": ("\\u003a", "\\u0023"), "xml": ("&#58;", "&#35;")}
)


def defuse_commands(text: str, form: str = "text") -> str:
    """``text`` with every ``::`` and ``##[`` written so that GitHub's runner reads no workflow command in
    any of its lines (:data:`_RUNNER_MARKS`); the second character of each mark is escaped as ``form``
    (a key of :data:`RUNNER_MARK_ESCAPES`) says. The marks are taken leftmost first and never overlap,
    and no escape holds ``:`` or ``#``, so the result holds neither mark (``:::`` -> ``:\x3a:``).

    ``json`` and ``xml`` may be applied to a whole JSON or XML document this project writes: outside
    its strings (and attribute values, text) such a document holds neither mark. Never applied to the
    workflow commands this tool writes itself: their own ``::`` is added around defused text.
    """
    if "::" not in text and "##[" not in text:
        return text
    colon, hash_ = RUNNER_MARK_ESCAPES[form]
    return _RUNNER_MARKS.sub(lambda mark: ":" + colon if mark.group() == "::" else "#" + hash_ + "[", text)


#: Code points of a source id a message quotes; a longer id (only a request can hold one: a manifest's
#: ids have at most 200) is cut there and its length given, so a message stays short whatever is asked.
SHOWN_ID_LIMIT: Final = 200


def shown_id(source_id: str) -> str:
    """``source_id`` as a message quotes it: ``repr``, escaped, cut to :data:`SHOWN_ID_LIMIT` code points.

    Never copies more of the id than the limit, so an id of megabytes costs no more memory here
    than one of a few characters.
    """
    if len(source_id) <= SHOWN_ID_LIMIT:
        return printable(repr(source_id))
    return f"{printable(repr(source_id[:SHOWN_ID_LIMIT]))}... ({len(source_id)} code points)"


def located_message(
    detail: str,
    *,
    source_id: str | None = None,
    path: str | None = None,
    line: int | None = None,
    column: int | None = None,
    pointer: str | None = None,
) -> str:
    """Render ``source 'id' (path:line:column at /pointer): detail`` from whatever is known."""
    where = printable(path or "")
    if line is not None:
        where += f":{line}" + (f":{column}" if column is not None else "")
    if pointer is not None:
        where += f" at {printable(pointer) or '/'}" if where else f"at {printable(pointer) or '/'}"
    if source_id is not None:
        head = f"source {shown_id(source_id)}" + (f" ({where})" if where else "")
    else:
        head = where
    return f"{head}: {detail}" if head else detail


class LocatedError(ValueError):
    """Base of the project's typed errors: a fixed ``reason`` and where it happened.

    Attributes: ``reason`` (a key of the subclass's :attr:`reasons`),
    ``detail`` (the message without its location), ``source_id``, ``path``
    (manifest-relative for sources, as given for the manifest), ``line`` and
    ``column`` (1-based; the column counts code points), ``pointer`` (a JSON
    pointer into the manifest, RFC 6901), each ``None`` when unknown.
    Refuses to be built with an unregistered reason (``AssertionError``): a
    reason is a contract, not free text.
    """

    reasons: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init__(
        self,
        reason: str,
        detail: str,
        *,
        source_id: str | None = None,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
        pointer: str | None = None,
    ) -> None:
        if reason not in self.reasons:
            raise AssertionError(f"unregistered {type(self).__name__} reason {reason!r}")
        self.reason = reason
        self.detail = detail
        self.source_id = source_id
        self.path = path
        self.line = line
        self.column = column
        self.pointer = pointer
        super().__init__(
            located_message(detail, source_id=source_id, path=path, line=line, column=column, pointer=pointer)
        )


class IngestionError(LocatedError):
    """The manifest or a source could not be loaded and verified (:data:`~_conflict_gate.base.registry.INGESTION_REASONS`)."""

    reasons = INGESTION_REASONS


class GrammarError(LocatedError):
    """The manifest's grammar is not usable (:data:`~_conflict_gate.base.registry.GRAMMAR_REASONS`).

    ``pointer`` is the grammar's location in the manifest, e.g.
    ``/grammar/operations/create_copy/existing_path``.
    """

    reasons = GRAMMAR_REASONS


class GateError(LocatedError):
    """The request itself is invalid; no decision is made (:data:`~_conflict_gate.base.registry.GATE_REASONS`)."""

    reasons = GATE_REASONS


class DirectiveError(LocatedError):
    """A source says something the gate cannot use, so it refuses the source.

    Reasons: :data:`~_conflict_gate.base.registry.DIRECTIVE_REASONS`. ``line`` is the
    1-based editor line, ``column`` (1-based, code points) points where the
    problem is, ``quote`` is that whole source line (without its line ending),
    cut to 200 code points.
    """

    reasons = DIRECTIVE_REASONS

    def __init__(
        self,
        reason: str,
        detail: str,
        *,
        quote: str,
        source_id: str | None = None,
        path: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(reason, detail, source_id=source_id, path=path, line=line, column=column)
        self.quote = quote


class DecisionError(LocatedError):
    """A decision file given to the answer check is not a result of this tool for this corpus.

    Reasons: :data:`~_conflict_gate.base.registry.DECISION_FILE_REASONS`; ``pointer``
    names the field at fault.
    """

    reasons = DECISION_FILE_REASONS
