"""What a reader sees of a block's inline content, and of an HTML block (no I/O).

:func:`inline_view` reads one block's inline content (the lines of a
paragraph, a heading or a table cell) as CommonMark 0.31.2 section 6 does,
as far as seeing text goes: code spans (6.1) are code; raw HTML (6.6) is
hidden; autolinks (6.5) show their address; entity and numeric character
references (2.5) and backslash escapes (2.4) show the character they stand
for; soft and hard line breaks (6.7, 6.8) keep lines apart. Emphasis
delimiters (6.2) stay in the text (the directive shape ignores them).

Links are the one construct whose reading the gate does not settle: whether
``[text](destination "title")`` is a link depends on its destination and on
definitions anywhere on the page. So the view is built twice: *literal*
(every bracket and parenthesis shows) and *linked* (brackets, destinations,
titles and reference labels are hidden). Text that looks like a directive in
one reading and not in the other is ambiguous, and the gate refuses it. A
renderer reads a link's destination and title when it reaches the ``]``, so
a backtick or a ``<`` there belongs to the link if it forms, and opens a
code span or raw HTML if not: where such a construct runs past the link's
tail, the rest of the content is in doubt (``link_doubt``). cmark-gfm pairs
backticks otherwise than the spec after a run nothing closes, and past 80
backticks: emulated, and where it parts from the spec the rest is in doubt
too (``backtick_doubt``).

:func:`html_view` reads an HTML block as a browser shows it: comments,
processing instructions, declarations, CDATA, tags and ``<template>``
content are hidden; ``<pre>``, ``<code>`` and similar elements are code;
everything else is text.

GFM's tag filter (GFM 0.29 section 6.11, "Disallowed Raw HTML": GitHub
writes the ``<`` of ``<script``, ``<style``, ``<textarea``, ``<title``,
``<iframe``, ``<noframes``, ``<noembed``, ``<xmp`` and ``<plaintext`` as
``&lt;``, in HTML blocks and inline raw HTML alike) is a parameter of both
views (:class:`TagFilter`): applied, those tags and what follows them show
as text; not applied, they are raw HTML (the browser hides or shows their
content as the HTML standard says); in doubt (a renderer that may or may not
apply it), the text they reach is *unsure*, and the gate refuses
directive-shaped text there.

Views are built from slices of the content with a short table of offset
segments (arrays of machine integers, never one Python object per
character or per construct), every closer is found through an index built
once per block, and spans are kept as arrays too: time is linear in the
content and memory a few bytes per byte of it. Brackets or parentheses
nested deeper than :data:`MAX_NESTING` are not followed (``gave_up``).
"""

from __future__ import annotations

import bisect
import enum
import html
import html.entities
import re
import unicodedata
from array import array
from collections.abc import Callable, Iterator, Sequence
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
    "browser_markup_end",
    "filtered_tag",
    "html_tag_end",
    "html_view",
    "inline_view",
    "invisible",
    "visible_word",
]

#: Unmatched brackets or parentheses nested deeper than this are not followed.
MAX_NESTING: Final = 1000

#: 2.1: the ASCII punctuation characters, which a backslash may escape (2.4).
ASCII_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NAMED_REFERENCES: Final = html.entities.html5
#: 2.5: an entity or numeric character reference.
_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: 6.5: a URI autolink and an email autolink.
_URI_AUTOLINK: Final = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>]*)>")
_EMAIL_AUTOLINK: Final = re.compile(
    r"<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?)*)>"
)
#: 6.6: an open tag's name and attribute names (values are found through quote indexes).
_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
_ATTRIBUTE_NAME: Final = re.compile(r"[A-Za-z_:][A-Za-z0-9_.:\-]*")
_UNQUOTED_VALUE: Final = re.compile(r"[^ \t\n\"'=<>`]+")
_SPACE: Final = re.compile(r"[ \t]*\n?[ \t]*")
_BACKTICKS: Final = re.compile(r"`+")
#: Where inline scanning has something to decide; everything between is copied as is.
_SPECIAL: Final = re.compile(r"[\\`<&\[\]!]")
_HTML_SPECIAL: Final = re.compile(r"[<&]")
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


#: 6.3: what ends a link destination not in ``<...>`` (besides its closing parenthesis).
_DESTINATION_END: Final = re.compile(r"[ \t\n]")


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


def html_tag_end(text: str, i: int) -> int:
    """6.6: the end of an HTML tag starting at ``text[i] == "<"``, or -1 (linear in the tag's length)."""
    return _raw_html(text, i, Indexes(text))


def _raw_html(content: str, i: int, indexes: Indexes) -> int:
    """6.6: the end of an HTML tag (open, closing, comment, processing instruction,
    declaration, CDATA) starting at ``content[i] == "<"``, or -1.

    (``_SPACE`` matches the empty string, so its match is never None; the
    ``if m`` only says so to the type checker, without a call per step.)
    """
    nxt = content[i + 1 : i + 2]
    if nxt == "!":
        if content.startswith("<!--", i):
            if content.startswith(">", i + 4):
                return i + 5
            if content.startswith("->", i + 4):
                return i + 6
            end = indexes.next("-->", i + 4)
            return -1 if end < 0 else end + 3
        if content.startswith("<![CDATA[", i):
            end = indexes.next("]]>", i + 9)
            return -1 if end < 0 else end + 3
        if content[i + 2 : i + 3].isascii() and content[i + 2 : i + 3].isalpha():
            end = indexes.next(">", i + 2)
            return -1 if end < 0 else end + 1
        return -1
    if nxt == "?":
        end = indexes.next("?>", i + 2)
        return -1 if end < 0 else end + 2
    if nxt == "/":
        name = _TAG_NAME.match(content, i + 2)
        if not name:
            return -1
        j = m.end() if (m := _SPACE.match(content, name.end())) else name.end()
        return j + 1 if content.startswith(">", j) else -1
    name = _TAG_NAME.match(content, i + 1)
    if not name:
        return -1
    j = name.end()
    while True:
        space = m.end() if (m := _SPACE.match(content, j)) else j
        if content.startswith("/>", space):
            return space + 2
        if content.startswith(">", space):
            return space + 1
        if space == j:
            return -1
        attribute = _ATTRIBUTE_NAME.match(content, space)
        if not attribute:
            return -1
        j = attribute.end()
        after = m.end() if (m := _SPACE.match(content, j)) else j
        if content.startswith("=", after):
            value_at = m.end() if (m := _SPACE.match(content, after + 1)) else after + 1
            quote = content[value_at : value_at + 1]
            if quote in ("'", '"'):
                close = indexes.next(quote, value_at + 1)
                if close < 0:
                    return -1
                j = close + 1
            else:
                value = _UNQUOTED_VALUE.match(content, value_at)
                if not value:
                    return -1
                j = value.end()


_TAG_NAME_END: Final = re.compile(r"[^\t\n\f />]*")
_ATTRIBUTE_SKIP: Final = re.compile(r"[\t\n\f /]*")
_BROWSER_ATTRIBUTE_NAME: Final = re.compile(r".[^\t\n\f />=]*", re.DOTALL)
_BROWSER_SPACE: Final = re.compile(r"[\t\n\f ]*")
_BROWSER_UNQUOTED: Final = re.compile(r"[^\t\n\f >]*")


def browser_markup_end(
    content: str, i: int, indexes: Indexes, run_on: int | None = None, stop: int | None = None
) -> int:
    """Where a browser's HTML tokenizer ends the markup starting at ``content[i] == "<"``.

    HTML Living Standard, 13.2.5 (tokenization, from the data state):
    a comment ends at ``-->`` or ``--!>`` (``<!-->`` and ``<!--->`` are
    empty); ``<!`` otherwise (a doctype, CDATA outside SVG and MathML, a
    bogus comment), ``<?`` and ``</`` not followed by a letter end at the
    first ``>``; a tag ends at the first ``>`` outside a quoted attribute
    value, attributes run together or not. Returns ``len(content)`` when the
    markup runs to the end (a browser shows none of it; ``run_on`` instead,
    when given, to tell it from markup that ends there; the same once a tag runs past ``stop``), ``-1`` when the
    ``<`` is text. Linear over any number of calls on one ``content``. (The
    patterns stepped over match the empty string, or, for an attribute name,
    one character before the end: their matches are never None.)
    """
    n, limit = len(content), len(content) if stop is None else min(len(content), stop)
    ran_on = n if run_on is None else run_on
    nxt = content[i + 1 : i + 2]
    if nxt == "!" and content.startswith("<!--", i):
        if content.startswith(">", i + 4):
            return i + 5
        if content.startswith("->", i + 4):
            return i + 6
        ends = [e + k for e, k in ((indexes.next("-->", i + 4), 3), (indexes.next("--!>", i + 4), 4)) if e >= 0]
        return min(ends) if ends else ran_on
    letter = content[i + 2 : i + 3]
    if nxt in ("!", "?") or (nxt == "/" and not (letter.isascii() and letter.isalpha())):
        if content.startswith("</>", i):
            return i + 3
        if nxt == "/" and i + 2 >= n:
            return -1  # "</" at the end is text
        end = indexes.next(">", i + 2)
        return ran_on if end < 0 else end + 1
    start = i + 2 if nxt == "/" else i + 1
    if not (content[start : start + 1].isascii() and content[start : start + 1].isalpha()):
        return -1
    j = m.end() if (m := _TAG_NAME_END.match(content, start, limit)) else start
    while True:
        j = m.end() if (m := _ATTRIBUTE_SKIP.match(content, j, limit)) else j
        if j >= limit:
            return ran_on
        if content[j] == ">":
            return j + 1
        j = m.end() if (m := _BROWSER_ATTRIBUTE_NAME.match(content, j, limit)) else j + 1
        j = m.end() if (m := _BROWSER_SPACE.match(content, j, limit)) else j
        if content.startswith("=", j):
            j = m.end() if (m := _BROWSER_SPACE.match(content, j + 1, limit)) else j + 1
            quote = content[j : j + 1]
            if quote in ("'", '"'):
                close = indexes.next(quote, j + 1)
                if close < 0:
                    return ran_on
                j = close + 1
            else:
                j = m.end() if (m := _BROWSER_UNQUOTED.match(content, j, limit)) else j


#: A character reference as a browser reads it (HTML 13.2.5.72): numeric ones need no semicolon.
_BROWSER_REFERENCE: Final = re.compile(r"&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?")


def _readers_differ(content: str, at: int, end: int) -> bool:
    """Raw HTML that CommonMark 0.31.2 accepts and GitHub (cmark-gfm) and markdown-it show as
    text: a comment by the older rule (its text starts with ``>`` or ``->``, ends with ``-`` or
    holds ``--``: ``<!-->``, ``<!--- x --->``), or a declaration whose name is not uppercase."""
    if content.startswith("<!--", at):
        body = content[at + 4 : end - 3] if end - at >= 7 else None
        return body is None or body.startswith((">", "->")) or body.endswith("-") or "--" in body
    return (
        content.startswith("<!", at)
        and not content[at + 2 : at + 3].isupper()
        and not content.startswith("<![CDATA[", at)
    )


def _reference(match: re.Match[str]) -> str:
    """2.5: the character(s) a reference stands for, or ``""`` for an unknown name."""
    body = match.group()[1:-1]
    if body.startswith("#"):
        number = int(body[2:], 16) if body[1:2] in ("x", "X") else int(body[1:])
        if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
            return "\ufffd"
        return chr(number)
    return _NAMED_REFERENCES.get(body + ";", "")


class _Destinations:
    """The ``(`` right after a ``]`` -> its matching ``)`` (escapes skipped), for link destinations:
    two arrays in the order of the ``(`` (every parenthesis is matched, only these are kept)."""

    __slots__ = ("closes", "opens")

    def __init__(self, content: str) -> None:
        self.opens = _offsets(len(content))
        self.closes = _offsets(len(content))

    def close_of(self, at: int) -> int:
        """The ``)`` matching the ``(`` at ``at``, or -1."""
        k = bisect.bisect_left(self.opens, at)
        return self.closes[k] if k < len(self.opens) and self.opens[k] == at else -1


def _matching_parentheses(content: str) -> tuple[_Destinations, bool]:
    """The link destinations' parentheses (:class:`_Destinations`), and whether it gave up."""
    found = _Destinations(content)
    stack: list[int] = []  # per open "(": its index in found, or -1 when not after "]"
    for match in re.finditer(r"\\.|[()]", content, re.DOTALL):
        ch = match.group()
        if ch == "(":
            if len(stack) >= MAX_NESTING:
                return found, True
            at = match.start()
            if at and content[at - 1] == "]":
                stack.append(len(found.opens))
                found.opens.append(at)
                found.closes.append(-1)
            else:
                stack.append(-1)
        elif ch == ")" and stack:
            index = stack.pop()
            if index >= 0:
                found.closes[index] = match.start()
    return found, False


class _Brackets:
    """The bracket and destination spans that matter for whole lines: each ``[start, end)`` as it is
    found (closing order), nested spans dropped for the span around them and spans with no line break
    between them merged, so a line of thousands of links is one span (:class:`Spans`). With ``every``,
    each span is kept as found (:meth:`every_span`), for a reader that needs each link."""

    __slots__ = ("content", "every", "spans")

    def __init__(self, content: str, every: bool = False) -> None:
        self.content = content
        self.spans = Spans(len(content))
        self.every: list[tuple[int, int]] | None = [] if every else None

    def add(self, start: int, end: int) -> None:
        if self.every is not None:
            self.every.append((start, end))
            return
        spans = self.spans
        while spans and spans.starts[-1] >= start:  # nested in this one (found before it closed)
            end = max(end, spans.ends[-1])
            spans.pop()
        if spans and (spans.ends[-1] >= start or self.content.find("\n", spans.ends[-1], start) == -1):
            start = spans.starts[-1]
            end = max(end, spans.ends[-1])
            spans.pop()
        spans.add(start, end)

    def every_span(self) -> Spans:
        """Every span, sorted (only with ``every``)."""
        return Spans.of(self.every or ())

    def crossing_lines(self) -> Spans:
        """The spans that hold a line break."""
        crossing = Spans(len(self.content))
        for start, end in self.spans:
            if self.content.find("\n", start, end) != -1:
                crossing.add(start, end)
        return crossing


class _Scan:
    """One :func:`inline_view` in progress: the content, what was found so far, and the two views.

    Every handler in :data:`_HANDLERS` reads the construct starting at one
    special character and returns the offset where scanning goes on; the
    content before that offset is in both views (or deliberately left out).
    """

    __slots__ = (
        "backtick_doubt",
        "brackets",
        "cmark_memo",
        "cmark_scanned",
        "code",
        "content",
        "definitions",
        "gave_up",
        "hidden",
        "indexes",
        "link_doubt",
        "linked",
        "literal",
        "open_brackets",
        "parentheses",
        "raw_html",
        "runs",
        "spaces",
        "tag_filter",
        "tail_end",
        "unsure",
    )

    def __init__(
        self, content: str, tag_filter: TagFilter, definitions: bool = True, every_bracket: bool = False
    ) -> None:
        self.content = content
        self.indexes = Indexes(content)
        self.tag_filter = tag_filter
        #: backtick run length -> start offsets of the runs of that length, in order (closers)
        self.runs: dict[int, array[int]] = {}
        if "`" in content:
            for run in _BACKTICKS.finditer(content):
                length = run.end() - run.start()
                found = self.runs.get(length)
                if found is None:
                    found = self.runs[length] = _offsets(len(content))
                found.append(run.start())
        self.parentheses, self.gave_up = (
            _matching_parentheses(content) if "](" in content else (_Destinations(""), False)
        )
        self.literal = _Builder(content)
        # No link can form without a destination, a reference label or (for [text] alone) a link
        # reference definition on the page: then the linked reading is the literal one (one view).
        links = definitions or "](" in content or "][" in content
        self.linked = _Builder(content) if links else self.literal
        self.code, self.hidden = Spans(len(content)), Spans(len(content))
        self.unsure, self.raw_html = Spans(len(content)), Spans(len(content))
        self.brackets = _Brackets(content, every_bracket)
        self.open_brackets: list[int] = []
        self.definitions = definitions
        #: cmark-gfm's memo of backtick runs (inlines.c ``scan_to_closing_backticks``): whether a scan
        #: went through to the end, and per run length the start of the last run a scan passed
        self.cmark_scanned = False
        self.cmark_memo: dict[int, int] = {}
        self.backtick_doubt = -1
        self.spaces = _PatternIndex(content, _DESTINATION_END)
        #: the end of the furthest link tail (destination and title, or reference label) found so far
        self.tail_end = -1
        self.link_doubt = -1

    def show(self, chars: str, origin: int) -> None:
        """Both views show ``chars`` for the construct at ``origin``."""
        self.literal.show(chars, origin)
        if self.linked is not self.literal:
            self.linked.show(chars, origin)

    def cmark_closes(self, at: int, length: int) -> bool:
        """Does cmark-gfm find a closer for the backtick run of ``length`` opening at ``at`` (one the
        spec finds a closer for)?

        cmark-gfm 0.29 (``scan_to_closing_backticks``) skips the search for runs
        longer than 80 backticks, and after one search has run to the end of
        the content without a closer it trusts a memo of where each run length
        was last seen, which later searches overwrite with earlier runs, so it
        may answer "none" where a closer follows (``x``y` a⏎` `⏎O⏎` `` leaves
        the backticks around O unpaired; the spec pairs them). Emulated here,
        walking the content as it does: each walk ends at the next run of the
        length (the closer), and scanning goes on after it, so the walks are
        disjoint but for the one that runs to the end: linear overall.
        """
        if length > 80:
            return False
        if self.cmark_scanned and self.cmark_memo.get(length, 0) <= at + length:
            return False
        content, memo = self.content, self.cmark_memo
        i = content.find("`", at + length)
        while i >= 0:
            run = _BACKTICKS.match(content, i)
            end = run.end() if run else i + 1
            if end - i <= 80:
                memo[end - i] = i
            if end - i == length:
                return True
            i = content.find("`", end)
        self.cmark_scanned = True
        return False

    def crossing(self, start: int, end: int) -> None:
        """A construct ``[start, end)`` found by the scan: when it starts inside a link's tail and runs
        past it (only the literal reading has it), the rest of the content is in doubt."""
        if start < self.tail_end < end and self.link_doubt < 0 and self.linked is not self.literal:
            self.link_doubt = start


def inline_view(
    content: str, tag_filter: TagFilter = TagFilter.NONE, definitions: bool = True, *, every_bracket: bool = False
) -> InlineView:
    """Read one block's inline ``content`` (its lines, without indentation, joined with ``\\n``).

    ``tag_filter``: whether the renderer applies GFM's tag filter (see
    :class:`TagFilter`). ``definitions``: whether the page may hold link
    reference definitions (``False`` when it has no ``]:``): without them, a
    destination or a label, no bracket is a link's and the linked view is
    the literal one. ``every_bracket``: ``brackets`` holds every bracket and
    destination span, unmerged (the answer check places each link; it reads
    at most :data:`~_conflict_gate.base.registry.MAX_ANSWER_BYTES`). Returns an
    :class:`InlineView`. Never raises; linear in the content, in time and
    memory.
    """
    scan = _Scan(content, tag_filter, definitions, every_bracket)
    literal, linked = scan.literal, scan.linked
    one_view = linked is literal
    n = len(content)
    i = 0  # content before this is in both views (or deliberately left out)
    while True:
        special = _SPECIAL.search(content, i)
        at = n if special is None else special.start()
        if i < at:
            literal.copy(i, at)
            if not one_view:
                linked.copy(i, at)
        if special is None:
            break
        i = _HANDLERS[content[at]](scan, at)
    line_starts = _offsets(n)
    line_starts.append(0)
    newline = content.find("\n")
    while newline != -1:
        line_starts.append(newline + 1)
        newline = content.find("\n", newline + 1)
    literal_view = literal.view()
    return InlineView(
        content,
        line_starts,
        literal_view,
        literal_view if one_view else linked.view(),
        scan.code,
        scan.hidden,
        scan.brackets.every_span() if every_bracket else scan.brackets.crossing_lines(),
        scan.gave_up,
        scan.unsure,
        scan.raw_html,
        scan.link_doubt,
        scan.backtick_doubt,
    )


def _escape(scan: _Scan, at: int) -> int:
    """2.4 Backslash escapes: an escaped ASCII punctuation character shows as itself; before a line
    ending the backslash is a hard line break (6.7), shown as nothing; otherwise it is text."""
    after = scan.content[at + 1 : at + 2]
    if after and after in ASCII_PUNCTUATION:  # the character itself, copied: it joins the text after it
        scan.literal.copy(at + 1, at + 2)
        if scan.linked is not scan.literal:
            scan.linked.copy(at + 1, at + 2)
        return at + 2
    if after != "\n":
        scan.show("\\", at)
    return at + 1


def _code_span(scan: _Scan, at: int) -> int:
    """6.1 Code spans: a backtick run up to the next run of the same length is code; a run without
    one shows as text. Where cmark-gfm leaves a run unpaired that the spec pairs
    (:meth:`_Scan.cmark_closes`), the rest is in doubt (``backtick_doubt``)."""
    content = scan.content
    run = _BACKTICKS.match(content, at)
    length = (run.end() if run else at + 1) - at
    closers = scan.runs.get(length, ())
    k = bisect.bisect_left(closers, at + length)
    if k < len(closers):
        end = closers[k] + length
        scan.code.add(at, end)
        scan.crossing(at, end)
        if not scan.cmark_closes(at, length) and scan.backtick_doubt < 0:
            scan.backtick_doubt = at
        return end
    scan.cmark_closes(at, length)  # no closer there either; but its search may change cmark-gfm's memo
    scan.show(content[at : at + length], at)
    return at + length


def _angle(scan: _Scan, at: int) -> int:
    """6.5 Autolinks show their address; 6.6 raw HTML is hidden, as far as a browser hides it too
    (where they end it differently the text between is unsure); a ``<`` that starts neither is text.
    GFM 6.11: a tag the tag filter writes as text shows as text when the filter applies, and is
    unsure when it may or may not."""
    content = scan.content
    autolink = _URI_AUTOLINK.match(content, at) or _EMAIL_AUTOLINK.match(content, at, at + 1024)
    if autolink:
        scan.literal.copy(at + 1, autolink.end() - 1)
        if scan.linked is not scan.literal:
            scan.linked.copy(at + 1, autolink.end() - 1)
        scan.crossing(at, autolink.end())
        return autolink.end()
    end = _raw_html(content, at, scan.indexes)
    if end <= 0:
        scan.show("<", at)
        return at + 1
    if scan.tag_filter is not TagFilter.NONE and filtered_tag(content, at):
        if scan.tag_filter is TagFilter.APPLIED:  # "&lt;" and the rest of the tag as text
            scan.show("<", at)
            return at + 1
        scan.crossing(at, end)
        scan.unsure.add(at, end)
        scan.raw_html.add(at, end)
        return end
    scan.crossing(at, end)
    scan.raw_html.add(at, end)
    if _readers_differ(content, at, end):
        scan.unsure.add(at, end)  # raw HTML to CommonMark 0.31.2, text to others
        return end
    # The browser reads the raw HTML again: where it ends the markup elsewhere,
    # the text in between is neither surely hidden nor surely shown.
    shown_from = browser_markup_end(content, at, scan.indexes)
    if 0 < shown_from < end:
        scan.hidden.add(at, shown_from)
        scan.unsure.add(shown_from, end)
    else:
        scan.hidden.add(at, end)
        if shown_from > end:
            scan.unsure.add(end, shown_from)
    return end


def _entity(scan: _Scan, at: int) -> int:
    """2.5 Entity and numeric character references show the character(s) they stand for; an unknown
    one is text."""
    reference = _REFERENCE.match(scan.content, at)
    decoded = _reference(reference) if reference else ""
    if reference and decoded:
        scan.show(decoded, at)
        return reference.end()
    scan.show("&", at)
    return at + 1


def _open_bracket(scan: _Scan, at: int) -> int:
    """6.3 A ``[`` shows in the literal view only (a link's brackets are hidden when linked); past
    :data:`MAX_NESTING` open brackets the gate gives up following them."""
    if len(scan.open_brackets) >= MAX_NESTING:
        scan.gave_up = True
        scan.open_brackets.clear()
    scan.open_brackets.append(at)
    scan.literal.copy(at, at + 1)
    return at + 1


def _close_bracket(scan: _Scan, at: int) -> int:
    """6.3 A ``]`` closes the last open bracket; when linked, a destination and title in
    parentheses or a reference label in brackets right after it is hidden too.

    The parentheses end where an inline link's destination and title end
    (:func:`_link_tail_end`: a title may hold a ``)``, an ``<...>``
    destination too), else at the matching ``)``. A renderer parses that
    tail when it reaches the ``]``, so a backtick or a ``<`` in it is part of
    the link if the link forms; the scan goes on inside it all the same (the
    literal reading), and :meth:`_Scan.crossing` puts the rest of the content
    in doubt when a construct starting there runs past the tail."""
    content = scan.content
    scan.literal.copy(at, at + 1)
    if scan.open_brackets:
        scan.brackets.add(scan.open_brackets.pop(), at + 1)
    after = content[at + 1 : at + 2]
    if after == "(":
        end = _link_tail_end(scan, at + 1)
        if end < 0:
            close = scan.parentheses.close_of(at + 1)
            end = close + 1 if close >= 0 else -1
        if end > 0:
            scan.brackets.add(at + 1, end)
            scan.linked.hidden_until = max(scan.linked.hidden_until, end)
            scan.tail_end = max(scan.tail_end, end)
    elif after == "[":
        close = scan.indexes.next("]", at + 2)
        if close > 0 and scan.indexes.next("[", at + 2) not in range(at + 2, close):
            scan.linked.hidden_until = max(scan.linked.hidden_until, close + 1)
            if scan.definitions:  # a full reference link can form only with a definition on the page
                scan.tail_end = max(scan.tail_end, close + 1)
    return at + 1


#: 6.3: the spaces, tabs and line endings a link's parts may have between them (the spec allows
#: one line ending; the block's content has no blank line, so more cannot come; cmark-gfm takes a
#: vertical tab or a form feed there too).
_LINK_SPACE: Final = re.compile(r"[ \t\n\v\f\r]*")
#: 6.3: a link destination between ``<`` and ``>``: no line ending, no unescaped ``<`` or ``>``.
#: (A backslash is taken with the character after it unless that is a line ending: an escaped
#: ``<`` or ``>`` is allowed, and any other character is allowed anyway; the two branches start
#: differently, so a failed match backtracks in linear time.)
_ANGLE_DESTINATION: Final = re.compile(r"<(?:[^<>\n\\]|\\[^\n])*>")
#: 6.3: a link title in double quotes, single quotes or parentheses (no unescaped ``(`` in those).
_LINK_TITLES: Final = {
    '"': re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL),
    "'": re.compile(r"'(?:[^'\\]|\\.)*'", re.DOTALL),
    "(": re.compile(r"\((?:[^()\\]|\\.)*\)", re.DOTALL),
}


def _link_tail_end(scan: _Scan, i: int) -> int:
    """6.3 (inline links): where ``(destination "title")`` opening at ``content[i] == "("`` ends
    (the offset after its ``)``), or -1 when it is not one.

    Reads the spec's rules, a little wider than cmark-gfm and markdown-it
    (control characters are taken in a destination, which cmark-gfm allows
    and markdown-it refuses; parentheses are not limited to 32 levels, and a
    destination ending at a space may leave one open, as cmark-gfm 0.29
    allows), so that where either forms a link it ends where they end it:
    optional spaces, tabs or a line ending; a destination in ``<...>``, or
    one that does not start with ``<`` and runs to a space, tab or line
    ending or to the ``)`` that matches the ``(``; then,
    after at least one space, tab or line ending, an optional title in
    ``"..."``, ``'...'`` or ``(...)`` (backslash escapes taken); optional
    spaces; ``)``. Never raises; linear over every tail of a content (each
    search stops at a character a later tail starts with).
    """
    content = scan.content
    j = m.end() if (m := _LINK_SPACE.match(content, i + 1)) else i + 1
    if content.startswith("<", j):
        angle = _ANGLE_DESTINATION.match(content, j)
        if not angle:
            return -1
        end = angle.end()
    else:
        close = scan.parentheses.close_of(i)
        space = scan.spaces.next(j)
        end = min(close, space) if close >= 0 and space >= 0 else max(close, space)
        if end < 0:
            return -1
    k = m.end() if (m := _LINK_SPACE.match(content, end)) else end
    if content.startswith(")", k):
        return k + 1
    title = _LINK_TITLES.get(content[k : k + 1])
    quoted = title.match(content, k) if title is not None and k > end else None
    if quoted is None:
        return -1
    k = m.end() if (m := _LINK_SPACE.match(content, quoted.end())) else quoted.end()
    return k + 1 if content.startswith(")", k) else -1


def _bang(scan: _Scan, at: int) -> int:
    """6.4 A ``!`` before ``[`` marks an image and renders as nothing when linked; otherwise text."""
    if scan.content[at + 1 : at + 2] == "[":
        scan.literal.copy(at, at + 1)
    else:
        scan.literal.copy(at, at + 1)
        if scan.linked is not scan.literal:
            scan.linked.copy(at, at + 1)
    return at + 1


#: The handler of each character :data:`_SPECIAL` finds.
_HANDLERS: Final[dict[str, Callable[[_Scan, int], int]]] = {
    "\\": _escape,
    "`": _code_span,
    "<": _angle,
    "&": _entity,
    "[": _open_bracket,
    "]": _close_bracket,
    "!": _bang,
}


# --------------------------------------------------------------------------
# HTML blocks

#: Elements whose content a reader sees as code.
_CODE_ELEMENTS: Final = frozenset({"pre", "code", "kbd", "samp", "tt", "listing"})
#: Elements whose content a reader never sees (unless a sanitizer unwraps them: then unsure).
_HIDDEN_ELEMENTS: Final = frozenset({"template"})
#: Elements GitHub's sanitizer drops, leaving their content as text (a ``<listing>``'s: no code there).
_UNWRAPPED: Final = frozenset({"template", "listing"})
#: HTML 13.2.6.2 (parsing elements that contain only text): raw text and RCDATA elements, whose
#: content is text up to their end tag; with the tag filter off, a browser hides the content of
#: these (15.3.1), shows ``<xmp>``'s and ``<plaintext>``'s as preformatted text (code) and
#: ``<textarea>``'s in a text box (visible).
RAW_TEXT_ELEMENTS: Final = frozenset(
    {"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea", "plaintext"}
)
_RAW_TEXT_HIDDEN: Final = frozenset({"script", "style", "iframe", "noembed", "noframes", "noscript", "title"})
_RAW_TEXT_CODE: Final = frozenset({"xmp", "plaintext"})


def raw_text_end(content: str, name: str, start: int, indexes: Indexes) -> int:
    """HTML 13.2.5.3-13.2.5.13: where the content of the raw text or RCDATA element ``name`` (opened
    before ``start``) ends: the start of its end tag (``</name`` in any case, then whitespace, ``/``
    or ``>``), or ``len(content)`` (``<plaintext>`` never ends). Linear over calls with increasing
    ``start`` (one index per name)."""
    if name == "plaintext":
        return len(content)
    i = start
    while True:
        i = indexes.next("</", i)
        if i < 0:
            return len(content)
        if content[i + 2 : i + 2 + len(name)].lower() == name and (
            content[i + 2 + len(name) : i + 3 + len(name)] in ("\t", "\n", "\f", "\r", " ", "/", ">")
        ):
            return i
        i += 2


def html_view(
    content: str, tag_filter: TagFilter = TagFilter.APPLIED, sanitized: bool = False
) -> tuple[View, Spans, Spans, Spans]:
    """Read an HTML block's ``content`` as a browser shows it: ``(visible text, code, hidden, unsure)``.

    Spans are :class:`Spans` of offsets into ``content``. Markup as a
    browser's tokenizer ends it (:func:`browser_markup_end`: tags, comments,
    doctypes, bogus comments) and ``<template>`` content are hidden; the
    content of ``<pre>``, ``<code>``, ``<kbd>``, ``<samp>``, ``<tt>``,
    ``<listing>`` is code; references are decoded as a browser decodes them
    (numeric ones without a semicolon too); the rest is visible. Markup that
    runs to the end hides the rest of the block. ``tag_filter``: with GFM's
    tag filter applied, a :data:`FILTERED_TAGS` tag is text (its ``<`` is
    written ``&lt;``); not applied, it opens its element, whose content
    (:data:`RAW_TEXT_ELEMENTS`, up to its end tag) is hidden, code or (a
    ``<textarea>``'s) visible; in doubt, the tag and that content are unsure.
    ``sanitized``: a sanitizer may unwrap ``<template>`` (GitHub's does), so
    its content is unsure rather than hidden.
    """
    indexes = Indexes(content)
    visible = _Builder(content)
    code: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    unsure: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []  # open code or hidden elements: (name, content start)
    n = len(content)
    copied = i = 0
    while True:
        special = _HTML_SPECIAL.search(content, i)
        at = n if special is None else special.start()
        if not stack:
            visible.copy(copied, at)
        if special is None:
            break
        copied = i = at + 1
        if content[at] == "&":
            reference = _BROWSER_REFERENCE.match(content, at)
            decoded = html.unescape(reference.group()) if reference else ""
            if reference and decoded != reference.group() and not stack:
                visible.show(decoded, at)
                copied = i = reference.end()
            elif not stack:
                visible.show("&", at)
            continue
        filtered = filtered_tag(content, at) if tag_filter is not TagFilter.NONE else None
        if filtered is not None and tag_filter is TagFilter.APPLIED:
            if not stack:
                visible.show("<", at)  # "&lt;": the tag's name and the rest show as text
            continue
        end = browser_markup_end(content, at, indexes)
        if end < 0:
            if not stack:
                visible.show("<", at)
            continue
        closing = content.startswith("</", at)
        name_match = _TAG_NAME.match(content, at + 2 if closing else at + 1)
        name = name_match.group().lower() if name_match else ""
        if not closing and name in RAW_TEXT_ELEMENTS and (filtered is not None or tag_filter is TagFilter.NONE):
            # the element's content is text up to its end tag, whatever it holds
            close = raw_text_end(content, name, end, indexes)
            after = browser_markup_end(content, close, indexes) if close < n else n
            after = n if after < 0 else after
            if filtered is not None:  # in doubt: text in one reading, the element in the other
                unsure.append((at, after))
            else:
                hidden.append((at, end))
                if close > end:
                    target = code if name in _RAW_TEXT_CODE else hidden if name in _RAW_TEXT_HIDDEN else None
                    if target is not None:
                        target.append((end, close))
                    elif not stack:
                        visible.copy(end, close)
                if close < n:
                    hidden.append((close, after))
            copied = i = after
            continue
        hidden.append((at, end))
        if name in _CODE_ELEMENTS or name in _HIDDEN_ELEMENTS:
            if not closing and len(stack) < MAX_NESTING:
                stack.append((name, end))
            elif closing and stack and stack[-1][0] == name:
                opened = stack.pop()[1]
                (unsure if sanitized and name in _UNWRAPPED else hidden if name in _HIDDEN_ELEMENTS else code).append(
                    (opened, at)
                )
        copied = i = end
    for name, opened in stack:  # unclosed code or hidden elements run to the end
        (unsure if sanitized and name in _UNWRAPPED else hidden if name in _HIDDEN_ELEMENTS else code).append(
            (opened, n)
        )
    return visible.view(), Spans.of(code, n), Spans.of(hidden, n), Spans.of(unsure, n)


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
