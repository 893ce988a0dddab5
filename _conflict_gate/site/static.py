"""A site generator's settings read without running anything: literal values of a JavaScript or
TypeScript configuration, top-level scalars of a TOML, YAML or JSON one, and a page's front matter
(no I/O; for ``--site``'s locators in :mod:`~_conflict_gate.site.locate`).

The project is standard-library only and the gate never runs a site's code, so these readers take
only what a person reading the text would take for a plain value, and say when they meet anything
else (an expression, a variable, a spread, a template string with a substitution, a YAML tag or
block, a key given twice): the caller then refuses to guess the page's name (``site_unreadable`` for
the site, or a page without a located built page, whose manifest entry must name it with
``"built"``).

* :func:`js_tokens` cuts JavaScript or TypeScript into tokens (strings, names, punctuation), comments
  left out, in one pass; an unterminated string or comment is :class:`StaticError`.
* :func:`js_object` finds an object literal's top-level keys and their literal values
  (:data:`UNREAD` for any value that is not a string, number, ``true``, ``false``, ``null`` or
  ``undefined``; a spread makes the whole object unread).
* :func:`js_string` and :func:`js_strings` read a value that is a string literal, or an array literal of
  string literals (``['1.0', 'current']``).
* :func:`front_matter` reads a page's YAML (``---``), TOML (``+++``) or JSON front matter's top-level
  scalar keys.
* :func:`scalars` reads a TOML or YAML file's top-level ``key = value`` / ``key: value`` lines, and
  the names of its tables or block keys.

All are linear in the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final

__all__ = [
    "UNREAD",
    "StaticError",
    "front_matter",
    "js_object",
    "js_string",
    "js_strings",
    "js_tokens",
    "key_index",
    "read_flag",
    "scalars",
]

#: The value :func:`js_object`, :func:`front_matter` and :func:`scalars` give a key whose value is not a
#: plain literal (it is there, but what it says is not known without running or parsing more).
UNREAD: Final = "\x00unread"
_NAME: Final = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER: Final = re.compile(r"\d[\w.]*")
_QUOTED: Final = {"'": re.compile(r"'(?:[^'\\\n]|\\.)*'"), '"': re.compile(r'"(?:[^"\\\n]|\\.)*"')}
_TEMPLATE: Final = re.compile(r"`(?:[^`\\$]|\\.|\$(?!\{))*`")
_LITERALS: Final = {"true": "true", "false": "false", "null": "null", "undefined": "undefined"}
_FRONT_KEY: Final = re.compile(r"(?P<key>[A-Za-z_][\w-]*)[ \t]*(?P<sep>[:=])[ \t]*(?P<value>.*?)[ \t]*\Z")


class StaticError(ValueError):
    """The text could not be cut into tokens (an unterminated string, template or comment)."""


def js_tokens(text: str) -> list[str]:
    """``text`` (JavaScript or TypeScript) as tokens: a string literal keeps its quotes (a template
    literal with a substitution is the token ```${``), a name, a number, ``...`` or one character of
    punctuation; spaces and comments left out. Raises :class:`StaticError` on an unterminated string,
    template literal or block comment. A regular expression literal is read as punctuation and the
    tokens of its text (harmless for what the callers look for: a string inside one that does not end
    on its line raises)."""
    tokens: list[str] = []
    at, end = 0, len(text)
    while at < end:
        char = text[at]
        if char in " \t\r\n\f\v\ufeff\u00a0":
            at += 1
        elif text.startswith("//", at):
            newline = text.find("\n", at)
            at = end if newline == -1 else newline + 1
        elif text.startswith("/*", at):
            close = text.find("*/", at + 2)
            if close == -1:
                raise StaticError("a block comment is not closed")
            at = close + 2
        elif char in _QUOTED:
            match = _QUOTED[char].match(text, at)
            if match is None:
                raise StaticError(f"a string does not end on its line (at offset {at})")
            tokens.append(match.group())
            at = match.end()
        elif char == "`":
            match = _TEMPLATE.match(text, at)
            if match is None:
                raise StaticError(f"a template literal with a substitution or not closed (at offset {at})")
            tokens.append(match.group())
            at = match.end()
        elif text.startswith("...", at):
            tokens.append("...")
            at += 3
        else:
            match = _NAME.match(text, at) or _NUMBER.match(text, at)
            tokens.append(match.group() if match else char)
            at = match.end() if match else at + 1
    return tokens


def _literal(token: str) -> str | None:
    """The value of a literal token (a string without escapes, a number, ``true``...), else ``None``."""
    if len(token) >= 2 and token[0] in "'\"`" and token[-1] == token[0]:
        body = token[1:-1]
        return None if "\\" in body else body
    if token in _LITERALS:
        return _LITERALS[token]
    if _NUMBER.fullmatch(token):
        return token
    return None


def js_object(tokens: list[str], start: int) -> tuple[dict[str, str], int] | None:
    """The object literal whose ``{`` is ``tokens[start]``: its top-level keys (a name or a string)
    and their values (:func:`_literal`'s text, or :data:`UNREAD`; an object or array value is
    :data:`UNREAD` too, its index found by :func:`key_index`), and the index after its ``}``. ``None``
    when ``tokens[start]`` is not ``{``, the braces do not close, a key is given twice or a spread
    (``...``) or computed key is in it: what it holds is not known without running it."""
    if start >= len(tokens) or tokens[start] != "{":
        return None
    values: dict[str, str] = {}
    depth, at = 0, start
    expect_key = True
    while at < len(tokens):
        token = tokens[at]
        if depth == 1 and expect_key and token == "[":
            return None  # a computed key
        if token in "{[(":
            depth += 1
            if depth == 1:
                at += 1
                continue
        elif token in "}])":
            depth -= 1
            if depth == 0:
                return values, at + 1
        if depth == 1:
            if token == ",":
                expect_key = True
            elif expect_key:
                if token == "...":
                    return None
                key = token[1:-1] if token[:1] in "'\"" else token
                if at + 1 < len(tokens) and tokens[at + 1] == ":":
                    if key in values:
                        return None
                    value = tokens[at + 2] if at + 2 < len(tokens) else ""
                    after = tokens[at + 3] if at + 3 < len(tokens) else ""
                    literal = _literal(value)
                    values[key] = literal if literal is not None and after in (",", "}") else UNREAD
                    at += 2
                    expect_key = False
                    continue
                if _NAME.fullmatch(key) and at + 1 < len(tokens) and tokens[at + 1] in (",", "}"):
                    values[key] = UNREAD  # a shorthand property: a variable's value
                expect_key = False
        at += 1
    return None


def key_index(tokens: list[str], start: int, key: str) -> int | None:
    """The index of the value of ``key`` at the top level of the object literal at ``tokens[start]``
    (the token after its ``:``), or ``None``."""
    depth = 0
    for at in range(start, len(tokens)):
        token = tokens[at]
        if token in "{[(":
            depth += 1
        elif token in "}])":
            depth -= 1
            if depth == 0:
                return None
        elif (
            depth == 1
            and (token == key or (token[1:-1] == key and token[:1] in "'\""))
            and tokens[at - 1] in ("{", ",")
            and at + 1 < len(tokens)
            and tokens[at + 1] == ":"
        ):
            return at + 2
    return None


def js_string(tokens: list[str], at: int | None) -> str | None:
    """The text of the quoted string literal ``tokens[at]`` (``'...'``, ``"..."`` or a template without
    a substitution; no escapes) when it is a whole value (followed by ``,``, ``}`` or ``]``); ``None``
    for anything else (a name, a number, ``true``, an expression)."""
    if at is None or at >= len(tokens) or tokens[at][:1] not in "'\"`":
        return None
    literal = _literal(tokens[at])
    after = tokens[at + 1] if at + 1 < len(tokens) else ""
    return literal if after in (",", "}", "]") else None


def js_strings(tokens: list[str], start: int | None) -> list[str] | None:
    """The array literal whose ``[`` is ``tokens[start]`` when it holds string literals only (a trailing
    comma allowed): their texts in order; ``None`` for anything else (a name, a spread, a hole, a
    nested array, a call)."""
    if start is None or start >= len(tokens) or tokens[start] != "[":
        return None
    values: list[str] = []
    at = start + 1
    while at < len(tokens):
        if tokens[at] == "]":
            return values
        value = js_string(tokens, at)
        if value is None:
            return None
        values.append(value)
        at += 1
        if tokens[at : at + 1] == [","]:
            at += 1
        elif tokens[at : at + 1] != ["]"]:
            return None
    return None


def _scalar(value: str) -> str:
    """A YAML or TOML scalar's text: quoted (no escapes), or plain; anything else :data:`UNREAD`."""
    value = re.sub(r"[ \t]+#.*\Z", "", value) if value[:1] not in "'\"" else value
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        body = value[1:-1]
        return UNREAD if "\\" in body or value[0] in body else body
    if not value or value[0] in "!&*[{|>'\"%@`":
        return UNREAD
    return value


def front_matter(text: str, *, json_object: bool = False) -> dict[str, str] | None:
    """A page's front matter: its top-level keys (case kept) and scalar values (:data:`UNREAD` for a
    list, a mapping, a block or a tagged value; lines indented below a key belong to it). YAML
    between ``---`` lines or TOML between ``+++`` lines at the page's start, or, with ``json_object``,
    a JSON object (Hugo).
    ``{}`` when the page has none; ``None`` when it opens one that does not close or cannot be read."""
    body = text.removeprefix("\ufeff")
    first, _, rest = body.partition("\n")
    fence = first.rstrip("\r \t")
    if fence not in ("---", "+++"):
        if json_object and body.startswith("{"):
            try:
                decoded, _ = json.JSONDecoder().raw_decode(body)
            except ValueError:
                return None
            if not isinstance(decoded, dict):
                return None
            return {
                str(key): (
                    value if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else UNREAD
                )
                for key, value in decoded.items()
            }
        return {}
    values: dict[str, str] = {}
    last = ""
    in_table = False
    for line in rest.split("\n"):
        line = line.rstrip("\r")
        if line.rstrip(" \t") == fence:
            return values
        if not line.strip() or line.lstrip().startswith("#") or (in_table and not line.startswith("[")):
            continue
        if line[0] in " \t-":
            if last:
                values[last] = UNREAD  # a block below the key
            continue
        match = _FRONT_KEY.fullmatch(line)
        if match is None or (match.group("sep") == "=") != (fence == "+++"):
            if fence == "+++" and line.startswith("["):
                last, in_table = "", True
                values["[" + line.strip("[] \t") + "]"] = UNREAD  # a TOML table: its keys are not top-level
                continue
            return None
        key = match.group("key")
        values[key] = UNREAD if key in values else _scalar(match.group("value"))
        last = key
    return None


def scalars(text: str, syntax: str) -> tuple[dict[str, str], list[str]]:
    """A ``toml`` or ``yaml`` configuration's top-level keys (lower-cased: Hugo's keys are
    case-insensitive) with their scalar values (:data:`UNREAD` otherwise), and the names of its TOML
    tables (``[name]``, ``[[name]]``) or YAML keys with a block below them (lower-cased too)."""
    values: dict[str, str] = {}
    blocks: list[str] = []
    in_table = False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if syntax == "toml":
            if stripped.startswith("["):
                in_table = True
                blocks.append(stripped.strip("[] \t").split(".")[0].strip("'\"").lower())
                continue
            if in_table:
                continue
            key, sep, value = stripped.partition("=")
            if sep:
                name = key.strip().strip("'\"").lower()
                values[name] = UNREAD if name in values else _scalar(value.strip())
            continue
        if line[0] in " \t-":
            continue
        key, sep, value = stripped.partition(":")
        if sep:
            name = key.strip().strip("'\"").lower()
            scalar = _scalar(value.strip()) if value.strip() else UNREAD
            values[name] = UNREAD if name in values else scalar
            if not value.strip():
                blocks.append(name)
    return values, blocks


def read_flag(values: Mapping[str, str], key: str, default: bool) -> bool | None:
    """A boolean setting of :func:`scalars` or :func:`js_object`: ``default`` when absent, ``None`` when
    it is not ``true`` or ``false`` (any case)."""
    value = values.get(key)
    if value is None or value == "undefined":
        return default
    return {"true": True, "false": False}.get(value.lower())
