"""The MCP server: the gate's four tools over stdio, built on the MCP Python SDK 2.x (``MCPServer``).

Imported only by ``conflict-gate mcp`` (never by ``import conflict_gate``): the
SDK is the optional extra ``conflict-gate[mcp]``. Each tool calls one method of
:class:`~_conflict_gate.service.gate.GateService`, which keeps the corpus fresh, and
answers with a ``CallToolResult`` built here:

* a result: its JSON as text (exactly what the command line prints) and the same
  object as structured content; the tool's output schema is
  :func:`~_conflict_gate.results.schema.result_schema` of its result, registered as it is
  (the SDK derives no schema: the tools return ``CallToolResult``);
* a :class:`~_conflict_gate.base.errors.GateError`, ``DecisionError``,
  ``IngestionError`` or ``GrammarError``: ``isError: true``, the command line's
  stderr line as text and ``{error, reason, message}`` (``tool-error``) as
  structured content.

Every tool is marked read-only, non-destructive, idempotent and closed-world.
Arguments that do not fit a tool's input schema are refused by the SDK before the
tool runs (``isError: true``, the SDK's text, no structured content).

Every request gets an answer (:class:`CheckedLines`): the SDK's stdio reader
drops, unanswered, a line its JSON reader refuses (a lone surrogate escape,
nesting 200 deep, an integer of more than 4,300 digits: valid JSON all three)
or that is no JSON-RPC message, so a client would wait for ever. Each line is
read here first exactly as the SDK's reader reads it; one it would refuse is not
passed on, and :func:`answer_for` answers it: a JSON-RPC error with the
request's id (``-32600``, or ``-32700`` with a ``null`` id when the line is not a
JSON object), never for a notification or a response.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterator, Mapping
from json import loads as json_loads
from typing import Annotated, Any, BinaryIO, Final, cast

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    CallToolResult,
    ErrorData,
    JSONRPCError,
    JSONRPCRequest,
    TextContent,
    ToolAnnotations,
    jsonrpc_message_adapter,
)
from pydantic import Field, ValidationError

# isort: split
import anyio  # after the SDK (which depends on it): without the extra, the ImportError names mcp

from .. import __version__
from ..base.jsondata import printable_value, render_json
from ..base.registry import DEFAULT_UNRELATED
from ..results.schema import result_schema
from .gate import FLOW, TOOL_ERRORS, TOOLS, GateService

__all__ = ["SERVER_NAME", "CheckedLines", "answer_for", "build_server", "sdk_problem", "serve"]

#: The server's name in the MCP handshake (its version is the package's).
SERVER_NAME: Final = "conflict-gate"


def _doc(tool: str, parameter: str) -> Any:
    """The ``Field`` that describes one parameter, from :data:`~_conflict_gate.service.gate.TOOLS`."""
    return Field(description=TOOLS[tool].parameters[parameter])


CandidateIds = Annotated[list[str], _doc("gate", "candidate_ids")]
RequestedVersion = Annotated[str, _doc("gate", "requested_version")]
ClaimKey = Annotated[str, _doc("gate", "claim_key")]
Operation = Annotated["str | None", _doc("gate", "operation")]
Unrelated = Annotated[str, _doc("gate", "unrelated")]
Question = Annotated["str | None", _doc("gate", "question")]
DecisionArgument = Annotated["dict[str, Any]", _doc("check_answer", "decision")]
AnswerText = Annotated[str, _doc("check_answer", "answer")]
Limit = Annotated["int | None", Field(ge=0, description=TOOLS["audit"].parameters["limit"])]


def _answer(service: GateService, call: Callable[[], Mapping[str, Any]]) -> CallToolResult:
    """Run one tool call; its result, or the error result of a typed error."""
    try:
        result = call()
    except TOOL_ERRORS as error:
        text, content = service.error_result(error)
        return CallToolResult(
            content=[TextContent(type="text", text=text)],
            structured_content=printable_value(dict(content)),
            is_error=True,
        )
    result = printable_value(dict(result))  # an undecodable file name: always valid UTF-8 on the wire
    return CallToolResult(content=[TextContent(type="text", text=render_json(result))], structured_content=result)


def build_server(service: GateService) -> MCPServer:
    """An ``MCPServer`` with the four tools over ``service`` (not started)."""

    def versions() -> CallToolResult:
        return _answer(service, service.versions)

    def gate(
        candidate_ids: CandidateIds,
        requested_version: RequestedVersion,
        claim_key: ClaimKey,
        operation: Operation = None,
        unrelated: Unrelated = DEFAULT_UNRELATED,
        question: Question = None,
    ) -> CallToolResult:
        return _answer(
            service, lambda: service.gate(candidate_ids, requested_version, claim_key, operation, unrelated, question)
        )

    def check_answer(decision: DecisionArgument, answer: AnswerText) -> CallToolResult:
        return _answer(service, lambda: service.check_answer(decision, answer))

    def audit(limit: Limit = None) -> CallToolResult:
        return _answer(service, lambda: service.audit(limit))

    functions: dict[str, Callable[..., CallToolResult]] = {
        "versions": versions,
        "gate": gate,
        "check_answer": check_answer,
        "audit": audit,
    }
    tools = []
    for name, spec in TOOLS.items():
        tool = Tool.from_function(
            functions[name],
            name=name,
            title=spec.title,
            description=spec.description,
            annotations=ToolAnnotations(
                title=spec.title,
                read_only_hint=True,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
            structured_output=False,
        )
        tool.fn_metadata.output_schema = result_schema(spec.schema)  # published as it is, not derived
        tools.append(tool)
    return MCPServer(
        SERVER_NAME, version=__version__, title="conflict-gate", instructions=FLOW, tools=tools, log_level="WARNING"
    )


def serve(service: GateService) -> None:
    """Serve ``service`` over stdio until the client ends the session (the SDK's stdio transport, its
    lines read through :class:`CheckedLines`)."""
    anyio.run(_serve_stdio, build_server(service))


async def _serve_stdio(server: MCPServer) -> None:
    """``MCPServer.run("stdio")``, but for the client's lines, read as the SDK reads them (UTF-8, a
    bad byte replaced) but split on LF only (a CR inside a line is JSON whitespace, never an end of line) and passed through :class:`CheckedLines`. The SDK's ``MCPServer`` has no
    public way to run over given streams: its low-level server is reached as the SDK's own
    in-memory client reaches it."""
    with _stdin_wire() as wire:
        lines = CheckedLines(anyio.wrap_file(_StdinText(wire, encoding="utf-8", errors="replace", newline="\n")))
        # The SDK iterates the stream it is given and nothing else.
        async with stdio_server(stdin=cast("anyio.AsyncFile[str]", lines)) as (read_stream, write_stream):
            lines.answer_on(write_stream)
            lowlevel = server._lowlevel_server
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


@contextlib.contextmanager
def _stdin_wire() -> Iterator[BinaryIO]:
    """The client's bytes, read from a copy of descriptor 0 while descriptor 0 itself is the null device,
    as the SDK's transport does with a stdin it opens itself: a process started meanwhile (a pool's
    forkserver) inherits the null device, never the client's requests. Restored after; the copy is
    never closed (a thread may still block reading it, and a closed number could be reused under it).
    Where descriptor 0 cannot be copied, ``sys.stdin``'s own buffer."""
    try:
        wire = os.dup(0)
    except OSError:
        yield sys.stdin.buffer
        return
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield open(wire, "rb", closefd=False)  # noqa: SIM115 - never closed, as the docstring says
    finally:
        os.dup2(wire, 0)


class _StdinText(io.TextIOWrapper):
    """The text layer over ``sys.stdin.buffer``; closing it leaves the buffer open (it is not ours)."""

    def close(self) -> None:
        try:
            self.detach()
        except ValueError:
            pass


class CheckedLines:
    """The client's lines on their way to the SDK's stdio reader: each one that reader would refuse
    (:func:`sdk_problem`) is held back, and the request in it answered here (:func:`answer_for`) on the
    session's write stream, given by :meth:`answer_on` once the transport is open. Lines the SDK reads
    pass unchanged, in order; it reads each again (a second parse of a line the SDK accepts, a few
    microseconds on a tool call)."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines
        self._answers: Any = None
        self._ready = anyio.Event()

    def answer_on(self, write_stream: Any) -> None:
        """Answer refused requests on ``write_stream`` (the SDK transport's, of ``SessionMessage``)."""
        self._answers = write_stream
        self._ready.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._lines:
            problem = sdk_problem(line)
            if problem is None:
                yield line
                continue
            answer = answer_for(line, *problem)
            if answer is not None:
                await self._ready.wait()
                await self._answers.send(SessionMessage(answer))


def sdk_problem(line: str) -> tuple[bool, str] | None:
    """Why the SDK's stdio reader would refuse ``line`` (it reads it with the same call): ``(whether its
    JSON reader refused the text, the SDK's first error)``, or ``None`` when it reads it.

    A line the SDK reads but would not answer although it is a request is refused too: a JSON object
    with ``method`` and an ``id`` member that the SDK takes for something other than a request (an
    ``id`` that is no string or integer: ``1.0``, ``true``, ``null``, ``[1]``; JSON-RPC 2.0 answers an
    invalid request with a ``null`` id), or with ``method`` and ``result`` or ``error`` (neither a
    request nor a response)."""
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as error:
        found = error.errors(include_url=False, include_context=False, include_input=False)
        if not found:
            return False, "not a JSON-RPC message"
        first = found[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        text = f"{where}: {first['msg']}" if where else str(first["msg"])
        return first.get("type") == "json_invalid", text[:_PROBLEM_CHARS]
    except Exception as error:  # noqa: BLE001 - the SDK's reader catches every exception too
        return False, type(error).__name__
    members = top_level_members(line)
    if members is None or "method" not in members or "id" not in members:
        return None
    if "result" in members or "error" in members:
        return False, "a request has no result or error member"
    if not isinstance(message, JSONRPCRequest):
        return False, "id: a request's id is a string or an integer"
    return None


#: At most this many characters of the SDK's error in an answer's message.
_PROBLEM_CHARS: Final = 300


def answer_for(line: str, json_refused: bool, problem: str) -> JSONRPCError | None:
    """The answer to ``line``, which the SDK's reader refuses for ``problem`` (:func:`sdk_problem`), or
    ``None`` for a line that gets none: blank, a notification (a JSON object without ``id``) or a
    response (``result`` or ``error`` and no ``method``).

    A JSON object (its top-level members found by :func:`top_level_members`, in linear time whatever its
    depth) is answered ``-32600`` (invalid request) with its ``id`` when that is a string or an integer
    the answer can carry, else with a ``null`` id; anything else is answered with a ``null`` id,
    ``-32700`` (parse error) when the SDK's JSON reader refused it, else ``-32600``. The message
    names the SDK's problem; it never echoes the request.
    """
    if not line.strip():
        return None
    members = top_level_members(line)
    if members is None:
        code = PARSE_ERROR if json_refused else INVALID_REQUEST
        return _error(None, code, f"the server cannot read this message: {problem}")
    if "id" not in members or ("method" not in members and ("result" in members or "error" in members)):
        return None
    return _error(_request_id(members["id"]), INVALID_REQUEST, f"the server cannot read this request: {problem}")


def _request_id(raw: str) -> int | str | None:
    """The id a request's raw ``id`` member holds, or ``None`` where it is no string or integer (or one
    Python cannot hold: an integer past 4,300 digits, nesting past the recursion limit)."""
    try:
        value = json_loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    """A JSON-RPC error for ``request_id``; with a ``null`` id when that id cannot be written (a
    lone surrogate in a string id)."""
    answer = JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))
    try:
        answer.model_dump_json(by_alias=True, exclude_unset=True)
    except Exception:  # noqa: BLE001 - the writer would fail on it and end the session
        answer = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))
    return answer


_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_STRUCTURE: Final = re.compile(r'["\[\]{}]')
#: A JSON string from its opening quote to its closing one (its escapes not checked).
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SCALAR_END: Final = re.compile(r"[ \t\n\r,\]}]")


def top_level_members(text: str) -> dict[str, str] | None:
    """The raw text of each top-level member's value of the JSON object ``text`` (the last of a
    repeated key), or ``None`` when ``text`` is not a JSON object as far as its strings, brackets and
    commas show (nested values are skipped by their brackets, not checked: time linear in ``text``,
    no recursion, whatever the depth)."""
    try:
        i = _skip(text, 0)
        if not text.startswith("{", i):
            return None
        members: dict[str, str] = {}
        i = _skip(text, i + 1)
        if text.startswith("}", i):
            return members
        while True:
            if not text.startswith('"', i):
                return None
            end = _string_end(text, i)
            if end is None:
                return None
            key = json_loads(text[i:end])
            i = end
            i = _skip(text, i)
            if not text.startswith(":", i):
                return None
            i = _skip(text, i + 1)
            end = _value_end(text, i)
            if end is None:
                return None
            members[key] = text[i:end]
            i = _skip(text, end)
            if text.startswith(",", i):
                i = _skip(text, i + 1)
                continue
            return members if text.startswith("}", i) else None
    except ValueError:  # a key json refuses
        return None


def _string_end(text: str, i: int) -> int | None:
    """Past the JSON string whose opening quote is at ``i``; ``None`` when it does not close."""
    found = _STRING.match(text, i)
    return None if found is None else found.end()


def _skip(text: str, i: int) -> int:
    """Past the JSON whitespace at ``i``."""
    found = _WHITESPACE.match(text, i)
    return i if found is None else found.end()


def _value_end(text: str, i: int) -> int | None:
    """Where the JSON value starting at ``i`` ends, by its quotes and brackets; ``None`` when it does not."""
    if i >= len(text):
        return None
    if text[i] == '"':
        return _string_end(text, i)
    if text[i] in "[{":
        depth = 0
        while True:
            found = _STRUCTURE.search(text, i)
            if found is None:
                return None
            i = found.end()
            mark = found.group()
            if mark == '"':
                end = _string_end(text, i - 1)
                if end is None:
                    return None
                i = end
            elif mark in "[{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return i
    found = _SCALAR_END.search(text, i)
    end = len(text) if found is None else found.start()
    return end if end > i else None
