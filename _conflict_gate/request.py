"""The answer request: chat messages for a model, prepared only when ready, never sent.

The system message tells the model exactly how to cite, quote and state, in
the answer form (:mod:`~_conflict_gate.form`) that the answer check reads;
the user message is canonical JSON of the question and the claims. Nothing
in this project sends a request.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .form import ANSWER_FORM, AnswerForm
from .grammar import Grammar
from .jsondata import canonical_json
from .results import AnswerRequest, ClaimRecord

__all__ = ["answer_request", "request_texts"]


def answer_request(grammar: Grammar, request: Mapping[str, Any], claims: Sequence[ClaimRecord], *,
                   form: AnswerForm = ANSWER_FORM) -> AnswerRequest:
    """Chat messages asking a model to describe the agreed contract, citing every claim.

    ``request`` holds ``requested_version``, ``operation`` and ``claim_key``;
    ``claims`` are the decision's claim records. Returns ``{"messages":
    [{"role": "system", ...}, {"role": "user", ...}]}``; the user message is
    canonical JSON of the question and the claims. Pure: the same inputs give
    the same bytes, which is how the answer check recognises a request this
    tool built. ``form`` is the answer form the system message asks for (the
    one :func:`~_conflict_gate.answer.check_answer` reads, unless a caller
    builds requests for another checker). Prepares data only; sends nothing.
    """
    system, user = request_texts(grammar, request, claims, [canonical_json(claim) for claim in claims], form=form)
    return {"messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}


def request_texts(grammar: Grammar, request: Mapping[str, Any], claims: Sequence[ClaimRecord],
                  encoded: Sequence[str], *, form: AnswerForm = ANSWER_FORM) -> tuple[str, str]:
    """The system and user messages' texts of :func:`answer_request`; ``encoded`` holds each claim's
    canonical JSON (the gate keeps it per claim, so a warm decision does not encode claims again)."""
    version, operation, key = request["requested_version"], request["operation"], request["claim_key"]
    citations = [form.citation.format(source_id=c["source_id"], line=c["start_line"])
                 for c in sorted(claims, key=lambda c: c["source_id"])]
    system = (
        f"Answer a question about {grammar.product} {version} using only the contract in the user "
        f"message: the '{operation}' operation's '{key}' claim. Describe only that contract; do "
        "not add behaviour, defaults or other versions. "
        + form.instructions(grammar, key, version, citations)
    )
    question = {"requested_version": version, "operation": operation, "claim_key": key}
    # canonical_json({"question": question, "claims": claims}), with each claim's text given
    return system, '{"claims":[' + ",".join(encoded) + '],"question":' + canonical_json(question) + "}"
