"""Rollout clients in separate processes, each holding many MCP sessions to one `shopbench serve --transport http`,
as the episodes of an RL trainer's rollout workers do; shared by tests/test_http_rollouts.py and
perf/bench_rollouts.py.

A worker (`python -m tests._rollouts URL --sessions N --calls C --prefix P`) opens its N sessions with the official
client, starts an episode on each (ids P-0 … P-(N-1)) and prints `{"ready": N}`; at a line `go` on its stdin it plays
C tool calls in every episode at once (find_product, view_product_information, calculate in turn) and prints
`{"latencies": [seconds per call], "errors": [...]}`; then it waits, sessions open, until it is killed: a rollout
worker that dies abandons its sessions without closing them, which the server must reap.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import IO, Any

import anyio

REPO = Path(__file__).resolve().parent.parent
QUERIES = ("shirt", "cotton dress", "running shoes", "phone case", "backpack", "wireless earbuds", "desk lamp", "mug")


class RolloutWorkers:
    """`processes` worker processes of `sessions` sessions each against `url`; each method waits for all of them."""

    def __init__(self, url: str, *, processes: int, sessions: int, calls: int, prefix: str = "rollout") -> None:
        self.processes = [
            subprocess.Popen([sys.executable, "-m", "tests._rollouts", url, "--sessions", str(sessions), "--calls",
                              str(calls), "--prefix", f"{prefix}{number}"], cwd=REPO, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
            for number in range(processes)
        ]

    def ready(self) -> int:
        """The sessions opened, each with its episode started, once every worker has opened all of its."""
        return sum(self._reply(process)["ready"] for process in self.processes)

    def play(self) -> tuple[list[float], list[str]]:
        """Every episode's calls, all at once: (the latency of each call in seconds, the errors)."""
        for process in self.processes:
            stdin: IO[str] | None = process.stdin
            assert stdin is not None
            stdin.write("go\n")
            stdin.flush()
        latencies: list[float] = []
        errors: list[str] = []
        for process in self.processes:
            played = self._reply(process)
            latencies += played["latencies"]
            errors += played["errors"]
        return latencies, errors

    def kill(self) -> None:
        """SIGKILL every worker: its sessions are left open, never closed."""
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait(timeout=30)

    @staticmethod
    def _reply(process: subprocess.Popen[str]) -> dict[str, Any]:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"a rollout worker exited with code {process.wait(timeout=30)} before answering")
        reply = dict(json.loads(line))
        if "failed" in reply:
            raise RuntimeError(f"a rollout worker failed: {reply['failed']}")
        return reply


async def _episode(client: Any, number: int, calls: int, latencies: list[float], errors: list[str]) -> None:
    product = "none"
    for step in range(calls):
        tool, arguments = [
            ("find_product", {"q": QUERIES[(number + step) % len(QUERIES)], "page": 1}),
            ("view_product_information", {"product_ids": product}),
            ("calculate", {"expression": f"{number} * {step} + 1"}),
        ][step % 3]
        began = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        latencies.append(time.perf_counter() - began)
        if result.is_error:
            errors.append(f"{tool}: {result.content}")
        elif tool == "find_product" and result.structured_content["result"]:
            product = result.structured_content["result"][0]["product_id"]


async def _work(url: str, sessions: int, calls: int, prefix: str) -> None:
    from mcp import Client

    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(url, read_timeout_seconds=300)) for _ in range(sessions)]

        async def start(number: int, client: Any) -> None:
            listed = await client.call_tool("list_tasks", {"benchmark": "shoppingbench", "limit": 50})
            tasks = listed.structured_content["tasks"]
            started = await client.call_tool("start_task", {"task_id": tasks[number % len(tasks)]["task_id"],
                                                            "episode_id": f"{prefix}-{number}"})
            assert not started.is_error, started.content

        async with anyio.create_task_group() as group:
            for number, client in enumerate(clients):
                group.start_soon(start, number, client)
        print(json.dumps({"ready": len(clients)}), flush=True)
        await anyio.to_thread.run_sync(sys.stdin.readline)
        latencies: list[float] = []
        errors: list[str] = []
        async with anyio.create_task_group() as group:
            for number, client in enumerate(clients):
                group.start_soon(_episode, client, number, calls, latencies, errors)
        print(json.dumps({"latencies": latencies, "errors": errors}), flush=True)
        await anyio.sleep_forever()  # until killed: the sessions are abandoned, not closed


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--sessions", type=int, required=True)
    parser.add_argument("--calls", type=int, required=True)
    parser.add_argument("--prefix", required=True)
    options = parser.parse_args()
    try:
        anyio.run(_work, options.url, options.sessions, options.calls, options.prefix)
    except Exception as error:  # the first failure, for the driver's one line (anyio nests it in groups)
        while isinstance(error, ExceptionGroup):
            error = error.exceptions[0]
        print(json.dumps({"failed": f"{type(error).__name__}: {error}"}), flush=True)
        sys.exit(1)
