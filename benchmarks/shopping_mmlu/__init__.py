"""Shopping MMLU (KDD Cup 2024): items, loaders, the reference prompts, parsers and metrics, baselines."""

from benchmarks.shopping_mmlu.loader import SAMPLES_PATH, load_items
from benchmarks.shopping_mmlu.metrics import aggregate, embed_for_similarity, score_item
from benchmarks.shopping_mmlu.parsers import PARSERS
from benchmarks.shopping_mmlu.prompts import ShotPool, build_prompt
from benchmarks.shopping_mmlu.schema import MAX_NEW_TOKENS, SYSTEM_PROMPT, TASK_TYPES, MMLUItem

BENCHMARK = "shopping-mmlu"

__all__ = [
    "BENCHMARK",
    "MAX_NEW_TOKENS",
    "PARSERS",
    "SAMPLES_PATH",
    "SYSTEM_PROMPT",
    "TASK_TYPES",
    "MMLUItem",
    "ShotPool",
    "aggregate",
    "build_prompt",
    "embed_for_similarity",
    "load_items",
    "score_item",
]
