"""Trajectory statistics of the paper's App. F and their correlation with success.

The paper counts, per trajectory, seven behaviours (steps, output tokens per step, search queries, page turns,
in-shop searches, product views, web searches) and correlates each with absolute success per intent (its Fig. 5:
product views matter for every intent, web searches for knowledge, in-shop searches for multi-product shops). The
counts come from the tool calls a trajectory records, so they exist for models, MCP clients and humans alike;
output tokens exist only where the agent reported usage. Malformed model turns count as steps but as no call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from evaluators.results.stats import Correlation, pearson
from mcp_server.trajectory import StepEvent, Trajectory

INVALID_CALL_TOOL = "invalid_tool_call"
"""The tool name older runs recorded malformed model turns under."""

STATISTICS: dict[str, str] = {
    "steps": "#Steps",
    "output_tokens_per_step": "#Output tokens / step",
    "search_queries": "#Search query",
    "page_turns": "#Page turning",
    "shop_searches": "#Search in shop",
    "product_views": "#View product information",
    "web_searches": "#Web search",
}
"""Field name → the paper's label."""


class TrajectoryStats(BaseModel):
    """The App. F counts of one episode, plus what it cost."""

    steps: int
    output_tokens_per_step: float | None
    search_queries: int
    """find_product calls."""
    page_turns: int
    """find_product calls asking for a page after the first that the sandbox ran (a rejected call, e.g. page 9 of
    at most 5, turned no page)."""
    shop_searches: int
    """find_product calls restricted to one shop (a non-empty shop_id)."""
    product_views: int
    """view_product_information calls."""
    web_searches: int
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    latency_s: float | None = None
    """Model time summed over the steps that reported it."""
    wall_s: float | None = None
    """From the start event to the end event (None for an unfinished episode)."""


def trajectory_stats(trajectory: Trajectory) -> TrajectoryStats:
    """Count what one episode did."""
    calls = [s for s in trajectory.steps if not _malformed(s)]
    searches = [s for s in calls if s.tool == "find_product"]
    usages = [s.usage for s in trajectory.steps if s.usage is not None]
    output_tokens = _total([u.output_tokens for u in usages])
    counted_steps = sum(1 for u in usages if u.output_tokens is not None)
    return TrajectoryStats(
        steps=len(trajectory.steps),
        output_tokens_per_step=output_tokens / counted_steps if output_tokens is not None and counted_steps else None,
        search_queries=len(searches),
        page_turns=sum(1 for s in searches if not s.is_error and _as_int(s.arguments.get("page")) > 1),
        shop_searches=sum(1 for s in searches if str(s.arguments.get("shop_id") or "").strip()),
        product_views=sum(1 for s in calls if s.tool == "view_product_information"),
        web_searches=sum(1 for s in calls if s.tool == "web_search"),
        input_tokens=_total([u.input_tokens for u in usages]),
        output_tokens=output_tokens,
        cost_usd=_total([u.cost_usd for u in usages]),
        latency_s=_total([u.latency_s for u in usages]),
        wall_s=(trajectory.end.ended_at - trajectory.start.started_at).total_seconds() if trajectory.end else None,
    )


def _malformed(step: StepEvent) -> bool:
    """A model turn that was no tool call (recorded as `malformed`, or by older runs as tool "invalid_tool_call")."""
    return step.malformed is not None or step.tool == INVALID_CALL_TOOL


Number = TypeVar("Number", int, float)


def _total(values: Sequence[Number | None]) -> Number | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _as_int(value: object) -> int:
    """A recorded argument (a JSON value) as an int; 0 for what int() refuses (lists, objects, null, words)."""
    if not isinstance(value, int | float | str):
        return 0
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def correlations(stats: Sequence[TrajectoryStats], successes: Sequence[bool]) -> dict[str, Correlation]:
    """Pearson's r of each App. F statistic with success (0/1) over the given episodes; episodes without a value
    for a statistic (no reported tokens) are left out of that statistic only."""
    result = {}
    for name in STATISTICS:
        pairs = [(getattr(s, name), float(ok)) for s, ok in zip(stats, successes, strict=True)]
        pairs = [(x, y) for x, y in pairs if x is not None]
        result[name] = pearson([x for x, _ in pairs], [y for _, y in pairs])
    return result
