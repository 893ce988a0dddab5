"""Form-like text in an answer, and whether a terminal and a chat window read it alike (no I/O).

The answer check (:mod:`~_conflict_gate.answer.check`) judges what an answer states
against the decision. Before that, the text that *looks like* the answer form
must read the same in the two ways an answer is shown: raw (a terminal) and
rendered (a chat window, :mod:`~_conflict_gate.answer.reader`). This module
says what form-like text is for one decision (:class:`FormWords`) and finds
where the two readings part (:func:`reading_findings`), each a finding that
calls for ``malformed_answer``:

* ``hidden_form``: form-like text one reading shows and the other does not
  (a comment, a tag's attribute, a link destination or title, a link
  definition, a fence's info string, an image's description, a table cell
  past the header's count, or anywhere outside the blocks a reader sees);
* ``escaped_form``: form-like text the two readings spell differently
  (character references, backslash escapes);
* ``unclear_markup``: form-like text in a block whose reading is in doubt
  (readers differ on it, raw HTML left open before it, raw HTML a browser
  ends elsewhere), in a code span a terminal's reader pairs otherwise (the
  next backtick run of the same length on the line, escapes ignored), a
  citation that renders as a link or is a link's text, or follows raw HTML in
  its block that hides its content or may (a ``hidden`` or ``style``
  attribute, an element of :data:`~_conflict_gate.answer.html.HIDING_ELEMENTS`);
* ``look_alike``: a run that reads as a form with non-ASCII characters
  (:mod:`~_conflict_gate.reading.lookalike`), or a ``name=`` whose ASCII name reads as a
  statement name without being it (:func:`near_name`: ``existlng_path``, ``verslon``);
* ``broken_form``: a citation begun and not completed, bracketed text that
  looks like a citation, a backtick left open before form-like text.

*Form-like text* (a token) is a citation's opening (``[source`` and what
follows up to ``]``), a statement (:meth:`FormWords.statements`) of the claim
key, another key of its operation or ``version`` (or a language form of one,
:func:`~_conflict_gate.manifest.form.language_forms`, read through a code span's edge),
and the namespace's directive shape (``@quill``). The statements only code
makes (``name: value``, ``--name value``, :meth:`FormWords.code_statements`)
are judged by :mod:`~_conflict_gate.answer.check` in code only.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple

from ..manifest.form import ANSWER_FORM, RESERVED_KEYS, language_forms
from ..manifest.grammar import Grammar
from ..reading.lookalike import CONFUSABLES, RUN_BREAKS, LookAlikes
from .reader import CODE_MARK

__all__ = ["BLANK", "NEAR_MIN_LENGTH", "SEPARATORS", "FormWords", "Statement", "near_name", "resolve_markup"]

#: What a quote's content is replaced with before statements are read around it: a lone surrogate,
#: which no answer holds, and which no statement, directive or value takes.
BLANK: Final = "\udffe"

_CITATION: Final = ANSWER_FORM.citation_pattern()
_CITATION_START: Final = ANSWER_FORM.citation_start()
#: Form-like citation text: ``[source`` (any case, spaces inside the bracket) up to ``]`` on its line.
_CITATION_TOKEN: Final = re.compile(r"\[[ \t]*source\b[^\]\n]*\]?", re.IGNORECASE)
#: Bracketed text on one line, ASCII or fullwidth brackets (look-alike citations are looked for there).
_BRACKETED: Final = re.compile(r"[\[\uff3b][^\[\]\uff3b\uff3d\r\n]*[\]\uff3d]")
#: After NFKC and case folding, a bracket that ends like a citation (``...:<digits>]``) or names a source.
_CITATION_LIKE: Final = re.compile(r"^\[\s*s\W*o\W*u\W*r\W*c\W*e|:\s*[0-9]+\s*\]$")
_BREAKS: Final = "".join(sorted(RUN_BREAKS))
#: What ends a statement's unquoted value: whitespace, ``, ; ) ] " '``, markup (backticks, ``* ~ | < > & [``),
#: a code span's edge, and typographic punctuation.
_VALUE: Final = rf"[^\s,;)\]\"'`*~|<>&\[{CODE_MARK}{BLANK}{_BREAKS}]+"
#: A statement's unquoted value as read: everything up to whitespace or a code span's edge (a backtick
#: left in the shown text is text); in the raw text up to a backtick, and up to raw HTML (``<`` before a letter, ``/``, ``!`` or ``?``: in the shown text
#: the reader has taken raw HTML out, and what is left of a ``<`` is text).
#: Separators and markup (:data:`SEPARATORS`) end the value only where nothing but more of them
#: follows up to there; text glued after one is part of the value (``refuse|overwrite``, ``1.0;2.0``).
_VALUE_RUN: Final = rf"[^\s{CODE_MARK}{BLANK}]+"
_RAW_VALUE_RUN: Final = rf"(?:[^\s`<{CODE_MARK}{BLANK}]|<(?![A-Za-z/!?]))+"
#: What may follow a value without being part of it (when only such characters follow up to the run's
#: end): ``, ; ) ] " '``, markup ``* ~ | < > & [ _``, sentence punctuation and typographic punctuation.
SEPARATORS: Final = ",;)]}\"'*~|<>&[_.:!?`" + _BREAKS
_GLUED_RUN: Final = re.compile(_VALUE_RUN)
_MARK_RUN: Final = re.compile(f"{CODE_MARK}+")
_RAW_GLUED_RUN: Final = re.compile(_RAW_VALUE_RUN)
#: What may open a value without being part of it: emphasis and a link's bracket (``**overwrite**``).
#: Not a tilde: a value shown struck out (``existing_path= ~~refuse~~ overwrite``) is not the value.
_OPENERS: Final = "*_["
_SPACES: Final = r"[^\S\r\n]*"
#: Spaces around a statement's ``=``: one line break among them too (a chat window shows a soft line
#: break in a paragraph as a space: ``existing_path=`` at a line's end, ``overwrite`` on the next).
_GAP: Final = rf"{_SPACES}(?:\r?\n{_SPACES})?"
#: A code span's edge in shown text: its code marks (``existing_path`` in `existing_path`=overwrite), and
#: backticks a code span shows as text (`existing_path``=``overwrite` is one span a terminal reads as three).
_MARKS: Final = f"[{CODE_MARK}`]*"
#: The spaces around a statement's ``=`` in shown text, code marks and backticks among them
#: (`existing_path` = `overwrite`).
_CODE_GAP: Final = rf"(?:[^\S\r\n]|[{CODE_MARK}`])*(?:\r?\n(?:[^\S\r\n]|[{CODE_MARK}`])*)?"
#: The same on one line: the gaps of the statements only code makes (`existing_path`: `overwrite`,
#: `--existing-path` `overwrite`), which a chat window shows as one statement.
_LINE_CODE_GAP: Final = rf"(?:[^\S\r\n]|[{CODE_MARK}`])*"
#: Between a colon form's name and its operator: a closing quote (and bracket: a computed key,
#: ``["existingPath"]: v``), a TypeScript ``?``, spaces and code edges.
_COLON_LEAD: Final = rf"(?:[^\S\r\n]|[{CODE_MARK}`\"'?\]])*"
#: A logical assignment's operator before a statement's ``=``: ``o.existingPath ??= "overwrite"``, ``||=``.
_ASSIGN: Final = r"(?:\?\?|\|\|)?"
#: A code span's or a code element's edge in raw text: backticks, ``<code>``, ``</kbd>``, ... (the inline
#: elements whose content a chat window shows as code).
_RAW_EDGE: Final = r"(?:`|</?(?i:code|kbd|samp|tt|pre)[^\S\r\n]*>)"  # one backtick: `+ under * backtracks exponentially
_RAW_EDGES: Final = f"{_RAW_EDGE}*"
_RAW_GAP: Final = rf"(?:[^\S\r\n]|{_RAW_EDGE})*(?:\r?\n(?:[^\S\r\n]|{_RAW_EDGE})*)?"
_ATOMIC_NAMES: Final = itertools.count()


def _atomic(pattern: str) -> str:
    """``pattern`` matched once, greedily, never given back (an atomic group, written so that Python 3.10
    reads it: a lookahead's capture, then a reference to it). Two runs of the same characters side by side
    (a code edge's marks, then the spaces and marks of a gap) then match in linear time, not quadratic or
    worse when what follows fails."""
    name = f"atomic{next(_ATOMIC_NAMES)}"
    return f"(?=(?P<{name}>{pattern}))(?P={name})"


_IDENTIFIER: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A type's arguments in brackets on its line (``Literal["refuse", "overwrite"]``), and a quoted literal among them.
_TYPE_ARGUMENTS: Final = re.compile(r"\[([^\]\r\n]*)\]")
_LITERAL: Final = re.compile(r"\"([^\"\r\n]*)\"|'([^'\r\n]*)'")
#: A class no character is in (a flag's name follows ``--``: nothing is looked for before it).
_NEVER: Final = r"[^\s\S]"
#: Type names of Python and TypeScript: as a colon form's unquoted value (``existing_path: str``), an
#: annotation, not a value (unless the grammar has a value of that name).
_TYPE_NAMES: Final = frozenset(
    {
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "object",
        "string",
        "number",
        "boolean",
        "any",
        "unknown",
        "Any",
        "Optional",
        "Literal",
        "Union",
        "Path",
        "PathLike",
        "enum",  # an options table's type column (| existing_path | enum | refuse |), hostile round 6
    }
)
#: A decorator or a handle in a code span (``@quill.task``, ``@retry(times=3)``, ``@docs-team``): not a quote.
_DECORATOR: Final = re.compile(r"@[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_][A-Za-z0-9_\-]*)*(?:\(.*\))?", re.DOTALL)
#: What the value of a statement is read with: sentence punctuation and emphasis after it do not count.
_TRAILING: Final = ".:!?_*~"
_BACKTICK_RUN: Final = re.compile(r"`+")
#: What a name may not follow to be a whole word (a statement's name; an underscore is an emphasis
#: run's part there, judged apart; a ``.`` may come before it: ``opts.existing_path = v`` assigns the
#: attribute), and a directive body's operation.
_NAME_CHARS: Final = r"[A-Za-z0-9\-]"
_NAME_CHARS_UNDERSCORE: Final = r"[A-Za-z0-9_.\-]"


class Statement(NamedTuple):
    """A statement found in a text: ``name`` (the claim key, another key of its operation, or
    ``version``), its ``value`` unquoted, ``[start, end)`` of the whole statement in the text."""

    name: str
    value: str
    start: int
    end: int


class FormWords:
    """What form-like text is for one decision: the names statements are read for, the namespace's
    directive shape, and the needles of the look-alike check."""

    def __init__(self, grammar: Grammar, operation: str, key: str) -> None:
        self.grammar = grammar
        self.operation = operation
        self.key = key
        siblings = [name for name in grammar.operations.get(operation, {}) if name != key]
        self.names = tuple(dict.fromkeys([key, *siblings, *RESERVED_KEYS]))
        #: Each language form of a name (:func:`language_forms`) -> the name; ``None`` for a form two
        #: names share (judged as neither: another key).
        self.forms: dict[str, str | None] = {}
        for name in self.names:  # the names as the grammar spells them first: they win over a form
            self.forms[name] = name
        for name in self.names:
            for form in language_forms(name):
                if form not in self.names and self.forms.setdefault(form, name) != name:
                    self.forms[form] = None
        #: What a name is looked for as, in any ASCII case: its words joined by ``_``, by ``-`` or by nothing.
        spellings = sorted({variant for name in self.names for variant in _spellings(name)})
        alternatives = "|".join(re.escape(name) for name in sorted(spellings, key=len, reverse=True))
        # a SCREAMING or lower-case prefix of the namespace or product (QUILL_EXISTING_PATH, quill_version): the name's
        ns, product = grammar.namespace, re.sub(r"[^A-Za-z0-9]", "_", grammar.product)
        prefixes = sorted({ns.upper(), product.upper(), ns.lower(), product.lower()})
        prefix = rf"(?:(?<![A-Za-z0-9_.\-])(?:{'|'.join(map(re.escape, prefixes))})_)?"
        name = rf"{prefix}(?P<name>{_words(spellings, _NAME_CHARS)})"
        subscript = r"(?:[\"']\])?"  # opts["existingPath"] = v
        annotation = rf"(?:{_SPACES}:{_SPACES}[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\]\r\n=]*\])?)?"  # a type annotation
        value = rf"(?:\"(?P<dq>[^\"\r\n{CODE_MARK}]*)\"|'(?P<sq>[^'\r\n{CODE_MARK}]*)'|(?P<bare>"
        # a code span's (or code element's) edge between the name and the value is read through: a
        # reader sees `existing_path`=overwrite as one statement
        self.statement = re.compile(
            rf"{name}{_atomic(_MARKS)}{subscript}{annotation}{_atomic(_CODE_GAP)}{_ASSIGN}=(?!=)"
            rf"{_atomic(_CODE_GAP)}" + value + _VALUE_RUN + "))"
        )
        self.raw_statement = re.compile(
            rf"{name}{_atomic(_RAW_EDGES)}{subscript}{annotation}{_atomic(_RAW_GAP)}{_ASSIGN}=(?!=)"
            rf"{_atomic(_RAW_GAP)}" + value + _RAW_VALUE_RUN + "))"
        )
        keys = sorted({variant for name in self.names if name not in RESERVED_KEYS for variant in _spellings(name)})
        #: In code only: ``name: value`` (YAML, JS objects, Python dicts), ``"name": value`` (JSON), and
        #: ``--name value`` / ``--name=value`` (a command's flag; not ``--version``, which prints one).
        self.colon_statement = re.compile(
            rf"(?P<name>{_words(spellings, _NAME_CHARS_UNDERSCORE)}){_atomic(_COLON_LEAD)}"
            rf"(?::=|:(?![:=])|=>){_atomic(_LINE_CODE_GAP)}" + value + _VALUE_RUN + "))"
        )
        word = _words(spellings, _NAME_CHARS_UNDERSCORE)
        #: In code only: a colon form whose value is on the next line, indented (YAML's plain or block scalar,
        #: ``existing_path: |``; pretty-printed JSON), that line not a mapping's key, a list or an object opened.
        self.next_line_statement = re.compile(
            rf"(?P<name>{word})[\"']?{_SPACES}:{_SPACES}(?:[|>][-+0-9]*{_SPACES})?(?:#[^\r\n]*)?\r?\n"
            rf"(?:{_SPACES}\r?\n)*[^\S\r\n]+(?![-\[{{#])(?![^\r\n]*:(?:\s|\Z))" + value + _VALUE_RUN + "))"
        )
        #: In code only: setattr(o, "name", v), #define NAME v, and an XML element <name>v</name>.
        self.setattr_statement = re.compile(
            rf"\bsetattr\({_SPACES}[^,()\r\n]*,{_SPACES}[\"'](?P<name>{word})[\"']{_SPACES},{_SPACES}"
            + value
            + _VALUE_RUN
            + "))"
        )
        self.define_statement = re.compile(
            rf"#{_SPACES}define[^\S\r\n]+(?P<name>{word})[^\S\r\n]+" + value + _VALUE_RUN + "))"
        )
        self.element_statement = re.compile(
            rf"<(?P<name>{word})>{_SPACES}(?P<dq>(?!))?(?P<sq>(?!))?(?P<bare>[^<\s{CODE_MARK}{BLANK}]+)"
            rf"{_SPACES}</(?P=name)>"
        )
        flag = _words(keys, _NEVER)
        # a quoted flag name ("--existing-path") is followed by its value only as the next item of an argv
        # list (["--existing-path", "overwrite"]), never by the rest of a call (add_argument("--x", choices=...))
        self.flag_statement = re.compile(
            rf"(?<![A-Za-z0-9_.\-])--(?P<name>{flag})(?![A-Za-z0-9_.\-])"
            rf"(?:{_atomic(_LINE_CODE_GAP)}={_atomic(_LINE_CODE_GAP)}|[\"']{_SPACES},{_SPACES}(?=[\"'][^\-\"'\s])"
            rf"|(?![\"']){_atomic(_LINE_CODE_GAP)}(?=[A-Za-z0-9\"']))" + value + _VALUE_RUN + "))"
        )
        #: argparse's add_argument("--name", ..., default=v) and click's option("--name", ..., default=v): the
        #: default is the flag's value (at most a bounded stretch of the call, one level of parentheses in it).
        self.declared_flag = re.compile(
            rf"\b(?:add_argument|add_option|option|Option)\(\s*(?:[\"']-[A-Za-z0-9_\-]*[\"']\s*,\s*)*"
            rf"[\"']--(?P<name>{flag})[\"'](?:[^()]|\([^()]{{0,200}}\)){{0,400}}?\bdefault{_SPACES}={_SPACES}"
            + value
            + _VALUE_RUN
            + "))"
        )
        self.begun = re.compile(
            rf"[`{CODE_MARK}]*(?:@|\[[ \t]*source\b|(?:{alternatives}){_SPACES}=(?!=))", re.IGNORECASE
        )
        self.shape = grammar.shape
        bodies = "|".join(
            rf"(?<=(?ai:{re.escape(op)}))\s+(?ai:{'|'.join(map(re.escape, keys))})\s*="
            for op, keys in grammar.operations.items()
        )
        #: A directive's body (``create_copy existing_path=``): a code span holding one quotes a directive.
        self.body = re.compile(rf"{_words(list(grammar.operations), _NAME_CHARS_UNDERSCORE)}(?:{bodies})")
        self.directive_rest = re.compile(
            rf"[^\S\r\n]+([^\s=`{CODE_MARK}]+)[^\S\r\n]+([^\s=`{CODE_MARK}]+)"
            rf"{_SPACES}=(?!=){_SPACES}[`{CODE_MARK}]*({_VALUE})"
        )
        self.look_alikes = LookAlikes([grammar.namespace], folded=spellings)
        self.near_targets = tuple(name.lower().replace("-", "_") for name in self.names if len(name) >= NEAR_MIN_LENGTH)
        #: Lower-case spellings that are a name's (its words joined by ``_``, ``-`` or nothing): not near-names.
        self.spelt = frozenset(variant.lower() for variant in spellings)
        values: set[str] = set()
        for name in self.names:
            rule = grammar.operations.get(operation, {}).get(name)
            values.update(getattr(rule, "values", ()))
        products = "|".join(sorted({re.escape(grammar.namespace.lower()), re.escape(grammar.product.lower())}))
        #: A dependency pin of the product (its namespace or its name, any case), read anywhere:
        #: ``quill==2.0``, ``quill[s3]>=2.0``, ``quill @ 2.0`` is not one, ``quill@2.0`` (npm) is.
        self.pin = re.compile(
            rf"(?<![A-Za-z0-9_.\-/@])(?i:{products})(?:\[[^\]\s]*\])?"
            rf"(?:{_SPACES}(?P<op2>===|==|~=|>=|<=|!=)|(?P<op1>[@<>]))"
            rf"{_SPACES}(?P<version>[\^~]?[vV]?[0-9][^\s'\"`){CODE_MARK}{BLANK}]*)"
        )
        #: In code: ``"quill": "^2.0"`` (package.json), ``quill = "^2.0"`` (Poetry, Cargo).
        self.code_pin = re.compile(
            rf"(?<![A-Za-z0-9_.\-/@])[\"']?(?i:{products})[\"']?{_SPACES}[:=]{_SPACES}"
            rf"[\"'](?P<version>[\^~=<>!vV0-9*][^\"'\r\n]*)[\"']"
        )
        #: The values the grammar has for the names (a table's header cell holding one is a value, not a title).
        self.values = frozenset(values)
        #: Type names read as a colon form's unquoted value that are no value of the grammar: annotations.
        self.type_names = _TYPE_NAMES - values

    def statements(self, text: str, raw: bool = False, pattern: re.Pattern[str] | None = None) -> Iterator[Statement]:
        """Every statement in ``text``: a name, in any case, as a whole word (not after an ASCII letter, digit,
        ``_``, ``.`` or ``-``; an emphasis run of ``_ * ~`` at a word's start does not count), an
        optional type annotation, optional spaces, ``=`` not followed by ``=``, optional spaces,
        the value, optionally quoted, up to whitespace or ``, ; ) ] " '`` (and markup, and the first
        letter of another script or with a diacritic, which no value token holds). ``raw``: ``text`` is
        as written (raw HTML in it), not as shown. ``pattern``: another statement pattern with the same
        groups (:attr:`colon_statement`, :attr:`flag_statement`), its values read the same way."""
        if pattern is None and "=" not in text:  # every statement holds one (a sound filter: the pattern is
            return  # tried at every character)
        glued_run = _RAW_GLUED_RUN if raw else _GLUED_RUN
        openings: list[int] | None = None  # where each code span opens in shown text (its first code mark)
        if pattern is None:
            pattern = self.raw_statement if raw else self.statement
        for match in pattern.finditer(text):
            start = match.start()
            if start and text[start - 1] == "_":
                before = start - 1
                while before > 0 and text[before - 1] in "_*~":
                    before -= 1
                if before and (
                    text[before - 1].isascii() and (text[before - 1].isalnum() or text[before - 1] in "_.-")
                ):
                    continue
            quoted = match.group("dq") if match.group("dq") is not None else match.group("sq")
            if quoted is not None:
                glued = glued_run.match(text, match.end())
                rest = glued.group().rstrip(SEPARATORS) if glued else ""
                rest = "" if rest == "/" and text.startswith("/>", match.end()) else rest  # <e name="v"/>
                if rest:  # more of a value after the closing quote: ``'refuse'|'overwrite'``
                    yield Statement(match.group("name"), quoted + rest, start, match.end() + len(rest))
                else:
                    yield Statement(match.group("name"), quoted, start, match.end())
                continue
            value = match.group("bare")
            # an ASCII value holds no foreign letter (the common case, without a call per character)
            cut = len(value) if value.isascii() else next((i for i, ch in enumerate(value) if _foreign(ch)), len(value))
            core = value[:cut].rstrip(SEPARATORS)
            lead = len(core) - len(core.lstrip(_OPENERS))
            if not core[lead:]:
                continue
            end = match.end("bare")
            if cut == len(value) and not raw and text[end : end + 1] == CODE_MARK:
                if openings is None:
                    openings = [m.start() for k, m in enumerate(_MARK_RUN.finditer(text)) if k % 2 == 0]
                k = bisect.bisect_left(openings, end)
                if k < len(openings) and openings[k] == end:  # a code span opens right after the value
                    yield Statement(match.group("name"), value[lead:] + "`", start, end)
                    continue
            yield Statement(match.group("name"), core[lead:], start, match.start("bare") + len(core))

    def code_statements(self, text: str) -> Iterator[Statement]:
        """The statements only code makes, in ``text`` (shown text; the caller keeps those in code):
        ``name: value``,
        ``"name": value``, ``name := value``, ``name?: value``, ``'name' => value``, ``:name => value``
        (:attr:`colon_statement`; not a type annotation, ``existing_path: str``, unless its brackets hold
        literals, ``Literal["overwrite"]``, each a value it states; nor an object or a list opened,
        ``existing_path: {``), a command's ``--name value``, ``--name=value`` (:attr:`flag_statement`),
        ``setattr(o, "name", value)``, ``#define NAME value`` and ``<name>value</name>``, each with a value
        read as a statement's (:meth:`statements`). A quoted value followed by ``| "literal"`` (a
        TypeScript union) states each literal too."""
        if ":" in text or "=>" in text:
            statements = self.statements(text, pattern=self.colon_statement)
        else:
            statements = iter(())
        for statement in statements:
            operator = _OPERATOR.search(text, statement.start)
            at = operator.end() if operator is not None else statement.end
            if (
                operator is not None
                and operator.group() == "=>"
                and text[statement.start - 1 : statement.start] not in ("'", '"', ":")
                and not _NAMED_ARGUMENT.match(text, operator.end())
            ):
                continue  # a hash's key is quoted or a symbol; existingPath => ... is an arrow function, unless
                # a quoted literal follows (SQL's named argument, existing_path => 'overwrite')
            while at < statement.end and text[at] in f" \t=`{CODE_MARK}":
                at += 1
            head = _IDENTIFIER.match(text, at)
            if (
                text.startswith("{", at)
                or _BLOCK_SCALAR.fullmatch(statement.value)
                or _DEFAULT.match(text, statement.end)
            ):
                continue  # an object opened, or a block scalar's value on the next lines (read below)
            if head is not None and head.group() in self.type_names:
                # a type annotation states no value, unless its brackets hold literals (Literal["overwrite"]):
                # each is a value it admits
                typed = _TYPE_ARGUMENTS.match(text, head.end())
                if typed is not None:
                    for literal in _LITERAL.finditer(typed.group(1)):
                        yield Statement(
                            statement.name,
                            literal.group(1) if literal.group(1) is not None else literal.group(2),
                            statement.start,
                            typed.end(),
                        )
                continue
            yield statement
            yield from _union(text, statement)
        if ":" in text and "\n" in text:
            yield from self.statements(text, pattern=self.next_line_statement)
        if "--" in text:
            for statement in self.statements(text, pattern=self.flag_statement):
                if text[statement.start + 2 + len(statement.name) :][:1] in ('"', "'") and _DECLARATION.search(
                    text, max(0, statement.start - 240), statement.start
                ):
                    continue  # a flag declared in a call (click.option("--x", "x", ...)): its default is read below
                if (
                    statement.value.isupper()
                    and text.startswith("]", statement.end)
                    and statement.value.lower() not in self.values
                ):
                    continue  # usage text's placeholder: [--existing-path MODE] states no value
                yield statement
            if "default" in text:
                yield from self.statements(text, pattern=self.declared_flag)
        if "setattr" in text:
            yield from self.statements(text, pattern=self.setattr_statement)
        if "define" in text:
            yield from self.statements(text, pattern=self.define_statement)
        if "</" in text:
            yield from self.statements(text, pattern=self.element_statement)

    def pins(self, text: str, code: bool) -> Iterator[Statement]:
        """Each dependency pin of the product in ``text`` (:attr:`pin`; :attr:`code_pin` too when ``code``),
        as a statement of ``version`` (:data:`~_conflict_gate.manifest.form.RESERVED_KEYS`): an exact pin
        (``==``, ``===``, ``@``, or a bare version in quotes) states its version, a range (``>=2.0``,
        ``^1.0``, ``~=1.0``) states the range, which is never the requested version alone."""
        version = RESERVED_KEYS[0]
        lowered = text.lower()
        if self.grammar.namespace.lower() not in lowered and self.grammar.product.lower() not in lowered:
            return
        for match in self.pin.finditer(text):
            value = match.group("version").rstrip(SEPARATORS)
            operator = match.group("op2") or match.group("op1")
            if value:
                yield Statement(
                    version,
                    value if operator in ("==", "===", "@") else operator + value,
                    match.start(),
                    match.start("version") + len(value),
                )
        if code:
            for match in self.code_pin.finditer(text):
                yield Statement(version, match.group("version"), match.start(), match.end())

    def name_of(self, spelling: str) -> str | None:
        """The name (claim key, another key of the operation, ``version``) whose language form
        (:func:`language_forms`) ``spelling`` is; ``None`` when it is another spelling of one
        (``Existing_Path``) or a form two names share."""
        return self.forms.get(spelling)

    def spelt_as(self, spelling: str) -> set[str]:
        """The names ``spelling`` is, in some ASCII case, with its words joined by ``_``, ``-`` or nothing."""
        lowered = spelling.lower()
        return {name for name in self.names if lowered in {v.lower() for v in _spellings(name)}}

    def near_names(self, text: str) -> Iterator[tuple[int, int, str]]:
        """``(start, end, name)`` of each ``name=`` in ``text`` (a whole word, as a statement's) whose name
        is not a statement name in any case but reads as one (:func:`near_name`)."""
        if "=" not in text:
            return
        for match in _NEAR.finditer(text):
            name = match.group()
            if name.lower() not in self.spelt and near_name(name, self.near_targets):
                yield match.start(), match.end(), name

    def agrees(self, value: str, expected: str) -> bool:
        """A statement's value says ``expected``: exactly, or followed only by sentence punctuation or
        emphasis (``refuse.``, ``refuse**``)."""
        return value == expected or value.rstrip(_TRAILING) == expected

    def directives(self, text: str) -> Iterator[tuple[int, int, str, str, str]]:
        """``(start, end, operation, key, value)`` of each directive of the namespace in ``text``."""
        if "@" not in text:  # the shape starts with one
            return
        for match in self.shape.finditer(text):
            rest = self.directive_rest.match(text, match.end())
            if rest is not None:
                yield match.start(), rest.end(), rest.group(1), rest.group(2), rest.group(3)

    def is_quote(self, content: str) -> bool:
        """A code span that quotes a directive: it starts with an at sign (after NFKC) and is not a
        decorator or a handle (``@quill.task``, ``@retry(times=3)``) unless it is the namespace's
        directive shape (``@quill``: a quote cut short); or it holds a directive's body,
        an operation of the grammar then one of its keys and ``=`` (a quote that lost its head)."""
        if (
            content[:1] == "@"
            and " " in content
            and "(" not in content
            and content.isascii()
            and content.rstrip() == content
        ):
            return True  # words apart outside parentheses: never a decorator (the common case, fast)
        normalized = content.strip() if content.isascii() else unicodedata.normalize("NFKC", content).strip()
        if normalized.startswith("@"):  # the namespace's shape (``@quill``, ``@quill ...``) is always one
            return _DECORATOR.fullmatch(normalized) is None or self.shape.match(normalized) is not None
        return self.body.search(normalized) is not None

    def tokens(self, text: str, raw: bool = False) -> list[tuple[str, str, int, int]]:
        """The form-like text of ``text`` (as written when ``raw``, else as shown): ``(kind, text, start, end)``."""
        found = [
            ("citation", m.group().replace(CODE_MARK, "`"), m.start(), m.end()) for m in _CITATION_TOKEN.finditer(text)
        ]
        found += [
            ("statement", f"{s.name}={s.value.rstrip(_TRAILING)}", s.start, s.end) for s in self.statements(text, raw)
        ]
        found += [("directive", "@" + self.grammar.namespace, m.start(), m.end()) for m in self.shape.finditer(text)]
        return found

    def token_counts(self, text: str) -> Counter[tuple[str, str]]:
        """How often each form-like text occurs in ``text`` (what :meth:`tokens` finds, counted)."""
        counts: Counter[tuple[str, str]] = Counter()
        if "[" in text:
            counts.update(("citation", m.group().replace(CODE_MARK, "`")) for m in _CITATION_TOKEN.finditer(text))
        counts.update(("statement", f"{s.name}={s.value.rstrip(_TRAILING)}") for s in self.statements(text))
        directives = len(self.shape.findall(text))
        if directives:
            counts[("directive", "@" + self.grammar.namespace)] = directives
        return counts

    def formish(self, content: str) -> bool:
        """Is a code span's content form-like (a quote, or holding form-like text)?"""
        return self.is_quote(content) or bool(self.tokens(content))


#: The start of a call that declares a flag, right before a quoted flag name (``add_argument("-e", ``).
_DECLARATION: Final = re.compile(
    r"\b(?:add_argument|add_option|option|Option)\(\s*(?:[\"']-[A-Za-z0-9_\-]*[\"']"
    r"\s*,\s*)*[\"']\Z"
)
#: A quoted literal or a number after a hash rocket, then the argument's end: ``existing_path => 'overwrite')``.
_NAMED_ARGUMENT: Final = re.compile(
    r"[^\S\r\n]*(?:\"[^\"\r\n]*\"|'[^'\r\n]*'|[0-9][0-9.]*)[^\S\r\n]*(?:[,)\]};]|$)", re.MULTILINE
)
#: A YAML block scalar's indicator, a colon form's value on its line (``existing_path: >-``).
_BLOCK_SCALAR: Final = re.compile(r"[|>][-+0-9]*")
#: After a colon form's value, ``=``: the value was an annotation (``existing_path: ExistingPath = ...``).
_DEFAULT: Final = re.compile(r"[^\S\r\n]*=(?!=)")
#: The operator of a colon form: ``:=``, ``:`` or a hash rocket ``=>``.
_OPERATOR: Final = re.compile(r":=?|=>")
#: One more literal of a TypeScript union after a quoted value: ``| "overwrite"``.
_UNION_MEMBER: Final = re.compile(r"[^\S\r\n]*\|[^\S\r\n]*(?:\"([^\"\r\n]*)\"|'([^'\r\n]*)')")


def _union(text: str, statement: Statement) -> Iterator[Statement]:
    """Each literal of a union after a statement's quoted value (``"refuse" | "overwrite"``): a value it
    states, as a ``Literal[...]``'s are."""
    if text[statement.end - 1 : statement.end] not in ('"', "'"):
        return
    at = statement.end
    while (member := _UNION_MEMBER.match(text, at)) is not None:
        yield Statement(
            statement.name,
            member.group(1) if member.group(1) is not None else member.group(2),
            statement.start,
            member.end(),
        )
        at = member.end()


#: Inline markup a reader does not see as text: emphasis and strikethrough delimiters, link brackets, and an
#: underscore run that is not inside a word (GFM: ``_`` between two alphanumerics never opens or closes
#: emphasis, so ``existing_path`` keeps its underscore while ``_version_`` and ``__version__`` are emphasis;
#: :func:`_inside_word` tells them apart, past other emphasis: ``existing_**path**`` keeps it too).
_MARKUP: Final = re.compile(r"[*~\[\]]+|_+")
#: Markup beside a character a statement holds or beside its gaps (a name's, ``=``, a value's, a space, a
#: code span's edge): only then can taking it out make a statement another one (``existing_pa*th*=``,
#: ``**version** = 2.0``, ``[version](x) = 2.0``, ``_version_=2.0``, ``=**`overwrite`**``, ``=~~1.0~~2.0``).
#: A link's ``]`` needs no look: its ``[`` is one; a citation's ``[source:`` is none (a citation is no statement).
_STATEMENT_SIDE: Final = rf"A-Za-z0-9_=.\-\s`{CODE_MARK}"
_INNER_MARKUP: Final = re.compile(rf"[*~\[](?!(?<=\[)source:)(?:(?<=[{_STATEMENT_SIDE}].)|(?=[{_STATEMENT_SIDE}]))")
#: An underscore run not inside a word (its first ``_`` after no word character, or its last before none).
_LOOSE_UNDERSCORE: Final = re.compile(r"_(?:(?<!\w_)|(?!\w))")
#: A code span's (or code element's) content between its code marks: its markup is shown as written.
_CODE_REGION: Final = re.compile(f"{CODE_MARK}+[^{CODE_MARK}]*{CODE_MARK}+")


def resolve_markup(text: str) -> tuple[str, Callable[[int], int]] | None:
    """``text`` (a block's shown text) without the inline markup a chat window resolves (``*``, ``~``,
    ``[``, ``]`` and an underscore run not inside a word, outside code spans: emphasis, strikethrough,
    link brackets), and a map from its offsets back to ``text``'s; ``None`` when ``text`` holds none
    beside a character a statement could hold or its spaces and code edges (then taking it out could
    change no statement). A literal ``*`` is removed too:
    that can only make more text read as a statement, never less. Linear."""
    if _INNER_MARKUP.search(text) is None and ("_" not in text or _LOOSE_UNDERSCORE.search(text) is None):
        return None
    code = [(m.start(), m.end()) for m in _CODE_REGION.finditer(text)] if CODE_MARK in text else []
    parts: list[str] = []
    starts: list[int] = []  # offset in the resolved text of each kept stretch
    origins: list[int] = []  # its offset in text
    length = at = 0
    c = 0

    def keep(a: int, b: int) -> None:
        nonlocal length
        if b > a:
            starts.append(length)
            origins.append(a)
            parts.append(text[a:b])
            length += b - a

    for match in _MARKUP.finditer(text):
        while c < len(code) and code[c][1] <= match.start():
            c += 1
        if c < len(code) and code[c][0] <= match.start():
            continue  # inside a code span
        if text[match.start()] == "_" and _inside_word(text, match.start(), match.end()):
            continue  # an underscore inside a word (existing_path, exist*ing*_path): text, never emphasis
        keep(at, match.start())
        at = match.end()
    keep(at, len(text))

    def where(i: int) -> int:
        k = bisect.bisect_right(starts, i) - 1
        return origins[k] + i - starts[k] if k >= 0 else 0

    return "".join(parts), where


def _inside_word(text: str, start: int, end: int) -> bool:
    """Is the underscore run ``text[start:end]`` inside a word: a letter or a digit on both sides, past
    other emphasis (``existing_**path**``, ``exist*ing*_path`` keep theirs)? Such a run never opens or
    closes emphasis (GFM's flanking rules for ``_``)."""
    before = start - 1
    while before >= 0 and text[before] in "*~":
        before -= 1
    if before < 0 or not text[before].isalnum():
        return False
    after = end
    while after < len(text) and text[after] in "*~":
        after += 1
    return after < len(text) and text[after].isalnum()


#: A statement name that :func:`near_name` compares must be at least this long (a shorter one has too
#: many ordinary neighbours: ``mode`` and ``node``).
NEAR_MIN_LENGTH: Final = 6
#: ``name=`` with a name of ASCII letters, digits, ``_`` and ``-``, as a whole word (not after an ASCII
#: letter, digit, ``_``, ``.`` or ``-``), ``=`` not followed by ``=``.
_NEAR: Final = re.compile(
    rf"(?<![A-Za-z0-9_.\-])[A-Za-z][A-Za-z0-9_\-]{{{NEAR_MIN_LENGTH - 1},}}"
    rf"(?={_SPACES}=(?!=))"
)


def near_name(word: str, targets: Sequence[str]) -> bool:
    """Does ``word`` read as one of ``targets`` (lower-case names, ``-`` written ``_``) without being it in
    some ASCII case?
    With ``-`` read as ``_`` and case ignored, it is the name, or differs from it in one character, or
    in two adjacent ones swapped (``existlng_path``, ``verslon``, ``verison``). The name itself with ``-``
    for ``_`` (``existing-path``) is not one: a language form, or another spelling, read as a statement."""
    lowered = word.lower()
    folded = lowered.replace("-", "_")
    if lowered in targets or folded in targets:
        return False  # the name itself, in some case, or its kebab-case: a statement
    for target in targets:
        if len(folded) != len(target):
            continue
        diffs = [i for i, (a, b) in enumerate(zip(folded, target)) if a != b]
        if len(diffs) <= 1:
            return True
        if (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and folded[diffs[0]] == target[diffs[1]]
            and folded[diffs[1]] == target[diffs[0]]
        ):
            return True
    return False


def _spellings(name: str) -> tuple[str, ...]:
    """``name``'s words joined by ``_``, by ``-`` and by nothing: what its forms are in some ASCII case."""
    words = re.split(r"[_-]", name)
    return tuple(dict.fromkeys([name, "_".join(words), "-".join(words), "".join(words)]))


def _words(names: Sequence[str], not_after: str) -> str:
    """A pattern of any of ``names`` (ASCII letters first, as grammar names are) in any ASCII case,
    as a whole word: not after a character of the class ``not_after``. Written as one class of the
    first letters, then the rest per letter, so that the regular expression engine skips ahead to a
    first letter instead of trying every offset (about 6 times faster on 64 KiB)."""
    by_first: dict[str, list[str]] = {}
    for name in sorted(names, key=len, reverse=True):
        by_first.setdefault(name[0].lower(), []).append(name[1:])
    firsts = "".join(re.escape(ch) + re.escape(ch.upper()) for ch in by_first)
    rests = "|".join(
        rf"(?<=[{re.escape(ch)}{re.escape(ch.upper())}])(?ai:{'|'.join(map(re.escape, rest))})"
        for ch, rest in by_first.items()
    )
    return rf"[{firsts}](?<!{not_after}.)(?:{rests})"


def _foreign(ch: str) -> bool:
    """A letter or digit of another script, or with a diacritic: not a look-alike of an ASCII one."""
    if ch.isascii() or not ch.isalnum() or ord(ch) in CONFUSABLES:
        return False
    return not unicodedata.normalize("NFKC", ch).isascii()
