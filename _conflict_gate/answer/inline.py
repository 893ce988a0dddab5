"""What a reader sees of one inline unit of an answer, and the mapped texts it is written into (no I/O).

A paragraph's lines, a heading's text or a table cell is read as CommonMark
0.31.2 section 6 reads it (:class:`InlineUnit`): with
:func:`~_conflict_gate.reading.inlines.inline_view` (code spans, raw HTML, autolinks,
references, escapes, links), or, for content with code spans, brackets and
text only, by :meth:`InlineUnit.read_plain`, which gives the same reading
faster (the tests compare both). The result is a :class:`Mapped` text whose
characters each know where they come from in the answer (code points); code
spans' contents sit between :data:`CODE_MARK` characters.
:mod:`~_conflict_gate.answer.reader` reads the blocks around it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from ..reading.inline_html import CODE_ELEMENTS
from ..reading.inline_spans import MAX_NESTING, TagFilter, View
from ..reading.inlines import inline_view

__all__ = [
    "ANSWER_TAG_FILTER",
    "CODE_MARK",
    "EMPTY_MAPPED",
    "Builder",
    "CodeSpan",
    "InlineUnit",
    "Lines",
    "Mapped",
    "union",
    "view_pieces",
    "within",
]

_BACKTICKS: Final = re.compile(r"`+")
_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_CODE_TAG: Final = re.compile(rf"<(/?)({'|'.join(sorted(CODE_ELEMENTS))})(?![A-Za-z0-9-])", re.IGNORECASE)

#: Marks the start and the end of a code span's (or an HTML code element's) content in ``shown``:
#: a lone surrogate, which no answer holds (one that does is refused before it is read).
CODE_MARK: Final = "\udfff"
#: How an answer's raw HTML is read: a chat window may or may not apply GFM's tag filter, so where the
#: two readings differ the text is unsure (GFM 6.11; :class:`~_conflict_gate.reading.inline_spans.TagFilter`).
ANSWER_TAG_FILTER: Final = TagFilter.IN_DOUBT


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


EMPTY_MAPPED: Final = Mapped("", (), (), (), ())


class CodeSpan(NamedTuple):
    """A code span as CommonMark pairs it: ``[start, end)`` in the answer (backticks included),
    its ``content`` (line endings as spaces, one space off each end when both have one), and
    where that content starts in its block's ``shown`` text."""

    start: int
    end: int
    content: str
    shown_at: int


class Lines:
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
        builder = Builder(self)
        builder.copy(self.content, 0)
        return builder.build()


class Builder:
    """Builds a :class:`Mapped` from content pieces of one :class:`Lines`."""

    def __init__(self, lines: Lines) -> None:
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
            self._piece(text[i : i + take], origin, 1, origin + take)
            i += take
            c += take
            k += 1

    def show(self, text: str, c: int, source_end: int) -> None:
        """``text`` shown for the construct at content offsets ``[c, source_end)``."""
        if text:
            self._piece(text, self.lines.answer(c), 0, self.lines.answer(max(source_end - 1, c)) + 1)

    def build(self) -> Mapped:
        return Mapped(
            "".join(self.parts), tuple(self.starts), tuple(self.origins), tuple(self.strides), tuple(self.ends)
        )


def view_pieces(view: View, content: str) -> list[tuple[str, int, int, int]]:
    """``(text, content origin, stride, source end)`` of each piece of an inline or HTML view."""
    pieces = []
    for k, start in enumerate(view.starts):
        stop = view.starts[k + 1] if k + 1 < len(view.starts) else len(view.text)
        origin, stride = view.origins[k], view.strides[k]
        piece = view.text[start:stop]
        if stride:
            pieces.append((piece, origin, 1, origin + len(piece)))
        else:
            reference = _REFERENCE.match(content, origin) if content[origin : origin + 1] == "&" else None
            if reference:
                pieces.append((piece, origin, 0, reference.end()))
            elif origin > 0 and content[origin - 1] == "\\" and content[origin] == piece:
                pieces.append((piece, origin - 1, 0, origin + 1))
            else:
                pieces.append((piece, origin, 0, origin + 1))
    return pieces


#: What only the full inline reading reads: escapes, raw HTML and autolinks, references, images,
#: links with a destination or a label. Content without any of them is read by :meth:`InlineUnit.read_plain`.
_NOT_PLAIN: Final = re.compile(r"[\\<&!]|\]\(|\]\[")


class InlineUnit:
    """One inline unit (a paragraph's lines, a heading's text, a table cell) as a reader sees it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[CodeSpan] = []
        self.code: list[tuple[int, int]] = []
        self.hidden: list[tuple[int, int]] = []
        self.links: list[int] = []
        self.link_texts: list[tuple[int, int]] = []
        self.unsure: list[tuple[int, int]] = []
        self.doubt: str | None = None
        self.plain = False
        self.content = ""
        self._shown: Mapped = EMPTY_MAPPED

    def shown(self) -> Mapped:
        return self._shown

    def read(self, spans: Sequence[tuple[int, int]], *, fast: bool = True) -> None:
        """Read the unit whose lines are the answer spans ``spans``. ``fast=False`` reads plain
        content the full way too (the tests compare both)."""
        lines = Lines(self.text, spans)
        self.content = lines.content
        if fast and _NOT_PLAIN.search(lines.content) is None and lines.content.count("[") < MAX_NESTING:
            self.read_plain(lines)
        else:
            self.read_marked(lines)

    def read_plain(self, lines: Lines) -> None:
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

    def _read_single(self, lines: Lines) -> None:
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

    def read_marked(self, lines: Lines) -> None:
        """The full reading (:func:`~_conflict_gate.reading.inlines.inline_view`)."""
        content = lines.content

        def to_answer(a: int, b: int) -> tuple[int, int]:
            return lines.answer(a), lines.answer(max(b - 1, a)) + 1

        view = inline_view(content, ANSWER_TAG_FILTER, every_bracket=True)
        if view.gave_up:
            self.doubt = "brackets or parentheses nest deeper than the check reads"
        elif view.backtick_doubt >= 0:
            self.doubt = (
                "GitHub's cmark-gfm leaves backticks here unpaired that CommonMark pairs into a code "
                "span (after a run no backticks close)"
            )
        elif view.link_doubt >= 0:
            self.doubt = (
                "a link's destination, title or label holds a backtick or a '<' that is part of the "
                "link if it forms and otherwise starts a code span or raw HTML running on past it"
            )
        self.unsure = [to_answer(a, b) for a, b in view.unsure if b > a]
        self.hidden = [to_answer(a, b) for a, b in view.hidden if b > a]
        # What the linked reading hides and the literal one shows, but for the brackets themselves:
        # link destinations and titles, reference labels. Images' descriptions are hidden too.
        linked = _coverage(view.linked)
        removed = _link_parts(view.literal, linked, content)
        brackets = view.brackets.pairs()
        removed = union(removed + _image_descriptions(content, brackets))
        self.hidden += [to_answer(a, b) for a, b in removed if b > a]
        self.hidden.sort()
        self.links = [
            lines.answer(a - 1) + 1
            for a, b in brackets
            if content[a : a + 1] == "(" and a > 0 and content[a - 1] == "]"
        ]
        self.links += [lines.answer(a) + 1 for a in _label_starts(content, brackets)]
        # The text of each bracket a destination or a label follows: a chat window shows it as a link.
        self.link_texts = [
            to_answer(a + 1, b - 1)
            for a, b in brackets
            if content[a : a + 1] == "[" and content[b : b + 1] in ("(", "[") and b - 1 > a + 1
        ]
        builder = Builder(lines)
        # What shows between the view's pieces: code spans (but those inside a destination or a
        # title, which is a string, not inline content), and a code mark for each tag of a code element.
        destinations = union(
            [(a, b) for a, b in brackets if content[a : a + 1] == "(" and a > 0 and content[a - 1] == "]"] + removed
        )
        self.hidden = sorted(set(self.hidden) | {to_answer(a, b) for a, b in destinations if b > a})
        events = [(a, b, True) for a, b in view.code if not within(a, destinations)]
        events += [(a, b, False) for a, b in view.hidden if _CODE_TAG.match(content, a) and not within(a, destinations)]
        events.sort()
        at = 0
        for piece, origin, stride, source_end in view_pieces(view.literal, content):
            while at < len(events) and events[at][0] < origin:
                self._event(builder, lines, content, *events[at])
                at += 1
            if stride:
                for a, b in _subtract((origin, source_end), removed):
                    builder.copy(content[a:b], a)
            elif not within(origin, removed):
                builder.show(piece, origin, source_end)
        for event in events[at:]:
            self._event(builder, lines, content, *event)
        self._shown = builder.build()
        self._code_elements(content, view.hidden.pairs(), to_answer)

    def _event(self, builder: Builder, lines: Lines, content: str, a: int, b: int, span: bool) -> None:
        if span:
            self._code_span(builder, lines, content, a, b)
        else:
            builder.show(CODE_MARK, a, b)

    def _code_span(self, builder: Builder, lines: Lines, content: str, a: int, b: int) -> None:
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

    def _code_elements(
        self, content: str, hidden: Sequence[tuple[int, int]], to_answer: Callable[[int, int], tuple[int, int]]
    ) -> None:
        """The content between inline tags of a code element (:data:`~_conflict_gate.reading.inline_html.CODE_ELEMENTS`) is code."""
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
    """Content ranges the literal view shows and the linked one does not, but the ``[``, ``]`` and
    image ``!`` that mark brackets (shown unless they make a link: a citation's check): destinations,
    titles, reference labels."""
    parts = []
    for span in _coverage(literal):
        for start, end in _subtract(span, linked):
            run = start
            for at in range(start, end):
                if content[at] in "[]" or (content[at] == "!" and content[at + 1 : at + 2] == "["):
                    parts.append((run, at))
                    run = at + 1
            parts.append((run, end))
    return [part for part in parts if part[1] > part[0]]


def _image_descriptions(content: str, brackets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``![description](...)`` and ``![description][label]``: a chat window shows the image."""
    found = []
    for a, b in brackets:
        if (
            content[a : a + 1] == "["
            and a > 0
            and content[a - 1] == "!"
            and (a < 2 or content[a - 2] != "\\")
            and content[b : b + 1] in ("(", "[")
        ):
            found.append((a + 1, b - 1))
    return found


def _label_starts(content: str, brackets: Sequence[tuple[int, int]]) -> list[int]:
    """Content offsets of each ``]`` directly followed by a bracketed reference label."""
    ends = {b - 1 for a, b in brackets if content[a : a + 1] == "["}
    return [end for end in sorted(ends) if content[end + 1 : end + 2] == "["]


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


def union(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges merged where they overlap or touch."""
    merged: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def within(offset: int, ranges: Sequence[tuple[int, int]]) -> bool:
    k = bisect.bisect_right(ranges, (offset, float("inf"))) - 1
    return k >= 0 and ranges[k][0] <= offset < ranges[k][1]
