"""How well a blind reader told generated instructions from official ones: hits, a one-sided binomial test against
chance, per intent, and the mean naturalness each source was given.

    .venv/bin/python perf/judge_blind_mix.py docs/blind-mix/answer-key-r7.md docs/blind-mix/reader-answers-r7.tsv

The answer key is perf/instruction_samples.py's table (| # | source | intent | task |); the reader's answers a
tab-separated file with a header: item, guess (human|program), confidence, naturalness.
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import defaultdict
from pathlib import Path
from statistics import mean

from scipy.stats import binomtest


def read_key(path: Path) -> dict[int, tuple[str, str]]:
    rows = re.findall(r"^\| (\d+) \| (generated|official) \| (\w+) \|", path.read_text(encoding="utf-8"), re.M)
    return {int(n): (source, intent) for n, source, intent in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("key", type=Path)
    parser.add_argument("answers", type=Path)
    args = parser.parse_args()
    key = read_key(args.key)
    with args.answers.open(encoding="utf-8") as handle:
        answers = {int(row["item"]): row for row in csv.DictReader(handle, delimiter="\t")}
    hits: dict[str, list[bool]] = defaultdict(list)
    natural: dict[str, list[float]] = defaultdict(list)
    for number, (source, intent) in sorted(key.items()):
        row = answers[number]
        right = (row["guess"].strip() == "program") == (source == "generated")
        hits["all"].append(right)
        hits[intent].append(right)
        natural[source].append(float(row["naturalness"]))
    for group, found in hits.items():
        test = binomtest(sum(found), len(found), 0.5, alternative="greater")
        print(f"{group:9} {sum(found):3d} of {len(found):3d} told apart   one-sided p = {test.pvalue:.3g}")
    for source, values in sorted(natural.items()):
        print(f"naturalness {source:9} {mean(values):.2f}")


if __name__ == "__main__":
    main()
