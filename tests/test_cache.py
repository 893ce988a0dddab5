"""The reading cache and the parallel first load: a corpus is the same with and without either.

``CONFLICT_GATE_FUZZ_CACHE`` (default 4; ``.ci/run``: 12) is the number of damaged cache files the fuzz tries per
kind of damage; set it to a few thousand for a long run.
"""

from __future__ import annotations

import errno
import hashlib
import io
import itertools
import json
import multiprocessing
import os
import random
import signal
import threading
import unittest
from collections.abc import Callable
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any
from unittest import mock

from _conflict_gate.base.errors import IngestionError
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.corpus.cache import (
    _READ_LIMIT,
    CACHE_ENV,
    CACHE_FORMAT,
    MAX_SECTIONS,
    ReadingCache,
    cache_folder,
    cache_path,
    parse_cache_file,
)
from _conflict_gate.corpus.load import Corpus, load_documents, load_with
from _conflict_gate.corpus.pool import start_method
from _conflict_gate.decide.decision import audit, gate
from _conflict_gate.manifest.read import read_manifest
from _conflict_gate.reading.reader import read_directives
from tests.support import FIXTURE_MANIFEST, QUILL_GRAMMAR, REPO, CorpusTestCase, directive, run_cli, write_corpus

#: A read-only disk: the cache's rename fails.
READ_ONLY = mock.patch(
    "_conflict_gate.corpus.cache.os.replace", side_effect=OSError(errno.EROFS, "Read-only file system")
)
FUZZ_ROUNDS = int(os.environ.get("CONFLICT_GATE_FUZZ_CACHE", "4"))
BOM = b"\xef\xbb\xbf"


def snapshot(corpus: Corpus) -> list[Any]:
    """Everything a corpus holds per source, errors by class, message and every attribute."""

    def error(e: Any) -> Any:
        return (
            None
            if e is None
            else (
                type(e).__name__,
                str(e),
                e.reason,
                e.detail,
                e.source_id,
                e.path,
                e.line,
                e.column,
                getattr(e, "quote", None),
            )
        )

    return [
        (
            s.source_id,
            s.version,
            s.status,
            s.path,
            s.sha256,
            s.size,
            s.claims,
            error(s.refusal),
            s.near_misses,
            s.occurrences,
        )
        for s in corpus.sources.values()
    ]


def decisions(corpus: Corpus) -> str:
    """The audit and a decision per pair of sources and claim, as JSON."""
    ids = sorted(corpus.sources)
    out: list[Any] = [audit(corpus)]
    for a, b in itertools.pairwise(ids):
        version = corpus.sources[a].version
        for key in ("existing_path", "close_required"):
            out.append(gate(corpus, [a, b], version, "create_copy", key))
    return render_json(out)


def _load_inside(manifest: str) -> list[Any]:
    """In a daemonic process: whether workers would start here, and the corpus of a ``jobs=2`` load,
    with the start method found here and with one named."""
    loads = [
        snapshot(
            load_with(
                manifest,
                strict=True,
                cache=False,
                jobs=2,
                environ={},
                warn=lambda message: None,
                min_pages=1,
                method=method,
            )
        )
        for method in (None, start_method(daemonic=False))
    ]
    return [start_method() is not None, *loads]


#: Pages of every kind the reader tells apart: claims, refusals, near-misses, a BOM, CRLF, not UTF-8.
PAGES: dict[str, bytes] = {
    "docs/a.md": b"# A\n\n" + directive("refuse") + b"\n" + directive("yes", "close_required") + b"\n",
    "docs/b.md": b"Text.\n\n```\n" + directive("overwrite") + b"\n```\n\n" + directive("refuse") + b"\n",
    "docs/same-as-b.md": b"Text.\n\n```\n" + directive("overwrite") + b"\n```\n\n" + directive("refuse") + b"\n",
    "docs/refused.md": b"- " + directive("refuse") + b"\n",
    "docs/refused-too.md": b"- " + directive("refuse") + b"\n",
    "docs/bom.md": BOM + directive("overwrite") + b"\r\n\r\nMention @quill here and `@quill x y=z`.\r\n",
    "docs/bad-value.md": directive("maybe") + b"\n",
    "docs/silent.md": b"Nothing to see.\n",
}


class CacheLocationTest(unittest.TestCase):
    def test_default_folders(self) -> None:
        cases = [
            ({CACHE_ENV: "/x/c"}, "linux", "/x/c"),
            ({CACHE_ENV: "off", "HOME": "/h"}, "linux", None),
            ({"XDG_CACHE_HOME": "/xdg", "HOME": "/h"}, "linux", "/xdg/conflict-gate"),
            ({"XDG_CACHE_HOME": "relative", "HOME": "/h"}, "linux", "/h/.cache/conflict-gate"),
            ({"HOME": "/h"}, "linux", "/h/.cache/conflict-gate"),
            ({"HOME": "/h", "XDG_CACHE_HOME": "/xdg"}, "darwin", "/h/Library/Caches/conflict-gate"),
            (
                {"LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local"},
                "win32",
                os.path.join("C:\\Users\\u\\AppData\\Local", "conflict-gate"),
            ),
            ({}, "linux", None),
        ]
        for environ, platform, expected in cases:
            with self.subTest(environ=environ, platform=platform):
                self.assertEqual(cache_folder(environ, platform), expected)

    def test_a_file_per_manifest_none_or_the_one_named(self) -> None:
        first = cache_path("/p/a/manifest.json", None, {CACHE_ENV: "/c"})
        second = cache_path("/p/b/manifest.json", None, {CACHE_ENV: "/c"})
        assert first is not None and second is not None
        self.assertNotEqual(first, second)
        self.assertEqual(os.path.dirname(first), "/c")
        self.assertIsNone(cache_path("/p/a/manifest.json", False, {CACHE_ENV: "/c"}))
        self.assertEqual(cache_path("/p/a/manifest.json", "/else/r.json", {CACHE_ENV: "/c"}), "/else/r.json")
        with self.assertRaises(TypeError):
            cache_path("/p/a/manifest.json", 3, {})

    def test_the_suite_never_uses_the_users_cache(self) -> None:
        """Guards against a test run writing into ~/.cache: tests/__init__.py names a temporary folder."""
        folder = os.environ.get(CACHE_ENV, "")
        self.assertTrue(folder and "conflict-gate-test-cache-" in folder, folder)


class FingerprintTest(unittest.TestCase):
    def test_the_fingerprint_covers_the_whole_package(self) -> None:
        """Guards against the reader's fingerprint hashing only the folder of the cache's module: once
        modules sit in subpackages by stage, a change to the reader would then leave stale readings."""
        import _conflict_gate
        from _conflict_gate.corpus import cache

        self.assertEqual(Path(cache._PACKAGE), Path(_conflict_gate.__file__).resolve().parent)


class CacheTest(CorpusTestCase):
    def setUp(self) -> None:
        self.root = self.folder()
        self.manifest = write_corpus(self.root / "corpus", PAGES)
        self.cache = self.root / "cache" / "readings.json"

    def load(self, cache: Any = None, **options: Any) -> Corpus:
        return load_documents(self.manifest, cache=self.cache if cache is None else cache, **options)

    def test_a_cached_load_is_the_same_corpus(self) -> None:
        plain = self.load(cache=False)
        first = self.load()
        self.assertTrue(self.cache.is_file())
        second = self.load()
        self.assertEqual(snapshot(first), snapshot(plain))
        self.assertEqual(snapshot(second), snapshot(plain))
        self.assertEqual(decisions(second), decisions(plain))

    def test_an_unchanged_page_is_not_read_again(self) -> None:
        self.load()
        with mock.patch("_conflict_gate.corpus.load._reader", side_effect=AssertionError("read again")):
            corpus = self.load()
        self.assertEqual(len(corpus), len(PAGES))

    def test_two_pages_with_the_same_bytes_share_an_entry_but_not_their_messages(self) -> None:
        """Guards against an entry carrying the source id or path of the page it was read from."""
        self.load()
        corpus = self.load()
        one, two = corpus.sources["refused"].refusal, corpus.sources["refused-too"].refusal
        assert one is not None and two is not None
        self.assertEqual((one.source_id, one.path), ("refused", "docs/refused.md"))
        self.assertEqual((two.source_id, two.path), ("refused-too", "docs/refused-too.md"))
        self.assertIn("refused-too.md", str(two))
        sections = parse_cache_file(self.cache.read_bytes())
        assert sections is not None
        [entries] = sections.values()
        self.assertEqual(
            sorted(entry[0] for entry in entries), sorted({hashlib.sha256(raw).hexdigest() for raw in PAGES.values()})
        )
        self.assertNotIn("refused.md", self.cache.read_text(encoding="utf-8"))

    def test_a_changed_grammar_or_renderer_is_a_miss(self) -> None:
        self.load()
        grammar = json.loads(json.dumps(QUILL_GRAMMAR))
        grammar["operations"]["create_copy"]["existing_path"]["values"].append("maybe")
        for extra in ({"grammar": grammar}, {"extra": {"renderer": "github"}}):
            with self.subTest(extra=list(extra)):
                manifest = write_corpus(self.root / "corpus", PAGES, **extra)
                cached = load_documents(manifest, cache=self.cache)
                self.assertEqual(snapshot(cached), snapshot(load_documents(manifest, cache=False)))
        refused = load_documents(self.manifest, cache=self.cache).sources["bad-value"].refusal
        assert refused is not None
        self.assertEqual(refused.reason, "unknown_directive_value")

    def test_a_changed_reader_is_a_miss(self) -> None:
        """Guards against a cache entry outliving the code that wrote it."""
        self.load()
        with (
            mock.patch("_conflict_gate.corpus.cache.reader_fingerprint", return_value="another reader"),
            mock.patch("_conflict_gate.corpus.load._reader", side_effect=AssertionError("read")),
            self.assertRaises(AssertionError),
        ):
            self.load()

    def test_strict_and_non_strict_loads_fail_as_without_a_cache(self) -> None:
        self.load()
        bad = self.root / "corpus" / "docs" / "b.md"
        bad.write_bytes(b"changed\n")
        with self.assertRaises(IngestionError) as raised:
            self.load()
        with self.assertRaises(IngestionError) as plain:
            self.load(cache=False)
        self.assertEqual(str(raised.exception), str(plain.exception))
        self.assertEqual(snapshot(self.load(strict=False)), snapshot(self.load(cache=False, strict=False)))

    def test_an_untrusted_folder_or_file_is_not_used_with_one_warning(self) -> None:
        self.load()
        folder = self.cache.parent
        changes: tuple[tuple[str, Callable[[], None], Callable[[], None]], ...] = (
            ("folder", lambda: folder.chmod(0o777), lambda: folder.chmod(0o700)),
            ("file", lambda: self.cache.chmod(0o666), lambda: self.cache.chmod(0o600)),
        )
        for what, change, undo in changes:
            with self.subTest(what):
                change()
                try:
                    err = io.StringIO()
                    with (
                        redirect_stderr(err),
                        mock.patch(
                            "_conflict_gate.corpus.load._reader", return_value=mock.Mock(wraps=read_directives)
                        ) as reader,
                    ):
                        corpus = self.load()
                    self.assertEqual(snapshot(corpus), snapshot(self.load(cache=False)))
                    self.assertTrue(reader.return_value.called, "an untrusted cache was read")
                    lines = err.getvalue().splitlines()
                    self.assertEqual(len(lines), 1, lines)
                    self.assertIn("writable by group or others", lines[0])
                finally:
                    undo()

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "needs root to give a file away")
    def test_a_file_of_another_user_is_not_used(self) -> None:
        self.load()
        os.chown(self.cache, 65534, -1)
        err = io.StringIO()
        with redirect_stderr(err):
            corpus = self.load()
        self.assertEqual(snapshot(corpus), snapshot(self.load(cache=False)))
        self.assertIn("belongs to another user", err.getvalue())

    def test_a_failed_write_is_one_warning_and_never_an_error(self) -> None:
        """A read-only disk (simulated: the rename fails with EROFS), and a cache path under a file."""
        err = io.StringIO()
        with redirect_stderr(err), READ_ONLY:
            corpus = self.load()
        self.assertFalse(self.cache.exists())
        self.assertEqual(list(self.cache.parent.iterdir()), [], "a temporary file was left behind")
        self.assertEqual(snapshot(corpus), snapshot(self.load(cache=False)))
        lines = err.getvalue().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("reading cache not written", lines[0])
        self.assertIn("Read-only file system", lines[0])
        blocker = self.root / "not-a-folder"
        blocker.write_text("x")
        err = io.StringIO()
        with redirect_stderr(err):
            corpus = self.load(cache=blocker / "readings.json")
        self.assertEqual(snapshot(corpus), snapshot(self.load(cache=False)))
        self.assertEqual(len(err.getvalue().splitlines()), 1)

    def test_the_command_line_takes_cache_and_no_cache_and_keeps_its_exit_code(self) -> None:
        args = ["audit", "--manifest", str(self.manifest), "--format", "json"]
        plain = run_cli([*args, "--no-cache"])
        cached = run_cli([*args, "--cache", str(self.cache)])
        again = run_cli([*args, "--cache", str(self.cache), "--jobs", "2"])
        with READ_ONLY:
            failed = run_cli([*args, "--cache", str(self.root / "elsewhere.json")])
        self.assertEqual(plain[:2], cached[:2])
        self.assertEqual(plain[:2], again[:2])
        self.assertEqual(plain[:2], failed[:2])
        self.assertEqual(failed[2].count("\n"), plain[2].count("\n") + 1)
        self.assertIn("conflict-gate: warning: reading cache not written", failed[2])
        self.assertTrue(self.cache.is_file())
        for bad in (["--jobs", "0"], ["--jobs", "x"], ["--cache", "c.json", "--no-cache"]):
            with self.subTest(bad):
                code, out, err = run_cli([*args, *bad])
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(len(err.strip().splitlines()[-1:]), 1)

    def test_the_default_location_comes_from_the_environment_passed_in(self) -> None:
        folder = self.root / "from-env"
        code, _, _ = run_cli(["versions", "--manifest", str(self.manifest)], environ={CACHE_ENV: str(folder)})
        self.assertEqual(code, 0)
        self.assertEqual(len(list(folder.glob("readings-*.json"))), 1)
        code, _, _ = run_cli(
            ["versions", "--manifest", str(self.manifest)], environ={CACHE_ENV: "off", "HOME": str(self.root)}
        )
        self.assertFalse((self.root / ".cache").exists())

    def test_fuzz_damaged_cache_files_never_change_a_decision(self) -> None:
        """Corrupted, truncated, swapped, foreign and shuffled entries: the corpus and every decision
        stay as without a cache."""
        expected_corpus = snapshot(self.load(cache=False))
        expected = decisions(self.load(cache=False))
        self.load()
        good = self.cache.read_bytes()
        sections = parse_cache_file(good)
        assert sections is not None
        [(context, entries)] = sections.items()
        rng = random.Random(21)

        def write_sections(changed: dict[str, Any]) -> bytes:
            lines = [CACHE_FORMAT.encode()]
            for name, value in changed.items():
                body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")
                lines.append(b"\t".join((name.encode(), hashlib.sha256(body).hexdigest().encode(), body)))
            return b"\n".join(lines) + b"\n"

        def swapped() -> bytes:  # two entries trade places; each still names its own digest
            a, b = rng.sample(range(len(entries)), 2)
            changed = list(entries)
            changed[a], changed[b] = entries[b], entries[a]
            return write_sections({context: changed})

        def shuffled() -> bytes:  # entries moved about, each naming its own digest
            changed = list(entries)
            rng.shuffle(changed)
            return write_sections({context: changed})

        def foreign() -> bytes:  # under another context: another reader, grammar or renderer
            return write_sections({"f" * 32: entries})

        def misshapen() -> bytes:
            index = rng.randrange(len(entries))
            digest = entries[index][0]
            changed = list(entries)
            changed[index] = rng.choice(
                [
                    [],
                    [digest, 1, 2, 3],
                    [digest, [["x"]], None, [], []],
                    "text",
                    None,
                    [digest, [], None, [], [7]],
                    [digest, [], None, [], [-1]],
                ]
            )
            return write_sections(rng.choice([{context: changed}, {context: "text"}, {context: {digest: 1}}]))

        with_claims = [i for i, entry in enumerate(entries) if entry[1]]
        wrong_values: list[Any] = [
            "1",
            1.0,
            True,
            None,
            [],
            {},
            -1,
            float("nan"),
            float("inf"),
            10**40 * -1,
            "\ud800",
            {"abcdefghi": 0},
        ]

        def mistyped() -> bytes:  # a checksum that fits an entry no reader wrote: a miss, never a traceback
            index = rng.choice(with_claims)
            entry = json.loads(json.dumps(entries[index]))
            slot = rng.randrange(10)
            if slot == 9:  # the claims themselves
                entry[1] = rng.choice([{"abcdefghi": 0}, ["abcdefghi"], "claims", 7])
            else:
                entry[1][0][slot] = rng.choice(wrong_values)
            changed = list(entries)
            changed[index] = entry
            return write_sections({context: changed})

        def flipped(at: int) -> bytes:
            return good[:at] + bytes([good[at] ^ (1 << rng.randrange(8))]) + good[at + 1 :]

        damages: dict[str, Callable[[], bytes]] = {
            # one bit after the format line (a file whose format line is damaged is no longer known as a cache)
            "flipped byte": lambda: flipped(rng.randrange(len(CACHE_FORMAT) + 1, len(good))),
            # cut after the format line: a file cut inside it is no longer known as a cache and is left as it
            # is (test_a_file_that_is_no_reading_cache_is_never_overwritten), so it is not written anew
            "truncated": lambda: good[: rng.randrange(len(CACHE_FORMAT) + 1, len(good))],
            "swapped entries": swapped,
            "shuffled entries": shuffled,
            "foreign entries": foreign,
            "misshapen entry": misshapen,
            "mistyped entry": mistyped,
            "another format": lambda: rng.choice(
                [b"", CACHE_FORMAT.encode()[:-1] + b"2\n", b'{"format":"conflict-gate reading cache 2","checksum":"0"}']
            ),
        }
        for name, damage in damages.items():
            for round_ in range(FUZZ_ROUNDS):
                with self.subTest(damage=name, round=round_):
                    self.cache.write_bytes(damage())
                    corpus = self.load()
                    self.assertEqual(snapshot(corpus), expected_corpus)
                    self.assertEqual(decisions(corpus), expected)
                    self.assertIsNotNone(parse_cache_file(self.cache.read_bytes()))  # written anew

    def test_an_entry_whose_claims_do_not_hold_on_the_page_is_a_miss(self) -> None:
        """Guards against trusting a cache entry with a fitting checksum that no reader wrote for the page's
        bytes (found by the fuzz at 100 rounds): a claim's value changed to another value the grammar
        allows, its key, its quote, or its byte span moved, was taken as the page's reading, and a
        decision followed the forged value."""
        expected = snapshot(self.load(cache=False))
        self.load()
        good = self.cache.read_bytes()
        [(context, entries)] = parse_cache_file(good).items()  # type: ignore[union-attr]
        index = next(i for i, entry in enumerate(entries) if entry[1])
        claim = entries[index][1][0]
        other = "overwrite" if claim[2] != "overwrite" else "refuse"
        for label, slot, value in (
            ("another allowed value", 2, other),
            ("another key", 1, "close_required"),
            ("another quote", 8, claim[8].replace(claim[2], other)),
            ("a moved byte span", 6, claim[6] + 1),
        ):
            with self.subTest(label):
                forged = json.loads(json.dumps(entries))
                forged[index][1][0][slot] = value
                body = json.dumps(forged, ensure_ascii=False, separators=(",", ":")).encode()
                line = b"\t".join((context.encode(), hashlib.sha256(body).hexdigest().encode(), body))
                self.cache.write_bytes(CACHE_FORMAT.encode() + b"\n" + line + b"\n")
                self.assertEqual(snapshot(self.load()), expected)

    def test_a_file_that_is_no_reading_cache_is_never_overwritten(self) -> None:
        """Regression: ``--cache manifest.json`` replaced the manifest with a cache (a file of another
        format was written anew). Somebody's file is left as it is, with one warning; the load is as
        without a cache."""
        expected = snapshot(self.load(cache=False))
        self.cache.parent.mkdir(mode=0o700, exist_ok=True)
        for content in (
            b"{}",
            b"[1,2]",
            b"\xff\xfe",
            json.dumps({"format": "x"}).encode(),
            self.manifest.read_bytes(),
            b"conflict-gate reading cache notes\n\nmine\n",
        ):
            with self.subTest(content=content[:20]):
                self.cache.write_bytes(content)
                with redirect_stderr(io.StringIO()) as out:
                    corpus = self.load()
                self.assertEqual(snapshot(corpus), expected)
                self.assertEqual(self.cache.read_bytes(), content)
                self.assertIn("is not a reading cache", out.getvalue())

    def test_a_file_too_large_to_read_is_replaced_only_when_it_is_a_cache(self) -> None:
        """Regression: a file over the read limit was written anew before its first bytes were looked at."""
        self.cache.parent.mkdir(mode=0o700, exist_ok=True)
        for head, replaced in ((b"", False), (CACHE_FORMAT.encode() + b"\n", True)):
            with self.subTest(replaced=replaced):
                with open(self.cache, "wb") as handle:
                    handle.write(head)
                    handle.truncate(_READ_LIMIT + 1)  # sparse: no disk written
                with redirect_stderr(io.StringIO()) as out:
                    self.load()
                self.assertEqual(self.cache.stat().st_size <= _READ_LIMIT, replaced)
                self.assertEqual("is not a reading cache" in out.getvalue(), not replaced)

    def test_text_that_spells_a_surrogate_escape_is_kept(self) -> None:
        """Regression: a page quoting the text ``\\ud800`` (written to the file as ``\\\\ud800``, an escaped
        backslash) made its whole section look damaged, so no page was ever found."""
        manifest = write_corpus(
            self.root / "escaped", {"a.md": b"Text.\n\n`@quill create_copy existing_path=\\ud800`\n"}
        )
        first = load_documents(manifest, cache=self.cache)
        with mock.patch("_conflict_gate.corpus.load._reader", side_effect=AssertionError("read again")):
            second = load_documents(manifest, cache=self.cache)
        self.assertEqual(snapshot(second), snapshot(first))
        self.assertIn("\\ud800", " ".join(quote for source in first.sources.values() for quote in source.occurrences))

    @unittest.skipUnless(hasattr(os, "mkfifo"), "POSIX FIFOs")
    def test_a_fifo_at_the_cache_path_is_refused_at_once(self) -> None:
        """Regression: a FIFO at the cache path blocked the load forever (opened for reading, it waits
        for a writer); it is opened without blocking and refused as no regular file."""
        self.cache.parent.mkdir(mode=0o700, exist_ok=True)
        os.mkfifo(self.cache, 0o600)
        with redirect_stderr(io.StringIO()) as out:
            corpus = self.load()
        self.assertEqual(snapshot(corpus), snapshot(self.load(cache=False)))
        self.assertIn("not a regular file", out.getvalue())

    def test_the_file_is_bounded_this_loads_entries_first(self) -> None:
        """Guards against a cache growing without bound, or a full one dropping the entries just read."""
        grammar = read_manifest(self.manifest).grammar
        readings = {
            digest: read_directives(text, grammar)
            for digest, text in (
                (f"{i:064x}", f"# Page {i}\n\n" + directive("refuse").decode() + "\n") for i in range(40)
            )
        }
        old = ReadingCache.open(str(self.cache), grammar, "github", print)  # another section
        for digest, reading in readings.items():
            old.put(digest, reading)
        old.save()
        other = self.cache.read_bytes()
        full = len(other)
        for limit in (4 * full, full // 2, 10):
            with self.subTest(limit=limit):
                self.cache.write_bytes(other)
                cache = ReadingCache.open(str(self.cache), grammar, "commonmark", print, limit=limit)
                new = dict(list(readings.items())[:3])
                for digest, reading in new.items():
                    cache.put(digest, reading)
                cache.save()
                written = self.cache.read_bytes()
                self.assertLessEqual(len(written) - len(CACHE_FORMAT) - 1, limit)
                sections = parse_cache_file(written)
                assert sections is not None
                kept = [entry[0] for entry in sections.get(cache.context, [])]
                self.assertEqual(kept, list(new) if limit > 10 else [])  # the load's own, or none if they do not fit
                # the other section, never parsed by this load: kept byte for byte while it fits, else left out
                self.assertEqual(other.split(b"\n")[1] in written.split(b"\n"), limit == 4 * full)
                self.assertEqual(len(sections), 1 + (limit == 4 * full) if limit > 10 else 0)

    def test_stale_sections_fall_off_the_least_recently_written_first(self) -> None:
        """Guards against every upgrade leaving a section behind for each load to read: at most
        MAX_SECTIONS, the load's own first, then the others in the order they were written."""
        grammar = read_manifest(self.manifest).grammar
        others = [
            b"\t".join((f"{i:032x}".encode(), hashlib.sha256(b"[]").hexdigest().encode(), b"[]"))
            for i in range(MAX_SECTIONS + 2)
        ]
        self.cache.parent.mkdir(mode=0o700, exist_ok=True)
        self.cache.write_bytes(CACHE_FORMAT.encode() + b"\n" + b"".join(line + b"\n" for line in others))
        cache = ReadingCache.open(str(self.cache), grammar, "commonmark", print)
        cache.put("0" * 64, read_directives("# A page\n", grammar))
        cache.save()
        lines = self.cache.read_bytes().split(b"\n")
        self.assertEqual(lines[0], CACHE_FORMAT.encode())
        self.assertEqual(lines[1][:32], cache.context.encode())
        self.assertEqual(lines[2:-1], others[: MAX_SECTIONS - 1])

    def test_the_lab_is_the_same_with_and_without_the_cache(self) -> None:
        plain = load_documents(FIXTURE_MANIFEST, cache=False)
        cache = self.root / "lab.json"
        load_documents(FIXTURE_MANIFEST, cache=cache)
        self.assertEqual(snapshot(load_documents(FIXTURE_MANIFEST, cache=cache)), snapshot(plain))
        self.assertEqual(decisions(load_documents(FIXTURE_MANIFEST, cache=cache)), decisions(plain))


class DifferentialSetTest(CorpusTestCase):
    """The differential tests' generated pages (every rule set, nothing installed) load to the same
    corpus and decisions with and without the cache, and with and without workers."""

    def test_cache_and_workers_change_nothing_on_the_differential_pages(self) -> None:
        from tests import reader_oracle, site_pages
        from tests.site_differential import generated

        pages: dict[str, bytes] = {}
        for name, rules in {"github": reader_oracle.HTML_RULES, **site_pages.SITE_RULES}.items():
            documents, _, _ = generated(7, 20, rules, prefix=name)
            for index, (_, text) in enumerate(documents):
                pages[f"docs/{name}-{index:02d}.md"] = text.encode("utf-8", "surrogatepass")
        manifest = write_corpus(self.folder(), pages)
        cache = self.folder() / "readings.json"
        plain = load_with(manifest, strict=False, cache=False, jobs=1, environ={}, warn=lambda message: None)
        load_with(manifest, strict=False, cache=cache, jobs=1, environ={}, warn=lambda message: None)
        for name, corpus in (
            ("cached", load_documents(manifest, strict=False, cache=cache)),
            (
                "workers",
                load_with(
                    manifest, strict=False, cache=False, jobs=2, environ={}, warn=lambda message: None, min_pages=1
                ),
            ),
        ):
            with self.subTest(name):
                self.assertEqual(snapshot(corpus), snapshot(plain))
                self.assertEqual(decisions(corpus), decisions(plain))


class ParallelLoadTest(CorpusTestCase):
    """``jobs`` workers give the corpus one process gives, and the same first problem."""

    def pages(self, count: int) -> dict[str, bytes]:
        pages = {}
        for i in range(count):
            pages[f"docs/p{i:03d}.md"] = list(PAGES.values())[i % len(PAGES)] + f"\npage {i}\n".encode()
        return pages

    def load(self, manifest: Path, **options: Any) -> Corpus:
        return load_with(manifest, cache=False, environ={}, warn=lambda message: None, min_pages=1, **options)

    def test_workers_give_the_same_corpus(self) -> None:
        manifest = write_corpus(self.folder(), self.pages(70))
        one = self.load(manifest, strict=True, jobs=1)
        for method in sorted({m for m in (start_method(), start_method(threads=2)) if m is not None}):
            with self.subTest(method=method):
                two = self.load(manifest, strict=True, jobs=2, method=method)
                self.assertEqual(snapshot(two), snapshot(one))
                self.assertEqual(decisions(two), decisions(one))

    def test_the_first_problem_in_manifest_order_is_reported(self) -> None:
        pages = self.pages(70)
        pages["docs/p010.md"] = b"\xff not UTF-8\n"
        pages["docs/p050.md"] = b"\xfe not UTF-8 either\n"
        folder = self.folder()
        manifest = write_corpus(folder, pages)
        (folder / "docs" / "p060.md").write_bytes(b"changed after pinning\n")
        for strict in (True, False):
            with self.subTest(strict=strict):
                outcomes = []
                for jobs in (1, 2):
                    try:
                        outcomes.append(snapshot(self.load(manifest, strict=strict, jobs=jobs)))
                    except IngestionError as error:
                        outcomes.append([str(error), error.reason])
                self.assertEqual(outcomes[0], outcomes[1])
                if strict:
                    self.assertEqual(outcomes[0][1], "source_not_utf8")
                    self.assertIn("p010", outcomes[0][0])

    def test_inside_a_threaded_service(self) -> None:
        """Guards against forking a process whose other threads hold locks: with threads, forkserver."""
        self.assertEqual(start_method("linux", threads=2), "forkserver")
        self.assertEqual(start_method("darwin", threads=1), "spawn")
        self.assertIsNone(start_method("win32", threads=1))
        manifest = write_corpus(self.folder(), self.pages(40))
        results: list[Any] = []
        thread = threading.Thread(target=lambda: results.append(snapshot(self.load(manifest, strict=True, jobs=2))))
        thread.start()
        thread.join(60)
        self.assertEqual(results, [snapshot(self.load(manifest, strict=True, jobs=1))])

    @unittest.skipUnless(hasattr(os, "fork") and start_method() is not None, "no worker processes here")
    def test_workers_exit_when_the_loading_process_is_killed(self) -> None:
        """Guards against orphaned workers (issue 34 item 3): a process killed (``SIGKILL`` or ``SIGTERM``)
        during a ``--jobs 2`` load left both workers blocked forever on their task queue, holding its
        stdout and stderr, so a caller capturing its output never returned. Now each worker exits when
        the loading process ends and holds neither stream. :mod:`tests.pool_orphan` kills itself
        once both workers block; each worker holds an ``flock`` until it exits. The waits are
        bounded only against a hang, never timed."""
        import fcntl
        import subprocess
        import sys
        import time

        for method in sorted({m for m in (start_method(), start_method(threads=2)) if m is not None}):
            for name in ("SIGKILL", "SIGTERM"):
                with self.subTest(method=method, signal=name):
                    folder = self.folder()
                    done = subprocess.run(
                        [sys.executable, "-m", "tests.pool_orphan", str(folder), str(method), name],
                        check=False,
                        cwd=REPO,
                        capture_output=True,
                        timeout=120,
                    )
                    self.assertEqual(
                        (done.returncode, done.stdout), (-getattr(signal, name), b"loading\n"), done.stderr
                    )
                    workers = sorted(folder.glob("worker-*"))
                    self.assertEqual(len(workers), 2)
                    for path in workers:
                        fd = os.open(path, os.O_RDWR)
                        try:
                            deadline = time.monotonic() + 60
                            while True:
                                try:
                                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                                    break
                                except BlockingIOError:
                                    self.assertLess(time.monotonic(), deadline, f"{path.name} still runs")
                                    time.sleep(0.01)
                        finally:
                            os.close(fd)

    def test_a_load_inside_a_daemonic_process_reads_the_pages_there(self) -> None:
        """Guards against a bare ``AssertionError`` (issue 34 item 4): ``jobs=2`` in a daemonic process
        (any ``multiprocessing.Pool`` worker), which may not start children, failed the load. Its pages
        are now read in that process, giving the corpus one process gives."""
        manifest = write_corpus(self.folder(), self.pages(70))
        method = start_method()
        if method is None:
            self.skipTest("no worker processes here")
        with multiprocessing.get_context(method).Pool(1) as outer:
            inside = outer.apply(_load_inside, (str(manifest),))
        one = snapshot(self.load(manifest, strict=True, jobs=1))
        self.assertEqual(inside, [False, one, one])

    def test_jobs_must_be_a_positive_integer(self) -> None:
        manifest = write_corpus(self.folder(), self.pages(2))
        for jobs in (0, -1, True, 1.5):
            with self.subTest(jobs=jobs), self.assertRaises(ValueError):
                load_documents(manifest, jobs=jobs)  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
