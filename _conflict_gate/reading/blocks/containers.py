"""Container blocks (CommonMark 0.31.2 section 5): block quotes, list items and lists (no I/O).

Each start rule consumes its marker and returns
:data:`~_conflict_gate.reading.blocks.construct.CONTAINER`, so the rules are tried
again on the rest of the line; each continuation rule consumes the markers
(or the indentation) of a later line. Containers nested deeper than
:data:`~_conflict_gate.reading.blocks.state.MAX_DEPTH` are not opened: the blocks
open there are in doubt.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .construct import CONTAINER, MATCHED, NO_START, NOT_MATCHED, Continue, Start
from .scan import BULLET, ORDERED
from .state import MARKDOWN_IT_READING, MAX_DEPTH, PARAGRAPH, Block, State

__all__ = [
    "ListData",
    "ListItemData",
    "block_quote",
    "block_quote_continues",
    "list_continues",
    "list_item",
    "list_item_continues",
]


class ListData(NamedTuple):
    """A list's type (5.3): ``bullet`` with its marker character, or ``ordered`` with its delimiter
    (``.`` or ``)``). A list item of another type starts another list."""

    type: str
    delimiter: str


class ListItemData(NamedTuple):
    """A list item's marker (5.2): ``marker_offset`` columns of indentation before it, ``padding``
    the columns from the marker to the content (what a continuation line must be indented by,
    with the offset), ``column`` where its content starts."""

    marker_offset: int
    padding: int
    column: int


def block_quote(s: State, container: Block[Any]) -> Start:
    """5.1 Block quotes: ``>`` after 0-3 spaces, then one optional space or tab."""
    if s.indented or s.char_at(s.next_nonspace) != ">":
        return NO_START
    if s.depth >= MAX_DEPTH:
        return _too_deep(s)
    s.advance_next_nonspace()
    s.advance_offset(1, False)
    if s.char_at(s.offset) in (" ", "\t"):
        s.advance_offset(1, True)
    s.close_unmatched()
    s.add_child("block_quote", None)
    return CONTAINER


def block_quote_continues(s: State, block: Block[Any]) -> Continue:
    """5.1: a line whose first non-space character (0-3 spaces in) is ``>``; its optional space is
    consumed too. A flavour that ``quotes_continue_indented`` (markdown-it) takes ``>`` at any
    indentation; the primary reading notes that line."""
    if s.char_at(s.next_nonspace) != ">":
        return NOT_MATCHED
    if s.indented:
        s.note_variant(MARKDOWN_IT_READING, s.line_no)
        if not s.flavour.quotes_continue_indented:
            return NOT_MATCHED
    s.advance_next_nonspace()
    s.advance_offset(1, False)
    if s.char_at(s.offset) in (" ", "\t"):
        s.advance_offset(1, True)
    return MATCHED


def list_item(s: State, container: Block[Any]) -> Start:
    """5.2 List items (and 5.3 lists): a bullet ``-``, ``+``, ``*`` or an ordered marker
    (1-9 digits and ``.`` or ``)``), then a space, a tab or the end of the line.

    Where a paragraph could continue, only a non-empty item starts a list,
    and an ordered one only with 1. The content starts 1-4 columns after the
    marker (5 or more: one column, the rest is indented code). A task-list
    item (GFM ``- [ ]``) is a list item whose box is inline content. An item
    of another type than the open list's starts a new list.
    """
    if (s.indented and container.kind != "list") or s.indent >= 4:
        return NO_START
    at = s.next_nonspace
    bullet = BULLET.match(s.line, at)
    ordered = None if bullet else ORDERED.match(s.line, at)
    if bullet:
        marker, list_type = bullet.group(), ListData("bullet", bullet.group())
    elif ordered and (container.kind != PARAGRAPH or ordered.group(1) == "1"):
        marker, list_type = ordered.group(), ListData("ordered", ordered.group(2))
    else:
        return NO_START
    after = at + len(marker)
    if after < len(s.line) and s.line[after] not in " \t":
        return NO_START
    if container.kind == PARAGRAPH and not s.line[after:].strip(" \t"):
        return NO_START
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
    s.add_child("list_item", ListItemData(marker_offset, padding, s.column))
    return CONTAINER


def list_item_continues(s: State, block: Block[ListItemData]) -> Continue:
    """5.2: a line indented at least as far as the item's content (those columns consumed), or a
    blank line once the item holds a block (it may start with at most one blank line)."""
    marker_offset, padding, _ = block.data
    if s.blank:
        if block.empty:
            return NOT_MATCHED
        s.advance_next_nonspace()
        return MATCHED
    if s.indent >= marker_offset + padding:
        s.advance_offset(marker_offset + padding, True)
        return MATCHED
    return NOT_MATCHED


def list_continues(s: State, block: Block[ListData]) -> Continue:
    """5.3: a list goes on while its items do; it ends when a line opens no item of it."""
    return MATCHED


def _too_deep(s: State) -> Start:
    """Past :data:`~_conflict_gate.reading.blocks.state.MAX_DEPTH` containers nothing more is opened; the
    open blocks are in doubt."""
    doubt = (s.line_no, f"block quotes and list items nested more than {MAX_DEPTH} deep")
    for block in s.stack:
        if block.doubt is None and (block.construct.nests or block.construct.takes_lines):
            block.doubt = doubt
    return NO_START
