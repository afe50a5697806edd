"""Loading Shopping MMLU in its two official layouts, and the bundled samples.

- KDD Cup JSONL: one item per line with `input_field`, `output_field`, `task_name`, `task_type`, `metric`, ... (the
  skill files `skills/<skill>.json` of the full release use the same shape). Lines without `id` get their 0-based
  line number.
- The per-type folder release: `multiple_choice/<task>_dataset.csv` (question, choices, answer) and
  `retrieval|ranking|named_entity_recognition|generation/<task>_dataset.json` (JSON lines with `input_field` and
  `target_field`). Their items get ids `<folder>/<task>:<row>`; their task's metric follows the reference's rule.

The official data is not redistributable; shopbench bundles samples written for it (`SAMPLES_PATH`).
"""

from __future__ import annotations

import ast
import csv
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benchmarks.jsonl import DataFileError, _short, check_unique, iter_lines, json_type, read_jsonl
from benchmarks.shopping_mmlu.schema import MMLUItem

SAMPLES_PATH = Path(__file__).parent / "data" / "samples_shopping_mmlu.jsonl"
"""Sample items written for shopbench in the KDD format (not the benchmark; see data/README.md)."""

TYPE_FOLDERS = {
    "multiple_choice": "multiple-choice",
    "retrieval": "retrieval",
    "ranking": "ranking",
    "named_entity_recognition": "named_entity_recognition",
    "generation": "generation",
}
FOLDER_METRIC = {
    "multiple-choice": "accuracy",
    "retrieval": "hit rate@3",
    "ranking": "ndcg",
    "named_entity_recognition": "micro f1",
}
NO_CHOICES_TASKS = ("review_rating_prediction",)
"""Multiple-choice tasks whose question already lists the answers (1–5) and whose answer is the rating itself."""


def load_items(path: Path | str | None = None) -> list[MMLUItem]:
    """Items from a KDD JSONL file, a per-type CSV/JSON file, or a release folder (default: the bundled samples)."""
    path = Path(path) if path is not None else SAMPLES_PATH
    if path.is_dir():
        return load_release_folder(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such Shopping MMLU file or folder")
    if path.suffix == ".csv":
        return load_multiple_choice_csv(path)
    if path.parent.name in TYPE_FOLDERS and path.name.endswith("_dataset.json"):
        return load_type_file(path, TYPE_FOLDERS[path.parent.name])
    return load_kdd_jsonl(path)


def load_kdd_jsonl(path: Path | str, default_track: str | None = None) -> list[MMLUItem]:
    """KDD Cup format, one item per line; ids from the `id` field or the 0-based line number."""
    items = []
    first_line: dict[str, int] = {}
    for number, record in read_jsonl(path, empty_ok=False):
        if not isinstance(record, dict):
            raise DataFileError(path, number, f"expected a JSON object, found {json_type(record)}")
        record = {"id": str(number - 1), **record}
        if isinstance(record["id"], bool) or not isinstance(record["id"], str | int):
            raise DataFileError(path, number, f"id: expected a string or an integer, found {json_type(record['id'])}")
        item_id = record["id"] = str(record["id"])
        check_unique(path, number, item_id, first_line)
        if default_track and not record.get("track"):
            record["track"] = default_track
        items.append(_validate(path, number, record))
    return items


def load_release_folder(folder: Path) -> list[MMLUItem]:
    """The per-type folders when present, else the skill files (`skills/*.json`), in a stable order."""
    items: list[MMLUItem] = []
    for name, task_type in TYPE_FOLDERS.items():
        sub = folder / name
        if not sub.is_dir():
            continue
        if task_type == "multiple-choice":
            for csv_path in sorted(sub.glob("*.csv")):
                items.extend(load_multiple_choice_csv(csv_path))
        else:
            for json_path in sorted(sub.glob("*.json")):
                items.extend(load_type_file(json_path, task_type))
    if items:
        return items
    skill_dir = folder / "skills" if (folder / "skills").is_dir() else folder
    for skill_file in sorted([*skill_dir.glob("*.json"), *skill_dir.glob("*.jsonl")]):
        items.extend(load_kdd_jsonl(skill_file, default_track=skill_file.stem))
    if not items:
        raise FileNotFoundError(f"{folder}: no Shopping MMLU files (per-type folders or skill files) found")
    return items


def task_name_of(path: Path) -> str:
    return path.stem.removesuffix("_dataset")


def multiple_choice_prompt(question: str, choices: list[str] | None) -> str:
    """The reference formatting of a CSV question: numbered choices, then "Answer: "."""
    prompt = question
    for index, choice in enumerate(choices or []):
        prompt += f"\n{index}. {choice}"
    return prompt + "\nAnswer: "


def load_multiple_choice_csv(path: Path) -> list[MMLUItem]:
    """multiple_choice/<task>_dataset.csv: columns question, choices (a Python list literal), answer."""
    task = task_name_of(path)
    items = []
    reader = csv.reader(line + "\n" for _, line in iter_lines(path, skip_blank=False))
    header = next(reader, None)
    if header is None:
        raise DataFileError(path, 1, "the file is empty (expected a header: question, choices, answer)")
    columns = [name.strip() for name in header]
    if not {"question", "choices", "answer"} <= set(columns):
        raise DataFileError(path, 1, f"expected the columns question, choices, answer; found {header}")
    q_col, c_col, a_col = (columns.index(name) for name in ("question", "choices", "answer"))
    for row_index, row in enumerate(reader):
        line = reader.line_num
        try:
            question, choices_text, answer = row[q_col], row[c_col], row[a_col]
            choices = None if task in NO_CHOICES_TASKS else ast.literal_eval(choices_text)
            if choices is not None and not (isinstance(choices, list | tuple)):
                raise ValueError("choices is not a list")
            record: dict[str, Any] = {
                "id": f"multiple_choice/{task}:{row_index}",
                "input_field": multiple_choice_prompt(question, None if choices is None else list(choices)),
                "output_field": int(answer),
                "task_name": task,
                "task_type": "multiple-choice",
                "metric": "accuracy",
                "is_multiple_choice": True,
            }
        except (IndexError, ValueError, SyntaxError) as error:
            raise DataFileError(path, line, f"bad multiple-choice row ({error})") from None
        items.append(_validate(path, line, record))
    if not items:
        raise DataFileError(path, 2, "no rows after the header")
    return items


def generation_metric(task: str) -> str:
    """The reference's rule: extraction → ROUGE-L, translation → BLEU (ja-mecab for JP), multilingual → the
    multilingual embedder, anything else → all-MiniLM-L6-v2 similarity."""
    if "extraction" in task:
        return "rougel"
    if "translation" in task:
        return "jp-bleu" if "JP" in task else "bleu"
    if "multilingual" in task:
        return "multilingual-sent-transformer"
    return "sent-transformer"


def load_type_file(path: Path, task_type: str) -> list[MMLUItem]:
    """<type>/<task>_dataset.json: JSON lines with input_field and target_field."""
    task = task_name_of(path)
    folder = path.parent.name
    metric = generation_metric(task) if task_type == "generation" else FOLDER_METRIC[task_type]
    items = []
    for row_index, (number, record) in enumerate(read_jsonl(path, empty_ok=False)):
        if not isinstance(record, dict) or "input_field" not in record:
            raise DataFileError(path, number, "expected an object with input_field and target_field")
        target = record.get("target_field", record.get("output_field"))
        item = {
            "id": f"{folder}/{task}:{row_index}",
            "input_field": record["input_field"],
            "output_field": target,
            "task_name": task,
            "task_type": task_type,
            "metric": metric,
        }
        items.append(_validate(path, number, item))
    return items


def _validate(path: Path | str, line: int, record: dict[str, Any]) -> MMLUItem:
    try:
        return MMLUItem.model_validate(record)
    except ValidationError as error:
        raise DataFileError(path, line, _short(error)) from None
