"""``conflict-gate init``: a starter manifest for a docs folder (the grammar proposed from the
directive lines found), and ``init --update``: the manifest kept in step with the tree its
``sources`` describe (new pages added, gone ones listed or, with ``--prune``, removed)."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from ..base.errors import GrammarError, IngestionError, printable
from ..base.jsondata import render_json
from ..base.registry import DEFAULT_RENDERER, ELIGIBLE_STATUS
from ..corpus.load import Corpus, decode_source, source_digest, source_from_bytes
from ..corpus.source_files import SourceFiles
from ..manifest.edit import edit_documents
from ..manifest.grammar import CANONICAL_INTEGER, NAME, VALUE_TOKEN, Grammar, grammar_from_json
from ..manifest.read import ENTRY_FIELDS, VERSION_SCHEMES, Entry, Manifest, read_manifest
from ..manifest.sources import Pattern, Sources, pattern_problem
from ..manifest.tree import Outcome, folder_order, missing, plan, scan
from ..reading.reader import read_directives
from ..reading.renderers import RENDERER_VALUES, Renderer
from ..site.detect import detect
from .support import CliError, check_output, exit_code, plural, printable_path, write_atomically

__all__ = ["init_command"]


#: Any line of the directive form, whatever the grammar (``init`` proposes a grammar from these).
_DIRECTIVE_LINE: Final = re.compile(rf"^@({NAME.pattern}) ({NAME.pattern}) ({NAME.pattern})=(\S+)\r?$", re.MULTILINE)


def _starter_grammar(
    texts: Sequence[str],
    renderer: Renderer,
    judge: Callable[[Grammar], list[tuple[str, str, str]]] | None = None,
    built: str = "",
) -> tuple[dict[str, Any], str]:
    """A grammar proposed from the directive lines found, or a placeholder; and a note on stderr.

    Proposed from every ``@<namespace> <operation> <key>=<value>`` line first,
    then again from only the lines that count as directives under that
    grammar (examples in code, and directive-shaped text elsewhere, left out):
    as ``renderer`` shows them, or, with ``judge`` (``init --site``), the
    ``(operation, key, value)`` of every line the site's build (in the folder ``built``) shows as one.
    The first proposal is checked once, not once per page: linear in the pages.
    """
    found = [m.groups() for text in texts for m in _DIRECTIVE_LINE.finditer(text)]
    if not found:
        return (
            {
                "namespace": "example",
                "product": "Example",
                "operations": {"example_operation": {"example_key": {"type": "enum", "values": ["yes", "no"]}}},
            },
            "no directive lines found: the grammar is a placeholder to edit",
        )
    namespace = Counter(ns for ns, _, _, _ in found).most_common(1)[0][0]
    grammar = _grammar_of(namespace, [(op, key, value) for ns, op, key, value in found if ns == namespace])
    try:
        proposed = grammar_from_json(grammar)
    except GrammarError:
        proposed = None
    counted = (
        []
        if proposed is None
        else judge(proposed)
        if judge is not None
        else [
            (c.operation, c.claim_key, c.value)
            for text in texts
            for c in read_directives(text, proposed, renderer=renderer).claims
        ]
    )
    if counted:
        grammar = _grammar_of(namespace, counted)
    count = sum(len(keys) for keys in grammar["operations"].values())
    left = len(found) - len(counted) if counted else 0
    besides = (
        ""
        if not left
        else f"; {plural(left, 'more line')} left out: in code, or on pages the reader refuses (audit names them)"
        if judge is None
        else f"; {plural(left, 'more line')} left out: not shown as a directive by the build, or on pages it "
        "refuses (audit --site names them)"
    )
    # A claim seen only in left-out lines is missing from the grammar: said by name, so a real directive on a
    # refused page is not lost silently (audit would then report it as unsupported, not as the refusal it is).
    kept = grammar["operations"]
    unseen = sorted({f"{op} {key}" for ns, op, key, _ in found if ns == namespace and key not in kept.get(op, {})})
    if unseen and counted:
        shown = ", ".join(unseen[:5]) + (f" and {len(unseen) - 5} more" if len(unseen) > 5 else "")
        besides += (
            f"; not in the grammar, as only left-out lines hold them: {shown} (add each by hand under "
            '"operations" if it is meant; audit then shows why its lines were left out)'
        )
    return (
        grammar,
        f"grammar proposed from {plural(len(counted) or len(found), 'directive line')} "
        f"{f'the build in {printable_path(built)} shows ' if counted and judge is not None else ''}"
        f"(namespace {namespace!r}, {plural(count, 'key')}{besides}): review the values and integer bounds",
    )


def _grammar_of(namespace: str, claims: Sequence[tuple[str, str, str]]) -> dict[str, Any]:
    """Grammar JSON allowing exactly ``(operation, key, value)`` claims: integers, else enumerations."""
    operations: dict[str, dict[str, dict[str, None]]] = {}
    for operation, key, value in claims:
        if NAME.fullmatch(operation) and NAME.fullmatch(key):
            operations.setdefault(operation, {}).setdefault(key, {})[value] = None
    grammar_ops: dict[str, dict[str, Any]] = {}
    for operation in sorted(operations):
        rules: dict[str, dict[str, Any]] = {}
        for key in sorted(operations[operation]):
            values = operations[operation][key]
            if all(CANONICAL_INTEGER.fullmatch(v) for v in values):
                rules[key] = {"type": "integer"}
            else:
                rules[key] = {
                    "type": "enum",
                    "values": sorted(v for v in values if VALUE_TOKEN.fullmatch(v)) or ["yes", "no"],
                }
        grammar_ops[operation] = rules
    return {"namespace": namespace, "product": namespace.replace("-", " ").title(), "operations": grammar_ops}


def _sort_out(outcomes: Sequence[Outcome], left_out: list[tuple[str, str]]) -> list[Outcome]:
    """The pages to add; the ones left out appended to ``left_out``. Two pages wanting one id are
    refused (``duplicate_source_id``, naming both files): ``pin`` would refuse the manifest."""
    adds = []
    for outcome in outcomes:
        if outcome.action == "collision":
            raise IngestionError(
                "duplicate_source_id",
                f"its source id {outcome.source_id!r} would also be "
                f"{printable(outcome.other or '')}'s: rename one of the two files or exclude "
                'one in "sources"; nothing written',
                path=outcome.page.path,
            )
        if outcome.action == "left_out":
            left_out.append((outcome.page.path, outcome.why))
        elif outcome.action == "add":
            adds.append(outcome)
    return adds


def _read_pages(root: str, adds: Sequence[Outcome], left_out: list[tuple[str, str]]) -> list[tuple[Outcome, str, str]]:
    """Each page to add, read once through :class:`SourceFiles`: ``(outcome, text, SHA-256 of its bytes)``.

    A page that cannot be read is an input error naming it (``source_unreadable``),
    and so is one that is not UTF-8 (``source_not_utf8``, with the byte offset),
    since ``pin`` would refuse both; one that changed since the walk (grew
    over the cap, vanished, became another kind of file, a symlink leading
    out, the same file as an earlier page) is left out, with why.
    """
    read = []
    with SourceFiles(root) as files:
        for outcome in adds:
            path = outcome.page.path
            try:
                raw = files.read_path(path, source_id=outcome.source_id)
            except IngestionError as error:
                if error.reason == "source_unreadable":
                    raise
                left_out.append((path, f"{error.detail} ({error.reason})"))
                continue
            read.append((outcome, decode_source(raw, source_id=outcome.source_id, path=path), source_digest(raw)))
    return read


class Move(NamedTuple):
    """What ``init --update`` makes of a new page whose bytes some gone entry was pinned to (its pin is
    the page's SHA-256): ``moved_from``, the one gone entry, when exactly one gone entry has that pin
    and exactly one new page those bytes; else ``None``: which page moved where cannot be told, and
    ``gone`` (the ids of the gone entries with that pin) and ``copies`` (the other new pages with
    those bytes) say why."""

    moved_from: Entry | None
    gone: tuple[str, ...] = ()
    copies: tuple[str, ...] = ()


def _moves(gone: Sequence[Entry], pages: Sequence[tuple[Outcome, str]]) -> dict[str, Move]:
    """New page path -> its :class:`Move`, for the new pages (``(outcome, SHA-256)``) that hold the
    pinned bytes of a gone entry. An unpinned gone entry (``"sha256": ""``) matches nothing."""
    by_pin: dict[str, list[Entry]] = {}
    for entry in gone:
        if entry.sha256:
            by_pin.setdefault(entry.sha256, []).append(entry)
    by_digest: dict[str, list[str]] = {}
    for outcome, digest in pages:
        by_digest.setdefault(digest, []).append(outcome.page.path)
    moves = {}
    for outcome, digest in pages:
        olds, paths = by_pin.get(digest, []), by_digest[digest]
        if len(olds) == 1 and len(paths) == 1:
            moves[outcome.page.path] = Move(olds[0])
        elif olds:
            moves[outcome.page.path] = Move(
                None, tuple(e.source_id for e in olds), tuple(p for p in paths if p != outcome.page.path)
            )
    return moves


def _entry(outcome: Outcome, base_url: str | None, move: Move | None = None) -> dict[str, str]:
    """A new manifest entry for a page: unpinned, approved (``status`` omitted). A page moved from a
    gone entry (``move``) takes its ``status`` (as written) and, when its version is the same, its
    pin (the bytes are the ones pinned); one that several gone entries could be is a ``draft``."""
    source_id = outcome.source_id or ""
    entry: dict[str, str] = {"source_id": source_id, "version": outcome.page.version, "path": outcome.page.path}
    if base_url:
        entry["url"] = base_url.rstrip("/") + "/" + source_id
    entry["sha256"] = ""
    if move is not None and move.moved_from is None:
        entry["status"] = "draft"
    elif move is not None and move.moved_from is not None:
        old = move.moved_from
        if "status" in old.written or old.status != ELIGIBLE_STATUS:
            entry["status"] = old.status
        if old.version == outcome.page.version:
            entry["sha256"] = old.sha256
    return {key: entry[key] for key in ENTRY_FIELDS if key in entry}


def _added_line(entry: Mapping[str, str], move: Move | None) -> str:
    """The line on stderr for one page ``init --update`` adds (``entry``, as :func:`_entry` made it)."""
    pinned = "pinned" if entry["sha256"] else "unpinned"
    line = (
        f"added {printable_path(entry['path'])} as {entry['source_id']!r} (version {printable(entry['version'])}, "
        f"{entry.get('status', ELIGIBLE_STATUS)}, {pinned})"
    )
    if move is None:
        return line
    old = move.moved_from
    if old is None:
        why = f"{len(move.gone)} gone {'entry' if len(move.gone) == 1 else 'entries'} ({', '.join(map(repr, move.gone))}) pinned to its bytes"
        if move.copies:
            why += (
                f" and {plural(len(move.copies), 'other new page')} ({', '.join(map(printable_path, move.copies))}) "
                "holding them"
            )
        return (
            line + f": {why}, so which page moved here cannot be told: added as a draft; review it and set its status"
        )
    line += f": moved from {printable_path(old.path)} ({old.source_id!r}), bytes unchanged; its status"
    if entry["sha256"]:
        return line + " and pin carried over"
    return line + (
        f" carried over, not its pin (version {printable(old.version)} -> "
        f"{printable(entry['version'])}: review it, then pin)"
    )


def _report_pages(left_out: Sequence[tuple[str, str]], renamed: Sequence[Outcome]) -> None:
    for path, why in sorted(left_out, key=lambda item: folder_order(item[0])):
        print(f"left out: {printable_path(path)}: {printable(why)}", file=sys.stderr)
    for outcome in renamed:
        print(
            f"id: {printable_path(outcome.page.path)}: listed as {outcome.source_id!r}, since its path is not a "
            "source id (ASCII letters, digits, '.', '_', '-', '/'; a letter or digit first)",
            file=sys.stderr,
        )


def init_command(args: argparse.Namespace) -> int:
    if args.update:
        return _update(args)
    if args.prune:
        raise CliError("usage", f"--prune comes with --update (see '{args.prog} init --help')")
    if args.docs_dir is None or args.version_from is None:
        raise CliError(
            "usage", f"init needs DOCS_DIR and --version-from, or --update --manifest M (see '{args.prog} init --help')"
        )
    docs = Path(args.docs_dir)
    if not docs.is_dir():
        raise CliError("input", f"{printable_path(docs)} is not a folder")
    problem = pattern_problem(args.version_from, include=True)
    if problem:
        raise CliError("usage", f"--version-from {problem}")
    manifest_path = Path(args.manifest) if args.manifest else docs / "manifest.json"
    check_output(manifest_path, create_only=True)
    root = os.path.realpath(manifest_path.parent)
    below = os.path.relpath(os.path.realpath(docs), root)
    if below == os.pardir or below.startswith(os.pardir + os.sep):
        raise CliError(
            "input",
            f"no page under {printable_path(docs)} can be listed: it is not inside the manifest's "
            f"folder {printable_path(root)}, to which every path in a manifest is relative; write "
            "the manifest in DOCS_DIR or a folder above it; nothing written",
        )
    include = args.version_from if below == os.curdir else below.replace(os.sep, "/") + "/" + args.version_from
    problem = pattern_problem(include, include=True)
    if problem:
        raise CliError("usage", f"the pattern of DOCS_DIR and --version-from seen from the manifest's folder {problem}")
    sources = Sources((Pattern.parse(include, include=True),))
    found = scan(root, sources)
    scheme = args.scheme or "auto"
    why = ""
    if scheme == "auto":
        scheme, why = _detected_scheme([page.version for page in found.pages])
    left_out = list(found.left_out)
    outcomes = plan(found.pages, VERSION_SCHEMES[scheme], root, base=sources.id_base())
    pages = _read_pages(root, _sort_out(outcomes, left_out), left_out)
    if not pages:
        left_out.sort(key=lambda item: folder_order(item[0]))
        first = f" (first: {printable_path(left_out[0][0])}: {printable(left_out[0][1])})" if left_out else ""
        unplaced = bool(left_out) and all(why.startswith("does not match") for _, why in left_out)
        hint = (
            "; --version-from says where a page's version is in its path ('{version}/**' fits 1.0/guide.md): "
            "put each page in a folder named for its version, or write the entries by hand (reference/manifest.md)"
            if unplaced
            else ""
        )
        raise CliError(
            "input",
            f"no page under {printable_path(docs)} fits {args.version_from!r}, the scheme "
            f"{scheme!r} and the manifest's folder; {plural(len(left_out), 'page')} "
            f"left out{first}{hint}; nothing written",
        )
    named, detected = args.renderer, None
    if named is None:  # the site's configuration says, or portable
        detected = detect(docs, Path(root), tuple(RENDERER_VALUES), Path(os.getcwd()))
        named = None if detected.renderer == DEFAULT_RENDERER else detected.renderer
    renderer = RENDERER_VALUES[named or DEFAULT_RENDERER]
    judge = None if args.site is None else _judged_by_site(args.site, root, str(manifest_path), pages, renderer, scheme)
    grammar, note = _starter_grammar([text for _, text, _ in pages], renderer, judge, args.site or "")
    manifest = {
        "grammar": grammar,
        "version_scheme": scheme,
        **({"renderer": named} if named else {}),
        "sources": sources.written(),
        "documents": [_entry(outcome, args.base_url) for outcome, _, _ in pages],
    }
    write_atomically(manifest_path, render_json(manifest), create_only=True)
    _report_pages(left_out, [outcome for outcome, _, _ in pages if outcome.renamed])
    print(
        f"wrote {printable_path(manifest_path)}: {plural(len(pages), 'source')}, version scheme "
        f"{scheme!r}{why}{f', renderer {renderer.name!r}' if args.renderer else ''}, unpinned; {note}"
        f"{'' if detected is None else '; renderer ' + printable(detected.why)}",
        file=sys.stderr,
    )
    for line in () if detected is None else detected.warnings:
        print(f"renderer: {printable(line)}", file=sys.stderr)
    site = "" if args.site is None else f" --site {shlex.quote(printable_path(args.site))}"
    print(
        f'next: edit the grammar (and any "status": "draft"), then run: '
        f"{args.prog} pin --manifest {shlex.quote(printable_path(manifest_path))}{site}",
        file=sys.stderr,
    )
    return exit_code("ok")


def _judged_by_site(
    site_dir: str,
    root: str,
    manifest_path: str,
    pages: Sequence[tuple[Outcome, str, str]],
    renderer: Renderer,
    scheme: str,
) -> Callable[[Grammar], list[tuple[str, str, str]]]:
    """``init --site DIR``: what counts under a proposed grammar is what the site's build shows. The
    build is located first (:func:`~_conflict_gate.site.build.locate_site`: ``site_unreadable`` before
    anything is written); the function returned reads each page again (``hash_mismatch`` when it
    changed since it was listed), reads it as ``renderer`` does and judges it by its built page exactly
    as ``pin --site`` does (:func:`~_conflict_gate.site.build.judge_site`, strict: a page holding
    directive-shaped text whose built page is missing raises ``built_page_missing``, nothing written),
    and returns the ``(operation, key, value)`` of every line counted, in manifest order. Records no
    reading: the grammar is the user's to edit first, and ``pin --site`` records under the grammar
    pinned (reference/site.md#init---site)."""
    from ..site.build import judge_site, locate_site  # only with --site

    site = locate_site(site_dir, root)

    def judge(grammar: Grammar) -> list[tuple[str, str, str]]:
        sources = {}
        entries = []
        with SourceFiles(root) as files:
            for position, (outcome, _, digest) in enumerate(pages):
                written = _entry(outcome, None)
                entry = Entry(
                    written["source_id"], written["version"], written["path"], None, ELIGIBLE_STATUS, digest,
                    tuple(written), position,
                )  # fmt: skip
                raw = files.read_path(entry.path, source_id=entry.source_id)
                sources[entry.source_id] = source_from_bytes(raw, grammar, entry, renderer=renderer)
                entries.append(entry)
        manifest = Manifest(
            manifest_path,
            manifest_path,
            root,
            grammar,
            VERSION_SCHEMES[scheme],
            tuple(entries),
            renderer_name=renderer.name,
        )
        judged = judge_site(Corpus(manifest, MappingProxyType(sources)), site, strict=True)
        return [(c.operation, c.claim_key, c.value) for source in judged.sources.values() for c in source.claims]

    return judge


#: The schemes ``init`` tries, strictest first (the last, label, takes most folder names; a page whose
#: folder fits none is left out and named).
_DETECTED_SCHEMES: Final = ("major.minor", "semver", "calver", "label")


def _detected_scheme(versions: Sequence[str]) -> tuple[str, str]:
    """The first of :data:`_DETECTED_SCHEMES` every version fits, and, when that is ``label`` though
    some version fits a stricter scheme, the words saying which version kept that scheme out (a
    mixed tree loses the stricter order silently otherwise), else ``""``."""
    fitting = {name: sum(map(VERSION_SCHEMES[name].fits, versions)) for name in _DETECTED_SCHEMES}
    scheme = next((name for name in _DETECTED_SCHEMES if fitting[name] == len(versions)), "label")
    best = max(_DETECTED_SCHEMES[:-1], key=fitting.__getitem__)  # the stricter scheme most folders fit
    if scheme != "label" or fitting[best] == 0:
        return scheme, ""
    misfit = min(v for v in versions if not VERSION_SCHEMES[best].fits(v))
    return scheme, (
        f" (the folder {printable(misfit)!r} is no {best} version; name a scheme with --scheme "
        "and the pages that do not fit it are left out)"
    )


def _base_url(entries: Sequence[Entry]) -> str | None:
    """The URL prefix every entry's ``url`` is (prefix + its id), or ``None`` when they follow none."""
    prefixes = {
        entry.url[: -len(entry.source_id)] if entry.url and entry.url.endswith(entry.source_id) else None
        for entry in entries
    }
    return prefixes.pop() if len(prefixes) == 1 else None


def _update(args: argparse.Namespace) -> int:
    """``init --update --manifest M [--prune]``: add the new pages of M's ``sources``, list (or
    remove) the gone ones, keep everything else byte for byte."""
    if (
        args.docs_dir is not None
        or args.version_from is not None
        or args.scheme is not None
        or args.renderer is not None
    ):
        raise CliError(
            "usage",
            "init --update takes no DOCS_DIR, --version-from, --scheme or --renderer: the "
            'manifest\'s "sources", "version_scheme" and "renderer" say them',
        )
    if args.site is not None:
        raise CliError(
            "usage",
            "init --update takes no --site: it adds pages unpinned; pin --site DIR pins them and records "
            "what the build shows",
        )
    if args.manifest is None:
        raise CliError("usage", f"init --update needs --manifest M (see '{args.prog} init --help')")
    manifest = read_manifest(args.manifest, require_pins=False)
    shown, quoted = printable_path(args.manifest), shlex.quote(printable_path(args.manifest))
    if manifest.sources is None:
        raise CliError(
            "usage",
            f'{shown} has no "sources", so init --update cannot tell which pages are its '
            'own: add one, e.g. "sources": {"include": ["{version}/**"]} (see '
            'reference/manifest.md), or edit "documents" by hand',
        )
    root = manifest.root
    found = scan(root, manifest.sources)
    left_out = list(found.left_out)
    outcomes = plan(found.pages, manifest.version_scheme, root, manifest.entries, manifest.sources.id_base())
    pages = _read_pages(root, _sort_out(outcomes, left_out), left_out)
    gone = [entry for entry in manifest.entries if missing(root, entry.path)]
    moves = _moves(gone, [(outcome, digest) for outcome, _, digest in pages])
    base_url = args.base_url or _base_url(manifest.entries)
    new = [_entry(outcome, base_url, moves.get(outcome.page.path)) for outcome, _, _ in pages]
    removed = {entry.position for entry in gone} if args.prune else set()
    _report_pages(left_out, [outcome for outcome, _, _ in pages if outcome.renamed])
    for (outcome, _, _), added in zip(pages, new):
        print(_added_line(added, moves.get(outcome.page.path)), file=sys.stderr)
    for entry in gone:
        print(
            f"{'removed' if args.prune else 'gone'} {printable_path(entry.path)} ({entry.source_id!r}): the file "
            "no longer exists" + ("" if args.prune else "; run with --prune to remove its entry"),
            file=sys.stderr,
        )
    if not new and not removed:
        kept = f"; {plural(len(gone), 'gone entry')} kept" if gone else ""
        print(f"unchanged {shown}: no page to add{kept}", file=sys.stderr)
        return exit_code("ok")
    target = Path(manifest.real_path)
    text = target.read_bytes().decode("utf-8")
    if [entry.get("path") for entry in json.loads(text.lstrip("\ufeff"))["documents"]] != [
        entry.path for entry in manifest.entries
    ]:
        raise CliError("input", f"{shown} changed while init --update read it; run it again")
    positions, at = [], 0  # merge in path order: before the first existing entry whose path sorts after
    existing = [folder_order(entry.path) for entry in manifest.entries]
    for added in new:
        key = folder_order(added["path"])
        while at < len(existing) and existing[at] <= key:
            at += 1
        positions.append((at, added))
    keep = [entry.position not in removed for entry in manifest.entries]
    write_atomically(target, edit_documents(text, keep, positions))
    written = shown if os.path.abspath(args.manifest) == str(target) else f"{shown} -> {printable_path(target)}"
    print(f"wrote {written}: {plural(len(new), 'source')} added, {len(removed)} removed", file=sys.stderr)
    if new:
        print(
            'next: review the new entries ("status": "draft" for a page not published yet; the grammar, '
            f"for new keys), then run: {args.prog} pin --manifest {quoted}",
            file=sys.stderr,
        )
    return exit_code("ok")
