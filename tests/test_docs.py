"""The README and the reference pages against the code they describe (standard library only, fast).

* every generated region equals what :mod:`reference._tools` renders from the data, and the
  ``--check``/``--write`` commands find and repair drift;
* the README is a front page: at most 12,000 bytes, the two commands first, then "Use it on your own
  docs", and its Python example runs and prints what the README says it prints, writing nothing;
* the README's "Use it on your own docs" command lines run, in a temporary folder, with exit 0; its
  GitHub Actions steps and pre-commit configuration run as written (each hook's command in process):
  they pass, fail on a changed page and pass again after ``pin``;
* every relative link and ``#anchor`` in the README, LESSON.md, ``reference/*.md``, ``reference/dev/*.md`` and
  ``bench/README.md`` leads somewhere;
* every test named in the bad-input table (reference/dev/bad-input.md) exists, and every error reason has a row;
* every reason, status, verdict, finding and exit code of the registry appears in the reference pages;
* hand-written tables and examples (the README's status table, the lab's saved result, the opt-in
  environment variables, the differential test's pinned packages, the manifest example) match the code.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any, ClassVar

from _conflict_gate.base.registry import (
    AUDIT_STATUSES,
    COMMAND_EXIT_CODES,
    DECISION_FILE_REASONS,
    DECISIONS,
    DIRECTIVE_REASONS,
    EXIT_CODES,
    FINDINGS,
    GATE_REASONS,
    GRAMMAR_REASONS,
    INGESTION_REASONS,
    NEAR_MISS_PLACES,
    PAGE_STATUSES,
    RENDERERS,
    REPORT_REASONS,
    SEVERITIES,
    TREE_FINDINGS,
    VERDICTS,
)
from _conflict_gate.manifest.read import VERSION_SCHEMES
from _conflict_gate.results.shapes import (
    CLAIM_FIELDS,
    REASON_FIELDS,
    REFUSED_FIELDS,
    RESULT_FIELDS,
    SET_ASIDE_FIELDS,
    TAIL_FIELDS,
)
from reference import _tools as reference
from reference._tools import tables as reference_tables
from tests.support import REPO, run_cli, simple_yaml

README = REPO / "README.md"
REFERENCE = REPO / "reference"
README_LIMIT = 12_000
TWO_COMMANDS = ("python run.py --output result.json", "python -m unittest discover")

_FENCE = re.compile(r"^(`{3,}|~{3,})([^\n]*)\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(([^()\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def pages() -> list[Path]:
    """The pages whose links are checked: both tiers (the README, the lesson, ``reference/*.md``; the
    developer pages ``reference/dev/*.md`` and ``bench/README.md``)."""
    return [
        README,
        REPO / "LESSON.md",
        *sorted(REFERENCE.glob("*.md")),
        *sorted(REFERENCE.glob("dev/*.md")),
        REPO / "bench" / "README.md",
    ]


def fences(text: str) -> list[tuple[str, str]]:
    """``(info string, content)`` of every fenced code block, in order."""
    return [(m.group(2).strip(), m.group(3)) for m in _FENCE.finditer(text)]


def prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans (what may hold links)."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def section(text: str, title: str) -> str:
    """The body of the ``## title`` section, up to the next heading of level 2."""
    match = re.search(rf"^## {re.escape(title)}[ \t]*$", text, re.MULTILINE)
    if match is None:
        raise AssertionError(f"no '## {title}' section")
    end = re.compile(r"^## ", re.MULTILINE).search(text, match.end())
    return text[match.end() : end.start() if end else len(text)]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first GFM table in ``text``, as cells (``\\|`` kept escaped)."""
    rows = []
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break  # the first table ended
    for line in lines[2:]:
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rows.append([cell.strip() for cell in cells])
    return rows


def github_slugs(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page (duplicates get ``-1``, ``-2``...)."""
    slugs: set[str] = set()
    seen: dict[str, int] = {}
    for match in _HEADING.finditer(_FENCE.sub("", text)):
        title = _CODE_SPAN.sub(lambda m: m.group(2).strip(), match.group(2))
        title = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", title)
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f"{slug}-{count}")
    return slugs


def backticked(text: str) -> set[str]:
    return {m.group(2).strip() for m in _CODE_SPAN.finditer(text)}


class GeneratedRegionTest(unittest.TestCase):
    """The tables between the markers are the data's own."""

    def test_every_region_is_in_sync_and_every_table_is_shown(self) -> None:
        found = [region.name for page in reference.pages(REPO) for region in reference.regions(read(page))]
        self.assertGreaterEqual(len(found), len(reference.TABLES), "the pages hold too few regions")
        self.assertEqual(reference.check(REPO), [], "run 'python -m reference._tools --write' after changing the data")

    def test_check_and_write_find_and_repair_drift(self) -> None:
        """Guards against a checker that passes on edited tables or a writer that damages the text."""
        with tempfile.TemporaryDirectory(prefix="conflict-gate-docs-") as tmp:
            root = Path(tmp)
            for name in ("README.md", "manifest.json", "expected-result.json"):
                shutil.copy2(REPO / name, root / name)
            shutil.copytree(REFERENCE, root / "reference")
            page = root / "reference" / "errors.md"
            original = read(page)
            edited = original.replace("| 6 | `input` |", "| 6 | `inputs` |", 1)
            self.assertNotEqual(edited, original)
            page.write_text(edited, encoding="utf-8")
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                self.assertEqual(reference.main(["--check", "--root", tmp]), EXIT_CODES["findings"][0])
                self.assertIn("reference/errors.md", err.getvalue())
                self.assertIn("'exit-codes' differs from the data", err.getvalue())
                self.assertEqual(reference.main(["--write", "--root", tmp]), EXIT_CODES["ok"][0])
                self.assertEqual(reference.main(["--check", "--root", tmp]), EXIT_CODES["ok"][0])
            self.assertEqual(read(page), original)

    def test_malformed_markers_are_reported(self) -> None:
        good = "<!-- generated: exit-codes -->\n\nx\n\n<!-- end generated -->\n"
        self.assertEqual([r.name for r in reference.regions(good)], ["exit-codes"])
        for name, text in {
            "unclosed": "<!-- generated: exit-codes -->\n| a |\n",
            "unknown": "<!-- generated: no-such-table -->\n<!-- end generated -->\n",
            "nested": "<!-- generated: exit-codes -->\n<!-- generated: verdicts -->\n<!-- end generated -->\n",
        }.items():
            with self.subTest(name), self.assertRaises(ValueError):
                reference.regions(text)

    def test_words_must_cover_the_data(self) -> None:
        """Guards against a new result field or limit going undocumented: rendering fails instead."""
        with self.assertRaises(reference.DriftError):
            reference_tables._same_keys("fields", {"a": "described"}, ["a", "b"])
        reference_tables._same_keys("fields", {"a": "described"}, ["a"])

    def test_result_fields_follow_the_decision_contract(self) -> None:
        rows = table_rows("\n".join(reference_tables.result_fields()))
        fields = [row[0].strip("`") for row in rows]
        reason_fields = list(dict.fromkeys(f for names in REASON_FIELDS.values() for f in names))
        self.assertEqual(fields, [*RESULT_FIELDS, *reason_fields, *REFUSED_FIELDS, *TAIL_FIELDS, *SET_ASIDE_FIELDS])
        claim_rows = table_rows("\n".join(reference_tables.claim_fields()))
        self.assertEqual([row[0].strip("`") for row in claim_rows], list(CLAIM_FIELDS))


class ReadmeTest(unittest.TestCase):
    """The README is a front page whose commands and example work."""

    text: ClassVar[str]

    @classmethod
    def setUpClass(cls) -> None:
        cls.text = read(README)

    def test_size_and_the_two_commands_first(self) -> None:
        self.assertLessEqual(len(README.read_bytes()), README_LIMIT)
        first_heading = self.text.find("\n## ")
        first_fence = _FENCE.search(self.text)
        assert first_fence is not None
        self.assertLess(first_fence.start(), first_heading, "the two commands come before any section")
        commands = [line.split("#")[0].strip() for line in first_fence.group(3).splitlines() if line.strip()]
        self.assertEqual(tuple(commands), TWO_COMMANDS)

    def test_using_it_on_your_own_docs_comes_first(self) -> None:
        """After the two commands, the first section is how to use the tool; the lesson is linked there."""
        titles = re.findall(r"^## (.+)$", self.text, re.MULTILINE)
        self.assertEqual(titles[0], "Use it on your own docs")
        self.assertIn("](LESSON.md)", self.text[: self.text.find("\n## ")], "the guided tour is named up front")

    def test_python_example_runs_and_prints_what_the_readme_shows(self) -> None:
        """Exec'd in process from the repository root; it must print the shown output and write nothing."""
        blocks = fences(section(self.text, "From Python"))
        code = [content for info, content in blocks if info == "python"]
        shown = [content for info, content in blocks if info == "text"]
        self.assertEqual((len(code), len(shown)), (1, 1), "one python block and the text block it prints")
        before = self._tree()
        out = io.StringIO()
        cwd = os.getcwd()
        added = str(REPO) not in sys.path
        if added:
            sys.path.insert(0, str(REPO))
        try:
            os.chdir(REPO)
            with contextlib.redirect_stdout(out):
                exec(compile(code[0], "README.md (From Python)", "exec"), {"__name__": "__readme__"})  # noqa: S102 - the README's own code
        finally:
            os.chdir(cwd)
            if added:
                sys.path.remove(str(REPO))
        self.assertEqual(out.getvalue(), shown[0])
        self.assertEqual(self._tree(), before, "the README example wrote into the checkout")

    @staticmethod
    def _tree() -> dict[str, tuple[int, int]]:
        """Size and mtime of every file at the root and in docs/ (where the example could write)."""
        files = [*REPO.iterdir(), *(REPO / "docs").rglob("*")]
        return {p.relative_to(REPO).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in files if p.is_file()}

    def test_status_table_matches_the_exit_codes(self) -> None:
        rows = table_rows(section(self.text, "What to do with each status"))
        table = {row[0].strip("`"): int(row[1]) for row in rows}
        self.assertEqual(set(table), set(DECISIONS))
        for status, exit_code in table.items():
            self.assertEqual(exit_code, EXIT_CODES["ok" if status == "ready" else status][0], status)

    def test_use_it_on_your_own_docs_runs(self) -> None:
        """Every ``conflict-gate`` command line of the section, in order, in a temporary folder: exit 0."""
        part = section(self.text, "Use it on your own docs")
        commands = []
        for match in re.finditer(r"^```sh\n(.*?)^```|`(conflict-gate [^`]+)`", part, re.MULTILINE | re.DOTALL):
            lines = match.group(1).replace("\\\n", " ").splitlines() if match.group(1) else [match.group(2)]
            commands += [line for line in lines if line.startswith("conflict-gate ")]
        self.assertGreaterEqual(len(commands), 7, commands)
        page = next(content for info, content in fences(part) if info == "markdown")
        with tempfile.TemporaryDirectory(prefix="conflict-gate-readme-") as tmp:
            docs = Path(tmp, "docs")
            for path, text in {
                "1.0.0/connect.md": page,
                "1.0.0/reference.md": "# Reference\n\n@acme-widgets client.connect max-retries=3\n",
                "2.0.0/connect.md": "# Connecting\n\n@acme-widgets client.connect max-retries=5\n",
            }.items():
                (docs / path).parent.mkdir(parents=True, exist_ok=True)
                (docs / path).write_text(text, encoding="utf-8")
            Path(tmp, "answer.txt").write_text(
                "A 1.0.0 client retries: `max-retries=3` (`version=1.0.0`).\n"
                "`@acme-widgets client.connect max-retries=3` [source: 1.0.0/connect:5]\n"
                "`@acme-widgets client.connect max-retries=3` [source: 1.0.0/reference:3]\n",
                encoding="utf-8",
            )
            cwd = os.getcwd()
            try:
                os.chdir(tmp)
                for command in commands:
                    words = shlex.split(command, comments=True)[1:]
                    target = None
                    if ">" in words:
                        words, target = words[: words.index(">")], words[words.index(">") + 1]
                    with self.subTest(command=command):
                        code, out, err = run_cli(words)
                        self.assertEqual(code, 0, err)
                        if target is not None:
                            Path(target).write_text(out, encoding="utf-8")
                        if words[0] == "check-answer":
                            self.assertEqual(json.loads(out)["verdict"], "supported")
            finally:
                os.chdir(cwd)


class ReadmeCiTest(unittest.TestCase):
    """The README's GitHub Actions steps and pre-commit configuration, run as written (in process) on a
    docs tree in a Git repository: they pass, fail on a changed page, and pass again after ``pin``."""

    steps: ClassVar[list[Any]]
    config: ClassVar[dict[str, Any]]
    hooks: ClassVar[dict[str, Any]]

    @classmethod
    def setUpClass(cls) -> None:
        part = section(read(README), "Use it on your own docs")
        blocks = [simple_yaml(content) for info, content in fences(part) if info == "yaml"]
        cls.steps = next(block for block in blocks if isinstance(block, list))
        cls.config = next(block for block in blocks if isinstance(block, dict) and "repos" in block)
        cls.hooks = {hook["id"]: hook for hook in simple_yaml(read(REPO / ".pre-commit-hooks.yaml"))}

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-readme-ci-")
        self.addCleanup(tmp.cleanup)
        self.tree = Path(os.path.realpath(tmp.name))
        (self.tree / ".git").mkdir()  # a repository: paths are relative to this folder
        docs = self.tree / "docs"
        for path, value in {"1.0.0/connect.md": 3, "2.0.0/connect.md": 5}.items():
            (docs / path).parent.mkdir(parents=True)
            (docs / path).write_text(
                f"# Connecting\n\n@acme-widgets client.connect max-retries={value}\n", encoding="utf-8"
            )
        cwd = os.getcwd()
        os.chdir(self.tree)
        self.addCleanup(os.chdir, cwd)
        for argv in (["init", "docs", "--version-from", "{version}/**"], ["pin", "--manifest", "docs/manifest.json"]):
            code, _, err = run_cli(argv)
            self.assertEqual(code, 0, err)

    def run_line(self, command: str, summary: Path | None = None) -> tuple[int, str, str]:
        words = shlex.split(command)
        self.assertEqual(words[0], "conflict-gate", command)
        return run_cli(words[1:], environ={"GITHUB_STEP_SUMMARY": str(summary)} if summary else {})

    def change_a_page(self) -> None:
        with open(self.tree / "docs" / "1.0.0" / "connect.md", "a", encoding="utf-8") as page:
            page.write("An edit nobody reviewed.\n")

    def test_the_github_actions_steps_run_as_written(self) -> None:
        commands = [step["run"] for step in self.steps]
        self.assertEqual(len(commands), 2, self.steps)
        self.assertEqual(self.steps[1].get("if"), "${{ !cancelled() }}", "the audit runs after a failed pin step")
        summary = self.tree / "summary.md"
        for command in commands:
            with self.subTest(command=command):
                self.assertEqual(self.run_line(command, summary)[0], 0)
        self.assertIn("### conflict-gate pin --check: 0 errors, 0 warnings, 0 notices", read(summary))
        self.assertIn("### conflict-gate audit: 0 errors, 0 warnings, 0 notices", read(summary))
        self.change_a_page()
        code, out, _ = self.run_line(commands[0], summary)
        self.assertEqual(code, EXIT_CODES["findings"][0])
        self.assertTrue(out.startswith("::error file=docs/1.0.0/connect.md,title=stale pin%3A 1.0.0/connect::"), out)
        self.assertIn("| error | hash_mismatch | `docs/1.0.0/connect.md` |", read(summary))
        self.assertEqual(self.run_line(commands[1])[0], EXIT_CODES["input"][0])
        self.assertEqual(run_cli(["pin", "--manifest", "docs/manifest.json"])[0], 0)
        for command in commands:
            self.assertEqual(self.run_line(command)[0], 0, command)

    def test_the_pre_commit_configuration_runs_as_written(self) -> None:
        (repo,) = self.config["repos"]
        self.assertEqual((repo["repo"], repo["rev"]), ("/path/to/conflict-gate", "main"))
        listed = repo["hooks"]
        self.assertEqual([hook["id"] for hook in listed], list(self.hooks))
        commands = []
        for hook in listed:
            shipped = self.hooks[hook["id"]]
            self.assertEqual((shipped["language"], shipped["pass_filenames"]), ("python", False))
            self.assertEqual(set(shipped["types_or"]), {"markdown", "json"})
            self.assertEqual(hook["args"], shipped["args"], "the README shows the default args")
            commands.append(shlex.join([*shlex.split(shipped["entry"]), *hook["args"]]))
        for command in commands:
            self.assertEqual(self.run_line(command)[0], 0, command)
        self.change_a_page()
        self.assertEqual(
            [self.run_line(command)[0] for command in commands], [EXIT_CODES["findings"][0], EXIT_CODES["input"][0]]
        )
        self.assertEqual(run_cli(["pin", "--manifest", "docs/manifest.json"])[0], 0)
        for command in commands:
            self.assertEqual(self.run_line(command)[0], 0, command)


class LinkTest(unittest.TestCase):
    def test_relative_links_and_anchors_resolve(self) -> None:
        checked = 0
        for page in pages():
            for match in _LINK.finditer(prose(read(page))):
                target = match.group(1)
                if re.match(r"[a-z][a-z0-9+.\-]*:", target):
                    continue  # https:, mailto:
                path, _, anchor = target.partition("#")
                resolved = (page.parent / path).resolve() if path else page
                with self.subTest(page=page.name, link=target):
                    self.assertTrue(resolved.exists(), f"{target} leads nowhere")
                    if anchor:
                        self.assertEqual(resolved.suffix, ".md")
                        self.assertIn(anchor, github_slugs(read(resolved)))
                checked += 1
        self.assertGreater(checked, 30, "the link scan found too few links")

    def test_slugs_follow_github(self) -> None:
        text = "# A `code` title\n## The lab's canned answers\n## Limits\n## Limits\n```\n# not a heading\n```\n"
        self.assertEqual(github_slugs(text), {"a-code-title", "the-labs-canned-answers", "limits", "limits-1"})


class BadInputTableTest(unittest.TestCase):
    rows: ClassVar[list[list[str]]]

    @classmethod
    def setUpClass(cls) -> None:
        cls.rows = table_rows(section(read(REFERENCE / "dev" / "bad-input.md"), "Bad input"))

    def test_every_named_test_exists(self) -> None:
        self.assertGreater(len(self.rows), 40)
        for row in self.rows:
            names = re.findall(r"`(tests\.[\w.]+)`", row[2])
            with self.subTest(row=row[0]):
                self.assertTrue(names, "a row without a test")
                for name in names:
                    module_name, class_name, method = name.rsplit(".", 2)
                    case = getattr(importlib.import_module(module_name), class_name, None)
                    self.assertTrue(isinstance(case, type) and issubclass(case, unittest.TestCase), name)
                    self.assertTrue(callable(getattr(case, method, None)), name)

    def test_every_error_reason_has_a_row(self) -> None:
        outcomes = set().union(*(backticked(row[1]) for row in self.rows))
        for registry in (
            INGESTION_REASONS,
            GRAMMAR_REASONS,
            GATE_REASONS,
            DIRECTIVE_REASONS,
            DECISION_FILE_REASONS,
            REPORT_REASONS,
            TREE_FINDINGS,
        ):
            for reason in registry:
                self.assertIn(reason, outcomes)


class VocabularyTest(unittest.TestCase):
    """Every name of the registry appears in the reference pages."""

    def test_every_name_of_the_registry_is_documented(self) -> None:
        names = backticked("\n".join(read(page) for page in sorted(REFERENCE.glob("*.md"))))
        vocabularies: dict[str, Any] = {
            "ingestion reasons": INGESTION_REASONS,
            "grammar reasons": GRAMMAR_REASONS,
            "gate reasons": GATE_REASONS,
            "directive reasons": DIRECTIVE_REASONS,
            "decision-file reasons": DECISION_FILE_REASONS,
            "statuses": DECISIONS,
            "decision reasons": {r for reasons in DECISIONS.values() for r in reasons},
            "page statuses": PAGE_STATUSES,
            "audit statuses": AUDIT_STATUSES,
            "verdicts": VERDICTS,
            "verdict classes": {verdict_class for verdict_class, _ in VERDICTS.values()},
            "findings": FINDINGS,
            "exit codes": EXIT_CODES,
            "version schemes": VERSION_SCHEMES,
            "report reasons": REPORT_REASONS,
            "severities": SEVERITIES,
            "tree findings": TREE_FINDINGS,
            "renderers": RENDERERS,
            "near-miss places": NEAR_MISS_PLACES,
        }
        for vocabulary, values in vocabularies.items():
            for name in values:
                with self.subTest(vocabulary=vocabulary):
                    self.assertIn(name, names)
        exit_rows = table_rows(section(read(REFERENCE / "errors.md"), "Exit codes"))
        self.assertEqual(
            {(int(row[0]), row[1].strip("`")) for row in exit_rows},
            {(number, name) for name, (number, _) in EXIT_CODES.items()},
        )
        per_command = section(read(REFERENCE / "lookup.md"), "Exit codes per command")
        for command in COMMAND_EXIT_CODES:
            self.assertIn(command.partition(" (")[0], per_command)

    def test_the_lab_result_table_names_every_saved_field(self) -> None:
        documented = backticked(section(read(REFERENCE / "lab.md"), "The lab's saved result"))
        saved = json.loads(read(REPO / "expected-result.json"))
        keys = set(saved) | set(saved["cases"][0]) | set(saved["changed_source"]) | set(saved["answers"][0])
        self.assertEqual(sorted(keys - documented), [])

    def test_saved_results_have_the_documented_fields_in_order(self) -> None:
        documented = [
            row[0].strip("`")
            for row in table_rows(section(read(REFERENCE / "lookup.md"), "A decision's fields").split("### Claims")[0])
        ]
        saved = json.loads(read(REPO / "expected-result.json"))
        for case in saved["cases"]:
            with self.subTest(case=case["case_id"]):
                keys = list(case["result"])
                self.assertEqual(keys, [field for field in documented if field in keys])


class ExampleTest(unittest.TestCase):
    def test_the_manifest_example_is_a_valid_manifest(self) -> None:
        """The JSON on manifest.md, with its placeholder pins left empty, is what ``pin`` accepts."""
        from _conflict_gate.manifest.read import read_manifest

        blocks = [content for info, content in fences(read(REFERENCE / "manifest.md")) if info == "json"]
        self.assertEqual(len(blocks), 1)
        with tempfile.TemporaryDirectory(prefix="conflict-gate-docs-") as tmp:
            path = Path(tmp, "manifest.json")
            path.write_text(re.sub(r"<64 lowercase hex digits>", "", blocks[0]), encoding="utf-8")
            manifest = read_manifest(path, require_pins=False)
        self.assertEqual([entry.status for entry in manifest.entries], ["approved", "draft"])
        self.assertEqual(manifest.version_scheme.name, "semver")

    def test_the_canned_answers_table_lists_every_answer(self) -> None:
        """Every file in docs/answers/ has a row with its case, verdict, class, findings and what it shows."""
        rows = table_rows(section(read(REFERENCE / "lab.md"), "The lab's canned answers"))
        saved = json.loads(read(REPO / "expected-result.json"))["answers"]
        files = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs" / "answers").glob("*.txt"))
        self.assertEqual(sorted(answer["path"] for answer in saved), files, "every canned answer file is checked")
        self.assertEqual(len(rows), len(saved))
        for row, answer in zip(rows, saved):
            with self.subTest(answer=answer["answer_id"]):
                self.assertEqual(row[0], f"[`{answer['answer_id']}`](../{answer['path']})")
                self.assertEqual(
                    [cell.strip("`") for cell in row[1:4]],
                    [answer["case_id"], answer["verdict"], answer["verdict_class"]],
                )
                kinds = re.findall(r"`(\w+)` (?:([0-9]+)–([0-9]+)|\(no span\))", row[4])
                self.assertEqual(
                    [(k, int(a) if a else None, int(b) if b else None) for k, a, b in kinds],
                    [(f["kind"], f["start"], f["end"]) for f in answer["findings"]],
                )
                self.assertEqual(row[5], answer["shows"])

    def test_the_supported_answer_shown_is_the_lab_answer(self) -> None:
        shown = [content for info, content in fences(read(REFERENCE / "answer-check.md")) if info == "text"]
        self.assertIn(read(REPO / "docs" / "answers" / "supported.txt"), shown)


class TestingPageTest(unittest.TestCase):
    def test_environment_variables_and_their_defaults(self) -> None:
        """Every ``CONFLICT_GATE_*`` variable a test module reads has a row, with that module's default."""
        rows = {
            (row[0].strip("`"), row[1].strip("`"), row[2])
            for row in table_rows(section(read(REFERENCE / "dev" / "testing.md"), "Opt-in long runs"))
        }
        read_here = re.compile(r"os\.environ\.get\(\"(CONFLICT_GATE_\w+)\"(?:, *([^)]+))?\)")
        found = set()
        for path in sorted((REPO / "tests").glob("*.py")):
            for name, default in read_here.findall(read(path)):
                if default and not default.startswith('"') and not default.isdigit():  # a module constant
                    default = str(getattr(importlib.import_module(f"tests.{path.stem}"), default))
                found.add((name, f"tests/{path.name}", default.strip('"') or "unset"))
        self.assertGreaterEqual(len(found), 5)
        self.assertEqual(rows, found)

    def test_differential_packages_match_ci(self) -> None:
        ci = read(REPO / ".ci" / "run")
        pins = set(re.findall(r'"([a-z\-]+==[0-9.]+)"', ci))
        # markdown-it-py, mdit-py-plugins, linkify-it-py; cmarkgfm, justhtml; mkdocs, markdown, pymdown-extensions;
        # myst-parser, docutils; mkdocs-material, sphinx (the --site steps, with the MkDocs and MyST pins)
        self.assertEqual(len(pins), 12)
        sdk = re.findall(r"^MCP_VERSION=([0-9.]+)$", ci, re.MULTILINE)
        self.assertEqual(len(sdk), 1)  # the MCP step's pin, as testing.md shows it
        site_lines = re.findall(r"^SITE_[A-Z]+_PINS=.*$", ci, re.MULTILINE)
        self.assertEqual(len(site_lines), 2)
        site = set(re.findall(r'"([a-z\-]+==[0-9.]+)"', "\n".join(site_lines)))
        rest = ci
        for line in site_lines:
            rest = rest.replace(line, "")
        differential = pins - (site - set(re.findall(r'"([a-z\-]+==[0-9.]+)"', rest)))
        self.assertLessEqual(site, set(re.findall(r'"([a-z\-]+==[0-9.]+)"', read(REFERENCE / "dev" / "site.md"))))
        for page, shown in (
            (REFERENCE / "dev" / "differential.md", differential),
            (REFERENCE / "dev" / "testing.md", {*pins, f"mcp=={sdk[0]}"}),
        ):
            with self.subTest(page=page.name):
                self.assertEqual(set(re.findall(r'"([a-z\-]+==[0-9.]+)"', read(page))), shown)


if __name__ == "__main__":
    unittest.main()
