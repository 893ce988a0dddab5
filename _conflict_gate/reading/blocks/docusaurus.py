"""Docusaurus's block reading, :data:`DOCUSAURUS`: GFM without indented code (no I/O).

MDX 3 turns indented code off (CommonMark 0.31.2 section 4.4), so four-space-indented lines are
paragraph text and an indented directive line is malformed; fenced code (section 4.5) as
Docusaurus reads it; YAML front matter only."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ..fences import MDX_FENCES, closes, opening_run
from .construct import NOT_AN_OPENER, Continue, Opener, Shortcuts, without
from .fast import fenced_line_start
from .flavours import GITHUB_ALONE, LineDoubt, Variant
from .leaves import FenceData, fence_line
from .page import github_front_matter
from .state import NO_FRONT_MATTER, Block, State
from .table import GFM_CONSTRUCTS

__all__ = ["DOCUSAURUS", "INDENTED", "INDENTED_DOUBT", "unclosed_front_matter"]


def fenced_code_continues(s: State, block: Block[FenceData]) -> Continue:
    """4.5 as MDX reads it (:data:`~_conflict_gate.reading.fences.MDX_FENCES`: a closing fence may be indented
    any amount); otherwise as CommonMark (up to the fence's indentation removed)."""
    return fence_line(s, block, MDX_FENCES.may_close(s.indent))


def fence_opener_end(view: str, line_start: int, line_end: int) -> int:
    """Where a top-level fenced code block opened on this line ends, its closing fence at any
    indentation (the shortcuts' restart jumps follow it)."""
    run = opening_run(view, line_start, MDX_FENCES, line_end)
    if run is None:
        return NOT_AN_OPENER
    char, length = run[0], len(run)
    pos = line_end + 1
    while pos < len(view):
        eol = view.find("\n", pos)
        eol = len(view) if eol == -1 else eol
        if closes(view[pos:eol].lstrip(" \t").rstrip(" \t\r"), 0, char, length, MDX_FENCES):
            return eol + 1
        pos = eol + 1
    return len(view)


_INDENTED_START: Final = re.compile(r"(?: {4}| {0,3}\t)[ \t]*[^ \t\r\n]", re.ASCII)
_INDENTED_BLOCK_START: Final = re.compile(r"(?: {4}| {0,3}\t)[ \t]*(?:[>\-+=`~0-9]|\*[ \t])", re.ASCII)
#: Why a block near a line indented four or more columns is in doubt.
INDENTED_DOUBT: Final = (
    "MDX has no indented code: a line indented four or more columns may start a block "
    "(a list item, a quote, a heading underline, a fence) where CommonMark reads code"
)


def _in_item_code_column(s: State) -> bool:
    """Does the line continue the deepest open list item (no block quote open, whose markers would shift
    its columns), indented less than four columns past the item's content? Then CommonMark reads no
    indented code there either: MDX and CommonMark take the line alike (a fence indented four spaces
    under ``1. ``, as VitePress's guide writes it, is a fence in the item to both; checked with
    markdown-it-py and tests/mdx)."""
    items = [block for block in s.stack if block.kind == "list_item"]
    if not items or any(block.kind == "block_quote" for block in s.stack):
        return False
    column = 0
    for ch in s.line:
        if ch == " ":
            column += 1
        elif ch == "\t":
            column += 4 - column % 4
        else:
            break
    content: int = items[-1].data.column
    return content <= column < content + 4


def indented_start(s: State) -> None:
    """A line check (lines holding a space or a tab): a line indented four or more columns is no code in
    MDX. One that may start a list item, a quote or a fence may start one there (MDX has no
    indentation limit for them), or make the line above a setext heading; with a list item open,
    any may go on with it otherwise than in CommonMark. The lines from there (from the line above,
    for a start) to the next blank line are unsure; not a line less than four columns past the content
    of the list item it continues (:func:`_in_item_code_column`)."""
    if not _INDENTED_START.match(s.line) or _in_item_code_column(s):
        return
    if _INDENTED_BLOCK_START.match(s.line):  # it may interrupt the paragraph above (a setext underline)
        s.note_unsure(max(s.line_no - 1, 0), s.blank_after(s.pos), INDENTED)
        return
    if any(block.kind == "list_item" for block in s.stack):  # no code: it may go on with the list item
        s.note_unsure(s.line_no, s.blank_after(s.pos), INDENTED)


_FENCED: Final = next(row for row in GFM_CONSTRUCTS if row.name == "fenced_code")
_CONSTRUCTS: Final = tuple(
    replace(
        row,
        continues=fenced_code_continues,
        shortcuts=Shortcuts(line_start=fenced_line_start),
        opener=Opener(("```", "~~~"), fence_opener_end),
    )
    if row is _FENCED
    else row
    for row in without(without(GFM_CONSTRUCTS, "indented_code"), "html_block")
)
#: The name lines indented four or more columns are noted under (not modelled).
INDENTED: Final = "mdx_indented"
#: Docusaurus's block reading: GFM without indented code and without HTML blocks (JSX is read by
#: :func:`read_mdx`), closing fences at any indentation, YAML front matter (gray-matter), compared
#: with the reading without front matter only where front matter ends with ``...``; lines indented
#: four or more columns that may start a block are in doubt.
DOCUSAURUS: Final = replace(
    GITHUB_ALONE,
    name="docusaurus",
    constructs=_CONSTRUCTS,
    page_starts=(github_front_matter,),
    line_doubts=(*GITHUB_ALONE.line_doubts, LineDoubt(" ", indented_start), LineDoubt("\t", indented_start)),
    unmodelled=(*GITHUB_ALONE.unmodelled, (INDENTED, INDENTED_DOUBT)),
    indented_lines_checked=True,
    variants=(
        Variant(
            NO_FRONT_MATTER,
            replace(
                GITHUB_ALONE,
                name="docusaurus-without-front-matter",
                constructs=_CONSTRUCTS,
                page_starts=(),
                primary=False,
                unmodelled=(),
                variants=(),
            ),
            "gray-matter may not take '...' as the end of front matter; without it the lines after it read differently",
        ),
    ),
)


_FRONT_MATTER_OPEN: Final = re.compile(r"---[ \t]*\r?\n", re.ASCII)
_FRONT_MATTER_CLOSE: Final = re.compile(r"^---[ \t]*\r?$", re.ASCII | re.MULTILINE)


def unclosed_front_matter(view: str, candidates: Sequence[int]) -> int:
    """0 when the page opens front matter (``---``) that no later ``---`` line closes, else -1:
    gray-matter then takes the whole page as front matter, and Docusaurus shows none of it (or fails)."""
    opened = _FRONT_MATTER_OPEN.match(view)
    if opened is None or _FRONT_MATTER_CLOSE.search(view, opened.end()) is not None:
        return -1
    return 0
