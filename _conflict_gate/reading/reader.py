"""One source's directives, as a reader of the rendered page sees them.

:func:`read_directives` finds the at signs that may start directive-shaped
text (:attr:`Grammar.candidates <_conflict_gate.manifest.grammar.Grammar.candidates>`),
asks :mod:`~_conflict_gate.reading.blocks` for the blocks that hold them and
:mod:`~_conflict_gate.reading.inlines` for what a reader sees there, and decides:

* A **directive** counts only as an unindented source line of a top-level
  paragraph that is exactly ``@<namespace> <operation> <key>=<value>`` and
  lies outside every inline construct. Adjacent directive lines in one
  paragraph each count. The quote is the raw source line, without the spaces and
  tabs after the value (a reader sees nothing of them).
* **Directive-shaped text** a reader sees anywhere else refuses the source:
  in a list item, block quote, heading, HTML block or front matter,
  after other text on a line (``misplaced_directive``), or at the start of a
  paragraph line behind indentation, an escape, a character reference,
  invisible characters or markup (``malformed_directive``). So does a claim
  stated under any other at-word (``@quil create_copy existing_path=v``: an
  operation of the grammar and ``key=`` of it after the at-word on its line;
  ``malformed_directive``, naming the namespace).
* Directive-shaped text in code (fences, indented code, code spans) or hidden
  HTML (comments, tags, processing instructions, ``<template>``) or a link
  definition is context: a **near-miss**, reported, never counted or refused.
  So is a **mention** of the namespace (``Ping @quill on Slack``): no
  operation of the grammar after it and no ``=`` on its line, wherever it is.
* Where the gate cannot be sure how a reader sees a block (the readings the
  renderer compares read it differently, a link may hide the text, or raw HTML
  opened before it may still be open around it: :mod:`~_conflict_gate.reading.html_tree`),
  a block that may show directive-shaped text refuses the source
  (``ambiguous_markup``), naming the line that causes the doubt. Nothing
  outside that block is affected. Under the ``commonmark`` renderer every
  table is such a block (a reader without GFM tables reads its lines as a
  paragraph), so the gate does not read table cells.

The renderer (:class:`~_conflict_gate.reading.renderers.Renderer`, the manifest's
``"renderer"``) says which readings are compared, whether GFM's tag filter
applies, and whether a sanitizer may show what a browser hides.

Lines are CommonMark lines (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one),
numbered from 1; columns and ``start``/``end`` count code points into the
decoded text (BOM excluded); ``byte_start``/``byte_end`` count bytes into
the pinned raw source (BOM included). A directive line's spaces and tabs
after the value are not part of its quote (a reader sees nothing of them).
"""

from __future__ import annotations

import bisect
import html
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from ..base.errors import DirectiveError
from ..manifest.grammar import Grammar
from .blocks import FOOTNOTE_DOUBT, MAX_LEAF_LINES, Leaf, parse_blocks
from .blocks.mdx import MdxReading, Region
from .blocks.myst import COMMENT as MYST_COMMENT
from .blocks.myst import DIRECTIVE as MYST_DIRECTIVE
from .blocks.myst import MATH as MYST_MATH
from .blocks.myst import body_code_split
from .blocks.state import NO_FRONT_MATTER
from .candidates import MAX_CANDIDATES, MAX_OCCURRENCE_CHARS, candidates_of, occurrences
from .html_tree import BLOCK, CELL, HEADING, TEXT, Opened, RawHtml
from .inlines import _WORD_LIMIT, InlineView, Spans, View, html_view, inline_view, invisible, visible_word
from .mkdocs import MkDocsPage
from .mkdocs_lines import snippet_marked
from .renderers import DEFAULT, RENDERER_VALUES, PageRefusal, Renderer

__all__ = [
    "MAX_BLOCK_BYTES",
    "MAX_CANDIDATES",
    "MAX_NEAR_MISSES",
    "MAX_OCCURRENCE_CHARS",
    "Claim",
    "LeftOut",
    "NearMiss",
    "Reading",
    "read_directives",
]

#: At most this many near-misses are kept per source, so no input can grow memory.
MAX_NEAR_MISSES: Final = 100
#: A block holding a candidate whose inline markup would be read (paragraph, heading, table, HTML)
#: and that is larger than this many bytes is refused unread: reading inline markup keeps a few
#: dozen bytes per construct, so this bounds memory on any source.
MAX_BLOCK_BYTES: Final = 1 << 20
#: Quotes of near-misses and refusals are cut to this many code points.
QUOTE_LIMIT: Final = 200
#: At most this many lines holding raw HTML markup (``<`` then a letter, ``/``, ``!`` or ``?``) before
#: the last candidate are followed for what they leave open; a block after more is in doubt.
MAX_HTML_LINES: Final = 10_000


class Claim(NamedTuple):
    """One counted directive line: what it declares and exactly where.

    ``line`` is 1-based; ``start``/``end`` are code points into the decoded
    text (BOM excluded, end exclusive), ``byte_start``/``byte_end`` bytes into
    the pinned raw source (BOM included). ``quote`` is the source line without
    the spaces and tabs after the value:
    ``text[start:end] == quote == raw[byte_start:byte_end].decode()``.
    """

    operation: str
    claim_key: str
    value: str
    line: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    quote: str


class NearMiss(NamedTuple):
    """Directive-shaped text that counts for nothing: in code (``where="code"``), hidden (``"hidden"``)
    or a mention of the namespace that states nothing (``"mention"``).

    ``line`` and ``column`` are 1-based (column in code points); ``quote`` is
    the source line, cut to :data:`QUOTE_LIMIT` code points.
    """

    line: int
    column: int
    where: str
    quote: str


class LeftOut(NamedTuple):
    """A reading of a combined renderer (``portable``) the page was not judged by, because the page does
    not build under it (it is no way the page is shown): the ``reading`` (a renderer's name), the 1-based
    ``line`` of what breaks the build, and ``why`` (the build error's message)."""

    reading: str
    line: int
    why: str


class Reading(NamedTuple):
    """What one source declares: its ``claims`` in line order, or the ``refusal`` (then no claims);
    and its first :data:`MAX_NEAR_MISSES` ``near_misses``.

    ``left_out``: under a combined renderer (``portable``), the readings the page was not judged by,
    because it does not build under them (:class:`LeftOut`, in the order of the renderer's members);
    empty under any other renderer.

    ``occurrences``: the directive-shaped text of the source, wherever it is (claims, near-misses
    in code or hidden HTML, inline-code mentions, refused lines): from each candidate at sign
    that is an ASCII ``@``, the rest of its line, cut to :data:`MAX_OCCURRENCE_CHARS` code points;
    distinct, in source order. The answer check looks quotes up in them
    (:class:`~_conflict_gate.corpus.quotes.QuoteIndex`), so it never reads a source again.
    """

    claims: tuple[Claim, ...]
    refusal: DirectiveError | None
    near_misses: tuple[NearMiss, ...]
    occurrences: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()


_EMPTY: Final = Reading((), None, ())


def read_directives(
    text: str,
    grammar: Grammar,
    *,
    bom_bytes: int = 0,
    source_id: str | None = None,
    path: str | None = None,
    fast: bool = True,
    encoded: bytes | None = None,
    renderer: Renderer = DEFAULT,
) -> Reading:
    """Read the directives of one decoded source (BOM removed; ``bom_bytes`` is its length in bytes).

    ``source_id`` and ``path`` label errors; ``encoded`` may give ``text``
    encoded as UTF-8, if the caller has it. ``renderer`` is how the site
    renders the page (the manifest's; by default ``portable``, judged against
    every reading of :data:`~_conflict_gate.reading.renderers.READINGS`). Returns a :class:`Reading`;
    problems are not raised but returned as ``refusal`` (the first in line
    order), a :class:`DirectiveError` with reason ``malformed_directive``,
    ``misplaced_directive``, ``ambiguous_markup``, ``too_complex``,
    ``duplicate_directive`` or one of the grammar's (``unsupported_operation``,
    ...). Refuses to guess: any doubt about what a reader sees near a
    candidate refuses the source, and so does a source past the limits
    (:data:`MAX_CANDIDATES` candidate at signs, a block longer than
    :data:`~_conflict_gate.reading.blocks.MAX_LEAF_LINES` lines or, where inline
    markup is read, :data:`MAX_BLOCK_BYTES` bytes, brackets nested
    deeper than :data:`~_conflict_gate.reading.inlines.MAX_NESTING`), and a source
    with candidates that holds a bidirectional formatting character anywhere
    (UAX #9: a reversed line can show a directive its bytes do not spell).
    Never raises on any text; time and memory grow linearly with the text.

    Block structure depends on ASCII characters only, so candidates and
    blocks are found in the UTF-8 bytes (read as Latin-1: one character per
    byte, fast to scan), and only the lines the gate analyses or reports are
    decoded. Where the page has raw HTML markup before the last candidate,
    the blocks holding it are read too, in page order, for what they leave
    open (:class:`~_conflict_gate.reading.html_tree.RawHtml`).
    """
    encoded = text.encode("utf-8", "surrogatepass") if encoded is None else encoded
    found = candidates_of(encoded, grammar, full=not fast)  # the same bytes for every reading: found once
    if renderer.members:
        shared: dict[PageRefusal, int] = {}  # a page refusal several members make, found once
        return _combined(
            renderer,
            [
                _read(text, encoded, found, grammar, bom_bytes, source_id, path, fast, member, shared)
                for member in renderer.members
            ],
            source_id,
            path,
        )
    reading = _read(text, encoded, found, grammar, bom_bytes, source_id, path, fast, renderer, {})
    return reading._replace(left_out=()) if reading.left_out else reading  # most pages: no copy


def _read(
    text: str,
    encoded: bytes,
    found: tuple[list[int], frozenset[int]],
    grammar: Grammar,
    bom_bytes: int,
    source_id: str | None,
    path: str | None,
    fast: bool,
    renderer: Renderer,
    shared: dict[PageRefusal, int],
) -> Reading:
    """:func:`read_directives` by one reading (``renderer`` has no members), with the page's candidates
    and stated claims ``found`` (:func:`~_conflict_gate.reading.candidates.candidates_of`). ``shared``: the page
    refusals found on this page by the readings before (the same rule on the same page and candidates
    finds the same offset)."""
    candidates, stated = found
    every_page = [rule for rule in renderer.page_refusals if rule.every_page] if not candidates else []
    plain = not candidates and (renderer.site is None or not snippet_marked(encoded))  # no snippets line
    if plain and not every_page:
        return _EMPTY
    view = text if text.isascii() else encoded.decode("latin-1")
    if plain and not any(shared.setdefault(rule, rule.find(view, candidates)) >= 0 for rule in every_page):
        return _EMPTY  # nothing on the page may show a directive its bytes do not spell
    findings = _Findings(view, encoded, grammar, source_id, path, renderer, stated)
    findings.fast = fast
    if len(candidates) > MAX_CANDIDATES:
        findings.refuse(
            "too_complex",
            candidates[MAX_CANDIDATES],
            f"more than {MAX_CANDIDATES} at signs that may start a directive; the gate does not read such a source",
        )
        return findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, candidates))
    bidi = _BIDI_FORMATTING.search(encoded)
    if bidi is not None:
        char = bidi.group().decode("utf-8")
        findings.refuse(
            "ambiguous_markup",
            bidi.start(),
            f"a bidirectional formatting character (U+{ord(char):04X}) "
            "here may reorder what a reader sees, on its line or any other (a reversed line can look "
            "like a directive that is not there); remove it",
        )
        return findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, candidates))
    every = candidates
    for rule in renderer.page_refusals:  # a construct that refuses the page wherever it is
        found_at = shared.get(rule, -2)
        if found_at == -2:
            found_at = shared[rule] = rule.find(view, candidates)
        if found_at >= 0:
            findings.refuse(rule.reason, found_at, rule.why)
            return findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, every))
    if renderer.page_reading is not None:  # MDX: the build, imports of content, and what regions decide
        page = renderer.page_reading(view)
        candidates = _page_regions(findings, page, candidates)
        if findings.problems or not candidates:
            reading = findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, every))
            error = reading.refusal
            if page.build_error is not None and page.build_certain and error is not None:
                # the page does not build: no way it is shown (read_directives drops this for the renderer alone)
                return reading._replace(left_out=(LeftOut(renderer.name, error.line or 1, error.detail),))
            return reading
    if renderer.site is not None:
        candidates = _site_findings(findings, renderer.site(view, candidates), candidates)
        if not candidates:
            return findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, every))
    # Raw HTML is followed for what it leaves open; under MDX it is JSX, balanced or a build error.
    markup, cut = _markup_lines(view, candidates[-1]) if "<" in view and renderer.page_reading is None else ([], None)
    watch = sorted(set(candidates).union(markup)) if markup else candidates
    leaves = sorted(parse_blocks(view, watch, fast=fast, flavour=renderer.flavour), key=lambda leaf: leaf.lines[0][1])
    raw = RawHtml(renderer.tag_filter.readings) if markup else None
    for leaf in leaves:
        inside = candidates[
            bisect.bisect_left(candidates, leaf.lines[0][1]) : bisect.bisect_right(candidates, leaf.end)
        ]
        if raw is not None:
            raw.enter(leaf.containers)
            if cut is not None and leaf.lines[0][1] > cut:
                raw.give_up(
                    leaf.lines[0][0],
                    f"more than {MAX_HTML_LINES} lines of raw HTML come before this "
                    "line; the gate does not follow what they leave open",
                )
        if inside:
            findings.anchor(leaf)
            findings.leaf = leaf
            _read_leaf(findings, leaf, inside, raw)
            if findings.problems:  # later blocks cannot hold an earlier problem
                break
        elif raw is not None:
            _follow_html(findings, leaf, raw, None)
    return findings.reading(bom_bytes)._replace(occurrences=occurrences(encoded, every))


def _site_findings(f: _Findings, page: MkDocsPage, candidates: list[int]) -> list[int]:
    """What a site model (``Renderer.site``) refuses before the blocks are read: a line that pulls content
    in (``ambiguous_markup``), the first directive-shaped text in a container body
    (``misplaced_directive``, naming the container). Its doubts about single lines apply where the block
    reading would count a directive (``_Findings.directive``). Returns the candidates the block reading still
    decides: those before the first problem (a later block cannot hold an earlier problem)."""
    f.site = page
    for offset, line in page.includes:
        f.refuse(
            "ambiguous_markup",
            offset,
            f"this line pulls content in from another file (pymdownx.snippets, "
            f"line {line + 1}); the gate cannot see what the site shows here, so it refuses the page",
        )
        break
    for at, (name, line) in page.contained.items():
        if (_loosely_shaped(f, at) or at in f.stated) and (at in f.stated or not f.mention(at)):
            f.refuse(
                "misplaced_directive",
                at,
                f"directive-shaped text in {name} (starting line {line + 1}), "
                f"which the site renders as a container like a block quote; {_MOVE_OUT}",
            )
            break
    if not f.problems:
        return candidates
    first = min(offset for offset, _ in f.problems)
    return candidates[: bisect.bisect_left(candidates, first)]


def _combined(renderer: Renderer, readings: Sequence[Reading], source_id: str | None, path: str | None) -> Reading:
    """A combined renderer's reading (``portable``) from its members'.

    A member under which the page certainly does not build (its reading has ``left_out``: MDX's build
    error) is no way the page is shown: it neither refuses nor counts, and is named in the result's
    ``left_out``, as long as another member builds it; when none does, the page is refused as each
    member reads it. Among the members kept: the first refusal in line order if any refuses (on one
    place, one that names a container, else the later member's: a site model's names the site's
    construct), its message naming the member when not every member refuses so; the claims when every
    member reads the same ones; else the first line they read differently is in doubt
    (``ambiguous_markup``). (The source of the rule: issue 29, "the default judges by the readings
    that apply"; reference/directives.md.)"""
    members = list(renderer.members)
    left_out = tuple(out for reading in readings for out in reading.left_out)
    if left_out and len(left_out) < len(readings):
        kept = [(member, reading) for member, reading in zip(members, readings) if not reading.left_out]
        members, readings = [member for member, _ in kept], [reading for _, reading in kept]
        return _judged(renderer, members, readings, source_id, path)._replace(left_out=left_out)
    return _judged(renderer, members, readings, source_id, path)._replace(left_out=())


def _judged(
    renderer: Renderer,
    members: Sequence[Renderer],
    readings: Sequence[Reading],
    source_id: str | None,
    path: str | None,
) -> Reading:
    """:func:`_combined` over the members it keeps (``members``, their ``readings``)."""
    names = [member.name for member in members]
    refused = [(index, reading) for index, reading in enumerate(readings) if reading.refusal is not None]
    if refused:

        def place(item: tuple[int, Reading]) -> tuple[int, int, bool, int]:
            index, reading = item
            assert reading.refusal is not None
            return (
                reading.refusal.line or 0,
                reading.refusal.column or 0,
                reading.refusal.reason != "misplaced_directive",
                -index,
            )

        _index, chosen = min(refused, key=place)
        error = chosen.refusal
        assert error is not None
        alike = [
            names[i]
            for i, reading in refused
            if reading.refusal is not None
            and (reading.refusal.reason, reading.refusal.line) == (error.reason, error.line)
        ]
        if len(alike) == len(readings):
            return chosen
        choices = ", ".join(name for name in RENDERER_VALUES if name != renderer.name)
        detail = (
            f"{error.detail} ({', '.join(alike)} reading{'s' if len(alike) > 1 else ''}: a {renderer.name} page "
            f"is judged by every renderer that builds it; set the manifest's \"renderer\" to the site's "
            f"({choices}) to judge it by that one alone)"
        )
        return chosen._replace(
            refusal=DirectiveError(
                error.reason,
                detail,
                quote=error.quote,
                source_id=error.source_id,
                path=error.path,
                line=error.line,
                column=error.column,
            )
        )
    first = readings[0]
    if all(reading.claims == first.claims for reading in readings):
        return first
    lines = sorted({claim.line: claim for reading in readings for claim in reading.claims}.items())
    for line, claim in lines:
        showing = [name for name, reading in zip(names, readings) if claim in reading.claims]
        if len(showing) != len(readings):
            others = [name for name in names if name not in showing]
            error = DirectiveError(
                "ambiguous_markup",
                f"the renderers a {renderer.name} page is judged against read this line "
                f"differently: {', '.join(showing)} show it as a directive, {', '.join(others)} do not; {_SHOULD}",
                quote=claim.quote[:QUOTE_LIMIT],
                line=line,
                column=1,
                source_id=source_id,
                path=path,
            )
            return Reading((), error, first.near_misses, first.occurrences)
    raise AssertionError("readings differ, yet every claim is in every reading")  # pragma: no cover


def _page_regions(f: _Findings, page: MdxReading, candidates: list[int]) -> list[int]:
    """Apply a page reading (:func:`~_conflict_gate.reading.blocks.mdx.read_mdx`): a build error refuses the page
    (``build_error``), an import of content too (``ambiguous_markup``); a candidate inside a region is
    decided there (in a comment: a near-miss; in an expression, a tag, an element's or an admonition's
    body: refused as misplaced, a mention aside); the others are returned, for the blocks to read."""
    if page.build_error is not None:
        f.refuse("build_error", page.build_error[0], f"{page.build_error[1]}; the site shows nothing of it")
        return []
    if page.include is not None:
        f.refuse("ambiguous_markup", page.include[0], page.include[1])
        return []
    if page.doubt is not None:
        f.refuse("ambiguous_markup", page.doubt[0], page.doubt[1])
        return []
    rest: list[int] = []
    regions, k = page.regions, 0
    stack: list[Region] = []  # the regions started so far; the innermost open one ends up on top
    for at in candidates:
        while k < len(regions) and regions[k].start <= at:
            stack.append(regions[k])
            k += 1
        while stack and stack[-1].end <= at:
            stack.pop()
        if not stack:
            rest.append(at)
            continue
        inner = stack[-1]
        if inner.hidden:
            if _shaped_raw(f, at) or at in f.stated:
                f.near_miss(at, "code" if inner.code else "hidden")
            continue
        if _loosely_shaped(f, at) or at in f.stated:
            if at not in f.stated and f.mention(at):
                f.near_miss(at, "mention")
                continue
            f.refuse(
                "misplaced_directive",
                at,
                f"directive-shaped text inside {inner.name} (line {inner.line}), "
                f"which MDX renders as a container or an expression; {_MOVE_OUT}",
            )
            return []
    return rest


#: UAX #9's explicit formatting characters (embeddings and overrides U+202A-U+202E, isolates
#: U+2066-U+2069) in UTF-8: one reorders the text after it up to the end of its paragraph, where a
#: line break renders as a space, so a reader may see a line other than its bytes.
_BIDI_FORMATTING: Final = re.compile(rb"\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")
_ANGLE: Final = re.compile(r"<[A-Za-z/]|[>\"']", re.ASCII)
_MARKUP_START: Final = re.compile(r"<[A-Za-z/!?]", re.ASCII)
#: A comment, or another ``<!`` or ``<?`` construct, that ends (as a browser ends it) on its line.
_CLOSED_ON_LINE: Final = re.compile(r"<!--(?:>|->|.*?(?:-->|--!>))|<[!?](?!--)[^>]*>", re.ASCII)
_LINE_END: Final = re.compile(r"[\r\n]")


def _markup_lines(view: str, last: int) -> tuple[list[int], int | None]:
    """Offsets of the first markup ``<`` on each line before ``last`` (at most :data:`MAX_HTML_LINES`),
    and the offset past which lines are not followed (``None`` when all are). Markup that ends on its
    line and opens nothing (a comment, ``<!...>``, ``<?...>``) is passed over: a line of only such
    markup leaves nothing open."""
    found: list[int] = []
    carriage_returns = "\r" in view
    pos = 0
    while True:
        match = _MARKUP_START.search(view, pos, last)
        if match is None:
            return found, None
        at = match.start()
        if carriage_returns:
            end = _LINE_END.search(view, at)
            line_end = len(view) if end is None else end.start()
        else:
            line_end = view.find("\n", at)
            line_end = len(view) if line_end == -1 else line_end
        if view[at + 1] in "!?":
            closed = _CLOSED_ON_LINE.match(view, at, line_end)
            if closed is not None:
                pos = closed.end()
                continue
        if len(found) >= MAX_HTML_LINES:
            return found, at
        found.append(at)
        pos = line_end + 1


# --------------------------------------------------------------------------


class _Findings:
    """What was found in one source, in byte offsets into its UTF-8 (``view`` is those bytes as
    Latin-1); :meth:`reading` turns them into lines, columns and code points, in line order."""

    def __init__(
        self,
        view: str,
        encoded: bytes,
        grammar: Grammar,
        source_id: str | None,
        path: str | None,
        renderer: Renderer = DEFAULT,
        stated: frozenset[int] = frozenset(),
    ) -> None:
        self.view = view
        self.encoded = encoded
        self.grammar = grammar
        self.renderer = renderer
        #: candidates on lines that state a claim under any at-word (see _stated_claims)
        self.stated = stated
        #: whether the page may hold link reference definitions (a ``]:`` anywhere)
        self.definitions = "]:" in view
        self.where = {"source_id": source_id, "path": path}
        #: the raw line last asked about by mention(): (start, end, "=" on it, end of its last operation)
        self._line = (-1, -1, False, -1)
        #: (line start, line end, line number, parsed)
        self.directives: list[tuple[int, int, int, tuple[str, str, str]]] = []
        self.problems: list[tuple[int, DirectiveError]] = []  # (offset, error)
        self.near_misses: list[tuple[int, str]] = []  # (offset, where)
        self._counted = (0, 1)  # (offset, line number there): line numbers count on from here
        self.carriage_returns = "\r" in view
        #: whether shortcuts that read a block without the inline rules may be taken (``fast``)
        self.fast = True
        #: what the renderer's site model found (``Renderer.site``), and the leaf being read
        self.site: MkDocsPage | None = None
        self.leaf: Leaf | None = None
        #: for _tag_open: (paragraph start, offset read up to, (a tag seen, its ">" seen, quotes after it))
        self._angle: tuple[int, int, tuple[bool, bool, int, int]] = (-1, -1, (False, True, 0, 0))

    def decode(self, start: int, end: int) -> str:
        return self.encoded[start:end].decode("utf-8", "surrogatepass")

    def mention(self, at: int) -> bool:
        """Is the namespace-shaped text at byte ``at`` a mention: no operation of the
        grammar after it and no ``=`` on its line, as any reading could show the line (markup
        removed, character references decoded, NFKC)? A mention states nothing, so it never
        refuses. Lines are asked in increasing order and each is read once."""
        start, end, equals, last_operation = self._line
        if not start <= at <= end:
            view = self.view
            low = end + 1 if 0 <= end < at else 0
            start = max(view.rfind("\n", low, at) + 1, low)
            end = view.find("\n", at)
            end = len(view) if end == -1 else end
            if self.carriage_returns:
                start = max(start, view.rfind("\r", start, at) + 1)
                cr = view.find("\r", at, end)
                end = end if cr == -1 else cr
            loose = unicodedata.normalize("NFKC", html.unescape(_TAG.sub("", self.decode(start, end))))
            equals = "=" in loose
            last_operation = -1
            for operation in self.grammar.operation_word.finditer(self.encoded, start, end):
                last_operation = operation.start()
            self._line = (start, end, equals, last_operation)
        return not equals and last_operation < at

    def line_of(self, offset: int) -> tuple[int, int, int]:
        """``(1-based line, line start, line end)`` of a byte offset (the end before the line ending).

        Lines end at ``\n``, ``\r\n`` or a lone ``\r`` (CommonMark 2.1).
        """
        view = self.view
        start = view.rfind("\n", 0, offset) + 1
        end = view.find("\n", offset)
        end = len(view) if end == -1 else end
        if self.carriage_returns:
            start = max(start, view.rfind("\r", start, offset) + 1)
            cr = view.find("\r", offset, end)
            end = end if cr == -1 else cr
        counted_at, counted_line = self._counted
        if start < counted_at:
            counted_at, counted_line = 0, 1
        line = counted_line + view.count("\n", counted_at, start)
        if self.carriage_returns:
            line += view.count("\r", counted_at, start) - view.count("\r\n", counted_at, start)
        self._counted = (start, line)
        return line, start, end

    def anchor(self, leaf: Leaf) -> None:
        """Take a leaf's first line number, so that :meth:`line_of` counts on from there."""
        line_no, start, _ = leaf.lines[0]
        if start > self._counted[0]:
            view = self.view
            line_start = view.rfind("\n", 0, start) + 1
            if self.carriage_returns:
                line_start = max(line_start, view.rfind("\r", line_start, start) + 1)
            self._counted = (line_start, line_no + 1)

    def column(self, offset: int, line_start: int) -> int:
        """1-based column of a byte offset, in code points."""
        return len(self.decode(line_start, offset)) + 1

    def refuse(self, reason: str, offset: int, detail: str) -> None:
        line, start, end = self.line_of(offset)
        self.problems.append(
            (
                offset,
                DirectiveError(
                    reason,
                    detail,
                    quote=self.decode(start, end)[:QUOTE_LIMIT],
                    line=line,
                    column=self.column(offset, start),
                    **self.where,
                ),
            )
        )

    def near_miss(self, offset: int, where: str) -> None:
        if self.site is not None and where != "mention" and self.leaf is not None:
            kind, first = self.leaf.kind, self.leaf.lines[0][1]
            why = (
                self.site.code_doubt(offset, first, kind)
                if kind in ("fenced_code", "indented_code")
                else self.site.hidden_doubt(offset, kind)
                if where == "hidden"
                else None
            )
            if why is not None:
                self.refuse(
                    "ambiguous_markup", offset, f"the gate cannot be sure how a reader sees this line: {why}; {_SHOULD}"
                )
                return
        if len(self.near_misses) < MAX_NEAR_MISSES:
            self.near_misses.append((offset, where))

    def _tag_open(self, start: int) -> bool:
        """Is a ``<`` and a letter (or ``/``) earlier in the current paragraph left open before ``start``:
        no ``>`` after it, or an odd number of ``"`` or ``'`` after it (a quoted attribute value may
        run on)? Read on from where the last call stopped (linear over a paragraph)."""
        assert self.leaf is not None
        first = self.leaf.lines[0][1]
        begun, scanned, state = self._angle
        if begun != first or scanned > start:
            begun, scanned, state = first, first, (False, True, 0, 0)
        seen, closed, double, single = state
        for mark in _ANGLE.finditer(self.view, scanned, start):
            found = mark.group()
            if found == ">":
                closed = True
            elif found == '"':
                double += 1
            elif found == "'":
                single += 1
            else:
                seen, closed, double, single = True, False, 0, 0
        self._angle = (begun, start, (seen, closed, double, single))
        return seen and (not closed or double % 2 == 1 or single % 2 == 1)

    def directive(self, start: int, end: int) -> None:
        """A counted directive line ``[start, end)``: parse it now (a grammar error refuses). Where the
        renderer's site model doubts the line (``MkDocsPage.doubts``), it is in doubt instead."""
        doubt = None if self.site is None else self.site.doubts.get(start)
        if doubt is None and self.site is not None and start in self.site.code:
            doubt = (
                "MkDocs shows this line in a fence superfences reads (it closes fences only at the "
                "opener's indentation and run)",
                self.line_of(start)[0] - 1,
            )
        if doubt is None and self.site is not None and self.leaf is not None and self._tag_open(start):
            doubt = (
                "MkDocs (Python-Markdown) takes a tag begun on an earlier line of this paragraph to run "
                "over this line, and hides it",
                self.leaf.lines[0][0],
            )
        if doubt is not None:
            why, cause = doubt
            self.refuse(
                "ambiguous_markup",
                start,
                f"the gate cannot be sure how a reader sees this line: {why} (line {cause + 1}); {_SHOULD}",
            )
            return
        line, _, _ = self.line_of(start)
        try:
            parsed = self.grammar.parse(self.decode(start, end), line=line, **self.where)
        except DirectiveError as error:
            self.problems.append((start, error))
            return
        self.directives.append((start, end, line, parsed))

    def reading(self, bom_bytes: int) -> Reading:
        claims: list[Claim] = []
        declared: dict[tuple[str, str], int] = {}
        problems = list(self.problems)
        points = _CodePoints(self.encoded, ascii=self.view.isascii())  # the view is the bytes as Latin-1
        for start, end, line, (operation, key, value) in self.directives:
            quote = sys.intern(self.decode(start, end))  # pages repeat the same lines (see the occurrences)
            first = declared.get((operation, key))
            if first is not None:
                problems.append(
                    (
                        start,
                        DirectiveError(
                            "duplicate_directive",
                            f"{operation} {key} is already declared on line {first}",
                            quote=quote[:QUOTE_LIMIT],
                            line=line,
                            column=1,
                            **self.where,
                        ),
                    )
                )
                break
            declared[(operation, key)] = line
            start_point = points(start)
            claims.append(
                Claim(
                    operation,
                    key,
                    value,
                    line,
                    start_point,
                    start_point + len(quote),
                    start + bom_bytes,
                    end + bom_bytes,
                    quote,
                )
            )
        near = []
        for offset, where in self.near_misses:
            line, start, end = self.line_of(offset)
            near.append(
                NearMiss(line, self.column(offset, start), where, sys.intern(self.decode(start, end)[:QUOTE_LIMIT]))
            )
        if problems:
            return Reading((), min(problems, key=lambda p: p[0])[1], tuple(near))
        return Reading(tuple(claims), None, tuple(near))


class _CodePoints:
    """Byte offset -> code-point offset in the decoded text, for increasing offsets (linear overall)."""

    def __init__(self, encoded: bytes, *, ascii: bool = False) -> None:
        self.encoded = encoded
        self.ascii = ascii  # then a byte is a code point: nothing to count
        self.at = self.points = 0

    def __call__(self, offset: int) -> int:
        if self.ascii:
            return offset
        if offset < self.at:
            self.at = self.points = 0
        piece = self.encoded[self.at : offset]
        self.points += len(piece) if piece.isascii() else len(piece.decode("utf-8", "surrogatepass"))
        self.at = offset
        return self.points


# --------------------------------------------------------------------------
# per block


_PLACES: Final = {
    "heading": "in a heading",
    # A table is in doubt under the readings the gate compares (one without GFM tables reads a
    # paragraph), so this is for a comparison without that reading: the whole table, not its cells.
    "table": "in a table",
    "html_block": "in an HTML block, where a reader sees it as text",
}
_SHOULD: Final = (
    "a directive counts only as a line of its own in a top-level paragraph; put examples in backticks or a code block"
)


#: What to do with directive-shaped text in a container the message has just named (an admonition, a tab,
#: a JSX element ...), in the terms of the reading that refused it.
_MOVE_OUT: Final = (
    "move the directive out of it, to a line of its own in a top-level paragraph (unindented, "
    "a blank line above and below), or put an example in backticks or a code block"
)


#: The renderer's element around a block's text, for the raw HTML in it (html_tree.RawHtml.begin).
_AROUND: Final = {"paragraph": BLOCK, "heading": HEADING, "table": CELL}


def _read_leaf(f: _Findings, leaf: Leaf, inside: Sequence[int], raw: RawHtml | None) -> None:
    """Classify the candidate at signs ``inside`` one leaf block, in order, up to the first problem;
    then follow the raw HTML it holds (``raw``)."""
    kind = leaf.kind
    opened = raw.before() if raw is not None else None
    doubt = leaf.doubt
    if doubt is None and opened is not None and opened.kind == TEXT:  # raw HTML takes the block as text
        doubt = (opened.line, opened.why)
    # Readers differ on this block: where any reading may show directive-shaped text, refuse.
    # A link definition's doubt is how markdown-it splits definitions, and every reader hides
    # them; unless GitHub reads it as a footnote, which it shows.
    if doubt is not None and (kind != "link_definition" or doubt[1] == FOOTNOTE_DOUBT or doubt is not leaf.doubt):
        line, why = doubt
        for at in inside:
            if _loosely_shaped(f, at) or at in f.stated:
                if at not in f.stated and f.mention(at):
                    f.near_miss(at, "mention")
                    continue
                f.refuse(
                    "ambiguous_markup",
                    at,
                    f"the gate cannot be sure how a reader sees this line: {why} (line {line + 1}); {_SHOULD}",
                )
                return
        if kind not in ("fenced_code", "indented_code"):
            _follow_html(f, leaf, raw, None)
            return  # no reading shows directive-shaped text here
    if kind in _CONTEXT_KINDS:
        where = _CONTEXT_KINDS[kind]
        for at in inside:
            if len(f.near_misses) >= MAX_NEAR_MISSES and f.site is None:
                break
            if _shaped_raw(f, at) or at in f.stated:
                f.near_miss(at, where)
        return
    if leaf.gave_up is not None:
        f.refuse(
            "too_complex",
            inside[0],
            f"this block runs past line {leaf.gave_up + 1}, longer than the {MAX_LEAF_LINES} lines the gate reads",
        )
        return
    if leaf.lines[-1][2] - leaf.lines[0][1] > MAX_BLOCK_BYTES:
        f.refuse(
            "too_complex",
            inside[0],
            f"this block is larger than the {MAX_BLOCK_BYTES} bytes whose inline markup the gate reads",
        )
        return
    if (
        kind == "paragraph"
        and not leaf.containers
        and opened is None
        and (_plain_directive_lines(f, leaf) or (f.fast and _quiet_paragraph(f, leaf, inside)))
    ):
        if raw is not None:  # no raw HTML in it, but its <p> and </p> close what may be open
            raw.begin(BLOCK, leaf.lines[0][0], "", Spans(), lambda offset: 0)
            raw.end()
        return
    if kind == "front_matter":
        if not _refuse_misplaced(f, inside, _shaped_raw, "in front matter"):
            _follow_html(f, leaf, raw, None)
        return
    if kind in _SHOWN_WHOLE:
        _shown_whole(f, leaf, inside, raw)
        return
    place = _PLACES.get(kind)
    if place is None and leaf.containers:
        container, line = leaf.containers[-1]
        place = f"in a {'list item' if container == 'list_item' else 'block quote'} (starting line {line + 1})"
    content = _Content(f, leaf.lines, html=kind == "html_block")
    if raw is not None:
        _begin_html(f, leaf, raw, content)
    if not _classify(f, inside, content, place, raw if kind != "html_block" else None) and raw is not None:
        raw.end()


#: Leaf kinds whose text is context: code, or hidden from a reader.
_CONTEXT_KINDS: Final = {
    "fenced_code": "code",
    "indented_code": "code",
    "link_definition": "hidden",
    MYST_COMMENT: "hidden",
}
#: Leaf kinds a flavour adds whose whole text a reader sees, not read as Markdown (a MyST directive's
#: body may be reStructuredText, HTML or LaTeX): what they are called in a refusal.
_SHOWN_WHOLE: Final = {MYST_DIRECTIVE: "the MyST directive", MYST_MATH: "the math block"}


def _shown_whole(f: _Findings, leaf: Leaf, inside: Sequence[int], raw: RawHtml | None) -> None:
    """A block a reader sees whole (:data:`_SHOWN_WHOLE`): directive-shaped text any reading of it could
    show (coarsely: markup removed, references decoded) refuses, naming the block's opening line; a
    mention is a near-miss. Raw HTML in it is not followed: the blocks after it are in doubt."""
    _, start, end = leaf.lines[0]
    opener = f.decode(start, end).strip()
    place = (
        f"in the body of {_SHOWN_WHOLE[leaf.kind]} {opener[:40]!r} (line {leaf.lines[0][0] + 1}), "
        "a container like a block quote"
    )
    if leaf.kind == MYST_DIRECTIVE and not leaf.containers:  # fenced code in an admonition's body (issue 29)
        code, inside = body_code_split(f.view, leaf.lines[0][1:], len(f.view), inside)
        for at in (at for at in code if _shaped_raw(f, at) or at in f.stated):
            f.near_miss(at, "code")
    if not _refuse_misplaced(f, inside, _loosely_shaped, place):
        _give_up_on_markup(f, leaf, raw)


def _refuse_misplaced(
    f: _Findings, inside: Sequence[int], shaped: Callable[[_Findings, int], bool], where: str
) -> bool:
    """Refuse the source at the first candidate of ``inside`` that ``shaped`` finds directive-shaped or
    that states a claim (``misplaced_directive``, ``where`` it is); a mention before it is a near-miss.
    True when it refused."""
    for at in inside:
        if shaped(f, at) or at in f.stated:
            if at not in f.stated and f.mention(at):
                f.near_miss(at, "mention")
                continue
            f.refuse("misplaced_directive", at, f"directive-shaped text {where}; {_SHOULD}")
            return True
    return False


def _give_up_on_markup(f: _Findings, leaf: Leaf, raw: RawHtml | None) -> None:
    """Raw HTML in a block the gate does not read as HTML: what it leaves open is not followed."""
    if raw is not None and _MARKUP_START.search(f.view, leaf.lines[0][1], leaf.end + 1):
        raw.give_up(
            leaf.lines[0][0],
            f"this block (line {leaf.lines[0][0] + 1}) passes raw HTML through that the gate does not follow",
        )


def _begin_html(f: _Findings, leaf: Leaf, raw: RawHtml, content: _Content) -> None:
    """Give ``raw`` the block's raw HTML: an HTML block's whole text, or the raw HTML of a
    paragraph's, heading's or table's inline content (front matter's whole text where a reading
    without front matter is compared: there it is Markdown)."""
    if leaf.kind == "html_block" or leaf.kind == "front_matter":
        pieces = Spans()
        pieces.add(0, len(content.text))
    else:
        assert content.inline is not None
        pieces = content.inline.raw_html
    raw.begin(_AROUND.get(leaf.kind), leaf.lines[0][0], content.text, pieces, content.line_of)


def _follow_html(f: _Findings, leaf: Leaf, raw: RawHtml | None, content: _Content | None) -> None:
    """Follow the raw HTML of a block whose candidates are read (or that has none): what it leaves open
    for the blocks after it. Code, link definitions and (unless a reading without front matter is
    compared) front matter hold none; a block the gate does not read whole leaves everything after it
    in doubt."""
    if leaf.kind in _SHOWN_WHOLE:
        _give_up_on_markup(f, leaf, raw)
        return
    if raw is None or leaf.kind not in ("paragraph", "heading", "table", "html_block", "front_matter"):
        return
    if leaf.kind == "front_matter" and NO_FRONT_MATTER not in f.renderer.flavour.variants_by_name:
        return
    if leaf.gave_up is not None or leaf.lines[-1][2] - leaf.lines[0][1] > MAX_BLOCK_BYTES:
        raw.give_up(
            leaf.lines[0][0],
            "the gate does not read this block's raw HTML whole (it is longer than "
            "it reads) and cannot tell what it leaves open",
        )
        return
    if content is None:
        if leaf.kind in ("html_block", "front_matter"):  # its whole text is raw HTML: no view needed
            content = _Content(f, leaf.lines, html=True, views=False)
        else:
            content = _Content(f, leaf.lines)
    _begin_html(f, leaf, raw, content)
    raw.end()


def _plain_directive_lines(f: _Findings, leaf: Leaf) -> bool:
    """A top-level paragraph made only of unindented :attr:`Grammar.plain_line` lines (spaces and tabs
    after the value allowed): each is a directive line as written, read without the inline rules.
    False (nothing done) otherwise."""
    pattern, view = f.grammar.plain_line, f.view
    if pattern is None:
        return False
    ends = []
    for _, start, end in leaf.lines:
        trimmed = _trim(view, start, end)
        if (start and view[start - 1] not in "\n\r") or not pattern.fullmatch(view, start, trimmed):
            return False
        ends.append(trimmed)
    for (_, start, _), end in zip(leaf.lines, ends):
        f.directive(start, end)
        if f.problems:
            break
    return True


#: Renderers whose inline reading :func:`_quiet_paragraph` knows: CommonMark 0.31.2 + GFM inlines.
_QUIET_RENDERERS: Final = frozenset({"github", "commonmark"})
#: Outside code spans, a quiet paragraph holds none of these: every other inline construct of
#: CommonMark and GFM that can hide, move or span text (emphasis, strikethrough, links, images,
#: footnotes, raw HTML, autolinks, escapes, character references) starts with one, and so do what
#: other sites add (``$``, ``{``, ``^``, ``|``).
_LOUD: Final = re.compile(r"[*_~\[\]!<>&\\{}$^|]")
_BACKTICKS: Final = re.compile(r"`+")
#: A paragraph with more backtick strings than this is read by the inline rules.
_QUIET_RUNS: Final = 1024


def _quiet_paragraph(f: _Findings, leaf: Leaf, inside: Sequence[int]) -> bool:
    """A top-level paragraph whose candidates are all directive lines as written (unindented
    :attr:`Grammar.plain_line` lines) and whose only inline construct is code spans (CommonMark 6.1),
    none of them around a directive line: each directive line is read as written, as
    :func:`_plain_directive_lines` reads it, without the inline rules, so a directive in a long
    paragraph costs the scans of its bytes and the code spans, not the Python of every line.
    False (nothing done) otherwise, and under a renderer not in :data:`_QUIET_RENDERERS`."""
    pattern, view = f.grammar.plain_line, f.view
    if pattern is None or f.renderer.name not in _QUIET_RENDERERS:
        return False
    wanted = set(inside)
    line_starts = {start for _, start, _ in leaf.lines}
    for at in inside:  # an at sign that no reading shows as directive-shaped: nothing to read there
        if at not in line_starts and not _inert_candidate(f, at):
            return False
    pieces: list[str] = []
    directive_lines: list[tuple[int, int, int]] = []  # (content offset, line start, its end)
    offset = 0
    for _, start, end in leaf.lines:
        if start in wanted:
            trimmed = _trim(view, start, end)
            if (
                view[start] != "@"
                or (start and view[start - 1] not in "\n\r")
                or not pattern.fullmatch(view, start, trimmed)
            ):
                if not _inert_candidate(f, start):
                    return False
                wanted.discard(start)
                pieces.append(view[start:end])
                offset += end - start + 1
                continue
            wanted.discard(start)
            directive_lines.append((offset, start, trimmed))
            pieces.append(" " * (end - start))  # no backtick, nothing loud: read below as written
        else:
            pieces.append(view[start:end])
        offset += end - start + 1
    text = "\n".join(pieces)
    runs: list[tuple[int, int]] = []
    for run in _BACKTICKS.finditer(text):
        runs.append(run.span())
        if len(runs) > _QUIET_RUNS:  # many code spans: the inline rules, in their bounded memory
            return False
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    quiet_from, code = 0, []
    i = 0
    while i < len(runs):  # 6.1: a backtick string opens a code span closed by the next one of its length
        start, end = runs[i]
        same = by_length[end - start]
        k = bisect.bisect_right(same, i)
        if k == len(same):  # no closer: the string is literal text
            i += 1
            continue
        closer = same[k]
        if _LOUD.search(text, quiet_from, start):
            return False
        code.append((start, runs[closer][1]))
        quiet_from = runs[closer][1]
        i = closer + 1
    if _LOUD.search(text, quiet_from):
        return False
    for at, _start, _end in directive_lines:
        if any(a <= at < b for a, b in code):
            return False
    for _, start, end in directive_lines:
        f.directive(start, end)
        if f.problems:
            break
    return True


_WORD: Final = re.compile(r"\S*")


def _inert_candidate(f: _Findings, at: int) -> bool:
    """In a quiet paragraph (a reader sees its text as written, outside code spans), is the candidate at
    byte ``at`` one the rules pass over wherever it is: an ASCII at sign, on no line stating a claim,
    followed by a word no reading shows as directive-shaped (``docs@quill.example``) and short enough
    to be read (:data:`~_conflict_gate.reading.inlines._WORD_LIMIT`)?"""
    if at in f.stated or f.view[at] != "@" or _shaped_raw(f, at):
        return False
    rest, _ = _rest_of_line(f, at, 4 * _WORD_LIMIT)
    word = _WORD.match(rest)
    return word is not None and len(word.group()) < _WORD_LIMIT - 2


def _trim(view: str, start: int, end: int) -> int:
    """``end`` moved back over the spaces and tabs that end the line ``[start, end)``."""
    while end > start and view[end - 1] in " \t":
        end -= 1
    return end


class _Content:
    """One block's content, decoded, and what a reader sees of it (inline, or as HTML).

    ``text`` is the block's lines (byte spans) decoded and joined with
    ``\n``; offsets into it convert to byte offsets and back line by line.
    """

    def __init__(
        self, f: _Findings, lines: Sequence[tuple[int, int, int]], html: bool = False, views: bool = True
    ) -> None:
        self.lines = lines
        self.byte_starts = [start for _, start, _ in lines]
        self._last = (-1, 0, 0)  # (line index, byte offset, content offset) last asked
        if len(lines) == 1:  # one line: no list of lines to join (a megabyte paragraph is one line)
            self.text = f.decode(lines[0][1], lines[0][2])
            self.lengths = [len(self.text)]
        else:
            decoded = [f.decode(start, end) for _, start, end in lines]
            self.lengths = [len(line) for line in decoded]
            self.text = "\n".join(decoded)
            del decoded
        self.starts: list[int] = []
        offset = 0
        for length in self.lengths:
            self.starts.append(offset)
            offset += length + 1
        self._mention_line = (-1, -1, False, -1)  # see mention()
        self.inline: InlineView | None = None
        self.brackets = Spans()
        self.gave_up = False
        self.link_doubt = -1
        self.backtick_doubt = -1
        renderer = f.renderer
        if not views:  # the text only (raw HTML to follow)
            self.code = self.hidden = self.unsure = Spans()
            self.literal = self.linked = View("", (), (), ())
        elif html:
            visible, self.code, self.hidden, self.unsure = html_view(self.text, renderer.tag_filter, renderer.sanitized)
            self.literal = self.linked = visible
        else:
            self.inline = inline_view(self.text, renderer.tag_filter, f.definitions)
            self.literal, self.linked = self.inline.literal, self.inline.linked
            self.code, self.hidden = self.inline.code, self.inline.hidden
            self.brackets, self.gave_up = self.inline.brackets, self.inline.gave_up
            self.unsure = self.inline.unsure
            self.link_doubt = self.inline.link_doubt
            self.backtick_doubt = self.inline.backtick_doubt
        self.f = f

    def at(self, offset: int) -> int:
        """The content offset of a byte offset (decoding on from the last one asked on its line,
        so many at signs on one long line cost one pass)."""
        k = bisect.bisect_right(self.byte_starts, offset) - 1
        last_k, last_offset, last_at = self._last
        if last_k == k and last_offset <= offset:
            result = last_at + len(self.f.decode(last_offset, offset))
        else:
            result = self.starts[k] + len(self.f.decode(self.byte_starts[k], offset))
        self._last = (k, offset, result)
        return result

    def line_span(self, content_offset: int) -> tuple[int, int]:
        """The content span of the line holding ``content_offset``."""
        k = bisect.bisect_right(self.starts, content_offset) - 1
        return self.starts[k], self.starts[k] + self.lengths[k]

    def line_of(self, content_offset: int) -> int:
        """The 0-based page line of a content offset."""
        return self.lines[max(bisect.bisect_right(self.starts, content_offset) - 1, 0)][0]

    def mention(self, at: int, c: int) -> bool:
        """:meth:`_Findings.mention` judged on the line as this block's literal reading shows it (code
        spans and raw HTML left out: a reader reads no claim in code), where the at sign is in it; the
        raw line otherwise. Lines are asked in increasing order and each is read once."""
        index = self.literal.view_index(c)
        if index < 0:
            return self.f.mention(at)
        text = self.literal.text
        start, end, equals, last_operation = self._mention_line
        if not start <= index <= end:
            low = end + 1 if 0 <= end < index else 0
            start = max(text.rfind("\n", low, index) + 1, low)
            end = text.find("\n", index)
            end = len(text) if end == -1 else end
            equals = "=" in unicodedata.normalize("NFKC", text[start:end])
            last_operation = -1
            for operation in self.f.grammar.operation_text.finditer(text, start, end):
                last_operation = operation.start()
            self._mention_line = (start, end, equals, last_operation)
        return not equals and last_operation < index


def _refuse_shaped(f: _Findings, at: int, reason: str, detail: str, block: _Content | None = None, c: int = -1) -> bool:
    """Refuse at a namespace-shaped candidate, unless it is a mention (then a near-miss), judged on the
    line as ``block`` shows it if given (at content offset ``c``). True when refused."""
    if at not in f.stated and (block.mention(at, c) if block is not None else f.mention(at)):
        f.near_miss(at, "mention")
        return False
    f.refuse(reason, at, detail)
    return True


def _classify(f: _Findings, inside: Sequence[int], block: _Content, place: str | None, raw: RawHtml | None) -> bool:
    """Decide each candidate: near-miss (code, hidden, mention), directive, malformed, misplaced or ambiguous.

    ``raw``, for a paragraph, heading or table, says what raw HTML before a
    candidate leaves open around it (then it is followed to the block's end
    here). Stops at the first problem and returns True then.
    """
    if block.gave_up:
        f.refuse("too_complex", inside[0], "brackets or parentheses here nest deeper than the gate reads")
        return True
    for at in inside:
        c = block.at(at)
        stated = at in f.stated
        opened = raw.at(c) if raw is not None else None
        if 0 <= block.link_doubt <= c:
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: a link's "
                f"destination, title or label on line {block.line_of(block.link_doubt) + 1} holds a backtick "
                "or a '<' that is part of the link if the link forms (CommonMark reads the link first), and "
                "otherwise starts a code span or raw HTML that runs on past it; write it as %60 or %3C in a "
                "destination, as &#96; or &lt; in a title",
                block,
                c,
            ):
                return True
            continue
        if 0 <= block.backtick_doubt <= c:
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: GitHub's "
                f"cmark-gfm leaves the backticks on line {block.line_of(block.backtick_doubt) + 1} unpaired "
                "after a run no backticks close (its memo of runs), where CommonMark pairs them into a code "
                "span; close or escape the unpaired run",
                block,
                c,
            ):
                return True
            continue
        if block.unsure and block.unsure.contains(c):
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: "
                "a browser ends this raw HTML elsewhere than CommonMark does, or the site may or may not "
                "show it as text (GFM's tag filter, a sanitizer)",
                block,
                c,
            ):
                return True
            continue
        if opened is not None and opened.kind == TEXT:
            if (_loosely_shaped(f, at) or stated) and _refuse_opened(f, at, opened, block, c):
                return True
            continue
        if f.renderer.code_spans_shown and block.code.contains(c) and _after_role(block, c):
            if (_loosely_shaped(f, at) or stated) and _refuse_shaped(
                f,
                at,
                "misplaced_directive",
                "directive-shaped text in a role's content, which MyST shows as "
                f"text (a role such as {{sub}} or {{abbr}} renders its text, not code); {_SHOULD}",
                block,
                c,
            ):
                return True
            continue
        if block.code.contains(c) or block.hidden.contains(c):
            if _shaped_raw(f, at) or stated:
                f.near_miss(at, "code" if block.code.contains(c) else "hidden")
            continue
        literal_index = block.literal.view_index(c)
        shaped_literal = _shaped(f, block.literal, literal_index)
        shaped_linked = (
            _shaped(f, block.linked, block.linked.view_index(c))
            if block.linked is not block.literal
            else shaped_literal
        )
        if shaped_literal is None or shaped_linked is None:
            f.refuse(
                "too_complex",
                at,
                f"more than {_WORD_LIMIT} characters follow this at sign without a space; the gate does not read them",
            )
            return True
        if not (shaped_literal or shaped_linked):
            if stated and (
                _at_sign_shown(block.literal, literal_index) or _at_sign_shown(block.linked, block.linked.view_index(c))
            ):
                f.refuse("malformed_directive", at, _stated_hint(f, at))
                return True
            continue
        if shaped_literal != shaped_linked:
            if _refuse_shaped(
                f,
                at,
                "ambiguous_markup",
                "the gate cannot be sure how a reader sees this text: "
                "a link's brackets, destination or title may hide or show part of it",
                block,
                c,
            ):
                return True
            continue
        if opened is not None:
            if _refuse_opened(f, at, opened, block, c):
                return True
            continue
        if place is not None:
            if _refuse_shaped(f, at, "misplaced_directive", f"directive-shaped text {place}; {_SHOULD}", block, c):
                return True
            continue
        if _top_level_line(f, at, c, literal_index, block):
            return True
    return False


#: A MyST role's name right before a code span: ``{sub}`...```, ``{abbr}`...```.
_ROLE_BEFORE: Final = re.compile(r"\{[A-Za-z0-9_:+.\-]+\}`*\Z")


def _after_role(block: _Content, c: int) -> bool:
    """Is the code span holding content offset ``c`` a MyST role's content (a ``{name}`` right before
    its backticks)? Sphinx shows a plain code span as code, a role's content as its role renders it."""
    starts = block.code.starts
    k = bisect.bisect_right(starts, c) - 1
    if k < 0:
        return False
    start = starts[k]
    return _ROLE_BEFORE.search(block.text, max(0, start - 80), start) is not None


def _at_sign_shown(view: View, index: int) -> bool:
    """Does the view show an at sign (``@``, or a look-alike NFKC makes one) at ``index``?"""
    return index >= 0 and unicodedata.normalize("NFKC", view.text[index : index + 1]) == "@"


def _refuse_opened(f: _Findings, at: int, opened: Opened, block: _Content, c: int) -> bool:
    return _refuse_shaped(
        f,
        at,
        "ambiguous_markup",
        f"the gate cannot be sure how a reader sees this line: {opened.why} (line {opened.line + 1}); {_SHOULD}",
        block,
        c,
    )


def _stated_hint(f: _Findings, at: int) -> str:
    """Why a claim stated under another at-word refuses the source."""
    word, _ = _rest_of_line(f, at, 4 * 64)
    word = word.split(None, 1)[0] if word.split() else word
    return (
        f"a reader reads a claim stated under {word[:64]!r} here, but the grammar's namespace is "
        f"{f.grammar.namespace!r}: write the directive as {f.grammar.form!r}, or put the example in "
        "backticks or a code block"
    )


def _top_level_line(f: _Findings, at: int, c: int, index: int, block: _Content) -> bool:
    """A shaped at sign in a top-level paragraph: a directive line, a malformed one, or mid-line text.

    Returns True when it refused.
    """
    text = block.literal.text
    i = index - 1
    while i >= 0 and text[i] != "\n" and (text[i].isspace() or invisible(text[i])):
        i -= 1
    if i >= 0 and text[i] != "\n":
        return _refuse_shaped(
            f, at, "misplaced_directive", f"directive-shaped text after other text on its line; {_SHOULD}", block, c
        )
    line_start, line_end = block.line_span(c)
    if block.brackets.overlaps(line_start, line_end):
        return _refuse_shaped(
            f,
            at,
            "misplaced_directive",
            f"directive-shaped text inside a link or brackets that span lines; {_SHOULD}",
            block,
            c,
        )
    if block.mention(at, c):
        f.near_miss(at, "mention")
        return False
    content = block.text
    if "~" in content and "~" in content[:line_start] and "~" in content[line_end:]:
        # GFM 6.5: a strikethrough opened above may close below, and its text is struck out
        return _refuse_shaped(
            f,
            at,
            "ambiguous_markup",
            "the gate cannot be sure how a reader sees this line: "
            "a '~' above and one below in its paragraph may strike it out (GFM strikethrough); "
            f"{_SHOULD}",
            block,
            c,
        )
    _, raw_start, raw_end = f.line_of(at)
    if at == raw_start and f.view[at] == "@":
        f.directive(raw_start, _trim(f.view, raw_start, raw_end))
        return bool(f.problems)
    prefix = f.decode(raw_start, at)
    at_sign = f.encoded[at : min(at + 4, raw_end)].decode("utf-8", "ignore")[:1] or "@"
    f.refuse("malformed_directive", at, _malformed_hint(prefix, at_sign))
    return True


def _malformed_hint(prefix: str, at_sign: str) -> str:
    """Why a line a reader sees as a directive is not exactly one, and what to do."""
    if prefix[:1] in (" ", "\t"):
        why = "it is indented; directive lines start at the first column"
    elif "\\" in prefix:
        why = "the at sign is escaped; write the line without markup"
    elif "&" in prefix or at_sign == "&":
        why = "it uses a character reference; write a plain '@' and no references before it"
    elif at_sign != "@":
        why = f"its at sign is {at_sign!r} (U+{ord(at_sign):04X}); use the ASCII '@'"
    elif prefix and all(not ch.isprintable() or ch.isspace() for ch in prefix):
        why = "invisible characters come before the at sign; remove them"
    else:
        why = "markup comes before the at sign; write the directive as a plain line"
    return f"a reader sees a directive here, but {why}"


def _shaped(f: _Findings, view: View, index: int) -> bool | None:
    """Does directive-shaped text start at view ``index``? ``None`` when the gate will not read that far."""
    if index < 0:
        return False
    word = visible_word(view, index)
    if word is None:
        return None
    return f.grammar.shape.match(word) is not None


def _shaped_raw(f: _Findings, at: int) -> bool:
    """Is the raw text at byte ``at`` (code, hidden HTML: no markup applies) directive-shaped?"""
    segment, _ = _rest_of_line(f, at, 4 * (len(f.grammar.namespace) + 8))
    return bool(_shaped(f, View(segment, (0,), (0,), (1,)), 0))


_TAG: Final = re.compile(r"<[^>]*>?")
_LOOSE_LIMIT: Final = 1024  # bytes after an at sign read by _loosely_shaped


def _loosely_shaped(f: _Findings, at: int) -> bool:
    """Could any reading show directive-shaped text at byte ``at``? Used where readers differ.

    Sound and coarse: the rest of the line with tags removed, character
    references resolved and NFKC applied, keeping letters and digits only,
    starts with the namespace's letters and digits (case-insensitive). A line
    longer than :data:`_LOOSE_LIMIT` bytes that stays undecided counts as shaped.
    """
    segment, cut = _rest_of_line(f, at, _LOOSE_LIMIT)
    segment = unicodedata.normalize("NFKC", html.unescape(_TAG.sub("", segment)))
    letters = "".join(ch for ch in segment[1:] if ch.isalnum()).casefold()
    wanted = f.grammar.namespace_letters
    return letters.startswith(wanted) or (cut and wanted.startswith(letters))


def _rest_of_line(f: _Findings, at: int, limit: int) -> tuple[str, bool]:
    """The source from byte ``at`` to its line's end, at most ``limit`` bytes, decoded (a character
    cut at the limit is dropped); and whether the limit cut the line."""
    end = min(len(f.encoded), at + limit)
    cut = end < len(f.encoded)
    for ending in (b"\n", b"\r"):
        found = f.encoded.find(ending, at, end)
        if found != -1:
            end, cut = found, False
    return f.encoded[at:end].decode("utf-8", "ignore"), cut
