"""ShoppingBench at the paper's scale: a generated 2.5M-product world, its Lucene index, a run of baselines over every
generated task, and `shopbench score` of each run — wall time and peak memory of every step, and the scores.

    python perf/bench_paper_scale.py --world /data/worlds/big             # an existing world (index built if missing)
    python perf/bench_paper_scale.py --generate /data/worlds/big          # generate it first (2.5M: ~30 min, 2 cores)
    python perf/bench_paper_scale.py --world W --models random naive oracle --concurrency 2

Every step runs as the `shopbench` command a researcher would type, in a child process, so the figures include start-up
(JVM, index open). Peak memory is the child's own maximum resident set (wait4). The find_product latency at this
scale, beside the reference's way, is `perf/bench_search.py --world W --reference N`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHOPBENCH = [sys.executable, "-m", "shopbench.cli"]


def timed(command: list[str]) -> tuple[float, float, str]:
    """Run `command`; return its wall seconds, its peak RSS in MiB, and its output (raising if it fails)."""
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, text=True,
                                   env=dict(os.environ, COLUMNS="160"))
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
        output.seek(0)
        text = output.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{text[-3000:]}")
    return wall, usage.ru_maxrss / 1024, text


def show(step: str, wall: float, peak: float, extra: str = "") -> None:
    print(f"{step:<44} {wall:>8.1f} s  peak {peak:>7,.0f} MiB  {extra}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--world", type=Path, help="an existing world folder")
    where.add_argument("--generate", type=Path, help="generate a world into this (new) folder first")
    parser.add_argument("--products", type=int, default=2_500_000)
    parser.add_argument("--tasks-per-intent", type=int, default=225)
    parser.add_argument("--models", nargs="+", default=["random"], help="baselines to run (random, naive, oracle...)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--runs", type=Path, help="folder for the runs (default: a temporary one)")
    args = parser.parse_args()

    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start", flush=True)
    world = args.world or args.generate
    if args.generate:
        wall, peak, _ = timed([*SHOPBENCH, "world", "generate", "--products", str(args.products),
                               "--tasks-per-intent", str(args.tasks_per_intent), "--out", str(world)])
        show(f"world generate ({args.products:,} products, index, tasks)", wall, peak)
    wall, peak, text = timed([*SHOPBENCH, "world", "index", str(world)])
    show("world index (built only if missing)", wall, peak, text.splitlines()[0] if text else "")
    world_json = json.loads((world / "world.json").read_text(encoding="utf-8"))
    print(f"world {world} · {world_json.get('products', 0):,} products", flush=True)

    runs = args.runs or Path(tempfile.mkdtemp(prefix="paper-scale-"))
    for model in args.models:
        out = runs / f"{model}-{time.strftime('%Y%m%dT%H%M%S')}"
        wall, peak, text = timed([*SHOPBENCH, "run", "shoppingbench", "--model", model, "--world", str(world),
                                  "--tasks", "generated", "--concurrency", str(args.concurrency), "--out", str(out)])
        summary = next((line for line in text.splitlines() if line.startswith("run: ")), "").split("·")[-1].strip()
        show(f"run {model} (concurrency {args.concurrency})", wall, peak, summary)
        scores = out / "scores.json"
        wall, peak, _ = timed([*SHOPBENCH, "score", str(out), "--json", str(scores)])
        result = json.loads(scores.read_text(encoding="utf-8"))
        per_intent = "  ".join(f"{row['intent']} {row['asr']['value']:.3f}" for row in result["intents"])
        show(f"score {model}", wall, peak, f"ASR {result['overall_asr']['value']:.3f}  CAR "
             f"{result['overall_car']['value']:.3f}  ({per_intent})")
    print(f"runs in {runs}", flush=True)


if __name__ == "__main__":
    main()
