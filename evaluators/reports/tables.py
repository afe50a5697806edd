"""Comparison tables across scored runs, as plain data that Markdown and HTML both render.

Tables are built from each result's `metric_rows()` (the registry's common shape), so any benchmark's runs can be
compared; ShoppingBench results add failure categories. Tokens and cost come from the trajectories themselves.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.scoring import MetricRow, ScoreResult
from evaluators.scoring.failure import CATEGORIES
from evaluators.scoring.trajectory_stats import trajectory_stats
from mcp_server.trajectory import RunManifest, iter_episode_files, read_trajectory


@dataclass
class ScoredRun:
    """One run of a report: where it is, who played it, and its score."""

    run_dir: Path
    manifest: RunManifest
    result: ScoreResult
    label: str = ""

    @property
    def is_human(self) -> bool:
        return self.manifest.agent.kind == "human"


@dataclass
class ReportTable:
    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""

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
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in self.rows)
        note = f"<p class='note'>{html.escape(self.note)}</p>" if self.note else ""
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        return f"<h3>{html.escape(self.title)}</h3>{table}{note}"


def interval_text(row: MetricRow | None) -> str:
    if row is None or row.value is None:
        return "–"
    if row.low is None or row.high is None:
        return f"{row.value:.3f}"
    return f"{row.value:.3f} [{row.low:.3f}, {row.high:.3f}]"


def runs_table(runs: list[ScoredRun]) -> ReportTable:
    table = ReportTable("Runs", ["run", "benchmark", "agent", "run id", "scored episodes", "notes"])
    for run in runs:
        agent = run.manifest.agent
        notes = []
        embedder = getattr(run.result, "embedder", None)
        if embedder:
            notes.append(f"embedder {embedder}")
        unfinished = getattr(run.result, "unfinished", None)
        if unfinished:
            notes.append(f"{len(unfinished)} unfinished")
        table.rows.append([run.label, run.result.benchmark, f"{agent.kind}: {agent.name}", run.manifest.run_id,
                           str(len(run.result.episode_success())), "; ".join(notes)])
    return table


def metric_tables(runs: list[ScoredRun]) -> list[ReportTable]:
    """For each benchmark and metric: groups (intents, tasks...) down, runs across, value [95% CI]."""
    tables = []
    for benchmark in dict.fromkeys(run.result.benchmark for run in runs):
        mine = [run for run in runs if run.result.benchmark == benchmark]
        rows_by_run = [{(r.group, r.metric): r for r in run.result.metric_rows()} for run in mine]
        metrics = list(dict.fromkeys(metric for rows in rows_by_run for _, metric in rows))
        for metric in metrics:
            groups = list(dict.fromkeys(group for rows in rows_by_run for group, m in rows if m == metric))
            table = ReportTable(f"{benchmark} · {metric} (95% bootstrap interval)", ["group", *(r.label for r in mine)])
            for group in groups:
                table.rows.append([group, *(interval_text(rows.get((group, metric))) for rows in rows_by_run)])
            tables.append(table)
    return tables


def failure_table(runs: list[ScoredRun]) -> ReportTable | None:
    """ShoppingBench failure categories per run and intent (primary category of each failed episode)."""
    table = ReportTable("Failure categories (paper App. D, derived from the scores)", ["run", "intent", *CATEGORIES])
    for run in runs:
        for summary in getattr(run.result, "intents", []):
            table.rows.append([run.label, summary.label, *(str(summary.failures.get(c, 0)) for c in CATEGORIES)])
    return table if table.rows else None


def usage_totals(run_dir: Path) -> dict[str, Any]:
    """Tokens, cost and steps over a run's finished episodes, read from the trajectories."""
    totals: dict[str, Any] = {"episodes": 0, "steps": 0, "input_tokens": None, "output_tokens": None, "cost_usd": None}
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
        for name in ("input_tokens", "output_tokens", "cost_usd"):
            value = getattr(stats, name)
            if value is not None:
                totals[name] = (totals[name] or 0) + value
    return totals


def usage_table(runs: list[ScoredRun]) -> ReportTable:
    table = ReportTable("Tokens and cost", ["run", "episodes", "steps / episode", "input tokens", "output tokens",
                                            "cost (USD)", "cost / success (USD)"],
                        note="– where the agent reported no usage (humans, most MCP clients).")
    for run in runs:
        totals = usage_totals(run.run_dir)
        episodes = totals["episodes"]
        successes = sum(run.result.episode_success().values())
        cost = totals["cost_usd"]
        table.rows.append([
            run.label,
            str(episodes),
            f"{totals['steps'] / episodes:.1f}" if episodes else "–",
            _count(totals["input_tokens"]),
            _count(totals["output_tokens"]),
            "–" if cost is None else f"{cost:.4f}",
            "–" if cost is None or not successes else f"{cost / successes:.4f}",
        ])
    return table


def _count(value: float | None) -> str:
    return "–" if value is None else f"{int(value):,}"
