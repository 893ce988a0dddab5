"""One source's directives, as a reader of the rendered page sees them.

:func:`read_directives` finds the at signs that may start directive-shaped
text (:attr:`Grammar.candidates <_conflict_gate.grammar.Grammar.candidates>`),
asks :mod:`~_conflict_gate.blocks` for the blocks that hold them and
:mod:`~_conflict_gate.inlines` for what a reader sees there, and decides:

* A **directive** counts only as an unindented source line of a top-level
  paragraph that is exactly ``@<namespace> <operation> <key>=<value>`` and
  lies outside every inline construct. Adjacent directive lines in one
  paragraph each count. The quote is the whole raw source line.
* **Directive-shaped text** a reader sees anywhere else refuses the source:
  in a list item, block quote, heading, table, HTML block or front matter,
  after other text on a line (``misplaced_directive``), or at the start of a
  paragraph line behind indentation, an escape, a character reference,
  invisible characters or markup (``malformed_directive``).
* Directive-shaped text in code (fences, indented code, code spans) or hidden
  HTML (comments, tags, processing instructions, ``<template>``) or a link
  definition is context: a **near-miss**, reported, never counted or refused.
* Where the gate cannot be sure how a reader sees a block (readers differ, or
  a link may hide the text), a block holding a candidate at sign refuses the
  source (``ambiguous_markup``), naming the line that causes the doubt.
  Nothing outside that block is affected.

Lines are CommonMark lines (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one),
numbered from 1; columns and ``start``/``end`` count code points into the
decoded text (BOM excluded); ``byte_start``/``byte_end`` count bytes into
the pinned raw source (BOM included).
"""

from __future__ import annotations

import bisect
from typing import Final, NamedTuple, Sequence

from .blocks import MAX_LEAF_LINES, Leaf, line_view, parse_blocks
from .errors import DirectiveError
from .grammar import Grammar
from .inlines import _WORD_LIMIT, InlineView, View, html_view, inline_view, invisible, visible_word

__all__ = ["Claim", "MAX_CANDIDATES", "MAX_NEAR_MISSES", "NearMiss", "Reading", "read_directives"]

#: At most this many near-misses are kept per source, so no input can grow memory.
MAX_NEAR_MISSES: Final = 100
#: A source with more candidate at signs than this is refused (``too_complex``) unread.
MAX_CANDIDATES: Final = 10_000
#: Quotes of near-misses and refusals are cut to this many code points.
QUOTE_LIMIT: Final = 200


class Claim(NamedTuple):
    """One counted directive line: what it declares and exactly where.

    ``line`` is 1-based; ``start``/``end`` are code points into the decoded
    text (BOM excluded, end exclusive), ``byte_start``/``byte_end`` bytes into
    the pinned raw source (BOM included). ``quote`` is the whole source line:
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
    """Directive-shaped text that counts for nothing: in code (``where="code"``) or hidden (``"hidden"``).

    ``line`` and ``column`` are 1-based (column in code points); ``quote`` is
    the source line, cut to :data:`QUOTE_LIMIT` code points.
    """

    line: int
    column: int
    where: str
    quote: str


class Reading(NamedTuple):
    """What one source declares: its ``claims`` in line order, or the ``refusal`` (then no claims);
    and its first :data:`MAX_NEAR_MISSES` ``near_misses``."""

    claims: tuple[Claim, ...]
    refusal: DirectiveError | None
    near_misses: tuple[NearMiss, ...]


_EMPTY: Final = Reading((), None, ())


def read_directives(text: str, grammar: Grammar, *, bom_bytes: int = 0, source_id: str | None = None,
                    path: str | None = None, fast: bool = True) -> Reading:
    """Read the directives of one decoded source (BOM removed; ``bom_bytes`` is its length in bytes).

    ``source_id`` and ``path`` label errors. Returns a :class:`Reading`;
    problems are not raised but returned as ``refusal`` (the first in line
    order), a :class:`DirectiveError` with reason ``malformed_directive``,
    ``misplaced_directive``, ``ambiguous_markup``, ``too_complex``,
    ``duplicate_directive`` or one of the grammar's (``unsupported_operation``,
    ...). Refuses to guess: any doubt about what a reader sees near a
    candidate refuses the source, and so does a source past the limits
    (:data:`MAX_CANDIDATES` candidate at signs, a block longer than
    :data:`~_conflict_gate.blocks.MAX_LEAF_LINES` lines, brackets nested
    deeper than :data:`~_conflict_gate.inlines.MAX_NESTING`). Never raises on
    any text; time and memory grow linearly with the text.
    """
    findings = _Findings(text, grammar, source_id, path)
    candidates = _candidates(text, grammar)
    if len(candidates) > MAX_CANDIDATES:
        findings.refuse("too_complex", candidates[MAX_CANDIDATES],
                        f"more than {MAX_CANDIDATES} at signs that may start a directive; the gate "
                        "does not read such a source")
        return findings.reading(bom_bytes)
    if not candidates:
        return _EMPTY
    leaves = sorted(parse_blocks(text, candidates, fast=fast), key=lambda leaf: leaf.lines[0][1])
    for leaf in leaves:
        start, end = leaf.lines[0][1], leaf.end
        inside = candidates[bisect.bisect_left(candidates, start):bisect.bisect_right(candidates, end)]
        if inside:
            _read_leaf(findings, leaf, inside)
            if findings.problems:  # later blocks cannot hold an earlier problem
                break
    return findings.reading(bom_bytes)


def _candidates(text: str, grammar: Grammar) -> list[int]:
    """Offsets of the at signs that may start directive-shaped text, in order (at most one past the cap)."""
    found = []
    if "@" in text:
        for match in grammar.candidates.finditer(text):
            found.append(match.start())
            if len(found) > MAX_CANDIDATES:
                break
    if not text.isascii() or "&" in text:
        odd = []
        for match in grammar.odd_candidates.finditer(text):
            odd.append(match.start())
            if len(odd) > MAX_CANDIDATES:
                break
        if odd:
            found = sorted(found + odd)
    return found


# --------------------------------------------------------------------------


class _Findings:
    """What was found in one source; :meth:`reading` puts it in line order."""

    def __init__(self, text: str, grammar: Grammar, source_id: str | None, path: str | None) -> None:
        self.text = text
        self.view = line_view(text)
        self.grammar = grammar
        self.where = {"source_id": source_id, "path": path}
        self.directives: list[tuple[int, int, tuple[str, str, str]]] = []  # (line start, line end, parsed)
        self.problems: list[tuple[int, DirectiveError]] = []  # (offset, error)
        self.near_misses: list[tuple[int, str]] = []  # (offset, where)

    def line_of(self, offset: int) -> tuple[int, int, int]:
        """``(1-based line, line start, line end)`` of an offset (line end before its line ending)."""
        start = self.view.rfind("\n", 0, offset) + 1
        end = self.view.find("\n", offset)
        if end > start and self.view[end - 1] == "\r":
            end -= 1
        return self.view.count("\n", 0, start) + 1, start, min(end, len(self.text))

    def refuse(self, reason: str, offset: int, detail: str) -> None:
        line, start, end = self.line_of(offset)
        self.problems.append((offset, DirectiveError(
            reason, detail, quote=self.text[start:end][:QUOTE_LIMIT], line=line,
            column=offset - start + 1, **self.where)))

    def near_miss(self, offset: int, where: str) -> None:
        if len(self.near_misses) < MAX_NEAR_MISSES:
            self.near_misses.append((offset, where))

    def directive(self, start: int, end: int) -> None:
        """A counted directive line ``text[start:end]``: parse it now (a grammar error refuses)."""
        line, _, _ = self.line_of(start)
        try:
            parsed = self.grammar.parse(self.text[start:end], line=line, **self.where)
        except DirectiveError as error:
            self.problems.append((start, error))
            return
        self.directives.append((start, end, parsed))

    def reading(self, bom_bytes: int) -> Reading:
        claims: list[Claim] = []
        declared: dict[tuple[str, str], int] = {}
        problems = list(self.problems)
        byte_at = _ByteOffsets(self.text, bom_bytes)
        for start, end, (operation, key, value) in self.directives:
            line, _, _ = self.line_of(start)
            first = declared.get((operation, key))
            if first is not None:
                problems.append((start, DirectiveError(
                    "duplicate_directive", f"{operation} {key} is already declared on line {first}",
                    quote=self.text[start:end][:QUOTE_LIMIT], line=line, column=1, **self.where)))
                break
            declared[(operation, key)] = line
            claims.append(Claim(operation, key, value, line, start, end, byte_at(start), byte_at(end),
                                self.text[start:end]))
        near = []
        for offset, where in self.near_misses:
            line, start, end = self.line_of(offset)
            near.append(NearMiss(line, offset - start + 1, where, self.text[start:end][:QUOTE_LIMIT]))
        if problems:
            return Reading((), min(problems, key=lambda p: p[0])[1], tuple(near))
        return Reading(tuple(claims), None, tuple(near))


class _ByteOffsets:
    """Code-point offset -> byte offset in the raw source, for increasing offsets (linear overall)."""

    def __init__(self, text: str, bom_bytes: int) -> None:
        self.text = text
        self.ascii = text.isascii()
        self.bom = bom_bytes
        self.at = 0
        self.bytes = bom_bytes

    def __call__(self, offset: int) -> int:
        if self.ascii:
            return offset + self.bom
        self.bytes += len(self.text[self.at:offset].encode("utf-8"))
        self.at = offset
        return self.bytes


# --------------------------------------------------------------------------
# per block


_PLACES: Final = {
    "heading": "in a heading",
    "table": "in a table",
    "front_matter": "in front matter",
    "html_block": "in an HTML block, where a reader sees it as text",
}
_SHOULD: Final = ("a directive counts only as a line of its own in a top-level paragraph; "
                  "put examples in backticks or a code block")


def _read_leaf(f: _Findings, leaf: Leaf, inside: Sequence[int]) -> None:
    """Classify the candidate at signs ``inside`` one leaf block, in order, up to the first problem."""
    kind = leaf.kind
    if kind in ("fenced_code", "indented_code", "link_definition"):
        where = "hidden" if kind == "link_definition" else "code"
        for at in inside:
            if len(f.near_misses) >= MAX_NEAR_MISSES:
                break
            if _shaped_raw(f, at):
                f.near_miss(at, where)
        return
    if leaf.doubt is not None:
        line, why = leaf.doubt
        f.refuse("ambiguous_markup", inside[0],
                 f"the gate cannot be sure how a reader sees this line: {why} (line {line + 1})")
        return
    if leaf.gave_up is not None:
        f.refuse("too_complex", inside[0], f"this block runs past line {leaf.gave_up + 1}, longer "
                 f"than the {MAX_LEAF_LINES} lines the gate reads")
        return
    if kind == "front_matter":
        for at in inside:
            if _shaped_raw(f, at):
                f.refuse("misplaced_directive", at, f"directive-shaped text in front matter; {_SHOULD}")
                return
        return
    if kind == "html_block":
        content = "\n".join(f.text[a:b] for _, a, b in leaf.lines)
        visible, code, hidden = html_view(content)
        _classify(f, inside, _Block(content, [start for _, start, _ in leaf.lines],
                                    _offsets(content), visible, visible, code, hidden, (), None),
                  _PLACES[kind])
        return
    if kind == "table":
        for line_no, start, end in leaf.lines:
            for cell_start, cell_end in _cell_spans(f.text, start, end):
                cell = [at for at in inside if cell_start <= at < cell_end]
                if cell and _read_inline(f, cell, [(line_no, cell_start, cell_end)], _PLACES["table"]):
                    return
        return
    place = _PLACES.get(kind)
    if place is None and leaf.containers:
        container, line = leaf.containers[-1]
        place = f"in a {'list item' if container == 'list_item' else 'block quote'} (starting line {line + 1})"
    _read_inline(f, inside, leaf.lines, place)


def _offsets(content: str) -> list[int]:
    """Offsets in ``content`` where each of its lines starts."""
    return [0] + [i + 1 for i, ch in enumerate(content) if ch == "\n"]


class _Block(NamedTuple):
    """One block's content and the two readings of it, ready to classify candidates."""

    content: str
    raw_starts: Sequence[int]
    content_starts: Sequence[int]
    literal: View
    linked: View
    code: Sequence[tuple[int, int]]
    hidden: Sequence[tuple[int, int]]
    brackets: Sequence[tuple[int, int]]
    inline: InlineView | None

    def content_at(self, raw_offset: int) -> int:
        k = bisect.bisect_right(self.raw_starts, raw_offset) - 1
        return self.content_starts[k] + raw_offset - self.raw_starts[k]


def _read_inline(f: _Findings, inside: Sequence[int], lines: Sequence[tuple[int, int, int]],
                 place: str | None) -> bool:
    """Classify candidates in one inline content; True when a problem was found."""
    view = inline_view(f.text, lines)
    if view.gave_up:
        f.refuse("too_complex", inside[0], "brackets or parentheses here nest deeper than the gate reads")
        return True
    block = _Block(view.content, [start for _, start, _ in lines], view.line_starts, view.literal,
                   view.linked, view.code, view.hidden, view.brackets, view)
    return _classify(f, inside, block, place)


def _classify(f: _Findings, inside: Sequence[int], block: _Block, place: str | None) -> bool:
    """Decide each candidate: near-miss (code, hidden), directive, malformed, misplaced or ambiguous.

    Stops at the first problem and returns True then.
    """
    for at in inside:
        c = block.content_at(at)
        if _within(c, block.code) or _within(c, block.hidden):
            if _shaped_raw(f, at):
                f.near_miss(at, "code" if _within(c, block.code) else "hidden")
            continue
        literal_index = block.literal.index(c)
        shaped_literal = _shaped(f, block.literal, literal_index)
        shaped_linked = _shaped(f, block.linked, block.linked.index(c)) \
            if block.linked is not block.literal else shaped_literal
        if shaped_literal is None or shaped_linked is None:
            f.refuse("too_complex", at, f"more than {_WORD_LIMIT} characters follow this at sign "
                     "without a space; the gate does not read them")
            return True
        if not (shaped_literal or shaped_linked):
            continue
        if shaped_literal != shaped_linked:
            f.refuse("ambiguous_markup", at, "the gate cannot be sure how a reader sees this text: "
                     "a link's brackets, destination or title may hide or show part of it")
            return True
        if place is not None:
            f.refuse("misplaced_directive", at, f"directive-shaped text {place}; {_SHOULD}")
            return True
        if _top_level_line(f, at, c, literal_index, block):
            return True
    return False


def _top_level_line(f: _Findings, at: int, c: int, index: int, block: _Block) -> bool:
    """A shaped at sign in a top-level paragraph: a directive line, a malformed one, or mid-line text.

    Returns True when it refused.
    """
    assert block.inline is not None
    text = block.literal.text
    i = index - 1
    while i >= 0 and text[i] != "\n" and (text[i].isspace() or invisible(text[i])):
        i -= 1
    if i >= 0 and text[i] != "\n":
        f.refuse("misplaced_directive", at, f"directive-shaped text after other text on its line; {_SHOULD}")
        return True
    _, line_start, line_end = f.line_of(at)
    k = bisect.bisect_right(block.inline.line_starts, c) - 1
    line_content = (block.inline.line_starts[k], block.inline.line_starts[k] + line_end - line_start)
    k = bisect.bisect_left(block.brackets, (line_content[1],))
    if any(a < line_content[1] and b > line_content[0] for a, b in block.brackets[:k]):
        f.refuse("misplaced_directive", at, "directive-shaped text inside a link or brackets that "
                 f"span lines; {_SHOULD}")
        return True
    if at == line_start and f.text[at] == "@":
        f.directive(line_start, line_end)
        return bool(f.problems)
    f.refuse("malformed_directive", at, _malformed_hint(f.text[line_start:at], f.text[at]))
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
    """Is the raw text at ``at`` (code, hidden HTML: no markup applies) directive-shaped?"""
    return bool(_shaped(f, View(f.text, (0,), (0,), (1,)), at))


def _within(offset: int, spans: Sequence[tuple[int, int]]) -> bool:
    k = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]


def _cell_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A table row's cells as offsets (markdown-it's split at unescaped ``|``; outer empty cells dropped)."""
    spans = []
    last = start
    escaped = False
    for i in range(start, end):
        ch = text[i]
        if ch == "|" and not escaped:
            spans.append((last, i))
            last = i + 1
        escaped = ch == "\\"
    spans.append((last, end))
    if spans and not text[spans[0][0]:spans[0][1]].strip(" \t"):
        spans.pop(0)
    if spans and not text[spans[-1][0]:spans[-1][1]].strip(" \t"):
        spans.pop()
    return spans
