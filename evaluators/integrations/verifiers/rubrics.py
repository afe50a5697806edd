"""shopbench's scorers as verifiers rubrics: each rollout's episode is read back from the run folder and scored by the
code `shopbench score` runs, so a rollout's reward is the number shopbench would give that episode.

ShoppingBench: `ASR` (success 1/0, weight 1: the reward), `CAR` (the rule score) and `exact_id` (metrics, weight 0);
with `tool_reward=True` also `tool_reward` (weight 1): the paper's per-turn GRPO reward (format + ToolRL correctness
against the oracle's moves, evaluators.integrations.gym.rewards), averaged over the rollout's turns. The reference is
read here, by the harness, and never shown to the policy. verifiers averages rewards over rollouts; shopbench's ASR
averages tasks within an intent, then intents: equal for rollouts of one intent, and `shopbench score RUN` gives the
latter (and pass^k) for any mix.

Question benchmarks: the reward, named after the benchmark's primary metric, is the item's value from the benchmark's
own `score` (its reference parser and metric) on the submitted answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import verifiers as vf

from benchmarks.registry import BenchmarkSpec
from benchmarks.shoppingbench.schema import ShoppingTask
from evaluators.integrations.gym.rewards import oracle_reference, step_reward
from evaluators.results.scoring import ScoreOptions
from mcp_server.shopping.world import World
from mcp_server.trajectory import Trajectory, episode_path, read_trajectory

SHOPPING_FIELDS = ("title", "price", "service", "sku_attrs", "shop", "budget", "kw")


def _recorded(state: vf.State) -> Trajectory:
    """The rollout's episode as the run folder holds it."""
    episode = state.get("shopbench")
    if not episode:
        raise ValueError("the rollout played no shopbench episode (its setup failed before start_task)")
    return read_trajectory(episode_path(Path(episode["run_dir"]), episode["episode_id"]))


def _named(name: str, read: Callable[[vf.State], Awaitable[float]]) -> Callable[[vf.State], Awaitable[float]]:
    """A reward function verifiers reports under `name` (its metric key is the function's name)."""

    async def value(state: vf.State) -> float:
        return await read(state)

    value.__name__ = value.__qualname__ = name
    return value


class ShoppingBenchRubric(vf.Rubric):
    """ASR (the reward), CAR and exact_id as `shopbench score` computes them, in the environment's world."""

    def __init__(self, world: World, embedder: str | None = None, *, tool_reward: bool = False) -> None:
        super().__init__()
        self.world, self.embedder = world, embedder
        self._tasks: dict[str, dict[str, ShoppingTask]] = {}
        for name, weight in (("ASR", 1.0), ("CAR", 0.0), ("exact_id", 0.0)):
            self.add_reward_func(_named(name, self._field(name)), weight=weight)
        if tool_reward:
            self.add_reward_func(_named("tool_reward", self._tool_reward), weight=1.0)

    def _task(self, task_set: str, task_id: str) -> ShoppingTask:
        if task_set not in self._tasks:
            self._tasks[task_set] = {task.task_id: task for task in self.world.tasks(task_set)}
        return self._tasks[task_set][task_id]

    async def score(self, state: vf.State) -> dict[str, Any]:
        """The episode's score (computed once per rollout, kept in `state["shopbench"]["score"]`)."""
        episode = state["shopbench"]
        if "score" not in episode:
            episode["score"] = await asyncio.to_thread(self._score_episode, _recorded(state))
        return dict(episode["score"])

    def _score_episode(self, trajectory: Trajectory) -> dict[str, Any]:
        from evaluators.results.shoppingbench.scorer import last_recommendation, score_many

        start = trajectory.start
        [result] = score_many([(self._task(start.task_set, start.task_id), last_recommendation(trajectory),
                                start.episode_id, start.epoch)], self.world.products, self.embedder)
        return {"ASR": float(result.success), "CAR": float(result.rule), "exact_id": float(result.exact_id),
                "failure": result.failure, "fields": {name: getattr(result, name) for name in SHOPPING_FIELDS}}

    def _field(self, name: str) -> Callable[[vf.State], Awaitable[float]]:
        async def read(state: vf.State) -> float:
            return float((await self.score(state))[name])

        return read

    async def _tool_reward(self, state: vf.State) -> float:
        """The mean over the rollout's turns of the paper's step reward against the oracle's move at that step."""
        episode = state["shopbench"]
        reference = oracle_reference(self._task(episode["task_set"], episode["task_id"]))
        rewards = [
            step_reward([(name, arguments) for name, arguments in turn["calls"]],
                        reference[turn["steps_before"]:turn["steps_before"] + 1],
                        well_formed=turn["well_formed"]).total
            for turn in episode["turns"]
        ]
        return sum(rewards) / len(rewards) if rewards else 0.0


class QuestionRubric(vf.Rubric):
    """The item's value of the benchmark's primary metric for the submitted answer (0 when none was submitted)."""

    def __init__(self, spec: BenchmarkSpec, items: str | None, prompting: str) -> None:
        super().__init__()
        from evaluators.results.questions import QAScorer

        self.questions = QAScorer(spec).questions
        self.loaded = self.questions.load(items)
        self.prompting = prompting
        self.add_reward_func(_named(spec.primary_metric, self._item_value), weight=1.0)

    async def _item_value(self, state: vf.State) -> float:
        end = _recorded(state).end
        if end is None or end.status != "submitted":
            return 0.0
        item_id = state["shopbench"]["task_id"]
        scores, _ = await asyncio.to_thread(self.questions.score, self.loaded, {item_id: end.answer or ""},
                                            self.prompting, ScoreOptions())
        item = scores.get(item_id)
        return 0.0 if item is None or item.score is None else float(item.score)
