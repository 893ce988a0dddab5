"""The MCP server driven through the SDK's own in-memory client (needs the optional extra).

Skips, saying so, without the MCP SDK (the default suite runs with nothing installed); ``.ci/run``'s
MCP step runs it in a throwaway virtual environment with the SDK pinned. The checks an MCP client can
make are written once here, as coroutines over a connected ``mcp.Client``, and ``tests/mcp_check.py``
runs the same ones against the installed wheel's server as a real stdio subprocess:

* the tools are listed with their input schemas (the parameters of ``service.TOOLS``), their output
  schemas (exactly ``result_schema``) and their annotations (read-only, idempotent, closed-world);
* every tool's structured result equals the command line's JSON for the lab's cases, and its text is
  the command line's stdout;
* a bad request is an error result with its reason, the command line's stderr line as its text, and
  structured content valid against the ``tool-error`` schema;
* a page edited during the session is refused on the next call.
"""

from __future__ import annotations

import importlib.util
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from unittest import mock

import run
from _conflict_gate import __version__
from _conflict_gate.base.jsondata import render_json
from _conflict_gate.corpus import load as corpus_module
from _conflict_gate.results.schema import result_schema
from _conflict_gate.service.gate import FLOW, TOOLS, GateService
from tests.support import REPO, run_cli
from tests.test_site_record import RecordedCase, no_markdown_reading

HAVE_SDK = importlib.util.find_spec("mcp") is not None
SKIP_WHY = (
    'SKIPPED: the MCP SDK is not installed (pip install "conflict-gate[mcp]"); .ci/run installs it '
    "(pinned) into a throwaway venv and runs this there"
)

#: (code, stdout, stderr) of a command line run, in process or as a subprocess.
Cli = Callable[..., "tuple[int, str, str]"]


def copy_lab(target: Path) -> Path:
    """The lab's manifest and docs/ copied under ``target``; the copied manifest."""
    shutil.copytree(REPO / "docs", target / "docs")
    shutil.copy2(REPO / "manifest.json", target / "manifest.json")
    return target / "manifest.json"


def text_of(result: Any) -> str:
    (content,) = result.content
    return str(content.text)


async def check_listing(test: unittest.TestCase, client: Any) -> None:
    """Every tool of ``service.TOOLS``, in order, with its published schemas and annotations."""
    listed = (await client.list_tools()).tools
    test.assertEqual([tool.name for tool in listed], list(TOOLS))
    for tool in listed:
        spec = TOOLS[tool.name]
        with test.subTest(tool=tool.name):
            test.assertEqual(tool.output_schema, result_schema(spec.schema), "published verbatim")
            test.assertEqual(tool.description, spec.description)
            test.assertIn(FLOW, tool.description)
            test.assertEqual(list(tool.input_schema["properties"]), list(spec.parameters))
            test.assertEqual(sorted(tool.input_schema.get("required", [])), sorted(spec.required))
            for name, meaning in spec.parameters.items():
                test.assertEqual(tool.input_schema["properties"][name]["description"], meaning)
            annotations = tool.annotations
            test.assertEqual(
                (
                    annotations.read_only_hint,
                    annotations.destructive_hint,
                    annotations.idempotent_hint,
                    annotations.open_world_hint,
                ),
                (True, False, True, False),
            )


async def check_lab(test: unittest.TestCase, client: Any, cli: Cli, manifest: str, answers: Path) -> None:
    """Each tool's structured result equals the command line's JSON over the lab, and its text is the
    command line's stdout, for every lab case, every canned answer, the audit and the versions listing."""

    async def same(tool: str, arguments: dict[str, Any], *argv: str, stdin: bytes = b"") -> Any:
        result = await client.call_tool(tool, arguments)
        _, out, err = cli(*argv, stdin=stdin)
        test.assertFalse(result.is_error, text_of(result))
        test.assertEqual(result.structured_content, json.loads(out), err)
        test.assertEqual(text_of(result), out)
        return result.structured_content

    decisions = {}
    for case_id, candidates, version, operation, key, _ in run.LAB_CASES:
        with test.subTest(case=case_id):
            decisions[case_id] = await same(
                "gate",
                {"candidate_ids": list(candidates), "requested_version": version, "claim_key": key},
                "gate",
                "--manifest",
                manifest,
                "--version",
                version,
                "--claim",
                key,
                "--operation",
                operation,
                *candidates,
            )
    decision_file = answers.parent / "decision.json"
    for answer_id, case_id, _ in run.LAB_ANSWERS:
        with test.subTest(answer=answer_id):
            answer = (answers / f"{answer_id}.txt").read_bytes()
            decision_file.write_text(render_json(decisions[case_id]), encoding="utf-8")
            await same(
                "check_answer",
                {"decision": decisions[case_id], "answer": answer.decode("utf-8")},
                "check-answer",
                "--manifest",
                manifest,
                "--decision",
                str(decision_file),
                "--answer",
                "-",
                stdin=answer,
            )
    decision_file.unlink()
    await same("audit", {}, "audit", "--manifest", manifest, "--format", "json")
    await same("versions", {}, "versions", "--manifest", manifest, "--format", "json")
    limited = await client.call_tool("audit", {"limit": 1})
    test.assertIs(limited.structured_content["truncated"], True)


async def check_bad_request(
    test: unittest.TestCase, client: Any, cli: Cli, manifest: str, validate: Callable[[str, Any], None]
) -> None:
    """An unknown candidate and an ambiguous key are error results with their reasons; the text is the
    command line's stderr line; the structured content is a valid ``tool-error``."""
    request = {"candidate_ids": ["quill-guide", "quill-gide"], "requested_version": "1.0", "claim_key": "existing_path"}
    result = await client.call_tool("gate", request)
    test.assertTrue(result.is_error)
    test.assertEqual(result.structured_content["reason"], "unknown_candidate")
    test.assertEqual(result.structured_content["error"], "GateError")
    _, out, err = cli(
        "gate", "--manifest", manifest, "--version", "1.0", "--claim", "existing_path", "quill-guide", "quill-gide"
    )
    test.assertEqual((out, text_of(result) + "\n"), ("", err))
    validate("tool-error", result.structured_content)
    version = await client.call_tool("gate", {**request, "candidate_ids": ["quill-guide"], "requested_version": "1"})
    test.assertEqual(version.structured_content["reason"], "invalid_requested_version")
    forged = await client.call_tool("check_answer", {"decision": {"candidate_ids": []}, "answer": "x"})
    test.assertEqual((forged.is_error, forged.structured_content["error"]), (True, "DecisionError"))
    validate("tool-error", forged.structured_content)


async def check_edit_during_session(test: unittest.TestCase, client: Any, cli: Cli, manifest: Path) -> None:
    """A page edited while the server runs is refused on the next call, as ``gate --no-strict`` refuses
    it; restored, it is ready again."""
    request = {
        "candidate_ids": ["quill-guide", "quill-reference"],
        "requested_version": "1.0",
        "claim_key": "existing_path",
    }
    test.assertEqual((await client.call_tool("gate", request)).structured_content["status"], "ready")
    page = manifest.parent / "docs" / "quill-guide.md"
    raw = page.read_bytes()
    before, after = run.CHANGED_LINE
    page.write_bytes(raw.replace(before, after, 1))
    try:
        edited = await client.call_tool("gate", request)
        test.assertEqual(
            (edited.structured_content["status"], edited.structured_content["reason"]), ("refused", "hash_mismatch")
        )
        _, out, _ = cli(
            "gate",
            "--manifest",
            str(manifest),
            "--version",
            "1.0",
            "--claim",
            "existing_path",
            "--no-strict",
            "quill-guide",
            "quill-reference",
        )
        test.assertEqual(text_of(edited), out)
    finally:
        page.write_bytes(raw)
    test.assertEqual((await client.call_tool("gate", request)).structured_content["status"], "ready")


#: Requests the SDK's stdio reader refuses though each is valid JSON (issue 34 item 5), by id: a lone
#: surrogate escape in an argument, an argument nested 200 deep, an integer of 4,301 digits; then a
#: request it reads, which must still be answered after them.
UNREADABLE_REQUESTS: dict[int, str] = {
    11: '"candidate_ids": ["\\ud83d"], "requested_version": "1.0", "claim_key": "existing_path"',
    12: '"candidate_ids": ' + "[" * 200 + "]" * 200 + ', "requested_version": "1.0", "claim_key": "existing_path"',
    13: '"candidate_ids": ["a"], "requested_version": "1.0", "claim_key": "existing_path", "limit": ' + "9" * 4301,
    14: '"candidate_ids": ["nowhere"], "requested_version": "1.0", "claim_key": "existing_path"',
}


def stdio_session(
    argv: list[str], cwd: Path, env: dict[str, str] | None, requests: bytes, wanted: set[Any]
) -> dict[Any, Any]:
    """Start the server ``argv``, send ``requests`` (newline-ended lines), and collect its answers by id until
    every id of ``wanted`` has one (bounded only against a server that never answers); then close its input
    and reap it."""
    server = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    answers: dict[Any, Any] = {}
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(requests)
        server.stdin.flush()
        received = b""
        deadline = time.monotonic() + 120
        with selectors.DefaultSelector() as selector:
            selector.register(server.stdout, selectors.EVENT_READ)
            while set(answers) != wanted and time.monotonic() < deadline:
                if selector.select(timeout=1):
                    chunk = os.read(server.stdout.fileno(), 1 << 16)
                    if not chunk:
                        break
                    received += chunk
                    *whole, received = received.split(b"\n")
                    for text in whole:
                        answer = json.loads(text)
                        answers[answer.get("id")] = answer
        server.stdin.close()
        server.wait(60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return answers


def check_every_request_answered(
    test: unittest.TestCase, argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> None:
    """Start the server ``argv`` as a stdio subprocess, make the handshake by hand, send
    :data:`UNREADABLE_REQUESTS` as ``tools/call`` lines, and assert each id gets its answer: a JSON-RPC
    error (``-32600``) for the three the SDK cannot read, the tool's error result for the last. The
    wait is bounded only against a server that never answers (the fault)."""

    def line(message: str) -> bytes:
        return (message + "\n").encode("utf-8")

    hello = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
    )
    calls = [line(hello), line('{"jsonrpc": "2.0", "method": "notifications/initialized"}')]
    calls += [
        line(
            '{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "gate", "arguments": {%s}}}'
            % (request_id, arguments)
        )
        for request_id, arguments in UNREADABLE_REQUESTS.items()
    ]
    answers = stdio_session(argv, cwd, env, b"".join(calls), {1, *UNREADABLE_REQUESTS})
    test.assertEqual(sorted(answers, key=str), sorted({1, *UNREADABLE_REQUESTS}, key=str))
    for request_id in (11, 12, 13):
        with test.subTest(request_id=request_id):
            error = answers[request_id]["error"]
            test.assertEqual(error["code"], -32600)
            test.assertIn("the server cannot read this request", error["message"])
    test.assertTrue(answers[14]["result"]["isError"])
    test.assertEqual(answers[14]["result"]["structuredContent"]["reason"], "unknown_candidate")


@unittest.skipUnless(HAVE_SDK, SKIP_WHY)
class McpServerTest(unittest.TestCase):
    """The server in process, through ``mcp.Client(server)``."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="conflict-gate-mcp-")
        self.addCleanup(tmp.cleanup)
        self.manifest = copy_lab(Path(os.path.realpath(tmp.name)))
        self.m = str(self.manifest)

    def drive(self, check: Callable[[Any], Awaitable[None]], *, mode: str = "auto") -> None:
        import anyio
        from mcp import Client

        from _conflict_gate.service.gate import GateService
        from _conflict_gate.service.mcp import build_server

        server = build_server(GateService(self.m))

        async def main() -> None:
            async with Client(server, mode=mode) as client:
                await check(client)

        anyio.run(main)

    @staticmethod
    def cli(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
        return run_cli(argv, stdin=stdin)

    def validate(self, name: str, instance: Any) -> None:
        import jsonschema  # the SDK depends on it

        jsonschema.Draft202012Validator(result_schema(name)).validate(instance)

    def test_the_tools_are_listed_with_their_schemas_and_annotations(self) -> None:
        self.drive(lambda client: check_listing(self, client))

    def test_every_tool_equals_the_command_lines_json_for_the_lab(self) -> None:
        self.drive(lambda client: check_lab(self, client, self.cli, self.m, self.manifest.parent / "docs" / "answers"))

    def test_a_bad_request_is_an_error_result_with_its_reason(self) -> None:
        self.drive(lambda client: check_bad_request(self, client, self.cli, self.m, self.validate))

    def test_a_page_edited_during_the_session_is_refused_on_the_next_call(self) -> None:
        self.drive(lambda client: check_edit_during_session(self, client, self.cli, self.manifest))

    def test_the_handshake_names_the_server(self) -> None:
        """The initialize handshake, as a stdio client such as Claude Code makes it."""

        async def check(client: Any) -> None:
            info = client.server_info
            self.assertEqual((info.name, info.version), ("conflict-gate", __version__))
            await check_listing(self, client)

        self.drive(check, mode="legacy")

    def test_arguments_outside_the_input_schema_are_refused_by_the_sdk(self) -> None:
        async def check(client: Any) -> None:
            for tool, arguments in (
                ("gate", {"requested_version": "1.0", "claim_key": "existing_path"}),
                ("gate", {"candidate_ids": [1], "requested_version": "1.0", "claim_key": "k"}),
                ("audit", {"limit": -1}),
            ):
                with self.subTest(tool=tool, arguments=arguments):
                    result = await client.call_tool(tool, arguments)
                    self.assertTrue(result.is_error)
                    self.assertIsNone(result.structured_content)
                    self.assertIn("validation error", text_of(result))

        self.drive(check)


@unittest.skipUnless(HAVE_SDK, SKIP_WHY)
class RecordedReadingsTest(RecordedCase):
    """A site whose readings pin --site recorded (tests.test_site_record), served."""

    def test_the_mcp_server_uses_recorded_readings(self) -> None:
        """Guards against the MCP server reading a page as Markdown when the manifest records its reading:
        its gate and audit tools answer from the records, as the command line does."""
        import anyio
        from mcp import Client

        from _conflict_gate.service.mcp import build_server

        self.assertEqual(self.pin_site()[0], 0)
        request = {"candidate_ids": ["a", "b"], "requested_version": "1.0", "claim_key": "existing_path"}

        async def main() -> None:
            async with Client(build_server(GateService(str(self.manifest)))) as client:
                decision = (await client.call_tool("gate", request)).structured_content
                self.assertEqual((decision["status"], decision["reason"]), ("not_in_docs", "requested_claim_missing"))
                self.assertEqual([c["source_id"] for c in decision["claims"]], ["a"])
                report = (await client.call_tool("audit", {})).structured_content
                self.assertEqual([r["source_id"] for r in report["refused_sources"]], ["c"])

        with mock.patch.object(corpus_module, "read_page", no_markdown_reading):
            anyio.run(main)


@unittest.skipUnless(HAVE_SDK, SKIP_WHY)
class UnreadableRequestTest(unittest.TestCase):
    """Every request gets an answer, whatever the SDK's reader makes of it."""

    def test_requests_the_sdk_cannot_read_are_answered_over_stdio(self) -> None:
        """Guards against requests left unanswered (issue 34 item 5): the SDK's stdio reader dropped a
        valid JSON-RPC request it could not read (a lone surrogate escape, nesting 200 deep, a 4,301-digit
        integer) without an answer, so the client waited for ever. Each now gets a JSON-RPC error
        with its id, and the session goes on."""
        with tempfile.TemporaryDirectory(prefix="conflict-gate-mcp-") as tmp:
            manifest = copy_lab(Path(os.path.realpath(tmp)))
            check_every_request_answered(
                self, [sys.executable, str(REPO / "conflict_gate.py"), "mcp", "--manifest", str(manifest)], Path(tmp)
            )

    def test_what_is_answered_and_with_which_id(self) -> None:
        """Guards against answering what JSON-RPC never answers (a notification, a response) and
        against an answer that would end the session (an id the SDK's writer cannot write); the
        request's id found at any depth of nesting (issue 34 item 5)."""
        from _conflict_gate.service.mcp import answer_for, sdk_problem

        deep = "[" * 100_000 + "]" * 100_000
        cases: list[tuple[str, Any]] = [
            ('{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"x": "\\ud83d"}}', ("a", -32600)),
            ('{"jsonrpc": "2.0", "id": 7, "method": "m", "params": {"x": %s}}' % deep, (7, -32600)),
            ('{"jsonrpc": "2.0", "method": "m", "params": {"x": %s}, "id": 8}' % deep, (8, -32600)),
            ('{"jsonrpc": "2.0", "id": 9}', (9, -32600)),
            ('{"jsonrpc": "2.0", "id": "\\ud83d", "method": "m"}', (None, -32600)),
            ('{"jsonrpc": "2.0", "id": %s, "method": "m"}' % ("1" * 5000), (None, -32600)),
            ('{"jsonrpc": "2.0", "id": [1], "method": "m", "params": 1}', (None, -32600)),
            ("not JSON", (None, -32700)),
            ('{"jsonrpc": "2.0", "id": 3, "method": "m", "params": {]}', (3, -32600)),
            ('{"jsonrpc": "2.0", "method": "notifications/x", "params": {"x": "\\ud83d"}}', None),
            ('{"jsonrpc": "2.0", "id": 4, "result": {"x": "\\ud83d"}}', None),
            ("   ", None),
            # hostile-2 finding 7: the SDK reads these as a notification or a response and answers none.
            *[
                ('{"jsonrpc": "2.0", "id": %s, "method": "ping"}' % bad, (None, -32600))
                for bad in ("1.0", "4.5", "true", "false", "[1]", '{"a": 1}', "null", "1e400")
            ],
            ('{"jsonrpc": "2.0", "id": 3, "method": "ping", "error": {"code": 1, "message": "x"}}', (3, -32600)),
            ('{"jsonrpc": "2.0", "id": 5, "method": "ping", "result": {}}', (5, -32600)),
        ]
        for text, expected in cases:
            with self.subTest(text=text[:80]):
                problem = sdk_problem(text + "\n")
                self.assertIsNotNone(problem)
                assert problem is not None
                answer = answer_for(text + "\n", *problem)
                if expected is None:
                    self.assertIsNone(answer)
                    continue
                assert answer is not None
                written = json.loads(answer.model_dump_json(by_alias=True, exclude_unset=True))
                self.assertEqual((written["id"], written["error"]["code"]), expected)
        self.assertIsNone(sdk_problem('{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'))

    def test_a_cr_inside_a_line_and_an_undecodable_file_name_over_stdio(self) -> None:
        """Guards against hostile-2 findings 6 and 7: a bare CR inside a request (JSON whitespace) split
        the line in two (two parse errors, no answer for its id), and an unlisted page whose file name
        is not UTF-8 made the audit tool's result unwritable, so the server died with request
        unanswered. Now id 31 is answered, the audit answers with the name written ``\\xff``, and the
        session goes on (id 33)."""
        if not hasattr(os, "fsencode") or sys.platform in ("win32", "darwin"):
            self.skipTest("needs a file system that holds a non-UTF-8 name")
        with tempfile.TemporaryDirectory(prefix="conflict-gate-mcp-") as tmp:
            root = Path(os.path.realpath(tmp))
            import hashlib

            page = b"# T\n\n@quill create_copy existing_path=refuse\n"
            (root / "docs" / "1.0").mkdir(parents=True)
            (root / "docs" / "1.0" / "a.md").write_bytes(page)
            os.close(
                os.open(os.path.join(os.fsencode(root), b"docs", b"1.0", b"b\xff.md"), os.O_CREAT | os.O_WRONLY, 0o644)
            )
            manifest = root / "manifest.json"
            manifest.write_text(
                json.dumps(
                    {
                        "grammar": {
                            "namespace": "quill",
                            "product": "Quill",
                            "operations": {
                                "create_copy": {"existing_path": {"type": "enum", "values": ["refuse", "overwrite"]}}
                            },
                        },
                        "version_scheme": "major.minor",
                        "renderer": "github",
                        "sources": {"include": ["docs/{version}/**/*.md"]},
                        "documents": [
                            {
                                "source_id": "a",
                                "version": "1.0",
                                "path": "docs/1.0/a.md",
                                "sha256": hashlib.sha256(page).hexdigest(),
                            }
                        ],
                    }
                ),
                encoding="utf-8",
            )
            audit = run_cli(["audit", "--manifest", str(manifest), "--format", "json"])
            hello = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"},
                    },
                }
            )
            lines = [
                hello.encode(),
                b'{"jsonrpc": "2.0", "method": "notifications/initialized"}',
                b'{"jsonrpc":"2.0",\r"id":31,"method":"ping"}',
                b'{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"audit","arguments":{}}}',
                b'{"jsonrpc":"2.0","id":33,"method":"ping"}',
            ]
            answers = stdio_session(
                [sys.executable, str(REPO / "conflict_gate.py"), "mcp", "--manifest", str(manifest)],
                root,
                None,
                b"\n".join(lines) + b"\n",
                {1, 31, 32, 33},
            )
        self.assertIn("\\xff", json.dumps(json.loads(audit[1].encode("utf-8"))))
        self.assertEqual(sorted(answers), [1, 31, 32, 33])
        self.assertEqual(answers[31]["result"], {})
        self.assertIn("\\xff", json.dumps(answers[32]["result"]["structuredContent"]))


if __name__ == "__main__":
    unittest.main()
