"""Flavours: how one renderer reads a page, as a value (a construct table and a few flags; no I/O).

:data:`GITHUB` is the reading the gate gives its answers in: CommonMark,
GFM tables and front matter, as GitHub renders them. It is *primary*: while
it reads, it notes where other readings may part from it, and it compares
the blocks there with its :attr:`Flavour.variants`, each another flavour
read only when the page has what it reads otherwise:

* ``front_matter``: :data:`WITHOUT_FRONT_MATTER`, a renderer that shows front matter as text;
* ``tables``: :data:`WITHOUT_TABLES`, a renderer without GFM tables (CommonMark alone);
* ``markdown_it``: :data:`MARKDOWN_IT`, markdown-it's link definitions, lazy lines and quotes.

A watched block whose reading changes is in doubt. Where a reading is not
modelled but known to differ (:attr:`Flavour.unmodelled`: GitHub's
footnotes and one-column tables; and markdown-it's table rule before
containers, or its definitions over a setext underline, noted for the
``markdown_it`` variant), the stretch it may reach is in doubt.

A site flavour (MkDocs, MyST, MDX) is another :class:`Flavour`: its own
table (this one with rows inserted or removed), its flags, its variants.
Which readings are compared is a choice of ``variants``:
``dataclasses.replace(GITHUB, variants=())`` judges a page by GitHub's
reading alone (footnotes and one-column tables stay in doubt: they are
GitHub's own).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Final, NamedTuple

from .construct import Construct, Opener, StartRule, without
from .fast import FastPatterns, compile_shortcuts
from .page import footnotes, front_matter, github_front_matter, html_start_differs
from .state import (
    FOOTNOTES,
    HTML_START_VERSIONS,
    MARKDOWN_IT_READING,
    NO_FRONT_MATTER,
    NO_TABLES,
    ONE_COLUMN_TABLE,
    State,
)
from .table import GFM_CONSTRUCTS
from .tables import table_first

__all__ = [
    "FOOTNOTE_DOUBT",
    "GITHUB",
    "GITHUB_ALONE",
    "MARKDOWN_IT",
    "WITHOUT_FRONT_MATTER",
    "WITHOUT_TABLES",
    "Flavour",
    "LineDoubt",
    "Variant",
]


class LineDoubt(NamedTuple):
    """A check the primary reading runs on each line holding ``char`` (outside code and HTML blocks):
    it notes stretches another renderer reads otherwise (``State.note_unsure``)."""

    char: str
    check: Callable[[State], None]


class Variant(NamedTuple):
    """Another reading the primary one is compared with, under the ``name`` its rules note lines by,
    and why a block whose reading changes is in doubt."""

    name: str
    flavour: Flavour
    why: str


@dataclass(frozen=True)
class Flavour:
    """How one renderer reads a page: its construct table and what it does beyond the table.

    ``constructs``: the rows, in the order their start rules are tried (see
    table.py). ``page_starts``: rules read once at the page's first line
    (front matter), each True when it took lines. markdown-it's ways, as
    flags: ``definitions_as_blocks`` (a link reference definition is a block
    of its own, the lines after it read afresh), ``lazy_lines_end_paragraphs``
    (a lazy line indented 4 or more columns that may start a block ends the
    paragraph and starts afresh), ``quotes_continue_indented`` (``>``
    continues an open block quote at any indentation). ``primary``: this
    reading's leaves are the answer; it runs ``page_doubts`` (before the
    first line, up to the last watched offset) and ``line_doubts``, notes
    where each reading may part from it, and compares those places with
    ``variants``. ``unmodelled``: ``(name, why)`` of what this renderer does
    that the gate does not model; the stretches its rules note under those
    names are in doubt whatever is compared. ``indented_lines_checked``: a
    line check reads lines indented four or more columns (MDX's
    ``indented_start``), so the shortcuts leave such lines to the rules.

    The rest is derived from ``constructs`` (and is no part of equality).
    """

    name: str
    constructs: tuple[Construct, ...]
    page_starts: tuple[Callable[[State], bool], ...] = ()
    definitions_as_blocks: bool = False
    lazy_lines_end_paragraphs: bool = False
    quotes_continue_indented: bool = False
    primary: bool = False
    page_doubts: tuple[Callable[[State, int], None], ...] = ()
    line_doubts: tuple[LineDoubt, ...] = ()
    unmodelled: tuple[tuple[str, str], ...] = ()
    variants: tuple[Variant, ...] = ()
    indented_lines_checked: bool = False
    #: Construct name -> row.
    by_name: Mapping[str, Construct] = field(init=False, repr=False, compare=False)
    #: First characters of the lines some start rule may start a block on (the quick reject:
    #: a line starting otherwise, not indented, is paragraph text).
    maybe_special: frozenset[str] = field(init=False, repr=False, compare=False)
    #: First character -> the start rules to try, in table order; and those that may interrupt
    #: a paragraph, for a line an open paragraph could take.
    starts: Mapping[str, tuple[StartRule, ...]] = field(init=False, repr=False, compare=False)
    paragraph_starts: Mapping[str, tuple[StartRule, ...]] = field(init=False, repr=False, compare=False)
    #: The start rules to try on a line indented 4 or more columns (the same two ways).
    indented_starts: tuple[StartRule, ...] = field(init=False, repr=False, compare=False)
    indented_paragraph_starts: tuple[StartRule, ...] = field(init=False, repr=False, compare=False)
    #: The openers the shortcuts' restart jumps follow (needle, opener); their patterns: :attr:`fast`.
    openers: tuple[tuple[str, Opener], ...] = field(init=False, repr=False, compare=False)
    opener_needles: tuple[str, ...] = field(init=False, repr=False, compare=False)
    openers_by_first: Mapping[str, tuple[tuple[str, Opener], ...]] = field(init=False, repr=False, compare=False)
    #: Variant name -> variant.
    variants_by_name: Mapping[str, Variant] = field(init=False, repr=False, compare=False)
    #: Name -> why, for every name whose noted lines or stretches put blocks in doubt.
    doubts: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: The line doubts to run: ``line_doubts`` for the primary reading, none for the others.
    active_line_doubts: tuple[LineDoubt, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        rows = self.constructs
        # Plain dicts behind read-only types: a mapping proxy's lookup costs twice a dict's, and
        # these are read on every line.
        set_(self, "by_name", {row.name: row for row in rows})
        starting = [row for row in rows if row.start is not None]
        special = frozenset().union(*(row.first for row in starting))
        set_(self, "maybe_special", special)
        for attribute, rules in (
            ("starts", starting),
            ("paragraph_starts", [row for row in starting if row.interrupts_paragraph]),
        ):
            set_(
                self,
                attribute,
                {
                    ch: tuple(row.start for row in rules if ch in row.first and row.start is not None)
                    for ch in sorted(special)
                },
            )
        set_(self, "indented_starts", tuple(row.start for row in starting if row.indented and row.start))
        set_(
            self,
            "indented_paragraph_starts",
            tuple(row.start for row in starting if row.indented and row.interrupts_paragraph and row.start),
        )
        openers = tuple((needle, row.opener) for row in rows if row.opener for needle in row.opener.needles)
        set_(self, "openers", openers)
        set_(self, "opener_needles", tuple(needle for needle, _ in openers))
        set_(
            self,
            "openers_by_first",
            {
                first: tuple(pair for pair in openers if pair[0][0] == first)
                for first in {needle[0] for needle, _ in openers}
            },
        )
        set_(self, "active_line_doubts", self.line_doubts if self.primary else ())
        set_(self, "variants_by_name", MappingProxyType({variant.name: variant for variant in self.variants}))
        set_(
            self,
            "doubts",
            MappingProxyType({variant.name: variant.why for variant in self.variants} | dict(self.unmodelled)),
        )

    @cached_property
    def fast(self) -> FastPatterns:
        """The shortcuts' patterns, compiled on first use (:func:`~.fast.compile_shortcuts`: four large
        patterns a flavour, 1-2 ms; a page's reading uses few of the flavours built at import, and a
        process that reads no page compiles none)."""
        return compile_shortcuts(self.constructs, indented=not self.indented_lines_checked)


#: Why a block is in doubt when GitHub may read it as part of a footnote.
FOOTNOTE_DOUBT: Final = "GitHub reads a footnote definition here and shows it at the end of the page"
_TABLES_DOUBT: Final = "a reader without GFM tables reads this differently"
#: Why a block is in doubt after a line whose HTML the spec versions start differently.
_HTML_VERSIONS_DOUBT: Final = (
    "CommonMark 0.31.2 and GitHub's cmark-gfm (CommonMark 0.29) read raw HTML above "
    "differently (a lowercase '<!' declaration, a <source> or <search> tag), so what "
    "it hides or leaves open here is in doubt"
)

#: GitHub's reading without the primary role: what the variants are made from.
_GFM: Final = Flavour(
    "gfm",
    GFM_CONSTRUCTS,
    page_starts=(front_matter,),
    page_doubts=(footnotes,),
    line_doubts=(LineDoubt("|", table_first), LineDoubt("<", html_start_differs)),
)

#: A renderer without front matter support (it reads the first lines as Markdown).
WITHOUT_FRONT_MATTER: Final = replace(_GFM, name="without-front-matter", page_starts=())
#: A renderer without GFM tables (CommonMark alone).
WITHOUT_TABLES: Final = replace(_GFM, name="without-tables", constructs=without(GFM_CONSTRUCTS, "table"))
#: markdown-it (its gfm-like preset): link definitions, lazy lines and block quotes its way.
MARKDOWN_IT: Final = replace(
    _GFM, name="markdown-it", definitions_as_blocks=True, lazy_lines_end_paragraphs=True, quotes_continue_indented=True
)

#: GitHub's reading alone, as github.com renders a page (the ``github`` renderer): YAML front matter
#: only, compared with the reading without it only when closed by ``...``; no other variant, so the
#: doubts only markdown-it or CommonMark without tables raise do not apply; footnotes and one-column
#: tables stay in doubt (GitHub's own, not modelled).
GITHUB_ALONE: Final = replace(
    _GFM,
    name="github-alone",
    primary=True,
    page_starts=(github_front_matter,),
    unmodelled=(
        (FOOTNOTES, FOOTNOTE_DOUBT),
        (ONE_COLUMN_TABLE, _TABLES_DOUBT),
        (HTML_START_VERSIONS, _HTML_VERSIONS_DOUBT),
    ),
    variants=(
        Variant(
            NO_FRONT_MATTER,
            WITHOUT_FRONT_MATTER,
            "GitHub may not take '...' as the end of front matter; without front matter the lines "
            "after it read differently",
        ),
    ),
)

#: The gate's reading: GitHub's, compared with the three variants where they may differ.
GITHUB: Final = replace(
    _GFM,
    name="github",
    primary=True,
    unmodelled=(
        (FOOTNOTES, FOOTNOTE_DOUBT),
        (ONE_COLUMN_TABLE, _TABLES_DOUBT),
        (HTML_START_VERSIONS, _HTML_VERSIONS_DOUBT),
    ),
    variants=(
        Variant(
            NO_FRONT_MATTER,
            WITHOUT_FRONT_MATTER,
            "a reader without front matter support reads the lines after it differently",
        ),
        Variant(NO_TABLES, WITHOUT_TABLES, _TABLES_DOUBT),
        Variant(
            MARKDOWN_IT_READING,
            MARKDOWN_IT,
            "readers differ here (markdown-it takes link definitions and less-indented lazy lines as new blocks)",
        ),
    ),
)
