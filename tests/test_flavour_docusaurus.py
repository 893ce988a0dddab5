"""The ``docusaurus`` renderer (MDX 3, GFM, Docusaurus's admonitions): issue 16's Docusaurus examples, with
nothing installed.

Each page has ``D`` (the ``refuse`` directive) where Docusaurus shows it as a
top-level paragraph line and ``O`` (``overwrite``) where MDX shows, hides or
breaks otherwise; the expected outcomes follow what the MDX harness
(``tests/mdx``, ``tests/test_reader_differential_docusaurus.py``) shows.
"""

from __future__ import annotations

import tempfile
import unittest

from _conflict_gate.corpus.load import load_documents
from _conflict_gate.reading.blocks import parse_blocks
from _conflict_gate.reading.blocks.docusaurus import DOCUSAURUS
from _conflict_gate.reading.blocks.mdx import read_mdx
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.support import write_corpus
from tests.test_renderers import GRAMMAR, Outcome, claims, outcome, refused

D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"
SITE = RENDERER_VALUES["docusaurus"]
TABS = "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"

#: name -> (page, outcome under docusaurus). Lines are 1-based.
EXAMPLES: dict[str, tuple[str, Outcome]] = {
    # regression (a hostile tester's page, ready before): gray-matter takes the whole page as front matter
    "front matter never closed": (f"---\nIntro text.\n\n{D}\n", refused("ambiguous_markup", 1)),
    # no indented code: four-space-indented lines are paragraph text
    "an indented directive is malformed": (f"{D}\n\n    {O}\n", refused("malformed_directive", 3)),
    "a tab-indented directive is malformed": (f"{D}\n\n\t{O}\n", refused("malformed_directive", 3)),
    "an indented line goes on with a list item": (f"- a\n\n      b\n{O}\n\n{D}\n", refused("ambiguous_markup", 4)),
    # regression: the shortcuts took the indented line as the paragraph's, unread by the line check
    "a lazy line, then one indented four columns": (f"- a\n{O}\n      b\n\n{D}\n", refused("ambiguous_markup", 2)),
    "an indented underline makes a heading": (f"{D}\n    ---\n", refused("ambiguous_markup", 1)),
    "decorators indented are text, not namespace-shaped": (
        f"    @retry(times=3)\n    def copy(): ...\n\n{D}\n",
        claims((4, "refuse")),
    ),
    "a closing fence indented any amount closes": (
        f"```\n{O}\n      ```\n\n{D}\n",
        claims((5, "refuse"), near=((2, "code"),)),
    ),
    # comments
    "an MDX comment hides its text": (f"{D}\n\n{{/* {O} */}}\n", claims((1, "refuse"), near=((3, "hidden"),))),
    "an MDX comment over lines": (f"{D}\n\n{{/*\n{O}\n*/}}\n", claims((1, "refuse"), near=((4, "hidden"),))),
    # issue 29: Docusaurus 3's defaults (mdx1Compat.comments) hide HTML comments; the MDX harness builds these
    "an HTML comment hides its text": (f"{D}\n\n<!-- {O} -->\n", claims((1, "refuse"), near=((3, "hidden"),))),
    "an HTML comment below D builds": (f"{D}\n\n<!-- TODO -->\n", claims((1, "refuse"))),
    "an HTML comment over lines": (f"<!-- a\n{O}\n-->\n\n{D}\n", claims((5, "refuse"), near=((2, "hidden"),))),
    "an HTML comment never closed breaks the build": (f"{D}\n\n<!-- TODO\n", refused("build_error", 3)),
    # regression (the MDX harness): remark-comment does not take '<!-->' or '<!--->' for a comment's start
    "an HTML comment begun '<!-->' breaks the build": (f"{D}\n\n<!-->{O}-->\n", refused("build_error", 3)),
    "an HTML comment begun '<!--->' breaks the build": (f"{D}\n\n<!--->{O}-->\n", refused("build_error", 3)),
    # regression (the MDX harness): MDX does not build a comment in a paragraph running over '<!-- c -->'
    "an HTML comment in a paragraph over lines is taken for a build error": (
        f"x <!-- y\n<!-- c -->\n{D}\n",
        refused("build_error", 1),
    ),
    # the spec's example 627 (the MDX harness builds it): a comment in a paragraph over a line of text
    "an HTML comment in a paragraph over a line of text builds": (
        f"foo <!-- this is a --\ncomment - with hyphens -->\n{D}\n",
        claims((3, "refuse")),
    ),
    # the spec's example 179: text after a comment opening a line is no JSX line, D below it a line of its own
    "a line after a comment and text": (f"<!-- foo -->*bar*\n{D}\n*baz*\n", claims((2, "refuse"))),
    "an HTML comment in a paragraph over a blank line breaks the build": (
        f"{D}\n\ntext <!--\n\n{O}\n\n-->\n",
        refused("build_error", 3),
    ),
    "text after an HTML comment on its line shows": (f"<!-- c --> {O}\n\n{D}\n", refused("misplaced_directive", 1)),
    "an HTML comment hiding a fence puts the page in doubt": (
        f"{D}\n\n<!--\n```\n-->\n{O}\n```\n",
        refused("ambiguous_markup", 4),
    ),
    # containers
    "an admonition": (f"{D}\n\n:::note\n\n{O}\n\n:::\n", refused("misplaced_directive", 5)),
    "a titled admonition": (f"{D}\n\n:::warning[Overwriting]\n\n{O}\n\n:::\n", refused("misplaced_directive", 5)),
    "a legacy title": (f"{D}\n\n:::tip Overwriting\n\n{O}\n\n:::\n", refused("misplaced_directive", 5)),
    "nested admonitions": (f"{D}\n\n::::danger\n\n:::info\n\n{O}\n\n:::\n\n::::\n", refused("misplaced_directive", 7)),
    "an admonition in a list item": (
        f"{D}\n\n- Copy\n\n  :::note\n\n  {O}\n\n  :::\n",
        refused("misplaced_directive", 7),
    ),
    "an unclosed admonition takes the rest": (f":::note\n\nText.\n\n{D}\n", refused("misplaced_directive", 5)),
    "D after an admonition": (f":::note\n\nText.\n\n:::\n\n{D}\n", claims((7, "refuse"))),
    "tabs": (
        f'{TABS}{D}\n\n<Tabs>\n<TabItem value="a">\n\n{O}\n\n</TabItem>\n</Tabs>\n',
        refused("misplaced_directive", 9),
    ),
    "details": (f"{D}\n\n<details>\n<summary>More</summary>\n\n{O}\n\n</details>\n", refused("misplaced_directive", 6)),
    "a component": (f'{D}\n\n<Callout kind="info">\n\n{O}\n\n</Callout>\n', refused("misplaced_directive", 5)),
    "inline JSX": (f"{D}\n\n<Highlight>{O}</Highlight>\n", refused("misplaced_directive", 3)),
    "a JSX attribute": (f'{D}\n\n<Callout title="{O}" />\n', refused("misplaced_directive", 3)),
    "D after tabs": (
        f'{TABS}<Tabs>\n<TabItem value="a">\n\nText.\n\n</TabItem>\n</Tabs>\n\n{D}\n',
        claims((12, "refuse")),
    ),
    "text right after a line of JSX and text": (
        f"{D}\n\n<div><b>x</b></div>\n{O}\n",
        refused("misplaced_directive", 4),
    ),
    # expressions and the build
    "an expression shows its string": (f"{D}\n\n{{'{O}'}}\n", refused("misplaced_directive", 3)),
    "a template literal over lines": (f"{D}\n\n{{`\n{O}\n`}}\n", refused("misplaced_directive", 4)),
    "a known expression builds": (
        f"export const version = '1.0';\n\nVersion {{version}}, {{2 * 32}} KiB.\n\n{D}\n",
        claims((5, "refuse")),
    ),
    "an unknown name breaks the build": (f"{D}\n\nVersion {{version}}.\n", refused("build_error", 3)),
    "a bare brace breaks the build": (f"{D}\n\nUse {{ here.\n", refused("build_error", 3)),
    "a bare < before a letter breaks the build": (f"{D}\n\na <b here\n", refused("build_error", 3)),
    "< before a space is text": (f"{D}\n\nA < b here.\n", claims((1, "refuse"))),
    "an escaped brace is text": (f"{D}\n\nUse \\{{ here.\n", claims((1, "refuse"))),
    "braces in code are code": (f"Use `{{x}}` and `<b`.\n\n```js\nconst a = {{\n```\n\n{D}\n", claims((7, "refuse"))),
    "an unclosed element breaks the build": (f"{D}\n\n<Tabs>\n\nText.\n", refused("build_error", 3)),
    "a void element without /> breaks the build": (f'{D}\n\n<img src="a.png">\n', refused("build_error", 3)),
    "a style string breaks the build": (f'{D}\n\n<div style="color: red">x</div>\n', refused("build_error", 3)),
    "an autolink breaks the build": (f"{D}\n\nSee <https://quill.example>.\n", refused("build_error", 3)),
    "an angle-bracket destination is no tag": (f"[api]: <https://quill.example/api>\n\n{D}\n", claims((3, "refuse"))),
    # issue 29: Docusaurus's preprocessor escapes a heading line's first '{#' (mdx1Compat.headingIds)
    "a heading id builds": (f"## Title {{#custom}}\n\n{D}\n", claims((3, "refuse"))),
    "a second heading id on the line breaks the build": (f"## Title {{#a}} {{#b}}\n\n{D}\n", refused("build_error", 1)),
    "a heading id in a quote breaks the build": (f"> ## Title {{#custom}}\n\n{D}\n", refused("build_error", 1)),
    # issue 29 (unsafe before: ready refuse while Docusaurus shows O): the fence's body is MDX
    "an mdx-code-block fence's body shows": (
        f"{D}\n\n```mdx-code-block\n{O}\n```\n",
        refused("misplaced_directive", 4),
    ),
    "a four-backtick mdx-code-block fence": (
        f"{D}\n\n````mdx-code-block\n{O}\n````\n",
        refused("misplaced_directive", 4),
    ),
    "an element opened in an mdx-code-block fence holds what follows": (
        f"```mdx-code-block\n<Tabs>\n```\n\n{D}\n\n```mdx-code-block\n</Tabs>\n```\n",
        refused("misplaced_directive", 5),
    ),
    "an mdx-code-block fence holding a fence is in doubt": (
        f"{D}\n\n```mdx-code-block\n~~~\n```\n{O}\n",
        refused("ambiguous_markup", 4),
    ),
    # regression (the MDX harness): the preprocessor unwraps it inside fenced code too, so that code runs on
    "an mdx-code-block line in fenced code is in doubt": (
        f"```\n{D}\n```mdx-code-block\n- item\n```\n{O}\n",
        refused("ambiguous_markup", 3),
    ),
    # regression (the MDX harness): an import in an mdx-code-block fence is ESM, a partial pulled in
    "an import of content in an mdx-code-block fence": (
        f"```mdx-code-block\nimport P from './_p.mdx';\n```\n\n{D}\n\n<P />\n",
        refused("ambiguous_markup", 2),
    ),
    # regression (the MDX harness, ready refuse before): an exported string shows where the page uses it
    "an exported value shows": (f"export const v = '{O}';\n\n{D}\n\n{{v}}\n", refused("misplaced_directive", 1)),
    "an mdx-code-block fence never closed is code": (
        f"{D}\n\n```mdx-code-block\n{O}\n",
        claims((1, "refuse"), near=((4, "code"),)),
    ),
    # imports
    "an import of a component": (f"{TABS}{D}\n", claims((4, "refuse"))),
    "an import of content": (
        f"import Partial from './_partial.mdx';\n\n{D}\n\n<Partial />\n",
        refused("ambiguous_markup", 1),
    ),
    "an import of another shape": (f"import * as x from 'y';\n\n{D}\n", refused("build_error", 1)),
    # regression (issue 29, Redux's pages): an export or import line after a blank line in fenced code was
    # read as MDX's ESM, and one the gate does not model refused the page as a build error
    "an export line in fenced code is code": (
        f"{D}\n\n```js\nimport x from './x'\n\nexport default combineReducers({{\n  x,\n}})\n```\n",
        claims((1, "refuse")),
    ),
    "an export const in tilde-fenced code is code": (
        f"~~~~js\nlet s\n\nexport const inject = _s => {{\n  s = _s\n}}\n~~~~\n\n{D}\n",
        claims((9, "refuse")),
    ),
    "an export line after the fenced code closed is ESM": (
        f"```js\nx\n```\n\nexport default f({{\n}})\n\n{D}\n",
        refused("build_error", 5),
    ),
    "an export line in an mdx-code-block fence is ESM": (
        f"```mdx-code-block\nexport default f({{\n}})\n```\n\n{D}\n",
        refused("build_error", 2),
    ),
    "an export line below an indented fence is ESM": (
        f"- a\n\n  ```\nexport default f({{\n}})\n\n{D}\n",
        refused("build_error", 4),
    ),
    # regression (issue 29, Redux's CodeSandbox embeds): an empty <iframe ...></iframe> was a build error the
    # gate could not rule out; React renders it empty (the MDX harness builds these four as written)
    "an empty iframe over lines": (
        f'<iframe\n  src="https://x.example/e"\n  title="t"\n></iframe>\n\n{D}\n',
        claims((6, "refuse")),
    ),
    "an iframe with a child is unmodelled": (
        f'{D}\n\n<iframe src="https://x.example/e">{O}</iframe>\n',
        refused("build_error", 3),
    ),
    "an iframe with a space in it is unmodelled": (
        f'{D}\n\n<iframe src="https://x.example/e"> </iframe>\n',
        refused("build_error", 3),
    ),
    "an empty iframe's srcdoc shows": (f'{D}\n\n<iframe srcdoc="{O}"></iframe>\n', refused("ambiguous_markup", 3)),
    # regression (issue 29, Redux's combineReducers page): fenced code in an admonition or a JSX element is code
    # to the site (the MDX harness shows it in <pre><code>), but O in it was refused as inside the admonition
    "fenced code in an admonition is code": (
        f"{D}\n\n:::tip\n\nText.\n\n```ts\n{O}\nx\n```\n\n:::\n",
        claims((1, "refuse"), near=((8, "code"),)),
    ),
    "fenced code in a JSX element is code": (
        f'{D}\n\n<Tabs>\n<TabItem value="a">\n\n  ```js\n  {O}\n  ```\n\n</TabItem>\n</Tabs>\n',
        claims((1, "refuse"), near=((7, "code"),)),
    ),
    "a line after fenced code in an admonition is the admonition's": (
        f"{D}\n\n:::tip\n\n```ts\nx\n```\n{O}\n\n:::\n",
        refused("misplaced_directive", 8),
    ),
    "a mention in an admonition": (
        f"{D}\n\n:::note\n\nPing @quill on Slack.\n\n:::\n",
        claims((1, "refuse"), near=((5, "mention"),)),
    ),
}


class DocusaurusExamplesTest(unittest.TestCase):
    maxDiff = None

    def test_every_example(self) -> None:
        for name, (text, expected) in EXAMPLES.items():
            with self.subTest(example=name):
                fast = read_directives(text, GRAMMAR, renderer=SITE)
                slow = read_directives(text, GRAMMAR, renderer=SITE, fast=False)
                self.assertEqual(outcome(fast), expected, fast.refusal and str(fast.refusal))
                self.assertEqual(outcome(slow), expected)

    def test_the_message_names_the_container(self) -> None:
        reading = read_directives(
            f'{TABS}{D}\n\n<Tabs>\n<TabItem value="a">\n\n{O}\n\n</TabItem>\n</Tabs>\n', GRAMMAR, renderer=SITE
        )
        assert reading.refusal is not None
        self.assertIn("inside the JSX element <TabItem> (line 7)", str(reading.refusal))
        reading = read_directives(f"{D}\n\n:::note\n\n{O}\n\n:::\n", GRAMMAR, renderer=SITE)
        assert reading.refusal is not None
        self.assertIn("inside the admonition ':::note' (line 3)", str(reading.refusal))

    def test_commonmark_reads_them_otherwise(self) -> None:
        """Regression (issue 16): under ``commonmark`` an indented O is code, and an admonition's O is not
        read as Docusaurus reads it: since hostile round 5 it is directive-shaped text in a ``:::``
        container (VitePress's markdown-it-container, any name), refused as misplaced."""
        commonmark = RENDERER_VALUES["commonmark"]
        self.assertEqual(
            outcome(read_directives(f"{D}\n\n    {O}\n", GRAMMAR, renderer=commonmark)),
            claims((1, "refuse"), near=((3, "code"),)),
        )
        self.assertEqual(
            outcome(read_directives(f":::note\n\n{O}\n\n:::\n", GRAMMAR, renderer=commonmark)),
            refused("misplaced_directive", 3),
        )

    def test_through_a_manifest(self) -> None:
        files = {
            "docs/note.md": f"{D}\n\n:::note\n\n{O}\n\n:::\n".encode(),
            "docs/comment.md": f"{D}\n\nUse {{ here.\n".encode(),
        }
        with tempfile.TemporaryDirectory(prefix="conflict-gate-test-") as tmp:
            corpus = load_documents(write_corpus(tmp, files, extra={"renderer": "docusaurus"}))
        self.assertEqual(corpus.renderer.name, "docusaurus")
        note, comment = corpus.sources["note"].refusal, corpus.sources["comment"].refusal
        self.assertEqual((note and note.reason, comment and comment.reason), ("misplaced_directive", "build_error"))


class HostileFinding6Test(unittest.TestCase):
    """Regression (hostile finding 6): MDX evaluates an expression, so a JavaScript escape (``\\u0040``,
    ``\\x40``, ``\\u{40}``, octal), a concatenation, an array, a call, or a value imported from a file
    the gate does not read (JSON, JavaScript, ``!!raw-loader!``) may show O where the page spells out no
    directive; each was ``ready refuse`` under docusaurus and portable (checked with the MDX harness: it
    shows O for the escapes, ``+`` and the array). Now the page is refused, naming the expression's line."""

    def test_expressions_whose_text_cannot_be_known(self) -> None:
        tail = "quill create_copy existing_path=overwrite"
        cases = (
            (f"# T\n\n{D}\n\n{{'\\u0040{tail}'}}\n", 5),
            (f"# T\n\n{D}\n\n{{`\\x40{tail}`}}\n", 5),
            (f'# T\n\n{D}\n\nSee {{"\\u{{40}}{tail}"}} here.\n', 5),
            (f"# T\n\n{D}\n\n{{'\\100{tail}'}}\n", 5),
            (f"# T\n\nexport const o = '\\x40{tail}'\n\n{D}\n\n{{o}}\n", 3),
            (f"# T\n\n{D}\n\n{{'@' + '{tail}'}}\n", 5),
            (f"# T\n\n{D}\n\n{{['@', '{tail}']}}\n", 5),
            (f"# T\n\n{D}\n\n{{String.fromCharCode(64)}}{tail}\n", 5),
            (f"# T\n\nimport data from './data.json'\n\n{D}\n\n{{data.mode}}\n", 7),
            (f"# T\n\nimport {{mode}} from './settings.js'\n\n{D}\n\n{{mode}}\n", 7),
            (f"# T\n\nimport t from '!!raw-loader!./o.txt'\n\n{D}\n\n{{t}}\n", 7),
            (f"# T\n\nimport t from './o.txt'\n\n{D}\n\n<Note title={{t}} />\n", 7),
        )
        for text, line in cases:
            for name in ("docusaurus", "portable"):
                with self.subTest(text=text, renderer=name):
                    reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[name])
                    self.assertIsNotNone(reading.refusal, text)
                    assert reading.refusal is not None
                    if name == "docusaurus":
                        self.assertEqual(
                            (reading.refusal.reason, reading.refusal.line),
                            ("ambiguous_markup", line),
                            str(reading.refusal),
                        )
                        self.assertIn("cannot know", reading.refusal.detail)

    def test_expressions_whose_text_is_on_the_page(self) -> None:
        """Literals, names bound to them, ternaries and imported components used as tags stay readable."""
        for text in (
            f"{D}\n\nA {{' '}} space and {{1 - 2}} and {{true ? 'a' : 'b'}}.\n",
            f"export const v = 'x'\n\n{D}\n\n{{v}}\n",
            f'{TABS}{D}\n\n<Tabs>\n<TabItem value="a">\n\nx\n\n</TabItem>\n</Tabs>\n',
        ):
            with self.subTest(text=text):
                self.assertEqual(
                    outcome(read_directives(text, GRAMMAR, renderer=SITE)).claims[:1],
                    ((text.split("\n").index(D) + 1, "refuse"),),
                )


class IndentedInListItemTest(unittest.TestCase):
    def test_a_line_less_than_four_columns_past_an_items_content_is_no_doubt(self) -> None:
        """Regression (issue 29, VitePress's guide-cms): a fence indented four spaces under '1. ' (one column
        past the item's content) put the lines to the next blank line in doubt ('MDX has no indented code'),
        though CommonMark reads no indented code there either: both read a fence in the item (tests/mdx:
        O shows as code). Refused under docusaurus and the default; now read."""
        for marker, indent in (("1. ", "    "), ("- ", "  "), ("- ", "   "), ("1.\t", "\t"), ("- a\n  - ", "    ")):
            page = f"{D}\n\n{marker}Item:\n\n{indent}```js\n{indent}{O}\n\n{indent}x\n{indent}```\n"
            for name in ("docusaurus", "portable"):
                with self.subTest(marker=marker, indent=indent, renderer=name):
                    self.assertEqual(
                        outcome(read_directives(page, GRAMMAR, renderer=RENDERER_VALUES[name]))[:2],
                        claims((1, "refuse"))[:2],
                    )

    def test_four_columns_past_it_is_still_in_doubt(self) -> None:
        """Fail closed: four columns past the item's content CommonMark reads indented code, MDX a fence (or
        a paragraph): the doubt stays."""
        for page in (
            f"- Item:\n\n      ```js\n      x\n\n{O}\n      ```\n\n{D}\n",
            f"1. Item:\n\n       ```js\n       x\n\n{O}\n       ```\n\n{D}\n",
        ):
            with self.subTest(page=page):
                refusal = read_directives(page, GRAMMAR, renderer=RENDERER_VALUES["docusaurus"]).refusal
                assert refusal is not None
                self.assertEqual(refusal.reason, "ambiguous_markup")


class ReadMdxTest(unittest.TestCase):
    def test_regions(self) -> None:
        text = "{/* c */}\n\n<Tabs>\n\nx {1 + 1}\n\n</Tabs>\n\n:::note\n\ny\n\n:::\n"
        reading = read_mdx(text)
        self.assertIsNone(reading.build_error)
        self.assertEqual(
            [(region.name, region.hidden, text[region.start : region.end]) for region in reading.regions],
            [
                ("an MDX comment", True, "{/* c */}"),
                ("the JSX tag <Tabs>", False, "<Tabs>"),
                ("the JSX element <Tabs>", False, "<Tabs>\n\nx {1 + 1}\n\n"),
                ("a JSX expression", False, "{1 + 1}"),
                ("the JSX tag </Tabs>", False, "</Tabs>"),
                ("the admonition ':::note'", False, "\ny\n\n"),
            ],
        )

    def test_only_regions_holding_a_watched_offset_are_kept(self) -> None:
        """Regression (issue 29, the first hostile pass's resource finding): every tag, element and
        comment was kept as a region, though only a region holding a candidate decides anything; a
        16 MiB page of inline tags held 1.6 GB."""
        text = f"<b>x</b>\n\n<Tabs>\n\n{D}\n\n</Tabs>\n\n{{/* c */}}\n"
        at = text.index(D)
        kept = read_mdx(text, [at]).regions
        self.assertEqual([region.name for region in kept], ["the JSX element <Tabs>"])
        self.assertEqual(kept, tuple(region for region in read_mdx(text).regions if region.start <= at < region.end))
        self.assertEqual(read_mdx(text, []).regions, ())

    def test_memory_on_a_page_of_tags_is_bounded(self) -> None:
        """Regression (issue 29, the first hostile pass): a page of inline tags held about 130 bytes per
        byte under the MDX reading (a region per tag, a cached span per line); now a few bytes at most."""
        import tracemalloc

        text = "<b>x</b>\n" * 5000 + f"\n{D}\n"
        tracemalloc.start()
        try:
            reading = read_directives(text, GRAMMAR, renderer=SITE)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertEqual(outcome(reading).claims, ((5002, "refuse"),))
        self.assertLess(peak, 10 * len(text))

    def test_template_literals_with_several_interpolations(self) -> None:
        """Regression (found writing the template-literal scan once): after a ``${...}`` closed, the next
        ``${`` was pushed twice, so an expression's end was not found after `` `a${x}b${y}c` ``."""
        from _conflict_gate.reading.blocks.mdx_expressions import _BuildError, _expression_end

        for text in ("{`a${x}b${y}c`}", "{`a${`in${z}`}b`}", "{'}'}", "{ {a} }"):
            with self.subTest(text=text):
                self.assertEqual(_expression_end(text + " rest", 0), len(text))
        for text in ("{`a${x}b", "{`never", "{'open"):
            with self.subTest(text=text), self.assertRaises(_BuildError):
                _expression_end(text, 0)

    def test_linear_on_adversarial_input(self) -> None:
        """Runs of backticks, braces and tags of every length: one pass each (no quadratic search)."""
        for text in (
            "".join("`" * n + " x " for n in range(1, 400)),
            "{" * 5000,
            "<a " * 5000,
            "\\" * 10001,
            "<b>" * 3000 + "</b>" * 3000,
            "`" * 100000 + "{",
        ):
            with self.subTest(text=text[:20]):
                read_mdx(text)  # returns (a build error or not) without a traceback

    def test_blocks(self) -> None:
        """No indented code: an indented line is a paragraph's; the shortcuts agree with the rules."""
        text = f"Text.\n\n    {D}\n\n```\n{D}\n    ```\n\n{D}\n"
        watch = [i for i in range(len(text)) if text.startswith("@quill", i)]
        fast = parse_blocks(text, watch, flavour=DOCUSAURUS)
        self.assertEqual(fast, parse_blocks(text, watch, flavour=DOCUSAURUS, fast=False))
        self.assertEqual(
            [(leaf.kind, leaf.lines[0][0]) for leaf in fast], [("paragraph", 2), ("fenced_code", 4), ("paragraph", 8)]
        )


if __name__ == "__main__":
    unittest.main()


class LinesChunkTest(unittest.TestCase):
    def test_a_run_of_plain_lines_is_matched_a_chunk_at_a_time(self) -> None:
        """Regression (issue 29, bounded memory): the MkDocs and MDX readings matched a run of plain lines
        in one regular-expression match, whose engine kept about 100 bytes a line (a 16 MiB page of short
        lines: 1.6 GB). Chunked at whole lines, the reading is the same and the memory bounded."""
        import tracemalloc

        from _conflict_gate.reading.blocks.scan import LINES_CHUNK

        lines = 3 * LINES_CHUNK + 7  # five-byte lines: 15 chunks and a part
        text = "word\n" * lines + f"\n{D}\nword\r\nword\rword\n"
        for name in ("mkdocs", "docusaurus"):
            with self.subTest(renderer=name):
                tracemalloc.start()
                try:
                    reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[name])
                    peak = tracemalloc.get_traced_memory()[1]
                finally:
                    tracemalloc.stop()
                self.assertEqual(outcome(reading).claims, ((lines + 2, "refuse"),))
                self.assertLess(peak, 15 * len(text))
