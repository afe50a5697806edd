"""Bootstrap intervals, pass^k and Pearson correlation on values whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import t as scipy_t

from evaluators.results.stats import bootstrap_ci, pass_hat_k, pearson, stratified_bootstrap_ci
from evaluators.results.trajectory_stats import correlations, trajectory_stats
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


def test_exact_mcnemar_matches_a_binomial_test_on_the_discordant_pairs():
    from scipy.stats import binomtest

    from evaluators.results.stats import mcnemar_exact

    # 12 tasks only A solved, 3 only B, 20 both, 5 neither
    a = [1] * 12 + [0] * 3 + [1] * 20 + [0] * 5
    b = [0] * 12 + [1] * 3 + [1] * 20 + [0] * 5
    test = mcnemar_exact(a, b)
    assert (test.a_only, test.b_only, test.both, test.neither, test.n) == (12, 3, 20, 5, 40)
    # by hand: two-sided p = 2 · P(X ≤ 3), X ~ Binomial(15, 1/2) = 2 · (1 + 15 + 105 + 455) / 2^15
    assert test.p == pytest.approx(2 * (1 + 15 + 105 + 455) / 2**15)
    assert test.p == pytest.approx(binomtest(12, 15, 0.5).pvalue)
    assert mcnemar_exact([1, 0], [1, 0]).p == 1.0  # no discordant pair
    with pytest.raises(ValueError):
        mcnemar_exact([0.5], [1])


def test_wilson_interval_stays_honest_at_the_edges():
    from evaluators.results.stats import wilson_ci

    one = wilson_ci(1, 1)  # lower bound of 1/1: 1 / (1 + z²) = 0.2065
    z = 1.959963984540054
    assert one.value == 1.0 and one.high == pytest.approx(1.0) and one.low == pytest.approx(1 / (1 + z**2))
    half = wilson_ci(10, 20)
    centre, spread = 0.5, z * math.sqrt(0.25 / 20 + z**2 / (4 * 400)) / (1 + z**2 / 20)
    assert (half.low, half.high) == (pytest.approx(centre - spread), pytest.approx(centre + spread))
    assert wilson_ci(0, 0).value is None and wilson_ci(0, 5).low == 0.0 and half.method == "Wilson score"


def test_paired_bootstrap_covers_the_true_difference():
    from evaluators.results.stats import paired_difference_ci, stratified_paired_difference_ci

    rng = np.random.default_rng(7)
    difficulty = rng.random(400)  # shared task difficulty: pairing cancels it
    a = (rng.random(400) < 0.35 + 0.5 * difficulty).astype(float)  # true rate 0.60
    b = (rng.random(400) < 0.20 + 0.5 * difficulty).astype(float)  # true rate 0.45
    interval = paired_difference_ci(list(a), list(b))
    assert interval.low < 0.15 < interval.high and interval.n == 400
    assert interval.value == pytest.approx(a.mean() - b.mean())
    assert interval.method == "paired percentile bootstrap"
    both = stratified_paired_difference_ci([([1.0, 1.0], [0.0, 0.0]), ([0.0] * 4, [0.0] * 4)])
    assert both.value == 0.5 and both.low == 0.5 and both.high == 0.5  # mean over groups, each group's size fixed


def test_undefined_correlation_says_why():
    assert pearson([1, 2, 3], [1, 1, 1]).undefined == "y is constant"
    assert pearson([2, 2, 2], [0, 1, 0]).undefined == "x is constant"
    assert pearson([1, 2], [0, 1]).undefined == "fewer than 3 pairs"
    assert pearson([1, 2, 3], [0, 1, 1]).undefined is None


def test_rejected_and_malformed_calls_turn_no_page():
    from mcp_server.trajectory import MalformedTurn

    start = StartEvent(episode_id="e", benchmark="shoppingbench", task_set="s", task_id="t", instruction="i",
                       agent=AgentInfo(kind="model", name="m"), max_steps=30)
    steps = [
        StepEvent(index=0, tool="find_product", arguments={"q": "a", "page": 2}, observation=[]),
        StepEvent(index=1, tool="find_product", arguments={"q": "a", "page": 9}, observation="page must be 1 to 5",
                  is_error=True),
        StepEvent(index=2, tool="find_product", arguments={"q": "a", "page": 3}, observation="Your reply could not "
                  "be run", malformed=MalformedTurn(raw='find_product(page=3', error="bad JSON")),
        StepEvent(index=3, tool="invalid_tool_call", arguments={"error": "no call", "raw": "hmm"}, observation="x"),
    ]
    stats = trajectory_stats(Trajectory(start=start, steps=steps))
    assert stats.page_turns == 1  # only the call the sandbox ran
    assert stats.search_queries == 2  # the rejected call was still a search; the malformed turns were no call
    assert stats.steps == 4


def test_mcnemar_text_reads_as_a_relation():
    from evaluators.results.stats import mcnemar_exact

    assert mcnemar_exact([0] * 30, [1] * 30).text() == "0 vs 30 discordant, p < 0.0001"
    assert mcnemar_exact([0] * 7 + [1], [1] * 7 + [1]).text() == "0 vs 7 discordant, p = 0.016"
