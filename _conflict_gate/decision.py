"""The decision: may an answer about one claim at one version be prepared? And the audit.

:func:`gate` takes a verified :class:`~_conflict_gate.corpus.Corpus`, the
candidate source ids a retriever found, a requested version and a claim
(operation and key). Only *eligible* candidates count: approved ones whose
version equals the requested one exactly. It returns ``ready`` with a cited
answer request only when every eligible source declares the claim and all
values agree; otherwise ``refused``, ``conflict`` or ``not_in_docs`` (that
precedence when several apply), with the request withheld. Statuses and
reasons come from :data:`~_conflict_gate.registry.DECISIONS`.

:func:`audit` reads every source and reports, per version, operation and key,
whether the approved sources agree; it names refused sources, drafts that
would conflict once approved, and near-misses.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Any, Final, Mapping, Sequence

from .corpus import Corpus, Source
from .errors import GateError, LocatedError, printable
from .grammar import IntegerRule
from .reader import Claim
from .registry import AUDIT_STATUSES, status_of
from .request import answer_request

__all__ = ["CLAIM_FIELDS", "RESULT_FIELDS", "audit", "claim_record", "gate", "refused_result"]

#: The fields of every claim in a result, in order.
CLAIM_FIELDS: Final = ("source_id", "version", "path", "url", "source_sha256", "document_revision",
                       "operation", "claim_key", "value", "start_line", "end_line", "start", "end",
                       "byte_start", "byte_end", "quote")
#: The fields every result starts with, in order; then the status's own fields; then ``claims``
#: and ``answer_request``.
RESULT_FIELDS: Final = ("requested_version", "claim_key", "operation", "candidate_ids",
                        "eligible_source_ids", "excluded_wrong_version_ids", "excluded_unapproved_ids",
                        "candidates", "status", "reason")
#: Fields a result adds for its reason (``refused`` adds :data:`REFUSED_FIELDS` for every reason).
REASON_FIELDS: Final = {
    "eligible_directives_agree": ("agreed_value",),
    "requested_claim_missing": ("missing_claim_source_ids",),
    "no_eligible_version": ("candidate_versions",),
    "no_approved_source": (),
    "same_version_directives_disagree": (),
}
REFUSED_FIELDS: Final = ("error", "message", "source_id", "path", "line", "column", "refused_sources",
                         "parsed_source_ids")


def claim_record(source: Source, claim: Claim) -> dict[str, Any]:
    """One claim as a new dict with :data:`CLAIM_FIELDS` (code points in ``start``/``end``, bytes in ``byte_*``)."""
    return {
        "source_id": source.source_id, "version": source.version, "path": source.path,
        "url": source.url, "source_sha256": source.sha256,
        "document_revision": source.document_revision, "operation": claim.operation,
        "claim_key": claim.claim_key, "value": claim.value, "start_line": claim.line,
        "end_line": claim.line, "start": claim.start, "end": claim.end,
        "byte_start": claim.byte_start, "byte_end": claim.byte_end, "quote": claim.quote,
    }


def _check_request(corpus: Corpus, candidate_ids: Any, requested_version: Any, operation: Any,
                   claim_key: Any) -> list[Source]:
    """Validate the request before deciding; return the candidate sources sorted by id."""
    if not isinstance(candidate_ids, (list, tuple)) or not all(
            isinstance(sid, str) and sid for sid in candidate_ids):
        raise GateError("invalid_candidate_ids", "candidate ids must be a list (or tuple) of non-empty "
                        f"strings, got {printable(repr(candidate_ids))[:200]}")
    ordered = sorted(candidate_ids)  # sorted: the id an error names never depends on order
    for previous, sid in zip(ordered, ordered[1:]):
        if sid == previous:
            raise GateError("duplicate_candidate", "candidate is listed twice", source_id=sid)
    scheme = corpus.version_scheme
    if not scheme.fits(requested_version):
        have = ", ".join(scheme.sorted(s.version for s in corpus.sources.values())) or "none"
        raise GateError("invalid_requested_version",
                        f"requested version {printable(repr(requested_version))} does not fit the "
                        f"version scheme {scheme.name!r} ({scheme.description}); the corpus has: {have}")
    if corpus.grammar.rule(operation, claim_key) is None:
        known = ", ".join(f"{op} {key}" for op, key, _ in corpus.grammar.claims())
        raise GateError("unsupported_requested_claim",
                        f"the grammar has no claim {printable(repr(operation))} "
                        f"{printable(repr(claim_key))} (known: {known})")
    candidates = []
    for sid in ordered:
        source = corpus.sources.get(sid)
        if source is None:
            near = difflib.get_close_matches(sid, list(corpus.sources), n=3)
            hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
            raise GateError("unknown_candidate", f"not in the manifest{hint}", source_id=sid)
        candidates.append(source)
    return candidates


def gate(corpus: Corpus, candidate_ids: Sequence[str], requested_version: str, operation: str,
         claim_key: str) -> dict[str, Any]:
    """Decide whether an answer about ``operation``/``claim_key`` at ``requested_version`` may be prepared.

    ``corpus`` is a loaded, verified :class:`Corpus` (load it once, decide
    many times). Eligible: candidates whose status is ``approved`` and whose
    version equals ``requested_version`` exactly; a newer version, a draft or
    a deprecated page is never a fallback. Returns a dict: :data:`RESULT_FIELDS`,
    then the reason's fields (:data:`REASON_FIELDS`, or :data:`REFUSED_FIELDS`),
    then ``claims`` (:data:`CLAIM_FIELDS` each) and ``answer_request`` (``None``
    unless ready). Lists are sorted by source id, so candidate order never
    matters; ``candidate_ids`` echoes the request.

    Raises :class:`GateError` for an invalid request (``invalid_candidate_ids``,
    ``duplicate_candidate``, ``invalid_requested_version``,
    ``unsupported_requested_claim``, ``unknown_candidate``). Never sends the
    answer request anywhere.
    """
    candidates = _check_request(corpus, candidate_ids, requested_version, operation, claim_key)
    same_version = [s for s in candidates if s.version == requested_version]
    eligible = [s for s in same_version if s.status == "approved"]
    request = {
        "requested_version": requested_version,
        "claim_key": claim_key,
        "operation": operation,
        "candidate_ids": list(candidate_ids),
        "eligible_source_ids": [s.source_id for s in eligible],
        "excluded_wrong_version_ids": [s.source_id for s in candidates if s.version != requested_version],
        "excluded_unapproved_ids": [s.source_id for s in same_version if s.status != "approved"],
        "candidates": [{"source_id": s.source_id, "version": s.version, "status": s.status}
                       for s in candidates],
    }
    if not same_version:
        versions = corpus.version_scheme.sorted(s.version for s in candidates)
        return _decision(corpus, request, "no_eligible_version", [], candidate_versions=versions)
    if not eligible:
        return _decision(corpus, request, "no_approved_source", [])
    refused = [s for s in eligible if s.refusal is not None]
    if refused:
        return refused_result(request, refused[0].refusal, refused,  # type: ignore[arg-type]
                              [s.source_id for s in eligible if s.refusal is None])
    found = [(s, s.claim(operation, claim_key)) for s in eligible]
    claims = [claim_record(s, claim) for s, claim in found if claim is not None]
    values = {claim["value"] for claim in claims}
    if len(values) > 1:
        return _decision(corpus, request, "same_version_directives_disagree", claims)
    missing = [s.source_id for s, claim in found if claim is None]
    if missing:
        return _decision(corpus, request, "requested_claim_missing", claims,
                         missing_claim_source_ids=missing)
    return _decision(corpus, request, "eligible_directives_agree", claims, agreed_value=values.pop())


def _decision(corpus: Corpus, request: Mapping[str, Any], reason: str, claims: list[dict[str, Any]],
              **fields: Any) -> dict[str, Any]:
    status = status_of(reason)
    result = {**request, "status": status, "reason": reason, **fields, "claims": claims}
    result["answer_request"] = answer_request(corpus.grammar, request, claims) if status == "ready" else None
    return result


def refused_result(request: Mapping[str, Any], error: LocatedError, refused: Sequence[Source] = (),
                   parsed_source_ids: Sequence[str] | None = None) -> dict[str, Any]:
    """A ``refused`` result for ``request`` caused by ``error``; the answer request is withheld.

    Adds ``status``, ``reason``, :data:`REFUSED_FIELDS` (the first refused
    source's error, then every refused eligible source and the eligible
    sources that read cleanly; ``None`` where nothing was read), ``claims: []``
    and ``answer_request: None``.
    """
    return {**request, "status": "refused", "reason": error.reason, "error": type(error).__name__,
            "message": str(error), "source_id": error.source_id, "path": error.path,
            "line": error.line, "column": error.column,
            "refused_sources": [{"source_id": s.source_id, "reason": s.refusal.reason,  # type: ignore[union-attr]
                                 "line": s.refusal.line, "column": s.refusal.column,  # type: ignore[union-attr]
                                 "message": str(s.refusal)} for s in refused],
            "parsed_source_ids": None if parsed_source_ids is None else list(parsed_source_ids),
            "claims": [], "answer_request": None}


# --------------------------------------------------------------------------
# Audit (every source, every version)


def audit(corpus: Corpus) -> dict[str, Any]:
    """Read every source and report agreement, conflicts, gaps, refusals, drafts and near-misses.

    Returns ``{"source_count", "versions", "claims", "refused_sources",
    "unapproved_conflicts", "near_misses", "summary", "clean"}``. Each
    ``claims`` entry covers one version x operation x key that an approved
    source of that version declares: ``status`` (:data:`AUDIT_STATUSES`),
    ``values``, ``source_ids``, ``missing_source_ids`` (silent approved
    sources), ``refused_source_ids`` (refused approved sources, which the
    gate would refuse too) and the claims. ``refused_sources`` lists every
    refused source (any status) with its reason and location;
    ``unapproved_conflicts`` the claims of drafts and deprecated pages whose
    value differs from the approved ones of their version (they would
    conflict once approved). ``clean``: no conflict and no refused approved
    source. Output order is deterministic.
    """
    scheme = corpus.version_scheme
    ordered = sorted(corpus.sources.values(), key=lambda s: s.source_id)
    declared: dict[tuple[str, str, str], list[tuple[Source, Claim]]] = defaultdict(list)
    parsed: dict[str, list[str]] = defaultdict(list)
    refused_by_version: dict[str, list[str]] = defaultdict(list)
    refused = []
    for source in ordered:
        if source.refusal is not None:
            error = source.refusal
            refused.append({"source_id": source.source_id, "version": source.version,
                            "status": source.status, "path": source.path, "error": type(error).__name__,
                            "reason": error.reason, "line": error.line, "column": error.column,
                            "message": str(error)})
            if source.status == "approved":
                refused_by_version[source.version].append(source.source_id)
            continue
        if source.status != "approved":
            continue
        parsed[source.version].append(source.source_id)
        for claim in source.claims:
            declared[(source.version, claim.operation, claim.claim_key)].append((source, claim))

    entries = []
    for version, operation, key in sorted(declared, key=lambda k: (scheme.sort_key(k[0]), k[1], k[2])):
        found = declared[(version, operation, key)]
        numeric = isinstance(corpus.grammar.rule(operation, key), IntegerRule)
        values = sorted({claim.value for _, claim in found}, key=int if numeric else None)
        have = {source.source_id for source, _ in found}
        missing = [sid for sid in parsed[version] if sid not in have]
        refused_here = refused_by_version[version]
        status = "conflict" if len(values) > 1 else "partial" if missing or refused_here else "agree"
        entries.append({
            "version": version, "operation": operation, "claim_key": key, "status": status,
            "values": values, "source_ids": [source.source_id for source, _ in found],
            "missing_source_ids": missing, "refused_source_ids": refused_here,
            "claims": [{"source_id": source.source_id, "path": source.path, "line": claim.line,
                        "value": claim.value, "quote": claim.quote} for source, claim in found],
        })
    approved_values = {(e["version"], e["operation"], e["claim_key"]): e["values"] for e in entries}
    unapproved = [
        {"source_id": s.source_id, "status": s.status, "version": s.version, "path": s.path,
         "line": claim.line, "operation": claim.operation, "claim_key": claim.claim_key,
         "value": claim.value, "approved_values": approved_values[(s.version, claim.operation, claim.claim_key)]}
        for s in ordered if s.status != "approved" and s.refusal is None for claim in s.claims
        if (s.version, claim.operation, claim.claim_key) in approved_values
        and approved_values[(s.version, claim.operation, claim.claim_key)] != [claim.value]
    ]
    near_misses = [{"source_id": s.source_id, "path": s.path, "line": m.line, "column": m.column,
                    "where": m.where, "quote": m.quote} for s in ordered for m in s.near_misses]
    summary: dict[str, int] = {status: sum(e["status"] == status for e in entries)
                               for status in AUDIT_STATUSES}
    summary.update(refused=sum(r["status"] == "approved" for r in refused),
                   unapproved_conflicts=len(unapproved), near_misses=len(near_misses))
    return {
        "source_count": len(corpus.sources),
        "versions": scheme.sorted(s.version for s in ordered),
        "claims": entries,
        "refused_sources": refused,
        "unapproved_conflicts": unapproved,
        "near_misses": near_misses,
        "summary": summary,
        "clean": summary["conflict"] == 0 and summary["refused"] == 0,
    }
