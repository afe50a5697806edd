"""`shopbench world import` on bad corpus files: each is reported as `FILE:LINE: what is wrong` with exit code 1 and
no traceback, and a failed import leaves nothing behind (no world folder, no `.partial` file, no temporary folder)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.jsonl import DataFileError
from mcp_server.shopping.world import World
from mcp_server.shopping.world_build import import_world
from shopbench.cli import app


@pytest.fixture(scope="module")
def corpus_lines(default_world) -> list[str]:
    """The first 20 lines of the default catalog: records in the official corpus layout."""
    with gzip.open(default_world.root / "catalog.jsonl.gz", "rt", encoding="utf-8") as source:
        return [line.rstrip("\n") for _, line in zip(range(20), source, strict=False)]


def gz_bytes(lines: list[str]) -> bytes:
    return gzip.compress("".join(line + "\n" for line in lines).encode("utf-8"))


def import_cli(documents: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["world", "import", str(documents), "--out", str(out)])
    return result.exit_code, result.output


def assert_nothing_left(folder: Path, out: Path) -> None:
    assert not out.exists(), sorted(out.rglob("*"))
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(f".{out.name}") or "partial" in p.name]
    assert leftovers == []


def test_a_truncated_gzip_is_named_with_file_and_line(corpus_lines, tmp_path):
    whole = gz_bytes(corpus_lines)
    bad = tmp_path / "documents.jsonl.gz"
    bad.write_bytes(whole[: len(whole) * 2 // 3])
    code, output = import_cli(bad, tmp_path / "world")
    assert code == 1, output
    assert f"{bad}:" in output and "truncated" in output and "Traceback" not in output
    assert output.strip().count("\n") == 0  # one line
    assert_nothing_left(tmp_path, tmp_path / "world")


def test_a_fake_gzip_is_named_with_file_and_line(corpus_lines, tmp_path):
    bad = tmp_path / "documents.jsonl.gz"
    bad.write_text("\n".join(corpus_lines) + "\n", encoding="utf-8")  # plain text under a .gz name
    code, output = import_cli(bad, tmp_path / "world")
    assert code == 1 and f"{bad}:1:" in output and "not gzip" in output and "Traceback" not in output
    corrupt = tmp_path / "corrupt.jsonl.gz"
    whole = bytearray(gz_bytes(corpus_lines * 20))
    whole[len(whole) // 2: len(whole) // 2 + 64] = b"\x00" * 64
    corrupt.write_bytes(bytes(whole))
    code, output = import_cli(corrupt, tmp_path / "world")
    assert code == 1 and f"{corrupt}:" in output and "gzip" in output and "Traceback" not in output, output
    assert_nothing_left(tmp_path, tmp_path / "world")


def test_invalid_utf8_is_named_with_file_and_line(corpus_lines, tmp_path):
    bad = tmp_path / "documents.jsonl"
    data = "".join(line + "\n" for line in corpus_lines[:5]).encode("utf-8")
    lines = data.split(b"\n")
    lines[2] = lines[2][:30] + b"\xff" + lines[2][30:]
    bad.write_bytes(b"\n".join(lines))
    with pytest.raises(DataFileError) as error:
        import_world(bad, tmp_path / "world", progress=False)
    assert error.value.line == 3 and f"{bad}:3:" in str(error.value) and "UTF-8" in str(error.value)
    assert_nothing_left(tmp_path, tmp_path / "world")
    code, output = import_cli(bad, tmp_path / "world")
    assert code == 1 and f"{bad}:3:" in output and "0xff" in output and "Traceback" not in output


def test_a_directory_or_an_empty_file_is_named(tmp_path):
    folder = tmp_path / "documents.jsonl"
    folder.mkdir()
    code, output = import_cli(folder, tmp_path / "world")
    assert code == 1 and f"{folder}:1:" in output and "directory" in output and "Traceback" not in output
    assert_nothing_left(tmp_path, tmp_path / "world")
    empty = tmp_path / "empty.jsonl.gz"
    empty.write_bytes(gzip.compress(b""))
    code, output = import_cli(empty, tmp_path / "world")
    assert code == 1 and f"{empty}:1:" in output and "no product records" in output
    assert_nothing_left(tmp_path, tmp_path / "world")


def test_a_bad_record_late_in_the_file_leaves_no_half_world(corpus_lines, tmp_path):
    bad = tmp_path / "documents.jsonl.gz"
    bad.write_bytes(gz_bytes(corpus_lines[:15] + ['{"id": "x"}'] + corpus_lines[15:]))
    out = tmp_path / "nested" / "world"
    with pytest.raises(DataFileError) as error:
        import_world(bad, out, progress=False)
    assert error.value.line == 16 and f"{bad}:16:" in str(error.value)
    assert_nothing_left(out.parent, out)
    assert not list(tmp_path.rglob("*.partial")) and not list(tmp_path.rglob("catalog.jsonl.gz"))


def test_a_good_import_lands_whole_and_an_occupied_folder_is_refused(corpus_lines, tmp_path):
    good = tmp_path / "documents.jsonl.gz"
    good.write_bytes(gz_bytes(corpus_lines))
    out = tmp_path / "world"
    out.mkdir()  # an empty folder is fine
    world = import_world(good, out, progress=False)
    assert world.info.products == len(corpus_lines) and World.open(out).info.source == "imported"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["documents.jsonl.gz", "world"]
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    code, output = import_cli(good, out)
    assert code == 1 and "already exists" in output and "Traceback" not in output
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before
