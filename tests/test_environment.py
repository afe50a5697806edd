"""One environment opener (issue 19): every player gets its suites, world and server from `open_environment`, with
the step limit defaulted in one place, and `shopbench serve` records in its run manifest what decides the questions
it serves, as `shopbench run` does."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from mcp_server.environment import open_environment
from mcp_server.episode_client import EpisodeClient
from mcp_server.protocol import DEFAULT_MAX_STEPS
from mcp_server.trajectory import AgentInfo, read_manifest

PLAYER = AgentInfo(kind="human", name="tester")


async def test_serve_manifest_records_prompting_shots_seed_and_the_held_out_items(tmp_path: Path) -> None:
    runs = tmp_path / "served"
    args = ["-m", "shopbench.cli", "serve", "--benchmark", "shopping-mmlu", "--prompting", "few-shot", "--shots", "2",
            "--seed", "7", "--runs", str(runs)]
    async with Client(StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ)),
                      read_timeout_seconds=120) as session:
        client = EpisodeClient(session)
        await client.start((await client.list_tasks())[0]["task_id"], agent=PLAYER)
    [suite] = open_environment(["shopping-mmlu"], runs_dir=runs, prompting="few-shot", shots=2, seed=7).suites
    assert suite.demonstrations is not None
    parameters = read_manifest(runs).parameters
    assert parameters["prompting"] == "few-shot" and parameters["shots"] == 2 and parameters["seed"] == 7
    assert parameters["demonstrations"] == {"rule": suite.demonstrations.rule, "count": len(suite.demonstrations.ids),
                                            "ids": suite.demonstrations.ids}


async def test_the_step_limit_defaults_in_one_place(default_world, tmp_path: Path) -> None:
    environment = open_environment(["shoppingbench"], runs_dir=tmp_path, world=default_world)
    [(_, listing)] = environment.selection(limit=1, intents=["product"])
    async with Client(environment.server, mode="legacy") as session:
        started = await EpisodeClient(session).start(listing.task_id, agent=PLAYER)
    assert started.max_steps == DEFAULT_MAX_STEPS == read_manifest(tmp_path).parameters["max_steps"]
    shorter = open_environment(["shoppingbench"], runs_dir=tmp_path / "short", world=default_world, max_steps=3)
    async with Client(shorter.server, mode="legacy") as session:
        assert (await EpisodeClient(session).start(listing.task_id, agent=PLAYER)).max_steps == 3
