"""Reading a letter from a SessionIntentBench answer. The paper publishes no parser; shopbench's rule follows its
prompts: zero-/5-shot answers start with the letter ("B", "B. Maybe yes"); CoT answers put it "in the last line",
where the first standalone capital option letter is taken ("Final answer: C" → C). Anything else is no answer
(`NO_ANSWER`), which is wrong on accuracy and belongs to neither class for F1."""

from __future__ import annotations

import re

from benchmarks.session_intent.schema import LETTERS

NO_ANSWER = ""


def parse_direct(output: str, task: int) -> str:
    text = output.strip()
    return text[0].upper() if text and text[0].upper() in LETTERS[task] else NO_ANSWER


def parse_cot(output: str, task: int) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    if not lines:
        return NO_ANSWER
    allowed = "".join(LETTERS[task])
    match = re.search(rf"(?<![A-Za-z])([{allowed}])(?![A-Za-z])", lines[-1])
    return match.group(1) if match else NO_ANSWER


def parse(output: str, task: int, prompting: str) -> str:
    return parse_cot(output, task) if prompting == "cot" else parse_direct(output, task)
