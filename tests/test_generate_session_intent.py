"""SessionIntentBench intention trees end to end: `shopbench generate sessions` from a real world, then
`shopbench generate session-intent` against a scripted OpenAI-compatible model (the loopback fake of tests/_fake_llm.py
through the real openai backend): branch counts, items that point at their tree's nodes, judge labels, the cache and
resume after a crash."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.jsonl import read_jsonl, read_models
from benchmarks.session_intent import load_items
from benchmarks.session_intent.trees import (
    BrowsingSession,
    GeneratedSessionItem,
    IntentionTree,
    attribute_prompt,
    branching,
)
from shopbench.cli import app
from tests._fake_llm import FakeLLMServer

runner = CliRunner()


def _user(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def scripted_model(body: dict) -> tuple[str, list]:
    """Attributes for A.1 prompts, exactly the requested number of intentions for A.2 prompts, a letter for the
    benchmark's questions: each answer derived from the prompt, so reruns get the same text."""
    text = _user(body)
    tag = hashlib.sha256(text.encode()).hexdigest()[:6]
    if "extract the attribute type" in text:
        name = re.findall(r"Product Name: (.*)", text)[-1]  # the input, after the examples
        return f"Category: Goods\nAttributes: kind: {name.split()[0].lower()} | tag: {tag}", []
    if "Now generate exactly" in text:
        count = int(re.search(r"Now generate exactly (\d+)", text).group(1))
        new = re.findall(r"New Product: (.*)", text)[-1]
        blocks = [f"New Intention: intention {i} for {new[:30]} ({tag})\nAttribute: kind: {i}\n"
                  f"Rationale: use: reason {i}\nComparison: price: comparison {i} ({tag})" for i in range(1, count + 1)]
        return "\n\n".join(blocks), []
    return ("A" if len(text) % 2 else "C"), []


def _sessions(path: Path, lengths: dict[str, int]) -> Path:
    rows = [{"session_id": sid, "products": [{"title": f"Product {sid} {i}", "price": 10 * i} if i % 2 else
                                             f"Plain product {sid} {i}" for i in range(1, n + 1)]}
            for sid, n in lengths.items()]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _run(sessions: Path, out: Path, url: str, *extra: str):
    return runner.invoke(app, ["generate", "session-intent", "--sessions", str(sessions), "--model",
                               f"openai-compatible:{url}#writer", "--out", str(out), *extra])


def _check_branching(tree: IntentionTree, limit: int | None) -> None:
    depth = len(tree.products)
    assert len(tree.children(None)) == branching(1) == 5
    for step in range(1, depth):
        at_step = [n for n in tree.nodes if n.step == step]
        expanded = [n for n in at_step if tree.children(n.node_id)]
        assert len(expanded) == (len(at_step) if limit is None else min(limit, len(at_step)))
        for node in expanded:
            assert len(tree.children(node.node_id)) == branching(step + 1) == (5 if step + 1 < 5 else 1)
    assert not tree.incomplete


def _check_items(items: list[GeneratedSessionItem], trees: dict[str, IntentionTree]) -> None:
    for item in items:
        tree = trees[item.session_id]
        ids = {n.node_id for n in tree.nodes}
        assert set(item.tree_nodes) <= ids
        path = [tree.node(node_id) for node_id in item.tree_nodes]
        assert [n.step for n in path] == list(range(1, len(tree.products) + 1))
        assert all(child.parent_id == parent.node_id for parent, child in zip(path, path[1:], strict=False))
        for product, node in zip(item.products, path, strict=True):
            assert product.title == tree.products[node.step - 1].title
            assert product.intention == node.intention and product.valued_attribute == node.valued_attribute
            assert product.comparison == (node.comparison if node.step > 1 else None)


def test_trees_branch_five_ways_until_the_fifth_product_then_one(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    sessions = _sessions(tmp_path / "s.jsonl", {"long": 6, "short": 3})
    out = tmp_path / "out"
    with FakeLLMServer("openai", scripted_model) as fake:
        result = _run(sessions, out, fake.base_url, "--expand-per-step", "2", "--no-cache")
        assert result.exit_code == 0, result.output
    trees = {t.session_id: t for t in read_models(out / "trees.jsonl", IntentionTree)}
    assert set(trees) == {"long", "short"}
    _check_branching(trees["long"], 2)
    _check_branching(trees["short"], 2)
    assert [sum(n.step == s for n in trees["long"].nodes) for s in range(1, 7)] == [5, 10, 10, 10, 2, 2]
    assert trees["long"].products[1].attributes == {"kind": "plain", "tag": trees["long"].products[1].attributes["tag"]}
    assert trees["long"].products[0].metadata == {"price": 10}
    items = read_models(out / "items.jsonl", GeneratedSessionItem)
    assert len(items) == 8 and {i.task for i in items} == {1, 2, 3, 4}
    assert all(i.gold is None and i.gold_source is None for i in items)  # left for annotators
    _check_items(items, trees)


def test_full_tree_sessions_from_a_world_judge_labels_and_the_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    world = tmp_path / "w"
    assert runner.invoke(app, ["world", "generate", "--products", "300", "--tasks-per-intent", "2",
                               "--out", str(world)]).exit_code == 0
    sessions = tmp_path / "sessions.jsonl"
    made = runner.invoke(app, ["generate", "sessions", "--world", str(world), "--out", str(sessions),
                               "--count", "40", "--seed", "3"])
    assert made.exit_code == 0, made.output
    browsing = read_models(sessions, BrowsingSession)
    catalog_titles = {r["product"]["title"] for _, r in read_jsonl(world / "catalog.jsonl.gz")}
    assert len(browsing) == 40 and {len(s.products) for s in browsing} <= {3, 4, 5}
    assert all(p.title in catalog_titles for s in browsing for p in s.products)
    three = [s for s in browsing if len(s.products) == 3][:2]
    small = tmp_path / "three.jsonl"
    small.write_text("".join(s.model_dump_json() + "\n" for s in three))
    out = tmp_path / "out"
    with FakeLLMServer("openai", scripted_model) as fake:
        result = _run(small, out, fake.base_url, "--judge", f"openai-compatible:{fake.base_url}#judge")
        assert result.exit_code == 0, result.output
        first = len(fake.requests)
        # attributes once per product (a product in both sessions — resellers — may be answered from the cache when
        # the sessions do not ask at the same moment), the full tree of each session (1 + 5 + 25 expansions), 8 judge
        # calls
        distinct = len({attribute_prompt(p) for s in three for p in s.products})
        assert distinct + 2 * (1 + 5 + 25) + 8 <= first <= 2 * (3 + 1 + 5 + 25) + 8
        again = _run(small, tmp_path / "again", fake.base_url, "--judge", f"openai-compatible:{fake.base_url}#judge")
        assert again.exit_code == 0 and len(fake.requests) == first  # every answer came from the cache
    trees = {t.session_id: t for t in read_models(out / "trees.jsonl", IntentionTree)}
    for tree in trees.values():
        _check_branching(tree, None)
        assert [sum(n.step == s for n in tree.nodes) for s in (1, 2, 3)] == [5, 25, 125]
    items = read_models(out / "items.jsonl", GeneratedSessionItem)
    _check_items(items, trees)
    assert all(i.gold in ("A", "C") and i.gold_source == "judge" and i.judge_model.endswith("#judge") for i in items)
    assert (out / "items.jsonl").read_bytes() == (tmp_path / "again" / "items.jsonl").read_bytes()
    assert len(load_items(out / "items.jsonl")) == len(items)  # the benchmark's own loader takes judged items
    run = runner.invoke(app, ["run", "session-intent", "--items", str(out / "items.jsonl"), "--model", "random",
                              "--out", str(tmp_path / "run")])
    assert run.exit_code == 0, run.output


def test_a_crashed_build_resumes_with_the_unfinished_sessions(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    sessions = _sessions(tmp_path / "s.jsonl", {"a": 3, "b": 3, "c": 3})
    reference = tmp_path / "reference"
    with FakeLLMServer("openai", scripted_model) as fake:
        assert _run(sessions, reference, fake.base_url, "--no-cache", "--expand-per-step", "1").exit_code == 0
        per_session = len(fake.requests) // 3
    out = tmp_path / "out"
    with FakeLLMServer("openai", scripted_model, script=[None] * (per_session + 2) + [400]) as fake:
        crashed = _run(sessions, out, fake.base_url, "--no-cache", "--expand-per-step", "1", "--concurrency", "1")
    assert crashed.exit_code == 2 and "run the same command again" in " ".join(crashed.output.split())
    done = [r["session_id"] for _, r in read_jsonl(out / "trees.jsonl")]
    assert len(done) == 1
    with FakeLLMServer("openai", scripted_model) as fake:
        resumed = _run(sessions, out, fake.base_url, "--no-cache", "--expand-per-step", "1")
        assert resumed.exit_code == 0, resumed.output
        assert len(fake.requests) == 2 * per_session  # the finished session was not asked again
    assert "1 resumed" in " ".join(resumed.output.split())
    assert (out / "trees.jsonl").read_bytes() == (reference / "trees.jsonl").read_bytes()
    assert (out / "items.jsonl").read_bytes() == (reference / "items.jsonl").read_bytes()


def test_a_bad_session_line_is_named(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"session_id": "x", "products": ["a", "b"]}\n{"session_id": "y", "products": ["only one"]}\n')
    result = runner.invoke(app, ["generate", "session-intent", "--sessions", str(path), "--model", "openai:gpt-4.1",
                                 "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and f"{path}:2" in "".join(result.output.split())
