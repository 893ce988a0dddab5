"""The construct table and the flavours: a construct is one record, a flavour is a value.

A toy construct (a ``%%%``-fenced comment that hides its lines) is defined
here, in the test, as one :class:`Construct` record, and put in a toy
flavour's table; ``parse_blocks`` reads with it, line by line and with the
shortcuts, and no other module knows it. Which readings a page is judged
against is a choice of the flavour's ``variants``: judged by GitHub's
reading alone, a table is no longer in doubt, while what GitHub does and the
gate does not model (footnotes) still is. The quick reject and the rules
tried per character are derived from the table.
"""

from __future__ import annotations

import random
import unittest
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from _conflict_gate.reading.blocks import (
    BLOCK_STARTS,
    GFM_CONSTRUCTS,
    GITHUB,
    MARKDOWN_IT,
    WITHOUT_FRONT_MATTER,
    WITHOUT_TABLES,
    Block,
    Body,
    Construct,
    Continue,
    Flavour,
    Opener,
    Start,
    State,
    inserted,
    parse_blocks,
    without,
)
from tests.test_blocks import CODE, DEF, FM, D, Outline, P, T, _row, comparable, every_offset, random_page

COMMENT = "comment"


def _comment_line(line: str, at: int) -> bool:
    return line.startswith("%%%", at)


def comment_start(s: State, container: Block[Any]) -> Start:
    """Toy: a line of ``%%%`` (0-3 spaces in) opens a comment, which may interrupt a paragraph."""
    if s.indented or not _comment_line(s.line, s.next_nonspace):
        return Start.NONE
    s.close_unmatched()
    s.add_child(COMMENT, None)
    return Start.LEAF


def comment_continues(s: State, block: Block[Any]) -> Continue:
    """Toy: every line up to the next ``%%%`` line (0-3 spaces in), which the comment takes too."""
    if not s.indented and _comment_line(s.line, s.next_nonspace):
        block.add((s.line_no, s.pos + s.next_nonspace, s.line_end))
        s.close()
        return Continue.LINE_CONSUMED
    return Continue.MATCHED


def comment_end(view: str, line_start: int, line_end: int) -> int:
    """Toy: where a top-level comment opened on this line ends (it stays open over blank lines)."""
    i = line_end + 1
    while i < len(view):
        eol = view.find("\n", i)
        text = view[i:eol]
        if len(text) - len(text.lstrip(" ")) <= 3 and text.lstrip(" ").startswith("%%%"):
            return eol + 1
        i = eol + 1
    return len(view)


#: The one record that adds the construct.
COMMENT_BLOCK = Construct(
    COMMENT,
    COMMENT,
    "a toy: %%% fences a comment",
    Body.RAW,
    comment_continues,
    start=comment_start,
    first=frozenset("%"),
    opener=Opener(("%%%",), comment_end),
)
#: A flavour whose table has it, tried before fenced code; judged by its own reading alone.
TOY = replace(
    GITHUB, name="toy", constructs=inserted(GITHUB.constructs, COMMENT_BLOCK, before="fenced_code"), variants=()
)


def outline(text: str, flavour: Flavour, *, fast: bool = True) -> Outline:
    return [_row(text, leaf) for leaf in parse_blocks(text, every_offset(text), fast=fast, flavour=flavour)]


def doubted(text: str, flavour: Flavour) -> dict[tuple[str, int], int | None]:
    """``(kind, 1-based first line) -> the 1-based line the doubt names`` (``None``: no doubt)."""
    return {
        (leaf.kind, leaf.lines[0][0] + 1): None if leaf.doubt is None else leaf.doubt[0] + 1
        for leaf in parse_blocks(text, every_offset(text), flavour=flavour)
    }


class ToyConstructTest(unittest.TestCase):
    maxDiff = None
    CASES: Sequence[tuple[str, Outline]] = (
        (f"%%%\nhidden {D}\n%%%\nafter\n", [(COMMENT, (1, 2, 3), ""), (P, (4,), "")]),
        ("para\n%%%\nx\n%%%\n", [(P, (1,), ""), (COMMENT, (2, 3, 4), "")]),  # it interrupts a paragraph
        ("%%%\nx\n\n# no heading\n\n%%%\nafter\n", [(COMMENT, (1, 2, 3, 4, 5, 6), ""), (P, (7,), "")]),
        ("   %%%\nx\n   %%%\n", [(COMMENT, (1, 2, 3), "")]),
        ("    %%%\n", [(CODE, (1,), "")]),  # indented 4: code
        ("%%%\nunclosed\n\nstill\n", [(COMMENT, (1, 2, 3, 4), "")]),
        ("> %%%\n> x\nnot lazy\n", [(COMMENT, (1, 2), "quote@1"), (P, (3,), "")]),
        ("- %%%\n  x\n  %%%\nafter\n", [(COMMENT, (1, 2, 3), "item@1"), (P, (4,), "")]),
        ("```\n%%%\n```\n", [("fenced_code", (1, 2, 3), "")]),  # code hides it
        ("%%%\n```\n%%%\n\n```\nx\n```\n", [(COMMENT, (1, 2, 3), ""), ("fenced_code", (5, 6, 7), "")]),
    )

    def test_one_record_adds_a_construct(self) -> None:
        """The toy flavour reads its comments; both ways (with and without the shortcuts) alike."""
        for text, expected in self.CASES:
            for fast in (True, False):
                with self.subTest(text=text, fast=fast):
                    self.assertEqual(outline(text, TOY, fast=fast), expected)

    def test_other_flavours_do_not_know_it(self) -> None:
        self.assertEqual(outline("%%%\nx\n%%%\n", GITHUB), [(P, (1, 2, 3), "")])
        self.assertNotIn(COMMENT, GITHUB.by_name)
        self.assertIn("%", TOY.maybe_special)
        self.assertEqual(TOY.opener_needles, ("%%%", "```", "~~~", "<"))

    def test_the_shortcuts_take_what_the_rules_take_with_the_toy(self) -> None:
        """The plain lines the shortcuts take are derived from the table, and the restart jumps follow
        the toy's opener: random pages with comments read the same with and without them."""
        rng = random.Random(20261201)
        compared = 0
        for _ in range(200):
            lines = random_page(rng).split("\n")
            for _ in range(rng.randint(1, 4)):
                lines.insert(rng.randint(0, len(lines)), rng.choice(["%%%", "  %%%", "    %%%", "> %%%", "- %%%"]))
            text = "\n".join(lines)
            for watch in ([i for i, ch in enumerate(text) if ch == "@"], every_offset(text)):
                if not watch:
                    continue
                compared += 1
                fast = comparable(text, watch, parse_blocks(text, watch, fast=True, flavour=TOY))
                slow = comparable(text, watch, parse_blocks(text, watch, fast=False, flavour=TOY))
                self.assertEqual(fast, slow, f"shortcuts read {text!r} otherwise")
        self.assertGreater(compared, 200)


class FlavourTest(unittest.TestCase):
    def test_the_quick_reject_is_derived_from_the_table(self) -> None:
        """The first characters some row may start a block on: what blocks.py once spelled out by hand."""
        self.assertEqual(GITHUB.maybe_special, frozenset("#`~*+_=<>0123456789-|:"))
        self.assertEqual(WITHOUT_TABLES.maybe_special, frozenset("#`~*+_=<>0123456789-"))
        self.assertEqual(
            [rule.__name__ for rule in GITHUB.starts["-"]], ["table", "setext_heading", "thematic_break", "list_item"]
        )
        self.assertEqual(GITHUB.indented_paragraph_starts, ())  # indented code cannot interrupt a paragraph
        self.assertEqual(
            [row.name for row in BLOCK_STARTS],
            [
                "block_quote",
                "atx_heading",
                "fenced_code",
                "html_block",
                "table",
                "setext_heading",
                "thematic_break",
                "list_item",
                "indented_code",
            ],
        )
        self.assertEqual(
            {row.name for row in GFM_CONSTRUCTS} - {row.name for row in BLOCK_STARTS}, {"paragraph", "list"}
        )

    def test_rows_are_named_once_and_name_their_spec_section(self) -> None:
        names = [row.name for row in GFM_CONSTRUCTS]
        self.assertEqual(len(names), len(set(names)))
        for row in GFM_CONSTRUCTS:
            with self.subTest(row=row.name):
                self.assertRegex(row.spec, r"^(CommonMark|GFM) [45]\.[0-9]+")

    def test_tables_are_built_from_tables(self) -> None:
        self.assertNotIn("table", WITHOUT_TABLES.by_name)
        self.assertEqual(without(GFM_CONSTRUCTS, "table"), WITHOUT_TABLES.constructs)
        with self.assertRaises(KeyError):
            without(GFM_CONSTRUCTS, "nope")
        with self.assertRaises(KeyError):
            inserted(GFM_CONSTRUCTS, COMMENT_BLOCK, before="nope")

    def test_a_flavour_is_a_value(self) -> None:
        """No rule asks which flavour it reads for (no identity checks): an equal copy reads the same,
        and only the primary reading notes where the others part from it."""
        copy = replace(GITHUB, name="copy")
        self.assertNotEqual(copy, GITHUB)
        self.assertEqual(replace(GITHUB), GITHUB)
        for text in (
            f"| a |\n| - |\n| {D} |\n",
            f"---\nx: 1\n---\n{D}\n",
            f"[a]: /u\n    {D}\n",
            f"[^1]: x\n{D}\n",
            f"> a |\n---\n{D}\n",
        ):
            with self.subTest(text=text):
                self.assertEqual(
                    parse_blocks(text, every_offset(text), flavour=copy), parse_blocks(text, every_offset(text))
                )
        self.assertTrue(GITHUB.primary)
        self.assertEqual([variant.flavour.primary for variant in GITHUB.variants], [False, False, False])
        self.assertEqual(
            [variant.flavour for variant in GITHUB.variants], [WITHOUT_FRONT_MATTER, WITHOUT_TABLES, MARKDOWN_IT]
        )


class JudgedByGitHubAloneTest(unittest.TestCase):
    """A flavour with no variants judges a page by its own reading: what it does not model stays in doubt."""

    GITHUB_ONLY = replace(GITHUB, name="github-only", variants=())

    def check(
        self, text: str, with_variants: dict[tuple[str, int], int | None], alone: dict[tuple[str, int], int | None]
    ) -> None:
        self.assertEqual(doubted(text, GITHUB), with_variants)
        self.assertEqual(doubted(text, self.GITHUB_ONLY), alone)

    def test_a_table(self) -> None:
        self.check(f"| a | b |\n| - | - |\n| 1 | 2 |\n\n{D}\n", {(T, 1): 1, (P, 5): None}, {(T, 1): None, (P, 5): None})

    def test_front_matter(self) -> None:
        self.check(f"---\nk: v\n...\n{D}\n", {(FM, 1): None, (P, 4): 1}, {(FM, 1): None, (P, 4): None})

    def test_markdown_it_readings(self) -> None:
        """A link definition then an indented line, and markdown-it's table rule tried before a quote."""
        self.check(f"[a]: /url\n    {D}\n", {(DEF, 1): None, (P, 2): 2}, {(DEF, 1): None, (P, 2): None})
        self.check(
            f"> a |\n---\n{D}\n\nafter\n",
            {(P, 1): 1, (P, 3): 1, (P, 5): None},
            {(P, 1): None, (P, 3): None, (P, 5): None},
        )

    def test_what_github_does_and_the_gate_does_not_model(self) -> None:
        """Footnotes and one-column tables are GitHub's own: in doubt whatever is compared."""
        self.check(f"[^1]: note\n{D}\n", {(DEF, 1): 1, (P, 2): 1}, {(DEF, 1): 1, (P, 2): 1})
        self.check(f"a\n:-\n{D}\n", {(P, 1): 1}, {(P, 1): 1})


if __name__ == "__main__":
    unittest.main()
