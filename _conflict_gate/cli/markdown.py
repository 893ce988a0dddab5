"""Markdown the commands print: GFM tables, code spans that hold any text, the audit report, the
grammar table (no I/O). ``reference.py`` renders the reference pages' tables with the same helpers."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..base.errors import defuse_commands, printable
from ..manifest.grammar import Grammar
from ..results.audit import AUDIT_SUMMARY_WORDS
from .support import printable_path

__all__ = ["code_span", "grammar_table", "markdown_table", "render_audit_markdown", "versions_table"]


_LINE_BREAKS: Final = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _cell(value: Any) -> str:
    """One GitHub-flavoured Markdown table cell: pipes escaped, line breaks made spaces."""
    return _LINE_BREAKS.sub(" ", printable(str(value))).replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A GFM table as lines."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return lines


def code_span(text: str) -> str:
    """A CommonMark code span for ``text``: a backtick run longer than any inside it."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _location(item: Mapping[str, Any]) -> str:
    where = str(item["path"])
    if item.get("line") is not None:
        where += f":{item['line']}"
        if item.get("column") is not None:
            where += f":{item['column']}"
    return where


def render_audit_markdown(report: Mapping[str, Any], manifest: str) -> str:
    """The audit as Markdown for a CI log or a pull request; deterministic. The counts in its
    summary line are the report's ``summary``; every table row is one item of the report. Defused
    (:func:`~_conflict_gate.base.errors.defuse_commands`): a ``::`` or ``##[`` of a page is shown as
    ``:\\x3a`` or ``#\\x23[``, so that no line of it is a GitHub workflow command."""
    summary = report["summary"]
    verdict = "clean" if report["clean"] else "NOT CLEAN"
    counts = ", ".join(f"{value} {AUDIT_SUMMARY_WORDS[key]}" for key, value in summary.items())
    if report["unlisted_sources"]:
        counts += f", {len(report['unlisted_sources'])} unlisted"
    count = report["source_count"]
    lines = [
        f"# conflict-gate audit: {printable_path(manifest)}",
        "",
        f"{count} source{'' if count == 1 else 's'}, versions {', '.join(report['versions']) or 'none'}: "
        f"**{verdict}** ({counts}).",
        "",
        f"Pages read as the `{report['renderer']}` renderer shows them.",
        "",
        "## Claims (approved sources, per operation they are about)",
        "",
    ]
    lines += markdown_table(
        ("version", "claim", "status", "values", "sources", "silent"),
        [
            (
                group["version"],
                f"{group['operation']} {entry['claim_key']}",
                entry["status"],
                ", ".join(entry["values"]),
                ", ".join(c["source_id"] for c in entry["claims"]),
                ", ".join(s["source_id"] for s in entry["silent"]) or "-",
            )
            for group in report["operations"]
            for entry in group["keys"]
        ]
        or [("-",) * 6],
    )
    conflicts = [
        (group, entry) for group in report["operations"] for entry in group["keys"] if entry["status"] == "conflict"
    ]
    if conflicts:
        lines += ["", "## Conflicts", ""]
        lines += markdown_table(
            ("version", "claim", "source", "location", "value", "quote"),
            [
                (
                    group["version"],
                    f"{group['operation']} {entry['claim_key']}",
                    c["source_id"],
                    f"{c['path']}:{c['line']}",
                    c["value"],
                    code_span(c["quote"]),
                )
                for group, entry in conflicts
                for c in entry["claims"]
            ],
        )
    for title, error in (("Sources that failed verification", "IngestionError"), ("Refused sources", "DirectiveError")):
        rows = [
            (r["source_id"], r["status"], _location(r), r["reason"], code_span(r["message"]))
            for r in report["refused_sources"]
            if r["error"] == error
        ]
        if rows:
            lines += ["", f"## {title}", ""]
            lines += markdown_table(("source", "status", "location", "reason", "message"), rows)
    if report["unapproved_conflicts"]:
        lines += ["", "## Drafts and deprecated pages that would conflict once approved", ""]
        lines += markdown_table(
            ("source", "status", "location", "claim", "value", "approved values"),
            [
                (
                    u["source_id"],
                    u["status"],
                    f"{u['path']}:{u['line']}",
                    f"{u['operation']} {u['claim_key']}",
                    u["value"],
                    ", ".join(u["approved_values"]),
                )
                for u in report["unapproved_conflicts"]
            ],
        )
    if report["near_misses"]:
        lines += ["", "## Near-misses (directive text in code or hidden HTML, mentions: count for nothing)", ""]
        lines += markdown_table(
            ("source", "location", "where", "quote"),
            [(n["source_id"], _location(n), n["where"], code_span(n["quote"])) for n in report["near_misses"]],
        )
    if report["left_out_readings"]:
        lines += ["", "## Readings left out (the page does not build under them, so it is judged by the others)", ""]
        lines += markdown_table(
            ("source", "location", "reading", "why"),
            [(o["source_id"], _location(o), o["reading"], code_span(o["why"])) for o in report["left_out_readings"]],
        )
    lines += _unlisted_markdown(report)
    return defuse_commands("\n".join(lines) + "\n")  # printed to a CI log: no workflow command


def _unlisted_markdown(report: Mapping[str, Any]) -> list[str]:
    """The audit's section of pages the manifest's ``sources`` take but it does not list."""
    if not report["unlisted_sources"]:
        return []
    return [
        "",
        "## Pages the manifest does not list (its sources take them)",
        "",
        *markdown_table(
            ("path", "version", "id init --update gives it", "why"),
            [
                (printable_path(u["path"]), u["version"], u["source_id"] or "-", u["message"])
                for u in report["unlisted_sources"]
            ],
        ),
    ]


def grammar_table(grammar: Grammar) -> list[str]:
    """The grammar as a Markdown table (operation, key, allowed values)."""
    return markdown_table(
        ("operation", "key", "allowed values"),
        [(f"`{op}`", f"`{key}`", rule.describe()) for op, key, rule in grammar.claims()],
    )


def versions_table(listing: Mapping[str, Any]) -> list[str]:
    """The versions listing as Markdown: a heading line, then one row per approved source of each
    version, with the keys it declares or why it is refused."""
    grammar = listing["grammar"]
    lines = [
        f"{grammar['product']}: directives are whole lines {code_span(grammar['directive'])}; renderer "
        f"{listing['renderer']}, version scheme {listing['version_scheme']}",
        "",
    ]
    rows = [
        (
            group["version"],
            code_span(source["source_id"]),
            source["url"] or "-",
            f"refused: {source['refused']}"
            if source["refused"] is not None
            else "; ".join(f"{op}: {', '.join(keys)}" for op, keys in source["keys"].items()) or "-",
        )
        for group in listing["versions"]
        for source in group["sources"]
    ]
    return lines + markdown_table(("version", "source", "url", "declares"), rows or [("-",) * 4])
