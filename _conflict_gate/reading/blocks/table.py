"""The construct table: CommonMark 0.31.2 and GFM block constructs, one row each, in the order tried (no I/O).

Like markdown-it-py's ``parser_block`` rule list: the rows with a start rule
are tried in this order on a line, for the line's first non-blank
character (the rows' ``first``), and the first that starts a block wins.
The order is commonmark.js's (a setext underline wins over a thematic
break, a thematic break over a list item), with GFM's table before the
setext heading, as markdown-it tries it (``|x|`` over ``---`` is a table).
Rows without a start rule (paragraph, list) give the continuation and the
reporting of blocks other rules open.

A flavour's table is this one, changed: :func:`~_conflict_gate.reading.blocks.construct.inserted`
and :func:`~_conflict_gate.reading.blocks.construct.without` (see flavours.py).
"""

from __future__ import annotations

from typing import Final

from .construct import Body, Construct, Opener, Shortcuts, never_continues
from .containers import block_quote, block_quote_continues, list_continues, list_item, list_item_continues
from .fast import (
    fence_opener_end,
    fenced_line_start,
    fenced_run,
    html_opener_end,
    html_run,
    indented_line_start,
    indented_run,
    paragraph_line_start,
)
from .leaves import (
    atx_heading,
    fenced_code,
    fenced_code_continues,
    finish_paragraph,
    html_block,
    html_block_continues,
    html_block_ends,
    html_detail,
    indented_code,
    indented_code_continues,
    paragraph_continues,
    setext_heading,
    thematic_break,
)
from .tables import table, table_continues

__all__ = ["BLOCK_STARTS", "GFM_CONSTRUCTS"]

BLOCK_QUOTE: Final = Construct(
    "block_quote",
    "block_quote",
    "CommonMark 5.1",
    Body.CONTAINER,
    block_quote_continues,
    start=block_quote,
    first=frozenset(">"),
)
ATX_HEADING: Final = Construct(
    "atx_heading",
    "heading",
    "CommonMark 4.2",
    Body.LINE,
    never_continues,
    start=atx_heading,
    first=frozenset("#"),
    # Whole heading lines at top level; one holding a "|" goes through the rules (tables.table_first).
    shortcuts=Shortcuts(top_lines=r"[ ]{0,3}#{1,6}(?=[ \t\r\n])[^\n|]*\n"),
)
#: A whole unindented fenced code block, opening line to closing fence (4.5), its opening line without a
#: "|" (tables.table_first reads such a line): back-to-back fences at top level are taken by one match.
#: The opening run is the whole run (``(?!~)``): a shorter part of it, its rest taken for the info
#: string, would let a shorter run close the block (4.5: at least as long as the opening fence).
_WHOLE_FENCES: Final = (
    r"(?P<backticks>`{3,})[^`\n|]*\n(?:(?![ ]{0,3}(?P=backticks)`*[ \t]*\r?\n)[^\n]*\n)*?"
    r"[ ]{0,3}(?P=backticks)`*[ \t]*\r?\n"
    r"|(?P<tildes>~{3,})(?!~)[^\n|]*\n(?:(?![ ]{0,3}(?P=tildes)~*[ \t]*\r?\n)[^\n]*\n)*?"
    r"[ ]{0,3}(?P=tildes)~*[ \t]*\r?\n"
)
FENCED_CODE: Final = Construct(
    "fenced_code",
    "fenced_code",
    "CommonMark 4.5",
    Body.RAW,
    fenced_code_continues,
    start=fenced_code,
    first=frozenset("`~"),
    opener=Opener(("```", "~~~"), fence_opener_end),
    shortcuts=Shortcuts(run=fenced_run, line_start=fenced_line_start, top_lines=_WHOLE_FENCES),
)
HTML_BLOCK: Final = Construct(
    "html_block",
    "html_block",
    "CommonMark 4.6",
    Body.RAW,
    html_block_continues,
    start=html_block,
    first=frozenset("<"),
    closes_after=html_block_ends,
    detail=html_detail,
    opener=Opener(("<",), html_opener_end),
    # A comment that ends on its own line is an HTML block of kind 2 of that line alone (4.6); one
    # holding a "|" goes through the rules (tables.table_first).
    shortcuts=Shortcuts(run=html_run, top_lines=r"[ ]{0,3}<!--[^\n|]*-->[^\n|]*\n"),
)
TABLE: Final = Construct("table", "table", "GFM 4.10", Body.ROWS, table_continues, start=table, first=frozenset("|:-"))
SETEXT_HEADING: Final = Construct(
    "setext_heading",
    "heading",
    "CommonMark 4.3",
    Body.LINE,
    never_continues,
    start=setext_heading,
    first=frozenset("=-"),
)
THEMATIC_BREAK: Final = Construct(
    "thematic_break",
    "thematic_break",
    "CommonMark 4.1",
    Body.LINE,
    never_continues,
    start=thematic_break,
    first=frozenset("*-_"),
)
LIST_ITEM: Final = Construct(
    "list_item",
    "list_item",
    "CommonMark 5.2 (GFM 5.3 task list items)",
    Body.CONTAINER,
    list_item_continues,
    start=list_item,
    first=frozenset("*+-0123456789"),
    parent="list",
    # A line that starts with digits but no ordered list marker (5.2: 1-9 digits, then . or )).
    shortcuts=Shortcuts(plain=r"[0-9]{1,9}(?![0-9.)])|[0-9]{10}"),
)
INDENTED_CODE: Final = Construct(
    "indented_code",
    "indented_code",
    "CommonMark 4.4",
    Body.RAW,
    indented_code_continues,
    start=indented_code,
    indented=True,
    interrupts_paragraph=False,
    shortcuts=Shortcuts(run=indented_run, line_start=indented_line_start),
)
PARAGRAPH: Final = Construct(
    "paragraph",
    "paragraph",
    "CommonMark 4.8 (4.7: the link reference definitions opening it)",
    Body.PARAGRAPH,
    paragraph_continues,
    finish=finish_paragraph,
    shortcuts=Shortcuts(line_start=paragraph_line_start),
)
LIST: Final = Construct("list", "list", "CommonMark 5.3", Body.LIST, list_continues)

#: GitHub's constructs (CommonMark + GFM tables), in the order their start rules are tried.
GFM_CONSTRUCTS: Final = (
    BLOCK_QUOTE,
    ATX_HEADING,
    FENCED_CODE,
    HTML_BLOCK,
    TABLE,
    SETEXT_HEADING,
    THEMATIC_BREAK,
    LIST_ITEM,
    INDENTED_CODE,
    PARAGRAPH,
    LIST,
)
#: The rows of :data:`GFM_CONSTRUCTS` that start blocks, in the order tried.
BLOCK_STARTS: Final = tuple(row for row in GFM_CONSTRUCTS if row.start is not None)
