"""Tests for how the answer check reads an answer: as CommonMark + GFM (answer.reader), form-like
text raw against rendered (answer.forms), statements and directives anywhere a reader sees them,
look-alikes (lookalike), and quotes looked up in the corpus as loaded (quotes).

Two folders of answers to the lab's ``compatible-agreement`` decision (ready, ``refuse``, claims at
``quill-guide:37`` and ``quill-reference:22``): ``tests/answers/realistic/*.md``, what real answers
about an API hold (code fences in several languages, keyword arguments, decorators,
``pip install x==1.0``, URLs, a table, non-English prose), each ``supported`` with no finding; and
``tests/answers/disguised/*.md``, one answer per way of showing a reader another value, another
source or no evidence, each with the verdict and the finding ``expected.json`` gives it, none
``supported``. The seeded disguise fuzz applies the disguises to the lab's supported answer
(``CONFLICT_GATE_FUZZ_CASES``, 40 by default and 1,000 in ``.ci/run``, and ``CONFLICT_GATE_FUZZ_SEED``,
as in ``test_answer``; the fast path for plain inline content is compared on 20 times as many random
lines); the sweep of the Basic Multilingual Plane calls the look-alike classifier directly.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import tempfile
import unicodedata
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from _conflict_gate.answer.check import check_answer
from _conflict_gate.answer.forms import FormWords
from _conflict_gate.answer.inline import InlineUnit
from _conflict_gate.answer.reader import read_answer, segments
from _conflict_gate.base.registry import FINDINGS, VERDICTS
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.corpus.quotes import QuoteIndex
from _conflict_gate.decide.decision import gate
from _conflict_gate.manifest.form import language_forms
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.lookalike import CONFUSABLES, RUN_BREAKS, LookAlikes, _is_accented_latin, is_look_alike
from _conflict_gate.reading.reader import MAX_OCCURRENCE_CHARS
from tests.support import FIXTURE_MANIFEST, REPO

ANSWERS = REPO / "tests" / "answers"
SUPPORTED = (REPO / "docs" / "answers" / "supported.txt").read_text(encoding="utf-8")
FUZZ_CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "40"))
FUZZ_SEED = int(os.environ.get("CONFLICT_GATE_FUZZ_SEED", "20240601"))
VALUE = "`existing_path=refuse`"
VERSION = "`version=1.0`"
GUIDE = "[source: quill-guide:37]"
REFERENCE = "[source: quill-reference:22]"
#: A supported answer with no quote: every other test adds one thing to it.
BASE = f"Quill {VERSION} refuses: {VALUE} {GUIDE} {REFERENCE}.\n"
#: The issue's look-alike equals signs (the last two have no EQUALS in their names, or map by NFKC).
ISSUE_EQUALS = ("\ua78a", "\u30a0", "\uff1d", "\ufe66", "\u207c", "\u2e40")
NEEDLES = ("existing_path", "close_required", "version", "quill")


class Fixture(unittest.TestCase):
    corpus: Any
    ready: Any

    @classmethod
    def setUpClass(cls) -> None:
        cls.corpus = load_documents(FIXTURE_MANIFEST)
        cls.ready = gate(cls.corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")

    def check(self, answer: str | bytes) -> dict[str, Any]:
        result: dict[str, Any] = dict(check_answer(self.corpus, self.ready, answer))
        self.assertIn(result["verdict"], VERDICTS)
        for found in result["findings"]:
            self.assertIn(found["kind"], FINDINGS)
        return result

    def kinds(self, answer: str) -> set[str]:
        return {found["kind"] for found in self.check(answer)["findings"]}


class AnswerFolderTest(Fixture):
    """The committed answers: the realistic ones pass, the disguised ones never do."""

    def test_realistic_answers_are_supported(self) -> None:
        """Guards against the issue's rejections of ordinary answers: a fenced code sample (``a
        backtick is not closed``), ``orbit.publish(body, retries=5)`` (``key=value with no spaces``),
        a decorator in backticks (``quote_without_citation``)."""
        paths = sorted((ANSWERS / "realistic").glob("*.md"))
        self.assertGreaterEqual(len(paths), 60)
        for path in paths:
            with self.subTest(answer=path.name):
                result = self.check(path.read_bytes())
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))

    def test_realistic_answers_are_supported_on_every_ready_lab_decision(self) -> None:
        """Guards against issue 31's rejections of answers real assistants write (35-60: the key as a
        language writes it in Python, JS, Go, Kotlin, YAML, JSON, TOML, shell flags, environment
        variables; tables, headings, German, French, Spanish, Chinese and Russian prose): each is
        ``supported`` against both of the lab's ready decisions (``compatible-agreement`` and
        ``draft-set-aside``), and so is none of them only by accident of one decision."""
        drafted = gate(
            self.corpus, ["quill-guide", "quill-reference", "quill-draft"], "1.0", "create_copy", "existing_path"
        )
        self.assertEqual(drafted["status"], "ready")
        for path in sorted((ANSWERS / "realistic").glob("*.md")):
            with self.subTest(answer=path.name):
                result = dict(check_answer(self.corpus, drafted, path.read_bytes()))
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))

    def test_disguised_answers_are_never_supported(self) -> None:
        """Guards against each disguise of the issue passing as ``supported``."""
        expected = json.loads((ANSWERS / "disguised" / "expected.json").read_text(encoding="utf-8"))
        paths = sorted((ANSWERS / "disguised").glob("*.md"))
        self.assertEqual(sorted(expected), [path.name for path in paths])
        self.assertGreaterEqual(len(paths), 50)
        for path in paths:
            with self.subTest(answer=path.name):
                result = self.check(path.read_bytes())
                self.assertNotEqual(result["verdict"], "supported")
                self.assertEqual(result["verdict"], expected[path.name]["verdict"], result["findings"])
                self.assertIn(expected[path.name]["finding"], {f["kind"] for f in result["findings"]})


class ReadingTest(Fixture):
    """What a reader sees: visible prose, code and hidden text, in code points of the answer."""

    def test_segments_of_each_construct(self) -> None:
        answer = (
            "# Heading `existing_path=refuse` #\n\n"
            'Text &amp; <!-- hidden --> [link](https://u.example "title") <code>c</code>\n\n'
            "```python info\nprint(1)\n```\n\n"
            "| a | b |\n|---|---|\n| `x` | y | dropped |\n\n"
            '<div title="t">shown <code>in code</code></div>\n\n'
            "[label]: https://u.example\n"
        )
        seen = [(s.kind, s.text) for s in segments(read_answer(answer))]
        for expected in [
            ("code", "existing_path=refuse"),
            ("hidden", "<!-- hidden -->"),
            ("hidden", '(https://u.example "title")'),
            ("code", "c"),
            ("hidden", "python info"),
            ("code", "print(1)"),
            ("code", "x"),
            ("hidden", "dropped"),
            ("hidden", '<div title="t">'),
            ("code", "in code"),
            ("hidden", "[label]: https://u.example"),
        ]:
            self.assertIn(expected, seen)
        prose = " ".join(text for kind, text in seen if kind == "prose")
        self.assertIn("Text & ", prose)
        self.assertNotIn("hidden", prose)
        for segment in segments(read_answer(answer)):
            if segment.kind == "hidden":
                self.assertEqual(answer[segment.start : segment.end], segment.text)

    def test_plain_content_reads_as_the_full_inline_reading(self) -> None:
        """Guards against the fast path for plain inline content (code spans, brackets, text) reading
        otherwise than the inline reader it stands in for."""
        rng = random.Random(FUZZ_SEED)
        alphabet = [*list("ab =@[]``` \n_*~.x"), "existing_path=", GUIDE, "@quill ", "``", "` `"]
        for index in range(20 * FUZZ_CASES):  # 800 by default, 20,000 in .ci/run (2,000 before either)
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40))).strip("\n")
            text = re.sub(r"\n+", "\n", text)
            if not text:
                continue
            spans, at = [], 0
            for line in text.split("\n"):
                spans.append((at, at + len(line)))
                at += len(line) + 1
            fast, full = InlineUnit(text), InlineUnit(text)
            fast.read(spans)
            full.read(spans, fast=False)
            with self.subTest(index=index, text=text):
                self.assertEqual((fast.shown().text, fast.spans), (full.shown().text, full.spans))

    def test_outer_whitespace_is_not_read(self) -> None:
        """Guards against an answer that starts with a tab becoming an indented code block (its forms
        unread): whitespace at the two ends of an answer does not count."""
        for lead in ("\t", "\r\n\t", "    ", "\n\n    "):
            with self.subTest(lead=lead):
                self.assertEqual(self.check(lead + BASE + "  \n")["verdict"], "supported")

    def test_offsets_are_code_points_in_containers_and_non_ascii_text(self) -> None:
        for answer in (
            f"> caf\u00e9 \u2014 `existing_path=overwrite`\r\n> {BASE}",
            f"- na\u00efve\r\n  - `existing_path=overwrite` {BASE}",
            f"| \u65e5\u672c | x |\n|---|---|\n| `existing_path=overwrite` | {BASE.strip()} |\n",
        ):
            with self.subTest(answer=answer):
                found = next(f for f in self.check(answer)["findings"] if f["kind"] == "other_value")
                self.assertEqual(answer[found["start"] : found["end"]], "`existing_path=overwrite`")

    def test_a_form_in_doubtful_markup_is_unclear(self) -> None:
        """Guards against forms in a block whose reading depends on the renderer (an HTML comment
        opened in an earlier block, raw HTML a browser ends elsewhere) being judged by one reading."""
        for extra in ('<div title="x\n\n`existing_path=overwrite`\n', "a <?php `existing_path=overwrite` ?> b\n"):
            with self.subTest(extra=extra):
                self.assertEqual(self.check(BASE + "\n" + extra)["verdict"], "malformed_answer")


class HostileAnswerTest(Fixture):
    """Answers built to make a reader work give a verdict, in time linear in their length (the
    64 KiB versions, about 1 s at most, are for timing by hand; 8 KiB ones run here)."""

    def test_hostile_answers_give_a_verdict(self) -> None:
        size = 8192
        for name, unit in {
            "brackets": "[",
            "links": "[a](b) ",
            "angles": "<",
            "tags": '<a title="x">',
            "entities": "&amp;",
            "escaped backticks": "\\`",
            "backtick runs": "` `` ",
            "comments": "<!--",
            "lines": "a\n",
            "carriage returns": "a\r",
            "fences": "```\n",
            "quotes": "> ",
            "table rows": "| `x` | [source: quill-guide:37] |\n",
            "look-alikes": "v\u0435rsion ",
            "non-English": "versi\u00f3n ",
            "at signs": "@quill ",
            "escape sequences": "\x1b[2K",
            "emphasis inside names": "exist*ing*_path=x ",
            "hiding tags": "<span hidden>[source: quill-guide:37]</span> ",
            "tildes": "~ ",
            "citations as link texts": "[[source: quill-guide:37]](x) ",
            "glued values": "`version=1.0`.1 ",
            "look-alike names": "existlng_path=x ",
            # the raw statement pattern's code edges (`+ under *) backtracked exponentially:
            # 20 backticks after a name took a second, 30 would take minutes (found in hostile
            # round 2's review of the split code forms)
            "backticks after a name": "Text &amp; existing_path" + "`" * 40 + "x:=1 --existing-path" + "`" * 40 + " ",
        }.items():
            answer = (unit * (size // len(unit) + 1))[:size]
            if name == "table rows":
                answer = "| a | b |\n|---|---|\n" + answer
            with self.subTest(name):
                self.assertNotEqual(self.check(answer)["verdict"], "supported")


class StatementTest(Fixture):
    """Code is prose unless it states the claim: the statement rule, anywhere a reader sees it."""

    def test_other_values_anywhere_contradict(self) -> None:
        for name, extra in {
            "prose": "Since 1.1 existing_path=overwrite.",
            "quoted value, spaces": 'Set existing_path = "overwrite".',
            "single quotes": "existing_path='overwrite'",
            "keyword argument in a fence": '```python\nquill.create_copy(a, b, existing_path="overwrite")\n```',
            "annotated default": '```python\ndef f(existing_path: str = "overwrite"): ...\n```',
            "in a code span": "`quill.create_copy(a, b, existing_path='overwrite')`",
            "bold": "**existing_path=overwrite**",
            "italic with underscores": "_existing_path=overwrite_",
            "the key in a case no language writes it": "Existing_Path=refuse",
            "the key in upper case, another value": "EXISTING_PATH=overwrite",
            "another key of the operation": "close_required=yes",
            "another version in code": '```toml\nversion = "2.0"\n```',
            "a directive of another operation": "```\n@quill delete_copy force=yes\n```",
            "a table cell": "| a |\n|---|\n| existing_path=overwrite |",
        }.items():
            with self.subTest(name):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], "contradicts_decision", result["findings"])

    def test_other_names_and_comparisons_are_prose(self) -> None:
        for extra in (
            "python_version=3.11",
            "my_existing_path=overwrite",
            'existing_path == "overwrite"',
            "--version=2",
            "existing_paths=overwrite",
            "existing_path != x",
            "`orbit.publish(body, retries=5)`",
            "`QUILL_LOG_LEVEL=debug`",
            '`name="x"`',
            "Decorate with `@orbit.publisher`.",
            "`@retry(times=3)`",
            "pip install quill==1.0",
            "existing_path=refuse.",
            'existing_path = "refuse"',
            "**existing_path=refuse**",
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))

    def test_language_forms_of_the_key_are_statements_of_it(self) -> None:
        """Guards against issue 31's first fault: ``client.connect(max_retries=3)`` in a Python sample,
        the grammar's key being ``max-retries``, was ``look_alike``; and ``existingPath=overwrite`` was
        free text. A name a programming language writes the key as states the key."""
        for extra in (
            "existing-path=refuse",
            "EXISTING_PATH=refuse",
            "existingPath=refuse",
            "ExistingPath=refuse",
            "`copy(src, dst, existingPath: 'refuse')`",
            "VERSION=1.0",
            "Version=1.0",
            '```js\nquill.createCopy(src, dst, {existingPath: "refuse"});\n```',
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))
        for extra, kind in (
            ("existing-path=overwrite", "other_value"),
            ("EXISTING_PATH=overwrite", "other_value"),
            ("existingPath=overwrite", "other_value"),
            ("ExistingPath = 'overwrite'", "other_value"),
            ("closeRequired=yes", "other_value"),
            ("CLOSE_REQUIRED=no", "other_value"),
            ("VERSION=2.0", "other_version"),
            ("Version=2.0", "other_version"),
            ("existingpath=refuse", "other_value"),
            ("Existing_Path=refuse", "other_value"),
            ("vERSION=1.0", "other_version"),
            ("existing_Path=refuse", "other_value"),
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], "contradicts_decision", result["findings"])
                self.assertEqual({f["kind"] for f in result["findings"]}, {kind})

    def test_language_forms_are_exactly_five_and_a_shared_one_is_neither_name(self) -> None:
        """Guards against the language forms drifting from reference/answer-check.md, and against a form
        two keys share (``max_retries`` and ``max-retries`` both in a grammar) being read as either; a
        key as the grammar spells it stays that key."""
        self.assertEqual(
            language_forms("max-retries"), ("max-retries", "max_retries", "MAX_RETRIES", "maxRetries", "MaxRetries")
        )
        self.assertEqual(language_forms("version"), ("version", "VERSION", "Version"))
        grammar = grammar_from_json(
            {
                "namespace": "acme",
                "product": "Acme",
                "operations": {
                    "op": {
                        "max_retries": {"type": "integer", "min": 0, "max": 9},
                        "max-retries": {"type": "integer", "min": 0, "max": 9},
                    }
                },
            }
        )
        words = FormWords(grammar, "op", "max-retries")
        self.assertEqual(
            [words.name_of(f) for f in ("max-retries", "max_retries", "MAX_RETRIES", "maxRetries")],
            ["max-retries", "max_retries", None, None],
        )

    def test_true_look_alikes_of_a_language_form_stay_malformed(self) -> None:
        """Guards against a language form written with another script or another ``=`` passing, now
        that the forms are statements: ``existingР ath`` with a Cyrillic ``Р``, ``EXISTING_PATH꞊``."""
        for extra in (
            "existing\u0420ath=overwrite"[:8] + "\u0420ath=refuse",
            "EXISTING_PATH\ua78aoverwrite",
            "existingPath\u30a0overwrite",
            "EXISTING\u2010PATH=refuse",
            "\uff56\uff45\uff52\uff53\uff49\uff4f\uff4e=2.0",
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], "malformed_answer", result["findings"])
                self.assertIn("look_alike", {f["kind"] for f in result["findings"]})

    def test_a_statement_split_at_a_code_edge_is_read_as_shown(self) -> None:
        """Guards against issue 31's second fault: `existing_path`=overwrite, `existing_path` =
        `overwrite`, <code>existing_path</code>=overwrite, <kbd>..</kbd>, `version`=2.0 passed as
        ``supported``, though a chat window shows a statement of the other value."""
        for extra, kind in (
            ("`existing_path`=overwrite", "other_value"),
            ("`existing_path` = `overwrite`", "other_value"),
            ("`existing_path`=`overwrite`", "other_value"),
            ("`existing_path` `=` `overwrite`", "other_value"),
            ("<code>existing_path</code>=overwrite", "other_value"),
            ("<code>existing_path</code>=<code>overwrite</code>", "other_value"),
            ("<kbd>existing_path</kbd>=overwrite", "other_value"),
            ("<samp>existing_path</samp> = overwrite", "other_value"),
            ("<tt>version</tt>=2.0", "other_version"),
            ("`version`=2.0", "other_version"),
            ("`version` = `2.0`", "other_version"),
            ("`existing_path=`overwrite", "other_value"),
            ("existing_path`=overwrite`", "other_value"),
            ("`existingPath`=overwrite", "other_value"),
            ("`close_required`=yes", "other_value"),
            ("Set `existing_path`\n= overwrite", "other_value"),
            # one span showing backticks, three spans to a terminal (found by the fuzz below)
            ("`Version``=``2.0`", "other_version"),
            ("so `VERSION``=`2.0.", "other_version"),
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertNotEqual(result["verdict"], "supported")
                self.assertEqual(result["verdict"], "contradicts_decision", result["findings"])
                self.assertIn(kind, {f["kind"] for f in result["findings"]})
        for extra in (
            "`existing_path`=refuse",
            "`existing_path` = `refuse`",
            "<code>version</code>=1.0",
            "The `existing_path` option; `refuse` is its value.",
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))

    def test_colon_forms_and_flags_in_code_are_statements(self) -> None:
        """Guards against issue 31's third fault: ``max-age: 3600`` (YAML), ``"max-age": 3600`` (JSON)
        and a flag in a shell sample stating another value passed as ``supported``."""
        for extra, kind in (
            ("```yaml\nexisting_path: overwrite\n```", "other_value"),
            ("```yaml\ncopy:\n  existing-path: 'overwrite'  # replace\n```", "other_value"),
            ('```json\n{"existing_path": "overwrite"}\n```', "other_value"),
            ('```json\n{"existingPath":"overwrite","x":1}\n```', "other_value"),
            ("```js\ncopy(a, b, { existingPath: 'overwrite' });\n```", "other_value"),
            ('```python\nopts = {"existing_path": "overwrite"}\n```', "other_value"),
            ("```python\nif (existing_path := 'overwrite'): pass\n```", "other_value"),
            ("```sh\nquill copy a b --existing-path overwrite\n```", "other_value"),
            ("```sh\nquill copy a b --existing-path=overwrite\n```", "other_value"),
            ("```sh\nquill copy a b --existing_path 'overwrite'\n```", "other_value"),
            ("`existing_path: overwrite`", "other_value"),
            ("<code>existing_path: overwrite</code>", "other_value"),
            ('```yaml\nversion: "2.0"\n```', "other_version"),
            ("```yaml\nclose_required: yes\n```", "other_value"),
            ("    existing_path: overwrite", "other_value"),
            ("Run quill copy a b --existing-path=overwrite.", "other_value"),
            ('```python\nexisting_path: Literal["overwrite"]\n```', "other_value"),
            ('```python\nexisting_path: Literal["refuse", "overwrite"] = "refuse"\n```', "other_value"),
            ('```ts\ntype Opts = { existingPath?: "overwrite" };\n```', "other_value"),
            ("Or pass --close-required=yes.", "other_value"),
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], "contradicts_decision", result["findings"])
                self.assertIn(kind, {f["kind"] for f in result["findings"]})
        for extra in (
            "```yaml\nexisting_path: refuse\nversion: '1.0'\n```",
            '```json\n{"existing_path": "refuse"}\n```',
            "```sh\nquill copy a b --existing-path refuse --verbose\n```",
            "```python\n@dataclass\nclass Opts:\n    existing_path: str\n    close_required: bool\n```",
            "```ts\ninterface Opts { existingPath: string }\n```",
            "```yaml\nexisting_path:\n  - refuse\n```",
            "```sh\nquill --version\npython --version 2>&1\n```",
            "Note on existing_path: overwrite is 2.0.",
            "Pass --existing-path refuse or --version=2 in prose.",
            '```python\nexisting_path: Literal["refuse"] = "refuse"\n```',
            '```ts\ntype O = { existingPath?: "refuse" };\n```',
            '```json\n{"existing_path": {"note": "x"}}\n```',
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual((result["verdict"], result["findings"]), ("supported", []))

    def test_a_statement_code_makes_in_a_fence_info_string_is_hidden(self) -> None:
        """Guards against ``name: value`` or a flag in a fence's info string passing unseen: some chat
        windows show the info string, some do not, as for ``name=value`` there."""
        for extra in (
            "```yaml existing_path: overwrite\nx: 1\n```",
            "```sh --existing-path overwrite\nls\n```",
            "```yaml existing_path: refuse\nx: 1\n```",
        ):
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], "malformed_answer", result["findings"])
                self.assertIn("hidden_form", {f["kind"] for f in result["findings"]})

    def test_a_statement_inside_a_quote_is_judged_as_the_quote(self) -> None:
        answer = BASE + f"The 2.0 page: `@quill create_copy existing_path=overwrite` {GUIDE}\n"
        self.assertEqual([f["kind"] for f in self.check(answer)["findings"]], ["misattributed"])

    def test_a_quote_without_its_head_or_backticks_is_not_evidence(self) -> None:
        """Guards against a quote that lost its at sign (or its backticks) passing as prose that
        states the agreed value next to a citation."""
        for extra in (
            f"`quill create_copy existing_path=refuse` {GUIDE}",
            f"@quill create_copy existing_path=refuse {GUIDE}",
            f"`@quill`create_copy existing_path=refuse` {GUIDE}",
            f"`@quill `reate_copy existing_path=refuse` {GUIDE}",
        ):  # seed 7, case 6936 of test_answer's fuzz
            with self.subTest(extra=extra):
                self.assertNotEqual(self.check(BASE + extra + "\n")["verdict"], "supported")


class HostileRound2Test(Fixture):
    """The answer check's findings of hostile round 2: statements a chat window shows that were read
    as free text (``supported``), and faithful code that was read as another value."""

    def assert_verdicts(self, cases: dict[str, str]) -> None:
        for extra, verdict in cases.items():
            with self.subTest(extra=extra):
                result = self.check(BASE + "\n" + extra + "\n")
                self.assertEqual(result["verdict"], verdict, result["findings"])
                if verdict == "supported":
                    self.assertEqual(result["findings"], [])

    def test_emphasis_and_links_beside_a_statement_are_read_as_shown(self) -> None:
        """Guards against hostile round 2, finding 1: emphasis (``*``, ``**``, ``_``, ``__``) or a link
        around or beside a statement's name, ``=`` or value, next to a space or a backtick, was not
        taken out before statements were read, so ``**version** = 2.0`` (shown as version = 2.0) passed."""
        bad = "contradicts_decision"
        self.assert_verdicts(
            {
                "**version** = 2.0": bad,
                "*version* = 2.0": bad,
                "version **=** 2.0": bad,
                "_version_=2.0": bad,
                "__version__=2.0": bad,
                "__existing_path__=overwrite": bad,
                "_existing_path_=overwrite": bad,
                '**existingPath** = "overwrite"': bad,
                "[version](https://x.example) = 2.0": bad,
                "[`existing_path`](https://x.example)=overwrite": bad,
                "`existing_path` **=** `overwrite`": bad,
                "existing_path = **`overwrite`**": bad,
                "**`version`** **=** **`2.0`**": bad,
                "_existing_path_ = _overwrite_": bad,
                # the agreed value, emphasised, and underscores inside words, stay what they are
                "**existing_path** = refuse": "supported",
                "`existing_path` = **`refuse`**": "supported",
                "__version__ = 1.0": "supported",
                "my__existing_path=overwrite": "supported",
                "_my_existing_path_=overwrite": "supported",
                "existing_**path**=refuse": "supported",
                "exist*ing*_path=refuse": "supported",
                "existing_**path**=overwrite": bad,
            }
        )

    def test_code_forms_split_at_code_edges_and_table_rows_are_statements(self) -> None:
        """Guards against hostile round 2, finding 2: the statements only code makes, split at code
        edges (`existing_path` := `overwrite`, `existingPath:` `"overwrite"`, `--existing-path` `overwrite`),
        were not read through as ``=`` is, and a table row | `existing_path` | `overwrite` | (a name's cell
        then a value's, shown as a statement) was free text."""
        bad = "contradicts_decision"
        table = "| Option | Value |\n|---|---|\n"
        self.assert_verdicts(
            {
                "`existing_path` := `overwrite`": bad,
                '`"existing_path"`: `"overwrite"`': bad,
                '`existingPath:` `"overwrite"`': bad,
                "Run it with `--existing-path` `overwrite`.": bad,
                "Set `existing_path`: `overwrite`.": bad,
                table + "| `existing_path` | `overwrite` |": bad,
                # with emphasis around them too (findings 1 and 2 together)
                "- **`existing_path`**: `overwrite`": bad,
                "`existing_path` **:=** `overwrite`": bad,
                "Run it with **`--existing-path`** `overwrite`.": bad,
                "- **`existing_path`**: `refuse`": "supported",
                table + "| version | 2.0 |": bad,
                table + "| existingPath | **overwrite** |": bad,
                "| version | 2.0 |\n|---|---|": bad,
                "| existing_path | overwrite |\n|---|---|": bad,
                # the agreed value; a colon in prose; a column's title; descriptions and types
                "Set `existing_path`: `refuse`.": "supported",
                table + '| version | **1.0** |\n| `existing_path` | `"refuse"` |': "supported",
                "`existing_path`: the option that decides it.": "supported",
                "Use `--existing-path` to choose; `refuse` is the default.": "supported",
                "| Version | Changes |\n|---|---|\n| 1.0 | first release |": "supported",
                "| Parameter | Type | Description |\n|---|---|---|\n| existing_path | str | what happens then |": "supported",
            }
        )

    def test_assignments_code_makes_are_statements(self) -> None:
        """Guards against hostile round 2, finding 3: attribute and subscript assignments, hash rockets,
        ``setattr``, XML elements, an environment variable with the product's prefix and ``#define`` in
        code were free text, and a TypeScript union of literals stated only its first (while
        ``Literal[...]`` states each). ``x.existing_path=1`` (once free text) now assigns the attribute."""
        bad = "contradicts_decision"

        def fence(code: str) -> str:
            return "```\n" + code + "\n```"

        self.assert_verdicts(
            {
                fence('opts.existing_path = "overwrite"'): bad,
                fence('self.existing_path = "overwrite"'): bad,
                "x.existing_path=1": bad,
                fence('opts["existingPath"] = "overwrite";'): bad,
                fence("$opts = ['existing_path' => 'overwrite'];"): bad,
                fence('{ :existing_path => "overwrite" }'): bad,
                fence('setattr(opts, "existing_path", "overwrite")'): bad,
                fence("<existingPath>overwrite</existingPath>"): bad,
                fence("export QUILL_EXISTING_PATH=overwrite"): bad,
                fence('#define EXISTING_PATH "overwrite"'): bad,
                fence("QUILL_VERSION=2.0"): "contradicts_decision",
                fence('interface O { existingPath?: "refuse" | "overwrite"; }'): bad,
                "`opts.existing_path = 'overwrite'`": bad,
                fence("paths.filter(existingPath => existingPath.length > 0)"): "supported",
                # the same forms with the agreed value
                fence(
                    'opts.existing_path = "refuse"\nopts["existingPath"] = "refuse"\n'
                    "x = {'existing_path' => 'refuse', :existing_path => \"refuse\"}\n"
                    'setattr(opts, "existing_path", "refuse")\nexport QUILL_EXISTING_PATH=refuse\n'
                    '#define EXISTING_PATH "refuse"\n<existingPath>refuse</existingPath>\n'
                    'interface O { existingPath?: "refuse"; mode: "a" | "b" }\nQUILL_LOG_LEVEL=debug'
                ): "supported",
            }
        )

    def test_declared_flags_read_their_default(self) -> None:
        """Guards against hostile round 2, finding 8: a quoted flag name followed by the rest of a call,
        argparse's ``add_argument("--existing-path", choices=[...], default="refuse")`` and click's
        ``@click.option("--existing-path", default="refuse")``, was read as ``existing-path=, choices=[refuse``
        (a false ``other_value``); the call's ``default=`` is read instead, and an argv list's next item
        stays the flag's value."""
        bad = "contradicts_decision"

        def fence(code: str) -> str:
            return "```python\n" + code + "\n```"

        self.assert_verdicts(
            {
                fence(
                    'parser.add_argument("--existing-path", choices=["refuse", "overwrite"], default="refuse")'
                ): "supported",
                fence('@click.option("--existing-path", default="refuse")'): "supported",
                fence(
                    '@click.option("--existing-path", "existing_path", type=click.Choice(["refuse", "overwrite"]), '
                    'default="refuse")'
                ): "supported",
                fence('parser.add_argument("--existing-path", choices=["refuse", "overwrite"])'): "supported",
                fence(
                    'parser.add_argument(\n    "-e", "--existing-path",\n    choices=["refuse", "overwrite"],\n'
                    '    default="overwrite",\n)'
                ): bad,
                fence('@click.option("--existing-path", default="overwrite")'): bad,
                fence('subprocess.run(["quill", "copy", "--existing-path", "overwrite", "a", "b"])'): bad,
                fence('subprocess.run(["quill", "copy", "--existing-path", "refuse", "a", "b"])'): "supported",
            }
        )

    def test_dependency_pins_of_the_product_state_its_version(self) -> None:
        """Guards against hostile round 2, finding 4: a dependency pin of the product stating another
        version (``pip install quill==2.0``, ``quill>=2.0``, ``quill@2.0``, ``"quill": "^2.0"``, Poetry's
        ``quill = "^2.0"``) was free text; an exact pin of the requested version agrees, a range never does."""
        bad = "contradicts_decision"
        self.assert_verdicts(
            {
                "pip install quill==2.0": bad,
                "Requires `quill>=2.0`.": bad,
                "npm install quill@2.0": bad,
                '```json\n{"dependencies": {"quill": "^2.0"}}\n```': bad,
                '```toml\n[tool.poetry.dependencies]\nquill = "^2.0"\n```': bad,
                "`pip install quill>=1.0`": bad,
                "pip install quill==1.0 and `npm install quill@1.0`": "supported",
                '```json\n{"dependencies": {"quill": "1.0"}}\n```': "supported",
                "Quill 2.0 changed it; quill-plugin==2.0 is another package; mail quill@example.com": "supported",
            }
        )


class LookAlikeTest(Fixture):
    """A run that reads as a form with non-ASCII characters fails closed; other text passes."""

    def test_the_issues_equals_signs(self) -> None:
        for ch in ISSUE_EQUALS:
            for extra in (f"existing_path{ch}overwrite", f"version{ch}2.0", f"`existing_path{ch}refuse`"):
                with self.subTest(ch=f"U+{ord(ch):04X}", extra=extra):
                    result = self.check(BASE + extra + "\n")
                    self.assertEqual(result["verdict"], "malformed_answer", result["findings"])

    def test_look_alike_letters_and_signs(self) -> None:
        for run in (
            "v\u0435rsion=2.0",
            "existing_p\u0430th=overwrite",
            "\uff20quill",
            "\ufe6bquill",
            "exist\u200bing_path=x",
            "ｖｅｒｓｉｏｎ=2.0",
            "existing\u02cdpath=x",
            "existing_path\u3013x",
        ):
            with self.subTest(run=run):
                self.assertTrue(is_look_alike(run, NEEDLES))
                self.assertEqual(self.check(BASE + run + "\n")["verdict"], "malformed_answer")

    def test_non_english_prose_passes(self) -> None:
        for run in (
            "versión",
            "バージョン",
            "Versionsänderung",
            "Hauptversionsänderung",
            "Größe=1",
            'name="José"',
            "café",
            "日本語",
        ):
            with self.subTest(run=run):
                self.assertFalse(is_look_alike(run, NEEDLES))
        for text in (
            "La versión 1.0 lo rechaza.",
            "バージョンを確認してください。",
            "the version’s default",
            "He wrote “existing_path=refuse” — and meant it…",
            "Quill® refuses.",
        ):
            with self.subTest(text=text):
                self.assertEqual(self.check(BASE + text + "\n")["findings"], [])

    def test_a_sweep_of_the_basic_multilingual_plane(self) -> None:
        """Every character named EQUALS, or NFKC-mapped to ``=`` or ``@``, makes a run a look-alike;
        and any other non-ASCII character between the key and a value keeps the key readable, so the
        run is one, but a run break (whitespace, typographic punctuation) or a Latin letter with a
        diacritic, which is visibly another letter."""
        equals = nfkc = 0
        for code in range(0x80, 0x10000):
            if 0xD800 <= code < 0xE000:
                continue
            ch = chr(code)
            named = "EQUALS" in unicodedata.name(ch, "")
            mapped = unicodedata.normalize("NFKC", ch)
            if named or "=" in mapped:
                equals += 1
                self.assertTrue(is_look_alike(f"version{ch}2.0", NEEDLES), f"U+{code:04X}")
            if "@" in mapped:
                nfkc += 1
                self.assertTrue(is_look_alike(f"{ch}quill", NEEDLES), f"U+{code:04X}")
            if (
                ch.isspace()
                or ch in RUN_BREAKS
                or _is_accented_latin(ch)
                or unicodedata.normalize("NFC", "h" + ch) != "h" + ch
                or unicodedata.normalize("NFC", ch + "o") != ch + "o"
            ):
                continue
            self.assertTrue(is_look_alike(f"existing_path{ch}overwrite", NEEDLES), f"U+{code:04X}")
        self.assertGreater(equals, 30)
        self.assertGreaterEqual(nfkc, 2)

    def test_every_confusable_reads_as_its_letter(self) -> None:
        for code, ascii_text in CONFUSABLES.items():
            with self.subTest(ch=f"U+{code:04X}"):
                self.assertTrue(ascii_text.isascii() and len(ascii_text) == 1)
                self.assertFalse(_is_accented_latin(chr(code)))
                if ascii_text in "version":
                    run = "version".replace(ascii_text, chr(code), 1)
                    self.assertTrue(is_look_alike(run, NEEDLES), run)

    def test_runs_break_at_typographic_punctuation(self) -> None:
        finder = LookAlikes(NEEDLES)
        self.assertEqual(finder.runs("the version’s value — version…"), [])
        self.assertEqual([run for _, _, run in finder.runs("a vеrsion’s b")], ["vеrsion"])


class QuoteIndexTest(Fixture):
    """Quotes are looked up in the corpus as loaded, in an index built once."""

    def test_prefix_lookups_and_the_cut(self) -> None:
        index = QuoteIndex(["@quill a b=c", "@quill create_copy existing_path=overwrite", "x" * MAX_OCCURRENCE_CHARS])
        self.assertIn("@quill create_copy existing_path=over", index)
        self.assertIn("@quill a b=c", index)
        self.assertNotIn("@quill a b=cd", index)
        self.assertNotIn("@quill b", index)
        self.assertIn(
            "x" * (MAX_OCCURRENCE_CHARS + 40), index
        )  # past the cut: its first code points are a cut occurrence
        self.assertNotIn("y", QuoteIndex([]))

    def test_the_index_is_built_once_from_every_occurrence(self) -> None:
        corpus = load_documents(FIXTURE_MANIFEST)
        index = corpus.quote_index
        self.assertIs(corpus.quote_index, index)
        guide = corpus.sources["quill-guide"]
        self.assertIn("@quill create_copy existing_path=refuse", guide.occurrences)  # the claim
        self.assertIn("@quill create_copy existing_path=overwrite", guide.occurrences)  # code
        self.assertIn("@quill create_copy existing_path=refuse` on its", guide.occurrences)  # inline code
        self.assertIn("@quill create_copy existing_path=overwrite", index)
        for source in corpus.sources.values():
            self.assertEqual(len(source.occurrences), len(set(source.occurrences)))
            self.assertTrue(all(len(o) <= MAX_OCCURRENCE_CHARS and o.startswith("@") for o in source.occurrences))

    def test_no_source_is_read_again(self) -> None:
        """Guards against a quote that is not a claim re-reading and re-hashing every source (0.56 s
        a quote at 10,000 pages): the check gives the same verdicts with the files gone."""
        with tempfile.TemporaryDirectory(prefix="conflict-gate-test-") as folder:
            shutil.copytree(REPO / "docs", Path(folder) / "docs")
            shutil.copy2(FIXTURE_MANIFEST, Path(folder) / "manifest.json")
            corpus = load_documents(Path(folder) / "manifest.json")
            decision = gate(corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")
            shutil.rmtree(Path(folder) / "docs")
            for name, verdict in (("misattributed", "misattributed"), ("invented-quote", "quote_not_found")):
                answer = (REPO / "docs" / "answers" / f"{name}.txt").read_bytes()
                self.assertEqual(check_answer(corpus, decision, answer)["verdict"], verdict)


def _other(rng: random.Random) -> str:
    return rng.choice(["existing_path=overwrite", "close_required=no", "version=2.0", "existing_path=replace"])


#: A letter of the key and a look-alike of it.
_KEY_LOOK_ALIKES = {
    "a": "\u0430",
    "e": "\u0435",
    "i": "\u0456",
    "o": "\u043e",
    "p": "\u0440",
    "_": "\u02cd",
    "x": "\u0445",
    "s": "\u0455",
    "h": "\u04bb",
}


def _look_alike_key(rng: random.Random) -> str:
    """Another value stated with a look-alike letter in the key, or a zero-width space inside it."""
    key = "existing_path"
    at = rng.choice([i for i, ch in enumerate(key) if ch in _KEY_LOOK_ALIKES])
    spelt = key[:at] + (_KEY_LOOK_ALIKES[key[at]] if rng.random() < 0.7 else "\u200b" + key[at]) + key[at + 1 :]
    return spelt + "=overwrite"


#: The language forms of the key and of ``version``, each with a value other than the decision's.
_FORMS = [
    (form, "overwrite") for form in ("existing_path", "existing-path", "EXISTING_PATH", "existingPath", "ExistingPath")
] + [(form, "2.0") for form in ("version", "VERSION", "Version")]


def _split_statement(rng: random.Random) -> str:
    """Another value stated across code edges (issue 31): the name, ``=`` and the value each maybe in a
    code span or an inline code element, at least one edge between them."""
    name, value = rng.choice(_FORMS)
    wraps = ["`{}`", "<code>{}</code>", "<kbd>{}</kbd>", "<samp>{}</samp>", "<tt>{}</tt>"]
    left = rng.choice(wraps).format(name)
    middle = rng.choice(["=", " = ", "`=`", " `=` ", "=\n"])
    right = rng.choice(["{}", "`{}`", "<code>{}</code>", "**{}**", "_{}_"]).format(value)
    return rng.choice(["", "Set ", "so "]) + left + middle + right + rng.choice(["", ".", " here."])


def _code_statement(rng: random.Random) -> str:
    """Another value as code states it (issue 31): a language form with ``=``, ``: value``, ``"name":``, or
    a flag, in a fence, an indented block or a code span."""
    name, value = rng.choice(_FORMS)
    kebab = name.lower().replace("_", "-") if (name[0].islower() and "_" in name) or "-" in name else "existing-path"
    line = rng.choice(
        [
            f"{name}={value}",
            f"{name} = '{value}'",
            f"{name}: {value}",
            f'"{name}": "{value}",',
            f"{{{name}: '{value}'}}",
            f'f(a, {name}="{value}")',
            f"quill copy a b --{kebab} overwrite",
            f"quill copy a b --{kebab}=overwrite",
        ]
    )
    return rng.choice(
        ["\n\n```\n{}\n```\n", "\n\n~~~yaml\n{}\n~~~\n", "\n\n    {}\n", " `{}`", " <code>{}</code>"]
    ).format(line)


def _entity(rng: random.Random, text: str) -> str:
    opens, closes = ["&#91;", "&#x5B;", "&lbrack;", "&lsqb;"], ["&#93;", "&#x5d;", "&rbrack;", "&rsqb;"]
    return text.replace("[", rng.choice(opens)).replace("]", rng.choice(closes))


class DisguiseFuzzTest(unittest.TestCase):
    """Seeded fuzz: each disguise of the issue, applied to the lab's supported answer, is never supported
    (issue 31 adds statements split at code edges and the statements code makes, with the key's
    language forms)."""

    #: name -> disguise(rng, answer) -> the answer with it applied.
    DISGUISES: ClassVar[dict[str, Callable[[random.Random, str], str]]] = {
        "escaped backtick": lambda rng, a: a + rng.choice(["\\``{}`", "`a\\`{}`", "\\`{}\\`"]).format(_other(rng)),
        "backtick in an autolink": lambda rng, a: a + f"<https://x.example/`>{_other(rng)}`",
        "look-alike equals": lambda rng, a: a + _other(rng).replace("=", rng.choice((*ISSUE_EQUALS, "⩵", "⊜"))),
        "look-alike equals in the form": lambda rng, a: a.replace(
            "existing_path=refuse", "existing_path" + rng.choice(ISSUE_EQUALS) + "refuse", 1
        ),
        "citation with references": lambda rng, a: (
            a
            + " "
            + _entity(
                rng,
                rng.choice(
                    [
                        "[source: quill-new-version:20]",
                        "[source: quill-draft:13]",
                        "[source: quill-conflicting-guide:15]",
                    ]
                ),
            )
        ),
        "claim's citation with references": lambda rng, a: a.replace(GUIDE, _entity(rng, GUIDE)),
        "other directive as code": lambda rng, a: (
            a
            + "\n"
            + rng.choice(["~~~\n{}\n~~~", "```\n{}\n```", "    {}", "<pre>{}</pre>", "<code>{}</code>"]).format(
                "@quill create_copy " + rng.choice(["existing_path=overwrite", "close_required=no"])
            )
        ),
        "evidence hidden": lambda rng, a: (
            "In Quill 1.0, create_copy overwrites an existing destination.\n"
            + rng.choice(
                [
                    "<!-- {} -->",
                    '[it](https://x.example "{}")',
                    '<span title="{}">it</span>',
                    "![{}](i.png)",
                    '\n[x]: https://x.example "{}"',
                ]
            ).format(a.replace("\n", " ").replace('"', "'"))
            + "\n"
        ),
        "form without backticks": lambda rng, a: a.replace(
            VALUE, rng.choice(["existing_path=overwrite, version=2.0", "existing_path=overwrite"]), 1
        ),
        "directive with a citation": lambda rng, a: (
            a
            + "\n@quill create_copy {} {}".format(
                rng.choice(["existing_path=overwrite", "close_required=no", "existing_path=refuse"]), GUIDE
            )
        ),
        "look-alike in the key": lambda rng, a: a + " " + _look_alike_key(rng),
        "statement split at a code edge": lambda rng, a: a + " " + _split_statement(rng),
        "statement code makes": lambda rng, a: a + _code_statement(rng),
    }

    def test_disguises_are_never_supported(self) -> None:
        corpus = load_documents(FIXTURE_MANIFEST)
        ready = gate(corpus, ["quill-guide", "quill-reference"], "1.0", "create_copy", "existing_path")
        self.assertEqual(check_answer(corpus, ready, SUPPORTED)["verdict"], "supported")
        rng = random.Random(FUZZ_SEED)
        applied = dict.fromkeys(self.DISGUISES, 0)
        lines = SUPPORTED.split("\n")
        for index in range(FUZZ_CASES):
            name = rng.choice(list(self.DISGUISES))
            cut = rng.randrange(1, len(lines) + 1)  # the disguise goes after a random line
            head = "\n".join(lines[:cut])
            disguised = self.DISGUISES[name](rng, head)
            if disguised == head:
                continue
            answer = disguised + rng.choice(["", "\n", "\r\n"]) + "\n".join(lines[cut:])
            if rng.random() < 0.3:
                answer = answer.replace("\n", "\r\n")
            applied[name] += 1
            verdict = check_answer(corpus, ready, answer)["verdict"]
            self.assertNotEqual(verdict, "supported", f"seed={FUZZ_SEED} case={index} {name}: {answer!r}")
        for name, count in applied.items():
            self.assertGreater(count, 0, name)


if __name__ == "__main__":
    unittest.main()
