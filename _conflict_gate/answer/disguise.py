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
from .reader import CODE_MARK

__all__ = ["calls", "go_pins", "pairs", "resolve_disguises"]

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
    r"[^\S\r\n]*\([^\S\r\n]*(?:\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[0-9][^\s,()]*))[^\S\r\n]*\)"
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
        if value is None:
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
