"""A damaged world is named in one line with exit 1, never a Java stack trace or a bare "Aborted.": a bad world.json
(with the line of the bad field), a bad task file (`world info`), a truncated catalog.jsonl.gz (`world index`), and a
Lucene index with a segment file missing or cut short, which opening refuses naming the file and how to rebuild it,
and which `world index` rebuilds."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.shoppingbench.schema import TASK_FILES
from mcp_server.shopping.search.index_build import DamagedIndexError
from mcp_server.shopping.world import World
from mcp_server.shopping.world_build import import_world
from shopbench.cli import app


@pytest.fixture(scope="module")
def small_world(default_world, tmp_path_factory) -> Path:
    """A 300-product world imported from the default catalog, with both indexes built."""
    folder = tmp_path_factory.mktemp("small")
    documents = folder / "documents.jsonl"
    with gzip.open(default_world.root / "catalog.jsonl.gz", "rt", encoding="utf-8") as source, \
            open(documents, "w", encoding="utf-8") as sink:
        for _, line in zip(range(300), source, strict=False):
            sink.write(line)
    world = import_world(documents, folder / "world", progress=False)
    assert len(world.products) == 300 and len(world.knowledge) > 0
    return world.root


@pytest.fixture
def world_copy(small_world, tmp_path) -> Path:
    return Path(shutil.copytree(small_world, tmp_path / "world"))


def cli(*arguments: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(app, list(arguments))
    assert "Traceback" not in outcome.output and "Aborted" not in outcome.output, outcome.output
    return outcome.exit_code, outcome.output


def test_info_names_the_line_of_a_bad_world_json_field(world_copy):
    path = world_copy / "world.json"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, start=1) if '"products"' in line)
    path.write_text(path.read_text(encoding="utf-8").replace('"products": 300', '"products": "many"'),
                    encoding="utf-8")
    code, output = cli("world", "info", str(world_copy))
    assert code == 1 and f"{path}:{number}: products: Input should be a valid integer" in output, output
    assert output.strip().count("\n") == 0


def test_info_names_a_bad_task_file_and_exits_1(world_copy):
    folder = world_copy / "tasks" / "mine"
    folder.mkdir(parents=True)
    bad = folder / TASK_FILES["product"]
    bad.write_text('{"query": "a shirt", "reward": {"product_id": "1", "title": ["shirt"]}}\n{"query": \n',
                   encoding="utf-8")
    code, output = cli("world", "info", str(world_copy))
    assert code == 1, output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert errors == [f"error: {bad}:2: not valid JSON (Expecting value at column 11)"], output
    assert "tasks: official" in output  # the rest of the world is still summarised


def test_index_names_a_truncated_catalog(world_copy):
    catalog = world_copy / "catalog.jsonl.gz"
    whole = catalog.read_bytes()
    catalog.write_bytes(whole[: len(whole) // 2])
    code, output = cli("world", "index", str(world_copy))
    assert code == 1 and f"{catalog}:" in output and "the gzip stream ends early (a truncated file?)" in output


@pytest.mark.parametrize("damage", ["missing", "cut short"])
def test_a_damaged_index_is_named_and_world_index_rebuilds_it(world_copy, damage):
    index_dir = next((world_copy / "index").iterdir())
    segment = next(index_dir.glob("*.fdt"))
    if damage == "missing":
        segment.unlink()
    else:
        segment.write_bytes(segment.read_bytes()[:-40])
    with pytest.raises(DamagedIndexError) as error:
        World.open(world_copy).products  # noqa: B018 - opening is what is tested
    message = str(error.value)
    assert "\n" not in message and f"`shopbench world index {world_copy}`" in message
    assert (f"{segment.name} missing" if damage == "missing" else str(segment)) in message, message
    code, output = cli("world", "index", str(world_copy))
    assert code == 0 and "the products index is damaged" in output and "products index:" in output, output
    assert len(World.open(world_copy).products.find("shirt")) > 0


def test_an_index_without_its_commit_file_is_named(world_copy):
    index_dir = next((world_copy / "knowledge_index").iterdir())
    for commit in index_dir.glob("segments_*"):
        commit.unlink()
    with pytest.raises(DamagedIndexError, match=re.escape(f"{index_dir}: the search index is damaged (no segments_N")):
        World.open(world_copy).knowledge  # noqa: B018 - opening is what is tested
