"""Install check: build the wheel, install it into a fresh virtual environment, use it on invented docs.

Not a ``test_*.py`` file, so ``python -m unittest discover`` does not run it (it
needs the package index and takes tens of seconds). CI runs it as::

    python -m unittest tests.install_check -v

It proves what a user gets from ``pip install``: site-packages holds
``conflict_gate.py``, ``_conflict_gate/`` (with ``py.typed``) and the module's
type stub ``conflict_gate-stubs/`` and nothing else of the checkout (no ``run``,
``load_documents``, ``tests``...); the ``conflict-gate`` console script alone,
run from an unrelated folder, takes an invented Acme Widgets docs tree from
``init`` through ``pin``, ``grammar``, ``audit``, ``gate`` and ``check-answer``,
and ``python -m conflict_gate`` is the same command line. The only files it
edits are the ones it wrote; the manifest is edited the way a user would (load
the JSON, change two things, save).

With ``CONFLICT_GATE_MYPY`` naming a mypy executable (``.ci/run`` sets it), a
user's script that calls the API is type-checked against the installed
package with ``--strict --disallow-any-expr``: the results' types reach the
user, and no ``Any`` leaks in. Without it that part skips, saying so.

The wheel is built from a copy of the checkout's sources (without ``.git``,
``build/``, ``*.egg-info`` and caches), so a stale ``build/`` folder cannot leak
into the wheel and the checkout is left as it was.

Skips, saying why, when pip or venv is missing or no package index answers
(building needs setuptools from the index); the index is probed with a short
timeout first, so an offline run skips quickly instead of hanging.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

from _conflict_gate.base.registry import EXIT_CODES

REPO = Path(__file__).resolve().parent.parent
#: What a copy of the checkout leaves out before building.
NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".tox",
    ".venv",
    "venv",
)


def not_sources(folder: str, names: list[str]) -> set[str]:
    """:data:`NOT_SOURCES`, and the benchmark's ``bench/results`` (not the package's ``results`` stage)."""
    left_out = set(NOT_SOURCES(folder, names))
    if Path(folder).name == "bench" and "results" in names:
        left_out.add("results")
    return left_out


#: Names that must not be top-level in site-packages: the checkout's lab, shims, tests and private modules.
NOT_INSTALLED_AT_TOP = (
    "run",
    "load_documents",
    "blocks",
    "inlines",
    "reader",
    "grammar",
    "manifest",
    "corpus",
    "decision",
    "answer",
    "request",
    "registry",
    "errors",
    "cli",
    "tests",
    "bench",
    "docs",
)
PROBE_TIMEOUT = 60
BUILD_TIMEOUT = 600
RUN_TIMEOUT = 120

#: The invented tree: Acme Widgets, semver folders, one page that matches no version.
PAGES = {
    "1.0.0/client/connect.md": (
        b"# Connecting a client\n"
        b"\n"
        b"A client retries a refused connection before it gives up.\n"
        b"\n"
        b"@acme-widgets client.connect max-retries=3\n"
    ),
    "1.0.0/client/reference.md": (
        b"# client.connect reference\n"
        b"\n"
        b"@acme-widgets client.connect max-retries=3\n"
        b"\n"
        b"Example: `@acme-widgets client.connect max-retries=9` is not how 1.0.0 behaves.\n"
    ),
    "1.0.0/client/retries-proposal.md": (b"# Proposal: more retries\n\n@acme-widgets client.connect max-retries=5\n"),
    "2.1.0-beta.1/client/connect.md": (b"# Connecting a client (beta)\n\n@acme-widgets client.connect max-retries=5\n"),
    "index.md": b"# Acme Widgets documentation\n",
}
DRAFT = "1.0.0/client/retries-proposal"
APPROVED_1_0_0 = ("1.0.0/client/connect", "1.0.0/client/reference")


#: A user's script, type-checked against the installed package (see the module docstring).
TYPED_USER_SCRIPT = """\
import conflict_gate

corpus = conflict_gate.load_documents("acme-docs/manifest.json")
decision = conflict_gate.gate(corpus, ["1.0.0/client/connect"], "1.0.0", "client.connect", "max-retries")
status: str = decision["status"]
request = decision["answer_request"]
if request is not None:
    for message in request["messages"]:
        print(message["role"], message["content"][:40])
for claim in decision["claims"]:
    line: int = claim["start_line"]
    print(claim["source_id"], line, claim["byte_start"], claim["quote"])
report = conflict_gate.check_answer(corpus, decision, "no answer")
print(report["verdict"], [finding["kind"] for finding in report["findings"]])
audit = conflict_gate.audit(corpus)
clean: bool = audit["clean"]
print(clean, audit["summary"]["conflict"], conflict_gate.EXIT_CODES["ok"][0])
try:
    conflict_gate.load_documents("absent.json")
except conflict_gate.IngestionError as error:
    print(error.reason, error.path, error.line)
"""


def code(name: str) -> int:
    return EXIT_CODES[name][0]


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(no output)"


class VenvCase(unittest.TestCase):
    """A temporary folder, the user's environment, and helpers to build the wheel and make a venv."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-install-")
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(os.path.realpath(tmp.name))
        # The user's shell: nothing of the checkout on the path.
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH")
        }

    def run_cmd(
        self, args: list[str], *, cwd: Path, timeout: float = RUN_TIMEOUT, stdin: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args,
            check=False,
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="strict",
            timeout=timeout,
            input=stdin,
        )

    # ------------------------------------------------------------------ preconditions (skip if unmet)

    def require_pip_venv_and_index(self) -> None:
        try:
            pip = self.run_cmd([sys.executable, "-m", "pip", "--version"], cwd=self.tmp, timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.skipTest("install check SKIPPED: 'python -m pip --version' did not answer")
        if pip.returncode != 0:
            self.skipTest(f"install check SKIPPED: pip is not available ({last_line(pip.stderr)})")
        if importlib.util.find_spec("venv") is None:
            self.skipTest("install check SKIPPED: the venv module is not available")
        probe = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--disable-pip-version-check",
            "--retries",
            "0",
            "--timeout",
            "15",
            "-d",
            str(self.tmp / "probe"),
            "setuptools",
        ]
        try:
            reached = self.run_cmd(probe, cwd=self.tmp, timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.skipTest(
                f"install check SKIPPED: no package index reachable ('pip download setuptools' took "
                f"over {PROBE_TIMEOUT} s); building the wheel needs setuptools from the index"
            )
        if reached.returncode != 0:
            self.skipTest(
                "install check SKIPPED: no package index reachable ('pip download setuptools' failed: "
                f"{last_line(reached.stderr)}); building the wheel needs setuptools from the index"
            )

    def make_venv(self) -> tuple[Path, Path, Path]:
        """A fresh venv with pip: (its python, its scripts folder, its site-packages)."""
        venv = self.tmp / "venv"
        made = self.run_cmd([sys.executable, "-m", "venv", str(venv)], cwd=self.tmp, timeout=BUILD_TIMEOUT)
        if made.returncode != 0:
            self.skipTest(
                f"install check SKIPPED: 'python -m venv' failed ({last_line(made.stderr)}); "
                "on Debian/Ubuntu install python3-venv"
            )
        python = venv / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
        paths = self.run_cmd(
            [
                str(python),
                "-c",
                "import json, sysconfig; "
                "print(json.dumps([sysconfig.get_paths()['scripts'], sysconfig.get_paths()['purelib']]))",
            ],
            cwd=self.tmp,
        )
        self.assertEqual(paths.returncode, 0, paths.stderr)
        scripts, purelib = json.loads(paths.stdout)
        if self.run_cmd([str(python), "-m", "pip", "--version"], cwd=self.tmp).returncode != 0:
            self.skipTest("install check SKIPPED: the new venv has no pip (ensurepip missing)")
        return python, Path(scripts), Path(purelib)

    def build_wheel(self) -> Path:
        """The wheel, built from a copy of the checkout's sources."""
        source = self.tmp / "source"
        shutil.copytree(REPO, source, ignore=not_sources, symlinks=True)
        wheels = self.tmp / "wheels"
        built = self.run_cmd(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--disable-pip-version-check",
                "-w",
                str(wheels),
                str(source),
            ],
            cwd=self.tmp,
            timeout=BUILD_TIMEOUT,
        )
        self.assertEqual(built.returncode, 0, f"pip wheel failed:\n{built.stdout}\n{built.stderr}")
        found = sorted(wheels.glob("conflict_gate-*.whl"))
        self.assertEqual(len(found), 1, os.listdir(wheels))
        return found[0]


class InstallCheck(VenvCase):
    # ------------------------------------------------------------------ the check

    def test_wheel_installs_only_the_tool_and_works_on_an_invented_tree(self) -> None:
        self.require_pip_venv_and_index()

        # 1. build the wheel from the checkout's sources
        found = [self.build_wheel()]

        # 2. install it into a fresh venv
        python, scripts, site = self.make_venv()
        installed = self.run_cmd(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--no-deps",
                "--no-index",
                "--disable-pip-version-check",
                str(found[0]),
            ],
            cwd=self.tmp,
            timeout=BUILD_TIMEOUT,
        )
        self.assertEqual(installed.returncode, 0, installed.stderr)

        # 3. site-packages holds the public module and its private package, nothing else of the checkout
        self.assertTrue((site / "conflict_gate.py").is_file())
        package = REPO / "_conflict_gate"
        shipped = {p.relative_to(package).as_posix() for p in package.rglob("*.py") if "stubs" not in p.parts}
        in_site = {p.relative_to(site / "_conflict_gate").as_posix() for p in (site / "_conflict_gate").rglob("*.py")}
        self.assertEqual(shipped - in_site, set(), "modules of the checkout's package missing from the wheel")
        for name in NOT_INSTALLED_AT_TOP:
            with self.subTest(not_installed=name):
                self.assertFalse(
                    (site / f"{name}.py").exists() or (site / name).exists(),
                    f"{name} is installed at the top of site-packages",
                )
        self.assertTrue((site / "_conflict_gate" / "py.typed").is_file())
        self.assertTrue((site / "conflict_gate-stubs" / "__init__.pyi").is_file())
        self.assertFalse((site / "_conflict_gate" / "stubs").exists())
        self.assertEqual(self.top_level_of_record(site), {"conflict_gate.py", "_conflict_gate", "conflict_gate-stubs"})

        # 4. from an unrelated folder, only the console script
        work = self.tmp / "acme-widgets-project"
        work.mkdir()
        cli = scripts / ("conflict-gate.exe" if os.name == "nt" else "conflict-gate")
        self.assertTrue(cli.is_file(), f"no console script at {cli}")
        isolated = self.run_cmd(
            [
                str(python),
                "-c",
                "import conflict_gate, importlib.util; "
                "print(conflict_gate.__file__); print(importlib.util.find_spec('run'))",
            ],
            cwd=work,
        )
        self.assertEqual(isolated.returncode, 0, isolated.stderr)
        module_file, run_spec = isolated.stdout.splitlines()
        self.assertEqual(Path(module_file).parent, site)
        self.assertEqual(run_spec, "None", "the checkout's run.py must not be importable here")
        self.use_on_an_invented_tree(cli, work)
        self.python_m_is_the_same_command_line(python, work)
        self.type_check_a_user_script(python, work)

    def python_m_is_the_same_command_line(self, python: Path, work: Path) -> None:
        """``python -m conflict_gate`` runs the command line with its exit codes (the audit fails: exit 1)."""
        m = "acme-docs/manifest.json"
        via_module = self.run_cmd([str(python), "-m", "conflict_gate", "audit", "--manifest", m], cwd=work)
        self.assertEqual(via_module.returncode, code("ok"), via_module.stderr)
        self.assertIn("**clean**", via_module.stdout)
        usage = self.run_cmd([str(python), "-m", "conflict_gate", "gate", "--manifest", m], cwd=work)
        self.assertEqual(usage.returncode, code("usage"))
        self.assertTrue(usage.stderr.startswith("python -m conflict_gate: error: "), usage.stderr)

    def type_check_a_user_script(self, python: Path, work: Path) -> None:
        mypy = os.environ.get("CONFLICT_GATE_MYPY", "")
        if not mypy:
            print(
                "\ninstall check: the typed user script SKIPPED: CONFLICT_GATE_MYPY names no mypy (.ci/run sets it)",
                file=sys.stderr,
            )
            return
        script = work / "typed_user.py"
        script.write_text(TYPED_USER_SCRIPT, encoding="utf-8")
        checked = self.run_cmd(
            [
                mypy,
                "--python-executable",
                str(python),
                "--strict",
                "--disallow-any-expr",
                "--no-incremental",
                "--cache-dir",
                os.devnull,
                script.name,
            ],
            cwd=work,
        )
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
        self.assertIn("Success: no issues found in 1 source file", checked.stdout)
        broken = work / "typed_user_broken.py"
        broken.write_text(
            TYPED_USER_SCRIPT + "line_text: str = decision['claims'][0]['start_line']\n", encoding="utf-8"
        )
        caught = self.run_cmd(
            [
                mypy,
                "--python-executable",
                str(python),
                "--strict",
                "--no-incremental",
                "--cache-dir",
                os.devnull,
                broken.name,
            ],
            cwd=work,
        )
        self.assertEqual(caught.returncode, 1, caught.stdout)  # the types are real: a wrong use fails
        self.assertIn('Incompatible types in assignment (expression has type "int"', caught.stdout)
        script.unlink()
        broken.unlink()

    @staticmethod
    def top_level_of_record(site: Path) -> set[str]:
        """Top-level names the installed distribution put in site-packages (from its RECORD)."""
        records = list(site.glob("conflict_gate-*.dist-info/RECORD"))
        assert len(records) == 1, records
        names = set()
        for row in records[0].read_text(encoding="utf-8").splitlines():
            path = row.rsplit(",", 2)[0]
            top = path.split("/")[0]
            if top.endswith(".dist-info") or top == ".." or not top:
                continue
            if top == "__pycache__":  # compiled top-level modules: conflict_gate.cpython-3X.pyc
                top = path.split("/")[1].split(".")[0] + ".py"
            names.add(top)
        return names

    def use_on_an_invented_tree(self, cli: Path, work: Path) -> None:
        docs = work / "acme-docs"
        for rel, raw in PAGES.items():
            (docs / rel).parent.mkdir(parents=True, exist_ok=True)
            (docs / rel).write_bytes(raw)
        manifest = docs / "manifest.json"
        m = str(manifest.relative_to(work))

        def tool(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
            return self.run_cmd([str(cli), *args], cwd=work, stdin=stdin)

        # init: a starter manifest, unpinned, grammar proposed from the directive lines
        init = tool(
            "init", "acme-docs", "--version-from", "{version}/**", "--base-url", "https://docs.acme-widgets.example"
        )
        self.assertEqual((init.returncode, init.stdout), (code("ok"), ""), init.stderr)
        self.assertIn("left out: index.md: ", init.stderr)
        self.assertIn("conflict-gate pin --manifest", init.stderr)
        data: dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))
        self.assertEqual(data["version_scheme"], "semver")
        self.assertEqual(data["grammar"]["namespace"], "acme-widgets")
        self.assertEqual(data["grammar"]["operations"], {"client.connect": {"max-retries": {"type": "integer"}}})
        self.assertEqual(
            [(d["source_id"], d["version"], d["sha256"]) for d in data["documents"]],
            [
                ("1.0.0/client/connect", "1.0.0", ""),
                ("1.0.0/client/reference", "1.0.0", ""),
                (DRAFT, "1.0.0", ""),
                ("2.1.0-beta.1/client/connect", "2.1.0-beta.1", ""),
            ],
        )
        self.assertEqual(data["documents"][0]["url"], "https://docs.acme-widgets.example/1.0.0/client/connect")
        before = manifest.read_bytes()
        again = tool("init", "acme-docs", "--version-from", "{version}/**")
        self.assertEqual(again.returncode, code("output"))
        self.assertTrue(
            again.stderr.startswith("conflict-gate: error: ") and again.stderr.count("\n") == 1, again.stderr
        )
        self.assertEqual(manifest.read_bytes(), before)

        # the user's edits: bounds on the integer, the proposal marked as a draft
        data["grammar"]["operations"]["client.connect"]["max-retries"] = {"type": "integer", "min": 0, "max": 10}
        next(d for d in data["documents"] if d["source_id"] == DRAFT)["status"] = "draft"
        manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

        grammar = tool("grammar", "--manifest", m)
        self.assertEqual(grammar.returncode, code("ok"), grammar.stderr)
        self.assertIn("| `client.connect` | `max-retries` | integer 0..10 |", grammar.stdout)

        unpinned = tool("audit", "--manifest", m)
        self.assertEqual(unpinned.returncode, code("input"))
        self.assertIn("conflict-gate pin --manifest", unpinned.stderr)

        pin = tool("pin", "--manifest", m)
        self.assertEqual(pin.returncode, code("ok"), pin.stderr)
        self.assertEqual(pin.stdout.splitlines()[-1], f"wrote {m}: 4 pins updated")
        self.assertEqual(tool("pin", "--check", "--manifest", m).returncode, code("ok"))

        audit = tool("audit", "--manifest", m)
        self.assertEqual(audit.returncode, code("ok"), audit.stdout + audit.stderr)
        self.assertIn("**clean**", audit.stdout)
        self.assertIn(
            f"| {DRAFT} | draft | 1.0.0/client/retries-proposal.md:3 | client.connect max-retries | 5 | 3 |",
            audit.stdout,
        )
        report = json.loads(tool("audit", "--manifest", m, "--format", "json").stdout)
        self.assertEqual(
            (report["clean"], report["summary"]["unapproved_conflicts"], report["summary"]["near_misses"]), (True, 1, 1)
        )

        # gate: ready on the approved 1.0.0 pages, the draft set aside
        ready = tool("gate", "--manifest", m, "--version", "1.0.0", "--claim", "max-retries", *APPROVED_1_0_0, DRAFT)
        self.assertEqual((ready.returncode, ready.stderr), (code("ok"), ""))
        decision = json.loads(ready.stdout)
        self.assertEqual(
            (decision["status"], decision["operation"], decision["agreed_value"]), ("ready", "client.connect", "3")
        )
        self.assertEqual(decision["eligible_source_ids"], list(APPROVED_1_0_0))
        self.assertEqual(decision["excluded_unapproved_ids"], [DRAFT])
        draft_only = tool("gate", "--manifest", m, "--version", "1.0.0", "--claim", "max-retries", DRAFT)
        self.assertEqual(
            (draft_only.returncode, draft_only.stderr),
            (code("not_in_docs"), f"not_in_docs: no approved candidate has version 1.0.0 (set aside: {DRAFT})\n"),
        )
        beta = tool(
            "gate",
            "--manifest",
            m,
            "--version",
            "2.1.0-beta.1",
            "--claim",
            "max-retries",
            "2.1.0-beta.1/client/connect",
            *APPROVED_1_0_0,
        )
        self.assertEqual((beta.returncode, json.loads(beta.stdout)["agreed_value"]), (code("ok"), "5"))
        self.assertEqual(
            tool("gate", "--manifest", m, "--version", "2.1.0", "--claim", "max-retries", *APPROVED_1_0_0).returncode,
            code("not_in_docs"),
        )

        # check-answer: an answer in the requested form is supported
        (work / "decision.json").write_text(ready.stdout, encoding="utf-8")
        answer = "In Acme Widgets 1.0.0 (`version=1.0.0`) a client retries `max-retries=3` times.\n" + "".join(
            f"`{c['quote']}` [source: {c['source_id']}:{c['start_line']}]\n" for c in decision["claims"]
        )
        checked = tool("check-answer", "--manifest", m, "--decision", "decision.json", "--answer", "-", stdin=answer)
        self.assertEqual((checked.returncode, checked.stderr), (code("ok"), "supported: no findings\n"))

        # a user error from the installed script names it, on one line; the lab is not installed
        for args in (("gate", "--manifest", m), ("--check",)):
            with self.subTest(user_error=args):
                failed = tool(*args)
                self.assertEqual((failed.returncode, failed.stdout), (code("usage"), ""))
                self.assertTrue(failed.stderr.startswith("conflict-gate: error: "), failed.stderr)
                self.assertEqual(failed.stderr.count("\n"), 1, failed.stderr)

        # nothing but the tree, the manifest and the decision in the user's folder
        self.assertEqual(sorted(p.name for p in work.iterdir()), ["acme-docs", "decision.json"])


if __name__ == "__main__":
    unittest.main()
