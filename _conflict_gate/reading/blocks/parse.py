"""The block parser: phase 1 of the spec's parsing strategy over a flavour's table, and the comparison
of readings (no I/O)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from .construct import LEAF, LINE_CONSUMED, NO_START, NOT_MATCHED
from .definitions import markdown_it_definitions
from .fast import restart_point, shortcut
from .flavours import GITHUB, Flavour
from .state import FOOTNOTES, MARKDOWN_IT_READING, PARAGRAPH, Leaf, State, Stretches

__all__ = ["parse_blocks"]


def parse_blocks(view: str, watch: Sequence[int], *, fast: bool = True, flavour: Flavour = GITHUB) -> tuple[Leaf, ...]:
    """The leaf blocks of the byte view ``view`` that hold an offset in ``watch`` (sorted byte offsets).

    ``view`` is the page's UTF-8 bytes decoded as Latin-1, one character per
    byte (:func:`~_conflict_gate.reading.reader.read_directives` passes it; an ASCII
    page is its own view); every offset in and out counts bytes. Block
    structure depends on ASCII characters only, so a byte of a non-ASCII
    character is text wherever it is.

    Reads as ``flavour`` does (by default :data:`~_conflict_gate.reading.blocks.flavours.GITHUB`:
    CommonMark, GFM tables, front matter). Where the page has something its
    variants read differently (front matter, a table, a link definition
    followed by more lines, a less-indented lazy line), it reads the page
    again as that variant would, and a watched block whose reading changes
    gets ``doubt`` naming the line where the readings part. Where a reading
    is not modelled but known to differ (a footnote definition, GitHub's
    one-column table; for the markdown-it variant its table rule before
    containers and its link definitions over a setext underline or past 64
    lines), the blocks from that line to where the difference can reach are
    in doubt too. Reads no further than needed: past the last watched offset
    it stops, unless an open paragraph holds one (a following line may still
    make it a heading or a table). ``fast=False`` walks every line through
    the rules (the tests compare both). Never raises (with the rules here);
    the cost grows linearly with the text read (times one plus the number of
    variants).
    """
    if not watch:
        return ()
    leaves, variants, page_unsure, unsure = _parse(view, watch, fast, flavour)
    for name, noted in variants.items():
        variant = flavour.variants_by_name.get(name)
        if variant is None:
            continue
        lines = sorted(set(noted))
        other = {_key(leaf) for leaf in _parse(view, watch, fast, variant.flavour)[0]}
        leaves = tuple(
            leaf
            if leaf.doubt or leaf.kind == "front_matter" or _key(leaf) in other
            else leaf._replace(doubt=(_cause(lines, leaf), variant.why))
            for leaf in leaves
        )
    why = flavour.doubts.get(FOOTNOTES)
    if page_unsure and why is not None:  # the page doubts' stretches first, each leaf by bisection
        marked = []
        for leaf in leaves:
            line = (
                None
                if leaf.doubt is not None
                else page_unsure.covering(leaf.lines[0][0], leaf.lines[-1][0], leaf.lines[0][1])
            )
            marked.append(leaf if line is None else leaf._replace(doubt=(line, why)))
        leaves = tuple(marked)
    for line, end, name in unsure:
        why = flavour.doubts.get(name)
        if why is None:
            continue  # a reading this flavour does not compare
        doubt = (line, why)
        leaves = tuple(
            leaf._replace(doubt=doubt)
            if leaf.doubt is None and leaf.lines[-1][0] >= line and leaf.lines[0][1] < end
            else leaf
            for leaf in leaves
        )
    return leaves


def _cause(lines: list[int], leaf: Leaf) -> int:
    """Of the lines where a reading may part (in order, at least one), the one that puts ``leaf`` in
    doubt: the first inside the leaf, else the nearest to it (a table's header ends the paragraph above)."""
    first, last = leaf.lines[0][0], leaf.lines[-1][0]
    i = bisect.bisect_left(lines, first)
    if i < len(lines) and lines[i] <= last:
        return lines[i]
    if i == 0:
        return lines[0]
    if i == len(lines) or first - lines[i - 1] < lines[i] - last:
        return lines[i - 1]
    return lines[i]


def _key(leaf: Leaf) -> tuple[str, int, int, bool]:
    """What must not change between readings: the block's kind, lines and whether it is top level."""
    return (leaf.kind, leaf.lines[0][0], leaf.lines[-1][0], bool(leaf.containers))


def _parse(
    view: str, watch: Sequence[int], fast: bool, flavour: Flavour
) -> tuple[tuple[Leaf, ...], dict[str, list[int]], Stretches, list[tuple[int, int, str]]]:
    """One reading: its leaves, and (primary only) the lines each variant may read otherwise and
    the unsure stretches (the page doubts', footnotes, then the rules')."""
    s = State(view, watch, flavour)
    lines, stack = s.view, s.stack
    size, last_watched, watched = len(lines), watch[-1], len(watch)
    if flavour.primary:
        for doubt in flavour.page_doubts:
            doubt(s, last_watched)
    for page_start in flavour.page_starts:
        if page_start(s):
            break
    while s.pos < size:
        tip = stack[-1]
        if s.pos > last_watched and not (tip.kind == PARAGRAPH and tip.lines and s.watched(tip.lines[0][1], s.pos)):
            break
        if fast:
            i = bisect.bisect_left(watch, s.pos)
            # Past the last watched offset only an open paragraph holding one is read on,
            # to its end: its continuation lines, never a run of the blocks after it.
            stop = lines.rfind("\n", 0, watch[i]) + 1 if i < watched else s.pos
            if len(stack) == 1 and stop > s.pos:
                restart = restart_point(s, stop)
                if restart > s.pos:
                    s.line_no += lines.count("\n", s.pos, restart)
                    s.pos = restart
                    continue
            if shortcut(s, stop):
                continue
        eol = lines.find("\n", s.pos)
        s.line_no += 1
        s.line_end = eol - 1 if eol > s.pos and lines[eol - 1] == "\r" else eol
        s.line = lines[s.pos : s.line_end]
        _incorporate_line(s)
        s.pos = eol + 1
    while len(stack) > 1:
        s.close()
    if not flavour.primary:
        return tuple(s.leaves), {}, Stretches(), []
    return tuple(s.leaves), s.variants, s.page_unsure, s.unsure


def _incorporate_line(s: State) -> None:
    """Phase 1 for one line: match the open blocks, try new block starts, add the text."""
    flavour, stack = s.flavour, s.stack
    for char, check in flavour.active_line_doubts:
        if char in s.line and not stack[-1].construct.raw:
            check(s)
    if flavour.definitions_as_blocks and stack[-1].kind == PARAGRAPH:
        reading = markdown_it_definitions(s)
        if reading == "close":
            s.close()
        elif reading == "absorb":
            stack[-1].add((s.line_no, s.pos + len(s.line) - len(s.line.lstrip(" \t>")), s.line_end))
            return
    s.offset = s.column = 0
    s.partial_tab = False
    s.old_tip = stack[-1]
    index = 1
    while index < len(stack):
        s.find_next_nonspace()
        block = stack[index]
        result = block.continues(s, block)
        if result is LINE_CONSUMED:
            return
        if result is NOT_MATCHED:
            break
        index += 1
    container = stack[index - 1]
    s.all_closed = container is s.old_tip
    s.last_matched = container
    matched_leaf = container.construct.closed_to_starts
    while not matched_leaf:
        s.find_next_nonspace()
        if s.indented:
            rules = flavour.indented_paragraph_starts if stack[-1].kind == PARAGRAPH else flavour.indented_starts
        else:
            first = s.char_at(s.next_nonspace)
            if first not in flavour.maybe_special:  # no row starts a block with it: paragraph text
                s.advance_next_nonspace()
                break
            rules = (flavour.paragraph_starts if stack[-1].kind == PARAGRAPH else flavour.starts)[first]
        for rule in rules:
            started = rule(s, container)
            if started is not NO_START:
                container = stack[-1]
                matched_leaf = started is LEAF
                break
        else:
            s.advance_next_nonspace()
            break
    if not s.all_closed and not s.blank and stack[-1].kind == PARAGRAPH:
        if s.indented and s.char_at(s.next_nonspace) in flavour.maybe_special:
            s.note_variant(MARKDOWN_IT_READING, s.line_no)  # markdown-it may end the paragraph here
            if flavour.lazy_lines_end_paragraphs:
                s.close_unmatched()
                while s.stack[-1].kind == PARAGRAPH:
                    s.close()
                _incorporate_line(s)
                return
        s.add_line()  # a lazy continuation line (5.1, 5.2)
        return
    s.close_unmatched()
    construct = container.construct
    if construct.takes_lines:  # the container is the tip now
        s.add_line()
        if construct.closes_after is not None and construct.closes_after(container, s.line[s.offset :]):
            s.close()
    elif s.offset < len(s.line) and not s.blank:
        s.add_child(PARAGRAPH, None)
        s.advance_next_nonspace()
        s.add_line()
