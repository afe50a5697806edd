"""The question benchmarks' player and scorer, for every registered question benchmark (benchmarks.registry).

`answer_question` plays one question episode through the server (start_task → the answer → submit_answer);
`QAScorer` (found by evaluators.scoring.get_scorer) scores run directories and bare predictions with the output
scorer the benchmark registered. Runs go through evaluators.runs.run like every benchmark's.
"""

from evaluators.qa.answer import Answerer, BaselineAnswerer, ModelAnswerer, answer_question
from evaluators.qa.scoring import QAScorer, QAScoreResult

__all__ = ["Answerer", "BaselineAnswerer", "ModelAnswerer", "QAScoreResult", "QAScorer", "answer_question"]
