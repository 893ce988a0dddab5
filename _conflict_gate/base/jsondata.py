"""JSON in and out, one way for the whole project (no I/O).

* :func:`parse_strict` reads JSON the way a file that decides something must
  be read: RFC 8259 only (no ``NaN``/``Infinity``), and a repeated key is
  refused rather than letting the last one win, since two readers may pick
  different ones. The manifest and decision files use it.
* :func:`canonical_json` is the form that is hashed or compared byte for
  byte: sorted keys, no spaces, UTF-8 (not ASCII-escaped).
* :func:`render_json` is the form printed and saved (defused: no GitHub workflow command): insertion order,
  two-space indent, UTF-8, a final newline.
* :func:`json_pointer` builds an RFC 6901 pointer.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from .errors import defuse_commands

__all__ = ["JsonProblem", "canonical_json", "json_pointer", "parse_strict", "printable_value", "render_json"]

_CANONICAL: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON text: sorted keys, no spaces, UTF-8 (not ASCII-escaped)."""
    return _CANONICAL(value)


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _escape_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def printable_value(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) written as text, the one rule for an
    undecodable file name in a result: a byte ``surrogateescape`` kept (``\\udcff``) becomes the four
    characters ``\\xff``, as the CLI's printable paths write it; any other lone surrogate ``\\uXXXX``.
    The result is always encodable as UTF-8; a value without surrogates comes back equal."""
    if isinstance(value, str):
        return _SURROGATE.sub(_escape_surrogate, value)
    if isinstance(value, dict):
        return {printable_value(key): printable_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [printable_value(item) for item in value]
    return value


def render_json(value: Any) -> str:
    """``value`` as display JSON: insertion key order, two-space indent, UTF-8, final newline; defused
    (:func:`~_conflict_gate.base.errors.defuse_commands`): the second character of each ``::`` or ``##[``
    in a string is written as a ``\\u`` escape; lone surrogates as :func:`printable_value` writes them, so that printed to a CI log no line of it is a GitHub
    workflow command, and any JSON reader gets the very same value back."""
    return defuse_commands(json.dumps(printable_value(value), indent=2, ensure_ascii=False) + "\n", "json")


def json_pointer(*parts: str | int) -> str:
    """An RFC 6901 JSON pointer: ``json_pointer("grammar", "a/b") == "/grammar/a~1b"``; ``""`` for none."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


class JsonProblem(ValueError):
    """Why :func:`parse_strict` refused a text. ``kind`` is one of:

    * ``syntax``: not JSON (``line`` and ``column`` are 1-based, code points);
    * ``constant``: ``NaN``, ``Infinity`` or ``-Infinity``, which Python accepts and JSON does not;
    * ``duplicate_key``: an object repeats a key (``key`` names it);
    * ``too_deep``: nesting deeper than Python's parser follows;
    * ``unsupported``: valid JSON that Python will not hold (an integer of more than 4,300 digits).
    """

    def __init__(
        self, kind: str, message: str, *, line: int | None = None, column: int | None = None, key: str | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.key = key


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_constant(name: str) -> Any:
    raise JsonProblem("constant", f"{name} is not JSON")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _trailing_comma(text: str, pos: int) -> str:
    """A hint when the syntax error is a comma before ``}`` or ``]`` (RFC 8259 allows none), else ``""``."""
    if text[pos : pos + 1] not in ("}", "]"):
        return ""
    before = len(text[:pos].rstrip(" \t\r\n"))
    if before == 0 or text[before - 1] != ",":
        return ""
    line = text.count("\n", 0, before - 1) + 1
    column = before - 1 - (text.rfind("\n", 0, before - 1) + 1) + 1
    return f" (JSON allows no trailing comma: remove the comma at {line}:{column})"


def parse_strict(text: str) -> Any:
    """Parse ``text`` (a leading BOM is ignored) as strict JSON; raise :class:`JsonProblem` otherwise.

    Refuses what RFC 8259 does not allow and what is ambiguous to readers
    (section 4: "the names within an object SHOULD be unique"); never returns
    a partial value.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise JsonProblem(
            "syntax", error.msg + _trailing_comma(text, error.pos), line=error.lineno, column=error.colno
        ) from None
    except _DuplicateKey as error:
        raise JsonProblem("duplicate_key", f"duplicate key {error.key!r}", key=error.key) from None
    except RecursionError:
        raise JsonProblem("too_deep", "JSON nesting is too deep") from None
    except JsonProblem:
        raise
    except ValueError as error:  # an integer over 4,300 digits (sys.int_info.str_digits_check_threshold)
        raise JsonProblem("unsupported", f"unsupported JSON value ({str(error).partition(':')[0]})") from None
