"""The values inline reading yields and the tools it builds them with (no I/O).

:class:`View` (the text a reader sees, with each character's source offset), :class:`Spans`,
:class:`InlineView`, the delimiter :class:`Indexes`, GFM's tag filter (GFM 0.29 section 6.11,
disallowed raw HTML) and the characters a reader does not see."""

from __future__ import annotations

import bisect
import enum
import re
import unicodedata
from array import array
from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

__all__ = [
    "ASCII_PUNCTUATION",
    "FILTERED_TAGS",
    "MAX_NESTING",
    "Indexes",
    "InlineView",
    "Spans",
    "TagFilter",
    "View",
    "filtered_tag",
    "invisible",
    "visible_word",
]

#: Unmatched brackets or parentheses nested deeper than this are not followed.
MAX_NESTING: Final = 1000

#: 2.1: the ASCII punctuation characters, which a backslash may escape (2.4).
ASCII_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Characters a reader does not see: format controls, combining marks, and letters that render as nothing.
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def invisible(ch: str) -> bool:
    """True for a character that renders as nothing (Cf, Mn, Me, Cc, Co, Cn, Hangul fillers, the braille blank)."""
    return ch in _BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Mn", "Me", "Cc", "Co", "Cn")


class TagFilter(enum.Enum):
    """Whether a renderer applies GFM's tag filter (GFM 0.29 section 6.11, "Disallowed Raw HTML")."""

    #: GitHub's: the ``<`` of a :data:`FILTERED_TAGS` tag is written as ``&lt;``: the tag shows as text.
    APPLIED = "applied"
    #: Raw HTML is passed through as written: the browser reads those tags as elements.
    NONE = "none"
    #: Either may be: where the two readings differ, the text is unsure.
    IN_DOUBT = "in_doubt"

    @property
    def readings(self) -> tuple[bool, ...]:
        """Whether the filter applies, for each reading this value stands for."""
        return {TagFilter.APPLIED: (True,), TagFilter.NONE: (False,), TagFilter.IN_DOUBT: (True, False)}[self]


#: GFM 6.11: the tags whose ``<`` GitHub's tag filter writes as ``&lt;``.
FILTERED_TAGS: Final = frozenset(
    {"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"}
)
#: cmark-gfm's ``is_tag`` (extensions/tagfilter.c): ``<``, an optional ``/``, the name in any case, then
#: whitespace, ``>`` or ``/>`` (or the end of the text: the gate's lines lack the line ending cmark-gfm's
#: literal has).
_FILTERED: Final = re.compile(
    r"</?(" + "|".join(sorted(FILTERED_TAGS)) + r")(?=[\t\n\x0b\f\r >]|/>|\Z)", re.IGNORECASE | re.ASCII
)


def filtered_tag(text: str, at: int) -> str | None:
    """The lowercase name when ``text[at:]`` starts a tag GFM's tag filter writes as text, else None."""
    match = _FILTERED.match(text, at)
    return match[1].lower() if match else None


def _offsets(size: int) -> array[int]:
    """An empty array for offsets into a text of ``size`` characters (4 bytes each when they fit)."""
    return array("i" if size < 1 << 31 else "q")


class Spans:
    """Sorted ``[start, end)`` spans of a text, in two arrays of machine integers (a few bytes per span).

    Spans are added in order of their starts; :meth:`contains` answers for the
    last span that starts at or before an offset, as a bisect over a list of
    pairs would. :meth:`overlaps` uses the running maximum of the ends (built
    on its first call), so it sees nested and overlapping spans too.
    """

    __slots__ = ("ends", "reach", "starts")

    def __init__(self, size: int = 0) -> None:
        self.starts = _offsets(size)
        self.ends = _offsets(size)
        self.reach: array[int] | None = None  # max(ends[:k + 1]), once overlaps() is asked

    @classmethod
    def of(cls, pairs: Sequence[tuple[int, int]], size: int = 0) -> Spans:
        spans = cls(size)
        for start, end in sorted(pairs):
            spans.add(start, end)
        return spans

    def add(self, start: int, end: int) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.reach = None

    def pop(self) -> None:
        self.starts.pop()
        self.ends.pop()
        self.reach = None

    def __len__(self) -> int:
        return len(self.starts)

    def __bool__(self) -> bool:
        return bool(self.starts)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(zip(self.starts, self.ends))

    def pairs(self) -> list[tuple[int, int]]:
        return list(zip(self.starts, self.ends))

    def contains(self, offset: int) -> bool:
        """Whether the last span starting at or before ``offset`` holds it."""
        k = bisect.bisect_right(self.starts, offset) - 1
        return k >= 0 and self.ends[k] > offset

    def overlaps(self, start: int, end: int) -> bool:
        """Whether some span overlaps ``[start, end)``."""
        if self.reach is None:
            reach, furthest = _offsets(max(self.ends, default=0) + 1), -1
            for span_end in self.ends:
                furthest = max(furthest, span_end)
                reach.append(furthest)
            self.reach = reach
        k = bisect.bisect_left(self.starts, end)
        return k > 0 and self.reach[k - 1] > start


class View(NamedTuple):
    """Visible text, and where each of its characters comes from in the block content.

    Segment ``k`` starts at view index ``starts[k]`` and comes from content
    offset ``origins[k]``: copied text (``strides[k] == 1``, one character
    per character) or one construct shown as these characters (``0``: an
    escape, a reference).
    """

    text: str
    starts: Sequence[int]
    origins: Sequence[int]
    strides: Sequence[int]

    def origin(self, index: int) -> int:
        """The content offset view character ``index`` comes from."""
        k = bisect.bisect_right(self.starts, index) - 1
        return self.origins[k] + self.strides[k] * (index - self.starts[k])

    def view_index(self, origin: int) -> int:
        """The view index of the character that comes from content offset ``origin``, or -1 if none does.

        (Not ``index``: a NamedTuple's ``index`` is ``tuple.index``.)
        """
        k = bisect.bisect_right(self.origins, origin) - 1
        if k < 0:
            return -1
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.text)
        if self.strides[k] == 0:
            return self.starts[k] if origin == self.origins[k] and end > self.starts[k] else -1
        index = self.starts[k] + origin - self.origins[k]
        return index if index < end else -1


#: Text parts a builder holds before it joins them into one chunk.
_PARTS: Final = 4096


class _Builder:
    """Builds a :class:`View` from slices; ``hidden_until`` hides content offsets below it.

    Adjacent copies are one segment and one slice, taken when the run ends;
    parts are joined into chunks as they come, so memory stays a few bytes
    per character however many constructs there are.
    """

    __slots__ = (
        "chunks",
        "content",
        "hidden_until",
        "length",
        "origins",
        "parts",
        "run_end",
        "run_start",
        "starts",
        "strides",
    )

    def __init__(self, content: str) -> None:
        self.content = content
        self.parts: list[str] = []
        self.chunks: list[str] = []
        self.length = 0
        self.starts = _offsets(len(content))
        self.origins = _offsets(len(content))
        self.strides = bytearray()
        self.hidden_until = -1
        self.run_start = self.run_end = -1  # the copied run not sliced yet

    def _end_run(self) -> None:
        if self.run_end > self.run_start:
            self.parts.append(self.content[self.run_start : self.run_end])
            if len(self.parts) >= _PARTS:
                self.chunks.append("".join(self.parts))
                self.parts.clear()
        self.run_start = self.run_end = -1

    def copy(self, start: int, end: int) -> None:
        if start < self.hidden_until:
            start = self.hidden_until
        if start >= end:
            return
        if start != self.run_end:  # not where the last copy ended: a new segment
            if self.run_end > self.run_start:
                self._end_run()
            self.starts.append(self.length)
            self.origins.append(start)
            self.strides.append(1)
            self.run_start = start
        self.run_end = end
        self.length += end - start

    def show(self, chars: str, origin: int) -> None:
        if origin < self.hidden_until or not chars:
            return
        parts = self.parts
        if self.run_end > self.run_start:
            parts.append(self.content[self.run_start : self.run_end])
        self.run_start = self.run_end = -1
        self.starts.append(self.length)
        self.origins.append(origin)
        self.strides.append(0)
        parts.append(chars)
        if len(parts) >= _PARTS:
            self.chunks.append("".join(parts))
            parts.clear()
        self.length += len(chars)

    def view(self) -> View:
        if (
            len(self.starts) == 1
            and self.strides[0] == 1
            and not self.chunks
            and not self.parts
            and self.run_start == self.origins[0] == 0
            and self.run_end == len(self.content)
        ):
            return View(self.content, self.starts, self.origins, self.strides)  # all of it, as it is
        self._end_run()
        self.chunks.append("".join(self.parts))
        self.parts.clear()
        text = "".join(self.chunks)
        self.chunks.clear()
        return View(text, self.starts, self.origins, self.strides)


class InlineView(NamedTuple):
    """One block's inline content as a reader sees it.

    ``content`` is the block's lines joined with ``\\n``; ``line_starts`` the
    offset in ``content`` of each line. ``literal`` and ``linked`` are the two
    readings (module docstring). ``code`` and ``hidden`` are the
    :class:`Spans` of ``content`` inside code spans and raw HTML;
    ``brackets`` covers every ``[`` to its ``]`` and every link destination
    that crosses a line break (spans on one line merged, which changes no
    answer about whole lines). ``gave_up`` when brackets or parentheses nest
    deeper than :data:`MAX_NESTING`. ``unsure``: spans of raw HTML (6.6) that
    a browser's tokenizer ends differently (``<?php a > b ?>`` ends at the
    first ``>`` in a browser), and, with the tag filter in doubt, the
    filtered tags. ``raw_html`` the raw HTML spans as a renderer writes them
    out (what a browser reads as markup), in order. ``link_doubt``: the
    content offset of the first code span, raw HTML or autolink that starts
    inside a link's destination, title or reference label and runs past its
    end (:func:`_link_tail_end`), or -1: if the link forms, that construct is
    part of the link and the text after the link is read afresh; if not, the
    construct is code or hidden up to its own end. The reading of everything
    from there to the end of the content is in doubt. ``backtick_doubt``: the
    content offset of the first backtick run that opens a code span by the
    spec (and markdown-it) but not in cmark-gfm (:meth:`_Scan.cmark_closes`),
    or -1; from there on the two pair backticks differently.
    """

    content: str
    line_starts: Sequence[int]
    literal: View
    linked: View
    code: Spans
    hidden: Spans
    brackets: Spans
    gave_up: bool
    unsure: Spans
    raw_html: Spans
    link_doubt: int = -1
    backtick_doubt: int = -1


class _Index:
    """ "Next occurrence of one substring at or after p", remembering the last answer.

    For positions asked in increasing order (every scan here moves forward)
    the text is searched once overall: an answer stays valid for every
    position between where its search started and what it found. Holds two
    integers, not a list of occurrences, so memory stays flat on any text.
    """

    __slots__ = ("found", "needle", "searched_from", "text")

    def __init__(self, text: str, needle: str) -> None:
        self.text, self.needle = text, needle
        self.searched_from, self.found = 0, -2  # -2: nothing searched yet

    def next(self, pos: int) -> int:
        if self.found != -2 and self.searched_from <= pos and (self.found == -1 or pos <= self.found):
            return self.found
        self.searched_from, self.found = pos, self.text.find(self.needle, pos)
        return self.found


class _PatternIndex:
    """:class:`_Index` for the next match of a pattern (a character class) instead of a substring."""

    __slots__ = ("found", "pattern", "searched_from", "text")

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self.text, self.pattern = text, pattern
        self.searched_from, self.found = 0, -2  # -2: nothing searched yet

    def next(self, pos: int) -> int:
        if self.found != -2 and self.searched_from <= pos and (self.found == -1 or pos <= self.found):
            return self.found
        match = self.pattern.search(self.text, pos)
        self.searched_from, self.found = pos, match.start() if match else -1
        return self.found


class Indexes:
    """An :class:`_Index` per needle, built on first use, for one content string."""

    def __init__(self, content: str) -> None:
        self.content = content
        self.built: dict[str, _Index] = {}

    def next(self, needle: str, pos: int) -> int:
        index = self.built.get(needle)
        if index is None:
            index = self.built[needle] = _Index(self.content, needle)
        return index.next(pos)


#: How far after an at sign a directive's namespace is looked for (characters without a space).
_WORD_LIMIT: Final = 4096


def visible_word(view: View, index: int) -> str | None:
    """The view from ``index`` to the first whitespace, as the directive shape is matched.

    NFKC per character (the look-alike at signs U+FF20 and U+FE6B and
    fullwidth letters become ASCII) and invisible characters dropped, plus
    the character that ends the word. ``None`` when no whitespace comes
    within :data:`_WORD_LIMIT` characters (the gate does not guess).
    """
    text = view.text
    end = index
    limit = min(len(text), index + _WORD_LIMIT)
    while end < limit and not text[end].isspace():
        end += 1
    if end == limit and limit < len(text):
        return None
    word = text[index : end + 1]
    if word.isascii():
        return word
    out = []
    for ch in word:
        if ch.isascii():
            out.append(ch)
        elif not invisible(ch):
            out.append(unicodedata.normalize("NFKC", ch))
    return "".join(out)
