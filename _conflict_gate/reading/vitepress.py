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
from .inline_html import html_tag_end
from .mkdocs_lines import outside_fenced_code

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
#: hides it by ``v-if``/``v-show``/``v-else``/``v-for`` or a bound (``:name``) attribute.
_SITE_INCLUDE: Final = re.compile(r"<!--[ \t]*@include:|\{%-?[ \t]*include(?:_relative)?[ \t]", re.ASCII)
_TRAILING_ATTRIBUTES: Final = re.compile(
    r"^(?![ \t>]*(?:`{3,}|~{3,}))[^\r\n]*\{[^\r\n{}]*\}[ \t]*\r?$", re.ASCII | re.MULTILINE
)
_VUE_BINDING: Final = re.compile(
    r"<[A-Za-z][^<>]*?[\t\n\f\r ](?:v-(?:text|html|if|else-if|else|show|for|bind|model)\b|:[A-Za-z][\w.-]*=)", re.ASCII
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
        found.append((match.start(), match.end()))
        if len(found) > _MAX_VUE_BINDINGS:
            return found[0][0]
    if not found:
        return -1
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
    containers = [end for found in _V_PRE_CONTAINER.finditer(view) for end in found.span(1)] if "v-pre" in view else []
    at = view.find("{{", 0, max(last_close, 0))
    while 0 <= at < last_close and len(openings) <= _MAX_VUE_BINDINGS:
        if (
            not _KNOWN_INTERPOLATION.match(view, at)
            and view[at + 2 : at + 3] not in ("<", "%")  # Hugo's shortcodes
            and not _in_v_pre(view, at, containers)
        ):
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
        if leaf.kind == "html_block" and _in_html_code(view, max(leaf.lines[0][1], opening - 4096), opening):
            continue  # Vue writes an interpolation's value as text: in <pre> or <code> it shows as code
        if leaf.kind not in ("fenced_code", "indented_code"):
            return opening
    return -1


#: A tag with Vue's ``v-pre`` (Vue compiles nothing in its element), and VitePress's ``::: v-pre`` container.
_V_PRE_TAG: Final = re.compile(r"<[A-Za-z][^<>]*?[\t\n\f\r ]v-pre[\t\n\f\r />]", re.ASCII)
_V_PRE_CONTAINER: Final = re.compile(
    r"^ {0,3}:{3,}[ \t]*v-pre[ \t]*\r?\n((?:(?! {0,3}:{3,}[ \t]*\r?$).*\n)*)", re.ASCII | re.MULTILINE
)


def _in_v_pre(view: str, at: int, containers: Sequence[int]) -> bool:
    """Is the interpolation at ``at`` shown as written: in an element opened with ``v-pre`` earlier on its line
    (at most 4 KiB back) and not closed (no ``</``) before its ``}}``, or in a ``::: v-pre`` container
    (``containers``: body start, body end, ... in order; its lines up to the first line of colons)? Vue
    compiles neither. The safe side: anything else is compiled."""
    close = view.find("}}", at)
    if close < 0:
        return False
    tags = list(_V_PRE_TAG.finditer(view, max(view.rfind("\n", 0, at) + 1, at - 4096), at))
    if tags and view.find("</", tags[-1].end(), close) < 0:
        return True
    k = bisect.bisect_right(containers, at)
    return k % 2 == 1 and close < containers[k]


def _in_html_code(view: str, start: int, at: int) -> bool:
    """Is ``at`` (and the ``}}`` after it) inside a ``<pre>`` or ``<code>`` element opened after ``start`` and
    not closed before the ``}}``? (The raw HTML of one block, read back at most 4 KiB: the safe side.)"""
    found = max(view.rfind("<pre", start, at), view.rfind("<code", start, at))
    close = view.find("}}", at)
    return found >= 0 and close >= 0 and _CODE_END.search(view, found, close + 2) is None


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
    VitePress's guide). Anything else (a tag CommonMark's grammar does not end, ``@click`` in it) is not
    apart. Linear in the stretch (so at most :data:`_MAX_VUE_BINDINGS` times the page for a page)."""
    tag_end = html_tag_end(view, at)
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


#: markdown-it-container (VitePress's ``::: tip``, ``::: details``, ``::: v-pre``, ``::: code-group`` ...): an opening
#: line (0-3 spaces, three or more colons, a name), a closing line (as many colons or more, nothing else), and a
#: fence's lines (CommonMark 4.5), which take no container line as long as no container is open around them.
_CONTAINER_LINE: Final = re.compile(
    r"^ {0,3}(?:(?P<open>:{3,})[ \t]*[A-Za-z]|(?P<close>:{3,})[ \t]*\r?$|(?P<fence>`{3,}(?![^`\r\n]*`)|~{3,}))",
    re.ASCII | re.MULTILINE,
)
#: A candidate that reads as a directive or a stated claim: an at-word, a word, then a word and ``=``.
_DIRECTIVE_LIKE: Final = re.compile(r"[^\s]+[ \t]+[^\s]+[ \t]+[^\s=]+=", re.ASCII)
_MAX_CONTAINERS: Final = 64
_BLANK_REST: Final = re.compile(r"[ \t]*\r?(?:\n|\Z)", re.ASCII)


def _vitepress_containers(view: str, candidates: Sequence[int]) -> tuple[int, int]:
    """``(first, after)``: the offset of the first directive-like candidate in the body of a
    markdown-it-container (VitePress), or -1; and that of the first one after a container whose closing
    line stands in fenced code (markdown-it-container ends the container there, inside the code too, and
    the code's later lines are no code to VitePress: hostile round 5), or -1. Past
    :data:`_MAX_CONTAINERS` containers open at once, every candidate after is taken for the second kind.
    Linear: one pass over the lines that may open or close a container or a fence."""
    like = [at for at in candidates if _DIRECTIVE_LIKE.match(view, at + 1)]
    if not like or ":::" not in view:
        return -1, -1
    first = after = -1
    stack: list[tuple[int, int]] = []  # (colons, body start) of the containers open, outermost first
    fence: tuple[str, int, int] | None = None  # (char, run, first line's start) of the fenced code open
    code: list[int] = []  # start, end, start, end ... of the fenced code closed in containers, in order
    for line in _CONTAINER_LINE.finditer(view):
        if line.group("fence") is not None:
            run = line.group("fence")
            if fence is None:
                fence = (run[0], len(run), line.end())
            elif run[0] == fence[0] and len(run) >= fence[1] and _BLANK_REST.match(view, line.end()):
                if stack:  # code in a container: a near-miss, as CommonMark reads it
                    code += [fence[2], line.start()]
                fence = None
            continue
        colons = line.group("open") or line.group("close")
        if line.group("open") is not None:
            if fence is None:
                stack.append((len(colons), line.end()))
            if len(stack) > _MAX_CONTAINERS:
                k = bisect.bisect_left(like, line.start())
                return first, like[k] if k < len(like) else -1
            continue
        # the outermost container this line closes (markdown-it-container's rule for it reads lines raw)
        depth = next((k for k, (count, _) in enumerate(stack) if count <= len(colons)), -1)
        if depth < 0:
            continue  # closes no container (or is a line of fenced code opened outside any)
        k = bisect.bisect_left(like, stack[depth][1])
        while first < 0 and k < len(like) and like[k] < line.start():
            if bisect.bisect_right(code, like[k]) % 2 == 0:  # not in fenced code closed in the container
                first = like[k]
            k += 1
        if fence is not None and after < 0:
            k = bisect.bisect_left(like, line.end())
            after = like[k] if k < len(like) else -1
        del stack[depth:]
        fence = None
    k = bisect.bisect_left(like, stack[0][1]) if stack else len(like)
    while first < 0 and k < len(like):  # an unclosed container runs to the page's end
        if bisect.bisect_right(code, like[k]) % 2 == 0:
            first = like[k]
        k += 1
    return first, after


def vitepress_container(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first directive-like candidate in a VitePress container's body, or -1."""
    return _vitepress_containers(view, candidates)[0]


def vitepress_container_in_code(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first directive-like candidate after a VitePress container closed inside fenced code."""
    return _vitepress_containers(view, candidates)[1]
