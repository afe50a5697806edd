"""Loading SessionIntentBench items (shopbench's JSONL schema) and the bundled samples."""

from __future__ import annotations

from pathlib import Path

from benchmarks.jsonl import read_models
from benchmarks.session_intent.schema import SessionIntentItem

SAMPLES_PATH = Path(__file__).parent / "data" / "samples_session_intent.jsonl"
"""40 sample items (10 per task) written for shopbench; not the benchmark (see data/README.md)."""


def load_items(path: Path | str | None = None) -> list[SessionIntentItem]:
    path = Path(path) if path is not None else SAMPLES_PATH
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such SessionIntentBench file")
    return read_models(path, SessionIntentItem, empty_ok=False, key=lambda item: item.id)
