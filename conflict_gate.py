"""Decide, before any model is asked, whether an answer about a versioned API may be prepared.

Flow, one direction only::

    manifest --load_documents--> Corpus (verified sources, directive lines)
             --parse----------> claims per eligible source (parsed once, cached on the
                                corpus; source_claims() returns them as dicts)
             --gate-----------> decision (status, reason, claims)
             --answer_request-> chat messages, only when ready (never sent)

The gate compares *declared values* of exact directives; it does not read
prose and does not detect contradictions written in words. Everything it
accepts is defined once, as data, in this module: :data:`GRAMMAR` (what a
directive may say) and :data:`DECISIONS` (every status and its reasons).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections import defaultdict
from types import MappingProxyType
from typing import Any, Final, Mapping, Sequence

from load_documents import (
    Corpus,
    DirectiveLine,
    LocatedError,
    Source,
    load_documents,
)

__all__ = [
    "AUDIT_STATUSES",
    "DECISIONS",
    "DIRECTIVE_REASONS",
    "DirectiveError",
    "GATE_REASONS",
    "GRAMMAR",
    "GateError",
    "NAMESPACE",
    "PRODUCT",
    "answer_request",
    "audit",
    "gate",
    "grammar_summary",
    "parse_directive",
    "refused_result",
    "source_claims",
]

# --------------------------------------------------------------------------
# The grammar, defined once.

#: The directive namespace: a directive line starts with ``"@" + NAMESPACE + " "``.
NAMESPACE: Final = "quill"
#: The product the directives describe, as named in the answer request.
PRODUCT: Final = "Quill"
#: operation -> claim key -> allowed values. The parser, request validation,
#: the saved result's ``grammar`` field and the README all derive from this.
GRAMMAR: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = MappingProxyType({
    "create_copy": MappingProxyType({
        "existing_path": ("refuse", "overwrite"),
        "close_required": ("yes", "no"),
    }),
})
#: Operations, keys and values are ASCII tokens of this shape.
TOKEN: Final = "[a-z][a-z0-9_]*"
#: The longest prefix of a line that still fits the directive shape; its end
#: is where a malformed directive goes wrong.
_SHAPE_PREFIX: Final = re.compile(
    rf"(?:@(?:{NAMESPACE}(?: (?:{TOKEN}(?: (?:{TOKEN}(?:=(?:{TOKEN})?)?)?)?)?)?)?)?")
_SHAPE: Final = re.compile(rf"@{NAMESPACE} ({TOKEN}) ({TOKEN})=({TOKEN})")
#: Versions are MAJOR.MINOR in ASCII digits without leading zeros; compared as exact strings.
VERSION: Final = re.compile(r"(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)")
DEFAULT_OPERATION: Final = next(iter(GRAMMAR))


def _check_grammar() -> None:
    """Refuse, at import, a grammar edit that no directive line could ever match."""
    names = [NAMESPACE, *GRAMMAR]
    for keys in GRAMMAR.values():
        names += [*keys, *(value for values in keys.values() for value in values)]
        if not keys or not all(keys.values()):
            raise ValueError("GRAMMAR: every operation needs keys and every key needs values")
    bad = [name for name in names if not re.fullmatch(TOKEN, name)]
    if bad:
        raise ValueError(f"GRAMMAR/NAMESPACE: {bad[0]!r} is not a token matching {TOKEN}")


_check_grammar()
#: Each grammar token mapped to itself: parsed claims share these strings.
_GRAMMAR_TOKENS: Final = {token: token for op, keys in GRAMMAR.items()
                          for token in (op, *keys, *(v for values in keys.values() for v in values))}

# --------------------------------------------------------------------------
# Statuses and reasons, defined once.

#: Reasons a :class:`DirectiveError` can carry (each makes the gate refuse).
DIRECTIVE_REASONS: Final[Mapping[str, str]] = MappingProxyType({
    "malformed_directive": f"a directive line is not exactly `@{NAMESPACE} <operation> <key>=<value>`",
    "unsupported_operation": "the operation is not in the grammar",
    "unsupported_claim_key": "the key is not in the grammar for that operation",
    "unknown_directive_value": "the value is not allowed for that key",
    "duplicate_directive": "one source declares the same operation and key twice",
})
#: Reasons a :class:`GateError` (a bad request) can carry.
GATE_REASONS: Final[Mapping[str, str]] = MappingProxyType({
    "invalid_candidate_ids": "candidate ids are not a list of non-empty strings",
    "duplicate_candidate": "a candidate id is listed twice",
    "invalid_requested_version": "the requested version is not MAJOR.MINOR (ASCII digits)",
    "unsupported_requested_claim": "the requested operation/claim key is not in the grammar",
    "unknown_candidate": "a candidate id is not in the manifest",
    "invalid_source_version": "a candidate's manifest version is not MAJOR.MINOR",
})
#: status -> reason -> meaning. Every gate result carries one of these pairs;
#: only ``ready`` carries an answer request.
DECISIONS: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType({
    "ready": MappingProxyType({
        "eligible_directives_agree": "every eligible source declares the claim with the same value",
    }),
    "conflict": MappingProxyType({
        "same_version_directives_disagree": "eligible sources declare different values; all claims are kept",
    }),
    "not_in_docs": MappingProxyType({
        "no_eligible_version": "no candidate has the requested version (or no candidates were given)",
        "requested_claim_missing": "an eligible source does not declare the claim; silence is not agreement",
    }),
    "refused": DIRECTIVE_REASONS,
})
#: Per version, operation and key, what an audit finds.
AUDIT_STATUSES: Final[Mapping[str, str]] = MappingProxyType({
    "agree": "every source of the version declares the key, all with one value",
    "conflict": "sources of the version declare different values",
    "partial": "the declared values agree but some sources of the version are silent or refused",
})


class DirectiveError(LocatedError):
    """A directive line in a source is not an exact, known directive.

    Reasons: :data:`DIRECTIVE_REASONS`. ``line`` is the 1-based editor line,
    ``column`` (1-based, code points) points where the line goes wrong, and
    ``quote`` is the offending line.
    """

    reasons = DIRECTIVE_REASONS

    def __init__(self, reason: str, detail: str, *, column: int, quote: str,
                 source_id: str | None = None, path: str | None = None,
                 line: int | None = None) -> None:
        super().__init__(reason, detail, source_id=source_id, path=path, line=line, column=column)
        self.quote = quote


class GateError(LocatedError):
    """The request itself is invalid; no decision is made.

    Reasons: :data:`GATE_REASONS`. ``source_id`` names the candidate at fault, if one is.
    """

    reasons = GATE_REASONS


def grammar_summary() -> dict[str, Any]:
    """The grammar as plain JSON data: ``{"directive", "operations": {op: {key: [values]}}}``."""
    return {
        "directive": f"@{NAMESPACE} <operation> <key>=<value>",
        "operations": {op: {key: list(values) for key, values in keys.items()}
                       for op, keys in GRAMMAR.items()},
    }


# --------------------------------------------------------------------------
# Directive parsing


def parse_directive(text: str, *, source_id: str | None = None, path: str | None = None,
                    line: int | None = None) -> tuple[str, str, str]:
    """Parse one directive line's text (no line ending) into ``(operation, key, value)``.

    Accepts exactly ``@quill <operation> <key>=<value>`` with single spaces and
    names from :data:`GRAMMAR`. Refuses (:class:`DirectiveError`, whose
    ``column`` is 1-based in code points and points where the line goes wrong):
    leading or trailing blanks, tabs, repeated spaces, a trailing ``\\r``,
    another namespace (``malformed_directive``); unknown operations, keys or
    values. ``source_id``, ``path`` and ``line`` only label the error.
    """
    def refuse(reason: str, column: int, detail: str) -> DirectiveError:
        return DirectiveError(reason, detail, column=column, quote=text, source_id=source_id,
                              path=path, line=line)

    shape = _SHAPE.fullmatch(text)
    if shape is None:
        column = _SHAPE_PREFIX.match(text).end() + 1  # type: ignore[union-attr]  # always matches
        raise refuse("malformed_directive", column,
                     f"expected exactly '@{NAMESPACE} <operation> <key>=<value>', got {_clip(text)}; "
                     + _malformed_hint(text))
    operation, key, value = shape.groups()
    keys = GRAMMAR.get(operation)
    if keys is None:
        raise refuse("unsupported_operation", shape.start(1) + 1,
                     f"unsupported operation {operation!r} (known: {', '.join(GRAMMAR)})")
    allowed = keys.get(key)
    if allowed is None:
        raise refuse("unsupported_claim_key", shape.start(2) + 1,
                     f"unsupported key {key!r} for {operation!r} (known: {', '.join(keys)})")
    if value not in allowed:
        raise refuse("unknown_directive_value", shape.start(3) + 1,
                     f"value {value!r} is not allowed for {key!r} (allowed: {', '.join(allowed)})")
    return _GRAMMAR_TOKENS[operation], _GRAMMAR_TOKENS[key], _GRAMMAR_TOKENS[value]


def _malformed_hint(text: str) -> str:
    """What to do about a malformed directive line, in a few words."""
    if not text.startswith("@"):
        return "directive lines may not be indented or preceded by invisible characters"
    if not text.startswith(f"@{NAMESPACE} "):
        return ("outside a code fence every line starting with '@' is read as a directive; "
                "put other '@' text in backticks or a fence")
    return "use single spaces, lowercase names and nothing after the value"


def _clip(text: str, limit: int = 80) -> str:
    """``repr`` of ``text``, cut to ``limit`` code points so messages stay one short line."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} code points)"


def source_claims(corpus: Corpus, source_id: str) -> Mapping[tuple[str, str], dict[str, Any]]:
    """Parse one source's directive lines once; return ``{(operation, key): claim}``.

    The outcome (the parse or the error) is cached on ``corpus.parse_cache``
    in a compact form; every call returns new claim dicts, so editing them
    changes nothing cached. Each claim has :data:`CLAIM_FIELDS`; ``start``/``end`` are
    code-point offsets into the decoded text, ``byte_start``/``byte_end`` into
    the pinned raw bytes. Raises :class:`DirectiveError` for the first bad
    directive line (or repeated key) in line order.
    """
    source = corpus.sources[source_id]
    return MappingProxyType({(operation, key): _claim(source, operation, key, value, directive)
                             for (operation, key), (value, directive)
                             in _parsed(corpus, source_id).items()})


#: What ``corpus.parse_cache`` keeps per source: ``{(operation, key): (value,
#: directive line)}``, or the source's :class:`DirectiveError`. Claim dicts are
#: built from it on demand, so a loaded corpus does not hold a 16-key dict per claim.
_Parsed = Mapping[tuple[str, str], tuple[str, DirectiveLine]]


def _parsed(corpus: Corpus, source_id: str) -> _Parsed:
    """The cached parse of one source (parsed on first use); raises its :class:`DirectiveError`."""
    cached = corpus.parse_cache.get(source_id)
    if cached is None:
        cached = _parse_source(corpus.sources[source_id])
        corpus.parse_cache[source_id] = cached
    if isinstance(cached, DirectiveError):
        raise cached
    return cached


CLAIM_FIELDS: Final = ("source_id", "version", "path", "url", "source_sha256",
                       "document_revision", "operation", "claim_key", "value", "start_line",
                       "end_line", "start", "end", "byte_start", "byte_end", "quote")


def _parse_source(source: Source) -> _Parsed | DirectiveError:
    claims: dict[tuple[str, str], tuple[str, DirectiveLine]] = {}
    for directive in source.directive_lines:
        if directive.fenced:
            return DirectiveError(
                "malformed_directive",
                "an '@' line inside a code fence that is unclosed, or in a document where a list "
                "or an HTML block may end the fence early: a reader may see it as a directive; "
                "close the fence, or move it out of the list, unindented, away from HTML",
                column=1, quote=directive.text, source_id=source.source_id, path=source.path,
                line=directive.line)
        try:
            operation, key, value = parse_directive(directive.text, source_id=source.source_id,
                                                    path=source.path, line=directive.line)
        except DirectiveError as error:
            return error
        first = claims.get((operation, key))
        if first is not None:
            return DirectiveError("duplicate_directive",
                                  f"{operation} {key} is already declared on line {first[1].line}",
                                  column=1, quote=directive.text, source_id=source.source_id,
                                  path=source.path, line=directive.line)
        claims[(operation, key)] = (value, directive)
    return MappingProxyType(claims)


def _claim(source: Source, operation: str, key: str, value: str,
           directive: DirectiveLine) -> dict[str, Any]:
    """One claim as a new dict with :data:`CLAIM_FIELDS`."""
    return {
        "source_id": source.source_id, "version": source.version, "path": source.path,
        "url": source.url, "source_sha256": source.sha256,
        "document_revision": source.document_revision, "operation": operation,
        "claim_key": key, "value": value, "start_line": directive.line,
        "end_line": directive.line, "start": directive.start, "end": directive.end,
        "byte_start": directive.byte_start, "byte_end": directive.byte_end,
        "quote": directive.text,
    }


# --------------------------------------------------------------------------
# The gate


def _check_request(candidate_ids: Any, requested_version: Any, operation: Any,
                   claim_key: Any) -> None:
    """Validate the request's shape before any file is read; raise :class:`GateError`."""
    if not isinstance(candidate_ids, (list, tuple)) or not all(
            isinstance(sid, str) and sid for sid in candidate_ids):
        raise GateError("invalid_candidate_ids",
                        f"candidate ids must be a list of non-empty strings, got {candidate_ids!r}")
    seen: set[str] = set()
    for sid in candidate_ids:
        if sid in seen:
            raise GateError("duplicate_candidate", "candidate is listed twice", source_id=sid)
        seen.add(sid)
    if not isinstance(requested_version, str) or not VERSION.fullmatch(requested_version):
        raise GateError("invalid_requested_version",
                        f"requested version must be MAJOR.MINOR (e.g. 1.0), got {requested_version!r}")
    if not (isinstance(operation, str) and isinstance(claim_key, str)
            and claim_key in GRAMMAR.get(operation, ())):
        known = ", ".join(f"{op} {key}" for op, keys in GRAMMAR.items() for key in keys)
        raise GateError("unsupported_requested_claim",
                        f"unsupported claim {operation!r} {claim_key!r} (known: {known})")


def gate(manifest: Corpus | str | os.PathLike[str], candidate_ids: Sequence[str],
         requested_version: str, claim_key: str = "existing_path", *,
         operation: str = DEFAULT_OPERATION) -> dict[str, Any]:
    """Decide whether an answer about ``operation``/``claim_key`` at a version may be prepared.

    ``manifest`` is a loaded :class:`Corpus` or a manifest path (loaded and
    verified first: every source, candidate or not). Eligible sources are the
    candidates whose manifest version equals ``requested_version`` exactly; a
    newer version is never a fallback. Only eligible sources are parsed.

    Returns a dict with the keys ``requested_version, claim_key, operation,
    candidate_ids, eligible_source_ids, excluded_wrong_version_ids, status,
    reason``, then per status ``agreed_value`` (ready),
    ``missing_claim_source_ids`` (requested_claim_missing),
    ``candidate_versions`` (no_eligible_version) or the error fields (refused),
    then ``claims`` and ``answer_request`` (``None`` unless ready). The
    decision does not depend on candidate order; lists are sorted by source id.
    Precedence: refused > conflict > not_in_docs > ready.

    Raises :class:`GateError` for an invalid request and
    :class:`IngestionError` when a manifest path cannot be loaded and verified.
    Never sends the answer request anywhere.
    """
    _check_request(candidate_ids, requested_version, operation, claim_key)
    corpus = manifest if isinstance(manifest, Corpus) else load_documents(manifest)
    candidates = []
    for sid in sorted(candidate_ids):  # sorted: the error named never depends on order
        source = corpus.sources.get(sid)
        if source is None:
            near = difflib.get_close_matches(sid, corpus.sources, n=3)
            hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
            raise GateError("unknown_candidate", f"not in the manifest{hint}", source_id=sid)
        if not VERSION.fullmatch(source.version):
            raise GateError("invalid_source_version",
                            f"manifest version {source.version!r} is not MAJOR.MINOR", source_id=sid)
        candidates.append(source)
    eligible = [s for s in candidates if s.version == requested_version]
    request = {
        "requested_version": requested_version,
        "claim_key": claim_key,
        "operation": operation,
        "candidate_ids": list(candidate_ids),
        "eligible_source_ids": [s.source_id for s in eligible],
        "excluded_wrong_version_ids": [s.source_id for s in candidates
                                       if s.version != requested_version],
    }
    if not eligible:
        versions = sorted({s.version for s in candidates}, key=_version_key)
        return _decision(request, "no_eligible_version", [], candidate_versions=versions)
    try:
        parsed = [(s, _parsed(corpus, s.source_id)) for s in eligible]
    except DirectiveError as error:
        return refused_result(request, error)
    # New dicts: a caller editing its result cannot change what the cached source says.
    claims = [_claim(s, operation, claim_key, *found[(operation, claim_key)])
              for s, found in parsed if (operation, claim_key) in found]
    missing = [s.source_id for s, found in parsed if (operation, claim_key) not in found]
    values = {claim["value"] for claim in claims}
    if len(values) > 1:
        return _decision(request, "same_version_directives_disagree", claims)
    if missing:
        return _decision(request, "requested_claim_missing", claims, missing_claim_source_ids=missing)
    return _decision(request, "eligible_directives_agree", claims, agreed_value=values.pop())


_STATUS_OF: Final = MappingProxyType({reason: status for status, reasons in DECISIONS.items()
                                      for reason in reasons})


def _decision(request: Mapping[str, Any], reason: str, claims: list[dict[str, Any]],
              **extra: Any) -> dict[str, Any]:
    status = _STATUS_OF[reason]
    result = {**request, "status": status, "reason": reason, **extra, "claims": claims}
    result["answer_request"] = answer_request(request, claims) if status == "ready" else None
    return result


def refused_result(request: Mapping[str, Any], error: LocatedError) -> dict[str, Any]:
    """A ``refused`` result for ``request`` caused by ``error``; the answer request is withheld.

    Adds ``status``, ``reason``, ``error`` (class name), ``message``, ``source_id``,
    ``path``, ``line`` and ``column`` (``None`` where unknown), ``claims: []``
    and ``answer_request: None``.
    """
    return {**request, "status": "refused", "reason": error.reason,
            "error": type(error).__name__, "message": str(error), "source_id": error.source_id,
            "path": error.path, "line": error.line, "column": error.column,
            "claims": [], "answer_request": None}


def _version_key(version: str) -> tuple[int, ...] | tuple[float, str]:
    if VERSION.fullmatch(version):
        major, minor = version.split(".")
        return (int(major), int(minor))
    return (float("inf"), version)


# --------------------------------------------------------------------------
# The answer request (prepared, never sent)


def _canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def answer_request(request: Mapping[str, Any], claims: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Chat messages asking a model to describe the agreed contract, citing every source.

    Returns ``{"messages": [{"role": "system", ...}, {"role": "user", ...}]}``;
    the user message is canonical JSON (sorted keys, no spaces, UTF-8) of the
    question and the claims. This function prepares data only; nothing in
    this project sends it.
    """
    source_ids = sorted({claim["source_id"] for claim in claims})
    system = (
        f"Answer a question about {PRODUCT} {request['requested_version']} using only the contract in "
        f"the user message: the '{request['operation']}' operation's '{request['claim_key']}' claim. "
        "Describe only that contract; do not add behaviour, defaults or other versions. "
        f"Cite every source id: {', '.join(source_ids)}."
    )
    payload = {
        "question": {key: request[key] for key in ("requested_version", "operation", "claim_key")},
        "claims": list(claims),
    }
    return {"messages": [{"role": "system", "content": system},
                         {"role": "user", "content": _canonical_json(payload)}]}


# --------------------------------------------------------------------------
# Audit (every source, every version)


def audit(corpus: Corpus) -> dict[str, Any]:
    """Parse every source and report agreement, conflicts, gaps, refusals and near-misses.

    Returns ``{"source_count", "versions", "claims": [...], "refused_sources":
    [...], "near_misses": [...], "summary": {...}, "clean"}``. Each ``claims``
    entry covers one version x operation x key that at least one source of that
    version declares: ``status`` (a key of :data:`AUDIT_STATUSES`), ``values``,
    ``source_ids``, ``missing_source_ids`` (silent sources of that version),
    ``refused_source_ids`` (refused sources of that version, which the gate
    would refuse too) and the claims (source, line, value, quote). A refused
    source (bad directive or invalid version) is listed with its reason and
    location in ``refused_sources``. A near-miss is directive
    text (``@quill `` ...) inside a fence or after other text on a prose line:
    it counts for nothing, which may surprise an author. ``clean`` is true when
    there is no conflict and no refused source. Output order is deterministic.
    """
    refused: list[dict[str, Any]] = []
    declared: dict[tuple[str, str, str], list[tuple[Source, str, DirectiveLine]]] = defaultdict(list)
    parsed_by_version: dict[str, list[str]] = defaultdict(list)
    refused_by_version: dict[str, list[str]] = defaultdict(list)
    ordered = sorted(corpus.sources.values(), key=lambda s: s.source_id)
    for source in ordered:
        try:
            if not VERSION.fullmatch(source.version):  # what gate() raises for such a candidate
                raise GateError("invalid_source_version",
                                f"manifest version {source.version!r} is not MAJOR.MINOR",
                                source_id=source.source_id)
            found = _parsed(corpus, source.source_id)
        except (GateError, DirectiveError) as error:
            refused_by_version[source.version].append(source.source_id)
            refused.append({"source_id": source.source_id, "version": source.version,
                            "path": source.path, "error": type(error).__name__,
                            "reason": error.reason, "line": error.line, "column": error.column,
                            "message": str(error)})
            continue
        parsed_by_version[source.version].append(source.source_id)
        for (operation, key), (value, directive) in found.items():
            declared[(source.version, operation, key)].append((source, value, directive))

    entries = []
    for version, operation, key in sorted(declared, key=lambda k: (_version_key(k[0]), k[1], k[2])):
        claims = declared[(version, operation, key)]
        values = sorted({value for _, value, _ in claims})
        have = {source.source_id for source, _, _ in claims}
        missing = [sid for sid in parsed_by_version[version] if sid not in have]
        refused_here = refused_by_version[version]
        status = ("conflict" if len(values) > 1 else "partial" if missing or refused_here
                  else "agree")
        entries.append({
            "version": version, "operation": operation, "claim_key": key, "status": status,
            "values": values, "source_ids": [source.source_id for source, _, _ in claims],
            "missing_source_ids": missing, "refused_source_ids": refused_here,
            "claims": [{"source_id": source.source_id, "path": source.path, "line": directive.line,
                        "value": value, "quote": directive.text}
                       for source, value, directive in claims],
        })
    near_misses = [
        {"source_id": s.source_id, "path": s.path, "line": m.line, "column": m.column,
         "where": "fence" if m.in_fence else "prose", "quote": m.quote}
        for s in ordered for m in s.mentions if m.word == NAMESPACE
    ]
    summary = {status: sum(e["status"] == status for e in entries) for status in AUDIT_STATUSES}
    summary.update(refused=len(refused), near_misses=len(near_misses))
    return {
        "source_count": len(corpus.sources),
        "versions": sorted({s.version for s in ordered}, key=_version_key),
        "claims": entries,
        "refused_sources": refused,
        "near_misses": near_misses,
        "summary": summary,
        "clean": summary["conflict"] == 0 and not refused,
    }
