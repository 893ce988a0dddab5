"""Seeded fuzzing of the reader and of whole corpora: typed errors only, and the same reading both ways.

Reader: random pages (the block tests' fragments, with look-alike at signs,
references, BOM-free CRLF and lone-CR variants) must read the same with and
without the block shortcuts (``fast=False`` walks every line through the
rules), never raise, and give claims whose spans hold (:func:`assert_span_invariants`).

Corpus: a valid three-source corpus, mutated at random (the manifest's JSON,
its entries, the grammar, the sources' bytes), must load and decide or raise
a :class:`LocatedError`; nothing else. The outcome is checked, not only its
type: a loaded source reads as :func:`read_directives` reads its file; with
the manifest untouched, the first source (in manifest order) whose bytes no
longer match their pin raises ``hash_mismatch``, one that is re-pinned but
not UTF-8 ``source_not_utf8``, and otherwise the corpus loads; an error
about the manifest comes only after the manifest was changed; a request the
gate refuses is one with an unknown candidate, a version outside the scheme
or a claim outside the grammar, and ``audit``'s ``clean`` is what its
definition says.

``CONFLICT_GATE_FUZZ_CASES`` (default :data:`DEFAULT_CASES`) sets the cases per
test and ``CONFLICT_GATE_FUZZ_SEED`` the seed; a failure prints both. The
default run takes about half a second (``.ci/run`` runs 1,000 cases); a long run is opt-in, e.g.
``CONFLICT_GATE_FUZZ_CASES=100000 python -m unittest tests.test_fuzz``.
"""

from __future__ import annotations

import copy
import json
import os
import random
import tempfile
import unittest
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _conflict_gate.base.errors import GateError, LocatedError
from _conflict_gate.corpus.load import load_documents, source_digest
from _conflict_gate.decide.decision import audit, gate
from _conflict_gate.manifest.grammar import grammar_from_json
from _conflict_gate.reading.reader import read_directives
from _conflict_gate.reading.renderers import DEFAULT, RENDERER_VALUES, Renderer
from tests.support import QUILL_GRAMMAR, assert_span_invariants, write_corpus
from tests.test_blocks import FRAGMENTS, random_page

DEFAULT_CASES = 60  # .ci/run: 1,000
CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", DEFAULT_CASES))
SEED = int(os.environ.get("CONFLICT_GATE_FUZZ_SEED", "20261130"))
GRAMMAR = grammar_from_json(QUILL_GRAMMAR)

#: Extra fragments: at-sign look-alikes, references, invisible characters, near-directives.
EXTRA = (
    "\uff20quill create_copy existing_path=refuse",
    "&#64;quill create_copy existing_path=refuse",
    "&#64quill create_copy existing_path=overwrite",
    "\u200b@quill create_copy existing_path=refuse",
    "@quill create_copy existing_path=refuse  ",
    "@quill create_copy existing_path=Refuse",
    "@quill create_copy close_required=yes",
    "@QUILL create_copy existing_path=refuse",
    "@qu*ill* create_copy existing_path=refuse",
    "<!-- @quill create_copy existing_path=refuse -->",
    "<?php @quill create_copy existing_path=overwrite ?>",
    "`@quill create_copy`",
    "@quill create_copy existing_path=refuse\\",
    "caf\u00e9 \u03a9 @quill",
    "@quill",
)


def rerun(seed: int) -> str:
    return f"(rerun: CONFLICT_GATE_FUZZ_SEED={seed} CONFLICT_GATE_FUZZ_CASES={CASES})"


def fuzz_page(rng: random.Random) -> str:
    text = random_page(rng)
    lines = text.split("\n")
    for _ in range(rng.randint(0, 4)):
        lines.insert(rng.randint(0, len(lines)), rng.choice(EXTRA + FRAGMENTS))
    return "\n".join(lines)


def outcome(text: str, fast: bool, renderer: Renderer = DEFAULT) -> tuple[Any, ...]:
    reading = read_directives(text, GRAMMAR, fast=fast, renderer=renderer)
    refusal = reading.refusal
    return (
        reading.claims,
        None if refusal is None else (refusal.reason, refusal.line, refusal.column),
        reading.near_misses,
    )


class ReaderFuzzTest(unittest.TestCase):
    def test_random_pages_read_the_same_with_and_without_shortcuts(self) -> None:
        """Under every renderer in turn (case by case): regression, MDX's shortcuts took a paragraph's
        continuation lines indented four columns, which its line check reads."""
        rng = random.Random(SEED)
        claims = refusals = 0
        renderers = list(RENDERER_VALUES.values())
        for index in range(CASES):
            text = fuzz_page(rng)
            renderer = renderers[index % len(renderers)]
            with self.subTest(case=index, renderer=renderer.name):
                try:
                    fast, slow = outcome(text, True, renderer), outcome(text, False, renderer)
                except Exception as error:  # noqa: BLE001 - any exception is the bug being looked for
                    self.fail(f"read_directives raised {error!r} on {text!r} {rerun(SEED)}")
                self.assertEqual(fast, slow, f"shortcuts change the reading of {text!r} {rerun(SEED)}")
                raw = text.encode("utf-8", "surrogatepass")
                for claim in fast[0]:
                    assert_span_invariants(raw, claim)
                claims += len(fast[0])
                refusals += fast[1] is not None
        # The generator must reach both outcomes, or the comparison proves little.
        self.assertGreater(claims, 0)
        self.assertGreater(refusals, 0)


# --------------------------------------------------------------------------
# Corpus fuzz


def _mutate_json(rng: random.Random, data: Any) -> Any:
    """One random change somewhere in a JSON value: drop, retype, replace or add a member."""
    weird: list[Any] = [
        None,
        True,
        0,
        -1,
        1.5,
        "",
        "x" * 300,
        "../etc",
        "a\nb",
        "\u202e",
        [],
        {},
        "1.0",
        "quill",
        "approved",
        "draft",
        "sha256",
        "0" * 64,
        "é",
    ]
    if isinstance(data, dict) and data and rng.random() < 0.7:
        key = rng.choice(sorted(data))
        roll = rng.random()
        if roll < 0.25:
            del data[key]
        elif roll < 0.6:
            data[key] = _mutate_json(rng, data[key])
        else:
            data[key] = rng.choice(weird)
        if rng.random() < 0.1:
            data[rng.choice(["extra", "status", "url", "grammar", "min", "max", "type"])] = rng.choice(weird)
        return data
    if isinstance(data, list) and data and rng.random() < 0.7:
        index = rng.randrange(len(data))
        roll = rng.random()
        if roll < 0.2:
            del data[index]
        elif roll < 0.4:
            data.append(copy.deepcopy(data[index]))
        else:
            data[index] = _mutate_json(rng, data[index])
        return data
    return rng.choice(weird)


SOURCES = {
    "docs/1.0/guide.md": b"# Guide\n\n@quill create_copy existing_path=refuse\n\n```\n@quill x\n```\n",
    "docs/1.0/reference.md": b"\xef\xbb\xbfRef\r\n\r\n@quill create_copy existing_path=refuse\r\n"
    b"@quill create_copy close_required=yes\r\n",
    "docs/2.0/notes.md": "Caf\u00e9 \u2014 notes\n\n@quill create_copy existing_path=overwrite\n".encode(),
}
SOURCE_MUTATIONS: tuple[Callable[[random.Random, bytes], bytes], ...] = (
    lambda rng, raw: raw[: rng.randrange(len(raw) + 1)],
    lambda rng, raw: raw + bytes([rng.randrange(256)]),
    lambda rng, raw: raw.replace(b"refuse", rng.choice([b"overwrite", b"Refuse", b"refuse\xff", b""])),
    lambda rng, raw: raw.replace(b"\n", b"\r", rng.randint(1, 3)),
    lambda rng, raw: raw + rng.choice(FRAGMENTS + EXTRA).encode("utf-8") + b"\n",
    lambda rng, raw: b"\xef\xbb\xbf" + raw,
)


class CorpusFuzzTest(unittest.TestCase):
    def test_mutated_corpora_load_and_decide_or_raise_typed_errors(self) -> None:
        rng = random.Random(SEED + 1)
        outcomes = {"loaded": 0, "typed error": 0, "source error foreseen": 0}
        with tempfile.TemporaryDirectory(prefix="conflict-gate-fuzz-") as tmp:
            for index in range(CASES):
                root = Path(tmp) / str(index)
                manifest = write_corpus(root, SOURCES, versions={"notes": "2.0"}, statuses={"notes": "draft"})
                described, manifest_changed = self._mutate(rng, root, manifest)
                foreseen = None if manifest_changed else _first_source_error(root, manifest)
                with self.subTest(case=index):
                    try:
                        corpus = load_documents(manifest)
                    except LocatedError as error:
                        outcomes["typed error"] += 1
                        self.assertNotIn("\n", str(error), described)
                        self._check_error(root, manifest, error, manifest_changed, foreseen, described)
                        outcomes["source error foreseen"] += foreseen is not None
                        continue
                    except Exception as error:  # noqa: BLE001 - any other exception is the bug
                        self.fail(f"{error!r} after {described} {rerun(SEED + 1)}")
                    outcomes["loaded"] += 1
                    self.assertIsNone(foreseen, f"loaded, though {foreseen} was due after {described}")
                    self._check_sources(root, corpus, manifest_changed, described)
                    self._decide(rng, corpus)
        self.assertGreater(outcomes["loaded"], 0, outcomes)
        self.assertGreater(outcomes["typed error"], 0, outcomes)
        self.assertGreater(outcomes["source error foreseen"], 0, outcomes)

    def _check_error(
        self,
        root: Path,
        manifest: Path,
        error: LocatedError,
        manifest_changed: bool,
        foreseen: tuple[str, str] | None,
        described: str,
    ) -> None:
        """The error is the one due: foreseen when the manifest is untouched; a source error names a
        source whose file is as it says; any other error follows a change of the manifest."""
        if foreseen is not None:
            self.assertEqual((error.reason, error.source_id), foreseen, described)
        elif error.reason in ("hash_mismatch", "source_not_utf8"):
            self.assertIsNotNone(error.path, described)
            raw = (root / str(error.path)).read_bytes()
            if error.reason == "hash_mismatch":
                pins = {entry["path"]: entry["sha256"] for entry in json.loads(manifest.read_bytes())["documents"]}
                self.assertNotEqual(source_digest(raw), pins[error.path], described)
            else:
                with self.assertRaises(UnicodeDecodeError, msg=described):
                    raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        else:
            self.assertTrue(manifest_changed, f"{error!r} after {described}")

    def _check_sources(self, root: Path, corpus: Any, manifest_changed: bool, described: str) -> None:
        """Each loaded source is its file, pinned, read as read_directives reads it."""
        if not manifest_changed:
            self.assertEqual(list(corpus.sources), ["guide", "reference", "notes"], described)
        for source in corpus.sources.values():
            raw = (root / source.path).read_bytes()
            body = raw.removeprefix(b"\xef\xbb\xbf")
            reading = read_directives(
                body.decode("utf-8"),
                corpus.grammar,
                bom_bytes=len(raw) - len(body),
                source_id=source.source_id,
                path=source.path,
            )
            self.assertEqual((source.sha256, source.size), (source_digest(raw), len(raw)), described)
            self.assertEqual((source.claims, source.near_misses), (reading.claims, reading.near_misses), described)
            self.assertEqual(
                source.refusal and str(source.refusal), reading.refusal and str(reading.refusal), described
            )

    def _mutate(self, rng: random.Random, root: Path, manifest: Path) -> tuple[str, bool]:
        """Apply one or two random mutations; return what was done (for the failure message) and
        whether the manifest was changed (other than pins written again)."""
        done = []
        manifest_changed = False
        for _ in range(rng.randint(1, 2)):
            roll = rng.random()
            if roll < 0.4:
                try:
                    data = _mutate_json(rng, json.loads(manifest.read_bytes()))
                except ValueError:
                    continue
                manifest.write_text(json.dumps(data), encoding="utf-8")
                manifest_changed = True
                done.append(f"manifest now {json.dumps(data)[:300]}")
            elif roll < 0.5:
                raw = manifest.read_bytes()
                cut = rng.randrange(len(raw))
                manifest.write_bytes(raw[:cut] + rng.choice([b"", b"\xff", b"{", b"NaN", b'"a":1,']) + raw[cut:])
                manifest_changed = True
                done.append(f"manifest bytes changed at {cut}")
            else:
                rel = rng.choice(sorted(SOURCES))
                path = root / rel
                mutation = rng.choice(SOURCE_MUTATIONS)
                path.write_bytes(mutation(rng, path.read_bytes()))
                try:
                    data = json.loads(manifest.read_bytes()) if rng.random() < 0.7 else None
                except ValueError:  # the manifest was broken by an earlier mutation
                    data = None
                if data is not None:  # re-pin, so the reader sees the new bytes
                    documents = data.get("documents") if isinstance(data, dict) else None
                    for entry in documents if isinstance(documents, list) else []:
                        if isinstance(entry, dict) and entry.get("path") == rel:
                            entry["sha256"] = source_digest(path.read_bytes())
                    manifest.write_text(json.dumps(data), encoding="utf-8")
                done.append(f"{rel} now {path.read_bytes()[:200]!r}")
        return "; ".join(done), manifest_changed

    def _decide(self, rng: random.Random, corpus: Any) -> None:
        """Requests the gate refuses are exactly the invalid ones; ``clean`` is what audit says it is."""
        for _ in range(3):
            ids = rng.sample([*sorted(corpus.sources), "missing"], rng.randint(1, len(corpus.sources) + 1))
            version = rng.choice(["1.0", "2.0", "3.0", "1", ""])
            operation = rng.choice(["create_copy", "delete"])
            key = rng.choice(["existing_path", "close_required", "nope"])
            invalid = (
                "invalid_requested_version"
                if not corpus.version_scheme.fits(version)
                else "unsupported_requested_claim"
                if corpus.grammar.rule(operation, key) is None
                else "unknown_candidate"
                if "missing" in ids
                else None
            )
            try:
                result = gate(corpus, ids, version, operation, key)
            except GateError as error:
                self.assertEqual(error.reason, invalid)
                continue
            self.assertIsNone(invalid)
            self.assertIn(result["status"], ("ready", "conflict", "not_in_docs", "refused"))
            self.assertEqual(result["answer_request"] is None, result["status"] != "ready")
        approved = [s for s in corpus.sources.values() if s.status == "approved"]
        values: dict[tuple[str, str, str], set[str]] = {}
        for source in approved:
            for claim in () if source.refusal else source.claims:
                values.setdefault((source.version, claim.operation, claim.claim_key), set()).add(claim.value)
        clean = all(source.refusal is None for source in approved) and all(len(v) == 1 for v in values.values())
        self.assertEqual(audit(corpus)["clean"], clean)


def _first_source_error(root: Path, manifest: Path) -> tuple[str, str] | None:
    """``(reason, source id)`` of the first source, in manifest order, whose file load_documents must
    refuse (its bytes do not match the pin, or are not UTF-8), or None; for an untouched manifest."""
    for entry in json.loads(manifest.read_bytes())["documents"]:
        raw = (root / entry["path"]).read_bytes()
        if source_digest(raw) != entry["sha256"]:
            return "hash_mismatch", entry["source_id"]
        try:
            raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except UnicodeDecodeError:
            return "source_not_utf8", entry["source_id"]
    return None


if __name__ == "__main__":
    unittest.main()
