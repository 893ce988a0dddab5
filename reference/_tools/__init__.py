"""The reference pages' generated regions: each table of :mod:`~reference._tools.tables` in its page.

A page holds a rendered table between two markers::

    <!-- generated: exit-codes -->

    | code | name | meaning |
    ...

    <!-- end generated -->

Commands, from the root of a checkout::

    python -m reference._tools            print every table
    python -m reference._tools --check    exit 1 when a page differs from the data
    python -m reference._tools --write    rewrite the marked regions in place

The pages read are ``README.md``, ``reference/*.md`` and ``reference/dev/*.md`` under ``--root``
(default: the folder that holds this package).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from _conflict_gate.cli.support import CliError, write_atomically

from . import tables as t
from . import vocabulary_tables
from .tables import DriftError

__all__ = [
    "END",
    "PAGES",
    "START",
    "TABLES",
    "DriftError",
    "Region",
    "check",
    "main",
    "pages",
    "regions",
    "render",
    "rewrite",
]

PAGES: Final = ("README.md", "reference/*.md", "reference/dev/*.md")
START: Final = re.compile(r"^<!-- generated: ([a-z0-9-]+) -->[ \t]*$", re.MULTILINE)
END: Final = "<!-- end generated -->"


# --------------------------------------------------------------------------
# Regions


def _static(function: Callable[[], list[str]]) -> Callable[[Path], list[str]]:
    return lambda root: function()


#: Region name -> how to render it (from the checkout's root). Every name must appear in some page.
TABLES: Final[Mapping[str, Callable[[Path], list[str]]]] = {
    "decisions": _static(vocabulary_tables.decisions),
    "result-fields": _static(t.result_fields),
    "result-outline": _static(t.result_outline),
    "claim-outline": _static(t.claim_outline),
    "context-fields": _static(t.context_fields),
    "claim-fields": _static(t.claim_fields),
    "audit-statuses": _static(vocabulary_tables.audit_statuses),
    "audit-fields": _static(t.audit_fields),
    "unrelated-options": _static(t.unrelated_options),
    "answer-form": _static(vocabulary_tables.answer_form),
    "verdicts": _static(vocabulary_tables.verdicts),
    "findings": _static(vocabulary_tables.findings),
    "manifest-keys": _static(t.manifest_keys),
    "entry-fields": _static(t.entry_fields),
    "name-patterns": _static(t.name_patterns),
    "version-schemes": _static(t.version_schemes),
    "page-statuses": _static(vocabulary_tables.page_statuses),
    "size-caps": _static(t.size_caps),
    "reader-limits": _static(t.reader_limits),
    "renderers": _static(t.renderers),
    "near-miss-places": _static(t.near_miss_places),
    "site-places": _static(t.site_places),
    "site-regions": _static(t.site_regions),
    "lab-grammar": t.lab_grammar,
    "lab-cases": t.lab_cases,
    "lab-answers": t.lab_answers,
    "ingestion-reasons": _static(vocabulary_tables.ingestion_reasons),
    "grammar-reasons": _static(vocabulary_tables.grammar_reasons),
    "gate-reasons": _static(vocabulary_tables.gate_reasons),
    "directive-reasons": _static(vocabulary_tables.directive_reasons),
    "decision-file-reasons": _static(vocabulary_tables.decision_file_reasons),
    "tree-findings": _static(vocabulary_tables.tree_findings),
    "exit-codes": _static(vocabulary_tables.exit_codes),
    "command-exit-codes": _static(vocabulary_tables.command_exit_codes),
    "ci-severities": _static(vocabulary_tables.ci_severities),
    "ci-reasons": _static(vocabulary_tables.ci_reasons),
    "api": _static(t.api),
    "api-lookup": _static(t.api_lookup),
    "modules": _static(t.modules),
    "schemas": _static(t.schemas),
    "versions-fields": _static(t.versions_fields),
    "tool-error-fields": _static(t.tool_error_fields),
    "mcp-tools": _static(t.mcp_tools),
}


def render(name: str, root: Path) -> str:
    """The text between a region's markers: a blank line, the table, a blank line."""
    return "\n" + "\n".join(TABLES[name](root)) + "\n\n"


@dataclass(frozen=True)
class Region:
    """One generated region: its name and the span of its body (between the two marker lines)."""

    name: str
    start: int
    end: int
    line: int


def regions(text: str, where: str = "page") -> list[Region]:
    """The generated regions of a page, in order. ``ValueError`` for an unclosed or unknown region."""
    found = []
    for match in START.finditer(text):
        body = match.end() + 1
        end = text.find("\n" + END, match.end())
        line = text.count("\n", 0, match.start()) + 1
        if end < 0:
            raise ValueError(f"{where}:{line}: region {match.group(1)!r} has no {END!r} line")
        nested = START.search(text, body, end)
        if nested is not None:
            raise ValueError(f"{where}:{line}: region {match.group(1)!r} is not closed before the next one")
        if match.group(1) not in TABLES:
            raise ValueError(f"{where}:{line}: unknown region {match.group(1)!r} (known: {', '.join(TABLES)})")
        found.append(Region(match.group(1), body, end + 1, line))
    return found


def rewrite(text: str, root: Path, where: str = "page") -> str:
    """``text`` with every generated region rendered afresh."""
    out = []
    last = 0
    for region in regions(text, where):
        out += [text[last : region.start], render(region.name, root)]
        last = region.end
    out.append(text[last:])
    return "".join(out)


def pages(root: Path) -> list[Path]:
    """The pages under ``root`` that may hold regions, in a fixed order."""
    found: list[Path] = []
    for pattern in PAGES:
        found += sorted(root.glob(pattern))
    return found


def check(root: Path) -> list[str]:
    """Every difference between the pages and the data, as one line each (empty: in sync)."""
    problems = []
    used: set[str] = set()
    for page in pages(root):
        shown = page.relative_to(root).as_posix()
        text = page.read_text(encoding="utf-8")
        try:
            found = regions(text, shown)
            for region in found:
                used.add(region.name)
                if text[region.start : region.end] != render(region.name, root):
                    problems.append(f"{shown}:{region.line}: region {region.name!r} differs from the data")
        except (ValueError, OSError) as error:
            problems.append(str(error))
    for name in TABLES:
        if name not in used:
            problems.append(f"table {name!r} appears in no page ({', '.join(PAGES)})")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reference._tools [--check | --write] [--root DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m reference._tools",
        description="Render the reference pages' tables from the data that defines them.",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 when a page differs from the data")
    group.add_argument("--write", action="store_true", help="rewrite the generated regions in place")
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parents[2],
        help="the checkout's root (default: the checkout that holds reference/_tools)",
    )
    args = parser.parse_args(argv)
    root: Path = args.root
    if not (root / "README.md").is_file():
        print(f"reference: {root} has no README.md: run this from a checkout", file=sys.stderr)
        return vocabulary_tables.exit_code_of("input")
    try:
        if args.check:
            problems = check(root)
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                print("reference: run 'python -m reference._tools --write'", file=sys.stderr)
                return vocabulary_tables.exit_code_of("findings")
            print(f"reference: every generated region is in sync ({len(TABLES)} tables)")
            return vocabulary_tables.exit_code_of("ok")
        if args.write:
            changed = []
            for page in pages(root):
                text = page.read_text(encoding="utf-8")
                new = rewrite(text, root, page.relative_to(root).as_posix())
                if new != text:
                    write_atomically(page, new)
                    changed.append(page.relative_to(root).as_posix())
            print(f"reference: rewrote {', '.join(changed)}" if changed else "reference: nothing to rewrite")
            unused = [p for p in check(root) if p.startswith("table ")]
            for problem in unused:
                print(problem, file=sys.stderr)
            return vocabulary_tables.exit_code_of("findings" if unused else "ok")
        for name in TABLES:
            sys.stdout.write(f"<!-- generated: {name} -->\n{render(name, root)}{END}\n\n")
        return vocabulary_tables.exit_code_of("ok")
    except CliError as error:
        print(f"reference: {error}", file=sys.stderr)
        return vocabulary_tables.exit_code_of(error.kind)
    except (ValueError, OSError) as error:
        print(f"reference: {error}", file=sys.stderr)
        return vocabulary_tables.exit_code_of("input")


if __name__ == "__main__":
    sys.exit(main())
