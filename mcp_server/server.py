"""The MCP server around the sandbox: `build_server(world, suites, runs_dir)`.

Tools: the six sandbox tools, `submit_answer`, `list_tasks`, `start_task` (and the unlisted harness tool
`record_malformed_turn`). Resources: the task list (`shopbench://tasks`), the tool documentation
(`shopbench://tools`) and, per episode, its trajectory (`shopbench://episodes/{episode_id}`, readable by the client
that started it); prompt: `shopping_agent`.

Every tool is declared with a typed input schema (a description on every parameter, enums where the values are
fixed) and an output schema. `list_tasks` and `start_task` are typed functions the SDK validates; the episode tools
are declared from their pydantic argument models (mcp_server.tools) but their arguments go to the episode unvalidated,
so a malformed call reaches the episode, which validates it with those models, answers with an error the agent can
act on, and records it as a step. Episode tools answer with structured content {"result": <observation>, "episode":
<EpisodeStatus>} (errors: {"error": <message>, "episode": ...}); `mcp_server.episode_client` is the client-side reader.
No pydantic error text reaches a client: argument errors are reworded (`describe_validation_error`).

Sandbox work — Lucene, a live web search, trajectory and manifest writes — runs in a bounded worker pool
(`anyio.to_thread.run_sync` with one CapacityLimiter), never on the event loop, so one client's slow call never holds
another's. Lucene calls still take turns on `lucene_runtime.java_lock`, inside the search layer.

Per-client state. Each client has its own episode; two clients never see each other's. A client is its MCP
connection: the stdio process (one client per process), a streamable-HTTP session (Mcp-Session-Id), or an
in-memory connection made with the initialize handshake. MCP 2026-07-28 connections are stateless (every request is
its own connection), so over HTTP the server declines `server/discover` and clients fall back to the handshake,
which carries a session; an in-memory client must connect with `mode="legacy"`.

The transports (stdio, streamable HTTP and its middleware) are in mcp_server.transports.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import Tool as ListedTool
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS
from mcp_server.episode_client import StartedEpisode
from mcp_server.episodes import (
    QA_TOOLS,
    SUBMIT_ANSWER_DESCRIPTION,
    Episode,
    EpisodeError,
    StepResult,
    SubmitAnswerArgs,
)
from mcp_server.protocol import (
    DEFAULT_MAX_STEPS,
    MAX_EPOCHS,
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
from mcp_server.tool_outputs import lean_schema, output_schema
from mcp_server.tools import SHOPPING_TOOLS, Arguments, Sandbox, describe_validation_error
from mcp_server.trajectory import AgentInfo, AgentKindValue, Usage, episode_path

if TYPE_CHECKING:
    from mcp_server.world import World

__all__ = [
    "EPISODE_URI",
    "META_AGENT",
    "META_EPISODE_ID",
    "META_EPOCH",
    "META_THOUGHT",
    "META_USAGE",
    "TASKS_URI",
    "TOOLS_URI",
    "ShopbenchServer",
    "build_server",
]

EPISODE_TOOLS = (*SHOPPING_TOOLS, *QA_TOOLS)
EPISODE_URI = "shopbench://episodes/{episode_id}"
"""Resource template: an episode's trajectory file (JSONL), for the client that started the episode."""
SANDBOX_WORKERS = 16
"""Worker threads for sandbox work. Lucene calls take turns on the Java lock anyway; the other workers keep slow
calls (a live web search waits up to 30 s) from queueing everyone else."""
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 500
RECENT_DISCONNECT_S = 120.0
"""How long after an episode was abandoned by a disconnect a call without an episode mentions it."""
T = TypeVar("T")


# ---- state -------------------------------------------------------------------------------------------------------


@dataclass(eq=False)
class ClientState:
    """What one client has going: at most one episode at a time, and the ids of the episodes it started."""

    episode: Episode | None = None
    started: set[str] = field(default_factory=set)


@dataclass
class ServerState:
    """Everything the server's handlers share; the lifespan hands it to them (ctx.request_context.lifespan_context)."""

    world: World | None
    suites: list[TaskSuite]
    runs_dir: Path
    max_steps: int
    agent_defaults: dict[str, Any]
    single_client: bool
    sandbox: Sandbox | None
    workers: int = SANDBOX_WORKERS
    listings: list[TaskListing] = field(default_factory=list)
    """Every task of every suite, listed once."""
    holders: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """task_id → the (benchmark, task_set) pairs that hold it, so start_task finds its suite without a scan."""
    world_info: dict[str, Any] | None = None
    world_label: str | None = None
    """The world's info and "name@content_hash", recorded with every agentic episode (worked out once)."""
    shared_client: ClientState = field(default_factory=ClientState)
    clients: set[ClientState] = field(default_factory=set)
    """Connected clients (HTTP sessions, in-memory connections), so shutdown can end their episodes."""
    last_disconnect_abandon: float | None = None
    """When (monotonic) an episode was last abandoned because its client's connection closed."""
    limiter: anyio.CapacityLimiter | None = None
    open_lifespans: int = 0

    async def run(self, work: Callable[[], T]) -> T:
        """Run blocking sandbox work (Lucene, live search, file writes) in the worker pool, off the event loop."""
        if self.limiter is None:  # a handler called outside the server's lifespan (tests calling it directly)
            self.limiter = anyio.CapacityLimiter(self.workers)
        return await anyio.to_thread.run_sync(work, limiter=self.limiter)


OUTPUT_SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"

ShopbenchContext = Context[ServerState, Any]
"""The Context our handlers receive: its lifespan context is the ServerState (a runtime class, so the SDK finds
the parameter by its annotation)."""


class ShopbenchServer(MCPServer[ServerState]):
    """MCPServer whose episode tools run inside the calling client's episode."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.declared_tools = {*EPISODE_TOOLS, "list_tasks", "start_task"}
        self._listed: list[ListedTool] | None = None
        super().__init__(
            SERVER_NAME,
            instructions=MCP_AGENT_INSTRUCTIONS,
            log_level="WARNING",
            lifespan=_lifespan,
            tools=[*_episode_tools(), *_task_tools()],
        )

    async def list_tools(self) -> list[ListedTool]:
        """The tool list, built once, with every output schema declared as JSON Schema draft-07. Clients compile a
        validator per tool and connection (the official client checks the schema against its metaschema first):
        against the 2020-12 metaschema that costs ~8x more (58 vs 7 ms for five tools here), paid again on every
        new connection. The schemas use nothing draft-07 lacks, and are lean (mcp_server.tool_outputs.lean_schema:
        no references to resolve, nullable fields without anyOf), as the client validates every result against them."""
        if self._listed is None:
            tools = await super().list_tools()
            for tool in tools:
                if tool.output_schema is not None:
                    tool.output_schema = {"$schema": OUTPUT_SCHEMA_DIALECT, **lean_schema(tool.output_schema)}
            self._listed = tools
        return [tool.model_copy() for tool in self._listed]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: ShopbenchContext | None = None) -> Any:
        """Episode tools go straight to the client's episode (their arguments are the episode's to validate, so the
        SDK's tool manager has nothing to add but a per-call argument model and result conversion). Undeclared names
        (a misspelt tool, the harness's record_malformed_turn) go there too, so they are recorded as steps; argument
        errors of list_tasks/start_task are reworded without pydantic's text."""
        if context is not None and name in EPISODE_TOOLS:
            try:
                return await _episode_call(context, name, arguments)
            except (MCPError, UnexpectedToolError):
                raise
            except ToolError as error:  # worded as the SDK's Tool.run words it
                raise ToolError(f"Error executing tool {name}: {error}") from error
            except Exception as error:  # a crash: its text stays on the server, as with Tool.run
                raise UnexpectedToolError(f"Error executing tool {name}") from error
        if context is not None and name not in self.declared_tools:
            return await _episode_call(context, name, arguments)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(f"{name}: {describe_validation_error(error.__cause__)}") from None
            raise

    def client_state(self, context: ShopbenchContext) -> ClientState:
        """The calling client's state; an error when the connection cannot hold any (see the module docstring)."""
        state = self.state
        if state.single_client:
            return state.shared_client
        session = context.request_context.session
        if session.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise ToolError(
                "this MCP connection is stateless (protocol 2026-07-28), so it cannot hold an episode: connect with "
                'the initialize handshake (python SDK: Client(..., mode="legacy")) or over stdio'
            )
        # The SDK's per-connection scratch space (Connection.state, with an exit stack run when the client goes) is
        # what per-client state needs. The handler-facing Context exposes no public handle to it: the low-level
        # `mcp.server.context.Context.connection` is public but the SDK's runner does not build that Context, and
        # ServerSession keeps its connection private. So this one line reaches into `session._connection`.
        connection = session._connection  # noqa: SLF001 - no public handle (see above)
        client = connection.state.get(SERVER_NAME)
        if client is None:
            client = connection.state[SERVER_NAME] = ClientState()
            state.clients.add(client)
            connection.exit_stack.callback(self._disconnected, client)
        return client

    def _disconnected(self, client: ClientState) -> None:
        if client.episode is not None and not client.episode.over:
            self.state.last_disconnect_abandon = time.monotonic()
        _abandon(client, "the client disconnected")
        self.state.clients.discard(client)

    def abandon_all(self, message: str = "the server shut down") -> None:
        """End every episode still running (on shutdown), so no trajectory is left looking like a crash."""
        for client in [self.state.shared_client, *self.state.clients]:
            _abandon(client, message)


@asynccontextmanager
async def _lifespan(server: MCPServer[ServerState]) -> AsyncIterator[ServerState]:
    """Hand the shared state to the handlers and create the worker pool's limiter in the serving event loop.

    The lifespan runs once per process for stdio and HTTP, and once per connection for in-memory clients; the
    state is shared by all, and the last lifespan to close ends the episodes still running."""
    assert isinstance(server, ShopbenchServer)
    state = server.state
    if state.open_lifespans == 0:
        state.limiter = anyio.CapacityLimiter(state.workers)
    state.open_lifespans += 1
    try:
        yield state
    finally:
        state.open_lifespans -= 1
        if state.open_lifespans == 0:
            server.abandon_all("the client disconnected" if state.single_client else "the server shut down")


def build_server(
    world: World | None,
    suites: list[TaskSuite],
    runs_dir: Path,
    *,
    max_steps: int | None = None,
    agent_defaults: dict[str, Any] | None = None,
    single_client: bool = False,
    workers: int = SANDBOX_WORKERS,
) -> ShopbenchServer:
    """The MCP server over one world (None when only question suites are served) and its task suites.

    `agent_defaults` fills the AgentInfo of episodes whose client names no agent (e.g. {"kind": "model", "name":
    "openai:gpt-4.1"}; `shopbench serve --agent-name/--agent-kind`). `single_client` (stdio) treats every request as
    one client. `workers` bounds the threads running sandbox work. `max_steps` None: DEFAULT_MAX_STEPS.
    """
    if any(suite.kind == "agentic" for suite in suites) and world is None:
        raise ValueError("agentic suites need a world")
    state = ServerState(
        world=world,
        suites=list(suites),
        runs_dir=Path(runs_dir),
        max_steps=DEFAULT_MAX_STEPS if max_steps is None else max_steps,
        agent_defaults=dict(agent_defaults or {}),
        single_client=single_client,
        sandbox=Sandbox.for_world(world) if world is not None else None,
        workers=workers,
        listings=[listing for suite in suites for listing in suite.listings()],
        world_info=_world_info(world),
        world_label=_world_label(world),
    )
    for listing in state.listings:
        state.holders.setdefault(listing.task_id, set()).add((listing.benchmark, listing.task_set))
    server = ShopbenchServer(state)

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

    @server.resource(EPISODE_URI, name="episode", mime_type="application/jsonl",
                     description="An episode's trajectory file as written (JSONL: start, steps, end), for the client "
                     "that started the episode, e.g. to copy it into a local run folder.")
    async def episode_resource(episode_id: str, ctx: ShopbenchContext) -> str:
        client = server.client_state(ctx)
        if episode_id not in client.started:
            raise ResourceError(f"no episode {episode_id!r} was started on this connection; a client can read only "
                                "the episodes it started")
        path = episode_path(state.runs_dir, episode_id)
        return await state.run(functools.partial(path.read_text, encoding="utf-8"))

    @server.prompt(name="shopping_agent", description="Instructions for an agent taking tasks on this server.")
    def shopping_agent() -> str:
        return MCP_AGENT_INSTRUCTIONS

    return server


class TaskPage(BaseModel):
    """One page of list_tasks."""

    tasks: list[TaskListing]
    total: int = Field(description="Tasks matching the filters, on all pages.")
    offset: int
    limit: int


# ---- list_tasks and start_task ----------------------------------------------------------------------------------


def _server(ctx: ShopbenchContext) -> ShopbenchServer:
    server = ctx.mcp_server
    assert isinstance(server, ShopbenchServer)
    return server


async def list_tasks(
    ctx: ShopbenchContext,
    benchmark: Annotated[
        str | None, Field(description='List one benchmark only, e.g. "shoppingbench" (default: all).')
    ] = None,
    intent: Annotated[
        str | None,
        Field(description='List one intent only: a ShoppingBench intent (e.g. "product", "voucher") or a '
              'question benchmark\'s task name (default: all).'),
    ] = None,
    limit: Annotated[
        int, Field(ge=1, le=MAX_PAGE_SIZE, description=f"Most tasks to return (1 to {MAX_PAGE_SIZE}).")
    ] = DEFAULT_PAGE_SIZE,
    offset: Annotated[int, Field(ge=0, description="Tasks to skip, for the next page (offset + limit).")] = 0,
) -> TaskPage:
    """List tasks you can start, a page at a time: {tasks: [{task_id, benchmark, task_set, intent}], total,
    offset, limit} (never answers). The shopbench://tasks resource has the full list."""
    listings = _listings(_server(ctx).state, benchmark)
    if intent is not None:
        chosen = [listing for listing in listings if listing.intent == intent]
        if not chosen:
            known = sorted({str(listing.intent) for listing in listings if listing.intent is not None})
            raise ToolError(f"no task has intent {intent!r}; intents: {', '.join(known)}")
        listings = chosen
    return TaskPage(tasks=listings[offset : offset + limit], total=len(listings), offset=offset, limit=limit)


async def start_task(
    task_id: Annotated[str, Field(max_length=200, description="The task to start: a task_id from list_tasks.")],
    ctx: ShopbenchContext,
    benchmark: Annotated[
        str | None, Field(max_length=100, description="The task's benchmark, when a task id exists in several.")
    ] = None,
    task_set: Annotated[
        str | None, Field(max_length=200, description="The task's task set, when a task id exists in several.")
    ] = None,
    episode_id: Annotated[
        str | None,
        Field(max_length=128, description="Id for the new episode (1-128 of A-Z a-z 0-9 . _ -, starting with a "
              "letter or digit); it must not name an existing episode. Default: a fresh id."),
    ] = None,
    epoch: Annotated[
        int | None,
        Field(ge=0, lt=MAX_EPOCHS, description=f"Epoch of this run of the task, for repeated runs (0 to "
              f"{MAX_EPOCHS - 1}; default 0)."),
    ] = None,
    agent_name: Annotated[
        str | None,
        Field(max_length=200, description="Who plays, e.g. the model name (default: the server's --agent-name, "
              "else this MCP client's name)."),
    ] = None,
    agent_kind: Annotated[
        AgentKindValue | None,
        Field(title="Agent Kind", description="What plays: model, human, mcp-client or baseline (default: the "
              "server's --agent-kind, else mcp-client)."),
    ] = None,
) -> StartedEpisode:
    """Begin an episode on a task on this connection and return the user's instruction. Starting a task while
    another is running abandons the running one. The identity arguments (episode_id, epoch, agent_name,
    agent_kind) are for clients that cannot send request _meta; see the shopbench://tools resource."""
    server = _server(ctx)
    state = server.state
    suite = _suite_for(state, task_id, benchmark, task_set)
    client = server.client_state(ctx)
    meta = _meta(ctx)
    agent = _agent(ctx, meta, state.agent_defaults, name=agent_name, kind=agent_kind)
    chosen_id = episode_id or _meta_str(meta, META_EPISODE_ID)
    chosen_epoch = epoch if epoch is not None else _meta_int(meta, META_EPOCH, MAX_EPOCHS)
    agentic = suite.kind == "agentic"

    def begin() -> tuple[Episode, dict[str, Any]]:
        episode = Episode(
            state.runs_dir,
            suite,
            task_id,
            agent=agent,
            sandbox=state.sandbox,
            episode_id=chosen_id,
            epoch=chosen_epoch,
            max_steps=state.max_steps,
            world=state.world_label if agentic else None,
            world_info=state.world_info if agentic else None,
        )
        return episode, suite.start_details(task_id)

    try:
        episode, details = await state.run(begin)
    except EpisodeError as error:
        raise ToolError(str(error)) from None
    except ValidationError as error:
        raise ToolError(f"start_task: {describe_validation_error(error)}") from None
    previous = client.episode
    client.episode = episode
    client.started.add(episode.episode_id)
    if previous is not None and not previous.over:
        await state.run(functools.partial(previous.abandon, "another task was started"))
    return StartedEpisode(
        episode_id=episode.episode_id,
        task_id=task_id,
        benchmark=suite.benchmark,
        task_set=episode.listing.task_set,
        intent=episode.listing.intent,
        kind=suite.kind,
        instruction=episode.instruction,
        max_steps=episode.max_steps,
        tools=list(episode.tools),
        **details,
        episode=episode.status,
    )


@functools.cache
def _task_tools() -> tuple[Tool, ...]:
    """list_tasks and start_task as typed tools, built once per process like the episode tools (deriving their
    argument models and schemas from the signatures costs ~15 ms, which every run would pay again); each call finds
    its server through the request's context."""
    return (
        Tool.from_function(list_tasks, annotations=ToolAnnotations(read_only_hint=True)),
        Tool.from_function(start_task),
    )


# ---- episode tools -----------------------------------------------------------------------------------------------


class _Unvalidated(ArgModelBase):
    """Argument model of the episode tools as the SDK sees them: takes any arguments and passes them on whole, so
    the episode validates them with the tool's own model and records a malformed call as a step."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def _episode_specs() -> list[tuple[str, str, type[Arguments]]]:
    specs = [(spec.name, spec.description, spec.arguments) for spec in SHOPPING_TOOLS.values()]
    specs.append(("submit_answer", SUBMIT_ANSWER_DESCRIPTION, SubmitAnswerArgs))
    return specs


@functools.cache
def _episode_tools() -> tuple[Tool, ...]:
    """The episode tools, built once per process: their schemas cost ~60 ms to generate, and they depend on nothing
    of a particular server (each call finds its server and episode through the request's context)."""
    return tuple(_episode_tool(name, description, model) for name, description, model in _episode_specs())


def _episode_tool(name: str, description: str, model: type[Arguments]) -> Tool:
    """An episode tool declared from its argument model: the model's JSON Schema is the input schema clients see,
    and the output schema is the observation's with the episode status (mcp_server.tool_outputs)."""

    async def call(arguments: dict[str, Any], ctx: ShopbenchContext) -> CallToolResult:
        return await _episode_call(ctx, name, arguments)

    return Tool(
        fn=call,
        name=name,
        title=None,
        description=description,
        parameters=model.model_json_schema(),
        # Hand-built metadata: the SDK publishes the output schema and leaves validating results to clients.
        fn_metadata=FuncMetadata(arg_model=_Unvalidated, output_schema=output_schema(name)),
        is_async=True,
        context_kwarg="ctx",
        annotations=ToolAnnotations(read_only_hint=name not in ("recommend_product", "terminate", "submit_answer"),
                                    open_world_hint=name == "web_search"),
    )


async def _episode_call(ctx: ShopbenchContext, name: str, arguments: dict[str, Any]) -> CallToolResult:
    """One step of the calling client's episode, run in the worker pool."""
    server = _server(ctx)
    state = server.state
    client = server.client_state(ctx)
    episode = client.episode
    if episode is None:
        return _error_result(_no_episode_message(state, name))
    thought, usage = _step_meta(ctx)
    if name == RECORD_MALFORMED_TOOL:
        turn = _malformed_turn(arguments)
        step = await state.run(functools.partial(episode.record_malformed, **turn, thought=thought, usage=usage))
    else:
        step = await state.run(functools.partial(episode.call, name, arguments, thought=thought, usage=usage))
    return _tool_result(step)


def _no_episode_message(state: ServerState, name: str) -> str:
    known = name in EPISODE_TOOLS or name == RECORD_MALFORMED_TOOL
    what = f"{name} runs inside a task" if known else f"unknown tool {name!r}"
    message = f"{what}, and no task is running on this connection: call list_tasks, then start_task(task_id)"
    recent = state.last_disconnect_abandon
    if recent is not None and time.monotonic() - recent < RECENT_DISCONNECT_S:
        message += (
            ". Note: a moment ago an episode was abandoned because its connection closed. If your client opens a new "
            "MCP connection for every tool call, each call lands on a fresh connection without the task: keep one "
            "connection (one MCP session) open from start_task to terminate, e.g. connect once and reuse the session "
            "for the whole task"
        )
    return message


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


def _error_result(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _malformed_turn(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments of record_malformed_turn: raw, error and feedback texts, and optionally the attempted tool."""
    fields = {key: arguments.get(key) for key in ("raw", "error", "feedback", "tool")}
    if not all(isinstance(fields[key], str) for key in ("raw", "error", "feedback")):
        raise ToolError(f"{RECORD_MALFORMED_TOOL} needs raw, error and feedback as strings")
    if fields["tool"] is not None and not isinstance(fields["tool"], str):
        raise ToolError(f"{RECORD_MALFORMED_TOOL}: tool must be a string")
    return fields


# ---- documentation -----------------------------------------------------------------------------------------------


def tool_documentation(max_steps: int = DEFAULT_MAX_STEPS) -> str:
    """The tools resource: every tool with its parameters, the episode rules, and the `_meta` keys."""
    lines = [
        "# shopbench tools",
        "",
        "Call `list_tasks`, then `start_task(task_id)`; it returns the instruction. Each tool call is one step of",
        f"the episode, which ends at `terminate`, at `submit_answer` (question benchmarks) or after {max_steps} steps.",
        "A malformed call is answered with an error you can act on, and counts as a step. Every episode tool's",
        'structured result is {"result": ..., "episode": {state, end_reason, steps_used, steps_left, max_steps}}.',
        f"Keep one connection for the whole task. Your trajectory: the resource `{EPISODE_URI}`.",
        "",
    ]
    for name, description, model in _episode_specs():
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


def _listings(state: ServerState, benchmark: str | None) -> list[TaskListing]:
    if benchmark is None:
        return state.listings
    _check_benchmark(state, benchmark)
    return [listing for listing in state.listings if listing.benchmark == benchmark]


def _check_benchmark(state: ServerState, benchmark: str | None) -> None:
    """An error naming the benchmarks served when `benchmark` is none of them."""
    if benchmark is not None and not any(suite.benchmark == benchmark for suite in state.suites):
        raise ToolError(f"no benchmark {benchmark!r} here; benchmarks: {', '.join(_benchmarks(state.suites))}")


def _suite_for(state: ServerState, task_id: str, benchmark: str | None, task_set: str | None) -> TaskSuite:
    _check_benchmark(state, benchmark)
    holders = state.holders.get(task_id, set())
    matches = [
        suite
        for suite in state.suites
        if (suite.benchmark, suite.task_set) in holders
        and (benchmark is None or suite.benchmark == benchmark)
        and (task_set is None or suite.task_set == task_set)
    ]
    if not matches:
        raise ToolError(f"no task {task_id!r}; call list_tasks for the task ids")
    if len(matches) > 1:
        where = ", ".join(f"benchmark={suite.benchmark} task_set={suite.task_set}" for suite in matches)
        raise ToolError(f"task {task_id!r} exists in several task sets ({where}); pass benchmark and task_set")
    return matches[0]


def _benchmarks(suites: list[TaskSuite]) -> list[str]:
    return list(dict.fromkeys(suite.benchmark for suite in suites))


def _meta(ctx: ShopbenchContext | None) -> dict[str, Any]:
    if ctx is None:
        return {}
    meta = ctx.request_context.meta
    return dict(meta) if meta else {}


def _meta_str(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolError(f"_meta {key} must be a string")
    return value


def _meta_int(meta: dict[str, Any], key: str, below: int) -> int:
    value = meta.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < below:
        raise ToolError(f"_meta {key} must be a whole number from 0 to {below - 1}")
    return value


def _step_meta(ctx: ShopbenchContext | None) -> tuple[str | None, Usage | None]:
    """Thought and usage of a step, when the client sent them; a malformed value is dropped, never fatal."""
    meta = _meta(ctx)
    thought = meta.get(META_THOUGHT)
    try:
        usage = Usage.model_validate(meta[META_USAGE]) if isinstance(meta.get(META_USAGE), dict) else None
    except ValidationError:
        usage = None
    return (thought if isinstance(thought, str) else None), usage


def _agent(ctx: ShopbenchContext, meta: dict[str, Any], defaults: dict[str, Any], *, name: str | None = None,
           kind: str | None = None) -> AgentInfo:
    """Who plays: the start_task arguments, else `_meta` shopbench/agent, else the server's defaults, else the MCP
    client's name from initialize."""
    supplied = meta.get(META_AGENT)
    if supplied is not None:
        try:
            base = AgentInfo.model_validate(supplied).model_dump()
        except ValidationError as error:
            raise ToolError(f"_meta {META_AGENT}: {describe_validation_error(error)}") from None
    else:
        params = ctx.request_context.session.client_params
        info = params.client_info if params is not None else None
        details = {"client_version": info.version} if info is not None else {}
        base = {"kind": "mcp-client", "name": info.name if info is not None else "unknown", "details": details}
        base |= defaults
    chosen = {key: value for key, value in (("name", name), ("kind", kind)) if value is not None}
    return AgentInfo.model_validate(base | chosen)


def _world_info(world: World | None) -> dict[str, Any] | None:
    if world is None:
        return None
    info = world.info
    return dict(info) if isinstance(info, dict) else info.model_dump(mode="json")


def _world_label(world: World | None) -> str | None:
    info = _world_info(world)
    return None if info is None else f"{info.get('name')}@{info.get('content_hash')}"

