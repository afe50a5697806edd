"""The question benchmarks' runner and scorer: Shopping MMLU, IntentionQA, SessionIntentBench.

`run_qa(QARunConfig(...))` asks every question and records one episode per item; `QAScorer` (registered in
evaluators.scoring) scores run directories and bare predictions with the reference parsers and metrics.
"""

from evaluators.qa.runner import QARunConfig, QARunResult, run_qa
from evaluators.qa.scoring import QAScorer, QAScoreResult

__all__ = ["QARunConfig", "QARunResult", "QAScoreResult", "QAScorer", "run_qa"]
