"""Answering a question episode: start_task gives the question, the answerer writes the answer, submit_answer
records it — the same calls an outside MCP client or a person in the TUI makes, so all three are recorded alike.

The answerer is a model backend (retried and cached by evaluators.runs.backend) or a baseline answered here:
`random` (seeded by seed, item id and epoch) and `majority` (each task's majority gold answer, labelled as reading the
gold). Baselines read the items on the harness side, never through the server. CoT-SC draws its samples and submits
the JSON list of them, which the benchmark's parser votes over.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.qa import BASELINES, QuestionBenchmark, QuestionPrompt
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI
from evaluators.runs.pricing import PriceTable
from mcp_server.episode_client import EpisodeClient, McpSession
from mcp_server.trajectory import AgentInfo, EndStatus, Usage

MAJORITY_LABEL = "majority (reads each task's gold answers; a label-skew probe, not a model)"


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


class BaselineAnswerer(Answerer):
    """`random` or `majority`, for any registered question benchmark (its QuestionBenchmark answers for it)."""

    def __init__(self, name: str, questions: QuestionBenchmark[Any], items: Path | str | None, prompting: str,
                 seed: int) -> None:
        if name not in BASELINES:
            raise ValueError(f"no question baseline {name!r}; choose one of {', '.join(BASELINES)}")
        self.name, self.questions, self.prompting, self.seed = name, questions, prompting, seed
        loaded = questions.load(items)
        self.items = {questions.item_id(item): item for item in loaded}
        self.majority = questions.majority_answers(loaded, prompting) if name == "majority" else {}
        details: dict[str, Any] = {"seed": seed} if name == "random" else {"label": MAJORITY_LABEL}
        self.agent = AgentInfo(kind="baseline", name=name, details=details)

    async def answer(self, task_id: str, prompt: QuestionPrompt, epoch: int) -> tuple[list[str], Usage | None]:
        if self.name == "majority":
            return [self.majority[task_id]] * prompt.samples, None
        rng = random.Random(f"{self.seed}:{task_id}" + (f":{epoch}" if epoch else ""))
        item = self.items[task_id]
        return [self.questions.random_answer(item, rng, self.prompting) for _ in range(prompt.samples)], None


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
    answer = texts[0] if prompt.samples == 1 else json.dumps(texts, ensure_ascii=False)
    reply = await client.call("submit_answer", {"answer": answer}, usage=usage)
    if reply.is_error:
        raise RuntimeError(f"submit_answer was refused: {reply.text}")
    return Answered(started.episode_id, client.status.end_reason if client.status else None)
