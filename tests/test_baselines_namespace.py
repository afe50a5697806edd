"""One baseline namespace: each name registered once, one policy per episode format, and every baseline plays exactly
as it did before the namespace (trajectories and scores pinned from the code at 485c014)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.models import ModelSpecError, get_model
from evaluators.players.baselines import baseline_names, policy
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_trajectory
from shopbench.cli import app
from tests._float_scores import SCORE_TOLERANCE

PINNED = {
    ("shoppingbench", "random"): ("7fd4d48f4fc3be32", 0.25),
    ("shoppingbench", "oracle"): ("f1fc7b02eaf9cb1b", 1.0),
    ("shoppingbench", "naive"): ("474dd70c8f4760a4", 0.0),
    ("shoppingbench", "heuristic"): ("8df7a78e00993504", 1.0),
    ("intentionqa", "random"): ("cbf7dc90096679cf", 0.5),
    ("intentionqa", "majority"): ("a28d38a49da54423", 0.0),
    ("session-intent", "random"): ("1cdb2d8022578e6d", 0.5),
    ("session-intent", "majority"): ("b9cb8fc21a262d59", 0.75),
    ("shopping-mmlu", "random"): ("9f524bbd33f786af", 0.21057998729764935),
    ("shopping-mmlu", "majority"): ("d10d0f8e466ba986", 0.7072068251669407),
}
"""(benchmark, baseline) → digest of every episode's calls, arguments, costs and end (exact), and the primary score
(within tests._float_scores.SCORE_TOLERANCE: the CPU's kernels round it), as the code at 485c014 played them (seed 0,
--limit 1 per intent for ShoppingBench, 2 per task for the questions); naive's and heuristic's steps now cost 0.0
where 485c014 recorded None (unknown), as random's and oracle's always did. The four ShoppingBench rows were
re-pinned for generator version 3, again for its official-like wording, for version 4, for version 5 (its default
world has other instructions; with version 5 random and naive each happen to solve one of the four first tasks:
0.25), for version 7 (random still solves one of the four first tasks, naive none) and for version 8 (the same
scores)."""
KINDS = {"shoppingbench": "agentic", "intentionqa": "qa", "session-intent": "qa", "shopping-mmlu": "qa"}


def test_each_name_means_one_policy_per_episode_format():
    assert baseline_names("agentic") == ["random", "oracle", "naive", "heuristic"]
    assert baseline_names("qa") == ["random", "majority"]
    for name in baseline_names("agentic"):  # the agentic policies are the model specs of the same names
        assert type(get_model(name)) is type(policy(name, "agentic", "shoppingbench")(0))
    with pytest.raises(ModelSpecError, match="unknown model provider 'majority'"):
        get_model("majority")  # a question policy only


def test_a_baseline_without_a_policy_for_the_benchmark_is_refused_in_one_line(tmp_path):
    runner = CliRunner()
    heuristic = runner.invoke(app, ["run", "intentionqa", "--model", "heuristic", "--out", str(tmp_path / "a")])
    assert heuristic.exit_code == 2, heuristic.output
    assert ("heuristic plays agentic benchmarks only; intentionqa has the random and majority baselines"
            in " ".join(heuristic.output.split()))
    majority = runner.invoke(app, ["run", "shoppingbench", "--model", "majority", "--out", str(tmp_path / "b")])
    assert majority.exit_code == 2
    assert ("majority answers question benchmarks only; shoppingbench has the random, oracle, naive and heuristic "
            "baselines" in " ".join(majority.output.split()))
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def _digest(run: Path) -> str:
    rows = []
    for path in sorted(iter_episode_files(run)):
        trajectory = read_trajectory(path)
        assert trajectory.end is not None
        steps = [[s.tool, s.arguments, s.usage.cost_usd if s.usage else None] for s in trajectory.steps]
        rows.append([path.stem, steps, trajectory.end.status])
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()[:16]


async def test_every_baseline_plays_as_it_did_before(default_world, tmp_path):
    played = set()
    for benchmark, kind in KINDS.items():
        for name in baseline_names(kind):
            run = tmp_path / f"{benchmark}-{name}"
            options = {"world": default_world.root, "limit": 1} if kind == "agentic" else {"limit": 2}
            await run_benchmark(RunConfig(benchmark=benchmark, model=name, out=run, cache=False, **options))
            scored = score_run(run).to_json()
            primary = scored["overall_asr"]["value"] if "overall_asr" in scored else scored["overall"]
            digest, score = PINNED[benchmark, name]
            assert _digest(run) == digest, (benchmark, name)  # what was played: exact on every host
            assert primary == pytest.approx(score, abs=SCORE_TOLERANCE), (benchmark, name)  # float sums: see there
            played.add((benchmark, name))
    assert played == set(PINNED)
