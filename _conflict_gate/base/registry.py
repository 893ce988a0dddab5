"""Every fixed vocabulary of conflict-gate, defined once, as read-only data.

The errors, the decisions, the audit, the answer check, the command line and
the reference pages all read these tables; nothing else spells a reason, a
status, a verdict or an exit code. Adding an entry is a change of contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "AUDIT_STATUSES",
    "CI_FORMATS",
    "COMMAND_EXIT_CODES",
    "DECISIONS",
    "DECISION_FILE_REASONS",
    "DEFAULT_RENDERER",
    "DEFAULT_STATUS",
    "DEFAULT_UNRELATED",
    "DIRECTIVE_REASONS",
    "ELIGIBLE_STATUS",
    "EXIT_CODES",
    "FINDINGS",
    "GATE_REASONS",
    "GRAMMAR_REASONS",
    "INGESTION_REASONS",
    "MAX_ANSWER_BYTES",
    "MAX_DECISION_BYTES",
    "MAX_FOLDER_DEPTH",
    "MAX_LEAF_LINES",
    "MAX_MANIFEST_BYTES",
    "MAX_QUESTION_CHARS",
    "MAX_SOURCE_BYTES",
    "NEAR_MISS_PLACES",
    "PAGE_STATUSES",
    "RENDERERS",
    "REPORT_REASONS",
    "REPORT_SEVERITIES",
    "RESULT_SCHEMAS",
    "SEVERITIES",
    "SOURCE_INGESTION_REASONS",
    "TREE_FINDINGS",
    "UNRELATED_OPTIONS",
    "VERDICTS",
    "VERDICT_CLASSES",
    "VERDICT_PRECEDENCE",
    "reason_meaning",
    "status_of",
]

_ro = MappingProxyType

#: Largest source file accepted, in bytes; larger files are refused unread.
MAX_SOURCE_BYTES: Final = 16 * 1024 * 1024
#: Lines the block reading keeps per leaf block; the gate gives up on a longer block that holds a watched offset
#: (:mod:`~_conflict_gate.reading.blocks`). Here, with the other limits, so that the reading cache's fingerprint
#: names it without importing the block reading.
MAX_LEAF_LINES: Final = 20_000
#: Largest manifest file accepted, in bytes.
MAX_MANIFEST_BYTES: Final = 64 * 1024 * 1024
#: Largest answer ``check_answer`` reads, in bytes of UTF-8.
MAX_ANSWER_BYTES: Final = 64 * 1024
#: The longest user's question an answer request carries, in code points.
MAX_QUESTION_CHARS: Final = 4096
#: Largest decision file ``check-answer`` reads, in bytes.
MAX_DECISION_BYTES: Final = 16 * 1024 * 1024
#: Deepest folder below the manifest's folder that the tree walk of ``sources`` enters.
MAX_FOLDER_DEPTH: Final = 64

#: Reasons of an ``IngestionError``: the manifest or a source could not be loaded and verified.
INGESTION_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "manifest_unreadable": "the manifest file is missing, not a regular file, unreadable or too large",
        "manifest_not_utf8": "the manifest is not valid UTF-8",
        "manifest_not_json": "the manifest is not valid JSON",
        "invalid_manifest": "the manifest does not have the documented shape",
        "invalid_version_scheme": "the manifest's version_scheme is missing or not a known scheme",
        "invalid_renderer": "the manifest's renderer is not one of the renderers the gate knows",
        "invalid_source_id": "a source_id is not ASCII letters, digits, '.', '_', '-', '/' (starting with a letter or digit)",
        "invalid_version": "a source's version does not fit the manifest's version scheme",
        "invalid_status": "a source's status is not one of the page statuses",
        "invalid_url": "a url is empty, too long, or holds whitespace or control characters",
        "invalid_sha256": "a pin is not 64 lowercase hexadecimal characters",
        "duplicate_source_id": "two manifest entries share a source_id (or two pages init would list would)",
        "duplicate_path": "two manifest entries name the same file (as text, or through a link)",
        "invalid_path": "a path is empty, absolute, not normalised, or uses '..', backslashes or control characters",
        "path_outside_root": "a path leads outside the manifest's folder (through a symlink)",
        "source_missing": "a source file does not exist",
        "source_not_regular_file": "a source path names a directory, device or other non-regular file",
        "source_unreadable": "a source file, or a folder the manifest's sources cover, could not be read",
        "source_too_large": f"a source file is larger than {MAX_SOURCE_BYTES} bytes",
        "hash_mismatch": "a source's raw bytes do not match its pinned sha256",
        "source_unpinned": "a source is listed but not pinned yet (its sha256 is empty): nothing says its bytes were reviewed",
        "source_not_utf8": "a source is not valid UTF-8",
        "site_unreadable": "`--site`: the built site or its configuration cannot be found or read (a missing folder, "
        "no mkdocs.yml or conf.py, a value the gate does not read)",
        "built_page_missing": "`--site`: a page that holds directive-shaped text has no built page in the site, or it "
        "cannot be read as UTF-8",
        "readings_unreadable": "the recorded readings file the manifest names (`readings`) is missing, unreadable, not "
        "the bytes its `readings_sha256` pins, of another format, recorded under another "
        "grammar, or not one line for each of the manifest's pages at most: `pin --site` records them again",
        "reading_unusable": "the manifest has recorded readings, and the page's is missing, recorded for other bytes "
        "or another path, or of the wrong shape: `pin --site` records it again",
    }
)

#: The ingestion reasons of one source (not of the manifest): with ``load_documents(..., strict=False)``
#: a source that fails so is kept, refused, and refuses every request it is eligible for. A path
#: two entries share as text is a manifest problem and still raises; through a link, the second
#: entry read fails alone.
SOURCE_INGESTION_REASONS: Final[Mapping[str, str]] = _ro(
    {
        reason: INGESTION_REASONS[reason]
        for reason in (
            "duplicate_path",
            "path_outside_root",
            "source_missing",
            "source_not_regular_file",
            "source_unreadable",
            "source_too_large",
            "hash_mismatch",
            "source_unpinned",
            "source_not_utf8",
            "built_page_missing",
            "reading_unusable",
        )
    }
)

#: Reasons of a ``GrammarError``: the grammar the manifest declares is not usable.
GRAMMAR_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "missing_grammar": "the manifest declares no grammar",
        "invalid_grammar": "the grammar is not an object of the documented shape",
        "invalid_name": "a namespace, operation or key is not lowercase ASCII letters, digits, '_', '-', '.' starting with a letter",
        "reserved_name": "a key is a name the answer form states on its own (`version`): no answer could tell them apart",
        "invalid_value_rule": "a value rule is not an enumeration of distinct tokens or an integer with valid bounds",
    }
)

#: What ``gate(..., unrelated=...)`` does with an eligible page that is not about the requested
#: operation (it declares no key of it), and ``--set-aside-unrelated`` on the command line.
UNRELATED_OPTIONS: Final[Mapping[str, str]] = _ro(
    {
        "withhold": "the default: such a page is silent on the key, so the answer is withheld (`requested_claim_missing`)",
        "set_aside": "such a page is listed in `set_aside_unrelated_ids` and takes no part in the decision; "
        "a page about the operation that is silent on the key still withholds",
    }
)
DEFAULT_UNRELATED: Final = "withhold"

#: Reasons of a ``GateError``: the request itself is invalid; no decision is made.
GATE_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "invalid_candidate_ids": "candidate ids are not a list (or tuple) of non-empty strings",
        "duplicate_candidate": "a candidate id is listed twice",
        "invalid_requested_version": "the requested version does not fit the manifest's version scheme",
        "unsupported_requested_claim": "the requested operation/claim key is not in the grammar",
        "unknown_candidate": "a candidate id is not in the manifest",
        "invalid_unrelated_option": "`unrelated` is not one of the option values ("
        + ", ".join(f"`{name}`" for name in UNRELATED_OPTIONS)
        + ")",
        "invalid_question": f"the user's question is not text of 1 to {MAX_QUESTION_CHARS} code points, holding a "
        "character other than a line end or a tab that no one sees (a control), or only whitespace",
        "ambiguous_claim_key": "no operation was named and several operations of the grammar have the claim key: "
        "name one (`--operation`, the `operation` argument of the `gate` tool)",
    }
)

#: Reasons of a ``DirectiveError``: a source says something the gate cannot use; it refuses the source.
DIRECTIVE_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "malformed_directive": "a line a reader sees as a directive is not exactly `@<namespace> <operation> <key>=<value>` on an unindented line",
        "misplaced_directive": "directive-shaped text a reader sees outside a directive line (list item, quote, heading, table, HTML, front matter, mid-line)",
        "ambiguous_markup": "the gate cannot be sure how a reader sees a block that holds directive-shaped text",
        "too_complex": "the gate gives up on the source rather than guess: too many candidate at signs, or a block too long or too deeply nested to read",
        "unsupported_operation": "the operation is not in the grammar",
        "unsupported_claim_key": "the key is not in the grammar for that operation",
        "unknown_directive_value": "the value is not one the grammar allows for that key",
        "invalid_integer": "an integer value is not canonical ASCII decimal (no '+', no leading zeros, at most 18 digits)",
        "integer_out_of_range": "an integer value is outside the key's min/max",
        "duplicate_directive": "one source declares the same operation and key twice",
        "build_error": "the site's build fails on the page, or the gate cannot tell that it does not (MDX: an unclosed "
        "HTML comment, a '{' or '<' that starts no expression or tag the gate models, an unclosed element)",
        "site_disagrees": "`--site`: the site's built page and the source disagree: a counted line the build does not "
        "show as a line of its own in a top-level paragraph, a directive it shows that no source "
        "line holds (an include, a macro), no main content region the gate knows, or a built page other sources "
        "are built to as well",
        "needs_site_build": "the page is in a text format no Markdown reading reads (reStructuredText `.rst`, MDX `.mdx` "
        "but under the `docusaurus` renderer, AsciiDoc `.adoc`) and holds directive-shaped text: only "
        "the site's build judges it (`--site`, or the reading `pin --site` recorded)",
    }
)

#: The renderers a manifest may name (``"renderer"``): how its docs site turns a page into what a
#: reader sees, so which reading the gate judges the page by. The values are built in
#: :mod:`~_conflict_gate.reading.renderers`, one per name.
RENDERERS: Final[Mapping[str, str]] = _ro(
    {
        "github": "CommonMark 0.31.2 + GFM exactly as github.com renders it, its tag filter included: judged "
        "against GitHub's reading alone",
        "commonmark": "the union of the CommonMark, GFM and markdown-it readings (with and without GitHub's tag "
        "filter): for a site whose renderer is not listed (VitePress, Hugo, Jekyll and the like)",
        "mkdocs": "MkDocs: Python-Markdown with the extensions mkdocs-material documents (admonition, details, "
        "superfences, tabbed, blocks, md_in_html, attr_list, def_list, footnotes, tables, toc), as the "
        "commonmark reading plus a conservative model of where Python-Markdown differs",
        "myst": "MyST-Parser under Sphinx or docutils: directives and colon fences are containers a reader sees, "
        "line comments are hidden, an include refuses the page",
        "docusaurus": "Docusaurus 3 (MDX 3 with GFM and its admonitions): no indented code, JSX elements and admonitions "
        "are containers, MDX comments are hidden, a page that may not build or imports content is refused",
        "portable": "the default: every other reading at once. A line counts only where every reading shows "
        "it as a directive, and is context only where every reading hides it or shows it as code; anything "
        "else is doubt. A page any reading refuses is refused, but a reading under which the page certainly "
        "does not build (MDX) is left out when another reading builds it",
    }
)
#: The renderer of a manifest that names none.
DEFAULT_RENDERER: Final = "portable"

#: Page statuses a manifest entry may carry (``status``); only ``approved`` sources are eligible.
PAGE_STATUSES: Final[Mapping[str, str]] = _ro(
    {
        "approved": "published; eligible (the default when status is absent)",
        "draft": "not published yet; set aside, never decides, never a fallback",
        "deprecated": "kept for reference; set aside, never decides, never a fallback",
    }
)

#: The one page status whose sources are eligible, and the status of an entry that gives none.
ELIGIBLE_STATUS: Final = "approved"
DEFAULT_STATUS: Final = ELIGIBLE_STATUS

#: status -> reason -> meaning. Every gate result carries one such pair; only
#: ``ready`` carries an answer request. When several apply the order here is the
#: precedence: refused > conflict > not_in_docs > ready. A ``refused`` decision's
#: reason is a :data:`DIRECTIVE_REASONS` one (``error`` is ``DirectiveError``) or, in a
#: non-strict load, a :data:`SOURCE_INGESTION_REASONS` one (``error`` is ``IngestionError``).
DECISIONS: Final[Mapping[str, Mapping[str, str]]] = _ro(
    {
        "refused": _ro({**DIRECTIVE_REASONS, **SOURCE_INGESTION_REASONS}),
        "conflict": _ro(
            {
                "same_version_directives_disagree": "eligible sources declare different values; every claim is kept",
            }
        ),
        "not_in_docs": _ro(
            {
                "no_eligible_version": "no candidate has the requested version (or no candidates were given)",
                "no_approved_source": "candidates of the requested version exist, but none is approved",
                "requested_claim_missing": "an eligible source does not declare the claim; silence is not agreement",
                "no_related_source": 'with `unrelated="set_aside"`: every eligible source is set aside (about other '
                "operations; for `gate_context`, declaring no directive at all), so none declares the claim",
            }
        ),
        "ready": _ro(
            {
                "eligible_directives_agree": "every eligible source declares the claim with the same value",
            }
        ),
    }
)

#: Per version, operation and key, what an audit finds among the approved sources of the version
#: that are *about* the operation (they declare some key of it).
AUDIT_STATUSES: Final[Mapping[str, str]] = _ro(
    {
        "agree": "every approved source of the version that is about the operation declares the key, all with one value",
        "conflict": "approved sources of the version declare different values",
        "partial": "the declared values agree but an approved source of the version that is about the operation "
        "(it declares another key of it) is silent on this key",
    }
)

#: What ``pin --check`` and ``audit`` find in the docs tree beside a manifest that has ``sources``:
#: findings (reported, exit 1), not errors. ``gate`` never looks.
TREE_FINDINGS: Final[Mapping[str, str]] = _ro(
    {
        "unlisted_source": "a page that the manifest's sources patterns take is not listed in its documents",
    }
)

#: Verdicts of the answer check, in precedence order: the first that applies is
#: the verdict. Each has a class, which picks the exit code.
VERDICTS: Final[Mapping[str, tuple[str, str]]] = _ro(
    {
        "no_answer_allowed": ("withheld", "the decision is not ready, so no answer is supported"),
        "malformed_answer": (
            "malformed",
            "the answer is empty, too large, not UTF-8, breaks the answer form, or shows "
            "form-like text otherwise raw than rendered",
        ),
        "contradicts_decision": (
            "unsupported",
            "the answer states another value or version, in the answer form or anywhere else a reader sees it",
        ),
        "quote_not_found": ("unsupported", "a quoted directive is in no pinned source"),
        "misattributed": (
            "unsupported",
            "a quoted directive is in a pinned source, but is not the claim at the cited source and line",
        ),
        "unknown_citation": ("unsupported", "a citation names a source or line that is not a claim of the decision"),
        "missing_statement": (
            "unsupported",
            "the agreed value or the requested version is not stated in the answer form",
        ),
        "missing_citation": (
            "unsupported",
            "a claim of the decision is not cited at its line, or a quote has no citation after it",
        ),
        "supported": (
            "supported",
            "every claim is cited, every quote and statement matches the decision, nothing else is stated",
        ),
    }
)
VERDICT_PRECEDENCE: Final = tuple(VERDICTS)
#: The verdict classes, in precedence order: ``supported`` and one per way of failing.
VERDICT_CLASSES: Final = tuple(dict.fromkeys(verdict_class for verdict_class, _ in VERDICTS.values()))

#: Where a near-miss sits: directive-shaped text that counts for nothing (the audit reports it).
NEAR_MISS_PLACES: Final[Mapping[str, str]] = _ro(
    {
        "code": "in a code block or code span: an example",
        "hidden": "in HTML a reader does not see (a comment, a tag, a template) or a link definition",
        "mention": "a mention of the namespace (`Ping @quill on Slack`): no operation of the grammar after it "
        "and no `=` on its line, so it states nothing",
    }
)

#: kind -> (the verdict it calls for, meaning): the findings the answer check reports. The
#: verdict of an answer is the first of :data:`VERDICT_PRECEDENCE` that one of its findings calls for.
FINDINGS: Final[Mapping[str, tuple[str, str]]] = _ro(
    {
        "not_utf8": ("malformed_answer", "the answer is not valid UTF-8 (given as text: it holds a lone surrogate)"),
        "too_large": ("malformed_answer", f"the answer is larger than {MAX_ANSWER_BYTES} bytes"),
        "empty": ("malformed_answer", "the answer is empty (or only whitespace)"),
        "non_ascii_in_form": (
            "malformed_answer",
            "a citation, quoted directive or statement holds a non-ASCII or control character",
        ),
        "broken_form": (
            "malformed_answer",
            "text that starts a citation, quote or statement does not complete it, or a "
            "directive written in prose (a quote without its backticks)",
        ),
        "hidden_form": (
            "malformed_answer",
            "form-like text that one reading shows and the other hides: a terminal shows the "
            "raw text, a chat window the rendered one (a comment, a tag, a link's destination or title, a "
            "definition, a fence's info string, an image's description)",
        ),
        "escaped_form": (
            "malformed_answer",
            "form-like text that the raw and the rendered reading spell differently "
            "(character references, backslash escapes)",
        ),
        "unclear_markup": (
            "malformed_answer",
            "form-like text whose rendering is in doubt: readers differ on its block, "
            "raw HTML may hide it, its backticks pair otherwise raw than rendered, a citation renders as a link",
        ),
        "look_alike": (
            "malformed_answer",
            "text that reads as a statement, a directive or a version but is written with "
            "non-ASCII look-alikes (an equals-like sign, a Cyrillic letter, a fullwidth form)",
        ),
        "control_character": (
            "malformed_answer",
            "the answer holds a character a reader's display acts on instead of "
            "showing: a C0 or C1 control other than tab and line endings (a backspace, an escape "
            "sequence), a carriage return no line feed follows, or a bidirectional control",
        ),
        "quote_without_citation": ("missing_citation", "a quoted directive has no citation after it on the same line"),
        "other_value": (
            "contradicts_decision",
            "a statement a reader sees (prose, code, a table) gives another value, or "
            "states another key of the operation, or a directive states another operation",
        ),
        "other_version": (
            "contradicts_decision",
            "a statement a reader sees gives a version other than the requested one",
        ),
        "quote_not_found": ("quote_not_found", "a quoted directive is in no pinned source"),
        "misattributed": ("misattributed", "a quoted directive is not the claim at the citation it is attributed to"),
        "unknown_citation": ("unknown_citation", "a citation is not the line of a claim of the decision"),
        "missing_citation": ("missing_citation", "a claim of the decision is not cited"),
        "missing_value": ("missing_statement", "the agreed value is not stated"),
        "missing_version": ("missing_statement", "the requested version is not stated"),
    }
)

#: Reasons of a ``DecisionError``: a decision file given to the answer check is not one this tool made.
DECISION_FILE_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "decision_unreadable": "the decision file is missing, unreadable, too large, not UTF-8 or not JSON",
        "invalid_decision": "the decision does not have the shape of a gate result",
        "decision_mismatch": "the decision is not what the gate builds from this corpus (claims or answer request differ)",
    }
)

#: The severities of a finding in the CI formats (``audit`` and ``pin --check`` with ``--format
#: github|sarif|junit``), most severe first. An ``error`` is exactly what makes the command exit 1.
SEVERITIES: Final[Mapping[str, str]] = _ro(
    {
        "error": "fails the command (exit 1)",
        "warning": "fails nothing now; it would once the page is approved",
        "notice": "for information: fails nothing",
    }
)

#: Reasons that only the CI formats' findings use; every other reason they report is one of the tables above.
REPORT_REASONS: Final[Mapping[str, str]] = _ro(
    {
        "unapproved_conflict": "a draft or deprecated page declares a value that the approved pages of its version do not: it would conflict once approved",
        "near_miss": "directive-shaped text in code or in HTML a reader does not see: it counts for nothing",
    }
)

#: reason -> (the commands that report it, its severity on an approved page, on a draft or deprecated
#: page; ``None`` where the reason cannot concern such a page). Every reason the CI formats report is here.
REPORT_SEVERITIES: Final[Mapping[str, tuple[tuple[str, ...], str | None, str | None]]] = _ro(
    {
        "same_version_directives_disagree": (("audit",), "error", None),
        **dict.fromkeys(DIRECTIVE_REASONS, (("audit",), "error", "warning")),
        "requested_claim_missing": (("audit",), "notice", None),
        "unapproved_conflict": (("audit",), None, "warning"),
        "near_miss": (("audit",), "notice", "notice"),
        # a source that fails verification: the audit reports every one (exit 6); pin --check those it
        # can tell from a pin or a recorded reading (exit 1) and stops at the others (exit 6)
        **{
            reason: (
                ("audit", "pin --check")
                if reason in ("hash_mismatch", "source_missing", "source_unpinned", "reading_unusable")
                else ("audit",),
                "error",
                "error",
            )
            for reason in SOURCE_INGESTION_REASONS
        },
        # a page the manifest's "sources" take but do not list (exit 1 from both commands); it has no
        # status of its own, so it is judged as a page would be that is approved by default
        **dict.fromkeys(TREE_FINDINGS, (("audit", "pin --check"), "error", None)),
    }
)

#: name -> (exit code, meaning). The one table of exit codes; each command's list is derived from it.
EXIT_CODES: Final[Mapping[str, tuple[int, str]]] = _ro(
    {
        "ok": (
            0,
            "success: gate ready, audit clean, pins current, answer supported, result up to date; mcp: the "
            "client ended the session",
        ),
        "findings": (
            1,
            "drift (run.py --check), an audit conflict, refused source or unlisted page, a stale or "
            "missing pin or an unlisted page (pin --check)",
        ),
        "usage": (2, "bad arguments, or a bad request (GateError); mcp: the MCP SDK is not installed"),
        "conflict": (3, "gate: conflict"),
        "not_in_docs": (4, "gate: not_in_docs"),
        "refused": (5, "gate: refused"),
        "input": (
            6,
            "the manifest or a source could not be loaded and verified (IngestionError); audit: a source failed "
            "verification; check-answer: the answer file cannot be read (missing, not a regular file, too large)",
        ),
        "output": (7, "an output file could not be written, or init would overwrite a file"),
        "grammar": (8, "the manifest's grammar is invalid (GrammarError)"),
        "unsupported": (9, "check-answer: the answer is not supported by the decision"),
        "withheld": (10, "check-answer: the decision withheld the answer (no_answer_allowed)"),
        "malformed": (11, "check-answer: malformed_answer"),
        "decision": (
            12,
            "check-answer: the decision file cannot be read, or is not a result of this tool for this corpus "
            "(DecisionError; every fault of the decision, its file's too: run gate again)",
        ),
    }
)

#: command -> the exit-code names it can end with (the README's per-command table).
COMMAND_EXIT_CODES: Final[Mapping[str, tuple[str, ...]]] = _ro(
    {
        "run.py (the lab)": ("ok", "findings", "usage", "input", "grammar", "output"),
        "gate": ("ok", "conflict", "not_in_docs", "refused", "usage", "input", "grammar"),
        "audit": ("ok", "findings", "usage", "input", "grammar", "output"),
        "pin": ("ok", "findings", "usage", "input", "grammar", "output"),
        "init": ("ok", "usage", "input", "output", "grammar"),
        "grammar": ("ok", "usage", "input", "grammar"),
        "check-answer": ("ok", "unsupported", "withheld", "malformed", "decision", "usage", "input", "grammar"),
        "schema": ("ok", "usage"),
        "versions": ("ok", "usage", "input", "grammar"),
        "mcp": ("ok", "usage", "input", "grammar"),
    }
)

#: The CI formats of ``audit`` and ``pin --check`` (``--format``), rendered by :mod:`~_conflict_gate.cli.ci`.
#: Here, not there, so that the command line's parser names them without importing the renderers.
CI_FORMATS: Final = ("github", "sarif", "junit")

#: result name -> what it describes: the names ``conflict-gate schema NAME`` takes.
#: :data:`~_conflict_gate.results.schema.SCHEMAS` pairs each with its result's TypedDict; the names are
#: here so that the command line's parser has them without importing the schema builder.
RESULT_SCHEMAS: Final[Mapping[str, str]] = _ro(
    {
        "decision": "a decision: what gate() returns and `conflict-gate gate` prints",
        "audit": "an audit: what audit() returns and `conflict-gate audit --format json` prints",
        "answer-check": "an answer check: what check_answer() returns and `conflict-gate check-answer` prints",
        "lab-result": "the lab's saved result: `python run.py --output result.json`",
        "versions": "the versions listing: what `conflict-gate versions --format json` prints and the "
        "MCP server's `versions` tool returns",
        "context-decision": "a context decision: what gate_context() returns (retrieved pages, "
        "every claim they declare; reference/rag.md)",
        "tool-error": "an MCP tool's error result (`isError: true`): its structured content",
    }
)

_STATUS_OF: Final = _ro({reason: status for status, reasons in DECISIONS.items() for reason in reasons})


def status_of(reason: str) -> str:
    """The decision status a reason belongs to (``KeyError`` for an unregistered reason)."""
    return _STATUS_OF[reason]


def reason_meaning(reason: str) -> str:
    """The meaning of any reason of a decision, an error or a CI finding (``KeyError`` if unregistered)."""
    for table in (*DECISIONS.values(), INGESTION_REASONS, REPORT_REASONS, TREE_FINDINGS):
        if reason in table:
            return table[reason]
    raise KeyError(reason)
