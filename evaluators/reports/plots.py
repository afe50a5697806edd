"""PNG plots for reports (matplotlib, Agg backend: no display needed, same pixels on every machine).

- `primary_metric_bars`: each run's primary rate (ASR for ShoppingBench) per group, with 95% interval error bars.
- `humans_vs_models`: the same rate with human runs and model runs pooled separately, as the paper's Fig. 6 compares
  three people with the models.
"""

from __future__ import annotations

from pathlib import Path

from evaluators.reports.tables import ScoredRun
from evaluators.scoring import MetricRow

HUMAN_COLOUR = "#d95f02"
MODEL_COLOUR = "#1b9e77"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _primary_rows(run: ScoredRun) -> dict[str, MetricRow]:
    return {r.group: r for r in run.result.metric_rows() if r.metric == run.result.primary_metric}


def primary_metric_bars(runs: list[ScoredRun], path: Path) -> Path:
    """Grouped bars: groups along x, one bar per run, error bars from each rate's interval."""
    plt = _pyplot()
    rows = [_primary_rows(run) for run in runs]
    groups = list(dict.fromkeys(group for r in rows for group in r))
    metric = runs[0].result.primary_metric
    width = 0.8 / max(len(runs), 1)
    figure, axes = plt.subplots(figsize=(max(6.0, 1.2 * len(groups) * max(1, len(runs)) / 2 + 3), 4.5))
    for index, (run, by_group) in enumerate(zip(runs, rows, strict=True)):
        xs, values, errors = [], [], [[], []]
        for position, group in enumerate(groups):
            row = by_group.get(group)
            if row is None or row.value is None:
                continue
            xs.append(position - 0.4 + width * (index + 0.5))
            values.append(row.value)
            errors[0].append(row.value - (row.low if row.low is not None else row.value))
            errors[1].append((row.high if row.high is not None else row.value) - row.value)
        axes.bar(xs, values, width, yerr=errors, capsize=3, label=run.label,
                 hatch="//" if run.is_human else None, edgecolor="black", linewidth=0.5)
    axes.set_xticks(range(len(groups)), groups)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel(f"{metric} (95% CI)")
    axes.set_title(f"{metric} per group")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def humans_vs_models(runs: list[ScoredRun], path: Path) -> Path:
    """Mean primary rate of human runs vs model runs per group (hatched: humans)."""
    plt = _pyplot()
    kinds = {"humans": [r for r in runs if r.is_human], "models": [r for r in runs if not r.is_human]}
    groups = list(dict.fromkeys(group for run in runs for group in _primary_rows(run)))
    figure, axes = plt.subplots(figsize=(max(6.0, 1.3 * len(groups) + 2), 4.5))
    for index, (kind, members) in enumerate(kinds.items()):
        xs, values = [], []
        for position, group in enumerate(groups):
            found = [row.value for run in members if (row := _primary_rows(run).get(group)) and row.value is not None]
            if found:
                xs.append(position - 0.2 + 0.4 * index)
                values.append(sum(found) / len(found))
        axes.bar(xs, values, 0.4, label=f"{kind} ({len(members)} run(s))",
                 color=HUMAN_COLOUR if kind == "humans" else MODEL_COLOUR,
                 hatch="//" if kind == "humans" else None, edgecolor="black", linewidth=0.5)
    metric = runs[0].result.primary_metric
    axes.set_xticks(range(len(groups)), groups)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel(metric)
    axes.set_title(f"Humans vs models: {metric}")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
