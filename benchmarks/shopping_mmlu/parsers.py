"""The reference output parsers of the KDD Cup 2024 evaluation, quirks included (SPEC §2, §6).

Published Shopping MMLU numbers come from these parsers, so they are the default: every raw output is cut to its
first 5000 characters and then parsed exactly as the reference does — even where that reads "10" as 1, "-6" as 6
or "3\\n5" as 35. Nothing may tidy an output before it gets here.
"""

from __future__ import annotations

import ast

MAX_OUTPUT_CHARS = 5000


def truncate(output: str) -> str:
    """The reference cut, applied before any stripping (5000 leading newlines then "3" parses as nothing)."""
    return output[:MAX_OUTPUT_CHARS]


def parse_multiple_choice(output: str) -> int:
    """First character of the stripped output as an int (Python's int() takes full-width digits); else -1."""
    text = truncate(output).strip()
    try:
        return int(text[0])
    except (ValueError, IndexError):
        return -1


def _integers(output: str) -> list[int]:
    """Keep digits, commas and spaces only, split on commas, int() each piece and skip the ones that fail."""
    kept = "".join(c for c in truncate(output) if c.isnumeric() or c in (",", " "))
    numbers = []
    for piece in kept.split(","):
        try:
            numbers.append(int(piece))
        except ValueError:
            continue
    return numbers


def parse_retrieval(output: str) -> list[int]:
    """The first three integers (a newline is deleted, so "3\\n5" reads 35; "-6" reads 6; "9.0" reads 90)."""
    return _integers(output)[:3]


def parse_ranking(output: str) -> list[int]:
    """Integers ≤ 5, the first five of them; any duplicate among those five empties the ranking."""
    ranked = [n for n in _integers(output) if n <= 5][:5]
    return ranked if len(ranked) == len(set(ranked)) else []


def parse_ner(output: str) -> list[str]:
    """A Python list literal of strings if the output is one; otherwise comma pieces, stripped, empties dropped."""
    text = truncate(output)
    try:
        entities = ast.literal_eval(text)
        if isinstance(entities, list) and all(isinstance(e, str) for e in entities):
            return entities
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        pass
    return [piece.strip() for piece in text.split(",") if piece.strip()]


def parse_generation(output: str) -> str:
    """The stripped output."""
    return truncate(output).strip()


PARSERS = {
    "multiple-choice": parse_multiple_choice,
    "retrieval": parse_retrieval,
    "ranking": parse_ranking,
    "named_entity_recognition": parse_ner,
    "generation": parse_generation,
}
