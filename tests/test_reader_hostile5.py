"""Regression tests for hostile round 5 against the reader (``/work/wt/issues/hostile-5.md``).

Each test names a page on which the gate said ``ready`` with a value the site's renderer does not show as a
directive (checked with the renderers of the differential tests: the MDX harness for Docusaurus,
myst-parser, Python-Markdown + pymdown-extensions, markdown-it with VitePress's plugins), under the renderer
it concerns and under the default. D is the ``refuse`` directive, O the ``overwrite`` one.
"""

from __future__ import annotations

import unittest

from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import RENDERER_VALUES
from tests.test_renderers import GRAMMAR, claims, outcome

D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"


class Case(unittest.TestCase):
    #: Renderers every :meth:`assert_not_ready` checks besides the ones it names (the default here).
    ALSO: tuple[str, ...] = ("portable",)

    def assert_not_ready(self, text: str, *renderers: str) -> None:
        """Under each renderer (and those of :attr:`ALSO`) the page is refused: none may say ``ready refuse``."""
        for name in (*renderers, *self.ALSO):
            with self.subTest(renderer=name, text=text):
                reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[name])
                self.assertIsNotNone(reading.refusal, outcome(reading))

    def assert_reads(
        self, text: str, renderer: str, *lines: tuple[int, str], near: tuple[tuple[int, str], ...] = ()
    ) -> None:
        reading = read_directives(text, GRAMMAR, renderer=RENDERER_VALUES[renderer])
        self.assertEqual(outcome(reading), claims(*lines, near=near), reading.refusal and str(reading.refusal))


class DocusaurusFenceInAdmonitionTest(Case):
    """Fault: fenced code in a Docusaurus admonition was taken for code to its closing fence (issue 29's
    relaxation), but remark-directive ends the admonition at a run of colons inside that code, and a list
    item the fence stands in ends at a line indented less; MDX then shows O outside the code (a top-level
    paragraph, or the admonition's text), while the gate said ``ready refuse`` (MDX harness:
    ``:::note⏎```⏎:::⏎O⏎```` shows O as a top-level line). An unclosed fence in an admonition likewise
    ran, for the gate, to the page's end."""

    def test_a_colon_run_in_the_code_ends_the_admonition(self) -> None:
        for text in (
            f"# T\n\n{D}\n\n:::note\n```\n:::\n{O}\n```\n",
            f"# T\n\n{D}\n\n:::note\n~~~\n:::\n\n{O}\n\n~~~\n",
            f"# T\n\n{D}\n\n::::note\n```\n::::\n{O}\n```\n",
            f"# T\n\n{D}\n\n::::note\n:::tip\n```\n:::\n::::\n{O}\n```\n",
            f"# T\n\n{D}\n\n- a\n\n  :::note\n  ```\n  :::\n  {O}\n  ```\n",
        ):
            self.assert_not_ready(text, "docusaurus")

    def test_a_list_item_ends_its_code(self) -> None:
        self.assert_not_ready(f"# T\n\n{D}\n\n:::note\n\n- a\n  ```\n  x\n- b\n{O}\n  ```\n\n:::\n", "docusaurus")

    def test_an_unclosed_fence_in_an_admonition(self) -> None:
        self.assert_not_ready(f"# T\n\n{D}\n\n:::note\n```\n:::\n\n{O}\n", "docusaurus")

    def test_code_in_an_admonition_stays_code(self) -> None:
        """What issue 29 relaxed still reads as code: a fence in an admonition, a shorter run of colons in
        the code of an admonition opened by a longer one (Docusaurus's own docs show admonitions so)."""
        self.assert_reads(
            f"# T\n\n{D}\n\n:::note\n\n```\n{O}\n```\n\n:::\n", "docusaurus", (3, "refuse"), near=((8, "code"),)
        )
        self.assert_reads(
            f"# T\n\n{D}\n\n::::tip\n\n```md\n:::note\n{O}\n:::\n```\n\n::::\n",
            "docusaurus",
            (3, "refuse"),
            near=((9, "code"),),
        )


class MystFenceInAdmonitionTest(Case):
    """Fault: fenced code closed in the body of a MyST admonition was taken for code (issue 29's relaxation)
    where myst-parser's reading of the body does not make it a fence: raw HTML or a comment opened above it
    takes the fence lines as its own (``<div>⏎~~~⏎O⏎~~~⏎</div>``: O shows in the admonition), a list item
    the fence stands in ends at a less-indented line (O a lazy line of the next item), and a fence on a list
    item's line is closed by an indented run the gate took for an opener (O after it a paragraph of the
    admonition). The gate said ``ready refuse`` (myst-parser 5.2 + docutils showed O in the aside)."""

    def test_blocks_that_take_the_fence_lines(self) -> None:
        for text in (
            f"# T\n\n{D}\n\n```{{note}}\n<div>\n~~~\n{O}\n~~~\n</div>\n```\n",
            f"# T\n\n{D}\n\n:::{{note}}\n<div>\n```\n{O}\n```\n</div>\n:::\n",
            f"# T\n\n{D}\n\n:::{{note}}\n<!--\n```\n-->\n{O}\n```\n:::\n",
            f"# T\n\n{D}\n\n```{{note}}\n- a\n  ~~~\n- b\n{O}\n  ~~~\n```\n",
            f"# T\n\n{D}\n\n```{{note}}\n- ~~~\n  x\n  ~~~\n{O}\n~~~\n```\n",
            f"# T\n\n{D}\n\n```{{note}}\n$$\n~~~\n{O}\n~~~\n$$\n```\n",
        ):
            self.assert_not_ready(text, "myst")

    def test_code_in_an_admonition_stays_code(self) -> None:
        """What issue 29 relaxed still reads as code: a fence in a note, HTML inside that fence."""
        self.assert_reads(
            f"# T\n\n{D}\n\n```{{note}}\n~~~\n{O}\n~~~\n```\n", "myst", (3, "refuse"), near=((7, "code"),)
        )
        self.assert_reads(
            f"# T\n\n{D}\n\n:::{{tip}}\nText.\n\n```html\n<div>\n{O}\n```\n:::\n",
            "myst",
            (3, "refuse"),
            near=((10, "code"),),
        )


class MkDocsFenceAbandonedTest(Case):
    """Fault: a fence in an admonition, details block or tab was taken for code to its closing line (the
    opener's run at the opener's indentation), but pymdownx.superfences abandons a fence at a content line
    indented less than its opening line; Python-Markdown then ends the container there and shows that line
    in a top-level paragraph (``!!! note⏎    ```⏎O⏎    ````: O is a paragraph, checked with Python-Markdown
    3.11.3 + pymdown-extensions 13.1.2), while the gate said ``ready refuse``. CommonMark reads O in a code
    span there, so the gate now also asks the MkDocs model about a code span's line."""

    def test_a_less_indented_line_abandons_the_fence(self) -> None:
        for text in (
            f"# T\n\n{D}\n\n!!! note\n    ```\n{O}\n    ```\n",
            f"# T\n\n{D}\n\n!!! note\n    ```\n    x\n{O}\n    ```\n",
            f"# T\n\n{D}\n\n??? info\n    ```\n{O}\n    ```\n",
            f'# T\n\n{D}\n\n=== "a"\n    ```\n{O}\n    ```\n',
        ):
            self.assert_not_ready(text, "mkdocs")

    def test_code_in_an_admonition_stays_code(self) -> None:
        """A fence whose lines are all indented as deep as its opening line (or blank) is still code."""
        for text, line in (
            (f"# T\n\n{D}\n\n!!! note\n    ```\n    {O}\n    ```\n", 7),
            (f"# T\n\n{D}\n\n!!! note\n    ```\n    x\n\n        {O}\n    ```\n", 9),
        ):
            self.assert_reads(text, "mkdocs", (3, "refuse"), near=((line, "code"),))


class VitePressContainerTest(Case):
    """Fault: under ``commonmark`` (which the reference names for VitePress) and the default, a VitePress
    container (markdown-it-container: ``::: tip``, ``::: details``, ``::: v-pre``) was read as CommonMark
    reads it, so D inside one was a claim (VitePress shows it in the container's box, a ``<details>`` closed
    by default), and a line of colons in fenced code inside one, which ends the container there, left O after
    it shown by VitePress as a top-level paragraph while the gate read code (markdown-it-py with the
    container plugin as VitePress configures it)."""

    def test_directive_shaped_text_in_a_container(self) -> None:
        for text in (
            f"# T\n\n::: tip\n{D}\n:::\n",
            f"# T\n\n::: details More\n\n{D}\n\n:::\n",
            f"# T\n\n::: v-pre\n{D}\n:::\n",
            f"# T\n\n:::: warning\n::: tip\n:::\n{D}\n::::\n",
            f"# T\n\n::: tip\nText.\n\n{D}\n",
        ):
            self.assert_not_ready(text, "commonmark")

    def test_a_container_closed_inside_fenced_code(self) -> None:
        self.assert_not_ready(f"# T\n\n{D}\n\n::: details\n```\n:::\n{O}\n```\n", "commonmark")

    def test_what_stays_read(self) -> None:
        """Code in a container stays code; a container's lines inside top-level fenced code are code."""
        self.assert_reads(
            f"# T\n\n{D}\n\n::: code-group\n```sh [npm]\n{O}\n```\n:::\n",
            "commonmark",
            (3, "refuse"),
            near=((7, "code"),),
        )
        self.assert_reads(
            f"# T\n\n{D}\n\n```md\n::: tip\n{O}\n:::\n```\n", "commonmark", (3, "refuse"), near=((7, "code"),)
        )


class VueEvaluatedTextTest(Case):
    """Fault: under ``commonmark`` (VitePress) Vue evaluates an interpolation, so
    ``{{ '\\x40quill create_copy existing_path=overwrite' }}`` (a string escape), a concatenation, a call or a
    name bound in ``<script setup>`` or the front matter shows a directive line the page does not spell,
    and the gate said ``ready refuse`` (VitePress renders the page through Vue's compiler; the page held no
    other candidate). Likewise issue 29's relaxation let a bound ``:value``, ``:placeholder``, ``:alt``,
    ``:label`` or ``:srcdoc`` (hostile finding 7's attributes, bound) or ``v-model`` on an element closed
    apart from any candidate pass. Now the page is refused, naming the line; arithmetic alone stays known."""

    def test_interpolations_whose_text_cannot_be_known(self) -> None:
        tail = "quill create_copy existing_path=overwrite"
        for text in (
            f"# T\n\n{D}\n\n{{{{ '\\x40{tail}' }}}}\n",
            f"# T\n\n{D}\n\n{{{{ String.fromCharCode(64) }}}}{tail}\n",
            f"# T\n\n{D}\n\nThe mode is {{{{ mode }}}}.\n",
            f"# T\n\n{D}\n\n<span v-for=\"i in ['\\x40{tail}']\">{{{{ i }}}}</span>\n",
            f"# T\n\n{D}\n\n`{{{{ mode }}}}`\n",
        ):
            self.assert_not_ready(text, "commonmark")

    def test_bound_attributes_a_browser_shows(self) -> None:
        tail = "quill create_copy existing_path=overwrite"
        for text in (
            f'# T\n\n{D}\n\n<input :value="\'\\x40{tail}\'" size="60">\n',
            f"# T\n\n{D}\n\n<input :placeholder=\"'\\x40{tail}'\">\n",
            f"# T\n\n{D}\n\n<img :alt=\"'\\x40{tail}'\">\n",
            f"# T\n\n{D}\n\n<iframe :srcdoc=\"'\\x40{tail}'\"></iframe>\n",
            f'# T\n\n{D}\n\n<textarea v-model="mode"></textarea>\n',
        ):
            self.assert_not_ready(text, "commonmark")

    def test_what_stays_read(self) -> None:
        """Arithmetic, an interpolation in fenced code, an element bound apart with no shown attribute."""
        for text in (
            f"# T\n\n{D}\n\n{{{{ 1 + 1 }}}}\n",
            f"# T\n\n{D}\n\n```vue\n{{{{ mode }}}}\n```\n",
            f'# T\n\n<span v-for="i in 3" :class="c">x</span>\n\n{D}\n',
        ):
            self.assert_reads(text, "commonmark", (text.split("\n").index(D) + 1, "refuse"))


if __name__ == "__main__":
    unittest.main()
