"""What keeps a cold `shopbench score` fast stays true: scoring a run (titles encoded, correlations computed) imports
neither torch, transformers, sentence-transformers nor scipy.stats, and the scipy-free Pearson equals scipy's."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from _scoring_runs import make_run, official_catalog, write_episode
from scipy.stats import pearsonr

from benchmarks.shoppingbench.schema import CorpusRecord
from evaluators.results.stats import pearson
from tests._cold_python import run_python

SCORE = """
import sys
from benchmarks.shoppingbench.tasks import load_official
from evaluators.results.shoppingbench.catalog import load_catalog_products
from evaluators.results.shoppingbench.scorer import score_trajectories

class Catalog:
    def get(self, ids):
        return load_catalog_products(sys.argv[2], ids)

tasks = load_official()
result = score_trajectories(sys.argv[1], lambda _: tasks, Catalog())
heavy = sorted(m for m in ("torch", "transformers", "sentence_transformers", "scipy.stats") if m in sys.modules)
defined = sum(c.r is not None for s in result.intents for c in s.correlations.values())
titles = sum(s.title is not None and not s.exact_id for s in result.scores)
print(len(result.scores), titles, defined, ",".join(heavy) or "-")
"""


def test_pearson_equals_scipy_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    for case in range(300):
        n = int(rng.integers(3, 400))
        x = rng.random(n) if case % 3 else rng.integers(0, 6, n).astype(float)
        y = x * rng.random() + rng.random(n) if case % 2 else (rng.random(n) < 0.3).astype(float)
        ours = pearson(list(x), list(y))
        if ours.r is None:
            continue
        reference = pearsonr(x, y)
        assert (ours.r, ours.p) == (float(reference.statistic), float(reference.pvalue)), case


def test_scoring_a_run_imports_nothing_heavy(tmp_path: Path) -> None:
    rng = random.Random(3)
    tasks, catalog = official_catalog()
    catalog_path = tmp_path / "catalog.jsonl"
    catalog_path.write_text("".join(CorpusRecord.of(p).model_dump_json() + "\n" for p in catalog.values()),
                            encoding="utf-8")
    run = make_run(tmp_path / "run")
    chosen = rng.sample(tasks, 40)
    for i, task in enumerate(chosen):
        source = chosen[(i + 1) % len(chosen)] if i % 2 else task  # half recommend another task's products
        ids = ",".join(t.product_id for t in source.targets)
        views = [("view_product_information", {"product_ids": ids})] * (i % 3)  # a statistic that varies
        write_episode(run, task, [*views, ("recommend_product", {"product_ids": ids}),
                                  ("terminate", {"status": "success"})])
    done = run_python(SCORE, str(run), str(catalog_path), home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    scored, titles, defined, heavy = done.stdout.split()
    assert int(scored) == 40 and int(titles) >= 15  # titles were compared: the embedder was loaded and used
    assert int(defined) > 0  # correlations were computed
    assert heavy == "-", f"scoring imported {heavy}"
