"""An MCP client (official SDK, in memory) takes one item of each question benchmark through start_task /
submit_answer, and the run is scored by the same code as `shopbench run`."""

from __future__ import annotations

import json
from pathlib import Path

from mcp import Client

from benchmarks.intentionqa import load_items as intentionqa_items
from evaluators.results.scoring import ScoreOptions, get_scorer, score_run
from mcp_server.qa_suites import QASuite
from mcp_server.server import build_server
from mcp_server.suite_registry import build_suites


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


async def test_mcp_client_answers_one_item_of_each(tmp_path: Path) -> None:
    world, suites = build_suites(["shopping-mmlu", "intentionqa", "session-intent"])
    assert world is None  # question benchmarks need no world
    runs = tmp_path / "runs"
    server = build_server(None, suites, runs)
    gold = next(item for item in intentionqa_items() if item.qid == "task1:FS_1").gold_ind
    async with Client(server, mode="legacy") as client:
        for suite, task_id, answer in [
            ("shopping-mmlu", "sample-00", "1"),
            ("intentionqa", "task1:FS_1", f"{gold}."),
            ("session-intent", "sample-s01-t1", "A. Yes"),
        ]:
            listed = json.loads(text_of(await client.call_tool("list_tasks", {"benchmark": suite})))
            listed = listed["tasks"]
            assert any(row["task_id"] == task_id for row in listed)
            assert all(set(row) <= {"task_id", "benchmark", "task_set", "intent"} for row in listed)
            started = json.loads(text_of(await client.call_tool("start_task", {"task_id": task_id,
                                                                               "benchmark": suite})))
            assert started["kind"] == "qa" and started["tools"] == ["submit_answer"]
            submitted = await client.call_tool("submit_answer", {"answer": answer})
            assert not submitted.is_error
    # one run folder, three benchmarks: each scorer reads its own episodes
    results = {name: get_scorer(name).score_run(runs, ScoreOptions()).to_json()
               for name in ("shopping-mmlu", "intentionqa", "session-intent")}
    assert results["shopping-mmlu"]["items"]["sample-00"]["score"] == 1.0
    assert results["intentionqa"]["items"]["task1:FS_1"]["score"] == 1.0
    assert results["session-intent"]["items"]["sample-s01-t1"]["score"] == 1.0
    manifest_benchmark = json.loads((runs / "manifest.json").read_text())["benchmark"]
    assert score_run(runs).to_json() == results[manifest_benchmark]


def test_instructions_never_hold_the_answer() -> None:
    suite = QASuite("session-intent")
    for listing in suite.listings():
        text = suite.instruction(listing.task_id)
        assert "gold" not in text and text.startswith("Act as a customer")
    mmlu = QASuite("shopping-mmlu")
    assert mmlu.instruction("sample-00").startswith("You are a helpful online shopping assistant.")
    assert "Answer: " in mmlu.instruction("sample-00") and mmlu.instruction("sample-00").endswith("Answer: ")
