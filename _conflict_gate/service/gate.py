"""One manifest served to many calls, never stale: what the MCP server's tools do (standard library only).

:class:`GateService` loads the corpus once, non-strict (a page that fails
verification refuses only the requests it is eligible for), and before each
call re-verifies what that call uses against what was loaded:

* the manifest file: its ``stat`` (device, inode, size, mtime, ctime) and, when
  that changed or is too recent to trust (an edit within the file system's
  timestamp granularity keeps the mtime), the SHA-256 of its bytes; a changed
  digest reloads everything (:func:`~_conflict_gate.corpus.load.load_documents`);
* the sources the call reads, each read and hashed through
  :class:`~_conflict_gate.corpus.source_files.SourceFiles` and compared with the digest it was
  loaded with. An unchanged page is never read for directives again; a changed
  one becomes a failed source (``hash_mismatch``: it refuses the requests it is
  eligible for), and a failed one whose bytes match its pin again is read anew.

``gate`` re-verifies its eligible candidates (the only pages whose bytes a
decision reads), ``check_answer`` the decision's eligible candidates (every
source when the answer quotes text that must be looked up in the pinned
bytes and one of them changed), ``audit`` every source, ``versions`` every
approved source. A lock makes calls wait while another call re-verifies or
reloads; the answer is computed after it, on an immutable snapshot.

A bad request, a decision this corpus did not give, or a manifest that no
longer loads raises the typed error; :meth:`GateService.error_result` renders
it as the command line does (:func:`~_conflict_gate.cli.support.located_error`).
Nothing here imports the MCP SDK: :mod:`~_conflict_gate.service.mcp` wraps it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from ..answer.check import CORPUS_WIDE_FINDINGS, check_answer
from ..base.errors import DecisionError, GateError, GrammarError, IngestionError, LocatedError
from ..base.files import read_capped
from ..base.registry import (
    DEFAULT_UNRELATED,
    ELIGIBLE_STATUS,
    MAX_MANIFEST_BYTES,
    SOURCE_INGESTION_REASONS,
    UNRELATED_OPTIONS,
)
from ..cli.support import located_error, shown_manifest
from ..corpus.load import Corpus, Source, failed_source, load_documents, read_recorded, source_digest, source_from_bytes
from ..corpus.recorded import Recorded
from ..corpus.source_files import SourceFiles
from ..decide.decision import audit, claim_operation, gate, versions_listing
from ..manifest.form import ANSWER_FORM
from ..manifest.grammar import Grammar
from ..reading.renderers import Renderer
from ..results.audit import (
    AUDIT_ENTRY_FIELDS,
    AUDIT_FIELDS,
    AUDIT_OPERATION_FIELDS,
    AuditEntry,
    AuditOperation,
    AuditReport,
)
from ..results.service import TOOL_ERROR_FIELDS, ToolError, Versions
from ..results.shapes import AnswerCheck, Decision, build

__all__ = ["FLOW", "TOOLS", "TOOL_ERRORS", "GateService", "ToolSpec", "limit_report"]

#: The typed errors a tool call reports as an error result (``isError: true``).
TOOL_ERRORS: Final = (GateError, DecisionError, IngestionError, GrammarError)
#: Seconds within which a file's mtime may not change on an edit (the file system's timestamp
#: granularity, generously): a manifest modified this recently is hashed on every call until it is older.
RACY_SECONDS: Final = 2.0

_FORM: Final = (
    f"cite every claim as {ANSWER_FORM.citation.format(source_id='ID', line='LINE')}, quote a "
    f"directive only as {ANSWER_FORM.quote.format(directive='@namespace operation key=value')} "
    "followed on its line by that citation, and state "
    f"{ANSWER_FORM.value.format(claim_key='key', value='value')} and "
    f"{ANSWER_FORM.version.format(version='V')}, each in backticks"
)
#: The flow every tool's description states.
FLOW: Final = (
    "conflict-gate decides, from pinned and verified documentation, whether an answer about one claim "
    "at one exact version may be given, and checks the answer. The flow: (1) versions: the versions, "
    "the approved pages of each and the keys each declares; choose the candidate pages of the version "
    "asked about. (2) gate: candidate_ids, requested_version, claim_key. Only status `ready` allows an "
    "answer; `conflict`, `not_in_docs` and `refused` mean do not answer: say why, and never fall back to "
    "another version. (3) Write the answer with the ready decision's answer_request (its system message "
    "gives the exact form), or send those messages to a model. (4) check_answer with the decision, "
    "unchanged, and the answer: show the answer only when the verdict is `supported`. The answer form: "
    f"{_FORM}."
)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its title, what it does (before :data:`FLOW`), its parameters (name -> meaning, in
    order; ``required`` names the ones without a default) and the schema its result has."""

    title: str
    does: str
    parameters: Mapping[str, str]
    required: tuple[str, ...]
    schema: str

    @property
    def description(self) -> str:
        """The tool's description as the server publishes it: what it does, then the flow."""
        return f"{self.does}\n\n{FLOW}"


#: The tools, in the flow's order. The server (``mcp_server``), its tests and ``reference/mcp.md`` read this.
TOOLS: Final[Mapping[str, ToolSpec]] = MappingProxyType(
    {
        "versions": ToolSpec(
            "Versions and pages",
            "List what can be asked: the grammar (operations, keys, allowed values), the "
            "renderer, the version scheme and, per version, every approved page (source id, URL, path) with "
            "the keys it declares, or why it is refused. Pick candidate_ids for gate from here.",
            MappingProxyType({}),
            (),
            "versions",
        ),
        "gate": ToolSpec(
            "Gate a request",
            "Decide whether an answer about one claim at one exact version may be "
            "prepared: `ready` with a cited answer request only when every eligible candidate (approved, "
            "of exactly that version) declares the claim and all agree; otherwise `conflict`, "
            "`not_in_docs` or `refused`, every claim kept, the request withheld.",
            MappingProxyType(
                {
                    "candidate_ids": "the source ids of the pages you would give a model for this question "
                    "(from versions); every eligible one must declare the claim",
                    "requested_version": "the version asked about, exactly, in the manifest's version scheme",
                    "claim_key": "the key asked about (a key of the grammar)",
                    "operation": "the operation; needed only when several operations have the key "
                    "(error `ambiguous_claim_key` otherwise)",
                    "unrelated": "what becomes of eligible pages about other operations: "
                    + "; ".join(f"`{name}`: {meaning}" for name, meaning in UNRELATED_OPTIONS.items()),
                    "question": "the user's question, as written: a ready decision's answer request carries it as a "
                    "second user message (it decides nothing; error `invalid_question` when empty, "
                    "too long or holding control characters)",
                }
            ),
            ("candidate_ids", "requested_version", "claim_key"),
            "decision",
        ),
        "check_answer": ToolSpec(
            "Check an answer",
            "Check an answer written from a ready decision's answer request against that "
            "decision: every claim cited at its line, every quote exact and attributed, the agreed value and "
            "the requested version stated, nothing else stated. Returns the verdict and every finding.",
            MappingProxyType(
                {
                    "decision": "the gate tool's result, unchanged (it is checked against this corpus)",
                    "answer": "the answer text",
                }
            ),
            ("decision", "answer"),
            "answer-check",
        ),
        "audit": ToolSpec(
            "Audit the docs",
            "Report, per version, operation and key, whether the approved pages agree, "
            "conflict or are partly silent; refused pages, pages that fail verification, drafts that would "
            "conflict once approved, near-misses and unlisted pages.",
            MappingProxyType(
                {
                    "limit": "at most this many items in each list of the report (default: no limit; the counts "
                    "in summary stay whole, and truncated says whether a list was cut)",
                }
            ),
            (),
            "audit",
        ),
    }
)


@dataclass(frozen=True)
class _Stamp:
    """What the manifest file was when it was last hashed: its ``stat`` key, its digest, and when."""

    key: tuple[int, ...] | None
    digest: str | None
    hashed_at: float

    @staticmethod
    def stat_key(path: str) -> tuple[int, ...] | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)

    @classmethod
    def of(cls, path: str, clock: Callable[[], float]) -> _Stamp:
        key = cls.stat_key(path)  # before reading: an edit after this is seen next time
        hashed_at = clock()
        try:
            raw = read_capped(
                os.path.realpath(path),
                MAX_MANIFEST_BYTES,
                lambda reason, detail: IngestionError("manifest_unreadable", detail, path=path),
            )
        except IngestionError:
            return cls(key, None, hashed_at)
        return cls(key, hashlib.sha256(raw).hexdigest(), hashed_at)

    def trusted(self, key: tuple[int, ...] | None) -> bool:
        """Is the file certainly unchanged since it was hashed, from its ``stat`` alone?"""
        return (
            key is not None and key == self.key and key[3] / 1e9 + RACY_SECONDS < self.hashed_at
        )  # key[3]: mtime in ns


def _same_error(a: LocatedError | None, b: LocatedError) -> bool:
    return type(a) is type(b) and a is not None and a.reason == b.reason and str(a) == str(b)


class GateService:
    """The corpus of one manifest, kept fresh for many calls (see the module docstring).

    ``manifest`` is the path as given (error messages name it as the command
    line does); ``prog`` is how the command line is typed, for the hints in error
    lines. Loading it raises :class:`~_conflict_gate.base.errors.IngestionError` or
    :class:`~_conflict_gate.base.errors.GrammarError` for a manifest that does not
    load; a source that fails verification is kept, refused. ``clock`` is the
    wall clock (``time.time``) and ``load`` the loader
    (:func:`~_conflict_gate.corpus.load.load_documents`), passed in for the tests; ``cache`` and ``jobs``
    are passed to it (its reading cache and workers, as ``load_documents`` takes them).
    ``reloads`` and ``reread`` count full reloads and sources read for
    directives again since the start (figures for the tests and the benchmark).
    """

    def __init__(
        self,
        manifest: str | os.PathLike[str],
        *,
        prog: str = "conflict-gate",
        clock: Callable[[], float] = time.time,
        load: Callable[..., Corpus] = load_documents,
        cache: str | os.PathLike[str] | bool | None = None,
        jobs: int = 1,
    ) -> None:
        self.manifest = os.fspath(manifest)
        self.prog = prog
        self._clock = clock
        options: dict[str, Any] = {"cache": cache, "jobs": jobs} if (cache, jobs) != (None, 1) else {}
        self._load = functools.partial(load, **options)
        self._lock = threading.Lock()
        self._stamp = _Stamp.of(self.manifest, clock)
        self._corpus = load(self.manifest, strict=False)
        #: source id -> digest of the bytes a failed source failed with (unchanged bytes fail the same way)
        self._failed_digests: dict[str, str] = {}
        self.reloads = 0
        self.reread = 0

    @property
    def corpus(self) -> Corpus:
        """The corpus as last verified (no check made)."""
        return self._corpus

    # ------------------------------------------------------------------ the tools

    def versions(self) -> Versions:
        """The versions listing (:func:`~_conflict_gate.decide.decision.versions_listing`), every approved source
        re-verified first."""
        corpus = self.current(lambda c: [s for s in c.sources.values() if s.status == ELIGIBLE_STATUS])
        return versions_listing(corpus)

    def gate(
        self,
        candidate_ids: Sequence[str],
        requested_version: str,
        claim_key: str,
        operation: str | None = None,
        unrelated: str = DEFAULT_UNRELATED,
        question: str | None = None,
    ) -> Decision:
        """:func:`~_conflict_gate.decide.decision.gate`, its eligible candidates re-verified first; without
        ``operation``, the one operation that has ``claim_key`` (:func:`~_conflict_gate.decide.decision.claim_operation`)."""
        corpus = self.current(lambda c: _eligible(c, candidate_ids, requested_version))
        chosen = claim_operation(
            corpus.grammar,
            claim_key,
            operation,
            name_one=" in the gate tool's operation",
            see_grammar="; the versions tool lists them",
        )
        return gate(corpus, candidate_ids, requested_version, chosen, claim_key, unrelated=unrelated, question=question)

    def check_answer(self, decision: Any, answer: str | bytes) -> AnswerCheck:
        """:func:`~_conflict_gate.answer.check.check_answer`, the decision's eligible candidates re-verified
        first; when a finding looked a quote up in every source (:data:`~_conflict_gate.answer.check.CORPUS_WIDE_FINDINGS`),
        every source is re-verified and the answer is checked once more."""

        def used(corpus: Corpus) -> list[Source]:
            if not isinstance(decision, dict):
                return []
            return _eligible(corpus, decision.get("candidate_ids"), decision.get("requested_version"))

        result = check_answer(self.current(used), decision, answer)
        if any(finding["kind"] in CORPUS_WIDE_FINDINGS for finding in result["findings"]):
            return check_answer(self.current(None), decision, answer)  # looked up in every source
        return result

    def audit(self, limit: int | None = None) -> AuditReport:
        """:func:`~_conflict_gate.decide.decision.audit` of every source, re-verified first; with ``limit``,
        :func:`limit_report`."""
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
        report = audit(self.current(None))
        return report if limit is None else limit_report(report, limit)

    def error_result(self, error: LocatedError) -> tuple[str, ToolError]:
        """``(text, structured content)`` of an error result: the command line's stderr line for
        ``error`` (without its newline) and ``{error, reason, message}``."""
        _, line = located_error(error, prog=self.prog, manifest=shown_manifest(self.manifest))
        return line, build(
            ToolError, TOOL_ERROR_FIELDS, {"error": type(error).__name__, "reason": error.reason, "message": str(error)}
        )

    # ------------------------------------------------------------------ freshness

    def current(self, used: Callable[[Corpus], Iterable[Source]] | None) -> Corpus:
        """The corpus to answer from: reloaded if the manifest changed, then the sources ``used``
        picks from it (``None``: every source) re-verified. Calls wait here for each other.

        Raises what :func:`~_conflict_gate.corpus.load.load_documents` raises for a manifest that no
        longer loads (the next call tries again), or :class:`IngestionError` for a folder that
        cannot be opened."""
        with self._lock:
            if self._manifest_changed():
                stamp = _Stamp.of(self.manifest, self._clock)
                self._corpus = self._load(self.manifest, strict=False)
                self._stamp = stamp
                self._failed_digests.clear()
                self.reloads += 1
            corpus = self._corpus
            sources = list(corpus.sources.values() if used is None else used(corpus))
            self._corpus = self._reverify(corpus, sources)
            return self._corpus

    def _manifest_changed(self) -> bool:
        key = _Stamp.stat_key(self.manifest)
        if self._stamp.trusted(key):
            return False
        fresh = _Stamp.of(self.manifest, self._clock)
        if fresh.digest is None or fresh.digest != self._stamp.digest:
            return True
        self._stamp = fresh  # the same bytes: trust the new stat once it is old enough
        return False

    def _reverify(self, corpus: Corpus, sources: list[Source]) -> Corpus:
        """``corpus`` with each of ``sources`` checked against its file; the same object if none changed."""
        if not sources:
            return corpus
        changed: dict[str, Source] = {}
        grammar, renderer = corpus.grammar, corpus.manifest.renderer
        recorded: list[Recorded | None] = []  # the manifest's recorded readings, read when a page changed

        def readings() -> Recorded | None:
            if not recorded:
                recorded.append(read_recorded(corpus.manifest))
            return recorded[0]

        with SourceFiles(corpus.manifest.root) as files:
            # manifest order, as a load reads them: of two entries reaching one file, the second fails
            for source in sorted(sources, key=lambda s: s.entry.position):
                fresh = self._check(files, grammar, renderer, source, readings)
                if fresh is not source:
                    changed[source.source_id] = fresh
        if not changed:
            return corpus
        return Corpus(
            corpus.manifest, MappingProxyType({sid: changed.get(sid, s) for sid, s in corpus.sources.items()})
        )

    def _check(
        self,
        files: SourceFiles,
        grammar: Grammar,
        renderer: Renderer,
        source: Source,
        readings: Callable[[], Recorded | None],
    ) -> Source:
        """``source`` if its file still holds the bytes it was loaded from, else the source a load
        would make of the file now. Reads and hashes the file; reads it for directives only when it
        changed and matches its pin (from the manifest's recorded readings when it has them,
        ``readings()``: never as Markdown then)."""
        sid = source.source_id
        if source.failed and source.refusal is not None and source.refusal.reason in _MANIFEST_DECIDED:
            return source  # the manifest alone decides these: kept until it changes (a reload)
        try:
            raw = files.read(source.entry)
        except IngestionError as error:
            if error.reason not in SOURCE_INGESTION_REASONS:
                raise
            self._failed_digests.pop(sid, None)
            return (
                source if source.failed and _same_error(source.refusal, error) else failed_source(source.entry, error)
            )
        digest = source_digest(raw)
        if (not source.failed and digest == source.sha256) or self._failed_digests.get(sid) == digest:
            return source
        try:
            fresh = source_from_bytes(
                raw,
                grammar,
                source.entry,
                renderer=renderer,
                digest=digest,
                recorded=readings() if digest == source.entry.sha256 else None,
            )
        except IngestionError as error:
            self._failed_digests[sid] = digest
            return (
                source if source.failed and _same_error(source.refusal, error) else failed_source(source.entry, error)
            )
        self._failed_digests.pop(sid, None)
        self.reread += 1
        return fresh


#: The per-source failures the manifest decides, not the page's bytes: which of two entries reaching one
#: file is the duplicate (it depends on every entry), and a page not pinned yet (an empty pin).
_MANIFEST_DECIDED: Final = frozenset({"duplicate_path", "source_unpinned"})


def _eligible(corpus: Corpus, candidate_ids: Any, version: Any) -> list[Source]:
    """The sources of ``candidate_ids`` (those in the corpus) that are eligible at ``version``: the
    only ones whose bytes a decision reads. Anything that is not a list of ids gives none (the gate
    then refuses the request)."""
    if not isinstance(candidate_ids, (list, tuple)):
        return []
    found = (corpus.sources.get(sid) for sid in candidate_ids if isinstance(sid, str))
    return [s for s in found if s is not None and s.status == ELIGIBLE_STATUS and s.version == version]


def limit_report(report: AuditReport, limit: int) -> AuditReport:
    """``report`` with every list of items cut to its first ``limit``: ``operations`` (and in each its
    ``source_ids`` and ``keys``, and in each key its ``claims`` and ``silent``), ``refused_sources``,
    ``unapproved_conflicts``, ``near_misses``, ``left_out_readings`` and ``unlisted_sources``; ``truncated`` says whether one
    was cut. ``source_count``, ``versions``, a key's ``values``, ``summary`` and ``clean`` stay whole."""
    cut = False

    def take(items: list[Any]) -> list[Any]:
        nonlocal cut
        cut = cut or len(items) > limit
        return items[:limit]

    operations = [
        build(
            AuditOperation,
            AUDIT_OPERATION_FIELDS,
            {
                **operation,
                "source_ids": take(operation["source_ids"]),
                "keys": [
                    build(
                        AuditEntry,
                        AUDIT_ENTRY_FIELDS,
                        {**entry, "claims": take(entry["claims"]), "silent": take(entry["silent"])},
                    )
                    for entry in take(operation["keys"])
                ],
            },
        )
        for operation in take(report["operations"])
    ]
    return build(
        AuditReport,
        AUDIT_FIELDS,
        {
            **report,
            "operations": operations,
            "refused_sources": take(report["refused_sources"]),
            "unapproved_conflicts": take(report["unapproved_conflicts"]),
            "near_misses": take(report["near_misses"]),
            "left_out_readings": take(report["left_out_readings"]),
            "unlisted_sources": take(report["unlisted_sources"]),
            "truncated": cut,
        },
    )
