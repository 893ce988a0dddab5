"""``--site`` against a real MkDocs build: a small site built by ``mkdocs build``, directives injected at
the top, the end and inside each container and plugin construct, judged by its build: 0 unsafe, 0 false
refusals.

Each page of :data:`PAGES` puts a directive in one place and says what a reader of the built site sees
there (:data:`COUNTS`: a directive, at that line; :data:`CONTEXT`: an example or nothing, never a
refusal; :data:`REFUSED`: directive-shaped text outside a top-level paragraph, which refuses the page).
*Unsafe* is a claim counted where the truth is not ``COUNTS`` (or at another line or value); a *false
refusal* is a page refused where the truth is ``COUNTS`` or ``CONTEXT``. The site is built with the
``mkdocs`` and ``readthedocs`` themes (both ship with MkDocs) and, when ``mkdocs-material`` is
importable, the ``material`` theme.

Run it (MkDocs is needed only here; the class skips, saying so, without it)::

    python -m pip install "mkdocs==1.6.1" "markdown==3.11.3" "pymdown-extensions==13.1.2"
    python -m unittest tests.test_site_build_mkdocs -v
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from _conflict_gate.corpus.load import Corpus, load_documents
from _conflict_gate.site.build import judge_site, locate_site
from tests.support import write_corpus

MISSING = [name for name in ("mkdocs", "markdown", "pymdownx") if importlib.util.find_spec(name) is None]
SKIP_MESSAGE = (
    'missing {}: python -m pip install "mkdocs==1.6.1" "markdown==3.11.3" "pymdown-extensions==13.1.2" '
    "&& python -m unittest tests.test_site_build_mkdocs -v"
)
MATERIAL = importlib.util.find_spec("material") is not None

D = "@quill create_copy existing_path=refuse"
E = "@quill create_copy close_required=yes"
COUNTS, CONTEXT, REFUSED = "counts", "context", "refused"

#: page -> (source, truth, the lines that count when the truth is COUNTS)
PAGES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "top": (f"{D}\n\n# Top\n\nSome text.\n", COUNTS, (1,)),
    "end": (f"# End\n\nSome text.\n\n{D}\n", COUNTS, (5,)),
    "adjacent": (f"# Two\n\n{D}\n{E}\n", COUNTS, (3, 4)),
    "after-prose": (f"Some text on a line,\n{D}\n", COUNTS, (2,)),
    "after-table": (f"| a |\n|---|\n| b |\n\n{D}\n", COUNTS, (5,)),
    "with-examples": (f"{D}\n\n```text\n{E}\n```\n\nUse `{E}` to say so. Ping @quill on Slack.\n", COUNTS, (1,)),
    "admonition": (f"# A\n\n!!! note\n    {D}\n", REFUSED, ()),
    "admonition-titled": (f'!!! warning "Careful"\n\n    Text.\n\n    {D}\n', REFUSED, ()),
    "details": (f'??? info "More"\n    {D}\n', REFUSED, ()),
    "details-open": (f'???+ info "More"\n    {D}\n', REFUSED, ()),
    "tabs": (f'=== "One"\n\n    Text.\n\n=== "Two"\n\n    {D}\n', REFUSED, ()),
    "tab-first": (f'=== "One"\n\n    {D}\n\n=== "Two"\n\n    Text.\n', REFUSED, ()),
    "list": (f"- a\n- {D}\n", REFUSED, ()),
    "list-paragraph": (f"1. a\n\n    {D}\n", REFUSED, ()),
    "quote": (f"> {D}\n", REFUSED, ()),
    "heading": (f"## {D}\n", REFUSED, ()),
    "table": (f"| a |\n|---|\n| {D} |\n", REFUSED, ()),
    "deflist": (f"Term\n:   {D}\n", REFUSED, ()),
    "md-in-html": (f'<div markdown="1">\n\n{D}\n\n</div>\n', REFUSED, ()),
    "html-hidden": (f"<div hidden>\n{D}\n</div>\n", REFUSED, ()),
    "emphasis": (f"*{D}*\n", REFUSED, ()),
    "link": (f"[{D}](https://example.com)\n", REFUSED, ()),
    "fence": (f"# F\n\n```\n{D}\n```\n", CONTEXT, ()),
    "fence-in-admonition": (f"!!! note\n    ```\n    {D}\n    ```\n", CONTEXT, ()),
    "indented-code": (f"Text.\n\n    {D}\n", CONTEXT, ()),
    "code-span": (f"Use `{D}` here.\n", CONTEXT, ()),
    "comment": (f"<!-- {D} -->\n\nText.\n", CONTEXT, ()),
    "mention": ("Ping @quill on Slack.\n", CONTEXT, ()),
    # the Markdown reading doubts these (ambiguous_markup, misplaced_directive); the build settles them
    "table-without-rows": (f"| a |\n|---|\n{D}\n", COUNTS, (3,)),
    "span-left-open": (f"<span>\n\n{D}\n", COUNTS, (3,)),
    "list-then-lazy-line": (f"* a\n\n  b\n{D}\n", COUNTS, (4,)),
    "raw-paragraph": (f"<p>\n{D}\n</p>\n", COUNTS, (2,)),
    "unclosed-fence-look-alike": (f"```\nx\n````\n{D}\n", COUNTS, (4,)),
    "attr-list-class": (f"{D}\n{{: .note }}\n", COUNTS, (1,)),
    "attr-list-id": (f"{D}\n{{ #here }}\n", COUNTS, (1,)),
    "attr-list-hidden": (f'{D}\n{{: style="display:none" }}\n', REFUSED, ()),
    "div-left-open": (f"<div>\n\n{D}\n", REFUSED, ()),
    "raw-details": (f"<details>\n<summary>x</summary>\n\n{D}\n\n</details>\n", REFUSED, ()),
    # emphasis over three lines: the Markdown reading counts the middle line; the build shows it in <em>
    "emphasis-over-lines": (f"Text *a\n{D}\nb*\n", REFUSED, ()),
    # an include: the build shows a directive no source line holds
    "snippet": ('Text.\n\n--8<-- "snippets/included.md"\n', REFUSED, ()),
    "snippet-twice": (f'{D}\n\n--8<-- "snippets/included.md"\n', REFUSED, ()),
}
#: The file the snippets extension includes (pymdownx.snippets, base_path the site's folder).
INCLUDED = f"{D}\n"

CONFIG = """site_name: Injected
theme:
  name: {theme}
markdown_extensions:
  - admonition
  - attr_list
  - def_list
  - footnotes
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.snippets
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
"""

GRAMMAR = {
    "namespace": "quill",
    "product": "Quill",
    "operations": {
        "create_copy": {
            "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
            "close_required": {"type": "enum", "values": ["yes", "no"]},
        }
    },
}


def build(theme: str) -> tuple[tempfile.TemporaryDirectory[str], Path]:
    """The site built with ``theme`` in a temporary folder; its manifest (renderer ``mkdocs``)."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-mkdocs-")
    root = Path(os.path.realpath(tmp.name))
    (root / "mkdocs.yml").write_text(CONFIG.format(theme=theme), encoding="utf-8")
    (root / "snippets").mkdir()
    (root / "snippets" / "included.md").write_text(INCLUDED, encoding="utf-8")
    manifest = write_corpus(
        root,
        {f"docs/{name}.md": source.encode() for name, (source, _, _) in PAGES.items()},
        grammar=GRAMMAR,
        extra={"renderer": "mkdocs"},
    )
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "--strict", "-f", str(root / "mkdocs.yml")],
        check=True,
        capture_output=True,
        cwd=root,
        timeout=300,
    )
    return tmp, manifest


def outcomes(corpus: Corpus, pages: dict[str, tuple[str, str, tuple[int, ...]]] = PAGES) -> tuple[list[str], list[str]]:
    """``(unsafe, false refusals)`` of a corpus against ``pages`` (:data:`PAGES`), one line each."""
    unsafe, false_refusals = [], []
    for name, (_, truth, lines) in pages.items():
        source = corpus.sources[name]
        counted = tuple(claim.line for claim in source.claims)
        if counted and (truth != COUNTS or counted != lines):
            unsafe.append(f"{name}: counted lines {counted}, truth {truth} {lines}")
        if source.refusal is not None and truth != REFUSED:
            false_refusals.append(f"{name}: {source.refusal} [{source.refusal.reason}]")
        if truth == REFUSED and source.refusal is None and not counted:
            false_refusals.append(f"{name}: neither refused nor counted (expected a refusal)")
    return unsafe, false_refusals


def recorded_matches(test: unittest.TestCase, manifest: Path, site: str, judged: Corpus) -> Corpus:
    """``pin --site`` over the built site, then the manifest loaded from its recorded readings, no page
    read as Markdown: the corpus equals ``judged`` (the live judgement) page for page."""
    from unittest import mock

    from _conflict_gate.corpus import load as corpus_module
    from tests.support import run_cli

    code, out, err = run_cli(["pin", "--manifest", str(manifest), "--site", site])
    test.assertEqual(code, 0, out + err)

    def no_markdown(*args: object, **kwargs: object) -> object:
        raise AssertionError("a page was read as Markdown")

    with mock.patch.object(corpus_module, "read_page", no_markdown):
        recorded = load_documents(manifest, cache=False)
    for sid, source in judged.sources.items():
        again = recorded.sources[sid]
        test.assertEqual(
            (
                again.claims,
                again.near_misses,
                again.occurrences,
                None if again.refusal is None else (again.refusal.reason, again.refusal.line),
            ),
            (
                source.claims,
                source.near_misses,
                source.occurrences,
                None if source.refusal is None else (source.refusal.reason, source.refusal.line),
            ),
            sid,
        )
    return recorded


@unittest.skipIf(MISSING, SKIP_MESSAGE.format(", ".join(MISSING)))
class MkDocsBuildTest(unittest.TestCase):
    """The judge against real MkDocs builds (see the module docstring)."""

    def check_theme(self, theme: str) -> None:
        tmp, manifest = build(theme)
        self.addCleanup(tmp.cleanup)
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(manifest.parent / "site"), str(manifest.parent)), strict=True)
        unsafe, false_refusals = outcomes(judged)
        self.assertEqual(unsafe, [], f"{theme}: unsafe readings")
        self.assertEqual(false_refusals, [], f"{theme}: false refusals")
        for name, (_, truth, _) in PAGES.items():
            if truth == REFUSED:
                refusal = judged.sources[name].refusal
                self.assertIsNotNone(refusal, name)
        before = outcomes(corpus)
        recorded = recorded_matches(self, manifest, str(manifest.parent / "site"), judged)
        self.assertEqual(outcomes(recorded), ([], []), f"{theme}: from the recorded readings")
        print(
            f"\n  {theme}: {len(PAGES)} pages judged by the build: 0 unsafe, 0 false refusals (by the Markdown reading alone, which --site replaces: {len(before[0])} unsafe, "
            f"{len(before[1])} false refusals); from the readings pin --site recorded: 0 and 0",
            file=sys.stderr,
        )

    def test_mkdocs_theme(self) -> None:
        """The ``mkdocs`` theme: the main region is ``<div role="main">``."""
        self.check_theme("mkdocs")

    def test_readthedocs_theme(self) -> None:
        """The ``readthedocs`` theme: the main region is ``<div itemprop="articleBody">``."""
        self.check_theme("readthedocs")

    @unittest.skipUnless(MATERIAL, 'mkdocs-material is not importable: python -m pip install "mkdocs-material==9.8.1"')
    def test_material_theme(self) -> None:
        """Material for MkDocs: the main region is ``<article class="md-content__inner">``."""
        self.check_theme("material")


if __name__ == "__main__":
    unittest.main()
