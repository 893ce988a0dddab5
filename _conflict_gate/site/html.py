"""What a reader sees of directive-shaped text on a site's built page, read with the standard library's
HTML parser (no I/O).

:func:`read_built_page` reads one built HTML page (what the site's generator wrote) and says where
it shows directive-shaped text: as a line of its own in a visible top-level paragraph of the page's
main content (:attr:`BuiltReading.lines`), anywhere else a reader may see it
(:attr:`BuiltReading.elsewhere`, each with its place of :data:`ELSEWHERE_PLACES`), or in code or a
comment (:attr:`BuiltReading.context`), which counts for nothing, as in the Markdown reading.

**The main content region** is found by the generator's conventions, in this order, the first
convention that matches any element deciding (:data:`REGIONS`): Material for MkDocs' ``<article
class="md-content__inner ...">``, then the ``readthedocs`` theme's ``<div itemprop="articleBody">``
(inside its ``role="main"``), Docusaurus' ``<div class="theme-doc-markdown markdown">`` (a doc page),
VitePress' ``<div class="vp-doc ...">`` (whose ``<div>`` without attributes that holds the page is
document structure, as a ``<section>`` is), then the element with ``role="main"`` (the ``mkdocs``
theme, and Sphinx's ``alabaster`` and ``furo``), and last the ``<main>`` element (Hugo, whose themes
are the site's own: a theme that puts the page in a further element, such as an ``<article>``,
shows it in a container, so its directives refuse). It must match exactly one element: none or several gives no region
(:attr:`BuiltReading.region` ``None``), and the caller refuses the page. Text outside it (navigation,
table of contents, header, footer, search) is the site's chrome, not read.

**A line of its own in a top-level paragraph**: the text of a ``<p>`` whose parent is the region
element or a ``<section>`` at the top level (document structure: Sphinx wraps each heading's part of
the page in one; it shows nothing of its own), cut into lines at its line breaks (a newline in its text, as the Markdown source's soft line
break, or ``<br>``), spaces, tabs and newlines around each line left out (a browser shows none). Such a
line is *plain* when no element opens or closes inside it; directive-shaped text on a plain line is a
shown line; on a line with markup (a link, emphasis, a code span beside it) it is ``markup``.

**Directive-shaped text** is what the grammar's ``shape`` finds after NFKC normalisation (so
fullwidth look-alikes match), unless it is a *mention* (no operation of the grammar after it and no
``=`` on its line, as the Markdown reader decides), and any at sign followed on its line by an
operation of the grammar and one of its keys with ``=`` (a claim under another at-word). A
bidirectional formatting character anywhere in the region makes every line doubtful: ``bidi``.

**Elsewhere** (refuses the source): ``heading``, ``list_item``, ``table``, ``quote`` (block quote),
``container`` (inside any other element of the region: an admonition, a tab, an open ``<details>``,
a ``<div>`` of raw HTML), ``collapsed`` (a closed ``<details>`` outside its ``<summary>``),
``hidden`` (``hidden``, ``style`` with ``display:none`` or ``visibility:hidden``, ``<template>``,
``<noscript>``, ``<script>``, ``<style>``), ``attribute`` (an attribute's value), ``markup``,
``region_text`` (text directly in the region, outside a paragraph), ``unclosed`` (a formatting element
such as ``<em>`` closed only by the end of its paragraph: a browser reopens it in what follows, so the
page is in doubt) and ``bidi``. **Context**
(counts for nothing): ``code`` (``<pre>``, ``<code>``, ``<kbd>``, ``<samp>``) and ``comment``.

Time and memory are linear in the page. The parser follows HTML's end tags by name (an end tag
closes the innermost open element of its name; an unmatched one is ignored), knows the void
elements, and closes an open ``<p>`` where a block element starts, as a browser does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from html.parser import HTMLParser
from types import MappingProxyType
from typing import Final, NamedTuple

from ..manifest.grammar import Grammar
from ..reading.html_tree import CLOSES_P_NO_QUIRKS as _CLOSES_P
from ..reading.html_tree import FORMATTING_ELEMENTS as _FORMATTING
from ..reading.html_tree import VOID_ELEMENTS as _VOID
from ..reading.inline_html import CODE_ELEMENTS

__all__ = ["CONTEXT_PLACES", "ELSEWHERE_PLACES", "REGIONS", "BuiltReading", "Shown", "read_built_page"]

#: Where directive-shaped text on a built page refuses its source (place -> meaning).
ELSEWHERE_PLACES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "heading": "in a heading",
        "list_item": "in a list item",
        "table": "in a table",
        "quote": "in a block quote",
        "container": "in a container (an admonition, a tab, an open details, an element of raw HTML)",
        "collapsed": "in a collapsed <details> (shown only when opened)",
        "hidden": "in hidden content (hidden, display:none, visibility:hidden, template, noscript, script, style)",
        "attribute": "in an attribute's value",
        "markup": "on a paragraph line with other markup (a link, emphasis, a code span)",
        "region_text": "in the main content but outside any paragraph",
        "unclosed": "after an inline formatting element left open, which a browser carries on into what follows",
        "bidi": "on a page with a bidirectional formatting character, which may reorder what a reader sees",
    }
)
#: Where directive-shaped text on a built page counts for nothing (place -> meaning).
CONTEXT_PLACES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "code": "in code (pre, code, kbd, samp): an example",
        "comment": "in an HTML comment: not shown",
    }
)

Attrs = list[tuple[str, "str | None"]]


def _material(tag: str, attrs: Attrs) -> bool:
    return tag == "article" and "md-content__inner" in (_attr(attrs, "class") or "").split()


def _article_body(tag: str, attrs: Attrs) -> bool:
    return _attr(attrs, "itemprop") == "articleBody"


def _role_main(tag: str, attrs: Attrs) -> bool:
    return _attr(attrs, "role") == "main"


def _docusaurus(tag: str, attrs: Attrs) -> bool:
    return "theme-doc-markdown" in (_attr(attrs, "class") or "").split()


def _vitepress(tag: str, attrs: Attrs) -> bool:
    return "vp-doc" in (_attr(attrs, "class") or "").split()


def _main(tag: str, attrs: Attrs) -> bool:
    return tag == "main"


#: The main content region's conventions, in the order they are tried: (name, does this start tag
#: open it?). The first that matches any element of the page decides; it must match exactly one.
REGIONS: Final[tuple[tuple[str, Callable[[str, Attrs], bool]], ...]] = (
    ("material: <article class=md-content__inner>", _material),
    ("readthedocs: itemprop=articleBody", _article_body),
    ("docusaurus: class=theme-doc-markdown", _docusaurus),
    ("vitepress: class=vp-doc", _vitepress),
    ("mkdocs, sphinx: role=main", _role_main),
    ("hugo and other themes: the <main> element", _main),
)
#: Text each convention's element holds in its tag: a page without it is not parsed for that convention.
_MARKERS: Final = ("md-content__inner", "articleBody", "theme-doc-markdown", "vp-doc", "main", "<main")
#: Conventions whose region holds the content in a <div> without attributes (VitePress'
#: ``<Content>``):
#: that <div> is document structure, as a <section> is.
_WRAPPED: Final = frozenset({"vitepress: class=vp-doc"})

_HIDING_TAGS: Final = frozenset({"template", "noscript", "script", "style"})
_PLACE_OF_TAG: Final = {
    **{f"h{n}": "heading" for n in range(1, 7)},
    "li": "list_item",
    "dt": "list_item",
    "dd": "list_item",
    "td": "table",
    "th": "table",
    "blockquote": "quote",
}
_HIDING_STYLE: Final = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.IGNORECASE
)
_BIDI: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACE: Final = " \t\n\r\f"


class Shown(NamedTuple):
    """Directive-shaped text on a built page: its ``place`` (a key of :data:`ELSEWHERE_PLACES` or
    :data:`CONTEXT_PLACES`) and ``text``, the line of shown text that holds it (stripped, cut to 200
    code points)."""

    place: str
    text: str


class BuiltReading(NamedTuple):
    """What :func:`read_built_page` found. ``region``: the convention of :data:`REGIONS` that found the
    main content, or ``None`` (none found, or several elements: ``region_problem`` says which).
    ``lines``: the directive-shaped lines shown as lines of their own in top-level paragraphs, in page
    order, as shown (not parsed). ``elsewhere`` and ``context``: every other directive-shaped text, in
    page order."""

    region: str | None
    lines: tuple[str, ...]
    elsewhere: tuple[Shown, ...]
    context: tuple[Shown, ...]
    region_problem: str = ""


def _attr(attrs: Attrs, name: str) -> str | None:
    for key, value in attrs:
        if key == name:
            return value if value is not None else ""
    return None


def shaped(text: str, grammar: Grammar) -> bool:
    """Does ``text`` hold directive-shaped text a reader may take for a directive: the namespace's shape
    that is not a mention on its line, or an at sign followed on its line by an operation and a key
    with ``=`` (see the module docstring)? NFKC first, so look-alikes count."""
    loose = unicodedata.normalize("NFKC", text)
    if "@" not in loose:
        return False
    for line in loose.split("\n"):
        at = line.find("@")
        if at == -1:
            continue
        operations = [match.start() for match in grammar.operation_text.finditer(line)]
        for match in grammar.shape.finditer(line):
            if "=" in line or any(start > match.start() for start in operations):
                return True
        if any(start > at for start in operations) and grammar.stated_key.search(line.encode("utf-8", "replace")):
            return True
    return False


class _Frame(NamedTuple):
    tag: str
    hidden: bool
    collapsed: bool  # inside a closed details, outside its summary
    code: bool
    place: str | None  # the nearest ancestor's place, inside the region
    in_region: bool
    region: bool  # this element is the region
    top: bool = False  # its children are at the top level: the region, or a <section> at the top level


class _Reader(HTMLParser):
    def __init__(self, grammar: Grammar, opens: Callable[[str, Attrs], bool], wrapped: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.grammar = grammar
        self.opens = opens
        self.wrapped = wrapped
        self.stack: list[_Frame] = []
        self.regions = 0
        self.lines: list[str] = []
        self.elsewhere: list[Shown] = []
        self.context: list[Shown] = []
        self.bidi = False
        self.unclosed = False
        # the open top-level paragraph: its depth in the stack, and its lines as pieces (text, kind)
        self.paragraph: int | None = None
        self.pieces: list[list[tuple[str, str]]] = []

    # ------------------------------------------------------------ elements
    def handle_starttag(self, tag: str, attrs: Attrs) -> None:
        if tag in _CLOSES_P and self.stack and any(frame.tag == "p" for frame in self.stack):
            self._close("p")
        parent = self.stack[-1] if self.stack else None
        in_region = parent is not None and (parent.in_region or parent.region)
        region = not in_region and self.opens(tag, attrs)
        if region:
            self.regions += 1
        if in_region:
            for _name, value in attrs:
                if value and shaped(value, self.grammar):
                    self._shown("attribute", value)
        if tag == "br":
            if self.paragraph is not None:
                self.pieces.append([])
            return
        if tag in _VOID:
            return
        hidden = (
            (parent is not None and parent.hidden)
            or tag in _HIDING_TAGS
            or _attr(attrs, "hidden") is not None
            or bool(_HIDING_STYLE.search(_attr(attrs, "style") or ""))
        )
        collapsed = parent is not None and parent.collapsed
        if parent is not None and parent.tag == "details" and tag == "summary":  # shown as the details is
            collapsed = len(self.stack) > 1 and self.stack[-2].collapsed
        if tag == "details" and _attr(attrs, "open") is None:
            collapsed = True
        code = (parent is not None and parent.code) or tag in CODE_ELEMENTS
        place = parent.place if parent is not None and parent.in_region else None
        top = region
        if in_region:
            if tag == "p" and parent is not None and parent.top and self.paragraph is None:
                self.paragraph = len(self.stack)
                self.pieces = [[]]
            elif tag == "section" and parent is not None and parent.top and self.paragraph is None:
                top = True  # document structure (Sphinx wraps each heading's part in one), not a container
            elif self.wrapped and tag == "div" and not attrs and parent is not None and parent.region:
                top = True  # the region's content wrapper (VitePress' <Content>): document structure
            elif self.paragraph is None:
                place = _PLACE_OF_TAG.get(tag, place or "container")
        self.stack.append(_Frame(tag, hidden, collapsed, code, place, in_region, region, top))

    def handle_startendtag(self, tag: str, attrs: Attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack and self.stack[-1].tag == tag:
            self._pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":  # </br> is read as <br> (HTML 13.2.6.4.7)
            self.handle_starttag("br", [])
            return
        self._close(tag)

    def _close(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                while len(self.stack) > index:
                    frame = self.stack[-1]
                    if frame.tag in _FORMATTING and len(self.stack) - 1 > index and frame.in_region:
                        self.unclosed = True  # closed by an outer end tag: a browser reopens it later
                    self._pop()
                return

    def _pop(self) -> None:
        self.stack.pop()
        if self.paragraph is not None and len(self.stack) == self.paragraph:
            self._end_paragraph()

    # ------------------------------------------------------------ text
    def handle_data(self, data: str) -> None:
        if not self.stack:
            return
        frame = self.stack[-1]
        if not (frame.in_region or frame.region):
            return
        if _BIDI.search(data):
            self.bidi = True
        if frame.hidden:
            if shaped(data, self.grammar):
                self._shown("hidden", data)
            return
        if frame.collapsed:
            if shaped(data, self.grammar):
                self._shown("collapsed", data)
            return
        if self.paragraph is not None:
            kind = "code" if frame.code else "plain" if len(self.stack) == self.paragraph + 1 else "markup"
            lines = data.split("\n")
            self.pieces[-1].append((lines[0], kind))
            for line in lines[1:]:
                self.pieces.append([(line, kind)])
            return
        if not shaped(data, self.grammar):
            return
        if frame.code:
            self.context.append(Shown("code", _cut(data)))
        else:
            self._shown("region_text" if frame.top else frame.place or "container", data)

    def handle_comment(self, data: str) -> None:
        if self.stack and (self.stack[-1].in_region or self.stack[-1].region) and shaped(data, self.grammar):
            self.context.append(Shown("comment", _cut(data)))

    def _end_paragraph(self) -> None:
        self.paragraph = None
        for pieces in self.pieces:
            code = "".join(text for text, kind in pieces if kind == "code")
            if code and shaped(code, self.grammar):
                self.context.append(Shown("code", _cut(code)))
            shown = "".join(text for text, kind in pieces if kind != "code")
            if not shaped(shown, self.grammar):
                continue
            if all(kind == "plain" for _, kind in pieces):
                self.lines.append(shown.strip(_SPACE))
            else:
                self.elsewhere.append(Shown("markup", _cut("".join(text for text, _ in pieces))))
        self.pieces = []

    def _shown(self, place: str, text: str) -> None:
        self.elsewhere.append(Shown(place, _cut(text)))

    def finish(self) -> None:
        self.close()
        while self.stack:
            self._pop()


def _cut(text: str) -> str:
    line = next(
        (part.strip(_SPACE) for part in text.split("\n") if "@" in unicodedata.normalize("NFKC", part)),
        text.strip(_SPACE),
    )
    return line[:200]


def read_built_page(page: str, grammar: Grammar) -> BuiltReading:
    """Read one built HTML page (its decoded text) for the directive-shaped text it shows (see the
    module docstring). Never raises on any text; linear in the page."""
    for (name, opens), marker in zip(REGIONS, _MARKERS):
        if marker not in page:
            continue
        reader = _Reader(grammar, opens, name in _WRAPPED)
        reader.feed(page)
        reader.finish()
        if reader.regions == 0:
            continue
        if reader.regions > 1:
            return BuiltReading(None, (), (), (), f"{reader.regions} elements match {name}")
        elsewhere = list(reader.elsewhere)
        if reader.bidi and (reader.lines or elsewhere or reader.context):
            elsewhere.append(Shown("bidi", ""))
        if reader.unclosed and reader.lines:
            elsewhere.append(Shown("unclosed", reader.lines[0]))
        return BuiltReading(name, tuple(reader.lines), tuple(elsewhere), tuple(reader.context))
    return BuiltReading(None, (), (), (), "no element matches " + " or ".join(name for name, _ in REGIONS))
