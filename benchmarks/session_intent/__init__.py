"""SessionIntentBench (intention shift in shopping sessions): item schema, the paper's prompts, scoring, baselines.

No data or code of the benchmark is public; shopbench defines the item schema and ships sample items.
"""

from benchmarks.session_intent.loader import SAMPLES_PATH, load_items
from benchmarks.session_intent.metrics import aggregate, binarise, score_item
from benchmarks.session_intent.prompts import PROMPTINGS, build_prompt
from benchmarks.session_intent.schema import TASKS, SessionIntentItem, SessionProduct

BENCHMARK = "session-intent"

__all__ = [
    "BENCHMARK",
    "PROMPTINGS",
    "SAMPLES_PATH",
    "TASKS",
    "SessionIntentItem",
    "SessionProduct",
    "aggregate",
    "binarise",
    "build_prompt",
    "load_items",
    "score_item",
]
