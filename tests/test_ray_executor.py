"""`shopbench run --executor ray` on a two-node Ray cluster on this machine (Ray's own test cluster): the run scores,
plays and records as the local run with the same seed (and its shards merge with local ones), and a worker killed
mid-episode loses and duplicates nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from evaluators.harness.config import RunOptionError
from evaluators.harness.manifest import decisive
from evaluators.harness.merge import merge_runs
from evaluators.harness.orchestrate import PARTIAL_DIR, episode_state
from evaluators.harness.ray_worker import WorldNotOnNode, WorldRef
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from tests._fake_llm import FakeLLMServer, shopping_policy

INTENTS = ("product", "shop", "voucher", "web")
EIGHT = {f"{intent}-{i:04d}-e0" for intent in INTENTS for i in range(2)}


@pytest.fixture(scope="module")
def cluster():
    """Two Ray nodes of one CPU each (a worker per node), without a dashboard."""
    from ray.cluster_utils import Cluster

    made = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    made.add_node(num_cpus=1)
    yield made
    made.shutdown()


def _scores(run: Path) -> dict:
    """The run's score, less what names the run or times it."""
    scored = score_run(run).to_json()
    for name in ("run_dir", "run_id"):
        scored.pop(name)
    for stats in scored["stats"].values():
        stats.pop("wall_s", None)
    return scored


def _moves(run: Path) -> dict[str, list]:
    return {path.stem: [(s.tool, s.arguments, s.observation) for s in read_trajectory(path).steps]
            for path in iter_episode_files(run)}


def test_a_ray_run_of_8_tasks_equals_the_local_run(cluster, default_world, tmp_path):
    common = ["--model", "random", "--seed", "5", "--limit", "2", "--max-steps", "6", "--world",
              str(default_world.root)]
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    asyncio.run(run_benchmark(RunConfig(benchmark="shoppingbench", model="random", seed=5, limit=2, max_steps=6,
                                        world=default_world.root, out=local)))
    played = subprocess.run([sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", *common, "--executor",
                             "ray", "--address", cluster.address, "--concurrency", "2", "--out", str(on_ray)],
                            capture_output=True, text=True, env=os.environ.copy(), timeout=300)
    assert played.returncode == 0, played.stderr[-2000:]
    assert {p.stem for p in iter_episode_files(on_ray)} == EIGHT
    expected = _scores(local)
    assert _scores(on_ray) == expected
    assert _moves(on_ray) == _moves(local)
    assert decisive(read_manifest(on_ray)) == decisive(read_manifest(local))
    notes = read_manifest(on_ray).notes
    assert notes["executor"] == "ray" and notes["ray"]["nodes"] == 2 and notes["ray_nodes_used"] == 2
    assert notes["completed"] == 8 and notes["ray_workers_started"] == 2
    # Item 4 kept: a shard played locally and one on Ray merge into the unsharded run's scores
    shards = [tmp_path / "shard-1", tmp_path / "shard-2"]
    for index, (shard, executor) in enumerate(zip(shards, ({}, {"executor": "ray", "address": cluster.address}),
                                                  strict=True)):
        asyncio.run(run_benchmark(RunConfig(benchmark="shoppingbench", model="random", seed=5, limit=2, max_steps=6,
                                            world=default_world.root, out=shard, shard=f"{index + 1}/2",
                                            **executor)))
    merge_runs(shards, tmp_path / "merged")
    assert _scores(tmp_path / "merged") == expected


def _worker_pids(cluster) -> list[int]:
    """The pids of this cluster's episode workers (children of its nodes' raylets), busy ones first."""
    from ray._private import ray_constants

    raylets = {node.all_processes[ray_constants.PROCESS_TYPE_RAYLET][0].process.pid
               for node in cluster.list_all_nodes()}
    found = []
    for entry in Path("/proc").iterdir():
        try:
            title = (entry / "cmdline").read_bytes().split(b"\0")[0].decode()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent in raylets and title.startswith("ray::EpisodeWorker"):
            found.append((not title.endswith(".play"), int(entry.name)))
    return [pid for _, pid in sorted(found)]


async def test_a_worker_killed_mid_episode_loses_and_duplicates_nothing(cluster, default_world, tmp_path):
    out = tmp_path / "run"
    killed: list[int] = []

    async def kill_a_busy_worker() -> None:
        """Once an episode is in the run folder, SIGKILL a worker playing one."""
        while True:
            await asyncio.sleep(0.05)
            pids = _worker_pids(cluster) if list(iter_episode_files(out)) else []
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return

    with FakeLLMServer("openai", shopping_policy, delay=0.2) as fake:
        killer = asyncio.create_task(kill_a_busy_worker())
        result = await run_benchmark(RunConfig(
            benchmark="shoppingbench", model=f"openai-compatible:{fake.base_url}#slow-model", limit=2,
            world=default_world.root, out=out, cache=False, executor="ray", address=cluster.address, concurrency=2))
        killer.cancel()
    assert killed, "the run ended before a worker could be killed"
    summary = result.summary
    assert summary.completed == 8 and not summary.failed and summary.replayed >= 1
    assert {p.stem for p in iter_episode_files(out) if episode_state(out, p.stem) == "finished"} == EIGHT
    for path in iter_episode_files(out):
        lines = path.read_text().splitlines()
        assert sum('"event":"start"' in line for line in lines) == 1
        assert sum('"event":"end"' in line for line in lines) == 1
        assert [s.tool for s in read_trajectory(path).steps] == ["find_product", "recommend_product", "terminate"]
    assert not (out / PARTIAL_DIR).exists()  # nothing of the killed worker's episode reached the run folder
    notes = read_manifest(out).notes
    assert notes["replayed"] == summary.replayed and notes["ray_workers_started"] >= 3
    assert score_run(out).to_json()["intents"][0]["episodes"] == 2


@pytest.mark.parametrize(("options", "refusal"), [
    ({"address": "127.0.0.1:1"}, "--address names a Ray cluster: it needs --executor ray"),
    ({"executor": "ray", "server_url": "http://127.0.0.1:1/mcp"}, "--server does not apply to --executor ray"),
    ({"executor": "ray", "agent": "claude-code"}, "--agent does not apply to --executor ray"),
    ({"executor": "spark"}, "--executor takes local or ray; not 'spark'"),
])
async def test_executor_options_that_cannot_apply_are_refused_before_the_run_folder(options, refusal, tmp_path):
    with pytest.raises(RunOptionError, match=refusal):
        await run_benchmark(RunConfig(benchmark="shoppingbench", model="random", limit=1, out=tmp_path / "r",
                                      **options))
    assert not (tmp_path / "r").exists()


def test_a_worker_finds_the_run_world_at_its_path_or_builds_the_default_one(default_world, tmp_path):
    elsewhere = str(tmp_path / "not-on-this-node")
    assert WorldRef(elsewhere, default_world.info.content_hash, default=True).open_here().root == default_world.root
    with pytest.raises(WorldNotOnNode, match="is not on Ray node .*: put it on a filesystem every node sees"):
        WorldRef(elsewhere, default_world.info.content_hash, default=False).open_here()
    with pytest.raises(WorldNotOnNode, match="holds catalog .*, not the run's 000000000000"):
        WorldRef(str(default_world.root), "0" * 64, default=False).open_here()


async def test_gpu_workers_ask_ray_for_a_gpu_each(cluster, default_world, tmp_path):
    with pytest.raises(RunOptionError, match=r"each worker needs a GPU \(--n-gpu-layers\); the cluster has"):
        await run_benchmark(RunConfig(benchmark="shoppingbench", model="random", limit=1, out=tmp_path / "none",
                                      executor="ray", address=cluster.address, n_gpu_layers=-1))
    assert not (tmp_path / "none").exists()
    gpu_node = cluster.add_node(num_cpus=1, num_gpus=1)  # Ray counts the GPU it is told of
    try:
        result = await run_benchmark(RunConfig(
            benchmark="shoppingbench", model="random", limit=1, world=default_world.root, out=tmp_path / "gpu",
            executor="ray", address=cluster.address, n_gpu_layers=-1, concurrency=3))
    finally:
        cluster.remove_node(gpu_node)
    notes = read_manifest(tmp_path / "gpu").notes
    assert result.summary.completed == 4
    assert notes["ray"]["workers"] == 1 and notes["ray_nodes_used"] == 1  # one GPU: one worker, on the GPU's node


def test_a_run_on_ray_leaves_the_processs_fault_handlers_as_they_were(cluster, default_world, tmp_path):
    """ray.init installs Ray's SIGSEGV/SIGBUS handler and ray.shutdown resets SIGSEGV to the default: a JVM already
    running in the driver (a world's search) would die at its next internal fault, as this process did when
    tests/test_baselines_scripted.py ran after this file."""
    from evaluators.harness.fault_handlers import KEPT_SIGNALS, fault_handler
    from mcp_server.shopping.search.lucene_runtime import start_jvm

    start_jvm()
    before = {number: fault_handler(number) for number in KEPT_SIGNALS}
    assert all(before.values())  # the JVM's
    asyncio.run(run_benchmark(RunConfig(benchmark="shoppingbench", model="random", limit=1, max_steps=4,
                                        world=default_world.root, out=tmp_path / "run", executor="ray",
                                        address=cluster.address)))
    assert {number: fault_handler(number) for number in KEPT_SIGNALS} == before
