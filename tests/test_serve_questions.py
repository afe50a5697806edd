"""`shopbench serve --benchmark`: question benchmarks served over stdio to the official MCP client, then scored."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from evaluators.results.scoring import ScoreOptions, get_scorer
from mcp_server.trajectory import iter_episode_files, read_trajectory


def _payload(result) -> dict:
    assert not result.is_error, result.content
    return json.loads("\n".join(block.text for block in result.content if hasattr(block, "text")))


async def test_serve_intentionqa_only_over_stdio(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "shopbench.cli", "serve", "--benchmark", "intentionqa", "--runs", str(runs)],
        env=dict(os.environ),
    )
    async with Client(params, read_timeout_seconds=300) as client:
        listed = _payload(await client.call_tool("list_tasks", {"benchmark": "intentionqa"}))["tasks"]
        assert listed and {task["benchmark"] for task in listed} == {"intentionqa"}
        assert all(set(task) <= {"task_id", "benchmark", "task_set", "intent"} for task in listed)
        started = await client.call_tool("start_task", {"task_id": listed[0]["task_id"], "benchmark": "intentionqa"})
        assert not started.is_error
        question = "\n".join(block.text for block in started.content if hasattr(block, "text"))
        assert "Answer A or B or C or D" in question
        submitted = await client.call_tool("submit_answer", {"answer": "A"})
        assert not submitted.is_error
        refused = await client.call_tool("find_product", {"q": "cable", "page": 1})
        assert refused.is_error

    [episode] = iter_episode_files(runs)
    trajectory = read_trajectory(episode)
    assert trajectory.end is not None and trajectory.end.status == "submitted" and trajectory.end.answer == "A"
    result = get_scorer("intentionqa").score_run(runs, ScoreOptions())
    assert list(result.episode_success()) == [trajectory.episode_id]
