"""Builders for scoring tests: catalog products made from official targets, and run directories written with
mcp_server.trajectory's own models (what a live server would write, without one)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target
from benchmarks.shoppingbench.tasks import load_official
from mcp_server.trajectory import (
    AgentInfo,
    EndEvent,
    RunManifest,
    StartEvent,
    StepEvent,
    Usage,
    episode_path,
    read_manifest,
    write_manifest,
)


def product_for(target: Target, *, shop_id: str = "shop-1", price: float | None = None) -> Product:
    """A catalog product that meets every constraint of `target` (its id is the target's)."""
    if price is None:
        price = 100.0
        for constraint in target.price or []:
            for mode, (low, high) in constraint.items():
                middle = ((low or 0) + (high or 0)) / 2
                price = {"less than": (high or 0) / 2, "greater than": (low or 0) + 1}.get(mode, middle)
    sku = {str(i + 1): dict(option) for i, option in enumerate(target.sku_options or [])}
    attributes: dict[str, list[str]] = {}
    for attribute in target.attributes or []:
        for key, values in attribute.items():
            attributes.setdefault(key, []).extend(values)
    return Product(product_id=target.product_id, shop_id=shop_id, title=target.title[0], price=price,
                   sku_options=sku, attributes=attributes, service=list(target.service or []))


def official_catalog() -> tuple[list[ShoppingTask], dict[str, Product]]:
    """The official tasks and a catalog holding every target built from its constraints (knowledge targets are the
    real records the tasks embed). One shop for all, and voucher tasks first so each voucher basket costs exactly its
    budget (a product shared with another task keeps its voucher price)."""
    tasks = load_official()
    products: dict[str, Product] = {}
    for task in sorted(tasks, key=lambda t: t.intent != "voucher"):
        if task.intent == "web":
            assert task.knowledge_product is not None
            products.setdefault(task.targets[0].product_id, task.knowledge_product)
            continue
        price = task.voucher.budget / len(task.targets) if task.voucher else None
        for target in task.targets:
            products.setdefault(target.product_id, product_for(target, shop_id="shop-1", price=price))
    return tasks, products


def agent(kind: str = "model", name: str = "test-model") -> AgentInfo:
    return AgentInfo(kind=kind, name=name)  # type: ignore[arg-type]


def make_run(run_dir: Path, *, kind: str = "model", name: str = "test-model", world: dict | None = None) -> Path:
    write_manifest(run_dir, RunManifest(run_id=run_dir.name, benchmark="shoppingbench", task_set="official",
                                        agent=agent(kind, name), world=world))
    return run_dir


def write_episode(
    run_dir: Path,
    task: ShoppingTask,
    calls: list[tuple[str, dict[str, Any]]],
    *,
    finished: bool = True,
    epoch: int = 0,
    kind: str | None = None,
    name: str | None = None,
    output_tokens: int | None = 20,
) -> str:
    """One episode: start, one step per (tool, arguments), then an end event (unless unfinished). The player is the
    run manifest's agent unless `kind` / `name` say otherwise."""
    episode_id = f"{task.task_id}-e{epoch}-{uuid.uuid4().hex[:6]}"
    player = read_manifest(run_dir).agent
    events: list[StartEvent | StepEvent | EndEvent] = [
        StartEvent(episode_id=episode_id, benchmark="shoppingbench", task_set=task.task_set, task_id=task.task_id,
                   intent=task.intent, epoch=epoch, instruction=task.instruction,
                   agent=agent(kind or player.kind, name or player.name), max_steps=30)
    ]
    recommended = None
    for index, (tool, arguments) in enumerate(calls):
        if tool == "recommend_product":
            recommended = arguments.get("product_ids")
        usage = Usage(input_tokens=100, output_tokens=output_tokens, cost_usd=0.001) if output_tokens else None
        events.append(StepEvent(index=index, tool=tool, arguments=arguments, observation={"ok": True},
                                thought=f"thinking about step {index}", usage=usage))
    if finished:
        events.append(EndEvent(status="terminated", terminate_status="success", recommended=recommended,
                               steps=len(calls)))
    # The events are serialised exactly as TrajectoryWriter does, in one write (no fsync per line: 900-episode
    # perf runs would spend minutes syncing).
    path = episode_path(run_dir, episode_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(event.model_dump_json() + "\n" for event in events), encoding="utf-8")
    return episode_id


def recommend(ids: str) -> list[tuple[str, dict[str, Any]]]:
    """A short plausible episode ending in one recommendation and terminate."""
    return [
        ("find_product", {"q": "something", "page": 1}),
        ("view_product_information", {"product_ids": ids}),
        ("recommend_product", {"product_ids": ids}),
        ("terminate", {"status": "success"}),
    ]
