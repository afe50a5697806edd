"""What every scorer shares: the options the command line passes (ScoreOptions), the rows reports compare
(MetricRow), and the Scorer and ScoreResult protocols (evaluators.results.scoring says how a scorer is found). Below
the scorers and the dispatcher both, so the dispatcher can import the built-in scorers."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from evaluators.results.embeddings import Embedder, load_embedder


class ScoreOptions(BaseModel):
    """What the command line passes to every scorer; each scorer reads the options that concern it."""

    world: Path | None = None
    """ShoppingBench: the world to resolve tasks and products in (default: the world the run recorded)."""
    embedder: str | None = None
    """Sentence-transformers model folder (default: all-MiniLM-L6-v2 from its PyPI package)."""
    catalog: Path | None = None
    """ShoppingBench predictions: the catalog JSONL (official document format) the ids refer to."""
    items: Path | None = None
    """Question benchmarks: the item file the predictions answer."""
    prompting: str | None = None
    """Question benchmarks: the prompting mode whose parser reads the raw outputs (zero-shot, cot, ...)."""
    agent: str | None = None
    """Run folders holding several agents' episodes: score only this one ("kind:name" or the name)."""
    extra: dict[str, Any] = Field(default_factory=dict)

    def encoder(self, model: str | None) -> Embedder:
        """A sentence embedder (None: the bundled default), for a question benchmark's own `score`."""
        return load_embedder(model)


class MetricRow(BaseModel):
    """One number of a scored run, as reports compare them across runs."""

    group: str
    metric: str
    value: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0


@runtime_checkable
class ScoreResult(Protocol):
    benchmark: str
    primary_metric: str
    unreadable: list[str]
    """Episode files of the run that could not be read, one line each ("FILE:LINE: problem")."""
    episode_files: int
    """How many episode files the run folder holds (0 for predictions)."""

    def metric_rows(self) -> list[MetricRow]: ...

    def episode_success(self) -> dict[str, bool]: ...

    def to_json(self) -> dict[str, Any]: ...


class Scorer(Protocol):
    benchmark: str

    def score_run(self, run_dir: Path, options: ScoreOptions) -> ScoreResult: ...

    def score_predictions(self, predictions: Path, options: ScoreOptions) -> ScoreResult: ...
