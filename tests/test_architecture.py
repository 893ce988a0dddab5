"""The module map: every module of ``_conflict_gate`` is listed in ``MODULES``, and the flow runs one way.

``_conflict_gate.MODULES`` names the modules in the flow's order, by dotted path inside the package
(``reader``, or ``reading.reader`` once modules sit in subpackages by stage); a listed name that is a
package (``blocks``) is one unit with all its modules. Each unit may import only units listed before
it (read from its ``from .x import`` statements, at module level and in functions; imports under
``if TYPE_CHECKING:`` serve annotations only and are left out), so the flow manifest -> corpus ->
decision -> answer check has no cycle and no step reaches forward. A package that is not a unit (a
stage's folder) holds a docstring and nothing else. ``reference/dev/architecture.md`` renders the map.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
import tempfile
import unittest
from collections.abc import Iterator
from pathlib import Path

import _conflict_gate
from tests.support import REPO

PACKAGE = REPO / "_conflict_gate"


@functools.cache
def files_on_disk() -> dict[str, Path]:
    """Every Python file of the package (the type stubs left out) by dotted name inside the package
    (a package's ``__init__.py`` by the package's name). Walked once per test process (the tests only
    read the tree): a walk per unit cost about a second of the default suite."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and parts[0] != "stubs" and "__pycache__" not in parts:
            found[".".join(parts)] = path
    return found


def unit_of(name: str, units: list[str]) -> str | None:
    """The listed unit the dotted name ``name`` belongs to (the longest listed prefix), or ``None``."""
    owners = [unit for unit in units if name == unit or name.startswith(unit + ".")]
    return max(owners, key=len) if owners else None


def imported(unit: str, units: list[str]) -> set[str]:
    """The units whose modules the modules of ``unit`` import (``unit`` itself left out)."""
    files = {name: path for name, path in files_on_disk().items() if unit_of(name, units) == unit}
    found = set()
    for name, path in files.items():
        for target in relative_imports(name, path):
            owner = unit_of(target, units)
            if owner is not None:
                found.add(owner)
    return found - {unit}


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` and of the blocks inside it (functions, classes, branches, handlers,
    match cases), the bodies of ``if TYPE_CHECKING:`` left out: imports for annotations only do not
    run, so they are not part of the flow (its ``else:`` is). An import is a statement, so walking
    statements finds every import without visiting the expressions."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            if (
                field == "body"
                and isinstance(node, ast.If)
                and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
            ):
                continue
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from statements(inner)


@functools.cache
def relative_imports(name: str, path: Path) -> tuple[str, ...]:
    """The dotted names (inside the package) that the module ``name`` at ``path`` imports with
    ``from .x import``, outside ``if TYPE_CHECKING:``; each file parsed once per test process."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: list[str] = []
    for node in statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            if node.module:
                targets.append(".".join([*base, node.module]))
            else:  # from . import x: x is a module or a name of the package
                targets.extend(".".join([*base, alias.name]) for alias in node.names)
    return tuple(targets)


class ModuleMapTest(unittest.TestCase):
    def test_no_module_is_over_700_lines(self) -> None:
        """Guards against a module growing past the layout's limit unnoticed (decide/decision.py reached 707
        lines in a merge): a module over 700 lines is split, or code moved to the stage module it fits."""
        long = {name: n for name, path in files_on_disk().items() if (n := len(path.read_bytes().splitlines())) > 700}
        self.assertEqual(long, {}, "modules over 700 lines")

    def test_every_module_is_listed_once(self) -> None:
        listed = [name for name, _ in _conflict_gate.MODULES]
        self.assertEqual(len(listed), len(set(listed)))
        on_disk = files_on_disk()
        self.assertEqual(sorted(set(listed) - set(on_disk)), [], "listed modules that are not on disk")
        unlisted = []
        for name, path in on_disk.items():
            if unit_of(name, listed) is not None:
                continue
            if path.name == "__init__.py":  # a stage's folder: its docstring only
                body = ast.parse(path.read_text(encoding="utf-8")).body
                if name == "" or (len(body) == 1 and ast.get_docstring(ast.Module(body, [])) is not None):
                    continue
            unlisted.append(name)
        self.assertEqual(unlisted, [], "modules missing from _conflict_gate.MODULES")

    def test_a_module_imports_only_modules_before_it(self) -> None:
        """Guards against a cycle or a step reaching forward in the flow."""
        order = [name for name, _ in _conflict_gate.MODULES]
        for position, module in enumerate(order):
            with self.subTest(module):
                later = imported(module, order) - set(order[:position])
                self.assertEqual(later, set(), f"{module} imports modules listed after it")


#: Modules the command line's ``gate`` and ``check-answer`` must not import: standard-library modules
#: that only other paths use (worker processes, the CI formats' URLs, a file written, a help text's
#: terminal width, a calendar version, an unknown id's suggestions) and the package's modules of the other
#: commands, the site, the services, the RAG adapters and the JSON Schemas. A name covers its submodules.
NOT_ON_THE_DECISION_PATH = (
    "concurrent.futures",
    "datetime",
    "difflib",
    "email",
    "html.parser",
    "http",
    "multiprocessing",
    "pathlib",
    "secrets",
    "shutil",
    "urllib",
    "xml",
    "_conflict_gate.cli.ci",
    "_conflict_gate.cli.init",
    "_conflict_gate.cli.markdown",
    "_conflict_gate.cli.pin",
    "_conflict_gate.cli.pin_site",
    "_conflict_gate.manifest.edit",
    "_conflict_gate.manifest.tree",
    "_conflict_gate.rag",
    "_conflict_gate.results.schema",
    "_conflict_gate.service",
    "_conflict_gate.site",
)
#: ... and those only ``check-answer`` may import: the answer check's readers (not ``answer.controls``, whose
#: table an answer request carries), and the context decisions it also checks.
ONLY_ON_CHECK_ANSWERS_PATH = (
    *(f"_conflict_gate.answer.{name}" for name in ("check", "disguise", "findings", "forms", "html", "inline")),
    *(f"_conflict_gate.answer.{name}" for name in ("reader", "statements", "struck")),
    "_conflict_gate.decide.context",
    "_conflict_gate.results.context",
)

#: Run in a fresh interpreter: ``gate`` on the lab's manifest (a ready decision), then ``check-answer``
#: on that decision; after each, its exit code and the loaded modules of the names in ``argv[1]``
#: (the answer check's own modules among them only after check-answer, which imports them).
_DECISION_PATH_SCRIPT = """
import contextlib, io, json, os, sys
started = set(sys.modules)  # the interpreter's own (a site-packages .pth file may import pathlib)
from _conflict_gate.cli.main import main

heavy, folder = json.loads(sys.argv[1]), sys.argv[2]
def loaded():
    return sorted(m for m in set(sys.modules) - started if any(m == h or m.startswith(h + ".") for h in heavy))
report = {}
decision, answer = os.path.join(folder, "decision.json"), os.path.join(folder, "answer.md")
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    code = main(["gate", "--manifest", "manifest.json", "--version", "1.0", "--claim", "existing_path",
                 "quill-guide", "quill-reference"])
report["gate"] = [code, loaded()]
with open(decision, "w", encoding="utf-8") as handle:
    handle.write(out.getvalue())
with open(answer, "w", encoding="utf-8") as handle:
    handle.write("Pass existing_path=refuse [source: quill-guide:1].\\n")
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(["check-answer", "--manifest", "manifest.json", "--decision", decision, "--answer", answer])
report["check-answer"] = [code, loaded()]
print(json.dumps(report))
"""


class DecisionPathImportsTest(unittest.TestCase):
    def test_gate_and_check_answer_import_only_what_they_use(self) -> None:
        """Guards against the command line's decision path paying for modules it never runs (issue 33:
        ``gate`` on 10,000 pages in 100 ms): worker processes imported for two pages, the CI formats,
        the JSON Schema builder, the tree walk, the answer check on ``gate``'s path, and the like
        imported at module level instead of in the command or function that uses them."""
        environ = {**os.environ, "CONFLICT_GATE_CACHE": "off"}  # a cache written would import secrets
        with tempfile.TemporaryDirectory() as folder:  # for the decision and answer files
            done = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    _DECISION_PATH_SCRIPT,
                    json.dumps(NOT_ON_THE_DECISION_PATH + ONLY_ON_CHECK_ANSWERS_PATH),
                    folder,
                ],
                check=False,
                cwd=REPO,
                env=environ,
                capture_output=True,
                text=True,
                timeout=120,
            )
        self.assertEqual(done.returncode, 0, done.stderr)
        report = json.loads(done.stdout)
        self.assertEqual(report["gate"], [0, []], "gate: (exit code, modules it should not import)")
        _code, modules = report["check-answer"]
        self.assertIn("_conflict_gate.answer.check", modules)
        self.assertEqual(
            [m for m in modules if not m.startswith(ONLY_ON_CHECK_ANSWERS_PATH)],
            [],
            "check-answer: modules it should not import",
        )


#: Each single renderer's own reading modules (under ``_conflict_gate.reading``), which its value imports when
#: it is first built; ``mkdocs`` reads MyST's dollar math too. ``portable`` (the default) imports them all.
RENDERERS_OWN_MODULES = {
    "github": (),
    "commonmark": ("vitepress",),
    "mkdocs": ("mkdocs", "mkdocs_marks", "vitepress", "blocks.myst"),
    "myst": ("blocks.myst",),
    "docusaurus": ("blocks.docusaurus", "blocks.mdx", "blocks.mdx_expressions", "blocks.mdx_syntax"),
}

#: Run in a fresh interpreter: ``gate`` on a copy of the lab's manifest that names the renderer ``argv[1]``
#: (over copies of its two candidate pages, in the folder ``argv[2]``), after reading that manifest alone; prints
#: the ``_conflict_gate.reading`` modules loaded by the manifest's check, gate's exit code, and those loaded then.
_DECLARED_RENDERER_SCRIPT = """
import contextlib, io, json, sys
from _conflict_gate.manifest.read import read_manifest

manifest = sys.argv[2] + "/manifest.json"
assert read_manifest(manifest).renderer_name == sys.argv[1]
checked = sorted(m for m in sys.modules if m.startswith("_conflict_gate.reading"))
from _conflict_gate.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(["gate", "--manifest", manifest, "--version", "1.0", "--claim", "existing_path",
                 "quill-guide", "quill-reference"])
prefix = "_conflict_gate.reading."
print(json.dumps([checked, code, sorted(m[len(prefix):] for m in sys.modules if m.startswith(prefix))]))
"""


class DeclaredRendererImportsTest(unittest.TestCase):
    def test_a_declared_renderer_imports_only_its_own_reading_modules(self) -> None:
        """Guards against a manifest naming one renderer paying for every renderer's rules (issue 33: ``gate``
        on 10,000 pages in 100 ms): the renderers' values built, and MyST's, MDX's, MkDocs's and VitePress's
        reading modules imported when the manifest is read (its renderer's name is data, checked against the
        registry) or when its first page is, whichever renderer it names."""
        lab = json.loads((REPO / "manifest.json").read_text(encoding="utf-8"))
        every = sorted({name for own in RENDERERS_OWN_MODULES.values() for name in own})
        for renderer, own in RENDERERS_OWN_MODULES.items():
            with self.subTest(renderer=renderer), tempfile.TemporaryDirectory() as folder:
                for entry in lab["documents"]:
                    if entry["source_id"] in ("quill-guide", "quill-reference"):
                        target = Path(folder, entry["path"])
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes((REPO / entry["path"]).read_bytes())
                Path(folder, "manifest.json").write_text(json.dumps({**lab, "renderer": renderer}), encoding="utf-8")
                done = subprocess.run(
                    [sys.executable, "-c", _DECLARED_RENDERER_SCRIPT, renderer, folder],
                    check=False,
                    cwd=REPO,
                    env={**os.environ, "CONFLICT_GATE_CACHE": "off"},
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                self.assertEqual(done.returncode, 0, done.stderr)
                checked, code, loaded = json.loads(done.stdout)
                self.assertEqual(checked, [], "reading modules the manifest's check imported")
                self.assertEqual(code, 0, "a ready decision: the pages were read")
                self.assertIn("reader", loaded)
                self.assertEqual([name for name in every if name in loaded], sorted(own))


#: Run in a fresh interpreter with a reading cache the run before filled: ``gate`` on the lab's manifest; prints
#: its exit code and the ``_conflict_gate.reading`` modules loaded.
_CACHED_GATE_SCRIPT = """
import contextlib, io, json, sys
from _conflict_gate.cli.main import main

with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(["gate", "--manifest", "manifest.json", "--version", "1.0", "--claim", "existing_path",
                 "quill-guide", "quill-reference"])
print(json.dumps([code, sorted(m for m in sys.modules if m.startswith("_conflict_gate.reading."))]))
"""


class CachedGateImportsTest(unittest.TestCase):
    def test_gate_with_every_reading_cached_imports_no_reader(self) -> None:
        """Guards against ``gate`` importing the block reading, the reader and the renderers (about half of the
        command line's imports) when every candidate's reading comes from the cache and no page is read
        (issue 33): the first run reads and caches both pages, the second must read none."""
        with tempfile.TemporaryDirectory() as folder:
            runs = []
            for _ in range(2):
                done = subprocess.run(
                    [sys.executable, "-c", _CACHED_GATE_SCRIPT],
                    check=False,
                    cwd=REPO,
                    env={**os.environ, "CONFLICT_GATE_CACHE": folder},
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                self.assertEqual(done.returncode, 0, done.stderr)
                runs.append(json.loads(done.stdout))
        (first_code, first), (code, loaded) = runs
        self.assertEqual((first_code, code), (0, 0))
        self.assertIn("_conflict_gate.reading.reader", first)
        light = ("candidates", "inline_spans", "lookalike", "reading_shapes")  # the cache's limits and shapes
        self.assertEqual(loaded, [f"_conflict_gate.reading.{name}" for name in light])


if __name__ == "__main__":
    unittest.main()
