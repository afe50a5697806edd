"""Reading and writing JSON Lines, with errors that name the file and line."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class DataFileError(ValueError):
    """A data file could not be read; the message names the file and the 1-based line."""

    def __init__(self, path: Path | str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = Path(path), line, problem
        super().__init__(f"{path}:{line}: {problem}")


def open_text(path: Path | str, mode: str = "rt") -> IO[str]:
    """Open a text file, transparently gzip-compressed when its name ends in .gz."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")


def read_jsonl(path: Path | str) -> Iterator[tuple[int, Any]]:
    """Yield (1-based line number, parsed object) for each non-blank line."""
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as error:
                raise DataFileError(path, number, f"not valid JSON ({error.msg} at column {error.colno})") from None


def read_models(path: Path | str, model: type[M]) -> list[M]:
    """Parse every line of a JSONL file as `model`, naming the file and line on the first bad one."""
    items = []
    for number, obj in read_jsonl(path):
        try:
            items.append(model.model_validate(obj))
        except ValidationError as error:
            raise DataFileError(path, number, _short(error)) from None
    return items


def _short(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "record"
    return f"{where}: {first['msg']}"


def write_jsonl(path: Path | str, records: Iterable[Any]) -> int:
    """Write records (dicts or pydantic models) one per line; returns the count."""
    count = 0
    with open_text(path, "wt") as handle:
        for record in records:
            if isinstance(record, BaseModel):
                record = record.model_dump(mode="json")
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count
