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

:func:`~_conflict_gate.reading.inline_html.html_view` reads an HTML block as a browser shows it: comments,
processing instructions, declarations, CDATA, tags and ``<template>``
content are hidden; ``<pre>``, ``<code>`` and similar elements are code;
everything else is text.

GFM's tag filter (GFM 0.29 section 6.11, "Disallowed Raw HTML": GitHub
writes the ``<`` of ``<script``, ``<style``, ``<textarea``, ``<title``,
``<iframe``, ``<noframes``, ``<noembed``, ``<xmp`` and ``<plaintext`` as
``&lt;``, in HTML blocks and inline raw HTML alike) is a parameter of both
views (:class:`~_conflict_gate.reading.inline_spans.TagFilter`): applied, those tags and what follows them show
as text; not applied, they are raw HTML (the browser hides or shows their
content as the HTML standard says); in doubt (a renderer that may or may not
apply it), the text they reach is *unsure*, and the gate refuses
directive-shaped text there.

Views are built from slices of the content with a short table of offset
segments (arrays of machine integers, never one Python object per
character or per construct), every closer is found through an index built
once per block, and spans are kept as arrays too: time is linear in the
content and memory a few bytes per byte of it. Brackets or parentheses
nested deeper than :data:`~_conflict_gate.reading.inline_spans.MAX_NESTING` are not followed (``gave_up``).
"""

from __future__ import annotations

import bisect
import html
import html.entities
import re
from array import array
from collections.abc import Callable
from typing import Final

from .inline_html import _raw_html, browser_markup_end
from .inline_spans import (
    ASCII_PUNCTUATION,
    MAX_NESTING,
    Indexes,
    InlineView,
    Spans,
    TagFilter,
    _Builder,
    _offsets,
    _PatternIndex,
    filtered_tag,
)

__all__ = ["inline_view"]
_NAMED_REFERENCES: Final = html.entities.html5
#: 2.5: an entity or numeric character reference.
_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: 6.5: a URI autolink and an email autolink.
_URI_AUTOLINK: Final = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>]*)>")
_EMAIL_AUTOLINK: Final = re.compile(
    r"<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?)*)>"
)
_BACKTICKS: Final = re.compile(r"`+")
#: Where inline scanning has something to decide; everything between is copied as is.
_SPECIAL: Final = re.compile(r"[\\`<&\[\]!]")


#: 6.3: what ends a link destination not in ``<...>`` (besides its closing parenthesis).
_DESTINATION_END: Final = re.compile(r"[ \t\n]")


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
