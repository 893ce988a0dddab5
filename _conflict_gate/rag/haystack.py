"""The gate as a Haystack 2 component: retrieved documents kept only from the eligible pages of a ready decision (the ``[haystack]`` extra).

Imported only by whoever uses it (``import conflict_gate`` never imports
Haystack)::

    from _conflict_gate.rag.haystack import ConflictGate
    pipeline.add_component("gate", ConflictGate(corpus, "1.0"))
    pipeline.connect("retriever.documents", "gate.documents")
    pipeline.connect("gate.documents", "prompt_builder.documents")

A document's page comes from its ``meta`` (``file_path``, as Haystack's
converters write it with ``store_full_path=True``, or ``source``:
:func:`~_conflict_gate.corpus.chunks.chunk_source`). No source-id key is read unless
``id_key`` names one: Haystack's ``DocumentSplitter`` writes ``source_id`` for
the id of the document it split, which is no page's id.
The component's outputs are ``documents`` (none unless ``ready``: the answer is
withheld) and ``decision``, the context decision. Requires haystack-ai (the
version the extra pins).
"""

from __future__ import annotations

from typing import Any

try:
    from haystack import Document, component
except ModuleNotFoundError as missing:  # say which extra brings it
    raise ModuleNotFoundError(
        f"{__name__} needs haystack-ai: pip install 'conflict-gate[haystack]' ({missing})", name=missing.name
    ) from missing

from ..base.registry import DEFAULT_UNRELATED
from ..corpus.load import Corpus
from ..decide.context import DEFAULT_CONTEXT_CHARS
from .filter import filter_chunks, question_of

__all__ = ["ConflictGate"]


@component
class ConflictGate:
    """A Haystack component that gates retrieved documents with
    :func:`~_conflict_gate.decide.context.gate_context`: outputs ``documents`` (those of the eligible pages when
    the decision is ``ready``, else none) and ``decision``. Raises
    :class:`~_conflict_gate.base.errors.GateError` for a document whose page the manifest does not list.
    Not serialisable (it holds a loaded corpus): build it in code."""

    def __init__(
        self,
        corpus: Corpus,
        version: str,
        *,
        max_context_chars: int = DEFAULT_CONTEXT_CHARS,
        id_key: str | None = None,
        unrelated: str = DEFAULT_UNRELATED,
    ) -> None:
        self.corpus = corpus
        self.version = version
        self.max_context_chars = max_context_chars
        self.id_key = id_key
        self.unrelated = unrelated

    @component.output_types(documents=list[Document], decision=dict[str, Any])
    def run(self, documents: list[Document], query: str | None = None) -> dict[str, Any]:
        """Gate ``documents`` (retrieval order); ``query`` is the decision's question."""
        result = filter_chunks(
            self.corpus,
            self.version,
            [dict(d.meta) for d in documents],
            question=question_of(query),
            max_context_chars=self.max_context_chars,
            id_key=self.id_key,
            unrelated=self.unrelated,
        )
        return {"documents": [documents[at] for at in result.kept], "decision": dict(result.decision)}
