"""Reading prediction files from other harnesses (`shopbench score --predictions FILE`).

A question benchmark's predictions are JSON lines `{"id": "<item id>", "output": "<raw model text>"}`. Every problem
is reported as `FILE:LINE: what is wrong` (benchmarks.jsonl.DataFileError) before anything is scored: a line that is
not an object, an id that is not a string or an integer, an output that is null, an object or a number (the output is
the model's raw text), an id given twice, an id that is not one of the items, a file with no predictions.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from benchmarks.jsonl import DataFileError, check_unique, json_type, read_jsonl

QA_SHAPE = '{"id": "<item id>", "output": "<raw model text>"}'


def read_qa_predictions(path: Path | str, known: Collection[str] | None = None) -> dict[str, str]:
    """item id → raw output text, in file order; with `known`, an id outside it is an error."""
    outputs: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, record in read_jsonl(path, empty_ok=False):
        if not isinstance(record, dict):
            raise DataFileError(path, number, f"expected an object {QA_SHAPE}, found {json_type(record)}")
        missing = [name for name in ("id", "output") if name not in record]
        if missing:
            raise DataFileError(path, number, f"missing {' and '.join(missing)}: expected {QA_SHAPE}")
        raw_id, output = record["id"], record["output"]
        if isinstance(raw_id, bool) or not isinstance(raw_id, str | int):
            raise DataFileError(path, number, f"id must be a string or an integer, found {json_type(raw_id)}")
        if not isinstance(output, str):
            hint = " (a failed call has no output: leave the item out)" if output is None else ""
            raise DataFileError(path, number, f"output must be the model's raw text (a string), found "
                                              f"{json_type(output)}{hint}")
        item_id = str(raw_id)
        check_unique(path, number, item_id, first_line)
        if known is not None and item_id not in known:
            raise DataFileError(path, number, f"id {item_id!r} is not an item of the given --items")
        outputs[item_id] = output
    return outputs
