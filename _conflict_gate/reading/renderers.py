"""Renderers: how a docs site turns a page into what a reader sees, as values a manifest names (no I/O).

The gate's promise is ``ready`` with value V only when a person reading the
page as the site renders it sees V and nothing else for that key. Renderers
differ, so a manifest says which one its site uses (``"renderer"``; absent,
:data:`~_conflict_gate.base.registry.DEFAULT_RENDERER`), and the gate judges its
pages by that reading. One :class:`Renderer` per name in
:data:`~_conflict_gate.base.registry.RENDERERS`, built once, on first use
(:func:`renderer_named`, :data:`RENDERER_VALUES`: a renderer's own reading modules
are imported then, so a manifest naming ``github`` never imports MyST's, MDX's or
MkDocs's rules, and checking a name needs no reading module at all) and passed
in to :func:`~_conflict_gate.reading.reader.read_directives` with the manifest
(:attr:`Manifest.renderer <_conflict_gate.manifest.read.Manifest.renderer>`):

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
    the page (``_site_refusals``).
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

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, NamedTuple

from ..base.registry import DEFAULT_RENDERER, RENDERERS
from .blocks import GITHUB, GITHUB_ALONE, Flavour
from .html_attributes import shown_attribute
from .inline_spans import TagFilter

if TYPE_CHECKING:  # a renderer's own reading modules are imported when its value is built (renderer_named)
    from .blocks.mdx import MdxReading
    from .mkdocs import MkDocsPage

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
    "renderer_named",
]


#: A site model: ``scan(view, candidates)`` over the page's byte view and its candidate at signs.
SiteScan = Callable[[str, Sequence[int]], "MkDocsPage"]


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
    page_reading: Callable[[str, Sequence[int]], MdxReading] | None = None

    @property
    def meaning(self) -> str:
        return RENDERERS[self.name]


#: Text a browser shows from an attribute (hostile finding 7), under every renderer: github.com's sanitizer keeps
#: ``alt`` alone of them, but ``github`` is judged by cmark-gfm's own HTML too, which keeps them all.
_SHOWN_ATTRIBUTE: Final = PageRefusal(
    "ambiguous_markup",
    shown_attribute,
    "a browser shows this attribute's text (an image's alt text, a field's value or placeholder, an option's "
    "label, an iframe's srcdoc, a data: URL an object, embed or iframe shows), which is no paragraph's line and "
    "which the gate does not read as the site shows it",
)


@functools.cache
def _site_refusals() -> tuple[PageRefusal, ...]:
    """What ``commonmark`` (and ``mkdocs``, which reads every page ``commonmark`` reads) refuses of a site built
    from CommonMark-derived Markdown (VitePress, Hugo, Jekyll: :mod:`~_conflict_gate.reading.site_constructs`,
    and VitePress's own constructs: :mod:`~_conflict_gate.reading.vitepress`)."""
    from .site_constructs import (
        site_include,
        trailing_attributes,
        vitepress_container,
        vitepress_container_in_code,
        vue_binding,
        vue_interpolation,
    )
    from .vitepress import component_attribute, component_content

    return (
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


def _github() -> Renderer:
    return Renderer("github", GITHUB_ALONE, TagFilter.APPLIED, sanitized=True, page_refusals=(_SHOWN_ATTRIBUTE,))


def _commonmark() -> Renderer:
    return Renderer("commonmark", GITHUB, TagFilter.IN_DOUBT, page_refusals=_site_refusals())


def _mkdocs() -> Renderer:
    from .blocks.myst import math_line
    from .mkdocs import scan as scan_mkdocs
    from .mkdocs_lines import attribute_line, escaped_tag, open_at_reference
    from .mkdocs_marks import bracket_math_line

    return Renderer(
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
            *_site_refusals(),
        ),
    )


def _docusaurus() -> Renderer:
    from .blocks.docusaurus import DOCUSAURUS, unclosed_front_matter
    from .blocks.mdx import read_mdx

    return Renderer(
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


def _myst() -> Renderer:
    from .blocks.myst import (
        MYST,
        attributes_line,
        definition_lazy_line,
        field_list_line,
        include_line,
        math_line,
        substitution_line,
    )

    return Renderer(
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


def _portable() -> Renderer:
    """Judged against every reading of :data:`READINGS` (those another contains are read within it)."""
    return Renderer("portable", GITHUB, TagFilter.IN_DOUBT, members=_covering(_readings()))


#: name -> how its value is built: the single readings import their own modules (MyST's, MDX's, MkDocs's) there.
_BUILDERS: Final[Mapping[str, Callable[[], Renderer]]] = MappingProxyType(
    {
        "github": _github,
        "commonmark": _commonmark,
        "mkdocs": _mkdocs,
        "myst": _myst,
        "docusaurus": _docusaurus,
        "portable": _portable,
    }
)
if set(_BUILDERS) != set(RENDERERS):  # pragma: no cover
    raise AssertionError("renderers.py builds a value for each name of registry.RENDERERS, and no other")
_BUILT: dict[str, Renderer] = {}


def renderer_named(name: str) -> Renderer:
    """The renderer of ``name`` (a key of :data:`~_conflict_gate.base.registry.RENDERERS`), built on first
    use and the same value after: it imports that renderer's own reading modules only (``portable``'s are
    every reading's), so a manifest naming ``github`` never imports MyST's, MDX's or MkDocs's rules.
    Raises ``KeyError`` for any other name (check names against the registry, which needs no reading)."""
    found = _BUILT.get(name)
    if found is None:  # two threads may both build it (no I/O, no state): the first one kept is every caller's
        found = _BUILT.setdefault(name, _BUILDERS[name]())
    return found


def _readings() -> tuple[Renderer, ...]:
    return tuple(renderer_named(name) for name in RENDERERS if name != "portable")


class _RendererValues(Mapping[str, Renderer]):
    """name -> renderer, one per name of the registry's table, in its order; a value is built when it is
    first looked up (:func:`renderer_named`), so iterating the names or testing one builds nothing."""

    def __getitem__(self, name: str) -> Renderer:
        if name not in RENDERERS:
            raise KeyError(name)
        return renderer_named(name)

    def __contains__(self, name: object) -> bool:
        return name in RENDERERS

    def __iter__(self) -> Iterator[str]:
        return iter(RENDERERS)

    def __len__(self) -> int:
        return len(RENDERERS)

    def __repr__(self) -> str:
        return f"<renderers {', '.join(RENDERERS)}>"


#: name -> renderer, one per name of the registry's table, in its order (each built on first lookup).
RENDERER_VALUES: Final[Mapping[str, Renderer]] = _RendererValues()

#: The module's constants, each built on first use (:func:`renderer_named`): the single readings, ``portable``,
#: :data:`DEFAULT` (the renderer of a manifest that names none) and :data:`READINGS` (the readings
#: ``portable`` is judged against: every renderer of the registry but ``portable``, in its order).
_CONSTANTS: Final = MappingProxyType(
    {
        "GITHUB_COM": "github",
        "COMMONMARK": "commonmark",
        "MKDOCS": "mkdocs",
        "MYST_SITE": "myst",
        "DOCUSAURUS_SITE": "docusaurus",
        "PORTABLE": "portable",
        "DEFAULT": DEFAULT_RENDERER,
    }
)

if TYPE_CHECKING:
    GITHUB_COM: Renderer
    COMMONMARK: Renderer
    MKDOCS: Renderer
    MYST_SITE: Renderer
    DOCUSAURUS_SITE: Renderer
    PORTABLE: Renderer
    DEFAULT: Renderer
    READINGS: tuple[Renderer, ...]


def __getattr__(name: str) -> Renderer | tuple[Renderer, ...]:  # PEP 562: the constants, built on first use
    if name == "READINGS":
        return _readings()
    if name in _CONSTANTS:
        return renderer_named(_CONSTANTS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
