"""Reading a manifest (``_conflict_gate/manifest/read.py``): read_manifest, version schemes, entries.

Every bad manifest is refused with a typed error: ``IngestionError`` (reason in
``INGESTION_REASONS``) or, for the grammar, ``GrammarError``; each test checks
the exact reason, the JSON ``pointer`` (or line and column) and the parts of the
message a user needs. ``read_manifest`` opens no source, so every refusal here
is also checked to have opened nothing but the manifest (:class:`OpenSpy`).
Guards are tested with inputs that would load without them: a pin that is the
right digest written wrongly, an unsafe path that names a real file.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import stat
import sys
import threading
import unittest
from collections.abc import Callable
from typing import Any
from unittest import mock

import _conflict_gate.manifest.read as manifest_module
from _conflict_gate.base.errors import LocatedError
from _conflict_gate.base.jsondata import canonical_json
from _conflict_gate.base.registry import RENDERERS
from conflict_gate import (
    MAX_MANIFEST_BYTES,
    VERSION_SCHEMES,
    GrammarError,
    IngestionError,
    read_manifest,
)
from tests.support import FIXTURE_MANIFEST, PAGE, QUILL_GRAMMAR, CorpusFolderCase

BOM = b"\xef\xbb\xbf"
TEXT = PAGE
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
_UNSET: Any = object()


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def canonical_revision(entry: dict[str, str]) -> str:
    """The revision formula, written independently: SHA-256 of sorted-key, space-free UTF-8 JSON."""
    text = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class OpenSpy:
    """Record every path given to ``os.open`` or ``open`` (the calls still go through)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._patches: list[Any] = []

    def _wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(path: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(path, (str, bytes, os.PathLike)):
                with self._lock:
                    self.paths.append(os.path.realpath(os.fsdecode(path)))
            return real(path, *args, **kwargs)

        return spy

    def __enter__(self) -> OpenSpy:
        for target in (os, builtins):
            patcher = mock.patch.object(target, "open", self._wrap(target.open))
            patcher.start()
            self._patches.append(patcher)
        return self

    def __exit__(self, *exc: object) -> None:
        for patcher in reversed(self._patches):
            patcher.stop()


class ManifestCase(CorpusFolderCase):
    """A temporary ``corpus/`` folder holding ``manifest.json`` and ``docs/a.md``."""

    prefix = "conflict-gate-manifest-"

    def setUp(self) -> None:
        super().setUp()
        self.put("docs/a.md")
        self.good = self.entry("a", "docs/a.md")

    def entry(self, sid: str, rel: str, raw: bytes = TEXT, **fields: str) -> dict[str, str]:
        """A manifest entry pinned to ``raw`` (the file is written separately)."""
        entry = {
            "source_id": sid,
            "version": "1.0",
            "path": rel,
            "url": f"https://docs.quill.example/1.0/{sid}",
            "sha256": sha(raw),
        }
        entry.update(fields)
        return entry

    def document(self, documents: Any, **top: Any) -> dict[str, Any]:
        data = {"grammar": QUILL_GRAMMAR, "version_scheme": "major.minor", "documents": documents}
        data.update(top)
        return data

    def write(
        self,
        documents: Any = _UNSET,
        *,
        data: Any = _UNSET,
        text: str | None = None,
        raw: bytes | None = None,
        **top: Any,
    ) -> None:
        """Write the manifest from entries (with the lab grammar), whole data, text or raw bytes.

        Text is JSON with ``\\uXXXX`` escapes for anything non-ASCII, so a lone
        surrogate reaches the parser as JSON, not as undecodable bytes.
        """
        if raw is None:
            if text is None:
                text = json.dumps(self.document(documents, **top) if data is _UNSET else data, indent=2)
            raw = text.encode("utf-8")
        # a fresh file each time: rewriting one in place is slow on ext4 (a flush on truncate)
        self._written = getattr(self, "_written", 0) + 1
        self.manifest = self.root / f"manifest-{self._written}.json"
        self.manifest.write_bytes(raw)

    def refused(
        self,
        reason: str,
        *,
        pointer: str | None = None,
        source_id: str | None = None,
        error_type: type[LocatedError] = IngestionError,
        **kwargs: Any,
    ) -> Any:
        """Assert ``read_manifest`` refuses with ``reason`` at ``pointer`` having opened only the manifest."""
        with OpenSpy() as spy, self.assertRaises(error_type) as caught:
            read_manifest(self.manifest, **kwargs)
        error = caught.exception
        self.assertEqual((error.reason, error.pointer, error.source_id), (reason, pointer, source_id), str(error))
        self.assertEqual(error.path, str(self.manifest))
        self.assertEqual(set(spy.paths), {str(self.manifest)}, "a file other than the manifest was opened")
        message = str(error)
        self.assertTrue(message.isprintable(), repr(message))
        return error


class ManifestFileTest(ManifestCase):
    def test_the_valid_manifest_loads(self) -> None:
        """Control for the tables below: the unmodified manifest reads, opening only itself."""
        self.write([self.good])
        with OpenSpy() as spy:
            manifest = read_manifest(self.manifest)
        self.assertEqual(spy.paths, [str(self.manifest)])
        self.assertEqual(
            (manifest.path, manifest.real_path, manifest.root), (str(self.manifest), str(self.manifest), str(self.root))
        )
        self.assertEqual(manifest.version_scheme, VERSION_SCHEMES["major.minor"])
        self.assertEqual(manifest.grammar.namespace, "quill")
        (entry,) = manifest.entries
        self.assertEqual(
            entry[:6], ("a", "1.0", "docs/a.md", "https://docs.quill.example/1.0/a", "approved", sha(TEXT))
        )
        self.assertEqual(entry.written, tuple(sorted(self.good)))
        self.assertEqual(entry.document_revision, hashlib.sha256(canonical_json(self.good).encode()).hexdigest())

    def test_the_revision_hashes_the_entry_as_written(self) -> None:
        """Guards against a default filled in being hashed as if written: an entry without ``status``
        and one that writes ``"status": "approved"`` load alike but are two revisions."""
        short = {key: value for key, value in self.good.items() if key not in ("status", "url")}
        revisions = []
        for written in (short, {**short, "status": "approved"}):
            self.write([written])
            (entry,) = read_manifest(self.manifest).entries
            self.assertEqual((entry.status, entry.url), ("approved", None))
            self.assertEqual(entry.document_revision, hashlib.sha256(canonical_json(written).encode()).hexdigest())
            revisions.append(entry.document_revision)
        self.assertNotEqual(*revisions)

    def test_manifest_not_utf8_reports_the_byte_offset(self) -> None:
        """Guards against a non-UTF-8 manifest being decoded loosely or failing untyped."""
        prefix = b'{"documents": [{"source_id": "caf'
        cases = {
            "latin-1 in a string": (prefix + b"\xe9" + b'"}]}', len(prefix)),
            "first byte": (b"\xff" + b'{"documents": []}', 0),
            "UTF-16 with BOM": ('{"documents": []}'.encode("utf-16"), 0),
            "BOM then a lone continuation byte": (BOM + b'{"documents": []\x80}', len(BOM) + 16),
            "truncated multibyte at the end": (b'{"documents": []}\xe2\x82', 17),
            "encoded surrogate": (b'{"a": "\xed\xa0\x80"}', 7),
        }
        for name, (raw, offset) in cases.items():
            with self.subTest(name):
                self.write(raw=raw)
                error = self.refused("manifest_not_utf8")
                self.assertEqual(str(error), f"{self.manifest}: invalid UTF-8 at byte {offset}")

    def test_manifest_not_json_reports_line_and_column(self) -> None:
        """Guards against a JSON error without a position the user can jump to."""
        cases = {
            # line 3 is '    {,}': '{' is column 5, the stray ',' column 6
            "stray comma": (
                '{\n  "documents": [\n    {,}\n  ]\n}\n',
                3,
                6,
                "Expecting property name enclosed in double quotes",
            ),
            "missing comma": ('{"documents": [] "x": 1}', 1, 18, "Expecting ',' delimiter"),
            "empty file": ("", 1, 1, "Expecting value"),
            "single quotes": ("{'documents': []}", 1, 2, "Expecting property name enclosed in double quotes"),
            "truncated": ('{"documents": [\n', 2, 1, "Expecting value"),
            "trailing text": ("{}\nx", 2, 1, "Extra data"),
            # a BOM is not part of the text, so it does not shift columns
            "BOM, error on line 1": ("\ufeff{,", 1, 2, "Expecting property name enclosed in double quotes"),
            "BOM, error on line 2": ("\ufeff{\n,", 2, 1, "Expecting property name enclosed in double quotes"),
            "two BOMs": ("\ufeff\ufeff{}", 1, 1, "Unexpected UTF-8 BOM (decode using utf-8-sig)"),
            # a trailing comma, the mistake hand-edited JSON makes most: the message says which one
            "trailing comma in an object": (
                '{"documents": [],\n}',
                2,
                1,
                "Expecting property name enclosed "
                "in double quotes (JSON allows no trailing comma: remove the comma "
                "at 1:17)",
            ),
            "trailing comma in a list": (
                '{"documents": [\n  {},\n  ]}',
                3,
                3,
                "Expecting value (JSON allows no trailing comma: remove the comma at 2:5)",
            ),
        }
        for name, (text, line, column, message) in cases.items():
            with self.subTest(name):
                self.write(raw=text.encode("utf-8"))
                error = self.refused("manifest_not_json")
                self.assertEqual((error.line, error.column), (line, column))
                self.assertEqual(str(error), f"{self.manifest}:{line}:{column}: {message}")

    def test_json_python_cannot_hold_is_refused(self) -> None:
        """Regression: deep nesting raised RecursionError and a 5000-digit number ValueError, untyped."""
        self.write(text="[" * 100_000)
        error = self.refused("invalid_manifest")
        self.assertEqual(str(error), f"{self.manifest}: JSON nesting is too deep for a manifest")
        if not hasattr(sys, "get_int_max_str_digits"):  # Pythons before the 4300-digit limit hold it
            return
        self.write(text='{"documents": ' + "7" * 5000 + "}")
        error = self.refused("invalid_manifest")
        self.assertTrue(str(error).startswith(f"{self.manifest}: unsupported JSON value ("), str(error))
        self.assertLess(len(str(error)), 200)

    def test_manifest_that_cannot_be_read(self) -> None:
        """Guards against an untyped OSError (or a hang) when the manifest itself cannot be read."""
        os.mkfifo(self.root / "pipe.json")
        os.symlink("absent.json", self.root / "dangling.json")
        cases = {
            "absent.json": "file does not exist",
            "dangling.json": "file does not exist",
            "docs": "not a regular file",
            "pipe.json": "not a regular file",
            "docs/a.md/manifest.json": "file does not exist",
        }
        for name, detail in cases.items():
            with self.subTest(name):
                path = self.root / name
                with self.assertRaises(IngestionError) as caught:
                    read_manifest(path)
                error = caught.exception
                self.assertEqual((error.reason, error.path, error.pointer), ("manifest_unreadable", str(path), None))
                self.assertEqual(str(error), f"{path}: {detail}")

    def test_a_folder_holding_a_manifest_is_named_with_it(self) -> None:
        """Guards against ``--manifest docs`` saying only "not a regular file" when docs/manifest.json is
        there (found by a newcomer)."""
        (self.root / "site").mkdir()
        (self.root / "site" / "manifest.json").write_text("{}", encoding="utf-8")
        with self.assertRaises(IngestionError) as caught:
            read_manifest(self.root / "site")
        self.assertEqual(caught.exception.reason, "manifest_unreadable")
        self.assertEqual(
            str(caught.exception),
            f"{self.root / 'site'}: a folder, not a manifest file (did you mean "
            f"{self.root / 'site' / 'manifest.json'}?)",
        )
        self.addCleanup(os.chdir, os.getcwd())
        os.chdir(self.root)
        with self.assertRaises(IngestionError) as caught:  # as --answer - reads stdin
            read_manifest("-")
        self.assertEqual(
            str(caught.exception),
            "-: file does not exist (a manifest is read from its file, never from standard input)",
        )

    def test_manifest_path_is_escaped_in_messages(self) -> None:
        """Regression: a manifest path with a newline was echoed raw, so the message spanned two lines."""
        path = self.root / "odd\nname.json"
        with self.assertRaises(IngestionError) as caught:
            read_manifest(path)
        self.assertEqual(caught.exception.path, str(path))
        self.assertEqual(str(caught.exception), f"{self.root}/odd\\nname.json: file does not exist")

    def test_manifest_over_the_size_limit_is_refused(self) -> None:
        """Guards against reading an arbitrarily large manifest into memory (the real cap, sparse files)."""
        for size, reason in (
            (MAX_MANIFEST_BYTES, "manifest_not_json"),
            (MAX_MANIFEST_BYTES + 1, "manifest_unreadable"),
        ):
            with open(self.manifest, "wb") as handle:
                handle.truncate(size)  # zero bytes: read in full at the limit, refused unread past it
            with self.subTest(size=size):
                error = self.refused(reason)
        self.assertEqual(
            str(error), f"{self.manifest}: {MAX_MANIFEST_BYTES + 1} bytes is over the {MAX_MANIFEST_BYTES}-byte limit"
        )

    @unittest.skipIf(IS_ROOT, "running as root: chmod 000 does not stop root from reading")
    def test_unreadable_manifest(self) -> None:
        """Guards against an untyped PermissionError for a manifest the user cannot read."""
        self.write([self.good])
        self.manifest.chmod(0)
        self.addCleanup(self.manifest.chmod, stat.S_IRUSR | stat.S_IWUSR)
        error = self.refused("manifest_unreadable")
        self.assertEqual(str(error), f"{self.manifest}: cannot open: Permission denied")

    def test_open_refused_by_the_system(self) -> None:
        """Guards against an untyped OSError when opening fails (simulated, so it runs as root too)."""
        self.write([self.good])
        real_open = os.open

        def denied(path: Any, *args: Any, **kwargs: Any) -> int:
            if os.fsdecode(path) == str(self.manifest):
                raise PermissionError(13, "Permission denied")
            return real_open(path, *args, **kwargs)

        with mock.patch.object(os, "open", denied), self.assertRaises(IngestionError) as caught:
            read_manifest(self.manifest)
        self.assertEqual(caught.exception.reason, "manifest_unreadable")
        self.assertEqual(str(caught.exception), f"{self.manifest}: cannot open: Permission denied")

    def test_a_bom_before_the_json_is_accepted(self) -> None:
        """Guards against refusing a manifest an editor saved with a UTF-8 BOM."""
        self.write(raw=BOM + json.dumps(self.document([self.good])).encode())
        self.assertEqual([e.source_id for e in read_manifest(self.manifest).entries], ["a"])

    def test_a_symlinked_manifest_is_rooted_at_its_real_folder(self) -> None:
        """Guards against resolving entry paths against the folder of the link instead of the real file."""
        self.write([self.good])
        elsewhere = self.base / "elsewhere"
        elsewhere.mkdir()
        link = elsewhere / "manifest.json"
        os.symlink(self.manifest, link)
        manifest = read_manifest(link)
        self.assertEqual(
            (manifest.path, manifest.real_path, manifest.root), (str(link), str(self.manifest), str(self.root))
        )
        relative = read_manifest(os.path.relpath(link))
        self.assertEqual((relative.path, relative.root), (os.path.relpath(link), str(self.root)))


class ManifestShapeTest(ManifestCase):
    def test_shape_errors_are_invalid_manifest(self) -> None:
        """Guards against a manifest of the wrong shape being half-read or failing untyped."""
        good = self.good
        cases: dict[str, tuple[Any, str, str | None, str]] = {
            # name: (data, pointer, source_id, detail)
            "top level is a list": (
                [good],
                "",
                None,
                "the manifest must be an object with grammar, version_scheme and documents",
            ),
            "top level is a string": ("documents", "", None, "the manifest must be an object"),
            "top level is null": (None, "", None, "the manifest must be an object"),
            "unknown top-level key": (
                self.document([good], version="1.0"),
                "/version",
                None,
                "unknown top-level key 'version' (a manifest has grammar, "
                "version_scheme, renderer, sources, readings, readings_sha256, documents)",
            ),
            "documents missing": (
                {"grammar": QUILL_GRAMMAR, "version_scheme": "major.minor"},
                "/documents",
                None,
                "'documents' must be a list",
            ),
            "documents is an object": (self.document({"a": good}), "/documents", None, "'documents' must be a list"),
            "documents is null": (self.document(None), "/documents", None, "'documents' must be a list"),
            "entry is a list": (
                self.document([list(good.values())]),
                "/documents/0",
                None,
                "an entry must be an object",
            ),
            "entry is a string": (
                self.document([good, "docs/a.md"]),
                "/documents/1",
                None,
                "an entry must be an object",
            ),
            "entry is null": (self.document([None]), "/documents/0", None, "an entry must be an object"),
            "unknown entry key": (
                self.document([dict(good, sha="x")]),
                "/documents/0/sha",
                "a",
                "unknown key 'sha' (an entry has source_id, version, path, url, status, sha256, built)",
            ),
            "entry key in the wrong case": (
                self.document([{**{k: v for k, v in good.items() if k != "path"}, "Path": "docs/a.md"}]),
                "/documents/0/Path",
                "a",
                "unknown key 'Path'",
            ),
            "url is null": (self.document([dict(good, url=None)]), "/documents/0/url", "a", "url must be a string"),
        }
        for key in ("source_id", "version", "path", "sha256"):
            without = {k: v for k, v in good.items() if k != key}
            sid = None if key == "source_id" else "a"
            cases[f"missing {key}"] = (self.document([without]), f"/documents/0/{key}", sid, f"missing {key!r}")
        for key in ("source_id", "version", "path", "url", "status", "sha256"):
            sid = None if key == "source_id" else "a"
            for label, value in (
                ("a number", 1),
                ("null", None),
                ("a list", ["x"]),
                ("a boolean", True),
                ("an object", {"x": "y"}),
            ):
                cases[f"{key} is {label}"] = (
                    self.document([dict(good, **{key: value})]),
                    f"/documents/0/{key}",
                    sid,
                    f"{key} must be a string",
                )
        for name, (data, pointer, sid, detail) in cases.items():
            with self.subTest(name):
                self.write(data=data)
                error = self.refused("invalid_manifest", pointer=pointer, source_id=sid)
                where = f"{self.manifest} at {pointer or '/'}"
                head = f"source {sid!r} ({where}): " if sid else f"{where}: "
                self.assertTrue(str(error).startswith(head + detail), str(error))

    def test_a_missing_pin_says_how_to_write_an_unpinned_entry(self) -> None:
        """Guards against `pin` answering a hand-written entry without "sha256" with only "missing 'sha256'"
        (a newcomer's finding): pin is the command that fills pins in, so the message says what to write."""
        self.write(data=self.document([{k: v for k, v in self.good.items() if k != "sha256"}]))
        error = self.refused("invalid_manifest", pointer="/documents/0/sha256", source_id="a")
        self.assertIn('"sha256": ""', str(error))
        self.assertIn("pin", str(error))

    def test_duplicate_json_keys_are_refused(self) -> None:
        """Guards against json's last-key-wins silently picking one of two values."""
        entry = json.dumps(self.good)[1:-1]
        grammar = json.dumps(QUILL_GRAMMAR)
        cases = {
            "top-level key": (
                '{"grammar": %s, "version_scheme": "label", "version_scheme": "major.minor", '
                '"documents": [{%s}]}' % (grammar, entry),
                "version_scheme",
            ),
            # the first "path" names a real file: without the guard the entry would read
            "entry key": (
                '{"grammar": %s, "version_scheme": "major.minor", '
                '"documents": [{"path": "docs/other.md", %s}]}' % (grammar, entry),
                "path",
            ),
            "grammar key": (
                '{"grammar": {"namespace": "acme", %s, "version_scheme": "major.minor", '
                '"documents": [{%s}]}' % (grammar[1:-1], entry),
                "namespace",
            ),
            "rule key": (
                '{"grammar": {"namespace": "quill", "product": "Quill", "operations": '
                '{"create_copy": {"existing_path": {"type": "enum", "values": ["refuse"], '
                '"values": ["overwrite"]}}}}, "version_scheme": "major.minor", '
                '"documents": [{%s}]}' % entry,
                "values",
            ),
        }
        self.put("docs/other.md")
        for name, (text, key) in cases.items():
            with self.subTest(name):
                self.write(text=text)
                error = self.refused("invalid_manifest")
                self.assertEqual(str(error), f"{self.manifest}: duplicate key {key!r}")

    def test_lone_surrogates_are_refused(self) -> None:
        """Regression: a '\\ud800' escape in a field escaped as an untyped UnicodeEncodeError."""
        values = {
            "source_id": "a\ud800",
            "version": "1.0\ud800",
            "path": "docs/\udcff.md",
            "url": "https://x/\ud800",
            "status": "draft\udfff",
            "sha256": sha(TEXT)[:-1] + "\ud800",
        }
        for key, value in values.items():
            with self.subTest(key):
                self.write([dict(self.good, **{key: value})])
                sid = None if key == "source_id" else "a"
                error = self.refused("invalid_manifest", pointer=f"/documents/0/{key}", source_id=sid)
                self.assertTrue(str(error).endswith(f"{key} holds a lone surrogate"), str(error))
        with self.subTest("a key"):
            self.write([{**self.good, "\ud800": "x"}])
            error = self.refused("invalid_manifest", pointer="/documents/0/\ud800", source_id="a")
            self.assertIn("at /documents/0/\\ud800): unknown key '\\ud800'", str(error))

    def test_version_scheme_missing_or_unknown(self) -> None:
        """Guards against guessing a scheme: missing, misspelt or non-string is invalid_version_scheme."""
        cases = {
            "missing": (_UNSET, "got None"),
            "null": (None, "got None"),
            "upper case": ("SemVer", "got 'SemVer'"),
            "with a space": ("semver ", "got 'semver '"),
            "unknown": ("pep440", "got 'pep440'"),
            "empty": ("", "got ''"),
            "a number": (1, "got 1"),
            "with a newline": ("semver\n", "got 'semver\\n'"),
        }
        for name, (scheme, detail) in cases.items():
            with self.subTest(name):
                data = self.document([self.good])
                if scheme is _UNSET:
                    del data["version_scheme"]
                else:
                    data["version_scheme"] = scheme
                self.write(data=data)
                error = self.refused("invalid_version_scheme", pointer="/version_scheme")
                self.assertEqual(
                    str(error),
                    f"{self.manifest} at /version_scheme: version_scheme must be "
                    f"one of major.minor, semver, calver, label, {detail}",
                )

    def test_renderer_missing_or_unknown(self) -> None:
        """Issue 15: ``"renderer"`` names how the site renders its pages; absent it is ``portable`` (issue 16; ``commonmark`` before);
        misspelt, of another case, empty or not a string it is ``invalid_renderer`` at ``/renderer``,
        never a guess."""
        data = self.document([self.good])
        self.write(data=data)
        self.assertEqual(read_manifest(self.manifest).renderer.name, "portable")
        for name in RENDERERS:
            with self.subTest(name=name):
                self.write(data=dict(data, renderer=name))
                self.assertEqual(read_manifest(self.manifest).renderer.name, name)
        cases = {
            "unknown": "gitlab",
            "upper case": "GitHub",
            "with a space": "github ",
            "empty": "",
            "a number": 1,
            "null": None,
            "a list": ["github"],
            "a site name": "readthedocs",
        }
        for case, value in cases.items():
            with self.subTest(case):
                self.write(data=dict(data, renderer=value))
                error = self.refused("invalid_renderer", pointer="/renderer")
                self.assertEqual(
                    str(error),
                    f"{self.manifest} at /renderer: renderer must be one of "
                    f"{', '.join(RENDERERS)} (how the site renders its pages; leave it "
                    f"out for portable), got {value!r}",
                )

    def test_version_scheme_of_an_unhashable_type_is_refused(self) -> None:
        """Regression: ``"version_scheme": ["semver"]`` (or an object) raised an untyped TypeError.

        The scheme is looked up in a mapping; a list or object is unhashable,
        so the lookup itself failed before the typed refusal was reached.
        """
        for scheme in (["semver"], {"name": "semver"}):
            with self.subTest(scheme=scheme):
                self.write(data=self.document([self.good], version_scheme=scheme))
                self.refused("invalid_version_scheme", pointer="/version_scheme")

    def test_grammar_problems_are_grammar_errors(self) -> None:
        """Guards against a bad grammar being reported as a manifest shape error (or not at all)."""
        cases = {
            "missing": (_UNSET, "missing_grammar", "/grammar"),
            "null": (None, "missing_grammar", "/grammar"),
            "a string": ("quill", "invalid_grammar", "/grammar"),
            "bad value": (
                {
                    **QUILL_GRAMMAR,
                    "operations": {"create_copy": {"existing_path": {"type": "enum", "values": ["refuse", "re fuse"]}}},
                },
                "invalid_value_rule",
                "/grammar/operations/create_copy/existing_path/values/1",
            ),
        }
        for name, (grammar, reason, pointer) in cases.items():
            with self.subTest(name):
                data = self.document([self.good])
                if grammar is _UNSET:
                    del data["grammar"]
                else:
                    data["grammar"] = grammar
                self.write(data=data)
                error = self.refused(reason, pointer=pointer, error_type=GrammarError)
                self.assertTrue(str(error).startswith(f"{self.manifest} at {pointer}: "), str(error))

    def test_checks_come_in_the_documented_order(self) -> None:
        """Guards against a later entry's problem hiding an earlier one, or the grammar hiding the shape."""
        cases = {
            "unknown top-level key before the grammar": (
                {"documents": [], "extra": 1},
                IngestionError,
                "invalid_manifest",
                "/extra",
            ),
            "grammar before the version scheme": (
                {"version_scheme": "nope", "documents": []},
                GrammarError,
                "missing_grammar",
                "/grammar",
            ),
            "version scheme before the documents": (
                {"grammar": QUILL_GRAMMAR, "version_scheme": "nope", "documents": "x"},
                IngestionError,
                "invalid_version_scheme",
                "/version_scheme",
            ),
            "first entry first": (
                self.document([dict(self.good, version="x"), dict(self.entry("b", "docs/b.md"), sha256="x")]),
                IngestionError,
                "invalid_version",
                "/documents/0/version",
            ),
            "within an entry, version before status before url before sha256 before path": (
                self.document([dict(self.good, version="x", status="x", url="", sha256="x", path="/x")]),
                IngestionError,
                "invalid_version",
                "/documents/0/version",
            ),
        }
        for name, (data, error_type, reason, pointer) in cases.items():
            with self.subTest(name):
                self.write(data=data)
                with self.assertRaises(error_type) as caught:
                    read_manifest(self.manifest)
                self.assertEqual((caught.exception.reason, caught.exception.pointer), (reason, pointer))


class EntryTest(ManifestCase):
    def test_source_ids(self) -> None:
        """Guards against ids that break a citation ``[source: id:line]`` or forge terminal output."""
        valid = ["a", "A", "0", "quill-guide", "guide/v1.x_y-z", "1.0", "a" * 200, "Guide_2"]
        for sid in valid:
            with self.subTest(valid=sid):
                self.write([dict(self.good, source_id=sid)])
                self.assertEqual(read_manifest(self.manifest).entries[0].source_id, sid)
        invalid = {
            "newline": "a\nb",
            "terminal escape": "a\x1b[2J",
            "space": "a b",
            "colon": "a:b",
            "empty": "",
            "leading slash": "/a",
            "leading dot": ".a",
            "leading hyphen": "-a",
            "leading underscore": "_a",
            "bracket": "a]",
            "non-ASCII letter": "caf\u00e9",
            "fullwidth letter": "\uff41",
            "tab": "a\tb",
            "201 characters": "a" * 201,
            "trailing newline": "a\n",
            "line separator": "a\u2028b",
            "NUL": "a\x00",
            "DEL": "a\x7f",
            "bidi override": "a\u202eb",
            "backslash": "a\\b",
            "at sign": "a@b",
        }
        for name, sid in invalid.items():
            with self.subTest(invalid=name):
                self.write([dict(self.good, source_id=sid)])
                error = self.refused("invalid_source_id", pointer="/documents/0/source_id")
                # repr() escapes what is not printable, so the id is shown, never acted on
                self.assertEqual(
                    str(error),
                    f"{self.manifest} at /documents/0/source_id: source_id "
                    f"{sid!r} is not ASCII letters, digits, '.', '_', '-', '/' "
                    "starting with a letter or digit (at most 200)",
                )

    def test_a_bad_source_id_is_never_used_as_a_label(self) -> None:
        """Guards against echoing an invalid id as the ``source_id`` of an error about another field."""
        self.write([dict(self.good, source_id="a\x1b[2J", version="x")])
        self.refused("invalid_source_id", pointer="/documents/0/source_id")
        self.write([dict(self.good, source_id="a b", extra="1")])
        self.refused("invalid_manifest", pointer="/documents/0/extra")

    def test_status(self) -> None:
        """Guards against an unknown status being treated as approved (or as a draft)."""
        for status in ("approved", "draft", "deprecated"):
            with self.subTest(valid=status):
                self.write([dict(self.good, status=status)])
                self.assertEqual(read_manifest(self.manifest).entries[0].status, status)
        self.write([self.good])
        self.assertEqual(read_manifest(self.manifest).entries[0].status, "approved")
        for status in ("Approved", "APPROVED", "published", "", " draft", "draft\n", "approved\x1b"):
            with self.subTest(invalid=status):
                self.write([dict(self.good, status=status)])
                error = self.refused("invalid_status", pointer="/documents/0/status", source_id="a")
                self.assertTrue(
                    str(error).endswith(f"status {status!r} is not one of approved, draft, deprecated"), str(error)
                )

    def test_url_is_optional(self) -> None:
        """Guards against a missing url failing the entry (it is optional; omitted means None)."""
        self.write([{k: v for k, v in self.good.items() if k != "url"}])
        entry = read_manifest(self.manifest).entries[0]
        self.assertIsNone(entry.url)
        self.assertNotIn("url", entry.written)
        for url in ("https://docs.quill.example/1.0/a", "x", "h" * 2048, "https://d.example/caf\u00e9?q=1#f"):
            with self.subTest(valid=url[:40]):
                self.write([dict(self.good, url=url)])
                self.assertEqual(read_manifest(self.manifest).entries[0].url, url)

    def test_bad_urls(self) -> None:
        """Guards against a url that is empty, huge, or would break a line in a message or citation."""
        cases = {
            "empty": "",
            "space": "https://x y",
            "leading space": " https://x",
            "newline": "https://x\n",
            "tab": "https://x\t",
            "escape": "https://x\x1b[2J",
            "C1 control": "https://x\x85",
            "line separator": "https://x\u2028",
            "no-break space": "https://x\u00a0y",
            "zero-width space": "https://x\u200by",
            "bidi override": "https://x\u202e",
            "2049 characters": "h" * 2049,
        }
        for name, url in cases.items():
            with self.subTest(name):
                self.write([dict(self.good, url=url)])
                error = self.refused("invalid_url", pointer="/documents/0/url", source_id="a")
                self.assertTrue(
                    str(error).endswith("url must be 1-2048 printable characters without whitespace (omit it for none)")
                )

    def test_malformed_sha256_is_invalid_sha256(self) -> None:
        """Guards against a pin in the wrong format being compared (and reported as hash_mismatch).

        Every pin below is the file's own digest, only written wrongly.
        """
        digest = sha(TEXT)
        letter = next(c for c in digest if c.isalpha())
        cases = {
            "prefixed": "sha256:" + digest,
            "leading space": " " + digest,
            "trailing space": digest + " ",
            "trailing newline": digest + "\n",
            "truncated by one": digest[:-1],
            "half": digest[:32],
            "upper case": digest.upper(),
            "one upper-case letter": digest.replace(letter, letter.upper(), 1),
            "one extra digit": digest + "0",
            "empty": "",
            "0x prefix": "0x" + digest[2:],
            "fullwidth digits": digest.translate({ord(d): 0xFF10 + int(d) for d in "0123456789"}),
        }
        for name, pin in cases.items():
            with self.subTest(name):
                self.write([dict(self.good, sha256=pin)])
                error = self.refused("invalid_sha256", pointer="/documents/0/sha256", source_id="a")
                self.assertIn("sha256 must be 64 lowercase hex characters, got ", str(error))
                if pin.isprintable():
                    self.assertTrue(str(error).endswith(f"got {pin!r}"), str(error))

    def test_unpinned_entries_only_for_pin(self) -> None:
        """Guards against ``pin`` treating a malformed pin as 'not pinned yet' and overwriting it."""
        self.write([dict(self.good, sha256="")])
        self.assertEqual(read_manifest(self.manifest, require_pins=False).entries[0].sha256, "")
        self.refused("invalid_sha256", pointer="/documents/0/sha256", source_id="a")
        for pin in ("sha256:", " ", "0"):
            with self.subTest(pin=pin):
                self.write([dict(self.good, sha256=pin)])
                self.refused("invalid_sha256", pointer="/documents/0/sha256", source_id="a", require_pins=False)

    def test_unsafe_paths_are_invalid_path(self) -> None:
        """Guards against paths that are absolute, climb with '..', or are written ambiguously.

        Each unsafe path names a real file inside the root (created below), so
        without the text check it would be read.
        """
        for odd in ("docs\\a.md", "docs/a\n.md", "docs/a\t.md", "docs/a\x1b.md", "docs/a\x7f.md", "docs/a\x85.md"):
            self.put(odd)
        cases = {
            "empty": ("", "path is empty"),
            "absolute": (str(self.root / "docs" / "a.md"), "path is absolute"),
            "'..' that comes back inside": (f"../{self.root.name}/docs/a.md", "path contains '..'"),
            "'..' in the middle": ("docs/../docs/a.md", "path contains '..'"),
            "trailing '..'": ("docs/..", "path contains '..'"),
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
            "C1 control NEL": ("docs/a\x85.md", "path contains a control character"),
        }
        for name, (path, detail) in cases.items():
            with self.subTest(name):
                self.write([dict(self.good, path=path)])
                error = self.refused("invalid_path", pointer="/documents/0/path", source_id="a")
                self.assertEqual(str(error), f"source 'a' ({self.manifest} at /documents/0/path): {detail}")

    def test_duplicate_source_id(self) -> None:
        """Guards against a second entry silently replacing the first in the corpus."""
        self.put("docs/b.md", TEXT + b"\n")
        self.write([self.good, self.entry("a", "docs/b.md", TEXT + b"\n")])
        error = self.refused("duplicate_source_id", pointer="/documents/1/source_id", source_id="a")
        self.assertEqual(str(error), f"source 'a' ({self.manifest} at /documents/1/source_id): source_id is used twice")

    def test_duplicate_path(self) -> None:
        """Guards against one file counted as two agreeing sources (same path text)."""
        self.write([self.good, self.entry("b", "docs/a.md")])
        error = self.refused("duplicate_path", pointer="/documents/1/path", source_id="b")
        self.assertEqual(
            str(error), f"source 'b' ({self.manifest} at /documents/1/path): path 'docs/a.md' is also used by 'a'"
        )

    def test_a_later_bad_entry_is_found_before_any_source_is_opened(self) -> None:
        """Guards against reading early sources before the whole manifest is validated."""
        self.write([self.good, dict(self.entry("b", "docs/b.md"), sha256="nope")])
        self.refused("invalid_sha256", pointer="/documents/1/sha256", source_id="b")

    def test_versions_are_checked_against_the_scheme_when_loaded(self) -> None:
        """Guards against a version that fits no scheme being accepted (then silently never eligible)."""
        cases = {
            "major.minor": ("2.13", ["1.0.0", "01.0", "1", "v1.0", "1.0 ", "\uff11.0"]),
            "semver": ("2.1.0-beta.2", ["1.0", "1.0.0+build.5", "01.0.0", "1.0.0-01", "1.0.0-"]),
            "calver": ("2024-02-29", ["2024-02-30", "2023-02-29", "2024-13-01", "2024-6-01", "1.0"]),
            "label": ("stable_2", ["", "-x", "a b", "a/b", "caf\u00e9", "v" * 65]),
        }
        for scheme, (good_version, bad_versions) in cases.items():
            with self.subTest(scheme=scheme, version=good_version):
                self.write([self.good, dict(self.entry("b", "docs/b.md"), version=good_version)], version_scheme=scheme)
                if scheme == "major.minor":
                    self.assertEqual(read_manifest(self.manifest).entries[1].version, good_version)
            for version in bad_versions:
                with self.subTest(scheme=scheme, version=version):
                    first = dict(self.good, version=VERSION_SCHEMES[scheme].examples[0])
                    self.write([first, dict(self.entry("b", "docs/b.md"), version=version)], version_scheme=scheme)
                    error = self.refused("invalid_version", pointer="/documents/1/version", source_id="b")
                    description = VERSION_SCHEMES[scheme].description
                    self.assertIn(
                        f"version {version!r} does not fit the version scheme {scheme!r} ({description}; e.g. ",
                        str(error),
                    )

    def test_messages_are_one_printable_line(self) -> None:
        """Guards against a manifest value forging a line (or a colour change) on the user's terminal."""
        hostile = "x\n\x1b[31mFAKE\u2028\u202e"
        cases = {
            "source_id": ("invalid_source_id", dict(self.good, source_id=hostile)),
            "version": ("invalid_version", dict(self.good, version=hostile)),
            "status": ("invalid_status", dict(self.good, status=hostile)),
            "url": ("invalid_url", dict(self.good, url=hostile)),
            "sha256": ("invalid_sha256", dict(self.good, sha256=hostile)),
            "path": ("invalid_path", dict(self.good, path=hostile)),
            "entry key": ("invalid_manifest", {**self.good, hostile: "x"}),
        }
        for name, (reason, entry) in cases.items():
            with self.subTest(name):
                self.write([entry])
                with self.assertRaises(IngestionError) as caught:
                    read_manifest(self.manifest)
                self.assertEqual(caught.exception.reason, reason)
                message = str(caught.exception)
                self.assertTrue(message.isprintable(), repr(message))
                self.assertNotIn("\x1b", message)
        with self.subTest("version_scheme"):
            self.write([self.good], version_scheme=hostile)
            with self.assertRaises(IngestionError) as caught:
                read_manifest(self.manifest)
            self.assertTrue(str(caught.exception).isprintable(), repr(str(caught.exception)))


class DocumentRevisionTest(ManifestCase):
    def test_the_lab_revision_is_unchanged(self) -> None:
        """Guards against a revision formula change: the lab's quill-guide revision is fixed."""
        entry = next(e for e in read_manifest(FIXTURE_MANIFEST).entries if e.source_id == "quill-guide")
        self.assertEqual(entry.document_revision, "7be6393bdb1ca28cb06e3ad551e817f16a56dc3f3d92478f71c462f179e3cfc0")

    def test_revision_is_the_entry_as_written_in_canonical_json(self) -> None:
        """Guards against a revision that depends on layout or key order, or ignores a field."""
        reordered = dict(reversed(list(self.good.items())))
        self.write(raw=json.dumps(self.document([reordered]), indent=7).encode())
        revision = read_manifest(self.manifest).entries[0].document_revision
        self.assertEqual(revision, canonical_revision(self.good))
        self.write([self.good])
        self.assertEqual(read_manifest(self.manifest).entries[0].document_revision, revision)
        changed = {
            "source_id": dict(self.good, source_id="b"),
            "version": dict(self.good, version="1.1"),
            "path": dict(self.good, path="docs/b.md"),
            "url": dict(self.good, url="https://docs.quill.example/other"),
            "url omitted": {k: v for k, v in self.good.items() if k != "url"},
            "status written out": dict(self.good, status="approved"),
            "status draft": dict(self.good, status="draft"),
            "sha256": dict(self.good, sha256="0" * 64),
        }
        for name, entry in changed.items():
            with self.subTest(name):
                self.write([entry])
                new = read_manifest(self.manifest).entries[0].document_revision
                self.assertNotEqual(new, revision)
                self.assertEqual(new, canonical_revision(entry))

    def test_non_ascii_is_hashed_as_utf8(self) -> None:
        """Guards against hashing ``\\u`` escapes: the canonical JSON is UTF-8 text."""
        entry = dict(self.good, url="https://docs.quill.example/caf\u00e9")
        self.write([entry])
        revision = read_manifest(self.manifest).entries[0].document_revision
        expected = hashlib.sha256(
            (
                '{"path":"docs/a.md","sha256":"%s","source_id":"a",'
                '"url":"https://docs.quill.example/caf\u00e9","version":"1.0"}' % sha(TEXT)
            ).encode("utf-8")
        ).hexdigest()
        self.assertEqual(revision, expected)

    def test_written_entry_is_read_only(self) -> None:
        """Guards against a caller editing the entry its revision is computed from."""
        self.write([self.good])
        entry = read_manifest(self.manifest).entries[0]
        with self.assertRaises(TypeError):
            entry.written["url"] = "https://evil.example"  # type: ignore[index]


class PlainEntriesTest(unittest.TestCase):
    """The column-by-column check of plainly valid entries against the entry-by-entry one."""

    def test_the_fast_check_accepts_only_what_the_full_check_accepts(self) -> None:
        """Guards against the fast path (every entry checked one column at a time, used when all are
        plain) taking an entry the full check refuses, or making another entry of it."""
        import random

        rng = random.Random(20261201)
        scheme = VERSION_SCHEMES["major.minor"]
        values: dict[str, list[Any]] = {
            "source_id": ["a", "guide-1", "x/y", "", "-a", "caf\u00e9", "a b", "a" * 201, 7],
            "version": ["1.0", "2.10", "1.0 ", "01.0", "\uff11.0", "", None],
            "path": [
                "docs/a.md",
                "b.md",
                "docs/../a.md",
                "./a.md",
                "/a.md",
                "a\\b.md",
                "d//a.md",
                "a\tb.md",
                "caf\u00e9.md",
                "docs/",
                "",
            ],
            "url": [
                "https://docs.example/a",
                "https://d.example/\u00e9",
                "a b",
                "x" * 2049,
                "",
                "h\u2028",
                "https://e.example/\x85",
                3,
                None,  # a URL written as null: no string (the fast path counts the URLs given)
                "a\x7fb",
                "h\x1cb",
                "x" * 2048,
                "!~",
            ],
            "sha256": [
                hashlib.sha256(b"a").hexdigest(),
                hashlib.sha256(b"a").hexdigest().upper(),
                "",
                "0" * 63,
                "0" * 65,
                "0" * 128,
                "g" * 64,
                "\u00e9" * 64,
                None,
            ],
            "status": ["approved", "draft", "deprecated", "Approved", "", None, ["approved"]],
        }
        fast_taken = 0
        for _ in range(3000):
            documents: list[Any] = []
            for index in range(rng.randint(1, 4)):
                entry: dict[str, Any] = {
                    key: rng.choice(options) if rng.random() < 0.3 else options[0] for key, options in values.items()
                }
                if entry["source_id"] == "a":
                    entry["source_id"] = f"s{index}"
                if entry["path"] == "docs/a.md":
                    entry["path"] = f"docs/p{index}.md"
                for key in ("url", "status") if rng.random() < 0.3 else ():
                    del entry[key]
                if rng.random() < 0.05:
                    entry["extra"] = "x"
                if rng.random() < 0.2:  # another key order (the fast path checks each order once)
                    keys = list(entry)
                    rng.shuffle(keys)
                    entry = {key: entry[key] for key in keys}
                documents.append(entry)
            if rng.random() < 0.1:  # a repeated id, path or both
                again = dict(documents[0])
                field = rng.choice(["source_id", "path", None])
                if field is not None:
                    again[field] = f"{again[field]}-again" if field == "source_id" else "docs/again.md"
                documents.append(again)
            for require_pins in (True, False):
                fast = manifest_module._all_plain(documents, scheme, require_pins)
                if fast is None:
                    continue
                fast_taken += 1
                full = manifest_module._check_each(
                    documents,
                    scheme,
                    require_pins,
                    lambda detail, *parts, **kw: IngestionError("invalid_manifest", detail),
                )
                self.assertEqual(fast, full, documents)
                self.assertEqual([type(entry) for entry in fast], [type(entry) for entry in full])
        self.assertGreater(fast_taken, 300)  # the fast path was tried, not only refused


class VersionSchemeTest(unittest.TestCase):
    def test_the_schemes(self) -> None:
        """The four schemes, each fitting its own examples."""
        self.assertEqual(list(VERSION_SCHEMES), ["major.minor", "semver", "calver", "label"])
        for name, scheme in VERSION_SCHEMES.items():
            with self.subTest(name):
                self.assertEqual(scheme.name, name)
                self.assertTrue(scheme.examples)
                for example in scheme.examples:
                    self.assertTrue(scheme.fits(example), example)

    def test_fits(self) -> None:
        """Guards against near-miss versions that would only ever match nothing (or the wrong thing)."""
        cases = {
            "major.minor": (
                ["1.0", "0.0", "10.12", "123456789012345678.0"],
                [
                    "01.0",
                    "1.00",
                    "1",
                    "1.",
                    ".0",
                    "1.0.0",
                    " 1.0",
                    "1.0 ",
                    "1.0\n",
                    "\t1.0",
                    "v1.0",
                    "+1.0",
                    "1,0",
                    "1.0-beta",
                    "",
                    "\uff11.0",
                    "\u0661.\u0660",
                    "1.\u0660",
                    "\u00b9.0",
                    "1234567890123456789.0",
                ],
            ),
            "semver": (
                [
                    "1.0.0",
                    "0.0.0",
                    "1.0.0-alpha",
                    "1.0.0-alpha.1",
                    "1.0.0-0.3.7",
                    "1.0.0-x.7.z.92",
                    "1.0.0-x-y-z.--",
                    "1.0.0-0",
                    "1.0.0-0a",
                    "1.0.0-alpha-1",
                    "10.20.30",
                ],
                [
                    "1.0",
                    "1.0.0.0",
                    "01.0.0",
                    "1.01.0",
                    "1.0.01",
                    "1.0.0-01",
                    "1.0.0-00",
                    "1.0.0-",
                    "1.0.0-alpha..1",
                    "1.0.0-alpha.",
                    "1.0.0-alpha_1",
                    "1.0.0+build",
                    "1.0.0-alpha+001",
                    "v1.0.0",
                    "1.0.0 ",
                    "1.0.0-\u03b1",
                    "\uff11.0.0",
                    "",
                ],
            ),
            "calver": (
                ["2024-06-01", "2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"],
                [
                    "2024-02-30",
                    "2023-02-29",
                    "1900-02-29",
                    "2024-13-01",
                    "2024-00-10",
                    "2024-01-00",
                    "2024-04-31",
                    "0000-01-01",
                    "2024-6-01",
                    "2024/06/01",
                    "20240601",
                    "2024-06-01T00",
                    "\uff12024-06-01",
                    "2024-06-01 ",
                    "24-06-01",
                    "",
                ],
            ),
            "label": (
                ["v2", "stable", "2.1-beta", "a_b", "A", "a" * 64],
                ["", "-x", "_x", ".x", "a b", "a/b", "a:b", "caf\u00e9", "a\n", "a" * 65, "v2+1"],
            ),
        }
        for name, (good, bad) in cases.items():
            scheme = VERSION_SCHEMES[name]
            for version in good:
                with self.subTest(scheme=name, fits=version):
                    self.assertTrue(scheme.fits(version))
            for version in bad:
                with self.subTest(scheme=name, does_not_fit=version):
                    self.assertFalse(scheme.fits(version))
            for not_a_string in (1.0, 1, None, b"1.0", ["1.0"]):
                with self.subTest(scheme=name, not_a_string=not_a_string):
                    self.assertFalse(scheme.fits(not_a_string))

    def test_semver_has_no_build_metadata_by_documented_choice(self) -> None:
        """Guards against '+build' sneaking in: two builds of one version would not be equal strings."""
        scheme = VERSION_SCHEMES["semver"]
        self.assertIn("no +build", scheme.description)
        self.assertFalse(scheme.fits("1.0.0+20130313144700"))

    def test_sorted_orders_for_display(self) -> None:
        """Guards against string order (1.10 before 1.2) and SemVer precedence mistakes in reports."""
        semver = VERSION_SCHEMES["semver"]
        # SemVer 2.0 section 11, example list, in order
        spec = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
        ]
        self.assertEqual(semver.sorted(reversed(spec)), spec)
        self.assertEqual(
            semver.sorted(
                ["2.0.0", "1.10.0", "1.2.0", "1.2.0-rc.1", "1.0.0-2", "1.0.0-10", "1.0.0-a", "1.0.0-1.a", "1.0.0-1"]
            ),
            ["1.0.0-1", "1.0.0-1.a", "1.0.0-2", "1.0.0-10", "1.0.0-a", "1.2.0-rc.1", "1.2.0", "1.10.0", "2.0.0"],
        )
        self.assertEqual(
            VERSION_SCHEMES["major.minor"].sorted(["1.10", "1.2", "10.0", "2.0", "1.2"]), ["1.2", "1.10", "2.0", "10.0"]
        )
        self.assertEqual(
            VERSION_SCHEMES["calver"].sorted(["2024-06-01", "2023-12-31", "2024-01-15"]),
            ["2023-12-31", "2024-01-15", "2024-06-01"],
        )
        self.assertEqual(VERSION_SCHEMES["label"].sorted(["stable", "beta", "stable"]), ["beta", "stable"])

    def test_matching_is_exact_string_equality(self) -> None:
        """Guards against normalising versions: '1.0.0-rc.1' stays itself, nothing is merged or rewritten."""
        versions = ["1.0.0-rc.1", "1.0.0-RC.1", "1.0.0"]
        self.assertEqual(sorted(VERSION_SCHEMES["semver"].sorted(versions)), sorted(versions))
        self.assertEqual(VERSION_SCHEMES["label"].sorted(["V2", "v2"]), ["V2", "v2"])


if __name__ == "__main__":
    unittest.main()
