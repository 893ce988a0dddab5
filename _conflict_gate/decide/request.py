"""The answer request: chat messages for a model, prepared only when ready, never sent.

The system message tells the model exactly how to cite, quote and state, in
the answer form (:mod:`~_conflict_gate.manifest.form`) that the answer check reads,
and what a code sample may not state; the user message is canonical JSON of
the question's request and the claims. The user's own question, when given,
is a second user message, as written: it is data for the model, never part
of the instructions, so no question can change what the system message asks.
Nothing in this project sends a request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..answer.controls import CONTROLS
from ..base.errors import GateError, printable
from ..base.jsondata import canonical_json
from ..base.registry import MAX_QUESTION_CHARS, UNRELATED_OPTIONS
from ..manifest.form import ANSWER_FORM, AnswerForm
from ..manifest.grammar import Grammar
from ..results.shapes import AnswerRequest, ChatMessage, ClaimRecord

__all__ = ["answer_request", "check_question", "check_unrelated", "messages", "request_texts"]


def check_unrelated(unrelated: Any) -> None:
    """Raise :class:`GateError` ``invalid_unrelated_option`` unless ``unrelated`` is a key of
    :data:`~_conflict_gate.base.registry.UNRELATED_OPTIONS`."""
    if not isinstance(unrelated, str) or unrelated not in UNRELATED_OPTIONS:
        raise GateError(
            "invalid_unrelated_option",
            f"unrelated={printable(repr(unrelated))[:200]} is not one of: {', '.join(map(repr, UNRELATED_OPTIONS))}",
        )


def check_question(question: object) -> str:
    """``question`` if it is a user's question an answer request may carry: a ``str`` of 1 to
    :data:`~_conflict_gate.base.registry.MAX_QUESTION_CHARS` code points, not only whitespace, holding no
    control character a terminal acts on or bidirectional control
    (:data:`~_conflict_gate.answer.controls.CONTROLS`, as in an answer: a model would read what a person
    reviewing the request does not see). Raises :class:`GateError` (``invalid_question``) otherwise. Returned unchanged:
    nothing is trimmed or normalised."""
    if not isinstance(question, str):
        raise GateError("invalid_question", f"the question is {type(question).__name__}, not text")
    if not question.strip():
        raise GateError("invalid_question", "the question is empty (or only whitespace)")
    if len(question) > MAX_QUESTION_CHARS:
        raise GateError("invalid_question", f"the question has {len(question)} code points, over {MAX_QUESTION_CHARS}")
    found = CONTROLS.search(question)
    if found is not None:
        raise GateError(
            "invalid_question",
            f"the question holds U+{ord(found.group()[0]):04X} at code point "
            f"{found.start()}, which a terminal or a reader acts on instead of showing",
        )
    return question


def messages(system: str, user: str, question: str | None) -> list[ChatMessage]:
    """The request's messages: system, user, and the question as a second user message when given."""
    out: list[ChatMessage] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    if question is not None:
        out.append({"role": "user", "content": question})
    return out


def answer_request(
    grammar: Grammar,
    request: Mapping[str, Any],
    claims: Sequence[ClaimRecord],
    *,
    form: AnswerForm = ANSWER_FORM,
    question: str | None = None,
) -> AnswerRequest:
    """Chat messages asking a model to describe the agreed contract, citing every claim.

    ``request`` holds ``requested_version``, ``operation`` and ``claim_key``;
    ``claims`` are the decision's claim records. Returns ``{"messages":
    [{"role": "system", ...}, {"role": "user", ...}]}``; the user message is
    canonical JSON of the question and the claims. Pure: the same inputs give
    the same bytes, which is how the answer check recognises a request this
    tool built. ``form`` is the answer form the system message asks for (the
    one :func:`~_conflict_gate.answer.check.check_answer` reads, unless a caller
    builds requests for another checker). ``question``: the user's question, a third message (a user
    message after the claims), checked by :func:`check_question` (``GateError``, ``invalid_question``);
    ``None`` leaves it out. Prepares data only; sends nothing.
    """
    if question is not None:
        check_question(question)
    system, user = request_texts(grammar, request, claims, [canonical_json(claim) for claim in claims], form=form)
    return {"messages": messages(system, user, question)}


def request_texts(
    grammar: Grammar,
    request: Mapping[str, Any],
    claims: Sequence[ClaimRecord],
    encoded: Sequence[str],
    *,
    form: AnswerForm = ANSWER_FORM,
) -> tuple[str, str]:
    """The system and user messages' texts of :func:`answer_request`; ``encoded`` holds each claim's
    canonical JSON (the gate keeps it per claim, so a warm decision does not encode claims again)."""
    version, operation, key = request["requested_version"], request["operation"], request["claim_key"]
    citations = [
        form.citation.format(source_id=c["source_id"], line=c["start_line"])
        for c in sorted(claims, key=lambda c: c["source_id"])
    ]
    system = (
        f"Answer a question about {grammar.product} {version} using only the contract in the user "
        f"message: the '{operation}' operation's '{key}' claim. Describe only that contract; do "
        "not add behaviour, defaults or other versions. " + form.instructions(grammar, key, version, citations)
    )
    question = {"requested_version": version, "operation": operation, "claim_key": key}
    # canonical_json({"question": question, "claims": claims}), with each claim's text given
    return system, '{"claims":[' + ",".join(encoded) + '],"question":' + canonical_json(question) + "}"
