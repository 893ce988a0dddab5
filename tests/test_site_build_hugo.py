"""``--site`` against a real Hugo build: a small site (``tests/site_hugo``: its configuration, layouts and
shortcodes) built by ``hugo``, directives injected at the top, the end and inside each container and
shortcode (a container, a Markdown container, details, tabs, a hidden span, an include, a site
parameter), in sections, bundles and pages moved by ``slug`` and ``url``, judged by its build: 0 unsafe,
0 false refusals.

The truths and the counting are those of ``tests/test_site_build_mkdocs.py`` (:func:`outcomes`). Hugo's
Markdown (Goldmark) leaves raw HTML out by default: a directive inside raw HTML is not shown at all. A
page may not start with ``{{`` (Hugo reads a page starting with ``{`` as JSON front matter).
Run it (Hugo from Debian's package; the class skips, saying so, without it)::

    apt-get install hugo
    python -m unittest tests.test_site_build_hugo -v
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from _conflict_gate.corpus.load import load_documents
from _conflict_gate.site.build import judge_site, locate_site
from tests.support import REPO, write_corpus
from tests.test_site_build_docusaurus import by_id
from tests.test_site_build_mkdocs import CONTEXT, COUNTS, GRAMMAR, REFUSED, D, E, outcomes

HUGO = shutil.which("hugo")
SKIP_MESSAGE = "hugo is not on PATH: apt-get install hugo && python -m unittest tests.test_site_build_hugo -v"

#: page (relative to content/; its source id is its file name's stem) -> (source, truth, counted lines)
PAGES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "_index.md": (f"---\ntitle: Home\n---\n\n{D}\n", COUNTS, (5,)),
    "top.md": (f"{D}\n\n# Top\n\nSome text.\n", COUNTS, (1,)),
    "end.md": (f"# End\n\nSome text.\n\n{D}\n", COUNTS, (5,)),
    "adjacent.md": (f"# Two\n\n{D}\n{E}\n", COUNTS, (3, 4)),
    "after-prose.md": (f"Some text on a line,\n{D}\n", COUNTS, (2,)),
    "toml-front-matter.md": (f'+++\ntitle = "T"\n+++\n\n{D}\n', COUNTS, (5,)),
    "Guide/Mixed-Case.md": (f"# M\n\n{D}\n", COUNTS, (3,)),
    "guide/bundle/index.md": (f"# B\n\n{D}\n", COUNTS, (3,)),
    "guide/slugged.md": (f"---\nslug: moved\n---\n\n{D}\n", COUNTS, (5,)),
    "guide/with-url.md": (f"---\nurl: /elsewhere/page/\n---\n\n{D}\n", COUNTS, (5,)),
    "shortcode-note.md": (f"# N\n\n{{{{< note >}}}}\n{D}\n{{{{< /note >}}}}\n", REFUSED, ()),
    "shortcode-markdown.md": (f"# M\n\n{{{{% mdnote %}}}}\n{D}\n{{{{% /mdnote %}}}}\n", REFUSED, ()),
    "shortcode-details.md": (f'# D\n\n{{{{< details "More" >}}}}\n{D}\n{{{{< /details >}}}}\n', REFUSED, ()),
    "shortcode-tab-active.md": (
        f'# T\n\n{{{{< tabs >}}}}\n{{{{< tab active="yes" >}}}}\n{D}\n{{{{< /tab >}}}}\n'
        "{{< tab >}}\nText.\n{{< /tab >}}\n{{< /tabs >}}\n",
        REFUSED,
        (),
    ),
    "shortcode-tab-inactive.md": (
        '# T\n\n{{< tabs >}}\n{{< tab active="yes" >}}\nText.\n{{< /tab >}}\n'
        f"{{{{< tab >}}}}\n{D}\n{{{{< /tab >}}}}\n{{{{< /tabs >}}}}\n",
        REFUSED,
        (),
    ),
    "shortcode-hidden.md": (f"Text {{{{< hidden >}}}}{D}{{{{< /hidden >}}}}\n", REFUSED, ()),
    "shortcode-include.md": ('Text.\n\n{{< include "included.md" >}}\n', REFUSED, ()),
    "shortcode-param.md": ('Text.\n\n{{< param "directive" >}}\n', REFUSED, ()),
    "list.md": (f"# L\n\n- a\n- {D}\n", REFUSED, ()),
    "quote.md": (f"> {D}\n", REFUSED, ()),
    "heading.md": (f"## {D}\n", REFUSED, ()),
    "table.md": (f"| a |\n|---|\n| {D} |\n", REFUSED, ()),
    "emphasis.md": (f"*{D}*\n", REFUSED, ()),
    "link.md": (f"[{D}](https://example.com)\n", REFUSED, ()),
    # Goldmark leaves raw HTML out (<!-- raw HTML omitted -->): nothing is shown
    "raw-html-block.md": (f"# R\n\n<div hidden>\n{D}\n</div>\n", CONTEXT, ()),
    "fence.md": (f"# F\n\n```\n{D}\n```\n", CONTEXT, ()),
    "fence-in-note.md": (f"# F\n\n{{{{< note >}}}}\n```\n{D}\n```\n{{{{< /note >}}}}\n", CONTEXT, ()),
    "indented-code.md": (f"Text.\n\n    {D}\n", CONTEXT, ()),
    "code-span.md": (f"Use `{D}` here.\n", CONTEXT, ()),
    "html-comment.md": (f"# H\n\n<!-- {D} -->\n\nText.\n", CONTEXT, ()),
    "shortcode-escaped.md": ("# C\n\n{{</* note */>}}\n\nText.\n", CONTEXT, ()),
    # a template comment is no comment in content: Hugo shows its text, braces and all
    "template-comment.md": (f"# C\n\n{{{{/* {D} */}}}}\n", REFUSED, ()),
    "mention.md": ("Ping @quill on Slack.\n", CONTEXT, ()),
}
#: The file the ``include`` shortcode reads (beside the configuration, outside content/).
INCLUDED = f"{D}\n"


def pages_by_id() -> dict[str, tuple[str, str, tuple[int, ...]]]:
    """:data:`PAGES` keyed by source id (the home page's is ``home``)."""
    return {("home" if name == "_index" else name): case for name, case in by_id(PAGES).items()}


def build() -> tuple[tempfile.TemporaryDirectory[str], Path]:
    """The site built in a temporary folder (``public/``); its manifest (renderer ``commonmark``)."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-hugo-")
    root = Path(os.path.realpath(tmp.name))
    shutil.copytree(REPO / "tests" / "site_hugo", root, dirs_exist_ok=True)
    (root / "included.md").write_text(INCLUDED, encoding="utf-8")
    manifest = write_corpus(
        root,
        {f"content/{name}": source.encode() for name, (source, _, _) in PAGES.items()},
        grammar=GRAMMAR,
        extra={"renderer": "commonmark"},
    )
    # a source id starts with a letter or digit: the home page (_index) is "home"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"_index"', '"home"'), encoding="utf-8")
    done = subprocess.run(
        [HUGO or "hugo", "--source", str(root), "--quiet"],
        check=False,
        capture_output=True,
        text=True,
        cwd=root,
        timeout=300,
    )
    if done.returncode != 0:
        raise AssertionError(f"hugo failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return tmp, manifest


@unittest.skipIf(HUGO is None, SKIP_MESSAGE)
class HugoBuildTest(unittest.TestCase):
    """The judge against a real Hugo build (see the module docstring)."""

    def test_site_layouts(self) -> None:
        tmp, manifest = build()
        self.addCleanup(tmp.cleanup)
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(manifest.parent), str(manifest.parent)), strict=True)
        pages = pages_by_id()
        unsafe, false_refusals = outcomes(judged, pages)
        self.assertEqual(unsafe, [], "unsafe readings")
        self.assertEqual(false_refusals, [], "false refusals")
        before = outcomes(corpus, pages)
        print(
            f"\n  hugo: {len(pages)} pages judged by the build: 0 unsafe, 0 false refusals (by the Markdown reading alone, which --site replaces: {len(before[0])} unsafe, "
            f"{len(before[1])} false refusals)",
            file=sys.stderr,
        )


if __name__ == "__main__":
    unittest.main()
