"""Append-only JSONL outputs keyed by input id: what a killed generator already wrote is kept and skipped.

Each record is one line, flushed as soon as it is written, so a kill loses at most the line being written; a torn
last line (no newline) is cut off when the journal is reopened. Keys name the input a record came from (a task id, a
session id, a question id), so a resumed run asks only for the inputs that have no record yet.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel

from benchmarks.jsonl import DataFileError


class Journal:
    """An append-only JSONL file of records, each carrying its key under `key_field` (or computed by `key`)."""

    def __init__(self, path: Path, key: str | Callable[[dict[str, Any]], str], *, resume: bool = True) -> None:
        self.path = Path(path)
        self._key = key if callable(key) else (lambda record, field=key: str(record[field]))
        self.records: dict[str, dict[str, Any]] = {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if resume and self.path.exists():
            self._load()
        elif self.path.exists():
            self.path.unlink()
        self._handle: IO[str] | None = None

    def _load(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            data = data[: data.rfind(b"\n") + 1]  # a line torn by a kill: drop it, it is redone
            with open(self.path, "wb") as handle:
                handle.write(data)
        for number, line in enumerate(data.decode("utf-8").split("\n"), start=1):  # JSON keeps U+2028 raw
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                self.records[self._key(record)] = record
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise DataFileError(self.path, number, f"not a record of this output ({error}); "
                                    "remove the file or choose another output") from None

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def __len__(self) -> int:
        return len(self.records)

    def append(self, record: dict[str, Any] | BaseModel) -> None:
        if isinstance(record, BaseModel):
            record = record.model_dump(mode="json")
        if self._handle is None:
            self._handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - held open across appends
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()
        self.records[self._key(record)] = record

    def close(self) -> None:
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            self._handle = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_jsonl_atomic(path: Path, records: Iterable[dict[str, Any] | BaseModel]) -> int:
    """Write a whole JSONL file at once: a temporary file beside it, then renamed over it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    count = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for record in records:
                if isinstance(record, BaseModel):
                    record = record.model_dump(mode="json")
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return count
