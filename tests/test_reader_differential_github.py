"""Differential test: the gate against GitHub's renderer, cmark-gfm, as a browser shows its output.

What it compares: :mod:`tests.github_oracle` renders each document with
cmark-gfm (GitHub's options and extensions, the tag filter included) and
:mod:`tests.dom_reader` reads the HTML as a browser builds and shows it; two
readers, ``cmark-gfm`` (the library's HTML) and ``github`` (the same with
github.com's front-matter table and, approximated, its sanitizer). The gate
loads the same documents once through its public API; the judging is
:mod:`tests.differential`'s (unsafe, missed, false refusal per reader), with
issue 15's eligibility: a false refusal is possible where both readers show
the same one directive as a top-level paragraph line and any other
directive-shaped text is only a mention (:func:`tests.reader_oracle.is_mention`).

The manifests carry ``"renderer": "github"`` when the gate accepts the key
(:func:`tests.differential.renderer_supported`); otherwise the gate is
measured as it is today (no key), the summary says so, and the targets (no
unsafe, no missed document, false refusals at most
:data:`MAX_FALSE_REFUSAL_SHARE` of the eligible documents) are reported, not
asserted. The hand-written pages of :data:`ISSUE_15_PAGES` are asserted
against the oracle in any case: they check the instrument.

Run it (cmarkgfm and justhtml are needed only here; the classes skip without them)::

    python -m pip install "cmarkgfm==2025.10.22" "justhtml==3.16.0"
    python -m unittest tests.test_reader_differential_github -v
    CONFLICT_GATE_DIFF_DOCS=5000 python -m unittest tests.test_reader_differential_github -v

``CONFLICT_GATE_DIFF_DOCS`` (default :data:`DEFAULT_DOCS`) and
``CONFLICT_GATE_DIFF_SEED`` set the number and seed of the generated
documents (:data:`tests.reader_oracle.HTML_RULES`: every markdown-it
placement and issue 15's), ``CONFLICT_GATE_SPEC_JSON`` the CommonMark spec
examples, as for the markdown-it test.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import unittest
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from tests import differential, reader_oracle
from tests.support import REPO

PACKAGES = ("cmarkgfm", "justhtml")
MISSING_PACKAGES = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from tests import dom_reader, github_oracle

SKIP_MESSAGE = (
    "cmarkgfm or justhtml is not installed; to run the GitHub differential test: "
    'python -m pip install "cmarkgfm==2025.10.22" "justhtml==3.16.0" && '
    "python -m unittest tests.test_reader_differential_github -v"
)
DEFAULT_DOCS = 400
DOCS = int(os.environ.get("CONFLICT_GATE_DIFF_DOCS", DEFAULT_DOCS))
SEED = int(os.environ.get("CONFLICT_GATE_DIFF_SEED", "20261130"))
MAX_FALSE_REFUSAL_SHARE = 0.01
MIN_CONSTRUCT_SHARE = 0.05
RENDERER = "github"
D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"


class Shows(NamedTuple):
    """What a reader shows: directive lines (source line numbers), places of other shaped text, near-misses."""

    lines: tuple[int, ...] = ()
    places: tuple[str, ...] = ()
    near_misses: int = 0


class Page(NamedTuple):
    """A hand-written page and what GitHub shows of it (``github``: where the sanitized view differs)."""

    name: str
    text: str
    shows: Shows
    github: Shows | None = None


_FILTERED = reader_oracle.TAG_FILTERED
#: Every example of issue 15, and what github.com shows a reader.
ISSUE_15_PAGES: tuple[Page, ...] = (
    # The tag filter: the tag and what follows show as text (GFM 6.11).
    *(
        Page(f"tag filter: D, then <{tag} and O", f"{D}\n\n<{tag}\n{O}\n", Shows((1,), ("(root)",)))
        for tag in ("script", "style", "textarea")
    ),
    *(
        Page(
            f"tag filter: D, then a <{tag}> block holding O",
            f"{D}\n\n<{tag}>\n{O}\n</{tag}>\n",
            Shows((1,), ("(root)",)),
        )
        for tag in _FILTERED
    ),
    *(
        Page(f"tag filter: <{tag}> in a paragraph, then D", f"Use <{tag}> here.\n\n{D}\n", Shows((3,)))
        for tag in _FILTERED
    ),
    # Raw HTML opened inside a paragraph: a tag-filtered one shows O as a line of the paragraph.
    *(
        Page(f"x <{tag}>, O, </{tag}> in a paragraph", f"x <{tag}>\n{O}\n</{tag}>\n", Shows((2,)))
        for tag in ("title", "script", "style", "textarea", "iframe", "noembed", "xmp")
    ),
    # ... <template> hides it in a browser; the sanitizer (approximated) unwraps the template.
    Page(
        "x <template>, O, </template> in a paragraph",
        f"x <template>\n{O}\n</template>\n",
        Shows(near_misses=1),
        github=Shows((2,)),
    ),
    Page(
        "x <noscript>, O, </noscript> in a paragraph",
        f"x <noscript>\n{O}\n</noscript>\n",
        Shows(near_misses=1),
        github=Shows((2,)),
    ),
    # Elements a browser keeps open across blocks.
    Page("<div><pre>, blank line, D", f"<div><pre>\n\n{D}\n", Shows(near_misses=1)),
    Page("<blockquote> left open, D", f"<blockquote>\n\n{D}\n", Shows(places=("blockquote>p",))),
    Page("<ul> left open, D", f"<ul>\n\n{D}\n", Shows(places=("ul>p",))),
    Page("<h1> left open, D", f"<h1>\n\n{D}\n", Shows(places=("h1>p",))),
    Page("<a> left open, D", f'<a href="https://docs.quill.example">\n\n{D}\n', Shows(places=("a>p",))),
    Page("<code> left open, D", f"<code>\n\n{D}\n", Shows(near_misses=1)),
    Page("<blockquote> closed after D", f"<blockquote>\n\n{D}\n\n</blockquote>\n", Shows(places=("blockquote>p",))),
    Page(
        "<div hidden> around D",
        f"<div hidden>\n\n{D}\n\n</div>\n",
        Shows(near_misses=1),
        github=Shows(places=("div>p",)),
    ),
    # Directive-shaped text as a reader sees it.
    Page("namespace typo above D", f"@quil create_copy existing_path=overwrite\n{D}\n", Shows((2,), ("p",))),
    Page("mention, then D", f"Questions? Ping @quill on Slack\n\n{D}\n", Shows((3,), ("p",))),
    Page("mention in a URL, then D", f"https://github.com/@quill\n\n{D}\n", Shows((3,), ("p>a",), 1)),
    Page("trailing space after D", f"{D} \n", Shows((1,))),
    Page("trailing tab after D", f"{D}\t\n", Shows((1,))),
    Page("two trailing spaces after D (a hard break)", f"{D}  \nMore text.\n", Shows((1,))),
    # What the markdown-it oracle's own checks say, as GitHub shows it.
    Page("a heading, then D", f"# Guide\n\n{D}\n", Shows((3,))),
    Page("an escaped copy, then D", f"\\{D}\n{D}\n", Shows((2,), ("p",))),
    Page("a code span crossing D's line", f"`x\n{D}\n`\n", Shows(near_misses=1)),
    Page("D in a list item", f"- {D}\n", Shows(places=("ul>li",))),
    Page("D after a table", f"| a | b |\n| --- | --- |\n| c | d |\n{D}\n", Shows(places=("table>tbody>tr>td",))),
    Page("D in a comment", f"<!--\n{D}\n-->\n", Shows(near_misses=1), github=Shows()),
    Page(
        "YAML front matter holding D, then O",
        f"---\ntitle: Guide\n{D}\n---\n\n{O}\n",
        Shows((6,), ("h2",)),
        github=Shows((6,), ("table>tbody>tr>td",)),
    ),
    Page("D in a footnote", f"Text[^1].\n\n[^1]: {D}\n", Shows(places=("section>ol>li>p",))),
    Page("emphasis around D's line", f"*foo\n{D}\nbar*\n", Shows((2,))),
    Page("D in a task-list item", f"- [ ] {D}\n", Shows(places=("ul>li",))),
)


class GithubOracleTestCase(unittest.TestCase):
    """Skips, visibly, when the renderer or the HTML parser is not installed."""

    readers: tuple[differential.Reader, ...]

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(f"{SKIP_MESSAGE} (missing: {', '.join(MISSING_PACKAGES)})")
        cls.readers = github_oracle.readers()


class GithubOracleSelfTest(GithubOracleTestCase):
    """The instrument on issue 15's examples and on what a browser hides (the DOM reader's definitions)."""

    def assert_shows(self, view: reader_oracle.ReaderView, shows: Shows) -> None:
        self.assertEqual(tuple(line for line, _ in view.directive_lines), shows.lines)
        self.assertEqual(tuple(place for place, _ in view.other_shaped), shows.places)
        self.assertEqual(len(view.near_misses), shows.near_misses, view.near_misses)

    def test_issue_15_pages(self) -> None:
        self.assertGreater(len(ISSUE_15_PAGES), 40)
        for page in ISSUE_15_PAGES:
            for reader in self.readers:
                with self.subTest(page=page.name, reader=reader.name):
                    expected = page.github if reader.name == "github" and page.github is not None else page.shows
                    self.assert_shows(reader.read(page.text), expected)

    def test_values_a_reader_reads(self) -> None:
        """The typo's value counts (issue 15: the page visibly states overwrite); a mention states nothing."""
        typo, mention = (
            reader_oracle.ReaderView(((2, D),), (("p", text),), ())
            for text in ("@quil create_copy existing_path=overwrite", "Questions? Ping @quill on Slack")
        )
        self.assertEqual(typo.values(), {("create_copy", "existing_path"): {"refuse", "overwrite"}})
        self.assertEqual(mention.values(), {("create_copy", "existing_path"): {"refuse"}})
        self.assertTrue(reader_oracle.is_mention("https://github.com/@quill"))
        self.assertFalse(reader_oracle.is_mention("@quill create_copy"))
        self.assertFalse(reader_oracle.is_mention("@quill says a=b"))

    def read_html(self, page: str) -> reader_oracle.ReaderView:
        """The DOM reader on raw HTML (an identity renderer: the probe swaps lines of the HTML itself)."""
        return dom_reader.read(lambda text: text, page)

    def test_what_a_browser_hides(self) -> None:
        for element in ("template", "script", "style", "title", "noscript", "noembed", "noframes"):
            with self.subTest(element=element):
                self.assert_shows(self.read_html(f"<p>x <{element}>\n{D}\n</{element}></p>"), Shows(near_misses=1))
        for page in (
            f"<p hidden>\n{D}\n</p>",
            f"<dialog>\n{D}\n</dialog>",
            f"<!--\n{D}\n-->",
            f'<a title="{D}">x</a>',
            f'<img hidden alt="{D}">',
            f'<input type="hidden" value="{D}">',
        ):
            with self.subTest(page=page):
                self.assert_shows(self.read_html(page), Shows(near_misses=1))

    def test_what_a_browser_draws_from_attributes(self) -> None:
        """Regression (hostile finding 7): the instrument read every attribute value as hidden, so the
        differentials could not catch an image's alt text, a field's value or placeholder, an iframe's
        srcdoc or a data: URL an object shows; a browser draws each."""
        pages = {
            f'<img alt="{D}">': "img[alt]",
            f'<input value="{D}">': "input[value]",
            f'<input placeholder="{D}">': "input[placeholder]",
            f'<textarea placeholder="{D}"></textarea>': "textarea[placeholder]",
            f'<iframe srcdoc="<p>{D}</p>"></iframe>': "iframe[srcdoc]",
            '<object data="data:text/plain,%40quill%20create_copy%20existing_path%3Drefuse"></object>': "object[data]",
            '<embed src="data:text/plain;base64,QHF1aWxsIGNyZWF0ZV9jb3B5IGV4aXN0aW5nX3BhdGg9cmVmdXNl">': "embed[src]",
        }
        for page, place in pages.items():
            with self.subTest(page=page):
                self.assertIn(place, [where.rpartition(">")[2] for where, _ in self.read_html(page).other_shaped])

    def test_code_and_visible_html(self) -> None:
        for element in ("pre", "code", "kbd", "samp", "tt", "xmp"):
            with self.subTest(element=element):
                self.assert_shows(self.read_html(f"<{element}>{D}</{element}>"), Shows(near_misses=1))
        self.assert_shows(self.read_html(f"<textarea>\n{D}\n</textarea>"), Shows(places=("textarea",)))
        self.assert_shows(self.read_html(f"<dialog open>{D}</dialog>"), Shows(places=("dialog",)))
        self.assert_shows(self.read_html(f"<details><p>{D}</p></details>"), Shows(places=("details>p",)))

    def test_lines_of_a_top_level_paragraph(self) -> None:
        self.assert_shows(self.read_html(f"<p>Intro\n{D}\n{D} \t\nend</p>"), Shows((2, 3)))
        # a <br> ends a line, but the raw line is not the directive: shown, not a directive line
        self.assert_shows(self.read_html(f"<p>Intro\n{D}<br>\nend</p>"), Shows(places=("p",)))
        self.assert_shows(self.read_html(f"<p>x\n{D}<!-- c -->\n</p>"), Shows(places=("p",)))  # not text only
        self.assert_shows(self.read_html(f"<p>\n<em>{D}</em>\n</p>"), Shows(places=("p>em",)))
        self.assert_shows(self.read_html(f"<p><em>x\n{D}\ny</em></p>"), Shows((2,)))  # emphasis around the line
        self.assert_shows(self.read_html(f"<p><code>x\n{D}\ny</code></p>"), Shows(near_misses=1))
        self.assert_shows(self.read_html(f"<div><p>\n{D}\n</p></div>"), Shows(places=("div>p",)))
        self.assert_shows(self.read_html("<p>\n@<b>quill</b> create_copy\n</p>"), Shows(places=("p",)))
        self.assert_shows(self.read_html("<p>\n@qu<!-- -->ill\n</p>"), Shows(places=("p",)))


class GithubDifferentialTest(GithubOracleTestCase):
    """The gate against cmark-gfm, on generated pages and on the CommonMark spec's examples."""

    extra: Mapping[str, object]
    note: str

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        supported, why = differential.renderer_supported(RENDERER)
        cls.extra = {"renderer": RENDERER} if supported else {}
        cls.note = (
            f'manifests say "renderer": "{RENDERER}"; targets asserted'
            if supported
            else f'the gate does not accept "renderer": "{RENDERER}" yet ({why.splitlines()[0]}): '
            "measured as it is today, without the key; targets reported, not asserted"
        )

    def assert_gate_agrees(
        self,
        title: str,
        documents: Sequence[tuple[str, str]],
        counts: Mapping[str, Counter[str]],
        per_group: str | None = None,
    ) -> None:
        outcomes = differential.gate_outcomes([text for _, text in documents], self.extra)
        judged = differential.judge(documents, self.readers, outcomes, differential.mentions_allowed)
        report = differential.summary(
            title,
            judged,
            counts,
            github_oracle.READER_NAMES,
            MAX_FALSE_REFUSAL_SHARE,
            heading="GitHub reader differential",
            per_group=per_group,
            notes=[self.note],
            eligible_means="one directive as a top-level paragraph line, other shaped text only mentions, "
            "for both readers",
        )
        print(report, file=sys.stderr)
        eligible = [item for item in judged if item.expected is not None]
        self.assertTrue(eligible, "no document where a false refusal is possible: the measurement is empty")
        if not self.extra:
            return
        self.assertEqual([item.label for item in judged if item.unsafe], [], "unsafe documents, see stderr")
        self.assertEqual([item.label for item in judged if item.missed], [], "missed directives, see stderr")
        false_refusals = sum(item.false_refusal for item in eligible)
        self.assertLessEqual(
            false_refusals, MAX_FALSE_REFUSAL_SHARE * len(eligible), "too many false refusals, see stderr"
        )

    def test_generated_documents(self) -> None:
        documents = reader_oracle.generate_documents(SEED, DOCS, reader_oracle.HTML_RULES)
        groups = [["realistic"] if document.realistic else sorted(set(document.placements)) for document in documents]
        counts = {
            "construct": Counter(name for document in documents for name in document.constructs),
            "placement": Counter(name for names in groups for name in names),
        }
        self.assert_gate_agrees(
            f"generated, seed {SEED}",
            [
                (f"seed {SEED}, document {number} [{', '.join(names)}]", document.text)
                for number, (document, names) in enumerate(zip(documents, groups), 1)
            ],
            counts,
            per_group="placement",
        )

    def test_generator_covers_every_construct(self) -> None:
        """Each construct in a fair share of the documents, and every placement, issue 15's too, at least once."""
        rules = reader_oracle.HTML_RULES
        documents = reader_oracle.generate_documents(SEED, max(DOCS, DEFAULT_DOCS), rules)
        constructs = Counter(name for document in documents for name in document.constructs)
        placements = Counter(name for document in documents for name in document.placements)
        for name in rules.constructs:
            self.assertGreaterEqual(constructs[name], MIN_CONSTRUCT_SHARE * len(documents), name)
        self.assertEqual([name for name in rules.placements if not placements[name]], [])
        self.assertGreater(sum(document.realistic for document in documents), len(documents) / 2)

    def test_spec_examples(self) -> None:
        examples = reader_oracle.spec_examples(REPO)
        if examples is None:
            self.skipTest(
                "no CommonMark spec examples: set CONFLICT_GATE_SPEC_JSON to markdown-it-py's "
                "tests/test_cmark_spec/commonmark.json, or keep ../shared/reference/"
                f"{reader_oracle.SPEC_TEXT.name} beside the repository"
            )
        self.assertGreater(len(examples), 600, "the spec examples were not found in the spec source")
        documents = reader_oracle.spec_documents(examples, random.Random(SEED))
        counts = {"injection": Counter(label.partition(": ")[2] for label, _ in documents)}
        self.assert_gate_agrees(f"{len(examples)} CommonMark spec examples", documents, counts)


if __name__ == "__main__":
    unittest.main()
