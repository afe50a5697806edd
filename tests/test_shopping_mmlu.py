"""Shopping MMLU: reference parsers and metrics on the awkward cases of SPEC §6, loaders, prompts, samples."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchmarks.jsonl import DataFileError
from benchmarks.registry import question_benchmark
from benchmarks.shopping_mmlu import SAMPLES_PATH, SYSTEM_PROMPT, MMLUItem, ShotPool, build_prompt, load_items
from benchmarks.shopping_mmlu.baselines import majority_answers, random_answer
from benchmarks.shopping_mmlu.metrics import aggregate, bleu, hit_rate_at_3, micro_f1, ndcg, ner_counts, rouge_l
from benchmarks.shopping_mmlu.parsers import (
    parse_generation,
    parse_multiple_choice,
    parse_ner,
    parse_ranking,
    parse_retrieval,
)
from benchmarks.shopping_mmlu.prompts import DEMONSTRATION_POOL, demonstration_pool
from benchmarks.shopping_mmlu.schema import METRICS_BY_TYPE, TASK_TYPES


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("2", 2),
        ("\n3", 3),  # leading newline is stripped
        ("  1. Sony", 1),
        ("10", 1),  # only the first character
        ("Answer: 2", -1),
        ("３", 3),  # full-width digit: Python's int() accepts it
        ("", -1),
        ("   ", -1),
        ("\n" * 4999 + "3", 3),  # 4999 newlines: the 3 survives the 5000-character cut
        ("\n" * 5000 + "3", -1),  # the cut happens before stripping
    ],
)
def test_multiple_choice_parser(output: str, expected: int) -> None:
    assert parse_multiple_choice(output) == expected


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("1, 2, 3", [1, 2, 3]),
        ("3\n5", [35]),  # the newline is deleted, the digits merge
        ("-6, 2", [6, 2]),
        ("9.0", [90]),
        ("1 2, 4", [4]),  # "1 2" is not one int: skipped
        ("100, 200, 300, 400", [100, 200, 300]),
        ("[4, 7, 9]", [4, 7, 9]),
        ("none", []),
    ],
)
def test_retrieval_parser(output: str, expected: list[int]) -> None:
    assert parse_retrieval(output) == expected


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("3, 1, 5, 2, 4", [3, 1, 5, 2, 4]),
        ("1, 2, 2, 3", []),  # duplicate → empty
        ("1, 7, 2, 9", [1, 2]),  # numbers above 5 dropped
        ("1,2,3,4,5,1", [1, 2, 3, 4, 5]),  # first five taken before the duplicate check
        ("0, 1", [0, 1]),
    ],
)
def test_ranking_parser(output: str, expected: list[int]) -> None:
    assert parse_ranking(output) == expected


def test_ndcg_reference_semantics() -> None:
    truth = [3, 0, 1, 1, 3]
    assert ndcg([1, 5, 3, 4, 2], truth) == pytest.approx(1.0)
    assert ndcg([], truth) == 0.0
    # 0 reads the LAST candidate's relevance (1-based lookup of index -1): same as ranking candidate 5 first
    assert ndcg([0], truth) == pytest.approx(ndcg([5], truth))
    assert ndcg([0], truth) > ndcg([2], truth)
    assert ndcg([2], [0, 0, 0]) == 0.0  # ideal 0 → 0, not a division error
    # the prediction is cut to len(truth)
    assert ndcg([2, 1, 3], [1, 2]) == pytest.approx(1.0)
    assert ndcg(parse_ranking("1, 1, 5"), truth) == 0.0


def test_hit_rate() -> None:
    assert hit_rate_at_3([2, 4, 5], [2, 4, 5]) == 1.0
    assert hit_rate_at_3([2, 9, 9], [2, 4]) == 0.5
    assert hit_rate_at_3(parse_retrieval("2\n4, 5"), [2, 4, 5]) == pytest.approx(1 / 3)


def test_ner_list_literal_versus_commas() -> None:
    assert parse_ner("['New York', 'Amazon']") == ["New York", "Amazon"]
    assert parse_ner("New York, Amazon") == ["New York", "Amazon"]
    assert parse_ner("[New York, Amazon]") == ["[New York", "Amazon]"]  # not a literal: comma split
    assert parse_ner("[4, 1]") == ["[4", "1]"]  # a literal, but not of strings: comma split
    assert parse_ner("a, , b,") == ["a", "b"]  # empties dropped


def test_ner_counts_false_positives_repeat() -> None:
    assert ner_counts(["Nike", "nike", "Adidas"], ["nike"]) == (1, 2, 0)
    assert ner_counts([], ["dell", "hp"]) == (0, 0, 2)
    assert micro_f1([(1, 2, 0), (0, 0, 2)]) == pytest.approx(2 * (1 / 3) * (1 / 3) / (2 / 3))
    assert micro_f1([(0, 0, 3)]) == 0.0


def test_generation_metrics() -> None:
    assert parse_generation("  the battery lasts  \n") == "the battery lasts"
    assert rouge_l("the battery life lasts two days", "battery life lasts two days") == pytest.approx(10 / 11)
    assert rouge_l("running shoes", "runs shoe") == pytest.approx(1.0)  # stemming
    reference = "Edelstahl-Trinkflasche mit auslaufsicherem Deckel, 1 Liter"
    assert bleu(reference.upper(), reference) == pytest.approx(1.0)  # lower-cased
    assert bleu(reference + "\nsecond line of chatter", reference) == pytest.approx(1.0)  # first line only
    assert bleu("chatter first\n" + reference, reference) < 0.2
    japanese = "充電ケース付きワイヤレスイヤホン"
    assert bleu(japanese, japanese, japanese=True) == pytest.approx(1.0)


def test_samples_cover_every_type_and_metric() -> None:
    items = load_items()
    assert SAMPLES_PATH.name.startswith("samples_")
    assert (SAMPLES_PATH.parent / "README.md").read_text().count("NOT the benchmark") == 1
    for task_type in TASK_TYPES:
        assert sum(item.task_type == task_type for item in items) >= 5
    metrics = {item.metric for item in items}
    assert metrics == {m for ms in METRICS_BY_TYPE.values() for m in ms}
    assert len({item.id for item in items}) == len(items)


def test_kdd_file_without_ids_gets_line_numbers(tmp_path) -> None:
    record = json.loads(SAMPLES_PATH.read_text().splitlines()[0])
    record.pop("id")
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(record) + "\n" + json.dumps(record) + "\n")
    assert [item.id for item in load_items(path)] == ["0", "1"]


def test_bad_line_names_file_and_line(tmp_path) -> None:
    lines = SAMPLES_PATH.read_text().splitlines()[:3]
    bad = json.loads(lines[1])
    bad["output_field"] = "zero"  # a multiple-choice target must be an int
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(bad), lines[2]]) + "\n")
    with pytest.raises(DataFileError) as error:
        load_items(path)
    assert error.value.line == 2 and error.value.path == path
    (tmp_path / "broken.jsonl").write_text(lines[0] + "\n{not json\n")
    with pytest.raises(DataFileError, match="broken.jsonl:2"):
        load_items(tmp_path / "broken.jsonl")


def test_per_type_folder_release(tmp_path) -> None:
    (tmp_path / "multiple_choice").mkdir()
    (tmp_path / "multiple_choice" / "unit_conversion_dataset.csv").write_text(
        'question,choices,answer\n"Convert 1 kg to grams.","[\'10 g\', \'1000 g\', \'100 g\', \'1 g\']",1\n'
    )
    (tmp_path / "generation").mkdir()
    rows = [
        {"input_field": "Translate to German: water bottle\nOutput: ", "target_field": "Trinkflasche"},
        {"input_field": "Extract the aspect phrase.\nOutput: ", "target_field": "battery life"},
    ]
    (tmp_path / "generation" / "title_translation_DE_dataset.json").write_text(json.dumps(rows[0]) + "\n")
    (tmp_path / "generation" / "keyphrase_extraction_dataset.json").write_text(json.dumps(rows[1]) + "\n")
    (tmp_path / "ranking").mkdir()
    (tmp_path / "ranking" / "query_product_ranking_dataset.json").write_text(
        json.dumps({"input_field": "Rank 1..3\nOutput: ", "target_field": [1, 3, 0]}) + "\n"
    )
    items = {item.id: item for item in load_items(tmp_path)}
    mc = items["multiple_choice/unit_conversion:0"]
    assert mc.input_field == "Convert 1 kg to grams.\n0. 10 g\n1. 1000 g\n2. 100 g\n3. 1 g\nAnswer: "
    assert mc.output_field == 1 and mc.metric == "accuracy"
    assert items["generation/title_translation_DE:0"].metric == "bleu"
    assert items["generation/keyphrase_extraction:0"].metric == "rougel"
    assert items["ranking/query_product_ranking:0"].metric == "ndcg"
    (tmp_path / "multiple_choice" / "bad_dataset.csv").write_text("question,choices,answer\nq,\"[1,\",2\n")
    with pytest.raises(DataFileError, match="bad_dataset.csv:2"):
        load_items(tmp_path)


def test_skill_files_give_the_skill(tmp_path) -> None:
    skills = tmp_path / "skills"
    skills.mkdir()
    record = json.loads(SAMPLES_PATH.read_text().splitlines()[0])
    record.pop("track")
    (skills / "skill2_reasoning.json").write_text(json.dumps(record) + "\n")
    assert [item.track for item in load_items(tmp_path)] == ["skill2_reasoning"]


def test_prompts_zero_and_few_shot() -> None:
    items = load_items()
    item = items[0]
    zero = build_prompt(item)
    assert zero.system == SYSTEM_PROMPT and zero.user == item.input_field
    assert zero.max_tokens == 4 and zero.temperature == 0.0
    demonstrations = demonstration_pool(items)
    served = next(other for other in items if other not in demonstrations)
    pool = ShotPool(demonstrations)
    shots = pool.draw(served, 5)
    assert shots and all(s.task_name == served.task_name and s in demonstrations for s in shots)
    assert pool.draw(served, 5) == shots  # reproducible
    few = build_prompt(served, shots)
    assert few.user.endswith(served.input_field)
    assert f"{shots[0].input_field}{shots[0].output_field}\n\n" in few.user
    assert {build_prompt(i).max_tokens for i in items} == {4, 15, 20, 128}


def test_demonstration_pool_is_the_papers_20_per_task_whatever_the_shots() -> None:
    big = [MMLUItem.model_validate({"id": f"big:{n}", "input_field": f"Q{n}\nAnswer: ", "output_field": n % 4,
                                    "task_name": "big_task", "task_type": "multiple-choice", "metric": "accuracy"})
           for n in range(50)]
    items = load_items() + big
    pool = demonstration_pool(items)
    held = Counter(item.task_name for item in pool)
    assert held["big_task"] == DEMONSTRATION_POOL == 20  # the paper's training split (§4.5.3)
    tasks = Counter(item.task_name for item in items)
    assert all(held[task] == min(20, size // 2) for task, size in tasks.items())  # small tasks keep items to serve
    assert [item.id for item in pool] == [item.id for item in items if item in pool]  # in the items' order
    adapter = question_benchmark("shopping-mmlu")
    demonstrations = adapter.demonstrations(items, "few-shot", 5)
    assert demonstrations is not None and demonstrations.ids == [item.id for item in pool]
    assert adapter.demonstrations(items, "few-shot", 1) == demonstrations  # 1- and 5-shot score the same items
    assert adapter.demonstrations(items, "zero-shot", 5) is None  # zero-shot serves every item
    assert adapter.demonstrations(items, "few-shot", 0) is None


def test_aggregation_task_skill_overall() -> None:
    items = load_items()
    from benchmarks.shopping_mmlu.metrics import score_item

    outputs = {item.id: str(item.output_field) for item in items if item.task_type == "multiple-choice"}
    ner = [item for item in items if item.task_type == "named_entity_recognition"]
    outputs.update({item.id: ", ".join(item.output_field) for item in ner})
    scores = {item.id: score_item(item, outputs[item.id]) for item in items if item.id in outputs}
    result = aggregate(items, scores)
    assert result["tasks"]["sample_unit_conversion"] == 1.0
    assert result["tasks"]["sample_query_ner"] == 1.0
    assert result["skills"]["skill2_reasoning"] == 1.0
    assert result["overall"] == 1.0
    assert scores[ner[0].id].report()["tp"] == 1


def test_baselines_answer_in_parseable_form() -> None:
    import random

    items = load_items()
    rng = random.Random(0)
    for item in items:
        answer = random_answer(item, rng)
        assert isinstance(answer, str)
        if item.task_type == "multiple-choice":
            assert parse_multiple_choice(answer) in range(4)
    majority = majority_answers(items)
    assert set(majority) == {item.id for item in items}
