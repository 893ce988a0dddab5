"""The ``sources`` key and its patterns (``_conflict_gate/manifest/sources.py``), and how the manifest checks them.

One glob syntax for ``init --version-from`` and ``"sources"``: each case is a
pattern, paths, and the version each path yields (``None``: no match). Every
refused pattern is checked by its message, and, inside a manifest, by the JSON
pointer of the ``invalid_manifest`` error.
"""

from __future__ import annotations

import json
import time
import unittest
from typing import Any

from _conflict_gate.corpus.load import source_digest
from _conflict_gate.manifest.read import read_manifest
from _conflict_gate.manifest.sources import MAX_PATTERNS, Pattern, Sources, pattern_problem, sources_from_json
from conflict_gate import IngestionError
from tests.support import QUILL_GRAMMAR, CorpusFolderCase

#: pattern -> {path: the version it yields, or None when it does not match}
MATCHES: dict[str, dict[str, str | None]] = {
    "{version}/**": {"1.0/a.md": "1.0", "1.0/x/y/z.md": "1.0", "1.0": None, "a.md": None},
    "{version}/**/*.md": {"1.0/a.md": "1.0", "1.0/x/y.md": "1.0", "1.0/x/y.txt": None, "1.0/a.MD": None},
    "site/v{version}/*.md": {
        "site/v2.1/a.md": "2.1",
        "site/2.1/a.md": None,
        "site/v2.1/x/a.md": None,
        "site/v/a.md": None,
        "Site/v2.1/a.md": None,
    },
    "docs/{version}-docs/**/guide?.md": {
        "docs/3.0-docs/guide1.md": "3.0",
        "docs/3.0-docs/a/b/guideX.md": "3.0",
        "docs/3.0-docs/guide.md": None,
        "docs/-docs/guide1.md": None,
    },
    "*/{version}/**": {"api/1.0/a.md": "1.0", "1.0/a.md": None, "a/b/1.0/a.md": "b"},
    "{version}/* guide.md": {"1.0/my guide.md": "1.0", "1.0/x/my guide.md": None, "1.0/ guide.md": "1.0"},
}


class PatternTest(unittest.TestCase):
    def test_matches_and_versions(self) -> None:
        for text, paths in MATCHES.items():
            pattern = Pattern.parse(text, include=True)
            for path, version in paths.items():
                with self.subTest(pattern=text, path=path):
                    self.assertEqual(pattern.match(path), version)

    def test_exclude_patterns(self) -> None:
        """An exclude pattern's {version} is a wildcard of one or more characters; it may follow **."""
        cases = {
            "**/drafts/**": {
                "1.0/drafts/a.md": True,
                "drafts/a.md": True,
                "1.0/a/drafts": False,
                "1.0/x/drafts/y/z.md": True,
                "1.0/drafts.md": False,
            },
            "{version}/internal-*.md": {
                "1.0/internal-a.md": True,
                "1.0/internal-.md": True,
                "1.0/internal.md": False,
                "/internal-a.md": False,
            },
            "**/{version}/old.md": {"a/b/2.0/old.md": True, "2.0/old.md": True},
        }
        for text, paths in cases.items():
            pattern = Pattern.parse(text, include=False)
            for path, matched in paths.items():
                with self.subTest(pattern=text, path=path):
                    self.assertEqual(pattern.match(path) is not None, matched)

    def test_refused_patterns(self) -> None:
        """Guards against a pattern that escapes the folder, or looks like glob syntax it is not."""
        cases = {
            "": "is empty",
            "docs/**": "must hold '{version}' once, got 'docs/**'",
            "{version}/{version}": "must hold '{version}' once",
            "/{version}/**": "is absolute",
            "{version}/../**": "leads outside the manifest's folder ('..')",
            "../{version}/**": "leads outside the manifest's folder ('..')",
            "{version}//a.md": "is not normalised",
            "./{version}/**": "is not normalised",
            "{version}/": "is not normalised",
            "{version}/**.md": "'**' must be a whole segment",
            "{version}/a**": "'**' must be a whole segment",
            "{version}/[ab].md": "holds '[', which is not glob syntax here",
            "{version}/a].md": "holds ']'",
            "{v}/{version}/**": "holds '{'",
            "**/{version}/**": "'**' before '{version}' makes the version's segment ambiguous",
            "{version}*/**": "the segment holding '{version}' may hold no '*' or '?'",
            "v?{version}/**": "the segment holding '{version}' may hold no '*' or '?'",
            "a\\b/{version}/**": "holds a backslash",
            "a\n/{version}/**": "holds a control character",
            "\ud800/{version}": "holds a lone surrogate",
            "{version}/" + "a" * 1000: "is longer than 1000 characters",
        }
        for text, words in cases.items():
            with self.subTest(text):
                problem = pattern_problem(text, include=True)
                self.assertIn(words, problem)
                self.assertTrue(problem.isprintable(), problem)
                with self.assertRaises(ValueError):
                    Pattern.parse(text, include=True)
        self.assertEqual(pattern_problem("**/drafts/**", include=False), "")
        self.assertIn("more than once", pattern_problem("{version}/{version}", include=False))

    def test_matching_is_linear_in_the_path(self) -> None:
        """Guards against backtracking: many stars and ** against a long path that almost matches.

        A regular expression with nested stars takes exponential time here; the
        segment walk takes (pattern segments x path segments) segment tests.
        """
        pattern = Pattern.parse("**/a*a*a*a*a*b/**/a*a*a*a*c/**/x.md", include=False)
        path = "/".join(["a" * 250] * 64) + "/y.md"
        start = time.process_time()
        self.assertIsNone(pattern.match(path))
        self.assertLess(time.process_time() - start, 1.0)

    def test_sources_match_prefixes_and_id_base(self) -> None:
        sources = sources_from_json(
            {"include": ["site/{version}/**", "site/api/{version}/**"], "exclude": ["site/*/drafts/**"]}
        )
        self.assertEqual(sources.match("site/1.0/a.md"), ("page", "1.0"))
        self.assertEqual(sources.match("site/1.0/drafts/a.md"), ("excluded", "1.0"))
        self.assertEqual(sources.match("other/1.0/a.md"), ("no_match", ""))
        self.assertEqual(sources.prefixes(), [("site",)])
        self.assertEqual(sources.id_base(), ("site",))
        two = Sources((Pattern.parse("a/{version}/**", include=True), Pattern.parse("b/{version}/**", include=True)))
        self.assertEqual((two.prefixes(), two.id_base()), ([("a",), ("b",)], ()))
        self.assertEqual(two.written(), {"include": ["a/{version}/**", "b/{version}/**"], "exclude": []})


class ManifestSourcesTest(CorpusFolderCase):
    """``read_manifest`` checks ``sources`` strictly; a manifest without it reads as before."""

    def write(self, **top: Any) -> None:
        entry = {"source_id": "a", "version": "1.0", "path": "docs/a.md", "sha256": source_digest(b"")}
        data = {"grammar": QUILL_GRAMMAR, "version_scheme": "major.minor", **top, "documents": [entry]}
        self.manifest.write_text(json.dumps(data), encoding="utf-8")

    def test_a_manifest_without_sources_reads_as_before(self) -> None:
        self.write()
        self.assertIsNone(read_manifest(self.manifest).sources)

    def test_sources_are_read(self) -> None:
        self.write(sources={"include": ["docs/{version}/**"], "exclude": ["docs/*/x.md"]})
        sources = read_manifest(self.manifest).sources
        assert sources is not None
        self.assertEqual(sources.written(), {"include": ["docs/{version}/**"], "exclude": ["docs/*/x.md"]})
        self.write(sources={"include": ["docs/{version}/**"]})
        self.assertEqual(
            read_manifest(self.manifest).sources, Sources((Pattern.parse("docs/{version}/**", include=True),))
        )

    def test_bad_sources_are_invalid_manifest_with_the_pointer(self) -> None:
        """Guards against a typo in ``sources`` silently taking no page (or every page)."""
        cases: dict[str, tuple[Any, str, str]] = {
            "not an object": (["{version}/**"], "/sources", '"sources" must be an object'),
            "unknown key": (
                {"include": ["{version}/**"], "exlude": []},
                "/sources/exlude",
                "unknown key 'exlude' in \"sources\" (it has include, exclude)",
            ),
            "no include": ({"exclude": []}, "/sources/include", '"sources" needs "include"'),
            "include empty": ({"include": []}, "/sources/include", "'include' must be a non-empty list"),
            "include a string": ({"include": "{version}/**"}, "/sources/include", "must be a non-empty list"),
            "exclude a string": (
                {"include": ["{version}/**"], "exclude": "x"},
                "/sources/exclude",
                "'exclude' must be a list",
            ),
            "pattern not a string": ({"include": [1]}, "/sources/include/0", "a pattern must be a string"),
            "no {version}": (
                {"include": ["docs/**"]},
                "/sources/include/0",
                "include pattern must hold '{version}' once",
            ),
            "escapes the folder": (
                {"include": ["{version}/**", "../{version}/**"]},
                "/sources/include/1",
                "leads outside the manifest's folder",
            ),
            "absolute": ({"include": ["/srv/{version}/**"]}, "/sources/include/0", "is absolute"),
            "bad exclude": (
                {"include": ["{version}/**"], "exclude": ["x/[ab]"]},
                "/sources/exclude/0",
                "exclude pattern 'x/[ab]' holds '['",
            ),
            "listed twice": ({"include": ["{version}/**", "{version}/**"]}, "/sources/include/1", "listed twice"),
            "too many": (
                {"include": [f"d{i}/{{version}}/**" for i in range(MAX_PATTERNS + 1)]},
                "/sources/include",
                f"more than {MAX_PATTERNS} patterns",
            ),
        }
        for label, (value, pointer, words) in cases.items():
            with self.subTest(label):
                self.write(sources=value)
                with self.assertRaises(IngestionError) as caught:
                    read_manifest(self.manifest)
                error = caught.exception
                self.assertEqual((error.reason, error.pointer), ("invalid_manifest", pointer), str(error))
                self.assertIn(words, error.detail)
                self.assertTrue(str(error).isprintable())


if __name__ == "__main__":
    unittest.main()
