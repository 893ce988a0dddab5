"""The MCP server as a client starts it: the wheel installed with the extra, a real stdio subprocess.

Not a ``test_*.py`` file, so the default suite does not run it (it needs the package index and the
MCP SDK). ``.ci/run``'s MCP step runs it with the SDK pinned::

    python -m unittest tests.mcp_check -v

It builds the wheel from a copy of the checkout (as ``tests/install_check.py`` does), installs it with
the ``mcp`` extra into a fresh virtual environment (the SDK pinned to the version this test runs
with), reads the ``mcpServers`` configuration block out of ``reference/mcp.md`` and starts the server
from exactly its ``command`` and ``args`` (the installed console script; the placeholder manifest path
replaced by a copy of the lab's), from an unrelated folder, through the SDK's stdio client. Over that
connection it makes the checks of :mod:`tests.test_mcp`: the tools and their published schemas, every
tool's structured result against the installed command line's JSON for the lab's cases, a bad request
as an error result with its reason, a page edited during the session refused on the next call, and
requests the SDK's reader cannot read answered each with its id (a raw stdio session).

Skips, saying why, without the SDK in this interpreter, without pip or venv, or when no package index
answers.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import unittest
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from _conflict_gate.results.schema import result_schema
from tests.install_check import BUILD_TIMEOUT, REPO, VenvCase, last_line
from tests.test_mcp import (
    HAVE_SDK,
    SKIP_WHY,
    check_bad_request,
    check_edit_during_session,
    check_every_request_answered,
    check_lab,
    check_listing,
    copy_lab,
)

#: The manifest path the configuration block shows, replaced by the copy's.
PLACEHOLDER = "/path/to/docs/manifest.json"


def configuration_block(page: Path = REPO / "reference" / "mcp.md") -> dict[str, Any]:
    """The ``conflict-gate`` entry of the one ``mcpServers`` JSON block in ``page``."""
    blocks = [
        json.loads(body)
        for body in re.findall(r"^```json\n(.*?)^```$", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
        if '"mcpServers"' in body
    ]
    if len(blocks) != 1:
        raise AssertionError(f"{page}: expected one mcpServers block, found {len(blocks)}")
    entry: dict[str, Any] = blocks[0]["mcpServers"]["conflict-gate"]
    return entry


@unittest.skipUnless(HAVE_SDK, SKIP_WHY)
class McpStdioCheck(VenvCase):
    def test_the_configured_server_over_stdio(self) -> None:
        self.require_pip_venv_and_index()
        wheel = self.build_wheel()
        python, scripts, _ = self.make_venv()
        pin = f"mcp=={importlib.metadata.version('mcp')}"
        installed = self.run_cmd(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{wheel}[mcp]", pin],
            cwd=self.tmp,
            timeout=BUILD_TIMEOUT,
        )
        if installed.returncode != 0:
            self.skipTest(
                f"MCP check SKIPPED: 'pip install {wheel.name}[mcp] {pin}' failed ({last_line(installed.stderr)})"
            )

        entry = configuration_block()
        self.assertIn(PLACEHOLDER, entry["args"])
        manifest = copy_lab(self.tmp / "lab")
        args = [str(manifest) if arg == PLACEHOLDER else arg for arg in entry["args"]]
        command = shutil.which(entry["command"], path=str(scripts))
        self.assertIsNotNone(command, f"{entry['command']!r} is not a script of the installed package")
        assert command is not None
        work = self.tmp / "somewhere-else"
        work.mkdir()

        def cli(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
            done = subprocess.run(
                [command, *argv], check=False, cwd=work, env=self.env, input=stdin, capture_output=True, timeout=120
            )
            return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")

        def validate(name: str, instance: Any) -> None:
            import jsonschema

            jsonschema.Draft202012Validator(result_schema(name)).validate(instance)

        self.drive(command, args, work, lambda client: check_listing(self, client))
        m = str(manifest)
        self.drive(
            command, args, work, lambda client: check_lab(self, client, cli, m, manifest.parent / "docs" / "answers")
        )
        self.drive(command, args, work, lambda client: check_bad_request(self, client, cli, m, validate))
        self.drive(command, args, work, lambda client: check_edit_during_session(self, client, cli, manifest))
        check_every_request_answered(self, [command, *args], work, env=dict(self.env))

    def drive(self, command: str, args: list[str], cwd: Path, check: Callable[[Any], Awaitable[None]]) -> None:
        """Start the server as a client would (a subprocess over stdio), run ``check``, end the session."""
        import anyio
        from mcp import Client, StdioServerParameters

        server = StdioServerParameters(
            command=command,
            args=args,
            cwd=str(cwd),
            env={**self.env, "PATH": f"{Path(command).parent}{os.pathsep}{self.env.get('PATH', '')}"},
        )

        async def main() -> None:
            with anyio.fail_after(300):
                async with Client(server) as client:
                    info = client.server_info
                    self.assertEqual(info.name, "conflict-gate")
                    await check(client)

        anyio.run(main)


if __name__ == "__main__":
    unittest.main()
