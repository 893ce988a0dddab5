"""The CI formats of ``audit`` and ``pin --check``: GitHub workflow commands, SARIF 2.1.0, JUnit XML.

* the findings: one model (:mod:`_conflict_gate.cli.ci`), the severity of each reason from the registry,
  every reason produced, an ``error`` exactly when the command exits 1;
* GitHub: every special character escaped as GitHub's runner unescapes it (an emulation of the
  runner's parser reads the lines back), the caps per step, the step summary under 1 MiB;
* SARIF: the structure code scanning reads, percent-encoded URIs (RFC 3986) relative to ``%SRCROOT%``
  (the full validation against the official schema is ``tests/ci_formats_check.py``, run by ``.ci/run``);
* JUnit: parsed back with ``xml.etree``: one suite, one case per audit row, failures typed by reason;
* repository-relative paths: the root from a ``.git`` folder or file, ``--root``, and the usage errors.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from _conflict_gate.base.registry import (
    DIRECTIVE_REASONS,
    NEAR_MISS_PLACES,
    REPORT_SEVERITIES,
    SEVERITIES,
    SOURCE_INGESTION_REASONS,
    reason_meaning,
)
from _conflict_gate.cli.ci import (
    ANNOTATIONS_PER_SEVERITY,
    SUMMARY_LIMIT,
    Check,
    Finding,
    Locations,
    Report,
    annotation,
    audit_checks,
    github_summary,
    render_github,
    render_junit,
    render_sarif,
    repository_root,
)
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import audit
from tests.support import FIXTURE_MANIFEST, REPO, site_judged_corpus, write_corpus
from tests.test_cli import GUIDE, CliCase, Run, code, sha
from tests.test_decision import DIALECTS, reason_cases
from tests.test_isolation import failing_corpus

#: Every character GitHub's runner decodes in a message or a property, with neighbours that look escaped.
SPECIAL = "100% done:\r\n a,b::c %0A %25 %3A%2C"
#: RFC 3986 ``path-noscheme`` / ``path-rootless``: segments of unreserved, pct-encoded, sub-delims, ":", "@".
URI_PATH = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})+")


def unescape_data(text: str) -> str:
    """What GitHub's runner does to a command's message (ActionCommand.UnescapeData): ``%25`` last."""
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    """What the runner does to a property value (ActionCommand.UnescapeProperty)."""
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def runner_parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command line read as GitHub's runner reads it (ActionCommand.TryParseV2): the command,
    its properties and its message. Raises ``ValueError`` for a line the runner would not take."""
    message = line.lstrip()
    if not message.startswith("::"):
        raise ValueError(f"not a command: {line!r}")
    end = message.index("::", 2)
    name, _, rest = message[2:end].partition(" ")
    properties = {}
    for item in (part for part in rest.strip().split(",") if part):
        key, sep, value = item.partition("=")
        if sep and key and value:
            properties[key] = unescape_property(value)
    return name, properties, unescape_data(message[end + 2 :])


#: Page text that is Markdown: what a step summary's cell must show as text (issue 34 item 2).
MARKDOWN_IN_CELLS = (
    "![x](https://img.example/a.png)",
    "[link](https://evil.example)",
    "<https://a.example>",
    "a@b.example www.evil.example https://c.example",
    "<img src=x onerror=alert(1)>",
    "a\\|b | c",
    "`code` ``x``",
    " lead and trail ",
    "&amp; &#x41;",
    "*em* _u_ ~~s~~ **b**",
    "x\\",
    "\\[not a link\\](x)",
    "[ref]: https://ref.example",
)


def summary_renderers() -> list[tuple[str, Any]]:
    """The GFM renderers installed (none in the default suite): markdown-it-py with GFM tables and
    linkify, cmark-gfm with GitHub's extensions (autolink included)."""
    found: list[tuple[str, Any]] = []
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        pass
    else:
        md = MarkdownIt("commonmark", {"linkify": True, "html": True}).enable(["table", "strikethrough", "linkify"])
        found.append(("markdown-it-py", md.render))
    try:
        import cmarkgfm
        from cmarkgfm.cmark import Options
    except ImportError:
        pass
    else:
        found.append(
            (
                "cmark-gfm",
                lambda text: cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE),
            )
        )
    return found


def finding(severity: str = "error", reason: str = "hash_mismatch", n: int = 0, **fields: Any) -> Finding:
    values: dict[str, Any] = {
        "reason": reason,
        "severity": severity,
        "source_id": f"s{n}",
        "path": f"docs/p{n}.md",
        "line": n + 1,
        "column": None,
        "title": f"title {n}",
        "message": f"message {n}",
    }
    values.update(fields)
    return Finding(**values)


def report(*findings: Finding, command: str = "pin --check") -> Report:
    return Report(command, tuple(Check("sources", f.source_id or "-", (f,)) for f in findings))


class GithubEscapingTest(unittest.TestCase):
    def test_every_special_character_round_trips_through_the_runner(self) -> None:
        """Ids, paths, titles and messages holding %, CR, LF, ':' and ',' come back exactly."""
        f = Finding(
            "malformed_directive",
            "warning",
            f"id{SPECIAL}",
            f"dir {SPECIAL}/page.md",
            7,
            3,
            f"title {SPECIAL}",
            f"message {SPECIAL}",
        )
        line = annotation(f)
        self.assertNotIn("\r", line)
        self.assertNotIn("\n", line)
        name, properties, message = runner_parse(line)
        self.assertEqual(name, "warning")
        self.assertEqual(properties, {"file": f.path, "line": "7", "col": "3", "title": f.title})
        # the message's '::' is defused (issue 34 item 1); a property's ':' is %3A already
        self.assertEqual(message, f"{f.message} [malformed_directive]".replace("b::c", "b:\\x3ac"))
        self.assertIn("title=title 100%25 done%3A%0D%0A a%2Cb%3A%3Ac %250A %2525 %253A%252C::", line)
        self.assertTrue(
            line.endswith("::message 100%25 done:%0D%0A a,b:\\x3ac %250A %2525 %253A%252C [malformed_directive]"), line
        )

    def test_other_control_characters_never_reach_the_log(self) -> None:
        """An escape sequence, a NUL or U+2028 in a path or message is shown as a backslash escape."""
        f = finding(path="docs/\x1b[31mred\x00.md", message="a\u2028b\x1bc")
        line = annotation(f)
        self.assertTrue(line.isprintable(), line)
        _, properties, message = runner_parse(line)
        self.assertEqual(properties["file"], "docs/\\x1b[31mred\\x00.md")
        self.assertEqual(message, "a\\u2028b\\x1bc [hash_mismatch]")

    def test_a_finding_without_a_line_has_no_line_or_column(self) -> None:
        _, properties, _ = runner_parse(annotation(finding(line=None, column=4)))
        self.assertEqual(set(properties), {"file", "title"})


class GithubCapsTest(unittest.TestCase):
    def lines(self, errors: int, warnings: int, notices: int, summarised: bool = False) -> list[str]:
        findings = (
            [finding("error", n=i) for i in range(errors)]
            + [finding("warning", "unapproved_conflict", n=100 + i) for i in range(warnings)]
            + [finding("notice", "near_miss", n=200 + i) for i in range(notices)]
        )
        return render_github(report(*findings, command="audit"), summarised=summarised).splitlines()

    def commands(self, lines: list[str]) -> list[tuple[str, dict[str, str], str]]:
        return [runner_parse(line) for line in lines if line.startswith("::")]

    def test_the_caps_per_severity_then_one_notice_counting_the_rest(self) -> None:
        lines = self.lines(25, 3, 12, summarised=True)
        commands = self.commands(lines)
        kinds = [name for name, _, _ in commands]
        cap = ANNOTATIONS_PER_SEVERITY
        self.assertEqual((kinds.count("error"), kinds.count("warning"), kinds.count("notice")), (cap, 3, cap))
        counting = commands[-1]
        self.assertEqual(counting[0], "notice")
        self.assertEqual(counting[1], {"title": "conflict-gate audit"})
        self.assertIn("18 more findings (15 errors, 0 warnings, 3 notices) are not annotated", counting[2])
        self.assertIn("listed below and in the step summary", counting[2])
        rest = [line for line in lines if line.startswith("conflict-gate: not annotated: ")]
        self.assertEqual(len(rest), 18)
        self.assertEqual(lines[-1], "conflict-gate audit: 25 errors, 3 warnings, 12 notices")

    def test_exactly_at_the_caps_everything_is_annotated(self) -> None:
        cap = ANNOTATIONS_PER_SEVERITY
        lines = self.lines(cap, cap, cap)
        self.assertEqual(len(self.commands(lines)), 3 * cap)
        self.assertFalse(any("not annotated" in line for line in lines))

    def test_the_counting_notice_takes_the_last_notice_slot(self) -> None:
        """Guards against an eleventh notice, which GitHub would drop, being the one that counts the rest."""
        cap = ANNOTATIONS_PER_SEVERITY
        commands = self.commands(self.lines(cap + 1, 0, cap))
        notices = [message for name, _, message in commands if name == "notice"]
        self.assertEqual(len(notices), cap)
        self.assertIn("2 more findings (1 error, 0 warnings, 1 notice)", notices[-1])
        self.assertIn("every finding is listed below", notices[-1])
        self.assertNotIn("step summary", notices[-1])


class StepSummaryTest(CliCase):
    def test_the_summary_fits_its_budget_and_counts_what_it_leaves_out(self) -> None:
        findings = [finding(n=i, message="m" * 500) for i in range(300)]
        for budget in (SUMMARY_LIMIT, 40_000, 2_000):
            with self.subTest(budget=budget):
                text = github_summary(report(*findings), budget)
                self.assertLessEqual(len(text.encode("utf-8")), budget)
                rows = [line for line in text.splitlines() if line.startswith("| error |")]
                left = re.search(r"^(\d+) more findings are not listed", text, re.MULTILINE)
                self.assertEqual(len(rows) + (int(left.group(1)) if left else 0), 300)
        self.assertEqual(github_summary(report(*findings), 50), "")

    def test_cells_stay_in_their_column(self) -> None:
        text = github_summary(report(finding(message="a | b <script> &\nc")), SUMMARY_LIMIT)
        self.assertIn("| `a \\| b <script> &\\nc` |", text)  # a code span: text, never Markdown

    def test_page_markdown_in_a_finding_is_shown_as_text(self) -> None:
        """Guards against page Markdown left live in the step summary's cells (an image that loads, a link,
        an autolink, HTML, emphasis): each location and message is one code span showing the text as it
        is; rendered by markdown-it-py (GFM tables) and cmark-gfm when installed (issue 34 item 2)."""
        findings = [finding(n=i, path=f"docs/{text}.md", message=text) for i, text in enumerate(MARKDOWN_IN_CELLS)]
        text = github_summary(report(*findings), SUMMARY_LIMIT)
        rows = [line for line in text.splitlines() if line.startswith("| error |")]
        self.assertEqual(len(rows), len(MARKDOWN_IN_CELLS))
        for row, shown in zip(rows, MARKDOWN_IN_CELLS):
            with self.subTest(shown):
                cells = re.split(r"(?<!\\) \| ", row[2:-2])  # a cell's own pipes are written \|
                self.assertEqual(len(cells), 4, row)
                span = re.fullmatch(r"(`+)( ?)(.*)\2\1", cells[3])
                self.assertIsNotNone(span, cells[3])
                assert span is not None
                self.assertEqual(span.group(3).replace("\\|", "|"), shown)
        for name, render in summary_renderers():
            with self.subTest(renderer=name):
                html_text = render(text)
                self.assertEqual(
                    re.findall(r"<(?!/?(?:h3|table|thead|tbody|tr|th|td|code)\b)[a-z]+", html_text), [], html_text
                )
                codes = [html.unescape(code) for code in re.findall(r"<code>(.*?)</code>", html_text, re.S)]
                self.assertEqual(codes[1::2], list(MARKDOWN_IN_CELLS))
                self.assertEqual(codes[0::2], [f"docs/{shown}.md:{i + 1}" for i, shown in enumerate(MARKDOWN_IN_CELLS)])

    def test_appended_after_what_the_step_wrote_and_the_file_stays_under_1_mib(self) -> None:
        summary = self.tmp / "summary.md"
        earlier = b"x" * (SUMMARY_LIMIT - 3_000) + b"\n"
        summary.write_bytes(earlier)
        result = self.cli(
            "audit", "--manifest", self.m, "--format", "github", environ={"GITHUB_STEP_SUMMARY": str(summary)}
        )
        self.assertEqual((result.code, result.err), (code("findings"), ""))
        written = summary.read_bytes()
        self.assertTrue(written.startswith(earlier))
        self.assertLessEqual(len(written), SUMMARY_LIMIT)
        self.assertIn(b"### conflict-gate audit: 4 errors, 1 warning, 3 notices", written)

    def test_a_full_summary_is_left_alone_and_said_so(self) -> None:
        summary = self.tmp / "summary.md"
        summary.write_bytes(b"x" * SUMMARY_LIMIT)
        result = self.cli(
            "audit", "--manifest", self.m, "--format", "github", environ={"GITHUB_STEP_SUMMARY": str(summary)}
        )
        self.assertEqual(result.code, code("findings"))
        self.assertEqual(summary.stat().st_size, SUMMARY_LIMIT)
        self.assertTrue(result.err.startswith("summary: not appended: "), result.err)
        self.assertOneLine(result.err)

    def test_a_summary_that_cannot_be_written_is_exit_7_after_the_annotations(self) -> None:
        result = self.cli(
            "audit", "--manifest", self.m, "--format", "github", environ={"GITHUB_STEP_SUMMARY": str(self.tmp)}
        )
        self.assertUserError(result, "output", "cannot write the step summary", "not a regular file", stdout=None)
        self.assertIn("::error file=", result.out)

    def test_without_the_variable_nothing_is_written(self) -> None:
        before = sorted(p.name for p in self.tmp.iterdir())
        result = self.cli("audit", "--manifest", self.m, "--format", "github", environ={"GITHUB_STEP_SUMMARY": ""})
        self.assertEqual(result.code, code("findings"))
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), before)


class FindingsTest(CliCase):
    """The producers: what each command reports, at which severity."""

    def test_the_audit_findings_of_the_cli_corpus(self) -> None:
        where = Locations(str(self.root), "")
        checks = audit_checks(audit(load_documents(self.manifest)), where)
        got = [
            (c.classname, c.name, [(f.reason, f.severity, f.path, f.line, f.column) for f in c.findings])
            for c in checks
        ]
        self.assertEqual(
            got,
            [
                (
                    "1.0/create_copy",
                    "close_required",
                    [  # reference and rival are about create_copy, silent on it
                        ("requested_claim_missing", "notice", "docs/reference.md", 3, None),
                        ("requested_claim_missing", "notice", "docs/rival.md", 3, None),
                    ],
                ),
                (
                    "1.0/create_copy",
                    "existing_path",
                    [
                        ("same_version_directives_disagree", "error", "docs/guide.md", 3, None),
                        ("same_version_directives_disagree", "error", "docs/reference.md", 3, None),
                        ("same_version_directives_disagree", "error", "docs/rival.md", 3, None),
                    ],
                ),
                ("2.0/create_copy", "existing_path", []),
                ("sources", "broken", [("malformed_directive", "error", "docs/broken.md", 3, 33)]),
                ("sources", "draft", [("unapproved_conflict", "warning", "docs/draft.md", 3, None)]),
                ("sources", "guide", [("near_miss", "notice", "docs/guide.md", 6, 8)]),
            ],
        )
        conflict = checks[1].findings[2]
        self.assertEqual(
            conflict.message,
            "1.0 create_copy existing_path: this page declares overwrite, but the "
            "approved pages of 1.0 disagree: refuse (guide, reference); overwrite (rival); a request "
            "about it is a conflict",
        )
        refused = checks[3].findings[0]
        self.assertEqual(
            refused.message,
            "approved page broken: expected exactly '@quill <operation> "
            "<key>=<value>', got '@quill create_copy existing_path = refuse'; use single spaces, "
            "names from the grammar and nothing after the value",
        )

    def test_a_near_miss_says_where_it_is(self) -> None:
        """Guards against a mention (text a reader does see, stating nothing) annotated as text a reader
        does not see: each place of NEAR_MISS_PLACES has its own words."""
        from _conflict_gate.cli.ci import _NEAR_MISS_WORDS

        self.assertEqual(set(_NEAR_MISS_WORDS), set(NEAR_MISS_PLACES))
        folder = self.folder()
        manifest = write_corpus(
            folder,
            {
                "docs/a.md": b"@quill create_copy existing_path=refuse\n\n"
                b"Questions? Ping @quill on Slack.\n\n"
                b"`@quill create_copy existing_path=overwrite`\n\n"
                b"<!-- @quill create_copy existing_path=overwrite -->\n"
            },
            extra={"renderer": "github"},
        )
        messages = {
            f.message.split(":")[0]: f
            for check in audit_checks(audit(load_documents(manifest)), Locations(str(folder), ""))
            for f in check.findings
            if f.reason == "near_miss"
        }
        self.assertEqual(
            sorted(messages),
            [
                "a mention of the namespace states nothing",
                "directive-shaped text a reader does not see counts for nothing",
                "directive-shaped text in code is an example",
            ],
        )
        self.assertEqual(messages["a mention of the namespace states nothing"].line, 3)

    def test_every_reason_of_the_table_is_produced_at_its_severity(self) -> None:
        """Every reason REPORT_SEVERITIES lists comes out of its command, on an approved page and on a draft."""
        seen: set[tuple[str, str, str]] = set()
        for dialect in DIALECTS:
            for reason, case in reason_cases(dialect).items():
                if reason not in DIRECTIVE_REASONS:
                    continue
                for status in ("approved", "draft"):
                    folder = self.folder()
                    manifest = write_corpus(
                        folder, case.files, statuses={"b": status}, grammar=dialect.grammar, extra=case.extra
                    )
                    checks = audit_checks(audit(load_documents(manifest)), Locations(str(folder), ""))
                    seen |= {("audit", f.reason, f"{status}:{f.severity}") for c in checks for f in c.findings}
        folder = self.folder()
        in_code = write_corpus(
            folder,
            {
                "docs/a.md": b"@quill create_copy existing_path=refuse\n",
                "docs/n.md": b"`@quill create_copy existing_path=refuse`\n",
            },
            statuses={"n": "draft"},
        )
        for manifest in (self.manifest, in_code):
            for check in audit_checks(audit(load_documents(manifest)), Locations(str(self.root), "")):
                for f in check.findings:
                    status = "draft" if f.source_id in ("draft", "n") else "approved"
                    seen.add(("audit", f.reason, f"{status}:{f.severity}"))
        for reason in SOURCE_INGESTION_REASONS:  # a page that fails verification: a non-strict load keeps it
            for status in ("approved", "draft"):
                manifest, context = failing_corpus(self.folder, reason, status=status)
                with context:
                    corpus = load_documents(manifest, strict=False)
                for check in audit_checks(audit(corpus), Locations(str(manifest.parent), "")):
                    seen |= {
                        ("audit", f.reason, f"{status}:{f.severity}") for f in check.findings if f.source_id == "b"
                    }
        for reason in ("site_disagrees", "built_page_missing"):  # only a corpus judged by its build (--site)
            for status in ("approved", "draft"):
                folder = self.folder()
                judged = site_judged_corpus(folder, reason, status=status)
                for check in audit_checks(audit(judged), Locations(str(folder), "")):
                    seen |= {
                        ("audit", f.reason, f"{status}:{f.severity}") for f in check.findings if f.source_id == "b"
                    }
        for status in ("approved", "draft"):  # a page no Markdown reading reads, judged by no build
            folder = self.folder()
            manifest = write_corpus(
                folder, {"docs/b.rst": b"T\n=\n\n@quill create_copy existing_path=refuse\n"}, statuses={"b": status}
            )
            for check in audit_checks(audit(load_documents(manifest)), Locations(str(folder), "")):
                seen |= {("audit", f.reason, f"{status}:{f.severity}") for f in check.findings if f.source_id == "b"}
        data = self.manifest_data()  # guide, reference, rival approved; broken, next, draft as drafts
        for entry, status, change in zip(
            data["documents"], ["approved"] * 3 + ["draft"] * 3, ["unpinned", "gone", "stale"] * 2
        ):
            entry["status"] = status
            if change == "unpinned":
                entry["sha256"] = ""
            elif change == "gone":
                entry["path"] = entry["path"].replace(".md", "-gone.md")
            else:
                entry["sha256"] = sha(b"old")
        drifted = self.write_json(self.root / "drifted.json", data)
        result = self.cli("pin", "--check", "--manifest", drifted, "--format", "sarif")
        self.assertEqual(result.code, code("findings"), result.err)
        statuses = {d["source_id"]: d["status"] for d in data["documents"]}
        seen |= {
            (
                "pin --check",
                r["ruleId"],
                f"{statuses[r['properties']['sourceId']]}:{'notice' if r['level'] == 'note' else r['level']}",
            )
            for r in json.loads(result.out)["runs"][0]["results"]
        }
        for status in ("approved", "draft"):  # a page whose recorded reading is not of its pinned bytes
            stale, _ = failing_corpus(self.folder, "reading_unusable", status=status)
            result = self.cli("pin", "--check", "--manifest", str(stale), "--format", "sarif")
            self.assertEqual(result.code, code("findings"), result.err)
            seen |= {
                ("pin --check", r["ruleId"], f"{status}:{'notice' if r['level'] == 'note' else r['level']}")
                for r in json.loads(result.out)["runs"][0]["results"]
            }
        tree = self.folder()  # a page the manifest's "sources" take but do not list
        listed = write_corpus(tree, {"1.0/a.md": b"@quill create_copy existing_path=refuse\n"})
        (tree / "1.0/new.md").write_bytes(b"@quill create_copy existing_path=refuse\n")
        data = json.loads(listed.read_text(encoding="utf-8"))
        data["sources"] = {"include": ["{version}/**"]}
        listed.write_text(json.dumps(data), encoding="utf-8")
        for command in (("audit",), ("pin", "--check")):
            result = self.cli(*command, "--manifest", str(listed), "--format", "sarif")
            self.assertEqual(result.code, code("findings"), result.err)
            seen |= {
                (" ".join(command), r["ruleId"], f"approved:{r['level']}")
                for r in json.loads(result.out)["runs"][0]["results"]
                if r["ruleId"] == "unlisted_source"
            }
        expected = set()
        for reason, (commands, approved, unapproved) in REPORT_SEVERITIES.items():
            for listed_command in commands:
                if approved is not None:
                    expected.add((listed_command, reason, f"approved:{approved}"))
                if unapproved is not None:
                    expected.add((listed_command, reason, f"draft:{unapproved}"))
        self.assertEqual(expected - seen, set(), "reasons of the table that no input produced")
        self.assertEqual(seen - expected, set(), "findings at a severity the table does not give")

    def test_an_error_exactly_when_the_command_exits_1(self) -> None:
        """The audit's exit code and its findings agree, for every sub-corpus of the CLI corpus."""
        from itertools import combinations

        ids = ("guide", "reference", "rival", "broken", "next", "draft")
        for size in (1, 2, 3):
            for chosen in combinations(ids, size):
                manifest = self.sub_manifest("sub.json", chosen)
                for fmt in ("junit", "github"):
                    result = self.cli("audit", "--manifest", manifest, "--format", fmt)
                    errors = (
                        result.out.count("<failure ")
                        if fmt == "junit"
                        else sum(line.startswith("::error ") for line in result.out.splitlines())
                    )
                    with self.subTest(chosen=chosen, fmt=fmt):
                        self.assertEqual(result.code, code("findings") if errors else code("ok"))

    def test_pin_check_findings(self) -> None:
        (self.root / "docs" / "guide.md").write_bytes(b"# edited\r\n")
        (self.root / "docs" / "rival.md").unlink()
        result = self.cli("pin", "--check", "--manifest", self.m, "--format", "github")
        self.assertEqual((result.code, result.err), (code("findings"), ""))
        commands = [runner_parse(line) for line in result.out.splitlines() if line.startswith("::")]
        self.assertEqual(
            [(name, p["file"], p.get("line")) for name, p, _ in commands],
            [("error", "docs/guide.md", None), ("error", "manifest.json", None)],
        )
        self.assertIn(
            f"guide (docs/guide.md): the file's bytes differ from its pin ({sha(GUIDE)} -> "
            f"{sha(b'# edited' + bytes([13, 10]))}, 10 bytes); if the edit is intended, re-pin: "
            f"conflict-gate pin --manifest {self.m} [hash_mismatch]",
            commands[0][2],
        )
        self.assertIn("rival (docs/rival.md) is listed in the manifest, but the file does not exist", commands[1][2])
        self.assertEqual(result.out.splitlines()[-1], "conflict-gate pin --check: 2 errors, 0 warnings, 0 notices")
        current = self.cli(
            "pin", "--check", "--manifest", self.sub_manifest("ok.json", ("reference", "next")), "--format", "github"
        )
        self.assertEqual(current, Run(code("ok"), "conflict-gate pin --check: 0 errors, 0 warnings, 0 notices\n", ""))


class SarifTest(CliCase):
    def sarif(self, *argv: str) -> dict[str, Any]:
        result = self.cli(*argv, "--format", "sarif")
        self.assertEqual(result.err, "")
        data: dict[str, Any] = json.loads(result.out)
        return data

    def test_one_rule_per_reason_and_a_located_result_per_finding(self) -> None:
        log = self.sarif("audit", "--manifest", self.m)
        self.assertEqual(log["version"], "2.1.0")
        (run,) = log["runs"]
        rules = run["tool"]["driver"]["rules"]
        audit_reasons = [r for r, (commands, _, _) in REPORT_SEVERITIES.items() if "audit" in commands]
        self.assertEqual([rule["id"] for rule in rules], audit_reasons)
        for rule in rules:
            self.assertEqual(rule["shortDescription"]["text"], reason_meaning(rule["id"]))
        self.assertEqual(run["columnKind"], "unicodeCodePoints")
        self.assertEqual(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], Path(self.root).as_uri() + "/")
        results = run["results"]
        self.assertEqual(len(results), 8)
        for result in results:
            self.assertEqual(rules[result["ruleIndex"]]["id"], result["ruleId"])
            (location,) = result["locations"]
            artifact = location["physicalLocation"]["artifactLocation"]
            self.assertEqual(artifact["uriBaseId"], "%SRCROOT%")
            self.assertTrue((self.root / unquote(artifact["uri"])).is_file(), artifact)
        levels = [r["level"] for r in results]
        self.assertEqual(levels.count("error"), 4)
        self.assertEqual(levels.count("note"), 3)  # two pages silent on close_required, one near-miss

    def test_uris_are_percent_encoded_relative_references(self) -> None:
        folder = self.folder()
        odd = "dir with space/%25 #?[x]:é"
        (folder / ".git").mkdir()
        manifest = write_corpus(
            folder / odd,
            {
                "docs/a.md": b"# A\n\n@quill create_copy existing_path=refuse\n",
                "docs/b.md": b"# B\n\n@quill create_copy existing_path=overwrite\n",
            },
        )
        os.rename(folder / odd / "docs" / "a.md", folder / odd / "docs" / "a b#c?.md")
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["documents"][0]["path"] = "docs/a b#c?.md"
        self.write_json(manifest, data)
        log = self.sarif("audit", "--manifest", str(manifest))
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]]
        self.assertEqual(uris[0], "dir%20with%20space/%2525%20%23%3F%5Bx%5D%3A%C3%A9/docs/a%20b%23c%3F.md")
        for uri in uris:
            self.assertRegex(uri, URI_PATH)
            self.assertNotIn(":", uri.split("/")[0])  # a relative reference's first segment has no colon
            self.assertTrue((folder / unquote(uri)).is_file(), uri)
        base = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        self.assertTrue(base.startswith("file:///") and base.endswith("/"), base)
        self.assertRegex(base[len("file://") :], URI_PATH)

    def test_a_whole_file_finding_sits_at_line_1(self) -> None:
        (self.root / "docs" / "guide.md").write_bytes(b"# edited\n")
        log = self.sarif("pin", "--check", "--manifest", self.m)
        (result,) = log["runs"][0]["results"]
        self.assertEqual(result["ruleId"], "hash_mismatch")
        self.assertEqual(result["locations"][0]["physicalLocation"]["region"], {"startLine": 1})
        self.assertEqual(log["runs"][0]["automationDetails"]["id"], "conflict-gate/pin-check/")


class JunitTest(CliCase):
    def parse(self, *argv: str) -> ET.Element:
        result = self.cli(*argv, "--format", "junit")
        self.assertEqual(result.err, "")
        self.assertTrue(result.out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n'))
        return ET.fromstring(result.out)

    def test_one_suite_one_case_per_audit_row_and_typed_failures(self) -> None:
        root = self.parse("audit", "--manifest", self.m)
        self.assertEqual(root.tag, "testsuites")
        (suite,) = root.findall("testsuite")
        self.assertEqual(suite.get("name"), "conflict-gate audit")
        cases = [
            (c.get("classname"), c.get("name"), [f.get("type") for f in c.findall("failure")])
            for c in suite.findall("testcase")
        ]
        self.assertEqual(
            cases,
            [
                ("1.0/create_copy", "close_required", []),
                ("1.0/create_copy", "existing_path", ["same_version_directives_disagree"]),
                ("2.0/create_copy", "existing_path", []),
                ("sources", "broken", ["malformed_directive"]),
                ("sources", "draft", []),
                ("sources", "guide", []),
            ],
        )
        self.assertEqual((suite.get("tests"), suite.get("failures"), suite.get("errors")), ("6", "2", "0"))
        self.assertEqual((root.get("tests"), root.get("failures")), ("6", "2"))
        conflict = suite.findall("testcase")[1].find("failure")
        assert conflict is not None and conflict.text is not None
        self.assertEqual(len(conflict.text.splitlines()), 3)
        self.assertTrue(conflict.text.startswith("error same_version_directives_disagree docs/guide.md:3: "))
        notes = suite.findall("testcase")[4].find("system-out")
        assert notes is not None and notes.text is not None
        self.assertTrue(notes.text.startswith("warning unapproved_conflict docs/draft.md:3: "))

    def test_pin_check_has_a_case_per_entry(self) -> None:
        (self.root / "docs" / "guide.md").write_bytes(b"# edited\n")
        suite = self.parse("pin", "--check", "--manifest", self.m).find("testsuite")
        assert suite is not None
        self.assertEqual(suite.get("name"), "conflict-gate pin --check")
        self.assertEqual(
            [(c.get("name"), [f.get("type") for f in c.findall("failure")]) for c in suite.findall("testcase")],
            [
                ("guide", ["hash_mismatch"]),
                ("reference", []),
                ("rival", []),
                ("broken", []),
                ("next", []),
                ("draft", []),
            ],
        )

    def test_characters_xml_cannot_hold_still_parse(self) -> None:
        """Regression guard: ElementTree writes control characters as they are, which no parser reads."""
        text = render_junit(
            report(finding(message="nul \x00 esc \x1b surrogate \udcff end \ufffe", source_id="a\x01b"))
        )
        root = ET.fromstring(text)
        failure = root.find("testsuite/testcase/failure")
        assert failure is not None
        self.assertEqual(failure.get("message"), "nul \\x00 esc \\x1b surrogate \\xff end \\ufffe")
        case = root.find("testsuite/testcase")
        assert case is not None
        self.assertEqual(case.get("name"), "a\\x01b")


class RootTest(CliCase):
    def test_the_nearest_git_folder_or_file_is_the_root(self) -> None:
        top = self.folder()
        (top / ".git").mkdir()
        inner = top / "sub" / "worktree"
        (inner / "docs").mkdir(parents=True)
        self.assertEqual(repository_root(str(inner / "docs")), str(top))
        (inner / ".git").write_text("gitdir: /elsewhere\n", encoding="utf-8")  # a worktree or a submodule
        self.assertEqual(repository_root(str(inner / "docs")), str(inner))

    def test_paths_are_relative_to_the_repository_in_every_ci_format(self) -> None:
        """The manifest in a subfolder of a Git repository: locations start at the repository root."""
        repo = self.folder()
        (repo / ".git").mkdir()
        site = repo / "site" / "docs"
        site.parent.mkdir()
        os.rename(self.root, site)
        manifest = str(site / "manifest.json")
        github = self.cli("audit", "--manifest", manifest, "--format", "github").out
        self.assertIn("::error file=site/docs/docs/broken.md,line=3,col=33,", github)
        sarif = json.loads(self.cli("audit", "--manifest", manifest, "--format", "sarif").out)
        near_miss = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "near_miss")
        self.assertEqual(
            near_miss["locations"][0]["physicalLocation"]["artifactLocation"],
            {"uri": "site/docs/docs/guide.md", "uriBaseId": "%SRCROOT%"},
        )
        self.assertEqual(sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"], repo.as_uri() + "/")
        junit = self.cli("audit", "--manifest", manifest, "--format", "junit").out
        self.assertIn("error malformed_directive site/docs/docs/broken.md:3:33: ", junit)
        by_root = self.cli("audit", "--manifest", manifest, "--format", "github", "--root", str(site.parent)).out
        self.assertIn("::error file=docs/docs/broken.md,line=3,col=33,", by_root)
        json_out = self.cli("audit", "--manifest", manifest, "--format", "json").out
        self.assertIn('"path": "docs/broken.md"', json_out)  # json keeps manifest-relative paths
        self.assertNotIn("site/", json_out)

    def test_without_git_the_manifest_folder_is_the_root(self) -> None:
        folder = self.folder()
        if repository_root(str(folder)) is not None:
            self.skipTest(f"a folder above {folder} holds .git")
        manifest = write_corpus(
            folder / "corpus",
            {
                "docs/a.md": b"@quill create_copy existing_path=overwrite\n",
                "docs/b.md": b"@quill create_copy existing_path=refuse\n",
            },
        )
        out = self.cli("audit", "--manifest", str(manifest), "--format", "github").out
        self.assertIn("::error file=docs/a.md,line=1,", out)

    def test_root_usage_errors_are_one_line(self) -> None:
        not_a_folder = self.tmp / "file.txt"
        not_a_folder.write_text("x", encoding="utf-8")
        elsewhere = self.folder()
        cases = {
            "not a folder": (
                ("audit", "--manifest", self.m, "--format", "sarif", "--root", str(not_a_folder)),
                ": not a folder",
            ),
            "missing": (
                ("pin", "--check", "--manifest", self.m, "--format", "junit", "--root", str(self.tmp / "absent")),
                ": not a folder",
            ),
            "outside": (
                ("audit", "--manifest", self.m, "--format", "github", "--root", str(elsewhere)),
                "is not inside it",
            ),
            "markdown": (("audit", "--manifest", self.m, "--root", str(self.tmp)), "--root applies to --format"),
            "text": (("pin", "--check", "--manifest", self.m, "--root", str(self.tmp)), "--root applies to --format"),
            "pin without --check": (("pin", "--manifest", self.m, "--format", "github"), "add --check"),
        }
        before = self.manifest.read_bytes()
        for name, (argv, part) in cases.items():
            with self.subTest(name):
                self.assertUserError(self.cli(*argv), "usage", part)
        self.assertEqual(self.manifest.read_bytes(), before)


#: Page text a hostile page holds to drive GitHub's runner: set an output, mask a value, stop the
#: commands, add a problem matcher, forge an annotation (issue 34 item 1).
RUNNER_COMMANDS = (
    "##[set-output name=x;]y",
    "::add-mask::secret",
    "::stop-commands::tok",
    "##[add-matcher]m.json",
    "::error file=x::forged",
)


def runner_command_lines(text: str) -> list[str]:
    """The lines of ``text`` GitHub's runner may read as a workflow command (actions/runner,
    ``ActionCommand``): ``TryParseV2`` takes a line whose start, leading white space trimmed, is ``::``;
    the legacy ``TryParse`` takes ``##[`` anywhere in a line. Lines are split as the runner reads a
    step's output: at LF, CR or CR LF."""
    return [line for line in re.split("\r\n|\r|\n", text) if line.lstrip().startswith("::") or "##[" in line]


class RunnerCommandTest(CliCase):
    """No page text becomes a workflow command in any line the tool prints (issue 34 item 1)."""

    def hostile_corpus(self) -> Path:
        folder = self.folder()
        lines = ["@quill create_copy existing_path=refuse", ""]
        for _ in range(3):  # 15 near-misses: past the notice cap, so plain lines hold page text too
            lines += [f"`@quill create_copy existing_path=overwrite {text}`\n" for text in RUNNER_COMMANDS]
        lines += ["@quill create_copy existing_path=refuse " + RUNNER_COMMANDS[0], ""]
        manifest = write_corpus(
            folder,
            {
                "docs/a.md": "\n".join(lines).encode(),
                "docs/##[add-mask]x/b.md": b"@quill create_copy existing_path=refuse ::x::\n",
                "docs/::stop-commands::tok/c.md": b"gone\n",
            },
            extra={"renderer": "github"},
        )
        (folder / "docs/::stop-commands::tok/c.md").unlink()  # stderr names the missing page's path
        return manifest

    def assertNoRunnerCommand(self, text: str, what: str) -> None:
        """No line of ``text`` is a workflow command but this tool's own annotations, whose only ``::``
        are their own two (``::SEVERITY properties::message``)."""
        for line in runner_command_lines(text):
            self.assertNotIn("##[", line, what)
            self.assertRegex(line, "^::(error|warning|notice) ", what)
            self.assertEqual(line.count("::"), 2, f"{what}: {line}")

    def test_page_text_never_becomes_a_workflow_command(self) -> None:
        """Guards against page text printed raw in CI output (an annotation's message or file, the plain
        lines past the annotation caps, stderr, the Markdown and JSON audit, SARIF, JUnit, pin --check)
        that GitHub's runner reads as set-output, add-mask, stop-commands, add-matcher or a forged
        annotation: issue 34 item 1."""
        manifest = str(self.hostile_corpus())
        summary = self.tmp / "summary.md"
        runs = {
            f"audit --format {name}": self.cli(
                "audit", "--manifest", manifest, "--format", name, environ={"GITHUB_STEP_SUMMARY": str(summary)}
            )
            for name in ("github", "sarif", "junit", "json", "markdown")
        }
        runs["pin --check --format github"] = self.cli("pin", "--manifest", manifest, "--check", "--format", "github")
        runs["pin --check"] = self.cli("pin", "--manifest", manifest, "--check")
        runs["usage error"] = self.cli("audit", "--manifest", manifest, "--format", "##[add-mask]x")
        github = runs["audit --format github"].out
        self.assertIn("conflict-gate: not annotated: notice near_miss", github)  # the plain lines are there
        self.assertIn("#\\x23[set-output name=x;]y", github)  # shown, neutralised
        self.assertIn(":\\x3aadd-mask:\\x3asecret", github)
        self.assertIn("#\\x23[add-mask]x", runs["usage error"].err)
        for what, result in runs.items():
            with self.subTest(what):
                if not what.startswith("pin"):  # the audit's missing page, the usage error: on stderr
                    self.assertTrue(result.err, what)
                self.assertNoRunnerCommand(result.out, what + ": stdout")
                self.assertNoRunnerCommand(result.err, what + ": stderr")
        # JSON, SARIF and JUnit escape losslessly: a reader of the format gets the page text back
        quotes = [m["quote"] for m in json.loads(runs["audit --format json"].out)["near_misses"]]
        self.assertEqual(sorted({q.split("overwrite ")[1].rstrip("`") for q in quotes}), sorted(RUNNER_COMMANDS))
        sarif = json.loads(runs["audit --format sarif"].out)
        self.assertIn("##[set-output name=x;]y", json.dumps(sarif, ensure_ascii=False))
        junit = ET.fromstring(runs["audit --format junit"].out)
        self.assertIn("::error file=x::forged", "".join(junit.itertext()))

    def test_json_and_xml_are_defused_losslessly(self) -> None:
        """Guards against a defused JSON or XML document that no longer parses, or parses to other text:
        strings of ':', '#', '[', backslashes, quotes and markup characters, in keys and values, come
        back exactly, and no line of the document is a workflow command (issue 34 item 1)."""
        import random

        from _conflict_gate.base.errors import defuse_commands
        from _conflict_gate.base.jsondata import render_json

        rng = random.Random(34)
        for _ in range(300):
            texts = ["".join(rng.choice(':#[]\\"<>&;\n xu0') for _ in range(rng.randrange(12))) for _ in range(4)]
            value = {texts[0]: texts[1], "list": texts[2:], "n": 1}
            text = render_json(value)
            self.assertEqual(json.loads(text), value)
            self.assertEqual(runner_command_lines(text), [])
            element = ET.Element("case", {"name": texts[0]})
            element.text = texts[1]
            xml = defuse_commands(ET.tostring(element, encoding="unicode"), "xml")
            parsed = ET.fromstring(xml)
            self.assertEqual((parsed.get("name"), parsed.text or ""), (texts[0], texts[1]))
            self.assertEqual(runner_command_lines(xml), [])

    def test_a_mark_cut_across_two_writes_is_still_defused(self) -> None:
        """Guards against a stream filter that defuses each write alone: ``#`` then ``#[x]`` written
        apart must not reach the log as ``##[x]`` (issue 34 item 1)."""
        from _conflict_gate.cli.support import DefusedLines

        target = io.StringIO()
        lines = DefusedLines(target)
        for part in ("warning: #", "#[add-mask]x\n:", ":error::y"):
            lines.write(part)
        self.assertEqual(target.getvalue(), "warning: #\\x23[add-mask]x\n")  # the last line waits for its end
        lines.close()
        self.assertEqual(target.getvalue(), "warning: #\\x23[add-mask]x\n:\\x3aerror:\\x3ay")


class LabTest(unittest.TestCase):
    def test_the_lab_in_every_ci_format(self) -> None:
        """The lab's audit gives the same findings in the three formats, at its repository-relative paths."""
        where = Locations(str(REPO), "")
        findings = Report("audit", tuple(audit_checks(audit(load_documents(FIXTURE_MANIFEST)), where))).findings
        counts = {name: sum(f.severity == name for f in findings) for name in SEVERITIES}
        report = audit(load_documents(FIXTURE_MANIFEST))
        silent = sum(len(key["silent"]) for group in report["operations"] for key in group["keys"])
        self.assertEqual(counts, {"error": 5, "warning": 1, "notice": silent + len(report["near_misses"])})
        self.assertEqual(counts["notice"], 16)
        sarif = json.loads(
            render_sarif(Report("audit", tuple(audit_checks(audit(load_documents(FIXTURE_MANIFEST)), where))), where)
        )
        self.assertEqual(len(sarif["runs"][0]["results"]), len(findings))
        self.assertTrue(all(f.path is not None and (REPO / f.path).is_file() for f in findings))


if __name__ == "__main__":
    unittest.main()
