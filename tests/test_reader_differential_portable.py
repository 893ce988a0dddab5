"""Differential test: the gate's ``portable`` reading, judged against every renderer at once.

``"renderer": "portable"`` (the meaning of an absent key): a line counts only
where every renderer (``renderers.READINGS``: ``github``, ``commonmark``,
``mkdocs``, ``myst``, ``docusaurus``) shows it as a directive; it is context
only where every one hides it or shows it as code; anything else is doubt, and
a page one of them refuses is refused; a reading under which the page does not
build (MDX) is left out while another builds it (issue 29). Judged the same way
here: each document is read by every reader below, and it is

* **unsafe** / **missed** when it is so for any reader that builds it;
* **not refused** when a reader says it must be refused (it pulls content in
  for MkDocs or MyST; no reader builds it) and the gate did not refuse it; one
  reader's build error alone (MDX) is not a page that must be refused;
* **eligible** for a false refusal only when every reader that builds it shows
  the same one directive as a top-level paragraph line, other shaped text only
  mentions, and nothing to refuse.

The readers: ``commonmark`` (markdown-it-py 4.3.0's CommonMark preset,
:func:`tests.reader_oracle.read`), ``cmark-gfm`` and ``github``
(:mod:`tests.github_oracle`), ``mkdocs`` (:mod:`tests.test_reader_differential_mkdocs`),
``myst`` (:mod:`tests.test_reader_differential_myst`), ``docusaurus`` (issue 29: not ``mdx``)
(:mod:`tests.mdx_oracle`, MDX 3 in Node). The documents: ``CONFLICT_GATE_DIFF_DOCS``
generated documents split evenly between the GitHub differential's rules
(:data:`tests.reader_oracle.HTML_RULES`) and each site's
(:data:`tests.site_pages.SITE_RULES`), every site's container pages, the real
MkDocs pages with their injections, and the CommonMark spec examples.

Run it (the renderers' packages in one environment, and the MDX harness)::

    (cd tests/mdx && npm ci)
    python -m pip install "markdown-it-py==4.3.0" "cmarkgfm==2025.10.22" "justhtml==3.16.0" "mkdocs==1.6.1" \
        "markdown==3.11.3" "pymdown-extensions==13.1.2" "myst-parser==5.2.0" "docutils==0.22.4"
    CONFLICT_GATE_DIFF_DOCS=2000 python -m unittest tests.test_reader_differential_portable -v
"""

from __future__ import annotations

import importlib.util
import os
import unittest
from collections import Counter
from typing import TYPE_CHECKING

from tests import differential, reader_oracle, site_pages
from tests.site_differential import SiteDifferentialCase, generated, spec

PACKAGES = ("markdown_it", "cmarkgfm", "justhtml", "mkdocs", "markdown", "pymdownx", "myst_parser", "docutils")
MISSING_PACKAGES = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from markdown_it import MarkdownIt

    from tests import github_oracle, mdx_oracle, test_reader_differential_mkdocs, test_reader_differential_myst

SKIP_MESSAGE = "{}: see the module docstring (the renderers' packages) or reference/dev/testing.md"
DEFAULT_DOCS = 400
DOCS = int(os.environ.get("CONFLICT_GATE_DIFF_DOCS", DEFAULT_DOCS))
SEED = int(os.environ.get("CONFLICT_GATE_DIFF_SEED", "20261130"))
RENDERER = "portable"
#: The rule sets the generated documents are drawn from, in turn: GitHub's and every site's.
RULE_SETS = {"github": reader_oracle.HTML_RULES, **site_pages.SITE_RULES}


def readers() -> tuple[differential.Reader, ...]:
    """The readers of every renderer: CommonMark, GitHub's two, MkDocs, MyST and Docusaurus."""
    commonmark = reader_oracle.Oracle("commonmark", MarkdownIt("commonmark"), False)
    return (
        differential.Reader("commonmark", lambda text: reader_oracle.read(commonmark, text)),
        *github_oracle.readers(),
        *test_reader_differential_mkdocs.readers(),
        *test_reader_differential_myst.readers(),
        *mdx_oracle.readers(names=mdx_oracle.SITE_READERS),
    )


class PortableDifferentialTest(SiteDifferentialCase):
    """The gate against the renderers it covers at once, on every site's pages."""

    heading = "portable reader differential"
    renderer = RENDERER
    unbuilt_left_out = True

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(SKIP_MESSAGE.format(f"missing {', '.join(MISSING_PACKAGES)}"))
        why = mdx_oracle.missing()
        if why is not None:
            raise unittest.SkipTest(SKIP_MESSAGE.format(why))
        cls.readers = readers()
        cls.detect_renderer()

    def test_generated_documents(self) -> None:
        documents: list[tuple[str, str]] = []
        counts: dict[str, Counter[str]] = {"rules": Counter(), "placement": Counter()}
        realistic: set[str] = set()
        share = max(1, DOCS // len(RULE_SETS))
        for name, rules in RULE_SETS.items():
            mine, mine_counts, mine_realistic = generated(SEED, share, rules, prefix=f"{name} rules, ")
            documents += mine
            realistic |= mine_realistic
            counts["rules"][name] += len(mine)
            counts["placement"] += mine_counts["placement"]
        self.measure(
            f"generated, seed {SEED}", documents, counts, per_group="placement", realistic=realistic.__contains__
        )

    def test_container_pages(self) -> None:
        pages = [page for flavour in site_pages.FLAVOURS for page in site_pages.container_pages(flavour)]
        counts = {
            "site": Counter(page.label.partition("/")[0] for page in pages),
            "container": Counter(differential.group_names(page.label).pop() for page in pages),
        }
        # no unsafe and no missed page; false refusals reported: the pages are adversarial, and a page of
        # one site read by another's reader is refused where that reader may differ (JSX in a ``:::note``,
        # a colon fence MyST reads whole, is raw HTML the gate does not follow there)
        self.measure("container pages of every site", pages, counts, assert_false_refusals=False)

    def test_real_pages(self) -> None:
        documents = [
            (f"{name}: {variant} [{name.partition('/')[0]}]", text)
            for name, page in site_pages.real_pages()
            for variant, text in site_pages.inject(page)
        ]
        counts = {"site": Counter(differential.group_names(label).pop() for label, _ in documents)}
        self.measure("real MkDocs pages with injected directives", documents, counts, per_group="site")

    def test_spec_examples(self) -> None:
        documents = spec(SEED)
        if documents is None:
            self.skipTest("no CommonMark spec examples: set CONFLICT_GATE_SPEC_JSON (see reference/dev/testing.md)")
        counts = {"injection": Counter(label.partition(": ")[2] for label, _ in documents)}
        # edge cases, not realistic pages: Python-Markdown parts from CommonMark on many, and the gate
        # refuses there (reference/dev/differential.md); no unsafe and no missed document is asserted
        self.measure("CommonMark spec examples", documents, counts, assert_false_refusals=False)


if __name__ == "__main__":
    unittest.main()
