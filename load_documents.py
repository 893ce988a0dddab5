"""The loading step of the flow, under the name the lab uses: manifest -> verified corpus.

This file only re-exports; the code lives in ``_conflict_gate/manifest.py``
(the manifest and its checks) and ``_conflict_gate/corpus.py`` (reading and
verifying every source). Installed, import these names from ``conflict_gate``.
"""

from __future__ import annotations

from _conflict_gate.corpus import Corpus, Source, SourceFiles, line_ending_hint, load_documents, source_digest
from _conflict_gate.errors import IngestionError, LocatedError
from _conflict_gate.manifest import Entry, Manifest, check_relative_path, read_manifest

__all__ = [
    "Corpus",
    "Entry",
    "IngestionError",
    "LocatedError",
    "Manifest",
    "Source",
    "SourceFiles",
    "check_relative_path",
    "line_ending_hint",
    "load_documents",
    "read_manifest",
    "source_digest",
]
