"""The MCP server: the gate's four tools over stdio, built on the MCP Python SDK 2.x (``MCPServer``).

Imported only by ``conflict-gate mcp`` (never by ``import conflict_gate``): the
SDK is the optional extra ``conflict-gate[mcp]``. Each tool calls one method of
:class:`~_conflict_gate.service.GateService`, which keeps the corpus fresh, and
answers with a ``CallToolResult`` built here:

* a result: its JSON as text (exactly what the command line prints) and the same
  object as structured content; the tool's output schema is
  :func:`~_conflict_gate.schema.result_schema` of its result, registered as it is
  (the SDK derives no schema: the tools return ``CallToolResult``);
* a :class:`~_conflict_gate.errors.GateError`, ``DecisionError``,
  ``IngestionError`` or ``GrammarError``: ``isError: true``, the command line's
  stderr line as text and ``{error, reason, message}`` (``tool-error``) as
  structured content.

Every tool is marked read-only, non-destructive, idempotent and closed-world.
Arguments that do not fit a tool's input schema are refused by the SDK before the
tool runs (``isError: true``, the SDK's text, no structured content).
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Final, Mapping

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from . import __version__
from .jsondata import render_json
from .registry import DEFAULT_UNRELATED
from .schema import result_schema
from .service import FLOW, TOOL_ERRORS, TOOLS, GateService

__all__ = ["SERVER_NAME", "build_server", "serve"]

#: The server's name in the MCP handshake (its version is the package's).
SERVER_NAME: Final = "conflict-gate"


def _doc(tool: str, parameter: str) -> Any:
    """The ``Field`` that describes one parameter, from :data:`~_conflict_gate.service.TOOLS`."""
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
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=dict(content),
                              is_error=True)
    return CallToolResult(content=[TextContent(type="text", text=render_json(result))],
                          structured_content=dict(result))


def build_server(service: GateService) -> MCPServer:
    """An ``MCPServer`` with the four tools over ``service`` (not started)."""

    def versions() -> CallToolResult:
        return _answer(service, service.versions)

    def gate(candidate_ids: CandidateIds, requested_version: RequestedVersion, claim_key: ClaimKey,
             operation: Operation = None, unrelated: Unrelated = DEFAULT_UNRELATED,
             question: Question = None) -> CallToolResult:
        return _answer(service, lambda: service.gate(candidate_ids, requested_version, claim_key, operation, unrelated,
                                                     question))

    def check_answer(decision: DecisionArgument, answer: AnswerText) -> CallToolResult:
        return _answer(service, lambda: service.check_answer(decision, answer))

    def audit(limit: Limit = None) -> CallToolResult:
        return _answer(service, lambda: service.audit(limit))

    functions: dict[str, Callable[..., CallToolResult]] = {
        "versions": versions, "gate": gate, "check_answer": check_answer, "audit": audit}
    tools = []
    for name, spec in TOOLS.items():
        tool = Tool.from_function(functions[name], name=name, title=spec.title, description=spec.description,
                                  annotations=ToolAnnotations(title=spec.title, read_only_hint=True,
                                                              destructive_hint=False, idempotent_hint=True,
                                                              open_world_hint=False),
                                  structured_output=False)
        tool.fn_metadata.output_schema = result_schema(spec.schema)  # published as it is, not derived
        tools.append(tool)
    return MCPServer(SERVER_NAME, version=__version__, title="conflict-gate", instructions=FLOW, tools=tools,
                     log_level="WARNING")


def serve(service: GateService) -> None:
    """Serve ``service`` over stdio until the client ends the session."""
    build_server(service).run("stdio")
