"""Renderers: how a docs site turns a page into what a reader sees, as values a manifest names (no I/O).

The gate's promise is ``ready`` with value V only when a person reading the
page as the site renders it sees V and nothing else for that key. Renderers
differ, so a manifest says which one its site uses (``"renderer"``; absent,
:data:`~_conflict_gate.base.registry.DEFAULT_RENDERER`), and the gate judges its
pages by that reading. One :class:`Renderer` per name in
:data:`~_conflict_gate.base.registry.RENDERERS`, built once (:data:`RENDERER_VALUES`)
and passed in to :func:`~_conflict_gate.reading.reader.read_directives` with the
manifest (:attr:`Manifest.renderer <_conflict_gate.manifest.read.Manifest.renderer>`):

``github``
    CommonMark 0.31.2 and GFM exactly as github.com renders a file: its block
    reading alone (:data:`~_conflict_gate.reading.blocks.GITHUB_ALONE`: YAML front
    matter only, no comparison with markdown-it or CommonMark without tables),
    its tag filter applied (GFM 6.11: ``<script>``, ``<title>`` ... show as
    text), and its HTML sanitizer, which unwraps ``<template>`` and
    ``<noscript>`` and drops ``hidden`` (so their content is in doubt: a
    browser without the sanitizer hides it).
``myst``
    MyST-Parser under Sphinx or docutils (:data:`~_conflict_gate.reading.blocks.myst.MYST`):
    directives and colon fences are blocks a reader sees whole (never code,
    except code directives), ``%`` comments are hidden, code spans may show
    as text (docutils literals, roles), raw HTML passes through
    unfiltered, and a page with an include is refused.
``docusaurus``
    Docusaurus 3 (MDX 3, GFM, its admonitions; :data:`~_conflict_gate.reading.blocks.docusaurus.DOCUSAURUS`
    and :func:`~_conflict_gate.reading.blocks.mdx.read_mdx`): no indented code, no
    HTML blocks but JSX elements, whose bodies are containers, as are
    ``:::note`` admonitions; ``{/* */}`` and, under Docusaurus's defaults,
    ``<!-- -->`` hide text; an ``mdx-code-block`` fence's body is MDX; a page
    that may not build (a bare ``{`` or ``<``, an unclosed comment) is refused
    (``build_error``), and so is one that imports another page's content.
``commonmark``
    The union of the readings (:data:`~_conflict_gate.reading.blocks.GITHUB` compared
    with its three variants) with the tag filter in doubt, for a site whose
    renderer is not listed (VitePress, Hugo, Jekyll and the like): a line
    counts only where every one of those readings shows it the same way; what
    such sites add (an include line, ``{...}`` attributes, a Vue directive) refuses
    the page (``_SITE_REFUSALS``).
``mkdocs``
    MkDocs (Python-Markdown with the extensions mkdocs-material documents):
    the ``commonmark`` reading plus a conservative model of where
    Python-Markdown parts from it (:mod:`~_conflict_gate.reading.mkdocs`):
    container bodies (admonitions, details, tabs, blocks, md_in_html,
    definitions) are containers like a block quote, a snippets line refuses
    the page, code and hidden text MkDocs may show are in doubt.
``portable``
    Every other renderer at once (:attr:`Renderer.members`: each value of
    :data:`READINGS`, so a renderer added there joins it): a line counts only
    where every one shows it as a directive, it is context only where every
    one hides it or shows it as code, anything else is doubt. A member under
    which the page certainly does not build (MDX's certain build errors) is
    left out while another builds it (:attr:`Reading.left_out
    <_conflict_gate.reading.reading_shapes.Reading.left_out>`). The reading of a manifest that
    names no renderer.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, NamedTuple

from ..base.registry import DEFAULT_RENDERER, RENDERERS
from .blocks import GITHUB, GITHUB_ALONE, Flavour
from .blocks.docusaurus import DOCUSAURUS, unclosed_front_matter
from .blocks.mdx import MdxReading, read_mdx
from .blocks.myst import (
    MYST,
    attributes_line,
    definition_lazy_line,
    field_list_line,
    include_line,
    math_line,
    substitution_line,
)
from .blocks.parse import parse_blocks
from .blocks.scan import first_in_a_candidates_paragraph, next_blank_line
from .html_attributes import shown_attribute
from .inline_spans import TagFilter
from .mkdocs import MkDocsPage
from .mkdocs import scan as scan_mkdocs
from .mkdocs_lines import attribute_line, escaped_tag, open_at_reference, outside_fenced_code
from .mkdocs_marks import bracket_math_line
from .vitepress import (
    component_attribute,
    component_content,
    containers,
    event_attribute,
    v_pre_element,
    vitepress_tag_end,
)

__all__ = [
    "COMMONMARK",
    "DEFAULT",
    "DOCUSAURUS_SITE",
    "GITHUB_COM",
    "MKDOCS",
    "MYST_SITE",
    "PORTABLE",
    "READINGS",
    "RENDERER_VALUES",
    "PageRefusal",
    "Renderer",
    "SiteScan",
]


#: A site model: ``scan(view, candidates)`` over the page's byte view and its candidate at signs.
SiteScan = Callable[[str, Sequence[int]], MkDocsPage]


class PageRefusal(NamedTuple):
    """A construct that refuses the whole page (a line that pulls in another file, a construct that
    breaks the site's build, or one that changes what a paragraph holding a candidate shows):
    ``find(view, candidates)`` gives its offset in the page's byte view (``candidates``: the byte
    offsets of the page's candidate at signs, in order), or -1; the page is refused with ``reason``,
    the message ``why``, at that line. ``every_page``: tried on a page without candidates too (the
    construct may show a directive the page's bytes do not spell)."""

    reason: str
    find: Callable[[str, Sequence[int]], int]
    why: str
    every_page: bool = False


@dataclass(frozen=True)
class Renderer:
    """How one site renders a page, as far as what a reader sees goes.

    ``name``: its key in :data:`~_conflict_gate.base.registry.RENDERERS`.
    ``flavour``: the block reading (and the readings it is compared with).
    ``tag_filter``: whether GFM's tag filter applies (:class:`TagFilter`).
    ``sanitized``: an HTML sanitizer unwraps hiding elements (``<template>``,
    ``<noscript>``) and drops ``hidden``, so what a browser alone hides may be
    shown. Which raw-HTML elements hide or stay open is the HTML standard's
    (:mod:`~_conflict_gate.reading.html_tree`), read once per tag-filter reading.
    ``site``: a line-based model of a site's own constructs (containers,
    includes, code and hidden text it may show), read before the blocks
    (:data:`SiteScan`); None for a CommonMark-derived reading alone.
    ``members``: the renderers a combined reading judges a page against
    (``portable``); empty for a single reading.
    ``page_refusals``: constructs that refuse the page wherever they are,
    tried in order on every page that holds a candidate. ``code_spans_shown``:
    a code span that is a MyST role's content (``{sub}`...```, ``{abbr}`...```)
    shows as text, so directive-shaped text there refuses; a plain code span
    is code (Sphinx writes a literal as ``<code>``). ``page_reading``: MDX's reading of
    the whole page (:func:`~_conflict_gate.reading.blocks.mdx.read_mdx`): what breaks
    the build, an import of content, and the regions (comments, expressions,
    JSX elements, admonitions) whose candidates it decides.
    """

    name: str
    flavour: Flavour
    tag_filter: TagFilter
    sanitized: bool = False
    site: SiteScan | None = None
    members: tuple[Renderer, ...] = ()
    page_refusals: tuple[PageRefusal, ...] = ()
    code_spans_shown: bool = False
    page_reading: Callable[[str], MdxReading] | None = None

    @property
    def meaning(self) -> str:
        return RENDERERS[self.name]


#: A site built from CommonMark-derived Markdown (VitePress, Hugo, Jekyll and the like) adds constructs of its
#: own: a page that pulls another file in (VitePress's ``<!--@include: file-->``, Jekyll's ``{% include %}``
#: and ``{% include_relative %}``); markdown-it-attrs (VitePress), kramdown (Jekyll) and Goldmark (Hugo)
#: read ``{...}`` at the end of a block's line, or on a line of its own below it, as its attributes
#: (``{hidden}``); Vue (VitePress) renders an element's text from ``v-text``/``v-html``, and shows or
#: hides it by ``v-if``/``v-show``/``v-else``/``v-for`` or a bound (``:name``) attribute; and its markdown-it takes a
#: tag with an event attribute (``@click``, ``v-on``) for HTML where CommonMark reads text (the VitePress 1.6.4
#: build hid the line below ``<span @click="f" hidden>``).
#: VitePress matches ``<!--\s*@include:`` (JavaScript's ``\s``: line breaks and Unicode spaces too; the page's view
#: holds UTF-8 bytes, so any non-ASCII byte is taken for one: the safe side).
_SITE_INCLUDE: Final = re.compile(r"<!--[\s\x80-\xff]*@include:|\{%-?[ \t]*include(?:_relative)?[ \t]", re.ASCII)
_TRAILING_ATTRIBUTES: Final = re.compile(
    r"^(?![ \t>]*(?:`{3,}|~{3,}))[^\r\n]*\{[^\r\n{}]*\}[ \t]*\r?$", re.ASCII | re.MULTILINE
)
_VUE_BINDING: Final = re.compile(
    r"<[A-Za-z][^<>]*?[\t\n\f\r ](?:v-(?:text|html|if|else-if|else|show|for|bind|model|on)\b|:[A-Za-z][\w.-]*=|(?P<event>@[A-Za-z]))",
    re.ASCII,
)


def site_include(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first line that pulls in another file on a site built from CommonMark-derived
    Markdown (:data:`_SITE_INCLUDE`), or -1."""
    found = _SITE_INCLUDE.search(view)
    return found.start() if found is not None else -1


def trailing_attributes(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first ``{...}`` ending a line of a stretch of lines that holds a candidate, or
    -1: an attribute list (markdown-it-attrs, kramdown, Goldmark) may hide the paragraph. A line in
    fenced code by every reading (:func:`~.mkdocs_lines.outside_fenced_code`: JSON in a ```` ```json ````
    block, issue 29) is code, no attribute list."""
    return first_in_a_candidates_paragraph(
        view, outside_fenced_code(view, _TRAILING_ATTRIBUTES.finditer(view)), candidates
    )


#: Past this many tags with a Vue binding, the first refuses the page unread.
_MAX_VUE_BINDINGS: Final = 1000


def vue_binding(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first tag with a Vue directive that sets, shows or hides its content, or -1.

    A tag wholly inside a fenced code block (no doubt on it, as the ``github`` block reading builds the
    page) is left alone: VitePress writes its fences with ``v-pre``, so Vue compiles nothing there
    (issue 29: Vue examples on VitePress's own pages). Indented code is not (VitePress does not mark it),
    and past :data:`_MAX_VUE_BINDINGS` tags the first refuses. Linear (one block reading of the page)."""
    if not candidates:
        return -1
    found = []
    for match in _VUE_BINDING.finditer(view):
        if match.group("event") and not event_attribute(view, match.start()):
            continue  # an at sign in a value or text (a directive below a tag left open), no Vue event
        found.append((match.start(), match.end()))
        if len(found) > _MAX_VUE_BINDINGS:
            return found[0][0]
    if not found:
        return -1
    broken = containers(view, candidates).broken
    if 0 <= broken <= found[-1][0]:  # after a container closed inside fenced code, no code is known
        return next(start for start, _ in found if start >= broken)
    leaves = sorted(
        (leaf for leaf in parse_blocks(view, [start for start, _ in found]) if leaf.lines),
        key=lambda leaf: leaf.lines[0][1],
    )
    starts = [leaf.lines[0][1] for leaf in leaves]
    for start, end in found:
        k = bisect.bisect_right(starts, start) - 1
        leaf = leaves[k] if k >= 0 else None
        if (
            leaf is None
            or leaf.end < end
            or leaf.kind != "fenced_code"
            or leaf.doubt is not None
            or leaf.gave_up is not None
        ) and not _vue_element_apart(view, start, candidates):
            return start
    return -1


#: A Vue interpolation whose value the page spells out: numbers and arithmetic only (``{{ 1 + 1 }}``).
_KNOWN_INTERPOLATION: Final = re.compile(r"\{\{[ \t0-9.+\-*/%()]*\}\}", re.ASCII)


def vue_interpolation(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first Vue interpolation (``{{ ... }}``, a ``}}`` anywhere after the ``{{``) outside
    fenced code (as the ``github`` block reading builds the page, no doubt on it: VitePress writes its
    fences with ``v-pre``), or -1. Vue evaluates it, so ``{{ '\\x40quill ...' }}``, ``{{ '@' + 'quill ...' }}``
    or a name bound in ``<script setup>`` or the front matter shows text the page does not spell: a
    directive line anywhere (hostile round 5). Numbers and arithmetic alone are known, and Hugo's shortcodes
    (``{{<``, ``{{%``) are no interpolation; in indented code, or raw HTML's ``<pre>`` or ``<code>``, its value
    shows as code (Vue writes it as text); a code span is not read (refused: the safe side); past :data:`_MAX_VUE_BINDINGS` the first refuses. Linear (one block reading)."""
    last_close = view.rfind("}}")
    openings: list[int] = []
    scan = containers(view, candidates)
    raw_text = _RAW_TEXT.search(view) is not None
    at = view.find("{{", 0, max(last_close, 0))
    while 0 <= at < last_close and len(openings) <= _MAX_VUE_BINDINGS:
        if not _KNOWN_INTERPOLATION.match(view, at) and view[at + 2 : at + 3] not in ("<", "%"):  # Hugo's shortcodes
            if 0 <= scan.broken <= at:
                return at  # after a container closed inside fenced code: no code is known to be code
            k = bisect.bisect_right(scan.v_pre, at)
            in_container = k % 2 == 1 and view.find("}}", at) < scan.v_pre[k]
            if not in_container and (raw_text or not v_pre_element(view, at)):
                openings.append(at)
        at = view.find("{{", at + 2)
    if len(openings) > _MAX_VUE_BINDINGS:
        return openings[0]
    if not openings:
        return -1
    leaves = sorted((leaf for leaf in parse_blocks(view, openings) if leaf.lines), key=lambda leaf: leaf.lines[0][1])
    starts = [leaf.lines[0][1] for leaf in leaves]
    for opening in openings:
        k = bisect.bisect_right(starts, opening) - 1
        leaf = leaves[k] if k >= 0 else None
        if leaf is None or leaf.end < opening or leaf.doubt or leaf.gave_up:
            return opening
        if leaf.kind == "html_block":
            start = max(leaf.lines[0][1], opening - 4096)
            if _in_html_code(view, start, opening):
                continue  # Vue writes an interpolation's value as text: in <pre> or <code> it shows as code
            if not raw_text and (_in_comment(view, start, opening) or v_pre_element(view, opening, leaf.lines[0][1])):
                continue  # a comment Vue drops, or an element with v-pre opened on an earlier line of the block
        if leaf.kind not in ("fenced_code", "indented_code"):
            return opening
    return -1


#: Elements whose text Vue compiles whatever tags it holds (raw text): a ``v-pre`` tag there is text.
_RAW_TEXT: Final = re.compile(r"<(?:textarea|title)(?![A-Za-z0-9-])", re.ASCII | re.IGNORECASE)


def _in_html_code(view: str, start: int, at: int) -> bool:
    """Is ``at`` (and the ``}}`` after it) inside a ``<pre>`` or ``<code>`` element opened after ``start`` and
    not closed before the ``}}``, nor by a run of colons that may close a VitePress container around it (its
    ``</div>``)? (The raw HTML of one block, read back at most 4 KiB: the safe side.)"""
    found = max(view.rfind("<pre", start, at), view.rfind("<code", start, at))
    close = view.find("}}", at)
    return (
        found >= 0
        and close >= 0
        and _CODE_END.search(view, found, close + 2) is None
        and view.find(":::", found, close) < 0
    )


def _in_comment(view: str, start: int, at: int) -> bool:
    """Is ``at`` (and the ``}}`` after it) inside an HTML comment opened after ``start`` (in one raw HTML
    block): Vue's compiler drops comments, so nothing of it shows (the VitePress 1.6.4 build showed none)."""
    opened = view.rfind("<!--", start, at)
    close = view.find("}}", at)
    return opened >= 0 and close >= 0 and view.find("-->", opened + 2) > close and view.find(":::", opened, close) < 0


_CODE_END: Final = re.compile(r"</(?:pre|code)\b", re.ASCII | re.IGNORECASE)


#: A Vue directive or bound property that sets an element's content (``v-text``, ``v-html``, ``v-bind``'s
#: object, ``:innerHTML``, ``:textContent`` ...) or text a browser shows from an attribute (``v-model``, ``:value``,
#: ``:placeholder``, ``:alt``, ``:label``, ``:srcdoc``, ``:data``: hostile finding 7's attributes, bound; hostile
#: round 5): text the page does not hold, which may read as a directive.
_VUE_CONTENT: Final = re.compile(
    r"[\t\n\f\r ](?:v-(?:text|html|bind|model)\b|:[\w.-]*(?:html|text)|:(?:value|placeholder|alt|label|srcdoc|data)(?![\w-]))",
    re.ASCII | re.IGNORECASE,
)
_VOID_ELEMENTS: Final = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")
)


def _vue_element_apart(view: str, at: int, candidates: Sequence[int]) -> bool:
    """Is the element whose opening tag starts at ``at`` one whose Vue bindings change nothing a reader sees
    at a candidate: no binding sets its content (:data:`_VUE_CONTENT`), it closes (void, ``/>``, or its
    closing tag, same-name elements counted) before the stretch of lines it starts in ends, and that
    stretch holds no candidate? ``v-if``, ``v-show``, ``v-for`` and a bound attribute then show, hide,
    repeat or restyle that element alone (issue 29: ``<span v-for="i in 3">`` in an HTML block of
    VitePress's guide), and an event (``@click``) only acts on it. The tag is read as VitePress's
    markdown-it reads it (:func:`~.vitepress.vitepress_tag_end`); anything else (a tag it does not end)
    is not apart. Linear in the stretch (so at most :data:`_MAX_VUE_BINDINGS` times the page for a page)."""
    tag_end = vitepress_tag_end(view, at)
    name = re.match(r"<([A-Za-z][A-Za-z0-9-]*)", view[at : at + 64])
    if tag_end < 0 or name is None or _VUE_CONTENT.search(view, at, tag_end):
        return False
    stretch_end = next_blank_line(view, view.rfind("\n", 0, at) + 1)
    k = bisect.bisect_left(candidates, at)
    if k < len(candidates) and candidates[k] < stretch_end:
        return False
    tag = name.group(1).lower()
    if tag in _VOID_ELEMENTS or view[tag_end - 2 : tag_end] == "/>":
        return True
    depth = 1
    for found in re.finditer(rf"<(/?){re.escape(tag)}(?![A-Za-z0-9-])", view[tag_end:stretch_end], re.IGNORECASE):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return True
    return False


def vitepress_container(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first directive-like candidate in a VitePress container's body, or -1."""
    return containers(view, candidates).first


def vitepress_container_in_code(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first directive-like candidate after a VitePress container closed inside fenced code."""
    return containers(view, candidates).after


#: Text a browser shows from an attribute (hostile finding 7), under every renderer: github.com's sanitizer keeps
#: ``alt`` alone of them, but ``github`` is judged by cmark-gfm's own HTML too, which keeps them all.
_SHOWN_ATTRIBUTE: Final = PageRefusal(
    "ambiguous_markup",
    shown_attribute,
    "a browser shows this attribute's text (an image's alt text, a field's value or placeholder, an option's "
    "label, an iframe's srcdoc, a data: URL an object, embed or iframe shows), which is no paragraph's line and "
    "which the gate does not read as the site shows it",
)

#: What ``commonmark`` (and ``mkdocs``, which reads every page ``commonmark`` reads) refuses of such sites.
_SITE_REFUSALS: Final = (
    _SHOWN_ATTRIBUTE,
    PageRefusal(
        "ambiguous_markup",
        site_include,
        "this line pulls in another file (VitePress's <!--@include: -->, Jekyll's {% include %}), whose lines "
        "the gate does not read; a reader sees them in this page",
    ),
    PageRefusal(
        "ambiguous_markup",
        trailing_attributes,
        "'{...}' ending a line of this paragraph is an attribute list to VitePress (markdown-it-attrs), "
        "Jekyll (kramdown) and Hugo (Goldmark), which may hide the paragraph ({hidden}); take it out, or set "
        "the manifest's \"renderer\" to the site's",
    ),
    PageRefusal(
        "ambiguous_markup",
        vitepress_container_in_code,
        "a VitePress container (markdown-it-container's ':::') closes at a line of colons inside fenced code, "
        "so VitePress shows the code's later lines as text where CommonMark reads code; the gate does not "
        "model it (close the fence before the container's end)",
    ),
    PageRefusal(
        "misplaced_directive",
        vitepress_container,
        "directive-shaped text in a VitePress container (':::' tip, details, v-pre ...), which the site renders "
        "as a container like a block quote; a directive counts only as a line of its own in a top-level "
        "paragraph: move it out of the container",
    ),
    PageRefusal(
        "ambiguous_markup",
        component_attribute,
        "a Vue component may show its attributes' text (VitePress's <Badge text=\"...\"> shows it in a badge), "
        "which is no paragraph's line and which the gate does not render; write the directive as a line of its "
        "own in a top-level paragraph",
    ),
    PageRefusal(
        "misplaced_directive",
        component_content,
        "directive-shaped text in the content of a Vue component's element (<Foo>...</Foo>), which the "
        "component renders as it will (VitePress renders an unregistered one as nothing, and starts an HTML "
        "block at its tag even inside a paragraph); a directive counts only as a line of its own in a "
        "top-level paragraph: move it out of the component",
    ),
    PageRefusal(
        "ambiguous_markup",
        vue_interpolation,
        "VitePress (Vue) renders this interpolation ({{ ... }}) from an expression the gate does not evaluate "
        "(a string escape, a concatenation, a name from <script setup> or the front matter): a reader may see "
        "a directive the page does not spell; show it in fenced code, or write the value out",
    ),
    PageRefusal(
        "ambiguous_markup",
        vue_binding,
        "VitePress (Vue) renders this element's content from a Vue directive or a bound attribute "
        "(v-text, v-html, v-if, v-show, :name), which the gate does not evaluate; a reader may see text "
        "the page does not hold, or not see the directive",
    ),
)

GITHUB_COM: Final = Renderer(
    "github", GITHUB_ALONE, TagFilter.APPLIED, sanitized=True, page_refusals=(_SHOWN_ATTRIBUTE,)
)
COMMONMARK: Final = Renderer("commonmark", GITHUB, TagFilter.IN_DOUBT, page_refusals=_SITE_REFUSALS)
MKDOCS: Final = Renderer(
    "mkdocs",
    GITHUB,
    TagFilter.IN_DOUBT,
    site=scan_mkdocs,
    page_refusals=(
        PageRefusal(
            "ambiguous_markup",
            attribute_line,
            "Python-Markdown's attr_list reads this line as the attributes of the paragraph "
            "above it (hidden, style ...), which may hide what it shows",
        ),
        PageRefusal(
            "ambiguous_markup",
            escaped_tag,
            "a backslash does not escape '<' for Python-Markdown: MkDocs passes this tag to the "
            "browser, which may hide or contain the lines after it",
        ),
        PageRefusal(
            "ambiguous_markup",
            open_at_reference,
            "Python-Markdown completes this character reference without its ';' into an at "
            "sign, so the text after it may show as a directive",
        ),
        PageRefusal(
            "ambiguous_markup",
            math_line,
            "arithmatex's inline math ($...$) may run over the lines of this paragraph or take "
            "in a backtick or '<', and shows what it takes as math, not as text; write the "
            "dollar sign elsewhere",
        ),
        PageRefusal(
            "ambiguous_markup",
            bracket_math_line,
            "arithmatex's inline math (\\(...\\)) runs over the lines of this paragraph, and "
            "shows what it takes as math, not as text",
        ),
        *_SITE_REFUSALS,
    ),
)
DOCUSAURUS_SITE: Final = Renderer(
    "docusaurus",
    DOCUSAURUS,
    TagFilter.NONE,
    page_reading=read_mdx,
    page_refusals=(
        _SHOWN_ATTRIBUTE,
        PageRefusal(
            "ambiguous_markup",
            unclosed_front_matter,
            "this page opens front matter that no '---' line closes: gray-matter takes the whole "
            "page as front matter, and Docusaurus shows none of it",
        ),
    ),
)
MYST_SITE: Final = Renderer(
    "myst",
    MYST,
    TagFilter.NONE,
    code_spans_shown=True,
    page_refusals=(
        _SHOWN_ATTRIBUTE,
        PageRefusal(
            "ambiguous_markup",
            lambda view, candidates: include_line(view),
            "this line pulls in another file (a MyST {include} or {literalinclude}, a reST "
            "include, a directive's :file: or :url: option), whose lines the gate does not "
            "read; a reader sees them in this page",
            every_page=True,
        ),
        PageRefusal(
            "ambiguous_markup",
            substitution_line,
            "MyST renders this substitution ({{ ... }}, or |name| in reST) through Jinja, with "
            "values from the front matter or conf.py that the gate does not read: it may show a "
            "directive anywhere on the page",
            every_page=True,
        ),
        PageRefusal(
            "ambiguous_markup",
            field_list_line,
            "MyST reads this line as a field list (fieldlist) and the lines below it, to the "
            "next blank line, as its body: a directive there is no top-level paragraph line",
        ),
        PageRefusal(
            "ambiguous_markup",
            math_line,
            "MyST's dollar math ($...$, $$...$$) may run over the lines of this paragraph or "
            "take in a backtick or '<' that otherwise starts code or HTML, and shows what it "
            "takes as math, not as text; write the dollar sign elsewhere",
        ),
        PageRefusal(
            "ambiguous_markup",
            attributes_line,
            "MyST may take the lines of this paragraph into an attribute list ({...} after a "
            "span, link or code) or a substitution ({{ ... }}), which show no text",
        ),
        PageRefusal(
            "ambiguous_markup",
            definition_lazy_line,
            "right below an indented line, on a page with a definition list: MyST may go on "
            "with the definition's body here (deflist), a container, not a top-level paragraph",
        ),
    ),
)
#: The readings ``portable`` is judged against: every renderer of the registry but ``portable``, in its order.
READINGS: Final[tuple[Renderer, ...]] = tuple(
    sorted(
        (GITHUB_COM, COMMONMARK, MKDOCS, MYST_SITE, DOCUSAURUS_SITE),
        key=lambda renderer: list(RENDERERS).index(renderer.name),
    )
)


def _covering(readings: tuple[Renderer, ...]) -> tuple[Renderer, ...]:
    """``readings`` without those another one contains: a reading with a site model and every page
    refusal of the same block reading without it refuses all that reading refuses, and more, and counts
    nothing it does not (so ``commonmark`` is judged within ``mkdocs``, read once)."""

    def contains(bigger: Renderer, smaller: Renderer) -> bool:
        return (
            bigger is not smaller
            and smaller.site is None
            and bigger.site is not None
            and bigger.flavour is smaller.flavour
            and bigger.tag_filter is smaller.tag_filter
            and bigger.sanitized == smaller.sanitized
            and all(rule in bigger.page_refusals for rule in smaller.page_refusals)
            and smaller.page_reading is None
            and not smaller.code_spans_shown
        )

    return tuple(reading for reading in readings if not any(contains(other, reading) for other in readings))


#: Judged against every reading of :data:`READINGS` (those another contains are read within it).
PORTABLE: Final = Renderer("portable", GITHUB, TagFilter.IN_DOUBT, members=_covering(READINGS))

#: name -> renderer, one per name of the registry's table, in its order.
RENDERER_VALUES: Final[Mapping[str, Renderer]] = MappingProxyType(
    {
        renderer.name: renderer
        for renderer in sorted((*READINGS, PORTABLE), key=lambda renderer: list(RENDERERS).index(renderer.name))
    }
)
#: The renderer of a manifest that names none.
DEFAULT: Final = RENDERER_VALUES[DEFAULT_RENDERER]
