"""Reading and writing JSON Lines, with errors that name the file and line.

Every data file shopbench reads goes through `iter_lines` (or `read_jsonl` / `read_models` on top of it), so each
kind of bad file is reported the same way, as `FILE:LINE: what is wrong`: a missing file or a directory, a file named
.gz that is not gzip, a gzip stream cut short, bytes that are not UTF-8, a line that is not JSON, a value of the wrong
type, a duplicate id, an empty file. Files are read as bytes and decoded line by line, so a decoding error names the
line it is on. gzip is recognised by its magic bytes, whatever the file is called.

Writers (`write_jsonl`, `write_text_atomic`, `write_json_atomic`) write a temporary file beside the target and rename
it over the target, so a reader never sees half a file and a failure leaves nothing behind.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, TypeVar, cast

from pydantic import BaseModel, ValidationError

from benchmarks.errors import BadInput

M = TypeVar("M", bound=BaseModel)
K = TypeVar("K", bound=Hashable)

GZIP_MAGIC = b"\x1f\x8b"
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
"""An escaped UTF-16 surrogate: legal JSON, but only valid Unicode as part of a pair."""


class DataFileError(BadInput):
    """A data file could not be read; the message names the file and the 1-based line."""

    def __init__(self, path: Path | str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = Path(path), line, problem
        super().__init__(f"{path}:{line}: {problem}")


def open_text(path: Path | str, mode: str = "rt") -> IO[str]:
    """Open a text file, transparently gzip-compressed when its name ends in .gz (prefer `iter_lines` for reading:
    its errors name the line)."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode, encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")


def _open_bytes(path: Path) -> IO[bytes]:
    """The file's bytes, gunzipped when it starts with the gzip magic; a file that cannot be opened, a directory and
    a .gz name on a file that is not gzip are reported as DataFileError (a missing file as FileNotFoundError)."""
    if path.is_dir():
        raise DataFileError(path, 1, "is a directory, not a data file")
    try:
        raw = open(path, "rb")  # noqa: SIM115 - returned to the caller, who closes it
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None
    except OSError as error:
        raise DataFileError(path, 1, f"cannot be opened ({error.strerror or error})") from None
    magic = raw.read(2)
    raw.seek(0)
    if magic == GZIP_MAGIC:
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))  # closing it does not close raw: iter_lines
    if path.suffix == ".gz" and magic:
        raw.close()
        raise DataFileError(path, 1, "named .gz but not gzip-compressed (no gzip header)")
    return raw


def iter_lines(path: Path | str, *, skip_blank: bool = True) -> Iterator[tuple[int, str]]:
    """Yield (1-based line number, decoded line without its newline), blank lines skipped unless asked.

    Raises DataFileError naming the line for undecodable bytes, a corrupt or truncated gzip stream, or a read error;
    FileNotFoundError for a missing file."""
    path = Path(path)
    handle = _open_bytes(path)
    number = 0
    try:
        lines = iter(handle)
        while True:
            try:
                raw = next(lines)
            except StopIteration:
                return
            except EOFError:
                raise DataFileError(path, number + 1, "the gzip stream ends early (a truncated file?)") from None
            except (gzip.BadGzipFile, zlib.error) as error:
                raise DataFileError(path, number + 1, f"corrupt gzip data ({error})") from None
            except OSError as error:
                raise DataFileError(path, number + 1, f"read error ({error.strerror or error})") from None
            number += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                byte = raw[error.start]
                raise DataFileError(path, number, f"not valid UTF-8 (byte 0x{byte:02x} at column {error.start + 1})"
                                    ) from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            line = line.rstrip("\r\n")
            if skip_blank and not line.strip():
                continue
            yield number, line
    finally:
        fileobj = getattr(handle, "fileobj", None)
        handle.close()
        if fileobj is not None:
            fileobj.close()


def _loads(path: Path | str, number: int, text: str) -> Any:
    """The JSON value of `text`, which starts on line `number` of `path`; invalid JSON raises DataFileError naming
    the line the error is on."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise DataFileError(path, number + error.lineno - 1, f"not valid JSON ({error.msg} at column {error.colno})"
                            ) from None
    except RecursionError:
        raise DataFileError(path, number, "JSON nested too deeply") from None


def parse_line(path: Path | str, number: int, line: str) -> Any:
    """One JSON value; invalid JSON and lone surrogates (not valid Unicode) raise DataFileError."""
    value = _loads(path, number, line)
    if "\\" in line and _SURROGATE_ESCAPE.search(line.encode("utf-8")):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise DataFileError(path, number, "contains a lone UTF-16 surrogate escape (not valid Unicode)") from None
    return value


def read_jsonl(path: Path | str, *, empty_ok: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield (1-based line number, parsed value) for each non-blank line; with `empty_ok=False` a file with no
    records raises DataFileError (line 1)."""
    seen = False
    for number, line in iter_lines(path):
        seen = True
        yield number, parse_line(path, number, line)
    if not seen and not empty_ok:
        raise DataFileError(path, 1, "the file is empty (no records)")


def read_models(
    path: Path | str,
    model: type[M],
    *,
    empty_ok: bool = True,
    key: Callable[[M], Hashable] | None = None,
) -> list[M]:
    """Parse every line of a JSONL file as `model`, naming the file and line on the first bad one. With `key`, two
    records with the same key are an error (naming both lines); with `empty_ok=False`, so is an empty file."""
    items = []
    first_line: dict[Hashable, int] = {}
    for number, obj in read_jsonl(path, empty_ok=empty_ok):
        if not isinstance(obj, dict):
            raise DataFileError(path, number, f"expected a JSON object, found {json_type(obj)}")
        try:
            item = model.model_validate(obj)
        except ValidationError as error:
            raise DataFileError(path, number, _short(error)) from None
        if key is not None:
            check_unique(path, number, key(item), first_line)
        items.append(item)
    return items


def read_json_model(path: Path | str, model: type[M]) -> M:
    """One JSON document (a manifest, world.json) as `model`. A missing file is FileNotFoundError; anything else
    wrong (a directory, bytes that are not UTF-8, invalid JSON, a value off the model) is DataFileError naming the
    file and the line: the line of the JSON error, or the line where the offending top-level key is written."""
    path = Path(path)
    lines = [line for _, line in iter_lines(path, skip_blank=False)]
    value = _loads(path, 1, "\n".join(lines))
    if not isinstance(value, dict):
        raise DataFileError(path, 1, f"expected a JSON object, found {json_type(value)}")
    try:
        return model.model_validate(value)
    except ValidationError as error:
        key = next((str(part) for part in error.errors()[0]["loc"][:1]), "")
        line = next((n for n, text in enumerate(lines, start=1) if f'"{key}"' in text), 1) if key else 1
        raise DataFileError(path, line, _short(error)) from None


def check_unique(path: Path | str, number: int, key: K, first_line: dict[K, int], what: str = "id") -> None:
    """Record `key` as seen on line `number`; a key seen before raises DataFileError naming both lines."""
    if key in first_line:
        raise DataFileError(path, number, f"duplicate {what} {key!r} (first on line {first_line[key]})")
    first_line[key] = number


def json_type(value: Any) -> str:
    """How a JSON value is called in messages: an object, an array, a string, a number, true/false, null."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _short(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "record"
    message = f"{where}: {first['msg']}"
    if first["type"] not in ("missing", "extra_forbidden") and "input" in first:
        message += f" (found {json_type(first['input'])})"
    return message


@contextmanager
def atomic_output(path: Path | str, compresslevel: int = 6) -> Iterator[IO[bytes]]:
    """A binary handle whose contents replace `path` only when the block finishes; on any error the temporary file
    is removed and `path` is left as it was. A name ending in .gz is gzip-compressed (at `compresslevel`)."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a directory, cannot write a file there")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)  # readable as an ordinary new file would be (mkstemp makes it private)
        with os.fdopen(fd, "wb") as raw:
            if path.suffix == ".gz":
                with gzip.GzipFile(filename=path.name.removesuffix(".gz"), mode="wb", fileobj=raw, mtime=0,
                                   compresslevel=compresslevel) as zipped:
                    yield zipped  # type: ignore[misc]
            else:
                yield raw
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_jsonl(path: Path | str, records: Iterable[Any]) -> int:
    """Write records (dicts or pydantic models) one per line, atomically; returns the count."""
    count = 0
    with atomic_output(path) as handle:
        for record in records:
            if isinstance(record, BaseModel):
                record = record.model_dump(mode="json")
            handle.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
            count += 1
    return count


def write_text_atomic(path: Path | str, text: str) -> None:
    """Replace `path` with `text` (UTF-8) all at once."""
    with atomic_output(path) as handle:
        handle.write(text.encode("utf-8"))


def write_json_atomic(path: Path | str, value: Any) -> None:
    """Write `value` as indented JSON, all at once (the serialisation is done before the file is touched)."""
    write_text_atomic(path, json.dumps(value, indent=2, ensure_ascii=False) + "\n")
