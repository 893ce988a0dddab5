"""Issue 3: every bad request is refused with a typed GateError, before any file is read.

The corpus (see :meth:`RequestTest.setUp`) has two 1.0 sources that agree
(``a``, ``b``), a 2.0 source (``n``) and two sources whose manifest version is
not MAJOR.MINOR (``spaced``: ``"1.0 "``, ``prefixed``: ``"v1.0"``). Every bad
request below would, without its check, reach a decision (mostly
``not_in_docs``) instead of an error, so each test fails without its guard.
"""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

import conflict_gate
from conflict_gate import GATE_REASONS, GateError, gate
from load_documents import IngestionError, load_documents
from tests.support import directive, write_corpus

REFUSE = b"# Page\n\n" + directive("refuse") + b"\n"


class RequestTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-requests-")
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        files = {f"docs/{sid}.md": REFUSE + sid.encode() + b"\n"
                 for sid in ("a", "b", "n", "spaced", "prefixed")}
        self.manifest = write_corpus(self.root, files,
                                     versions={"n": "2.0", "spaced": "1.0 ", "prefixed": "v1.0"})
        self.corpus = load_documents(self.manifest)

    def refused(self, reason: str, candidates: Any = ("a", "b"), version: Any = "1.0",
                claim_key: Any = "existing_path", manifest: Any = None, **kwargs: Any) -> GateError:
        with self.assertRaises(GateError) as caught:
            gate(self.corpus if manifest is None else manifest, candidates, version, claim_key, **kwargs)
        error = caught.exception
        self.assertIn(error.reason, GATE_REASONS)
        self.assertEqual(error.reason, reason, str(error))
        self.assertNotIn("\n", str(error))
        return error

    def test_the_valid_request_is_ready(self) -> None:
        """Control for the tables below: the unmodified request decides ``ready``."""
        result = gate(self.corpus, ["a", "b"], "1.0", "existing_path")
        self.assertEqual((result["status"], result["agreed_value"]), ("ready", "refuse"))

    def test_candidates_that_are_not_a_list_of_non_empty_strings(self) -> None:
        """Guards against a str iterated as ids, an unordered set, or non-string ids reaching the corpus."""
        cases = {
            "a string": "a",
            "None": None,
            "a dict": {"a": 1},
            "a set": {"a", "b"},
            "a frozenset": frozenset({"a"}),
            "an iterator": iter(["a", "b"]),
            "bytes": b"a",
            "an int id": ["a", 1],
            "a None id": [None],
            "an empty id": ["a", ""],
            "a bytes id": [b"a"],
            "a list id": [["a"]],
        }
        for name, candidates in cases.items():
            with self.subTest(name):
                error = self.refused("invalid_candidate_ids", candidates=candidates)
                self.assertTrue(str(error).startswith("candidate ids must be a list of non-empty strings, got "))
                self.assertIsNone(error.source_id)

    def test_duplicate_candidate(self) -> None:
        """Guards against one source counted twice (two 'agreeing' sources that are one)."""
        error = self.refused("duplicate_candidate", candidates=["a", "b", "a"])
        self.assertEqual(error.source_id, "a")
        self.assertEqual(str(error), "source 'a': candidate is listed twice")

    def test_unknown_candidate(self) -> None:
        """Guards against silently dropping a candidate the manifest does not have."""
        for manifest in (None, self.manifest):
            with self.subTest(manifest="path" if manifest else "corpus"):
                error = self.refused("unknown_candidate", candidates=["a", "zzz"], manifest=manifest)
                self.assertEqual(str(error), "source 'zzz': not in the manifest")

    def test_requested_version_must_be_major_minor_in_ascii_digits(self) -> None:
        """Guards against near-miss versions that would only ever match nothing (or the wrong thing)."""
        cases = {
            "leading space": " 1.0", "trailing space": "1.0 ", "trailing newline": "1.0\n",
            "leading tab": "\t1.0", "trailing CR": "1.0\r", "v prefix": "v1.0", "V prefix": "V1.0",
            "full-width digit": "\uff11.0", "Arabic-Indic digits": "\u0661.\u0660",
            "mixed digits": "1.\u0660", "non-ASCII digit after an ASCII one": "1\u0661.0",
            "non-ASCII digit in the minor": "1.1\u0660", "superscript": "\u00b9.0",
            "no minor": "1", "trailing dot": "1.", "no major": ".0", "extra part": "1.0.0",
            "leading zero": "01.0", "leading zero minor": "1.00", "comma": "1,0", "suffix": "1.0-beta",
            "empty": "", "sign": "+1.0",
        }
        for name, version in cases.items():
            with self.subTest(name):
                error = self.refused("invalid_requested_version", version=version)
                self.assertEqual(str(error), "requested version must be MAJOR.MINOR (e.g. 1.0), "
                                             f"got {version!r}")

    def test_requested_version_must_be_a_string(self) -> None:
        """Guards against 1.0 (a float) or bytes being compared with manifest strings."""
        for version in (1.0, 1, None, b"1.0", ["1.0"]):
            with self.subTest(version=version):
                self.refused("invalid_requested_version", version=version)

    def test_valid_versions_that_look_unusual(self) -> None:
        """Control: 0.0 and multi-digit parts are valid MAJOR.MINOR (no eligible source, not an error)."""
        for version in ("0.0", "10.12", "3.0"):
            with self.subTest(version):
                result = gate(self.corpus, ["a"], version)
                self.assertEqual(result["reason"], "no_eligible_version")

    def test_unsupported_claim_key_or_operation(self) -> None:
        """Guards against a request for a claim the grammar cannot express being answered 'missing'."""
        cases = {
            "unknown key": ({"claim_key": "nope"}, "unsupported claim 'create_copy' 'nope'"),
            "key in the wrong case": ({"claim_key": "Existing_path"}, "'Existing_path'"),
            "key with a space": ({"claim_key": " existing_path"}, "' existing_path'"),
            "empty key": ({"claim_key": ""}, "unsupported claim 'create_copy' ''"),
            "None key": ({"claim_key": None}, "unsupported claim 'create_copy' None"),
            "unknown operation": ({"operation": "delete"}, "unsupported claim 'delete' 'existing_path'"),
            "operation in the wrong case": ({"operation": "CREATE_COPY"}, "'CREATE_COPY'"),
            "None operation": ({"operation": None}, "unsupported claim None 'existing_path'"),
        }
        known = ", ".join(f"{op} {key}" for op, keys in conflict_gate.GRAMMAR.items() for key in keys)
        for name, (kwargs, detail) in cases.items():
            with self.subTest(name):
                error = self.refused("unsupported_requested_claim", **kwargs)
                self.assertIn(detail, str(error))
                self.assertTrue(str(error).endswith(f"(known: {known})"))

    def test_unhashable_claim_key_or_operation_is_a_gate_error(self) -> None:
        """Regression: ``claim_key=[]`` or ``operation={}`` raised an untyped TypeError (unhashable)."""
        for kwargs in ({"claim_key": []}, {"operation": []}, {"operation": {}}):
            with self.subTest(**{k: repr(v) for k, v in kwargs.items()}):
                self.refused("unsupported_requested_claim", **kwargs)

    def test_candidate_with_an_invalid_manifest_version(self) -> None:
        """Guards against a candidate whose version is '1.0 ' or 'v1.0' being silently never eligible."""
        for sid, version in (("spaced", "1.0 "), ("prefixed", "v1.0")):
            with self.subTest(sid):
                error = self.refused("invalid_source_version", candidates=["a", sid])
                self.assertEqual(error.source_id, sid)
                self.assertEqual(str(error), f"source {sid!r}: manifest version {version!r} is not MAJOR.MINOR")

    def test_request_errors_come_before_any_file_is_read(self) -> None:
        """Guards against loading (hashing every source) for a request that is invalid anyway.

        Real-world check: the manifest path does not exist, so loading it first
        would raise IngestionError instead of GateError. Then, with a real
        manifest, neither ``load_documents`` nor ``os.open`` is called.
        """
        bad_requests = {
            "not a list": {"candidates": "a"},
            "empty id": {"candidates": [""]},
            "duplicate": {"candidates": ["a", "a"]},
            "bad version": {"version": "v1.0"},
            "bad claim": {"claim_key": "nope"},
            "bad operation": {"operation": "nope"},
        }
        missing = self.root / "no-such-manifest.json"
        with self.assertRaises(IngestionError):  # control: a valid request does open the manifest
            gate(missing, ["a"], "1.0")
        for name, request in bad_requests.items():
            kwargs = {"candidates": ["a", "b"], "version": "1.0", "claim_key": "existing_path", **request}
            with self.subTest(name):
                with self.assertRaises(GateError):
                    gate(missing, kwargs.pop("candidates"), kwargs.pop("version"), kwargs.pop("claim_key"),
                         **kwargs)
                real_open = os.open
                opened: list[str] = []

                def spy_open(path: Any, *args: Any, **kw: Any) -> int:
                    opened.append(os.fsdecode(path))
                    return real_open(path, *args, **kw)

                kwargs = {"candidates": ["a", "b"], "version": "1.0", "claim_key": "existing_path", **request}
                with mock.patch.object(conflict_gate, "load_documents",
                                       side_effect=AssertionError("load_documents called")) as loader, \
                        mock.patch.object(os, "open", spy_open):
                    with self.assertRaises(GateError):
                        gate(str(self.manifest), kwargs.pop("candidates"), kwargs.pop("version"),
                             kwargs.pop("claim_key"), **kwargs)
                loader.assert_not_called()
                self.assertEqual(opened, [])


if __name__ == "__main__":
    unittest.main()
