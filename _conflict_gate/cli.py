"""The ``conflict-gate`` command line: gate, audit, pin, init, grammar, check-answer and schema.

    conflict-gate gate --manifest M --version V --claim KEY [--operation OP] [--no-strict]
                       [--set-aside-unrelated] ID [ID ...]
    conflict-gate audit --manifest M [--format markdown|json|github|sarif|junit] [--root DIR] [--strict]
    conflict-gate pin --manifest M [--check [--format text|github|sarif|junit] [--root DIR]]
    conflict-gate init DOCS_DIR --version-from PATTERN [--base-url URL] [--scheme S] [--manifest M]
    conflict-gate init --update --manifest M [--prune] [--base-url URL]
    conflict-gate grammar --manifest M [--format table|json]
    conflict-gate check-answer --manifest M --decision D.json --answer A.txt [--no-strict]
    conflict-gate schema decision|audit|answer-check|lab-result

A user error is one line on stderr and an exit code from
:data:`~_conflict_gate.registry.EXIT_CODES`, never a traceback. ``run.py``
in a checkout adds the lab (``--output``/``--check``) to the same parser.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import re
import secrets
import shlex
import stat
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Final, Mapping, NoReturn, Sequence

from . import __version__
from .answer import check_answer, load_decision
from .ci import FORMATS, SUMMARY_LIMIT, Locations, PinDrift, Report, audit_checks, github_summary, pin_checks
from .ci import render_github, render_junit, render_sarif, repository_root, unlisted_checks
from .corpus import Corpus, SourceFiles, decode_source, line_ending_hint, load_documents, source_digest
from .decision import audit, gate, unlisted_sources
from .errors import DecisionError, GateError, GrammarError, IngestionError, printable
from .grammar import CANONICAL_INTEGER, NAME, VALUE_TOKEN, Grammar, grammar_from_json
from .jsondata import render_json
from .manifest import ENTRY_FIELDS, VERSION_SCHEMES, Entry, read_manifest
from .manifest_text import edit_documents
from .reader import read_directives
from .sources import Pattern, Sources, pattern_problem
from .tree import Outcome, folder_order, missing, plan, scan
from .schema import SCHEMAS, result_schema
from .registry import AUDIT_STATUSES, COMMAND_EXIT_CODES, EXIT_CODES, MAX_ANSWER_BYTES, VERDICTS

__all__ = ["CliError", "build_parser", "main", "render_json", "write_atomically"]


class CliError(Exception):
    """A user error: one line on stderr and the exit code named by ``kind`` (a key of EXIT_CODES)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def exit_code(name: str) -> int:
    return EXIT_CODES[name][0]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), not usage + message."""

    #: The command names, on the top-level parser only (see :meth:`parse_known_args`).
    commands: frozenset[str] = frozenset()

    def error(self, message: str) -> NoReturn:
        raise CliError("usage", f"{message} (see '{self.prog} --help')")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """Refuse the top-level ``--version`` with anything else: ``conflict-gate --version 2.0 gate
        ...`` must not print the program's version and exit 0 with nothing decided; a requested
        version goes after the command. ``--version`` alone prints the version."""
        given = list(sys.argv[1:] if args is None else args)
        if self.commands and len(given) > 1:
            for arg in given:
                if arg in self.commands:
                    break
                name = arg.partition("=")[0]
                if len(name) >= 3 and "--version".startswith(name):
                    raise CliError("usage", f"put --version after the command ({self.prog} gate --version V "
                                            "...); before it, --version alone prints the program's version")
        return super().parse_known_args(given, namespace)


def check_output(path: Path, *, create_only: bool = False) -> None:
    """Raise :class:`CliError` (``output``) unless :func:`write_atomically` may write ``path``: its
    folder exists, and it is absent or a regular file (absent with ``create_only``)."""
    if not path.parent.is_dir():
        raise CliError("output", f"cannot write {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise CliError("output", f"cannot write {path}: it is a directory")
    if create_only and os.path.lexists(path):
        raise CliError("output", f"{path} exists; init never overwrites a file")
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise CliError("output", f"cannot write {path}: it is not a regular file (a symlink, pipe or "
                                 "device would be replaced); name a regular file")


def write_atomically(path: Path, text: str, *, create_only: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder and ``os.replace``.

    An existing file is replaced only once the new content is fully written
    and synced (its mode is kept), so a failed run never destroys earlier
    output; a new file gets ``0o666`` less the process umask, as ``open``
    gives it (the umask is never changed, so threads are safe). With
    ``create_only`` an existing file is never replaced. Raises
    :class:`CliError` (``output``) when the folder is missing or not
    writable, or the file exists and ``create_only`` is set.
    """
    check_output(path, create_only=create_only)
    try:
        mode = path.stat().st_mode & 0o7777 if path.exists() else None
        fd, tmp = _temporary_file(path)
    except OSError as error:
        raise CliError("output", f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        if create_only:
            os.link(tmp, path)  # fails if the file appeared meanwhile
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException as error:  # any failure, Ctrl-C included: never leave the temp file
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(error, FileExistsError):
            raise CliError("output", f"{path} exists; init never overwrites a file") from None
        if isinstance(error, OSError):
            raise CliError("output", f"cannot write {path}: {error.strerror}") from None
        raise


def _temporary_file(path: Path) -> tuple[int, str]:
    """A new file beside ``path``, created exclusively with mode ``0o666`` (the umask applies)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))


def _shown(path: str | os.PathLike[str]) -> str:
    """A path as one printable line (a file name need not be UTF-8 and may hold a newline)."""
    return printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _load(args: argparse.Namespace, *, warn: bool = True) -> Corpus:
    """The corpus of ``args.manifest``, loaded as ``args.strict`` says. A non-strict load that kept
    failed sources says so in one line on stderr, with ``warn`` (``audit`` ends with an error instead)."""
    corpus = load_documents(args.manifest, strict=args.strict)
    if corpus.failed and warn:
        print(f"{args.prog}: warning: {_failed_line(corpus, args)}; each refuses the requests it is "
              "eligible for", file=sys.stderr)
    return corpus


def _failed_line(corpus: Corpus, args: argparse.Namespace) -> str:
    """``N of M sources failed verification (first: MESSAGE [REASON])``, printable, with the fix
    when a pin is stale."""
    failed = corpus.failed
    first = failed[0].refusal
    assert first is not None
    line = f"{len(failed)} of {_plural(len(corpus), 'source')} failed verification (first: {first} [{first.reason}])"
    if any(source.refusal is not None and source.refusal.reason == "hash_mismatch" for source in failed):
        line += f"; if the edits are intended, re-pin: {args.prog} pin --manifest {shlex.quote(_shown(args.manifest))}"
    return printable(line)


# --------------------------------------------------------------------------
# gate


def _claim_operation(grammar: Grammar, key: str, operation: str | None, manifest: str, prog: str) -> str:
    """The operation of a request: given, or the only one in the grammar that has ``key``."""
    if operation is not None:
        return operation
    owners = [op for op, keys in grammar.operations.items() if key in keys]
    if len(owners) == 1:
        return owners[0]
    known = ", ".join(f"{op} {k}" for op, k, _ in grammar.claims())
    if not owners:
        raise CliError("usage", f"the grammar has no key {printable(repr(key))} (known: {known}; "
                                f"see '{prog} grammar --manifest {shlex.quote(_shown(manifest))}')")
    raise CliError("usage", f"key {key!r} belongs to several operations ({', '.join(owners)}): "
                            "name one with --operation")


def _gate(args: argparse.Namespace) -> int:
    corpus = _load(args)
    operation = _claim_operation(corpus.grammar, args.claim, args.operation, args.manifest, args.prog)
    result = gate(corpus, args.source_ids, args.version, operation, args.claim,
                  unrelated="set_aside" if args.set_aside_unrelated else "withhold")
    sys.stdout.write(render_json(result))
    status, reason = result["status"], result["reason"]
    if reason == "no_eligible_version":
        have = ", ".join(result["candidate_versions"]) or "none (no candidates)"
        print(f"not_in_docs: no candidate has version {args.version}; candidates have: {have}",
              file=sys.stderr)
    elif reason == "no_approved_source":
        print(f"not_in_docs: no approved candidate has version {args.version} (set aside: "
              f"{', '.join(result['excluded_unapproved_ids'])})", file=sys.stderr)
    elif reason == "no_related_source":
        print(f"not_in_docs: every eligible candidate is about other operations than {operation} (set aside: "
              f"{', '.join(result['set_aside_unrelated_ids'])})", file=sys.stderr)
    elif status == "not_in_docs":
        missing = result["missing_claim_source_ids"]
        print(f"not_in_docs: {', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not declare "
              f"{operation} {args.claim}", file=sys.stderr)
    elif status == "conflict":
        values = ", ".join(f"{c['source_id']}={c['value']}" for c in result["claims"])
        print(f"conflict: {values}", file=sys.stderr)
    elif status == "refused":
        print(f"refused: {result['message']} [{reason}]", file=sys.stderr)
    return exit_code("ok" if status == "ready" else status)


# --------------------------------------------------------------------------
# audit


def _audit(args: argparse.Namespace) -> int:
    _check_ci_options(args)
    corpus = _load(args, warn=False)
    report = audit(corpus)
    if args.format == "json":
        sys.stdout.write(render_json(report))
    elif args.format == "markdown":
        sys.stdout.write(render_audit_markdown(report, args.manifest))
    else:
        where = _locations(args, corpus.manifest.root)
        _write_report(args, Report("audit", tuple(audit_checks(report, where))), where)
    if corpus.failed:  # after the report, which lists every one
        sys.stdout.flush()
        raise CliError("input", f"{_failed_line(corpus, args)}; the report lists each under refused sources")
    return exit_code("ok" if report["clean"] else "findings")


# --------------------------------------------------------------------------
# the CI formats (github, sarif, junit) of audit and pin --check


def _check_ci_options(args: argparse.Namespace) -> None:
    """Usage errors of ``--format`` and ``--root``, found before anything is read."""
    if args.format not in FORMATS:
        if args.root is not None:
            raise CliError("usage", f"--root applies to --format {', '.join(FORMATS)} only (the {args.format} "
                                    "output keeps paths relative to the manifest's folder)")
        return
    if args.command == "pin" and not args.pin_check:
        raise CliError("usage", f"--format {args.format} reports what pin --check finds: add --check")
    if args.root is not None and not os.path.isdir(args.root):
        raise CliError("usage", f"--root {_shown(args.root)}: not a folder")


def _locations(args: argparse.Namespace, manifest_folder: str) -> Locations:
    """Where the manifest's folder sits: under ``--root``, else under the nearest folder above it that
    holds ``.git``, else the manifest's folder itself."""
    root = args.root if args.root is not None else repository_root(manifest_folder) or manifest_folder
    where = Locations.within(root, manifest_folder)
    if where is None:
        raise CliError("usage", f"--root {_shown(args.root)}: the manifest's folder {_shown(manifest_folder)} "
                                "is not inside it")
    return where


def _write_report(args: argparse.Namespace, report: Report, where: Locations) -> None:
    """Print ``report`` in ``args.format``; with ``github``, append the step summary to the file
    ``$GITHUB_STEP_SUMMARY`` of ``args.environ`` names, when set (a failure there: exit 7, after the
    annotations are printed)."""
    if args.format == "sarif":
        sys.stdout.write(render_sarif(report, where))
        return
    if args.format == "junit":
        sys.stdout.write(render_junit(report))
        return
    target = args.environ.get("GITHUB_STEP_SUMMARY") or None
    failure = None
    summarised = False
    if target is not None:
        try:
            summarised = _append_summary(Path(target), report)
        except CliError as error:
            failure = error
    sys.stdout.write(render_github(report, summarised=summarised))
    if failure is not None:
        raise failure


def _append_summary(path: Path, report: Report) -> bool:
    """Append the step summary to ``path`` within GitHub's 1 MiB cap for the whole file; whether it was."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        size = 0
    except OSError as error:
        raise CliError("output", f"cannot write the step summary {_shown(path)}: {error.strerror}") from None
    else:
        if not stat.S_ISREG(before.st_mode):
            raise CliError("output", f"cannot write the step summary {_shown(path)}: it is not a regular file")
        size = before.st_size
    text = github_summary(report, SUMMARY_LIMIT - size)
    if not text:
        print(f"summary: not appended: {_shown(path)} already holds {size} bytes of GitHub's 1 MiB",
              file=sys.stderr)
        return False
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as error:
        raise CliError("output", f"cannot write the step summary {_shown(path)}: {error.strerror}") from None
    return True


_LINE_BREAKS: Final = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _cell(value: Any) -> str:
    """One GitHub-flavoured Markdown table cell: pipes escaped, line breaks made spaces."""
    return _LINE_BREAKS.sub(" ", printable(str(value))).replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A GFM table as lines."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return lines


def _code(text: str) -> str:
    """A CommonMark code span for ``text``: a backtick run longer than any inside it."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _location(item: Mapping[str, Any]) -> str:
    where = str(item["path"])
    if item.get("line") is not None:
        where += f":{item['line']}"
        if item.get("column") is not None:
            where += f":{item['column']}"
    return where


def render_audit_markdown(report: Mapping[str, Any], manifest: str) -> str:
    """The audit as Markdown for a CI log or a pull request; deterministic. The counts in its
    summary line are the report's ``summary``; every table row is one item of the report."""
    summary = report["summary"]
    verdict = "clean" if report["clean"] else "NOT CLEAN"
    counts = ", ".join(f"{value} {key}" for key, value in summary.items())
    if report["unlisted_sources"]:
        counts += f", {len(report['unlisted_sources'])} unlisted"
    count = report["source_count"]
    lines = [f"# conflict-gate audit: {_shown(manifest)}", "",
             f"{count} source{'' if count == 1 else 's'}, versions {', '.join(report['versions']) or 'none'}: "
             f"**{verdict}** ({counts}).", "",
             "## Claims (approved sources, per operation they are about)", ""]
    lines += markdown_table(("version", "claim", "status", "values", "sources", "silent"),
                            [(group["version"], f"{group['operation']} {entry['claim_key']}", entry["status"],
                              ", ".join(entry["values"]), ", ".join(c["source_id"] for c in entry["claims"]),
                              ", ".join(s["source_id"] for s in entry["silent"]) or "-")
                             for group in report["operations"] for entry in group["keys"]]
                            or [("-",) * 6])
    conflicts = [(group, entry) for group in report["operations"] for entry in group["keys"]
                 if entry["status"] == "conflict"]
    if conflicts:
        lines += ["", "## Conflicts", ""]
        lines += markdown_table(("version", "claim", "source", "location", "value", "quote"),
                                [(group["version"], f"{group['operation']} {entry['claim_key']}", c["source_id"],
                                  f"{c['path']}:{c['line']}", c["value"], _code(c["quote"]))
                                 for group, entry in conflicts for c in entry["claims"]])
    for title, error in (("Sources that failed verification", "IngestionError"), ("Refused sources", "DirectiveError")):
        rows = [(r["source_id"], r["status"], _location(r), r["reason"], _code(r["message"]))
                for r in report["refused_sources"] if r["error"] == error]
        if rows:
            lines += ["", f"## {title}", ""]
            lines += markdown_table(("source", "status", "location", "reason", "message"), rows)
    if report["unapproved_conflicts"]:
        lines += ["", "## Drafts and deprecated pages that would conflict once approved", ""]
        lines += markdown_table(("source", "status", "location", "claim", "value", "approved values"),
                                [(u["source_id"], u["status"], f"{u['path']}:{u['line']}",
                                  f"{u['operation']} {u['claim_key']}", u["value"],
                                  ", ".join(u["approved_values"])) for u in report["unapproved_conflicts"]])
    if report["near_misses"]:
        lines += ["", "## Near-misses (directive text in code or hidden HTML: counts for nothing)", ""]
        lines += markdown_table(("source", "location", "where", "quote"),
                                [(n["source_id"], _location(n), n["where"], _code(n["quote"]))
                                 for n in report["near_misses"]])
    lines += _unlisted_markdown(report)
    return "\n".join(lines) + "\n"


def _unlisted_markdown(report: Mapping[str, Any]) -> list[str]:
    """The audit's section of pages the manifest's ``sources`` take but it does not list."""
    if not report["unlisted_sources"]:
        return []
    return ["", "## Pages the manifest does not list (its sources take them)", "",
            *markdown_table(("path", "version", "id init --update gives it", "why"),
                            [(_shown(u["path"]), u["version"], u["source_id"] or "-", u["message"])
                             for u in report["unlisted_sources"]])]


# --------------------------------------------------------------------------
# pin


_PIN_VALUE: Final = re.compile(r'"sha256"\s*:\s*"([0-9a-f]{64}|)"')


def _pin(args: argparse.Namespace) -> int:
    _check_ci_options(args)
    manifest = read_manifest(args.manifest, require_pins=False)
    quoted = shlex.quote(_shown(args.manifest))
    pins = []
    drift = []
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
                drift.append(PinDrift(entry, "hash_mismatch" if entry.sha256 else "invalid_sha256", digest,
                                      len(raw), hint))
    pages = unlisted_sources(manifest) if args.pin_check else []
    if args.pin_check and args.format in FORMATS:
        where = _locations(args, manifest.root)
        fix = f"{args.prog} pin --manifest {quoted}"
        add = f"{args.prog} init --update --manifest {quoted}"
        checks = (*pin_checks(manifest.entries, drift, where, manifest_file=os.path.basename(manifest.real_path),
                              fix=fix), *unlisted_checks(pages, where, fix=add))
        _write_report(args, Report("pin --check", checks), where)
        return exit_code("findings" if drift or pages else "ok")
    prune = (f"; remove its entry with: {args.prog} init --update --prune --manifest {quoted}"
             if manifest.sources is not None else "")
    for item in drift:
        print(printable(_drift_line(item, args.pin_check) + (prune if item.reason == "source_missing" else "")))
    if args.pin_check:
        for page in pages:
            print(f"unlisted {_shown(page['path'])}: {printable(page['message'])}")
        if not drift:
            print(f"all {len(manifest.entries)} pins are current")
        if pages:
            them = "it" if len(pages) == 1 else "them"
            print(f"{_plural(len(pages), 'page')} unlisted: add {them} with: {args.prog} init --update "
                  f"--manifest {quoted} (or exclude {them} in \"sources\")")
        return exit_code("findings" if drift or pages else "ok")
    target = Path(manifest.real_path)
    shown = _shown(args.manifest)
    if os.path.abspath(args.manifest) != str(target):
        shown += f" -> {_shown(target)}"
    if not drift:
        print(f"all {len(manifest.entries)} pins are current; {shown} unchanged")
        return exit_code("ok")
    text = target.read_bytes().decode("utf-8")
    write_atomically(target, _rewrite_pins(text, [e.sha256 for e in manifest.entries], pins))
    print(f"wrote {shown}: {_plural(len(drift), 'pin')} updated")
    return exit_code("ok")


def _drift_line(drift: PinDrift, check: bool) -> str:
    """One line of ``pin``'s text output for an entry whose pin changes (or, with ``check``, is stale)."""
    entry = drift.entry
    if drift.reason == "source_missing":
        return f"missing {entry.source_id} ({entry.path}): file does not exist"
    return (f"{'stale' if check else 'pinned'} {entry.source_id} ({entry.path}): {entry.sha256 or '(unpinned)'} "
            f"-> {drift.digest} ({drift.size} bytes)" + (f"; {drift.hint}" if drift.hint else ""))


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
        parts += [text[last:match.start(1)], pin]
        last = match.end(1)
    return "".join(parts) + text[last:]


# --------------------------------------------------------------------------
# init


#: Any line of the directive form, whatever the grammar (``init`` proposes a grammar from these).
_DIRECTIVE_LINE: Final = re.compile(
    rf"^@({NAME.pattern}) ({NAME.pattern}) ({NAME.pattern})=(\S+)\r?$", re.MULTILINE)


def _starter_grammar(texts: Sequence[str]) -> tuple[dict[str, Any], str]:
    """A grammar proposed from the directive lines found, or a placeholder; and a note on stderr.

    Proposed from every ``@<namespace> <operation> <key>=<value>`` line first,
    then again from only the lines that count as directives under that
    grammar (examples in code, and directive-shaped text elsewhere, left out).
    The first proposal is checked once, not once per page: linear in the pages.
    """
    found = [m.groups() for text in texts for m in _DIRECTIVE_LINE.finditer(text)]
    if not found:
        return ({"namespace": "example", "product": "Example", "operations": {"example_operation": {
            "example_key": {"type": "enum", "values": ["yes", "no"]}}}},
                "no directive lines found: the grammar is a placeholder to edit")
    namespace = Counter(ns for ns, _, _, _ in found).most_common(1)[0][0]
    grammar = _grammar_of(namespace, [(op, key, value) for ns, op, key, value in found if ns == namespace])
    try:
        proposed = grammar_from_json(grammar)
    except GrammarError:
        proposed = None
    counted = [] if proposed is None else [(c.operation, c.claim_key, c.value) for text in texts
                                           for c in read_directives(text, proposed).claims]
    if counted:
        grammar = _grammar_of(namespace, counted)
    count = sum(len(keys) for keys in grammar["operations"].values())
    return (grammar, f"grammar proposed from {_plural(len(counted) or len(found), 'directive line')} "
                     f"(namespace {namespace!r}, {_plural(count, 'key')}): review the values and integer bounds")


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
                rules[key] = {"type": "enum", "values": sorted(v for v in values if VALUE_TOKEN.fullmatch(v))
                              or ["yes", "no"]}
        grammar_ops[operation] = rules
    return {"namespace": namespace, "product": namespace.replace("-", " ").title(), "operations": grammar_ops}


def _sort_out(outcomes: Sequence[Outcome], left_out: list[tuple[str, str]]) -> list[Outcome]:
    """The pages to add; the ones left out appended to ``left_out``. Two pages wanting one id are
    refused (``duplicate_source_id``, naming both files): ``pin`` would refuse the manifest."""
    adds = []
    for outcome in outcomes:
        if outcome.action == "collision":
            raise IngestionError("duplicate_source_id", f"its source id {outcome.source_id!r} would also be "
                                 f"{printable(outcome.other or '')}'s: rename one of the two files or exclude "
                                 "one in \"sources\"; nothing written", path=outcome.page.path)
        if outcome.action == "left_out":
            left_out.append((outcome.page.path, outcome.why))
        elif outcome.action == "add":
            adds.append(outcome)
    return adds


def _read_pages(root: str, adds: Sequence[Outcome], left_out: list[tuple[str, str]]) -> list[tuple[Outcome, str]]:
    """Each page to add, read once through :class:`SourceFiles` with its text: ``(outcome, text)``.

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
            read.append((outcome, decode_source(raw, source_id=outcome.source_id, path=path)))
    return read


def _entry(outcome: Outcome, base_url: str | None) -> dict[str, str]:
    """A new manifest entry for a page: unpinned, approved (``status`` omitted)."""
    source_id = outcome.source_id or ""
    entry: dict[str, str] = {"source_id": source_id, "version": outcome.page.version, "path": outcome.page.path}
    if base_url:
        entry["url"] = base_url.rstrip("/") + "/" + source_id
    entry["sha256"] = ""
    return {key: entry[key] for key in ENTRY_FIELDS if key in entry}


def _report_pages(left_out: Sequence[tuple[str, str]], renamed: Sequence[Outcome]) -> None:
    for path, why in sorted(left_out, key=lambda item: folder_order(item[0])):
        print(f"left out: {_shown(path)}: {printable(why)}", file=sys.stderr)
    for outcome in renamed:
        print(f"id: {_shown(outcome.page.path)}: listed as {outcome.source_id!r}, since its path is not a "
              "source id (ASCII letters, digits, '.', '_', '-', '/'; a letter or digit first)", file=sys.stderr)


def _init(args: argparse.Namespace) -> int:
    if args.update:
        return _update(args)
    if args.prune:
        raise CliError("usage", f"--prune comes with --update (see '{args.prog} init --help')")
    if args.docs_dir is None or args.version_from is None:
        raise CliError("usage", f"init needs DOCS_DIR and --version-from, or --update --manifest M "
                                f"(see '{args.prog} init --help')")
    docs = Path(args.docs_dir)
    if not docs.is_dir():
        raise CliError("input", f"{_shown(docs)} is not a folder")
    problem = pattern_problem(args.version_from, include=True)
    if problem:
        raise CliError("usage", f"--version-from {problem}")
    manifest_path = Path(args.manifest) if args.manifest else docs / "manifest.json"
    check_output(manifest_path, create_only=True)
    root = os.path.realpath(manifest_path.parent)
    below = os.path.relpath(os.path.realpath(docs), root)
    if below == os.pardir or below.startswith(os.pardir + os.sep):
        raise CliError("input", f"no page under {_shown(docs)} can be listed: it is not inside the manifest's "
                                f"folder {_shown(root)}, to which every path in a manifest is relative; write "
                                "the manifest in DOCS_DIR or a folder above it; nothing written")
    include = args.version_from if below == os.curdir else below.replace(os.sep, "/") + "/" + args.version_from
    problem = pattern_problem(include, include=True)
    if problem:
        raise CliError("usage", f"the pattern of DOCS_DIR and --version-from seen from the manifest's folder "
                                f"{problem}")
    sources = Sources((Pattern.parse(include, include=True),))
    found = scan(root, sources)
    scheme = args.scheme or "auto"
    if scheme == "auto":
        versions = [page.version for page in found.pages]
        scheme = next((name for name in ("major.minor", "semver", "calver", "label")
                       if all(VERSION_SCHEMES[name].fits(v) for v in versions)), "label")
    left_out = list(found.left_out)
    outcomes = plan(found.pages, VERSION_SCHEMES[scheme], root, base=sources.id_base())
    pages = _read_pages(root, _sort_out(outcomes, left_out), left_out)
    if not pages:
        left_out.sort(key=lambda item: folder_order(item[0]))
        first = f" (first: {_shown(left_out[0][0])}: {printable(left_out[0][1])})" if left_out else ""
        raise CliError("input", f"no page under {_shown(docs)} fits {args.version_from!r}, the scheme "
                                f"{scheme!r} and the manifest's folder; {_plural(len(left_out), 'page')} "
                                f"left out{first}; nothing written")
    grammar, note = _starter_grammar([text for _, text in pages])
    manifest = {"grammar": grammar, "version_scheme": scheme, "sources": sources.written(),
                "documents": [_entry(outcome, args.base_url) for outcome, _ in pages]}
    write_atomically(manifest_path, render_json(manifest), create_only=True)
    _report_pages(left_out, [outcome for outcome, _ in pages if outcome.renamed])
    print(f"wrote {_shown(manifest_path)}: {_plural(len(pages), 'source')}, version scheme "
          f"{scheme!r}, unpinned; {note}", file=sys.stderr)
    print(f"next: edit the grammar (and any \"status\": \"draft\"), then run: "
          f"{args.prog} pin --manifest {shlex.quote(_shown(manifest_path))}", file=sys.stderr)
    return exit_code("ok")


def _base_url(entries: Sequence[Entry]) -> str | None:
    """The URL prefix every entry's ``url`` is (prefix + its id), or ``None`` when they follow none."""
    prefixes = {entry.url[:-len(entry.source_id)] if entry.url and entry.url.endswith(entry.source_id)
                else None for entry in entries}
    return prefixes.pop() if len(prefixes) == 1 else None


def _update(args: argparse.Namespace) -> int:
    """``init --update --manifest M [--prune]``: add the new pages of M's ``sources``, list (or
    remove) the gone ones, keep everything else byte for byte."""
    if args.docs_dir is not None or args.version_from is not None or args.scheme is not None:
        raise CliError("usage", "init --update takes no DOCS_DIR, --version-from or --scheme: the manifest's "
                                "\"sources\" and \"version_scheme\" say them")
    if args.manifest is None:
        raise CliError("usage", f"init --update needs --manifest M (see '{args.prog} init --help')")
    manifest = read_manifest(args.manifest, require_pins=False)
    shown, quoted = _shown(args.manifest), shlex.quote(_shown(args.manifest))
    if manifest.sources is None:
        raise CliError("usage", f"{shown} has no \"sources\", so init --update cannot tell which pages are its "
                                "own: add one, e.g. \"sources\": {\"include\": [\"{version}/**\"]} (see "
                                "reference/manifest.md), or edit \"documents\" by hand")
    root = manifest.root
    found = scan(root, manifest.sources)
    left_out = list(found.left_out)
    outcomes = plan(found.pages, manifest.version_scheme, root, manifest.entries, manifest.sources.id_base())
    pages = _read_pages(root, _sort_out(outcomes, left_out), left_out)
    gone = [entry for entry in manifest.entries if missing(root, entry.path)]
    base_url = args.base_url or _base_url(manifest.entries)
    new = [_entry(outcome, base_url) for outcome, _ in pages]
    removed = {entry.position for entry in gone} if args.prune else set()
    _report_pages(left_out, [outcome for outcome, _ in pages if outcome.renamed])
    for outcome, _ in pages:
        print(f"added {_shown(outcome.page.path)} as {outcome.source_id!r} (version "
              f"{printable(outcome.page.version)}, approved, unpinned)", file=sys.stderr)
    for entry in gone:
        print(f"{'removed' if args.prune else 'gone'} {_shown(entry.path)} ({entry.source_id!r}): the file "
              "no longer exists" + ("" if args.prune else "; run with --prune to remove its entry"),
              file=sys.stderr)
    if not new and not removed:
        kept = f"; {_plural(len(gone), 'gone entry')} kept" if gone else ""
        print(f"unchanged {shown}: no page to add{kept}", file=sys.stderr)
        return exit_code("ok")
    target = Path(manifest.real_path)
    text = target.read_bytes().decode("utf-8")
    if [entry.get("path") for entry in json.loads(text.lstrip("\ufeff"))["documents"]] != \
            [entry.path for entry in manifest.entries]:
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
    written = shown if os.path.abspath(args.manifest) == str(target) else f"{shown} -> {_shown(target)}"
    print(f"wrote {written}: {_plural(len(new), 'source')} added, {len(removed)} removed", file=sys.stderr)
    if new:
        print("next: review the new entries (\"status\": \"draft\" for a page not published yet; the grammar, "
              f"for new keys), then run: {args.prog} pin --manifest {quoted}", file=sys.stderr)
    return exit_code("ok")


# --------------------------------------------------------------------------
# grammar


def grammar_table(grammar: Grammar) -> list[str]:
    """The grammar as a Markdown table (operation, key, allowed values)."""
    return markdown_table(("operation", "key", "allowed values"),
                          [(f"`{op}`", f"`{key}`", rule.describe()) for op, key, rule in grammar.claims()])


def _grammar(args: argparse.Namespace) -> int:
    grammar = read_manifest(args.manifest, require_pins=False).grammar
    if args.format == "json":
        sys.stdout.write(render_json(grammar.summary()))
    else:
        print(f"{grammar.product}: directives are whole lines {grammar.form!r}\n")
        print("\n".join(grammar_table(grammar)))
    return exit_code("ok")


# --------------------------------------------------------------------------
# check-answer


def _check_answer(args: argparse.Namespace) -> int:
    corpus = _load(args)
    decision = load_decision(args.decision)
    if args.answer == "-":
        answer = sys.stdin.buffer.read(MAX_ANSWER_BYTES + 1)
    else:
        try:
            with open(args.answer, "rb") as handle:
                answer = handle.read(MAX_ANSWER_BYTES + 1)
        except OSError as error:
            raise CliError("input", f"cannot read {args.answer}: {error.strerror}") from None
    try:
        report = check_answer(corpus, decision, answer)
    except DecisionError as error:
        if error.path is not None:
            raise
        raise DecisionError(error.reason, error.detail, path=_shown(args.decision),
                            pointer=error.pointer) from None  # name the decision file
    sys.stdout.write(render_json(report))
    kinds = ", ".join(sorted({f["kind"] for f in report["findings"]})) or "no findings"
    print(f"{report['verdict']}: {kinds}", file=sys.stderr)
    return exit_code("ok" if report["verdict_class"] == "supported" else report["verdict_class"])


# --------------------------------------------------------------------------
# schema


def _schema(args: argparse.Namespace) -> int:
    sys.stdout.write(render_json(result_schema(args.name)))
    return exit_code("ok")


# --------------------------------------------------------------------------
# the parser


_MANIFEST_HELP: Final = (
    'manifest (paths relative to the folder that holds it; "sha256": "" until pin fills it in):\n'
    '  {"grammar": {"namespace": "acme", "product": "Acme", "operations": {"connect":\n'
    '      {"max-retries": {"type": "integer", "min": 0}}}},\n'
    '   "version_scheme": "semver", "sources": {"include": ["{version}/**"]},\n'
    '   "documents": [{"source_id": "guide", "version": "1.0.0", "path": "guide.md",\n'
    '                  "url": "https://...", "status": "approved", "sha256": ""}]}')


_CI_HELP: Final = (
    "CI formats: paths relative to the repository root (--root, else the nearest folder above the\n"
    "manifest's that holds .git, else the manifest's folder); github appends a summary to the file\n"
    "$GITHUB_STEP_SUMMARY names, when set. Details: reference/ci.md")
_ROOT_HELP: Final = ("with --format github|sarif|junit: the repository root paths are relative to "
                     "(default: the nearest folder above the manifest's that holds .git)")


def _codes(command: str) -> str:
    rows = sorted(EXIT_CODES[name] for name in COMMAND_EXIT_CODES[command])
    return "exit codes:\n" + "\n".join(f"  {code:>2}  {meaning}" for code, meaning in rows)


def _strict_option(parser: argparse.ArgumentParser, default: bool,
                   kept: str = "it is kept, refused, and refuses only the requests it is eligible for, "
                               "with a count on stderr") -> None:
    parser.add_argument("--strict", action=argparse.BooleanOptionalAction, default=default,
                        help="--strict: a source that fails verification (changed, missing, unreadable, "
                             f"not UTF-8, too large) stops the command (exit 6); --no-strict: {kept} "
                             f"(default: {'--strict' if default else '--no-strict'})")


def build_parser(*, prog: str = "conflict-gate", lab: bool = False) -> argparse.ArgumentParser:
    """The one argument parser, named ``prog`` in usage lines and hints. With ``lab`` (``run.py``
    in a checkout), the lab options too."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog=prog, formatter_class=raw,
        description="conflict-gate: decide, before any model is asked, whether an answer about a\n"
                    "versioned API may be prepared, and check the answer afterwards."
                    + ("\nWithout a command, run the lab cases over the Quill fixtures and print or save "
                       "the result." if lab else ""),
        epilog=_codes("run.py (the lab)") if lab else None)
    if lab:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--output", metavar="FILE", help="write the lab result here (atomically)")
        group.add_argument("--check", action="store_true",
                           help="compare a fresh lab run with expected-result.json; exit 1 on drift")
    parser.add_argument("--version", action="version", version=f"conflict-gate {__version__}",
                        help="print the program's version and exit (alone: a requested version goes "
                             "after the command, gate --version V)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=not lab)

    def command(name: str, summary: str, description: str, epilog: str = "") -> argparse.ArgumentParser:
        sub = commands.add_parser(name, prog=f"{prog} {name}", formatter_class=raw, help=summary,
                                  description=description,
                                  epilog="\n\n".join(part for part in (_codes(name), epilog) if part))
        return sub

    p = command("gate", "decide one request; print the result as JSON",
                "Decide one request over a manifest's sources; print the result as JSON on stdout.",
                f"which claims exist: {prog} grammar --manifest M\n\n" + _MANIFEST_HELP)
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--version", required=True, help="requested version, in the manifest's version scheme")
    p.add_argument("--claim", required=True, metavar="KEY", help="claim key")
    p.add_argument("--operation", help="operation (needed only when several operations have KEY)")
    _strict_option(p, True)
    p.add_argument("--set-aside-unrelated", action="store_true",
                   help="set aside eligible candidates about other operations (they declare no key of "
                        "this one): listed in set_aside_unrelated_ids, they take no part in the decision; "
                        "a candidate about the operation but silent on KEY still withholds "
                        "(default: every eligible candidate must declare KEY)")
    p.add_argument("source_ids", nargs="+", metavar="SOURCE_ID", help="candidate source ids")

    p = command("audit", "report agreement, conflicts, gaps and refusals",
                "Read every source and report, per version and operation, the approved pages about it "
                "(that declare a key of it) and per key whether they agree; refused pages, pages that "
                "fail verification (every one: exit 6), drafts that would conflict, near-misses.",
                _CI_HELP + "\n\n" + _MANIFEST_HELP)
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--format", choices=("markdown", "json", *FORMATS), default="markdown",
                   help="markdown (default) or json, with paths relative to the manifest's folder; or a CI "
                        "format: github (workflow commands), sarif (SARIF 2.1.0), junit (JUnit XML)")
    p.add_argument("--root", metavar="DIR", help=_ROOT_HELP)
    _strict_option(p, False, "every such source is reported with the rest, then the audit exits 6")

    p = command("pin", "recompute pins; rewrite the manifest (or --check)",
                "Recompute every source's sha256. Without --check, rewrite the changed pins in the "
                "manifest file (through a symlink, the file it names); with --check, change nothing.",
                _CI_HELP + "\n\n" + _MANIFEST_HELP)
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--check", action="store_true", dest="pin_check",
                   help="change nothing; exit 1 on a stale pin, a missing file or (with \"sources\") "
                        "a page the manifest does not list")
    p.add_argument("--format", choices=("text", *FORMATS), default="text",
                   help="with --check: text (default), or a CI format: github, sarif, junit")
    p.add_argument("--root", metavar="DIR", help=_ROOT_HELP)

    p = command("init", "write a starter manifest for a folder of Markdown pages, or bring one up to date",
                "Write a starter manifest (unpinned) listing every .md/.markdown file under DOCS_DIR "
                "whose path matches --version-from, with a grammar proposed from the directive lines "
                "found and \"sources\" recording the pattern; every file left out is named on stderr "
                "with why. Never overwrites a file.\n\n"
                "With --update, bring the manifest M up to date with its \"sources\": add the new pages "
                "(approved, unpinned: pin comes next) in path order, name the pages that are gone and "
                "remove their entries only with --prune; every other byte of M stays as it is.",
                "examples:\n  conflict-gate init docs --version-from '{version}/**' "
                "--base-url https://docs.example.com\n  conflict-gate init --update --manifest "
                "docs/manifest.json --prune")
    p.add_argument("docs_dir", metavar="DOCS_DIR", nargs="?", help="the folder of pages (not with --update)")
    p.add_argument("--version-from", metavar="PATTERN",
                   help="path pattern relative to DOCS_DIR with one {version}, e.g. '{version}/**' "
                        "(* within a folder, ** across folders, ? one character)")
    p.add_argument("--base-url", help="URL prefix; a page's URL is prefix + its id (with --update: "
                                      "default, the prefix every entry's url shares)")
    p.add_argument("--scheme", choices=("auto", *VERSION_SCHEMES), default=None,
                   help="version scheme (default: the first of major.minor, semver, calver, label that fits)")
    p.add_argument("--manifest", help="where to write it (default: DOCS_DIR/manifest.json); with "
                                      "--update, the manifest to update")
    p.add_argument("--update", action="store_true",
                   help="update the manifest M from its \"sources\" instead of writing a new one")
    p.add_argument("--prune", action="store_true",
                   help="with --update: remove the entries whose file no longer exists")

    p = command("grammar", "print the manifest's grammar",
                "Print the directive grammar the manifest declares: every operation, key and allowed value.")
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--format", choices=("table", "json"), default="table")

    p = command("check-answer", "check a model's answer against a decision",
                "Check an answer a model wrote from a ready decision's answer request: every claim "
                "cited at its line, quotes exact and attributed, the agreed value and the requested "
                "version stated, nothing else stated. Prints the verdict and every finding as JSON.",
                "verdicts, in precedence order: " + ", ".join(VERDICTS))
    p.add_argument("--manifest", required=True, help="path to the manifest the decision was made on")
    p.add_argument("--decision", required=True, help="the gate's result, as JSON (gate's stdout)")
    p.add_argument("--answer", required=True, help="the answer text, UTF-8 ('-' for stdin)")
    _strict_option(p, True)

    p = command("schema", "print the JSON Schema of a result",
                "Print the JSON Schema (draft 2020-12) of a result, to validate saved results or to "
                "type an integration: " + "; ".join(f"{name}: {what}" for name, (_, what) in SCHEMAS.items()) + ".")
    p.add_argument("name", choices=tuple(SCHEMAS), metavar="NAME", help="one of: " + ", ".join(SCHEMAS))
    parser.commands = frozenset(commands.choices)
    return parser


_COMMANDS: Final[Mapping[str, Callable[[argparse.Namespace], int]]] = {
    "gate": _gate, "audit": _audit, "pin": _pin, "init": _init, "grammar": _grammar,
    "check-answer": _check_answer, "schema": _schema,
}


def main(argv: Sequence[str] | None = None, *, prog: str = "conflict-gate",
         lab: Callable[[argparse.Namespace], int] | None = None,
         environ: Mapping[str, str] | None = None) -> int:
    """Run one command line; return its exit code (:data:`~_conflict_gate.registry.EXIT_CODES`).

    ``argv`` defaults to ``sys.argv[1:]``; ``prog`` is how the command is
    typed, used in usage lines and in every hint that tells what to run next
    (``conflict-gate``, ``python -m conflict_gate``, ``python run.py``). With
    ``lab`` (``run.py`` in a checkout), the lab's ``--output``/``--check`` run
    it when no command is given. ``environ`` is the environment a command
    reads (only ``GITHUB_STEP_SUMMARY``, by ``--format github``); it defaults
    to ``os.environ``, read here and nowhere else. A user error is one line on
    stderr, never a traceback.
    """
    manifest = "manifest.json" if lab is not None else "..."  # the lab's, beside run.py
    try:
        args = build_parser(prog=prog, lab=lab is not None).parse_args(argv)
        args.prog = prog
        args.environ = os.environ if environ is None else environ
        manifest = shlex.quote(_shown(args.manifest)) if getattr(args, "manifest", None) else manifest
        if args.command is None:
            if lab is None:  # argparse requires a command unless the lab is there
                raise CliError("usage", f"a command is required (see '{prog} --help')")
            code = lab(args)
        elif lab is not None and (args.output is not None or args.check):
            raise CliError("usage", f"--output and --check come without a command, not with {args.command!r}")
        else:
            code = _COMMANDS[args.command](args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return _fail(prog, "output", "standard output was closed before everything was written")
    except OSError as error:  # every file is read and written through typed errors: this is stdout
        _silence_stdout()
        return _fail(prog, "output", f"cannot write to standard output: {error.strerror or error}")
    except CliError as error:
        return _fail(prog, error.kind, str(error))
    except GateError as error:
        return _fail(prog, "usage", f"{error} [{error.reason}]")
    except GrammarError as error:
        return _fail(prog, "grammar", f"{error} [{error.reason}]")
    except DecisionError as error:
        return _fail(prog, "decision", f"{error} [{error.reason}]")
    except IngestionError as error:
        hint = ""
        if error.reason == "hash_mismatch":
            hint = f"; if the edit is intended, re-pin: {prog} pin --manifest {manifest}"
        elif error.reason == "invalid_sha256" and error.detail.endswith("got ''"):
            hint = f"; an empty sha256 means not pinned yet: {prog} pin --manifest {manifest}"
        return _fail(prog, "input", f"{error} [{error.reason}]{hint}")


def _silence_stdout() -> None:
    """After stdout failed, point it at the null device, so that the interpreter's last flush
    at exit cannot fail again with a traceback (Python's documented way for SIGPIPE)."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())


def _fail(prog: str, kind: str, message: str) -> int:
    print(f"{prog}: error: {printable(message)}", file=sys.stderr)
    return exit_code(kind)


if __name__ == "__main__":  # python -m _conflict_gate.cli
    sys.exit(main(prog="python -m _conflict_gate.cli"))
