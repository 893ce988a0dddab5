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
one reading and not in the other is ambiguous, and the gate refuses it.

:func:`html_view` reads an HTML block as a browser shows it: comments,
processing instructions, declarations, CDATA, tags and ``<template>``
content are hidden; ``<pre>``, ``<code>`` and similar elements are code;
everything else is text. GFM's disallowed-raw-HTML extension shows the
content of ``<script>``, ``<style>``, ``<textarea>`` and the like as text, so
it counts as text.

Every scan is linear in the content: closers are found through indexes
built once per block, never by rescanning.
"""

from __future__ import annotations

import bisect
import html.entities
import re
import unicodedata
from typing import Final, NamedTuple, Sequence

__all__ = ["InlineView", "View", "html_view", "inline_view", "invisible", "normalize_view"]

_ASCII_PUNCTUATION: Final = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NAMED_REFERENCES: Final = html.entities.html5
#: 2.5: an entity or numeric character reference.
_REFERENCE: Final = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: 6.5: a URI autolink and an email autolink, without their angle brackets.
_URI_AUTOLINK: Final = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>]*)>")
_EMAIL_AUTOLINK: Final = re.compile(
    r"<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?)*)>")
#: 6.6: an open tag's name and attribute names (values are found through quote indexes).
_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
_ATTRIBUTE_NAME: Final = re.compile(r"[A-Za-z_:][A-Za-z0-9_.:\-]*")
_UNQUOTED_VALUE: Final = re.compile(r"[^ \t\n\"'=<>`]+")
_SPACE: Final = re.compile(r"[ \t]*\n?[ \t]*")
#: Characters a reader does not see: format controls, combining marks, and letters that render as nothing.
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def invisible(ch: str) -> bool:
    """True for a character that renders as nothing (Cf, Mn, Me, Hangul fillers, the braille blank)."""
    return ch in _BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Mn", "Me", "Cc", "Co", "Cn")


class View(NamedTuple):
    """Visible text with, for each of its characters, the offset in the block content it comes from."""

    text: str
    origin: tuple[int, ...]


class InlineView(NamedTuple):
    """One block's inline content as a reader sees it.

    ``content`` is the block's lines joined with ``\\n``; ``line_starts`` the
    offset in ``content`` of each line. ``literal`` and ``linked`` are the
    two readings (see the module docstring). ``code`` and ``hidden`` are
    ``[start, end)`` spans of ``content`` inside code spans and raw HTML;
    ``brackets`` are spans from a ``[`` to its ``]`` and link destinations,
    which may make text on one line part of a link that spans lines.
    """

    content: str
    line_starts: tuple[int, ...]
    literal: View
    linked: View
    code: tuple[tuple[int, int], ...]
    hidden: tuple[tuple[int, int], ...]
    brackets: tuple[tuple[int, int], ...]


class _Index:
    """Positions of one substring in a text, for "next occurrence at or after p" in O(log n)."""

    __slots__ = ("positions",)

    def __init__(self, text: str, needle: str) -> None:
        positions = []
        i = text.find(needle)
        while i != -1:
            positions.append(i)
            i = text.find(needle, i + 1)
        self.positions = positions

    def next(self, pos: int) -> int:
        i = bisect.bisect_left(self.positions, pos)
        return self.positions[i] if i < len(self.positions) else -1


class _Indexes:
    """Lazily built :class:`_Index` per needle for one content string."""

    def __init__(self, content: str) -> None:
        self.content = content
        self.built: dict[str, _Index] = {}

    def next(self, needle: str, pos: int) -> int:
        index = self.built.get(needle)
        if index is None:
            index = self.built[needle] = _Index(self.content, needle)
        return index.next(pos)


def _backtick_runs(content: str) -> dict[int, list[int]]:
    """Start offsets of every maximal run of backticks, by run length (6.1 closers)."""
    runs: dict[int, list[int]] = {}
    for match in re.finditer(r"`+", content):
        runs.setdefault(len(match.group()), []).append(match.start())
    return runs


def _raw_html(content: str, i: int, indexes: _Indexes) -> int:
    """6.6: the end of an HTML tag (open, closing, comment, processing instruction,
    declaration, CDATA) starting at ``content[i] == "<"``, or -1."""
    n = len(content)
    nxt = content[i + 1:i + 2]
    if nxt == "!":
        if content.startswith("<!--", i):
            if content.startswith(">", i + 4) or content.startswith("->", i + 4):
                return i + (5 if content[i + 4] == ">" else 6)
            end = indexes.next("-->", i + 4)
            return -1 if end < 0 else end + 3
        if content.startswith("<![CDATA[", i):
            end = indexes.next("]]>", i + 9)
            return -1 if end < 0 else end + 3
        if i + 2 < n and content[i + 2].isascii() and content[i + 2].isalpha():
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
        j = _SPACE.match(content, name.end()).end()  # type: ignore[union-attr]
        return j + 1 if content.startswith(">", j) else -1
    name = _TAG_NAME.match(content, i + 1)
    if not name:
        return -1
    j = name.end()
    while True:
        space = _SPACE.match(content, j).end()  # type: ignore[union-attr]
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
        after = _SPACE.match(content, j).end()  # type: ignore[union-attr]
        if content.startswith("=", after):
            value_at = _SPACE.match(content, after + 1).end()  # type: ignore[union-attr]
            quote = content[value_at:value_at + 1]
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


def _reference(match: re.Match[str]) -> str:
    """2.5: the character(s) an entity or numeric reference stands for, or ``""`` for an unknown name."""
    body = match.group()[1:-1]
    if body.startswith("#"):
        number = int(body[2:], 16) if body[1:2] in ("x", "X") else int(body[1:])
        if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
            return "\ufffd"
        return chr(number)
    return _NAMED_REFERENCES.get(body + ";", "")


def _matching_parentheses(content: str) -> dict[int, int]:
    """``(`` offset -> its ``)`` (backslash escapes skipped), for link destinations; one pass."""
    matches: dict[int, int] = {}
    stack: list[int] = []
    i = 0
    n = len(content)
    while i < n:
        ch = content[i]
        if ch == "\\" and i + 1 < n:
            i += 2
            continue
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            matches[stack.pop()] = i
        i += 1
    return matches


def inline_view(text: str, lines: Sequence[tuple[int, int, int]]) -> InlineView:
    """Read the inline content made of ``lines`` (``(line, start, end)`` offsets into ``text``).

    Returns an :class:`InlineView`. Never raises; linear in the content.
    """
    content = "\n".join(text[start:end] for _, start, end in lines)
    line_starts = []
    offset = 0
    for _, start, end in lines:
        line_starts.append(offset)
        offset += end - start + 1
    n = len(content)
    indexes = _Indexes(content)
    runs = _backtick_runs(content) if "`" in content else {}
    parentheses = _matching_parentheses(content) if "](" in content else {}
    literal: list[str] = []
    literal_origin: list[int] = []
    linked: list[str] = []
    linked_origin: list[int] = []
    code: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    brackets: list[tuple[int, int]] = []
    open_brackets: list[int] = []
    linked_hidden_until = -1  # the linked reading hides a destination or label up to here

    def show(chars: str, origin: int) -> None:
        for ch in chars:
            literal.append(ch)
            literal_origin.append(origin)
            if origin >= linked_hidden_until:
                linked.append(ch)
                linked_origin.append(origin)

    i = 0
    while i < n:
        ch = content[i]
        if ch == "\\":
            if i + 1 < n and content[i + 1] in _ASCII_PUNCTUATION:
                show(content[i + 1], i + 1)
                i += 2
                continue
            if i + 1 < n and content[i + 1] == "\n":  # 6.7: a hard line break
                i += 1
                continue
            show(ch, i)
        elif ch == "`":
            length = _run_length(content, i)
            closers = runs.get(length, ())
            k = bisect.bisect_left(closers, i + length)
            if k < len(closers):
                end = closers[k] + length
                code.append((i, end))
                i = end
                continue
            show(content[i:i + length], i)
            i += length
            continue
        elif ch == "<":
            autolink = _URI_AUTOLINK.match(content, i) or _EMAIL_AUTOLINK.match(content, i)
            if autolink:
                for j, shown in enumerate(autolink.group(1)):
                    show(shown, i + 1 + j)
                i = autolink.end()
                continue
            end = _raw_html(content, i, indexes)
            if end > 0:
                hidden.append((i, end))
                i = end
                continue
            show(ch, i)
        elif ch == "&":
            reference = _REFERENCE.match(content, i)
            decoded = _reference(reference) if reference else ""
            if decoded:
                show(decoded, i)
                i = reference.end()  # type: ignore[union-attr]
                continue
            show(ch, i)
        elif ch == "[":
            open_brackets.append(i)
            literal.append(ch)
            literal_origin.append(i)
        elif ch == "]":
            literal.append(ch)
            literal_origin.append(i)
            if open_brackets:
                brackets.append((open_brackets.pop(), i + 1))
            after = content[i + 1:i + 2]
            if after == "(" and i + 1 in parentheses:
                close = parentheses[i + 1]
                brackets.append((i + 1, close + 1))
                linked_hidden_until = max(linked_hidden_until, close + 1)
            elif after == "[":
                close = content.find("]", i + 2)
                if close > 0 and "[" not in content[i + 2:close]:
                    linked_hidden_until = max(linked_hidden_until, close + 1)
        elif ch == "!" and content[i + 1:i + 2] == "[":
            literal.append(ch)
            literal_origin.append(i)
        else:
            show(ch, i)
        i += 1
    return InlineView(content, tuple(line_starts), View("".join(literal), tuple(literal_origin)),
                      View("".join(linked), tuple(linked_origin)), tuple(code), tuple(hidden),
                      tuple(brackets))


def _run_length(content: str, i: int) -> int:
    j = i
    while j < len(content) and content[j] == "`":
        j += 1
    return j - i


# --------------------------------------------------------------------------
# HTML blocks

#: Elements whose content a reader sees as code.
_CODE_ELEMENTS: Final = frozenset({"pre", "code", "kbd", "samp", "tt", "listing"})
#: Elements whose content a reader never sees.
_HIDDEN_ELEMENTS: Final = frozenset({"template"})


def html_view(content: str) -> tuple[View, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Read an HTML block's ``content`` as a browser shows it: ``(visible text, code spans, hidden spans)``.

    Spans are ``[start, end)`` offsets into ``content``. Tags, comments,
    processing instructions, declarations, CDATA and ``<template>`` content
    are hidden; the content of ``<pre>``, ``<code>``, ``<kbd>``, ``<samp>``,
    ``<tt>``, ``<listing>`` is code; references are decoded; the rest,
    ``<script>`` and ``<style>`` content included (GFM shows it as text), is
    visible. An unclosed comment or tag hides the rest of the block.
    """
    indexes = _Indexes(content)
    visible: list[str] = []
    origin: list[int] = []
    code: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []  # open code or hidden elements: (name, content start)
    i, n = 0, len(content)
    while i < n:
        ch = content[i]
        if ch == "<":
            end = _raw_html(content, i, indexes)
            if end < 0 and (content.startswith("<!", i) or content.startswith("<?", i)
                            or _TAG_NAME.match(content, i + 1 + (content[i + 1:i + 2] == "/"))):
                end = n  # an unclosed comment or tag: the browser shows none of the rest
            if end > 0:
                hidden.append((i, end))
                closing = content.startswith("</", i)
                name_match = _TAG_NAME.match(content, i + 2 if closing else i + 1)
                name = name_match.group().lower() if name_match else ""
                if name in _CODE_ELEMENTS or name in _HIDDEN_ELEMENTS:
                    if not closing:
                        stack.append((name, end))
                    elif stack and stack[-1][0] == name:
                        opened = stack.pop()[1]
                        (hidden if name in _HIDDEN_ELEMENTS else code).append((opened, i))
                i = end
                continue
        if stack:
            i += 1
            continue
        if ch == "&":
            reference = _REFERENCE.match(content, i)
            decoded = _reference(reference) if reference else ""
            if decoded:
                visible.extend(decoded)
                origin.extend([i] * len(decoded))
                i = reference.end()  # type: ignore[union-attr]
                continue
        visible.append(ch)
        origin.append(i)
        i += 1
    for name, opened in stack:  # unclosed code or hidden elements run to the end
        (hidden if name in _HIDDEN_ELEMENTS else code).append((opened, n))
    return View("".join(visible), tuple(origin)), tuple(sorted(code)), tuple(sorted(hidden))


def normalize_view(view: View) -> View:
    """The view as the directive shape is matched: NFKC per character, invisible characters dropped.

    NFKC makes the look-alike at signs U+FF20 and U+FE6B and fullwidth letters
    their ASCII forms; ``origin`` follows each resulting character.
    """
    if view.text.isascii() and view.text.isprintable():
        return view
    text: list[str] = []
    origin: list[int] = []
    for ch, at in zip(view.text, view.origin):
        if ch == "\n" or ch == "\t":
            text.append(ch)
            origin.append(at)
            continue
        if not ch.isascii() or not ch.isprintable():
            if invisible(ch):
                continue
            ch = unicodedata.normalize("NFKC", ch)
        text.extend(ch)
        origin.extend([at] * len(ch))
    return View("".join(text), tuple(origin))
