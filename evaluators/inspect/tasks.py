"""shopbench's benchmarks as Inspect AI tasks: `inspect eval shopbench/shoppingbench --model openai/gpt-4.1 -T
task_set=generated -T intent=voucher --limit 20`.

Found through the `inspect_ai` entry point (pyproject: `shopbench = "evaluators.inspect._registry"`). Every task
plays its samples through one in-process shopbench MCP server and records every episode in a shopbench run folder
(`-T runs=DIR`, default runs/inspect-<benchmark>-<time>), so `shopbench score DIR`, `report`, `replay` and `compare`
work on Inspect runs as on any other, and pass^k follows from `--epochs k`.

Tasks: shopbench/shoppingbench (world, task_set, intent, max_steps, runs, embedder), shopbench/intentionqa,
shopbench/shopping_mmlu, shopbench/session_intent (items, prompting, runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser

from evaluators.inspect.episodes import default_runs_dir, shared_server
from evaluators.inspect.scorers import qa_score, shoppingbench_score
from evaluators.inspect.solvers import answer_question, shopping_agent

NAMESPACE = "shopbench"


def _name(short: str) -> str:
    """The registered name. Inspect prefixes the top-level package of a module installed in site-packages itself
    (here that is "evaluators", see `_alias`); a module run from a checkout or an editable install is not prefixed,
    so the namespace is written here."""
    from inspect_ai._util.package import get_installed_package_name

    return short if get_installed_package_name(_name) is not None else f"{NAMESPACE}/{short}"


def _alias(function: Any, short: str) -> Any:
    """Make `shopbench/<short>` find the task when Inspect registered it under another package's namespace (a
    site-packages install names it "evaluators/<short>"). Inspect has no public call for a second name, so the entry
    goes into its registry table directly."""
    from inspect_ai._util import registry

    wanted = f"{NAMESPACE}/{short}"
    if registry.registry_info(function).name != wanted:
        registry._registry.setdefault(registry.registry_key("task", wanted), function)  # noqa: SLF001
    return function


def question_task(benchmark: str, items: str | None = None, prompting: str | None = None,
                  runs: str | None = None) -> Task:
    runs_dir = (Path(runs) if runs else default_runs_dir(benchmark)).resolve()
    items_path = None if items is None else str(Path(items).expanduser().resolve())
    server, suites = shared_server(benchmark, runs_dir, items=items_path, prompting=prompting)
    [suite] = suites
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


@task(name=_name("shoppingbench"))
def shoppingbench(
    world: str | None = None,
    task_set: str | None = None,
    intent: str | None = None,
    max_steps: int | None = None,
    runs: str | None = None,
    embedder: str | None = None,
) -> Task:
    """ShoppingBench: one sample per task of the world's task set (default: the default world's generated set);
    `intent` picks one intent or several (comma-separated)."""
    runs_dir = (Path(runs) if runs else default_runs_dir("shoppingbench")).resolve()  # Inspect may chdir
    world_dir = None if world is None else Path(world).expanduser().resolve()
    server, suites = shared_server("shoppingbench", runs_dir, world=world_dir, task_set=task_set, max_steps=max_steps)
    [suite] = suites
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
    world_obj = server.state.world
    return Task(
        dataset=MemoryDataset(samples, name=f"shoppingbench-{suite.task_set}"),
        solver=shopping_agent(server, suite),
        scorer=shoppingbench_score(world_obj, embedder),
        metadata={"shopbench_run_dir": str(runs_dir), "benchmark": "shoppingbench", "task_set": suite.task_set},
    )


@task(name=_name("intentionqa"))
def intentionqa(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """IntentionQA (bundled items, or an items file): accuracy per task, as shopbench scores it."""
    return question_task("intentionqa", items, prompting, runs)


@task(name=_name("shopping_mmlu"))
def shopping_mmlu(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """Shopping MMLU (bundled items, or an items file): each task type's reference metric."""
    return question_task("shopping-mmlu", items, prompting, runs)


@task(name=_name("session_intent"))
def session_intent(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """SessionIntentBench (bundled items, or an items file): accuracy and macro-F1 per task."""
    return question_task("session-intent", items, prompting, runs)


for _function, _short in ((shoppingbench, "shoppingbench"), (intentionqa, "intentionqa"),
                          (shopping_mmlu, "shopping_mmlu"), (session_intent, "session_intent")):
    _alias(_function, _short)
