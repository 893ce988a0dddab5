"""Block structure of a Markdown page, as a reader's renderer builds it (no I/O).

Implements phase 1 of the CommonMark 0.31.2 parsing strategy (the spec's
appendix "A parsing strategy") with the GitHub Flavored Markdown extensions
readers use: tables and task-list items, and YAML (``---``) or TOML (``+++``)
front matter at the very start of a page.

:func:`parse_blocks` builds no syntax tree. The gate only needs the leaf
blocks that hold certain lines (those with an at sign), so it returns a
:class:`Leaf` for each leaf block that holds a *watched* offset, and stops
reading once every watched line's block is complete. It reads the *byte
view* of a page: its UTF-8 bytes decoded as Latin-1, one character per byte,
so every offset counts bytes. Lines are CommonMark lines: they end at
``\\n``, ``\\r\\n`` or a lone ``\\r`` (spec 2.1), and are numbered from 0 here.

The modules, by job:

* :mod:`.construct`: the record of one construct (:class:`Construct`) and the
  rules' return codes (:class:`Start`, :class:`Continue`);
* :mod:`.table`: the CommonMark + GFM constructs, one row each, in the order
  tried (:data:`GFM_CONSTRUCTS`);
* :mod:`.flavours`: how a renderer reads, as a value (:class:`Flavour`):
  :data:`GITHUB` and the variant readings it is compared with;
* :mod:`.state`: the parser state and its line machinery; :mod:`.scan`: the
  line patterns over the byte view;
* :mod:`.leaves`, :mod:`.containers`, :mod:`.definitions`, :mod:`.tables`,
  :mod:`.page`: the rules, each docstring naming its spec section;
* :mod:`.fast`: the shortcuts; :mod:`.parse`: the parser and the comparison
  of readings.

Speed: the rules walk lines one at a time, but common stretches are taken
by one regular-expression match each (:mod:`.fast`). Each shortcut takes
exactly the lines the rules would take (``fast=False`` turns them off; the
tests compare both). A line costs at most its length plus the containers it
opens or closes, and containers nested deeper than :data:`MAX_DEPTH` are not
opened (the block is marked as in doubt), so the time grows linearly with
the text.

Adding a construct is one :class:`Construct` row in a flavour's table (see
:func:`inserted`); a site flavour is another :class:`Flavour`.
"""

from __future__ import annotations

from .construct import Body, Construct, Continue, Opener, Shortcuts, Start, inserted, never_continues, without
from .flavours import (
    FOOTNOTE_DOUBT,
    GITHUB,
    GITHUB_ALONE,
    MARKDOWN_IT,
    WITHOUT_FRONT_MATTER,
    WITHOUT_TABLES,
    Flavour,
    LineDoubt,
    Variant,
)
from .parse import parse_blocks
from .state import MAX_DEPTH, MAX_LEAF_LINES, Block, Leaf, State, line_view
from .table import BLOCK_STARTS, GFM_CONSTRUCTS
from .tables import cell_spans, table_cells

__all__ = [
    "BLOCK_STARTS",
    "FOOTNOTE_DOUBT",
    "GFM_CONSTRUCTS",
    "GITHUB",
    "GITHUB_ALONE",
    "MARKDOWN_IT",
    "MAX_DEPTH",
    "MAX_LEAF_LINES",
    "WITHOUT_FRONT_MATTER",
    "WITHOUT_TABLES",
    "Block",
    "Body",
    "Construct",
    "Continue",
    "Flavour",
    "Leaf",
    "LineDoubt",
    "Opener",
    "Shortcuts",
    "Start",
    "State",
    "Variant",
    "cell_spans",
    "inserted",
    "line_view",
    "never_continues",
    "parse_blocks",
    "table_cells",
    "without",
]
