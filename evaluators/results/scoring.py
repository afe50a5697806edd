"""Scoring by benchmark name: `get_scorer(name)` and `score_run(run_dir)`. `shopbench score`, `report`, `export`,
`replay` and `results` find every benchmark's scorer here, through the benchmark registry (benchmarks.registry):
a registered benchmark names its scorer there, and nothing here names a benchmark.

A scorer implements the `Scorer` protocol (evaluators.results.protocol, re-exported here):

    class MyScorer:
        benchmark = "my-bench"

        def score_run(self, run_dir: Path, options: ScoreOptions) -> ScoreResult:
            # read the episodes with evaluators.results.episodes.read_run_episodes (one agent's; unreadable files
            # listed, not raised) and report unfinished and unreadable episodes in the result
        def score_predictions(self, predictions: Path, options: ScoreOptions) -> ScoreResult:
            # bare predictions from another harness (options.items / options.catalog say against what)

and returns a `ScoreResult`:
- `benchmark`, `primary_metric` (the rate plotted and compared, e.g. "ASR", "accuracy");
- `unreadable` and `episode_files`: the episode files that could not be read, of how many (`score` and `report`
  exit non-zero when any could not);
- `metric_rows()`: flat MetricRow(group, metric, value, low, high, n) — the rows `shopbench report` tabulates and
  plots across runs (group = intent / task / skill / "overall"; give low/high from evaluators.results.stats when it
  is a rate);
- `episode_success()`: episode_id → success, for finished episodes (distillation export keeps the True ones);
- `to_json()`: what `--json OUT` writes (for predictions, the benchmark's documented OUT format).

A result never renders itself: its benchmark's results reader (evaluators.parts, evaluators.results.reports.reading)
gives the tables `shopbench score` prints, and what reports read of it.

A benchmark's scorer is one of its parts (evaluators.parts: `scorer(spec) -> Scorer`); a question benchmark
scores raw outputs itself (`QuestionBenchmark.score`) and the question benchmarks' default part,
`evaluators.results.questions.QAScorer`, does the rest (run directories, predictions, tables). This module
registers the built-in scorers as the kinds' defaults, so whoever scores has them. Options every scorer
may read are in ScoreOptions; anything benchmark-specific that the command line does not name goes in
`ScoreOptions.extra`.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.registry import UnknownBenchmarkError, benchmark_names, get_benchmark
from evaluators.parts import parts_for, register_parts
from evaluators.results.protocol import MetricRow, ScoreOptions, Scorer, ScoreResult
from evaluators.results.questions import QAScorer
from evaluators.results.shoppingbench.scorer import ShoppingBenchScorer
from mcp_server.trajectory import read_manifest

__all__ = [
    "MetricRow", "ScoreOptions", "ScoreResult", "Scorer", "UnknownBenchmarkError", "get_scorer", "score_run",
    "scorer_names",
]


register_parts(kind="agentic", scorer=ShoppingBenchScorer)
register_parts(kind="qa", scorer=QAScorer)


def scorer_names() -> list[str]:
    return benchmark_names()


def get_scorer(name: str) -> Scorer:
    """The scorer for a registered benchmark; an unknown name gets a "did you mean" error."""
    spec = get_benchmark(name)
    scorer: Scorer = parts_for(spec).load("scorer")(spec)
    return scorer


def score_run(run_dir: Path | str, options: ScoreOptions | None = None) -> ScoreResult:
    """Score a run directory with the scorer of the benchmark its manifest names (a missing manifest is
    FileNotFoundError, a bad one DataFileError naming the file and line)."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    return get_scorer(manifest.benchmark).score_run(run_dir, options or ScoreOptions())
