"""conflict-gate command line: the lab run over the Quill fixtures, and tools for docs CI.

    python run.py --output result.json      run the lab cases, save the result
    python run.py --check                   compare a fresh run with expected-result.json
    python run.py gate --manifest M --version V --claim K ID [ID ...]
    python run.py audit --manifest M [--format markdown|json]
    python run.py pin --manifest M [--check]

A user error is one line on stderr and an exit code from :data:`EXIT_CODES`;
never a traceback. Nothing here sends anything to a model.
"""

from __future__ import annotations

import sys

if sys.version_info < (3, 10):  # before the imports that need 3.10, so the message is readable
    raise SystemExit("conflict-gate needs Python 3.10 or newer")

import argparse
import contextlib
import difflib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Mapping, NoReturn, Sequence

from conflict_gate import (
    AUDIT_STATUSES,
    DEFAULT_OPERATION,
    GRAMMAR,
    GateError,
    NAMESPACE,
    audit,
    gate,
    grammar_summary,
    refused_result,
)
from load_documents import (
    IngestionError,
    line_ending_hint,
    load_documents,
    read_manifest,
    read_source,
    resolve_source_path,
    source_digest,
)

HERE: Final = Path(__file__).resolve().parent
FIXTURE_MANIFEST: Final = HERE / "manifest.json"
EXPECTED_RESULT: Final = HERE / "expected-result.json"

#: name -> (exit code, meaning). The README's exit-code table lists these.
EXIT_CODES: Final[Mapping[str, tuple[int, str]]] = MappingProxyType({
    "ok": (0, "success: gate is ready, audit is clean, no drift"),
    "findings": (1, "--check found drift; audit found a conflict or a refused source; pin --check found a stale or missing pin"),
    "usage": (2, "usage or request error (bad arguments, GateError)"),
    "conflict": (3, "gate: conflict"),
    "not_in_docs": (4, "gate: not_in_docs"),
    "refused": (5, "gate: refused (a bad directive in an eligible source)"),
    "input": (6, "a manifest or source could not be loaded and verified (IngestionError)"),
    "output": (7, "the output file could not be written"),
})

#: The lab's controlled cases: (case id, candidate ids, requested version, claim key, what it shows).
LAB_CASES: Final = (
    ("newer-wrong-version-excluded", ("quill-guide", "quill-new-version"), "1.0", "existing_path",
     "a newer 2.0 source is excluded, never used as a fallback; the 1.0 guide alone decides"),
    ("compatible-agreement", ("quill-guide", "quill-reference"), "1.0", "existing_path",
     "two 1.0 sources declare the same value: ready, with a cited answer request"),
    ("same-version-conflict", ("quill-guide", "quill-conflicting-guide"), "1.0", "existing_path",
     "two 1.0 sources disagree: conflict, both claims kept, request withheld"),
    ("absent-version", ("quill-guide", "quill-new-version"), "3.0", "existing_path",
     "no candidate has 3.0: not_in_docs, listing the versions the candidates have"),
    ("missing-claim", ("quill-guide",), "1.0", "close_required",
     "the only eligible source never declares close_required: not_in_docs, not a guess"),
    ("partial-missing-claim", ("quill-guide", "quill-missing-claim"), "1.0", "existing_path",
     "one eligible source is silent: silence is not agreement, not_in_docs"),
    ("unknown-directive-value", ("quill-guide", "quill-unknown-value"), "1.0", "existing_path",
     "a value outside the grammar refuses the request"),
    ("malformed-directive", ("quill-guide", "quill-malformed"), "1.0", "existing_path",
     "a directive line that is not exact refuses the request"),
)
#: The changed-source case: a temporary copy whose file is edited without re-pinning.
CHANGED_SOURCE: Final = {
    "case_id": "changed-source",
    "source_id": "quill-guide",
    "edit": "in a temporary copy, the directive line 'existing_path=refuse' is changed to 'existing_path=overwrite' and the pin is left as it was",
    "candidate_ids": ("quill-guide", "quill-reference"),
    "requested_version": "1.0",
    "claim_key": "existing_path",
}
#: The edit: this directive line (it occurs once in the source) is replaced by the other.
CHANGED_LINE: Final = (b"\n@quill create_copy existing_path=refuse\n",
                       b"\n@quill create_copy existing_path=overwrite\n")
POLICY: Final = (
    "Every manifest source is verified against its pinned sha256 (raw bytes) before any decision.",
    "Only candidates whose version string equals the requested version are eligible; a newer version is never a fallback.",
    "Only exact whole-line directives outside fenced code count; any other line starting with '@' refuses its source.",
    "ready only when every eligible source declares the claim and all values agree; silence is not agreement.",
    "Candidate order, URLs and recency never pick a winner; conflicts keep every claim.",
    "The answer request is prepared only when ready and is never sent; the model is not called.",
)
LIMIT: Final = ("The gate compares declared directive values. It does not read prose, so a contradiction "
                "written only in words is not detected; and it cannot tell whether a declared value is true.")


class CliError(Exception):
    """A user error: one line on stderr and the exit code named by ``kind``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), not usage + message."""

    def error(self, message: str) -> NoReturn:
        raise CliError("usage", f"{message} (see '{self.prog} --help')")


# --------------------------------------------------------------------------
# The lab


def run_lab(manifest_path: Path = FIXTURE_MANIFEST) -> dict[str, Any]:
    """Run every lab case over the fixture corpus; return the saved-result dict.

    The fixture corpus is loaded and verified once; the changed-source case
    works on a temporary copy, so the fixtures are never touched.
    """
    corpus = load_documents(manifest_path)
    cases = []
    for case_id, candidates, version, claim_key, shows in LAB_CASES:
        cases.append({"case_id": case_id, "shows": shows, "candidate_ids": list(candidates),
                      "requested_version": version, "claim_key": claim_key,
                      "result": gate(corpus, list(candidates), version, claim_key)})
    return {
        "execution_mode": "offline and deterministic: pinned local fixtures, no network, answer requests built but never sent",
        "model_called": False,
        "fixture_kind": "fictional Quill SDK documentation (docs/), pinned by manifest.json",
        "grammar": grammar_summary(),
        "cases": cases,
        "changed_source": _changed_source_case(manifest_path),
        "policy": list(POLICY),
        "limit": LIMIT,
    }


def _changed_source_case(manifest_path: Path) -> dict[str, Any]:
    """Edit one fixture in a temporary copy without re-pinning it, then ask the gate.

    The loader must refuse the copy (``IngestionError`` / ``hash_mismatch``);
    that refusal is recorded in the shape of a refused gate result. The
    fixtures themselves are only read.
    """
    case = {**CHANGED_SOURCE, "candidate_ids": list(CHANGED_SOURCE["candidate_ids"])}
    with tempfile.TemporaryDirectory(prefix="conflict-gate-") as tmp:
        copy = Path(tmp) / manifest_path.name
        try:
            shutil.copytree(manifest_path.parent / "docs", Path(tmp) / "docs")
            shutil.copy2(manifest_path, copy)
        except (OSError, shutil.Error) as error:
            raise CliError("output", f"cannot copy the fixtures to a temporary folder: {error}") from None
        entry = next(e for e in read_manifest(copy) if e["source_id"] == case["source_id"])
        edited = Path(tmp) / entry["path"]
        before, after = CHANGED_LINE
        raw = edited.read_bytes()
        if raw.count(before) != 1:
            raise AssertionError(f"the changed-source edit expects one {before!r} in {entry['path']}")
        edited.write_bytes(raw.replace(before, after))
        try:
            result = gate(copy, case["candidate_ids"], case["requested_version"], case["claim_key"])
        except IngestionError as error:
            request = {"requested_version": case["requested_version"], "claim_key": case["claim_key"],
                       "operation": DEFAULT_OPERATION, "candidate_ids": case["candidate_ids"],
                       "eligible_source_ids": None, "excluded_wrong_version_ids": None}
            result = refused_result(request, error)
    return {**case, "result": result}


def render_json(data: Any) -> str:
    """Deterministic JSON text: insertion key order, 2-space indent, UTF-8, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temporary file in the same folder and ``os.replace``.

    An existing file is replaced only once the new content is fully written,
    so a failed run never destroys earlier output. Raises :class:`CliError`
    (``output``) when the folder is missing or not writable.
    """
    folder = path.parent
    if not folder.is_dir():
        raise CliError("output", f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise CliError("output", f"cannot write {path}: it is a directory")
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise CliError("output", f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as error:  # any failure, Ctrl-C included: never leave the temp file
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(error, OSError):
            raise CliError("output", f"cannot write {path}: {error.strerror}") from None
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _lab(args: argparse.Namespace) -> int:
    if not FIXTURE_MANIFEST.is_file():
        raise CliError("input", f"the lab runs from a checkout of conflict-gate: {FIXTURE_MANIFEST} "
                                "is not there; on your own docs use the gate, audit and pin commands")
    text = render_json(run_lab())
    if args.check:
        expected_bytes = EXPECTED_RESULT.read_bytes() if EXPECTED_RESULT.is_file() else b""
        if text.encode("utf-8") == expected_bytes:
            print(f"{EXPECTED_RESULT.name} is up to date")
            return EXIT_CODES["ok"][0]
        expected = expected_bytes.decode("utf-8", errors="replace")
        diff = difflib.unified_diff(expected.splitlines(keepends=True), text.splitlines(keepends=True),
                                    EXPECTED_RESULT.name, "fresh run")
        sys.stdout.writelines(list(diff)[:200])
        print(f"drift: a fresh run differs from {EXPECTED_RESULT.name}", file=sys.stderr)
        return EXIT_CODES["findings"][0]
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomically(Path(args.output), text)
        print(f"wrote {args.output}: {len(LAB_CASES)} cases and the changed-source case")
    return EXIT_CODES["ok"][0]


# --------------------------------------------------------------------------
# gate


def _gate(args: argparse.Namespace) -> int:
    corpus = load_documents(args.manifest)
    result = gate(corpus, args.source_ids, args.version, args.claim, operation=args.operation)
    sys.stdout.write(render_json(result))
    status = result["status"]
    if status == "not_in_docs" and result["reason"] == "no_eligible_version":
        have = ", ".join(result["candidate_versions"]) or "none (no candidates)"
        print(f"not_in_docs: no candidate has version {args.version}; candidates have: {have}",
              file=sys.stderr)
    elif status == "not_in_docs":
        missing = result["missing_claim_source_ids"]
        print(f"not_in_docs: {', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not declare "
              f"{args.operation} {args.claim}", file=sys.stderr)
    elif status == "conflict":
        values = ", ".join(f"{c['source_id']}={c['value']}" for c in result["claims"])
        print(f"conflict: {values}", file=sys.stderr)
    elif status == "refused":
        print(f"refused: {result['message']} [{result['reason']}]", file=sys.stderr)
    return EXIT_CODES["ok" if status == "ready" else status][0]


# --------------------------------------------------------------------------
# audit


def _audit(args: argparse.Namespace) -> int:
    report = audit(load_documents(args.manifest))
    if args.format == "json":
        sys.stdout.write(render_json(report))
    else:
        sys.stdout.write(render_audit_markdown(report, args.manifest))
    return EXIT_CODES["ok" if report["clean"] else "findings"][0]


_LINE_BREAKS: Final = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _cell(value: Any) -> str:
    """One GitHub-flavoured Markdown table cell: pipes escaped, line breaks made spaces.

    Runs of spaces are kept, so an indented directive still shows its indentation.
    """
    return _LINE_BREAKS.sub(" ", str(value)).replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return lines


def render_audit_markdown(report: Mapping[str, Any], manifest: str) -> str:
    """The audit as Markdown for a CI log or pull request; deterministic."""
    summary = report["summary"]
    verdict = "clean" if report["clean"] else "NOT CLEAN"
    counts = ", ".join(f"{summary[key]} {key}" for key in (*AUDIT_STATUSES, "refused", "near_misses"))
    shown = os.fsencode(manifest).decode("utf-8", "backslashreplace")  # a file name need not be UTF-8
    lines = [f"# conflict-gate audit: {shown}", "",
             f"{report['source_count']} source{'' if report['source_count'] == 1 else 's'}, versions {', '.join(report['versions']) or 'none'}: "
             f"**{verdict}** ({counts}).", ""]
    lines += ["## Claims", ""]
    lines += _table(("version", "claim", "status", "values", "sources", "silent", "refused"),
                    [(e["version"], f"{e['operation']} {e['claim_key']}", e["status"],
                      ", ".join(e["values"]), ", ".join(e["source_ids"]),
                      ", ".join(e["missing_source_ids"]) or "-",
                      ", ".join(e["refused_source_ids"]) or "-") for e in report["claims"]] or
                    [("-",) * 7])
    conflicts = [e for e in report["claims"] if e["status"] == "conflict"]
    if conflicts:
        lines += ["", "## Conflicts", ""]
        lines += _table(("version", "claim", "source", "location", "value", "quote"),
                        [(e["version"], f"{e['operation']} {e['claim_key']}", c["source_id"],
                          f"{c['path']}:{c['line']}", c["value"], _code(c["quote"]))
                         for e in conflicts for c in e["claims"]])
    if report["refused_sources"]:
        lines += ["", "## Refused sources", ""]
        lines += _table(("source", "location", "reason", "message"),
                        [(r["source_id"], _location(r), r["reason"], _code(r["message"]))
                         for r in report["refused_sources"]])
    if report["near_misses"]:
        lines += ["", "## Near-misses (directive text that counts for nothing)", ""]
        lines += _table(("source", "location", "where", "quote"),
                        [(n["source_id"], _location(n), n["where"], _code(n["quote"]))
                         for n in report["near_misses"]])
    return "\n".join(lines) + "\n"


def _code(text: str) -> str:
    """A CommonMark code span for ``text``: a backtick fence longer than any run inside it."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _location(item: Mapping[str, Any]) -> str:
    where = item["path"]
    if item.get("line") is not None:
        where += f":{item['line']}"
        if item.get("column") is not None:
            where += f":{item['column']}"
    return where


# --------------------------------------------------------------------------
# pin


def _pin(args: argparse.Namespace) -> int:
    manifest = Path(args.manifest)
    entries = read_manifest(manifest, require_pins=False)
    old_pins = [entry["sha256"] for entry in entries]
    root = os.path.realpath(manifest.resolve().parent)
    drift = []
    for entry in entries:
        try:
            raw = read_source(resolve_source_path(root, entry["path"], source_id=entry["source_id"]),
                              entry)
        except IngestionError as error:
            if not (args.pin_check and error.reason == "source_missing"):
                raise
            drift.append(f"missing {entry['source_id']} ({entry['path']}): file does not exist")
            continue
        digest = source_digest(raw)
        if digest == entry["sha256"]:
            continue
        old = entry["sha256"] or "(unpinned)"
        hint = line_ending_hint(raw, entry["sha256"]) if entry["sha256"] else ""
        drift.append(f"{'stale' if args.pin_check else 'pinned'} {entry['source_id']} ({entry['path']}): "
                     f"{old} -> {digest} ({len(raw)} bytes)" + (f"; {hint}" if hint else ""))
        entry["sha256"] = digest
    for line in drift:
        print(line)
    if args.pin_check:
        if not drift:
            print(f"all {len(entries)} pins are current")
        return EXIT_CODES["findings" if drift else "ok"][0]
    if drift:
        write_atomically(manifest, _rewrite_pins(manifest.read_bytes().decode("utf-8"), old_pins, entries))
    else:
        print(f"all {len(entries)} pins are current; {manifest} unchanged")
    return EXIT_CODES["ok"][0]


_PIN_VALUE: Final = re.compile(r'"sha256"\s*:\s*"([0-9a-f]{64}|)"')


def _rewrite_pins(text: str, old_pins: Sequence[str], entries: Sequence[Mapping[str, str]]) -> str:
    """``text`` with each entry's ``sha256`` value replaced in place; layout, key order, BOM and
    line endings untouched. Falls back to the canonical layout when the pins cannot be matched
    one-to-one, in order (e.g. a key written with JSON escapes)."""
    found = list(_PIN_VALUE.finditer(text))
    if [m.group(1) for m in found] != list(old_pins):
        return render_json({"documents": list(entries)})
    parts, last = [], 0
    for match, entry in zip(found, entries):
        parts += [text[last:match.start(1)], entry["sha256"]]
        last = match.end(1)
    return "".join(parts) + text[last:]


# --------------------------------------------------------------------------
# main


def _prog() -> str:
    """The command's name in messages: ``conflict-gate`` when installed, else ``run.py``."""
    return "conflict-gate" if Path(sys.argv[0]).name == "conflict-gate" else "run.py"


def build_parser() -> argparse.ArgumentParser:
    """The one argument parser: the lab options, and the gate/audit/pin commands."""
    def codes(*names: str) -> str:
        rows = sorted(EXIT_CODES[name] for name in names)
        return "exit codes:\n" + "\n".join(f"  {code}  {meaning}" for code, meaning in rows)

    manifest_help = ('manifest shape (paths relative to its folder; "sha256": "" until pin fills it in):\n'
                     '  {"documents": [{"source_id": "guide", "version": "1.0", "path": "guide.md",\n'
                     '                  "url": "https://...", "sha256": ""}]}')
    directive_help = (f"directives: whole lines '{grammar_summary()['directive']}' outside fenced code:\n"
                      + "\n".join(f"  @{NAMESPACE} {op} {key}={'|'.join(values)}"
                                   for op, keys in GRAMMAR.items() for key, values in keys.items()))
    raw = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog=_prog(), formatter_class=raw,
        usage="%(prog)s [-h] [--output FILE | --check]\n       %(prog)s {gate,audit,pin} ...",
        description="conflict-gate: decide, before any model is asked, whether an answer about a\n"
                    "versioned API may be prepared. Without a command, run the lab cases over the\n"
                    "Quill fixture corpus (docs/, manifest.json) and print or save the result.",
        epilog=codes(*EXIT_CODES))
    lab = parser.add_mutually_exclusive_group()
    lab.add_argument("--output", metavar="FILE",
                     help="write the lab result here (atomically); default: print it")
    lab.add_argument("--check", action="store_true",
                     help="compare a fresh lab run with expected-result.json; exit 1 on drift")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p_gate = commands.add_parser(
        "gate", prog=f"{_prog()} gate", formatter_class=raw, help="decide one request over your manifest; print JSON",
        description="Decide one request; print the result as JSON on stdout.",
        epilog="\n\n".join((codes("ok", "conflict", "not_in_docs", "refused", "usage", "input"),
                             manifest_help, directive_help)))
    p_gate.add_argument("--manifest", required=True, help="path to manifest.json")
    p_gate.add_argument("--version", required=True, help="requested version, MAJOR.MINOR")
    p_gate.add_argument("--claim", required=True,
                        choices=sorted({key for keys in GRAMMAR.values() for key in keys}),
                        help="claim key")
    p_gate.add_argument("--operation", default=DEFAULT_OPERATION, choices=list(GRAMMAR),
                        help=f"operation (default: {DEFAULT_OPERATION})")
    p_gate.add_argument("source_ids", nargs="+", metavar="SOURCE_ID", help="candidate source ids")

    p_audit = commands.add_parser(
        "audit", prog=f"{_prog()} audit", formatter_class=raw, help="report agreement, conflicts, gaps and refusals",
        description="Parse every source and report, per version, operation and key.",
        epilog="\n\n".join((codes("ok", "findings", "usage", "input"), manifest_help,
                             directive_help)))
    p_audit.add_argument("--manifest", required=True, help="path to manifest.json")
    p_audit.add_argument("--format", choices=("markdown", "json"), default="markdown")

    p_pin = commands.add_parser(
        "pin", prog=f"{_prog()} pin", formatter_class=raw, help="recompute pins; rewrite the manifest (or --check)",
        description="Recompute every source's sha256. Without --check, rewrite the changed pins "
                    "in place; with --check, change nothing.",
        epilog="\n\n".join((codes("ok", "findings", "usage", "input", "output"), manifest_help)))
    p_pin.add_argument("--manifest", required=True, help="path to manifest.json")
    p_pin.add_argument("--check", action="store_true", dest="pin_check",
                       help="change nothing; exit 1 on a stale pin or a missing file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for ``python run.py`` and the ``conflict-gate`` console script."""
    commands = {None: _lab, "gate": _gate, "audit": _audit, "pin": _pin}
    args = None
    try:
        args = build_parser().parse_args(argv)
        if args.command is not None and (args.output is not None or args.check):
            raise CliError("usage", f"--output and --check come without a command, not with {args.command!r}")
        return commands[args.command](args)
    except CliError as error:
        return _fail(error.kind, str(error))
    except GateError as error:
        return _fail("usage", f"{error} [{error.reason}]")
    except IngestionError as error:
        hint = ""
        if args is not None and args.command in ("gate", "audit"):
            pin = f"{_prog()} pin --manifest {args.manifest}"
            if error.reason == "hash_mismatch":
                hint = f"; if the edit is intended, re-pin: {pin}"
            elif error.reason == "invalid_sha256" and error.detail.endswith("got ''"):
                hint = f"; an empty sha256 means not pinned yet: {pin}"
        return _fail("input", f"{error} [{error.reason}]{hint}")


def _fail(kind: str, message: str) -> int:
    print(f"{_prog()}: error: {message}", file=sys.stderr)
    return EXIT_CODES[kind][0]


if __name__ == "__main__":
    sys.exit(main())
