"""Findings where CI users look: GitHub workflow commands, SARIF 2.1.0 and JUnit XML.

One small model, three renderers (no I/O here):

* a :class:`Finding` is one thing to show: reason, severity, source id, a
  repository-relative path, line, column, title and message;
* a :class:`Check` is one thing a command checked (a JUnit test case) with the
  findings it holds; a :class:`Report` is one command's checks, in order;
* a *producer* turns one command's own output into checks: :func:`audit_checks`
  (an :class:`~_conflict_gate.results.shapes.AuditReport`) and :func:`pin_checks`
  (``pin --check``'s drift). A new kind of finding is one more producer;
* a *renderer* takes a report and nothing else: :func:`render_github` (and
  :func:`github_summary` for ``$GITHUB_STEP_SUMMARY``), :func:`render_sarif`
  and :func:`render_junit`.

The severity of each reason is data: :data:`~_conflict_gate.base.registry.REPORT_SEVERITIES`.
An ``error`` is exactly what makes the command exit 1. Paths are made
repository-relative by :class:`Locations`, from the root :func:`repository_root`
finds (the nearest folder above the manifest's that holds a ``.git`` entry) or
the one the user names. ``reference/ci.md`` and ``reference/dev/ci.md`` document every choice made here.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple
from urllib.parse import quote

from .. import __version__
from ..base.errors import defuse_commands, located_message, printable
from ..base.jsondata import render_json
from ..base.registry import CI_FORMATS, ELIGIBLE_STATUS, REPORT_SEVERITIES, SEVERITIES, reason_meaning
from ..manifest.read import Entry
from ..results.audit import AuditReport, UnlistedSource

__all__ = [
    "ANNOTATIONS_PER_SEVERITY",
    "FORMATS",
    "SARIF_LEVELS",
    "SARIF_SCHEMA",
    "SRCROOT",
    "SUMMARY_LIMIT",
    "Check",
    "Finding",
    "Locations",
    "PinDrift",
    "Report",
    "annotation",
    "audit_checks",
    "escape_data",
    "escape_property",
    "github_summary",
    "log_line",
    "pin_checks",
    "render_github",
    "render_junit",
    "render_sarif",
    "repository_root",
    "severity",
    "workflow_command",
]

#: The formats rendered here (``--format`` of ``audit`` and ``pin --check``).
FORMATS: Final = CI_FORMATS
#: GitHub shows at most this many annotations of each severity per step (error, warning, notice).
ANNOTATIONS_PER_SEVERITY: Final = 10
#: GitHub refuses a step summary larger than this, in bytes (1 MiB).
SUMMARY_LIMIT: Final = 1 << 20
#: The official SARIF 2.1.0 schema (errata 01); ``tests/sarif/`` holds a copy.
SARIF_SCHEMA: Final = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#: The ``uriBaseId`` every SARIF location is relative to: the repository root.
SRCROOT: Final = "%SRCROOT%"
#: Severity -> SARIF result level.
SARIF_LEVELS: Final = {"error": "error", "warning": "warning", "notice": "note"}
#: At most this many names or values are listed in one message (so a message's length is bounded).
_LISTED: Final = 5


class Finding(NamedTuple):
    """One thing to show a CI user. ``path`` is relative to the repository root (POSIX); ``line`` and
    ``column`` are 1-based (the column in code points), ``None`` for a finding about a whole file."""

    reason: str
    severity: str
    source_id: str | None
    path: str | None
    line: int | None
    column: int | None
    title: str
    message: str


class Check(NamedTuple):
    """One thing a command checked (a JUnit test case); it fails when one of its findings is an error."""

    classname: str
    name: str
    findings: tuple[Finding, ...] = ()


class Report(NamedTuple):
    """One command's checks, in order: what every renderer takes."""

    command: str
    checks: tuple[Check, ...]

    @property
    def findings(self) -> list[Finding]:
        """Every finding, check by check."""
        return [finding for check in self.checks for finding in check.findings]


def severity(reason: str, status: str = ELIGIBLE_STATUS) -> str:
    """The severity of ``reason`` on a page of ``status`` (:data:`REPORT_SEVERITIES`); ``KeyError`` for a
    reason the table lacks, ``ValueError`` where the table says the reason cannot concern such a page."""
    _, approved, unapproved = REPORT_SEVERITIES[reason]
    found = approved if status == ELIGIBLE_STATUS else unapproved
    if found is None:
        raise ValueError(f"{reason} cannot concern a {status} page")
    return found


# --------------------------------------------------------------------------
# Repository-relative locations


def repository_root(folder: str) -> str | None:
    """The nearest of ``folder`` and its parents that holds a ``.git`` folder or file (a worktree's or a
    submodule's ``.git`` is a file), or ``None``. Runs no ``git`` process; reads no ``.git`` content."""
    current = os.path.abspath(folder)
    while True:
        marker = os.path.join(current, ".git")
        if os.path.isdir(marker) or os.path.isfile(marker):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


@dataclass(frozen=True)
class Locations:
    """Where a manifest's folder sits in a repository: ``root`` (a real, absolute path) and ``prefix``,
    the manifest's folder relative to it (POSIX, ``""`` at the root)."""

    root: str
    prefix: str

    @classmethod
    def within(cls, root: str, manifest_folder: str) -> Locations | None:
        """The locations of ``manifest_folder`` under ``root`` (both resolved), or ``None`` when the folder
        is not inside ``root``."""
        real_root = os.path.realpath(root)
        relative = os.path.relpath(os.path.realpath(manifest_folder), real_root)
        if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
            return None
        prefix = "" if relative == os.curdir else relative.replace(os.sep, "/")
        return cls(real_root, prefix)

    def of(self, path: str) -> str:
        """A manifest-relative path, relative to the root instead."""
        return posixpath.join(self.prefix, path) if self.prefix else path

    @property
    def root_uri(self) -> str:
        """The root as an absolute ``file:`` URI ending in ``/``, percent-encoded (RFC 3986)."""
        encoded = _uri_path(self.root)
        return f"file://{encoded}" + ("" if encoded.endswith("/") else "/")


def _uri_path(path: str) -> str:
    """``path`` percent-encoded as UTF-8 (its bytes, as the file system has them): only the unreserved
    characters and ``/`` stay as they are (RFC 3986 sections 2.3 and 3.3)."""
    return quote(os.fsencode(path), safe="/")


# --------------------------------------------------------------------------
# Producers


def _some(names: Sequence[str]) -> str:
    """``a, b, c`` or, past :data:`_LISTED` names, ``a, b, c, d, e and 7 more``."""
    shown = ", ".join(names[:_LISTED])
    return shown + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")


def _detail(message: str, source_id: str | None, path: str | None, line: int | None, column: int | None) -> str:
    """A located error message without its location (the finding carries the location itself)."""
    head = located_message("", source_id=source_id, path=path, line=line, column=column)
    return message[len(head) :] if message.startswith(head) else message


def audit_checks(report: AuditReport, where: Locations) -> list[Check]:
    """The checks of an audit: one per key of each operation (``VERSION/OPERATION``, ``KEY``), then one
    per source (``sources``, its id) that is refused or failed verification, would conflict once
    approved, or holds a near-miss.

    A key in ``conflict`` holds one error per claim (each at its line); a key with silent pages one
    notice per silent page (at its first directive of the operation, where the key would go). A
    refused source is an error when approved, else a warning; a source that failed verification an
    error whatever its status (the audit exits 6); a draft's conflicting claim a warning; a near-miss
    a notice.
    """
    checks = []
    for group in report["operations"]:
        version, operation = group["version"], group["operation"]
        for entry in group["keys"]:
            key = entry["claim_key"]
            what = f"{version} {operation} {key}"
            findings = []
            if entry["status"] == "conflict":
                by_value: dict[str, list[str]] = {}
                for claim in entry["claims"]:
                    by_value.setdefault(claim["value"], []).append(claim["source_id"])
                declared = "; ".join(f"{value} ({_some(ids)})" for value, ids in list(by_value.items())[:_LISTED])
                if len(by_value) > _LISTED:
                    declared += f"; and {len(by_value) - _LISTED} more values"
                for claim in entry["claims"]:
                    findings.append(
                        Finding(
                            "same_version_directives_disagree",
                            severity("same_version_directives_disagree"),
                            claim["source_id"],
                            where.of(claim["path"]),
                            claim["line"],
                            None,
                            f"conflict: {what}",
                            f"{what}: this page declares {claim['value']}, but the approved pages of {version} "
                            f"disagree: {declared}; a request about it is a conflict",
                        )
                    )
            values = _some(entry["values"])
            for silent in entry["silent"]:
                findings.append(
                    Finding(
                        "requested_claim_missing",
                        severity("requested_claim_missing"),
                        silent["source_id"],
                        where.of(silent["path"]),
                        silent["line"],
                        None,
                        f"silent page: {what}",
                        f"{what}: this page is about {operation} but does not declare {key}, which other "
                        f"approved pages of {version} declare ({values}); a request with it among its candidates "
                        "is not_in_docs",
                    )
                )
            checks.append(Check(f"{version}/{operation}", key, tuple(findings)))

    per_source: dict[str, list[Finding]] = {}
    for refusal in report["refused_sources"]:
        sid, path, line, column = refusal["source_id"], refusal["path"], refusal["line"], refusal["column"]
        per_source.setdefault(sid, []).append(
            Finding(
                refusal["reason"],
                severity(refusal["reason"], refusal["status"]),
                sid,
                where.of(path),
                line,
                column,
                f"refused: {refusal['reason']}",
                f"{refusal['status']} page {sid}: " + _detail(refusal["message"], sid, path, line, column),
            )
        )
    for draft in report["unapproved_conflicts"]:
        what = f"{draft['version']} {draft['operation']} {draft['claim_key']}"
        per_source.setdefault(draft["source_id"], []).append(
            Finding(
                "unapproved_conflict",
                severity("unapproved_conflict", draft["status"]),
                draft["source_id"],
                where.of(draft["path"]),
                draft["line"],
                None,
                f"would conflict once approved: {what}",
                f"{what}: this {draft['status']} page declares {draft['value']}; the approved pages of "
                f"{draft['version']} declare {_some(draft['approved_values'])}",
            )
        )
    for miss in report["near_misses"]:
        per_source.setdefault(miss["source_id"], []).append(
            Finding(
                "near_miss",
                severity("near_miss"),
                miss["source_id"],
                where.of(miss["path"]),
                miss["line"],
                miss["column"],
                f"near-miss in {miss['where']}: counts for nothing",
                _NEAR_MISS_WORDS.get(miss["where"], "directive-shaped text that counts for nothing: ")
                + printable(miss["quote"]),
            )
        )
    checks += [Check("sources", sid, tuple(findings)) for sid, findings in sorted(per_source.items())]
    return [*checks, *unlisted_checks(report["unlisted_sources"], where)]


#: How a near-miss's message begins, by where it was found (the places of
#: :data:`~_conflict_gate.base.registry.NEAR_MISS_PLACES`).
_NEAR_MISS_WORDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "code": "directive-shaped text in code is an example: it counts for nothing: ",
        "hidden": "directive-shaped text a reader does not see counts for nothing: ",
        "mention": "a mention of the namespace states nothing: it counts for nothing: ",
    }
)


def unlisted_checks(pages: Sequence[UnlistedSource], where: Locations, *, fix: str = "") -> list[Check]:
    """The checks of the pages the manifest's ``sources`` take but do not list (``unlisted``, the
    page's path): each an error at the page (no line: the whole page is the finding), naming the
    command that adds it (``fix``) when given."""
    return [
        Check(
            "unlisted",
            page["path"],
            (
                Finding(
                    page["reason"],
                    severity(page["reason"]),
                    page["source_id"],
                    where.of(page["path"]),
                    None,
                    None,
                    f"unlisted page: {page['path']}",
                    printable(page["message"]) + (f"; add it with: {fix}" if fix else ""),
                ),
            ),
        )
        for page in pages
    ]


class PinDrift(NamedTuple):
    """One entry whose pin is not current: ``reason`` is ``hash_mismatch`` (pinned, bytes differ),
    ``source_unpinned`` (not pinned yet), ``source_missing`` or ``reading_unusable`` (its recorded
    reading is not of its pinned bytes); ``digest`` and ``size`` are the file's (``None`` when missing);
    ``hint`` explains a line-ending-only change, or why the recorded reading is stale, else ``""``."""

    entry: Entry
    reason: str
    digest: str | None
    size: int | None
    hint: str


def pin_checks(
    entries: Sequence[Entry], drift: Iterable[PinDrift], where: Locations, *, manifest_file: str, fix: str
) -> list[Check]:
    """The checks of ``pin --check``: one per manifest entry (``sources``, its id), failing with its drift.

    A changed or unpinned page's finding is about the whole page (no line); a missing page's is placed
    on the manifest (``manifest_file``, relative to the manifest's folder), the file to mend. ``fix`` is
    the command that re-pins.
    """
    found = {d.entry.source_id: d for d in drift}
    checks = []
    for entry in entries:
        d = found.get(entry.source_id)
        if d is None:
            checks.append(Check("sources", entry.source_id))
            continue
        if d.reason == "source_missing":
            path, title = where.of(manifest_file), f"missing page: {entry.source_id}"
            message = (
                f"{entry.source_id} ({entry.path}) is listed in the manifest, but the file does not "
                "exist: restore it, or remove its entry"
            )
        elif d.reason == "reading_unusable":
            path, title = where.of(entry.path), f"stale reading: {entry.source_id}"
            message = f"{entry.source_id} ({entry.path}): {d.hint}"
        elif d.reason == "source_unpinned":
            path, title = where.of(entry.path), f"not pinned: {entry.source_id}"
            message = (
                f"{entry.source_id} ({entry.path}) is not pinned yet (its sha256 is empty; the file's is "
                f"{d.digest}, {d.size} bytes): pin it once reviewed: {fix}"
            )
        else:
            path, title = where.of(entry.path), f"stale pin: {entry.source_id}"
            message = (
                f"{entry.source_id} ({entry.path}): the file's bytes differ from its pin ({entry.sha256} "
                f"-> {d.digest}, {d.size} bytes)"
                + (f"; {d.hint}" if d.hint else "")
                + f"; if the edit is intended, re-pin: {fix}"
            )
        checks.append(
            Check(
                "sources",
                entry.source_id,
                (
                    Finding(
                        d.reason,
                        severity(d.reason, entry.status),
                        entry.source_id,
                        path,
                        None,
                        None,
                        title,
                        printable(message),
                    ),
                ),
            )
        )
    return checks


# --------------------------------------------------------------------------
# GitHub workflow commands


def _visible(text: str) -> str:
    """``text`` with every non-printable character but CR and LF backslash-escaped, as in every message
    of this tool (no escape sequence or NUL reaches the log); CR and LF are left to :func:`escape_data`."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\r\n" else printable(ch) for ch in text)


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's runner unescapes it: ``%``, CR, LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: :func:`escape_data`, then ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, properties: Sequence[tuple[str, str]], message: str) -> str:
    """One workflow command line, ``::COMMAND name=value,...::MESSAGE``: each value and the message
    made visible (:func:`_visible`), escaped as the runner unescapes them, then defused
    (:func:`~_conflict_gate.base.errors.defuse_commands`), so that no ``::`` or ``##[`` but the command's own
    two ``::`` is in the line. Every command :func:`render_github` writes is made here."""
    head = ",".join(f"{name}={defuse_commands(escape_property(_visible(value)))}" for name, value in properties)
    return f"::{command} {head}::{defuse_commands(escape_data(_visible(message)))}"


def log_line(text: str) -> str:
    """One plain line of the log (not a command): printable, defused. Every line :func:`render_github`
    writes that is not a workflow command is made here."""
    return defuse_commands(printable(text))


def annotation(finding: Finding) -> str:
    """``::error file=P,line=L,col=C,title=T::message [reason]`` (``notice``/``warning`` likewise)."""
    properties = []
    if finding.path is not None:
        properties.append(("file", finding.path))
        if finding.line is not None:
            properties.append(("line", str(finding.line)))
            if finding.column is not None:
                properties.append(("col", str(finding.column)))
    properties.append(("title", finding.title))
    return workflow_command(finding.severity, properties, f"{finding.message} [{finding.reason}]")


def _counts(findings: Sequence[Finding]) -> str:
    """``1 error, 0 warnings, 2 notices``."""
    count = Counter(f.severity for f in findings)
    return ", ".join(f"{count[name]} {name}" + ("" if count[name] == 1 else "s") for name in SEVERITIES)


def _where(finding: Finding) -> str:
    where = finding.path or "-"
    if finding.path is not None and finding.line is not None:
        where += f":{finding.line}" + (f":{finding.column}" if finding.column is not None else "")
    return where


def render_github(report: Report, *, summarised: bool = False) -> str:
    """The findings as workflow commands, one line each, within GitHub's caps per step.

    At most :data:`ANNOTATIONS_PER_SEVERITY` errors, warnings and notices are annotated, check by
    check, each check's first finding before any check's second (so a long conflict cannot hide a
    refused page), and so on; when any finding is left over, one notice (which takes the last notice slot) counts the
    rest, each of which follows as a plain log line. ``summarised``: the step summary lists them all.
    The last line counts every finding.
    """
    findings = [
        finding
        for _, _, finding in sorted(
            (i, c, finding) for c, check in enumerate(report.checks) for i, finding in enumerate(check.findings)
        )
    ]
    totals = Counter(f.severity for f in findings)
    over = any(totals[name] > ANNOTATIONS_PER_SEVERITY for name in SEVERITIES)
    caps = {name: ANNOTATIONS_PER_SEVERITY - (1 if over and name == "notice" else 0) for name in SEVERITIES}
    shown: Counter[str] = Counter()
    lines, rest = [], []
    for finding in findings:
        if shown[finding.severity] < caps[finding.severity]:
            shown[finding.severity] += 1
            lines.append(annotation(finding))
        else:
            rest.append(finding)
    if rest:
        where = "below and in the step summary" if summarised else "below"
        lines.append(
            workflow_command(
                "notice",
                [("title", f"conflict-gate {report.command}")],
                f"{len(rest)} more findings ({_counts(rest)}) are not annotated: GitHub shows at most "
                f"{ANNOTATIONS_PER_SEVERITY} errors, {ANNOTATIONS_PER_SEVERITY} warnings and "
                f"{ANNOTATIONS_PER_SEVERITY} notices per step; every finding is listed {where}",
            )
        )
        lines += [
            log_line(f"conflict-gate: not annotated: {f.severity} {f.reason} {_where(f)}: {f.message}") for f in rest
        ]
    lines.append(log_line(f"conflict-gate {report.command}: {_counts(findings)}"))
    return "\n".join(lines) + "\n"


def _summary_cell(text: str) -> str:
    """A GFM table cell that shows ``text`` (page text: a path, a message quoting a line) as text, never
    as Markdown: one printable line in a code span, in which nothing is a link, an image, HTML, an
    autolink (GFM's extended ones included), an entity or emphasis (CommonMark 0.31.2 section 6.1).

    The backtick run around it is longer than any inside; one space pads each side when the text starts
    or ends with a backtick or a space, which a code span would take as its fence or strip. Every ``|``
    is written ``\\|``: a GFM table splits a row at an unescaped pipe before reading its cells, code
    spans included, and passes ``\\|`` on as ``|`` (GFM 0.29 section 4.10). ``""`` is an empty cell.

    Not backslash escapes: GitHub's cmark-gfm links ``a\\@b.example`` as an e-mail address all the same
    (its autolink extension reads the text after escapes are resolved).
    """
    shown = printable(text)
    if not shown:
        return ""
    longest = max((len(run) for run in re.findall("`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown[0] in "` " or shown[-1] in "` " else ""
    return f"{fence}{pad}{shown}{pad}{fence}".replace("|", "\\|")


def github_summary(report: Report, budget: int) -> str:
    """Markdown for ``$GITHUB_STEP_SUMMARY``: a heading with the counts and a table of every finding,
    in at most ``budget`` bytes of UTF-8 (rows that do not fit are counted in a last line instead);
    ``""`` when not even the heading fits."""
    findings = report.findings
    head = f"### conflict-gate {report.command}: {_counts(findings)}\n\n"
    if findings:
        head += "| severity | reason | location | message |\n|---|---|---|---|\n"
    cut = f"\n{len(findings)} more findings are not listed: GitHub caps a step summary at 1 MiB.\n"
    used = len(head.encode("utf-8")) + len(cut.encode("utf-8")) + 1
    if used > budget:
        return ""
    rows = []
    for finding in findings:
        row = (
            f"| {finding.severity} | {finding.reason} | {_summary_cell(_where(finding))} | "
            f"{_summary_cell(finding.message)} |\n"
        )  # severity and reason: the registry's names
        size = len(row.encode("utf-8"))
        if used + size > budget:
            break
        rows.append(row)
        used += size
    left = len(findings) - len(rows)
    tail = f"\n{left} more findings are not listed: GitHub caps a step summary at 1 MiB.\n" if left else ""
    return head + "".join(rows) + tail + "\n"


# --------------------------------------------------------------------------
# SARIF 2.1.0


def render_sarif(report: Report, where: Locations) -> str:
    """The report as one SARIF 2.1.0 run: a rule per reason the command can report (its description from
    the registry, its default level the severity on an approved page), a result per finding located by a
    percent-encoded repository-relative ``uri`` with ``uriBaseId`` ``%SRCROOT%``. A finding about a whole
    file is placed at line 1, as code scanning requires a line."""
    rules = [reason for reason, (commands, _, _) in REPORT_SEVERITIES.items() if report.command in commands]
    index = {reason: i for i, reason in enumerate(rules)}
    results = []
    for finding in report.findings:
        result: dict[str, Any] = {
            "ruleId": finding.reason,
            "ruleIndex": index[finding.reason],
            "level": SARIF_LEVELS[finding.severity],
            "message": {"text": finding.message},
        }
        if finding.path is not None:
            region: dict[str, int] = {"startLine": finding.line if finding.line is not None else 1}
            if finding.line is not None and finding.column is not None:
                region["startColumn"] = finding.column
            result["locations"] = [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri_path(finding.path), "uriBaseId": SRCROOT},
                        "region": region,
                    }
                }
            ]
        if finding.source_id is not None:
            result["properties"] = {"sourceId": finding.source_id}
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "conflict-gate",
                        "version": __version__,
                        "rules": [
                            {
                                "id": reason,
                                "shortDescription": {"text": reason_meaning(reason)},
                                "defaultConfiguration": {"level": SARIF_LEVELS[_default_severity(reason)]},
                            }
                            for reason in rules
                        ],
                    }
                },
                "automationDetails": {"id": f"conflict-gate/{report.command.replace(' --', '-')}/"},
                "originalUriBaseIds": {SRCROOT: {"uri": where.root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return render_json(log)  # defused as JSON, losslessly


def _default_severity(reason: str) -> str:
    _, approved, unapproved = REPORT_SEVERITIES[reason]
    found = approved or unapproved
    assert found is not None, reason
    return found


# --------------------------------------------------------------------------
# JUnit XML


#: A character XML 1.0 cannot hold (its ``Char`` production, negated).
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold (controls, lone surrogates, U+FFFE, U+FFFF)
    backslash-escaped, so the document always parses."""
    return _NOT_XML.sub(lambda match: printable(match.group()), text)


def _line(finding: Finding) -> str:
    return f"{finding.severity} {finding.reason} {_where(finding)}: {finding.message}"


def render_junit(report: Report) -> str:
    """The report as JUnit XML: one ``<testsuite>`` for the command, one ``<testcase>`` per check; a check
    holding an error gets one ``<failure type="REASON">`` (the first error's reason and message; every
    error in its text); warnings and notices go in the case's ``<system-out>``. Written with ElementTree."""
    failed = sum(any(f.severity == "error" for f in check.findings) for check in report.checks)
    counts = {"tests": str(len(report.checks)), "failures": str(failed), "errors": "0"}
    import xml.etree.ElementTree as ET  # only for JUnit XML (an import of 10-20 ms)

    suites = ET.Element("testsuites", {"name": "conflict-gate", **counts})
    suite = ET.SubElement(
        suites, "testsuite", {"name": _xml_safe(f"conflict-gate {report.command}"), **counts, "skipped": "0"}
    )
    for check in report.checks:
        case = ET.SubElement(
            suite, "testcase", {"classname": _xml_safe(check.classname), "name": _xml_safe(check.name)}
        )
        errors = [f for f in check.findings if f.severity == "error"]
        others = [f for f in check.findings if f.severity != "error"]
        if errors:
            failure = ET.SubElement(
                case, "failure", {"type": _xml_safe(errors[0].reason), "message": _xml_safe(errors[0].message)}
            )
            failure.text = _xml_safe("\n".join(_line(f) for f in errors))
        if others:
            ET.SubElement(case, "system-out").text = _xml_safe("\n".join(_line(f) for f in others))
    ET.indent(suites)
    # defused as XML (a character reference for the second character of each mark), losslessly
    return defuse_commands(
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n", "xml"
    )
