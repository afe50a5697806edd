"""Retries with exponential backoff and jitter for transient model errors (429, 5xx, timeouts).

Every retry is logged and counted, and the count goes into the run manifest, so a result reached through a flaky
API says so.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field

from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ToolSpec,
    TransientModelError,
    WrappedModel,
)

log = logging.getLogger("shopbench.retry")


@dataclass
class RetryPolicy:
    max_retries: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    jitter: float = 0.25
    """Each delay is multiplied by a random factor in [1 - jitter, 1 + jitter] so parallel workers spread out."""

    def delay(self, attempt: int, rng: random.Random) -> float:
        raw = min(self.max_delay_s, self.base_delay_s * 2**attempt)
        return raw * rng.uniform(1 - self.jitter, 1 + self.jitter)


@dataclass
class RetryStats:
    retries: int = 0
    gave_up: int = 0
    errors: list[str] = field(default_factory=list)
    """The last few transient error messages, for the manifest."""


class RetryingModel(WrappedModel):
    """Wraps a backend; transient errors are retried up to `policy.max_retries` times, then re-raised."""

    def __init__(self, inner: ModelAPI, policy: RetryPolicy | None = None, stats: RetryStats | None = None) -> None:
        super().__init__(inner)
        self.policy = policy or RetryPolicy()
        self.stats = stats or RetryStats()
        self._rng = random.Random()

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        attempt = 0
        while True:
            try:
                return await self.inner.generate(messages, tools, config)
            except TransientModelError as error:
                if attempt >= self.policy.max_retries:
                    self.stats.gave_up += 1
                    log.error("giving up after %d retries: %s", attempt, error)
                    raise
                delay = self.policy.delay(attempt, self._rng)
                attempt += 1
                self.stats.retries += 1
                self.stats.errors = [*self.stats.errors[-9:], str(error)[:300]]
                log.warning("transient error (retry %d in %.1fs): %s", attempt, delay, error)
                await asyncio.sleep(delay)
