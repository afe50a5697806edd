"""Epochs are bounded where they enter (`run --epochs`, MAX_EPOCHS) and pass^k is computed for the tries that exist:
one episode recorded with a huge epoch (a file written before the bound) is one more try, scored in well under a
second, where pass^k used to be computed for every k up to that epoch number (still running after minutes)."""

from __future__ import annotations

import time

import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from typer.testing import CliRunner

from benchmarks.registry import get_benchmark
from evaluators.harness.config import RunConfig, RunOptionError
from evaluators.harness.player_choice import check_options
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories
from evaluators.results.stats import pass_hat_curve
from mcp_server.protocol import MAX_EPOCHS
from shopbench.cli import app


def test_pass_hat_curve_stops_at_the_most_tries_of_one_task():
    # task A: 3 tries, 2 successes; task B: 1 try, 1 success (it informs k = 1 only)
    assert pass_hat_curve([(3, 2), (1, 1)]) == pytest.approx({1: (2 / 3 + 1) / 2, 2: 1 / 3, 3: 0.0})
    assert pass_hat_curve([(1, 1), (1, 0)]) == {}


@pytest.mark.timeout(30)
def test_an_episode_recorded_at_epoch_a_billion_is_one_try_and_scores_in_under_a_second(tmp_path):
    tasks, products = official_catalog()
    first = next(t for t in tasks if t.intent == "product")
    run = make_run(tmp_path / "run")
    write_episode(run, first, recommend(first.targets[0].product_id), epoch=0)
    write_episode(run, first, recommend("nope"), epoch=10**9)
    began = time.perf_counter()
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    elapsed = time.perf_counter() - began
    assert elapsed < 1.0, f"{elapsed:.2f} s"
    assert result.epochs == 2
    assert result.intents[0].pass_k == pytest.approx({1: 0.5, 2: 0.0})


def test_run_refuses_more_epochs_than_max_epochs():
    spec = get_benchmark("shoppingbench")
    check_options(spec, RunConfig(benchmark="shoppingbench", model="random", epochs=MAX_EPOCHS))
    with pytest.raises(RunOptionError, match=f"--epochs must be 1 to {MAX_EPOCHS}"):
        check_options(spec, RunConfig(benchmark="shoppingbench", model="random", epochs=MAX_EPOCHS + 1))
    # --task-id names no task: were the bound missing, the run would stop there, not at --epochs
    outcome = CliRunner().invoke(app, ["run", "shoppingbench", "--model", "random", "--epochs",
                                       str(MAX_EPOCHS + 1), "--task-id", "no-such-task"])
    assert outcome.exit_code == 2 and f"less than or equal to {MAX_EPOCHS}" in outcome.output, outcome.output
