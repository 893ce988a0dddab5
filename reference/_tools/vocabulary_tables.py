"""The reference pages' tables of vocabularies, each rendered from ``_conflict_gate.base.registry``.

Reasons of each kind, page and audit statuses, decisions, verdicts, findings, the answer form, exit
codes and CI severities and reasons (one source of truth: the pages never restate them by hand)."""

from __future__ import annotations

from collections.abc import Mapping

from _conflict_gate.base.errors import DecisionError, DirectiveError, GateError, GrammarError, IngestionError
from _conflict_gate.base.registry import (
    AUDIT_STATUSES,
    COMMAND_EXIT_CODES,
    DECISIONS,
    EXIT_CODES,
    FINDINGS,
    PAGE_STATUSES,
    REPORT_SEVERITIES,
    SEVERITIES,
    SOURCE_INGESTION_REASONS,
    TREE_FINDINGS,
    VERDICTS,
    reason_meaning,
)
from _conflict_gate.cli.ci import SARIF_LEVELS
from _conflict_gate.cli.markdown import code_span as code
from _conflict_gate.cli.markdown import markdown_table
from _conflict_gate.manifest.form import ANSWER_FORM

from .tables import DriftError


def exit_code_of(name: str) -> int:
    return EXIT_CODES[name][0]


# --------------------------------------------------------------------------
# Reasons, statuses, decisions, verdicts, exit codes


def _reasons(reasons: Mapping[str, str]) -> list[str]:
    return markdown_table(("reason", "meaning"), [(code(r), meaning) for r, meaning in reasons.items()])


def ingestion_reasons() -> list[str]:
    """``IngestionError`` reasons, with what a non-strict load does with each: the reasons of one source
    (``SOURCE_INGESTION_REASONS``) refuse that source only; the others still raise."""
    if not set(SOURCE_INGESTION_REASONS) <= set(IngestionError.reasons):
        raise DriftError("a one-source ingestion reason is not an IngestionError reason")
    return markdown_table(
        ("reason", "in a non-strict load", "meaning"),
        [
            (code(r), "refuses that source" if r in SOURCE_INGESTION_REASONS else "raises", meaning)
            for r, meaning in IngestionError.reasons.items()
        ],
    )


def grammar_reasons() -> list[str]:
    """``GrammarError`` reasons."""
    return _reasons(GrammarError.reasons)


def gate_reasons() -> list[str]:
    """``GateError`` reasons."""
    return _reasons(GateError.reasons)


def directive_reasons() -> list[str]:
    """``DirectiveError`` reasons (a source the gate refuses)."""
    return _reasons(DirectiveError.reasons)


def decision_file_reasons() -> list[str]:
    """``DecisionError`` reasons (a decision file the answer check does not accept)."""
    return _reasons(DecisionError.reasons)


def tree_findings() -> list[str]:
    """What ``pin --check`` and ``audit`` find in the docs tree (findings, exit 1)."""
    return _reasons(TREE_FINDINGS)


#: Where the reference pages list the reasons of a ``refused`` decision (the lookup page's sections).
REFUSED_REASONS_TEXT = (
    "the refused source's reason: a [`DirectiveError` reason](lookup.md#directiveerror) (it says something"
    " the gate cannot use) or, after a non-strict load, a one-source"
    " [`IngestionError` reason](lookup.md#ingestionerror) (it failed verification)"
)


def decisions() -> list[str]:
    """Every status of a gate result in precedence order, with its reasons and the ``gate`` exit code.

    The ``refused`` reasons are one row: they are exactly the ``DirectiveError`` reasons and the one-source
    ``IngestionError`` reasons, listed on the lookup page (``DriftError`` if that stops being true)."""
    if dict(DECISIONS["refused"]) != {**DirectiveError.reasons, **SOURCE_INGESTION_REASONS}:
        raise DriftError("the refused reasons are no longer the directive and one-source ingestion reasons")
    rows: list[tuple[object, ...]] = []
    for status, reasons in DECISIONS.items():
        exit_code = exit_code_of("ok" if status == "ready" else status)
        request = "prepared" if status == "ready" else "withheld (`null`)"
        if status == "refused":
            rows.append((code(status), "any", request, exit_code, REFUSED_REASONS_TEXT))
            continue
        for reason, meaning in reasons.items():
            rows.append((code(status), code(reason), request, exit_code, meaning))
    return markdown_table(("status", "reason", "answer_request", "gate exit code", "meaning"), rows)


def page_statuses() -> list[str]:
    """The page statuses a manifest entry may carry."""
    return markdown_table(("status", "meaning"), [(code(s), meaning) for s, meaning in PAGE_STATUSES.items()])


def audit_statuses() -> list[str]:
    """What the audit finds per version, operation and key."""
    return markdown_table(("status", "meaning"), [(code(s), meaning) for s, meaning in AUDIT_STATUSES.items()])


def verdicts() -> list[str]:
    """The verdicts of the answer check in precedence order, with class and exit code."""
    rows = []
    for rank, (verdict, (verdict_class, meaning)) in enumerate(VERDICTS.items(), 1):
        exit_code = exit_code_of("ok" if verdict_class == "supported" else verdict_class)
        rows.append((rank, code(verdict), code(verdict_class), exit_code, meaning))
    return markdown_table(("precedence", "verdict", "class", "check-answer exit code", "meaning"), rows)


def findings() -> list[str]:
    """The kinds of finding and the verdict each calls for."""
    return markdown_table(
        ("finding", "calls for", "meaning"),
        [(code(kind), code(verdict), meaning) for kind, (verdict, meaning) in FINDINGS.items()],
    )


def answer_form() -> list[str]:
    """The four forms an answer is read in, with the lab's compatible-agreement case as example."""
    rows = [
        ("citation", code(ANSWER_FORM.citation), code(ANSWER_FORM.citation.format(source_id="quill-guide", line=37))),
        (
            "quoted directive",
            code(ANSWER_FORM.quote),
            code(ANSWER_FORM.quote.format(directive="@quill create_copy existing_path=refuse")),
        ),
        (
            "value statement",
            code(ANSWER_FORM.value),
            code(ANSWER_FORM.value.format(claim_key="existing_path", value="refuse")),
        ),
        ("version statement", code(ANSWER_FORM.version), code(ANSWER_FORM.version.format(version="1.0"))),
    ]
    return markdown_table(("form", "template", "example"), rows)


def exit_codes() -> list[str]:
    """The one table of exit codes."""
    return markdown_table(
        ("code", "name", "meaning"), [(number, code(name), meaning) for name, (number, meaning) in EXIT_CODES.items()]
    )


def command_exit_codes() -> list[str]:
    """The exit codes each command can end with, derived from the one table."""
    rows = []
    for command, names in COMMAND_EXIT_CODES.items():
        name, _, note = command.partition(" (")
        shown = code(("python " if name.endswith(".py") else "conflict-gate ") + name)
        listed = sorted((exit_code_of(code_name), code_name) for code_name in names)
        rows.append(
            (
                shown + (f" ({note}" if note else ""),
                ", ".join(f"{number} `{code_name}`" for number, code_name in listed),
            )
        )
    return markdown_table(("command", "exit codes"), rows)


# --------------------------------------------------------------------------
# The CI formats


def ci_severities() -> list[str]:
    """The severities of the CI formats and how each format shows them."""
    return markdown_table(
        ("severity", "GitHub", "SARIF `level`", "JUnit", "meaning"),
        [
            (
                code(name),
                code(f"::{name}"),
                code(SARIF_LEVELS[name]),
                "`<failure>`" if name == "error" else "`<system-out>`",
                meaning,
            )
            for name, meaning in SEVERITIES.items()
        ],
    )


def ci_reasons() -> list[str]:
    """Every reason the CI formats report, its command and its severity by page status."""
    return markdown_table(
        ("reason", "reported by", "on an approved page", "on a draft or deprecated page", "meaning"),
        [
            (
                code(reason),
                ", ".join(map(code, commands)),
                code(approved) if approved else "-",
                code(unapproved) if unapproved else "-",
                reason_meaning(reason),
            )
            for reason, (commands, approved, unapproved) in REPORT_SEVERITIES.items()
        ],
    )
