"""The Shopping MMLU report plots at 57 tasks: every task label legible (no overlap, never broken inside a word), the
figure title clear of the panel titles. Two real runs (random and majority baselines) over one item per task."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from matplotlib.text import Text
from typer.testing import CliRunner

from evaluators.results.reports import load_runs, pairwise
from evaluators.results.reports.plots import _label, paired_figure, rate_figure

TASKS = [f"{skill}_{name}" for skill, names in {
    "concept": ["attribute_value_synonym", "attribute_value_antonym", "applicable_product_category_selection_given"
                "_attribute", "aspect_based_sentiment_classification", "aspect_sentiment_based_review_retrieval",
                "attribute_value_extraction", "review_aspect_retrieval", "product_keyphrase_retrieval",
                "product_category_classification", "product_category_generation", "query_entity_recognition",
                "product_title_generation", "elaboration_of_product_categories", "concept_normalization"],
    "reasoning": ["product_numeric_reasoning", "product_compatibility", "related_brands_selection", "unit_conversion",
                  "implicit_attribute_reasoning", "product_function_inference", "commonsense_product_usage",
                  "product_substitute_identification", "relation_inference_between_product_categories",
                  "inference_of_product_attribute_from_review", "product_bundle_selection", "query_correction",
                  "product_question_answering_retrieval", "review_helpfulness_selection"],
    "behavior": ["query_query_intention_selection", "session_based_query_recommendation", "query_rewriting",
                 "product_co_purchase_retrieval", "query_product_relation_selection", "query_product_ranking",
                 "session_based_next_product_selection", "review_rating_prediction", "sequential_recommendation",
                 "user_intent_inference_from_reviews", "purchase_intention_selection",
                 "search_based_product_recommendation", "customer_review_summary_generation",
                 "session_purchase_prediction"],
    "multilingual": ["product_keyphrase_selection", "cross_lingual_entity_alignment", "session_based_product"
                     "_recommendation", "product_title_generation", "query_product_relation", "review_sentiment",
                     "attribute_extraction", "product_category_classification", "query_intention",
                     "machine_translation_product_titles", "review_summarization", "product_description_generation",
                     "product_qa", "query_ranking", "keyphrase_selection"],
}.items() for name in names]


def items_file(path: Path) -> Path:
    """One multiple-choice item per task (binary success per task, so intervals are Wilson)."""
    assert len(TASKS) == 57 and len(set(TASKS)) == 57
    with path.open("w", encoding="utf-8") as out:
        for number, task in enumerate(TASKS):
            out.write(json.dumps({
                "id": f"t{number:02d}", "task_name": task, "task_type": "multiple-choice", "metric": "accuracy",
                "input_field": f"Question about {task}?\n0. alpha\n1. beta\n2. gamma\n3. delta\nAnswer: ",
                "output_field": number % 4, "track": task.split("_")[0], "is_multiple_choice": True}) + "\n")
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    from shopbench.cli import app

    root = tmp_path_factory.mktemp("mmlu57")
    items = items_file(root / "items.jsonl")
    dirs = []
    for model in ("random", "majority"):
        result = CliRunner().invoke(app, ["run", "shopping-mmlu", "--model", model, "--items", str(items),
                                          "--out", str(root / model)])
        assert result.exit_code == 0, result.output
        dirs.append(root / model)
    return load_runs(dirs)


def _no_overlap(boxes: list) -> None:
    ordered = sorted(boxes, key=lambda box: box.y0)
    for lower, upper in zip(ordered, ordered[1:], strict=False):
        assert lower.y1 <= upper.y0 + 0.5, (lower, upper)


def test_labels_break_after_separators_only() -> None:
    assert _label("short_name") == "short_name"
    wrapped = _label("applicable_product_category_selection_given_attribute")
    first, second = wrapped.split("\n")
    assert first.endswith("_") and len(first) <= 40 and first + second == "applicable_product_category_selection_" \
        "given_attribute"
    assert _label("x" * 100).count("\n") == 1 and _label("x" * 100).endswith("…")


def test_57_task_panels_are_legible(runs) -> None:
    figure = rate_figure(runs, "score")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    first = figure.axes[0]
    labels = [tick.get_text() for tick in first.get_yticklabels()]
    assert len(labels) == 58 and labels[-1] == "overall"  # the 57 tasks, then the overall the runs are ranked by
    for label in labels:  # broken only after "_": no half words
        assert all(re.search(r"[_\s-]$", line) for line in label.split("\n")[:-1]), label
    _no_overlap([tick.get_window_extent(renderer) for tick in first.get_yticklabels()])
    title = figure._suptitle.get_window_extent(renderer)
    for axes in figure.axes:
        assert axes.title.get_window_extent(renderer).y1 <= title.y0, "the figure title runs into a panel title"
        assert axes.get_ylim() == (57.5, -0.5)  # first task on top, no empty rows
    label_box = first.get_yticklabels()[0].get_window_extent(renderer)
    assert label_box.x0 >= 0, "task labels cut off at the left edge"


def test_57_task_paired_plot_is_legible(runs) -> None:
    figure = paired_figure(pairwise(runs), "score")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    ticks = figure.axes[0].get_yticklabels()
    assert len(ticks) == 58 and ticks[-1].get_text() == "overall"
    _no_overlap([tick.get_window_extent(renderer) for tick in ticks])
    assert min(tick.get_window_extent(renderer).x0 for tick in ticks) >= 0


def test_a_pair_sharing_no_task_gets_no_empty_panel(runs) -> None:
    shared = pairwise(runs)[0]
    disjoint = shared.model_copy(update={"a": "run-x", "b": "run-y", "shared": 0, "only_a": 57, "only_b": 57})
    figure = paired_figure([shared, disjoint], "score")
    texts = [text.get_text() for text in figure.findobj(Text)]
    assert len(figure.axes) == 1 and "shared tasks" in figure.get_suptitle()
    assert any("majority" in text for text in texts) and not any("run-x" in text for text in texts)
    with pytest.raises(ValueError, match="shares a task"):
        paired_figure([disjoint], "score")



def test_a_one_run_figure_keeps_its_whole_title(tmp_path) -> None:
    from shopbench.cli import app

    out = tmp_path / "iqa"
    result = CliRunner().invoke(app, ["run", "intentionqa", "--model", "random", "--limit", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    figure = rate_figure(load_runs([out]), "accuracy")  # one panel, short labels: narrower than a one-line title
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    title = figure._suptitle.get_window_extent(renderer)
    assert title.x0 >= 0 and title.x1 <= figure.bbox.width, "the figure title is cut off at the sides"
    for axes in figure.axes:
        assert axes.title.get_window_extent(renderer).y1 <= title.y0, "the figure title runs into a panel title"
