"""GitHub's renderer, cmark-gfm, as a reader's browser shows its output: the oracle of ``renderer: github``.

Used by ``tests/test_reader_differential_github.py``; needs PyPI ``cmarkgfm``
(:data:`CMARKGFM_VERSION`, the C library cmark-gfm 0.29.0.gfm.13 with its
extensions) and ``justhtml`` (:mod:`tests.dom_reader`). The project itself
never imports it.

Two readers, both read by :func:`tests.dom_reader.read`:

``cmark-gfm``: :func:`render_cmark`
    ``cmark_parser`` with :data:`OPTIONS` (``CMARK_OPT_UNSAFE``: raw HTML is
    passed through, as GitHub does before sanitizing; ``CMARK_OPT_FOOTNOTES``;
    ``CMARK_OPT_GITHUB_PRE_LANG``: ``<pre lang="x">``, what
    ``cmarkgfm.github_flavored_markdown_to_html`` forces) and the syntax
    extensions :data:`EXTENSIONS` attached (``table``, ``strikethrough``,
    ``autolink``, ``tagfilter``, ``tasklist``), rendered by
    ``cmark_render_html`` with the parser's extensions, which is where the
    tag filter acts: the ``<`` of ``<script``, ``<style``, ``<textarea``,
    ``<title``, ``<iframe``, ``<noframes``, ``<noembed``, ``<xmp`` and
    ``<plaintext`` (GFM 0.29 section 6.11, "Disallowed Raw HTML") becomes
    ``&lt;`` in raw HTML blocks and inline HTML alike, so the tag and what
    follows show as text. This is ``cmarkgfm.cmark.markdown_to_html_with_extensions``
    with those options, called through the package's own wrapper.
``github``: :func:`render_github`
    The same, with what github.com does around cmark-gfm, approximated:

    * **front matter**: a page whose first line is ``---`` and that has a later
      ``---`` line shows the lines in between as a table (GitHub parses the
      YAML and shows its keys and values in a table, or an error box with the
      text when the YAML is invalid); cmark-gfm alone reads ``---`` as a
      thematic break and the lines as paragraphs or a setext heading. The
      emulation shows every front-matter line as a table cell; which closing
      lines GitHub accepts (``...``?) is not known here.
    * **the sanitizer** (:func:`sanitize`): GitHub passes the HTML through an
      allowlist sanitizer before serving it. The allowlist here is the last
      public one, html-pipeline's ``SanitizationFilter.WHITELIST`` (elements,
      attributes; ``script`` removed with its content; ``section``, ``picture``
      and ``source`` added, as github.com serves footnotes and pictures with
      them; other elements not on
      the list are removed and their content kept, a ``<template>``'s too;
      comments removed; ``li`` outside a list and table parts outside a table
      unwrapped); github.com's current list is not public. Its effect on what
      a reader sees: ``hidden``, ``style``, ``class`` and ``id`` attributes
      are dropped (``<div hidden>`` shows its text), ``<template>``,
      ``<noscript>`` and unknown elements show their content, ``<input>`` and
      ``<textarea>`` disappear with their value (task-list checkboxes are
      added back by GitHub after sanitizing; they hold no text).

Known limits of both, against github.com:

* github.com's cmark-gfm may be newer than the one in ``cmarkgfm``
  (0.29.0.gfm.13): CommonMark 0.29 plus GFM, not 0.31.2 (HTML block start
  conditions, ``<!-->`` comments and a few link rules differ); the gate reads
  0.31.2, so the differential also shows those differences.
* The sanitizer is an approximation (above); after it GitHub adds anchors to
  headings, emoji, task-list checkboxes, mentions and issue references as
  links (``@quill`` becomes a link to a user: text unchanged), and a
  ``<details>`` stays closed until clicked (read as visible).
* Files are rendered as repository files (``.md``), not as comments: no hard
  line breaks at every newline (comments use ``CMARK_OPT_HARDBREAKS``).
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

import cmarkgfm
from cmarkgfm.cmark import Options
from justhtml.dom import Template, Text

from tests import dom_reader
from tests.differential import Reader

__all__ = [
    "CMARKGFM_VERSION",
    "EXTENSIONS",
    "OPTIONS",
    "READER_NAMES",
    "readers",
    "render_cmark",
    "render_github",
    "sanitize",
]

#: The PyPI package the differential pins (``.ci/run`` installs exactly this).
CMARKGFM_VERSION: Final = "2025.10.22"
OPTIONS: Final = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_FOOTNOTES | Options.CMARK_OPT_GITHUB_PRE_LANG
EXTENSIONS: Final = ("table", "strikethrough", "autolink", "tagfilter", "tasklist")
READER_NAMES: Final = ("cmark-gfm", "github")


def render_cmark(text: str) -> str:
    """``text`` rendered by cmark-gfm with GitHub's options and extensions."""
    return str(cmarkgfm.cmark.markdown_to_html_with_extensions(text, options=OPTIONS, extensions=list(EXTENSIONS)))


_FRONT_MATTER: Final = re.compile(r"---[ \t]*(?:\r\n?|\n)(.*?)(?:\r\n?|\n)---[ \t]*(?:\r\n?|\n|$)", re.DOTALL)


def render_github(text: str) -> str:
    """``text`` as github.com shows a repository file, approximately: front matter as a table, then sanitized."""
    front_matter = _FRONT_MATTER.match(text)
    table = ""
    if front_matter:
        rows = "".join(
            f"<tr><td>{html.escape(line)}</td></tr>" for line in re.split(r"\r\n?|\n", front_matter[1]) if line.strip()
        )
        table = f"<table><tbody>{rows}</tbody></table>\n"
        text = text[front_matter.end() :]
    return table + sanitize(render_cmark(text))


# --------------------------------------------------------------------------
# html-pipeline's public SanitizationFilter.WHITELIST, as data.

ALLOWED_ELEMENTS: Final = frozenset(
    [
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "h7",
        "h8",
        "br",
        "b",
        "i",
        "strong",
        "em",
        "a",
        "pre",
        "code",
        "img",
        "tt",
        "div",
        "ins",
        "del",
        "sup",
        "sub",
        "p",
        "ol",
        "ul",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "blockquote",
        "dl",
        "dt",
        "dd",
        "kbd",
        "q",
        "samp",
        "var",
        "hr",
        "ruby",
        "rt",
        "rp",
        "li",
        "tr",
        "td",
        "th",
        "s",
        "strike",
        "summary",
        "details",
        # what github.com has served since: footnotes in a <section>, <picture> with <source>
        "section",
        "picture",
        "source",
    ]
)
REMOVE_CONTENTS: Final = frozenset({"script"})
ALLOWED_ATTRIBUTES: Final[Mapping[str, frozenset[str]]] = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "longdesc"}),
    "div": frozenset({"itemscope", "itemtype"}),
    "blockquote": frozenset({"cite"}),
    "del": frozenset({"cite"}),
    "ins": frozenset({"cite"}),
    "q": frozenset({"cite"}),
}
ALLOWED_ON_ALL: Final = frozenset(
    [
        "abbr",
        "accept",
        "accept-charset",
        "accesskey",
        "action",
        "align",
        "alt",
        "axis",
        "border",
        "cellpadding",
        "cellspacing",
        "char",
        "charoff",
        "charset",
        "checked",
        "clear",
        "cols",
        "colspan",
        "color",
        "compact",
        "coords",
        "datetime",
        "dir",
        "disabled",
        "enctype",
        "for",
        "frame",
        "headers",
        "height",
        "hreflang",
        "hspace",
        "ismap",
        "label",
        "lang",
        "maxlength",
        "media",
        "method",
        "multiple",
        "name",
        "nohref",
        "noshade",
        "nowrap",
        "open",
        "prompt",
        "readonly",
        "rel",
        "rev",
        "rows",
        "rowspan",
        "rules",
        "scope",
        "selected",
        "shape",
        "size",
        "span",
        "start",
        "summary",
        "tabindex",
        "target",
        "title",
        "type",
        "usemap",
        "valign",
        "value",
        "vspace",
        "width",
        "itemprop",
    ]
)
_LISTS: Final = frozenset({"ul", "ol"})
_TABLE_PARTS: Final = frozenset({"thead", "tbody", "tfoot", "tr", "td", "th"})


def _within(node: object, names: frozenset[str]) -> bool:
    parent = getattr(node, "parent", None)
    while parent is not None:
        if getattr(parent, "name", "") in names:
            return True
        parent = getattr(parent, "parent", None)
    return False


def _clean(node: object) -> None:
    """Sanitize ``node``'s children in place (depth first, so unwrapped content is already clean)."""
    for child in list(getattr(node, "children", None) or ()):
        if isinstance(child, Text):
            continue
        name = str(getattr(child, "name", ""))
        if name.startswith("#"):  # comments, processing instructions
            node.remove_child(child)  # type: ignore[attr-defined]
            continue
        if isinstance(child, Template) and child.template_content is not None:
            for grandchild in list(child.template_content.children or ()):
                child.append_child(grandchild)
        _clean(child)
        unwrap = (
            name not in ALLOWED_ELEMENTS
            or (name == "li" and not _within(child, _LISTS))
            or (name in _TABLE_PARTS and not _within(child, frozenset({"table"})))
        )
        if name in REMOVE_CONTENTS:
            node.remove_child(child)  # type: ignore[attr-defined]
        elif unwrap:
            for grandchild in list(getattr(child, "children", None) or ()):
                node.insert_before(grandchild, child)  # type: ignore[attr-defined]
            node.remove_child(child)  # type: ignore[attr-defined]
        else:
            allowed = ALLOWED_ON_ALL | ALLOWED_ATTRIBUTES.get(name, frozenset())
            attrs = getattr(child, "attrs", None) or {}
            for attribute in [attribute for attribute in attrs if attribute not in allowed]:
                del attrs[attribute]


def sanitize(page: str) -> str:
    """``page`` through the allowlist above, serialized again (GitHub serves the sanitized HTML)."""
    root = dom_reader.fragment(page)
    _clean(root)
    return str(root.to_html(pretty=False))  # type: ignore[attr-defined]


def readers() -> tuple[Reader, ...]:
    """The two readers, in :data:`READER_NAMES` order."""
    return (
        Reader("cmark-gfm", lambda text: dom_reader.read(render_cmark, text)),
        Reader("github", lambda text: dom_reader.read(render_github, text)),
    )


def main(argv: Sequence[str]) -> int:
    """``python -m tests.github_oracle FILE...``: print what each reader shows of each file."""
    for name in argv:
        print(name)
        text = Path(name).read_bytes().decode("utf-8-sig")
        for reader in readers():
            view = reader.read(text)
            print(f"  {reader.name}: directive_lines={list(view.directive_lines)}")
            print(f"  {reader.name}: other_shaped={list(view.other_shaped)}")
            print(f"  {reader.name}: near_misses={list(view.near_misses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
