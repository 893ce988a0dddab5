"""The default renderer (``portable``) judges a page by the readings under which it builds (issue 29, item 2)."""

from __future__ import annotations

import importlib.util
import json
import tempfile
import unittest
from pathlib import Path
from typing import Final

from _conflict_gate.base.registry import RENDERERS
from _conflict_gate.cli.markdown import render_audit_markdown
from _conflict_gate.corpus.cache import decode_reading, encode_reading
from _conflict_gate.corpus.load import load_documents
from _conflict_gate.decide.decision import audit
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.reading_shapes import LeftOut
from _conflict_gate.reading.renderers import RENDERER_VALUES
from _conflict_gate.results.schema import result_schema
from _conflict_gate.service.gate import limit_report
from tests.support import QUILL_GRAMMAR, write_corpus

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"
PORTABLE = RENDERER_VALUES["portable"]
DOCUSAURUS = RENDERER_VALUES["docusaurus"]


class LeftOutReadingTest(unittest.TestCase):
    def test_a_page_mdx_cannot_build_is_judged_by_the_other_readings(self) -> None:
        """Regression: an ordinary MkDocs page ({ #anchor } heading, FastAPI's {* file *} include, a
        Python-Markdown attribute list {.class}, an <img> without '/>' as on README pages, a MyST role
        {ref}, a lowercase name nothing defines, CSS in <style>) was refused under the default
        (build_error), because it is no valid MDX, though no site shows it through MDX; now MDX is left
        out and named."""
        for line in (
            "# Path Parameters { #path-parameters }",
            "{* docs_src/app/tutorial001.py hl[9] *}",
            "[Read more](more.md){.internal-link target=_blank}",
            '<img src="logo.png" alt="Logo">',
            '<p align="center">\n<img src="a.png" alt="A">\n</p>',
            "Version {version}.",
            "[Preview](b.md){ data-preview }",
            "See {ref}`install`.",
            "<style>\n  .md-typeset .admonition {\n    border-width: 0;\n  }\n</style>",
        ):
            with self.subTest(line=line):
                reading = read_directives(f"{line}\n\n{D}\n", GRAMMAR, renderer=PORTABLE)
                self.assertIsNone(reading.refusal, reading.refusal)
                below = line.count("\n") + 3
                self.assertEqual([(c.line, c.value) for c in reading.claims], [(below, "refuse")])
                self.assertEqual([out.reading for out in reading.left_out], ["docusaurus"])
                self.assertIn("MDX does not build this page", reading.left_out[0].why)

    def test_docusaurus_alone_still_refuses_and_names_nothing_left_out(self) -> None:
        """Regression: the docusaurus renderer must keep refusing a page it does not build; left_out is
        only for a combined renderer."""
        reading = read_directives(f"# Title {{ #anchor }}\n\n{D}\n", GRAMMAR, renderer=DOCUSAURUS)
        self.assertIsNotNone(reading.refusal)
        assert reading.refusal is not None
        self.assertEqual((reading.refusal.reason, reading.refusal.line), ("build_error", 1))
        self.assertEqual(reading.left_out, ())

    def test_the_remaining_readings_still_refuse_what_they_doubt(self) -> None:
        """Regression: leaving MDX out must not leave out the other readings' doubts: a directive in a
        list item is refused by them, with the build error noted."""
        reading = read_directives(f"# T {{ #t }}\n\n- {D}\n", GRAMMAR, renderer=PORTABLE)
        assert reading.refusal is not None
        self.assertEqual((reading.refusal.reason, reading.refusal.line), ("misplaced_directive", 3))
        self.assertEqual([out.reading for out in reading.left_out], ["docusaurus"])
        disagree = read_directives(f"# T {{ #t }}\n\n{D}\n\n    {O}\n", GRAMMAR, renderer=PORTABLE)
        self.assertEqual([(c.line, c.value) for c in disagree.claims], [(3, "refuse")])  # code under all the others

    def test_a_build_error_the_gate_cannot_be_sure_of_still_refuses(self) -> None:
        """Regression (fail closed): where the gate only does not model a construct (an unknown name, an
        expression it does not parse, a name the site may define, <style>), the page may build under MDX,
        which then shows what the
        others may not (an indented line as a paragraph): it must still refuse, nothing left out."""
        for line in (
            "Type {typeof note}.",
            "Contents: {toc}",
            "{Version}",
            "<style>{`.x { color: red }`}</style>",
            '<img src="a.png">\n\n</img>',
        ):
            with self.subTest(line=line):
                reading = read_directives(f"{line}\n\n{D}\n\n    {O}\n", GRAMMAR, renderer=PORTABLE)
                assert reading.refusal is not None
                self.assertEqual(reading.refusal.reason, "build_error")
                self.assertEqual(reading.left_out, ())

    def test_left_out_is_a_named_tuple_of_reading_line_why(self) -> None:
        self.assertEqual(LeftOut._fields, ("reading", "line", "why"))


#: Lines MDX 3 (Docusaurus's pipeline, tests/mdx) certainly does not build, wherever they stand in text:
#: a JSX name with no local name after its ':' or a character no tag allows after it (autolinks, MyST's
#: <project:...> and <inv:...> links: compile errors), and an assignment to a name nothing declares (a
#: ReferenceError in the strict code MDX compiles to, at every render).
CERTAIN_NON_BUILDS: Final = (
    "use some RTLCSS PostCSS plugin like <https://github.com/MohammadYounes/rtlcss>, or <https://x.y/z>.",
    "<https://github.com/x/y>",
    "# Links <ftp://a.b>",
    "| a |\n|---|\n| <https://a.b> |",
    "Write to <mailto:a@b.c>.",
    "See <project:#syntax/md-figures> and <inv:sphinx#today_fmt>.",
    "[Label <https://a.b>](/x) or [x](/y) <https://a.b>",
    "<details>\n<summary>More</summary>\n\nSee <https://a.b>.\n</details>",
    '[Link to pure.html](/pure.html){target="_self"}',
    '[Link](/pure.html){target="_self", rel="x"}',
    "Open it {target = 1} here.",
    "Compare {target += 1}.",
    ":::note\nA note {target=_blank}\n:::",
)
#: Lines like those that MDX builds (each proven with tests/mdx): a namespace name with a local name, the
#: constructs in code, comments, a link's destination or title, front matter or a definition, a name the
#: page defines, an arrow function.
MAY_BUILD: Final = (
    "<a:b>x</a:b>",
    "<a: b>x</a:b>",
    "<a :b>x</a:b>",
    "Text `<https://a.b>` and `{target=1}`.",
    "```\n<https://a.b>\n{target=1}\n```",
    "<!-- <https://a.b> {target=1} -->",
    "{/* <https://a.b> */}",
    "[x](<https://a.b>)",
    '[x](/y "<https://a.b>")',
    '[x](/y "{target=1}")',
    '[z](/w "{ref} a")',
    "[x](/y{ref}) and [z](/w{target=1})",
    "- [x]: <https://a.b>",
    "[x]: /y '<https://a.b>'",
    "---\ntitle: <https://a.b>\n---\n\nText.",
    "---\ntitle: Version {version}\n---\n\nText.",
    "---\ntitle: Page {#anchor}\ndescription: a {.class} b\n---\n\nText.",
    '---\nimage: <img src="a.png">\n---\n\nText.',
    '[x](/y "{#a}") and [z](/w "<img src=a>")',
    "[x](/y{.class})",
    '- [x]: /y "{* f *}"',
    "x {target=>1} y",
    'export let target = 1\n\nx {target="_self"} y',
)
#: Pages the gate cannot tell build or not: an export it does not model (this const cannot be assigned),
#: a member of an imported name (builds when the module has it; tests/mdx stubs imports as components).
UNSURE: Final = (
    'export const target = 1\n\nx {target="_self"} y',
    'import a from "./a.js"\n\n<a .b>x</a.b>',
)


class CertainNonBuildTest(unittest.TestCase):
    def test_an_autolink_or_an_assignment_leaves_mdx_out(self) -> None:
        """Regression (issue 29 item 2, real VitePress pages): an autolink <https://...> was refused under the
        default (build_error: 'the gate does not model member or namespace names'), and so was
        [Link](/pure.html){target="_self"} ('an expression the gate does not model'), though MDX certainly
        does not build either page (a compile error; a ReferenceError at every render): now MDX is left out
        and named, and the page judged by the other readings."""
        for line in CERTAIN_NON_BUILDS:
            with self.subTest(line=line):
                reading = read_directives(f"{line}\n\n{D}\n", GRAMMAR, renderer=PORTABLE)
                self.assertIsNone(reading.refusal, reading.refusal)
                self.assertEqual([(c.line, c.value) for c in reading.claims], [(line.count("\n") + 3, "refuse")])
                self.assertEqual([out.reading for out in reading.left_out], ["docusaurus"])
                self.assertIn("MDX does not build this page", reading.left_out[0].why)

    def test_a_definition_paragraphs_above_puts_nothing_in_doubt(self) -> None:
        """Regression (the portable differential, a CRLF page): a link reference definition two paragraphs
        above '## Options { #options }' put the heading in doubt, since the paragraph was found by '\\n\\n',
        which a CRLF page does not hold: MDX, which certainly does not build the page, was judged."""
        for newline in ("\n", "\r\n"):
            page = (
                f"[api]: <https://x.example>{newline}{newline}## Options {{ #options }}{newline}{newline}{D}{newline}"
            )
            with self.subTest(newline=newline):
                reading = read_directives(page, GRAMMAR, renderer=PORTABLE)
                self.assertIsNone(reading.refusal, reading.refusal)
                self.assertEqual([out.reading for out in reading.left_out], ["docusaurus"])

    def test_the_docusaurus_renderer_still_refuses_them(self) -> None:
        """Regression: under the declared docusaurus renderer the site does not build such a page: refused."""
        for line in CERTAIN_NON_BUILDS:
            with self.subTest(line=line):
                refusal = read_directives(f"{line}\n\n{D}\n", GRAMMAR, renderer=DOCUSAURUS).refusal
                assert refusal is not None
                self.assertEqual(refusal.reason, "build_error")

    def test_what_may_build_is_never_left_out(self) -> None:
        """Regression (fail closed): a build error the gate cannot be sure of leaves nothing out: a link's
        title ([x](/y "{ref} a")) or destination ([x](/y{ref})) and front matter (title: Version {version}) were read as MDX text, and MDX left out of
        pages that build; so was a name continued after a space (<a :b>, <a .b>: 'does not parse'), and
        every other certain build error ({#anchor}, {.class}, an <img> left open) in front matter, a link's
        title or destination, or a definition."""
        for line in (*MAY_BUILD, *UNSURE):
            with self.subTest(line=line):
                reading = read_directives(f"{line}\n\n{D}\n\n    {O}\n", GRAMMAR, renderer=PORTABLE)
                self.assertEqual(reading.left_out, ())

    @unittest.skipUnless(importlib.util.find_spec("justhtml") is not None, "needs the MDX harness's readers")
    def test_the_real_mdx_pipeline_agrees(self) -> None:
        """The cases above against tests/mdx (CONFLICT_GATE_MDX_DIR): each certain one fails to build, each
        page that may build builds."""
        from tests import mdx_oracle

        why = mdx_oracle.missing()
        if why is not None:
            self.skipTest(why)
        renderer = mdx_oracle.MdxRenderer()
        self.addCleanup(renderer.close)
        for line in CERTAIN_NON_BUILDS:
            with self.subTest(line=line):
                self.assertIn("error", renderer.answer(f"{line}\n\n{D}\n", "docusaurus"))
        for line in MAY_BUILD:
            with self.subTest(line=line):
                self.assertNotIn("error", renderer.answer(f"{line}\n\n{D}\n", "docusaurus"))


class RefusalAdviceTest(unittest.TestCase):
    def test_a_directive_in_a_container_is_told_to_move_out_of_it(self) -> None:
        """Regression: a directive in an admonition (MkDocs '!!! note', Docusaurus ':::note') was refused with
        the generic advice (put examples in backticks); the message now names the container, the reading,
        and says to move the directive out of it to a top-level paragraph."""
        for page, reading in ((f"!!! note\n\n    {D}\n", "mkdocs reading"), (f":::note\n\n{D}\n\n:::\n", "docusaurus")):
            with self.subTest(page=page):
                refusal = read_directives(page, GRAMMAR, renderer=PORTABLE).refusal
                assert refusal is not None
                self.assertEqual(refusal.reason, "misplaced_directive")
                self.assertIn("admonition", refusal.detail)
                self.assertIn(
                    "move the directive out of it, to a line of its own in a top-level paragraph", refusal.detail
                )
                self.assertIn(reading, refusal.detail)


class LeftOutThroughThePipelineTest(unittest.TestCase):
    def test_the_cache_keeps_what_was_left_out(self) -> None:
        """Regression: a cached reading must give the readings left out exactly as the reader did (a hit
        that dropped them would hide from the audit that MDX was not judged)."""
        reading = read_directives(f"# T {{ #t }}\n\n{D}\n", GRAMMAR, renderer=PORTABLE)
        self.assertTrue(reading.left_out)
        again = decode_reading(encode_reading(reading), None, None)
        self.assertEqual(again, reading)
        data = encode_reading(reading)
        for wrong in ([["nosuch", 1, "x"]], [["docusaurus", 0, "x"]], [["docusaurus", 1]], "x"):
            with self.subTest(wrong=wrong), self.assertRaises((ValueError, TypeError)):
                decode_reading([*data[:4], wrong], None, None)
        with self.assertRaises(ValueError):  # an entry of format 3 (four items) is a miss
            decode_reading(data[:4], None, None)

    def test_the_audit_names_the_readings_left_out(self) -> None:
        """Regression: the audit must say which readings a page was not judged by and why (JSON, Markdown,
        the MCP tool's limited report); a declared renderer leaves none out."""
        with tempfile.TemporaryDirectory() as root:
            page = f"# T {{ #t }}\n\n{D}\n".encode()
            manifest = write_corpus(Path(root) / "a", {"docs/a.md": page, "docs/b.md": f"{D}\n".encode()})
            report = audit(load_documents(manifest, cache=False))
            self.assertEqual(
                [(o["source_id"], o["path"], o["reading"], o["line"]) for o in report["left_out_readings"]],
                [("a", "docs/a.md", "docusaurus", 1)],
            )
            self.assertTrue(report["clean"])
            schema = result_schema("audit")
            self.assertEqual(schema["$defs"]["LeftOutRecord"]["properties"]["reading"]["enum"], list(RENDERERS))
            if importlib.util.find_spec("jsonschema") is not None:  # the oracles' environment (.ci/run step 4)
                import jsonschema

                jsonschema.validate(json.loads(json.dumps(report)), schema)
            markdown = render_audit_markdown(report, str(manifest))
            self.assertIn("## Readings left out", markdown)
            self.assertIn("| a | docs/a.md:1 | docusaurus |", markdown)
            self.assertEqual(limit_report(report, 0)["left_out_readings"], [])
            self.assertTrue(limit_report(report, 0)["truncated"])
            declared = write_corpus(Path(root) / "b", {"docs/a.md": page}, extra={"renderer": "mkdocs"})
            self.assertEqual(audit(load_documents(declared, cache=False))["left_out_readings"], [])


if __name__ == "__main__":
    unittest.main()
