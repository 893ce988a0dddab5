"""The manifest follows the docs tree: ``init`` (linear, capped, naming what it leaves out),
``init --update`` (and ``--prune``), and unlisted pages failing ``pin --check`` and ``audit``.

Every command runs in process (:func:`tests.support.run_cli`). :class:`GitRepositoryTest`
is the end-to-end run of a Git docs repository: ``init``, ``pin``, pages added and
deleted, ``pin --check`` failing on the unlisted page, ``init --update`` and
``--prune``, ``pin``, and ``pin --check`` and ``audit`` passing again, with every
byte of the manifest outside the changed entries unchanged. It needs ``git``
and skips, saying so, without it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock

from _conflict_gate.base.errors import IngestionError
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.base.registry import EXIT_CODES, MAX_FOLDER_DEPTH, MAX_SOURCE_BYTES
from _conflict_gate.cli import init as cli_init
from _conflict_gate.cli import main as cli
from _conflict_gate.corpus.load import source_digest
from _conflict_gate.manifest.sources import Pattern, Sources
from _conflict_gate.manifest.tree import propose_id, scan
from tests.support import run_cli

ORBIT = b"# Queue\n\n@orbit queue.publish max-retries=2\n"
GIT = shutil.which("git")


def code(name: str) -> int:
    return EXIT_CODES[name][0]


def page(key: str = "max-retries", value: str = "2", title: str = "Page") -> bytes:
    return f"# {title}\n\n@orbit queue.publish {key}={value}\n".encode()


class Run(NamedTuple):
    code: int
    out: str
    err: str


class TreeCase(unittest.TestCase):
    """A temporary folder ``self.tmp`` with ``docs/``; the CLI in process."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-tree-")
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(os.path.realpath(tmp.name))
        self.docs = self.tmp / "docs"
        self.docs.mkdir()
        self.manifest = self.docs / "manifest.json"
        self.m = str(self.manifest)

    def put(self, rel: str, raw: bytes = ORBIT) -> Path:
        path = self.docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        return path

    def cli(self, *argv: str) -> Run:
        result = Run(*run_cli(argv))
        self.assertNotIn("Traceback", result.err)
        return result

    def init(self, *extra: str) -> Run:
        return self.cli("init", str(self.docs), "--version-from", "{version}/**", *extra)

    def update(self, *extra: str) -> Run:
        return self.cli("init", "--update", "--manifest", self.m, *extra)

    def data(self) -> Any:
        return json.loads(self.manifest.read_text(encoding="utf-8"))

    def ids(self) -> list[str]:
        return [entry["source_id"] for entry in self.data()["documents"]]

    def assertError(self, result: Run, kind: str, *parts: str) -> None:
        self.assertEqual(result.code, code(kind), result)
        self.assertTrue(result.err.startswith("conflict-gate: error: "), result.err)
        self.assertEqual(result.err.count("\n"), 1, result.err)
        for part in parts:
            self.assertIn(part, result.err)


# ==========================================================================
# init


class InitPagesTest(TreeCase):
    def varied_tree(self) -> None:
        """A page, and one entry of each kind init leaves out."""
        self.put("1.0/guide.md")
        self.put("1.0/component.mdx", b"<Tabs />\n")
        self.put("1.0/notes.txt", b"not markdown at all, never mentioned\n")
        self.put("README.md", b"# Docs\n")
        (self.docs / "1.0" / "dangling.md").symlink_to("nowhere.md")
        (self.docs / "1.0" / "loop.md").symlink_to("loop.md")  # a loop is no dangling link (a hostile tester)
        (self.docs / "1.0" / "latest.md").symlink_to("guide.md")
        os.link(self.docs / "1.0" / "guide.md", self.docs / "1.0" / "hard.md")
        outside = self.tmp / "outside.md"
        outside.write_bytes(ORBIT)
        (self.docs / "1.0" / "out.md").symlink_to(outside)
        os.mkfifo(self.docs / "1.0" / "pipe.md")
        (self.docs / "1.0" / "folder.md").mkdir()
        (self.docs / "2.0").symlink_to("1.0")
        if hasattr(socket, "AF_UNIX"):
            server = socket.socket(socket.AF_UNIX)
            self.addCleanup(server.close)
            server.bind(str(self.docs / "1.0" / "socket.md"))

    def test_every_entry_left_out_is_named_with_why(self) -> None:
        """Regression: init skipped .mdx files, dangling symlinks, FIFOs and folders named *.md
        without a word, so a page could be missing from the manifest unseen."""
        self.varied_tree()
        result = self.init()
        self.assertEqual((result.code, result.out), (code("ok"), ""), result.err)
        expected = [
            "left out: 1.0/component.mdx: a .mdx file is not read as a page: pages are .md or .markdown files, "
            "read as CommonMark and GFM",
            "left out: 1.0/dangling.md: a dangling symlink (its target does not exist)",
            "left out: 1.0/folder.md: a folder, not a page (its pages are looked for inside)",
            "left out: 1.0/hard.md: the same file as 1.0/guide.md, which is listed (one file must not count twice)",
            "left out: 1.0/latest.md: a symlink to 1.0/guide.md, which is listed (one file must not count twice)",
            "left out: 1.0/loop.md: a symlink in a loop (it leads back to itself)",
            "left out: 1.0/out.md: a symlink leading outside the manifest's folder",
            "left out: 1.0/pipe.md: not a regular file (FIFO)",
            *(["left out: 1.0/socket.md: not a regular file (socket)"] if hasattr(socket, "AF_UNIX") else []),
            "left out: 2.0: a symlink to a folder: not followed (list the folder it names)",
            "left out: README.md: does not match '{version}/**'",
        ]
        self.assertEqual(result.err.splitlines()[:-2], expected)
        self.assertEqual(self.ids(), ["1.0/guide"])
        self.assertEqual(self.data()["sources"], {"include": ["{version}/**"], "exclude": []})
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        # what init left out and the sources take stays a finding of pin --check (and audit) until
        # mended or excluded: a page the gate cannot read must not pass unseen (a newcomer's .mdx page)
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(check.code, code("findings"), check)
        left = ["component.mdx", "dangling.md", "folder.md", "loop.md", "out.md", "pipe.md"]
        left += ["socket.md"] if hasattr(socket, "AF_UNIX") else []
        self.assertEqual(
            [line.split(":")[0] for line in check.out.splitlines()[:-1]], [f"unlisted 1.0/{name}" for name in left]
        )
        self.assertIn(
            "1.0/component.mdx: matches the manifest's sources but is not listed, and init --update "
            "cannot add it: a .mdx file is not read as a page",
            check.out,
        )
        data = self.data()
        data["sources"]["exclude"] = [f"{{version}}/{name}" for name in left]
        Path(self.m).write_text(json.dumps(data), encoding="utf-8")
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(check, Run(code("ok"), "all 1 pins are current\n", ""))

    def test_both_walks_see_the_same_tree(self) -> None:
        """The walk by descriptor and the walk by path (platforms without openat) agree entry by entry."""
        self.varied_tree()
        sources = Sources((Pattern.parse("{version}/**", include=True),))
        by_descriptor = scan(str(self.docs), sources, by_descriptor=True)
        self.assertEqual(scan(str(self.docs), sources, by_descriptor=False), by_descriptor)
        self.assertEqual([page.path for page in by_descriptor.pages], ["1.0/guide.md", "1.0/hard.md", "1.0/latest.md"])

    def test_a_page_over_the_size_cap_is_left_out(self) -> None:
        """Regression: init read every page whole, without the cap: a 1 GiB page ended in MemoryError."""
        self.put("1.0/guide.md")
        big = self.docs / "1.0" / "big.md"
        with open(big, "wb") as handle:
            handle.truncate(MAX_SOURCE_BYTES + 1)
        real_read = os.read
        read: list[int] = []

        def counting(fd: int, n: int) -> bytes:
            data = real_read(fd, n)
            read.append(len(data))
            return data

        with mock.patch.object(os, "read", counting):
            result = self.init()
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertIn(
            f"left out: 1.0/big.md: {MAX_SOURCE_BYTES + 1} bytes is over the {MAX_SOURCE_BYTES}-byte "
            "limit (MAX_SOURCE_BYTES)\n",
            result.err,
        )
        self.assertLess(sum(read), 1 << 20, "the page over the cap was read")
        self.assertEqual(self.ids(), ["1.0/guide"])

    def test_an_unreadable_page_is_named_and_nothing_is_written(self) -> None:
        """Regression: a page init could not read was reported as "cannot write to standard output" (exit 7)."""
        self.put("1.0/guide.md")
        secret = self.put("1.0/secret.md")
        real_open = os.open

        def denied(path: Any, *args: Any, **kwargs: Any) -> int:
            dir_fd = kwargs.get("dir_fd")
            if os.fsdecode(path) == str(secret) or (dir_fd is not None and os.fsdecode(path) == "secret.md"):
                raise PermissionError(13, "Permission denied")
            return real_open(path, *args, **kwargs)

        with mock.patch.object(os, "open", denied):
            result = self.init()
        self.assertError(
            result, "input", "source '1.0/secret' (1.0/secret.md): cannot open: Permission denied [source_unreadable]"
        )
        self.assertFalse(self.manifest.exists())

    def test_an_unreadable_folder_is_named_and_nothing_is_written(self) -> None:
        """A folder that cannot be listed may hide pages: init, pin --check and audit stop, naming it."""
        self.put("1.0/guide.md")
        self.put("1.0/private/x.md")
        private = os.stat(self.docs / "1.0" / "private")
        real_scandir = os.scandir

        def denied(path: Any = ".") -> Any:
            if (os.fstat(path) if isinstance(path, int) else os.stat(path)).st_ino == private.st_ino:
                raise PermissionError(13, "Permission denied")
            return real_scandir(path)

        with mock.patch.object(os, "scandir", denied):
            result = self.init()
        self.assertError(result, "input", "1.0/private: cannot list the folder: Permission denied [source_unreadable]")
        self.assertFalse(self.manifest.exists())

    def test_a_page_that_is_not_utf8_is_refused_with_the_byte_offset(self) -> None:
        """Regression: init read pages with replacement characters, so a page that is not UTF-8 was
        listed, pinned, and refused by every later load."""
        self.put("1.0/guide.md")
        self.put("1.0/latin1.md", b"# Caf\xe9\n")
        result = self.init()
        self.assertError(
            result,
            "input",
            "source '1.0/latin1' (1.0/latin1.md): invalid UTF-8 at byte 5 "
            "[source_not_utf8]; pages are read as UTF-8 only: save the file as "
            "UTF-8, or leave it out of the manifest",
        )
        self.assertFalse(self.manifest.exists())

    def test_a_path_that_is_not_an_id_gets_an_ascii_id(self) -> None:
        """Regression: init dropped paths with spaces or non-ASCII letters ("not a valid source id")
        though an ASCII id would do."""
        names = {
            "2.0/café guide.md": "2.0/cafe-guide",
            "2.0/日本語.md": propose_id("2.0/日本語.md")[0],
            "2.0/plain.md": "2.0/plain",
        }
        for rel in names:
            self.put(rel)
        result = self.init()
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertEqual(self.ids(), ["2.0/cafe-guide", "2.0/plain", names["2.0/日本語.md"]])
        self.assertRegex(names["2.0/日本語.md"] or "", r"^2\.0/page-[0-9a-f]{8}$")
        self.assertIn(
            "id: 2.0/café guide.md: listed as '2.0/cafe-guide', since its path is not a source id", result.err
        )
        self.assertEqual(self.data()["documents"][0]["path"], "2.0/café guide.md")
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        gate = self.cli(
            "gate", "--manifest", self.m, "--version", "2.0", "--claim", "max-retries", "2.0/cafe-guide", "2.0/plain"
        )
        self.assertEqual(gate.code, code("ok"), gate.err)

    def test_colliding_ids_are_refused_naming_both_files(self) -> None:
        """Regression: init wrote guide.md and guide.markdown as two entries of id 1.0/guide, which its
        own next step, pin, refused (duplicate_source_id)."""
        for pair, id_ in (
            (("1.0/guide.md", "1.0/guide.markdown"), "1.0/guide"),
            (("1.0/cafe.md", "1.0/café.md"), "1.0/cafe"),
        ):
            with self.subTest(pair=pair):
                shutil.rmtree(self.docs)
                for rel in pair:
                    self.put(rel)
                result = self.init()
                self.assertError(
                    result, "input", pair[0], pair[1], f"source id {id_!r}", "[duplicate_source_id]", "nothing written"
                )
                self.assertFalse(self.manifest.exists())

    def test_the_manifest_elsewhere_records_the_pattern_from_its_folder(self) -> None:
        self.put("1.0/guide.md")
        target = self.tmp / "manifest.json"
        result = self.init("--manifest", str(target))
        self.assertEqual(result.code, code("ok"), result.err)
        data = json.loads(target.read_text(encoding="utf-8"))
        self.assertEqual(data["sources"], {"include": ["docs/{version}/**"], "exclude": []})
        self.assertEqual([(d["source_id"], d["path"]) for d in data["documents"]], [("1.0/guide", "docs/1.0/guide.md")])
        self.assertEqual(self.cli("pin", "--manifest", str(target)).code, code("ok"))
        self.assertEqual(self.cli("pin", "--check", "--manifest", str(target)).code, code("ok"))

    def test_docs_outside_the_manifest_folder_and_bad_patterns(self) -> None:
        self.put("1.0/guide.md")
        (self.tmp / "elsewhere").mkdir()
        outside = self.init("--manifest", str(self.tmp / "elsewhere" / "m.json"))
        self.assertError(outside, "input", "no page under", "is not inside the manifest's folder", "nothing written")
        for pattern, words in (
            ("{version}/**.md", "'**' must be a whole segment"),
            ("../{version}/**", "leads outside the manifest's folder"),
            ("{version}/[a-z]*.md", "not glob syntax here"),
        ):
            with self.subTest(pattern):
                result = self.cli("init", str(self.docs), "--version-from", pattern)
                self.assertError(result, "usage", f"--version-from {pattern!r}", words)
        self.assertFalse(self.manifest.exists())

    def test_folders_nested_too_deep_are_not_walked(self) -> None:
        self.put("1.0/guide.md")
        deep = self.docs / "1.0" / "/".join(["d"] * MAX_FOLDER_DEPTH)
        deep.mkdir(parents=True)
        result = self.init()
        self.assertError(result, "input", f"nested deeper than {MAX_FOLDER_DEPTH} folders", "[source_unreadable]")

    def test_a_wide_tree_is_walked_with_few_descriptors(self) -> None:
        """Guards against holding a descriptor open per folder met: 150 folders under a limit of 100
        open files (the walk holds one per level)."""
        try:
            import resource
        except ImportError:
            self.skipTest("no resource module: the open-file limit cannot be lowered here")
        for index in range(150):
            self.put(f"1.0/f{index:03d}/page.md", page(title=str(index)))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(100, hard), hard))
        try:
            found = scan(str(self.docs), Sources((Pattern.parse("{version}/**", include=True),)))
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        self.assertEqual(len(found.pages), 150)
        self.assertEqual(found.pages[0].path, "1.0/f000/page.md")

    def test_the_proposed_grammar_is_checked_once(self) -> None:
        """Regression: init checked the proposed grammar once per page (pages x keys: 8,000 pages of one
        key each took 280 s). The bench times it (``bench/run.py``, figure ``init``)."""
        for index in range(40):
            self.put(f"1.0/p{index:02d}.md", page(key=f"key-{index:02d}"))
        with mock.patch.object(cli_init, "grammar_from_json", wraps=vars(cli_init)["grammar_from_json"]) as checked:
            result = self.init()
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertEqual(checked.call_count, 1)
        self.assertEqual(len(self.data()["grammar"]["operations"]["queue.publish"]), 40)


# ==========================================================================
# init --update


class UpdateTest(TreeCase):
    def setUp(self) -> None:
        super().setUp()
        self.put("1.0/a.md", page(title="A"))
        self.put("1.0/c.md", page(title="C"))
        self.put("2.0/e.md", page(title="E"))
        self.assertEqual(self.init("--base-url", "https://docs.orbit.example/").code, code("ok"))
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        self.before = self.manifest.read_text(encoding="utf-8")

    @staticmethod
    def block(source_id: str, version: str, path: str, sha: str = "", url: str = "https://docs.orbit.example") -> str:
        """An entry as init writes it, indented as an element of documents, without separators."""
        return (
            "{\n"
            f'      "source_id": "{source_id}",\n      "version": "{version}",\n      "path": "{path}",\n'
            f'      "url": "{url}/{source_id}",\n      "sha256": "{sha}"\n    }}'
        )

    def test_new_pages_go_in_path_order_and_every_other_byte_stays(self) -> None:
        self.put("1.0/b.md", page(title="B"))
        self.put("2.0/z.md", page(title="Z"))
        self.put("0.9/old.md", page(title="Old"))
        result = self.update()
        self.assertEqual((result.code, result.out), (code("ok"), ""), result.err)
        self.assertEqual(
            result.err.splitlines(),
            [
                "added 0.9/old.md as '0.9/old' (version 0.9, approved, unpinned)",
                "added 1.0/b.md as '1.0/b' (version 1.0, approved, unpinned)",
                "added 2.0/z.md as '2.0/z' (version 2.0, approved, unpinned)",
                f"wrote {self.m}: 3 sources added, 0 removed",
                'next: review the new entries ("status": "draft" for a page not published yet; the grammar, for new '
                f"keys), then run: conflict-gate pin --manifest {self.m}",
            ],
        )
        sep = ",\n    "
        a = self.before.index('{\n      "source_id": "1.0/a"')
        expected = self.before[:a] + self.block("0.9/old", "0.9", "0.9/old.md") + sep + self.before[a:]
        c = expected.index('{\n      "source_id": "1.0/c"')
        expected = expected[:c] + self.block("1.0/b", "1.0", "1.0/b.md") + sep + expected[c:]
        end = expected.index("\n  ]\n}\n")
        expected = expected[:end] + sep + self.block("2.0/z", "2.0", "2.0/z.md") + expected[end:]
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), expected)
        self.assertEqual(self.ids(), ["0.9/old", "1.0/a", "1.0/b", "1.0/c", "2.0/e", "2.0/z"])
        pinned = self.cli("pin", "--manifest", self.m)
        self.assertEqual((pinned.code, pinned.out.splitlines()[-1]), (code("ok"), f"wrote {self.m}: 3 pins updated"))
        self.assertEqual(self.cli("pin", "--check", "--manifest", self.m).code, code("ok"))
        self.assertEqual(self.cli("audit", "--manifest", self.m).code, code("ok"))

    def test_gone_pages_are_named_and_removed_only_with_prune(self) -> None:
        (self.docs / "1.0" / "c.md").unlink()
        result = self.update()
        self.assertEqual(
            result,
            Run(
                code("ok"),
                "",
                "gone 1.0/c.md ('1.0/c'): the file no longer exists; run with "
                "--prune to remove its entry\n"
                f"unchanged {self.m}: no page to add; 1 gone entry kept\n",
            ),
        )
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), self.before)
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(check.code, code("findings"))
        self.assertIn(
            "missing 1.0/c (1.0/c.md): file does not exist; remove its entry with: conflict-gate init "
            f"--update --prune --manifest {self.m}\n",
            check.out,
        )
        pruned = self.update("--prune")
        self.assertEqual(
            pruned,
            Run(
                code("ok"),
                "",
                f"removed 1.0/c.md ('1.0/c'): the file no longer exists\nwrote {self.m}: 0 sources added, 1 removed\n",
            ),
        )
        c = self.before.index('{\n      "source_id": "1.0/c"')
        end = self.before.index("}", c) + 1
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), self.before[:c] + self.before[end + 6 :])
        self.assertEqual(self.ids(), ["1.0/a", "2.0/e"])
        self.assertEqual(self.cli("pin", "--check", "--manifest", self.m).code, code("ok"))

    def make_draft(self, *source_ids: str) -> None:
        data = self.data()
        for entry in data["documents"]:
            if entry["source_id"] in source_ids:
                entry["status"] = "draft"
        self.manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    def entry(self, source_id: str) -> dict[str, str]:
        return next(entry for entry in self.data()["documents"] if entry["source_id"] == source_id)

    def test_a_moved_draft_stays_a_draft(self) -> None:
        """Guards against a draft page moved (bytes unchanged) coming back approved from init --update
        --prune: the pin shows the rename (the new page's SHA-256 is the gone entry's pin), so the
        status and, in the same version, the pin are carried over (issue 34 item 7)."""
        self.make_draft("1.0/a")
        pin = self.entry("1.0/a")["sha256"]
        (self.docs / "1.0" / "a.md").rename(self.docs / "1.0" / "b.md")
        result = self.update("--prune")
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertEqual(
            result.err.splitlines()[:2],
            [
                "added 1.0/b.md as '1.0/b' (version 1.0, draft, pinned): moved from 1.0/a.md ('1.0/a'), bytes "
                "unchanged; its status and pin carried over",
                "removed 1.0/a.md ('1.0/a'): the file no longer exists",
            ],
        )
        self.assertEqual(self.ids(), ["1.0/b", "1.0/c", "2.0/e"])
        self.assertEqual(
            self.entry("1.0/b"),
            {
                "source_id": "1.0/b",
                "version": "1.0",
                "path": "1.0/b.md",
                "url": "https://docs.orbit.example/1.0/b",
                "status": "draft",
                "sha256": pin,
            },
        )
        self.assertEqual(self.cli("pin", "--check", "--manifest", self.m).code, code("ok"))
        gated = self.cli("gate", "--manifest", self.m, "--version", "1.0", "--claim", "max-retries", "1.0/b")
        self.assertEqual(json.loads(gated.out)["reason"], "no_approved_source")

    def test_a_draft_moved_to_another_version_keeps_its_status_not_its_pin(self) -> None:
        """Issue 34 item 7: across versions the status is carried, the pin is not (the version is a new
        claim about the page: review it, then pin); an approved page moved stays approved."""
        self.make_draft("1.0/a")
        (self.docs / "1.0" / "a.md").rename(self.docs / "2.0" / "a.md")
        (self.docs / "1.0" / "c.md").rename(self.docs / "1.0" / "d.md")
        result = self.update()  # without --prune too: the gone entries stay, named
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertIn(
            "added 1.0/d.md as '1.0/d' (version 1.0, approved, pinned): moved from 1.0/c.md ('1.0/c')", result.err
        )
        self.assertIn(
            "added 2.0/a.md as '2.0/a' (version 2.0, draft, unpinned): moved from 1.0/a.md ('1.0/a'), bytes "
            "unchanged; its status carried over, not its pin (version 1.0 -> 2.0: review it, then pin)",
            result.err,
        )
        self.assertEqual(self.entry("2.0/a")["status"], "draft")
        self.assertEqual(self.entry("2.0/a")["sha256"], "")
        self.assertNotIn("status", self.entry("1.0/d"))
        self.assertEqual(self.ids(), ["1.0/a", "1.0/c", "1.0/d", "2.0/a", "2.0/e"])

    def test_a_move_the_pins_cannot_tell_adds_a_draft(self) -> None:
        """Issue 34 item 7: a page whose bytes several gone entries were pinned to, or that several new
        pages hold, is added as a draft, said on stderr, whatever the gone entries' statuses."""
        self.put("1.0/c.md", page(title="A"))  # the same bytes as 1.0/a.md
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        self.assertEqual(self.entry("1.0/a")["sha256"], self.entry("1.0/c")["sha256"])
        (self.docs / "1.0" / "a.md").rename(self.docs / "1.0" / "b.md")
        (self.docs / "1.0" / "c.md").unlink()
        self.put("2.0/f.md", page(title="E"))  # the bytes of 2.0/e.md, which is not gone: a copy, not a move
        self.put("2.0/g.md", page(title="E"))
        (self.docs / "2.0" / "e.md").rename(self.docs / "2.0" / "h.md")  # then moved: three new pages hold it
        result = self.update("--prune")
        self.assertEqual(result.code, code("ok"), result.err)
        self.assertIn(
            "added 1.0/b.md as '1.0/b' (version 1.0, draft, unpinned): 2 gone entries ('1.0/a', '1.0/c') "
            "pinned to its bytes, so which page moved here cannot be told: added as a draft; review it and "
            "set its status",
            result.err,
        )
        self.assertIn(
            "added 2.0/f.md as '2.0/f' (version 2.0, draft, unpinned): 1 gone entry ('2.0/e') pinned to its "
            "bytes and 2 other new pages (2.0/g.md, 2.0/h.md) holding them, so",
            result.err,
        )
        self.assertEqual(
            {sid: self.entry(sid).get("status") for sid in self.ids()},
            {"1.0/b": "draft", "2.0/f": "draft", "2.0/g": "draft", "2.0/h": "draft"},
        )

    def test_a_hand_written_layout_is_kept(self) -> None:
        """One-line entries, CRLF line endings and a BOM: a new entry is written like its neighbours."""
        data = self.data()
        rows = ",\r\n".join("  " + json.dumps(entry) for entry in data["documents"])
        text = (
            '\ufeff{"grammar": ' + json.dumps(data["grammar"]) + ', "version_scheme": "major.minor",\r\n'
            ' "sources": {"include": ["{version}/**"]},\r\n "documents": [\r\n' + rows + "\r\n ]}\r\n"
        )
        self.manifest.write_bytes(text.encode("utf-8"))
        self.put("1.0/b.md", page(title="B"))
        self.assertEqual(self.update().code, code("ok"))
        new = json.dumps(
            {
                "source_id": "1.0/b",
                "version": "1.0",
                "path": "1.0/b.md",
                "url": "https://docs.orbit.example/1.0/b",
                "sha256": "",
            }
        )
        c = text.index('{"source_id": "1.0/c"')
        self.assertEqual(self.manifest.read_bytes(), (text[:c] + new + ",\r\n  " + text[c:]).encode("utf-8"))

    def test_a_manifest_without_sources_is_never_touched(self) -> None:
        data = self.data()
        del data["sources"]
        self.manifest.write_text(render_json(data), encoding="utf-8")
        before = self.manifest.read_bytes()
        self.put("1.0/b.md")
        result = self.update()
        self.assertError(
            result,
            "usage",
            f'{self.m} has no "sources", so init --update cannot tell which pages',
            '"sources": {"include": ["{version}/**"]}',
        )
        self.assertEqual(self.manifest.read_bytes(), before)
        self.assertEqual(
            self.cli("pin", "--check", "--manifest", self.m).code, code("ok"), "without sources, as before"
        )

    def test_nothing_new_leaves_the_file_untouched(self) -> None:
        info = self.manifest.stat()
        self.assertEqual(self.update(), Run(code("ok"), "", f"unchanged {self.m}: no page to add\n"))
        after = self.manifest.stat()
        self.assertEqual((after.st_ino, after.st_mtime_ns), (info.st_ino, info.st_mtime_ns))

    def test_an_id_taken_by_an_existing_entry_is_refused(self) -> None:
        self.put("1.0/a.markdown")
        result = self.update()
        self.assertError(result, "input", "1.0/a.markdown", "1.0/a.md", "source id '1.0/a'", "[duplicate_source_id]")
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), self.before)

    def test_urls_follow_the_entries_or_base_url(self) -> None:
        self.put("1.0/b.md")
        self.assertEqual(self.update("--base-url", "https://elsewhere.example/v").code, code("ok"))
        self.assertEqual(self.data()["documents"][1]["url"], "https://elsewhere.example/v/1.0/b")
        data = self.data()
        data["documents"][0]["url"] = "https://odd.example/page"
        self.manifest.write_text(render_json(data), encoding="utf-8")
        self.put("1.0/d.md")
        self.assertEqual(self.update().code, code("ok"))
        self.assertNotIn("url", self.data()["documents"][3], "the entries follow no one prefix: no url")

    def test_arguments(self) -> None:
        cases = {
            "DOCS_DIR with --update": (("init", str(self.docs), "--update", "--manifest", self.m), "takes no DOCS_DIR"),
            "--version-from with --update": (
                ("init", "--update", "--manifest", self.m, "--version-from", "{version}/**"),
                "takes no DOCS_DIR, --version-from, --scheme or --renderer",
            ),
            "--renderer with --update": (
                ("init", "--update", "--manifest", self.m, "--renderer", "github"),
                "takes no DOCS_DIR, --version-from, --scheme or --renderer",
            ),
            "--update without --manifest": (("init", "--update"), "init --update needs --manifest M"),
            "--prune without --update": (
                ("init", str(self.docs), "--version-from", "{version}/**", "--prune"),
                "--prune comes with --update",
            ),
            "no DOCS_DIR": (("init", "--version-from", "{version}/**"), "init needs DOCS_DIR and --version-from"),
        }
        for label, (argv, words) in cases.items():
            with self.subTest(label):
                self.assertError(self.cli(*argv), "usage", words)
        self.assertEqual(self.manifest.read_text(encoding="utf-8"), self.before)


# ==========================================================================
# pin --check and audit report unlisted pages


class UnlistedTest(TreeCase):
    def setUp(self) -> None:
        super().setUp()
        self.put("1.0/a.md")
        self.assertEqual(self.init().code, code("ok"))
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))

    def test_pin_check_and_audit_report_unlisted_pages(self) -> None:
        """Regression: a page added under the docs folder passed pin --check and audit untouched."""
        self.put("1.0/new.md", page(key="max-retries", value="2"))
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(
            check,
            Run(
                code("findings"),
                (
                    "unlisted 1.0/new.md: matches the manifest's sources but is not listed (init --update adds it as "
                    "'1.0/new')\n"
                    "all 1 pins are current\n"
                    f"1 page unlisted: add it with: conflict-gate init --update --manifest {self.m} (or exclude it in "
                    '"sources")\n'
                ),
                "",
            ),
        )
        audit = self.cli("audit", "--manifest", self.m, "--format", "json")
        self.assertEqual(audit.code, code("findings"))
        report = json.loads(audit.out)
        self.assertFalse(report["clean"])
        self.assertEqual(
            report["unlisted_sources"],
            [
                {
                    "path": "1.0/new.md",
                    "reason": "unlisted_source",
                    "version": "1.0",
                    "source_id": "1.0/new",
                    "message": "matches the manifest's sources but is not listed (init --update adds it as '1.0/new')",
                }
            ],
        )
        markdown = self.cli("audit", "--manifest", self.m)
        self.assertEqual(markdown.code, code("findings"))
        self.assertIn(
            "**NOT CLEAN** (1 agree, 0 conflict, 0 partial, 0 refused approved (failed ones included), "
            "0 unapproved conflicting, 0 near-misses, 0 failed verification, 1 unlisted)",
            markdown.out,
        )
        self.assertIn(
            "## Pages the manifest does not list (its sources take them)\n\n"
            "| path | version | id init --update gives it | why |\n|---|---|---|---|\n"
            "| 1.0/new.md | 1.0 | 1.0/new | matches the manifest's sources but is not listed "
            "(init --update adds it as '1.0/new') |\n",
            markdown.out,
        )
        gate = self.cli("gate", "--manifest", self.m, "--version", "1.0", "--claim", "max-retries", "1.0/a")
        self.assertEqual((gate.code, gate.err), (code("ok"), ""), "gate ignores unlisted pages")

    def test_a_page_init_update_cannot_add_is_reported_with_why(self) -> None:
        self.put("1.1.0/x.md")
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(check.code, code("findings"))
        self.assertIn(
            "unlisted 1.1.0/x.md: matches the manifest's sources but is not listed, and init --update "
            "cannot add it: version '1.1.0' (from the pattern) does not fit the version scheme "
            "'major.minor'",
            check.out,
        )
        self.assertNotIn("init --update --manifest", check.out)  # no advice to run what cannot add it
        report = json.loads(self.cli("audit", "--manifest", self.m, "--format", "json").out)
        self.assertEqual([(u["path"], u["source_id"]) for u in report["unlisted_sources"]], [("1.1.0/x.md", None)])
        data = self.data()
        data["sources"]["exclude"] = ["1.1.0/**"]
        self.manifest.write_text(render_json(data), encoding="utf-8")
        self.assertEqual(self.cli("pin", "--check", "--manifest", self.m).code, code("ok"), "excluded")

    def test_a_pattern_through_a_symlinked_folder_is_refused(self) -> None:
        """Guards against a pattern the walk can never follow (it passes through a symlinked folder)
        passing pin --check forever: the walk stops, naming the folder, in both walking modes."""
        (self.tmp / "site").symlink_to("docs")
        manifest = self.tmp / "manifest.json"
        data = self.data()
        data["sources"] = {"include": ["site/{version}/**"]}
        data["documents"][0]["path"] = "docs/1.0/a.md"
        manifest.write_text(render_json(data), encoding="utf-8")
        check = self.cli("pin", "--check", "--manifest", str(manifest))
        self.assertError(
            check, "input", "site: a symlink to a folder on the way of a sources pattern", "[source_unreadable]"
        )
        sources = Sources((Pattern.parse("site/{version}/**", include=True),))
        for by_descriptor in (True, False):
            with self.subTest(by_descriptor=by_descriptor), self.assertRaises(IngestionError) as caught:
                scan(str(self.tmp), sources, by_descriptor=by_descriptor)
            self.assertEqual((caught.exception.reason, caught.exception.path), ("source_unreadable", "site"))

    def test_a_second_path_to_a_listed_file_is_not_unlisted(self) -> None:
        (self.docs / "1.0" / "latest.md").symlink_to("a.md")
        os.link(self.docs / "1.0" / "a.md", self.docs / "1.0" / "hard.md")
        self.assertEqual(
            self.cli("pin", "--check", "--manifest", self.m), Run(code("ok"), "all 1 pins are current\n", "")
        )
        self.assertEqual(self.cli("audit", "--manifest", self.m).code, code("ok"))


class HintTest(TreeCase):
    """Every hint that says what to run next runs as printed: the program as typed (here
    ``python run.py``), the manifest's path shell-quoted (here it holds a space)."""

    def setUp(self) -> None:
        super().setUp()
        self.docs = self.tmp / "my docs"
        self.manifest = self.docs / "manifest.json"
        self.m = str(self.manifest)

    def run_py(self, *argv: str) -> Run:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(list(argv), prog="python run.py")
        return Run(status, out.getvalue(), err.getvalue())

    def follow(self, text: str, marker: str) -> None:
        """Run the command printed after ``marker`` in ``text``; it must succeed."""
        line = next(line for line in text.splitlines() if marker in line)
        command = line.split(marker, 1)[1].split(" (or exclude")[0]
        words = shlex.split(command)
        self.assertEqual(words[:2], ["python", "run.py"], line)
        self.assertIn(self.m, words, f"the manifest path must come out whole: {line}")
        followed = self.run_py(*words[2:])
        self.assertEqual(followed.code, code("ok"), (line, followed))

    def test_every_hint_runs_as_printed(self) -> None:
        self.put("1.0/a.md")
        self.put("1.0/b.md")
        init = self.run_py("init", str(self.docs), "--version-from", "{version}/**")
        self.assertIn(f"then run: python run.py pin --manifest {shlex.quote(self.m)}", init.err)
        unpinned = self.run_py("gate", "--manifest", self.m, "--version", "1.0", "--claim", "max-retries", "1.0/a")
        self.follow(unpinned.err, "then pin it: ")
        self.put("1.0/a.md", page(value="3"))
        stale = self.run_py("gate", "--manifest", self.m, "--version", "1.0", "--claim", "max-retries", "1.0/a")
        self.assertIn("[hash_mismatch]", stale.err)
        self.follow(stale.err, "re-pin: ")
        self.put("1.0/c.md")
        (self.docs / "1.0" / "b.md").unlink()
        check = self.run_py("pin", "--check", "--manifest", self.m)
        self.assertEqual(check.code, code("findings"))
        self.follow(check.out, "remove its entry with: ")
        self.follow(check.out, "add it with: ")
        self.put("1.0/d.md")
        update = self.run_py("init", "--update", "--manifest", self.m)
        self.follow(update.err, "then run: ")
        self.assertEqual(self.run_py("pin", "--check", "--manifest", self.m).code, code("ok"))


# ==========================================================================
# the end-to-end run in a Git repository


@unittest.skipIf(GIT is None, "git is not installed: the Git docs-repository run did not run")
class GitRepositoryTest(TreeCase):
    def git(self, *args: str) -> str:
        assert GIT is not None
        env = {
            **os.environ,
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "docs",
            "GIT_AUTHOR_EMAIL": "docs@orbit.example",
            "GIT_COMMITTER_NAME": "docs",
            "GIT_COMMITTER_EMAIL": "docs@orbit.example",
        }
        done = subprocess.run(
            [GIT, *args], check=False, cwd=self.tmp, env=env, capture_output=True, text=True, timeout=60
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_the_manifest_follows_the_repository(self) -> None:
        self.git("init", "--quiet")
        (self.tmp / ".gitattributes").write_text("docs/** -text\n", encoding="utf-8")
        self.put("1.0/publish.md", page(title="Publishing"))
        self.put("1.0/retries.md", page(title="Retries"))
        self.put("2.0/publish.md", page(value="5", title="Publishing"))
        self.put("2.0/old.md", page(value="5", title="Old"))
        self.assertEqual(self.init().code, code("ok"))
        # the maintainers' edits, in their own layout: a bound on the key, a page marked draft
        text = self.manifest.read_text(encoding="utf-8")
        text = text.replace(
            '"max-retries": {\n          "type": "integer"\n        }',
            '"max-retries": {"type": "integer", "min": 0, "max": 10}',
        )
        text = text.replace('"path": "1.0/retries.md",', '"path": "1.0/retries.md",  "status": "draft",')
        self.manifest.write_text(text, encoding="utf-8")
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        self.assertEqual(self.cli("audit", "--manifest", self.m).code, code("ok"))
        self.git("add", "-A")
        self.git("commit", "--quiet", "-m", "docs and their manifest")
        committed = self.git("show", "HEAD:docs/manifest.json")

        # a page is added, one is deleted
        self.put("2.0/queue.md", b"# Queues\n\n@orbit queue.publish max-retries=5\n")
        self.git("add", "docs/2.0/queue.md")
        self.git("rm", "--quiet", "docs/2.0/old.md")
        check = self.cli("pin", "--check", "--manifest", self.m)
        self.assertEqual(check.code, code("findings"))
        self.assertIn("unlisted 2.0/queue.md: matches the manifest's sources but is not listed", check.out)
        self.assertIn("missing 2.0/old (2.0/old.md): file does not exist", check.out)

        added = self.update()
        self.assertEqual(added.code, code("ok"), added.err)
        self.assertIn("added 2.0/queue.md as '2.0/queue' (version 2.0, approved, unpinned)", added.err)
        self.assertIn("gone 2.0/old.md ('2.0/old'): the file no longer exists; run with --prune", added.err)
        pruned = self.update("--prune")
        self.assertIn("removed 2.0/old.md ('2.0/old')", pruned.err)
        self.assertEqual(pruned.code, code("ok"), pruned.err)
        self.assertEqual(self.cli("pin", "--manifest", self.m).code, code("ok"))
        self.assertEqual(
            self.cli("pin", "--check", "--manifest", self.m), Run(code("ok"), "all 4 pins are current\n", "")
        )
        audit = self.cli("audit", "--manifest", self.m)
        self.assertEqual(audit.code, code("ok"), audit.out)
        self.assertIn("| 2.0 | queue.publish max-retries | agree | 5 | 2.0/publish, 2.0/queue | - |", audit.out)

        # every byte outside the two changed entries is as committed
        now = self.manifest.read_text(encoding="utf-8")
        sha = source_digest((self.docs / "2.0" / "queue.md").read_bytes())
        new_entry = (
            ',\n    {\n      "source_id": "2.0/queue",\n      "version": "2.0",\n      "path": '
            f'"2.0/queue.md",\n      "sha256": "{sha}"\n    }}'
        )
        self.assertEqual(now.count(new_entry), 1)
        old = committed.index('    {\n      "source_id": "2.0/old"')
        old_end = committed.index("}", old) + 1
        self.assertEqual(now.replace(new_entry, ""), committed[:old] + committed[old_end + 2 :])
        self.assertIn('"max-retries": {"type": "integer", "min": 0, "max": 10}', now)
        self.assertIn('"path": "1.0/retries.md",  "status": "draft",', now)
        self.git("add", "-A")
        self.assertEqual(
            self.git("status", "--porcelain", "--no-renames"),
            "D  docs/2.0/old.md\nA  docs/2.0/queue.md\nM  docs/manifest.json\n",
        )


if __name__ == "__main__":
    unittest.main()
