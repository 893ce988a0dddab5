"""Small shared helpers for the test suite (standard library only).

* :data:`REPO`, :data:`FIXTURE_MANIFEST`: the repository root and its fixture manifest.
* :func:`write_corpus`: write ``{relative path: raw bytes}`` plus a pinned
  ``manifest.json`` into a folder; return the manifest path.
* :class:`CorpusTestCase`: a ``unittest.TestCase`` whose :meth:`~CorpusTestCase.corpus`
  writes such a corpus into a temporary folder (removed after the test) and loads it.
* :func:`directive`: the exact directive line for a claim, as bytes.
* :func:`assert_span_invariants`: the span rule every claim must satisfy.
* :func:`fixture_bytes`: the pinned raw bytes of a fixture source, by source id.
* :func:`checked_gate`: ``conflict_gate.gate`` that also checks every returned claim's span.
"""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

import conflict_gate
from load_documents import Corpus, load_documents, source_digest

REPO = Path(__file__).resolve().parent.parent
FIXTURE_MANIFEST = REPO / "manifest.json"
_BOM = b"\xef\xbb\xbf"


def write_corpus(root: str | Path, files: Mapping[str, bytes],
                 versions: Mapping[str, str] | None = None,
                 urls: Mapping[str, str] | None = None) -> Path:
    """Write ``files`` under ``root`` and a pinned ``root/manifest.json``; return its path.

    ``files`` maps a manifest-relative POSIX path to the file's raw bytes; its
    order is the manifest order. The source id is the file name without its
    extension (``docs/a.md`` -> ``a``). ``versions`` and ``urls`` map source
    id to version (default ``"1.0"``) and URL (default
    ``https://docs.quill.example/<version>/<id>``). Pins are the SHA-256 of the
    bytes as written.
    """
    root = Path(root)
    versions = versions or {}
    urls = urls or {}
    documents = []
    for rel, raw in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
        sid = PurePosixPath(rel).stem
        version = versions.get(sid, "1.0")
        documents.append({"source_id": sid, "version": version, "path": rel,
                          "url": urls.get(sid, f"https://docs.quill.example/{version}/{sid}"),
                          "sha256": source_digest(raw)})
    manifest = root / "manifest.json"
    manifest.write_text(json.dumps({"documents": documents}, indent=2) + "\n", encoding="utf-8")
    return manifest


def directive(value: str, key: str = "existing_path", operation: str = "create_copy") -> bytes:
    """The exact directive line (no line ending) ``@quill <operation> <key>=<value>``."""
    return f"@quill {operation} {key}={value}".encode("ascii")


class CorpusTestCase(unittest.TestCase):
    """A TestCase that can build throw-away corpora."""

    def corpus(self, files: Mapping[str, bytes], versions: Mapping[str, str] | None = None,
               urls: Mapping[str, str] | None = None) -> tuple[Corpus, Path]:
        """Write ``files`` (see :func:`write_corpus`) to a temporary folder; return (corpus, manifest)."""
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-test-")
        self.addCleanup(tmp.cleanup)
        manifest = write_corpus(tmp.name, files, versions, urls)
        return load_documents(manifest), manifest


def assert_span_invariants(raw: bytes, claim: Any) -> None:
    """Assert the span rule for a claim dict (or a ``DirectiveLine``) against the source's raw bytes.

    ``text[start:end] == quote == raw[byte_start:byte_end].decode("utf-8")``
    where ``text`` is ``raw`` without a leading UTF-8 BOM, decoded; the quote
    holds no ``\\n`` and does not end with the ``\\r`` of a CRLF; and the line
    number is 1 + the number of ``\\n`` before ``start`` (only ``\\n`` ends a line).
    Raises ``AssertionError`` naming the claim on failure.
    """
    if isinstance(claim, Mapping):
        quote, start, end = claim["quote"], claim["start"], claim["end"]
        byte_start, byte_end = claim["byte_start"], claim["byte_end"]
        line = claim["start_line"]
        if claim["end_line"] != line:
            raise AssertionError(f"a directive spans one line: {claim!r}")
    else:  # load_documents.DirectiveLine
        quote, start, end = claim.text, claim.start, claim.end
        byte_start, byte_end, line = claim.byte_start, claim.byte_end, claim.line
    text = (raw[len(_BOM):] if raw.startswith(_BOM) else raw).decode("utf-8")
    checks = {
        "text[start:end] == quote": text[start:end] == quote,
        "raw[byte_start:byte_end].decode() == quote": raw[byte_start:byte_end].decode("utf-8") == quote,
        "no line break in quote": "\n" not in quote,
        "CRLF's \\r not in quote": not (quote.endswith("\r") and text[end:end + 1] == "\n"),
        "line ends at end": end == len(text) or text[end] == "\n" or text[end:end + 2] == "\r\n",
        "line starts at start": start == 0 or text[start - 1] == "\n",
        "line == 1 + count of \\n before start": line == text.count("\n", 0, start) + 1,
    }
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        raise AssertionError(f"span invariants {failed} fail for {claim!r}")


def fixture_bytes(source_id: str) -> bytes:
    """Raw bytes of a fixture source, found through the fixture manifest."""
    documents = json.loads(FIXTURE_MANIFEST.read_text(encoding="utf-8"))["documents"]
    path = next(d["path"] for d in documents if d["source_id"] == source_id)
    return (REPO / path).read_bytes()


def checked_gate(manifest: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Call ``conflict_gate.gate`` and assert the span invariants of every claim it returns.

    The raw bytes are read from disk next to the manifest (``Corpus.manifest_path``
    or the given path), so the files must not change between load and call.
    """
    result = conflict_gate.gate(manifest, *args, **kwargs)
    root = Path(manifest.manifest_path if isinstance(manifest, Corpus) else manifest).parent
    for claim in result["claims"]:
        assert_span_invariants((root / claim["path"]).read_bytes(), claim)
    return result
