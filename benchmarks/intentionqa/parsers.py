"""The reference IntentionQA answer parsers (SPEC §3, §6).

The reference strips whitespace from the API response before anything else, and records a failed call as the text
"Error", which is left out of the denominator. Zero-shot then strips dots and reads the first character ("Answer: B"
reads "A"); CoT reads the first non-space character after "STEP 2:" in the upper-cased text; CoT-SC votes.
"""

from __future__ import annotations

import json
from collections import Counter

FAILED_CALL = "Error"
NO_ANSWER = " "
"""What the reference parsers return when they find nothing; never a gold letter, so it scores as wrong."""


def is_failed_call(output: str | None) -> bool:
    return output is None or output.strip() == FAILED_CALL


def parse_zero_shot(output: str) -> str:
    text = output.strip().strip(".")
    return text[0].upper() if text else NO_ANSWER


def parse_cot(output: str) -> str:
    text = output.strip().strip(".")
    if not text:
        return NO_ANSWER
    text = text.upper()
    index = text.find("STEP 2:")
    if index == -1:
        return NO_ANSWER
    rest = text[index + 7 :].strip()
    return rest[0] if rest else NO_ANSWER


def parse_cot_sc(outputs: list[str]) -> str:
    """Majority vote of the CoT parses; ties go to the parse seen first (Counter.most_common)."""
    return Counter(parse_cot(output) for output in outputs).most_common(1)[0][0]


def samples_of(output: str | list[str]) -> list[str]:
    """CoT-SC answers are several samples: a list, or (in a trajectory's answer) a JSON-encoded list of strings."""
    if isinstance(output, list):
        return output
    try:
        decoded = json.loads(output)
    except ValueError:
        return [output]
    if isinstance(decoded, list) and all(isinstance(sample, str) for sample in decoded):
        return decoded
    return [output]


def parse(output: str | list[str], prompting: str) -> str:
    """The reference parser of the prompting protocol."""
    if prompting == "cot-sc":
        return parse_cot_sc(samples_of(output))
    if prompting == "cot":
        return parse_cot(output if isinstance(output, str) else output[0])
    return parse_zero_shot(output if isinstance(output, str) else output[0])
