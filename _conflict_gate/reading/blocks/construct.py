"""The construct record: one block construct, as one row of the table a flavour parses with (no I/O).

markdown-it-py's ``parser_block`` holds its block rules in one ordered
table, so that adding or reordering a construct is one line in one table.
Here a row is a :class:`Construct`: the spec section it implements, how a
block of its kind starts on a line, how a later line continues it, whether
it may interrupt a paragraph, the first characters of the lines it may start
on, and how its block is reported when it closes. A
:class:`~_conflict_gate.reading.blocks.flavours.Flavour` is an ordered tuple of rows
plus a few flags; the parser derives from the rows everything it needs (the
quick reject of plain lines, which rules to try for a line's first
character, the plain lines the shortcuts may take at once).

A start rule answers "does a block of my kind start here?" for the line the
:class:`~_conflict_gate.reading.blocks.state.State` is on, after the containers the
line continues (``container`` is the last of them) and returns a
:class:`Start`. A continuation rule answers "does this line continue this
open block?" and returns a :class:`Continue`. Rules read and advance the
state's position on the line; nothing else is shared between them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:
    from .state import Block, State

__all__ = [
    "CONTAINER",
    "LEAF",
    "LINE_CONSUMED",
    "MATCHED",
    "NOT_AN_OPENER",
    "NOT_MATCHED",
    "NO_START",
    "STOP",
    "Body",
    "Construct",
    "Continue",
    "Opener",
    "Shortcuts",
    "Start",
    "inserted",
    "never_continues",
    "without",
]


class Start(enum.IntEnum):
    """What a start rule found on a line."""

    #: No block of its kind starts here (nothing consumed).
    NONE = 0
    #: A container opened (its marker consumed): the rules are tried again on the rest of the line.
    CONTAINER = 1
    #: A leaf opened, or the line was used up: no more block starts on this line.
    LEAF = 2


class Continue(enum.IntEnum):
    """Whether a line continues an open block."""

    #: It does; the block's markers on the line are consumed.
    MATCHED = 0
    #: It does not: the block closes once new content on the line is certain.
    NOT_MATCHED = 1
    #: It does, and the line is used up (a closing fence): nothing else happens on it.
    LINE_CONSUMED = 2


# The codes as module constants: reading a member off an enum class is a lookup that costs
# more than the rule around it on the parser's hottest path (Python 3.11).
NO_START: Final = Start.NONE
CONTAINER: Final = Start.CONTAINER
LEAF: Final = Start.LEAF
MATCHED: Final = Continue.MATCHED
NOT_MATCHED: Final = Continue.NOT_MATCHED
LINE_CONSUMED: Final = Continue.LINE_CONSUMED


class Body(enum.Enum):
    """What a block of a construct holds; the parser's generic steps read it."""

    #: The page itself: holds any block but a list's item.
    DOCUMENT = "document"
    #: Holds blocks (block quotes 5.1, list items 5.2); counted against ``MAX_DEPTH`` and named
    #: in ``Leaf.containers``.
    CONTAINER = "container"
    #: Holds only the blocks whose construct names it as ``parent`` (a list holds list items, 5.3).
    LIST = "list"
    #: Inline text that later lines may continue lazily, interrupt, or make another block
    #: (a paragraph, 4.8; setext headings and tables are read off it).
    PARAGRAPH = "paragraph"
    #: Inline text whose continuation rule says which lines end it; no block starts inside
    #: (a table's rows, 4.10).
    ROWS = "rows"
    #: Lines taken as they are; no block starts inside (code 4.4, 4.5; HTML 4.6).
    RAW = "raw"
    #: A one-line leaf its start rule reports at once (thematic breaks 4.1, headings 4.2, 4.3).
    LINE = "line"


#: What an :class:`Opener`'s ``end`` returns for a line that opens nothing after all.
NOT_AN_OPENER: Final = -1
#: What an :class:`Opener`'s ``end`` returns when the block's end depends on what comes before
#: (the shortcuts then jump no further than the line).
STOP: Final = -2

StartRule = Callable[["State", "Block[Any]"], Start]
ContinueRule = Callable[["State", "Block[Any]"], Continue]


class Opener(NamedTuple):
    """How the shortcuts follow a block that may stay open over an empty line and an unindented line.

    ``needles``: what such a block's first line starts with (at its first
    character: a line indented at all stops the shortcuts' jump there).
    ``end(view, line start, line end)``: the start of the line after the
    top-level block opened there, :data:`NOT_AN_OPENER` or :data:`STOP`.
    """

    needles: tuple[str, ...]
    end: Callable[[str, int, int], int]


class Shortcuts(NamedTuple):
    """A construct's fast paths; each takes exactly the lines its rules would take (the tests compare
    ``fast=True`` with ``fast=False``). All optional: a construct without them is read line by line."""

    #: Take a top-level open block's lines at once (to a closing fence, a blank line ...);
    #: False when it does not apply.
    run: Callable[[State, Block[Any]], bool] | None = None
    #: Where a line's content starts (after indentation) in a run of whole lines a shortcut gave
    #: the block: ``(view, line start, content end, block) -> offset``; None keeps whole lines.
    line_start: Callable[[str, int, int, Block[Any]], int] | None = None
    #: A pattern of whole top-level lines (each ending with ``\n``) that together make one block of
    #: this kind and nothing else, for the top-level run (ATX headings, a fenced code block from its
    #: opening to its closing fence, a one-line HTML comment). Its group names must be its own.
    top_lines: str | None = None
    #: A pattern, matched at a line's first non-blank character, of lines that start with one of
    #: the construct's ``first`` characters and yet neither start nor continue anything (a digit
    #: run that is no ordered list marker): plain lines, for the characters no other row claims.
    plain: str | None = None


def never_continues(s: State, block: Block[Any]) -> Continue:
    """One-line blocks (thematic breaks, headings) never take another line."""
    return NOT_MATCHED


@dataclass(frozen=True)
class Construct:
    """One block construct (a row of a flavour's table).

    ``name`` is unique in a table (rules open blocks by it); ``kind`` is what
    its blocks are called (``Leaf.kind``: ATX and setext headings are both
    ``heading``); ``spec`` names the section it implements. ``start`` is
    tried on lines whose first non-blank character (after 0-3 spaces) is in
    ``first``, or on lines indented 4 or more columns when ``indented``;
    ``None`` when blocks of this kind are opened by another rule or by the
    parser (a list by its first item, a paragraph by text no rule starts).
    A construct that may not interrupt a paragraph
    (``interrupts_paragraph=False``) is not tried on a line an open
    paragraph could take; a rule may refuse finer cases itself (an HTML
    block of kind 7, an empty list item). ``continues`` reads each later line.

    ``first`` must also hold every character a line may start with to
    continue a block of this kind by a marker (``>``): the shortcuts take
    other lines as plain text. A construct whose block may stay open over an
    empty line followed by an unindented line must give an ``opener`` (the
    shortcuts' restart jumps follow it); other blocks must end there.

    ``parent``: the name of the construct whose block it must sit in (a list
    item in a list, which the item's rule opens). ``closes_after(block, rest of line)``: whether a
    line the block took ends it (HTML kinds 1-5). ``finish(state, block,
    end)`` reports a closed leaf (default: one leaf of its lines, if it holds
    a watched offset); ``detail(block)`` is ``Leaf.detail``.
    """

    name: str
    kind: str
    spec: str
    body: Body
    continues: ContinueRule
    start: StartRule | None = None
    first: frozenset[str] = frozenset()
    indented: bool = False
    interrupts_paragraph: bool = True
    parent: str | None = None
    closes_after: Callable[[Block[Any], str], bool] | None = None
    finish: Callable[[State, Block[Any], int], None] | None = None
    detail: Callable[[Block[Any]], int | None] | None = None
    opener: Opener | None = None
    shortcuts: Shortcuts = Shortcuts()  # noqa: RUF009 - a NamedTuple: one immutable instance is shared
    #: Derived: counted against MAX_DEPTH and named in Leaf.containers.
    nests: bool = field(init=False, repr=False, compare=False)
    #: Derived: a leaf that takes lines (reported when it closes).
    takes_lines: bool = field(init=False, repr=False, compare=False)
    #: Derived: a leaf no block starts inside (every kind that takes lines but a paragraph).
    closed_to_starts: bool = field(init=False, repr=False, compare=False)
    #: Derived: a leaf whose lines are taken as they are.
    raw: bool = field(init=False, repr=False, compare=False)
    #: Derived: holds blocks of any construct without a ``parent`` (the document, containers); a
    #: construct with a ``parent`` sits only in a block of that construct (State.add_child).
    holds_blocks: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "nests", self.body is Body.CONTAINER)
        set_(self, "takes_lines", self.body in (Body.PARAGRAPH, Body.ROWS, Body.RAW))
        set_(self, "closed_to_starts", self.body in (Body.ROWS, Body.RAW))
        set_(self, "raw", self.body is Body.RAW)
        set_(self, "holds_blocks", self.body in (Body.DOCUMENT, Body.CONTAINER))


# --------------------------------------------------------------------------
# Building tables from tables


def inserted(table: tuple[Construct, ...], construct: Construct, *, before: str) -> tuple[Construct, ...]:
    """``table`` with ``construct`` tried just before the row named ``before`` (KeyError if none)."""
    names = [row.name for row in table]
    if before not in names:
        raise KeyError(before)
    at = names.index(before)
    return (*table[:at], construct, *table[at:])


def without(table: tuple[Construct, ...], name: str) -> tuple[Construct, ...]:
    """``table`` without the row named ``name`` (KeyError if none)."""
    kept = tuple(row for row in table if row.name != name)
    if len(kept) == len(table):
        raise KeyError(name)
    return kept
