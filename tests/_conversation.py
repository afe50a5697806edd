"""Profiles of both task sets for the conversation tests: the default world's generated tasks with their products
(read from its catalog file, no JVM), and the official tasks with their targets' titles only (no 2.5M corpus here)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.conversation.profile import UserProfile, profile_of
from benchmarks.shoppingbench.schema import Product, ShoppingTask
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR, OFFICIAL_SET, load_task_set


@cache
def catalog(root: Path) -> dict[str, Product]:
    return {record["id"]: Product.model_validate(record["product"])
            for _, record in read_jsonl(root / "catalog.jsonl.gz")}


def generated_tasks(world) -> list[tuple[ShoppingTask, dict[str, Product]]]:
    products = catalog(world.root)
    return [(task, {t.product_id: products[t.product_id] for t in task.targets if t.product_id in products})
            for task in world.tasks("generated")]


@cache
def official_tasks() -> list[tuple[ShoppingTask, dict[str, Product]]]:
    return [(task, {}) for task in load_task_set(OFFICIAL_DIR, OFFICIAL_SET)]


def profiles(tasks: list[tuple[ShoppingTask, dict[str, Product]]], stated: int = 1,
             seed: int = 0) -> list[tuple[ShoppingTask, UserProfile]]:
    return [(task, profile_of(task, products, stated=stated, seed=seed)) for task, products in tasks]


def secrets(task: ShoppingTask) -> list[str]:
    """What no opener or answer may say: each target's product id and full title."""
    return [text.lower() for target in task.targets for text in (target.product_id, *target.title) if len(text) > 3]
