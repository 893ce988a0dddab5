"""GFM tables (GFM 0.29 section 4.10), as markdown-it reads them, and where GitHub reads them otherwise.

A table is read off the last line of an open paragraph when the next line
is a delimiter row (:func:`table`); its rows continue until a blank line or
a line that starts another block (:func:`table_continues`). Where readers
differ and the gate does not follow each reading, the primary reading notes
the stretch as unsure: markdown-it tries its table rule before block
quotes, lists and headings (:func:`table_first`), and GitHub makes a
one-column table of a header row without a pipe.
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from ..fences import FENCE_OPEN
from .construct import LEAF, MATCHED, NO_START, NOT_MATCHED, Continue, Start
from .scan import ATX_OPEN, BULLET, HTML_STARTS, ORDERED, is_thematic_break, next_blank_line
from .state import (
    MARKDOWN_IT_READING,
    MAX_LEAF_LINES,
    NO_TABLES,
    ONE_COLUMN_TABLE,
    PARAGRAPH,
    Block,
    State,
    finalize,
    lines_of,
)

__all__ = ["TableData", "cell_spans", "table", "table_cells", "table_continues", "table_first"]

#: A delimiter row and its cells.
_DELIMITER_ROW: Final = re.compile(r"[|\-:][|\-: \t]*\Z", re.ASCII)
_DELIMITER_CELL: Final = re.compile(r":?-+:?\Z", re.ASCII)


class TableData(NamedTuple):
    """A table's number of columns (the delimiter row's cells)."""

    columns: int


def table(s: State, container: Block[Any]) -> Start:
    """4.10 Tables (GFM), as markdown-it reads them: the paragraph's last line is a header row
    when this line, continuing the same containers, is a delimiter row.

    Delimiter row: only ``|``, ``-``, ``:``, spaces and tabs, not starting
    with ``-`` and a space; cells ``:?-+:?``. Header row: holds a ``|``, as
    many cells, not indented 4 or more. The lines before the header stay a
    paragraph. Rows then continue the table (see :func:`table_continues`).
    """
    if s.indented or container.kind != PARAGRAPH or not container.lines or container.count > MAX_LEAF_LINES:
        return NO_START
    rest = s.line[s.next_nonspace :]
    if len(rest) < 2 or not _DELIMITER_ROW.match(rest) or (rest[0] == "-" and rest[1] in " \t"):
        return NO_START
    count = _delimiter_cells(rest)
    if count < 0:
        return NO_START
    lines = lines_of(s, container)
    header_no, header_start, header_end = lines[-1]
    header = s.view[header_start:header_end].rstrip(" \t")
    if (
        "|" not in header
        and count == 1
        and header_no == s.line_no - 1
        and s.flavour.primary
        and ("|" in rest or ":" in rest)
    ):  # a plain "---" is a setext underline there too
        # GitHub (cmark-gfm) makes a one-column table of a header row without a pipe
        s.unsure.append((header_no, next_blank_line(s.view, s.pos), ONE_COLUMN_TABLE))
    if (
        header_no != s.line_no - 1
        or "|" not in header
        or len(table_cells(header)) != count
        or (len(lines) > 1 and _header_indent(s) >= 4)
    ):  # a first line is never indented code
        return NO_START
    s.note_variant(NO_TABLES, header_no)
    s.close_unmatched()
    s.stack.pop()
    if len(lines) > 1:
        paragraph = Block(s.flavour.by_name[PARAGRAPH], container.line, container.containers, None, container.doubt)
        for line in lines[:-1]:
            paragraph.add(line)
        finalize(s, paragraph)
    block = s.add_child("table", TableData(count))
    block.line = header_no
    block.add(lines[-1])
    s.advance_next_nonspace()
    return LEAF


def _delimiter_cells(row: str) -> int:
    """The number of cells of a delimiter-row-shaped line, or -1 when a cell is not ``:?-+:?`` (an
    empty one only at either end)."""
    count = 0
    for start, end in cell_spans(row):
        if not _DELIMITER_CELL.match(row[start:end].strip(" \t")):
            return -1
        count += 1
    return count


def table_continues(s: State, block: Block[TableData]) -> Continue:
    """4.10: a table ends at a blank line, an indented line, or a line that starts another block.

    markdown-it's table rule stops at the block quote terminators: a fence,
    a block quote, a thematic break, a list item, an HTML block of kinds 1-6
    and an ATX heading.
    """
    if s.blank or s.indented:
        return NOT_MATCHED
    at = s.next_nonspace
    line = s.line
    if FENCE_OPEN.match(line, at) or line[at] == ">" or is_thematic_break(line, at) or ATX_OPEN.match(line, at):
        return NOT_MATCHED
    marker = BULLET.match(line, at) or ORDERED.match(line, at)
    if marker and (marker.end() == len(line) or line[marker.end()] in " \t"):
        return NOT_MATCHED
    if line[at] == "<" and any(start.match(line, at) for start in HTML_STARTS):
        return NOT_MATCHED
    return MATCHED


def _header_indent(s: State) -> int:
    """Columns of indentation of the previous line (the header row) inside its containers.

    Reads that line's container markers again as their continuation rules
    do; a line that did not continue every container (a lazy line) counts as
    indented, so it never becomes a header row.
    """
    saved = (s.line, s.offset, s.column, s.partial_tab)
    end = s.pos - 1
    start = s.view.rfind("\n", 0, end) + 1
    s.line = s.view[start : end - 1 if end > start and s.view[end - 1] == "\r" else end]
    s.offset = s.column = 0
    s.partial_tab = False
    indent = 4
    for block in s.stack[1:-1]:
        s.find_next_nonspace()
        if block.construct.continues(s, block) != MATCHED:
            break
    else:
        s.find_next_nonspace()
        indent = s.indent
    s.line, s.offset, s.column, s.partial_tab = saved
    return indent


def cell_spans(row: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """GFM 4.10: where each cell of the table row ``row[start:end]`` begins and ends, as offsets into
    ``row`` (untrimmed), for every reader of a table (the block rule, the answer reader).

    A ``|`` ends a cell unless the character before it is a ``\\`` (markdown-it's ``escapedSplit``;
    cmark-gfm agrees, ``\\\\|`` included: both keep that pipe in the cell). A pipe inside a code span
    ends a cell too (GFM: escape it). The text before the first pipe and after the last one is no
    cell when it holds only spaces or tabs (the row's leading and trailing pipes; as markdown-it, which
    trims the row first). Linear.
    """
    stop = len(row) if end is None else end
    bounds = [start - 1]
    at = row.find("|", start, stop)
    while at != -1:
        if at == start or row[at - 1] != "\\":
            bounds.append(at)
        at = row.find("|", at + 1, stop)
    bounds.append(stop)
    cells = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
    if not row[cells[0][0] : cells[0][1]].strip(" \t"):
        cells.pop(0)
    if cells and not row[cells[-1][0] : cells[-1][1]].strip(" \t"):
        cells.pop()
    return cells


def table_cells(row: str) -> list[str]:
    """A table row's cells (:func:`cell_spans`), the ``\\`` before an escaped pipe taken out, as
    markdown-it passes them to its inline reader."""
    return [row[start:end].replace("\\|", "|") for start, end in cell_spans(row)]


#: A line that starts a block quote, a list item or an ATX heading, and a delimiter-row-shaped line.
_MARKER_FIRST: Final = re.compile(r" {0,3}(?:>|[*+\-][ \t]|[0-9]{1,9}[.)][ \t]|#{1,6}[ \t])", re.ASCII)
_DELIMITER_LIKE: Final = re.compile(r"[ \t]*[|:\-][|:\- \t]*-[|:\- \t]*\r?\n", re.ASCII)


def table_first(s: State) -> None:
    """markdown-it tries its table rule before block quotes, lists and headings: a line that opens
    one of them and holds a ``|``, above a delimiter row, is a table's header row to markdown-it
    (GitHub and CommonMark read the container). The lines from here to a blank line are unsure.

    A line check of the primary reading (``Flavour.line_doubts``), run on lines holding a ``|``.
    """
    if not _MARKER_FIRST.match(s.line):
        return
    next_start = s.view.find("\n", s.pos) + 1
    if next_start and _DELIMITER_LIKE.match(s.view, next_start):
        s.note_unsure(s.line_no, next_blank_line(s.view, next_start), MARKDOWN_IT_READING)
