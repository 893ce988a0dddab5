"""LESSON.md: every figure it quotes is the saved result's or a fresh run's, and its commands print what it shows.

The checks assert outcomes, not wording. Each reads the lesson's figures where they stand and returns
the problems it finds against ``expected-result.json``, the registry, the fixture files or a run of
the code:

* the case table (``| `case` | `status` | `reason` | exit | eligible | set aside |``) and each case
  section (a heading ending `` `case`: `status`, `reason` ``): statuses, reasons, exit codes,
  eligible and set-aside ids with their versions. In a case section, or a paragraph that names one
  case, every status, reason, page and exit code named must be that case's;
* the span table (``| `field`, `field` | unit a–b | unit | origin | ... |``): its figures are one
  saved claim's, and slicing that claim's file in the stated unit from the stated origin gives the quote;
* the verdict section (a heading ending `` `docs/answers/x.txt`, `verdict` ``): its findings table
  (kind, span, the verdict each calls for) against the saved findings and the answer check's own rule,
  the verdict being the first of those in precedence order, and the class and exit code it names;
* in prose: claim references (`` `quill-guide:37` ``, ``[source: ...]``), file locations
  (`` `docs/x.md:15:33` ``), spans (``bytes a–b``, ``code points a–b``, ``lines a–b``), ``line N``,
  ``column N``, ``N extra bytes``, digest prefixes and long hex runs are the saved result's; every
  snake_case name in backticks is a name of the registry, the grammar or the saved result;
* every ```` ```json ```` block is an excerpt of the saved result (of its case or answer, in a section
  about one);
* every ```` ```console ```` block is run in a copy of the lab's files: the sections before the
  exercises share one copy, in order, like a learner's clone, and each exercise gets a fresh one.
  Output and exit codes must be what the block shows; a command the runner does not know is a
  failure. An exercise's prose may state only statuses, reasons, citations, numbers and exit codes
  that its own transcript shows, and the last exercise gates a two-page tree of the learner's own;
* every file or folder the commands write at the root of a clone is in ``.gitignore``, so a learner's
  ``git status`` stays clean.

:meth:`LessonTest.test_a_wrong_explanation_fails` proves the checks can fail: it edits a figure or an
explanation of the real lesson and expects a problem. ``CONFLICT_GATE_LESSON_SHELL=1`` also runs every
transcript through a real ``sh``, which shows that the in-process runner reads commands as a shell does.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import run
from _conflict_gate.answer.check import verdict_of
from _conflict_gate.base.registry import (
    DECISION_FILE_REASONS,
    DECISIONS,
    DIRECTIVE_REASONS,
    EXIT_CODES,
    FINDINGS,
    GATE_REASONS,
    GRAMMAR_REASONS,
    INGESTION_REASONS,
    PAGE_STATUSES,
    VERDICT_PRECEDENCE,
    VERDICTS,
)
from _conflict_gate.cli.main import render_json
from _conflict_gate.results.shapes import CLAIM_FIELDS, REASON_FIELDS, REFUSED_FIELDS, RESULT_FIELDS
from tests.support import REPO, run_cli

LESSON = REPO / "LESSON.md"
SAVED = REPO / "expected-result.json"
MANIFEST = REPO / "manifest.json"
LESSON_LIMIT = 16_000  # bytes
#: What a fresh clone holds for the lab: each transcript runs in a copy of these.
LAB_FILES = (
    "docs",
    "_conflict_gate",
    "manifest.json",
    "expected-result.json",
    "run.py",
    "conflict_gate.py",
    "load_documents.py",
)

_DASH = "[–-]"  # a span is written a–b, with an en dash (a hyphen is accepted)
_HEX_RUN = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{12,64}(?![0-9A-Za-z])")
_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
_CASE_HEADING = re.compile(r"`([a-z0-9-]+)`: `(\w+)`, `(\w+)`$")
_ANSWER_HEADING = re.compile(r"`(docs/answers/[a-z0-9-]+\.txt)`, `(\w+)`$")
_EXIT = re.compile(r"\bexit(?:s| code)?(?: with)? ([0-9]+)\b")
_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_STATUSES = frozenset(DECISIONS)
_REASONS = frozenset({r for reasons in DECISIONS.values() for r in reasons} | set(INGESTION_REASONS))
_CLASSES = frozenset(klass for klass, _ in VERDICTS.values())
_UNITS = ("lines", "bytes", "code points")


# --------------------------------------------------------------------------
# reading the lesson and the saved result


class Block:
    """A fenced block: its info string, its lines and the 0-based index of its opening fence."""

    def __init__(self, info: str, lines: list[str], index: int) -> None:
        self.info, self.lines, self.index = info.strip(), lines, index

    @property
    def kind(self) -> str:
        return self.info.split()[0] if self.info else ""


class Section:
    """A heading and the lines up to the next heading of the same or a higher level."""

    def __init__(self, start: int, level: int, title: str, end: int) -> None:
        self.start, self.level, self.title, self.end = start, level, title, end

    def holds(self, index: int) -> bool:
        return self.start <= index < self.end


class Lesson:
    """The lesson's text split into prose lines (fenced blocks blanked, so indexes stay), blocks and sections."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.prose: list[str] = []
        self.blocks: list[Block] = []
        headings: list[tuple[int, int, str]] = []
        lines = text.split("\n")
        i = 0
        while i < len(lines):
            fence = _FENCE.match(lines[i])
            if fence:
                marker = fence.group(1)
                j = i + 1
                while j < len(lines) and not re.match(rf"^{re.escape(marker[0])}{{{len(marker)},}}\s*$", lines[j]):
                    j += 1
                self.blocks.append(Block(fence.group(2), lines[i + 1 : j], i))
                self.prose.extend([""] * (j + 1 - i))
                i = j + 1
                continue
            heading = _HEADING.match(lines[i])
            if heading:
                headings.append((i, len(heading.group(1)), heading.group(2)))
            self.prose.append(lines[i])
            i += 1
        self.sections = [
            Section(index, level, title, next((o for o, other, _ in headings[n + 1 :] if other <= level), len(lines)))
            for n, (index, level, title) in enumerate(headings)
        ]
        self.prose_text = "\n".join(self.prose)
        self.exercises = [s for s in self.sections if s.title.startswith("Exercise")]
        self.case_sections = [(s, m.groups()) for s in self.sections if (m := _CASE_HEADING.search(s.title))]
        self.answer_sections = [(s, m.groups()) for s in self.sections if (m := _ANSWER_HEADING.search(s.title))]
        self.consoles = [b for b in self.blocks if b.kind == "console"]

    def rows(self, pattern: str, section: Section | None = None) -> list[re.Match[str]]:
        """Prose lines (of ``section``) that match ``pattern`` whole, stripped."""
        return [
            m
            for index, line in enumerate(self.prose)
            if (section is None or section.holds(index)) and (m := re.fullmatch(pattern, line.strip()))
        ]

    def paragraphs(self) -> list[tuple[int, str]]:
        """``(first line index, text)`` of every prose paragraph (a heading or a table is one too)."""
        found: list[tuple[int, str]] = []
        current: list[str] = []
        start = 0
        for index, line in enumerate([*self.prose, ""]):
            if line.strip():
                start = index if not current else start
                current.append(line)
            elif current:
                found.append((start, "\n".join(current)))
                current = []
        return found

    def section_text(self, section: Section) -> str:
        return "\n".join(self.prose[section.start : section.end])

    def exercise_of(self, index: int) -> Section | None:
        return next((s for s in self.exercises if s.holds(index)), None)

    def case_of(self, index: int) -> str | None:
        return next((case_id for s, (case_id, _, _) in self.case_sections if s.holds(index)), None)

    def consoles_in(self, section: Section) -> list[Block]:
        return [b for b in self.consoles if section.holds(b.index)]

    def shown(self, section: Section) -> tuple[str, set[int]]:
        """The output a section's transcripts show (checked by running them) and the exit codes they echo."""
        output, codes = [], set()
        for block in self.consoles_in(section):
            for command, _, expected in transcript_steps(block):
                output += expected
                if command == "echo $?" and expected:
                    codes.add(int(expected[0]))
        return "\n".join(output), codes


class Saved:
    """The saved result, indexed the ways the lesson quotes it."""

    def __init__(self, saved: dict[str, Any]) -> None:
        self.data = saved
        self.records = {case["case_id"]: case for case in saved["cases"]}
        self.records[saved["changed_source"]["case_id"]] = saved["changed_source"]
        self.claims: dict[tuple[str, int], dict[str, Any]] = {}
        for record in self.records.values():
            for claim in record["result"]["claims"]:
                key = (claim["source_id"], claim["start_line"])
                assert self.claims.get(key, claim) == claim, key  # one claim, one record, wherever it is cited
                self.claims[key] = claim
        self.answers = {answer["path"]: answer for answer in saved["answers"]}
        self.findings = [finding for answer in saved["answers"] for finding in answer["findings"]]
        self.refusals = [r for r in walk(saved) if isinstance(r, dict) and r.get("line") and r.get("column")]
        self.digests = {
            match
            for value in walk(saved)
            if isinstance(value, str)
            for match in re.findall(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", value)
        }
        self.source_ids = {d["source_id"] for d in json.loads(MANIFEST.read_text(encoding="utf-8"))["documents"]}


def code_spans(text: str) -> list[str]:
    return [m.group(2).strip() for m in _CODE.finditer(text)]


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
    return any(
        isinstance(obj, dict) and all(key in obj and obj[key] == value for key, value in excerpt.items())
        for obj in walk(scope)
    )


def gate_exit_code(result: dict[str, Any]) -> int:
    """What ``gate`` exits with for this saved result (a load failure is an input error, not a decision)."""
    if result.get("error") == "IngestionError":
        return EXIT_CODES["input"][0]
    return EXIT_CODES["ok" if result["status"] == "ready" else result["status"]][0]


def class_exit_code(verdict_class: str) -> int:
    return EXIT_CODES["ok" if verdict_class == "supported" else verdict_class][0]


# --------------------------------------------------------------------------
# running a transcript


def transcript_steps(block: Block) -> list[tuple[str, str | None, list[str]]]:
    """A console block as ``(command, heredoc or None, expected output lines)``."""
    steps: list[tuple[str, str | None, list[str]]] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            raise AssertionError(f"block at line {block.index + 1}: output before any command: {line!r}")
        command, heredoc = line[2:], None
        i += 1
        if command.endswith("<<'EOF'"):
            command = command[: -len("<<'EOF'")].rstrip()
            body = []
            while i < len(lines) and lines[i] != "EOF":
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise AssertionError(f"block at line {block.index + 1}: heredoc without EOF")
            heredoc = "".join(b + "\n" for b in body)
            i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        steps.append((command, heredoc, expected))
    return steps


class Transcript:
    """Runs the ``$`` commands of console blocks in process, in a copy of the lab's files.

    Known commands: ``python run.py ARGS [> FILE]`` (the CLI and the lab, pointed at the copy),
    ``python -c CODE``, ``python - <<'EOF'``, ``cat > FILE <<'EOF'``, ``mkdir -p DIR``,
    ``sed -n 'Np' FILE`` and ``echo $?``.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.status = 0
        for name in LAB_FILES:
            if (REPO / name).is_dir():
                shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(REPO / name, root / name)

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
        elif tokens[:2] == ["mkdir", "-p"] and len(tokens) == 3:
            Path(tokens[2]).mkdir(parents=True, exist_ok=True)
            self.status = 0
        elif len(tokens) == 4 and tokens[:2] == ["sed", "-n"] and re.fullmatch(r"[0-9]+p", tokens[2]):
            number = int(tokens[2][:-1])
            lines = Path(tokens[3]).read_bytes().decode("utf-8").split("\n")
            out, self.status = (lines[number - 1] + "\n" if number <= len(lines) else ""), 0
        elif tokens == ["echo", "$?"]:
            out = f"{self.status}\n"
        else:
            raise AssertionError(f"the lesson's transcripts use a command this test cannot run: {command!r}")
        if target is not None:
            Path(target).write_bytes(out.encode("utf-8"))
            out = ""
        return (out + err).splitlines()

    def _python(self, code: str) -> str:
        buffer = io.StringIO()
        # A one-liner's json.load(open(...)) leaves closing the file to the interpreter's exit.
        with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                exec(compile(code, "<lesson>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the lesson's own code
                self.status = 0
            except SystemExit as stop:
                self.status = stop.code if isinstance(stop.code, int) else 1
        return buffer.getvalue()


class ShellTranscript(Transcript):
    """Runs each command through a real ``sh`` in the copy, ``python`` being this interpreter."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        bin_dir = root / ".bin"
        bin_dir.mkdir()
        (bin_dir / "python").symlink_to(sys.executable)
        self.env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONDONTWRITEBYTECODE": "1",
        }

    def run(self, command: str, heredoc: str | None) -> list[str]:
        if command == "echo $?":  # each command is its own sh, so the last status is kept here
            return [str(self.status)]
        script = command if heredoc is None else f"{command} <<'EOF'\n{heredoc}EOF\n"
        done = subprocess.run(
            ["sh", "-c", script],
            cwd=self.root,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        self.status = done.returncode
        return done.stdout.decode("utf-8").splitlines()


def _trim(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


# --------------------------------------------------------------------------
# the checks: each returns the problems it finds (empty: the lesson is right)


def check_size(lesson: Lesson, saved: Saved) -> list[str]:
    size = len(lesson.text.encode("utf-8"))
    return [f"LESSON.md is {size} bytes, over {LESSON_LIMIT}"] if size > LESSON_LIMIT else []


def check_promises(lesson: Lesson, saved: Saved) -> list[str]:
    """Runs the lab first; finds a claim by line, byte and code point; checks an answer; answers exercises."""
    problems = []
    steps = [step for block in lesson.consoles for step in transcript_steps(block)]
    if not steps or steps[0][0] != "python run.py --output result.json":
        problems.append("the first command is not the lab: python run.py --output result.json")
    commands = [(command, "\n".join(expected)) for command, _, expected in steps]
    located = []
    for claim in saved.claims.values():
        path, quote = claim["path"], claim["quote"]
        ways = [
            any(c == f"sed -n '{claim['start_line']}p' {path}" and quote in out for c, out in commands),
            any(
                path in c
                and "read_bytes()" in c
                and f"[{claim['byte_start']}:{claim['byte_end']}]" in c
                and quote in out
                for c, out in commands
            ),
            any(path in c and f"[{claim['start']}:{claim['end']}]" in c and quote in out for c, out in commands),
        ]
        if all(ways):
            located.append(claim["source_id"])
    if not located:
        problems.append("no claim is found by line (sed), by byte and by code point (a python slice)")
    if not lesson.answer_sections:
        problems.append("no section reads a verdict")
    for _, (path, _) in lesson.answer_sections:
        if not any(c.startswith("python run.py check-answer") and f"--answer {path}" in c for c, _ in commands):
            problems.append(f"the verdict section does not run check-answer on {path}")
    if f"`{saved.data['changed_source']['case_id']}`" not in lesson.prose_text:
        problems.append("the changed-source case is not mentioned")
    if len(lesson.exercises) < 2:
        problems.append("fewer than two exercises")
    lines = lesson.text.split("\n")
    for exercise in lesson.exercises:
        opened = [i for i in range(exercise.start, exercise.end) if lines[i].strip() == "<details>"]
        if len(opened) != 1 or not [b for b in lesson.consoles_in(exercise) if b.index > opened[0]]:
            problems.append(f"{exercise.title}: its answer is not one <details> holding a transcript")
    return problems


def check_own_tree(lesson: Lesson, saved: Saved) -> list[str]:
    """The lesson ends by writing two pages of the learner's own and gating them: init, pin, gate, ready."""
    if not lesson.exercises:
        return ["no exercises"]
    last = lesson.exercises[-1]
    if not lesson.consoles_in(last) or lesson.consoles[-1].index != lesson.consoles_in(last)[-1].index:
        return ["the last transcript is not in the last exercise"]
    steps = [step for block in lesson.consoles_in(last) for step in transcript_steps(block)]
    words = [shlex.split(command) for command, _, _ in steps]
    init = next((i for i, w in enumerate(words) if w[:3] == ["python", "run.py", "init"]), None)
    if init is None:
        return [f"{last.title}: no python run.py init"]
    folder = words[init][3]
    problems = []
    pages = [
        w[2] for w in words[:init] if w[:2] == ["cat", ">"] and w[2].startswith(folder + "/") and w[2].endswith(".md")
    ]
    if len(pages) != 2:
        problems.append(f"{last.title}: {len(pages)} pages written into {folder}/ before init, not 2")
    if Path(folder).parts[0] in LAB_FILES:
        problems.append(f"{folder} is in the lab's files, not the learner's own")
    manifest = f"{folder}/manifest.json"
    pin = next((i for i, w in enumerate(words) if w[2:5] == ["pin", "--manifest", manifest]), None)
    gate = next((i for i, w in enumerate(words) if w[2:5] == ["gate", "--manifest", manifest]), None)
    if pin is None or gate is None or not init < pin < gate:
        return [*problems, f"{last.title}: not init, then pin --manifest {manifest}, then gate on it"]
    status = next((expected for command, _, expected in steps[gate + 1 :] if command == "echo $?"), None)
    if status != [str(EXIT_CODES["ok"][0])]:
        problems.append(f"{last.title}: the first gate of the learner's pages does not exit 0 (ready)")
    return problems


def check_outputs_are_ignored(lesson: Lesson, saved: Saved) -> list[str]:
    """Every file or folder the lesson's commands write at the root of a clone is in .gitignore."""
    ignored = set((REPO / ".gitignore").read_text(encoding="utf-8").splitlines())
    written = set()
    for block in lesson.consoles:
        for command, _, _ in transcript_steps(block):
            words = shlex.split(command)
            for flag in (">", "--output", "-p"):
                if flag in words[:-1]:
                    written.add(Path(words[words.index(flag) + 1]).parts[0])
    missing = [name for name in sorted(written) if f"/{name}" not in ignored and f"/{name}/" not in ignored]
    return (
        [f"{name}, written by the lesson, is not in .gitignore" for name in missing]
        if written
        else ["the lesson writes nothing"]
    )


def check_case_table(lesson: Lesson, saved: Saved) -> list[str]:
    rows = lesson.rows(r"\| `([a-z0-9-]+)` \| `(\w+)` \| `(\w+)` \| ([0-9]+) \| (.*) \| (.*) \|")
    if not rows:
        return ["no case table"]
    problems = []
    for row in rows:
        case_id, status, reason, code, eligible, aside = row.groups()
        if case_id not in saved.records:
            problems.append(f"case table: unknown case {case_id}")
            continue
        result = saved.records[case_id]["result"]
        shown = {
            "status and reason": ((status, reason), (result["status"], result["reason"])),
            "exit code": (int(code), gate_exit_code(result)),
            "eligible": (sorted(re.findall(r"`([^`]+)`", eligible)), result["eligible_source_ids"]),
        }
        set_aside = dict(re.findall(r"`([^`]+)` \(([^)]+)\)", aside))
        versions = {c["source_id"]: c["version"] for c in result["candidates"]}
        shown["set aside"] = (
            sorted(set_aside.items()),
            sorted((i, versions[i]) for i in result["excluded_wrong_version_ids"] + result["excluded_unapproved_ids"]),
        )
        for what, (said, truth) in shown.items():
            if said != truth:
                problems.append(f"case table, {case_id}: {what} {said!r}, saved {truth!r}")
        for cell, found in (
            (eligible, re.sub(r"`[^`]+`|, ", "", eligible)),
            (aside, re.sub(r"`[^`]+` \([^)]+\)|, ", "", aside)),
        ):
            if found.strip() and cell.strip() != "none":
                problems.append(f"case table, {case_id}: a cell holds more than ids: {cell!r}")
    in_sections = sorted(case_id for _, (case_id, _, _) in lesson.case_sections)
    if sorted(row.group(1) for row in rows) != in_sections:
        problems.append(f"the case table and the case sections differ: {in_sections}")
    return problems


def check_case_sections(lesson: Lesson, saved: Saved) -> list[str]:
    problems = []
    if {status for _, (_, status, _) in lesson.case_sections} != _STATUSES:
        problems.append("the cases read do not show every status")
    for _, (case_id, status, reason) in lesson.case_sections:
        result = saved.records.get(case_id, {}).get("result", {})
        if (status, reason) != (result.get("status"), result.get("reason")):
            problems.append(
                f"section {case_id}: {status}, {reason}; saved {result.get('status')}, {result.get('reason')}"
            )
    return problems


def check_what_is_said_of_a_case(lesson: Lesson, saved: Saved) -> list[str]:
    """In a case's section, or a paragraph naming one case: its own status, reason, pages and exit code."""
    problems, checked = [], 0
    for index, text in lesson.paragraphs():
        if lesson.exercise_of(index) is not None or text.startswith(("|", "#")):
            continue  # exercises change the question (their transcripts are their reference); tables, headings
        named = [c for c in dict.fromkeys(code_spans(text)) if c in saved.records]
        case_id = lesson.case_of(index) or (named[0] if len(named) == 1 else None)
        if case_id is None:
            continue
        checked += 1
        record = saved.records[case_id]
        result = record["result"]
        for name in code_spans(text):
            if (name in _STATUSES and name != result["status"]) or (name in _REASONS and name != result["reason"]):
                problems.append(
                    f"line {index + 1}: `{name}` is said of {case_id}, which is {result['status']}, {result['reason']}"
                )
            elif name in saved.source_ids and name not in record["candidate_ids"]:
                problems.append(f"line {index + 1}: `{name}` is not a candidate of {case_id}")
        for code in _EXIT.findall(text):
            if int(code) != gate_exit_code(result):
                problems.append(
                    f"line {index + 1}: exit {code} is said of {case_id}, which exits {gate_exit_code(result)}"
                )
        places = [result, *(result.get("refused_sources") or [])]
        lines = {c["start_line"] for c in result["claims"]} | {p["line"] for p in places if p.get("line")}
        columns = {p["column"] for p in places if p.get("column")}
        for what, known in (("line", lines), ("column", columns)):
            for number in re.findall(rf"\b{what} ([0-9]+)\b", text):
                if int(number) not in known:
                    problems.append(f"line {index + 1}: {what} {number} is said of {case_id}, whose are {known}")
    if checked < len(lesson.case_sections):
        problems.append("a case section has no paragraph")
    return problems


def check_span_table(lesson: Lesson, saved: Saved) -> list[str]:
    """A row that names the wrong unit or origin for its fields fails: the quote is sliced as the row says."""
    units = "|".join(_UNITS)
    rows = lesson.rows(
        rf"\| `(\w+)`, `(\w+)` \| ({units}) ([0-9]+){_DASH}([0-9]+) \| ({units}) \| "
        rf"([01])(, end exclusive)? \| .* \|"
    )
    if sorted(row.group(6) for row in rows) != sorted(_UNITS):
        return [f"the span table has no row for each of {', '.join(_UNITS)}"]
    matching = set(saved.claims)
    for row in rows:
        first, second, a, b = row.group(1), row.group(2), int(row.group(4)), int(row.group(5))
        matching &= {key for key, c in saved.claims.items() if (c.get(first), c.get(second)) == (a, b)}
    if len(matching) != 1:
        return ["the span table's figures are not one saved claim's"]
    claim = saved.claims[matching.pop()]
    raw = (REPO / claim["path"]).read_bytes()
    text = raw.decode("utf-8-sig")
    problems = []
    for row in rows:
        shown_unit, unit, origin, exclusive = row.group(3), row.group(6), int(row.group(7)), bool(row.group(8))
        a, b = int(row.group(4)) - origin, int(row.group(5)) - origin
        if unit == "lines":
            got = b"\n".join(raw.split(b"\n")[a : b + 1]).rstrip(b"\r").decode("utf-8")
        else:
            data: Any = raw if unit == "bytes" else text
            got = data[a : b if exclusive else b + 1]
            got = got.decode("utf-8", "replace") if isinstance(got, bytes) else got
        if shown_unit != unit or got != claim["quote"]:
            problems.append(
                f"span table, `{row.group(1)}`: counting {unit} from {origin} "
                f"({'end exclusive' if exclusive else 'end inclusive'}) gives {got!r}, not the quote"
            )
    return problems


def check_claim_references(lesson: Lesson, saved: Saved) -> list[str]:
    unknown = {(f["source_id"], f["line"]) for f in saved.findings if f["kind"] == "unknown_citation"}
    problems, found = [], 0
    for index, line in enumerate(lesson.prose):
        refs = [
            m.group(1, 2)
            for m in re.finditer(r"`([A-Za-z0-9][A-Za-z0-9._/-]*):([0-9]+)`", line)
            if not m.group(1).endswith(".md")
        ]
        refs += [m.group(1, 2) for m in re.finditer(r"\[source: ([^\]:\s]+):([0-9]+)\]", line)]
        exercise = lesson.exercise_of(index)
        for source_id, number in refs:
            found += 1
            key = (source_id, int(number))
            if exercise is not None:
                ok = f"{source_id}:{number}" in lesson.shown(exercise)[0]
            else:
                ok = key in saved.claims if source_id in saved.source_ids else key in unknown
            if not ok:
                problems.append(
                    f"line {index + 1}: {source_id}:{number} is no claim "
                    + ("its exercise shows" if exercise else "of the saved result")
                )
    return problems if found else ["no claim references"]


def check_file_locations(lesson: Lesson, saved: Saved) -> list[str]:
    located = {
        (r["path"], r["line"], r["column"])
        for r in walk(saved.data)
        if isinstance(r, dict) and r.get("path") and r.get("line") and r.get("column")
    }
    claimed = {(c["path"], c["start_line"]) for c in saved.claims.values()}
    found = list(re.finditer(r"`(docs/[a-z0-9./-]+\.md):([0-9]+)(?::([0-9]+))?`", lesson.prose_text))
    problems = []
    for m in found:
        path, line = m.group(1), int(m.group(2))
        text_line = (REPO / path).read_bytes().decode("utf-8").split("\n")[line - 1]
        if m.group(3) and (path, line, int(m.group(3))) not in located:
            problems.append(f"{m.group(0)} is no saved refusal's line:column")
        elif not m.group(3) and (path, line) not in claimed and "@quill " not in text_line:
            problems.append(f"{m.group(0)} is no saved claim and shows no directive text")
        says = re.match(r" the page says `([^`]+)`", lesson.prose_text[m.end() :])
        if says and says.group(1) != text_line:
            problems.append(f"{m.group(0)} does not say {says.group(1)!r}")
    return problems if found else ["no file locations"]


def check_numbers(lesson: Lesson, saved: Saved) -> list[str]:
    """Spans, lines, columns and byte differences stated in prose are the saved result's (or the exercise's)."""
    spans = {
        "bytes": {(c["byte_start"], c["byte_end"]) for c in saved.claims.values()},
        "code points": {(c["start"], c["end"]) for c in saved.claims.values()}
        | {(f["start"], f["end"]) for f in saved.findings},
        "lines": {(c["start_line"], c["end_line"]) for c in saved.claims.values()},
    }
    singles = (
        (r"\bline ([0-9]+)\b", {c["start_line"] for c in saved.claims.values()} | {r["line"] for r in saved.refusals}),
        (r"\bcolumn ([0-9]+)\b", {r["column"] for r in saved.refusals}),
        (r"\b([0-9]+) extra bytes\b", {c["byte_start"] - c["start"] for c in saved.claims.values()} - {0}),
    )
    problems, counted = [], 0
    for index, line in enumerate(lesson.prose):
        exercise = lesson.exercise_of(index)
        for unit, known in spans.items():
            for a, b in re.findall(rf"\b{unit} ([0-9]+){_DASH}([0-9]+)", line):
                counted += 1
                if (int(a), int(b)) not in known:
                    problems.append(f"line {index + 1}: {unit} {a}–{b} is no saved span")
        for pattern, numbers in singles:
            for number in re.findall(pattern, line):
                counted += 1
                if exercise is not None:
                    ok = re.search(rf"\b{number}\b", lesson.shown(exercise)[0]) is not None
                else:
                    ok = int(number) in numbers
                if not ok:
                    problems.append(f"line {index + 1}: {pattern} {number} is not the saved result's")
    return problems if counted else ["no numbers in prose"]


def check_digests(lesson: Lesson, saved: Saved) -> list[str]:
    pins = re.findall(r"sha256:([0-9a-f]+)", lesson.prose_text)
    revisions = re.findall(r"revision:([0-9a-f]+)", lesson.prose_text)
    problems = [] if pins else ["no digest prefix"]
    known = {
        "sha256": {c["source_sha256"] for c in saved.claims.values()} | saved.digests,
        "revision": {c["document_revision"] for c in saved.claims.values()},
    }
    for kind, prefixes in (("sha256", pins), ("revision", revisions)):
        for prefix in prefixes:
            if len(prefix) != 12 or not any(d.startswith(prefix) for d in known[kind]):
                problems.append(f"{kind}:{prefix} is not the first 12 hex digits of a saved digest")
    for hex_run in _HEX_RUN.findall(lesson.prose_text):
        if not any(d.startswith(hex_run) for d in saved.digests):
            problems.append(f"hex {hex_run} is in no saved digest")
    return problems


def check_names(lesson: Lesson, saved: Saved) -> list[str]:
    """A misspelt reason, status, verdict, finding or field fails (snake_case names in backticks)."""
    known = (
        _STATUSES
        | _REASONS
        | _CLASSES
        | set(VERDICTS)
        | set(FINDINGS)
        | set(GATE_REASONS)
        | set(GRAMMAR_REASONS)
        | set(DIRECTIVE_REASONS)
        | set(DECISION_FILE_REASONS)
        | set(PAGE_STATUSES)
        | set(CLAIM_FIELDS)
        | set(RESULT_FIELDS)
        | set(REFUSED_FIELDS)
        | {f for fields in REASON_FIELDS.values() for f in fields}
        | {key for obj in walk(saved.data) if isinstance(obj, dict) for key in obj}
        | {key for rules in saved.data["grammar"]["operations"].values() for key in rules}
        | set(saved.data["grammar"]["operations"])
    )
    names = [n for n in code_spans(lesson.prose_text) if re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+)+", n)]
    return (
        [f"`{name}` is no name of the registry or the saved result" for name in names if name not in known]
        if names
        else ["no names"]
    )


def check_json_excerpts(lesson: Lesson, saved: Saved) -> list[str]:
    problems = []
    excerpts = [b for b in lesson.blocks if b.kind == "json"]
    for block in excerpts:
        body = "\n".join(block.lines).strip()
        excerpt = json.loads(body if body.startswith("{") else "{" + body + "}")
        scope: Any = saved.data
        for section, (case_id, _, _) in lesson.case_sections:
            if section.holds(block.index):
                scope = saved.records[case_id]
        for section, (path, _) in lesson.answer_sections:
            if section.holds(block.index):
                scope = saved.answers[path]
        if not is_excerpt_of(excerpt, scope):
            problems.append(f"the JSON at line {block.index + 1} is not in the saved result (where it stands)")
    return problems if excerpts else ["no JSON excerpts"]


def check_verdict_sections(lesson: Lesson, saved: Saved) -> list[str]:
    """Findings, the verdict each calls for, and the precedence that picks one, against the code."""
    problems = []
    for section, (path, verdict) in lesson.answer_sections:
        answer = saved.answers[path]
        if verdict != answer["verdict"]:
            problems.append(f"{path}: verdict {verdict}, saved {answer['verdict']}")
        rows = lesson.rows(rf"\| `(\w+)` \| (?:code points ([0-9]+){_DASH}([0-9]+)|\(no span\)) \| `(\w+)` \|", section)
        table = [
            (r.group(1), int(r.group(2)) if r.group(2) else None, int(r.group(3)) if r.group(3) else None) for r in rows
        ]
        if table != [(f["kind"], f["start"], f["end"]) for f in answer["findings"]]:
            problems.append(f"{path}: the findings table is not the saved findings, in order, with their spans")
        called = [r.group(4) for r in rows]
        for row in rows:
            if row.group(4) != verdict_of([{"kind": row.group(1)}], True):
                problems.append(
                    f"{path}: `{row.group(1)}` calls for "
                    f"{verdict_of([{'kind': row.group(1)}], True)}, not {row.group(4)}"
                )
        if called and verdict != min(called, key=VERDICT_PRECEDENCE.index):
            problems.append(f"{path}: {verdict} is not the first in precedence of {called}")
        text = lesson.section_text(section)
        for name in code_spans(text):
            if (name in VERDICTS and name not in called) or (name in _CLASSES and name != answer["verdict_class"]):
                problems.append(f"{path}: `{name}` is neither a verdict its findings call for nor its class")
        for code in _EXIT.findall(text):
            if int(code) != class_exit_code(answer["verdict_class"]):
                problems.append(
                    f"{path}: exit {code}, but {answer['verdict_class']} exits "
                    f"{class_exit_code(answer['verdict_class'])}"
                )
    return problems if lesson.answer_sections else ["no verdict section"]


def check_exercise_prose(lesson: Lesson, saved: Saved) -> list[str]:
    """An exercise's statuses, reasons, verdicts and exit codes are ones its own (verified) run shows."""
    names = _STATUSES | _REASONS | set(VERDICTS) | set(FINDINGS) | set(GATE_REASONS)
    problems = []
    for exercise in lesson.exercises:
        shown, codes = lesson.shown(exercise)
        if not codes:
            problems.append(f"{exercise.title}: its transcript echoes no exit code")
        text = lesson.section_text(exercise)
        for name in code_spans(text):
            if name in names and not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", shown):
                problems.append(f"{exercise.title}: `{name}` is not in what its transcript shows")
        for code in _EXIT.findall(text):
            if int(code) not in codes:
                problems.append(f"{exercise.title}: exit {code} is not an exit code its transcript shows")
    return problems


def check_transcripts(
    lesson: Lesson, new_runner: Callable[[], Transcript], only: Callable[[Block], bool] = lambda block: True
) -> tuple[list[str], int]:
    """Run the console blocks; return the problems and how many commands ran."""
    shared: Transcript | None = None
    fresh: dict[int, Transcript] = {}
    problems, commands = [], 0
    for block in lesson.consoles:
        exercise = lesson.exercise_of(block.index)
        if exercise is None:
            shared = shared or new_runner()
            runner = shared
        else:
            runner = fresh.setdefault(exercise.start, new_runner())
        if not only(block):
            continue
        with runner.inside():
            for command, heredoc, expected in transcript_steps(block):
                shown = runner.run(command, heredoc)
                commands += 1
                if _trim(shown) != _trim(expected):
                    problems.append(
                        f"block at line {block.index + 1}: $ {command}\n  shows {_trim(shown)}\n  not {_trim(expected)}"
                    )
    return problems, commands


CHECKS: tuple[Callable[[Lesson, Saved], list[str]], ...] = (
    check_size,
    check_promises,
    check_own_tree,
    check_outputs_are_ignored,
    check_case_table,
    check_case_sections,
    check_what_is_said_of_a_case,
    check_span_table,
    check_claim_references,
    check_file_locations,
    check_numbers,
    check_digests,
    check_names,
    check_json_excerpts,
    check_verdict_sections,
    check_exercise_prose,
)


# --------------------------------------------------------------------------
# the tests


class LessonTest(unittest.TestCase):
    lesson: Lesson
    saved: Saved

    @classmethod
    def setUpClass(cls) -> None:
        cls.lesson = Lesson(LESSON.read_text(encoding="utf-8"))
        cls.saved = Saved(json.loads(SAVED.read_text(encoding="utf-8")))

    def folder(self) -> Path:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-lesson-")
        self.addCleanup(tmp.cleanup)
        return Path(tmp.name)

    def test_every_check_passes(self) -> None:
        for check in CHECKS:
            with self.subTest(check=check.__name__):
                self.assertEqual(check(self.lesson, self.saved), [])

    def test_console_transcripts(self) -> None:
        problems, commands = check_transcripts(self.lesson, lambda: Transcript(self.folder()))
        self.assertEqual(problems, [])
        self.assertGreater(commands, 30)

    @unittest.skipUnless(os.environ.get("CONFLICT_GATE_LESSON_SHELL"), "set CONFLICT_GATE_LESSON_SHELL=1")
    @unittest.skipIf(os.name != "posix" or shutil.which("sh") is None, "needs a POSIX sh")
    def test_console_transcripts_in_a_real_shell(self) -> None:
        problems, commands = check_transcripts(self.lesson, lambda: ShellTranscript(self.folder()))
        self.assertEqual(problems, [])
        self.assertGreater(commands, 30)

    def test_the_gate_gives_each_case_its_saved_result(self) -> None:
        """Each case is one gate command whose stdout is the saved result and whose exit code says its status."""
        for case in self.saved.data["cases"]:
            with self.subTest(case=case["case_id"]):
                code, out, _ = run_cli(
                    [
                        "gate",
                        "--manifest",
                        str(MANIFEST),
                        "--version",
                        case["requested_version"],
                        "--claim",
                        case["claim_key"],
                        *case["candidate_ids"],
                    ]
                )
                self.assertEqual(out, render_json(case["result"]))
                self.assertEqual(code, gate_exit_code(case["result"]))

    def test_the_lab_still_writes_the_saved_result(self) -> None:
        """The lesson reads expected-result.json as what `python run.py --output result.json` writes."""
        self.assertEqual(render_json(run.run_lab()).encode("utf-8"), SAVED.read_bytes())

    def test_a_wrong_explanation_fails(self) -> None:
        """Guards against checks that cannot fail: each edit of a figure or an explanation is caught."""
        edits: dict[str, tuple[str, str, Callable[[Lesson, Saved], list[str]]]] = {
            "bytes said to be code points": (
                "| bytes | 0, end exclusive |",
                "| code points | 0, end exclusive |",
                check_span_table,
            ),
            "lines counted from 0": ("| lines | 1 |", "| lines | 0 |", check_span_table),
            "a byte span off by one": ("bytes 1162–1201 | bytes", "bytes 1161–1200 | bytes", check_span_table),
            "the conflict said to be ready": (
                "it keeps both claims",
                "it is `ready`: it keeps both claims",
                check_what_is_said_of_a_case,
            ),
            "the wrong page excluded": (
                "`quill-new-version` is the newest",
                "`quill-reference` is the newest",
                check_what_is_said_of_a_case,
            ),
            "the changed source's exit code": (
                "stops `gate` with exit code 6",
                "stops `gate` with exit code 5",
                check_what_is_said_of_a_case,
            ),
            "a case's status": ("| `no_eligible_version` | 4 |", "| `no_approved_source` | 4 |", check_case_table),
            "a set-aside version": ("`quill-new-version` (2.0)", "`quill-new-version` (3.0)", check_case_table),
            "the verdict's exit code": ("`check-answer` exits 9", "`check-answer` exits 10", check_verdict_sections),
            "what a finding calls for": (
                "| `missing_statement` |",
                "| `contradicts_decision` |",
                check_verdict_sections,
            ),
            "a misspelt reason": (
                "`not_in_docs`, `no_eligible_version`",
                "`not_in_docs`, `no_eligble_version`",
                check_names,
            ),
            "the refusal's column": ("column 33 (in", "column 34 (in", check_what_is_said_of_a_case),
            "a column of no refusal": ("column 33 (in", "column 35 (in", check_numbers),
            "the byte difference": ("11 extra bytes", "12 extra bytes", check_numbers),
            "a claim's line": ("`quill-conflicting-guide:15`", "`quill-conflicting-guide:16`", check_claim_references),
            "a digest prefix": ("sha256:c8f8144680bb", "sha256:c8f8144680bc", check_digests),
            "an exercise's exit code": ("`conflict`, exit 3", "`conflict`, exit 4", check_exercise_prose),
            "an exercise's reason": ("(`invalid_requested_version`", "(`unknown_candidate`", check_exercise_prose),
        }
        for name, (old, new, check) in edits.items():
            with self.subTest(edit=name):
                self.assertEqual(self.lesson.text.count(old), 1, "the lesson changed: update this guard")
                self.assertNotEqual(check(Lesson(self.lesson.text.replace(old, new)), self.saved), [])

    def test_a_wrong_transcript_fails(self) -> None:
        """Guards against a runner that passes anything: a wrong BOM figure and a wrong exit code are caught."""
        last = self.lesson.exercises[-1]
        for old, new in (("5 73 76", "5 76 76"), ("1.0/reference=5\n$ echo $?\n3", "1.0/reference=5\n$ echo $?\n0")):
            with self.subTest(edit=old):
                self.assertEqual(self.lesson.text.count(old), 1, "the lesson changed: update this guard")
                edited = Lesson(self.lesson.text.replace(old, new))
                problems, _ = check_transcripts(
                    edited, lambda: Transcript(self.folder()), only=lambda block: last.holds(block.index)
                )
                self.assertEqual(len(problems), 1, problems)


if __name__ == "__main__":
    unittest.main()
