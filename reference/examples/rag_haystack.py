"""conflict-gate in a Haystack pipeline, offline: an in-memory BM25 retriever over the lab's pages (passage
chunks), the gate as a component, a canned generator as the model, then the answer check.

Run from a checkout (or with the package installed), with ``pip install '.[haystack]'``::

    python reference/examples/rag_haystack.py

No network, no API key. Haystack ships no fake generator, so the model here is a five-line component that
returns a canned reply (docs/answers/supported.txt). It exits 0 when the gate did what reference/rag.md
says: the 2.0 page's chunks dropped and the answer prepared for two agreeing 1.0 pages, everything
withheld for two conflicting ones.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
try:
    import conflict_gate
except ImportError:  # run from a checkout, not installed
    sys.path.insert(0, str(ROOT))
    import conflict_gate
from _conflict_gate.rag.haystack import ConflictGate

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # Haystack sends usage data otherwise: no network

from haystack import Pipeline, component
from haystack.components.converters import TextFileToDocument
from haystack.components.preprocessors import DocumentSplitter
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.document_stores.in_memory import InMemoryDocumentStore

QUESTION = "What does create_copy do when the destination path already exists?"
CANNED = (ROOT / "docs" / "answers" / "supported.txt").read_text(encoding="utf-8")


@component
class CannedGenerator:
    """A generator that asks no model: it answers the gate's answer request with a canned reply, and
    nothing at all when the gate withheld the answer."""

    @component.output_types(replies=list[str])
    def run(self, decision: dict[str, Any]) -> dict[str, Any]:
        return {"replies": [CANNED] if decision["answer_request"] is not None else []}


def run(pages: list[str]) -> tuple[str, str | None]:
    """Index ``pages``, retrieve, gate, generate; return (status, verdict or None)."""
    corpus = conflict_gate.load_documents(ROOT / "manifest.json", cache=False)
    store = InMemoryDocumentStore()
    # store_full_path: the file's path in meta["file_path"] (by default only its name, which names no page)
    indexing = Pipeline()
    indexing.add_component("convert", TextFileToDocument(store_full_path=True))
    indexing.add_component("split", DocumentSplitter(split_by="passage", split_length=1))
    indexing.connect("convert.documents", "split.documents")
    split = indexing.run({"convert": {"sources": [ROOT / "docs" / page for page in pages]}})["split"]["documents"]
    store.write_documents(split)

    rag = Pipeline()
    rag.add_component("retrieve", InMemoryBM25Retriever(document_store=store, top_k=8))
    rag.add_component("gate", ConflictGate(corpus, "1.0"))
    rag.add_component("generate", CannedGenerator())
    rag.connect("retrieve.documents", "gate.documents")
    rag.connect("gate.decision", "generate.decision")
    out = rag.run({"retrieve": {"query": QUESTION}, "gate": {"query": QUESTION}}, include_outputs_from={"gate"})
    decision, kept = out["gate"]["decision"], out["gate"]["documents"]
    names = sorted({Path(d.meta["file_path"]).name for d in kept})
    print(
        f"indexed: {', '.join(pages)}\n  retrieved pages: {', '.join(decision['candidate_ids'])} (other "
        f"versions set aside: {', '.join(decision['excluded_wrong_version_ids']) or 'none'})\n"
        f"  decision: {decision['status']} {decision['reason']}; chunks kept: {len(kept)} from "
        f"{', '.join(names) or 'no page'}"
    )
    for conflict in decision["conflicts"]:
        for claim in conflict["claims"]:
            print(f"  conflict: {conflict['claim_key']}={claim['value']} at {claim['path']}:{claim['start_line']}")
    replies = out["generate"]["replies"]
    if not replies:
        return decision["status"], None
    verdict = conflict_gate.check_answer(corpus, decision, replies[0])["verdict"]
    print(f"  the canned generator's answer: {verdict}")
    return decision["status"], verdict


def main() -> int:
    ready = run(["quill-guide.md", "quill-reference.md", "quill-new-version.md"])
    withheld = run(["quill-guide.md", "quill-conflicting-guide.md"])
    ok = ready == ("ready", "supported") and withheld == ("conflict", None)
    print("OK" if ok else "UNEXPECTED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
