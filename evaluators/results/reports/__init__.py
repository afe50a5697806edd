"""`shopbench report`: compare scored runs in a Markdown and an HTML report with PNG plots.

Each run is scored through the scorer registry (so any benchmark with a scorer can be reported), then the same
tables are written twice (report.md for reading in a repository, report.html for a browser) next to the plots.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchmarks.jsonl import write_text_atomic
from evaluators.results.reports.compare import Comparison, compare, compared_metrics
from evaluators.results.reports.plots import humans_vs_models, paired_differences, rate_panels
from evaluators.results.reports.tables import (
    ReportTable,
    ScoredRun,
    assess_coverage,
    audit_table,
    comparison_tables,
    failure_table,
    kind_order,
    metric_tables,
    runs_table,
    usage_table,
)
from evaluators.results.scoring import ScoreOptions, score_run
from mcp_server.trajectory import read_manifest

_STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
    "td:first-child,th:first-child{text-align:left}.note{color:#666}img{max-width:100%}"
)


@dataclass
class ReportFiles:
    markdown: Path
    html: Path
    plots: list[Path]


def load_runs(run_dirs: list[Path], options: ScoreOptions | None = None) -> list[ScoredRun]:
    """Score each run directory; labels are the agent names, made unique with the folder name when they repeat."""
    manifests = [read_manifest(d) for d in run_dirs]  # every folder checked before any is scored
    runs = [ScoredRun(Path(d), manifest, score_run(d, options))
            for d, manifest in zip(run_dirs, manifests, strict=True)]
    names = Counter(run.manifest.agent.name for run in runs)
    for run in runs:
        name = run.manifest.agent.name
        run.label = name if names[name] == 1 else f"{name} ({run.run_dir.name})"
    return runs


MAX_PAIRS = 6
"""A report with more runs compares each pair up to this many (the first runs, grouped by kind)."""


def pairwise(runs: list[ScoredRun]) -> list[Comparison]:
    """Paired comparisons of every two runs of the same benchmark (models first, baselines last)."""
    comparisons: list[Comparison] = []
    ordered = kind_order(runs)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if a.result.benchmark == b.result.benchmark and len(comparisons) < MAX_PAIRS:
                comparisons.append(compare(a.result, b.result, a.label, b.label))
    return comparisons


def write_report(runs: list[ScoredRun], out_dir: Path, *, sizes: dict[tuple[str, str | None], int | None] | None = None,
                 ) -> ReportFiles:
    """Write report.md, report.html and the plots into out_dir. `sizes` ((benchmark, task set) → number of tasks)
    overrides the task-set sizes looked up for the coverage check."""
    if not runs:
        raise ValueError("a report needs at least one run")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    assess_coverage(runs, sizes)
    comparisons = pairwise(runs)
    tables: list[ReportTable] = [runs_table(runs), *metric_tables(runs), *comparison_tables(comparisons)]
    for extra in (audit_table(runs), failure_table(runs)):
        if extra is not None:
            tables.append(extra)
    tables.append(usage_table(runs))

    plots = []
    for benchmark in dict.fromkeys(run.result.benchmark for run in runs):
        mine = [run for run in runs if run.result.benchmark == benchmark]
        for metric in compared_metrics(mine[0].result):
            plots.append(rate_panels(mine, metric, out_dir / f"{benchmark}_{metric}.png"))
        if any(run.is_human for run in mine) and any(not run.is_human for run in mine):
            plots.append(humans_vs_models(mine, out_dir / f"{benchmark}_humans_vs_models.png"))
        pairs = [c for c in comparisons if c.benchmark == benchmark and c.shared]
        if pairs:
            metric = mine[0].result.primary_metric
            plots.append(paired_differences(pairs, out_dir / f"{benchmark}_paired_{metric}.png", metric))

    notes = _notes(runs)
    markdown = ["# shopbench report", "", *notes, ""]
    markdown += [table.markdown() for table in tables]
    markdown += [f"![{plot.stem}]({plot.name})\n" for plot in plots]
    markdown_path = out_dir / "report.md"
    write_text_atomic(markdown_path, "\n".join(markdown))

    body = ["<h1>shopbench report</h1>", *(f"<p>{html.escape(n)}</p>" for n in notes)]
    body += [table.html() for table in tables]
    body += [f"<h3>{html.escape(plot.stem)}</h3><img src='{html.escape(plot.name)}' alt='{html.escape(plot.stem)}'>"
             for plot in plots]
    html_path = out_dir / "report.html"
    write_text_atomic(html_path,
                      f"<!doctype html><html><head><meta charset='utf-8'><title>shopbench report</title>"
                      f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return ReportFiles(markdown_path, html_path, plots)


def _notes(runs: list[ScoredRun]) -> list[str]:
    notes = ["Intervals are 95% percentile bootstrap intervals over tasks (10,000 resamples, seed 0); binary rates "
             "also get a Wilson score interval. Paired comparisons use only the tasks both runs played "
             "(paired bootstrap of A − B; exact McNemar test on the discordant tasks)."]
    for run in runs:
        if run.result.unreadable:
            notes.append(f"{run.label}: {len(run.result.unreadable)} of {run.result.episode_files} episode files "
                         "could not be read and are not scored: " + "; ".join(run.result.unreadable))
    partial = [run for run in runs if run.coverage is not None and not run.coverage.complete]
    if partial:
        notes.append("Runs cover different task sets: " + "; ".join(
            f"{run.label}: {run.coverage.text()}" for run in partial if run.coverage)
            + ". Their overall is not printed; compare them with the paired tables.")
    embedders = {embedder for run in runs if (embedder := getattr(run.result, "embedder", None)) is not None}
    for embedder in sorted(embedders):
        reference = next(getattr(r.result, "reference_embedder", "") for r in runs
                         if getattr(r.result, "embedder", None) == embedder)
        notes.append(f"Title similarity embedder: {embedder}; the reference scorer used {reference}.")
    return notes
