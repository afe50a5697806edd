"""Several `shopbench serve` processes writing one run folder (official client over stdio), and `serve`'s identity
defaults."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from mcp_server.episode_client import EpisodeClient
from mcp_server.trajectory import episode_path, iter_episode_files, read_manifest, read_trajectory


def serve(runs: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "shopbench.cli", "serve", "--runs", str(runs), *extra],
                                 env=dict(os.environ))


async def test_two_server_processes_share_one_run_folder(default_world, tmp_path: Path) -> None:
    runs = tmp_path / "shared-runs"
    played: dict[str, str] = {}

    async def play(name: str, task_index: int, *extra: str) -> None:
        async with Client(serve(runs, *extra), read_timeout_seconds=300) as client:
            episode = EpisodeClient(client)
            tasks = await episode.list_tasks()
            started = await episode.start(tasks[task_index]["task_id"], episode_id=f"{name}-1")
            for _ in range(3):
                assert not (await episode.call("find_product", {"q": "shirt", "page": 1})).is_error
            assert (await episode.call("terminate", {"status": "failure"})).ended
            played[name] = started.episode_id

    async with anyio.create_task_group() as group:
        group.start_soon(play, "alpha", 0)
        group.start_soon(play, "beta", 1, "--agent-name", "served-model", "--agent-kind", "model")
    manifest = read_manifest(runs)  # written once, whole, whichever process came first
    assert manifest.benchmark == "shoppingbench" and json.loads((runs / "manifest.json").read_text())
    assert not list(runs.glob("*.tmp")) and not list(runs.glob("manifest.json.*"))
    assert len(iter_episode_files(runs)) == 2
    for name in ("alpha", "beta"):
        trajectory = read_trajectory(episode_path(runs, played[name]))
        assert [s.tool for s in trajectory.steps] == ["find_product"] * 3 + ["terminate"]
        assert trajectory.end.status == "terminated"
    beta = read_trajectory(episode_path(runs, played["beta"])).start.agent
    assert (beta.kind, beta.name) == ("model", "served-model")
    alpha = read_trajectory(episode_path(runs, played["alpha"])).start.agent
    assert alpha.kind == "mcp-client"
