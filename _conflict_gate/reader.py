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
  in a list item, block quote, heading, HTML block or front matter,
  after other text on a line (``misplaced_directive``), or at the start of a
  paragraph line behind indentation, an escape, a character reference,
  invisible characters or markup (``malformed_directive``).
* Directive-shaped text in code (fences, indented code, code spans) or hidden
  HTML (comments, tags, processing instructions, ``<template>``) or a link
  definition is context: a **near-miss**, reported, never counted or refused.
* Where the gate cannot be sure how a reader sees a block (GitHub, markdown-it
  and CommonMark read it differently, a link may hide the text, or raw HTML
  opened in an earlier block may still be open around it), a block that may
  show directive-shaped text refuses the source (``ambiguous_markup``), naming
  the line that causes the doubt. Nothing outside that block is affected.
  Every table is such a block (a reader without GFM tables reads its lines
  as a paragraph), so the gate does not read table cells.

Lines are CommonMark lines (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one),
numbered from 1; columns and ``start``/``end`` count code points into the
decoded text (BOM excluded); ``byte_start``/``byte_end`` count bytes into
the pinned raw source (BOM included).
"""

from __future__ import annotations

import bisect
import html
import re
import sys
import unicodedata
from typing import Final, NamedTuple, Sequence

from .blocks import FOOTNOTE_DOUBT, MAX_LEAF_LINES, Leaf, parse_blocks
from .errors import DirectiveError
from .grammar import Grammar
from .inlines import (
    _WORD_LIMIT,
    Indexes,
    InlineView,
    View,
    browser_markup_end,
    html_view,
    inline_view,
    invisible,
    visible_word,
)

__all__ = ["Claim", "MAX_BLOCK_BYTES", "MAX_CANDIDATES", "MAX_NEAR_MISSES", "MAX_OCCURRENCE_CHARS", "NearMiss",
           "Reading", "read_directives"]

#: At most this many near-misses are kept per source, so no input can grow memory.
MAX_NEAR_MISSES: Final = 100
#: A source with more candidate at signs than this is refused (``too_complex``) unread.
MAX_CANDIDATES: Final = 10_000
#: A block holding a candidate whose inline markup would be read (paragraph, heading, table, HTML)
#: and that is larger than this many bytes is refused unread: reading inline markup keeps a few
#: dozen bytes per construct, so this bounds memory on any source.
MAX_BLOCK_BYTES: Final = 1 << 20
#: Quotes of near-misses and refusals are cut to this many code points.
QUOTE_LIMIT: Final = 200
#: Occurrences (``Reading.occurrences``) are cut to this many code points.
MAX_OCCURRENCE_CHARS: Final = 256


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
    and its first :data:`MAX_NEAR_MISSES` ``near_misses``.

    ``occurrences``: the directive-shaped text of the source, wherever it is (claims, near-misses
    in code or hidden HTML, inline-code mentions, refused lines): from each candidate at sign
    that is an ASCII ``@``, the rest of its line, cut to :data:`MAX_OCCURRENCE_CHARS` code points;
    distinct, in source order. The answer check looks quotes up in them
    (:class:`~_conflict_gate.quotes.QuoteIndex`), so it never reads a source again.
    """

    claims: tuple[Claim, ...]
    refusal: DirectiveError | None
    near_misses: tuple[NearMiss, ...]
    occurrences: tuple[str, ...] = ()


_EMPTY: Final = Reading((), None, ())


def read_directives(text: str, grammar: Grammar, *, bom_bytes: int = 0, source_id: str | None = None,
                    path: str | None = None, fast: bool = True, encoded: bytes | None = None) -> Reading:
    """Read the directives of one decoded source (BOM removed; ``bom_bytes`` is its length in bytes).

    ``source_id`` and ``path`` label errors; ``encoded`` may give ``text``
    encoded as UTF-8, if the caller has it. Returns a :class:`Reading`;
    problems are not raised but returned as ``refusal`` (the first in line
    order), a :class:`DirectiveError` with reason ``malformed_directive``,
    ``misplaced_directive``, ``ambiguous_markup``, ``too_complex``,
    ``duplicate_directive`` or one of the grammar's (``unsupported_operation``,
    ...). Refuses to guess: any doubt about what a reader sees near a
    candidate refuses the source, and so does a source past the limits
    (:data:`MAX_CANDIDATES` candidate at signs, a block longer than
    :data:`~_conflict_gate.blocks.MAX_LEAF_LINES` lines or, where inline
    markup is read, :data:`MAX_BLOCK_BYTES` bytes, brackets nested
    deeper than :data:`~_conflict_gate.inlines.MAX_NESTING`). Never raises on
    any text; time and memory grow linearly with the text.

    Block structure depends on ASCII characters only, so candidates and
    blocks are found in the UTF-8 bytes (read as Latin-1: one character per
    byte, fast to scan), and only the lines the gate analyses or reports are
    decoded.
    """
    encoded = text.encode("utf-8", "surrogatepass") if encoded is None else encoded
    candidates = _candidates(encoded, grammar)
    if not candidates:
        return _EMPTY
    view = text if text.isascii() else encoded.decode("latin-1")
    findings = _Findings(view, encoded, grammar, source_id, path)
    if len(candidates) > MAX_CANDIDATES:
        findings.refuse("too_complex", candidates[MAX_CANDIDATES], f"more than {MAX_CANDIDATES} at "
                        "signs that may start a directive; the gate does not read such a source")
        return findings.reading(bom_bytes)._replace(occurrences=_occurrences(encoded, candidates))
    leaves = sorted(parse_blocks(view, candidates, fast=fast), key=lambda leaf: leaf.lines[0][1])
    html = _OpenHtml(view) if "<" in view else None
    for leaf in leaves:
        inside = candidates[bisect.bisect_left(candidates, leaf.lines[0][1]):
                            bisect.bisect_right(candidates, leaf.end)]
        if inside:
            findings.anchor(leaf)
            opened = html.before(view.rfind("\n", 0, leaf.lines[0][1]) + 1) if html else None
            if opened is not None:
                leaf = leaf._replace(doubt=opened)
            _read_leaf(findings, leaf, inside)
            if findings.problems:  # later blocks cannot hold an earlier problem
                break
    return findings.reading(bom_bytes)._replace(occurrences=_occurrences(encoded, candidates))


def _occurrences(encoded: bytes, candidates: Sequence[int]) -> tuple[str, ...]:
    """``Reading.occurrences``: from each candidate that is an ASCII at sign (at most
    :data:`MAX_CANDIDATES`), the rest of its line, cut to :data:`MAX_OCCURRENCE_CHARS` code points
    (a character cut by the byte cap is dropped); distinct, in source order, each interned."""
    found: dict[str, None] = {}
    cap = 4 * MAX_OCCURRENCE_CHARS
    for at in candidates[:MAX_CANDIDATES]:
        if encoded[at] != 0x40:  # a look-alike or a reference: no ASCII quote starts there
            continue
        end = min(len(encoded), at + cap)
        for ending in (b"\n", b"\r"):
            found_at = encoded.find(ending, at, end)
            if found_at != -1:
                end = found_at
        found.setdefault(encoded[at:end].decode("utf-8", "ignore")[:MAX_OCCURRENCE_CHARS])
    # interned: pages repeat the same directive lines, so a corpus keeps each text once
    return tuple(map(sys.intern, found))


_JUMPS: Final = 64


def _candidates(encoded: bytes, grammar: Grammar) -> list[int]:
    """Byte offsets of the at signs that may start directive-shaped text, in order (at most one past the cap)."""
    found: list[int] = []
    lead_ef = b"\xef" in encoded  # U+FF20 and U+FE6B are both encoded from 0xEF
    for literal, pattern in grammar.candidates:
        if (lead_ef or literal[0] != 0xEF) and literal in encoded:
            more = []
            # Few at signs: jump from one to the next (memchr) and match there; many: let the
            # pattern scan, which costs less per at sign than a jump.
            at, jumps = encoded.find(literal), 0
            while at != -1 and jumps < _JUMPS:
                if pattern.match(encoded, at):
                    more.append(at)
                at, jumps = encoded.find(literal, at + 1), jumps + 1
            if at != -1:
                for match in pattern.finditer(encoded, at):
                    more.append(match.start())
                    if len(more) > MAX_CANDIDATES:
                        break
            found = sorted(found + more) if found else more
    return found


# --------------------------------------------------------------------------


class _Findings:
    """What was found in one source, in byte offsets into its UTF-8 (``view`` is those bytes as
    Latin-1); :meth:`reading` turns them into lines, columns and code points, in line order."""

    def __init__(self, view: str, encoded: bytes, grammar: Grammar, source_id: str | None,
                 path: str | None) -> None:
        self.view = view
        self.encoded = encoded
        self.grammar = grammar
        self.where = {"source_id": source_id, "path": path}
        #: (line start, line end, line number, parsed)
        self.directives: list[tuple[int, int, int, tuple[str, str, str]]] = []
        self.problems: list[tuple[int, DirectiveError]] = []  # (offset, error)
        self.near_misses: list[tuple[int, str]] = []  # (offset, where)
        self._counted = (0, 1)  # (offset, line number there): line numbers count on from here
        self.carriage_returns = "\r" in view

    def decode(self, start: int, end: int) -> str:
        return self.encoded[start:end].decode("utf-8", "surrogatepass")

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
        self.problems.append((offset, DirectiveError(
            reason, detail, quote=self.decode(start, end)[:QUOTE_LIMIT], line=line,
            column=self.column(offset, start), **self.where)))

    def near_miss(self, offset: int, where: str) -> None:
        if len(self.near_misses) < MAX_NEAR_MISSES:
            self.near_misses.append((offset, where))

    def directive(self, start: int, end: int) -> None:
        """A counted directive line ``[start, end)``: parse it now (a grammar error refuses)."""
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
            quote = self.decode(start, end)
            first = declared.get((operation, key))
            if first is not None:
                problems.append((start, DirectiveError(
                    "duplicate_directive", f"{operation} {key} is already declared on line {first}",
                    quote=quote[:QUOTE_LIMIT], line=line, column=1, **self.where)))
                break
            declared[(operation, key)] = line
            start_point = points(start)
            claims.append(Claim(operation, key, value, line, start_point, start_point + len(quote),
                                start + bom_bytes, end + bom_bytes, quote))
        near = []
        for offset, where in self.near_misses:
            line, start, end = self.line_of(offset)
            near.append(NearMiss(line, self.column(offset, start), where, self.decode(start, end)[:QUOTE_LIMIT]))
        if problems:
            return Reading((), min(problems, key=lambda p: p[0])[1], tuple(near))
        return Reading(tuple(claims), None, tuple(near))


#: Elements whose content a browser hides, or shows struck through, for which raw HTML opened in
#: an earlier block may still be open around a later one (HTML 13.2.6: the parser keeps its stack
#: of open elements across everything CommonMark passes through).
_HIDING_ELEMENTS: Final = frozenset({"template", "textarea", "title", "xmp", "plaintext", "noscript",
                                     "dialog", "del", "s", "strike"})
_MARKUP: Final = re.compile(r"<(?:!--|\?|![A-Za-z\[]|(/?)([A-Za-z][A-Za-z0-9-]*))", re.ASCII)
#: A ``hidden`` attribute (HTML 13.2.5: attributes are apart by ASCII whitespace, a quote ends a value
#: before one). Matched on the byte view: ASCII only, so a byte of a non-ASCII character is no space.
_HIDDEN_ATTRIBUTE: Final = re.compile(r"[\t\n\f\r \"']hidden(?:[\t\n\f\r =/>]|\Z)", re.IGNORECASE | re.ASCII)


class _OpenHtml:
    """What raw HTML before a block may leave open around it, read from the raw text as a browser
    tokenizes it (:func:`~_conflict_gate.inlines.browser_markup_end`) as if all of it were raw HTML
    (code spans and blocks are not told apart, so text there can only add doubt): markup not closed
    yet (a comment, a declaration, a tag whose quoted value runs on), or an element of
    :data:`_HIDING_ELEMENTS` (or any with a ``hidden`` attribute) opened more often than closed.
    Asked for increasing offsets; linear in the text read."""

    def __init__(self, view: str) -> None:
        self.view = view
        self.indexes = Indexes(view)
        self.pos = 0
        self.open: dict[str, list[int]] = {}  # element name -> offsets of its unclosed start tags
        self.lines: dict[int, int] = {}  # offset -> 0-based line, for messages
        self.held: tuple[int, int] | None = None  # markup hiding the text from its start up to its end

    def before(self, offset: int) -> tuple[int, str] | None:
        """``(0-based line, why)`` when the block starting at ``offset`` may sit inside raw HTML."""
        view = self.view
        if self.held is not None:
            at, end = self.held
            if end > offset:
                return self._doubt(at, "HTML markup opened here is still open; a browser hides what "
                                       "follows until it closes")
            self.held, self.pos = None, end
        while self.pos < offset:
            match = _MARKUP.search(view, self.pos, offset)
            if match is None:
                self.pos = offset
                break
            at = match.start()
            end = browser_markup_end(view, at, self.indexes)
            if end < 0:  # text
                self.pos = match.end()
                continue
            if end > offset:
                # A comment, or a quoted value, runs on over this block; other markup ends at the
                # first ">" of the tags the renderer writes around the block, before its text.
                rendered = view[at:offset] + "> "  # a quoted value would run on past the ">"
                if view.startswith("<!--", at) or \
                        browser_markup_end(rendered, 0, Indexes(rendered)) > offset - at + 1:
                    self.held = (at, end)
                    return self._doubt(at, "HTML markup opened here is still open; a browser hides what "
                                           "follows until it closes")
                self.pos = offset
                break
            name = (match.group(2) or "").lower()
            if match.group(1):
                if self.open.get(name):
                    self.open[name].pop()
            elif name and (name in _HIDING_ELEMENTS or _HIDDEN_ATTRIBUTE.search(view, match.end(), end)):
                self.open.setdefault(name, []).append(at)
            self.pos = end
        still = [at for starts in self.open.values() for at in starts]
        if still:
            return self._doubt(min(still), "an HTML element that hides or strikes out its content opened "
                                           "here may still be open; a browser shows what follows inside it")
        return None

    def _doubt(self, at: int, why: str) -> tuple[int, str]:
        if at not in self.lines:
            self.lines[at] = self.view.count("\n", 0, at)
        return self.lines[at], why


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
        piece = self.encoded[self.at:offset]
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
_SHOULD: Final = ("a directive counts only as a line of its own in a top-level paragraph; "
                  "put examples in backticks or a code block")


def _read_leaf(f: _Findings, leaf: Leaf, inside: Sequence[int]) -> None:
    """Classify the candidate at signs ``inside`` one leaf block, in order, up to the first problem."""
    kind = leaf.kind
    # Readers differ on this block: where any reading may show directive-shaped text, refuse.
    # A link definition's doubt is how markdown-it splits definitions, and every reader hides
    # them; unless GitHub reads it as a footnote, which it shows.
    if leaf.doubt is not None and (kind != "link_definition" or leaf.doubt[1] == FOOTNOTE_DOUBT):
        doubtful = next((at for at in inside if _loosely_shaped(f, at)), None)
        if doubtful is not None:
            line, why = leaf.doubt
            f.refuse("ambiguous_markup", doubtful,
                     f"the gate cannot be sure how a reader sees this line: {why} (line {line + 1}); "
                     f"{_SHOULD}")
            return
        if kind not in ("fenced_code", "indented_code"):
            return  # no reading shows directive-shaped text here
    if kind in ("fenced_code", "indented_code", "link_definition"):
        where = "hidden" if kind == "link_definition" else "code"
        for at in inside:
            if len(f.near_misses) >= MAX_NEAR_MISSES:
                break
            if _shaped_raw(f, at):
                f.near_miss(at, where)
        return
    if leaf.gave_up is not None:
        f.refuse("too_complex", inside[0], f"this block runs past line {leaf.gave_up + 1}, longer "
                 f"than the {MAX_LEAF_LINES} lines the gate reads")
        return
    if leaf.lines[-1][2] - leaf.lines[0][1] > MAX_BLOCK_BYTES:
        f.refuse("too_complex", inside[0], f"this block is larger than the {MAX_BLOCK_BYTES} bytes "
                 "whose inline markup the gate reads")
        return
    if kind == "paragraph" and not leaf.containers and _plain_directive_lines(f, leaf):
        return
    if kind == "front_matter":
        for at in inside:
            if _shaped_raw(f, at):
                f.refuse("misplaced_directive", at, f"directive-shaped text in front matter; {_SHOULD}")
                return
        return
    place = _PLACES.get(kind)
    if place is None and leaf.containers:
        container, line = leaf.containers[-1]
        place = f"in a {'list item' if container == 'list_item' else 'block quote'} (starting line {line + 1})"
    _classify(f, inside, _Content(f, leaf.lines, html=kind == "html_block"), place)


def _plain_directive_lines(f: _Findings, leaf: Leaf) -> bool:
    """A top-level paragraph made only of unindented :attr:`Grammar.plain_line` lines: each is a
    directive line as written, read without the inline rules. False (nothing done) otherwise."""
    pattern, view = f.grammar.plain_line, f.view
    if pattern is None:
        return False
    for _, start, end in leaf.lines:
        if (start and view[start - 1] not in "\n\r") or not pattern.fullmatch(view, start, end):
            return False
    for _, start, end in leaf.lines:
        f.directive(start, end)
        if f.problems:
            break
    return True


class _Content:
    """One block's content, decoded, and what a reader sees of it (inline, or as HTML).

    ``text`` is the block's lines (byte spans) decoded and joined with
    ``\n``; offsets into it convert to byte offsets and back line by line.
    """

    def __init__(self, f: _Findings, lines: Sequence[tuple[int, int, int]], html: bool = False) -> None:
        self.lines = lines
        self.byte_starts = [start for _, start, _ in lines]
        self._last = (-1, 0, 0)  # (line index, byte offset, content offset) last asked
        decoded = [f.decode(start, end) for _, start, end in lines]
        self.text = "\n".join(decoded)
        self.starts: list[int] = []
        offset = 0
        for line in decoded:
            self.starts.append(offset)
            offset += len(line) + 1
        self.decoded = decoded
        self.inline: InlineView | None = None
        self.brackets: tuple[tuple[int, int], ...] = ()
        self.unsure: tuple[tuple[int, int], ...] = ()
        self.gave_up = False
        if html:
            visible, self.code, self.hidden = html_view(self.text)
            self.literal = self.linked = visible
        else:
            self.inline = inline_view(self.text)
            self.literal, self.linked = self.inline.literal, self.inline.linked
            self.code, self.hidden = self.inline.code, self.inline.hidden
            self.brackets, self.gave_up = self.inline.brackets, self.inline.gave_up
            self.unsure = self.inline.unsure
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
        return self.starts[k], self.starts[k] + len(self.decoded[k])


def _classify(f: _Findings, inside: Sequence[int], block: _Content, place: str | None) -> bool:
    """Decide each candidate: near-miss (code, hidden), directive, malformed, misplaced or ambiguous.

    Stops at the first problem and returns True then.
    """
    if block.gave_up:
        f.refuse("too_complex", inside[0], "brackets or parentheses here nest deeper than the gate reads")
        return True
    for at in inside:
        c = block.at(at)
        if block.unsure and _within(c, block.unsure):
            if _loosely_shaped(f, at):
                f.refuse("ambiguous_markup", at, "the gate cannot be sure how a reader sees this text: "
                         "a browser ends this raw HTML elsewhere than CommonMark does")
                return True
            continue
        if _within(c, block.code) or _within(c, block.hidden):
            if _shaped_raw(f, at):
                f.near_miss(at, "code" if _within(c, block.code) else "hidden")
            continue
        literal_index = block.literal.view_index(c)
        shaped_literal = _shaped(f, block.literal, literal_index)
        shaped_linked = _shaped(f, block.linked, block.linked.view_index(c)) \
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


def _top_level_line(f: _Findings, at: int, c: int, index: int, block: _Content) -> bool:
    """A shaped at sign in a top-level paragraph: a directive line, a malformed one, or mid-line text.

    Returns True when it refused.
    """
    text = block.literal.text
    i = index - 1
    while i >= 0 and text[i] != "\n" and (text[i].isspace() or invisible(text[i])):
        i -= 1
    if i >= 0 and text[i] != "\n":
        f.refuse("misplaced_directive", at, f"directive-shaped text after other text on its line; {_SHOULD}")
        return True
    line_start, line_end = block.line_span(c)
    k = bisect.bisect_left(block.brackets, (line_end,))
    if any(a < line_end and b > line_start for a, b in block.brackets[:k]):
        f.refuse("misplaced_directive", at, "directive-shaped text inside a link or brackets that "
                 f"span lines; {_SHOULD}")
        return True
    _, raw_start, raw_end = f.line_of(at)
    if at == raw_start and f.view[at] == "@":
        f.directive(raw_start, raw_end)
        return bool(f.problems)
    prefix = f.decode(raw_start, at)
    at_sign = f.encoded[at:min(at + 4, raw_end)].decode("utf-8", "ignore")[:1] or "@"
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


def _within(offset: int, spans: Sequence[tuple[int, int]]) -> bool:
    k = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= offset < spans[k][1]

