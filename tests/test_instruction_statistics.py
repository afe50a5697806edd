"""The default world follows the official set's statistics that a blind reader told apart in round 4 (issue 30):
how many items a shop or voucher task asks, caps that fit their discount, one currency word per request, and shop frames
the official set uses."""

from __future__ import annotations

import re

from benchmarks.shoppingbench.worldgen.sentences import one_currency


def test_one_currency_word_keeps_the_first_said():
    assert one_currency("a cup above 400 PHP and a mug from 10 to 20 pesos") == \
        "a cup above 400 PHP and a mug from 10 to 20 PHP"
    assert one_currency("from 10 to 20 pesos, a mug above 400 PHP") == "from 10 to 20 pesos, a mug above 400 pesos"
    assert one_currency("a red mug") == "a red mug"


def test_voucher_tasks_ask_several_items_with_fitting_caps(default_world):
    vouchers = [t for t in default_world.tasks("generated") if t.intent == "voucher"]
    single = sum(len(t.targets) == 1 for t in vouchers)
    assert single / len(vouchers) <= 0.25  # v5: 38 in 100; the official set 22 in 250
    for task in vouchers:
        voucher = task.voucher
        assert voucher is not None
        if voucher.cap is not None:  # never "20% capped at nearly the whole threshold"
            assert voucher.cap <= 0.95 * voucher.threshold + 1
            assert voucher.cap >= (voucher.discount or 0) * voucher.threshold - 1


def test_shop_and_voucher_tasks_ask_three_or_four_items_about_as_often_as_the_official_set(default_world):
    """Official: shop tasks ask 2/3/4 items 89:86:75 of 250, voucher tasks 1/2/3/4 items 22:70:80:78 (v6 asked
    shops 87:11:2 and vouchers 12 in 100 four items: shops carried few contested titles, picks over budget were
    only reworded)."""
    tasks = default_world.tasks("generated")
    for intent, floors in (("shop", {3: 0.25, 4: 0.15}), ("voucher", {4: 0.22})):
        sizes = [len(t.targets) for t in tasks if t.intent == intent]
        for size, floor in floors.items():
            assert sizes.count(size) / len(sizes) >= floor, (intent, size, sorted(sizes))


def test_requests_say_one_currency_and_the_official_shop_frames(default_world):
    tasks = default_world.tasks("generated")
    for task in tasks:
        request = task.query.split("\n\n")[0]
        assert not (re.search(r"\bPHP\b", request) and re.search(r"\bpesos\b", request)), request
        assert "Only show shops that sell all of them" not in request  # the official set never says it
        assert not re.search(r"in the \S+ (?:\S+ )?(?:version|bottle size|length)\b", request), request


def test_several_items_are_said_in_the_official_sets_shapes(default_world):
    """Official: 63 of 89 two-item shop requests say "both ... and ...", about half the three- and four-item voucher
    requests name their items in one sentence, three-item ordinal lists end "Third," (46 of 48), and a quarter of the
    voucher lists say "Lastly" (version 7: never "both", 2 of 62 voucher lists in one sentence, "Lastly" in 60)."""
    tasks = default_world.tasks("generated")
    pairs = [t.query for t in tasks if t.intent == "shop" and len(t.targets) == 2]
    assert sum(" both " in q for q in pairs) >= 0.4 * len(pairs)
    baskets = [t.query.split("\n\n")[0] for t in tasks if t.intent == "voucher" and len(t.targets) >= 3]
    assert sum(", and " in q for q in baskets) >= 0.25 * len(baskets)
    assert sum("Lastly" in q for q in baskets) <= 0.5 * len(baskets)
    ordinal_threes = [t.query for t in tasks if len(t.targets) == 3 and "First," in t.query]
    assert ordinal_threes and sum("Lastly," in q for q in ordinal_threes) <= 0.25 * len(ordinal_threes)

