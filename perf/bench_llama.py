"""Seconds per step of the embedded SmolLM2-135M (`llama-cpp:smollm2`) as an episode's prompt grows to ~6,000 tokens,
and how many prompt tokens llama.cpp evaluates per step (read from llama.cpp's own perf counters). Target: ≤ 3 s per
step at ~6,000 prompt tokens on 2 cores, with only each step's new turn evaluated.

The episode is the agent loop's message list, grown one step at a time exactly as the loop grows it: the model's
tool call (as the backend parsed it) is appended, then the tool's observation, here a find_product page of 10
product cards shaped like the sandbox's (about 700 tokens of JSON, ~450 once the backend
renders it as a table, as the agent protocol's observation hints say). Decoding is grammar-constrained, as in a run.

Each line shows llama.cpp's prompt-evaluation and decoding rates (tokens per second, from its perf counters) and the
threads the backend chose for the machine's load, and the CPU seconds the step used (with one thread, about what the
step takes on an idle core: a figure that survives a loaded machine better than wall time). Several model specs
run one after the other in one process, for a before/after pair under the same load: e.g.
`llama-cpp:smollm2?shipped` (the Q4_1 file as shipped) against `llama-cpp:smollm2` (its Q8_0 copy, the default).

    python perf/bench_llama.py [TARGET_PROMPT_TOKENS] [SPEC ...]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evaluators.models import ChatMessage, GenerateConfig, ModelOptions, ToolSpec, get_model  # noqa: E402
from evaluators.players.agent.observations import ObservationHints  # noqa: E402
from mcp_server.shopping.tools import SHOPPING_TOOLS  # noqa: E402

WORDS_TEXT = ("wireless bluetooth headphones noise cancelling over ear black stereo bass foldable travel case "
              "usb-c fast charging 40h playtime mic gaming laptop backpack waterproof anti theft 15.6 inch "
              "college school men women stainless steel water bottle insulated 1l leak proof gym sports")
WORDS = WORDS_TEXT.split()


def page_of_products(rng: random.Random, page: int) -> str:
    cards = [{"product_id": str(2449059468 + 97 * page + i), "shop_id": str(3001974 + rng.randrange(400)),
              "title": " ".join(rng.choice(WORDS) for _ in range(rng.randrange(12, 22))).title(),
              "price": round(rng.uniform(5, 300), 2), "service": rng.sample(["official", "freeShipping", "COD"], 2),
              "sold_count": rng.randrange(0, 5000)} for i in range(10)]
    return json.dumps(cards, ensure_ascii=False)


async def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 6000
    summaries = [await episode(spec, target) for spec in sys.argv[2:] or ["llama-cpp:smollm2"]]
    if len(summaries) > 1:
        print("\n".join(summaries))


async def episode(spec: str, target: int) -> str:
    """One episode grown to `target` prompt tokens; returns its summary line."""
    rng = random.Random(0)
    tools = [ToolSpec(name=s.name, description=s.description, parameters=s.arguments.model_json_schema())
             for s in SHOPPING_TOOLS.values()]
    started = time.perf_counter()
    model = get_model(spec, ModelOptions(n_ctx=8192, hints=ObservationHints()))  # the agent protocol's, as in a run
    identity = model.identity()
    config = GenerateConfig(max_tokens=96, temperature=0.0, seed=0)
    messages = [ChatMessage(role="system", content="You are a shopping assistant. Find the product the user wants, "
                                                   "recommend it with recommend_product, then terminate."),
                ChatMessage(role="user", content="I want wireless noise cancelling headphones under 100 dollars "
                                                 "with a long battery life.")]
    print(f"{spec} ({identity['file']}), n_ctx 8192, max_tokens {config.max_tokens}; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at start")
    print("step  prompt tokens  evaluated  reused  generated  seconds  (prompt eval, decode, other)  "
          "prompt tok/s  decode tok/s  CPU s  threads  load")
    rows = []
    step = 0
    while True:
        step += 1
        began, cpu_began = time.perf_counter(), time.process_time()
        output = await model.generate(messages, tools, config)
        seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu_began
        stats = model.last_stats  # type: ignore[attr-defined]
        prompt_s, decode_s = stats["prompt_ms"] / 1000, stats["decode_ms"] / 1000
        prompt_rate = stats["evaluated"] / prompt_s if prompt_s else 0.0
        decode_rate = stats["generated"] / decode_s if decode_s else 0.0
        rows.append((stats["prompt_tokens"], stats["evaluated"], seconds, prompt_rate, decode_rate, cpu_seconds))
        print(f"{step:4d}  {stats['prompt_tokens']:13d}  {stats['evaluated']:9d}  {stats['reused']:6d}  "
              f"{stats['generated']:9d}  {seconds:7.2f}  ({prompt_s:5.2f}, {decode_s:4.2f}, "
              f"{seconds - prompt_s - decode_s:4.2f})  {prompt_rate:12.0f}  {decode_rate:12.1f}  "
              f"{cpu_seconds:5.2f}  {stats['threads']:7d}  {os.getloadavg()[0]:.1f}", flush=True)
        if stats["prompt_tokens"] >= target:
            break
        call = output.tool_calls[0] if output.tool_calls else None
        name = call.name if call and call.name else "find_product"
        arguments = call.arguments if call and call.name else {"q": "headphones", "page": 1}
        messages.append(ChatMessage(role="assistant", content=output.text,
                                    tool_calls=[{"id": f"c{step}", "name": name, "arguments": arguments}]))
        messages.append(ChatMessage(role="tool", content=page_of_products(rng, step), tool_call_id=f"c{step}",
                                    name=name))
    late = [r for r in rows if r[0] >= target * 0.8]
    print(f"total {time.perf_counter() - started:.1f} s including the model load")
    summary = (f"{spec}: steps with a prompt of ≥ {int(target * 0.8)} tokens: median "
               f"{statistics.median(r[2] for r in late):.2f} s per step (target ≤ 3 s; CPU "
               f"{statistics.median(r[5] for r in late):.2f} s), median "
               f"{statistics.median(r[1] for r in late):.0f} prompt tokens evaluated per step of a median "
               f"{statistics.median(r[0] for r in late):.0f}, prompt eval {statistics.median(r[3] for r in late):.0f} "
               f"tok/s, decode {statistics.median(r[4] for r in late):.1f} tok/s; first step {rows[0][2]:.2f} s "
               f"({rows[0][1]} tokens evaluated); load average {os.getloadavg()[0]:.1f}")
    print(summary, flush=True)
    return summary


if __name__ == "__main__":
    asyncio.run(main())
