"""shopbench's scorers as Inspect scorers: each sample's episode is read back from the run folder and scored by the
same code `shopbench score` runs, so the numbers in the `.eval` log are shopbench's.

ShoppingBench: the sample's value is {"ASR": success, "CAR": rule score, "exact_id"}; the per-field values (title,
price, service, sku_attrs, shop, budget, kw) and the failure category go in the score's metadata. The metrics
`asr()` and `car()` average as `shopbench score` does: epochs within a task (Inspect's epoch reducer), tasks within
an intent, then the intents unweighted.

Question benchmarks: the sample's value is the item's metric (the reference parser and metric of the benchmark);
`qa_summary()` aggregates all answers with the benchmark's own summary (overall, per task), as `shopbench score`
does.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path
from typing import Any

import anyio.to_thread
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from evaluators.integrations.inspect.solvers import STORE_EPISODE, STORE_RUN
from mcp_server.trajectory import Trajectory, episode_path, read_trajectory

FIELDS = ("title", "price", "service", "sku_attrs", "shop", "budget", "kw")


def _trajectory(state: TaskState) -> Trajectory:
    episode_id = state.store.get(STORE_EPISODE)
    run_dir = state.store.get(STORE_RUN)
    if not episode_id or not run_dir:
        raise ValueError("the sample played no shopbench episode (the solver is not a shopbench solver)")
    return read_trajectory(episode_path(Path(run_dir), episode_id))


def _macro(scores: list[SampleScore], key: str) -> float:
    """Mean per intent (one value per task, epochs already reduced), then the unweighted mean over intents."""
    per_intent: dict[str, list[float]] = defaultdict(list)
    for sample in scores:
        value = sample.score.value
        if isinstance(value, dict) and key in value:
            intent = str((sample.sample_metadata or {}).get("intent"))
            per_intent[intent].append(float(value[key]))
    means = [sum(values) / len(values) for values in per_intent.values() if values]
    return sum(means) / len(means) if means else 0.0


@metric(name="ASR")
def asr() -> Metric:
    """Absolute success rate, averaged as shopbench averages it (tasks within an intent, then intents)."""

    def compute(scores: list[SampleScore]) -> float:
        return _macro(scores, "ASR")

    return compute


@metric(name="CAR")
def car() -> Metric:
    """Cumulative average relevance (the rule score), averaged like ASR."""

    def compute(scores: list[SampleScore]) -> float:
        return _macro(scores, "CAR")

    return compute


@scorer(metrics=[asr(), car()])
def shoppingbench_score(world: Any, embedder: str | None = None) -> Scorer:
    """Score the sample's episode with shopbench's ShoppingBench scorer, in the eval's world."""
    from evaluators.results.shoppingbench.scorer import last_recommendation, score_many

    tasks: dict[tuple[str, str], Any] = {}

    def run(trajectory: Trajectory) -> Any:
        start = trajectory.start
        key = (start.task_set, start.task_id)
        if key not in tasks:
            tasks[key] = next(task for task in world.tasks(start.task_set) if task.task_id == start.task_id)
        [result] = score_many([(tasks[key], last_recommendation(trajectory), start.episode_id, start.epoch)],
                              world.products, embedder)
        return result

    async def score(state: TaskState, target: Target) -> Score:
        trajectory = _trajectory(state)
        result = await anyio.to_thread.run_sync(run, trajectory)
        end = trajectory.end
        return Score(
            value={"ASR": float(result.success), "CAR": result.rule, "exact_id": result.exact_id},
            answer=result.answer or "",
            explanation=result.explanation,
            metadata={
                "episode_id": trajectory.episode_id,
                "run_dir": state.store.get(STORE_RUN),
                "intent": result.intent,
                "end_status": end.status if end is not None else None,
                "failure": result.failure,
                "fields": {name: getattr(result, name) for name in FIELDS},
            },
        )

    return score


@metric
def qa_summary(benchmark: str, items: str | None = None, prompting: str | None = None) -> Metric:
    """The benchmark's own summary over every answered item, as `shopbench score` computes it: "overall" and one
    value per task."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        outputs = {str(s.sample_id): (s.score.metadata or {}).get("output") for s in scores}
        _, summary = _score_outputs(benchmark, items, prompting, {k: v for k, v in outputs.items() if v is not None})
        values = {"overall": summary.get("overall")}
        values.update({f"task:{task}": value for task, value in (summary.get("tasks") or {}).items()})
        return {key: float(value) for key, value in values.items() if value is not None}

    return compute


@functools.cache
def _questions(benchmark: str, items: str | None) -> tuple[Any, list[Any]]:
    from benchmarks.registry import get_benchmark
    from evaluators.results.questions import QAScorer

    qa = QAScorer(get_benchmark(benchmark))
    return qa, qa.questions.load(items)


def _score_outputs(benchmark: str, items: str | None, prompting: str | None,
                   outputs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    from evaluators.results.scoring import ScoreOptions

    qa, loaded = _questions(benchmark, items)
    chosen = prompting or qa.questions.promptings[0]
    return qa.questions.score(loaded, outputs, chosen, ScoreOptions())


def qa_score(benchmark: str, items: str | None = None, prompting: str | None = None) -> Scorer:
    """Score the answer recorded in the sample's episode with the benchmark's reference parser and metric."""

    @scorer(metrics=[qa_summary(benchmark, items, prompting)], name=f"{benchmark}_score")
    def make() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            trajectory = _trajectory(state)
            end = trajectory.end
            output = end.answer if end is not None and end.status == "submitted" else None
            if output is None:
                return Score(value=0.0, answer="", explanation="no answer was submitted",
                             metadata={"episode_id": trajectory.episode_id, "output": None})
            item_id = trajectory.start.task_id
            scores, _ = await anyio.to_thread.run_sync(
                lambda: _score_outputs(benchmark, items, prompting, {item_id: output}))
            item = scores.get(item_id)
            value = 0.0 if item is None or item.score is None else float(item.score)
            return Score(
                value=value,
                answer=str(item.parsed) if item is not None else "",
                explanation=None if item is None else f"task {item.task}" + (" (excluded)" if item.excluded else ""),
                metadata={"episode_id": trajectory.episode_id, "run_dir": state.store.get(STORE_RUN),
                          "output": output, "task": item.task if item else None,
                          "item": item.report() if item else None},
            )

        return score

    return make()
