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
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from ..base.errors import DirectiveError
from ..base.registry import DEFAULT_RENDERER
from ..manifest.grammar import Grammar
from .blocks import FOOTNOTE_DOUBT, MAX_LEAF_LINES, Leaf, parse_blocks
from .blocks.state import MYST_COMMENT_LEAF, MYST_DIRECTIVE_LEAF, MYST_MATH_LEAF, NO_FRONT_MATTER
from .candidates import MAX_CANDIDATES, MAX_OCCURRENCE_CHARS, candidates_of, occurrences
from .html_tree import BLOCK, CELL, HEADING, TEXT, RawHtml
from .inline_spans import Spans
from .mkdocs_lines import snippet_marked
from .reader_findings import _SHOULD, _Findings, _loosely_shaped, _shaped_raw
from .reader_lines import _classify, _Content, _plain_directive_lines, _quiet_paragraph
from .reading_shapes import _EMPTY, MAX_BLOCK_BYTES, MAX_HTML_LINES, MAX_NEAR_MISSES, QUOTE_LIMIT, LeftOut, Reading
from .renderers import RENDERER_VALUES, PageRefusal, Renderer

if TYPE_CHECKING:  # a renderer's own reading modules are imported with its value (renderers.renderer_named)
    from .blocks.mdx import MdxReading, Region
    from .mkdocs import MkDocsPage

__all__ = ["MAX_CANDIDATES", "MAX_OCCURRENCE_CHARS", "read_directives"]


def read_directives(
    text: str,
    grammar: Grammar,
    *,
    bom_bytes: int = 0,
    source_id: str | None = None,
    path: str | None = None,
    fast: bool = True,
    encoded: bytes | None = None,
    renderer: Renderer | None = None,
) -> Reading:
    """Read the directives of one decoded source (BOM removed; ``bom_bytes`` is its length in bytes).

    ``source_id`` and ``path`` label errors; ``encoded`` may give ``text``
    encoded as UTF-8, if the caller has it. ``renderer`` is how the site
    renders the page (the manifest's; ``None``: ``portable``, judged against
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
    deeper than :data:`~_conflict_gate.reading.inline_spans.MAX_NESTING`), and a source
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
    renderer = RENDERER_VALUES[DEFAULT_RENDERER] if renderer is None else renderer
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
        page = renderer.page_reading(view, candidates)
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
# per block


_PLACES: Final = {
    "heading": "in a heading",
    # A table is in doubt under the readings the gate compares (one without GFM tables reads a
    # paragraph), so this is for a comparison without that reading: the whole table, not its cells.
    "table": "in a table",
    "html_block": "in an HTML block, where a reader sees it as text",
}


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
    MYST_COMMENT_LEAF: "hidden",
}
#: Leaf kinds a flavour adds whose whole text a reader sees, not read as Markdown (a MyST directive's
#: body may be reStructuredText, HTML or LaTeX): what they are called in a refusal.
_SHOWN_WHOLE: Final = {MYST_DIRECTIVE_LEAF: "the MyST directive", MYST_MATH_LEAF: "the math block"}


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
    if leaf.kind == MYST_DIRECTIVE_LEAF and not leaf.containers:  # fenced code in an admonition's body (issue 29)
        from .blocks.myst import body_code_split  # (imported with the myst renderer, which alone makes this leaf)

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
