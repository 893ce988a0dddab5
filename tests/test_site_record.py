"""Recorded readings (``pin --site``): per page, what the build showed, bound to the page's SHA-256 and
used at load time instead of a Markdown reading; tamper cases fail closed; and pages in other text
formats (``.rst``, ``.mdx``, ``.adoc``) refused without a build (hand-written HTML: fast, standard
library only)."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from _conflict_gate.base.errors import IngestionError
from _conflict_gate.corpus import load as corpus_module
from _conflict_gate.corpus.load import Corpus, load_documents, read_recorded, source_digest
from _conflict_gate.corpus.recorded import READINGS_FORMAT, recorded_reading
from _conflict_gate.decide.decision import gate
from _conflict_gate.manifest.read import read_manifest
from _conflict_gate.reading.reading_shapes import Reading
from _conflict_gate.service.gate import GateService
from _conflict_gate.site.build import judge_site, locate_site
from tests.support import built_html, run_cli, write_corpus, write_site

#: The reasons produced here only (the decision tests' coverage leaves them to this module).
FORMAT_REASONS = frozenset({"needs_site_build"})
LINE = "@quill create_copy existing_path=refuse"
OTHER = "@quill create_copy close_required=yes"


def no_markdown_reading(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a page was read as Markdown")


def outline(corpus: Corpus) -> dict[str, Any]:
    """What a corpus holds per source, comparable across loads."""
    return {
        sid: (
            source.sha256,
            source.claims,
            None if source.refusal is None else (source.refusal.reason, source.refusal.line, str(source.refusal)),
            source.near_misses,
            source.occurrences,
        )
        for sid, source in corpus.sources.items()
    }


def read_readings(path: Path) -> dict[str, Any]:
    """A readings file as :meth:`RecordedCase.rewrite` edits it."""
    head, *lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    data = dict(json.loads(head))
    pages = []
    for line in lines:
        first, tab, reading = line.partition("\t")
        source_id, sha256, page = first.split(" ", 2)
        pages.append([source_id, page, sha256, json.loads(reading) if tab else None])
    data["pages"] = pages
    return data


def render_readings(data: dict[str, Any]) -> str:
    """The text of a readings file :func:`read_readings` gave (edited)."""
    lines = [json.dumps({**data, "pages": len(data["pages"])})]
    for source_id, page, sha256, reading in data["pages"]:
        lines.append(f"{source_id} {sha256} {page}" + ("" if reading is None else "\t" + json.dumps(reading)))
    return "\n".join(lines) + "\n"


class RecordedCase(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-record-")
        self.addCleanup(tmp.cleanup)
        self.root = Path(os.path.realpath(tmp.name))
        # a: a plain directive; b: a directive the Markdown reading doubts (lazy line after a list),
        # which the build shows as a line of its own (settled by the build); c: a directive in a table
        # in the build (refused); d: nothing directive-shaped
        self.manifest = write_site(
            self.root,
            {
                "a.md": f"# A\n\n{LINE}\n".encode(),
                "b.md": f"- item\n\n<p>\n{OTHER}\n</p>\n".encode(),
                "c.md": f"# C\n\n{LINE}\n".encode(),
                "d.md": b"# D\n\nNothing.\n",
            },
            {
                "a/index.html": built_html(f"<h1>A</h1><p>{LINE}</p>"),
                "b/index.html": built_html(f"<ul><li>item</li></ul><p>\n{OTHER}\n</p>"),
                "c/index.html": built_html(f"<h1>C</h1><table><tr><td>{LINE}</td></tr></table>"),
                "d/index.html": built_html("<h1>D</h1><p>Nothing.</p>"),
            },
        )
        self.site = str(self.root / "site")

    def pin_site(self) -> tuple[int, str, str]:
        return run_cli(["pin", "--manifest", str(self.manifest), "--site", self.site])

    def data(self) -> dict[str, Any]:
        return dict(json.loads(self.manifest.read_text(encoding="utf-8")))

    def readings_file(self) -> Path:
        return self.root / str(self.data()["readings"])

    def rewrite(self, edit: Callable[[dict[str, Any]], None]) -> None:
        """The readings file edited by ``edit`` and pinned again in the manifest (a consistent tamper):
        ``edit`` is given its first line's object with, under ``"pages"``, each page line as ``[source
        id, path, sha256, reading or None]``; the file is written back as pin --site writes one (its
        first line counting the pages given)."""
        data = read_readings(self.readings_file())
        edit(data)
        self.repin(render_readings(data))

    def repin(self, text: str) -> None:
        """The readings file replaced with ``text`` and pinned again in the manifest."""
        raw = text.encode()
        self.readings_file().write_bytes(raw)
        manifest = self.data()
        manifest["readings_sha256"] = source_digest(raw)
        self.manifest.write_text(json.dumps(manifest), encoding="utf-8")

    def load_error(self, **options: Any) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            load_documents(self.manifest, cache=False, **options)
        return caught.exception


class PinSiteTest(RecordedCase):
    def test_pin_site_records_what_the_build_showed(self) -> None:
        """Guards against a recorded reading that differs from the live judgement: a corpus loaded from
        the records equals the corpus --site judges (claims, spans, refusals, occurrences), and no page is
        read as Markdown at load time."""
        live = judge_site(load_documents(self.manifest, cache=False), locate_site(self.site, str(self.root)))
        code, out, err = self.pin_site()
        self.assertEqual((code, err), (0, ""), out)
        self.assertIn("4 readings recorded", out)
        self.assertIn("1 page refused", out)
        data = self.data()
        self.assertEqual(data["readings"], "manifest.readings.json")
        self.assertEqual(data["readings_sha256"], source_digest(self.readings_file().read_bytes()))
        self.assertEqual(list(data)[-1], "documents")
        lines = self.readings_file().read_text(encoding="utf-8").splitlines()
        self.assertEqual(len(lines), 1 + 4)  # the head, one page a line
        self.assertIn(READINGS_FORMAT, lines[0])
        with mock.patch.object(corpus_module, "read_page", no_markdown_reading):
            recorded = load_documents(self.manifest, cache=False)
        self.assertEqual(outline(recorded), outline(live))
        self.assertEqual([c.quote for c in recorded.sources["b"].claims], [OTHER])
        refusal = recorded.sources["c"].refusal
        self.assertEqual(refusal.reason if refusal else None, "misplaced_directive")
        self.assertEqual(gate(recorded, ["a"], "1.0", "create_copy", "existing_path")["status"], "ready")
        # pinned again with nothing changed: the same bytes
        before = (self.manifest.read_bytes(), self.readings_file().read_bytes())
        self.assertEqual(self.pin_site()[0], 0)
        self.assertEqual((self.manifest.read_bytes(), self.readings_file().read_bytes()), before)

    def test_the_manifest_layout_is_kept(self) -> None:
        """Guards against pin --site re-rendering the manifest: only the pins and the two keys change."""
        text = self.manifest.read_text(encoding="utf-8")
        self.pin_site()
        after = self.manifest.read_text(encoding="utf-8")
        self.assertEqual(
            after.replace('  "readings": "manifest.readings.json",\n', "").replace(
                f'  "readings_sha256": "{self.data()["readings_sha256"]}",\n', ""
            ),
            text,
        )

    def test_a_page_whose_bytes_changed_is_refused_until_pinned_again(self) -> None:
        """A changed page is hash_mismatch, the message saying to pin again with --site; pinned without
        --site, its recorded reading is of other bytes (reading_unusable, naming source, path and the
        command); pin --site makes it load again."""
        self.pin_site()
        page = self.root / "docs" / "a.md"
        page.write_bytes(f"# A\n\n{OTHER}\n".encode())
        error = self.load_error()
        self.assertEqual((error.reason, error.source_id, error.path), ("hash_mismatch", "a", "docs/a.md"))
        self.assertIn("pin again with --site", str(error))
        loose = load_documents(self.manifest, cache=False, strict=False)
        self.assertTrue(loose.sources["a"].failed)
        code, out, _ = run_cli(["pin", "--manifest", str(self.manifest), "--check"])
        self.assertEqual(code, 1)
        self.assertIn("pin them: conflict-gate pin --manifest", out)
        self.assertIn("--site DIR", out)
        code, out, _ = run_cli(["pin", "--manifest", str(self.manifest)])
        self.assertEqual(code, 0)
        self.assertIn("refused (reading_unusable) until their readings are recorded", out)
        code, out, _ = run_cli(["pin", "--manifest", str(self.manifest), "--check"])  # pins current, reading not
        self.assertEqual(code, 1)
        self.assertIn("stale reading a (docs/a.md): manifest.readings.json records the reading of other bytes", out)
        error = self.load_error()
        self.assertEqual((error.reason, error.source_id, error.path), ("reading_unusable", "a", "docs/a.md"))
        self.assertIn("other bytes", str(error))
        self.assertIn("pin --site", str(error))
        code, _, err = run_cli(
            ["gate", "--manifest", str(self.manifest), "--version", "1.0", "--claim", "existing_path", "a"]
        )
        self.assertEqual(code, 6)
        self.assertIn("[reading_unusable]", err)
        self.assertIn(f"pin --manifest {self.manifest} --site", err)
        # the build shows the new text
        (self.root / "site" / "a" / "index.html").write_text(built_html(f"<p>{OTHER}</p>"), encoding="utf-8")
        self.assertEqual(self.pin_site()[0], 0)
        self.assertEqual([c.quote for c in load_documents(self.manifest, cache=False).sources["a"].claims], [OTHER])

    def test_pin_check_site_finds_a_build_that_changed_under_unchanged_pages(self) -> None:
        """Guards against a recorded reading outliving the build it came from: an include, a macro or the
        theme changed, not the page's bytes. pin --check --site reports the page (exit 1), pin --check
        alone cannot (exit 0), pin --site records the build's new judgement."""
        self.assertEqual(run_cli(["pin", "--manifest", str(self.manifest), "--site", self.site, "--check"])[0], 2)
        self.pin_site()
        check = ["pin", "--manifest", str(self.manifest), "--site", self.site, "--check"]
        self.assertEqual(run_cli(check)[:2], (0, "all 4 pins are current\n"))
        (self.root / "site" / "a" / "index.html").write_text(built_html(f"<p>{OTHER}</p>"), encoding="utf-8")
        code, out, _ = run_cli(check)
        self.assertEqual(code, 1)
        self.assertIn("stale reading a (docs/a.md): the site's build now shows it otherwise", out)
        self.assertEqual(run_cli(["pin", "--manifest", str(self.manifest), "--check"])[0], 0)
        code, out, _ = run_cli([*check, "--format", "github"])
        self.assertEqual(code, 1)
        self.assertIn("::error file=docs/a.md", out)
        self.pin_site()
        self.assertEqual(run_cli(check)[0], 0)
        refusal = load_documents(self.manifest, cache=False).sources["a"].refusal
        self.assertEqual(refusal.reason if refusal else None, "site_disagrees")

    def test_a_page_found_by_position_or_by_source_id(self) -> None:
        """Guards against the lookup by position (the file's lines checked all at once against the
        manifest's entries, source id, pin and path) giving a page another page's line, or being used for
        other bytes: an entry of the manifest read again (another object), the lines in another order, or
        another digest take the lookup by source id, with the same readings and errors."""
        self.pin_site()
        manifest = read_manifest(self.manifest)
        recorded = read_recorded(manifest)
        assert recorded is not None
        self.assertIs(recorded.in_order, manifest.entries)
        raws = {entry.source_id: (self.root / entry.path).read_bytes() for entry in manifest.entries}

        def shown(reading: Reading) -> tuple[Any, ...]:
            refusal = reading.refusal
            return reading._replace(refusal=None), None if refusal is None else (refusal.reason, str(refusal))

        by_position = [shown(recorded_reading(recorded, e, e.sha256, raws[e.source_id])) for e in manifest.entries]
        self.assertEqual(recorded.pages, {})
        again = read_manifest(self.manifest).entries
        by_id = [shown(recorded_reading(recorded, e, e.sha256, raws[e.source_id])) for e in again]
        self.assertEqual(by_id, by_position)
        self.assertEqual(len(recorded.pages), 4)
        with self.assertRaises(IngestionError) as caught:
            recorded_reading(read_recorded(manifest), manifest.entries[0], "0" * 64, raws["a"])  # type: ignore[arg-type]
        self.assertIn("other bytes", str(caught.exception))
        before = outline(load_documents(self.manifest, cache=False))
        text = self.readings_file().read_text(encoding="utf-8")
        head, *lines = text.split("\n")[:-1]
        self.repin("\n".join([head, *reversed(lines)]) + "\n")
        reordered = read_recorded(read_manifest(self.manifest))
        self.assertEqual(reordered.in_order if reordered else None, ())
        self.assertEqual(outline(load_documents(self.manifest, cache=False)), before)

    def test_a_built_page_missing_stops_pin_site(self) -> None:
        """Guards against recording a page the build could not judge: exit 6, nothing written."""
        before = self.manifest.read_bytes()
        (self.root / "site" / "a" / "index.html").unlink()
        code, _, err = self.pin_site()
        self.assertEqual(code, 6)
        self.assertIn("built_page_missing", err)
        self.assertEqual(self.manifest.read_bytes(), before)
        self.assertFalse((self.root / "manifest.readings.json").exists())


class TamperTest(RecordedCase):
    """Every way the recorded readings can be wrong fails closed, naming the file or the page."""

    def setUp(self) -> None:
        super().setUp()
        self.assertEqual(self.pin_site()[0], 0)

    def test_the_readings_file_edited(self) -> None:
        """A byte changed in the readings file, the manifest not pinned again: readings_unreadable."""
        path = self.readings_file()
        path.write_bytes(path.read_bytes().replace(b"refuse", b"overwrite", 1))
        error = self.load_error(strict=False)
        self.assertEqual((error.reason, error.path), ("readings_unreadable", "manifest.readings.json"))
        self.assertIn("pin --site", str(error))

    def test_the_readings_file_missing_or_unpinned(self) -> None:
        self.readings_file().unlink()
        self.assertEqual(self.load_error(strict=False).reason, "readings_unreadable")
        data = self.data()
        data["readings_sha256"] = ""
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        self.assertIn("not pinned yet", str(self.load_error(strict=False)))

    def test_the_file_as_a_whole(self) -> None:
        """Another format, another grammar, a page recorded twice, a line for a page the manifest does not
        list, a first line counting other pages or with another key: the whole file is refused
        (readings_unreadable, saying why and to record the readings again), even by a non-strict load."""
        edits: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
            "format": (lambda data: data.update(format="conflict-gate recorded readings 0"), "its format is"),
            "grammar": (lambda data: data.update(grammar="0" * 64), "another grammar"),
            "twice": (lambda data: data["pages"].append(data["pages"][0]), "a is recorded twice"),
            "not listed": (
                lambda data: data["pages"].insert(2, ["e", "docs/e.md", "0" * 64, None]),
                "it records e, which the manifest does not list",
            ),
            "keys": (lambda data: data.update(extra=1), "not an object of format, grammar and pages"),
        }
        for name, (edit, message) in edits.items():
            with self.subTest(name):
                self.setUp()
                self.rewrite(edit)
                error = self.load_error(strict=False)
                self.assertEqual((error.reason, error.path), ("readings_unreadable", "manifest.readings.json"))
                self.assertIn(message, str(error))
                self.assertIn("record the readings again: pin --site", str(error))

    def test_the_file_forged_or_cut(self) -> None:
        """The file's lines as text, changed and pinned again (issue 30: the file is decoded line by line,
        so its structure is checked without its JSON): the whole file is refused (readings_unreadable)
        when its first line counts other pages, is no JSON (a repeated key among them), or it is cut
        short (a line dropped, the last line's break), or a page line is not a source id and a space."""
        text = self.readings_file().read_text(encoding="utf-8")
        head, *lines = text.split("\n")[:-1]
        cases = {
            "a line dropped": ("\n".join([head, *lines[:-1]]) + "\n", "it holds 3 page lines, its first line says 4"),
            "the last break": (text[:-1], "its last line (5) is cut short"),
            "cut in the last line": (text[:-30], "is cut short"),
            "no source id": ("\n".join([head, *lines[:2], "", *lines[3:]]) + "\n", "line 4 is not a page's line"),
            "a source id alone": (text.replace("\na ", "\na\n", 1), "holds 5 page lines"),
            "a source id alone, counted": (
                text.replace("\na ", "\na\n", 1).replace('"pages": 4', '"pages": 5'),
                "line 2 is not a page's line",
            ),
            "a tab for the space": (text.replace("\na ", "\na\t", 1), "it records a\\t"),
            "repeated key": (text.replace('"format"', '"format": "x", "format"', 1), "a key is repeated"),
            "not JSON": ("[" + text, "its first line is not JSON"),
            "not UTF-8": (text.replace(lines[0], lines[0] + "\udcff"), "not UTF-8"),
        }
        for name, (changed, message) in cases.items():
            with self.subTest(name):
                self.setUp()
                raw = changed.encode("utf-8", "surrogateescape")
                self.readings_file().write_bytes(raw)
                data = self.data()
                data["readings_sha256"] = source_digest(raw)
                self.manifest.write_text(json.dumps(data), encoding="utf-8")
                error = self.load_error(strict=False)
                self.assertEqual(error.reason, "readings_unreadable")
                self.assertIn(message, str(error))

    def test_an_earlier_format(self) -> None:
        """A readings file of format 1 (one JSON document, every page decoded at load) is refused, naming
        its format as an earlier version's and saying to record the readings again (pin --site)."""
        data = read_readings(self.readings_file())
        earlier = (
            json.dumps({"format": "conflict-gate recorded readings 1", "grammar": data["grammar"]})[:-1]
            + ', "pages": [\n'
            + ",\n".join(json.dumps([*record[:3], [[], None, [], [], []]]) for record in data["pages"])
            + "\n]}\n"
        )
        self.repin(earlier)
        error = self.load_error(strict=False)
        self.assertEqual(error.reason, "readings_unreadable")
        self.assertIn("'conflict-gate recorded readings 1' (an earlier version's", str(error))
        self.assertIn("record the readings again: pin --site", str(error))
        code, _, err = run_cli(["gate", "--manifest", str(self.manifest), "--version", "1.0", "--claim", "x", "a"])
        self.assertEqual(code, 6)
        self.assertIn("pin --site", err)
        self.assertEqual(self.pin_site()[0], 0)
        self.assertEqual([c.quote for c in load_documents(self.manifest, cache=False).sources["a"].claims], [LINE])

    def test_the_grammar_changed(self) -> None:
        """Readings recorded under another grammar are not trusted (a value may no longer be allowed)."""
        data = self.data()
        data["grammar"]["operations"]["create_copy"]["existing_path"]["values"] = ["refuse"]
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        self.assertIn("another grammar", str(self.load_error(strict=False)))

    def test_one_page_record(self) -> None:
        """A page's record of the wrong shape, of another page's bytes or path, absent, or holding a claim
        that is not the page's text at its place (a value edited, a span moved, a line cut short): that
        page alone fails (reading_unusable), the others load; strict, the load stops."""

        def pages(data: dict[str, Any]) -> dict[str, list[Any]]:
            return {record[0]: record for record in data["pages"]}

        edits: dict[str, Callable[[dict[str, Any]], None]] = {
            "claims": lambda data: pages(data)["a"][3][0].__setitem__(0, ["create_copy"]),
            "refusal": lambda data: pages(data)["a"][3].__setitem__(1, ["no_such_reason", "", "", 1, 1]),
            "digest": lambda data: pages(data)["a"].__setitem__(2, pages(data)["c"][2]),
            "path": lambda data: pages(data)["a"].__setitem__(1, "docs/c.md"),
            "absent": lambda data: data.update(pages=[r for r in data["pages"] if r[0] != "a"]),
            "length": lambda data: pages(data)["a"][3].pop(),
            "claim length": lambda data: pages(data)["a"][3][0][0].append(0),
            # hand edits that keep the shape: a claim must be the page's own text at its place, as the
            # grammar parses it
            "value": lambda data: pages(data)["a"][3][0][0].__setitem__(3, LINE.replace("refuse", "overwrite")),
            "span": lambda data: pages(data)["a"][3][0][0].__setitem__(2, 4),
            "line end": lambda data: pages(data)["a"][3][0][0].__setitem__(3, LINE[:-1]),
            "not allowed": lambda data: pages(data)["a"][3][0][0].__setitem__(3, "@quill"),
        }
        for name, edit in edits.items():
            with self.subTest(name):
                self.setUp()
                self.rewrite(edit)
                error = self.load_error()
                self.assertEqual((error.reason, error.source_id, error.path), ("reading_unusable", "a", "docs/a.md"))
                loose = load_documents(self.manifest, cache=False, strict=False)
                self.assertTrue(loose.sources["a"].failed)
                self.assertEqual([c.quote for c in loose.sources["b"].claims], [OTHER])
                decision = gate(loose, ["a"], "1.0", "create_copy", "existing_path")
                self.assertEqual((decision["status"], decision["reason"]), ("refused", "reading_unusable"))

    def test_one_page_line_forged_or_cut(self) -> None:
        """A page's line cut short or forged, the file pinned again (issue 30: a line's reading is decoded
        when its page is loaded): that page alone fails (reading_unusable), the others load; the line
        the pages hold in common is checked as text: its digest and path as the page's."""
        text = self.readings_file().read_text(encoding="utf-8")
        line = next(line for line in text.split("\n") if line.startswith("a "))
        self.assertIn("\t", line)
        sha256 = line.split(" ")[1]
        cases = {
            "reading cut": line[:-5],
            "reading cut at the tab": line[: line.index("\t") + 1],
            "path cut": line[: line.index("\t") - 2],
            "digest cut": line[:20],
            "after the reading": line + " []",
            "reading not JSON": line.split("\t")[0] + "\tNaN",
            "another digest": line.replace(sha256, "0" * 64),
            "nested deep": line.split("\t")[0] + "\t" + "[" * 100_000,
        }
        for name, forged in cases.items():
            with self.subTest(name):
                self.setUp()
                self.repin(text.replace(line, forged))
                error = self.load_error()
                self.assertEqual((error.reason, error.source_id, error.path), ("reading_unusable", "a", "docs/a.md"))
                self.assertIn("pin --site", str(error))
                loose = load_documents(self.manifest, cache=False, strict=False)
                self.assertTrue(loose.sources["a"].failed)
                self.assertEqual([c.quote for c in loose.sources["b"].claims], [OTHER])

    def test_the_manifest_keys(self) -> None:
        """readings without its pin, a path leading out, a pin that is not one: the manifest's errors."""
        cases: dict[str, dict[str, str | None]] = {
            "invalid_manifest": {"readings_sha256": None},
            "invalid_path": {"readings": "../x.json"},
            "invalid_sha256": {"readings_sha256": "x"},
        }
        for reason, change in cases.items():
            with self.subTest(reason):
                self.setUp()
                data = self.data()
                for key, value in change.items():
                    if value is None:
                        del data[key]
                    else:
                        data[key] = value
                self.manifest.write_text(json.dumps(data), encoding="utf-8")
                self.assertEqual(self.load_error(strict=False).reason, reason)


class ServiceTest(RecordedCase):
    def test_the_service_and_the_gate_command_use_recorded_readings(self) -> None:
        """Guards against the MCP server's service or the gate command reading a page as Markdown when the
        manifest records its reading: a page changed and restored is taken from its record again."""
        self.assertEqual(self.pin_site()[0], 0)
        with mock.patch.object(corpus_module, "read_page", no_markdown_reading):
            code, out, _ = run_cli(
                ["gate", "--manifest", str(self.manifest), "--version", "1.0", "--claim", "close_required", "b"]
            )
            self.assertEqual((code, json.loads(out)["status"]), (0, "ready"))
            service = GateService(self.manifest, cache=False)
            self.assertEqual(service.gate(["b"], "1.0", "close_required")["status"], "ready")
            page = self.root / "docs" / "b.md"
            raw = page.read_bytes()
            page.write_bytes(raw + b"\nMore.\n")
            decision = service.gate(["b"], "1.0", "close_required")
            self.assertEqual((decision["status"], decision["reason"]), ("refused", "hash_mismatch"))
            page.write_bytes(raw)
            self.assertEqual(service.gate(["b"], "1.0", "close_required")["status"], "ready")
            self.assertEqual(service.audit()["refused_sources"][0]["source_id"], "c")


class OtherFormatTest(unittest.TestCase):
    """Item 3 of issue 30: .rst, .mdx and .adoc pages."""

    def folder(self) -> Path:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-format-")
        self.addCleanup(tmp.cleanup)
        return Path(os.path.realpath(tmp.name))

    def test_refused_without_a_build(self) -> None:
        """Guards against a reStructuredText, MDX or AsciiDoc page read as Markdown: one holding
        directive-shaped text is refused (needs_site_build, at its line, saying what judges it); one
        holding none says nothing and is kept; an .md page beside them is read as before."""
        root = self.folder()
        manifest = write_corpus(
            root,
            {
                "a.rst": f"T\n=\n\n{LINE}\n".encode(),
                "b.mdx": f"# B\n\n{LINE}\n".encode(),
                "c.adoc": f"= C\n\n{LINE}\n".encode(),
                "d.rst": b"T\n=\n\nNothing.\n",
                "e.md": f"# E\n\n{LINE}\n".encode(),
            },
        )
        corpus = load_documents(manifest, cache=False)
        for sid, name in (("a", "reStructuredText"), ("b", "MDX"), ("c", "AsciiDoc")):
            refusal = corpus.sources[sid].refusal
            assert refusal is not None
            self.assertEqual(
                (refusal.reason, refusal.line, corpus.sources[sid].claims),
                ("needs_site_build", 4 if sid == "a" else 3, ()),
            )
            self.assertIn(name, str(refusal))
            self.assertIn("--site", str(refusal))
        self.assertEqual((corpus.sources["d"].refusal, corpus.sources["d"].claims), (None, ()))
        self.assertEqual([c.quote for c in corpus.sources["e"].claims], [LINE])
        decision = gate(corpus, ["a", "e"], "1.0", "create_copy", "existing_path")
        self.assertEqual((decision["status"], decision["reason"]), ("refused", "needs_site_build"))
        # the same with the reading cache (a hit is judged alike)
        cache = root / "cache.json"
        load_documents(manifest, cache=cache)
        self.assertEqual(
            load_documents(manifest, cache=cache).sources["a"].refusal.reason,  # type: ignore[union-attr]
            "needs_site_build",
        )

    def test_mdx_under_the_docusaurus_renderer(self) -> None:
        """The docusaurus renderer reads MDX: a .mdx page under it is read as before."""
        manifest = write_corpus(self.folder(), {"b.mdx": f"# B\n\n{LINE}\n".encode()}, extra={"renderer": "docusaurus"})
        source = load_documents(manifest, cache=False).sources["b"]
        self.assertEqual((source.refusal, [c.quote for c in source.claims]), (None, [LINE]))

    def sphinx_site(self) -> Path:
        root = self.folder()
        (root / "conf.py").write_text("project = 'T'\n", encoding="utf-8")
        (root / "_build" / "html").mkdir(parents=True)
        (root / "_build" / "html" / "a.html").write_text(
            built_html(f'<section id="t"><h1>T</h1><p>{LINE}</p></section>'), encoding="utf-8"
        )
        return write_corpus(root, {"a.rst": f"T\n=\n\n{LINE}\n".encode()})

    def test_accepted_when_judged_by_a_build(self) -> None:
        """A .rst page of a Sphinx site counts with --site, and from the reading pin --site recorded
        without it."""
        manifest = self.sphinx_site()
        root = str(manifest.parent)
        code, out, _ = run_cli(
            ["gate", "--manifest", str(manifest), "--version", "1.0", "--claim", "existing_path", "a"]
        )
        self.assertEqual((code, json.loads(out)["reason"]), (5, "needs_site_build"))
        code, out, _ = run_cli(
            ["gate", "--manifest", str(manifest), "--site", root, "--version", "1.0", "--claim", "existing_path", "a"]
        )
        self.assertEqual((code, json.loads(out)["status"]), (0, "ready"))
        self.assertEqual(run_cli(["pin", "--manifest", str(manifest), "--site", root])[0], 0)
        code, out, _ = run_cli(
            ["gate", "--manifest", str(manifest), "--version", "1.0", "--claim", "existing_path", "a"]
        )
        self.assertEqual((code, json.loads(out)["status"]), (0, "ready"))
        claim = load_documents(manifest, cache=False).sources["a"].claims[0]
        self.assertEqual((claim.line, claim.quote), (4, LINE))


if __name__ == "__main__":
    unittest.main()


class InitSiteTest(unittest.TestCase):
    """``init --site DIR``: the grammar proposed from what the build shows (issue 30, item 1)."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-init-site-")
        self.addCleanup(tmp.cleanup)
        self.root = Path(os.path.realpath(tmp.name))
        (self.root / "mkdocs.yml").write_text("site_name: T\n", encoding="utf-8")
        pages = {
            "1.0/a.md": f"# A\n\n{LINE}\n",
            "1.0/b.md": "# B\n\n@quill create_copy existing_path=overwrite\n",  # the build puts it in a table
        }
        built = {
            "1.0/a/index.html": built_html(f"<h1>A</h1><p>{LINE}</p>"),
            "1.0/b/index.html": built_html(
                "<h1>B</h1><table><tr><td>@quill create_copy existing_path=overwrite</td></tr></table>"
            ),
        }
        for rel, text in pages.items():
            (self.root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / "docs" / rel).write_text(text, encoding="utf-8")
        for rel, text in built.items():
            (self.root / "site" / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / "site" / rel).write_text(text, encoding="utf-8")
        self.manifest = self.root / "manifest.json"

    def init(self, *extra: str) -> tuple[int, str, str]:
        return run_cli(
            [
                "init",
                str(self.root / "docs"),
                "--version-from",
                "{version}/**",
                "--manifest",
                str(self.manifest),
                *extra,
            ]
        )

    def values(self) -> list[str]:
        grammar = json.loads(self.manifest.read_text(encoding="utf-8"))["grammar"]
        return list(grammar["operations"]["create_copy"]["existing_path"]["values"])

    def test_init_site_proposes_the_grammar_from_what_the_build_shows(self) -> None:
        """Guards against init --site proposing a value the build never shows as a directive (a line
        the Markdown reading counts that the built page shows in a table), and against a manifest
        that records readings before the user has edited the grammar."""
        code, _, err = self.init("--site", str(self.root / "site"))
        self.assertEqual(code, 0, err)
        self.assertEqual(self.values(), ["refuse"])
        self.assertIn("from 1 directive line the build in", err)
        self.assertIn("pin --manifest", err)
        self.assertIn("--site", err.rsplit("next:", 1)[1])
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        self.assertNotIn("readings", data)
        self.assertFalse((self.root / "manifest.readings.json").exists())
        self.manifest.unlink()
        self.assertEqual(self.init()[0], 0)  # without --site: the Markdown reading counts both
        self.assertEqual(sorted(self.values()), ["overwrite", "refuse"])

    def test_init_site_stops_on_a_missing_built_page_or_build(self) -> None:
        """Guards against a grammar proposed from a build that could not judge every page: a built
        page missing is exit 6 (built_page_missing), no build found exit 6 (site_unreadable), and
        nothing is written either way; --update takes no --site (usage, exit 2)."""
        (self.root / "site" / "1.0" / "a" / "index.html").unlink()
        code, _, err = self.init("--site", str(self.root / "site"))
        self.assertEqual(code, 6)
        self.assertIn("built_page_missing", err)
        self.assertFalse(self.manifest.exists())
        code, _, err = self.init("--site", str(self.root / "nowhere"))
        self.assertEqual(code, 6)
        self.assertIn("site_unreadable", err)
        self.assertFalse(self.manifest.exists())
        self.assertEqual(self.init()[0], 0)
        code, _, err = run_cli(
            ["init", "--update", "--manifest", str(self.manifest), "--site", str(self.root / "site")]
        )
        self.assertEqual(code, 2)
        self.assertIn("takes no --site", err)
