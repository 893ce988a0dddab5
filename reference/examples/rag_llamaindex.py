"""conflict-gate in a LlamaIndex pipeline, offline: a keyword retriever over the lab's pages, the gate as a
node postprocessor, LlamaIndex's MockLLM as the model, then the answer check.

Run from a checkout (or with the package installed), with ``pip install '.[llamaindex]'``::

    python reference/examples/rag_llamaindex.py

No network, no API key. It exits 0 when the gate did what reference/rag.md says: the 2.0 page dropped and
the answer prepared for two agreeing 1.0 pages, everything withheld for two conflicting ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
try:
    import conflict_gate
except ImportError:  # run from a checkout, not installed
    sys.path.insert(0, str(ROOT))
    import conflict_gate
from llama_index.core import Settings, SimpleDirectoryReader, SimpleKeywordTableIndex
from llama_index.core.llms import ChatMessage, MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine

from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor

QUESTION = "What does create_copy do when the destination path already exists?"


def run(pages: list[str]) -> tuple[str, str | None]:
    """Retrieve over ``pages``, gate, ask the mock model; return (status, verdict or None)."""
    corpus = conflict_gate.load_documents(ROOT / "manifest.json", cache=False)
    documents = SimpleDirectoryReader(input_files=[ROOT / "docs" / page for page in pages]).load_data()
    index = SimpleKeywordTableIndex.from_documents(documents)  # keywords by regex: no model asked
    gate = ConflictGatePostprocessor.over(corpus, "1.0")
    engine = RetrieverQueryEngine.from_args(
        index.as_retriever(retriever_mode="simple"), node_postprocessors=[gate], llm=Settings.llm
    )
    response = engine.query(QUESTION)
    decision = gate.last_decision
    kept = sorted({Path(node.node.metadata["file_path"]).name for node in response.source_nodes})
    print(
        f"indexed: {', '.join(pages)}\n  retrieved pages: {', '.join(decision['candidate_ids'])} (other "
        f"versions set aside: {', '.join(decision['excluded_wrong_version_ids']) or 'none'})\n"
        f"  decision: {decision['status']} {decision['reason']}; chunks kept: {', '.join(kept) or 'none'}"
    )
    for conflict in decision["conflicts"]:
        for claim in conflict["claims"]:
            print(f"  conflict: {conflict['claim_key']}={claim['value']} at {claim['path']}:{claim['start_line']}")
    if decision["status"] != "ready":
        return decision["status"], None
    messages = [ChatMessage(role=m["role"], content=m["content"]) for m in decision["answer_request"]["messages"]]
    reply = Settings.llm.chat(messages).message.content or ""  # MockLLM echoes the prompt back
    echoed = conflict_gate.check_answer(corpus, decision, reply)["verdict"]
    canned = (ROOT / "docs" / "answers" / "supported.txt").read_bytes()  # what a faithful model writes
    verdict = conflict_gate.check_answer(corpus, decision, canned)["verdict"]
    print(f"  MockLLM's reply (its prompt, echoed): {echoed}; the lab's supported answer: {verdict}")
    return decision["status"], verdict


def main() -> int:
    Settings.llm = MockLLM()  # LlamaIndex's offline model: no key, no network
    ready = run(["quill-guide.md", "quill-reference.md", "quill-new-version.md"])
    withheld = run(["quill-guide.md", "quill-conflicting-guide.md"])
    ok = ready == ("ready", "supported") and withheld == ("conflict", None)
    print("OK" if ok else "UNEXPECTED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
