"""The baselines of agentic episodes: `random` (the floor), `naive`, `heuristic`, and `oracle` (the ceiling).

All act through the same tools as any model, so a run with them exercises the whole harness. The oracle exists to
prove the harness can reach 100%; it reads the gold from the harness (EpisodeContext.gold), never from the server,
and is labelled ORACLE_LABEL wherever it appears. `naive` (search the raw instruction, or each named item's text,
and recommend the first hit) and `heuristic` (the scripted shopper that checked every generated task: the stated
words and filters, paging, product pages) read nothing but the chat: the instruction and their observations.
Where an episode offers `ask_user` (a conversational task set), the same `heuristic` asks the shopper about each
kind of constraint before it shops (conversational.py), so `--user rules --model heuristic` plays it as it is; the
oracle, naive and random never ask.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from benchmarks.shoppingbench.agent_prompts import PAPER_OBSERVATION_CLOSE, PAPER_OBSERVATION_OPEN
from benchmarks.shoppingbench.worldgen.heuristic import Script, heuristic_script, naive_script
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolCall, ToolSpec
from evaluators.models.episode import EpisodeBound, EpisodeContext
from evaluators.players.agent.paper_format import format_paper_call
from evaluators.players.baselines.conversational import asking_script, offers_ask_user
from evaluators.players.baselines.registry import register_baseline
from mcp_server.trajectory import AgentInfo, AgentKind

ORACLE_LABEL = "oracle (uses gold answers)"
PRODUCT_ID_RE = re.compile(r'"product_id"\s*:\s*"([^"]+)"')
WORD_RE = re.compile(r"[A-Za-z]{4,}")


def _turns_taken(messages: list[ChatMessage]) -> int:
    return sum(1 for m in messages if m.role == "assistant")


def _reply(name: str, arguments: dict[str, Any], thought: str, tools: list[ToolSpec] | None, turn: int,
           spec: str) -> ModelOutput:
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

    def agent(self) -> AgentInfo:
        """Who the run's manifest and episodes say played."""
        return AgentInfo(kind=AgentKind.baseline, name=self.spec, details=self.identity())


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

    def agent(self) -> AgentInfo:
        return AgentInfo(kind=AgentKind.baseline, name=ORACLE_LABEL, details=self.identity())

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


class ScriptedBaseline(_Baseline):
    """Plays a script of tool calls (benchmarks.shoppingbench.worldgen.heuristic) from the chat alone: each turn,
    the script is replayed from the instruction with the observations so far, and its next call is the reply.
    Offered `ask_user` (a conversational task set), the heuristic asks before it shops (conversational.py)."""

    scripts = {"naive": naive_script, "heuristic": heuristic_script}

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "baseline"}

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        instruction = next((m.content for m in messages if m.role == "user"), "")
        if self.spec == "heuristic" and offers_ask_user(messages, tools):
            script: Script = asking_script(instruction)
        else:
            script = self.scripts[self.spec](instruction)
        turn = _turns_taken(messages)
        try:
            name, arguments = next(script)
            for observation in _observations(messages)[:turn]:
                name, arguments = script.send(observation)
        except StopIteration:
            name, arguments = "terminate", {"status": "failure"}
        return _reply(name, arguments, f"{self.spec} step {turn + 1}", tools, turn, self.spec)


def _observations(messages: list[ChatMessage]) -> list[Any]:
    """What each earlier turn observed, in order: tool messages (native), or the <obs> block (paper); any other
    user message after the instruction (a note about a malformed turn) counts as that turn's observation."""
    seen: list[Any] = []
    first_user = next((i for i, m in enumerate(messages) if m.role == "user"), len(messages))
    for message in messages[first_user + 1:]:
        if message.role == "tool":
            seen.append(_json_or_text(message.content))
        elif message.role == "user" and message.content.startswith(PAPER_OBSERVATION_OPEN):
            body = message.content[len(PAPER_OBSERVATION_OPEN):].removesuffix(PAPER_OBSERVATION_CLOSE)
            results = _json_or_text(body)
            if isinstance(results, list):
                seen.extend(r.get("content") if isinstance(r, dict) else r for r in results)
            else:
                seen.append(results)
        elif message.role == "user":
            seen.append(message.content)
    return seen


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _calls_text(message: ChatMessage) -> str:
    if message.tool_calls:
        return json.dumps([call.name for call in message.tool_calls])
    return message.content


@register_baseline("random", kind="agentic", help="random: random searches and recommendations (seeded)")
def random_agent(seed: int) -> ModelAPI:
    return RandomBaseline("random", seed)


@register_baseline("oracle", kind="agentic", help=f"oracle: {ORACLE_LABEL}; proves the harness can reach 100%")
def oracle_agent(seed: int) -> ModelAPI:
    return OracleBaseline("oracle", seed)


@register_baseline("naive", kind="agentic",
                   help="naive: searches the raw instruction (each named item's text) and recommends the first hit")
def naive_agent(seed: int) -> ModelAPI:
    return ScriptedBaseline("naive", seed)


@register_baseline("heuristic", kind="agentic",
                   help="heuristic: scripted shopper using the instruction's words and constraints, filters, paging "
                   "and product pages (offered ask_user, it asks about each kind of constraint first)")
def heuristic_agent(seed: int) -> ModelAPI:
    return ScriptedBaseline("heuristic", seed)
