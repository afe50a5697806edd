"""The MCP server around the sandbox: `build_server(world, suites, runs_dir)`.

Tools: the six sandbox tools, `list_tasks`, `start_task`, `submit_answer`. Resources: the task list
(`shopbench://tasks`) and the tool documentation (`shopbench://tools`); prompt: `shopping_agent`.

Per-client state. Each client has its own episode; two clients never see each other's. A client is its MCP
connection: the stdio process (one client per process), a streamable-HTTP session (Mcp-Session-Id), or an
in-memory connection made with the initialize handshake. MCP 2026-07-28 connections are stateless (every request is
its own connection), so over HTTP the server declines `server/discover` and clients fall back to the handshake,
which carries a session; an in-memory client must connect with `mode="legacy"`.

Sandbox tools are declared once in `mcp_server.tools` (pydantic argument models); this server lists them with those
schemas and routes every call — malformed ones included — to the client's episode, which records it.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND, CallToolResult, TextContent
from mcp_types import Tool as MCPTool
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError
from starlette.responses import JSONResponse

from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS
from mcp_server.episodes import (
    DEFAULT_MAX_STEPS,
    QA_TOOLS,
    SUBMIT_ANSWER_DESCRIPTION,
    Episode,
    EpisodeError,
    StepResult,
    SubmitAnswerArgs,
)
from mcp_server.protocol import (
    META_AGENT,
    META_EPISODE_ID,
    META_EPOCH,
    META_KEYS,
    META_THOUGHT,
    META_USAGE,
    RECORD_MALFORMED_TOOL,
    SERVER_NAME,
    TASKS_URI,
    TOOLS_URI,
)
from mcp_server.suites import TaskListing, TaskSuite
from mcp_server.tools import SHOPPING_TOOLS, Sandbox, describe_validation_error
from mcp_server.trajectory import AgentInfo, Usage

if TYPE_CHECKING:
    from mcp_server.world import World

EPISODE_TOOLS = (*SHOPPING_TOOLS, *QA_TOOLS)


@dataclass(eq=False)
class ClientState:
    """What one client has going: at most one episode at a time."""

    episode: Episode | None = None


@dataclass
class ServerState:
    world: World | None
    suites: list[TaskSuite]
    runs_dir: Path
    max_steps: int
    agent_defaults: dict[str, Any]
    single_client: bool
    sandbox: Sandbox | None
    shared_client: ClientState = field(default_factory=ClientState)
    clients: set[ClientState] = field(default_factory=set)
    """Connected clients (HTTP sessions, in-memory connections), so shutdown can end their episodes."""


class ShopbenchServer(MCPServer):
    """MCPServer whose sandbox tools run inside the calling client's episode."""

    def __init__(self, state: ServerState) -> None:
        super().__init__(SERVER_NAME, instructions=MCP_AGENT_INSTRUCTIONS, log_level="WARNING")
        self.state = state
        self._tool_list: list[MCPTool] | None = None

    async def list_tools(self) -> list[MCPTool]:
        """The tool list, built once: every episode lists tools, and regenerating the schemas cost ~16 ms each."""
        if self._tool_list is None:
            tools = await super().list_tools()
            specs = [(spec.name, spec.description, spec.arguments) for spec in SHOPPING_TOOLS.values()]
            specs.append(("submit_answer", SUBMIT_ANSWER_DESCRIPTION, SubmitAnswerArgs))
            self._tool_list = tools + [
                MCPTool(name=name, description=description, input_schema=model.model_json_schema())
                for name, description, model in specs
            ]
        return list(self._tool_list)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        if self._tool_manager.get_tool(name) is not None:
            return await super().call_tool(name, arguments, context)
        client = self.client_state(context)
        if client.episode is None:
            known = name in EPISODE_TOOLS or name == RECORD_MALFORMED_TOOL
            what = f"{name} runs inside a task" if known else f"unknown tool {name!r}"
            raise ToolError(f"{what}; no task is running: call list_tasks, then start_task(task_id)")
        thought, usage = _step_meta(context)
        if name == RECORD_MALFORMED_TOOL:
            turn = _malformed_turn(arguments)
            return _tool_result(client.episode.record_malformed(**turn, thought=thought, usage=usage))
        return _tool_result(client.episode.call(name, arguments, thought=thought, usage=usage))

    def client_state(self, context: Context | None) -> ClientState:
        """The calling client's state; an error when the connection cannot hold any (see the module docstring)."""
        if self.state.single_client or context is None:
            return self.state.shared_client
        session = context.request_context.session
        if session.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise ToolError(
                "this MCP connection is stateless (protocol 2026-07-28), so it cannot hold an episode: connect with "
                'the initialize handshake (python SDK: Client(..., mode="legacy")) or over stdio'
            )
        # The per-connection scratch space of the SDK (Connection.state) lives exactly as long as the client.
        connection = session._connection  # noqa: SLF001 - the SDK exposes no public handle to it
        client = connection.state.get(SERVER_NAME)
        if client is None:
            client = connection.state[SERVER_NAME] = ClientState()
            self.state.clients.add(client)
            connection.exit_stack.callback(self._disconnected, client)
        return client

    def _disconnected(self, client: ClientState) -> None:
        _abandon(client, "the client disconnected")
        self.state.clients.discard(client)

    def abandon_all(self, message: str = "the server shut down") -> None:
        """End every episode still running (on shutdown), so no trajectory is left looking like a crash."""
        for client in [self.state.shared_client, *self.state.clients]:
            _abandon(client, message)


def build_server(
    world: World | None,
    suites: list[TaskSuite],
    runs_dir: Path,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    agent_defaults: dict[str, Any] | None = None,
    single_client: bool = False,
) -> ShopbenchServer:
    """The MCP server over one world (None when only question suites are served) and its task suites.

    `agent_defaults` fills the AgentInfo of episodes whose client does not send `shopbench/agent`
    (e.g. {"kind": "model", "name": "openai:gpt-4.1"}). `single_client` (stdio) treats every request as one client.
    """
    if any(suite.kind == "agentic" for suite in suites) and world is None:
        raise ValueError("agentic suites need a world")
    state = ServerState(
        world=world,
        suites=list(suites),
        runs_dir=Path(runs_dir),
        max_steps=max_steps,
        agent_defaults=dict(agent_defaults or {}),
        single_client=single_client,
        sandbox=Sandbox.for_world(world) if world is not None else None,
    )
    server = ShopbenchServer(state)

    # No output schemas: clients validate structured results against them, which costs more than the call itself
    # for a list of hundreds of tasks. The JSON text and structured content are still returned.
    @server.tool(structured_output=False)
    def list_tasks(benchmark: str | None = None) -> CallToolResult:
        """List the tasks you can start: {"tasks": [{task_id, benchmark, task_set, intent}]} (never answers).
        Pass benchmark (e.g. "shoppingbench") to list one benchmark only."""
        listings = _listings(state.suites, benchmark)
        return _json_result({"tasks": [listing.model_dump() for listing in listings]})

    @server.tool(structured_output=False)
    def start_task(
        task_id: str, ctx: Context, benchmark: str | None = None, task_set: str | None = None,
        episode_id: str | None = None, epoch: int | None = None,
    ) -> CallToolResult:
        """Begin an episode on a task in this session and return the user's instruction. Starting a task while
        another is running abandons the running one. Pass benchmark / task_set when a task id exists in several."""
        suite = _suite_for(state.suites, task_id, benchmark, task_set)
        client = server.client_state(ctx)
        meta = _meta(ctx)
        try:
            episode = Episode(
                state.runs_dir,
                suite,
                task_id,
                agent=_agent(ctx, meta, state.agent_defaults),
                sandbox=state.sandbox,
                episode_id=episode_id or _meta_str(meta, META_EPISODE_ID),
                epoch=epoch if epoch is not None else _meta_int(meta, META_EPOCH),
                max_steps=state.max_steps,
                world=_world_label(state.world) if suite.kind == "agentic" else None,
                world_info=_world_info(state.world) if suite.kind == "agentic" else None,
            )
        except EpisodeError as error:
            raise ToolError(str(error)) from None
        _abandon(client, "another task was started")
        client.episode = episode
        return _json_result({
            "episode_id": episode.episode_id,
            "task_id": task_id,
            "benchmark": suite.benchmark,
            "task_set": episode.listing.task_set,
            "intent": episode.listing.intent,
            "kind": suite.kind,
            "instruction": episode.instruction,
            "max_steps": episode.max_steps,
            "tools": list(episode.tools),
            **suite.start_details(task_id),
            "episode": episode.status.model_dump(mode="json"),
        })

    @server.resource(TASKS_URI, name="tasks", description="Every task this server can start (no answers).",
                     mime_type="application/json")
    def tasks_resource() -> str:
        suites = [
            {
                "benchmark": suite.benchmark,
                "task_set": suite.task_set,
                "kind": suite.kind,
                "unavailable_reason": suite.unavailable_reason(),
                "tasks": [listing.model_dump() for listing in suite.listings()],
            }
            for suite in state.suites
        ]
        return json.dumps({"suites": suites}, ensure_ascii=False)

    @server.resource(TOOLS_URI, name="tools", description="How to use this server's tools and _meta keys.",
                     mime_type="text/markdown")
    def tools_resource() -> str:
        return tool_documentation(state.max_steps)

    @server.prompt(name="shopping_agent", description="Instructions for an agent taking tasks on this server.")
    def shopping_agent() -> str:
        return MCP_AGENT_INSTRUCTIONS

    return server


def require_session_handshake(server: MCPServer) -> None:
    """Make auto-negotiating HTTP clients use the initialize handshake (which carries a session) by declining
    the stateless `server/discover` probe; their SDKs fall back on any error there."""

    async def decline_discover(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "server/discover":
            raise MCPError(code=METHOD_NOT_FOUND, message="shopbench keeps per-session episodes: use initialize")
        return await call_next(ctx)

    server.middleware.append(decline_discover)


def tool_documentation(max_steps: int = DEFAULT_MAX_STEPS) -> str:
    """The tools resource: every tool with its parameters, the episode rules, and the `_meta` keys."""
    lines = [
        "# shopbench tools",
        "",
        "Call `list_tasks`, then `start_task(task_id)`; it returns the instruction. Each tool call is one step of",
        f"the episode, which ends at `terminate`, at `submit_answer` (question benchmarks) or after {max_steps} steps.",
        "A malformed call is answered with an error you can act on, and counts as a step.",
        "",
    ]
    specs = [(spec.name, spec.description, spec.arguments) for spec in SHOPPING_TOOLS.values()]
    specs.append(("submit_answer", SUBMIT_ANSWER_DESCRIPTION, SubmitAnswerArgs))
    for name, description, model in specs:
        lines += [f"## {name}", "", description, ""]
        required = set(model.model_json_schema().get("required", []))
        for param, info in model.model_fields.items():
            flag = "required" if param in required else "optional"
            lines.append(f"- `{param}` ({flag}): {info.description}")
        lines.append("")
    lines += ["## Request `_meta` keys (optional)", "", "Send them with a call, e.g. "
              "`session.call_tool(name, args, meta={...})`:", ""]
    lines += [f"- `{key}`: {text}" for key, text in META_KEYS.items()]
    return "\n".join(lines) + "\n"


# ---- helpers ---------------------------------------------------------------------------------------------------


def _abandon(client: ClientState, message: str) -> None:
    if client.episode is not None and not client.episode.over:
        client.episode.abandon(message)


def _tool_result(step: StepResult) -> CallToolResult:
    """Text for text-only clients; structured content with the observation and the episode's status."""
    observation = step.observation
    text = observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)
    status = step.status.model_dump(mode="json")
    if step.is_error:
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True,
                              structured_content={"error": text, "episode": status})
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content={"result": observation, "episode": status})


def _malformed_turn(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments of record_malformed_turn: raw, error and feedback texts, and optionally the attempted tool."""
    fields = {key: arguments.get(key) for key in ("raw", "error", "feedback", "tool")}
    if not all(isinstance(fields[key], str) for key in ("raw", "error", "feedback")):
        raise ToolError(f"{RECORD_MALFORMED_TOOL} needs raw, error and feedback as strings")
    if fields["tool"] is not None and not isinstance(fields["tool"], str):
        raise ToolError(f"{RECORD_MALFORMED_TOOL}: tool must be a string")
    return fields


def _json_result(data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
                          structured_content=data)


def _listings(suites: list[TaskSuite], benchmark: str | None) -> list[TaskListing]:
    chosen = [suite for suite in suites if benchmark is None or suite.benchmark == benchmark]
    if benchmark is not None and not chosen:
        raise ToolError(f"no benchmark {benchmark!r} here; benchmarks: {', '.join(_benchmarks(suites))}")
    return [listing for suite in chosen for listing in suite.listings()]


def _suite_for(suites: list[TaskSuite], task_id: str, benchmark: str | None, task_set: str | None) -> TaskSuite:
    _listings(suites, benchmark)  # reports an unknown benchmark
    matches = [
        suite
        for suite in suites
        if (benchmark is None or suite.benchmark == benchmark)
        and (task_set is None or suite.task_set == task_set)
        and any(listing.task_id == task_id for listing in suite.listings())
    ]
    if not matches:
        raise ToolError(f"no task {task_id!r}; call list_tasks for the task ids")
    if len(matches) > 1:
        where = ", ".join(f"benchmark={suite.benchmark} task_set={suite.task_set}" for suite in matches)
        raise ToolError(f"task {task_id!r} exists in several task sets ({where}); pass benchmark and task_set")
    return matches[0]


def _benchmarks(suites: list[TaskSuite]) -> list[str]:
    return list(dict.fromkeys(suite.benchmark for suite in suites))


def _meta(ctx: Context | None) -> dict[str, Any]:
    if ctx is None:
        return {}
    meta = ctx.request_context.meta
    return dict(meta) if meta else {}


def _meta_str(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolError(f"_meta {key} must be a string")
    return value


def _meta_int(meta: dict[str, Any], key: str) -> int:
    value = meta.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ToolError(f"_meta {key} must be a whole number ≥ 0")
    return value


def _step_meta(ctx: Context | None) -> tuple[str | None, Usage | None]:
    """Thought and usage of a step, when the client sent them; a malformed value is dropped, never fatal."""
    meta = _meta(ctx)
    thought = meta.get(META_THOUGHT)
    try:
        usage = Usage.model_validate(meta[META_USAGE]) if isinstance(meta.get(META_USAGE), dict) else None
    except ValidationError:
        usage = None
    return (thought if isinstance(thought, str) else None), usage


def _agent(ctx: Context, meta: dict[str, Any], defaults: dict[str, Any]) -> AgentInfo:
    supplied = meta.get(META_AGENT)
    if supplied is not None:
        try:
            return AgentInfo.model_validate(supplied)
        except ValidationError as error:
            raise ToolError(f"_meta {META_AGENT}: {describe_validation_error(error)}") from None
    params = ctx.request_context.session.client_params
    info = params.client_info if params is not None else None
    details = {"client_version": info.version} if info is not None else {}
    base = {"kind": "mcp-client", "name": info.name if info is not None else "unknown", "details": details}
    return AgentInfo.model_validate(base | defaults)


def _world_info(world: World | None) -> dict[str, Any] | None:
    if world is None:
        return None
    info = world.info
    return dict(info) if isinstance(info, dict) else info.model_dump(mode="json")


def _world_label(world: World | None) -> str | None:
    info = _world_info(world)
    return None if info is None else f"{info.get('name')}@{info.get('content_hash')}"


# ---- transports --------------------------------------------------------------------------------------------------


class BearerTokenAuth:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>`, else 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            supplied = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(supplied, self.expected):
                response = JSONResponse(
                    {"error": "unauthorized: send Authorization: Bearer <token>"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def http_app(server: ShopbenchServer, *, host: str = "127.0.0.1", token: str | None = None) -> Any:
    """The streamable-HTTP ASGI app (path /mcp). Binding beyond loopback requires a token."""
    if not is_loopback(host) and not token:
        raise ValueError(f"binding {host} exposes the server beyond this machine: pass --token to require bearer auth")
    require_session_handshake(server)
    app = server.streamable_http_app(host=host)
    return BearerTokenAuth(app, token) if token else app


async def serve_http(server: ShopbenchServer, *, host: str = "127.0.0.1", port: int = 8765,
                     token: str | None = None) -> None:
    """Serve over streamable HTTP until interrupted; running episodes are abandoned on the way out."""
    import uvicorn

    config = uvicorn.Config(http_app(server, host=host, token=token), host=host, port=port, log_level="warning")
    try:
        await uvicorn.Server(config).serve()
    finally:
        server.abandon_all()


async def serve_stdio(server: ShopbenchServer) -> None:
    """Serve one client over stdin/stdout; when it closes the pipe, its running episode is abandoned."""
    try:
        await server.run_stdio_async()
    finally:
        server.abandon_all("the client disconnected")


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send everything written to stdout — by Python, the JVM under Pyserini or C libraries — to stderr while the
    world loads, so nothing lands on the stdio protocol channel before the transport claims it."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
