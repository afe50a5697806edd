"""Loading IntentionQA: the real benchmark is bundled (MIT, LICENSE beside it)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.intentionqa.schema import IntentionQAItem
from benchmarks.jsonl import read_models

DATA_DIR = Path(__file__).parent / "data"
TASK_FILES = {"task1": DATA_DIR / "QA_fullInfo_task1.jsonl", "task2": DATA_DIR / "QA_fullInfo_task2.jsonl"}
"""The released QA_fullInfo files of both tasks."""


def load_items(path: Path | str | None = None) -> list[IntentionQAItem]:
    """Items of one released file, or (default) both tasks, Task 1 first; each line's task is told by its keys.
    An empty file, a bad line or two items with the same task and id raise DataFileError naming the file and line."""
    paths = [Path(path)] if path is not None else list(TASK_FILES.values())
    items: list[IntentionQAItem] = []
    for file in paths:
        if not file.exists():
            raise FileNotFoundError(f"{file}: no such IntentionQA file")
        items.extend(read_models(file, IntentionQAItem, empty_ok=False, key=lambda item: item.qid))
    return items
