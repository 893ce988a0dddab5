"""The reader's shortcuts read exactly as its rules do: a quiet paragraph (a directive inside a long
paragraph whose only inline construct is code spans) and the lines scanned for claims stated under
another at-word (only those holding an ``=``, a reference or U+FF1D/U+FE66).

``CONFLICT_GATE_FUZZ_CASES`` (default 40; ``.ci/run``: 1,000) is the number of generated paragraphs per
renderer.
"""

from __future__ import annotations

import os
import random
import unittest

from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.candidates import stated_keys as _stated_keys
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.reader_lines import _quiet_paragraph
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.support import QUILL_GRAMMAR
from tests.test_reader import outcome

CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "40"))
GRAMMAR = grammar_from_json(QUILL_GRAMMAR)

#: Pieces of paragraph lines: prose, code spans opened and closed on other lines, loud characters,
#: look-alikes, directive-shaped text in code.
WORDS = (
    "copy",
    "the",
    "file",
    "naïve",
    "→",
    "`x`",
    "``a ` b``",
    "`",
    "``",
    "`@quill create_copy existing_path=refuse`",
    "*",
    "_",
    "[a]",
    "<b>",
    "&amp;",
    "\\",
    "docs@quill.example",
    "(@team)",
    "@quill",
    "x=y",
    "café",
    "|",
    "$",
)
DIRECTIVES = (
    "@quill create_copy existing_path=refuse",
    "@quill create_copy close_required=no",
    "@quill create_copy existing_path=maybe",
    "@quill create_copy existing_path=refuse  ",
    " @quill create_copy existing_path=refuse",
    "@quill create_copy existing_path=refuse `",
)


class QuietParagraphTest(unittest.TestCase):
    maxDiff = None

    def paragraph(self, rng: random.Random) -> str:
        lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 30))]
        for _ in range(rng.randint(1, 3)):
            lines.insert(rng.randint(0, len(lines)), rng.choice(DIRECTIVES))
        return "# Title\n\n" + "\n".join(lines) + "\n"

    def test_a_quiet_paragraph_reads_as_the_inline_rules_read_it(self) -> None:
        """Guards against the shortcut counting a directive that a code span, emphasis, a link or raw
        HTML around it would hide or change (and against it refusing what the rules count)."""
        rng = random.Random(20261201)
        taken = 0
        for name in ("github", "commonmark"):
            renderer = RENDERER_VALUES[name]
            for case in range(CASES):
                text = self.paragraph(rng)
                with self.subTest(renderer=name, case=case, text=text):
                    fast = read_directives(text, GRAMMAR, renderer=renderer)
                    slow = read_directives(text, GRAMMAR, renderer=renderer, fast=False)
                    self.assertEqual(outcome(fast), outcome(slow))
        # the shortcut is taken on the plainest of these pages (prose and code spans only)
        for _case in range(200):
            lines = [" ".join(rng.choice(WORDS[:7]) for _ in range(6)) for _ in range(40)]
            lines.insert(rng.randint(1, 39), DIRECTIVES[0])
            text = "\n".join(lines) + "\n"
            fast = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES["github"])
            slow = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES["github"], fast=False)
            self.assertEqual(outcome(fast), outcome(slow), text)
            taken += bool(fast.claims)
        self.assertGreater(taken, 0)

    def test_a_directive_inside_a_code_span_across_lines_is_code(self) -> None:
        text = "Some `code that\n@quill create_copy existing_path=refuse\ngoes on` here.\n"
        reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES["github"])
        self.assertEqual(reading.claims, ())
        self.assertEqual([miss.where for miss in reading.near_misses], ["code"])
        self.assertIsNotNone(_quiet_paragraph)

    def test_a_directive_after_closed_code_spans_counts(self) -> None:
        text = "Some `code` and ``more ` code`` then\n@quill create_copy existing_path=refuse\nand `x`.\n"
        reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES["github"])
        self.assertEqual([(claim.line, claim.value) for claim in reading.claims], [(2, "refuse")])


class StatedKeysTest(unittest.TestCase):
    def test_only_lines_with_an_equals_are_scanned_and_the_matches_are_the_same(self) -> None:
        """Guards against the line scan missing a claim stated under another at-word."""
        rng = random.Random(15)
        pieces = (
            b"existing_path",
            b"CLOSE_REQUIRED",
            b"=",
            b"&#61;",
            b"&#x3D;",
            b"&equals;",
            b"\xef\xbc\x9d",
            b"\xef\xb9\xa6",
            b" ",
            b"\t",
            b"\n",
            b"\r",
            b"\r\n",
            b"a",
            b"_",
            b"-",
            b"@quill",
            b"&",
            b"\xef",
        )
        for case in range(20 * CASES):
            raw = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
            with self.subTest(case=case, raw=raw):
                self.assertEqual(
                    [m.span() for m in _stated_keys(raw, GRAMMAR)], [m.span() for m in GRAMMAR.stated_key.finditer(raw)]
                )


if __name__ == "__main__":
    unittest.main()
