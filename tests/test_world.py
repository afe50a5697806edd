"""Worlds end to end with the real Lucene index: the default world, solvability of every generated task,
import of the official corpus format, and the `shopbench world` command."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.jsonl import DataFileError, read_jsonl
from benchmarks.shoppingbench.schema import INTENTS, TASK_FILES
from benchmarks.shoppingbench.voucher import within_budget
from benchmarks.shoppingbench.worldgen.catalog import GENERATOR_VERSION
from benchmarks.shoppingbench.worldgen.heuristic import check_task, read_instruction
from benchmarks.shoppingbench.worldgen.reading import stated_exactly
from mcp_server.shopping.world import GENERATED_SET, World, generator_fingerprint
from mcp_server.shopping.world_build import WorldTools, generate_world, import_world
from mcp_server.shopping.world_build import default_world as open_default_world


def test_default_world_is_big_enough_and_lists_its_task_sets(default_world):
    world = default_world
    assert world.info.products >= 5_000 and world.info.source == "generated" and world.info.seed == 0
    assert len(world.products) == world.info.products
    assert world.task_sets() == ["generated", "official"]
    generated = world.tasks("generated")
    for intent in INTENTS:
        assert sum(task.intent == intent for task in generated) >= 100
    assert not world.is_official_corpus
    assert len(world.tasks("official")) == 900
    with pytest.raises(KeyError, match="no task set"):
        world.tasks("nope")


def test_default_world_is_reused_not_rebuilt(default_world):
    stamp = (default_world.root / "world.json").stat().st_mtime_ns
    again = open_default_world(default_world.root.parent.parent)
    assert again.root == default_world.root
    assert (again.root / "world.json").stat().st_mtime_ns == stamp


def test_default_world_folder_names_the_generator_version_and_code(default_world):
    assert default_world.root.name == f"default-v{GENERATOR_VERSION}-{generator_fingerprint()}"
    assert default_world.info.generator_version == GENERATOR_VERSION == "8"


def test_every_generated_task_states_its_constraints_and_the_heuristic_solves_it(default_world):
    world = default_world
    tools = WorldTools(world.products, world.knowledge)
    for task in world.tasks("generated"):
        products = world.products.get([t.product_id for t in task.targets])
        assert len(products) == len(task.targets)
        assert not any(t.product_id in task.query for t in task.targets)
        if task.intent != "web":
            reading = read_instruction(task.query)
            assert all(stated_exactly(t, spec) for t, spec in zip(task.targets, reading.items, strict=True))
        solved, played = check_task(task, tools)
        assert solved and played.steps <= 30, task.task_id
        if task.intent == "voucher":
            basket = [products[t.product_id] for t in task.targets]
            assert within_budget([p.price for p in basket], [p.shop_id for p in basket], task.voucher)


def test_web_search_finds_the_fact_each_knowledge_task_needs(default_world):
    world = default_world
    for task in world.tasks("generated"):
        if task.intent != "web":
            continue
        question = task.query.split("?")[0] + "?"
        hits = world.knowledge.search(question, max_results=10)
        assert any(task.knowledge_attribute.lower() in hit["content"].lower() for hit in hits), task.query


def test_open_refuses_a_folder_that_is_not_a_world(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a shopbench world"):
        World.open(tmp_path)


@pytest.fixture(scope="module")
def small_documents(default_world, tmp_path_factory) -> Path:
    """The first 300 lines of the default catalog as an uncompressed documents.jsonl (the official file layout)."""
    path = tmp_path_factory.mktemp("official") / "documents.jsonl"
    with gzip.open(default_world.root / "catalog.jsonl.gz", "rt", encoding="utf-8") as source, \
            open(path, "w", encoding="utf-8") as sink:
        for _, line in zip(range(300), source, strict=False):
            sink.write(line)
    return path


def test_import_copies_and_indexes_the_official_corpus_format(small_documents, tmp_path):
    world = import_world(small_documents, tmp_path / "imported", progress=False)
    assert world.info.source == "imported" and world.info.products == 300 and world.is_official_corpus
    assert [r for _, r in read_jsonl(world.root / "catalog.jsonl.gz")] == [r for _, r in read_jsonl(small_documents)]
    first = next(read_jsonl(small_documents))[1]
    rows = world.products.find(first["product"]["title"])
    assert rows and rows[0]["title"] == first["product"]["title"]  # the item itself or one of its resellers
    found = [r["product_id"] for page in range(1, 6) for r in world.products.find(first["product"]["title"], page=page)]
    assert first["id"] in found
    assert len(world.tasks("official")) == 900
    assert len(list(read_jsonl(world.root / "knowledge.jsonl"))) == 150


def test_import_names_the_file_and_line_of_a_bad_record(small_documents, tmp_path):
    lines = small_documents.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[3])
    del broken["product"]["price"]
    bad = tmp_path / "documents.jsonl.gz"
    with gzip.open(bad, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines[:3] + [json.dumps(broken)] + lines[4:10]) + "\n")
    with pytest.raises(DataFileError) as error:
        import_world(bad, tmp_path / "out", progress=False)
    assert error.value.line == 4 and f"{bad}:4" in str(error.value) and "price" in str(error.value)
    assert not (tmp_path / "out" / "world.json").exists()
    (tmp_path / "garbled.jsonl").write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"garbled.jsonl:2"):
        import_world(tmp_path / "garbled.jsonl", tmp_path / "out2", progress=False)


def test_generation_is_deterministic_for_a_seed(tmp_path):
    one = generate_world(tmp_path / "a", products=600, seed=7, tasks_per_intent=5, progress=False)
    two = generate_world(tmp_path / "b", products=600, seed=7, tasks_per_intent=5, progress=False)
    assert one.info.content_hash == two.info.content_hash
    for name in ["catalog.jsonl.gz", "knowledge.jsonl"] + [f"tasks/generated/{f}" for f in TASK_FILES.values()]:
        assert (one.root / name).read_bytes() == (two.root / name).read_bytes(), name
    assert {t.intent for t in one.tasks("generated")} == set(INTENTS)


def test_world_command_generates_imports_and_summarises(small_documents, tmp_path):
    from shopbench.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["world", "generate", "--products", "400", "--seed", "1", "--out",
                                 str(tmp_path / "w"), "--tasks-per-intent", "3"])
    assert result.exit_code == 0, result.output
    assert World.open(tmp_path / "w").info.products == 400
    result = runner.invoke(app, ["world", "info", str(tmp_path / "w")])
    assert result.exit_code == 0 and "400" in result.output and "generated" in result.output
    result = runner.invoke(app, ["world", "import", str(small_documents), "--out", str(tmp_path / "i")])
    assert result.exit_code == 0 and "imported" in result.output
    assert not any((tmp_path / "i" / "index").glob("*"))  # an imported world builds its index on first use ...
    result = runner.invoke(app, ["world", "index", str(tmp_path / "i")])  # ... or now, once, before many jobs
    assert result.exit_code == 0 and "products index:" in result.output, result.output
    title = next(read_jsonl(small_documents))[1]["product"]["title"]
    assert World.open(tmp_path / "i").products.find(title)  # the built index answers
    (tmp_path / "bad.jsonl").write_text("{}\n", encoding="utf-8")
    result = runner.invoke(app, ["world", "import", str(tmp_path / "bad.jsonl"), "--out", str(tmp_path / "x")])
    assert result.exit_code == 1 and "bad.jsonl:1" in result.output
    result = runner.invoke(app, ["world", "info", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "not a shopbench world" in result.output


def test_open_shares_one_world_per_unchanged_folder(default_world, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(default_world.root / "tasks", root / "tasks")
    for name in ("world.json", "catalog.jsonl.gz"):
        shutil.copy2(default_world.root / name, root / name)
    first = World.open(root)
    assert World.open(root) is first  # indexes and parsed task sets are shared within the process
    tasks = first.tasks(GENERATED_SET)
    assert first.tasks(GENERATED_SET) == tasks and first.tasks(GENERATED_SET) is not tasks  # callers get their own list

    task_file = next((root / "tasks" / GENERATED_SET).glob("*.json*"))
    lines = task_file.read_text(encoding="utf-8").splitlines(keepends=True)
    task_file.write_text("".join(lines[1:]), encoding="utf-8")  # one task fewer: the set is read again
    assert len(first.tasks(GENERATED_SET)) == len(tasks) - 1

    (root / "world.json").write_text((root / "world.json").read_text(encoding="utf-8").replace(
        default_world.info.name, "renamed"), encoding="utf-8")
    assert World.open(root) is not first and World.open(root).info.name == "renamed"
