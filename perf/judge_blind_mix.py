"""How well a blind reader told generated instructions from official ones: hits, a one-sided binomial test against
chance, per intent, and the mean naturalness each source was given.

    .venv/bin/python perf/judge_blind_mix.py docs/blind-mix/answer-key-r7.md docs/blind-mix/reader-answers-r7.tsv
    .venv/bin/python perf/judge_blind_mix.py KEY-1 ANSWERS-1 KEY-2 ANSWERS-2 ...   # several readers, pooled

Several readers are pooled item by item (one reader is one reading: two fresh readers of one generator told 20 and
34 of 40 apart), with the pooled share's 95% interval.

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
    parser.add_argument("pairs", type=Path, nargs="+", metavar="KEY ANSWERS",
                        help="an answer key and the reader's answers to its mix, as many pairs as readers")
    args = parser.parse_args()
    if len(args.pairs) % 2:
        parser.error("give an answer key and its reader's answers for each reader (an even number of files)")
    hits: dict[str, list[bool]] = defaultdict(list)
    natural: dict[str, list[float]] = defaultdict(list)
    for key_path, answers_path in zip(args.pairs[::2], args.pairs[1::2], strict=True):
        key = read_key(key_path)
        with answers_path.open(encoding="utf-8") as handle:
            answers = {int(row["item"]): row for row in csv.DictReader(handle, delimiter="\t")}
        for number, (source, intent) in sorted(key.items()):
            row = answers[number]
            right = (row["guess"].strip() == "program") == (source == "generated")
            hits["all"].append(right)
            hits[intent].append(right)
            natural[source].append(float(row["naturalness"]))
    for group, found in hits.items():
        test = binomtest(sum(found), len(found), 0.5, alternative="greater")
        interval = binomtest(sum(found), len(found)).proportion_ci(0.95)
        print(f"{group:9} {sum(found):3d} of {len(found):3d} told apart ({sum(found) / len(found):.0%}, 95% "
              f"{interval.low:.0%}-{interval.high:.0%})   one-sided p = {test.pvalue:.3g}")
    for source, values in sorted(natural.items()):
        print(f"naturalness {source:9} {mean(values):.2f}")


if __name__ == "__main__":
    main()
