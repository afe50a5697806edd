"""The MCP server around the sandbox: `build_server(world, suites, runs_dir)`.

Tools: the episode tools of the hosted suites (the six ShoppingBench sandbox tools and `submit_answer`, listed by
every server, and any other suite's own: mcp_server.suite_registry.listed_tools), `list_tasks`, `start_task` (and
the unlisted harness tool `record_malformed_turn`). Resources and the `shopping_agent` prompt: mcp_server.resources.

Every tool is declared with a typed input schema (a description on every parameter, enums where the values are
fixed) and an output schema. `list_tasks` and `start_task` (mcp_server.task_tools) are typed functions the SDK
validates; the episode tools (mcp_server.episode_tools) take their arguments unvalidated to the calling client's
episode, which validates and records them. No pydantic error text reaches a client: argument errors are reworded
(`describe_validation_error`).

What the handlers share — the suites, the run folder, the worker pool, each client's episode — is the ServerState
(mcp_server.server_state). The transports (stdio, streamable HTTP and its middleware) are in mcp_server.transports.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types import Tool as ListedTool
from pydantic import ValidationError

from mcp_server.episode_tools import episode_call, episode_tool
from mcp_server.output_schemas import lean_schema
from mcp_server.protocol import DEFAULT_MAX_STEPS, SERVER_NAME
from mcp_server.resources import add_resources
from mcp_server.server_state import BINDING_SCOPE_KEY, SANDBOX_WORKERS, ServerState, ShopbenchContext
from mcp_server.suite_registry import listed_tools
from mcp_server.suites import SuiteWorld, TaskSuite, suites_instructions
from mcp_server.task_tools import task_tools
from mcp_server.toolbox import ToolRunner, describe_validation_error

OUTPUT_SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"


class ShopbenchServer(MCPServer[ServerState]):
    """MCPServer whose episode tools run inside the calling client's episode."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.declared_tools = {*state.tools, "list_tasks", "start_task"}
        self._listed: list[ListedTool] | None = None
        super().__init__(
            SERVER_NAME,
            instructions=suites_instructions(state.suites),
            log_level="WARNING",
            lifespan=_lifespan,
            tools=[*(episode_tool(tool) for tool in state.tools.values()), *task_tools()],
        )
        self.middleware.append(self._reserved_episode_view)

    async def _reserved_episode_view(self, ctx: Any, call_next: Any) -> Any:
        """Middleware: at a reserved episode's address (/e/<token>/mcp) the tool list holds that episode's tools only,
        and `initialize` gives its suite's instructions, so an installed agent is offered what its episode accepts and
        told its benchmark's rules, whatever else the server hosts (a question is not shown the shopping tools)."""
        result = await call_next(ctx)
        if ctx.method not in ("tools/list", "initialize") or not isinstance(result, dict):
            return result
        token = getattr(ctx.request, "scope", {}).get(BINDING_SCOPE_KEY)
        client = self.state.reservations.get(token) if token is not None else None
        episode = client.episode if client is not None else None
        if episode is None:
            return result
        if ctx.method == "initialize":
            return {**result, "instructions": episode.suite.agent_instructions}
        return {**result, "tools": [tool for tool in result.get("tools", []) if tool.get("name") in episode.tools]}

    async def list_tools(self) -> list[ListedTool]:
        """The tool list, built once, with every output schema declared as JSON Schema draft-07. Clients compile a
        validator per tool and connection (the official client checks the schema against its metaschema first):
        against the 2020-12 metaschema that costs ~8x more (58 vs 7 ms for five tools here), paid again on every
        new connection. The schemas use nothing draft-07 lacks, and are lean (mcp_server.output_schemas.lean_schema:
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
        if context is not None and name in self.state.tools:
            try:
                return await episode_call(context, name, arguments)
            except (MCPError, UnexpectedToolError):
                raise
            except ToolError as error:  # worded as the SDK's Tool.run words it
                raise ToolError(f"Error executing tool {name}: {error}") from error
            except Exception as error:  # a crash: its text stays on the server, as with Tool.run
                raise UnexpectedToolError(f"Error executing tool {name}") from error
        if context is not None and name not in self.declared_tools:
            return await episode_call(context, name, arguments)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(f"{name}: {describe_validation_error(error.__cause__)}") from None
            raise

    def abandon_all(self, message: str = "the server shut down") -> None:
        """End every episode still running (on shutdown), so no trajectory is left looking like a crash."""
        self.state.abandon_all(message)


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
    world: SuiteWorld | None,
    suites: list[TaskSuite],
    runs_dir: Path,
    *,
    max_steps: int | None = None,
    agent_defaults: dict[str, Any] | None = None,
    single_client: bool = False,
    workers: int = SANDBOX_WORKERS,
    sandboxes: Mapping[int, ToolRunner] | None = None,
) -> ShopbenchServer:
    """The MCP server over its task suites and the world they are played in (None when none needs one); players
    reach it through `mcp_server.environment.open_environment`.

    `agent_defaults` fills the AgentInfo of episodes whose client names no agent (e.g. {"kind": "model", "name":
    "openai:gpt-4.1"}; `shopbench serve --agent-name/--agent-kind`). `single_client` (stdio) treats every request as
    one client. `workers` bounds the threads running sandbox work. `max_steps` None: DEFAULT_MAX_STEPS.
    `sandboxes` (id(suite) → its sandbox; None: opened now) may be opening still (mcp_server.background_sandboxes).
    """
    state = ServerState(
        world=world,
        suites=list(suites),
        runs_dir=Path(runs_dir),
        max_steps=DEFAULT_MAX_STEPS if max_steps is None else max_steps,
        agent_defaults=dict(agent_defaults or {}),
        single_client=single_client,
        tools=listed_tools(suites),
        sandboxes={id(suite): suite.open_sandbox() for suite in suites} if sandboxes is None else sandboxes,
        workers=workers,
        listings=[listing for suite in suites for listing in suite.listings()],
    )
    for listing in state.listings:
        state.holders.setdefault(listing.task_id, set()).add((listing.benchmark, listing.task_set))
    server = ShopbenchServer(state)
    add_resources(server, state)
    return server
