"""The gate as a LlamaIndex node postprocessor: retrieved nodes kept only from the eligible pages of a ready decision (the ``[llamaindex]`` extra).

Imported only by whoever uses it (``import conflict_gate`` never imports
LlamaIndex)::

    from _conflict_gate.rag.llamaindex import ConflictGatePostprocessor
    gate = ConflictGatePostprocessor.over(corpus, "1.0")
    engine = index.as_query_engine(node_postprocessors=[gate])

A node's page comes from its metadata (``file_path``, as ``SimpleDirectoryReader``
writes it, ``source`` or ``source_id``: :func:`~_conflict_gate.corpus.chunks.chunk_source`);
the query is the decision's question. On anything but ``ready`` no node is
returned (the answer is withheld) and :attr:`ConflictGatePostprocessor.last_decision`
holds the decision, so the application can show the conflict. Requires
llama-index-core (tested with the version the extra pins).
"""

from __future__ import annotations

from typing import Any

try:
    from llama_index.core.bridge.pydantic import PrivateAttr
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.schema import NodeWithScore, QueryBundle
except ModuleNotFoundError as missing:  # say which extra brings it
    raise ModuleNotFoundError(
        f"{__name__} needs llama-index-core: pip install 'conflict-gate[llamaindex]' ({missing})", name=missing.name
    ) from missing

from ..base.registry import DEFAULT_UNRELATED
from ..corpus.load import Corpus
from ..decide.context import DEFAULT_CONTEXT_CHARS
from .filter import filter_chunks, question_of

__all__ = ["ConflictGatePostprocessor"]


class ConflictGatePostprocessor(BaseNodePostprocessor):
    """A LlamaIndex node postprocessor that gates retrieved nodes with
    :func:`~_conflict_gate.decide.context.gate_context`: the nodes of the eligible pages when the decision is
    ``ready``, none otherwise. ``last_decision`` is the decision of the latest call (``None`` before
    the first); one instance is not meant to be shared between threads. Raises
    :class:`~_conflict_gate.base.errors.GateError` for a node whose page the manifest does not list."""

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
    ) -> ConflictGatePostprocessor:
        """A postprocessor gating against ``corpus`` (a loaded :class:`~_conflict_gate.corpus.load.Corpus`)
        at ``version``. ``id_key``: the metadata key of a page's source id (``None``: read none, only the
        file path), as :func:`~_conflict_gate.corpus.chunks.chunk_source` takes it; ``unrelated``, as
        :func:`~_conflict_gate.decide.context.gate_context` takes it (``"set_aside"``: chunks of pages that
        declare nothing are dropped instead of withholding the answer)."""
        made = cls(version=version, max_context_chars=max_context_chars, id_key=id_key, unrelated=unrelated)
        made._corpus = corpus
        return made

    @classmethod
    def class_name(cls) -> str:
        return "ConflictGatePostprocessor"

    @property
    def last_decision(self) -> Any:
        """The context decision of the latest call, or ``None``."""
        return self._last

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        if self._corpus is None:
            raise ValueError("build the postprocessor with ConflictGatePostprocessor.over(corpus, version)")
        query = question_of(query_bundle.query_str if query_bundle is not None else None)
        result = filter_chunks(
            self._corpus,
            self.version,
            [dict(n.node.metadata) for n in nodes],
            question=query,
            max_context_chars=self.max_context_chars,
            id_key=self.id_key,
            unrelated=self.unrelated,
        )
        self._last = result.decision
        return [nodes[at] for at in result.kept]
