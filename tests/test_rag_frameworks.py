"""The RAG adapters (LlamaIndex, LangChain, Haystack) over the lab's pages, each skipped visibly where its
framework is not installed (the default suite has none; `.ci/run` step 20 installs each in a throwaway venv
and runs these with it, and reference/examples/)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import tempfile
import unittest
from typing import Any

import conflict_gate
from _conflict_gate.base.errors import GateError
from tests.support import FIXTURE_MANIFEST, REPO, write_corpus

HAVE_LLAMAINDEX = (
    importlib.util.find_spec("llama_index") is not None and importlib.util.find_spec("llama_index.core") is not None
)
HAVE_LANGCHAIN = importlib.util.find_spec("langchain_core") is not None
HAVE_HAYSTACK = importlib.util.find_spec("haystack") is not None
os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # no usage data sent from a test run

#: (page, path) of the lab: two agreeing 1.0 pages, a 2.0 page, a conflicting 1.0 page
PAGES = {
    name: str(REPO / "docs" / f"{name}.md")
    for name in ("quill-guide", "quill-reference", "quill-new-version", "quill-conflicting-guide")
}
QUESTION = "What does create_copy do when the destination exists?"


def corpus() -> Any:
    return conflict_gate.load_documents(FIXTURE_MANIFEST, cache=False)


def with_plain_page(test: unittest.TestCase) -> tuple[Any, dict[str, str]]:
    """A corpus of the lab's guide and a page declaring nothing (an install page), and their paths."""
    tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-test-")
    test.addCleanup(tmp.cleanup)
    guide = (REPO / "docs" / "quill-guide.md").read_bytes()
    manifest = write_corpus(tmp.name, {"docs/guide.md": guide, "docs/plain.md": b"# Install\n\nRun pip.\n"})
    paths = {name: str(manifest.parent / "docs" / f"{name}.md") for name in ("guide", "plain")}
    return conflict_gate.load_documents(manifest, cache=False), paths


@unittest.skipUnless(HAVE_LLAMAINDEX, "SKIPPED: llama-index-core is not installed (pip install '.[llamaindex]')")
class LlamaIndexTest(unittest.TestCase):
    def nodes(self, *names: str) -> list[Any]:
        from llama_index.core.schema import NodeWithScore, TextNode

        return [
            NodeWithScore(node=TextNode(text=name, metadata={"file_path": PAGES[name]}), score=1.0) for name in names
        ]

    def test_keeps_eligible_pages_when_ready(self) -> None:
        """Guards against another version's chunk reaching the model beside a ready decision's pages."""
        from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor

        gate = ConflictGatePostprocessor.over(corpus(), "1.0")
        kept = gate.postprocess_nodes(
            self.nodes("quill-guide", "quill-new-version", "quill-reference"), query_str=QUESTION
        )
        self.assertEqual([n.node.metadata["file_path"] for n in kept], [PAGES["quill-guide"], PAGES["quill-reference"]])
        self.assertEqual(gate.last_decision["status"], "ready")

    def test_withholds_on_conflict_with_the_decision_exposed(self) -> None:
        """Guards against a conflict smoothed over: no node, the conflict in last_decision."""
        from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor

        gate = ConflictGatePostprocessor.over(corpus(), "1.0")
        self.assertEqual(gate.postprocess_nodes(self.nodes("quill-guide", "quill-conflicting-guide")), [])
        self.assertEqual(gate.last_decision["status"], "conflict")
        with self.assertRaises(GateError):
            gate.postprocess_nodes([*self.nodes("quill-guide")[:1], *self._unknown()])

    def test_the_source_id_key_is_the_callers(self) -> None:
        """Guards against every node refused when the index's own `source_id` metadata is not a page id
        (the adapter read `source_id` always: only Haystack's took id_key); a renamed key is read instead."""
        from llama_index.core.schema import NodeWithScore, TextNode

        from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor

        foreign = [
            NodeWithScore(node=TextNode(text=n, metadata={"source_id": "doc-" + n, "file_path": PAGES[n]}), score=1.0)
            for n in ("quill-guide", "quill-reference")
        ]
        with self.assertRaises(GateError):
            ConflictGatePostprocessor.over(corpus(), "1.0").postprocess_nodes(foreign)
        gate = ConflictGatePostprocessor.over(corpus(), "1.0", id_key=None)
        self.assertEqual(len(gate.postprocess_nodes(foreign)), 2)
        by_page = [NodeWithScore(node=TextNode(text="x", metadata={"page": "quill-guide"}), score=1.0)]
        ConflictGatePostprocessor.over(corpus(), "1.0", id_key="page").postprocess_nodes(by_page)

    def test_pages_declaring_nothing_can_be_set_aside(self) -> None:
        """Guards against an install page's node withholding every answer when the application asked to set
        such pages aside (unrelated="set_aside" reaches gate_context; the page's nodes are dropped)."""
        from llama_index.core.schema import NodeWithScore, TextNode

        from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor

        loaded, paths = with_plain_page(self)
        nodes = [NodeWithScore(node=TextNode(text=n, metadata={"file_path": paths[n]}), score=1.0) for n in paths]
        self.assertEqual(ConflictGatePostprocessor.over(loaded, "1.0").postprocess_nodes(nodes), [])
        gate = ConflictGatePostprocessor.over(loaded, "1.0", unrelated="set_aside")
        self.assertEqual([n.node.text for n in gate.postprocess_nodes(nodes)], ["guide"])
        self.assertEqual(gate.last_decision["set_aside_unrelated_ids"], ["plain"])

    def _unknown(self) -> list[Any]:
        from llama_index.core.schema import NodeWithScore, TextNode

        return [NodeWithScore(node=TextNode(text="x", metadata={"file_path": "/elsewhere/page.md"}), score=1.0)]


@unittest.skipUnless(HAVE_LANGCHAIN, "SKIPPED: langchain-core is not installed (pip install '.[langchain]')")
class LangChainTest(unittest.TestCase):
    def documents(self, *names: str) -> list[Any]:
        from langchain_core.documents import Document

        return [Document(page_content=name, metadata={"source": f"docs/{name}.md"}) for name in names]

    def test_compressor_keeps_eligible_pages_when_ready(self) -> None:
        from _conflict_gate.rag.langchain import ConflictGateCompressor

        gate = ConflictGateCompressor.over(corpus(), "1.0")
        kept = gate.compress_documents(self.documents("quill-new-version", "quill-guide", "quill-reference"), QUESTION)
        self.assertEqual([d.page_content for d in kept], ["quill-guide", "quill-reference"])
        self.assertEqual(gate.last_decision["status"], "ready")

    def test_runnable_withholds_on_conflict_and_returns_the_decision(self) -> None:
        """Guards against a chain that drops the decision: it travels with the (empty) documents."""
        from _conflict_gate.rag.langchain import ConflictGateCompressor

        chain = ConflictGateCompressor.over(corpus(), "1.0").as_runnable()
        out = chain.invoke(
            {"documents": self.documents("quill-guide", "quill-conflicting-guide"), "question": QUESTION}
        )
        self.assertEqual(out["documents"], [])
        self.assertEqual(
            (out["decision"]["status"], out["decision"]["conflicts"][0]["claim_key"]), ("conflict", "existing_path")
        )

    def test_the_source_id_key_is_the_callers(self) -> None:
        """Guards against every document refused when the store's own `source_id` metadata is not a page id
        (the adapter read `source_id` always: only Haystack's took id_key); a renamed key is read instead."""
        from langchain_core.documents import Document

        from _conflict_gate.rag.langchain import ConflictGateCompressor

        foreign = [
            Document(page_content=n, metadata={"source_id": "doc-" + n, "source": f"docs/{n}.md"})
            for n in ("quill-guide", "quill-reference")
        ]
        with self.assertRaises(GateError):
            ConflictGateCompressor.over(corpus(), "1.0").compress_documents(foreign, QUESTION)
        gate = ConflictGateCompressor.over(corpus(), "1.0", id_key=None)
        self.assertEqual(len(gate.compress_documents(foreign, QUESTION)), 2)
        by_page = [Document(page_content="x", metadata={"page": "quill-guide"})]
        self.assertEqual(
            len(ConflictGateCompressor.over(corpus(), "1.0", id_key="page").compress_documents(by_page, QUESTION)), 1
        )

    def test_pages_declaring_nothing_can_be_set_aside(self) -> None:
        """Guards against unrelated="set_aside" not reaching gate_context from the compressor."""
        from langchain_core.documents import Document

        from _conflict_gate.rag.langchain import ConflictGateCompressor

        loaded, paths = with_plain_page(self)
        documents = [Document(page_content=n, metadata={"source": paths[n]}) for n in paths]
        gate = ConflictGateCompressor.over(loaded, "1.0", unrelated="set_aside")
        self.assertEqual([d.page_content for d in gate.compress_documents(documents, QUESTION)], ["guide"])


class MissingFrameworkTest(unittest.TestCase):
    def test_an_adapter_without_its_framework_names_the_extra(self) -> None:
        """Guards against a bare "No module named 'haystack'" for a user who has not installed the extra:
        the error names the pip command (the adapters' modules are imported only by whoever uses them)."""
        tried = 0
        for module, extra, present in (
            ("llamaindex", "llamaindex", HAVE_LLAMAINDEX),
            ("langchain", "langchain", HAVE_LANGCHAIN),
            ("haystack", "haystack", HAVE_HAYSTACK),
        ):
            if present:
                continue
            tried += 1
            with self.subTest(module), self.assertRaises(ModuleNotFoundError) as caught:
                importlib.import_module(f"_conflict_gate.rag.{module}")
            self.assertIn(f"pip install 'conflict-gate[{extra}]'", str(caught.exception))
        if not tried:
            self.skipTest("SKIPPED: every framework is installed, so no adapter can be missing one")


@unittest.skipUnless(HAVE_HAYSTACK, "SKIPPED: haystack-ai is not installed (pip install '.[haystack]')")
class HaystackTest(unittest.TestCase):
    def documents(self, *names: str) -> list[Any]:
        from haystack import Document

        return [Document(content=f"{name}\n\nsecond passage", meta={"file_path": PAGES[name]}) for name in names]

    def test_component_keeps_eligible_pages_when_ready(self) -> None:
        from _conflict_gate.rag.haystack import ConflictGate

        out = ConflictGate(corpus(), "1.0").run(
            self.documents("quill-guide", "quill-new-version", "quill-reference"), query=QUESTION
        )
        self.assertEqual(
            [d.meta["file_path"] for d in out["documents"]], [PAGES["quill-guide"], PAGES["quill-reference"]]
        )
        self.assertEqual(out["decision"]["status"], "ready")

    def test_the_splitters_own_source_id_is_not_read_as_a_page(self) -> None:
        """Guards against every split document refused: DocumentSplitter writes meta["source_id"], the id of
        the document it split (a hash), which no manifest lists."""
        from haystack.components.preprocessors import DocumentSplitter

        from _conflict_gate.rag.haystack import ConflictGate

        split = DocumentSplitter(split_by="passage", split_length=1).run(self.documents("quill-guide"))["documents"]
        self.assertTrue(split and all("source_id" in d.meta for d in split))
        out = ConflictGate(corpus(), "1.0").run(split)
        self.assertEqual((out["decision"]["status"], len(out["documents"])), ("ready", len(split)))

    def test_pages_declaring_nothing_can_be_set_aside(self) -> None:
        """Guards against unrelated="set_aside" not reaching gate_context from the component."""
        from haystack import Document

        from _conflict_gate.rag.haystack import ConflictGate

        loaded, paths = with_plain_page(self)
        documents = [Document(content=n, meta={"file_path": paths[n]}) for n in paths]
        out = ConflictGate(loaded, "1.0", unrelated="set_aside").run(documents)
        self.assertEqual(([d.content for d in out["documents"]], out["decision"]["status"]), (["guide"], "ready"))

    def test_component_withholds_on_conflict_in_a_pipeline(self) -> None:
        from haystack import Pipeline

        from _conflict_gate.rag.haystack import ConflictGate

        pipeline = Pipeline()
        pipeline.add_component("gate", ConflictGate(corpus(), "1.0"))
        out = pipeline.run({"gate": {"documents": self.documents("quill-guide", "quill-conflicting-guide")}})
        self.assertEqual(out["gate"]["documents"], [])
        self.assertEqual(out["gate"]["decision"]["reason"], "same_version_directives_disagree")


if __name__ == "__main__":
    unittest.main()
