"""The default world's instructions show no more tell-tale signs of assembly than the official test set's
(issue 30; perf/report_instruction_signs.py prints the counts), and each sign's detector finds what it names."""

from __future__ import annotations

from benchmarks.shoppingbench.schema import ShoppingTask, Target
from benchmarks.shoppingbench.worldgen.telltale import (
    SIGNS,
    count_signs,
    has_article_error,
    has_context_mismatch,
    has_doubled_word,
    has_label,
    has_lowercased_brand,
    has_repeated_constraint,
)


def test_each_detector_finds_the_sign_the_reader_saw_and_passes_plain_english():
    assert has_label("Find a roast: light roast coffee") and has_label("a jersey where the colour is red")
    assert not has_label("Find a shop offering these items: (1) a red jersey")
    assert not has_label("I need a few things: a red jersey; a ball") and has_label("these items: a roast: dark")
    assert has_lowercased_brand("with brand kojie san", ["Kojie San"])
    assert not has_lowercased_brand("a Kojie San bath gel", ["Kojie San"])
    assert has_doubled_word("I want a will ring rings") and has_doubled_word("a birthstone necklace heart necklaces")
    assert not has_doubled_word("a heart necklace and a gold ring")
    task = ShoppingTask(task_id="t", task_set="s", intent="product", task_index=0, query="",
                        targets=[Target(product_id="1", title=["x"], attributes=[{"color_family": ["red"]}])])
    assert has_repeated_constraint(task, "a red ball jersey, where the colour is red")
    assert not has_repeated_constraint(task, "a ball jersey in red")
    assert has_context_mismatch("Our pantry is almost empty. I need a rugged phone case.",
                                ["Electronics Parts & Accessories > Mobile Accessories > Phone Cases"])
    assert not has_context_mismatch("Our pantry is almost empty. I need ground coffee.",
                                    ["Groceries > Beverages > Coffee"])
    assert has_article_error("I want to buy laptop backpack.") and has_article_error("I need a umbrella.")
    assert not has_article_error("I want to buy a laptop backpack and an umbrella.")


def test_the_default_world_shows_no_more_signs_than_the_official_set(default_world):
    tasks = default_world.tasks("generated")
    products = default_world.products.get(list({t.product_id for task in tasks for t in task.targets}))
    generated, read = count_signs(tasks, products)
    official, official_read = count_signs(default_world.tasks("official"), {})
    assert read == 400 and official_read == 900
    for sign in SIGNS:  # as a share of the tasks read (the official set has 900, the default world 400)
        assert generated[sign] / read <= official[sign] / official_read, (sign, generated[sign], official[sign])
    assert sum(official.values()) > 100  # the detectors do find signs where they are
