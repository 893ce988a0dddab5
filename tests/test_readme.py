"""The README's reference tables are derived from the data that defines them.

Each table below is rendered from its single source of truth (GRAMMAR,
DECISIONS, the error-reason registries, EXIT_CODES, the lab cases run fresh)
and must appear verbatim in README.md. To refresh the README after changing
that data, print the tables with ``python -m tests.test_readme`` and paste them.
"""

from __future__ import annotations

import importlib
import re
import unittest
from pathlib import Path

import conflict_gate
import load_documents
import run

README = Path(__file__).resolve().parent.parent / "README.md"


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: tuple[str, ...], rows: list[str]) -> str:
    return "\n".join([_row(*header), "|" + "---|" * len(header), *rows])


def grammar_table() -> str:
    return _table(("operation", "key", "allowed values"), [
        _row(f"`{op}`", f"`{key}`", ", ".join(f"`{v}`" for v in values))
        for op, keys in conflict_gate.GRAMMAR.items() for key, values in keys.items()])


def decisions_table() -> str:
    return _table(("status", "reason", "answer_request", "meaning"), [
        _row(f"`{status}`", f"`{reason}`", "prepared" if status == "ready" else "withheld (`null`)",
             meaning)
        for status, reasons in conflict_gate.DECISIONS.items() for reason, meaning in reasons.items()])


def reasons_table(registry: dict[str, str]) -> str:
    return _table(("reason", "meaning"), [_row(f"`{r}`", m) for r, m in registry.items()])


def exit_codes_table() -> str:
    return _table(("exit code", "meaning"), [_row(str(code), meaning)
                                              for code, meaning in run.EXIT_CODES.values()])


def lab_cases_table() -> str:
    result = run.run_lab()
    rows = []
    for case in result["cases"]:
        outcome = case["result"]
        rows.append(_row(f"`{case['case_id']}`", ", ".join(case["candidate_ids"]),
                         case["requested_version"], f"`{case['claim_key']}`",
                         f"`{outcome['status']}` / `{outcome['reason']}`", case["shows"]))
    changed = result["changed_source"]
    rows.append(_row(f"`{changed['case_id']}`", ", ".join(changed["candidate_ids"]),
                     changed["requested_version"], f"`{changed['claim_key']}`",
                     f"`{changed['result']['status']}` / `{changed['result']['reason']}` "
                     f"(`{changed['result']['error']}`)", changed["edit"]))
    return _table(("case", "candidates", "version", "key", "status / reason", "what it shows"), rows)


TABLES = {
    "grammar": grammar_table,
    "decisions": decisions_table,
    "directive errors": lambda: reasons_table(dict(conflict_gate.DIRECTIVE_REASONS)),
    "request errors": lambda: reasons_table(dict(conflict_gate.GATE_REASONS)),
    "ingestion errors": lambda: reasons_table(dict(load_documents.INGESTION_REASONS)),
    "exit codes": exit_codes_table,
    "lab cases": lab_cases_table,
}


class ReadmeTablesTest(unittest.TestCase):
    def test_every_table_appears_verbatim(self) -> None:
        """Guards against the README drifting from the grammar, reasons, exit codes or cases."""
        text = README.read_text(encoding="utf-8")
        for name, render in TABLES.items():
            with self.subTest(table=name):
                self.assertIn(render(), text)

    def test_every_test_the_readme_names_exists(self) -> None:
        """Guards against the bad-input table pointing at a renamed or deleted test."""
        text = README.read_text(encoding="utf-8")
        names = re.findall(r"`(test_\w+\.\w+\.test_\w+)`", text)
        self.assertGreater(len(names), 20)
        for name in names:
            with self.subTest(test=name):
                module, cls, method = name.split(".")
                test_class = getattr(importlib.import_module(f"tests.{module}"), cls, None)
                self.assertTrue(callable(getattr(test_class, method, None)), name)

    def test_readme_starts_with_the_two_commands(self) -> None:
        """Guards against the first commands a learner sees drifting from what CI runs."""
        text = README.read_text(encoding="utf-8")
        first_block = text[text.index("```"):text.index("```", text.index("```") + 3)]
        self.assertIn("python run.py --output result.json", first_block)
        self.assertIn("python -m unittest discover", first_block)


if __name__ == "__main__":
    for name, render in TABLES.items():
        print(f"<!-- {name} -->\n{render()}\n")
