"""Scoring time of 20,000 Shopping MMLU predictions of mixed types (target: ≤ 60 s including model load).

The items are the bundled samples, replicated to 20,000 with distinct ids and varied text (so the embedding cache
does not make generation items free); the predictions mix right, wrong and malformed outputs of every task type.
Scoring goes through the same `shopbench score --benchmark shopping-mmlu --predictions` path as a user's.

    .venv/bin/python perf/bench_mmlu_score.py
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# A fresh home: the embedder's disk cache starts empty, so the timing includes the model load and every encoding.
os.environ["SHOPBENCH_HOME"] = tempfile.mkdtemp(prefix="shopbench-bench-mmlu-")

from benchmarks.shopping_mmlu import SAMPLES_PATH  # noqa: E402
from evaluators.results.embeddings import load_embedder  # noqa: E402
from evaluators.results.scoring import ScoreOptions, get_scorer  # noqa: E402

TOTAL = 20_000
TARGET_S = 60.0
WORDS = ("red", "blue", "steel", "cotton", "large", "small", "wireless", "organic", "premium", "compact", "portable")


def vary(text: str, rng: random.Random) -> str:
    return f"{text} {rng.choice(WORDS)} {rng.randint(1, 999)}"


def build(folder: Path) -> tuple[Path, Path]:
    rng = random.Random(0)
    samples = [json.loads(line) for line in SAMPLES_PATH.read_text().splitlines()]
    items, predictions = [], []
    for index in range(TOTAL):
        record = dict(samples[index % len(samples)], id=f"item-{index}")
        kind, gold = record["task_type"], record["output_field"]
        if kind == "generation":
            record["output_field"] = vary(gold if isinstance(gold, str) else gold[0], rng)
            output = vary(record["output_field"], rng) if rng.random() < 0.7 else ""
        elif kind == "multiple-choice":
            output = rng.choice([str(gold), str(rng.randint(0, 3)), "Answer: 1", "\n2"])
        elif kind == "retrieval":
            output = rng.choice([",".join(map(str, gold)), "3\n5, 1", "1, 2, 3"])
        elif kind == "ranking":
            output = rng.choice(["1,2,3,4,5", "5, 4, 3", "1, 1, 2", "[2, 3, 1, 5, 4]"])
        else:
            output = rng.choice([", ".join(gold), str(gold), "nike, nike", ""])
        items.append(record)
        predictions.append({"id": record["id"], "output": output})
    items_path, predictions_path = folder / "items.jsonl", folder / "predictions.jsonl"
    items_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items), encoding="utf-8")
    predictions_path.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions), "utf-8")
    return items_path, predictions_path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        items_path, predictions_path = build(Path(tmp))
        options = ScoreOptions(items=items_path)
        started = time.perf_counter()
        result = get_scorer("shopping-mmlu").score_predictions(predictions_path, options)
        elapsed = time.perf_counter() - started
        load_embedder.cache_clear()  # rescoring: a new embedder that finds the vectors in its disk cache
        started = time.perf_counter()
        get_scorer("shopping-mmlu").score_predictions(predictions_path, options)
        rescored = time.perf_counter() - started
    report = result.to_json()
    kinds = {}
    for row in report["items"].values():
        kinds[row["metric"]] = kinds.get(row["metric"], 0) + 1
    print(f"scored {len(report['items'])} Shopping MMLU predictions in {elapsed:.1f} s (incl. embedder load); "
          f"target <= {TARGET_S:.0f} s: {'OK' if elapsed <= TARGET_S else 'OVER'}")
    print(f"rescoring the same predictions (embeddings from the disk cache): {rescored:.1f} s")
    print("per metric: " + ", ".join(f"{metric} {count}" for metric, count in sorted(kinds.items())))
    print(f"overall {report['overall']:.4f} over {len(report['tasks'])} tasks")
    shutil.rmtree(os.environ["SHOPBENCH_HOME"], ignore_errors=True)


if __name__ == "__main__":
    main()
