"""LESSON.md quotes the saved result truthfully, covers what a learner needs, and its commands print what it says.

The lesson is written so that its facts are machine-checkable:

* the case table (``| `case` | `status` | `reason` | exit code |``), one heading per case
  (``### ... `case`: `status`, `reason` ``), the claim table (``| `source:line` | ... | bytes a–b |
  code points c–d | `sha256:<12 hex>` | `revision:<12 hex>` |``), the answer table and the
  verdict table are parsed and compared with ``expected-result.json`` and the registry;
* in prose, every claim reference (`` `quill-guide:37` ``, ``[source: quill-guide:37]``), file
  location (`` `docs/x.md:15:33` ``), span (``bytes 1162–1201``, ``code points 76–101``) and
  digest prefix (``sha256:…``, ``revision:…``, any run of 12+ hex digits) must be in the saved result;
* every ```` ```json ```` block is an excerpt: its keys and values must be found together in one
  object of the saved result (within the case when the block sits in a case's section);
* every ```` ```console ```` block is a transcript: its ``$`` commands are run in process, in a
  copy of the lab's files (``console`` blocks share one copy, in order, like a learner's clone;
  each ``console exercise`` block gets a fresh copy), and their output and exit codes must be what
  the block shows. A command the runner does not know fails the test rather than being skipped.

Standard library only; nothing spawns a process.
"""

from __future__ import annotations

import contextlib
import hashlib
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
from typing import Any, Iterator
from unittest import mock

import run
from _conflict_gate.cli import render_json
from _conflict_gate.registry import DECISIONS, EXIT_CODES, MAX_ANSWER_BYTES, VERDICT_PRECEDENCE, VERDICTS
from tests.support import REPO, run_cli

LESSON = REPO / "LESSON.md"
SAVED = REPO / "expected-result.json"
MANIFEST = REPO / "manifest.json"

_DASH = "[–-]"  # a span is written a–b, with an en dash (a hyphen is accepted)
_HEX_RUN = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{12,64}(?![0-9A-Za-z])")
_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")


# --------------------------------------------------------------------------
# reading the lesson


class Block:
    """A fenced block of the lesson: its info string, its lines and the headings above it."""

    def __init__(self, info: str, lines: list[str], line_no: int, headings: list[str]) -> None:
        self.info = info.strip()
        self.lines = lines
        self.line_no = line_no
        self.headings = headings

    @property
    def kind(self) -> str:
        return self.info.split()[0] if self.info else ""


def parse_lesson(text: str) -> tuple[list[str], list[Block], list[tuple[int, int, str, int]]]:
    """Split the lesson into prose lines (fenced blocks blanked), blocks and headings.

    Headings are ``(line index, level, title, end line index)``, where the end is the next
    heading of the same or a higher level.
    """
    prose: list[str] = []
    blocks: list[Block] = []
    headings: list[tuple[int, int, str]] = []
    stack: list[tuple[int, str]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(1)
            body: list[str] = []
            j = i + 1
            while j < len(lines) and not re.match(rf"^{re.escape(marker[0])}{{{len(marker)},}}\s*$", lines[j]):
                body.append(lines[j])
                j += 1
            blocks.append(Block(fence.group(2), body, i + 1, [title for _, title in stack]))
            prose.extend([""] * (j + 1 - i))
            i = j + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading.group(2)))
            headings.append((i, level, heading.group(2)))
        prose.append(line)
        i += 1
    spans = []
    for n, (index, level, title) in enumerate(headings):
        end = next((other for other, other_level, _ in headings[n + 1:] if other_level <= level), len(lines))
        spans.append((index, level, title, end))
    return prose, blocks, spans


def walk(value: Any) -> Iterator[Any]:
    """Every value inside a JSON value, itself included."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def is_excerpt_of(excerpt: dict[str, Any], scope: Any) -> bool:
    """True when one object inside ``scope`` holds every key of ``excerpt`` with an equal value."""
    return any(isinstance(obj, dict) and all(key in obj and obj[key] == value for key, value in excerpt.items())
               for obj in walk(scope))


# --------------------------------------------------------------------------
# running a transcript


class Transcript:
    """Runs the ``$`` commands of console blocks in process, in a copy of the lab's files.

    Known commands: ``python run.py ARGS [> FILE]`` (the CLI and the lab, pointed at the copy),
    ``python -c CODE``, ``python - <<'EOF'``, ``cat > FILE <<'EOF'``, ``sed -n 'Np' FILE``,
    ``sha256sum FILE``, ``grep [-n] PATTERN FILE`` and ``echo $?``.
    """

    def __init__(self, test: unittest.TestCase) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-lesson-")
        test.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        shutil.copytree(REPO / "docs", self.root / "docs")
        shutil.copy2(MANIFEST, self.root / "manifest.json")
        shutil.copy2(SAVED, self.root / "expected-result.json")
        self.status = 0

    @contextlib.contextmanager
    def inside(self) -> Iterator[None]:
        before = os.getcwd()
        os.chdir(self.root)
        try:
            yield
        finally:
            os.chdir(before)

    def run(self, command: str, heredoc: str | None) -> list[str]:
        """Run one command; return the lines it shows (stdout unless redirected, then stderr)."""
        tokens = shlex.split(command)
        target = None
        if len(tokens) >= 3 and tokens[-2] == ">":
            target, tokens = tokens[-1], tokens[:-2]
        out, err = "", ""
        if tokens[:2] == ["python", "run.py"]:
            lab = run.lab_command(self.root / "manifest.json", self.root / "expected-result.json")
            self.status, out, err = run_cli(tokens[2:], lab=lab)
        elif tokens[:2] == ["python", "-c"] and len(tokens) == 3:
            out = self._python(tokens[2])
        elif tokens == ["python", "-"] and heredoc is not None:
            out = self._python(heredoc)
        elif tokens == ["cat"] and heredoc is not None and target is not None:
            out, self.status = heredoc, 0
        elif len(tokens) == 4 and tokens[:2] == ["sed", "-n"] and re.fullmatch(r"[0-9]+p", tokens[2]):
            number = int(tokens[2][:-1])
            lines = Path(tokens[3]).read_bytes().decode("utf-8").split("\n")
            out, self.status = (lines[number - 1] + "\n" if number <= len(lines) else ""), 0
        elif len(tokens) == 2 and tokens[0] == "sha256sum":
            out = f"{hashlib.sha256(Path(tokens[1]).read_bytes()).hexdigest()}  {tokens[1]}\n"
            self.status = 0
        elif tokens[:1] == ["grep"] and len(tokens) in (3, 4) and (len(tokens) == 3 or tokens[1] == "-n"):
            pattern, path = re.compile(tokens[-2]), Path(tokens[-1])
            found = [f"{n}:{line}" if len(tokens) == 4 else line
                     for n, line in enumerate(path.read_bytes().decode("utf-8").split("\n"), 1)
                     if pattern.search(line)]
            out, self.status = "".join(line + "\n" for line in found), (0 if found else 1)
        elif tokens == ["echo", "$?"]:
            out = f"{self.status}\n"
        else:
            raise AssertionError(f"the lesson's transcripts use a command this test cannot run: {command!r}")
        if target is not None:
            Path(target).write_text(out, encoding="utf-8")
            out = ""
        return (out + err).splitlines()

    def _python(self, code: str) -> str:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            try:
                exec(compile(code, "<lesson>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the lesson's own code
                self.status = 0
            except SystemExit as stop:
                self.status = stop.code if isinstance(stop.code, int) else 1
        return buffer.getvalue()


def transcript_steps(block: Block) -> list[tuple[str, str | None, list[str]]]:
    """A console block as ``(command, heredoc or None, expected output lines)``."""
    steps: list[tuple[str, str | None, list[str]]] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            raise AssertionError(f"block at line {block.line_no}: output before any command: {line!r}")
        command, heredoc = line[2:], None
        i += 1
        if command.endswith("<<'EOF'"):
            command = command[: -len("<<'EOF'")].rstrip()
            body = []
            while i < len(lines) and lines[i] != "EOF":
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise AssertionError(f"block at line {block.line_no}: heredoc without EOF")
            heredoc = "".join(b + "\n" for b in body)
            i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        steps.append((command, heredoc, expected))
    return steps


def _trim(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


# --------------------------------------------------------------------------
# the tests


class LessonTest(unittest.TestCase):
    text: str
    saved: dict[str, Any]
    prose: list[str]
    prose_text: str
    blocks: list[Block]
    sections: list[tuple[int, int, str, int]]

    @classmethod
    def setUpClass(cls) -> None:
        cls.text = LESSON.read_text(encoding="utf-8")
        cls.saved = json.loads(SAVED.read_text(encoding="utf-8"))
        cls.prose, cls.blocks, cls.sections = parse_lesson(cls.text)
        cls.prose_text = "\n".join(cls.prose)
        saved = cls.saved
        cls.records = {case["case_id"]: case for case in saved["cases"]}
        cls.records[saved["changed_source"]["case_id"]] = saved["changed_source"]
        cls.claims: dict[tuple[str, int], dict[str, Any]] = {}
        for record in cls.records.values():
            for claim in record["result"]["claims"]:
                key = (claim["source_id"], claim["start_line"])
                if key in cls.claims:
                    assert cls.claims[key] == claim, key  # one claim, one record, wherever it is cited
                cls.claims[key] = claim
        cls.answers = {answer["path"]: answer for answer in saved["answers"]}
        cls.findings = [finding for answer in saved["answers"] for finding in answer["findings"]]
        cls.digests = {match for value in walk(saved) if isinstance(value, str)
                       for match in re.findall(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", value)}
        cls.source_ids = {d["source_id"] for d in json.loads(MANIFEST.read_text(encoding="utf-8"))["documents"]}

    def rows(self, pattern: str) -> list[re.Match[str]]:
        return [m for line in self.prose if (m := re.fullmatch(pattern, line.strip()))]

    def section_of(self, line_index: int) -> list[str]:
        """The titles of the headings whose sections hold this line."""
        return [title for start, _, title, end in self.sections if start <= line_index < end]

    # -- the cases -----------------------------------------------------------

    def test_case_table_matches_the_saved_result_and_the_gate(self) -> None:
        rows = self.rows(r"\| `([a-z0-9-]+)` \| `([a-z_]+)` \| `([a-z_]+)` \| ([0-9]+) \|")
        self.assertTrue(rows, "the lesson has no case table")
        seen = []
        for row in rows:
            case_id, status, reason, code = row.group(1), row.group(2), row.group(3), int(row.group(4))
            with self.subTest(case=case_id):
                self.assertIn(case_id, self.records, f"the lesson's case table names an unknown case {case_id!r}")
                result = self.records[case_id]["result"]
                self.assertEqual((status, reason), (result["status"], result["reason"]))
                if result.get("error") == "IngestionError":
                    expected_code = EXIT_CODES["input"][0]
                else:
                    expected_code = EXIT_CODES["ok" if status == "ready" else status][0]
                self.assertEqual(code, expected_code)
                seen.append(case_id)
        self.assertEqual(sorted(seen), sorted(self.records), "every lab case appears once in the case table")

    def test_each_case_has_a_section_with_its_status_and_reason(self) -> None:
        for case_id, record in self.records.items():
            with self.subTest(case=case_id):
                titles = [title for _, _, title, _ in self.sections if f"`{case_id}`" in title]
                self.assertEqual(len(titles), 1, f"one section for {case_id}")
                result = record["result"]
                self.assertRegex(titles[0], rf"`{re.escape(case_id)}`: `{result['status']}`, `{result['reason']}`$")

    def test_the_gate_gives_each_case_its_saved_result(self) -> None:
        """Section 5.12's claim: each case is one gate command whose stdout is the saved result."""
        for case in self.saved["cases"]:
            with self.subTest(case=case["case_id"]):
                code, out, _ = run_cli(["gate", "--manifest", str(MANIFEST), "--version",
                                        case["requested_version"], "--claim", case["claim_key"],
                                        *case["candidate_ids"]])
                self.assertEqual(out, render_json(case["result"]))
                status = case["result"]["status"]
                self.assertEqual(code, EXIT_CODES["ok" if status == "ready" else status][0])

    # -- claims, spans, digests ---------------------------------------------------

    def test_claim_table_matches_the_saved_claims(self) -> None:
        rows = self.rows(rf"\| `([a-z0-9./-]+):([0-9]+)` \| `(\w+)` \| `([^`]+)` \| ([0-9]+){_DASH}([0-9]+) "
                         rf"\| bytes ([0-9]+){_DASH}([0-9]+) \| code points ([0-9]+){_DASH}([0-9]+) "
                         rf"\| `sha256:([0-9a-f]+)` \| `revision:([0-9a-f]+)` \|")
        self.assertTrue(rows, "the lesson has no claim table")
        seen = set()
        for row in rows:
            key = (row.group(1), int(row.group(2)))
            with self.subTest(claim=key):
                self.assertIn(key, self.claims)
                claim = self.claims[key]
                numbers = [int(row.group(n)) for n in range(5, 11)]
                self.assertEqual(row.group(3), claim["value"])
                self.assertEqual(row.group(4), claim["path"])
                self.assertEqual(numbers, [claim["start_line"], claim["end_line"], claim["byte_start"],
                                           claim["byte_end"], claim["start"], claim["end"]])
                self.assertEqual(row.group(11), claim["source_sha256"][:12])
                self.assertEqual(row.group(12), claim["document_revision"][:12])
                seen.add(key)
        self.assertEqual(seen, set(self.claims), "the claim table lists every claim of the saved result")

    def test_claim_references_in_prose_are_claims_or_reported_citations(self) -> None:
        refs = [(m.group(1), int(m.group(2)))
                for m in re.finditer(r"`([A-Za-z0-9][A-Za-z0-9._/-]*):([0-9]+)`", self.prose_text)
                if not m.group(1).endswith(".md")]
        refs += [(m.group(1), int(m.group(2)))
                 for m in re.finditer(r"\[source: ([^\]:\s]+):([0-9]+)\]", self.prose_text)]
        self.assertTrue(refs)
        unknown = {(f["source_id"], f["line"]) for f in self.findings if f["kind"] == "unknown_citation"}
        for ref in refs:
            with self.subTest(ref=ref):
                if ref[0] in self.source_ids:
                    self.assertIn(ref, self.claims, "a source:line the lesson cites is a claim of the saved result")
                else:
                    self.assertIn(ref, unknown, "a non-source citation is the saved unknown_citation finding")

    def test_file_locations_in_prose(self) -> None:
        located = {(r["path"], r["line"], r["column"]) for r in walk(self.saved)
                   if isinstance(r, dict) and r.get("path") and r.get("line") and r.get("column")}
        claimed = {(c["path"], c["start_line"]) for c in self.claims.values()}
        found = list(re.finditer(r"`(docs/[a-z0-9./-]+\.md):([0-9]+)(?::([0-9]+))?`", self.prose_text))
        self.assertTrue(found)
        for m in found:
            path, line = m.group(1), int(m.group(2))
            with self.subTest(location=m.group(0)):
                text_line = (REPO / path).read_bytes().decode("utf-8").split("\n")[line - 1]
                if m.group(3):
                    self.assertIn((path, line, int(m.group(3))), located, "a line:column is a saved refusal")
                elif (path, line) not in claimed:
                    self.assertIn("@quill ", text_line, "a location that is no saved claim shows directive text")
                says = re.match(r" the page says `([^`]+)`", self.prose_text[m.end():])
                if says:
                    self.assertEqual(text_line, says.group(1))

    def test_spans_in_prose(self) -> None:
        byte_spans = {(c["byte_start"], c["byte_end"]) for c in self.claims.values()}
        point_spans = ({(c["start"], c["end"]) for c in self.claims.values()}
                       | {(f["start"], f["end"]) for f in self.findings})
        byte_refs = re.findall(rf"bytes ([0-9]+){_DASH}([0-9]+)", self.prose_text)
        point_refs = re.findall(rf"code points ([0-9]+){_DASH}([0-9]+)", self.prose_text)
        self.assertTrue(byte_refs)
        self.assertTrue(point_refs)
        for ref in byte_refs:
            self.assertIn((int(ref[0]), int(ref[1])), byte_spans)
        for ref in point_refs:
            self.assertIn((int(ref[0]), int(ref[1])), point_spans)

    def test_digest_prefixes_in_prose(self) -> None:
        pins = re.findall(r"sha256:([0-9a-f]+)", self.prose_text)
        revisions = re.findall(r"revision:([0-9a-f]+)", self.prose_text)
        self.assertTrue(pins)
        self.assertTrue(revisions)
        saved_pins = {c["source_sha256"] for c in self.claims.values()} | self.digests
        saved_revisions = {c["document_revision"] for c in self.claims.values()}
        for prefix in pins:
            self.assertEqual(len(prefix), 12, f"sha256:{prefix} is the first 12 hex digits")
            self.assertTrue(any(d.startswith(prefix) for d in saved_pins), prefix)
        for prefix in revisions:
            self.assertEqual(len(prefix), 12, f"revision:{prefix} is the first 12 hex digits")
            self.assertTrue(any(d.startswith(prefix) for d in saved_revisions), prefix)
        for run_ in _HEX_RUN.findall(self.prose_text):
            self.assertTrue(any(d.startswith(run_) for d in self.digests), f"hex {run_} is in the saved result")

    def test_json_excerpts_are_in_the_saved_result(self) -> None:
        excerpts = [b for b in self.blocks if b.kind == "json"]
        self.assertTrue(excerpts)
        for block in excerpts:
            with self.subTest(line=block.line_no):
                body = "\n".join(block.lines).strip()
                excerpt = json.loads(body if body.startswith("{") else "{" + body + "}")
                self.assertIsInstance(excerpt, dict)
                cases = [case_id for case_id in self.records
                         if any(f"`{case_id}`" in title for title in block.headings)]
                scope = self.records[cases[-1]] if cases else self.saved
                self.assertTrue(is_excerpt_of(excerpt, scope),
                                f"the excerpt at line {block.line_no} is not in the saved result"
                                + (f" of {cases[-1]}" if cases else ""))

    # -- answers and verdicts -----------------------------------------------------

    def test_answer_table_matches_the_saved_verdicts(self) -> None:
        rows = self.rows(r"\| `(docs/answers/[a-z0-9-]+\.txt)` \| `([a-z0-9-]+)` \| `(\w+)` \| `(\w+)` \| (.*) \|")
        self.assertTrue(rows, "the lesson has no answer table")
        seen = []
        for row in rows:
            path = row.group(1)
            with self.subTest(answer=path):
                self.assertIn(path, self.answers)
                answer = self.answers[path]
                self.assertEqual((row.group(2), row.group(3), row.group(4)),
                                 (answer["case_id"], answer["verdict"], answer["verdict_class"]))
                cell = row.group(5).strip()
                quoted = [(kind, int(a) if a else None, int(b) if b else None) for kind, a, b
                          in re.findall(rf"`(\w+)` (?:([0-9]+){_DASH}([0-9]+)|\(no span\))", cell)]
                self.assertEqual(quoted, [(f["kind"], f["start"], f["end"]) for f in answer["findings"]])
                if not quoted:
                    self.assertEqual(cell, "none")
                text = (REPO / path).read_bytes().decode("utf-8")
                for finding in answer["findings"]:
                    if "quote" in finding:  # the lesson says: the span holds the quote in its backticks
                        self.assertEqual(text[finding["start"]:finding["end"]], f"`{finding['quote']}`")
                seen.append(path)
        self.assertEqual(sorted(seen), sorted(self.answers), "every canned answer appears once")

    def test_verdict_table_is_the_registry_in_precedence_order(self) -> None:
        rows = [m for m in self.rows(r"\| `(\w+)` \| `(\w+)` \| ([0-9]+) \| (.*) \|") if m.group(1) in VERDICTS]
        self.assertEqual([m.group(1) for m in rows], list(VERDICT_PRECEDENCE),
                         "the verdict table lists every verdict, in precedence order")
        saved_verdicts = {answer["verdict"] for answer in self.answers.values()}
        for row in rows:
            verdict, klass = row.group(1), row.group(2)
            with self.subTest(verdict=verdict):
                self.assertEqual(klass, VERDICTS[verdict][0])
                self.assertEqual(int(row.group(3)), EXIT_CODES["ok" if klass == "supported" else klass][0])
                named = re.findall(r"`(docs/answers/[a-z0-9-]+\.txt)`", row.group(4))
                if named:
                    for path in named:
                        self.assertEqual(self.answers[path]["verdict"], verdict)
                else:
                    self.assertNotIn(verdict, saved_verdicts, "'none' only for a verdict no canned answer gets")
                self.assertRegex(self.prose_text, rf"(?m)^- `{verdict}`: ", "each verdict is explained")
        sizes = re.findall(r"larger than ([0-9]+) bytes", self.prose_text)
        self.assertTrue(sizes)
        for size in sizes:
            self.assertEqual(int(size), MAX_ANSWER_BYTES)

    # -- what the lesson must cover ---------------------------------------------------

    def test_required_items(self) -> None:
        for term in ("source", "manifest", "pin", "digest", "directive", "claim", "span", "quote",
                     "eligible", "withheld", "verdict"):
            self.assertRegex(self.prose_text, rf"(?m)^\| \*\*{term}\*\*", f"the glossary defines {term}")
        for field in ("document_revision", "end_line", "start_line", "byte_start", "byte_end", "start", "end",
                      "source_sha256", "path", "parsed_source_ids", "refused_sources", "excluded_wrong_version_ids",
                      "excluded_unapproved_ids", "candidate_versions", "missing_claim_source_ids", "answer_request",
                      "findings", "verdict_class"):
            self.assertTrue(f"`{field}`" in self.prose_text, f"the lesson explains `{field}`")
        for phrase in ("`model_called: false` means", "relative to the folder that holds the manifest",
                       "**The BOM.**", "**By line.**", "**By byte offset.**", "**By code point.**",
                       "**By digest.**", "**`document_revision`**"):
            self.assertTrue(phrase in self.prose_text, f"the lesson has {phrase!r}")
        self.assertTrue("$ python run.py --output result.json" in self.text, "the lesson runs the lab")
        for status in DECISIONS:
            self.assertTrue(f"`{status}`" in self.prose_text, f"the lesson names the status {status}")
        for verdict in VERDICTS:
            self.assertTrue(f"`{verdict}`" in self.prose_text, f"the lesson names the verdict {verdict}")

    def test_exercises_have_verified_answers(self) -> None:
        exercises = [(start, title, end) for start, _, title, end in self.sections if title.startswith("Exercise")]
        titles = " / ".join(title for _, title, _ in exercises)
        self.assertRegex(titles, r"Exercise 1: edit a source without re-pinning")
        self.assertRegex(titles, r"Exercise 2: approve the draft")
        lines = self.text.split("\n")
        for start, title, end in exercises:
            with self.subTest(exercise=title):
                body = "\n".join(lines[start:end])
                self.assertIn("Predict", body)
                self.assertIn("<summary>Answer</summary>", body)
                answers = [b for b in self.blocks if b.info == "console exercise" and start < b.line_no <= end]
                self.assertEqual(len(answers), 1, "each exercise has one transcript as its answer")
                answer_lines = [line[2:] if line.startswith("$ ") else line for line in answers[0].lines]
                for block in self.blocks:
                    if block.kind == "sh" and start < block.line_no <= end:
                        joined = "\n".join(block.lines)
                        self.assertIn(joined, "\n".join(answer_lines), "the answer runs the edit the exercise asks for")
                self.assertRegex(body, r"\bexits?(?: code)? [0-9]+", "the answer states the exit code")

    def test_exercise_answers_quote_the_transcripts(self) -> None:
        """Exercise prose restates what its transcript shows (the transcripts are run below)."""
        lines = self.text.split("\n")
        changed = self.saved["changed_source"]["result"]
        expectations = {
            "Exercise 1": [f"reason `{changed['reason']}`", f"`{changed['error']}`",
                           f"exit code {EXIT_CODES['input'][0]}", f"exit code {EXIT_CODES['conflict'][0]}",
                           "`same_version_directives_disagree`"],
            "Exercise 2": ["`unapproved_conflicts` went from 1 to\n  0", f"exit {EXIT_CODES['conflict'][0]}",
                           "`agreed_value` `overwrite`"],
        }
        for start, _, title, end in self.sections:
            for name, phrases in expectations.items():
                if title.startswith(name):
                    body = "\n".join(lines[start:end])
                    for phrase in phrases:
                        self.assertIn(phrase, body)

    # -- the transcripts -----------------------------------------------------------

    def test_console_transcripts(self) -> None:
        consoles = [b for b in self.blocks if b.kind == "console"]
        self.assertGreaterEqual(len(consoles), 8)
        shared = Transcript(self)
        commands = 0
        for block in consoles:
            shell = Transcript(self) if block.info == "console exercise" else shared
            with self.subTest(block=block.line_no), shell.inside():
                for command, heredoc, expected in transcript_steps(block):
                    shown = shell.run(command, heredoc)
                    commands += 1
                    self.assertEqual(_trim(shown), _trim(expected), f"block at line {block.line_no}: $ {command}")
        self.assertGreater(commands, 50)

    def test_the_lab_still_writes_the_saved_result(self) -> None:
        """The lesson reads expected-result.json as what `python run.py --output result.json` writes."""
        self.assertEqual(render_json(run.run_lab()).encode("utf-8"), SAVED.read_bytes())


if __name__ == "__main__":
    unittest.main()
