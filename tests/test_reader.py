"""read_directives end to end: what a person reading the rendered page sees, and what the gate makes of it.

A directive counts only as an unindented line of a top-level paragraph that
is exactly ``@quill <operation> <key>=<value>`` and outside every inline
construct. Directive-shaped text a reader sees anywhere else refuses the
source; in code, hidden HTML or a link reference definition it is a
near-miss; where readers may differ it is ``ambiguous_markup``, for that
block only. Each example from the issue is a regression test whose
docstring says what a reader sees and what the gate must do.
"""

from __future__ import annotations

import os
import tempfile
import unittest
from typing import Any, ClassVar

from _conflict_gate.base.errors import DirectiveError
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.reading_shapes import MAX_NEAR_MISSES, Claim, NearMiss, Reading
from _conflict_gate.reading.renderers import COMMONMARK, GITHUB_COM
from tests.support import QUILL_GRAMMAR, assert_span_invariants, write_corpus

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
D = "@quill create_copy existing_path=refuse"
D2 = "@quill create_copy close_required=yes"
REFUSED_AS_SEEN = frozenset({"misplaced_directive", "malformed_directive"})
_BOM = b"\xef\xbb\xbf"
#: The size of the adversarial inputs that grow (those that reach a cap are built past it at any size):
#: ``CONFLICT_GATE_FUZZ_BYTES``, 20,000 by default; ``.ci/run`` reads them at 100,000, as the bench does.
FUZZ_BYTES = int(os.environ.get("CONFLICT_GATE_FUZZ_BYTES", "20000"))


def read(text: str, **options: Any) -> Reading:
    """The reading under ``commonmark`` unless ``renderer`` says otherwise (the tests here pin that reading;
    ``portable``, the default, and ``mkdocs`` have their own tests: tests/test_site_mkdocs.py)."""
    options.setdefault("renderer", COMMONMARK)
    return read_directives(text, GRAMMAR, **options)


def read_raw(raw: bytes, **options: Any) -> Reading:
    """Read raw source bytes as the corpus does: BOM removed and counted, the rest decoded."""
    body = raw[len(_BOM) :] if raw.startswith(_BOM) else raw
    options.setdefault("renderer", COMMONMARK)
    return read_directives(body.decode("utf-8"), GRAMMAR, bom_bytes=len(raw) - len(body), **options)


def claimed(reading: Reading) -> list[tuple[int, str]]:
    return [(claim.line, claim.quote) for claim in reading.claims]


def outcome(reading: Reading) -> tuple[object, ...]:
    """Everything a reading says, comparable: claims, the refusal's reason and place, near-misses."""
    refusal = reading.refusal
    return (
        reading.claims,
        refusal and (refusal.reason, refusal.line, refusal.column, refusal.detail),
        reading.near_misses,
    )


class ReaderTestCase(unittest.TestCase):
    maxDiff = None

    def read_both(self, text: str, **options: Any) -> Reading:
        """The reading with the block shortcuts, after checking that the rules alone read the same."""
        reading, slow = read(text, **options), read(text, fast=False, **options)
        self.assertEqual(outcome(slow), outcome(reading), "fast=False reads differently")
        return reading

    def assertClaims(self, text: str, expected: list[tuple[int, str]], **options: Any) -> Reading:
        """No refusal and exactly these ``(line, quote)`` claims."""
        reading = self.read_both(text, **options)
        self.assertIsNone(reading.refusal, reading.refusal and str(reading.refusal))
        self.assertEqual(claimed(reading), expected)
        return reading

    def assertRefused(
        self, text: str, reasons: str | frozenset[str], line: int, column: int | None = None, **options: Any
    ) -> DirectiveError:
        """Refused for one of ``reasons`` at ``line`` (and ``column``), with no claims."""
        reasons = frozenset({reasons}) if isinstance(reasons, str) else reasons
        reading = self.read_both(text, **options)
        if reading.refusal is None:
            self.fail(f"not refused; claims {claimed(reading)}, near-misses {reading.near_misses}")
        refusal = reading.refusal
        self.assertIn(refusal.reason, reasons, str(refusal))
        self.assertEqual(refusal.line, line, str(refusal))
        if column is not None:
            self.assertEqual(refusal.column, column, str(refusal))
        self.assertEqual(reading.claims, ())
        return refusal

    def assertNearMisses(self, text: str, expected: list[tuple[int, int, str]], **options: Any) -> Reading:
        """No refusal and exactly these ``(line, column, where)`` near-misses."""
        reading = self.read_both(text, **options)
        self.assertIsNone(reading.refusal, reading.refusal and str(reading.refusal))
        self.assertEqual([(n.line, n.column, n.where) for n in reading.near_misses], expected)
        return reading


# --------------------------------------------------------------------------
# The examples: text a reader sees refuses the source


class SeenTextRefusesTest(ReaderTestCase):
    def test_nbsp_entity_before_the_directive(self) -> None:
        """Reader sees: a non-breaking space, then ``@quill create_copy existing_path=refuse``, on its own line.
        Gate: refuse (malformed or misplaced) at the at sign, line 1, column 7; never a claim."""
        self.assertRefused(f"&nbsp;{D}\n", REFUSED_AS_SEEN, 1, 7)

    def test_zwj_entity_before_the_directive(self) -> None:
        """Reader sees: the directive (the zero-width joiner renders as nothing). Gate: refuse at column 6."""
        self.assertRefused(f"&zwj;{D}\n", REFUSED_AS_SEEN, 1, 6)

    def test_numeric_zero_width_space_before_the_directive(self) -> None:
        """Reader sees: the directive (``&#8203;`` is U+200B, invisible). Gate: refuse at column 8."""
        self.assertRefused(f"&#8203;{D}\n", REFUSED_AS_SEEN, 1, 8)

    def test_raw_zero_width_space_before_the_directive(self) -> None:
        """Reader sees: the directive; the raw U+200B before it is invisible. Gate: refuse at column 2."""
        self.assertRefused(f"\u200b{D}\n", REFUSED_AS_SEEN, 1, 2)

    def test_empty_code_span_before_the_directive(self) -> None:
        """Reader sees: a blank code span, then the directive as text. Gate: refuse at the at sign."""
        self.assertRefused(f"` `{D}\n", REFUSED_AS_SEEN, 1, 4)
        self.assertRefused(f"`` ``{D}\n", REFUSED_AS_SEEN, 1, 6)

    def test_empty_link_before_the_directive(self) -> None:
        """Reader sees: an empty link (nothing), then the directive as text. Gate: refuse at column 5."""
        self.assertRefused(f"[](){D}\n", REFUSED_AS_SEEN, 1, 5)

    def test_open_task_item(self) -> None:
        """Reader sees: a checkbox list item reading ``@quill create_copy existing_path=refuse``.
        Gate: misplaced_directive naming the list item and its line."""
        refusal = self.assertRefused(f"- [ ] {D}\n", "misplaced_directive", 1, 7)
        self.assertIn("list item (starting line 1)", refusal.detail)

    def test_done_ordered_task_item(self) -> None:
        """Reader sees: a ticked checkbox in a numbered item with the directive text. Gate: misplaced."""
        refusal = self.assertRefused(f"Steps:\n\n1. [x] {D}\n", "misplaced_directive", 3, 8)
        self.assertIn("list item (starting line 3)", refusal.detail)

    def test_inline_tag_over_two_lines(self) -> None:
        """Reader sees: ``<em title="x">`` is an (invisible) inline tag over lines 1-2, so line 2 shows the
        directive text in emphasis markup. Gate: refuse at line 2, column 11."""
        self.assertRefused(f'<em\ntitle="x">{D}\n', REFUSED_AS_SEEN, 2, 11)

    def test_script_content_is_shown_by_gfm(self) -> None:
        """Reader sees (GitHub, its tag filter): ``<script>`` escaped, its content as text. Gate: misplaced
        at line 2 under ``github``; under ``commonmark`` a renderer without the filter hides it, so the
        line is in doubt (refused either way)."""
        refusal = self.assertRefused(f"<script>\n{D}\n</script>\n", "misplaced_directive", 2, 1, renderer=GITHUB_COM)
        self.assertIn("HTML block", refusal.detail)
        refusal = self.assertRefused(f"<script>\n{D}\n</script>\n", "ambiguous_markup", 2, 1)
        self.assertIn("tag filter", refusal.detail)

    def test_style_content_is_shown_by_gfm(self) -> None:
        """Reader sees (GitHub, its tag filter): the ``<style>`` content as text. Gate: misplaced at line 2
        under ``github``, in doubt under ``commonmark``."""
        self.assertRefused(f"<style>\n{D}\n</style>\n", "misplaced_directive", 2, 1, renderer=GITHUB_COM)
        self.assertRefused(f"<style>\n{D}\n</style>\n", "ambiguous_markup", 2, 1)

    def test_text_of_an_html_block(self) -> None:
        """Reader sees: the directive text inside a ``<div>``. Gate: misplaced."""
        self.assertRefused(f"<div>\n{D}\n</div>\n", "misplaced_directive", 2, 1)
        self.assertRefused(f'<p align="center">{D}</p>\n', "misplaced_directive", 1, 19)

    def test_other_places_a_reader_sees(self) -> None:
        """Heading, block quote, front matter, mid-line, emphasis, escapes, references, look-alikes, indentation."""
        cases: list[tuple[str, str | frozenset[str], int, int]] = [
            (f"# {D}\n", "misplaced_directive", 1, 3),
            (f"Title {D}\n===\n", "misplaced_directive", 1, 7),
            (f"> {D}\n", "misplaced_directive", 1, 3),
            (f"---\ntitle: {D}\n---\n", "misplaced_directive", 2, 8),
            (f"See {D} here.\n", "misplaced_directive", 1, 5),
            (f"*{D}*\n", REFUSED_AS_SEEN, 1, 2),
            (f"\\{D}\n", REFUSED_AS_SEEN, 1, 2),
            ("&#64;quill create_copy existing_path=refuse\n", REFUSED_AS_SEEN, 1, 1),
            ("&commat;quill create_copy existing_path=refuse\n", REFUSED_AS_SEEN, 1, 1),
            ("\uff20quill create_copy existing_path=refuse\n", REFUSED_AS_SEEN, 1, 1),
            (f"  {D}\n", REFUSED_AS_SEEN, 1, 3),
            (f"prose\n   {D}\n", REFUSED_AS_SEEN, 2, 4),
            ("@q*uil*l create_copy existing_path=refuse\n", REFUSED_AS_SEEN, 1, 3),
        ]
        for text, reasons, line, column in cases:
            with self.subTest(text=text):
                self.assertRefused(text, reasons, line, column)


# --------------------------------------------------------------------------
# The examples: text a reader does not see is a near-miss


class HiddenTextTest(ReaderTestCase):
    def check_hidden(self, block: str, line: int, column: int, where: str) -> None:
        """The block's directive-shaped text is one near-miss; a real directive after it still counts."""
        text = f"{block}\n\n{D}\n"
        reading = self.assertClaims(text, [(block.count("\n") + 3, D)])
        self.assertEqual([(n.line, n.column, n.where) for n in reading.near_misses], [(line, column, where)])

    def test_code_span_crossing_lines(self) -> None:
        """Reader sees: "The 2.0 pages write ``@quill create_copy existing_path=refuse`` instead." with the
        directive inside one code span that crosses two line breaks. Gate: a code near-miss on line 2, and
        a real directive elsewhere on the page still counts."""
        self.check_hidden(f"The 2.0 pages write `\n{D}\n` instead.", 2, 1, "code")
        self.check_hidden(f"Write ``\n{D}\n`` like this.", 2, 1, "code")

    def test_cdata(self) -> None:
        """Reader sees: nothing (CDATA in an HTML block is hidden). Gate: hidden near-miss."""
        self.check_hidden(f"<![CDATA[\n{D}\n]]>", 2, 1, "hidden")

    def test_processing_instruction(self) -> None:
        """Reader sees: nothing (a processing instruction is hidden). Gate: hidden near-miss."""
        self.check_hidden(f"<?php\n{D}\n?>", 2, 1, "hidden")

    def test_template(self) -> None:
        """Reader sees: nothing (``<template>`` content is never rendered). Gate: hidden near-miss."""
        self.check_hidden(f"<template>\n{D}\n</template>", 2, 1, "hidden")

    def test_html_comment(self) -> None:
        """Reader sees: nothing. Gate: hidden near-miss, in a comment block and in an inline comment."""
        self.check_hidden(f"<!--\n{D}\n-->", 2, 1, "hidden")
        self.check_hidden(f"Note <!--\n{D}\n--> here.", 2, 1, "hidden")

    def test_multi_line_tag(self) -> None:
        """Reader sees: nothing of an attribute value that spans lines. Gate: hidden near-miss."""
        self.check_hidden(f'<div\ndata-example="\n{D}\n"></div>', 3, 1, "hidden")
        self.check_hidden(f'A <span title="\n{D}\n">word</span>.', 2, 1, "hidden")

    def test_link_reference_title(self) -> None:
        """Reader sees: nothing (a link reference definition, its title over three lines). Gate: hidden."""
        self.check_hidden(f'[quill]: https://quill.example "\n{D}\n"', 2, 1, "hidden")
        self.check_hidden(f"[quill]: https://quill.example '{D}'", 1, 33, "hidden")

    def test_indented_link_definition_with_a_title_over_lines(self) -> None:
        """Regression: a definition indented 1-3 spaces, whose title spans the directive's line, was read
        by the shortcuts as a paragraph (they looked for ``[`` before the indentation), so the gate counted
        a directive no reader sees. Reader sees: nothing. Gate: hidden near-miss."""
        self.check_hidden(f" [quill]: /url '\n{D}\n'", 2, 1, "hidden")
        self.check_hidden(f"Intro.\n\n   [quill]: /url\n  '\n{D}\n'", 5, 1, "hidden")

    def test_code_blocks(self) -> None:
        """Reader sees: code. Gate: code near-misses (fence content and info string, indented code, ``<pre>``)."""
        self.check_hidden(f"```\n{D}\n```", 2, 1, "code")
        self.check_hidden(f"~~~ {D}\n~~~", 1, 5, "code")
        self.check_hidden(f"    {D}", 1, 5, "code")
        self.check_hidden(f"Use `{D}` once.", 1, 6, "code")
        self.check_hidden(f"<pre>\n{D}\n</pre>", 2, 1, "code")

    def test_hidden_link_definitions_in_a_run(self) -> None:
        """Reader sees: nothing of definitions. Gate: near-misses; an npm scoped package URL (``@quill/``)
        is not directive-shaped at all."""
        text = (
            f"{D}\n\n[npm]: https://www.npmjs.com/package/@quill/cli\n[docs]: https://quill.example\n"
            f'[title]: /t "{D}"\n'
        )
        reading = self.assertClaims(text, [(1, D)])
        self.assertEqual([(n.line, n.column, n.where) for n in reading.near_misses], [(5, 14, "hidden")])
        self.assertClaims(f"{D}\n\nInstall it with `npm install @quill/cli`, or npm install @quill/cli.\n", [(1, D)])


class HtmlAsBrowsersReadItTest(ReaderTestCase):
    """Raw HTML reaches the reader's browser as written; what it hides is what an HTML parser hides.

    Each page declares ``refuse`` and shows ``overwrite`` as text: counting the first and calling the
    second a hidden near-miss would decide on a page that contradicts itself.
    """

    SHOWN = "@quill create_copy existing_path=overwrite"

    def check_shown(self, text: str, line: int) -> None:
        """``text`` after a directive paragraph shows directive-shaped text on its ``line``: refused there."""
        self.assertRefused(f"{D}\n\n{text}\n", REFUSED_AS_SEEN | {"ambiguous_markup"}, line + 2)

    def test_markup_left_open_in_an_earlier_block(self) -> None:
        """Regression: a browser keeps a comment, a quoted attribute value or a hiding element open
        across the blocks CommonMark passes through; the gate read each block's HTML on its own and
        counted a directive a browser hides (or strikes out). Refused, naming the opening line."""
        for text, line in (
            (f"<!-- TODO --> <!-- off until 2.0:\n\n{self.SHOWN}\n\n-->\n", 3),
            (f"- <!--\n{self.SHOWN}\n", 2),
            (f'<div title="\n\n{self.SHOWN}\n', 3),
            (f"<template>\n\n{self.SHOWN}\n", 3),
            (f"x <template>\n\n{self.SHOWN}\n", 3),
            (f"<div hidden>\n\n{self.SHOWN}\n", 3),
            (f"<del>\n\n{self.SHOWN}\n\n</del>\n", 3),
        ):
            with self.subTest(text=text):
                refusal = self.assertRefused(f"{D}\n\n{text}", "ambiguous_markup", line + 2)
                self.assertIn("(line 3)", refusal.detail)
        # Closed before the directive: no doubt.
        self.assertClaims(f"<!-- note -->\n<kbd>Ctrl</kbd>\n<template>x</template>\n\n{D}\n", [(5, D)])

    def test_raw_html_that_other_readers_show_as_text(self) -> None:
        """Regression: ``<!--- x --->`` (a comment to CommonMark 0.31.2, text by the older rule
        GitHub and markdown-it follow) and ``<!x ...>`` (a declaration only to CommonMark) hid a
        directive those readers show."""
        self.check_shown(f"Set the mode below. <!--- old: {self.SHOWN} --->", 1)
        self.check_shown(f"x <!x\n{self.SHOWN}\nx>", 2)
        reading = self.assertClaims(f"Note <!-- fine {D} --> here.\n\n{D}\n", [(3, D)])
        self.assertEqual([(n.line, n.column, n.where) for n in reading.near_misses], [(1, 16, "hidden")])

    def test_an_unquoted_tag_left_open_is_closed_by_the_next_block(self) -> None:
        """A tag without its ">" ends at the first ">" of the tags the renderer writes around the next
        block (spec example 156), which it takes (so that block's text is in the ``<div>`` the tag opens,
        but no paragraph's): a paragraph after it is in doubt, naming the tag's line, until a ``</div>``
        closes it; a quoted value would run on."""
        refusal = self.assertRefused(f'<div id="foo"\n*hi*\n\n{D}\n', "ambiguous_markup", 4, 1)
        self.assertIn("a browser reads the tag the renderer writes next into it", refusal.detail)
        self.assertIn("(line 1)", refusal.detail)
        refusal = self.assertRefused(f'<div id="foo"\n*hi*\n\ntext\n\n{D}\n', "ambiguous_markup", 6, 1)
        self.assertIn("(line 1)", refusal.detail)
        self.assertClaims(f'<div id="foo"\n*hi*\n\n</div>\n\n{D}\n', [(6, D)])

    def test_processing_instruction_ends_at_the_first_greater_than_sign(self) -> None:
        """Regression: a browser ends ``<?`` (a bogus comment) at the first ``>``, so the lines after
        ``$a > $b`` are text; the gate hid everything up to ``?>``."""
        self.check_shown(f"<?php\n$x = $a > $b;\n{self.SHOWN}\n?>", 3)
        self.check_shown(f"Compare <?php $a > 1;\n{self.SHOWN}\n?> here.", 2)

    def test_cdata_in_html_ends_at_the_first_greater_than_sign(self) -> None:
        """Regression: outside SVG and MathML a browser reads ``<![CDATA[`` as a bogus comment that ends
        at the first ``>``; the gate hid everything up to ``]]>``."""
        self.check_shown(f"<![CDATA[\nif (a > b)\n{self.SHOWN}\n]]>", 3)

    def test_comment_closed_by_bang(self) -> None:
        """Regression: ``--!>`` closes an HTML comment in a browser; the gate hid the text after it."""
        self.check_shown(f"<div>\n<!-- note --!>\n{self.SHOWN}\n</div>", 3)

    def test_tag_with_attributes_run_together(self) -> None:
        """Regression: ``<span class="a"title="b">`` (no space between attributes) is no CommonMark tag,
        but a browser reads it as a tag and shows the text after its ``>``; the gate hid the rest of the
        HTML block as if the tag never closed."""
        self.check_shown(f'<div>\n<span class="note"title="Note">\n{self.SHOWN}\n</span>\n</div>', 3)

    def test_numeric_reference_without_semicolon_in_html(self) -> None:
        """Regression: in raw HTML a browser decodes ``&#64quill`` (no semicolon) to ``@quill``; the gate
        only looked for references with a semicolon. In a Markdown paragraph CommonMark shows the text
        as written, which is not directive-shaped."""
        self.check_shown("<div>\n&#64quill create_copy existing_path=overwrite\n</div>", 2)
        self.check_shown("<div>\n&#x40quill create_copy existing_path=overwrite\n</div>", 2)
        self.assertClaims(f"{D}\n\n&#64quill create_copy existing_path=overwrite\n", [(1, D)])
        # with the semicolon CommonMark shows an at sign: a claim stated under an at-word
        self.assertRefused(f"{D}\n\n&#64;quil create_copy existing_path=overwrite\n", "malformed_directive", 3, 1)


# --------------------------------------------------------------------------
# No false refusals


class FalseRefusalTest(ReaderTestCase):
    PAGE = f"""<p align="center">
  <img src="https://img.shields.io/badge/quill-2.0-blue" alt="@quill badge">
</p>

# Quill 2.0: copying files

<!-- TODO: mention @quill flags -->

Install it in three steps:

1. Download the archive.
2. Run `pip install quill`.
3. Check with `quill --version`.

Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop a copy; write to support@quill.dev.

```python
@app.get("/")
@quill.task(retries=3)
def copy():
    pass
```

{D}

<details>
<summary>Older releases</summary>

Version 1.x behaved differently.

</details>

Decorators in an indented block:

    @quill.task
    @app.route("/copy")
    def copy(): ...
"""

    def test_realistic_page_gives_exactly_its_one_directive(self) -> None:
        """A Python decorator in a fence, numbered install steps, a centred badge, a TODO comment,
        ``<details>``, ``<kbd>`` in a sentence and decorators in indented code, plus one directive as its
        own top-level paragraph: exactly that claim, no refusal."""
        reading = self.assertClaims(self.PAGE, [(24, D)])
        self.assertEqual([(n.line, n.where) for n in reading.near_misses], [(2, "hidden"), (7, "hidden")])
        assert_span_invariants(self.PAGE.encode("utf-8"), reading.claims[0])

    def test_adjacent_directive_lines_each_count(self) -> None:
        self.assertClaims(f"{D}\n{D2}\n", [(1, D), (2, D2)])
        self.assertClaims(f"Intro.\n\n{D}\n\n{D2}\n", [(3, D), (5, D2)])

    def test_decorators_and_emails_in_prose_are_not_directives(self) -> None:
        """``@app.get("/")``, ``@quill.task(...)`` at line start and ``support@quill.dev`` are not shaped."""
        text = (
            '@app.get("/")\n@quill.task(retries=3)\nMail support@quill.dev or <support@quill.dev>.\n'
            "Use @quill-cli and @quill_extra and @quills.\n"
        )
        self.assertClaims(text, [])
        self.assertEqual(read(text).near_misses, ())
        self.assertClaims(text + f"\n{D}\n", [(6, D)])

    def test_blocks_in_doubt_do_not_reach_past_a_blank_line(self) -> None:
        """Doubt is local: a table, deep nesting or front matter elsewhere leaves a separate directive alone."""
        for before in (
            "| a | b |\n| - | - |\n| 1 | 2 |",
            ">" * 70 + " deep",
            "intro\n| a |\n---",
            "+++\ntitle = 'x'\n+++",
            "> quote\n    # lazy",
        ):
            with self.subTest(before=before):
                self.assertClaims(f"{before}\n\n{D}\n", [(before.count("\n") + 3, D)])

    def test_at_signs_in_a_table_that_are_not_directive_shaped(self) -> None:
        """Regression: a table (always in doubt: readers without GFM tables see a paragraph) holding an at
        sign that can never read as a directive, such as `@Override` in a code span or a mail autolink,
        refused the whole page as ambiguous_markup."""
        for table in (
            "| Annotation | Meaning |\n| --- | --- |\n| `@Override` | overrides |",
            "| Who | Mail |\n| --- | --- |\n| Bob | <bob@example.com> |",
        ):
            with self.subTest(table=table):
                self.assertClaims(f"{table}\n\n{D}\n", [(5, D)])


# --------------------------------------------------------------------------
# Where readers differ


class AmbiguousTest(ReaderTestCase):
    def test_directive_directly_before_a_table(self) -> None:
        """GFM: a paragraph and a table; without tables: one paragraph. Gate: ambiguous, naming line 2."""
        refusal = self.assertRefused(f"{D}\na | b\n--|--\n", "ambiguous_markup", 1, 1)
        self.assertIn("(line 2)", refusal.detail)

    def test_directive_line_right_after_a_table(self) -> None:
        """GFM: a table row; without tables: a paragraph line. Gate: ambiguous, naming the table's line 1."""
        refusal = self.assertRefused(f"| a | b |\n| - | - |\n{D}\n", "ambiguous_markup", 3, 1)
        self.assertIn("(line 1)", refusal.detail)

    def test_directive_in_a_table_cell(self) -> None:
        """A reader sees the text in a cell (GFM) or mid-paragraph (without tables): every table is in
        doubt (the gate does not read its cells), refused naming the table's first line."""
        refusal = self.assertRefused(f"| a |\n| - |\n| {D} |\n", "ambiguous_markup", 3, 3)
        self.assertIn("without GFM tables", refusal.detail)
        self.assertIn("(line 1)", refusal.detail)

    def test_indented_directive_after_a_table(self) -> None:
        """Regression: GFM shows the indented line after a table as code, a reader without tables as a
        paragraph line ``@quill create_copy existing_path=refuse``; the gate called it a code near-miss.
        Gate: ambiguous_markup."""
        self.assertRefused(f"| a | b |\n| - | - |\n    {D}\n", "ambiguous_markup", 3, 5)

    def test_table_in_a_list_item_whose_code_span_holds_a_pipe(self) -> None:
        """Regression: GitHub renders a table in the item (markdown-it a table); the row's pipe splits the
        code span, so a reader sees the directive text (and a stray backtick) in a cell. The gate read
        a paragraph with one code span and reported a near-miss. Gate: refuse."""
        text = f"- a | b\n  --|--\n  `x | {D}`\n"
        self.assertRefused(text, REFUSED_AS_SEEN | {"ambiguous_markup"}, 3, 8)

    def test_link_title_that_markdown_it_carries_over_a_setext_underline(self) -> None:
        """Regression: CommonMark reads ``[a]: /url '`` and ``===`` as a heading and shows the directive on
        line 3; markdown-it takes lines 1-4 as one link definition and shows nothing. Readers differ, so the
        gate must not count it: ambiguous_markup on line 3."""
        self.assertRefused(f"[a]: /url '\n===\n{D}\n'\n", "ambiguous_markup", 3, 1)

    def test_link_may_hide_the_text(self) -> None:
        """A link that spans the line may hide or show it: refused either way."""
        self.assertRefused(f"[see\n{D}\n](/url)\n", REFUSED_AS_SEEN | {"ambiguous_markup"}, 2, 1)

    def test_nesting_deeper_than_max_depth(self) -> None:
        self.assertRefused(">" * 70 + f" {D}\n", "ambiguous_markup", 1, 72)

    def test_references_to_look_alike_at_signs(self) -> None:
        """Regression: ``&#65312;`` (U+FF20) and ``&#xFE6B;`` were no candidates, so a reader saw a
        directive-shaped line the gate never looked at."""
        O = "quill create_copy existing_path=overwrite"
        for reference in ("&#65312;", "&#xFF20;", "&#65131;", "&#xfe6b;"):
            with self.subTest(reference=reference):
                self.assertRefused(f"{reference}{O}\n\n{D}\n", REFUSED_AS_SEEN, 1)
                self.assertRefused(f"<div>\n{reference}{O}\n</div>\n\n{D}\n", REFUSED_AS_SEEN, 2)

    def test_non_ascii_after_a_malformed_at_sign_is_no_traceback(self) -> None:
        """Regression: the hint decoded four bytes after the at sign and cut a fullwidth letter in
        two (``UnicodeDecodeError``)."""
        for text in ("\uff20\uff51uill", " @qu\u200bill", "\\@qu\u200bill", "&nbsp;@qu\u200bill"):
            with self.subTest(text=text):
                self.assertRefused(f"{text} create_copy\n", REFUSED_AS_SEEN, 1)
                self.assertNearMisses(
                    f"{text}\n",
                    [(1, len(text) - len(text.lstrip(" \\")) + 1 if not text.startswith("&") else 7, "mention")],
                )

    def test_footnote_definitions_as_github_reads_them(self) -> None:
        """Regression: GitHub reads ``[^1]:`` as a footnote definition and shows it, with its lazy
        lines and the indented blocks after it, at the end of the page; the gate counted a directive
        line below one (CommonMark: a link definition, then a paragraph) and called an indented one
        code. Both are refused, naming the footnote's line; an unindented line after a blank line is
        past the footnote and counts."""
        O = "@quill create_copy existing_path=overwrite"
        refusal = self.assertRefused(f"Text[^1].\n\n[^1]: A note.\n{O}\n", "ambiguous_markup", 4, 1)
        self.assertIn("footnote", refusal.detail)
        self.assertIn("(line 3)", refusal.detail)
        self.assertRefused(f"[^1]: A note.\n\n    {O}\n\nafter\n", "ambiguous_markup", 3, 5)
        self.assertClaims(f"[^1]: A note.\n\n{D}\n", [(3, D)])

    def test_tables_as_markdown_it_and_github_read_them(self) -> None:
        """Regression: markdown-it tries tables before quotes, lists and headings (``> a |`` above a
        delimiter row is a table's header to it), and GitHub makes a one-column table of a header
        row without a pipe above ``:-``; the gate counted the directive after them."""
        O = "@quill create_copy existing_path=overwrite"
        for header, delimiter in (("> a |", "---"), ("- a |", "---"), ("# a |", "|---|"), ("1. a |", "---")):
            with self.subTest(header=header):
                self.assertRefused(f"{header}\n{delimiter}\n{O}\n", "ambiguous_markup", 3)
        self.assertRefused(f"{D}\n:-\n", "ambiguous_markup", 1)
        self.assertClaims(f"Foo\n---\n{D}\n", [(3, D)])  # a setext heading for every reader

    def test_footnotes_interrupt_paragraphs_and_end_where_a_block_starts(self) -> None:
        """Regression: a footnote definition may interrupt a paragraph (GitHub); and a fence after
        one ends it, so a directive after that fence was refused for nothing."""
        O = "@quill create_copy existing_path=overwrite"
        self.assertRefused(f"Copies are atomic[^1].\n[^1]: On POSIX.\n{O}\n", "ambiguous_markup", 3)
        self.assertClaims(f"[^1]: x\n```\n{O}\n```\n\n{D}\n", [(6, D)])

    def test_footnotes_one_blank_line_apart(self) -> None:
        """Regression: GitHub shows ``[^2]: b`` and its lazy directive line as a footnote at the end of
        the page; the gate missed a footnote that opens the line after a blank line below another one,
        and counted the directive."""
        refusal = self.assertRefused(f"[^1]: a\n\n[^2]: b\n{D}\n", "ambiguous_markup", 4, 1)
        self.assertIn("(line 3)", refusal.detail)

    def test_a_footnote_below_keeps_the_doubt_above(self) -> None:
        """Regression: markdown-it reads ``> a |`` over ``---`` as a table's header, so the directive line
        under it is a table row there (GitHub: a quote, a break, a paragraph). A footnote definition
        further down holding an at sign hid that doubt, and the gate counted the line."""
        refusal = self.assertRefused(f"> a |\n---\n{D}\n\n[^1]: note @x`\n", "ambiguous_markup", 3, 1)
        self.assertIn("(line 1)", refusal.detail)

    def test_doubt_names_the_line_that_causes_it(self) -> None:
        """Regression: the doubt named the first line anywhere on the page where markdown-it may read
        differently (here line 2, after an unrelated link definition), not the lazy line 5 of this quote."""
        refusal = self.assertRefused(
            f"[a]: /url\n{D}\n\n> quote @quill create_copy\n    # lazy\n", "ambiguous_markup", 4, 9
        )
        self.assertIn("(line 5)", refusal.detail)


class ByteViewTest(ReaderTestCase):
    """Blocks are found in the page's UTF-8 bytes read as Latin-1 (one character per byte), so a byte of
    a non-ASCII character must never pass for ASCII whitespace, a letter or a digit there."""

    #: 1-, 2-, 3- and 4-byte characters, and ones whose bytes include 0xA0 or 0x85 (``à`` is C3 A0,
    #: U+00A0 is C2 A0, U+0085 is C2 85), which Python's Unicode ``\s`` matches as Latin-1.
    LABELS = ("a", "\u00e9", "\u00e0", "\u20ac", "\U0001f600", "\u00a0", "\u0085", "\u2028")

    @staticmethod
    def page(label: str) -> str:
        return f"Text.\n\n[^{label}]: note\n{D}\n"

    def test_footnote_label_with_a_byte_unicode_calls_a_space(self) -> None:
        """Regression: the footnote pattern's ``\\s`` matched byte 0xA0, the second byte of ``\u00e0``, so
        ``[^\u00e0]: note`` was no footnote to the gate, and the directive line GitHub shows inside the
        footnote (its lazy line) was counted, where ``[^a]`` and ``[^\u00e9]`` were in doubt. Every label is
        in doubt now, naming the footnote's line."""
        for label in self.LABELS:
            with self.subTest(label=label):
                refusal = self.assertRefused(self.page(label), "ambiguous_markup", 4, 1)
                self.assertIn("footnote", refusal.detail)
                self.assertIn("(line 3)", refusal.detail)

    def test_footnote_label_with_a_byte_unicode_calls_a_space_through_load_documents(self) -> None:
        """The same regression through the corpus loader (raw bytes, pinned, read once)."""
        files = {f"docs/label-{i}.md": self.page(label).encode("utf-8") for i, label in enumerate(self.LABELS)}
        with tempfile.TemporaryDirectory(prefix="conflict-gate-test-") as tmp:
            corpus = load_documents(write_corpus(tmp, files))
        self.assertEqual(len(corpus.sources), len(self.LABELS))
        for sid, source in corpus.sources.items():
            with self.subTest(source=sid):
                self.assertEqual(source.claims, ())
                self.assertEqual(
                    (source.refusal.reason, source.refusal.line) if source.refusal else None, ("ambiguous_markup", 4)
                )

    def test_hidden_attribute_needs_ascii_whitespace_before_it(self) -> None:
        """An element with a ``hidden`` attribute opened on an earlier line of a paragraph hides the
        paragraph's later lines; a byte 0xA0 (``\u00e0``) before ``hidden`` in an attribute value is no
        attribute separator, nor is U+00A0, so the ``<span>`` is shown and the line is the paragraph's own."""
        self.assertRefused(f"<div hidden>\n\n{D}\n", "ambiguous_markup", 3, 1)
        self.assertRefused(f"x <span hidden>\n{D}\n</span>\n", "ambiguous_markup", 2, 1)
        for value in ("\u00e0hidden", "\u00a0hidden"):
            with self.subTest(value=value):
                self.assertClaims(f"x <span title={value}>\n{D}\n</span>\n", [(2, D)])


# --------------------------------------------------------------------------
# Claims, messages, order


class SpanTest(unittest.TestCase):
    def test_spans_with_bom_crlf_lone_cr_and_non_ascii(self) -> None:
        """Every claim's span: text[start:end] == quote == raw[byte_start:byte_end]; a whole CommonMark line."""
        pages = {
            "bom+crlf+non-ascii": ("\ufeffÜber café 🎉\r\n\r\n" + D + "\r\n" + D2 + "\r\n").encode(),
            "lone cr": f"a\rb\r\r{D}\r{D2}".encode(),
            "mixed endings": f"é\n\rñ\r\n\r{D}\n\n{D2}\r".encode(),
            "bom only": _BOM + D.encode(),
            "no final newline": f"ö\n\n{D}".encode(),
        }
        expected_lines = {
            "bom+crlf+non-ascii": [3, 4],
            "lone cr": [4, 5],
            "mixed endings": [5, 7],
            "bom only": [1],
            "no final newline": [3],
        }
        for name, raw in pages.items():
            body = raw[len(_BOM) :] if raw.startswith(_BOM) else raw
            for encoded in (None, body):
                with self.subTest(name, encoded=encoded is not None):
                    reading = read_raw(raw, encoded=encoded)
                    self.assertIsNone(reading.refusal, reading.refusal and str(reading.refusal))
                    self.assertEqual([c.line for c in reading.claims], expected_lines[name])
                    for claim in reading.claims:
                        assert_span_invariants(raw, claim)
                        self.assertIsInstance(claim, Claim)

    def test_claim_fields(self) -> None:
        raw = ("ä\n\n" + D2).encode()
        (claim,) = read_raw(raw).claims
        self.assertEqual(claim, Claim("create_copy", "close_required", "yes", 3, 3, 3 + len(D2), 4, 4 + len(D2), D2))

    def test_refusal_and_near_miss_lines_count_lone_cr(self) -> None:
        reading = read(f"a\r\r```\r@quill x\r```\r\rsee {D}\r")
        self.assertEqual([(n.line, n.column) for n in reading.near_misses], [(4, 1)])
        assert reading.refusal is not None
        self.assertEqual((reading.refusal.line, reading.refusal.column), (7, 5))
        self.assertEqual(reading.refusal.quote, f"see {D}")


class MessageTest(ReaderTestCase):
    def test_malformed_hints_name_the_cause(self) -> None:
        cases = [
            (f"  {D}\n", "indented"),
            (f"\\{D}\n", "escaped"),
            ("&#64;quill create_copy existing_path=refuse\n", "character reference"),
            (f"&nbsp;{D}\n", "character reference"),
            (f"\u200b{D}\n", "invisible"),
            (f"\u2060{D}\n", "invisible"),
            ("\uff20quill create_copy existing_path=refuse\n", "U+FF20"),
            ("\ufe6bquill create_copy existing_path=refuse\n", "U+FE6B"),
            (f"` `{D}\n", "markup"),
            (f"<b></b>{D}\n", "markup"),
        ]
        for text, cause in cases:
            with self.subTest(text=text):
                refusal = self.assertRefused(text, "malformed_directive", 1)
                self.assertIn(cause, refusal.detail)
                self.assertEqual(refusal.quote, text.rstrip("\n"))

    def test_misplaced_messages_name_the_container_and_its_line(self) -> None:
        cases = [
            (f"> - {D}\n", "in a list item (starting line 1)"),
            (f"- a\n\n  > x\n  > {D}\n", "in a block quote (starting line 3)"),
            (f"text\n\n> quote\n> more\n>\n> {D}\n", "in a block quote (starting line 3)"),
            (f"## {D}\n", "in a heading"),
            (f"<div>{D}</div>\n", "in an HTML block"),
            (f"---\nx: {D}\n---\n", "in front matter"),
            (f"Then {D}.\n", "after other text on its line"),
        ]
        for text, place in cases:
            with self.subTest(text=text):
                refusal = read(text).refusal
                assert refusal is not None
                self.assertEqual(refusal.reason, "misplaced_directive")
                self.assertIn(place, refusal.detail)

    def test_grammar_errors_of_a_counted_line(self) -> None:
        cases = [
            ("@quill create_copy existing_path=maybe\n", "unknown_directive_value", 34),
            ("@quill nope existing_path=refuse\n", "unsupported_operation", 8),
            ("@quill create_copy nope=refuse\n", "unsupported_claim_key", 20),
            ("@Quill create_copy existing_path=refuse\n", "malformed_directive", 2),
            (f"{D} # note\n", "malformed_directive", 40),
        ]
        for text, reason, column in cases:
            with self.subTest(text=text):
                self.assertRefused(text, reason, 1, column)

    def test_duplicate_names_the_first_line(self) -> None:
        refusal = self.assertRefused(f"{D}\n\ntext\n\n{D}\n", "duplicate_directive", 5, 1)
        self.assertIn("line 1", refusal.detail)
        refusal = self.assertRefused(
            f"{D2}\n{D}\n@quill create_copy existing_path=overwrite\n", "duplicate_directive", 3, 1
        )
        self.assertIn("line 2", refusal.detail)

    def test_error_message_carries_source_and_position(self) -> None:
        reading = read(f"x\n# {D}\n", source_id="guide", path="docs/guide.md")
        assert reading.refusal is not None
        self.assertTrue(str(reading.refusal).startswith("source 'guide' (docs/guide.md:2:3): "))
        refusal = reading.refusal
        self.assertEqual(
            (refusal.reason, refusal.source_id, refusal.path, refusal.line, refusal.column),
            ("misplaced_directive", "guide", "docs/guide.md", 2, 3),
        )
        self.assertEqual(refusal.quote, f"# {D}")

    def test_first_problem_in_line_order_wins(self) -> None:
        cases = [
            (f"# {D}\n\n  {D}\n", "misplaced_directive", 1),
            (f"  {D}\n\n# {D}\n", "malformed_directive", 1),
            (f"{D}\n\n{D}\n\n# {D2}\n", "duplicate_directive", 3),
            (f"{D}\n\n# {D2}\n\n{D}\n", "misplaced_directive", 3),
            (f"@quill create_copy existing_path=no\n\n> {D}\n", "unknown_directive_value", 1),
            (f"see {D}\n  {D2}\n", "misplaced_directive", 1),
            (f"```\n{D}\n```\n\n- {D}\n\n{D}\n", "misplaced_directive", 5),
            (f"| a |\n| - |\n| {D} |\n\n# {D}\n", "ambiguous_markup", 3),
            (f"# {D}\n\n| a |\n| - |\n| {D} |\n", "misplaced_directive", 1),
        ]
        for text, reason, line in cases:
            with self.subTest(text=text):
                self.assertRefused(text, reason, line)


class NearMissTest(ReaderTestCase):
    def test_near_miss_record(self) -> None:
        text = f"Intro.\n\n```\n  {D}\n```\n\n<!-- {D2} -->\n"
        reading = self.assertNearMisses(text, [(4, 3, "code"), (7, 6, "hidden")])
        self.assertEqual(reading.near_misses[0], NearMiss(4, 3, "code", f"  {D}"))
        self.assertEqual(reading.near_misses[1], NearMiss(7, 6, "hidden", f"<!-- {D2} -->"))

    def test_quote_is_cut(self) -> None:
        line = "    " + D + " " + "x" * 500
        (near,) = self.assertNearMisses(line + "\n", [(1, 5, "code")]).near_misses
        self.assertEqual(near.quote, line[:200])

    def test_near_misses_are_capped(self) -> None:
        """A page with 10,000 fenced ``@quill x`` lines keeps the first MAX_NEAR_MISSES, in line order."""
        text = "```\n" + "@quill x\n" * 10_000 + "```\n"
        reading = self.assertNearMisses(text, [(line, 1, "code") for line in range(2, 2 + MAX_NEAR_MISSES)])
        self.assertEqual(MAX_NEAR_MISSES, 100)
        self.assertEqual({n.quote for n in reading.near_misses}, {"@quill x"})

    def test_other_namespaces_never_hide_a_later_near_miss(self) -> None:
        """Regression: 100 ``@param`` lines in a fence used up the near-miss cap, so the ``@quill`` line
        after them was never reported. Lines of another namespace are no near-misses at all."""
        for other in ("@param x", "@param`x`", "@param* y", "@paramé", "@Override", '@app.get("/")'):
            with self.subTest(other=other):
                lines = f"{other}\n" * 150 + "@quill x\n"
                text = f"```\n{lines}```\n\n<!--\n{lines}-->\n"
                self.assertNearMisses(text, [(152, 1, "code"), (306, 1, "hidden")])

    def test_shaped_text_needs_the_namespace_as_a_word(self) -> None:
        text = "```\n@quill\n@QUILL run\n@quill.task\n@quillx\n@q_u_i_l_l y\n@quil\n```\n"
        self.assertNearMisses(text, [(2, 1, "code"), (3, 1, "code"), (6, 1, "code")])


# --------------------------------------------------------------------------
# Adversarial input: a typed outcome, never an exception (no timing asserted)


class AdversarialInputTest(unittest.TestCase):
    """Hostile input gives the reading a reader's renderer gives, in linear time (the bench times it),
    never an exception: each input's expected refusal ``(reason, line, column)`` or ``None``, and its
    number of near-misses. ``SIZE`` is :data:`FUZZ_BYTES` (100,000 in ``.ci/run``); an input built to
    pass a cap (candidates, depth, lines) is as large as the cap needs at any size."""

    SIZE = FUZZ_BYTES
    INPUTS: ClassVar[dict[str, tuple[str, tuple[str, int, int] | None, int]]] = {
        # More candidate at signs than MAX_CANDIDATES: refused unread, at the first one past the cap.
        "lone-CR lines full of at signs": (
            "@quill @@ @x* @ \r" * (max(SIZE, 100_000) // 17),
            ("too_complex", 5001, 1),
            0,
        ),
        "lone-CR lines under the candidate cap": (
            ("@quill create_copy\r" + "y" * 80 + "\r") * (SIZE // 100),
            ("malformed_directive", 1, 19),
            0,
        ),
        "lone-CR mention lines under the candidate cap": (("@quill x\r" + "y" * 90 + "\r") * (SIZE // 100), None, 100),
        "lone-CR directive lines": ((D + "\r") * (SIZE // 50) + "z" * (SIZE // 5), ("duplicate_directive", 2, 1), 0),
        "@ and newline": ("@\n" * (SIZE // 2), None, 0),
        # Containers past MAX_DEPTH are not opened: the block is in doubt.
        "5,000 nested >": ((">" * 5_000 + f" {D}\n") * 40, ("ambiguous_markup", 1, 5002), 0),
        "nested > on one line": (">" * SIZE + f" {D}", ("ambiguous_markup", 1, SIZE + 2), 0),
        "nested list markers on one line": ("- " * (SIZE // 2) + D, ("ambiguous_markup", 1, SIZE + 1), 0),
        "nested ordered markers": ("1. " * (SIZE // 3) + D, ("ambiguous_markup", 1, SIZE // 3 * 3 + 1), 0),
        "deep list over lines": (
            "".join("  " * i + "- @quill create_copy\n" for i in range(150)) + "x" * (SIZE * 9 // 5),
            ("misplaced_directive", 1, 3),
            0,
        ),
        # A backtick fence whose info string is the directive: hidden, a near-miss for CommonMark; MkDocs
        # (superfences) reads no unclosed fence, so the line is text there: the default (portable) doubts it.
        "a run of backticks": ("`" * SIZE + D, ("ambiguous_markup", 1, SIZE + 1), 0),
        "a run of backticks mid-line": ("x" + "`" * SIZE + D, ("misplaced_directive", 1, SIZE + 2), 0),
        "backtick runs of every length": (
            "".join("`" * i + "@quill create_copy" for i in range(1, 600)),
            ("misplaced_directive", 1, 2),
            0,
        ),
        # Brackets nested deeper than MAX_NESTING are not followed.
        "a run of [": ("[" * SIZE + D, ("too_complex", 1, SIZE + 1), 0),
        "a run of [ then ]": ("[" * (SIZE // 2) + D + "]" * (SIZE // 2), ("too_complex", 1, SIZE // 2 + 1), 0),
        "nested link destinations": ("[a](" * (SIZE // 4) + D, ("too_complex", 1, SIZE + 1), 0),
        # MDX does not build it, so portable judges it by the other readings: text before D on its line
        "unclosed tags": ("<a " * (SIZE // 3) + D, ("misplaced_directive", 1, SIZE // 3 * 3 + 1), 0),
    }

    def test_a_block_too_large_to_read_inline_is_refused(self) -> None:
        """Regression: a 16 MB paragraph of code spans holding a candidate kept about 100 bytes per
        construct (1.8 GB); a block over MAX_BLOCK_BYTES whose inline markup would be read is refused."""
        from _conflict_gate.reading.reading_shapes import MAX_BLOCK_BYTES

        text = "`a` " * (MAX_BLOCK_BYTES // 4 + 1) + "\n@quill create_copy existing_path=refuse\n"
        reading = read_directives(text, GRAMMAR)
        self.assertEqual(reading.refusal.reason if reading.refusal else None, "too_complex")
        self.assertIn(str(MAX_BLOCK_BYTES), reading.refusal.detail if reading.refusal else "")

    def test_one_block_of_inline_markup_keeps_memory_bounded(self) -> None:
        """Regression (issue 15): reading one block's inline markup kept about 200 bytes per byte of it
        (a 1 MB paragraph of ``[a] `` short links: 196 MB); views and spans are arrays now, and a block
        in which no link can form has one view. What a larger block adds to the peak stays under 10
        bytes per byte it adds (the bench measures the whole peak at 1 MB). Measured at 20,000 and 4,000
        bytes with ``CONFLICT_GATE_FUZZ_BYTES=100000`` (``.ci/run``), at half that by default."""
        import tracemalloc

        line = "@quill create_copy existing_path=refuse"

        def peak(unit: str, size: int) -> int:
            text = unit * (size // len(unit)) + "\n" + line + "\n"
            tracemalloc.start()
            try:
                reading = read_directives(text, GRAMMAR)
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
                self.assertEqual([c.line for c in reading.claims], [2])

        large = min(FUZZ_BYTES // 2, 20_000)
        added = large - large // 5
        for unit in ("[a] ", "`a` "):
            with self.subTest(unit=unit):
                peak(unit, 1000)  # caches filled
                grown = peak(unit, large) - peak(unit, large // 5)
                self.assertLess(grown, 10 * added, f"{grown / added:.1f} bytes per byte")

    def test_adversarial_inputs_give_the_expected_outcome(self) -> None:
        for name, (text, expected, near_misses) in self.INPUTS.items():
            with self.subTest(name):
                self.assertGreaterEqual(len(text), self.SIZE - 100)  # large: the bench times growth
                reading = read_directives(text, GRAMMAR)
                refusal = reading.refusal
                self.assertEqual(reading.claims, ())
                self.assertEqual(
                    refusal and (refusal.reason, refusal.line, refusal.column), expected, refusal and str(refusal)[:300]
                )
                self.assertEqual(len(reading.near_misses), near_misses)
                if refusal is not None:
                    self.assertLessEqual(len(refusal.quote), 200)


if __name__ == "__main__":
    unittest.main()
