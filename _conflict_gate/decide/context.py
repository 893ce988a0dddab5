"""Retrieved pages -> a context decision: may a model be given these pages, and which claims do they agree on?

:func:`gate_context` is the gate for a RAG pipeline: it takes the candidate
source ids a retriever found (no operation or key: the application does not
know them), keeps the eligible ones (approved, the requested version exactly),
and decides over every claim they declare. ``ready`` when no declared key
disagrees and at least one key is declared by every eligible page; keys only
some pages declare are listed (``partial``), never counted as agreement;
``conflict`` names each disagreeing key with every page, line and value;
``not_in_docs`` and ``refused`` as :func:`~_conflict_gate.decide.decision.gate` gives
them. A ready decision carries an answer request holding the question, the
agreed claims and the eligible pages' text, within a size the caller sets.
The statuses and reasons are :data:`~_conflict_gate.base.registry.DECISIONS`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

from ..base.jsondata import canonical_json
from ..base.registry import DEFAULT_UNRELATED, ELIGIBLE_STATUS, status_of
from ..corpus.load import MEMO_ENTRY_BYTES, Corpus, Source, decode_source, verified_digest
from ..corpus.source_files import SourceFiles
from ..manifest.form import ANSWER_FORM
from ..manifest.grammar import IntegerRule
from ..results.context import (
    AGREED_FIELDS,
    CONFLICT_FIELDS,
    CONTEXT_PAGE_FIELDS,
    PARTIAL_FIELDS,
    AgreedClaim,
    ContextConflict,
    ContextDecision,
    ContextPage,
    PartialClaim,
    context_fields,
)
from ..results.shapes import CANDIDATE_FIELDS, AnswerRequest, CandidateRecord, ClaimRecord, build
from .decision import candidate_sources, claim_record, refusal_fields
from .request import check_question, check_unrelated, messages

__all__ = ["DEFAULT_CONTEXT_CHARS", "MAX_CONTEXT_CHARS", "gate_context", "is_context_decision"]

#: The pages' text an answer request carries unless the caller says otherwise, in code points.
DEFAULT_CONTEXT_CHARS: Final = 24_000
#: The largest ``max_context_chars`` accepted (the size of one source at most, as code points go).
MAX_CONTEXT_CHARS: Final = 16 * 1024 * 1024


def is_context_decision(decision: Any) -> bool:
    """Is ``decision`` (any value) shaped as :func:`gate_context`'s result rather than ``gate``'s? (It has
    ``max_context_chars`` and no ``operation``.) Says nothing of whether it is valid."""
    return isinstance(decision, dict) and "max_context_chars" in decision and "operation" not in decision


def gate_context(
    corpus: Corpus,
    candidate_ids: Sequence[str],
    requested_version: str,
    *,
    question: str | None = None,
    max_context_chars: int = DEFAULT_CONTEXT_CHARS,
    unrelated: str = DEFAULT_UNRELATED,
) -> ContextDecision:
    """Decide whether a model may be given the retrieved pages ``candidate_ids`` to answer about
    ``requested_version``, over every claim the eligible pages declare.

    Eligible: candidates whose status is ``approved`` and whose version equals
    ``requested_version`` exactly (another version or a draft is never a
    fallback). Returns a :class:`~_conflict_gate.results.context.ContextDecision`
    (a plain dict, fields in ``reference/rag.md``), with the status and reason
    of :data:`~_conflict_gate.base.registry.DECISIONS`, in this precedence:

    * ``not_in_docs`` ``no_eligible_version`` / ``no_approved_source``: as :func:`~_conflict_gate.decide.decision.gate`;
    * ``refused``: an eligible page is refused (its directives cannot be read safely) or failed
      verification; the first, by id, is named with its line and column;
    * ``conflict`` ``same_version_directives_disagree``: some key is declared with different values;
      ``conflicts`` names each such key with every claim (page, path, line, value);
    * ``not_in_docs`` ``requested_claim_missing``: no key is declared by every eligible page (silence
      is not agreement); ``missing_claim_source_ids`` names the silent pages;
    * ``ready`` ``eligible_directives_agree``: otherwise. ``agreed`` lists the keys every eligible page
      declares with one value; ``partial`` the keys only some declare (never agreement: an answer
      stating one is not supported).

    ``unrelated="set_aside"`` (:data:`~_conflict_gate.base.registry.UNRELATED_OPTIONS`; default
    ``"withhold"``): an eligible page that reads cleanly and declares no directive at all (an install
    page beside the reference) is listed in ``set_aside_unrelated_ids``, the field such a decision ends
    with, and takes no part: not in the agreement, its text not sent; when every eligible page is set
    aside, ``not_in_docs`` ``no_related_source``. A refused page is never set aside.

    A ready decision's ``answer_request`` is a system message (the answer form, as
    :func:`~_conflict_gate.decide.request.answer_request` asks for it, over the agreed keys), a user message
    holding canonical JSON of the agreed claims and of the eligible pages' text, in candidate order, and
    the question as a second user message when given. The pages' text is read again, verified against
    its pin, and bounded by ``max_context_chars`` code points in all: past the limit a page is cut (the
    rest left out) and the next pages carry no text; each cut is stated to the model in the request and
    listed in ``pages`` (``truncated``). The claims are never cut.

    Raises :class:`GateError` for an invalid request (``invalid_candidate_ids``, ``duplicate_candidate``,
    ``invalid_requested_version``, ``unknown_candidate``, ``invalid_question``, ``invalid_unrelated_option``)
    and ``ValueError`` for a
    ``max_context_chars`` that is not an integer from 0 to :data:`MAX_CONTEXT_CHARS`; an eligible page
    whose file changed since the load raises :class:`~_conflict_gate.base.errors.IngestionError`
    (``hash_mismatch``, or why it could not be read): load again. Never sends the request anywhere.
    """
    check_unrelated(unrelated)
    candidates = candidate_sources(corpus, candidate_ids, requested_version)
    if (
        isinstance(max_context_chars, bool)
        or not isinstance(max_context_chars, int)
        or not 0 <= max_context_chars <= MAX_CONTEXT_CHARS
    ):
        raise ValueError(
            f"max_context_chars must be an integer from 0 to {MAX_CONTEXT_CHARS}, got {max_context_chars!r}"
        )
    if question is not None:
        check_question(question)
    same_version = [s for s in candidates if s.version == requested_version]
    eligible = [s for s in same_version if s.status == ELIGIBLE_STATUS]
    request: dict[str, Any] = {
        "requested_version": requested_version,
        "candidate_ids": list(candidate_ids),
        "max_context_chars": max_context_chars,
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
    if unrelated == "set_aside":  # clean eligible pages that declare nothing take no part
        aside = [s.source_id for s in eligible if s.refusal is None and not s.claims]
        counted = [s for s in eligible if s.source_id not in aside]
        request["set_aside_unrelated_ids"] = aside  # moved to the end by _result's field order
    if not same_version:
        versions = corpus.version_scheme.sorted(s.version for s in candidates)
        return _result(request, "no_eligible_version", candidate_versions=versions)
    if not eligible:
        return _result(request, "no_approved_source")
    refused = [(s, s.refusal) for s in eligible if s.refusal is not None]
    if refused:
        first = refused[0][1]
        fields = refusal_fields(first, refused, [s.source_id for s in eligible if s.refusal is None])
        return _result(request, first.reason, **fields)
    if not counted:
        return _result(request, "no_related_source")

    declared: dict[tuple[str, str], list[tuple[Source, ClaimRecord]]] = defaultdict(list)
    claims: list[ClaimRecord] = []  # by source id, then line: eligible is sorted, claims in line order
    for source in counted:
        for claim in source.claims:
            record = claim_record(source, claim)
            claims.append(record)
            declared[(claim.operation, claim.claim_key)].append((source, record))
    everyone = [s.source_id for s in counted]
    agreed: list[AgreedClaim] = []
    partial: list[PartialClaim] = []
    conflicts: list[ContextConflict] = []
    for (operation, key), found in sorted(declared.items()):
        values = sorted({record["value"] for _, record in found}, key=_value_order(corpus, operation, key))
        have = [s.source_id for s, _ in found]
        if len(values) > 1:
            conflicts.append(
                build(
                    ContextConflict,
                    CONFLICT_FIELDS,
                    {
                        "operation": operation,
                        "claim_key": key,
                        "values": values,
                        "claims": [record for _, record in found],
                    },
                )
            )
        if len(have) < len(everyone):
            declaring = set(have)
            partial.append(
                build(
                    PartialClaim,
                    PARTIAL_FIELDS,
                    {
                        "operation": operation,
                        "claim_key": key,
                        "values": values,
                        "source_ids": have,
                        "silent_source_ids": [sid for sid in everyone if sid not in declaring],
                    },
                )
            )
        elif len(values) == 1:
            agreed.append(
                build(
                    AgreedClaim,
                    AGREED_FIELDS,
                    {"operation": operation, "claim_key": key, "value": values[0], "source_ids": have},
                )
            )
    tail: dict[str, Any] = {"agreed": agreed, "partial": partial, "conflicts": conflicts, "claims": claims}
    if conflicts:
        return _result(request, "same_version_directives_disagree", **tail)
    if not agreed:
        quiet = {sid for p in partial for sid in p["silent_source_ids"]}
        silent = [sid for sid in everyone if sid in quiet] or everyone
        return _result(request, "requested_claim_missing", missing_claim_source_ids=silent, **tail)
    position = {sid: at for at, sid in enumerate(candidate_ids)}
    ordered = sorted(counted, key=lambda s: position[s.source_id])  # the retriever's order
    texts = [(s, _page_text(corpus, s)) for s in ordered]
    pages, included = _budget(texts, max_context_chars)
    agreed_keys = {(a["operation"], a["claim_key"]) for a in agreed}
    agreed_claims = [c for c in claims if (c["operation"], c["claim_key"]) in agreed_keys]
    answer = _answer_request(corpus, requested_version, agreed, agreed_claims, pages, included, question)
    return _result(request, "eligible_directives_agree", **tail, pages=pages, answer_request=answer)


def _value_order(corpus: Corpus, operation: str, key: str) -> Any:
    """Sort key of a claim's values: as integers for an integer rule, else as text."""
    return int if isinstance(corpus.grammar.rule(operation, key), IntegerRule) else None


def _result(request: dict[str, Any], reason: str, **fields: Any) -> ContextDecision:
    status = status_of(reason)
    values = {
        **request,
        "status": status,
        "reason": reason,
        "agreed": [],
        "partial": [],
        "conflicts": [],
        "claims": [],
        "pages": [],
        "answer_request": None,
        **fields,
    }
    unrelated = "set_aside" if "set_aside_unrelated_ids" in request else DEFAULT_UNRELATED
    return build(ContextDecision, context_fields(reason, status == "refused", unrelated), values)


def _page_text(corpus: Corpus, source: Source) -> str:
    """The verified text of ``source`` (its file read again, compared with the pin, decoded), kept in
    the corpus's memo by source and digest. Raises :class:`IngestionError` when the file changed."""
    key = ("page text", source.source_id, source.sha256)
    text = corpus.memo.get(key)
    if text is None:
        with SourceFiles(corpus.manifest.root) as files:
            raw = files.read(source.entry)
        verified_digest(raw, source.entry)
        text = decode_source(raw, source_id=source.source_id, path=source.path)
        corpus.remember(key, text, MEMO_ENTRY_BYTES + 2 * len(text))
    found: str = text
    return found


def _budget(texts: list[tuple[Source, str]], limit: int) -> tuple[list[ContextPage], list[str]]:
    """Each page's share of ``limit`` code points, in order: whole while it fits, then cut, then none."""
    left = limit
    pages: list[ContextPage] = []
    included: list[str] = []
    for source, text in texts:
        take = min(len(text), left)
        left -= take
        included.append(text[:take])
        pages.append(
            build(
                ContextPage,
                CONTEXT_PAGE_FIELDS,
                {
                    "source_id": source.source_id,
                    "path": source.path,
                    "chars": len(text),
                    "included_chars": take,
                    "truncated": take < len(text),
                },
            )
        )
    return pages, included


def _answer_request(
    corpus: Corpus,
    version: str,
    agreed: list[AgreedClaim],
    claims: list[ClaimRecord],
    pages: list[ContextPage],
    included: list[str],
    question: str | None,
) -> AnswerRequest:
    """The chat messages of a ready context decision: the answer form over the agreed keys, then the
    claims and the pages' text as canonical JSON, then the question."""
    grammar = corpus.grammar
    citations = [ANSWER_FORM.citation.format(source_id=c["source_id"], line=c["start_line"]) for c in claims]
    keys = ", ".join(f"'{a['operation']}' '{a['claim_key']}'" for a in agreed)
    cut = [p for p in pages if p["truncated"]]
    system = (
        f"Answer the user's question about {grammar.product} {version} using only the pages and the agreed "
        f"claims in the user message. Every page agrees on these claims: {keys}. State no other claim, "
        "default or version; a claim some pages do not declare is not agreed, so do not state it. "
        + (
            "Some pages' text is cut at the size limit (each marked 'truncated' with how much it carries): do "
            "not guess what the rest says. "
            if cut
            else ""
        )
        + _form_text(agreed, version, citations)
    )
    body = {
        "claims": claims,
        "pages": [
            {
                "source_id": p["source_id"],
                "path": p["path"],
                "chars": p["chars"],
                "included_chars": p["included_chars"],
                "truncated": p["truncated"],
                "text": text,
            }
            for p, text in zip(pages, included)
        ],
        "requested_version": version,
    }
    return {"messages": messages(system, canonical_json(body), question)}


def _form_text(agreed: list[AgreedClaim], version: str, citations: list[str]) -> str:
    """The answer form's instructions over the agreed keys (the templates of
    :data:`~_conflict_gate.manifest.form.ANSWER_FORM`, which the answer check reads)."""
    form = ANSWER_FORM
    values = ", ".join(form.value.format(claim_key=a["claim_key"], value="<value>") for a in agreed)
    return (
        f"State a value only as {values} (the agreed value, from the claims) and the version exactly as "
        f"{form.version.format(version=version)}, each in backticks; state the version and at least one "
        "agreed claim. For each claim you state, cite every source that declares it at the line of its claim, "
        f"exactly as in: {', '.join(citations)}. Quote a directive only in backticks, exactly as the claim's "
        "quote, followed on the same line by the citation of that claim. Code is read as statements too: "
        "however code writes a key (snake_case, camelCase, a flag), give it no other value there, and set no "
        "option the claims do not agree on. State no other value or version anywhere."
    )
