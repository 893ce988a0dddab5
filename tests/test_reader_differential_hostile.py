"""Differential test: a hostile tester's pages, each under every renderer it concerns, against the real renderers.

The pages are the constructs of hostile findings 1, 3, 4 and 5
(``/work/wt/issues/hostile-1.md``) and of round 5 (``hostile-5.md``: fenced code in containers): a backtick, ``<!--``, ``<?`` or
``<![CDATA[`` in a link's destination, title or label; MyST substitutions,
``:file:``/``:url:`` options and dollar math taking a backtick; and what a
fuzz of link tails against cmark-gfm found besides (its memo of backtick
runs, a destination leaving a ``(`` open). Each is
written with ``D`` (``refuse``) where every renderer shows it and ``O``
(``overwrite``) where the construct decides what is seen, in both directions
(O shown where the gate read code, D hidden where the gate read text). They
are fixed pages, not drawn by the generators, so the generated documents
(and the figures in ``reference/dev/differential.md``) stay what they were.

For each renderer a manifest may name, the gate reads every page with that
renderer (through :func:`tests.differential.gate_outcomes`) and is judged
against that renderer's readers (``portable`` against all of them): never
unsafe, never missed, never unrefused where a reader says the page must be
refused (an include, a file a directive pulls in). False refusals are not
asserted: the gate refuses where it cannot tell whether a link forms, or what
a substitution renders. Run it (the readers' packages, the MDX harness for
``docusaurus``)::

    CONFLICT_GATE_MDX_DIR=/path/to/mdx python -m unittest tests.test_reader_differential_hostile -v

A renderer whose readers are not installed is skipped (a subtest says so).
"""

from __future__ import annotations

import importlib.util
import unittest
from collections.abc import Callable
from typing import TYPE_CHECKING

from tests import differential, reader_oracle

PACKAGES = differential.EVERY_RENDERER_PACKAGES
MISSING_PACKAGES = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
if TYPE_CHECKING or not MISSING_PACKAGES:
    from markdown_it import MarkdownIt

    from tests import (
        github_oracle,
        mdx_oracle,
        test_reader_differential_mkdocs,
        test_reader_differential_myst,
        vitepress_oracle,
    )

D = "@quill create_copy existing_path=refuse"
O = "@quill create_copy existing_path=overwrite"

#: label -> page.
PAGES: dict[str, str] = {
    # finding 1: what a link's tail holds
    "backtick in a destination": f"# T\n\n{D}\n\n[a](`)\n{O}\n`\n",
    "backtick in a title": f'# T\n\n{D}\n\n[a](x "`")\n{O}\n`\n',
    "backtick in an image's destination": f"# T\n\n{D}\n\n![a](x`)\n{O}\n`\n",
    "backtick in a destination in angle brackets": f"# T\n\n{D}\n\n[a](<`>)\n{O}\n`\n",
    "backtick in a title in parentheses": f"# T\n\n{D}\n\n[a](x (`))\n{O}\n`\n",
    "backtick after a destination that is none": f"# T\n\n{D}\n\n[a](x y`)\n{O}\n`\n",
    "backtick in a destination leaving '(' open": f"# T\n\n{D}\n\n![a](x`( )\n{O}\ntext\n` `\n{D}\n` `\n",
    "cmark-gfm's backtick memo": f"# T\n\nx``y` a\n` `\n{O}\n` `\n\n{D}\n",
    "backtick in a reference label": f"# T\n\n{D}\n\n[a][`]\n{O}\n`\n\n[`]: /u\n",
    "the link takes a backtick, D in code": f"# T\n\n[a](`)\ntext\n`\n{D}\n`\n",
    "comment in a destination": f"# T\n\n{D}\n\nSee [docs](https://e.example/<!--).\n{O}\nend -->\n",
    "comment in a title": f'# T\n\n{D}\n\n[a](x "<!--")\n{O}\n-->\n',
    "processing instruction in a destination": f"# T\n\n{D}\n\n[a](x<?)\n{O}\n?>\n",
    "CDATA in a destination": f"# T\n\n{D}\n\n[a](x<![CDATA[)\n{O}\n]]>\n",
    "a title holding ')' hides D": f'# T\n\n[a](x ")\n{D}\n")\n',
    "a title holding ')' hides O": f'# T\n\n{D}\n\n[a](x ")\n{O}\n")\n',
    "code in a title, D below": f'# T\n\nIntro [a](x "`t`") and `c`.\n{D}\n',
    # finding 3: substitutions
    "a substitution spelling O": f"# T\n\n{D}\n\n{{{{ '\\x40quill create_copy existing_path=overwrite' }}}}\n",
    "a front-matter substitution": (
        '---\nmyst:\n  substitutions:\n    k1: "@qu"\n---\n# T\n\n'
        f"{D}\n\n{{{{ k1 }}}}ill create_copy existing_path=overwrite\n"
    ),
    "a reST substitution in eval-rst": (
        f"# T\n\n{D}\n\n```{{eval-rst}}\n.. |o| replace:: \\@quill create_copy existing_path=overwrite\n\n|o|\n```\n"
    ),
    # finding 4: a directive's file or URL
    "csv-table :file:": f"# T\n\n{D}\n\n```{{csv-table}} T\n:file: overwrite.md\n```\n",
    "raw :file:": f"# T\n\n{D}\n\n```{{raw}} html\n:file: overwrite.md\n```\n",
    "colon-fence csv-table :file:": f"# T\n\n{D}\n\n:::{{csv-table}} T\n:file: overwrite.md\n:::\n",
    "raw with YAML options": f"# T\n\n{D}\n\n```{{raw}} html\n---\nfile: overwrite.md\n---\n```\n",
    "eval-rst csv-table :file:": f"# T\n\n{D}\n\n```{{eval-rst}}\n.. csv-table:: T\n   :file: overwrite.md\n```\n",
    "eval-rst raw :file:": f"# T\n\n{D}\n\n```{{eval-rst}}\n.. raw:: html\n   :file: overwrite.md\n```\n",
    # finding 5: dollar math
    "dollar math takes a backtick": f"# T\n\n{D}\n\nCost $`$ here.\n{O}\nand `x`.\n",
    "dollar math takes a backtick, D in code": f"# T\n\nCost $`$ here.\ntext\n`\n{D}\n`\n",
    # round 5 (hostile-5.md): fenced code in a container that the site's renderer ends otherwise
    "colons in code end a Docusaurus admonition": f"# T\n\n{D}\n\n:::note\n```\n:::\n{O}\n```\n",
    "a list item ends its code in an admonition": f"# T\n\n{D}\n\n:::note\n\n- a\n  ```\n  x\n- b\n{O}\n  ```\n\n:::\n",
    "an unclosed fence in an admonition": f"# T\n\n{D}\n\n:::note\n```\n:::\n\n{O}\n",
    "raw HTML takes a fence in a MyST note": f"# T\n\n{D}\n\n```{{note}}\n<div>\n~~~\n{O}\n~~~\n</div>\n```\n",
    "a comment takes a fence in a MyST note": f"# T\n\n{D}\n\n:::{{note}}\n<!--\n```\n-->\n{O}\n```\n:::\n",
    "a list item's fence in a MyST note": f"# T\n\n{D}\n\n```{{note}}\n- ~~~\n  x\n  ~~~\n{O}\n~~~\n```\n",
    "superfences abandons a fence in an admonition": f"# T\n\n{D}\n\n!!! note\n    ```\n{O}\n    ```\n",
    "superfences abandons a fence in a tab": f'# T\n\n{D}\n\n=== "a"\n    ```\n    x\n{O}\n    ```\n',
    "D in a VitePress tip": f"# T\n\n::: tip\n{D}\n:::\n",
    "D in a VitePress details block": f"# T\n\n::: details More\n\n{D}\n\n:::\n",
    "colons in code end a VitePress container": f"# T\n\n{D}\n\n::: details\n```\n:::\n{O}\n```\n",
}

#: renderer -> the names of the readers it is judged against.
READERS_OF: dict[str, tuple[str, ...]] = {
    "github": ("cmark-gfm", "github"),
    "commonmark": ("commonmark", "cmark-gfm", "vitepress"),
    "mkdocs": ("mkdocs",),
    "myst": ("myst",),
    "docusaurus": ("docusaurus", "mdx"),
    "portable": ("commonmark", "cmark-gfm", "github", "mkdocs", "myst", "docusaurus", "mdx", "vitepress"),
}


def _readers() -> dict[str, Callable[[str], reader_oracle.ReaderView]]:
    commonmark = reader_oracle.Oracle("commonmark", MarkdownIt("commonmark"), False)
    found = [
        differential.Reader("commonmark", lambda text: reader_oracle.read(commonmark, text)),
        *github_oracle.readers(),
        *test_reader_differential_mkdocs.readers(),
        *test_reader_differential_myst.readers(),
        *vitepress_oracle.readers(),
    ]
    if mdx_oracle.missing() is None:
        found += mdx_oracle.readers()
    return {reader.name: reader.read for reader in found}


class HostilePagesTest(unittest.TestCase):
    """Every page of :data:`PAGES` under every renderer: never unsafe, missed or unrefused."""

    maxDiff = None
    readers: dict[str, Callable[[str], reader_oracle.ReaderView]]
    labels: list[str]
    texts: list[str]
    views: dict[tuple[str, int], reader_oracle.ReaderView]

    @classmethod
    def setUpClass(cls) -> None:
        if MISSING_PACKAGES:
            raise unittest.SkipTest(f"missing {', '.join(MISSING_PACKAGES)}: see the module docstring")
        cls.readers = _readers()
        cls.labels = list(PAGES)
        cls.texts = [PAGES[label] for label in cls.labels]
        cls.views = {}

    def view(self, name: str, index: int) -> reader_oracle.ReaderView:
        key = (name, index)
        if key not in self.views:
            self.views[key] = self.readers[name](self.texts[index])
        return self.views[key]

    def test_every_renderer(self) -> None:
        for renderer, names in READERS_OF.items():
            missing = [name for name in names if name not in self.readers]
            with self.subTest(renderer=renderer):
                if missing:
                    self.skipTest(f"no reader {', '.join(missing)} (CONFLICT_GATE_MDX_DIR)")
                outcomes = differential.gate_outcomes(
                    self.texts, None if renderer == "portable" else {"renderer": renderer}
                )
                failures = []
                for index, outcome in enumerate(outcomes):
                    for name in names:
                        view = self.view(name, index)
                        if (
                            differential.is_unsafe(view, outcome)
                            or differential.is_missed(view, outcome)
                            or (view.must_refuse and outcome.refusal is None)
                        ):
                            failures.append(
                                f"{self.labels[index]!r} read by {name}: gate {outcome.refusal}, "
                                f"{[(claim.value, claim.line) for claim in outcome.claims]}; "
                                f"{name} shows {view.directive_lines}"
                            )
                self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main()
