"""Extensions read once per page, before its lines: front matter, and GitHub's footnote definitions (no I/O).

Front matter is a *page start* of a flavour (``Flavour.page_starts``): it
takes the first lines of the page as a block of their own. Footnote
definitions are a *page doubt* of the primary reading
(``Flavour.page_doubts``): the gate does not model them, so the stretches
they cover are in doubt, whatever blocks the rules build there.
"""

from __future__ import annotations

import re
from typing import Final

from .construct import Body, Construct, never_continues
from .scan import BLOCK_TAG_NAMES, KIND_1_NAMES, next_blank_line
from .state import HTML_START_VERSIONS, NO_FRONT_MATTER, Block, State, lines_of, take

__all__ = ["FRONT_MATTER", "footnotes", "front_matter", "github_front_matter"]

#: The block front matter makes (not tried on any line: :func:`front_matter` opens it).
FRONT_MATTER: Final = Construct(
    "front_matter", "front_matter", "YAML or TOML front matter (an extension)", Body.RAW, never_continues
)


def front_matter(s: State) -> bool:
    return _front_matter(s, toml=True)


def github_front_matter(s: State) -> bool:
    """Front matter as github.com reads it: YAML only (a ``+++`` page is Markdown to it), shown as a
    table. Whether it takes ``...`` as the closing line is not known here: such front matter is
    compared with the reading without front matter (``NO_FRONT_MATTER`` is noted); closed by
    ``---``, it is GitHub's own reading and nothing is noted."""
    return _front_matter(s, toml=False)


def _front_matter(s: State, toml: bool) -> bool:
    """YAML (``---``) or TOML (``+++``) front matter on the first lines, closed by a matching line.

    YAML as markdown-it's front-matter plugin reads it: the first line starts
    with three or more ``-``, and a later line of at least as many ``-`` (0-3
    spaces in, spaces or tabs after) or ``...`` closes it. TOML as static-site
    generators write it: a ``+++`` line, closed by another. Unclosed, it is
    not front matter. Returns True when the page has front matter.
    """
    view = s.view
    first_end = view.find("\n")
    if view.startswith("---"):
        count = min(first_end, len(view) - len(view.lstrip("-")))
        closer = re.compile(rf"(?m)^(?: {{0,3}}-{{{count},}}|\.\.\.)[ \t]*\r?$", re.ASCII)
    elif toml and view.startswith("+++") and view[:first_end].rstrip(" \t\r") == "+++":
        closer = re.compile(r"(?m)^\+\+\+[ \t]*\r?$", re.ASCII)
    else:
        return False
    close = closer.search(view, first_end + 1)
    if close is None:
        return False
    block = Block(FRONT_MATTER, 0, (), None)
    take(s, block, view.find("\n", close.start()) + 1)
    s.emit("front_matter", block, lines_of(s, block))
    if toml or view.startswith("...", close.start()):
        s.note_variant(NO_FRONT_MATTER, 0)
    return True


#: A footnote definition's first line, as cmark-gfm scans it: ``[^label]:``, the label without ``]``,
#: spaces, tabs or line endings (a byte of a non-ASCII character is never one of those: ``à`` is
#: C3 A0); and, after blank lines, the next line that is not blank (group 1: four or more columns
#: of indentation).
_FOOTNOTE: Final = re.compile(r"\[\^[^\] \t\r\n]+\]:", re.ASCII)
_NEXT_NONBLANK: Final = re.compile(r"(?:[ \t]*\r?\n)*((?: {4}| {0,3}\t)?)(?=[^\n])", re.ASCII)


#: 0.29 as cmark-gfm reads it: a line that interrupts a paragraph (so it ends a footnote's lazy lines):
#: a fence, an ATX heading, a block quote, a thematic break, a list item that is not empty (a bullet,
#: or an ordered one numbered 1), an HTML block of kinds 1-6 both spec versions start. Any other line
#: that is not blank may be a lazy line (``<i``, ``-->``, ``|---|``: a kind 7 block cannot interrupt).
_INTERRUPTS: Final = re.compile(
    r" {0,3}(?:`{3,}|~{3,}|#{1,6}(?:[ \t]|\r?$)|>|(?:[*+\-]|1[.)])[ \t]+[^ \t\r]|(?:\*[ \t]*){3,}\r?$"
    r"|(?:_[ \t]*){3,}\r?$|<(?:" + KIND_1_NAMES + r")(?:[ \t>]|\r?$)|<!--|<\?|<![A-Z]|<!\[CDATA\["
    r"|</?(?:" + BLOCK_TAG_NAMES.replace("search|", "") + r")(?:[ \t]|/?>|\r?$))",
    re.ASCII | re.IGNORECASE,
)


def _lazy_lines_end(view: str, pos: int) -> int:
    """The start of the first line at or after line start ``pos`` that is blank or interrupts a
    paragraph (:data:`_INTERRUPTS`): what a footnote's first paragraph may take. Each line once."""
    n = len(view)
    while pos < n:
        line_end = view.find("\n", pos)
        line_end = n if line_end == -1 else line_end
        if not view[pos:line_end].strip(" \t\r") or _INTERRUPTS.match(view, pos, line_end):
            return pos
        pos = line_end + 1
    return n


def footnotes(s: State, limit: int) -> None:
    """Footnote definitions (``[^label]:`` at a line start, GitHub; not CommonMark, not modelled):
    GitHub shows one at the end of the page with its lazy lines and, after blank lines, the
    indented lines after it, and one may interrupt a paragraph. The stretch runs to a blank line
    whatever the lines are (a line that starts a block, such as ``<i`` or ``|---|``, may still be
    a lazy line of the footnote's paragraph, as GitHub reads it). Every block in such a stretch
    before ``limit`` is unsure (``s.page_unsure``, named :data:`FOOTNOTES`). Linear: a line is looked at from its first
    ``[^`` only, and line numbers are counted on from the last footnote."""
    view = s.view
    i = view.find("[^", 0, limit)
    line_start = view.rfind("\n", 0, i) + 1 if i != -1 else 0
    counted, lines = 0, 0  # lines counts the line endings before offset counted
    while i != -1:
        if i - line_start > 3:  # no footnote starts later on this line: go on from the next one
            line_end = view.find("\n", i, limit)
            i = -1 if line_end == -1 else view.find("[^", line_end + 1, limit)
            if i != -1:
                newline = view.rfind("\n", line_end + 1, i)
                line_start = line_end + 1 if newline == -1 else newline + 1
            continue
        if (
            not view[line_start:i].strip(" ")
            and _FOOTNOTE.match(view, i)
            and not (s.page_unsure and s.page_unsure.ends[-1] > line_start)
        ):
            end = view.find("\n", i) + 1 or len(view)
            while True:
                end = _lazy_lines_end(view, end)
                following = _NEXT_NONBLANK.match(view, end)
                if following is None or following.start(1) == end or not following.group(1):
                    break  # a line that interrupts it, or an unindented one after a blank line
                end = next_blank_line(view, following.end())
            lines += view.count("\n", counted, line_start)
            counted = line_start
            s.page_unsure.append(lines, end)
            hit = view.find("[^", end, limit)  # the next one may open the line after a blank line
        else:
            hit = view.find("[^", i + 2, limit)
        if hit != -1:
            newline = view.rfind("\n", i, hit)
            line_start = line_start if newline == -1 else newline + 1
        i = hit


#: 4.6 as the spec versions differ (0.29, which cmark-gfm and so GitHub implement, and 0.31.2): kind 4
#: starts at ``<!`` and an uppercase letter in 0.29, any ASCII letter in 0.31.2; kind 6's tag names
#: hold ``source`` in 0.29 and ``search`` in 0.31.2. At a line's start, after any container markers
#: (block quote markers, list markers); mid-line the inline reading puts such markup in doubt.
_HTML_START_DIFFERS: Final = re.compile(
    r"[ \t>]*(?:(?:[*+\-]|[0-9]{1,9}[.)])[ \t]+[ \t>]*)*"
    r"(?:<![a-z]|</?(?i:source|search)(?:[ \t]|/?>|\r|$))",
    re.ASCII,
)


def html_start_differs(s: State) -> None:
    """A line where CommonMark 0.31.2 and cmark-gfm start (or do not start) an HTML block, or read an
    inline declaration, differently (:data:`_HTML_START_DIFFERS`): the raw HTML each passes to the
    browser differs from here on, and what it leaves open may reach any later line, so every line
    from here to the end of the page is unsure (named :data:`HTML_START_VERSIONS`).

    A line check of the primary reading (``Flavour.line_doubts``), run on lines holding a ``<``.
    """
    if _HTML_START_DIFFERS.match(s.line):
        s.note_unsure(s.line_no, len(s.view), HTML_START_VERSIONS)
