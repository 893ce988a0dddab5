"""Load a manifest into a verified, immutable :class:`Corpus`.

Flow: manifest JSON (checked by :mod:`~_conflict_gate.manifest.read`) -> each
source read once from the manifest's folder, its raw bytes hashed (SHA-256)
and compared with the pin, decoded as strict UTF-8 and read for directives
(:mod:`~_conflict_gate.reading.reader`) -> :class:`Corpus`.

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

``pin`` reads sources through the same :class:`~_conflict_gate.corpus.source_files.SourceFiles`, so both agree
on the folder, symlinks and shared files.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ..base.errors import DirectiveError, IngestionError
from ..base.jsondata import canonical_json
from ..base.registry import MAX_MANIFEST_BYTES, SOURCE_INGESTION_REASONS
from ..manifest.grammar import Grammar, grammar_from_json
from ..manifest.read import Entry, Manifest, VersionScheme, read_manifest
from ..reading.reading_shapes import Claim, LeftOut, NearMiss, Reading
from .cache import ReadingCache, cache_path, decode_reading, encode_reading
from .pool import PARALLEL_MIN_PAGES, PagePool
from .quotes import QuoteIndex
from .recorded import Recorded, claim_not_holding, parse_recorded, recorded_reading, unjudged_format
from .source_files import SourceFiles
from .suggest import IdIndex

if TYPE_CHECKING:  # the reader and the renderers are imported when a page is read (_reader, Manifest.renderer)
    from ..reading.renderers import Renderer

__all__ = [
    "MEMO_BYTES",
    "MEMO_ENTRY_BYTES",
    "Corpus",
    "Memo",
    "Source",
    "collection_paused",
    "decode_source",
    "failed_source",
    "line_ending_hint",
    "load_documents",
    "load_with",
    "read_chunk",
    "read_page",
    "read_recorded",
    "source_digest",
    "source_from_bytes",
    "verified_digest",
]

_UTF8_BOM: Final = b"\xef\xbb\xbf"
#: Bytes :attr:`Corpus.memo` holds, at most, as its entries' estimates say (:class:`Memo`): a full memo
#: starts again empty.
MEMO_BYTES: Final = 64 << 20
#: The estimate of one memo entry's fixed part: its key and value tuples and its slot in the dict.
MEMO_ENTRY_BYTES: Final = 200


class Memo(dict[Any, Any]):
    """A :class:`Corpus`'s memo: a dict bounded by the bytes its entries hold, as estimated by whoever
    stores each one (:meth:`keep`), at most :data:`MEMO_BYTES`; ``held`` is the sum of the estimates
    kept since it was last emptied.

    The estimate is cheap by design, computed from what is stored, never by walking objects
    (``sys.getsizeof`` of every part would cost the warm path more than the lookup it saves): a
    string counts its length in characters (a byte each for ASCII text, what the claims and requests
    mostly hold; more for other text, which the estimate does not see), a structure built from a
    string about twice that string, and every entry :data:`MEMO_ENTRY_BYTES` more. An entry replaced
    under its key is counted again (an overestimate, cleared with the rest).
    """

    __slots__ = ("held",)

    def __init__(self) -> None:
        super().__init__()
        self.held = 0

    def keep(self, key: Any, value: Any, size: int) -> None:
        """Keep ``value`` under ``key``, estimated at ``size`` bytes (:data:`MEMO_ENTRY_BYTES` included).
        A memo that would pass :data:`MEMO_BYTES` starts again empty first; an entry over the bound
        alone is not kept (it is computed again when asked for)."""
        if size > MEMO_BYTES:
            return
        if self.held + size > MEMO_BYTES:
            self.clear()
        self[key] = value
        self.held += size

    def clear(self) -> None:
        super().clear()
        self.held = 0


class Source(NamedTuple):
    """One manifest source, without its text: verified, or (in a non-strict load) failed.

    ``path`` is manifest-relative as written; ``url`` ``None`` when omitted;
    ``status`` a page status; ``sha256`` the verified digest of the raw
    bytes and ``size`` their number. ``claims`` (in line order) or
    ``refusal`` (a :class:`DirectiveError`; then no claims) and the first
    near-misses come from :func:`~_conflict_gate.reading.reader.read_directives`.

    A source that failed verification in ``load_documents(..., strict=False)``
    (:attr:`failed`) has an :class:`IngestionError` as ``refusal`` (its reason
    one of :data:`~_conflict_gate.base.registry.SOURCE_INGESTION_REASONS`, with source
    and path), no claims and no near-misses; ``sha256`` is ``""`` and ``size``
    ``0``, since no bytes were verified.

    ``occurrences``: the directive-shaped text of the source, wherever it is
    (:attr:`Reading.occurrences <_conflict_gate.reading.reading_shapes.Reading.occurrences>`), where the
    answer check looks quotes up; empty for a failed source.

    ``left_out``: the readings the page was not judged by, because it does not build under them
    (:attr:`Reading.left_out <_conflict_gate.reading.reading_shapes.Reading.left_out>`: only under a combined
    renderer, ``portable``); empty for a failed source.
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
    occurrences: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()

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
    """A verified, immutable snapshot of the sources of a manifest: every one, or (:attr:`complete`
    false) the ones a load was asked for.

    ``sources`` maps source id to :class:`Source` in manifest order
    (read-only). The grammar and version scheme come from the manifest. A
    corpus does not notice files edited after loading: load again.
    :attr:`failed` lists the sources that failed verification (only a
    non-strict load keeps any). :attr:`id_index` is the did-you-mean index of the
    manifest's source ids, and :attr:`quote_index` the index the answer check looks quotes up in,
    each built on first use.
    """

    manifest: Manifest
    sources: Mapping[str, Source]
    #: What the warm path (:func:`~_conflict_gate.decide.decision.gate`) computed once for this corpus: claim
    #: records and answer requests, by what determines them (a corpus is immutable, so each stays
    #: right); at most :data:`MEMO_BYTES` bytes as estimated (:class:`Memo`).
    memo: Memo = field(init=False, repr=False, compare=False, default_factory=Memo)

    @cached_property
    def id_index(self) -> IdIndex:
        """The did-you-mean index of the manifest's source ids (:class:`~_conflict_gate.corpus.suggest.IdIndex`),
        built once, on first use: only an unknown id asks it (two sorts of every id, 2 ms at 10,000 pages,
        which a request naming known ids does not pay)."""
        return IdIndex(entry.source_id for entry in self.manifest.entries)

    def remember(self, key: Any, value: Any, size: int) -> None:
        """Keep ``value`` in :attr:`memo` under ``key``, estimated at ``size`` bytes (:meth:`Memo.keep`: a
        memo that would pass :data:`MEMO_BYTES` starts again empty)."""
        self.memo.keep(key, value, size)

    @cached_property
    def quote_index(self) -> QuoteIndex:
        """Every directive-shaped occurrence of the verified sources (:class:`~_conflict_gate.corpus.quotes.QuoteIndex`),
        built once, on first use; a failed source has none (its bytes were never verified)."""
        return QuoteIndex(occurrence for source in self.sources.values() for occurrence in source.occurrences)

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
    def renderer(self) -> Renderer:
        """How the site renders the pages: every source was read by it (the manifest's ``renderer``)."""
        return self.manifest.renderer

    @property
    def manifest_path(self) -> str:
        return self.manifest.path

    @property
    def complete(self) -> bool:
        """Does the corpus hold every source of its manifest? Only a load asked for some sources
        (:func:`load_with`'s ``only``: the command line's ``gate`` and ``check-answer``) makes one that
        does not; :func:`~_conflict_gate.decide.decision.audit` and the versions listing refuse it."""
        return len(self.sources) == len(self.manifest.entries)

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


def decode_source(raw: bytes, *, source_id: str | None, path: str | None) -> str:
    """The text of a source's raw bytes: strict UTF-8, a leading BOM left out. Raises
    :class:`IngestionError` ``source_not_utf8`` with the offset of the first bad byte in ``raw``."""
    bom = len(_UTF8_BOM) if raw.startswith(_UTF8_BOM) else 0
    try:
        return raw[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError(
            "source_not_utf8", f"invalid UTF-8 at byte {error.start + bom}", source_id=source_id, path=path
        ) from None


def load_documents(
    manifest_path: str | os.PathLike[str],
    *,
    strict: bool = True,
    cache: str | os.PathLike[str] | bool | None = None,
    jobs: int = 1,
    only: Collection[str] | None = None,
) -> Corpus:
    """Load, verify and read every source of a manifest; return a :class:`Corpus`.

    Every source is read exactly once: the same bytes are hashed, compared
    with the pin, decoded and read for directives. Raises
    :class:`GrammarError` for the manifest's grammar and
    :class:`IngestionError` for the first other problem, in manifest order:
    everything :func:`~_conflict_gate.manifest.read.read_manifest` refuses, then
    per source what :meth:`SourceFiles.read` refuses, ``hash_mismatch`` (with
    a hint when only line endings differ) and ``source_not_utf8`` (with the
    offset of the first bad byte in the raw file). A source that says
    something the gate cannot use is not an error here: its ``refusal``
    is kept, and the gate refuses when it is asked about it.

    With ``strict=False`` a source that fails alone (a reason of
    :data:`~_conflict_gate.base.registry.SOURCE_INGESTION_REASONS`) is kept the
    same way, as a failed :class:`Source` whose ``refusal`` is that
    :class:`IngestionError`, and the others load; :attr:`Corpus.failed` lists
    every such source. The manifest's own problems still raise.

    ``cache`` is the reading cache (:mod:`~_conflict_gate.corpus.cache`): ``None``,
    the default file for this manifest in the user's cache folder
    (``$CONFLICT_GATE_CACHE``, else the platform's); ``False``, none; a path,
    that file. A page whose bytes, grammar, renderer and reader are unchanged
    is hashed and verified but not read again; the corpus is the same either
    way. A cache that cannot be trusted or written is one warning on stderr.
    ``jobs`` greater than 1 reads the pages left to read in that many worker
    processes once there are enough of them (:mod:`~_conflict_gate.corpus.pool`);
    the corpus and the first problem reported are the same.

    ``only``, a collection of source ids: load just those sources (ids the
    manifest lacks are ignored, so :func:`~_conflict_gate.decide.decision.gate` still
    names them ``unknown_candidate``). The manifest is read and checked whole;
    no other page is opened, so one that changed or is gone does not stop the
    load. The corpus is then not :attr:`Corpus.complete`: it decides about
    those sources exactly as a whole one would, but ``audit`` and
    ``versions_listing`` refuse it (``ValueError``), and the answer check's
    quote look-up sees only its pages (a quote found nowhere there may be in
    another page: check such an answer again over a whole corpus, as
    ``conflict-gate check-answer`` does).
    """
    return load_with(manifest_path, strict=strict, cache=cache, jobs=jobs, environ=os.environ, warn=_warn, only=only)


def _warn(message: str) -> None:
    print(f"conflict-gate: warning: {message}", file=sys.stderr)


def load_with(
    manifest_path: str | os.PathLike[str],
    *,
    strict: bool,
    cache: str | os.PathLike[str] | bool | None,
    jobs: int,
    environ: Mapping[str, str],
    warn: Callable[[str], None],
    min_pages: int = PARALLEL_MIN_PAGES,
    method: str | None = None,
    only: Collection[str] | None = None,
) -> Corpus:
    """:func:`load_documents` with the environment the default cache folder comes from and where
    warnings go passed in (the command line passes its own); ``min_pages`` and ``method`` are the
    pool's (:class:`~_conflict_gate.corpus.pool.PagePool`: the tests start workers for a few pages).

    ``only``: the source ids to load (ids the manifest lacks are ignored); the manifest is still read
    and checked whole, but no other page is opened, so a page outside ``only`` that changed or is gone
    does not stop the load. The corpus is then not :attr:`~Corpus.complete`: right for deciding about
    those sources (a request's candidates), not for an audit, a versions listing or a quote looked up
    in every source. ``None``, every source."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if isinstance(only, (str, bytes)):  # a string is a collection of its characters: never meant
        raise TypeError(f"only must be a collection of source ids, not one id: got {only!r}")
    with collection_paused():
        manifest = read_manifest(manifest_path, require_pins=False)  # an entry not pinned yet fails alone
        recorded = read_recorded(manifest)
        path = cache_path(manifest.real_path, cache, environ) if recorded is None else None
        readings = ReadingCache.open(path, manifest.grammar, manifest.renderer_name, warn) if path is not None else None
        with SourceFiles(manifest.root) as files:
            entries = manifest.entries if only is None else _only(manifest.entries, only)
            sources = _load(manifest, entries, files, strict, readings, jobs, min_pages, method, recorded)
        recorded = None  # its parsed records let go while collection is paused: none is walked after
        if readings is not None:
            readings.save()
            readings.close()
        return Corpus(manifest, MappingProxyType(sources))


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused inside the block (and restored after, if it ran): a
    load or an audit creates objects by the hundred thousand, none in a cycle, and each collection
    it would trigger walks every object already made (a third of a cached load).

    Only paused: a process's own use of the collector is left as it was (its frozen objects stay
    frozen, its young garbage is collected by the next young collection). Moving the block's objects
    to the oldest generation at its end (``gc.freeze()``, ``gc.unfreeze()``) would spare the first
    young collection after a cached load its walk of them (65 ms at 10,000 pages), but it unfreezes
    what the caller froze and leaves the caller's young garbage until a full collection: not done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_recorded(manifest: Manifest) -> Recorded | None:
    """The recorded readings file ``manifest`` names (:mod:`~_conflict_gate.corpus.recorded`), read confined
    to its folder, at most :data:`~_conflict_gate.base.registry.MAX_MANIFEST_BYTES`, and checked whole; ``None``
    when it names none. Raises :class:`IngestionError` ``readings_unreadable`` (the file missing,
    unreadable, not pinned yet, not its pin, of another shape, format or grammar)."""
    if manifest.readings is None:
        return None
    if not manifest.readings_sha256:
        raise IngestionError(
            "readings_unreadable",
            "not pinned yet (readings_sha256 is empty); record the readings: pin --site",
            path=manifest.readings,
        )
    with SourceFiles(manifest.root, MAX_MANIFEST_BYTES) as files:
        try:
            raw = files.read_path(manifest.readings)
        except IngestionError as error:
            raise IngestionError(
                "readings_unreadable", f"{error.detail}; record the readings: pin --site", path=manifest.readings
            ) from None
    return parse_recorded(raw, manifest)


def _only(entries: Sequence[Entry], only: Collection[str]) -> list[Entry]:
    """The entries whose source id is in ``only``, in manifest order."""
    wanted = frozenset(only)
    return [entry for entry in entries if entry.source_id in wanted]


def _load(
    manifest: Manifest,
    entries: Sequence[Entry],
    files: SourceFiles,
    strict: bool,
    cache: ReadingCache | None = None,
    jobs: int = 1,
    min_pages: int = PARALLEL_MIN_PAGES,
    method: str | None = None,
    recorded: Recorded | None = None,
) -> dict[str, Source]:
    """The sources of ``entries`` (``manifest``'s, in its order): read, hashed and verified here in
    manifest order; each page's reading taken from ``recorded`` (the manifest's recorded readings: no page
    is then read for directives), else from ``cache`` (when each of its claims holds on the page's bytes:
    :func:`~_conflict_gate.corpus.recorded.claim_not_holding`), else read here or by ``jobs`` workers. Raises the
    first problem in manifest order (``strict``), else keeps failed sources."""
    grammar, renderer_name = manifest.grammar, manifest.renderer_name
    sources: dict[str, Source | None] = {}
    sizes: dict[str, tuple[Entry, str, int]] = {}
    problems: dict[str, IngestionError] = {}  # source id -> its ingestion error, found by a worker
    parsed: dict[str, tuple[str, str, str] | None] = {}  # each cached directive text as the grammar parses it

    def read_here(raw: bytes, entry: Entry) -> Reading:  # (the renderer's value: built by the first page read)
        return read_page(raw, grammar, manifest.renderer, entry.source_id, entry.path)

    def decode(data: object, entry: Entry) -> Reading:
        return decode_reading(data, entry.source_id, entry.path)

    def done(entry: Entry, reading: Reading | None, reason: str | None, detail: str | None) -> None:
        _, digest, size = sizes[entry.source_id]
        if reading is None:
            problems[entry.source_id] = IngestionError(
                reason or "source_unreadable", detail or "", source_id=entry.source_id, path=entry.path
            )
            return
        if cache is not None:
            cache.put(digest, reading)
        sources[entry.source_id] = _source(
            entry, digest, size, unjudged_format(reading, entry.path, renderer_name, entry.source_id)
        )

    arguments = (
        canonical_json({key: value for key, value in grammar.summary().items() if key != "directive"}),
        renderer_name,
    )
    pool = PagePool(
        jobs, read_chunk, arguments, read_here=read_here, decode=decode, done=done, method=method, min_pages=min_pages
    )
    stop: IngestionError | None = None
    try:
        for entry in entries:
            try:
                if not entry.sha256:  # not pinned yet: nothing to verify its bytes against, so never read
                    raise IngestionError(
                        "source_unpinned",
                        "not pinned yet (its sha256 is empty)",
                        source_id=entry.source_id,
                        path=entry.path,
                    )
                raw = files.read(entry)
                digest = verified_digest(raw, entry)
                if recorded is not None:
                    sources[entry.source_id] = _source(
                        entry, digest, len(raw), recorded_reading(recorded, entry, digest, raw)
                    )
                    continue
            except IngestionError as error:
                if recorded is not None and error.reason == "hash_mismatch":
                    error = IngestionError(
                        error.reason,
                        f"{error.detail}; the manifest records the site's readings: "
                        "review the page, build the site and pin again with --site",
                        source_id=error.source_id,
                        path=error.path,
                    )
                if strict or error.reason not in SOURCE_INGESTION_REASONS:
                    stop = error
                    break
                sources[entry.source_id] = failed_source(entry, error)
                continue
            reading = cache.get(digest, entry.source_id, entry.path) if cache is not None else None
            if reading is not None and claim_not_holding(reading, raw, grammar, parsed) is not None:
                reading = None  # an entry no reader wrote for these bytes (its checksum fits): a miss
            if reading is not None:
                sources[entry.source_id] = _source(
                    entry, digest, len(raw), unjudged_format(reading, entry.path, renderer_name, entry.source_id)
                )
                continue
            sources[entry.source_id] = None  # its place in manifest order; filled when read
            sizes[entry.source_id] = (entry, digest, len(raw))
            pool.add(entry, raw)
        pool.finish()
    finally:
        pool.close()
    for source_id, (entry, _, _) in sizes.items():  # manifest order: the first problem first
        problem = problems.get(source_id)
        if problem is not None:
            if strict:
                raise problem
            sources[source_id] = failed_source(entry, problem)
    if stop is not None:
        raise stop
    return {source_id: source for source_id, source in sources.items() if source is not None}


_GRAMMARS: dict[str, Grammar] = {}  # in a worker process: the grammar of each load it served


def read_chunk(grammar_json: str, renderer_name: str, pages: list[bytes]) -> list[tuple[Any, ...]]:
    """In a worker process (:class:`~_conflict_gate.corpus.pool.PagePool`): read each page as :func:`read_page`
    does; ``(None, encoded reading)`` (:func:`~_conflict_gate.corpus.cache.encode_reading`) or ``(reason,
    detail)`` of its :class:`IngestionError`, per page."""
    grammar = _GRAMMARS.get(grammar_json)
    if grammar is None:
        grammar = _GRAMMARS[grammar_json] = grammar_from_json(json.loads(grammar_json))
    from ..reading.renderers import renderer_named

    renderer = renderer_named(renderer_name)
    results: list[tuple[Any, ...]] = []
    for raw in pages:
        try:
            results.append((None, encode_reading(read_page(raw, grammar, renderer, None, None))))
        except IngestionError as error:
            results.append((error.reason, error.detail))
    return results


def _source(entry: Entry, digest: str, size: int, reading: Reading) -> Source:
    claims, refusal, near_misses, occurrences, left_out = reading
    return _new_source(
        Source,
        (
            entry.source_id,
            entry.version,
            entry.status,
            entry.path,
            entry.url,
            digest,
            size,
            claims,
            refusal,
            near_misses,
            entry,
            occurrences,
            left_out,
        ),
    )


#: A :class:`Source` made from all its fields without the Python-level constructor (a frame per page).
_new_source: Final = tuple.__new__


def failed_source(entry: Entry, error: IngestionError) -> Source:
    """The :class:`Source` a non-strict load keeps for ``entry`` when it fails verification with ``error``."""
    return Source(entry.source_id, entry.version, entry.status, entry.path, entry.url, "", 0, (), error, (), entry)


def verified_digest(raw: bytes, entry: Entry, digest: str | None = None) -> str:
    """The digest of ``raw`` (``digest``, when the caller has just computed it), compared with the pin
    of ``entry``. Raises :class:`IngestionError` ``hash_mismatch``, with a hint when only line endings
    differ."""
    digest = source_digest(raw) if digest is None else digest
    if digest != entry.sha256:
        hint = line_ending_hint(raw, entry.sha256)
        raise IngestionError(
            "hash_mismatch",
            f"sha256 is {digest}, pinned {entry.sha256}" + (f" ({hint})" if hint else ""),
            source_id=entry.source_id,
            path=entry.path,
        )
    return entry.sha256  # equal to the digest: the pin's own string, so a corpus keeps each digest once


@cache
def _reader() -> Callable[..., Reading]:
    """:func:`~_conflict_gate.reading.reader.read_directives`, imported when the first page is read: a load whose
    every reading comes from the cache or the recorded readings imports no block reading, reader or renderer."""
    from ..reading.reader import read_directives

    return read_directives


def read_page(raw: bytes, grammar: Grammar, renderer: Renderer, source_id: str | None, path: str | None) -> Reading:
    """The reading of a page's raw bytes: decoded (:func:`decode_source`, which raises
    ``source_not_utf8``) and read for directives as ``renderer`` shows them."""
    body = raw[3:] if raw.startswith(_UTF8_BOM) else raw
    text = decode_source(raw, source_id=source_id, path=path)
    return _reader()(
        text, grammar, bom_bytes=len(raw) - len(body), source_id=source_id, path=path, encoded=body, renderer=renderer
    )


def source_from_bytes(
    raw: bytes,
    grammar: Grammar,
    entry: Entry,
    *,
    renderer: Renderer,
    digest: str | None = None,
    recorded: Recorded | None = None,
) -> Source:
    """The :class:`Source` of ``entry`` from its raw bytes, as :func:`load_documents` makes it: hashed
    (``digest``, when the caller has just computed it), compared with the pin, decoded and read for
    directives as ``renderer`` shows them, or, with ``recorded`` (the manifest's recorded readings,
    :func:`read_recorded`), given its recorded reading. Raises :class:`IngestionError` (``hash_mismatch``,
    ``source_not_utf8``, ``reading_unusable``)."""
    digest = verified_digest(raw, entry, digest)
    if recorded is not None:
        return _source(entry, digest, len(raw), recorded_reading(recorded, entry, digest, raw))
    reading = read_page(raw, grammar, renderer, entry.source_id, entry.path)
    return _source(entry, digest, len(raw), unjudged_format(reading, entry.path, renderer.name, entry.source_id))
