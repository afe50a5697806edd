"""What the question benchmarks share: the prompt a question becomes, and one scored answer.

Shopping MMLU, IntentionQA and SessionIntentBench each ask a model one question per item and parse its raw text.
The benchmark packages describe their prompts as `QuestionPrompt` (no model types here: this layer makes no model
calls) and their per-item results as `ItemScore`, so one runner and one scorer serve them all, and any question
benchmark registered later (benchmarks.registry).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from benchmarks.errors import BadInput
from benchmarks.names import did_you_mean

if TYPE_CHECKING:
    import numpy as np  # an annotation only: `shopbench --help` loads this module and not numpy

Prompting = Literal["zero-shot", "few-shot", "cot", "cot-sc"]
PROMPTINGS: tuple[Prompting, ...] = ("zero-shot", "few-shot", "cot", "cot-sc")

class QuestionPrompt(BaseModel):
    """One question as it is sent to a model, with the decoding its reference used."""

    system: str | None = None
    """System message, or None when the reference sends a single user turn."""
    user: str
    """The question text (for few-shot prompts, with the demonstrations written in)."""
    max_tokens: int
    temperature: float = 0.0
    samples: int = 1
    """How many independent samples to draw (CoT-SC draws 5 and votes)."""

    def text(self) -> str:
        """The whole prompt as one text (system prompt first), as the references sent it to base models."""
        return (self.system or "") + self.user


class ItemScore(BaseModel):
    """One item's result in a score report (the `items` entries of `shopbench score --json`)."""

    score: float | None
    """The item's metric value; None when the item is excluded (a failed call) or only counts (NER tp/fp/fn)."""
    parsed: Any = None
    """What the reference parser made of the raw output."""
    task: str
    excluded: bool = False
    """True for items left out of the denominator (IntentionQA: the call failed)."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Per-benchmark detail: NER tp/fp/fn, relation, difficulty, gold letter, binary labels, ..."""

    def report(self) -> dict[str, Any]:
        """The flat JSON shape of the scoring contract: score, parsed, task, then the extras."""
        row: dict[str, Any] = {"score": self.score, "parsed": self.parsed, "task": self.task}
        if self.excluded:
            row["excluded"] = True
        row.update(self.extra)
        return row


class Demonstrations(BaseModel):
    """Items a run holds out as few-shot demonstrations. They are never served, so no question's prompt shows the
    answer of a question the same run asks; the run's manifest records them."""

    rule: str
    """How they were chosen, in words (e.g. the paper's 20-item training split of each task)."""
    ids: list[str]
    """The held-out item ids, in the items' order."""


def mean(values: list[float]) -> float | None:
    """Arithmetic mean, None for no values (an empty group has no score, not a zero)."""
    return sum(values) / len(values) if values else None


Scored = tuple[dict[str, ItemScore], dict[str, Any]]
"""Item id → ItemScore, and the summary: "overall" and "tasks" (task → value) at least, plus what the benchmark
reports besides (skills, macro-F1, the embedders used, ...)."""


class TextEncoder(Protocol):
    """A sentence embedder as a benchmark's scoring uses it (the models are loaded above this layer)."""

    @property
    def name(self) -> str:
        """What reports call the model."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised embeddings, one row per text."""
        ...


class ScoringOptions(Protocol):
    """What the layer that scores a run hands a question benchmark's `score` (evaluators: its ScoreOptions)."""

    @property
    def embedder(self) -> str | None:
        """The sentence-embedding model asked for (`score --embedder`); None: the bundled default."""
        ...

    @property
    def extra(self) -> Mapping[str, Any]:
        """Benchmark-specific options the command line does not name."""
        ...

    def encoder(self, model: str | None) -> TextEncoder:
        """The embedder of a model folder (None: the bundled all-MiniLM-L6-v2), loaded on its first text."""
        ...


ItemT = TypeVar("ItemT", bound=BaseModel)
"""The item model of one question benchmark (IntentionQAItem, MMLUItem, ...)."""


class QuestionBenchmark(Protocol[ItemT]):
    """What the runner, the scorers and the MCP suites need to know about a question benchmark.

    Items are the benchmark's own pydantic models (`ItemT`); this protocol says how to load them, name them, ask them
    and answer them without a model (the baselines), and how to score raw answers (`score`: whatever it needs from
    above, such as an embedding model, comes in its options).
    Register an implementation with `benchmarks.registry.register_question`. Code that looks a benchmark up by name
    gets a `QuestionBenchmark[Any]`: the registry holds benchmarks of every item type.
    """

    @property
    def name(self) -> str: ...

    @property
    def item_schema(self) -> type[ItemT]:
        """The pydantic model of one item."""
        ...

    @property
    def default_task_set(self) -> str:
        """The label of the bundled items ("official" or "samples"); any other task set is the path of an items
        file."""
        ...

    @property
    def promptings(self) -> tuple[str, ...]: ...

    def load(self, path: Path | str | None = None) -> list[ItemT]: ...

    def item_id(self, item: ItemT) -> str: ...

    def task_of(self, item: ItemT) -> str: ...

    def runnable(self, item: ItemT) -> bool:
        """False for items the reference skips (IntentionQA: fewer than four options)."""
        ...

    def demonstrations(self, items: list[ItemT], prompting: str, shots: int) -> Demonstrations | None:
        """The items held out of a run as demonstrations for this protocol (never served), or None when its prompts
        show no item's answer (zero-shot, or demonstrations written into the protocol itself)."""
        ...

    def prompter(
        self, items: list[ItemT], prompting: str, shots: int, seed: int = 0
    ) -> Callable[[ItemT], QuestionPrompt]:
        """A function item → prompt for this protocol; few-shot demonstrations are drawn from `items`, the items
        `demonstrations` held out (none for a protocol that holds none out)."""
        ...

    def random_answer(self, item: ItemT, rng: random.Random, prompting: str) -> str:
        """A uniformly random answer, written the way the protocol's parser reads answers."""
        ...

    def majority_answers(self, items: list[ItemT], prompting: str) -> dict[str, str]:
        """Item id → the majority answer of its task (from the gold labels), written for the protocol's parser."""
        ...

    def score(self, items: list[ItemT], outputs: Mapping[str, Any], prompting: str,
              options: ScoringOptions) -> Scored:
        """Score raw outputs (item id → the model's text; IntentionQA CoT-SC: the list of samples; None: the call
        failed) with the benchmark's reference parsers and metrics. Items absent from `outputs` were not answered."""
        ...


def task_set_label(benchmark: QuestionBenchmark[Any], path: Path | str | None) -> str:
    """How a run names its items: the bundled label, or the absolute path of the items file or folder."""
    return benchmark.default_task_set if path is None else str(Path(path).expanduser().resolve())


def items_path(benchmark: QuestionBenchmark[Any], task_set: str | None) -> Path | None:
    """The inverse of `task_set_label` (None: the bundled items)."""
    return None if task_set in (None, benchmark.default_task_set) else Path(task_set)


def check_prompting(benchmark: QuestionBenchmark[Any], prompting: str) -> None:
    if prompting not in benchmark.promptings:
        hint = did_you_mean(prompting, benchmark.promptings)
        raise BadInput(f"{benchmark.name} supports --prompting {', '.join(benchmark.promptings)}; not {prompting!r}"
                         + (f".{hint}" if hint else ""))
