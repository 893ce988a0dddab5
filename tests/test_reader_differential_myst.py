"""Differential test: the gate against MyST (myst-parser under docutils, as a Sphinx build parses a page), as a
browser shows the built page.

What it compares: :func:`tests.site_renderers.render_myst_page` renders each
document with myst-parser 5.2.0 under docutils 0.22.4 (the MyST extensions a
Sphinx project typically enables; file insertion on, the page taken to live in
``tests/site_fixtures/``, so ``{include}`` pulls a file in), and
:mod:`tests.dom_reader` reads the HTML, a paragraph in a heading's
``<section>`` still top level; one reader, ``myst``. A page that pulls a file
in (``{include}``, ``.. include::`` in ``{eval-rst}``, ``{literalinclude}``)
must be refused whatever it shows. The judging is
:mod:`tests.site_differential`'s: the targets are asserted once the gate
accepts ``"renderer": "myst"``; until then the gate is measured as it is and
the summary says so.

Measured on: generated documents (:data:`tests.site_pages.SITE_RULES`
``["myst"]``: MyST directives as containers, nested, ``{eval-rst}``,
``{raw} html``, includes, ``% comment`` lines, ``(target)=`` labels, ``+++``
block breaks, roles, math, field lists, plus every placement of the GitHub
differential), the container pages and the CommonMark spec examples.

Run it (the packages are needed only here; the classes skip without them)::

    python -m pip install "myst-parser==5.2.0" "docutils==0.22.4" "justhtml==3.16.0"
    CONFLICT_GATE_DIFF_DOCS=2000 python -m unittest tests.test_reader_differential_myst -v
"""

from __future__ import annotations

import importlib.util
import os
import unittest
from typing import TYPE_CHECKING, NamedTuple

from tests import differential, site_pages
from tests.site_differential import FlavourTests, SiteDifferentialCase

PACKAGES = ("myst_parser", "docutils", "justhtml")
MISSING_PACKAGES = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from tests import dom_reader, reader_oracle, site_renderers

SKIP_MESSAGE = (
    'missing {}: python -m pip install "myst-parser==5.2.0" "docutils==0.22.4" "justhtml==3.16.0" '
    "&& python -m unittest tests.test_reader_differential_myst -v"
)
DEFAULT_DOCS = 400
DOCS = int(os.environ.get("CONFLICT_GATE_DIFF_DOCS", DEFAULT_DOCS))
SEED = int(os.environ.get("CONFLICT_GATE_DIFF_SEED", "20261130"))
RENDERER = "myst"
D = site_pages.D
O = site_pages.O
_RENDERED: dict[str, tuple[str, tuple[str, ...]]] = {}


def _render(text: str) -> tuple[str, tuple[str, ...]]:
    """:func:`tests.site_renderers.render_myst_page`, remembered for the page and its probe."""
    if text not in _RENDERED:
        if len(_RENDERED) > 10000:
            _RENDERED.clear()
        _RENDERED[text] = site_renderers.render_myst_page(text)
    return _RENDERED[text]


def read_myst(text: str) -> reader_oracle.ReaderView:
    """What a reader of the built MyST page sees, and the files the page pulls in."""
    view = dom_reader.read(lambda page: _render(page)[0], text, site_renderers.MYST_SECTIONS)
    includes = tuple(f"includes {name}" for name in _render(text.removeprefix("\ufeff"))[1])
    return (
        view
        if not includes
        else reader_oracle.ReaderView(view.directive_lines, view.other_shaped, view.near_misses, includes=includes)
    )


def readers() -> tuple[differential.Reader, ...]:
    return (differential.Reader("myst", read_myst),)


class Shows(NamedTuple):
    """What the reader shows: directive lines, places of other shaped text, near-misses, includes."""

    lines: tuple[int, ...] = ()
    places: tuple[str, ...] = ()
    near_misses: int = 0
    includes: int = 0


#: Hand-written pages and what MyST shows of them: the instrument's own checks.
PAGES: tuple[tuple[str, str, Shows], ...] = (
    ("a note", f"{D}\n\n```{{note}}\n{O}\n```\n", Shows((1,), ("aside>p",))),
    ("an admonition", f"{D}\n\n```{{admonition}} Title\n{O}\n```\n", Shows((1,), ("aside>p",))),
    ("a warning, colon fence", f"{D}\n\n:::{{warning}}\n{O}\n:::\n", Shows((1,), ("aside>p",))),
    ("a nested tip", f"{D}\n\n````{{tip}}\n```{{note}}\n{O}\n```\n````\n", Shows((1,), ("aside>aside>p",))),
    ("eval-rst shows a top-level paragraph", f"{D}\n\n```{{eval-rst}}\n{O}\n```\n", Shows((1, 4))),
    ("raw html", f"{D}\n\n```{{raw}} html\n<p>{O}</p>\n```\n", Shows((1,), ("p",))),
    ("an include", f"{D}\n\n```{{include}} overwrite.md\n```\n", Shows((1,), ("p",), includes=1)),
    ("a comment hides its line", f"% {O}\n\n{D}\n", Shows((3,), near_misses=1)),
    ("a target label", f"(target)=\n{D}\n", Shows((2,))),
    ("a block break", f"{D}\n+++\nText\n", Shows((1,))),
    ("a heading's section", f"# Guide\n\n{D}\n", Shows((3,))),
    ("a closing fence longer than the opener", f"{D}\n\n```text\n{O}\n`````\n", Shows((1,), near_misses=1)),
    ("front matter", f"---\ntitle: Guide\n---\n\n{D}\n", Shows((5,))),
)


class MystTestCase(SiteDifferentialCase):
    heading = "MyST reader differential"
    renderer = RENDERER

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(SKIP_MESSAGE.format(", ".join(MISSING_PACKAGES)))
        cls.readers = readers()
        cls.detect_renderer()


class MystOracleSelfTest(MystTestCase):
    """The instrument on hand-written pages: what MyST shows (not the gate)."""

    def test_pages(self) -> None:
        for name, text, shows in PAGES:
            with self.subTest(page=name):
                view = self.readers[0].read(text)
                self.assertEqual(tuple(line for line, _ in view.directive_lines), shows.lines)
                self.assertEqual(tuple(place for place, _ in view.other_shaped), shows.places)
                self.assertEqual(len(view.near_misses), shows.near_misses, view.near_misses)
                self.assertEqual(len(view.includes), shows.includes)


class MystDifferentialTest(FlavourTests, MystTestCase):
    """The gate against MyST on generated pages, container pages and the spec examples."""

    flavour = "myst"
    docs, default_docs, seed = DOCS, DEFAULT_DOCS, SEED


if __name__ == "__main__":
    unittest.main()
