"""Load a manifest of pinned sources into a verified, immutable corpus.

Flow: manifest JSON -> validated entries -> each source read once, its raw bytes
hashed (SHA-256) and compared with the pin, then decoded as strict UTF-8 and
scanned for directive lines -> :class:`Corpus`.

What this module refuses to do (it fails closed with :class:`IngestionError`):

* open any file that is not named by the manifest, or that lies outside the
  manifest's folder (absolute paths, ``..``, backslashes, symlinks leading out);
* accept a source whose raw bytes do not match the pinned digest; bytes are
  never normalised (line endings, BOM) before hashing;
* decode anything but strict UTF-8;
* keep the whole text of a source: a :class:`Source` keeps its metadata, its
  digest and the lines that matter to decisions (directive lines, mentions).

Line rules (shared with the directive parser in ``conflict_gate``):

* A line ends at ``\\n``; a ``\\r`` just before it is not part of the line.
  Nothing else ends a line (unlike ``str.splitlines``). Lines are numbered
  from 1, columns count code points from 1.
* A leading UTF-8 BOM is not part of the text; the digest still covers it.
* Fenced code blocks follow CommonMark 0.31 section 4.5: an opening fence is
  0-3 spaces of indentation then at least three backticks or tildes (a backtick
  fence's info string may not contain a backtick); the closing fence uses the
  same character, at least as many of them, 0-3 spaces of indentation and only
  spaces or tabs after. An unclosed fence runs to the end of the document.
  Nothing inside a fence is a directive line.
* Outside fences, a line whose first non-blank character is ``@`` is a
  *directive line*. Blank is anything that looks empty to a reader (see
  :func:`_is_blank`), so a disguised directive is refused, not skipped.
* Fail closed where this model and a CommonMark reader could disagree: a lone
  ``\r`` (a line ending to CommonMark) starts a line for fences and for
  "first non-blank"; look-alike at signs, at signs written as entities, bidi
  overrides and markup that renders as nothing before a directive-shaped
  ``@`` make directive lines; and an ``@`` line inside a fence that is
  unclosed, or in a document whose fences are in doubt (lists, HTML blocks,
  front matter: :func:`_fences_in_doubt`), or inside an HTML code element,
  refuses its source instead of being hidden or counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import stat
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, Mapping, NamedTuple

__all__ = [
    "Corpus",
    "DirectiveLine",
    "INGESTION_REASONS",
    "IngestionError",
    "LocatedError",
    "MAX_SOURCE_BYTES",
    "MANIFEST_FIELDS",
    "Mention",
    "Source",
    "load_documents",
    "check_relative_path",
    "fence_ranges",
    "line_ending_hint",
    "located_message",
    "printable_path",
    "read_manifest",
    "read_source",
    "resolve_source_path",
    "scan_text",
    "source_digest",
]

#: Largest source file accepted, in bytes. Larger files are refused unread.
MAX_SOURCE_BYTES: Final = 16 * 1024 * 1024
#: Largest manifest file accepted, in bytes.
MAX_MANIFEST_BYTES: Final = 64 * 1024 * 1024

#: The fields of one manifest entry, in the order ``pin`` writes them.
MANIFEST_FIELDS: Final = ("source_id", "version", "path", "url", "sha256")
_TOP_LEVEL_KEYS: Final = frozenset({"documents"})
_SHA256_HEX: Final = re.compile(r"[0-9a-f]{64}")
_CANONICAL_JSON: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"),
                                          ensure_ascii=False).encode
#: Unicode category Cc, which is exactly C0, DEL and C1.
_CONTROL_CHARACTER: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_UTF8_BOM: Final = b"\xef\xbb\xbf"

#: Every reason an :class:`IngestionError` can carry, with what it means.
INGESTION_REASONS: Final[Mapping[str, str]] = MappingProxyType({
    "manifest_unreadable": "the manifest file is missing, not a regular file, unreadable or too large",
    "manifest_not_utf8": "the manifest is not valid UTF-8",
    "manifest_not_json": "the manifest is not valid JSON",
    "invalid_manifest": "the manifest does not have the documented shape",
    "invalid_sha256": "a pin is not 64 lowercase hexadecimal characters",
    "duplicate_source_id": "two manifest entries share a source_id",
    "duplicate_path": "two manifest entries name the same file",
    "invalid_path": "a path is empty, absolute, not normalised, or uses '..' or backslashes",
    "path_outside_root": "a path leads outside the manifest's folder (through a symlink)",
    "source_missing": "a source file does not exist",
    "source_not_regular_file": "a source path names a directory, device or other non-regular file",
    "source_unreadable": "a source file could not be read",
    "source_too_large": f"a source file is larger than {MAX_SOURCE_BYTES} bytes",
    "hash_mismatch": "a source's raw bytes do not match its pinned sha256",
    "source_not_utf8": "a source is not valid UTF-8",
})


class LocatedError(ValueError):
    """Base of the project's typed errors: a fixed ``reason`` and where it happened.

    Attributes: ``reason`` (a key of the subclass's ``reasons`` registry),
    ``detail`` (the message without its location), ``source_id``, ``path``
    (manifest-relative, as written), ``line`` and ``column`` (1-based; column
    in code points), each ``None`` when unknown. ``str(error)`` reads
    ``source 'id' (path:line:column): detail`` with whatever is known.
    """

    reasons: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init__(self, reason: str, detail: str, *, source_id: str | None = None,
                 path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        if reason not in self.reasons:
            raise AssertionError(f"unregistered {type(self).__name__} reason {reason!r}")
        self.reason = reason
        self.detail = detail
        self.source_id = source_id
        self.path = path
        self.line = line
        self.column = column
        super().__init__(located_message(detail, source_id, path, line, column))


class IngestionError(LocatedError):
    """A manifest or source could not be loaded and verified (reasons: :data:`INGESTION_REASONS`).

    ``line``/``column`` are set for JSON errors in the manifest.
    """

    reasons = INGESTION_REASONS


def printable_path(path: str) -> str:
    """``path`` with non-printable characters (newline, U+2028, lone surrogates) escaped.

    Used in every error message, so a message stays one printable line; the
    error's ``path`` attribute keeps the path as written.
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in path)


def located_message(detail: str, source_id: str | None, path: str | None,
            line: int | None, column: int | None) -> str:
    """Render ``"source S (path:line:col): detail"`` from whatever is known.

    Non-printable characters in the path (a newline, U+2028, a lone surrogate)
    are shown as escapes, so the message stays one printable line.
    """
    where = printable_path(path or "")
    if line is not None:
        where += f":{line}" + (f":{column}" if column is not None else "")
    parts = []
    if source_id is not None:
        parts.append(f"source {source_id!r}")
    if where:
        parts.append(f"({where})" if parts else where)
    return f"{' '.join(parts)}: {detail}" if parts else detail


@dataclass(frozen=True, slots=True)
class DirectiveLine:
    """A line whose first non-blank character is ``@``, outside fences (or in a fence in doubt).

    ``line`` is the 1-based editor line. ``start``/``end`` are code-point
    offsets into the decoded text (BOM excluded, end exclusive);
    ``byte_start``/``byte_end`` are offsets into the pinned raw bytes (BOM
    included). ``text`` is the line without its line ending:
    ``text == decoded[start:end] == raw[byte_start:byte_end].decode()``.
    """

    line: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    text: str
    #: True for an ``@`` line inside a fence that is unclosed or in doubt (see
    #: :func:`scan_text`): the parser refuses it whatever it says.
    fenced: bool = False


@dataclass(frozen=True, slots=True)
class Mention:
    """Directive-shaped ``@word `` text that is not a directive line: in a fence or mid-prose.

    Kept so an audit can point at text that looks like a directive but does
    not count. ``word`` is the identifier after ``@``; ``line``/``column`` are
    1-based (column in code points); ``in_fence`` tells which kind;
    ``quote`` is the line, cut after :data:`MENTION_QUOTE_LIMIT` code points
    (it always keeps at least half that limit after the ``@``).
    """

    word: str
    line: int
    column: int
    in_fence: bool
    quote: str


MENTION_QUOTE_LIMIT: Final = 160
#: At most this many mentions are kept per source, so hostile input cannot grow memory.
MAX_MENTIONS: Final = 100


@dataclass(frozen=True, slots=True)
class Source:
    """One verified manifest source, without its full text.

    ``path`` is the manifest-relative path as written; ``sha256`` the verified
    digest of the raw bytes; ``size`` the raw size in bytes.
    """

    source_id: str
    version: str
    path: str
    url: str
    sha256: str
    size: int
    directive_lines: tuple[DirectiveLine, ...]
    mentions: tuple[Mention, ...]

    @property
    def document_revision(self) -> str:
        """SHA-256 (hex) of the source's manifest entry as canonical JSON.

        An edited manifest entry (version, URL, path or pin) is a different
        input revision even when the bytes are equal. Computed on use: only
        claims carry it, so loading does not pay for it.
        """
        entry = {key: getattr(self, key) for key in MANIFEST_FIELDS}
        return hashlib.sha256(_CANONICAL_JSON(entry).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Corpus:
    """A verified, immutable snapshot of every source in a manifest.

    ``sources`` maps source id to :class:`Source` in manifest order (read-only).
    ``parse_cache`` is owned by ``conflict_gate``: each source's directives are
    parsed at most once, on first use, and the outcome is kept there. It is the
    only mutable part and never changes what a source says.
    """

    manifest_path: str
    sources: Mapping[str, Source]
    parse_cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.sources)


# --------------------------------------------------------------------------
# manifest


def read_manifest(manifest_path: str | os.PathLike[str], *,
                  require_pins: bool = True) -> list[dict[str, str]]:
    """Read and validate a manifest's shape; open no source.

    Returns the entries as dicts with exactly :data:`MANIFEST_FIELDS`, in
    manifest order. With ``require_pins=False`` (used by ``pin``), an empty
    ``sha256`` is accepted as "not pinned yet".

    Refuses (:class:`IngestionError`): unreadable or non-UTF-8 files, invalid
    JSON (with line:column), JSON that Python cannot hold (nesting too deep,
    integers too long), unknown top-level or entry keys, missing or
    non-string fields, strings with lone surrogates (``\\ud800`` escapes),
    empty ``source_id``/``version``, malformed pins,
    unsafe paths (see :func:`check_relative_path`), duplicate source ids and
    duplicate paths. Paths are only checked as text here.
    """
    shown = os.fspath(manifest_path)
    # The manifest itself may be a symlink; only the sources are confined.
    raw = _read_capped(os.path.realpath(shown), MAX_MANIFEST_BYTES,
                       lambda reason, detail: IngestionError("manifest_unreadable", detail, path=shown))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("manifest_not_utf8", f"invalid UTF-8 at byte {error.start}",
                             path=shown) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise IngestionError("manifest_not_json", error.msg, path=shown,
                             line=error.lineno, column=error.colno) from None
    except _DuplicateKey as error:
        raise IngestionError("invalid_manifest", f"duplicate key {error.args[0]!r}",
                             path=shown) from None
    except RecursionError:
        raise IngestionError("invalid_manifest", "JSON nesting is too deep for a manifest",
                             path=shown) from None
    except ValueError as error:  # valid JSON Python refuses, e.g. an integer over 4300 digits
        raise IngestionError("invalid_manifest",
                             f"unsupported JSON value ({str(error).partition(':')[0]})",
                             path=shown) from None

    def invalid(detail: str, reason: str = "invalid_manifest", index: int | None = None,
                source_id: str | None = None) -> IngestionError:
        prefix = f"documents[{index}]: " if index is not None else ""
        return IngestionError(reason, prefix + detail, path=shown, source_id=source_id)

    if not isinstance(data, dict):
        raise invalid("top level must be an object with a 'documents' list")
    unknown = sorted(set(data) - _TOP_LEVEL_KEYS)
    if unknown:
        raise invalid(f"unknown top-level key {unknown[0]!r}")
    documents = data.get("documents")
    if not isinstance(documents, list):
        raise invalid("'documents' must be a list")

    entries: list[dict[str, str]] = []
    seen_ids: set[str] = set()
    seen_paths: dict[str, str] = {}
    for index, entry in enumerate(documents):
        if not isinstance(entry, dict):
            raise invalid("entry must be an object", index=index)
        source_id = entry.get("source_id") if isinstance(entry.get("source_id"), str) else None
        for key in entry:
            if key not in MANIFEST_FIELDS:
                raise invalid(f"unknown key {key!r}", index=index, source_id=source_id)
        for key in MANIFEST_FIELDS:
            if key not in entry:
                raise invalid(f"missing field {key!r}", index=index, source_id=source_id)
            if not isinstance(entry[key], str):
                raise invalid(f"field {key!r} must be a string", index=index, source_id=source_id)
            if not _is_unicode(entry[key]):
                raise invalid(f"field {key!r} contains a lone surrogate", index=index,
                              source_id=None if key == "source_id" else source_id)
        for key in ("source_id", "version"):
            if not entry[key]:
                raise invalid(f"field {key!r} must not be empty", index=index, source_id=source_id)
        digest = entry["sha256"]
        if not (_SHA256_HEX.fullmatch(digest) or (digest == "" and not require_pins)):
            raise invalid(f"sha256 must be 64 lowercase hex characters, got {digest!r}",
                          "invalid_sha256", index, source_id)
        check_relative_path(entry["path"], source_id=source_id, manifest=shown)
        if source_id in seen_ids:
            raise invalid("source_id is used twice", "duplicate_source_id", index, source_id)
        seen_ids.add(source_id)
        if entry["path"] in seen_paths:
            raise invalid(f"path {entry['path']!r} is also used by {seen_paths[entry['path']]!r}",
                          "duplicate_path", index, source_id)
        seen_paths[entry["path"]] = source_id
        entries.append({key: entry[key] for key in MANIFEST_FIELDS})
    return entries


class _DuplicateKey(Exception):
    pass


def _is_unicode(text: str) -> bool:
    """False if ``text`` holds a lone surrogate, which UTF-8 (and a file name) cannot carry."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON object hook: a repeated key is ambiguous, so it is refused."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def check_relative_path(path: str, *, source_id: str | None, manifest: str) -> None:
    """Refuse a manifest path that is not a plain relative POSIX path.

    Accepted: non-empty, relative, normalised (``posixpath.normpath(p) == p``),
    no ``..`` segment, no backslash, no NUL or other control character.
    Raises :class:`IngestionError` ``invalid_path``; never touches the disk.
    """
    problem = None
    if not path:
        problem = "path is empty"
    elif "\\" in path:
        problem = "path contains a backslash"
    elif _CONTROL_CHARACTER.search(path):
        problem = "path contains a control character"
    elif path.startswith("/"):
        problem = "path is absolute"
    elif ".." in path.split("/"):
        problem = "path contains '..'"
    elif posixpath.normpath(path) != path:
        problem = f"path is not normalised (expected {posixpath.normpath(path)!r})"
    if problem:
        raise IngestionError("invalid_path", problem, source_id=source_id, path=path or manifest)


def resolve_source_path(root: str, path: str, *, source_id: str | None = None) -> str:
    """Return the real path of ``root/path``, refusing anything outside ``root``.

    ``root`` must already be a real path (``os.path.realpath``). Symlinks are
    followed; if the result leaves ``root`` the source is refused with
    ``path_outside_root`` before it is opened, so nothing outside the root is
    read or hashed.
    """
    real = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([root, real]) != root:
        raise IngestionError("path_outside_root", "path leads outside the manifest's folder",
                             source_id=source_id, path=path)
    return real


def _read_capped(real_path: str, limit: int, error: Any) -> bytes:
    """Read a regular file once, refusing non-regular files and files over ``limit`` bytes.

    ``error(reason, detail)`` builds the exception to raise; reasons used are
    ``source_missing``, ``source_not_regular_file``, ``source_too_large`` and
    ``source_unreadable``.
    """
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(real_path, flags)
    except (FileNotFoundError, NotADirectoryError):
        raise error("source_missing", "file does not exist") from None
    except OSError as exc:
        if os.path.isdir(real_path):
            raise error("source_not_regular_file", "not a regular file") from None
        raise error("source_unreadable", f"cannot open: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error("source_not_regular_file", "not a regular file")
        if info.st_size > limit:
            raise error("source_too_large", f"{info.st_size} bytes is over the {limit}-byte limit")
        # One call reads the expected size plus one byte. No more than the
        # expected size means end of file (bytes cut short could only fail the
        # pin); one byte more means the file grew, so read on to the limit.
        data = os.read(fd, min(limit, info.st_size) + 1)
        if len(data) > info.st_size:
            chunks = [data]
            remaining = limit + 1 - len(data)
            while remaining > 0:
                chunk = os.read(fd, min(remaining, 1 << 16))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            data = b"".join(chunks)
    except OSError as exc:
        raise error("source_unreadable", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise error("source_too_large", f"file grew over the {limit}-byte limit while read")
    return data


def source_digest(raw: bytes) -> str:
    """Lowercase hex SHA-256 of the raw bytes, exactly as pinned."""
    return hashlib.sha256(raw).hexdigest()




# --------------------------------------------------------------------------
# loading


def load_documents(manifest_path: str | os.PathLike[str], *, workers: int = 1) -> Corpus:
    """Load, verify and scan every source of a manifest; return a :class:`Corpus`.

    Every source is read exactly once: the same bytes are hashed, compared with
    the pin, decoded and scanned. With ``workers`` > 1, that many threads read
    and hash each batch of sources in parallel (both release the GIL) while
    decoding and scanning stay in the calling thread; the result does not
    depend on it. Threads only pay when sources are large: for small files
    their hand-offs cost more than the hashing they overlap.

    Raises :class:`IngestionError` for the first problem in manifest order:
    everything :func:`read_manifest` refuses, then ``path_outside_root`` and
    ``duplicate_path`` (two entries reaching one file through a symlink or a
    hard link) before any source is opened, then per source ``source_missing``,
    ``source_not_regular_file``, ``source_unreadable``, ``source_too_large``,
    ``hash_mismatch`` (with a hint when only line endings differ) and
    ``source_not_utf8`` (with the byte offset of the first bad byte).
    Refuses to parse directives: that happens lazily in ``conflict_gate``.
    """
    shown = os.fspath(manifest_path)
    entries = read_manifest(shown)
    root = os.path.realpath(os.path.dirname(os.path.abspath(shown)))
    # Confinement is checked for every entry before any source is opened.
    resolved = _resolve_source_paths(root, entries)
    _refuse_shared_files(entries, resolved)
    jobs = [(entry, real) for entry, (real, _) in zip(entries, resolved)]
    if workers > 1 and len(jobs) > 1:
        # The threads read and hash a batch (both release the GIL) while this
        # thread waits; then this thread decodes and scans the batch alone, so
        # scanning never competes with the readers for the GIL.
        sources = []
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for first in range(0, len(jobs), _BATCH):
                batch = jobs[first:first + _BATCH]
                sources += map(_scan_source, batch, pool.map(_read_verified, batch))
    else:
        sources = [_scan_source(job, _read_verified(job)) for job in jobs]
    return Corpus(manifest_path=shown,
                  sources=MappingProxyType({s.source_id: s for s in sources}))


def _resolve_source_paths(root: str, entries: list[dict[str, str]]
                          ) -> list[tuple[str, os.stat_result | None]]:
    """:func:`resolve_source_path` for every entry, with the ``os.stat`` of each file.

    Same result and errors, in manifest order, but each folder is resolved
    once: per source only the last component is examined (one ``os.lstat``,
    which opens nothing), and a symlink there is resolved in full. The stat is
    ``None`` when the file cannot be stat'ed (:func:`read_source` reports it).
    """
    folders: dict[str, tuple[str, bool]] = {}  # folder -> (real path, inside root)
    resolved: list[tuple[str, os.stat_result | None]] = []
    for entry in entries:
        folder, name = posixpath.split(entry["path"])
        if folder not in folders:
            real_folder = os.path.realpath(os.path.join(root, folder))
            folders[folder] = (real_folder, os.path.commonpath([root, real_folder]) == root)
        real_folder, inside = folders[folder]
        real = os.path.join(real_folder, name)
        try:
            info: os.stat_result | None = os.lstat(real)
        except OSError:
            info = None
        if name in ("", ".", "..") or (info is not None and stat.S_ISLNK(info.st_mode)):
            real = resolve_source_path(root, entry["path"], source_id=entry["source_id"])
            try:
                info = os.stat(real)
            except OSError:
                info = None
        elif not inside:
            raise IngestionError("path_outside_root", "path leads outside the manifest's folder",
                                 source_id=entry["source_id"], path=entry["path"])
        resolved.append((real, info))
    return resolved


def _refuse_shared_files(entries: list[dict[str, str]],
                         resolved: list[tuple[str, os.stat_result | None]]) -> None:
    """Two entries reaching one file (via a symlink or a hard link) would count its claims twice.

    Compares real paths and, for regular files, ``(st_dev, st_ino)`` from the
    stat taken by :func:`_resolve_source_paths` (which opens nothing); a path
    that cannot be stat'ed is left for :func:`read_source` to report.
    """
    seen: dict[object, str] = {}
    for entry, (real, info) in zip(entries, resolved):
        keys: list[object] = [real]
        if info is not None and stat.S_ISREG(info.st_mode):
            keys.append((info.st_dev, info.st_ino))
        for key in keys:
            if key in seen:
                raise IngestionError("duplicate_path", f"names the same file as {seen[key]!r}",
                                     source_id=entry["source_id"], path=entry["path"])
        for key in keys:
            seen[key] = entry["source_id"]


def read_source(real_path: str, entry: Mapping[str, str]) -> bytes:
    """Read one manifest entry's raw bytes, once, from ``real_path``.

    ``real_path`` comes from :func:`resolve_source_path`, which confines it to
    the manifest's folder. Raises :class:`IngestionError` ``source_missing``,
    ``source_not_regular_file``, ``source_too_large`` (checked before reading)
    or ``source_unreadable``, labelled with the entry's id and path. Does not
    verify the pin.
    """
    def error(reason: str, detail: str) -> IngestionError:
        if reason == "source_missing":
            detail += " (paths are relative to the manifest's folder)"
        return IngestionError(reason, detail, source_id=entry["source_id"], path=entry["path"])

    return _read_capped(real_path, MAX_SOURCE_BYTES, error)


def line_ending_hint(raw: bytes, pinned: str) -> str:
    """Explain a digest mismatch that only line endings cause, else return ``""``.

    Used after a mismatch: tries the file with CRLF turned into LF (and, for an
    LF file, LF into CRLF) and compares with the pin. It never changes what is
    verified: the pinned digest always covers the raw bytes.
    """
    if b"\r\n" in raw and source_digest(raw.replace(b"\r\n", b"\n")) == pinned:
        return "only line endings differ: the file has CRLF where the pinned bytes have LF"
    if b"\r\n" not in raw and source_digest(raw.replace(b"\n", b"\r\n")) == pinned:
        return "only line endings differ: the file has LF where the pinned bytes have CRLF"
    return ""


#: Sources verified together by the worker threads before they are scanned.
_BATCH: Final = 64


def _read_verified(job: tuple[dict[str, str], str]) -> bytes:
    """Read one source and check its bytes against the pin; return the raw bytes."""
    entry, real_path = job
    raw = read_source(real_path, entry)
    digest = source_digest(raw)
    if digest != entry["sha256"]:
        hint = line_ending_hint(raw, entry["sha256"])
        raise IngestionError("hash_mismatch",
                             f"sha256 is {digest}, pinned {entry['sha256']}" + (f" ({hint})" if hint else ""),
                             source_id=entry["source_id"], path=entry["path"])
    return raw


def _scan_source(job: tuple[dict[str, str], str], raw: bytes) -> Source:
    """Decode verified bytes as strict UTF-8 and scan them into a :class:`Source`."""
    entry = job[0]
    source_id, path, digest = entry["source_id"], entry["path"], entry["sha256"]
    bom = len(_UTF8_BOM) if raw.startswith(_UTF8_BOM) else 0
    try:
        text = raw[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("source_not_utf8",
                             f"invalid UTF-8 at byte {error.start + bom}",
                             source_id=source_id, path=path) from None
    directive_lines, mentions = scan_text(text, bom_bytes=bom)
    return Source(source_id=source_id, version=entry["version"], path=path, url=entry["url"],
                  sha256=digest, size=len(raw),
                  directive_lines=directive_lines, mentions=mentions)


# --------------------------------------------------------------------------
# scanning: fences, directive lines, mentions


#: Letters that render as nothing (Hangul fillers, the braille blank).
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _is_blank(segment: str) -> bool:
    """True if ``segment`` would look empty to a reader.

    Blank: whitespace, anything not printable (controls, format characters
    such as U+200B and U+FEFF, unassigned and private-use code points),
    combining marks (Mn, Me, e.g. U+034F) and the letters that render as
    nothing. Failing closed: a directive disguised behind any of these is a
    directive line, so the source is refused instead of silently ignored.
    """
    if not segment or segment.isspace():  # the common cases: nothing, indentation
        return True
    return all(ch.isspace() or not ch.isprintable() or ch in _BLANK_LETTERS
               or unicodedata.category(ch) in ("Mn", "Me") for ch in segment)


#: A fence line: 0-3 spaces, a run of three or more backticks or tildes, the
#: rest of the line. The first form is matched at the start of the text, the
#: second finds every other line start (one C-level pass, no Python loop per line).
_FENCE_AT_START: Final = re.compile(r"( {0,3})(`{3,}|~{3,})([^\n]*)")
_FENCE_AFTER_NEWLINE: Final = re.compile(r"\n( {0,3})(`{3,}|~{3,})([^\n]*)")


def fence_ranges(text: str) -> list[tuple[int, int]]:
    """Code-point ranges ``[start, end)`` covered by fenced code blocks (CommonMark 4.5).

    Each range runs from the start of the opening fence line to the end of the
    closing fence line (or of the text, for an unclosed fence). Only lines that
    begin with 0-3 spaces and a run of three or more backticks or tildes are
    examined; a regular expression finds them all in one pass. Container
    blocks (lists, block quotes) and HTML blocks are not modelled: see
    :func:`_fences_in_doubt`, which says when that could matter.
    """
    return _fence_scan(text).ranges


class _FenceScan(NamedTuple):
    ranges: list[tuple[int, int]]
    unclosed: bool  # the last range runs to the end of the text
    indented: bool  # some fence line is indented 1-3 spaces


def _fence_scan(text: str) -> _FenceScan:
    first = _FENCE_AT_START.match(text)
    matches = ([first] if first else []) + list(_FENCE_AFTER_NEWLINE.finditer(text))
    ranges = []
    open_at = None  # (range start, char, run length)
    indented = False
    for match in matches:
        indent, run, rest = match.groups()
        indented = indented or bool(indent)
        end = match.end()
        if rest.endswith("\r") and end < len(text):  # "\r\n" ends the line
            rest, end = rest[:-1], end - 1
        if open_at is None:
            if run[0] == "`" and "`" in rest:
                continue  # CommonMark: a backtick fence's info string has no backtick
            open_at = (match.start() if match is first else match.start() + 1, run[0], len(run))
        elif run[0] == open_at[1] and len(run) >= open_at[2] and rest.strip(" \t") == "":
            ranges.append((open_at[0], end))
            open_at = None
    if open_at is not None:
        ranges.append((open_at[0], len(text)))
    return _FenceScan(ranges, open_at is not None, indented)


#: A list item's first line; searched in ``"\n" + text`` so that the pattern
#: starts with a literal newline (``re`` then skips from line to line).
_LIST_ITEM: Final = re.compile(r"\n {0,3}(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|\r?\n|\r?$)")


#: The line that ends YAML front matter opened by a first line ``---``.
_FRONT_MATTER_END: Final = re.compile(r"\n(?:---|\.\.\.)[ \t]*\r?(?:\n|$)")


def _fences_in_doubt(view: str, scan: _FenceScan) -> bool:
    """True when the fences found may not be the fences a CommonMark reader sees.

    The gate models top-level fences only. Two things can shift where a
    reader's code blocks begin and end: list items (a fence in a list item is
    indented 1-3 spaces, or opens after the list marker where the gate does
    not see it, and its closing line then opens a fence for the gate; an
    unindented line ends the item and its fence early) and HTML blocks (which
    hide a fence line or show it as raw text). So: a fence indented 1-3
    spaces in a document with a list item, or any line that starts an HTML
    block. A fence in a block quote needs no rule: its lines start with
    ``>``, so the gate never takes them for fences or directive lines. Then
    an ``@`` line the gate finds inside a fence may be visible prose to a
    reader, so :func:`scan_text` keeps it as a directive line marked
    ``fenced`` and the parser refuses the source.
    """
    if scan.indented and _LIST_ITEM.search("\n" + view):
        return True
    if view.startswith("---"):  # YAML front matter: GitHub shows it as a table, never as fences
        end = _FRONT_MATTER_END.search(view, 3)
        if end is not None and scan.ranges[0][0] < end.start():
            return True
    pos = view.find("<")
    while pos != -1:  # an HTML block starts with '<' after 0-3 spaces
        start = view.rfind("\n", 0, pos) + 1
        after = view[pos + 1:pos + 2]
        if pos - start <= 3 and not view[start:pos].strip(" ") and after \
                and (after in "!/?" or (after.isascii() and after.isalpha())):
            return True
        pos = view.find("<", pos + 1)
    return False


#: A carriage return not followed by a line feed: a CommonMark line ending.
_LONE_CR: Final = re.compile(r"\r(?!\n)")
#: Marks that reorder what a reader sees (bidi embeddings, overrides, isolates):
#: a line holding one and an at sign may render as a directive whatever its first character.
_BIDI_CONTROL: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: Characters a reader takes for the at sign of a directive.
_AT_SIGNS: Final = re.compile("[@\uff20\ufe6b]")
#: The at sign written as a character reference, which a reader sees as ``@``.
_AT_ENTITY: Final = re.compile(r"&(?:#0*64|#[xX]0*40|commat);")
_AT_SIGNS_OR_ENTITY: Final = re.compile("[@\uff20\ufe6b]|" + _AT_ENTITY.pattern)
#: Markup that renders as no text before a line's first visible character: block
#: markers (quote, list, heading, table pipe), emphasis, link brackets, backslash
#: escapes, inline HTML tags and comments.
_MARKUP: Final = re.compile(r"[>*+\-#|\\_~\[]|[0-9]{1,9}[.)]|<[^<>\n]*>")
#: ``@word word key=`` (``&`` for an escaped ``=``): directive-shaped to a reader.
_DIRECTIVE_SHAPE: Final = re.compile(r"\S*[ \t]+\S+[ \t]+[^ \t]*?[=&]")
#: HTML elements a reader sees as code (or raw text), opened or closed.
_HTML_CODE_TAG: Final = re.compile(
    r"<(/?)(pre|code|samp|kbd|tt|xmp|listing|plaintext|textarea)(?=[\s/>]|$)", re.IGNORECASE)


def _html_code_ranges(view: str, fences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges from an HTML code element's opening tag to its closing tag (or the end), outside fences."""
    ranges, open_at, fence = [], None, 0
    for match in _HTML_CODE_TAG.finditer(view):
        while fence < len(fences) and fences[fence][1] <= match.start():
            fence += 1
        if fence < len(fences) and fences[fence][0] <= match.start() \
                or view[match.start() - 1:match.start()] == "`":  # in a fence or in `<code>` text
            continue
        name = match.group(2).lower()
        if open_at is None and not match.group(1):
            open_at = (match.start(), name)
        elif open_at is not None and match.group(1) and name == open_at[1]:
            ranges.append((open_at[0], match.end()))
            open_at = None
    if open_at is not None:
        ranges.append((open_at[0], len(view)))
    return ranges


def scan_text(text: str, *, bom_bytes: int = 0) -> tuple[tuple[DirectiveLine, ...], tuple[Mention, ...]]:
    """Find the directive lines and ``@word`` mentions of a decoded source.

    ``bom_bytes`` is the length of the stripped BOM, added to byte offsets so
    they index the pinned raw bytes. A directive line is a line outside fences
    whose first non-blank character is ``@`` (or a look-alike, U+FF20 or U+FE6B),
    or any line outside fences holding an at sign and a bidi control. A lone
    ``\r`` ends a line for fences and for "first non-blank" (as in CommonMark),
    but a directive line's text is still the whole ``\n`` line, so text before
    such a ``\r`` makes it malformed. When the fences are in doubt
    (:func:`_fences_in_doubt`), or inside an unclosed fence, a line-start ``@``
    in a fence is kept with ``fenced=True`` so the parser refuses the source.
    A mention is directive-shaped text, ``@word`` then a space or tab (not
    preceded by a word character, so not an e-mail address or a decorator
    call), inside a fence or after other text on a prose line; at most one per
    line and :data:`MAX_MENTIONS` per source. Cost grows with the number of
    ``@`` and fence lines, not with the number of lines.
    """
    odd_at = "\uff20" in text or "\ufe6b" in text
    entity_at = "&" in text and _AT_ENTITY.search(text) is not None
    at_signs = _AT_SIGNS_OR_ENTITY if entity_at else _AT_SIGNS

    def next_at(start: int) -> int:
        if not (odd_at or entity_at):
            return text.find("@", start)
        found_at = at_signs.search(text, start)
        return -1 if found_at is None else found_at.start()

    pos = next_at(0)
    if pos == -1:
        return (), ()
    # For fences and "first non-blank", a lone \r ends a line, as in CommonMark;
    # the view has the same length, so every offset is valid in both.
    view = _LONE_CR.sub("\n", text) if "\r" in text else text
    fence_scan = _fence_scan(view)
    fences = fence_scan.ranges
    all_in_doubt = bool(fences) and _fences_in_doubt(view, fence_scan)
    # An unclosed fence is an authoring slip or a fence the gate misread: never trust it to hide.
    doubtful_from = fences[-1][0] if fence_scan.unclosed else len(text) + 1
    # A directive line inside <pre>, <code>, ... is a code example to a reader: never count it.
    html_code = _html_code_ranges(view, fences) if "<" in view else []
    fence = 0  # index of the first fence that does not end before ``pos``
    ascii_text = text.isascii()
    directive_lines: list[DirectiveLine] = []
    mentions: list[Mention] = []
    line_no, counted_to = 1, 0
    byte_pos, bytes_to = bom_bytes, 0
    mention_line = 0
    while pos != -1:
        while fence < len(fences) and fences[fence][1] <= pos:
            fence += 1
        in_fence = fence < len(fences) and fences[fence][0] <= pos
        in_doubt = in_fence and (all_in_doubt or pos >= doubtful_from)
        found = None
        if in_fence and not in_doubt:
            if len(mentions) < MAX_MENTIONS:
                found = _next_mention(text, pos, fences[fence][1])
            if found is None:
                pos = next_at(fences[fence][1])
                continue
            pos = found.start()
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        if end == -1:
            end = len(text)
        elif text[end - 1] == "\r":
            end -= 1
        line_no += text.count("\n", counted_to, start)
        counted_to = start
        view_start = view.rfind("\n", 0, pos) + 1  # a lone \r starts a line too
        if (not in_fence or in_doubt) and (_is_blank(text[view_start:pos]) or (
                _DIRECTIVE_SHAPE.match(text, pos, end) and _marked_up(view, view_start, pos))) or (
                not in_fence and _BIDI_CONTROL.search(text, start, end)):
            if not in_fence and html_code:
                in_fence = any(a <= start < b for a, b in html_code)
            if ascii_text:
                byte_start, byte_end = start + bom_bytes, end + bom_bytes
            else:
                byte_pos += len(text[bytes_to:start].encode("utf-8"))
                bytes_to = start
                byte_start = byte_pos
                byte_end = byte_start + len(text[start:end].encode("utf-8"))
            directive_lines.append(DirectiveLine(line_no, start, end, byte_start, byte_end,
                                                 text[start:end], in_fence))
        else:
            if found is None and len(mentions) < MAX_MENTIONS and mention_line != line_no:
                found = _next_mention(text, pos, end)
            if found is not None:
                at = found.start()
                quote_end = min(end, max(start + MENTION_QUOTE_LIMIT, at + MENTION_QUOTE_LIMIT // 2))
                mentions.append(Mention(found.group(1), line_no, at - start + 1, in_fence,
                                        text[start:quote_end]))
                mention_line = line_no
            cr = view.find("\n", pos, end)  # a lone \r later on this line starts another line
            if cr != -1:
                pos = next_at(cr)
                continue
        pos = next_at(end)
    return tuple(directive_lines), tuple(mentions)


def _marked_up(view: str, start: int, pos: int) -> bool:
    """True if ``view[start:pos]`` is only markup and blanks, so the line reads as starting at ``pos``."""
    return _is_blank(_MARKUP.sub("", view[start:pos]))


#: Directive-shaped text: ``@``, a word, a space or tab, not after a word character.
#: ``\w`` is exactly ``str.isalnum()`` or ``_``; that the word starts with a
#: letter is checked by :func:`_next_mention`. The pattern starts with the
#: literal ``@`` (the look-behind comes after it) so that ``re`` can skip to
#: each ``@`` instead of trying every position.
_MENTION: Final = re.compile(r"@(?<!\w@)(\w+)[ \t]")


def _next_mention(text: str, pos: int, end: int) -> re.Match[str] | None:
    """The first directive-shaped ``@word`` in ``text[pos:end]`` whose word starts with a letter."""
    found = _MENTION.search(text, pos, end)
    while found is not None and not found.group(1)[0].isalpha():
        found = _MENTION.search(text, found.start() + 1, end)
    return found
