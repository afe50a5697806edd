"""`shopbench report`: compare scored runs in a Markdown and an HTML report with PNG plots.

Each run is scored through the scorer registry (so any benchmark with a scorer can be reported), then the same
tables are written twice (report.md for reading in a repository, report.html for a browser) next to the plots.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from evaluators.reports.plots import humans_vs_models, primary_metric_bars
from evaluators.reports.tables import (
    ReportTable,
    ScoredRun,
    failure_table,
    metric_tables,
    runs_table,
    usage_table,
)
from evaluators.scoring import ScoreOptions, score_run
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
    runs = [ScoredRun(Path(d), read_manifest(d), score_run(d, options)) for d in run_dirs]
    names = Counter(run.manifest.agent.name for run in runs)
    for run in runs:
        name = run.manifest.agent.name
        run.label = name if names[name] == 1 else f"{name} ({run.run_dir.name})"
    return runs


def write_report(runs: list[ScoredRun], out_dir: Path) -> ReportFiles:
    """Write report.md, report.html and the plots into out_dir."""
    if not runs:
        raise ValueError("a report needs at least one run")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables: list[ReportTable] = [runs_table(runs), *metric_tables(runs)]
    failures = failure_table(runs)
    if failures is not None:
        tables.append(failures)
    tables.append(usage_table(runs))

    plots = []
    for benchmark in dict.fromkeys(run.result.benchmark for run in runs):
        mine = [run for run in runs if run.result.benchmark == benchmark]
        plots.append(primary_metric_bars(mine, out_dir / f"{benchmark}_{mine[0].result.primary_metric}.png"))
        if any(run.is_human for run in mine) and any(not run.is_human for run in mine):
            plots.append(humans_vs_models(mine, out_dir / f"{benchmark}_humans_vs_models.png"))

    notes = _notes(runs)
    markdown = ["# shopbench report", "", *notes, ""]
    markdown += [table.markdown() for table in tables]
    markdown += [f"![{plot.stem}]({plot.name})\n" for plot in plots]
    markdown_path = out_dir / "report.md"
    markdown_path.write_text("\n".join(markdown), encoding="utf-8")

    body = ["<h1>shopbench report</h1>", *(f"<p>{html.escape(n)}</p>" for n in notes)]
    body += [table.html() for table in tables]
    body += [f"<h3>{html.escape(plot.stem)}</h3><img src='{html.escape(plot.name)}' alt='{html.escape(plot.stem)}'>"
             for plot in plots]
    html_path = out_dir / "report.html"
    html_path.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>shopbench report</title><style>{_STYLE}</style>"
        f"</head><body>{''.join(body)}</body></html>\n",
        encoding="utf-8",
    )
    return ReportFiles(markdown_path, html_path, plots)


def _notes(runs: list[ScoredRun]) -> list[str]:
    notes = ["Intervals are 95% percentile bootstrap intervals over tasks (10,000 resamples, seed 0)."]
    embedders = {getattr(run.result, "embedder", None) for run in runs} - {None}
    for embedder in sorted(embedders):
        reference = next(getattr(r.result, "reference_embedder", "") for r in runs
                         if getattr(r.result, "embedder", None) == embedder)
        notes.append(f"Title similarity embedder: {embedder}; the reference scorer used {reference}.")
    return notes
