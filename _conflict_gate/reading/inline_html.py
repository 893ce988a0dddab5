"""Raw HTML in inline content, as CommonMark and as a browser read it (no I/O).

Where an open tag, closing tag, comment, processing instruction, declaration or CDATA section ends
(CommonMark 0.31.2 section 6.6, raw HTML), where a browser ends the same markup (WHATWG HTML 13.2.5,
tokenization), raw text elements, and :func:`html_view`: what a browser shows of an HTML fragment."""

from __future__ import annotations

import html
import html.entities
import re
from typing import Final

from .inline_spans import MAX_NESTING, Indexes, Spans, TagFilter, View, _Builder, filtered_tag

__all__ = ["CODE_ELEMENTS", "browser_markup_end", "html_tag_end", "html_view"]
#: 6.6: an open tag's name and attribute names (values are found through quote indexes).
_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
_ATTRIBUTE_NAME: Final = re.compile(r"[A-Za-z_:][A-Za-z0-9_.:\-]*")
_UNQUOTED_VALUE: Final = re.compile(r"[^ \t\n\"'=<>`]+")
_SPACE: Final = re.compile(r"[ \t]*\n?[ \t]*")
_HTML_SPECIAL: Final = re.compile(r"[<&]")


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


# --------------------------------------------------------------------------
# HTML blocks

#: Elements whose content a reader sees as code (a monospace face: HTML 15.3.4 ``pre``, ``listing``, ``xmp``'s
#: kin; 15.3.3 ``code``, ``kbd``, ``samp``, ``tt``): one list for the page reader, the built-page reader
#: (site/html.py) and the answer reader (answer/inline.py).
CODE_ELEMENTS: Final = frozenset({"pre", "code", "kbd", "samp", "tt", "listing"})
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
        if name in CODE_ELEMENTS or name in _HIDDEN_ELEMENTS:
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
