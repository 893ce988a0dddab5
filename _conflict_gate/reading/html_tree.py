"""What raw HTML written so far leaves open around a later line, as a browser builds the page (no I/O).

A renderer passes raw HTML through to the browser as written: HTML blocks
(CommonMark 4.6) whole, inline raw HTML (6.6) tag by tag, between the tags
it writes itself. The browser builds one tree from all of it (HTML Living
Standard 13.2.6, tree construction), so an element opened in raw HTML and not
closed stays open around whatever the renderer writes next: a paragraph after
``<div><pre>`` and a blank line is preformatted text inside a ``<div>``, one
after ``<blockquote>`` is quoted, one after ``x <b>`` is bold (13.2.4.3:
formatting elements are reconstructed in every later block), and everything
after ``<template>``, ``<textarea>`` or an unclosed comment is hidden or
shown as text.

:class:`OpenElements` follows that tree only as far as the gate needs to be
sound, and conservatively elsewhere: start tags open their element (void
elements never do, 13.1.2; a self-closing flag closes only in SVG and
MathML, and on a component's tag, :data:`_COMPONENT_NAME`); an end tag closes its element and what was opened after it, as the
"in body" insertion mode does (a special element's end tag only when it is in
scope, 13.2.4.2; a formatting element's as the adoption agency does when no
special element was opened after it, 13.2.6.4.7, and not at all otherwise;
any other end tag only up to a special element); the renderer's own end tag
of a paragraph, heading or table cell closes what was opened in it ("close a
p element"), formatting elements staying in the list of active formatting
elements (a cell's marker clears them); raw text and RCDATA elements
(``<script>``, ``<title>``, ``<textarea>`` ...; 13.2.6.2) take everything up
to their end tag as text; and markup a browser's tokenizer has not ended
(13.2.5: a comment, a tag whose quoted value runs on) takes what follows.
Implied end tags and other start-tag closings (``<p>`` after ``<p>``,
``<li>`` after ``<li>``) are not followed: the elements stay open, which can
only add doubt. Elements the renderer itself opens (lists, quotes) are not
followed either: what raw HTML opens inside them stays open after them.

One :class:`OpenElements` follows one reading: GFM's tag filter applied
(GitHub writes ``<title>``, ``<script>`` ... as text, so they open nothing)
or not (they are raw text elements). A renderer whose tag filter is in doubt
follows both (:func:`readings`).

:func:`~_conflict_gate.reading.html_attributes.shown_attribute` finds the attributes whose text a browser draws (an image's alt text, a
field's value, an iframe's ``srcdoc``, a ``data:`` URL an ``<object>`` shows): a page rule of every renderer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from .html_elements import (
    _BUTTON_SCOPE,
    _CLOSES_P,
    _FOREIGN,
    _FORMATTING,
    _HEADINGS,
    _HTML_ELEMENTS,
    _LIST_ITEM_SCOPE,
    _MARKERS,
    _SCOPE,
    _SPECIAL,
    _TABLE_PARTS,
    _TABLE_SCOPE,
    _VOID,
    NOT_A_LINE,
)
from .inline_html import RAW_TEXT_ELEMENTS, browser_markup_end, raw_text_end
from .inline_spans import Indexes, Spans, filtered_tag

__all__ = [
    "BLOCK",
    "CELL",
    "CLOSES_P_NO_QUIRKS",
    "FORMATTING_ELEMENTS",
    "HEADING",
    "MAX_OPEN",
    "RCDATA_SHOWN",
    "STRUCTURE",
    "TEXT",
    "VOID_ELEMENTS",
    "OpenElements",
    "Opened",
    "RawHtml",
    "readings",
]
_HREF_ATTRIBUTE: Final = re.compile(r"[\t\n\f\r \"'/]href(?:[\t\n\f\r =/>]|\Z)", re.IGNORECASE | re.ASCII)
#: Raw text and RCDATA elements whose text a browser shows: a ``<textarea>``'s, in a text box.
RCDATA_SHOWN: Final = frozenset({"textarea"})
#: At most this many raw elements are followed at once; past it everything after is in doubt.
MAX_OPEN: Final = 1000
#: Attributes that may hide the element's text or reorder it: ``hidden``; ``style`` and ``class`` (an
#: inline or site style sheet: ``display:none``, a white colour, a zero font size); ``dir`` (15.3.8:
#: right to left). A browser without a sanitizer applies them all.
_MAY_HIDE_ATTRIBUTE: Final = re.compile(
    r"[\t\n\f\r \"'/](?:hidden|style|class|dir)(?:[\t\n\f\r =/>]|\Z)", re.IGNORECASE | re.ASCII
)
#: A tag name written with an uppercase letter and no hyphen (``<Badge />``): a component of VitePress (Vue)
#: or MDX. Written self-closing, Vue and MDX close it (issue 29); a browser reading it as HTML opens an
#: unknown element (13.2.6.4.7 "any other start tag": HTMLUnknownElement, which a name without a hyphen
#: cannot make a custom element with a shadow tree), which has no default style: what follows shows as it
#: would outside it, so the self-closing tag opens nothing here unless an attribute may hide (``hidden``,
#: ``style``, ``class``, ``dir``). A hyphenated name (``<my-card />``) may be a custom element whose shadow
#: tree does not show its children: it opens its element.
_COMPONENT_NAME: Final = re.compile(r"^[A-Za-z0-9]*[A-Z][A-Za-z0-9]*$", re.ASCII)
#: Elements that may hide or reorder their text whatever their attributes: ``<font>`` (a colour or
#: size), ``<bdo>`` and ``<bdi>`` (15.3.8: bidirectional overrides and isolates).
_MAY_HIDE_ELEMENTS: Final = frozenset({"font", "bdo", "bdi"})
_TAG: Final = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)", re.ASCII)

#: Kinds of doubt an open element causes.
#: The line may not be a top-level paragraph's own line as a browser builds it (inside an element, a
#: struck-out, hidden or code element, a link), but text hidden or shown as code stays so.
STRUCTURE: Final = "structure"
#: What follows is text of a raw text or RCDATA element, or of markup not ended: shown or hidden
#: whatever the renderer made of it (code and comments included).
TEXT: Final = "text"

#: The renderer's own block around a piece of inline raw HTML: a paragraph or list item's text (BLOCK),
#: a heading (HEADING) or a table cell (CELL); ``None`` for an HTML block, which has none.
BLOCK: Final = "block"
HEADING: Final = "heading"
CELL: Final = "cell"


class Opened(NamedTuple):
    """Why a line may not be what it seems: ``line`` (0-based) where the raw HTML opened, ``why``, and
    ``kind``: :data:`STRUCTURE` or :data:`TEXT`."""

    line: int
    why: str
    kind: str


class _Element(NamedTuple):
    name: str
    line: int
    passes: bool
    markers: int  # markers open below it (for formatting elements)


_SENTINEL_BLOCK: Final = "#block"
_SENTINEL_CELL: Final = "#cell"
_SENTINEL_HEADING: Final = "#heading"
#: The HTML standard's element sets above, for every reader that builds a tree as a browser does:
#: this module (page fragments, quirks mode) and the built-site reader (:mod:`~_conflict_gate.site.html`:
#: whole documents with a doctype, no-quirks mode, where ``<table>`` closes a ``<p>`` too).
VOID_ELEMENTS: Final = _VOID
FORMATTING_ELEMENTS: Final = _FORMATTING
CLOSES_P_NO_QUIRKS: Final = _CLOSES_P | {"table"}


class OpenElements:
    """One reading's stack of elements raw HTML opened, fed block by block in page order.

    For each block, :meth:`begin` (``around``: :data:`BLOCK`, :data:`CELL` or
    ``None`` for an HTML block), then :meth:`feed` for each piece of raw HTML
    in order (its text, and the line each offset of it is on), with
    :meth:`at` between pieces to ask about a line, then :meth:`end`.
    :meth:`before` answers for the block as a whole. Linear in the raw
    HTML fed; holds at most :data:`MAX_OPEN` elements.
    """

    def __init__(self, tag_filter: bool) -> None:
        self.tag_filter = tag_filter
        self.stack: list[_Element] = []
        self.formatting: list[_Element] = []  # popped, still in the list of active formatting elements
        self.text: Opened | None = None  # a raw text element or markup that takes what follows
        self.raw_text: str | None = None  # the raw text element's name, while in one
        self.comment = False  # the text is a comment's that is not ended yet
        self.gave_up: Opened | None = None
        self.block_start = 0  # stack index where the current block's own elements begin
        self.broken: Opened | None = None  # the renderer's block was ended early by raw HTML
        self.markers = 0
        self.outer: Opened | None = None  # what was open around the current block when it began
        self.containers: tuple[tuple[str, int], ...] = ()  # the renderer's block quotes and list items open
        self.swallowed: Opened | None = None  # a tag not ended in its block takes the next block's start tag

    # ---- questions

    def before(self) -> Opened | None:
        """What is open around a block that begins now (before :meth:`begin`): text-taking markup
        first, else the element opened first."""
        if self.text is not None:
            return self.text
        raw = [e for e in self.stack if not e.name.startswith("#")][:1]
        found = [self.gave_up, self.swallowed] + [
            Opened(e.line, _why(e.name), STRUCTURE) for e in raw + self.formatting[:1]
        ]
        present = [opened for opened in found if opened is not None]
        return min(present, key=lambda o: o.line) if present else None

    def at(self) -> Opened | None:
        """What is open, after the pieces fed so far, around text of the current block: everything
        from before it, and what the block itself opened that a line of it may not sit in."""
        opened = self.outer
        if opened is not None:
            return opened
        if self.text is not None:
            return self.text
        if self.broken is not None:
            return self.broken
        for element in self.stack[self.block_start :]:
            if not element.passes and not element.name.startswith("#"):
                return Opened(element.line, _why(element.name), STRUCTURE)
        return self.gave_up

    # ---- feeding

    def begin(self, around: str | None, line: int) -> None:
        """A block begins at 0-based ``line`` (after :meth:`enter`); ``around``: the renderer's element
        around its text."""
        self.outer = self.before()
        self.swallowed = None
        if around is not None:
            self._close_open_p()  # the renderer's block start tag closes a raw <p> (13.2.6.4.7)
        self.block_start = len(self.stack)
        self.broken = None
        if around is not None and self.text is None:
            self._push(
                _Element(
                    {CELL: _SENTINEL_CELL, HEADING: _SENTINEL_HEADING}.get(around, _SENTINEL_BLOCK),
                    line,
                    True,
                    self.markers,
                )
            )
            if around == CELL:
                self.markers += 1

    def end(self) -> None:
        """The renderer's end tag of the current block (``</p>``, ``</h1>``, ``</td>``)."""
        if self.text is not None:
            return  # the end tag is text too
        for index in range(len(self.stack) - 1, self.block_start - 1, -1):
            name = self.stack[index].name
            if name.startswith("#"):
                if not any(e.name in _BUTTON_SCOPE for e in self.stack[index + 1 :]):
                    self._pop_to(index)
                return
        self.block_start = len(self.stack)

    def feed(self, text: str, line_of: Callable[[int], int]) -> None:
        """Read one piece of raw HTML as a browser's tokenizer and tree builder do (``line_of``: the
        0-based line of an offset of ``text``)."""
        if self.gave_up is not None:
            return
        indexes = Indexes(text)
        n = len(text)
        i = 0
        while i < n:
            if self.comment:
                ends = [
                    end + length
                    for end, length in ((indexes.next("-->", i), 3), (indexes.next("--!>", i), 4))
                    if end >= 0
                ]
                if not ends:
                    return
                self.comment, self.text = False, None
                i = min(ends)
                continue
            if self.raw_text is not None:
                close = raw_text_end(text, self.raw_text, i, indexes)
                if close >= n:
                    return
                self.raw_text, self.text = None, None
                i = close
            at = indexes.next("<", i)
            if at < 0:
                return
            if self.tag_filter and filtered_tag(text, at):
                i = at + 1  # "&lt;": text
                continue
            end = browser_markup_end(text, at, indexes, run_on=n + 1)
            if end < 0:
                i = at + 1
                continue
            if end > n:  # not ended in this piece
                end = n
                self._run_on(text, at, line_of(at))
                if self.text is not None:
                    return
            self._token(text, at, end, line_of(at))
            if self.gave_up is not None:  # what follows is in doubt: reading on would only cost time
                return
            i = end

    # ---- the tree

    def _run_on(self, text: str, at: int, line: int) -> None:
        """Markup a browser's tokenizer has not ended at the end of the piece takes what the renderer
        writes next: a comment up to a later ``-->``; a tag with a quoted value running on, everything
        (the renderer's own quotes cannot be told); a tag otherwise ends at the renderer's next ``>``."""
        if text.startswith("<!--", at):
            self.comment = True
            self.text = Opened(
                line, "an HTML comment opened here is not closed; a browser hides what follows until it ends", TEXT
            )
            return
        body = text[at:]
        if body.count('"') % 2 or body.count("'") % 2:
            self.gave_up = self.text = Opened(
                line, "an HTML tag opened here runs on in a quoted value; a browser hides what follows", TEXT
            )
        elif not text.startswith(("<!", "<?"), at):
            # the tag ends at the ">" of the renderer's next tag, which it takes: the next block's text is
            # no paragraph's
            self.swallowed = Opened(
                line,
                "an HTML tag opened here is not ended in its block; a browser reads "
                "the tag the renderer writes next into it",
                STRUCTURE,
            )

    def _token(self, text: str, at: int, end: int, line: int) -> None:
        tag = _TAG.match(text, at, end)
        if tag is None:
            return  # a comment, a doctype, a processing instruction or bogus comment: nothing opens
        name = tag[2].lower()
        if tag[1]:
            self._end_tag(name, line)
            return
        if name in _VOID:
            return
        self_closing = text[end - 2 : end] == "/>"
        if self_closing and (name in _FOREIGN or any(e.name in _FOREIGN for e in self.stack)):
            return
        if (
            self_closing
            and _COMPONENT_NAME.match(tag[2])
            and name not in _HTML_ELEMENTS
            and not _MAY_HIDE_ATTRIBUTE.search(" " + text[tag.end() : end])
        ):
            return  # a component (<Badge ... />): closed by Vue and MDX; a browser opens an unknown element,
            #        which shows what follows as it would show it outside (see _COMPONENT_NAME)
        if name in RAW_TEXT_ELEMENTS:  # (with the tag filter applied, only <noscript> gets here)
            shown = "text a browser shows in a text box" if name in RCDATA_SHOWN else "text it does not show"
            self.raw_text = name
            self.text = Opened(line, f"a <{name}> opened here takes everything up to its end tag as {shown}", TEXT)
            return
        if name in _CLOSES_P:
            self._start_closes_p(name, line)
        attributes = text[tag.end() : end]
        spaced = " " + attributes
        passes = (
            name not in NOT_A_LINE
            and name not in _MAY_HIDE_ELEMENTS
            and not _MAY_HIDE_ATTRIBUTE.search(spaced)
            and not (name == "a" and _HREF_ATTRIBUTE.search(spaced))
        )
        self._push(_Element(name, line, passes, self.markers))
        if name in _MARKERS:
            self.markers += 1

    def _end_tag(self, name: str, line: int) -> None:
        stack = self.stack
        if name == "br":
            return
        index = next((k for k in range(len(stack) - 1, -1, -1) if stack[k].name == name), -1)
        if name in _FORMATTING:  # the adoption agency algorithm, as far as it closes
            if index < 0:
                in_list = next(
                    (k for k in range(len(self.formatting) - 1, -1, -1) if self.formatting[k].name == name), -1
                )
                if in_list >= 0:  # reconstructed around the text here, closed again
                    del self.formatting[in_list]
                return
            if all(e.name not in _SPECIAL and not e.name.startswith("#") for e in stack[index + 1 :]):
                self._pop_to(index, closing=index)
            return  # a special element opened after it: the adoption agency keeps it around (conservative)
        if index < 0:
            if name == "p":
                self._end_p_of_renderer(line)
            return
        above = stack[index + 1 :]
        if name in _SPECIAL or name in _TABLE_PARTS or name in _HEADINGS:
            scope = (
                _TABLE_SCOPE
                if name in _TABLE_PARTS
                else _LIST_ITEM_SCOPE
                if name == "li"
                else _BUTTON_SCOPE
                if name == "p"
                else _SCOPE
            )
            if any(e.name in scope or e.name == _SENTINEL_CELL for e in above):
                return
            if any(e.name.startswith("#") for e in above):
                self.broken = Opened(
                    line,
                    f"a </{name}> here ends the renderer's block early; the rest of its text is not a paragraph's",
                    STRUCTURE,
                )
            self._pop_to(index)
            return
        if any(e.name in _SPECIAL or e.name.startswith("#") for e in above):
            return  # an "any other end tag" stops at a special element
        self._pop_to(index)

    def _end_p_of_renderer(self, line: int) -> None:
        """A ``</p>`` with no raw ``<p>`` open ends the renderer's paragraph, if one is open around."""
        for index in range(len(self.stack) - 1, -1, -1):
            name = self.stack[index].name
            if name in _BUTTON_SCOPE or (name.startswith("#") and name != _SENTINEL_BLOCK):
                return
            if name == _SENTINEL_BLOCK:
                self.broken = Opened(
                    line, "a </p> here ends the paragraph early; the rest of its text is not a paragraph's", STRUCTURE
                )
                self._pop_to(index)
                return

    def enter(self, containers: tuple[tuple[str, int], ...]) -> None:
        """The next block sits in ``containers``, the block quotes and list items around it, outermost
        first, as ``(kind, first line)`` (:attr:`Leaf.containers <_conflict_gate.reading.blocks.Leaf.containers>`):
        the renderer's end tags of the containers that ended since the last block (``</li>``,
        ``</blockquote>``: 13.2.6.4.7, they close what was opened inside them, when in scope), and its
        start tags of the new ones."""
        if self.text is not None or containers == self.containers:
            return
        kept = 0
        while kept < min(len(containers), len(self.containers)) and containers[kept] == self.containers[kept]:
            kept += 1
        for kind, first in reversed(self.containers[kept:]):
            name = "#" + kind
            index = next(
                (
                    k
                    for k in range(len(self.stack) - 1, -1, -1)
                    if self.stack[k].name == name and self.stack[k].line == first
                ),
                -1,
            )
            scope = _LIST_ITEM_SCOPE if kind == "list_item" else _SCOPE
            if index >= 0 and not any(e.name in scope or e.name == _SENTINEL_CELL for e in self.stack[index + 1 :]):
                self._pop_to(index)
        for kind, first in containers[kept:]:
            self._push(_Element("#" + kind, first, True, self.markers))
        self.containers = containers

    def _start_closes_p(self, name: str, line: int) -> None:
        """13.2.6.4.7: a block-level start tag closes a ``<p>`` in button scope first, the renderer's
        paragraph too, so the element sits beside it and outlives its ``</p>``."""
        for index in range(len(self.stack) - 1, -1, -1):
            element = self.stack[index].name
            if element in _BUTTON_SCOPE or element in (_SENTINEL_CELL, _SENTINEL_HEADING):
                return
            if element == "p" or element == _SENTINEL_BLOCK:
                if element == _SENTINEL_BLOCK:
                    self.broken = Opened(
                        line,
                        f"a <{name}> here ends the paragraph early; the rest of its text is not a paragraph's",
                        STRUCTURE,
                    )
                self._pop_to(index)
                return

    def _close_open_p(self) -> None:
        """A block start tag closes a ``<p>`` in button scope, raw or the renderer's own left open."""
        for index in range(len(self.stack) - 1, -1, -1):
            name = self.stack[index].name
            if name in _BUTTON_SCOPE or name == _SENTINEL_CELL:
                return
            if name in ("p", _SENTINEL_BLOCK):
                self._pop_to(index)
                return

    def _push(self, element: _Element) -> None:
        if len(self.stack) >= MAX_OPEN:
            self.gave_up = Opened(
                element.line,
                f"raw HTML opens more than {MAX_OPEN} elements here; the gate does not follow them",
                STRUCTURE,
            )
            return
        self.stack.append(element)

    def _pop_to(self, index: int, closing: int = -1) -> None:
        """Pop ``stack[index:]``; the formatting elements among them stay in the list of active
        formatting elements (not the one at ``closing``, which an end tag closes), unless a marker
        element among them (a table cell) clears them."""
        popped = self.stack[index:]
        del self.stack[index:]
        self.block_start = min(self.block_start, len(self.stack))
        for element in popped:
            if element.name in _MARKERS or element.name == _SENTINEL_CELL:
                self.markers -= 1
                self.formatting = [e for e in self.formatting if e.markers <= self.markers]
        for position, element in enumerate(popped, index):
            if (
                element.name in _FORMATTING
                and position != closing
                and element.markers <= self.markers
                and len(self.formatting) < MAX_OPEN
            ):
                self.formatting.append(element)


def _why(name: str) -> str:
    if name.startswith("#"):
        return (
            "raw HTML in the block that starts here keeps it open; a browser shows what follows inside it, "
            "not as a top-level paragraph"
        )
    return (
        f"a <{name}> opened here in raw HTML is still open; a browser shows what follows inside it, not as "
        "a top-level paragraph"
    )


def readings(tag_filter_readings: Sequence[bool]) -> tuple[OpenElements, ...]:
    """One :class:`OpenElements` per reading of the tag filter (see :class:`~_conflict_gate.reading.inline_spans.TagFilter`)."""
    return tuple(OpenElements(applied) for applied in tag_filter_readings)


class _Shifted:
    """``line_of`` for a piece that starts at ``start`` of its block's text."""

    __slots__ = ("line_of", "start")

    def __init__(self, line_of: Callable[[int], int], start: int) -> None:
        self.line_of, self.start = line_of, start

    def __call__(self, offset: int) -> int:
        return self.line_of(self.start + offset)


class RawHtml:
    """A page's raw HTML, block by block, fed to one :class:`OpenElements` per tag-filter reading: what
    the reader asks (:meth:`before` a block, :meth:`at` a line of one). A question's answer is the
    first reading's that finds something open (text-taking markup first)."""

    def __init__(self, tag_filter_readings: Sequence[bool]) -> None:
        self.trackers = readings(tag_filter_readings)
        self.text = ""
        self.pieces = Spans()
        self.next_piece = 0
        self.line_of: Callable[[int], int] = lambda offset: 0

    def _first(self, found: Sequence[Opened | None]) -> Opened | None:
        present = [opened for opened in found if opened is not None]
        return min(present, key=lambda o: (o.kind != TEXT, o.line)) if present else None

    def before(self) -> Opened | None:
        """What is open around a block that begins now."""
        return self._first([tracker.before() for tracker in self.trackers])

    def enter(self, containers: tuple[tuple[str, int], ...]) -> None:
        """The next block sits in ``containers`` (:meth:`OpenElements.enter`); before :meth:`before`."""
        for tracker in self.trackers:
            tracker.enter(containers)

    def begin(self, around: str | None, line: int, text: str, pieces: Spans, line_of: Callable[[int], int]) -> None:
        """A block with raw HTML ``pieces`` (spans of ``text``, in order) begins at 0-based ``line``."""
        for tracker in self.trackers:
            tracker.begin(around, line)
        self.text, self.pieces, self.next_piece, self.line_of = text, pieces, 0, line_of

    def _feed_until(self, offset: int) -> None:
        pieces, text = self.pieces, self.text
        starts, ends = pieces.starts, pieces.ends
        while self.next_piece < len(starts) and starts[self.next_piece] < offset:
            start, end = starts[self.next_piece], ends[self.next_piece]
            self.next_piece += 1
            line_of = _Shifted(self.line_of, start)
            for tracker in self.trackers:
                tracker.feed(text[start:end], line_of)

    def at(self, offset: int) -> Opened | None:
        """What is open around text of the current block at ``offset`` (of its ``text``)."""
        self._feed_until(offset)
        return self._first([tracker.at() for tracker in self.trackers])

    def end(self) -> None:
        """The current block ends (its raw HTML read to the end)."""
        self._feed_until(len(self.text) + 1)
        for tracker in self.trackers:
            tracker.end()
        self.text, self.pieces = "", Spans()

    def give_up(self, line: int, why: str) -> None:
        """From 0-based ``line`` on, the gate does not follow the raw HTML: everything after is in doubt."""
        for tracker in self.trackers:
            if tracker.gave_up is None:
                tracker.gave_up = Opened(line, why, STRUCTURE)
