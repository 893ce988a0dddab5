"""Line patterns and scanners over the byte view, shared by the rules and the shortcuts (no I/O).

Patterns are matched at a line's first non-space character unless said
otherwise. The view is the page's bytes (one character per byte), so every
pattern is compiled with ``re.ASCII`` and names its characters explicitly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from ..fences import FENCE_OPEN, MDX_FENCES, closes
from ..inline_html import html_tag_end

__all__ = [
    "ATX_OPEN",
    "BLOCK_TAG_NAMES",
    "BULLET",
    "HTML_ENDS",
    "HTML_STARTS",
    "KIND_1_NAMES",
    "KIND_1_OPEN_TAG",
    "ORDERED",
    "SETEXT_UNDERLINE",
    "candidates_stretches",
    "closing_fence",
    "first_in_a_candidates_paragraph",
    "hinted_line_matches",
    "html_kind",
    "is_thematic_break",
    "next_blank_line",
    "top_level_code_end",
    "whole_tag_line",
]

#: 4.1: a character other than the marker, spaces and tabs (its absence makes a thematic break).
_NOT_BREAK: Final = {marker: re.compile(rf"[^ \t{re.escape(marker)}]", re.ASCII) for marker in "*-_"}


def is_thematic_break(line: str, at: int) -> bool:
    """4.1: from ``at``, three or more of one of ``*``, ``-``, ``_``, and only spaces or tabs besides."""
    marker = line[at : at + 1]
    if marker not in _NOT_BREAK or _NOT_BREAK[marker].search(line, at):
        return False
    return line.count(marker, at) >= 3


#: 4.2: one to six ``#``, then a space, a tab or the end of the line.
ATX_OPEN: Final = re.compile(r"#{1,6}(?:[ \t]|\Z)", re.ASCII)
#: 4.3: a run of ``=`` or of ``-``, then only spaces or tabs.
SETEXT_UNDERLINE: Final = re.compile(r"(?:=+|-+)[ \t]*\Z", re.ASCII)
#: 5.2: a bullet list marker or an ordered list marker (1-9 digits).
BULLET: Final = re.compile(r"[*+\-]", re.ASCII)
ORDERED: Final = re.compile(r"([0-9]{1,9})([.)])", re.ASCII)

#: 4.6: tag names of HTML block kind 1 (raw text: it ends at the line holding the closing tag, blank
#: lines included), for every rule that starts or ends one.
KIND_1_NAMES: Final = "pre|script|style|textarea"
#: 4.6: block tag names of HTML block kind 6.
BLOCK_TAG_NAMES: Final = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|"
    "head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|"
    "p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
#: 4.6: start conditions of HTML block kinds 1-6 (kind 7, a whole tag alone on its line, is
#: checked with the inline tag scanner, which is linear on any line). Tag names match
#: case-insensitively in ASCII only.
HTML_STARTS: Final = (
    re.compile(rf"<(?:{KIND_1_NAMES})(?:[ \t>]|\Z)", re.IGNORECASE | re.ASCII),
    re.compile(r"<!--", re.ASCII),
    re.compile(r"<\?", re.ASCII),
    re.compile(r"<![A-Za-z]", re.ASCII),
    re.compile(r"<!\[CDATA\[", re.ASCII),
    re.compile(rf"</?(?:{BLOCK_TAG_NAMES})(?:[ \t]|/?>|\Z)", re.IGNORECASE | re.ASCII),
)
#: 4.6: end conditions of kinds 1-5 (a line containing them); kinds 6 and 7 end before a blank line.
HTML_ENDS: Final = (
    re.compile(rf"</(?:{KIND_1_NAMES})>", re.IGNORECASE | re.ASCII),
    re.compile(r"-->", re.ASCII),
    re.compile(r"\?>", re.ASCII),
    re.compile(r">", re.ASCII),
    re.compile(r"\]\]>", re.ASCII),
)
KIND_1_OPEN_TAG: Final = re.compile(rf"<(?:{KIND_1_NAMES})(?![A-Za-z0-9\-])", re.IGNORECASE | re.ASCII)


def html_kind(line: str, at: int, end: int | None = None) -> int:
    """4.6: the kind (1-6) whose start condition ``line`` meets at ``at`` (before ``end``), else 7."""
    stop = len(line) if end is None else end
    return next((kind for kind, start in enumerate(HTML_STARTS, 1) if start.match(line, at, stop)), 7)


def whole_tag_line(line: str, at: int) -> bool:
    """4.6 kind 7: an open or closing tag (6.6) on this line, then only spaces or tabs."""
    if line.startswith("<!", at) or line.startswith("<?", at) or "\n" in line:
        return False
    end = html_tag_end(line, at)
    return end > 0 and not line[end:].strip(" \t")


_BLANK_AFTER_NEWLINE: Final = re.compile(r"\n[ \t]*\r?(?=\n)", re.ASCII)


#: Text :func:`lines_chunk_end` lets one match of repeated whole lines take: Python's regular-expression
#: engine keeps state for each repetition of a group until the match ends (about 100 bytes a line).
LINES_CHUNK: Final = 1 << 16


def lines_chunk_end(view: str, pos: int) -> int:
    """Where a match of whole lines from ``pos`` may stop without cutting a line: past the ``\n`` of
    the line holding ``pos + LINES_CHUNK``, or the view's end. Bounds the engine's memory on a page of
    millions of short lines; the caller matches again from the end."""
    end = view.find("\n", pos + LINES_CHUNK)
    return len(view) if end == -1 else end + 1


def next_blank_line(view: str, pos: int) -> int:
    """Start of the first blank line at or after line start ``pos``, or ``len(view)``."""
    if pos < len(view) and view[pos] in " \t\r\n" and not view[pos : view.find("\n", pos)].strip(" \t\r"):
        return pos
    found = _BLANK_AFTER_NEWLINE.search(view, max(pos - 1, 0))
    return len(view) if found is None else found.start() + 1


def first_in_a_candidates_paragraph(view: str, matches: Iterator[re.Match[str]], candidates: Sequence[int]) -> int:
    """The start of the first of ``matches`` (in order) whose stretch of lines between blank lines also
    holds one of ``candidates`` (byte offsets, in order), or -1: for a construct that changes what a
    whole paragraph shows. Linear: the candidates' stretches (:func:`candidates_stretches`) and the
    matches are walked side by side."""
    match = next(matches, None)
    for start, end in candidates_stretches(view, candidates):
        while match is not None and match.start() < start:
            match = next(matches, None)
        if match is None:
            return -1
        if match.start() < end:
            return match.start()
    return -1


def candidates_stretches(view: str, candidates: Sequence[int]) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each stretch of lines between blank lines that holds one of ``candidates``
    (byte offsets, in order), in order, each once. Linear: a stretch is walked once."""
    done = -1
    for at in candidates:
        if at < done:
            continue
        start = view.rfind("\n", 0, at) + 1
        while start > 0:  # back to the stretch's first line
            above = view.rfind("\n", 0, start - 1) + 1
            if not view[above:start].strip(" \t\r\n"):
                break
            start = above
        newline = view.find("\n", at)
        done = next_blank_line(view, newline + 1 if newline >= 0 else len(view))
        yield start, done


def closing_fence(view: str, pos: int, char: str, length: int) -> int:
    """Start of the first line at or after ``pos`` that closes a top-level fence (4.5), or -1.

    A closing fence: 0-3 spaces, ``length`` or more ``char``, then only spaces
    or tabs. Found with ``str.find`` on the run, then checked: fast on any text.
    Only the first run on a line can close the fence, so the search goes on
    from the next line; each line is looked at once (a long line of runs
    costs its length, not its length times its runs).
    """
    run = char * 3
    i = view.find(run, pos)
    line_start = view.rfind("\n", 0, i) + 1 if i != -1 else 0
    while i != -1:
        if line_start >= pos and i - line_start <= 3 and not view[line_start:i].strip(" "):
            j = i
            while j < len(view) and view[j] == char:
                j += 1
            line_end = view.find("\n", j)
            if j - i >= length and not view[j:line_end].strip(" \t\r"):
                return line_start
        line_end = view.find("\n", i)
        if line_end == -1:
            return -1
        line_start = line_end + 1
        i = view.find(run, line_start)
        if i != -1:
            newline = view.rfind("\n", line_start, i)
            line_start = line_start if newline == -1 else newline + 1
    return -1


def hinted_line_matches(
    pattern: re.Pattern[str],
    hint: re.Pattern[str] | tuple[str, ...],
    view: str,
    start: int = 0,
    end: int | None = None,
    *,
    line: int = 0,
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(view, start, end)``, for a ``pattern`` that matches only at a line's start
    (``^`` under ``re.MULTILINE``, which the ``re`` module tries at every character: 10-15 ns a
    byte) and every match of which holds a match of ``hint`` on its line ``line`` (0: its first line;
    1: the line after it, for a pattern over two lines; -1: ``hint`` begins with the ``\n`` that ends
    the line above, and the first line of ``view[start:end]`` is tried too). ``hint`` is a pattern
    ``re`` finds fast (a literal first: one ``memchr`` per occurrence) or literal strings (each found
    with ``str.find``, once per line). Only the lines a hint names are tried, once each, in order,
    never before the end of the match before (as ``finditer`` goes on), so the matches are the same:
    every match's line is tried, and a line that matches is a match wherever it was named from.
    ``hint`` must not match a line ending (but the first ``\n`` of ``line=-1``)."""
    stop = len(view) if end is None else end
    done = hinted = start
    if line >= 0 and not isinstance(hint, tuple):  # the hint's first match first: most pages have none
        first = hint.search(view, start, stop)
        if first is None:
            return
        hinted = first.start()  # finditer from there finds the same matches: none comes before
    for line_start in _hinted_lines(hint, view, hinted, stop, line):
        if line_start < done:
            continue
        match = pattern.match(view, line_start, stop)
        if match is not None:
            done = match.end() if match.end() > line_start else line_start + 1
            yield match
        else:
            done = line_start + 1


def _hinted_lines(
    hint: re.Pattern[str] | tuple[str, ...], view: str, start: int, stop: int, line: int
) -> Iterator[int]:
    """The line starts :func:`hinted_line_matches` tries, in increasing order (repeats allowed)."""
    if line == -1:
        if start == 0 or view[start - 1] == "\n":
            yield start
        assert not isinstance(hint, tuple)
        for found in hint.finditer(view, start, stop):
            yield found.start() + 1
        return
    if isinstance(hint, tuple):
        starts: list[int] = []
        for literal in hint:
            at = view.find(literal, start, stop)
            while at != -1:
                starts.append(view.rfind("\n", 0, at) + 1)
                newline = view.find("\n", at)
                if newline == -1:
                    break
                at = view.find(literal, newline + 1, stop)
        found_starts: Iterator[int] = iter(sorted(starts))
    else:
        found_starts = (view.rfind("\n", 0, found.start()) + 1 for found in hint.finditer(view, start, stop))
    for line_start in found_starts:
        for _ in range(line):
            if line_start == 0:
                break
            line_start = view.rfind("\n", 0, line_start - 1) + 1
        else:
            yield line_start


#: A fence opened at a line's very start (no indentation, no container: a fenced code block of the page's
#: top level, which no lazy line continues), not one Docusaurus unwraps (``mdx-code-block``, whose body is MDX).
_TOP_LEVEL_FENCE: Final = re.compile(rf"^(?:{FENCE_OPEN.pattern})(?![ \t]*mdx-code-block\r?$)", re.ASCII | re.MULTILINE)


def top_level_code_end(view: str, searched: int, at: int) -> int:
    """Where the fenced code that holds the line at ``at`` ends, or ``at`` if none does (``searched``: what
    the last call returned, -1 at first; below it, it is returned again). The code is a fence opened at a
    line's very start between ``searched`` and ``at`` (:data:`~_conflict_gate.reading.fences.FENCE_OPEN`),
    ended by the first line that closes it under :data:`~_conflict_gate.reading.fences.MDX_FENCES` after
    any quote markers (so at any indentation and in any quotes: code read as ending early leaves more lines
    to be read otherwise, the safe side), or by the end of the page. MDX reads an ``import``/``export``
    line there as code, not ESM (issue 29: ``export default x`` in a ```` ```js ```` block). Linear over a
    page asked in order: each stretch from ``searched`` is searched once, each line looked at once."""
    if at < searched:
        return searched
    start = max(searched, 0)
    while (opener := _TOP_LEVEL_FENCE.search(view, start, at)) is not None:
        line_end = view.find("\n", opener.end())
        if line_end < 0:
            break
        end = _loose_closing_end(view, line_end + 1, opener.group()[0], len(opener.group()))
        if end > at:
            return end
        start = end
    return at  # no fenced code holds it: searched up to here


def _loose_closing_end(view: str, pos: int, char: str, length: int) -> int:
    """The end (before its line ending) of the first line at or after ``pos`` that, after any spaces, tabs
    and ``>``, closes a fence of ``length`` ``char`` under :data:`MDX_FENCES`; ``len(view)`` if none does.
    Found with ``str.find`` on the run; each line is looked at once."""
    run = char * length
    i = view.find(run, pos)
    while i != -1:
        line_start = view.rfind("\n", pos, i) + 1 or pos
        line_end = view.find("\n", i)
        line = view[line_start : len(view) if line_end < 0 else line_end]
        line = line[:-1] if line.endswith("\r") else line
        lead = len(line) - len(line.lstrip(" \t>"))
        if line_start + lead == i and closes(line, lead, char, length, MDX_FENCES):
            return line_start + len(line)
        if line_end < 0:
            break
        i = view.find(run, line_end + 1)
    return len(view)
