"""Docusaurus (MDX 3, GFM, Docusaurus's admonitions) as a flavour and a page reading (no I/O).

MDX parses a page as CommonMark without indented code and without HTML: a
``<`` that is not followed by whitespace starts a JSX tag, a ``{`` a
JavaScript expression, and a page whose tags or expressions do not parse does
not build. The gate reads such a page in two steps:

* :func:`read_mdx`, once per page, left to right outside fenced code and code
  spans: it finds what **breaks the build** (``<!-- -->``, which plain MDX
  rejects; a ``<`` or ``{`` that starts no valid tag or expression; an
  element left unclosed, or an inline one closed after its paragraph; a
  ``style`` string; an expression naming a variable the page does not
  define; an ``import``/``export`` line of another shape than the few
  modelled), an **import of content** (a ``.md``/``.mdx`` partial), an
  expression whose **shown text cannot be known** from the page (a string
  escape, ``+``, a call, an array, an imported value: a doubt), and the
  **regions** a reader sees otherwise than as paragraph text: ``{/* */}``
  comments (hidden), expressions and tags (their text may show), the bodies of
  JSX elements (``<Tabs>``, ``<TabItem>``, ``<details>``, any component or
  HTML element: containers like a block quote) and of ``:::name`` container
  directives (Docusaurus's admonitions, and any other: containers too).
* :data:`~_conflict_gate.reading.blocks.docusaurus.DOCUSAURUS`, the block reading of the rest: GFM without indented code
  (four-space-indented lines are paragraph text; an indented directive line is
  malformed), YAML front matter only.

The checks are deliberately narrow: what the gate cannot parse it takes for a
build error (the page is refused), never for text.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..fences import MDX_FENCES, closes
from .mdx_certain import _MEMBER_NAME, _NO_AUTOLINK, _NO_PARSE, attribute_fails, in_unmodelled_text, namespace_fails
from .mdx_expressions import _GLOBALS, _NAME, _SPACE, _BuildError, _Expression, _expression_end, _statements
from .mdx_syntax import (
    _ATTRIBUTE,
    _BACKTICKS,
    _BLANK,
    _BLANK_AFTER,
    _BLANK_LINE,
    _BLOCKING_LINE,
    _BODY_BLOCK,
    _COMMENT_BLOCK,
    _CONTENT,
    _DEFINITION_HEAD,
    _DESTINATION,
    _DIRECTIVE_CLOSE,
    _DIRECTIVE_OPEN,
    _ESM,
    _ESM_START,
    _FENCE_OPEN,
    _HEADING_LINE,
    _INLINE_SPECIAL,
    _LINE_PREFIX,
    _MDX_CODE_BLOCK,
    _NO_RUNS,
    _PLAIN_LINES,
    _SPECIAL,
    _TAG_OR_TEXT,
    _TAGS_ONLY,
    _UNCLOSED_IN_ADMONITION,
    _UNWRAP_CLOSERS,
    _UNWRAP_OPENER,
    _VOID,
    _VOID_CLOSE,
    MdxReading,
    Region,
    _code_in_container,
)
from .scan import LINES_CHUNK, lines_chunk_end, top_level_code_end

__all__ = ["MdxReading", "Region", "read_mdx"]


def read_mdx(view: str, watch: Sequence[int] | None = None) -> MdxReading:
    """The page as MDX reads its tags, expressions and container directives (module docstring).

    ``view`` is the page's byte view; ``watch``, sorted offsets in it (the candidates): only regions
    holding one are kept (``None``: all), so memory stays bounded on a page of many tags. Linear: each
    character is looked at a bounded number of times (code spans are matched per paragraph, each backtick
    run once)."""
    try:
        return _Scan(view, watch).run()
    except _BuildError as error:  # certain only where the scan surely reads MDX text (mdx_certain)
        return MdxReading(
            (error.at, error.why), None, (), None, error.certain and not in_unmodelled_text(view, error.at)
        )


class _Element(NamedTuple):
    name: str
    start: int
    line: int
    flow: bool
    paragraph: int  # the paragraph counter when it opened (an inline element must close in it)


class _Scan:
    def __init__(self, view: str, watch: Sequence[int] | None) -> None:
        self.view, self.watch = view, watch
        self.regions: list[Region] = []
        self.known: set[str] = set(_GLOBALS)
        self.imported: dict[str, str] = {}  # a name an import binds -> the module it comes from
        self.include: tuple[int, str] | None = None
        self.elements: list[_Element] = []
        self.directives: list[tuple[int, int, int, str]] = []  # (colons, body start, line, opener text)
        self.fewest: list[int] = []  # per open directive, the fewest colons of it and those around it
        self.paragraph = 0  # counts blank lines: an inline element must close before the next one
        self.esm_lines: set[int] = set()
        self.counted = (0, 1)  # (offset, its line): line_of counts on from there
        self.text_span = (-1, 0, 0)  # the last line read by _text_span: (start, first text, end of last text)
        self.doubt: tuple[int, str] | None = None
        self.unwrapped: set[int] = set()  # line starts of the closing lines of mdx-code-block fences
        self.escaped = -1  # the '{#' Docusaurus escapes on the current heading line
        self.no_closer_after: dict[str, int] = {}  # backticks -> an offset after which no line closes them
        self.void_closed: int | None = None  # see _void_closed

    def _region(self, region: Region) -> None:
        """Keep ``region`` if it holds a watched offset (one holding none decides nothing)."""
        if self.watch is None or bisect.bisect_left(self.watch, region.end) > bisect.bisect_left(
            self.watch, region.start
        ):
            self.regions.append(region)

    def line_of(self, at: int) -> int:
        """The 1-based line of ``at``, counted on from the last one asked (linear when asked in order)."""
        last_at, last_line = self.counted
        if at < last_at:
            last_at, last_line = 0, 1
        line = last_line + self.view.count("\n", last_at, at)
        self.counted = (at, line)
        return line

    def run(self) -> MdxReading:
        view = self.view
        self._esm()
        pos, size = 0, len(view)
        fence: tuple[str, int] | None = None
        stretch_end = -1
        no_closer: dict[int, array[int]] = {}  # backtick run length -> the starts of such runs in the stretch
        resume = -1  # a construct ended mid-line here: the rest of the line is inline text
        esm_starts = sorted(self.esm_lines)
        while pos < size:
            eol = view.find("\n", pos)
            eol = size if eol == -1 else eol
            if pos == resume:
                pos, resume = self._inline(pos, eol, stretch_end, no_closer)
                continue
            if pos in self.esm_lines or pos in self.unwrapped:
                pos = eol + 1
                continue
            plain = _PLAIN_LINES.match(view, pos, size if size - pos <= LINES_CHUNK else lines_chunk_end(view, pos))
            if plain is not None and fence is None:  # lines of text only: nothing below would act on them
                pos = plain.end()
                if esm_starts:  # an import or export line among them is read as one
                    k = bisect.bisect_right(esm_starts, plain.start())
                    if k < len(esm_starts) and esm_starts[k] < pos:
                        pos = esm_starts[k]
                continue
            line = view[pos:eol]
            if fence is not None:  # inside fenced code: look only for its closing fence
                if closes(line.lstrip(" \t>").rstrip(" \t\r"), 0, fence[0], fence[1], MDX_FENCES):
                    fence = None
                pos = eol + 1
                continue
            opened = _FENCE_OPEN.match(line)
            if opened is not None and self._unwrap(pos, eol, line):
                pos = eol + 1  # Docusaurus drops the fence lines: its body is read as MDX
                continue
            if opened is not None:  # jump to its closing line (the loop above reads no line between)
                closing = _fence_closer(opened.group(1)[0], len(opened.group(1))).search(view, eol + 1)
                inner = _UNWRAP_OPENER.search(view, eol + 1, size if closing is None else closing.start())
                if inner is not None and self.doubt is None:
                    self.doubt = (
                        inner.start(),
                        "Docusaurus's preprocessor unwraps this mdx-code-block fence in the "
                        f"fenced code opened on line {self.line_of(pos)} too, which changes "
                        "where that code ends; the gate does not model it",
                    )
                colons = self.fewest[-1] if self.fewest else 0  # a run of as many ends one (hostile round 5)
                if closing is None and colons and self.doubt is None:
                    self.doubt = (pos, _UNCLOSED_IN_ADMONITION)
                elif (
                    closing
                    and (colons or self.elements)
                    and _code_in_container(view, line, colons, eol + 1, closing.end())
                ):
                    self._region(Region(eol + 1, closing.start(), True, "fenced code", self.line_of(pos), True))
                if closing is None:
                    fence = (opened.group(1)[0], len(opened.group(1)))
                    pos = size
                else:
                    pos = closing.end() + 1
                continue
            if _BLANK.match(line):
                self.paragraph += 1
                self._close_inline(pos)
                pos = eol + 1
                continue
            closed = _DIRECTIVE_CLOSE.match(line)
            if closed is not None and self.directives and len(closed.group(1)) >= self.directives[-1][0]:
                _colons, body, opened_line, text = self.directives.pop()
                self.fewest.pop()
                self._region(Region(body, pos, False, f"the admonition {text!r}", opened_line))
                pos = eol + 1
                continue
            directive = _DIRECTIVE_OPEN.match(line)
            if directive is not None:
                self.directives.append((len(directive.group(1)), eol + 1, self.line_of(pos), line.strip()[:40]))
                self.fewest.append(min([len(directive.group(1)), *self.fewest[-1:]]))
            if stretch_end < pos:
                stretch_end = _stretch_end(view, pos)
                no_closer = _backtick_runs(view, pos, stretch_end)
            heading = _HEADING_LINE.match(line)
            self.escaped = view.find("{#", pos, eol) if heading is not None else -1
            pos, resume = self._inline(pos, eol, stretch_end, no_closer)
            if (
                resume < 0
                and line.lstrip(" \t>").startswith("<")
                and not line.lstrip(" \t>").startswith("<!--")
                and not _TAGS_ONLY.fullmatch(line.lstrip(" \t>"))
                and pos < size
                and not _BLANK_LINE.match(view, pos)
            ):
                # a line that opens with JSX and holds text, then more text: MDX unwraps that paragraph
                next_line = self.line_of(pos)
                self._region(
                    Region(
                        pos,
                        stretch_end if pos < stretch_end else _stretch_end(view, pos),
                        False,
                        f"the text after the JSX of line {next_line - 1}, which is no paragraph to MDX",
                        next_line,
                    )
                )
        if fence is None:
            for _colons, body, opened_line, text in reversed(self.directives):  # unclosed: to the end
                self._region(Region(body, size, False, f"the admonition {text!r}", opened_line))
        if self.elements:
            element = self.elements[-1]
            raise _BuildError(
                element.start,
                f"the JSX element <{element.name}> (line {element.line}) is never closed: MDX does not build this page",
            )
        self.regions.sort(key=lambda region: region.start)
        return MdxReading(None, self.include, tuple(self.regions), self.doubt)

    def _unwrap(self, pos: int, eol: int, line: str) -> bool:
        """Docusaurus's preprocessor drops the fence lines of a fence of three or four backticks whose info
        string is ``mdx-code-block`` (only spaces before the run, on both lines; closed by the first line of
        spaces and that many backticks): its body is MDX. True when the line at ``pos`` opens one; its
        body is a region (any directive-shaped text there is refused), its closing line is skipped. A
        body holding a fence or a container directive, whose reach past the body the gate does not
        model, puts the page in doubt (:attr:`MdxReading.doubt`)."""
        opener = _MDX_CODE_BLOCK.match(line)
        if opener is None:
            return False
        view, ticks = self.view, opener.group(1)
        if self.no_closer_after.get(ticks, len(view) + 1) <= eol:
            return False  # no closing line of that many backticks below an earlier one: none below this one
        closer = _UNWRAP_CLOSERS[len(ticks)].search(view, eol + 1)
        if closer is None:
            self.no_closer_after[ticks] = eol
            return False
        line_no = self.line_of(pos)
        self.unwrapped.add(closer.start())
        self._region(
            Region(
                eol + 1,
                closer.start(),
                False,
                f"the mdx-code-block fence opened on line {line_no}, whose body Docusaurus renders as MDX",
                line_no,
            )
        )
        inner = _BODY_BLOCK.search(view, eol + 1, closer.start())
        if inner is not None and self.doubt is None:
            self.doubt = (
                inner.start(),
                f"a fence or a container directive inside the mdx-code-block fence opened on "
                f"line {line_no}, which Docusaurus renders as MDX: the gate does not model "
                "how far it reaches; move it out of that fence",
            )
        return True

    # ---- ESM: import and export lines

    def _esm(self) -> None:
        """``import`` and ``export`` lines (MDX's ESM: from a block's start to the next blank line): the
        names they bind, an import of content; a line of another shape may not build."""
        view = self.view
        last_end = -2  # the end of the last ESM line
        code_end = -1  # the end of the last top-level fenced code found: its lines are code, not ESM
        for match in _ESM_START.finditer(view):
            at = match.start()
            if at < (code_end := top_level_code_end(view, code_end, at)):
                continue
            if at > 0:
                previous = view.rfind("\n", 0, at - 1) + 1
                above = view[previous : at - 1]
                if (
                    above.strip(" \t\r")
                    and last_end != at - 1
                    and not _TAGS_ONLY.fullmatch(above.lstrip(" \t>"))
                    and not _MDX_CODE_BLOCK.match(above)
                    and not _FENCE_OPEN.match(above)
                ):
                    # a paragraph's later line: text (after a line of JSX tags, an mdx-code-block fence's opening
                    # line, which Docusaurus drops, or a fence's that the line may close, a block starts)
                    continue
            line_end = view.find("\n", at)
            line_end = len(view) if line_end == -1 else line_end
            esm = _ESM.match(view, at, line_end)
            if esm is None or view[esm.end() : line_end].strip(" \t\r"):
                raise _BuildError(
                    at, "an import or export line the gate does not model: MDX may not build it", certain=False
                )
            if esm.group("default"):
                self.known.add(esm.group("default"))
                self.imported[esm.group("default")] = esm.group("source")
            if esm.group("exports"):
                raise _BuildError(
                    at, "a re-export (export {...}): the gate does not model what MDX binds then", certain=False
                )
            for names in (esm.group("names"),):
                if names:
                    bound = [name.strip() for name in names.split(",") if name.strip()]
                    self.known.update(bound)
                    self.imported.update(dict.fromkeys(bound, esm.group("source")))
            if esm.group("const"):
                self.known.add(esm.group("const"))
                self._read_expression(esm.start("value"), esm.end("value"))
            source = esm.group("source")
            if source and _CONTENT.search(source) and self.include is None:
                self.include = (
                    at,
                    f"this import pulls in the page {source!r}, whose lines the gate does not read; "
                    "a reader sees them where it is used",
                )
            self.esm_lines.add(at)
            # an exported value shows where the page uses it ({v}): directive-shaped text in it is refused
            self._region(Region(at, line_end, not esm.group("const"), "an import or export", self.line_of(at)))
            last_end = line_end

    # ---- inline: code spans, expressions, tags

    def _inline(self, pos: int, eol: int, stretch_end: int, runs: dict[int, array[int]]) -> tuple[int, int]:
        """Read one line's text from ``pos`` to ``eol``: ``(where to go on, -1)`` past the line, or
        ``(offset, offset)`` past a code span, expression or tag that ends on a later line (the rest of
        that line is text)."""
        view = self.view
        i = pos
        special = _INLINE_SPECIAL.search
        while i < eol:
            found = special(view, i, eol)  # the next character that may start something: C-level
            if found is None:
                break
            i = found.start()
            ch = view[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "`":
                j = i
                while j < eol and view[j] == "`":
                    j += 1
                n = j - i
                starts = runs.get(n, _NO_RUNS)
                k = bisect.bisect_left(starts, j)
                if k >= len(starts):  # no run of the same length closes it in its paragraph: text
                    i = j
                    continue
                i = starts[k] + n
            elif ch == "{" and i == self.escaped:  # Docusaurus escapes the first '{#' of a heading line
                i += 1
                continue
            elif ch == "{":
                i = self._expression(i)
            elif ch == "<" and i + 1 < len(view) and view[i + 1] not in " \t\r\n":
                destination = _destination(view, i, pos)
                i = destination.end() if destination is not None else self._tag(i)
            else:
                i += 1
                continue
            if i > eol:
                return i, i
        return eol + 1, -1

    def _expression(self, at: int) -> int:
        """An expression ``{...}`` at ``at``: its end; a comment is a hidden region, anything else shown."""
        view = self.view
        end = _expression_end(view, at)
        inner = view[at + 1 : end - 1]
        if re.fullmatch(r"\s*/\*.*?\*/\s*", inner, re.DOTALL | re.ASCII):
            self._region(Region(at, end, True, "an MDX comment", self.line_of(at)))
            return end
        self._read_expression(at + 1, end - 1)
        self._region(Region(at, end, False, "a JSX expression", self.line_of(at)))
        return end

    def _read_expression(self, start: int, end: int, spread: bool = False) -> None:
        """Parse the expression ``view[start:end]`` (a build error if the gate does not model it); where its
        shown text cannot be known from the page (an escape, a concatenation, a call, an array, a value
        imported from another file: hostile finding 6), put the page in doubt, naming its line."""
        expression = _Expression(self.view, start, end, self.known, spread, self.imported)
        expression.whole()
        if expression.unknown is not None and self.doubt is None:
            at, why = expression.unknown
            self.doubt = (
                at,
                f"this expression shows text the gate cannot know from the page ({why}): MDX "
                "evaluates it, and a reader may see a directive the page does not spell out",
            )

    def _tag(self, at: int) -> int:
        """A JSX tag at ``at`` (a ``<`` not followed by whitespace): its end; it opens or closes an element."""
        view = self.view
        if view.startswith("<!--", at):
            return self._comment(at)
        i = _skip_space(view, at + 1)
        closing = view.startswith("/", i)
        if closing:
            i = _skip_space(view, i + 1)
        name_match = _NAME.match(view, i)
        name = name_match.group() if name_match else ""
        if name_match:
            i = name_match.end()
            if view[i : i + 1] in (".", ":"):
                if view[i] == ":" and namespace_fails(view, i):
                    raise _BuildError(at, _NO_AUTOLINK.format(name=name))
                raise _BuildError(at, _MEMBER_NAME.format(name=name, mark=view[i]), certain=False)
        elif not view.startswith(">", i):
            raise _BuildError(at, "a '<' that starts no JSX tag: MDX does not build this page (write \\< or &lt;)")
        self_closing = False
        while True:
            i = _skip_space(view, i)
            if view.startswith("/>", i) and not closing:
                self_closing, i = True, i + 2
                break
            if view.startswith(">", i):
                i += 1
                break
            if closing or not name:
                raise _BuildError(at, "a JSX closing tag or fragment with more than its name: MDX does not build it")
            if view.startswith("{", i):
                end = _expression_end(view, i)
                self._read_expression(i + 1, end - 1, spread=True)
                i = end
                continue
            attribute = _ATTRIBUTE.match(view, i)
            if attribute is None:
                raise _BuildError(at, _NO_PARSE.format(name=name), certain=attribute_fails(view, i))
            i = _skip_space(view, attribute.end())
            if view.startswith("=", i):
                i = _skip_space(view, i + 1)
                quote = view[i : i + 1]
                if quote in ("'", '"'):
                    close = view.find(quote, i + 1)
                    if close < 0:
                        raise _BuildError(at, f"an attribute of <{name}> is never closed: MDX does not build this page")
                    if attribute.group() == "style":
                        raise _BuildError(at, "a style attribute written as a string: React does not render it")
                    i = close + 1
                elif quote == "{":
                    end = _expression_end(view, i)
                    self._read_expression(i + 1, end - 1)
                    i = end
                else:
                    raise _BuildError(
                        at, f"an attribute value of <{name}> does not parse: MDX does not build this page"
                    )
        line = self.line_of(at)
        self._region(Region(at, i, False, f"the JSX tag <{'/' if closing else ''}{name}>", line))
        if self_closing:
            return i
        if closing:
            if not self.elements or self.elements[-1].name != name:
                raise _BuildError(at, f"the closing tag </{name}> closes no open element: MDX does not build this page")
            element = self.elements.pop()
            if element.flow and not self._flow(at, i):
                raise _BuildError(
                    at,
                    f"the closing tag </{name}> is text in a paragraph, its element <{name}> (line "
                    f"{element.line}) a block: MDX does not build this page",
                )
            if not element.flow and element.paragraph != self.paragraph:
                raise _BuildError(
                    element.start,
                    f"the JSX element <{name}> (line {element.line}) opens in one paragraph "
                    "and closes in another: MDX does not build this page",
                )
            self._region(Region(element.start, at, False, f"the JSX element <{name or '>'}>", element.line))
            return i
        if name.lower() in _VOID and i > self._void_closed():
            # JSX closes an element only by '/>' or its closing tag, whatever HTML says of void elements
            raise _BuildError(
                at, f"the element <{name}> is never closed (JSX needs <{name} ... />): MDX does not build this page"
            )
        if name.lower() == "style":  # CSS in its body is text to MDX, a '{' an expression
            body_end = view.find("</", i)
            brace = view.find("{", i, len(view) if body_end < 0 else body_end)
            if (
                brace > 0
                and view[brace - 1] != "\\"
                and "`" not in view[i:brace]
                and _statements(view, brace + 1, _expression_end(view, brace) - 1)
            ):
                raise _BuildError(
                    brace,
                    f"CSS in <{name}> (line {self.line_of(at)}): MDX reads its '{{' as a "
                    "JavaScript expression, which CSS is not: MDX does not build this page",
                )
        if name.lower() in _SPECIAL and not (
            name == "iframe" and view.startswith("</iframe>", i)
        ):  # empty: shows no text
            raise _BuildError(
                at,
                f"the element <{name}>: React renders it only with rules of its own (a void "
                "element has no children, a textarea one): the gate does not model them",
                certain=False,
            )
        self.elements.append(_Element(name, at, line, self._flow(at, i), self.paragraph))
        return i

    def _void_closed(self) -> int:
        """The offset of the page's last closing tag of a void element (``</img``, any case), or -1;
        found once per page."""
        if self.void_closed is None:
            self.void_closed = -1
            for found in _VOID_CLOSE.finditer(self.view):
                self.void_closed = found.start()
        return self.void_closed

    def _comment(self, at: int) -> int:
        """An HTML comment at ``at``, as Docusaurus 3 reads it by default (``mdx1Compat.comments``:
        @slorber/remark-comment): hidden up to ``-->``; its end. Unclosed, MDX does not build the page.
        Text after it on its line shows, otherwise than as a line of its own: a region (refused there).
        One over several lines may hide a line that starts a block (a fence, a heading) the block
        reading takes: the page is in doubt if a line of its body starts with such a character. One begun
        in a paragraph's text (text before it on its line) and running over a blank line or a line that
        may start a block (:data:`_BLOCKING_LINE`: ``<``, ``-``, ``#`` ...) is a build error."""
        view = self.view
        close = view.find("-->", at + 4)
        if close < 0:
            raise _BuildError(at, "an HTML comment that no '-->' closes: MDX does not build this page")
        if view.startswith((">", "->"), at + 4):
            raise _BuildError(at, "an HTML comment that begins '<!-->' or '<!--->': MDX does not build this page")
        end = close + 3
        line_start = view.rfind("\n", 0, at) + 1
        if view[line_start:at].strip(" \t>") and _BLOCKING_LINE.search(view, at, close) is not None:
            raise _BuildError(
                at,
                "an HTML comment begun in a paragraph's text that runs over a blank line or a line "
                "that may start a block: MDX does not build this page",
            )
        line = self.line_of(at)
        paragraph = max(view.rfind("\n\n", 0, at) + 2, 0)
        if (
            self.doubt is None
            and view[line_start:at].strip(" \t>")
            and ("](" in view[paragraph:at] or "]:" in view[paragraph:at])
        ):
            # a link's destination or title may hold it: MDX forms the link first, and then no comment
            # begins here (the lines below it show); the gate does not settle whether the link forms
            self.doubt = (
                at + 1,
                f"the '<!--' on line {line} may be part of a link's destination or title (MDX "
                "reads the link first, and then shows the lines below it): write it as %3C!-- "
                "or &lt;!--",
            )
        self._region(Region(at, end, True, "an HTML comment", line))
        eol = view.find("\n", end)
        eol = len(view) if eol == -1 else eol
        if view[end:eol].strip(" \t\r"):
            self._region(Region(end, eol, False, f"the text after the HTML comment of line {line}", line))
        if self.doubt is None and view.find("\n", at, close) != -1:
            inner = _COMMENT_BLOCK.search(view, at, close)
            if inner is not None:
                self.doubt = (
                    inner.start() + 1,
                    f"the HTML comment opened on line {line} hides a line that may start a "
                    "block (a fence, a heading, a list, a table): the gate does not model "
                    "how the lines after the comment then read; move it out of the comment",
                )
        return end

    def _flow(self, at: int, end: int) -> bool:
        """Is the tag ``[at, end)`` on a line of its own (only tags and spaces besides, after container
        markers)? Then it is flow JSX, whose element may hold blocks; otherwise it is text JSX, which
        must close in its paragraph."""
        view = self.view
        first_text, _ = self._text_span(view.rfind("\n", 0, at) + 1)
        _, last_text = self._text_span(view.rfind("\n", 0, end) + 1)
        return at <= first_text and end >= last_text

    def _text_span(self, start: int) -> tuple[int, int]:
        """Of the line starting at ``start``: where its first text outside tags starts (after container
        markers and a list marker) and where its last text ends; read once per line (tags come in
        order, so only the last line read is kept: memory stays bounded on a page of many lines)."""
        if self.text_span[0] != start:
            view = self.view
            eol = view.find("\n", start)
            eol = len(view) if eol == -1 else eol
            prefix = _LINE_PREFIX.match(view, start, eol)
            i = prefix.end() if prefix is not None else start
            first, last = eol, i
            for piece in _TAG_OR_TEXT.finditer(view, i, eol):
                if piece.lastgroup == "text":
                    first = min(first, piece.start())
                    last = piece.end()
            self.text_span = (start, first, last)
        return self.text_span[1], self.text_span[2]

    def _close_inline(self, at: int) -> None:
        """A blank line: an inline element still open does not build."""
        if self.elements and not self.elements[-1].flow:
            element = self.elements[-1]
            raise _BuildError(
                element.start,
                f"the JSX element <{element.name}> (line {element.line}) is not closed "
                "in its paragraph: MDX does not build this page",
            )


def _destination(view: str, at: int, line_start: int) -> re.Match[str] | None:
    """A link destination in angle brackets at ``at`` (CommonMark 6.3, 4.7), not a tag: after ``](``
    and before ``)`` or a space; or a definition's (``[label]: <dest>`` opening a paragraph, the
    destination not empty, then a space or the end of the line). Whether that line may open a
    definition is not checked: a paragraph's line of that shape is taken for one too, where MDX would
    read a tag (and may not build the page: a build error the gate does not refuse)."""
    destination = _DESTINATION.match(view, at)
    if destination is None:
        return None
    after = view[destination.end() : destination.end() + 1]
    if view[max(line_start, at - 2) : at] == "](":
        return destination if after in (")", " ", "\t", "\n") else None
    start = view.rfind("\n", 0, at) + 1
    if (
        _DEFINITION_HEAD.fullmatch(view, start, at)
        and destination.end() - at > 2
        and after in ("", " ", "\t", "\r", "\n")
    ):
        return destination
    return None


def _stretch_end(view: str, pos: int) -> int:
    """The start of the next blank line at or after ``pos`` (a code span does not cross it), or the end."""
    found = _BLANK_AFTER.search(view, pos)
    return len(view) if found is None else found.start() + 1


@lru_cache(maxsize=64)
def _fence_closer(char: str, length: int) -> re.Pattern[str]:
    """A line that closes a fence of ``length`` or more ``char``: at any indentation, in any quotes (the
    search form of :func:`~_conflict_gate.reading.fences.closes` with :data:`~_conflict_gate.reading.fences.MDX_FENCES`)."""
    return re.compile(rf"^[ \t>]*{re.escape(char)}{{{length},}}[ \t\r]*$", re.ASCII | re.MULTILINE)


def _backtick_runs(view: str, start: int, end: int) -> dict[int, array[int]]:
    """Run length -> the starts of the backtick runs of that length in ``[start, end)``, in order (a
    code span closes at the next run of its opener's length: CommonMark 6.1); arrays, so a paragraph of
    code spans costs 8 bytes per run."""
    runs: dict[int, array[int]] = {}
    for run in _BACKTICKS.finditer(view, start, end):
        found = runs.get(run.end() - run.start())
        if found is None:
            found = runs[run.end() - run.start()] = array("q")
        found.append(run.start())
    return runs


def _skip_space(view: str, i: int) -> int:
    match = _SPACE.match(view, i)
    return i if match is None else match.end()
