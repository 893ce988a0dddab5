"""Regression tests for the ``commonmark`` reading (the renderer reference/directives.md names for
VitePress sites) and the default, from pages built by a real VitePress 1.6.4 (``tests/site_vitepress``'s
lock file; the probe table is in reference/dev/differential.md).

Each fault is a page on which the gate said ``ready refuse`` while the built page shows the
``overwrite`` directive O as a top-level paragraph line, or in a component, or a page the build shows
with the ``refuse`` directive D alone that the gate refused. ``X`` is a Vue interpolation whose value is
O (``{{ '\\x40quill ...' }}``): Vue evaluates it, so it shows O though the page does not spell it.
"""

from __future__ import annotations

import unittest

from tests import test_reader_hostile5 as hostile5

D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"
X = "{{ '\\x40quill create_copy existing_path=overwrite' }}"


class Case(hostile5.Case):
    ALSO = ()  # each test names the renderers it concerns


class IncludeSpacingTest(Case):
    """Fault: VitePress includes a file for ``<!--\\s*@include: path-->`` (JavaScript's ``\\s``: a line
    break, a no-break space, ...), the gate looked for spaces and tabs only: ``<!--⏎@include: ./o.md⏎-->``
    and ``<!--\u00a0@include: ...-->`` were a hidden comment to ``commonmark`` and the default, ``ready
    refuse``, while the built page shows the included O as a top-level line."""

    def test_a_line_break_or_a_unicode_space_before_the_word(self) -> None:
        for space in ("\n", "\r\n", "\n\n", "\u00a0", "\u3000", "\ufeff", "\v", "\u2028"):
            self.assert_not_ready(f"{D}\n\n<!--{space}@include: ./parts/o.md\n-->\n", "commonmark", "portable")

    def test_an_include_is_no_comment_in_upper_case(self) -> None:
        """What VitePress does not include stays a comment (its pattern is case-sensitive: the build showed
        nothing of ``<!--@INCLUDE: ...-->``)."""
        self.assert_reads(f"{D}\n\n<!--@INCLUDE: ./parts/o.md-->\n", "commonmark", (1, "refuse"))


class VPreTest(Case):
    """Fault: an interpolation was taken as shown as written wherever a tag with ``v-pre`` came earlier on
    its line, but Vue compiles it when that tag is no element around it: a void element (``<br v-pre>``,
    ``<img v-pre ...>``), a self-closed one (``<span v-pre />``), a tag in a code span, escaped, or in a
    comment. The build showed O as a top-level paragraph line; the gate said ``ready refuse``."""

    def test_a_v_pre_tag_that_holds_nothing(self) -> None:
        for before in (
            "<br v-pre>",
            '<img v-pre src="https://example.com/a.png">',
            "<span v-pre />",
            "`<span v-pre>` ",
            "\\<span v-pre> ",
            "<!-- <span v-pre> --> ",
            "Text <span v-pre></span> ",
            "<span v-pre>a</span>",
            "[a](<span v-pre>) ",
            "a<span v-pre>",
            "<span v-pre>`x` ",
        ):
            self.assert_not_ready(f"{D}\n\n{before}{X}\n", "commonmark", "portable")

    def test_a_v_pre_element_around_it_still_shows_it_as_written(self) -> None:
        """The build showed ``<span v-pre>{{ ... }}</span>`` as written: the page stays certain."""
        self.assert_reads(f"{D}\n\n<span v-pre>{X}</span>\n", "commonmark", (1, "refuse"))
        # VitePress's own guide (tests/realdocs): a v-pre element inside an HTML block's line
        self.assert_reads(
            f'{D}\n\n<div class="demo">\n  <p>This <span v-pre>{X}</span></p>\n</div>\n', "commonmark", (1, "refuse")
        )
        self.assert_reads(f"{D}\n\n::: v-pre\n{X}\n:::\n", "commonmark", (1, "refuse"))


class ContainerClosedInCodeTest(Case):
    """Fault: after a VitePress container closed at a line of colons inside fenced code (markdown-it-container
    reads its lines raw), the code's later lines are Markdown to VitePress, but the gate kept taking them for
    code: an interpolation or a ``v-text`` there was left alone (VitePress writes fences with ``v-pre``), and
    the build showed O as a top-level line while ``commonmark`` (and, for ``v-text``, the default) said
    ``ready refuse``."""

    def test_vue_in_code_a_container_broke(self) -> None:
        for line in (X, "<p v-text=\"'\\x40quill create_copy existing_path=overwrite'\"></p>"):
            self.assert_not_ready(f"{D}\n\n::: details\n```\n:::\n{line}\n```\n", "commonmark", "portable")
            self.assert_not_ready(f"{D}\n\n:::: tip\n~~~\n::::\n\n{line}\n~~~\n", "commonmark", "portable")

    def test_vue_in_code_closed_in_its_container_stays_code(self) -> None:
        """Fenced code closed inside its container is code to VitePress (the build showed it so)."""
        self.assert_reads(f"{D}\n\n::: details\n```\n{X}\n```\n:::\n", "commonmark", (1, "refuse"))


class ComponentAttributeTest(Case):
    """Fault: a Vue component shows what its props say: VitePress's ``<Badge text="O" />`` (also written
    ``<badge ...>``, closed, or inside a paragraph's line) showed O on the built page (a ``VPBadge`` span),
    while ``commonmark`` read the attribute as a tag's hidden text and said ``ready refuse``."""

    def test_directive_shaped_text_in_a_component_attribute(self) -> None:
        for tag in (
            f'<Badge type="info" text="{O}" />',
            f'<badge type="info" text="{O}" />',
            f'<Badge type="info" text="{O}"></Badge>',
            f'See <Badge text="{O}" /> here.',
            f'<my-card title="{O}"></my-card>',
            f"<Badge\n  text='{O}'\n/>",
            '<Badge text="&#64;quill create_copy existing_path=overwrite" />',
        ):
            self.assert_not_ready(f"{D}\n\n{tag}\n", "commonmark", "portable")

    def test_an_html_element_attribute_or_a_mention_in_a_component(self) -> None:
        """An HTML element's attribute is no component's prop, and an at-word without ``=`` states no claim."""
        self.assert_reads(f'{D}\n\n<span title="{O}">x</span>\n', "commonmark", (1, "refuse"), near=((3, "hidden"),))
        self.assert_reads(f'{D}\n\n<Badge text="@quill" />\n', "commonmark", (1, "refuse"), near=((3, "hidden"),))


if __name__ == "__main__":
    unittest.main()


class EventAttributeTest(Case):
    """Fault: VitePress's markdown-it takes a tag with an ``@`` attribute (Vue's ``v-on`` shorthand,
    ``@click``) for HTML where CommonMark's grammar reads text, so ``<span @click="f" hidden>`` hid the
    line below it, and an unknown component ``<Foo @bar="x">`` showed nothing of its content, on the
    VitePress 1.6.4 build, while ``commonmark`` read the tag as text and said ``ready refuse``."""

    def test_a_tag_with_an_event_attribute_around_the_directive(self) -> None:
        for text in (
            f'<span @click="f" hidden>\n{D}\n</span>\n',
            f'Text <span @click="f" style="display:none">\n{D}\n</span>\n',
            f'<Foo @bar="x">\n{D}\n</Foo>\n',
            f'<span @click="f" hidden>\n\n{D}\n\n</span>\n',
            f'<span v-on:click="f" hidden>\n{D}\n</span>\n',
        ):
            self.assert_not_ready(text, "commonmark", "portable")

    def test_an_element_with_an_event_closed_apart(self) -> None:
        """VitePress's guide: a button closed on its own line, the directive in another paragraph."""
        self.assert_reads(f'<button @click="count++">Increment</button>\n\n{D}\n', "commonmark", (3, "refuse"))


class CertainByTheBuildTest(Case):
    """Fault (false refusal): an interpolation Vue never shows was refused: one inside an HTML comment in a
    raw HTML block (Vue drops comments), or inside an element with ``v-pre`` opened on an earlier line of
    the same HTML block (``<div v-pre>⏎{{ ... }}⏎</div>``). The VitePress 1.6.4 build showed D alone (the
    interpolation as written, or nothing); the gate refused the page (``ambiguous_markup``)."""

    def test_a_comment_or_a_v_pre_block_shows_no_value(self) -> None:
        for block in (
            f"<!-- {X} -->",
            f"<!--\n{X}\n-->",
            f"<div v-pre>\n{X}\n</div>",
        ):
            with self.subTest(block=block):
                self.assert_reads(f"{D}\n\n{block}\n", "commonmark", (1, "refuse"))

    def test_what_the_block_does_not_cover_is_compiled(self) -> None:
        """A comment closed before it, a v-pre element closed before it or in another block, or a comment
        in a ``<textarea>`` (text, which Vue compiles) still refuse."""
        for block in (
            f"<!-- a --> {X}",
            f"<!-->{X}",
            f"<div v-pre>\n</div>\n{X}",
            f"<div v-pre>\n\n{X}\n\n</div>",
            f"<textarea>\n<!-- {X} -->\n</textarea>",
            f"<textarea>\n<div v-pre>\n{X}\n</div>\n</textarea>",
            # the container's closing line closes the v-pre element for Vue: the build showed O in the tip
            f"::: tip\n<div v-pre>\n:::\n{X}\n</div>",
            # the same in <pre> or a comment: the build fails (Vue: missing end tag, EOF in comment); refused
            f"::: tip\n<pre>\n:::\n{X}\n</pre>",
            f"::: tip\n<!--\n:::\n{X}\n-->",
        ):
            self.assert_not_ready(f"{D}\n\n{block}\n", "commonmark", "portable")


class ComponentContentTest(Case):
    """Fault: VitePress's markdown-it starts an HTML block at a component's tag even inside a paragraph, and
    Vue renders a component's content as the component will (an unregistered one as nothing): the 1.6.4
    build of ``Text⏎<Foo>⏎D⏎</Foo>`` showed no D, while ``commonmark`` read D as a line of the paragraph
    (the tag an unknown inline element) and said ``ready refuse``."""

    def test_a_directive_in_a_component(self) -> None:
        for text in (
            f"Text\n<Foo>\n{D}\n</Foo>\n",
            f"Text <Foo>\n{D}\n</Foo>\n",
            f"Text\n<my-card>\n{D}\n</my-card>\n",
            f"Text\n<Foo>\n<Foo></Foo>\n{D}\n</Foo>\n",
            f"Text <x don't\n<Foo>\n{D}\n</Foo>\n",
        ):
            self.assert_not_ready(text, "commonmark", "portable")

    def test_an_unknown_lower_case_element_is_no_component(self) -> None:
        """Regression (CI step 5, the CommonMark spec examples under ``commonmark``: 28 false refusals, over
        the 1 % target): every lower-case name that is no HTML element was taken for a component, so spec
        example 615's ``<b2⏎data="foo" >`` refused the directive below it. Vue renders a name it cannot
        resolve as an unknown element, its content shown; only a capitalised or hyphenated name, or a
        component the default theme registers (``<badge>``), is one."""
        for text in (f'<a  /><b2\ndata="foo" >\n{D}\n', f"Text\n<bab>\n{D}\n</bab>\n"):
            with self.subTest(text=text):
                line = text.splitlines().index(D) + 1
                self.assert_reads(text, "commonmark", (line, "refuse"))
        self.assert_not_ready(f"Text\n<badge>\n{D}\n</badge>\n", "commonmark", "portable")

    def test_a_component_apart_or_in_code(self) -> None:
        """A component closed or self-closed before the directive, or written in code, holds none of it."""
        for text in (
            f"Use `<Foo>` here.\n\n{D}\n",
            f"```vue\n<Foo>\n```\n\n{D}\n",
            f"<Foo />\n\n{D}\n",
            f"<Foo>x</Foo>\n\n{D}\n",
            f"    <Foo>\n\n{D}\n",
            f"Text <class 'int'> and\n\n{D}\n",
            f"| a | b |\n|---|---|\n| `--port <port>` | x |\n\n{D}\n",
        ):
            with self.subTest(text=text):
                line = text.splitlines().index(D) + 1
                self.assert_reads(text, "commonmark", (line, "refuse"))
