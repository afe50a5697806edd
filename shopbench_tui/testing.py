"""Synthetic runs in the trajectory format, for replay tests and perf/bench_tui.py.

They are built with the trajectory models and writer themselves, so they are exactly what a real run leaves on
disk: product lists, product details, web pages and calculator results as observations, thoughts on every step.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mcp_server.trajectory import (
    AgentInfo,
    AgentKind,
    EndEvent,
    RunManifest,
    StartEvent,
    StepEvent,
    TrajectoryWriter,
    episode_path,
    write_manifest,
)

_INTENTS = ("product", "shop", "voucher", "web")
_WORDS = ("wireless", "earbuds", "cotton", "shirt", "rice", "cooker", "leather", "wallet", "gaming", "mouse",
          "stainless", "bottle", "yoga", "mat", "led", "lamp", "baby", "stroller", "phone", "case")
_CLOCK = datetime(2026, 1, 1, tzinfo=UTC)


def _product(rng: random.Random, number: int) -> dict:
    title = " ".join(rng.sample(_WORDS, 4)).title()
    return {"product_id": f"p{number:07d}", "shop_id": f"s{rng.randrange(300):04d}", "title": title,
            "price": round(rng.uniform(50, 5000), 2), "service": rng.sample(["official", "COD", "freeShipping"], 2),
            "sold_count": rng.randrange(10_000)}


def _step(rng: random.Random, index: int, last: bool) -> StepEvent:
    at = _CLOCK + timedelta(seconds=5 * index)
    kind = "recommend" if last else ("find", "view", "web", "calc")[index % 4]
    observation: Any
    if kind == "find":
        tool, args = "find_product", {"q": " ".join(rng.sample(_WORDS, 2)), "page": 1, "sort": "priceasc"}
        observation = [_product(rng, rng.randrange(10**6)) for _ in range(10)]
    elif kind == "view":
        product = _product(rng, rng.randrange(10**6))
        product.update(short_description="A short description.", description="A longer description. " * 20,
                       sku_options={"1": {"color": "black", "size": "m"}, "2": {"color": "white", "size": "l"}},
                       attributes={"material": ["cotton"], "brand": ["acme"]})
        tool, args, observation = "view_product_information", {"product_ids": product["product_id"]}, [product]
    elif kind == "web":
        tool, args = "web_search", {"q": "who makes " + rng.choice(_WORDS), "max_results": 3}
        observation = [{"url": f"https://example.org/{n}", "title": f"Page {n}", "content": "Some facts. " * 10}
                       for n in range(3)]
    elif kind == "calc":
        tool, args, observation = "calculate", {"expression": "120 + 89.5"}, 209.5
    else:
        tool, args, observation = "recommend_product", {"product_ids": "p0000001"}, "Recommended: p0000001"
    return StepEvent(index=index, tool=tool, arguments=args, observation=observation,
                     thought=f"Step {index}: I should use {tool}.", started_at=at, ended_at=at + timedelta(seconds=1))


VOUCHER_RULES = ("\n\nMy budget is only `525`, but I have a voucher with the following rules:\n1. The voucher "
                 "applies to all products.\n2. It is valid only when the total price of the products exceeds "
                 "`368`.\n3. It provides a percentage discount of `30%` with a cap of `115`.")
"""A voucher task's rules as the world generator writes them (budget, three rules): eight lines at 80 columns."""


def write_synthetic_run(run_dir: Path, episodes: int, steps: int, *, agent: str = "synthetic", seed: int = 0,
                        kind: AgentKind = AgentKind.model, voucher_rules: bool = False) -> Path:
    """A ShoppingBench-shaped run of `episodes` finished episodes with `steps` steps each (the last recommends);
    `voucher_rules`: voucher tasks' instructions end with VOUCHER_RULES, as real ones do."""
    rng = random.Random(seed)
    run_dir = Path(run_dir)
    info = AgentInfo(kind=kind, name=agent)
    write_manifest(run_dir, RunManifest(run_id=run_dir.name, benchmark="shoppingbench", task_set="synthetic",
                                        agent=info, created_at=_CLOCK))
    for number in range(episodes):
        intent = _INTENTS[number % 4]
        task_id = f"{intent}-{number // 4:04d}"
        episode_id = f"{task_id}-e0"
        with TrajectoryWriter(episode_path(run_dir, episode_id)) as writer:
            instruction = f"Find me {' '.join(rng.sample(_WORDS, 3))}."
            if voucher_rules and intent == "voucher":
                instruction += VOUCHER_RULES
            writer.write(StartEvent(episode_id=episode_id, benchmark="shoppingbench", task_set="synthetic",
                                    task_id=task_id, intent=intent, instruction=instruction, agent=info, max_steps=30,
                                    started_at=_CLOCK))
            writer.write_all([_step(rng, index, index == steps - 1) for index in range(steps)])  # one flush
            writer.write(EndEvent(status="terminated", terminate_status="success", recommended="p0000001", steps=steps,
                                  ended_at=_CLOCK + timedelta(seconds=5 * steps)))
    return run_dir
