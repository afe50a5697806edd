"""Model calls on one keep-alive connection to the model bridge: how long each takes once the connection is open.

Run: .venv/bin/python perf/bench_keepalive.py [--rounds N]
Agents keep one connection open to the bridge. A server socket without TCP_NODELAY made every call after the first
wait for the client's delayed ACK (40 ms on Linux: 10 calls took over 360 ms); the bridge's socket
(mcp_server.loopback) says TCP, so asyncio sets TCP_NODELAY and a call takes a few ms. Each round opens a client,
makes one call to open the connection, then times 10 more on it; the model answers at once. Prints the median and
p99 per call (ms), the median round of 10 calls (target: under 200 ms, far below 10 delayed ACKs), and how many calls
took 35 ms or more (a delayed ACK's mark).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evaluators.bridge import ModelBridge  # noqa: E402 - after the path set-up above
from evaluators.models import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolSpec  # noqa: E402

HELLO = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "hello"}]}
CALLS = 10
DELAYED_ACK_S = 0.035


class Instant(ModelAPI):
    """Answers at once: what a call takes is the bridge's and the sockets'."""

    spec = "instant"

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        return ModelOutput(text="hi", model=self.spec)


async def main(rounds: int) -> None:
    calls: list[float] = []
    totals: list[float] = []
    async with ModelBridge() as bridge:
        episode = bridge.open_episode(Instant())
        url, body = f"{episode.base_url}/v1/messages", json.dumps(HELLO)
        for _ in range(rounds):
            async with httpx.AsyncClient() as client:
                (await client.post(url, content=body)).raise_for_status()  # opens the connection
                began = time.perf_counter()
                for _ in range(CALLS):
                    start = time.perf_counter()
                    (await client.post(url, content=body)).raise_for_status()
                    calls.append(time.perf_counter() - start)
                totals.append(time.perf_counter() - began)
    p99 = statistics.quantiles(calls, n=100)[98] if len(calls) >= 2 else calls[0]
    slow = sum(1 for call in calls if call >= DELAYED_ACK_S)
    print(f"{len(calls)} keep-alive calls in {rounds} rounds of {CALLS}: per call p50 "
          f"{statistics.median(calls) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms; a round of {CALLS}: p50 "
          f"{statistics.median(totals) * 1000:.1f} ms (target < 200); calls >= {DELAYED_ACK_S * 1000:.0f} ms: {slow}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    asyncio.run(main(parser.parse_args().rounds))
