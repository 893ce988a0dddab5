"""Renderers of two more docs sites, each ``render(text) -> html`` for :func:`tests.dom_reader.read`.

Thin adapters for issue 16's differentials; not run by CI yet. Each needs its
own packages, imported only when called (the project never imports this
module). Pins as measured here, for issue 16's ``.ci/run`` steps:

* MkDocs: ``markdown==3.11.3``, ``pymdown-extensions==13.1.2`` (plus ``justhtml==3.16.0`` for the
  reader);
* MyST: ``myst-parser==5.2.0`` with the ``docutils==0.22.4`` it pulls in (and Sphinx 9.0.4, which
  myst-parser requires but :func:`render_myst` does not start).

:func:`render_mkdocs`
    Python-Markdown with the extensions mkdocs-material's documentation
    lists for a full setup (``setup/extensions/index.md``, "This configuration
    enables all Markdown-related features"): ``abbr``, ``admonition``,
    ``attr_list``, ``def_list``, ``footnotes``, ``md_in_html``, ``toc``
    (``permalink``), ``tables``; ``pymdownx`` ``arithmatex`` (generic),
    ``betterem`` (``smart_enable: all``), ``caret``, ``details``,
    ``highlight``, ``inlinehilite``, ``keys``, ``mark``, ``smartsymbols``,
    ``superfences``, ``tabbed`` (``alternate_style``), ``tasklist``
    (``custom_checkbox``), ``tilde``; and the ``pymdownx.blocks`` family
    (``admonition``, ``details``, ``tab`` with ``alternate_style``, ``html``,
    ``definition``), which mkdocs-material documents as the newer syntax.
    Left out: ``pymdownx.emoji`` (its index is mkdocs-material's own
    ``material.extensions.emoji``, a theme not installed here; emoji change no
    text a directive holds) and ``pymdownx.snippets`` (``--8<--`` pulls in
    other files; issue 16 refuses such a line rather than render it). MkDocs
    itself adds nothing to a page's body but link rewriting; the theme's
    JavaScript (tabs, collapsed details) is not run, so a closed ``???``
    block or a hidden tab counts as visible (the DOM reader's rule).
:func:`render_myst`
    myst-parser's docutils parser (``myst_parser.parsers.docutils_.Parser``)
    through ``docutils.core.publish_parts`` with the ``html5`` writer, the
    page's body (``parts["body"]``; ``doctitle_xform`` off, so the first
    heading stays in the body as a Sphinx page shows it), with the MyST extensions a Sphinx
    project typically enables (:data:`MYST_EXTENSIONS`). Under Sphinx the
    same parser runs; Sphinx-only directives and roles (``{toctree}``,
    ``{ref}``, ``{doc}``) are not known to plain docutils and render as an
    error box that shows their content, which can only show more. docutils
    (like Sphinx) wraps each heading's section in ``<section>``: read its
    pages with ``dom_reader.read(render_myst, text, MYST_SECTIONS)``. Errors
    are reported in the page (``report_level`` 2), never raised
    (``halt_level`` 5), as a Sphinx build with warnings shows the page.

MDX (Docusaurus) needs Node: issue 16 pins ``@mdx-js/mdx`` 3 and ``remark-gfm`` in a committed
``package-lock.json`` and calls them from a small script; it is not here.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["MKDOCS_EXTENSIONS", "MKDOCS_EXTENSION_CONFIGS", "MYST_EXTENSIONS", "MYST_SECTIONS", "render_mkdocs",
           "render_myst"]

MKDOCS_EXTENSIONS: Final = (
    "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "toc", "tables",
    "pymdownx.arithmatex", "pymdownx.betterem", "pymdownx.caret", "pymdownx.details", "pymdownx.highlight",
    "pymdownx.inlinehilite", "pymdownx.keys", "pymdownx.mark", "pymdownx.smartsymbols", "pymdownx.superfences",
    "pymdownx.tabbed", "pymdownx.tasklist", "pymdownx.tilde",
    "pymdownx.blocks.admonition", "pymdownx.blocks.details", "pymdownx.blocks.tab", "pymdownx.blocks.html",
    "pymdownx.blocks.definition",
)
MKDOCS_EXTENSION_CONFIGS: Final[dict[str, dict[str, Any]]] = {
    "toc": {"permalink": True},
    "pymdownx.arithmatex": {"generic": True},
    "pymdownx.betterem": {"smart_enable": "all"},
    "pymdownx.tabbed": {"alternate_style": True},
    "pymdownx.tasklist": {"custom_checkbox": True},
    "pymdownx.blocks.tab": {"alternate_style": True},
}
MYST_EXTENSIONS: Final = ("colon_fence", "deflist", "dollarmath", "tasklist", "attrs_inline", "fieldlist",
                          "substitution", "html_admonition")
#: The elements docutils wraps a heading's section in: a ``p`` inside one is still top level.
MYST_SECTIONS: Final = frozenset({"section"})


def render_mkdocs(text: str) -> str:
    """``text`` as Python-Markdown with mkdocs-material's extensions renders a page's body."""
    import markdown

    return str(markdown.markdown(text, extensions=list(MKDOCS_EXTENSIONS),
                                 extension_configs=MKDOCS_EXTENSION_CONFIGS))


def render_myst(text: str) -> str:
    """``text`` as myst-parser under docutils renders a page's body (HTML5 writer)."""
    from docutils.core import publish_parts
    from myst_parser.parsers.docutils_ import Parser

    parts = publish_parts(text, parser=Parser(), writer="html5", settings_overrides={
        "myst_enable_extensions": list(MYST_EXTENSIONS), "report_level": 2, "halt_level": 5,
        "warning_stream": False, "file_insertion_enabled": False, "raw_enabled": True,
        "output_encoding": "unicode", "embed_stylesheet": False, "doctitle_xform": False,
    })
    return str(parts["body"])
