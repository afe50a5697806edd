"""The rich tables `shopbench score` prints: for a ShoppingBench result, and for a question benchmark's. Results never
render themselves: their benchmark's results reader (evaluators.results.reports.readers) calls these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table
from rich.text import Text

from evaluators.results.reports.conversation import (
    CONVERSATION_HEADERS,
    CONVERSATION_LEGEND,
    conversation_rows,
    simulator_error_text,
)
from evaluators.results.run_names import player_text
from evaluators.results.shoppingbench.failure import CATEGORIES
from evaluators.results.trajectory_stats import STATISTICS

if TYPE_CHECKING:
    from evaluators.results.protocol import MetricRow
    from evaluators.results.questions import QAScoreResult
    from evaluators.results.shoppingbench.scorer import ShoppingBenchResult
    from evaluators.results.stats import Interval

FIELD_HEADERS = {"title": "title", "price": "price", "service": "serv.", "sku_attrs": "sku", "shop": "shop",
                 "budget": "budg.", "kw": "kw"}
"""Short headers, so that the per-constraint table fits 80 columns; FIELDS_LEGEND spells them out."""
FIELDS_LEGEND = ("id: the exact product id · serv.: service · sku: SKU options and attributes · budg.: budget · "
                 "kw: knowledge keyword")


_UNDEFINED = {
    "y is constant": "success is constant (every episode succeeded, or none did): nothing can correlate with it",
    "x is constant": "a statistic is constant over the episodes",
    "fewer than 3 pairs": "fewer than 3 episodes",
}


def number(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _numbers_table(title: str, headers: tuple[str, ...]) -> Table:
    """A table whose first column (a label) folds and whose number columns never wrap or cut: in 80 columns the label
    gives way, so no cell holding a number is shown as "1.0…"."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(headers[0], overflow="fold", ratio=1, min_width=8)
    for header in headers[1:]:
        table.add_column(header, justify="right", no_wrap=True)
    return table


def shoppingbench_renderables(result: ShoppingBenchResult) -> list[Any]:
    """The main table (per intent: n, ASR and CAR with their 95% intervals), then exact-id and the per-field means,
    pass^k, failure categories, App. F statistics, and a footer naming the embedder and what was left out. The first
    two tables each fit 80 columns with every number whole."""
    who = f" · {player_text(result.agent)}" if result.agent else ""
    table = _numbers_table(f"ShoppingBench · {result.run_id or result.run_dir or ''}{who}",
                           ("intent", "n", "ASR [95% CI]", "CAR [95% CI]"))
    fields = _numbers_table("Exact id and per-constraint means", ("intent", "id", *FIELD_HEADERS.values()))
    fields.caption, fields.caption_justify = FIELDS_LEGEND, "left"
    for summary in result.intents:
        table.add_row(summary.label, str(summary.episodes), summary.asr.text(), summary.car.text())
        fields.add_row(summary.label, number(summary.exact_id.value),
                       *(number(summary.fields.get(name)) for name in FIELD_HEADERS))
    if result.intents:
        table.add_section()
        table.add_row("average over intents", str(sum(s.episodes for s in result.intents)), result.overall_asr.text(),
                      result.overall_car.text(), style="bold")
    out: list[Any] = [table, fields]

    ks = sorted({k for summary in result.intents for k in summary.pass_k})
    if ks:
        passk = Table(title=f"pass^k over {result.epochs} epochs", title_justify="left")
        passk.add_column("intent")
        for k in ks:
            passk.add_column(f"pass^{k}", justify="right")
        for summary in result.intents:
            passk.add_row(summary.label, *(number(summary.pass_k.get(k)) for k in ks))
        out.append(passk)

    if any(summary.failures for summary in result.intents):
        failures = Table(title="Failure categories (paper App. D; primary category per failed episode)",
                         title_justify="left")
        failures.add_column("intent")
        for category in CATEGORIES:
            failures.add_column(category, justify="right")
        for summary in result.intents:
            failures.add_row(summary.label, *(str(summary.failures.get(c, 0)) for c in CATEGORIES))
        out.append(failures)

    if result.stats:
        stats = Table(title="Trajectory statistics (paper App. F): mean, and Pearson r with success",
                      title_justify="left")
        stats.add_column("intent")
        for label in STATISTICS.values():
            stats.add_column(label, justify="right")
        undefined: dict[str, str] = {}
        for summary in result.intents:
            cells = []
            for name in STATISTICS:
                correlation = summary.correlations.get(name)
                if correlation is None:
                    r = ""
                elif correlation.r is None:
                    r = " (r –)"
                    reason = _UNDEFINED.get(correlation.undefined or "", correlation.undefined or "undefined")
                    undefined.setdefault(summary.label, reason)
                else:
                    r = f" (r={correlation.r:+.2f})"
                cells.append(number(summary.statistics.get(name), 1) + r)
            stats.add_row(summary.label, *cells)
        out.append(stats)
        if undefined:
            out.append(Text("r – : undefined. " + "; ".join(f"{label}: {reason}" for label, reason in
                                                              undefined.items()), style="dim"))

    if result.conversation is not None:
        out += conversation_renderables(result)

    notes = [f"embedder: {result.embedder} (the reference scorer used {result.reference_embedder}; "
             "title thresholds 0.5 / 0.8 were set for that model)"]
    if result.world:
        notes.append(f"world: {result.world}")
    if result.end_status:
        notes.append("episode endings: " + ", ".join(f"{k} {v}" for k, v in sorted(result.end_status.items())))
    if result.unfinished:
        notes.append(f"{len(result.unfinished)} unfinished episode(s) not scored: {', '.join(result.unfinished[:5])}"
                     + (" …" if len(result.unfinished) > 5 else ""))
    for problem in result.problems[:10]:
        notes.append(f"problem: {problem}")
    if len(result.problems) > 10:
        notes.append(f"… and {len(result.problems) - 10} more problems (see --json)")
    out.append(Text("\n".join(notes), style="dim"))
    return out


def conversation_renderables(result: ShoppingBenchResult) -> list[Any]:
    """The conversation table (counts and shares per intent and pooled), and the episodes reported apart."""
    assert result.conversation is not None
    talk = result.conversation
    table = _numbers_table(f"Conversation · user {talk.user}, {talk.stated} constraint(s) stated",
                           CONVERSATION_HEADERS)
    table.caption, table.caption_justify = CONVERSATION_LEGEND, "left"
    rows = conversation_rows(result)
    for row in rows[:-1]:
        table.add_row(*row)
    table.add_section()
    table.add_row(*rows[-1], style="bold")
    style = "bold red" if talk.simulator_errors else "dim"
    return [table, Text(simulator_error_text(result), style=style)]


def question_renderables(result: QAScoreResult) -> list[Any]:
    """The metric rows (group, metric, value [interval], n), then the benchmark's notes and what was not scored."""
    table = Table(title=f"{result.benchmark} ({result.prompting})")
    for column in ("group", "metric", "value", "n"):
        table.add_column(column, justify="left" if column in ("group", "metric") else "right")
    for row in result.metric_rows():
        value = "–" if row.value is None else f"{row.value:.4f}"
        if row.low is not None and row.high is not None:
            value += f" [{row.low:.3f}, {row.high:.3f}]"
        table.add_row(row.group, row.metric, value, str(row.n or ""))
    lines: list[Any] = [table]
    for key in ("invalid_rate", "skipped_fewer_than_4_options", "difficulty_method", "embedders"):
        if key in result.summary and result.summary[key] not in ({}, None):
            lines.append(f"{key}: {result.summary[key]}")
    if any(result.not_scored.values()):
        lines.append(f"not scored: {result.not_scored}")
    return lines


HEADLINE_GROUPS = 9
"""More groups than this (Shopping MMLU's 57 tasks) are shown by their roll-ups (`skill:...`) and the overall."""


def interval_text(row: MetricRow | Interval | None) -> str:
    if row is None or row.value is None:
        return "–"
    if row.low is None or row.high is None:
        return f"{row.value:.3f}"
    return f"{row.value:.3f} [{row.low:.3f}, {row.high:.3f}]"


def headline_table(result: Any) -> Table:
    """The run's headline, what `shopbench run` ends with: the primary metric per group (intent, task) and overall,
    with its 95% interval and n — the numbers `shopbench score` prints, which shows every other metric too."""
    rows = [row for row in result.metric_rows() if row.metric == result.primary_metric]
    if len(rows) > HEADLINE_GROUPS:
        rows = [row for row in rows if ":" in row.group or row.group == "overall"]
    table = Table(title=f"{result.benchmark} · {result.primary_metric}", title_justify="left")
    table.add_column("group", overflow="fold")
    table.add_column(f"{result.primary_metric} [95% CI]", justify="right", no_wrap=True)
    table.add_column("n", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(row.group, interval_text(row), str(row.n or ""), style="bold" if row.group == "overall" else "")
    return table
