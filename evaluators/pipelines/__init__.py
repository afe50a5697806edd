"""The papers' benchmark-construction pipelines, with any model backend (model calls live here, logic in benchmarks/).

- `rewrite`: ShoppingBench Stage III, a model rewrites templated instructions (kept only if constraints survive).
- `intentionqa`: IntentionQA items from co-buy assertions with sentence-embedding similarities.
- `session_intent`: SessionIntentBench intention trees and the four tasks' instances sampled from them.

Every pipeline caches model responses (evaluators.harness.cache), appends its outputs as JSONL keyed by input id so a
killed run resumes (journal.Journal), and shows a rich progress bar.
"""

from evaluators.pipelines._common import GenerationProgress, ModelSettings, complete, open_model
from evaluators.pipelines.journal import Journal, write_jsonl_atomic
from evaluators.pipelines.rewrite import RewriteReport, rewrite_summary, rewrite_task_set

__all__ = [
    "GenerationProgress",
    "Journal",
    "ModelSettings",
    "RewriteReport",
    "complete",
    "open_model",
    "rewrite_summary",
    "rewrite_task_set",
    "write_jsonl_atomic",
]
