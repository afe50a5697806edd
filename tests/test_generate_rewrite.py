"""Stage III query writing end to end: `shopbench world generate --writer-model` against a scripted OpenAI-compatible
model (the loopback fake of tests/_fake_llm.py, reached through the real openai backend), then resume after a crash."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.tasks import load_task_set
from benchmarks.shoppingbench.worldgen.rewrite import check_rewrite
from shopbench.cli import app
from tests._fake_llm import FakeLLMServer

runner = CliRunner()
REQUEST = re.compile(r"Request: (.*?)\n(?:These values|Rewritten request:)", re.DOTALL)


def _request_of(body: dict) -> str:
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    return REQUEST.search(user).group(1)


def writer_policy(body: dict) -> tuple[str, list]:
    """Every third request loses its numbers and names (a bad rewrite); the others keep the request's words."""
    request = _request_of(body)
    if len(request) % 3 == 0:
        return "Rewritten request: " + re.sub(r"\b[A-Z]\w+|\d", "", request), []
    return f'"Hello there. {request.rstrip(".")}, thanks!"', []


def _numbers(text: str) -> set[float]:
    text = re.sub(r"\(\d\)", " ", text)
    return {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def _values(task) -> list[str]:
    found = []
    for target in task.targets:
        for option in target.sku_options or []:
            found += list(option.values())
        for attribute in target.attributes or []:
            found += [v for values in attribute.values() for v in values]
    return found


def _generate(out: Path, base_url: str, *extra: str):
    return runner.invoke(app, ["world", "generate", "--products", "300", "--tasks-per-intent", "4", "--out", str(out),
                               "--writer-model", f"openai-compatible:{base_url}#writer", *extra])


def test_rewritten_queries_keep_every_constraint_value(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    world = tmp_path / "w"
    with FakeLLMServer("openai", writer_policy) as fake:
        result = _generate(world, fake.base_url, "--no-cache")
        assert result.exit_code == 0, result.output
        asked = len(fake.requests)
    folder = world / "tasks" / "generated"
    log = {r["task_id"]: r for _, r in read_jsonl(folder / "rewrites.jsonl")}
    tasks = {t.task_id: t for t in load_task_set(folder, "generated")}
    assert asked == len(tasks) == len(log) == 16
    accepted = [log[k] for k in log if log[k]["rewritten"]]
    rejected = [log[k] for k in log if not log[k]["rewritten"]]
    assert accepted and rejected, "the scripted writer gives both good and bad rewrites"
    for task_id, entry in log.items():
        task = tasks[task_id]
        assert task.query == entry["query"]
        template_request = entry["template"].split("\n\n", 1)[0]
        if entry["rewritten"]:
            # the polite rewrite, or a mangled one (capitalised words and digits dropped) that lost nothing stated
            assert task.query != entry["template"]
            assert _numbers(template_request) <= _numbers(task.query), task_id
            for value in _values(task):
                if value.lower() in entry["template"].lower():
                    assert value.lower() in task.query.lower(), (task_id, value)
            assert entry["template"].split("\n\n", 1)[1:] == task.query.split("\n\n", 1)[1:]  # voucher rules kept
            assert all(t.product_id not in task.query for t in task.targets)
        else:
            assert task.query == entry["template"] and entry["reason"]
            lost_numbers = not _numbers(template_request) <= _numbers(entry["model_output"])
            lost_names = task.intent == "web"
            assert lost_numbers or lost_names or "equals" in entry["reason"], entry
    info = runner.invoke(app, ["world", "info", str(world)])
    assert f"{len(accepted)} of 16 instructions" in info.output


def test_a_bad_rewrite_is_refused_and_names_what_it_lost(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeLLMServer("openai", writer_policy) as fake:
        assert _generate(tmp_path / "w", fake.base_url, "--no-cache").exit_code == 0
    task = next(t for t in load_task_set(tmp_path / "w" / "tasks" / "generated", "generated")
                if t.intent == "product" and re.search(r"\d", t.query))
    log = {r["task_id"]: r for _, r in read_jsonl(tmp_path / "w" / "tasks" / "generated" / "rewrites.jsonl")}
    template = log[task.task_id]["template"]
    number = re.search(r"\d+", template).group(0)
    check = check_rewrite(task, template, template.replace(number, str(int(number) + 1)))
    assert not check.accepted and check.query == template and any(number in m for m in check.missing)
    leak = check_rewrite(task, template, f"{template} (item {task.targets[0].product_id})")
    assert not leak.accepted and leak.leaked == [task.targets[0].product_id]


def test_a_killed_rewrite_resumes_with_the_tasks_not_yet_asked(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    world = tmp_path / "w"
    with FakeLLMServer("openai", writer_policy, script=[None] * 5 + [400]) as fake:
        crashed = _generate(world, fake.base_url, "--no-cache", "--concurrency", "1")
    assert crashed.exit_code != 0
    folder = world / "tasks" / "generated"
    assert len(list(read_jsonl(folder / "rewrites.jsonl"))) == 5
    templates = {t.task_id: t.query for t in load_task_set(folder, "generated")}
    assert all(not q.startswith("Hello there.") for q in templates.values())  # task files untouched by the crash
    with FakeLLMServer("openai", writer_policy) as fake:
        result = runner.invoke(app, ["world", "rewrite", str(world), "--writer-model",
                                     f"openai-compatible:{fake.base_url}#writer", "--no-cache"])
        assert result.exit_code == 0, result.output
        assert len(fake.requests) == 16 - 5
        assert "(5 resumed)" in result.output.replace("\n", " ")
        again = runner.invoke(app, ["world", "rewrite", str(world), "--writer-model",
                                    f"openai-compatible:{fake.base_url}#writer", "--no-cache"])
        assert again.exit_code == 0 and len(fake.requests) == 11  # a finished set asks nothing more
    rows = [r for _, r in read_jsonl(folder / "rewrites.jsonl")]
    assert {r["task_id"] for r in rows} == set(templates)
    for task in load_task_set(folder, "generated"):
        latest = [r for r in rows if r["task_id"] == task.task_id][-1]
        assert latest["template"] == templates[task.task_id] and task.query == latest["query"]
    assert json.loads((world / "world.json").read_text())["products"] == 300


def test_a_baseline_is_no_writer(tmp_path):
    result = runner.invoke(app, ["world", "generate", "--products", "300", "--out", str(tmp_path / "w"),
                                 "--writer-model", "random"])
    assert result.exit_code != 0 and "names no text model" in result.output
    assert not (tmp_path / "w").exists()
