"""Comparison tables across scored runs, as plain data that Markdown and HTML both render.

Tables are built from each result's `metric_rows()` (the registry's common shape), so any benchmark's runs can be
compared. They are written so they cannot mislead:
- every row has its own n, and one row per (group, run): runs with different n never share a row;
- runs are grouped by agent kind (model, mcp-client, human, baseline), so a baseline is never read as a model;
- an "overall" is printed only for a run that covers its whole task set; otherwise it reads "partial: k of n";
- binary rates carry a Wilson interval next to the bootstrap one (the bootstrap collapses to a point at 0/n, n/n);
- Shopping MMLU rows name the metric each task uses, and the overall says how it is aggregated;
- tokens and cost sit next to model latency and wall time.
"""

from __future__ import annotations

import html
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.registry import OVERALL_AS_SCORED
from evaluators.results.reports.compare import Comparison, TaskOutcome, aggregation, item_metrics, outcomes, per_task
from evaluators.results.reports.console import interval_text
from evaluators.results.reports.conversation import (
    CONVERSATION_HEADERS,
    CONVERSATION_LEGEND,
    conversation_rows,
    simulator_error_text,
)
from evaluators.results.reports.readers import reader_for
from evaluators.results.reports.reading import Outcome, registered
from evaluators.results.run_names import run_kind
from evaluators.results.scoring import MetricRow, ScoreResult
from evaluators.results.shoppingbench.failure import CATEGORIES
from evaluators.results.stats import Interval, wilson_ci
from evaluators.results.trajectory_stats import trajectory_stats
from mcp_server.trajectory import RunManifest, iter_episode_files, read_trajectory

if TYPE_CHECKING:
    from evaluators.results.reports.audit import AuditResult

KIND_ORDER = ("model", "mcp-client", "human", "baseline")
KIND_PLURAL = {"model": "models", "mcp-client": "MCP clients", "human": "humans", "baseline": "baselines"}


@dataclass
class Coverage:
    """Which tasks of its task set a run scored."""

    played: int
    total: int
    unfinished: int = 0
    source: str = ""
    """Where `total` comes from: the task set, or the union of the runs reported together."""

    @property
    def complete(self) -> bool:
        return self.played >= self.total and not self.unfinished

    def text(self) -> str:
        if self.complete:
            return f"complete: {self.played} of {self.total} tasks"
        text = f"partial: {self.played} of {self.total} tasks"
        return text + (f", {self.unfinished} unfinished episode(s)" if self.unfinished else "")


@dataclass
class ScoredRun:
    """One run of a report: where it is, who played it, and its score."""

    run_dir: Path
    manifest: RunManifest
    result: ScoreResult
    label: str = ""
    coverage: Coverage | None = None
    """Filled by `assess_coverage` (relative to the other runs of the report and the task set)."""
    _task_outcomes: dict[str, dict[str, TaskOutcome]] = field(default_factory=dict, init=False, repr=False,
                                                              compare=False)
    _wilson: dict[str, dict[str, Interval]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _metric_rows: list[MetricRow] | None = field(default=None, init=False, repr=False, compare=False)
    _shared_scores: dict[tuple[str, frozenset[str]], Interval] = field(default_factory=dict, init=False,
                                                                      repr=False, compare=False)

    def metric_rows(self) -> list[MetricRow]:
        """`result.metric_rows()`, worked out once: every board, figure and table of a report reads them (a question
        benchmark's result bootstraps each task's interval on every call)."""
        if self._metric_rows is None:
            self._metric_rows = self.result.metric_rows()
        return self._metric_rows

    def task_outcomes(self, metric: str) -> dict[str, TaskOutcome]:
        """`per_task(outcomes(result, metric))`, worked out once per metric: the tables and plots of a report all
        read it. Raises ValueError, as `outcomes` does, for a metric without per-task outcomes."""
        if metric not in self._task_outcomes:
            self._task_outcomes[metric] = per_task(outcomes(self.result, metric))
        return self._task_outcomes[metric]

    @property
    def kind(self) -> str:
        """model, mcp-client, human or baseline, as shown (an agent driven by a baseline is a baseline)."""
        return run_kind(self.manifest.agent)

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @cached_property
    def audit(self) -> AuditResult | None:
        return reader_for(self.result).audit(self.run_dir, self.result)

    def task_keys(self) -> set[str]:
        """The tasks (ShoppingBench task ids, QA item ids) this run has a score for."""
        return reader_for(self.result).task_keys(self.result)

    @property
    def task_set(self) -> str | None:
        """The task set the episodes played (as their scores name it, when they name one; else the manifest's)."""
        return reader_for(self.result).task_set(self.result) or self.manifest.task_set

    @property
    def epochs(self) -> int:
        """The most episodes one task of the primary metric was played in."""
        tasks = self.task_outcomes(self.result.primary_metric)
        return max((outcome.epochs for outcome in tasks.values()), default=1)

    def successes(self, metric: str) -> dict[str, tuple[int, int]]:
        """Task → (tries, successes) for tasks whose every episode has a binary outcome (what pass^k counts)."""
        by_task: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in outcomes(self.result, metric):
            by_task[outcome.task].append(outcome)
        return {task: (len(found), int(sum(o.value for o in found))) for task, found in by_task.items()
                if all(o.binary for o in found)}

    @cached_property
    def usage(self) -> dict[str, Any]:
        """Tokens, cost, latency, wall time and steps over the run's finished episodes (`usage_totals`)."""
        return usage_totals(self.run_dir)

    def unfinished(self) -> int:
        unfinished = getattr(self.result, "unfinished", None)
        if unfinished is not None:
            return len(unfinished)
        return int(getattr(self.result, "not_scored", {}).get("unfinished", 0))


def kind_order(runs: list[ScoredRun]) -> list[ScoredRun]:
    """Runs grouped by agent kind (models first, baselines last), keeping the given order within a kind."""
    return sorted(runs, key=lambda run: KIND_ORDER.index(run.kind) if run.kind in KIND_ORDER else len(KIND_ORDER))


def task_set_size(run: ScoredRun) -> int | None:
    """How many tasks the run's task set holds (None when it cannot be loaded here)."""
    try:
        return reader_for(run.result).task_set_size(run.result, run.manifest, run.task_set)
    except Exception:  # noqa: BLE001 - a size we cannot learn falls back to the runs' union
        return None


def assess_coverage(runs: list[ScoredRun], sizes: dict[tuple[str, str | None], int | None] | None = None) -> None:
    """Set each run's coverage: played tasks of the task set (or, when its size is unknown, of the union of the
    tasks the reported runs of that benchmark and task set played)."""
    groups: dict[tuple[str, str | None], list[ScoredRun]] = defaultdict(list)
    for run in runs:
        groups[(run.result.benchmark, run.task_set)].append(run)
    for key, members in groups.items():
        union = set().union(*(run.task_keys() for run in members))
        size = sizes[key] if sizes is not None and key in sizes else task_set_size(members[0])
        for run in members:
            played = len(run.task_keys())
            if size is not None and size >= len(union):
                run.coverage = Coverage(played, size, run.unfinished(), "task set")
            else:
                run.coverage = Coverage(played, len(union), run.unfinished(), "runs reported together")


@dataclass
class ReportTable:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""
    css_class: str = ""
    """The HTML table's class (the leaderboard's: "leaderboard")."""
    row_classes: list[str] = field(default_factory=list)
    """Each HTML row's class (the leaderboard's: "kind-human", ..., so kinds read apart)."""

    def markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        lines.append("| " + " | ".join(self.headers) + " |")
        lines.append("|" + "|".join("---" for _ in self.headers) + "|")
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in self.rows]
        if self.note:
            lines += ["", self.note]
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers)
        classes = self.row_classes or [""] * len(self.rows)
        body = "".join((f"<tr class='{html.escape(css)}'>" if css else "<tr>")
                       + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                       for row, css in zip(self.rows, classes, strict=True))
        note = f"<p class='note'>{html.escape(self.note)}</p>" if self.note else ""
        table_class = f" class='{html.escape(self.css_class)}'" if self.css_class else ""
        table = (f"<div class='wide'><table{table_class}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                 "</div>")
        return f"<h3>{html.escape(self.title)}</h3>{table}{note}"


def runs_table(runs: list[ScoredRun]) -> ReportTable:
    table = ReportTable("Runs (grouped by agent kind)", ["kind", "run", "benchmark", "agent", "run id", "tasks scored",
                                                          "coverage", "grader audit", "notes"],
                        note="Grader audit (beyond the reference, scores unchanged): successful episodes that "
                             "recommend an id the agent never received, or named before any observation showed it.")
    for run in kind_order(runs):
        agent = run.manifest.agent
        notes = []
        embedder = getattr(run.result, "embedder", None)
        if embedder:
            notes.append(f"embedder {embedder}")
        protocol = run.manifest.parameters.get("protocol") or run.manifest.parameters.get("prompting")
        if protocol:
            notes.append(f"protocol {protocol}")
        if run.manifest.parameters.get("user"):
            notes.append(f"user {run.manifest.parameters['user']}, {run.manifest.parameters.get('stated', 1)} stated")
        audit = run.audit
        table.rows.append([
            KIND_PLURAL.get(run.kind, run.kind), run.label, run.result.benchmark, agent.name, run.manifest.run_id,
            str(len(run.task_keys())), run.coverage.text() if run.coverage else "–",
            audit.text() if audit else "–", "; ".join(notes),
        ])
    return table


def audit_table(runs: list[ScoredRun]) -> ReportTable | None:
    """The flagged episodes of the grader audit, one row each (None when nothing is flagged)."""
    table = ReportTable("Grader audit: flagged successful episodes", ["run", "episode", "task", "intent", "finding"])
    for run in kind_order(runs):
        for flag in run.audit.flags if run.audit else []:
            table.rows.append([run.label, flag.episode_id, flag.task_id, flag.intent or "", flag.text()])
    return table if table.rows else None


def task_metrics(result: Any) -> dict[str, str]:
    """Task → the metric its items use (accuracy, ndcg, rougel, micro f1, ...), for benchmarks whose items are scored
    by different metrics (Shopping MMLU)."""
    metrics: dict[str, set[str]] = defaultdict(set)
    if not item_metrics(result.benchmark):
        return {}
    for score in result.scores.values():
        metric = score.extra.get("metric")
        if metric:
            metrics[score.task].add(metric)
    return {task: " / ".join(sorted(names)) for task, names in metrics.items()}


def wilson_by_group(run: ScoredRun, metric: str) -> dict[str, Interval]:
    """Wilson intervals for the groups whose outcomes are one binary success per task (and pooled, "overall");
    worked out once per run and metric."""
    if metric not in run._wilson:
        run._wilson[metric] = _wilson_intervals(run, metric)
    return run._wilson[metric]


def _wilson_intervals(run: ScoredRun, metric: str) -> dict[str, Interval]:
    try:
        tasks = run.task_outcomes(metric)
    except ValueError:
        return {}
    by_group: dict[str, list[float]] = defaultdict(list)
    binary: dict[str, bool] = defaultdict(lambda: True)
    for outcome in tasks.values():
        by_group[outcome.group].append(outcome.mean)
        binary[outcome.group] &= outcome.binary
    found = {group: wilson_ci(int(sum(values)), len(values)) for group, values in by_group.items() if binary[group]}
    if aggregation(run.result.benchmark) == "pooled" and tasks and all(binary.values()):
        values = [outcome.mean for outcome in tasks.values()]
        found["overall"] = wilson_ci(int(sum(values)), len(values))
    return found


def metric_tables(runs: list[ScoredRun]) -> list[ReportTable]:
    """For each benchmark and metric: one row per (group, run) with its n, value [95% bootstrap] and, for binary
    rates, the Wilson interval."""
    tables = []
    ordered = kind_order(runs)
    for benchmark in dict.fromkeys(run.result.benchmark for run in ordered):
        mine = [run for run in ordered if run.result.benchmark == benchmark]
        rows_by_run = [{(r.group, r.metric): r for r in run.metric_rows()} for run in mine]
        metrics = list(dict.fromkeys(metric for rows in rows_by_run for _, metric in rows))
        task_metric = {task: m for run in mine for task, m in task_metrics(run.result).items()}
        per_item = item_metrics(benchmark)
        spec = registered(benchmark)
        for metric in metrics:
            groups = list(dict.fromkeys(group for rows in rows_by_run for group, m in rows if m == metric))
            groups = [g for g in groups if g != "overall"] + [g for g in groups if g == "overall"]
            wilson = [wilson_by_group(run, metric) for run in mine]
            counts = [_counts_by_group(run, metric) for run in mine]
            headers = ["group", "kind", "run", "n", f"{metric} [95% bootstrap]", "Wilson 95%"]
            if per_item:
                headers.insert(1, "metric")
            table = ReportTable(f"{benchmark} · {metric}", headers)
            for group in groups:
                for run, rows, wilsons, count in zip(mine, rows_by_run, wilson, counts, strict=True):
                    row = rows.get((group, metric))
                    if row is None:
                        continue
                    n = count.get(group, row.n)
                    cells = [group, run.kind, run.label, str(n) if n else "–", interval_text(row),
                             interval_text(wilsons.get(group)) if group in wilsons else "–"]
                    if group == "overall" and run.coverage is not None and not run.coverage.complete:
                        cells[4] = f"partial: {run.coverage.played} of {run.coverage.total} tasks"
                        cells[5] = "–"
                    if per_item:
                        cells.insert(1, _item_metric(group, task_metric))
                    table.rows.append(cells)
            overall = spec.overall if spec else OVERALL_AS_SCORED
            table.note = (f"overall: {overall}; printed only for a run "
                          "that covers its whole task set. Wilson intervals only for one binary outcome per task.")
            tables.append(table)
    return tables


def _counts_by_group(run: ScoredRun, metric: str) -> dict[str, int]:
    """Tasks with a value per group (and overall): the n a row's number rests on."""
    try:
        tasks = run.task_outcomes(metric)
    except ValueError:
        return {}
    counts: dict[str, int] = defaultdict(int)
    for outcome in tasks.values():
        counts[outcome.group] += 1
    if counts:
        counts["overall"] = len(tasks)
    return dict(counts)


def _item_metric(group: str, task_metric: dict[str, str]) -> str:
    if group == "overall":
        return "mean over tasks"
    if group.startswith("skill:"):
        return "mean of its tasks"
    return task_metric.get(group, "–")


def comparison_tables(comparisons: list[Comparison]) -> list[ReportTable]:
    tables = []
    for comparison in comparisons:
        for metric in comparison.metrics:
            table = ReportTable(f"Paired: A = {comparison.a} vs B = {comparison.b} · {metric.metric}",
                                comparison.headers(), note=f"{comparison.coverage_text()}. overall = "
                                                           f"{metric.aggregation}.")
            table.rows = [group.row() for group in metric.groups] + [metric.overall.row()]
            tables.append(table)
    return tables


def failure_table(runs: list[ScoredRun]) -> ReportTable | None:
    """ShoppingBench failure categories per run and intent (primary category of each failed episode)."""
    table = ReportTable("Failure categories (paper App. D, derived from the scores)",
                        ["run", "intent", "n", *CATEGORIES])
    for run in kind_order(runs):
        for summary in getattr(run.result, "intents", []):
            table.rows.append([run.label, summary.label, str(summary.episodes),
                               *(str(summary.failures.get(c, 0)) for c in CATEGORIES)])
    return table if table.rows else None


def conversation_table(runs: list[ScoredRun]) -> ReportTable | None:
    """Conversational runs' counts per run and intent: held-back constraints, how many were uncovered by asking,
    questions, unanswered questions, assumed recommendations; the episodes left unscored for a simulator error are
    named in the note (None when no run is conversational)."""
    table = ReportTable("Conversation (runs with a user: what the agent asked and uncovered)",
                        ["run", "user", *CONVERSATION_HEADERS])
    errors = []
    for run in kind_order(runs):
        result: Any = run.result
        talk = getattr(result, "conversation", None)
        if talk is None:
            continue
        user = f"{talk.user}, {talk.stated} stated"
        table.rows += [[run.label, user, *row] for row in conversation_rows(result)]
        errors.append(f"{run.label}: {simulator_error_text(result)}")
    table.note = CONVERSATION_LEGEND + ". " + " · ".join(errors)
    return table if table.rows else None


def usage_totals(run_dir: Path) -> dict[str, Any]:
    """Tokens, cost, model latency, wall time and steps over a run's finished episodes, read from the trajectories."""
    totals: dict[str, Any] = {"episodes": 0, "steps": 0, "input_tokens": None, "output_tokens": None, "cost_usd": None,
                              "latency_s": None, "wall_s": None}
    for path in iter_episode_files(run_dir):
        try:
            trajectory = read_trajectory(path)
        except (ValueError, OSError):
            continue
        if not trajectory.finished:
            continue
        stats = trajectory_stats(trajectory)
        totals["episodes"] += 1
        totals["steps"] += stats.steps
        for name in ("input_tokens", "output_tokens", "cost_usd", "latency_s", "wall_s"):
            value = getattr(stats, name)
            if value is not None:
                totals[name] = (totals[name] or 0) + value
    return totals


def usage_table(runs: list[ScoredRun]) -> ReportTable:
    table = ReportTable("Tokens, cost and time", ["run", "kind", "episodes", "steps / episode", "input tokens",
                                                  "output tokens", "cost (USD)", "cost / success (USD)",
                                                  "model latency / episode (s)", "wall time / episode (s)"],
                        note="– where the agent reported no usage (humans, most MCP clients). Latency is the model's "
                             "time summed over an episode's calls; wall time runs from the episode's start to its "
                             "end (a human's thinking time included).")
    for run in kind_order(runs):
        totals = run.usage
        episodes = totals["episodes"]
        successes = sum(run.result.episode_success().values())
        cost = totals["cost_usd"]
        table.rows.append([
            run.label,
            run.kind,
            str(episodes),
            f"{totals['steps'] / episodes:.1f}" if episodes else "–",
            usage_count(totals["input_tokens"]),
            usage_count(totals["output_tokens"]),
            "–" if cost is None else f"{cost:.4f}",
            "–" if cost is None or not successes else f"{cost / successes:.4f}",
            _per(totals["latency_s"], episodes),
            _per(totals["wall_s"], episodes),
        ])
    return table


def _per(total: float | None, episodes: int) -> str:
    return "–" if total is None or not episodes else f"{total / episodes:.2f}"


def usage_count(value: float | None) -> str:
    return "–" if value is None else f"{int(value):,}"
