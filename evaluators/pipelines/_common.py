"""What every generator shares: a model made ready (retries, response cache), bounded concurrency, a progress bar.

Any backend of evaluators.models works (get_model spec strings); responses go through the run cache
(evaluators.harness.cache), so rerunning a pipeline, or resuming it after a kill, asks the model only what it has not
answered yet. The agent baselines (random, oracle) play ShoppingBench episodes and write no text, so they are refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from evaluators.harness.backend import PreparedModel, is_baseline, prepare_model
from evaluators.models import ChatMessage, GenerateConfig, ModelOptions, ModelSpecError

T = TypeVar("T")


@dataclass(frozen=True)
class ModelSettings:
    """How a generator's model is built: the spec, backend options and whether responses are cached."""

    spec: str
    n_gpu_layers: int = 0
    n_ctx: int = 8192
    cache: bool = True
    cache_path: Path | None = None
    temperature: float = 0.0
    max_tokens: int = 512


def open_model(settings: ModelSettings) -> PreparedModel:
    """The backend behind retries and the response cache; a baseline spec is a clear error."""
    prepared = prepare_model(settings.spec, ModelOptions(n_gpu_layers=settings.n_gpu_layers, n_ctx=settings.n_ctx),
                             cache=settings.cache, cache_path=settings.cache_path)
    if is_baseline(prepared.base):
        raise ModelSpecError(f"{settings.spec!r} is an agent baseline that writes no text; the generators need a "
                             "language model (llama-cpp:..., openai:..., anthropic:..., openai-compatible:...)")
    return prepared


async def complete(prepared: PreparedModel, user: str, settings: ModelSettings, *, system: str | None = None,
                   max_tokens: int | None = None, attempt: int = 0) -> str:
    """One chat turn, text only. A later `attempt` samples again (another seed, at least temperature 0.7), so a
    retry after an unusable answer is not served the same answer from the cache."""
    messages = ([ChatMessage(role="system", content=system)] if system else []) + [
        ChatMessage(role="user", content=user)]
    temperature = settings.temperature if attempt == 0 else max(settings.temperature, 0.7)
    config = GenerateConfig(temperature=temperature, max_tokens=max_tokens or settings.max_tokens, seed=attempt)
    output = await prepared.model.generate(messages, None, config)
    return output.text or ""


class GenerationProgress:
    """A rich progress bar over the inputs of one pipeline stage (silent when disabled)."""

    def __init__(self, label: str, total: int, resumed: int = 0, *, enabled: bool = True,
                 console: Console | None = None) -> None:
        self.enabled = enabled
        self._progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[status]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                  console=console or Console(stderr=True), transient=False)
        self._task: Any = None
        self.label, self.total, self.resumed = label, total, resumed

    def __enter__(self) -> GenerationProgress:
        if self.enabled:
            self._progress.start()
            status = f"{self.resumed} resumed" if self.resumed else ""
            self._task = self._progress.add_task(self.label, total=self.total, completed=self.resumed, status=status)
        return self

    def advance(self, status: str = "") -> None:
        if self.enabled:
            self._progress.update(self._task, advance=1, status=status)

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._progress.stop()


async def bounded(items: Iterable[T], worker: Callable[[T], Awaitable[None]], concurrency: int) -> None:
    """Run `worker` on every item with at most `concurrency` in flight; the first error cancels the rest."""
    semaphore = asyncio.Semaphore(max(1, concurrency))

    async def one(item: T) -> None:
        async with semaphore:
            await worker(item)

    try:
        async with asyncio.TaskGroup() as group:
            for item in items:
                group.create_task(one(item))
    except BaseExceptionGroup as group_error:
        raise first_error(group_error) from None


def first_error(error: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) exception groups, so callers see what failed."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error
