"""The module map: every module of ``_conflict_gate`` is listed in ``MODULES``, and the flow runs one way.

``_conflict_gate.MODULES`` names the modules in the flow's order; each may import only modules
listed before it (read from its ``from .x import`` statements, at module level and in functions;
imports under ``if TYPE_CHECKING:`` serve annotations only and are left out), so the flow manifest -> corpus -> decision -> answer check has
no cycle and no step reaches forward. ``reference/architecture.md`` renders the map.
"""

from __future__ import annotations

import ast
import unittest

import _conflict_gate
from tests.support import REPO

PACKAGE = REPO / "_conflict_gate"


def modules_on_disk() -> set[str]:
    names = {path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    names |= {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    return names


def imported(module: str) -> set[str]:
    """The ``_conflict_gate`` modules ``module`` imports (its own subpackage's modules left out)."""
    path = PACKAGE / f"{module}.py"
    files = [path] if path.is_file() else sorted((PACKAGE / module).glob("*.py"))
    found = set()
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for block in ast.walk(tree):  # imports for annotations only do not run: not part of the flow
            if isinstance(block, ast.If) and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                block.body = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                depth = node.level - (0 if path.is_file() else 1)
                if depth == 1 and node.module:
                    found.add(node.module.split(".")[0])
                elif depth == 1:  # from . import x
                    found |= {alias.name for alias in node.names}
    return found - {module, "__init__"}


class ModuleMapTest(unittest.TestCase):
    def test_every_module_is_listed_once(self) -> None:
        listed = [name for name, _ in _conflict_gate.MODULES]
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(set(listed), modules_on_disk() - {"stubs"})

    def test_a_module_imports_only_modules_before_it(self) -> None:
        """Guards against a cycle or a step reaching forward in the flow."""
        order = [name for name, _ in _conflict_gate.MODULES]
        for position, module in enumerate(order):
            with self.subTest(module):
                later = imported(module) - set(order[:position]) - {"__version__", "MODULES"}
                self.assertEqual(later, set(), f"{module} imports modules listed after it")


if __name__ == "__main__":
    unittest.main()
