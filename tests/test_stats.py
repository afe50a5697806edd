"""Bootstrap intervals, pass^k and Pearson correlation on values whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import t as scipy_t

from evaluators.scoring.trajectory_stats import correlations, trajectory_stats
from evaluators.stats import bootstrap_ci, pass_hat_k, pearson, stratified_bootstrap_ci
from mcp_server.trajectory import AgentInfo, StartEvent, StepEvent, Trajectory, Usage


def test_bootstrap_interval_matches_the_normal_approximation():
    values = [0.0, 1.0] * 100  # p = 0.5, n = 200: standard error 0.0354, 95% half-width ≈ 0.069
    interval = bootstrap_ci(values)
    assert interval.value == 0.5 and interval.n == 200
    assert interval.low == pytest.approx(0.5 - 1.96 * math.sqrt(0.25 / 200), abs=0.01)
    assert interval.high == pytest.approx(0.5 + 1.96 * math.sqrt(0.25 / 200), abs=0.01)
    assert (interval.seed, interval.resamples, interval.confidence) == (0, 10_000, 0.95)


def test_bootstrap_is_reproducible_and_seed_dependent():
    values = list(np.random.default_rng(3).random(50))
    assert bootstrap_ci(values) == bootstrap_ci(values)
    assert bootstrap_ci(values, seed=1).low != bootstrap_ci(values).low


def test_degenerate_samples():
    assert bootstrap_ci([1.0] * 10).model_dump(include={"value", "low", "high"}) == {"value": 1.0, "low": 1.0,
                                                                                      "high": 1.0}
    empty = bootstrap_ci([])
    assert empty.value is None and empty.n == 0 and empty.text() == "–"


def test_stratified_interval_averages_groups_equally():
    interval = stratified_bootstrap_ci([[1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    assert interval.value == 0.5 and interval.low == 0.5 and interval.high == 0.5 and interval.n == 6


def test_pass_hat_k_is_taus_estimator():
    assert pass_hat_k([(4, 2)], 1) == 0.5
    assert pass_hat_k([(4, 2)], 2) == pytest.approx(1 / 6)  # C(2,2) / C(4,2)
    assert pass_hat_k([(4, 2)], 3) == 0.0
    assert pass_hat_k([(4, 4), (4, 0)], 4) == 0.5
    assert pass_hat_k([(2, 2), (4, 3)], 3) == pytest.approx(0.25)  # only the 4-trial task: C(3,3)/C(4,3)
    assert pass_hat_k([(2, 2)], 3) is None
    with pytest.raises(ValueError):
        pass_hat_k([(2, 2)], 0)


def test_pearson_against_numpy_and_known_p_value():
    rng = np.random.default_rng(0)
    x = rng.random(40)
    y = x + rng.random(40)
    result = pearson(list(x), list(y))
    assert result.r == pytest.approx(np.corrcoef(x, y)[0, 1]) and result.n == 40
    perfect = pearson([1, 2, 3, 4], [2, 4, 6, 8])
    assert perfect.r == pytest.approx(1.0) and perfect.p == pytest.approx(0.0, abs=1e-9)
    known = pearson([1, 2, 3, 4, 5], [1, 3, 2, 5, 4])  # r = 8 / sqrt(10 · 10) = 0.8
    t = 0.8 * math.sqrt(3) / math.sqrt(1 - 0.8**2)
    assert known.r == pytest.approx(0.8)
    assert known.p == pytest.approx(2 * scipy_t.sf(t, df=3))
    constant = pearson([1, 1, 1], [0, 1, 0])
    assert constant.r is None and constant.p is None and constant.n == 3


def test_app_f_statistics_count_the_right_calls_and_correlate():
    def episode(views: int, shop_search: bool) -> Trajectory:
        steps = [StepEvent(index=0, tool="find_product", arguments={"q": "a", "page": 1}),
                 StepEvent(index=1, tool="find_product", arguments={"q": "a", "page": "2",
                                                                     "shop_id": "s1" if shop_search else ""}),
                 StepEvent(index=2, tool="web_search", arguments={"q": "who"}, usage=Usage(output_tokens=30))]
        steps += [StepEvent(index=3 + i, tool="view_product_information", arguments={"product_ids": "1"},
                            usage=Usage(output_tokens=10)) for i in range(views)]
        start = StartEvent(episode_id="e", benchmark="shoppingbench", task_set="s", task_id="t", instruction="i",
                           agent=AgentInfo(kind="model", name="m"), max_steps=30)
        return Trajectory(start=start, steps=steps)

    stats = trajectory_stats(episode(2, True))
    assert (stats.steps, stats.search_queries, stats.page_turns, stats.shop_searches) == (5, 2, 1, 1)
    assert (stats.product_views, stats.web_searches) == (2, 1)
    assert stats.output_tokens == 50 and stats.output_tokens_per_step == pytest.approx(50 / 3)
    assert trajectory_stats(episode(0, False)).shop_searches == 0

    runs = [trajectory_stats(episode(v, False)) for v in (0, 1, 2, 3)]
    result = correlations(runs, [False, False, True, True])
    assert result["product_views"].r == pytest.approx(np.corrcoef([0, 1, 2, 3], [0, 0, 1, 1])[0, 1])
    assert result["web_searches"].r is None  # constant: undefined, not NaN
