"""Load a manifest into a verified, immutable :class:`Corpus`.

Flow: manifest JSON (checked by :mod:`~_conflict_gate.manifest`) -> each
source read once from the manifest's folder, its raw bytes hashed (SHA-256)
and compared with the pin, decoded as strict UTF-8 and read for directives
(:mod:`~_conflict_gate.reader`) -> :class:`Corpus`.

What it refuses to do (it fails closed with :class:`IngestionError`; with
``strict=False`` a source that fails alone is kept as a refused :class:`Source`
instead, and refuses every request it is eligible for):

* open a file not named by the manifest, or outside the folder that holds
  the manifest (absolute paths, ``..``, backslashes, symlinks leading out);
* accept bytes that differ from the pin; bytes are never normalised (line
  endings, BOM) before hashing;
* count one file twice (two entries reaching it through a link);
* decode anything but strict UTF-8;
* keep a source's text: a :class:`Source` keeps its metadata, digest, claims,
  refusal and near-misses, so memory does not grow with the corpus's bytes.

``pin`` reads sources through the same :class:`SourceFiles`, so both agree
on the folder, symlinks and shared files.
"""

from __future__ import annotations

import errno
import hashlib
import os
import posixpath
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Mapping, NamedTuple

from .errors import DirectiveError, IngestionError
from .files import HAS_NOFOLLOW, OPEN_FLAGS, ErrorFactory, open_error, read_fd
from .grammar import Grammar
from .manifest import Entry, Manifest, VersionScheme, read_manifest
from .reader import Claim, NearMiss, read_directives
from .registry import MAX_SOURCE_BYTES, SOURCE_INGESTION_REASONS
from .suggest import IdIndex

__all__ = ["Corpus", "Source", "SourceFiles", "line_ending_hint", "load_documents", "source_digest"]

_UTF8_BOM: Final = b"\xef\xbb\xbf"


class Source(NamedTuple):
    """One manifest source, without its text: verified, or (in a non-strict load) failed.

    ``path`` is manifest-relative as written; ``url`` ``None`` when omitted;
    ``status`` a page status; ``sha256`` the verified digest of the raw
    bytes and ``size`` their number. ``claims`` (in line order) or
    ``refusal`` (a :class:`DirectiveError`; then no claims) and the first
    near-misses come from :func:`~_conflict_gate.reader.read_directives`.

    A source that failed verification in ``load_documents(..., strict=False)``
    (:attr:`failed`) has an :class:`IngestionError` as ``refusal`` (its reason
    one of :data:`~_conflict_gate.registry.SOURCE_INGESTION_REASONS`, with source
    and path), no claims and no near-misses; ``sha256`` is ``""`` and ``size``
    ``0``, since no bytes were verified.
    """

    source_id: str
    version: str
    status: str
    path: str
    url: str | None
    sha256: str
    size: int
    claims: tuple[Claim, ...]
    refusal: DirectiveError | IngestionError | None
    near_misses: tuple[NearMiss, ...]
    entry: Entry

    @property
    def document_revision(self) -> str:
        """SHA-256 of the source's manifest entry as written, in canonical JSON (see :class:`Entry`)."""
        return self.entry.document_revision

    @property
    def failed(self) -> bool:
        """Did this source fail verification (kept only by a non-strict load)?"""
        return isinstance(self.refusal, IngestionError)

    def claim(self, operation: str, key: str) -> Claim | None:
        """The claim this source declares for ``operation``/``key``, or ``None``."""
        for claim in self.claims:
            if claim.operation == operation and claim.claim_key == key:
                return claim
        return None

    def about(self, operation: str) -> bool:
        """Is this source *about* ``operation``: does it declare some key of it? (Structure only: no
        prose is read; a refused source is about nothing, since what it says is not known.)"""
        return any(claim.operation == operation for claim in self.claims)


@dataclass(frozen=True)
class Corpus:
    """A verified, immutable snapshot of every source of a manifest.

    ``sources`` maps source id to :class:`Source` in manifest order
    (read-only). The grammar and version scheme come from the manifest. A
    corpus does not notice files edited after loading: load again.
    :attr:`failed` lists the sources that failed verification (only a
    non-strict load keeps any). ``id_index`` is the did-you-mean index of the
    source ids (:class:`~_conflict_gate.suggest.IdIndex`), built with the corpus.
    """

    manifest: Manifest
    sources: Mapping[str, Source]
    id_index: IdIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id_index", IdIndex(self.sources))

    @property
    def failed(self) -> tuple[Source, ...]:
        """The sources that failed verification, in manifest order (empty after a strict load)."""
        return tuple(source for source in self.sources.values() if source.failed)

    @property
    def grammar(self) -> Grammar:
        return self.manifest.grammar

    @property
    def version_scheme(self) -> VersionScheme:
        return self.manifest.version_scheme

    @property
    def manifest_path(self) -> str:
        return self.manifest.path

    def __len__(self) -> int:
        return len(self.sources)


def source_digest(raw: bytes) -> str:
    """Lowercase hex SHA-256 of the raw bytes, exactly as pinned."""
    return hashlib.sha256(raw).hexdigest()


def line_ending_hint(raw: bytes, pinned: str) -> str:
    """Explain a digest mismatch that only line endings cause, else ``""``.

    Tries the bytes with CRLF made LF (and, for an LF file, LF made CRLF)
    against the pin. It never changes what is verified.
    """
    if b"\r\n" in raw and source_digest(raw.replace(b"\r\n", b"\n")) == pinned:
        return "only line endings differ: the file has CRLF where the pinned bytes have LF"
    if b"\r\n" not in raw and source_digest(raw.replace(b"\n", b"\r\n")) == pinned:
        return "only line endings differ: the file has LF where the pinned bytes have CRLF"
    return ""


class SourceFiles:
    """Reads manifest sources confined to the folder that holds the manifest.

    Each folder is resolved once (``realpath``) and must lie inside the root;
    each file is opened with ``O_NOFOLLOW``, so a symlink as the last
    component is resolved and confined before anything is opened through it.
    Two entries reaching one file (symlink or hard link) are refused by
    ``(st_dev, st_ino)`` from the read's own ``fstat``. Nothing outside the
    root is ever opened or read.
    """

    def __init__(self, root: str, limit: int = MAX_SOURCE_BYTES) -> None:
        self.root = root
        self.limit = limit
        self._folders: dict[str, str | None] = {}  # relative folder -> real folder, None if outside
        self._seen: dict[tuple[int, int], str] = {}

    def read(self, entry: Entry) -> bytes:
        """Read one entry's raw bytes once. Raises :class:`IngestionError`:
        ``path_outside_root``, ``source_missing``, ``source_not_regular_file``,
        ``source_too_large``, ``source_unreadable``, ``duplicate_path``."""
        def error(reason: str, detail: str) -> IngestionError:
            if reason == "source_missing":
                detail += " (paths are relative to the folder that holds the manifest)"
            pointer = f"/documents/{entry.position}/path" if reason == "duplicate_path" else None
            return IngestionError(reason, detail, source_id=entry.source_id, path=entry.path,
                                  pointer=pointer)

        folder, name = posixpath.split(entry.path)
        real_folder = self._folder(folder)
        if real_folder is None:
            raise error("path_outside_root", "path leads outside the manifest's folder")
        path = os.path.join(real_folder, name)
        if not HAS_NOFOLLOW and os.path.islink(path):
            path = self._confine(path, error)
        try:
            fd = os.open(path, OPEN_FLAGS)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise open_error(exc, path, error) from None
            path = self._confine(path, error)  # the last component is a symlink: resolve, confine
            try:
                fd = os.open(path, OPEN_FLAGS)
            except OSError as again:
                raise open_error(again, path, error) from None
        try:
            raw, info = read_fd(fd, self.limit, error)
        finally:
            os.close(fd)
        key = (info.st_dev, info.st_ino)
        first = self._seen.setdefault(key, entry.source_id)
        if first != entry.source_id:
            raise error("duplicate_path", f"names the same file as {first!r}")
        return raw

    def _folder(self, folder: str) -> str | None:
        if folder not in self._folders:
            real = os.path.realpath(os.path.join(self.root, folder))
            self._folders[folder] = real if _inside(self.root, real) else None
        return self._folders[folder]

    def _confine(self, path: str, error: ErrorFactory) -> str:
        real = os.path.realpath(path)
        if not _inside(self.root, real):
            raise error("path_outside_root", "path leads outside the manifest's folder")
        return real


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def load_documents(manifest_path: str | os.PathLike[str], *, strict: bool = True) -> Corpus:
    """Load, verify and read every source of a manifest; return a :class:`Corpus`.

    Every source is read exactly once: the same bytes are hashed, compared
    with the pin, decoded and read for directives. Raises
    :class:`GrammarError` for the manifest's grammar and
    :class:`IngestionError` for the first other problem, in manifest order:
    everything :func:`~_conflict_gate.manifest.read_manifest` refuses, then
    per source what :meth:`SourceFiles.read` refuses, ``hash_mismatch`` (with
    a hint when only line endings differ) and ``source_not_utf8`` (with the
    offset of the first bad byte in the raw file). A source that says
    something the gate cannot use is not an error here: its ``refusal``
    is kept, and the gate refuses when it is asked about it.

    With ``strict=False`` a source that fails alone (a reason of
    :data:`~_conflict_gate.registry.SOURCE_INGESTION_REASONS`) is kept the
    same way, as a failed :class:`Source` whose ``refusal`` is that
    :class:`IngestionError`, and the others load; :attr:`Corpus.failed` lists
    every such source. The manifest's own problems still raise.
    """
    manifest = read_manifest(manifest_path)
    files = SourceFiles(manifest.root)
    grammar = manifest.grammar
    sources = {}
    for entry in manifest.entries:
        try:
            sources[entry.source_id] = _load_source(files, grammar, entry)
        except IngestionError as error:
            if strict or error.reason not in SOURCE_INGESTION_REASONS:
                raise
            sources[entry.source_id] = Source(entry.source_id, entry.version, entry.status, entry.path,
                                              entry.url, "", 0, (), error, (), entry)
    return Corpus(manifest, MappingProxyType(sources))


def _load_source(files: SourceFiles, grammar: Grammar, entry: Entry) -> Source:
    """Read, verify, decode and read one entry's source; raise :class:`IngestionError` on failure."""
    raw = files.read(entry)
    digest = source_digest(raw)
    if digest != entry.sha256:
        hint = line_ending_hint(raw, entry.sha256)
        raise IngestionError("hash_mismatch", f"sha256 is {digest}, pinned {entry.sha256}"
                             + (f" ({hint})" if hint else ""), source_id=entry.source_id,
                             path=entry.path)
    body = raw[3:] if raw.startswith(_UTF8_BOM) else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("source_not_utf8", f"invalid UTF-8 at byte {error.start + len(raw) - len(body)}",
                             source_id=entry.source_id, path=entry.path) from None
    reading = read_directives(text, grammar, bom_bytes=len(raw) - len(body), source_id=entry.source_id,
                              path=entry.path, encoded=body)
    return Source(entry.source_id, entry.version, entry.status, entry.path, entry.url, digest, len(raw),
                  reading.claims, reading.refusal, reading.near_misses, entry)
