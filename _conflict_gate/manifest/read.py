"""Manifest JSON -> a validated :class:`Manifest`: grammar, version scheme and entries.

A manifest is one JSON object::

    {"grammar": {...},                       # see grammar.grammar_from_json
     "version_scheme": "semver",             # one of VERSION_SCHEMES
     "renderer": "github",                   # optional; one of RENDERERS (default portable)
     "sources": {"include": ["{version}/**"], "exclude": []},   # optional; see sources.py
     "documents": [{"source_id": "guide", "version": "1.2.0", "path": "guide.md",
                    "url": "https://...", "status": "approved", "sha256": "<64 hex>"}]}

``url`` and ``status`` may be omitted (no URL; ``approved``); so may
``renderer``, how the site renders its pages (:mod:`~_conflict_gate.reading.renderers`;
absent, ``portable``), and ``sources``, the patterns saying which files under the manifest's folder are
its pages (``init --update``, ``pin --check`` and ``audit`` read them; see
:mod:`~_conflict_gate.manifest.sources`). Paths are
relative to the folder that holds the manifest file (its real location when
the manifest is reached through a symlink), so ``gate``, ``audit`` and ``pin``
all read the same files. This module reads the manifest only: it opens no
source (see :mod:`_conflict_gate.corpus.load`).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ..base.errors import IngestionError, printable
from ..base.files import read_capped
from ..base.jsondata import JsonProblem, canonical_json, json_pointer, parse_strict
from ..base.registry import DEFAULT_RENDERER, DEFAULT_STATUS, MAX_MANIFEST_BYTES, PAGE_STATUSES, RENDERERS
from .grammar import Grammar, grammar_from_json
from .sources import Sources, SourcesProblem, sources_from_json

if TYPE_CHECKING:  # the renderer's value is built when a page is read (Manifest.renderer): no reading module here
    from ..reading.renderers import Renderer

__all__ = [
    "ENTRY_FIELDS",
    "SOURCE_ID",
    "VERSION_SCHEMES",
    "Entry",
    "Manifest",
    "VersionScheme",
    "check_relative_path",
    "read_manifest",
]

#: The fields of one manifest entry, in the order ``init`` writes them; ``url`` and ``status`` are optional.
ENTRY_FIELDS: Final = ("source_id", "version", "path", "url", "status", "sha256", "built")
_REQUIRED: Final = ("source_id", "version", "path", "sha256")
_FIELD_SET: Final = frozenset(ENTRY_FIELDS)
_TOP_LEVEL: Final = ("grammar", "version_scheme", "renderer", "sources", "readings", "readings_sha256", "documents")
#: The top-level keys a manifest may leave out.
_OPTIONAL_TOP_LEVEL: Final = frozenset({"renderer", "sources", "readings", "readings_sha256"})
#: Source ids: ASCII letters, digits, ``.``, ``_``, ``-``, ``/``; a letter or digit first; at most 200.
#: No ``:``, space or bracket, so a citation ``[source: id:line]`` is never ambiguous.
SOURCE_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/\-]{0,199}")
_SHA256_HEX: Final = re.compile(r"[0-9a-f]{64}")
#: A URL: 1-2048 printable characters, no whitespace.
_URL: Final = re.compile(r"[^\s\x00-\x1f\x7f-\x9f]{1,2048}")
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


# --------------------------------------------------------------------------
# version schemes


_NUMBER: Final = r"(?:0|[1-9][0-9]{0,17})"
_PRERELEASE_ID: Final = r"(?:0|[1-9][0-9]{0,17}|[0-9]*[A-Za-z\-][0-9A-Za-z\-]*)"


def _semver_key(version: str) -> tuple[Any, ...]:
    """SemVer 2.0 precedence (section 11): a pre-release sorts before its release."""
    core, _, pre = version.partition("-")
    numbers = tuple(int(part) for part in core.split("."))
    if not pre:
        return (*numbers, 1, ())
    return (*numbers, 0, tuple((0, int(i), "") if i.isdigit() else (1, 0, i) for i in pre.split(".")))


def _is_date(version: str) -> bool:
    import datetime  # only for a calver manifest

    try:
        datetime.date(int(version[:4]), int(version[5:7]), int(version[8:10]))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class VersionScheme:
    """How a manifest writes versions. Matching is always exact string equality.

    ``fits(version)`` says whether a version is well written; ``sort_key``
    orders versions for display only (never to pick one: there is no "latest"
    and no fallback).
    """

    name: str
    description: str
    examples: tuple[str, ...]
    pattern: re.Pattern[str]
    sort_key: Callable[[str], Any]
    extra_check: Callable[[str], bool] | None = None

    def fits(self, version: Any) -> bool:
        """True when ``version`` is a string written in this scheme."""
        return (
            isinstance(version, str)
            and self.pattern.fullmatch(version) is not None
            and (self.extra_check is None or self.extra_check(version))
        )

    def sorted(self, versions: Any) -> list[str]:
        """Distinct versions in this scheme's order (for messages and reports)."""
        return sorted(set(versions), key=self.sort_key)


#: name -> scheme. The README's version-scheme table is rendered from this.
VERSION_SCHEMES: Final[Mapping[str, VersionScheme]] = MappingProxyType(
    {
        scheme.name: scheme
        for scheme in (
            VersionScheme(
                "major.minor",
                "MAJOR.MINOR, ASCII digits, no leading zeros",
                ("1.0", "2.13"),
                re.compile(rf"{_NUMBER}\.{_NUMBER}"),
                lambda v: tuple(int(part) for part in v.split(".")),
            ),
            VersionScheme(
                "semver",
                "SemVer 2.0 MAJOR.MINOR.PATCH with an optional -prerelease "
                "(no +build: two builds of one version would not be equal strings)",
                ("1.0.0", "2.1.0-beta.2"),
                re.compile(rf"{_NUMBER}\.{_NUMBER}\.{_NUMBER}(?:-{_PRERELEASE_ID}(?:\.{_PRERELEASE_ID})*)?"),
                _semver_key,
            ),
            VersionScheme(
                "calver",
                "a real calendar date YYYY-MM-DD",
                ("2024-06-01",),
                re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}"),
                str,
                _is_date,
            ),
            VersionScheme(
                "label",
                "ASCII letters, digits, '.', '-', '_' (a letter or digit first); equality only",
                ("v2", "stable", "2.1-beta"),
                re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"),
                str,
            ),
        )
    }
)


# --------------------------------------------------------------------------
# the manifest


class Entry(NamedTuple):
    """One manifest entry, checked. ``url`` is ``None`` when omitted; ``status`` defaults to ``approved``.

    ``written`` names the keys the entry was written with, sorted (the
    values are the fields above, exactly as written): :attr:`document_revision`
    hashes that object, so an edited entry is a new revision. (A tuple shared
    by every entry written alike, not the entry's own dict: a corpus keeps
    each page's strings once.)
    """

    source_id: str
    version: str
    path: str
    url: str | None
    status: str
    sha256: str
    written: tuple[str, ...]
    position: int = 0  # index in "documents", for error locations
    #: the page ``--site`` reads for this source, relative to the built site (``None``: found by the
    #: generator's conventions, :mod:`~_conflict_gate.site.build`)
    built: str | None = None

    @property
    def document_revision(self) -> str:
        """SHA-256 (hex) of the entry as written, in canonical JSON (sorted keys, no spaces, UTF-8)."""
        written = {key: getattr(self, key) for key in self.written}
        return hashlib.sha256(canonical_json(written).encode("utf-8")).hexdigest()


_KEY_SETS: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}  # each set of keys an entry is written with, once


def _keys_of(entry: Iterable[str]) -> tuple[str, ...]:
    keys = tuple(sorted(entry))
    return _KEY_SETS.setdefault(keys, keys)


@dataclass(frozen=True)
class Manifest:
    """A checked manifest: where it is, its grammar, its version scheme and its entries.

    ``path`` is the manifest path as given; ``real_path`` the file it names
    (symlinks followed; ``pin`` writes there); ``root`` the real folder that
    holds it, to which every entry path is relative. ``sources`` is the
    checked ``"sources"`` key, ``None`` when the manifest has none.
    ``renderer_name`` is how the site renders its pages (the ``"renderer"`` key,
    :data:`~_conflict_gate.base.registry.DEFAULT_RENDERER` when absent); the corpus reads every page by
    its value, :attr:`renderer`.
    """

    path: str
    real_path: str
    root: str
    grammar: Grammar
    version_scheme: VersionScheme
    entries: tuple[Entry, ...]
    sources: Sources | None = None
    renderer_name: str = DEFAULT_RENDERER
    #: the recorded readings file (``"readings"``, relative to :attr:`root`; ``None``: none) and its pin
    #: (``"readings_sha256"``; ``""``: not pinned yet), :mod:`~_conflict_gate.corpus.recorded`
    readings: str | None = None
    readings_sha256: str = ""

    @cached_property
    def renderer(self) -> Renderer:
        """The value of :attr:`renderer_name` (:func:`~_conflict_gate.reading.renderers.renderer_named`: built,
        with its own reading modules, when first asked for)."""
        from ..reading.renderers import renderer_named

        return renderer_named(self.renderer_name)


def read_manifest(manifest_path: str | os.PathLike[str], *, require_pins: bool = True) -> Manifest:
    """Read and check a manifest; open no source.

    With ``require_pins=False`` (``pin`` uses it) an empty ``sha256`` means
    "not pinned yet". Raises :class:`GrammarError` for the grammar (see
    :func:`~_conflict_gate.manifest.grammar.grammar_from_json`) and :class:`IngestionError`
    for the rest, each naming the JSON pointer of the problem:
    ``manifest_unreadable``, ``manifest_not_utf8`` (with the byte offset),
    ``manifest_not_json`` (with line:column), ``invalid_manifest`` (JSON that
    Python cannot hold, repeated keys, unknown or missing keys, fields of the
    wrong type, lone surrogates), ``invalid_version_scheme``,
    ``invalid_renderer`` (a ``"renderer"`` that is not a name of
    :data:`~_conflict_gate.base.registry.RENDERERS`),
    ``invalid_source_id``, ``invalid_version``, ``invalid_status``,
    ``invalid_url``, ``invalid_sha256``, ``invalid_path`` (see
    :func:`check_relative_path`), ``duplicate_source_id`` and
    ``duplicate_path``, each with the JSON pointer of the entry's field
    (a repeated JSON key and JSON syntax errors give line:column or no
    location: Python's parser does not report more). A bad ``"sources"``
    (see :func:`~_conflict_gate.manifest.sources.sources_from_json`: its shape, a
    pattern that is not one, or one leading out of the folder) is
    ``invalid_manifest`` with the pointer of the pattern. Checks come in that
    order for the whole manifest (the renderer after the version scheme, then
    ``sources``), then entry by entry.
    """
    shown = os.fspath(manifest_path)
    real_path = os.path.realpath(shown)

    def unreadable(reason: str, detail: str) -> IngestionError:
        inside = os.path.join(shown, "manifest.json")
        if os.path.isdir(real_path) and os.path.isfile(inside):  # a docs folder named for its manifest
            detail = f"a folder, not a manifest file (did you mean {printable(inside)}?)"
        elif shown == "-" and reason == "source_missing":  # as --answer takes it; a manifest is a file
            detail = "file does not exist (a manifest is read from its file, never from standard input)"
        return IngestionError("manifest_unreadable", detail, path=shown)

    raw = read_capped(real_path, MAX_MANIFEST_BYTES, unreadable)
    data = _parse_json(raw, shown)

    def invalid(
        detail: str, *parts: str | int, reason: str = "invalid_manifest", source_id: str | None = None
    ) -> IngestionError:
        return IngestionError(reason, detail, path=shown, pointer=json_pointer(*parts), source_id=source_id)

    if not isinstance(data, dict):
        raise invalid("the manifest must be an object with grammar, version_scheme and documents")
    for key in data:
        if key not in _TOP_LEVEL:
            raise invalid(f"unknown top-level key {printable(repr(key))} (a manifest has {', '.join(_TOP_LEVEL)})", key)
    grammar = grammar_from_json(data.get("grammar"), path=shown)
    name = data.get("version_scheme")
    scheme = VERSION_SCHEMES.get(name) if isinstance(name, str) else None
    if scheme is None:
        got = data.get("version_scheme")
        raise invalid(
            f"version_scheme must be one of {', '.join(VERSION_SCHEMES)}, got {printable(repr(got))}",
            "version_scheme",
            reason="invalid_version_scheme",
        )
    renderer = DEFAULT_RENDERER
    if "renderer" in data:
        named = data["renderer"]
        if not isinstance(named, str) or named not in RENDERERS:
            raise invalid(
                f"renderer must be one of {', '.join(RENDERERS)} (how the site renders its pages; "
                f"leave it out for {DEFAULT_RENDERER}), got {printable(repr(named))}",
                "renderer",
                reason="invalid_renderer",
            )
        renderer = named
    sources = None
    if "sources" in data:
        try:
            sources = sources_from_json(data["sources"])
        except SourcesProblem as problem:
            raise invalid(problem.message, "sources", *problem.parts) from None
    readings, readings_sha256 = _readings_keys(data, require_pins, invalid)
    documents = data.get("documents")
    if not isinstance(documents, list):
        raise invalid("'documents' must be a list", "documents")
    entries = tuple(_check_entries(documents, scheme, require_pins, invalid))
    return Manifest(
        path=shown,
        real_path=real_path,
        root=os.path.dirname(real_path),
        grammar=grammar,
        version_scheme=scheme,
        entries=entries,
        sources=sources,
        renderer_name=renderer,
        readings=readings,
        readings_sha256=readings_sha256,
    )


def _readings_keys(
    data: dict[str, Any], require_pins: bool, invalid: Callable[..., IngestionError]
) -> tuple[str | None, str]:
    """The checked ``"readings"`` (a plain relative path, or ``None``) and ``"readings_sha256"`` (its pin;
    ``""`` only without ``require_pins``): both or neither."""
    if "readings" not in data and "readings_sha256" not in data:
        return None, ""
    for key in ("readings", "readings_sha256"):
        if key not in data:
            raise invalid(
                f'{key!r} is missing: "readings" and "readings_sha256" come together (pin --site writes both)', key
            )
        if not isinstance(data[key], str):
            raise invalid(f"{key} must be a string", key)
    path, digest = data["readings"], data["readings_sha256"]
    problem = check_relative_path(path)
    if problem:
        raise invalid(problem, "readings", reason="invalid_path")
    if not (_SHA256_HEX.fullmatch(digest) or (digest == "" and not require_pins)):
        raise invalid(
            f"readings_sha256 must be 64 lowercase hex characters, got {printable(repr(digest))}",
            "readings_sha256",
            reason="invalid_sha256",
        )
    return path, digest


def _parse_json(raw: bytes, shown: str) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("manifest_not_utf8", f"invalid UTF-8 at byte {error.start}", path=shown) from None
    try:
        return parse_strict(text)
    except JsonProblem as problem:
        if problem.kind in ("syntax", "constant"):
            raise IngestionError(
                "manifest_not_json", problem.message, path=shown, line=problem.line, column=problem.column
            ) from None
        message = {
            "duplicate_key": f"duplicate key {printable(repr(problem.key))}",
            "too_deep": "JSON nesting is too deep for a manifest",
        }.get(problem.kind, problem.message)
        raise IngestionError("invalid_manifest", message, path=shown) from None


#: A path :func:`check_relative_path` accepts, in one match: printable ASCII segments (no backslash),
#: none empty, ``.`` or ``..``.
_PLAIN_SEGMENT: Final = r"(?!\.\.?(?:/|\Z))[\x20-\x2e\x30-\x5b\x5d-\x7e]+"
_PLAIN_PATH: Final = re.compile(rf"{_PLAIN_SEGMENT}(?:/{_PLAIN_SEGMENT})*")


def _check_entries(
    documents: list[Any], scheme: VersionScheme, require_pins: bool, invalid: Callable[..., IngestionError]
) -> list[Entry]:
    """Every entry checked, as :class:`Entry` values; the first problem raises (in manifest order)."""
    entries = _all_plain(documents, scheme, require_pins)
    if entries is not None:
        return entries
    return _check_each(documents, scheme, require_pins, invalid)


def _all_plain(documents: list[Any], scheme: VersionScheme, require_pins: bool) -> list[Entry] | None:
    """The entries when each is plainly valid, checked column by column (a few C-level passes
    instead of Python per entry); ``None`` when any may be wrong, and :func:`_check_each`
    then finds and names the problem. Accepts only what :func:`_check_each` accepts.

    What is the same for many entries is checked once: each distinct key order (its keys, and the
    sorted tuple :attr:`Entry.written` shares), each distinct version; the digests and URLs are
    checked joined (a digest 64 characters of ``[0-9a-f]``; an ASCII URL of 1-2048 characters
    that are printable and not a space, which is what ``_URL`` and ``str.isprintable`` accept of
    ASCII: :func:`_visible_ascii_only`). The entries are built by ``map`` over the columns, without a Python frame per entry."""
    try:
        if set(map(type, documents)) - {dict}:
            return None
        orders = list(map(tuple, documents))  # each entry's keys, in the order written
        counts = Counter(orders)
        written = {}
        for order in counts:
            if not _FIELD_SET.issuperset(order) or "built" in order:
                return None  # ("built" is rare: such a manifest is checked entry by entry)
            written[order] = _keys_of(order)
        n = len(documents)
        ids = list(map(itemgetter("source_id"), documents))
        versions = list(map(sys.intern, map(itemgetter("version"), documents)))  # a corpus keeps each version once
        paths = list(map(itemgetter("path"), documents))
        digests = list(map(itemgetter("sha256"), documents))
        urls = list(map(dict.get, documents, repeat("url")))
        statuses = list(map(dict.get, documents, repeat("status"), repeat(DEFAULT_STATUS)))  # null: no str
        given_urls = [url for url in urls if url is not None]
        with_url = sum(count for order, count in counts.items() if "url" in order)
        joined_digests = "".join(digests)  # (TypeError for a digest that is no string)
        joined_urls = "".join(given_urls)
        plain = (
            all(map(SOURCE_ID.fullmatch, ids))
            and len(set(ids)) == n
            and all(scheme.fits(version) and version.isascii() for version in set(versions))
            and all(map(_PLAIN_PATH.fullmatch, paths))
            and len(set(paths)) == n
            and (
                (set(map(len, digests)) <= {64} and _hex_only(joined_digests))
                if require_pins
                else (set(map(len, digests)) <= {0, 64} and _hex_only(joined_digests))
            )
            and len(given_urls) == with_url  # a URL given as null is no string: checked entry by entry
            and _visible_ascii_only(joined_urls)
            and (not given_urls or (min(map(len, given_urls)) >= 1 and max(map(len, given_urls)) <= 2048))
            and all(type(status) is str and status in PAGE_STATUSES for status in set(statuses))
        )
    except (KeyError, TypeError):
        return None
    if not plain:
        return None
    new = tuple.__new__  # every field checked above: an Entry made without a Python-level constructor
    return list(
        map(
            new,
            repeat(Entry),
            zip(
                ids, versions, paths, urls, statuses, digests, map(written.__getitem__, orders), range(n), repeat(None)
            ),
        )
    )


def _hex_only(text: str) -> bool:
    """Whether ``text`` holds only lowercase hex digits (``""`` does)."""
    return text.isascii() and not text.encode("ascii").translate(None, b"0123456789abcdef")


#: The ASCII characters that are printable and not a space (``!`` to ``~``).
_VISIBLE_ASCII: Final = bytes(range(0x21, 0x7F))


def _visible_ascii_only(text: str) -> bool:
    """Whether ``text`` holds only ASCII characters that are printable and not a space (``""`` does): what
    ``str.isprintable`` and ``" " not in`` accept of ASCII, in one C-level pass (``isprintable`` looks each
    character up in the Unicode database: 5 ms over 10,000 URLs)."""
    return text.isascii() and not text.encode("ascii").translate(None, _VISIBLE_ASCII)


def _check_each(
    documents: list[Any], scheme: VersionScheme, require_pins: bool, invalid: Callable[..., IngestionError]
) -> list[Entry]:
    entries = []
    seen_ids: set[str] = set()
    seen_paths: dict[str, str] = {}
    for index, entry in enumerate(documents):
        where = ("documents", index)
        if not isinstance(entry, dict):
            raise invalid("an entry must be an object", *where)
        source_id = entry.get("source_id")
        named = source_id if isinstance(source_id, str) and SOURCE_ID.fullmatch(source_id) else None
        for key, value in entry.items():
            if key not in ENTRY_FIELDS:
                raise invalid(
                    f"unknown key {printable(repr(key))} (an entry has {', '.join(ENTRY_FIELDS)})",
                    *where,
                    key,
                    source_id=named,
                )
            if not isinstance(value, str):
                raise invalid(f"{key} must be a string", *where, key, source_id=named)
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise invalid(f"{key} holds a lone surrogate", *where, key, source_id=named) from None
        for key in _REQUIRED:
            if key not in entry:
                hint = ' (write "sha256": "" for a page not pinned yet: pin fills it in)' if key == "sha256" else ""
                raise invalid(f"missing {key!r}{hint}", *where, key, source_id=named)
        if named is None:
            raise invalid(
                f"source_id {printable(repr(source_id))} is not ASCII letters, digits, "
                "'.', '_', '-', '/' starting with a letter or digit (at most 200)",
                *where,
                "source_id",
                reason="invalid_source_id",
            )
        version = entry["version"]
        if not scheme.fits(version):
            raise invalid(
                f"version {printable(repr(version))} does not fit the version scheme "
                f"{scheme.name!r} ({scheme.description}; e.g. {', '.join(scheme.examples)})",
                *where,
                "version",
                reason="invalid_version",
                source_id=named,
            )
        status = entry.get("status", "approved")
        if status not in PAGE_STATUSES:
            raise invalid(
                f"status {printable(repr(status))} is not one of {', '.join(PAGE_STATUSES)}",
                *where,
                "status",
                reason="invalid_status",
                source_id=named,
            )
        url = entry.get("url")
        if url is not None and not (_URL.fullmatch(url) and url.isprintable()):
            raise invalid(
                "url must be 1-2048 printable characters without whitespace (omit it for none)",
                *where,
                "url",
                reason="invalid_url",
                source_id=named,
            )
        digest = entry["sha256"]
        if not (_SHA256_HEX.fullmatch(digest) or (digest == "" and not require_pins)):
            raise invalid(
                f"sha256 must be 64 lowercase hex characters, got {printable(repr(digest))}",
                *where,
                "sha256",
                reason="invalid_sha256",
                source_id=named,
            )
        path = entry["path"]
        problem = check_relative_path(path)
        if problem:
            raise invalid(problem, *where, "path", reason="invalid_path", source_id=named)
        built = entry.get("built")
        problem = check_relative_path(built) if built is not None else ""
        if problem:
            raise invalid(problem.replace("path", "built", 1), *where, "built", reason="invalid_path", source_id=named)
        if named in seen_ids:
            raise invalid("source_id is used twice", *where, "source_id", reason="duplicate_source_id", source_id=named)
        seen_ids.add(named)
        if path in seen_paths:
            raise invalid(
                f"path {printable(repr(path))} is also used by {seen_paths[path]!r}",
                *where,
                "path",
                reason="duplicate_path",
                source_id=named,
            )
        seen_paths[path] = named
        entries.append(Entry(named, version, path, url, status, digest, _keys_of(entry), index, built))
    return entries


def check_relative_path(path: str) -> str:
    """Why ``path`` is not a plain relative POSIX path, or ``""`` when it is one.

    Accepted: non-empty, relative, normalised (``posixpath.normpath(p) == p``),
    no ``..`` segment, no backslash, no control character. Never touches the disk.
    """
    if not path:
        return "path is empty"
    if "\\" in path:
        return "path contains a backslash"
    if _CONTROL.search(path):
        return "path contains a control character"
    if path.startswith("/"):
        return "path is absolute"
    if ".." in path.split("/"):
        return "path contains '..'"
    if posixpath.normpath(path) != path:
        return f"path is not normalised (expected {printable(repr(posixpath.normpath(path)))})"
    return ""
