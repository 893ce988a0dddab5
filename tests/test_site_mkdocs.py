"""The ``mkdocs`` and ``portable`` renderers (issue 16): MkDocs containers, snippets, fences, and ``init``'s detection.

What MkDocs shows is the MkDocs differential's (``tests/test_reader_differential_mkdocs.py``, Python-Markdown
3.11.3 + pymdown-extensions 13.1.2 read as a browser builds the page); these tests need nothing installed.
"""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

from _conflict_gate.base.registry import RENDERERS
from _conflict_gate.corpus.load import load_documents, source_from_bytes
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.reading_shapes import Reading
from _conflict_gate.reading.renderers import COMMONMARK, MKDOCS, PORTABLE, READINGS, RENDERER_VALUES, Renderer
from _conflict_gate.site.detect import detect, mkdocs_extensions
from tests.support import FIXTURE_MANIFEST, QUILL_GRAMMAR, run_cli

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"


def read(text: str, renderer: Renderer = MKDOCS) -> Reading:
    return read_directives(text, GRAMMAR, renderer=renderer)


class ContainerTest(unittest.TestCase):
    def assertMisplaced(self, text: str, line: int, container: str) -> None:
        for renderer in (MKDOCS, PORTABLE):
            with self.subTest(renderer=renderer.name):
                refusal = read(text, renderer).refusal
                self.assertIsNotNone(refusal, text)
                assert refusal is not None
                self.assertEqual((refusal.reason, refusal.line), ("misplaced_directive", line), str(refusal))
                if renderer is MKDOCS:  # portable's may name another site's container there (MDX's <div>)
                    self.assertIn(container, refusal.detail)

    def test_the_minimal_page(self) -> None:
        """Regression (issue 16): ``D⏎⏎!!! note⏎⏎    O⏎`` was ``ready refuse``: CommonMark reads the note's
        body as indented code; MkDocs shows O in a note box."""
        self.assertMisplaced(f"{D}\n\n!!! note\n\n    {O}\n", 5, "an admonition (starting line 3)")
        self.assertEqual([c.value for c in read(f"{D}\n\n!!! note\n\n    {O}\n", COMMONMARK).claims], ["refuse"])

    def test_every_container(self) -> None:
        cases = {
            f"{D}\n\n???+ info\n    {O}\n": (4, "collapsible details"),
            f'{D}\n\n=== "pip"\n\n    {O}\n': (5, "content tab"),
            f'{D}\n\n!!! note\n\n    === "pip"\n\n        {O}\n': (7, "content tab"),
            f"- x\n\n    !!! note\n\n        {O}\n\n{D}\n": (5, "an admonition"),
            f"{D}\n\n/// note\n{O}\n///\n": (4, "'/// note' block"),
            f"{D}\n\n<div markdown>\n\n{O}\n\n</div>\n": (5, "markdown attribute"),
            f"{D}\n\nTerm\n:   Text.\n\n    {O}\n": (6, "definition"),
        }
        for text, (line, container) in cases.items():
            with self.subTest(text=text):
                self.assertMisplaced(text, line, container)

    def test_code_in_a_container_and_prose_are_context(self) -> None:
        """A fence superfences closes is code inside a container too; a container of prose refuses nothing."""
        for text in (
            f"{D}\n\n!!! note\n\n    ```text\n    {O}\n    ```\n",
            f"{D}\n\n!!! note\n\n    Copies keep the original.\n",
            f"# Copying\n\n/// note\nCopies keep the original.\n///\n\n{D}\n",
        ):
            with self.subTest(text=text):
                reading = read(text)
                self.assertIsNone(reading.refusal, reading.refusal and str(reading.refusal))
                self.assertEqual([c.value for c in reading.claims], ["refuse"])


class MkDocsDoubtTest(unittest.TestCase):
    def assertAmbiguous(self, text: str, line: int, words: str) -> None:
        refusal = read(text).refusal
        self.assertIsNotNone(refusal, text)
        assert refusal is not None
        self.assertEqual((refusal.reason, refusal.line), ("ambiguous_markup", line), str(refusal))
        self.assertIn(words, refusal.detail)

    def test_a_snippets_line_refuses_the_page(self) -> None:
        """A ``--8<--`` line pulls in another file: refused, naming the line, with or without a directive."""
        self.assertAmbiguous(f'{D}\n\n--8<-- "overwrite.md"\n', 3, "pymdownx.snippets, line 3")
        self.assertAmbiguous("# Install\n\n--8<--\ninstall.md\n--8<--\n", 3, "pymdownx.snippets")
        # regression (the MkDocs differential, a CRLF page): a snippets line ending in \r\n or \r
        for ending in ("\r\n", "\r"):
            self.assertAmbiguous(ending.join([D, "", '--8<-- "overwrite.md"', "", ""]), 3, "pymdownx.snippets")
        alone = read_directives('--8<-- "x.md"\n', GRAMMAR, renderer=PORTABLE).refusal
        self.assertEqual(alone and alone.reason, "ambiguous_markup")
        self.assertIsNone(read(f'{D}\n\n;--8<-- "overwrite.md"\n').refusal)  # escaped: not a snippet

    def test_fences_superfences_does_not_close(self) -> None:
        """Python-Markdown shows a fence closed by a longer run, or never closed, as text."""
        self.assertAmbiguous(f"{D}\n\n```text\n{O}\n`````\n", 4, "MkDocs")
        self.assertAmbiguous(f"{D}\n\n```text\n{O}\n", 4, "MkDocs")
        self.assertEqual([c.value for c in read(f"{D}\n\n```text\n{O}\n```\n").claims], ["refuse"])
        # regression (the portable differential, a MyST page): after a fence never closed (here a MyST
        # ``{code-block}`` fence superfences does not open, so its closing line opens one), Python-Markdown
        # reads no fence below, and shows a closed fence's lines as text
        self.assertAmbiguous(f"{D}\n\n```{{code-block}} python\nx\n```\n\n~~~~text\n{O}\n~~~~\n", 8, "MkDocs")
        self.assertAmbiguous(f"{D}\n\n```\nx\n\n~~~~text\n{O}\n~~~~\n", 7, "MkDocs")

    def test_a_brace_line_in_fenced_code_is_code(self) -> None:
        """Regression (issue 29, FastAPI's pages): a ``{...}`` line (JSON) below a directive-shaped line in a
        ```` ```json ```` block was taken for attr_list's attribute line of a paragraph, and the page refused;
        Python-Markdown shows both as code. Where the code may end before it (a longer closing run, which
        Python-Markdown's fence does not take; a closing line above it), the line is still in doubt."""
        for renderer in (MKDOCS, PORTABLE):
            with self.subTest(renderer=renderer.name):
                page = f'{D}\n\n```json\n{O}\n{{"message": "Hello World"}}\n```\n'
                self.assertEqual([c.value for c in read(page, renderer).claims], ["refuse"])
                self.assertIsNone(read(page, renderer).refusal)
        self.assertAmbiguous(f"{D}\n\n```json\n{O}\n{{hidden}}\n````\n", 5, "attr_list")
        self.assertAmbiguous(f"{D}\n\n```json\n```\n{O}\n{{hidden}}\n```\n", 6, "attr_list")

    def test_lazy_lines_and_abbreviations(self) -> None:
        """Python-Markdown continues a quote or list item over the next line where CommonMark does not;
        an abbreviation of a word of the line marks it up."""
        self.assertAmbiguous(f">\n{D}\n", 2, "continue")
        self.assertAmbiguous(f"-   \n{D}\n  foo\n", 2, "continue")
        self.assertAmbiguous(f"Intro.\n\n{D}\n\n*[quill]: The Quill tool\n", 3, "abbreviation")
        self.assertEqual(len(read(f"Intro.\n\n{D}\n", COMMONMARK).claims), 1)

    def test_what_python_markdown_reads_otherwise(self) -> None:
        """Regressions from the MkDocs differential's spec examples: a tag left open on an earlier line of
        the paragraph (spec 615, 616: Python-Markdown hides the line), a fence superfences reads where
        CommonMark sees a lazy line (spec 321), an indented run continuing a list (spec 5)."""
        self.assertAmbiguous(f'<a  /><b2\n{D}\ndata="foo" >\n', 2, "tag begun")
        self.assertAmbiguous(f'<a foo="bar" bam = \'baz <em>"</em>\'\n{D}\n_boolean />\n', 2, "tag begun")
        self.assertAmbiguous(f"- a\n  > b\n  ```\n{D}\n  c\n  ```\n- d\n", 4, "superfences")
        self.assertAmbiguous(f"- foo\n\n\t\tbar\n{D}\n", 4, "continue")
        # spec 178: text after an HTML block's end tag is Markdown to Python-Markdown (a list item here)
        self.assertAmbiguous(f"<script>\nfoo\n</script>1. *bar*\n{D}\n", 4, "continue")
        # spec 619: a tag Python-Markdown passes and CommonMark shows as text opens an element for good
        self.assertAmbiguous(f'<a h*#ref="hi">\n\n{D}\n', 3, "passes '<a h*#ref=")
        self.assertEqual(len(read(f'<a href="x">y</a> and <https://x.example>\n\n{D}\n', MKDOCS).claims), 1)
        for text in (f"x <b>y</b>\n{D}\n", f"    code\n{D}\n", f"!!! note\n    body\n{D}\n"):
            with self.subTest(text=text):
                self.assertEqual([c.value for c in read(text).claims], ["refuse"])

    def test_what_a_hostile_tester_found_python_markdown_reads_otherwise(self) -> None:
        """Regressions (pages a hostile tester compared with MkDocs, each ``ready refuse`` before): an
        attr_list line gives the paragraph above ``hidden``; ``\\<`` is no escape, so the tag is raw
        HTML; a lazy line after an indented line goes on with a definition's body."""
        self.assertAmbiguous(f"{D}\n{{/* hidden */}}\n", 2, "attr_list")
        self.assertAmbiguous(f"{D}\n{{: hidden }}\n", 2, "attr_list")
        self.assertAmbiguous(f"Intro \\<script> tag.\n{D}\n", 1, "does not escape")
        self.assertAmbiguous(f"Term\n:   a\n\n    x\n{D}\n", 5, "continue")
        for text in (f"# Title {{ #anchor }}\n\n{D}\n", f"{D}\n\n{{: .note }}\n", f"Write \\* and {D[:6]}.\n\n{D}\n"):
            with self.subTest(text=text):  # attributes on a heading, or apart from the paragraph: no doubt
                self.assertEqual([c.value for c in read(text).claims], ["refuse"])

    def test_hostile_finding_2_python_markdown_hides_or_shows_otherwise(self) -> None:
        """Regressions (hostile finding 2, each ``ready refuse`` before while MkDocs hid D or showed O, checked
        against Python-Markdown 3.11.3 + pymdown-extensions 13.1.2): (a) an abbreviation whose title is on
        the next line takes that line (and a word over lines takes its lines); (b) a ``:   definition``
        line makes the paragraph above, with or without blank lines between, a definition list's terms;
        (c) an unclosed ``<!--`` is text; (d) links, and (f) arithmatex's ``$...$``, are read before raw
        HTML; (e) code spans before autolinks and tags. Each refused, naming the line, under mkdocs and
        portable."""
        cases = (
            (f"# T\n\n*[abc]:\n{D}\n", 4, "abbreviation defined on line 3"),
            (f"# T\n\nx\n*[abc]:\n{D}\n", 5, "abbreviation defined on line 4"),
            (f"# T\n\n{D}\n:   The default since 1.0.\n", 3, "def_list"),
            (f"# T\n\n{D}\n\n:   The default since 1.0.\n", 3, "def_list"),
            (f"# T\n\n{D}\n\n\n:   The default since 1.0.\n", 3, "def_list"),
            (f"# T\n\n{D}\n\n<!--\n\n{O}\n", 7, "comment closed later"),
            (f"# T\n\n{D}\n\n<!-- note\n{O}\n", 6, "comment closed later"),
            (f"# T\n\n{D}\n\n[a <!-- ](x)\n{O}\n-->\n", 6, "before raw HTML"),
            (f"# T\n\nx <http://a.b/`>\n{D}\n`\n", 4, "code spans before autolinks"),
            (f'# T\n\nx <img alt="`">\n{D}\n`\n', 4, "code spans before autolinks"),
            (f"# T\n\n{D}\n\nSee $`<!--$ here.\n{O}\nend --> done.\n", 5, "inline math"),
            (f"# T\n\n{D}\n\nSee $<?$ here.\n{O}\nend ?> done.\n", 5, "inline math"),
            (f'# T\n\n{D}\n\nSee $<span title="$ here.\n{O}\nend"> done.\n', 5, "inline math"),
        )
        for text, line, words in cases:
            for renderer in (MKDOCS, PORTABLE):
                with self.subTest(text=text, renderer=renderer.name):
                    refusal = read(text, renderer).refusal
                    self.assertIsNotNone(refusal, text)
                    assert refusal is not None
                    if renderer is MKDOCS:  # portable's may be another site's, earlier (MDX builds no <!--)
                        self.assertEqual((refusal.reason, refusal.line), ("ambiguous_markup", line), str(refusal))
                        self.assertIn(words, refusal.detail)
        # (f) since hostile round 3 refused at the '$' line itself: math taking a '<' (arithmatex's rule, MyST's)
        # what Python-Markdown reads as CommonMark does stays counted: a closed comment, a definition apart
        for text in (
            f"# T\n\n{D}\n\n<!--\n{O}\n-->\n",
            f"# T\n\n{D}\n\nTerm\n:   Text.\n",
            f"# T\n\n*[abc]: A title\n{D}\n",
            f"# T\n\nSee <b>x</b> and `code`.\n{D}\n",
        ):
            with self.subTest(text=text):
                self.assertEqual([c.value for c in read(text).claims], ["refuse"])

    def test_hostile_round_3_critic_marks_around_a_directive(self) -> None:
        """Guards against hostile round 3: pymdownx.critic (in the modelled set) pairs ``{--`` with ``--}``
        over lines and blank lines; ``{--`` above a directive and ``--}`` below struck it out (view mode) or
        removed it (accept mode) while the gate said ``ready refuse``; likewise ``{++``, ``{==``, ``{>>``."""
        self.assertAmbiguous(f"{{--\n{D}\n--}}\n", 2, "pymdownx.critic")
        self.assertAmbiguous(f"{{--\n\n{D}\n\n--}}\n", 3, "pymdownx.critic")
        self.assertAmbiguous(f"{{==\n{D}\n==}}\n", 2, "pymdownx.critic")
        self.assertAmbiguous(f"{D}\n\n{{++\n\n{O}\n\n++}}\n", 5, "pymdownx.critic")
        for text in (f"{{-- old --}} text\n\n{D}\n", f"{D}\n\n{{--\ngone\n--}}\n", f"{{--\n\n{D}\n"):
            with self.subTest(text=text):
                self.assertEqual([c.value for c in read(text).claims], ["refuse"])

    def test_hostile_round_3_arithmatex_inline_math_over_lines(self) -> None:
        """Guards against hostile round 3: arithmatex (generic) reads ``$a`` ... ``b$`` and ``\\(`` ... ``\\)``
        as one inline math span over the lines of a paragraph; a directive line between them showed as math
        while the gate said ``ready refuse`` (mkdocs, and portable for ``\\(``)."""
        for renderer in (MKDOCS, PORTABLE):
            for text in (f"x $a\n{D}\nb$ y\n", f"x \\(a\n{D}\nb\\) y\n"):
                with self.subTest(renderer=renderer.name, text=text):
                    refusal = read(text, renderer).refusal
                    self.assertEqual(refusal and (refusal.reason, refusal.line), ("ambiguous_markup", 1))
        for text in (f"x \\(a\\) y\n{D}\n", f"Costs $5.\n\n{D}\n"):
            with self.subTest(text=text):
                self.assertEqual([c.value for c in read(text).claims], ["refuse"])

    def test_a_link_definition_title_over_lines(self) -> None:
        self.assertAmbiguous(f'{D}\n\n[x]: https://x.example "\n{O}\n"\n', 4, "link definition")


class PortableTest(unittest.TestCase):
    def test_members_are_every_reading(self) -> None:
        """``portable`` is built from READINGS, every other renderer: a renderer added there joins it
        (``commonmark`` is read within ``mkdocs``, which contains it)."""
        self.assertEqual([r.name for r in READINGS], [name for name in RENDERERS if name != "portable"])
        self.assertEqual([r.name for r in PORTABLE.members], ["github", "mkdocs", "myst", "docusaurus"])
        self.assertIs(RENDERER_VALUES["portable"], PORTABLE)

    def test_readings_that_differ_are_doubt(self) -> None:
        """GitHub's tag filter shows a <script>'s content, a browser alone hides it: portable refuses."""
        reading = read_directives(f"{D}\n\n<style>\n{O}\n</style>\n", GRAMMAR, renderer=PORTABLE)
        self.assertIsNotNone(reading.refusal)
        agreed = read_directives(f"Intro.\n\n{D}\n", GRAMMAR, renderer=PORTABLE)
        self.assertEqual([c.value for c in agreed.claims], ["refuse"])


class LabTest(unittest.TestCase):
    def test_the_lab_reads_the_same_under_portable_as_under_commonmark(self) -> None:
        """The lab invariant under the new default: every fixture reads as before (claims, refusal reason,
        near-misses), so every case's status, reason and claims stay byte-equal (``run.py --check``)."""
        corpus = load_documents(FIXTURE_MANIFEST)
        self.assertEqual(corpus.renderer.name, "portable")
        for entry in corpus.manifest.entries:
            with self.subTest(source=entry.source_id):
                raw = (FIXTURE_MANIFEST.parent / entry.path).read_bytes()
                before = source_from_bytes(raw, corpus.grammar, entry, renderer=COMMONMARK)
                now = corpus.sources[entry.source_id]
                self.assertEqual(now.claims, before.claims)
                self.assertEqual(now.near_misses, before.near_misses)
                self.assertEqual(now.refusal and now.refusal.reason, before.refusal and before.refusal.reason)


class DetectTest(unittest.TestCase):
    def tree(self, files: dict[str, str]) -> Path:
        tmp = Path(tempfile.mkdtemp(prefix="conflict-gate-detect-"))
        self.addCleanup(__import__("shutil").rmtree, tmp)
        (tmp / ".git").mkdir()
        for name, text in files.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_text(text, encoding="utf-8")
        (tmp / "docs").mkdir(exist_ok=True)
        return tmp

    def test_each_site_and_none_and_several(self) -> None:
        known = tuple(RENDERER_VALUES)
        cases = {
            "mkdocs": ({"mkdocs.yml": "site_name: Quill\n"}, "mkdocs"),
            "myst": ({"docs/conf.py": "extensions = ['myst_parser']\n"}, "myst" if "myst" in known else "portable"),
            "sphinx without myst": ({"docs/conf.py": "extensions = []\n"}, "portable"),
            "docusaurus": (
                {"docusaurus.config.ts": "export default {}\n"},
                "docusaurus" if "docusaurus" in known else "portable",
            ),
            "none": ({}, "portable"),
            "several": ({"mkdocs.yml": "site_name: Quill\n", "docusaurus.config.js": "\n"}, "portable"),
        }
        for name, (files, renderer) in cases.items():
            with self.subTest(name):
                root = self.tree(files)
                self.assertEqual(detect(root / "docs", root / "docs", known).renderer, renderer)

    def test_the_search_stops_at_the_repository_top(self) -> None:
        """A mkdocs.yml above the folder holding .git belongs to another project."""
        outer = Path(tempfile.mkdtemp(prefix="conflict-gate-detect-"))
        self.addCleanup(__import__("shutil").rmtree, outer)
        (outer / "mkdocs.yml").write_text("site_name: Other\n", encoding="utf-8")
        repo = outer / "repo"
        (repo / ".git").mkdir(parents=True)
        (repo / "docs").mkdir()
        self.assertEqual(detect(repo / "docs", repo / "docs", tuple(RENDERER_VALUES)).renderer, "portable")

    def test_without_a_repository_the_search_reaches_the_working_folder(self) -> None:
        """Regression (a newcomer's tree, no .git): a mkdocs.yml beside docs/ was not found, since the
        search stopped at the manifest's folder, and the message said none was in the folder or above it."""
        root = Path(tempfile.mkdtemp(prefix="conflict-gate-detect-"))
        self.addCleanup(__import__("shutil").rmtree, root)
        (root / "mkdocs.yml").write_text("site_name: Acme\n", encoding="utf-8")
        (root / "docs").mkdir()
        known = tuple(RENDERER_VALUES)
        self.assertEqual(detect(root / "docs", root / "docs", known, root).renderer, "mkdocs")
        alone = detect(root / "docs", root / "docs", known)  # run from elsewhere: docs alone
        self.assertEqual(alone.renderer, "portable")
        self.assertIn(f"in {os.path.realpath(root / 'docs')};", alone.why)
        self.assertIn("--renderer", alone.why)
        (root / "mkdocs.yml").unlink()
        self.assertIn("in docs up to the working folder;", detect(root / "docs", root / "docs", known, root).why)

    def test_mkdocs_extensions_line_by_line(self) -> None:
        text = (
            "site_name: Quill\nmarkdown_extensions:\n  - admonition\n  - pymdownx.superfences:\n"
            "      custom_fences:\n        - name: mermaid\n  - 'pymdownx.arithmatex'\n  - markdown_katex\n"
            "  - toc:\n      permalink: true\nplugins:\n  - search\n"
        )
        self.assertEqual(
            mkdocs_extensions(text)[0],
            ["admonition", "pymdownx.superfences", "pymdownx.arithmatex", "markdown_katex", "toc"],
        )
        self.assertEqual(mkdocs_extensions("markdown_extensions: [abbr, 'tables']\n")[0], ["abbr", "tables"])
        self.assertTrue(mkdocs_extensions("INHERIT: base.yml\n")[1])

    def test_init_writes_the_detected_renderer_and_lists_unmodelled_extensions(self) -> None:
        root = self.tree(
            {
                "mkdocs.yml": "markdown_extensions:\n  - admonition\n  - markdown_katex\n",
                "docs/1.0/a.md": f"# A\n\n{D}\n",
            }
        )
        code, _, err = run_cli(["init", str(root / "docs"), "--version-from", "{version}/**"])
        self.assertEqual(code, 0, err)
        data = json.loads((root / "docs" / "manifest.json").read_text(encoding="utf-8"))
        self.assertEqual(data["renderer"], "mkdocs")
        self.assertIn("renderer 'mkdocs', as ", err)
        self.assertIn("does not model: markdown_katex", err)

    def test_the_renderer_flag_overrides(self) -> None:
        root = self.tree({"mkdocs.yml": "site_name: Quill\n", "docs/1.0/a.md": f"# A\n\n{D}\n"})
        code, _, err = run_cli(["init", str(root / "docs"), "--version-from", "{version}/**", "--renderer", "github"])
        self.assertEqual(code, 0, err)
        data = json.loads((root / "docs" / "manifest.json").read_text(encoding="utf-8"))
        self.assertEqual(data["renderer"], "github")
        self.assertNotIn("mkdocs", err)


if __name__ == "__main__":
    unittest.main()
