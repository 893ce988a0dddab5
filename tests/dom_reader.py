"""What a browser shows a reader of a rendered Markdown page: the rendered HTML read as a DOM.

This module is the renderer-agnostic half of the HTML differential tests
(``tests/test_reader_differential_github.py``; the site adapters of
:mod:`tests.site_renderers`). A renderer is any function ``render(text) ->
html`` (cmark-gfm, Python-Markdown, docutils, MDX); :func:`read` turns a
document into the same :class:`tests.reader_oracle.ReaderView` the
markdown-it oracle returns, judged as a browser shows the rendered page. It
reuses :mod:`tests.reader_oracle`'s definitions (the directive pattern, the
grammar, :func:`~tests.reader_oracle.is_directive_shaped`,
:func:`~tests.reader_oracle.stated_claims`). It needs JustHTML (PyPI
``justhtml``, pure Python, no dependencies); the project itself never imports
it.

The DOM
-------
The HTML is parsed as the HTML Living Standard's tree construction does
(13.2.6), as a fragment in a ``<div>`` (the page's content element), with
scripting enabled, as a reader's browser has it: an unclosed ``<pre>``,
``<blockquote>``, ``<a>`` or ``<template>`` stays open over the blocks after
it, a ``<title>`` or ``<textarea>`` holds everything up to its end tag as
text, ``<script>``, ``<style>``, ``<xmp>``, ``<iframe>``, ``<noembed>``,
``<noframes>`` and ``<noscript>`` everything up to theirs as raw text,
``<plaintext>`` the rest of the page, and a ``<template>``'s content is a
separate fragment. (html5lib 1.1, the older pure-Python parser, does not
implement ``<template>``: it puts the content in the tree and lets a ``<p>``
in it close the paragraph around it; nor does it parse ``<noscript>`` with
scripting enabled unless told.) :mod:`tests.dom_browser_check` compares the
trees with Chromium's (``innerHTML`` of a ``<div>``): on 6,024 rendered pages
(generated, spec examples, issue 15's) JustHTML 3.16.0 builds the same tree
as Chromium 156 on every one, html5lib 1.1 differs on 14. Each text node is
one of:

hidden
    inside a comment (also a ``<?...>`` or ``<!...>`` bogus comment), a
    ``<template>``'s content, or an element the standard's user-agent style
    sheet does not display (15.3.1 "Hidden elements": ``head``, ``script``,
    ``style``, ``template``, ``title``, ``noembed``, ``noframes``, ``rp``,
    ``datalist``, ``area``, ``base``, ``basefont``, ``link``, ``meta``,
    ``param``; ``noscript`` with scripting enabled), an element with a
    ``hidden`` attribute, or a ``<dialog>`` without ``open``. A ``<title>``
    inside the page's body is in that list: the browser does not show it.
    Attribute values (``href``, ``title`` ...) are hidden too: a tooltip is
    not the page's text. Those a browser draws (hostile finding 7) are
    visible, as text of their own (``img[alt]``), never a paragraph's line:
    an ``<img>``'s ``alt`` (an image without ``src``, or one that does not
    load, is drawn as its alt text), an ``<input>``'s ``value`` and
    ``placeholder`` (not ``type="hidden"``), a ``<textarea>``'s
    ``placeholder``, an ``<option>``'s or ``<optgroup>``'s ``label``, an
    ``<iframe>``'s ``srcdoc`` (its text, read as HTML), and a ``data:`` URL
    an ``<object>`` (``data``), ``<embed>`` or ``<iframe>`` (``src``) shows.
code
    otherwise, inside ``pre``, ``code``, ``kbd``, ``samp``, ``tt``,
    ``listing``, ``plaintext`` or ``xmp``: the reader sees it as code (the
    project's "context", a near-miss).
visible
    everything else, ``<textarea>`` content included: a browser shows it in
    a text box, read as visible text (``...>textarea``) but never as a line
    of a paragraph. ``<details>`` bodies count as visible (a click away), and
    so does text styled away by CSS: no style sheet beyond the standard's
    hidden elements is applied, which can only find more, never less.

The view
--------
``directive_lines``: ``(line, directive)``, 1-based source line
    A line counts when it is a line of a **top-level paragraph** (a ``p``
    whose parent is the fragment's root, or a section element of a renderer
    that wraps headings' sections in one, ``read(..., sections=)``, or an
    unknown element no style sheet gives a box (``<badge>``, issue 29): not in a
    list, quote, table, heading, ``div`` or any element a browser kept
    open), the paragraph not hidden. Its lines are split at ``\\n`` in the text (as soft breaks
    render) and at ``<br>``. The line must be made of text only: one run of
    one text node, no element starting and no comment on it (an element's
    end shows nothing), and every element around that text passes: an inline
    element opened on an earlier line and closed on a later one or by the
    paragraph's end may enclose it (``*foo⏎D⏎bar*``, as markdown-it's oracle
    lets emphasis pass; ``<a/><b2/>⏎D``), but not a link (``a`` with
    ``href``), a struck-out element (``del``, ``s``, ``strike``), code, a
    hidden element or a block. Without the ASCII whitespace a browser
    collapses at its ends, it must equal a directive; **and** the raw source
    line must be exactly that directive, optionally followed by spaces and
    tabs (a reader sees nothing of those, and issue 15 accepts them), so any
    markup on the line itself fails. Rendered HTML carries no source
    positions, so the reader probes (as :mod:`tests.reader_oracle` does):
    every source line that is such a directive is swapped for a sentinel
    directive that differs only in its value (letters only, the same
    trailing whitespace, the line endings kept), the document is rendered
    and parsed again, and a line counts when its sentinel shows up as such a
    paragraph line at the same place (paragraph and line number).
``other_shaped``: ``(place, text)``
    Every other piece of visible text that is directive-shaped
    (:func:`~tests.reader_oracle.is_directive_shaped`) or states a claim
    under any at-word (:func:`~tests.reader_oracle.stated_claims`:
    ``@quil create_copy existing_path=overwrite``). A piece is the visible
    text of one block up to a line break (``\\n`` or ``<br>``), a block
    boundary, a replaced element (``img``, ``input``...) or code; inline
    elements, comments and hidden inline elements are transparent
    (``@<b>quill</b>`` and ``@qu<!-- -->ill`` read as ``@quill``), which can
    only find more, never less. ``place`` is the element path from the
    content root to the text node the piece starts in (``"ul>li>p"``,
    ``"blockquote>p"``, ``"p>a"``, ``"table>tbody>tr>td"``), ``"(root)"`` for
    text directly in the root (an HTML block's loose text, or a tag GitHub's
    tag filter turned into text).
``near_misses``: ``(place, text)``
    Directive-shaped (or claim-stating) text in hidden nodes and code, and
    in attribute values (``place`` ends in ``[name]``).

Known limits:

* The visible line is the project's unit, a source line as the renderer
  keeps it (split at ``\\n`` and ``<br>``); a browser joins soft-broken lines
  with a space, so two adjacent directive lines show on one visual line.
* No CSS beyond the standard's hidden elements: a renderer's theme may hide
  or show more (``class="hidden"``, a collapsed tab); a closed ``<details>``
  counts as visible.
* The fragment is parsed in a ``<div>``: a stray ``</div>`` or ``</article>``
  in the page cannot close the site's own containers, as it might on a real
  page; the HTML after the content (the site's footer) is not there to be
  swallowed by an unclosed ``<plaintext>`` or ``<title>``, which would hide
  it.
* Pieces are found per text node order; a directive split across a hidden
  element and visible text is found (transparent), one split across blocks
  is not (a reader does not see it as one either).
"""

from __future__ import annotations

import base64
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from justhtml import JustHTML
from justhtml.dom import Template, Text

from tests.reader_oracle import DIRECTIVE, NAMESPACE, ReaderView, is_directive_shaped, stated_claims

__all__ = [
    "CODE_ELEMENTS",
    "HIDDEN_ELEMENTS",
    "PIECE_BREAKS",
    "STRUCK",
    "Render",
    "fragment",
    "paragraph_lines",
    "read",
]

#: A renderer: Markdown text in, the HTML of the page's content out.
Render = Callable[[str], str]

#: Elements the HTML standard's user-agent style sheet does not display (15.3.1), plus ``noscript``
#: (displayed nowhere with scripting enabled) and ``head``.
HIDDEN_ELEMENTS: Final = frozenset(
    {
        "area",
        "base",
        "basefont",
        "datalist",
        "head",
        "link",
        "meta",
        "noembed",
        "noframes",
        "noscript",
        "param",
        "rp",
        "script",
        "style",
        "template",
        "title",
    }
)
#: Elements that strike their text out: a reader reads it as withdrawn, never as a directive line.
STRUCK: Final = frozenset({"del", "s", "strike"})
#: Elements whose text a reader sees as code.
CODE_ELEMENTS: Final = frozenset({"pre", "code", "kbd", "samp", "tt", "listing", "plaintext", "xmp"})
#: Elements that end a piece of visible text: block boxes, table parts, replaced and form elements.
PIECE_BREAKS: Final = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "details",
        "dialog",
        "dd",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "optgroup",
        "option",
        "p",
        "search",
        "section",
        "summary",
        "table",
        "caption",
        "colgroup",
        "col",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "td",
        "th",
        "ul",
        "br",
        "img",
        "input",
        "select",
        "textarea",
        "button",
        "iframe",
        "video",
        "audio",
        "canvas",
        "object",
        "embed",
        "svg",
        "math",
        "meter",
        "progress",
        "frameset",
        "frame",
        "picture",
    }
)
#: A source line that may be a directive line: the directive, then only spaces and tabs.
_CANDIDATE: Final = re.compile(rf"({DIRECTIVE.pattern})[ \t]*")
#: ASCII whitespace a browser collapses at the ends of a line (HTML "ASCII whitespace" less the line feed).
_COLLAPSED: Final = " \t\f\r"
_LINE_BREAK: Final = re.compile(r"(\r\n?|\n)")


def fragment(html: str) -> object:
    """The DOM of ``html`` parsed as a fragment in a ``<div>``, scripting enabled, nothing sanitized."""
    return JustHTML(html, fragment=True, sanitize=False, scripting_enabled=True).root


def _children(node: object) -> list[object]:
    return list(getattr(node, "children", None) or ())


def _hides(node: object) -> bool:
    """Whether an element is not displayed (its whole subtree hidden)."""
    name = getattr(node, "name", "")
    attrs = getattr(node, "attrs", None) or {}
    return name in HIDDEN_ELEMENTS or "hidden" in attrs or (name == "dialog" and "open" not in attrs)


def _is_element(node: object) -> bool:
    name = getattr(node, "name", "#")
    return not name.startswith("#") and name != "!doctype"


@dataclass
class _ParagraphLine:
    """One line of a top-level paragraph: its text when made of the paragraph's own text only."""

    text: str | None
    #: (text node, start, end) of the line when it is text only.
    span: tuple[object, int, int] | None = None


def _passes(node: object) -> bool:
    """Whether text inside this element can still be a paragraph's own line: inline, shown, not code,
    not a link (``a`` with ``href``), not struck out (:data:`STRUCK`)."""
    name = getattr(node, "name", "")
    attrs = getattr(node, "attrs", None) or {}
    return (
        name not in PIECE_BREAKS
        and name not in CODE_ELEMENTS
        and name not in STRUCK
        and not _hides(node)
        and not (name == "a" and "href" in attrs)
    )


def paragraph_lines(paragraph: object) -> list[_ParagraphLine]:
    """The lines of a paragraph, split at ``\\n`` in its text and at ``<br>``.

    A line's text is None unless the line is one run of one text node, with
    no element starting and no comment on the line, and every element around
    that text node passes (:func:`_passes`). An element's end does not count:
    it shows nothing, and whatever markup was on the line itself already
    fails the raw-line test (the source line must be the directive).
    """
    lines: list[_ParagraphLine] = []
    current: list[tuple[object, int, int]] = []
    mixed = False

    def end_line() -> None:
        nonlocal current, mixed
        if not mixed and len(current) == 1:
            node, start, end = current[0]
            lines.append(_ParagraphLine(str(getattr(node, "data", ""))[start:end], current[0]))
        else:
            lines.append(_ParagraphLine(None if mixed or current else ""))
        current, mixed = [], False

    def visit(node: object, passing: bool) -> None:
        nonlocal mixed
        for child in _children(node):
            if isinstance(child, Text):
                data = child.data or ""
                start = 0
                for match in re.finditer("\n", data):
                    current.append((child, start, match.start()))
                    mixed = mixed or not passing
                    end_line()
                    start = match.end()
                if start < len(data):
                    current.append((child, start, len(data)))
                    mixed = mixed or not passing
            elif getattr(child, "name", "") == "br":
                end_line()
            else:
                mixed = True  # a start tag, a comment: something other than the text on this line
                if _is_element(child):
                    visit(child, passing and _passes(child))

    visit(paragraph, True)
    end_line()
    return lines


def _directive_of(line: _ParagraphLine) -> str | None:
    """The directive a text-only paragraph line shows, else None."""
    if line.text is None:
        return None
    shown = line.text.strip(_COLLAPSED)
    return shown if DIRECTIVE.fullmatch(shown) else None


#: The HTML Living Standard's element names (4, index of elements; 16.2, 16.3: obsolete ones a browser
#: still builds) and SVG's and MathML's roots: any other name without a hyphen is an HTMLUnknownElement.
HTML_ELEMENTS: Final = frozenset(
    [
        "a",
        "abbr",
        "acronym",
        "address",
        "applet",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "base",
        "basefont",
        "bdi",
        "bdo",
        "bgsound",
        "big",
        "blink",
        "blockquote",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "center",
        "cite",
        "code",
        "col",
        "colgroup",
        "data",
        "datalist",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "font",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "image",
        "img",
        "input",
        "ins",
        "isindex",
        "kbd",
        "keygen",
        "label",
        "legend",
        "li",
        "link",
        "listing",
        "main",
        "map",
        "mark",
        "marquee",
        "math",
        "menu",
        "menuitem",
        "meta",
        "meter",
        "multicol",
        "nav",
        "nextid",
        "nobr",
        "noembed",
        "noframes",
        "noscript",
        "object",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "param",
        "picture",
        "plaintext",
        "pre",
        "progress",
        "q",
        "rb",
        "rp",
        "rt",
        "rtc",
        "ruby",
        "s",
        "samp",
        "script",
        "search",
        "section",
        "select",
        "slot",
        "small",
        "source",
        "spacer",
        "span",
        "strike",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "svg",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "track",
        "tt",
        "u",
        "ul",
        "var",
        "video",
        "wbr",
        "xmp",
    ]
)
#: Attributes that may hide or restyle an element's content (a site's style sheet may select a class).
_MAY_RESTYLE: Final = frozenset({"hidden", "style", "class", "dir"})


def _unknown_unstyled(node: object) -> bool:
    """An HTMLUnknownElement (13.2.6.4.7 "any other start tag": a name neither HTML's nor hyphenated, so
    no custom element with a shadow tree) with no attribute that may hide or restyle it: no style sheet
    gives it a box of its own, so its paragraphs show as the page's own. A browser opens one for a
    VitePress or MDX component a renderer passes through raw (``<Badge />``, which Vue itself closes)."""
    name = getattr(node, "name", "")
    attrs = getattr(node, "attrs", None) or {}
    return (
        bool(name)
        and name[0].isalpha()
        and "-" not in name
        and ":" not in name
        and name not in HTML_ELEMENTS
        and not _MAY_RESTYLE.intersection(attrs)
    )


def _top_level_paragraphs(root: object, sections: frozenset[str]) -> list[object]:
    """The shown ``p`` children of ``root``, and of the section elements (``sections``) and unknown
    unstyled elements (:func:`_unknown_unstyled`) in it, in order."""
    found = []
    for child in _children(root):
        name = getattr(child, "name", "")
        if name == "p" and not _hides(child):
            found.append(child)
        elif (name in sections or _unknown_unstyled(child)) and not _hides(child):
            found += _top_level_paragraphs(child, sections)
    return found


def _sentinel(number: int) -> str:
    """A value token unique to ``number``, letters only: ``zqa``, ``zqb``, ... ``zqba``."""
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters = chr(ord("a") + digit) + letters
        if not number:
            return "zq" + letters


def _shown_directives(root: object, sections: frozenset[str]) -> dict[tuple[int, int], tuple[str, _ParagraphLine]]:
    """``(paragraph, line) -> (directive, line)`` for every text-only top-level paragraph line showing one."""
    shown = {}
    for number, paragraph in enumerate(_top_level_paragraphs(root, sections)):
        for index, line in enumerate(paragraph_lines(paragraph)):
            directive = _directive_of(line)
            if directive is not None:
                shown[number, index] = (directive, line)
    return shown


def _confirmed(
    render: Render, text: str, shown: dict[tuple[int, int], tuple[str, _ParagraphLine]], sections: frozenset[str]
) -> dict[tuple[int, int], int]:
    """``(paragraph, line) -> 0-based source line`` of the shown directives whose raw line is one (the probe)."""
    parts = _LINE_BREAK.split(text)
    candidates: dict[str, tuple[int, str]] = {}
    for index in range(0, len(parts), 2):
        match = _CANDIDATE.fullmatch(parts[index])
        if match:
            sentinel = f"@{NAMESPACE} {match[2]} {match[3]}={_sentinel(len(candidates))}"
            candidates[sentinel] = index // 2, match[1]
            parts[index] = sentinel + parts[index][match.end(1) :]
    if not candidates or not shown:
        return {}
    probed = _shown_directives(fragment(render("".join(parts))), sections)
    confirmed = {}
    for place, (directive, _) in probed.items():
        if directive in candidates and place in shown:
            line, original = candidates[directive]
            if shown[place][0] == original:
                confirmed[place] = line
    return confirmed


@dataclass
class _Collector:
    """Walks a DOM and sorts its directive-shaped text into visible pieces and near-misses."""

    #: Character ranges of text nodes that are confirmed directive lines: not visible text to collect.
    skipped: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    other_shaped: list[tuple[str, str]] = field(default_factory=list)
    near_misses: list[tuple[str, str]] = field(default_factory=list)
    _piece: list[str] = field(default_factory=list)
    _place: str | None = None

    @staticmethod
    def shaped(text: str) -> bool:
        return is_directive_shaped(text) or bool(stated_claims(text))

    def hidden(self, place: str, text: str) -> None:
        for piece in text.split("\n"):
            if self.shaped(piece):
                self.near_misses.append((place, piece))

    def flush(self) -> None:
        text = "".join(self._piece)
        if self.shaped(text):
            self.other_shaped.append((self._place or "(root)", text))
        self._piece, self._place = [], None

    def visible(self, place: str, text: str) -> None:
        for number, line in enumerate(text.split("\n")):
            if number:
                self.flush()
            if line:
                if self._place is None:
                    self._place = place
                self._piece.append(line)

    def attributes(self, place: str, node: object, hidden: bool = False) -> None:
        element = str(getattr(node, "name", ""))
        attrs = getattr(node, "attrs", None) or {}
        for name, value in attrs.items():
            if not value:
                continue
            shown = None if hidden else _shown_attribute(element, name, value, attrs)
            if shown is None:
                self.hidden(f"{place}[{name}]", value)
                continue
            for piece in shown.split("\n"):
                if self.shaped(piece):
                    self.other_shaped.append((f"{place}[{name}]", piece))

    def walk(self, node: object, path: tuple[str, ...], hidden: bool, code: bool) -> None:
        """Sort the text of ``node``'s children, ``path`` the element names from the root down to ``node``."""
        place = ">".join(path) or "(root)"
        for child in _children(node):
            if isinstance(child, Text):
                data = child.data or ""
                for start, end in reversed(self.skipped.get(id(child), [])):
                    data = data[:start] + "\n" + data[end:]
                if hidden or code:
                    self.hidden(place, data)
                else:
                    self.visible(place, data)
            elif getattr(child, "name", "") in ("#comment", "#processing-instruction"):
                self.hidden(place, str(getattr(child, "data", "") or ""))
            elif _is_element(child):
                name = str(getattr(child, "name", ""))
                child_path = (*path, name)
                self.attributes(">".join(child_path), child, hidden or _hides(child))
                breaks = name in PIECE_BREAKS or (name in CODE_ELEMENTS and not (hidden or code))
                if breaks:
                    self.flush()
                child_hidden = hidden or _hides(child)
                self.walk(child, child_path, child_hidden, code or name in CODE_ELEMENTS)
                if isinstance(child, Template) and child.template_content is not None:
                    self.walk(child.template_content, child_path, True, code)
                if breaks:
                    self.flush()
            else:  # a nested fragment or document
                self.walk(child, path, hidden, code)


def _shown_attribute(element: str, name: str, value: str, attrs: dict[str, str | None]) -> str | None:
    """The text a browser draws from attribute ``name`` of ``element``, or None (module docstring)."""
    if (element, name) in (("img", "alt"), ("textarea", "placeholder"), ("option", "label"), ("optgroup", "label")):
        return value
    if element == "input" and name in ("value", "placeholder", "alt"):
        return None if str(attrs.get("type") or "").lower() == "hidden" else value
    if element == "iframe" and name == "srcdoc":
        return str(JustHTML(value).to_text(separator="\n"))
    if (element, name) in (
        ("object", "data"),
        ("embed", "src"),
        ("iframe", "src"),
    ) and value.strip().lower().startswith("data:"):
        header, _, data = value.strip()[5:].partition(",")
        if header.lower().endswith(";base64"):
            try:
                return base64.b64decode(urllib.parse.unquote(data)).decode("utf-8", "replace")
            except ValueError:
                return None
        return urllib.parse.unquote(data)
    return None


def read(render: Render, text: str, sections: frozenset[str] = frozenset()) -> ReaderView:
    """What a browser shows a reader of ``text`` rendered by ``render`` (see the module docstring).

    ``sections`` names elements a renderer wraps the page's own sections in
    (docutils and Sphinx: ``section``): a ``p`` inside them is still top
    level. Everywhere else (GitHub, MkDocs) a ``<section>`` is a container.
    A byte-order mark at the very start is an encoding signature, not text,
    and is dropped before rendering, as :func:`tests.reader_oracle.read` does.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    root = fragment(render(text))
    shown = _shown_directives(root, sections)
    confirmed = _confirmed(render, text, shown, sections)
    collector = _Collector()
    lines = []
    for place, line in sorted(confirmed.items(), key=lambda item: item[1]):
        directive, paragraph_line = shown[place]
        lines.append((line + 1, directive))
        assert paragraph_line.span is not None
        node, start, end = paragraph_line.span
        collector.skipped.setdefault(id(node), []).append((start, end))
    for ranges in collector.skipped.values():
        ranges.sort()
    collector.walk(root, (), False, False)
    collector.flush()
    return ReaderView(tuple(lines), tuple(collector.other_shaped), tuple(collector.near_misses))
