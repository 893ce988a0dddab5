"""MkDocs lines read alone: attribute lists, escaped tags, backticks in tags."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from typing import Final

from .blocks.scan import candidates_stretches, first_in_a_candidates_paragraph

__all__ = ["attribute_line", "escaped_tag", "open_at_reference", "outside_fenced_code", "snippet_marked"]
#: At most this many abbreviations are followed; a page with more has every candidate line in doubt.
MAX_ABBREVIATIONS: Final = 256
#: ``8<``, what every pymdownx.snippets line holds: ``re`` finds a two-byte literal from its first byte, twice
#: as fast as ``bytes.find`` (which, on Python 3.11, steps a byte or two at a time for a two-byte needle).
_SNIPPET_MARK: Final = re.compile(rb"8<")


def snippet_marked(encoded: bytes) -> bool:
    """``b"8<" in encoded``, the same answer at half the cost: may the page hold a snippets line?"""
    return _SNIPPET_MARK.search(encoded) is not None


class _Lines:
    """0-based line numbers of increasing offsets, counted on from the last one asked (linear in all)."""

    def __init__(self, view: str) -> None:
        self.view, self.offset, self.line = view, 0, 0

    def __call__(self, offset: int) -> int:
        if offset < self.offset:
            self.offset, self.line = 0, 0
        view = self.view
        self.line += (
            view.count("\n", self.offset, offset)
            + view.count("\r", self.offset, offset)
            - view.count("\r\n", self.offset, offset)
        )
        self.offset = offset
        return self.line


#: A tag, comment or autolink (``<`` and a letter, ``/``, ``!`` or ``?``) holding a backtick before its ``>``.
_BACKTICK_IN_TAG: Final = re.compile(r"<[A-Za-z/!?][^<>`]*`", re.ASCII)
_BACKTICK_IN_TAG_WHY: Final = (
    "Python-Markdown reads code spans before autolinks and raw HTML: the backtick inside "
    "the '<...>' on line {} may open a code span over this line"
)


def _backtick_in_tags(
    view: str, candidates: Sequence[int], fenced: Sequence[tuple[int, int]], doubts: dict[int, tuple[str, int]]
) -> None:
    """Note the candidates after a ``<...>`` holding a backtick, and before a later backtick, in their
    stretch of lines (hostile finding 2e): CommonMark reads the tag or autolink first and the backtick
    inside it is no code span;
    Python-Markdown pairs it with a later backtick into a code span, which may hide the line. Linear:
    each attempt stops at the next ``<``."""
    line_of = _Lines(view)
    for start, end in candidates_stretches(view, candidates):
        found = _BACKTICK_IN_TAG.search(view, start, end)
        if found is None:
            continue
        last = view.rfind("`", found.end(), end)  # a code span over a line needs a backtick after it
        line = line_of(found.start())
        for at in candidates[bisect.bisect_right(candidates, found.start()) : bisect.bisect_left(candidates, last)]:
            doubts.setdefault(at, (_BACKTICK_IN_TAG_WHY.format(line + 1), line))


def _line_end(view: str, at: int) -> int:
    end = len(view)
    for ending in ("\n", "\r"):
        found = view.find(ending, at, end)
        if found != -1:
            end = found
    return end


def _abbreviated(
    view: str,
    abbreviations: list[tuple[str, int]],
    on_line: list[tuple[int, int, int]],
    doubts: dict[int, tuple[str, int]],
) -> None:
    """Note the candidates whose line holds a word an abbreviation (``*[word]: ...``) defines: the abbr
    extension wraps it in ``<abbr>``, so the line is no longer plain text."""
    if len(abbreviations) > MAX_ABBREVIATIONS:
        for at, _, _ in on_line:
            doubts.setdefault(at, (f"the page defines more than {MAX_ABBREVIATIONS} abbreviations", 0))
        return
    words = re.compile("|".join(sorted((re.escape(term) for term, _ in abbreviations), key=len, reverse=True)))
    lines = dict(abbreviations)
    for at, end, _ in on_line:
        found = words.search(view, at, end)
        if found is not None:
            line = lines.get(found.group(), 0)
            doubts.setdefault(
                at,
                (f"the abbreviation defined on line {line + 1} (abbr) marks up {found.group()!r} on this line", line),
            )


#: attr_list's block form: a line of its own in braces sets the attributes of the paragraph above
#: (``{: hidden }``, ``{/* x */}``: Python-Markdown takes ``hidden`` as an attribute).
_ATTRIBUTE_LINE: Final = re.compile(r"^[ ]{0,3}\{[^\r\n]*\}[ \t]*\r?$", re.ASCII | re.MULTILINE)
#: ``\<`` is no escape to Python-Markdown (its escapable characters do not include ``<``): the tag is raw HTML.
_ESCAPED_TAG: Final = re.compile(r"\\<[A-Za-z/!?]", re.ASCII)
#: A numeric reference to ``@`` without its ``;``, which Python-Markdown completes (CommonMark shows it as text).
_OPEN_AT_REFERENCE: Final = re.compile(r"&#(?:0*64|[xX]0*40)(?![0-9A-Fa-f;])", re.ASCII)


def attribute_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first attr_list line (``{...}`` alone) in a stretch of lines that holds a
    candidate, or -1: Python-Markdown gives its attributes (``hidden``, ``style``) to the paragraph.
    A ``{...}`` line in fenced code is code (:func:`outside_fenced_code`: JSON below a line of a
    ```` ```json ```` block, issue 29), no attribute list."""
    return first_in_a_candidates_paragraph(view, outside_fenced_code(view, _ATTRIBUTE_LINE.finditer(view)), candidates)


def outside_fenced_code(view: str, matches: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """``matches`` (in order) but those inside fenced code by every reading (:func:`_fenced_code`, read
    only when there is a match)."""
    code: list[tuple[int, int]] | None = None
    k = 0
    for found in matches:
        if code is None:
            code = _fenced_code(view)
        while k < len(code) and code[k][1] <= found.start():
            k += 1
        if not (k < len(code) and code[k][0] <= found.start()):
            yield found


#: A fence opened at a line's very start, first in its stretch of lines: its run (backticks with no
#: backtick after them, or tildes).
_OPENER: Final = re.compile(r"(?:\A|(?<=\n)[ \t\r]*\n)(`{3,}(?!`)(?![^`\r\n]*`)|~{3,}(?!~))[^\r\n]*\r?\n", re.ASCII)


def _fenced_code(view: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the lines that are fenced code by every reading, in order: after a fence opened
    at a line's very start right after a blank line (or the page's start), up to the first line that
    may close it (0-3 spaces, its run or longer), when a line at or below that one holds exactly its run
    at the line's start (Python-Markdown's fenced_code closes only on the same fence). Anything else is
    not taken for code (the safe side: a ``{...}`` line there is read as attr_list's). Linear: the
    search goes on from each closing line, and an exact closing run searched for in vain is not searched
    for again."""
    code: list[tuple[int, int]] = []
    none_after: dict[str, int] = {}  # run -> an offset after which no line holds exactly that run
    at = 0
    while True:
        opener = _OPENER.search(view, at)
        if opener is None:
            return code
        run = opener.group(1)
        body = opener.end()
        closer = re.compile(rf"^[ ]{{0,3}}{re.escape(run[0])}{{{len(run)},}}[ \t]*\r?$", re.MULTILINE).search(
            view, body
        )
        end = len(view) if closer is None else closer.start()
        if closer is not None and none_after.get(run, len(view) + 1) > end:
            exact = re.compile(rf"^{re.escape(run)}[ \t]*\r?$", re.MULTILINE).search(view, end)
            if exact is None:
                none_after[run] = end
            else:
                code.append((body, end))
        if closer is None:
            return code
        at = closer.end()


def escaped_tag(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first ``\\<`` before a tag name on a page with candidates, or -1: Python-Markdown
    passes the tag through as raw HTML, which may hide or contain what follows."""
    found = _ESCAPED_TAG.search(view)
    return found.start() if found is not None and candidates else -1


def open_at_reference(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first ``&#64`` or ``&#x40`` without ``;``, or -1: Python-Markdown shows an at
    sign there, so the text after it may read as a directive CommonMark shows as text."""
    found = _OPEN_AT_REFERENCE.search(view)
    return found.start() if found is not None else -1
