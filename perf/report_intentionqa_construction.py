"""IntentionQA construction on the real benchmark's assertions: does the pipeline reproduce the benchmark's shape?

Derives the 2,315 co-buy assertions from the bundled release (benchmarks/intentionqa/data), rebuilds both tasks with
`shopbench generate intentionqa`'s code (all-MiniLM-L6-v2 similarities of product names), and prints per task: items
built, options per item, the distractor similarity distribution against its window, difficulty counts with the mean
pair similarity per level (the paper's Table 1 columns), and the released items' own figures beside them. Both
intention-similarity modes are shown for Task 1.

    .venv/bin/python perf/report_intentionqa_construction.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.intentionqa.construction import INTENTION_WINDOW, PRODUCT_WINDOW, assertions_from_released  # noqa: E402
from benchmarks.intentionqa.loader import TASK_FILES  # noqa: E402
from benchmarks.jsonl import read_jsonl  # noqa: E402
from evaluators.pipelines.intentionqa import build_intentionqa, embedder_encoder  # noqa: E402
from evaluators.pipelines.journal import write_jsonl_atomic  # noqa: E402

PAPER = {"task1": (2241, {"easy": (1700, 0.972), "medium": (423, 0.740), "hard": (118, 0.532)}),
         "task2": (2143, {"easy": (1625, 0.971), "medium": (385, 0.744), "hard": (133, 0.514)})}


def distribution(values: list[float], window: tuple[float, float]) -> str:
    array = np.asarray(values)
    inside = np.mean((array >= window[0] - 1e-6) & (array <= window[1] + 1e-6))
    p = np.percentile(array, [0, 5, 50, 95, 100])
    return (f"n={len(array)} min {p[0]:.3f} p5 {p[1]:.3f} median {p[2]:.3f} p95 {p[3]:.3f} max {p[4]:.3f}; "
            f"inside {list(window)}: {inside:.1%}")


def report(label: str, records: list[dict], window: tuple[float, float]) -> None:
    options = Counter(len(r["options"]) for r in records)
    print(f"  {label}: {len(records)} items; options per item {dict(options)}")
    print(f"    distractor similarity: {distribution([s for r in records for s in r['distractors_score']], window)}")
    levels: dict[str, list[float]] = {}
    for r in records:
        if "pair_similarity" in r:
            levels.setdefault(r["difficulty"], []).append(r["pair_similarity"])
    if levels:
        print("    difficulty: " + ", ".join(f"{k} {len(v)} (mean pair sim {np.mean(v):.3f})"
                                               for k in ("easy", "medium", "hard") if (v := levels.get(k))))


def main() -> None:
    started, cpu = time.perf_counter(), time.process_time()
    released = {task: [r for _, r in read_jsonl(path)] for task, path in TASK_FILES.items()}
    assertions = assertions_from_released(released["task1"])
    encode, name = embedder_encoder()
    print(f"IntentionQA construction from the released assertions ({len(assertions)} distinct), embedder {name}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "assertions.jsonl"
        write_jsonl_atomic(source, [a.model_dump() for a in assertions])
        results = {}
        for mode in ("products", "text"):
            out = Path(folder) / f"items-{mode}.jsonl"
            tasks = ("task1", "task2") if mode == "products" else ("task1",)
            build = build_intentionqa(source, out, encode=encode, embedder=name, intention_similarity=mode,
                                      tasks=tasks, resume=False, progress=False)
            results[mode] = ([r for _, r in read_jsonl(out)], build)
    print(f"typicality > 0.5: {results['products'][1].typical} of {len(assertions)} assertions kept")
    built = results["products"][0]
    task1 = [r for r in built if r.get("distractors_product") is None]
    task2 = [r for r in built if r.get("distractors_product") is not None]
    print("\nTask 1 (IntentUnderstand), distractor intentions, window", list(INTENTION_WINDOW))
    report("built, paper's intention similarity (least product similarity of the two pairs)", task1, INTENTION_WINDOW)
    report("built, intention-text similarity", results["text"][0], INTENTION_WINDOW)
    report("released (paper, ASER context similarity)", released["task1"], INTENTION_WINDOW)
    print("\nTask 2 (IntentUtilize), distractor products, window", list(PRODUCT_WINDOW))
    report("built", task2, PRODUCT_WINDOW)
    report("released (paper, ASER context similarity)", released["task2"], PRODUCT_WINDOW)
    for task, (count, levels) in PAPER.items():
        print(f"\npaper Table 1 {task}: {count} items; " + ", ".join(
            f"{k} {n} (mean pair sim {s:.3f})" for k, (n, s) in levels.items()))
    gold_in = sum(r["options"][r["gold_ind"]] in [o for k, o in r["options"].items() if k != r["gold_ind"]]
                  for r in built)
    print(f"\nitems whose gold text also appears as a distractor: {gold_in}")
    print(f"wall {time.perf_counter() - started:.1f} s, CPU {time.process_time() - cpu:.1f} s "
          "(embeddings come from the disk cache after the first run)")


if __name__ == "__main__":
    main()
