"""An agentic benchmark as a verifiers multi-turn tool environment: every rollout is one episode on the benchmark's
MCP server, the model's tool calls are the episode's steps.

The prompt, the tools and what the model is shown back are those of shopbench's own agent loop with the `native`
protocol (evaluators.players.agent): its system prompt and the instruction as first user message, the suite's tools
with the server's schemas, each tool result as the JSON the server answered (an error as its text), and a turn with
no runnable call recorded as a malformed step whose feedback the model reads next. The episode's rules end the
rollout: `terminate` or the step limit (the episode status says so, never a message's wording); its trajectory lands
in the environment's run folder, so `shopbench score RUN` scores the rollouts as any run.
"""

from __future__ import annotations

from typing import Any, cast

import verifiers as vf
from datasets import Dataset

from benchmarks.registry import BenchmarkSpec
from evaluators.integrations.verifiers.episodes import Rollouts, message_text, turn_usage
from evaluators.models.base import ChatMessage, ModelOutput, ToolSpec
from evaluators.models.openai import tool_call
from evaluators.players.agent.protocols import NativeProtocol, Observation
from mcp_server.environment import Environment
from mcp_server.protocol import TaskListing
from mcp_server.suites import TaskSuite


class ToolEpisodeEnv(vf.MultiTurnEnv):
    """One rollout = one episode of `suite` on `environment`'s server; `rubric` scores the episode it recorded."""

    def __init__(self, spec: BenchmarkSpec, environment: Environment, suite: TaskSuite, listings: list[TaskListing],
                 *, rubric: vf.Rubric, **kwargs: Any) -> None:
        self.rollouts = Rollouts(environment, suite)
        self.protocol = NativeProtocol()
        tools = [ToolSpec(name=tool.name, description=tool.description,
                          parameters=tool.arguments.model_json_schema()) for tool in suite.tools.values()]
        rows = [{"prompt": [message.model_dump(include={"role", "content"})
                            for message in self.protocol.opening(suite.instruction(listing.task_id), tools)],
                 "answer": "",
                 "info": {"task_id": listing.task_id, "intent": listing.intent, "task_set": listing.task_set}}
                for listing in listings]
        super().__init__(
            dataset=Dataset.from_list(rows), rubric=rubric,
            tool_defs=[{"name": tool.name, "description": tool.description, "parameters": tool.parameters}
                       for tool in tools],
            max_turns=-1,  # the episode's step limit ends the rollout (every turn is at least one step)
            **kwargs,
        )

    async def setup_state(self, state: vf.State) -> vf.State:
        """Start the rollout's episode; the model is offered the tools the episode lists."""
        started = await self.rollouts.start(state)
        state["shopbench"]["turns"] = []
        state["tool_defs"] = [tool for tool in state["tool_defs"] if tool.name in started.tools]
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        """Run the model's turn in the episode, as shopbench's agent loop runs one."""
        client = self.rollouts.client(state)
        assert client is not None and client.status is not None  # set by setup_state
        output = _model_output(cast(vf.AssistantMessage, messages[-1]))
        turn = self.protocol.read(output, len(state["trajectory"]) - 1)
        usage = turn_usage(state)
        steps_before = client.status.steps_used
        observations: list[Observation] = []
        for index, call in enumerate(turn.calls):
            if client.over:
                break
            thought, step_usage = (turn.thought, usage) if index == 0 else (None, None)
            if call.parse_error:
                shown: Any = self.protocol.malformed(call.parse_error)
                reply = await client.malformed(output.text, call.parse_error, shown, tool=call.name or None,
                                               thought=thought, usage=step_usage)
            else:
                reply = await client.call(call.name, call.arguments, thought=thought, usage=step_usage)
                shown = reply.observation
            observations.append(Observation(call, shown, reply.is_error))
        state["shopbench"]["turns"].append({
            "steps_before": steps_before,
            "calls": [[call.name, call.arguments] for call in turn.calls if not call.parse_error],
            "well_formed": not any(call.parse_error for call in turn.calls),
        })
        history: list[ChatMessage] = []
        self.protocol.append(history, output, observations)
        replies: vf.Messages = [_wire(message) for message in history[1:]]
        if client.over:
            state["final_env_response"] = replies  # the episode is over: no further model call
        return replies

    @vf.cleanup
    async def close_episode(self, state: vf.State) -> None:
        """Close the rollout's connection (an episode cut short by an error or a timeout is recorded abandoned)."""
        await self.rollouts.close(state)


def _model_output(message: vf.AssistantMessage) -> ModelOutput:
    """The assistant turn as shopbench's backends return one (arguments read as the OpenAI backend reads them)."""
    calls = [tool_call(call.id, call.name, call.arguments) for call in message.tool_calls or []]
    return ModelOutput(text=message_text(message.content), tool_calls=calls)


def _wire(message: ChatMessage) -> vf.ToolMessage | vf.UserMessage:
    """A message the protocol appended (a tool result, or a malformed turn's feedback) as verifiers takes it."""
    if message.role == "tool":
        return vf.ToolMessage(content=message.content, tool_call_id=message.tool_call_id or "")
    return vf.UserMessage(content=message.content)
