"""pre-commit itself, with the shipped ``.pre-commit-hooks.yaml`` and the README's configuration.

Not part of the default suite (the file name does not start with ``test_``). ``.ci/run`` installs
pre-commit (pinned) in a throwaway virtual environment and runs this module with that environment's
Python, naming the executable in ``CONFLICT_GATE_PRE_COMMIT``::

    CONFLICT_GATE_PRE_COMMIT=/path/to/venv/bin/pre-commit /path/to/venv/bin/python -m unittest tests.precommit_check -v

Without that variable, or without ``git``, it skips, saying why. It builds a snapshot of this
checkout's files (tracked and untracked, not ignored) as a Git repository on branch ``main``, and a docs
repository whose ``.pre-commit-config.yaml`` is the README's, pointing at that snapshot. pre-commit
installs the snapshot (``language: python``, so it needs the package index for setuptools) and runs
the hooks: they fail on a changed page, pass after ``pin``, and skip a commit with no page or manifest.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import ClassVar

from tests.support import REPO, run_cli, simple_yaml

PRE_COMMIT = os.environ.get("CONFLICT_GATE_PRE_COMMIT")
PAGE = "# Connecting\n\n@acme-widgets client.connect max-retries={}\n"


@unittest.skipUnless(PRE_COMMIT, "CONFLICT_GATE_PRE_COMMIT is unset: .ci/run sets it to a pinned pre-commit")
@unittest.skipUnless(shutil.which("git"), "git is not installed")
class PreCommitCheck(unittest.TestCase):
    base: ClassVar[Path]
    env: ClassVar[dict[str, str]]
    hook_repo: ClassVar[Path]

    @classmethod
    def setUpClass(cls) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-pre-commit-")
        cls.addClassCleanup(tmp.cleanup)
        cls.base = Path(os.path.realpath(tmp.name))
        cls.env = {
            **os.environ,
            "PRE_COMMIT_HOME": str(cls.base / "cache"),
            "GIT_AUTHOR_NAME": "ci",
            "GIT_AUTHOR_EMAIL": "ci@example.invalid",
            "GIT_COMMITTER_NAME": "ci",
            "GIT_COMMITTER_EMAIL": "ci@example.invalid",
            "PRE_COMMIT_COLOR": "never",
        }
        cls.hook_repo = cls.base / "conflict-gate"
        cls.snapshot(cls.hook_repo)

    @classmethod
    def git(cls, folder: Path, *argv: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(folder), *argv], env=cls.env, check=True, capture_output=True, text=True
        )
        return str(done.stdout)

    @classmethod
    def snapshot(cls, target: Path) -> None:
        """This checkout's files as a new repository with one commit on ``main`` (what a clone holds,
        with uncommitted edits: the hooks under test are the working tree's)."""
        listed = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True,
            capture_output=True,
        ).stdout
        for name in sorted(set(listed.decode("utf-8", "surrogateescape").split("\0")) - {""}):
            source = REPO / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
        cls.git(target, "init", "--quiet", "--initial-branch=main")
        cls.git(target, "add", "--all")
        cls.git(target, "commit", "--quiet", "-m", "snapshot")

    def pre_commit(self, repo: Path) -> subprocess.CompletedProcess[str]:
        assert PRE_COMMIT is not None
        return subprocess.run([PRE_COMMIT, "run"], check=False, cwd=repo, env=self.env, capture_output=True, text=True)

    def readme_config(self) -> str:
        """The README's ``.pre-commit-config.yaml``, as written, pointing at the snapshot."""
        part = (REPO / "README.md").read_text(encoding="utf-8")
        (config,) = [
            m.group(1)
            for m in re.finditer(r"^```yaml\n(.*?)^```", part, re.MULTILINE | re.DOTALL)
            if "repos:" in m.group(1)
        ]
        self.assertIn("repo: /path/to/conflict-gate ", config)
        return config.replace("/path/to/conflict-gate", str(self.hook_repo))

    def test_the_hooks_fail_on_a_changed_page_and_pass_after_pin(self) -> None:
        docs_repo = self.base / "docs-repo"
        for version, value in (("1.0.0", 3), ("2.0.0", 5)):
            page = docs_repo / "docs" / version / "connect.md"
            page.parent.mkdir(parents=True)
            page.write_text(PAGE.format(value), encoding="utf-8")
        (docs_repo / "notes.txt").write_text("not a page\n", encoding="utf-8")
        cwd = os.getcwd()
        os.chdir(docs_repo)
        try:
            for argv in (
                ["init", "docs", "--version-from", "{version}/**"],
                ["pin", "--manifest", "docs/manifest.json"],
            ):
                code, _, err = run_cli(argv)
                self.assertEqual(code, 0, err)
        finally:
            os.chdir(cwd)
        (docs_repo / ".pre-commit-config.yaml").write_text(self.readme_config(), encoding="utf-8")
        self.git(docs_repo, "init", "--quiet", "--initial-branch=main")
        self.git(docs_repo, "add", "--all")
        self.git(docs_repo, "commit", "--quiet", "-m", "docs")

        with open(docs_repo / "notes.txt", "a", encoding="utf-8") as notes:
            notes.write("an edit that is neither a page nor the manifest\n")
        self.git(docs_repo, "add", "notes.txt")
        skipped = self.pre_commit(docs_repo)
        self.assertEqual(skipped.returncode, 0, skipped.stdout + skipped.stderr)
        self.assertEqual(skipped.stdout.count("(no files to check)Skipped"), 2, skipped.stdout)
        self.git(docs_repo, "commit", "--quiet", "-m", "notes")

        with open(docs_repo / "docs" / "1.0.0" / "connect.md", "a", encoding="utf-8") as handle:
            handle.write("An edit nobody reviewed.\n")
        self.git(docs_repo, "add", "docs/1.0.0/connect.md")
        failed = self.pre_commit(docs_repo)
        self.assertEqual(failed.returncode, 1, failed.stdout + failed.stderr)
        self.assertRegex(failed.stdout, r"conflict-gate pin --check\.+Failed")
        self.assertIn("stale 1.0.0/connect (1.0.0/connect.md)", failed.stdout)
        self.assertRegex(failed.stdout, r"conflict-gate audit\.+Failed")

        os.chdir(docs_repo)
        try:
            self.assertEqual(run_cli(["pin", "--manifest", "docs/manifest.json"])[0], 0)
        finally:
            os.chdir(cwd)
        self.git(docs_repo, "add", "docs/manifest.json")
        passed = self.pre_commit(docs_repo)
        self.assertEqual(passed.returncode, 0, passed.stdout + passed.stderr)
        self.assertRegex(passed.stdout, r"conflict-gate pin --check\.+Passed")
        self.assertRegex(passed.stdout, r"conflict-gate audit\.+Passed")

    def test_the_test_suites_yaml_reader_agrees_with_pyyaml(self) -> None:
        """tests.support.simple_yaml reads the hooks file and the README's YAML as PyYAML does."""
        import yaml  # pre-commit depends on PyYAML

        texts = [(REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")]
        readme = (REPO / "README.md").read_text(encoding="utf-8")
        texts += [m.group(1) for m in re.finditer(r"^```yaml\n(.*?)^```", readme, re.MULTILINE | re.DOTALL)]
        self.assertGreaterEqual(len(texts), 3)
        for text in texts:
            with self.subTest(text=text[:40]):
                self.assertEqual(simple_yaml(text), yaml.safe_load(text))


if __name__ == "__main__":
    unittest.main()
