"""Catalog index build time and find_product latency (with filters), beside the reference's way on the same queries.

Targets: issue 2, at 2.5M products an index build <= 10 min on 2 cores; issue 12, find_product p50 <= 3 ms and
p99 <= 20 ms at 2.5M, with the same pages as the reference's way (k=100000 BM25 hits filtered in Python, SPEC §1.3).

    .venv/bin/python perf/bench_search.py                      # 5k, 100k and 2.5M generated products
    .venv/bin/python perf/bench_search.py --sizes 5000 100000  # a subset
    .venv/bin/python perf/bench_search.py --world /path/to/world --reference 50 --stages

Generated catalogs (seed 0) live under --work and are reused; their index is rebuilt each run so its build is
timed (--keep-index reuses it). --world benchmarks an existing world folder (its catalog.jsonl.gz and index/, built
once if missing) instead. Latency is wall time per call and, beside it, the calling thread's CPU time (Lucene runs on
the calling thread), which a loaded machine disturbs far less; a warm-up of 1,000 other queries comes first.
--reference N times the reference's way on the first N timed queries and sets it beside our find's times for the
same N, and checks the pages are equal. --stages splits our find into its steps (median ms per query each).

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.shoppingbench.schema import SERVICES

DEFAULT_SIZES = (5_000, 100_000, 2_500_000)
SORTS = ("default", "order", "priceasc", "pricedesc")
WARMUP = 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--queries", type=int, default=1000, help="timed find_product calls per catalog")
    parser.add_argument("--work", type=Path, default=_default_work_dir())
    parser.add_argument("--keep-index", action="store_true", help="reuse an index built by an earlier run")
    parser.add_argument("--world", type=Path, help="bench this world folder's catalog and index (no --sizes)")
    parser.add_argument("--reference", type=int, default=0, metavar="N",
                        help="also time the reference's way on the first N queries (seconds each at 2.5M)")
    parser.add_argument("--stages", action="store_true", help="print find's time per step")
    args = parser.parse_args()

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores", flush=True)
    print(f"{'products':>10} {'build s':>8} {'docs/s':>8} {'index MB':>9} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'mean ms':>8} {'cpu p50':>8} {'cpu p99':>8} {'hits/q':>7}", flush=True)
    if args.world is not None:
        runs = [(args.world / "catalog.jsonl.gz", args.world / "index", None)]
    else:
        runs = [(_generated_catalog(size, args.work), args.work / f"index-{size}", size) for size in args.sizes]
    for catalog, index_root, size in runs:
        if size is not None and not args.keep_index:
            shutil.rmtree(index_root, ignore_errors=True)
        bench(catalog, index_root, args.queries, reference=args.reference, stages=args.stages)


def _default_work_dir() -> Path:
    from benchmarks.home import shopbench_home

    return shopbench_home() / "bench-search"


def _generated_catalog(size: int, work: Path) -> Path:
    from benchmarks.shoppingbench.worldgen.catalog import generate_catalog

    catalog = work / f"catalog-{size}.jsonl.gz"
    if not catalog.exists():
        generate_catalog(catalog, size, seed=0)
    return catalog


def bench(catalog: Path, index_root: Path, n_queries: int, *, reference: int, stages: bool) -> None:
    from mcp_server.shopping.search.product_index import ProductIndex

    started = time.perf_counter()
    index = ProductIndex.open_or_build(catalog, index_root, progress=False)
    build = time.perf_counter() - started
    index_mb = sum(p.stat().st_size for p in index.index_dir.iterdir()) / 2**20
    size = len(index)

    mix = query_mix(catalog, size, WARMUP + n_queries)
    warmup, calls = mix[:WARMUP], mix[WARMUP:]
    for call in warmup:  # other queries than the timed ones: they warm the JIT, not these answers
        index.find(**call)
    wall, cpu, pages = timed(index.find, calls)
    hits = sum(len(page) for page in pages)
    print(f"{size:>10,} {build:>8.1f} {size / build:>8,.0f} {index_mb:>9.0f} {pct(wall, 50):>7.2f} "
          f"{pct(wall, 99):>7.2f} {statistics.fmean(wall):>8.2f} {pct(cpu, 50):>8.2f} {pct(cpu, 99):>8.2f} "
          f"{hits / len(calls):>7.1f}", flush=True)
    if stages:
        print_stages(index, calls)
    if reference:
        ours = (wall[:reference], cpu[:reference], pages[:reference])
        compare_with_reference(index, calls[:reference], ours)
    index.close()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


def timed(find: Callable[..., list[dict]], calls: list[dict]) -> tuple[list[float], list[float], list[list[dict]]]:
    """Wall and thread-CPU milliseconds of each call, and each call's page."""
    wall, cpu, pages = [], [], []
    for call in calls:
        started, started_cpu = time.perf_counter(), time.thread_time()
        pages.append(find(**call))
        cpu.append((time.thread_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return wall, cpu, pages


def pct(values: list[float], percentile: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * percentile / 100))]


def print_stages(index: Any, calls: list[dict]) -> None:
    """find's steps one by one (the same calls find makes, under the same lock): median wall and CPU ms per query."""
    from mcp_server.shopping.search import lucene_runtime

    names = ("build query", "search top n", "sort + page", "read records", "parse cards")
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for call in calls:
        args: dict[str, Any] = {"page": 1, "shop_id": None, "price_min": None, "price_max": None, "services": (),
                                "sort": "default", **call}
        steps = _steps(index, args)
        value: Any = None
        with lucene_runtime.java_lock:
            for name, step in zip(names, steps, strict=True):
                started, started_cpu = time.perf_counter(), time.thread_time()
                value = step(value)
                cpu[name].append((time.thread_time() - started_cpu) * 1000)
                wall[name].append((time.perf_counter() - started) * 1000)
    print(f"{'  step':<16} {'wall ms':>8} {'cpu ms':>8}   (median per query)")
    for name in names:
        print(f"  {name:<14} {statistics.median(wall[name]):>8.3f} {statistics.median(cpu[name]):>8.3f}")
    total_wall = [sum(values) for values in zip(*wall.values(), strict=True)]
    total_cpu = [sum(values) for values in zip(*cpu.values(), strict=True)]
    print(f"  {'all steps':<14} {statistics.median(total_wall):>8.3f} {statistics.median(total_cpu):>8.3f}", flush=True)


def _steps(index: Any, args: dict[str, Any]) -> list[Callable[[Any], Any]]:
    """find's steps for one call, each taking the previous step's result."""
    def build_query(_: Any) -> Any:
        return index._filtered_query(args["q"], args)

    def search(query: Any) -> Any:
        return index._kept(query, args["page"], args["sort"])

    def sort_and_page(kept: Any) -> Any:
        return index._page_hits(kept, args["page"], args["sort"])

    return [build_query, search, sort_and_page, index._raws, index._cards]


def compare_with_reference(
    index: Any, calls: list[dict], timed_ours: tuple[list[float], list[float], list[list[dict]]]
) -> None:
    """The reference's way and ours on the same queries: p50/p99 of each, and whether the pages are equal. Our
    figures are those the main pass took for these calls, before the reference's 100,000-document answers filled the
    Java heap (whose collection would then slow whatever runs next)."""
    from mcp_server.shopping.search import lucene_runtime
    from mcp_server.shopping.search.reference import REFERENCE_K, ReferenceFind

    reference = ReferenceFind(lucene_runtime.lucene_searcher(index.index_dir))
    reference.find(**calls[0])  # the first call loads classes
    ours_wall, ours_cpu, ours = timed_ours
    ref_wall, ref_cpu, theirs = [], [], []
    equal = cut = 0
    for call, our_page in zip(calls, ours, strict=True):
        wall, cpu, pages = timed(reference.find, [call])
        ref_wall += wall
        ref_cpu += cpu
        theirs += pages
        if pages[0] == our_page:
            equal += 1
        elif reference.last_hit_count == REFERENCE_K and _cut_short(index, call, reference.last_kept):
            cut += 1
        else:
            raise AssertionError(f"pages differ from the reference's on {call}")
    print(f"  same {len(calls)} queries: {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'cpu p50':>9} {'cpu p99':>9}")
    for name, wall, cpu in (("find_product", ours_wall, ours_cpu), (f"reference k={REFERENCE_K}", ref_wall, ref_cpu)):
        print(f"  {name:<22} {pct(wall, 50):>9.2f} {pct(wall, 99):>9.2f} {statistics.fmean(wall):>9.2f} "
              f"{pct(cpu, 50):>9.2f} {pct(cpu, 99):>9.2f}")
    print(f"  reference / ours: {pct(ref_wall, 50) / pct(ours_wall, 50):.0f}x at p50; pages equal: {equal}/{len(calls)}"
          + (f" (the other {cut}: the reference's k={REFERENCE_K} hits held fewer than 50 that pass the filters)"
             if cut else ""), flush=True)


def _cut_short(index: Any, call: dict, reference_kept: list[dict]) -> bool:
    """Whether the reference's pages differ only because its k hits held fewer than 50 that pass the filters: what it
    kept is then the beginning of what find_product keeps (all its hits, unsorted, pages 1 to 5)."""
    from mcp_server.shopping.search.product_index import KEPT_HITS, MAX_PAGE

    ours = [card for page in range(1, MAX_PAGE + 1) for card in index.find(**{**call, "page": page, "sort": "default"})]
    return len(reference_kept) < KEPT_HITS and ours[: len(reference_kept)] == reference_kept


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
