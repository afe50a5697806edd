"""How long the rules user takes to answer one question (target: well under a millisecond).

Run: .venv/bin/python perf/bench_rules_user.py [--rounds 5]
Every task of the official set (its profiles built from the task file, no corpus needed) is asked a fixed mix of
questions — one per topic, a detail by its own name, a question about one of several items, a general and an
unmappable one — `--rounds` times; each `answer` call is timed alone (perf_counter_ns) and p50, p90, p99 and the
maximum are printed per kind of question and overall, with how many calls were timed. The rules' one-time load
(questions.toml) and what each episode pays once (its profile, its user's set-up) are timed apart.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.shoppingbench.conversation.profile import item_label, profile_of  # noqa: E402 - after the path
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR, OFFICIAL_SET, load_task_set  # noqa: E402
from mcp_server.shopping.conversation.rules_user import RulesUser, rules  # noqa: E402

QUESTIONS = {
    "topic": ("What colour would you like?", "What's your budget?", "Do you need cash on delivery?",
              "Which brand do you prefer?", "Should everything come from one shop?", "Do you have a voucher?"),
    "by name": ("What {name} would you like?",),
    "one item": ("What size do you need for {item}?",),
    "general": ("Anything else I should know?",),
    "unmappable": ("What's the weather like today?",),
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(rounds: int) -> None:
    began = time.perf_counter_ns()
    rules.cache_clear()
    rules()
    load_ms = (time.perf_counter_ns() - began) / 1e6
    tasks = load_task_set(OFFICIAL_DIR, OFFICIAL_SET)
    began = time.perf_counter_ns()
    profiles = [profile_of(task, {}, stated=1) for task in tasks]
    profile_ms = (time.perf_counter_ns() - began) / 1e6 / len(tasks)
    began = time.perf_counter_ns()
    users = [RulesUser(profile) for profile in profiles]
    user_ms = (time.perf_counter_ns() - began) / 1e6 / len(tasks)
    timings: dict[str, list[float]] = {kind: [] for kind in QUESTIONS}
    for _ in range(rounds):
        for user in users:
            profile = user.profile
            details = [c for c in profile.held if c.kind in ("option", "attribute")]
            for kind, questions in QUESTIONS.items():
                for template in questions:
                    if kind == "by name" and not details or kind == "one item" and len(profile.items) < 2:
                        continue
                    question = template.format(name=details[0].name if details else "",
                                               item=item_label(profile.items, len(profile.items) - 1))
                    start = time.perf_counter_ns()
                    user.answer(question)
                    timings[kind].append((time.perf_counter_ns() - start) / 1e3)
    every = [value for values in timings.values() for value in values]
    print(f"rules user, {len(users)} official tasks x {rounds} rounds; questions.toml loaded in {load_ms:.1f} ms; "
          f"per episode: profile_of {profile_ms:.2f} ms, the user's set-up {user_ms:.2f} ms (mean)")
    print(f"{'question':<12} {'calls':>7} {'p50 us':>8} {'p90 us':>8} {'p99 us':>8} {'max us':>8}")
    for kind, values in [*timings.items(), ("all", every)]:
        print(f"{kind:<12} {len(values):>7} {statistics.median(values):>8.1f} {percentile(values, 0.9):>8.1f} "
              f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    main(parser.parse_args().rounds)
