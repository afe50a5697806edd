"""IntentionQA (purchase-intention comprehension): the bundled benchmark, reference prompts, parsers and metrics."""

from benchmarks.intentionqa.loader import TASK_FILES, load_items
from benchmarks.intentionqa.metrics import DIFFICULTY_METHOD, aggregate, pair_similarities, score_item
from benchmarks.intentionqa.parsers import parse
from benchmarks.intentionqa.prompts import PROMPTINGS, build_prompt
from benchmarks.intentionqa.schema import IntentionQAItem

BENCHMARK = "intentionqa"

__all__ = [
    "BENCHMARK",
    "DIFFICULTY_METHOD",
    "PROMPTINGS",
    "TASK_FILES",
    "IntentionQAItem",
    "aggregate",
    "build_prompt",
    "load_items",
    "pair_similarities",
    "parse",
    "score_item",
]
