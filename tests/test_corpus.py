"""Loading a corpus (``_conflict_gate/corpus/load.py``): load_documents, SourceFiles, hashing, decoding.

Each test builds a throw-away ``corpus/`` folder (the manifest's root) next to
an ``outside/`` folder that plays the rest of the disk, and checks the exact
``reason`` of the :class:`IngestionError` plus the ``source_id``, ``path`` and
message a user needs. "Nothing outside is opened" is checked on descriptors:
:class:`OpenSpy` records the ``(st_dev, st_ino)`` of every file actually opened,
so a symlink given to ``os.open`` with ``O_NOFOLLOW`` (which fails) does not
count, and a FIFO opened without blocking would.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import gc
import hashlib
import json
import os
import shutil
import socket
import stat
import threading
import unittest
import weakref
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from _conflict_gate.base.files import HAS_DIR_FD
from _conflict_gate.corpus.load import line_ending_hint
from _conflict_gate.corpus.recorded import render_recorded
from _conflict_gate.corpus.source_files import SourceFiles
from _conflict_gate.manifest.grammar import grammar_from_json
from conflict_gate import (
    INGESTION_REASONS,
    MAX_SOURCE_BYTES,
    IngestionError,
    audit,
    load_documents,
    read_manifest,
    source_digest,
)
from tests.support import PAGE, QUILL_GRAMMAR, CorpusFolderCase, run_cli

BOM = b"\xef\xbb\xbf"
TEXT = PAGE
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def identity(path: str | Path) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_dev, info.st_ino


class OpenSpy:
    """Count the files actually opened (by ``(st_dev, st_ino)``) and the bytes read from each.

    Wraps ``os.open``, ``os.read``, ``os.close`` and ``open``; the calls still go through.
    """

    def __init__(self) -> None:
        self.opened: Counter[tuple[int, int]] = Counter()
        self.bytes_read: Counter[tuple[int, int]] = Counter()
        self._fds: dict[int, tuple[int, int]] = {}
        self._lock = threading.Lock()
        self._patches: list[Any] = []

    def opens_of(self, path: str | Path) -> int:
        return self.opened[identity(path)]

    def __enter__(self) -> OpenSpy:
        real_open, real_read, real_close, real_builtin_open = os.open, os.read, os.close, builtins.open
        real_fstat = os.fstat

        def spy_open(path: Any, *args: Any, **kwargs: Any) -> int:
            fd = real_open(path, *args, **kwargs)
            info = real_fstat(fd)
            with self._lock:
                self._fds[fd] = (info.st_dev, info.st_ino)
                self.opened[self._fds[fd]] += 1
            return fd

        def spy_read(fd: int, n: int) -> bytes:
            data = real_read(fd, n)
            with self._lock:
                if fd in self._fds:
                    self.bytes_read[self._fds[fd]] += len(data)
            return data

        def spy_close(fd: int) -> None:
            with self._lock:
                self._fds.pop(fd, None)
            real_close(fd)

        def spy_builtin_open(file: Any, *args: Any, **kwargs: Any) -> Any:
            handle = real_builtin_open(file, *args, **kwargs)
            if not isinstance(file, int):
                info = os.fstat(handle.fileno())
                with self._lock:
                    self.opened[(info.st_dev, info.st_ino)] += 1
            return handle

        for target, name, spy in (
            (os, "open", spy_open),
            (os, "read", spy_read),
            (os, "close", spy_close),
            (builtins, "open", spy_builtin_open),
        ):
            patcher = mock.patch.object(target, name, spy)
            patcher.start()
            self._patches.append(patcher)
        return self

    def __exit__(self, *exc: object) -> None:
        for patcher in reversed(self._patches):
            patcher.stop()


def opens_file(path: Any, kwargs: dict[str, Any], target: str | Path) -> bool:
    """Does ``os.open(path, ..., **kwargs)`` open ``target``, by path or by name in its folder's descriptor?"""
    target = Path(target)
    if kwargs.get("dir_fd") is None:
        return os.fsdecode(path) == str(target)
    return os.fsdecode(path) == target.name and os.path.samestat(os.fstat(kwargs["dir_fd"]), os.stat(target.parent))


def with_watchdog(test: unittest.TestCase, action: Callable[[], Any], seconds: float = 10.0) -> Any:
    """Run ``action`` in a daemon thread; fail (instead of hanging the suite) if it blocks."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = action()
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        test.fail(f"still blocked after {seconds} s (a FIFO was opened for reading?)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


class CorpusCase(CorpusFolderCase):
    """A temporary ``corpus/`` folder (the manifest's root) next to an ``outside/`` folder."""

    prefix = "conflict-gate-corpus-"

    def setUp(self) -> None:
        super().setUp()
        self.outside = self.base / "outside"
        self.outside.mkdir()
        self._count = 0

    def fresh(self, raw: bytes = TEXT, suffix: str = ".md") -> str:
        """Write ``raw`` to a new file under ``docs/`` and return its manifest path.

        A new file each time: rewriting one in place is slow on ext4 (a flush on truncate).
        """
        self._count += 1
        rel = f"docs/f{self._count}{suffix}"
        self.put(rel, raw)
        return rel

    def sparse(self, relative: str, size: int) -> Path:
        """A file of ``size`` zero bytes that takes no disk space (the cap is tested at its real value)."""
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            handle.truncate(size)
        return path

    def entry(self, sid: str, rel: str, raw: bytes = TEXT, **fields: str) -> dict[str, str]:
        """A manifest entry pinned to ``raw`` (the file itself is written separately)."""
        entry = {
            "source_id": sid,
            "version": "1.0",
            "path": rel,
            "url": f"https://docs.quill.example/1.0/{sid}",
            "sha256": sha(raw),
        }
        entry.update(fields)
        return entry

    def write_manifest(self, documents: list[dict[str, str]], *, name: str | None = None) -> Path:
        self._count += 1
        self.manifest = self.root / (name or f"manifest-{self._count}.json")
        self.manifest.write_text(
            json.dumps({"grammar": QUILL_GRAMMAR, "version_scheme": "major.minor", "documents": documents}, indent=2),
            encoding="utf-8",
        )
        return self.manifest

    def refused(self, reason: str, source_id: str | None = "a", path: str | None = None) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            with_watchdog(self, lambda: load_documents(self.manifest))
        error = caught.exception
        self.assertIn(error.reason, INGESTION_REASONS)
        self.assertEqual(error.reason, reason, str(error))
        self.assertEqual(error.source_id, source_id)
        if path is not None:
            self.assertEqual(error.path, path)
        self.assertTrue(str(error).isprintable(), repr(str(error)))
        return error


class LoadTest(CorpusCase):
    def test_a_valid_corpus_loads(self) -> None:
        """Control: sources in manifest order, verified digest and size, claims, defaults for url/status."""
        other = b"@quill create_copy close_required=yes\n"
        self.put("docs/a.md")
        self.put("b.md", other)
        self.write_manifest(
            [
                self.entry("a", "docs/a.md"),
                {k: v for k, v in self.entry("b", "b.md", other, status="draft").items() if k != "url"},
            ]
        )
        corpus = load_documents(self.manifest)
        self.assertEqual(list(corpus.sources), ["a", "b"])
        self.assertEqual(len(corpus), 2)
        a, b = corpus.sources["a"], corpus.sources["b"]
        self.assertEqual(
            (a.version, a.status, a.path, a.url, a.sha256, a.size),
            ("1.0", "approved", "docs/a.md", "https://docs.quill.example/1.0/a", sha(TEXT), len(TEXT)),
        )
        self.assertEqual((b.status, b.url, b.path), ("draft", None, "b.md"))
        self.assertEqual(
            [(c.operation, c.claim_key, c.value, c.line) for c in a.claims],
            [("create_copy", "existing_path", "refuse", 3)],
        )
        self.assertEqual(b.claim("create_copy", "close_required").value, "yes")  # type: ignore[union-attr]
        self.assertIsNone(a.refusal)
        self.assertEqual(a.document_revision, a.entry.document_revision)
        self.assertEqual(
            (corpus.manifest_path, corpus.grammar.namespace, corpus.version_scheme.name),
            (str(self.manifest), "quill", "major.minor"),
        )

    def test_the_corpus_is_immutable_and_keeps_no_text(self) -> None:
        """Guards against a corpus edited after verification, or one that grows with the sources' bytes."""
        self.put("docs/a.md")
        self.write_manifest([self.entry("a", "docs/a.md")])
        corpus = load_documents(self.manifest)
        with self.assertRaises(TypeError):
            corpus.sources["b"] = corpus.sources["a"]  # type: ignore[index]
        with self.assertRaises(AttributeError):
            corpus.sources["a"].sha256 = "0" * 64  # type: ignore[misc]
        self.assertNotIn("text", corpus.sources["a"]._fields)
        self.assertNotIn("raw", corpus.sources["a"]._fields)

    def test_source_digest_is_of_the_raw_bytes(self) -> None:
        """Guards against a digest of normalised bytes (BOM, CRLF) or uppercase hex."""
        for raw in (b"", TEXT, BOM + TEXT, TEXT.replace(b"\n", b"\r\n")):
            with self.subTest(raw=raw[:12]):
                self.assertEqual(source_digest(raw), hashlib.sha256(raw).hexdigest())

    def test_crlf_and_bom_bytes_are_kept_as_they_are(self) -> None:
        """Guards against a loader that normalises bytes: digest, size and byte offsets are of the raw file."""
        crlf = BOM + b"# Page\r\n\r\n@quill create_copy existing_path=refuse\r\n"
        self.put("docs/a.md", crlf)
        self.write_manifest([self.entry("a", "docs/a.md", crlf)])
        source = load_documents(self.manifest).sources["a"]
        self.assertEqual((source.sha256, source.size), (sha(crlf), len(crlf)))
        (claim,) = source.claims
        self.assertEqual(claim.quote, "@quill create_copy existing_path=refuse")
        self.assertEqual(crlf[claim.byte_start : claim.byte_end + 2], claim.quote.encode() + b"\r\n")

    def test_a_symlinked_manifest_reads_the_sources_beside_its_real_file(self) -> None:
        """Guards against resolving paths against the link's folder, where other files may wait.

        The link's folder holds a decoy ``docs/a.md`` with other bytes: reading it
        would be a hash mismatch; the real folder's file verifies.
        """
        self.put("docs/a.md")
        real = self.write_manifest([self.entry("a", "docs/a.md")], name="manifest.json")
        elsewhere = self.base / "elsewhere"
        (elsewhere / "docs").mkdir(parents=True)
        (elsewhere / "docs" / "a.md").write_bytes(b"decoy: @quill create_copy existing_path=overwrite\n")
        link = elsewhere / "manifest.json"
        os.symlink(real, link)
        with OpenSpy() as spy:
            corpus = load_documents(link)
        self.assertEqual(corpus.sources["a"].sha256, sha(TEXT))
        self.assertEqual((corpus.manifest.path, corpus.manifest.root), (str(link), str(self.root)))
        self.assertEqual(spy.opens_of(self.root / "docs" / "a.md"), 1)
        self.assertEqual(spy.opens_of(elsewhere / "docs" / "a.md"), 0)
        # pin shares SourceFiles: through the same link it finds the same files, all pins current
        code, out, err = run_cli(["pin", "--manifest", str(link), "--check"])
        self.assertEqual((code, out, err), (0, "all 1 pins are current\n", ""))

    def test_a_manifest_in_a_symlinked_folder(self) -> None:
        """Guards against a root that is the link's path rather than the real folder."""
        self.put("docs/a.md")
        self.write_manifest([self.entry("a", "docs/a.md")], name="manifest.json")
        os.symlink(self.root, self.base / "corpus-link")
        corpus = load_documents(self.base / "corpus-link" / "manifest.json")
        self.assertEqual(corpus.manifest.root, str(self.root))
        self.assertEqual(corpus.sources["a"].size, len(TEXT))

    def test_directive_problems_are_kept_not_raised(self) -> None:
        """Guards against a source that says something unusable failing the whole load (the gate refuses it)."""
        bad = b"@quill create_copy existing_path=merge\n"
        self.put("docs/a.md")
        self.put("docs/b.md", bad)
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md", bad)])
        corpus = load_documents(self.manifest)
        refusal = corpus.sources["b"].refusal
        self.assertEqual(
            (refusal.reason, refusal.line, refusal.column, refusal.source_id),  # type: ignore[union-attr]
            ("unknown_directive_value", 1, 34, "b"),
        )
        self.assertEqual(corpus.sources["b"].claims, ())


class OnlyTest(CorpusCase):
    """``load_documents(..., only=...)``: a decision's candidates verified, no other page opened (issue 33)."""

    def setUp(self) -> None:
        super().setUp()
        other = b"@quill create_copy existing_path=overwrite\n"
        self.put("docs/a.md")
        self.put("docs/b.md", other)
        self.write_manifest(
            [self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md", other), self.entry("gone", "docs/gone.md")]
        )  # never written: missing

    def test_only_the_named_sources_are_opened_and_verified(self) -> None:
        """Guards against a one-request load paying for, or failing on, pages the request never reads."""
        opened: list[str] = []
        real_read = SourceFiles.read

        def spy(files: SourceFiles, entry: Any) -> bytes:
            opened.append(entry.source_id)
            return real_read(files, entry)

        with mock.patch.object(SourceFiles, "read", spy):
            corpus = load_documents(self.manifest, only=["a", "not-in-the-manifest"], cache=False)
        self.assertEqual(opened, ["a"])
        self.assertEqual(list(corpus.sources), ["a"])
        self.assertFalse(corpus.complete)
        self.assertEqual(corpus.sources["a"], load_documents(self.manifest, strict=False, cache=False).sources["a"])

    def test_a_named_source_that_fails_still_stops_a_strict_load(self) -> None:
        """Guards against ``only`` loosening verification of the pages it does read."""
        with self.assertRaises(IngestionError) as caught:
            load_documents(self.manifest, only=["a", "gone"], cache=False)
        self.assertEqual((caught.exception.reason, caught.exception.source_id), ("source_missing", "gone"))
        kept = load_documents(self.manifest, only=["gone"], strict=False, cache=False)
        self.assertEqual([s.failed for s in kept.sources.values()], [True])

    def test_a_partial_corpus_is_refused_where_every_source_counts(self) -> None:
        """Guards against an audit or a versions listing that silently leaves out the pages not loaded."""
        from _conflict_gate.decide.decision import versions_listing

        corpus = load_documents(self.manifest, only=["a", "b"], cache=False)
        for function in (audit, versions_listing):
            with self.subTest(function=function.__name__), self.assertRaises(ValueError):
                function(corpus)
        with self.assertRaises(TypeError):
            load_documents(self.manifest, only="a")  # one id, not a collection of ids

    def test_unknown_candidates_are_named_from_the_whole_manifest(self) -> None:
        """Guards against the did-you-mean of a partial corpus suggesting only the pages it loaded."""
        from conflict_gate import GateError, gate

        corpus = load_documents(self.manifest, only=["a"], cache=False)
        with self.assertRaises(GateError) as caught:
            gate(corpus, ["a", "bb"], "1.0", "create_copy", "existing_path")
        self.assertEqual(caught.exception.reason, "unknown_candidate")
        self.assertIn("did you mean 'b'", str(caught.exception))
        with self.assertRaises(GateError) as caught:  # listed, not loaded: no "not in the manifest" (a hostile tester)
            gate(corpus, ["a", "b"], "1.0", "create_copy", "existing_path")
        self.assertEqual(
            str(caught.exception),
            "source 'b': in the manifest, but not in this corpus: it was loaded "
            "with only= (load_documents) and without this source",
        )


class _Loop:
    """An object that refers to itself: garbage only the cyclic collector frees."""

    me: _Loop | None = None


class CollectorTest(CorpusCase):
    """A load pauses Python's cyclic collector and leaves it as it found it."""

    def test_a_load_and_an_audit_leave_the_collector_as_they_found_it(self) -> None:
        """Guards against a load or an audit leaving the collector off (or turning it on), unfreezing
        what the caller froze (a pre-fork server's shared memory), or keeping the caller's young
        garbage from the next young collection (a freeze-and-unfreeze of every object did both)."""
        self.put("docs/a.md")
        self.write_manifest([self.entry("a", "docs/a.md")])
        was = gc.isenabled()
        self.addCleanup(gc.enable if was else gc.disable)
        self.addCleanup(gc.unfreeze)
        gc.freeze()  # the caller's own frozen objects (a pre-fork server freezes its state)
        frozen = gc.get_freeze_count()
        for enabled in (True, False):
            with self.subTest(enabled=enabled):
                (gc.enable if enabled else gc.disable)()
                loop = _Loop()
                loop.me = loop
                dead = weakref.ref(loop)
                del loop  # only the collector can free it now
                corpus = load_documents(self.manifest, cache=False)
                audit(corpus)
                self.assertEqual(gc.isenabled(), enabled)
                self.assertEqual(gc.get_freeze_count(), frozen)
                gc.collect(0)  # still young: the first young collection frees it
                self.assertIsNone(dead(), "a cycle made before the load was not freed by a young collection")


class DuplicateFileTest(CorpusCase):
    def setUp(self) -> None:
        super().setUp()
        self.put("docs/a.md")
        os.symlink("a.md", self.root / "docs" / "link.md")
        os.symlink("docs", self.root / "docs2")
        os.link(self.root / "docs" / "a.md", self.root / "docs" / "hard.md")
        self.links = {"file symlink": "docs/link.md", "folder symlink": "docs2/a.md", "hard link": "docs/hard.md"}

    def test_two_paths_reaching_one_file_are_a_duplicate(self) -> None:
        """Guards against one file counted as two agreeing sources through a symlink or a hard link."""
        for name, path in self.links.items():
            with self.subTest(name):
                self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", path)])
                error = self.refused("duplicate_path", source_id="b", path=path)
                self.assertEqual(str(error), f"source 'b' ({path} at /documents/1/path): names the same file as 'a'")
            with self.subTest(name, order="link first"):
                self.write_manifest([self.entry("b", path), self.entry("a", "docs/a.md")])
                error = self.refused("duplicate_path", source_id="a", path="docs/a.md")
                self.assertEqual(str(error), "source 'a' (docs/a.md at /documents/1/path): names the same file as 'b'")

    def test_pin_and_the_loader_agree_on_duplicates(self) -> None:
        """Guards against ``pin`` reading files the loader refuses (one shared SourceFiles code path)."""
        for name, path in self.links.items():
            with self.subTest(name):
                self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", path)])
                code, out, err = run_cli(["pin", "--manifest", str(self.manifest), "--check"])
                self.assertEqual((code, out), (6, ""))
                self.assertIn(f"source 'b' ({path} at /documents/1/path): names the same file as 'a'", err)

    def test_source_files_refuses_the_second_entry(self) -> None:
        """SourceFiles itself (used by pin and the answer check) refuses the second read of one file."""
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/hard.md")])
        manifest = read_manifest(self.manifest)
        files = SourceFiles(manifest.root)
        self.assertEqual(files.read(manifest.entries[0]), TEXT)
        with self.assertRaises(IngestionError) as caught:
            files.read(manifest.entries[1])
        self.assertEqual((caught.exception.reason, caught.exception.source_id), ("duplicate_path", "b"))

    def test_two_files_with_the_same_bytes_are_not_a_duplicate(self) -> None:
        """Control for the duplicate-file guard: identity, not content, makes a duplicate."""
        self.put("docs/copy.md")
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/copy.md")])
        self.assertEqual(list(load_documents(self.manifest).sources), ["a", "b"])


class ConfinementTest(CorpusCase):
    """Nothing outside the manifest's folder is opened, hashed or echoed."""

    SECRET = b"outside the root: must never be read\n"

    def setUp(self) -> None:
        super().setUp()
        self.secret = self.outside / "secret.md"
        self.secret.write_bytes(self.SECRET)

    def links(self) -> dict[str, str]:
        """name -> manifest path, each leading to the secret file (or outside) a different way."""
        docs = self.root / "docs"
        os.symlink(self.secret, docs / "absolute-link.md")
        os.symlink(os.path.relpath(self.secret, docs), docs / "relative-link.md")
        os.symlink(self.outside, self.root / "folder-link")
        os.symlink("relative-link.md", docs / "chain.md")
        os.symlink("../../outside/missing.md", docs / "dangling.md")
        os.symlink("../..", docs / "up")
        os.symlink(self.outside / "nowhere", docs / "dangling-folder")
        return {
            "file symlink (absolute)": "docs/absolute-link.md",
            "file symlink (relative)": "docs/relative-link.md",
            "folder symlink": "folder-link/secret.md",
            "symlink to a symlink": "docs/chain.md",
            "dangling symlink to outside": "docs/dangling.md",
            "folder symlink to the parent": "docs/up/outside/secret.md",
            "dangling folder symlink to outside": "docs/dangling-folder/a.md",
        }

    def test_symlinks_leading_outside_are_refused_unopened(self) -> None:
        """Guards against following a symlink out of the root and reading what it points at.

        Pinned to the secret's own bytes, so a loader that read it would load it.
        """
        for name, path in self.links().items():
            with self.subTest(name):
                self.write_manifest([self.entry("a", path, self.SECRET)])
                with OpenSpy() as spy:
                    error = self.refused("path_outside_root", path=path)
                self.assertEqual(spy.opens_of(self.secret), 0, "the file outside the root was opened")
                self.assertEqual(str(error), f"source 'a' ({path}): path leads outside the manifest's folder")
                self.assertNotIn(str(self.outside), str(error))

    def test_an_outside_fifo_is_never_opened(self) -> None:
        """Guards against opening (and blocking on) a FIFO outside the root."""
        fifo = self.outside / "pipe"
        os.mkfifo(fifo)
        os.symlink(fifo, self.root / "docs" / "a.md")
        os.symlink(self.outside, self.root / "out")
        for path in ("docs/a.md", "out/pipe"):
            with self.subTest(path=path):
                self.write_manifest([self.entry("a", path)])
                with OpenSpy() as spy:
                    self.refused("path_outside_root", path=path)
                self.assertEqual(spy.opens_of(fifo), 0, "the FIFO outside the root was opened")

    def test_the_outside_file_is_never_read_on_disk(self) -> None:
        """Guards against hashing a file outside the root, observed through its access time.

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

    def test_sources_before_an_escaping_one_do_not_hide_it(self) -> None:
        """Guards against an escaping entry passing because earlier entries loaded."""
        self.put("docs/a.md")
        os.symlink(self.secret, self.root / "docs" / "b.md")
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md", self.SECRET)])
        with OpenSpy() as spy:
            self.refused("path_outside_root", source_id="b", path="docs/b.md")
        self.assertEqual(spy.opens_of(self.secret), 0)

    def test_symlinks_that_stay_inside_are_followed_and_read_once(self) -> None:
        """Control: a symlink to a file inside the root (or through the parent back in) is fine."""
        target = self.put("docs/real.md")
        os.symlink("real.md", self.root / "docs" / "a.md")
        os.symlink(f"../../{self.root.name}/docs", self.root / "docs" / "back")
        self.write_manifest([self.entry("a", "docs/a.md")])
        with OpenSpy() as spy:
            corpus = load_documents(self.manifest)
        self.assertEqual(corpus.sources["a"].path, "docs/a.md")
        self.assertEqual(spy.opens_of(target), 1)
        self.write_manifest([self.entry("a", "docs/back/real.md")])
        self.assertEqual(load_documents(self.manifest).sources["a"].size, len(TEXT))

    def swap_after_first_read(self, folder: Path, target: Path) -> Any:
        """Patch SourceFiles.read so that, right after the first entry is read, ``folder`` is moved
        aside (inside the root) and a symlink to ``target`` put in its place."""
        real_read = SourceFiles.read
        swapped: list[str] = []

        def read_then_swap(files: SourceFiles, entry: Any) -> bytes:
            raw = real_read(files, entry)
            if not swapped:
                swapped.append(entry.source_id)
                os.rename(folder, folder.with_name(folder.name + "-moved"))
                os.symlink(target, folder)
            return raw

        return mock.patch.object(SourceFiles, "read", read_then_swap)

    def test_a_folder_swapped_for_a_symlink_mid_load_is_never_followed(self) -> None:
        """Regression: a folder swapped for a symlink between two entries of one load was followed out
        of the root, since O_NOFOLLOW guards only a path's last component.

        The outside copy holds the very bytes the second entry is pinned to, so a
        loader that followed the swapped folder would load it without complaint.
        """
        self.put("docs/one/a.md")
        self.put("docs/two/b.md", self.SECRET)
        (self.outside / "two").mkdir()
        outside_b = self.outside / "two" / "b.md"
        outside_b.write_bytes(self.SECRET)
        self.write_manifest([self.entry("a", "docs/one/a.md"), self.entry("b", "docs/two/b.md", self.SECRET)])
        with self.swap_after_first_read(self.root / "docs", self.outside), OpenSpy() as spy:
            self.refused("path_outside_root", source_id="b", path="docs/two/b.md")
        self.assertEqual(spy.opens_of(outside_b), 0, "the file outside the root was opened")
        self.assertEqual(spy.opens_of(self.outside), 0, "the folder outside the root was opened")

    def test_a_folder_already_open_keeps_being_read_after_a_swap(self) -> None:
        """The folder of an earlier entry is held open: after the swap its next file is read from it
        (it moved, inside the root), and the symlink put in its place is never followed."""
        self.put("docs/a.md")
        inside = self.put("docs/b.md", TEXT + b"inside\n")
        (self.outside / "b.md").write_bytes(TEXT + b"inside\n")
        self.write_manifest([self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md", TEXT + b"inside\n")])
        identity_inside = identity(inside)
        with self.swap_after_first_read(self.root / "docs", self.outside), OpenSpy() as spy:
            corpus = load_documents(self.manifest)
        self.assertEqual(corpus.sources["b"].size, len(TEXT) + 7)
        self.assertEqual(spy.opened[identity_inside], 1)
        self.assertEqual(spy.opens_of(self.outside / "b.md"), 0, "the file outside the root was opened")

    def swapped_folder_is_not_followed(self, below: str, swapped: Path) -> None:
        """Load a manifest in ``root/below`` whose page holds the pinned bytes; right after the load makes
        its :class:`SourceFiles` (the manifest read, no page opened yet), ``swapped`` (the manifest's
        folder or one above it) is moved aside and a symlink to a copy of it outside put in its place.
        The page must be refused, its copy never opened."""
        folder = self.root / below if below else self.root
        self.put(f"{below}/docs/a.md" if below else "docs/a.md", self.SECRET)
        self.manifest = folder / "manifest-swap.json"
        self.manifest.write_text(
            json.dumps(
                {
                    "grammar": QUILL_GRAMMAR,
                    "version_scheme": "major.minor",
                    "documents": [self.entry("a", "docs/a.md", self.SECRET)],
                }
            ),
            encoding="utf-8",
        )
        copy = self.outside / "copy"
        shutil.copytree(swapped, copy, symlinks=True)
        real_init = SourceFiles.__init__

        def init_then_swap(files: SourceFiles, *args: Any, **kwargs: Any) -> None:
            real_init(files, *args, **kwargs)
            if not swapped.is_symlink():
                os.rename(swapped, swapped.with_name(swapped.name + "-moved"))
                os.symlink(copy, swapped)

        with mock.patch.object(SourceFiles, "__init__", init_then_swap), OpenSpy() as spy:
            error = self.refused("path_outside_root", path="docs/a.md")
        self.assertIn("is now a symlink", str(error))
        copied = copy / os.path.relpath(folder / "docs" / "a.md", swapped)
        self.assertEqual(copied.read_bytes(), self.SECRET)
        self.assertEqual(spy.opens_of(copied), 0, "the page outside the root was opened")

    @unittest.skipUnless(HAS_DIR_FD, "openat: without it, the fallback resolves the root by name")
    def test_the_manifests_folder_swapped_for_a_symlink_mid_load_is_never_followed(self) -> None:
        """Regression (issue 34 item 8): the manifest's folder was opened by name, symlinks followed, at
        the first read, so swapped for a symlink after the manifest was read, every page was read from
        where it led (a copy holding the pinned bytes loads without complaint). Now each component of
        the path resolved when the load began is opened relative to the one before with O_NOFOLLOW."""
        self.swapped_folder_is_not_followed("", self.root)

    @unittest.skipUnless(HAS_DIR_FD, "openat: without it, the fallback resolves the root by name")
    def test_a_folder_above_the_manifests_swapped_mid_load_is_never_followed(self) -> None:
        """Issue 34 item 8: as above, a folder on the path to the manifest's folder swapped instead."""
        self.swapped_folder_is_not_followed("site", self.root)

    def test_without_openat_links_out_are_refused_unopened_too(self) -> None:
        """The fallback for platforms without ``openat``: each path resolved, confined and re-checked."""
        for name, path in self.links().items():
            with self.subTest(name):
                self.write_manifest([self.entry("a", path, self.SECRET)])
                files = SourceFiles(str(self.root), by_descriptor=False)
                with OpenSpy() as spy, self.assertRaises(IngestionError) as caught:
                    files.read(read_manifest(self.manifest).entries[0])
                self.assertEqual(caught.exception.reason, "path_outside_root")
                self.assertEqual(spy.opens_of(self.secret), 0, "the file outside the root was opened")
        self.put("docs/real.md")
        os.symlink("real.md", self.root / "docs" / "inside.md")
        self.write_manifest([self.entry("a", "docs/inside.md")])
        files = SourceFiles(str(self.root), by_descriptor=False)
        self.assertEqual(files.read(read_manifest(self.manifest).entries[0]), TEXT)

    def test_a_dangling_symlink_inside_is_missing(self) -> None:
        """A symlink to a file that does not exist inside the root is ``source_missing``, not an escape."""
        os.symlink("nothere.md", self.root / "docs" / "a.md")
        self.write_manifest([self.entry("a", "docs/a.md")])
        self.refused("source_missing", path="docs/a.md")


class SourceFileTest(CorpusCase):
    MISSING = " (paths are relative to the folder that holds the manifest)"

    def test_missing_source(self) -> None:
        """Guards against an untyped FileNotFoundError for a source named but not present."""
        self.put("docs/file.md")
        for path in ("docs/a.md", "nodir/a.md", "docs/file.md/a.md"):
            with self.subTest(path=path):
                self.write_manifest([self.entry("a", path)])
                error = self.refused("source_missing", path=path)
                self.assertEqual(str(error), f"source 'a' ({path}): file does not exist{self.MISSING}")

    def test_unprintable_paths_are_escaped_in_messages(self) -> None:
        """Regression: a path with a line separator was echoed raw, so a 'one-line' error spanned two."""
        cases = {
            "docs/a\u2028b.md": "docs/a\\u2028b.md",
            "docs/a\u202eb.md": "docs/a\\u202eb.md",
            "docs/caf\u00e9 b.md": "docs/caf\u00e9 b.md",
        }
        for path, shown in cases.items():
            with self.subTest(path=path):
                self.write_manifest([self.entry("a", path)])
                error = self.refused("source_missing")
                self.assertEqual(error.path, path)  # the attribute keeps the path as written
                self.assertEqual(str(error), f"source 'a' ({shown}): file does not exist{self.MISSING}")

    def test_directory_fifo_and_socket_are_not_regular_files(self) -> None:
        """Guards against reading a directory or blocking forever on a FIFO named as a source, and
        against a socket being reported as unreadable (``open`` fails on it with ENXIO)."""
        (self.root / "docs" / "dir.md").mkdir()
        os.mkfifo(self.root / "docs" / "pipe.md")
        os.symlink("pipe.md", self.root / "docs" / "pipe-link.md")
        paths = ["docs/dir.md", "docs/pipe.md", "docs/pipe-link.md", "docs"]
        if hasattr(socket, "AF_UNIX"):
            server = socket.socket(socket.AF_UNIX)
            self.addCleanup(server.close)
            server.bind(str(self.root / "docs" / "socket.md"))
            paths.append("docs/socket.md")
        for path in paths:
            with self.subTest(path):
                self.write_manifest([self.entry("a", path)])
                error = self.refused("source_not_regular_file", path=path)
                self.assertEqual(str(error), f"source 'a' ({path}): not a regular file")

    @unittest.skipIf(IS_ROOT, "running as root: chmod 000 does not stop root from reading")
    def test_unreadable_source(self) -> None:
        """Guards against an untyped PermissionError for a source the user cannot read."""
        path = self.put("docs/a.md")
        path.chmod(0)
        self.addCleanup(path.chmod, stat.S_IRUSR | stat.S_IWUSR)
        self.write_manifest([self.entry("a", "docs/a.md")])
        error = self.refused("source_unreadable")
        self.assertEqual(str(error), "source 'a' (docs/a.md): cannot open: Permission denied")

    def test_open_and_read_failures_are_source_unreadable(self) -> None:
        """Guards against untyped OSErrors (simulated, so this runs as root too)."""
        target = str(self.put("docs/a.md"))
        self.write_manifest([self.entry("a", "docs/a.md")])
        real_open, real_read = os.open, os.read
        opened: set[int] = set()

        def denied(path: Any, *args: Any, **kwargs: Any) -> int:
            if opens_file(path, kwargs, target):
                raise PermissionError(errno.EACCES, "Permission denied")
            return real_open(path, *args, **kwargs)

        with mock.patch.object(os, "open", denied):
            error = self.refused("source_unreadable")
        self.assertEqual(str(error), "source 'a' (docs/a.md): cannot open: Permission denied")

        def tracking(path: Any, *args: Any, **kwargs: Any) -> int:
            fd = real_open(path, *args, **kwargs)
            if opens_file(path, kwargs, target):
                opened.add(fd)
            return fd

        def failing(fd: int, n: int) -> bytes:
            if fd in opened:
                raise OSError(errno.EIO, "Input/output error")
            return real_read(fd, n)

        with mock.patch.object(os, "open", tracking), mock.patch.object(os, "read", failing):
            error = self.refused("source_unreadable")
        self.assertEqual(str(error), "source 'a' (docs/a.md): cannot read: Input/output error")

    def test_source_over_the_size_limit_is_refused_unread(self) -> None:
        """Guards against reading (into memory) a source larger than MAX_SOURCE_BYTES."""
        at_limit = self.sparse("docs/limit.md", MAX_SOURCE_BYTES)
        big_path = self.sparse("docs/big.md", MAX_SOURCE_BYTES + 1)
        self.write_manifest([self.entry("limit", "docs/limit.md", at_limit.read_bytes())])
        self.assertEqual(load_documents(self.manifest).sources["limit"].size, MAX_SOURCE_BYTES)  # the limit is fine
        self.write_manifest([self.entry("big", "docs/big.md", b"")])
        with OpenSpy() as spy:
            error = self.refused("source_too_large", source_id="big")
        self.assertEqual(
            str(error),
            f"source 'big' (docs/big.md): {MAX_SOURCE_BYTES + 1} bytes is over the {MAX_SOURCE_BYTES}-byte limit",
        )
        self.assertEqual(spy.bytes_read[identity(big_path)], 0)

    def test_source_that_grows_past_the_limit_while_read(self) -> None:
        """Guards against trusting fstat's size: a file growing after the check is still capped."""
        size = MAX_SOURCE_BYTES + 40
        self.sparse("docs/a.md", size)
        self.write_manifest([self.entry("a", "docs/a.md", b"")])
        real_fstat = os.fstat

        def shrunk(fd: int) -> os.stat_result:
            info = real_fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size != size:
                return info
            fields = list(info[:10])
            fields[6] = 8  # st_size: what the file measured before it grew
            return os.stat_result(fields)

        with mock.patch.object(os, "fstat", shrunk):
            error = self.refused("source_too_large")
        self.assertEqual(
            str(error), f"source 'a' (docs/a.md): file grew over the {MAX_SOURCE_BYTES}-byte limit while read"
        )

    def test_a_file_that_grows_under_the_limit_is_hashed_as_read(self) -> None:
        """Guards against hashing one size and parsing another: the bytes read are the bytes verified."""
        raw = TEXT + b"more\n"
        self.put("docs/a.md", raw)
        self.write_manifest([self.entry("a", "docs/a.md", raw)])
        real_fstat = os.fstat

        def shrunk(fd: int) -> os.stat_result:
            info = real_fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size != len(raw):
                return info
            fields = list(info[:10])
            fields[6] = len(TEXT)  # the size before the last line was appended
            return os.stat_result(fields)

        with mock.patch.object(os, "fstat", shrunk):
            source = load_documents(self.manifest).sources["a"]
        self.assertEqual((source.size, source.sha256), (len(raw), sha(raw)))


class VerifyTest(CorpusCase):
    def test_line_ending_changes_are_a_hash_mismatch_with_a_hint(self) -> None:
        """Guards against normalising line endings before hashing (a CRLF checkout must not verify)."""
        lf = TEXT
        crlf = lf.replace(b"\n", b"\r\n")
        cases = {
            "CRLF checkout of an LF pin": (
                lf,
                crlf,
                "only line endings differ: the file has CRLF where the pinned bytes have LF",
            ),
            "LF checkout of a CRLF pin": (
                crlf,
                lf,
                "only line endings differ: the file has LF where the pinned bytes have CRLF",
            ),
            "CRLF and an edit": (lf, crlf.replace(b"refuse", b"overwrite"), None),
            "an edit only": (lf, lf.replace(b"refuse", b"overwrite"), None),
            "BOM added": (lf, BOM + lf, None),
            "BOM removed": (BOM + lf, lf, None),
            "trailing newline removed": (lf, lf[:-1], None),
        }
        for name, (pinned, on_disk, hint) in cases.items():
            with self.subTest(name):
                path = self.fresh(on_disk)
                self.write_manifest([self.entry("a", path, pinned)])
                error = self.refused("hash_mismatch", path=path)
                message = f"source 'a' ({path}): sha256 is {sha(on_disk)}, pinned {sha(pinned)}"
                self.assertEqual(str(error), message + (f" ({hint})" if hint else ""))
                self.assertEqual(line_ending_hint(on_disk, sha(pinned)), hint or "")

    def test_invalid_utf8_reports_the_raw_byte_offset(self) -> None:
        """Guards against loose decoding, and an offset that forgets the BOM or multibyte text.

        Each source is pinned to its own bytes, so the digest passes and the
        decoder is reached; the expected offset is the length of the valid
        prefix in raw bytes (BOM included).
        """
        cases = {
            "lone 0xff": (b"ok\n", b"\xff", b"\n"),
            "after a BOM": (BOM + b"ok\n", b"\xff", b""),
            "right after a BOM": (BOM, b"\xff", b"ok\n"),
            "after multibyte text": ("caf\u00e9 \u2014 ".encode(), b"\x80", b"\n"),
            "latin-1 byte": (b"na", b"\xefve", b""),
            "truncated sequence at the end": (b"abc", b"\xe2\x82", b""),
            "overlong encoding of '/'": (b"a", b"\xc0\xaf", b""),
            "encoded surrogate": (b"ab", b"\xed\xa0\x80", b""),
            "partial BOM": (b"", b"\xef\xbbx", b""),
            "above U+10FFFF": (b"x", b"\xf4\x90\x80\x80", b""),
            "in a directive line": (b"@quill create_copy existing_path=refus", b"\xe9", b"\n"),
        }
        for name, (prefix, bad, suffix) in cases.items():
            with self.subTest(name):
                raw = prefix + bad + suffix
                path = self.fresh(raw)
                self.write_manifest([self.entry("a", path, raw)])
                error = self.refused("source_not_utf8", path=path)
                self.assertEqual(str(error), f"source 'a' ({path}): invalid UTF-8 at byte {len(prefix)}")

    def test_a_bom_is_not_part_of_the_text(self) -> None:
        """Guards against a BOM making the first line a malformed directive (or shifting columns)."""
        raw = BOM + b"@quill create_copy existing_path=refuse\n"
        self.put("docs/a.md", raw)
        self.write_manifest([self.entry("a", "docs/a.md", raw)])
        (claim,) = load_documents(self.manifest).sources["a"].claims
        self.assertEqual((claim.line, claim.start, claim.byte_start), (1, 0, 3))

    def test_each_source_is_read_exactly_once(self) -> None:
        """Guards against a second read (a time-of-check/time-of-use gap between hashing and parsing)."""
        files = {
            "docs/a.md": TEXT,
            "docs/b.md": TEXT + b"b\n",
            "docs/c.md": BOM + b"c\n",
            "d.md": b"@quill create_copy close_required=no\r\n",
            "docs/e.md": b"",
        }
        paths = {rel: self.put(rel, raw) for rel, raw in files.items()}
        self.write_manifest([self.entry(Path(rel).stem, rel, raw) for rel, raw in files.items()])
        with OpenSpy() as spy:
            corpus = load_documents(self.manifest, cache=False)  # the cache file's reads: test_cache.py
        self.assertEqual(len(corpus), len(files))
        expected = Counter({identity(self.manifest): 1, **{identity(p): 1 for p in paths.values()}})
        if HAS_DIR_FD:  # and each folder once, held open by descriptor, the folders above the root too
            expected.update({identity(self.root): 1, identity(self.root / "docs"): 1})
            expected.update({identity(folder): 1 for folder in Path(os.path.realpath(self.root)).parents})
        self.assertEqual(spy.opened, expected)
        for rel, path in paths.items():
            with self.subTest(rel):
                self.assertEqual(spy.bytes_read[identity(path)], len(files[rel]))

    def test_the_first_bad_source_in_manifest_order_is_reported(self) -> None:
        """Guards against an order-dependent report: the first failing entry is the one named."""
        self.put("docs/a.md")
        self.put("docs/b.md", b"changed\n")
        self.put("docs/c.md", b"\xff")
        self.write_manifest(
            [self.entry("a", "docs/a.md"), self.entry("c", "docs/c.md", b"\xff"), self.entry("b", "docs/b.md")]
        )
        self.refused("source_not_utf8", source_id="c")
        self.write_manifest(
            [self.entry("a", "docs/a.md"), self.entry("b", "docs/b.md"), self.entry("c", "docs/c.md", b"\xff")]
        )
        self.refused("hash_mismatch", source_id="b")


class ReasonCoverageTest(CorpusCase):
    def test_load_documents_produces_every_ingestion_reason(self) -> None:
        """Every registered ingestion reason is reachable through ``load_documents`` (none is dead text)."""
        good = self.entry("a", "docs/a.md")
        self.put("docs/a.md")
        self.put("docs/other.md")
        self.put("docs/bad.md", b"\xff")
        self.sparse("docs/big.md", MAX_SOURCE_BYTES + 1)
        (self.root / "docs" / "dir.md").mkdir()
        (self.outside / "x.md").write_bytes(TEXT)
        os.symlink(self.outside, self.root / "out")
        real_open = os.open

        def denied_open(path: Any, *args: Any, **kwargs: Any) -> int:
            if opens_file(path, kwargs, self.root / "docs" / "a.md"):
                raise PermissionError(errno.EACCES, "Permission denied")
            return real_open(path, *args, **kwargs)

        def raw(data: bytes) -> Path:
            self._count += 1
            path = self.root / f"raw-{self._count}.json"
            path.write_bytes(data)
            return path

        def manifest(documents: list[Any], **top: Any) -> Path:
            data = {"grammar": QUILL_GRAMMAR, "version_scheme": "major.minor", "documents": documents, **top}
            return raw(json.dumps(data).encode())

        no_readings = render_recorded(grammar_from_json(QUILL_GRAMMAR), []).encode()  # a's reading not recorded
        self.put("docs/readings.json", no_readings)
        cases: dict[str, tuple[Path, Any]] = {
            "manifest_unreadable": (self.root / "absent.json", None),
            "manifest_not_utf8": (raw(b"\xff"), None),
            "manifest_not_json": (raw(b"{"), None),
            "invalid_manifest": (manifest([good], extra=1), None),
            "invalid_version_scheme": (manifest([good], version_scheme="x"), None),
            "invalid_renderer": (manifest([good], renderer="gitlab"), None),
            "invalid_source_id": (manifest([dict(good, source_id="a b")]), None),
            "invalid_version": (manifest([dict(good, version="1")]), None),
            "invalid_status": (manifest([dict(good, status="x")]), None),
            "invalid_url": (manifest([dict(good, url="")]), None),
            "invalid_sha256": (manifest([dict(good, sha256="x")]), None),
            "duplicate_source_id": (manifest([good, dict(good, path="docs/other.md")]), None),
            "duplicate_path": (manifest([good, dict(good, source_id="b")]), None),
            "invalid_path": (manifest([dict(good, path="../a.md")]), None),
            "path_outside_root": (manifest([dict(good, path="out/x.md")]), None),
            "source_missing": (manifest([dict(good, path="docs/none.md")]), None),
            "source_not_regular_file": (manifest([dict(good, path="docs/dir.md")]), None),
            "source_unreadable": (manifest([good]), mock.patch.object(os, "open", denied_open)),
            "source_too_large": (manifest([dict(good, path="docs/big.md")]), None),
            "hash_mismatch": (manifest([dict(good, sha256="0" * 64)]), None),
            "source_unpinned": (manifest([dict(good, sha256="")]), None),
            "source_not_utf8": (manifest([dict(good, path="docs/bad.md", sha256=sha(b"\xff"))]), None),
            "readings_unreadable": (manifest([good], readings="none.json", readings_sha256="0" * 64), None),
            "reading_unusable": (
                manifest([good], readings="docs/readings.json", readings_sha256=sha(no_readings)),
                None,
            ),
        }
        # the reasons of --site come from judging a loaded corpus by its build: tests.test_site_build
        self.assertEqual(set(cases), set(INGESTION_REASONS) - {"site_unreadable", "built_page_missing"})
        for reason, (path, patch) in cases.items():
            with self.subTest(reason):
                with patch or contextlib.nullcontext(), self.assertRaises(IngestionError) as caught:
                    load_documents(path)
                self.assertEqual(caught.exception.reason, reason, str(caught.exception))
                self.assertTrue(str(caught.exception).isprintable())


if __name__ == "__main__":
    unittest.main()
