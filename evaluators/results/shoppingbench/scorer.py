"""Scoring whole ShoppingBench runs and bare prediction files, and summarising them per intent.

A run directory is scored from its trajectories: each finished episode's last recommend_product string is scored
against the task it names (task set and id from the start event), in the world the run used. Unfinished or unreadable
episode files are listed in the result, never fatal. Every rate carries a bootstrap interval; runs with several
epochs add pass^k; failure categories and App. F trajectory statistics come with each intent.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, Field, ValidationError

from benchmarks.errors import BadInput
from benchmarks.jsonl import DataFileError, _short, json_type, read_jsonl
from benchmarks.registry import BenchmarkSpec
from benchmarks.shoppingbench.schema import INTENT_LABELS, INTENTS, Intent, Product, ShoppingTask
from benchmarks.shoppingbench.tasks import OFFICIAL_SET, load_official
from evaluators.results.embeddings import REFERENCE_MODEL, embedder_name, load_embedder
from evaluators.results.episodes import read_run_episodes
from evaluators.results.protocol import MetricRow, ScoreOptions
from evaluators.results.shoppingbench.catalog import ProductLookup, load_catalog_products
from evaluators.results.shoppingbench.conversation import (
    CONVERSATION_METRICS,
    ConversationResult,
    SimulatorError,
    conversation_of,
    measure_run,
    profile_seed,
    simulator_error,
)
from evaluators.results.shoppingbench.rules import PREDICTION_FIELDS, ids_to_look_up, score_task, title_pairs
from evaluators.results.shoppingbench.task_score import TaskScore
from evaluators.results.stats import Correlation, Interval, bootstrap_ci, pass_hat_curve, stratified_bootstrap_ci
from evaluators.results.trajectory_stats import STATISTICS, TrajectoryStats, correlations, trajectory_stats
from mcp_server.trajectory import AgentInfo, Trajectory, read_manifest

BENCHMARK: Final = "shoppingbench"
SUMMARY_FIELDS = ("title", "price", "service", "sku_attrs", "shop", "budget", "kw")


class IntentSummary(BaseModel):
    """One intent's numbers: rates with intervals, per-field means, pass^k, failures, App. F correlations."""

    intent: Intent
    label: str
    episodes: int
    tasks: int
    asr: Interval
    car: Interval
    exact_id: Interval
    fields: dict[str, float | None]
    pass_k: dict[int, float | None] = Field(default_factory=dict)
    failures: dict[str, int] = Field(default_factory=dict)
    statistics: dict[str, float | None] = Field(default_factory=dict)
    """Mean of each App. F statistic over the intent's episodes."""
    correlations: dict[str, Correlation] = Field(default_factory=dict)
    """Pearson r of each App. F statistic with success."""


class ShoppingBenchResult(BaseModel):
    """A scored run (or prediction file): every task score and the per-intent summaries."""

    benchmark: Literal["shoppingbench"] = BENCHMARK
    primary_metric: str = "ASR"
    source: Literal["run", "predictions"] = "run"
    run_dir: str | None = None
    run_id: str | None = None
    agent: AgentInfo | None = None
    world: str | None = None
    embedder: str
    reference_embedder: str = REFERENCE_MODEL
    epochs: int = 1
    """The most epochs one task was played in (pass^k is given up to the most tries of one task), counted, not read
    from the epoch numbers: an episode recorded as epoch 10^9 is one epoch."""
    scores: list[TaskScore]
    stats: dict[str, TrajectoryStats] = Field(default_factory=dict)
    """Episode id → App. F statistics (runs only)."""
    intents: list[IntentSummary]
    overall_asr: Interval
    """Unweighted mean over intents, as the paper averages (interval resampled within each intent)."""
    overall_car: Interval
    end_status: dict[str, int] = Field(default_factory=dict)
    unfinished: list[str] = Field(default_factory=list)
    """Episodes with no end event (crashed or still running): not scored."""
    unreadable: list[str] = Field(default_factory=list)
    """Episode files that could not be read, one line each ("FILE:LINE: problem"): not scored."""
    episode_files: int = 0
    """How many episode files the run folder holds (0 for predictions)."""
    problems: list[str] = Field(default_factory=list)
    """What could not be scored (other benchmarks, unknown tasks) or may be scored wrongly (another world)."""
    conversation: ConversationResult | None = Field(None, exclude_if=lambda v: v is None)
    """Conversational runs only (a `user` in the manifest): what the agent asked and uncovered, and the episodes
    left unscored for a simulator error (evaluators.results.shoppingbench.conversation). Absent otherwise, so the
    JSON of every other run is as before."""

    def metric_rows(self) -> list[MetricRow]:
        rows = []
        for summary in self.intents:
            for metric, interval in (("ASR", summary.asr), ("CAR", summary.car), ("exact-id", summary.exact_id)):
                rows.append(_row(summary.intent, metric, interval))
        rows.append(_row("overall", "ASR", self.overall_asr))
        rows.append(_row("overall", "CAR", self.overall_car))
        return rows + self.conversation_rows()

    def conversation_rows(self) -> list[MetricRow]:
        """Each conversational metric per intent (bootstrapped over tasks, epochs averaged within a task) and
        overall (the unweighted mean over intents, as ASR's); none for a run without a user."""
        if self.conversation is None:
            return []
        rows = []
        for metric in CONVERSATION_METRICS:
            per_intent = []
            for summary in self.intents:
                by_task: dict[str, list[float]] = defaultdict(list)
                for episode in self.conversation.episodes:
                    value = episode.value(metric)
                    if episode.intent == summary.intent and value is not None:
                        by_task[episode.task_id].append(value)
                values = [sum(found) / len(found) for found in by_task.values()]
                per_intent.append(values)
                rows.append(_row(summary.intent, metric, bootstrap_ci(values)))
            rows.append(_row("overall", metric, stratified_bootstrap_ci(per_intent)))
        return rows

    def episode_success(self) -> dict[str, bool]:
        return {s.episode_id: s.success for s in self.scores if s.episode_id is not None}

    def to_json(self) -> dict[str, Any]:
        if self.source == "predictions":
            return {"predictions": [prediction_entry(s) for s in self.scores]}
        return self.model_dump(mode="json")

    def tokens(self) -> dict[str, float | None]:
        """Totals over the scored episodes: input/output tokens and cost (None where no agent reported them)."""
        totals: dict[str, float | None] = {}
        for name in ("input_tokens", "output_tokens", "cost_usd"):
            known = [getattr(s, name) for s in self.stats.values() if getattr(s, name) is not None]
            totals[name] = float(sum(known)) if known else None
        return totals


def _row(group: str, metric: str, interval: Interval) -> MetricRow:
    return MetricRow(group=group, metric=metric, value=interval.value, low=interval.low, high=interval.high,
                     n=interval.n)


def prediction_entry(score: TaskScore) -> dict[str, Any]:
    """One entry of the `--predictions` OUT file: intent, task_index, the score fields (null where they do not
    apply to the intent), success."""
    entry: dict[str, Any] = {"intent": score.intent, "task_index": score.task_index}
    entry.update({name: getattr(score, name) for name in PREDICTION_FIELDS})
    entry["success"] = score.success
    return entry


def summarize(
    scores: list[TaskScore],
    *,
    embedder: str,
    stats: Mapping[str, TrajectoryStats] | None = None,
    **details: Any,
) -> ShoppingBenchResult:
    """Per-intent rates (bootstrapped over tasks, epochs averaged within a task), pass^k, failures, statistics."""
    stats = dict(stats or {})
    summaries = []
    per_intent_success: list[list[float]] = []
    per_intent_rule: list[list[float]] = []
    played: dict[str, set[int]] = defaultdict(set)
    for score in scores:
        played[score.task_id].add(score.epoch)
    epochs = max(map(len, played.values()), default=1)
    for intent in INTENTS:
        mine = [s for s in scores if s.intent == intent]
        if not mine:
            continue
        by_task: dict[str, list[TaskScore]] = defaultdict(list)
        for score in mine:
            by_task[score.task_id].append(score)
        success = [sum(s.value for s in group) / len(group) for group in by_task.values()]
        rule = [sum(s.rule for s in group) / len(group) for group in by_task.values()]
        exact = [sum(s.exact_id >= 1 for s in group) / len(group) for group in by_task.values()]
        per_intent_success.append(success)
        per_intent_rule.append(rule)
        episode_stats = [stats[s.episode_id] for s in mine if s.episode_id in stats]
        episode_success = [s.success for s in mine if s.episode_id in stats]
        trials = [(len(group), sum(s.success for s in group)) for group in by_task.values()]
        summaries.append(IntentSummary(
            intent=intent,
            label=INTENT_LABELS[intent],
            episodes=len(mine),
            tasks=len(by_task),
            asr=bootstrap_ci(success),
            car=bootstrap_ci(rule),
            exact_id=bootstrap_ci(exact),
            fields={name: _mean(getattr(s, name) for s in mine) for name in SUMMARY_FIELDS},
            pass_k=pass_hat_curve(trials) if epochs > 1 else {},
            failures={c: n for c, n in Counter(s.failure for s in mine if s.failure).items()},
            statistics={name: _mean(getattr(st, name) for st in episode_stats) for name in STATISTICS},
            correlations=correlations(episode_stats, episode_success) if episode_stats else {},
        ))
    return ShoppingBenchResult(
        embedder=embedder,
        epochs=epochs,
        scores=scores,
        stats=stats,
        intents=summaries,
        overall_asr=stratified_bootstrap_ci(per_intent_success),
        overall_car=stratified_bootstrap_ci(per_intent_rule),
        **details,
    )


def _mean(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


class _LazySimilarity:
    """Loads the embedder only when a title must be compared (an all-exact run, like the oracle's, never does)."""

    def __init__(self, model: str | None) -> None:
        self.model = model

    def warm(self, pairs: list[tuple[str, str]]) -> None:
        if pairs:
            load_embedder(self.model).similarities(pairs)

    def __call__(self, a: str, b: str) -> float:
        return load_embedder(self.model).cosine(a, b)


def score_many(
    jobs: Sequence[tuple[ShoppingTask, str | None, str | None, int]],
    lookup: ProductLookup,
    embedder: str | None,
) -> list[TaskScore]:
    """Score (task, recommended, episode_id, epoch) jobs: look every id up in one call, embed every title pair in one
    batch, then apply the rules."""
    wanted = set().union(*(ids_to_look_up(task, rec) for task, rec, _, _ in jobs)) if jobs else set()
    products: Mapping[str, Product] = lookup.get(sorted(wanted)) if wanted else {}
    similarity = _LazySimilarity(embedder)
    similarity.warm([pair for task, rec, _, _ in jobs for pair in title_pairs(task, rec, products)])
    return [score_task(task, rec, products, similarity, episode_id=episode, epoch=epoch)
            for task, rec, episode, epoch in jobs]


def last_recommendation(trajectory: Trajectory) -> str | None:
    """The product_ids of the LAST recommend_product call, exactly as passed (the reference reads the arguments of
    every call, failed ones included; a non-string argument counts as ""). Falls back to the end event's record."""
    for step in reversed(trajectory.steps):
        if step.tool == "recommend_product":
            value = step.arguments.get("product_ids", "")
            return value if isinstance(value, str) else ""
    return trajectory.end.recommended if trajectory.end is not None else None


def score_trajectories(
    run_dir: Path,
    tasks_for: Callable[[str], list[ShoppingTask]],
    lookup: ProductLookup,
    embedder: str | None = None,
    *,
    world_hash: str | None = None,
    agent: str | None = None,
    **details: Any,
) -> ShoppingBenchResult:
    """Score every finished ShoppingBench episode of a run directory; `tasks_for(task_set)` supplies the tasks.
    With `world_hash`, episodes whose start event names another world are flagged (their scores may be wrong).
    A folder of several agents is refused unless `agent` picks one (evaluators.results.episodes)."""
    manifest = read_manifest(run_dir)
    episodes = read_run_episodes(run_dir, manifest, agent)
    conversation = conversation_of(manifest.parameters)
    played: dict[str, tuple[Trajectory, ShoppingTask]] = {}
    jobs, stats, unfinished, problems = [], {}, [], []
    end_status: Counter[str] = Counter()
    task_sets: dict[str, dict[str, ShoppingTask]] = {}
    other_worlds: set[str] = set()
    for trajectory in episodes.trajectories:
        start = trajectory.start
        if start.benchmark != BENCHMARK:
            problems.append(f"{start.episode_id}: benchmark {start.benchmark!r}, not {BENCHMARK!r}")
            continue
        if not trajectory.finished:
            unfinished.append(start.episode_id)
            continue
        if start.task_set not in task_sets:
            try:
                task_sets[start.task_set] = {t.task_id: t for t in tasks_for(start.task_set)}
            except (KeyError, ValueError, OSError) as error:
                problems.append(f"task set {start.task_set!r} cannot be loaded: {error}")
                task_sets[start.task_set] = {}
        task = task_sets[start.task_set].get(start.task_id)
        if task is None:
            problems.append(f"{start.episode_id}: task {start.task_id!r} is not in task set {start.task_set!r}")
            continue
        if world_hash and start.world and world_hash not in start.world:
            other_worlds.add(start.world)
        assert trajectory.end is not None
        if conversation is not None:
            if (broke := simulator_error(trajectory)) is not None:
                conversation.simulator_errors.append(SimulatorError(episode_id=start.episode_id,
                                                                    task_id=task.task_id, error=broke))
                continue
            played[start.episode_id] = (trajectory, task)
        end_status[trajectory.end.status] += 1
        jobs.append((task, last_recommendation(trajectory), start.episode_id, start.epoch))
        stats[start.episode_id] = trajectory_stats(trajectory)
    if other_worlds:
        problems.insert(0, f"episodes were played in {', '.join(sorted(other_worlds))}, but scored in the world "
                           f"{world_hash}: pass --world with the run's world")
    scores = score_many(jobs, lookup, embedder)
    if conversation is not None:
        wanted = {t.product_id for _, task in played.values() for t in task.targets}
        wanted |= {i for task, rec, _, _ in jobs for i in ids_to_look_up(task, rec)}
        conversation = measure_run(conversation, played, scores, lookup.get(sorted(wanted)) if wanted else {},
                                   profile_seed(manifest.parameters))
    return summarize(scores, embedder=embedder_name(embedder), stats=stats, run_dir=str(run_dir),
                     end_status=dict(end_status), unfinished=unfinished, problems=problems, agent=episodes.agent,
                     unreadable=episodes.unreadable, episode_files=episodes.files, conversation=conversation,
                     **details)


class Prediction(BaseModel):
    """One line of a `--predictions` file."""

    intent: Intent
    task_index: int
    recommended: str | None


def read_predictions(path: Path) -> list[tuple[int, Prediction]]:
    """Every line of a ShoppingBench predictions file; a bad line or an empty file raises DataFileError naming the
    file and line. A task may be predicted more than once (each line is scored: the OUT file has one entry per line,
    as the reference's)."""
    predictions = []
    for number, record in read_jsonl(path, empty_ok=False):
        if not isinstance(record, dict):
            raise DataFileError(path, number, 'expected an object {"intent", "task_index", "recommended"}, found '
                                f"{json_type(record)}")
        try:
            prediction = Prediction.model_validate(record)
        except ValidationError as error:
            raise DataFileError(path, number, _short(error)) from None
        predictions.append((number, prediction))
    return predictions


class _CatalogLookup:
    def __init__(self, path: Path) -> None:
        self.path = path

    def get(self, ids: Iterable[str]) -> dict[str, Product]:
        return load_catalog_products(self.path, ids)


class ShoppingBenchScorer:
    """ShoppingBench's scorer part (evaluators.parts: the agentic default)."""

    benchmark = BENCHMARK

    def __init__(self, spec: BenchmarkSpec | None = None) -> None:
        """`spec`: the registration it scores for (the parts registry passes it; ShoppingBench's own is implied)."""

    def score_run(self, run_dir: Path, options: ScoreOptions) -> ShoppingBenchResult:
        manifest = read_manifest(run_dir)
        world = open_world(options.world, manifest.world)

        def tasks_for(task_set: str) -> list[ShoppingTask]:
            try:
                return world.tasks(task_set)
            except (KeyError, ValueError, FileNotFoundError):
                if task_set == OFFICIAL_SET:
                    return load_official()
                raise

        return score_trajectories(
            Path(run_dir), tasks_for, world_lookup(world), options.embedder,
            world_hash=world.info.content_hash, agent=options.agent,
            run_id=manifest.run_id, world=_world_label(world),
        )

    def score_predictions(self, predictions: Path, options: ScoreOptions) -> ShoppingBenchResult:
        if options.catalog is None:
            raise BadInput("ShoppingBench predictions need --catalog CATALOG.jsonl (official document format)")
        official: dict[str, list[ShoppingTask]] = defaultdict(list)
        for task in load_official():
            official[task.intent].append(task)
        jobs = []
        for number, prediction in read_predictions(predictions):
            tasks = official[prediction.intent]
            if not 0 <= prediction.task_index < len(tasks):
                raise DataFileError(predictions, number, f"task_index {prediction.task_index} is out of range: the "
                                    f"official {prediction.intent} set has {len(tasks)} tasks (0-based)")
            jobs.append((tasks[prediction.task_index], prediction.recommended, None, 0))
        scores = score_many(jobs, _CatalogLookup(options.catalog), options.embedder)
        return summarize(scores, embedder=embedder_name(options.embedder), source="predictions",
                         run_dir=str(predictions), world=f"catalog {options.catalog}")


def open_world(override: Path | None, recorded: Mapping[str, Any] | None) -> Any:
    """The world to score in: --world if given, else the path the manifest recorded (our runner records it), else
    the default world (runs served by `shopbench serve` record only name and hash; a mismatch is reported)."""
    from mcp_server.shopping.world import World
    from mcp_server.shopping.world_build import default_world

    if override is not None:
        return World.open(override)
    for key in ("path", "root", "dir"):
        value = (recorded or {}).get(key)
        if value and Path(value).is_dir():
            return World.open(Path(value))
    return default_world()


STREAM_CATALOG_UP_TO = 50_000
"""Worlds of at most this many products are looked up by streaming their catalog file (about 9 µs a line: 0.05 s for
the default world's 5,000) rather than through their search index, whose Java runtime takes a second or more to
start (and whose index may not even be built yet); larger worlds use the index. Both parse the same stored record."""


def world_lookup(world: Any) -> ProductLookup:
    """Where scoring finds a world's products (see STREAM_CATALOG_UP_TO)."""
    from mcp_server.shopping.world import CATALOG

    catalog = Path(world.root) / CATALOG
    if world.info.products <= STREAM_CATALOG_UP_TO and catalog.is_file():
        return _CatalogLookup(catalog)
    return world.products


def _world_label(world: Any) -> str:
    """The label episodes record for their world (name@content_hash)."""
    return f"{world.info.name}@{world.info.content_hash}"
