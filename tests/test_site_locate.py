"""``--site`` for Docusaurus, VitePress and Hugo: configurations read statically, built pages named as
each generator names them, and the regions of their built pages (hand-written files: standard library
only, fast). The tests that build real sites are ``tests/test_site_build_{docusaurus,vitepress,hugo}.py``.
"""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path

from _conflict_gate.base.errors import IngestionError
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.site.build import built_path, locate_site
from _conflict_gate.site.html import read_built_page
from _conflict_gate.site.static import (
    UNREAD,
    StaticError,
    front_matter,
    js_object,
    js_string,
    js_strings,
    js_tokens,
    scalars,
)
from tests.support import QUILL_GRAMMAR

GRAMMAR = grammar_from_json(QUILL_GRAMMAR)
LINE = "@quill create_copy existing_path=refuse"

DOCUSAURUS = """// @ts-check
/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'T', // a comment with 'quotes
  url: "https://example.com",
  trailingSlash: TRAILING,
  presets: [
    [
      require.resolve('@docusaurus/preset-classic'),
      {
        docs: {routeBasePath: ROUTE, path: 'pages', sidebarPath: './sidebars.js'OPTIONS},
        blog: {routeBasePath: '/blog'},
        theme: {customCss: './src/css/custom.css'},
      },
    ],
  ],
  themeConfig: {docs: {sidebar: {hideable: true}}},
};
module.exports = config;
"""


class Folder(unittest.TestCase):
    def folder(self) -> Path:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-locate-")
        self.addCleanup(tmp.cleanup)
        root = Path(os.path.realpath(tmp.name))
        (root / ".git").mkdir()
        return root

    def write(self, root: Path, files: dict[str, str]) -> None:
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")


class StaticTest(unittest.TestCase):
    """The static readers (site.static): what they take, and what they leave unread."""

    def test_tokens_and_objects(self) -> None:
        """Guards against a comment, a string holding a brace or a key, or a spread being read as
        configuration."""
        tokens = js_tokens("const a = {x: 'a}b', /* y: 1 */ y: true, z: f(), w: {v: 1}, 'q': `t`}")
        start = tokens.index("{")
        read = js_object(tokens, start)
        assert read is not None
        self.assertEqual(read[0], {"x": "a}b", "y": "true", "z": UNREAD, "w": UNREAD, "q": "t"})
        for text in ("{...base, x: 1}", "{x: 1, x: 2}", "{[key]: 1}", "{x: 1"):
            with self.subTest(text):
                self.assertIsNone(js_object(js_tokens(text), 0))
        for text in ("'open", "/* open", "`a ${b}`"):
            with self.subTest(text), self.assertRaises(StaticError):
                js_tokens(text)

    def test_string_arrays(self) -> None:
        """Guards against reading a name, a spread, a hole or an escaped string as a version name."""
        tokens = js_tokens("[ 'a', \"b\", `c`, ] [a] [...a] ['a',, 'b'] ['a\\'b'] ['a' 'b'] [1]")
        starts = [at for at, token in enumerate(tokens) if token == "["]
        self.assertEqual(js_strings(tokens, starts[0]), ["a", "b", "c"])
        for start in starts[1:]:
            with self.subTest(tokens[start : start + 3]):
                self.assertIsNone(js_strings(tokens, start))
        self.assertEqual(js_string(js_tokens("x: 'v'}"), 2), "v")
        self.assertIsNone(js_string(js_tokens("x: v}"), 2))
        self.assertIsNone(js_string(js_tokens("x: 'v' + w}"), 2))

    def test_front_matter(self) -> None:
        """YAML, TOML and JSON front matter: plain scalars read, anything else UNREAD, an unclosed one None."""
        self.assertEqual(
            front_matter("---\nslug: /a\nid: 'b'\ntags:\n  - x\n---\n# T\n"), {"slug": "/a", "id": "b", "tags": UNREAD}
        )
        self.assertEqual(front_matter('+++\nslug = "c"\n[params]\nx = 1\n+++\n'), {"slug": "c", "[params]": UNREAD})
        self.assertEqual(
            front_matter('{"url": "/d/", "draft": false}\n\nText', json_object=True), {"url": "/d/", "draft": "false"}
        )
        self.assertEqual(front_matter("# No front matter\n"), {})
        self.assertEqual(front_matter("{/* an MDX comment */}\n"), {})
        self.assertEqual(front_matter("---\nslug: !tag x\n---\n"), {"slug": UNREAD})
        self.assertIsNone(front_matter("---\nslug: a\n"))

    def test_scalars(self) -> None:
        values, blocks = scalars('baseURL = "x"\nuglyURLs = true\n[permalinks]\nposts = "/:year/"\n', "toml")
        self.assertEqual((values, blocks), ({"baseurl": "x", "uglyurls": "true"}, ["permalinks"]))
        values, blocks = scalars("contentDir: src\nlanguages:\n  en: {}\n", "yaml")
        self.assertEqual((values["contentdir"], blocks), ("src", ["languages"]))


class DocusaurusTest(Folder):
    """Docusaurus 3's names: slugs, ids, number prefixes, category indexes, routeBasePath, trailingSlash."""

    def site(self, route: str = "'guides'", trailing: str = "undefined") -> tuple[Path, object]:
        root = self.folder()
        config = DOCUSAURUS.replace("ROUTE", route).replace("TRAILING", trailing).replace("OPTIONS", "")
        self.write(root, {"docusaurus.config.js": config})
        (root / "build").mkdir()
        return root, locate_site(str(root), str(root))

    def versioned(self, options: str, files: dict[str, str]) -> tuple[Path, object]:
        """A site whose docs options end with ``options`` and that holds ``files`` (versions.json...)."""
        root = self.folder()
        config = DOCUSAURUS.replace("ROUTE", "'guides'").replace("TRAILING", "undefined").replace("OPTIONS", options)
        self.write(root, {"docusaurus.config.js": config, **files})
        (root / "build").mkdir()
        return root, locate_site(str(root), str(root))

    def names(self, root: Path, site: object, expected: dict[str, str]) -> None:
        """Each source (relative to ``root``) names the built page ``expected`` says, or, for a value
        starting with ``!``, no page, its reason holding the rest."""
        for rel, name in expected.items():
            with self.subTest(rel):
                found, reason = built_path(site, str(root / rel))  # type: ignore[arg-type]
                if name.startswith("!"):
                    self.assertIsNone(found)
                    self.assertIn(name[1:], reason)
                else:
                    self.assertEqual((found, reason), (name, ""))

    def test_versions(self) -> None:
        """Guards against a versioned site's pages being located as unversioned ones (or not at all): the
        last version (versions.json's first name) is routed at routeBasePath, the current version (docs.path)
        at next, every other version at its name, slugs and ids resolved within each version's folder, and a
        versioned_docs/version-X that versions.json does not list builds no page."""
        page = {"a.md": "# A\n", "01-g/b.md": "# B\n", "01-g/s.md": "---\nslug: /x\n---\n", "i.md": "---\nid: o\n---\n"}
        files = {"versions.json": '["2.0", "1.0"]\n'}
        for folder in (
            "pages",
            "versioned_docs/version-2.0",
            "versioned_docs/version-1.0",
            "versioned_docs/version-0.5",
        ):
            files.update({f"{folder}/{name}": text for name, text in page.items()})
        root, site = self.versioned("", files)
        expected = {
            "pages/a.md": "guides/next/a/index.html",
            "pages/01-g/b.md": "guides/next/g/b/index.html",
            "versioned_docs/version-2.0/a.md": "guides/a/index.html",
            "versioned_docs/version-2.0/01-g/s.md": "guides/x/index.html",
            "versioned_docs/version-1.0/a.md": "guides/1.0/a/index.html",
            "versioned_docs/version-1.0/01-g/b.md": "guides/1.0/g/b/index.html",
            "versioned_docs/version-1.0/01-g/s.md": "guides/1.0/x/index.html",
            "versioned_docs/version-1.0/i.md": "guides/1.0/o/index.html",
            "versioned_docs/version-0.5/a.md": "!not built: version '0.5' is not listed in versions.json",
        }
        self.names(root, site, expected)
        root, site = self.versioned("", {**files, "versions.json": '["2.0", "current", "1.0"]'})
        self.names(
            root,
            site,
            {"pages/a.md": "guides/next/a/index.html", "versioned_docs/version-2.0/a.md": "guides/a/index.html"},
        )

    def test_version_options(self) -> None:
        """Guards against ignoring the docs options that move or drop versions: lastVersion,
        versions.<name>.path, onlyIncludeVersions, includeCurrentVersion, disableVersioning and a docs id
        (whose files are <id>_versions.json and <id>_versioned_docs)."""
        files = {
            "versions.json": '["2.0", "1.0"]',
            "pages/a.md": "# A\n",
            "versioned_docs/version-2.0/a.md": "# A\n",
            "versioned_docs/version-1.0/a.md": "# A\n",
        }
        cases = {
            "lastVersion": (
                ", lastVersion: '1.0'",
                {
                    "pages/a.md": "guides/next/a/index.html",
                    "versioned_docs/version-2.0/a.md": "guides/2.0/a/index.html",
                    "versioned_docs/version-1.0/a.md": "guides/a/index.html",
                },
            ),
            "current last, paths": (
                ", lastVersion: 'current', versions: {current: {label: 'Dev', path: 'dev'}, '1.0': {path: '/v1/'}}",
                {
                    "pages/a.md": "guides/dev/a/index.html",
                    "versioned_docs/version-2.0/a.md": "guides/2.0/a/index.html",
                    "versioned_docs/version-1.0/a.md": "guides/v1/a/index.html",
                },
            ),
            "onlyIncludeVersions": (
                ", onlyIncludeVersions: ['current', '1.0',]",
                {
                    "pages/a.md": "guides/next/a/index.html",
                    "versioned_docs/version-2.0/a.md": "!not built: version '2.0': onlyIncludeVersions leaves it out",
                    "versioned_docs/version-1.0/a.md": "guides/a/index.html",
                },
            ),
            "includeCurrentVersion": (
                ", includeCurrentVersion: false",
                {
                    "pages/a.md": "!not built: the current version (docs.path): includeCurrentVersion is false",
                    "versioned_docs/version-2.0/a.md": "guides/a/index.html",
                    "versioned_docs/version-1.0/a.md": "guides/1.0/a/index.html",
                },
            ),
            "disableVersioning": (
                ", disableVersioning: true",
                {
                    "pages/a.md": "guides/a/index.html",
                    "versioned_docs/version-2.0/a.md": "!not built: version '2.0': disableVersioning is true",
                },
            ),
        }
        for name, (options, expected) in cases.items():
            with self.subTest(name):
                root, site = self.versioned(options, files)
                self.names(root, site, expected)
        only_current = {"pages/a.md": "# A\n"}
        root, site = self.versioned(", versions: {current: {path: 'v3'}}", only_current)
        self.names(root, site, {"pages/a.md": "guides/v3/a/index.html"})
        ided = {"api_versions.json": '["1.0"]', "pages/a.md": "# A\n", "api_versioned_docs/version-1.0/a.md": "# A\n"}
        root, site = self.versioned(", id: 'api'", ided)
        self.names(
            root,
            site,
            {"pages/a.md": "guides/next/a/index.html", "api_versioned_docs/version-1.0/a.md": "guides/a/index.html"},
        )

    def translated(self, i18n: str, files: dict[str, str]) -> tuple[Path, object]:
        """A versioned site (1.0 the last version) whose configuration sets ``i18n`` (when not empty)."""
        root = self.folder()
        config = DOCUSAURUS.replace("ROUTE", "'docs'").replace("TRAILING", "undefined").replace("OPTIONS", "")
        if i18n:
            config = config.replace("  title: 'T',", f"  title: 'T',\n  i18n: {i18n},")
        self.write(root, {"docusaurus.config.js": config, "versions.json": '["1.0"]', **files})
        (root / "build").mkdir()
        return root, locate_site(str(root), str(root))

    def test_translations(self) -> None:
        """Guards against translated pages (issue 30) going unlocated, and against a page whose translation
        for the default locale replaces it being judged by that translation's built page. As Docusaurus
        3.10.2's build of the same tree wrote them (checked by the lead with docusaurus build): the docs
        folder names the pages, each read from its locale's translation where there is one (its own
        front matter's slug), the default locale at the top, another in a folder of its name; a
        translation of no page of the docs folder builds nothing."""
        plugin = "docusaurus-plugin-content-docs"
        files = {
            "pages/intro.md": "# I\n",
            "pages/guide/a.md": "---\nslug: /moved\n---\n# A\n",
            "pages/guide/b.md": "# B\n",
            "versioned_docs/version-1.0/intro.md": "# I\n",
            f"i18n/fr/{plugin}/current/intro.md": "# I FR\n",
            f"i18n/fr/{plugin}/current/guide/a.md": "---\nslug: /deplace\n---\n# A FR\n",
            f"i18n/fr/{plugin}/current/orphan.md": "# O\n",
            f"i18n/fr/{plugin}/version-1.0/intro.md": "# I 1.0 FR\n",
            f"i18n/en/{plugin}/current/guide/b.md": "# B EN\n",
        }
        expected = {
            "pages/intro.md": "docs/next/intro/index.html",
            "pages/guide/a.md": "docs/next/moved/index.html",
            "pages/guide/b.md": "fr/docs/next/guide/b/index.html",  # shown untranslated in French only
            "versioned_docs/version-1.0/intro.md": "docs/intro/index.html",
            f"i18n/fr/{plugin}/current/intro.md": "fr/docs/next/intro/index.html",
            f"i18n/fr/{plugin}/current/guide/a.md": "fr/docs/next/deplace/index.html",
            f"i18n/fr/{plugin}/current/orphan.md": "!not built: Docusaurus builds a translation only of a page",
            f"i18n/fr/{plugin}/version-1.0/intro.md": "fr/docs/intro/index.html",
            f"i18n/en/{plugin}/current/guide/b.md": "docs/next/guide/b/index.html",
        }
        root, site = self.translated(
            "{defaultLocale: 'en', locales: ['en', 'fr'], localeConfigs: {fr: {label: 'F'}}}", files
        )
        self.names(root, site, expected)
        # Without an i18n option: the default locale, en, alone; its translations are read all the same.
        root, site = self.translated("", files)
        self.names(
            root,
            site,
            {
                **{k: v for k, v in expected.items() if "/fr/" not in k},
                f"i18n/fr/{plugin}/current/intro.md": "!outside",
                "pages/guide/b.md": "!not built from this file: every locale shows a translation in its place",
            },
        )
        # A locale's folder and translate flag; its own url leaves its pages unlocated.
        moved = {k.replace("i18n/fr/", "i18n/français/"): v for k, v in files.items()}
        root, site = self.translated(
            "{defaultLocale: 'en', locales: ['en', 'fr'], localeConfigs: {fr: {path: 'français'}}}", moved
        )
        self.names(root, site, {f"i18n/français/{plugin}/current/intro.md": "fr/docs/next/intro/index.html"})
        root, site = self.translated(
            "{defaultLocale: 'en', locales: ['en'], localeConfigs: {en: {translate: false}}}", files
        )
        self.names(
            root,
            site,
            {
                "pages/guide/b.md": "docs/next/guide/b/index.html",
                f"i18n/en/{plugin}/current/guide/b.md": "!translate: false",
            },
        )
        root, site = self.translated(
            "{defaultLocale: 'en', locales: ['en', 'fr'], localeConfigs: {fr: {baseUrl: '/f/'}}}", files
        )
        self.names(root, site, {f"i18n/fr/{plugin}/current/intro.md": "!sets its url or baseUrl"})
        root, site = self.translated("{defaultLocale: LOCALE, locales: ['en']}", files)
        self.names(root, site, {f"i18n/fr/{plugin}/current/intro.md": "!the site's i18n option is not read"})

    def test_versions_not_read(self) -> None:
        """Guards against guessing versioned routes from a versions.json that is not a JSON array of version
        names, an option that is not a literal, or a configuration docusaurus build refuses: every page then
        needs "built", and the reason says what was not read."""
        files = {"versions.json": '["2.0", "1.0"]', "pages/a.md": "# A\n", "versioned_docs/version-1.0/a.md": "# A\n"}
        cases = {
            "an object": ("", '{"versions": ["1.0"]}', "not a JSON array of strings"),
            "a number": ("", "[1.0]", "not a JSON array of strings"),
            "not JSON": ("", "['1.0']", "is not read"),
            "a slash": ("", '["1/0"]', "a version Docusaurus refuses"),
            "twice": ("", '["1.0", "1.0"]', "a version twice"),
            "lastVersion variable": (", lastVersion: latest", None, "lastVersion is not a plain string"),
            "lastVersion unknown": (", lastVersion: '3.0'", None, "lastVersion '3.0' is not a version"),
            "onlyIncludeVersions variable": (", onlyIncludeVersions: kept", None, "not an array of plain strings"),
            "onlyIncludeVersions spread": (", onlyIncludeVersions: [...kept]", None, "not an array of plain strings"),
            "onlyIncludeVersions empty": (", onlyIncludeVersions: []", None, "onlyIncludeVersions is empty"),
            "onlyIncludeVersions without lastVersion": (
                ", lastVersion: '2.0', onlyIncludeVersions: ['1.0']",
                None,
                "leaves lastVersion out",
            ),
            "versions variable": (", versions: byName", None, "docs.versions is not an object literal"),
            "versions unknown": (", versions: {'9.9': {label: 'x'}}", None, "unknown version (9.9)"),
            "versions number key": (", versions: {1.0: {path: 'one'}}", None, "by a number"),
            "versions path variable": (", versions: {'1.0': {path: one}}", None, "['1.0'].path is not a plain string"),
            "one route twice": (
                ", versions: {'1.0': {path: 'next'}}",
                None,
                "two docs versions are routed at one path",
            ),
            "includeCurrentVersion string": (", includeCurrentVersion: flag", None, "not true or false"),
            "nothing built": (", includeCurrentVersion: false", "[]", "no docs version is built"),
            "disableVersioning unversioned": (", disableVersioning: true", "", "without a versions.json"),
        }
        for name, (options, versions, why) in cases.items():
            with self.subTest(name):
                written = dict(files)
                if versions == "":
                    del written["versions.json"]
                elif versions is not None:
                    written["versions.json"] = versions
                root, site = self.versioned(options, written)
                for rel in ("pages/a.md", "versioned_docs/version-1.0/a.md"):
                    found, reason = built_path(site, str(root / rel))  # type: ignore[arg-type]
                    self.assertIsNone(found)
                    self.assertIn(why, reason)
                    self.assertIn('"built"', reason)

    def test_names(self) -> None:
        """Guards against a Docusaurus page's built page being looked for where the build does not write it
        (which would refuse every page, or read another page's HTML)."""
        root, site = self.site()
        self.write(
            root,
            {
                "pages/intro.md": "# I\n",
                "pages/01-guide/02-install.md": "# I\n",
                "pages/01-guide/README.md": "# R\n",
                "pages/01-guide/01-guide.mdx": "# G\n",
                "pages/01-guide/slugged.md": "---\nslug: /elsewhere\n---\n",
                "pages/01-guide/relative.md": "---\nslug: near\n---\n",
                "pages/01-guide/ided.md": "---\nid: other\n---\n",
                "pages/2021-01-news.md": "# N\n",
                "pages/index.md": "# Home\n",
            },
        )
        expected = {
            "intro.md": "guides/intro/index.html",
            "01-guide/02-install.md": "guides/guide/install/index.html",
            "01-guide/README.md": "guides/guide/index.html",
            "01-guide/01-guide.mdx": "guides/guide/index.html",
            "01-guide/slugged.md": "guides/elsewhere/index.html",
            "01-guide/relative.md": "guides/guide/near/index.html",
            "01-guide/ided.md": "guides/guide/other/index.html",
            "2021-01-news.md": "guides/2021-01-news/index.html",
            "index.md": "guides/index.html",
        }
        for rel, name in expected.items():
            with self.subTest(rel):
                self.assertEqual(built_path(site, str(root / "pages" / rel)), (name, ""))  # type: ignore[arg-type]

    def test_route_base_and_trailing_slash(self) -> None:
        root, site = self.site("'/'", "false")
        self.write(
            root, {"pages/a/b.md": "# B\n", "pages/index.md": "# H\n", "pages/_partial.md": "x", "pages/notes.txt": "x"}
        )
        self.assertEqual(built_path(site, str(root / "pages/a/b.md")), ("a/b.html", ""))  # type: ignore[arg-type]
        self.assertEqual(built_path(site, str(root / "pages/index.md")), ("index.html", ""))  # type: ignore[arg-type]
        for rel, why in (("_partial.md", "partial"), ("notes.txt", ".md and .mdx")):
            with self.subTest(rel):
                found, reason = built_path(site, str(root / "pages" / rel))  # type: ignore[arg-type]
                self.assertIsNone(found)
                self.assertIn(why, reason)

    def test_what_it_does_not_read_needs_built(self) -> None:
        """Guards against guessing a page's name from a configuration the gate cannot read without running
        it: every page then needs "built", and the reason says so."""
        cases = {
            "variable": ("routeBase", "routeBasePath is not a plain string"),
            "template": ("`${base}/docs`", "template literal"),
        }
        for name, (route, why) in cases.items():
            with self.subTest(name):
                root, site = self.site(route)
                self.write(root, {"docs/a.md": "# A\n", "pages/a.md": "# A\n"})
                found, reason = built_path(site, str(root / "pages/a.md"))  # type: ignore[arg-type]
                self.assertIsNone(found)
                self.assertIn(why, reason)
                self.assertIn('"built"', reason)
        root, site = self.site()
        self.write(root, {"pages/a.md": "---\nslug: [x]\n---\n"})
        found, reason = built_path(site, str(root / "pages/a.md"))  # type: ignore[arg-type]
        self.assertIsNone(found)
        self.assertIn("not a plain value", reason)


class VitePressTest(Folder):
    """VitePress 1's names: srcDir, outDir, a/b.md is a/b.html (cleanUrls or not)."""

    def test_names(self) -> None:
        """Guards against a VitePress page being looked for as a/b/index.html (cleanUrls changes links, not
        files) or outside srcDir."""
        root = self.folder()
        self.write(
            root,
            {
                "docs/.vitepress/config.mts": "import {defineConfig} from 'vitepress'\nexport default "
                "defineConfig({srcDir: 'src', cleanUrls: true, "
                "themeConfig: {nav: []}})\n",
                "docs/src/guide/a.md": "# A\n",
                "docs/src/index.md": "# H\n",
                "docs/src/[pkg].md": "x",
            },
        )
        (root / "docs/.vitepress/dist").mkdir()
        site = locate_site(str(root / "docs"), str(root))
        self.assertEqual(site.generator, "vitepress")
        self.assertEqual(built_path(site, str(root / "docs/src/guide/a.md")), ("guide/a.html", ""))
        self.assertEqual(built_path(site, str(root / "docs/src/index.md")), ("index.html", ""))
        self.assertIn("dynamic route", built_path(site, str(root / "docs/src/[pkg].md"))[1])
        self.assertEqual(
            locate_site(str(root / "docs/.vitepress/dist"), str(root)).built, str(root / "docs/.vitepress/dist")
        )

    def test_line_breaks_written_as_spaces(self) -> None:
        """Guards against a VitePress paragraph whose soft line breaks Vue wrote as spaces being refused
        (two directives on adjacent lines read as one malformed line), and against splitting a line the
        source holds as one."""
        from _conflict_gate.corpus.load import load_documents
        from _conflict_gate.site.build import judge_site
        from tests.support import write_corpus

        root = self.folder()
        other = "@quill create_copy close_required=yes"
        self.write(root, {".vitepress/config.mjs": "export default {title: 'T'}\n"})
        pages = {"two.md": f"Some text,\n{LINE}\n{other}\n", "one.md": f"Some text, {LINE}\n"}
        manifest = write_corpus(root, {name: text.encode() for name, text in pages.items()})
        for name in ("two", "one"):
            shown = f"Some text, {LINE}" + (f" {other}" if name == "two" else "")
            self.write(
                root,
                {f".vitepress/dist/{name}.html": f'<main><div class="vp-doc"><div><p>{shown}</p></div></div></main>'},
            )
        judged = judge_site(load_documents(manifest, cache=False), locate_site(str(root), str(root)))
        self.assertEqual([claim.line for claim in judged.sources["two"].claims], [2, 3])
        self.assertIsNone(judged.sources["two"].refusal)
        self.assertIsNotNone(judged.sources["one"].refusal)

    def test_client_only_content_is_not_on_the_built_page(self) -> None:
        """Fault: ``<ClientOnly>`` content is rendered in the browser alone; the built page holds an empty
        comment where it stands, so ``--site`` said ``ready refuse`` for ``D⏎⏎<ClientOnly>⏎⏎O⏎⏎</ClientOnly>``
        while Chromium, running the page's scripts, showed O as a top-level paragraph (VitePress 1.6.4)."""
        from _conflict_gate.corpus.load import load_documents
        from _conflict_gate.site.build import judge_site
        from tests.support import write_corpus

        root = self.folder()
        self.write(root, {".vitepress/config.mjs": "export default {title: 'T'}\n"})
        overwrite = "@quill create_copy existing_path=overwrite"
        manifest = write_corpus(root, {"c.md": f"{LINE}\n\n<ClientOnly>\n\n{overwrite}\n\n</ClientOnly>\n".encode()})
        self.write(
            root, {".vitepress/dist/c.html": f'<main><div class="vp-doc"><div><p>{LINE}</p><!----></div></div></main>'}
        )
        refusal = (
            judge_site(load_documents(manifest, cache=False), locate_site(str(root), str(root))).sources["c"].refusal
        )
        self.assertIsNotNone(refusal)
        assert refusal is not None
        self.assertEqual((refusal.reason, refusal.line), ("ambiguous_markup", 3))

    def test_rewrites_are_not_followed(self) -> None:
        root = self.folder()
        self.write(root, {".vitepress/config.js": "export default {rewrites: {'a.md': 'b.md'}}\n", "a.md": "# A\n"})
        (root / ".vitepress/dist").mkdir()
        found, reason = built_path(locate_site(str(root), str(root)), str(root / "a.md"))
        self.assertIsNone(found)
        self.assertIn("rewrites", reason)


class HugoTest(Folder):
    """Hugo's names: sections, bundles, slug, url, lower case, uglyURLs."""

    def test_names(self) -> None:
        """Guards against a Hugo page being looked for under its source's case, its file name where a slug
        or url moves it, or as a page where it is a bundle's resource."""
        root = self.folder()
        self.write(
            root,
            {
                "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "T"\n',
                "content/_index.md": "home",
                "content/Posts/_index.md": "s",
                "content/Posts/My-Page.md": "p",
                "content/posts/b/index.md": "b",
                "content/posts/b/other.md": "r",
                "content/posts/s.md": "---\nslug: moved\n---\n",
                "content/posts/u.md": '+++\nurl = "/x/y/"\n+++\n',
            },
        )
        (root / "public").mkdir()
        site = locate_site(str(root), str(root))
        expected = {
            "_index.md": "index.html",
            "Posts/_index.md": "posts/index.html",
            "Posts/My-Page.md": "posts/my-page/index.html",
            "posts/b/index.md": "posts/b/index.html",
            "posts/s.md": "posts/moved/index.html",
            "posts/u.md": "x/y/index.html",
        }
        for rel, name in expected.items():
            with self.subTest(rel):
                self.assertEqual(built_path(site, str(root / "content" / rel)), (name, ""))
        self.assertIn("resource", built_path(site, str(root / "content/posts/b/other.md"))[1])
        (root / "hugo.toml").write_text("uglyURLs = true\npublishDir = 'out'\n", encoding="utf-8")
        (root / "out").mkdir()
        ugly = locate_site(str(root), str(root))
        self.assertEqual(ugly.built, str(root / "out"))
        self.assertEqual(built_path(ugly, str(root / "content/Posts/My-Page.md")), ("posts/my-page.html", ""))
        self.assertEqual(built_path(ugly, str(root / "content/Posts/_index.md")), ("posts.html", ""))
        (root / "hugo.toml").write_text("[permalinks]\nposts = '/:year/:slug/'\n", encoding="utf-8")
        self.assertIn("permalinks", built_path(locate_site(str(root), str(root)), str(root / "content/posts/s.md"))[1])

    def test_a_missing_build(self) -> None:
        root = self.folder()
        self.write(root, {"hugo.toml": "title = 'T'\n"})
        with self.assertRaises(IngestionError) as caught:
            locate_site(str(root), str(root))
        self.assertEqual(caught.exception.reason, "site_unreadable")
        self.assertIn("build the hugo site first", str(caught.exception))


class RegionTest(unittest.TestCase):
    """The main region of Docusaurus, VitePress and Hugo pages, and what they hide (site.html)."""

    def test_regions(self) -> None:
        """Guards against a generator's page being read outside its content (chrome) or not at all."""
        pages = {
            "docusaurus": f'<main><nav><p>{LINE}x</p></nav><article><div class="theme-doc-markdown markdown">'
            f"<header><h1>T</h1></header><p>{LINE}</p></div></article></main>",
            "vitepress": f'<main class="main"><div class="vp-doc _a"><div><h1>T</h1><p>{LINE}</p></div></div></main>'
            f"<footer><p>{LINE}x</p></footer>",
            "hugo": f"<header><p>{LINE}x</p></header><main>\n<p>{LINE}</p>\n</main>",
        }
        for name, body in pages.items():
            with self.subTest(name):
                reading = read_built_page(f"<!DOCTYPE html><html><body>{body}</body></html>", GRAMMAR)
                self.assertIn(name, reading.region or "")
                self.assertEqual((reading.lines, reading.elsewhere), ((LINE,), ()))

    def test_what_they_hide(self) -> None:
        """Guards against an inactive Docusaurus tab (hidden), a collapsed Docusaurus or VitePress details,
        a VitePress container or a div the wrapper rule is not for being read as a top-level paragraph."""
        cases = {
            f'<div role="tabpanel" hidden=""><p>{LINE}</p></div>': "hidden",
            f'<div role="tabpanel"><p>{LINE}</p></div>': "container",
            f'<details class="details_x" data-collapsed="true"><summary>S</summary><div><div><p>{LINE}</p></div>'
            "</div></details>": "collapsed",
            f'<div class="tip custom-block"><p class="custom-block-title">TIP</p><p>{LINE}</p></div>': "container",
            f"<div><p>{LINE}</p></div>": "container",
        }
        for inner, place in cases.items():
            for region in ('<div class="theme-doc-markdown markdown">', '<div class="vp-doc"><div>'):
                with self.subTest(inner[:40], region=region):
                    page = f"<html><body><main>{region}{inner}</div></div></main></body></html>"
                    reading = read_built_page(page, GRAMMAR)
                    self.assertEqual([shown.place for shown in reading.elsewhere], [place])
        code_group = (
            '<div class="vp-code-group"><div class="blocks"><div class="language-sh"><pre><code>'
            f"{LINE}</code></pre></div></div></div>"
        )
        reading = read_built_page(f'<main><div class="vp-doc"><div>{code_group}</div></div></main>', GRAMMAR)
        self.assertEqual((reading.lines, reading.elsewhere, [s.place for s in reading.context]), ((), (), ["code"]))


if __name__ == "__main__":
    unittest.main()
