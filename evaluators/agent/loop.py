"""One episode: a model playing one task through an MCP session with the shopbench sandbox.

list tools → start_task (episode id, epoch and agent identity in `_meta`) → per step: model.generate(history, tools)
→ call_tool(name, arguments, `_meta` thought + usage) → observation into the history — until terminate, the step
limit, or the server saying the episode is over. A malformed turn (no call, bad JSON, unknown tool) is sent to the
sandbox too, so it is recorded and counts as a step, and the model reads what went wrong.

The session is any object with the `mcp.Client` methods `list_tools` and `call_tool`; the trajectory is written by
the server, and mirrored by a `recorder` when the server is remote.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from benchmarks.shoppingbench.agent_prompts import INVALID_CALL_TOOL
from evaluators.agent.protocols import AgentProtocol, Observation
from evaluators.models.base import GenerateConfig, ModelAPI, ModelOutput, ToolSpec
from evaluators.runs.pricing import PriceTable
from mcp_server.server import META_AGENT, META_EPISODE_ID, META_EPOCH, META_THOUGHT, META_USAGE
from mcp_server.trajectory import AgentInfo, EndStatus, Usage

EPISODE_OVER_PREFIX = "the episode is over"
RAW_OUTPUT_LIMIT = 4000
"""Characters of a malformed reply kept in the recorded step (enough to see what went wrong)."""


class McpSession(Protocol):
    async def list_tools(self) -> Any: ...
    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **kwargs: Any) -> Any: ...


class EpisodeRecorder(Protocol):
    """Mirrors the episode into a local trajectory file when the server writing the real one is remote."""

    def started(self, info: dict[str, Any]) -> None: ...
    def stepped(self, tool: str, arguments: dict[str, Any], observation: Any, is_error: bool,
                thought: str | None, usage: Usage | None) -> None: ...
    def ended(self, status: EndStatus, message: str | None = None) -> None: ...


class EpisodeStartError(RuntimeError):
    """start_task was refused (unknown task, unavailable task set, finished episode id)."""


@dataclass
class EpisodeOutcome:
    episode_id: str
    status: EndStatus
    steps: int
    recommended: str | None = None
    model_calls: int = 0
    model_time_s: float = 0.0
    cached_calls: int = 0
    outputs: list[ModelOutput] = field(default_factory=list, repr=False)


@dataclass
class ToolReply:
    content: Any
    text: str
    is_error: bool


async def call(session: McpSession, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None) -> ToolReply:
    result = await session.call_tool(name, arguments, meta=meta)
    text = "".join(getattr(block, "text", "") for block in result.content)
    structured = result.structured_content
    if result.is_error or not structured:
        return ToolReply(text, text, bool(result.is_error))
    content = structured.get("result", structured) if isinstance(structured, dict) else structured
    return ToolReply(content, text, False)


async def run_episode(
    session: McpSession,
    model: ModelAPI,
    protocol: AgentProtocol,
    *,
    task_id: str,
    episode_id: str | None,
    epoch: int,
    agent: AgentInfo,
    config: GenerateConfig,
    max_steps: int,
    prices: PriceTable | None = None,
    recorder: EpisodeRecorder | None = None,
    listed_tools: list[Any] | None = None,
) -> EpisodeOutcome:
    """Play one task to its end. Model errors propagate (the caller decides about the unfinished episode).
    `episode_id` None lets the server name the episode (a remote server whose runs dir may hold older runs).
    `listed_tools` (the server's tool list, fetched once per run) saves a list_tools round trip per episode."""
    listed = listed_tools if listed_tools is not None else (await session.list_tools()).tools
    start_meta: dict[str, Any] = {META_EPOCH: epoch, META_AGENT: agent.model_dump(mode="json")}
    if episode_id is not None:
        start_meta[META_EPISODE_ID] = episode_id
    started = await call(session, "start_task", {"task_id": task_id}, start_meta)
    if started.is_error:
        raise EpisodeStartError(f"start_task({task_id!r}) was refused: {started.text}")
    info = started.content if isinstance(started.content, dict) else json.loads(started.text)
    if recorder:
        recorder.started(info)
    allowed = set(info.get("tools") or [])
    tools = [
        ToolSpec(name=t.name, description=t.description or "", parameters=t.input_schema)
        for t in listed
        if t.name in allowed
    ]
    limit = min(max_steps, int(info.get("max_steps") or max_steps))
    messages = protocol.opening(info["instruction"], tools)
    model_tools = protocol.model_tools(tools)
    outcome = EpisodeOutcome(episode_id=info.get("episode_id") or episode_id or "", status="step_limit", steps=0)
    turn = 0
    try:
        while outcome.steps < limit:
            output = await model.generate(messages, model_tools, config)
            outcome.model_calls += 1
            outcome.model_time_s += output.latency_s
            outcome.cached_calls += int(output.cached)
            parsed = protocol.read(output, turn)
            usage = _usage(model, output, prices)
            observations: list[Observation] = []
            for index, tool_call in enumerate(parsed.calls):
                if outcome.steps >= limit:
                    break
                meta: dict[str, Any] = {}
                if index == 0:
                    if parsed.thought:
                        meta[META_THOUGHT] = parsed.thought
                    meta[META_USAGE] = usage.model_dump(exclude_none=True)
                if tool_call.parse_error:
                    name = INVALID_CALL_TOOL
                    arguments = {"error": tool_call.parse_error, "raw": output.text[:RAW_OUTPUT_LIMIT]}
                    if tool_call.name:
                        arguments["name"] = tool_call.name
                else:
                    name, arguments = tool_call.name, tool_call.arguments
                reply = await call(session, name, arguments, meta)
                outcome.steps += 1
                shown = protocol.malformed(tool_call.parse_error) if tool_call.parse_error else reply.content
                observations.append(Observation(tool_call, shown, reply.is_error or bool(tool_call.parse_error)))
                if recorder:
                    recorder.stepped(name, arguments, reply.content, reply.is_error, meta.get(META_THOUGHT),
                                     usage if index == 0 else None)
                if not reply.is_error and name == "recommend_product":
                    outcome.recommended = arguments.get("product_ids")
                if not reply.is_error and name == "terminate":
                    outcome.status = "terminated"
                    break
                if reply.is_error and reply.text.startswith(EPISODE_OVER_PREFIX):
                    outcome.status = "abandoned"
                    break
            protocol.append(messages, output, observations)
            turn += 1
            if outcome.status != "step_limit":
                break
    except BaseException as error:
        if recorder:
            recorder.ended("error", f"{type(error).__name__}: {error}")
        raise
    if recorder:
        message = f"the step limit of {limit} was reached" if outcome.status == "step_limit" else None
        recorder.ended(outcome.status, message)
    return outcome


def _usage(model: ModelAPI, output: ModelOutput, prices: PriceTable | None) -> Usage:
    cost = 0.0 if output.cached else (prices.cost(model.spec, output.model, output.usage) if prices else None)
    return Usage(
        input_tokens=output.usage.input_tokens,
        output_tokens=output.usage.output_tokens,
        latency_s=round(output.latency_s, 4),
        cost_usd=cost,
    )
