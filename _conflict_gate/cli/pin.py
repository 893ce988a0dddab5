"""``conflict-gate pin``: recompute every source's pin and rewrite the manifest in place, or, with
``--check``, change nothing and report stale pins, missing files and unlisted pages."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from ..base.errors import IngestionError, printable
from ..base.jsondata import render_json
from ..corpus.cache import encode_reading
from ..corpus.load import decode_source, line_ending_hint, read_recorded, source_digest
from ..corpus.recorded import recorded_reading
from ..corpus.source_files import SourceFiles
from ..decide.decision import unlisted_sources
from ..manifest.read import read_manifest
from ..reading.reading_shapes import Reading
from .ci import FORMATS, PinDrift, Report, pin_checks, unlisted_checks
from .support import check_ci_options, ci_locations, exit_code, plural, printable_path, write_atomically, write_report

__all__ = ["pin_command"]


_PIN_VALUE: Final = re.compile(r'"sha256"\s*:\s*"([0-9a-f]{64}|)"')


def pin_command(args: argparse.Namespace, judged: Mapping[str, Reading] | None = None) -> int:
    """``pin`` and ``pin --check`` (see the module docstring). ``judged``: with ``--check --site``, each
    page's reading as the site's build judges it now (:mod:`~_conflict_gate.cli.pin_site`); a page whose
    recorded reading differs from it is stale (``reading_unusable``) too."""
    check_ci_options(args)
    manifest = read_manifest(args.manifest, require_pins=False)
    quoted = shlex.quote(printable_path(args.manifest))
    pins = []
    drift = []
    recorded = read_recorded(manifest) if args.pin_check else None  # the readings are checked too
    with SourceFiles(manifest.root) as files:
        for entry in manifest.entries:
            try:
                raw = files.read(entry)
            except IngestionError as error:
                if not (args.pin_check and error.reason == "source_missing"):
                    raise
                drift.append(PinDrift(entry, "source_missing", None, None, ""))
                pins.append(entry.sha256)
                continue
            decode_source(raw, source_id=entry.source_id, path=entry.path)  # pin only what loads
            digest = source_digest(raw)
            pins.append(digest)
            if digest != entry.sha256:
                hint = line_ending_hint(raw, entry.sha256) if entry.sha256 else ""
                drift.append(
                    PinDrift(entry, "hash_mismatch" if entry.sha256 else "source_unpinned", digest, len(raw), hint)
                )
            elif recorded is not None:
                try:
                    kept = recorded_reading(recorded, entry, digest, raw)
                except IngestionError as error:
                    drift.append(PinDrift(entry, error.reason, digest, len(raw), error.detail))
                    continue
                fresh = judged.get(entry.source_id) if judged is not None else None
                if fresh is not None and encode_reading(fresh) != encode_reading(kept):
                    drift.append(
                        PinDrift(
                            entry,
                            "reading_unusable",
                            digest,
                            len(raw),
                            (
                                f"the site's build now shows it otherwise than its reading recorded in {recorded.path} "
                                "(an include, a snippet, a macro or the theme changed, or the page's reading): record it "
                                "again: pin --site"
                            ),
                        )
                    )
    pages = unlisted_sources(manifest) if args.pin_check else []
    if args.pin_check and args.format in FORMATS:
        where = ci_locations(args, manifest.root)
        fix = f"{args.prog} pin --manifest {quoted}"
        add = f"{args.prog} init --update --manifest {quoted}"
        checks = (
            *pin_checks(manifest.entries, drift, where, manifest_file=os.path.basename(manifest.real_path), fix=fix),
            *unlisted_checks(pages, where, fix=add),
        )
        write_report(args, Report("pin --check", checks), where)
        return exit_code("findings" if drift or pages else "ok")
    prune = (
        f"; remove its entry with: {args.prog} init --update --prune --manifest {quoted}"
        if manifest.sources is not None
        else ""
    )
    for item in drift:
        print(printable(_drift_line(item, args.pin_check) + (prune if item.reason == "source_missing" else "")))
    if args.pin_check:
        for page in pages:
            print(f"unlisted {printable_path(page['path'])}: {printable(page['message'])}")
        if not drift:
            print(f"all {len(manifest.entries)} pins are current")
        elif any(item.reason != "source_missing" for item in drift):
            site = " --site DIR" if manifest.readings is not None else ""
            print(f"once the changed pages are reviewed, pin them: {args.prog} pin --manifest {quoted}{site}")
        addable = [page for page in pages if page["source_id"] is not None]  # the others: fix or exclude
        if addable:
            them = "it" if len(addable) == 1 else "them"
            print(
                f"{plural(len(addable), 'page')} unlisted: add {them} with: {args.prog} init --update "
                f'--manifest {quoted} (or exclude {them} in "sources")'
            )
        return exit_code("findings" if drift or pages else "ok")
    target = Path(manifest.real_path)
    shown = printable_path(args.manifest)
    if os.path.abspath(args.manifest) != str(target):
        shown += f" -> {printable_path(target)}"
    if not drift:
        print(f"all {len(manifest.entries)} pins are current; {shown} unchanged")
        return exit_code("ok")
    text = target.read_bytes().decode("utf-8")
    write_atomically(target, _rewrite_pins(text, [e.sha256 for e in manifest.entries], pins))
    print(f"wrote {shown}: {plural(len(drift), 'pin')} updated")
    if manifest.readings is not None:  # their recorded readings are of the old bytes now
        print(
            printable(
                f"note: the manifest records the site's readings ({manifest.readings}): the "
                f"{plural(len(drift), 'page')} pinned anew are refused (reading_unusable) until their "
                f"readings are recorded: {args.prog} pin --manifest {quoted} --site DIR"
            )
        )
    return exit_code("ok")


def _drift_line(drift: PinDrift, check: bool) -> str:
    """One line of ``pin``'s text output for an entry whose pin changes (or, with ``check``, is stale)."""
    entry = drift.entry
    if drift.reason == "source_missing":
        return f"missing {entry.source_id} ({entry.path}): file does not exist"
    if drift.reason == "reading_unusable":
        return f"stale reading {entry.source_id} ({entry.path}): {drift.hint}"
    return (
        f"{('stale' if entry.sha256 else 'unpinned') if check else 'pinned'} {entry.source_id} ({entry.path}): {entry.sha256 or '(unpinned)'} "
        f"-> {drift.digest} ({drift.size} bytes)" + (f"; {drift.hint}" if drift.hint else "")
    )


def _rewrite_pins(text: str, old_pins: Sequence[str], new_pins: Sequence[str]) -> str:
    """``text`` with each entry's ``sha256`` value replaced in place (layout, key order, BOM and line
    endings untouched); falls back to re-rendering the JSON when the pins cannot be matched one to
    one, in order (a key written with escapes, say)."""
    found = list(_PIN_VALUE.finditer(text))
    if [m.group(1) for m in found] != list(old_pins):
        data = json.loads(text.lstrip("\ufeff"))
        for document, pin in zip(data["documents"], new_pins):
            document["sha256"] = pin
        return render_json(data)
    parts, last = [], 0
    for match, pin in zip(found, new_pins):
        parts += [text[last : match.start(1)], pin]
        last = match.end(1)
    return "".join(parts) + text[last:]
