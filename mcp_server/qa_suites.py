"""The question benchmarks as server suites (kind "qa"): a player — `shopbench run`, an MCP client, a person in
the TUI — gets the question and answers it with `submit_answer`, which ends the episode. Any registered question
benchmark (benchmarks.registry) is served by this one class, registered in mcp_server.suite_registry as the suite of
every benchmark of kind "qa".

Listings hold ids, benchmark and task name; instructions hold the question prompt (for Shopping MMLU with its system
prompt in front, as the reference sent it). Gold answers stay in the item objects and never leave this module, but
for the demonstrations of a few-shot prompt: those come only from the items the benchmark holds out for them
(`QuestionBenchmark.demonstrations`), which this suite never lists or starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from benchmarks.qa import Demonstrations, QuestionBenchmark, task_set_label
from benchmarks.registry import question_benchmark
from mcp_server.protocol import TaskListing
from mcp_server.suite_registry import register_suite
from mcp_server.suites import SuiteOptions, SuiteWorld
from mcp_server.toolbox import Arguments, Effect, EpisodeTool, tool_table, validate_arguments

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec


class SubmitAnswerArgs(Arguments):
    answer: str = Field(description="Your final answer, exactly as it should be scored (e.g. the option letter).")


QUESTION_TOOLS: dict[str, EpisodeTool] = tool_table(
    EpisodeTool(
        "submit_answer",
        "Question benchmarks: submit your answer; it is recorded as given and ends the episode.",
        SubmitAnswerArgs,
        read_only=False,
        effect=lambda arguments: Effect(ends="submitted", recorded={"answer": arguments["answer"]}),
    ),
)
"""The one tool of a question episode: the answer, recorded raw for the benchmark's scorer."""


QUESTION_STEPS = 3
"""A question episode's step limit: the answer, and two wrong calls before it to recover from (a tool it does not
have, a malformed answer). A player that answers at once — the question player, a baseline — takes one step."""
QA_AGENT_INSTRUCTIONS = """\
You are answering one question of a shopping question benchmark. There is no shop to browse and no tool but \
`submit_answer`: read the question, then call `submit_answer` with your final answer, written exactly as the \
question asks for it (e.g. the option letter). It records your answer as given and ends the episode.
"""
"""What an agent is told before its question (the question itself says how to answer)."""


class AnswerSheet:
    """Where a question episode's calls run: it checks the answer's form and acknowledges it (the episode records
    it and ends)."""

    def call(self, tool: str, arguments: Any) -> str:
        validate_arguments(tool, QUESTION_TOOLS[tool].arguments, arguments)
        return "Your answer has been recorded. The episode is over."


@register_suite(kind="qa")
class QASuite:
    """One question benchmark's items (bundled or from a file) served with one prompting protocol."""

    kind: Literal["agentic", "qa"] = "qa"
    max_steps: int | None = QUESTION_STEPS
    agent_instructions = QA_AGENT_INSTRUCTIONS
    prompts: dict[str, str] = {}
    tools = QUESTION_TOOLS
    takes_items = True
    world: SuiteWorld | None = None

    def __init__(self, benchmark: str, items: Path | str | None = None, prompting: str | None = None,
                 shots: int = 0, seed: int = 0) -> None:
        self.questions: QuestionBenchmark[Any] = question_benchmark(benchmark)
        self.benchmark = self.questions.name
        self.task_set = task_set_label(self.questions, items)
        self.prompting = prompting or self.questions.promptings[0]
        self.shots, self.seed = shots, seed
        loaded = self.questions.load(items)
        self.demonstrations: Demonstrations | None = self.questions.demonstrations(loaded, self.prompting, shots)
        """The items held out as demonstrations (never served), or None: the run's manifest records them."""
        held_out = set(self.demonstrations.ids) if self.demonstrations else set()
        pool = [item for item in loaded if self.questions.item_id(item) in held_out]
        self._items: dict[str, BaseModel] = {
            self.questions.item_id(item): item for item in loaded
            if self.questions.item_id(item) not in held_out and self.questions.runnable(item)
        }
        self._prompt = self.questions.prompter(pool, self.prompting, shots, seed)
        self._listings = [
            TaskListing(task_id=item_id, benchmark=self.benchmark, task_set=self.task_set,
                        intent=self.questions.task_of(item))
            for item_id, item in self._items.items()
        ]

    @classmethod
    def open(cls, spec: BenchmarkSpec, options: SuiteOptions) -> QASuite:
        """The benchmark's items (its bundled ones, or the --items file) with the chosen prompting (default: its
        first) and few-shot draws."""
        return cls(spec.name, options.items, options.prompting or spec.promptings[0], shots=options.shots,
                   seed=options.seed)

    def listings(self) -> list[TaskListing]:
        return list(self._listings)

    def instruction(self, task_id: str) -> str:
        return self._prompt(self._items[task_id]).text()

    def start_details(self, task_id: str) -> dict[str, Any]:
        """The question as the reference sent it: system and user turns, and its decoding (no answer)."""
        return {"question": self._prompt(self._items[task_id]).model_dump()}

    def open_sandbox(self) -> AnswerSheet:
        return AnswerSheet()

    def unavailable_reason(self) -> str | None:
        return None

    def manifest_parameters(self) -> dict[str, Any]:
        """How the questions are asked, and the items held out as demonstrations (which decide what is served)."""
        held_out = self.demonstrations
        shown = {} if held_out is None else {
            "demonstrations": {"rule": held_out.rule, "count": len(held_out.ids), "ids": held_out.ids}}
        return {"prompting": self.prompting, "shots": self.shots, "seed": self.seed, **shown}
