"""The model bridge's added latency per model call, for each wire format, streaming and not.

Run: .venv/bin/python perf/bench_bridge.py [--calls N]
An agent-sized request (an 8 kB system prompt, 9 shopbench tools and 8 of the agent's own, 10 earlier turns with
1.5 kB observations) is posted from another process (as an installed agent would: a keep-alive HTTP client) to a
bridge whose model answers at once with a tool call. Prints p50/p99 (ms) of the whole round trip, of calling the
same model directly with the same chat, their difference (the bridge's added latency, target p50 <= 2 ms), and the
bridge's own handling time as its ledger records it (reading, translating, the model, writing; no socket time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evaluators.bridge import ModelBridge  # noqa: E402 - after the path set-up above
from evaluators.bridge._server import WIRES  # noqa: E402
from evaluators.bridge._tool_names import ToolNames  # noqa: E402
from evaluators.bridge._wire import name_tool_results  # noqa: E402
from evaluators.models import (  # noqa: E402
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    TokenUsage,
    ToolCall,
    ToolSpec,
)

SHOPBENCH = ["find_product", "view_product_information", "calculate", "web_search", "recommend_product", "terminate",
             "list_tasks", "start_task", "submit_answer"]
AGENT_OWN = ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "Agent"]
SCHEMA = {"type": "object", "properties": {"q": {"type": "string", "description": "what to search for " * 5},
                                           "page": {"type": "integer", "minimum": 1, "maximum": 5}},
          "required": ["q"]}
SYSTEM = "You are an agent that shops carefully. " * 210  # ~8 kB, the size of an agent's system prompt
OBSERVATION = json.dumps([{"product_id": str(1000 + i), "title": "red cotton t-shirt " * 4, "price": 99.5}
                          for i in range(10)])  # ~1.5 kB
TURNS = 10


class Instant(ModelAPI):
    """Answers every call at once with one find_product call: what is left of a call is the bridge's own work."""

    spec = "instant"

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        call = ToolCall(id=f"call_{len(messages)}", name="find_product", arguments={"q": "red shirt", "page": 1})
        return ModelOutput(text="searching", tool_calls=[call], usage=TokenUsage(input_tokens=9000, output_tokens=20),
                           model="instant")


def anthropic_body(stream: bool) -> dict[str, Any]:
    tools = [{"name": f"mcp__shopbench__{n}", "description": n, "input_schema": SCHEMA} for n in SHOPBENCH]
    tools += [{"name": n, "description": n, "input_schema": SCHEMA} for n in AGENT_OWN]
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Find me a red cotton t-shirt under 300 pesos."}]
    for turn in range(TURNS):
        messages += [
            {"role": "assistant", "content": [
                {"type": "text", "text": "searching"},
                {"type": "tool_use", "id": f"t{turn}", "name": "mcp__shopbench__find_product",
                 "input": {"q": "red shirt", "page": 1}},
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{turn}",
                                          "content": [{"type": "text", "text": OBSERVATION}]}]},
        ]
    return {"model": "m", "max_tokens": 1024, "system": [{"type": "text", "text": SYSTEM}], "tools": tools,
            "messages": messages, "stream": stream}


def chat_body(stream: bool) -> dict[str, Any]:
    tools = [{"type": "function", "function": {"name": f"mcp__shopbench__{n}", "description": n, "parameters": SCHEMA}}
             for n in SHOPBENCH]
    tools += [{"type": "function", "function": {"name": n, "description": n, "parameters": SCHEMA}} for n in AGENT_OWN]
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM},
                                      {"role": "user", "content": "Find me a red cotton t-shirt under 300 pesos."}]
    for turn in range(TURNS):
        messages += [
            {"role": "assistant", "content": "searching", "tool_calls": [
                {"id": f"t{turn}", "type": "function",
                 "function": {"name": "mcp__shopbench__find_product", "arguments": '{"q": "red shirt", "page": 1}'}}]},
            {"role": "tool", "tool_call_id": f"t{turn}", "content": OBSERVATION},
        ]
    return {"model": "m", "messages": messages, "tools": tools, "stream": stream,
            **({"stream_options": {"include_usage": True}} if stream else {})}


def responses_body(stream: bool) -> dict[str, Any]:
    tools: list[dict[str, Any]] = [{"type": "function", "name": n, "description": n, "parameters": SCHEMA}
                                   for n in AGENT_OWN]
    tools.append({"type": "namespace", "name": "mcp__shopbench", "description": "shopbench",
                  "tools": [{"type": "function", "name": n, "description": n, "parameters": SCHEMA}
                            for n in SHOPBENCH]})
    items: list[dict[str, Any]] = [
        {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": SYSTEM}]},
        {"type": "message", "role": "user",
         "content": [{"type": "input_text", "text": "Find me a red cotton t-shirt under 300 pesos."}]},
    ]
    for turn in range(TURNS):
        items += [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "searching"}]},
            {"type": "function_call", "call_id": f"t{turn}", "namespace": "mcp__shopbench", "name": "find_product",
             "arguments": '{"q": "red shirt", "page": 1}'},
            {"type": "function_call_output", "call_id": f"t{turn}", "output": OBSERVATION},
        ]
    return {"model": "m", "input": items, "tools": tools, "store": False, "stream": stream}


CASES = {
    "anthropic-messages": ("/v1/messages", "messages", anthropic_body),
    "openai-chat": ("/v1/chat/completions", "chat/completions", chat_body),
    "openai-responses": ("/v1/responses", "responses", responses_body),
}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


def client(base_url: str, calls: int) -> None:
    """The agent's side, in its own process: post each case `calls` times on one keep-alive connection. TCP_NODELAY
    as the agents' HTTP stacks set it (Node's http, Bun, reqwest); without it the body, written after the head,
    waits for the server's delayed ACK (40 ms)."""
    import socket

    import httpx

    timings: dict[str, list[float]] = {}
    transport = httpx.HTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    with httpx.Client(timeout=30, transport=transport) as http:
        for name, (path, _, body_for) in CASES.items():
            for stream in (False, True):
                body = json.dumps(body_for(stream)).encode()
                samples = []
                for index in range(calls + 20):
                    began = time.perf_counter()
                    response = http.post(base_url + path, content=body, headers={"content-type": "application/json"})
                    response.read()
                    elapsed = time.perf_counter() - began
                    if response.status_code != 200:
                        raise SystemExit(f"{name}: HTTP {response.status_code}: {response.text[:300]}")
                    if index >= 20:
                        samples.append(elapsed)
                timings[f"{name}{' stream' if stream else ''}"] = samples
    print(json.dumps(timings))


async def direct_timings(calls: int) -> dict[str, list[float]]:
    """The same chat, translated once, handed straight to the model."""
    model = Instant()
    out: dict[str, list[float]] = {}
    for name, (_, wire_path, body_for) in CASES.items():
        asked = WIRES[wire_path].parse(body_for(False))
        names = ToolNames(asked.tools)
        messages = names.canonical_messages(name_tool_results(asked.messages))
        samples = []
        for index in range(calls + 20):
            began = time.perf_counter()
            await model.generate(messages, names.model_tools, asked.config)
            if index >= 20:
                samples.append(time.perf_counter() - began)
        out[name] = samples
    return out


async def main(calls: int) -> None:
    direct = await direct_timings(calls)
    async with ModelBridge() as bridge:
        episode = bridge.open_episode(Instant())
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", episode.base_url, "--calls", str(calls),
            stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO)})
        stdout, _ = await process.communicate()
        if process.returncode != 0:
            raise SystemExit("the client process failed")
        round_trips: dict[str, list[float]] = json.loads(stdout)
    handled: dict[str, list[float]] = {}
    for call in episode.ledger.calls:
        handled.setdefault(f"{call.wire}{' stream' if call.stream else ''}", []).append(call.wall_s)
    print(f"model bridge, {calls} calls per case (after 20 warm-up), an agent-sized request "
          f"({len(json.dumps(anthropic_body(False))) // 1024} kB Anthropic body); ms")
    print(f"{'case':<28}{'round trip p50/p99':>20}{'direct p50/p99':>18}{'added p50':>11}{'in bridge p50/p99':>20}")
    worst = 0.0
    for case, samples in round_trips.items():
        trip = percentiles(samples)
        straight = percentiles(direct[case.removesuffix(" stream")])
        inside = percentiles(handled[case][20:])
        added = trip[0] - straight[0]
        worst = max(worst, added)
        print(f"{case:<28}{trip[0]:>9.2f} /{trip[1]:>7.2f}{straight[0]:>9.3f} /{straight[1]:>6.3f}{added:>11.2f}"
              f"{inside[0]:>11.2f} /{inside[1]:>6.2f}")
    print(f"worst added p50: {worst:.2f} ms (target <= 2 ms): {'met' if worst <= 2 else 'NOT met'}")
    print(f"machine load (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}, cpus: {os.cpu_count()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client(args.client, args.calls)
    else:
        asyncio.run(main(args.calls))
