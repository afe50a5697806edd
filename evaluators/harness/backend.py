"""A backend made ready for a run: retries with backoff around it, the response cache around that.

Shared by every benchmark's runner. Baselines are used bare (nothing to retry, nothing worth caching).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluators.harness.cache import CachedModel, ResponseCache
from evaluators.harness.retry import RetryingModel, RetryPolicy, RetryStats
from evaluators.models import ModelOptions, get_model
from evaluators.models.base import ModelAPI
from evaluators.players import baselines  # noqa: F401  (registers the baselines as model specs: --model oracle)
from mcp_server.trajectory import AgentInfo, AgentKind


@dataclass
class PreparedModel:
    model: ModelAPI
    """What the episodes call."""
    base: ModelAPI
    """The backend itself (identity, per-episode binding of baselines)."""
    retry_stats: RetryStats
    cached: CachedModel | None = None

    def counters(self) -> dict[str, Any]:
        """Retry and cache counts for the run manifest's notes."""
        counts: dict[str, Any] = {"retries": self.retry_stats.retries, "gave_up": self.retry_stats.gave_up}
        if self.retry_stats.errors:
            counts["transient_errors"] = self.retry_stats.errors
        if self.cached is not None:
            counts |= {"cache_hits": self.cached.hits, "cache_misses": self.cached.misses,
                       "cache_path": str(self.cached.cache.path)}
        return counts

    def agent(self) -> AgentInfo:
        """Who plays: a baseline says so itself (the oracle is labelled as reading the gold), a model is its spec
        and identity."""
        if is_baseline(self.base):
            agent: AgentInfo = self.base.agent()  # type: ignore[attr-defined]  # every baseline has one
            return agent
        return AgentInfo(kind=AgentKind.model, name=self.base.spec, details=self.base.identity())

    async def aclose(self) -> None:
        await self.model.aclose()
        if self.cached is not None:
            self.cached.cache.close()


def is_baseline(model: ModelAPI) -> bool:
    return bool(getattr(model, "is_baseline", False))


def prepare_model(
    spec: str,
    options: ModelOptions | None = None,
    *,
    cache: bool = True,
    cache_path: Path | None = None,
    retry: RetryPolicy | None = None,
) -> PreparedModel:
    base = get_model(spec, options)
    stats = RetryStats()
    if is_baseline(base):
        return PreparedModel(base, base, stats)
    model: ModelAPI = RetryingModel(base, retry, stats)
    cached = None
    if cache:
        cached = CachedModel(model, ResponseCache(cache_path))
        model = cached
    return PreparedModel(model, base, stats, cached)
