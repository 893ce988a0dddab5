"""The manifest names its renderer (issue 15): every example of the issue under ``github`` and ``commonmark``.

Each example is read twice, through :func:`read_directives` with the
renderer's value (with and without the block shortcuts) and through
:func:`load_documents` with a manifest that says ``"renderer"``, and must give
the same outcome both ways. ``D`` is the ``refuse`` directive, ``O`` the
``overwrite`` one. What github.com shows is the GitHub differential's
(``tests/test_reader_differential_github.py``, cmark-gfm read as a browser
builds the page); ``commonmark`` is the union of readings, so it refuses
wherever some reading it stands for differs.
"""

from __future__ import annotations

import tempfile
import unittest
from typing import ClassVar, NamedTuple

from _conflict_gate.base.registry import DEFAULT_RENDERER, RENDERERS
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.html_tree import MAX_OPEN
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.reading_shapes import MAX_HTML_LINES, Reading
from _conflict_gate.reading.renderers import COMMONMARK, DEFAULT, GITHUB_COM, PORTABLE, RENDERER_VALUES, Renderer
from tests.support import QUILL_GRAMMAR, assert_span_invariants, write_corpus

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"


class Outcome(NamedTuple):
    """What the gate makes of a page: claims ``(line, value)``, or a refusal ``(reason, line)``, and
    near-misses ``(line, where)``."""

    claims: tuple[tuple[int, str], ...] = ()
    refusal: tuple[str, int] | None = None
    near_misses: tuple[tuple[int, str], ...] = ()


def claims(*pairs: tuple[int, str], near: tuple[tuple[int, str], ...] = ()) -> Outcome:
    return Outcome(tuple(pairs), None, near)


def refused(reason: str, line: int) -> Outcome:
    return Outcome((), (reason, line))


def near(*pairs: tuple[int, str]) -> Outcome:
    return Outcome((), None, tuple(pairs))


def outcome(reading: Reading) -> Outcome:
    refusal = reading.refusal
    return Outcome(
        tuple((c.line, c.value) for c in reading.claims),
        None if refusal is None else (refusal.reason, refusal.line or 0),
        () if refusal is not None else tuple((n.line, n.where) for n in reading.near_misses),
    )


class Example(NamedTuple):
    name: str
    text: str
    github: Outcome
    commonmark: Outcome


AMBIGUOUS = "ambiguous_markup"
_FILTERED = ("title", "script", "style", "textarea", "iframe", "noembed", "xmp")

#: Every example of issue 15, and what the gate must make of it under each renderer.
EXAMPLES: tuple[Example, ...] = (
    # The tag filter: github.com shows the tag and O as text; a renderer without it hides O in the tag.
    Example(
        "D, then <script and O", f"{D}\n\n<script\n{O}\n", refused("misplaced_directive", 4), refused(AMBIGUOUS, 4)
    ),
    *(
        Example(
            f"D, then a <{tag}> block holding O",
            f"{D}\n\n<{tag}>\n{O}\n</{tag}>\n",
            refused("misplaced_directive", 4),
            refused(AMBIGUOUS, 4),
        )
        for tag in ("script", "style", "title")
    ),
    *(
        Example(
            f"<{tag}> in a paragraph, then D",
            f"Use <{tag}> here.\n\n{D}\n",
            claims((3, "refuse")),
            refused(AMBIGUOUS, 3),
        )
        for tag in _FILTERED
    ),
    # Raw HTML opened inside a paragraph that hides the following lines.
    *(
        Example(
            f"x <{tag}>, O, </{tag}>", f"x <{tag}>\n{O}\n</{tag}>\n", claims((2, "overwrite")), refused(AMBIGUOUS, 2)
        )
        for tag in _FILTERED
    ),
    Example(
        "x <template>, O, </template>",
        f"x <template>\n{O}\n</template>\n",
        refused(AMBIGUOUS, 2),
        refused(AMBIGUOUS, 2),
    ),
    Example(
        "x <noscript>, O, </noscript>",
        f"x <noscript>\n{O}\n</noscript>\n",
        refused(AMBIGUOUS, 2),
        refused(AMBIGUOUS, 2),
    ),
    # regression (a hostile tester's page): GitHub's sanitizer drops <listing>, so O shows as text there
    Example(
        "D, then a <listing> block holding O",
        f"{D}\n\n<listing>\n{O}\n</listing>\n",
        refused(AMBIGUOUS, 4),
        Outcome(((1, "refuse"),), None, ((4, "code"),)),
    ),
    # Elements a browser keeps open across blocks.
    *(
        Example(f"{opened} left open, then D", f"{opened}\n\n{D}\n", refused(AMBIGUOUS, 3), refused(AMBIGUOUS, 3))
        for opened in (
            "<div><pre>",
            "<blockquote>",
            "<ul>",
            "<h1>",
            '<a href="https://docs.quill.example">',
            "<code>",
            "<div>",
            "<details>",
            "<div hidden>",
            "<del>",
        )
    ),
    Example(
        "<blockquote> closed after D",
        f"<blockquote>\n\n{D}\n\n</blockquote>\n",
        refused(AMBIGUOUS, 3),
        refused(AMBIGUOUS, 3),
    ),
    Example("x <b> left open, then D", f"x <b>\n\n{D}\n", refused(AMBIGUOUS, 3), refused(AMBIGUOUS, 3)),
    Example(
        "<details> closed before D",
        f"<details>\n<summary>More</summary>\n\nbody\n\n</details>\n\n{D}\n",
        claims((8, "refuse")),
        claims((8, "refuse")),
    ),
    Example(
        "<div> closed by a later HTML block",
        f"<div>\n\nbody\n\n</div>\n\n{D}\n",
        claims((7, "refuse")),
        claims((7, "refuse")),
    ),
    # Directive-shaped text as a reader sees it.
    Example(
        "a namespace typo above D",
        f"@quil create_copy existing_path=overwrite\n{D}\n",
        refused("malformed_directive", 1),
        refused("malformed_directive", 1),
    ),
    Example(
        "a mention, then D",
        f"Questions? Ping @quill on Slack\n\n{D}\n",
        claims((3, "refuse"), near=((1, "mention"),)),
        claims((3, "refuse"), near=((1, "mention"),)),
    ),
    Example(
        "a mention in a URL, then D",
        f"https://github.com/@quill\n\n{D}\n",
        claims((3, "refuse"), near=((1, "mention"),)),
        claims((3, "refuse"), near=((1, "mention"),)),
    ),
    Example("a trailing space after D", f"{D} \n", claims((1, "refuse")), claims((1, "refuse"))),
    Example("a trailing tab after D", f"{D}\t\n", claims((1, "refuse")), claims((1, "refuse"))),
    Example(
        "two trailing spaces after D (a hard break)",
        f"{D}  \nMore text.\n",
        claims((1, "refuse")),
        claims((1, "refuse")),
    ),
    # Doubts only the union raises.
    Example(
        "TOML front matter holding D", f"+++\n{D}\n+++\n", claims((2, "refuse")), refused("misplaced_directive", 2)
    ),
    Example(
        "D right after a table",
        f"| a | b |\n| --- | --- |\n| c | d |\n{D}\n",
        refused("misplaced_directive", 4),
        refused(AMBIGUOUS, 4),
    ),
    Example("D in a comment", f"<!--\n{D}\n-->\n", near((2, "hidden")), near((2, "hidden"))),
)


def expected(example: Example, name: str | None) -> Outcome:
    """The example's outcome under renderer ``name`` (None: the manifest names none, so ``portable``).
    ``mkdocs`` reads these pages as ``commonmark`` (none has a MkDocs construct); the MyST, Docusaurus
    and portable readings are their reader's (what reaches it from the manifest is what is tested)."""
    if name == "github":
        return example.github
    if name in ("commonmark", "mkdocs"):
        return example.commonmark
    return outcome(read_directives(example.text, GRAMMAR, renderer=RENDERER_VALUES[name or "portable"]))


class RendererValuesTest(unittest.TestCase):
    def test_one_value_per_name_of_the_registry(self) -> None:
        """Guards against a renderer named in the registry without a value (or the other way round)."""
        self.assertEqual(tuple(RENDERER_VALUES), tuple(RENDERERS))
        self.assertIs(DEFAULT, RENDERER_VALUES[DEFAULT_RENDERER])
        self.assertIs(DEFAULT, PORTABLE)
        for name, renderer in RENDERER_VALUES.items():
            with self.subTest(name=name):
                self.assertIsInstance(renderer, Renderer)
                self.assertEqual((renderer.name, renderer.meaning), (name, RENDERERS[name]))

    def test_github_compares_no_other_reading(self) -> None:
        """``github`` is GitHub's reading alone: no markdown-it or tables variant (front matter closed by
        ``...`` only); ``commonmark`` compares all three."""
        self.assertEqual([v.name for v in GITHUB_COM.flavour.variants], ["front_matter"])
        self.assertEqual([v.name for v in COMMONMARK.flavour.variants], ["front_matter", "tables", "markdown_it"])


class IssueExamplesTest(unittest.TestCase):
    maxDiff = None

    def test_every_example_through_read_directives(self) -> None:
        for example in EXAMPLES:
            for renderer, expected in ((GITHUB_COM, example.github), (COMMONMARK, example.commonmark)):
                with self.subTest(example=example.name, renderer=renderer.name):
                    reading = read_directives(example.text, GRAMMAR, renderer=renderer)
                    slow = read_directives(example.text, GRAMMAR, renderer=renderer, fast=False)
                    self.assertEqual(outcome(reading), expected, reading.refusal and str(reading.refusal))
                    self.assertEqual(outcome(slow), expected)

    def test_every_example_through_load_documents(self) -> None:
        """The manifest's ``"renderer"`` reaches the reader; absent, it is ``portable``."""
        files = {f"docs/e{i}.md": example.text.encode("utf-8") for i, example in enumerate(EXAMPLES)}
        for name in (*RENDERERS, None):
            with self.subTest(renderer=name), tempfile.TemporaryDirectory(prefix="conflict-gate-test-") as tmp:
                manifest = write_corpus(tmp, files, extra=None if name is None else {"renderer": name})
                corpus = load_documents(manifest)
                self.assertEqual(corpus.renderer.name, name or "portable")
                for i, example in enumerate(EXAMPLES):
                    source = corpus.sources[f"e{i}"]
                    wanted = expected(example, name)
                    got = Outcome(
                        tuple((c.line, c.value) for c in source.claims),
                        None if source.refusal is None else (source.refusal.reason, source.refusal.line or 0),
                        () if source.refusal is not None else tuple((n.line, n.where) for n in source.near_misses),
                    )
                    self.assertEqual(got, wanted, example.name)
                    for claim in source.claims:
                        assert_span_invariants(files[f"docs/e{i}.md"], claim)


class TrailingWhitespaceTest(unittest.TestCase):
    def test_the_claim_leaves_them_out(self) -> None:
        """Regression: a space after a directive refused it (``malformed_directive``, "nothing after the
        value"), though a reader sees exactly the directive. Accepted now; ``quote``, ``end`` and
        ``byte_end`` stop at the value."""
        for tail in (" ", "\t", "  ", " \t ", " \r"):
            with self.subTest(tail=tail):
                text = f"Intro.\n\n{D}{tail}\nnext\n"
                reading = read_directives(text, GRAMMAR)
                self.assertIsNone(reading.refusal)
                (claim,) = reading.claims
                self.assertEqual(claim.quote, D)
                self.assertEqual(text[claim.start : claim.end], D)
                assert_span_invariants(text.encode("utf-8"), claim)

    def test_other_text_after_the_value_still_refuses(self) -> None:
        for tail in (" x", " \\", "\u00a0", " # note"):
            with self.subTest(tail=tail):
                refusal = read_directives(f"{D}{tail}\n", GRAMMAR).refusal
                self.assertIsNotNone(refusal)


class MentionTest(unittest.TestCase):
    def nm(self, text: str, renderer: Renderer = DEFAULT) -> Outcome:
        return outcome(read_directives(text, GRAMMAR, renderer=renderer))

    def test_mentions_anywhere_are_near_misses(self) -> None:
        """Regression: ``Ping @quill on Slack`` refused the whole page (``misplaced_directive``) though
        nothing claim-shaped is there. A mention is a near-miss ``mention`` wherever a reader sees it."""
        for text, line in (
            ("Ping @quill on Slack.\n", 1),
            ("- ask @quill\n", 1),
            ("# About @quill\n", 1),
            ("> see @quill\n", 1),
            ("<div>\n@quill\n</div>\n", 2),
            ("@quill\n", 1),
            ("  @quill team\n", 1),
            ("Thanks @QUILL!\n", 1),
            ("\\@quill x\n", 1),
            ("Mail &#64;quill today\n", 1),
        ):
            with self.subTest(text=text):
                self.assertEqual(self.nm(text), near((line, "mention")))

    def test_an_operation_or_an_equals_sign_makes_it_directive_shaped(self) -> None:
        """A namespace followed by an operation stays refused; so does one on a line with ``=``."""
        for text in (
            "Ping @quill create_copy\n",
            "Ping @quill about create_copy.\n",
            "@quill says a=b\n",
            "a=b, ping @quill\n",
            "@quill x &#61; y\n",
            "- @quill create_copy\n",
        ):
            with self.subTest(text=text):
                self.assertIsNotNone(read_directives(text, GRAMMAR).refusal)

    def test_code_on_the_line_is_not_what_a_reader_reads(self) -> None:
        """Regression (generated page): ``Set `x=1`. Ping @quill on Slack.`` refused for the ``=`` in the
        code span, and ``Ping @quill. Call `quill.create_copy(a, b)`.`` for the operation in code. The
        line is judged as a reader sees it: code spans and raw HTML left out."""
        for text in (
            "Use ``dst=`tmp` `` here. Thanks @quill!\n",
            "Ping @quill, call `quill.create_copy(a, b)`.\n",
            "Set it with `configure(\nclose_required=True)` first. Ping @quill!\n",
            'Ping @quill <a href="x?y=z">here</a>.\n',
        ):
            with self.subTest(text=text):
                self.assertEqual(self.nm(text).refusal, None)
                self.assertEqual([where for _, where in self.nm(text).near_misses], ["mention"])

    def test_mentions_never_fill_the_page_with_refusals(self) -> None:
        text = "".join(f"Thanks @quill for item {i}.\n\n" for i in range(300)) + D + "\n"
        reading = read_directives(text, GRAMMAR)
        self.assertEqual(outcome(reading).claims, ((601, "refuse"),))
        self.assertEqual(len(reading.near_misses), 100)


class StatedClaimTest(unittest.TestCase):
    def test_a_claim_under_another_at_word_refuses(self) -> None:
        """Regression: ``@quil create_copy existing_path=overwrite`` above the directive was ``ready
        refuse``; the page visibly states overwrite. Any at-word, any case, any place a reader sees."""
        for text, line in (
            (f"@quil create_copy existing_path=overwrite\n{D}\n", 1),
            (f"{D}\n\n- @Quill CREATE_COPY Existing_Path = overwrite\n", 3),
            (f"{D}\n\n| @q create_copy existing_path=x |\n|---|\n", 3),
            (f"{D}\n\nSee @docs: create_copy with existing_path=overwrite.\n", 3),
            (f"{D}\n\n<div>@x create_copy existing_path&#61;overwrite</div>\n", 3),
            (f"{D}\n\n\uff20quil create_copy existing_path=overwrite\n", 3),
        ):
            with self.subTest(text=text):
                refusal = read_directives(text, GRAMMAR).refusal
                self.assertIsNotNone(refusal)
                assert refusal is not None
                self.assertEqual(refusal.line, line, str(refusal))
        refusal = read_directives(f"@quil create_copy existing_path=overwrite\n{D}\n", GRAMMAR).refusal
        assert refusal is not None
        self.assertEqual(refusal.reason, "malformed_directive")
        self.assertIn("'quill'", refusal.detail)
        self.assertIn("'@quil'", refusal.detail)

    def test_in_code_or_hidden_it_is_a_near_miss(self) -> None:
        for text, expected in (
            (f"```\n@quil create_copy existing_path=x\n```\n\n{D}\n", claims((5, "refuse"), near=((2, "code"),))),
            (f"Write `@q create_copy existing_path=x`.\n\n{D}\n", claims((3, "refuse"), near=((1, "code"),))),
            (f"<!-- @q create_copy existing_path=x -->\n\n{D}\n", claims((3, "refuse"), near=((1, "hidden"),))),
        ):
            with self.subTest(text=text):
                self.assertEqual(outcome(read_directives(text, GRAMMAR, renderer=COMMONMARK)), expected)
        # portable: Docusaurus 3 hides an HTML comment too (issue 29), so every reading agrees
        self.assertEqual(
            outcome(read_directives(f"<!-- @q create_copy existing_path=x -->\n\n{D}\n", GRAMMAR)),
            claims((3, "refuse"), near=((1, "hidden"),)),
        )

    def test_what_states_nothing_is_left_alone(self) -> None:
        """Only an operation of the grammar followed by one of its keys and ``=`` states a claim; an at
        sign a reader does not see as one (``&#64quill`` in a paragraph) states nothing."""
        for text in (
            '@app.get("/", existing_path=1)\n',
            "@x move existing_path=1\n",
            "@x create_copy nope=1\n",
            "existing_path=1 @x create_copy\n",
            "&#64quill create_copy existing_path=overwrite\n",
        ):
            with self.subTest(text=text):
                self.assertEqual(
                    outcome(read_directives(f"{D}\n\n{text}", GRAMMAR, renderer=COMMONMARK)), claims((1, "refuse"))
                )
        # regression (a hostile tester's page): Python-Markdown completes the reference into an at sign,
        # so MkDocs shows the line as a directive; mkdocs and portable refuse
        for renderer in (RENDERER_VALUES["mkdocs"], DEFAULT):
            with self.subTest(renderer=renderer.name):
                self.assertEqual(
                    outcome(
                        read_directives(
                            f"{D}\n\n&#64quill create_copy existing_path=overwrite\n", GRAMMAR, renderer=renderer
                        )
                    ),
                    refused("ambiguous_markup", 3),
                )


def check_both_renderers(test: unittest.TestCase, text: str, expected: Outcome) -> None:
    """``text`` reads as ``expected`` under github.com and CommonMark, with and without the fast paths."""
    for renderer in (GITHUB_COM, COMMONMARK):
        with test.subTest(text=text, renderer=renderer.name):
            reading = read_directives(text, GRAMMAR, renderer=renderer)
            test.assertEqual(outcome(reading), expected, reading.refusal and str(reading.refusal))
            test.assertEqual(outcome(read_directives(text, GRAMMAR, renderer=renderer, fast=False)), expected)


class RawHtmlLeftOpenTest(unittest.TestCase):
    """What raw HTML leaves open, as a browser builds the page (html_tree), under both renderers."""

    def check(self, text: str, expected: Outcome) -> None:
        check_both_renderers(self, text, expected)

    def test_closed_elements_leave_nothing_open(self) -> None:
        for html in (
            "<div>x</div>",
            '<p align="center"><img src=x></p>',
            "<br>",
            "<div/>\n</div>",
            "<hr/>",
            '<svg><path d="M0"/></svg>',
            "<table><tr><td>x</table>",
            "<b><i>x</i></b>",
            "<details><summary>s</summary>\n\nbody\n\n</details>",
            "<!-- a -->",
            "<?php x ?>",
        ):
            self.check(f"{html}\n\n{D}\n", claims((html.count("\n") + 3, "refuse")))

    def test_what_stays_open(self) -> None:
        """A void element never opens; ``<div/>`` does (HTML ignores the flag); an end tag closes only
        its own element and what was opened after it; a formatting element closed across blocks stays
        reconstructed until its own end tag."""
        for html in (
            "<div/>",
            "<span><div></span>",
            "<b><div>x</b>",
            "<table><td>x</div>",
            "x <div> y",
            "> <!-- open",
            '<div title="open',
        ):
            self.check(f"{html}\n\n{D}\n", refused(AMBIGUOUS, html.count("\n") + 3))
        # an end tag not ended in its block takes the renderer's next tag (D's <p>): D is no paragraph's
        self.check(f"<div><span></div\n\n{D}\n", refused(AMBIGUOUS, 3))
        self.check(f"x <b>\n\ny\n\n</b>\n\n{D}\n", claims((7, "refuse")))

    def test_in_a_paragraph_styling_passes_structure_does_not(self) -> None:
        for opened in ("<span>", "<b>", "<em title=x>", "<a name=x>", "<span title=àhidden>"):
            self.check(f"x {opened}\n{D}\ny\n", claims((2, "refuse")))
        # an unknown element passes in a browser (github), but VitePress (commonmark) renders it as a Vue
        # component, which showed nothing of its content on the VitePress 1.6.4 build
        text = f"x <x-note>\n{D}\ny\n"
        self.assertEqual(outcome(read_directives(text, GRAMMAR, renderer=GITHUB_COM)), claims((2, "refuse")))
        self.assertEqual(
            outcome(read_directives(text, GRAMMAR, renderer=COMMONMARK)), refused("misplaced_directive", 2)
        )
        for opened in ("<span hidden>", '<a href="/u">', "<code>", "<del>", "<div>", "<kbd>", "<template>"):
            self.check(f"x {opened}\n{D}\ny\n", refused(AMBIGUOUS, 2))

    def test_styles_colours_and_directions_may_hide_or_reorder(self) -> None:
        """Regression: ``x <span style="display:none">`` (or a white ``<font>``, ``<bdo dir=rtl>``) left
        open above a directive was ``ready``; a browser without a sanitizer hides or reverses it. An
        element with ``style``, ``class`` (a site style sheet) or ``dir``, and ``<font>``, ``<bdo>``,
        ``<bdi>``, puts the lines after it in doubt."""
        for opened in (
            '<span style="display:none">',
            '<span style="font-size:0">',
            '<font color="#fff">',
            '<bdo dir="rtl">',
            "<bdi>",
            '<em class="hidden">',
            '<span dir="rtl">',
        ):
            self.check(f"x {opened}\n{O}\n</span>\n", refused(AMBIGUOUS, 2))

    def test_the_renderers_end_tags_close_what_was_opened_inside(self) -> None:
        """Regression (spec examples 174, 175): ``</li>`` and ``</blockquote>`` close what raw HTML opened
        in the list item or quote, so a paragraph after it is top level."""
        self.check(f"- <div>\n- foo\n\n{D}\n", claims((4, "refuse")))
        self.check(f"> <div>\n> foo\n\nbar\n{D}\n", claims((5, "refuse")))
        self.check(f"- <table>\n\n{D}\n", refused(AMBIGUOUS, 3))

    def test_a_p_end_tag_ends_the_paragraph(self) -> None:
        self.check(f"x </p>\n{D}\n", refused(AMBIGUOUS, 2))
        self.check(f"<p>x</p>\n\n{D}\n", claims((3, "refuse")))

    def test_textarea_and_other_text_taking_elements(self) -> None:
        """Under ``commonmark`` a site without the tag filter takes everything after ``<textarea>`` as its
        text, code examples included: in doubt. Under ``github`` it is text and opens nothing."""
        text = f"x <textarea>\n\n```\n{O}\n```\n\n{D}\n"
        self.assertEqual(
            outcome(read_directives(text, GRAMMAR, renderer=GITHUB_COM)), claims((7, "refuse"), near=((4, "code"),))
        )
        self.assertEqual(outcome(read_directives(text, GRAMMAR, renderer=COMMONMARK)), refused(AMBIGUOUS, 4))
        # an HTML block of kind 1 takes the rest of the page up to </textarea>: shown as text there
        self.assertEqual(
            outcome(read_directives(f"<textarea>\n\n{D}\n", GRAMMAR, renderer=GITHUB_COM)),
            refused("misplaced_directive", 3),
        )

    def test_code_and_definitions_hold_no_raw_html(self) -> None:
        """Regression of the old check, which read all text as HTML: ``<div>`` in a fence or a code span
        opened nothing, and a ``</template>`` there closed nothing."""
        self.check(f"```html\n<div>\n```\n\nWrite `<details>` here.\n\n{D}\n", claims((7, "refuse")))
        self.check(f"<template>\n\n`</template>`\n\n{D}\n", refused(AMBIGUOUS, 5))

    def test_html_blocks_the_spec_versions_start_differently(self) -> None:
        """Regression: cmark-gfm implements CommonMark 0.29, where kind 4 needs an uppercase letter after
        ``<!`` and kind 6's tag names hold ``source``, not ``search`` (0.31.2). ``<!doctype`` above a
        line, or ``<source>``/``<search>`` interrupting a paragraph, was ``ready`` with a value GitHub
        hides, or missed one it shows: every line after such a line is in doubt, naming it."""
        for text, line in (
            (f"{D}\n\n<!doctype\n{O}\n>\n", 4),
            (f"Intro\n<source>\n\\<!--\n{O}\n-->\n", 4),
            (f"{D}\n\nIntro\n<search>\n\\<!--\n{O}\n-->\n", 6),
            (f"Intro\n</source>\n{O}\n", 3),
            (f"- <source>\n\n  {O}\n", 3),
        ):
            self.check(text, refused(AMBIGUOUS, line))
        reading = read_directives(f"{D}\n\n<!doctype\n{O}\n>\n", GRAMMAR, renderer=GITHUB_COM)
        self.assertIn("(line 3)", str(reading.refusal))
        # above the line, and inside an HTML block that both versions start, nothing changes
        self.check(f"{D}\n\n<!DOCTYPE html>\n", claims((1, "refuse")))
        self.check(f"<picture>\n  <source srcset=x>\n  <img src=y>\n</picture>\n\n{D}\n", claims((6, "refuse")))

    def test_past_the_limits_everything_after_is_in_doubt(self) -> None:
        self.check("<span>" * (MAX_OPEN + 1) + f"\n\n{D}\n", refused(AMBIGUOUS, 3))
        lines = "".join(f"<b>{i}</b>\n\n" for i in range(MAX_HTML_LINES + 1))
        # the limit is the reader's, alike for every renderer that reads raw HTML: one of them reads
        # these 130 KB (portable's four readings took 4.6 s)
        reading = read_directives(lines + D + "\n", GRAMMAR, renderer=RENDERER_VALUES["github"])
        self.assertEqual(outcome(reading), refused(AMBIGUOUS, 2 * MAX_HTML_LINES + 3))
        self.assertIn(str(MAX_HTML_LINES), reading.refusal.detail if reading.refusal else "")


class ReadOtherwiseTest(unittest.TestCase):
    """Text a reader sees otherwise than its bytes spell: footnotes, bidirectional controls,
    strikethrough, look-alikes (under both renderers)."""

    def check(self, text: str, expected: Outcome) -> None:
        check_both_renderers(self, text, expected)

    def test_a_footnote_takes_lines_that_start_no_paragraph_interrupting_block(self) -> None:
        """Regression: after ``[^1]: see`` a line starting ``<i``, ``<kbd>``, ``-->`` or ``|---|`` ended
        the footnote's stretch, so the directive below was ``ready``; GitHub shows it inside the
        footnote (those lines cannot interrupt its paragraph). A fence still ends it."""
        for line in ("<i", "<kbd>Ctrl</kbd>+<kbd>C</kbd> copies.", "-->", "|---|---|", "<img src=x"):
            with self.subTest(line=line):
                self.check(
                    f"Copying is safe.[^1]\n\n[^1]: https://docs.quill.example/notes\n{line}\n{O}\n",
                    refused(AMBIGUOUS, 5),
                )
        self.check(f"[^1]: x\n```\n{O}\n```\n\n{D}\n", Outcome(((6, "refuse"),), None, ((3, "code"),)))

    def test_a_bidirectional_control_anywhere_refuses(self) -> None:
        """Regression: ``x \\u202e`` on the line above a directive was ``ready``; the line break renders
        as a space, so the override reverses the directive as shown. Embeddings, overrides and isolates
        anywhere on a page with candidates refuse it, at the character."""
        for control in ("\u202a", "\u202b", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068"):
            with self.subTest(control=f"U+{ord(control):04X}"):
                self.check(f"x {control}\n{O}\n", refused(AMBIGUOUS, 1))
                self.check(f"{D}\n\n\u202eetirwrevo=htap_gnitsixe ypoc_etaerc lliuq@\n", refused(AMBIGUOUS, 3))
        self.check(f"{D}\n\nA right-to-left mark \u200f alone reorders no letters.\n", claims((1, "refuse")))

    def test_strikethrough_around_a_directive_line(self) -> None:
        """Regression: ``~~a⏎O⏎b~~`` was ``ready overwrite``; GitHub strikes the line out (GFM 6.5)."""
        for mark in ("~~", "~"):
            self.check(f"Intro.\n\n{mark}a\n{O}\nb{mark}\n", refused(AMBIGUOUS, 4))
        self.check(f"Intro ~~old~~ new.\n{D}\n", claims((2, "refuse")))

    def test_a_directive_spelt_with_look_alikes_refuses(self) -> None:
        """Regression: ``@quіll сreate_copy existing_path=overwrite`` (Cyrillic і, с) or ``existing_path꞊``
        (U+A78A) below the directive was ``ready refuse``; a reader sees a second directive."""
        for line in (
            "@qu\u0456ll \u0441reate_copy existing_path=overwrite",
            "@qu\u0456ll create_copy existing_path\ua78aoverwrite",
            "@quill create_copy existing_path\ua78aoverwrite",
            "\uff20quill \uff43reate_copy existing_path=overwrite",
        ):
            with self.subTest(line=line):
                reading = read_directives(f"{D}\n\n{line}\n", GRAMMAR)
                self.assertIsNotNone(reading.refusal)
                assert reading.refusal is not None
                self.assertEqual((reading.refusal.reason, reading.refusal.line), ("malformed_directive", 3))
        self.check(f"{D}\n\nÜber @quill: copying is safe.\n", Outcome(((1, "refuse"),), None, ((3, "mention"),)))


def check_every_renderer(test: unittest.TestCase, text: str, expected: dict[str, Outcome]) -> None:
    """``text`` reads as ``expected[renderer]`` (else ``expected["*"]``) under every renderer."""
    for name, renderer in RENDERER_VALUES.items():
        with test.subTest(text=text, renderer=name):
            reading = read_directives(text, GRAMMAR, renderer=renderer)
            test.assertEqual(
                outcome(reading), expected.get(name, expected["*"]), reading.refusal and str(reading.refusal)
            )
            test.assertEqual(
                outcome(read_directives(text, GRAMMAR, renderer=renderer, fast=False)),
                expected.get(name, expected["*"]),
            )


class LinkTailTest(unittest.TestCase):
    """A link's destination, title or label holding what starts a code span or raw HTML (hostile finding 1).

    cmark-gfm and markdown-it read an inline link's ``(destination "title")``
    when they reach its ``]`` (CommonMark 6.3), so a backtick or ``<!--`` in it
    is part of the link when the link forms; when it does not, the backtick
    opens a code span (6.1) and ``<!--`` a comment (6.6) that may run past the
    ``)``. The gate does not settle whether a link forms, so the rest of the
    paragraph is in doubt; each page below was ``ready refuse`` while the real
    renderer (cmark-gfm, markdown-it, myst-parser, MDX) showed O as a paragraph
    line, or hid D in a code span the gate did not see.
    """

    def check(self, text: str, expected: dict[str, Outcome]) -> None:
        check_every_renderer(self, text, expected)

    def test_a_backtick_in_a_destination_or_title_refuses(self) -> None:
        """Regression (hostile finding 1): O below ``[a](`)`` was read as code; every renderer shows it.
        (``[a](x`( )``: cmark-gfm takes a destination that leaves a ``(`` open, markdown-it does not.)"""
        for link in (
            "[a](`)",
            '[a](x "`")',
            "![a](x`)",
            "[a](<`>)",
            "[a](x (`))",
            "[a](\n`)",
            '[a](x\n"`")',
            "[a](x y`)",
            "[a](x`( )",
        ):
            with self.subTest(link=link):
                self.check(f"{D}\n\n{link}\n{O}\n`\n", {"*": refused(AMBIGUOUS, 4 + link.count("\n"))})

    def test_raw_html_in_a_destination_refuses(self) -> None:
        """Regression (hostile finding 1): ``<!--``, ``<?`` or ``<![CDATA[`` in a destination hid O below it.
        Docusaurus 3 builds all three pages and shows O (the link forms first: tests/mdx), where the
        docusaurus reading of comments had hidden it (``ready`` once both fixes met). The MDX scan does not
        model a destination: ``<?`` there is a build error it cannot be sure of, so the page is refused and
        the default no longer leaves MDX out of it (it did, as if the page could not build)."""
        for opener, closer in (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>")):
            mdx = refused(AMBIGUOUS, 3) if opener == "<!--" else refused("build_error", 3)
            with self.subTest(opener=opener):
                self.check(
                    f"{D}\n\nSee [docs](https://e.example/{opener}).\n{O}\nend {closer}\n",
                    {"*": refused(AMBIGUOUS, 4), "docusaurus": mdx, "portable": mdx},
                )

    def test_a_code_span_the_link_takes_may_hide_d(self) -> None:
        """Regression (hostile finding 1): after ``[a](`)`` the next two backticks pair, so D between them
        is code to cmark-gfm; the gate paired the destination's backtick and counted D."""
        self.check(f"[a](`)\ntext\n`\n{D}\n`\n", {"*": refused(AMBIGUOUS, 4)})

    def test_a_title_may_hold_a_parenthesis(self) -> None:
        """Regression (found with hostile finding 1): a title ends at its quote, not at the first ``)``, and
        an ``<...>`` destination may hold one: cmark-gfm hides D in ``[a](x ")⏎D⏎")``'s title, which the
        gate counted (``ready``). The title's lines are the link's when it forms, text when not."""
        for link in ('[a](x ")', '[a](<)> "'):
            self.check(f'{D}\n\n{link}\n{O}\n")\n', {"*": refused(AMBIGUOUS, 4)})
            self.check(f'{link}\n{D}\n")\n', {"*": refused(AMBIGUOUS, 2)})

    def test_code_inside_the_tail_or_after_the_link_is_no_doubt(self) -> None:
        """A code span inside a title, or after the link, reads alike whether the link forms or not."""
        self.check(f'Intro [a](x) `c` and [b](y "`t`").\n{D}\n', {"*": claims((2, "refuse"))})
        self.check(f"Intro [a](x) `c\n{O}\nd`.\n\n{D}\n", {"*": Outcome(((5, "refuse"),), None, ((2, "code"),))})


class CmarkBacktickMemoTest(unittest.TestCase):
    """cmark-gfm's memo of backtick runs (found fuzzing hostile finding 1's link tails against cmark-gfm).

    After a run no backticks close (a search that reached the end of the
    paragraph), cmark-gfm trusts where it last saw each run length, and a later
    search overwrites that with an earlier run: ``x``y` a⏎` `⏎O⏎` `` leaves the
    backticks around O unpaired, so GitHub shows O as a paragraph line, where
    the spec (and markdown-it) make it code. The gate read code and said
    ``ready refuse``; now the rest of the paragraph is in doubt under every
    renderer (the inline reading is shared).
    """

    def check(self, text: str, expected: dict[str, Outcome]) -> None:
        check_every_renderer(self, text, expected)

    def test_unpaired_by_cmark_gfm(self) -> None:
        """Regression: O was read as code where GitHub shows it (and D where GitHub shows it as text)."""
        self.check(f"x``y` a\n` `\n{O}\n` `\n\n{D}\n", {"*": refused(AMBIGUOUS, 3)})
        self.check(f"```x `a``b` ``\n{O}\n``\n\n{D}\n", {"*": refused(AMBIGUOUS, 2)})
        self.check(f"x {'`' * 81}\n{O}\ny {'`' * 81} z\n\n{D}\n", {"*": refused(AMBIGUOUS, 2)})

    def test_paired_alike(self) -> None:
        """Runs every closer pairs, and an unmatched run after them, read alike by cmark-gfm and the spec."""
        self.check(f"A `b` and ``c``\n{O}\n`d` and ``` x\n\n{D}\n", {"*": refused("duplicate_directive", 5)})
        self.check(f"A ``b` c``\n{D}\n", {"*": claims((2, "refuse"))})


if __name__ == "__main__":
    unittest.main()


class ShownAttributeTest(unittest.TestCase):
    """Regression (hostile finding 7): a browser draws some attributes' text, so directive-shaped text there
    is seen although it is no paragraph's line: an image without src (or one that does not load) as its
    alt text, a field's value or placeholder, an iframe's srcdoc, a data: URL an object shows. Each page
    was ``ready refuse`` (the reference read alt and value as hidden, and so did the differential's
    oracle); now refused, naming the attribute's line, under every renderer: github.com's sanitizer keeps
    alt alone of them, but ``github`` is judged by cmark-gfm's own HTML too (checked with cmark-gfm, the
    sanitizer the GitHub differential models, Python-Markdown, MyST and the MDX harness)."""

    ALL = frozenset(RENDERERS)
    PAGES: ClassVar[dict[str, tuple[str, frozenset[str]]]] = {
        "alt": (f'# T\n\n{D}\n\n<img alt="{O}">\n', ALL),
        "value": (f'# T\n\n{D}\n\n<input value="{O}" size="60">\n', ALL),
        "placeholder": (f'# T\n\n{D}\n\n<input placeholder="{O}" size="60">\n', ALL),
        "data URL": (
            f'# T\n\n{D}\n\n<object data="data:text/plain,%40quill%20create_copy%20existing_path%3D'
            'overwrite"></object>\n',
            ALL,
        ),
        "srcdoc": (f'# T\n\n{D}\n\n<iframe srcdoc="{O}"></iframe>\n', ALL),
        # a browser collapses the spaces: the value's '=' may sit far from its at sign
        "alt, spaced": (f'# T\n\n{D}\n\n<img alt="@quill create_copy{" " * 5000}existing_path=overwrite">\n', ALL),
    }

    def test_refused_where_a_browser_shows_the_attribute(self) -> None:
        for what, (text, concerned) in self.PAGES.items():
            for name in sorted(concerned):
                with self.subTest(attribute=what, renderer=name):
                    reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[name])
                    self.assertIsNotNone(reading.refusal, text)
                    assert reading.refusal is not None
                    self.assertEqual(reading.refusal.line, 5, str(reading.refusal))

    def test_hidden_attributes_and_mentions_stay_read(self) -> None:
        """An image's data: URL and an alt that only mentions the namespace refuse nothing (``mkdocs`` doubts
        any HTML block holding directive-shaped text, as before)."""
        for text in (
            f'{D}\n\n<img src="x.png" alt="@quill badge" />\n',
            f'{D}\n\n<img src="data:image/png;base64,AAAA" alt="logo" />\n',
        ):
            for name in ("github", "commonmark", "myst", "docusaurus"):
                with self.subTest(text=text, renderer=name):
                    reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[name])
                    self.assertIsNone(reading.refusal, reading.refusal and str(reading.refusal))
