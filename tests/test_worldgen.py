"""The world generators (pure data and logic): catalog, tasks by the official rules, knowledge corpus.

Solvability through the real Lucene index is checked in test_world.py; here the finder is a filter-only search
(every product passing the stated filters), which isolates the rule checks from ranking.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.schema import SERVICES, CorpusRecord, Product, product_contents
from benchmarks.shoppingbench.tasks import load_task_set
from benchmarks.shoppingbench.voucher import quote, within_budget
from benchmarks.shoppingbench.worldgen.catalog import generate_catalog, iter_products
from benchmarks.shoppingbench.worldgen.knowledge import knowledge_world
from benchmarks.shoppingbench.worldgen.tasks import generate_tasks, voucher_text, write_task_set
from benchmarks.shoppingbench.worldgen.vocab import KINDS


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("catalog") / "catalog.jsonl.gz"
    generate_catalog(path, 5_000, seed=0)
    return path


@pytest.fixture(scope="module")
def products(catalog) -> list[Product]:
    return [CorpusRecord.model_validate(record).product for _, record in read_jsonl(catalog)]


def filter_finder(products: list[Product]):
    """Every product passing the filters, in catalog order (text ignored)."""

    def finder(query: str, filters: dict) -> list[str]:
        return [p.product_id for p in products
                if p.price >= filters.get("price_min", -math.inf) and p.price <= filters.get("price_max", math.inf)
                and all(s in p.service for s in filters.get("services", ()))
                and filters.get("shop_id", p.shop_id) == p.shop_id]

    return finder


@pytest.fixture(scope="module")
def task_sets(products):
    finder = filter_finder(products)
    tasks = generate_tasks(products, seed=3, per_intent=200, finder=finder)
    tasks["web"], documents = knowledge_world(products, seed=3, count=100, finder=finder)
    return tasks, documents


def test_same_seed_same_bytes_and_prefix_independent_of_size(tmp_path, catalog):
    generate_catalog(tmp_path / "again.jsonl.gz", 5_000, seed=0)
    assert (tmp_path / "again.jsonl.gz").read_bytes() == catalog.read_bytes()
    generate_catalog(tmp_path / "other.jsonl.gz", 300, seed=1)
    assert (tmp_path / "other.jsonl.gz").read_bytes() != catalog.read_bytes()
    small = [p["product_id"] + p["title"] for p in iter_products(300, seed=0)]
    assert small == [p["product_id"] + p["title"] for p in iter_products(5_000, seed=0)][:300]


def test_every_record_follows_the_official_corpus_schema(catalog, products):
    ids = set()
    for _, record in read_jsonl(catalog):
        parsed = CorpusRecord.model_validate(record)
        assert record["id"] == parsed.product.product_id and record["id"].isdigit() and len(record["id"]) == 10
        assert record["contents"] == product_contents(parsed.product)
        ids.add(record["id"])
    assert len(ids) == len(products) == 5_000
    for product in products:
        assert len(product.sku_options) <= 9 and set(product.service) <= set(SERVICES)
        assert product.shop_id.isdigit() and product.sold_count >= 0 and product.price > 0
        assert product.category.count(" > ") >= 1  # "L1 > L2 > L3" (real Lazada records have 2 to 4 levels)
        assert all(len(getattr(product, f)) <= 2000 for f in ("title", "description", "short_description"))
        for option in product.sku_options.values():
            assert all(k == k.lower() and v == v.lower() for k, v in option.items())
        for key, values in product.attributes.items():
            assert key == key.lower() and all(v == v.lower() for v in values)


def test_default_size_has_ten_categories_three_hundred_shops_and_real_material(products):
    assert len({p.category.split(" > ")[0] for p in products}) >= 10
    assert len({p.shop_id for p in products}) >= 300
    titles = {p.title for p in products}
    lazada = {r["title"] for _, r in read_jsonl(Path("benchmarks/shoppingbench/data/official/"
                                                     "products_from_web_test_rewards.jsonl"))}
    assert len(titles & lazada) >= 100
    assert any("Sterling Silver" in t for t in titles)  # real Amazon names (IntentionQA)


def test_titles_agree_with_attributes_sku_options_and_price(products):
    kinds = {k.category: k for k in KINDS}
    checked = 0
    for product in products:
        kind = kinds.get(product.category)
        if kind is None or product.brand not in kind.brands:  # real records share some categories
            continue
        title = product.title.lower()
        for key in kind.title_attrs:
            assert product.attributes[key][0] in title
        if kind.measure is not None:
            key, table = kind.measure
            named = product.attributes[key]
            assert "/".join(named) in title  # "500g" or "250g/500g/1kg"
            assert {o[key] for o in product.sku_options.values()} <= set(named)
            low, high = kind.price
            assert low * table[named[0]] * 0.7 - 10 <= product.price <= high * table[named[0]] * 1.3 + 10
            checked += 1
        for option in product.sku_options.values():
            for key, value in option.items():
                if key in kind.sku:
                    assert value in kind.sku[key]
    assert checked > 1_000
    for product in products:  # Amazon names: a pack named in the title is the pack in the attributes
        pack = re.search(r"\bpack of (\d+)\b", product.title.lower())
        if pack and "set_pieces" in product.attributes:
            assert product.attributes["set_pieces"] == [f"{pack.group(1)}pcs"]


def test_near_duplicates_differ_in_one_attribute_price_or_shop(products):
    by_title = defaultdict(list)
    for product in products:
        by_title[product.title].append(product)
    kinds = Counter()
    for group in by_title.values():
        for a, b in zip(group, group[1:], strict=False):
            differences = [f for f in ("attributes", "price", "shop_id") if getattr(a, f) != getattr(b, f)]
            if len(differences) == 1 and a.sku_options == b.sku_options:
                kinds[differences[0]] += 1
    assert all(kinds[field] >= 50 for field in ("attributes", "price", "shop_id")), kinds


def test_product_and_shop_tasks_follow_the_official_rules(task_sets, products):
    tasks, _ = task_sets
    by_id = {p.product_id: p for p in products}
    assert len(tasks["product"]) == len(tasks["shop"]) == 200
    with_sku = sku_drawn = 0
    modes = Counter()
    for task in tasks["product"] + tasks["shop"]:
        assert not any(t.product_id in task.query for t in task.targets)
        for target in task.targets:
            product = by_id[target.product_id]
            assert target.title == [product.title]
            if product.sku_options:
                with_sku += 1
                sku_drawn += bool(target.sku_options)
            for option in target.sku_options or []:
                assert option in product.sku_options.values()
            for attribute in target.attributes or []:
                (key, values), = attribute.items()
                assert len(values) == 1 and values[0] in product.attributes[key]
            assert set(target.service or []) <= set(product.service)
            for constraint in target.price or []:
                (mode, (low, high)), = constraint.items()
                modes[mode] += 1
                p = product.price
                if mode == "greater than":
                    assert high is None and 0 <= low <= p
                elif mode == "less than":
                    assert low == 0 and p <= high <= 2 * p + 1
                else:
                    assert 0 <= low <= p <= high <= 2 * p + 1
    assert 0.35 < sku_drawn / with_sku < 0.65
    assert min(modes.values()) > 30 and len(modes) == 3
    for task in tasks["shop"]:
        assert 2 <= len(task.targets) <= 4
        assert len({by_id[t.product_id].shop_id for t in task.targets}) == 1
        assert task.query.endswith("The shop should sell all these products.")


def test_voucher_tasks_follow_the_official_rules_and_leave_a_feasible_basket(task_sets, products):
    tasks, _ = task_sets
    by_id = {p.product_id: p for p in products}
    assert len(tasks["voucher"]) == 200
    types = Counter()
    for task in tasks["voucher"]:
        voucher = task.voucher
        basket = [by_id[t.product_id] for t in task.targets]
        prices, shops = [p.price for p in basket], [p.shop_id for p in basket]
        total = sum(prices)
        assert 1 <= len(basket) <= 4 and all(t.price is None for t in task.targets)
        assert total >= 100
        assert 0.1 * total - 0.5 <= voucher.threshold <= 0.9 * total + 0.5
        if voucher.discount_type == "fixed":
            assert 0.1 * voucher.threshold - 0.5 <= voucher.face_value <= 0.5 * voucher.threshold + 0.5
        else:
            assert 0.1 <= voucher.discount <= 0.5
            assert voucher.threshold * voucher.discount - 0.5 <= voucher.cap <= voucher.threshold + 0.5
        if voucher.voucher_type == "shop":
            assert len(set(shops)) == 1
        after = quote(prices, shops, voucher).total_after_voucher
        assert voucher.price_after_voucher == pytest.approx(after)
        assert 0 <= voucher.budget - math.ceil(after) <= math.ceil(0.1 * math.ceil(after))
        assert within_budget(prices, shops, voucher)
        assert task.query.endswith(voucher_text(voucher))
        assert f"My budget is only `{voucher.budget:g}`" in task.query
        types[(voucher.voucher_type, voucher.discount_type)] += 1
    assert len(types) == 4


def test_a_task_whose_target_the_search_cannot_find_is_dropped(products):
    nothing = generate_tasks(products, seed=0, per_intent=5, finder=lambda query, filters: [])
    assert all(tasks == [] for tasks in nothing.values())
    web, _ = knowledge_world(products, seed=0, count=5, finder=lambda query, filters: [])
    assert web == []


ENTITY = re.compile(r"(?:composer|novelist|of|in|does|did|is) (?:the )?([A-Z][a-z]+(?: [A-Z][a-z]+)*)")


def test_knowledge_tasks_need_a_fact_that_one_document_holds(task_sets):
    tasks, documents = task_sets
    web = tasks["web"]
    assert len(web) == 100
    assert len({d["url"] for d in documents}) == len(documents) > 3 * len(web)
    for task in web:
        value = task.knowledge_attribute.lower()
        assert value in task.knowledge_product.title.lower()
        assert not re.search(rf"\b{re.escape(value)}\b", task.query.lower())  # only the fact names it
        entity = ENTITY.search(task.query).group(1).lower()
        holders = [d for d in documents if value in d["content"].lower() and entity in d["content"].lower()]
        assert holders, task.query


def test_task_files_round_trip_through_the_official_loader(tmp_path, task_sets):
    tasks, _ = task_sets
    write_task_set(tmp_path, tasks)
    loaded = load_task_set(tmp_path, "generated")
    assert [t.model_dump() for t in loaded] == [t.model_dump() for intent in tasks for t in tasks[intent]]


def test_task_generation_is_deterministic(products):
    finder = filter_finder(products)
    one = generate_tasks(products, seed=5, per_intent=20, finder=finder)
    two = generate_tasks(products, seed=5, per_intent=20, finder=finder)
    assert {k: [t.to_official() for t in v] for k, v in one.items()} == \
        {k: [t.to_official() for t in v] for k, v in two.items()}
    assert random.Random(5).random() == random.Random(5).random()
