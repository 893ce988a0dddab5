"""MyST (myst-parser under Sphinx or docutils) as a flavour: its block constructs as rows, its page rules (no I/O).

MyST reads a page with markdown-it (CommonMark, tables, footnotes, front
matter) plus its own block syntax; the gate models what changes what a
reader sees:

* **Directives** (a fence whose info string's first word is ``{name}``:
  ```` ```{note} ````, ``~~~{warning}``; and every colon fence,
  ``:::{note}`` or a bare ``:::``): MyST renders the body, so it is no code
  block. The body is one *opaque* block of kind :data:`DIRECTIVE`: the gate
  does not read it as Markdown (``{eval-rst}`` is reStructuredText,
  ``{math}`` is LaTeX, an admonition's options may show
  as a title), a reader sees all of it, and directive-shaped text there is
  refused (``misplaced_directive``, naming the directive's line). Nested
  directives are inside the outer body. A block ends where markdown-it ends
  the fence (4.5: a closing fence of the same character, at least as long;
  a colon fence likewise with ``:``), so nesting needs no model. A code
  directive (``{code-block}``, ``{code}``, ``{sourcecode}``, ``{code-cell}``)
  with a fence of backticks or tildes is code, as a fenced code block is,
  unless options (``:caption:`` ...) open its body: then it is opaque. A
  backtick or tilde ``{raw}`` directive's body is raw HTML: an HTML block.
* **Math blocks** (``$$`` ... ``$$``, dollarmath): shown, read whole too
  (kind :data:`MATH`).
* **Line comments** (``%`` after 0-3 spaces, interrupting a paragraph, the
  lines after it that start with ``%``): hidden, a block of kind
  :data:`COMMENT`.
* **Definition lists**: the line above a ``:``/``~`` definition line (or two
  above, over a blank line) is a term, not a paragraph line. Not modelled:
  such a paragraph is in doubt (:func:`finish_paragraph_or_term`).
* **Includes** (``{include}``, ``{literalinclude}`` fences and reST
  ``.. include::`` / ``.. literalinclude::`` lines) pull in another file:
  :func:`include_line` finds the first, and the renderer refuses the page.

Code spans may show as text (docutils writes a literal as a ``<span>``; a
role, ``{sub}`text```, shows its text): that is the inline reading's
(``Renderer.code_spans_shown``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final, NamedTuple

from ..fences import COLON_OPEN, MYST_FENCES, closes, opening_run
from .construct import (
    LEAF,
    LINE_CONSUMED,
    MATCHED,
    NO_START,
    NOT_MATCHED,
    Body,
    Construct,
    Continue,
    Opener,
    Start,
    inserted,
    without,
)
from .flavours import FOOTNOTE_DOUBT, Flavour, LineDoubt, Variant
from .leaves import FenceData, finish_paragraph
from .page import footnotes, github_front_matter
from .parse import parse_blocks
from .scan import (
    candidates_stretches,
    closing_fence,
    first_in_a_candidates_paragraph,
    hinted_line_matches,
)
from .state import (
    FOOTNOTES,
    MARKDOWN_IT_READING,
    MYST_COMMENT_LEAF,
    MYST_DIRECTIVE_LEAF,
    MYST_MATH_LEAF,
    NO_FRONT_MATTER,
    NO_TABLES,
    ONE_COLUMN_TABLE,
    Block,
    State,
)
from .table import GFM_CONSTRUCTS
from .tables import table_first

__all__ = [
    "COMMENT",
    "DEFLIST_DOUBT",
    "DIRECTIVE",
    "MATH",
    "MYST",
    "MYST_CONSTRUCTS",
    "attributes_line",
    "body_code_split",
    "definition_lazy_line",
    "field_list_line",
    "include_line",
    "math_line",
    "substitution_line",
]

#: Leaf kinds: a directive's whole block (shown, not read as Markdown) and a line comment (hidden).
DIRECTIVE: Final = MYST_DIRECTIVE_LEAF
COMMENT: Final = MYST_COMMENT_LEAF
MATH: Final = MYST_MATH_LEAF

#: Directives whose body is code (with a backtick or tilde fence and no options).
_CODE_DIRECTIVES: Final = frozenset({"{code-block}", "{code}", "{sourcecode}", "{code-cell}"})


class DirectiveData(NamedTuple):
    """A directive's fence: its character (`` ` ``, ``~`` or ``:``), its length, and the columns of
    indentation before it (removed from each body line, as markdown-it does)."""

    char: str
    length: int
    indent: int


#: Directives whose body myst-parser reads as MyST Markdown, a fenced code block in it shown as code
#: (checked with myst-parser 5.2 and docutils's HTML writer: ``:::{tip}``, ``:::tip``, ```` ```{note} ````).
_MARKDOWN_BODIES: Final = frozenset(
    ("admonition", "attention", "caution", "danger", "error", "hint", "important", "note", "seealso", "tip", "warning")
)
_BODY_FENCE: Final = re.compile(r"( {0,3})(`{3,}|~{3,}|:{3,})[ \t]*(\S?)([^\r\n]*)", re.ASCII)
#: A body line outside fenced code that may open a block that takes a later fence line as its own text
#: (raw HTML, a block quote, a list item, a definition, dollar or amsmath math): hostile round 5.
_BODY_BLOCK_START: Final = re.compile(
    r"[ \t]*(?:[<>]|[-+*](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|\$\$|\\begin|[:~](?:[ \t]|$))", re.ASCII
)


def body_code_spans(view: str, opener: tuple[int, int], end: int) -> list[tuple[int, int]]:
    """``(start, end)`` of the lines of fenced code closed in the body of a top-level directive whose body
    is MyST Markdown (:data:`_MARKDOWN_BODIES`; ``opener``: its opening line's start and end, ``end``: where
    the directive ends): a reader sees them as code. None when the body opens a directive of its own (a
    colon fence, or a fence whose info starts ``{``: its body may be reST, where a fence is text), or, outside
    fenced code, a block that may take a fence line as its text or end a fence early (raw HTML, a comment, a
    list item, a quote, a definition, math: :data:`_BODY_BLOCK_START`; hostile round 5). Linear."""
    text = view[opener[0] : opener[1]].strip()
    name = text.lstrip("`~:").strip()
    if _first_word(name).strip("{}") not in _MARKDOWN_BODIES:
        return []
    own = (text[0], len(text) - len(text.lstrip(text[0])))  # the directive's run: a line of it closes it
    spans: list[tuple[int, int]] = []
    fence: tuple[str, int, int] | None = None  # (char, length, first code line's start)
    start = opener[1] + 1
    while start < end:
        line_end = view.find("\n", start, end)
        line_end = end if line_end < 0 else line_end
        found = _BODY_FENCE.fullmatch(view, start, line_end)
        if found is not None and found.group(2)[0] == own[0] and len(found.group(2)) >= own[1] and not found.group(3):
            break  # the directive's closing line (inside fenced code too: markdown-it reads its body raw)
        if fence is None and found is None and _BODY_BLOCK_START.match(view, start, line_end):
            return []
        if fence is None and found is not None:
            run, first = found.group(2), found.group(3)
            if run[0] == ":" or first == "{" or (run[0] == "`" and "`" in found.group(4)):
                return []
            fence = (run[0], len(run), line_end + 1)
        elif (
            fence is not None
            and found is not None
            and found.group(2)[0] == fence[0]
            and len(found.group(2)) >= fence[1]
            and not found.group(3)
        ):
            spans.append((fence[2], start))
            fence = None
        start = line_end + 1
    return spans


def body_code_split(view: str, opener: tuple[int, int], end: int, inside: Sequence[int]) -> tuple[list[int], list[int]]:
    """``inside`` (offsets in order, in a directive opened on ``opener`` and ending at ``end``) split into
    those in fenced code of its body (:func:`body_code_spans`) and the rest. Linear: side by side."""
    spans, k = body_code_spans(view, opener, end), 0
    code: list[int] = []
    rest: list[int] = []
    for at in inside:
        while k < len(spans) and spans[k][1] <= at:
            k += 1
        (code if k < len(spans) and spans[k][0] <= at else rest).append(at)
    return code, rest


def _first_word(info: str) -> str:
    words = info.split(None, 1)
    return words[0] if words else ""


def directive(s: State, container: Block[Any]) -> Start:
    """A MyST directive's opening fence: a backtick or tilde fence (4.5) whose info string's first word
    is ``{name}``, or any colon fence (mdit-py-plugins ``colon_fence``: 3 or more ``:``, 0-3 spaces in,
    any info). Both interrupt a paragraph. A code directive without options is a fenced code block."""
    if s.indented:
        return NO_START
    at = s.next_nonspace
    run = opening_run(s.line, at, MYST_FENCES)
    if run is None:
        return NO_START
    if run[0] != ":":
        name = _first_word(s.line[at + len(run) :])
        if not (name.startswith("{") and name.endswith("}")):
            return NO_START
        if name in _CODE_DIRECTIVES and not _options_follow(s):
            s.close_unmatched()
            s.add_child("fenced_code", FenceData(run[0], len(run), s.indent))
            s.advance_next_nonspace()
            return LEAF
        if name == "{raw}":
            s.close_unmatched()
            s.add_child("myst_raw", DirectiveData(run[0], len(run), s.indent))
            s.advance_next_nonspace()
            return LEAF
    s.close_unmatched()
    s.add_child("myst_directive", DirectiveData(run[0], len(run), s.indent))
    s.advance_next_nonspace()
    return LEAF


def _options_follow(s: State) -> bool:
    """Does the line after this one open a directive's options (``:key: value`` or a ``---`` block)?
    Read on the raw line, container markers stripped coarsely (``>``, spaces)."""
    view = s.view
    start = view.find("\n", s.pos) + 1
    if not start:
        return False
    end = view.find("\n", start)
    line = view[start : len(view) if end == -1 else end].lstrip(" \t>").rstrip("\r")
    return line.startswith(":") or line.rstrip(" \t") == "---"


def directive_continues(s: State, block: Block[DirectiveData]) -> Continue:
    """Every line up to the closing fence (0-3 spaces, at least as many of the fence's character, then only
    spaces or tabs), which the block takes too; up to the fence's indentation is removed."""
    char, length, indent = block.data
    if MYST_FENCES.may_close(s.indent) and closes(s.line, s.next_nonspace, char, length, MYST_FENCES):
        block.add((s.line_no, s.pos + s.next_nonspace, s.line_end))
        s.close()
        return LINE_CONSUMED
    remaining = indent
    while remaining > 0 and s.char_at(s.offset) in (" ", "\t"):
        s.advance_offset(1, True)
        remaining -= 1
    return MATCHED


def colon_opener_end(view: str, line_start: int, line_end: int) -> int:
    """Where a top-level colon fence opened on this line ends (after its closing fence, or the end of
    the page): the shortcuts' restart jumps follow it."""
    run = COLON_OPEN.match(view, line_start, line_end)
    if run is None:
        return -1
    closing = closing_fence(view, line_end + 1, ":", len(run.group()))
    return len(view) if closing < 0 else view.find("\n", closing) + 1


def comment(s: State, container: Block[Any]) -> Start:
    """A MyST line comment (mdit-py-plugins ``myst_blocks``): ``%`` after 0-3 spaces; it interrupts a
    paragraph, and takes the lines after it whose first non-space character is ``%``."""
    if s.indented or s.char_at(s.next_nonspace) != "%":
        return NO_START
    s.close_unmatched()
    s.add_child("myst_comment", None)
    s.advance_next_nonspace()
    return LEAF


def comment_continues(s: State, block: Block[Any]) -> Continue:
    """A line whose first non-space character is ``%`` (at any indentation)."""
    if s.char_at(s.next_nonspace) != "%":
        return NOT_MATCHED
    s.advance_next_nonspace()
    return MATCHED


_DEFINITION: Final = re.compile(r"[ \t>]*[:~](?:[ \t]|\r?\n)", re.ASCII)
_DEFINITION_INSIDE: Final = re.compile(r"\n[ \t>]*[:~](?:[ \t]|\r?\n)", re.ASCII)
_BLANK: Final = re.compile(r"[ \t>]*\r?\n", re.ASCII)
#: Why a paragraph above a definition line is in doubt.
DEFLIST_DOUBT: Final = "MyST reads a definition list here: the line above a ':' or '~' definition line is a term"


def finish_paragraph_or_term(s: State, block: Block[Any], end: int) -> None:
    """A paragraph closes (4.8): when one of its lines but the first, the line after it, or the one after a
    blank line, is a definition
    line (``:`` or ``~``, then a space, a tab or the end of the line; after indentation and ``>``,
    coarsely), MyST (mdit-py-plugins ``deflist``) makes its last line a term: the paragraph is in
    doubt. Looked for past the last watched line too (a paragraph is finished whenever it closes)."""
    view, start = s.view, block.lines[0][1]
    if block.doubt is None and s.watched(start, end):
        after = view.find("\n", end) + 1
        blank = _BLANK.match(view, after) if after else None
        following = blank.end() if blank is not None else after
        if (after and _DEFINITION.match(view, following)) or _DEFINITION_INSIDE.search(view, start, end + 1):
            block.doubt = (block.line, DEFLIST_DOUBT)
    finish_paragraph(s, block, end)


MYST_DIRECTIVE: Final = Construct(
    "myst_directive",
    DIRECTIVE,
    "MyST directives (```{name}, :::)",
    Body.RAW,
    directive_continues,
    start=directive,
    first=frozenset("`~:"),
    opener=Opener((":::",), colon_opener_end),
)


def math_block(s: State, container: Block[Any]) -> Start:
    """A math block (mdit-py-plugins ``dollarmath``): ``$$`` after 0-3 spaces, to a line ending with
    ``$$`` (the same line, or a later one); it interrupts a paragraph. MathJax shows it: a reader sees
    its text (read whole, as a directive's body is)."""
    if s.indented or not s.line.startswith("$$", s.next_nonspace):
        return NO_START
    s.close_unmatched()
    block = s.add_child("myst_math", None)
    s.advance_next_nonspace()
    if s.line.rstrip(" \t").endswith("$$") and len(s.line.strip(" \t")) >= 4:  # one line: $$...$$
        s.add_line()
        s.close()
        s.offset = len(s.line)
        block.empty = False
    return LEAF


def math_continues(s: State, block: Block[Any]) -> Continue:
    """Every line up to the one ending with ``$$``, which the block takes too."""
    if s.line.rstrip(" \t").endswith("$$"):
        s.advance_next_nonspace()
        block.add((s.line_no, s.pos + s.offset, s.line_end))
        s.close()
        return LINE_CONSUMED
    return MATCHED


#: A ``{raw}`` directive: its body passes through as raw HTML, an HTML block to the reader (the fence's
#: lines show as text; ``{raw} latex`` shows nothing in HTML: read as shown, in the safe direction).
MYST_RAW: Final = Construct("myst_raw", "html_block", "MyST {raw} directive", Body.RAW, directive_continues)
MYST_MATH: Final = Construct(
    "myst_math",
    MATH,
    "MyST math blocks ($$, dollarmath)",
    Body.RAW,
    math_continues,
    start=math_block,
    first=frozenset("$"),
)
MYST_COMMENT: Final = Construct(
    "myst_comment", COMMENT, "MyST line comments (%)", Body.RAW, comment_continues, start=comment, first=frozenset("%")
)

_PARAGRAPH: Final = replace(
    next(row for row in GFM_CONSTRUCTS if row.name == "paragraph"), finish=finish_paragraph_or_term
)
#: GFM's rows with MyST's directives (tried before fenced code) and line comments; a paragraph above a
#: definition line is in doubt.
MYST_CONSTRUCTS: Final = (
    *inserted(
        inserted(
            tuple(_PARAGRAPH if row.name == "paragraph" else row for row in GFM_CONSTRUCTS),
            MYST_DIRECTIVE,
            before="fenced_code",
        ),
        MYST_COMMENT,
        before="block_quote",
    ),
    MYST_RAW,
    MYST_MATH,
)

_TABLES_DOUBT: Final = "a reader without GFM tables reads this differently"
#: MyST's reading without the primary role (YAML front matter only: ``+++`` is a block break to MyST).
_MYST_GFM: Final = Flavour(
    "myst-gfm",
    MYST_CONSTRUCTS,
    page_starts=(github_front_matter,),
    page_doubts=(footnotes,),
    line_doubts=(LineDoubt("|", table_first),),
)

#: MyST's reading, compared where CommonMark readings may differ (markdown-it's definitions and lazy
#: lines, front matter, tables), with footnotes, one-column tables and definition lists in doubt.
MYST: Final = replace(
    _MYST_GFM,
    name="myst",
    primary=True,
    unmodelled=(
        (FOOTNOTES, FOOTNOTE_DOUBT),
        (ONE_COLUMN_TABLE, _TABLES_DOUBT),
    ),
    variants=(
        Variant(
            NO_FRONT_MATTER,
            replace(_MYST_GFM, name="myst-without-front-matter", page_starts=()),
            "a reader without front matter support reads the lines after it differently",
        ),
        Variant(
            NO_TABLES,
            replace(_MYST_GFM, name="myst-without-tables", constructs=without(MYST_CONSTRUCTS, "table")),
            _TABLES_DOUBT,
        ),
        Variant(
            MARKDOWN_IT_READING,
            replace(
                _MYST_GFM,
                name="myst-markdown-it",
                definitions_as_blocks=True,
                lazy_lines_end_paragraphs=True,
                quotes_continue_indented=True,
            ),
            "MyST reads this with markdown-it, which takes link definitions and less-indented lazy lines as new blocks",
        ),
    ),
)


# --------------------------------------------------------------------------
# Includes: lines that pull in another file (the page is refused).

_NEEDLES: Final = ("include}", "include::")
#: A directive's option that reads a file or a URL into the page (docutils's ``csv-table`` and ``raw``,
#: and any other directive that has one): ``:file: x`` / ``:url: x`` as a field (a MyST option line, a
#: reST option in ``{eval-rst}``), at a line's start after spaces, tabs and ``>`` (not Sphinx's
#: ``:file:`name``` role, which shows its text).
_FILE_OPTION: Final = re.compile(r"^[ \t>]*:(?:file|url):(?!`)", re.ASCII | re.MULTILINE | re.IGNORECASE)
#: A MyST directive's opening fence followed by a ``---`` line: its options as YAML, up to the next ``---``.
_YAML_OPTIONS: Final = re.compile(
    r"^[ \t>]*(?:`{3,}|~{3,}|:{3,})[ \t]*\{[^\n]*\n[ \t>]*---[ \t]*\r?$", re.ASCII | re.MULTILINE
)
_YAML_FILE_KEY: Final = re.compile(r"^[ \t>]*['\"]?(?:file|url)['\"]?[ \t]*:", re.ASCII | re.MULTILINE | re.IGNORECASE)
_YAML_END: Final = re.compile(r"^[ \t>]*---[ \t]*\r?$", re.ASCII | re.MULTILINE)
#: What every match of :data:`_FILE_OPTION` holds on its line, and what the line after a match of
#: :data:`_YAML_OPTIONS`'s fence holds (:func:`~.scan.hinted_line_matches`: the lines worth trying).
_FILE_HINT: Final = re.compile(r":(?:file|url):", re.ASCII | re.IGNORECASE)
_YAML_HINT: Final = re.compile(r"---[ \t]*\r?$", re.ASCII | re.MULTILINE)


def include_line(view: str) -> int:
    """The offset of the first line that pulls in another file: a fence (backticks, tildes or colons)
    whose info starts ``{include}`` or ``{literalinclude}``, a reST ``.. include::`` /
    ``.. literalinclude::`` (in ``{eval-rst}``), or a directive's ``:file:`` or ``:url:`` option
    (``csv-table``, ``raw``: as an option line or a key of the options' YAML block); -1 if none. Read
    on the raw page, code and all (a match in code refuses too: coarse, in the safe direction).
    Linear: each match is checked backwards over its own line only, each YAML block read once."""
    best = -1
    i = view.find("include")  # both needles at once, in page order (a 2-needle scan costs 2 passes)
    while i != -1:
        needle = next((needle for needle in _NEEDLES if view.startswith(needle, i)), None)
        line_start = view.rfind("\n", 0, i) + 1
        if needle is not None and _pulls_in(view, line_start, i, needle):
            best = line_start
            break
        i = view.find("include", i + 7)
    option = next(hinted_line_matches(_FILE_OPTION, _FILE_HINT, view, 0, best if best >= 0 else len(view)), None)
    if option is not None:
        best = _line_start(view, option.start())
    searched = 0
    for block in hinted_line_matches(_YAML_OPTIONS, _YAML_HINT, view, 0, best if best >= 0 else len(view), line=1):
        if block.start() < searched:
            continue
        end = _YAML_END.search(view, block.end())
        searched = end.start() if end is not None else len(view)
        key = _YAML_FILE_KEY.search(view, block.end(), searched)
        if key is not None:
            return _line_start(view, key.start())
    return best


def _pulls_in(view: str, line_start: int, at: int, needle: str) -> bool:
    """Is the ``include`` at ``at`` (``needle`` there) one of :func:`include_line`'s forms?"""
    j = at - 7 if view.startswith("literal", at - 7) and at - 7 >= line_start else at
    if needle == "include}":
        if j - 1 < line_start or view[j - 1] != "{":
            return False
        j -= 1
        while j > line_start and view[j - 1] in " \t":
            j -= 1
        count = 0
        while j > line_start and view[j - 1] in "`~:" and (count == 0 or view[j - 1] == view[j]):
            j -= 1
            count += 1
        return count >= 3
    k = j
    while k > line_start and view[k - 1] in " \t":
        k -= 1
    return k < j and k - 2 >= line_start and view.startswith("..", k - 2)


#: A field list's first line (myst-parser's ``fieldlist``): ``:name: ...`` at a line's start.
_FIELD_LINE: Final = re.compile(r"^[ ]{0,3}:[A-Za-z][^:\r\n]*:(?:[ \t]|\r?$)", re.ASCII | re.MULTILINE)


def field_list_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first field-list line (``:name: value``) that starts a stretch of lines (a
    field list interrupts no paragraph) holding a candidate, or -1: MyST reads the lines after it, to
    the next blank line, as the field's body."""
    starting = (
        match
        for match in _FIELD_LINE.finditer(view)
        if match.start() == 0 or not view[view.rfind("\n", 0, match.start() - 1) + 1 : match.start()].strip()
    )
    return first_in_a_candidates_paragraph(view, starting, candidates)


def math_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first ``$`` of a candidate's stretch of lines where dollar math may run over
    lines (two or more ``$`` in the stretch, a line with an odd number of them), or may take in a
    backtick or a ``<`` (a line with ``$``, then one of them, then ``$``), or -1: MyST shows what it
    takes as math, and a backtick or ``<`` inside it starts no code span or raw HTML, so the lines
    after it read otherwise (``Cost $`$ here.`` then O: O is text to MyST, code to CommonMark). A line
    that starts with ``$$`` is a math block, which the block reading models (:data:`MATH`).

    dollarmath is on only where the project's ``myst_enable_extensions`` lists it; the gate does not
    read ``conf.py``, so it takes it as on (a site that may enable it is in doubt)."""
    for start, end in candidates_stretches(view, candidates):
        text = view[start:end]
        if text.count("$") < 2:
            continue
        lines = [line for line in text.split("\n") if not _MATH_BLOCK_LINE.match(line)]
        if sum(line.count("$") for line in lines) >= 2 and (
            any(line.count("$") % 2 for line in lines) or any(_MATH_TAKES.search(line) for line in lines)
        ):
            return view.index("$", start)
    return -1


_MATH_BLOCK_LINE: Final = re.compile(r"[ ]{0,3}\$\$", re.ASCII)
#: Inline dollar math that may hold a backtick or a ``<`` (on one line: over lines is in doubt anyway).
_MATH_TAKES: Final = re.compile(r"\$[^$\n]*[`<][^\n]*\$", re.ASCII)


#: A substitution reference (mdit-py-plugins ``substitution``): ``{{`` ... ``}}``, over lines too.
_SUBSTITUTION: Final = re.compile(r"\{\{", re.ASCII)
#: An ``{eval-rst}`` directive's opening fence.
_EVAL_RST: Final = re.compile(r"^[ \t>]*(`{3,}|~{3,}|:{3,})[ \t]*\{eval-rst\}", re.ASCII | re.MULTILINE)
_EVAL_RST_HINT: Final = re.compile(r"\{eval-rst\}", re.ASCII)
#: A reST substitution reference (``|name|``, ``|name|_``): no space right inside the bars.
_RST_SUBSTITUTION: Final = re.compile(r"\|[^|\s](?:[^|\n]*[^|\s])?\|", re.ASCII)


#: Leaf kinds MyST substitutes nothing in (their text is code).
_CODE_KINDS: Final = frozenset({"fenced_code", "indented_code"})
#: Past this many ``{{``, the first refuses the page unread.
_MAX_SUBSTITUTIONS: Final = 1000


def substitution_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the line of the first substitution on the page, or -1: a ``{{`` that a ``}}``
    follows (anywhere after it, as MyST's substitution extension reads it over lines) outside a
    fenced or indented code block as MyST's block reading builds the page (:data:`MYST`), or a reST
    substitution reference (``|name|``) in an ``{eval-rst}`` block. Its value comes from the page's
    front matter or the project's ``conf.py`` (``myst_substitutions``, ``rst_prolog``) through Jinja,
    none of which the gate reads, and a reader sees what it renders, wherever it is: a directive line
    the page's bytes do not spell, anywhere on the page. Only a code block (no doubt on it) is left
    alone: a ``{{`` in a code span, a directive's body, front matter or a block in doubt refuses, and
    so does the first of more than :data:`_MAX_SUBSTITUTIONS`. ``candidates`` is not needed (a page
    without one is read too). Linear (one block reading of the page)."""
    best = -1
    last_close = view.rfind("}}")
    openings: list[int] = []
    at = view.find("{{", 0, max(last_close, 0))  # none before the last '}}': none it closes
    while 0 <= at < last_close and len(openings) <= _MAX_SUBSTITUTIONS:
        openings.append(at)
        at = view.find("{{", at + 2)
    if len(openings) > _MAX_SUBSTITUTIONS:
        best = _line_start(view, openings[0])
    elif openings:
        leaves = sorted(
            (leaf for leaf in parse_blocks(view, openings, flavour=MYST) if leaf.lines),
            key=lambda leaf: leaf.lines[0][1],
        )
        starts = [leaf.lines[0][1] for leaf in leaves]
        for opening in openings:
            k = bisect.bisect_right(starts, opening) - 1
            leaf = leaves[k] if k >= 0 else None
            if (
                leaf is None
                or leaf.end < opening
                or leaf.kind not in _CODE_KINDS
                or leaf.doubt is not None
                or leaf.gave_up is not None
            ):
                best = _line_start(view, opening)
                break
    body_end = 0
    for fence in hinted_line_matches(_EVAL_RST, _EVAL_RST_HINT, view, 0, best if best >= 0 else len(view)):
        if fence.start() < body_end:  # inside the body searched last: searched already
            continue
        line_end = view.find("\n", fence.end())
        if line_end < 0:
            break
        run = fence.group(1)
        closing = closing_fence(view, line_end + 1, run[0], len(run))
        body_end = len(view) if closing < 0 else closing
        reference = _RST_SUBSTITUTION.search(view, line_end + 1, body_end)
        if reference is not None:
            at = _line_start(view, reference.start())
            return at if best < 0 else min(at, best)
    return best


#: An attribute list after a span, link or code span (attrs_inline) or a substitution, not closed on its line.
_OPEN_ATTRIBUTES: Final = re.compile(r"[\]`]\{(?![^\n]{0,1000}\})|\{\{(?![^\n]{0,1000}\}\})", re.ASCII)
#: A definition line of a definition list (deflist): ``:`` or ``~`` and a space, up to three spaces in.
_DEFINITION_LINE: Final = re.compile(r"[ ]{0,3}[:~][ \t]+\S", re.ASCII)
#: A line indented two or more columns: a definition's body goes on with it.
_INDENTED_BODY_LINE: Final = re.compile(r"(?:[ ]{2,}|[ ]{0,1}\t)\S", re.ASCII)
_FENCE_LINE: Final = re.compile(r"[ ]{0,3}(?:`{3,}|~{3,}|:{3,})", re.ASCII)
#: How many lines above a candidate :func:`definition_lazy_line` looks for the definition (past it: doubt).
_DEFINITION_REACH: Final = 200


def attributes_line(view: str, candidates: Sequence[int]) -> int:
    """The offset of the first attribute list (``[x]{title="...``) or substitution (``{{ x``) in a
    candidate's stretch of lines that its line does not close, or -1: MyST may take the lines below into
    an attribute's value or the substitution, neither of which a reader sees as text."""
    for start, end in candidates_stretches(view, candidates):
        for found in _OPEN_ATTRIBUTES.finditer(view, start, end):
            if not _FENCE_LINE.match(view, _line_start(view, found.start())):  # ```{note}: a directive
                return found.start()
    return -1


def definition_lazy_line(view: str, candidates: Sequence[int]) -> int:
    """The line start of the first candidate right below an indented line that goes on with a
    definition's body (above it, past blank and indented lines, a definition line ``:   text``), or -1:
    MyST's deflist reads the candidate's line as that paragraph's lazy line, inside the definition."""
    for at in candidates:
        start = _line_start(view, at)
        if start == 0 or view[start:at].strip(" \t"):
            continue
        line = _line_start(view, start - 1)
        if not _INDENTED_BODY_LINE.match(view, line):
            continue
        for _ in range(_DEFINITION_REACH):  # up past the definition's indented and blank lines
            if line == 0:
                break
            line = _line_start(view, line - 1)
            line_end = view.find("\n", line)
            text = view[line : line_end if line_end >= 0 else len(view)]
            if text.strip(" \t\r") and not _INDENTED_BODY_LINE.match(text):
                break
        else:
            return start  # too far up to tell: in doubt
        if _DEFINITION_LINE.match(view, line):
            return start
    return -1


def _line_start(view: str, at: int) -> int:
    return view.rfind("\n", 0, at) + 1
