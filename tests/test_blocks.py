"""Block structure: the leaf blocks :func:`parse_blocks` reports, for every CommonMark 0.31.2 + GFM block kind.

Each case is a small page and the leaves a reader's renderer builds from it,
written as ``(kind, lines, where)``: ``kind`` is the leaf kind (an HTML block
carries its spec kind, ``html_block:6``), ``lines`` its 1-based editor lines
(blank lines of code blocks left out: they hold no text, and the spec keeps
trailing ones out of an indented code block anyway; other blocks keep
theirs), ``where`` the enclosing containers, outermost first (``quote@3 >
item@4``: a block quote that starts on line 3 holding a list item that
starts on line 4), or ``""`` at top level.
Thematic breaks are no leaves and never show up. The spec's sections are
named in each test; the spec text itself is not copied here.

Besides the hand-written cases: the shortcuts (``fast=True``) must give the
same leaves as the line-by-line rules on a seeded set of random pages; tabs
that a container marker consumes in part; nesting deeper than
:data:`MAX_DEPTH`; and the variant readings, which must put doubt on exactly
the blocks whose reading changes.
"""

from __future__ import annotations

import random
import re
import unittest
from collections.abc import Iterator, Sequence

from _conflict_gate.reading.blocks import MAX_DEPTH, Leaf, line_view, parse_blocks

P, H, T = "paragraph", "heading", "table"
FENCE, CODE, DEF, FM = "fenced_code", "indented_code", "link_definition", "front_matter"
D = "@quill create_copy existing_path=refuse"

Outline = list[tuple[str, tuple[int, ...], str]]


def byte_view(text: str) -> str:
    """``text`` as the reader gives it to :func:`parse_blocks`: its UTF-8 bytes, one character each (Latin-1)."""
    return text.encode("utf-8").decode("latin-1")


def every_offset(text: str) -> list[int]:
    """Watch every offset, so that every leaf block of the page is reported."""
    return list(range(len(text)))


def outline(text: str, *, fast: bool = True, watch: Sequence[int] | None = None) -> Outline:
    """The page's leaves as ``(kind, 1-based lines, where)`` (see the module docstring)."""
    leaves = parse_blocks(text, every_offset(text) if watch is None else watch, fast=fast)
    return [_row(text, leaf) for leaf in leaves]


def _row(text: str, leaf: Leaf) -> tuple[str, tuple[int, ...], str]:
    kind = f"html_block:{leaf.detail}" if leaf.kind == "html_block" else leaf.kind
    code = leaf.kind in (FENCE, CODE)
    lines = tuple(n + 1 for n, start, end in leaf.lines if not code or text[start:end].strip(" \t"))
    where = " > ".join(f"{'quote' if k == 'block_quote' else 'item'}@{line + 1}" for k, line in leaf.containers)
    return kind, lines, where


def last_characters(text: str) -> list[int]:
    """The offset of each line's last character before its line ending (lines that have one)."""
    return [i for i, ch in enumerate(text) if ch not in "\r\n" and text[i + 1 : i + 2] in ("", "\r", "\n")]


def contents(text: str, *, fast: bool = True) -> list[list[str]]:
    """Each leaf's lines as the text they hold (``Leaf.lines`` offsets, no line endings)."""
    return [
        [text[start:end] for _, start, end in leaf.lines] for leaf in parse_blocks(text, every_offset(text), fast=fast)
    ]


def doubts(text: str, *, fast: bool = True) -> dict[tuple[str, int], int | None]:
    """``(kind, first line) -> the 1-based line its doubt names`` (``None``: no doubt), for every leaf."""
    leaves = parse_blocks(text, every_offset(text), fast=fast)
    return {(leaf.kind, leaf.lines[0][0] + 1): None if leaf.doubt is None else leaf.doubt[0] + 1 for leaf in leaves}


class BlockTestCase(unittest.TestCase):
    maxDiff = None

    def check(self, cases: Sequence[tuple[str, Outline]]) -> None:
        """Every case's outline, both with the shortcuts and line by line.

        Watching every offset leaves the shortcuts little to skip, so each line's last character is
        also watched alone (as the gate watches an at sign): the leaf reported then must be one of
        the expected leaves, cut short at most after the watched line (the parser may stop there).
        """
        self.assertTrue(cases)
        for text, expected in cases:
            for fast in (True, False):
                with self.subTest(text=text, fast=fast):
                    self.assertEqual(outline(text, fast=fast), expected)
                    for offset in last_characters(text):
                        for kind, lines, where in outline(text, fast=fast, watch=[offset]):
                            self.assertTrue(
                                any(
                                    kind == k and where == w and lines == full[: len(lines)] for k, full, w in expected
                                ),
                                f"watching offset {offset} alone gives {(kind, lines, where)}",
                            )


class ContainerTest(BlockTestCase):
    def test_block_quotes(self) -> None:
        """5.1: markers, one optional space, lazy continuation of a paragraph only."""
        self.check(
            [
                ("> a\n> b\n", [(P, (1, 2), "quote@1")]),
                (">a\n", [(P, (1,), "quote@1")]),
                ("   > a\n", [(P, (1,), "quote@1")]),
                ("    > a\n", [(CODE, (1,), "")]),
                ("> a\nlazy\n", [(P, (1, 2), "quote@1")]),
                ("> a\n\nafter\n", [(P, (1,), "quote@1"), (P, (3,), "")]),
                ("> a\n\n> b\n", [(P, (1,), "quote@1"), (P, (3,), "quote@3")]),
                ("> a\n>\n> b\n", [(P, (1,), "quote@1"), (P, (3,), "quote@1")]),
                ("> > a\n> > b\n", [(P, (1, 2), "quote@1 > quote@1")]),
                ("> > a\nlazy\n", [(P, (1, 2), "quote@1 > quote@1")]),
                ("> > a\n> b\n", [(P, (1, 2), "quote@1 > quote@1")]),
                ("> # h\nnot lazy\n", [(H, (1,), "quote@1"), (P, (2,), "")]),
                ("> ```\n> code\nnot lazy\n", [(FENCE, (1, 2), "quote@1"), (P, (3,), "")]),
                (">     code\nnot lazy\n", [(CODE, (1,), "quote@1"), (P, (2,), "")]),
                # A setext underline cannot be lazy: the ``---`` is a thematic break.
                ("> a\n---\n", [(P, (1,), "quote@1")]),
                ("para\n> q\n", [(P, (1,), ""), (P, (2,), "quote@2")]),
            ]
        )

    def test_list_items(self) -> None:
        """5.2 and 5.3: markers, content indentation, continuation, lazy lines, blank lines."""
        self.check(
            [
                ("- a\n- b\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
                ("* a\n+ b\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
                ("1. a\n2) b\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
                ("10) x\n", [(P, (1,), "item@1")]),
                ("123456789. x\n", [(P, (1,), "item@1")]),
                ("1234567890. x\n", [(P, (1,), "")]),
                ("-one\n", [(P, (1,), "")]),
                # Continuation: as many columns as the marker and the spaces after it.
                ("- a\n\n  b\n", [(P, (1,), "item@1"), (P, (3,), "item@1")]),
                ("- a\n\n b\n", [(P, (1,), "item@1"), (P, (3,), "")]),
                ("1.  a\n\n    b\n", [(P, (1,), "item@1"), (P, (3,), "item@1")]),
                ("1.  a\n\n   b\n", [(P, (1,), "item@1"), (P, (3,), "")]),
                ("- a\n     b\n", [(P, (1, 2), "item@1")]),
                # Five or more spaces after the marker: one belongs to it, the rest make indented code.
                ("-     code\n", [(CODE, (1,), "item@1")]),
                ("-    a\n", [(P, (1,), "item@1")]),
                ("- a\n\n      code\n", [(P, (1,), "item@1"), (CODE, (3,), "item@1")]),
                # Lazy continuation lines.
                ("- a\nlazy\n", [(P, (1, 2), "item@1")]),
                ("- a\n  - b\nlazy\n", [(P, (1,), "item@1"), (P, (2, 3), "item@1 > item@2")]),
                ("- a\n\nnot lazy\n", [(P, (1,), "item@1"), (P, (3,), "")]),
                # At most one blank line at the start of an item.
                ("-\n  foo\n", [(P, (2,), "item@1")]),
                ("-\n\n  foo\n", [(P, (3,), "")]),
                # Nesting.
                (
                    "- a\n  - b\n    - c\n",
                    [(P, (1,), "item@1"), (P, (2,), "item@1 > item@2"), (P, (3,), "item@1 > item@2 > item@3")],
                ),
                ("- a\n - b\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
                ("- > q\n", [(P, (1,), "item@1 > quote@1")]),
                ("> - a\n> - b\n", [(P, (1,), "quote@1 > item@1"), (P, (2,), "quote@1 > item@2")]),
                # Other blocks end an item that does not continue.
                ("- a\n# h\n", [(P, (1,), "item@1"), (H, (2,), "")]),
                ("- a\n***\n", [(P, (1,), "item@1")]),
                ("- ```\n  x\nafter\n", [(FENCE, (1, 2), "item@1"), (P, (3,), "")]),
            ]
        )

    def test_list_item_interrupting_a_paragraph(self) -> None:
        """5.2: only a non-empty item interrupts a paragraph, and an ordered one only when it starts at 1."""
        self.check(
            [
                ("para\n- x\n", [(P, (1,), ""), (P, (2,), "item@2")]),
                ("para\n1. x\n", [(P, (1,), ""), (P, (2,), "item@2")]),
                ("para\n1) x\n", [(P, (1,), ""), (P, (2,), "item@2")]),
                ("para\n2. x\n", [(P, (1, 2), "")]),
                ("para\n14. x\n", [(P, (1, 2), "")]),
                ("para\n*\n", [(P, (1, 2), "")]),
                ("para\n1.\n", [(P, (1, 2), "")]),
                ("para\n-\n", [(H, (1,), "")]),  # a setext underline, not an empty item
                # Inside a list, a new item of another number continues the list.
                ("1. a\n7. b\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
            ]
        )

    def test_task_list_items(self) -> None:
        """GFM task-list items are list items whose box is inline content of their paragraph."""
        self.check(
            [
                ("- [ ] todo\n- [x] done\n", [(P, (1,), "item@1"), (P, (2,), "item@2")]),
                ("1. [x] done\n", [(P, (1,), "item@1")]),
                ("* [X] done\n  more\n", [(P, (1, 2), "item@1")]),
                ("> - [ ] quoted\n", [(P, (1,), "quote@1 > item@1")]),
            ]
        )
        self.assertEqual(contents("- [ ] todo\n"), [["[ ] todo"]])


class LeafTest(BlockTestCase):
    def test_atx_headings(self) -> None:
        """4.2: one to six ``#`` then a space, a tab or the end; 0-3 spaces in; interrupts a paragraph."""
        self.check(
            [
                ("# h1\n###### h6\n", [(H, (1,), ""), (H, (2,), "")]),
                ("####### seven\n", [(P, (1,), "")]),
                ("#no\n", [(P, (1,), "")]),
                ("#\tTab\n", [(H, (1,), "")]),
                ("   # three\n", [(H, (1,), "")]),
                ("    # four\n", [(CODE, (1,), "")]),
                ("para\n# h\nnext\n", [(P, (1,), ""), (H, (2,), ""), (P, (3,), "")]),
                ("# h #\n", [(H, (1,), "")]),
                ("\\# escaped\n", [(P, (1,), "")]),
            ]
        )
        self.assertEqual(contents("  ## Title ##\n"), [["## Title ##"]])

    def test_setext_headings(self) -> None:
        """4.3: a ``=`` or ``-`` underline under a paragraph that the line continues (never lazily)."""
        self.check(
            [
                ("Title\n===\n", [(H, (1,), "")]),
                ("Title\n---\n", [(H, (1,), "")]),
                ("two\nlines\n---\n", [(H, (1, 2), "")]),
                ("Title\n   ===  \n", [(H, (1,), "")]),
                ("Title\n    ===\n", [(P, (1, 2), "")]),
                ("Title\n= =\n", [(P, (1, 2), "")]),
                ("> Title\n===\n", [(P, (1, 2), "quote@1")]),  # lazy text, not an underline
                ("- Title\n---\n", [(P, (1,), "item@1")]),  # a thematic break after the item
                ("- Title\n  ---\n", [(H, (1,), "item@1")]),
                ("\n===\n", [(P, (2,), "")]),
                # The definitions come off first; with no text left there is no heading.
                ("[a]: /url\n===\n", [(DEF, (1,), ""), (P, (2,), "")]),
                ("[a]: /url\nTitle\n===\n", [(DEF, (1,), ""), (H, (2,), "")]),
            ]
        )

    def test_thematic_breaks(self) -> None:
        """4.1: breaks are no leaves; they end paragraphs and win over list items."""
        self.check(
            [
                ("***\n---\n___\n", []),
                (" * * *\n-\t-\t-\n", []),
                ("a\n***\nb\n", [(P, (1,), ""), (P, (3,), "")]),
                ("- - -\n", []),
                ("* * *\n- a\n", [(P, (2,), "item@2")]),
                ("**\n", [(P, (1,), "")]),
                ("x\n\n--- x\n", [(P, (1,), ""), (P, (3,), "")]),
                ("    ***\n", [(CODE, (1,), "")]),
            ]
        )

    def test_fenced_code(self) -> None:
        """4.5: backtick or tilde fences, closers at least as long, unclosed to the end of the container."""
        self.check(
            [
                ("```\nx\n```\nafter\n", [(FENCE, (1, 2, 3), ""), (P, (4,), "")]),
                ("~~~ info\nx\n~~~~\n", [(FENCE, (1, 2, 3), "")]),
                ("````\n```\n````\n", [(FENCE, (1, 2, 3), "")]),
                ("~~~\n```\n~~~\n", [(FENCE, (1, 2, 3), "")]),
                ("```\n~~~\n```\n", [(FENCE, (1, 2, 3), "")]),
                ("```\nx\n``` not a closer\n```\n", [(FENCE, (1, 2, 3, 4), "")]),
                ("```\nunclosed\n\nstill code\n", [(FENCE, (1, 2, 4), "")]),
                ("``` a`b\n", [(P, (1,), "")]),  # a backtick in a backtick fence's info string
                ("~~~ a`b\nx\n~~~\n", [(FENCE, (1, 2, 3), "")]),
                ("``\nx\n``\n", [(P, (1, 2, 3), "")]),
                ("   ```\n   x\n   ```\n", [(FENCE, (1, 2, 3), "")]),
                ("    ```\n", [(CODE, (1,), "")]),
                ("```\nx\n    ```\n", [(FENCE, (1, 2, 3), "")]),  # an indented closer is content
                ("para\n```\nx\n```\n", [(P, (1,), ""), (FENCE, (2, 3, 4), "")]),
                ("> ```\n> x\n\nafter\n", [(FENCE, (1, 2), "quote@1"), (P, (4,), "")]),
            ]
        )

    def test_indented_code(self) -> None:
        """4.4: four columns of indentation; blank lines inside; never interrupts a paragraph."""
        self.check(
            [
                ("    a\n    b\n", [(CODE, (1, 2), "")]),
                ("    a\n\n    b\npara\n", [(CODE, (1, 3), ""), (P, (4,), "")]),
                ("    a\n\n\npara\n", [(CODE, (1,), ""), (P, (4,), "")]),
                ("\tx\n", [(CODE, (1,), "")]),
                ("  \tx\n", [(CODE, (1,), "")]),
                ("para\n    not code\n", [(P, (1, 2), "")]),
                ("# h\n    code\n", [(H, (1,), ""), (CODE, (2,), "")]),
            ]
        )
        self.assertEqual(contents("    a\n      b\n", fast=False), [["a", "  b"]])

    def test_html_blocks_of_every_kind(self) -> None:
        """4.6: the seven start conditions, and where each kind ends."""
        self.check(
            [
                # 1: <pre>, <script>, <style>, <textarea>; ends at the line with any of their end tags.
                ("<pre>\nx\n\nstill\n</pre>\nafter\n", [("html_block:1", (1, 2, 3, 4, 5), ""), (P, (6,), "")]),
                ("<script>\n@x\n</script>\nafter\n", [("html_block:1", (1, 2, 3), ""), (P, (4,), "")]),
                ("<style\ntype='a'>\n\n</style> tail\nafter\n", [("html_block:1", (1, 2, 3, 4), ""), (P, (5,), "")]),
                ("<TEXTAREA>\nx\n</textarea>\n", [("html_block:1", (1, 2, 3), "")]),
                ("<script>\nx\n</pre>\nafter\n", [("html_block:1", (1, 2, 3), ""), (P, (4,), "")]),
                ("<pre>x</pre>\nafter\n", [("html_block:1", (1,), ""), (P, (2,), "")]),
                # 2: comments, to the line with -->.
                ("<!-- c\n\nc -->\nafter\n", [("html_block:2", (1, 2, 3), ""), (P, (4,), "")]),
                ("<!-- one line -->\nafter\n", [("html_block:2", (1,), ""), (P, (2,), "")]),
                # 3: processing instructions, to ?>.
                ("<?php\n\n?>\nafter\n", [("html_block:3", (1, 2, 3), ""), (P, (4,), "")]),
                # 4: declarations, to >.
                ("<!DOCTYPE html\n\n>\nafter\n", [("html_block:4", (1, 2, 3), ""), (P, (4,), "")]),
                ("<!DOCTYPE html>\nafter\n", [("html_block:4", (1,), ""), (P, (2,), "")]),
                # 5: CDATA, to ]]>.
                ("<![CDATA[\n\n]]>\nafter\n", [("html_block:5", (1, 2, 3), ""), (P, (4,), "")]),
                # 6: block-level tag names (open or closing, complete or not); ends before a blank line.
                ("<div>\nx\n\nafter\n", [("html_block:6", (1, 2), ""), (P, (4,), "")]),
                ("</div>\n", [("html_block:6", (1,), "")]),
                ("<div\n", [("html_block:6", (1,), "")]),
                ("  <DETAILS open>\n", [("html_block:6", (1,), "")]),
                (
                    "<details>\n<summary>s</summary>\n\npara\n</details>\n",
                    [("html_block:6", (1, 2), ""), (P, (4,), ""), ("html_block:6", (5,), "")],
                ),
                ("para\n<div>\nhtml\n", [(P, (1,), ""), ("html_block:6", (2, 3), "")]),
                ("    <div>\n", [(CODE, (1,), "")]),
                # 7: any other complete tag alone on its line; ends before a blank line; cannot interrupt.
                ("<custom-tag>\nx\n\nafter\n", [("html_block:7", (1, 2), ""), (P, (4,), "")]),
                ("<a href=\"x\" title='t'>\nx\n", [("html_block:7", (1, 2), "")]),
                ("</span>\n", [("html_block:7", (1,), "")]),
                ("<pre2>\n", [("html_block:7", (1,), "")]),
                ('<a href="x"> trailing text\n', [(P, (1,), "")]),
                ('<em\nclass="x">text\n', [(P, (1, 2), "")]),
                ('para\n<a href="x">\nstill para\n', [(P, (1, 2, 3), "")]),
                ("- item\n<span>\n", [(P, (1, 2), "item@1")]),  # a lazy line, not a block
            ]
        )

    def test_link_reference_definitions(self) -> None:
        """4.7: definitions open a paragraph; a title may span lines; a failed title leaves what came before."""
        self.check(
            [
                ("[a]: /url\n", [(DEF, (1,), "")]),
                ("[a]: /url\npara\n", [(DEF, (1,), ""), (P, (2,), "")]),
                ("[a]: /url 'title'\n", [(DEF, (1,), "")]),
                ("[a]:\n/url\n", [(DEF, (1, 2), "")]),
                ("[a]: /url\n'title'\n", [(DEF, (1, 2), "")]),
                # A title over several lines.
                ('[a]: /url "one\ntwo\nthree"\npara\n', [(DEF, (1, 2, 3), ""), (P, (4,), "")]),
                # A failed title: something after it on its line.
                ('[a]: /url "title" junk\n', [(P, (1,), "")]),
                ('[a]: /url\n"title" junk\n', [(DEF, (1,), ""), (P, (2,), "")]),
                # A title cut by a blank line fails, and the destination does not end its line.
                ('[a]: /url "open\n\npara\n', [(P, (1,), ""), (P, (3,), "")]),
                ('[a]: <url> "x\ny\n\n', [(P, (1, 2), "")]),
                # Labels: not empty, no unescaped brackets.
                ("[]: /url\n", [(P, (1,), "")]),
                ("[a\\]b]: /url\n", [(DEF, (1,), "")]),
                ("[a]b]: /url\n", [(P, (1,), "")]),
                ("[a\nb]: /url\n", [(DEF, (1, 2), "")]),
                # A definition cannot interrupt a paragraph.
                ("para\n[a]: /url\n", [(P, (1, 2), "")]),
                ("> [a]: /url\n", [(DEF, (1,), "quote@1")]),
                ("- [a]: /url\n", [(DEF, (1,), "item@1")]),
                ("   [a]: /url\n", [(DEF, (1,), "")]),
                # Indented definitions after other blocks (the shortcuts take such stretches at once).
                ("x\n\n [a]: /url 'one\ntwo'\n", [(P, (1,), ""), (DEF, (3, 4), "")]),
                ("x\n\n  [a]: /url\ntext\n", [(P, (1,), ""), (DEF, (3,), ""), (P, (4,), "")]),
            ]
        )

    def test_paragraphs(self) -> None:
        """4.8: consecutive lines; the leading spaces of each line are not content."""
        self.check(
            [
                ("a\nb\n\nc\n", [(P, (1, 2), ""), (P, (4,), "")]),
                ("a\n     b\n", [(P, (1, 2), "")]),
                ("   a\n", [(P, (1,), "")]),
                ("a\n   \nb\n", [(P, (1,), ""), (P, (3,), "")]),
                ("a\n\t\nb\n", [(P, (1,), ""), (P, (3,), "")]),
                ("a\n> b\n", [(P, (1,), ""), (P, (2,), "quote@2")]),
                ("a\n<!-- c -->\n", [(P, (1,), ""), ("html_block:2", (2,), "")]),
                ("a\n***\n", [(P, (1,), "")]),
            ]
        )
        self.assertEqual(contents("  aaa\n     bbb\n"), [["aaa", "bbb"]])
        self.assertEqual(contents("  aaa\n     bbb\n", fast=False), [["aaa", "bbb"]])

    def test_tables(self) -> None:
        """GFM 4.10: a header row and a delimiter row with as many cells; rows until a blank line or a block."""
        self.check(
            [
                ("| a | b |\n| - | - |\n| 1 | 2 |\n", [(T, (1, 2, 3), "")]),
                ("a | b\n--|--\n1 | 2\n", [(T, (1, 2, 3), "")]),
                ("a|b\n:-|-:\n", [(T, (1, 2), "")]),
                # A row does not need a pipe; the line right after a table is a row.
                ("| a | b |\n| - | - |\nrow without pipe\n\nafter\n", [(T, (1, 2, 3), ""), (P, (5,), "")]),
                (f"| a | b |\n| - | - |\n{D}\n", [(T, (1, 2, 3), "")]),
                # Lines before the header row stay a paragraph.
                ("intro\n| a | b |\n| - | - |\n", [(P, (1,), ""), (T, (2, 3), "")]),
                # Cell counts must match; a header needs a pipe; "- " starts a list item.
                ("| a |\n| - | - |\n", [(P, (1, 2), "")]),
                ("a\n---|---\n", [(P, (1, 2), "")]),
                ("| a | b |\n- | -\n", [(P, (1,), ""), (P, (2,), "item@2")]),
                # Block starts end the table.
                ("| a | b |\n| - | - |\n# h\n", [(T, (1, 2), ""), (H, (3,), "")]),
                ("| a | b |\n| - | - |\n> q\n", [(T, (1, 2), ""), (P, (3,), "quote@3")]),
                ("| a | b |\n| - | - |\n- i\n", [(T, (1, 2), ""), (P, (3,), "item@3")]),
                ("| a | b |\n| - | - |\n```\nx\n```\n", [(T, (1, 2), ""), (FENCE, (3, 4, 5), "")]),
                ("| a | b |\n| - | - |\n<div>\n", [(T, (1, 2), ""), ("html_block:6", (3,), "")]),
                ("| a | b |\n| - | - |\n    code\n", [(T, (1, 2), ""), (CODE, (3,), "")]),
                # In containers: the header row must continue the same containers.
                ("> a | b\n> --|--\n> 1 | 2\n", [(T, (1, 2, 3), "quote@1")]),
                ("- x\n\n  a | b\n  --|--\n", [(P, (1,), "item@1"), (T, (3, 4), "item@1")]),
                ("> a | b\n--|--\n", [(P, (1, 2), "quote@1")]),  # a lazy line is no delimiter row
            ]
        )

    def test_table_whose_header_is_the_first_line_of_a_list_item(self) -> None:
        """Regression: a table whose header row is a list item's first line is a table (GitHub and
        markdown-it both render one); the gate read the header line as indented and kept a paragraph,
        so a code span with a ``|`` in a row hid cell text a reader sees."""
        self.check(
            [
                ("- a | b\n  --|--\n  1 | 2\n", [(T, (1, 2, 3), "item@1")]),
                ("1. a | b\n   --|--\n", [(T, (1, 2), "item@1")]),
            ]
        )

    def test_front_matter(self) -> None:
        """YAML ``---`` (closed by ``---`` or ``...``) and TOML ``+++`` front matter, on the first line only."""
        self.check(
            [
                ("---\ntitle: x\n---\npara\n", [(FM, (1, 2, 3), ""), (P, (4,), "")]),
                ("---\ntitle: x\n...\npara\n", [(FM, (1, 2, 3), ""), (P, (4,), "")]),
                ("----\na\n---\nb\n----\n", [(FM, (1, 2, 3, 4, 5), "")]),
                ("---\n---\n", [(FM, (1, 2), "")]),
                ("+++\ntitle = 'x'\n+++\npara\n", [(FM, (1, 2, 3), ""), (P, (4,), "")]),
                # Unclosed: no front matter; a thematic break, or a paragraph for TOML.
                ("---\ntitle: x\n", [(P, (2,), "")]),
                ("+++\ntitle = 'x'\n", [(P, (1, 2), "")]),
                # Only at the very start of the page.
                ("\n---\na\n---\n", [(H, (3,), "")]),
                ("x\n\n+++\na\n+++\n", [(P, (1,), ""), (P, (3, 4, 5), "")]),
            ]
        )


class LineTest(BlockTestCase):
    def test_tabs_consumed_in_part(self) -> None:
        """2.2: a tab a container marker consumes in part counts as the columns it has left."""
        self.check(
            [
                ("- foo\n\n\tbar\n", [(P, (1,), "item@1"), (P, (3,), "item@1")]),
                ("- foo\n\n\t\tbar\n", [(P, (1,), "item@1"), (CODE, (3,), "item@1")]),
                (">\t\tfoo\n", [(CODE, (1,), "quote@1")]),
                ("-\t\tfoo\n", [(CODE, (1,), "item@1")]),
                (
                    " - foo\n   - bar\n\t - baz\n",
                    [(P, (1,), "item@1"), (P, (2,), "item@1 > item@2"), (P, (3,), "item@1 > item@2 > item@3")],
                ),
                ("1.\tfoo\n\n\tbar\n", [(P, (1,), "item@1"), (P, (3,), "item@1")]),
                ("10.\tfoo\n\n\t\tbar\n", [(P, (1,), "item@1"), (CODE, (3,), "item@1")]),
                (">\tfoo\n>\t\tmore\n", [(P, (1, 2), "quote@1")]),
                ("*\t*\t*\t\n", []),
                ("- a\n \tb\n", [(P, (1, 2), "item@1")]),
            ]
        )
        self.assertEqual(contents("-\tfoo\n>\tbar\n"), [["foo"], ["bar"]])

    def test_line_endings(self) -> None:
        """2.1: ``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a line; offsets stop before the ending."""
        for ending in ("\n", "\r\n", "\r"):
            text = ending.join(["# h", "a", "b", "", "> q", "```", "x", "```", ""])
            with self.subTest(ending=ending):
                self.assertEqual(
                    outline(text), [(H, (1,), ""), (P, (2, 3), ""), (P, (5,), "quote@5"), (FENCE, (6, 7, 8), "")]
                )
                self.assertEqual(contents(text), [["# h"], ["a", "b"], ["q"], ["```", "x", "```"]])
        self.assertEqual(outline("a\rb"), [(P, (1, 2), "")])
        self.assertEqual(line_view("a\rb\r\nc"), "a\nb\r\nc\n")


class DepthTest(unittest.TestCase):
    def test_nesting_deeper_than_max_depth_puts_doubt_on_the_deep_block_only(self) -> None:
        """Containers past MAX_DEPTH are not opened: the block holding that line is in doubt, nothing else."""
        deep = ">" * (MAX_DEPTH + 1) + " deep\n"
        text = "before\n\n" + "> shallow\n\n" + deep + "\nafter\n"
        leaves = parse_blocks(text, every_offset(text))
        self.assertEqual(
            [(leaf.kind, leaf.lines[0][0] + 1, len(leaf.containers), leaf.doubt is not None) for leaf in leaves],
            [(P, 1, 0, False), (P, 3, 1, False), (P, 5, MAX_DEPTH, True), (P, 7, 0, False)],
        )
        self.assertEqual(leaves[2].doubt[0], 4)  # type: ignore[index]

    def test_exactly_max_depth_is_read(self) -> None:
        for text in (">" * MAX_DEPTH + " ok\n", "- " * MAX_DEPTH + "ok\n"):
            with self.subTest(text=text[:8]):
                (leaf,) = parse_blocks(text, every_offset(text))
                self.assertEqual((leaf.kind, len(leaf.containers), leaf.doubt), (P, MAX_DEPTH, None))

    def test_deep_list_items(self) -> None:
        lines = ["  " * level + "- x" for level in range(MAX_DEPTH + 3)] + ["", "after"]
        text = "\n".join(lines) + "\n"
        leaves = parse_blocks(text, every_offset(text))
        in_doubt = [leaf.lines[0][0] + 1 for leaf in leaves if leaf.doubt is not None]
        self.assertEqual(in_doubt, [MAX_DEPTH])
        # Leaf lines are 0-based: "after" is editor line MAX_DEPTH + 5.
        self.assertEqual(leaves[-1][:3], (P, ((MAX_DEPTH + 4, text.rindex("after"), len(text) - 1),), ()))
        self.assertTrue(all(leaf.doubt is None for leaf in leaves[: MAX_DEPTH - 1]))


class VariantReadingTest(unittest.TestCase):
    """Where readers differ, only the blocks whose reading changes are in doubt; blank lines keep it local."""

    def check(self, text: str, expected: dict[tuple[str, int], int | None]) -> None:
        for fast in (True, False):
            with self.subTest(fast=fast):
                self.assertEqual(doubts(text, fast=fast), expected)

    def test_paragraph_before_a_table_whose_delimiter_row_is_a_setext_underline(self) -> None:
        """``| a |`` over ``---``: a table to GFM, a setext heading (with the line before) without tables."""
        self.check("intro\n| a |\n---\n\nlater\n", {(P, 1): 2, (T, 2): 2, (P, 5): None})
        self.check("intro\n\n| a |\n---\n\nlater\n", {(P, 1): None, (T, 3): 3, (P, 6): None})

    def test_paragraph_directly_before_a_table(self) -> None:
        self.check(f"{D}\na | b\n--|--\n\nlater\n", {(P, 1): 2, (T, 2): 2, (P, 5): None})

    def test_directive_line_right_after_a_table(self) -> None:
        """The line is a table row to GFM and a paragraph line without tables."""
        self.check(f"| a | b |\n| - | - |\n{D}\n\n{D}\n", {(T, 1): 1, (P, 5): None})

    def test_indented_line_after_a_table(self) -> None:
        """Indented code to GFM, a paragraph continuation line without tables."""
        self.check(f"| a | b |\n| - | - |\n    {D}\n\nlater\n", {(T, 1): 1, (CODE, 3): 1, (P, 5): None})

    def test_indented_lazy_line(self) -> None:
        self.check("> quote\n    # lazy\n\nlater\n", {(P, 1): 2, (P, 4): None})

    def test_link_definition_followed_by_more_lines(self) -> None:
        """markdown-it ends a definition at its line: the indented line after it is code there."""
        self.check("[a]: /url\n    text\n\nlater\n", {(DEF, 1): None, (P, 2): 2, (P, 4): None})
        self.check("[a]: /url\ntext\n\nlater\n", {(DEF, 1): None, (P, 2): None, (P, 4): None})

    def test_front_matter_variant(self) -> None:
        """Without front matter support the lines after it may read differently."""
        self.check("---\nk: v\n...\npara\n\nlater\n", {(FM, 1): None, (P, 4): 1, (P, 6): None})
        self.check("---\nk: v\n---\npara\n", {(FM, 1): None, (P, 4): None})
        self.check("+++\nk = 1\n+++\npara\n", {(FM, 1): None, (P, 4): 1})
        self.check("+++\nk = 1\n+++\n\npara\n", {(FM, 1): None, (P, 5): None})

    def test_plain_page_has_no_doubt(self) -> None:
        text = f"# Title\n\nProse.\n\n- item\n\n> quote\n\n```\ncode\n```\n\n{D}\n"
        self.assertEqual(set(doubts(text).values()), {None})

    def test_footnote_definitions(self) -> None:
        """GitHub's footnote definitions (not modelled): the lines a footnote covers are in doubt, whatever
        the label's characters. Regression: read as the reader reads pages, in the byte view (UTF-8 as
        Latin-1), ``[^\u00e0]`` was no footnote: the footnote pattern's ``\\s`` took 0xA0, the second byte
        of ``\u00e0``, for a space."""
        for label in ("1", "a", "\u00e9", "\u00e0", "\u00a0", "\u0085", "\U0001f600"):
            with self.subTest(label=label):
                self.check(
                    byte_view(f"Text.\n\n[^{label}]: note\n{D}\n\nafter\n"),
                    {(P, 1): None, (DEF, 3): 3, (P, 4): 3, (P, 6): None},
                )

    def test_footnotes_one_blank_line_apart(self) -> None:
        """Regression: after a footnote the search went on two characters past its end, and missed a
        footnote definition opening the line after one blank line."""
        self.check(f"[^1]: a\n\n[^2]: b\n{D}\n", {(DEF, 1): 1, (DEF, 3): 3, (P, 4): 3})
        self.check(f"[^1]: a\n[^2]: b\n{D}\n", {(DEF, 1): 2, (P, 3): 1})  # a lazy line of the first

    def test_a_footnote_keeps_the_doubts_noted_above_it(self) -> None:
        """Regression: the stretches the rules note as they read (markdown-it's table rule before a
        quote) were dropped while a footnote further down the page reached past the line: footnotes
        are noted before the first line, and only the last stretch noted was compared."""
        self.check(f"> a |\n---\n{D}\n\n[^1]: note\n", {(P, 1): 1, (P, 3): 1, (DEF, 5): 5})

    def test_doubt_names_the_line_that_causes_it(self) -> None:
        """Regression: the doubt of a block named the first line anywhere on the page where that reading
        differed (an earlier, unrelated table or link definition), not the line that puts this block in doubt."""
        text = "| a | b |\n| - | - |\n\ntext\n\n| c | d |\n| - | - |\n| e | f |\n"
        self.check(text, {(T, 1): 1, (P, 4): None, (T, 6): 6})
        text = "[a]: /url\nmore\n\n> quote\n    # lazy\n"
        self.check(text, {(DEF, 1): None, (P, 2): None, (P, 4): 5})


# --------------------------------------------------------------------------
# The same cases with non-ASCII text, in the byte view


#: Characters of 2, 3 and 4 bytes in UTF-8, and ones whose bytes include 0xA0 or 0x85, which Python's
#: Unicode ``\s`` (and ``str.isspace``) take for spaces when the bytes are read as Latin-1.
NON_ASCII = ("\u00e9", "\u20ac", "\U0001f600", "\u00a0", "\u0085", "\u2028", "\u00e0")
#: Markup whose letters are no text: a tag's name and attribute names (its values are text), a reference.
_MARKUP = re.compile(r"<[/!?]?[A-Za-z][^<>]*>?|&#?[A-Za-z0-9]+;")
_TAG_TEXT = re.compile(r"""(=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+)""")
_WORD = re.compile(r"[a-z]+")


def non_ascii(text: str, start: int = 0) -> str:
    """``text`` with each run of lowercase ASCII letters where text may go (paragraph and heading text,
    link and footnote labels and destinations, info strings, table cells, task boxes, front matter,
    HTML attribute values and content) replaced by one of :data:`NON_ASCII`, in turn from ``start``.
    Tag and attribute names, declarations and references are kept: they are markup."""
    turn = iter(range(start, start + len(text) + 1))

    def word(match: re.Match[str]) -> str:
        return NON_ASCII[next(turn) % len(NON_ASCII)]

    def value(match: re.Match[str]) -> str:
        return match.group(1) + _WORD.sub(word, match.group(2))

    out, last = [], 0
    for markup in _MARKUP.finditer(text):
        out.append(_WORD.sub(word, text[last : markup.start()]))
        name = re.match(r"<[/!?]?[A-Za-z][A-Za-z0-9-]*", markup.group())
        kept = name.end() if name else len(markup.group())
        out.append(markup.group()[:kept] + _TAG_TEXT.sub(value, markup.group()[kept:]))
        last = markup.end()
    out.append(_WORD.sub(word, text[last:]))
    return "".join(out)


class NonAsciiBlockTest(ContainerTest, LeafTest, LineTest):
    """Every case of the container, leaf and line tests again, with non-ASCII text, read as the reader
    reads a page: its UTF-8 bytes as Latin-1 (:func:`byte_view`). The leaves must be the same: block
    structure depends on ASCII characters only, and no byte of a non-ASCII character is one of them."""

    def check(self, cases: Sequence[tuple[str, Outline]]) -> None:
        self.assertTrue(cases)
        for k, (text, expected) in enumerate(cases):
            changed = non_ascii(text, k)
            view = byte_view(changed)
            for fast in (True, False):
                with self.subTest(text=changed, fast=fast):
                    self.assertEqual(outline(view, fast=fast), expected)

    def test_the_substitution_reaches_text_and_keeps_markup(self) -> None:
        self.assertEqual(non_ascii("[a]: /url 'title'\n"), "[\u00e9]: /\u20ac '\U0001f600'\n")
        self.assertEqual(non_ascii("<a href=\"x\" title='t'>\nx\n"), "<a href=\"\u00e9\" title='\u20ac'>\n\U0001f600\n")
        self.assertEqual(non_ascii("~~~ info\n| a | b |\n&nbsp;", 3), "~~~ \u00a0\n| \u0085 | \u2028 |\n&nbsp;")


class NonAsciiVariantReadingTest(VariantReadingTest):
    """The variant readings' cases again with non-ASCII text, in the byte view: the same doubts."""

    def check(self, text: str, expected: dict[tuple[str, int], int | None]) -> None:
        view = byte_view(non_ascii(text)) if text.isascii() else text
        super().check(view, expected)


# --------------------------------------------------------------------------
# The shortcuts against the rules


FRAGMENTS = (
    "plain prose line",
    D,
    "see @quill here",
    "",
    "",
    "   ",
    "\t",
    "# heading @quill",
    "Setext",
    "===",
    "---",
    "***",
    "- - -",
    "- item @quill",
    "  continued",
    "    indented four",
    "\tindented tab",
    "1. first",
    "2) second",
    "10. ten",
    "* star",
    "+ plus",
    "- [ ] task @quill",
    "-",
    "1.",
    "> quote @quill",
    ">",
    "> > nested",
    ">\tquote tab",
    "lazy @quill",
    "```",
    "```py",
    "~~~",
    "````",
    "  ```",
    "    ```",
    "``` a`b",
    "<div>",
    "</div>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<!-- c",
    "-->",
    "<?php",
    "?>",
    "<!DOCTYPE x",
    ">",
    "<![CDATA[",
    "]]>",
    "<custom-el>",
    '<a href="x">',
    "<em",
    'class="x">@quill',
    "[ref]: /url",
    '[ref]: /url "title',
    '@quill title"',
    "[ref]:",
    "/url 'x'",
    "[a\\]b]: <u>",
    "| a | b |",
    "| - | - |",
    "|---|",
    "a | b",
    "--|--",
    ":-:|--",
    "| @quill | x |",
    "+++",
    "title: @quill",
    "...",
    "  - nested @quill",
    "     - deep",
    "   > q",
    "`code @quill`",
    "`` ` ``",
    '[link](/u "t")',
    "[x]",
    "&nbsp;@quill",
    "\\@quill",
    "<kbd>k</kbd> text",
    "  > - [x] mixed",
    "- > quote in item",
    "1. > x",
    "    @quill code",
)
PREFIXES = ("", " ", "  ", "    ", "\t", "> ", "- ", ">", "1. ", "  - ")


def random_page(rng: random.Random) -> str:
    """A page of 1-30 lines built from construct fragments, maybe with front matter; mixed line endings."""
    lines = []
    if rng.random() < 0.1:
        lines += [rng.choice(["---", "+++"]), "x: 1", rng.choice(["---", "+++", "..."])]
    for _ in range(rng.randint(1, 30)):
        fragment = rng.choice(FRAGMENTS)
        if rng.random() < 0.2:
            fragment = rng.choice(PREFIXES) + fragment
        lines.append(fragment)
    ending = rng.choice(["\n"] * 8 + ["\r\n", "\r"])
    return ending.join(lines) + (ending if rng.random() < 0.8 else "")


def watch_sets(text: str, rng: random.Random) -> Iterator[tuple[str, list[int]]]:
    """The at signs (as the gate watches), every offset, and a few random characters (not line endings,
    where no at sign can be)."""
    yield "at signs", [i for i, ch in enumerate(text) if ch == "@"]
    yield "every offset", every_offset(text)
    chars = [i for i, ch in enumerate(text) if ch not in "\r\n"]
    if chars:
        yield "random", sorted(rng.sample(chars, min(len(chars), rng.randint(1, 5))))


def comparable(text: str, watch: Sequence[int], leaves: Sequence[Leaf]) -> list[Leaf]:
    """The leaves up to the last watched line: past it the parser may stop (``parse_blocks``), so a
    block still open there (unclosed code, an HTML block) may be cut short; ``end`` says where it was cut."""
    last_line = line_view(text).count("\n", 0, watch[-1])
    return [leaf._replace(lines=tuple(line for line in leaf.lines if line[0] <= last_line), end=0) for leaf in leaves]


class ShortcutTest(unittest.TestCase):
    SEED = 20261130
    PAGES = 300

    def test_fast_and_slow_give_the_same_leaves(self) -> None:
        """The shortcuts take exactly the lines the rules take: kind, lines and offsets, containers,
        HTML kind and doubt, on a seeded set of random pages."""
        rng = random.Random(self.SEED)
        compared = 0
        mismatches = []
        for _ in range(self.PAGES):
            text = random_page(rng)
            for name, watch in watch_sets(text, rng):
                if not watch:
                    continue
                compared += 1
                fast = comparable(text, watch, parse_blocks(text, watch, fast=True))
                slow = comparable(text, watch, parse_blocks(text, watch, fast=False))
                if fast != slow:
                    mismatches.append((len(text), name, text, fast, slow))
        self.assertGreater(compared, self.PAGES)
        if mismatches:
            _size, name, text, fast, slow = min(mismatches, key=lambda m: m[0])
            differ: list[tuple[object, object]] = [(a, b) for a, b in zip(fast, slow) if a != b]
            first = differ[0] if differ else (fast, slow)
            self.fail(
                f"{len(mismatches)} of {compared} comparisons differ; shortest ({name}): {text!r}\n"
                f"  fast: {first[0]}\n  slow: {first[1]}"
            )

    def test_code_lines_start_after_indentation_in_both_modes(self) -> None:
        """Regression: the code-block shortcuts took whole lines, indentation included, where the rules
        start a line after the fence's indentation or the four columns of indented code."""
        for text in ("    a\n    b\n    c\n", "  ```\n  x\n  y\n  ```\n", "\tone\n\ttwo\n"):
            with self.subTest(text=text):
                self.assertEqual(contents(text, fast=True), contents(text, fast=False))

    def test_watching_only_at_signs_matches_watching_everything(self) -> None:
        """A leaf holding an at sign is the same whether or not the other offsets are watched."""
        text = (
            "# T\n\nprose\n\n```\n@quill x\n```\n\n- item\n\n> q @quill\n\n"
            f"| a | b |\n| - | - |\n\n{D}\n\n    @quill y\n"
        )
        ats = [i for i, ch in enumerate(text) if ch == "@"]
        full = [
            leaf
            for leaf in parse_blocks(text, every_offset(text))
            if any(leaf.lines[0][1] <= at <= leaf.lines[-1][2] for at in ats)
        ]
        self.assertEqual([_row(text, leaf) for leaf in parse_blocks(text, ats)], [_row(text, leaf) for leaf in full])
        self.assertEqual(len(full), 4)

    def test_no_watched_offset_reads_nothing(self) -> None:
        self.assertEqual(parse_blocks("# a\n\nb\n", []), ())


if __name__ == "__main__":
    unittest.main()
