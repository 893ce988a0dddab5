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

__all__ = ["code_forms", "conditionals", "html_rows", "later_cells", "merged_rows", "rowspans", "tool_pins"]


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


#: A table cell spanning rows and the word it starts with: ``<td rowspan="2">existing_path</td>``.
_ROWSPAN: Final = re.compile(
    r"<t[dh]\b[^<>]{0,400}?\browspan[^\S\r\n]*=[^\S\r\n]*[\"']?(?P<rows>[0-9]{1,4})[^<>]{0,400}>"
    r"\s*(?:<[A-Za-z][^<>]{0,100}>\s*){0,8}(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)",
    re.IGNORECASE,
)


def rowspans(words: FormWords, raw: str) -> dict[str, int]:
    """The names an HTML block's ``rowspan`` cells hold (:data:`_ROWSPAN`), with the rows each spans (the most
    given): the input of :func:`html_rows`."""
    spans: dict[str, int] = {}
    if "rowspan" in raw.lower():
        for match in _ROWSPAN.finditer(raw):
            if words.spelt_as(match.group("name")):
                spans[match.group("name")] = max(spans.get(match.group("name"), 1), int(match.group("rows")))
    return spans


def html_rows(words: FormWords, text: str, spans: dict[str, int] | None = None) -> list[Statement]:
    """In an HTML block's shown text (block elements on lines of their own), a line of only a name and each line
    after it up to a blank line (the rest of a ``<tr>``, a ``<dl>``'s descriptions): each value of the grammar in
    them as a whole word, and for ``version`` a line of one token starting with a digit (fail closed, as
    :func:`later_cells`). Hostile round 6: ``<td>existing_path</td><td>refuse</td><td>overwrite</td>`` read only
    the cell after the name. A name in ``spans`` (:func:`rowspans`: its cell spans that many rows) stays in force
    over the next rows (each a run of lines after blank ones), every line of them read so (hostile round 6, item
    5: ``<td rowspan="2">existing_path</td>`` then ``<tr><td>overwrite</td></tr>``)."""
    found = []
    lines = text.split("\n")
    at = 0
    name: tuple[str, int] | None = None
    rows_left = 0  # the rows a spanning name cell still covers
    blank = False
    for line in lines:
        token = line.strip(BARE_EDGES)
        if not token:
            blank = True
            at += len(line) + 1
            continue
        if blank:
            blank = False
            if rows_left > 0 and name is not None and not words.spelt_as(token.rstrip(":").strip(BARE_EDGES)):
                rows_left -= 1  # a row the name's cell spans: its cells are the name's
            else:
                name, rows_left = None, 0
        if name is None:
            bare = token.rstrip(":").strip(BARE_EDGES)
            if not any(ch.isspace() for ch in bare) and words.spelt_as(bare):
                name = (bare, at)
                rows_left = (spans or {}).get(bare, 1) - 1
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


#: A quoted or bare literal ending its line (a comment after it allowed), for :func:`code_forms`.
_LINE_LITERAL: Final = (
    r"(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[^\s\"'#;]+))[^\S\r\n]*(?:[#;][^\r\n]*)?$"
)
#: A YAML key with nothing after its colon (a comment allowed): what may open a block list.
_YAML_KEY: Final = re.compile(
    r"^(?P<indent>[^\S\r\n]*)(?:-[^\S\r\n]+)?[\"']?(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)[\"']?[^\S\r\n]*:"
    r"[^\S\r\n]*(?:#[^\r\n]*)?$"
)
#: A YAML block list's item of one literal: ``  - overwrite``.
_YAML_ITEM: Final = re.compile(rf"^(?P<indent>[^\S\r\n]*)-[^\S\r\n]+{_LINE_LITERAL}")
#: Tcl's and fish's ``set name value`` (flags such as ``-x``, ``-gx`` allowed), CMake's ``set(NAME value)``.
_SET: Final = re.compile(
    r"^[^\S\r\n]*(?:set(?:[^\S\r\n]+-[A-Za-z]+)*[^\S\r\n]+|set\([^\S\r\n]*)(?:::)?(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)"
    r"[^\S\r\n]+(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[^\s\"'#;)]+))",
    re.MULTILINE,
)
#: A map's bare key and ``=>`` then a bare atom, a symbol or a number (Erlang's ``#{existing_path => overwrite}``),
#: the key opening the map, after a comma or first on its line; a call (``overwrite(``, ``x.y``) is no value.
_ARROW_PAIR: Final = re.compile(
    r"(?:[{,]|^)[^\S\r\n]*(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)[^\S\r\n]*=>[^\S\r\n]*"
    r"(?P<dq>(?!))?(?P<sq>(?!))?(?P<bare>:?[a-z][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.\-+]*)(?![A-Za-z0-9_(.:])",
    re.MULTILINE,
)
#: An enum's constant or a value built from a literal, of a PascalCase type: ``ExistingPath.OVERWRITE``,
#: ``ExistingPath::Overwrite``, ``ExistingPath("overwrite")``, ``ExistingPath["OVERWRITE"]``,
#: ``ExistingPath.valueOf("OVERWRITE")``.
_BUILT: Final = re.compile(
    r"(?<![A-Za-z0-9_])(?P<type>[A-Z][a-z][A-Za-z0-9]*)(?:(?:\.|::)(?P<member>[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_(])"
    r"|(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)?[(\[][^\S\r\n]*(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)')[^\S\r\n]*[)\]])"
)


def _literal(match: re.Match[str]) -> str:
    """A match's ``dq``, ``sq`` or ``bare`` group, the first that took part."""
    groups = match.groupdict()
    return next(v for v in (groups["dq"], groups["sq"], groups.get("bare")) if v is not None)


def code_forms(words: FormWords, text: str) -> list[Statement]:
    """In code, statements written without ``=`` or a colon and its value (hostile round 6, item 6): a YAML block
    list under a name's key (``existing_path:`` then ``  - overwrite``: each item of one literal, up to the first
    other line), Tcl's and fish's ``set existing_path overwrite`` (``set -x QUILL_EXISTING_PATH ...``), CMake's
    ``set(...)``, a map's bare key and ``=>`` then a bare atom (``#{existing_path => overwrite}``; a capitalised
    word is an Erlang variable, no value), and an enum's constant or a value built from a literal, of a type
    spelt as a key (``ExistingPath.OVERWRITE``, ``ExistingPath::Overwrite``, ``ExistingPath("overwrite")``;
    a member in lower case, ``ExistingPath.values``, is an attribute; ``Version("2.0")`` is left to the
    comparisons, free text). Each value as read, compared as :func:`~.disguise.enum_member` reads it. Linear: each
    line is looked at once by each scan."""
    found: list[Statement] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    k = 0
    while k < len(lines):
        key = _YAML_KEY.match(lines[k])
        k += 1
        if key is None or not words.spelt_as(unprefixed(words, key.group("name"))):
            continue
        name = unprefixed(words, key.group("name"))
        while k < len(lines):
            item = _YAML_ITEM.match(lines[k])
            if item is not None and len(item.group("indent")) >= len(key.group("indent")):
                found.append(Statement(name, _literal(item), offsets[k] + item.start(), offsets[k] + item.end()))
            elif item is not None or lines[k].strip():
                break  # the list ends at its first other line (blank lines inside it allowed)
            k += 1
    for pattern in (_SET, _ARROW_PAIR):
        for match in pattern.finditer(text) if ("set" in text if pattern is _SET else "=>" in text) else ():
            name = unprefixed(words, match.group("name"))
            if words.spelt_as(name):
                found.append(Statement(name, _literal(match).rstrip(SEPARATORS), match.start("name"), match.end()))
    for match in _BUILT.finditer(text):
        named = words.spelt_as(match.group("type")) - {RESERVED_KEYS[0]}
        member = match.group("member")
        if not named or (member is not None and not (member[0].isupper() or member.lower() in words.values)):
            continue
        value = text[match.start() : match.end()] if member is not None else _literal(match)
        found.append(Statement(match.group("type"), value, match.start(), match.end()))
    return found
