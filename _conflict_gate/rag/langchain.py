"""The gate as a LangChain document compressor and runnable: retrieved documents kept only from the eligible pages of a ready decision (the ``[langchain]`` extra).

Imported only by whoever uses it (``import conflict_gate`` never imports
LangChain)::

    from _conflict_gate.rag.langchain import ConflictGateCompressor
    gate = ConflictGateCompressor.over(corpus, "1.0")
    kept = gate.compress_documents(retriever.invoke(question), question)
    chain = gate.as_runnable()   # {"documents": [...], "question": str} -> {"documents", "decision"}

A document's page comes from its metadata (``source``, as LangChain's loaders
write it, ``file_path`` or ``source_id``: :func:`~_conflict_gate.corpus.chunks.chunk_source`).
On anything but ``ready`` no document is returned (the answer is withheld);
the runnable returns the decision beside the documents, the compressor keeps
it in ``last_decision``. Requires langchain-core (the version the extra pins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

try:
    from langchain_core.callbacks import Callbacks
    from langchain_core.documents import BaseDocumentCompressor, Document
    from langchain_core.runnables import RunnableLambda
    from pydantic import PrivateAttr
except ModuleNotFoundError as missing:  # say which extra brings it
    raise ModuleNotFoundError(
        f"{__name__} needs langchain-core: pip install 'conflict-gate[langchain]' ({missing})", name=missing.name
    ) from missing

from ..base.registry import DEFAULT_UNRELATED
from ..corpus.load import Corpus
from ..decide.context import DEFAULT_CONTEXT_CHARS
from .filter import filter_chunks, question_of

__all__ = ["ConflictGateCompressor"]


class ConflictGateCompressor(BaseDocumentCompressor):
    """A LangChain document compressor that gates retrieved documents with
    :func:`~_conflict_gate.decide.context.gate_context`: the documents of the eligible pages when the decision
    is ``ready``, none otherwise. ``last_decision`` is the decision of the latest call (``None`` before
    the first); one instance is not meant to be shared between threads (the runnable returns the
    decision instead). Raises :class:`~_conflict_gate.base.errors.GateError` for a document whose page the
    manifest does not list."""

    version: str
    max_context_chars: int = DEFAULT_CONTEXT_CHARS
    id_key: str | None = "source_id"
    unrelated: str = DEFAULT_UNRELATED
    _corpus: Any = PrivateAttr(default=None)
    _last: Any = PrivateAttr(default=None)

    @classmethod
    def over(
        cls,
        corpus: Corpus,
        version: str,
        *,
        max_context_chars: int = DEFAULT_CONTEXT_CHARS,
        id_key: str | None = "source_id",
        unrelated: str = DEFAULT_UNRELATED,
    ) -> ConflictGateCompressor:
        """A compressor gating against ``corpus`` (a loaded :class:`~_conflict_gate.corpus.load.Corpus`) at
        ``version``. ``id_key``: the metadata key of a page's source id (``None``: read none, only the
        file path), as :func:`~_conflict_gate.corpus.chunks.chunk_source` takes it; ``unrelated``, as
        :func:`~_conflict_gate.decide.context.gate_context` takes it (``"set_aside"``: chunks of pages that
        declare nothing are dropped instead of withholding the answer)."""
        made = cls(version=version, max_context_chars=max_context_chars, id_key=id_key, unrelated=unrelated)
        made._corpus = corpus
        return made

    @property
    def last_decision(self) -> Any:
        """The context decision of the latest call, or ``None``."""
        return self._last

    def gate(self, documents: Sequence[Document], query: str | None) -> tuple[list[Document], Any]:
        """The documents kept and the context decision."""
        if self._corpus is None:
            raise ValueError("build the compressor with ConflictGateCompressor.over(corpus, version)")
        result = filter_chunks(
            self._corpus,
            self.version,
            [dict(d.metadata) for d in documents],
            question=question_of(query),
            max_context_chars=self.max_context_chars,
            id_key=self.id_key,
            unrelated=self.unrelated,
        )
        self._last = result.decision
        return [documents[at] for at in result.kept], result.decision

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        """The documents of the eligible pages when ready, else ``[]`` (``last_decision`` says why)."""
        return self.gate(documents, query)[0]

    def as_runnable(self) -> Any:
        """A ``RunnableLambda`` from ``{"documents": [...], "question": str}`` to ``{"documents": kept,
        "decision": the context decision}``: the decision travels down the chain."""

        def run(given: Mapping[str, Any]) -> dict[str, Any]:
            kept, decision = self.gate(given["documents"], given.get("question"))
            return {"documents": kept, "decision": decision}

        return RunnableLambda(run, name="conflict_gate")
