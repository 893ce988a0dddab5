"""What a reader of an answer sees: the answer read as CommonMark 0.31.2 + GFM (no I/O).

An answer is shown by a chat window (rendered Markdown) or a terminal (the
raw text). :func:`read_answer` reads it with the project's own readers, as
the gate reads a page: block structure by :func:`~_conflict_gate.reading.blocks.parse_blocks`
(:data:`ANSWER_FLAVOUR`: GitHub's reading, GFM tables included, without front
matter, which chat windows do not read, and compared with markdown-it where the
two may part), inline content by :func:`~_conflict_gate.reading.inlines.inline_view`,
HTML blocks by :func:`~_conflict_gate.reading.inline_html.html_view`. For each leaf block
it keeps two texts, each mapped back to the answer in code points:

* ``raw``: the block's lines as written (after container markers), what a
  terminal shows;
* ``shown``: what a chat window shows. In a paragraph, a heading or a table
  cell: text with entities and backslash escapes decoded, autolinks' addresses,
  code spans' content (paired by the spec's rules, each between two
  :data:`CODE_MARK` characters), brackets; not raw HTML (tags, comments,
  attribute values), link destinations and titles, reference labels or
  images' descriptions. In a code block: its lines, not the fence's info
  string. In an HTML block: what a browser shows (``<code>`` and ``<pre>``
  content included, comments and attributes not). A link reference definition
  shows nothing.

What ``raw`` holds and ``shown`` leaves out is *hidden* (:attr:`AnswerBlock.hidden`);
:func:`segments` lists the answer as visible prose, code and hidden spans.
Where the reading is in doubt the block says why (:attr:`AnswerBlock.doubt`:
readers differ on the block, raw HTML opened before it may still be open, it
is too long or nested too deep to read; :attr:`AnswerBlock.unsure`: raw HTML a
browser ends elsewhere than CommonMark). The checks against the decision
(:mod:`~_conflict_gate.answer.check`) read these texts; nothing here knows the
decision.

Linear in the answer (at most :data:`~_conflict_gate.base.registry.MAX_ANSWER_BYTES`):
every line end is watched, so every leaf block is reported, and each block's
inline content is read once.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Final, NamedTuple

from ..reading.blocks import GITHUB, MARKDOWN_IT, Leaf, Variant, cell_spans, line_view, parse_blocks
from ..reading.blocks.state import MARKDOWN_IT_READING
from ..reading.fences import closes, opening_run
from ..reading.inline_html import html_view
from .html import OpenHtml
from .inline import (
    ANSWER_TAG_FILTER,
    CODE_MARK,
    EMPTY_MAPPED,
    Builder,
    CodeSpan,
    InlineUnit,
    Lines,
    Mapped,
    union,
    view_pieces,
    within,
)

__all__ = [
    "ANSWER_FLAVOUR",
    "CODE_MARK",
    "AnswerBlock",
    "AnswerReading",
    "CodeSpan",
    "Mapped",
    "Segment",
    "read_answer",
    "segments",
]

_MARKDOWN_IT_WHY: Final = GITHUB.variants_by_name[MARKDOWN_IT_READING].why
#: How an answer is read: GitHub's reading (CommonMark 0.31.2, GFM tables, its footnotes in doubt)
#: without front matter, compared with markdown-it's (also without front matter) where they may part.
ANSWER_FLAVOUR: Final = replace(
    GITHUB,
    name="answer",
    page_starts=(),
    variants=(
        Variant(MARKDOWN_IT_READING, replace(MARKDOWN_IT, name="markdown-it-answer", page_starts=()), _MARKDOWN_IT_WHY),
    ),
)


class AnswerBlock(NamedTuple):
    """One leaf block of the answer (see the module docstring).

    ``kind`` is the leaf's (``paragraph``, ``heading``, ``table``, ``fenced_code``,
    ``indented_code``, ``html_block``, ``link_definition``); ``start``/``end``
    its span in the answer; ``spans`` its code spans; ``code`` the answer spans
    of inline ``<code>``-like elements' content; ``hidden`` the answer spans a
    chat window does not show; ``links`` the answer offsets just past a ``]``
    that a destination or a label follows (the brackets before render as a
    link); ``doubt`` why the reading of the block is in doubt, or ``None``;
    ``unsure`` answer spans of raw HTML a browser may end elsewhere. ``link_texts``: answer spans of
    the text of brackets a destination or a label follows (shown as a link's text). ``plain``: ``shown`` is
    ``raw`` with the code spans' backticks as :data:`CODE_MARK` and nothing else changed (no
    escape, reference, raw HTML, link, or line end inside a code span), so both hold the same
    form-like text and a terminal's reader pairs the backticks as CommonMark does.
    """

    kind: str
    start: int
    end: int
    raw: Mapped
    shown: Mapped
    spans: tuple[CodeSpan, ...]
    code: tuple[tuple[int, int], ...]
    hidden: tuple[tuple[int, int], ...]
    links: tuple[int, ...]
    doubt: str | None
    unsure: tuple[tuple[int, int], ...]
    plain: bool = False
    link_texts: tuple[tuple[int, int], ...] = ()


class AnswerReading(NamedTuple):
    """An answer as read: its ``text`` (as given), its leaf ``blocks`` in order, the labels of its
    link reference definitions (case-folded, spaces collapsed), and the offset of each line end."""

    text: str
    blocks: tuple[AnswerBlock, ...]
    labels: frozenset[str]
    line_ends: tuple[int, ...]

    def line_of(self, offset: int) -> int:
        """The 0-based line of an answer offset (``\\n``, ``\\r\\n`` or ``\\r`` end a line)."""
        return bisect.bisect_right(self.line_ends, offset)


class Segment(NamedTuple):
    """A stretch of the answer by what a reader sees of it: ``prose``, ``code`` or ``hidden``;
    ``[start, end)`` in code points, and its text (shown, or as written when hidden)."""

    kind: str
    start: int
    end: int
    text: str


_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_ATX: Final = re.compile(r"#{1,6}(?:[ \t]+|\Z)")
_ATX_CLOSE: Final = re.compile(r"(?:(?<=[ \t])|\A)#+[ \t]*\Z")
_LABEL: Final = re.compile(r"^[ \t]*\[((?:[^\[\]\\]|\\.){1,999})\]:", re.MULTILINE)


class _Points:
    """Byte offsets of the byte view of the answer's body (from ``lead``, its first code point that
    is not whitespace) -> code points into the answer, by line (CommonMark lines)."""

    def __init__(self, body: str, encoded: bytes, lead: int) -> None:
        self.encoded = encoded
        self.lead = lead
        self.ascii = len(encoded) == len(body)
        view = line_view(encoded.decode("latin-1")) if not self.ascii else line_view(body)
        starts = [0]
        at = view.find("\n")
        while at != -1:
            starts.append(at + 1)
            at = view.find("\n", at + 1)
        self.byte_starts = starts
        if self.ascii:
            self.point_starts = [start + lead for start in starts]
        else:
            points, previous, count = [], 0, lead
            for start in starts:
                count += len(encoded[previous:start].decode("utf-8", "surrogatepass"))
                points.append(count)
                previous = start
            self.point_starts = points

    def __call__(self, line: int, offset: int) -> int:
        """The code point (into the answer) of byte ``offset`` (into the body) on 0-based ``line``."""
        if self.ascii:
            return offset + self.lead
        start = self.byte_starts[line]
        return self.point_starts[line] + len(self.encoded[start:offset].decode("utf-8", "surrogatepass"))


def read_answer(text: str) -> AnswerReading:
    """Read ``text`` (a whole answer, valid Unicode without lone surrogates) as a reader sees it.

    Whitespace at the two ends of the answer is not read (it does not count, as the answer
    check documents: an answer that starts with a tab is not an indented code block); offsets
    are into ``text`` as given. Never raises on such text; linear in its length.
    """
    lead = len(text) - len(text.lstrip())
    body = text[lead:].rstrip()  # whitespace at the two ends of an answer does not count
    encoded = body.encode("utf-8")
    view = body if len(encoded) == len(body) else encoded.decode("latin-1")
    points = _Points(body, encoded, lead)
    lines = line_view(view)
    # every line's end (before its line ending): each leaf block holds its first line's end
    watch = [at - 1 if at and lines[at - 1] == "\r" else at for at in (m.start() for m in re.finditer("\n", lines))]
    leaves = (
        sorted(parse_blocks(view, watch, flavour=ANSWER_FLAVOUR), key=lambda leaf: leaf.lines[0][1]) if body else []
    )
    open_html = OpenHtml(view) if "<" in view else None
    blocks: list[AnswerBlock] = []
    labels: set[str] = set()
    for leaf in leaves:
        opened = open_html.before(view.rfind("\n", 0, leaf.lines[0][1]) + 1) if open_html else None
        block = _read_leaf(text, points, leaf, opened[1] if opened else None)
        if leaf.kind == "link_definition":
            labels.update(" ".join(label.split()).casefold() for label in _LABEL.findall(block.raw.text))
        blocks.append(block)
    line_ends = tuple(m.start() for m in _LINE_END.finditer(text))
    return AnswerReading(text, tuple(blocks), frozenset(labels), line_ends)


def _read_leaf(text: str, points: _Points, leaf: Leaf, opened: str | None) -> AnswerBlock:
    spans = [(points(line, start), points(line, end)) for line, start, end in leaf.lines]
    lines = Lines(text, spans)
    doubt = opened or (leaf.doubt[1] if leaf.doubt else None)
    if leaf.gave_up is not None:
        doubt = doubt or "the block is longer than the lines the check reads"
    start, end = spans[0][0], max(spans[-1][1], points(leaf.lines[-1][0], leaf.end))
    raw = lines.mapped()
    kind = leaf.kind
    if kind in ("paragraph", "heading"):
        unit = spans[0] if kind == "heading" and len(spans) == 1 else None
        if unit is not None:  # an ATX heading: its markers are not content
            line = text[unit[0] : unit[1]]
            opening = _ATX.match(line)
            if opening:
                closing = _ATX_CLOSE.search(line, opening.end())
                stop = closing.start() if closing else len(line)
                spans = [(unit[0] + opening.end(), unit[0] + max(stop, opening.end()))]
        inline = InlineUnit(text)
        inline.read(spans)
        doubt = doubt or inline.doubt
        plain = inline.plain and raw.text == inline.content
        return AnswerBlock(
            kind,
            start,
            end,
            raw,
            inline.shown(),
            tuple(inline.spans),
            tuple(inline.code),
            tuple(inline.hidden),
            tuple(inline.links),
            doubt,
            tuple(inline.unsure),
            plain,
            tuple(inline.link_texts),
        )
    if kind == "table":
        return _read_table(text, spans, start, end, raw, doubt)
    if kind == "fenced_code":
        return _read_fence(text, lines, spans, start, end, raw, doubt)
    if kind == "html_block":
        return _read_html(lines, start, end, raw, doubt)
    if kind == "link_definition":
        return AnswerBlock(kind, start, end, raw, EMPTY_MAPPED, (), (), ((start, end),), (), doubt, ())
    # indented code, and any kind a flavour adds: shown as written
    return AnswerBlock(kind, start, end, raw, raw, (), (), (), (), doubt, ())


def _read_fence(
    text: str, lines: Lines, spans: list[tuple[int, int]], start: int, end: int, raw: Mapped, doubt: str | None
) -> AnswerBlock:
    """4.5: the content lines are shown; the info string is not (chat windows differ on it). The
    last line is the closing fence when it is one by :func:`~_conflict_gate.reading.fences.closes`:
    a closing fence's line begins at its run (its 0-3 spaces are not the block's), so a line of
    code indented four columns or more, which keeps a space, stays code."""
    first = text[spans[0][0] : spans[0][1]]
    fence = opening_run(first, 0)
    hidden: list[tuple[int, int]] = []
    content = spans[1:]
    if fence is not None:
        info_start = len(first) - len(first[len(fence) :].lstrip(" \t"))
        info_end = len(first.rstrip(" \t"))
        if info_end > info_start:
            hidden.append((spans[0][0] + info_start, spans[0][0] + info_end))
        if content and closes(text[content[-1][0] : content[-1][1]], 0, fence[0], len(fence)):
            content = content[:-1]
    shown = Lines(text, content).mapped() if content else EMPTY_MAPPED
    return AnswerBlock("fenced_code", start, end, raw, shown, (), (), tuple(hidden), (), doubt, ())


def _read_table(
    text: str, spans: list[tuple[int, int]], start: int, end: int, raw: Mapped, doubt: str | None
) -> AnswerBlock:
    """GFM 4.10: each cell of the header and body rows is inline content; the delimiter row and
    the pipes are not shown, nor the cells past the header's count (GFM drops them)."""
    pieces: list[Mapped] = []
    spans_out: list[CodeSpan] = []
    code: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    links: list[int] = []
    unsure: list[tuple[int, int]] = []
    link_texts: list[tuple[int, int]] = []
    columns = len(_cells(text, *spans[0]))
    offset = 0
    for index, (line_start, line_end) in enumerate(spans):
        if index == 1:
            continue  # the delimiter row
        for column, (cell_start, cell_end) in enumerate(_cells(text, line_start, line_end)):
            if column >= columns:
                hidden.append((cell_start, cell_end))
                continue
            inline = InlineUnit(text)
            inline.read([(cell_start, cell_end)])
            doubt = doubt or inline.doubt
            shown = inline.shown()
            pieces.append(shown)
            spans_out.extend(span._replace(shown_at=span.shown_at + offset) for span in inline.spans)
            offset += len(shown.text) + 1
            code += inline.code
            hidden += inline.hidden
            links += inline.links
            unsure += inline.unsure
            link_texts += inline.link_texts
    return AnswerBlock(
        "table",
        start,
        end,
        raw,
        _join(pieces, "\t"),
        tuple(spans_out),
        tuple(code),
        tuple(sorted(hidden)),
        tuple(links),
        doubt,
        tuple(unsure),
        False,
        tuple(link_texts),
    )


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A table row's cells (:func:`~_conflict_gate.reading.blocks.cell_spans`) as answer spans, trimmed."""
    trimmed = []
    for a, b in cell_spans(text, start, end):
        while a < b and text[a] in " \t":
            a += 1
        while b > a and text[b - 1] in " \t":
            b -= 1
        trimmed.append((a, b))
    return trimmed


def _join(pieces: Sequence[Mapped], separator: str) -> Mapped:
    """Mapped texts joined by ``separator`` (which maps to the end of the text before it)."""
    parts, starts, origins, strides, ends, length = [], [], [], [], [], 0
    for index, piece in enumerate(pieces):
        if index:
            last_end = pieces[index - 1].ends[-1] if pieces[index - 1].ends else 0
            parts.append(separator)
            starts.append(length)
            origins.append(last_end)
            strides.append(0)
            ends.append(last_end)
            length += len(separator)
        parts.append(piece.text)
        starts += [length + s for s in piece.starts]
        origins += piece.origins
        strides += piece.strides
        ends += piece.ends
        length += len(piece.text)
    return Mapped("".join(parts), tuple(starts), tuple(origins), tuple(strides), tuple(ends))


#: A tag of an element a browser lays out as a block (or a line break): the text on either side shows on
#: lines of their own (``<dt>existing_path</dt><dd>overwrite</dd>`` is not ``existing_pathoverwrite``).
_BLOCK_TAG: Final = re.compile(
    r"</?(?:address|article|aside|blockquote|br|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr"
    r"|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b",
    re.IGNORECASE,
)


def _read_html(lines: Lines, start: int, end: int, raw: Mapped, doubt: str | None) -> AnswerBlock:
    """4.6: what a browser shows of an HTML block; the content of code elements between code marks,
    with references decoded as a browser decodes them."""
    content = lines.content
    visible, code_spans, hidden_spans, unsure_spans = html_view(content, ANSWER_TAG_FILTER, sanitized=True)
    code = code_spans.pairs()
    builder = Builder(lines)
    segments = view_pieces(visible, content)
    code_at = shown_to = 0
    for piece_text, origin, stride, source_end in segments:
        while code_at < len(code) and code[code_at][0] <= origin:
            _html_code(builder, content, *code[code_at])
            code_at += 1
        if shown_to and _BLOCK_TAG.search(content, shown_to, origin):  # <dt>name</dt><dd>value</dd>: two lines
            builder.show("\n", shown_to, origin)
        shown_to = source_end
        if stride:
            builder.copy(piece_text, origin)
        else:
            builder.show(piece_text, origin, source_end)
    for a, b in code[code_at:]:
        _html_code(builder, content, a, b)
    hidden = tuple((lines.answer(a), lines.answer(max(b - 1, a)) + 1) for a, b in hidden_spans if b > a)
    answer_code = tuple((lines.answer(a), lines.answer(max(b - 1, a)) + 1) for a, b in code if b > a)
    unsure = tuple((lines.answer(a), lines.answer(max(b - 1, a)) + 1) for a, b in unsure_spans if b > a)
    return AnswerBlock("html_block", start, end, raw, builder.build(), (), answer_code, hidden, (), doubt, unsure)


def _html_code(builder: Builder, content: str, a: int, b: int) -> None:
    inner = content[a:b]
    builder.show(CODE_MARK, a, a)
    decoded = html.unescape(inner)
    if decoded == inner:
        builder.copy(inner, a)
    elif decoded:
        builder.show(decoded, a, b)
    builder.show(CODE_MARK, b, b)


def segments(reading: AnswerReading) -> list[Segment]:
    """The answer as visible ``prose``, ``code`` (code spans, code blocks, ``<code>`` content) and
    ``hidden`` spans, in answer order (what is neither, markup and blank lines, is left out)."""
    out: list[Segment] = []

    def add(kind: str, start: int, end: int, text: str) -> None:
        if out and out[-1].kind == kind and out[-1].end == start:
            last = out[-1]
            out[-1] = Segment(kind, last.start, end, last.text + text)
        else:
            out.append(Segment(kind, start, end, text))

    for block in reading.blocks:
        for start, end in block.hidden:
            out.append(Segment("hidden", start, end, reading.text[start:end]))
        if block.kind == "link_definition":
            continue
        whole_code = block.kind in ("fenced_code", "indented_code")
        code = union([(span.start, span.end) for span in block.spans] + list(block.code))
        shown = block.shown
        for k, first in enumerate(shown.starts):
            stop = shown.starts[k + 1] if k + 1 < len(shown.starts) else len(shown.text)
            piece, origin = shown.text[first:stop], shown.origins[k]
            if not shown.strides[k]:
                if piece.strip(CODE_MARK) and piece != "\t":
                    add("code" if whole_code or within(origin, code) else "prose", origin, shown.ends[k], piece)
                continue
            for part in re.finditer(f"[^{CODE_MARK}]+", piece):
                a, b = origin + part.start(), origin + part.end()
                cuts = sorted({a, b, *(x for span in code for x in span if a < x < b)})
                for left, right in pairwise(cuts):
                    kind = "code" if whole_code or within(left, code) else "prose"
                    add(kind, left, right, reading.text[left:right] if shown.strides[k] else piece)
    return sorted(out, key=lambda segment: (segment.start, segment.end))
