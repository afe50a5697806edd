"""Stopping a run in order on SIGINT or SIGTERM.

While episodes are being played, the first signal cancels the run's task: the workers close their sessions (the
server ends the episodes in flight as abandoned, or leaves them without an end, and either way `--resume` plays them
again), threads still computing (llama.cpp, Lucene) are waited for, and the run raises RunInterrupted. A second
signal acts as it would without this (KeyboardInterrupt, or termination). The JVM leaves these signals to Python
(-Xrs, mcp_server.shopping.search.lucene_runtime).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("shopbench.runs")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stop_on_signals() -> Iterator[list[str]]:
    """While inside: the first SIGINT or SIGTERM cancels the current task (the run) and is named in the yielded list;
    after it, both signals have their default effect again (a second Ctrl-C raises KeyboardInterrupt at once).
    Outside the main thread, or where the loop cannot take signals, nothing is installed."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    received: list[str] = []
    installed: list[signal.Signals] = []

    def restore() -> None:
        while installed:
            loop.remove_signal_handler(installed.pop())  # SIGINT → KeyboardInterrupt, SIGTERM → terminate

    def on_signal(number: signal.Signals) -> None:
        if not received and task is not None:
            received.append(number.name)
            log.info("%s: stopping the run in order (%s again to force)", number.name, number.name)
            task.cancel()
        restore()

    if task is not None:
        for number in STOP_SIGNALS:
            try:
                loop.add_signal_handler(number, on_signal, number)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
                continue
            installed.append(number)
    try:
        yield received
    finally:
        restore()


async def wait_for_threads() -> None:
    """Let work already handed to the loop's threads (a llama.cpp step) finish before the model is closed: freeing
    it under a running computation is what crashed the process. (Lucene calls go through anyio threads, which a
    cancelled caller already waits for.) The loop's default executor takes no new work afterwards."""
    await asyncio.get_running_loop().shutdown_default_executor()

