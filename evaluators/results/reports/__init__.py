"""`shopbench report`: compare scored runs in a Markdown and an HTML report with PNG plots.

Each run is scored through the scorer registry (so any benchmark with a scorer can be reported), then the same
tables are written twice (report.md for reading in a repository, report.html for a browser) next to the plots, in the
order a reader looks: the leaderboard of each benchmark, its figures (one per metric, every run in it), each run
paired against the baseline (and all pairs as a matrix, when asked), then the details (runs, every group's numbers,
grader audit, failure categories, tokens and cost).
"""

from __future__ import annotations

import html
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.errors import BadInput
from benchmarks.jsonl import write_text_atomic
from evaluators.results.reports.baseline import (
    Baseline,
    against_baseline,
    all_pairs,
    baseline_tables,
    choose_baselines,
    matrix_table,
)
from evaluators.results.reports.compare import Comparison, compared_metrics
from evaluators.results.reports.figure_style import save
from evaluators.results.reports.leaderboard import Leaderboard, leaderboards
from evaluators.results.reports.plots import humans_vs_models_figure, paired_figure, pairs_figure, rate_figure
from evaluators.results.reports.tables import (
    ReportTable,
    ScoredRun,
    assess_coverage,
    audit_table,
    conversation_table,
    failure_table,
    metric_tables,
    runs_table,
    usage_table,
)
from evaluators.results.run_names import run_name
from evaluators.results.scoring import ScoreOptions, score_run
from mcp_server.trajectory import read_manifest

_STYLE = (
    "body{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
    "td:first-child,th:first-child{text-align:left}.note{color:#666}img{max-width:100%}.wide{overflow-x:auto}"
    "table.leaderboard td,table.leaderboard th{white-space:nowrap}"
    "table.leaderboard td:nth-child(2),table.leaderboard th:nth-child(2){font-weight:bold;text-align:left}"
    "tr.kind-human{background:#fdebd9}tr.kind-baseline{background:#eeeeee;color:#444}"
    "tr.kind-mcp-client{background:#f8e3f1}"
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
    label_runs(runs)
    return runs


def label_runs(runs: list[ScoredRun]) -> None:
    """Label each run by its player's name (evaluators.results.run_names), with its folder's name where several
    runs share one."""
    names = Counter(run_name(run.manifest.agent) for run in runs)
    for run in runs:
        name = run_name(run.manifest.agent)
        run.label = name if names[name] == 1 else f"{name} ({run.run_dir.name})"


def pairwise(runs: list[ScoredRun], baseline: str | None = None) -> list[Comparison]:
    """Each run paired with its benchmark's baseline (the run `baseline` names, else the best-covered model run) on
    the tasks both played."""
    return against_baseline(runs, choose_baselines(runs, baseline))


Block = ReportTable | Path
"""What a report shows, in order: a table, or a plot."""


def write_report(runs: list[ScoredRun], out_dir: Path, *, sizes: dict[tuple[str, str | None], int | None] | None = None,
                 baseline: str | None = None, pairs: bool = False) -> ReportFiles:
    """Write report.md, report.html and the plots into out_dir. `sizes` ((benchmark, task set) → number of tasks)
    overrides the task-set sizes looked up for the coverage check; `baseline` names the run every other is paired
    with (BaselineError when it names none, or several); `pairs` adds all pairs as a matrix."""
    if not runs:
        raise BadInput("a report needs at least one run")
    baselines = choose_baselines(runs, baseline)  # a bad --baseline is refused before anything is written
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    assess_coverage(runs, sizes)
    comparisons = against_baseline(runs, baselines)
    boards = leaderboards(runs)
    blocks: list[Block] = [board.table() for board in boards]
    for board in boards:
        blocks += [save(figure, out_dir / f"{stem}.png") for stem, figure in benchmark_figures(board.runs, comparisons)]
    blocks += baseline_tables(comparisons, baselines)
    if pairs:
        blocks += _pairs(boards, out_dir)
    blocks.append(runs_table(runs))
    blocks += metric_tables(runs)
    blocks += [extra for extra in (audit_table(runs), failure_table(runs), conversation_table(runs))
               if extra is not None]
    blocks.append(usage_table(runs))

    notes = _notes(runs, baselines)
    markdown = ["# shopbench report", "", *notes, ""]
    markdown += [_markdown(block) for block in blocks]
    markdown_path = out_dir / "report.md"
    write_text_atomic(markdown_path, "\n".join(markdown))

    body = ["<h1>shopbench report</h1>", *(f"<p>{html.escape(n)}</p>" for n in notes)]
    body += [_html(block) for block in blocks]
    html_path = out_dir / "report.html"
    write_text_atomic(html_path,
                      f"<!doctype html><html><head><meta charset='utf-8'><title>shopbench report</title>"
                      f"<style>{_STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return ReportFiles(markdown_path, html_path, [block for block in blocks if isinstance(block, Path)])


def benchmark_figures(runs: list[ScoredRun], comparisons: list[Comparison]) -> Iterator[tuple[str, Any]]:
    """(file stem, figure) of one benchmark's figures: each compared metric, humans vs the others (when both are
    there), the runs paired against the baseline on the primary metric."""
    benchmark = runs[0].result.benchmark
    for metric in compared_metrics(runs[0].result):
        yield f"{benchmark}_{metric}", rate_figure(runs, metric)
    if any(run.is_human for run in runs) and any(not run.is_human for run in runs):
        yield f"{benchmark}_humans_vs_models", humans_vs_models_figure(runs)
    paired = [c for c in comparisons if c.benchmark == benchmark and c.shared]
    if paired:
        metric = runs[0].result.primary_metric
        yield f"{benchmark}_paired_{metric}", paired_figure(paired, metric, runs)


def _pairs(boards: list[Leaderboard], out_dir: Path) -> list[Block]:
    """All pairs of each benchmark's runs: a matrix table and figure of the primary metric."""
    blocks: list[Block] = []
    for board in boards:
        if len(board.runs) < 2:
            continue
        found = all_pairs(board.runs)
        blocks.append(matrix_table(board.runs, found, board.metric))
        blocks.append(save(pairs_figure(board.runs, found, board.metric),
                           out_dir / f"{board.benchmark}_pairs_{board.metric}.png"))
    return blocks


def _markdown(block: Block) -> str:
    return block.markdown() if isinstance(block, ReportTable) else f"![{block.stem}]({block.name})\n"


def _html(block: Block) -> str:
    if isinstance(block, ReportTable):
        return block.html()
    return f"<h3>{html.escape(block.stem)}</h3><img src='{html.escape(block.name)}' alt='{html.escape(block.stem)}'>"


def _notes(runs: list[ScoredRun], baselines: dict[str, Baseline]) -> list[str]:
    notes = ["Intervals are 95% percentile bootstrap intervals over tasks (10,000 resamples, seed 0); binary rates "
             "also get a Wilson score interval. Paired comparisons use only the tasks both runs played "
             "(paired bootstrap of A − B; exact McNemar test on the discordant tasks)."]
    notes += [baseline.text() for baseline in baselines.values() if len(runs) > 1]
    for run in runs:
        if run.result.unreadable:
            notes.append(f"{run.label}: {len(run.result.unreadable)} of {run.result.episode_files} episode files "
                         "could not be read and are not scored: " + "; ".join(run.result.unreadable))
    partial = [run for run in runs if run.coverage is not None and not run.coverage.complete]
    if partial:
        by_coverage: dict[str, list[str]] = defaultdict(list)
        for run in partial:
            by_coverage[run.coverage.text() if run.coverage else ""].append(run.label)
        notes.append("Runs that cover only part of their task set (their overall is not printed; the leaderboard "
                     "ranks them on the tasks all runs played, and the paired tables compare them): " + "; ".join(
                         f"{', '.join(labels)}: {text}" for text, labels in by_coverage.items()) + ".")
    embedders = {embedder for run in runs if (embedder := getattr(run.result, "embedder", None)) is not None}
    for embedder in sorted(embedders):
        reference = next(getattr(r.result, "reference_embedder", "") for r in runs
                         if getattr(r.result, "embedder", None) == embedder)
        notes.append(f"Title similarity embedder: {embedder}; the reference scorer used {reference}.")
    return notes
