"""The answer request (prepared, never sent) and the answer form it asks for, defined once.

A ``ready`` decision comes with chat messages for a model. The system
message tells the model exactly how to cite, quote and state; the answer
check (:mod:`~_conflict_gate.answer`) reads only those forms. Both derive
from :data:`ANSWER_FORM`, so they cannot drift apart:

* a **citation** names a source and the line of its claim: ``[source: quill-guide:37]``;
* a **quoted directive** is in backticks and is attributed to the citation
  that follows it on the same line: `` `@quill create_copy existing_path=refuse` [source: quill-guide:37] ``;
* a **statement** gives the value as `` `existing_path=refuse` `` and the
  version as `` `version=1.0` ``.

Source ids hold only ASCII letters, digits, ``.``, ``_``, ``-`` and ``/``, so
no id can break the citation form. Nothing in this project sends a request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Mapping, Sequence

from .grammar import Grammar
from .jsondata import canonical_json
from .results import AnswerRequest, ClaimRecord

__all__ = ["ANSWER_FORM", "AnswerForm", "answer_request"]


@dataclass(frozen=True)
class AnswerForm:
    """How an answer cites, quotes and states. The request's instructions and the check's
    patterns are both built from these templates."""

    citation: str = "[source: {source_id}:{line}]"
    quote: str = "`{directive}`"
    value: str = "`{claim_key}={value}`"
    version: str = "`version={version}`"

    def citation_pattern(self) -> re.Pattern[str]:
        """A citation; groups: source id, line. ASCII only (non-ASCII is refused before)."""
        head, _, rest = self.citation.partition("{source_id}")
        middle, _, tail = rest.partition("{line}")
        return re.compile(re.escape(head) + r"([A-Za-z0-9][A-Za-z0-9._/\-]*)" + re.escape(middle)
                          + r"([0-9]+)" + re.escape(tail))

    def citation_start(self) -> str:
        """The text that starts a citation (a citation begun but not completed is malformed)."""
        return self.citation.partition("{source_id}")[0]

    def instructions(self, grammar: Grammar, claim_key: str, version: str,
                     citations: Sequence[str]) -> str:
        """The answer-form part of the system message."""
        example_value = self.value.format(claim_key=claim_key, value="<value>")
        return (
            "Write the answer in this form. State the value exactly as "
            f"{example_value} and the version exactly as {self.version.format(version=version)}, "
            "each in backticks. Cite every source at the line of its claim, exactly as: "
            f"{', '.join(citations)}. Quote a directive only in backticks, exactly as the claim's "
            f"quote (e.g. {self.quote.format(directive=grammar.form)}), followed on the same line "
            "by the citation of that claim. Use backticks for nothing else, and state no other "
            "value or version."
        )


#: The one answer form.
ANSWER_FORM: Final = AnswerForm()


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
    version, operation, key = request["requested_version"], request["operation"], request["claim_key"]
    citations = [form.citation.format(source_id=c["source_id"], line=c["start_line"])
                 for c in sorted(claims, key=lambda c: c["source_id"])]
    system = (
        f"Answer a question about {grammar.product} {version} using only the contract in the user "
        f"message: the '{operation}' operation's '{key}' claim. Describe only that contract; do "
        "not add behaviour, defaults or other versions. "
        + form.instructions(grammar, key, version, citations)
    )
    payload = {"question": {"requested_version": version, "operation": operation, "claim_key": key},
               "claims": list(claims)}
    return {"messages": [{"role": "system", "content": system},
                         {"role": "user", "content": canonical_json(payload)}]}
