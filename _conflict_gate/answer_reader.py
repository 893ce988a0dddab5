"""What a reader of an answer sees: the answer read as CommonMark 0.31.2 + GFM (no I/O).

An answer is shown by a chat window (rendered Markdown) or a terminal (the
raw text). :func:`read_answer` reads it with the project's own readers, as
the gate reads a page: block structure by :func:`~_conflict_gate.blocks.parse_blocks`
(:data:`ANSWER_FLAVOUR`: GitHub's reading, GFM tables included, without front
matter, which chat windows do not read, and compared with markdown-it where the
two may part), inline content by :func:`~_conflict_gate.inlines.inline_view`,
HTML blocks by :func:`~_conflict_gate.inlines.html_view`. For each leaf block
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
(:mod:`~_conflict_gate.answer`) read these texts; nothing here knows the
decision.

Linear in the answer (at most :data:`~_conflict_gate.registry.MAX_ANSWER_BYTES`):
every line end is watched, so every leaf block is reported, and each block's
inline content is read once.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import replace
from typing import Callable, Final, NamedTuple, Sequence

from .blocks import GITHUB, MARKDOWN_IT, Leaf, Variant, line_view, parse_blocks
from .blocks.state import MARKDOWN_IT_READING
from .inlines import MAX_NESTING, View, html_view, inline_view
from .reader import _OpenHtml

__all__ = ["ANSWER_FLAVOUR", "AnswerBlock", "AnswerReading", "CODE_MARK", "CodeSpan", "Mapped", "Segment",
           "read_answer", "segments"]

#: Marks the start and the end of a code span's (or an HTML code element's) content in ``shown``:
#: a lone surrogate, which no answer holds (one that does is refused before it is read).
CODE_MARK: Final = "\udfff"

_MARKDOWN_IT_WHY: Final = GITHUB.variants_by_name[MARKDOWN_IT_READING].why
#: How an answer is read: GitHub's reading (CommonMark 0.31.2, GFM tables, its footnotes in doubt)
#: without front matter, compared with markdown-it's (also without front matter) where they may part.
ANSWER_FLAVOUR: Final = replace(
    GITHUB, name="answer", page_starts=(),
    variants=(Variant(MARKDOWN_IT_READING, replace(MARKDOWN_IT, name="markdown-it-answer", page_starts=()),
                      _MARKDOWN_IT_WHY),))


class Mapped(NamedTuple):
    """A text and where each of its characters comes from in the answer (code points).

    Piece ``k`` starts at text index ``starts[k]`` and comes from answer offset
    ``origins[k]``: copied (``strides[k] == 1``) or one construct shown as these
    characters (``0``: a reference, an escape, a code mark), whose source ends
    at ``ends[k]``.
    """

    text: str
    starts: tuple[int, ...]
    origins: tuple[int, ...]
    strides: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, i: int, j: int) -> tuple[int, int]:
        """The answer span ``[start, end)`` that ``text[i:j]`` comes from (``i < j``)."""
        k = bisect.bisect_right(self.starts, i) - 1
        start = self.origins[k] + self.strides[k] * (i - self.starts[k])
        m = bisect.bisect_right(self.starts, j - 1) - 1
        end = self.origins[m] + (j - self.starts[m]) if self.strides[m] else self.ends[m]
        return start, max(end, start + 1)


_EMPTY_MAPPED: Final = Mapped("", (), (), (), ())


class CodeSpan(NamedTuple):
    """A code span as CommonMark pairs it: ``[start, end)`` in the answer (backticks included),
    its ``content`` (line endings as spaces, one space off each end when both have one), and
    where that content starts in its block's ``shown`` text."""

    start: int
    end: int
    content: str
    shown_at: int


class AnswerBlock(NamedTuple):
    """One leaf block of the answer (see the module docstring).

    ``kind`` is the leaf's (``paragraph``, ``heading``, ``table``, ``fenced_code``,
    ``indented_code``, ``html_block``, ``link_definition``); ``start``/``end``
    its span in the answer; ``spans`` its code spans; ``code`` the answer spans
    of inline ``<code>``-like elements' content; ``hidden`` the answer spans a
    chat window does not show; ``links`` the answer offsets just past a ``]``
    that a destination or a label follows (the brackets before render as a
    link); ``doubt`` why the reading of the block is in doubt, or ``None``;
    ``unsure`` answer spans of raw HTML a browser may end elsewhere. ``plain``: ``shown`` is
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
_BACKTICKS: Final = re.compile(r"`+")
_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ATX: Final = re.compile(r"#{1,6}(?:[ \t]+|\Z)")
_ATX_CLOSE: Final = re.compile(r"(?:(?<=[ \t])|\A)#+[ \t]*\Z")
_FENCE: Final = re.compile(r"(`{3,}|~{3,})[ \t]*(.*?)[ \t]*\Z")
_CODE_TAG: Final = re.compile(r"<(/?)(code|pre|kbd|samp|tt)(?![A-Za-z0-9-])", re.IGNORECASE)
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


class _Lines:
    """A block's lines joined with ``\\n`` (its *content*) and content offset -> answer offset.

    When the content is a stretch of the answer as it stands (one line, or lines ending with
    ``\\n`` and no container marker or indentation), ``base`` is where it starts and the mapping
    is one addition.
    """

    def __init__(self, text: str, lines: Sequence[tuple[int, int]]) -> None:
        """``lines``: ``(answer start, answer end)`` of each line, before its line ending."""
        self.starts: list[int] = []
        self.origins: list[int] = []
        parts, offset = [], 0
        for start, end in lines:
            self.starts.append(offset)
            self.origins.append(start)
            parts.append(text[start:end])
            offset += end - start + 1
        self.content = "\n".join(parts)
        first = lines[0][0] if lines else 0
        linear = all(start - first == c for (start, _), c in zip(lines, self.starts))
        self.base: int | None = first if linear else None

    def answer(self, c: int) -> int:
        if self.base is not None:
            return self.base + c
        k = bisect.bisect_right(self.starts, c) - 1
        return self.origins[k] + c - self.starts[k]

    def mapped(self) -> Mapped:
        builder = _Builder(self)
        builder.copy(self.content, 0)
        return builder.build()


class _Builder:
    """Builds a :class:`Mapped` from content pieces of one :class:`_Lines`."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.parts: list[str] = []
        self.length = 0
        self.starts: list[int] = []
        self.origins: list[int] = []
        self.strides: list[int] = []
        self.ends: list[int] = []

    def _piece(self, text: str, origin: int, stride: int, end: int) -> None:
        self.starts.append(self.length)
        self.origins.append(origin)
        self.strides.append(stride)
        self.ends.append(end)
        self.parts.append(text)
        self.length += len(text)

    def copy(self, text: str, c: int) -> None:
        """``text`` copied from content offset ``c`` on, split where lines start."""
        lines = self.lines
        if lines.base is not None:
            origin = lines.base + c
            self._piece(text, origin, 1, origin + len(text))
            return
        k = bisect.bisect_right(lines.starts, c) - 1
        i = 0
        while i < len(text):
            line_end = lines.starts[k + 1] if k + 1 < len(lines.starts) else c + len(text) + 1
            take = min(len(text) - i, line_end - c)
            origin = lines.origins[k] + c - lines.starts[k]
            self._piece(text[i:i + take], origin, 1, origin + take)
            i += take
            c += take
            k += 1

    def show(self, text: str, c: int, source_end: int) -> None:
        """``text`` shown for the construct at content offsets ``[c, source_end)``."""
        if text:
            self._piece(text, self.lines.answer(c), 0, self.lines.answer(max(source_end - 1, c)) + 1)

    def build(self) -> Mapped:
        return Mapped("".join(self.parts), tuple(self.starts), tuple(self.origins), tuple(self.strides),
                      tuple(self.ends))


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
    leaves = sorted(parse_blocks(view, watch, flavour=ANSWER_FLAVOUR), key=lambda leaf: leaf.lines[0][1]) \
        if body else []
    open_html = _OpenHtml(view) if "<" in view else None
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
    lines = _Lines(text, spans)
    doubt = opened or (leaf.doubt[1] if leaf.doubt else None)
    if leaf.gave_up is not None:
        doubt = doubt or "the block is longer than the lines the check reads"
    start, end = spans[0][0], max(spans[-1][1], points(leaf.lines[-1][0], leaf.end))
    raw = lines.mapped()
    kind = leaf.kind
    if kind in ("paragraph", "heading"):
        unit = spans[0] if kind == "heading" and len(spans) == 1 else None
        if unit is not None:  # an ATX heading: its markers are not content
            line = text[unit[0]:unit[1]]
            opening = _ATX.match(line)
            if opening:
                closing = _ATX_CLOSE.search(line, opening.end())
                stop = closing.start() if closing else len(line)
                spans = [(unit[0] + opening.end(), unit[0] + max(stop, opening.end()))]
        inline = _Inline(text)
        inline.read(spans)
        doubt = doubt or inline.doubt
        plain = inline.plain and raw.text == inline.content
        return AnswerBlock(kind, start, end, raw, inline.shown(), tuple(inline.spans), tuple(inline.code),
                           tuple(inline.hidden), tuple(inline.links), doubt, tuple(inline.unsure), plain)
    if kind == "table":
        return _read_table(text, spans, start, end, raw, doubt)
    if kind == "fenced_code":
        return _read_fence(text, lines, spans, start, end, raw, doubt)
    if kind == "html_block":
        return _read_html(lines, start, end, raw, doubt)
    if kind == "link_definition":
        return AnswerBlock(kind, start, end, raw, _EMPTY_MAPPED, (), (), ((start, end),), (), doubt, ())
    # indented code, and any kind a flavour adds: shown as written
    return AnswerBlock(kind, start, end, raw, raw, (), (), (), (), doubt, ())


def _read_fence(text: str, lines: _Lines, spans: list[tuple[int, int]], start: int, end: int, raw: Mapped,
                doubt: str | None) -> AnswerBlock:
    """4.5: the content lines are shown; the info string is not (chat windows differ on it)."""
    first = text[spans[0][0]:spans[0][1]]
    opening = _FENCE.match(first)
    hidden: list[tuple[int, int]] = []
    content = spans[1:]
    if opening:
        if opening.group(2):
            hidden.append((spans[0][0] + opening.start(2), spans[0][0] + opening.end(2)))
        fence = opening.group(1)
        if content:
            last = text[content[-1][0]:content[-1][1]].strip(" \t")
            if len(last) >= len(fence) and last == last[0] * len(last) and last[0] == fence[0]:
                content = content[:-1]
    shown = _Lines(text, content).mapped() if content else _EMPTY_MAPPED
    return AnswerBlock("fenced_code", start, end, raw, shown, (), (), tuple(hidden), (), doubt, ())


def _read_table(text: str, spans: list[tuple[int, int]], start: int, end: int, raw: Mapped,
                doubt: str | None) -> AnswerBlock:
    """GFM 4.10: each cell of the header and body rows is inline content; the delimiter row and
    the pipes are not shown, nor the cells past the header's count (GFM drops them)."""
    pieces: list[Mapped] = []
    spans_out: list[CodeSpan] = []
    code: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    links: list[int] = []
    unsure: list[tuple[int, int]] = []
    columns = len(_cells(text, *spans[0]))
    offset = 0
    for index, (line_start, line_end) in enumerate(spans):
        if index == 1:
            continue  # the delimiter row
        for column, (cell_start, cell_end) in enumerate(_cells(text, line_start, line_end)):
            if column >= columns:
                hidden.append((cell_start, cell_end))
                continue
            inline = _Inline(text)
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
    return AnswerBlock("table", start, end, raw, _join(pieces, "\t"), tuple(spans_out), tuple(code),
                       tuple(sorted(hidden)), tuple(links), doubt, tuple(unsure))


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A table row's cells as answer spans, trimmed: split at each ``|`` not escaped by ``\\``,
    without the leading and trailing pipe."""
    row = text[start:end]
    cuts, i = [], 0
    while i < len(row):
        if row[i] == "\\":
            i += 2
            continue
        if row[i] == "|":
            cuts.append(i)
        i += 1
    bounds = [-1, *cuts, len(row)]
    cells = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
    if cells and row[:cells[0][1]].strip(" \t") == "" and cuts and cuts[0] == cells[0][1]:
        cells = cells[1:]
    if cells and row[cells[-1][0]:].strip(" \t") == "" and cuts and cuts[-1] + 1 == cells[-1][0]:
        cells = cells[:-1]
    trimmed = []
    for a, b in cells:
        while a < b and row[a] in " \t":
            a += 1
        while b > a and row[b - 1] in " \t":
            b -= 1
        trimmed.append((start + a, start + b))
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


def _read_html(lines: _Lines, start: int, end: int, raw: Mapped, doubt: str | None) -> AnswerBlock:
    """4.6: what a browser shows of an HTML block; the content of code elements between code marks,
    with references decoded as a browser decodes them."""
    content = lines.content
    visible, code, hidden_spans = html_view(content)
    builder = _Builder(lines)
    segments = _view_pieces(visible, content)
    code_at = 0
    for piece_text, origin, stride, source_end in segments:
        while code_at < len(code) and code[code_at][0] <= origin:
            _html_code(builder, content, *code[code_at])
            code_at += 1
        if stride:
            builder.copy(piece_text, origin)
        else:
            builder.show(piece_text, origin, source_end)
    for a, b in code[code_at:]:
        _html_code(builder, content, a, b)
    hidden = tuple((lines.answer(a), lines.answer(max(b - 1, a)) + 1) for a, b in hidden_spans if b > a)
    answer_code = tuple((lines.answer(a), lines.answer(max(b - 1, a)) + 1) for a, b in code if b > a)
    return AnswerBlock("html_block", start, end, raw, builder.build(), (), answer_code, hidden, (), doubt, ())


def _html_code(builder: _Builder, content: str, a: int, b: int) -> None:
    inner = content[a:b]
    builder.show(CODE_MARK, a, a)
    decoded = html.unescape(inner)
    if decoded == inner:
        builder.copy(inner, a)
    elif decoded:
        builder.show(decoded, a, b)
    builder.show(CODE_MARK, b, b)


def _view_pieces(view: View, content: str) -> list[tuple[str, int, int, int]]:
    """``(text, content origin, stride, source end)`` of each piece of an inline or HTML view."""
    pieces = []
    for k, start in enumerate(view.starts):
        stop = view.starts[k + 1] if k + 1 < len(view.starts) else len(view.text)
        origin, stride = view.origins[k], view.strides[k]
        piece = view.text[start:stop]
        if stride:
            pieces.append((piece, origin, 1, origin + len(piece)))
        else:
            reference = _REFERENCE.match(content, origin) if content[origin:origin + 1] == "&" else None
            if reference:
                pieces.append((piece, origin, 0, reference.end()))
            elif origin > 0 and content[origin - 1] == "\\" and content[origin] == piece:
                pieces.append((piece, origin - 1, 0, origin + 1))
            else:
                pieces.append((piece, origin, 0, origin + 1))
    return pieces


#: What only the full inline reading reads: escapes, raw HTML and autolinks, references, images,
#: links with a destination or a label. Content without any of them is read by :meth:`_Inline.read_plain`.
_NOT_PLAIN: Final = re.compile(r"[\\<&!]|\]\(|\]\[")


class _Inline:
    """One inline unit (a paragraph's lines, a heading's text, a table cell) as a reader sees it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[CodeSpan] = []
        self.code: list[tuple[int, int]] = []
        self.hidden: list[tuple[int, int]] = []
        self.links: list[int] = []
        self.unsure: list[tuple[int, int]] = []
        self.doubt: str | None = None
        self.plain = False
        self.content = ""
        self._shown: Mapped = _EMPTY_MAPPED

    def shown(self) -> Mapped:
        return self._shown

    def read(self, spans: Sequence[tuple[int, int]], *, fast: bool = True) -> None:
        """Read the unit whose lines are the answer spans ``spans``. ``fast=False`` reads plain
        content the full way too (the tests compare both)."""
        lines = _Lines(self.text, spans)
        self.content = lines.content
        if fast and _NOT_PLAIN.search(lines.content) is None and lines.content.count("[") < MAX_NESTING:
            self.read_plain(lines)
        else:
            self.read_marked(lines)

    def read_plain(self, lines: _Lines) -> None:
        """Content with code spans, brackets and text only (no ``\\ < & !``, no ``](`` or ``][``):
        6.1 pairs backtick runs, everything else shows as written. ``shown`` has the content's
        length: each paired run becomes as many code marks (line ends inside as spaces)."""
        content = lines.content
        if "``" not in content:  # single backticks only: each pairs with the next one
            self._read_single(lines)
            return
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(content)]
        following = [-1] * len(runs)
        last: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            start, end = runs[index]
            following[index] = last.get(end - start, -1)
            last[end - start] = index
        parts: list[str] = []
        copied = i = 0
        plain = True
        spans = self.spans
        base = lines.base
        answer = lines.answer
        count = len(runs)
        while i < count:
            close = following[i]
            if close < 0:
                i += 1
                continue
            a, inner_start = runs[i]
            inner_end, b = runs[close]
            mark = CODE_MARK * (inner_start - a)
            inner = content[inner_start:inner_end]
            if "\n" in inner:
                inner = inner.replace("\n", " ")
                plain = False
            parts += (content[copied:a], mark, inner, mark)
            copied = b
            shown_at = inner_start
            if inner[:1] == " " and inner[-1:] == " " and len(inner) >= 2 and inner.strip(" "):
                inner, shown_at = inner[1:-1], shown_at + 1
            if base is not None:
                spans.append(CodeSpan(base + a, base + b, inner, shown_at))
            else:
                spans.append(CodeSpan(answer(a), answer(b - 1) + 1, inner, shown_at))
            i = close + 1
        parts.append(content[copied:])
        mapped = lines.mapped()
        self._shown = mapped._replace(text="".join(parts))
        self.plain = plain

    def _read_single(self, lines: _Lines) -> None:
        """:meth:`read_plain` when no two backticks touch: the pieces between backticks alternate
        text and code (a last backtick without a partner is text)."""
        content = lines.content
        pieces = content.split("`")
        if len(pieces) % 2 == 0:  # an odd number of backticks: the last one shows as itself
            pieces[-2:] = [pieces[-2] + "`" + pieces[-1]]
        base, answer, spans = lines.base, lines.answer, self.spans
        plain = True
        at = len(pieces[0])
        for index in range(1, len(pieces), 2):
            inner = pieces[index]
            end = at + len(inner) + 2
            if "\n" in inner:
                inner = pieces[index] = inner.replace("\n", " ")
                plain = False
            shown_at = at + 1
            if inner[:1] == " " and inner[-1:] == " " and len(inner) >= 2 and inner.strip(" "):
                inner, shown_at = inner[1:-1], shown_at + 1
            if base is not None:
                spans.append(CodeSpan(base + at, base + end, inner, shown_at))
            else:
                spans.append(CodeSpan(answer(at), answer(end - 1) + 1, inner, shown_at))
            at = end + len(pieces[index + 1])
        self._shown = lines.mapped()._replace(text=CODE_MARK.join(pieces))
        self.plain = plain

    def read_marked(self, lines: _Lines) -> None:
        """The full reading (:func:`~_conflict_gate.inlines.inline_view`)."""
        content = lines.content

        def to_answer(a: int, b: int) -> tuple[int, int]:
            return lines.answer(a), lines.answer(max(b - 1, a)) + 1

        view = inline_view(content)
        if view.gave_up:
            self.doubt = "brackets or parentheses nest deeper than the check reads"
        self.unsure = [to_answer(a, b) for a, b in view.unsure if b > a]
        self.hidden = [to_answer(a, b) for a, b in view.hidden if b > a]
        # What the linked reading hides and the literal one shows, but for the brackets themselves:
        # link destinations and titles, reference labels. Images' descriptions are hidden too.
        linked = _coverage(view.linked)
        removed = _link_parts(view.literal, linked, content)
        removed = _union(removed + _image_descriptions(content, view.brackets))
        self.hidden += [to_answer(a, b) for a, b in removed if b > a]
        self.hidden.sort()
        self.links = [lines.answer(a - 1) + 1 for a, b in view.brackets
                      if content[a:a + 1] == "(" and a > 0 and content[a - 1] == "]"]
        self.links += [lines.answer(a) + 1 for a in _label_starts(content, view.brackets)]
        builder = _Builder(lines)
        # What shows between the view's pieces: code spans (but those inside a destination or a
        # title, which is a string, not inline content), and a code mark for each tag of a code element.
        destinations = _union([(a, b) for a, b in view.brackets
                               if content[a:a + 1] == "(" and a > 0 and content[a - 1] == "]"] + removed)
        self.hidden = sorted(set(self.hidden) | {to_answer(a, b) for a, b in destinations if b > a})
        events = [(a, b, True) for a, b in view.code if not _within(a, destinations)]
        events += [(a, b, False) for a, b in view.hidden
                   if _CODE_TAG.match(content, a) and not _within(a, destinations)]
        events.sort()
        at = 0
        for piece, origin, stride, source_end in _view_pieces(view.literal, content):
            while at < len(events) and events[at][0] < origin:
                self._event(builder, lines, content, *events[at])
                at += 1
            if stride:
                for a, b in _subtract((origin, source_end), removed):
                    builder.copy(content[a:b], a)
            elif not _within(origin, removed):
                builder.show(piece, origin, source_end)
        for event in events[at:]:
            self._event(builder, lines, content, *event)
        self._shown = builder.build()
        self._code_elements(content, view.hidden, to_answer)

    def _event(self, builder: _Builder, lines: _Lines, content: str, a: int, b: int, span: bool) -> None:
        if span:
            self._code_span(builder, lines, content, a, b)
        else:
            builder.show(CODE_MARK, a, b)

    def _code_span(self, builder: _Builder, lines: _Lines, content: str, a: int, b: int) -> None:
        """6.1: each backtick of the span's runs as a code mark, its content between (line ends as
        spaces), as :meth:`read_plain` writes it; the span's ``content`` without one space at each
        end when both ends have one."""
        run = _BACKTICKS.match(content, a)
        length = run.end() - a if run else 1
        inner_start, inner_end = a + length, b - length
        inner = content[inner_start:inner_end].replace("\n", " ")
        builder.show(CODE_MARK * length, a, a + length)
        shown_at = builder.length
        if inner:
            builder.copy(inner, inner_start)
        builder.show(CODE_MARK * length, inner_end, b)
        if len(inner) >= 2 and inner[0] == " " and inner[-1] == " " and inner.strip(" "):
            inner, shown_at = inner[1:-1], shown_at + 1
        self.spans.append(CodeSpan(lines.answer(a), lines.answer(b - 1) + 1, inner, shown_at))

    def _code_elements(self, content: str, hidden: Sequence[tuple[int, int]],
                       to_answer: Callable[[int, int], tuple[int, int]]) -> None:
        """The content between inline ``<code>`` (``<pre>``, ``<kbd>``, ``<samp>``, ``<tt>``) tags is code."""
        opened: dict[str, int] = {}
        for a, b in hidden:
            tag = _CODE_TAG.match(content, a)
            if tag is None:
                continue
            name = tag.group(2).lower()
            if not tag.group(1):
                opened.setdefault(name, b)
            elif name in opened:
                start = opened.pop(name)
                if a > start:
                    self.code.append(to_answer(start, a))
        self.code.sort()


def _coverage(view: View) -> list[tuple[int, int]]:
    """The content ranges a view shows, sorted."""
    ranges = []
    for k, start in enumerate(view.starts):
        stop = view.starts[k + 1] if k + 1 < len(view.starts) else len(view.text)
        origin = view.origins[k]
        ranges.append((origin, origin + (stop - start if view.strides[k] else 1)))
    return ranges


def _link_parts(literal: View, linked: list[tuple[int, int]], content: str) -> list[tuple[int, int]]:
    """Content ranges the literal view shows and the linked one does not, but the single ``[``,
    ``]`` and ``!`` that mark brackets: destinations, titles, reference labels."""
    parts = []
    for origin, end in _coverage(literal):
        if end - origin == 1 and content[origin] in "[]!" and not _within(origin, linked):
            # a bracket or an image's bang: shown unless it makes a link (a citation's check)
            continue
        parts += _subtract((origin, end), linked)
    return [part for part in parts if part[1] > part[0]]


def _image_descriptions(content: str, brackets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``![description](...)`` and ``![description][label]``: a chat window shows the image."""
    found = []
    for a, b in brackets:
        if content[a:a + 1] == "[" and a > 0 and content[a - 1] == "!" and (a < 2 or content[a - 2] != "\\") \
                and content[b:b + 1] in ("(", "["):
            found.append((a + 1, b - 1))
    return found


def _label_starts(content: str, brackets: Sequence[tuple[int, int]]) -> list[int]:
    """Content offsets of each ``]`` directly followed by a bracketed reference label."""
    ends = {b - 1 for a, b in brackets if content[a:a + 1] == "["}
    return [end for end in sorted(ends) if content[end + 1:end + 2] == "["]


def _subtract(span: tuple[int, int], ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``span`` minus the sorted ``ranges``."""
    start, end = span
    out = []
    k = max(bisect.bisect_right(ranges, (start, float("inf"))) - 1, 0)
    while k < len(ranges) and ranges[k][0] < end:
        a, b = ranges[k]
        if b > start:
            if a > start:
                out.append((start, min(a, end)))
            start = max(start, b)
        k += 1
    if start < end:
        out.append((start, end))
    return out


def _union(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges merged where they overlap or touch."""
    merged: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _within(offset: int, ranges: Sequence[tuple[int, int]]) -> bool:
    k = bisect.bisect_right(ranges, (offset, float("inf"))) - 1
    return k >= 0 and ranges[k][0] <= offset < ranges[k][1]


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
        code = _union([(span.start, span.end) for span in block.spans] + list(block.code))
        shown = block.shown
        for k, first in enumerate(shown.starts):
            stop = shown.starts[k + 1] if k + 1 < len(shown.starts) else len(shown.text)
            piece, origin = shown.text[first:stop], shown.origins[k]
            if not shown.strides[k]:
                if piece.strip(CODE_MARK) and piece != "\t":
                    add("code" if whole_code or _within(origin, code) else "prose", origin, shown.ends[k], piece)
                continue
            for part in re.finditer(f"[^{CODE_MARK}]+", piece):
                a, b = origin + part.start(), origin + part.end()
                cuts = sorted({a, b, *(x for span in code for x in span if a < x < b)})
                for left, right in zip(cuts, cuts[1:]):
                    kind = "code" if whole_code or _within(left, code) else "prose"
                    add(kind, left, right, reading.text[left:right] if shown.strides[k] else piece)
    return sorted(out, key=lambda segment: (segment.start, segment.end))
