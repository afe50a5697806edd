"""ShoppingBench scoring: every rule of SPEC §1.4 and quirk of §6 on hand-built cases, run scoring from trajectory
files, and the `--predictions` form on the real official tasks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from typer.testing import CliRunner

from benchmarks.jsonl import DataFileError
from benchmarks.shoppingbench.schema import CorpusRecord, Product, ShoppingTask, Target, Voucher
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR
from evaluators.results.embeddings import load_embedder
from evaluators.results.scoring import ScoreOptions, UnknownBenchmarkError, get_scorer
from evaluators.results.shoppingbench.catalog import MappingLookup, load_catalog_products
from evaluators.results.shoppingbench.failure import (
    ATTRIBUTE_MISMATCH,
    CONSTRAINT_NOT_SATISFIED,
    KNOWLEDGE_ERROR,
    PRODUCT_MISSING,
)
from evaluators.results.shoppingbench.rules import rule_score, score_task
from evaluators.results.shoppingbench.scorer import last_recommendation, score_trajectories
from mcp_server.trajectory import read_trajectory

TITLE = "Stainless steel insulated water bottle 1 litre"
OTHER_TITLE = "Wireless gaming mouse with RGB lighting"


@pytest.fixture(scope="module")
def cosine():
    return load_embedder().cosine


def product(pid: str = "p1", *, title: str = TITLE, price: float = 100.0, shop: str = "s1",
            service: list[str] | None = None, sku: dict | None = None, attrs: dict | None = None,
            description: str = "") -> Product:
    return Product(product_id=pid, shop_id=shop, title=title, price=price, service=service or [],
                   sku_options=sku or {}, attributes=attrs or {}, description=description)


def target(pid: str = "t1", **constraints) -> Target:
    return Target(product_id=pid, title=[constraints.pop("title", TITLE)], **constraints)


def task(intent: str, targets: list[Target], voucher: Voucher | None = None, **extra) -> ShoppingTask:
    return ShoppingTask(task_id=f"{intent}-0000", task_set="hand", intent=intent, task_index=0, query="q",
                        targets=targets, voucher=voucher, **extra)


# --- the product relevance score -------------------------------------------------------------------------------


def test_exact_id_scores_one_whatever_the_constraints(cosine):
    match = rule_score(product("t1", title=OTHER_TITLE, price=999), target(price=[{"less than": [0, 10]}]), cosine)
    assert match.exact and match.rule == 1.0
    assert (match.title, match.price, match.service, match.sku_attrs) == (1.0, 1.0, 1.0, 1.0)


def test_title_similarity_uses_the_real_embedder(cosine):
    assert rule_score(product(title=TITLE.upper() + "!"), target(), cosine).title == 1.0
    mismatch = rule_score(product(title=OTHER_TITLE), target(), cosine)
    assert mismatch.title == 0.0 and mismatch.rule == 0.0
    assert "title similarity" in mismatch.misses[0]


def test_title_threshold_is_inclusive():
    at_threshold = rule_score(product(title="a"), target(title="b"), lambda a, b: 0.5)
    below = rule_score(product(title="a"), target(title="b"), lambda a, b: 0.4999)
    assert at_threshold.title == 1.0 and below.title == 0.0


@pytest.mark.parametrize(
    ("constraint", "price", "hit"),
    [
        ({"less than": [0, 100]}, 100.0, True),
        ({"less than": [0, 100]}, 100.01, False),
        ({"greater than": [50, None]}, 50.0, True),
        ({"greater than": [50, None]}, 49.99, False),
        ({"between": [50, 100]}, 50.0, True),
        ({"between": [50, 100]}, 100.0, True),
        ({"between": [50, 100]}, 100.5, False),
        ({"between": [50, 100]}, 49.0, False),
    ],
)
def test_price_modes_have_inclusive_bounds(cosine, constraint, price, hit):
    match = rule_score(product(price=price), target(price=[constraint]), cosine)
    assert match.price == (1.0 if hit else 0.0)
    assert match.rule == (1.0 if hit else 0.5)  # title (hit) + price


def test_each_required_service_is_a_constraint(cosine):
    match = rule_score(product(service=["COD"]), target(service=["COD", "official"]), cosine)
    assert match.service == 0.5
    assert match.rule == pytest.approx(2 / 3)  # title, COD hit; official missed
    assert any("official" in miss for miss in match.misses)


def test_sku_pairs_must_share_one_option_and_the_best_option_counts(cosine):
    sku = {"1": {"color": "red", "size": "m"}, "2": {"color": "blue", "size": "l"}}
    split = rule_score(product(sku=sku), target(sku_options=[{"color": "red", "size": "l"}]), cosine)
    assert split.sku_attrs == 0.5  # red and l exist, but in different options
    together = rule_score(product(sku=sku), target(sku_options=[{"color": "blue", "size": "l"}]), cosine)
    assert together.sku_attrs == 1.0 and together.rule == 1.0


def test_attribute_pairs_and_sku_pairs_are_looked_up_in_both(cosine):
    p = product(sku={"1": {"color": "red"}}, attrs={"material": ["steel", "plastic"]})
    both = rule_score(p, target(attributes=[{"material": ["plastic"], "color": ["red"]}]), cosine)
    assert both.sku_attrs == 1.0  # the attribute constraint "color: red" is met by the SKU option
    sku_from_attrs = rule_score(p, target(sku_options=[{"material": "steel"}]), cosine)
    assert sku_from_attrs.sku_attrs == 1.0
    partial = rule_score(p, target(attributes=[{"material": ["steel", "glass"]}]), cosine)
    assert partial.sku_attrs == 0.5 and partial.rule == pytest.approx(2 / 3)


def test_unconstrained_fields_count_as_satisfied(cosine):
    match = rule_score(product(), target(), cosine)
    assert (match.price, match.service, match.sku_attrs) == (1.0, 1.0, 1.0)
    assert match.rule == 1.0 and not match.exact


def test_rule_is_hits_over_all_constraints(cosine):
    t = target(price=[{"less than": [0, 50]}], service=["COD"], sku_options=[{"color": "red"}])
    match = rule_score(product(price=40, service=["COD"], sku={"1": {"color": "blue"}}), t, cosine)
    assert match.rule == pytest.approx(3 / 4)  # title, price, service hit; colour missed


# --- ids, positions, and the quirks of the recommended string ------------------------------------------------


def test_product_task_scores_the_first_id_only(cosine):
    products = {"t1": product("t1"), "x": product("x", title=OTHER_TITLE)}
    one = task("product", [target()])
    assert score_task(one, "t1,x", products, cosine).success
    wrong_first = score_task(one, "x,t1", products, cosine)
    assert not wrong_first.success and wrong_first.rule == 0.0


def test_shop_and_voucher_match_ids_by_position(cosine):
    targets = [target("a", title=TITLE), target("b", title=OTHER_TITLE)]
    products = {"a": product("a", title=TITLE), "b": product("b", title=OTHER_TITLE)}
    shop = task("shop", targets)
    assert score_task(shop, "a,b", products, cosine).success
    swapped = score_task(shop, "b,a", products, cosine)
    assert swapped.exact_id == 0.0 and swapped.rule == 0.0 and not swapped.success


def test_comma_space_makes_an_unknown_id_that_scores_zero(cosine):
    targets = [target("a"), target("b")]
    products = {"a": product("a"), "b": product("b")}
    score = score_task(task("shop", targets), "a, b", products, cosine)
    assert score.matches[1].recommended_id == " b" and not score.matches[1].found
    assert (score.matches[1].rule, score.matches[1].title, score.matches[1].price) == (0.0, 0.0, 0.0)
    assert score.rule == 0.5 and score.shop == 0.0 and score.resolved == 0.5
    assert score.failure == PRODUCT_MISSING


def test_extra_and_duplicate_ids_are_ignored(cosine):
    targets = [target("a"), target("b")]
    products = {"a": product("a"), "b": product("b"), "c": product("c", shop="s2")}
    score = score_task(task("shop", targets), "a,b,c,a,a", products, cosine)
    assert score.success and score.shop == 1.0 and score.rule == 1.0


def test_missing_recommendation_and_fewer_ids_than_targets(cosine):
    targets = [target("a"), target("b"), target("c")]
    products = {k: product(k) for k in "abc"}
    nothing = score_task(task("shop", targets), None, products, cosine)
    assert nothing.rule == 0.0 and nothing.shop == 0.0 and nothing.failure == PRODUCT_MISSING
    two = score_task(task("shop", targets), "a,b", products, cosine)
    assert two.rule == pytest.approx(2 / 3) and two.shop == 0.0 and two.failures == [PRODUCT_MISSING]


def test_shop_score_needs_every_product_from_one_shop(cosine):
    targets = [target("a"), target("b")]
    products = {"a": product("a", shop="s1"), "b": product("b", shop="s2")}
    score = score_task(task("shop", targets), "a,b", products, cosine)
    assert score.rule == 1.0 and score.shop == 0.0 and not score.success
    assert score.failures == [CONSTRAINT_NOT_SATISFIED]


# --- budget and vouchers (through benchmarks.shoppingbench.voucher) -------------------------------------------


def voucher_task(prices: list[float], shops: list[str], **voucher) -> tuple[ShoppingTask, dict[str, Product]]:
    targets = [target(f"v{i}") for i in range(len(prices))]
    products = {f"v{i}": product(f"v{i}", price=p, shop=s) for i, (p, s) in enumerate(zip(prices, shops, strict=True))}
    return task("voucher", targets, Voucher(**voucher)), products


def budget_of(cosine, prices, shops, **voucher) -> float | None:
    vt, products = voucher_task(prices, shops, **voucher)
    return score_task(vt, ",".join(products), products, cosine).budget


def test_voucher_applies_at_exactly_the_threshold(cosine):
    fixed = dict(voucher_type="platform", threshold=100, discount_type="fixed", face_value=20, budget=90)
    assert budget_of(cosine, [60, 40], ["s1", "s1"], **fixed) == 1.0  # 100 ≥ θ → 80 ≤ 90
    assert budget_of(cosine, [60, 39.99], ["s1", "s1"], **fixed) == 0.0  # below θ: 99.99 > 90


def test_percentage_discount_is_capped(cosine):
    capped = dict(voucher_type="platform", threshold=100, discount_type="percentage", discount=0.5, cap=30)
    assert budget_of(cosine, [200], ["s1"], budget=170, **capped) == 1.0  # max(100, 200 − 30) = 170
    assert budget_of(cosine, [200], ["s1"], budget=169, **capped) == 0.0


def test_shop_voucher_needs_one_shop_but_platform_voucher_does_not(cosine):
    rules = dict(threshold=100, discount_type="fixed", face_value=50, budget=100)
    assert budget_of(cosine, [80, 70], ["s1", "s2"], voucher_type="shop", **rules) == 0.0
    assert budget_of(cosine, [80, 70], ["s1", "s1"], voucher_type="shop", **rules) == 1.0
    assert budget_of(cosine, [80, 70], ["s1", "s2"], voucher_type="platform", **rules) == 1.0


def test_basket_within_budget_passes_without_the_voucher(cosine):
    rules = dict(voucher_type="shop", threshold=1000, discount_type="fixed", face_value=10, budget=150)
    assert budget_of(cosine, [80, 70], ["s1", "s2"], **rules) == 1.0  # mixed shops, below θ, but 150 ≤ 150


def test_budget_needs_every_product_and_failure_says_constraint(cosine):
    vt, products = voucher_task([80, 90], ["s1", "s1"], voucher_type="platform", threshold=100,
                                discount_type="fixed", face_value=10, budget=100)
    missing = score_task(vt, "v0", products, cosine)
    assert missing.budget == 0.0 and missing.failure == PRODUCT_MISSING
    over = score_task(vt, "v0,v1", products, cosine)  # 170 − 10 = 160 > 100
    assert over.rule == 1.0 and over.budget == 0.0 and over.failures == [CONSTRAINT_NOT_SATISFIED]
    assert "over budget" in over.explanation


# --- knowledge ----------------------------------------------------------------------------------------------------


def knowledge_task(answer: str = "Violin") -> tuple[ShoppingTask, Product]:
    gold = product("123", title="Handmade horsetail hair violin bow full size", description="for violin players")
    return task("web", [Target(product_id="123", title=[gold.title])], knowledge_attribute=answer,
                knowledge_product=gold), gold


def test_knowledge_exact_target_scores_kw_and_title(cosine):
    kt, gold = knowledge_task()
    score = score_task(kt, "123", {"123": gold}, cosine)
    assert (score.kw, score.title, score.rule, score.exact_id, score.success) == (1.0, 1.0, 1.0, 1.0, True)
    assert (score.price, score.service, score.sku_attrs, score.shop, score.budget) == (None,) * 5


def test_knowledge_kw_is_a_case_insensitive_substring_of_title_or_description(cosine):
    kt, gold = knowledge_task("VIOLIN")
    in_description = product("9", title="Handmade horsetail hair bow full size", description="Great for Violin.")
    score = score_task(kt, "9", {"9": in_description}, cosine)
    assert score.kw == 1.0 and score.exact_id == 0.0
    other = product("8", title="Acoustic guitar strings set", description="nylon")
    miss = score_task(kt, "8", {"8": other}, cosine)
    assert miss.kw == 0.0 and miss.title == 0.0 and miss.rule == 0.0 and miss.failure == KNOWLEDGE_ERROR


def test_knowledge_title_needs_cosine_at_least_0_8(cosine):
    kt, gold = knowledge_task()
    near = product("7", title=gold.title + "!")
    far = product("6", title="Violin", description="")
    assert score_task(kt, "7", {"7": near}, cosine).title == 1.0
    half = score_task(kt, "6", {"6": far}, cosine)
    assert half.kw == 1.0 and half.title == 0.0 and half.rule == 0.5 and not half.success
    assert half.failures == [ATTRIBUTE_MISMATCH]


def test_knowledge_exact_id_is_a_substring_test_but_rules_look_up_exactly(cosine):
    kt, gold = knowledge_task()
    spaced = score_task(kt, " 123,5", {"123": gold}, cosine)
    assert spaced.exact_id == 1.0  # "123" in " 123"
    assert spaced.rule == 0.0 and spaced.kw == 0.0 and not spaced.success  # " 123" is no product


# --- runs: trajectories in, scores out ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def official():
    return official_catalog()


def test_last_recommend_product_call_counts(tmp_path, official):
    tasks, products = official
    first = tasks[0]
    run = make_run(tmp_path / "run")
    calls = [("recommend_product", {"product_ids": first.targets[0].product_id})] + recommend("nonexistent")
    episode = write_episode(run, first, calls)
    assert last_recommendation(read_trajectory(run / "episodes" / f"{episode}.jsonl")) == "nonexistent"
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    assert [s.answer for s in result.scores] == ["nonexistent"]
    assert not result.scores[0].success and result.scores[0].failure == PRODUCT_MISSING


def test_oracle_style_run_scores_one_on_every_intent_and_reports_unfinished(tmp_path, official):
    tasks, products = official
    run = make_run(tmp_path / "run")
    chosen = [next(t for t in tasks if t.intent == intent) for intent in ("product", "shop", "voucher", "web")]
    for t in chosen:
        write_episode(run, t, recommend(",".join(x.product_id for x in t.targets)))
    write_episode(run, chosen[0], recommend("x"), finished=False)
    (run / "episodes" / "broken.jsonl").write_text("not json\nnot json either\n")
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    assert len(result.scores) == 4 and all(s.success for s in result.scores)
    assert [s.intent for s in result.intents] == ["product", "shop", "voucher", "web"]
    assert all(s.asr.value == 1.0 and s.exact_id.value == 1.0 for s in result.intents)
    assert result.overall_asr.value == 1.0
    assert len(result.unfinished) == 1 and len(result.unreadable) == 1 and "broken.jsonl:1" in result.unreadable[0]
    assert result.stats[result.scores[0].episode_id].product_views == 1


def test_epochs_give_pass_hat_k(tmp_path, official):
    tasks, products = official
    run = make_run(tmp_path / "run")
    a, b = [t for t in tasks if t.intent == "product"][:2]
    for epoch, ok in enumerate([True, False, True]):
        write_episode(run, a, recommend(a.targets[0].product_id if ok else "nope"), epoch=epoch)
        write_episode(run, b, recommend(b.targets[0].product_id), epoch=epoch)
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    summary = result.intents[0]
    assert result.epochs == 3 and summary.tasks == 2 and summary.episodes == 6
    assert summary.asr.value == pytest.approx((2 / 3 + 1) / 2)
    assert summary.pass_k[1] == pytest.approx((2 / 3 + 1) / 2)
    assert summary.pass_k[2] == pytest.approx((1 / 3 + 1) / 2)  # C(2,2)/C(3,2) = 1/3
    assert summary.pass_k[3] == pytest.approx(0.5)


def test_unknown_benchmark_suggests_the_closest_name():
    with pytest.raises(UnknownBenchmarkError, match="Did you mean 'shoppingbench'"):
        get_scorer("shopingbench")
    assert get_scorer("shoppingbench").benchmark == "shoppingbench"


# --- bare predictions on the real official tasks -------------------------------------------------------------


def write_catalog(path: Path, products: dict[str, Product]) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for p in products.values():
            handle.write(CorpusRecord.of(p).model_dump_json() + "\n")
    return path


def test_catalog_is_streamed_for_wanted_ids_only(tmp_path):
    path = tmp_path / "catalog.jsonl"
    write_catalog(path, {"1": product("1"), "2": product("2")})
    with path.open("a") as handle:
        handle.write('{"id": "3", "broken\n')
    assert set(load_catalog_products(path, ["2", "99"])) == {"2"}  # the broken line is never parsed
    with pytest.raises(DataFileError, match=r"catalog.jsonl:3"):
        load_catalog_products(path, ["3"])


def test_predictions_on_real_official_tasks(tmp_path, official):
    tasks, products = official
    web_records = [json.loads(line) for line in (OFFICIAL_DIR / "products_from_web_test_rewards.jsonl").open()]
    catalog_products = dict(products)
    for record in web_records:  # the real Lazada records the knowledge tasks embed
        catalog_products[record["product_id"]] = Product.model_validate(record)
    catalog = write_catalog(tmp_path / "catalog.jsonl", catalog_products)
    by_intent = {i: [t for t in tasks if t.intent == i] for i in ("product", "shop", "voucher", "web")}
    lines = []
    for intent, mine in by_intent.items():
        gold = ",".join(t.product_id for t in mine[0].targets)
        wrong = ",".join(t.product_id for t in mine[1].targets)  # another task's products
        lines += [{"intent": intent, "task_index": 0, "recommended": gold},
                  {"intent": intent, "task_index": 0, "recommended": wrong}]
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.json"

    from shopbench.cli import app

    outcome = CliRunner().invoke(app, ["score", "--benchmark", "shoppingbench", "--catalog", str(catalog),
                                       "--predictions", str(preds), "--json", str(out)])
    assert outcome.exit_code == 0, outcome.output
    entries = json.loads(out.read_text())["predictions"]
    assert len(entries) == len(lines)
    keys = ["intent", "task_index", "rule", "title", "price", "service", "sku_attrs", "shop", "budget", "kw", "success"]
    for line, entry in zip(lines, entries, strict=True):
        assert list(entry) == keys
        assert (entry["intent"], entry["task_index"]) == (line["intent"], line["task_index"])
    gold_entries, wrong_entries = entries[0::2], entries[1::2]
    for gold, wrong in zip(gold_entries, wrong_entries, strict=True):
        assert gold["success"] is True and gold["rule"] == 1.0
        assert wrong["rule"] < 1.0 and wrong["success"] is False
    product_entry, shop_entry, voucher_entry, web_entry = gold_entries
    assert product_entry["shop"] is None and product_entry["budget"] is None and product_entry["kw"] is None
    assert shop_entry["shop"] == 1.0 and shop_entry["budget"] is None
    assert voucher_entry["budget"] == 1.0 and voucher_entry["shop"] is None
    assert web_entry["kw"] == 1.0 and web_entry["price"] is None and web_entry["sku_attrs"] is None
    assert "ASR" in outcome.output and "all-MiniLM-L6-v2" in outcome.output


def test_predictions_with_a_bad_task_index_name_the_line(tmp_path):
    preds = tmp_path / "preds.jsonl"
    preds.write_text('{"intent": "web", "task_index": 0, "recommended": "1"}\n'
                     '{"intent": "web", "task_index": 150, "recommended": "1"}\n')
    catalog = write_catalog(tmp_path / "catalog.jsonl", {"1": product("1")})

    from shopbench.cli import app

    outcome = CliRunner().invoke(app, ["score", "--benchmark", "shoppingbench", "--catalog", str(catalog),
                                       "--predictions", str(preds)])
    assert outcome.exit_code == 2
    assert "preds.jsonl:2" in outcome.output and "150" in outcome.output


# --- the embedder -------------------------------------------------------------------------------------------------


def test_embedder_vectors_are_normalised_and_cached_on_disk(tmp_path):
    from evaluators.results.embeddings import Embedder, EmbedderError, VectorCache, default_model_path

    texts = [TITLE, OTHER_TITLE, TITLE]
    first = Embedder(default_model_path(), "minilm", VectorCache(tmp_path / "vectors.sqlite"))
    vectors = first.encode(texts)
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[2])

    again = Embedder(default_model_path(), "minilm", VectorCache(tmp_path / "vectors.sqlite"))
    assert np.array_equal(again.encode(texts), vectors)
    assert again._model is None  # served from disk: the model was never loaded
    with pytest.raises(EmbedderError, match="no sentence-transformers model folder"):
        load_embedder(str(tmp_path / "nowhere"))
    assert load_embedder(str(default_model_path())).name == default_model_path().name  # any model folder by path


# --- runs in a world, through the registry and the command line ---------------------------------------------------


def test_exact_ids_succeed_on_every_task_of_the_default_world(default_world, tmp_path):
    """What the oracle baseline relies on: the exact targets pass every intent (shop and budget by construction)."""
    world = default_world
    task_set = next(name for name in world.task_sets() if name != "official")
    tasks = world.tasks(task_set)
    info = {**world.info.model_dump(mode="json"), "path": str(world.root)}
    run = make_run(tmp_path / "oracle", kind="baseline", name="oracle", world=info)
    label = f"{world.info.name}@{world.info.content_hash}"
    for t in tasks:
        episode = write_episode(run, t, recommend(",".join(x.product_id for x in t.targets)))
        path = run / "episodes" / f"{episode}.jsonl"
        path.write_text(path.read_text().replace('"world":null', f'"world":"{label}"', 1))
    out = tmp_path / "scores.json"

    from shopbench.cli import app

    outcome = CliRunner().invoke(app, ["score", str(run), "--json", str(out)])
    assert outcome.exit_code == 0, outcome.output
    result = json.loads(out.read_text())
    assert {s["intent"] for s in result["intents"]} == {"product", "shop", "voucher", "web"}
    assert all(s["asr"]["value"] == 1.0 for s in result["intents"]), [s["failures"] for s in result["intents"]]
    assert len(result["scores"]) == len(tasks) and result["problems"] == []
    assert result["world"] == label


def test_run_from_another_world_is_flagged(default_world, tmp_path):
    task_set = next(name for name in default_world.task_sets() if name != "official")
    first = default_world.tasks(task_set)[0]
    run = make_run(tmp_path / "run", world={"path": str(default_world.root)})
    episode = write_episode(run, first, recommend(first.targets[0].product_id))
    path = run / "episodes" / f"{episode}.jsonl"
    path.write_text(path.read_text().replace('"world":null', '"world":"elsewhere@0123"', 1))
    result = get_scorer("shoppingbench").score_run(run, ScoreOptions())
    assert result.scores[0].success
    assert "elsewhere@0123" in result.problems[0] and "--world" in result.problems[0]


def test_small_worlds_are_looked_up_in_their_catalog_with_the_index_s_products(default_world, monkeypatch):
    """Scoring streams a small world's catalog instead of starting Java for its index: the same products either way."""
    from evaluators.results.shoppingbench import scorer as shoppingbench_run
    from evaluators.results.shoppingbench.scorer import world_lookup

    task_set = next(name for name in default_world.task_sets() if name != "official")
    ids = sorted({t.product_id for task in default_world.tasks(task_set) for t in task.targets})[:300]
    ids += ["no-such-product"]
    streamed = world_lookup(default_world)
    assert streamed is not default_world.products and default_world.info.products <= 50_000
    from_catalog = streamed.get(ids)
    assert len(from_catalog) == 300 and from_catalog == default_world.products.get(ids)
    monkeypatch.setattr(shoppingbench_run, "STREAM_CATALOG_UP_TO", default_world.info.products - 1)
    assert world_lookup(default_world) is default_world.products  # larger worlds: the index
