"""``--site`` against a real Sphinx build: a small site of MyST (``.md``) and reStructuredText (``.rst``)
pages built by ``sphinx-build``, directives injected at the top, the end and inside each construct,
judged by its build: 0 unsafe, 0 false refusals.

The truths and the counting are those of ``tests/test_site_build_mkdocs.py`` (:func:`outcomes`). A
``.rst`` page has no Markdown reading: the build alone judges it. Built with Sphinx's default theme
(``alabaster``: the main region is ``<div class="body" role="main">``, each heading's part in a
``<section>``).

Run it (Sphinx is needed only here; the class skips, saying so, without it)::

    python -m pip install "sphinx==9.0.4" "myst-parser==5.2.0" "docutils==0.22.4"
    python -m unittest tests.test_site_build_sphinx -v
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from _conflict_gate.corpus.load import load_documents
from _conflict_gate.site.build import judge_site, locate_site
from tests.support import write_corpus
from tests.test_site_build_mkdocs import CONTEXT, COUNTS, GRAMMAR, REFUSED, D, E, outcomes, recorded_matches

MISSING = [name for name in ("sphinx", "myst_parser", "docutils") if importlib.util.find_spec(name) is None]
SKIP_MESSAGE = (
    'missing {}: python -m pip install "sphinx==9.0.4" "myst-parser==5.2.0" "docutils==0.22.4" '
    "&& python -m unittest tests.test_site_build_sphinx -v"
)

#: page (with its suffix) -> (source, truth, the lines that count when the truth is COUNTS)
PAGES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    # MyST
    "md-top.md": (f"{D}\n\n# Top\n\nText.\n", COUNTS, (1,)),
    "md-end.md": (f"# End\n\nText.\n\n{D}\n", COUNTS, (5,)),
    "md-adjacent.md": (f"# Two\n\n{D}\n{E}\n", COUNTS, (3, 4)),
    "md-section.md": (f"# A\n\nText.\n\n## B\n\n{D}\n", COUNTS, (7,)),
    "md-note.md": (f"# N\n\n```{{note}}\n{D}\n```\n", REFUSED, ()),
    "md-list.md": (f"# L\n\n- {D}\n", REFUSED, ()),
    "md-quote.md": (f"# Q\n\n> {D}\n", REFUSED, ()),
    "md-heading.md": (f"# H\n\n## {D}\n", REFUSED, ()),
    "md-table.md": (f"# T\n\n| a |\n|---|\n| {D} |\n", REFUSED, ()),
    "md-include.md": ("# I\n\n```{include} included.txt\n```\n", REFUSED, ()),
    "md-fence.md": (f"# F\n\n```text\n{D}\n```\n", CONTEXT, ()),
    "md-code-span.md": (f"# S\n\nUse `{D}` here.\n", CONTEXT, ()),
    "md-comment.md": (f"# C\n\n% {D}\n\nText.\n", CONTEXT, ()),
    "md-html-comment.md": (f"# C\n\n<!-- {D} -->\n\nText.\n", CONTEXT, ()),
    # the Markdown reading doubts this (a MyST directive around it); the build shows a plain paragraph
    "md-eval-rst.md": (f"# R\n\n```{{eval-rst}}\n{D}\n```\n", COUNTS, (4,)),
    # reStructuredText: no Markdown reading; the build alone
    "rst-top.rst": (f"Top\n===\n\n{D}\n", COUNTS, (4,)),
    "rst-after-prose.rst": (f"Prose\n=====\n\nText on a line,\n{D}\n", COUNTS, (5,)),
    "rst-note.rst": (f"Note\n====\n\n.. note::\n\n   {D}\n", REFUSED, ()),
    "rst-list.rst": (f"List\n====\n\n* {D}\n", REFUSED, ()),
    "rst-literal.rst": (f"Literal\n=======\n\nAn example::\n\n   {D}\n", CONTEXT, ()),
    "rst-comment.rst": (f"Comment\n=======\n\n.. {D}\n\nText.\n", CONTEXT, ()),
    "rst-include.rst": ("Include\n=======\n\n.. include:: included.txt\n", REFUSED, ()),
    "rst-substitution.rst": (f"Sub\n===\n\n|d|\n\n.. |d| replace:: {D}\n", REFUSED, ()),
    "rst-indented.rst": (f"Quote\n=====\n\n   {D}\n", REFUSED, ()),
}
#: The file the include pages include.
INCLUDED = f"{D}\n"
CONF = """project = "Injected"
extensions = ["myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "included.txt"]
"""


def build() -> tuple[tempfile.TemporaryDirectory[str], Path]:
    """The site built in a temporary folder; its manifest (renderer ``myst``)."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-sphinx-")
    root = Path(os.path.realpath(tmp.name))
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "included.txt").write_text(INCLUDED, encoding="utf-8")
    toctree = "\n".join(f"   {name.rsplit('.', 1)[0]}" for name in PAGES)
    (root / "index.rst").write_text(f"Index\n=====\n\n.. toctree::\n\n{toctree}\n", encoding="utf-8")
    manifest = write_corpus(
        root,
        {name: source.encode() for name, (source, _, _) in PAGES.items()},
        grammar=GRAMMAR,
        extra={"renderer": "myst"},
    )
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-M", "html", str(root), str(root / "_build"), "-q"],
        check=True,
        capture_output=True,
        cwd=root,
        timeout=300,
    )
    return tmp, manifest


@unittest.skipIf(MISSING, SKIP_MESSAGE.format(", ".join(MISSING)))
class SphinxBuildTest(unittest.TestCase):
    """The judge against a real Sphinx build (see the module docstring)."""

    def test_alabaster(self) -> None:
        tmp, manifest = build()
        self.addCleanup(tmp.cleanup)
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(manifest.parent), str(manifest.parent)), strict=True)
        pages = {name.rsplit(".", 1)[0]: case for name, case in PAGES.items()}
        unsafe, false_refusals = outcomes(judged, pages)
        self.assertEqual(unsafe, [], "unsafe readings")
        self.assertEqual(false_refusals, [], "false refusals")
        for name, (_, truth, _) in pages.items():
            if truth == REFUSED:
                self.assertIsNotNone(judged.sources[name].refusal, name)
        before = outcomes(corpus, pages)
        recorded = recorded_matches(self, manifest, str(manifest.parent), judged)
        self.assertEqual(outcomes(recorded, pages), ([], []), "from the recorded readings")
        print(
            f"\n  sphinx (alabaster): {len(pages)} pages judged by the build: 0 unsafe, 0 false refusals (by the Markdown reading alone, which --site replaces: {len(before[0])} unsafe, "
            f"{len(before[1])} false refusals); from the readings pin --site recorded: 0 and 0",
            file=sys.stderr,
        )


if __name__ == "__main__":
    unittest.main()
