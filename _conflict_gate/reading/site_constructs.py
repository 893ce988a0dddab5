"""The constructs a site built from CommonMark-derived Markdown adds (VitePress, Hugo, Jekyll), found in a page:
what the ``commonmark`` renderer (and ``mkdocs``, ``portable``) refuses of such sites (no I/O).

Each function takes the page's byte view and its candidate at signs' offsets, and gives the offset of the
first construct that refuses the page, or -1 (:class:`~_conflict_gate.reading.renderers.PageRefusal`'s
``find``); :mod:`~_conflict_gate.reading.renderers` names each with its reason and message. Imported when
one of those renderers is first built (a ``github`` manifest never imports it).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Final

from .blocks.parse import parse_blocks
from .blocks.scan import first_in_a_candidates_paragraph, next_blank_line
from .mkdocs_lines import outside_fenced_code
from .vitepress import containers, event_attribute, v_pre_element, vitepress_tag_end

__all__ = [
    "site_include",
    "trailing_attributes",
    "vitepress_container",
    "vitepress_container_in_code",
    "vue_binding",
    "vue_interpolation",
]


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
