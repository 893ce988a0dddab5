"""VitePress's own constructs, read from a page's text (no I/O): markdown-it-container's ``:::``
containers, Vue's ``v-pre`` on an element, and the props of a Vue component.

The ``commonmark`` renderer (:mod:`~_conflict_gate.reading.renderers`) refuses what these find. Each
rule was checked against pages built by a real VitePress 1.6.4 (the probe table is in
reference/dev/differential.md): a container's body is a container (``<details>``, a tip's ``<div>``), a
line of colons closes it inside fenced code too, ``v-pre`` keeps an element's interpolations as written,
and ``<Badge text="...">`` shows its ``text``. Every function is linear in the page.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from .blocks.parse import parse_blocks
from .blocks.state import Leaf
from .html_elements import HTML_ELEMENTS, VOID_ELEMENTS
from .inline_html import html_tag_end
from .inlines import inline_view

__all__ = [
    "Containers",
    "component_attribute",
    "component_content",
    "containers",
    "event_attribute",
    "v_pre_element",
    "vitepress_tag_end",
]


#: markdown-it-container (VitePress's ``::: tip``, ``::: details``, ``::: v-pre``, ``::: code-group`` ...): an opening
#: line (0-3 spaces, three or more colons, a name), a closing line (as many colons or more, nothing else), and a
#: fence's lines (CommonMark 4.5), which take no container line as long as no container is open around them.
_CONTAINER_LINE: Final = re.compile(
    r"^ {0,3}(?:(?P<open>:{3,})[ \t]*[A-Za-z]|(?P<close>:{3,})[ \t]*\r?$|(?P<fence>`{3,}(?![^`\r\n]*`)|~{3,}))",
    re.ASCII | re.MULTILINE,
)
#: A candidate that reads as a directive or a stated claim: an at-word, a word, then a word and ``=``.
_DIRECTIVE_LIKE: Final = re.compile(r"[^\s]+[ \t]+[^\s]+[ \t]+[^\s=]+=", re.ASCII)
#: Past this many containers open at once, the rest of the page is in doubt.
MAX_CONTAINERS: Final = 64
_BLANK_REST: Final = re.compile(r"[ \t]*\r?(?:\n|\Z)", re.ASCII)
#: A container's name that makes it VitePress's ``v-pre`` one, alone on its line (from its first letter).
_V_PRE_NAME: Final = re.compile(r"v-pre[ \t]*\r?$", re.ASCII | re.MULTILINE)


class Containers(NamedTuple):
    """What :func:`containers` finds, each an offset in the page or -1."""

    #: The first directive-like candidate in a container's body, outside fenced code closed in it.
    first: int
    #: The first directive-like candidate after a container closed inside fenced code.
    after: int
    #: The first line of colons that closes a container inside fenced code: VitePress reads the code's later
    #: lines as Markdown (text, Vue), where CommonMark reads code.
    broken: int
    #: Body start, body end, ... of the ``::: v-pre`` containers (Vue compiles nothing in them), in order.
    v_pre: tuple[int, ...] = ()


def containers(view: str, candidates: Sequence[int]) -> Containers:
    """The page's markdown-it-containers (VitePress) as :class:`Containers`. markdown-it-container reads a
    container's lines raw, so a line of colons ends it inside fenced code too, and the code's later lines
    are no code to VitePress (hostile round 5; the VitePress 1.6.4 build showed ``::: details⏎```⏎:::⏎O⏎````
    O as a top-level line). A ``::: v-pre`` container (its name alone on the line) runs to the line that
    closes it, or the page's end. Past :data:`MAX_CONTAINERS` open at once, the line that opens one more
    is ``broken`` and every candidate after it is ``after``. Linear: one pass over the lines that may open
    or close a container or a fence."""
    if ":::" not in view:
        return Containers(-1, -1, -1)
    like = [at for at in candidates if _DIRECTIVE_LIKE.match(view, at + 1)]
    first = after = broken = -1
    stack: list[tuple[int, int, bool]] = []  # (colons, body start, v-pre) of the containers open, outermost first
    v_pre: list[int] = []
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
                body = view.find("\n", line.end()) + 1 or len(view)
                stack.append((len(colons), body, _V_PRE_NAME.match(view, line.end() - 1) is not None))
            if len(stack) > MAX_CONTAINERS:
                k = bisect.bisect_left(like, line.start())
                after = like[k] if k < len(like) else after
                return Containers(first, after, line.start() if broken < 0 else broken, tuple(v_pre))
            continue
        # the outermost container this line closes (markdown-it-container's rule for it reads lines raw)
        depth = next((k for k, (count, _, _) in enumerate(stack) if count <= len(colons)), -1)
        if depth < 0:
            continue  # closes no container (or is a line of fenced code opened outside any)
        k = bisect.bisect_left(like, stack[depth][1])
        while first < 0 and k < len(like) and like[k] < line.start():
            if bisect.bisect_right(code, like[k]) % 2 == 0:  # not in fenced code closed in the container
                first = like[k]
            k += 1
        if fence is not None:
            broken = line.start() if broken < 0 else broken
            if after < 0:
                k = bisect.bisect_left(like, line.end())
                after = like[k] if k < len(like) else -1
        v_pre += next(([body, line.start()] for _, body, pre in stack[depth:] if pre), [])
        del stack[depth:]
        fence = None
    v_pre += next(([body, len(view)] for _, body, pre in stack if pre), [])
    k = bisect.bisect_left(like, stack[0][1]) if stack else len(like)
    while first < 0 and k < len(like):  # an unclosed container runs to the page's end
        if bisect.bisect_right(code, like[k]) % 2 == 0:
            first = like[k]
        k += 1
    return Containers(first, after, broken, tuple(v_pre))


#: An opening tag's name: an element whose ``v-pre`` may cover what follows it on its line.
_OPEN_TAG: Final = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)", re.ASCII)
#: An attribute of an opening tag CommonMark's grammar accepts (6.6), from the whitespace before it.
_ATTRIBUTE: Final = re.compile(
    r"""[\t\n\f\r ]+([A-Za-z_:][A-Za-z0-9_.:-]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\f\r "'=<>`]+))?""",
    re.ASCII,
)
#: Back from an interpolation, at most this far to the start of its line.
_LINE_REACH: Final = 4096


def v_pre_element(view: str, at: int, block: int = -1) -> bool:
    """Is the Vue interpolation at ``at`` (its ``{{``) inside an element with ``v-pre``, which Vue compiles
    nothing in (so it shows as written)? Only this shape is taken: the last ``<`` before it on its line
    opens a tag CommonMark passes through as HTML (6.6), at the line's start or after a space, a tab or
    a ``>``, of an element that is neither void nor self-closed, with a ``v-pre`` attribute; and nothing
    from that tag's end to the interpolation's ``}}`` is on another line or holds ``<``, ``>`` or a
    backtick (the element is not closed, no comment ends, no other markup or code span intervenes). The
    VitePress 1.6.4 build showed O from ``<br v-pre>{{ ... }}``, ``<span v-pre />{{ ... }}``, and from a
    ``<span v-pre>`` in a code span, escaped or in a comment, which a look for ``v-pre`` earlier on the
    line took for one (hostile round 5's rule); anything but this shape is compiled (the safe side).
    The caller rules out raw text elements around the line (``<textarea>``, ``<title>``), whose text
    Vue compiles whatever it holds. ``block``: the start of the raw HTML block (CommonMark 4.6) that holds
    the interpolation and the tag, which passes its lines to Vue as written, so the tag may stand on an
    earlier line of it (``<div v-pre>⏎{{ ... }}⏎</div>``: the build showed it as written), unless a run of
    colons between may close a VitePress container around the tag (its ``</div>`` closes the element); at most
    :data:`_LINE_REACH` back. Linear in what it reads back."""
    close = view.find("}}", at)
    start = view.rfind("\n", 0, at) + 1 if block < 0 else max(block, at - _LINE_REACH)
    opening = view.rfind("<", start, at) if at - start <= _LINE_REACH else -1
    tag = _OPEN_TAG.match(view, opening) if opening >= 0 else None
    if close < 0 or tag is None or tag.group(1).lower() in VOID_ELEMENTS:
        return False
    if opening > start and view[opening - 1] not in " \t>\n":
        return False  # escaped, a link's destination, or inside a word
    end = html_tag_end(view, opening)
    if end < 0 or end > at or view[end - 2 : end] == "/>":
        return False
    between = view[end:close]
    if any(mark in between for mark in ("<", ">", "`", ":::", *(("\n", "\r") if block < 0 else ()))):
        return False  # ``:::``: a container's closing line, whose </div> closes the element for Vue
    position, v_pre = tag.end(), False
    while (attribute := _ATTRIBUTE.match(view, position, end)) is not None:
        v_pre = v_pre or attribute.group(1).lower() == "v-pre"
        position = attribute.end()
    return v_pre


#: An opening tag as VitePress's markdown-it reads raw HTML (its own rule for components): CommonMark's (6.6), but
#: an attribute name may start with ``@`` (Vue's ``v-on`` shorthand, ``@click``), so ``<span @click="f" hidden>``
#: is an element to VitePress and text to CommonMark.
_VITEPRESS_OPEN_TAG: Final = re.compile(
    r"""<[A-Za-z][A-Za-z0-9-]*(?:[\t\n\f\r ]+[A-Za-z_:@][A-Za-z0-9:._-]*"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?)*[\t\n\f\r ]*/?>""",
    re.ASCII,
)


def vitepress_tag_end(view: str, at: int) -> int:
    """The end of the opening tag at ``view[at] == "<"`` as VitePress's markdown-it takes it
    (:data:`_VITEPRESS_OPEN_TAG`: CommonMark's grammar, and ``@`` starting an attribute name), or -1.
    Linear in the tag's length."""
    found = _VITEPRESS_OPEN_TAG.match(view, at)
    return -1 if found is None else found.end()


#: An attribute of :data:`_VITEPRESS_OPEN_TAG`, from the whitespace before it.
_VITEPRESS_ATTRIBUTE: Final = re.compile(
    r"""[\t\n\f\r ]+([A-Za-z_:@][A-Za-z0-9:._-]*)((?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?)""",
    re.ASCII,
)


def event_attribute(view: str, at: int) -> bool:
    """Is the opening tag at ``view[at] == "<"`` one VitePress's markdown-it takes (:func:`vitepress_tag_end`)
    with a Vue event attribute: a name starting with ``@`` that has a value or a modifier (``@click="f"``,
    ``@submit.prevent``; Vue does not build one with neither: "v-on is missing expression")? Linear in
    the tag's length."""
    end = vitepress_tag_end(view, at)
    name = _OPEN_TAG.match(view, at)
    if end < 0 or name is None:
        return False
    position = name.end()
    while (attribute := _VITEPRESS_ATTRIBUTE.match(view, position, end)) is not None:
        if attribute.group(1).startswith("@") and (attribute.group(2) or "." in attribute.group(1)):
            return True
        position = attribute.end()
    return False


#: An opening tag's name, and what ends a tag or starts a quoted value as a browser's tokenizer reads it
#: (13.2.5: a ``>`` outside a quoted value; quotes taken anywhere, a superset of the tag).
_TAG_START: Final = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)", re.ASCII)
_TAG_STOP: Final = re.compile(r"[>\"']", re.ASCII)
_CODE_LEAVES: Final = frozenset(("fenced_code", "indented_code"))


#: The components VitePress's default theme registers, in lower case (``<badge>`` resolves to ``Badge``).
_REGISTERED: Final = frozenset(("badge", "content", "clientonly"))


def _component(name: str) -> bool:
    """May Vue resolve a tag of this name to a component? A name with a capital letter or a hyphen (as Vue's
    style guide names components), or a component the default theme registers in lower case; a lower-case
    single word that names no HTML element and no registered component is rendered as an unknown element,
    its content shown (Vue warns that it failed to resolve it)."""
    return (not name.islower() or "-" in name or name in _REGISTERED) and name not in HTML_ELEMENTS


def component_attribute(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first candidate in a quoted attribute value of a Vue component's opening tag
    (:func:`_component`) that may state a claim (an ``=`` or a character reference after it in the value),
    or -1: a component may show any prop as text (VitePress's ``<Badge text="...">``: the 1.6.4 build
    showed it in a ``VPBadge`` span, also inside a paragraph's line), which is no paragraph's line of its
    own and which the gate does not render. A tag runs to the first ``>`` outside quotes (or the page's
    end). One in fenced or indented code (no doubt on it, before any container closed inside code) is
    code (VitePress escapes it); anywhere else, in a code span too, it counts (the safe side). Linear:
    each character is looked at once by the scan, and the page's blocks are read at most once."""
    if not candidates:
        return -1
    done = 0
    found: list[tuple[int, int]] = []  # (tag start, candidate)
    for tag in _TAG_START.finditer(view):
        if tag.start() < done or not _component(tag.group(1)):
            continue
        at, end = tag.end(), len(view)
        hit = -1
        while (stop := _TAG_STOP.search(view, at)) is not None:
            if stop.group() == ">":
                end = stop.end()
                break
            quote = view.find(stop.group(), stop.end())
            value_end = len(view) if quote < 0 else quote
            k = bisect.bisect_left(candidates, stop.end())
            if hit < 0 and k < len(candidates) and candidates[k] < value_end:
                rest = view[candidates[k] : value_end]
                hit = candidates[k] if "=" in rest or "&" in rest else -1
            if quote < 0:
                break
            at = quote + 1
        done = end
        if hit >= 0:
            found.append((tag.start(), hit))
    if not found:
        return -1
    broken = containers(view, candidates).broken
    leaves = sorted(
        (leaf for leaf in parse_blocks(view, [start for start, _ in found]) if leaf.lines),
        key=lambda leaf: leaf.lines[0][1],
    )
    starts = [leaf.lines[0][1] for leaf in leaves]
    for start, candidate in found:
        k = bisect.bisect_right(starts, start) - 1
        leaf = leaves[k] if k >= 0 else None
        if (
            leaf is None
            or leaf.end < candidate
            or leaf.kind not in _CODE_LEAVES
            or leaf.doubt
            or leaf.gave_up
            or 0 <= broken <= candidate
        ):
            return candidate
    return -1


#: An opening or closing tag's name (its end read as :func:`_quoted_tag_end` reads it).
_ANY_TAG: Final = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?=[\t\n\f\r />])", re.ASCII)
#: Past this many component tags, or this many open at once, the first directive-like candidate after refuses.
_MAX_COMPONENT_TAGS: Final = 10000
_MAX_COMPONENT_DEPTH: Final = 64


def _quoted_tag_end(view: str, at: int) -> int:
    """The end of a tag whose name ends at ``at``: after the first ``>`` outside quotes, or the page's end."""
    while (stop := _TAG_STOP.search(view, at)) is not None:
        if stop.group() == ">":
            return stop.end()
        quote = view.find(stop.group(), stop.end())
        if quote < 0:
            break
        at = quote + 1
    return len(view)


def _code_spans(view: str, leaf: Leaf, rows: bool = False) -> list[int]:
    """Start, end, start, end ... (view offsets, in order) of the code spans of a paragraph, heading or table
    leaf, its lines read as one paragraph; ``rows``: each line read alone (a table cell's code span ends
    in its row)."""
    groups = [(line,) for line in leaf.lines] if rows else [leaf.lines]
    spans: list[int] = []
    for lines in groups:
        content = "\n".join(view[start:end] for _, start, end in lines)
        firsts, places, at = [], [], 0
        for _, start, end in lines:
            firsts.append(at)
            places.append(start)
            at += end - start + 1
        for begin, finish in inline_view(content).code:
            for offset in (begin, finish):
                k = bisect.bisect_right(firsts, offset) - 1
                spans.append(places[k] + offset - firsts[k])
    return spans


def component_content(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first directive-like candidate in the content of a Vue component's element (a tag of
    :func:`_component`'s names, not self-closed, to its closing tag or the page's end), or -1. A component
    renders its content (its slot) as it will: VitePress renders an unregistered one as nothing, and its
    markdown-it starts an HTML block at a component's tag even inside a paragraph, so ``Text⏎<Foo>⏎D⏎</Foo>``
    showed no D on the 1.6.4 build, where CommonMark reads D as a line of the paragraph. An opening tag
    counts at a line's start (VitePress's block rule takes any) or where markdown-it takes it for a tag
    (:func:`vitepress_tag_end`; ``Text <class 'int'>`` is text). Tags in fenced or
    indented code or in a code span (no doubt on them, before any container closed inside code) are code.
    Linear: one scan of the tags, one block reading, each paragraph's inlines read once; past
    :data:`_MAX_COMPONENT_TAGS` tags or :data:`_MAX_COMPONENT_DEPTH` open at once, the first directive-like
    candidate after refuses."""
    like = [at for at in candidates if _DIRECTIVE_LIKE.match(view, at + 1)]
    if not like:
        return -1
    tags: list[tuple[int, int, str, bool]] = []  # (start, end, name, closing) of tags that open or close content
    done, unread = 0, len(view)
    for tag in _ANY_TAG.finditer(view):
        if tag.start() < done or not _component(tag.group(2)):
            continue
        closing = bool(tag.group(1))
        end = (view.find(">", tag.end()) + 1 or len(view)) if closing else vitepress_tag_end(view, tag.start())
        if end < 0:
            line_start = view.rfind("\n", 0, tag.start()) + 1
            if view[line_start : tag.start()].strip(" ") or tag.start() - line_start > 3:
                continue  # text to markdown-it (``Text <class 'int'>``)
            unread = tag.start()  # VitePress starts an HTML block at it, which Vue reads as it can
            break
        done = end
        if closing or view[end - 2 : end] != "/>":
            tags.append((tag.start(), end, tag.group(2), closing))
        if len(tags) > _MAX_COMPONENT_TAGS:
            unread = tag.start()
            break
    regions: list[int] = []  # start, end, ... of the outermost elements' content, in order
    if tags:
        regions = _component_regions(view, candidates, tags)
    if unread < len(view):  # past it the tags are not followed: every candidate after it is in doubt
        kept = [r for r in regions if r < unread]
        regions = kept + ([unread, len(view)] if len(kept) % 2 == 0 else [len(view)])
    for k in range(0, len(regions), 2):
        found = bisect.bisect_left(like, regions[k])
        if found < len(like) and like[found] < regions[k + 1]:
            return like[found]
    return -1


def _component_regions(view: str, candidates: Sequence[int], tags: list[tuple[int, int, str, bool]]) -> list[int]:
    """Start, end, ... of the content of the outermost component elements ``tags`` open and close (tags in
    code left out; an element left open runs to the page's end; past :data:`_MAX_COMPONENT_DEPTH` open at
    once, to the page's end)."""
    broken = containers(view, candidates).broken
    leaves = sorted(
        (leaf for leaf in parse_blocks(view, [t[0] for t in tags]) if leaf.lines), key=lambda leaf: leaf.lines[0][1]
    )
    starts = [leaf.lines[0][1] for leaf in leaves]
    spans: dict[int, list[int]] = {}
    rows: dict[int, list[int]] = {}
    stack: list[tuple[str, int]] = []  # (name, content start) of the elements open, outermost first
    regions: list[int] = []
    for start, end, name, closing in tags:
        k = bisect.bisect_right(starts, start) - 1
        leaf = leaves[k] if k >= 0 else None
        known = leaf is not None and leaf.end > start and not leaf.gave_up and not 0 <= broken <= start
        if known and leaf is not None and not leaf.doubt and leaf.kind in _CODE_LEAVES:
            continue
        if known and leaf is not None and leaf.kind in ("paragraph", "heading", "table"):
            # a code span: in a table, by both readings (rows, or lines of a paragraph where tables are doubted)
            if k not in spans:
                spans[k] = _code_spans(view, leaf)
                rows[k] = _code_spans(view, leaf, rows=True) if leaf.kind == "table" else spans[k]
                if leaf.doubt and leaf.kind != "table":
                    spans[k] = []
            if bisect.bisect_right(spans[k], start) % 2 == 1 and bisect.bisect_right(rows[k], start) % 2 == 1:
                continue
        if not closing:
            stack.append((name, end))
            if len(stack) > _MAX_COMPONENT_DEPTH:
                break
            continue
        depth = next((d for d in range(len(stack) - 1, -1, -1) if stack[d][0] == name), -1)
        if depth == 0:
            regions += [stack[0][1], start]
        if depth >= 0:
            del stack[depth:]
    if stack:
        regions += [stack[0][1], len(view)]
    return regions
