"""The world generators: catalog and its families of near-duplicates, instructions in a shopper's words read back
exactly, and task generation checked against a real world's tools (the default world's Lucene index).
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.schema import SERVICES, CorpusRecord, PriceConstraint, Product, Target, product_contents
from benchmarks.shoppingbench.tasks import load_task_set
from benchmarks.shoppingbench.voucher import quote, within_budget
from benchmarks.shoppingbench.worldgen.brand_facts import BRAND_FACTS
from benchmarks.shoppingbench.worldgen.catalog import generate_catalog, iter_products
from benchmarks.shoppingbench.worldgen.heuristic import check_task, meets, read_instruction
from benchmarks.shoppingbench.worldgen.knowledge import knowledge_world
from benchmarks.shoppingbench.worldgen.offers import price_clause, service_clauses
from benchmarks.shoppingbench.worldgen.phrasing import Item, article, item_text, sayable, spoken, written
from benchmarks.shoppingbench.worldgen.place_facts import PLACE_FACTS
from benchmarks.shoppingbench.worldgen.reading import parse_item, stated_exactly, target_pairs
from benchmarks.shoppingbench.worldgen.real_facts import FACTS
from benchmarks.shoppingbench.worldgen.sentences import compose, several_items, split_items
from benchmarks.shoppingbench.worldgen.tasks import (
    MIN_TWINS,
    contested,
    draw_target,
    generate_tasks,
    sharpen,
    voucher_text,
    write_task_set,
)
from benchmarks.shoppingbench.worldgen.vocab import COLORS, KINDS
from benchmarks.shoppingbench.worldgen.wording import KEY_TEMPLATES, NATURAL, OPENERS
from mcp_server.shopping.world_build import WorldTools


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("catalog") / "catalog.jsonl.gz"
    generate_catalog(path, 5_000, seed=0)
    return path


@pytest.fixture(scope="module")
def products(catalog) -> list[Product]:
    return [CorpusRecord.model_validate(record).product for _, record in read_jsonl(catalog)]


@pytest.fixture(scope="module")
def world_products(default_world) -> list[Product]:
    return [CorpusRecord.model_validate(record).product for _, record in read_jsonl(default_world.root /
                                                                                     "catalog.jsonl.gz")]


@pytest.fixture(scope="module")
def task_sets(default_world, world_products):
    """Tasks of another seed over the default world's catalog and index (the index is the world's own)."""
    return generate_tasks(world_products, seed=3, per_intent=25, tools=WorldTools(default_world.products))


# --- catalog -------------------------------------------------------------------------------------------------------

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
            # families drift: each near-duplicate may move the price by up to 20% again
            assert low * table[named[0]] * 0.3 <= product.price <= high * table[named[0]] * 3 + 10
            checked += 1
        for option in product.sku_options.values():
            for key, value in option.items():
                if key in kind.sku:
                    assert value in kind.sku[key]
    assert checked > 1_000


def test_families_of_near_duplicates_differ_in_brand_size_colour_shop_price_and_services(products):
    by_title = defaultdict(list)
    for product in products:
        by_title[product.title].append(product)
    same_title = Counter()
    for group in by_title.values():
        for a, b in zip(group, group[1:], strict=False):
            for field in ("price", "shop_id", "service", "attributes", "sku_options"):
                same_title[field] += getattr(a, field) != getattr(b, field)
    assert all(same_title[field] >= 50 for field in ("price", "shop_id", "service", "attributes", "sku_options")), \
        same_title
    one_word = Counter()
    by_category = defaultdict(set)
    for product in products:
        by_category[product.category].add(product.title)
    for titles in by_category.values():
        for a in titles:
            for b in titles:
                words_a, words_b = a.split(), b.split()
                if a < b and len(words_a) == len(words_b):
                    differing = [i for i, (x, y) in enumerate(zip(words_a, words_b, strict=True)) if x != y]
                    if len(differing) == 1:
                        one_word["first" if differing[0] == 0 else "last" if differing[0] == len(words_a) - 1
                                 else "middle"] += 1
    # other brand (first word), other size or pack (last word), other flavour/scent/colour named in the title
    assert all(one_word[where] >= 30 for where in ("first", "last", "middle")), one_word
    assert len(contested(products)) >= 0.3 * len(products)  # items resold by a dozen shops or more


# --- phrasing --------------------------------------------------------------------------------------------------------

def test_spoken_values_read_back_to_the_catalog_form():
    values = {(key, v) for kind in KINDS for table in (kind.title_attrs, kind.attrs, kind.sku)
              for key, vs in table.items() for v in vs}
    values |= {(kind.measure[0], v) for kind in KINDS if kind.measure for v in kind.measure[1]}
    values |= {("color_family", c) for c in COLORS}
    changed = 0
    for key, value in values:
        said = spoken(key, value)
        assert written(key, said) == value and written(key, value) == value, (key, value, said)
        changed += said != value
    assert changed > 60
    assert spoken("net_weight", "250g") == "250 grams" and spoken("size", "xl") == "extra large"
    assert spoken("size", "eu:40") == "EU 40" and spoken("set_pieces", "1pc") == "1 piece"


def test_items_state_their_constraints_so_they_read_back_exactly(products):
    rng = random.Random(1)
    exact = total = 0
    for product in rng.sample(products, 600):
        target = draw_target(product, rng)
        text = item_text(target, product, rng)
        spec = parse_item(text)
        total += 1
        exact += stated_exactly(target, spec)
        assert not re.search(r"\b" + re.escape(product.product_id) + r"\b", text)
    assert exact / total > 0.9, exact / total


def test_constraints_are_said_in_a_shoppers_words():
    product = Product(product_id="1", shop_id="2", brand="Kopiko", category="Groceries > Beverages > Coffee",
                      title="Kopiko Premium Chocolate Ground Coffee 250g", price=120.0,
                      attributes={"flavor": ["chocolate"], "net_weight": ["250g"], "caffeine": ["decaf"]},
                      service=["official", "freeShipping"])
    target = Target(product_id="1", title=[product.title], attributes=[{"net_weight": ["250g"]},
                    {"caffeine": ["decaf"]}], service=["official", "freeShipping"], price=[{"less than": [0, 130]}])
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        text = item_text(target, product, rng)
        assert stated_exactly(target, parse_item(text)), text
        seen.update(re.findall(r"250 grams|decaf|free shipping|free delivery|LazMall|"
                               r"under 130 PHP|no more than 130 PHP|130 PHP", text))
        assert "Kopiko Premium Chocolate Ground Coffee" not in text  # never the title verbatim
        assert not re.search(r"\w: \w|where the", text)  # no label-style fragment
        assert text.count("decaf") == 1 and text.count("250") == 1  # each detail said once
    assert {"250 grams", "decaf", "free shipping", "free delivery", "under 130 PHP"} <= seen


def test_plural_agreement_colours_before_the_noun_and_measures_before_a_noun_read_back():
    bricks = parse_item("toy bricks that have 100 pieces, with free delivery and cash on delivery")
    assert bricks.pairs == [("pieces", "100pcs")] and set(bricks.services) == {"freeShipping", "COD"}
    dress = parse_item("a gray Plains & Prints shirt dress in a 100 gram pack, priced above 40 PHP")
    assert sorted(dress.pairs) == [("color_family", "grey"), ("net_weight", "100g")]
    assert dress.words == "plains & prints shirt dress" and dress.price_constraint() == {"greater than": [40, None]}
    assert parse_item("a Black & Decker drill").pairs == []  # a brand's capital is no stated colour
    assert parse_item("options that support cash on delivery").services == ["COD"]


def test_every_wording_of_every_detail_reads_back_whatever_follows_it():
    values = {(key, v) for kind in KINDS for table in (kind.title_attrs, kind.attrs, kind.sku)
              for key, vs in table.items() for v in vs}
    values |= {(kind.measure[0], v) for kind in KINDS if kind.measure for v in kind.measure[1]}
    said = 0
    for key, value in sorted(values):
        if not sayable(key, value):
            continue
        if (key, value) in NATURAL:
            forms = [NATURAL[(key, value)]]
        else:
            forms = [t.format(v=spoken(key, value)) for t in KEY_TEMPLATES.get(key, ())]
        for form in forms:
            for text in (f"a thing {form}, under 500 PHP", f"a thing to wear on a day out {form} with free shipping",
                         f"a thing {form} and in red"):
                assert (key, value) in parse_item(text).pairs, text
                said += 1
    assert said > 600


def test_sharpen_adds_what_the_gold_has_and_the_rival_lacks():
    gold = Product(product_id="g", shop_id="s", title="A Tumbler", price=349.0, service=["COD", "official"],
                   attributes={"lid_type": ["straw lid"]}, sku_options={"1": {"color_family": "black"}})
    target = Target(product_id="g", title=[gold.title])
    dearer = gold.model_copy(update={"product_id": "r", "price": 379.0})
    sharper = sharpen(target, gold, dearer, random.Random(0))
    assert sharper is not None and meets(gold, sharper) and not meets(dearer, sharper)
    (mode, (low, high)), = sharper.price[0].items()
    # "between 174 and 350 pesos": the roundest bound above, and (as in the official set) one below too
    assert mode == "between" and 349 <= high < 379 and high % 50 == 0 and low <= 349
    no_official = gold.model_copy(update={"product_id": "r", "service": ["COD"]})
    sharper = sharpen(target, gold, no_official, random.Random(0))
    assert sharper is not None and sharper.service == ["official"]
    other_lid = gold.model_copy(update={"product_id": "r", "attributes": {"lid_type": ["flip lid"]},
                                        "sku_options": {"1": {"color_family": "white"}}})
    for seed in range(10):
        sharper = sharpen(target, gold, other_lid, random.Random(seed))
        assert sharper is not None and meets(gold, sharper) and not meets(other_lid, sharper)
    assert sharpen(target, gold, gold.model_copy(update={"product_id": "twin"}), random.Random(0)) is None


# --- task generation over the real index ---------------------------------------------------------------------------

def test_every_task_states_its_constraints_and_the_heuristic_solves_it(task_sets, default_world):
    tools = WorldTools(default_world.products)
    assert [len(task_sets[intent]) for intent in ("product", "shop", "voucher")] == [25, 25, 25]
    for tasks in task_sets.values():
        for task in tasks:
            reading = read_instruction(task.query)
            assert len(reading.items) == len(task.targets)
            for target, spec in zip(task.targets, reading.items, strict=True):
                assert stated_exactly(target, spec), task.query
            assert not any(t.product_id in task.query for t in task.targets)
            solved, played = check_task(task, tools)
            assert solved and played.steps <= 30, task.query


def test_targets_meet_their_constraints_and_have_rivals(task_sets, default_world, world_products):
    by_id = {p.product_id: p for p in world_products}
    rivals = {p.product_id for p in contested(world_products, MIN_TWINS)}
    modes = Counter()
    for task in task_sets["product"] + task_sets["shop"] + task_sets["voucher"]:
        for target in task.targets:
            product = by_id[target.product_id]
            assert target.title == [product.title] and meets(product, target)
            assert target.product_id in rivals
            assert all(len(values) == 1 for a in target.attributes or [] for values in a.values())
            for constraint in target.price or []:
                modes[next(iter(constraint))] += 1
            assert target_pairs(target) or target.service or target.price or task.intent != "product"
    assert set(modes) == {"between", "greater than"}  # as in the official set: never "less than" alone
    for task in task_sets["shop"]:
        assert 2 <= len(task.targets) <= 4
        assert len({by_id[t.product_id].shop_id for t in task.targets}) == 1


def test_voucher_tasks_follow_the_official_rules_and_leave_a_feasible_basket(task_sets, world_products):
    by_id = {p.product_id: p for p in world_products}
    types = Counter()
    for task in task_sets["voucher"]:
        voucher = task.voucher
        basket = [by_id[t.product_id] for t in task.targets]
        prices, shops = [p.price for p in basket], [p.shop_id for p in basket]
        total = sum(prices)
        assert 1 <= len(basket) <= 4 and all(t.price is None for t in task.targets)
        assert total >= 100
        assert 0.1 * total - 0.5 <= voucher.threshold <= 0.9 * total + 0.5
        if voucher.voucher_type == "shop":
            assert len(set(shops)) == 1
        assert voucher.price_after_voucher == pytest.approx(quote(prices, shops, voucher).total_after_voucher)
        assert within_budget(prices, shops, voucher)
        assert task.query.endswith(voucher_text(voucher))
        types[voucher.voucher_type] += 1
    assert len(types) == 2


class _BlindSearch:
    """The world's tools with a search that finds nothing: no task can be solved."""

    def __init__(self, tools: WorldTools) -> None:
        self.tools = tools

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        return [] if name == "find_product" else self.tools.call(name, arguments)

    def get(self, ids: list[str]) -> dict[str, Product]:
        return self.tools.get(ids)


def test_a_task_the_heuristic_cannot_solve_is_dropped(default_world, world_products):
    blind = _BlindSearch(WorldTools(default_world.products))
    nothing = generate_tasks(world_products[:400], seed=0, per_intent=3, tools=blind)
    assert all(tasks == [] for tasks in nothing.values())


def test_task_generation_is_deterministic(default_world, world_products):
    tools = WorldTools(default_world.products)
    one = generate_tasks(world_products, seed=5, per_intent=6, tools=tools)
    two = generate_tasks(world_products, seed=5, per_intent=6, tools=tools)
    assert {k: [t.to_official() for t in v] for k, v in one.items()} == \
        {k: [t.to_official() for t in v] for k, v in two.items()}


def test_task_files_round_trip_through_the_official_loader(tmp_path, task_sets):
    write_task_set(tmp_path, task_sets)
    loaded = load_task_set(tmp_path, "generated")
    assert [t.model_dump() for t in loaded] == [t.model_dump() for intent in task_sets for t in task_sets[intent]]


QUESTION_WORDS = frozenset(("which", "what", "where", "there", "their", "called", "the", "and", "did", "does", "was",
                            "its", "that", "from", "with", "for", "kind", "color", "flavor", "scent", "sport"))


def test_knowledge_candidates_need_a_fact_that_one_document_holds(products):
    web, documents = knowledge_world(products, seed=3, count=60)
    assert len(web) == 60
    assert len({d["url"] for d in documents}) == len(documents) > 3 * len(web)
    for task in web:
        value = task.knowledge_attribute.lower()
        assert value in task.knowledge_product.title.lower()
        assert not re.search(rf"\b{re.escape(value)}\b", task.query.lower())  # only the fact names it
        assert task.knowledge_product.title not in task.query
        question = task.query.partition("?")[0].lower()
        named = set(re.findall(r"[a-z]{3,}", question)) - QUESTION_WORDS
        holders = [d for d in documents if value in d["content"].lower()
                   and named & set(re.findall(r"[a-z]{3,}", d["content"].lower()))]
        assert holders, task.query
    facts = FACTS + BRAND_FACTS + PLACE_FACTS
    real = [t for t in web if any(t.query.startswith(q) for f in facts for q in f.questions)]
    assert len(real) >= len(web) // 3  # real, checkable facts first; made-up entities only once they run out


def test_every_shape_of_a_request_with_several_items_is_read_back_item_by_item():
    items = [Item("a red Nike jersey", ["in size large", "with free shipping"]),
             Item("an Anker power bank", ["with a 10000 mAh battery"]), Item("ground coffee", [])]
    openings = set()
    for seed in range(40):
        rng = random.Random(seed)
        query = compose("shop", items, [], rng)
        openings.add(" ".join(query.split(" ")[:4]))
        texts = split_items(query)
        assert len(texts) == 3, query
        assert texts[0].startswith(("a red Nike jersey", "A red Nike jersey")) and texts[2].endswith("ground coffee")
        # a colour word opening the product's name is a stated colour ("a red Nike jersey")
        assert [parse_item(t).pairs for t in texts] == [[("color_family", "red"), ("size", "l")],
                                                        [("battery_capacity", "10000mah")], []]
        assert read_instruction(query).same_shop
    assert len(openings) >= 4  # several openers and shapes, not one template


def test_several_items_are_never_a_semicolon_list_after_a_colon():
    items = [Item("a red Nike jersey", ["in size large"]), Item("an Anker power bank", []), Item("ground coffee", [])]
    shapes = [compose("shop", items, [], random.Random(seed)) for seed in range(60)]
    assert not [q for q in shapes if re.search(r"; and |: (?!\(1\))[^;\n]+; ", q)]
    # the official set's two commonest shapes for three items: "First, ... Second, ..." and one sentence
    assert sum("First," in q for q in shapes) > len(shapes) / 5
    assert sum(q.endswith(", and ground coffee.") for q in shapes) > len(shapes) / 5


def test_one_sentence_lists_are_read_back_and_a_clause_listing_services_is_not_taken_for_items():
    two = [Item("a red Nike jersey", ["in size large", "with free shipping and cash on delivery"]),
           Item("an Anker power bank", [])]
    query = several_items(two, "Find shops offering these items", random.Random(0), listing="Find shops offering",
                          list_rate=1.0)
    assert query == ("Find shops offering both a red Nike jersey (in size large, with free shipping and cash on "
                     "delivery) and an Anker power bank.")  # an item's clauses in brackets, as the official set has
    assert split_items(query) == ["a red Nike jersey (in size large, with free shipping and cash on delivery)",
                                  "an Anker power bank"]
    three = [*two, Item("ground coffee", ["priced between 100 and 300 PHP"])]
    listed = several_items(three, "Find shops offering these items", random.Random(0), listing="I'm looking for",
                           list_rate=1.0)
    assert listed.endswith(", and ground coffee priced between 100 and 300 PHP."), listed
    assert [parse_item(t).price_constraint() for t in split_items(listed)] == [None, None,
                                                                               {"between": [100.0, 300.0]}]
    assert split_items("Show me fragrant rice in a 1 kilo pack with free shipping, cash on delivery, and a LazFlash "
                       "deal priced above 53 PHP.") == []


def test_an_item_takes_one_with_at_most_from_its_services_and_price():
    price: PriceConstraint = {"greater than": (100.0, None)}
    for seed in range(40):
        rng = random.Random(seed)
        said = service_clauses(["COD", "freeShipping", "official"], rng, with_said=True)
        said.append(price_clause(price, 150.0, rng, with_said=True))
        assert not [c for c in said if c.startswith("with ")], said
        alone = service_clauses(["COD", "freeShipping"], rng)
        assert sum(c.startswith("with ") for c in alone) <= 1, alone


def test_a_or_an_before_a_number_follows_how_it_is_said():
    assert [article(w) for w in ("18 inch blade", "8 pack", "11 inch fan", "100 gram pack", "1 liter bottle")] == [
        "an 18 inch blade", "an 8 pack", "an 11 inch fan", "a 100 gram pack", "a 1 liter bottle"]


def test_one_item_reads_back_after_every_opener():
    item = Item("a red Nike jersey", ["in size large", "with free shipping"])
    openers = set()
    for seed in range(80):
        query = compose("product", [item], [], random.Random(seed))
        openers.add(next(o for o in OPENERS if query.startswith(o + " ")))
        spec = read_instruction(query).items[0]
        assert (spec.pairs, spec.services, spec.words) == ([("color_family", "red"), ("size", "l")], ["freeShipping"],
                                                           "nike jersey"), query
    assert openers == set(OPENERS)  # "Looking for a jersey" is not the clause "for a {instrument}"
