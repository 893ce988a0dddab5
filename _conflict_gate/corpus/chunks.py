"""Retrieved chunks -> manifest sources: which page a RAG framework's chunk came from (no file is read).

A retriever's chunk carries where it came from in its metadata: LlamaIndex's
``file_path``, LangChain's and Haystack's ``source`` or ``file_path``, or a
``source_id`` key an application sets itself. :func:`chunk_source` finds the
manifest entry it names, and refuses (``GateError`` ``unknown_candidate``)
any chunk it cannot tie to exactly one entry: a chunk whose page the manifest
does not list is never let through. The rules are in ``reference/rag.md``.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping
from typing import Any, Final

from ..base.errors import GateError, printable
from ..manifest.read import Entry, Manifest
from .load import Corpus

__all__ = ["METADATA_PATH_KEYS", "SourceLookup", "chunk_source"]

#: The metadata keys read for a chunk's file path or URL, in this order (the first present is used);
#: ``source_id`` is read before them.
METADATA_PATH_KEYS: Final = ("file_path", "source", "file_name_path")


class SourceLookup:
    """The manifest's entries by source id, by path (relative to the manifest's folder, and absolute)
    and by URL: built once per manifest, then one dictionary look-up per chunk.

    A path is matched after normalising it (``os.path.normpath``, and ``/`` for the platform's
    separator); an absolute path must lie in the manifest's folder (as given or with symlinks
    resolved). A relative path is read first as the manifest writes paths (relative to its folder),
    then relative to the current directory; when the two readings name different entries the chunk is
    refused as ambiguous. Nothing is read from disk but the current directory and, for an absolute
    path outside the manifest's folder as written, its resolved form.
    """

    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        self.by_id: dict[str, Entry] = {entry.source_id: entry for entry in manifest.entries}
        self.by_path: dict[str, Entry] = {entry.path: entry for entry in manifest.entries}
        self.by_url: dict[str, Entry] = {entry.url: entry for entry in manifest.entries if entry.url}
        folder = os.path.dirname(os.path.abspath(manifest.path))
        self.folders = tuple(dict.fromkeys([folder, manifest.root]))

    def _relative(self, absolute: str) -> Entry | None:
        """The entry at ``absolute`` (normalised), if it lies in the manifest's folder."""
        for folder in self.folders:
            inside = os.path.relpath(absolute, folder) if _under(absolute, folder) else None
            if inside is not None:
                found = self.by_path.get(inside.replace(os.sep, "/"))
                if found is not None:
                    return found
        real = os.path.realpath(absolute)
        if real != absolute:
            for folder in self.folders:
                if _under(real, folder):
                    found = self.by_path.get(os.path.relpath(real, folder).replace(os.sep, "/"))
                    if found is not None:
                        return found
        return None

    def by_file(self, path: str) -> Entry | None:
        """The entry a chunk's file path names, or ``None``; raises :class:`GateError`
        (``unknown_candidate``) when a path names two different entries.

        A ``file://`` URI (``file://localhost/`` read as ``file:///``) is read as written after the scheme
        and percent-decoded (``Path.as_uri()`` writes a space as ``%20``); the two readings naming
        different entries is ambiguous."""
        if path.startswith("file://"):
            rest = path[len("file://") :]
            if rest.startswith("localhost/"):
                rest = rest[len("localhost") :]
            readings = [rest]
            try:
                decoded = urllib.parse.unquote(rest, errors="strict")
            except UnicodeDecodeError:  # not UTF-8 once decoded: names no entry
                decoded = rest
            if decoded != rest and "\x00" not in decoded:
                readings.append(decoded)
            found = [entry for entry in map(self._by_plain_path, readings) if entry is not None]
            if len({id(entry) for entry in found}) > 1:
                raise GateError(
                    "unknown_candidate",
                    f"the chunk's URI {printable(repr(path))[:200]} names {found[0].source_id!r} as written "
                    f"and {found[1].source_id!r} percent-decoded: give a path or a source_id",
                )
            return found[0] if found else None
        return self._by_plain_path(path)

    def _by_plain_path(self, path: str) -> Entry | None:
        """:meth:`by_file` for a path that is not a URI."""
        if os.path.isabs(path):
            return self._relative(os.path.normpath(path))
        as_written = self.by_path.get(os.path.normpath(path).replace(os.sep, "/"))
        from_here = self._relative(os.path.abspath(path))
        if as_written is not None and from_here is not None and as_written is not from_here:
            raise GateError(
                "unknown_candidate",
                f"the chunk's path {printable(repr(path))} names "
                f"{as_written.source_id!r} (from the manifest's folder) and {from_here.source_id!r} "
                "(from the current directory): give an absolute path or a source_id",
            )
        return as_written or from_here

    def lookup(self, metadata: Mapping[str, Any] | str | os.PathLike[str], id_key: str | None = "source_id") -> Entry:
        """The manifest entry of one chunk, from its metadata (a mapping) or its file path (a string or
        ``os.PathLike``; so is a path value in the metadata).

        ``id_key`` (``source_id`` unless the caller names another key, or ``None`` for none) is read
        first, then the first of :data:`METADATA_PATH_KEYS` present (a file path,
        relative or absolute, or the entry's URL exactly). When both a ``source_id`` and a path are given
        they must name the same entry. Raises :class:`GateError` ``unknown_candidate`` when neither is
        there, a value is not a non-empty string, or it names no entry (or two)."""
        if isinstance(metadata, (str, os.PathLike)):
            metadata = {"file_path": metadata}
        if not isinstance(metadata, Mapping):
            raise GateError("unknown_candidate", f"a chunk's metadata is {type(metadata).__name__}, not a mapping")
        by_id: Entry | None = None
        if id_key is not None and id_key in metadata:
            sid = metadata[id_key]
            if not isinstance(sid, str) or sid not in self.by_id:
                raise GateError(
                    "unknown_candidate",
                    f"the chunk's {printable(id_key)[:100]} "
                    f"{printable(repr(sid))[:200]} is not a source id of the manifest",
                )
            by_id = self.by_id[sid]
        key = next((k for k in METADATA_PATH_KEYS if k in metadata), None)
        if key is None:
            if by_id is None:
                raise GateError(
                    "unknown_candidate",
                    f"the chunk names no source: no {id_key or 'source id key'} "
                    "and none of " + ", ".join(METADATA_PATH_KEYS) + " in its metadata",
                )
            return by_id
        value = metadata[key]
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if not isinstance(value, str) or not value or "\x00" in value:
            raise GateError("unknown_candidate", f"the chunk's {key} {printable(repr(value))[:200]} is not a path")
        found = self.by_url.get(value) or self.by_file(value)
        if found is None:
            raise GateError(
                "unknown_candidate",
                f"the chunk's {key} {printable(repr(value))[:200]} is no page "
                f"of the manifest {printable(self.manifest.path)}" + self._file_name_hint(value),
            )
        if by_id is not None and by_id is not found:
            raise GateError(
                "unknown_candidate",
                f"the chunk's source_id {by_id.source_id!r} and its {key} ({found.source_id!r}) name different pages",
                source_id=by_id.source_id,
            )
        return found

    def _file_name_hint(self, value: str) -> str:
        """For a file name alone that some entries' paths end with: which, and what to give instead."""
        if "/" in value or os.sep in value:
            return ""
        paths = sorted(path for path in self.by_path if path.rpartition("/")[2] == value)
        if not paths:
            return ""
        return (
            f" (a file name alone; the manifest has {', '.join(printable(p) for p in paths[:3])}"
            + (", ..." if len(paths) > 3 else "")
            + ": give the path from the manifest's folder or an absolute one, e.g. Haystack's converters "
            "with store_full_path=True)"
        )


def _under(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def chunk_source(
    corpus: Corpus,
    metadata: Mapping[str, Any] | str | os.PathLike[str],
    *,
    id_key: str | None = "source_id",
) -> Entry:
    """The manifest entry a retrieved chunk comes from: :meth:`SourceLookup.lookup` over ``corpus``'s
    manifest (the look-up tables built once per corpus and kept in its memo).

    ``id_key``: the metadata key holding a source id the application set (``None``: read none; Haystack's
    ``DocumentSplitter`` writes ``source_id`` for its own parent document's id). ``metadata``: the chunk's metadata (LlamaIndex ``node.metadata``, LangChain ``document.metadata``,
    Haystack ``document.meta``) or its file path (``str`` or ``os.PathLike``). Returns the :class:`~_conflict_gate.manifest.read.Entry`
    (its ``source_id`` is the candidate id to pass to ``gate_context``). Raises :class:`GateError`
    ``unknown_candidate`` for a chunk tied to no entry, or to two: never guesses."""
    lookup = corpus.memo.get(("chunk lookup",))
    if lookup is None:
        lookup = SourceLookup(corpus.manifest)
        corpus.remember(("chunk lookup",), lookup, 1024 + 512 * len(corpus.manifest.entries))
    found: Entry = lookup.lookup(metadata, id_key)
    return found
