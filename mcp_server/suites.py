"""Task suites: what the server can start an episode on.

A suite is one benchmark's task set as the server sees it: a listing (ids, benchmark, intent — never answers) and
the instruction for each task. ShoppingBench suites are `agentic` (the six sandbox tools); the question benchmarks
are `qa` (one `submit_answer` call ends the episode). Adding a benchmark to the server means adding a suite.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel


class TaskListing(BaseModel):
    """One row of `list_tasks`. Holds nothing that could give away an answer."""

    task_id: str
    benchmark: str
    task_set: str
    intent: str | None = None
    """ShoppingBench intent, or the QA task name (e.g. "task1", "multiple-choice")."""


class TaskSuite(Protocol):
    """A set of tasks the MCP server can host."""

    benchmark: str
    task_set: str
    kind: Literal["agentic", "qa"]
    max_steps: int | None
    """The suite's own step limit (question suites: 1, the submit_answer call), or None for the server's."""

    def listings(self) -> list[TaskListing]:
        """Every task of the suite, in a stable order."""
        ...

    def instruction(self, task_id: str) -> str:
        """What the agent is told at `start_task` (raises KeyError for an unknown id)."""
        ...

    def start_details(self, task_id: str) -> dict[str, Any]:
        """Extra fields of the `start_task` result (question suites: the prompt as chat turns and the decoding the
        reference used). Never answers."""
        ...

    def unavailable_reason(self) -> str | None:
        """Why episodes cannot start on this suite right now (e.g. its world is not imported), or None."""
        ...
