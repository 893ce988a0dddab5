"""In front of a live assistant: one bad page refuses only itself, pages on other topics set aside on
request, the audit in linear space, and a did-you-mean whose cost does not grow with the corpus.

* :class:`ServiceTest`: a corpus loaded once with ``strict=False`` after one page changed without a new
  pin gives, for every request, the decision a strict load gave before the change, except where that
  page is eligible: there, ``refused`` with ``hash_mismatch``;
* :class:`FailedSourceTest`: every per-source ingestion reason is kept as a refused source and refuses
  exactly the requests it is eligible for; the manifest's own problems still raise;
* :class:`CliIsolationTest`: ``--strict``/``--no-strict`` on ``gate``, ``audit`` and ``check-answer``;
  ``audit`` names every failing page and exits 6;
* :class:`SetAsideTest`: ``gate(..., unrelated="set_aside")`` and ``--set-aside-unrelated``;
* :class:`AuditGrowthTest`: a page about other operations is not a gap, and the report's size grows
  with pages and claims (counted, not timed);
* :class:`SuggestTest`: the did-you-mean looks at a bounded neighbourhood, and an unknown id of
  megabytes costs less memory than its own size (measured with ``tracemalloc``, not timed).
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

from _conflict_gate.answer.check import check_answer
from _conflict_gate.base.errors import DecisionError, GateError, IngestionError
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.base.registry import (
    DECISIONS,
    EXIT_CODES,
    MAX_SOURCE_BYTES,
    SOURCE_INGESTION_REASONS,
    UNRELATED_OPTIONS,
)
from _conflict_gate.corpus.load import Corpus, Source, load_documents
from _conflict_gate.corpus.suggest import MAX_SUGGEST_LENGTH, WINDOW, IdIndex
from _conflict_gate.decide.decision import audit, gate
from _conflict_gate.results.shapes import decision_fields
from tests.support import FIXTURE_MANIFEST, CorpusTestCase, run_cli, write_corpus
from tests.test_corpus import opens_file

#: Two operations, so that a page can be about another topic than the request.
GRAMMAR: dict[str, Any] = {
    "namespace": "quill",
    "product": "Quill",
    "operations": {
        "create_copy": {
            "existing_path": {"type": "enum", "values": ["refuse", "overwrite"]},
            "close_required": {"type": "enum", "values": ["yes", "no"]},
        },
        "move": {"existing_path": {"type": "enum", "values": ["refuse", "overwrite"]}},
    },
}


def page(*lines: str) -> bytes:
    return ("# Page\n\nSome prose.\n\n" + "\n".join(lines) + "\n").encode("utf-8")


#: The service's pages: an agreement, a conflict, a page on another topic, a refused page, another
#: version and a draft. ``reference`` is the one changed later.
SERVICE_FILES = {
    "docs/broken.md": page("@quill create_copy existing_path = refuse"),
    "docs/draft.md": page("@quill create_copy existing_path=overwrite"),
    "docs/guide.md": page("@quill create_copy existing_path=refuse", "@quill create_copy close_required=yes"),
    "docs/mover.md": page("@quill move existing_path=overwrite"),
    "docs/next.md": page("@quill create_copy existing_path=overwrite"),
    "docs/reference.md": page("@quill create_copy existing_path=refuse"),
    "docs/rival.md": page("@quill create_copy existing_path=overwrite"),
}
SERVICE_VERSIONS = {"next": "2.0"}
SERVICE_STATUSES = {"draft": "draft"}
CLAIMS = (("create_copy", "existing_path"), ("create_copy", "close_required"), ("move", "existing_path"))


def requests(ids: list[str]) -> Iterator[tuple[list[str], str, str, str, str]]:
    """Every request over ``ids``: each non-empty subset, version, claim and ``unrelated`` option."""
    for size in range(1, len(ids) + 1):
        for candidates in itertools.combinations(ids, size):
            for version in ("1.0", "2.0"):
                for operation, key in CLAIMS:
                    for unrelated in UNRELATED_OPTIONS:
                        yield list(candidates), version, operation, key, unrelated


def first_refused(result: Mapping[str, Any]) -> Mapping[str, Any]:
    return dict(result["refused_sources"][0])


class ServiceTest(CorpusTestCase):
    """A gate in front of an assistant: loaded once, asked many times, one page changed under it."""

    def test_one_changed_page_refuses_only_where_it_is_eligible(self) -> None:
        """The issue's "Done when": with strict=False a page edited without re-pinning refuses the
        requests it is eligible for (approved, of the requested version, a candidate) and no others;
        every other request is decided exactly as before the edit."""
        root = self.folder()
        manifest = write_corpus(
            root, SERVICE_FILES, versions=SERVICE_VERSIONS, statuses=SERVICE_STATUSES, grammar=GRAMMAR
        )
        before = load_documents(manifest)
        changed = root / "docs/reference.md"
        changed.write_bytes(changed.read_bytes().replace(b"=refuse", b"=overwrite"))
        with self.assertRaises(IngestionError) as caught:
            load_documents(manifest)  # the default stays strict
        self.assertEqual((caught.exception.reason, caught.exception.source_id), ("hash_mismatch", "reference"))
        after = load_documents(manifest, strict=False)
        self.assertEqual([s.source_id for s in after.failed], ["reference"])
        ids = sorted(before.sources)
        refused = same = 0
        for candidates, version, operation, key, unrelated in requests(ids):
            with self.subTest(candidates=candidates, version=version, claim=(operation, key), unrelated=unrelated):
                old = gate(before, candidates, version, operation, key, unrelated=unrelated)
                new = gate(after, candidates, version, operation, key, unrelated=unrelated)
                eligible = "reference" in candidates and version == "1.0"
                self.assertEqual("reference" in new["eligible_source_ids"], eligible)
                if not eligible:
                    self.assertEqual(render_json(new), render_json(old))
                    same += 1
                    continue
                refused += 1
                self.assertEqual((new["status"], new["claims"], new["answer_request"]), ("refused", [], None))
                self.assertIn(
                    {
                        "source_id": "reference",
                        "reason": "hash_mismatch",
                        "line": None,
                        "column": None,
                        "message": str(after.sources["reference"].refusal),
                    },
                    new["refused_sources"],
                )
                self.assertEqual(new["reason"], first_refused(new)["reason"])
                if "broken" not in candidates:
                    self.assertEqual(
                        {k: new[k] for k in ("reason", "error", "source_id", "path", "line", "column")},
                        {
                            "reason": "hash_mismatch",
                            "error": "IngestionError",
                            "source_id": "reference",
                            "path": "docs/reference.md",
                            "line": None,
                            "column": None,
                        },
                    )
                self.assertNotIn("reference", new["parsed_source_ids"] or [])
                self.assertEqual(list(new), list(decision_fields(new["reason"], unrelated=unrelated)))
        self.assertEqual((refused, same), (64 * 3 * 2, (127 * 2 - 64) * 3 * 2))

    def test_the_lab_stays_strict(self) -> None:
        """The lab's changed-source case is still an IngestionError when loading (its saved result holds)."""
        import run

        lab = run.run_lab(FIXTURE_MANIFEST)
        self.assertEqual(
            (lab["changed_source"]["result"]["reason"], lab["changed_source"]["result"]["error"]),
            ("hash_mismatch", "IngestionError"),
        )
        self.assertIsNone(lab["changed_source"]["result"]["eligible_source_ids"])


def failing_corpus(folder: Callable[[], Path], reason: str, *, status: str = "approved") -> tuple[Path, Any]:
    """A corpus of ``a`` (agrees), ``b`` (of ``status``, broken so that loading it fails with ``reason``)
    and ``c`` (another version), in a new folder from ``folder()``; its manifest and a context manager
    to load it in."""
    root = folder()
    files = {
        "docs/a.md": page("@quill create_copy existing_path=refuse"),
        "docs/b.md": page("@quill create_copy existing_path=refuse"),
        "docs/c.md": page("@quill create_copy existing_path=overwrite"),
    }
    manifest = write_corpus(
        root, files, versions={"c": "2.0"}, grammar=GRAMMAR, statuses={"b": status} if status != "approved" else None
    )
    b = root / "docs/b.md"
    context: Any = contextlib.nullcontext()
    if reason == "duplicate_path":  # a second entry reaching a's file through a link
        b.unlink()
        os.symlink("a.md", b)
    elif reason == "path_outside_root":
        outside = folder() / "b.md"
        outside.write_bytes(b.read_bytes())
        b.unlink()
        os.symlink(outside, b)
    elif reason == "source_missing":
        b.unlink()
    elif reason == "source_not_regular_file":
        b.unlink()
        b.mkdir()
    elif reason == "source_unreadable":
        real_open = os.open

        def denied(path: Any, *args: Any, **kwargs: Any) -> int:
            if opens_file(path, kwargs, b):
                raise PermissionError(errno.EACCES, "Permission denied")
            return real_open(path, *args, **kwargs)

        context = mock.patch.object(os, "open", denied)
    elif reason == "source_too_large":
        with open(b, "r+b") as handle:
            handle.truncate(MAX_SOURCE_BYTES + 1)
    elif reason == "hash_mismatch":
        b.write_bytes(b.read_bytes() + b"edited\n")
    elif reason == "source_unpinned":  # as init --update lists a new page
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["documents"][1]["sha256"] = ""
        manifest.write_text(json.dumps(data), encoding="utf-8")
    elif reason == "reading_unusable":  # the manifest records the pages' readings, but not b's
        from _conflict_gate.corpus.recorded import render_recorded
        from _conflict_gate.reading.reading_shapes import Reading

        loaded = load_documents(manifest, cache=False)
        text = render_recorded(
            loaded.grammar,
            [
                (s.entry, s.sha256, Reading(s.claims, None, s.near_misses, s.occurrences, s.left_out))
                for s in loaded.sources.values()
                if s.source_id != "b"
            ],
        )
        (root / "readings.json").write_text(text, encoding="utf-8")
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data["readings"] = "readings.json"
        data["readings_sha256"] = __import__("hashlib").sha256(text.encode()).hexdigest()
        manifest.write_text(json.dumps(data), encoding="utf-8")
    elif reason == "source_not_utf8":
        data = json.loads(manifest.read_text(encoding="utf-8"))
        b.write_bytes(b"\xff\n")
        data["documents"][1]["sha256"] = __import__("hashlib").sha256(b"\xff\n").hexdigest()
        manifest.write_text(json.dumps(data), encoding="utf-8")
    return manifest, context


class FailedSourceTest(CorpusTestCase):
    """Each way one source can fail, kept by a non-strict load as a refused source."""

    def corpus_with(self, reason: str) -> tuple[Path, Any]:
        return failing_corpus(self.folder, reason)

    def test_every_source_ingestion_reason_refuses_where_eligible(self) -> None:
        """Each per-source failure: strict raises it; non-strict keeps the source, refused with that
        reason where eligible, and decides the rest as if it were not asked about."""
        # built_page_missing comes from judging a corpus by its site's build (--site), not from a load:
        # tests.test_site_build produces it (strict raises it; non-strict keeps the source, refused where eligible)
        self.assertEqual(set(FAILURES) | {"built_page_missing"}, set(SOURCE_INGESTION_REASONS))
        self.assertEqual(set(DECISIONS["refused"]) & set(SOURCE_INGESTION_REASONS), set(SOURCE_INGESTION_REASONS))
        for reason in FAILURES:
            with self.subTest(reason):
                manifest, context = self.corpus_with(reason)
                with context:
                    with self.assertRaises(IngestionError) as caught:
                        load_documents(manifest)
                    self.assertEqual((caught.exception.reason, caught.exception.source_id), (reason, "b"))
                    corpus = load_documents(manifest, strict=False)
                failed = corpus.sources["b"]
                self.assertEqual(corpus.failed, (failed,))
                self.assertTrue(failed.failed)
                self.assertFalse(corpus.sources["a"].failed)
                assert isinstance(failed.refusal, IngestionError)
                self.assertEqual(
                    (failed.refusal.reason, failed.sha256, failed.size, failed.claims, failed.near_misses),
                    (reason, "", 0, (), ()),
                )
                self.assertEqual((failed.version, failed.status, failed.path), ("1.0", "approved", "docs/b.md"))
                result = gate(corpus, ["b", "a"], "1.0", "create_copy", "existing_path")
                self.assertEqual(
                    {
                        k: result[k]
                        for k in (
                            "status",
                            "reason",
                            "error",
                            "source_id",
                            "path",
                            "line",
                            "column",
                            "parsed_source_ids",
                        )
                    },
                    {
                        "status": "refused",
                        "reason": reason,
                        "error": "IngestionError",
                        "source_id": "b",
                        "path": "docs/b.md",
                        "line": None,
                        "column": None,
                        "parsed_source_ids": ["a"],
                    },
                )
                self.assertEqual(result["message"], str(failed.refusal))
                self.assertTrue(result["message"].startswith("source 'b' (docs/b.md"), result["message"])
                self.assertEqual(gate(corpus, ["a"], "1.0", "create_copy", "existing_path")["status"], "ready")
                other = gate(corpus, ["b", "c"], "2.0", "create_copy", "existing_path")
                self.assertEqual((other["status"], other["excluded_wrong_version_ids"]), ("ready", ["b"]))

    def test_a_failed_draft_never_refuses(self) -> None:
        root = self.folder()
        manifest = write_corpus(
            root,
            {
                "docs/a.md": page("@quill create_copy existing_path=refuse"),
                "docs/b.md": page("@quill create_copy existing_path=refuse"),
            },
            statuses={"b": "draft"},
            grammar=GRAMMAR,
        )
        (root / "docs/b.md").unlink()
        corpus = load_documents(manifest, strict=False)
        result = gate(corpus, ["a", "b"], "1.0", "create_copy", "existing_path")
        self.assertEqual((result["status"], result["excluded_unapproved_ids"]), ("ready", ["b"]))

    def test_manifest_problems_still_raise(self) -> None:
        """Only a source's own failure is isolated: without a valid manifest nothing can be decided."""
        root = self.folder()
        manifest = write_corpus(root, {"docs/a.md": page("@quill create_copy existing_path=refuse")}, grammar=GRAMMAR)
        data = json.loads(manifest.read_text(encoding="utf-8"))
        cases = {
            "manifest_not_json": b"{",
            "invalid_sha256": json.dumps({**data, "documents": [{**data["documents"][0], "sha256": "x"}]}).encode(),
            "duplicate_path": json.dumps(
                {**data, "documents": [data["documents"][0], {**data["documents"][0], "source_id": "b"}]}
            ).encode(),
        }
        for reason, raw in cases.items():
            with self.subTest(reason):
                manifest.write_bytes(raw)
                with self.assertRaises(IngestionError) as caught:
                    load_documents(manifest, strict=False)
                self.assertEqual(caught.exception.reason, reason)
        manifest.write_text(json.dumps({**data, "grammar": {**GRAMMAR, "namespace": "Quill"}}), encoding="utf-8")
        from _conflict_gate.base.errors import GrammarError

        with self.assertRaises(GrammarError):
            load_documents(manifest, strict=False)

    def test_source_keeps_its_fields_and_the_corpus_its_shape(self) -> None:
        """Guards against a merge-breaking reshuffle: the fields callers construct and read by position
        (a new field comes last, with a default, so positional constructions keep working)."""
        self.assertEqual(
            Source._fields,
            (
                "source_id",
                "version",
                "status",
                "path",
                "url",
                "sha256",
                "size",
                "claims",
                "refusal",
                "near_misses",
                "entry",
                "occurrences",
                "left_out",
            ),
        )
        self.assertEqual(Source._field_defaults, {"occurrences": (), "left_out": ()})
        corpus = load_documents(FIXTURE_MANIFEST)
        self.assertEqual(corpus.failed, ())
        self.assertEqual(Corpus(corpus.manifest, corpus.sources), corpus)  # the index is not compared


#: Every per-source reason the tests above produce (test_decision's reason table counts on this list).
FAILURES = (
    "duplicate_path",
    "path_outside_root",
    "source_missing",
    "source_not_regular_file",
    "source_unreadable",
    "source_too_large",
    "hash_mismatch",
    "source_unpinned",
    "source_not_utf8",
    "reading_unusable",
)


def code(name: str) -> int:
    return EXIT_CODES[name][0]


class CliIsolationTest(CorpusTestCase):
    """``--strict``/``--no-strict`` on the command line."""

    def setUp(self) -> None:
        self.root = self.folder()
        self.manifest = write_corpus(
            self.root, SERVICE_FILES, versions=SERVICE_VERSIONS, statuses=SERVICE_STATUSES, grammar=GRAMMAR
        )
        self.m = str(self.manifest)

    def change(self, rel: str) -> None:
        path = self.root / rel
        path.write_bytes(path.read_bytes() + b"edited\n")

    def gate(self, *ids: str, strict: bool | None = None, key: str = "existing_path") -> tuple[int, str, str]:
        flags = [] if strict is None else ["--strict" if strict else "--no-strict"]
        return run_cli(
            [
                "gate",
                "--manifest",
                self.m,
                "--version",
                "1.0",
                "--operation",
                "create_copy",
                "--claim",
                key,
                *flags,
                *ids,
            ]
        )

    def test_gate_verifies_its_candidates_only(self) -> None:
        """Guards against a gate that fails on, or pays for, pages it was not asked about (issue 33):
        a changed page that is no candidate leaves the decision as it was."""
        unchanged = self.gate("guide")
        self.change("docs/reference.md")
        (self.root / "docs/rival.md").unlink()
        for strict in (None, True, False):
            self.assertEqual(self.gate("guide", strict=strict), unchanged)

    def test_an_unpinned_page_stops_only_what_reads_it(self) -> None:
        """Guards against one page listed but not pinned yet (as init --update lists a new page) taking
        every command down, --no-strict included: it is a failure of that page alone (found by a newcomer)."""
        ready = self.gate("guide", "reference")
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        next(e for e in data["documents"] if e["source_id"] == "rival")["sha256"] = ""
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        for strict in (None, False):
            self.assertEqual(self.gate("guide", "reference", strict=strict), ready)
        status, out, err = self.gate("guide", "rival")
        self.assertEqual((status, out), (code("input"), ""))
        self.assertTrue(err.startswith("conflict-gate: error: source 'rival' (docs/rival.md): not pinned yet"), err)
        self.assertIn(f"[source_unpinned]; review the page, then pin it: conflict-gate pin --manifest {self.m}", err)
        status, out, err = self.gate("guide", "rival", strict=False)
        self.assertEqual((status, json.loads(out)["reason"]), (code("refused"), "source_unpinned"))
        status, out, err = run_cli(["audit", "--manifest", self.m, "--format", "json"])
        self.assertEqual(status, code("input"), err)  # reported with every other finding, then exit 6
        self.assertIn(
            ("rival", "source_unpinned"), [(r["source_id"], r["reason"]) for r in json.loads(out)["refused_sources"]]
        )

    def test_gate_is_strict_unless_told(self) -> None:
        self.change("docs/reference.md")
        for strict in (None, True):
            status, out, err = self.gate("guide", "reference", strict=strict)
            self.assertEqual((status, out), (code("input"), ""))
            self.assertTrue(err.startswith("conflict-gate: error: source 'reference' (docs/reference.md): "), err)
            self.assertTrue(
                err.rstrip("\n").endswith(
                    f"[hash_mismatch]; if the edit is intended, re-pin: conflict-gate pin --manifest {self.m}"
                ),
                err,
            )
        status, out, err = self.gate("guide", "reference", strict=False)
        self.assertEqual((status, json.loads(out)["reason"]), (code("refused"), "hash_mismatch"))
        self.assertEqual(
            err.splitlines()[0],
            "conflict-gate: warning: 1 of 2 candidate sources failed verification (first: "
            f"{load_documents(self.m, strict=False).sources['reference'].refusal} [hash_mismatch]); "
            f"if the edit is intended, re-pin: conflict-gate pin --manifest {self.m}; "
            "each refuses the requests it is eligible for",
        )
        self.assertEqual(err.splitlines()[1], f"refused: {json.loads(out)['message']} [hash_mismatch]")
        (self.root / "docs/rival.md").unlink()  # a page gone as well: each reason with its own fix
        status, out, err = self.gate("guide", "reference", "rival", strict=False)
        self.assertEqual(status, code("refused"))
        self.assertIn(
            f"; [hash_mismatch] if the edit is intended, re-pin: conflict-gate pin --manifest {self.m}; "
            '[source_missing] restore the file, or remove its entry from the manifest (with "sources": '
            f"conflict-gate init --update --prune --manifest {self.m}); each refuses",
            err,
        )

    def test_audit_names_two_bad_pages_and_exits_6(self) -> None:
        """The issue's "Done when": one page changed, one missing; the audit reports both, then exits 6."""
        self.change("docs/reference.md")
        (self.root / "docs/rival.md").unlink()
        status, out, err = run_cli(["audit", "--manifest", self.m, "--format", "json"])
        self.assertEqual(status, code("input"), err)
        self.assertEqual(err.count("\n"), 1)
        self.assertTrue(
            err.startswith(
                "conflict-gate: error: 2 of 7 sources failed verification (first: "
                "source 'reference' (docs/reference.md): sha256 is "
            ),
            err,
        )
        report = json.loads(out)
        failed = [
            (r["source_id"], r["error"], r["reason"], r["path"], r["line"])
            for r in report["refused_sources"]
            if r["error"] == "IngestionError"
        ]
        self.assertEqual(
            failed,
            [
                ("reference", "IngestionError", "hash_mismatch", "docs/reference.md", None),
                ("rival", "IngestionError", "source_missing", "docs/rival.md", None),
            ],
        )
        self.assertEqual((report["summary"]["failed"], report["summary"]["refused"], report["clean"]), (2, 3, False))
        self.assertEqual(
            [g["source_ids"] for g in report["operations"] if g["version"] == "1.0"], [["guide"], ["mover"]]
        )
        status, markdown, err = run_cli(["audit", "--manifest", self.m])
        self.assertEqual(status, code("input"))
        section = markdown.split("## Sources that failed verification\n\n", 1)[1].split("\n\n", 1)[0]
        self.assertEqual([row.split(" | ")[0].lstrip("| ") for row in section.splitlines()[2:]], ["reference", "rival"])
        self.assertTrue(markdown.splitlines()[2].endswith(", 2 failed verification)."), markdown.splitlines()[2])
        status, out, err = run_cli(["audit", "--manifest", self.m, "--strict"])
        self.assertEqual((status, out), (code("input"), ""))
        self.assertTrue(err.startswith("conflict-gate: error: source 'reference' (docs/reference.md)"), err)

    def test_check_answer_follows_the_load_it_is_told(self) -> None:
        self.change("docs/draft.md")  # a candidate, never eligible: the decision stands without it
        status, out, _ = self.gate("guide", "reference", "draft", strict=False)
        self.assertEqual(status, code("ok"))
        decision = self.root / "decision.json"
        decision.write_text(out, encoding="utf-8")
        answer = (
            b"`existing_path=refuse` (`version=1.0`).\n"
            b"`@quill create_copy existing_path=refuse` [source: guide:5]\n"
            b"`@quill create_copy existing_path=refuse` [source: reference:5]\n"
        )
        argv = ["check-answer", "--manifest", self.m, "--decision", str(decision), "--answer", "-"]
        status, out, err = run_cli([*argv, "--no-strict"], stdin=answer)
        self.assertEqual((status, json.loads(out)["verdict"]), (code("ok"), "supported"), err)
        self.assertTrue(err.startswith("conflict-gate: warning: 1 of 3 candidate sources failed verification"), err)
        status, out, err = run_cli(argv, stdin=answer)
        self.assertEqual((status, out), (code("input"), ""))

    def test_check_answer_verifies_the_decisions_candidates_only(self) -> None:
        """Guards against check-answer failing on a page the decision never read (issue 33), and against
        a quote looked up in the candidates only: a quote from another page is still ``misattributed``
        (found in a pinned page) once every page is loaded, and then a changed page stops it."""
        status, out, _ = self.gate("guide", "reference")
        decision = self.root / "decision.json"
        decision.write_text(out, encoding="utf-8")
        supported = (
            b"`existing_path=refuse` (`version=1.0`).\n"
            b"`@quill create_copy existing_path=refuse` [source: guide:5]\n"
            b"`@quill create_copy existing_path=refuse` [source: reference:5]\n"
        )
        elsewhere = supported + b"`@quill create_copy existing_path=overwrite` [source: guide:5]\n"  # rival's text
        argv = ["check-answer", "--manifest", self.m, "--decision", str(decision), "--answer", "-"]
        before = {
            name: run_cli(argv, stdin=answer) for name, answer in (("supported", supported), ("elsewhere", elsewhere))
        }
        self.assertEqual(before["supported"][0], code("ok"))
        self.assertEqual([f["kind"] for f in json.loads(before["elsewhere"][1])["findings"]], ["misattributed"])
        self.change("docs/next.md")  # no candidate of the decision
        self.assertEqual(run_cli(argv, stdin=supported), before["supported"])
        status, out, err = run_cli(argv, stdin=elsewhere)  # looked up in every page: the changed one stops it
        self.assertEqual((status, out), (code("input"), ""), err)
        self.assertIn("source 'next' (docs/next.md)", err)
        self.assertEqual(run_cli([*argv, "--no-strict"], stdin=elsewhere)[:2], before["elsewhere"][:2])


def set_aside_corpus(case: CorpusTestCase) -> Corpus:
    """``a``, ``b`` agree on create_copy; ``m`` is about move; ``s`` is about create_copy but silent on
    existing_path; ``p`` declares nothing; ``x`` is refused; ``n`` is of 2.0."""
    corpus, _ = case.corpus(
        {
            "docs/a.md": page("@quill create_copy existing_path=refuse", "@quill create_copy close_required=yes"),
            "docs/b.md": page("@quill create_copy existing_path=refuse"),
            "docs/m.md": page("@quill move existing_path=overwrite"),
            "docs/n.md": page("@quill create_copy existing_path=overwrite"),
            "docs/p.md": page("Only prose here."),
            "docs/s.md": page("@quill create_copy close_required=no"),
            "docs/x.md": page("@quill create_copy existing_path = refuse"),
        },
        versions={"n": "2.0"},
        grammar=GRAMMAR,
    )
    return corpus


class SetAsideTest(CorpusTestCase):
    """``unrelated="set_aside"``: pages on other topics take no part; silence on the topic still withholds."""

    def setUp(self) -> None:
        self.c = set_aside_corpus(self)

    def decide(
        self,
        ids: list[str],
        version: str = "1.0",
        operation: str = "create_copy",
        key: str = "existing_path",
        unrelated: str = "set_aside",
    ) -> dict[str, Any]:
        result = gate(self.c, ids, version, operation, key, unrelated=unrelated)
        self.assertEqual(list(result), list(decision_fields(result["reason"], unrelated=unrelated)))
        return dict(result)

    def test_decisions(self) -> None:
        cases = [  # candidates, version, operation -> reason, set aside, extra fields
            (
                ["a", "b", "m", "p"],
                "1.0",
                "create_copy",
                "eligible_directives_agree",
                ["m", "p"],
                {"agreed_value": "refuse"},
            ),
            (
                ["a", "s", "m"],
                "1.0",
                "create_copy",
                "requested_claim_missing",
                ["m"],
                {"missing_claim_source_ids": ["s"]},
            ),
            (["m", "p"], "1.0", "create_copy", "no_related_source", ["m", "p"], {}),
            (["a", "x", "m"], "1.0", "create_copy", "malformed_directive", ["m"], {"parsed_source_ids": ["a", "m"]}),
            (["a", "m"], "2.0", "create_copy", "no_eligible_version", [], {}),
            (["a", "m", "s"], "1.0", "move", "eligible_directives_agree", ["a", "s"], {"agreed_value": "overwrite"}),
            (["n", "m"], "2.0", "create_copy", "eligible_directives_agree", [], {"agreed_value": "overwrite"}),
        ]
        for ids, version, operation, reason, aside, extra in cases:
            assert isinstance(extra, dict)
            with self.subTest(ids=ids, version=version, operation=operation):
                result = self.decide(ids, version, operation)
                self.assertEqual((result["reason"], result["set_aside_unrelated_ids"]), (reason, aside))
                for key, value in extra.items():
                    self.assertEqual(result[key], value, key)
                self.assertTrue(set(aside) <= set(result["eligible_source_ids"]))
                self.assertFalse({c["source_id"] for c in result["claims"]} & set(aside), "never counted")

    def test_set_aside_pages_never_count_as_agreement(self) -> None:
        """A ready decision with pages set aside is the decision over the related pages alone, cited alone."""
        mixed = self.decide(["p", "m", "b", "a"])
        alone = self.decide(["a", "b"])
        for key in ("status", "reason", "agreed_value", "claims", "answer_request"):
            self.assertEqual(mixed[key], alone[key], key)
        self.assertEqual(alone["set_aside_unrelated_ids"], [])

    def test_the_default_is_todays_decision(self) -> None:
        """Guards against the option leaking into the default: no new field, the same bytes."""
        for ids in (["a", "b", "m", "p"], ["m", "p"], ["a", "x", "m"], ["a", "b"]):
            with self.subTest(ids=ids):
                default = gate(self.c, ids, "1.0", "create_copy", "existing_path")
                self.assertEqual(render_json(default), render_json(self.decide(ids, unrelated="withhold")))
                self.assertNotIn("set_aside_unrelated_ids", default)
                self.assertEqual(list(default), list(decision_fields(default["reason"])))
        self.assertEqual(
            gate(self.c, ["m", "p"], "1.0", "create_copy", "existing_path")["reason"], "requested_claim_missing"
        )

    def test_an_unknown_option_is_a_gate_error(self) -> None:
        for value in ("set-aside", "SET_ASIDE", "", None, 1, ["set_aside"]):
            with self.subTest(value=value), self.assertRaises(GateError) as caught:
                gate(self.c, ["a"], "1.0", "create_copy", "existing_path", unrelated=value)  # type: ignore[arg-type]
            self.assertEqual(caught.exception.reason, "invalid_unrelated_option")
            self.assertIn("one of: 'withhold', 'set_aside'", str(caught.exception))

    def test_the_answer_check_rebuilds_a_set_aside_decision(self) -> None:
        decision = self.decide(["a", "b", "m"])
        answer = (
            "`existing_path=refuse` (`version=1.0`).\n"
            "`@quill create_copy existing_path=refuse` [source: a:5]\n"
            "`@quill create_copy existing_path=refuse` [source: b:5]\n"
        )
        self.assertEqual(check_answer(self.c, decision, answer)["verdict"], "supported")
        stripped = {k: v for k, v in decision.items() if k != "set_aside_unrelated_ids"}
        with self.assertRaises(DecisionError):  # rebuilt with the default: requested_claim_missing
            check_answer(self.c, stripped, answer)

    def test_command_line(self) -> None:
        _, manifest = self.corpus(
            {
                "docs/a.md": page("@quill create_copy existing_path=refuse"),
                "docs/m.md": page("@quill move existing_path=overwrite"),
            },
            grammar=GRAMMAR,
        )
        argv = [
            "gate",
            "--manifest",
            str(manifest),
            "--version",
            "1.0",
            "--claim",
            "existing_path",
            "--operation",
            "create_copy",
            "a",
            "m",
        ]
        status, out, err = run_cli(argv)
        self.assertEqual((status, json.loads(out)["reason"]), (code("not_in_docs"), "requested_claim_missing"))
        status, out, err = run_cli([*argv[:-2], "--set-aside-unrelated", "a", "m"])
        self.assertEqual((status, err), (code("ok"), ""))
        self.assertEqual(json.loads(out)["set_aside_unrelated_ids"], ["m"])
        status, out, err = run_cli([*argv[:-2], "--set-aside-unrelated", "m"])
        self.assertEqual((status, json.loads(out)["reason"]), (code("not_in_docs"), "no_related_source"))
        self.assertEqual(
            err, "not_in_docs: every eligible candidate is about other operations than create_copy (set aside: m)\n"
        )


class AuditGrowthTest(CorpusTestCase):
    """The audit lists a page only under the operations it is about."""

    @staticmethod
    def own_operations(count: int) -> tuple[dict[str, Any], dict[str, bytes]]:
        """``count`` pages, page ``i`` declaring both keys of its own operation ``op<i>``."""
        rules = {"timeout": {"type": "integer", "min": 0}, "mode": {"type": "enum", "values": ["a", "b"]}}
        grammar = {"namespace": "acme", "product": "Acme", "operations": {f"op{i}": rules for i in range(count)}}
        files = {
            f"docs/p{i}.md": f"# op{i}\n\n@acme op{i} timeout=30\n@acme op{i} mode=a\n".encode() for i in range(count)
        }
        return grammar, files

    def test_pages_about_other_operations_are_not_gaps(self) -> None:
        """Regression: a clean six-page tree, each page about its own operation, read
        '0 agree, 0 conflict, 6 partial': every page was listed as silent on every other page's keys."""
        grammar, files = self.own_operations(6)
        corpus, _ = self.corpus(files, grammar=grammar)
        report = audit(corpus)
        self.assertEqual(
            {k: report["summary"][k] for k in ("agree", "conflict", "partial")},
            {"agree": 12, "conflict": 0, "partial": 0},
        )
        self.assertTrue(report["clean"])
        self.assertEqual(
            [(g["operation"], g["source_ids"]) for g in report["operations"]], [(f"op{i}", [f"p{i}"]) for i in range(6)]
        )

    def test_the_report_grows_with_pages_and_claims(self) -> None:
        """Regression: each page was listed under every key of every other page (1,000 pages, 20 MB).
        Counted, not timed: the report gains the same number of values per page from 10 to 30 to 90."""
        sizes = {}
        for count in (10, 30, 90):
            grammar, files = self.own_operations(count)
            corpus, _ = self.corpus(files, grammar=grammar)
            report = audit(corpus)
            sizes[count] = sum(1 for _ in walk(report))
            self.assertEqual(sum(len(e["silent"]) for g in report["operations"] for e in g["keys"]), 0)
        per_page = (sizes[30] - sizes[10]) / 20
        self.assertEqual((sizes[90] - sizes[30]) / 60, per_page)
        self.assertLess(per_page, 40)  # a group, its id, two keys with one claim each

    def test_a_page_silent_on_a_key_of_its_operation_is_partial(self) -> None:
        grammar, files = self.own_operations(2)
        files["docs/q.md"] = b"# op0 again\n\nSee above.\n\n@acme op0 mode=a\n"
        corpus, _ = self.corpus(files, grammar=grammar)
        (op0,) = [g for g in audit(corpus)["operations"] if g["operation"] == "op0"]
        self.assertEqual(op0["source_ids"], ["p0", "q"])
        self.assertEqual(
            [(e["claim_key"], e["status"], e["silent"]) for e in op0["keys"]],
            [("mode", "agree", []), ("timeout", "partial", [{"source_id": "q", "path": "docs/q.md", "line": 5}])],
        )


def walk(node: Any) -> Iterator[Any]:
    yield node
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        yield from walk(child)


class SuggestTest(CorpusTestCase):
    """The did-you-mean of an unknown id: bounded work and memory, whatever the corpus and the id."""

    ids: list[str]
    index: IdIndex

    @classmethod
    def setUpClass(cls) -> None:
        cls.ids = [
            f"{version}/{topic}-{i:05d}"
            for i in range(25_000)
            for version, topic in (("1.0", "connect"), ("2.0", "connect"), ("1.0", "retry"), ("2.0", "guide"))
        ]
        cls.index = IdIndex(cls.ids)

    def test_a_bounded_neighbourhood_is_ranked(self) -> None:
        """Guards against ranking every id (21 ms at 10,000 ids, 2 s at a million): at most 4 * WINDOW."""
        self.assertEqual(len(self.index), 100_000)
        cases = {
            "2.0/connect-00123x": "2.0/connect-00123",
            "3.0/connect-00123": "2.0/connect-00123",
            "1.0/retry-0o123": None,
            "nothing-like-it": None,
        }
        for unknown, expected in cases.items():
            with self.subTest(unknown):
                self.assertLessEqual(len(self.index.neighbours(unknown)), 4 * WINDOW)
                close = self.index.close(unknown)
                if expected is not None:
                    self.assertEqual(close[0], expected)
        self.assertEqual(self.index.neighbours("x" * (MAX_SUGGEST_LENGTH + 1)), [])
        self.assertEqual(IdIndex(["a", "b"]).close("c"), [])
        self.assertEqual(IdIndex([]).close("a"), [])

    def test_an_unknown_id_costs_less_memory_than_its_own_size(self) -> None:
        """Regression: a multi-megabyte unknown id cost tens of times its size in the hint (difflib
        indexes the word), and listing every id cost memory that grew with the corpus."""
        unknown = "2.0/connect-" + "7" * 4_000_000
        for what, run in (
            ("the index", lambda: self.index.close(unknown)),
            ("a normal id", lambda: self.index.close("2.0/connect-00123x")),
        ):
            with self.subTest(what):
                self.assertLess(peak_bytes(run), 64 * 1024)  # 100,000 ids listed would be 800 KB
        corpus = load_documents(FIXTURE_MANIFEST)

        def ask() -> GateError:
            with self.assertRaises(GateError) as caught:
                gate(corpus, ["quill-guide", unknown], "1.0", "create_copy", "existing_path")
            return caught.exception

        self.assertLess(peak_bytes(ask), len(unknown))
        error = ask()
        self.assertIs(error.source_id, unknown)
        self.assertLess(len(str(error)), 300)
        self.assertTrue(str(error).endswith(f"... ({len(unknown)} code points): not in the manifest"), str(error))


def peak_bytes(run: Any) -> int:
    """Peak bytes allocated while ``run()`` runs (``tracemalloc``)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
