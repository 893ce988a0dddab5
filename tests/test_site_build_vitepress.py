"""``--site`` against a real VitePress build: a small site (``tests/site_vitepress``: its configuration,
``package.json`` and ``package-lock.json``) built by ``vitepress build``, directives injected at the top,
the end and inside each container and plugin construct (custom containers, details, code groups, Vue
elements and interpolation, an include), judged by its build: 0 unsafe, 0 false refusals. The Markdown reading alone (``commonmark``, which
reference/directives.md names for VitePress, and the default) is held to no unsafe reading of the same
pages, among them VitePress's own constructs it once read unsafely (an include over lines, ``v-pre``,
a container closed in code, a component's prop, an ``@click`` tag: tests/test_reader_vitepress.py).

The truths and the counting are those of ``tests/test_site_build_mkdocs.py`` (:func:`outcomes`).
``CONFLICT_GATE_VITEPRESS_DIR`` names a copy of ``tests/site_vitepress`` where ``npm ci`` was run; the
site is built in a temporary folder that links its ``node_modules``. Run it (the class skips, saying
so, without it)::

    cp -r tests/site_vitepress /tmp/vitepress && (cd /tmp/vitepress && npm ci)
    CONFLICT_GATE_VITEPRESS_DIR=/tmp/vitepress python -m unittest tests.test_site_build_vitepress -v
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

#: The overwrite directive, and a Vue interpolation (and expression) whose value it is: Vue evaluates
#: ``'\x40quill ...'``, so the page shows O though it does not spell it.
O = "@quill create_copy existing_path=overwrite"
XO = "'\\x40quill create_copy existing_path=overwrite'"
X = "{{ " + XO + " }}"

HARNESS = os.environ.get("CONFLICT_GATE_VITEPRESS_DIR", "")
READY = bool(HARNESS) and Path(HARNESS, "node_modules", "vitepress").is_dir()
SKIP_MESSAGE = (
    "CONFLICT_GATE_VITEPRESS_DIR does not name a copy of tests/site_vitepress with npm ci done: "
    "cp -r tests/site_vitepress /tmp/vitepress && (cd /tmp/vitepress && npm ci) && "
    "CONFLICT_GATE_VITEPRESS_DIR=/tmp/vitepress python -m unittest tests.test_site_build_vitepress -v"
)
GROUP = "::: code-group\n\n```sh [npm]\n{first}\n```\n\n```sh [pnpm]\n{second}\n```\n\n:::\n"

#: page (relative to the site's root; its source id is its file name's stem) -> (source, truth, counted lines)
PAGES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "index.md": (f"# Home\n\n{D}\n", COUNTS, (3,)),
    "top.md": (f"{D}\n\n# Top\n\nSome text.\n", COUNTS, (1,)),
    "end.md": (f"# End\n\nSome text.\n\n{D}\n", COUNTS, (5,)),
    "adjacent.md": (f"# Two\n\n{D}\n{E}\n", COUNTS, (3, 4)),
    "after-prose.md": (f"Some text on a line,\n{D}\n", COUNTS, (2,)),
    "front-matter.md": (f"---\ntitle: Titled\noutline: deep\n---\n\n{D}\n", COUNTS, (6,)),
    "guide/README.md": (f"# Readme\n\n{D}\n", COUNTS, (3,)),
    "guide/nested.md": (f"# Nested\n\n{D}\n", COUNTS, (3,)),
    "tip.md": (f"# T\n\n::: tip\n{D}\n:::\n", REFUSED, ()),
    "warning-titled.md": (f"::: warning Careful\nText.\n\n{D}\n:::\n", REFUSED, ()),
    "details.md": (f"::: details More\n{D}\n:::\n", REFUSED, ()),
    "code-group-first.md": (GROUP.format(first=D, second="pnpm i"), CONTEXT, ()),
    "code-group-inactive.md": (GROUP.format(first="npm i", second=D), CONTEXT, ()),
    "vue-div.md": (f'<div class="box">\n\n{D}\n\n</div>\n', REFUSED, ()),
    "vue-v-show.md": (f'<div v-show="false">\n\n{D}\n\n</div>\n', REFUSED, ()),
    "vue-v-if.md": (f'# V\n\n<div v-if="false">\n\n{D}\n\n</div>\n', CONTEXT, ()),
    "raw-details.md": (f"<details>\n<summary>S</summary>\n\n{D}\n\n</details>\n", REFUSED, ()),
    "interpolation.md": ("Text.\n\n{{ '@quill create_copy' + ' existing_path=refuse' }}\n", REFUSED, ()),
    "include.md": ("Text.\n\n<!--@include: ./parts/included.md-->\n", REFUSED, ()),
    "list.md": (f"- a\n- {D}\n", REFUSED, ()),
    "quote.md": (f"> {D}\n", REFUSED, ()),
    "heading.md": (f"## {D}\n", REFUSED, ()),
    "table.md": (f"| a |\n|---|\n| {D} |\n", REFUSED, ()),
    "emphasis.md": (f"*{D}*\n", REFUSED, ()),
    "link.md": (f"[{D}](https://example.com)\n", REFUSED, ()),
    "fence.md": (f"# F\n\n```\n{D}\n```\n", CONTEXT, ()),
    "fence-in-tip.md": (f"::: tip\n```\n{D}\n```\n:::\n", CONTEXT, ()),
    "code-span.md": (f"Use `{D}` here.\n", CONTEXT, ()),
    "html-comment.md": (f"<!-- {D} -->\n\nText.\n", CONTEXT, ()),
    "mention.md": ("Ping @quill on Slack.\n", CONTEXT, ()),
    # VitePress's own constructs the Markdown reading (commonmark, and the default) once read unsafely
    # (tests/test_reader_vitepress.py; reference/dev/differential.md has the probe table)
    "include-line-break.md": (f"{D}\n\n<!--\n@include: ./parts/overwrite.md\n-->\n", REFUSED, ()),
    "v-pre-void.md": (f"{D}\n\n<br v-pre>{X}\n", REFUSED, ()),
    "v-pre-element.md": (f"{D}\n\n<span v-pre>{X}</span>\n", COUNTS, (1,)),
    "v-pre-block.md": (f"{D}\n\n<div v-pre>\n{X}\n</div>\n", COUNTS, (1,)),
    "comment-interpolation.md": (f"{D}\n\n<!-- {X} -->\n", COUNTS, (1,)),
    "v-pre-container-in-code.md": (f"{D}\n\n```\n::: v-pre\n```\n\n{X}\n", REFUSED, ()),
    "container-closed-in-code.md": (f'{D}\n\n::: details\n```\n:::\n<p v-text="{XO}"></p>\n```\n', REFUSED, ()),
    "badge-prop.md": (f'{D}\n\n<Badge type="info" text="{O}" />\n', REFUSED, ()),
    # the built page holds none of <ClientOnly>'s content; a browser running the page's scripts shows O
    "client-only.md": (f"{D}\n\n<ClientOnly>\n\n{O}\n\n</ClientOnly>\n", REFUSED, ()),
    # VitePress starts an HTML block at a component's tag inside a paragraph; an unregistered one renders nothing
    "component-slot.md": (f"Text\n<Foo>\n{D}\n</Foo>\n", CONTEXT, ()),
    "event-hidden.md": (f'<span @click="f" hidden>\n{D}\n</span>\n', REFUSED, ()),
}
#: The files the include pages include (excluded from the pages by srcExclude).
INCLUDED = f"{D}\n"
OVERWRITE = f"{O}\n"


def build() -> tuple[tempfile.TemporaryDirectory[str], Path]:
    """The site built in a temporary folder (``.vitepress/dist``); its manifest (renderer ``commonmark``)."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-vitepress-")
    root = Path(os.path.realpath(tmp.name))
    (root / ".vitepress").mkdir()
    shutil.copy(REPO / "tests" / "site_vitepress" / "config.mjs", root / ".vitepress" / "config.mjs")
    (root / "node_modules").symlink_to(Path(HARNESS, "node_modules").resolve())
    manifest = write_corpus(
        root,
        {name: source.encode() for name, (source, _, _) in PAGES.items()},
        grammar=GRAMMAR,
        extra={"renderer": "commonmark"},
    )
    (root / "parts").mkdir()
    (root / "parts" / "included.md").write_text(INCLUDED, encoding="utf-8")
    (root / "parts" / "overwrite.md").write_text(OVERWRITE, encoding="utf-8")
    command = ["node", str(root / "node_modules" / "vitepress" / "bin" / "vitepress.js"), "build", str(root)]
    done = subprocess.run(command, check=False, capture_output=True, text=True, cwd=root, timeout=900)
    if done.returncode != 0:
        raise AssertionError(f"vitepress build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return tmp, manifest


@unittest.skipUnless(READY, SKIP_MESSAGE)
class VitePressBuildTest(unittest.TestCase):
    """The judge against a real VitePress build (see the module docstring)."""

    def test_default_theme(self) -> None:
        tmp, manifest = build()
        self.addCleanup(tmp.cleanup)
        corpus = load_documents(manifest, cache=False)
        judged = judge_site(corpus, locate_site(str(manifest.parent), str(manifest.parent)), strict=True)
        pages = by_id(PAGES)
        unsafe, false_refusals = outcomes(judged, pages)
        self.assertEqual(unsafe, [], "unsafe readings")
        self.assertEqual(false_refusals, [], "false refusals")
        before = outcomes(corpus, pages)
        # the Markdown reading alone, under commonmark and the default, is never unsafe on these pages
        self.assertEqual(before[0], [], "unsafe by the Markdown reading (commonmark)")
        default = write_corpus(
            manifest.parent,
            {name: source.encode() for name, (source, _, _) in PAGES.items()},
            grammar=GRAMMAR,
            manifest_name="manifest-default.json",
        )
        self.assertEqual(outcomes(load_documents(default, cache=False), pages)[0], [], "unsafe by the default reading")
        print(
            f"\n  vitepress (default theme): {len(pages)} pages judged by the build: 0 unsafe, 0 false refusals (by the Markdown reading alone, which --site replaces: {len(before[0])} "
            f"unsafe, {len(before[1])} false refusals)",
            file=sys.stderr,
        )


if __name__ == "__main__":
    unittest.main()
