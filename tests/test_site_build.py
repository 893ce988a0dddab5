"""``--site``: a built page read with the standard library's HTML parser, built pages located as MkDocs
names them, and the corpus judged by its build (hand-written HTML: standard library only, fast).

The test that builds a real site with MkDocs is ``tests/test_site_build_mkdocs.py``.
"""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path
from typing import Any

from _conflict_gate.base.errors import DirectiveError, IngestionError
from _conflict_gate.base.registry import EXIT_CODES
from _conflict_gate.corpus.load import Corpus, load_documents
from _conflict_gate.decide.decision import gate
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.site.build import SiteBuild, built_path, judge_site, locate_site
from _conflict_gate.site.html import CONTEXT_PLACES, ELSEWHERE_PLACES, read_built_page
from tests.support import QUILL_GRAMMAR, built_html, run_cli, site_judged_corpus, write_corpus, write_site

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
LINE = "@quill create_copy existing_path=refuse"
OTHER = "@quill create_copy close_required=yes"
#: The reasons only ``--site`` produces (the coverage tests of load_documents leave them to this module).
SITE_REASONS = frozenset({"site_unreadable", "built_page_missing", "site_disagrees"})


def code(name: str) -> int:
    return EXIT_CODES[name][0]


def places(body: str) -> list[str]:
    reading = read_built_page(built_html(body), GRAMMAR)
    return [shown.place for shown in reading.elsewhere]


class FolderCase(unittest.TestCase):
    def folder(self) -> Path:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-site-")
        self.addCleanup(tmp.cleanup)
        return Path(os.path.realpath(tmp.name))


class HtmlReadingTest(unittest.TestCase):
    """Where a built page shows directive-shaped text (site.html)."""

    def test_elements_that_close_a_paragraph_as_a_browser_closes_it(self) -> None:
        """Regression (issue 35): the built-site reader kept its own, shorter lists of the HTML standard's
        elements that close a ``<p>`` and of void elements, so after ``<p>Intro<li>x</li>`` it read the
        next line as a line of the paragraph; a browser (justhtml, HTML 13.2.6.4.7) has closed the
        ``<p>`` at ``<li>``, ``<dd>`` or ``<dt>`` and shows it as text of the region. The lists are now
        the tree reader's (reading/html_tree.py), in no-quirks mode."""
        for opener in ("<li>x</li>", "<dd>x</dd>", "<dt>x</dt>", "<summary>x</summary>", "<table></table>"):
            with self.subTest(opener=opener):
                reading = read_built_page(built_html(f"<p>Intro{opener}\n{LINE}\n</p>"), GRAMMAR)
                self.assertEqual(reading.lines, ())
                self.assertEqual([shown.place for shown in reading.elsewhere], ["region_text"])
        reading = read_built_page(built_html(f"<p>Intro<frame>x\n{LINE}\n</p>"), GRAMMAR)  # ignored in a body
        self.assertEqual(reading.lines, (LINE,))

    def test_lines_of_their_own_in_top_level_paragraphs(self) -> None:
        """Each line of a top-level paragraph (a newline or <br> ends one) holding a directive is shown;
        the navigation outside the main region is not read."""
        reading = read_built_page(
            built_html(f"<h1>Title</h1>\n<p>{LINE}</p>\n<p>Text\n  {OTHER}  </p>\n<p>a<br>{LINE}<br/>b</p>"), GRAMMAR
        )
        self.assertEqual(reading.region, "mkdocs, sphinx: role=main")
        self.assertEqual(reading.lines, (LINE, OTHER, LINE))
        self.assertEqual((reading.elsewhere, reading.context), ((), ()))

    def test_every_other_place_is_named(self) -> None:
        """Guards against directive-shaped text in a container, a hidden element or markup being read as
        a directive, or not seen at all."""
        cases = {
            f"<h2>{LINE}</h2>": "heading",
            f"<ul><li>{LINE}</li></ul>": "list_item",
            f"<ul><li><p>{LINE}</p></li></ul>": "list_item",
            f"<table><tr><td>{LINE}</td></tr></table>": "table",
            f"<blockquote><p>{LINE}</p></blockquote>": "quote",
            f'<div class="admonition note"><p class="admonition-title">Note</p><p>{LINE}</p></div>': "container",
            f'<div class="tabbed-set"><input type="radio"><label>B</label><div class="tabbed-content"><p>{LINE}</p>'
            "</div></div>": "container",
            f"<details open><summary>S</summary><p>{LINE}</p></details>": "container",
            f"<details><summary>S</summary><p>{LINE}</p></details>": "collapsed",
            f"<details><summary>{LINE}</summary><p>x</p></details>": "container",
            f"<p hidden>{LINE}</p>": "hidden",
            f'<p style="color: red; display : none">{LINE}</p>': "hidden",
            f'<div style="visibility:hidden"><p>{LINE}</p></div>': "hidden",
            f"<template><p>{LINE}</p></template>": "hidden",
            f"<noscript><p>{LINE}</p></noscript>": "hidden",
            f'<p>See <span hidden="">{LINE}</span></p>': "hidden",
            f'<p><a title="{LINE}">x</a></p>': "attribute",
            f"<p><em>{LINE}</em></p>": "markup",
            f'<p><a href="x">{LINE}</a></p>': "markup",
            f"<p>{LINE} <code>x</code></p>": "markup",
            f"{LINE}": "region_text",
            f"<p><em>x</p><p>{LINE}</p>": "unclosed",
            f"<p>\u202e</p><p>{LINE}</p>": "bidi",
        }
        for body, place in cases.items():
            with self.subTest(body):
                self.assertIn(place, places(body))
                self.assertIn(place, ELSEWHERE_PLACES)

    def test_code_and_comments_count_for_nothing(self) -> None:
        """As in the Markdown reading: an example in code, or a comment, is context, never a refusal."""
        reading = read_built_page(
            built_html(
                f'<div class="highlight"><pre><span></span><code>{LINE}\n</code></pre></div>\n'
                f"<p>Use <code>{LINE}</code></p>\n<!-- {LINE} -->\n<h2>About <code>{LINE}</code></h2>"
            ),
            GRAMMAR,
        )
        self.assertEqual((reading.lines, reading.elsewhere), ((), ()))
        self.assertEqual([shown.place for shown in reading.context], ["code", "code", "comment", "code"])
        self.assertTrue({shown.place for shown in reading.context} <= set(CONTEXT_PLACES))

    def test_code_elements_are_the_page_readers(self) -> None:
        """Guards against the built-page reader keeping its own, shorter list of code elements: text in
        ``<tt>`` or ``<listing>`` (code to the page reader, shown in a monospace face) was "markup", which
        refused a page the Markdown reading had judged."""
        for element in ("tt", "listing", "kbd", "samp"):
            with self.subTest(element):
                reading = read_built_page(built_html(f"<p>Use <{element}>{LINE}</{element}></p>"), GRAMMAR)
                self.assertEqual((reading.lines, reading.elsewhere), ((), ()))
                self.assertEqual([shown.place for shown in reading.context], ["code"])

    def test_what_is_directive_shaped(self) -> None:
        """A mention states nothing; a look-alike at sign, a claim under another at-word and an
        escaped-then-decoded reference are directive-shaped."""
        self.assertEqual(places("<h2>Ping @quill on Slack</h2>"), [])
        self.assertEqual(places("<h2>Write to a@b.example</h2>"), [])
        for text in (
            "\uff20quill create_copy existing_path=refuse",
            "@quil create_copy existing_path=refuse",
            "&#64;quill create_copy existing_path=refuse",
            "@QUILL create_copy",
        ):
            with self.subTest(text):
                self.assertEqual(places(f"<h2>{text}</h2>"), ["heading"])

    def test_the_main_region_by_convention(self) -> None:
        """Material's article, else role=main; none or several is no region (the judge refuses)."""
        material = read_built_page(
            built_html(f"<p>{LINE}</p>", region='<article class="md-content__inner md-typeset">').replace(
                "</div>\n<footer", "</article>\n<footer"
            ),
            GRAMMAR,
        )
        self.assertEqual((material.region, material.lines), ("material: <article class=md-content__inner>", (LINE,)))
        readthedocs = read_built_page(
            built_html(
                f'<div class="section" itemprop="articleBody"><p>{LINE}</p></div>',
                region='<div role="main" class="document">',
            ),
            GRAMMAR,
        )
        self.assertEqual((readthedocs.region, readthedocs.lines), ("readthedocs: itemprop=articleBody", (LINE,)))
        none = read_built_page(f"<html><body><p>{LINE}</p></body></html>", GRAMMAR)
        self.assertIsNone(none.region)
        self.assertIn("no element matches", none.region_problem)
        several = read_built_page(built_html("<p>x</p>") + '<div role="main"><p>y</p></div>', GRAMMAR)
        self.assertEqual((several.region, several.region_problem), (None, "2 elements match mkdocs, sphinx: role=main"))

    def test_sections_are_document_structure(self) -> None:
        """Sphinx wraps each heading's part in a <section>: its paragraphs are top-level; a section inside
        a container is not."""
        reading = read_built_page(
            built_html(f'<section id="a"><h1>A</h1><p>{LINE}</p><section id="b"><p>{OTHER}</p></section></section>'),
            GRAMMAR,
        )
        self.assertEqual((reading.lines, reading.elsewhere), ((LINE, OTHER), ()))
        self.assertEqual(places(f'<div class="admonition"><section><p>{LINE}</p></section></div>'), ["container"])
        self.assertEqual(places(f"<section>{LINE}</section>"), ["region_text"])

    def test_any_text_reads_without_raising(self) -> None:
        """The reading never raises: broken markup, stray end tags, unclosed elements."""
        for body in (
            "</p></div></div><p>",
            f"<p>{LINE}",
            "<div><p><ul><li>" * 50,
            f"<p><![CDATA[{LINE}]]></p>",
            "<p>&#0; &bogus; <</p>",
        ):
            with self.subTest(body[:30]):
                read_built_page(built_html(body), GRAMMAR)


class LocateTest(FolderCase):
    """Built pages named as MkDocs 1.6 names them."""

    def test_names(self) -> None:
        root = self.folder()
        (root / "docs" / "guide").mkdir(parents=True)
        for name in ("index.md", "guide/README.md", "guide/a.md", "other.markdown", "x.txt"):
            (root / "docs" / name).write_text("x", encoding="utf-8")
        (root / "docs" / "both").mkdir()
        (root / "docs" / "both" / "README.md").write_text("x", encoding="utf-8")
        (root / "docs" / "both" / "index.md").write_text("x", encoding="utf-8")
        site = SiteBuild(str(root / "site"), str(root / "docs"), True, str(root / "mkdocs.yml"))
        flat = site._replace(use_directory_urls=False)
        cases = [
            (site, "index.md", "index.html"),
            (site, "guide/README.md", "guide/index.html"),
            (site, "guide/a.md", "guide/a/index.html"),
            (site, "other.markdown", "other/index.html"),
            (flat, "guide/a.md", "guide/a.html"),
            (flat, "index.md", "index.html"),
            (flat, "guide/README.md", "guide/index.html"),
        ]
        for build, rel, expected in cases:
            with self.subTest(rel=rel, urls=build.use_directory_urls):
                self.assertEqual(built_path(build, str(root / "docs" / rel)), (expected, ""))
        for rel, why in (
            ("x.txt", ".md, .markdown"),
            ("both/README.md", "README beside an index"),
            ("../elsewhere.md", "outside the site's docs_dir"),
        ):
            with self.subTest(rel):
                found, reason = built_path(site, str(root / "docs" / rel))
                self.assertIsNone(found)
                self.assertIn(why, reason)

    def test_the_configuration(self) -> None:
        """site_dir, docs_dir and use_directory_urls are read from mkdocs.yml; --site names the build or
        the folder holding mkdocs.yml."""
        root = self.folder()
        (root / "out").mkdir()
        (root / ".git").mkdir()
        (root / "mkdocs.yml").write_text(
            "site_name: T\nsite_dir: 'out'  # built here\ndocs_dir: pages\nuse_directory_urls: False\n",
            encoding="utf-8",
        )
        expected = SiteBuild(str(root / "out"), str(root / "pages"), False, str(root / "mkdocs.yml"))
        self.assertEqual(locate_site(str(root), str(root)), expected)
        (root / "corpus").mkdir()
        self.assertEqual(locate_site(str(root / "out"), str(root / "corpus")), expected)

    def test_sphinx(self) -> None:
        """conf.py: Sphinx, its pages from conf.py's folder, built in _build/html (or the folder named);
        a page is docname.html (html builder) or docname/index.html (dirhtml); .rst and .md only."""
        root = self.folder()
        (root / ".git").mkdir()
        (root / "conf.py").write_text("project = 'T'\n", encoding="utf-8")
        (root / "_build" / "html" / "guide").mkdir(parents=True)
        (root / "_build" / "html" / "guide" / "a.html").write_text("x", encoding="utf-8")
        site = locate_site(str(root), str(root))
        self.assertEqual(
            site, SiteBuild(str(root / "_build" / "html"), str(root), False, str(root / "conf.py"), "sphinx")
        )
        self.assertEqual(locate_site(str(root / "_build" / "html"), str(root)).built, str(root / "_build" / "html"))
        for rel, expected in (
            ("guide/a.rst", "guide/a.html"),
            ("guide/b.md", "guide/b/index.html"),
            ("index.rst", "index.html"),
            ("guide/index.md", "guide/index.html"),
        ):
            with self.subTest(rel):
                self.assertEqual(built_path(site, str(root / rel)), (expected, ""))
        self.assertIsNone(built_path(site, str(root / "notes.txt"))[0])
        (root / "mkdocs.yml").write_text("site_name: T\n", encoding="utf-8")
        with self.assertRaises(IngestionError) as caught:
            locate_site(str(root), str(root))
        self.assertIn("two sites' configurations", str(caught.exception))

    def test_what_it_refuses(self) -> None:
        """site_unreadable, naming the path: a missing folder, no configuration, a value it cannot read, a
        build not made yet."""
        root = self.folder()
        (root / ".git").mkdir()
        (root / "built").mkdir()
        cases = {
            "no folder": (str(root / "absent"), "", "not a folder"),
            "no config": (str(root / "built"), "", "no mkdocs.yml"),
            "env": (str(root), "site_dir: !ENV [OUT, site]\n", "not a plain or quoted value"),
            "inherit": (str(root), "INHERIT: base.yml\n", "INHERIT is not followed"),
            "bool": (str(root), "use_directory_urls: maybe\n", "is not true or false"),
            "not built": (str(root), "site_name: T\n", "the built site is missing"),
        }
        for name, (site, config, message) in cases.items():
            with self.subTest(name):
                if config:
                    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
                with self.assertRaises(IngestionError) as caught:
                    locate_site(site, str(root))
                self.assertEqual(caught.exception.reason, "site_unreadable")
                self.assertIn(message, str(caught.exception))
                self.assertIsNotNone(caught.exception.path)


class JudgeTest(FolderCase):
    """The corpus judged by its build (site.build.judge_site)."""

    def judged(
        self, pages: dict[str, bytes], built: dict[str, str], *, strict: bool = False, **options: Any
    ) -> tuple[Corpus, Corpus]:
        root = self.folder()
        manifest = write_site(root, pages, built, **options)
        corpus = load_documents(manifest, cache=False)
        return corpus, judge_site(corpus, locate_site(str(root / "site"), str(root)), strict=strict)

    def test_an_agreeing_page_keeps_its_claims_and_pins(self) -> None:
        """A page whose counted lines are exactly what the build shows is kept as loaded (the same corpus
        object: claims, spans and pins unchanged); a page without directive-shaped text is not looked up."""
        corpus, judged = self.judged(
            {"a.md": f"# A\n\n{LINE}\n\n```\n{OTHER}\n```\n".encode(), "plain.md": b"# P\n"},
            {"a/index.html": built_html(f"<h1>A</h1><p>{LINE}</p><pre><code>{OTHER}\n</code></pre>")},
        )
        self.assertIs(judged, corpus)
        self.assertEqual(judged.sources["a"].claims[0].line, 3)

    def test_disagreements_refuse_the_page(self) -> None:
        """Guards against a counted line the build does not show, a directive the build shows that no
        source line holds (an include, a macro), and a line shown otherwise, being taken as read."""
        cases = {
            "not shown": ({"a.md": f"{LINE}\n".encode()}, "<p>x</p>", "site_disagrees", 1),
            "shown in a list": ({"a.md": f"{LINE}\n".encode()}, f"<ul><li>{LINE}</li></ul>", "misplaced_directive", 1),
            "a macro's": (
                {"a.md": f"{LINE}\n\nMore text.\n".encode()},
                f"<p>{LINE}</p><p>{OTHER}</p>",
                "site_disagrees",
                None,
            ),
            "shown twice": ({"a.md": f"{LINE}\n".encode()}, f"<p>{LINE}</p><p>{LINE}</p>", "site_disagrees", 1),
            "no region": ({"a.md": f"{LINE}\n".encode()}, "<html><p>x</p></html>", "site_disagrees", None),
            "shown malformed": ({"a.md": f"{LINE}\n".encode()}, f"<p>{LINE}  x</p>", "malformed_directive", None),
        }
        for name, (pages, body, reason, line) in cases.items():
            with self.subTest(name):
                html = body if body.startswith("<html>") else built_html(body)
                _, judged = self.judged(pages, {"a/index.html": html})
                source = judged.sources["a"]
                self.assertIsInstance(source.refusal, DirectiveError)
                assert source.refusal is not None
                self.assertEqual(
                    (source.refusal.reason, source.refusal.line, source.claims), (reason, line, ()), str(source.refusal)
                )
                self.assertIn("a/index.html", str(source.refusal))

    def test_a_refusal_the_build_settles_takes_the_builds_reading(self) -> None:
        """A page the Markdown reading refused for doubt about how the site renders it (ambiguous_markup)
        counts the lines the build shows, at the source lines that hold them; a grammar refusal stays."""
        page = f"<div>\n\n{LINE}\n".encode()
        corpus, judged = self.judged(
            {"a.md": page}, {"a/index.html": built_html(f"<div>\n</div><p>{LINE}</p>")}, extra={"renderer": "mkdocs"}
        )
        refusal = corpus.sources["a"].refusal
        self.assertEqual(refusal.reason if refusal else None, "ambiguous_markup")
        source = judged.sources["a"]
        self.assertIsNone(source.refusal)
        self.assertEqual(
            [(c.line, c.quote, c.byte_start, c.byte_end, c.start) for c in source.claims],
            [(3, LINE, 7, 7 + len(LINE), 7)],
        )
        self.assertEqual(source.sha256, corpus.sources["a"].sha256)
        bad = b"<div>\n\n@quill create_copy existing_path=maybe\n"
        _, judged = self.judged(
            {"a.md": bad},
            {"a/index.html": built_html("<p>@quill create_copy existing_path=maybe</p>")},
            extra={"renderer": "mkdocs"},
        )
        refusal = judged.sources["a"].refusal
        self.assertEqual(refusal.reason if refusal else None, "unknown_directive_value")

    def test_which_line_counts_must_be_known(self) -> None:
        """Guards against a shown line being given to one of several source lines that hold its text
        (one in a paragraph, one in code the Markdown reading doubted)."""
        page = f"<div>\n\n{LINE}\n\n    {LINE}\n\n```\n{LINE}\n```\n".encode()
        _, judged = self.judged(
            {"a.md": page}, {"a/index.html": built_html(f"<div></div><p>{LINE}</p>")}, extra={"renderer": "mkdocs"}
        )
        refusal = judged.sources["a"].refusal
        self.assertEqual(refusal.reason if refusal else None, "site_disagrees")
        self.assertIn("2 unindented source line(s)", str(refusal))

    def test_a_page_without_directive_shaped_text(self) -> None:
        """Guards against an include or a macro showing a directive on a page whose source holds none:
        refused (site_disagrees); the same page without a built page is kept (no error)."""
        corpus, judged = self.judged(
            {"a.md": b"# A\n\n{{ macro() }}\n", "b.md": b"# B\n"},
            {"a/index.html": built_html(f"<h1>A</h1><p>{LINE}</p>")},
            extra={"renderer": "mkdocs"},
        )
        self.assertEqual((corpus.sources["a"].refusal, corpus.sources["a"].claims), (None, ()))
        refusal = judged.sources["a"].refusal
        self.assertEqual(refusal.reason if refusal else None, "site_disagrees")
        self.assertIs(judged.sources["b"], corpus.sources["b"])
        corpus, judged = self.judged({"c.md": b"# C\n"}, {"c/index.html": "<html><p>A custom template.</p></html>"})
        self.assertIs(judged, corpus)  # no region, but nothing directive-shaped anywhere: nothing to compare
        corpus, judged = self.judged({"c.md": b"# C\n"}, {"c/index.html": f"<html><p>{LINE}</p></html>"})
        refusal = judged.sources["c"].refusal
        self.assertEqual(refusal.reason if refusal else None, "site_disagrees")

    def test_restructuredtext_is_judged_by_the_build_alone(self) -> None:
        """A Sphinx site's .rst page: its claims come from the build, at the source lines that hold them."""
        root = self.folder()
        (root / "conf.py").write_text("project = 'T'\n", encoding="utf-8")
        (root / "_build" / "html").mkdir(parents=True)
        (root / "_build" / "html" / "a.html").write_text(
            built_html(
                f'<section id="t"><h1>T</h1><p>{LINE}</p><div class="highlight"><pre>{OTHER}</pre></div></section>'
            ),
            encoding="utf-8",
        )
        manifest = write_corpus(root, {"a.rst": f"T\n=\n\n{LINE}\n\n::\n\n   {OTHER}\n".encode()})
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(root), str(root)), strict=True)
        source = judged.sources["a"]
        self.assertEqual(
            (source.refusal, [(c.line, c.quote) for c in source.claims], source.near_misses), (None, [(4, LINE)], ())
        )

    def test_a_missing_built_page(self) -> None:
        """built_page_missing, naming the source, its path and the built page looked for: a failed source,
        or the error with strict."""
        corpus = site_judged_corpus(self.folder(), "built_page_missing")
        source = corpus.sources["b"]
        self.assertTrue(source.failed)
        assert source.refusal is not None
        self.assertEqual(
            (source.refusal.reason, source.refusal.source_id, source.refusal.path),
            ("built_page_missing", "b", "docs/b.md"),
        )
        self.assertIn("b/index.html", str(source.refusal))
        decision = gate(corpus, ["a", "b"], "1.0", "create_copy", "existing_path")
        self.assertEqual((decision["status"], decision["reason"]), ("refused", "built_page_missing"))
        self.assertEqual(gate(corpus, ["a"], "1.0", "create_copy", "existing_path")["status"], "ready")
        with self.assertRaises(IngestionError) as caught:
            self.judged({"b.md": f"{LINE}\n".encode()}, {}, strict=True)
        self.assertEqual(caught.exception.reason, "built_page_missing")


class BuiltOverrideTest(FolderCase):
    """A manifest entry's "built": the page --site reads for it, checked as a path."""

    def test_the_override_names_the_built_page(self) -> None:
        """Guards against the conventions being used where the entry names its built page."""
        root = self.folder()
        manifest = write_site(
            root,
            {"a.md": f"{LINE}\n".encode()},
            {"moved/page.html": built_html(f"<p>{LINE}</p>"), "a/index.html": built_html("<p>x</p>")},
        )
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["documents"][0]["built"] = "moved/page.html"
        manifest.write_text(json.dumps(data), encoding="utf-8")
        corpus = load_documents(manifest, cache=False)
        self.assertEqual(corpus.sources["a"].entry.built, "moved/page.html")
        site = locate_site(str(root / "site"), str(root))
        self.assertIs(judge_site(corpus, site), corpus)
        data["documents"][0]["built"] = "moved/gone.html"
        manifest.write_text(json.dumps(data), encoding="utf-8")
        with self.assertRaises(IngestionError) as caught:
            judge_site(load_documents(manifest, cache=False), site, strict=True)
        self.assertEqual(caught.exception.reason, "built_page_missing")
        self.assertIn("moved/gone.html", str(caught.exception))

    def test_pages_built_to_one_page_are_refused(self) -> None:
        """Regression (issue 30, slug collisions): two sources built to one page (a slug given twice, one
        page of two versions built to one path; here an override) were each judged by it, so a page the
        site does not show at all counted where it held the shown page's line. The site shows one of
        them, and which one is not known: each page holding directive-shaped text is refused; a page
        holding none is judged by the page as before, and one refused for a reason the build does not
        settle keeps its refusal."""
        root = self.folder()
        manifest = write_site(
            root,
            {
                "a.md": f"{LINE}\n".encode(),
                "b.md": f"{LINE}\n".encode(),
                "c.md": b"# C\n",
                "d.md": b"@quill create_copy existing_path=maybe\n",
            },
            {"a/index.html": built_html(f"<p>{LINE}</p>")},
        )
        data = json.loads(manifest.read_text(encoding="utf-8"))
        for entry in data["documents"]:
            if entry["source_id"] != "a":
                entry["built"] = "a/index.html"
        manifest.write_text(json.dumps(data), encoding="utf-8")
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(root / "site"), str(root)))
        for sid in ("a", "b"):
            refusal = judged.sources[sid].refusal
            assert isinstance(refusal, DirectiveError), sid
            self.assertEqual((refusal.reason, judged.sources[sid].claims), ("site_disagrees", ()))
            self.assertIn("a/index.html", refusal.detail)
            self.assertIn(repr("b" if sid == "a" else "a"), refusal.detail)
        shown_by_another = judged.sources["c"].refusal  # judged by the page as before: it shows a directive
        assert isinstance(shown_by_another, DirectiveError)
        self.assertIn("no counted line of the page holds it", shown_by_another.detail)
        self.assertIs(judged.sources["d"], corpus.sources["d"])

    def test_a_bad_override_is_an_invalid_path(self) -> None:
        root = self.folder()
        manifest = write_site(root, {"a.md": f"{LINE}\n".encode()}, {})
        data = json.loads(manifest.read_text(encoding="utf-8"))
        revision = load_documents(manifest, cache=False).sources["a"].document_revision
        for bad in ("../x.html", "/x.html", "a//b.html", ""):
            with self.subTest(bad):
                data["documents"][0]["built"] = bad
                manifest.write_text(json.dumps(data), encoding="utf-8")
                with self.assertRaises(IngestionError) as caught:
                    load_documents(manifest, cache=False)
                self.assertEqual(
                    (caught.exception.reason, caught.exception.pointer), ("invalid_path", "/documents/0/built")
                )
                self.assertIn("built", caught.exception.detail)
        data["documents"][0]["built"] = "a.html"
        manifest.write_text(json.dumps(data), encoding="utf-8")
        self.assertNotEqual(load_documents(manifest, cache=False).sources["a"].document_revision, revision)


class CommandLineTest(FolderCase):
    """audit --site and gate --site: exit codes as the command line's table says."""

    def test_audit_and_gate(self) -> None:
        root = self.folder()
        manifest = write_site(
            root,
            {"a.md": f"{LINE}\n".encode(), "b.md": f"{LINE}\n".encode()},
            {"a/index.html": built_html(f"<p>{LINE}</p>"), "b/index.html": built_html(f"<p>{LINE}</p>")},
        )
        site = str(root / "site")
        self.assertEqual(run_cli(["audit", "--manifest", str(manifest), "--no-cache", "--site", site])[0], code("ok"))
        status, out, _ = run_cli(
            [
                "gate",
                "--manifest",
                str(manifest),
                "--no-cache",
                "--site",
                site,
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "a",
                "b",
            ]
        )
        self.assertEqual((status, json.loads(out)["status"]), (code("ok"), "ready"))
        (root / "site" / "b" / "index.html").write_text(built_html(f"<ul><li>{LINE}</li></ul>"), encoding="utf-8")
        status, out, _ = run_cli(
            ["audit", "--manifest", str(manifest), "--no-cache", "--site", str(root), "--format", "json"]
        )
        self.assertEqual(status, code("findings"))
        self.assertEqual([r["reason"] for r in json.loads(out)["refused_sources"]], ["misplaced_directive"])
        status, _, _ = run_cli(
            [
                "gate",
                "--manifest",
                str(manifest),
                "--no-cache",
                "--site",
                site,
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "a",
                "b",
            ]
        )
        self.assertEqual(status, code("refused"))
        (root / "site" / "b" / "index.html").unlink()
        status, _, err = run_cli(["audit", "--manifest", str(manifest), "--no-cache", "--site", site])
        self.assertEqual(status, code("input"))
        self.assertIn("built_page_missing", err)
        status, _, err = run_cli(
            [
                "gate",
                "--manifest",
                str(manifest),
                "--no-cache",
                "--site",
                site,
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "a",
                "b",
            ]
        )
        self.assertEqual((status, len(err.splitlines())), (code("input"), 1), err)
        self.assertIn("built_page_missing", err)

    def test_check_answer_takes_the_same_judgement(self) -> None:
        """Guards against a decision gate --site made (its claims from the build) failing check-answer:
        with the same --site the answer is supported; without it the decision is not this corpus's."""
        root = self.folder()
        manifest = write_site(
            root,
            {"a.md": f"<div>\n\n{LINE}\n".encode()},
            {"a/index.html": built_html(f"<div>\n</div><p>{LINE}</p>")},
            extra={"renderer": "mkdocs"},
        )
        site = str(root / "site")
        status, out, err = run_cli(
            [
                "gate",
                "--manifest",
                str(manifest),
                "--no-cache",
                "--site",
                site,
                "--version",
                "1.0",
                "--claim",
                "existing_path",
                "a",
            ]
        )
        self.assertEqual(status, code("ok"), err)
        (root / "decision.json").write_text(out, encoding="utf-8")
        (root / "answer.txt").write_text(
            "In Quill 1.0 (`version=1.0`), create_copy refuses to replace a file: `existing_path=refuse`.\n\n"
            f"The page declares it: `{LINE}` [source: a:3]\n",
            encoding="utf-8",
        )
        check = [
            "check-answer",
            "--manifest",
            str(manifest),
            "--no-cache",
            "--decision",
            str(root / "decision.json"),
            "--answer",
            str(root / "answer.txt"),
        ]
        status, out, err = run_cli([*check, "--site", site])
        self.assertEqual((status, json.loads(out)["verdict"]), (code("ok"), "supported"), err)
        status, _, err = run_cli(check)
        self.assertEqual(status, code("decision"), err)
        self.assertIn("decision_mismatch", err)

    def test_a_site_that_cannot_be_read(self) -> None:
        """site_unreadable: one line on stderr, exit 6 (input), never a traceback."""
        root = self.folder()
        manifest = write_site(root, {"a.md": f"{LINE}\n".encode()}, {})
        status, _, err = run_cli(["audit", "--manifest", str(manifest), "--no-cache", "--site", str(root / "nowhere")])
        self.assertEqual((status, len(err.splitlines())), (code("input"), 1), err)
        self.assertIn("site_unreadable", err)


if __name__ == "__main__":
    unittest.main()
