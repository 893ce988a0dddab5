"""``conflict-gate pin --site DIR``: pin every source and record, per page, what the site's build showed
(its recorded reading, bound to the page's SHA-256), in the file the manifest names (``"readings"``),
pinned by the manifest (``"readings_sha256"``); with ``--check``, change nothing and report the pages
whose recorded reading the build no longer gives.

The pages are read once: their bytes hashed (the new pins), read as Markdown and judged by the build
exactly as ``audit --site`` judges them (:func:`~_conflict_gate.site.build.judge_site`, strict: a page
that cannot be judged, its built page missing, stops the command with exit 6 and writes nothing). The
readings file is written first, then the manifest's pins and its two keys (every other byte of the
manifest kept), so a run cut short between the two leaves a manifest whose readings pin no longer
matches: refused at load (``readings_unreadable``), never trusted. reference/site.md#recorded-readings.
"""

from __future__ import annotations

import argparse
import os
import posixpath
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from ..base.errors import DirectiveError, printable
from ..corpus.load import Corpus, decode_source, source_digest, source_from_bytes
from ..corpus.recorded import render_recorded
from ..corpus.source_files import SourceFiles
from ..manifest.edit import set_top_level
from ..manifest.read import read_manifest
from ..reading.reading_shapes import Reading
from ..site.build import judge_site, locate_site
from .pin import _rewrite_pins, pin_command
from .support import CliError, exit_code, plural, printable_path, write_atomically

__all__ = ["default_readings_path", "pin_site_command"]


def default_readings_path(manifest_file: str) -> str:
    """The readings file ``pin --site`` names when the manifest names none: beside the manifest, its name
    without ``.json`` followed by ``.readings.json`` (``manifest.json`` -> ``manifest.readings.json``)."""
    stem = posixpath.basename(manifest_file)
    stem = stem[:-5] if stem.lower().endswith(".json") else stem
    return f"{stem}.readings.json"


def pin_site_command(args: argparse.Namespace) -> int:
    """``pin --site DIR``: see the module docstring. Exit 0 (the counts printed, refused pages among them:
    ``audit`` lists them), 6 when a page cannot be read or judged. With ``--check``, change nothing and
    report, besides what ``pin --check`` reports, every page whose recorded reading the build no longer
    gives (``reading_unusable``, exit 1): an include, a macro or the theme changed, not the page."""
    manifest = read_manifest(args.manifest, require_pins=False)
    if args.pin_check and manifest.readings is None:
        raise CliError(
            "usage",
            "pin --check --site compares the readings the manifest records with the build, "
            "and it records none: record them with pin --site (without --check)",
        )
    site = locate_site(args.site, manifest.root)
    sources = {}
    changed = 0
    with SourceFiles(manifest.root) as files:
        entries = []
        for entry in manifest.entries:
            raw = files.read(entry)
            decode_source(raw, source_id=entry.source_id, path=entry.path)  # pin only what loads
            digest = source_digest(raw)
            changed += digest != entry.sha256
            pinned = entry._replace(sha256=digest)
            entries.append(pinned)
            sources[entry.source_id] = source_from_bytes(
                raw, manifest.grammar, pinned, renderer=manifest.renderer, digest=digest
            )
    pinned_manifest = replace(manifest, entries=tuple(entries), readings=None, readings_sha256="")
    corpus = judge_site(Corpus(pinned_manifest, MappingProxyType(sources)), site, strict=True)
    pages = []
    refused = 0
    for entry in entries:
        source = corpus.sources[entry.source_id]
        assert source.refusal is None or isinstance(source.refusal, DirectiveError)  # strict: none failed
        refused += source.refusal is not None
        pages.append(
            (
                entry,
                entry.sha256,
                Reading(source.claims, source.refusal, source.near_misses, source.occurrences, source.left_out),
            )
        )
    if args.pin_check:  # change nothing: report the pages whose recorded reading the build no longer gives
        return pin_command(args, judged={entry.source_id: reading for entry, _, reading in pages})
    readings = manifest.readings or default_readings_path(manifest.real_path)
    text = render_recorded(manifest.grammar, pages)
    target = Path(manifest.root) / readings
    write_atomically(target, text)
    manifest_path = Path(manifest.real_path)
    old = manifest_path.read_bytes().decode("utf-8")
    new = _rewrite_pins(old, [e.sha256 for e in manifest.entries], [e.sha256 for e in entries])
    new = set_top_level(new, {"readings": readings, "readings_sha256": source_digest(text.encode("utf-8"))})
    if new != old:
        write_atomically(manifest_path, new)
    claims = sum(len(reading.claims) for _, _, reading in pages)
    print(
        f"wrote {printable_path(str(target))}: {plural(len(pages), 'reading')} recorded from the build in "
        f"{printable_path(site.built)} ({plural(claims, 'directive')} counted, {plural(refused, 'page')} refused"
        + (f": {args.prog} audit --manifest {printable_path(args.manifest)} lists them" if refused else "")
        + ")"
    )
    shown = printable_path(args.manifest)
    print(f"wrote {shown}: {plural(changed, 'pin')} updated, readings pinned" if new != old else f"{shown} unchanged")
    if os.path.basename(readings) != readings:
        print(printable(f"note: the readings file is {readings}, relative to the manifest's folder"))
    return exit_code("ok")
