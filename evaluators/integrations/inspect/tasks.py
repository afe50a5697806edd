"""shopbench's benchmarks as Inspect AI tasks: the Task builders, each a benchmark's `inspect_task` part
(evaluators.parts: ShoppingBench's for agentic benchmarks, `question_task` for question benchmarks). Inspect finds
them as `shopbench/<name>` through `shopbench/inspect_tasks.py` (pyproject entry point `inspect_ai: shopbench =
"shopbench.inspect_tasks"`), which makes one task per registered benchmark from these, its `-T` options the builder's
keyword parameters: `inspect eval shopbench/shoppingbench --model openai/gpt-4.1 -T task_set=generated -T
intent=voucher --limit 20`.

Every task plays its samples through one in-process shopbench MCP server and records every episode in a shopbench run
folder (`-T runs=DIR`, default runs/inspect-<benchmark>-<time>), so `shopbench score DIR`, `report`, `replay` and
`compare` work on Inspect runs as on any other, and pass^k follows from `--epochs k`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from benchmarks.registry import BenchmarkSpec
from evaluators.integrations.inspect.episodes import default_runs_dir, shared_environment
from evaluators.integrations.inspect.scorers import qa_score, shoppingbench_score
from evaluators.integrations.inspect.solvers import answer_question, shopping_agent
from mcp_server.users import conversation_options


def question_task(spec: BenchmarkSpec, items: str | None = None, prompting: str | None = None,
                  runs: str | None = None) -> Task:
    """A question benchmark (its bundled items, or an items file): one sample per item, scored as shopbench scores
    it."""
    benchmark = spec.name
    runs_dir = (Path(runs) if runs else default_runs_dir(benchmark)).resolve()
    items_path = None if items is None else str(Path(items).expanduser().resolve())
    environment = shared_environment(benchmark, runs_dir, items=items_path, prompting=prompting)
    server, [suite] = environment.server, environment.suites
    samples = []
    for listing in suite.listings():
        question: dict[str, Any] = suite.start_details(listing.task_id)["question"]
        messages: list[Any] = [ChatMessageSystem(content=question["system"])] if question.get("system") else []
        messages.append(ChatMessageUser(content=question["user"]))
        samples.append(Sample(input=messages, id=listing.task_id,
                              metadata={"task": listing.intent, "question": question}))
    chosen = getattr(suite, "prompting", prompting)
    return Task(
        dataset=MemoryDataset(samples, name=f"{benchmark}-{suite.task_set}"),
        solver=answer_question(server, suite),
        scorer=qa_score(benchmark, items_path, chosen),
        metadata={"shopbench_run_dir": str(runs_dir), "benchmark": benchmark, "prompting": chosen},
    )


def shoppingbench_task(
    spec: BenchmarkSpec,
    world: str | None = None,
    task_set: str | None = None,
    intent: str | None = None,
    max_steps: int | None = None,
    runs: str | None = None,
    embedder: str | None = None,
    user: str | None = None,
    stated: int | None = None,
) -> Task:
    """ShoppingBench: one sample per task of the world's task set (default: the default world's generated set);
    `intent` picks one intent or several (comma-separated); `user` (and `stated`: `-T user=rules -T stated=2`) plays
    it as a conversation, as `shopbench run --user`. Paths are made absolute first: Inspect may chdir."""
    runs_dir = (Path(runs) if runs else default_runs_dir(spec.name)).resolve()  # Inspect may chdir
    world_dir = None if world is None else Path(world).expanduser().resolve()
    environment = shared_environment(spec.name, runs_dir, world=world_dir, task_set=task_set, max_steps=max_steps,
                                     **conversation_options(user, None if stated is None else int(stated)))
    server, [suite] = environment.server, environment.suites
    reason = suite.unavailable_reason()
    if reason:
        raise ValueError(reason)
    intents = [part.strip() for part in intent.split(",")] if intent else None
    listings = [listing for listing in suite.listings() if not intents or listing.intent in intents]
    if not listings:
        known = sorted({str(listing.intent) for listing in suite.listings()})
        raise ValueError(f"no task with intent {intent!r} in {suite.task_set}; intents: {', '.join(known)}")
    samples = [
        Sample(input=suite.instruction(listing.task_id), id=listing.task_id,
               metadata={"intent": listing.intent, "task_set": listing.task_set})
        for listing in listings
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"{spec.name}-{suite.task_set}"),
        solver=shopping_agent(server, suite),
        scorer=shoppingbench_score(environment.world, embedder),
        metadata={"shopbench_run_dir": str(runs_dir), "benchmark": spec.name, "task_set": suite.task_set},
    )
