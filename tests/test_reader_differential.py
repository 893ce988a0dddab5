"""Differential test: the gate's claims and refusals against what two Markdown renderers show a reader.

For every document, :mod:`tests.reader_oracle` computes what a CommonMark and
a GFM renderer (markdown-it-py) show: the directive lines, other
directive-shaped text, near-misses. The gate loads the same documents once
through its public API (:func:`tests.differential.gate_outcomes`, the only code
that touches it); the judging below is :mod:`tests.differential`'s. Per
document and per renderer:

* **unsafe**: the gate did not refuse, and for some (operation, key) its claims'
  value set differs from the values the reader sees (directive lines plus
  other text that reads as a directive), or a claim's line is not one of the
  reader's directive lines;
* **missed**: the gate did not refuse, and the reader sees a directive line the
  gate has no claim for;
* **false refusal**: both renderers show the same one directive line and no
  other directive-shaped text but mentions (issue 15: ``Ping @quill on
  Slack``), and the gate did not return exactly that one claim unrefused.

The manifests say ``"renderer": "commonmark"`` (:data:`RENDERER`): the union of
readings the gate compares for a site whose renderer is not listed.

Asserted: no unsafe and no missed document, and false refusals at most
:data:`MAX_FALSE_REFUSAL_SHARE` of the documents where a false refusal is
possible. A summary goes to stderr; failures print up to
:data:`tests.differential.EXAMPLES_SHOWN` of the shortest documents of each kind, with what each
renderer and the gate said.

Run it (markdown-it-py is needed only here; the class skips without it)::

    python -m pip install markdown-it-py==4.3.0 mdit-py-plugins==0.7.0 linkify-it-py
    python -m unittest tests.test_reader_differential -v
    CONFLICT_GATE_DIFF_DOCS=5000 python -m unittest tests.test_reader_differential -v

``CONFLICT_GATE_DIFF_DOCS`` (default :data:`DEFAULT_DOCS`) sets the number of
generated documents, ``CONFLICT_GATE_DIFF_SEED`` their seed. The CommonMark
spec examples come from ``CONFLICT_GATE_SPEC_JSON`` or else the spec text in
``../shared/reference``; without either, that test skips. The JSON is
markdown-it-py's own copy::

    pip download --no-deps --no-binary :all: markdown-it-py==4.3.0
    tar xzf markdown_it_py-4.3.0.tar.gz
    export CONFLICT_GATE_SPEC_JSON=$PWD/markdown_it_py-4.3.0/tests/test_cmark_spec/commonmark.json
"""

from __future__ import annotations

import functools
import importlib.util
import os
import random
import sys
import unittest
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tests.support import REPO

ORACLE_PACKAGES = ("markdown_it", "mdit_py_plugins", "linkify_it")
MISSING_PACKAGES = [name for name in ORACLE_PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from tests import differential, reader_oracle

SKIP_MESSAGE = (
    "markdown-it-py is not installed; to run the reader differential test: "
    "python -m pip install markdown-it-py==4.3.0 mdit-py-plugins==0.7.0 linkify-it-py && "
    "python -m unittest tests.test_reader_differential -v"
)
DEFAULT_DOCS = 400
DOCS = int(os.environ.get("CONFLICT_GATE_DIFF_DOCS", DEFAULT_DOCS))
SEED = int(os.environ.get("CONFLICT_GATE_DIFF_SEED", "20261130"))
MAX_FALSE_REFUSAL_SHARE = 0.01
#: Each construct the generator flags must appear in at least this share of documents.
MIN_CONSTRUCT_SHARE = 0.05
D = "@quill create_copy existing_path=refuse"
D2 = "@quill create_copy close_required=yes"


#: The renderer the manifests name: the union of readings, for a site whose renderer is not listed.
RENDERER = "commonmark"
#: With JustHTML installed, each oracle's HTML is also read as a browser builds the page (tests.dom_reader):
#: readers ``commonmark+dom`` and ``gfm+dom``. A browser keeps raw HTML open across blocks (an ``<a href>``
#: left open makes the next paragraph a link), which markdown-it's tokens do not show.
DOM_READERS = importlib.util.find_spec("justhtml") is not None


def readers(oracles: Sequence[reader_oracle.Oracle]) -> list[differential.Reader]:
    """Both markdown-it oracles, and (:data:`DOM_READERS`) their HTML as a browser shows it."""
    found = [differential.Reader(oracle.name, functools.partial(reader_oracle.read, oracle)) for oracle in oracles]
    if DOM_READERS:
        from tests import dom_reader

        def browser(oracle: reader_oracle.Oracle, text: str) -> reader_oracle.ReaderView:
            tokens = oracle.md.parse(text[1:] if text.startswith("\ufeff") else text)
            if not any(token.type in ("html_block", "html_inline") for token in _flat(tokens)):
                return reader_oracle.read(oracle, text)  # no raw HTML: the browser builds markdown-it's tree

            def render(page: str) -> str:
                html = oracle.md.render(page)
                return reader_oracle.GFM_TAG_FILTER.sub("&lt;", html) if oracle.tag_filter else html

            return dom_reader.read(render, text)

        found += [differential.Reader(f"{oracle.name}+dom", functools.partial(browser, oracle)) for oracle in oracles]
    return found


def _flat(tokens: Sequence[Any]) -> list[Any]:
    return [token for parent in tokens for token in (parent, *(parent.children or ()))]


def judge(
    documents: Sequence[tuple[str, str]],
    oracles: Sequence[reader_oracle.Oracle],
    outcomes: Sequence[differential.GateOutcome],
) -> list[differential.Judged]:
    """Read every document with every reader and compare with the gate's outcome for it (a false
    refusal is possible where other directive-shaped text is only mentions, issue 15)."""
    return differential.judge(documents, readers(oracles), outcomes, differential.mentions_allowed)


def summary(title: str, judged: Sequence[differential.Judged], counts: Mapping[str, Counter[str]]) -> str:
    """The figures of one run, and the shortest examples of each failure."""
    names = judged[0].names if judged else reader_oracle.ORACLE_NAMES
    return differential.summary(
        title,
        judged,
        counts,
        names,
        MAX_FALSE_REFUSAL_SHARE,
        notes=[
            f'manifests say "renderer": "{RENDERER}"'
            + ("" if DOM_READERS else "; JustHTML is not installed: no +dom readers")
        ],
        eligible_means="one directive line and nothing else shaped but mentions, for every reader",
    )


# --------------------------------------------------------------------------
# The tests.


class OracleTestCase(unittest.TestCase):
    """Skips, visibly, when the renderers are not installed."""

    oracles: tuple[reader_oracle.Oracle, ...]

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(f"{SKIP_MESSAGE} (missing: {', '.join(MISSING_PACKAGES)})")
        cls.oracles = reader_oracle.oracles()


class ReaderOracleSelfTest(OracleTestCase):
    """The oracle on hand-written pages, each with the reader's view written down."""

    def assert_view(
        self,
        text: str,
        directive_lines: Sequence[tuple[int, str]] = (),
        other_places: Sequence[str] = (),
        near_misses: int = 0,
        only: str | None = None,
    ) -> None:
        """Every renderer (or ``only`` the one named) shows these directive lines, shaped places, near-misses."""
        for oracle in self.oracles:
            if only is not None and oracle.name != only:
                continue
            with self.subTest(oracle=oracle.name, text=text):
                view = reader_oracle.read(oracle, text)
                self.assertEqual(view.directive_lines, tuple(directive_lines))
                self.assertEqual([place for place, _ in view.other_shaped], list(other_places))
                self.assertEqual(len(view.near_misses), near_misses, view.near_misses)

    def test_top_level_directive_lines(self) -> None:
        self.assert_view(f"# Guide\n\n{D}\n", [(3, D)])
        self.assert_view(f"Intro line.\n{D}\n{D2}\nOutro.\n", [(2, D), (3, D2)])
        self.assert_view(f"<details>\n<summary>More</summary>\n\n{D}\n\n</details>\n", [(4, D)])
        self.assert_view(f"# Guide\r\n\r\n{D}\r\n", [(3, D)])
        self.assert_view(f"{D}\n{D}\n", [(1, D), (2, D)])

    def test_probe_tells_lines_with_the_same_text_apart(self) -> None:
        """A code span hides the raw directive line; an escaped copy shows its text but is not a directive line."""
        self.assert_view(f"`x\n{D}\n`\n\\{D}\n", other_places=["p"], near_misses=1)
        self.assert_view(f"\\{D}\n{D}\n", [(2, D)], other_places=["p"])

    def test_directive_text_a_reader_sees_elsewhere(self) -> None:
        self.assert_view(f"- {D}\n", other_places=["ul>li>p"])
        self.assert_view(f"> Note\n{D}\n", other_places=["blockquote>p"])
        self.assert_view(f"## {D}\n", other_places=["h2"])
        self.assert_view(f"{D}\n===\n", other_places=["h1"])
        self.assert_view(f"Set {D} here.\n", other_places=["p"])
        self.assert_view(f"<div>\n{D}\n</div>\n", other_places=["html"])
        self.assert_view(f"![{D}](x.png)\n", other_places=["p>img"])
        self.assert_view(f"[{D}](https://example.com)\n", other_places=["p"])
        self.assert_view("@Quill create_copy existing_path=refuse\n", other_places=["p"])

    def test_same_text_but_not_the_raw_line(self) -> None:
        """An escaped, entity-written or indented line renders as the directive, but its source line is not one."""
        for prefix in ("\\", "&#64;", "   ", "&nbsp;", "&#8203;", "\u200b", "` `", "[]()"):
            line = prefix + (D[1:] if prefix == "&#64;" else D)
            self.assert_view(f"{line}\n", other_places=["p"])

    def test_near_misses(self) -> None:
        self.assert_view(f"```text\n{D}\n```\n", near_misses=1)
        self.assert_view(f"Intro:\n\n    {D}\n", near_misses=1)
        self.assert_view(f"Write `{D}` alone.\n", near_misses=1)
        self.assert_view(f"The 2.0 pages write `\n{D}\n` instead.\n", near_misses=1)
        self.assert_view(f"<!--\n{D}\n-->\n", near_misses=1)
        self.assert_view(f'<img src="b.svg" alt="Quill\n{D}\nbadge">\n', near_misses=1)
        self.assert_view(f'[m]: /url "The 2.0 pages say\n{D}\ninstead"\n', near_misses=1)
        self.assert_view("Mail support@quill.dev or ping @quill-bot, @quill_team, @quilljs.\n")
        self.assert_view(f"<div>\n<!--\n{D}\n", near_misses=1)  # a comment left open hides to the end

    def test_where_the_renderers_differ(self) -> None:
        table = f"| Key | Value |\n| --- | --- |\n| a | b |\n{D}\n"
        self.assert_view(table, [(4, D)], only="commonmark")
        self.assert_view(table, other_places=["table>tbody>tr>td"], only="gfm")
        script = f"<script>\n{D}\n</script>\n"
        self.assert_view(script, near_misses=1, only="commonmark")
        self.assert_view(script, other_places=["html"], only="gfm")
        front_matter = f"---\ntitle: Guide\n{D}\n---\n"
        self.assert_view(front_matter, other_places=["h2"], only="commonmark")
        self.assert_view(front_matter, other_places=["front_matter"], only="gfm")

    def test_directive_shaped(self) -> None:
        shaped = [
            "@quill",
            "x @QUILL y",
            "\uff20quill create_copy",
            "@q_u*i~ll!",
            "@quill_ x",
            "@qu\u200bill",
            "\ufe6bquill",
            "@\uff51uill",
        ]
        plain = ["@quill.dev", "@quill-bot", "@quill_team", "@quilljs", "quill", "@ quill", "@_quill"]
        for text in shaped:
            self.assertTrue(reader_oracle.is_directive_shaped(text), text)
        for text in plain:
            self.assertFalse(reader_oracle.is_directive_shaped(text), text)

    def test_lenient_values(self) -> None:
        view = reader_oracle.ReaderView(((3, D),), (("p", "**@Quill** create_copy  existing_path = Overwrite"),), ())
        self.assertEqual(view.values(), {("create_copy", "existing_path"): {"refuse", "overwrite"}})

    def test_spec_text_parser(self) -> None:
        fence = "`" * 32
        spec = f"intro\n\n{fence} example\n\u2192foo\n- bar\n.\n<p>x</p>\n{fence}\n\n{fence} example\n.\n{fence}\n"
        self.assertEqual(reader_oracle.parse_spec_text(spec), ["\tfoo\n- bar\n", ""])


class ReaderDifferentialTest(OracleTestCase):
    """The gate against the renderers, on generated pages and on the CommonMark spec's examples."""

    def assert_gate_agrees(
        self, title: str, documents: Sequence[tuple[str, str]], counts: Mapping[str, Counter[str]]
    ) -> None:
        try:
            outcomes = differential.gate_outcomes([text for _, text in documents], {"renderer": RENDERER})
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise AssertionError(
                "the gate could not be read through the API the adapter expects (gate_outcomes: "
                "conflict_gate.load_documents(manifest).sources[id] with .refusal, .claims): "
                f"{type(error).__name__}: {error}"
            ) from error
        judged = judge(documents, self.oracles, outcomes)
        report = summary(title, judged, counts)
        print(report, file=sys.stderr)
        eligible = [item for item in judged if item.expected is not None]
        self.assertTrue(eligible, "no document where a false refusal is possible: the measurement is empty")
        self.assertEqual([item.label for item in judged if item.unsafe], [], "unsafe documents, see stderr")
        self.assertEqual([item.label for item in judged if item.missed], [], "missed directives, see stderr")
        false_refusals = sum(item.false_refusal for item in eligible)
        self.assertLessEqual(
            false_refusals, MAX_FALSE_REFUSAL_SHARE * len(eligible), "too many false refusals, see stderr"
        )

    def test_generated_documents(self) -> None:
        documents = reader_oracle.generate_documents(SEED, DOCS)
        counts = {
            "construct": Counter(name for document in documents for name in document.constructs),
            "placement": Counter(name for document in documents for name in set(document.placements)),
        }
        self.assert_gate_agrees(
            f"generated, seed {SEED}",
            [(f"seed {SEED}, document {number}", document.text) for number, document in enumerate(documents, 1)],
            counts,
        )

    def test_generator_covers_every_construct(self) -> None:
        """Each construct in a fair share of the documents, and every placement at least once."""
        documents = reader_oracle.generate_documents(SEED, max(DOCS, DEFAULT_DOCS))
        constructs = Counter(name for document in documents for name in document.constructs)
        placements = Counter(name for document in documents for name in document.placements)
        for name in reader_oracle.CONSTRUCTS:
            self.assertGreaterEqual(constructs[name], MIN_CONSTRUCT_SHARE * len(documents), name)
        self.assertEqual([name for name in reader_oracle.PLACEMENTS if not placements[name]], [])
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
