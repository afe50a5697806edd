"""One episode: a model playing one task through an MCP session with the shopbench sandbox.

start_task (episode id, epoch and agent identity) → per step: model.generate(history, tools) → one tool call
through `EpisodeClient` (thought and usage in `_meta`) → observation into the history — until the episode status
the server returns says it has ended (terminate, the step limit, or the server ending it). A malformed turn (no
call, bad JSON, unknown tool) is recorded as what it was — the raw text, what was wrong and the feedback the model
is shown — and counts as a step.

The session is any object with the `mcp.Client` methods `list_tools` and `call_tool`; the trajectory is written by
the server's Episode, and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evaluators.models.base import GenerateConfig, ModelAPI, ModelOutput, ToolSpec
from evaluators.players.agent.protocols import AgentProtocol, Observation
from evaluators.players.pricing import PriceTable
from mcp_server.episode_client import EpisodeClient, McpSession, ToolReply
from mcp_server.trajectory import AgentInfo, EndStatus, Usage


@dataclass
class EpisodeOutcome:
    episode_id: str
    status: EndStatus | None
    """How the episode ended, as the server's episode status says (None if it did not end)."""
    steps: int
    model_calls: int = 0
    model_time_s: float = 0.0
    cached_calls: int = 0


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
    max_steps: int | None = None,
    prices: PriceTable | None = None,
    listed_tools: list[Any] | None = None,
) -> EpisodeOutcome:
    """Play one task to its end. Model errors propagate (the caller decides about the unfinished episode).
    `episode_id` None lets the server name the episode (a remote server whose runs dir may hold older runs).
    `listed_tools` (the server's tool list, fetched once per run) saves a list_tools round trip per episode.
    `max_steps` None: the server's step limit for the episode."""
    listed = listed_tools if listed_tools is not None else (await session.list_tools()).tools
    client = EpisodeClient(session)
    info = await client.start(task_id, agent=agent, episode_id=episode_id, epoch=epoch)
    allowed = set(info.tools)
    tools = [
        ToolSpec(name=t.name, description=t.description or "", parameters=t.input_schema)
        for t in listed
        if t.name in allowed
    ]
    limit = info.max_steps if max_steps is None else min(max_steps, info.max_steps)
    messages = protocol.opening(info.instruction, tools)
    model_tools = protocol.model_tools(tools)
    outcome = EpisodeOutcome(episode_id=info.episode_id, status=None, steps=0)
    turn = 0
    while not client.over and outcome.steps < limit:
        output = await model.generate(messages, model_tools, config)
        outcome.model_calls += 1
        outcome.model_time_s += output.latency_s
        outcome.cached_calls += int(output.cached)
        parsed = protocol.read(output, turn)
        usage = _usage(model, output, prices)
        observations: list[Observation] = []
        for index, tool_call in enumerate(parsed.calls):
            if client.over:
                break
            thought = parsed.thought if index == 0 else None
            step_usage = usage if index == 0 else None
            reply: ToolReply
            if tool_call.parse_error:
                shown = protocol.malformed(tool_call.parse_error)
                reply = await client.malformed(output.text, tool_call.parse_error, shown, tool=tool_call.name or None,
                                               thought=thought, usage=step_usage)
            else:
                reply = await client.call(tool_call.name, tool_call.arguments, thought=thought, usage=step_usage)
                shown = reply.observation
            outcome.steps += 1
            observations.append(Observation(tool_call, shown, reply.is_error))
        protocol.append(messages, output, observations)
        turn += 1
    if client.status is not None:
        outcome.steps = client.status.steps_used
        outcome.status = client.status.end_reason
    return outcome


def _usage(model: ModelAPI, output: ModelOutput, prices: PriceTable | None) -> Usage:
    cost = 0.0 if output.cached else (prices.cost(model.spec, output.model, output.usage) if prices else None)
    return Usage(
        input_tokens=output.usage.input_tokens,
        output_tokens=output.usage.output_tokens,
        latency_s=round(output.latency_s, 4),
        cost_usd=cost,
    )
