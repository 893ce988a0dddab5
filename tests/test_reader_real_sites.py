"""Issue 29: the reader on real sites, each case under every renderer it concerns.

Each case was checked against the real renderer it names (``tests/github_oracle.py``: cmark-gfm and
github.com's sanitizer; ``tests/reader_oracle.py``: markdown-it-py; ``tests/site_renderers.py``:
Python-Markdown with pymdown-extensions, myst-parser; ``tests/mdx_oracle.py``: MDX 3 with
Docusaurus's preprocessing). ``D`` is the ``refuse`` directive, ``O`` the ``overwrite`` one; *unsafe*
is ``ready`` with D's value while the site shows O as a directive or hides D. Each outcome (claims, or the
refusal; near-misses aside) is read with the block shortcuts and without (``fast=False``).
"""

from __future__ import annotations

import unittest
from collections.abc import Mapping
from typing import NamedTuple

from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.support import QUILL_GRAMMAR
from tests.test_renderers import Outcome, claims, outcome, refused

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"
AMBIGUOUS = "ambiguous_markup"
MISPLACED = "misplaced_directive"


class Case(NamedTuple):
    """A page, the fault it guards against, and what the gate must make of it under each renderer named."""

    name: str
    fault: str
    text: str
    expected: Mapping[str, Outcome]


CASES: tuple[Case, ...] = (
    Case(
        "a tilde fence closed by a shorter run",
        "the top-level run's pattern let '~~~' close a '~~~~' fence (the opening run was matched short, its "
        "last '~' taken for the info string), so D counted and O, a paragraph on GitHub, was code",
        f"~~~~\n~~~\n{D}\n~~~~\n{O}\n",
        {
            "github": claims((5, "overwrite")),
            "commonmark": claims((5, "overwrite")),
            "myst": claims((5, "overwrite")),
            "docusaurus": claims((5, "overwrite")),
        },
    ),
    Case(
        "a tilde fence closed by a shorter run, D above",
        "as above: O below the fence must be read (here with D: two values)",
        f"{D}\n\n~~~~\n~~~\n{D}\n~~~~\n{O}\n",
        {
            "github": refused("duplicate_directive", 7),
            "commonmark": refused("duplicate_directive", 7),
            "myst": refused("duplicate_directive", 7),
        },
    ),
    Case(
        "an indented line right below a closing fence (MkDocs)",
        "Python-Markdown puts the indented line after a fence superfences stashes into a paragraph with it; "
        "the gate read it as indented code",
        f"{D}\n\n```python\nx = 1\n```\n    {O}\n",
        {"mkdocs": refused(AMBIGUOUS, 6), "commonmark": claims((1, "refuse"), near=((6, "code"),))},
    ),
    Case(
        "a tilde fence, then an indented line (MkDocs)",
        "as above, with a tilde fence",
        f"{D}\n\n~~~\nx = 1\n~~~\n    {O}\n",
        {"mkdocs": refused(AMBIGUOUS, 6)},
    ),
    Case(
        "O below a fence in a details body (MkDocs)",
        "a fence in a '???' body, then O indented deeper: in the body's paragraph for Python-Markdown",
        f"{D}\n\n??? note\n\n    ```python\n    x = 1\n    ```\n        {O}\n",
        {"mkdocs": refused(MISPLACED, 8)},
    ),
    Case(
        "O below a fence in a content tab (MkDocs)",
        "the same in a '=== \"tab\"' body",
        f'{D}\n\n=== "tab"\n    ```python\n    x = 1\n    ```\n    {O}\n',
        {"mkdocs": refused(MISPLACED, 7)},
    ),
    Case(
        "backticks Python-Markdown pairs over lines (MkDocs)",
        "found by random pages against Python-Markdown: an indented '```' in a paragraph opens no fence, and it "
        "and a '```' line below make a code span hiding D (ready refuse before, the site showed none)",
        f"text\n    ```\n{D}\n```\n\nmore\n",
        {"mkdocs": refused(AMBIGUOUS, 3), "portable": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "indented code below raw HTML Python-Markdown keeps open (MkDocs)",
        "found by random pages against Python-Markdown: it keeps '<div>' open over blank lines and shows the "
        "indented O in it as text; the gate read O as indented code",
        f"{D}\n\n<div>\n\n    {O}\n",
        {"mkdocs": refused(AMBIGUOUS, 5)},
    ),
    Case(
        "an mdx-code-block fence (Docusaurus)",
        "Docusaurus's preprocessor drops the fence lines of an mdx-code-block fence and renders its body as "
        "MDX, so O shows; the gate read it as code",
        f"{D}\n\n```mdx-code-block\n{O}\n```\n",
        {"docusaurus": refused(MISPLACED, 4), "portable": refused(MISPLACED, 4)},
    ),
    Case(
        "an HTML comment (Docusaurus)",
        "Docusaurus 3 builds HTML comments by default (mdx1Compat.comments) and hides them; refused as a build "
        "error before",
        f"<!-- a comment -->\n\n{D}\n",
        {"docusaurus": claims((3, "refuse")), "portable": claims((3, "refuse"))},
    ),
    Case(
        "a heading id (Docusaurus)",
        "Docusaurus escapes a heading line's '{#' (mdx1Compat.headingIds): refused as a build error before",
        f"## Heading {{#id}}\n\n{D}\n",
        {"docusaurus": claims((3, "refuse")), "portable": claims((3, "refuse"))},
    ),
    # commonmark, as the reference recommends it for VitePress, Hugo and Jekyll: what such sites add
    Case(
        "an attribute line below D (VitePress)",
        "markdown-it-attrs gives '{hidden}' on the line below to the paragraph, which VitePress then hides",
        f"{D}\n{{hidden}}\n",
        {"commonmark": refused(AMBIGUOUS, 2), "mkdocs": refused(AMBIGUOUS, 2), "portable": refused(AMBIGUOUS, 2)},
    ),  # MDX, which does not build it, is left out
    Case(
        "attributes ending a line of D's paragraph (VitePress, Jekyll, Hugo)",
        "'{.hidden}' ending the paragraph's last line is its attribute list",
        f"Intro\n{D}\n{{.hidden}}\n",
        {"commonmark": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a VitePress include",
        "the included file's lines show in the page: the gate does not read them",
        f"{D}\n\n<!--@include: ./o.md-->\n",
        {"commonmark": refused(AMBIGUOUS, 3), "mkdocs": refused(AMBIGUOUS, 3), "portable": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a Jekyll include",
        "as above, Liquid's include",
        f"{D}\n\n{{% include o.md %}}\n",
        {"commonmark": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a Vue v-text (VitePress)",
        "Vue renders the paragraph's text from the attribute: O shows as a directive",
        f"{D}\n\n<p v-text=\"'{O}'\"></p>\n",
        {"commonmark": refused(AMBIGUOUS, 3), "portable": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a Vue binding in a fenced example (VitePress)",
        "VitePress writes fences with v-pre, so Vue compiles nothing there; the binding refused every page "
        "showing a Vue example (17.6 % of VitePress's own pages under commonmark, the real-docs differential)",
        f'```vue\n<img :src="theme.logoPath" />\n<li v-for="post of posts">x</li>\n```\n\n{D}\n',
        {"commonmark": claims((6, "refuse")), "portable": claims((6, "refuse"))},
    ),
    Case(
        "a Vue binding in indented code still refuses (VitePress)",
        "VitePress marks no indented code v-pre",
        f'    <p v-if="x">\n\n{D}\n',
        {"commonmark": refused(AMBIGUOUS, 1)},
    ),
    Case(
        "a Vue v-if around D (VitePress)",
        "Vue may not render D at all",
        f'<div v-if="false">\n\n{D}\n\n</div>\n',
        {"commonmark": refused(AMBIGUOUS, 1)},
    ),
    Case(
        "a Vue v-for on an element closed in an HTML block apart from D (VitePress)",
        "issue 29: v-if, v-show, v-for and bound attributes act on their element alone; VitePress's guide was "
        "refused for '<span v-for=\"i in 3\">' in an HTML block of its own",
        f'{D}\n\n<div class="x"><pre><code><span v-for="i in 3">{{{{ i }}}} </span></code></pre></div>\n'
        f'<img :src="logo" />\n',
        {"commonmark": claims((1, "refuse"))},  # portable: MyST's substitution and MDX's expression refuse {{ i }}
    ),
    Case(
        "a Vue binding on an element left open, or one that sets content, still refuses (VitePress)",
        "the element may reach D (here D is below it); :innerHTML sets text the page does not hold",
        f'<div v-show="ok"><div>a</div>\n{D}\n\n<p :innerHTML="x"></p>\n',
        {"commonmark": refused(AMBIGUOUS, 1)},
    ),
    Case(
        "a Vue :innerHTML on an element apart from D still refuses (VitePress)",
        "it sets text the page does not hold, which may read as a directive",
        f'{D}\n\n<p :innerHTML="x"></p>\n',
        {"commonmark": refused(AMBIGUOUS, 3), "portable": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "no attribute list in a fence's info string",
        "a fence's '{lang}' is no paragraph's attribute list",
        f"```{{note}}\n{O}\n```\n\n{D}\n",
        {"commonmark": claims((5, "refuse"))},
    ),
    # self-closing components
    Case(
        "a self-closing component above D (VitePress)",
        "Vue closes <Badge ... />; read as an element left open, D was refused under every renderer",
        f'<Badge type="tip" text="x" />\n\n{D}\n',
        {name: claims((3, "refuse")) for name in ("github", "commonmark", "mkdocs", "myst", "docusaurus", "portable")},
    ),
    Case(
        "a self-closing custom element stays open",
        "a hyphenated name may be a custom element whose shadow tree does not show its children",
        f"<my-card />\n\n{D}\n",
        {"commonmark": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a self-closing HTML element stays open",
        "'<Details />' is <details> to a browser, which collapses D",
        f"<Details />\n\n{D}\n",
        {"commonmark": refused(AMBIGUOUS, 3)},
    ),
    # false refusals
    Case(
        "an @-handle and a directive example in inline code on one line",
        "the claim in the code span was taken as stated under '@alice' (malformed_directive under every renderer); "
        "every real renderer shows D alone, O as code",
        f"{D}\n\nAsk @alice about `{O}`.\n",
        {name: claims((1, "refuse")) for name in ("github", "commonmark", "mkdocs", "myst", "docusaurus", "portable")},
    ),
    Case(
        "a typo of the namespace still states a claim",
        "the rule above must keep refusing a visible '@quil' claim",
        f"{D}\n\nAsk @alice: @quil create_copy existing_path=overwrite\n",
        {"github": refused("malformed_directive", 3), "portable": refused("malformed_directive", 3)},
    ),
    Case(
        "a Python example printing a class (MkDocs)",
        "'#> <class 'int'>' in a fence superfences closes was taken for raw HTML Python-Markdown passes on "
        "(ambiguous_markup on 7 of 10 Pydantic pages); Python-Markdown shows it as code",
        f"```python\nx = 1\n#> <class 'int'>\n```\n\n{D}\n",
        {"mkdocs": claims((6, "refuse")), "portable": claims((6, "refuse"))},
    ),
    Case(
        "the same tag in prose is still HTML to Python-Markdown (MkDocs)",
        "the rule above keeps prose tags",
        f"Text <class 'int'> and\n\n{D}\n",
        {"mkdocs": refused(AMBIGUOUS, 3)},
    ),
    Case(
        "a self-closing component that may hide stays open",
        "its class may hide what follows in a browser",
        f'<Badge class="x" />\n\n{D}\n',
        {"commonmark": refused(AMBIGUOUS, 3)},
    ),
)


class RealSitesTest(unittest.TestCase):
    maxDiff = None

    def test_every_case_under_each_renderer_it_concerns(self) -> None:
        for case in CASES:
            for name, expected in case.expected.items():
                renderer = RENDERER_VALUES[name]
                for fast in (True, False):
                    with self.subTest(case=case.name, renderer=name, fast=fast):
                        reading = read_directives(case.text, GRAMMAR, renderer=renderer, fast=fast)
                        self.assertEqual(outcome(reading)[:2], expected[:2], f"{case.fault}: {reading.refusal}")


if __name__ == "__main__":
    unittest.main()
