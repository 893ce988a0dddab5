"""A table row's cells decided once (``_conflict_gate.reading.blocks.cell_spans``, GFM 4.10).

Issue 35 found two copies: the block rule's (markdown-it's split, to count a header row's cells) and
the answer reader's (its cells' spans), which split at a pipe after two backslashes where cmark-gfm
and markdown-it keep it in the cell. The property test compares the rule with both former readings on
random rows (standard library ``random``, a fixed seed; ``CONFLICT_GATE_FUZZ_CASES`` rows, 300 by
default): they agree but where the answer reader's was wrong.
"""

from __future__ import annotations

import os
import random
import re
import unittest

from _conflict_gate.answer.reader import read_answer
from _conflict_gate.reading.blocks import cell_spans, table_cells

FUZZ_CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", "300"))
SEED = int(os.environ.get("CONFLICT_GATE_FUZZ_SEED", "35"))

_PIECES = ("|", "|", "\\", "\\\\", " ", "\t", "a", "`", "-", ":")


def _markdown_it_split(row: str) -> list[str]:
    """markdown-it's ``escapedSplit`` and its dropping of an empty first and last cell, as the block
    rule had it."""
    cells, current, last, escaped = [], "", 0, False
    for i, ch in enumerate(row):
        if ch == "|":
            if not escaped:
                cells.append(current + row[last:i])
                current, last = "", i + 1
            else:
                current += row[last : i - 1]
                last = i
        escaped = ch == "\\"
    cells.append(current + row[last:])
    if cells and cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return cells


def _answer_split(row: str) -> list[tuple[int, int]]:
    """The answer reader's former split (untrimmed): a ``\\`` skipped the character after it."""
    cuts, i = [], 0
    while i < len(row):
        if row[i] == "\\":
            i += 2
            continue
        if row[i] == "|":
            cuts.append(i)
        i += 1
    bounds = [-1, *cuts, len(row)]
    cells = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
    if cells and row[: cells[0][1]].strip(" \t") == "" and cuts and cuts[0] == cells[0][1]:
        cells = cells[1:]
    if cells and row[cells[-1][0] :].strip(" \t") == "" and cuts and cuts[-1] + 1 == cells[-1][0]:
        cells = cells[:-1]
    return cells


class CellSpansTest(unittest.TestCase):
    def test_documented_cases(self) -> None:
        """Leading and trailing pipes, escaped pipes (after one or two backslashes), pipes in code."""
        self.assertEqual(cell_spans("| a | b |"), [(1, 4), (5, 8)])
        self.assertEqual(cell_spans("a | b"), [(0, 2), (3, 5)])
        self.assertEqual(cell_spans("| a \\| b |"), [(1, 9)])
        self.assertEqual(cell_spans("| a \\\\| b |"), [(1, 10)])
        self.assertEqual(cell_spans("| `a | b` |"), [(1, 5), (6, 10)])
        self.assertEqual(cell_spans("|"), [])
        self.assertEqual(cell_spans("x | a |", 4), [(4, 6)])
        self.assertEqual(table_cells("| a \\| b |"), [" a | b "])

    def test_rule_matches_the_block_rules_former_split(self) -> None:
        """On rows as the block rule passes them (from the first non-space character, trailing spaces
        removed), the cells are the ones markdown-it's split gives."""
        rng = random.Random(SEED)
        for _ in range(FUZZ_CASES):
            row = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 10))).strip(" \t")
            with self.subTest(row=row):
                self.assertEqual(table_cells(row), _markdown_it_split(row))

    def test_rule_matches_the_answer_readers_former_split(self) -> None:
        """On any row that is not blank and has no pipe after two or more backslashes, the cells are the
        ones the answer reader found (its ``\\`` escaped any character)."""
        rng = random.Random(SEED + 1)
        for _ in range(FUZZ_CASES):
            row = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 10)))
            if not row.strip(" \t") or re.search(r"\\\\\|", row):
                continue
            with self.subTest(row=row):
                self.assertEqual(cell_spans(row), _answer_split(row))

    def test_answer_cells_split_as_renderers_do(self) -> None:
        """Regression (issue 35): the answer reader split a row at a pipe after two backslashes (``\\\\|``),
        so the words after it were read as a cell past the header's count, hidden; cmark-gfm and
        markdown-it keep that pipe in the cell, and a chat window shows the words."""
        (block,) = read_answer("| x |\n|---|\n| c \\\\| d |\n").blocks
        self.assertEqual(block.kind, "table")
        self.assertEqual(block.hidden, ())
        self.assertIn("d", block.shown.text)

    def test_pipe_after_two_backslashes_is_kept_by_the_renderers(self) -> None:
        """The disagreement's evidence, stated where both renderers are installed (the oracles env)."""
        try:
            import cmarkgfm  # type: ignore[import-not-found,unused-ignore]
            import markdown_it
        except ImportError:
            self.skipTest("needs cmarkgfm and markdown-it-py (the oracles environment)")
        text = "| x |\n|---|\n| c \\\\| d |\n"
        for html in (cmarkgfm.github_flavored_markdown_to_html(text), markdown_it.MarkdownIt("gfm-like").render(text)):
            self.assertEqual(re.findall(r"<td>(.*?)</td>", html), ["c | d"])


if __name__ == "__main__":
    unittest.main()
