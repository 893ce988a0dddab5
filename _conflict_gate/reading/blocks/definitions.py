"""Link reference definitions (CommonMark 0.31.2, 4.7), and markdown-it's reading of them (no I/O).

Definitions are not a block of their own in CommonMark: they open a
paragraph and come off when it closes (:func:`split_definitions`), or
before it becomes a setext heading. markdown-it reads one definition as a
block of its own, taking the lines after it only while they belong to it
(:func:`markdown_it_definitions`). Both read the definitions that open some
text with one loop, :func:`definition_spans`; the parts are the label (6.3),
the destination and the title (6.7), each a small function of the text and
a position.

The text is byte-view text (the page's bytes, one character per byte);
lengths count bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Literal

from ..inline_spans import ASCII_PUNCTUATION
from .state import Line, State, lines_of

__all__ = ["DEFINITION_LINES", "definition_spans", "link_definition", "markdown_it_definitions", "split_definitions"]

#: markdown-it's reading of link definitions is followed over at most this many lines of a
#: paragraph; the lines after are in doubt (each line re-reads the paragraph so far).
DEFINITION_LINES: Final = 64


def definition_spans(content: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each link reference definition opening ``content``, in order: the first
    at offset 0, each next one where the last ends (after its line ending)."""
    found = []
    pos = 0
    while pos < len(content) and content[pos] == "[":
        end = link_definition(content, pos)
        if end < 0:
            break
        found.append((pos, end))
        pos = end
    return found


def split_definitions(view: str, lines: Sequence[Line]) -> tuple[list[Line], list[Line]]:
    """4.7 Link reference definitions opening a paragraph: ``(their lines, the other lines)``.

    ``[label]: destination "title"``, the parts as in 6.3 (label) and 6.7
    (destination, title); a definition may span lines and only whole lines
    are definitions. A title that fails leaves a definition that ends with
    its destination, when that ends a line.
    """
    if not lines or view[lines[0][1] : lines[0][1] + 1] != "[":
        return [], list(lines)
    content = "\n".join(view[start:end] for _, start, end in lines)
    spans = definition_spans(content)
    pos = spans[-1][1] if spans else 0
    taken = content.count("\n", 0, pos) + (1 if pos == len(content) else 0)
    return list(lines[:taken]), list(lines[taken:])


def link_definition(s: str, pos: int) -> int:
    """One definition at ``s[pos] == "["``: the offset after its line ending (or the end), or -1."""
    label_end = _link_label(s, pos)
    if label_end < 0 or s[label_end : label_end + 1] != ":":
        return -1
    start = _skip_space(s, label_end + 1)
    destination_end = _link_destination(s, start)
    if destination_end < 0:
        return -1
    plain_end = _line_end_after_space(s, destination_end)
    title_start = _skip_space(s, destination_end)
    if title_start > destination_end:
        title_end = _link_title(s, title_start)
        if title_end >= 0:
            end = _line_end_after_space(s, title_end)
            if end >= 0:
                return end
    return plain_end


def _skip_space(s: str, i: int) -> int:
    """Skip spaces and tabs, with at most one line ending among them."""
    newline = False
    while i < len(s):
        ch = s[i]
        if ch == "\n" and not newline:
            newline = True
        elif ch not in " \t":
            break
        i += 1
    return i


def _line_end_after_space(s: str, i: int) -> int:
    """The offset after the line ending when only spaces or tabs follow ``i`` on its line, else -1."""
    while i < len(s) and s[i] in " \t":
        i += 1
    if i == len(s):
        return i
    return i + 1 if s[i] == "\n" else -1


def _is_escape(s: str, i: int) -> bool:
    return s[i] == "\\" and i + 1 < len(s) and s[i + 1] in ASCII_PUNCTUATION


def _link_label(s: str, pos: int) -> int:
    """6.3 Link label: ``[``, at most 999 characters (here bytes) without unescaped brackets, not
    blank, ``]``."""
    i = pos + 1
    blank = True
    while i < len(s) and i - pos - 1 <= 999:
        ch = s[i]
        if _is_escape(s, i):
            blank = False
            i += 2
            continue
        if ch == "[":
            return -1
        if ch == "]":
            return -1 if blank or i - pos - 1 > 999 else i + 1
        if ch not in " \t\n":
            blank = False
        i += 1
    return -1


def _link_destination(s: str, i: int) -> int:
    """6.7 Link destination: ``<...>`` on one line, or a nonempty run without spaces or ASCII
    controls whose parentheses balance (at most 32 deep, as reference implementations)."""
    if s[i : i + 1] == "<":
        j = i + 1
        while j < len(s):
            if _is_escape(s, j):
                j += 2
                continue
            ch = s[j]
            if ch in "\n<":
                return -1
            if ch == ">":
                return j + 1
            j += 1
        return -1
    depth, j = 0, i
    while j < len(s):
        if _is_escape(s, j):
            j += 2
            continue
        ch = s[j]
        if ch == "(":
            depth += 1
            if depth > 32:
                return -1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch <= " " or ch == "\x7f":
            break
        j += 1
    return -1 if depth or j == i else j


def _link_title(s: str, i: int) -> int:
    """6.7 Link title: ``"..."``, ``'...'`` or ``(...)`` (escaped delimiters inside); offset after it, or -1."""
    opener = s[i : i + 1]
    closer = {'"': '"', "'": "'", "(": ")"}.get(opener)
    if closer is None:
        return -1
    j = i + 1
    while j < len(s):
        if _is_escape(s, j):
            j += 2
            continue
        ch = s[j]
        if ch == closer:
            return j + 1
        if opener == "(" and ch == "(":
            return -1
        j += 1
    return -1


# --------------------------------------------------------------------------
# markdown-it's reading


#: Lines markdown-it never takes into a link definition (its terminators: fence, quote, break, list, HTML, heading).
_MARKDOWN_IT_TERMINATES: Final = re.compile(
    r"(?:`{3,}|~{3,}|>|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\Z|[*+\-](?:[ \t]|\Z)"
    r"|[0-9]{1,9}[.)](?:[ \t]|\Z)|#{1,6}(?:[ \t]|\Z)|<)",
    re.ASCII,
)


def markdown_it_definitions(s: State) -> Literal["close", "absorb", ""]:
    """markdown-it's reading of a line after an open paragraph (the tip) that opens with ``[``.

    markdown-it reads one link definition as a block of its own, taking the
    lines that follow only while they are part of that definition. Returns
    ``"close"`` when the paragraph is only definitions and this line does not
    extend the last one (the line then starts afresh), ``"absorb"`` when this
    line completes a definition the spec would not see (it belongs to the
    definition, whatever it looks like), else ``""``.
    """
    lines = lines_of(s, s.stack[-1])
    view = s.view
    if view[lines[0][1] : lines[0][1] + 1] != "[" or len(lines) > DEFINITION_LINES:
        return ""  # past the bound the primary reading puts the paragraph in doubt (finish_paragraph)
    content = "\n".join(view[a:b] for _, a, b in lines)
    spans = definition_spans(content)
    new = s.line.lstrip(" \t>")
    extended = content + "\n" + new
    if spans and spans[-1][1] >= len(content):
        end = link_definition(extended, spans[-1][0])
        return "close" if end <= len(content) + 1 else ""
    if _MARKDOWN_IT_TERMINATES.match(new) or not new.strip(" \t"):
        return ""
    spans_after = definition_spans(extended)
    return "absorb" if spans_after and spans_after[-1][1] >= len(extended) else ""
