"""Shortcuts: stretches of lines taken at once where the rules' outcome is known (no I/O).

The rules walk lines one at a time; these take common stretches with one
regular-expression match or one ``str.find`` each: a top-level run of blank,
ATX heading and plain paragraph lines; a paragraph's plain continuation
lines; a top-level fenced code, indented code or HTML block up to its end;
and, with nothing open, a jump to the last *restart point* before the next
watched line. Each takes exactly the lines the rules would take
(``parse_blocks(..., fast=False)`` turns them off; the tests compare both).

What is plain is derived from the flavour's table (:func:`compile_shortcuts`):
a line whose first character no row claims. The per-construct parts are
each row's :class:`~_conflict_gate.reading.blocks.construct.Shortcuts` and
:class:`~_conflict_gate.reading.blocks.construct.Opener`; the ones for the
CommonMark constructs are here.
"""

from __future__ import annotations

import bisect
import heapq
import re
from array import array
from collections.abc import Iterable
from typing import Any, Final, NamedTuple

from ..fences import FENCE_OPEN
from .construct import NOT_AN_OPENER, STOP, Construct
from .leaves import FenceData, HtmlData
from .scan import HTML_ENDS, closing_fence, html_kind, next_blank_line, whole_tag_line
from .state import PARAGRAPH, Block, State, take

__all__ = [
    "FastPatterns",
    "compile_shortcuts",
    "fence_opener_end",
    "fenced_line_start",
    "fenced_run",
    "html_opener_end",
    "html_run",
    "indented_line_start",
    "indented_run",
    "paragraph_line_start",
    "restart_point",
    "shortcut",
]

#: A run pattern is matched over at most this many characters at a time: Python's ``re`` keeps
#: state per repetition of a group, so an unbounded run over a huge block would hold memory
#: in proportion to its lines.
_RUN_CHUNK: Final = 1 << 15
_BLANK_LINE: Final = re.compile(r"[ \t]*\r?\n", re.ASCII)
#: A top-level indented code block's lines: four columns of indentation, or blank.
_INDENTED_RUN: Final = re.compile(r"(?:(?: {4}| {0,3}\t)[^\n]*\n|[ \t]*\r?\n)*", re.ASCII)
#: Where a restart point may be: an unindented line, not blank, not ``[`` (see restart_point).
_RESTART_AT: Final = re.compile(r"[^ \t\r\n\[]", re.ASCII)


class FastPatterns(NamedTuple):
    """The run patterns of one flavour's table (over the view, where every line ends with ``\\n`` and
    a CRLF line keeps its ``\\r``)."""

    #: Plain lines continue an open paragraph, whatever containers are open (matched or lazily).
    continuation_run: re.Pattern[str]
    #: A paragraph's first line at top level (plain) and its continuation lines.
    paragraph_run: re.Pattern[str]
    #: At top level with nothing open: blank lines, the rows' ``top_lines`` (ATX headings), and
    #: paragraphs that start plain; group ``para`` is the last paragraph.
    top_run: re.Pattern[str]
    #: The same after an open top-level paragraph, whose continuation lines (group ``open``) come first.
    top_run_after_paragraph: re.Pattern[str]


def compile_shortcuts(constructs: Iterable[Construct], *, indented: bool = True) -> FastPatterns:
    """The run patterns for a table: a plain first character is one no row's ``first`` holds (nor
    ``[``, which may open a link reference definition, a block of its own to markdown-it), or one
    that only rows with a ``Shortcuts.plain`` pattern claim, on lines that pattern matches. Without
    ``indented``, continuation lines are indented at most three spaces (a line check reads the others)."""
    rows = list(constructs)
    claimed = frozenset().union(*(row.first for row in rows))
    special = "".join(re.escape(ch) for ch in sorted(claimed))
    alternatives = [rf"[^\s\[{special}]"]
    for row in rows:
        if row.shortcuts.plain is None:
            continue
        others = frozenset().union(*(other.first for other in rows if other is not row))
        sole = row.first - others
        if sole:  # only on lines that start with a character no other row claims
            chars = "".join(re.escape(ch) for ch in sorted(sole))
            alternatives.append(rf"(?=[{chars}])(?:{row.shortcuts.plain})")
    plain = "(?:" + "|".join(alternatives) + ")"
    indentation = r"[ \t]*" if indented else r"[ ]{0,3}"
    continuation_line = rf"{indentation}(?:{plain}|\[)[^\n]*\n"
    top_lines = "".join(f"|{row.shortcuts.top_lines}" for row in rows if row.shortcuts.top_lines)
    top_blocks = (
        rf"(?:[ \t]*\r?\n{top_lines}"
        rf"|(?P<para>[ ]{{0,3}}{plain}[^\n]*\n(?:{continuation_line})*))*"
    )
    return FastPatterns(
        re.compile(rf"(?:{continuation_line})*", re.ASCII),
        re.compile(rf"[ ]{{0,3}}{plain}[^\n]*\n(?:{continuation_line})*", re.ASCII),
        re.compile(top_blocks, re.ASCII),
        re.compile(rf"(?P<open>(?:{continuation_line})*)" + top_blocks, re.ASCII),
    )


# --------------------------------------------------------------------------
# The shortcuts, tried before each line


def shortcut(s: State, stop: int) -> bool:
    """Take a stretch of lines at once where the rules' outcome is known; False when none applies.

    ``stop`` is the start of the next watched line: top-level runs end
    there, so every watched line outside a paragraph goes through the rules.
    """
    view, tip, patterns = s.view, s.stack[-1], s.flavour.fast
    at_top = len(s.stack) == 1 or (len(s.stack) == 2 and tip.kind == PARAGRAPH)
    if (
        at_top
        and stop > s.pos
        and not (
            s.flavour.definitions_as_blocks
            and tip.kind == PARAGRAPH
            and view[tip.lines[0][1] : tip.lines[0][1] + 1] == "["
        )
    ):
        return _top_run(s, tip, stop)
    if len(s.stack) == 1:  # a watched line at top level: a plain one starts a paragraph of plain lines
        run = patterns.paragraph_run.match(view, s.pos, s.pos + _RUN_CHUNK)
        if run is None:
            return False
        paragraph = s.add_child(PARAGRAPH, None)
        paragraph.line = s.line_no + 1
        take(s, paragraph, run.end())
        return True
    if tip.kind == PARAGRAPH:
        if s.flavour.definitions_as_blocks and view[tip.lines[0][1] : tip.lines[0][1] + 1] == "[":
            return False  # markdown-it may end it after a link definition: line by line
        run = patterns.continuation_run.match(view, s.pos, s.pos + _RUN_CHUNK)
        end = s.pos if run is None else run.end()
        if end > s.pos:
            take(s, tip, end)
            return True
        if len(s.stack) == 2:  # a top-level paragraph ends at a blank line (4.8)
            blank = _BLANK_LINE.match(view, s.pos)
            if blank is not None:
                s.close()
                s.line_no += 1
                s.pos = blank.end()
                return True
        return False
    if len(s.stack) != 2:
        return False
    run_rule = tip.construct.shortcuts.run
    return run_rule is not None and run_rule(s, tip)


def _match_end(pattern: re.Pattern[str], view: str, pos: int, end: int) -> int:
    """Where a run pattern (one that matches the empty string) ends from ``pos``."""
    match = pattern.match(view, pos, end)
    return pos if match is None else match.end()


def _top_run(s: State, tip: Block[Any], stop: int) -> bool:
    """At top level, take blank lines, ATX headings and plain paragraphs up to ``stop`` at once.

    None of these lines is watched. An open paragraph first takes its
    continuation lines; the last paragraph of the run stays open.
    """
    view, patterns = s.view, s.flavour.fast
    stop = min(stop, s.pos + _RUN_CHUNK)
    if tip.kind == PARAGRAPH:
        run = patterns.top_run_after_paragraph.match(view, s.pos, stop)
        if run is None or run.end() == s.pos:
            return False
        if run.end("open") > s.pos:
            take(s, tip, run.end("open"))
        if s.pos == run.end():
            return True
        s.close()  # a blank line or a heading ended it
    else:
        run = patterns.top_run.match(view, s.pos, stop)
        if run is None or run.end() == s.pos:
            return False
    if run.start("para") >= s.pos and run.end("para") == run.end():
        s.line_no += view.count("\n", s.pos, run.start("para"))
        s.pos = run.start("para")
        paragraph = s.add_child(PARAGRAPH, None)
        paragraph.line = s.line_no + 1
        take(s, paragraph, run.end())
    else:
        s.line_no += view.count("\n", s.pos, run.end())
        s.pos = run.end()
    return True


# --------------------------------------------------------------------------
# Restart points: where the parser may jump with nothing open


def restart_point(s: State, limit: int) -> int:
    """The last restart point in ``(s.pos, limit]``, or ``s.pos``: where the parser may jump.

    A restart point is an unindented line after an empty line (not ``[``,
    which markdown-it may read into a link definition before it). Called
    with nothing open (the stack is just the document): between here and a
    restart point a paragraph, a table and HTML blocks of kinds 6 and 7 end
    at the empty line; a block quote ends there too (5.1: an empty line has
    no ``>``); a list item ends at the unindented line (5.2), and a list
    that goes on there goes on with a new item, which holds the same leaves
    as a list started there; indented code ends at the unindented line. Only
    a block whose row has an ``opener`` (top-level fenced code, HTML blocks
    of kinds 1-5) can still be open, and those open only at lines starting
    (after 0-3 spaces) with one of its needles, which this follows exactly.
    An indented such line (it may sit in a list item) or one whose block
    depends on what comes before (an HTML block of kind 7 after a paragraph)
    stops the jump there. The same holds for each reading of the flavour.

    The walk over the openers is remembered per ``limit``: the parser calls
    again from a later line with nothing open, where the walk from there is
    the rest of the one remembered, so a page of back-to-back fences before
    an open block walks its openers once, not once per line.
    """
    view, start = s.view, s.pos
    walked = s.walks.get(limit)
    if walked is not None and walked[0] <= start <= walked[1]:
        return _remembered_restart(s, max(walked[2], start), walked[1])
    if s.openers is None:
        s.openers = _openers(view, view.rfind("\n", 0, s.watch[-1]) + 1, s.flavour.opener_needles)
        s.opener_ends = array("q", bytes(8 * len(s.openers)))  # 0: not known yet
    openers, ends = s.openers, s.opener_ends
    open_until = start  # nothing is open from here on
    stop_at = limit
    k = bisect.bisect_left(openers, start)
    while k < len(openers) and openers[k] < limit:
        line_start = openers[k]
        k += 1
        if line_start < open_until:
            continue
        end = ends[k - 1]
        if end == 0:
            end = ends[k - 1] = _opener_end(s, line_start)
        if end == NOT_AN_OPENER:
            continue
        if end == STOP or end > limit:  # may be open at the limit: jump no further than before it
            stop_at = line_start
            break
        open_until = end
    s.walks[limit] = (start, stop_at, open_until)
    return _remembered_restart(s, open_until, stop_at)


def _openers(view: str, end: int, needles: Iterable[str]) -> array[int]:
    """Line starts before ``end`` of the lines whose first non-blank text is one of ``needles``, in order.

    Found with ``str.find`` (fast on any text), once per page, up to the last
    watched line (no jump goes further): only these lines can open or close a
    top-level block that stays open over an empty line. Kept as an array of
    machine integers (8 bytes per line, not a Python object each), and so is
    each needle's list before they are merged.
    """
    per_needle = []
    for needle in needles:
        if view.find(needle[0], 0, end) == -1:  # one character: a fast scan rules most needles out
            continue
        found = array("q")
        i, previous = view.find(needle, 0, end), -1
        while i != -1:
            # Only the first hit on a line can be its first non-blank text; looking back no
            # further than the previous hit keeps a long line linear.
            newline = view.rfind("\n", previous + 1, i)
            if newline != -1 or previous == -1:
                line_start = newline + 1
                if not view[line_start:i].strip(" \t"):
                    found.append(line_start)
            previous = i
            i = view.find(needle, i + len(needle), end)
        per_needle.append(found)
    if len(per_needle) == 1:
        return per_needle[0]
    merged = array("q")
    for line_start in heapq.merge(*per_needle):
        if not merged or merged[-1] != line_start:
            merged.append(line_start)
    return merged


def _opener_end(s: State, line_start: int) -> int:
    """Where the top-level block an opener line (see :func:`_openers`) opens ends: the row whose
    needle the line starts with says (an indented line: :data:`STOP`, it may sit in a list item)."""
    view = s.view
    if view[line_start] in " \t":
        return STOP
    line_end = view.find("\n", line_start)
    for needle, opener in s.flavour.openers_by_first.get(view[line_start], ()):
        if view.startswith(needle, line_start):
            return opener.end(view, line_start, line_end)
    return NOT_AN_OPENER


def _remembered_restart(s: State, after: int, limit: int) -> int:
    """:func:`_last_restart` from ``s.pos``, remembering a search that found nothing: when nothing
    closes between restart points (a run of thematic breaks), each line would search the same
    stretch again."""
    searched = s.no_restart.get(limit)
    if searched is not None and max(after - 1, s.pos) >= searched:
        return s.pos
    found = _last_restart(s.view, s.pos, after, limit)
    if found == s.pos:
        s.no_restart[limit] = max(after - 1, s.pos)
    return found


def _last_restart(view: str, start: int, after: int, limit: int) -> int:
    """The last restart point in ``[after, limit]`` after an empty line, or ``start`` if none.

    Searches backwards for an empty line (``\\n\\n`` or ``\\r\\n\\r\\n``); a blank line
    holding spaces is passed over, which only means jumping less far.
    """
    end = limit
    low = max(after - 1, start)
    carriage_returns = view.find("\r", low, limit) != -1
    while end > low:
        lf = view.rfind("\n\n", low, end)
        crlf = view.rfind("\n\r\n", low, end) if carriage_returns else -1
        candidate = max(lf + 2 if lf >= 0 else -1, crlf + 3 if crlf >= 0 else -1)
        if candidate <= start:
            return start
        if candidate <= limit and _RESTART_AT.match(view, candidate):
            return candidate
        end = candidate - 1
    return start


# --------------------------------------------------------------------------
# The CommonMark constructs' parts


def paragraph_line_start(view: str, start: int, end: int, block: Block[Any]) -> int:
    """4.8: a paragraph line's content starts after its leading spaces and tabs."""
    while start < end and view[start] in " \t":
        start += 1
    return start


def indented_line_start(view: str, start: int, end: int, block: Block[Any]) -> int:
    """4.4: an indented code line's content starts after four columns (a blank line: at its end)."""
    column, i = 0, start
    while column < 4 and i < end and view[i] in " \t":
        column += 1 if view[i] == " " else 4 - column % 4
        i += 1
    return i if column >= 4 else end


def fenced_line_start(view: str, start: int, end: int, block: Block[FenceData]) -> int:
    """4.5: a fenced code line's content starts after up to the fence's indentation (a tab
    consumed in part stays), as :func:`~_conflict_gate.reading.blocks.leaves.fenced_code_continues` consumes it."""
    fence_indent = block.data.indent
    column, i = 0, start
    while column < fence_indent and i < end and view[i] in " \t":
        if view[i] == " ":
            i += 1
            column += 1
        else:
            to_tab = 4 - column % 4
            column += 1
            if to_tab == 1:
                i += 1
    return i


def fenced_run(s: State, tip: Block[FenceData]) -> bool:
    """A top-level fenced code block's lines, up to and with its closing fence (4.5), at once."""
    view = s.view
    closing = closing_fence(view, s.pos, tip.data.char, tip.data.length)
    end = len(view) if closing < 0 else closing
    if end > s.pos:
        take(s, tip, end)
    if closing >= 0:
        close_end = view.find("\n", closing)
        content_end = close_end - 1 if view[close_end - 1] == "\r" else close_end
        s.line_no += 1
        fence_start = closing
        while view[fence_start] == " ":
            fence_start += 1
        tip.add((s.line_no, fence_start, content_end))
        s.close()
        s.pos = close_end + 1
    return True


def indented_run(s: State, tip: Block[Any]) -> bool:
    """A top-level indented code block's lines (4.4: indented four columns, or blank), at once."""
    end = _match_end(_INDENTED_RUN, s.view, s.pos, s.pos + _RUN_CHUNK)
    if end == s.pos:
        return False
    take(s, tip, end)
    return True


def html_run(s: State, tip: Block[HtmlData]) -> bool:
    """A top-level HTML block's lines up to its end condition (4.6), at once."""
    view = s.view
    if tip.data.kind >= 6:
        end = next_blank_line(view, s.pos)
    else:
        found = HTML_ENDS[tip.data.kind - 1].search(view, s.pos)
        end = len(view) if found is None else view.find("\n", found.start()) + 1
    if end > s.pos:
        take(s, tip, end)
    s.close()
    return True


def fence_opener_end(view: str, line_start: int, line_end: int) -> int:
    """4.5: where a top-level fenced code block opened on this line ends (after its closing fence,
    or the end of the page); :data:`NOT_AN_OPENER` with a backtick in a backtick fence's info string."""
    run = FENCE_OPEN.match(view, line_start, line_end)
    if run is None:
        return NOT_AN_OPENER
    closing = closing_fence(view, line_end + 1, run.group()[0], len(run.group()))
    return len(view) if closing < 0 else view.find("\n", closing) + 1


def html_opener_end(view: str, line_start: int, line_end: int) -> int:
    """4.6: where a top-level HTML block opened on this line ends; :data:`STOP` for kind 7 after a
    line that is not empty (a paragraph there would keep it from starting)."""
    if view.startswith("<!--", line_start):  # kind 2, the commonest: up to the line holding "-->"
        found_at = view.find("-->", line_start)
        return len(view) if found_at == -1 else view.find("\n", found_at) + 1
    kind = html_kind(view, line_start, line_end)
    if kind == 7:
        if not whole_tag_line(view[line_start:line_end].rstrip("\r"), 0):
            return NOT_AN_OPENER
        if line_start > 0 and view[line_start - 2 : line_start] != "\n\n":
            return STOP  # after a paragraph?
    if kind <= 5:
        found = HTML_ENDS[kind - 1].search(view, line_start)
        return len(view) if found is None else view.find("\n", found.start()) + 1
    return next_blank_line(view, line_end + 1)
