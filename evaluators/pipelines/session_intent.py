"""SessionIntentBench intention trees with any chat model: `shopbench generate session-intent` (paper §4.1–4.3).

Per session: one A.1 attribute-extraction call per product, then the A.2 intention calls step by step (five
intentions per expanded node until the fifth product, one after), then task instances sampled from the finished tree
and, with a judge model, labelled by the judge answering the benchmark's own zero-shot prompt. Output folder:

    OUT/trees.jsonl   one IntentionTree per session (benchmarks.session_intent.trees)
    OUT/items.jsonl   GeneratedSessionItem lines: the benchmark's item schema + tree_nodes + gold_source

Both are appended as each session finishes, so a killed run resumes with the sessions not yet done; model answers are
cached, so even a session cut off half-way costs no repeated calls. At the end both files are rewritten compactly.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeGuard

from benchmarks.jsonl import read_models
from benchmarks.session_intent.parsers import NO_ANSWER, parse_direct
from benchmarks.session_intent.prompts import build_prompt
from benchmarks.session_intent.trees import (
    BrowsingSession,
    GeneratedSessionItem,
    IntentionNode,
    IntentionTree,
    TreeProduct,
    add_children,
    attribute_prompt,
    branching,
    choose_expanded,
    node_order,
    parse_attributes,
    parse_intentions,
    sample_items,
    step_prompt,
)
from evaluators.harness.backend import PreparedModel
from evaluators.pipelines._common import GenerationProgress, ModelSettings, bounded, complete, open_model
from evaluators.pipelines.journal import Journal, write_jsonl_atomic

TREES = "trees.jsonl"
ITEMS = "items.jsonl"
ATTEMPTS = 3
"""Asks per expansion before a node is kept with fewer intentions than the branching factor (and marked)."""


@dataclass
class SessionIntentBuild:
    out: Path
    sessions: int = 0
    resumed: int = 0
    nodes: int = 0
    items: int = 0
    judged: int = 0
    incomplete: list[str] = field(default_factory=list)
    model_counters: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Models:
    writer: PreparedModel
    settings: ModelSettings
    limit: asyncio.Semaphore
    judge: PreparedModel | None = None
    judge_settings: ModelSettings | None = None

    async def ask(self, prompt: str, attempt: int = 0, max_tokens: int | None = None) -> str:
        async with self.limit:
            return await complete(self.writer, prompt, self.settings, attempt=attempt, max_tokens=max_tokens)


async def build_tree(session: BrowsingSession, models: _Models, *, expand_limit: int | None = None,
                     seed: int = 0) -> IntentionTree:
    """Extract every product's attributes, then grow the intention tree step by step."""
    answers = await asyncio.gather(*(models.ask(attribute_prompt(p), max_tokens=200) for p in session.products))
    products = []
    for product, answer in zip(session.products, answers, strict=True):
        category, attributes = parse_attributes(answer)
        products.append(TreeProduct(title=product.title, category=category, attributes=attributes,
                                    metadata=dict(product.model_extra or {})))
    tree = IntentionTree(session_id=session.session_id, products=products)
    frontier: list[IntentionNode | None] = [None]
    for _step in range(1, len(products) + 1):
        grown = await asyncio.gather(*(_expand(tree, parent, models) for parent in frontier))
        children = [node for nodes in grown for node in nodes]
        if not children:
            break
        frontier = list(choose_expanded(children, expand_limit, seed, session.session_id))
    tree.nodes.sort(key=node_order)  # expansions finish in any order; the saved tree and samples must not show it
    tree.incomplete.sort()
    return tree


async def _expand(tree: IntentionTree, parent: IntentionNode | None, models: _Models) -> list[IntentionNode]:
    step = 1 if parent is None else parent.step + 1
    wanted = branching(step)
    prompt = step_prompt(tree, parent)
    best: list = []
    for attempt in range(ATTEMPTS):
        branches = parse_intentions(await models.ask(prompt, attempt=attempt, max_tokens=220 * wanted))
        if len(branches) > len(best):
            best = branches[:wanted]
        if len(best) == wanted:
            break
    if len(best) < wanted:
        tree.incomplete.append(parent.node_id if parent is not None else "<root>")
    return add_children(tree, parent, best)


def _is_gold_letter(letter: str) -> TypeGuard[Literal["A", "B", "C", "D"]]:
    return letter in ("A", "B", "C", "D")


async def judge_items(items: list[GeneratedSessionItem], models: _Models) -> int:
    """Fill each item's gold with the judge's answer to the benchmark's zero-shot prompt; returns how many."""
    assert models.judge is not None and models.judge_settings is not None
    judge, judge_settings = models.judge, models.judge_settings

    async def one(item: GeneratedSessionItem) -> bool:
        prompt = build_prompt(item, "zero-shot")
        async with models.limit:
            text = await complete(judge, prompt.user, judge_settings, max_tokens=prompt.max_tokens)
        letter = parse_direct(text, item.task)
        if letter == NO_ANSWER or not _is_gold_letter(letter):  # parse_direct gives an option letter or NO_ANSWER
            return False
        item.gold, item.gold_source, item.judge_model = letter, "judge", judge_settings.spec
        return True

    return sum(await asyncio.gather(*(one(item) for item in items)))


async def build_session_intent(sessions_path: Path, out: Path, settings: ModelSettings, *,
                               judge: ModelSettings | None = None, per_session: int = 4,
                               expand_limit: int | None = None, seed: int = 0, concurrency: int = 4,
                               resume: bool = True, progress: bool = True) -> SessionIntentBuild:
    """Trees and task instances for every session of the file (resuming from what `out` already holds)."""
    sessions = read_models(sessions_path, BrowsingSession)
    seen: set[str] = set()
    for session in sessions:
        if session.session_id in seen:
            raise ValueError(f"{sessions_path}: session id {session.session_id!r} occurs twice")
        seen.add(session.session_id)
    out = Path(out)
    report = SessionIntentBuild(out=out, sessions=len(sessions))
    trees = Journal(out / TREES, key="session_id", resume=resume)
    items = Journal(out / ITEMS, key="id", resume=resume)
    existing = _by_session(items)
    todo = [s for s in sessions if s.session_id not in trees.records or s.session_id not in existing
            or (judge is not None and any(r.get("gold") is None for r in existing[s.session_id]))]
    report.resumed = len(sessions) - len(todo)
    prepared = open_model(settings) if todo else None
    judge_prepared = open_model(judge) if judge is not None and todo else None
    try:
        if prepared is not None:
            models = _Models(prepared, settings, asyncio.Semaphore(max(1, concurrency)), judge_prepared, judge)
            with GenerationProgress(f"intention trees · {settings.spec}", len(sessions), report.resumed,
                                    enabled=progress) as bar:
                async def one(session: BrowsingSession) -> None:
                    if session.session_id in trees.records:
                        tree = IntentionTree.model_validate(trees.records[session.session_id])
                    else:
                        tree = await build_tree(session, models, expand_limit=expand_limit, seed=seed)
                        trees.append(tree)
                    sampled = sample_items(tree, per_session=per_session, seed=seed)
                    if judge_prepared is not None:
                        await judge_items(sampled, models)
                    for item in sampled:
                        items.append(item.model_dump(mode="json", exclude_none=False))
                    bar.advance(session.session_id)

                await bounded(todo, one, concurrency)
            report.model_counters = prepared.counters()
    finally:
        trees.close()
        items.close()
        for model in (prepared, judge_prepared):
            if model is not None:
                await model.aclose()
    order = [s.session_id for s in sessions]
    final_trees = [trees.records[sid] for sid in order if sid in trees.records]
    grouped = _by_session(items)
    final_items = [record for sid in order for record in grouped.get(sid, [])]
    write_jsonl_atomic(out / TREES, final_trees)
    write_jsonl_atomic(out / ITEMS, final_items)
    report.nodes = sum(len(t["nodes"]) for t in final_trees)
    report.items = len(final_items)
    report.judged = sum(r.get("gold_source") == "judge" for r in final_items)
    report.incomplete = [f"{t['session_id']}: {n}" for t in final_trees for n in t.get("incomplete", [])]
    return report


def _by_session(items: Journal) -> dict[str, list[dict[str, Any]]]:
    """The journal's item records grouped by session, in journal order (one pass, not one per session)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in items.records.values():
        grouped.setdefault(record["session_id"], []).append(record)
    return grouped


def load_generated_items(path: Path) -> list[GeneratedSessionItem]:
    return read_models(path, GeneratedSessionItem)
