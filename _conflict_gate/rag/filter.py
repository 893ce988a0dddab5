"""Retrieved chunks -> the chunks a model may see, and the context decision (what every framework adapter shares; no framework needed).

:func:`filter_chunks` ties each chunk to its manifest entry
(:func:`~_conflict_gate.corpus.chunks.chunk_source`), asks
:func:`~_conflict_gate.decide.context.gate_context` about the pages they come from
(in retrieval order), and keeps the chunks of the eligible pages only when
the decision is ``ready``: on a conflict, ``not_in_docs`` or a refusal no chunk
is kept (the answer is withheld) and the decision says why. The adapters
(``rag_llamaindex``, ``rag_langchain``, ``rag_haystack``) are thin wrappers
over it, each imported only by whoever uses it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..base.registry import DEFAULT_UNRELATED
from ..corpus.chunks import chunk_source
from ..corpus.load import Corpus
from ..decide.context import DEFAULT_CONTEXT_CHARS, gate_context
from ..results.context import ContextDecision

__all__ = ["ChunkFilter", "filter_chunks", "question_of"]


class ChunkFilter(NamedTuple):
    """What :func:`filter_chunks` returns: the context decision, and the positions (into the chunks
    given) of the chunks kept, in their order; ``kept`` is empty unless the decision is ``ready``."""

    decision: ContextDecision
    kept: tuple[int, ...]

    @property
    def withheld(self) -> bool:
        """Is the answer withheld (the decision not ``ready``: no chunk may reach a model)?"""
        return self.decision["status"] != "ready"


def question_of(query: object) -> str | None:
    """A framework's query as the decision's question: the text when it is a non-empty string, else
    ``None`` (no question). The question is checked by the gate (``invalid_question``)."""
    return query if isinstance(query, str) and query.strip() else None


def filter_chunks(
    corpus: Corpus,
    version: str,
    metadatas: Sequence[Mapping[str, Any] | str | os.PathLike[str]],
    *,
    question: str | None = None,
    max_context_chars: int = DEFAULT_CONTEXT_CHARS,
    id_key: str | None = "source_id",
    unrelated: str = DEFAULT_UNRELATED,
) -> ChunkFilter:
    """Gate retrieved chunks: one metadata mapping (or file path) per chunk, in retrieval order.

    ``unrelated``: as :func:`~_conflict_gate.decide.context.gate_context` takes it (``"set_aside"``: the chunks
    of pages that declare nothing are dropped, not withholding the answer). ``id_key``: the metadata key of a source id (:func:`~_conflict_gate.corpus.chunks.chunk_source`). The candidate ids are the distinct sources of the chunks, first retrieved first. Raises
    :class:`~_conflict_gate.base.errors.GateError` ``unknown_candidate`` for a chunk tied to no manifest entry
    (fail closed: never dropped silently), and whatever :func:`~_conflict_gate.decide.context.gate_context`
    raises. No chunk at all gives ``not_in_docs`` (``no_eligible_version``), as ``gate_context`` gives it
    for no candidates.
    """
    sources = [chunk_source(corpus, metadata, id_key=id_key).source_id for metadata in metadatas]
    candidates = list(dict.fromkeys(sources))
    decision = gate_context(
        corpus, candidates, version, question=question, max_context_chars=max_context_chars, unrelated=unrelated
    )
    if decision["status"] != "ready":
        return ChunkFilter(decision, ())
    eligible = set(decision["eligible_source_ids"]) - set(decision.get("set_aside_unrelated_ids", ()))
    return ChunkFilter(decision, tuple(at for at, sid in enumerate(sources) if sid in eligible))
