"""Where a manifest's pages come from: path patterns and the ``"sources"`` key (no I/O).

One glob syntax serves ``init --version-from`` and the manifest's
``"sources": {"include": [...], "exclude": [...]}``. A pattern is matched
against a path relative to the manifest's folder, ``/``-separated,
case-sensitive, segment by segment:

* ``*`` matches any run of characters within one segment (none too);
* ``?`` matches one character within a segment;
* ``**``, a whole segment, matches any number of segments (none too); as the
  last segment it matches one or more, so ``docs/**`` is everything below
  ``docs``, never ``docs`` itself;
* ``{version}`` matches the non-empty rest of a segment between the literal
  text around it and is the page's version. An include pattern holds it
  exactly once, in a segment without ``*`` or ``?`` and after no ``**`` (so
  which segment is the version is never ambiguous); an exclude pattern holds
  it at most once, as a wildcard.

Everything else is literal. Refused (:func:`pattern_problem` says why): an
empty or over-long pattern, a control character, a backslash, a leading
``/``, an empty, ``.`` or ``..`` segment (a pattern never leads out of the
manifest's folder), ``[``, ``]`` and braces other than ``{version}`` (they are
not glob syntax here, and must not look as if they were), and ``**`` inside
a segment.

Matching is linear in the path: a segment is matched by one regular
expression that cannot backtrack across stars (the standard library's
:func:`fnmatch.translate`), and ``**`` by the greedy two-pointer walk over
segments, at most (pattern segments x path segments) segment tests.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

__all__ = [
    "MAX_PATTERNS",
    "MAX_PATTERN_CHARS",
    "PAGE_SUFFIXES",
    "Pattern",
    "Sources",
    "SourcesProblem",
    "pattern_problem",
    "sources_from_json",
]

#: File names read as pages (case-insensitive): Markdown, as CommonMark and GFM read it.
PAGE_SUFFIXES: Final = (".md", ".markdown")
#: The most characters in one pattern, and the most patterns in ``include`` or in ``exclude``.
MAX_PATTERN_CHARS: Final = 1000
MAX_PATTERNS: Final = 100
#: The keys of ``"sources"``; ``include`` is required.
SOURCES_KEYS: Final = ("include", "exclude")

_VERSION: Final = "{version}"
_ANY: Final = "**"
_WILD: Final = frozenset("*?")


@dataclass(frozen=True)
class _Segment:
    """One pattern segment: ``**`` (``any``), literal text, or a regular expression over one segment."""

    any: bool = False
    literal: str | None = None
    regex: re.Pattern[str] | None = None

    def test(self, part: str) -> re.Match[str] | bool | None:
        if self.literal is not None:
            return part == self.literal
        assert self.regex is not None
        return self.regex.match(part)


_ANY_SEGMENT: Final = _Segment(any=True)
_ONE_SEGMENT: Final = _Segment(regex=re.compile(fnmatch.translate("?*")))


@dataclass(frozen=True)
class Pattern:
    """A checked pattern (see the module docstring); build it with :meth:`parse`."""

    text: str
    segments: tuple[_Segment, ...]
    version_at: int | None  # index of the segment holding {version} in an include pattern

    @classmethod
    def parse(cls, text: str, *, include: bool) -> Pattern:
        """The pattern ``text``; ``ValueError`` with :func:`pattern_problem`'s words when it is refused."""
        problem = pattern_problem(text, include=include)
        if problem:
            raise ValueError(problem)
        parts = text.split("/")
        segments: list[_Segment] = []
        version_at = None
        for index, part in enumerate(parts):
            if part == _ANY:
                segments.append(_ANY_SEGMENT)
            elif include and _VERSION in part:
                before, _, after = part.partition(_VERSION)
                version_at = index
                segments.append(_Segment(regex=re.compile(f"(?s:{re.escape(before)}(.+){re.escape(after)})\\Z")))
            elif _WILD.isdisjoint(part) and _VERSION not in part:
                segments.append(_Segment(literal=part))
            else:  # an exclude's {version} is a non-empty wildcard: '?*'
                segments.append(_Segment(regex=re.compile(fnmatch.translate(part.replace(_VERSION, "?*")))))
        if parts[-1] == _ANY:  # a final ** is one or more segments
            segments.append(_ONE_SEGMENT)
        return cls(text, tuple(segments), version_at)

    @property
    def prefix(self) -> tuple[str, ...]:
        """The leading literal segments: the only folder under which the pattern can match."""
        fixed = []
        for segment in self.segments[:-1]:
            if segment.literal is None:
                break
            fixed.append(segment.literal)
        return tuple(fixed)

    def match(self, path: str) -> str | None:
        """The version (``""`` for a pattern without one) when ``path`` matches, else ``None``."""
        parts = path.split("/")
        start = 0
        version = ""
        if self.version_at is not None:
            start = self.version_at + 1
            if len(parts) < start:
                return None
            for segment, part in zip(self.segments[:start], parts):
                found = segment.test(part)
                if not found:
                    return None
            found = self.segments[self.version_at].test(parts[self.version_at])
            assert isinstance(found, re.Match)
            version = found.group(1)
        return version if _match_segments(self.segments[start:], parts[start:]) else None


def _match_segments(segments: Sequence[_Segment], parts: Sequence[str]) -> bool:
    """Do ``segments`` (``**`` any number of parts, every other one part) match ``parts``?

    The greedy walk with a return to the last ``**``: at most
    ``len(segments) * len(parts)`` segment tests, never exponential.
    """
    s = p = 0
    star, mark = -1, 0
    while p < len(parts):
        if s < len(segments) and segments[s].any:
            star, mark = s, p
            s += 1
        elif s < len(segments) and segments[s].test(parts[p]):
            s += 1
            p += 1
        elif star >= 0:
            mark += 1
            s, p = star + 1, mark
        else:
            return False
    return all(segment.any for segment in segments[s:])


def pattern_problem(text: str, *, include: bool) -> str:
    """Why ``text`` is not a pattern (an include pattern with ``include``), or ``""`` when it is one."""
    shown = repr(text) if text.isprintable() else ascii(text)
    if not text:
        return "is empty"
    if len(text) > MAX_PATTERN_CHARS:
        return f"is longer than {MAX_PATTERN_CHARS} characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return f"{shown} holds a lone surrogate"
    if not text.isprintable():
        return f"{shown} holds a control character"
    count = text.count(_VERSION)
    if include and count != 1:
        return f"must hold '{_VERSION}' once, got {shown}"
    if count > 1:
        return f"holds '{_VERSION}' more than once: {shown}"
    if "\\" in text:
        return f"{shown} holds a backslash (segments are separated by '/')"
    if text.startswith("/"):
        return f"{shown} is absolute: patterns are relative to the manifest's folder"
    rest = text.replace(_VERSION, "")
    for bad in "[]{}":
        if bad in rest:
            return f"{shown} holds {bad!r}, which is not glob syntax here (only *, **, ? and '{_VERSION}' are)"
    parts = text.split("/")
    for index, part in enumerate(parts):
        if part == "..":
            return f"{shown} leads outside the manifest's folder ('..')"
        if part in ("", "."):
            return f"{shown} is not normalised (an empty or '.' segment)"
        if _ANY in part and part != _ANY:
            return f"{shown}: '**' must be a whole segment (for instance '{{version}}/**/*.md')"
        if include and _VERSION in part:
            if not _WILD.isdisjoint(part.replace(_VERSION, "")):
                return f"{shown}: the segment holding '{_VERSION}' may hold no '*' or '?'"
            if _ANY in parts[:index]:
                return f"{shown}: '**' before '{_VERSION}' makes the version's segment ambiguous"
    return ""


class SourcesProblem(ValueError):
    """Why a ``"sources"`` value is refused: ``parts`` locate it under ``/sources`` (a JSON pointer)."""

    def __init__(self, message: str, *parts: str | int) -> None:
        super().__init__(message)
        self.message = message
        self.parts = parts


@dataclass(frozen=True)
class Sources:
    """The checked ``"sources"`` of a manifest: which paths under its folder are its pages.

    A path is a page's when it matches an ``include`` pattern (the first that
    matches gives the version) and no ``exclude`` pattern.
    """

    include: tuple[Pattern, ...]
    exclude: tuple[Pattern, ...] = ()

    def written(self) -> dict[str, list[str]]:
        """The value as the manifest writes it."""
        return {"include": [p.text for p in self.include], "exclude": [p.text for p in self.exclude]}

    def match(self, path: str) -> tuple[Literal["page", "excluded", "no_match"], str]:
        """``("page", version)``, ``("excluded", version)`` or ``("no_match", "")`` for a relative path."""
        for pattern in self.include:
            version = pattern.match(path)
            if version is not None:
                if any(p.match(path) is not None for p in self.exclude):
                    return "excluded", version
                return "page", version
        return "no_match", ""

    def id_base(self) -> tuple[str, ...]:
        """The literal folders every include pattern starts with: a page's source id is its path
        below them (``site/{version}/**`` gives ``1.0/intro`` for ``site/1.0/intro.md``)."""
        prefixes = [p.prefix for p in self.include]
        common: list[str] = []
        for parts in zip(*prefixes):
            if len(set(parts)) != 1:
                break
            common.append(parts[0])
        return tuple(common)

    def prefixes(self) -> list[tuple[str, ...]]:
        """The folders to walk: each include pattern's literal prefix, none below another."""
        found = sorted({p.prefix for p in self.include}, key=len)
        kept: list[tuple[str, ...]] = []
        for prefix in found:
            if not any(prefix[: len(k)] == k for k in kept):
                kept.append(prefix)
        return sorted(kept)


def sources_from_json(data: Any) -> Sources:
    """Check a manifest's ``"sources"`` value; raise :class:`SourcesProblem` (with the pointer's parts).

    The value is an object with ``include``, a non-empty list of include
    patterns, and optionally ``exclude``, a list of exclude patterns; at most
    :data:`MAX_PATTERNS` each, no pattern twice, no other key.
    """
    if not isinstance(data, dict):
        raise SourcesProblem('"sources" must be an object: {"include": [patterns], "exclude": [patterns]}')
    for key in data:
        if key not in SOURCES_KEYS:
            raise SourcesProblem(f'unknown key {key!r} in "sources" (it has {", ".join(SOURCES_KEYS)})', key)
    if "include" not in data:
        raise SourcesProblem('"sources" needs "include": a list of patterns holding {version}', "include")
    lists: dict[str, tuple[Pattern, ...]] = {}
    for key in SOURCES_KEYS:
        value = data.get(key, [])
        if not isinstance(value, list) or (key == "include" and not value):
            raise SourcesProblem(
                f"{key!r} must be a{' non-empty' if key == 'include' else ''} list of pattern strings", key
            )
        if len(value) > MAX_PATTERNS:
            raise SourcesProblem(f"{key!r} holds more than {MAX_PATTERNS} patterns", key)
        patterns = []
        for index, text in enumerate(value):
            if not isinstance(text, str):
                raise SourcesProblem(f"a pattern must be a string, got {type(text).__name__}", key, index)
            if text in value[:index]:
                raise SourcesProblem(f"pattern {text!r} is listed twice", key, index)
            try:
                patterns.append(Pattern.parse(text, include=key == "include"))
            except ValueError as error:
                raise SourcesProblem(f"{key} pattern {error}", key, index) from None
        lists[key] = tuple(patterns)
    return Sources(lists["include"], lists["exclude"])
