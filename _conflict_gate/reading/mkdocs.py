"""MkDocs (Python-Markdown + the extensions mkdocs-material documents): a conservative model of where it parts
from CommonMark, as a value the ``mkdocs`` renderer carries (no I/O).

Python-Markdown is not CommonMark-derived, so the ``mkdocs`` renderer reads a
page as the ``commonmark`` renderer does (the union of the CommonMark, GFM
and markdown-it readings) and adds what this model finds, line by line, in
one pass over the page (:func:`scan`):

* **Containers** whose body MkDocs renders as Markdown where CommonMark sees
  indented code or top-level paragraphs: admonitions (``!!! note``),
  pymdownx.details (``??? info``, ``???+ info``), pymdownx.tabbed
  (``=== "pip"``), definition lists (``:   body``), each with the lines
  indented deeper than its opener after it; pymdownx.blocks (``/// note``
  up to a line of only slashes); md_in_html (an HTML start tag with a
  ``markdown`` attribute up to its end tag). Directive-shaped text in a
  body is ``misplaced_directive``, the message naming the container, as in a
  block quote. A body that is not closed runs to the end of the page.
* **Includes**: a pymdownx.snippets line (``--8<-- "file"``, or ``--8<--``
  alone opening or closing a list of files; not ``;--8<--``) refuses the page
  (``ambiguous_markup``, naming the line), wherever it is: snippets runs
  before Markdown is parsed, in code blocks too, and what it pulls in is not
  on the page.
* **Code that may be text** (:meth:`MkDocsPage.code_doubt`): superfences
  closes a fence only with the opener's character and length, so a fence
  CommonMark closes with a longer run, or one never closed, is paragraph
  text for MkDocs; it abandons a fence at a content line indented less than
  its opening line (or with a ``>`` in that indentation), and the fence's
  lines are then read as the page's, none up to that line opening a fence
  (hostile round 5: ``!!! note⏎    ```⏎O⏎    ```` shows O as a paragraph); indented code whose first line follows a list item,
  definition or footnote line (or any indented line) may belong to it,
  since Python-Markdown nests by four columns; indented code right below a
  line that is not blank (a closing fence: Python-Markdown shows both as
  one paragraph), or below a line that begins with a tag (raw HTML it keeps
  open over blank lines), may be text too. Directive-shaped text there
  is in doubt (``ambiguous_markup``). So is a candidate in a stretch of
  lines holding a backtick line that opens no fence superfences closes (its
  backticks may pair with others into a code span over the lines); a tag in
  a fence superfences closes is code, not HTML Python-Markdown passes on.
* **Hidden text that may show** (:meth:`MkDocsPage.hidden_doubt`): a link
  definition whose title's quote is on an earlier line is paragraph text for
  Python-Markdown; an HTML block that is not a comment closed later (an
  unclosed ``<!--`` is text); the start of a line raw HTML hides inside a
  paragraph (code spans, links and arithmatex's ``$...$`` come first in
  Python-Markdown). Directive-shaped text there is in doubt.
* **Shown text that may hide** (``doubts``): the lines an abbreviation
  definition takes (its title may be the next line), the terms above a
  definition line (def_list), the lines after a ``<...>`` holding a backtick
  (code spans come before autolinks and tags), and the lines between a
  pymdownx.critic mark's opener and its closer (``{--`` ... ``--}``).

What it does not model, and why that is safe: everything else Python-Markdown
does differently (list indentation, setext headings, HTML blocks kept open
over blank lines, attribute lists, MultiMarkdown meta) either
only hides a line that CommonMark already refuses or happens where the
CommonMark reading refuses already; the differential test against
Python-Markdown (``tests/test_reader_differential_mkdocs.py``) measures it.
Time is linear in the page: each line is looked at once, the container stack
is at most :data:`MAX_CONTAINERS` deep (deeper openers are taken as one more
level of the deepest).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from .blocks.scan import LINES_CHUNK, hinted_line_matches, lines_chunk_end
from .fences import SUPERFENCE_ONLY, SUPERFENCES, opening_run
from .mkdocs_lines import MAX_ABBREVIATIONS, _abbreviated, _backtick_in_tags, _line_end
from .mkdocs_marks import _FENCE_RUNS, _abbreviation_titles, _backtick_lines, _critic, _definition_terms, _line_number

__all__ = ["MAX_CONTAINERS", "MKDOCS_EXTENSIONS", "MkDocsPage", "Problem", "scan"]

#: The Markdown extensions this model follows (mkdocs-material's documented set); ``init`` lists
#: the others a ``mkdocs.yml`` enables.
MKDOCS_EXTENSIONS: Final = frozenset(
    {
        "abbr",
        "admonition",
        "attr_list",
        "def_list",
        "footnotes",
        "md_in_html",
        "toc",
        "tables",
        "meta",
        "markdown.extensions.abbr",
        "markdown.extensions.admonition",
        "markdown.extensions.attr_list",
        "markdown.extensions.def_list",
        "markdown.extensions.footnotes",
        "markdown.extensions.md_in_html",
        "markdown.extensions.toc",
        "markdown.extensions.tables",
        "markdown.extensions.meta",
        "pymdownx.details",
        "pymdownx.superfences",
        "pymdownx.tabbed",
        "pymdownx.blocks.admonition",
        "pymdownx.blocks.details",
        "pymdownx.blocks.tab",
        "pymdownx.blocks.html",
        "pymdownx.blocks.definition",
        "pymdownx.snippets",
        # inline-only extensions: they change no block and show no hidden text
        "pymdownx.arithmatex",
        "pymdownx.betterem",
        "pymdownx.caret",
        "pymdownx.highlight",
        "pymdownx.inlinehilite",
        "pymdownx.keys",
        "pymdownx.mark",
        "pymdownx.smartsymbols",
        "pymdownx.tasklist",
        "pymdownx.tilde",
        "pymdownx.emoji",
        "pymdownx.critic",
    }
)
#: Containers nested deeper than this are taken as one level (their bodies are still containers).
MAX_CONTAINERS: Final = 64

_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|\Z)")
_INDENT: Final = re.compile(r"[ \t]*")
_ADMONITION: Final = re.compile(r"(!!!|\?\?\?\+?)[ \t]+[A-Za-z0-9_-]", re.ASCII)
_TAB: Final = re.compile(r"===[!+]{0,2}[ \t]+\"", re.ASCII)
_DEFINITION: Final = re.compile(r":[ \t]+\S", re.ASCII)
_BLOCK_OPEN: Final = re.compile(r"(/{3,})[ \t]*([A-Za-z][A-Za-z0-9_-]*)", re.ASCII)
_BLOCK_CLOSE: Final = re.compile(r"/{3,}[ \t]*\Z", re.ASCII)
_MD_IN_HTML: Final = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)\b[^>]*?\smarkdown(?:[ \t]*=|[ \t>/]|\Z)", re.ASCII)
_SNIPPET: Final = re.compile(
    r"[ \t]*(;*)-+8<-+(?:[ \t]+(?:\"(?:\\\"|[^\"])+?\"|'(?:\\'|[^'])+?')(?![ \t])|(?![ \t]))"
    r"[ \t]*\Z",
    re.ASCII,
)
_LIST_OR_NOTE: Final = re.compile(
    r"(?:[*+-]|[0-9]{1,9}[.)])(?:[ \t]|\Z)|:[ \t]|\[\^[^\]]*\]:|(?:!!!|\?\?\?|===)", re.ASCII
)

#: The first line of a run of lines (no blank line between) after which Python-Markdown may continue a
#: block quote, list item, container, fence or HTML lazily where CommonMark starts a paragraph.
_LAZY_FROM: Final = re.compile(
    r"[ \t]{0,3}(?:>|(?:[*+-]|[0-9]+[.)])(?:[ \t]|\Z)|`{3,}|~{3,}|:[ \t]|\$\$|\\\[|\\begin\{)", re.ASCII
)
#: An indented line: a run beginning with one continues the list item or quote above it (after a blank line).
_INDENTED: Final = re.compile(r"(?: {4}| {0,3}\t)", re.ASCII)
_ABBREVIATION: Final = re.compile(r"[ \t]{0,3}\*\[([^\]\r\n]+)\]:", re.ASCII)
_LAZY_WHY: Final = (
    "MkDocs (Python-Markdown) may continue the block quote, list item, definition, fence or "
    "math block (arithmatex) begun on line {} over this line, where CommonMark reads a paragraph"
)

_ABANDONED_WHY: Final = (
    "superfences abandons the fence opened on line {} at line {}, indented less than its opening line, "
    "and MkDocs shows its lines as text"
)

_NAMES: Final = {
    "!!!": "an admonition",
    "???": "a collapsible details block (pymdownx.details)",
    "???+": "a collapsible details block (pymdownx.details)",
    "===": "a content tab (pymdownx.tabbed)",
    ":": "a definition list's definition (def_list)",
}


class Problem(NamedTuple):
    """Something the model refuses: the byte ``offset`` it is about, its reason, and the message's detail."""

    offset: int
    reason: str
    detail: str


class _Open(NamedTuple):
    name: str  # what the message calls it
    line: int  # 0-based line of the opener
    indent: int  # columns of the opener's indentation (indented bodies), -1 for delimited bodies
    close: str  # "indent", "slashes", or a tag name (md_in_html)


@dataclass
class MkDocsPage:
    """What :func:`scan` found on one page (byte offsets into the view, lines 0-based)."""

    #: Candidate offset -> (container name, opener line), for candidates inside a container body.
    contained: dict[int, tuple[str, int]]
    #: The candidates inside a fence superfences closes (MkDocs shows them as code).
    code: set[int]
    #: The snippets lines: (offset of the line's start, 0-based line).
    includes: list[tuple[int, int]]
    view: str
    #: Candidate offset -> (why, 0-based line of the cause), for candidates MkDocs may read otherwise:
    #: lines that may continue a quote, list item, container or fence lazily; abbreviated words.
    doubts: dict[int, tuple[str, int]] = field(default_factory=dict)
    #: ``(start, end)`` offsets of the fences superfences closes, in order.
    fenced: Sequence[tuple[int, int]] = ()
    _first_html: int | None = field(default=None, repr=False)
    _comment_ends: list[int] | None = field(default=None, repr=False)
    #: for _read_first: (stretch start, offset scanned to, what was seen: a mark read before raw HTML, '<' count)
    _stretch: tuple[int, int, bool, int] = field(default=(-1, -1, False, 0), repr=False)

    def _line_start(self, offset: int) -> int:
        return max(self.view.rfind("\n", 0, offset), self.view.rfind("\r", 0, offset)) + 1

    def code_doubt(self, at: int, first: int, kind: str) -> str | None:
        """Why MkDocs may show text at ``at`` that CommonMark reads as code in a block whose first line
        starts at offset ``first``, or None."""
        if at in self.code:
            return None
        if kind == "fenced_code":
            return (
                "superfences closes a fence only with the opener's character and length, and reads no "
                "unclosed fence (nor, after one, the fences below it): MkDocs may show these lines as text"
            )
        # indented code: its first line follows, across blank lines, a line of a list item, a definition,
        # a footnote, a container, or an indented line, which Python-Markdown may nest it in
        view = self.view
        end = self._line_start(first)
        html = self.first_html_line()
        if 0 <= html < first:
            return (
                "MkDocs (Python-Markdown) keeps the raw HTML begun on line "
                f"{_line_number(view, html) + 1} open over blank lines up to its end tag, and shows these "
                "lines in it as text"
            )
        if end > 0:
            above = view[self._line_start(end - 1) : end]
            if above.strip(" \t\r\n"):
                # right below a line that is not blank (a closing fence, a heading, an HTML block's last
                # line): Python-Markdown has no indented code there but a paragraph's lazy line; after a
                # fence superfences stashes, the fence and this line show as one paragraph
                return (
                    "MkDocs (Python-Markdown) reads an indented line right below a line that is not blank "
                    "(such as a closing fence) as text of a paragraph, not as code"
                )
        while end > 0:
            start = self._line_start(end - 1)
            text = view[start:end].rstrip("\r\n")
            if text.strip(" \t"):
                if text[0] in " \t" or _LIST_OR_NOTE.match(text):
                    return (
                        "MkDocs (Python-Markdown) nests indented lines in the list item, definition or "
                        "container above by four columns, and may show them as text"
                    )
                return None
            end = start
        return None

    def first_html_line(self) -> int:
        """The offset of the page's first line that begins (after 0-3 spaces) with a tag (``<`` and a
        letter), or -1; found once."""
        if self._first_html is None:
            found = _HTML_LINE.search(self.view)
            self._first_html = -1 if found is None else found.start()
        return self._first_html

    def hidden_doubt(self, at: int, kind: str) -> str | None:
        """Why MkDocs may show text CommonMark hides at ``at`` (in a block of ``kind``), or None: a link
        definition's title begun on an earlier line (Python-Markdown reads a definition's title only on
        its line or the next, from its quote); an HTML block that is not a comment closed after ``at``
        (Python-Markdown shows an unclosed ``<!--`` as text, hostile finding 2c); raw HTML inside a
        paragraph hiding the start of a line (Python-Markdown reads code spans, links and arithmatex's
        ``$...$`` before raw HTML, so ``[a <!-- ](x)`` or ``$`<!--$`` leave no comment open: hostile
        finding 2d, 2f)."""
        if kind == "html_block":
            if "<!--" in self.view[max(0, at - 4096) : at] and self._comment_closed_after(at):
                return None  # a comment closed after it: Python-Markdown hides it too
            return (
                "MkDocs (Python-Markdown) passes an HTML block through only when it starts with a whole tag "
                "or a comment closed later ('<!--' never closed is text); this text may show"
            )
        if kind in ("paragraph", "table"):
            view, i = self.view, at
            while i > 0 and view[i - 1] in " \t":
                i -= 1
            if i > 0 and view[i - 1] not in "\r\n":
                return None  # not the start of a line: no reading makes it a directive
            if not self._read_first(at):
                return None  # nothing Python-Markdown reads before raw HTML: it hides the line too
            return (
                "MkDocs (Python-Markdown) reads code spans, links and inline math ($...$) before raw HTML, "
                "which may then not hide this line as CommonMark does"
            )
        if kind != "link_definition":
            return None
        before = self.view[self._line_start(at) : at]
        if "]:" in before or '"' in before or "'" in before or "(" in before:
            return None
        return "MkDocs (Python-Markdown) reads a link definition's title only from its quote on; this line may show as text"

    def _read_first(self, at: int) -> bool:
        """Does the stretch of lines holding ``at`` hold, before it, something Python-Markdown reads before
        raw HTML (a backtick, ``[``, ``$``, a backslash, ``++``: code spans, links, arithmatex, escapes,
        keys) or a second ``<`` (an autolink, or a tag its looser pattern takes)? Asked at increasing
        offsets, read on from the last answer (linear over the page)."""
        view = self.view
        start, scanned, seen, angles = self._stretch
        if scanned < 0 or at < scanned or _BLANK_BETWEEN.search(view, scanned, at) is not None:
            floor = scanned if 0 <= scanned <= at else 0  # no line above the last answer is walked twice
            start = at
            while start > 0:  # back to the stretch's first line
                above = view.rfind("\n", 0, start - 1) + 1
                if not view[above:start].strip(" \t\r\n") or above < floor:
                    break
                start = above
            scanned, seen, angles = start, False, 0
        for mark in _READ_BEFORE_HTML.finditer(view, scanned, at):
            if mark.group() == "<":
                angles += 1
            else:
                seen = True
        self._stretch = (start, at, seen, angles)
        return seen or angles >= 2

    def _comment_closed_after(self, at: int) -> bool:
        """Is there a ``-->`` after ``at`` outside the fences superfences closes (found once)?"""
        if self._comment_ends is None:
            ends: list[int] = []
            k = 0
            for close in re.finditer("-->", self.view):
                while k < len(self.fenced) and self.fenced[k][1] <= close.start():
                    k += 1
                if not (k < len(self.fenced) and self.fenced[k][0] <= close.start()):
                    ends.append(close.start())
            self._comment_ends = ends
        return bisect.bisect_right(self._comment_ends, at) < len(self._comment_ends)


#: What Python-Markdown's inline patterns read before raw HTML (code spans, escapes, links, arithmatex, keys, autolinks).
_READ_BEFORE_HTML: Final = re.compile(r"[`\[$\\<]|\+\+", re.ASCII)
_BLANK_BETWEEN: Final = re.compile(r"\n[ \t\r]*\n", re.ASCII)
#: A line that begins (after 0-3 spaces) with a start tag: raw HTML Python-Markdown may keep open over blank lines.
_HTML_LINE: Final = re.compile(r"^ {0,3}<[A-Za-z]", re.ASCII | re.MULTILINE)


def _abandons(line: str, indent: int) -> bool:
    """Does pymdownx.superfences abandon a fence whose opening line is indented ``indent`` columns at this
    content ``line`` (its line ending removed)? It does when the line is not blank and the spaces, tabs (to
    the next multiple of four: Python-Markdown expands them first) and ``>`` before its text reach fewer
    than ``indent`` columns, or a ``>`` is among them (a quote's line in a fence that is in none)."""
    columns = 0
    for ch in line:
        if columns >= indent:
            return False
        if ch == ">":
            return True
        if ch not in " \t":
            return True
        columns = columns + 4 - columns % 4 if ch == "\t" else columns + 1
    return False


def _columns(indent: str) -> int:
    columns = 0
    for ch in indent:
        columns = columns + 4 - columns % 4 if ch == "\t" else columns + 1
    return columns


#: A run of plain lines: each starts, unindented, with a character no construct the model follows starts
#: with (so each only ends the indented bodies open, and is read as text).
_PLAIN_RUN: Final = re.compile(r"(?:[A-Za-z\x80-\xff\"'(@#%&,.\[\]^_{|}][^\r\n]*(?:\r\n|\r|\n|\Z))+", re.ASCII)
#: The line may end in ``\n``, ``\r\n`` or a lone ``\r`` (a CRLF page's snippets line is one too).
_SNIPPET_LINE: Final = re.compile(_SNIPPET.pattern.replace(r"\Z", r"(?=[\r\n]|\Z)"), re.ASCII)
_ABBREVIATION_LINE: Final = re.compile(r"^" + _ABBREVIATION.pattern, re.ASCII | re.MULTILINE)


#: Python-Markdown's inline raw HTML (its ``HTML_RE``): a tag is ``<``, a letter, anything but ``<>@`` and
#: spaces, then perhaps a space and anything but ``<>``, then ``>``. Looser than CommonMark's (6.6).
_PYMD_TAG: Final = re.compile(r"</?[A-Za-z][^<>@ \r\n]*(?: [^<>]*)?>", re.ASCII)
#: CommonMark 6.6: an open tag (name, attributes with their values) or a closing tag; and an autolink (6.5),
#: which Python-Markdown reads before raw HTML.
_COMMONMARK_TAG: Final = re.compile(
    r"<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*\s*>|<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>",
    re.ASCII,
)
_LOOSE_TAG_WHY: Final = (
    "MkDocs (Python-Markdown) passes '{}' (line {}) to the browser as an HTML tag, which "
    "CommonMark shows as text; what it opens may stay open over the lines after it"
)
#: A line on which the end of an HTML block of kinds 1-5 (CommonMark 4.6: ``</script>``, ``</pre>``,
#: ``</style>``, ``</textarea>``, ``-->``, ``?>``, ``]]>``) is followed by text: Python-Markdown reads that
#: text as Markdown of its own (``</script>1. *bar*`` is a list item), so the lines after may continue it.
_TEXT_AFTER_END: Final = re.compile(
    r"(?:</(?:pre|script|style|textarea)\s*>|-->|\?>|\]\]>)[ \t]*[^ \t\r\n]", re.ASCII | re.IGNORECASE
)


def _loose_tag(view: str, last: int, fenced: Sequence[tuple[int, int]] = ()) -> tuple[int, str] | None:
    """``(offset, tag)`` of the first tag before ``last`` that Python-Markdown passes to the browser
    and CommonMark does not (:data:`_PYMD_TAG`, :data:`_COMMONMARK_TAG`), or None. A tag inside a fence
    superfences closes (``fenced``: ``(start, end)`` offsets, in order) is code, not HTML (issue 29:
    ``#> <class 'int'>`` in a Python example). Linear: each ``<`` is matched once, the fences walked
    beside the tags."""
    k = 0
    for tag in _PYMD_TAG.finditer(view, 0, last):
        while k < len(fenced) and fenced[k][1] <= tag.start():
            k += 1
        if k < len(fenced) and fenced[k][0] <= tag.start():
            continue
        if _COMMONMARK_TAG.fullmatch(tag.group()) is None:
            return tag.start(), tag.group()
    return None


def scan(view: str, candidates: Sequence[int]) -> MkDocsPage:
    """Read the page's lines once, up to the last candidate's: the containers around each candidate, the
    fences; and search the whole page for snippets lines and abbreviations."""
    contained: dict[int, tuple[str, int]] = {}
    includes: list[tuple[int, int]] = []
    code: set[int] = set()
    doubts: dict[int, tuple[str, int]] = {}
    fenced: list[tuple[int, int]] = []  # (opening line's start, closing line's start) of the fences superfences closes
    if "8<" in view:
        for snippet in _SNIPPET_LINE.finditer(view):
            if not snippet.group(1):  # the first refuses the page
                includes.append((snippet.start(), _line_number(view, snippet.start())))
                break
    abbreviations: list[tuple[str, int]] = []
    if "*[" in view:
        for abbreviation in _ABBREVIATION_LINE.finditer(view):
            abbreviations.append((abbreviation.group(1), _line_number(view, abbreviation.start())))
            if len(abbreviations) > MAX_ABBREVIATIONS:
                break
    # superfences closes a fence at the next line of exactly its run, indented as its opener: where each
    # (indentation, run) closes
    closers: dict[tuple[str, str], list[int]] = {}
    if "``" in view or "~~" in view:
        for closer in hinted_line_matches(SUPERFENCE_ONLY, _FENCE_RUNS, view):
            closers.setdefault((closer.group(1), closer.group(2)), []).append(closer.start())
    stack: list[_Open] = []
    fence_end = -1  # offset of the closing line of the open fence
    #: the open fence: (its opening line's start, the next line's start, that line's number, the index of
    #: the first candidate after it, its indentation in columns), to read its lines again if it is abandoned
    fence_open = (0, 0, 0, 0, 0)
    no_opener_before = 0  # superfences looks for no opening line before this offset (it abandoned a fence)
    abandoned: dict[int, tuple[str, int]] = {}  # the candidates of abandoned fences: why they are in doubt
    unclosed_above = False  # a fence opener above has no closing line
    next_candidate = 0
    count = len(candidates)
    depth_of_tag = 0
    last_nonblank = False
    lazy_from = -1  # the line the current run of lines began on, when Python-Markdown may continue it lazily
    listed = False  # the last run that began unindented began with a quote, list item, definition or fence
    on_line: list[tuple[int, int, int]] = []  # (candidate, its line's end, -1) for abbreviations
    number = -1
    pos = 0
    size = len(view)
    while next_candidate < count and pos < size:
        if fence_end < 0 and not (stack and stack[-1].close not in ("indent", "slashes")):
            run = _PLAIN_RUN.match(view, pos, size if size - pos <= LINES_CHUNK else lines_chunk_end(view, pos))
            if run is not None:  # plain text lines: they end the indented bodies, and are text
                while stack and stack[-1].close == "indent":
                    stack.pop()
                if not last_nonblank:
                    listed = False
                end = run.end()
                while next_candidate < count and candidates[next_candidate] < end:
                    at = candidates[next_candidate]
                    if stack:
                        contained[at] = (stack[-1].name, stack[-1].line)
                    else:
                        if lazy_from >= 0 and last_nonblank:
                            doubts[at] = (_LAZY_WHY.format(lazy_from + 1), lazy_from)
                        if abbreviations:
                            on_line.append((at, _line_end(view, at), -1))
                    next_candidate += 1
                piece = run.group()
                number += piece.count("\n") + piece.count("\r") - piece.count("\r\n")
                if not piece.endswith(("\n", "\r")):
                    number += 1
                last_nonblank = True
                pos = end
                continue
        match = _LINE.match(view, pos)
        assert match is not None
        start, end = match.span()
        if start == end:
            break
        number += 1
        pos = end
        text = view[start:end].rstrip("\r\n")
        if start < fence_end and _abandons(text, fence_open[4]):
            # superfences abandons a fence at a content line indented less than its opening line (hostile
            # round 5: O unindented in an admonition's fence is a paragraph): its lines are read again as
            # lines of the page, and none up to this one opens a fence (superfences goes on after it)
            if fenced and fenced[-1][0] == fence_open[0]:
                fenced.pop()
            code.difference_update(candidates[fence_open[3] : next_candidate])
            why = _ABANDONED_WHY.format(fence_open[2] + 1, number + 1)
            upto = bisect.bisect_left(candidates, end, next_candidate)  # this line's candidates too
            abandoned.update(dict.fromkeys(candidates[fence_open[3] : upto], (why, fence_open[2])))
            _, pos, number, next_candidate, _ = fence_open
            fence_end, no_opener_before = -1, end
            continue
        if start < fence_end:  # a line of a fence's code (after an unclosed opener, maybe text: not known code)
            while next_candidate < count and candidates[next_candidate] < end:
                if not unclosed_above:
                    code.add(candidates[next_candidate])
                next_candidate += 1
            continue
        if start == fence_end:  # its closing line
            fence_end = -1
            continue
        stripped = text.lstrip(" \t")
        columns = _columns(text[: len(text) - len(stripped)])
        blank = not stripped
        if blank:
            lazy_from = -1
        elif not last_nonblank and _INDENTED.match(text):
            if listed:
                lazy_from = number
        elif lazy_from < 0 and (_LAZY_FROM.match(text) or _TEXT_AFTER_END.search(text)):
            lazy_from = number
        if not blank and not last_nonblank and not _INDENTED.match(text):
            listed = _LAZY_FROM.match(text) is not None  # the run begins with a quote, list item, ...
        elif not blank and not _INDENTED.match(text) and _LAZY_FROM.match(text):
            listed = True  # ... or holds one (a definition under its term): indented lines below go on with it
        if not blank:
            # indented bodies end at a line not indented deeper than their opener
            while stack and stack[-1].close == "indent" and columns <= stack[-1].indent:
                stack.pop()
            if stack and stack[-1].close == "slashes" and _BLOCK_CLOSE.match(stripped):
                stack.pop()
            elif stack and stack[-1].close not in ("indent", "slashes"):
                tag = stack[-1].close
                depth_of_tag += len(re.findall(rf"<{tag}\b", stripped, re.IGNORECASE))
                depth_of_tag -= len(re.findall(rf"</{tag}\s*>", stripped, re.IGNORECASE))
                if depth_of_tag <= 0:
                    stack.pop()
        while next_candidate < count and candidates[next_candidate] < end:
            at = candidates[next_candidate]
            if stack:
                top = stack[-1]
                contained[at] = (top.name, top.line)
            else:
                if 0 <= lazy_from < number:
                    doubts[at] = (_LAZY_WHY.format(lazy_from + 1), lazy_from)
                if abbreviations:
                    on_line.append((at, start + len(text), number))
            next_candidate += 1
        if blank:
            last_nonblank = False
            continue
        opener = opening_run(stripped, 0, SUPERFENCES) if start >= no_opener_before else None
        if opener is not None:
            ends = closers.get((text[: len(text) - len(stripped)], opener), [])
            later = bisect.bisect_right(ends, start)
            if later < len(ends):
                fence_end = ends[later]
                fence_open = (start, end, number, next_candidate, columns)
                if not unclosed_above:  # below an unclosed one superfences may stash no fence
                    fenced.append((start, fence_end))
                last_nonblank = True
                continue
            unclosed_above = True  # superfences may then read no fence below (MkDocs shows their lines)
        if len(stack) < MAX_CONTAINERS:
            admonition = _ADMONITION.match(stripped)
            if admonition is not None:
                stack.append(_Open(_NAMES[admonition.group(1)], number, columns, "indent"))
            elif _TAB.match(stripped):
                stack.append(_Open(_NAMES["==="], number, columns, "indent"))
            elif columns < 4 and _DEFINITION.match(stripped) and last_nonblank:
                stack.append(_Open(_NAMES[":"], number, columns, "indent"))
                # the definition's own line is its body
                for at in candidates[bisect.bisect_left(candidates, start) : bisect.bisect_left(candidates, end)]:
                    contained.setdefault(at, (_NAMES[":"], number))
            else:
                block = _BLOCK_OPEN.match(stripped)
                if block is not None:
                    stack.append(_Open(f"a '/// {block.group(2)}' block (pymdownx.blocks)", number, -1, "slashes"))
                elif "markdown" in stripped and columns < 4:
                    element = _MD_IN_HTML.match(stripped)
                    if element is not None:
                        tag = re.escape(element.group(1))
                        depth_of_tag = len(re.findall(rf"<{tag}\b", stripped, re.IGNORECASE)) - len(
                            re.findall(rf"</{tag}\s*>", stripped, re.IGNORECASE)
                        )
                        if depth_of_tag > 0:
                            stack.append(
                                _Open(
                                    f"an HTML element with the markdown attribute "
                                    f"(<{element.group(1)} markdown>, md_in_html)",
                                    number,
                                    -1,
                                    tag,
                                )
                            )
        last_nonblank = True
    doubts.update(abandoned)
    if abbreviations and on_line:
        _abbreviated(view, abbreviations, on_line, doubts)
    if candidates and "*[" in view:
        _abbreviation_titles(view, candidates, doubts)
    if candidates and ":" in view:
        _definition_terms(view, candidates, fenced, doubts)
    if candidates and "`" in view and "<" in view:
        _backtick_in_tags(view, candidates, fenced, doubts)
    if "```" in view:
        _backtick_lines(view, candidates, fenced, contained, code, doubts)
    if candidates and "{" in view:
        _critic(view, candidates, doubts)
    loose = _loose_tag(view, candidates[-1], fenced) if candidates and "<" in view else None
    if loose is not None:
        offset, tag = loose
        line = _line_number(view, offset)
        why = _LOOSE_TAG_WHY.format(tag[:40], line + 1)
        for at in candidates[bisect.bisect_right(candidates, offset) :]:
            if at not in contained and at not in code:
                doubts.setdefault(at, (why, line))
    return MkDocsPage(contained, code, includes, view, doubts, fenced)
