"""What a reader sees in a Markdown page, by two independent renderers, and documents to measure it on.

This module is the measurement definition of the differential test
(``tests/test_reader_differential.py``). Its oracles need markdown-it-py and
mdit-py-plugins (and linkify-it-py for the GFM preset), imported by
:func:`oracles`; its definitions and document generator, which the HTML
differentials (:mod:`tests.dom_reader`) share, need nothing installed. The
project itself never imports it.

The oracles
-----------
:data:`ORACLE_NAMES` names two renderers, built by :func:`oracles`:

* ``commonmark``: ``MarkdownIt("commonmark")``, the CommonMark 0.31.2 block
  and inline rules;
* ``gfm``: ``MarkdownIt("gfm-like")`` (tables, strikethrough, linkify) plus the
  task-list and YAML front-matter plugins, standing in for GitHub.

:func:`read` parses a document with one of them and returns a
:class:`ReaderView` of three tuples:

``directive_lines``: ``(line, text)``, 1-based source line
    A line counts when it is a whole visible line of a **top-level paragraph**
    (``paragraph_open`` at level 0, so not in a list item, block quote,
    table, heading or HTML block), that visible line is one run of plain
    ``text`` tokens (no code span, link, emphasis, raw HTML, image) equal to a
    directive (:data:`DIRECTIVE`), **and** the raw source line is exactly that
    directive. Inline tokens carry no source positions, and a code span, an
    inline HTML tag or a link can hide a line break, so visible lines cannot
    be lined up with source lines by counting. Instead the oracle probes:
    every unindented line of a top-level paragraph that is exactly a
    directive is swapped for a sentinel directive that differs only in its
    value (same character classes, so the block and inline structure cannot
    change), the document is parsed again, and a line counts when its
    sentinel shows up as such a whole visible line. An escaped ``\\@``, an
    ``&#64;``, an indented or lazily continued line renders the same text but
    fails the raw-line test; a line inside a code span that crosses lines
    passes the raw-line test but never shows as a visible line.

``other_shaped``: ``(place, text)``
    Every piece of visible text that is directive-shaped
    (:func:`is_directive_shaped`) or states a claim under any at-word
    (:func:`stated_claims`: ``@quil create_copy existing_path=overwrite``) and
    is not one of the directive lines.
    ``place`` is the path of enclosing HTML elements (``"ul>li>p"``,
    ``"table>tbody>tr>td"``, ``"h2"``, ``"p"``), with ``html`` for the visible
    text of an HTML block, ``img`` for image alt text and ``front_matter``.
    Visible text is:

    * ``text`` tokens anywhere (paragraphs, headings, list items, quotes,
      table cells, link text, emphasis, image alt text). A visible line is
      split into pieces at code spans and images; inline HTML tags, emphasis
      and link markers are transparent (``@<b>quill</b>`` reads as
      ``@quill``), which can only find more, never less;
    * the content of a ``front_matter`` token, line by line (GitHub shows YAML
      front matter as a table; TOML ``+++`` front matter is not front matter
      to either renderer, so it is ordinary paragraph text);
    * the text of an ``html_block`` as the standard library's
      :class:`html.parser.HTMLParser` tokenises it (entities decoded): data
      outside comments, declarations, processing instructions, CDATA and
      ``<template>`` elements. The CommonMark oracle also hides ``<script>``
      and ``<style>`` content. The GFM oracle applies GitHub's tag filter
      first (:data:`GFM_TAG_FILTER`: the ``<`` of ``<script``, ``<style``,
      ``<textarea>`` ... becomes ``&lt;``), so the tag and its content show
      as text. A construct left unfinished at the end of the block is
      classified by its opening (``<!--`` a comment, ``<?`` a processing
      instruction, ``<!`` a declaration, ``<`` + letter a tag: hidden), never
      by :meth:`HTMLParser.close`, whose handling differs between Python
      versions.

``near_misses``: ``(place, text)``
    Directive-shaped (or claim-stating) text a reader does not see as text: code spans, fenced
    and indented code (content and info string), inline HTML (tags and
    comments, whole), the hidden parts of HTML blocks (comments,
    declarations, processing instructions, CDATA, start tags with their
    attributes, ``<template>`` content, and in CommonMark ``<script>`` and
    ``<style>`` content), link and image destinations and titles, and link
    reference definitions (label, destination and title).

Directive-shaped text is the project's definition, implemented by
:func:`is_directive_shaped`. Lines are CommonMark lines (``\\n``, ``\\r\\n``
or a lone ``\\r`` ends one), numbered from 1; the generator never writes a
lone ``\\r``, so these are the editor lines the gate reports.

Limits of the measurement, known and accepted:

* A "visible line" is a source line as the renderer keeps it (split at soft
  and hard breaks), the project's unit; a browser joins soft-broken lines
  with a space.
* ``gfm-like`` is not GitHub. It has no tag filter (emulated above for HTML
  blocks only; text between inline ``<script>`` tags counts as visible in
  both oracles), its linkify differs from GFM's autolink extension, its
  front-matter plugin also opens at ``--- text`` and closes at ``...``, and
  its tables need a ``|`` in the header row.
* TOML ``+++`` front matter is paragraph text to both renderers, so a
  directive line inside it is a directive line here (a static-site
  generator would hide it); a gate that refuses it pays in false refusals.
* In the spec corpus the HTML tokeniser matters: malformed HTML may be split
  slightly differently by other Python versions' :class:`HTMLParser`.

The documents
-------------
:func:`generate_document` builds a realistic page from a seeded
``random.Random``: prose (emphasis, code spans, some crossing a line, ``<kbd>``,
entities, reference links, tabs), headings, nested bullet and ordered lists
with fenced code and task items, block quotes with lazy continuation lines,
fenced code (Python with decorators, text blocks showing directive examples),
indented code, HTML badges, comments, ``<details>``, ``<div>``, tables,
YAML or TOML front matter, link reference definitions, CRLF line endings.
Each document carries 1-3 directives. :data:`REALISTIC_SHARE` of the
documents hold exactly one directive, as its own paragraph or as a line of a
prose paragraph; the others place their directives by :data:`PLACEMENTS`
(inside lists, quotes, headings, table cells, HTML, comments, code, front
matter; after ``&nbsp;``, ``&#8203;``, U+200B, an empty code span or
``[]()``; escaped; as ``&#64;``; indented; as lazy continuation lines; as
setext heading text; after a table; in a multi-line link title or HTML tag;
in a code span that crosses lines); the adversarial documents take turns at
their first placement, so each placement shows up in any few hundred
documents. Values are random, so some documents contradict themselves. Each
document records the :data:`CONSTRUCTS` it holds and its placements.

The placements and context blocks are a value, :class:`Rules`:
:data:`MARKDOWN_RULES` (the above: the markdown-it test's documents, so its
figures stand) and :data:`HTML_RULES`, which the HTML differentials draw from:
every placement above plus :data:`HTML_PLACEMENTS`, issue 15's holes (the
elements GitHub's tag filter shows as text, before a directive as HTML blocks
and inline; raw HTML opened inside a paragraph, ``x <template>``; elements a
browser keeps open across blocks, ``<div><pre>``, ``<blockquote>``, ``<ul>``,
``<h1>``, ``<a>``, ``<code>``, ``<div hidden>``, ``<details>``, with and
without their end tag; a directive beside the same key under a misspelt
namespace, ``@quil``; mentions, ``Ping @quill on Slack``; trailing spaces and
tabs), and prose that sometimes holds a mention (construct ``mention``).
:func:`stated_claims` and :func:`is_mention` are issue 15's readings of
directive-shaped text: a claim stated under any at-word, and a mention that
states nothing.

:func:`spec_documents` injects a directive before and after every example of
the CommonMark spec (with and without a blank line between) and, for
examples of two lines or more, between its middle lines.
"""

from __future__ import annotations

import html
import itertools
import json
import os
import random
import re
import string
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

if TYPE_CHECKING:  # imported by oracles(): the definitions and the generator need no renderer
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = [
    "CONSTRUCTS",
    "DIRECTIVE",
    "GRAMMAR",
    "HTML_PLACEMENTS",
    "HTML_RULES",
    "MARKDOWN_RULES",
    "NAMESPACE",
    "ORACLE_NAMES",
    "PLACEMENTS",
    "PRODUCT",
    "SPEC_TEXT",
    "GeneratedDocument",
    "Oracle",
    "ReaderView",
    "Rules",
    "generate_document",
    "generate_documents",
    "is_directive_shaped",
    "is_mention",
    "lenient_claims",
    "oracles",
    "parse_spec_text",
    "read",
    "spec_documents",
    "spec_examples",
    "stated_claims",
]

# --------------------------------------------------------------------------
# The grammar of the measured documents (Quill).

NAMESPACE: Final = "quill"
PRODUCT: Final = "Quill"
GRAMMAR: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = MappingProxyType(
    {
        "create_copy": MappingProxyType({"existing_path": ("refuse", "overwrite"), "close_required": ("yes", "no")}),
    }
)
_TOKEN: Final = "[a-z][a-z0-9_]*"
#: A directive, exactly: ``@<namespace> <operation> <key>=<value>``, single spaces.
DIRECTIVE: Final = re.compile(rf"@{NAMESPACE} ({_TOKEN}) ({_TOKEN})=({_TOKEN})")

# --------------------------------------------------------------------------
# Directive-shaped text (the project's definition).

AT_SIGNS: Final = frozenset("@\uff20\ufe6b")
#: Characters that render as nothing beyond categories Cf, Mn and Me.
BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
INVISIBLE_CATEGORIES: Final = frozenset({"Cf", "Mn", "Me"})
#: Emphasis markup skipped between the namespace's letters and after it.
MARKUP: Final = frozenset("_*~")
#: A namespace followed by one of these is a longer word (``@quill.dev``, ``@quill-bot``).
WORD_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_.-")
#: ``@quill <op> <key>=<value>`` read generously, in text already NFKC-folded and without ``*``/``~``:
#: underscores inside the namespace, any spacing.
_LENIENT: Final = re.compile("@" + "_*".join(NAMESPACE) + r"[\s_]+(\w+)\s+(\w+)\s*=\s*(\w+)", re.ASCII)


def visible_form(text: str) -> str:
    """``text`` without the characters that render as nothing."""
    return "".join(
        ch for ch in text if ch not in BLANK_LETTERS and unicodedata.category(ch) not in INVISIBLE_CATEGORIES
    )


def _namespace_at(text: str, pos: int) -> bool:
    """Whether :data:`NAMESPACE` starts at ``pos`` of ``text`` and is not the start of a longer word.

    Each character is compared after NFKC and case folding; ``_ * ~``
    between its letters and right after it are skipped.
    """
    matched = ""
    while matched != NAMESPACE:
        if pos == len(text):
            return False
        char = text[pos]
        pos += 1
        if matched and char in MARKUP:
            continue
        matched += unicodedata.normalize("NFKC", char).casefold()
        if not NAMESPACE.startswith(matched):
            return False
    while pos < len(text) and text[pos] in MARKUP:
        pos += 1
    return pos == len(text) or text[pos] not in WORD_CHARS


def is_directive_shaped(text: str) -> bool:
    """Whether a piece of text holds an at sign followed by the namespace, as a reader would read it."""
    clean = visible_form(text)
    return any(char in AT_SIGNS and _namespace_at(clean, at + 1) for at, char in enumerate(clean))


def lenient_claims(text: str) -> set[tuple[str, str, str]]:
    """``(operation, key, value)`` of every directive a reader could read in ``text``, however spaced or cased."""
    folded = unicodedata.normalize("NFKC", visible_form(text)).casefold()
    return {(match[1], match[2], match[3]) for match in _LENIENT.finditer(folded.replace("*", "").replace("~", ""))}


def _folded(text: str) -> str:
    """``text`` as the shape checks compare it: visible characters, NFKC, case-folded, without ``*`` and ``~``."""
    return unicodedata.normalize("NFKC", visible_form(text)).casefold().replace("*", "").replace("~", "")


#: ``@<any word> <operation> <key>=<value>`` for an operation and key of :data:`GRAMMAR`, however spaced.
_STATED: Final = re.compile(
    r"@\S*\s+("
    + "|".join(map(re.escape, GRAMMAR))
    + r")\s+("
    + "|".join(sorted({re.escape(key) for keys in GRAMMAR.values() for key in keys}))
    + r")\s*=\s*(\w+)",
    re.ASCII,
)


def stated_claims(text: str) -> set[tuple[str, str, str]]:
    """``(operation, key, value)`` stated in ``text`` under any at-word (issue 15: ``@quil create_copy k=v``).

    A reader who sees ``@quil create_copy existing_path=overwrite`` reads the
    value whatever the namespace's spelling; only an operation of the grammar
    with one of its keys counts (``@app.get("/")`` does not).
    """
    return {
        (match[1], match[2], match[3]) for match in _STATED.finditer(_folded(text)) if match[2] in GRAMMAR[match[1]]
    }


def is_mention(text: str) -> bool:
    """Directive-shaped text that states nothing: no known operation after the namespace, no ``=`` (issue 15).

    ``Questions? Ping @quill on Slack`` and ``https://github.com/@quill`` are
    mentions; ``@quill create_copy`` is not (an operation follows).
    """
    clean = visible_form(text)
    at = next((index for index, char in enumerate(clean) if char in AT_SIGNS and _namespace_at(clean, index + 1)), None)
    if at is None or "=" in _folded(clean):
        return False
    return not any(word in GRAMMAR for word in re.findall(r"\w+", _folded(clean[at + 1 :]), re.ASCII))


# --------------------------------------------------------------------------
# The oracles.

ORACLE_NAMES: Final = ("commonmark", "gfm")
#: GitHub's "disallowed raw HTML": the ``<`` of these tags is escaped, so tag and content show as text.
GFM_TAG_FILTER: Final = re.compile(
    r"<(?=/?(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext)(?:[\s/>]|$))", re.IGNORECASE
)
#: Elements whose content the CommonMark oracle hides (the browser runs or applies it).
HIDDEN_RAW_TEXT: Final = frozenset({"script", "style"})


class Oracle(NamedTuple):
    """A renderer and how it treats raw HTML."""

    name: str
    md: MarkdownIt
    #: GitHub's tag filter: ``<script>``, ``<style>``, ``<textarea>``... show as text.
    tag_filter: bool


def oracles() -> tuple[Oracle, ...]:
    """The two renderers, in :data:`ORACLE_NAMES` order."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    gfm = MarkdownIt("gfm-like").use(tasklists_plugin).use(front_matter_plugin)
    return (Oracle("commonmark", MarkdownIt("commonmark"), False), Oracle("gfm", gfm, True))


@dataclass(frozen=True)
class ReaderView:
    """What one renderer shows a reader of one document (see the module docstring)."""

    directive_lines: tuple[tuple[int, str], ...]
    other_shaped: tuple[tuple[str, str], ...]
    near_misses: tuple[tuple[str, str], ...]
    #: Why the site cannot build the page (an MDX compile error), else None: the page shows nothing.
    build_error: str | None = None
    #: Lines that pull in content from elsewhere (a snippets line, a MyST include, an MDX import of a page).
    includes: tuple[str, ...] = ()

    @property
    def must_refuse(self) -> bool:
        """Whether the gate must refuse the page whatever it shows: a build error, or content pulled in."""
        return self.build_error is not None or bool(self.includes)

    def values(self) -> dict[tuple[str, str], set[str]]:
        """``(operation, key) -> values`` a reader sees: directive lines and directive-like other text."""
        shown: dict[tuple[str, str], set[str]] = {}
        for text in [text for _, text in self.directive_lines] + [text for _, text in self.other_shaped]:
            for operation, key, value in lenient_claims(text) | stated_claims(text):
                shown.setdefault((operation, key), set()).add(value)
        return shown


def source_lines(text: str) -> list[str]:
    """``text`` split at CommonMark line endings (``\\n``, ``\\r\\n``, lone ``\\r``), as markdown-it numbers them."""
    return re.split(r"\r\n?|\n", text)


def visible_lines(children: Sequence[Token]) -> Iterator[list[Token]]:
    """The inline tokens of each rendered line: ``children`` split at soft and hard breaks."""
    line: list[Token] = []
    for token in children:
        if token.type in ("softbreak", "hardbreak"):
            yield line
            line = []
        else:
            line.append(token)
    yield line


def plain_text(line: Sequence[Token]) -> str | None:
    """The line's text when it is one run of ``text`` tokens only, else None."""
    if line and all(token.type == "text" for token in line):
        return "".join(token.content for token in line)
    return None


def _line_range(token: Token) -> range:
    """0-based source lines of a block token (``map``)."""
    start, end = token.map or (0, 0)
    return range(start, end)


def _top_level_inlines(tokens: Sequence[Token]) -> Iterator[Token]:
    """The inline token of every top-level paragraph."""
    for opener, inline in itertools.pairwise(tokens):
        if opener.type == "paragraph_open" and opener.level == 0:
            yield inline


def _sentinel(number: int) -> str:
    """A value token unique to ``number``, letters only: ``zqa``, ``zqb``, ... ``zqba``."""
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters = chr(ord("a") + digit) + letters
        if not number:
            return "zq" + letters


def directive_lines(oracle: Oracle, lines: Sequence[str], tokens: Sequence[Token]) -> list[int]:
    """0-based indexes of the source lines a reader sees as directive lines (the probe, see module doc)."""
    candidates = [
        (index, match)
        for inline in _top_level_inlines(tokens)
        for index in _line_range(inline)
        if (match := DIRECTIVE.fullmatch(lines[index].rstrip(" \t")))
    ]  # a reader sees no trailing space
    if not candidates:
        return []
    probe = list(lines)
    sentinels = {}
    for number, (index, match) in enumerate(candidates):
        probe[index] = f"@{NAMESPACE} {match[1]} {match[2]}={_sentinel(number)}"
        sentinels[probe[index]] = index
    shown = [
        plain_text(line)
        for inline in _top_level_inlines(oracle.md.parse("\n".join(probe)))
        for line in visible_lines(inline.children or ())
    ]
    return sorted(sentinels[text] for text in shown if text in sentinels)


class _HtmlText(HTMLParser):
    """Splits an HTML block into visible text and hidden parts (see the module docstring)."""

    def __init__(self, hide_raw_text: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.hide_raw_text = hide_raw_text
        self.visible: list[str] = []
        self.hidden: list[str] = []
        self._template_depth = 0
        self._raw_text_tag: str | None = None

    def _hiding(self) -> bool:
        return self._template_depth > 0 or self._raw_text_tag is not None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden.append(self.get_starttag_text() or "")
        if tag == "template":
            self._template_depth += 1
        elif tag in HIDDEN_RAW_TEXT and self.hide_raw_text:
            self._raw_text_tag = tag

    def handle_startendtag(self, tag: str, attrs: object) -> None:
        self.hidden.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "template" and self._template_depth:
            self._template_depth -= 1
        elif tag == self._raw_text_tag:
            self._raw_text_tag = None

    def handle_data(self, data: str) -> None:
        (self.hidden if self._hiding() else self.visible).append(data)

    def handle_comment(self, data: str) -> None:
        self.hidden.append(data)

    def handle_decl(self, decl: str) -> None:
        self.hidden.append(decl)

    def handle_pi(self, data: str) -> None:
        self.hidden.append(data)

    def unknown_decl(self, data: str) -> None:
        self.hidden.append(data)

    def finish(self) -> None:
        """Classify what :meth:`feed` left unparsed at the end of the block (never calls ``close``)."""
        rest = self.rawdata
        if self._hiding() or re.match(r"<[!?/a-zA-Z]", rest):
            self.hidden.append(rest)
        elif rest:
            self.visible.append(html.unescape(rest))


def html_block_text(content: str, tag_filter: bool) -> tuple[str, list[str]]:
    """(visible text, hidden parts) of an HTML block's raw content."""
    parser = _HtmlText(hide_raw_text=not tag_filter)
    parser.feed(GFM_TAG_FILTER.sub("&lt;", content) if tag_filter else content)
    parser.finish()
    return "".join(parser.visible), parser.hidden


def _inside(place: str, leaf: str) -> str:
    """The place of ``leaf`` within ``place`` (``"ul>li>p"`` + ``"code"``)."""
    return f"{place}>{leaf}" if place else leaf


class _Collector:
    """Accumulates the shaped pieces of one document while its tokens are walked."""

    def __init__(self, confirmed: Counter[tuple[int, str]]) -> None:
        self.confirmed = confirmed
        self.other_shaped: list[tuple[str, str]] = []
        self.near_misses: list[tuple[str, str]] = []

    def seen(self, place: str, text: str) -> None:
        for piece in text.split("\n"):
            if is_directive_shaped(piece) or stated_claims(piece):
                self.other_shaped.append((place, piece))

    def hidden(self, place: str, text: str) -> None:
        for piece in text.split("\n"):
            if is_directive_shaped(piece) or stated_claims(piece):
                self.near_misses.append((place, piece))

    def inline(self, place: str, children: Sequence[Token], paragraph: int | None) -> None:
        """Visible lines of an inline token; ``paragraph`` is the first line of a top-level paragraph."""
        for line in visible_lines(children):
            text = plain_text(line)
            if paragraph is not None and text is not None and self.confirmed[paragraph, text]:
                self.confirmed[paragraph, text] -= 1
                continue
            pieces = [""]
            for token in line:
                if token.type == "text":
                    pieces[-1] += token.content
                elif token.type == "code_inline":
                    self.hidden(_inside(place, "code"), token.content)
                    pieces.append("")
                elif token.type == "html_inline":
                    self.hidden(_inside(place, "html"), token.content)
                elif token.type == "image":
                    self.inline(_inside(place, "img"), token.children or (), None)
                    self._link_target(_inside(place, "img"), token)
                    pieces.append("")
                elif token.type == "link_open":
                    self._link_target(_inside(place, "a"), token)
            for piece in pieces:
                self.seen(place, piece)

    def _link_target(self, place: str, token: Token) -> None:
        for name in ("href", "src", "title"):
            self.hidden(place, str(token.attrs.get(name, "")))


def read(oracle: Oracle, text: str) -> ReaderView:
    """What ``oracle`` shows a reader of ``text``: directive lines, other shaped text, near-misses.

    A byte-order mark at the very start is an encoding signature, not text:
    cmark (GitHub's renderer) and browsers drop it, markdown-it does not, so
    it is dropped here before rendering.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = source_lines(text)
    env: dict[str, Any] = {}
    tokens = oracle.md.parse(text, env)
    found = directive_lines(oracle, lines, tokens)
    paragraph_of = {
        index: _line_range(inline).start for inline in _top_level_inlines(tokens) for index in _line_range(inline)
    }
    collector = _Collector(Counter((paragraph_of[index], lines[index].rstrip(" \t")) for index in found))
    stack: list[str] = []
    for token in tokens:
        if token.nesting == 1:
            stack.append(token.tag)
        elif token.nesting == -1:
            stack.pop()
        place = ">".join(stack)
        if token.type == "inline":
            collector.inline(place, token.children or (), _line_range(token).start if stack == ["p"] else None)
        elif token.type in ("fence", "code_block"):
            collector.hidden(_inside(place, "pre"), token.info + "\n" + token.content)
        elif token.type == "html_block":
            visible, hidden = html_block_text(token.content, oracle.tag_filter)
            collector.seen(_inside(place, "html"), visible)
            for part in hidden:
                collector.hidden(_inside(place, "html"), part)
        elif token.type == "front_matter":
            collector.seen("front_matter", token.content)
    duplicates = [(definition["label"], definition) for definition in env.get("duplicate_refs", [])]
    for label, definition in [*env.get("references", {}).items(), *duplicates]:
        collector.hidden("reference", f"{label}\n{definition['href']}\n{definition['title']}")
    return ReaderView(
        tuple((index + 1, lines[index].rstrip(" \t")) for index in found),
        tuple(collector.other_shaped),
        tuple(collector.near_misses),
    )


# --------------------------------------------------------------------------
# The document generator.

#: Share of generated documents that are realistic pages with exactly one directive paragraph or line.
REALISTIC_SHARE: Final = 0.65
#: Share of generated documents written with CRLF line endings.
CRLF_SHARE: Final = 0.1


@dataclass(frozen=True)
class GeneratedDocument:
    """A generated page: its text, the constructs it holds and where its directives went."""

    text: str
    constructs: frozenset[str]
    placements: tuple[str, ...]
    realistic: bool


class _Block(NamedTuple):
    text: str
    constructs: frozenset[str]


#: Each call returns a fresh random directive.
Directives = Callable[[], str]

SENTENCES: Final = (
    "Quill copies a document to a new path and leaves the original untouched.",
    "The copy runs in the background, so the call returns at once.",
    "Paths are resolved against the workspace root.",
    "Large files are streamed in chunks of 64 KiB.",
    "Ask in the #quill channel or mail support@quill.dev for help.",
    "Thanks to @quilljs-bot and @quill_team for the release notes.",
    "Version 1.0 is the long-term support release.",
    "Every copy is recorded in the audit log.",
    "Nothing is written until the source has been read completely.",
)
INLINE_SENTENCES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "emphasis": (
            "Copies are *never* made in place.",
            "**Note:** the destination folder must exist.",
            "The second argument is _optional_ in 1.0.",
            "~~Links are followed.~~ Links are copied as links.",
        ),
        "code_span": (
            "Call `quill.create_copy(src, dst)` to copy a file.",
            "The result is a `CopyResult` with a `path`.",
            "Use ``dst=`tmp` `` to copy into a scratch folder.",
        ),
        "code_span_multiline": (
            "The call `quill.create_copy(src,\ndst)` returns the new path.",
            "Set it with `quill.configure(\nclose_required=True)` first.",
        ),
        "inline_html": (
            "Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to cancel a copy.",
            "The command line flag is <kbd>--force</kbd>.",
        ),
        "entity": (
            "Quill &copy; 2024 &mdash; all rights reserved.",
            "Paths like &lt;dst&gt; are resolved first.",
            "Copy&nbsp;mode is the default &amp; cannot be changed.",
        ),
        "reference_link": ("See [the guide][quill-guide] for details.", "The [API reference][api] lists every option."),
        "tab": ("Sizes are reported in bytes\tand rounded down.", "Columns:\tsource\tdestination."),
    }
)
LIST_ITEMS: Final = (
    "Copy a file",
    "Copy a folder",
    "Check the destination",
    "Close the handle",
    "`existing_path` decides what happens to an existing file",
    "Read the audit log",
)
TITLES: Final = ("Copying files", "Quill 1.0 guide", "Options", "Behaviour", "Troubleshooting", "Examples")
PYTHON_SNIPPETS: Final = (
    "from quill import App\n\napp = App()\n\n\n"
    '@app.get("/")\ndef index():\n    return app.create_copy("a.txt", "b.txt")',
    "@dataclass(frozen=True)\nclass Options:\n    overwrite: bool = False",
    "@quill.on_copy\ndef audit(event):\n    log(event.path)",
    "@retry(times=3)\n@timed\ndef copy(src, dst):\n    return quill.create_copy(src, dst)",
)
SHELL_SNIPPETS: Final = ("pip install quill", "quill copy a.txt b.txt --force", "quill --version")


def random_directive(rng: random.Random) -> str:
    """A directive with a random key (``existing_path`` more often) and a random allowed value."""
    keys = GRAMMAR["create_copy"]
    key = "existing_path" if rng.random() < 0.7 else "close_required"
    return f"@{NAMESPACE} create_copy {key}={rng.choice(keys[key])}"


def _indent(text: str, width: int) -> str:
    return "\n".join(" " * width + line if line else line for line in text.split("\n"))


def _fence_text(rng: random.Random, width: int = 0) -> tuple[str, set[str]]:
    """A fenced code block (backticks or tildes): Python with decorators, shell, or directive examples."""
    tilde = rng.random() < 0.3
    kind = rng.choice(("python", "python", "sh", "text"))
    constructs = {"fence_tilde" if tilde else "fence_backtick"}
    if kind == "python":
        body = rng.choice(PYTHON_SNIPPETS)
        constructs.add("decorators")
    elif kind == "sh":
        body = rng.choice(SHELL_SNIPPETS)
    else:
        body = "\n".join(random_directive(rng) for _ in range(rng.randint(1, 2)))
        constructs.add("fence_directive_example")
    fence = ("~" if tilde else "`") * rng.choice((3, 3, 4))
    return _indent(f"{fence}{kind}\n{body}\n{fence}", width), constructs


def _prose(rng: random.Random, inline: Mapping[str, tuple[str, ...]] = INLINE_SENTENCES) -> _Block:
    """A paragraph of a few sentences, some with inline constructs, broken into lines between sentences."""
    constructs = {"prose"}
    sentences = rng.sample(SENTENCES, rng.randint(1, 3))
    for name, options in inline.items():
        if rng.random() < 0.12:
            sentences.insert(rng.randrange(len(sentences) + 1), rng.choice(options))
            constructs.add(name)
    text = sentences[0]
    for sentence in sentences[1:]:
        text += rng.choice((" ", "\n")) + sentence
    return _Block(text, frozenset(constructs))


def _heading(rng: random.Random) -> _Block:
    title = rng.choice(TITLES)
    if rng.random() < 0.3:
        return _Block(f"{title}\n{rng.choice('=-') * rng.randint(3, len(title))}", frozenset({"setext_heading"}))
    hashes = "#" * rng.randint(1, 4)
    closing = f" {hashes}" if rng.random() < 0.2 else ""
    return _Block(f"{hashes} {title}{closing}", frozenset({"atx_heading"}))


def _list(rng: random.Random) -> _Block:
    """A bullet or ordered list; items may be tasks, hold a nested list or a fenced block (a loose list)."""
    ordered = rng.random() < 0.4
    constructs = {"ordered_list" if ordered else "bullet_list"}
    bullet, delimiter = rng.choice("-*+"), rng.choice(".)")
    items = []
    for number in range(1, rng.randint(2, 4) + 1):
        marker = f"{number}{delimiter}" if ordered else bullet
        text = rng.choice(LIST_ITEMS)
        if rng.random() < 0.2:
            text = f"[{rng.choice(' x')}] {text}"
            constructs.add("task_list")
        width = len(marker) + 1
        item = f"{marker} {text}"
        if rng.random() < 0.25:
            item += "\n" + _indent(f"- {rng.choice(LIST_ITEMS)}\n- {rng.choice(LIST_ITEMS)}", width)
            constructs.add("nested_list")
        elif rng.random() < 0.25:
            fence, fence_constructs = _fence_text(rng, width)
            item += "\n\n" + fence
            constructs |= fence_constructs | {"list_fence"}
        elif rng.random() < 0.1:
            item = f"{marker}\t{text}"
            constructs.add("tab")
        items.append(item)
    loose = any("\n\n" in item for item in items)
    return _Block(("\n\n" if loose else "\n").join(items), frozenset(constructs))


def _block_quote(rng: random.Random) -> _Block:
    constructs = {"block_quote"}
    lines = ["> **Note:** " + rng.choice(SENTENCES)]
    if rng.random() < 0.5:
        lines.append(rng.choice(("> ", "")) + rng.choice(SENTENCES))
        if not lines[-1].startswith(">"):
            constructs.add("lazy_continuation")
    return _Block("\n".join(lines), frozenset(constructs))


def _fence(rng: random.Random) -> _Block:
    text, constructs = _fence_text(rng)
    return _Block(text, frozenset(constructs))


def _indented_code(rng: random.Random) -> _Block:
    """An introducing sentence (which ends any list above), then indented code, some lines tab-indented."""
    tab = rng.random() < 0.3
    code = "\n".join(
        ("\t" if tab and line else "    ") + line if line else "" for line in rng.choice(PYTHON_SNIPPETS).split("\n")
    )
    constructs = {"indented_code", "decorators"} | ({"tab"} if tab else set())
    return _Block(f"For example:\n\n{code}", frozenset(constructs))


def _html(rng: random.Random) -> _Block:
    kind = rng.choice(("html_badge", "html_comment", "html_details", "html_div"))
    if kind == "html_badge":
        text = (
            '<p align="center">\n'
            '  <img src="https://img.shields.io/badge/quill-1.0-blue.svg" alt="Quill 1.0">\n'
            '  <a href="https://ci.quill.example"><img src="https://ci.quill.example/badge.svg" alt="CI"></a>\n'
            "</p>"
        )
    elif kind == "html_comment":
        text = rng.choice(
            (
                "<!-- TODO: document the 2.0 behaviour -->",
                "<!--\nTODO: screenshots\n-->",
                f"<!--\n{random_directive(rng)}\n(enable when 2.0 ships)\n-->",
            )
        )
    elif kind == "html_details":
        text = f"<details>\n<summary>Advanced options</summary>\n\n{rng.choice(SENTENCES)}\n\n</details>"
    else:
        text = '<div class="warning">\n<b>Warning:</b> overwriting cannot be undone.\n</div>'
    return _Block(text, frozenset({kind}))


def _table(rng: random.Random) -> _Block:
    delimiter = rng.choice(("| --- | --- |", "|:---|:---:|", "|---|---|"))
    rows = ["| `existing_path` | `refuse`, `overwrite` |", "| `close_required` | `yes` \\| `no` |"]
    return _Block(
        "\n".join(["| Key | Values |", delimiter, *rng.sample(rows, rng.randint(1, 2))]), frozenset({"table"})
    )


def _references(rng: random.Random) -> _Block:
    definitions = [
        '[quill-guide]: https://docs.quill.example/1.0/guide "Quill guide"',
        "[api]: <https://docs.quill.example/1.0/api>",
    ]
    return _Block("\n".join(rng.sample(definitions, rng.randint(1, 2))), frozenset({"link_reference_definition"}))


def _front_matter(rng: random.Random) -> _Block:
    if rng.random() < 0.55:
        return _Block(
            "---\ntitle: Copying files\nversion: 1.0\ntags: [quill, files]\n---", frozenset({"front_matter_yaml"})
        )
    return _Block('+++\ntitle = "Copying files"\nweight = 10\n+++', frozenset({"front_matter_toml"}))


CONTEXT_BLOCKS: Final = (
    _prose,
    _prose,
    _prose,
    _heading,
    _list,
    _list,
    _block_quote,
    _fence,
    _fence,
    _indented_code,
    _html,
    _html,
    _table,
    _references,
)
#: Every construct the generator flags; each should appear in a fair share of documents.
CONSTRUCTS: Final = (
    "prose",
    "atx_heading",
    "setext_heading",
    "bullet_list",
    "ordered_list",
    "nested_list",
    "list_fence",
    "task_list",
    "block_quote",
    "lazy_continuation",
    "fence_backtick",
    "fence_tilde",
    "decorators",
    "fence_directive_example",
    "indented_code",
    "html_badge",
    "html_comment",
    "html_details",
    "html_div",
    "inline_html",
    "table",
    "front_matter_yaml",
    "front_matter_toml",
    "link_reference_definition",
    "entity",
    "code_span",
    "code_span_multiline",
    "emphasis",
    "reference_link",
    "tab",
    "crlf",
)


def _one_of(*options: str) -> Callable[[random.Random, Directives], str]:
    """A placement written as templates; ``{d}`` is a fresh directive, ``{s}`` a sentence."""

    def place(rng: random.Random, directive: Directives) -> str:
        template = rng.choice(options)
        while "{d}" in template:
            template = template.replace("{d}", directive(), 1)
        return template.replace("{s}", rng.choice(SENTENCES))

    return place


#: Where an adversarial document puts a directive: placement name -> text builder.
PLACEMENTS: Final[Mapping[str, Callable[[random.Random, Directives], str]]] = MappingProxyType(
    {
        "own_paragraph": _one_of("{d}"),
        "in_prose": _one_of("{s}\n{d}", "{d}\n{s}", "{s}\n{d}\n{s}"),
        "adjacent_lines": _one_of("{d}\n{d}", "{s}\n{d}\n{d}"),
        "list_item": _one_of("- {d}", "1. {d}", "- [ ] {d}", "* Options\n  - {d}", "- Behaviour:\n\n  {d}"),
        "block_quote": _one_of("> {d}", "> **Note**\n>\n> {d}"),
        "heading": _one_of("## {d}", "# {d} #"),
        "table_cell": _one_of("| Setting | Directive |\n| --- | --- |\n| copy | {d} |"),
        "html_block": _one_of(
            "<div>\n{d}\n</div>",
            '<p align="center">\n{d}\n</p>',
            "<details>\n<summary>Behaviour</summary>\n{d}\n</details>",
            "<script>\n{d}\n</script>",
        ),
        "html_comment": _one_of("<!--\n{d}\n-->", "<!-- {d} -->", "{s} <!--\n{d}\n--> More text."),
        "code_span": _one_of("Write `{d}` on a line of its own."),
        "fence": _one_of("```text\n{d}\n```", "~~~\n{d}\n~~~"),
        "indented_code": _one_of("For example:\n\n    {d}"),
        "front_matter": _one_of("---\ntitle: Copying files\n{d}\n---", "+++\n{d}\n+++"),
        "after_nbsp": _one_of("&nbsp;{d}"),
        "after_zwsp_entity": _one_of("&#8203;{d}"),
        "after_invisible": _one_of("\u200b{d}", "\u200b{d}", "\u2060{d}", "\ufeff{d}", "\u3164{d}"),
        "after_empty_code_span": _one_of("` `{d}"),
        "after_empty_link": _one_of("[](){d}"),
        "escaped": _one_of("\\{d}"),
        "entity_at": _one_of("&#64;{d}", "&#x40;{d}", "&commat;{d}"),
        "indented": _one_of(" {d}", "  {d}", "   {d}"),
        "lazy_list_item": _one_of("- Copy a file\n{d}", "1. Copy a file\n{d}"),
        "lazy_block_quote": _one_of("> {s}\n{d}"),
        "mid_line": _one_of("Set {d} in the page header."),
        "setext_heading": _one_of("{d}\n---", "{d}\n==="),
        "after_table": _one_of("| Key | Value |\n| --- | --- |\n| existing_path | see below |\n{d}"),
        "link_title": _one_of(
            '[migration]: https://docs.quill.example/2.0/migration "The 2.0 pages say\n{d}\ninstead"'
        ),
        "html_tag": _one_of('<img src="badge.svg" alt="Quill\n{d}\nbadge">', '<div title="note\n{d}\n">\n</div>'),
        "code_span_crossing": _one_of("The 2.0 pages write `\n{d}\n` instead."),
    }
)
#: Placements that must begin the document (at most one per document).
_AT_START: Final = frozenset({"front_matter"})
#: Placements that hold two directives; every other holds one.
_TWO_DIRECTIVES: Final = frozenset({"adjacent_lines"})
MAX_DIRECTIVES: Final = 3


def _directive_count(placements: Sequence[str]) -> int:
    return sum(2 if name in _TWO_DIRECTIVES else 1 for name in placements)


class Rules(NamedTuple):
    """What the generator draws from: placements, context blocks, and the constructs they flag."""

    placements: Mapping[str, Callable[[random.Random, Directives], str]]
    context_blocks: tuple[Callable[[random.Random], _Block], ...]
    constructs: tuple[str, ...]


#: The markdown-it differential's documents (its figures in ``reference/dev/differential.md`` are for these).
MARKDOWN_RULES: Final = Rules(PLACEMENTS, CONTEXT_BLOCKS, CONSTRUCTS)


def _adversarial_placements(rng: random.Random, first: str, rules: Rules = MARKDOWN_RULES) -> list[str]:
    """``first``, then random placements (own paragraphs more often) up to 1-3 directives in all."""
    placements = [first]
    total = rng.randint(_directive_count(placements), MAX_DIRECTIVES)
    while _directive_count(placements) < total:
        room = total - _directive_count(placements)
        options = [
            name
            for name in rules.placements
            if _directive_count([name]) <= room and not (name in _AT_START and name in placements)
        ]
        placements.append(rng.choice(options + ["own_paragraph"] * 4))
    return placements


def generate_document(rng: random.Random, placement: str | None, rules: Rules = MARKDOWN_RULES) -> GeneratedDocument:
    """A page of context blocks with directives placed in it.

    ``placement=None`` makes a realistic page: exactly one directive, as its own
    paragraph (mostly) or a line of a prose paragraph. Otherwise ``placement``
    is the first placement of 1-3 directives (:func:`_adversarial_placements`).
    """
    blocks = [rng.choice(rules.context_blocks)(rng) for _ in range(rng.randint(3, 9))]
    if placement is None:
        placements = ["own_paragraph" if rng.random() < 0.85 else "in_prose"]
    else:
        placements = _adversarial_placements(rng, placement, rules)
    texts = [block.text for block in blocks]
    for name in placements:
        if name not in _AT_START:
            texts.insert(rng.randrange(len(texts) + 1), rules.placements[name](rng, lambda: random_directive(rng)))
    if rng.random() < 0.35:
        texts.insert(0, _heading(rng).text)
    constructs = set().union(*(block.constructs for block in blocks))
    at_start = [name for name in placements if name in _AT_START]
    if at_start:
        texts.insert(0, rules.placements[at_start[0]](rng, lambda: random_directive(rng)))
    elif rng.random() < 0.25:
        front_matter = _front_matter(rng)
        texts.insert(0, front_matter.text)
        constructs |= front_matter.constructs
    text = "\n\n".join(texts) + "\n"
    if rng.random() < CRLF_SHARE:
        text = text.replace("\n", "\r\n")
        constructs.add("crlf")
    return GeneratedDocument(text, frozenset(constructs), tuple(placements), placement is None)


def generate_documents(seed: int, count: int, rules: Rules = MARKDOWN_RULES) -> list[GeneratedDocument]:
    """``count`` documents from ``random.Random(seed)``; adversarial ones take turns at the first placement."""
    rng = random.Random(seed)
    names = list(rules.placements)
    documents, turn = [], 0
    for _ in range(count):
        placement = None
        if rng.random() >= REALISTIC_SHARE:
            placement, turn = names[turn % len(names)], turn + 1
        documents.append(generate_document(rng, placement, rules))
    return documents


# --------------------------------------------------------------------------
# The HTML differentials' additions (issue 15's holes), drawn only under HTML_RULES.

#: GitHub's tag filter escapes these tags' ``<`` (GFM 6.11, "Disallowed Raw HTML").
TAG_FILTERED: Final = ("script", "style", "textarea", "title", "iframe", "noframes", "noembed", "xmp", "plaintext")
#: Elements whose content a browser hides or holds as raw text when opened inside a paragraph.
RAW_OPENERS: Final = ("template", "title", "script", "style", "textarea", "iframe", "noembed", "xmp", "noscript")
#: Elements a browser keeps open across Markdown blocks when their end tag is missing.
KEPT_OPEN: Final = (
    "<div><pre>",
    "<blockquote>",
    "<ul>",
    "<h1>",
    '<a href="https://docs.quill.example/2.0">',
    "<code>",
    "<div hidden>",
    "<details>",
)
#: Misspellings of the namespace that are not directive-shaped (:func:`is_directive_shaped` is false).
NAMESPACE_TYPOS: Final = ("quil", "qill", "quilll", "qiull", "quil_")
MENTIONS: Final = (
    "Questions? Ping @quill on Slack.",
    "Release notes: https://github.com/@quill",
    "Follow @quill for release news.",
    "Thanks to @Quill for the review.",
)


def _end_tags(opener: str) -> str:
    """The end tags that close the start tags of ``opener``, innermost first."""
    return "".join(f"</{name}>" for name in reversed(re.findall(r"<([a-z0-9]+)", opener)))


def _html_one_of(*options: str) -> Callable[[random.Random, Directives], str]:
    """:func:`_one_of`, plus ``{t}``: the first directive's operation and key, a random value of the key, under
    a misspelt namespace (a reader still reads the value: ``@quil create_copy existing_path=overwrite``)."""
    place = _one_of(*options)

    def typo_place(rng: random.Random, directive: Directives) -> str:
        text = place(rng, directive)
        while "{t}" in text:
            match = DIRECTIVE.search(text)
            assert match is not None, text
            value = rng.choice(GRAMMAR[match[1]][match[2]])
            text = text.replace("{t}", f"@{rng.choice(NAMESPACE_TYPOS)} {match[1]} {match[2]}={value}", 1)
        return text

    return typo_place


HTML_PLACEMENTS: Final[Mapping[str, Callable[[random.Random, Directives], str]]] = MappingProxyType(
    {
        # D⏎⏎<script⏎O⏎: github.com shows the tag and what follows as text.
        "tag_filter_block": _html_one_of(
            *(
                template.format(tag=tag)
                for tag in TAG_FILTERED
                for template in ("<{tag}>\n{{d}}\n</{tag}>", "<{tag}\n{{d}}", "<{tag}>\n\n{{d}}")
            )
        ),
        "tag_filter_inline": _html_one_of(
            *(
                template.format(tag=tag)
                for tag in TAG_FILTERED
                for template in ("{{s}} <{tag}> {{s}}\n{{d}}", "Use <{tag}> here.\n\n{{d}}")
            )
        ),
        # x <template>⏎O⏎</template>⏎: the browser hides O (or holds it as raw text).
        "raw_html_in_paragraph": _html_one_of(
            *(
                template.format(tag=tag)
                for tag in RAW_OPENERS
                for template in ("x <{tag}>\n{{d}}\n</{tag}>", "{{s}} <{tag}>\n{{d}}")
            )
        ),
        # <div><pre>⏎⏎D⏎: the browser keeps the element open over the paragraph.
        "kept_open": _html_one_of(
            *(f"{opener}\n\n{{d}}" for opener in KEPT_OPEN),
            *(f"{opener}\n\n{{d}}\n\n{_end_tags(opener)}" for opener in KEPT_OPEN),
        ),
        "namespace_typo": _html_one_of("{t}\n{d}", "{t}\n\n{d}", "{d}\n{t}"),
        "mention": _html_one_of(
            *(f"{mention}\n\n{{d}}" for mention in MENTIONS), *(f"{{d}}\n\n{mention}" for mention in MENTIONS)
        ),
        "trailing_whitespace": _html_one_of("{d} ", "{d}\t", "{d}   ", "{s}\n{d} \n{s}", "{d} \t"),
    }
)
#: Prose sentences of the HTML differentials: the markdown-it ones, plus mentions of the namespace.
HTML_INLINE_SENTENCES: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {**INLINE_SENTENCES, "mention": MENTIONS}
)


def _prose_with_mentions(rng: random.Random) -> _Block:
    return _prose(rng, HTML_INLINE_SENTENCES)


#: The HTML differentials' documents: every placement and construct of :data:`MARKDOWN_RULES`, and issue 15's.
HTML_RULES: Final = Rules(
    MappingProxyType({**PLACEMENTS, **HTML_PLACEMENTS}),
    tuple(_prose_with_mentions if block is _prose else block for block in CONTEXT_BLOCKS),
    (*CONSTRUCTS, "mention"),
)


# --------------------------------------------------------------------------
# CommonMark spec examples with a directive injected.

SPEC_TEXT: Final = Path("shared", "reference", "commonmark-spec-0.31.2.txt")
_EXAMPLE_FENCE: Final = "`" * 32


def parse_spec_text(text: str) -> list[str]:
    """The markdown part of each example in the CommonMark spec's own text (``→`` stands for a tab)."""
    examples, lines, index = [], text.split("\n"), 0
    while index < len(lines):
        if lines[index] == _EXAMPLE_FENCE + " example":
            end = lines.index(_EXAMPLE_FENCE, index + 1)
            body = lines[index + 1 : end]
            markdown = body[: body.index(".")]
            examples.append("".join(line + "\n" for line in markdown).replace("\u2192", "\t"))
            index = end
        index += 1
    return examples


def spec_examples(repo_root: Path) -> list[str] | None:
    """Spec examples from ``$CONFLICT_GATE_SPEC_JSON`` or else the spec text beside the repository; None if neither."""
    json_path = os.environ.get("CONFLICT_GATE_SPEC_JSON")
    if json_path:
        return [example["markdown"] for example in json.loads(Path(json_path).read_text(encoding="utf-8"))]
    spec = repo_root.parent / SPEC_TEXT
    return parse_spec_text(spec.read_text(encoding="utf-8")) if spec.is_file() else None


def spec_documents(examples: Sequence[str], rng: random.Random) -> list[tuple[str, str]]:
    """``(label, text)``: each example with a random directive before, inside and after it."""
    documents = []
    for number, markdown in enumerate(examples, 1):
        body = markdown if markdown.endswith("\n") or not markdown else markdown + "\n"
        lines = body.split("\n")[:-1]
        directive = random_directive(rng)
        variants = {
            "before": f"{directive}\n{body}",
            "before, blank line": f"{directive}\n\n{body}",
            "after": f"{body}{directive}\n",
            "after, blank line": f"{body}\n{directive}\n",
        }
        if len(lines) >= 2:
            middle = len(lines) // 2
            variants["inside"] = "".join(line + "\n" for line in [*lines[:middle], directive, *lines[middle:]])
        documents += [(f"spec example {number}: {where}", text) for where, text in variants.items()]
    return documents


def main(argv: Sequence[str]) -> int:
    """``python -m tests.reader_oracle FILE...``: print what each renderer shows a reader of each file."""
    readers = oracles()
    for name in argv:
        print(name)
        view_of = {oracle.name: read(oracle, Path(name).read_bytes().decode("utf-8-sig")) for oracle in readers}
        for oracle_name, view in view_of.items():
            print(f"  {oracle_name}: directive_lines={list(view.directive_lines)}")
            print(f"  {oracle_name}: other_shaped={list(view.other_shaped)}")
            print(f"  {oracle_name}: near_misses={list(view.near_misses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
