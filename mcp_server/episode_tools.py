"""The episode tools on the wire: each hosted suite's tools declared to MCP clients, every call dispatched to the
calling client's episode, and the request `_meta` a step carries (thought, usage).

The episode tools are declared from their argument models (mcp_server.toolbox.EpisodeTool) but their arguments go
to the episode unvalidated, so a malformed call reaches the episode, which validates it with those models, answers
with an error the agent can act on, and records it as a step. They answer with structured content {"result":
<observation>, "episode": <EpisodeStatus>} (errors: {"error": <message>, "episode": ...}); mcp_server.episode_client
is the client-side reader.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict, ValidationError

from mcp_server.episodes import StepResult
from mcp_server.output_schemas import output_schema
from mcp_server.protocol import META_THOUGHT, META_USAGE, RECORD_MALFORMED_TOOL, MalformedReport
from mcp_server.server_state import ServerState, ShopbenchContext, state_of
from mcp_server.toolbox import EpisodeTool
from mcp_server.trajectory import Usage

RECENT_DISCONNECT_S = 120.0
"""How long after an episode was abandoned by a disconnect a call without an episode mentions it."""


class _Unvalidated(ArgModelBase):
    """Argument model of the episode tools as the SDK sees them: takes any arguments and passes them on whole, so
    the episode validates them with the tool's own model and records a malformed call as a step."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


@functools.cache
def episode_tool(tool: EpisodeTool) -> Tool:
    """An episode tool declared from its argument model: the model's JSON Schema is the input schema clients see,
    and the output schema is the observation's with the episode status (mcp_server.output_schemas). Built once per
    process (the schemas cost ~60 ms for the seven built-in tools, and depend on nothing of a particular server: each
    call finds its server and episode through the request's context)."""
    name = tool.name

    async def call(arguments: dict[str, Any], ctx: ShopbenchContext) -> CallToolResult:
        return await episode_call(ctx, name, arguments)

    return Tool(
        fn=call,
        name=name,
        title=None,
        description=tool.description,
        parameters=tool.arguments.model_json_schema(),
        # Hand-built metadata: the SDK publishes the output schema and leaves validating results to clients.
        fn_metadata=FuncMetadata(arg_model=_Unvalidated, output_schema=output_schema(name, tool.observation)),
        is_async=True,
        context_kwarg="ctx",
        annotations=ToolAnnotations(read_only_hint=tool.read_only, open_world_hint=tool.open_world),
    )


async def episode_call(ctx: ShopbenchContext, name: str, arguments: dict[str, Any]) -> CallToolResult:
    """One step of the calling client's episode, run in the worker pool."""
    state = state_of(ctx)
    client = state.client(ctx)
    episode = client.episode
    if episode is None:
        return _error_result(_no_episode_message(state, name))
    thought, usage = step_meta(ctx)
    if usage is None and client.usage is not None:
        usage = client.usage()
    if name == RECORD_MALFORMED_TOOL:
        turn = _malformed_turn(arguments)
        step = await state.run(functools.partial(episode.record_malformed, **turn, thought=thought, usage=usage))
    else:
        step = await state.run(functools.partial(episode.call, name, arguments, thought=thought, usage=usage))
    return _tool_result(step)


def _no_episode_message(state: ServerState, name: str) -> str:
    known = name in state.tools or name == RECORD_MALFORMED_TOOL
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
    """The arguments of record_malformed_turn (protocol.MalformedReport), as Episode.record_malformed takes them."""
    try:
        report = MalformedReport.model_validate(arguments)
    except ValidationError as error:
        if all(problem["loc"] == ("tool",) for problem in error.errors()):
            raise ToolError(f"{RECORD_MALFORMED_TOOL}: tool must be a string") from None
        raise ToolError(f"{RECORD_MALFORMED_TOOL} needs raw, error and feedback as strings") from None
    return report.model_dump()


# ---- request _meta -----------------------------------------------------------------------------------------------


def request_meta(ctx: ShopbenchContext | None) -> dict[str, Any]:
    """The request's `_meta` (mcp_server.protocol.META_KEYS), empty when it has none."""
    if ctx is None:
        return {}
    meta = ctx.request_context.meta
    return dict(meta) if meta else {}


def meta_str(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolError(f"_meta {key} must be a string")
    return value


def meta_int(meta: dict[str, Any], key: str, below: int) -> int:
    value = meta.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < below:
        raise ToolError(f"_meta {key} must be a whole number from 0 to {below - 1}")
    return value


def step_meta(ctx: ShopbenchContext | None) -> tuple[str | None, Usage | None]:
    """Thought and usage of a step, when the client sent them; a malformed value is dropped, never fatal."""
    meta = request_meta(ctx)
    thought = meta.get(META_THOUGHT)
    try:
        usage = Usage.model_validate(meta[META_USAGE]) if isinstance(meta.get(META_USAGE), dict) else None
    except ValidationError:
        usage = None
    return (thought if isinstance(thought, str) else None), usage
