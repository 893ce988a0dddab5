"""The loading step of the flow, under the name the lab uses: manifest -> verified corpus.

This file only re-exports a subset of :mod:`conflict_gate` (the public API),
for the lab and readers who look for the loader by this name; installed,
import them from ``conflict_gate``.
"""

from __future__ import annotations

from conflict_gate import (
    Corpus,
    Entry,
    IngestionError,
    LocatedError,
    Manifest,
    Source,
    load_documents,
    read_manifest,
    source_digest,
)

__all__ = [
    "Corpus",
    "Entry",
    "IngestionError",
    "LocatedError",
    "Manifest",
    "Source",
    "load_documents",
    "read_manifest",
    "source_digest",
]
