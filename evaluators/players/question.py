"""The question player: start_task gives the question, the answerer writes the answer, submit_answer records it —
the same calls an outside MCP client or a person in the TUI makes, so all three are recorded alike.

The answerer is a model backend (retried and cached by evaluators.harness.backend) or a baseline's question policy
(evaluators.players.baselines: `random`, `majority`), which reads the items on the harness side, never through the
server. CoT-SC draws its samples and submits the JSON list of them, which the benchmark's parser votes over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from benchmarks.qa import QuestionPrompt
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI
from evaluators.players.pricing import PriceTable
from mcp_server.episode_client import EpisodeClient, McpSession
from mcp_server.trajectory import AgentInfo, EndStatus, Usage


@dataclass(frozen=True)
class Decoding:
    """Overrides of the reference decoding a question comes with (None: keep the reference's)."""

    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    seed: int = 0


class Answerer:
    """Turns a question into raw answer texts (one per sample) and what they cost."""

    agent: AgentInfo

    async def answer(self, task_id: str, prompt: QuestionPrompt, epoch: int) -> tuple[list[str], Usage | None]:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release the model (baselines hold nothing)."""


class ModelAnswerer(Answerer):
    def __init__(self, model: ModelAPI, agent: AgentInfo, decoding: Decoding, prices: PriceTable | None) -> None:
        self.model, self.agent, self.decoding, self.prices = model, agent, decoding, prices

    async def answer(self, task_id: str, prompt: QuestionPrompt, epoch: int) -> tuple[list[str], Usage | None]:
        messages = ([ChatMessage(role="system", content=prompt.system)] if prompt.system else []) + [
            ChatMessage(role="user", content=prompt.user)
        ]
        d = self.decoding
        texts: list[str] = []
        usage = Usage(input_tokens=0, output_tokens=0, latency_s=0.0, cost_usd=0.0 if self.prices else None)
        for sample in range(prompt.samples):
            config = GenerateConfig(
                temperature=prompt.temperature if d.temperature is None else d.temperature,
                max_tokens=d.max_tokens or prompt.max_tokens,
                top_p=d.top_p,
                seed=d.seed + epoch * prompt.samples + sample,
            )
            output = await self.model.generate(messages, None, config)
            texts.append(output.text)
            usage.input_tokens = (usage.input_tokens or 0) + output.usage.input_tokens
            usage.output_tokens = (usage.output_tokens or 0) + output.usage.output_tokens
            usage.latency_s = round((usage.latency_s or 0.0) + output.latency_s, 4)
            if self.prices is not None and not output.cached:
                usage.cost_usd = (usage.cost_usd or 0.0) + (self.prices.cost(self.model.spec, output.model,
                                                                             output.usage) or 0.0)
        return texts, usage

    async def aclose(self) -> None:
        await self.model.aclose()


def submitted_answer(texts: list[str], prompt: QuestionPrompt) -> str:
    """What submit_answer is given: the one sample's text, or the JSON list of the samples (CoT-SC votes over them)."""
    return texts[0] if prompt.samples == 1 else json.dumps(texts, ensure_ascii=False)


@dataclass(frozen=True)
class Answered:
    episode_id: str
    """The server's episode id."""
    status: EndStatus | None


async def answer_question(
    session: McpSession,
    answerer: Answerer,
    *,
    task_id: str,
    episode_id: str | None,
    epoch: int,
    benchmark: str | None = None,
) -> Answered:
    """Play one question episode through the server. A failed model call propagates with the episode still running
    (the caller closes the session, and the server records the episode as abandoned)."""
    client = EpisodeClient(session)
    started = await client.start(task_id, agent=answerer.agent, benchmark=benchmark, episode_id=episode_id,
                                 epoch=epoch)
    if started.question is None:
        raise RuntimeError(f"start_task({task_id!r}) returned no question: {started.benchmark} is not a question "
                           "benchmark on this server")
    prompt = QuestionPrompt.model_validate(started.question)
    texts, usage = await answerer.answer(task_id, prompt, epoch)
    answer = submitted_answer(texts, prompt)
    reply = await client.call("submit_answer", {"answer": answer}, usage=usage)
    if reply.is_error:
        raise RuntimeError(f"submit_answer was refused: {reply.text}")
    return Answered(started.episode_id, client.status.end_reason if client.status else None)
