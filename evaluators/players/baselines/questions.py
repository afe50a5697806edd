"""The baselines of question episodes: `random` (seeded by seed, item id and epoch) and `majority` (each task's
majority gold answer, labelled as reading the gold), for any registered question benchmark: its QuestionBenchmark
writes the answers the way its parser reads them. Both read the items on the harness side, never through the
server."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from benchmarks.qa import QuestionBenchmark, QuestionPrompt
from evaluators.players.baselines.registry import register_baseline
from evaluators.players.question import Answerer
from mcp_server.trajectory import AgentInfo, AgentKind, Usage

MAJORITY_LABEL = "majority (reads each task's gold answers; a label-skew probe, not a model)"


class RandomAnswerer(Answerer):
    def __init__(self, questions: QuestionBenchmark[Any], items: Path | str | None, prompting: str,
                 seed: int) -> None:
        self.questions, self.prompting, self.seed = questions, prompting, seed
        self.items = {questions.item_id(item): item for item in questions.load(items)}
        self.agent = AgentInfo(kind=AgentKind.baseline, name="random", details={"seed": seed})

    async def answer(self, task_id: str, prompt: QuestionPrompt, epoch: int) -> tuple[list[str], Usage | None]:
        rng = random.Random(f"{self.seed}:{task_id}" + (f":{epoch}" if epoch else ""))
        item = self.items[task_id]
        return [self.questions.random_answer(item, rng, self.prompting) for _ in range(prompt.samples)], None


class MajorityAnswerer(Answerer):
    def __init__(self, questions: QuestionBenchmark[Any], items: Path | str | None, prompting: str,
                 seed: int) -> None:
        self.majority = questions.majority_answers(questions.load(items), prompting)
        self.agent = AgentInfo(kind=AgentKind.baseline, name="majority", details={"label": MAJORITY_LABEL})

    async def answer(self, task_id: str, prompt: QuestionPrompt, epoch: int) -> tuple[list[str], Usage | None]:
        return [self.majority[task_id]] * prompt.samples, None


@register_baseline("random", kind="qa", help="a uniformly random answer to each question (seeded)")
def random_answers(questions: QuestionBenchmark[Any], items: Path | str | None, prompting: str,
                   seed: int) -> Answerer:
    return RandomAnswerer(questions, items, prompting, seed)


@register_baseline("majority", kind="qa", help=f"majority: {MAJORITY_LABEL}")
def majority_answers(questions: QuestionBenchmark[Any], items: Path | str | None, prompting: str,
                     seed: int) -> Answerer:
    return MajorityAnswerer(questions, items, prompting, seed)
