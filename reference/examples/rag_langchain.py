"""conflict-gate in a LangChain chain, offline: a BM25 keyword retriever over the lab's pages (paragraph
chunks), the gate as a runnable, LangChain's FakeListChatModel as the model, then the answer check.

Run from a checkout (or with the package installed), with ``pip install '.[langchain]'``::

    python reference/examples/rag_langchain.py

No network, no API key. It exits 0 when the gate did what reference/rag.md says: the 2.0 page's chunks
dropped and the answer prepared for two agreeing 1.0 pages, everything withheld for two conflicting ones.
"""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
try:
    import conflict_gate
except ImportError:  # run from a checkout, not installed
    sys.path.insert(0, str(ROOT))
    import conflict_gate
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough

from _conflict_gate.rag.langchain import ConflictGateCompressor

QUESTION = "What does create_copy do when the destination path already exists?"
WORD = re.compile(r"[a-z0-9_]+")


class BM25Retriever(BaseRetriever):
    """Okapi BM25 (k1 1.5, b 0.75) over the documents given: the ``k`` best that share a word with the query."""

    documents: list[Document]
    k: int = 8

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        bags = [Counter(WORD.findall(d.page_content.lower())) for d in self.documents]
        average = sum(sum(b.values()) for b in bags) / max(1, len(bags))
        terms = set(WORD.findall(query.lower()))
        scores = []
        for at, bag in enumerate(bags):
            score = 0.0
            for term in terms & bag.keys():
                having = sum(term in b for b in bags)
                idf = math.log(1 + (len(bags) - having + 0.5) / (having + 0.5))
                tf = bag[term]
                score += idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * sum(bag.values()) / average))
            if score > 0:
                scores.append((-score, at))
        return [self.documents[at] for _, at in sorted(scores)[: self.k]]


def chunks(pages: list[str]) -> list[Document]:
    """Each page's paragraphs as documents; ``source`` is the path as LangChain's loaders write it."""
    out = []
    for page in pages:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        out += [
            Document(page_content=part, metadata={"source": f"docs/{page}"})
            for part in text.split("\n\n")
            if part.strip()
        ]
    return out


def run(pages: list[str], model: FakeListChatModel) -> tuple[str, str | None]:
    """Retrieve over ``pages``, gate, ask the fake model; return (status, verdict or None)."""
    corpus = conflict_gate.load_documents(ROOT / "manifest.json", cache=False)
    gate = ConflictGateCompressor.over(corpus, "1.0")

    def ask(gated: dict[str, Any]) -> dict[str, Any]:
        decision = gated["decision"]
        if decision["status"] != "ready":  # withheld: the model is not asked
            return {**gated, "answer": None}
        messages = [(m["role"], m["content"]) for m in decision["answer_request"]["messages"]]
        return {**gated, "answer": model.invoke(messages).content}

    chain = (
        RunnableParallel(documents=BM25Retriever(documents=chunks(pages)), question=RunnablePassthrough())
        | gate.as_runnable()
        | RunnableLambda(ask)
    )
    out = chain.invoke(QUESTION)
    decision = out["decision"]
    kept = sorted({d.metadata["source"] for d in out["documents"]})
    print(
        f"indexed: {', '.join(pages)}\n  retrieved pages: {', '.join(decision['candidate_ids'])} (other "
        f"versions set aside: {', '.join(decision['excluded_wrong_version_ids']) or 'none'})\n"
        f"  decision: {decision['status']} {decision['reason']}; chunks kept: {len(out['documents'])} from "
        f"{', '.join(kept) or 'no page'}"
    )
    for conflict in decision["conflicts"]:
        for claim in conflict["claims"]:
            print(f"  conflict: {conflict['claim_key']}={claim['value']} at {claim['path']}:{claim['start_line']}")
    if out["answer"] is None:
        return decision["status"], None
    verdict = conflict_gate.check_answer(corpus, decision, out["answer"])["verdict"]
    print(f"  FakeListChatModel's answer: {verdict}")
    return decision["status"], verdict


def main() -> int:
    canned = (ROOT / "docs" / "answers" / "supported.txt").read_text(encoding="utf-8")
    model = FakeListChatModel(responses=[canned])  # LangChain's offline model: no key, no network
    ready = run(["quill-guide.md", "quill-reference.md", "quill-new-version.md"], model)
    withheld = run(["quill-guide.md", "quill-conflicting-guide.md"], model)
    ok = ready == ("ready", "supported") and withheld == ("conflict", None)
    print("OK" if ok else "UNEXPECTED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
