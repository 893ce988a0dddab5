"""A VitePress-like reader: markdown-it-py configured with the markdown-it plugins VitePress 1.6 adds.

For issue 29's real-docs differential (:mod:`tests.test_reader_differential_realdocs`). VitePress
itself (Vite, Vue and markdown-it in Node) is not among the oracles; this reader stands in for it on
the VitePress pages of ``tests/realdocs/vitepress/``. It renders a page as VitePress's Markdown
stage does, as far as markdown-it-py 4.3.0 and mdit-py-plugins 0.7.0 can:

* the YAML front matter removed (VitePress reads it with gray-matter);
* markdown-it with raw HTML on, GFM tables and strikethrough (VitePress starts from markdown-it's
  ``default`` preset);
* the custom containers ``::: tip``, ``info``, ``warning``, ``danger``, ``details``, ``raw``,
  ``v-pre`` and ``code-group``, each a ``<div>`` around its Markdown body (``details`` is a
  ``<details>`` in VitePress: the DOM reader counts a closed body as visible all the same);
* attribute lists (markdown-it-attrs in VitePress; mdit-py-plugins' ``attrs`` and ``attrs_block``
  here, which read ``{...}`` after inline elements and on a line above a block, not at a
  paragraph's end: the gate refuses such a brace wherever VitePress may read it).

An include line (``<!--@include: ./file.md-->``), which VitePress replaces with the file before
markdown-it runs, pulls content in: it is listed in the view's ``includes`` (the page must be
refused). What this reader cannot see: Vue's compile step (``{{ expression }}`` interpolation,
``v-if``, ``v-text``, components' templates), which the DOM reader shows as written; the
``[[toc]]`` marker and emoji shortcodes (no directive text either way).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from tests import dom_reader
from tests.differential import Reader
from tests.reader_oracle import ReaderView

__all__ = ["CONTAINERS", "INCLUDE", "readers", "render_vitepress"]

#: VitePress's custom containers (``::: name``).
CONTAINERS: Final = ("tip", "info", "warning", "danger", "details", "raw", "v-pre", "code-group")
#: VitePress's include line, replaced by the named file before markdown-it reads the page.
INCLUDE: Final = re.compile(r"^[ \t]*<!--\s*@include:\s*(.*?)\s*-->", re.MULTILINE)
_FRONT_MATTER: Final = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(?:\n|\Z)", re.DOTALL)


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
    from mdit_py_plugins.container import container_plugin

    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    for name in CONTAINERS:
        md.use(container_plugin, name=name)
    return md.use(attrs_plugin).use(attrs_block_plugin)


def render_vitepress(text: str) -> str:
    """``text`` as VitePress's Markdown stage renders a page's body (front matter removed)."""
    source = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    front = _FRONT_MATTER.match(source)
    if front:  # kept as blank lines, so line numbers stay the page's
        source = "\n" * front[0].count("\n") + source[front.end() :]
    return str(_markdown().render(source))


def read_vitepress(text: str) -> ReaderView:
    """What a reader of the VitePress page sees, and the include lines that pull content in."""
    view = dom_reader.read(render_vitepress, text)
    includes = tuple(f"include of {match[1]}" for match in INCLUDE.finditer(text))
    return (
        view
        if not includes
        else ReaderView(view.directive_lines, view.other_shaped, view.near_misses, includes=includes)
    )


def readers() -> tuple[Reader, ...]:
    return (Reader("vitepress", read_vitepress),)
