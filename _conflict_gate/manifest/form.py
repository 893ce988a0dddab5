"""The answer form, defined once: how an answer cites, quotes and states (no I/O).

A ``ready`` decision's answer request asks for this form
(:mod:`~_conflict_gate.decide.request`), and the answer check
(:mod:`~_conflict_gate.answer.check`) reads it; both derive from :data:`ANSWER_FORM`,
so they cannot drift apart:

* a **citation** names a source and the line of its claim: ``[source: quill-guide:37]``;
* a **quoted directive** is in backticks and is attributed to the citation
  that follows it on the same line: `` `@quill create_copy existing_path=refuse` [source: quill-guide:37] ``;
* a **statement** gives the value as `` `existing_path=refuse` `` and the
  version as `` `version=1.0` ``.

Source ids hold only ASCII letters, digits, ``.``, ``_``, ``-`` and ``/``, so
no id can break the citation form. A grammar may not name a key the form
itself uses as a statement (:data:`RESERVED_KEYS`: ``version``), or no answer
could tell the two apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the grammar imports this module (for RESERVED_KEYS); only its type is needed here
    from .grammar import Grammar

__all__ = ["ANSWER_FORM", "RESERVED_KEYS", "AnswerForm", "language_forms"]


def language_forms(name: str) -> tuple[str, ...]:
    """The ways a programming language writes ``name`` (a grammar's key, or ``version``): its words (split at
    ``_`` and ``-``) in snake_case, kebab-case, SCREAMING_SNAKE_CASE, camelCase and PascalCase
    (``max-retries``: ``max_retries``, ``max-retries``, ``MAX_RETRIES``, ``maxRetries``, ``MaxRetries``),
    and ``name`` as the grammar writes it. A statement of one of them is a statement of ``name``; any other
    case of them (``Max_Retries``, ``maxretries``) is another spelling. The source of the rule:
    reference/dev/answer-check.md ("What counts", "Names and their language forms"); the answer request
    names these forms."""
    words = re.split(r"[_-]", name)
    return tuple(
        dict.fromkeys(
            [
                name,
                "_".join(words),
                "-".join(words),
                "_".join(words).upper(),
                words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]),
                "".join(w[:1].upper() + w[1:] for w in words),
            ]
        )
    )


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
        return re.compile(
            re.escape(head) + r"([A-Za-z0-9][A-Za-z0-9._/\-]*)" + re.escape(middle) + r"([0-9]+)" + re.escape(tail)
        )

    def citation_start(self) -> str:
        """The text that starts a citation (a citation begun but not completed is malformed)."""
        return self.citation.partition("{source_id}")[0]

    def instructions(self, grammar: Grammar, claim_key: str, version: str, citations: Sequence[str]) -> str:
        """The answer-form part of the system message."""
        example_value = self.value.format(claim_key=claim_key, value="<value>")
        return (
            "Write the answer in this form. State the value exactly as "
            f"{example_value} and the version exactly as {self.version.format(version=version)}, "
            "each in backticks. Cite every source at the line of its claim, exactly as: "
            f"{', '.join(citations)}. Quote a directive only in backticks, exactly as the claim's "
            f"quote (e.g. {self.quote.format(directive=grammar.form)}), followed on the same line "
            "by the citation of that claim. You may show code samples, in backticks or in fenced code "
            f"blocks. Code is read as statements too: however code writes {claim_key} "
            f"({', '.join(language_forms(claim_key))}) or version, as name=value, name: value, "
            '"name": value or --name value, give it no other value there either, and set no other '
            "option of the operation. State no other value or version anywhere."
        )

    def reserved_keys(self) -> tuple[str, ...]:
        """The names the form writes as statements of its own (``version`` in `` `version={version}` ``):
        a claim key of that name could not be told from them."""
        return tuple(re.findall(r"([A-Za-z0-9_.\-]+)=\{(?!claim_key\b|value\b)", self.version + self.value))


#: The one answer form.
ANSWER_FORM: Final = AnswerForm()
#: Claim keys a grammar may not declare (``reserved_name``): the form's own statement names.
RESERVED_KEYS: Final = ANSWER_FORM.reserved_keys()
