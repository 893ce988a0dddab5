"""Statements a chat window shows through a disguise the statement patterns do not read (no I/O).

:mod:`~_conflict_gate.answer.check` reads an answer's statements in a block's shown text as it stands and
with its inline markup taken out (:func:`~_conflict_gate.answer.forms.resolve_markup`). Some text a
chat window (or GitHub) shows as a statement is neither (hostile rounds 1 to 3):

* LaTeX math, which chat windows and github.com typeset: ``$\\mathrm{existing\\_path}=\\mathrm{overwrite}$``,
  ``$\\text{existing}\\_\\text{path}=\\text{overwrite}$``, a ```` ```math ```` block;
* Mermaid's entity codes, which GitHub decodes in a diagram's labels: ``existing_path#61;overwrite``;
* an arrow between a name and a value: `` `existing_path` → `overwrite` ``, ``version -> 2.0``,
  ``$\\text{version} \\to 2.0$``;
* a setter or builder call with one literal argument: ``opts.setExistingPath("overwrite")``,
  ``set_existing_path("overwrite")``, ``builder.withExistingPath("overwrite")``, ``.existingPath("overwrite")``;
* a quoted name and a literal side by side in a call or a list: ``Map.of("existingPath", "overwrite")``;
* a Go module line: ``require github.com/quill/quill v2.0.0``, ``go get github.com/quill/quill@v2.0.0``.

:func:`resolve_disguises` gives a block's shown text with the first three taken off (read by the same
statement patterns, fail closed: this can only find more statements); :func:`calls`, :func:`pairs`
and :func:`go_pins` find the last three. Each runs in linear time.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import Final

from ..manifest.form import RESERVED_KEYS
from .forms import SEPARATORS, FormWords, Statement
from .reader import CODE_MARK, AnswerBlock

__all__ = [
    "BARE_EDGES",
    "block_pairs",
    "calls",
    "cell_token",
    "cell_values",
    "column_values",
    "disguised_statements",
    "enum_member",
    "go_pins",
    "idioms",
    "mermaid_edges",
    "pairs",
    "resolve_disguises",
    "unprefixed",
]

#: LaTeX that typesets its argument as text, or a name's underscore, or spacing; Mermaid's entity
#: codes (``#61;``, ``#quot;``); arrows (Unicode, ``->`` between spaces or code edges, LaTeX's).
_LATEX_WRAPPER: Final = (
    r"\\(?:mathrm|mathtt|mathsf|mathit|mathbf|mathnormal|text|texttt|textrm|textsf|textit"
    r"|textbf|textnormal|textup|operatorname\*?|mbox|hbox|emph)[^\S\r\n]*\{"
)
_ARROW: Final = (
    r"[\u2192\u21d2\u21a6\u27f6\u27f9\u27fc\u2794\u279c\u27a1]"
    rf"|(?<=[\s`{CODE_MARK}])(?:-{{1,2}}>|<-)(?=[\s`{CODE_MARK}])"
)
_CODES: Final = r"#(?P<code>[0-9]{1,7});|#(?P<named>quot|apos|amp|lt|gt|equals|colon|num|nbsp);"
#: Outside LaTeX: arrows and entity codes only (a brace or a dollar of other code stays: taking it out
#: of JSON would open no object, ``"existing_path": {`` then reading as a value).
_DISGUISE: Final = re.compile(rf"(?P<arrow>{_ARROW})|{_CODES}")
#: In a block that holds LaTeX (a backslash before a letter or ``_``): its text wrappers, braces, dollars,
#: alignment marks (``&=``), environments, line breaks and escapes too, and its arrows and definitions (``\to``, ``\mapsto``, ``\coloneqq``).
_LATEX: Final = re.compile(
    rf"(?P<drop>{_LATEX_WRAPPER}|[{{}}$&]|\\(?=[_#&%$])|\\(?:begin|end)\{{[A-Za-z*]*\}}|\\\\)"
    r"|(?P<space>\\[,;:! ]|\\q?quad\b)"
    r"|(?P<arrow>\\(?:to|rightarrow|Rightarrow|mapsto|longrightarrow|Longrightarrow|longmapsto|coloneqq"
    rf"|equiv|gets|leftarrow)\b|{_ARROW})|{_CODES}"
)
_NAMED: Final = {
    "quot": '"',
    "apos": "'",
    "amp": "&",
    "lt": "<",
    "gt": ">",
    "equals": "=",
    "colon": ":",
    "num": "#",
    "nbsp": " ",
}
_LATEX_TRIGGER: Final = re.compile(r"\\[A-Za-z_]")
#: What makes a block worth the disguise reading: a backslash, an entity code or an arrow.
_TRIGGER: Final = re.compile(r"[\\\u2192\u21d2\u21a6\u27f6\u27f9\u27fc\u2794\u279c\u27a1]|->|<-|#[0-9a-z]+;")


def resolve_disguises(text: str) -> tuple[str, Callable[[int], int]] | None:
    """``text`` (a block's shown text) with LaTeX's text wrappers, braces, dollars and escaped
    underscores taken out, Mermaid's entity codes decoded and arrows read as ``=``, and a map from its
    offsets back to ``text``'s; ``None`` when ``text`` holds none of them. Fail closed: it can only make
    more text read as a statement (a ``{`` or ``$`` taken out of other code makes no statement agree
    that did not). Linear."""
    if _TRIGGER.search(text) is None:
        return None
    parts: list[str] = []
    starts: list[int] = []  # offset in the resolved text of each piece
    origins: list[int] = []  # its offset in text
    verbatim: list[bool] = []  # copied from text (else a replacement, all of it mapped to its origin)
    length = at = 0

    def put(piece: str, origin: int, copied: bool = False) -> None:
        nonlocal length
        if piece:
            starts.append(length)
            origins.append(origin)
            parts.append(piece)
            verbatim.append(copied)
            length += len(piece)

    pattern = _LATEX if _LATEX_TRIGGER.search(text) is not None else _DISGUISE
    for match in pattern.finditer(text):
        put(text[at : match.start()], at, True)
        groups = match.groupdict()
        if groups.get("space") is not None:
            put(" ", match.start())
        elif match.group("arrow") is not None:
            put(" = ", match.start())
        elif match.group("code") is not None:
            code = int(match.group("code"))
            put(chr(code) if 32 <= code < 127 else match.group(), match.start())
        elif match.group("named") is not None:
            put(_NAMED[match.group("named")], match.start())
        at = match.end()
    if at == 0:  # the trigger matched nothing to take off (an arrow not between spaces: a->b)
        return None
    put(text[at:], at, True)

    def where(i: int) -> int:
        k = bisect.bisect_right(starts, i) - 1
        if k < 0:
            return 0
        return origins[k] + i - starts[k] if verbatim[k] else origins[k]

    return "".join(parts), where


#: A setter or builder call with one literal argument: ``.setExistingPath("v")``, ``set_existing_path("v")``,
#: ``withExistingPath("v")``, ``.existingPath("v")``; the value quoted or starting with a digit.
_CALL: Final = re.compile(
    r"(?:(?<=\.)|(?<![A-Za-z0-9_.\-]))(?P<prefix>(?:set|with|Set|With)_?)?(?P<name>[A-Za-z][A-Za-z0-9_]*)"
    r"[^\S\r\n]*\([^\S\r\n]*(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[0-9][^\s,()]*)"
    r"|(?P<enum>[.:]?[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*))[^\S\r\n]*\)"
)


def calls(words: FormWords, text: str) -> Iterator[Statement]:
    """Each setter or builder call in ``text`` (:data:`_CALL`) whose name (after ``set``/``with`` and an
    optional ``_``, or after a ``.``) is a name's spelling (:meth:`FormWords.spelt_as`): a statement of
    its argument. A call without ``set``/``with`` counts only after a ``.`` (a method of a builder), so
    ``version("2.0")`` alone, a function of the answer's own, is not one."""
    if "(" not in text:
        return
    for match in _CALL.finditer(text):
        name = match.group("name")
        if match.group("prefix") is None and text[match.start() - 1 : match.start()] != ".":
            continue
        if not words.spelt_as(name):
            continue
        value = match.group("dq") if match.group("dq") is not None else match.group("sq")
        if match.group("enum") is not None:
            value = match.group("enum")
            if enum_member(words, name, value) == value:
                continue  # a name of the answer's own (a variable), not a constant of the name's enum
        elif value is None:
            value = match.group("bare").rstrip(SEPARATORS)
        yield Statement(name, value, match.start("name"), match.end())


def go_pins(words: FormWords, text: str) -> Iterator[Statement]:
    """Each Go module line of the product in ``text``: a module path ending in its namespace or its
    name (any case, an optional major version suffix ``/v2``), then a version after spaces or ``@``
    (``require github.com/quill/quill v2.0.0``, ``go get github.com/quill/quill@v2.0.0``): a statement
    of ``version``, its version without Go's ``v``, compared exactly as a pin's (``v1.0`` states ``1.0``;
    ``v1.0.0`` is not ``1.0``: fail closed)."""
    grammar = words.grammar
    lowered = text.lower()
    names = {grammar.namespace.lower(), grammar.product.lower()}
    if "/" not in text or not any(name in lowered for name in names):
        return
    pattern = re.compile(
        rf"(?<![A-Za-z0-9_.\-/])(?:[A-Za-z0-9_.\-~]+/)+(?i:{'|'.join(map(re.escape, sorted(names)))})"
        rf"(?:/v[0-9]+)?(?:[^\S\r\n]+|@)(?P<version>v[0-9][^\s'\"`(){CODE_MARK}]*)"
    )
    for match in pattern.finditer(text):
        value = match.group("version").rstrip(SEPARATORS)
        if len(value) > 1:  # Go writes every version with a v: v1.0 states 1.0
            yield Statement(RESERVED_KEYS[0], value[1:], match.start(), match.start("version") + len(value))


#: A quoted name then a literal as the next item of a call's arguments or a list: ``("existing_path",
#: "overwrite")``, ``Map.of("existingPath", "overwrite")``, ``props.put(...)``, ``config.set("quill",
#: "existing_path", "overwrite")``, ``os.environ.setdefault("QUILL_EXISTING_PATH", "overwrite")``.
_PAIR: Final = re.compile(
    r"(?<=[(\[{,])[^\S\r\n]*[\"'](?P<name>[A-Za-z][A-Za-z0-9_\-]*)[\"'](?=[^\S\r\n]*,[^\S\r\n]*"
    r"(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[0-9][^\s,()\]}]*))(?P<end>)[^\S\r\n]*[,)\]}])"
)


def pairs(words: FormWords, text: str) -> Iterator[Statement]:
    """Each quoted name followed, as the next item of a call's arguments or of a list, by a quoted
    literal or a number (:data:`_PAIR`), the name a name's spelling (:meth:`FormWords.spelt_as`) or
    that with the namespace's or product's upper-case prefix (``QUILL_EXISTING_PATH``): a statement of
    that literal (a key and its value, as ``setattr``'s). An argv list's flag (``"--existing-path"``)
    is read by the flag pattern; a value that is a name (``getattr(o, "existing_path", None)``) is none."""
    if "," not in text or ("'" not in text and '"' not in text):
        return
    grammar = words.grammar
    prefixes = {grammar.namespace.upper() + "_", re.sub(r"[^A-Za-z0-9]", "_", grammar.product).upper() + "_"}
    for match in _PAIR.finditer(text):
        name = match.group("name")
        for prefix in prefixes:
            if name.startswith(prefix) and words.spelt_as(name[len(prefix) :]):
                name = name[len(prefix) :]
        if not words.spelt_as(name):
            continue
        value = match.group("dq") if match.group("dq") is not None else match.group("sq")
        if value is None:
            value = match.group("bare").rstrip(SEPARATORS)
        yield Statement(name, value, match.start("name") - 1, match.end("end"))


def unprefixed(words: FormWords, name: str) -> str:
    """``name`` without the namespace's or product's upper-case or lower-case prefix (``QUILL_EXISTING_PATH``,
    ``quill_version``: hostile round 6) when what is left is a name's spelling, else ``name``."""
    grammar = words.grammar
    for word in (grammar.namespace, re.sub(r"[^A-Za-z0-9]", "_", grammar.product)):
        for prefix in (word.upper() + "_", word.lower() + "_"):
            if name.startswith(prefix) and words.spelt_as(name[len(prefix) :]):
                return name[len(prefix) :]
    return name


_LITERAL_VALUE: Final = r"(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[A-Za-z0-9:.][^\s\"'<>,;)\]}|]*))"
_NAME: Final = r"(?P<name>[A-Za-z_][A-Za-z0-9_\-]*)"
#: Statements with neither ``=`` nor a colon form that code makes (hostile round 4), each a name then a value:
#: a Dockerfile's ``ENV NAME value``; a line of a name and one value (``.properties``, nginx:
#: ``existing_path overwrite``); a Clojure keyword and its value (``:existing-path "overwrite"``); an XML
#: element or attribute pair (``<entry key="existingPath">overwrite</entry>``, ``<option name="existing_path"
#: value="overwrite"/>``, an element over lines, Hadoop's ``<name>existing_path</name><value>overwrite``); a
#: Kubernetes env entry (``- name: QUILL_EXISTING_PATH``, then ``value: overwrite``, or as JSON); a Mermaid edge
#: from a name's node to a value's (``A[existing_path] --> B[overwrite]``). Each is bounded on its line or tag:
#: linear.
_IDIOMS: Final = (
    re.compile(rf"^[^\S\r\n]*ENV[^\S\r\n]+{_NAME}[^\S\r\n]+{_LITERAL_VALUE}", re.MULTILINE),
    re.compile(
        rf"^[^\S\r\n]*(?:[A-Za-z0-9_\-]+\.)*{_NAME}[^\S\r\n]+{_LITERAL_VALUE}[^\S\r\n]*;?[^\S\r\n]*(?:#[^\r\n]*)?$",
        re.MULTILINE,
    ),
    re.compile(
        rf"(?<![A-Za-z0-9_:\"'\])])::?{_NAME}\s+(?!:?[A-Za-z_][A-Za-z0-9_\-]*[^\S\r\n]+[\"':0-9])"
        rf"{_LITERAL_VALUE}"
    ),
    re.compile(
        r"<(?P<tag>[A-Za-z][\w.\-:]*)>\s*(?:<!\[CDATA\[)?(?P<dq>(?!))?(?P<sq>(?!))?(?P<bare>[^<\s\]]+)(?:\]\]>)?\s*</(?P=tag)>"
    ),
    re.compile(
        rf"<(?P<tag>[A-Za-z][\w.\-:]*)[^<>]{{0,400}}?\b(?:name|key|id|property|param)\s*=\s*[\"']{_NAME}[\"']"
        rf"(?:[^<>]{{0,400}}?\bvalue\s*=\s*{_LITERAL_VALUE}|[^<>]{{0,400}}?(?<!/)>\s*(?P<text>[^<\s]+)\s*</(?P=tag)>)"
    ),
    re.compile(
        rf"<[A-Za-z][\w.\-:]*[^<>]{{0,400}}?\bvalue\s*=\s*{_LITERAL_VALUE}[^<>]{{0,400}}?"
        rf"\b(?:name|key|id|property|param)\s*=\s*[\"'](?P<after>[A-Za-z_][A-Za-z0-9_\-]*)[\"']"
    ),
    re.compile(rf"<(?:name|key)>\s*{_NAME}\s*</(?:name|key)>\s*<value>\s*(?P<dq>(?!))?(?P<sq>(?!))?(?P<bare>[^<\s]+)"),
    re.compile(
        rf"\bname[\"']?[^\S\r\n]*:[^\S\r\n]*[\"']?{_NAME}[\"']?[^\S\r\n]*(?:,[^\S\r\n]*|\r?\n[^\S\r\n]*(?:-[^\S\r\n]+)?)"
        rf"[\"']?value[\"']?[^\S\r\n]*:[^\S\r\n]*{_LITERAL_VALUE}"
    ),
)
#: A line form's value that names a type: PascalCase (``ExistingPathMode``) or qualified (``semver.Version``).
_TYPE_LIKE: Final = re.compile(r"[A-Z][a-z]|[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_]")


#: A name, a colon and one value token up to the line's end, in prose (a list item, a bold label, a definition
#: list's ``existing_path`` then ``: overwrite``): a reader sees a setting, as ``**existing_path**: overwrite``.
def _label(separator: str) -> re.Pattern[str]:
    """A label's pattern, its name and value apart by ``separator``."""
    return re.compile(
        rf"^[^\S\r\n]*(?:\?[^\S\r\n]+)?[*_~`{CODE_MARK}]*(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)*)"
        rf"[*_~`{CODE_MARK}]*[^\S\r\n]*(?:\r?\n[^\S\r\n]*)?{separator}[*_~`{CODE_MARK}]*[^\S\r\n]*[*_~`{CODE_MARK}]*"
        rf"(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[A-Za-z0-9:.][^\s\"'<>,;)\]}}|=*~`{CODE_MARK}]*))"
        rf"[*~`{CODE_MARK}]*[,;]?[^\S\r\n]*$",
        re.MULTILINE,
    )


_LABEL: Final = _label(":")
#: In prose, a dash between spaces too (``- *existing_path* — overwrite``), and a fullwidth colon (CJK prose:
#: ``**existing_path**`` U+FF1A ``overwrite``).
_LABEL_DASH: Final = _label(r"(?:(?<=[^\S\r\n])(?:\u2014|\u2013|--?)(?=[^\S\r\n])|[\uff1a\ufe55])")

#: A label whose value is followed by more words (``**existing_path**: overwrite (since 2.0)``): its first token
#: counts when it is a value of the grammar.
_LABEL_HEAD: Final = re.compile(
    rf"^[^\S\r\n]*[*_~`{CODE_MARK}]*(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)*)[*_~`{CODE_MARK}]*"
    rf"[^\S\r\n]*:[*_~`{CODE_MARK}]*[^\S\r\n]*[*_~`{CODE_MARK}\"']*(?P<dq>(?!))?(?P<sq>(?!))?(?P<bare>[A-Za-z0-9][A-Za-z0-9_.\-]*)",
    re.MULTILINE,
)
#: A comma-separated line of a name and one value (CSV): ``existing_path,overwrite``.
_CSV: Final = re.compile(
    rf"^[^\S\r\n]*[\"']?{_NAME}[\"']?[^\S\r\n]*,[^\S\r\n]*(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'"
    rf"|(?P<bare>[A-Za-z0-9.][^\s,\"']*))[^\S\r\n]*$",
    re.MULTILINE,
)
#: In an HTML block's shown text (block elements on lines of their own): a line of only a name, then a line of
#: only one value (a definition list's term and description, a table's or a list's two cells).
_LINES: Final = re.compile(
    rf"^[^\S\r\n]*[*_~`{CODE_MARK}]*(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)*)[*_~`{CODE_MARK}:]*"
    rf"[^\S\r\n]*\n(?:[^\S\r\n]*\n)*[^\S\r\n]*[*_~`{CODE_MARK}]*(?P<dq>(?!))?(?P<sq>(?!))?"
    rf"(?P<bare>[A-Za-z0-9.][^\s\"'<>,;)\]}}|=*~`{CODE_MARK}]*)[*~`{CODE_MARK}]*[^\S\r\n]*$",
    re.MULTILINE,
)


def idioms(words: FormWords, text: str, kind: str) -> Iterator[Statement]:
    """The statements of :data:`_IDIOMS` in ``text`` when it is code (``kind``: its block's), of :data:`_LINES`
    in an HTML block (``<dt>existing_path</dt><dd>overwrite</dd>``), and of :data:`_LABEL` in any text:
    each whose name is a name's spelling (after the namespace's or product's prefix), its value unquoted,
    separators at its end dropped."""
    code = kind in ("fenced_code", "indented_code")
    labels = (_LABEL, _LABEL_HEAD)
    prose = (*labels, _LABEL_DASH, _LINES) if kind == "html_block" else (*labels, _LABEL_DASH)
    for pattern in (*_IDIOMS, _CSV, *labels) if code else prose:
        for match in pattern.finditer(text):
            groups = match.groupdict()
            name = groups.get("after") or groups.get("name") or groups["tag"]
            name = unprefixed(words, name)
            if not words.spelt_as(name):
                continue
            value = groups.get("text") or (groups["dq"] if groups["dq"] is not None else groups["sq"])
            if value is None:
                value = (groups["bare"] or "").rstrip(SEPARATORS)
            if (
                pattern is _IDIOMS[1]
                and groups["bare"] is not None
                and (words.spelt_as(value) or _TYPE_LIKE.match(value))
            ):
                continue  # a declaration (Java's ExistingPath existingPath;, Go's Version semver.Version): no value
            if pattern is _LABEL_HEAD and not (
                value in words.values or (value[0].isdigit() and RESERVED_KEYS[0] in words.spelt_as(name))
            ):
                continue  # more words after a value of no grammar's: free text (Note: the copy raises)
            if value and value not in words.type_names:
                start = match.start()
                while text[start] in " \t":
                    start += 1  # a line's indentation is not the statement's
                if pattern is _LABEL_DASH:
                    start = match.start("bare") if groups["bare"] is not None else start  # the dash is no form's
                symbol = value[:1] == ":" and value[1:2].isalpha()  # a Clojure keyword: its name
                yield Statement(name, value[1:] if symbol else value, start, match.end())


#: A literal in another spelling: a Python string prefix before a quote (``r"refuse`` as read, its closing quote
#: dropped), quotes left around it (TOML's ``'''refuse'''``), a shell parameter's default
#: (``${QUILL_EXISTING_PATH:-refuse}``).
_LITERAL_SPELLING: Final = re.compile(
    r"(?:[rRuUbBfF]{1,2})?[\"']+([^\"'\[\]]*)[\"'\]]*|\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^{}]*)\}"
)
#: An enum constant: ``ExistingPath.REFUSE``, ``quill.ExistingPath.Refuse``, ``ExistingPath::Refuse``, Go's
#: ``quill.ExistingPathRefuse``, Swift's ``.refuse``, a Ruby or Clojure symbol ``:refuse``.
_ENUM: Final = re.compile(
    r"(?:(?:[A-Za-z_][A-Za-z0-9_]*(?:\.|::))*(?P<type>[A-Za-z_][A-Za-z0-9_]*)(?:\.|::)|[.:])?"
    r"(?P<member>[A-Za-z_][A-Za-z0-9_]*)"
)


def enum_member(words: FormWords, name: str, value: str) -> str:
    """``value`` read as a constant of ``name``'s enum, when it is one: the member of a type spelt as the
    name (``ExistingPath.REFUSE``, ``ExistingPath::Refuse``), a Go constant of the name's words and the
    member (``quill.ExistingPathRefuse``), Swift's ``.refuse``, a symbol ``:refuse``; the member as the
    grammar spells it when it is one of its values in some case (``REFUSE`` is ``refuse``), else the
    member. Any other value is returned as it is (compared exactly). Fail closed: a constant of the name's
    type with another member states that member."""
    literal = _LITERAL_SPELLING.fullmatch(value)
    if literal is not None:  # r"refuse", ${QUILL_EXISTING_PATH:-refuse}: the literal they hold
        value = next(group for group in literal.groups() if group is not None)
    if value.isupper() and value.lower() in words.values:
        return value.lower()  # a SCREAMING enum member (GraphQL's REFUSE) of the grammar's value
    match = _ENUM.fullmatch(value)
    if match is None:
        return value
    named = words.spelt_as(name)
    member, kind = match.group("member"), match.group("type")
    if not ((kind is not None and words.spelt_as(kind) & named) or (kind is None and value[:1] in ".:")):
        lowered = member.lower()
        for prefix in (words.grammar.namespace.lower() + "_", words.grammar.product.lower() + "_"):
            if lowered.startswith(prefix) and any(lowered.startswith(prefix + j) for n in named for j in _joined(n)):
                lowered, member = lowered[len(prefix) :], member[len(prefix) :]  # C's QUILL_EXISTING_PATH_REFUSE
                break
        head = next((s for n in named for s in _joined(n) if lowered.startswith(s) and len(lowered) > len(s)), None)
        if head is None:
            return value  # not a constant of the name's enum: compared as written
        member = member[len(head) :]
    folded = member.lower().replace("_", "")
    for form in words.values:
        if form.lower().replace("_", "").replace("-", "") == folded:
            return form
    return member


def _joined(name: str) -> tuple[str, ...]:
    """``name``'s words joined by nothing and by ``_``, lower case (a Go constant's or a SCREAMING one's head)."""
    parts = re.split(r"[_-]", name.lower())
    return ("".join(parts), "_".join(parts) + "_")


#: What surrounds a table cell's name or value without being part of it: spaces, code edges, emphasis.
_CELL_EDGES: Final = f" \t{CODE_MARK}`*_"


def cell_token(text: str, start: int, end: int) -> tuple[str, int]:
    """A table cell's content without the spaces, code edges and emphasis around it, and its offset."""
    cell = text[start:end]
    stripped = cell.lstrip(_CELL_EDGES)
    at = start + len(cell) - len(stripped)
    return stripped.rstrip(_CELL_EDGES), at


def cell_values(words: FormWords, cell: str) -> list[tuple[str, int]]:
    """Each value of the grammar (:attr:`FormWords.values`) as a whole word in a table's value cell of several
    words (``| existing_path | `refuse` (1.0), `overwrite` (2.0) |``), with its end offset in ``cell``: a
    reader sees each as a value of the row's name (fail closed: a comparison states every value in it)."""
    if not words.values:
        return []
    pattern = rf"(?<![A-Za-z0-9_\-])(?:{'|'.join(map(re.escape, sorted(words.values, key=len, reverse=True)))})(?![A-Za-z0-9_\-])"
    return [(m.group(), m.end()) for m in re.finditer(pattern, cell)]


def disguised_statements(words: FormWords, text: str, kind: str) -> list[Statement]:
    """The statements of :func:`calls`, :func:`pairs`, :func:`go_pins` and :func:`idioms` in ``text`` (a block's
    shown text; ``kind``: the block's)."""
    found = [*calls(words, text), *pairs(words, text), *go_pins(words, text), *idioms(words, text, kind)]
    return found + mermaid_edges(words, text) if kind in ("fenced_code", "indented_code") else found


def column_values(words: FormWords, text: str, cells: list[tuple[int, int]], lines: list[int]) -> list[Statement]:
    """A table's header cell that is a name, and each cell below it in its column holding one value token (a
    version column, ``| Version | Notes |`` then ``| 2.0 | ... |``): a reader sees each as a value of the name
    (fail closed); a cell of several words below it, and any cell below a header of several words naming one
    (``| `existing_path` default |``), states each value of the grammar in it (hostile round 6). ``cells`` are
    ``[start, end)`` in ``text``, ``lines`` their rows (-1 for a cell of no known row)."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for cell, line in zip(cells, lines):
        if line >= 0:
            rows.setdefault(line, []).append(cell)
    ordered = [rows[line] for line in sorted(rows)]
    if len(ordered) < 2:
        return []
    found = []
    for column, (a, b) in enumerate(ordered[0]):
        name = cell_token(text, a, b)[0]
        if not name:
            continue
        if not words.spelt_as(name):
            # a header of several words naming one (| `existing_path` default |): the grammar's values below
            named = [w for w in name.split() if words.spelt_as(w.strip(_CELL_EDGES + "\"'"))]
            if not named:
                continue
            name = named[0].strip(_CELL_EDGES + "\"'")
            words_only = True
        else:
            words_only = False
        for row in ordered[1:]:
            if column < len(row):
                value, value_at = cell_token(text, *row[column])
                if not value or value in words.type_names:
                    continue
                if words_only or any(ch.isspace() for ch in value):  # each value of the grammar in the cell
                    found += [
                        Statement(name, v, value_at + e - len(v), value_at + e) for v, e in cell_values(words, value)
                    ]
                    continue
                value = value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" else value
                found.append(Statement(name, value, value_at, value_at + len(value)))
    return found


#: What surrounds a bare name or value in a shown line: spaces, code marks and emphasis marks.
BARE_EDGES: Final = f" \t\r\n{CODE_MARK}`*_~"


#: A list item's name before its nested items (:func:`block_pairs`): the name, where its paragraph starts, and the
#: column of its first nested item's paragraph.
ListName = tuple[str, int, int]


def block_pairs(
    words: FormWords, text: str, previous: AnswerBlock | None, block: AnswerBlock, anchor: ListName | None
) -> tuple[list[Statement], ListName | None]:
    """A paragraph that is only a name (a colon after it allowed), then on the next lines paragraphs of its nested
    items (a nested list: ``- `existing_path``` then ``  - `overwrite```): a reader sees the name set to each
    item's value (a name then words and a colon, ``- `existing_path` (when dst exists):``, is the name's too).
    An item of one token is that value; an item of several words states each value of the grammar
    in it as a whole word (``  - `refuse` (1.0)`` then ``  - `overwrite` (2.0)``: fail closed, as a table's cell).
    ``anchor`` is the name in force after the previous block (``None`` at first); the items under it are
    contiguous paragraphs starting at its first item's column or further right. Returns the statements (offsets
    the answer's, ``text``; each spans the name's paragraph to the item's) and the name in force. Hostile round
    6: only the first nested item was read, and not under a name with a colon (``* existing_path:``)."""
    if previous is None or previous.kind != "paragraph" or block.kind != "paragraph":
        return [], None
    if text[previous.end : block.start].count("\n") > 1:
        return [], None  # a blank line between: two paragraphs, not an item and its nested one
    column = block.start - (text.rfind("\n", 0, block.start) + 1)
    if anchor is not None and column < anchor[2]:
        anchor = None
    if anchor is None:
        head = previous.shown.text.strip(BARE_EDGES)
        name = head.rstrip(":").strip(BARE_EDGES)
        if head.endswith(":") and any(ch.isspace() for ch in name):  # `existing_path` (when dst exists):
            name = name.split()[0].strip(BARE_EDGES)
        if not name or any(ch.isspace() for ch in name) or not words.spelt_as(name):
            return [], None
        anchor = (name, previous.start, column)
    name = anchor[0]
    start = anchor[1] if column == anchor[2] and previous.start == anchor[1] else block.start
    value = block.shown.text.strip(BARE_EDGES)
    if not value:
        return [], anchor
    if any(ch.isspace() for ch in value):
        return [Statement(name, v, start, block.end) for v, _ in cell_values(words, value)], anchor
    if words.spelt_as(value.rstrip(":").strip(BARE_EDGES)):
        return [], None  # another name's item: a list of names, not a value
    value = value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" else value
    return [Statement(name, value.rstrip(SEPARATORS) or value, start, block.end)], anchor


#: A Mermaid node's definition, ``A[label]``, ``B("label")``, ``C{label}``, ``D((label))``; and an edge between two
#: node ids, any arrow or label on it (``A --> B``, ``A -- "=" --> B``, ``A -->|set| B``), the target in a lookahead
#: so that a chain (``A --> B --> C``) gives each edge.
_NODE: Final = re.compile(
    r"(?<![A-Za-z0-9_])(?P<id>[A-Za-z0-9_]+)[^\S\r\n]*(?:\[\[|\[\(|\(\(|\(\[|\{\{|[\[({>])[^\S\r\n]*[\"']?"
    r"(?P<label>[^\])}\"'\r\n]*)[\"']?[^\S\r\n]*[\])}]"
)
_EDGE: Final = re.compile(
    r"(?<![A-Za-z0-9_])(?P<a>[A-Za-z0-9_]+)(?:[^\S\r\n]*[\[({>][^\r\n\])}]{0,200}[\])}]+)?[^\S\r\n]*"
    r"(?:(?:--|==|-\.)[^\r\n>]{0,80}?)?(?:-->|==>|\.->|---)(?:\|[^|\r\n]{0,80}\|)?[^\S\r\n]*"
    r"(?=(?P<b>[A-Za-z0-9_]+))"
)


def mermaid_edges(words: FormWords, text: str) -> list[Statement]:
    """Each Mermaid edge (:data:`_EDGE`) from a node whose label (:data:`_NODE`, given anywhere in ``text``) is
    a name's spelling to a node whose label is one value token: a reader of the diagram sees the name set to
    that value, however the nodes' labels are spread over the lines (``A --> B`` then ``B[overwrite]``)."""
    if "-->" not in text and "---" not in text and "==>" not in text and ".->" not in text:
        return []
    labels: dict[str, str] = {}
    for match in _NODE.finditer(text):
        labels.setdefault(match.group("id"), match.group("label").strip())
    found = []
    for match in _EDGE.finditer(text):
        name, value = labels.get(match.group("a"), ""), labels.get(match.group("b"), "")
        if name and value and not any(ch.isspace() for ch in value) and words.spelt_as(name):
            found.append(Statement(name, value.rstrip(SEPARATORS) or value, match.start(), match.end("b")))
    return found
