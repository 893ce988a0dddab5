"""The decision: may an answer about one claim at one version be prepared? And the audit.

:func:`gate` takes a verified :class:`~_conflict_gate.corpus.load.Corpus`, the
candidate source ids a retriever found, a requested version and a claim
(operation and key). Only *eligible* candidates count: approved ones whose
version equals the requested one exactly. It returns ``ready`` with a cited
answer request only when every eligible source declares the claim and all
values agree; otherwise ``refused``, ``conflict`` or ``not_in_docs`` (that
precedence when several apply), with the request withheld. Statuses and
reasons come from :data:`~_conflict_gate.base.registry.DECISIONS`.

:func:`audit` reads every source and reports, per version and operation, the
approved sources about it (that declare some key of it) and per key whether
they agree; it names refused and failed sources, drafts that would conflict
once approved, near-misses, and the pages the manifest's ``sources`` take
that it does not list.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from ..base.errors import GateError, LocatedError, printable
from ..base.jsondata import canonical_json
from ..base.registry import AUDIT_STATUSES, DEFAULT_UNRELATED, ELIGIBLE_STATUS, status_of
from ..corpus.load import MEMO_ENTRY_BYTES, Corpus, Source, collection_paused
from ..manifest.grammar import Grammar, IntegerRule
from ..manifest.read import Manifest
from ..reading.reading_shapes import Claim
from ..results.audit import (
    AUDIT_CLAIM_FIELDS,
    AUDIT_ENTRY_FIELDS,
    AUDIT_FIELDS,
    AUDIT_OPERATION_FIELDS,
    AUDIT_REFUSAL_FIELDS,
    AUDIT_SILENCE_FIELDS,
    AUDIT_SUMMARY_FIELDS,
    LEFT_OUT_FIELDS,
    NEAR_MISS_FIELDS,
    UNAPPROVED_CONFLICT_FIELDS,
    UNLISTED_SOURCE_FIELDS,
    AuditClaim,
    AuditEntry,
    AuditOperation,
    AuditRefusal,
    AuditReport,
    AuditSilence,
    AuditSummary,
    LeftOutRecord,
    NearMissRecord,
    UnapprovedConflict,
    UnlistedSource,
)
from ..results.service import (
    VERSION_LISTING_FIELDS,
    VERSION_SOURCE_FIELDS,
    VERSIONS_FIELDS,
    VersionListing,
    Versions,
    VersionSource,
)
from ..results.shapes import (
    CANDIDATE_FIELDS,
    CLAIM_FIELDS,
    REFUSED_FIELDS,
    REFUSED_SOURCE_FIELDS,
    AnswerRequest,
    CandidateRecord,
    ClaimRecord,
    Decision,
    RefusedSourceRecord,
    build,
    decision_fields,
)
from .request import check_question, check_unrelated, messages, request_texts

__all__ = [
    "audit",
    "candidate_sources",
    "claim_operation",
    "claim_record",
    "gate",
    "refusal_fields",
    "unlisted_sources",
    "versions_listing",
]


def claim_record(source: Source, claim: Claim, revision: str | None = None) -> ClaimRecord:
    """One claim as a new dict with :data:`~_conflict_gate.results.shapes.CLAIM_FIELDS` (code points in
    ``start``/``end``, bytes in ``byte_*``); ``revision`` is the source's document revision, when the
    caller has it (:meth:`Corpus.document_revision <_conflict_gate.corpus.load.Corpus.document_revision>`)."""
    return build(
        ClaimRecord,
        CLAIM_FIELDS,
        {
            "source_id": source.source_id,
            "version": source.version,
            "path": source.path,
            "url": source.url,
            "source_sha256": source.sha256,
            "document_revision": source.document_revision if revision is None else revision,
            "operation": claim.operation,
            "claim_key": claim.claim_key,
            "value": claim.value,
            "start_line": claim.line,
            "end_line": claim.line,
            "start": claim.start,
            "end": claim.end,
            "byte_start": claim.byte_start,
            "byte_end": claim.byte_end,
            "quote": claim.quote,
        },
    )


def _check_request(
    corpus: Corpus,
    candidate_ids: Any,
    requested_version: Any,
    operation: Any,
    claim_key: Any,
    unrelated: Any = DEFAULT_UNRELATED,
) -> list[Source]:
    """Validate the request before deciding; return the candidate sources sorted by id."""
    check_unrelated(unrelated)
    return candidate_sources(corpus, candidate_ids, requested_version, (operation, claim_key))


def candidate_sources(
    corpus: Corpus, candidate_ids: Any, requested_version: Any, claim: tuple[Any, Any] | None = None
) -> list[Source]:
    """The candidate sources of a request, sorted by id, after checking the request as :func:`gate`
    does: the ids, the version and (when ``claim`` is ``(operation, claim_key)``) the claim, in that
    order. Raises :class:`GateError` (``invalid_candidate_ids``, ``duplicate_candidate``,
    ``invalid_requested_version``, ``unsupported_requested_claim``, ``unknown_candidate``)."""
    if not isinstance(candidate_ids, (list, tuple)) or not all(isinstance(sid, str) and sid for sid in candidate_ids):
        raise GateError(
            "invalid_candidate_ids",
            f"candidate ids must be a list (or tuple) of non-empty strings, got {printable(repr(candidate_ids))[:200]}",
        )
    ordered = sorted(candidate_ids)  # sorted: the id an error names never depends on order
    for previous, sid in pairwise(ordered):
        if sid == previous:
            raise GateError("duplicate_candidate", "candidate is listed twice", source_id=sid)
    scheme = corpus.version_scheme
    if not scheme.fits(requested_version):
        have = ", ".join(scheme.sorted(entry.version for entry in corpus.manifest.entries)) or "none"
        raise GateError(
            "invalid_requested_version",
            f"requested version {printable(repr(requested_version))} does not fit the "
            f"version scheme {scheme.name!r} ({scheme.description}); the corpus has: {have}",
        )
    if claim is not None and corpus.grammar.rule(*claim) is None:
        operation, claim_key = claim
        known = ", ".join(f"{op} {key}" for op, key, _ in corpus.grammar.claims())
        raise GateError(
            "unsupported_requested_claim",
            f"the grammar has no claim {printable(repr(operation))} {printable(repr(claim_key))} (known: {known})",
        )
    candidates = []
    for sid in ordered:
        source = corpus.sources.get(sid)
        if source is None:
            if not corpus.complete and any(entry.source_id == sid for entry in corpus.manifest.entries):
                raise GateError(
                    "unknown_candidate",
                    "in the manifest, but not in this corpus: it was loaded with "
                    "only= (load_documents) and without this source",
                    source_id=sid,
                )
            near = corpus.id_index.close(sid)
            # the requested version's pages first (only they can be eligible), each group as ranked; the
            # manifest's entries, as a corpus loaded with only= holds none of the other pages
            versions = {entry.source_id: entry.version for entry in corpus.manifest.entries if entry.source_id in near}
            near.sort(key=lambda close: versions.get(close) != requested_version)
            hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
            raise GateError("unknown_candidate", f"not in the manifest{hint}", source_id=sid)
        candidates.append(source)
    return candidates


def gate(
    corpus: Corpus,
    candidate_ids: Sequence[str],
    requested_version: str,
    operation: str,
    claim_key: str,
    *,
    unrelated: str = DEFAULT_UNRELATED,
    question: str | None = None,
) -> Decision:
    """Decide whether an answer about ``operation``/``claim_key`` at ``requested_version`` may be prepared.

    ``corpus`` is a loaded, verified :class:`Corpus` (load it once, decide
    many times). Eligible: candidates whose status is ``approved`` and whose
    version equals ``requested_version`` exactly; a newer version, a draft or
    a deprecated page is never a fallback. Returns a
    :class:`~_conflict_gate.results.shapes.Decision`, a plain dict whose fields and
    their order are :func:`~_conflict_gate.results.shapes.decision_fields` of its
    reason: the request and who is eligible, ``status`` and ``reason``, the
    reason's own fields, then ``claims`` and ``answer_request`` (``None``
    unless ready). Lists are sorted by source id, so candidate order never
    matters; ``candidate_ids`` echoes the request.

    ``unrelated`` (:data:`~_conflict_gate.base.registry.UNRELATED_OPTIONS`) says what
    becomes of an eligible source that reads cleanly but is not *about* the
    operation (declares no key of it): ``"withhold"`` (the default) counts it
    as silent, so the answer is withheld; ``"set_aside"`` lists it in
    ``set_aside_unrelated_ids`` (a field every decision made so ends with) and
    leaves it out of the decision, never counted as agreement; with no source
    left, ``not_in_docs``/``no_related_source``. A source about the operation
    that is silent on the key still withholds, and a refused one still refuses.

    ``question``: the user's question, carried by a ready decision's answer request as a second user
    message (:func:`~_conflict_gate.decide.request.answer_request`); it decides nothing.

    Raises :class:`GateError` for an invalid request (``invalid_candidate_ids``,
    ``duplicate_candidate``, ``invalid_requested_version``,
    ``unsupported_requested_claim``, ``unknown_candidate``,
    ``invalid_unrelated_option``, ``invalid_question``). Never sends the answer request anywhere.
    """
    candidates = _check_request(corpus, candidate_ids, requested_version, operation, claim_key, unrelated)
    if question is not None:
        check_question(question)
    same_version = [s for s in candidates if s.version == requested_version]
    eligible = [s for s in same_version if s.status == ELIGIBLE_STATUS]
    request = {
        "requested_version": requested_version,
        "claim_key": claim_key,
        "operation": operation,
        "candidate_ids": list(candidate_ids),
        "eligible_source_ids": [s.source_id for s in eligible],
        "excluded_wrong_version_ids": [s.source_id for s in candidates if s.version != requested_version],
        "excluded_unapproved_ids": [s.source_id for s in same_version if s.status != ELIGIBLE_STATUS],
        "candidates": [
            build(
                CandidateRecord, CANDIDATE_FIELDS, {"source_id": s.source_id, "version": s.version, "status": s.status}
            )
            for s in candidates
        ],
    }
    counted = eligible
    if unrelated == "set_aside":  # clean eligible sources about other operations take no part
        aside = {s.source_id for s in eligible if s.refusal is None and not s.about(operation)}
        counted = [s for s in eligible if s.source_id not in aside]
        request["set_aside_unrelated_ids"] = [s.source_id for s in eligible if s.source_id in aside]
    if not same_version:
        versions = corpus.version_scheme.sorted(s.version for s in candidates)
        return _decision(corpus, request, unrelated, "no_eligible_version", [], candidate_versions=versions)
    if not eligible:
        return _decision(corpus, request, unrelated, "no_approved_source", [])
    refused = [(s, s.refusal) for s in eligible if s.refusal is not None]
    if refused:
        first = refused[0][1]
        fields = refusal_fields(first, refused, [s.source_id for s in eligible if s.refusal is None])
        return _decision(corpus, request, unrelated, first.reason, [], **fields)
    if not counted:
        return _decision(corpus, request, unrelated, "no_related_source", [])
    found = [(s, _claim_record(corpus, s, operation, claim_key)) for s in counted]
    records = [record for _, record in found if record is not None]
    claims = [record for record, _ in records]
    values = {claim["value"] for claim in claims}
    if len(values) > 1:
        return _decision(corpus, request, unrelated, "same_version_directives_disagree", claims)
    missing = [s.source_id for s, record in found if record is None]
    if missing:
        return _decision(
            corpus, request, unrelated, "requested_claim_missing", claims, missing_claim_source_ids=missing
        )
    return _decision(
        corpus,
        request,
        unrelated,
        "eligible_directives_agree",
        claims,
        texts=tuple(text for _, text in records),
        question=question,
        agreed_value=values.pop(),
    )


def _claim_record(corpus: Corpus, source: Source, operation: str, claim_key: str) -> tuple[ClaimRecord, str] | None:
    """:func:`claim_record` of the claim ``source`` declares for ``operation``/``claim_key`` (a new dict
    each call) and its canonical JSON, or ``None`` when it declares none. Looked up once per source and
    claim of ``corpus`` (its document revision hashed then), the answer kept in
    :attr:`Corpus.memo <_conflict_gate.corpus.load.Corpus.memo>`, a missing claim too."""
    key = ("claim", source.source_id, operation, claim_key)
    known = corpus.memo.get(key)
    if known is None or known[0] is not source:
        claim = source.claim(operation, claim_key)
        if claim is None:
            known, size = (source, None), MEMO_ENTRY_BYTES
        else:
            record = claim_record(source, claim)
            encoded = canonical_json(record)
            known, size = (source, (record, encoded)), MEMO_ENTRY_BYTES + 3 * len(encoded)  # the JSON, the dict
        corpus.remember(key, known, size)
    found: tuple[ClaimRecord, str] | None = known[1]
    return None if found is None else (found[0].copy(), found[1])


def _answer_request(
    corpus: Corpus,
    request: Mapping[str, Any],
    claims: list[ClaimRecord],
    encoded: tuple[str, ...],
    question: str | None = None,
) -> AnswerRequest:
    """:func:`~_conflict_gate.decide.request.answer_request` of a ready decision whose claims' canonical JSON
    texts are ``encoded``, its texts built once per request and claims (kept in
    :attr:`Corpus.memo <_conflict_gate.corpus.load.Corpus.memo>`)."""
    key = ("request", request["requested_version"], request["operation"], request["claim_key"], encoded)
    texts = corpus.memo.get(key)
    if texts is None:
        texts = request_texts(corpus.grammar, request, claims, encoded)
        # the texts; the key's claims JSON are the claim entries' own strings (counted there): a pointer each
        corpus.remember(key, texts, MEMO_ENTRY_BYTES + len(texts[0]) + len(texts[1]) + 8 * len(encoded))
    system, user = texts
    return {"messages": messages(system, user, question)}


def _decision(
    corpus: Corpus,
    request: Mapping[str, Any],
    unrelated: str,
    reason: str,
    claims: list[ClaimRecord],
    *,
    texts: tuple[str, ...] = (),
    question: str | None = None,
    **fields: Any,
) -> Decision:
    """The decision for ``reason``; ``texts``: the canonical JSON of ``claims`` when it is ready."""
    status = status_of(reason)
    answer = _answer_request(corpus, request, claims, texts, question) if status == "ready" else None
    return build(
        Decision,
        decision_fields(reason, unrelated=unrelated),
        {**request, "status": status, "reason": reason, **fields, "claims": claims, "answer_request": answer},
    )


def refusal_fields(
    error: LocatedError,
    refused: Sequence[tuple[Source, LocatedError]] = (),
    parsed_source_ids: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The :data:`~_conflict_gate.results.shapes.REFUSED_FIELDS` of a refusal caused by ``error``.

    ``refused`` lists every refused eligible source with its refusal (the
    first is ``error``'s); ``parsed_source_ids`` the eligible sources that read
    cleanly, ``None`` where nothing was read.
    """
    return dict(
        build(
            dict,
            REFUSED_FIELDS,
            {
                "error": type(error).__name__,
                "message": str(error),
                "source_id": error.source_id,
                "path": error.path,
                "line": error.line,
                "column": error.column,
                "refused_sources": [
                    build(
                        RefusedSourceRecord,
                        REFUSED_SOURCE_FIELDS,
                        {
                            "source_id": source.source_id,
                            "reason": refusal.reason,
                            "line": refusal.line,
                            "column": refusal.column,
                            "message": str(refusal),
                        },
                    )
                    for source, refusal in refused
                ],
                "parsed_source_ids": None if parsed_source_ids is None else list(parsed_source_ids),
            },
        )
    )


# --------------------------------------------------------------------------
# Audit (every source, every version)


def audit(corpus: Corpus) -> AuditReport:
    """Read every source and report agreement, conflicts, gaps, refusals, drafts and near-misses.

    Returns an :class:`~_conflict_gate.results.shapes.AuditReport` (its fields:
    :data:`~_conflict_gate.results.shapes.AUDIT_FIELDS`), grouped by operation. An
    approved source that reads cleanly is *about* an operation when it declares
    some key of it (structure only: no prose is read). ``operations`` has one
    entry per version x operation that approved sources of the version are
    about, with those sources and, per key one of them declares, ``status``
    (:data:`AUDIT_STATUSES`), ``values``, the claims and the ``silent`` sources
    (about the operation, not declaring the key: ``partial``). A source not
    about an operation is not listed under it, so the report grows with
    sources and claims, not with sources x keys. ``refused_sources`` lists
    every refused source (any status) with its reason and location, those
    that failed verification in a non-strict load (``IngestionError``)
    included; ``unapproved_conflicts`` the claims of drafts and deprecated
    pages whose value differs from the approved ones of their version (they
    would conflict once approved). ``unlisted_sources``
    (:func:`unlisted_sources`) the pages the manifest's ``sources`` take that
    it does not list: the tree is walked when ``audit`` is called, and a
    folder there that cannot be listed raises
    :class:`~_conflict_gate.base.errors.IngestionError` (``source_unreadable``).
    ``clean``: no conflict, no refused approved source, no failed source and
    no unlisted page. Output order is deterministic. Raises ``ValueError`` for
    a corpus that is not :attr:`~_conflict_gate.corpus.load.Corpus.complete` (it
    would report the pages left out as if they did not exist).
    """
    _require_complete(corpus, "an audit")
    with collection_paused():
        return _audit(corpus)


def _require_complete(corpus: Corpus, what: str) -> None:
    if not corpus.complete:
        raise ValueError(
            f"{what} needs every source of the manifest; this corpus holds "
            f"{len(corpus)} of {len(corpus.manifest.entries)} (loaded with only=...)"
        )


def _audit(corpus: Corpus) -> AuditReport:
    scheme = corpus.version_scheme
    ordered = sorted(corpus.sources.values(), key=lambda s: s.source_id)
    declared: dict[tuple[str, str, str], list[tuple[Source, Claim]]] = defaultdict(list)
    #: (version, operation) -> source id -> (source, line of its first directive of the operation)
    about: dict[tuple[str, str], dict[str, tuple[Source, int]]] = defaultdict(dict)
    refused: list[AuditRefusal] = []
    for source in ordered:
        if source.refusal is not None:
            error = source.refusal
            refused.append(
                build(
                    AuditRefusal,
                    AUDIT_REFUSAL_FIELDS,
                    {
                        "source_id": source.source_id,
                        "version": source.version,
                        "status": source.status,
                        "path": source.path,
                        "error": type(error).__name__,
                        "reason": error.reason,
                        "line": error.line,
                        "column": error.column,
                        "message": str(error),
                    },
                )
            )
            continue
        if source.status != ELIGIBLE_STATUS:
            continue
        for claim in source.claims:
            declared[(source.version, claim.operation, claim.claim_key)].append((source, claim))
            about[(source.version, claim.operation)].setdefault(source.source_id, (source, claim.line))
    keys_of: dict[tuple[str, str], list[str]] = defaultdict(list)
    for version, operation, key in sorted(declared):
        keys_of[(version, operation)].append(key)

    operations: list[AuditOperation] = []
    approved_values: dict[tuple[str, str, str], list[str]] = {}
    counts = dict.fromkeys(AUDIT_STATUSES, 0)
    for version, operation in sorted(about, key=lambda k: (scheme.sort_key(k[0]), k[1])):
        members = about[(version, operation)]
        entries: list[AuditEntry] = []
        for key in keys_of[(version, operation)]:
            found = declared[(version, operation, key)]
            values = list({claim.value for _, claim in found})
            if len(values) > 1:
                numeric = isinstance(corpus.grammar.rule(operation, key), IntegerRule)
                values.sort(key=int if numeric else None)
            have = {source.source_id for source, _ in found}
            silent = [
                build(AuditSilence, AUDIT_SILENCE_FIELDS, {"source_id": sid, "path": source.path, "line": line})
                for sid, (source, line) in members.items()
                if sid not in have
            ]
            status = "conflict" if len(values) > 1 else "partial" if silent else "agree"
            counts[status] += 1
            approved_values[(version, operation, key)] = values
            entries.append(
                build(
                    AuditEntry,
                    AUDIT_ENTRY_FIELDS,
                    {
                        "claim_key": key,
                        "status": status,
                        "values": values,
                        "claims": [
                            build(
                                AuditClaim,
                                AUDIT_CLAIM_FIELDS,
                                {
                                    "source_id": source.source_id,
                                    "path": source.path,
                                    "line": claim.line,
                                    "value": claim.value,
                                    "quote": claim.quote,
                                },
                            )
                            for source, claim in found
                        ],
                        "silent": silent,
                    },
                )
            )
        operations.append(
            build(
                AuditOperation,
                AUDIT_OPERATION_FIELDS,
                {"version": version, "operation": operation, "source_ids": list(members), "keys": entries},
            )
        )
    unapproved = [
        build(
            UnapprovedConflict,
            UNAPPROVED_CONFLICT_FIELDS,
            {
                "source_id": s.source_id,
                "status": s.status,
                "version": s.version,
                "path": s.path,
                "line": claim.line,
                "operation": claim.operation,
                "claim_key": claim.claim_key,
                "value": claim.value,
                "approved_values": approved_values[(s.version, claim.operation, claim.claim_key)],
            },
        )
        for s in ordered
        if s.status != ELIGIBLE_STATUS and s.refusal is None
        for claim in s.claims
        if (s.version, claim.operation, claim.claim_key) in approved_values
        and approved_values[(s.version, claim.operation, claim.claim_key)] != [claim.value]
    ]
    near_misses = [
        build(
            NearMissRecord,
            NEAR_MISS_FIELDS,
            {
                "source_id": s.source_id,
                "path": s.path,
                "line": m.line,
                "column": m.column,
                "where": m.where,
                "quote": m.quote,
            },
        )
        for s in ordered
        for m in s.near_misses
    ]
    left_out = [
        build(
            LeftOutRecord,
            LEFT_OUT_FIELDS,
            {"source_id": s.source_id, "path": s.path, "reading": out.reading, "line": out.line, "why": out.why},
        )
        for s in ordered
        for out in s.left_out
    ]
    summary = build(
        AuditSummary,
        AUDIT_SUMMARY_FIELDS,
        {
            **counts,
            "refused": sum(r["status"] == ELIGIBLE_STATUS for r in refused),
            "unapproved_conflicts": len(unapproved),
            "near_misses": len(near_misses),
            "failed": sum(r["error"] == "IngestionError" for r in refused),
        },
    )
    unlisted_pages = unlisted_sources(corpus.manifest)
    return build(
        AuditReport,
        AUDIT_FIELDS,
        {
            "source_count": len(corpus.sources),
            "versions": scheme.sorted(s.version for s in ordered),
            "operations": operations,
            "refused_sources": refused,
            "unapproved_conflicts": unapproved,
            "near_misses": near_misses,
            "left_out_readings": left_out,
            "summary": summary,
            "clean": summary["conflict"] == 0
            and summary["refused"] == 0
            and summary["failed"] == 0
            and not unlisted_pages,
            "unlisted_sources": unlisted_pages,
            "renderer": corpus.manifest.renderer_name,
        },
    )


def unlisted_sources(manifest: Manifest) -> list[UnlistedSource]:
    """The pages the manifest's ``sources`` take that its ``documents`` do not list
    (``unlisted_source``, see :func:`~_conflict_gate.manifest.tree.unlisted`); ``[]`` without ``sources``.
    Walks the tree now (a corpus keeps no tree); reads no file."""
    from ..manifest.tree import unlisted  # the tree walk: the audit's only, never gate's

    return [
        build(
            UnlistedSource,
            UNLISTED_SOURCE_FIELDS,
            {
                "path": page.path,
                "reason": "unlisted_source",
                "version": page.version,
                "source_id": page.source_id,
                "message": page.message,
            },
        )
        for page in unlisted(manifest)
    ]


# --------------------------------------------------------------------------
# The operation of a request, and what can be asked (the versions listing)


def claim_operation(
    grammar: Grammar, claim_key: str, operation: str | None = None, *, name_one: str = "", see_grammar: str = ""
) -> str:
    """The operation of a request: ``operation`` when given, else the only operation of ``grammar``
    that has the key ``claim_key`` (the command line's ``--operation`` rule, and the ``gate`` tool's).

    Never picks one of several: raises :class:`GateError` ``ambiguous_claim_key`` when several
    operations have the key (its message ends with ``name_one``: how to name one), and
    ``unsupported_requested_claim`` when none has it (the known claims, then ``see_grammar``).
    """
    if operation is not None:
        return operation
    owners = [op for op, keys in grammar.operations.items() if claim_key in keys]
    if len(owners) == 1:
        return owners[0]
    shown = printable(repr(claim_key))[:200]
    if not owners:
        known = ", ".join(f"{op} {key}" for op, key, _ in grammar.claims())
        raise GateError("unsupported_requested_claim", f"the grammar has no key {shown} (known: {known}{see_grammar})")
    raise GateError(
        "ambiguous_claim_key", f"key {shown} belongs to several operations ({', '.join(owners)}): name one{name_one}"
    )


def versions_listing(corpus: Corpus) -> Versions:
    """What can be asked of ``corpus``: the grammar, the renderer, the version scheme and, per version
    (in the scheme's order), every approved source with its URL, its path and the keys it declares per
    operation, or why it is refused. Drafts and deprecated pages are left out: they are never eligible.
    Sources are listed by id; reads nothing (the corpus holds it all). Raises ``ValueError`` for a
    corpus that is not :attr:`~_conflict_gate.corpus.load.Corpus.complete`."""
    _require_complete(corpus, "the versions listing")
    by_version: dict[str, list[VersionSource]] = defaultdict(list)
    for source in sorted(corpus.sources.values(), key=lambda s: s.source_id):
        if source.status != ELIGIBLE_STATUS:
            continue
        keys: dict[str, list[str]] = {}
        for claim in source.claims:
            keys.setdefault(claim.operation, []).append(claim.claim_key)
        refusal = source.refusal
        by_version[source.version].append(
            build(
                VersionSource,
                VERSION_SOURCE_FIELDS,
                {
                    "source_id": source.source_id,
                    "url": source.url,
                    "path": source.path,
                    "keys": keys,
                    "refused": None if refusal is None else refusal.reason,
                    "message": None if refusal is None else str(refusal),
                },
            )
        )
    return build(
        Versions,
        VERSIONS_FIELDS,
        {
            "grammar": corpus.grammar.summary(),
            "renderer": corpus.manifest.renderer_name,
            "version_scheme": corpus.version_scheme.name,
            "versions": [
                build(VersionListing, VERSION_LISTING_FIELDS, {"version": version, "sources": by_version[version]})
                for version in corpus.version_scheme.sorted(by_version)
            ],
        },
    )
