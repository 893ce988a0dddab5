"""MDX 3's lexical shapes, as the page scan of :mod:`~_conflict_gate.reading.blocks.mdx` matches them.

JSX tags and attributes, ``import``/``export`` (ESM) lines, ``:::name`` container directives, link
reference definitions (CommonMark 0.31.2 section 4.7), the HTML elements JSX treats as special or
void, and the lines that end or block a paragraph (section 4.8); and what the scan returns (:class:`MdxReading`)."""

from __future__ import annotations

import re
from array import array
from typing import Final, NamedTuple

from ..fences import FENCE_OPEN


class Region(NamedTuple):
    """A stretch ``[start, end)`` of the page a reader sees otherwise than as Markdown text: ``hidden``
    (a comment) or ``shown`` (an expression, a tag, an element's or a directive's body), with what it
    is called and the 1-based line it opens on; ``code``: fenced code in an element or admonition
    (hidden too: a reader sees it as code)."""

    start: int
    end: int
    hidden: bool
    name: str
    line: int
    code: bool = False


class MdxReading(NamedTuple):
    """What :func:`read_mdx` found: the first construct that breaks the build (offset, why) or an import
    of content (offset, why), and the regions holding a watched offset (in order of their starts; nested
    ones too); ``doubt``: the first construct whose effect on the lines after it the gate does not model
    (offset, why).
    ``build_certain``: whether MDX certainly fails to build the page at ``build_error`` (a construct MDX
    cannot parse), rather than the gate not modelling it (an expression or import it does not read, a
    name it does not know: the page may build)."""

    build_error: tuple[int, str] | None
    include: tuple[int, str] | None
    regions: tuple[Region, ...]
    doubt: tuple[int, str] | None = None
    build_certain: bool = True


#: A fence's opening line (:data:`~_conflict_gate.reading.fences.FENCE_OPEN`) after any quote and list markers.
_FENCE_OPEN: Final = re.compile(rf"[ \t>]*(?:(?:[-*+]|[0-9]{{1,9}}[.)])[ \t]+)*({FENCE_OPEN.pattern})", re.ASCII)
_DIRECTIVE_OPEN: Final = re.compile(r"[ \t>]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)*(:{3,})[A-Za-z]", re.ASCII)
_DIRECTIVE_CLOSE: Final = re.compile(r"[ \t>]*(:{3,})[ \t]*\r?$", re.ASCII)
_BLANK: Final = re.compile(r"[ \t>]*\r?$", re.ASCII)
_ATTRIBUTE: Final = re.compile(r"[A-Za-z_$][\w$\-:]*", re.ASCII)
_ESM: Final = re.compile(
    r"import\s+(?:(?P<default>[A-Za-z_$][\w$]*)|\{(?P<names>[\w$\s,]*)\})\s+from\s+(?P<q>['\"])(?P<source>[^'\"\n]*)(?P=q);?"
    r"|export\s+const\s+(?P<const>[A-Za-z_$][\w$]*)\s*=\s*(?P<value>[^\n;]*);?"
    r"|export\s+\{(?P<exports>[\w$\s,]*)\};?",
    re.ASCII,
)
#: A link destination in angle brackets (CommonMark 6.3, 4.7), and a definition's line up to it.
_DEFINITION_HEAD: Final = re.compile(r"[ \t>]*\[[^\]\n]+\]:[ \t]*", re.ASCII)
_DESTINATION: Final = re.compile(r"<[^<>\n\\]*>", re.ASCII)
_BACKTICKS: Final = re.compile(r"`+", re.ASCII)
_BLANK_LINE: Final = re.compile(r"[ \t>]*\r?(?:\n|\Z)", re.ASCII)
_BLANK_AFTER: Final = re.compile(r"\n[ \t>]*\r?(?=\n)", re.ASCII)
_LINE_PREFIX: Final = re.compile(r"[ \t>]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)?", re.ASCII)
_TAG_OR_TEXT: Final = re.compile(r"(?P<tag><[^<>\n]*>)|[ \t\r]+|(?P<text>[^<> \t\r][^< \t\r]*|[<>])", re.ASCII)
_TAGS_ONLY: Final = re.compile(r"(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)?(?:<[^<>\n]*>[ \t]*)*\r?", re.ASCII)
#: Elements React renders by rules of their own (void elements, form controls, the document's).
_SPECIAL: Final = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
        "textarea",
        "select",
        "option",
        "html",
        "head",
        "body",
        "script",
        "style",
        "title",
        "iframe",
        "noscript",
        "template",
        "plaintext",
        "xmp",
    }
)
#: HTML's void elements: opened without '/>' and never closed by their closing tag, JSX does not parse them.
_VOID: Final = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
)
_VOID_CLOSE: Final = re.compile(r"</(?:" + "|".join(sorted(_VOID)) + r")(?![\w$\-])", re.ASCII | re.IGNORECASE)
_ESM_START: Final = re.compile(r"(?m)^(?:import|export)\b", re.ASCII)
_CONTENT: Final = re.compile(r"\.(?:md|mdx|markdown)(?:[?#].*)?$", re.IGNORECASE)


_NO_RUNS: Final = array("q")
#: An ATX heading line at the start of a line, as Docusaurus's preprocessor finds it (``mdx1Compat.headingIds``:
#: the first ``{#`` on it is escaped, and a trailing ``{#id}`` is the heading's id, not its text).
_HEADING_LINE: Final = re.compile(r"#{1,6}(?!#)", re.ASCII)
#: A fence Docusaurus unwraps (its preprocessor's ``unwrapMdxCodeBlocks``): spaces, three or four backticks,
#: spaces, ``mdx-code-block``, the end of the line.
_MDX_CODE_BLOCK: Final = re.compile(r" *(`{3,4}) *mdx-code-block\r?$", re.ASCII)
#: The line that closes an mdx-code-block fence of three or four backticks: spaces and exactly that run.
_UNWRAP_CLOSERS: Final = {
    3: re.compile(r"^ *```\r?$", re.ASCII | re.MULTILINE),
    4: re.compile(r"^ *````\r?$", re.ASCII | re.MULTILINE),
}
#: An mdx-code-block fence's opening line anywhere (Docusaurus unwraps it before Markdown is parsed).
_UNWRAP_OPENER: Final = re.compile(r"^ *`{3,4} *mdx-code-block\r?$", re.ASCII | re.MULTILINE)
#: A line of an mdx-code-block fence's body that opens a fence or a container directive.
_BODY_BLOCK: Final = re.compile(r"^[ \t>]*(?:`{3,}|~{3,}|:{3,})", re.ASCII | re.MULTILINE)
#: A line a comment begun in a paragraph's text may not run over (MDX does not build it): blank, or beginning
#: with a character that may start a block or a tag (checked against the MDX harness: ``x <!-- y⏎<!-- c -->``
#: and ``x <!-- y⏎- c -->`` do not build, ``x <!-- y⏎z -->`` does).
_BLOCKING_LINE: Final = re.compile(r"\n[ \t]*(?:[\r\n<>#*+\-=_`~:|{0-9]|\Z)", re.ASCII)
#: A line inside a comment over several lines that may start a block the block reading takes.
_COMMENT_BLOCK: Final = re.compile(r"\n[ \t>]*(?:`{3,}|~{3,}|:{3,}|[#|*+\-=_]|[0-9]{1,9}[.)])", re.ASCII)


#: What may start a code span, an expression, a tag or an escape in a line's text.
_INLINE_SPECIAL: Final = re.compile(r"[\\`{<]")
#: Whole lines of text (each ending in a newline) that :meth:`_Scan.run` would pass over unchanged: not
#: blank, holding none of the characters that start a code span, an expression, a tag, an escape, a
#: fence (`` ` ``, ``~``) or a container directive (``:``, kept out wherever it is).
_PLAIN_LINES: Final = re.compile(r"(?:(?=[ \t>]*[^ \t>\r\n])[^\n\\`{<~:]*\n)+")
#: A fence opener indented 0-3 spaces, no quote or list marker before it: fenced code wherever it stands.
_PLAIN_FENCE: Final = re.compile(r"( {0,3})(?:`{3,}|~{3,})", re.ASCII)
#: A line of fenced code that may end the container around it: a run of colons, or a line not blank.
_CONTAINER_END: Final = re.compile(r"^[ \t>]*(:{3,})|^( *)(?=[^ \r\n])", re.ASCII | re.MULTILINE)
#: Why an unclosed fence in an admonition puts the page in doubt.
_UNCLOSED_IN_ADMONITION: Final = (
    "fenced code never closed inside an admonition: remark-directive ends it where the admonition "
    "ends (a run of colons), and reads the lines after outside it; the gate does not model it (close the fence)"
)


def _code_in_container(view: str, line: str, colons: int, start: int, end: int) -> bool:
    """Are the lines ``view[start:end]`` (after a fence's opening ``line``, its closing line included) fenced
    code wherever the admonition or JSX element around them stands (issue 29)? The opening line must be
    indented 0-3 spaces with nothing before the run; and no line may be a run of at least ``colons``
    colons (0: none is open; remark-directive ends the admonition there, inside the code too, and reads
    the lines after outside it) or, not blank, be indented less than the opening line (a list item the
    fence stands in ends there, and its code with it): hostile round 5. Linear in the lines."""
    opener = _PLAIN_FENCE.match(line)
    if opener is None:
        return False
    for found in _CONTAINER_END.finditer(view, start, end):
        if found.group(1) is not None and 0 < colons <= len(found.group(1)):
            return False
        if found.group(2) is not None and len(found.group(2)) < len(opener.group(1)):
            return False
    return True
