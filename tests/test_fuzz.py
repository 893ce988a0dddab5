"""Seeded fuzzing (issue 3): whatever the bytes, the outcome is a typed error or a consistent result.

:class:`CorpusFuzzTest` mutates the fixture documents (byte flips, truncation,
inserted ``\\r``, U+2028, BOM, NUL, fence markers, ``@`` lines and
near-directives, huge lines, CRLF conversion, deleted or repeated lines) and
the manifest (bytes and structure), re-pins the mutated sources most of the
time so that decoding and parsing run (not only ``hash_mismatch``), then runs
``load_documents``, ``gate`` for a few random requests and ``audit``. Every
outcome must be an ``IngestionError``/``GateError``/``DirectiveError`` whose
reason is in its registry, or a result whose claims satisfy
``text[start:end] == quote == raw[byte_start:byte_end].decode()``. Anything else
fails with the case's seed and a summary of its mutations.

:class:`DirectiveFuzzTest` feeds random strings to ``parse_directive`` and
``scan_text`` and compares them with tiny independent reference
implementations of the documented rules.

Size: ``CONFLICT_GATE_FUZZ_CASES`` (default :data:`DEFAULT_CASES`, a few
seconds in all) sets the number of corpus cases; the direct fuzzers scale with
it. ``CONFLICT_GATE_FUZZ_SEED`` sets the first seed; case ``i`` uses seed
``SEED + i``, so a failure is replayed with ``CONFLICT_GATE_FUZZ_SEED=<its
seed> CONFLICT_GATE_FUZZ_CASES=1``. With ``CONFLICT_GATE_FUZZ_CASES`` set, the
figures (cases, seconds, outcomes by reason) are printed to stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
import tempfile
import time
import traceback
import unicodedata
import unittest
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from conflict_gate import (
    DECISIONS,
    DIRECTIVE_REASONS,
    GATE_REASONS,
    GRAMMAR,
    DirectiveError,
    GateError,
    audit,
    gate,
    parse_directive,
)
from load_documents import (
    INGESTION_REASONS,
    MAX_MENTIONS,
    MENTION_QUOTE_LIMIT,
    IngestionError,
    load_documents,
    scan_text,
)
from tests.support import FIXTURE_MANIFEST, REPO, assert_span_invariants

DEFAULT_CASES = 1000
CASES = int(os.environ.get("CONFLICT_GATE_FUZZ_CASES", DEFAULT_CASES))
SEED = int(os.environ.get("CONFLICT_GATE_FUZZ_SEED", 20261129))
REPORT = "CONFLICT_GATE_FUZZ_CASES" in os.environ

BOM = b"\xef\xbb\xbf"
FIXTURE_ENTRIES: list[dict[str, str]] = json.loads(FIXTURE_MANIFEST.read_text(encoding="utf-8"))["documents"]
FIXTURE_FILES: dict[str, bytes] = {e["path"]: (REPO / e["path"]).read_bytes() for e in FIXTURE_ENTRIES}
VALID_DIRECTIVES = [f"@quill {op} {key}={value}" for op, keys in GRAMMAR.items()
                    for key, values in keys.items() for value in values]
NEAR_DIRECTIVES = [
    "@quill  create_copy existing_path=refuse", "@quill create_copy existing_path=refuse ",
    "@quill create_copy existing_path = refuse", "@quill create_copy\texisting_path=refuse",
    "@Quill create_copy existing_path=refuse", "@quill create_copy existing_path=", "@quill",
    "@quillx create_copy existing_path=refuse", "@", "@quill delete existing_path=refuse",
    "@quill create_copy colour=red", "@quill create_copy existing_path=maybe",
    "@quill create_copy existing_path=refuse extra", "@quill.task(name='x')", "@retry(times=2)",
    " @quill create_copy existing_path=refuse", "\t@quill create_copy existing_path=refuse",
    "\u00a0@quill create_copy existing_path=refuse", "\u200b@quill create_copy existing_path=refuse",
    "\ufeff@quill create_copy existing_path=refuse", "@quill create_copy existing_path=ｒefuse",
    "x @quill create_copy existing_path=refuse", "@quill create_copy existing_path=refuse\r",
]


def _line_text(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text``, as the rules define lines: split at \\n, minus a CRLF's \\r."""
    lines = text.split("\n")
    content = lines[line - 1]
    if line < len(lines) and content.endswith("\r"):
        content = content[:-1]
    return content


def _decoded(raw: bytes) -> str:
    return (raw[len(BOM):] if raw.startswith(BOM) else raw).decode("utf-8")


# --------------------------------------------------------------------------
# mutations


class Mutator:
    """Random, logged mutations of document and manifest bytes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.log: list[str] = []

    def _position(self, raw: bytes) -> int:
        """A random offset; half the time the start of a line (where fences and directives live)."""
        if raw and self.rng.random() < 0.5:
            starts = [0] + [i + 1 for i, b in enumerate(raw) if b == 0x0A]
            return self.rng.choice(starts)
        return self.rng.randrange(len(raw) + 1)

    def _insert(self, raw: bytes, piece: bytes, name: str) -> bytes:
        at = self._position(raw)
        self.log.append(f"insert {name} at {at}")
        return raw[:at] + piece + raw[at:]

    def document(self, raw: bytes) -> bytes:
        rng = self.rng
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(("flip", "truncate", "cr", "u2028", "bom", "nul", "fence", "fence",
                               "directive", "directive", "near", "near", "near", "bad_utf8", "crlf",
                               "line", "line", "value", "huge"))
            if kind == "flip" and raw:
                at = rng.randrange(len(raw))
                bit = 1 << rng.randrange(8)
                self.log.append(f"flip bit {bit:#x} at {at}")
                raw = raw[:at] + bytes([raw[at] ^ bit]) + raw[at + 1:]
            elif kind == "truncate":
                at = rng.randrange(len(raw) + 1)
                self.log.append(f"truncate at {at}")
                raw = raw[:at]
            elif kind == "cr":
                raw = self._insert(raw, b"\r", "CR")
            elif kind == "u2028":
                raw = self._insert(raw, "\u2028".encode(), "U+2028")
            elif kind == "bom":
                raw = BOM + raw if rng.random() < 0.7 else self._insert(raw, BOM, "BOM")
                self.log.append("BOM")
            elif kind == "nul":
                raw = self._insert(raw, b"\x00", "NUL")
            elif kind == "fence":
                marker = rng.choice(("```", "~~~", "````", "~~~~", "``", "```text", "``` `x`"))
                indent = " " * rng.choice((0, 0, 1, 3, 4))
                raw = self._insert(raw, (indent + marker + rng.choice(("\n", "\r\n", ""))).encode(),
                                   f"fence {indent + marker!r}")
            elif kind == "directive":
                line = rng.choice(VALID_DIRECTIVES)
                raw = self._insert(raw, (line + rng.choice(("\n", "\r\n", ""))).encode(), repr(line))
            elif kind == "near":
                line = rng.choice(NEAR_DIRECTIVES)
                raw = self._insert(raw, (line + "\n").encode(), repr(line))
            elif kind == "bad_utf8":
                piece = rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"))
                raw = self._insert(raw, piece, f"bytes {piece!r}")
            elif kind == "crlf":
                self.log.append("LF -> CRLF" if b"\r\n" not in raw else "CRLF -> LF")
                raw = raw.replace(b"\n", b"\r\n") if b"\r\n" not in raw else raw.replace(b"\r\n", b"\n")
            elif kind == "line":
                lines = raw.split(b"\n")
                # prefer directive lines: repeating one makes a duplicate directive
                candidates = [i for i, l in enumerate(lines) if l.startswith(b"@")] or list(range(len(lines)))
                i = rng.choice(candidates)
                if rng.random() < 0.5:
                    self.log.append(f"repeat line {i + 1}")
                    lines.insert(i, lines[i])
                else:
                    self.log.append(f"delete line {i + 1}")
                    del lines[i]
                raw = b"\n".join(lines)
            elif kind == "value":
                old, new = rng.choice(((b"=refuse", b"=overwrite"), (b"=overwrite", b"=refuse"),
                                       (b"existing_path", b"close_required"), (b"=yes", b"=no")))
                self.log.append(f"replace {old!r} with {new!r}")
                raw = raw.replace(old, new, 1)
            elif kind == "huge" and rng.random() < 0.25:  # rare: each costs a few milliseconds
                unit = rng.choice((b"a", b"@", b"`", "\u00e9".encode(), b"@quill ", b" "))
                piece = unit * (200_000 // len(unit)) + rng.choice((b"\n", b""))
                raw = self._insert(raw, piece, f"200 KB line of {unit!r}")
        return raw

    def entries(self, entries: list[dict[str, Any]]) -> None:
        """Structural manifest mutations, in place."""
        rng = self.rng
        entry = rng.choice(entries)
        kind = rng.choice(("path", "version", "sha256", "drop", "extra", "duplicate", "same_id",
                           "not_string", "swap"))
        if kind == "path":
            other = rng.choice(entries)["path"]
            entry["path"] = rng.choice(("../docs/x.md", "docs/../" + other, "./" + other, "/etc/hostname",
                                        other.replace("/", "//"), "docs", "docs/nope.md", "",
                                        other.replace("/", "\\"), other, other + "/", other.upper()))
        elif kind == "version":
            entry["version"] = rng.choice(("1.0 ", "v1.0", "01.0", "2.0", "1", "1.0", "3.0", "\u0661.0"))
        elif kind == "sha256":
            pin = entry["sha256"]
            entry["sha256"] = rng.choice((pin.upper(), "sha256:" + pin, pin[:-1], pin + "\n", " " + pin,
                                          hashlib.sha256(pin.encode()).hexdigest()))
        elif kind == "drop":
            del entry[rng.choice(list(entry))]
        elif kind == "extra":
            entry[rng.choice(("title", "Path", "sha"))] = "x"
        elif kind == "duplicate":
            entries.append(dict(entry))
        elif kind == "same_id":
            rng.choice(entries)["source_id"] = entry["source_id"]
        elif kind == "not_string":
            entry[rng.choice(list(entry))] = rng.choice((1, None, [], {}, True, 1.5))
        elif kind == "swap":
            other = rng.choice(entries)
            entry["path"], other["path"] = other["path"], entry["path"]
        self.log.append(f"manifest {kind} ({entry.get('source_id')!r})")

    def manifest_bytes(self, raw: bytes) -> bytes:
        rng = self.rng
        kind = rng.choice(("flip", "truncate", "bom", "nul", "cr", "u2028", "dup_key", "bad_utf8"))
        if kind == "flip":
            at = rng.randrange(len(raw))
            raw = raw[:at] + bytes([raw[at] ^ (1 << rng.randrange(8))]) + raw[at + 1:]
        elif kind == "truncate":
            raw = raw[:rng.randrange(len(raw))]
        elif kind == "bom":
            raw = BOM + raw
        elif kind in ("nul", "cr", "u2028", "bad_utf8"):
            piece = {"nul": b"\x00", "cr": b"\r", "u2028": "\u2028".encode(), "bad_utf8": b"\xff"}[kind]
            at = rng.randrange(len(raw) + 1)
            raw = raw[:at] + piece + raw[at:]
        elif kind == "dup_key":
            key = rng.choice((b'"path"', b'"sha256"', b'"documents"', b'"version"'))
            raw = raw.replace(b"{", b"{" + key + b': "x", ', 1 + rng.randrange(3))
        self.log.append(f"manifest bytes {kind}")
        return raw


# --------------------------------------------------------------------------
# checks


class Outcomes:
    """Counts of what the fuzzed cases ended in, by stage and reason."""

    def __init__(self) -> None:
        self.load: Counter[str] = Counter()
        self.gate: Counter[str] = Counter()
        self.audit: Counter[str] = Counter()

    def report(self, cases: int, seconds: float) -> str:
        def fmt(counter: Counter[str]) -> str:
            return ", ".join(f"{k}={v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))
        return (f"fuzz: {cases} cases in {seconds:.1f} s (seed {SEED})\n"
                f"  load:  {fmt(self.load)}\n  gate:  {fmt(self.gate)}\n  audit: {fmt(self.audit)}")


def check_claim(claim: dict[str, Any], raw: bytes) -> None:
    """The documented claim invariants against the source's raw bytes."""
    assert_span_invariants(raw, claim)
    text = _decoded(raw)
    quote = claim["quote"]
    assert text[claim["start"]:claim["end"]] == quote == raw[claim["byte_start"]:claim["byte_end"]].decode()
    assert claim["source_sha256"] == hashlib.sha256(raw).hexdigest(), "claim cites another digest"
    op, key, value = claim["operation"], claim["claim_key"], claim["value"]
    assert value in GRAMMAR[op][key], f"value {value!r} is outside the grammar"
    assert quote == f"@quill {op} {key}={value}", f"claim {quote!r} is not an exact directive"


def check_gate_result(result: dict[str, Any], request: dict[str, Any], read: Callable[[str], bytes]) -> str:
    status, reason = result["status"], result["reason"]
    assert reason in DECISIONS[status], f"{status}/{reason} is not a registered decision"
    assert (result["answer_request"] is not None) == (status == "ready"), "answer request vs status"
    assert result["requested_version"] == request["version"]
    for claim in result["claims"]:
        assert claim["source_id"] in result["eligible_source_ids"], "claim from an ineligible source"
        assert claim["version"] == request["version"], "claim of another version"
        check_claim(claim, read(claim["path"]))
    if status == "ready":
        assert {c["value"] for c in result["claims"]} == {result["agreed_value"]}
        assert sorted(c["source_id"] for c in result["claims"]) == result["eligible_source_ids"]
    if status == "refused":
        assert reason in DIRECTIVE_REASONS and result["claims"] == []
        assert isinstance(result["line"], int) and result["line"] >= 1
        quote = _line_text(_decoded(read(result["path"])), result["line"])
        assert 1 <= result["column"] <= len(quote) + 1, "column outside the offending line"
    return f"{status}/{reason}"


def check_audit(report: dict[str, Any], read: Callable[[str], bytes]) -> list[str]:
    seen = []
    for entry in report["claims"]:
        assert entry["status"] in ("agree", "conflict", "partial")
        seen.append(entry["status"])
        for claim in entry["claims"]:
            text = _decoded(read(claim["path"]))
            assert _line_text(text, claim["line"]) == claim["quote"], "audit quote is not its line"
    for refused in report["refused_sources"]:
        assert refused["reason"] in DIRECTIVE_REASONS or refused["reason"] == "invalid_source_version"
        seen.append(f"refused/{refused['reason']}")
    for miss in report["near_misses"]:
        text = _decoded(read(miss["path"]))
        line = _line_text(text, miss["line"])
        assert line.startswith(miss["quote"]) and line[miss["column"] - 1] == "@", "near-miss location"
    return seen


class CorpusFuzzTest(unittest.TestCase):
    def test_mutated_corpora_end_in_a_typed_error_or_a_consistent_result(self) -> None:
        """Guards against any untyped exception or inconsistent span on malformed bytes or manifests."""
        outcomes = Outcomes()
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="conflict-gate-fuzz-") as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            for index in range(CASES):
                self._one_case(root, SEED + index, outcomes)
        seconds = time.perf_counter() - started
        if REPORT:
            print("\n" + outcomes.report(CASES, seconds), file=sys.stderr)
        if CASES >= DEFAULT_CASES:
            # The fuzzer must reach past hashing: loads, decisions of every kind, parse errors.
            loaded = outcomes.load["loaded"]
            self.assertGreater(loaded, CASES // 4, outcomes.report(CASES, seconds))
            for needed in ("hash_mismatch", "source_not_utf8"):
                self.assertIn(needed, outcomes.load)
            for status in DECISIONS:
                self.assertTrue(any(k.startswith(status + "/") for k in outcomes.gate), status)
            self.assertTrue(any(k.startswith("refused/") for k in outcomes.audit))

    def _one_case(self, root: Path, seed: int, outcomes: Outcomes) -> None:
        rng = random.Random(seed)
        mutator = Mutator(rng)
        files = dict(FIXTURE_FILES)
        entries = [dict(e) for e in FIXTURE_ENTRIES]
        try:
            for entry in rng.sample(entries, rng.randint(1, 3)):
                mutator.log.append(f"-- {entry['source_id']}:")
                files[entry["path"]] = mutator.document(files[entry["path"]])
                if rng.random() < 0.85:
                    entry["sha256"] = hashlib.sha256(files[entry["path"]]).hexdigest()
                    mutator.log.append("re-pinned")
            if rng.random() < 0.2:
                mutator.entries(entries)
            manifest = json.dumps({"documents": entries}, indent=2,
                                  ensure_ascii=rng.random() < 0.5).encode("utf-8")
            if rng.random() < 0.1:
                manifest = mutator.manifest_bytes(manifest)
            for rel, raw in files.items():
                (root / rel).write_bytes(raw)
            (root / "manifest.json").write_bytes(manifest)
            self._exercise(root, rng, outcomes)
        except Exception:
            self.fail(f"fuzz case failed: replay with CONFLICT_GATE_FUZZ_SEED={seed} "
                      f"CONFLICT_GATE_FUZZ_CASES=1\nmutations: {'; '.join(mutator.log)}\n"
                      f"{traceback.format_exc()}")

    def _exercise(self, root: Path, rng: random.Random, outcomes: Outcomes) -> None:
        cache: dict[str, bytes] = {}

        def read(path: str) -> bytes:
            if path not in cache:
                cache[path] = (root / path).read_bytes()
            return cache[path]

        try:
            corpus = load_documents(root / "manifest.json", workers=rng.choice((1, 2)))
        except IngestionError as error:
            assert error.reason in INGESTION_REASONS, error.reason
            assert len(str(error).splitlines()) == 1, f"not one line: {str(error)!r}"
            outcomes.load[error.reason] += 1
            return
        outcomes.load["loaded"] += 1
        ids = list(corpus.sources)
        for _ in range(3):
            candidates = rng.sample(ids, min(len(ids), rng.randint(1, 4) if rng.random() < 0.9 else 0))
            if rng.random() < 0.05:
                candidates.append(rng.choice(("nope", candidates[0] if candidates else "")))
            version = rng.choice(("1.0", "1.0", "1.0", "1.0", "2.0", "3.0"))
            claim_key = rng.choice(("existing_path", "existing_path", "close_required"))
            if rng.random() < 0.1:  # a bad request now and then
                version, claim_key = rng.choice(((" 1.0", claim_key), ("01.0", claim_key), ("v1.0", claim_key),
                                                 (version, "nope"), (version, "")))
            request = {"version": version, "claim_key": claim_key}
            try:
                result = gate(corpus, candidates, request["version"], request["claim_key"])
            except GateError as error:
                assert error.reason in GATE_REASONS, error.reason
                assert len(str(error).splitlines()) == 1, f"not one line: {str(error)!r}"
                outcomes.gate[f"GateError/{error.reason}"] += 1
            except DirectiveError as error:
                assert error.reason in DIRECTIVE_REASONS, error.reason
                outcomes.gate[f"DirectiveError/{error.reason}"] += 1
            else:
                outcomes.gate[check_gate_result(result, request, read)] += 1
        for seen in check_audit(audit(corpus), read):
            outcomes.audit[seen] += 1


# --------------------------------------------------------------------------
# direct fuzzing of the line scanner and the directive parser


def _blank(ch: str) -> bool:
    """The documented rule, written independently: looks empty to a reader."""
    return (ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Me")
            or ch in "\u115f\u1160\u3164\uffa0\u2800")


def reference_scan(text: str) -> tuple[list[tuple[int, int, int, str]], list[tuple[str, int, int, bool, str]]]:
    """A line-by-line restatement of the documented scanning rules (slow, obvious).

    Returns directive lines as ``(line, start, end, text)`` and mentions as
    ``(word, line, column, in_fence, quote)``.
    """
    directives: list[tuple[int, int, int, str]] = []
    mentions: list[tuple[str, int, int, bool, str]] = []
    open_fence: tuple[str, int, str] | None = None
    pos = 0
    lines = text.split("\n")
    # Fences in doubt (an '@' line in any fence is then a directive line, refused): an HTML line,
    # or a fence indented 1-3 spaces in a document with a list item.
    has = lambda pattern: any(re.match(pattern, line) for line in lines)  # noqa: E731
    in_doubt = has(r" {0,3}<[!/?A-Za-z]") or (
        has(r" {1,3}(?:`{3}|~{3})") and has(r" {0,3}(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|\r?$)"))
    # ... and the lines of a fence left unclosed at the end: where does it open?
    unclosed_from, probe = None, None
    for i, full in enumerate(lines):
        content = full[:-1] if i < len(lines) - 1 and full.endswith("\r") else full
        stripped = content.lstrip(" ")
        if len(content) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
            run = len(stripped) - len(stripped.lstrip(stripped[0]))
            if probe is None and not (stripped[0] == "`" and "`" in stripped[run:]):
                probe, unclosed_from = (stripped[0], run), i
            elif probe and stripped[0] == probe[0] and run >= probe[1] and not stripped[run:].strip(" \t"):
                probe, unclosed_from = None, None
    for i, full in enumerate(lines):
        content = full[:-1] if i < len(lines) - 1 and full.endswith("\r") else full
        start, end = pos, pos + len(content)
        pos += len(full) + 1
        stripped = content.lstrip(" ")
        fence = None
        if len(content) - len(stripped) <= 3 and stripped[:3] in ("```", "~~~"):
            run = len(stripped) - len(stripped.lstrip(stripped[0]))
            fence = (stripped[0], run, stripped[run:])
        in_fence = open_fence is not None
        if open_fence is None:
            if fence and not (fence[0] == "`" and "`" in fence[2]):
                open_fence, in_fence = fence, True
        elif fence and fence[0] == open_fence[0] and fence[1] >= open_fence[1] and not fence[2].strip(" \t"):
            open_fence = None
        first = next((j for j, ch in enumerate(content) if not _blank(ch)), None)
        doubtful = in_doubt or (unclosed_from is not None and i >= unclosed_from)
        at = content.find("@")
        # ... or only markup (quote, list, heading, emphasis, escape, tag) before a directive-shaped '@'
        shaped = re.match(r"(\S*)[ \t]+\S+[ \t]+([^ \t]*)", content[at:]) if at != -1 else None
        marked_up = shaped is not None and ("=" in shaped[2] or "&" in shaped[2]) and all(
            _blank(ch) for ch in re.sub(r"[>*+\-#|\\_~\[]|[0-9]{1,9}[.)]|<[^<>\n]*>", "", content[:at]))
        if (not in_fence or doubtful) and first is not None and (content[first] == "@" or marked_up):
            directives.append((i + 1, start, end, content))
            continue
        for k, ch in enumerate(content):
            if ch != "@" or len(mentions) >= MAX_MENTIONS:
                continue
            before = content[k - 1] if k else " "
            w = k + 1
            while w < len(content) and (content[w].isalnum() or content[w] == "_"):
                w += 1
            if (w > k + 1 and content[k + 1].isalpha() and w < len(content) and content[w] in " \t"
                    and not (before.isalnum() or before == "_")):
                cut = min(len(content), max(MENTION_QUOTE_LIMIT, k + MENTION_QUOTE_LIMIT // 2))
                mentions.append((content[k + 1:w], i + 1, k + 1, in_fence, content[:cut]))
                break
    return directives, mentions


SCAN_PIECES = ("@", "@quill", "@quill create_copy existing_path=refuse", " ", "  ", "   ", "    ", "\t",
               "\n", "\n", "\n", "\r\n", "\r", "```", "~~~", "````", "~~~~", "`", "~", "x", "\u00e9",
               "\u65e5\u672c", "\u2028", "\u200b", "\ufeff", "\u00a0", "\u3000", "=", "_", "a1", "\x00",
               "\x85", "\U0001F600", "@a ", "b@c ", "@1", "@\u00e9 ", "text")
PARSE_PIECES = ("@quill", "@", "quill", " ", " ", " ", "  ", "\t", "=", "create_copy", "existing_path",
                "close_required", "refuse", "overwrite", "yes", "no", "x", "_", "1", "\u00a0", "\u2003",
                "\u3000", "\r", "\n", "\u00e9", "Q", "QUILL", "\ufeff", "\u200b", "-", ".", "\uff52")


class DirectiveFuzzTest(unittest.TestCase):
    def test_scan_text_matches_a_line_by_line_reference(self) -> None:
        """Guards against fence, CRLF, blank-prefix or byte-offset slips in the fast scanner."""
        rng = random.Random(SEED)
        for case in range(max(1, CASES * 10)):
            text = "".join(rng.choice(SCAN_PIECES) for _ in range(rng.randrange(60)))
            text = re.sub(r"\r(?!\n)", "", text)  # lone CR: see test_lines.LineEndingTest
            bom = rng.choice((0, 3))
            directives, mentions = scan_text(text, bom_bytes=bom)
            raw = BOM[:bom] + text.encode("utf-8")
            expected = reference_scan(text)
            got = ([(d.line, d.start, d.end, d.text) for d in directives],
                   [(m.word, m.line, m.column, m.in_fence, m.quote) for m in mentions])
            if got != expected:
                self.fail(f"seed {SEED} case {case}: scan_text({text!r}) = {got}, reference {expected}")
            for d in directives:
                if raw[d.byte_start:d.byte_end].decode("utf-8") != d.text:
                    self.fail(f"seed {SEED} case {case}: byte span of {d!r} in {text!r}")

    def test_parse_directive_accepts_exactly_the_grammar(self) -> None:
        """Guards against a near-directive parsed as a claim, or an error pointing outside the line."""
        rng = random.Random(SEED + 1)
        valid = {line: tuple(line[len("@quill "):].replace("=", " ").split(" ")) for line in VALID_DIRECTIVES}
        for case in range(max(1, CASES * 25)):
            if rng.random() < 0.5:  # a valid directive with a few random edits
                chars = list(rng.choice(VALID_DIRECTIVES))
                for _ in range(rng.randint(0, 2)):
                    at = rng.randrange(len(chars) + 1)
                    op = rng.random()
                    if op < 0.4:
                        chars.insert(at, rng.choice(PARSE_PIECES))
                    elif op < 0.7 and at < len(chars):
                        del chars[at]
                    elif at < len(chars):
                        chars[at] = rng.choice(PARSE_PIECES)
                text = "".join(chars)
            else:
                text = "".join(rng.choice(PARSE_PIECES) for _ in range(rng.randrange(12)))
            try:
                parsed = parse_directive(text)
            except DirectiveError as error:
                if text in valid:
                    self.fail(f"seed {SEED + 1} case {case}: valid {text!r} refused: {error}")
                if error.reason not in DIRECTIVE_REASONS or error.quote != text \
                        or not 1 <= error.column <= len(text) + 1:
                    self.fail(f"seed {SEED + 1} case {case}: bad error for {text!r}: "
                              f"{error.reason} column {error.column}")
            except Exception:
                self.fail(f"seed {SEED + 1} case {case}: parse_directive({text!r}) raised "
                          f"{traceback.format_exc()}")
            else:
                if valid.get(text) != parsed:
                    self.fail(f"seed {SEED + 1} case {case}: {text!r} parsed as {parsed}")


if __name__ == "__main__":
    unittest.main()
