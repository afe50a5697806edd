"""The Scorer of the question benchmarks (evaluators.results.scoring protocol): a run directory or bare predictions.

Predictions (`shopbench score --benchmark NAME --items ITEMS --predictions PREDS.jsonl`) are lines
{"id": ..., "output": "<raw model text>"} — for IntentionQA CoT-SC, "output" may be the list of samples. Run
directories are read from their trajectories: each QA episode's end event carries the raw answer. Only answered
items are scored; the report says how many were not (a run with --limit is not penalised for the rest).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.errors import BadInput
from benchmarks.qa import ItemScore, QuestionBenchmark, check_prompting, items_path
from benchmarks.registry import BenchmarkSpec
from evaluators.results.episodes import read_run_episodes
from evaluators.results.predictions import read_qa_predictions
from evaluators.results.protocol import MetricRow, ScoreOptions
from evaluators.results.stats import bootstrap_ci
from mcp_server.trajectory import Trajectory, read_manifest


@dataclass
class QAScoreResult:
    """A scored QA run or prediction file; `to_json()` is the documented OUT format."""

    benchmark: str
    prompting: str
    scores: dict[str, ItemScore]
    summary: dict[str, Any]
    primary_metric: str
    episodes: dict[str, str] = field(default_factory=dict)
    """item id → episode id (run directories only)."""
    not_scored: dict[str, int] = field(default_factory=dict)
    """Why some episodes or items did not count: unfinished, abandoned, failed calls, unanswered items."""
    unreadable: list[str] = field(default_factory=list)
    """Episode files that could not be read, one line each ("FILE:LINE: problem"): not scored."""
    episode_files: int = 0
    """How many episode files the run folder holds (0 for predictions)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark,
            "prompting": self.prompting,
            "items": {item_id: score.report() for item_id, score in self.scores.items()},
            **{key: value for key, value in self.summary.items()},
            "not_scored": self.not_scored,
            "unreadable": self.unreadable,
        }

    def metric_rows(self) -> list[MetricRow]:
        per_task: dict[str, list[float]] = {}
        for score in self.scores.values():
            if score.score is not None and not score.excluded:
                per_task.setdefault(score.task, []).append(score.score)
        rows = []
        for task, value in self.summary.get("tasks", {}).items():
            values = per_task.get(task, [])
            interval = bootstrap_ci(values) if values else None
            low, high = (interval.low, interval.high) if interval and values and len(values) > 1 else (None, None)
            rows.append(MetricRow(group=task, metric=self.primary_metric, value=value, low=low, high=high,
                                  n=len(values)))
        for skill, value in self.summary.get("skills", {}).items():
            rows.append(MetricRow(group=f"skill:{skill}", metric=self.primary_metric, value=value))
        for level, value in self.summary.get("difficulty", {}).items():
            rows.append(MetricRow(group=f"difficulty:{level}", metric=self.primary_metric, value=value,
                                  n=self.summary.get("difficulty_counts", {}).get(level, 0)))
        for task, value in self.summary.get("macro_f1", {}).items():
            rows.append(MetricRow(group=task, metric="macro-F1", value=value))
        rows.append(MetricRow(group="overall", metric=self.primary_metric, value=self.summary.get("overall"),
                              n=len(self.scores)))
        return rows

    def episode_success(self) -> dict[str, bool]:
        return {
            episode: (self.scores[item].score or 0.0) >= 1.0
            for item, episode in self.episodes.items()
            if item in self.scores
        }


class QAScorer:
    """Scores any registered question benchmark: the benchmark scores the raw outputs (`QuestionBenchmark.score`),
    this reads them from run folders or prediction files and makes the result."""

    def __init__(self, spec: BenchmarkSpec) -> None:
        self.spec = spec
        self.questions: QuestionBenchmark[Any] = spec.questions()
        self.benchmark = spec.name

    def score_predictions(self, predictions: Path, options: ScoreOptions) -> QAScoreResult:
        items = self.questions.load(options.items)
        known = {self.questions.item_id(item) for item in items}
        outputs: dict[str, Any] = dict(read_qa_predictions(predictions, known))
        prompting = options.prompting or self.questions.promptings[0]
        return self._score(items, outputs, prompting, options, {"unanswered": len(known - set(outputs))})

    def score_run(self, run_dir: Path, options: ScoreOptions) -> QAScoreResult:
        manifest = read_manifest(run_dir)
        episodes = read_run_episodes(run_dir, manifest, options.agent)
        latest: dict[str, Trajectory] = {}
        not_scored = {"unfinished": 0, "unreadable": len(episodes.unreadable), "no_answer": 0}
        task_sets: set[str] = set()
        for trajectory in episodes.trajectories:
            if trajectory.start.benchmark != self.benchmark:
                continue
            task_sets.add(trajectory.start.task_set)
            if trajectory.end is None:
                not_scored["unfinished"] += 1
                continue
            previous = latest.get(trajectory.start.task_id)
            if previous is None or previous.start.started_at <= trajectory.start.started_at:
                latest[trajectory.start.task_id] = trajectory
        items_file = options.items or _single(task_sets, self.questions)
        items = self.questions.load(items_file)
        outputs: dict[str, Any] = {}
        for item_id, trajectory in latest.items():
            end = trajectory.end
            assert end is not None
            if end.status == "submitted":
                outputs[item_id] = end.answer or ""
            elif end.status == "error":
                outputs[item_id] = None  # a failed model call: IntentionQA excludes it and reports the rate
            else:
                not_scored["no_answer"] += 1
        prompting = options.prompting or manifest.parameters.get("prompting") or self.questions.promptings[0]
        result = self._score(items, outputs, prompting, options, not_scored)
        result.episodes = {item_id: t.episode_id for item_id, t in latest.items()}
        result.unreadable, result.episode_files = episodes.unreadable, episodes.files
        return result

    def _score(
        self, items: list[Any], outputs: dict[str, Any], prompting: str, options: ScoreOptions,
        not_scored: dict[str, int],
    ) -> QAScoreResult:
        check_prompting(self.questions, prompting)
        failed = sum(1 for output in outputs.values() if output is None)
        if failed and not self.spec.scores_failed_calls:
            not_scored["failed_calls"] = failed
        scores, summary = self.questions.score(items, outputs, prompting, options)
        return QAScoreResult(self.benchmark, prompting, scores, summary, self.spec.primary_metric,
                             not_scored=not_scored)


def _single(task_sets: set[str], questions: QuestionBenchmark[Any]) -> Path | None:
    if len(task_sets) > 1:
        raise BadInput(f"the run holds {questions.name} episodes of several item sets ({sorted(task_sets)}); "
                         "score them with --items")
    return items_path(questions, next(iter(task_sets), None))
