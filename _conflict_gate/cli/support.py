"""What every command of the command line shares: user errors, exit codes, safe output files,
printable paths, loading the corpus as ``--strict`` says, and the CI formats' options (no parsing).

A user error is a :class:`CliError`: one line on stderr and the exit code its ``kind`` names in
:data:`~_conflict_gate.base.registry.EXIT_CODES`. Files are written by :func:`write_atomically` only.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import shlex
import stat
import sys
import threading
from collections.abc import Collection, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TextIO, cast

from ..base.errors import (
    DecisionError,
    GateError,
    GrammarError,
    IngestionError,
    LocatedError,
    defuse_commands,
    printable,
)
from ..base.registry import CI_FORMATS, EXIT_CODES
from ..corpus.load import Corpus, load_with

if TYPE_CHECKING:  # imported where used: the CI formats' module by the functions that render them
    from pathlib import Path

    from .ci import Locations, Report

__all__ = [
    "ERROR_KINDS",
    "CliError",
    "DefusedLines",
    "check_ci_options",
    "check_output",
    "ci_locations",
    "defused",
    "error_line",
    "exit_code",
    "failed_line",
    "load_corpus",
    "located_error",
    "plural",
    "printable_path",
    "shown_manifest",
    "write_atomically",
    "write_report",
]


class CliError(Exception):
    """A user error: one line on stderr and the exit code named by ``kind`` (a key of EXIT_CODES)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def exit_code(name: str) -> int:
    return EXIT_CODES[name][0]


#: The typed errors a command reports as a user error, and the exit-code name of each.
ERROR_KINDS: Final[Mapping[type[LocatedError], str]] = MappingProxyType(
    {GateError: "usage", GrammarError: "grammar", DecisionError: "decision", IngestionError: "input"}
)


#: A ``repr``'s escape of a surrogate-escaped byte (``'quill-\\udcff'``), not after an escaped backslash.
_REPR_BYTE: Final = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def error_line(prog: str, message: str) -> str:
    """A user error as the command line prints it: ``PROG: error: MESSAGE``, one printable line. An
    undecodable byte of an argument or a file name is written ``\\xff`` wherever the message holds it,
    in a path (:func:`~_conflict_gate.base.errors.printable`) or in a quoted id or value (``repr``'s
    ``\\udcff``), as JSON results write it."""
    shown = _REPR_BYTE.sub(r"\1\\x\2", printable(message))
    return f"{prog}: error: {shown}"


def shown_manifest(path: str | os.PathLike[str]) -> str:
    """A manifest path as a hint shows it in a command to type: printable, quoted for a shell."""
    return shlex.quote(printable_path(path))


def located_error(error: LocatedError, *, prog: str, manifest: str) -> tuple[str, str]:
    """``(exit-code name, line)`` for a typed error of :data:`ERROR_KINDS`: the line is
    :func:`error_line` of the message and ``[reason]``, with the fix for an unpinned or stale source
    (``manifest`` as :func:`shown_manifest` gives it). The command line prints it; the MCP server's
    error results carry it as their text, so both say exactly the same."""
    kind = next(name for cls, name in ERROR_KINDS.items() if isinstance(error, cls))
    fix = ingestion_fix(error, prog=prog, manifest=manifest) if isinstance(error, IngestionError) else ""
    return kind, error_line(prog, f"{error} [{error.reason}]" + (f"; {fix}" if fix else ""))


def ingestion_fix(error: IngestionError, *, prog: str, manifest: str) -> str:
    """The command that fixes ``error`` (a stale pin, no pin yet, a page gone, a page not UTF-8), in words,
    or ``""``."""
    if error.reason == "hash_mismatch":
        return f"if the edit is intended, re-pin: {prog} pin --manifest {manifest}"
    if error.reason == "source_unpinned":
        return f"review the page, then pin it: {prog} pin --manifest {manifest}"
    if error.reason in ("reading_unusable", "readings_unreadable"):
        return (
            f"build the site, then record the readings again: {prog} pin --manifest {manifest} --site DIR (the "
            "built site, or the folder of its configuration)"
        )
    if error.reason == "source_missing":
        return (
            f'restore the file, or remove its entry from the manifest (with "sources": '
            f"{prog} init --update --prune --manifest {manifest})"
        )
    if error.reason == "source_not_utf8":
        return "pages are read as UTF-8 only: save the file as UTF-8, or leave it out of the manifest"
    return ""


def check_output(path: Path, *, create_only: bool = False) -> None:
    """Raise :class:`CliError` (``output``) unless :func:`write_atomically` may write ``path``: its
    folder exists, and it is absent or a regular file (absent with ``create_only``)."""
    if not path.parent.is_dir():
        raise CliError("output", f"cannot write {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise CliError("output", f"cannot write {path}: it is a directory")
    if create_only and os.path.lexists(path):
        raise CliError(
            "output",
            f"{path} exists; init never overwrites a file (to bring a manifest up to "
            "date with its pages: init --update --manifest M)",
        )
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise CliError(
            "output",
            f"cannot write {path}: it is not a regular file (a symlink, pipe or "
            "device would be replaced); name a regular file",
        )


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
            raise CliError(
                "output",
                f"{path} exists; init never overwrites a file (to bring a manifest up to "
                "date with its pages: init --update --manifest M)",
            ) from None
        if isinstance(error, OSError):
            raise CliError("output", f"cannot write {path}: {error.strerror}") from None
        raise


def _temporary_file(path: Path) -> tuple[int, str]:
    """A new file beside ``path``, created exclusively with mode ``0o666`` (the umask applies)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    import secrets  # (base64, hmac, random: only when a file is written)

    for _ in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path.parent))


def printable_path(path: str | os.PathLike[str]) -> str:
    """A path as one printable line (a file name need not be UTF-8 and may hold a newline)."""
    return printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def load_corpus(args: argparse.Namespace, *, warn: bool = True, only: Collection[str] | None = None) -> Corpus:
    """The corpus of ``args.manifest``, loaded as ``args.strict``, ``args.cache`` and ``args.jobs`` say
    (the default cache folder from ``args.environ``; a cache warning is one line on stderr); with
    ``only``, just those sources (:func:`~_conflict_gate.corpus.load.load_with`). A non-strict load that
    kept failed sources says so in one line on stderr, with ``warn`` (``audit`` ends with an error
    instead)."""
    corpus = load_with(
        args.manifest,
        strict=args.strict,
        cache=getattr(args, "cache", None),
        jobs=getattr(args, "jobs", 1),
        environ=args.environ,
        only=only,
        warn=lambda message: print(f"{args.prog}: warning: {printable(message)}", file=sys.stderr),
    )
    if corpus.failed and warn:
        print(
            f"{args.prog}: warning: {failed_line(corpus, args)}; each refuses the requests it is eligible for",
            file=sys.stderr,
        )
    return corpus


def failed_line(corpus: Corpus, args: argparse.Namespace) -> str:
    """``N of M sources failed verification (first: MESSAGE [REASON])``, printable, with the fix of each
    reason among them (:func:`ingestion_fix`: a re-pin fixes a stale page, not a page that is gone)."""
    failed = corpus.failed
    first = failed[0].refusal
    assert first is not None
    read = plural(len(corpus), "source" if corpus.complete else "candidate source")  # gate, check-answer: theirs only
    line = f"{len(failed)} of {read} failed verification (first: {first} [{first.reason}])"
    fixes: dict[str, str] = {}  # reason -> its fix, in the order the failed pages come
    for source in failed:
        refusal = source.refusal
        if isinstance(refusal, IngestionError) and refusal.reason not in fixes:
            fixes[refusal.reason] = ingestion_fix(refusal, prog=args.prog, manifest=shown_manifest(args.manifest))
    named = len(fixes) > 1  # more than one reason: each fix says which it is for
    line += "".join(f"; [{reason}] {fix}" if named else f"; {fix}" for reason, fix in fixes.items() if fix)
    return printable(line)


def check_ci_options(args: argparse.Namespace) -> None:
    """Usage errors of ``--format`` and ``--root``, found before anything is read."""
    if args.format not in CI_FORMATS:
        if args.root is not None:
            raise CliError(
                "usage",
                f"--root applies to --format {', '.join(CI_FORMATS)} only (the {args.format} "
                "output keeps paths relative to the manifest's folder)",
            )
        return
    if args.command == "pin" and not args.pin_check:
        raise CliError("usage", f"--format {args.format} reports what pin --check finds: add --check")
    if args.root is not None and not os.path.isdir(args.root):
        raise CliError("usage", f"--root {printable_path(args.root)}: not a folder")


def ci_locations(args: argparse.Namespace, manifest_folder: str) -> Locations:
    """Where the manifest's folder sits: under ``--root``, else under the nearest folder above it that
    holds ``.git``, else the manifest's folder itself."""
    from .ci import Locations, repository_root

    root = args.root if args.root is not None else repository_root(manifest_folder) or manifest_folder
    where = Locations.within(root, manifest_folder)
    if where is None:
        raise CliError(
            "usage",
            f"--root {printable_path(args.root)}: the manifest's folder {printable_path(manifest_folder)} "
            "is not inside it",
        )
    return where


def write_report(args: argparse.Namespace, report: Report, where: Locations) -> None:
    """Print ``report`` in ``args.format``; with ``github``, append the step summary to the file
    ``$GITHUB_STEP_SUMMARY`` of ``args.environ`` names, when set (a failure there: exit 7, after the
    annotations are printed)."""
    from pathlib import Path

    from .ci import render_github, render_junit, render_sarif

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
    from .ci import SUMMARY_LIMIT, github_summary

    try:
        before = os.stat(path)
    except FileNotFoundError:
        size = 0
    except OSError as error:
        raise CliError("output", f"cannot write the step summary {printable_path(path)}: {error.strerror}") from None
    else:
        if not stat.S_ISREG(before.st_mode):
            raise CliError("output", f"cannot write the step summary {printable_path(path)}: it is not a regular file")
        size = before.st_size
    text = github_summary(report, SUMMARY_LIMIT - size)
    if not text:
        print(
            f"summary: not appended: {printable_path(path)} already holds {size} bytes of GitHub's 1 MiB",
            file=sys.stderr,
        )
        return False
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as error:
        raise CliError("output", f"cannot write the step summary {printable_path(path)}: {error.strerror}") from None
    return True


# --------------------------------------------------------------------------
# No workflow command in what the command line prints


class DefusedLines:
    """A text stream that passes whole lines on to ``stream``, each defused
    (:func:`~_conflict_gate.base.errors.defuse_commands`): no line it writes holds ``::`` or ``##[``, so GitHub's
    runner, which reads every line of a step's stdout and stderr, finds no workflow command in it.

    A write is held until its line ends (a mark could straddle two writes); :meth:`close` writes a last
    line that has no line ending and leaves ``stream`` open. Anything else (``fileno``, ``encoding``)
    is ``stream``'s: bytes written to the file descriptor directly are not defused."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.pending = ""
        self._lock = threading.Lock()  # the MCP server's threads may log at once

    def write(self, text: str) -> int:
        with self._lock:
            self.pending += text
            if "\n" in text:
                done, _, self.pending = self.pending.rpartition("\n")
                self._put(done + "\n")
        return len(text)

    def _put(self, text: str) -> None:
        """Write ``text`` defused. When the stream cannot encode it (a lone surrogate from a file name
        that is not UTF-8, on a stdout whose errors are strict), every character but ASCII is written
        as its backslash escape instead, rather than failing the command after its work is done."""
        text = defuse_commands(text)
        try:
            self.stream.write(text)
        except UnicodeEncodeError:  # nothing was written: the stream encodes the whole text first
            self.stream.write(text.encode("ascii", "backslashreplace").decode("ascii"))

    def flush(self) -> None:
        self.stream.flush()  # a partial line waits for its end: a mark may be cut in two

    def close(self) -> None:
        with self._lock:
            pending, self.pending = self.pending, ""
            if pending:
                self._put(pending)
        self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def defused(name: str) -> Iterator[None]:
    """Inside the block, ``sys.stdout`` or ``sys.stderr`` (``name``) is a :class:`DefusedLines` over the
    stream it was; the stream is put back at the end, after the last line is written, whatever happens."""
    original = cast(TextIO, getattr(sys, name))
    lines = DefusedLines(original)
    setattr(sys, name, lines)
    try:
        yield
    finally:
        setattr(sys, name, original)
        lines.close()
