"""Edit a manifest's ``documents`` in its text, keeping every other byte (no I/O).

``init --update`` adds and removes entries the way ``pin`` rewrites pins: the
file's layout, key order, BOM, line endings and every entry it does not touch
stay byte for byte. :func:`entry_spans` finds where each entry of the
top-level ``documents`` array is; :func:`edit_documents` splices: a kept entry
keeps its text and the separator after it, a new one is written in the style
of the entries around it (one line, or indented like the first entry), and a
removed one goes with one separator.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["DocumentSpans", "edit_documents", "entry_spans", "set_top_level"]

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_DECODER: Final = json.JSONDecoder()


@dataclass(frozen=True)
class DocumentSpans:
    """Where ``documents`` is in a manifest's text: its ``[`` and ``]``, each entry's ``(start, end)``,
    and the indentation of the line holding the ``"documents"`` key."""

    open: int
    close: int
    entries: tuple[tuple[int, int], ...]
    key_indent: str


def _skip(text: str, at: int) -> int:
    match = _WHITESPACE.match(text, at)
    assert match is not None
    return match.end()


def entry_spans(text: str) -> DocumentSpans:
    """The spans of a manifest text that :func:`~_conflict_gate.manifest.read.read_manifest` accepted
    (one top-level object, one ``documents`` array). ``ValueError`` when the text is not one."""
    at = _skip(text, 1 if text.startswith("\ufeff") else 0)
    if not text.startswith("{", at):
        raise ValueError("the manifest is not a JSON object")
    at = _skip(text, at + 1)
    while not text.startswith("}", at):
        key_start = at
        key, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at)
        if not text.startswith(":", at):
            raise ValueError("expected ':'")
        at = _skip(text, at + 1)
        if key == "documents":
            line_start = text.rfind("\n", 0, key_start) + 1
            indent = text[line_start:key_start]
            return _array(text, at, indent if not indent.strip() else "")
        _, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
    raise ValueError("the manifest has no 'documents'")


def _array(text: str, at: int, key_indent: str) -> DocumentSpans:
    if not text.startswith("[", at):
        raise ValueError("'documents' is not an array")
    opening = at
    at = _skip(text, at + 1)
    entries = []
    while not text.startswith("]", at):
        start = at
        _, at = _DECODER.raw_decode(text, at)
        entries.append((start, at))
        at = _skip(text, at)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
    return DocumentSpans(opening, at, tuple(entries), key_indent)


def _style(text: str, spans: DocumentSpans) -> tuple[str, str, str, str]:
    """``(newline, element indent, indent step, separator)`` of the array's entries ("" step: one line)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    if not spans.entries:
        indent = spans.key_indent + "  "
        return newline, indent, "  ", "," + newline + indent
    start, end = spans.entries[0]
    line_start = text.rfind("\n", 0, start) + 1
    indent = text[line_start:start] if not text[line_start:start].strip() else ""
    step = ""
    first = text[start:end]
    if "\n" in first:
        inner = first.split("\n", 1)[1]
        inner_indent = inner[: len(inner) - len(inner.lstrip(" \t"))]
        step = (
            inner_indent[len(indent) :] if inner_indent.startswith(indent) and len(inner_indent) > len(indent) else "  "
        )
    if len(spans.entries) > 1:
        separator = text[end : spans.entries[1][0]]
    else:
        separator = "," + text[spans.open + 1 : start]
    return newline, indent, step, separator


def _render(entry: Mapping[str, Any], newline: str, indent: str, step: str) -> str:
    if not step:
        return json.dumps(entry, ensure_ascii=False)
    return json.dumps(entry, ensure_ascii=False, indent=step).replace("\n", newline + indent)


def edit_documents(text: str, keep: Sequence[bool], new: Sequence[tuple[int, Mapping[str, Any]]]) -> str:
    """``text`` with the entries where ``keep`` is false removed and each ``(position, entry)`` of
    ``new`` inserted before the existing entry at ``position`` (``len(keep)``: at the end), in order.

    Bytes outside the array's brackets, and every kept entry with the
    separator after it, are unchanged.
    """
    spans = entry_spans(text)
    if len(keep) != len(spans.entries):
        raise ValueError("keep must name every entry")
    newline, indent, step, separator = _style(text, spans)
    items: list[tuple[str, int | None]] = []  # (text, index of the kept entry or None)
    pending = sorted(new, key=lambda item: item[0])
    at = 0
    for index, (start, end) in enumerate(spans.entries):
        while at < len(pending) and pending[at][0] <= index:
            items.append((_render(pending[at][1], newline, indent, step), None))
            at += 1
        if keep[index]:
            items.append((text[start:end], index))
    items += [(_render(entry, newline, indent, step), None) for _, entry in pending[at:]]
    if not items:
        return text[: spans.open] + "[]" + text[spans.close + 1 :]
    if spans.entries:
        lead = text[spans.open + 1 : spans.entries[0][0]]
        trail = text[spans.entries[-1][1] : spans.close]
    else:
        lead, trail = newline + indent, newline + spans.key_indent
    out = [text[: spans.open + 1], lead]
    for position, (item, _) in enumerate(items):
        if position:
            previous = items[position - 1][1]
            if previous is not None and previous + 1 < len(spans.entries):
                out.append(text[spans.entries[previous][1] : spans.entries[previous + 1][0]])
            else:
                out.append(separator)
        out.append(item)
    out += [trail, text[spans.close :]]
    return "".join(out)


def set_top_level(text: str, values: Mapping[str, str]) -> str:
    """``text`` (a manifest :func:`~_conflict_gate.manifest.read.read_manifest` accepted) with each top-level
    key of ``values`` set to its string: a key present has its value replaced in place, a key absent is
    written before the ``documents`` key, on a line of its own when that key starts one (indented as it
    is). Every other byte stays. ``ValueError`` when the text is not one top-level object with
    ``documents``."""
    at = _skip(text, 1 if text.startswith("\ufeff") else 0)
    if not text.startswith("{", at):
        raise ValueError("the manifest is not a JSON object")
    at = _skip(text, at + 1)
    found: dict[str, tuple[int, int]] = {}
    documents = -1
    while not text.startswith("}", at):
        key_start = at
        key, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at)
        if not text.startswith(":", at):
            raise ValueError("expected ':'")
        at = _skip(text, at + 1)
        value_start = at
        _, at = _DECODER.raw_decode(text, at)
        if key == "documents":
            documents = key_start
        elif key in values:
            found[key] = (value_start, at)
        at = _skip(text, at)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
    if documents < 0:
        raise ValueError("the manifest has no 'documents'")
    line_start = text.rfind("\n", 0, documents) + 1
    indent = text[line_start:documents]
    newline = "\r\n" if "\r\n" in text else "\n"
    separator = f",{newline}{indent}" if not indent.strip() else ", "
    added = "".join(
        f"{json.dumps(key)}: {json.dumps(value)}{separator}" for key, value in values.items() if key not in found
    )
    edits = sorted(
        [(start, end, json.dumps(values[key])) for key, (start, end) in found.items()] + [(documents, documents, added)]
    )
    parts, last = [], 0
    for start, end, new in edits:
        parts += [text[last:start], new]
        last = end
    return "".join(parts) + text[last:]
