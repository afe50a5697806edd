"""Per-episode binding for backends whose behaviour depends on the item (the baselines).

Real models see only the chat. Baselines need more: `random` derives its choices from (seed, episode) so concurrent
episodes stay reproducible, and `oracle` acts from the gold answer. The harness — never the MCP server — hands them
that through `EpisodeContext` by calling `bind_episode`, which returns the model to use for one episode.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from evaluators.models.base import ModelAPI, WrappedModel


@dataclass(frozen=True)
class EpisodeContext:
    episode_id: str
    item_id: str
    """Task id (ShoppingBench) or question id (QA benchmarks)."""
    epoch: int = 0
    seed: int = 0
    gold: Any = None
    """Harness-side ground truth (a ShoppingTask for ShoppingBench); only the oracle reads it."""


class EpisodeBound:
    """Mixin for backends that need the episode: `for_episode` returns a fresh model for that episode alone."""

    def for_episode(self, context: EpisodeContext) -> ModelAPI:
        raise NotImplementedError


def bind_episode(model: ModelAPI, context: EpisodeContext) -> ModelAPI:
    """The model to use for one episode: a per-episode instance for baselines, the shared backend otherwise.
    Wrappers (retries, cache: WrappedModel, whose `inner` is the wrapped model) are copied around the bound inner
    model, so they keep sharing their counters."""
    if isinstance(model, EpisodeBound):
        return model.for_episode(context)
    if isinstance(model, WrappedModel):
        bound = bind_episode(model.inner, context)
        if bound is not model.inner:
            wrapper = copy.copy(model)
            wrapper.inner = bound
            return wrapper
    return model
