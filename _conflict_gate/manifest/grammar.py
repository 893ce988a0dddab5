"""The directive grammar a manifest declares, as one frozen value.

A manifest's ``"grammar"`` object says what its directives may claim::

    {"namespace": "quill", "product": "Quill",
     "operations": {"create_copy": {
         "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
         "max-retries": {"type": "integer", "min": 0, "max": 10}}}}

:func:`grammar_from_json` checks it (every problem is a :class:`GrammarError`
whose ``pointer`` is the JSON pointer of the bad part) and returns a
:class:`Grammar`. The grammar owns everything that depends on it: the exact
directive shape (:meth:`Grammar.parse`), the directive-shaped text a reader
may take for a directive (:attr:`Grammar.shape`), and the hints in messages.
The reader, the gate, the audit, the answer check and the command line all
receive it from the corpus; nothing reads a grammar from a global.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from ..base.errors import DirectiveError, GrammarError, printable
from ..base.jsondata import json_pointer
from .form import RESERVED_KEYS

__all__ = [
    "CANONICAL_INTEGER",
    "NAME",
    "VALUE_TOKEN",
    "EnumRule",
    "Grammar",
    "IntegerRule",
    "grammar_from_json",
]

#: Namespace, operation and key names: lowercase ASCII letters, digits, ``_``, ``-``, ``.``; a letter first.
NAME: Final = re.compile(r"[a-z][a-z0-9_.\-]{0,63}")
#: Enumerated values: ASCII letters, digits, ``_``, ``-``, ``.``; a letter or digit first; case-sensitive.
VALUE_TOKEN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
#: Canonical ASCII decimal: no ``+``, no leading zeros, no ``-0``, at most 18 digits.
CANONICAL_INTEGER: Final = re.compile(r"0|-?[1-9][0-9]{0,17}")
_INTEGER_LIMIT: Final = 10**18
#: A directive after its ``@namespace `` head: three tokens without whitespace or ``=``.
_BODY: Final = re.compile(r"([^\s=]+) ([^\s=]+)=([^\s=]+)")
#: The longest start of a body that still fits the shape (where a malformed line goes wrong).
_BODY_PREFIX: Final = re.compile(r"(?:[^\s=]+(?: (?:[^\s=]+(?:=[^\s=]*)?)?)?)?")
_PRODUCT: Final = re.compile(r"[^\x00-\x1f\x7f-\x9f]{1,100}")


@dataclass(frozen=True)
class EnumRule:
    """A value is one of ``values`` (exact, case-sensitive tokens)."""

    values: tuple[str, ...]

    def check(self, value: str) -> tuple[str, str] | None:
        """``None`` when ``value`` is allowed, else ``(reason, detail)``."""
        if value in self.values:
            return None
        return ("unknown_directive_value", f"value {_clip(value)} is not allowed (allowed: {_clip_list(self.values)})")

    def describe(self) -> str:
        """``refuse | overwrite``."""
        return " | ".join(self.values)

    def summary(self) -> dict[str, Any]:
        """The rule as JSON data, in the manifest's own form."""
        return {"type": "enum", "values": list(self.values)}


@dataclass(frozen=True)
class IntegerRule:
    """A value is an integer in canonical ASCII decimal, within ``minimum``/``maximum`` when given.

    Canonical: no ``+``, no leading zeros, no ``-0``, at most 18 digits, ASCII
    digits only (``int("３０")`` would accept fullwidth digits; this does not).
    A ``-`` is well-formed only when the rule allows negatives (no minimum, or
    a negative one). The agreed value stays the token, so equal tokens mean
    equal integers.
    """

    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: str) -> tuple[str, str] | None:
        """``None`` when ``value`` is allowed, else ``(reason, detail)``."""
        negatives = self.minimum is None or self.minimum < 0
        if not CANONICAL_INTEGER.fullmatch(value) or (value.startswith("-") and not negatives):
            sign = "" if negatives else "non-negative "
            return (
                "invalid_integer",
                f"value {_clip(value)} is not a canonical {sign}integer "
                "(ASCII digits, no '+', no leading zeros, at most 18 digits)",
            )
        number = int(value)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            return ("integer_out_of_range", f"value {value} is outside {self.describe()}")
        return None

    def describe(self) -> str:
        """``integer 0..10``, ``integer >= 1``, ``integer <= 5`` or ``integer``."""
        if self.minimum is not None and self.maximum is not None:
            return f"integer {self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f"integer >= {self.minimum}"
        if self.maximum is not None:
            return f"integer <= {self.maximum}"
        return "integer"

    def summary(self) -> dict[str, Any]:
        """The rule as JSON data, in the manifest's own form."""
        data: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            data["min"] = self.minimum
        if self.maximum is not None:
            data["max"] = self.maximum
        return data


ValueRule = EnumRule | IntegerRule


@dataclass(frozen=True)
class Grammar:
    """What a corpus's directives may say: ``@<namespace> <operation> <key>=<value>``.

    ``operations`` maps operation -> key -> :class:`EnumRule` or
    :class:`IntegerRule` (read-only, in declaration order). ``product`` names
    the documented product in the answer request. Build it with
    :func:`grammar_from_json`, which checks every name and rule.
    """

    namespace: str
    product: str
    operations: Mapping[str, Mapping[str, ValueRule]]
    #: Directive-shaped text: an at sign, the namespace (``_ * ~`` between its
    #: letters ignored, ASCII case-insensitive) and then no name character (nor a slash:
    #: ``@quill/core`` names a package, not a directive).
    #: Matched against what a reader sees after NFKC normalisation, so the
    #: look-alike at signs U+FF20 and U+FE6B and fullwidth letters match too.
    shape: re.Pattern[str] = field(init=False, repr=False, compare=False)
    #: At signs that may start directive-shaped text (a sound, cheap filter): every at sign
    #: except one followed by a plain word that is not the namespace. ``(literal, pattern)``
    #: pairs matched against the page's UTF-8 bytes, each only when its literal occurs:
    #: ``@``, the look-alikes U+FF20 and U+FE6B, and references to any of them (``&#64;``,
    #: ``&#x40;``, ``&commat;``, ``&#65312;``, ...; the numeric ones also without the semicolon,
    #: which a browser reads in raw HTML).
    candidates: tuple[tuple[bytes, re.Pattern[bytes]], ...] = field(init=False, repr=False, compare=False)
    #: A directive-shaped line in which no inline construct can start (6.1-6.11): letters,
    #: digits, ``.``, ``-``, ``=`` and underscores between letters or digits (intraword, so
    #: never emphasis, 6.2). A reader sees such a line exactly as written. ``None`` when the
    #: namespace itself is not that plain.
    plain_line: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    #: The rule for claims stated under any at-word (``@quil create_copy existing_path=v``),
    #: over the page's UTF-8 bytes, ASCII case-insensitive: ``at_sign`` finds an at sign as a reader
    #: reads one (``@``, U+FF20, U+FE6B, references to them); ``stated_key`` a key of the grammar
    #: followed by ``=`` (or a reference to one, or U+FF1D, U+FE66); ``stated_word`` an operation
    #: (group ``op``) or such a key (group ``key``); ``operation_word`` an operation alone.
    #: ``key_owners``: key -> the operations that have it.
    at_sign: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    #: ``at_sign``'s references alone (each begins with ``&``, so ``re`` looks for that byte first);
    #: ``at_sign_literals`` its other spellings, as bytes.
    at_sign_reference: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    at_sign_literals: tuple[bytes, ...] = field(init=False, repr=False, compare=False)
    stated_key: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    stated_word: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    operation_word: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    #: ``operation_word`` over text (a reading's view of a line).
    operation_text: re.Pattern[str] = field(init=False, repr=False, compare=False)
    key_owners: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    #: The operations' names as bytes, ASCII letters lowered: a page in whose
    #: bytes, lowered, none occurs states no claim under any at-word (``stated_word`` finds none).
    operation_bytes: tuple[bytes, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        letters = [re.escape(ch) for ch in self.namespace if ch != "_"]
        # After the letters, markers are skipped greedily (a lookahead cannot give them back).
        loose = "[_*~]*" + "[_*~]*".join(letters) + r"(?=[_*~]*(?![_*~A-Za-z0-9.\-/]))"
        set_ = object.__setattr__
        set_(self, "shape", re.compile("@" + loose, re.IGNORECASE | re.ASCII))
        # Relevant unless a plain word follows that is not the namespace: the namespace
        # (underscores ignored; case-insensitive by explicit classes, as re.IGNORECASE would
        # slow the literal-prefix scan), or a word followed by a character that may hide or
        # add text.
        either_case = [f"[{ch}{ch.upper()}]" if ch.isalpha() else re.escape(ch) for ch in self.namespace if ch != "_"]
        loose_ci = "[_*~]*" + "[_*~]*".join(either_case) + r"(?=[_*~]*(?![_*~A-Za-z0-9.\-/]))"
        # (possessive where the re module has it, 3.11+: the same matches, less backtracking)
        word = r"[A-Za-z0-9_.\-]*+" if sys.version_info >= (3, 11) else r"[A-Za-z0-9_.\-]*"
        after = rf"(?={loose_ci}|{word}(?:[^\x00-\x7f]|[\\`*~\[\]<>&!]))"
        at_signs = (
            (b"@", "@"),
            ("\uff20".encode(), r"\xef\xbc\xa0"),
            ("\ufe6b".encode(), r"\xef\xb9\xab"),
            (
                b"&",
                r"&(?:#0*(?:64|65312|65131)(?![0-9]);?|#[xX]0*(?:40|[fF][fF]20|[fF][eE]6[bB])(?![0-9a-fA-F]);?"
                r"|[cC][oO][mM][mM][aA][tT];)",
            ),
        )
        set_(
            self, "candidates", tuple((literal, re.compile((at + after).encode("latin-1"))) for literal, at in at_signs)
        )
        set_(self, "at_sign", re.compile("|".join(at for _, at in at_signs).encode("latin-1")))
        set_(self, "at_sign_reference", re.compile(at_signs[-1][1].encode("latin-1")))
        set_(self, "at_sign_literals", tuple(literal for literal, _ in at_signs[:-1]))
        names = r"(?<![A-Za-z0-9_\-])(?:{})(?![A-Za-z0-9_\-])"
        operations = "|".join(re.escape(op) for op in sorted(self.operations, key=len, reverse=True))
        keys = "|".join(
            re.escape(key)
            for key in sorted({k for keys in self.operations.values() for k in keys}, key=len, reverse=True)
        )
        equals = r"[ \t]*(?:=|&#0*61;?|&#[xX]0*3[dD];?|&equals;|\xef\xbc\x9d|\xef\xb9\xa6)"
        key_equals = names.format(keys)[: -len(r"(?![A-Za-z0-9_\-])")] + equals
        set_(self, "stated_key", re.compile(key_equals.encode("latin-1"), re.IGNORECASE))
        set_(self, "operation_word", re.compile(names.format(operations).encode("latin-1"), re.IGNORECASE))
        set_(self, "operation_text", re.compile(names.format(operations), re.IGNORECASE | re.ASCII))
        set_(
            self,
            "stated_word",
            re.compile(f"(?P<op>{names.format(operations)})|(?P<key>{key_equals})".encode("latin-1"), re.IGNORECASE),
        )
        owners: dict[str, set[str]] = {}
        for op, op_keys in self.operations.items():
            for key in op_keys:
                owners.setdefault(key, set()).add(op)
        set_(self, "key_owners", MappingProxyType({key: frozenset(ops) for key, ops in owners.items()}))
        set_(self, "operation_bytes", tuple(op.encode("latin-1").lower() for op in self.operations))
        token = r"[A-Za-z0-9](?:[A-Za-z0-9.\-]|_(?=[A-Za-z0-9]))*"
        plain = re.fullmatch(token, self.namespace) is not None
        set_(
            self,
            "plain_line",
            re.compile(rf"@{re.escape(self.namespace)} {token} {token}=-?{token}") if plain else None,
        )

    @property
    def namespace_letters(self) -> str:
        """The namespace's letters and digits, case-folded: what any rendering of it keeps."""
        return "".join(ch for ch in self.namespace if ch.isalnum()).casefold()

    @property
    def head(self) -> str:
        """What every directive line starts with: ``"@" + namespace + " "``."""
        return f"@{self.namespace} "

    @property
    def form(self) -> str:
        """``@quill <operation> <key>=<value>``."""
        return f"@{self.namespace} <operation> <key>=<value>"

    def __hash__(self) -> int:
        return hash((self.namespace, self.product, tuple(self.claims())))

    def directive(self, operation: str, key: str, value: str) -> str:
        """The exact directive line for a claim."""
        return f"@{self.namespace} {operation} {key}={value}"

    def rule(self, operation: str, key: str) -> ValueRule | None:
        """The value rule of ``operation``/``key``, or ``None`` when the grammar has no such claim."""
        keys = self.operations.get(operation) if isinstance(operation, str) else None
        return keys.get(key) if keys is not None and isinstance(key, str) else None

    def claims(self) -> list[tuple[str, str, ValueRule]]:
        """Every ``(operation, key, rule)`` in declaration order."""
        return [(op, key, rule) for op, keys in self.operations.items() for key, rule in keys.items()]

    def parse(self, text: str, **where: Any) -> tuple[str, str, str]:
        """Parse one directive line (no line ending) into ``(operation, key, value)``.

        Accepts exactly ``@<namespace> <operation> <key>=<value>``: single
        spaces, nothing before or after, an operation and key of this grammar
        and a value its rule allows. Raises :class:`DirectiveError` otherwise
        (``malformed_directive``, ``unsupported_operation``,
        ``unsupported_claim_key``, ``unknown_directive_value``,
        ``invalid_integer``, ``integer_out_of_range``); its ``column`` (1-based,
        code points) points where the line goes wrong. ``where`` (``source_id``,
        ``path``, ``line``) only labels the error.
        """

        def refuse(reason: str, column: int, detail: str) -> DirectiveError:
            return DirectiveError(reason, detail, quote=text[:200], column=column, **where)

        head = self.head
        body = _BODY.fullmatch(text, len(head)) if text.startswith(head) else None
        if body is None:
            if text.startswith(head):
                prefix = _BODY_PREFIX.match(text, len(head))  # matches the empty string at worst
                column = (prefix.end() if prefix else len(head)) + 1
                hint = "use single spaces, names from the grammar and nothing after the value"
            else:
                column = next((i for i, (a, b) in enumerate(zip(text, head)) if a != b), min(len(text), len(head))) + 1
                hint = f"a directive starts with {head!r}: lowercase, one space"
            raise refuse("malformed_directive", column, f"expected exactly {self.form!r}, got {_clip(text)}; {hint}")
        operation, key, value = body.groups()
        keys = self.operations.get(operation)
        if keys is None:
            raise refuse(
                "unsupported_operation",
                body.start(1) + 1,
                f"unsupported operation {_clip(operation)} (known: {_clip_list(self.operations)}); "
                'to accept it, add it to the manifest\'s grammar first, under "operations" with its keys',
            )
        rule = keys.get(key)
        if rule is None:
            raise refuse(
                "unsupported_claim_key",
                body.start(2) + 1,
                f"unsupported key {_clip(key)} for {operation!r} (known: {_clip_list(keys)}); "
                f'to accept it, add it to the manifest\'s grammar first, under "operations" -> {operation!r}',
            )
        problem = rule.check(value)
        if problem is not None:
            raise refuse(problem[0], body.start(3) + 1, f"{operation} {key}: {problem[1]}")
        # interned: a corpus repeats a grammar's few names and values in every claim, so it keeps each once
        return sys.intern(operation), sys.intern(key), sys.intern(value)

    def summary(self) -> dict[str, Any]:
        """The grammar as JSON data: namespace, product, directive form, operations -> key -> rule."""
        return {
            "namespace": self.namespace,
            "product": self.product,
            "directive": self.form,
            "operations": {
                op: {key: rule.summary() for key, rule in keys.items()} for op, keys in self.operations.items()
            },
        }


_GRAMMAR_KEYS: Final = ("namespace", "product", "operations")


def grammar_from_json(data: Any, *, path: str | None = None) -> Grammar:
    """Check a manifest's ``"grammar"`` value and return it as a :class:`Grammar`.

    ``data`` is the parsed JSON (``None`` when the manifest has no grammar);
    ``path`` (the manifest's path) only labels errors. Raises
    :class:`GrammarError` with the JSON pointer of the first problem:
    ``missing_grammar``; ``invalid_grammar`` (not an object, unknown or missing
    keys, a product that is empty, longer than 100 code points or holds
    control characters, no operations, an operation without keys);
    ``invalid_name`` (a namespace, operation or key outside :data:`NAME`);
    ``reserved_name`` (a key the answer form uses as a statement of its own,
    :data:`~_conflict_gate.manifest.form.RESERVED_KEYS`: ``version``);
    ``invalid_value_rule`` (a rule that is not ``{"type": "enum", "values":
    [...]}`` with distinct :data:`VALUE_TOKEN` values, or ``{"type":
    "integer"}`` with optional integer ``min``/``max`` below 10**18 in
    magnitude and ``min <= max``). Refuses to guess: nothing has a default.
    """

    def fail(reason: str, detail: str, *parts: str | int) -> GrammarError:
        return GrammarError(reason, detail, path=path, pointer=json_pointer("grammar", *parts))

    if data is None:
        raise fail(
            "missing_grammar",
            'the manifest declares no grammar: add a "grammar" object '
            "with namespace, product and operations (conflict-gate init writes a starter)",
        )
    if not isinstance(data, dict):
        raise fail("invalid_grammar", "the grammar must be an object")
    for key in data:
        if key not in _GRAMMAR_KEYS:
            raise fail(
                "invalid_grammar", f"unknown key {printable(repr(key))} (a grammar has {', '.join(_GRAMMAR_KEYS)})", key
            )
    for key in _GRAMMAR_KEYS:
        if key not in data:
            raise fail("invalid_grammar", f"missing {key!r}", key)
    namespace, product, operations = (data[key] for key in _GRAMMAR_KEYS)
    _check_name(namespace, "namespace", fail, "namespace")
    if not isinstance(product, str) or not _PRODUCT.fullmatch(product) or not product.isprintable():
        raise fail(
            "invalid_grammar",
            "product must be 1-100 printable characters (no control, format or line-separator characters)",
            "product",
        )
    if not isinstance(operations, dict) or not operations:
        raise fail("invalid_grammar", "operations must be a non-empty object", "operations")
    checked: dict[str, Mapping[str, ValueRule]] = {}
    for operation, keys in operations.items():
        _check_name(operation, "operation", fail, "operations", operation)
        if not isinstance(keys, dict) or not keys:
            raise fail("invalid_grammar", "an operation must be a non-empty object of keys", "operations", operation)
        rules: dict[str, ValueRule] = {}
        for key, rule in keys.items():
            _check_name(key, "key", fail, "operations", operation, key)
            if key in RESERVED_KEYS:
                raise fail(
                    "reserved_name",
                    f"key {key!r} is a name the answer form states on its own "
                    f"(`{key}=...`), so an answer could not tell the two apart; rename the key",
                    "operations",
                    operation,
                    key,
                )
            rules[key] = _value_rule(rule, fail, ("operations", operation, key))
        checked[operation] = MappingProxyType(rules)
    return Grammar(namespace=namespace, product=product, operations=MappingProxyType(checked))


def _check_name(name: Any, what: str, fail: Any, *parts: str | int) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        shown = _clip(name) if isinstance(name, str) else _a(type(name).__name__)
        raise fail(
            "invalid_name",
            f"{what} {shown} is not a name: lowercase ASCII letters, digits, "
            "'_', '-', '.', starting with a letter, at most 64 characters",
            *parts,
        )


def _value_rule(rule: Any, fail: Any, parts: tuple[str | int, ...]) -> ValueRule:
    if not isinstance(rule, dict) or rule.get("type") not in ("enum", "integer"):
        raise fail(
            "invalid_value_rule",
            'a value rule is {"type": "enum", "values": [...]} or {"type": "integer", "min": N, "max": N}',
            *parts,
        )
    allowed = ("type", "values") if rule["type"] == "enum" else ("type", "min", "max")
    for key in rule:
        if key not in allowed:
            raise fail(
                "invalid_value_rule",
                f"unknown key {_clip(key)} in {_a(rule['type'])} rule (allowed: {', '.join(allowed)})",
                *parts,
                key,
            )
    if rule["type"] == "enum":
        values = rule.get("values")
        if not isinstance(values, list) or not values:
            raise fail("invalid_value_rule", "an enum rule needs a non-empty list of values", *parts, "values")
        seen: set[str] = set()
        for index, value in enumerate(values):
            if not isinstance(value, str) or not VALUE_TOKEN.fullmatch(value):
                shown = _clip(value) if isinstance(value, str) else _a(type(value).__name__)
                raise fail(
                    "invalid_value_rule",
                    f"value {shown} is not a token: ASCII letters, "
                    "digits, '_', '-', '.', starting with a letter or digit, at most 64 "
                    "characters (use an integer rule for numbers)",
                    *parts,
                    "values",
                    index,
                )
            if value in seen:
                raise fail("invalid_value_rule", f"value {value!r} is listed twice", *parts, "values", index)
            seen.add(value)
        return EnumRule(tuple(values))
    bounds = {}
    for key in ("min", "max"):
        if key in rule:
            number = rule[key]
            if type(number) is not int or not -_INTEGER_LIMIT < number < _INTEGER_LIMIT:
                raise fail("invalid_value_rule", f"{key} must be an integer of at most 18 digits", *parts, key)
            bounds[key] = number
    if "min" in bounds and "max" in bounds and bounds["min"] > bounds["max"]:
        raise fail("invalid_value_rule", f"min {bounds['min']} is greater than max {bounds['max']}", *parts)
    return IntegerRule(bounds.get("min"), bounds.get("max"))


def _a(word: str) -> str:
    """``"a int"`` is wrong: the article for ``word``."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _clip(text: str, limit: int = 80) -> str:
    """``repr`` of ``text``, printable, cut to ``limit`` code points so messages stay short."""
    if len(text) <= limit:
        return printable(repr(text))
    return printable(repr(text[:limit])) + f"... ({len(text)} code points)"


def _clip_list(names: Any, limit: int = 12) -> str:
    names = list(names)
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")
