"""Leaf blocks (CommonMark 0.31.2 section 4): one start rule and one continuation rule per construct.

Thematic breaks (4.1), ATX headings (4.2), setext headings (4.3), indented
code (4.4), fenced code (4.5), HTML blocks (4.6) and paragraphs (4.8), whose
link reference definitions (4.7) come off when they close. Link reference
definitions are in :mod:`~_conflict_gate.reading.blocks.definitions`, GFM tables in
:mod:`~_conflict_gate.reading.blocks.tables`; the rows of the table are assembled in
:mod:`~_conflict_gate.reading.blocks.table`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..fences import COMMONMARK_FENCES, closes, opening_run
from .construct import LEAF, LINE_CONSUMED, MATCHED, NO_START, NOT_MATCHED, Continue, Start
from .definitions import DEFINITION_LINES, split_definitions
from .scan import (
    ATX_OPEN,
    HTML_ENDS,
    KIND_1_OPEN_TAG,
    SETEXT_UNDERLINE,
    html_kind,
    is_thematic_break,
    next_blank_line,
    whole_tag_line,
)
from .state import MARKDOWN_IT_READING, MAX_LEAF_LINES, PARAGRAPH, Block, State, lines_of

__all__ = [
    "FenceData",
    "HtmlData",
    "atx_heading",
    "fence_line",
    "fenced_code",
    "fenced_code_continues",
    "finish_paragraph",
    "html_block",
    "html_block_continues",
    "html_block_ends",
    "html_detail",
    "indented_code",
    "indented_code_continues",
    "paragraph_continues",
    "setext_heading",
    "thematic_break",
]


class FenceData(NamedTuple):
    """A fenced code block's opening fence (4.5): its character, its length, and the columns of
    indentation before it (removed from each content line)."""

    char: str
    length: int
    indent: int


class HtmlData(NamedTuple):
    """An HTML block's start condition (4.6): kind 1-7."""

    kind: int


def thematic_break(s: State, container: Block[Any]) -> Start:
    """4.1 Thematic breaks: three or more ``*``, ``-`` or ``_`` (spaces or tabs between), 0-3 spaces in.

    Tried after setext headings (a ``---`` under a paragraph is an underline)
    and before list items (``* * *`` is a break, not a list).
    """
    if s.indented or not is_thematic_break(s.line, s.next_nonspace):
        return NO_START
    s.close_unmatched()
    s.add_child("thematic_break", None)
    s.stack.pop()
    s.offset = len(s.line)
    return LEAF


def atx_heading(s: State, container: Block[Any]) -> Start:
    """4.2 ATX headings: 1-6 ``#`` then a space, a tab or the end of the line; one line."""
    if s.indented or not ATX_OPEN.match(s.line, s.next_nonspace):
        return NO_START
    s.close_unmatched()
    heading = s.add_child("atx_heading", None)
    s.stack.pop()
    s.emit("heading", heading, [(s.line_no, s.pos + s.next_nonspace, s.line_end)])
    s.offset = len(s.line)
    return LEAF


def setext_heading(s: State, container: Block[Any]) -> Start:
    """4.3 Setext headings: a ``=`` or ``-`` underline below a paragraph this line continues (not lazily).

    The paragraph's link reference definitions (4.7) come off first; a
    paragraph that held only definitions has no text to become a heading.
    """
    if s.indented or container.kind != PARAGRAPH or not SETEXT_UNDERLINE.match(s.line, s.next_nonspace):
        return NO_START
    s.close_unmatched()
    lines = lines_of(s, container)
    definitions, text = split_definitions(s.view, lines)
    if s.view[lines[0][1] : lines[0][1] + 1] == "[":
        s.note_variant(MARKDOWN_IT_READING, lines[1][0] if len(lines) > 1 else s.line_no)
        # markdown-it reads a definition over the underline, up to a blank line: a title
        # may run on over the lines after it, which the spec shows.
        s.note_unsure(s.line_no, next_blank_line(s.view, s.pos), MARKDOWN_IT_READING)
    if not text:
        return NO_START
    s.stack.pop()
    s.emit("link_definition", container, definitions)
    s.emit("heading", container, text)
    s.offset = len(s.line)
    return LEAF


def indented_code(s: State, container: Block[Any]) -> Start:
    """4.4 Indented code blocks: 4 or more columns of indentation, not blank.

    Cannot interrupt a paragraph (its row says so: the parser does not try it
    on a line an open paragraph could take).
    """
    if not s.indented or s.blank:
        return NO_START
    s.advance_offset(4, True)
    s.close_unmatched()
    s.add_child("indented_code", None)
    return LEAF


def indented_code_continues(s: State, block: Block[Any]) -> Continue:
    """4.4: a line indented 4 or more columns (those consumed), or a blank line."""
    if s.indent >= 4:
        s.advance_offset(4, True)
        return MATCHED
    if s.blank:
        s.advance_next_nonspace()
        return MATCHED
    return NOT_MATCHED


def fenced_code(s: State, container: Block[Any]) -> Start:
    """4.5 Fenced code blocks: 3+ backticks (no backtick in the info string) or 3+ tildes, 0-3 spaces in.

    The info string stays on the block's first line (it is hidden from a reader).
    """
    if s.indented:
        return NO_START
    run = opening_run(s.line, s.next_nonspace)
    if run is None:
        return NO_START
    s.close_unmatched()
    s.add_child("fenced_code", FenceData(run[0], len(run), s.indent))
    s.advance_next_nonspace()
    return LEAF


def fenced_code_continues(s: State, block: Block[FenceData]) -> Continue:
    """4.5: every line up to a closing fence (0-3 spaces, at least as many of the same character,
    then only spaces or tabs), which the block takes too; up to the fence's indentation is removed."""
    return fence_line(s, block, COMMONMARK_FENCES.may_close(s.indent))


def fence_line(s: State, block: Block[FenceData], may_close: bool) -> Continue:
    """One line of an open fenced code block: its closing fence when ``may_close`` (the flavour's
    indentation rule allows it here) and the line is one, else a line of code with up to the
    fence's indentation removed."""
    char, length, fence_indent = block.data
    if may_close and closes(s.line, s.next_nonspace, char, length):
        block.add((s.line_no, s.pos + s.next_nonspace, s.line_end))
        s.close()
        return LINE_CONSUMED
    remaining = fence_indent
    while remaining > 0 and s.char_at(s.offset) in (" ", "\t"):
        s.advance_offset(1, True)
        remaining -= 1
    return MATCHED


def html_block(s: State, container: Block[Any]) -> Start:
    """4.6 HTML blocks: seven start conditions (:data:`~_conflict_gate.reading.blocks.scan.HTML_STARTS`);
    kind 7 cannot interrupt a paragraph (the rule checks that itself: kinds 1-6 may)."""
    if s.indented or s.char_at(s.next_nonspace) != "<":
        return NO_START
    kind = html_kind(s.line, s.next_nonspace)
    if kind == 7 and (
        container.kind == PARAGRAPH
        or KIND_1_OPEN_TAG.match(s.line, s.next_nonspace)
        or (not s.all_closed and not s.blank and s.stack[-1].kind == PARAGRAPH)
        or not whole_tag_line(s.line, s.next_nonspace)
    ):
        return NO_START
    s.close_unmatched()
    s.add_child("html_block", HtmlData(kind))  # the indentation is part of the block
    return LEAF


def html_block_continues(s: State, block: Block[HtmlData]) -> Continue:
    """4.6: kinds 6 and 7 end before a blank line; kinds 1-5 take every line up to their end condition."""
    return NOT_MATCHED if s.blank and block.data.kind >= 6 else MATCHED


def html_block_ends(block: Block[HtmlData], rest: str) -> bool:
    """4.6: does a line the block took (``rest``, after container markers) meet its end condition (kinds 1-5)?"""
    kind = block.data.kind
    return kind <= 5 and HTML_ENDS[kind - 1].search(rest) is not None


def html_detail(block: Block[HtmlData]) -> int:
    """``Leaf.detail`` of an HTML block: its kind."""
    return block.data.kind


def paragraph_continues(s: State, block: Block[Any]) -> Continue:
    """4.8 Paragraphs: any line that is not blank (a line that starts another block interrupts it
    later, when the start rules run; a lazy line continues it: 5.1, 5.2)."""
    return NOT_MATCHED if s.blank else MATCHED


def finish_paragraph(s: State, block: Block[Any], end: int) -> None:
    """A paragraph is closed: report its opening link reference definitions (4.7) and the rest.

    One that opens with ``[`` is read even when not watched: markdown-it
    reads its definitions line by line (a variant reading from its second
    line), and past :data:`~_conflict_gate.reading.blocks.definitions.DEFINITION_LINES`
    lines the gate does not follow that reading (the rest is in doubt).
    """
    view, first = s.view, block.lines[0]
    opens_with_definition = view[first[1] : first[1] + 1] == "["
    if not (opens_with_definition or s.watched(first[1], end)):
        return
    lines = lines_of(s, block)
    if block.count > MAX_LEAF_LINES or len(lines) >= MAX_LEAF_LINES:
        s.emit(PARAGRAPH, block, lines, None, end=end)
        return
    definitions, rest = split_definitions(view, lines) if opens_with_definition else ([], lines)
    if opens_with_definition and len(lines) > 1:
        s.note_variant(MARKDOWN_IT_READING, lines[1][0])  # markdown-it reads definitions line by line
    if opens_with_definition and len(lines) > DEFINITION_LINES:  # read no further as markdown-it
        s.unsure.append((lines[DEFINITION_LINES][0], end + 1, MARKDOWN_IT_READING))
    s.emit("link_definition", block, definitions)
    s.emit(PARAGRAPH, block, rest)
