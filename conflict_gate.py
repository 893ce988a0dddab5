"""conflict-gate: decide, before any model is asked, whether an answer about a versioned API
may be prepared, and check the model's answer afterwards.

The flow runs one way; each step is one module of ``_conflict_gate``::

    manifest.json --read_manifest--> Manifest (grammar, version scheme, pinned entries)
        --load_documents--> Corpus: every source verified against its pin, read for
                            directives as a reader of the rendered page sees them
                            (blocks -> inlines -> reader), claims kept, text dropped
        --gate----------->  decision (status, reason, claims)
        --answer_request->  chat messages, only when ready (prepared, never sent)
        --check_answer---> verdict on a model's answer, with every finding

Load once, decide many times::

    import conflict_gate
    corpus = conflict_gate.load_documents("docs/manifest.json")
    decision = conflict_gate.gate(corpus, ["guide", "reference"], "1.0", "create_copy", "existing_path")
    if decision["status"] == "ready":
        messages = decision["answer_request"]["messages"]   # send them yourself

The gate compares *declared values* of exact directives; it does not read
prose. Everything it accepts is data: the grammar, version scheme and page
statuses come from the manifest; reasons, decisions, verdicts and exit codes
are the tables re-exported below.
"""

from __future__ import annotations

from _conflict_gate.answer import check_answer
from _conflict_gate.blocks import parse_blocks
from _conflict_gate.cli import main
from _conflict_gate.corpus import Corpus, Source, load_documents, source_digest
from _conflict_gate.decision import CLAIM_FIELDS, audit, gate
from _conflict_gate.errors import (
    DecisionError,
    DirectiveError,
    GateError,
    GrammarError,
    IngestionError,
    LocatedError,
)
from _conflict_gate.grammar import EnumRule, Grammar, IntegerRule, grammar_from_json
from _conflict_gate.manifest import VERSION_SCHEMES, Manifest, read_manifest
from _conflict_gate.reader import Claim, NearMiss, Reading, read_directives
from _conflict_gate.registry import (
    AUDIT_STATUSES,
    DECISION_FILE_REASONS,
    DECISIONS,
    DIRECTIVE_REASONS,
    EXIT_CODES,
    FINDINGS,
    GATE_REASONS,
    GRAMMAR_REASONS,
    INGESTION_REASONS,
    MAX_ANSWER_BYTES,
    MAX_SOURCE_BYTES,
    PAGE_STATUSES,
    VERDICTS,
)
from _conflict_gate.request import ANSWER_FORM, answer_request

__all__ = [
    "ANSWER_FORM",
    "AUDIT_STATUSES",
    "CLAIM_FIELDS",
    "Claim",
    "Corpus",
    "DECISIONS",
    "DECISION_FILE_REASONS",
    "DIRECTIVE_REASONS",
    "DecisionError",
    "DirectiveError",
    "EXIT_CODES",
    "EnumRule",
    "FINDINGS",
    "GATE_REASONS",
    "GRAMMAR_REASONS",
    "GateError",
    "Grammar",
    "GrammarError",
    "INGESTION_REASONS",
    "IngestionError",
    "IntegerRule",
    "LocatedError",
    "MAX_ANSWER_BYTES",
    "MAX_SOURCE_BYTES",
    "Manifest",
    "NearMiss",
    "PAGE_STATUSES",
    "Reading",
    "Source",
    "VERDICTS",
    "VERSION_SCHEMES",
    "answer_request",
    "audit",
    "check_answer",
    "gate",
    "grammar_from_json",
    "load_documents",
    "main",
    "parse_blocks",
    "read_directives",
    "read_manifest",
    "source_digest",
]
