"""The public API, defined once: every name ``conflict_gate`` exports (and its type stub re-exports).

``conflict_gate.py`` at the root and the installed type stub
(``conflict_gate-stubs``, see ``reference/dev/architecture.md``) both take
:data:`__all__` from here, so the documented surface, the runtime module and
what a type checker sees cannot drift apart. ``reference/api.md`` lists each
name with its summary (rendered from this list). Everything else in
``_conflict_gate`` is internal and may change without notice.
"""

from __future__ import annotations

from .answer.check import check_answer
from .base.errors import DecisionError, DirectiveError, GateError, GrammarError, IngestionError, LocatedError
from .base.registry import (
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
    MAX_DECISION_BYTES,
    MAX_FOLDER_DEPTH,
    MAX_MANIFEST_BYTES,
    MAX_SOURCE_BYTES,
    PAGE_STATUSES,
    RENDERERS,
    SOURCE_INGESTION_REASONS,
    TREE_FINDINGS,
    UNRELATED_OPTIONS,
    VERDICTS,
)
from .corpus.chunks import chunk_source
from .corpus.load import Corpus, Source, load_documents, source_digest
from .decide.context import gate_context
from .decide.decision import audit, gate
from .decide.request import answer_request
from .manifest.form import ANSWER_FORM, AnswerForm
from .manifest.grammar import EnumRule, Grammar, IntegerRule, grammar_from_json
from .manifest.read import VERSION_SCHEMES, Entry, Manifest, VersionScheme, read_manifest
from .reading.reading_shapes import Claim, NearMiss
from .reading.renderers import Renderer
from .results.audit import (
    AuditClaim,
    AuditEntry,
    AuditOperation,
    AuditRefusal,
    AuditReport,
    AuditSilence,
    AuditSummary,
    NearMissRecord,
    UnapprovedConflict,
    UnlistedSource,
)
from .results.context import AgreedClaim, ContextConflict, ContextDecision, ContextPage, PartialClaim
from .results.schema import SCHEMAS, result_schema
from .results.shapes import (
    AnswerCheck,
    AnswerRequest,
    CandidateRecord,
    ChatMessage,
    ClaimRecord,
    Decision,
    DecisionEcho,
    Finding,
    RefusedSourceRecord,
)
from .site.build import SiteBuild, judge_site, locate_site

__all__ = [  # noqa: RUF022 - grouped by use, in the order reference/api.md presents them
    # the flow
    "load_documents",
    "gate",
    "gate_context",
    "chunk_source",
    "check_answer",
    "audit",
    "answer_request",
    "read_manifest",
    "grammar_from_json",
    "source_digest",
    "result_schema",
    "locate_site",
    "judge_site",
    # what the flow passes along
    "Corpus",
    "Source",
    "Claim",
    "NearMiss",
    "Manifest",
    "Entry",
    "VersionScheme",
    "Renderer",
    "Grammar",
    "EnumRule",
    "IntegerRule",
    "AnswerForm",
    "ANSWER_FORM",
    "SiteBuild",
    # results (plain dicts, typed)
    "Decision",
    "CandidateRecord",
    "ClaimRecord",
    "RefusedSourceRecord",
    "AnswerRequest",
    "ChatMessage",
    "AnswerCheck",
    "Finding",
    "DecisionEcho",
    "ContextDecision",
    "AgreedClaim",
    "PartialClaim",
    "ContextConflict",
    "ContextPage",
    "AuditReport",
    "AuditOperation",
    "AuditEntry",
    "AuditClaim",
    "AuditSilence",
    "AuditRefusal",
    "AuditSummary",
    "UnapprovedConflict",
    "NearMissRecord",
    "UnlistedSource",
    # errors
    "LocatedError",
    "IngestionError",
    "GrammarError",
    "GateError",
    "DirectiveError",
    "DecisionError",
    # vocabularies and limits
    "DECISIONS",
    "VERDICTS",
    "FINDINGS",
    "AUDIT_STATUSES",
    "PAGE_STATUSES",
    "VERSION_SCHEMES",
    "RENDERERS",
    "EXIT_CODES",
    "INGESTION_REASONS",
    "GRAMMAR_REASONS",
    "GATE_REASONS",
    "DIRECTIVE_REASONS",
    "SOURCE_INGESTION_REASONS",
    "UNRELATED_OPTIONS",
    "DECISION_FILE_REASONS",
    "TREE_FINDINGS",
    "SCHEMAS",
    "MAX_SOURCE_BYTES",
    "MAX_MANIFEST_BYTES",
    "MAX_ANSWER_BYTES",
    "MAX_DECISION_BYTES",
    "MAX_FOLDER_DEPTH",
]
