"""A fenced code block's opening and closing lines, once for every reader (no I/O).

The rule is CommonMark 0.31.2 §4.5 (Fenced code blocks); each site's renderer
departs from it in a few documented ways, each a :class:`FenceFlavour` value
(immutable: pass the one the site renders with, never a global switch):

* :data:`COMMONMARK_FENCES` (CommonMark, GitHub, markdown-it, and the answer reader's
  chat window): an opening fence is 0-3 spaces of indentation, then a run of 3
  or more backticks with no backtick after it on the line, or 3 or more tildes
  (any info string). A closing fence is 0-3 spaces, a run of the opener's
  character at least as long as the opener's, then only spaces or tabs.
* :data:`MDX_FENCES` (micromark, Docusaurus): as CommonMark, but a closing fence may be
  indented any amount (MDX has no indented code).
* :data:`MYST_FENCES` (myst-parser with mdit-py-plugins ``colon_fence``): as
  CommonMark, and a run of 3 or more colons opens (any info) and closes a
  colon fence the same way.
* :data:`SUPERFENCES` (Python-Markdown + pymdownx.superfences, MkDocs): a fence
  may be indented any amount; the opening line holds only the run and a
  language, options (``title="..."``) or an attribute list (``{ .lang }``); it
  is closed by the next line of exactly the same run at exactly the same
  indentation (a longer or shorter run does not close it).

Patterns are matched at the run (a line's first non-space character), but
:data:`SUPERFENCE_ONLY`, which is matched on the whole view. The view is the
page's bytes (one character per byte), so every pattern is compiled with
``re.ASCII``. The page-wide search for a top-level closing fence,
:func:`~_conflict_gate.reading.blocks.scan.closing_fence`, is this module's
closing rule written for speed (tests/test_fences.py checks the two agree).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = [
    "COMMONMARK_FENCES",
    "FENCE_CLOSE",
    "FENCE_OPEN",
    "MDX_FENCES",
    "MYST_FENCES",
    "SUPERFENCES",
    "SUPERFENCE_ONLY",
    "SUPERFENCE_OPEN",
    "FenceFlavour",
    "closes",
    "opening_run",
]

#: §4.5: three or more backticks (no backtick after them on the line) or three or more tildes.
FENCE_OPEN: Final = re.compile(r"`{3,}(?!`)(?![^`\n]*`)|~{3,}", re.ASCII)
#: §4.5: a run of three or more backticks or tildes, then only spaces or tabs to the end of the line.
FENCE_CLOSE: Final = re.compile(r"(?:`{3,}|~{3,})(?=[ \t]*\Z)", re.ASCII)
#: mdit-py-plugins ``colon_fence``: three or more colons open a colon fence (any info string).
COLON_OPEN: Final = re.compile(r":{3,}", re.ASCII)
#: ... and close it, followed by only spaces or tabs.
COLON_CLOSE: Final = re.compile(r":{3,}(?=[ \t]*\Z)", re.ASCII)
#: pymdownx.superfences: the opening line after its indentation: the run, then a language, options
#: (``title="..."``) or an attribute list, and nothing else.
SUPERFENCE_OPEN: Final = re.compile(
    r"(`{3,}|~{3,})[ \t]*(?:\{[^\r\n{}]*\}|[\w#.+-]*[ \t]*(?:[A-Za-z][A-Za-z0-9_]*"
    r"(?:=(?:\"[^\"]*\"|'[^']*'))?[ \t]*)*)\Z",
    re.ASCII,
)
#: pymdownx.superfences: a line that may close a fence: indentation (group 1), the run (group 2), then
#: only spaces or tabs (matched on the whole view: ``re.MULTILINE``). It closes the fence whose opener
#: had exactly this indentation and this run.
SUPERFENCE_ONLY: Final = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*\r?$", re.ASCII | re.MULTILINE)


@dataclass(frozen=True)
class FenceFlavour:
    """How one renderer reads fence lines (see the module's docstring for each value's source)."""

    name: str
    #: The deepest indentation (columns) of a closing fence; ``None``: any.
    closer_indent: int | None
    #: Colon fences (``:::``) open and close too.
    colons: bool = False
    #: The closer must repeat the opener's run and indentation exactly (superfences).
    exact_closer: bool = False

    def may_close(self, indent: int) -> bool:
        """May a line indented ``indent`` columns (inside its containers) close a fence?"""
        return self.closer_indent is None or indent <= self.closer_indent


COMMONMARK_FENCES: Final = FenceFlavour("CommonMark", 3)
MDX_FENCES: Final = FenceFlavour("MDX", None)
MYST_FENCES: Final = FenceFlavour("MyST", 3, colons=True)
SUPERFENCES: Final = FenceFlavour("superfences", None, exact_closer=True)


def opening_run(line: str, at: int, flavour: FenceFlavour = COMMONMARK_FENCES, end: int | None = None) -> str | None:
    """The run of an opening fence beginning at ``line[at]`` (before ``end``), or ``None``.

    The caller checks the indentation (0-3 columns but for :data:`SUPERFENCES`).
    For :data:`SUPERFENCES` the rest of the line must be a language, options or
    an attribute list (``line[at:end]`` must hold no line ending).
    """
    stop = len(line) if end is None else end
    if flavour.exact_closer:
        found = SUPERFENCE_OPEN.match(line, at, stop)
        return None if found is None else found.group(1)
    found = FENCE_OPEN.match(line, at, stop)
    if found is None and flavour.colons:
        found = COLON_OPEN.match(line, at, stop)
    return None if found is None else found.group()


def closes(line: str, at: int, char: str, length: int, flavour: FenceFlavour = COMMONMARK_FENCES) -> bool:
    """Does ``line`` (one line, its line ending removed) close a fence of ``length`` ``char`` with
    the run beginning at ``line[at]``? The caller checks the indentation with
    :meth:`FenceFlavour.may_close` (or, for :data:`SUPERFENCES`, that it is the opener's)."""
    if line[at : at + 1] != char:
        return False
    found = (COLON_CLOSE if char == ":" and flavour.colons else FENCE_CLOSE).match(line, at)
    if found is None or found.group()[0] != char:
        return False
    return len(found.group()) == length if flavour.exact_closer else len(found.group()) >= length
