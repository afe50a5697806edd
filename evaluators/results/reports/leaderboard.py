"""The leaderboard: one row per run, ranked by the benchmark's primary metric — what a reader looks for first.

Columns: rank, run, kind and the score it is ranked by first (a narrow terminal shows those), then the primary metric
per group (intent, task; a benchmark with many tasks shows its roll-ups, such as Shopping MMLU's skills), overall when
the run covers its whole task set, pass^k when some run played several epochs, tokens, cost and the model. Runs are
ranked honestly:
- when every run covers its whole task set and all played the same tasks, by their overall;
- otherwise by the primary metric on the tasks every run of the board played (the shared tasks), aggregated as the
  benchmark aggregates its headline, shown in its own column with its interval: an overall over different tasks
  would rank a run that skipped the hard tasks first.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from evaluators.results.reports.compare import TaskOutcome, aggregation
from evaluators.results.reports.tables import (
    ReportTable,
    ScoredRun,
    interval_text,
    usage_count,
    wilson_by_group,
)
from evaluators.results.scoring import MetricRow
from evaluators.results.stats import Interval, bootstrap_ci, pass_hat_k, stratified_bootstrap_ci

MAX_GROUP_COLUMNS = 8
"""More groups than this (Shopping MMLU's 57 tasks) are shown by their roll-ups (skills), or not at all: the per-group
tables of the report hold every group."""


@dataclass
class Standing:
    """One run's row of a leaderboard."""

    run: ScoredRun
    groups: dict[str, MetricRow | Interval]
    overall: MetricRow | None
    shared: Interval
    """What the board ranks by: the primary metric on its shared tasks, or the overall (`ranked_by_overall`)."""
    pass_k: dict[int, float | None]
    rank: int = 0
    """1 for the best; runs with equal scores share a rank."""

    @property
    def key(self) -> float | None:
        return self.shared.value

    @property
    def model(self) -> str:
        """The model spec the run was played with (a baseline's name); "–" for a human."""
        agent = self.run.manifest.agent
        spec = agent.details.get("model") or agent.details.get("spec")
        if spec:
            return str(spec)
        return "–" if self.run.is_human else agent.name


@dataclass
class Leaderboard:
    """The runs of one benchmark, best first."""

    benchmark: str
    metric: str
    groups: list[str]
    standings: list[Standing]
    shared: set[str]
    """The tasks every run of the board played."""
    ranked_by_overall: bool
    """Every run covers its whole task set and all played the same tasks: the overall ranks them."""
    ks: list[int] = field(default_factory=list)
    """The k of pass^k shown (2 .. the most epochs one task was played in); empty with one epoch."""

    @property
    def shared_tasks(self) -> int:
        return len(self.shared)

    @property
    def last_row(self) -> str:
        """What a figure calls the row the board ranks by."""
        return "overall" if self.ranked_by_overall else f"overall, {self.shared_tasks} shared tasks"

    @property
    def runs(self) -> list[ScoredRun]:
        return [standing.run for standing in self.standings]

    def ranking_text(self) -> str:
        if self.ranked_by_overall:
            return f"ranked by overall {self.metric}"
        return f"ranked by {self.metric} on the {self.shared_tasks} tasks every run played"

    def headers(self) -> list[str]:
        """Rank, run, kind and the score it is ranked by first (what a narrow terminal shows), then the groups."""
        score = f"overall {self.metric}" if self.ranked_by_overall else \
            f"{self.metric}, {self.shared_tasks} shared tasks"
        headers = ["#", "run", "kind", score, *self.groups]
        if not self.ranked_by_overall:
            headers.append("overall")
        return [*headers, *(f"pass^{k}" for k in self.ks), "tokens", "cost (USD)", "model"]

    def rows(self, *, compact: bool = False) -> list[list[str]]:
        """The table's cells; `compact` (a terminal's width) writes group values without their intervals, two
        digits, and a partial run's coverage as "k/n"."""
        def rate(value: MetricRow | Interval | None, *, interval: bool = True) -> str:
            if not compact:
                return interval_text(value)
            if value is None or value.value is None:
                return "–"
            if not interval or value.low is None or value.high is None:
                return f"{value.value:.2f}"
            return f"{value.value:.2f} [{value.low:.2f}, {value.high:.2f}]"

        rows = []
        for standing in self.standings:
            run = standing.run
            cells = [str(standing.rank), run.label, run.kind, rate(standing.shared)]
            cells += [rate(standing.groups.get(group), interval=not compact) for group in self.groups]
            coverage = run.coverage
            if not self.ranked_by_overall:  # the score is not the overall: the overall has its own column
                cells.append(rate(standing.overall) if standing.overall is not None else "–" if coverage is None
                             else f"partial {coverage.played}/{coverage.total}" if compact else coverage.text())
            cells += ["–" if standing.pass_k.get(k) is None else f"{standing.pass_k[k]:.3f}" for k in self.ks]
            usage = run.usage
            tokens = None if usage["input_tokens"] is None and usage["output_tokens"] is None else \
                (usage["input_tokens"] or 0) + (usage["output_tokens"] or 0)
            cells += [usage_count(tokens), "–" if usage["cost_usd"] is None else f"{usage['cost_usd']:.4f}",
                      standing.model]
            rows.append(cells)
        return rows

    def table(self) -> ReportTable:
        note = (f"{self.ranking_text()}; value [95% interval] (Wilson for one binary outcome per task, else bootstrap "
                "over tasks). overall only for a run that covers its whole task set.")
        if self.ks:
            note += " pass^k: the chance that k tries of a task all succeed (tau-bench), over each run's own tasks."
        return ReportTable(f"Leaderboard · {self.benchmark} · {self.metric}", self.headers(), self.rows(), note,
                           css_class="leaderboard", row_classes=[f"kind-{run.kind}" for run in self.runs])


def leaderboards(runs: list[ScoredRun]) -> list[Leaderboard]:
    """One leaderboard per benchmark, in the order the benchmarks first appear."""
    boards = []
    for benchmark in dict.fromkeys(run.result.benchmark for run in runs):
        boards.append(leaderboard([run for run in runs if run.result.benchmark == benchmark]))
    return boards


def leaderboard(runs: list[ScoredRun]) -> Leaderboard:
    """The leaderboard of runs of one benchmark (their coverage assessed first: `assess_coverage`)."""
    benchmark = runs[0].result.benchmark
    metric = runs[0].result.primary_metric
    shared = set.intersection(*(set(run.task_outcomes(metric)) for run in runs))
    complete = all(run.coverage is None or run.coverage.complete for run in runs)  # None: not assessed
    same_tasks = all(set(run.task_outcomes(metric)) == shared for run in runs)
    groups = board_groups(runs, metric)
    ranked_by_overall = complete and same_tasks
    standings = []
    for run in runs:
        rows = {row.group: row for row in run.metric_rows() if row.metric == metric}
        intervals = wilson_by_group(run, metric)
        covered = run.coverage is None or run.coverage.complete
        overall = rows.get("overall") if covered else None
        if ranked_by_overall and overall is not None and overall.value is not None:
            score = Interval(value=overall.value, low=overall.low, high=overall.high, n=overall.n)
        else:
            score = shared_score(run, metric, shared)
        standings.append(Standing(
            run=run,
            groups={group: intervals.get(group) or rows[group] for group in groups if group in rows},
            overall=overall,
            shared=score,
            pass_k=pass_k(run.task_outcomes(metric), run, metric),
        ))
    standings.sort(key=lambda s: (s.key is None, -(s.key or 0.0)))
    for standing in standings:  # ties share a rank (1, 1, 3): equal scores are not ordered by the sort's accident
        standing.rank = 1 + sum(1 for other in standings if other.key is not None
                                and (standing.key is None or other.key > standing.key))
    most = max((run.epochs for run in runs), default=1)
    return Leaderboard(benchmark, metric, groups, standings, shared, ranked_by_overall,
                       list(range(2, most + 1)) if most > 1 else [])


def board_groups(runs: list[ScoredRun], metric: str) -> list[str]:
    """The group columns: the plain groups (intents, tasks) when they are few, else the roll-ups ("skill:…")."""
    found = [row.group for run in runs for row in run.metric_rows() if row.metric == metric]
    plain = list(dict.fromkeys(g for g in found if g != "overall" and ":" not in g))
    if len(plain) <= MAX_GROUP_COLUMNS:
        return plain
    rollups = list(dict.fromkeys(g for g in found if ":" in g))
    return rollups if len(rollups) <= MAX_GROUP_COLUMNS else []


def shared_score(run: ScoredRun, metric: str, shared: set[str]) -> Interval:
    """The run's `metric` on the shared tasks, aggregated as the benchmark's headline is (mean of group means, or
    pooled); bootstrapped once per run, metric and set of tasks (each figure builds its benchmark's board again)."""
    key = (metric, frozenset(shared))
    if key not in run._shared_scores:
        run._shared_scores[key] = _shared_score(run.task_outcomes(metric), shared, run.result.benchmark)
    return run._shared_scores[key]


def _shared_score(tasks: dict[str, TaskOutcome], shared: set[str], benchmark: str) -> Interval:
    if aggregation(benchmark) == "pooled":
        return bootstrap_ci([tasks[t].mean for t in sorted(shared)])
    by_group: dict[str, list[float]] = defaultdict(list)
    for task in sorted(shared):
        by_group[tasks[task].group].append(tasks[task].mean)
    return stratified_bootstrap_ci([by_group[g] for g in sorted(by_group)])


def pass_k(tasks: dict[str, TaskOutcome], run: ScoredRun, metric: str) -> dict[int, float | None]:
    """pass^k for k = 2 .. the run's epochs, from its binary outcomes (none for a non-binary metric), aggregated as the
    benchmark's headline: the mean over groups of each group's pass^k, or pooled over tasks."""
    if run.epochs < 2:
        return {}
    trials: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for task, successes in run.successes(metric).items():
        trials[tasks[task].group].append(successes)
    if not trials:
        return {}
    found: dict[int, float | None] = {}
    for k in range(2, run.epochs + 1):
        if aggregation(run.result.benchmark) == "pooled":
            found[k] = pass_hat_k([t for group in trials.values() for t in group], k)
            continue
        per_group = [value for group in trials.values() if (value := pass_hat_k(group, k)) is not None]
        found[k] = sum(per_group) / len(per_group) if per_group else None
    return found
