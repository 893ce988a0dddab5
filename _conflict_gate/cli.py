"""The ``conflict-gate`` command line: gate, audit, pin, init, grammar, check-answer and schema.

    conflict-gate gate --manifest M --version V --claim KEY [--operation OP] ID [ID ...]
    conflict-gate audit --manifest M [--format markdown|json]
    conflict-gate pin --manifest M [--check]
    conflict-gate init DOCS_DIR --version-from PATTERN [--base-url URL] [--scheme S]
    conflict-gate grammar --manifest M [--format table|json]
    conflict-gate check-answer --manifest M --decision D.json --answer A.txt
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
from .corpus import SourceFiles, decode_source, line_ending_hint, load_documents, source_digest
from .decision import audit, gate
from .errors import DecisionError, GateError, GrammarError, IngestionError, printable
from .grammar import CANONICAL_INTEGER, NAME, VALUE_TOKEN, Grammar, grammar_from_json
from .jsondata import render_json
from .manifest import ENTRY_FIELDS, SOURCE_ID, VERSION_SCHEMES, read_manifest
from .reader import read_directives
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
    corpus = load_documents(args.manifest)
    operation = _claim_operation(corpus.grammar, args.claim, args.operation, args.manifest, args.prog)
    result = gate(corpus, args.source_ids, args.version, operation, args.claim)
    sys.stdout.write(render_json(result))
    status, reason = result["status"], result["reason"]
    if reason == "no_eligible_version":
        have = ", ".join(result["candidate_versions"]) or "none (no candidates)"
        print(f"not_in_docs: no candidate has version {args.version}; candidates have: {have}",
              file=sys.stderr)
    elif reason == "no_approved_source":
        print(f"not_in_docs: no approved candidate has version {args.version} (set aside: "
              f"{', '.join(result['excluded_unapproved_ids'])})", file=sys.stderr)
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
    report = audit(load_documents(args.manifest))
    if args.format == "json":
        sys.stdout.write(render_json(report))
    else:
        sys.stdout.write(render_audit_markdown(report, args.manifest))
    return exit_code("ok" if report["clean"] else "findings")


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
    """The audit as Markdown for a CI log or a pull request; deterministic."""
    summary = report["summary"]
    verdict = "clean" if report["clean"] else "NOT CLEAN"
    counts = ", ".join(f"{summary[key]} {key}" for key in
                       (*AUDIT_STATUSES, "refused", "unapproved_conflicts", "near_misses"))
    count = report["source_count"]
    lines = [f"# conflict-gate audit: {_shown(manifest)}", "",
             f"{count} source{'' if count == 1 else 's'}, versions {', '.join(report['versions']) or 'none'}: "
             f"**{verdict}** ({counts}).", "", "## Claims (approved sources)", ""]
    lines += markdown_table(("version", "claim", "status", "values", "sources", "silent", "refused"),
                            [(e["version"], f"{e['operation']} {e['claim_key']}", e["status"],
                              ", ".join(e["values"]), ", ".join(e["source_ids"]),
                              ", ".join(e["missing_source_ids"]) or "-",
                              ", ".join(e["refused_source_ids"]) or "-") for e in report["claims"]]
                            or [("-",) * 7])
    conflicts = [e for e in report["claims"] if e["status"] == "conflict"]
    if conflicts:
        lines += ["", "## Conflicts", ""]
        lines += markdown_table(("version", "claim", "source", "location", "value", "quote"),
                                [(e["version"], f"{e['operation']} {e['claim_key']}", c["source_id"],
                                  f"{c['path']}:{c['line']}", c["value"], _code(c["quote"]))
                                 for e in conflicts for c in e["claims"]])
    if report["refused_sources"]:
        lines += ["", "## Refused sources", ""]
        lines += markdown_table(("source", "status", "location", "reason", "message"),
                                [(r["source_id"], r["status"], _location(r), r["reason"], _code(r["message"]))
                                 for r in report["refused_sources"]])
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
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# pin


_PIN_VALUE: Final = re.compile(r'"sha256"\s*:\s*"([0-9a-f]{64}|)"')


def _pin(args: argparse.Namespace) -> int:
    manifest = read_manifest(args.manifest, require_pins=False)
    pins = []
    drift = []
    with SourceFiles(manifest.root) as files:
        for entry in manifest.entries:
            try:
                raw = files.read(entry)
            except IngestionError as error:
                if not (args.pin_check and error.reason == "source_missing"):
                    raise
                drift.append(f"missing {entry.source_id} ({entry.path}): file does not exist")
                pins.append(entry.sha256)
                continue
            decode_source(raw, source_id=entry.source_id, path=entry.path)  # pin only what loads
            digest = source_digest(raw)
            pins.append(digest)
            if digest != entry.sha256:
                old = entry.sha256 or "(unpinned)"
                hint = line_ending_hint(raw, entry.sha256) if entry.sha256 else ""
                drift.append(f"{'stale' if args.pin_check else 'pinned'} {entry.source_id} ({entry.path}): "
                             f"{old} -> {digest} ({len(raw)} bytes)" + (f"; {hint}" if hint else ""))
    for line in drift:
        print(printable(line))
    if args.pin_check:
        if not drift:
            print(f"all {len(manifest.entries)} pins are current")
        return exit_code("findings" if drift else "ok")
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


_MARKDOWN_SUFFIXES: Final = (".md", ".markdown")
#: Any line of the directive form, whatever the grammar (``init`` proposes a grammar from these).
_DIRECTIVE_LINE: Final = re.compile(
    rf"^@({NAME.pattern}) ({NAME.pattern}) ({NAME.pattern})=(\S+)\r?$", re.MULTILINE)


def _version_pattern(pattern: str) -> re.Pattern[str]:
    """``'{version}/**'`` -> a regular expression over a relative path (``*`` within a folder, ``**`` across)."""
    if pattern.count("{version}") != 1:
        raise CliError("usage", f"--version-from must hold '{{version}}' once, got {pattern!r}")
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("{version}", i):
            out.append(r"(?P<version>[^/]+)")
            i += len("{version}")
        elif pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def _starter_grammar(texts: Sequence[str]) -> tuple[dict[str, Any], str]:
    """A grammar proposed from the directive lines found, or a placeholder; and a note on stderr.

    Proposed from every ``@<namespace> <operation> <key>=<value>`` line first,
    then again from only the lines that count as directives under that
    grammar (examples in code, and directive-shaped text elsewhere, left out).
    """
    found = [m.groups() for text in texts for m in _DIRECTIVE_LINE.finditer(text)]
    if not found:
        return ({"namespace": "example", "product": "Example", "operations": {"example_operation": {
            "example_key": {"type": "enum", "values": ["yes", "no"]}}}},
                "no directive lines found: the grammar is a placeholder to edit")
    namespace = Counter(ns for ns, _, _, _ in found).most_common(1)[0][0]
    grammar = _grammar_of(namespace, [(op, key, value) for ns, op, key, value in found if ns == namespace])
    try:
        counted = [(c.operation, c.claim_key, c.value) for text in texts
                   for c in read_directives(text, grammar_from_json(grammar)).claims]
    except GrammarError:
        counted = []
    if counted:
        grammar = _grammar_of(namespace, counted)
    count = sum(len(keys) for keys in grammar["operations"].values())
    return (grammar, f"grammar proposed from {_plural(len(counted) or len(found), 'directive line')} "
                     f"(namespace {namespace!r}, {_plural(count, 'key')}): review the values and integer bounds")


def _grammar_of(namespace: str, claims: Sequence[tuple[str, str, str]]) -> dict[str, Any]:
    """Grammar JSON allowing exactly ``(operation, key, value)`` claims: integers, else enumerations."""
    operations: dict[str, dict[str, list[str]]] = {}
    for operation, key, value in claims:
        if NAME.fullmatch(operation) and NAME.fullmatch(key):
            values = operations.setdefault(operation, {}).setdefault(key, [])
            if value not in values:
                values.append(value)
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


def _init(args: argparse.Namespace) -> int:
    docs = Path(args.docs_dir)
    if not docs.is_dir():
        raise CliError("input", f"{docs} is not a folder")
    manifest_path = Path(args.manifest) if args.manifest else docs / "manifest.json"
    root = manifest_path.resolve().parent
    pattern = _version_pattern(args.version_from)
    matched: list[tuple[str, str, str]] = []  # (relative to docs, relative to the manifest folder, version)
    left_out = []
    files = sorted(p for p in docs.rglob("*") if p.suffix.lower() in _MARKDOWN_SUFFIXES and p.is_file())
    real_files = {p.resolve() for p in files if not p.is_symlink()}
    for path in files:
        in_docs = path.relative_to(docs).as_posix()
        if path.is_symlink() and path.resolve() in real_files:
            left_out.append(f"{in_docs}: a link to {path.resolve().relative_to(docs.resolve()).as_posix()}, "
                            "which is listed (one file must not count twice)")
            continue
        try:
            relative = path.resolve().relative_to(root).as_posix()
        except ValueError:
            left_out.append(f"{in_docs}: outside the manifest's folder {root}")
            continue
        match = pattern.fullmatch(in_docs)
        source_id = in_docs.rsplit(".", 1)[0]
        if match is None:
            left_out.append(f"{in_docs}: does not match {args.version_from!r}")
        elif not SOURCE_ID.fullmatch(source_id):
            left_out.append(f"{in_docs}: {source_id!r} is not a valid source id "
                            "(ASCII letters, digits, '.', '_', '-', '/')")
        else:
            matched.append((in_docs, relative, match.group("version")))
    versions = [version for _, _, version in matched]
    scheme = args.scheme
    if scheme == "auto":
        scheme = next((name for name in ("major.minor", "semver", "calver", "label")
                       if all(VERSION_SCHEMES[name].fits(v) for v in versions)), "label")
    fits = VERSION_SCHEMES[scheme]
    documents = []
    texts = []
    for in_docs, relative, version in matched:
        if not fits.fits(version):
            left_out.append(f"{in_docs}: version {version!r} does not fit the scheme {scheme!r}")
            continue
        entry: dict[str, str] = {"source_id": in_docs.rsplit(".", 1)[0], "version": version,
                                 "path": relative}
        if args.base_url:
            entry["url"] = args.base_url.rstrip("/") + "/" + entry["source_id"]
        entry["sha256"] = ""
        documents.append({key: entry[key] for key in ENTRY_FIELDS if key in entry})
        texts.append((docs / in_docs).read_text(encoding="utf-8", errors="replace"))
    check_output(manifest_path, create_only=True)
    if not documents:
        first = f" (first: {left_out[0]})" if left_out else ""
        raise CliError("input", f"no page under {_shown(docs)} fits {args.version_from!r}, the scheme "
                                f"{scheme!r} and the manifest's folder; {_plural(len(left_out), 'page')} "
                                f"left out{first}; nothing written")
    grammar, note = _starter_grammar(texts)
    manifest = {"grammar": grammar, "version_scheme": scheme, "documents": documents}
    write_atomically(manifest_path, render_json(manifest), create_only=True)
    for line in left_out:
        print(f"left out: {printable(line)}", file=sys.stderr)
    print(f"wrote {_shown(manifest_path)}: {_plural(len(documents), 'source')}, version scheme "
          f"{scheme!r}, unpinned; {note}", file=sys.stderr)
    print(f"next: edit the grammar (and any \"status\": \"draft\"), then run: "
          f"{args.prog} pin --manifest {shlex.quote(_shown(manifest_path))}", file=sys.stderr)
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
    corpus = load_documents(args.manifest)
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
    '   "version_scheme": "semver",\n'
    '   "documents": [{"source_id": "guide", "version": "1.0.0", "path": "guide.md",\n'
    '                  "url": "https://...", "status": "approved", "sha256": ""}]}')


def _codes(command: str) -> str:
    rows = sorted(EXIT_CODES[name] for name in COMMAND_EXIT_CODES[command])
    return "exit codes:\n" + "\n".join(f"  {code:>2}  {meaning}" for code, meaning in rows)


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
    p.add_argument("source_ids", nargs="+", metavar="SOURCE_ID", help="candidate source ids")

    p = command("audit", "report agreement, conflicts, gaps and refusals",
                "Read every source and report, per version, operation and key.", _MANIFEST_HELP)
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--format", choices=("markdown", "json"), default="markdown")

    p = command("pin", "recompute pins; rewrite the manifest (or --check)",
                "Recompute every source's sha256. Without --check, rewrite the changed pins in the "
                "manifest file (through a symlink, the file it names); with --check, change nothing.",
                _MANIFEST_HELP)
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--check", action="store_true", dest="pin_check",
                   help="change nothing; exit 1 on a stale pin or a missing file")

    p = command("init", "write a starter manifest for a folder of Markdown pages",
                "Write a starter manifest (unpinned) listing every .md/.markdown file under DOCS_DIR "
                "whose path matches --version-from, with a grammar proposed from the directive lines "
                "found. Never overwrites a file.",
                "example: conflict-gate init docs --version-from '{version}/**' "
                "--base-url https://docs.example.com")
    p.add_argument("docs_dir", metavar="DOCS_DIR")
    p.add_argument("--version-from", required=True, metavar="PATTERN",
                   help="path pattern relative to DOCS_DIR with one {version}, e.g. '{version}/**'")
    p.add_argument("--base-url", help="URL prefix; a page's URL is prefix + its id")
    p.add_argument("--scheme", choices=("auto", *VERSION_SCHEMES), default="auto",
                   help="version scheme (default: the first of major.minor, semver, calver, label that fits)")
    p.add_argument("--manifest", help="where to write it (default: DOCS_DIR/manifest.json)")

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
         lab: Callable[[argparse.Namespace], int] | None = None) -> int:
    """Run one command line; return its exit code (:data:`~_conflict_gate.registry.EXIT_CODES`).

    ``argv`` defaults to ``sys.argv[1:]``; ``prog`` is how the command is
    typed, used in usage lines and in every hint that tells what to run next
    (``conflict-gate``, ``python -m conflict_gate``, ``python run.py``). With
    ``lab`` (``run.py`` in a checkout), the lab's ``--output``/``--check`` run
    it when no command is given. A user error is one line on stderr, never a
    traceback.
    """
    manifest = "manifest.json" if lab is not None else "..."  # the lab's, beside run.py
    try:
        args = build_parser(prog=prog, lab=lab is not None).parse_args(argv)
        args.prog = prog
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
