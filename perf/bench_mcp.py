"""MCP round-trip overhead per tool call: direct Python, in-memory MCP, stdio and streamable HTTP.

Run: .venv/bin/python perf/bench_mcp.py [--calls N]
Prints p50/p99 latency (ms) of `find_product` (with a price filter and a sort) and of a trivial `calculate`, on the
default world. Every call inside an episode is recorded to its trajectory (one fsync'd line), as in real runs;
"sandbox only" is the bare tool without an episode.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from mcp_server.http_launch import free_port, wait_until_listening  # noqa: E402 - after the path set-up above

CALLS = {
    "find_product": {"q": "shirt cotton", "page": 1, "price": "100-", "sort": "priceasc"},
    "calculate": {"expression": "1+1"},
}
MAX_STEPS = 10**9


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


def time_sync(call: Callable[[], Any], n: int) -> list[float]:
    for _ in range(10):
        call()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


async def time_async(call: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    for _ in range(10):
        await call()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return samples


async def bench_client(client: Any, n: int) -> dict[str, list[float]]:
    listing = await client.call_tool("list_tasks", {})
    task_id = listing.structured_content["tasks"][0]["task_id"]
    started = await client.call_tool("start_task", {"task_id": task_id})
    assert not started.is_error, started.content
    results = {}
    for tool, arguments in CALLS.items():
        async def call(tool: str = tool, arguments: dict = arguments) -> None:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result.content
        results[tool] = await time_async(call, n)
    return results


def serve_command(runs: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "shopbench.cli", "serve", "--runs", str(runs), "--max-steps", str(MAX_STEPS),
            *extra]


async def main(n: int) -> None:
    from mcp import Client, StdioServerParameters

    from mcp_server.episodes import Episode
    from mcp_server.server import build_server
    from mcp_server.shopping.suite import ShoppingSuite
    from mcp_server.shopping.tools import Sandbox
    from mcp_server.shopping.world import GENERATED_SET
    from mcp_server.shopping.world_build import default_world
    from mcp_server.trajectory import AgentInfo

    world = default_world()
    suite = ShoppingSuite(world, GENERATED_SET)
    runs = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    rows: dict[str, dict[str, list[float]]] = {}

    sandbox = Sandbox.for_world(world)
    rows["sandbox only (Python)"] = {tool: time_sync(lambda t=tool, a=args: sandbox.call(t, a), n)
                                     for tool, args in CALLS.items()}
    episode = Episode(runs / "direct", suite, suite.listings()[0].task_id, agent=AgentInfo(kind="baseline", name="b"),
                      sandbox=sandbox, max_steps=MAX_STEPS)
    rows["episode (Python)"] = {tool: time_sync(lambda t=tool, a=args: episode.call(t, a), n)
                                for tool, args in CALLS.items()}

    server = build_server(world, [suite], runs / "memory", max_steps=MAX_STEPS)
    async with Client(server, mode="legacy") as client:
        rows["in-memory MCP"] = await bench_client(client, n)

    stdio = StdioServerParameters(command=sys.executable, args=serve_command(runs / "stdio")[1:], env=dict(os.environ))
    async with Client(stdio, read_timeout_seconds=600) as client:
        rows["stdio MCP"] = await bench_client(client, n)

    port = free_port()
    process = subprocess.Popen(serve_command(runs / "http", "--transport", "http", "--port", str(port)),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_listening(process, port)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            rows["streamable HTTP MCP"] = await bench_client(client, n)
    finally:
        process.terminate()
        process.wait(timeout=30)

    print(f"MCP round trip per tool call on the default world ({world.info.products} products), {n} calls each")
    print(f"{'transport':<24}" + "".join(f"{tool + ' p50/p99 ms':>30}" for tool in CALLS))
    for name, samples in rows.items():
        cells = "".join(f"{'{:.2f} / {:.2f}'.format(*percentiles(samples[tool])):>30}" for tool in CALLS)
        print(f"{name:<24}{cells}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    anyio.run(main, parser.parse_args().calls)
