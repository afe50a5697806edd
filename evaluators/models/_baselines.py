"""Baselines that need no model: `random` (the floor) and `oracle` (the ceiling, from the gold answers).

Both act through the same tools as any model, so a run with them exercises the whole harness. The oracle exists to
prove the harness can reach 100%; it reads the gold from the harness (EpisodeContext.gold), never from the server,
and is labelled ORACLE_LABEL wherever it appears.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from evaluators.agent.paper_format import format_paper_call
from evaluators.models._registry import ModelOptions, register_backend
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolCall, ToolSpec
from evaluators.models.episode import EpisodeBound, EpisodeContext

ORACLE_LABEL = "oracle (uses gold answers)"
PRODUCT_ID_RE = re.compile(r'"product_id"\s*:\s*"([^"]+)"')
WORD_RE = re.compile(r"[A-Za-z]{4,}")


def _turns_taken(messages: list[ChatMessage]) -> int:
    return sum(1 for m in messages if m.role == "assistant")


def _reply(name: str, arguments: dict[str, Any], thought: str, tools: list[ToolSpec] | None, turn: int, spec: str):
    """One call, natively when tools were given, else in the paper's text format."""
    if tools is None:
        return ModelOutput(text=format_paper_call(name, arguments, thought), model=spec)
    call = ToolCall(id=f"{spec}-{turn}", name=name, arguments=arguments)
    return ModelOutput(text=thought, tool_calls=[call], model=spec)


class _Baseline(ModelAPI, EpisodeBound):
    is_baseline = True

    def __init__(self, spec: str, seed: int, context: EpisodeContext | None = None) -> None:
        self.spec = spec
        self.seed = seed
        self.context = context

    def for_episode(self, context: EpisodeContext) -> ModelAPI:
        return type(self)(self.spec, self.seed, context)


class RandomBaseline(_Baseline):
    """Searches one random word of the instruction on a random page, recommends random products it saw, stops.

    Its choices derive from (seed, episode id), so a rerun or a resumed run repeats them exactly.
    """

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "baseline", "seed": self.seed}

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        episode = self.context.episode_id if self.context else ""
        turn = _turns_taken(messages)
        rng = random.Random(f"{self.seed}:{episode}:{turn}")
        if tools is None and self.context is not None and self.context.choices:
            return ModelOutput(text=rng.choice(self.context.choices), model=self.spec)
        instruction = next((m.content for m in messages if m.role == "user"), "")
        seen = list(dict.fromkeys(PRODUCT_ID_RE.findall(" ".join(m.content for m in messages[1:]))))
        if turn == 0 or not seen and turn < 3:
            words = WORD_RE.findall(instruction) or ["product"]
            arguments = {"q": rng.choice(words), "page": rng.randint(1, 5)}
            return _reply("find_product", arguments, "random search", tools, turn, "random")
        if seen and not any(m.role == "assistant" and "recommend_product" in _calls_text(m) for m in messages):
            picked = rng.sample(seen, k=min(len(seen), rng.randint(1, 3)))
            return _reply("recommend_product", {"product_ids": ",".join(picked)}, "random pick", tools, turn, "random")
        return _reply("terminate", {"status": "success"}, "done", tools, turn, "random")


class OracleBaseline(_Baseline):
    """Searches for the first target, views the targets, recommends exactly the gold ids in order, terminates."""

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "baseline", "label": ORACLE_LABEL}

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        gold = self.context.gold if self.context else None
        if gold is None:
            raise ValueError("the oracle needs the gold task from the harness (EpisodeContext.gold)")
        ids = ",".join(target.product_id for target in gold.targets)
        plan = [
            ("find_product", {"q": gold.targets[0].title[0], "page": 1}),
            ("view_product_information", {"product_ids": ids}),
            ("recommend_product", {"product_ids": ids}),
            ("terminate", {"status": "success"}),
        ]
        turn = _turns_taken(messages)
        name, arguments = plan[min(turn, len(plan) - 1)]
        return _reply(name, arguments, "following the gold answer", tools, turn, "oracle")


def _calls_text(message: ChatMessage) -> str:
    if message.tool_calls:
        return json.dumps([call.name for call in message.tool_calls])
    return message.content


@register_backend("random", needs_argument=False, help="random: random searches and recommendations (seeded)")
def _random(rest: str, options: ModelOptions) -> ModelAPI:
    return RandomBaseline("random", options.seed)


@register_backend("oracle", needs_argument=False, help=f"oracle: {ORACLE_LABEL}; proves the harness can reach 100%")
def _oracle(rest: str, options: ModelOptions) -> ModelAPI:
    return OracleBaseline("oracle", options.seed)
