r"""Renderers of two more docs sites, each ``render(text) -> html`` for :func:`tests.dom_reader.read`.

Thin adapters for issue 16's differentials (``tests/test_reader_differential_mkdocs.py``,
``..._myst.py``, ``..._portable.py``), run by ``.ci/run``. Each needs its own
packages, imported only when called (the project never imports this module).
Pins, as ``.ci/run`` installs them:

* MkDocs: ``mkdocs==1.6.1`` (only its front-matter reader, ``mkdocs.utils.meta.get_data``),
  ``markdown==3.11.3``, ``pymdown-extensions==13.1.2`` (plus ``justhtml==3.16.0`` for the reader);
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
    text a directive holds). ``pymdownx.snippets`` is on, with
    :data:`FIXTURES` as its base path, so a ``--8<-- "overwrite.md"`` line pulls
    that file in as the site would; :func:`mkdocs_includes` lists the lines
    snippets acts on (issue 16 refuses them). Before Python-Markdown, the page
    goes through what MkDocs does to a file: read with universal newlines and
    the BOM dropped (``utf-8-sig``), then its YAML front matter or
    MultiMarkdown-style ``key: value`` header removed (MkDocs's own
    ``get_data``). MkDocs itself adds nothing else to a page's body but link
    rewriting; the theme's JavaScript (tabs, collapsed details) is not run, so
    a closed ``???`` block or a hidden tab counts as visible (the DOM reader's
    rule).
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
    (``halt_level`` 5), as a Sphinx build with warnings shows the page. The
    page is rendered as if it were :data:`FIXTURES`\ ``/page.md`` with file
    insertion on, so ``{include}`` (and ``.. include::`` in ``{eval-rst}``)
    pulls in a file of that folder as Sphinx would; :func:`render_myst_page`
    also returns the files a page read (docutils's ``record_dependencies``),
    which issue 16 refuses.

MDX (Docusaurus) needs Node: :mod:`tests.mdx_oracle` drives ``tests/mdx/render.mjs``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

__all__ = [
    "FIXTURES",
    "MKDOCS_EXTENSIONS",
    "MKDOCS_EXTENSION_CONFIGS",
    "MYST_EXTENSIONS",
    "MYST_SECTIONS",
    "mkdocs_includes",
    "render_mkdocs",
    "render_myst",
    "render_myst_page",
]

#: The folder a rendered page is taken to live in: what its snippets and includes pull in.
FIXTURES: Final = Path(__file__).resolve().parent / "site_fixtures"

MKDOCS_EXTENSIONS: Final = (
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "toc",
    "tables",
    "pymdownx.arithmatex",
    "pymdownx.betterem",
    "pymdownx.caret",
    "pymdownx.details",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.keys",
    "pymdownx.mark",
    "pymdownx.smartsymbols",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "pymdownx.tasklist",
    "pymdownx.tilde",
    "pymdownx.blocks.admonition",
    "pymdownx.blocks.details",
    "pymdownx.blocks.tab",
    "pymdownx.blocks.html",
    "pymdownx.blocks.definition",
    "pymdownx.snippets",
)
MKDOCS_EXTENSION_CONFIGS: Final[dict[str, dict[str, Any]]] = {
    "toc": {"permalink": True},
    "pymdownx.arithmatex": {"generic": True},
    "pymdownx.betterem": {"smart_enable": "all"},
    "pymdownx.tabbed": {"alternate_style": True},
    "pymdownx.tasklist": {"custom_checkbox": True},
    "pymdownx.blocks.tab": {"alternate_style": True},
    "pymdownx.snippets": {"base_path": [str(FIXTURES)]},
}
MYST_EXTENSIONS: Final = (
    "colon_fence",
    "deflist",
    "dollarmath",
    "tasklist",
    "attrs_inline",
    "fieldlist",
    "substitution",
    "html_admonition",
)
#: The elements docutils wraps a heading's section in: a ``p`` inside one is still top level.
MYST_SECTIONS: Final = frozenset({"section"})


@lru_cache(maxsize=1)
def _markdown() -> Any:
    """One Python-Markdown instance with the extensions (building it takes longer than a page)."""
    import markdown

    return markdown.Markdown(extensions=list(MKDOCS_EXTENSIONS), extension_configs=MKDOCS_EXTENSION_CONFIGS)


def render_mkdocs(text: str) -> str:
    """``text`` as MkDocs with mkdocs-material's extensions renders a page's body (its front matter removed)."""
    from mkdocs.utils.meta import get_data

    source = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    body, _ = get_data(source)
    md = _markdown()
    md.reset()
    return str(md.convert(body))


def mkdocs_includes(text: str) -> tuple[str, ...]:
    """The lines pymdownx.snippets acts on (``--8<-- "file"`` and the block form), as ``"line N: text"``.

    Snippets is a preprocessor: it reads every line, in code blocks too, before
    Python-Markdown parses anything; an escaped line (``;--8<--``) is not one.
    """
    from pymdownx.snippets import SnippetPreprocessor

    found = []
    for number, line in enumerate(re.split(r"\r\n?|\n", text.removeprefix("\ufeff")), 1):
        match = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)
        if match and not match.group("escape"):
            found.append(f"line {number}: {line.strip()}")
    return tuple(found)


#: An inline literal as plain docutils writes it (no nested span: its content is escaped text).
_DOCUTILS_LITERAL: Final = re.compile(r'<span( class="docutils literal[^"]*")>([^<]*)</span>')


def render_myst_page(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` as myst-parser under docutils renders a page's body, and the files the page pulled in.

    The files are what docutils records as the page's dependencies (MyST's
    ``{include}``, docutils's ``include``, ``raw`` and ``csv-table`` with a
    file): every :class:`docutils.utils.DependencyList` records into one list
    while the page is rendered (the settings' own list is not the one passed in).
    """
    from docutils.core import publish_parts
    from docutils.utils import DependencyList
    from myst_parser.parsers.docutils_ import Parser

    pulled_in: list[str] = []
    original = DependencyList.add

    def add(self: DependencyList, *paths: str) -> None:
        pulled_in.extend(str(path) for path in paths)
        original(self, *paths)

    DependencyList.add = add
    try:
        parts = publish_parts(
            text,
            source_path=str(FIXTURES / "page.md"),
            parser=Parser(),
            writer="html5",
            settings_overrides={
                "myst_enable_extensions": list(MYST_EXTENSIONS),
                "report_level": 2,
                "halt_level": 5,
                "warning_stream": False,
                "file_insertion_enabled": True,
                "raw_enabled": True,
                "output_encoding": "unicode",
                "embed_stylesheet": False,
                "doctitle_xform": False,
            },
        )
    finally:
        DependencyList.add = original
    # Sphinx's HTML writer writes an inline literal as <code class="docutils literal">; plain docutils's
    # writes a <span>, which a reader of a Sphinx site never sees
    body = _DOCUTILS_LITERAL.sub(r"<code\1>\2</code>", str(parts["body"]))
    return body, tuple(Path(path).name for path in pulled_in)


def render_myst(text: str) -> str:
    """``text`` as myst-parser under docutils renders a page's body (HTML5 writer)."""
    return render_myst_page(text)[0]
