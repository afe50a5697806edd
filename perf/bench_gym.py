"""Gymnasium environment speed: env steps per second of find_product in process, on the default world.

Target: ≥ 200 steps/s on 2 cores. Prints the environment's rate next to the bare sandbox's (Lucene search with no
episode), so the environment's own share (episode bookkeeping, trajectory writes, spaces) shows.

    .venv/bin/python perf/bench_gym.py [--steps 1000] [--envs 1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SHOPBENCH_HOME", str(Path(__file__).resolve().parent.parent / ".shopbench-cache"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

QUERIES = ("red shoes", "backpack for college", "wireless earbuds", "rice cooker", "yoga mat", "phone case",
           "face serum", "gaming mouse", "baby stroller", "coffee beans")


def main() -> None:
    import gymnasium as gym

    import evaluators.integrations.gym  # noqa: F401
    from evaluators.integrations.gym import ENV_ID

    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--envs", type=int, default=1, help="sync vector env of this many envs")
    parser.add_argument("--episode-steps", type=int, default=25, help="find_product steps per episode")
    args = parser.parse_args()

    runs = Path(tempfile.mkdtemp(prefix="bench-gym-"))
    env = gym.make(ENV_ID, runs_dir=runs / "single", max_steps=args.episode_steps + 1, disable_env_checker=True)
    base = env.unwrapped
    actions = [{"name": "find_product", "arguments": {"q": q, "page": 1 + i % 5}}
               for i, q in enumerate(QUERIES * 5)]

    for action in actions[:20]:  # warm the index and the JVM
        base.sandbox.call(action["name"], action["arguments"])
    start = time.perf_counter()
    for i in range(args.steps):
        action = actions[i % len(actions)]
        base.sandbox.call(action["name"], action["arguments"])
    sandbox_rate = args.steps / (time.perf_counter() - start)

    start = time.perf_counter()
    resets = 0
    for i in range(args.steps):
        if i % args.episode_steps == 0:
            env.reset(seed=i)
            resets += 1
        env.step(actions[i % len(actions)])
    env_rate = args.steps / (time.perf_counter() - start)
    env.close()

    print(f"machine load (1 min): {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"sandbox find_product alone: {sandbox_rate:7.1f} calls/s")
    print(f"env.step(find_product):     {env_rate:7.1f} steps/s  ({resets} episodes of {args.episode_steps} steps, "
          f"resets included; target >= 200)")
    if args.envs > 1:
        envs = gym.make_vec(ENV_ID, num_envs=args.envs, vectorization_mode="sync", runs_dir=runs / "vector",
                            max_steps=args.episode_steps + 1)
        envs.reset(seed=0)
        start = time.perf_counter()
        rounds = max(1, args.steps // args.envs)
        for i in range(rounds):
            envs.step(tuple(actions[(i + k) % len(actions)] for k in range(args.envs)))
        rate = rounds * args.envs / (time.perf_counter() - start)
        envs.close()
        print(f"sync vector env x{args.envs}:      {rate:7.1f} steps/s")


if __name__ == "__main__":
    main()
