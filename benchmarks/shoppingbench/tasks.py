"""Loading task sets in the official test format (SPEC §1.2).

A task set is a folder holding up to four files, one per intent, named as in the official release (TASK_FILES).
The official test set ships with shopbench as the task set `official`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benchmarks.jsonl import DataFileError, _short, json_type, read_jsonl
from benchmarks.shoppingbench.schema import (
    INTENTS,
    TASK_FILES,
    Intent,
    Product,
    ShoppingTask,
    Target,
    Voucher,
    task_id_for,
)

OFFICIAL_DIR = Path(__file__).parent / "data" / "official"
"""The bundled official test set (Apache-2.0, LICENSE beside it)."""

OFFICIAL_SET = "official"


def parse_task(record: dict, intent: Intent, task_index: int, task_set: str) -> ShoppingTask:
    """Turn one official task line into a ShoppingTask (raises ValueError / ValidationError on bad shapes)."""
    reward = record["reward"]
    common: dict[str, Any] = dict(task_id=task_id_for(intent, task_index), task_set=task_set, intent=intent,
                                  task_index=task_index)
    if intent == "web":
        product = Product.model_validate(reward)
        target = Target(product_id=product.product_id, title=[product.title])
        attribute = record.get("Knowledge_Attribute")
        return ShoppingTask(
            **common,
            query=record["query"],
            targets=[target],
            knowledge_attribute=None if attribute is None else str(attribute),
            knowledge_product=product,
        )
    rewards = reward if isinstance(reward, list) else [reward]
    voucher = Voucher.model_validate(record["voucher"]) if intent == "voucher" else None
    return ShoppingTask(
        **common, query=record["query"], targets=[Target.model_validate(r) for r in rewards], voucher=voucher
    )


def load_task_file(path: Path | str, intent: Intent, task_set: str) -> list[ShoppingTask]:
    """Load one intent's task file; a bad line raises DataFileError naming the file and line."""
    tasks = []
    for index, (number, record) in enumerate(read_jsonl(path)):
        if not isinstance(record, dict):
            raise DataFileError(path, number, f"expected a JSON object (one task), found {json_type(record)}")
        try:
            tasks.append(parse_task(record, intent, index, task_set))
        except KeyError as error:
            raise DataFileError(path, number, f"missing field {error.args[0]!r}") from None
        except ValidationError as error:
            raise DataFileError(path, number, _short(error)) from None  # its first line only counts the errors
        except (ValueError, TypeError) as error:
            raise DataFileError(path, number, str(error).splitlines()[0]) from None
    return tasks


def load_task_set(folder: Path | str, task_set: str, intents: tuple[Intent, ...] = INTENTS) -> list[ShoppingTask]:
    """Load every intent file present in a task-set folder, in intent order. A folder with no task file, or whose
    files hold no task at all, is an error (an intent's file alone may be empty: small worlds may have none)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no such task-set folder")
    present = [(intent, path) for intent in intents if (path := folder / TASK_FILES[intent]).exists()]
    if not present:
        names = ", ".join(TASK_FILES[intent] for intent in intents)
        raise FileNotFoundError(f"{folder}: no task file (expected one of {names})")
    tasks = [task for intent, path in present for task in load_task_file(path, intent, task_set)]
    if not tasks:
        raise DataFileError(present[0][1], 1, f"the task set {task_set!r} holds no tasks (every task file is empty)")
    return tasks


def load_official(intents: tuple[Intent, ...] = INTENTS) -> list[ShoppingTask]:
    return load_task_set(OFFICIAL_DIR, OFFICIAL_SET, intents)
