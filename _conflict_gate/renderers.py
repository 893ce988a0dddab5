"""Renderers: how a docs site turns a page into what a reader sees, as values a manifest names (no I/O).

The gate's promise is ``ready`` with value V only when a person reading the
page as the site renders it sees V and nothing else for that key. Renderers
differ, so a manifest says which one its site uses (``"renderer"``; absent,
:data:`~_conflict_gate.registry.DEFAULT_RENDERER`), and the gate judges its
pages by that reading. One :class:`Renderer` per name in
:data:`~_conflict_gate.registry.RENDERERS`, built once (:data:`RENDERER_VALUES`)
and passed in to :func:`~_conflict_gate.reader.read_directives` with the
manifest (:attr:`Manifest.renderer <_conflict_gate.manifest.Manifest.renderer>`):

``github``
    CommonMark 0.31.2 and GFM exactly as github.com renders a file: its block
    reading alone (:data:`~_conflict_gate.blocks.GITHUB_ALONE`: YAML front
    matter only, no comparison with markdown-it or CommonMark without tables),
    its tag filter applied (GFM 6.11: ``<script>``, ``<title>`` ... show as
    text), and its HTML sanitizer, which unwraps ``<template>`` and
    ``<noscript>`` and drops ``hidden`` (so their content is in doubt: a
    browser without the sanitizer hides it).
``myst``
    MyST-Parser under Sphinx or docutils (:data:`~_conflict_gate.blocks.myst.MYST`):
    directives and colon fences are blocks a reader sees whole (never code,
    except code directives), ``%`` comments are hidden, code spans may show
    as text (docutils literals, roles), raw HTML passes through
    unfiltered, and a page with an include is refused.
``docusaurus``
    Docusaurus 3 (MDX 3, GFM, its admonitions; :data:`~_conflict_gate.blocks.mdx.DOCUSAURUS`
    and :func:`~_conflict_gate.blocks.mdx.read_mdx`): no indented code, no
    HTML blocks but JSX elements, whose bodies are containers, as are
    ``:::note`` admonitions; ``{/* */}`` hides text; a page that may not build
    (``<!-- -->``, a bare ``{`` or ``<``) is refused (``build_error``), and so
    is one that imports another page's content.
``commonmark``
    The union of the readings (:data:`~_conflict_gate.blocks.GITHUB` compared
    with its three variants) with the tag filter in doubt, for a site whose
    renderer is not listed (VitePress, Hugo, Jekyll and the like): a line
    counts only where every one of those readings shows it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Final, Mapping, NamedTuple

from .blocks import GITHUB, GITHUB_ALONE, Flavour
from .blocks.mdx import DOCUSAURUS, MdxReading, read_mdx
from .blocks.myst import MYST, include_line
from .inlines import TagFilter
from .registry import DEFAULT_RENDERER, RENDERERS

__all__ = ["COMMONMARK", "DEFAULT", "DOCUSAURUS_SITE", "GITHUB_COM", "MYST_SITE", "PageRefusal", "RENDERER_VALUES", "Renderer"]


class PageRefusal(NamedTuple):
    """A construct that refuses the whole page wherever it is (a line that pulls in another file, a
    construct that breaks the site's build): ``find(view)`` gives its offset in the page's byte view,
    or -1; the page is refused with ``reason``, the message ``why``, at that line."""

    reason: str
    find: Callable[[str], int]
    why: str


@dataclass(frozen=True)
class Renderer:
    """How one site renders a page, as far as what a reader sees goes.

    ``name``: its key in :data:`~_conflict_gate.registry.RENDERERS`.
    ``flavour``: the block reading (and the readings it is compared with).
    ``tag_filter``: whether GFM's tag filter applies (:class:`TagFilter`).
    ``sanitized``: an HTML sanitizer unwraps hiding elements (``<template>``,
    ``<noscript>``) and drops ``hidden``, so what a browser alone hides may be
    shown. Which raw-HTML elements hide or stay open is the HTML standard's
    (:mod:`~_conflict_gate.html_tree`), read once per tag-filter reading.
    ``page_refusals``: constructs that refuse the page wherever they are,
    tried in order on every page that holds a candidate. ``code_spans_shown``:
    a code span may show as text, so directive-shaped text there refuses
    (MyST under docutils writes a literal as a ``<span>``, a role such as
    ``{sub}`...``` shows its text). ``page_reading``: MDX's reading of
    the whole page (:func:`~_conflict_gate.blocks.mdx.read_mdx`): what breaks
    the build, an import of content, and the regions (comments, expressions,
    JSX elements, admonitions) whose candidates it decides.
    """

    name: str
    flavour: Flavour
    tag_filter: TagFilter
    sanitized: bool = False
    page_refusals: tuple[PageRefusal, ...] = ()
    code_spans_shown: bool = False
    page_reading: Callable[[str], MdxReading] | None = None

    @property
    def meaning(self) -> str:
        return RENDERERS[self.name]


GITHUB_COM: Final = Renderer("github", GITHUB_ALONE, TagFilter.APPLIED, sanitized=True)
COMMONMARK: Final = Renderer("commonmark", GITHUB, TagFilter.IN_DOUBT)
DOCUSAURUS_SITE: Final = Renderer("docusaurus", DOCUSAURUS, TagFilter.NONE, page_reading=read_mdx)
MYST_SITE: Final = Renderer(
    "myst", MYST, TagFilter.NONE, code_spans_shown=True,
    page_refusals=(PageRefusal("ambiguous_markup", include_line,
                               "this line pulls in another file (a MyST {include} or {literalinclude}, or a reST "
                               "include), whose lines the gate does not read; a reader sees them in this page"),))

#: name -> renderer, one per name of the registry's table, in its order.
RENDERER_VALUES: Final[Mapping[str, Renderer]] = MappingProxyType(
    {renderer.name: renderer for renderer in sorted((GITHUB_COM, COMMONMARK, MYST_SITE, DOCUSAURUS_SITE), key=lambda renderer: list(RENDERERS).index(renderer.name))})
#: The renderer of a manifest that names none.
DEFAULT: Final = RENDERER_VALUES[DEFAULT_RENDERER]
