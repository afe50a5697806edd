"""Scripted baselines behind an installed agent: the agentic ones (`heuristic`, `naive`, `oracle`, `random`) and the
question ones (`random`, `majority`).

A baseline reads its chat as the built-in agent loop writes it: the task's instruction as the first user turn, then
one call and its bare observation per step. An agent writes its own chat — its system prompt and preambles first,
each tool result wrapped its own way (Claude Code shows the structured content, Codex prefixes a wall time, qwen-code
appends the text) — so the baseline is shown the episode's own record instead: the instruction the episode started
with and, for every step the server recorded, the call and its observation (from the live episode, never re-read
from its trajectory file). The agent still carries every call both
ways (a step exists only if the agent made the call); only what the baseline reads is the server's record. Once the
episode is over it answers with text and no call, which ends the agent's turn.

A question baseline (AnswersQuestion) answers its episode's question as the question player would, by the canonical
`submit_answer`, which the bridge names the agent's way: the agent carries the answer whatever it calls the tool.

Real models are never wrapped: they see the agent's messages as the agent wrote them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from benchmarks.qa import QuestionPrompt
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolCall, ToolSpec, WrappedModel
from evaluators.players.question import Answerer, submitted_answer

if TYPE_CHECKING:
    from mcp_server.episodes import Episode

FINISHED = "The episode is over."


class EpisodeRecordView(WrappedModel):
    """The baseline `inner`, shown the chat of `episode` as the server recorded it (see the module docstring)."""

    def __init__(self, inner: ModelAPI, episode: Episode) -> None:
        super().__init__(inner)
        self.episode = episode

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        if self.episode.over:
            return ModelOutput(text=FINISHED, model=self.inner.spec)
        chat = [ChatMessage(role="user", content=self.episode.instruction)]
        for step in list(self.episode.history):
            call = ToolCall(id=f"step-{step.index}", name=step.tool, arguments=step.arguments)
            observation = step.observation
            text = observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)
            chat += [ChatMessage(role="assistant", content="", tool_calls=[call]),
                     ChatMessage(role="tool", content=text, tool_call_id=call.id, name=step.tool)]
        return await self.inner.generate(chat, tools, config)


class AnswersQuestion(ModelAPI):
    """The question baseline `answerer` as the model of `episode`: it submits the baseline's answer to the episode's
    question until the episode is over, then answers with text."""

    is_baseline = True

    def __init__(self, answerer: Answerer, episode: Episode, task_id: str, prompt: QuestionPrompt,
                 epoch: int) -> None:
        self.answerer, self.episode, self.task_id, self.prompt, self.epoch = answerer, episode, task_id, prompt, epoch
        self.spec = answerer.agent.name

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, **self.answerer.agent.details}

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        if self.episode.over:
            return ModelOutput(text=FINISHED, model=self.spec)
        texts, _ = await self.answerer.answer(self.task_id, self.prompt, self.epoch)
        turn = sum(1 for message in messages if message.role == "assistant")
        call = ToolCall(id=f"answer_{turn}", name="submit_answer",
                        arguments={"answer": submitted_answer(texts, self.prompt)})
        return ModelOutput(tool_calls=[call], model=self.spec)
