"""``--site`` against a real Docusaurus build: a small site (``tests/site_docusaurus``: its configuration,
``package.json`` and ``package-lock.json``) built by ``docusaurus build``, directives injected at the top,
the end and inside each container and plugin construct (admonitions, tabs, details, MDX components, an
imported partial), pages named by slugs, ids, number prefixes and category indexes, judged by its
build: 0 unsafe, 0 false refusals. The docs are versioned (``versions.json`` and ``versioned_docs/``,
the configuration's ``onlyIncludeVersions`` and ``versions.<name>.path``): pages of the last version, of
a version at its own path and of the current one are located by the build's routes, and the pages of a
version that is not built, or not listed, are not looked for.

The truths and the counting are those of ``tests/test_site_build_mkdocs.py`` (:func:`outcomes`).
``CONFLICT_GATE_DOCUSAURUS_DIR`` names a copy of ``tests/site_docusaurus`` where ``npm ci`` was run; the
site is built in a temporary folder that links its ``node_modules``. Run it (the class skips, saying
so, without it)::

    cp -r tests/site_docusaurus /tmp/docusaurus && (cd /tmp/docusaurus && npm ci)
    CONFLICT_GATE_DOCUSAURUS_DIR=/tmp/docusaurus python -m unittest tests.test_site_build_docusaurus -v
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path, PurePosixPath

from _conflict_gate.corpus.load import load_documents
from _conflict_gate.site.build import built_path, judge_site, locate_site
from tests.support import REPO, write_corpus
from tests.test_site_build_mkdocs import CONTEXT, COUNTS, GRAMMAR, REFUSED, D, E, outcomes

HARNESS = os.environ.get("CONFLICT_GATE_DOCUSAURUS_DIR", "")
READY = bool(HARNESS) and Path(HARNESS, "node_modules", "@docusaurus", "core").is_dir()
SKIP_MESSAGE = (
    "CONFLICT_GATE_DOCUSAURUS_DIR does not name a copy of tests/site_docusaurus with npm ci done: "
    "cp -r tests/site_docusaurus /tmp/docusaurus && (cd /tmp/docusaurus && npm ci) && "
    "CONFLICT_GATE_DOCUSAURUS_DIR=/tmp/docusaurus python -m unittest tests.test_site_build_docusaurus -v"
)
TABS = "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"

#: page (relative to docs/; its source id is its file name's stem) -> (source, truth, counted lines)
PAGES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "top.md": (f"{D}\n\n# Top\n\nSome text.\n", COUNTS, (1,)),
    "end.md": (f"# End\n\nSome text.\n\n{D}\n", COUNTS, (5,)),
    "adjacent.md": (f"# Two\n\n{D}\n{E}\n", COUNTS, (3, 4)),
    "after-prose.md": (f"Some text on a line,\n{D}\n", COUNTS, (2,)),
    "with-examples.md": (f"{D}\n\n```text\n{E}\n```\n\nUse `{E}` to say so. Ping @quill on Slack.\n", COUNTS, (1,)),
    "front-matter.md": (f"---\ntitle: Titled\nsidebar_position: 2\n---\n\n{D}\n", COUNTS, (6,)),
    "01-numbered/02-prefixed.md": (f"# P\n\n{D}\n", COUNTS, (3,)),
    "01-numbered/README.md": (f"# R\n\n{D}\n", COUNTS, (3,)),
    "01-numbered/slugged.md": (f"---\nslug: /somewhere/else\n---\n\n{D}\n", COUNTS, (5,)),
    "01-numbered/with-id.md": (f"---\nid: renamed\n---\n\n{D}\n", COUNTS, (5,)),
    "category/category.md": (f"# C\n\n{D}\n", COUNTS, (3,)),
    "admonition.md": (f"# A\n\n:::note\n\n{D}\n\n:::\n", REFUSED, ()),
    "admonition-titled.md": (f":::warning[Careful]\n\nText.\n\n{D}\n\n:::\n", REFUSED, ()),
    "admonition-tight.md": (f":::tip\n{D}\n:::\n", REFUSED, ()),
    "details.md": (f"<details>\n<summary>More</summary>\n\n{D}\n\n</details>\n", REFUSED, ()),
    "details-open.md": (f"<details open>\n<summary>More</summary>\n\n{D}\n\n</details>\n", REFUSED, ()),
    "tab-active.md": (
        f'{TABS}<Tabs>\n<TabItem value="a" label="A">\n\n{D}\n\n</TabItem>\n'
        '<TabItem value="b" label="B">\n\nText.\n\n</TabItem>\n</Tabs>\n',
        REFUSED,
        (),
    ),
    "tab-inactive.md": (
        f'{TABS}<Tabs>\n<TabItem value="a" label="A">\n\nText.\n\n</TabItem>\n'
        f'<TabItem value="b" label="B">\n\n{D}\n\n</TabItem>\n</Tabs>\n',
        REFUSED,
        (),
    ),
    "jsx-div.md": (f'<div className="box">\n\n{D}\n\n</div>\n', REFUSED, ()),
    "jsx-hidden.md": (f"<div hidden>\n\n{D}\n\n</div>\n", REFUSED, ()),
    "jsx-style-none.md": (f"<div style={{{{display: 'none'}}}}>\n\n{D}\n\n</div>\n", REFUSED, ()),
    "list.md": (f"- a\n- {D}\n", REFUSED, ()),
    "quote.md": (f"> {D}\n", REFUSED, ()),
    "heading.md": (f"## {D}\n", REFUSED, ()),
    "table.md": (f"| a |\n|---|\n| {D} |\n", REFUSED, ()),
    "emphasis.md": (f"*{D}*\n", REFUSED, ()),
    "link.md": (f"[{D}](https://example.com)\n", REFUSED, ()),
    "partial.md": ("import Part from './_part.md';\n\nText.\n\n<Part />\n", REFUSED, ()),
    "expression.md": ("Text.\n\n{'@quill create_copy existing_path=refuse'}\n", REFUSED, ()),
    "fence.md": (f"# F\n\n```\n{D}\n```\n", CONTEXT, ()),
    "fence-in-admonition.md": (f":::note\n\n```\n{D}\n```\n\n:::\n", CONTEXT, ()),
    "code-span.md": (f"Use `{D}` here.\n", CONTEXT, ()),
    "mdx-comment.md": (f"{{/* {D} */}}\n\nText.\n", CONTEXT, ()),
    "html-comment.md": (f"<!-- {D} -->\n\nText.\n", CONTEXT, ()),
    "mention.md": ("Ping @quill on Slack.\n", CONTEXT, ()),
}
#: versions.json: the last version 1.0 (routed at docs/), 0.9 (at docs/old: versions.0.9.path in the
#: configuration), 0.8 (left out by onlyIncludeVersions); the current version (docs/) is at docs/next.
VERSIONS = '["1.0", "0.9", "0.8"]\n'
#: Versioned pages (relative to versioned_docs/), as :data:`PAGES`. ``top`` pages take the slug ``/top``
#: with another line than the current version's ``top.md``: a page looked for in the wrong version reads
#: the other version's page and disagrees with its source.
VERSIONED: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "version-1.0/v10-top.md": (f"---\nslug: /top\n---\n\n{E}\n", COUNTS, (5,)),
    "version-1.0/v10-plain.md": (f"# Plain\n\n{D}\n", COUNTS, (3,)),
    "version-1.0/01-numbered/02-v10-prefixed.md": (f"# P\n\n{D}\n", COUNTS, (3,)),
    "version-1.0/v10-category/v10-category.md": (f"# C\n\n{D}\n", COUNTS, (3,)),
    "version-1.0/v10-with-id.md": (f"---\nid: renamed\n---\n\n{D}\n", COUNTS, (5,)),
    "version-1.0/v10-admonition.md": (f":::note\n\n{D}\n\n:::\n", REFUSED, ()),
    "version-0.9/v09-top.md": (f"---\nslug: /top\n---\n\nText.\n\n{D}\n{E}\n", COUNTS, (7, 8)),
    "version-0.9/01-numbered/v09-prefixed.md": (f"# P\n\n{E}\n", COUNTS, (3,)),
    "version-0.9/v09-list.md": (f"- {D}\n", REFUSED, ()),
}
#: Pages of versions the build leaves out (relative to versioned_docs/): 0.8 (onlyIncludeVersions) and 0.5
#: (not in versions.json). Not in the manifest: each must have no built page, and no built file shows it.
NOT_BUILT = {
    "version-0.8/v08-top.md": f"Only in 0.8.\n\n{D}\n",
    "version-0.5/v05-top.md": f"Only in 0.5.\n\n{D}\n",
}
#: The partial the ``partial`` page imports (a file starting with ``_``: no page of its own).
PARTIAL = f"{D}\n"
_FR = "i18n/fr/docusaurus-plugin-content-docs"
#: Translations (source id -> path, as :data:`PAGES`): the French ones built in build/fr, each saying E
#: where its page says D (a translation looked for at its page's built page disagrees with it), and the
#: default locale's copy of ``replaced.md``, which the site shows in that page's place.
TRANSLATED: dict[str, tuple[str, str, str, tuple[int, ...]]] = {
    "fr-top": (f"{_FR}/current/top.md", f"{E}\n\n# Haut\n", COUNTS, (1,)),
    "fr-slugged": (f"{_FR}/current/01-numbered/slugged.md", f"---\nslug: /ailleurs\n---\n\n{E}\n", COUNTS, (5,)),
    "fr-v10-plain": (f"{_FR}/version-1.0/v10-plain.md", f"# P\n\n{E}\n", COUNTS, (3,)),
    "fr-admonition": (f"{_FR}/current/admonition.md", f":::note\n\n{E}\n\n:::\n", REFUSED, ()),
    "en-replaced": ("i18n/en/docusaurus-plugin-content-docs/current/replaced.md", f"# R\n\n{E}\n", COUNTS, (3,)),
}
#: A page no build shows (not in the manifest): a translation of no page of the docs folder.
TRANSLATION_NOT_BUILT = {f"{_FR}/current/orphan.md": f"Only in fr.\n\n{D}\n"}
#: The page the default locale's copy replaces (not in the manifest): shown untranslated in French only.
REPLACED = ("docs/replaced.md", f"In French only.\n\n{D}\n", "fr/docs/next/replaced/index.html")


def build() -> tuple[tempfile.TemporaryDirectory[str], Path]:
    """The site built in a temporary folder (``build/``); its manifest (renderer ``docusaurus``)."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-docusaurus-")
    root = Path(os.path.realpath(tmp.name))
    shutil.copy(REPO / "tests" / "site_docusaurus" / "docusaurus.config.js", root)
    (root / "node_modules").symlink_to(Path(HARNESS, "node_modules").resolve())
    files = {f"docs/{name}": source.encode() for name, (source, _, _) in PAGES.items()}
    files.update({f"versioned_docs/{name}": source.encode() for name, (source, _, _) in VERSIONED.items()})
    manifest = write_corpus(root, files, grammar=GRAMMAR, extra={"renderer": "docusaurus"})
    (root / "docs" / "_part.md").write_text(PARTIAL, encoding="utf-8")
    (root / "versions.json").write_text(VERSIONS, encoding="utf-8")
    (root / "versioned_sidebars").mkdir()
    for name in ("1.0", "0.9"):  # as docusaurus docs:version writes them
        sidebar = '{"tutorialSidebar": [{"type": "autogenerated", "dirName": "."}]}\n'
        (root / "versioned_sidebars" / f"version-{name}-sidebars.json").write_text(sidebar, encoding="utf-8")
    for name, source in NOT_BUILT.items():
        (root / "versioned_docs" / name).parent.mkdir(parents=True)
        (root / "versioned_docs" / name).write_text(source, encoding="utf-8")
    data = json.loads(manifest.read_text(encoding="utf-8"))
    for sid, (path, source, _, _) in TRANSLATED.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(source.encode())
        data["documents"].append(
            {"source_id": sid, "version": "1.0", "path": path, "sha256": hashlib.sha256(source.encode()).hexdigest()}
        )
    manifest.write_text(json.dumps(data), encoding="utf-8")
    for path, source in {**TRANSLATION_NOT_BUILT, REPLACED[0]: REPLACED[1]}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(source, encoding="utf-8")
    command = [
        "node",
        str(root / "node_modules" / "@docusaurus" / "core" / "bin" / "docusaurus.mjs"),
        "build",
        str(root),
    ]
    done = subprocess.run(
        command,
        check=False,
        capture_output=True,
        text=True,
        cwd=root,
        timeout=900,
        env={**os.environ, "DOCUSAURUS_TELEMETRY_DISABLED": "1"},
    )
    if done.returncode != 0:
        raise AssertionError(f"docusaurus build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return tmp, manifest


def by_id(pages: dict[str, tuple[str, str, tuple[int, ...]]]) -> dict[str, tuple[str, str, tuple[int, ...]]]:
    """``pages`` keyed by source id (the file name's stem, as tests.support.write_corpus names them)."""
    return {PurePosixPath(name).stem: case for name, case in pages.items()}


@unittest.skipUnless(READY, SKIP_MESSAGE)
class DocusaurusBuildTest(unittest.TestCase):
    """The judge against a real Docusaurus build (see the module docstring)."""

    def test_classic_theme(self) -> None:
        tmp, manifest = build()
        self.addCleanup(tmp.cleanup)
        corpus = load_documents(manifest, cache=False)
        site = locate_site(str(manifest.parent), str(manifest.parent))
        judged = judge_site(corpus, site, strict=True)
        pages = {**by_id({**PAGES, **VERSIONED}), **{sid: case[1:] for sid, case in TRANSLATED.items()}}
        unsafe, false_refusals = outcomes(judged, pages)
        self.assertEqual(unsafe, [], "unsafe readings")
        self.assertEqual(false_refusals, [], "false refusals")
        before = outcomes(corpus, pages)
        built = Path(site.built)
        self.assertTrue((built / "docs/next/top/index.html").is_file(), "the current version is not at docs/next")
        self.assertTrue((built / "docs/top/index.html").is_file(), "the last version is not at docs/")
        self.assertTrue((built / "docs/old/top/index.html").is_file(), "version 0.9 is not at docs/old")
        shown = [path for path in built.rglob("*") if path.is_file() and b"Only in 0." in path.read_bytes()]
        self.assertEqual(shown, [], "a version that is not built shows in the build")
        for name in NOT_BUILT:
            found, why = built_path(site, str(manifest.parent / "versioned_docs" / name))
            self.assertIsNone(found)
            self.assertIn("not built", why)
        self.assertTrue((built / "fr/docs/next/ailleurs/index.html").is_file(), "French pages are not at fr/docs")
        shown = [path for path in built.rglob("*.html") if b"Only in " in path.read_bytes()]
        self.assertEqual(shown, [], "a page the translations leave out shows in the build")
        for path in TRANSLATION_NOT_BUILT:
            found, why = built_path(site, str(manifest.parent / path))
            self.assertIsNone(found)
            self.assertIn("not built", why)
        self.assertEqual(built_path(site, str(manifest.parent / REPLACED[0])), (REPLACED[2], ""))
        self.assertIn(b"In French only.", (built / REPLACED[2]).read_bytes())
        self.assertNotIn(b"In French only.", (built / "docs/next/replaced/index.html").read_bytes())
        print(
            f"\n  docusaurus (classic): {len(pages)} pages ({len(VERSIONED)} of versions 1.0 and 0.9) judged by the "
            f"build: 0 unsafe, 0 false refusals (by the Markdown reading alone, which --site replaces: "
            f"{len(before[0])} unsafe, {len(before[1])} false refusals); {len(TRANSLATED)} of them translations; "
            f"{len(NOT_BUILT) + len(TRANSLATION_NOT_BUILT)} pages the build does not show located nowhere",
            file=sys.stderr,
        )


if __name__ == "__main__":
    unittest.main()
