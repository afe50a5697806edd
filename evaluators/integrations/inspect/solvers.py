"""Inspect solvers that play shopbench episodes through the eval's MCP server.

`shopping_agent`: one sample = one ShoppingBench task. The solver opens one MCP connection for the sample, calls
`start_task` (the Inspect model name, epoch and sample id go into the trajectory), and runs Inspect's ReAct agent
with the agent instructions as system prompt and the episode's tools — each tool call one step of the episode, read
with EpisodeClient. The agent stops when the episode status says the episode ended (terminate or the step limit).
A turn with no tool call, or a call Inspect could not parse, is recorded as a malformed step (as shopbench's own loop
records it) and the model is shown the feedback.

`answer_question`: one sample = one question; the model answers with the prompt as the reference sent it, and the
raw answer is submitted to the episode (`submit_answer`), so `shopbench score` reads it from the run folder.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.agent import Agent, AgentPrompt, AgentState, react
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolDef, ToolError, ToolParams

from benchmarks.shoppingbench.agent_prompts import MALFORMED_NATIVE
from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS
from evaluators.integrations.inspect.episodes import HARNESS, episode_client, inspect_agent
from mcp_server.episode_client import EpisodeClient
from mcp_server.episodes import ensure_manifest
from mcp_server.server import ShopbenchServer
from mcp_server.suites import TaskSuite
from mcp_server.trajectory import Usage

STORE_EPISODE = "shopbench_episode_id"
STORE_RUN = "shopbench_run_dir"
NO_CALL = "it holds no tool call"


def _epoch(state: TaskState) -> int:
    """Inspect counts epochs from 1; shopbench from 0."""
    return max(0, int(getattr(state, "epoch", 1)) - 1)


def _record_manifest(server: ShopbenchServer, suite: TaskSuite, model: str, **parameters: Any) -> None:
    """The run's manifest, written once by the first sample: the model, the harness, and where the world is (so
    `shopbench score RUN` scores in the world the eval played)."""
    state = server.state
    world = None
    if state.world is not None:
        world = {**state.world.info.model_dump(mode="json"), "path": str(state.world.root.resolve())}
    agent = inspect_agent(model, sample_id=None, epoch=0).model_copy(update={"details": {"harness": HARNESS}})
    ensure_manifest(state.runs_dir, suite=suite, agent=agent, max_steps=state.max_steps, world=world)


class Turn:
    """The model turn being played: its text (the step's thought) and usage go with the turn's first step, as
    shopbench's own loop records them."""

    def __init__(self) -> None:
        self.thought: str | None = None
        self.usage: Usage | None = None

    def take(self) -> tuple[str | None, Usage | None]:
        taken = self.thought, self.usage
        self.thought = self.usage = None
        return taken


def _usage(output: ModelOutput) -> Usage:
    usage = output.usage
    return Usage(input_tokens=usage.input_tokens if usage else None,
                 output_tokens=usage.output_tokens if usage else None,
                 latency_s=round(output.time, 4) if output.time is not None else None)


def _recording_model(turn: Turn) -> Agent:
    """The evaluated model as react's `model`: one generate per turn, noting the turn's text and usage."""

    async def generate(state: AgentState, tools: list[Tool]) -> AgentState:
        output = await get_model().generate(state.messages, tools)
        state.output = output
        state.messages.append(output.message)
        turn.thought, turn.usage = (output.message.text or None), _usage(output)
        return state

    return generate


def _tool_defs(listed: list[Any], allowed: list[str], client: EpisodeClient, turn: Turn) -> list[ToolDef]:
    """Inspect tools for the episode's tools, declared with the server's schemas; each call is one episode step."""

    def make(name: str) -> Any:
        async def execute(**arguments: Any) -> str:
            thought, usage = turn.take()
            reply = await client.call(name, arguments, thought=thought, usage=usage)
            if reply.is_error:
                raise ToolError(reply.text)
            return reply.text

        return execute

    defs = []
    for tool in listed:
        if tool.name in allowed:
            parameters = ToolParams.model_validate(tool.input_schema)
            for param_name, param in parameters.properties.items():
                param.description = param.description or param_name
            defs.append(ToolDef(make(tool.name), name=tool.name, description=tool.description or tool.name,
                                parameters=parameters, parallel=False))
    return defs


@solver
def shopping_agent(server: ShopbenchServer, suite: TaskSuite) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = str(state.model)
        _record_manifest(server, suite, model)
        async with episode_client(server) as (session, client):
            listed = (await session.list_tools()).tools
            started = await client.start(
                str(state.sample_id), benchmark=suite.benchmark, task_set=suite.task_set, epoch=_epoch(state),
                agent=inspect_agent(model, sample_id=state.sample_id, epoch=_epoch(state)),
            )
            state.store.set(STORE_EPISODE, started.episode_id)
            state.store.set(STORE_RUN, str(server.state.runs_dir))

            turn = Turn()

            async def on_continue(agent_state: AgentState) -> bool | str:
                await _record_unrunnable(agent_state, client, turn)
                if client.over:
                    return False
                if not agent_state.output.message.tool_calls:
                    return MALFORMED_NATIVE.format(problem=NO_CALL)
                return True

            agent = react(
                prompt=AgentPrompt(instructions=MCP_AGENT_INSTRUCTIONS, handoff_prompt=None, assistant_prompt=None,
                                   submit_prompt=None),
                tools=_tool_defs(listed, started.tools, client, turn),
                model=_recording_model(turn),
                submit=False,
                on_continue=on_continue,
            )
            result = await agent(AgentState(messages=[ChatMessageUser(content=started.instruction)]))
        state.messages = result.messages
        state.output = result.output
        state.completed = True
        return state

    return solve


async def _record_unrunnable(agent_state: AgentState, client: EpisodeClient, turn: Turn) -> None:
    """Record the last turn's unrunnable parts as malformed steps: no tool call at all, or calls Inspect refused
    before they reached the server (arguments that fail the tool's schema)."""
    if client.over:
        return
    messages = agent_state.messages
    last = max((i for i, m in enumerate(messages) if isinstance(m, ChatMessageAssistant)), default=None)
    if last is None:
        return
    assistant = messages[last]
    assert isinstance(assistant, ChatMessageAssistant)
    if not assistant.tool_calls:
        feedback = MALFORMED_NATIVE.format(problem=NO_CALL)
        thought, usage = turn.take()
        await client.malformed(assistant.text or "", NO_CALL, feedback, usage=usage)
        return
    for message in messages[last + 1:]:
        if isinstance(message, ChatMessageTool) and message.error is not None and message.error.type == "parsing":
            call = next((c for c in assistant.tool_calls if c.id == message.tool_call_id), None)
            raw = json.dumps({"name": call.function, "arguments": call.arguments} if call else {}, default=str)
            thought, usage = turn.take()
            await client.malformed(raw, message.error.message, message.error.message,
                                   tool=call.function if call else None, thought=thought, usage=usage)
            if client.over:
                return


@solver
def answer_question(server: ShopbenchServer, suite: TaskSuite) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        question = state.metadata.get("question") or {}
        model = str(state.model)
        _record_manifest(server, suite, model)
        samples = int(question.get("samples", 1))
        if samples != 1:
            raise ValueError(f"prompting with {samples} samples per question (CoT-SC) is not supported in Inspect; "
                             "use zero-shot, few-shot or cot")
        config = GenerateConfig(max_tokens=question.get("max_tokens"), temperature=question.get("temperature"))
        state = await generate(state, **config.model_dump(exclude_none=True))
        answer = state.output.completion
        async with episode_client(server) as (_, client):
            started = await client.start(
                str(state.sample_id), benchmark=suite.benchmark, task_set=suite.task_set, epoch=_epoch(state),
                agent=inspect_agent(model, sample_id=state.sample_id, epoch=_epoch(state)),
            )
            state.store.set(STORE_EPISODE, started.episode_id)
            state.store.set(STORE_RUN, str(server.state.runs_dir))
            reply = await client.call("submit_answer", {"answer": answer})
            if reply.is_error:
                raise RuntimeError(f"submit_answer was refused: {reply.text}")
        return state

    return solve
