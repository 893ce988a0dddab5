"""Issue 3: every bad manifest or source is refused with a typed IngestionError, and nothing is lost.

Each test builds a throw-away corpus in a temporary folder (``corpus/`` with a
``manifest.json`` and ``docs/``; a sibling ``outside/`` folder plays the part
of the rest of the disk) and checks the exact ``reason`` plus the attributes
and message parts a user needs. Guards are tested with inputs that would load
(or fail differently) without the guard: a pin that is the right digest in the
wrong format, a path that is unsafe but names a real file, a symlink whose
target exists and is readable.

"Nothing is opened" is checked two ways: :class:`OpenSpy` records every path
given to ``os.open``/``open``, and :meth:`ConfinementTest.test_outside_file_is_never_read`
watches the outside file's access time on the real filesystem.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
import stat
import tempfile
import threading
import unittest
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import load_documents
from load_documents import INGESTION_REASONS, IngestionError, load_documents as load, read_manifest

BOM = b"\xef\xbb\xbf"
TEXT = b"# Page\n\n@quill create_copy existing_path=refuse\n"
_UNSET: Any = object()
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


class OpenSpy:
    """Record every path opened through ``os.open``, ``open`` or ``io.open`` (calls still go through)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._patches: list[Any] = []

    def _wrap(self, real: Any) -> Any:
        def spy(path: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(path, (str, bytes, os.PathLike)):
                with self._lock:
                    self.paths.append(os.path.realpath(os.fsdecode(path)))
            return real(path, *args, **kwargs)
        return spy

    def __enter__(self) -> "OpenSpy":
        for target, name in ((os, "open"), (builtins, "open"), (io, "open")):
            patcher = mock.patch.object(target, name, self._wrap(getattr(target, name)))
            patcher.start()
            self._patches.append(patcher)
        return self

    def __exit__(self, *exc: object) -> None:
        for patcher in reversed(self._patches):
            patcher.stop()

    def counts(self) -> Counter[str]:
        return Counter(self.paths)


class IngestionCase(unittest.TestCase):
    """A temporary ``corpus/`` folder (the manifest's root) next to an ``outside/`` folder."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-ingest-")
        self.addCleanup(tmp.cleanup)
        base = Path(os.path.realpath(tmp.name))
        self.root = base / "corpus"
        self.outside = base / "outside"
        (self.root / "docs").mkdir(parents=True)
        self.outside.mkdir()
        self.manifest = self.root / "manifest.json"

    def put(self, rel: str, raw: bytes = TEXT) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        return path

    def entry(self, sid: str, rel: str, raw: bytes = TEXT, **fields: str) -> dict[str, str]:
        """A manifest entry pinned to ``raw`` (the file itself is written separately)."""
        entry = {"source_id": sid, "version": "1.0", "path": rel,
                 "url": f"https://docs.quill.example/1.0/{sid}", "sha256": sha(raw)}
        entry.update(fields)
        return entry

    def write_manifest(self, documents: Any = None, *, data: Any = _UNSET, text: str | None = None,
                       raw: bytes | None = None) -> None:
        if raw is None:
            if text is None:
                text = json.dumps({"documents": documents} if data is _UNSET else data, indent=2)
            raw = text.encode("utf-8", "surrogatepass")
        self.manifest.write_bytes(raw)

    def refused(self, reason: str, **kwargs: Any) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            load(self.manifest, **kwargs)
        error = caught.exception
        self.assertIn(error.reason, INGESTION_REASONS)
        self.assertEqual(error.reason, reason, str(error))
        return error

    def refused_opening_only_the_manifest(self, reason: str) -> IngestionError:
        """Assert ``reason`` and that no file but the manifest was opened on the way."""
        with OpenSpy() as spy:
            error = self.refused(reason)
        self.assertEqual(set(spy.paths), {str(self.manifest)}, "a source was opened")
        return error


class ManifestFileTest(IngestionCase):
    def test_manifest_not_utf8_reports_the_byte_offset(self) -> None:
        """Guards against a non-UTF-8 manifest being decoded loosely or failing untyped."""
        prefix = b'{"documents": [{"source_id": "caf'
        cases = {
            "latin-1 in a string": (prefix + b"\xe9" + b'"}]}', len(prefix)),
            "first byte": (b"\xff" + b'{"documents": []}', 0),
            "UTF-16 with BOM": ('{"documents": []}'.encode("utf-16"), 0),
            "BOM then a lone continuation byte": (BOM + b'{"documents": []\x80}', len(BOM) + 16),
            "truncated multibyte at the end": (b'{"documents": []}\xe2\x82', 17),
        }
        for name, (raw, offset) in cases.items():
            with self.subTest(name):
                self.write_manifest(raw=raw)
                error = self.refused_opening_only_the_manifest("manifest_not_utf8")
                self.assertEqual(error.path, str(self.manifest))
                self.assertIn(f"invalid UTF-8 at byte {offset}", str(error))

    def test_manifest_not_json_reports_line_and_column(self) -> None:
        """Guards against a JSON error without a position the user can jump to."""
        cases = {
            # line 3 is '    {,}': '{' is column 5, the stray ',' column 6
            "stray comma": ('{\n  "documents": [\n    {,}\n  ]\n}\n', 3, 6,
                            "Expecting property name enclosed in double quotes"),
            # '{"documents": [] "x": 1}' - the '"' of "x" (where a comma belongs) is the 18th character
            "missing comma": ('{"documents": [] "x": 1}', 1, 18, "Expecting ',' delimiter"),
            "empty file": ("", 1, 1, "Expecting value"),
            "single quotes": ("{'documents': []}", 1, 2,
                              "Expecting property name enclosed in double quotes"),
            # the text ends right after the newline: line 2, column 1
            "truncated": ('{"documents": [\n', 2, 1, "Expecting value"),
            # a BOM is not part of the text, so it does not shift columns
            "BOM, error on line 2": ("\ufeff{\n,", 2, 1,
                                     "Expecting property name enclosed in double quotes"),
        }
        for name, (text, line, column, message) in cases.items():
            with self.subTest(name):
                self.write_manifest(text=text)
                error = self.refused_opening_only_the_manifest("manifest_not_json")
                self.assertEqual((error.line, error.column), (line, column))
                self.assertEqual(str(error), f"{self.manifest}:{line}:{column}: {message}")

    def test_json_python_cannot_hold_is_refused(self) -> None:
        """Regression: deep nesting raised RecursionError and a 5000-digit number ValueError, untyped."""
        cases = {
            "nesting 100000 deep": ("[" * 100_000, "JSON nesting is too deep for a manifest"),
            "integer of 5000 digits": ('{"documents": ' + "7" * 5000 + "}", "unsupported JSON value"),
        }
        for name, (text, detail) in cases.items():
            with self.subTest(name):
                self.write_manifest(text=text)
                error = self.refused_opening_only_the_manifest("invalid_manifest")
                self.assertIn(detail, str(error))
                self.assertLess(len(str(error)), 200)

    def test_manifest_that_is_missing_or_not_a_file(self) -> None:
        """Guards against an untyped OSError (or a hang) when the manifest itself cannot be read."""
        self.assertEqual(self._refused_at(self.root / "absent.json").reason, "manifest_unreadable")
        self.assertEqual(self._refused_at(self.root / "docs").reason, "manifest_unreadable")
        fifo = self.root / "pipe.json"
        os.mkfifo(fifo)
        self.assertEqual(self._refused_at(fifo).reason, "manifest_unreadable")

    def _refused_at(self, manifest: Path) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            _with_watchdog(self, lambda: load(manifest))
        return caught.exception

    def test_a_bom_before_the_json_is_accepted(self) -> None:
        """Guards against refusing a manifest an editor saved with a UTF-8 BOM."""
        self.put("docs/a.md")
        self.write_manifest(raw=BOM + json.dumps({"documents": [self.entry("a", "docs/a.md")]}).encode())
        self.assertEqual(list(load(self.manifest).sources), ["a"])


class ManifestShapeTest(IngestionCase):
    def setUp(self) -> None:
        super().setUp()
        self.put("docs/a.md")
        self.good = self.entry("a", "docs/a.md")

    def test_the_valid_manifest_loads(self) -> None:
        """Control for the tables below: the unmodified entry loads."""
        self.write_manifest([self.good])
        self.assertEqual(load(self.manifest).sources["a"].sha256, sha(TEXT))

    def test_shape_errors_are_invalid_manifest(self) -> None:
        """Guards against a manifest of the wrong shape being half-read or failing untyped."""
        good = self.good
        without = {key: {k: v for k, v in good.items() if k != key} for key in good}
        cases: dict[str, tuple[Any, str]] = {
            "top level is a list": ([good], "top level must be an object"),
            "top level is a string": ("documents", "top level must be an object"),
            "top level is null": (None, "top level must be an object"),
            "documents missing": ({}, "'documents' must be a list"),
            "documents is an object": ({"documents": {"a": good}}, "'documents' must be a list"),
            "documents is a string": ({"documents": "docs/a.md"}, "'documents' must be a list"),
            "documents is null": ({"documents": None}, "'documents' must be a list"),
            "unknown top-level key": ({"documents": [good], "version": "1.0"},
                                      "unknown top-level key 'version'"),
            "entry is a list": ({"documents": [list(good.values())]}, "documents[0]: entry must be an object"),
            "entry is a string": ({"documents": ["docs/a.md"]}, "documents[0]: entry must be an object"),
            "entry is null": ({"documents": [None]}, "documents[0]: entry must be an object"),
            "unknown entry key": ({"documents": [dict(good, sha="x")]}, "documents[0]: unknown key 'sha'"),
            "entry key in the wrong case": ({"documents": [{**without["path"], "Path": "docs/a.md"}]},
                                            "documents[0]: unknown key 'Path'"),
            "empty source_id": ({"documents": [dict(good, source_id="")]},
                                "field 'source_id' must not be empty"),
            "empty version": ({"documents": [dict(good, version="")]}, "field 'version' must not be empty"),
        }
        for key in load_documents.MANIFEST_FIELDS:
            cases[f"missing {key}"] = ({"documents": [without[key]]}, f"missing field {key!r}")
            for label, value in (("a number", 1), ("null", None), ("a list", [good[key]]),
                                 ("a boolean", True)):
                cases[f"{key} is {label}"] = ({"documents": [dict(good, **{key: value})]},
                                              f"field {key!r} must be a string")
        for name, (data, detail) in cases.items():
            with self.subTest(name):
                self.write_manifest(data=data)
                error = self.refused_opening_only_the_manifest("invalid_manifest")
                self.assertIn(detail, str(error))
                self.assertIn(f"{self.manifest}): " if error.source_id is not None
                              else f"{self.manifest}: ", str(error))

    def test_duplicate_json_keys_are_refused(self) -> None:
        """Guards against json's last-key-wins silently picking one of two values."""
        entry = json.dumps(self.good)[1:-1]
        cases = {
            "top-level key": '{"documents": [], "documents": [{%s}]}' % entry,
            # the second "path" names a real file: without the guard this would load
            "entry key": '{"documents": [{"path": "docs/other.md", %s}]}' % entry,
        }
        for name, text in cases.items():
            with self.subTest(name):
                self.write_manifest(text=text)
                error = self.refused_opening_only_the_manifest("invalid_manifest")
                self.assertIn("duplicate key", str(error))

    def test_lone_surrogates_are_refused(self) -> None:
        """Regression: a '\\ud800' escape in a field escaped as an untyped UnicodeEncodeError."""
        for key in load_documents.MANIFEST_FIELDS:
            if key == "sha256":
                continue  # a surrogate is not hex: invalid_sha256 (covered below)
            with self.subTest(key):
                value = self.good[key] + "\ud800" if key != "path" else "docs/\udcff.md"
                self.write_manifest(text=json.dumps({"documents": [dict(self.good, **{key: value})]}))
                error = self.refused_opening_only_the_manifest("invalid_manifest")
                self.assertIn(f"field {key!r} contains a lone surrogate", str(error))
                str(error).encode("utf-8")  # the message itself is printable

    def test_duplicate_source_id(self) -> None:
        """Guards against a second entry silently replacing the first in the corpus."""
        self.put("docs/b.md", TEXT + b"\n")
        self.write_manifest([self.good, self.entry("a", "docs/b.md", TEXT + b"\n")])
        error = self.refused_opening_only_the_manifest("duplicate_source_id")
        self.assertEqual(error.source_id, "a")
        self.assertIn("documents[1]: source_id is used twice", str(error))

    def test_duplicate_path(self) -> None:
        """Guards against one file counted as two agreeing sources."""
        self.write_manifest([self.good, self.entry("b", "docs/a.md")])
        error = self.refused_opening_only_the_manifest("duplicate_path")
        self.assertEqual(error.source_id, "b")
        self.assertIn("path 'docs/a.md' is also used by 'a'", str(error))

    def test_two_paths_reaching_one_file_are_a_duplicate(self) -> None:
        """Guards against one file counted twice through a symlink (file or folder) or a hard link."""
        os.symlink("a.md", self.root / "docs" / "link.md")
        os.symlink("docs", self.root / "docs2")
        os.link(self.root / "docs" / "a.md", self.root / "docs" / "hard.md")
        for path in ("docs/link.md", "docs2/a.md", "docs/hard.md"):
            with self.subTest(path):
                self.write_manifest([self.good, self.entry("b", path)])
                error = self.refused_opening_only_the_manifest("duplicate_path")
                self.assertEqual((error.source_id, error.path), ("b", path))
                self.assertIn("names the same file as 'a'", str(error))

    def test_two_files_with_the_same_bytes_are_not_a_duplicate(self) -> None:
        """Control for the duplicate-file guard: identity, not content, makes a duplicate."""
        self.put("docs/copy.md")
        self.write_manifest([self.good, self.entry("b", "docs/copy.md")])
        self.assertEqual(list(load(self.manifest).sources), ["a", "b"])

    def test_malformed_sha256_is_invalid_sha256_never_hash_mismatch(self) -> None:
        """Guards against a pin in the wrong format being compared (and reported as hash_mismatch).

        Every pin below is the file's own digest, only written wrongly, so
        without the format check each would reach the digest comparison.
        """
        digest = sha(TEXT)
        cases = {
            "prefixed": "sha256:" + digest,
            "leading space": " " + digest,
            "trailing space": digest + " ",
            "trailing newline": digest + "\n",
            "truncated by one": digest[:-1],
            "half": digest[:32],
            "upper case": digest.upper(),
            "one upper-case letter": digest.replace(next(c for c in digest if c.isalpha()),
                                                    next(c for c in digest if c.isalpha()).upper(), 1),
            "one extra digit": digest + "0",
            "empty": "",
            "0x prefix": "0x" + digest[2:],
            "full-width digits": digest.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"}),
        }
        for name, pin in cases.items():
            with self.subTest(name):
                self.write_manifest([dict(self.good, sha256=pin)])
                error = self.refused_opening_only_the_manifest("invalid_sha256")
                self.assertEqual(error.source_id, "a")
                self.assertIn(f"sha256 must be 64 lowercase hex characters, got {pin!r}", str(error))

    def test_unsafe_paths_are_invalid_path(self) -> None:
        """Guards against paths that are absolute, climb with '..', or are written ambiguously.

        Each unsafe path names a real file inside the root (created below), so
        without the text check it would load.
        """
        for odd in ("docs\\a.md", "docs/a\n.md", "docs/a\t.md", "docs/a\x1b.md", "docs/a\x7f.md",
                    "docs/a\x85.md"):
            self.put(odd)
        cases = {
            "empty": ("", "path is empty"),
            "absolute": (str(self.root / "docs" / "a.md"), "path is absolute"),
            "'..' that comes back inside": (f"../{self.root.name}/docs/a.md", "path contains '..'"),
            "'..' in the middle": ("docs/../docs/a.md", "path contains '..'"),
            "backslash": ("docs\\a.md", "path contains a backslash"),
            "leading ./": ("./docs/a.md", "path is not normalised (expected 'docs/a.md')"),
            "double slash": ("docs//a.md", "path is not normalised (expected 'docs/a.md')"),
            "./ in the middle": ("docs/./a.md", "path is not normalised (expected 'docs/a.md')"),
            "trailing slash": ("docs/a.md/", "path is not normalised (expected 'docs/a.md')"),
            "newline": ("docs/a\n.md", "path contains a control character"),
            "tab": ("docs/a\t.md", "path contains a control character"),
            "escape": ("docs/a\x1b.md", "path contains a control character"),
            "NUL": ("docs/a\x00.md", "path contains a control character"),
            "DEL": ("docs/a\x7f.md", "path contains a control character"),
            # regression: C1 controls (here NEL, U+0085) passed the old 'ord < 0x20' test
            "C1 control NEL": ("docs/a\x85.md", "path contains a control character"),
        }
        for name, (path, detail) in cases.items():
            with self.subTest(name):
                self.write_manifest([dict(self.good, path=path)])
                error = self.refused_opening_only_the_manifest("invalid_path")
                self.assertEqual(error.path, path or str(self.manifest))
                self.assertEqual(error.source_id, "a")
                self.assertTrue(str(error).endswith(f": {detail}"), str(error))
                self.assertEqual(len(str(error).splitlines()), 1, repr(str(error)))

    def test_messages_escape_unprintable_path_characters(self) -> None:
        """Regression: a path with a newline was echoed raw, so a 'one-line' error spanned two lines."""
        cases = {
            "docs/a\n.md": ("invalid_path", "source 'a' (docs/a\\n.md): path contains a control character"),
            "docs\\a\r.md": ("invalid_path", "source 'a' (docs\\a\\r.md): path contains a backslash"),
            "docs/a\u2028b.md": ("source_missing", "source 'a' (docs/a\\u2028b.md): file does not exist"
                                 " (paths are relative to the manifest's folder)"),
            "docs/caf\u00e9 b.md": ("source_missing", "source 'a' (docs/caf\u00e9 b.md): file does not exist"
                                 " (paths are relative to the manifest's folder)"),
        }
        for path, (reason, message) in cases.items():
            with self.subTest(path=path):
                self.write_manifest([dict(self.good, path=path)])
                error = self.refused(reason)
                self.assertEqual(error.path, path)  # the attribute keeps the path as written
                self.assertEqual(str(error), message)
        odd_manifest = self.root / "odd\nname.json"
        with self.assertRaises(IngestionError) as caught:
            load(odd_manifest)
        self.assertEqual(str(caught.exception), f"{self.root}/odd\\nname.json: file does not exist")

    def test_shape_checks_open_no_source_even_when_a_later_entry_is_bad(self) -> None:
        """Guards against reading early sources before the whole manifest is validated."""
        self.write_manifest([self.good, dict(self.entry("b", "docs/b.md"), sha256="nope")])
        error = self.refused_opening_only_the_manifest("invalid_sha256")
        self.assertIn("documents[1]", str(error))


class ConfinementTest(IngestionCase):
    """Nothing outside the manifest's folder is opened, hashed or echoed."""

    SECRET = b"outside the root: must never be read\n"

    def setUp(self) -> None:
        super().setUp()
        self.secret = self.outside / "secret.md"
        self.secret.write_bytes(self.SECRET)
        # pinned to other bytes, so a loader that read the secret would report its digest
        self.pin = sha(TEXT)

    def _links(self) -> dict[str, str]:
        """name -> manifest path, each leading to the secret file a different way."""
        docs = self.root / "docs"
        os.symlink(self.secret, docs / "absolute-link.md")
        os.symlink(os.path.relpath(self.secret, docs), docs / "relative-link.md")
        os.symlink(self.outside, self.root / "folder-link")
        os.symlink("relative-link.md", docs / "chain.md")
        os.symlink("../../outside/missing.md", docs / "dangling.md")
        return {"file symlink (absolute)": "docs/absolute-link.md",
                "file symlink (relative)": "docs/relative-link.md",
                "folder symlink": "folder-link/secret.md",
                "symlink to a symlink": "docs/chain.md",
                "dangling symlink to outside": "docs/dangling.md"}

    def test_symlinks_leading_outside_are_refused_unopened(self) -> None:
        """Guards against following a symlink out of the root and reading what it points at."""
        secret_digest = sha(self.SECRET)
        for name, path in self._links().items():
            with self.subTest(name):
                self.write_manifest([self.entry("a", path)])
                error = self.refused_opening_only_the_manifest("path_outside_root")
                self.assertEqual((error.source_id, error.path), ("a", path))
                self.assertEqual(str(error), f"source 'a' ({path}): path leads outside the manifest's folder")
                self.assertNotIn(secret_digest, str(error))
                self.assertNotIn(str(self.outside), str(error))

    def test_confinement_is_checked_for_every_entry_before_any_source_is_opened(self) -> None:
        """Guards against reading the sources listed before an escaping one."""
        self.put("docs/a.md")
        os.symlink(self.secret, self.root / "docs" / "b.md")
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md")])
        error = self.refused_opening_only_the_manifest("path_outside_root")
        self.assertEqual(error.source_id, "b")

    def test_outside_file_is_never_read(self) -> None:
        """Guards against hashing a file outside the root, observed on disk through its access time.

        The secret's access time is set far in the past; reading it would move
        it (relatime updates an access time older than the modification time).
        A control read afterwards proves this filesystem does update it.
        """
        old_ns = 946_684_800 * 10**9  # 2000-01-01
        os.utime(self.secret, ns=(old_ns, self.secret.stat().st_mtime_ns))
        os.symlink(self.secret, self.root / "docs" / "a.md")
        self.write_manifest([self.entry("a", "docs/a.md", self.SECRET)])  # even the right pin
        self.refused("path_outside_root")
        self.assertEqual(self.secret.stat().st_atime_ns, old_ns, "the file outside the root was read")
        self.secret.read_bytes()
        if self.secret.stat().st_atime_ns == old_ns:
            self.skipTest("this filesystem does not update access times (noatime); the spy tests cover it")

    def test_outside_fifo_is_refused_without_hanging(self) -> None:
        """Guards against opening (and blocking on) a FIFO outside the root."""
        fifo = self.outside / "pipe"
        os.mkfifo(fifo)
        os.symlink(fifo, self.root / "docs" / "a.md")
        self.write_manifest([self.entry("a", "docs/a.md")])
        with self.assertRaises(IngestionError) as caught:
            _with_watchdog(self, lambda: load(self.manifest, workers=1))
        self.assertEqual(caught.exception.reason, "path_outside_root")

    def test_a_symlink_that_stays_inside_is_followed(self) -> None:
        """Control: a symlink to another file inside the root is fine (and read once)."""
        target = self.put("docs/real.md")
        os.symlink("real.md", self.root / "docs" / "a.md")
        self.write_manifest([self.entry("a", "docs/a.md")])
        with OpenSpy() as spy:
            corpus = load(self.manifest)
        self.assertEqual(corpus.sources["a"].path, "docs/a.md")
        self.assertEqual(spy.counts()[str(target)], 1)


class SourceFileTest(IngestionCase):
    def test_missing_source(self) -> None:
        """Guards against an untyped FileNotFoundError for a source named but not present."""
        self.write_manifest([self.entry("a", "docs/a.md")])
        error = self.refused("source_missing")
        self.assertEqual(str(error), "source 'a' (docs/a.md): file does not exist"
                                     " (paths are relative to the manifest's folder)")

    def test_directory_and_fifo_are_not_regular_files(self) -> None:
        """Guards against reading a directory or blocking forever on a FIFO named as a source."""
        (self.root / "docs" / "dir.md").mkdir()
        os.mkfifo(self.root / "docs" / "pipe.md")
        for path in ("docs/dir.md", "docs/pipe.md"):
            with self.subTest(path):
                self.write_manifest([self.entry("a", path)])
                with self.assertRaises(IngestionError) as caught:
                    _with_watchdog(self, lambda: load(self.manifest, workers=1))
                self.assertEqual(caught.exception.reason, "source_not_regular_file")
                self.assertEqual(str(caught.exception), f"source 'a' ({path}): not a regular file")

    @unittest.skipIf(IS_ROOT, "running as root: chmod 000 does not stop root from reading")
    def test_unreadable_source(self) -> None:
        """Guards against an untyped PermissionError for a source the user cannot read."""
        path = self.put("docs/a.md")
        path.chmod(0)
        self.addCleanup(path.chmod, 0o644)
        self.write_manifest([self.entry("a", "docs/a.md")])
        error = self.refused("source_unreadable")
        self.assertEqual(str(error), "source 'a' (docs/a.md): cannot open: Permission denied")

    def test_source_over_the_size_limit_is_refused_unread(self) -> None:
        """Guards against reading (into memory) a source larger than MAX_SOURCE_BYTES."""
        small, big = b"x" * 16, b"x" * 17
        self.put("docs/small.md", small)
        big_path = self.put("docs/big.md", big)
        self.write_manifest([self.entry("small", "docs/small.md", small)])
        with mock.patch.object(load_documents, "MAX_SOURCE_BYTES", 16):
            self.assertEqual(load(self.manifest).sources["small"].size, 16)  # the limit itself is fine
            self.write_manifest([self.entry("big", "docs/big.md", big)])
            reads = _ReadSpy(big_path)
            with reads:
                error = self.refused("source_too_large")
        self.assertEqual(str(error), "source 'big' (docs/big.md): 17 bytes is over the 16-byte limit")
        self.assertEqual(reads.bytes_read, 0)

    def test_source_that_grows_past_the_limit_while_read(self) -> None:
        """Guards against trusting fstat's size: a file growing after the check is still capped."""
        big = b"x" * 40
        self.put("docs/a.md", big)
        self.write_manifest([self.entry("a", "docs/a.md", big)])
        real_fstat = os.fstat

        def shrunk(fd: int) -> os.stat_result:
            info = real_fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size != len(big):
                return info
            fields = list(info[:10])
            fields[6] = 8  # st_size: what the file measured before it grew
            return os.stat_result(fields)

        with mock.patch.object(load_documents, "MAX_SOURCE_BYTES", 16), \
                mock.patch.object(os, "fstat", shrunk):
            error = self.refused("source_too_large")
        self.assertIn("grew over the 16-byte limit", str(error))

    def test_invalid_utf8_reports_the_raw_byte_offset(self) -> None:
        """Guards against loose decoding, and against an offset that forgets the BOM or multibyte text.

        Each source is pinned to its own bytes, so the digest passes and the
        decoder is reached; the expected offset is the length of the valid
        prefix in raw bytes (BOM included).
        """
        cases = {
            "lone 0xff": (b"ok\n", b"\xff", b"\n"),
            "after a BOM": (BOM + b"ok\n", b"\xff", b""),
            "right after a BOM": (BOM, b"\xff", b"ok\n"),
            "after multibyte text": ("café — ".encode(), b"\x80", b"\n"),
            "latin-1 byte": (b"na", b"\xefve", b""),
            "truncated sequence at the end": (b"abc", b"\xe2\x82", b""),
            "overlong encoding of '/'": (b"a", b"\xc0\xaf", b""),
            "encoded surrogate": (b"ab", b"\xed\xa0\x80", b""),
            "partial BOM": (b"", b"\xef\xbbx", b""),
        }
        for name, (prefix, bad, suffix) in cases.items():
            with self.subTest(name):
                raw = prefix + bad + suffix
                self.put("docs/a.md", raw)
                self.write_manifest([self.entry("a", "docs/a.md", raw)])
                error = self.refused("source_not_utf8")
                self.assertEqual(str(error), f"source 'a' (docs/a.md): invalid UTF-8 at byte {len(prefix)}")

    def test_line_ending_changes_are_a_hash_mismatch_with_a_hint(self) -> None:
        """Guards against normalising line endings before hashing (a CRLF checkout must not verify)."""
        lf = b"# Page\n\n@quill create_copy existing_path=refuse\n"
        crlf = lf.replace(b"\n", b"\r\n")
        cases = {
            "CRLF checkout of an LF pin": (lf, crlf, "only line endings differ: the file has CRLF "
                                                     "where the pinned bytes have LF"),
            "LF checkout of a CRLF pin": (crlf, lf, "only line endings differ: the file has LF "
                                                    "where the pinned bytes have CRLF"),
            "CRLF and an edit": (lf, crlf.replace(b"refuse", b"overwrite"), None),
            "BOM added": (lf, BOM + lf, None),
        }
        for name, (pinned, on_disk, hint) in cases.items():
            with self.subTest(name):
                self.put("docs/a.md", on_disk)
                self.write_manifest([self.entry("a", "docs/a.md", pinned)])
                error = self.refused("hash_mismatch")
                message = f"source 'a' (docs/a.md): sha256 is {sha(on_disk)}, pinned {sha(pinned)}"
                self.assertEqual(str(error), message + (f" ({hint})" if hint else ""))

    def test_crlf_bytes_pinned_as_crlf_are_kept_as_they_are(self) -> None:
        """Guards against a loader that normalises bytes: digest, size and byte offsets are of the raw file."""
        crlf = BOM + b"# Page\r\n\r\n@quill create_copy existing_path=refuse\r\n"
        self.put("docs/a.md", crlf)
        self.write_manifest([self.entry("a", "docs/a.md", crlf)])
        source = load(self.manifest).sources["a"]
        self.assertEqual((source.sha256, source.size), (sha(crlf), len(crlf)))
        (line,) = source.directive_lines
        self.assertEqual(line.text, "@quill create_copy existing_path=refuse")
        self.assertEqual(crlf[line.byte_start:line.byte_end + 2], line.text.encode() + b"\r\n")

    def test_each_source_is_read_exactly_once(self) -> None:
        """Guards against a second read (a time-of-check/time-of-use gap between hashing and parsing)."""
        files = {"docs/a.md": TEXT, "docs/b.md": TEXT + b"b\n", "docs/c.md": b"\xef\xbb\xbfc\n"}
        paths = {rel: str(self.put(rel, raw)) for rel, raw in files.items()}
        self.write_manifest([self.entry(Path(rel).stem, rel, raw) for rel, raw in files.items()])
        for workers in (1, 2, 3):
            with self.subTest(workers=workers):
                calls: Counter[str] = Counter()
                lock = threading.Lock()
                real = load_documents._read_capped

                def counting(path: str, *args: Any) -> bytes:
                    with lock:
                        calls[os.path.realpath(path)] += 1
                    return real(path, *args)

                with mock.patch.object(load_documents, "_read_capped", counting), OpenSpy() as spy:
                    corpus = load(self.manifest, workers=workers)
                self.assertEqual(len(corpus), 3)
                expected = Counter({str(self.manifest): 1, **{p: 1 for p in paths.values()}})
                self.assertEqual(calls, expected)
                self.assertEqual(spy.counts(), expected)


class _ReadSpy:
    """Count the bytes ``os.read`` returns from descriptors opened on one path."""

    def __init__(self, path: Path) -> None:
        self.path = os.path.realpath(path)
        self.fds: set[int] = set()
        self.bytes_read = 0

    def __enter__(self) -> "_ReadSpy":
        real_open, real_read = os.open, os.read

        def spy_open(path: Any, *args: Any, **kwargs: Any) -> int:
            fd = real_open(path, *args, **kwargs)
            if os.path.realpath(os.fsdecode(path)) == self.path:
                self.fds.add(fd)
            return fd

        def spy_read(fd: int, n: int) -> bytes:
            data = real_read(fd, n)
            if fd in self.fds:
                self.bytes_read += len(data)
            return data

        self._patches = [mock.patch.object(os, "open", spy_open), mock.patch.object(os, "read", spy_read)]
        for patcher in self._patches:
            patcher.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for patcher in self._patches:
            patcher.stop()


def _with_watchdog(test: unittest.TestCase, action: Any, seconds: float = 10.0) -> Any:
    """Run ``action`` in a daemon thread; fail (instead of hanging the suite) if it blocks."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = action()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        test.fail(f"still blocked after {seconds} s (a FIFO was opened for reading?)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


class ReadManifestTest(IngestionCase):
    def test_read_manifest_for_pin_accepts_only_an_empty_pin_as_unpinned(self) -> None:
        """Guards against ``pin`` treating a malformed pin as 'not pinned yet' and overwriting it."""
        self.write_manifest([self.entry("a", "docs/a.md", sha256="")])
        self.assertEqual(read_manifest(self.manifest, require_pins=False)[0]["sha256"], "")
        self.write_manifest([self.entry("a", "docs/a.md", sha256="sha256:")])
        with self.assertRaises(IngestionError) as caught:
            read_manifest(self.manifest, require_pins=False)
        self.assertEqual(caught.exception.reason, "invalid_sha256")


if __name__ == "__main__":
    unittest.main()
