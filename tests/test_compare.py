"""`shopbench compare`: paired comparison of constructed runs whose discordant counts are known."""

from __future__ import annotations

import json

import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from scipy.stats import binomtest

from evaluators.results.reports.compare import compare
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories


@pytest.fixture(scope="module")
def official():
    return official_catalog()


def _play(run, tasks, right, *, epoch=0):
    for index, task in enumerate(tasks):
        ids = ",".join(t.product_id for t in task.targets) if index in right else "wrong-id"
        write_episode(run, task, recommend(ids), epoch=epoch)


def test_compare_gives_the_exact_mcnemar_p_on_the_shared_tasks(tmp_path, official):
    tasks, products = official
    product = [t for t in tasks if t.intent == "product"][:15]
    a_run, b_run = make_run(tmp_path / "a", name="model-a"), make_run(tmp_path / "b", name="model-b")
    # shared tasks 0-11: A solves 0-8, B solves 0-2 and 9 → A-only 6, B-only 1, both 3, neither 2
    _play(a_run, product[:12] + [product[14]], right=set(range(9)) | {12})
    _play(b_run, product[:14], right={0, 1, 2, 9, 12, 13})
    lookup = MappingLookup(products)
    a = score_trajectories(a_run, lambda _: tasks, lookup)
    b = score_trajectories(b_run, lambda _: tasks, lookup)

    result = compare(a, b, "model-a", "model-b")
    assert (result.tasks_a, result.tasks_b, result.shared, result.only_a, result.only_b) == (13, 14, 12, 1, 2)
    asr = result.metrics[0]
    assert asr.metric == "ASR" and [g.group for g in asr.groups] == ["product"]
    test = asr.overall.mcnemar
    assert test is not None and (test.a_only, test.b_only, test.both, test.neither) == (6, 1, 3, 2)
    assert test.p == pytest.approx(binomtest(6, 7, 0.5).pvalue)
    assert test.p == pytest.approx(2 * (1 + 7) / 2**7)  # by hand: 2 · P(X ≤ 1), X ~ Binomial(7, 1/2)
    true_difference = 9 / 12 - 4 / 12
    difference = asr.overall.difference
    assert difference.value == pytest.approx(true_difference)
    assert difference.low < true_difference < difference.high and difference.n == 12
    assert (asr.overall.a, asr.overall.b) == (pytest.approx(0.75), pytest.approx(4 / 12))
    text = result.coverage_text()
    assert "compared on the 12 tasks both runs played" in text
    assert "1 played only by model-a (of 13)" in text and "2 played only by model-b (of 14)" in text
    assert result.metrics[1].metric == "CAR" and result.metrics[1].overall.mcnemar is None


def test_several_epochs_compare_per_task_means(tmp_path, official):
    tasks, products = official
    product = [t for t in tasks if t.intent == "product"][:4]
    shop = [t for t in tasks if t.intent == "shop"][:2]
    a_run, b_run = make_run(tmp_path / "a", name="m"), make_run(tmp_path / "b", name="m")
    _play(a_run, product + shop, right={0, 1, 4}, epoch=0)
    _play(a_run, product + shop, right={0}, epoch=1)  # task 1: 0.5 over two epochs
    _play(b_run, product + shop, right={0}, epoch=0)
    lookup = MappingLookup(products)
    result = compare(score_trajectories(a_run, lambda _: tasks, lookup),
                     score_trajectories(b_run, lambda _: tasks, lookup), "m", "m")
    assert (result.a, result.b) == ("m (A)", "m (B)")  # same name: told apart
    assert (result.epochs_a, result.epochs_b, result.shared) == (2, 1, 6)
    asr = result.metrics[0]
    assert asr.overall.mcnemar is None and "McNemar needs one binary outcome per task" in result.coverage_text()
    by_group = {g.group: g for g in asr.groups}
    assert by_group["product"].difference.value == pytest.approx((0 + 0.5 + 0 + 0) / 4)
    assert by_group["shop"].difference.value == pytest.approx((0.5 + 0) / 2)
    assert asr.overall.difference.value == pytest.approx((0.125 + 0.25) / 2)  # mean over intents, as the paper


def test_compare_command_writes_json(default_world, tmp_path):
    from typer.testing import CliRunner

    from shopbench.cli import app

    task_set = next(name for name in default_world.task_sets() if name != "official")
    tasks = [t for t in default_world.tasks(task_set) if t.intent == "product"][:6]
    world = {"path": str(default_world.root)}
    a_run, b_run = make_run(tmp_path / "a", name="a", world=world), make_run(tmp_path / "b", name="b", world=world)
    _play(a_run, tasks, right={0, 1, 2, 3})
    _play(b_run, tasks[:5], right={0})
    out = tmp_path / "cmp.json"
    outcome = CliRunner().invoke(app, ["compare", str(a_run), str(b_run), "--json", str(out)])
    assert outcome.exit_code == 0, outcome.output
    assert "compared on the 5 tasks both runs played" in " ".join(outcome.output.split())
    data = json.loads(out.read_text())
    overall = data["metrics"][0]["overall"]
    assert data["only_a"] == 1 and overall["mcnemar"]["a_only"] == 3 and overall["mcnemar"]["b_only"] == 0
    assert overall["mcnemar"]["p"] == pytest.approx(0.25)
    bad = CliRunner().invoke(app, ["compare", str(a_run), str(tmp_path / "missing")])
    assert bad.exit_code == 2 and "not a run directory" in bad.output
