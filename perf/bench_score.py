"""How long `shopbench score` takes on a full-size run: 900 trajectories (250 product, 150 knowledge, 250 shop,
250 voucher: the official test set), embedder load included. Target: ≤ 10 s.

The run is synthetic but shaped like a real one: episodes have 5 to 12 steps with token usage (so the App. F
correlations are computed); 40% of recommendations name the exact targets and the rest name another task's products,
so about 60% of tasks need title embeddings (about 1,300 distinct titles, 31,000 tokens). Scoring runs in a fresh
Python process so imports and the model load are counted, as a user would see them: first with an empty embedding
cache (every title encoded), then again as `shopbench report` or replay would re-score it. Two ways are timed:
- "script": score_trajectories over a catalog file, rendered as `shopbench score` renders it;
- "shopbench score": the command itself, `shopbench score RUN --world WORLD --json OUT`, in a world imported from
  that catalog (900 products: looked up by streaming the catalog; worlds over 50,000 products start Java for their
  index instead, a second or more).
`python perf/bench_score.py N` repeats each N times and prints medians with the load average of each run.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from _scoring_runs import make_run, official_catalog, write_episode  # noqa: E402

from benchmarks.shoppingbench.schema import CorpusRecord  # noqa: E402

SCORE_SCRIPT = """
import sys, time
t0 = time.perf_counter()
from benchmarks.shoppingbench.tasks import load_official
from evaluators.results.shoppingbench.catalog import load_catalog_products
from evaluators.results.shoppingbench.scorer import score_trajectories
from evaluators.results.reports.console import shoppingbench_renderables
from rich.console import Console

class Catalog:
    def get(self, ids):
        return load_catalog_products(sys.argv[2], ids)

t1 = time.perf_counter()
tasks = load_official()
result = score_trajectories(sys.argv[1], lambda _: tasks, Catalog())
Console(file=open("/dev/null", "w")).print(*shoppingbench_renderables(result))
t2 = time.perf_counter()
print(f"scored {len(result.scores)} episodes, ASR {result.overall_asr.value:.3f}; "
      f"imports {t1 - t0:.2f} s, scoring (embedder load included) {t2 - t1:.2f} s")
"""


def build(root: Path) -> tuple[Path, Path]:
    rng = random.Random(0)
    tasks, catalog = official_catalog()
    catalog_path = root / "catalog.jsonl"
    with catalog_path.open("w", encoding="utf-8") as handle:
        for product in catalog.values():
            handle.write(CorpusRecord.of(product).model_dump_json() + "\n")
    run = make_run(root / "run")
    by_intent = {}
    for task in tasks:
        by_intent.setdefault(task.intent, []).append(task)
    for task in tasks:
        source = task if rng.random() < 0.4 else rng.choice(by_intent[task.intent])
        ids = ",".join(t.product_id for t in source.targets)
        calls = [("find_product", {"q": "query", "page": 1 + i % 2}) for i in range(rng.randint(1, 5))]
        calls += [("view_product_information", {"product_ids": ids})] * rng.randint(1, 3)
        calls += [("web_search", {"q": "who"})] * rng.randint(0, 2)
        calls += [("recommend_product", {"product_ids": ids}), ("terminate", {"status": "success"})]
        write_episode(run, task, calls)
    return run, catalog_path


def import_world(catalog: Path, root: Path) -> Path:
    """A world holding the catalog's products, as `shopbench world import` builds it."""
    world = root / "world"
    subprocess.run([sys.executable, "-m", "shopbench.cli", "world", "import", str(catalog), "--out", str(world)],
                   env={**os.environ, "PYTHONPATH": str(REPO), "SHOPBENCH_HOME": str(root / "import-home")},
                   cwd=REPO, capture_output=True, text=True, check=True)
    return world


def score_once(command: list[str], home: Path) -> tuple[float, float, str]:
    """(wall s, CPU s, the last line printed) of one scoring in a fresh process with SHOPBENCH_HOME=home."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO), "SHOPBENCH_HOME": str(home)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *command], env=env, cwd=REPO, capture_output=True, text=True,
                          check=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, done.stdout.strip().splitlines()[-1]


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        run, catalog = build(Path(tmp))
        world = import_world(catalog, Path(tmp))
        print(f"built 900 trajectories in {time.perf_counter() - started:.1f} s; {repeats} repeat(s), medians shown")
        ways = {
            "script": ["-c", SCORE_SCRIPT, str(run), str(catalog)],
            "shopbench score": ["-m", "shopbench.cli", "score", str(run), "--world", str(world), "--json",
                                str(Path(tmp) / "scores.json")],
        }
        for way, command in ways.items():
            for label, fresh in (("cold (empty embedding cache)", True), ("warm (second scoring of the run)", False)):
                walls, cpus, loads = [], [], []
                for attempt in range(repeats):
                    home = Path(tmp) / f"{way}-home-{attempt if fresh else 0}"
                    loads.append(os.getloadavg()[0])
                    wall, cpu, line = score_once(command, home)
                    walls.append(wall)
                    cpus.append(cpu)
                print(f"{way}, {label}: {line}")
                print(f"  score 900 trajectories in a fresh process: median {statistics.median(walls):.2f} s wall "
                      f"(all: {', '.join(f'{w:.1f}' for w in walls)}), median {statistics.median(cpus):.2f} s CPU "
                      f"(target ≤ 10 s wall; 1-min load average {', '.join(f'{x:.1f}' for x in loads)} "
                      f"on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
