"""The parser's state: the lines of the byte view, the open blocks, the leaves reported (no I/O).

One :class:`State` per reading of a page, as in the spec's appendix "A
parsing strategy": the stack of open blocks, the line being read and the
position on it. Rules (see :mod:`~_conflict_gate.reading.blocks.construct`) read and
advance it through its methods.

The text is the *byte view*: the page's UTF-8 bytes decoded as Latin-1, one
character per byte (:func:`_conflict_gate.reading.reader.read_directives` passes
it). Every offset here counts bytes, and block structure depends on ASCII
characters only, so every pattern matched on the view uses ASCII classes: a
byte of 0x80 or more is part of a character and never a space, a letter or
a digit.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, TypeVar

from ...base.registry import MAX_LEAF_LINES
from .construct import Body, Construct, never_continues
from .scan import next_blank_line

if TYPE_CHECKING:
    from .flavours import Flavour

__all__ = [
    "DOCUMENT",
    "FOOTNOTES",
    "MARKDOWN_IT_READING",
    "MAX_DEPTH",
    "MAX_LEAF_LINES",
    "MYST_COMMENT_LEAF",
    "MYST_DIRECTIVE_LEAF",
    "MYST_MATH_LEAF",
    "NO_FRONT_MATTER",
    "NO_TABLES",
    "ONE_COLUMN_TABLE",
    "PARAGRAPH",
    "Block",
    "Leaf",
    "State",
    "finalize",
    "line_view",
    "lines_of",
    "take",
]

#: Containers (block quotes, list items) nested deeper than this are not opened.
MAX_DEPTH: Final = 64

#: The parser's own leaf: text that no rule starts becomes a paragraph (4.8).
PARAGRAPH: Final = "paragraph"
#: The leaf kinds MyST's flavour adds (:mod:`.myst`: a directive's whole block, a line comment, a math
#: block), named here so that the reader tells them apart without importing MyST's rules.
MYST_DIRECTIVE_LEAF: Final = "myst_directive"
MYST_COMMENT_LEAF: Final = "myst_comment"
MYST_MATH_LEAF: Final = "myst_math"

# The names rules note lines and stretches by (State.note_variant, State.unsure): a variant reading
# the primary one is compared with (flavours.py), or what a renderer does that is not modelled.
#: A renderer without front matter support.
NO_FRONT_MATTER: Final = "front_matter"
#: A renderer without GFM tables.
NO_TABLES: Final = "tables"
#: markdown-it, where it reads link definitions, lazy lines, block quotes and tables its way.
MARKDOWN_IT_READING: Final = "markdown_it"
#: GitHub's footnote definitions (page.footnotes).
FOOTNOTES: Final = "footnotes"
#: GitHub's one-column tables (tables.table).
ONE_COLUMN_TABLE: Final = "one_column_table"
#: HTML block starts that CommonMark 0.31.2 and cmark-gfm (0.29) read differently (page.html_start_differs).
HTML_START_VERSIONS: Final = "html_start_versions"

Line = tuple[int, int, int]


class Leaf(NamedTuple):
    """A leaf block that holds a watched offset.

    ``kind``: ``paragraph``, ``heading``, ``table``, ``fenced_code``,
    ``indented_code``, ``html_block`` (``detail`` is its spec kind, 1-7),
    ``front_matter`` or ``link_definition`` (the definitions that open a
    paragraph, spec 4.7), or the kind of a construct a flavour adds.
    ``lines`` holds ``(line, start, end)`` per source line, byte offsets into
    the view, ``end`` before the line ending: for paragraphs and headings the
    content after container markers and indentation; for the other kinds the
    line after container markers (a fence's info string included).
    ``containers`` lists the enclosing block quotes and list items, outermost
    first, as ``(kind, first line)``; empty means top level. ``doubt`` is
    ``(line, why)`` when the gate cannot be sure how a reader sees this block.
    ``end`` is the byte offset where the block ends; ``gave_up`` the line
    after which ``lines`` stops, for a block longer than
    :data:`MAX_LEAF_LINES` lines (``None`` otherwise). Lines are numbered
    from 0.
    """

    kind: str
    lines: tuple[Line, ...]
    containers: tuple[tuple[str, int], ...]
    detail: int | None = None
    doubt: tuple[int, str] | None = None
    end: int = 0
    gave_up: int | None = None


def line_view(view: str) -> str:
    """``view`` with each lone ``\\r`` made ``\\n``, and a final ``\\n`` added if missing.

    Offsets below ``len(view)`` mean the same in both, so the result gives
    CommonMark lines (2.1) to ``str.find("\\n")`` while its offsets index
    ``view``.
    """
    if "\r" in view:
        view = _LONE_CR.sub("\n", view)
    return view if view.endswith("\n") else view + "\n"


_LONE_CR: Final = re.compile(r"\r(?!\n)", re.ASCII)
_NOT_SPACE: Final = re.compile(r"[^ ]")


class Stretches:
    """``(line, end)`` stretches of one name in page order, not overlapping, in two arrays of machine
    integers (16 bytes a stretch, however many footnotes a page has): the page doubts' stretches."""

    __slots__ = ("ends", "lines")

    def __init__(self) -> None:
        self.lines: array[int] = array("q")
        self.ends: array[int] = array("q")

    def append(self, line: int, end: int) -> None:
        self.lines.append(line)
        self.ends.append(end)

    def __bool__(self) -> bool:
        return bool(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def covering(self, first_line: int, last_line: int, start: int) -> int | None:
        """The line of the stretch that reaches a block of lines ``first_line..last_line`` starting
        at view offset ``start`` (the first such in page order), or None."""
        k = bisect.bisect_right(self.ends, start)  # the first stretch ending after the block starts
        return self.lines[k] if k < len(self.lines) and self.lines[k] <= last_line else None


D = TypeVar("D")

#: The page itself (the root of the stack; never continued).
DOCUMENT: Final = Construct("document", "document", "CommonMark 3.2", Body.DOCUMENT, never_continues)


class Block(Generic[D]):
    """An open block of one construct; ``data`` is that construct's own (a fence's character and
    length, a list item's padding: see each rule), ``None`` for most.

    ``lines`` holds ``(line, start, end)`` per line, or ``(-1 - first line,
    start, end)`` for a run of whole lines a shortcut took (split into lines
    only if the block is watched: :func:`lines_of`).
    """

    __slots__ = (
        "construct",
        "containers",
        "continues",
        "count",
        "data",
        "doubt",
        "empty",
        "kind",
        "last",
        "line",
        "lines",
        "runs",
    )

    def __init__(
        self,
        construct: Construct,
        line: int,
        containers: tuple[tuple[str, int], ...],
        data: D,
        doubt: tuple[int, str] | None = None,
    ) -> None:
        self.construct = construct
        self.kind = construct.kind
        self.continues = construct.continues  # read for every open block on every line
        self.line = line
        self.lines: list[Line] = []
        self.containers = containers
        self.data = data
        self.empty = True  # a list item with no child block yet (5.2: at most one blank line first)
        self.doubt = doubt
        self.count = 0  # lines taken, kept or not
        self.last: Line = (0, 0, 0)  # the last line taken, always kept (set before it is read)
        self.runs = -1  # index of the first run a shortcut took, if any (see lines_of)

    def add(self, entry: Line, lines: int = 1) -> None:
        """Take ``lines`` lines (one, or a run); keep them while the block is under :data:`MAX_LEAF_LINES`."""
        if self.count < MAX_LEAF_LINES:
            self.lines.append(entry)
        self.count += lines
        self.last = entry


class State:
    """One reading of one page; every rule reads and advances it.

    Per line, as in the spec's parsing strategy: ``offset`` (bytes into
    ``line``) and ``column`` (tab stops of 4) of the next unconsumed
    character, ``partial_tab`` when a tab is consumed in part, and, after
    :meth:`find_next_nonspace`, ``next_nonspace``, ``indent``, ``indented``
    and ``blank``. ``pos`` is the line's start in the view, ``line_end`` the
    end of its content (before ``\\r\\n`` or ``\\n``).
    """

    def __init__(self, view: str, watch: Sequence[int], flavour: Flavour) -> None:
        self.view = line_view(view)
        self.watch = watch
        self.flavour = flavour
        # Caches of the shortcuts' restart jumps (see fast.restart_point).
        self.openers: array[int] | None = None
        #: per opener line (in the order of ``openers``), where its block ends; 0 until asked
        self.opener_ends: array[int] = array("q")
        self.no_restart: dict[int, int] = {}
        #: limit -> (walk start, where the walk stopped, open until there): see fast.restart_point
        self.walks: dict[int, tuple[int, int, int]] = {}
        #: variant name -> lines where that reading may part from this one (see parse_blocks)
        self.variants: dict[str, list[int]] = {}
        #: ``(line, end, name)``: from ``line`` up to view offset ``end`` the reading ``name`` (a
        #: variant's, or one the flavour does not model) may differ, whatever the blocks are: the
        #: stretches the page doubts note before the first line (footnotes), and those the rules
        #: note as they read, each list in page order
        self.page_unsure = Stretches()
        self.unsure: list[tuple[int, int, str]] = []
        self.leaves: list[Leaf] = []
        self.stack: list[Block[Any]] = [Block(DOCUMENT, 0, (), None)]
        self.depth = 0  # open block quotes and list items
        self.pos = 0
        self.line_no = -1
        self.line = ""
        self.line_end = 0
        self.offset = self.column = 0
        self.partial_tab = False
        self.next_nonspace = self.next_nonspace_column = self.indent = 0
        self.indented = self.blank = False
        self._blank = (-1, -2)  # (searched from, first blank line at or after it): see blank_after
        self.all_closed = True
        self.old_tip = self.last_matched = self.stack[0]

    # ---- moving along the line

    def find_next_nonspace(self) -> None:
        line, i, column = self.line, self.offset, self.column
        end = len(line)
        other = _NOT_SPACE.search(line, i)  # the run of spaces in C: deep lists indent every line
        spaces = end if other is None else other.start()
        column += spaces - i
        i = spaces
        while i < end:  # a tab, then perhaps more spaces and tabs
            ch = line[i]
            if ch == " ":
                column += 1
            elif ch == "\t":
                column += 4 - column % 4
            else:
                break
            i += 1
        self.blank = i == end
        self.next_nonspace = i
        self.next_nonspace_column = column
        self.indent = column - self.column
        self.indented = self.indent >= 4

    def advance_next_nonspace(self) -> None:
        self.offset = self.next_nonspace
        self.column = self.next_nonspace_column
        self.partial_tab = False

    def advance_offset(self, count: int, columns: bool) -> None:
        """Consume ``count`` characters, or with ``columns`` that many columns (a tab may be consumed in part)."""
        line = self.line
        while count > 0 and self.offset < len(line):
            if line[self.offset] == "\t":
                to_tab = 4 - self.column % 4
                if columns:
                    self.partial_tab = to_tab > count
                    step = min(count, to_tab)
                    self.column += step
                    self.offset += 0 if self.partial_tab else 1
                    count -= step
                else:
                    self.partial_tab = False
                    self.column += to_tab
                    self.offset += 1
                    count -= 1
            else:
                self.partial_tab = False
                self.offset += 1
                self.column += 1
                count -= 1

    def char_at(self, index: int) -> str:
        return self.line[index : index + 1]

    # ---- blocks

    def add_child(self, name: str, data: D) -> Block[D]:
        """Open a block of the flavour's construct ``name`` on this line, first closing blocks that cannot hold it."""
        construct = self.flavour.by_name[name]
        stack, parent_name = self.stack, construct.parent
        while not (
            stack[-1].construct.name == parent_name if parent_name is not None else stack[-1].construct.holds_blocks
        ):
            self.close()
        parent = stack[-1]
        parent.empty = False
        containers = parent.containers
        if parent.construct.nests:
            containers = (*containers, (parent.kind, parent.line))
        block = Block(construct, self.line_no, containers, data, parent.doubt)
        self.stack.append(block)
        if construct.nests:
            self.depth += 1
        return block

    def close_unmatched(self) -> None:
        """Close the blocks this line did not continue (once new content is certain)."""
        if not self.all_closed:
            while self.old_tip is not self.last_matched:
                self.close()
                self.old_tip = self.stack[-1]
            self.all_closed = True

    def close(self) -> None:
        """Close the tip."""
        block = self.stack.pop()
        if block.construct.nests:
            self.depth -= 1
        elif block.construct.takes_lines:
            finalize(self, block)

    def add_line(self) -> None:
        """Add the rest of the line, from ``offset``, to the tip."""
        self.stack[-1].add((self.line_no, self.pos + self.offset, self.line_end))

    def note_variant(self, name: str, line: int) -> None:
        """Remember that the variant reading ``name`` may see this page differently from ``line`` on."""
        lines = self.variants.setdefault(name, [])
        if not lines or lines[-1] != line:
            lines.append(line)

    def blank_after(self, pos: int) -> int:
        """:func:`~.scan.next_blank_line` from line start ``pos``, remembered: a later ``pos`` before the blank
        line found last has the same answer, so the lines of a long stretch cost one search, not one each."""
        searched, found = self._blank
        if not searched <= pos <= found:
            self._blank = (pos, next_blank_line(self.view, pos))
        return self._blank[1]

    def note_unsure(self, line: int, end: int, name: str) -> None:
        """Lines from ``line`` to view offset ``end`` may read otherwise (reading ``name``), unless a
        stretch noted before while reading already reaches this line (the page doubts' stretches,
        noted before the first line for the whole page, do not count)."""
        if not self.unsure or self.unsure[-1][1] <= self.pos:
            self.unsure.append((line, end, name))

    def watched(self, start: int, end: int) -> bool:
        """True when a watched offset lies in ``start..end``."""
        i = bisect.bisect_left(self.watch, start)
        return i < len(self.watch) and self.watch[i] <= end

    def emit(
        self, kind: str, block: Block[Any], lines: Sequence[Line], detail: int | None = None, end: int | None = None
    ) -> None:
        """Report a finished leaf if it holds a watched offset (``end``: where it ends, if past ``lines``)."""
        if not lines:
            return
        end = lines[-1][2] if end is None else end
        if self.watched(lines[0][1], end):
            gave_up = lines[-1][0] if end > lines[-1][2] else None
            self.leaves.append(Leaf(kind, tuple(lines), block.containers, detail, block.doubt, end, gave_up))


# --------------------------------------------------------------------------
# Closing a leaf


def finalize(s: State, block: Block[Any]) -> None:
    """A leaf is closed: its construct reports it (by default, as one leaf if it holds a watched offset)."""
    if not block.lines:
        return
    view = s.view
    _, _, end = last = block.last
    if last[0] < 0:  # a run: its last line's text ends before its line ending
        end -= view[end - 1 : end] == "\n"
        end -= view[end - 1 : end] == "\r"
    (block.construct.finish or finish_leaf)(s, block, end)


def finish_leaf(s: State, block: Block[Any], end: int) -> None:
    """Report a closed leaf of its lines if it holds a watched offset (``Leaf.gave_up`` past the limit)."""
    if not s.watched(block.lines[0][1], end):
        return
    lines = lines_of(s, block)
    detail = block.construct.detail(block) if block.construct.detail is not None else None
    if block.count > MAX_LEAF_LINES or len(lines) >= MAX_LEAF_LINES:
        s.emit(block.kind, block, lines, detail, end=end)
    else:
        s.emit(block.kind, block, lines, detail)


def lines_of(s: State, block: Block[Any]) -> list[Line]:
    """``block.lines`` with the shortcut runs split into lines (where each line's content starts:
    the construct's ``Shortcuts.line_start``), at most :data:`MAX_LEAF_LINES` of them. The block
    keeps the split lines, and only entries added since the last split are split again, so a block
    asked line by line stays linear."""
    if block.runs < 0:
        return block.lines
    view = s.view
    line_start = block.construct.shortcuts.line_start
    lines = block.lines  # split in place from the first run on
    entries = lines[block.runs :]
    del lines[block.runs :]
    for first, start, end in entries:
        if first >= 0:
            lines.append((first, start, end))
            continue
        line_no = -1 - first
        while start < end and len(lines) < MAX_LEAF_LINES:
            eol = view.find("\n", start)
            content_end = eol - 1 if eol > start and view[eol - 1] == "\r" else eol
            content_start = start if line_start is None else line_start(view, start, content_end, block)
            lines.append((line_no, content_start, content_end))
            line_no += 1
            start = eol + 1
    block.runs = -1
    return lines


def take(s: State, block: Block[Any], end: int) -> None:
    """Give the whole lines from ``s.pos`` to ``end`` to ``block`` and move past them."""
    count = s.view.count("\n", s.pos, end)
    if block.runs < 0:
        block.runs = len(block.lines)
    block.add((-1 - (s.line_no + 1), s.pos, end), count)
    s.line_no += count
    s.pos = end
