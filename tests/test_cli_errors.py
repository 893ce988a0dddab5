"""Issue 3 at the command line: a user error is one line on stderr and a documented exit code.

Every subprocess test runs ``python run.py ...`` with ``cwd`` at the repository
root and checks the exact exit code (from :data:`run.EXIT_CODES`), that stderr
is exactly one line starting ``run.py: error: `` (and never a traceback), and
what stdout holds. Write failures that cannot be caused from outside (a full
disk in the middle of a write) are simulated in-process by patching ``os``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import run
from tests.support import REPO, directive, write_corpus

RUN = REPO / "run.py"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
PAGE = b"# Page\n\n" + directive("refuse") + b"\n"
SENTINEL = b'{"sentinel": "an earlier result that must survive"}\n'


def code(name: str) -> int:
    return run.EXIT_CODES[name][0]


def tree_digest(*paths: Path) -> dict[str, str]:
    """Relative name -> SHA-256 of every file under ``paths`` (folders walked, sorted)."""
    digests = {}
    for top in paths:
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            digests[str(path.relative_to(REPO))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


class CliErrorCase(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-cli-errors-")
        self.addCleanup(tmp.cleanup)
        self.tmp = Path(tmp.name)
        self.manifest = write_corpus(self.tmp / "corpus", {"docs/a.md": PAGE, "docs/b.md": PAGE + b"b\n"})

    def cli(self, *args: str, timeout: float = 60) -> tuple[int, str, str]:
        proc = subprocess.run([sys.executable, str(RUN), *args], cwd=REPO, capture_output=True,
                              timeout=timeout, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")

    def assertUserError(self, args: tuple[str, ...], kind: str, *parts: str,
                        stdout: str | None = "") -> str:
        """Run ``args``; assert exit code ``kind``, one ``run.py: error:`` line holding ``parts``; return it."""
        status, out, err = self.cli(*args)
        self.assertNotIn("Traceback", err)
        self.assertEqual(status, code(kind), err)
        self.assertTrue(err.startswith("run.py: error: "), err)
        self.assertTrue(err.endswith("\n") and err.count("\n") == 1, f"not exactly one line: {err!r}")
        for part in parts:
            self.assertIn(part, err)
        if stdout is not None:
            self.assertEqual(out, stdout)
        return err

    def gate_args(self, manifest: Path | str, *extra: str) -> tuple[str, ...]:
        return ("gate", "--manifest", str(manifest), "--version", "1.0", "--claim", "existing_path",
                *extra, "a", "b")


class UsageErrorTest(CliErrorCase):
    def test_unknown_option(self) -> None:
        """Guards against argparse's multi-line usage dump on an unknown option."""
        err = self.assertUserError(("--bogus",), "usage")
        self.assertEqual(err, "run.py: error: unrecognized arguments: --bogus (see 'run.py --help')\n")
        self.assertUserError(self.gate_args(self.manifest, "--bogus"), "usage", "unrecognized arguments: --bogus")

    def test_unknown_command(self) -> None:
        """Guards against an unknown command being taken for something else."""
        self.assertUserError(("frobnicate",), "usage", "invalid choice", "frobnicate")

    def test_missing_required_argument(self) -> None:
        """Guards against a gate without --manifest running over some default corpus."""
        err = self.assertUserError(("gate", "--version", "1.0", "--claim", "existing_path", "a"), "usage")
        self.assertEqual(err, "run.py: error: the following arguments are required: --manifest "
                              "(see 'run.py gate --help')\n")
        self.assertUserError(("gate", "--manifest", str(self.manifest), "--version", "1.0",
                              "--claim", "existing_path"), "usage", "SOURCE_ID")
        self.assertUserError(("audit",), "usage", "--manifest")
        self.assertUserError(("pin",), "usage", "--manifest")

    def test_lab_options_conflict(self) -> None:
        """Guards against --output and --check being silently combined."""
        self.assertUserError(("--check", "--output", str(self.tmp / "r.json")), "usage", "not allowed with")

    def test_gate_request_errors_exit_2(self) -> None:
        """Guards against a bad request (GateError) being reported as a decision or a traceback."""
        cases = {
            "version with a space": (("--version", " 1.0"), "[invalid_requested_version]"),
            "v prefix": (("--version", "v1.0"), "[invalid_requested_version]"),
            "no minor": (("--version", "1"), "[invalid_requested_version]"),
            "unknown candidate": (("zzz",), "source 'zzz': not in the manifest [unknown_candidate]"),
            "duplicate candidate": (("a",), "source 'a': candidate is listed twice [duplicate_candidate]"),
        }
        for name, (extra, part) in cases.items():
            with self.subTest(name):
                args = ["gate", "--manifest", str(self.manifest), "--version", "1.0",
                        "--claim", "existing_path", "a", "b"]
                if extra[0] == "--version":
                    args[4] = extra[1]
                else:
                    args.extend(extra)
                self.assertUserError(tuple(args), "usage", part)

    def test_bad_claim_choice(self) -> None:
        """Guards against a claim key outside the grammar reaching the gate."""
        args = list(self.gate_args(self.manifest))
        args[args.index("existing_path")] = "nope"
        self.assertUserError(tuple(args), "usage", "argument --claim: invalid choice: 'nope'")


class InputErrorTest(CliErrorCase):
    """A manifest that cannot be loaded and verified exits 6, whatever the command."""

    def bad_manifests(self) -> dict[str, tuple[Path, str]]:
        not_json = self.tmp / "corpus" / "not-json.json"
        not_json.write_text('{"documents": [\n  {,}\n]}\n', encoding="utf-8")
        drifted_root = self.tmp / "drifted"
        drifted = write_corpus(drifted_root, {"docs/a.md": PAGE})
        (drifted_root / "docs" / "a.md").write_bytes(PAGE.replace(b"refuse", b"overwrite"))
        not_a_file = self.tmp / "corpus" / "docs"
        return {
            "missing": (self.tmp / "absent.json", "file does not exist [manifest_unreadable]"),
            "not JSON": (not_json, f"{not_json}:2:4: Expecting property name enclosed in double quotes "
                                   "[manifest_not_json]"),
            "hash mismatch": (drifted, "source 'a' (docs/a.md): sha256 is "),
            "a directory": (not_a_file, "not a regular file [manifest_unreadable]"),
        }

    def test_gate_and_audit_exit_6(self) -> None:
        """Guards against an unloadable manifest producing a decision, an audit or a traceback."""
        for name, (manifest, part) in self.bad_manifests().items():
            for args in (self.gate_args(manifest), ("audit", "--manifest", str(manifest)),
                         ("audit", "--manifest", str(manifest), "--format", "json")):
                with self.subTest(name, command=args[0]):
                    self.assertUserError(args, "input", part)

    def test_pin_exits_6_on_a_manifest_it_cannot_read(self) -> None:
        """Guards against ``pin`` rewriting a manifest it could not parse.

        A hash mismatch is not an error for ``pin``: re-pinning is its job, and
        ``pin --check`` reports it as drift (exit 1, see test_cli_tools).
        """
        manifests = self.bad_manifests()
        for name in ("missing", "not JSON", "a directory"):
            manifest, part = manifests[name]
            for args in (("pin", "--manifest", str(manifest)), ("pin", "--check", "--manifest", str(manifest))):
                with self.subTest(name, check="--check" in args):
                    before = manifest.read_bytes() if manifest.is_file() else None
                    self.assertUserError(args, "input", part)
                    self.assertEqual(manifest.read_bytes() if manifest.is_file() else None, before)
        drifted, _ = manifests["hash mismatch"]
        status, out, err = self.cli("pin", "--check", "--manifest", str(drifted))
        self.assertEqual((status, err), (code("findings"), ""))
        self.assertTrue(out.startswith("stale a (docs/a.md): "), out)

    def test_a_path_with_a_newline_is_still_a_one_line_error(self) -> None:
        """Regression: an unsafe path was echoed raw, so its newline split the error over two lines."""
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        data["documents"][0]["path"] = "docs/a\n.md"
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        err = self.assertUserError(("audit", "--manifest", str(self.manifest)), "input")
        self.assertEqual(err, "run.py: error: source 'a' (docs/a\\n.md): path contains a control character "
                              "[invalid_path]\n")

    def test_source_that_is_a_fifo_exits_6_without_hanging(self) -> None:
        """Guards against the CLI blocking forever on a FIFO named as a source."""
        root = self.tmp / "fifo"
        manifest = write_corpus(root, {"docs/a.md": PAGE})
        (root / "docs" / "a.md").unlink()
        os.mkfifo(root / "docs" / "a.md")
        self.assertUserError(self.gate_args(manifest)[:-1], "input",
                             "source 'a' (docs/a.md): not a regular file [source_not_regular_file]")

    def test_manifest_with_a_lone_surrogate_is_refused_not_rewritten(self) -> None:
        """Regression: a '\\ud800' escape crashed pin mid-write (UnicodeEncodeError, temp file left)."""
        data = json.loads(self.manifest.read_text(encoding="utf-8"))
        data["documents"][0]["url"] = "https://docs.quill.example/\ud800"
        data["documents"][0]["sha256"] = ""
        self.manifest.write_text(json.dumps(data), encoding="utf-8")
        before = sorted(os.listdir(self.manifest.parent))
        for args in (("pin", "--manifest", str(self.manifest)), self.gate_args(self.manifest)):
            with self.subTest(args[0]):
                self.assertUserError(args, "input", "field 'url' contains a lone surrogate [invalid_manifest]")
        self.assertEqual(sorted(os.listdir(self.manifest.parent)), before)


class OutputErrorTest(CliErrorCase):
    """--output failures exit 7 and never destroy an earlier result."""

    def test_output_into_a_missing_folder(self) -> None:
        """Guards against creating folders (or failing with a traceback) for a mistyped --output."""
        target = self.tmp / "no-such-folder" / "result.json"
        self.assertUserError(("--output", str(target)), "output",
                             f"cannot write {target}: folder {target.parent} does not exist")
        self.assertFalse(target.parent.exists())

    def test_output_onto_a_directory_or_under_a_file(self) -> None:
        """Guards against replacing a directory, or writing 'into' a regular file, as the result."""
        folder = self.tmp / "result.json"
        folder.mkdir()
        (folder / "keep.json").write_bytes(SENTINEL)
        self.assertUserError(("--output", str(folder)), "output", f"cannot write {folder}: it is a directory")
        self.assertEqual((folder / "keep.json").read_bytes(), SENTINEL)
        self.assertEqual(os.listdir(folder), ["keep.json"])
        plain = self.tmp / "plain.json"
        plain.write_bytes(SENTINEL)
        self.assertUserError(("--output", str(plain / "result.json")), "output", "does not exist")
        self.assertEqual(plain.read_bytes(), SENTINEL)

    @unittest.skipIf(IS_ROOT, "running as root: a read-only folder does not stop root from writing")
    def test_output_into_a_read_only_folder_keeps_the_old_result(self) -> None:
        """Guards against a failed write destroying the earlier result in a read-only folder."""
        folder = self.tmp / "ro"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL)
        folder.chmod(0o555)
        self.addCleanup(folder.chmod, 0o755)
        self.assertUserError(("--output", str(target)), "output", f"cannot write {target}: Permission denied")
        self.assertEqual(target.read_bytes(), SENTINEL)
        self.assertEqual(os.listdir(folder), ["result.json"])

    def _main_in_process(self, target: Path) -> tuple[int, str, str]:
        """``run.main(["--output", target])`` with the lab result computed beforehand.

        The lab itself copies files (and so calls ``os.chmod`` and friends);
        computing it outside the patches makes the write the only step a patch
        can hit.
        """
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                mock.patch.object(run, "run_lab", return_value=self.lab):
            status = run.main(["--output", str(target)])
        return status, out.getvalue(), err.getvalue()

    @classmethod
    def setUpClass(cls) -> None:
        cls.lab = run.run_lab()

    def test_a_failure_mid_write_keeps_the_old_result_and_leaves_no_temp_file(self) -> None:
        """Guards against a partial result replacing a good one, and against stray temp files.

        Each step of the atomic write (flush to disk, set the mode, rename) is
        made to fail in turn, as a full disk or an I/O error would.
        """
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        for step in ("fsync", "chmod", "replace"):
            with self.subTest(step):
                target.write_bytes(SENTINEL)
                failure = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                with mock.patch.object(os, step, side_effect=failure) as patched:
                    status, out, err = self._main_in_process(target)
                self.assertTrue(patched.called, f"os.{step} is no longer part of the write")
                self.assertEqual(status, code("output"))
                self.assertEqual(err, f"run.py: error: cannot write {target}: {os.strerror(errno.ENOSPC)}\n")
                self.assertEqual(out, "")
                self.assertEqual(target.read_bytes(), SENTINEL)
                self.assertEqual(os.listdir(folder), ["result.json"])

    def test_a_successful_write_replaces_the_old_result_completely(self) -> None:
        """Control for the failure tests: the same call without a fault writes the fresh result."""
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL * 1000)  # longer than the result: no leftover tail may survive
        status, out, err = self._main_in_process(target)
        self.assertEqual((status, err), (code("ok"), ""))
        self.assertEqual(target.read_text(encoding="utf-8"), run.render_json(self.lab))
        self.assertEqual(os.listdir(folder), ["result.json"])

    def test_an_interrupted_write_leaves_no_temp_file(self) -> None:
        """Regression: Ctrl-C (or any non-OSError) during the write left '.result.json.*.tmp' behind."""
        folder = self.tmp / "out"
        folder.mkdir()
        target = folder / "result.json"
        target.write_bytes(SENTINEL)
        with mock.patch.object(os, "fsync", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                run.write_atomically(target, "{}\n")
        self.assertEqual(target.read_bytes(), SENTINEL)
        self.assertEqual(os.listdir(folder), ["result.json"])


class NoTracebackTest(CliErrorCase):
    def test_audit_of_a_manifest_whose_name_is_not_utf8(self) -> None:
        """Regression: ``audit`` printed the raw manifest path; with strict UTF-8 stdout, a traceback."""
        if sys.platform == "darwin":
            self.skipTest("macOS file systems refuse names that are not UTF-8")
        odd = os.fsencode(self.manifest.parent) + b"/m\xff.json"
        os.rename(self.manifest, odd)
        status, out, err = self.cli("audit", "--manifest", os.fsdecode(odd))
        self.assertNotIn("Traceback", err)
        self.assertEqual(status, code("ok"), err)


class FixturesUntouchedTest(unittest.TestCase):
    def test_commands_never_modify_docs_or_the_manifest(self) -> None:
        """Guards against the lab's changed-source case (or any command) editing the real fixtures."""
        watched = (REPO / "docs", REPO / "manifest.json", REPO / "expected-result.json")
        before = tree_digest(*watched)
        with tempfile.TemporaryDirectory(prefix="conflict-gate-cli-untouched-") as tmp:
            result = Path(tmp) / "result.json"
            commands = (
                ("--output", str(result)),
                ("--check",),
                ("gate", "--manifest", "manifest.json", "--version", "1.0", "--claim", "existing_path",
                 "quill-guide", "quill-reference"),
                ("audit", "--manifest", "manifest.json"),
                ("pin", "--check", "--manifest", "manifest.json"),
            )
            for args in commands:
                proc = subprocess.run([sys.executable, str(RUN), *args], cwd=REPO, capture_output=True,
                                      timeout=60)
                with self.subTest(args[0]):
                    self.assertNotIn(b"Traceback", proc.stderr)
                    self.assertIn(proc.returncode, (code("ok"), code("findings")), proc.stderr)
            self.assertTrue(result.is_file())
        self.assertEqual(tree_digest(*watched), before)


if __name__ == "__main__":
    unittest.main()
