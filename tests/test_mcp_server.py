"""The MCP server with the official client: in memory, over stdio (`shopbench serve`) and over streamable HTTP
(`shopbench serve --transport http --token`), on the default world with real Pyserini."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters

from mcp_server.http_launch import ServerDidNotStart, free_port, wait_until_listening
from mcp_server.protocol import (
    META_AGENT,
    META_EPISODE_ID,
    META_EPOCH,
    META_THOUGHT,
    META_USAGE,
    TASKS_URI,
    TOOLS_URI,
)
from mcp_server.server import build_server
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.world import GENERATED_SET
from mcp_server.trajectory import episode_path, iter_episode_files, json_schema, read_manifest, read_trajectory
from mcp_server.transports import http_app

SANDBOX_TOOLS = {"find_product", "view_product_information", "calculate", "web_search", "recommend_product",
                 "terminate"}
ALL_TOOLS = SANDBOX_TOOLS | {"list_tasks", "start_task", "submit_answer"}


@pytest.fixture(scope="module")
def suite(default_world) -> ShoppingSuite:
    return ShoppingSuite(default_world, GENERATED_SET)


@pytest.fixture
def server(default_world, suite, tmp_path: Path):
    return build_server(default_world, [suite, ShoppingSuite(default_world, "official")], tmp_path / "runs")


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


async def ok(client: Client, tool: str, arguments: dict, **kwargs: Any) -> Any:
    result = await client.call_tool(tool, arguments, **kwargs)
    assert not result.is_error, text_of(result)
    return json.loads(text_of(result)) if text_of(result)[:1] in "[{" else text_of(result)


async def play_full_episode(client: Client, task_id: str, *, recommend_suffix: str = "") -> str:
    """start_task → find_product with filters, sort and paging → view → calculate → recommend → terminate."""
    started = await ok(client, "start_task", {"task_id": task_id, "task_set": GENERATED_SET})
    assert started["instruction"] and started["max_steps"] >= 6
    filtered = await ok(client, "find_product", {"q": "shirt", "page": 1, "price": "1-", "sort": "priceasc",
                                                 "service": "default"})
    assert filtered and [p["price"] for p in filtered] == sorted(p["price"] for p in filtered)
    page2 = await ok(client, "find_product", {"q": "shirt", "page": 2})
    first, second = filtered[0]["product_id"], page2[0]["product_id"]
    viewed = await ok(client, "view_product_information", {"product_ids": f"{first},{second}"})
    assert {v["product_id"] for v in viewed} == {first, second}
    cart = await ok(client, "calculate", {"product_ids": f"{first},{second}", "voucher_type": "platform",
                                          "threshold": 1, "discount_type": "fixed", "face_value": 1})
    assert cart["voucher_applies"] is True
    await ok(client, "recommend_product", {"product_ids": first + recommend_suffix})
    await ok(client, "terminate", {"status": "success"})
    return started["episode_id"]


def assert_valid_trajectory(path: Path) -> None:
    """Every line validates against the exported JSON Schema (jsonschema) and the pydantic reader."""
    trajectory = read_trajectory(path)
    assert trajectory.finished
    try:
        import jsonschema
    except ImportError:  # the pydantic reader above is the check
        return
    validator = jsonschema.Draft202012Validator(json_schema()["episode_event"])
    for line in path.read_text(encoding="utf-8").splitlines():
        validator.validate(json.loads(line))


def first_task(suite: ShoppingSuite, intent: str = "product") -> str:
    return next(listing.task_id for listing in suite.listings() if listing.intent == intent)


# ---- in memory ----------------------------------------------------------------------------------------------------


async def test_tool_list_resources_and_prompt(server) -> None:
    async with Client(server, mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == ALL_TOOLS
        assert tools["find_product"].input_schema["required"] == ["q", "page"]
        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        assert resources == {TASKS_URI, TOOLS_URI}
        docs = (await client.read_resource(TOOLS_URI)).contents[0].text
        assert all(name in docs for name in ALL_TOOLS)
        assert all(key in docs for key in (META_THOUGHT, META_USAGE, META_EPISODE_ID, META_EPOCH, META_AGENT))
        prompt = await client.get_prompt("shopping_agent")
        assert "recommend_product" in prompt.messages[0].content.text


async def test_full_episode_in_memory_with_meta(server, suite, tmp_path: Path) -> None:
    async with Client(server, mode="legacy") as client:
        meta = {META_EPISODE_ID: "mine-1", META_EPOCH: 2,
                META_AGENT: {"kind": "model", "name": "openai:gpt-test", "details": {"temperature": 0}}}
        started = await ok(client, "start_task", {"task_id": first_task(suite), "task_set": GENERATED_SET},
                           meta=meta)
        assert started["episode_id"] == "mine-1"
        step_meta = {META_THOUGHT: "look for shirts", META_USAGE: {"input_tokens": 12, "output_tokens": 4}}
        await ok(client, "find_product", {"q": "shirt", "page": 1}, meta=step_meta)
        await ok(client, "terminate", {"status": "failure"})
    trajectory = read_trajectory(episode_path(tmp_path / "runs", "mine-1"))
    assert trajectory.start.epoch == 2 and trajectory.start.agent.name == "openai:gpt-test"
    assert trajectory.start.world.startswith(f"{server.state.world.info.name}@")
    assert trajectory.steps[0].thought == "look for shirts" and trajectory.steps[0].usage.input_tokens == 12
    assert trajectory.end.status == "terminated" and trajectory.end.recommended is None

    async with Client(server, mode="legacy") as client:
        episode_id = await play_full_episode(client, first_task(suite, "voucher"))
    path = episode_path(tmp_path / "runs", episode_id)
    assert_valid_trajectory(path)
    trajectory = read_trajectory(path)
    assert [s.tool for s in trajectory.steps] == ["find_product", "find_product", "view_product_information",
                                                  "calculate", "recommend_product", "terminate"]
    assert trajectory.start.agent.kind == "mcp-client" and trajectory.start.agent.name == "mcp"
    assert read_manifest(tmp_path / "runs").benchmark == "shoppingbench"


async def test_two_clients_are_isolated(server, suite, tmp_path: Path) -> None:
    tasks = [listing.task_id for listing in suite.listings()[:2]]
    episode_ids: dict[str, str] = {}

    async def play(name: str, task_id: str) -> None:
        async with Client(server, mode="legacy") as client:
            episode_ids[name] = await play_full_episode(client, task_id, recommend_suffix=f",{name}")

    async with anyio.create_task_group() as group:
        group.start_soon(play, "alice", tasks[0])
        group.start_soon(play, "bob", tasks[1])
    for name, task_id in zip(("alice", "bob"), tasks, strict=True):
        trajectory = read_trajectory(episode_path(tmp_path / "runs", episode_ids[name]))
        assert trajectory.start.task_id == task_id and len(trajectory.steps) == 6
        assert trajectory.end.recommended.endswith(f",{name}")

    async with Client(server, mode="legacy") as busy, Client(server, mode="legacy") as idle:
        await ok(busy, "start_task", {"task_id": tasks[0], "task_set": GENERATED_SET})
        result = await idle.call_tool("find_product", {"q": "shirt", "page": 1})
        assert result.is_error and "no task is running" in text_of(result)


async def test_malformed_calls_are_answered_with_errors(server, suite) -> None:
    async with Client(server, mode="legacy") as client:
        for tool, arguments, complaint in [
            ("start_task", {"task_id": "product-x"}, "no task 'product-x'"),
            ("start_task", {"task_id": first_task(suite), "benchmark": "nope"}, "no benchmark 'nope'"),
            ("start_task", {"task_id": first_task(suite)}, "several"),  # default and official share ids
            ("find_product", {"q": "shirt", "page": 1}, "no task is running"),
            ("teleport", {}, "unknown tool 'teleport'"),
        ]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error and complaint in text_of(result), (tool, text_of(result))
        await ok(client, "start_task", {"task_id": first_task(suite), "task_set": GENERATED_SET},
                 meta={META_EPISODE_ID: "bad-calls"})
        for tool, arguments, complaint in [
            ("find_product", {"q": "shirt", "page": 9}, "page must be 1 to 5"),
            ("find_product", {"q": "shirt", "page": "x"}, "page"),
            ("find_product", {"q": "shirt", "page": 1, "price": "abc"}, "price must look like"),
            ("find_product", {"q": "", "page": 1}, "q is empty"),
            ("view_product_information", {"product_ids": "no-such-id"}, "no product has the id"),
            ("calculate", {"expression": "__import__('os')"}, "not allowed"),
            ("terminate", {"status": "maybe"}, "status"),
            ("teleport", {}, "unknown tool 'teleport'"),
            ("submit_answer", {"answer": "A"}, "not available in this episode"),
        ]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error and complaint in text_of(result), (tool, text_of(result))
        assert not (await client.call_tool("calculate", {"expression": "1+1"})).is_error  # the server lives on


async def test_modern_stateless_clients_are_told_how_to_connect(server, suite) -> None:
    async with Client(server) as client:  # auto: the 2026-07-28 protocol, no session
        assert (await client.list_tools()).tools
        result = await client.call_tool("start_task", {"task_id": first_task(suite), "task_set": GENERATED_SET})
        assert result.is_error and 'mode="legacy"' in text_of(result)


def secrets_of(task: Any) -> tuple[list[str], list[str]]:
    """(answers, titles) of a task: target ids, voucher price after voucher, knowledge attribute; target titles."""
    answers = [t.product_id for t in task.targets]
    if task.voucher is not None and task.voucher.price_after_voucher is not None:
        answers += [f"{task.voucher.price_after_voucher:g}", f"{task.voucher.price_after_voucher:.2f}"]
    if task.knowledge_attribute:
        answers.append(task.knowledge_attribute)
    return answers, [title for t in task.targets for title in t.title]


def leaked(text: str, secrets: list[str]) -> list[str]:
    """Secrets found in text as whole tokens (so the answer "42" is not found inside "voucher-0042")."""
    candidates = [str(s).lower() for s in secrets if str(s).lower() in text]  # plain search first: fast
    return [s for s in candidates if re.search(rf"(?<![\w.-]){re.escape(s)}(?![\w-]|\.\d)", text)]


async def test_no_target_or_answer_reaches_the_agent(server, default_world) -> None:
    """Over every task of the generated set (and the official set's listings): list_tasks, start_task, resources,
    prompts and error texts hold no target id, target title, price after voucher or knowledge answer. The
    instruction itself may describe the wanted product (that is the task) but never names an answer."""
    generated, official = default_world.tasks(GENERATED_SET), default_world.tasks("official")
    shared: list[str] = []
    async with Client(server, mode="legacy") as client:
        shared.append(text_of(await client.call_tool("list_tasks", {})))
        shared.append((await client.read_resource(TASKS_URI)).contents[0].text)
        shared.append((await client.read_resource(TOOLS_URI)).contents[0].text)
        shared.append((await client.get_prompt("shopping_agent")).messages[0].content.text)
        for task in official[:: len(official) // 20]:
            refused = await client.call_tool("start_task", {"task_id": task.task_id, "task_set": "official"})
            assert refused.is_error and "shopbench world import" in text_of(refused)
            shared.append(text_of(refused))
        shared.append(text_of(await client.call_tool("start_task", {"task_id": "nope", "task_set": GENERATED_SET})))

    async def start_each(tasks: list[Any]) -> None:  # several clients at once: starting episodes waits on fsync
        async with Client(server, mode="legacy") as client:
            for task in tasks:
                started = json.loads(text_of(await ok_result(client, task.task_id)))
                assert started["instruction"] == task.query
                answers, titles = secrets_of(task)
                assert not leaked(started["instruction"].lower(), answers), task.task_id
                rest = json.dumps({k: v for k, v in started.items() if k != "instruction"}).lower()
                assert not leaked(rest, answers + titles), task.task_id
                if task.intent != generated[0].intent:
                    continue
                for call in ({"q": "", "page": 1}, {"q": "x", "page": 7}, {"product_ids": "x"}):
                    name = "view_product_information" if "product_ids" in call else "find_product"
                    shared.append(text_of(await client.call_tool(name, call)))

    async with anyio.create_task_group() as group:
        for part in range(4):
            group.start_soon(start_each, generated[part::4])
    static = "\n".join(shared[2:4]).lower()  # documentation: its example numbers are not anyone's answer
    text = "\n".join(shared[:2] + shared[4:]).lower()
    everything = text + static
    for task in [*generated, *official]:
        answers, titles = secrets_of(task)
        assert not [title for title in titles if title.lower() in everything], task.task_id
        numbers = [a for a in answers if re.fullmatch(r"[\d.]+", a) and len(a) < 8]
        assert not leaked(text, answers) and not leaked(static, [a for a in answers if a not in numbers]), task.task_id


async def ok_result(client: Client, task_id: str) -> Any:
    result = await client.call_tool("start_task", {"task_id": task_id, "task_set": GENERATED_SET})
    assert not result.is_error, text_of(result)
    return result


# ---- stdio: `shopbench serve` as a subprocess ---------------------------------------------------------------------


async def test_stdio_serve_full_episode(suite, tmp_path: Path) -> None:
    runs = tmp_path / "stdio-runs"
    params = StdioServerParameters(command=sys.executable, args=["-m", "shopbench.cli", "serve", "--runs", str(runs)],
                                   env=dict(os.environ))
    async with Client(params, read_timeout_seconds=300) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == ALL_TOOLS
        listed = await ok(client, "list_tasks", {"benchmark": "shoppingbench", "limit": 500})
        assert [t["task_id"] for t in listed["tasks"]] == [listing.task_id for listing in suite.listings()]
        assert listed["total"] == len(suite.listings())
        episode_id = await play_full_episode(client, first_task(suite, "shop"))
    assert_valid_trajectory(episode_path(runs, episode_id))


# ---- streamable HTTP: `shopbench serve --transport http --token` --------------------------------------------------


@pytest.fixture
def http_server(tmp_path: Path):
    port, token, runs = free_port(), "s3cret", tmp_path / "http-runs"
    process = subprocess.Popen(
        [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--port", str(port),
         "--token", token, "--runs", str(runs)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        wait_until_listening(process, port)
    except ServerDidNotStart as error:
        process.kill()
        pytest.fail(f"{error}: {process.stderr.read()}")
    yield f"http://127.0.0.1:{port}/mcp", token, runs, process
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def http_client(url: str, token: str) -> Client:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=60)))


async def test_http_token_concurrent_clients_and_shutdown(http_server, suite) -> None:
    url, token, runs, process = http_server
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as raw:
        assert (await raw.post(url, json=body, headers=headers)).status_code == 401
        wrong = await raw.post(url, json=body, headers=headers | {"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
    async with http_client(url, token) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == ALL_TOOLS

    tasks = [listing.task_id for listing in suite.listings()[-2:]]
    episode_ids: dict[str, str] = {}

    async def play(name: str, task_id: str) -> None:
        async with http_client(url, token) as client:
            episode_ids[name] = await play_full_episode(client, task_id, recommend_suffix=f",{name}")

    async with anyio.create_task_group() as group:
        group.start_soon(play, "alice", tasks[0])
        group.start_soon(play, "bob", tasks[1])
    for name, task_id in zip(("alice", "bob"), tasks, strict=True):
        path = episode_path(runs, episode_ids[name])
        assert_valid_trajectory(path)
        trajectory = read_trajectory(path)
        assert trajectory.start.task_id == task_id and trajectory.end.recommended.endswith(f",{name}")

    async with http_client(url, token) as client:  # left running: ended when the client goes or the server stops
        await ok(client, "start_task", {"task_id": tasks[0], "task_set": GENERATED_SET},
                 meta={META_EPISODE_ID: "left-open"})
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    assert read_trajectory(episode_path(runs, "left-open")).end.status == "abandoned"
    assert len(iter_episode_files(runs)) == 3


def test_http_beyond_loopback_needs_a_token(server) -> None:
    from typer.testing import CliRunner

    from shopbench.cli import app

    with pytest.raises(ValueError, match="--token"):
        http_app(server, host="0.0.0.0")
    assert http_app(server, host="0.0.0.0", token="t") is not None
    result = CliRunner().invoke(app, ["serve", "--transport", "http", "--host", "0.0.0.0"])
    assert result.exit_code != 0 and "--token" in result.output


async def test_demo_plays_one_task_over_stdio(suite, tmp_path: Path) -> None:
    from shopbench.commands.demo import run_demo

    path = await run_demo(tmp_path / "demo")
    trajectory = read_trajectory(path)
    assert trajectory.start.task_id == first_task(suite)
    assert [s.tool for s in trajectory.steps] == ["find_product", "view_product_information", "recommend_product",
                                                  "terminate"]
    assert trajectory.end.recommended == trajectory.steps[0].observation[0]["product_id"]
