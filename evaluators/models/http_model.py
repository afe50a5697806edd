"""What the HTTP providers (openai.py, anthropic.py) share: a model behind an official SDK's async client.

Both SDKs name their errors alike, so one place decides what a retry may cure: rate limits, timeouts, lost
connections and 5xx answers become TransientModelError, for the run's retry wrapper to log, count and retry (the
SDKs' own retries are off); anything else is the caller's error and is raised as it is.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any, ClassVar

from evaluators.models.base import ModelAPI, ModelSpecError, TransientModelError


class HTTPModel(ModelAPI):
    """`client` is the SDK's async client, built by the provider with max_retries=0."""

    provider: ClassVar[str]

    def __init__(self, spec: str, model: str, base_url: str | None, client: Any) -> None:
        self.spec, self.model, self.base_url, self.client = spec, model, base_url, client

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, "provider": self.provider, "model": self.model, "base_url": self.base_url}

    async def _send(
        self, sdk: ModuleType, create: Callable[..., Awaitable[Any]], request: dict[str, Any]
    ) -> tuple[Any, float]:
        """The SDK's response to `create(**request)` and its latency in seconds (errors as the module says)."""
        began = time.perf_counter()
        try:
            response = await create(**request)
        except (sdk.RateLimitError, sdk.APITimeoutError, sdk.APIConnectionError) as error:
            raise TransientModelError(f"{self.spec}: {type(error).__name__}: {error}") from error
        except sdk.APIStatusError as error:
            if error.status_code >= 500:
                raise TransientModelError(f"{self.spec}: HTTP {error.status_code}: {error}") from error
            raise
        return response, time.perf_counter() - began

    async def aclose(self) -> None:
        await self.client.close()


def api_key(variable: str, provider: str) -> str:
    """The key in the environment `variable`; a spec for `provider` without one is refused in one line."""
    key = os.environ.get(variable)
    if not key:
        raise ModelSpecError(f"{provider}: set {variable}")
    return key
