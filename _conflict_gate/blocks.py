"""Block structure of a Markdown page, as a reader's renderer builds it (no I/O).

Implements phase 1 of the CommonMark 0.31.2 parsing strategy (the spec's
appendix "A parsing strategy") with the GitHub Flavored Markdown extensions
readers use: tables and task-list items, and YAML (``---``) or TOML (``+++``)
front matter at the very start of a page. One construct per rule, in spec
order below; each rule's docstring names its spec section. The rules that
may start a block on a line are tried in the order of :data:`BLOCK_STARTS`.

:func:`parse_blocks` builds no syntax tree. The gate only needs the leaf
blocks that hold certain lines (those with an at sign), so it returns a
:class:`Leaf` for each leaf block that holds a *watched* offset, and stops
reading once every watched line's block is complete. Lines are CommonMark
lines: they end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (spec 2.1), and are
numbered from 0 here; offsets count code points.

Speed: the rules walk lines one at a time, but common stretches are taken
by one regular-expression match each: a top-level run of blank, ATX heading
and plain paragraph lines; a paragraph's plain continuation lines; a
top-level fenced code, indented code or HTML block up to its end. Each
shortcut takes exactly the lines the rules would take (``fast=False`` turns
them off; the tests compare both). A line costs at most its length plus the
containers it opens or closes, and containers nested deeper than
:data:`MAX_DEPTH` are not opened (the block is marked as in doubt), so the
time grows linearly with the text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable, Final, NamedTuple, Sequence

from .inlines import html_tag_end

__all__ = ["BLOCK_STARTS", "Leaf", "MAX_DEPTH", "MAX_LEAF_LINES", "line_view", "parse_blocks", "table_cells"]

#: Containers (block quotes, list items) nested deeper than this are not opened.
MAX_DEPTH: Final = 64
#: Lines kept per leaf block; the gate gives up on a longer block that holds a watched offset.
MAX_LEAF_LINES: Final = 20_000


class Leaf(NamedTuple):
    """A leaf block that holds a watched offset.

    ``kind``: ``paragraph``, ``heading``, ``table``, ``fenced_code``,
    ``indented_code``, ``html_block`` (``detail`` is its spec kind, 1-7),
    ``front_matter`` or ``link_definition`` (the definitions that open a
    paragraph, spec 4.7). ``lines`` holds ``(line, start, end)`` per source
    line, offsets into the text, ``end`` before the line ending: for
    paragraphs and headings the content after container markers and
    indentation; for the other kinds the line after container markers (a
    fence's info string included). ``containers`` lists the enclosing block
    quotes and list items, outermost first, as ``(kind, first line)``; empty
    means top level. ``doubt`` is ``(line, why)`` when the gate cannot be
    sure how a reader sees this block. ``end`` is the offset where the block
    ends; ``gave_up`` the line after which ``lines`` stops, for a block longer
    than :data:`MAX_LEAF_LINES` lines (``None`` otherwise).
    """

    kind: str
    lines: tuple[tuple[int, int, int], ...]
    containers: tuple[tuple[str, int], ...]
    detail: int | None = None
    doubt: tuple[int, str] | None = None
    end: int = 0
    gave_up: int | None = None


def line_view(text: str) -> str:
    """``text`` with each lone ``\\r`` made ``\\n``, and a final ``\\n`` added if missing.

    Offsets below ``len(text)`` mean the same in both, so the view gives
    CommonMark lines to ``str.find("\\n")`` while its offsets index ``text``.
    """
    if "\r" in text:
        text = _LONE_CR.sub("\n", text)
    return text if text.endswith("\n") else text + "\n"


_LONE_CR: Final = re.compile(r"\r(?!\n)")

# --------------------------------------------------------------------------
# Line patterns, matched at a line's first non-space character unless said otherwise.

#: 4.1: a character other than the marker, spaces and tabs (its absence makes a thematic break).
_NOT_BREAK: Final = {marker: re.compile(rf"[^ \t{re.escape(marker)}]") for marker in "*-_"}


def _is_thematic_break(line: str, at: int) -> bool:
    """4.1: from ``at``, three or more of one of ``*``, ``-``, ``_``, and only spaces or tabs besides."""
    marker = line[at:at + 1]
    if marker not in _NOT_BREAK or _NOT_BREAK[marker].search(line, at):
        return False
    return line.count(marker, at) >= 3
#: 4.2: one to six ``#``, then a space, a tab or the end of the line.
_ATX_OPEN: Final = re.compile(r"#{1,6}(?:[ \t]|\Z)")
#: 4.3: a run of ``=`` or of ``-``, then only spaces or tabs.
_SETEXT_UNDERLINE: Final = re.compile(r"(?:=+|-+)[ \t]*\Z")
#: 4.5: three or more backticks (no backtick after them on the line) or three or more tildes.
_FENCE_OPEN: Final = re.compile(r"`{3,}(?!.*`)|~{3,}")
_FENCE_CLOSE: Final = re.compile(r"(?:`{3,}|~{3,})(?=[ \t]*\Z)")
#: 5.2: a bullet list marker or an ordered list marker (1-9 digits).
_BULLET: Final = re.compile(r"[*+\-]")
_ORDERED: Final = re.compile(r"([0-9]{1,9})([.)])")
#: First characters that may start a block other than a paragraph (commonmark.js's
#: reMaybeSpecial, plus ``|`` and ``:`` for a GFM table's delimiter row).
_MAYBE_SPECIAL: Final = frozenset("#`~*+_=<>0123456789-|:")

#: 4.6: block tag names of HTML block kind 6.
_BLOCK_TAG_NAMES: Final = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|"
    "head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|"
    "p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul")
#: 4.6: start conditions of HTML block kinds 1-6 (kind 7, a whole tag alone on its line, is
#: checked with the inline tag scanner, which is linear on any line).
_HTML_STARTS: Final = (
    re.compile(r"<(?:pre|script|style|textarea)(?:[ \t>]|\Z)", re.IGNORECASE),
    re.compile(r"<!--"),
    re.compile(r"<\?"),
    re.compile(r"<![A-Za-z]"),
    re.compile(r"<!\[CDATA\["),
    re.compile(rf"</?(?:{_BLOCK_TAG_NAMES})(?:[ \t]|/?>|\Z)", re.IGNORECASE),
)
#: 4.6: end conditions of kinds 1-5 (a line containing them); kinds 6 and 7 end before a blank line.
_HTML_ENDS: Final = (
    re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE),
    re.compile(r"-->"),
    re.compile(r"\?>"),
    re.compile(r">"),
    re.compile(r"\]\]>"),
)
_KIND_1_OPEN_TAG: Final = re.compile(r"<(?:pre|script|style|textarea)(?![A-Za-z0-9\-])", re.IGNORECASE)

#: 4.10 (GFM tables as markdown-it reads them): a delimiter row and its cells.
_DELIMITER_ROW: Final = re.compile(r"[|\-:][|\-: \t]*\Z")
_DELIMITER_CELL: Final = re.compile(r":?-+:?\Z")

# Shortcuts over the view (every line ends with "\n"; a CRLF line keeps its "\r").
#: A first character that can neither start a block other than a paragraph nor
#: continue a container: not blank, no marker, no digits ending in "." or ")", not "["
#: (a link reference definition, which markdown-it reads as a block of its own).
_PLAIN: Final = r"(?:[^\s>#+*\-_=`~<|:\[0-9]|[0-9]{1,9}(?![0-9.)])|[0-9]{10})"
_CONTINUATION_LINE: Final = rf"[ \t]*(?:{_PLAIN}|\[)[^\n]*\n"
#: Plain lines continue an open paragraph, whatever containers are open (matched or lazily).
_CONTINUATION_RUN: Final = re.compile(rf"(?:{_CONTINUATION_LINE})*")
_TOP_BLOCKS: Final = (rf"(?:[ \t]*\r?\n|[ ]{{0,3}}#{{1,6}}(?=[ \t\r\n])[^\n|]*\n"
                      rf"|(?P<para>[ ]{{0,3}}{_PLAIN}[^\n]*\n(?:{_CONTINUATION_LINE})*))*")
#: A paragraph's first line at top level (plain) and its continuation lines.
_PARAGRAPH_RUN: Final = re.compile(rf"[ ]{{0,3}}{_PLAIN}[^\n]*\n(?:{_CONTINUATION_LINE})*")
_BLANK_LINE: Final = re.compile(r"[ \t]*\r?\n")
#: At top level with nothing open: blank lines, ATX headings (without a ``|``: see _table_first),
#: and paragraphs that start
#: plain (not with "[", which may open a link reference definition).
_TOP_RUN: Final = re.compile(_TOP_BLOCKS)
#: The same after an open top-level paragraph, whose continuation lines come first.
_TOP_RUN_AFTER_PARAGRAPH: Final = re.compile(rf"(?P<open>(?:{_CONTINUATION_LINE})*)" + _TOP_BLOCKS)
#: A top-level indented code block's lines: four columns of indentation, or blank.
_INDENTED_RUN: Final = re.compile(r"(?:(?: {4}| {0,3}\t)[^\n]*\n|[ \t]*\r?\n)*")
#: A run pattern is matched over at most this many characters at a time: Python's ``re`` keeps
#: state per repetition of a group, so an unbounded run over a huge block would hold memory
#: in proportion to its lines.
_RUN_CHUNK: Final = 1 << 15
_BLANK_AFTER_NEWLINE: Final = re.compile(r"\n[ \t]*\r?(?=\n)")


def _next_blank_line(view: str, pos: int) -> int:
    """Start of the first blank line at or after line start ``pos``, or ``len(view)``."""
    if pos < len(view) and view[pos] in " \t\r\n" and not view[pos:view.find("\n", pos)].strip(" \t\r"):
        return pos
    found = _BLANK_AFTER_NEWLINE.search(view, max(pos - 1, 0))
    return len(view) if found is None else found.start() + 1


def _closing_fence(view: str, pos: int, char: str, length: int) -> int:
    """Start of the first line at or after ``pos`` that closes a top-level fence (4.5), or -1.

    A closing fence: 0-3 spaces, ``length`` or more ``char``, then only spaces
    or tabs. Found with ``str.find`` on the run, then checked: fast on any text.
    """
    run = char * 3
    i = view.find(run, pos)
    while i != -1:
        line_start = view.rfind("\n", 0, i) + 1
        if line_start >= pos and i - line_start <= 3 and not view[line_start:i].strip(" "):
            j = i
            while j < len(view) and view[j] == char:
                j += 1
            line_end = view.find("\n", j)
            if j - i >= length and not view[j:line_end].strip(" \t\r"):
                return line_start
            i = view.find(run, j)
        else:
            i = view.find(run, i + 3)
    return -1


# --------------------------------------------------------------------------
# Parser state


class _Block:
    """An open block.

    Containers: ``document``, ``block_quote``, ``list`` (``data``: its marker
    type), ``list_item`` (``data``: ``(marker offset, padding)``). Leaves that
    take lines: ``paragraph``, ``fenced_code`` (``data``: ``(char, length,
    indentation)``), ``indented_code``, ``html_block`` (``data``: kind 1-7)
    and ``table``. ``lines`` holds ``(line, start, end)`` per line, or
    ``(-1 - first line, start, end)`` for a run of whole lines a shortcut
    took (split into lines only if the block is watched).
    """

    __slots__ = ("kind", "line", "lines", "containers", "data", "empty", "doubt", "count", "last", "runs")

    def __init__(self, kind: str, line: int, containers: tuple[tuple[str, int], ...],
                 data: object = None, doubt: tuple[int, str] | None = None) -> None:
        self.kind = kind
        self.line = line
        self.lines: list[tuple[int, int, int]] = []
        self.containers = containers
        self.data = data
        self.empty = True  # a list item with no child block yet (5.2: at most one blank line first)
        self.doubt = doubt
        self.count = 0  # lines taken, kept or not
        self.last: tuple[int, int, int] | None = None  # the last line taken, always kept
        self.runs = -1  # index of the first run a shortcut took, if any (see _lines_of)

    def add(self, entry: tuple[int, int, int], lines: int = 1) -> None:
        """Take ``lines`` lines (one, or a run); keep them while the block is under :data:`MAX_LEAF_LINES`."""
        if self.count < MAX_LEAF_LINES:
            self.lines.append(entry)
        self.count += lines
        self.last = entry


@dataclass(frozen=True)
class _Reader:
    """How a reader's renderer reads a page. The gate reads as :data:`_GITHUB` does
    and checks the blocks it needs against the other readings where they can differ."""

    tables: bool = True        # GFM tables (4.10)
    front_matter: bool = True  # YAML/TOML front matter
    markdown_it: bool = False  # markdown-it's link definitions and lazy lines


_GITHUB: Final = _Reader()
#: Variant readings, each tried only when the page has what it reads differently.
_VARIANTS: Final = {
    "front_matter": _Reader(front_matter=False),
    "tables": _Reader(tables=False),
    "markdown_it": _Reader(markdown_it=True),
}
#: Why a block is in doubt when GitHub may read it as part of a footnote.
FOOTNOTE_DOUBT: Final = "GitHub reads a footnote definition here and shows it at the end of the page"
_VARIANT_DOUBT: Final = {
    "front_matter": "a reader without front matter support reads the lines after it differently",
    "tables": "a reader without GFM tables reads this differently",
    "markdown_it": "readers differ here (markdown-it takes link definitions and less-indented "
                   "lazy lines as new blocks)",
    "footnotes": FOOTNOTE_DOUBT,
}
#: 4.7 as GitHub extends it: a footnote definition's first line; and, after blank lines, the next
#: line that is not blank (group 1: four or more columns of indentation).
_FOOTNOTE: Final = re.compile(r"\[\^[^\]\s]+\]:")
_NEXT_NONBLANK: Final = re.compile(r"(?:[ \t]*\r?\n)*((?: {4}| {0,3}\t)?)(?=[^\n])")

_TAKES_LINES: Final = frozenset({"paragraph", "fenced_code", "indented_code", "html_block", "table"})
#: Leaves whose lines are taken as they are, whatever they look like.
_RAW_LEAVES: Final = frozenset({"fenced_code", "indented_code", "html_block"})
_NESTING: Final = frozenset({"block_quote", "list_item"})


class _State:
    """One document's parse; every rule reads and advances it.

    Per line, as in the spec's parsing strategy: ``offset`` (code points
    into ``line``) and ``column`` (tab stops of 4) of the next unconsumed
    character, ``partial_tab`` when a tab is consumed in part, and, after
    :meth:`find_next_nonspace`, ``next_nonspace``, ``indent``, ``indented``
    and ``blank``. ``pos`` is the line's start in the view, ``line_end`` the
    end of its content (before ``\\r\\n`` or ``\\n``).
    """

    def __init__(self, text: str, watch: Sequence[int], reader: _Reader) -> None:
        self.view = line_view(text)
        self.watch = watch
        self.reader = reader
        self.openers: list[int] | None = None  # found on first use (see _openers)
        self.opener_ends: dict[int, int] = {}  # opener line start -> see _opener_end
        #: limit -> the lowest offset from which _last_restart found no restart point up to it
        self.no_restart: dict[int, int] = {}
        #: variant name -> first line where that reading may differ (seen while reading as GitHub)
        self.variants: dict[str, list[int]] = {}
        #: ``(line, end, variant)``: from ``line`` up to view offset ``end`` a reader may read the
        #: lines otherwise: markdown-it as a link definition's (see _setext_heading), GitHub as a
        #: footnote (see _footnotes)
        self.unsure: list[tuple[int, int, str]] = []
        self.leaves: list[Leaf] = []
        self.stack: list[_Block] = [_Block("document", 0, ())]
        self.depth = 0  # open block quotes and list items
        self.pos = 0
        self.line_no = -1
        self.line = ""
        self.line_end = 0
        self.offset = self.column = 0
        self.partial_tab = False
        self.next_nonspace = self.next_nonspace_column = self.indent = 0
        self.indented = self.blank = False
        self.all_closed = True
        self.old_tip = self.last_matched = self.stack[0]

    # ---- moving along the line

    def find_next_nonspace(self) -> None:
        line, i, column = self.line, self.offset, self.column
        end = len(line)
        while i < end:
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
        return self.line[index:index + 1]

    @property
    def tip(self) -> _Block:
        return self.stack[-1]

    # ---- blocks

    def add_child(self, kind: str, data: object = None) -> _Block:
        """Open a ``kind`` block on this line, first closing blocks that cannot hold it."""
        while not _can_contain(self.stack[-1].kind, kind):
            self.close()
        parent = self.stack[-1]
        parent.empty = False
        containers = parent.containers
        if parent.kind in _NESTING:
            containers = containers + ((parent.kind, parent.line),)
        block = _Block(kind, self.line_no, containers, data, parent.doubt)
        self.stack.append(block)
        if kind in _NESTING:
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
        if block.kind in _NESTING:
            self.depth -= 1
        elif block.kind in _TAKES_LINES:
            _finalize(self, block)

    def add_line(self) -> None:
        """Add the rest of the line, from ``offset``, to the tip."""
        self.stack[-1].add((self.line_no, self.pos + self.offset, self.line_end))

    def note_variant(self, name: str, line: int) -> None:
        """Remember that a reader reading as ``name`` may see this page differently from ``line`` on."""
        lines = self.variants.setdefault(name, [])
        if not lines or lines[-1] != line:
            lines.append(line)

    def watched(self, start: int, end: int) -> bool:
        """True when a watched offset lies in ``start..end``."""
        i = bisect.bisect_left(self.watch, start)
        return i < len(self.watch) and self.watch[i] <= end

    def emit(self, kind: str, block: _Block, lines: Sequence[tuple[int, int, int]],
             detail: int | None = None, end: int | None = None) -> None:
        """Report a finished leaf if it holds a watched offset (``end``: where it ends, if past ``lines``)."""
        if not lines:
            return
        end = lines[-1][2] if end is None else end
        if self.watched(lines[0][1], end):
            gave_up = lines[-1][0] if end > lines[-1][2] else None
            self.leaves.append(Leaf(kind, tuple(lines), block.containers, detail, block.doubt, end, gave_up))


def _can_contain(parent: str, child: str) -> bool:
    if parent == "list":
        return child == "list_item"
    return parent in ("document", "block_quote", "list_item") and child != "list_item"


def _lines_of(s: _State, block: _Block) -> list[tuple[int, int, int]]:
    """``block.lines`` with the shortcut runs split into lines (paragraph lines without indentation),
    at most :data:`MAX_LEAF_LINES` of them. The block keeps the split lines, and only entries
    added since the last split are split again, so a block asked line by line stays linear."""
    if block.runs < 0:
        return block.lines
    view, kind = s.view, block.kind
    fence_indent = block.data[2] if kind == "fenced_code" else 0  # type: ignore[index]
    lines = block.lines  # split in place from the first run on
    entries = lines[block.runs:]
    del lines[block.runs:]
    for first, start, end in entries:
        if first >= 0:
            lines.append((first, start, end))
            continue
        line_no = -1 - first
        while start < end and len(lines) < MAX_LEAF_LINES:
            eol = view.find("\n", start)
            content_end = eol - 1 if eol > start and view[eol - 1] == "\r" else eol
            content_start = start
            if kind == "paragraph":  # leading whitespace is stripped (4.8)
                while content_start < content_end and view[content_start] in " \t":
                    content_start += 1
            elif kind in ("indented_code", "fenced_code"):
                content_start = _code_line_start(view, start, content_end, kind, fence_indent)
            lines.append((line_no, content_start, content_end))
            line_no += 1
            start = eol + 1
    block.runs = -1
    return lines


def _code_line_start(view: str, start: int, end: int, kind: str, fence_indent: int) -> int:
    """Where a top-level code line's content starts, as :func:`_continue` consumes it: four
    columns of an indented code line (4.4; a blank one to its end), up to ``fence_indent``
    columns of a fenced code line (4.5; a tab consumed in part stays)."""
    if kind == "indented_code":
        column, i = 0, start
        while column < 4 and i < end and view[i] in " \t":
            column += 1 if view[i] == " " else 4 - column % 4
            i += 1
        return i if column >= 4 else end  # fewer than four columns: a blank line
    column, i = 0, start
    while column < fence_indent and i < end and view[i] in " \t":
        if view[i] == " ":
            i += 1
            column += 1
        else:
            to_tab = 4 - column % 4
            column += 1
            if to_tab == 1:
                i += 1
    return i


def _finalize(s: _State, block: _Block) -> None:
    """A leaf is closed: report it if it holds a watched offset (paragraphs: definitions first, 4.7)."""
    if not block.lines:
        return
    view, first, last = s.view, block.lines[0], block.last
    end = last[2]  # type: ignore[index]
    if last[0] < 0:  # type: ignore[index]  # a run: its last line's text ends before its line ending
        end -= view[end - 1:end] == "\n"
        end -= view[end - 1:end] == "\r"
    opens_with_definition = block.kind == "paragraph" and view[first[1]:first[1] + 1] == "["
    if not (opens_with_definition or s.watched(first[1], end)):
        return
    lines = _lines_of(s, block)
    if block.count > MAX_LEAF_LINES or len(lines) >= MAX_LEAF_LINES:
        s.emit(block.kind, block, lines, block.data if block.kind == "html_block" else None, end=end)
        return
    if block.kind == "paragraph":
        definitions, rest = _split_definitions(s.view, lines) if opens_with_definition else ([], lines)
        if opens_with_definition and len(lines) > 1:
            s.note_variant("markdown_it", lines[1][0])  # markdown-it reads definitions line by line
        if opens_with_definition and len(lines) > _DEFINITION_LINES:  # read no further as markdown-it
            s.unsure.append((lines[_DEFINITION_LINES][0], end + 1, "markdown_it"))
        s.emit("link_definition", block, definitions)
        s.emit("paragraph", block, rest)
    else:
        s.emit(block.kind, block, lines, block.data if block.kind == "html_block" else None)


#: markdown-it's reading of link definitions is followed over at most this many lines of a
#: paragraph; the lines after are in doubt (each line re-reads the paragraph so far).
_DEFINITION_LINES: Final = 64


def _markdown_it_definitions(s: _State) -> str:
    """markdown-it's reading of a line after a paragraph that opens with ``[``.

    markdown-it reads one link definition as a block of its own, taking the
    lines that follow only while they are part of that definition. Returns
    ``"close"`` when the paragraph is only definitions and this line does not
    extend the last one (the line then starts afresh), ``"absorb"`` when this
    line completes a definition the spec would not see (it belongs to the
    definition, whatever it looks like), else ``""``.
    """
    lines = _lines_of(s, s.stack[-1])
    view = s.view
    if view[lines[0][1]:lines[0][1] + 1] != "[" or len(lines) > _DEFINITION_LINES:
        return ""  # past the bound the GitHub reading puts the paragraph in doubt (_finalize)
    content = "\n".join(view[a:b] for _, a, b in lines)
    starts = _definition_starts(content)
    new = s.line.lstrip(" \t>")
    extended = content + "\n" + new
    if starts and starts[-1][1] >= len(content):
        end = _link_definition(extended, starts[-1][0])
        return "close" if end <= len(content) + 1 else ""
    if _MARKDOWN_IT_TERMINATES.match(new) or not new.strip():
        return ""
    starts_after = _definition_starts(extended)
    return "absorb" if starts_after and starts_after[-1][1] >= len(extended) else ""


def _definition_starts(content: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each link definition opening ``content`` (see :func:`_split_definitions`)."""
    found = []
    pos = 0
    while pos < len(content) and content[pos] == "[":
        end = _link_definition(content, pos)
        if end < 0:
            break
        found.append((pos, end))
        pos = end
    return found


#: Lines markdown-it never takes into a link definition (its terminators: fence, quote, break, list, HTML, heading).
_MARKDOWN_IT_TERMINATES: Final = re.compile(
    r"(?:`{3,}|~{3,}|>|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z|[*+\-](?:[ \t]|\Z)"
    r"|[0-9]{1,9}[.)](?:[ \t]|\Z)|#{1,6}(?:[ \t]|\Z)|<)")


# --------------------------------------------------------------------------
# Leaf blocks (spec section 4)


def _thematic_break(s: _State, container: _Block) -> int:
    """4.1 Thematic breaks: three or more ``*``, ``-`` or ``_`` (spaces or tabs between), 0-3 spaces in.

    Tried after setext headings (a ``---`` under a paragraph is an underline)
    and before list items (``* * *`` is a break, not a list).
    """
    if s.indented or not _is_thematic_break(s.line, s.next_nonspace):
        return 0
    s.close_unmatched()
    s.add_child("thematic_break")
    s.stack.pop()
    s.offset = len(s.line)
    return 2


def _atx_heading(s: _State, container: _Block) -> int:
    """4.2 ATX headings: 1-6 ``#`` then a space, a tab or the end of the line; one line."""
    if s.indented or not _ATX_OPEN.match(s.line, s.next_nonspace):
        return 0
    s.close_unmatched()
    heading = s.add_child("heading")
    s.stack.pop()
    s.emit("heading", heading, [(s.line_no, s.pos + s.next_nonspace, s.line_end)])
    s.offset = len(s.line)
    return 2


def _setext_heading(s: _State, container: _Block) -> int:
    """4.3 Setext headings: a ``=`` or ``-`` underline below a paragraph this line continues (not lazily).

    The paragraph's link reference definitions (4.7) come off first; a
    paragraph that held only definitions has no text to become a heading.
    """
    if s.indented or container.kind != "paragraph" or not _SETEXT_UNDERLINE.match(s.line, s.next_nonspace):
        return 0
    s.close_unmatched()
    lines = _lines_of(s, container)
    definitions, text = _split_definitions(s.view, lines)
    if s.view[lines[0][1]:lines[0][1] + 1] == "[":
        s.note_variant("markdown_it", lines[1][0] if len(lines) > 1 else s.line_no)
        # markdown-it reads a definition over the underline, up to a blank line: a title
        # may run on over the lines after it, which the spec shows.
        if not s.unsure or s.unsure[-1][1] <= s.pos:
            s.unsure.append((s.line_no, _next_blank_line(s.view, s.pos), "markdown_it"))
    if not text:
        return 0
    s.stack.pop()
    s.emit("link_definition", container, definitions)
    s.emit("heading", container, text)
    s.offset = len(s.line)
    return 2


def _indented_code(s: _State, container: _Block) -> int:
    """4.4 Indented code blocks: 4 or more columns of indentation; cannot interrupt a paragraph."""
    if not s.indented or s.stack[-1].kind == "paragraph" or s.blank:
        return 0
    s.advance_offset(4, True)
    s.close_unmatched()
    s.add_child("indented_code")
    return 2


def _fenced_code(s: _State, container: _Block) -> int:
    """4.5 Fenced code blocks: 3+ backticks (no backtick in the info string) or 3+ tildes, 0-3 spaces in.

    The info string stays on the block's first line (it is hidden from a reader).
    """
    if s.indented:
        return 0
    opener = _FENCE_OPEN.match(s.line, s.next_nonspace)
    if not opener:
        return 0
    run = opener.group()
    s.close_unmatched()
    s.add_child("fenced_code", (run[0], len(run), s.indent))
    s.advance_next_nonspace()
    return 2


def _html_block(s: _State, container: _Block) -> int:
    """4.6 HTML blocks: seven start conditions (:data:`_HTML_STARTS`); kind 7 cannot interrupt a paragraph."""
    if s.indented or s.char_at(s.next_nonspace) != "<":
        return 0
    kind = next((k for k, start in enumerate(_HTML_STARTS, 1) if start.match(s.line, s.next_nonspace)), 7)
    if kind == 7 and (container.kind == "paragraph" or _KIND_1_OPEN_TAG.match(s.line, s.next_nonspace)
                      or (not s.all_closed and not s.blank and s.stack[-1].kind == "paragraph")
                      or not _whole_tag_line(s.line, s.next_nonspace)):
        return 0
    s.close_unmatched()
    s.add_child("html_block", kind)  # the indentation is part of the block
    return 2


def _whole_tag_line(line: str, at: int) -> bool:
    """4.6 kind 7: an open or closing tag (6.6) on this line, then only spaces or tabs."""
    if line.startswith("<!", at) or line.startswith("<?", at) or "\n" in line:
        return False
    end = html_tag_end(line, at)
    return end > 0 and not line[end:].strip(" \t")


def _html_block_ends(block: _Block, text: str) -> bool:
    """4.6: does this line meet the block's end condition (kinds 1-5)?"""
    kind = block.data
    return isinstance(kind, int) and kind <= 5 and _HTML_ENDS[kind - 1].search(text) is not None


def _split_definitions(view: str, lines: Sequence[tuple[int, int, int]]
                       ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """4.7 Link reference definitions opening a paragraph: ``(their lines, the other lines)``.

    ``[label]: destination "title"``, the parts as in 6.3 (label) and 6.7
    (destination, title); a definition may span lines and only whole lines
    are definitions. A title that fails leaves a definition that ends with
    its destination, when that ends a line.
    """
    if not lines or view[lines[0][1]:lines[0][1] + 1] != "[":
        return [], list(lines)
    content = "\n".join(view[start:end] for _, start, end in lines)
    pos = 0
    while pos < len(content) and content[pos] == "[":
        end = _link_definition(content, pos)
        if end < 0:
            break
        pos = end
    taken = content.count("\n", 0, pos) + (1 if pos == len(content) else 0)
    return list(lines[:taken]), list(lines[taken:])


def _link_definition(s: str, pos: int) -> int:
    """One definition at ``s[pos] == "["``: the offset after its line ending (or the end), or -1."""
    label_end = _link_label(s, pos)
    if label_end < 0 or s[label_end:label_end + 1] != ":":
        return -1
    start = _skip_space(s, label_end + 1)
    destination_end = _link_destination(s, start)
    if destination_end < 0:
        return -1
    plain_end = _line_end_after_space(s, destination_end)
    title_start = _skip_space(s, destination_end)
    if title_start > destination_end:
        title_end = _link_title(s, title_start)
        if title_end >= 0:
            end = _line_end_after_space(s, title_end)
            if end >= 0:
                return end
    return plain_end


def _skip_space(s: str, i: int) -> int:
    """Skip spaces and tabs, with at most one line ending among them."""
    newline = False
    while i < len(s):
        ch = s[i]
        if ch == "\n" and not newline:
            newline = True
        elif ch not in " \t":
            break
        i += 1
    return i


def _line_end_after_space(s: str, i: int) -> int:
    """The offset after the line ending when only spaces or tabs follow ``i`` on its line, else -1."""
    while i < len(s) and s[i] in " \t":
        i += 1
    if i == len(s):
        return i
    return i + 1 if s[i] == "\n" else -1


def _is_escape(s: str, i: int) -> bool:
    return s[i] == "\\" and i + 1 < len(s) and s[i + 1] in _ASCII_PUNCTUATION


def _link_label(s: str, pos: int) -> int:
    """6.3 Link label: ``[``, at most 999 characters without unescaped brackets, not blank, ``]``."""
    i = pos + 1
    blank = True
    while i < len(s) and i - pos - 1 <= 999:
        ch = s[i]
        if _is_escape(s, i):
            blank = False
            i += 2
            continue
        if ch == "[":
            return -1
        if ch == "]":
            return -1 if blank or i - pos - 1 > 999 else i + 1
        if ch not in " \t\n":
            blank = False
        i += 1
    return -1


def _link_destination(s: str, i: int) -> int:
    """6.7 Link destination: ``<...>`` on one line, or a nonempty run without spaces or
    controls whose parentheses balance (at most 32 deep, as reference implementations)."""
    if s[i:i + 1] == "<":
        j = i + 1
        while j < len(s):
            if _is_escape(s, j):
                j += 2
                continue
            ch = s[j]
            if ch in "\n<":
                return -1
            if ch == ">":
                return j + 1
            j += 1
        return -1
    depth, j = 0, i
    while j < len(s):
        if _is_escape(s, j):
            j += 2
            continue
        ch = s[j]
        if ch == "(":
            depth += 1
            if depth > 32:
                return -1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch <= " " or ch == "\x7f":
            break
        j += 1
    return -1 if depth or j == i else j


def _link_title(s: str, i: int) -> int:
    """6.7 Link title: ``"..."``, ``'...'`` or ``(...)`` (escaped delimiters inside); offset after it, or -1."""
    opener = s[i:i + 1]
    closer = {'"': '"', "'": "'", "(": ")"}.get(opener)
    if closer is None:
        return -1
    j = i + 1
    while j < len(s):
        if _is_escape(s, j):
            j += 2
            continue
        ch = s[j]
        if ch == closer:
            return j + 1
        if opener == "(" and ch == "(":
            return -1
        j += 1
    return -1


_ASCII_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _table(s: _State, container: _Block) -> int:
    """4.10 Tables (GFM), as markdown-it reads them: the paragraph's last line is a header row
    when this line, continuing the same containers, is a delimiter row.

    Delimiter row: only ``|``, ``-``, ``:``, spaces and tabs, not starting
    with ``-`` and a space; cells ``:?-+:?``. Header row: holds a ``|``, as
    many cells, not indented 4 or more. The lines before the header stay a
    paragraph. Rows then continue the table (see :func:`_continue`).
    """
    if s.indented or container.kind != "paragraph" or not container.lines or not s.reader.tables \
            or container.count > MAX_LEAF_LINES:
        return 0
    rest = s.line[s.next_nonspace:]
    if len(rest) < 2 or not _DELIMITER_ROW.match(rest) or (rest[0] == "-" and rest[1] in " \t"):
        return 0
    columns = rest.split("|")
    count = 0
    for i, cell in enumerate(columns):
        cell = cell.strip(" \t")
        if not cell:
            if 0 < i < len(columns) - 1:
                return 0
        elif not _DELIMITER_CELL.match(cell):
            return 0
        else:
            count += 1
    lines = _lines_of(s, container)
    header_no, header_start, header_end = lines[-1]
    header = s.view[header_start:header_end].rstrip(" \t")
    if "|" not in header and count == 1 and header_no == s.line_no - 1 and s.reader is _GITHUB \
            and ("|" in rest or ":" in rest):  # a plain "---" is a setext underline there too
        # GitHub (cmark-gfm) makes a one-column table of a header row without a pipe
        s.unsure.append((header_no, _next_blank_line(s.view, s.pos), "tables"))
    if header_no != s.line_no - 1 or "|" not in header or len(table_cells(header)) != count \
            or (len(lines) > 1 and _header_indent(s) >= 4):  # a first line is never indented code
        return 0
    s.note_variant("tables", header_no)
    s.close_unmatched()
    s.stack.pop()
    if len(lines) > 1:
        paragraph = _Block("paragraph", container.line, container.containers, None, container.doubt)
        for line in lines[:-1]:
            paragraph.add(line)
        _finalize(s, paragraph)
    table = s.add_child("table", count)
    table.line = header_no
    table.add(lines[-1])
    s.advance_next_nonspace()
    return 2


#: A line that starts a block quote, a list item or an ATX heading, and a delimiter-row-shaped line.
_MARKER_FIRST: Final = re.compile(r" {0,3}(?:>|[*+\-][ \t]|[0-9]{1,9}[.)][ \t]|#{1,6}[ \t])")
_DELIMITER_LIKE: Final = re.compile(r"[ \t]*[|:\-][|:\- \t]*-[|:\- \t]*\r?\n")


def _table_first(s: _State) -> None:
    """markdown-it tries its table rule before block quotes, lists and headings: a line that opens
    one of them and holds a ``|``, above a delimiter row, is a table's header row to markdown-it
    (GitHub and CommonMark read the container). The lines from here to a blank line are in doubt."""
    if not _MARKER_FIRST.match(s.line):
        return
    next_start = s.view.find("\n", s.pos) + 1
    if next_start and _DELIMITER_LIKE.match(s.view, next_start):
        if not s.unsure or s.unsure[-1][1] <= s.pos:
            s.unsure.append((s.line_no, _next_blank_line(s.view, next_start), "markdown_it"))


def _header_indent(s: _State) -> int:
    """Columns of indentation of the previous line (the header row) inside its containers.

    Reads that line's container markers again as :func:`_continue` does; a
    line that did not continue every container (a lazy line) counts as
    indented, so it never becomes a header row.
    """
    saved = (s.line, s.offset, s.column, s.partial_tab)
    end = s.pos - 1
    start = s.view.rfind("\n", 0, end) + 1
    s.line = s.view[start:end - 1 if end > start and s.view[end - 1] == "\r" else end]
    s.offset = s.column = 0
    s.partial_tab = False
    indent = 4
    for block in s.stack[1:-1]:
        s.find_next_nonspace()
        if _continue(s, block) != 0:
            break
    else:
        s.find_next_nonspace()
        indent = s.indent
    s.line, s.offset, s.column, s.partial_tab = saved
    return indent


def table_cells(row: str) -> list[str]:
    """A table row's cells, split as markdown-it splits them: at each ``|`` not escaped by ``\\``
    (the ``\\`` stays in the cell), without a leading and a trailing empty cell."""
    cells: list[str] = []
    current = ""
    last = 0
    escaped = False
    for i, ch in enumerate(row):
        if ch == "|":
            if not escaped:
                cells.append(current + row[last:i])
                current = ""
                last = i + 1
            else:
                current += row[last:i - 1]
                last = i
        escaped = ch == "\\"
    cells.append(current + row[last:])
    if cells and cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return cells


def _ends_table(s: _State) -> bool:
    """4.10: a table ends at a blank line, an indented line, or a line that starts another block.

    markdown-it's table rule stops at the block quote terminators: a fence,
    a block quote, a thematic break, a list item, an HTML block of kinds 1-6
    and an ATX heading.
    """
    if s.blank or s.indented:
        return True
    at = s.next_nonspace
    line = s.line
    if _FENCE_OPEN.match(line, at) or line[at] == ">" or _is_thematic_break(line, at) \
            or _ATX_OPEN.match(line, at):
        return True
    marker = _BULLET.match(line, at) or _ORDERED.match(line, at)
    if marker and (marker.end() == len(line) or line[marker.end()] in " \t"):
        return True
    return line[at] == "<" and any(start.match(line, at) for start in _HTML_STARTS)


# --------------------------------------------------------------------------
# Container blocks (spec section 5)


def _block_quote(s: _State, container: _Block) -> int:
    """5.1 Block quotes: ``>`` after 0-3 spaces, then one optional space or tab."""
    if s.indented or s.char_at(s.next_nonspace) != ">":
        return 0
    if s.depth >= MAX_DEPTH:
        return _too_deep(s)
    s.advance_next_nonspace()
    s.advance_offset(1, False)
    if s.char_at(s.offset) in (" ", "\t"):
        s.advance_offset(1, True)
    s.close_unmatched()
    s.add_child("block_quote")
    return 1


def _list_item(s: _State, container: _Block) -> int:
    """5.2 List items (and 5.4 lists): a bullet ``-``, ``+``, ``*`` or an ordered marker
    (1-9 digits and ``.`` or ``)``), then a space, a tab or the end of the line.

    Where a paragraph could continue, only a non-empty item starts a list,
    and an ordered one only with 1. The content starts 1-4 columns after the
    marker (5 or more: one column, the rest is indented code). A task-list
    item (GFM ``- [ ]``) is a list item whose box is inline content.
    """
    if (s.indented and container.kind != "list") or s.indent >= 4:
        return 0
    at = s.next_nonspace
    bullet = _BULLET.match(s.line, at)
    ordered = None if bullet else _ORDERED.match(s.line, at)
    if bullet:
        marker, list_type = bullet.group(), ("bullet", bullet.group())
    elif ordered and (container.kind != "paragraph" or ordered.group(1) == "1"):
        marker, list_type = ordered.group(), ("ordered", ordered.group(2))
    else:
        return 0
    after = at + len(marker)
    if after < len(s.line) and s.line[after] not in " \t":
        return 0
    if container.kind == "paragraph" and not s.line[after:].strip(" \t"):
        return 0
    if s.depth >= MAX_DEPTH:
        return _too_deep(s)
    marker_offset = s.indent
    s.advance_next_nonspace()
    s.advance_offset(len(marker), True)
    spaces_column, spaces_offset = s.column, s.offset
    while True:
        s.advance_offset(1, True)
        if s.column - spaces_column >= 5 or s.char_at(s.offset) not in (" ", "\t"):
            break
    spaces = s.column - spaces_column
    if spaces >= 5 or spaces < 1 or s.offset >= len(s.line):
        padding = len(marker) + 1
        s.column, s.offset, s.partial_tab = spaces_column, spaces_offset, False
        if s.char_at(s.offset) in (" ", "\t"):
            s.advance_offset(1, True)
    else:
        padding = len(marker) + spaces
    s.close_unmatched()
    if s.stack[-1].kind != "list" or s.stack[-1].data != list_type:
        s.add_child("list", list_type)
    s.add_child("list_item", (marker_offset, padding, s.column))
    return 1


def _too_deep(s: _State) -> int:
    """Past :data:`MAX_DEPTH` containers nothing more is opened; the open blocks are in doubt."""
    doubt = (s.line_no, f"block quotes and list items nested more than {MAX_DEPTH} deep")
    for block in s.stack:
        if block.doubt is None and (block.kind in _NESTING or block.kind in _TAKES_LINES):
            block.doubt = doubt
    return 0


#: The rules that may start a block on a line, in the order tried: commonmark.js's order (a
#: setext underline wins over a thematic break, a thematic break over a list item), with GFM's
#: table before the setext heading, as markdown-it tries it (``|x|`` over ``---`` is a table).
BLOCK_STARTS: Final[tuple[Callable[[_State, _Block], int], ...]] = (
    _block_quote,
    _atx_heading,
    _fenced_code,
    _html_block,
    _table,
    _setext_heading,
    _thematic_break,
    _list_item,
    _indented_code,
)


# --------------------------------------------------------------------------
# Extensions at the start of a page


def _front_matter(s: _State) -> bool:
    """YAML (``---``) or TOML (``+++``) front matter on the first lines, closed by a matching line.

    YAML as markdown-it's front-matter plugin reads it: the first line starts
    with three or more ``-``, and a later line of at least as many ``-`` (0-3
    spaces in, spaces or tabs after) or ``...`` closes it. TOML as static-site
    generators write it: a ``+++`` line, closed by another. Unclosed, it is
    not front matter. Returns True when the page has front matter.
    """
    view = s.view
    if not s.reader.front_matter:
        return False
    first_end = view.find("\n")
    if view.startswith("---"):
        count = min(first_end, len(view) - len(view.lstrip("-")))
        closer = re.compile(rf"(?m)^(?: {{0,3}}-{{{count},}}|\.\.\.)[ \t]*\r?$")
    elif view.startswith("+++") and view[:first_end].rstrip(" \t\r") == "+++":
        closer = re.compile(r"(?m)^\+\+\+[ \t]*\r?$")
    else:
        return False
    close = closer.search(view, first_end + 1)
    if close is None:
        return False
    block = _Block("front_matter", 0, ())
    _take(s, block, view.find("\n", close.start()) + 1)
    s.emit("front_matter", block, _lines_of(s, block))
    s.note_variant("front_matter", 0)
    return True


# --------------------------------------------------------------------------
# Per line (spec appendix: phase 1)


def _continue(s: _State, block: _Block) -> int:
    """Does this line continue ``block``? 0: yes (markers consumed); 1: no; 2: yes, and the line is used up."""
    kind = block.kind
    if kind == "list" or kind == "document":
        return 0
    if kind == "block_quote":
        if s.char_at(s.next_nonspace) != ">":
            return 1
        if s.indented:  # markdown-it continues an open quote at any indentation
            s.note_variant("markdown_it", s.line_no)
            if not s.reader.markdown_it:
                return 1
        s.advance_next_nonspace()
        s.advance_offset(1, False)
        if s.char_at(s.offset) in (" ", "\t"):
            s.advance_offset(1, True)
        return 0
    if kind == "list_item":
        marker_offset, padding, _ = block.data  # type: ignore[misc]
        if s.blank:
            if block.empty:
                return 1
            s.advance_next_nonspace()
            return 0
        if s.indent >= marker_offset + padding:
            s.advance_offset(marker_offset + padding, True)
            return 0
        return 1
    if kind == "paragraph":
        return 1 if s.blank else 0
    if kind == "fenced_code":
        char, length, fence_indent = block.data  # type: ignore[misc]
        if s.indent <= 3 and s.char_at(s.next_nonspace) == char:
            closer = _FENCE_CLOSE.match(s.line, s.next_nonspace)
            if closer and closer.group()[0] == char and len(closer.group()) >= length:
                block.add((s.line_no, s.pos + s.next_nonspace, s.line_end))
                s.close()
                return 2
        remaining = fence_indent
        while remaining > 0 and s.char_at(s.offset) in (" ", "\t"):
            s.advance_offset(1, True)
            remaining -= 1
        return 0
    if kind == "indented_code":
        if s.indent >= 4:
            s.advance_offset(4, True)
            return 0
        if s.blank:
            s.advance_next_nonspace()
            return 0
        return 1
    if kind == "html_block":
        return 1 if s.blank and block.data in (6, 7) else 0
    if kind == "table":
        return 1 if _ends_table(s) else 0
    return 1  # headings and thematic breaks never continue


def _incorporate_line(s: _State) -> None:
    """Phase 1 for one line: match the open blocks, try new block starts, add the text."""
    if "|" in s.line and s.reader is _GITHUB and s.stack[-1].kind not in _RAW_LEAVES:
        _table_first(s)
    if s.reader.markdown_it and s.stack[-1].kind == "paragraph":
        reading = _markdown_it_definitions(s)
        if reading == "close":
            s.close()
        elif reading == "absorb":
            s.stack[-1].add((s.line_no, s.pos + len(s.line) - len(s.line.lstrip(" \t>")), s.line_end))
            return
    s.offset = s.column = 0
    s.partial_tab = False
    s.old_tip = s.stack[-1]
    stack = s.stack
    index = 1
    while index < len(stack):
        s.find_next_nonspace()
        result = _continue(s, stack[index])
        if result == 2:
            return
        if result == 1:
            break
        index += 1
    container = stack[index - 1]
    s.all_closed = container is s.old_tip
    s.last_matched = container
    matched_leaf = container.kind != "paragraph" and container.kind in _TAKES_LINES
    while not matched_leaf:
        s.find_next_nonspace()
        if not s.indented and s.char_at(s.next_nonspace) not in _MAYBE_SPECIAL:
            s.advance_next_nonspace()
            break
        for rule in BLOCK_STARTS:
            result = rule(s, container)
            if result:
                container = stack[-1]
                matched_leaf = result == 2
                break
        else:
            s.advance_next_nonspace()
            break
    if not s.all_closed and not s.blank and stack[-1].kind == "paragraph":
        if s.indented and s.char_at(s.next_nonspace) in _MAYBE_SPECIAL:
            s.note_variant("markdown_it", s.line_no)  # markdown-it may end the paragraph here
            if s.reader.markdown_it:
                s.close_unmatched()
                while s.stack[-1].kind == "paragraph":
                    s.close()
                _incorporate_line(s)
                return
        s.add_line()  # a lazy continuation line (5.1, 5.2)
        return
    s.close_unmatched()
    if container.kind in _TAKES_LINES:  # the container is the tip now
        s.add_line()
        if container.kind == "html_block" and _html_block_ends(container, s.line[s.offset:]):
            s.close()
    elif s.offset < len(s.line) and not s.blank:
        s.add_child("paragraph")
        s.advance_next_nonspace()
        s.add_line()


def _footnotes(s: _State, limit: int) -> None:
    """Footnote definitions (``[^label]:`` at a line start, GitHub; not CommonMark, not modelled):
    GitHub shows one at the end of the page with its lazy lines and, after blank lines, the
    indented lines after it, and one may interrupt a paragraph. Every block in such a stretch
    before ``limit`` is in doubt (``s.unsure``)."""
    view = s.view
    i = view.find("[^", 0, limit)
    while i != -1:
        line_start = view.rfind("\n", 0, i) + 1
        if i - line_start <= 3 and not view[line_start:i].strip(" ") and _FOOTNOTE.match(view, i) \
                and not (s.unsure and s.unsure[-1][1] > line_start):
            end = view.find("\n", i) + 1
            while True:
                end = _CONTINUATION_RUN.match(view, end).end()  # lazy lines
                following = _NEXT_NONBLANK.match(view, end)
                if following is None or following.start(1) == end or not following.group(1):
                    break  # a line that interrupts it, or an unindented one after a blank line
                end = _next_blank_line(view, following.end())
            s.unsure.append((view.count("\n", 0, line_start), end, "footnotes"))
            i = end
        i = view.find("[^", i + 2, limit)


# --------------------------------------------------------------------------
# Shortcuts (each takes exactly the lines the rules above would take)


def _shortcut(s: _State, stop: int) -> bool:
    """Take a stretch of lines at once where the rules' outcome is known; False when none applies.

    ``stop`` is the start of the next watched line: top-level runs end
    there, so every watched line outside a paragraph goes through the rules.
    """
    view, tip = s.view, s.stack[-1]
    at_top = len(s.stack) == 1 or (len(s.stack) == 2 and tip.kind == "paragraph")
    if at_top and stop > s.pos and not (s.reader.markdown_it and tip.kind == "paragraph"
                                        and view[tip.lines[0][1]:tip.lines[0][1] + 1] == "["):
        return _top_run(s, tip, stop)
    if len(s.stack) == 1:  # a watched line at top level: a plain one starts a paragraph of plain lines
        run = _PARAGRAPH_RUN.match(view, s.pos, s.pos + _RUN_CHUNK)
        if run is None:
            return False
        paragraph = s.add_child("paragraph")
        paragraph.line = s.line_no + 1
        _take(s, paragraph, run.end())
        return True
    if tip.kind == "paragraph":
        if s.reader.markdown_it and view[tip.lines[0][1]:tip.lines[0][1] + 1] == "[":
            return False  # markdown-it may end it after a link definition: line by line
        run = _CONTINUATION_RUN.match(view, s.pos, s.pos + _RUN_CHUNK)
        if run.end() > s.pos:
            _take(s, tip, run.end())
            return True
        if len(s.stack) == 2:  # a top-level paragraph ends at a blank line (4.8)
            blank = _BLANK_LINE.match(view, s.pos)
            if blank is not None:
                s.close()
                s.line_no += 1
                s.pos = blank.end()
                return True
        return False
    if len(s.stack) != 2:
        return False
    if tip.kind == "fenced_code":
        char, length, _ = tip.data  # type: ignore[misc]
        closing = _closing_fence(view, s.pos, char, length)
        end = len(view) if closing < 0 else closing
        if end > s.pos:
            _take(s, tip, end)
        if closing >= 0:
            close_end = view.find("\n", closing)
            content_end = close_end - 1 if view[close_end - 1] == "\r" else close_end
            s.line_no += 1
            fence_start = closing
            while view[fence_start] == " ":
                fence_start += 1
            tip.add((s.line_no, fence_start, content_end))
            s.close()
            s.pos = close_end + 1
        return True
    if tip.kind == "indented_code":
        run = _INDENTED_RUN.match(view, s.pos, s.pos + _RUN_CHUNK)
        if run.end() == s.pos:
            return False
        _take(s, tip, run.end())
        return True
    if tip.kind == "html_block":
        if tip.data in (6, 7):
            end = _next_blank_line(view, s.pos)
        else:
            found = _HTML_ENDS[tip.data - 1].search(view, s.pos)  # type: ignore[operator]
            end = len(view) if found is None else view.find("\n", found.start()) + 1
        if end > s.pos:
            _take(s, tip, end)
        s.close()
        return True
    return False


def _top_run(s: _State, tip: _Block, stop: int) -> bool:
    """At top level, take blank lines, ATX headings and plain paragraphs up to ``stop`` at once.

    None of these lines is watched. An open paragraph first takes its
    continuation lines; the last paragraph of the run stays open.
    """
    view = s.view
    stop = min(stop, s.pos + _RUN_CHUNK)
    if tip.kind == "paragraph":
        run = _TOP_RUN_AFTER_PARAGRAPH.match(view, s.pos, stop)
        if run.end() == s.pos:
            return False
        if run.end("open") > s.pos:
            _take(s, tip, run.end("open"))
        if s.pos == run.end():
            return True
        s.close()  # a blank line or a heading ended it
    else:
        run = _TOP_RUN.match(view, s.pos, stop)
        if run.end() == s.pos:
            return False
    if run.start("para") >= s.pos and run.end("para") == run.end():
        s.line_no += view.count("\n", s.pos, run.start("para"))
        s.pos = run.start("para")
        paragraph = s.add_child("paragraph")
        paragraph.line = s.line_no + 1
        _take(s, paragraph, run.end())
    else:
        s.line_no += view.count("\n", s.pos, run.end())
        s.pos = run.end()
    return True


#: Where a restart point may be: an unindented line, not blank, not ``[`` (see _restart_point).
_RESTART_AT: Final = re.compile(r"[^ \t\r\n\[]")


def _openers(view: str, end: int) -> list[int]:
    """Line starts before ``end`` of the lines whose first non-blank text is a fence run or ``<``, in order.

    Found with ``str.find`` (fast on any text), once per page, up to the last
    watched line (no jump goes further): only these lines can open or close a
    top-level fenced code or HTML block.
    """
    found = set()
    for needle in ("```", "~~~", "<"):
        if view.find(needle[0], 0, end) == -1:  # one character: a fast scan rules most needles out
            continue
        i, previous = view.find(needle, 0, end), -1
        while i != -1:
            # Only the first hit on a line can be its first non-blank text; looking back no
            # further than the previous hit keeps a long line linear.
            newline = view.rfind("\n", previous + 1, i)
            if newline != -1 or previous == -1:
                line_start = newline + 1
                if not view[line_start:i].strip(" \t"):
                    found.add(line_start)
            previous = i
            i = view.find(needle, i + len(needle), end)
    return sorted(found)


def _restart_point(s: _State, limit: int) -> int:
    """The last restart point in ``(s.pos, limit]``, or ``s.pos``: where the parser may jump.

    A restart point is an unindented line after an empty line (not ``[``,
    which markdown-it may read into a link definition before it). Called
    with nothing open (the stack is just the document): between here and a
    restart point a paragraph, a table and HTML blocks of kinds 6 and 7 end
    at the empty line; a block quote ends there too (5.1: an empty line has
    no ``>``); a list item ends at the unindented line (5.2), and a list
    that goes on there goes on with a new item, which holds the same leaves
    as a list started there; indented code ends at the unindented line. Only
    a top-level fenced code or HTML block of kinds 1-5 can still be open,
    and those open only at lines starting (after 0-3 spaces) with a fence or
    ``<``, which this follows exactly. An indented such line (it may sit in
    a list item) or a ``<`` line whose kind depends on a paragraph before it
    stops the jump there. The same holds for every reading the gate compares
    (``_VARIANTS``).
    """
    view, start = s.view, s.pos
    if s.openers is None:
        s.openers = _openers(view, view.rfind("\n", 0, s.watch[-1]) + 1)
    openers, ends = s.openers, s.opener_ends
    open_until = start  # nothing is open from here on
    k = bisect.bisect_left(openers, start)
    while k < len(openers) and openers[k] < limit:
        line_start = openers[k]
        k += 1
        if line_start < open_until:
            continue
        end = ends.get(line_start)
        if end is None:
            end = ends[line_start] = _opener_end(view, line_start)
        if end == _NOT_AN_OPENER:
            continue
        if end == _STOP or end > limit:  # may be open at the limit: jump no further than before it
            return _remembered_restart(s, open_until, line_start)
        open_until = end
    return _remembered_restart(s, open_until, limit)


def _remembered_restart(s: _State, after: int, limit: int) -> int:
    """:func:`_last_restart` from ``s.pos``, remembering a search that found nothing: when nothing
    closes between restart points (a run of thematic breaks), each line would search the same
    stretch again."""
    searched = s.no_restart.get(limit)
    if searched is not None and max(after - 1, s.pos) >= searched:
        return s.pos
    found = _last_restart(s.view, s.pos, after, limit)
    if found == s.pos:
        s.no_restart[limit] = max(after - 1, s.pos)
    return found


_NOT_AN_OPENER: Final = -1
_STOP: Final = -2


def _opener_end(view: str, line_start: int) -> int:
    """Where the top-level block an opener line (see :func:`_openers`) opens ends, for
    :func:`_restart_point`: the start of the line after it, :data:`_NOT_AN_OPENER`, or
    :data:`_STOP` when that depends on what comes before (an indented line may sit in a list
    item; an HTML block of kind 7 cannot interrupt a paragraph)."""
    line_end = view.find("\n", line_start)
    if view[line_start] in " \t":
        return _STOP
    if view[line_start] == "<":
        kind = next((n for n, rule in enumerate(_HTML_STARTS, 1)
                     if rule.match(view, line_start, line_end)), 7)
        if kind == 7:
            if not _whole_tag_line(view[line_start:line_end].rstrip("\r"), 0):
                return _NOT_AN_OPENER
            if line_start > 0 and view[line_start - 2:line_start] != "\n\n":
                return _STOP  # after a paragraph?
        if kind <= 5:
            found = _HTML_ENDS[kind - 1].search(view, line_start)
            return len(view) if found is None else view.find("\n", found.start()) + 1
        return _next_blank_line(view, line_end + 1)
    run = _FENCE_OPEN.match(view, line_start, line_end)
    if run is None:  # backticks in the info string: not a fence
        return _NOT_AN_OPENER
    closing = _closing_fence(view, line_end + 1, run.group()[0], len(run.group()))
    return len(view) if closing < 0 else view.find("\n", closing) + 1


def _last_restart(view: str, start: int, after: int, limit: int) -> int:
    """The last restart point in ``[after, limit]`` after an empty line, or ``start`` if none.

    Searches backwards for an empty line (``\n\n`` or ``\r\n\r\n``); a blank line
    holding spaces is passed over, which only means jumping less far.
    """
    end = limit
    low = max(after - 1, start)
    carriage_returns = view.find("\r", low, limit) != -1
    while end > low:
        lf = view.rfind("\n\n", low, end)
        crlf = view.rfind("\n\r\n", low, end) if carriage_returns else -1
        candidate = max(lf + 2 if lf >= 0 else -1, crlf + 3 if crlf >= 0 else -1)
        if candidate <= start:
            return start
        if candidate <= limit and _RESTART_AT.match(view, candidate):
            return candidate
        end = candidate - 1
    return start


def _take(s: _State, block: _Block, end: int) -> None:
    """Give the whole lines from ``s.pos`` to ``end`` to ``block`` and move past them."""
    count = s.view.count("\n", s.pos, end)
    if block.runs < 0:
        block.runs = len(block.lines)
    block.add((-1 - (s.line_no + 1), s.pos, end), count)
    s.line_no += count
    s.pos = end


# --------------------------------------------------------------------------


def parse_blocks(text: str, watch: Sequence[int], *, fast: bool = True) -> tuple[Leaf, ...]:
    """The leaf blocks of ``text`` that hold an offset in ``watch`` (sorted code-point offsets).

    Reads as GitHub does (CommonMark, GFM tables, front matter). Where the
    page has something readers treat differently (front matter, a table, a
    link definition followed by more lines, a less-indented lazy line), it
    reads the page again as that reader would, and a watched block whose
    reading changes gets ``doubt`` naming the line where the readings part.
    Where a reading is not modelled but known to differ (a footnote
    definition, markdown-it's table rule before containers, GitHub's
    one-column table, markdown-it's link definitions over a setext underline
    or past 64 lines), the blocks from that line to where the difference
    can reach are in doubt too. Reads no further than needed: past the last watched offset it stops,
    unless an open paragraph holds one (a following line may still make it a
    heading or a table). ``fast=False`` walks every line through the rules
    (the tests compare both). Never raises; the cost grows linearly with the
    text read (times at most four readings).
    """
    if not watch:
        return ()
    leaves, variants, unsure = _parse(text, watch, fast, _GITHUB)
    for name, noted in variants.items():
        lines = sorted(set(noted))
        other = {_key(leaf) for leaf in _parse(text, watch, fast, _VARIANTS[name])[0]}
        leaves = tuple(leaf if leaf.doubt or leaf.kind == "front_matter" or _key(leaf) in other
                       else leaf._replace(doubt=(_cause(lines, leaf), _VARIANT_DOUBT[name]))
                       for leaf in leaves)
    for line, end, name in unsure:
        doubt = (line, _VARIANT_DOUBT[name])
        leaves = tuple(leaf._replace(doubt=doubt) if leaf.doubt is None and leaf.lines[-1][0] >= line
                       and leaf.lines[0][1] < end else leaf for leaf in leaves)
    return leaves


def _cause(lines: list[int], leaf: Leaf) -> int:
    """Of the lines where a reading may part (in order), the one that puts ``leaf`` in doubt:
    the first inside the leaf, else the nearest to it (a table's header ends the paragraph above)."""
    first, last = leaf.lines[0][0], leaf.lines[-1][0]
    i = bisect.bisect_left(lines, first)
    if i < len(lines) and lines[i] <= last:
        return lines[i]
    before = lines[i - 1] if i > 0 else None
    after = lines[i] if i < len(lines) else None
    if before is None or (after is not None and after - last <= first - before):
        return after  # type: ignore[return-value]
    return before


def _key(leaf: Leaf) -> tuple[object, ...]:
    """What must not change between readings: the block's kind, lines and whether it is top level."""
    return (leaf.kind, leaf.lines[0][0], leaf.lines[-1][0], bool(leaf.containers))


def _parse(text: str, watch: Sequence[int], fast: bool, reader: _Reader
           ) -> tuple[tuple[Leaf, ...], dict[str, list[int]], list[tuple[int, int, str]]]:
    s = _State(text, watch, reader)
    view, stack = s.view, s.stack
    size, last_watched, watched = len(view), watch[-1], len(watch)
    if reader is _GITHUB:
        _footnotes(s, last_watched)
    _front_matter(s)
    while s.pos < size:
        tip = stack[-1]
        if s.pos > last_watched and not (tip.kind == "paragraph" and tip.lines
                                         and s.watched(tip.lines[0][1], s.pos)):
            break
        if fast:
            i = bisect.bisect_left(watch, s.pos)
            # Past the last watched offset only an open paragraph holding one is read on,
            # to its end: its continuation lines, never a run of the blocks after it.
            stop = view.rfind("\n", 0, watch[i]) + 1 if i < watched else s.pos
            if len(stack) == 1 and stop > s.pos:
                restart = _restart_point(s, stop)
                if restart > s.pos:
                    s.line_no += view.count("\n", s.pos, restart)
                    s.pos = restart
                    continue
            if _shortcut(s, stop):
                continue
        eol = view.find("\n", s.pos)
        s.line_no += 1
        s.line_end = eol - 1 if eol > s.pos and view[eol - 1] == "\r" else eol
        s.line = view[s.pos:s.line_end]
        _incorporate_line(s)
        s.pos = eol + 1
    while len(stack) > 1:
        s.close()
    if reader is not _GITHUB:
        return tuple(s.leaves), {}, []
    return tuple(s.leaves), s.variants, s.unsure
