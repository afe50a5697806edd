"""Few-shot demonstrations never give away a served item's answer (issue 18, item 6).

A few-shot Shopping MMLU suite holds each task's demonstration pool out of the run: an MCP client that starts every
listed item sees demonstrations only of items it can never be asked, and the run's manifest names them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from benchmarks.shopping_mmlu import load_items
from benchmarks.shopping_mmlu.prompts import render_answer
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.reports.tables import ScoredRun, task_set_size
from evaluators.results.scoring import score_run
from mcp_server.server import build_server
from mcp_server.suite_registry import build_suites
from mcp_server.suites import NotPlayable, SuiteOptions, check_playable
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory


def strings(value: Any) -> list[str]:
    """Every string in a decoded JSON value (so escaped newlines cannot hide a demonstration from the search)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for inner in value.values() for text in strings(inner)]
    if isinstance(value, list):
        return [text for inner in value for text in strings(inner)]
    return []


def payload(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads("\n".join(block.text for block in result.content if hasattr(block, "text")))


async def test_start_task_never_shows_another_served_items_answer(tmp_path: Path) -> None:
    _, suites = build_suites(["shopping-mmlu"], SuiteOptions(prompting="few-shot", shots=5))
    items = {item.id: item for item in load_items()}
    async with Client(build_server(None, suites, tmp_path / "runs"), mode="legacy") as client:
        page = payload(await client.call_tool("list_tasks", {"limit": 100}))
        served = [row["task_id"] for row in page["tasks"]]
        assert len(served) == page["total"]
        shown: dict[str, str] = {}
        for task_id in served:
            started = await client.call_tool("start_task", {"task_id": task_id, "benchmark": "shopping-mmlu"})
            shown[task_id] = "\n".join(strings(payload(started)))
            assert not (await client.call_tool("submit_answer", {"answer": "0"})).is_error
        for task_id, text in shown.items():
            assert items[task_id].input_field in text
            for other in served:
                if other != task_id:
                    # a demonstration is its question then its answer: no served item's question, no served answer
                    assert items[other].input_field not in text, f"{task_id}'s prompt shows served item {other}"
        held_out = [item_id for item_id in items if item_id not in served]
        assert held_out
        refused = await client.call_tool("start_task", {"task_id": held_out[0], "benchmark": "shopping-mmlu"})
        assert refused.is_error  # a demonstration cannot be asked
    # the demonstrations are there: held-out items with their answers, in the prompts of their own task
    demonstrated = {h for h in held_out for text in shown.values()
                    if f"{items[h].input_field}{render_answer(items[h])}\n\n" in text}
    assert demonstrated == set(held_out)


async def test_run_manifest_names_the_held_out_items_and_limit_counts_served_ones(tmp_path: Path) -> None:
    _, [suite] = build_suites(["shopping-mmlu"], SuiteOptions(prompting="few-shot", shots=1))
    assert suite.demonstrations is not None
    held_out = suite.demonstrations.ids
    result = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", prompting="few-shot", shots=1,
                                           limit=1, out=tmp_path / "few"))
    stated = read_manifest(result.run_dir).parameters["demonstrations"]
    assert stated["ids"] == held_out and stated["count"] == len(held_out) == 10
    assert "20 items" in stated["rule"]
    played = {read_trajectory(path).start.task_id for path in iter_episode_files(result.run_dir)}
    tasks = {item.task_name for item in load_items()}
    assert len(played) == result.summary.total == len(tasks)  # --limit 1: one served item of each task
    assert not played & set(held_out)
    zero = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", intents=["sample_unit_conversion"],
                                         out=tmp_path / "zero"))
    assert "demonstrations" not in read_manifest(zero.run_dir).parameters  # zero-shot serves every item, as before
    assert zero.summary.total == 3


async def test_report_counts_a_few_shot_task_set_without_its_demonstrations(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", prompting="few-shot", shots=1,
                                           intents=["sample_unit_conversion"], out=tmp_path / "few"))
    run = ScoredRun(result.run_dir, read_manifest(result.run_dir), score_run(result.run_dir))
    assert task_set_size(run) == 28 - 10  # the coverage a report states is of the items the run could serve


def test_asking_for_a_demonstration_says_it_is_held_out() -> None:
    _, suites = build_suites(["shopping-mmlu"], SuiteOptions(prompting="few-shot", shots=5))
    held_out = suites[0].demonstrations.ids
    with pytest.raises(NotPlayable, match=rf"'{held_out[0]}' in shopping-mmlu/samples is held out as few-shot demon"):
        check_playable(suites, task_ids=[held_out[0]])
    with pytest.raises(NotPlayable, match="no task 'nope'"):
        check_playable(suites, task_ids=["nope"])
