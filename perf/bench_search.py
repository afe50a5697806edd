"""Catalog index build time and find_product latency (with filters) on generated catalogs.

Targets (issue 2): at 2.5M products, index build <= 10 min on 2 cores, find_product p50 <= 5 ms and p99 <= 50 ms.

    .venv/bin/python perf/bench_search.py                      # 5k, 100k and 2.5M products
    .venv/bin/python perf/bench_search.py --sizes 5000 100000  # a subset

Catalogs are generated once (seed 0) under --work and reused; the index is rebuilt each run so its build is timed.
The query mix: 1-3 words from a sampled product's title, with a price range (lo-hi, lo-, -hi) half of the time, one
or two services a third of the time, that product's shop a quarter of the time, a random sort, and page 1-3.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import statistics
import time
from pathlib import Path

from benchmarks.shoppingbench.schema import SERVICES

DEFAULT_SIZES = (5_000, 100_000, 2_500_000)
SORTS = ("default", "order", "priceasc", "pricedesc")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--queries", type=int, default=1000, help="timed find_product calls per size")
    parser.add_argument("--work", type=Path, default=_default_work_dir())
    parser.add_argument("--keep-index", action="store_true", help="reuse an index built by an earlier run")
    args = parser.parse_args()

    print(f"{'products':>10} {'build s':>8} {'docs/s':>8} {'index MB':>9} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'mean ms':>8} {'hits/q':>7}", flush=True)
    for size in args.sizes:
        bench(size, args.work, args.queries, keep_index=args.keep_index)


def _default_work_dir() -> Path:
    home = Path(os.environ.get("SHOPBENCH_HOME", Path.home() / ".cache" / "shopbench"))
    return home / "bench-search"


def bench(size: int, work: Path, n_queries: int, *, keep_index: bool) -> None:
    from benchmarks.shoppingbench.worldgen.catalog import generate_catalog
    from mcp_server.search.product_index import ProductIndex

    catalog = work / f"catalog-{size}.jsonl.gz"
    if not catalog.exists():
        generate_catalog(catalog, size, seed=0)
    index_root = work / f"index-{size}"
    if not keep_index:
        shutil.rmtree(index_root, ignore_errors=True)
    started = time.perf_counter()
    index = ProductIndex.open_or_build(catalog, index_root, progress=False)
    build = time.perf_counter() - started
    index_mb = sum(p.stat().st_size for p in index.index_dir.iterdir()) / 2**20

    calls = query_mix(catalog, size, n_queries)
    for call in calls[:100]:  # warm the JIT and the page cache
        index.find(**call)
    latencies, hits = [], 0
    for call in calls:
        started = time.perf_counter()
        hits += len(index.find(**call))
        latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{size:>10,} {build:>8.1f} {size / build:>8,.0f} {index_mb:>9.0f} {p50:>7.2f} {p99:>7.2f} "
          f"{statistics.fmean(latencies):>8.2f} {hits / len(calls):>7.1f}", flush=True)
    index.close()


def query_mix(catalog: Path, size: int, n: int) -> list[dict]:
    """`n` find_product calls built from products sampled evenly through the catalog (streamed, not loaded)."""
    rng = random.Random(size)
    step = max(1, size // n)
    products = []
    with gzip.open(catalog, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number % step == 0:
                products.append(json.loads(line)["product"])
    calls = []
    for product in rng.sample(products, min(n, len(products))):
        words = product["title"].split()
        call: dict = {"q": " ".join(rng.sample(words, min(len(words), rng.randint(1, 3)))), "page": rng.randint(1, 3)}
        if rng.random() < 0.5:
            price = product["price"]
            low, high = int(price * rng.uniform(0.3, 1.0)), int(price * rng.uniform(1.0, 2.0)) + 1
            call.update(rng.choice([{"price_min": low, "price_max": high}, {"price_min": low}, {"price_max": high}]))
        if rng.random() < 0.33:
            call["services"] = rng.sample(SERVICES, rng.randint(1, 2))
        if rng.random() < 0.25:
            call["shop_id"] = product["shop_id"]
        call["sort"] = rng.choice(SORTS)
        calls.append(call)
    return calls


if __name__ == "__main__":
    main()
