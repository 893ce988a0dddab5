"""The reading cache: what the reader found in a page, kept by content, so a page whose bytes are
unchanged is read and hashed but not parsed again (JSON only: never pickle or marshal).

An entry is the :class:`~_conflict_gate.reading.reading_shapes.Reading` of one page's bytes
(claims, refusal, near-misses, occurrences: the quote index is built from
them; the readings left out) and nothing else: the source id, path and messages are rebuilt on use,
so two pages with the same bytes share one entry. Its key is

* the page's digest (the SHA-256 of its raw bytes, as pinned), the entry's first item;
* a *context*, the section of the file the entry is in: the first 32 hex digits of the
  SHA-256 of the grammar (its canonical JSON), the renderer's name and the reader's
  fingerprint (:func:`reader_fingerprint`: the SHA-256 of the package's own source
  files, the reader's limits, the Python version and its Unicode database),

so a change to any of them is a miss. The file is a line naming its format,
then one line per section: its context, a checksum (SHA-256) of its entries'
text, and that text (a JSON array). A load parses and checks only its own
section's line (other readers', grammars' and renderers' sections, foreign or
stale, are kept as they are, never looked at): a section corrupted, truncated
or edited is ignored whole, as is a cache of another format (and a file that
is no reading cache is never overwritten). An entry names its own digest, so
entries moved about (swapped) are still found by what they name; an entry of
the wrong shape is a miss, whatever its checksum says. The cache
never changes a decision; a hit gives exactly the reading the reader gave.

Where it lives (:func:`cache_path`): one file per manifest (named by the
SHA-256 of the manifest's real path) in ``$CONFLICT_GATE_CACHE`` when set
(``off`` turns the cache off), else ``$XDG_CACHE_HOME/conflict-gate/``
(``~/.cache/conflict-gate/``) on Linux and other POSIX systems,
``~/Library/Caches/conflict-gate/`` on macOS, ``%LOCALAPPDATA%\\conflict-gate\\``
on Windows; or the one file a caller names. It is used only when its folder
and file belong to the user running the gate and are not writable by group
or others (on POSIX; otherwise ignored, with one warning); written
atomically (a temporary file in the same folder, then ``os.replace``), so
concurrent writers never leave a torn file (the last one's entries win);
bounded to :data:`MAX_CACHE_BYTES`. A failed write is one warning, never an
error. The threat model is ``reference/cache.md``'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final

from ..base.errors import DirectiveError
from ..base.jsondata import canonical_json
from ..base.registry import MAX_LEAF_LINES, MAX_SOURCE_BYTES, RENDERERS
from ..manifest.grammar import Grammar
from ..reading.candidates import MAX_CANDIDATES, MAX_OCCURRENCE_CHARS
from ..reading.inline_spans import MAX_NESTING
from ..reading.reading_shapes import MAX_BLOCK_BYTES, MAX_NEAR_MISSES, Claim, LeftOut, NearMiss, Reading

__all__ = [
    "CACHE_ENV",
    "CACHE_FORMAT",
    "MAX_CACHE_BYTES",
    "MAX_ENTRY_BYTES",
    "MAX_SECTIONS",
    "ReadingCache",
    "cache_folder",
    "cache_path",
    "decode_reading",
    "encode_reading",
    "reader_fingerprint",
]

#: The environment variable naming the cache's folder (``off``: no cache).
CACHE_ENV: Final = "CONFLICT_GATE_CACHE"
#: The ``"format"`` of a cache file; a file with another is not read.
CACHE_FORMAT: Final = "conflict-gate reading cache 4"
#: A cache file is never written larger than this; the entries of the load that writes it come first.
MAX_CACHE_BYTES: Final = 64 << 20
#: An entry whose text is longer than this is not stored (its page is read again next time).
MAX_ENTRY_BYTES: Final = 256 << 10
#: A cache file holds at most this many sections: the load's own, then the others most recently written.
MAX_SECTIONS: Final = 8
#: A cache file larger than this is not read.
_READ_LIMIT: Final = MAX_CACHE_BYTES + (1 << 20)

Warn = Callable[[str], None]


def cache_folder(environ: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """The default cache folder for ``environ`` (``None``: no cache, ``CONFLICT_GATE_CACHE=off``, or no
    home folder known)."""
    named = environ.get(CACHE_ENV, "")
    if named:
        return None if named == "off" else os.path.abspath(named)
    if platform == "win32":
        base = environ.get("LOCALAPPDATA", "")
        return os.path.join(base, "conflict-gate") if base else None
    home = environ.get("HOME", "")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "conflict-gate") if home else None
    xdg = environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):  # the XDG spec: a relative value is ignored
        return os.path.join(xdg, "conflict-gate")
    return os.path.join(home, ".cache", "conflict-gate") if home else None


def cache_path(manifest_real_path: str, cache: object, environ: Mapping[str, str]) -> str | None:
    """The cache file a load uses: ``cache`` ``None`` -> the default folder's file for this manifest,
    ``False`` -> none, a path -> that file."""
    if cache is False:
        return None
    if cache is None:
        folder = cache_folder(environ)
        if folder is None:
            return None
        name = hashlib.sha256(os.fsencode(manifest_real_path)).hexdigest()[:32]
        return os.path.join(folder, f"readings-{name}.json")
    if isinstance(cache, (str, os.PathLike)):
        return os.path.abspath(os.fspath(cache))
    raise TypeError(f"cache must be None, False or a path, got {type(cache).__name__}")


#: What the reader's output depends on besides its source files: its limits, and the Python and
#: Unicode versions its character classes and NFKC come from.
def _limits() -> dict[str, Any]:
    return {
        "MAX_NEAR_MISSES": MAX_NEAR_MISSES,
        "MAX_CANDIDATES": MAX_CANDIDATES,
        "MAX_BLOCK_BYTES": MAX_BLOCK_BYTES,
        "MAX_OCCURRENCE_CHARS": MAX_OCCURRENCE_CHARS,
        "MAX_LEAF_LINES": MAX_LEAF_LINES,
        "MAX_NESTING": MAX_NESTING,
        "MAX_SOURCE_BYTES": MAX_SOURCE_BYTES,
        "python": list(sys.version_info[:2]),
        "unicode": unicodedata.unidata_version,
        "format": CACHE_FORMAT,
    }


#: The package's folder, wherever this module sits in it (one folder up per dot after the first).
def _package_folder() -> str:
    folder = os.path.realpath(__file__)
    for _ in range(__name__.count(".")):
        folder = os.path.dirname(folder)
    return folder


_PACKAGE = _package_folder()


@cache
def reader_fingerprint(package: str = _PACKAGE) -> str | None:
    """SHA-256 (hex) of every Python source file of the package (its relative path and bytes, in
    sorted order) and of the reader's limits: any change to the code that reads pages changes it.
    ``None`` when a file cannot be read (then there is no cache). Computed once per process."""
    from pathlib import Path  # (only with a cache: pathlib imports urllib.parse)

    digest = hashlib.sha256(canonical_json(_limits()).encode("utf-8"))
    try:
        files = sorted(p for p in Path(package).rglob("*.py") if "__pycache__" not in p.parts)
        for path in files:
            digest.update(f"\0{path.relative_to(package).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest() if files else None


def context_of(grammar: Grammar, renderer_name: str, fingerprint: str) -> str:
    """What every entry of one load shares, the name of its section of the file: the SHA-256 (hex, first
    32 digits) of the grammar's canonical JSON, the renderer's name and the reader's fingerprint."""
    data = canonical_json({"grammar": grammar.summary(), "renderer": renderer_name, "reader": fingerprint})
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:32]


# --------------------------------------------------------------------------
# Entries: a reading as JSON data, without source id or path


def encode_reading(reading: Reading) -> list[Any]:
    """``reading`` as JSON data: ``[claims, refusal, near-misses, occurrences, left out]`` (the refusal
    ``[reason, detail, quote, line, column]`` or ``null``; an occurrence that is a claim's quote, as
    most are, is that claim's index; a reading left out ``[reading, line, why]``), nothing naming the
    source. A cache entry puts the page's digest first."""
    refusal = reading.refusal
    quotes = {claim.quote: index for index, claim in enumerate(reading.claims)}
    return [
        [list(claim) for claim in reading.claims],
        None if refusal is None else [refusal.reason, refusal.detail, refusal.quote, refusal.line, refusal.column],
        [list(miss) for miss in reading.near_misses],
        [quotes.get(text, text) for text in reading.occurrences],
        [list(out) for out in reading.left_out],
    ]


def decode_reading(data: Any, source_id: str | None, path: str | None) -> Reading:
    """The :class:`Reading` :func:`encode_reading` gave ``data`` for, its refusal naming ``source_id``
    and ``path``; its names, values and quotes interned, as the reader's are. Raises ``ValueError``,
    ``TypeError`` or ``IndexError`` on data of another shape: lists of the right lengths, text where
    there is text, non-negative integers (never a bool or a float) where there are numbers. (The
    section's checksum tells damage apart; the shape is checked whatever the checksum says, so an
    entry no reader wrote is a miss, never a traceback.)"""
    claims_data, refusal_data, near_data, occurrences_data, left_data = data
    if (
        type(claims_data) is not list
        or type(near_data) is not list
        or type(occurrences_data) is not list
        or type(left_data) is not list
    ):
        raise ValueError("not an entry")
    intern = sys.intern
    claims = []
    for claim in claims_data:
        if type(claim) is not list or len(claim) != 9:
            raise ValueError("not a claim")
        operation, key, value, line, start, end, byte_start, byte_end, quote = claim
        if not (
            type(operation) is str
            and type(key) is str
            and type(value) is str
            and type(quote) is str
            and type(line) is int
            and type(start) is int
            and type(end) is int
            and type(byte_start) is int
            and type(byte_end) is int
            and line > 0
            and 0 <= start <= end
            and 0 <= byte_start <= byte_end
        ):
            raise ValueError("not a claim")
        claims.append(
            _new(
                Claim,
                (intern(operation), intern(key), intern(value), line, start, end, byte_start, byte_end, intern(quote)),
            )
        )
    refusal = None
    if refusal_data is not None:
        reason, detail, quote, line, column = refusal_data
        if (
            type(reason) is not str
            or reason not in DirectiveError.reasons
            or type(detail) is not str
            or type(quote) is not str
        ):
            raise ValueError("not a refusal")
        refusal = DirectiveError(
            reason,
            detail,
            quote=quote,
            source_id=source_id,
            path=path,
            line=_optional_int(line),
            column=_optional_int(column),
        )
    near = decode_near_misses(near_data)
    occurrences = tuple(
        [claims[text].quote if type(text) is int and text >= 0 else intern(text) for text in occurrences_data]
    )
    left_out = []
    for out in left_data:
        if type(out) is not list or len(out) != 3:
            raise ValueError("not a reading left out")
        name, line, why = out
        if not (type(name) is str and name in RENDERERS and type(line) is int and line > 0 and type(why) is str):
            raise ValueError("not a reading left out")
        left_out.append(_new(LeftOut, (intern(name), line, why)))
    return Reading(tuple(claims), refusal, tuple(near), occurrences, tuple(left_out))


def decode_near_misses(near_data: list[Any]) -> list[NearMiss]:
    """The near-misses of an encoded reading (``[line, column, where, quote]`` each: positive integers,
    text), their text interned; raises ``ValueError`` on data of another shape."""
    intern = sys.intern
    near = []
    for miss in near_data:
        if type(miss) is not list or len(miss) != 4:
            raise ValueError("not a near-miss")
        line, column, where, quote = miss
        if not (
            type(line) is int
            and type(column) is int
            and line > 0
            and column > 0
            and type(where) is str
            and type(quote) is str
        ):
            raise ValueError("not a near-miss")
        near.append(_new(NearMiss, (line, column, intern(where), intern(quote))))
    return near


#: A claim or near-miss made from its fields, checked above, without a Python-level constructor.
_new: Final = tuple.__new__


def _optional_int(value: Any) -> int | None:
    if value is not None and (type(value) is not int or value < 1):
        raise ValueError("not a line or column")
    return value


#: A cache file is this line, then one line per section: its context, a tab, the SHA-256 (hex) of its
#: entries' text, a tab, that text (a JSON array of entries, each ``[digest, *encoded reading]``) and
#: ``\n``. JSON holds no raw newline, so a line is a section; a load parses and checks only its own.
_HEAD: Final = (CACHE_FORMAT + "\n").encode("ascii")
_HEX: Final = frozenset(b"0123456789abcdef")
#: How a reading cache of any format starts (format 2 was one JSON object): only such a file is replaced.
_ANY_FORMAT: Final = re.compile(rb'(?:\{"format":")?conflict-gate reading cache [0-9]+(?:\n|",)')
#: A ``\u`` escape of a UTF-16 surrogate (an odd run of backslashes before the ``u``; an even one is
#: escaped backslashes, text): the writer never makes one (it escapes only control characters), and
#: a lone surrogate is text no page holds. Looked for only where ``\ud`` or ``\uD`` occurs at all
#: (a byte search): a pattern that starts with a lookbehind is tried at every byte of the section.
_SURROGATE_ESCAPE: Final = re.compile(rb"(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]")


class ReadingCache:
    """One cache file, read once when opened and written at most once (:meth:`save`).

    ``get`` and ``put`` take a page's digest; ``context`` is the section every
    page of the load is in. ``warn`` receives each warning (one line). Open it
    with :meth:`open`.
    """

    def __init__(self, path: str, context: str, warn: Warn, limit: int = MAX_CACHE_BYTES) -> None:
        self.path = path
        self.limit = limit  # the file is never written larger than this (bytes of its sections)
        self.context = context
        self.warn = warn
        self.usable = True  # False: the file or folder is not trusted, or there is no fingerprint
        self._stored: dict[str, Any] = {}  # digest -> entry of this load's section, as read
        self._others: list[bytes] = []  # the other sections' lines, as read (never parsed here)
        self._used: dict[str, list[Any]] = {}  # digest -> entry: hits and new entries, in load order
        self._changed = False
        self.hits = self.misses = 0

    @classmethod
    def open(
        cls, path: str, grammar: Grammar, renderer_name: str, warn: Warn, limit: int = MAX_CACHE_BYTES
    ) -> ReadingCache:
        """The cache in ``path`` for pages read with ``grammar`` and ``renderer_name``: its entries read
        if the file exists and is trusted (see the module docstring); empty otherwise. ``limit``: the
        most bytes of sections :meth:`save` writes."""
        fingerprint = reader_fingerprint()
        cache = cls(path, context_of(grammar, renderer_name, fingerprint or ""), warn, limit)
        if fingerprint is None:
            cache.usable = False
            return cache
        problem = _untrusted(os.path.dirname(path), must_exist=False)
        if problem is not None:
            cache.usable = False
            warn(f"reading cache not used: {problem}")
            return cache
        lines = cache._read()
        own = lines.pop(cache.context, None)
        entries = None if own is None else section_entries(own)
        if own is not None and entries is None:  # damaged, or not a list of entries: written anew
            cache._changed = True
        # an entry names its digest: moved about, it is still found by it; one of another shape is left out
        cache._stored = {
            entry[0]: entry for entry in entries or () if type(entry) is list and entry and type(entry[0]) is str
        }
        if len(cache._stored) != len(entries or ()):  # left out, or a digest twice: written anew
            cache._changed = True
        cache._others = list(lines.values())
        return cache

    def _read(self) -> dict[str, bytes]:
        # O_NONBLOCK: a FIFO at the path opens at once (and is then refused as no regular file)
        flags = (
            os.O_RDONLY
            | getattr(os, "O_NOFOLLOW", 0)
            | getattr(os, "O_CLOEXEC", 0)
            | getattr(os, "O_BINARY", 0)
            | getattr(os, "O_NONBLOCK", 0)
        )
        try:
            fd = os.open(self.path, flags)
        except FileNotFoundError:
            return {}
        except OSError as error:
            self.usable = False
            self.warn(f"reading cache not used: cannot open {_shown(self.path)}: {error.strerror}")
            return {}
        try:
            info = os.fstat(fd)
            problem = _untrusted_stat(info, f"file {_shown(self.path)}", folder=False)
            if problem is not None:
                self.usable = False
                self.warn(f"reading cache not used: {problem}")
                return {}
            chunks = []
            size = 0
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > _READ_LIMIT or info.st_size > _READ_LIMIT:  # too large to read: replaced, if a cache
                    return self._another(chunks[0])
        except OSError:
            return {}
        finally:
            os.close(fd)
        raw = b"".join(chunks)
        lines = section_lines(raw)
        return self._another(raw) if lines is None else lines

    def _another(self, raw: bytes) -> dict[str, bytes]:
        """No sections, for a file that is not a cache of this format and starts with ``raw``: a cache of
        another format (or an empty file) is written anew; somebody's file is never overwritten."""
        if raw and _ANY_FORMAT.match(raw) is None:
            self.usable = False
            self.warn(
                f"reading cache not used: {_shown(self.path)} is not a reading cache (name another file, or remove it)"
            )
        else:
            self._changed = True
        return {}

    def get(self, digest: str, source_id: str | None, path: str | None) -> Reading | None:
        """The reading of the page whose bytes have ``digest``, or ``None`` (a miss)."""
        if not self.usable:
            return None
        entry = self._stored.get(digest)
        if entry is None:
            entry = self._used.get(digest)
            if entry is None:
                self.misses += 1
                return None
        try:
            if len(entry) != 6:
                raise ValueError("not an entry")
            reading = decode_reading(entry[1:], source_id, path)
        except (ValueError, TypeError, IndexError):
            self.misses += 1
            self._changed = True  # an entry of another shape: dropped on save
            self._stored.pop(digest, None)
            return None
        self.hits += 1
        self._used[digest] = entry
        return reading

    def put(self, digest: str, reading: Reading) -> None:
        """Keep the reading of the page whose bytes have ``digest`` (unless it is too large)."""
        if not self.usable:
            return
        if sum(len(text) for text in reading.occurrences) > MAX_ENTRY_BYTES // 2:
            return
        self._used[digest] = [digest, *encode_reading(reading)]
        self._changed = True

    def save(self) -> None:
        """Write the file when an entry was added or found bad: this load's entries first, then the others
        of its section, then the other sections, up to :attr:`limit` bytes. A failure is one warning."""
        if not self.usable or not self._changed:
            return
        used = list(self._used.values())
        rest = [entry for digest, entry in self._stored.items() if digest not in self._used]
        content = _bounded(self.limit, self.context, used, rest, self._others)
        folder = os.path.dirname(self.path)
        tmp = None
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            problem = _untrusted(folder, must_exist=True)
            if problem is not None:
                self.warn(f"reading cache not written: {problem}")
                return
            import secrets  # (base64, hmac, random: only when the cache is written)

            tmp = os.path.join(folder, f".{os.path.basename(self.path)}.{secrets.token_hex(6)}.tmp")
            flags = (
                os.O_WRONLY
                | os.O_CREAT
                | os.O_EXCL
                | getattr(os, "O_NOFOLLOW", 0)
                | getattr(os, "O_CLOEXEC", 0)
                | getattr(os, "O_BINARY", 0)
            )
            fd = os.open(tmp, flags, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(tmp, self.path)
            tmp = None
        except OSError as error:
            self.warn(f"reading cache not written: {_shown(self.path)}: {error.strerror or error}")
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        self._changed = False

    def close(self) -> None:
        """Let go of the entries read and made (:meth:`save` first to keep them): a load closes its cache
        before collection resumes, so no collection walks its lists."""
        self._stored, self._others, self._used = {}, [], {}
        self.usable = False


def _entry_text(entry: list[Any]) -> bytes | None:
    """The entry as JSON text, or ``None`` when it holds text no page holds (a lone surrogate): not stored."""
    try:
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return None


def _section(context: str, texts: list[bytes]) -> bytes:
    """One section's line: context, checksum and the entries' texts as a JSON array, tab-separated,
    ending in a newline."""
    text = b"[" + b",".join(texts) + b"]"
    return context.encode("ascii") + b"\t" + hashlib.sha256(text).hexdigest().encode("ascii") + b"\t" + text + b"\n"


def _bounded(limit: int, context: str, used: list[list[Any]], rest: list[list[Any]], others: list[bytes]) -> bytes:
    """The file's content within ``limit`` bytes of sections: this load's entries (none if they alone
    exceed it), then the older entries of its section while they fit, then the other sections, whole,
    in the order they were in (the most recently written first), while they fit, at most
    :data:`MAX_SECTIONS` in all."""
    texts = [text for text in map(_entry_text, used) if text is not None]
    size = 32 + 1 + 64 + 1 + 2 + 1 + sum(len(text) + 1 for text in texts)  # context, tabs, brackets, newline, commas
    if size > limit:
        return _HEAD
    for entry in rest:
        text = _entry_text(entry)
        if text is None:
            continue
        if size + len(text) + 1 > limit:
            break
        texts.append(text)
        size += len(text) + 1
    parts = [_HEAD, _section(context, texts)]
    for other in others[: MAX_SECTIONS - 1]:
        if size + len(other) + 1 > limit:
            break
        parts.append(other + b"\n")
        size += len(other) + 1
    return b"".join(parts)


def section_lines(raw: bytes) -> dict[str, bytes] | None:
    """The sections of a cache file's bytes, each line by its context, unchecked (a line of another
    shape, such as a truncated last one, is left out); ``None`` when the file is not a cache of this
    format."""
    if not raw.startswith(_HEAD):
        return None
    lines: dict[str, bytes] = {}
    for line in raw[len(_HEAD) :].split(b"\n")[:-1]:  # the last piece follows the last newline: empty if whole
        if (
            len(line) > 98
            and line[32:33] == b"\t"
            and line[97:98] == b"\t"
            and _HEX.issuperset(line[:32])
            and _HEX.issuperset(line[33:97])
        ):
            lines.setdefault(line[:32].decode("ascii"), line)
    return lines


def section_entries(line: bytes) -> list[Any] | None:
    """The entries of one section's line, or ``None`` when its checksum differs (a flipped byte, an
    edit) or it is not a JSON array."""
    text = line[98:]
    if hashlib.sha256(text).hexdigest().encode("ascii") != line[33:97]:
        return None
    if (b"\\ud" in text or b"\\uD" in text) and _SURROGATE_ESCAPE.search(text):
        return None
    try:
        entries = json.loads(text.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):  # UnicodeDecodeError (a raw surrogate, bad UTF-8) is a ValueError
        return None
    return entries if isinstance(entries, list) else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_cache_file(raw: bytes) -> dict[str, Any] | None:
    """Every whole, unaltered section of a cache file's bytes (context -> entries), or ``None`` when the
    file is not a cache of this format. (A load reads only its own section: :func:`section_lines`.)"""
    lines = section_lines(raw)
    if lines is None:
        return None
    sections = {context: section_entries(line) for context, line in lines.items()}
    return {context: entries for context, entries in sections.items() if entries is not None}


def _shown(path: str) -> str:
    from ..base.errors import printable

    return printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


def _untrusted(folder: str, *, must_exist: bool) -> str | None:
    """Why the cache folder ``folder`` must not be used, or ``None`` (also when it does not exist yet,
    unless ``must_exist``)."""
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        return f"folder {_shown(folder)} does not exist" if must_exist else None
    except OSError as error:
        return f"cannot open folder {_shown(folder)}: {error.strerror}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{_shown(folder)} is not a folder"
    return _untrusted_stat(info, f"folder {_shown(folder)}", folder=True)


def _untrusted_stat(info: os.stat_result, what: str, *, folder: bool) -> str | None:
    if not folder and not stat.S_ISREG(info.st_mode):
        return f"{what} is not a regular file"
    if os.name != "posix":  # Windows: %LOCALAPPDATA% is the user's own (no owner or mode bits to check)
        return None
    if info.st_uid != os.geteuid():
        return f"{what} belongs to another user"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{what} is writable by group or others"
    return None
