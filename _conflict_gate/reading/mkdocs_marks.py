"""MkDocs marks that reach across lines and change what a reader sees of a directive line (no I/O).

CriticMarkup (pymdownx.critic), backtick runs, abbreviations (``*[ABBR]: ...``), definition lists
(``def_list``) and bracketed math (pymdownx.arithmatex); reference/directives.md."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Final

from .blocks.scan import candidates_stretches, hinted_line_matches
from .mkdocs_lines import _line_end, _Lines

#: What a line of :data:`~_conflict_gate.reading.fences.SUPERFENCE_ONLY` (and of :data:`_BACKTICK_LINE`: the
#: first) holds (the lines worth trying).
_FENCE_RUNS: Final = ("```", "~~~")


def _line_number(view: str, offset: int) -> int:
    """0-based line of ``offset`` (lines end at ``\n``, ``\r\n`` or a lone ``\r``)."""
    return view.count("\n", 0, offset) + view.count("\r", 0, offset) - view.count("\r\n", 0, offset)


#: pymdownx.critic's marks, each opener with its closer: a preprocessor over the whole page (over lines and
#: blank lines alike), before any block is read.
_CRITIC: Final = (("{--", "--}"), ("{++", "++}"), ("{~~", "~~}"), ("{==", "==}"), ("{>>", "<<}"))
_CRITIC_WHY: Final = (
    "pymdownx.critic's mark opened on line {} ({}) closes below: the line is struck out, "
    "inserted, highlighted or a comment (in the accept mode a deletion is not shown at all)"
)


def _critic(view: str, candidates: Sequence[int], doubts: dict[int, tuple[str, int]]) -> None:
    """Each candidate between a critic mark's opener and its closer (the first after the opener), as
    pymdownx.critic pairs them: in doubt (hostile round 3: ``{--`` above a directive and ``--}`` below strike
    it out, and the accept mode removes it). Linear: each kind's marks are found once."""
    for opener, closer in _CRITIC:
        if opener not in view:
            continue
        opens = [m.start() for m in re.finditer(re.escape(opener), view)]
        closes = [m.start() for m in re.finditer(re.escape(closer), view)]
        for at in candidates:
            k = bisect.bisect_left(opens, at) - 1
            if k < 0:
                continue
            c = bisect.bisect_left(closes, opens[k] + len(opener))
            if c < len(closes) and closes[c] >= at:
                line = _line_number(view, opens[k])
                doubts.setdefault(at, (_CRITIC_WHY.format(line + 1, opener), line))


#: A line that begins with a run of three or more backticks (after any indentation).
_BACKTICK_LINE: Final = re.compile(r"^[ \t]*```", re.ASCII | re.MULTILINE)
_BACKTICK_WHY: Final = (
    "the backticks beginning line {} open no fence superfences closes, so Python-Markdown may pair "
    "them with other backticks of this paragraph into a code span over its lines"
)


def _backtick_lines(
    view: str,
    candidates: Sequence[int],
    fenced: Sequence[tuple[int, int]],
    contained: dict[int, tuple[str, int]],
    code: set[int],
    doubts: dict[int, tuple[str, int]],
) -> None:
    """Note the candidates of a stretch of lines (between blank lines) holding a line that begins with
    three or more backticks and is no opening or closing line of a fence superfences closes
    (``fenced``): Python-Markdown reads such a line as paragraph text, and its backticks may make a
    code span with others over the lines between, hiding a directive CommonMark shows (issue 29:
    ``text⏎    ```⏎D⏎```````). Linear: the stretches and the backtick lines are walked side by side."""
    fence_lines = {start for start, _ in fenced} | {end for _, end in fenced}
    lines = [
        m.start()
        for m in hinted_line_matches(_BACKTICK_LINE, _FENCE_RUNS[:1], view)
        if view.rfind("\n", 0, m.start()) + 1 not in fence_lines
    ]
    if not lines:
        return
    k = 0
    for start, end in candidates_stretches(view, candidates):
        while k < len(lines) and lines[k] < start:
            k += 1
        if k < len(lines) and lines[k] < end:
            line = _line_number(view, lines[k])
            for at in candidates[bisect.bisect_left(candidates, start) : bisect.bisect_left(candidates, end)]:
                if at not in contained and at not in code:
                    doubts.setdefault(at, (_BACKTICK_WHY.format(line + 1), line))


#: The start of an abbreviation definition (abbr: ``^[*]\[(?P<abbr>[^\\]*?)\][ ]?:[ ]*\n?[ ]*(?P<title>.*)$``).
_ABBREVIATION_START: Final = re.compile(r"^[ \t]{0,3}\*\[", re.ASCII | re.MULTILINE)
_ABBREVIATION_END: Final = re.compile(r"\] ?:[ \t]*", re.ASCII)
_ABBREVIATION_WHY: Final = (
    "the abbreviation defined on line {} (abbr) takes this line as its word or its title "
    "(a title may be on the line after '*[word]:'), and MkDocs does not show it"
)


def _abbreviation_titles(view: str, candidates: Sequence[int], doubts: dict[int, tuple[str, int]]) -> None:
    """Note the candidates on the lines an abbreviation definition takes (hostile finding 2a): its word
    may run over lines up to ``]`` (no backslash before it), and where nothing follows ``]:`` on its
    line, its title is the next line; Python-Markdown shows none of them. Linear: the ``]`` and ``\\``
    found last are reused by later starts before them."""
    close = backslash = -1
    line_of = _Lines(view)
    for start in _ABBREVIATION_START.finditer(view, 0, candidates[-1] + 1):
        begin = start.start()
        if close < start.end():
            close = view.find("]", start.end())
        if close < 0:
            return
        if backslash < start.end():
            backslash = view.find("\\", start.end())
            backslash = len(view) if backslash < 0 else backslash
        if backslash < close:
            continue
        after = _ABBREVIATION_END.match(view, close)
        if after is None:
            continue
        end = _line_end(view, after.end())
        if end == after.end():  # no title on the line: the next line is the title
            newline = view.find("\n", end)
            end = len(view) if newline < 0 else _line_end(view, newline + 1)
        taken = candidates[bisect.bisect_left(candidates, begin) : bisect.bisect_left(candidates, end)]
        if taken:
            line = line_of(begin)
            for at in taken:
                doubts.setdefault(at, (_ABBREVIATION_WHY.format(line + 1), line))


#: A definition (def_list: ``(^|\n)[ ]{0,3}:[ ]{1,3}(.*?)(\n|$)``, tabs expanded): the lines above it in
#: its block, or the paragraph before it when it begins its block, become terms (``<dt>``).
_DEFINITION_LINE: Final = re.compile(r"^ {0,3}:[ \t]", re.ASCII | re.MULTILINE)
#: A line of :data:`_DEFINITION_LINE` after the line ending above it (the lines worth trying).
_DEFINITION_HINT: Final = re.compile(r"\n {0,3}:[ \t]", re.ASCII)
_TERM_WHY: Final = (
    "the definition on line {} (def_list) makes this line a definition list's term (<dt>), not a paragraph's line"
)


def _blank(view: str, start: int) -> bool:
    end = view.find("\n", start)
    return not view[start : len(view) if end < 0 else end].strip(" \t\r")


def _definition_terms(
    view: str, candidates: Sequence[int], fenced: Sequence[tuple[int, int]], doubts: dict[int, tuple[str, int]]
) -> None:
    """Note the candidates Python-Markdown takes as a definition list's terms (hostile finding 2b): the
    lines above a ``:   definition`` line in its stretch of lines, or, where the definition begins its
    stretch, the stretch above it across blank lines. Linear: each line is walked back over once (no
    walk goes below the definition line before)."""
    covered = 0
    k = 0
    line_of = _Lines(view)
    first = candidates[0] if candidates else len(view)
    for definition in hinted_line_matches(_DEFINITION_LINE, _DEFINITION_HINT, view, first, line=-1):
        here = definition.start()
        while k < len(fenced) and fenced[k][1] < here:
            k += 1
        if k < len(fenced) and fenced[k][0] <= here:
            continue  # a line of code
        start = here
        if start > covered and _blank(view, _line_above(view, start)):  # it begins its block: the one above
            above = _line_above(view, start)
            while above > covered and _blank(view, above):
                above = _line_above(view, above)
            if above >= covered and not _blank(view, above):
                start = above
        while start > covered and not _blank(view, _line_above(view, start)):
            start = _line_above(view, start)
        terms = candidates[bisect.bisect_left(candidates, start) : bisect.bisect_left(candidates, here)]
        if terms:
            line = line_of(here)
            for at in terms:
                doubts.setdefault(at, (_TERM_WHY.format(line + 1), line))
        covered = here


def _line_above(view: str, start: int) -> int:
    """The start of the line above the line starting at ``start`` (0 for the first line)."""
    return view.rfind("\n", 0, start - 1) + 1 if start > 0 else 0


def bracket_math_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first ``\\(`` of a candidate's stretch of lines whose ``\\)`` (the first after it)
    is on a later line, or -1: arithmatex (generic) reads ``\\(...\\)`` as inline math over lines, and the
    lines inside show as math, not as text (hostile round 3). Linear: each stretch is walked once."""
    for start, end in candidates_stretches(view, candidates):
        opened = view.find("\\(", start, end)
        while opened >= 0:
            closed = view.find("\\)", opened + 2, end)
            if closed < 0:
                break
            if view.find("\n", opened, closed) >= 0:
                return opened
            opened = view.find("\\(", closed + 2, end)
    return -1
