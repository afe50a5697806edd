"""A question's answer options: read from its prompt (the question screen's buttons and keys, a study's label
screen), and written beside an answer on the end screen (the correct answer itself is looked up by benchmarks.gold
from the benchmark's own items, only after the episode has ended)."""

from __future__ import annotations

import html
import re

OPTION_LINE = re.compile(r"^\s*([A-Z]|\d{1,2})[.)]\s+(.+?)\s*$")
INLINE_OPTION = re.compile(r"(?:^|\s)([A-D])\.\s+")


def parse_options(question: str) -> list[tuple[str, str]]:
    """The answer options written into a question prompt: the last run of two or more "A. …" / "0. …" lines, or
    else the last line holding "A. … B. …" inline (SessionIntentBench writes its options on one line)."""
    runs: list[list[tuple[str, str]]] = [[]]
    for line in question.splitlines():
        match = OPTION_LINE.match(line)
        if match:
            runs[-1].append((match.group(1), match.group(2)))
        elif runs[-1]:
            runs.append([])
    options = [run for run in runs if len(run) >= 2]
    if options:
        return options[-1]
    for line in reversed(question.splitlines()):
        marks = list(INLINE_OPTION.finditer(line))
        letters = "".join(mark.group(1) for mark in marks)
        if len(marks) >= 2 and "ABCD".startswith(letters):
            ends = [mark.start() for mark in marks[1:]] + [len(line)]
            return [(mark.group(1), line[mark.end():end].strip()) for mark, end in zip(marks, ends, strict=True)]
    return []



def with_option(answer: str, options: list[tuple[str, str]]) -> str:
    """`1 · 32 ounces` when the answer is an option's key, else the answer as it is."""
    text = dict(options).get(answer.strip().upper()) or dict(options).get(answer.strip())
    return f"{answer} · {html.unescape(text)}" if text else answer
