"""The ``conflict-gate`` command line: gate, audit, pin, init, grammar, check-answer, versions, mcp and schema.

    conflict-gate gate --manifest M --version V --claim KEY [--operation OP] [--no-strict]
                       [--set-aside-unrelated] [--question TEXT] [--site DIR] ID [ID ...]
    conflict-gate audit --manifest M [--format markdown|json|github|sarif|junit] [--root DIR] [--strict]
                        [--site DIR]
    conflict-gate pin --manifest M [--check [--format text|github|sarif|junit] [--root DIR]] [--site DIR]
    conflict-gate init DOCS_DIR --version-from PATTERN [--base-url URL] [--scheme S] [--manifest M] [--site DIR]
    conflict-gate init --update --manifest M [--prune] [--base-url URL]
    conflict-gate grammar --manifest M [--format table|json]
    conflict-gate check-answer --manifest M --decision D.json --answer A.txt [--no-strict] [--site DIR]
    conflict-gate versions --manifest M [--format table|json] [--strict]
    conflict-gate mcp --manifest M
    conflict-gate schema decision|audit|answer-check|lab-result|versions|tool-error

A user error is one line on stderr and an exit code from
:data:`~_conflict_gate.base.registry.EXIT_CODES`, never a traceback. ``run.py``
in a checkout adds the lab (``--output``/``--check``) to the same parser.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, NoReturn

from .. import __version__
from ..base.errors import DecisionError, GateError, GrammarError, IngestionError, printable
from ..base.jsondata import render_json
from ..base.registry import CI_FORMATS, COMMAND_EXIT_CODES, EXIT_CODES, RENDERERS, RESULT_SCHEMAS, VERDICTS
from ..corpus.pool import DEFAULT_JOBS, PARALLEL_MIN_PAGES
from ..manifest.read import VERSION_SCHEMES
from .commands import _COMMANDS, MCP_INSTALL
from .support import CliError, defused, error_line, exit_code, located_error, shown_manifest, write_atomically

__all__ = ["CliError", "build_parser", "main", "render_json", "write_atomically"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), not usage + message."""

    #: The command names, on the top-level parser only (see :meth:`parse_known_args`).
    commands: frozenset[str] = frozenset()

    def error(self, message: str) -> NoReturn:
        raise CliError("usage", f"{message} (see '{self.prog} --help')")

    # typeshed overloads parse_known_args on the namespace's type; this override keeps only the
    # plain form the CLI calls, hence the ignore
    def parse_known_args(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        """Refuse the top-level ``--version`` with anything else: ``conflict-gate --version 2.0 gate
        ...`` must not print the program's version and exit 0 with nothing decided; a requested
        version goes after the command. ``--version`` alone prints the version."""
        given = list(sys.argv[1:] if args is None else args)
        if self.commands and len(given) > 1:
            for arg in given:
                if arg in self.commands or not arg.startswith("-"):
                    break  # the command (or a misspelt one, which argparse names) comes first
                name = arg.partition("=")[0]
                if len(name) >= 3 and "--version".startswith(name):
                    raise CliError(
                        "usage",
                        f"put --version after the command ({self.prog} gate --version V "
                        "...); before it, --version alone prints the program's version",
                    )
        return super().parse_known_args(given, namespace)

    # typeshed overloads parse_args on the namespace's type, as parse_known_args above
    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse, but an argument no parser takes points to the help of the command it followed
        (argparse leaves such arguments to the top-level parser, whose help does not list them)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            where = f"{self.prog} {command}" if command else self.prog
            raise CliError("usage", f"unrecognized arguments: {' '.join(extras)} (see '{where} --help')")
        return parsed


# --------------------------------------------------------------------------
# the parser


_MANIFEST_HELP: Final = (
    'manifest (paths relative to the folder that holds it; "sha256": "" until pin fills it in):\n'
    '  {"grammar": {"namespace": "acme", "product": "Acme", "operations": {"connect":\n'
    '      {"max-retries": {"type": "integer", "min": 0}}}},\n'
    '   "version_scheme": "semver", "sources": {"include": ["{version}/**"]},\n'
    '   "documents": [{"source_id": "1.0.0/guide", "version": "1.0.0", "path": "1.0.0/guide.md",\n'
    '                  "url": "https://...", "status": "approved", "sha256": ""}]}'
)


_CI_HELP: Final = (
    "CI formats: paths relative to the repository root (--root, else the nearest folder above the\n"
    "manifest's that holds .git, else the manifest's folder); github appends a summary to the file\n"
    "$GITHUB_STEP_SUMMARY names, when set. Details: reference/ci.md"
)
_ROOT_HELP: Final = (
    "with --format github|sarif|junit: the repository root paths are relative to "
    "(default: the nearest folder above the manifest's that holds .git)"
)


def _codes(command: str) -> str:
    rows = sorted(EXIT_CODES[name] for name in COMMAND_EXIT_CODES[command])
    return "exit codes:\n" + "\n".join(f"  {code:>2}  {meaning}" for code, meaning in rows)


def _strict_option(
    parser: argparse.ArgumentParser,
    default: bool,
    kept: str = "it is kept, refused, and refuses only the requests it is eligible for, with a count on stderr",
) -> None:
    parser.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=default,
        help="--strict: a source that fails verification (changed, missing, unreadable, "
        f"not UTF-8, too large) stops the command (exit 6); --no-strict: {kept} "
        f"(default: {'--strict' if default else '--no-strict'})",
    )


def _positive(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a positive integer, not {printable(text)[:40]!r}")
    return value


def _site_option(parser: argparse.ArgumentParser) -> None:
    """``--site DIR``: judge the pages by the site's build (reference/site.md)."""
    parser.add_argument(
        "--site",
        metavar="DIR",
        default=None,
        help="judge every page by its built page: DIR is the built site, or the folder holding "
        "mkdocs.yml (MkDocs: site_dir) or conf.py (Sphinx: _build/html) (reference/site.md)",
    )


def _cache_options(parser: argparse.ArgumentParser) -> None:
    """``--cache PATH`` / ``--no-cache`` and ``--jobs N``: how the corpus is loaded (reference/cache.md)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--cache",
        metavar="PATH",
        default=None,
        help="the reading cache file (default: one per manifest in $CONFLICT_GATE_CACHE, else "
        "the user's cache folder); unchanged pages are verified but not read again",
    )
    group.add_argument(
        "--no-cache",
        dest="cache",
        action="store_false",
        help="no reading cache: read every page (decisions are the same)",
    )
    parser.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        default=DEFAULT_JOBS,
        help=f"worker processes for the pages left to read, when there are at least "
        f"{PARALLEL_MIN_PAGES} of them (default: {DEFAULT_JOBS}, the CPUs, at most 2)",
    )


def _terminal_columns() -> int:
    """The width help is wrapped to, as :func:`shutil.get_terminal_size` finds it (``$COLUMNS``, else
    standard output's terminal, else 80), without importing :mod:`shutil` (which imports bz2, lzma
    and more: argparse asks for a formatter at every ``add_argument``, so each run would pay it)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description help, its width found by :func:`_terminal_columns`."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
        **later: Any,  # what later Pythons add (3.14: color), passed on
    ) -> None:
        width = _terminal_columns() if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width, **later)


def build_parser(*, prog: str = "conflict-gate", lab: bool = False) -> argparse.ArgumentParser:
    """The one argument parser, named ``prog`` in usage lines and hints. With ``lab`` (``run.py``
    in a checkout), the lab options too."""
    raw = _Formatter
    parser = _Parser(
        prog=prog,
        formatter_class=raw,
        description="conflict-gate: decide, before any model is asked, whether an answer about a\n"
        "versioned API may be prepared, and check the answer afterwards."
        + (
            "\nWithout a command, run the lab cases over the Quill fixtures and print or save the result."
            if lab
            else ""
        ),
        epilog=_codes("run.py (the lab)") if lab else None,
    )
    if lab:
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--output", metavar="FILE", help="write the lab result here (atomically)")
        group.add_argument(
            "--check", action="store_true", help="compare a fresh lab run with expected-result.json; exit 1 on drift"
        )
    parser.add_argument(
        "--version",
        action="version",
        version=f"conflict-gate {__version__}",
        help="print the program's version and exit (alone: a requested version goes "
        "after the command, gate --version V)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=not lab)

    def command(name: str, summary: str, description: str, epilog: str = "") -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            prog=f"{prog} {name}",
            formatter_class=raw,
            help=summary,
            description=description,
            epilog="\n\n".join(part for part in (_codes(name), epilog) if part),
        )
        return sub

    p = command(
        "gate",
        "decide one request; print the result as JSON",
        "Decide one request over a manifest's sources; print the result as JSON on stdout. "
        "Only the candidates' pages are read and verified (audit verifies every page).",
        f"which claims exist: {prog} grammar --manifest M\n\n" + _MANIFEST_HELP,
    )
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--version", required=True, help="requested version, in the manifest's version scheme")
    p.add_argument("--claim", required=True, metavar="KEY", help="claim key")
    p.add_argument("--operation", help="operation (needed only when several operations have KEY)")
    _strict_option(p, True)
    _cache_options(p)
    _site_option(p)
    p.add_argument(
        "--set-aside-unrelated",
        action="store_true",
        help="set aside eligible candidates about other operations (they declare no key of "
        "this one): listed in set_aside_unrelated_ids, they take no part in the decision; "
        "a candidate about the operation but silent on KEY still withholds "
        "(default: every eligible candidate must declare KEY)",
    )
    p.add_argument(
        "--question",
        metavar="TEXT",
        help="the user's question: a ready result's answer_request carries it as a second user "
        "message, as written (it decides nothing; check-answer reads it from the decision)",
    )
    p.add_argument("source_ids", nargs="+", metavar="SOURCE_ID", help="candidate source ids")

    p = command(
        "audit",
        "report agreement, conflicts, gaps and refusals",
        "Read every source and report, per version and operation, the approved pages about it "
        "(that declare a key of it) and per key whether they agree; refused pages, pages that "
        "fail verification (every one: exit 6), drafts that would conflict, near-misses.",
        _CI_HELP + "\n\n" + _MANIFEST_HELP,
    )
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument(
        "--format",
        choices=("markdown", "json", *CI_FORMATS),
        default="markdown",
        help="markdown (default) or json, with paths relative to the manifest's folder; or a CI "
        "format: github (workflow commands), sarif (SARIF 2.1.0), junit (JUnit XML)",
    )
    p.add_argument("--root", metavar="DIR", help=_ROOT_HELP)
    _strict_option(p, False, "every such source is reported with the rest, then the audit exits 6")
    _cache_options(p)
    _site_option(p)

    p = command(
        "pin",
        "recompute pins; rewrite the manifest (or --check)",
        "Recompute every source's sha256. Without --check, rewrite the changed pins in the "
        "manifest file (through a symlink, the file it names); with --check, change nothing.",
        _CI_HELP + "\n\n" + _MANIFEST_HELP,
    )
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument(
        "--check",
        action="store_true",
        dest="pin_check",
        help='change nothing; exit 1 on a stale pin, a missing file or (with "sources") '
        "a page the manifest does not list",
    )
    p.add_argument(
        "--format",
        choices=("text", *CI_FORMATS),
        default="text",
        help="with --check: text (default), or a CI format: github, sarif, junit",
    )
    p.add_argument("--root", metavar="DIR", help=_ROOT_HELP)
    p.add_argument(
        "--site",
        metavar="DIR",
        default=None,
        help="also record each page's reading as the site's build shows it, in the manifest's "
        '"readings" file (DIR as for audit --site); with --check, change nothing and report the '
        "pages whose recorded reading the build no longer gives (reference/site.md#recorded-readings)",
    )

    p = command(
        "init",
        "write a starter manifest for a folder of Markdown pages, or bring one up to date",
        "Write a starter manifest (unpinned) listing every .md/.markdown file under DOCS_DIR "
        "whose path matches --version-from, with a grammar proposed from the directive lines "
        'found and "sources" recording the pattern; every file left out is named on stderr '
        "with why. Never overwrites a file.\n\n"
        'With --update, bring the manifest M up to date with its "sources": add the new pages '
        "(approved, unpinned: pin comes next) in path order, name the pages that are gone and "
        "remove their entries only with --prune; every other byte of M stays as it is.",
        "examples:\n  conflict-gate init docs --version-from '{version}/**' "
        "--base-url https://docs.example.com\n  conflict-gate init --update --manifest "
        "docs/manifest.json --prune",
    )
    p.add_argument("docs_dir", metavar="DOCS_DIR", nargs="?", help="the folder of pages (not with --update)")
    p.add_argument(
        "--version-from",
        metavar="PATTERN",
        help="path pattern relative to DOCS_DIR with one {version}, e.g. '{version}/**' "
        "(* within a folder, ** across folders, ? one character)",
    )
    p.add_argument(
        "--base-url",
        help="URL prefix; a page's URL is prefix + its id (with --update: "
        "default, the prefix every entry's url shares)",
    )
    p.add_argument(
        "--scheme",
        choices=("auto", *VERSION_SCHEMES),
        default=None,
        help="version scheme (default: the first of major.minor, semver, calver, label that fits)",
    )
    p.add_argument("--manifest", help="where to write it (default: DOCS_DIR/manifest.json); with --update, its path")
    p.add_argument(
        "--update", action="store_true", help='update the manifest M from its "sources" instead of writing a new one'
    )
    p.add_argument("--prune", action="store_true", help="with --update: remove the entries whose file no longer exists")
    p.add_argument("--site", metavar="DIR", help="propose the grammar from the lines the build shows (as audit --site)")
    p.add_argument(
        "--renderer",
        choices=tuple(RENDERERS),
        default=None,
        help='how the docs site renders the pages, written as the manifest\'s "renderer": '
        + "; ".join(f"{name}: {meaning}" for name, meaning in RENDERERS.items())
        + " (default: detected from the site's configuration in DOCS_DIR or a folder above it, up "
        "to the repository's top level: mkdocs.yml, a Sphinx conf.py loading myst_parser, "
        "docusaurus.config.*; none or several found: none written, which means portable)",
    )

    p = command(
        "grammar",
        "print the manifest's grammar",
        "Print the directive grammar the manifest declares: every operation, key and allowed value.",
    )
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument("--format", choices=("table", "json"), default="table")

    p = command(
        "check-answer",
        "check a model's answer against a decision",
        "Check an answer a model wrote from a ready decision's answer request: every claim "
        "cited at its line, quotes exact and attributed, the agreed value and the requested "
        "version stated, nothing else stated. Prints the verdict and every finding as JSON. "
        "Reads and verifies the decision's candidates' pages, and every page when a quote "
        "must be looked up in all of them.",
        "verdicts, in precedence order: " + ", ".join(VERDICTS),
    )
    p.add_argument("--manifest", required=True, help="path to the manifest the decision was made on")
    p.add_argument("--decision", required=True, help="the gate's result, as JSON (gate's stdout)")
    p.add_argument("--answer", required=True, help="the answer text, UTF-8 ('-' for stdin)")
    _strict_option(p, True)
    _cache_options(p)
    _site_option(p)

    p = command(
        "versions",
        "list the versions, their approved pages and the keys each declares",
        "List what can be asked: the grammar, the renderer, the version scheme and, per version, "
        "every approved page (source id, URL, path) with the keys it declares per operation, or "
        "why it is refused (drafts and deprecated pages are never eligible, so not listed). The "
        "MCP server's versions tool returns the same JSON.",
    )
    p.add_argument("--manifest", required=True, help="path to the manifest")
    p.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help="table (default, Markdown) or json (the versions schema)",
    )
    _strict_option(p, False, "it is listed, refused, with its reason, and a count goes to stderr")
    _cache_options(p)

    p = command(
        "mcp",
        "serve the gate to MCP clients (coding agents) over stdio",
        "Serve the manifest's corpus as an MCP server over stdio (stdout carries only the "
        "protocol; logs go to stderr), with the tools versions, gate, check_answer and audit. "
        "The corpus is loaded once, non-strict; before each call the tool re-verifies the pages "
        "it reads, and a change of the manifest file reloads it. Needs the optional extra: " + MCP_INSTALL + ".",
        "configuration for a client, tools and freshness: reference/mcp.md",
    )
    p.add_argument(
        "--manifest",
        required=True,
        help="path to the manifest (absolute: a client starts the server in a folder of its choosing)",
    )
    _cache_options(p)

    p = command(
        "schema",
        "print the JSON Schema of a result",
        "Print the JSON Schema (draft 2020-12) of a result, to validate saved results or to "
        "type an integration: " + "; ".join(f"{name}: {what}" for name, what in RESULT_SCHEMAS.items()) + ".",
    )
    p.add_argument("name", choices=tuple(RESULT_SCHEMAS), metavar="NAME", help="one of: " + ", ".join(RESULT_SCHEMAS))
    parser.commands = frozenset(commands.choices)
    return parser


@lru_cache(maxsize=8)
def _shared_parser(prog: str, lab: bool) -> argparse.ArgumentParser:
    """:func:`build_parser`, built once per ``prog`` and ``lab`` in a process (parsing never changes a
    parser; building one costs milliseconds, which a caller running many command lines in process,
    as the tests do, would pay each time)."""
    return build_parser(prog=prog, lab=lab)


def main(
    argv: Sequence[str] | None = None,
    *,
    prog: str = "conflict-gate",
    lab: Callable[[argparse.Namespace], int] | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run one command line; return its exit code (:data:`~_conflict_gate.base.registry.EXIT_CODES`).

    ``argv`` defaults to ``sys.argv[1:]``; ``prog`` is how the command is
    typed, used in usage lines and in every hint that tells what to run next
    (``conflict-gate``, ``python -m conflict_gate``, ``python run.py``). With
    ``lab`` (``run.py`` in a checkout), the lab's ``--output``/``--check`` run
    it when no command is given. ``environ`` is the environment a command
    reads (only ``GITHUB_STEP_SUMMARY``, by ``--format github``); it defaults
    to ``os.environ``, read here and nowhere else. A user error is one line on
    stderr, never a traceback. No line printed on stdout or stderr holds ``::`` or
    ``##[`` (GitHub's runner would read it as a workflow command) but the
    commands ``--format github`` writes itself (reference/ci.md).
    """
    with defused("stderr"):
        return _main(argv, prog=prog, lab=lab, environ=environ)


def _defused_stdout(args: argparse.Namespace) -> contextlib.AbstractContextManager[None]:
    """Every line a command prints on stdout is defused (:class:`~_conflict_gate.cli.support.DefusedLines`),
    but ``--format github``'s, which are workflow commands made defused one by one
    (:func:`~_conflict_gate.cli.ci.workflow_command`), and the MCP server's, which carries the protocol."""
    if args.command == "mcp" or getattr(args, "format", None) == "github":
        return contextlib.nullcontext()
    return defused("stdout")


def _main(
    argv: Sequence[str] | None,
    *,
    prog: str,
    lab: Callable[[argparse.Namespace], int] | None,
    environ: Mapping[str, str] | None,
) -> int:
    """:func:`main`, its stderr defused."""
    manifest = "manifest.json" if lab is not None else "..."  # the lab's, beside run.py
    try:
        args = _shared_parser(prog, lab is not None).parse_args(argv)
        args.prog = prog
        args.environ = os.environ if environ is None else environ
        manifest = shown_manifest(args.manifest) if getattr(args, "manifest", None) else manifest
        with _defused_stdout(args):
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
    except (GateError, GrammarError, DecisionError, IngestionError) as error:
        kind, line = located_error(error, prog=prog, manifest=manifest)
        print(line, file=sys.stderr)
        return exit_code(kind)


def _silence_stdout() -> None:
    """After stdout failed, point it at the null device, so that the interpreter's last flush
    at exit cannot fail again with a traceback (Python's documented way for SIGPIPE)."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())


def _fail(prog: str, kind: str, message: str) -> int:
    print(error_line(prog, message), file=sys.stderr)
    return exit_code(kind)


if __name__ == "__main__":  # python -m _conflict_gate.cli.main
    sys.exit(main(prog="python -m _conflict_gate.cli.main"))
