"""Statements a reader sees in an answer's layout rather than in one statement's text (no I/O).

Hostile round 6: a table row's cells past the one after its name (:func:`later_cells`), a row continuing a merged
name cell (:func:`merged_rows`), an HTML block's rows (:func:`html_rows`), a name set to a conditional expression
in code (:func:`conditionals`), and a tool's own pin of the product (:func:`tool_pins`). Each is fail closed: a
value of the grammar a reader may take as the name's counts; each runs in time linear in its text."""

from __future__ import annotations

import functools
import re
from typing import Final

from ..manifest.form import RESERVED_KEYS
from .disguise import BARE_EDGES, cell_token, cell_values, unprefixed
from .forms import SEPARATORS, FormWords, Statement
from .reader import CODE_MARK

__all__ = ["conditionals", "html_rows", "later_cells", "merged_rows", "tool_pins"]


@functools.lru_cache(maxsize=16)
def _tool_pin(namespace: str, product: str) -> re.Pattern[str]:
    """:func:`tool_pins`'s pattern for a grammar's namespace and product (any case, as a whole word)."""
    products = "|".join(sorted({re.escape(namespace.lower()), re.escape(product.lower())}))
    s = r"[^\S\r\n]"
    return re.compile(
        rf"(?<![A-Za-z0-9_.\-/@])[A-Za-z0-9_.\-]+:(?i:{products}):(?P<v1>[vV]?[0-9][^\s'\"`:@){CODE_MARK}]*)"
        rf"|(?<![A-Za-z0-9_.\-/@])[\"']?(?i:{products})[\"']?{s}+(?:-v|--version)(?:={s}*|{s}+)"
        rf"[\"']?(?P<v2>[\^~=<>!vV0-9][^\s'\"`){CODE_MARK}]*)"
        rf"|(?<![A-Za-z0-9_])gem{s}+[\"'](?i:{products})[\"']{s}*,{s}*[\"'](?P<v4>[^\"'\r\n]+)[\"']"
        rf"|^{s}*(?:[#$>]{s}*)?(?i:{products}){s}+(?P<v3>[vV]?[0-9][0-9A-Za-z.\-+]*){s}*$",
        re.MULTILINE,
    )


def tool_pins(words: FormWords, text: str) -> list[Statement]:
    """In code, a tool's own pin of the product, as a statement of ``version`` (hostile round 6; the other pins
    are :meth:`FormWords.pins`'): a Gradle or Maven coordinate ``org.quill:quill:2.0``, ``gem install quill -v
    2.0`` (or ``--version``), a Gemfile's ``gem "quill", "~> 2.0"``, and a line that is only the product and a
    version (``quill --version``'s output ``quill 2.0``, a comment ``# quill 2.0``); a ``v`` before the version
    is dropped. A range states the range (never the requested version alone)."""
    grammar = words.grammar
    lowered = text.lower()
    if grammar.namespace.lower() not in lowered and grammar.product.lower() not in lowered:
        return []
    found = []
    for match in _tool_pin(grammar.namespace, grammar.product).finditer(text):
        group = next(g for g in ("v1", "v2", "v3", "v4") if match.group(g) is not None)
        value = match.group(group).rstrip(SEPARATORS)
        if value[:1] in "vV" and value[1:2].isdigit():
            value = value[1:]
        if value:
            found.append(
                Statement(RESERVED_KEYS[0], value, match.start(), match.start(group) + len(match.group(group)))
            )
    return found


#: A name followed by ``=`` or a colon (an assignment, a keyword argument, an object's key), for
#: :func:`conditionals`.
_ASSIGNED: Final = re.compile(r"(?<![A-Za-z0-9_$.\-])(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)[\"']?[^\S\r\n]*[:=](?![=:])")


def conditionals(words: FormWords, text: str) -> list[Statement]:
    """In code, a name set to a conditional expression (Python's ``"refuse" if old else "overwrite"``, a
    ternary ``old ? "refuse" : "overwrite"``): each value of the grammar quoted in it, up to the line's end or
    the next name set, is a value of the name (fail closed: the statement read gives its first literal only).
    Hostile round 6. Linear: each stretch of a line is looked at once."""
    found = []
    marks = []
    for match in _ASSIGNED.finditer(text):
        name = unprefixed(words, match.group("name"))
        if words.spelt_as(name):
            marks.append((name, match.start(), match.end()))
    for k, (name, _, at) in enumerate(marks):
        bound = marks[k + 1][1] if k + 1 < len(marks) else len(text)
        stop = text.find("\n", at, bound)
        stop = bound if stop < 0 else stop
        rest = text[at:stop]
        if not ((" if " in rest and " else " in rest) or ("?" in rest and ":" in rest)):
            continue
        for v, e in cell_values(words, rest):
            if at + e < len(text) and text[at + e] in "\"'" and text[at + e - len(v) - 1] in "\"'":
                found.append(Statement(name, v, at + e - len(v) - 1, at + e + 1))
    return found


def html_rows(words: FormWords, text: str) -> list[Statement]:
    """In an HTML block's shown text (block elements on lines of their own), a line of only a name and each line
    after it up to a blank line (the rest of a ``<tr>``, a ``<dl>``'s descriptions): each value of the grammar in
    them as a whole word, and for ``version`` a line of one token starting with a digit (fail closed, as
    :func:`later_cells`). Hostile round 6: ``<td>existing_path</td><td>refuse</td><td>overwrite</td>`` read only
    the cell after the name."""
    found = []
    lines = text.split("\n")
    at = 0
    name: tuple[str, int] | None = None
    for line in lines:
        token = line.strip(BARE_EDGES)
        if not token:
            name = None
        elif name is None:
            bare = token.rstrip(":").strip(BARE_EDGES)
            if not any(ch.isspace() for ch in bare) and words.spelt_as(bare):
                name = (bare, at)
        elif (
            token[0].isdigit() and not any(ch.isspace() for ch in token) and RESERVED_KEYS[0] in words.spelt_as(name[0])
        ):
            begin = at + line.index(token[0])
            found.append(Statement(name[0], token, begin, begin + len(token)))
        else:
            found += [Statement(name[0], v, at + e - len(v), at + e) for v, e in cell_values(words, line)]
        at += len(line) + 1
    return found


def merged_rows(words: FormWords, text: str, cells: list[tuple[int, int]], lines: list[int]) -> list[Statement]:
    """A table row whose first cell is empty continues the name of the row above (a merged cell: ``|
    existing_path | refuse |`` then ``| | overwrite |``): each value of the grammar in its other cells is a value
    of that name, and for ``version`` a cell of one token starting with a digit (fail closed, as
    :func:`later_cells`). ``cells`` and ``lines`` as in :func:`column_values`, every cell with its row.
    Hostile round 6."""
    found = []
    name = ""
    previous = -2
    for (a, b), line in zip(cells, lines):
        if line == previous:
            if name:
                value, value_at = cell_token(text, a, b)
                if value[:1].isdigit() and " " not in value and RESERVED_KEYS[0] in words.spelt_as(name):
                    found.append(Statement(name, value, value_at, value_at + len(value)))
                elif not words.spelt_as(value):
                    found += [
                        Statement(name, v, value_at + e - len(v), value_at + e) for v, e in cell_values(words, value)
                    ]
            continue
        previous = line
        first = cell_token(text, a, b)[0]
        if first:
            name = first if words.spelt_as(first) else ""
    return found


def later_cells(words: FormWords, text: str, cells: list[tuple[int, int]], lines: list[int]) -> list[Statement]:
    """A table row's cell that is a name, and each value of the grammar as a whole word in every cell of its row
    past the next one (a version comparison, ``| Option | 1.0 | 2.0 |`` then ``| existing_path | refuse |
    overwrite |``; the next cell is the pair's): a reader sees each as a value of the name (fail closed, as
    :func:`cell_values`). For ``version``, such a cell of one token starting with a digit. ``cells`` and
    ``lines`` as in :func:`column_values`. Found in hostile round 6: only the cell after the name was read."""
    found = []
    for k, ((a, b), line) in enumerate(zip(cells, lines)):
        if line < 0:
            continue
        name = cell_token(text, a, b)[0]
        if not name or not words.spelt_as(name):
            continue
        for (c, d), other in zip(cells[k + 2 :], lines[k + 2 :]):
            if other != line:
                break
            value, value_at = cell_token(text, c, d)
            if words.spelt_as(value):
                break  # another name's cell: the rest of the row is its (each cell looked at twice at most)
            if value and value[0].isdigit() and " " not in value and RESERVED_KEYS[0] in words.spelt_as(name):
                found.append(Statement(name, value, value_at, value_at + len(value)))
                continue
            found += [Statement(name, v, value_at + e - len(v), value_at + e) for v, e in cell_values(words, value)]
    return found
