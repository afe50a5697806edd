"""The benchmark registry: a benchmark registered only in examples/ (examples/tiny_bench.py) is run, scored,
served and listed by shopbench without touching any other module; and the same item played by `shopbench run` and
by an MCP client is recorded identically (up to agent identity, times and episode id)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from typer.testing import CliRunner

import examples.tiny_bench  # noqa: F401 - registers "tiny-bench"
from benchmarks.registry import BUILTINS, UnknownBenchmarkError, benchmark_names, get_benchmark
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import ScoreOptions, get_scorer
from mcp_server.server import build_server
from mcp_server.suite_registry import build_suites
from mcp_server.trajectory import episode_path, iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app
from tests._cold_python import run_python

VARYING = {"episode_id", "agent", "started_at", "ended_at"}


def _events(path: Path) -> list[dict[str, Any]]:
    """The episode's events without what differs between players: identity and times."""
    return [{k: v for k, v in json.loads(line).items() if k not in VARYING} for line in path.read_text().splitlines()]


def test_the_builtins_register_with_everything_commands_need() -> None:
    assert benchmark_names()[:4] == ["shoppingbench", "shopping-mmlu", "intentionqa", "session-intent"]
    assert get_benchmark("shoppingbench").kind == "agentic" and get_benchmark("shoppingbench").group == "intent"
    for name in benchmark_names(kind="qa"):
        spec = get_benchmark(name)
        assert spec.promptings[0] == "zero-shot" and spec.help and spec.primary_metric
        assert spec.questions().name == name and spec.item_schema
        assert get_scorer(name).benchmark == name
    with pytest.raises(UnknownBenchmarkError, match="Did you mean 'tiny-bench'"):
        get_benchmark("tiny-bnch")


@pytest.mark.parametrize("first", [*BUILTINS, "examples.tiny_bench"])
def test_listings_keep_the_builtins_order_whichever_module_is_imported_first(first: str, tmp_path: Path) -> None:
    # a built-in's module imported before the registry's first load registers it while the others load
    listed = run_python(f"import {first}\nfrom benchmarks.registry import benchmark_names\nprint(*benchmark_names())",
                        home=tmp_path)
    assert listed.returncode == 0, listed.stderr
    plugin = ["tiny-bench"] if first.startswith("examples.") else []
    assert listed.stdout.split() == ["shoppingbench", "shopping-mmlu", "intentionqa", "session-intent", *plugin]


def test_a_benchmark_registered_in_examples_runs_and_scores(tmp_path: Path) -> None:
    runner = CliRunner()
    # (the help text lists the benchmarks registered when shopbench.cli was first imported; the command itself
    # looks every name up in the registry when it runs)
    assert "tiny-bench" in benchmark_names(kind="qa")
    out = tmp_path / "run"
    ran = runner.invoke(app, ["run", "tiny-bench", "--model", "majority", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    assert read_manifest(out).benchmark == "tiny-bench" and read_manifest(out).agent.name == "majority"
    scored = runner.invoke(app, ["score", str(out), "--json", str(tmp_path / "scores.json")])
    assert scored.exit_code == 0, scored.output
    scores = json.loads((tmp_path / "scores.json").read_text())
    assert scores["tasks"] == {"colour": 2 / 3, "count": 1.0} and scores["overall"] == 0.75
    reported = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert reported.exit_code == 0, reported.output
    report = (tmp_path / "report" / "report.md").read_text()
    # the report's words and aggregation come from the registration: pooled, so the overall row has a Wilson interval
    assert "overall: accuracy over the four tiny items" in report
    assert "| overall | baseline | majority | 4 | 0.750 | 0.750 [0.301, 0.954] |" in report
    limited = runner.invoke(app, ["run", "tiny-bench", "--model", "random", "--limit", "1", "--out",
                                  str(tmp_path / "limited")])
    assert limited.exit_code == 0, limited.output
    played = {read_trajectory(p).start.task_id for p in iter_episode_files(tmp_path / "limited")}
    assert played == {"colour:1", "count:1"}  # --limit 1: the first item of each task


async def test_served_to_an_mcp_client_it_is_recorded_as_shopbench_run_records_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    await run_benchmark(RunConfig(benchmark="tiny-bench", model="majority", task_ids=["count:1"], out=out))
    # served to the official MCP client, in memory: the same item, answered the same, is recorded the same
    world, suites = build_suites(["tiny-bench"])
    served = tmp_path / "served"
    async with Client(build_server(world, suites, served), mode="legacy") as client:
        listed = (await client.call_tool("list_tasks", {"benchmark": "tiny-bench"})).structured_content
        assert {row["task_id"] for row in listed["tasks"]} == {"colour:1", "colour:2", "colour:3", "count:1"}
        started = (await client.call_tool("start_task", {"task_id": "count:1", "episode_id": "mine"}))
        question = started.structured_content["question"]
        assert question["user"] == "How many wheels has a bicycle?\nAnswer:" and "2" not in question["user"]
        assert not (await client.call_tool("submit_answer", {"answer": "2"})).is_error
    [run_file] = iter_episode_files(out)
    assert _events(episode_path(served, "mine")) == _events(run_file)
    result = get_scorer("tiny-bench").score_run(served, ScoreOptions())
    assert result.primary_metric == "accuracy" and result.episode_success() == {"mine": True}


def test_options_of_another_kind_are_refused(tmp_path: Path) -> None:
    runner = CliRunner()
    refused = runner.invoke(app, ["run", "tiny-bench", "--model", "random", "--max-steps", "3", "--out",
                                  str(tmp_path / "x")])
    assert refused.exit_code == 2 and "--max-steps does not apply to tiny-bench" in refused.output
    oracle = runner.invoke(app, ["run", "tiny-bench", "--model", "oracle", "--out", str(tmp_path / "x")])
    assert oracle.exit_code == 2 and "oracle plays agentic benchmarks only" in oracle.output
    unknown = runner.invoke(app, ["run", "tiny-bnch", "--model", "random"])
    assert unknown.exit_code == 2 and "Did you mean 'tiny-bench'" in unknown.output
    assert not (tmp_path / "x").exists()
