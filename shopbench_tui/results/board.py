"""Scoreboard rows: every metric row of every scored run, labelled with who played it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evaluators.results.reports.tables import ScoredRun
from evaluators.results.run_names import run_name


@dataclass(frozen=True)
class BoardRow:
    benchmark: str
    group: str
    """Intent, task, skill, or "overall"."""
    metric: str
    primary: bool
    """The benchmark's headline metric (ASR, accuracy): what the default view shows."""
    kind: str
    """human, model, mcp-client, baseline."""
    player: str
    run: str
    value: float | None
    low: float | None
    high: float | None
    n: int

    def interval_text(self) -> str:
        if self.low is None or self.high is None:
            return ""
        return f"[{self.low:.3f}, {self.high:.3f}]"


def board_rows(run: ScoredRun) -> list[BoardRow]:
    """The rows of one scored run, from the metric rows it works out once (the leaderboard reads the same ones)."""
    result = run.result
    return [
        BoardRow(
            benchmark=result.benchmark,
            group=row.group,
            metric=row.metric,
            primary=row.metric == result.primary_metric,
            kind=run.kind,
            player=run_name(run.manifest.agent),
            run=Path(run.run_dir).name,
            value=row.value,
            low=row.low,
            high=row.high,
            n=row.n,
        )
        for row in run.metric_rows()
    ]


def sort_rows(rows: list[BoardRow]) -> list[BoardRow]:
    """Benchmark, then group (overall last), then metric, then best value first: players compete within a group."""
    return sorted(rows, key=lambda r: (r.benchmark, r.group == "overall", r.group, r.metric,
                                       -(r.value if r.value is not None else -1.0), r.player))
