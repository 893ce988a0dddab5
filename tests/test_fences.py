"""The fence rule in one place (``_conflict_gate.reading.fences``): each flavour's documented cases, and
the fast page-wide forms agreeing with it on generated lines.

Issue 35 found the opening and closing lines of a fenced code block decided by separate patterns in
seven files; they now call :func:`~_conflict_gate.reading.fences.opening_run` and
:func:`~_conflict_gate.reading.fences.closes`. The property tests compare the rule with the
behaviour each copy had (written out here, as each flavour's documented reading) on random fence-like
lines (standard library ``random``, a fixed seed; ``CONFLICT_GATE_FUZZ_CASES`` lines, 300 by default).
"""

from __future__ import annotations

import os
import random
import re
import unittest

from _conflict_gate.answer.reader import read_answer
from _conflict_gate.reading.blocks.scan import closing_fence, top_level_code_end
from _conflict_gate.reading.fences import COMMONMARK_FENCES, MDX_FENCES, MYST_FENCES, SUPERFENCES, closes, opening_run

FUZZ_CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "300"))
SEED = int(os.environ.get("CONFLICT_GATE_FUZZ_SEED", "35"))

_PIECES = ("`", "```", "````", "~", "~~~", "~~~~", ":::", "::::", " ", "  ", "\t", "x", "{ .py }", "py", "\r", ">")


def _line(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 6)))


def _commonmark_closes(line: str, at: int, char: str, length: int) -> bool:
    """§4.5's closing line as the block reader read it: the run, then only spaces or tabs."""
    found = re.compile(r"(?:`{3,}|~{3,})(?=[ \t]*\Z)").match(line, at)
    return line[at : at + 1] == char and found is not None and found.group()[0] == char and len(found.group()) >= length


class FenceRuleTest(unittest.TestCase):
    def test_documented_cases(self) -> None:
        """Each flavour's difference from CommonMark, as the module's docstring states it."""
        self.assertEqual(opening_run("```py", 0), "```")
        self.assertIsNone(opening_run("``` a`b", 0))  # a backtick in a backtick fence's info string
        self.assertEqual(opening_run("~~~ a`b", 0), "~~~")
        self.assertIsNone(opening_run(":::note", 0))
        self.assertEqual(opening_run(":::note", 0, MYST_FENCES), ":::")
        self.assertEqual(opening_run("``` { .py }", 0, SUPERFENCES), "```")
        self.assertIsNone(opening_run("``` py some words!", 0, SUPERFENCES))
        self.assertTrue(closes("````  ", 0, "`", 3))
        self.assertFalse(closes("```x", 0, "`", 3))
        self.assertFalse(closes("~~~", 0, "`", 3))
        self.assertFalse(closes(":::", 0, ":", 3))
        self.assertTrue(closes(":::", 0, ":", 3, MYST_FENCES))
        self.assertFalse(closes("````", 0, "`", 3, SUPERFENCES))  # superfences: exactly the opener's run
        self.assertTrue(closes("```", 0, "`", 3, SUPERFENCES))
        self.assertTrue(COMMONMARK_FENCES.may_close(3) and not COMMONMARK_FENCES.may_close(4))
        self.assertTrue(MDX_FENCES.may_close(12))

    def test_rule_matches_each_former_copy(self) -> None:
        """The rule and the readings the copies had (the block reader's, MyST's colon fences, MDX_FENCES's line
        scan, superfences' opener) agree on random fence-like lines."""
        rng = random.Random(SEED)
        superfence = re.compile(
            r"(`{3,}|~{3,})[ \t]*(?:\{[^\r\n{}]*\}|[\w#.+-]*[ \t]*(?:[A-Za-z][A-Za-z0-9_]*"
            r"(?:=(?:\"[^\"]*\"|'[^']*'))?[ \t]*)*)\Z",
            re.ASCII,
        )
        for _ in range(FUZZ_CASES):
            line = _line(rng).replace("\r", "") if rng.random() < 0.5 else _line(rng)
            char, length = rng.choice("`~:"), rng.randint(3, 5)
            with self.subTest(line=line, char=char, length=length):
                run = re.compile(r"`{3,}(?!.*`)|~{3,}").match(line)
                self.assertEqual(opening_run(line, 0), None if run is None else run.group())
                colon = run or re.compile(r":{3,}").match(line)
                self.assertEqual(opening_run(line, 0, MYST_FENCES), None if colon is None else colon.group())
                sf = superfence.match(line)
                self.assertEqual(opening_run(line, 0, SUPERFENCES), None if sf is None else sf.group(1))
                if char != ":":
                    self.assertEqual(closes(line, 0, char, length), _commonmark_closes(line, 0, char, length))
                colon_close = re.compile(r":{3,}(?=[ \t]*\Z)").match(line)
                expected = (
                    colon_close is not None and len(colon_close.group()) >= length
                    if char == ":"
                    else _commonmark_closes(line, 0, char, length)
                )
                self.assertEqual(closes(line, 0, char, length, MYST_FENCES), expected)
                if char != ":":  # MDX_FENCES's line scan: the run after quotes and spaces, then spaces, tabs, CRs
                    stripped = line.lstrip(" \t>")
                    count = len(stripped) - len(stripped.lstrip(char))
                    old = count >= length and not stripped[count:].strip(" \t\r")
                    self.assertEqual(closes(stripped.rstrip(" \t\r"), 0, char, length, MDX_FENCES), old)

    def test_page_wide_search_agrees(self) -> None:
        """:func:`closing_fence` (the fast page-wide form) finds the first line the rule closes with:
        0-3 spaces, then :func:`closes`."""
        rng = random.Random(SEED + 1)
        for _ in range(max(FUZZ_CASES // 10, 10)):
            lines = [_line(rng).replace("\r", "").replace("\t", " ") for _ in range(rng.randint(1, 8))]
            view = "\n".join(lines) + "\n"
            char, length = rng.choice("`~"), rng.randint(3, 4)
            expected, start = -1, 0
            for line in lines:
                body = line.lstrip(" ")
                if len(line) - len(body) <= 3 and closes(body, 0, char, length):
                    expected = start
                    break
                start += len(line) + 1
            with self.subTest(view=view, char=char, length=length):
                self.assertEqual(closing_fence(view, 0, char, length), expected)

    def test_mdx_top_level_code_agrees(self) -> None:
        """:func:`top_level_code_end` (MDX's search for the fenced code an ``import``/``export`` line sits
        in) once wrote its own opener and closer patterns; it now uses the rule: a line whose very start
        :func:`opening_run` opens (not ``mdx-code-block``), ended by the first later line that, after
        spaces, tabs and ``>``, :func:`closes` under :data:`MDX_FENCES`, or by the page's end."""
        for view, at, expected in (
            ("```js\nexport x\n  > ```\nexport y\n", 6, 22),  # closed in a quote, indented
            ("```js\nexport x\n```\nexport y\n", 19, 19),  # after the code: not in it
            ("````\n```\nexport x\n", 9, 18),  # a shorter run does not close: to the page's end
            ("```mdx-code-block\nexport x\n```\n", 18, 18),  # Docusaurus unwraps this fence: MDX
        ):
            with self.subTest(view=view):
                self.assertEqual(top_level_code_end(view, -1, at), expected)
        rng = random.Random(SEED + 2)
        for _ in range(FUZZ_CASES):
            lines = [_line(rng).replace("\r", "") for _ in range(rng.randint(1, 8))]
            view = "\n".join(lines) + "\n"
            starts = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines) + 1)]
            for at_line in range(len(lines)):
                at, expected, opener = starts[at_line], starts[at_line], None
                for line in lines[:at_line]:
                    if opener is None:
                        opener = opening_run(line, 0)
                        opener = (
                            None if opener is None or line[len(opener) :].strip(" \t") == "mdx-code-block" else opener
                        )
                    else:
                        body = line.lstrip(" \t>")
                        if closes(body, 0, opener[0], len(opener), MDX_FENCES):
                            opener = None
                if opener is not None:  # the line at ``at`` is in the code: where does the code end?
                    expected = len(view)
                    for k in range(at_line, len(lines)):
                        body = lines[k].lstrip(" \t>")
                        if closes(body, 0, opener[0], len(opener), MDX_FENCES):
                            expected = starts[k] + len(lines[k])
                            break
                with self.subTest(view=view, at=at):
                    self.assertEqual(top_level_code_end(view, -1, at), expected)


class AnswerFenceTest(unittest.TestCase):
    def test_indented_fence_run_stays_code(self) -> None:
        """Regression (issue 35): the answer reader took a last line of code indented four columns or more
        (```` ```` ```` after four spaces) for the closing fence and left it out of what a chat window
        shows; cmark-gfm and markdown-it show it as code, as the block reader does."""
        for text, shown in (
            ("```python\ncode\n    ```\n", "code\n    ```"),
            ("- ```\n  x\n      ```\n", "x\n    ```"),
            ("```\ncode\n   ```\n", "code"),
            ("> ```\n> x\n>    ```\n", "x"),
        ):
            with self.subTest(text=text):
                (block,) = read_answer(text).blocks
                self.assertEqual(block.kind, "fenced_code")
                self.assertEqual(block.shown.text, shown)

    def test_info_string_hidden(self) -> None:
        """The info string (not its spaces) is hidden, as before the rule moved."""
        (block,) = read_answer(" ```python  \ncode\n ```\n").blocks
        self.assertEqual(block.hidden, ((4, 10),))


if __name__ == "__main__":
    unittest.main()
