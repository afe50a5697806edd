"""The MCP server's contract with the official client (in memory, mode="legacy"): typed tools, structured results
with the episode status, paging, identity arguments, no takeover, no pydantic wording, the trajectory resource, the
no-episode hint, argument bounds, and a slow call in one session that does not hold another's."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from mcp_server.episode_client import EpisodeClient, read_reply
from mcp_server.protocol import EPISODE_URI, MAX_EPOCHS, META_EPOCH, RECORD_MALFORMED_TOOL, TASKS_URI
from mcp_server.server import build_server
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.world import GENERATED_SET
from mcp_server.task_tools import DEFAULT_PAGE_SIZE
from mcp_server.trajectory import episode_path, read_trajectory
from mcp_server.transports import http_app
from tests._fake_serper import SlowSerper

PYDANTIC_WORDING = ("validation error for", "errors.pydantic.dev", "Arguments", "pydantic")


@pytest.fixture(scope="module")
def suite(default_world) -> ShoppingSuite:
    return ShoppingSuite(default_world, GENERATED_SET)


@pytest.fixture
def server(default_world, suite, tmp_path: Path):
    return build_server(default_world, [suite], tmp_path / "runs")


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


def task_ids(suite: ShoppingSuite, n: int = 3) -> list[str]:
    return [listing.task_id for listing in suite.listings()[:n]]


def enums_in(schema: Any) -> list[list[Any]]:
    """Every enum anywhere in a JSON Schema fragment."""
    if isinstance(schema, dict):
        found = [schema["enum"]] if "enum" in schema else []
        return found + [enum for value in schema.values() for enum in enums_in(value)]
    if isinstance(schema, list):
        return [enum for value in schema for enum in enums_in(value)]
    return []


# ---- typed schemas -------------------------------------------------------------------------------------------------


async def test_every_tool_has_described_parameters_enums_and_an_output_schema(server) -> None:
    async with Client(server, mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    assert RECORD_MALFORMED_TOOL not in tools and EPISODE_URI in templates
    for name, tool in tools.items():
        assert tool.description, name
        properties = tool.input_schema["properties"]
        assert properties, name
        for param, schema in properties.items():
            assert schema.get("description"), f"{name}.{param} has no description"
        assert tool.output_schema and tool.output_schema.get("type") == "object", name
    assert set(tools["list_tasks"].input_schema["properties"]) == {"benchmark", "intent", "limit", "offset"}
    assert {"episode_id", "epoch", "agent_name", "agent_kind"} <= set(tools["start_task"].input_schema["properties"])
    assert ["priceasc", "pricedesc", "order", "default"] in enums_in(tools["find_product"].input_schema)
    assert ["success", "failure"] in enums_in(tools["terminate"].input_schema)
    assert ["model", "human", "mcp-client", "baseline"] in enums_in(tools["start_task"].input_schema)
    assert tools["find_product"].input_schema["properties"]["q"]["maxLength"] == 1000
    for name in ("find_product", "calculate", "terminate", "submit_answer"):
        assert set(tools[name].output_schema["required"]) == {"result", "episode"}, name
    assert {"tasks", "total", "offset", "limit"} <= set(tools["list_tasks"].output_schema["properties"])
    assert "episode" in tools["start_task"].output_schema["properties"]


async def test_results_carry_structured_content_that_the_client_validates(server, suite) -> None:
    """The official client checks every non-error result against the tool's output schema (it raises otherwise)."""
    async with Client(server, mode="legacy") as client:
        episode = EpisodeClient(client)
        started = await episode.start(task_ids(suite)[0], task_set=GENERATED_SET)
        assert started.episode.state == "running" and started.episode.steps_left == started.max_steps
        hits = await episode.call("find_product", {"q": "shirt", "page": 1, "sort": "pricedesc"})
        assert hits.observation and hits.status.steps_used == 1
        first = hits.observation[0]["product_id"]
        assert (await episode.call("view_product_information", {"product_ids": first})).observation[0]["title"]
        assert (await episode.call("calculate", {"expression": "2 * 21"})).observation == 42
        cart = await episode.call("calculate", {"product_ids": first, "voucher_type": "platform", "threshold": 1,
                                                "discount_type": "percentage", "discount": 0.1, "cap": 5})
        assert cart.observation["voucher_applies"] is True
        assert (await episode.call("web_search", {"q": "university", "max_results": 2})).observation
        bad = await episode.call("find_product", {"q": "shirt", "page": 9})
        assert bad.is_error and bad.status.steps_used == 6  # recorded as a step
        await episode.call("recommend_product", {"product_ids": first})
        done = await episode.call("terminate", {"status": "success"})
        assert done.ended and done.status.end_reason == "terminated" and done.status.steps_left == 0
        after = await episode.call("calculate", {"expression": "1"})
        assert after.is_error and after.status.state == "ended"
    assert episode.status is not None and episode.over


# ---- list_tasks ----------------------------------------------------------------------------------------------------


async def test_list_tasks_pages_and_filters(server, suite) -> None:
    everything = [listing.task_id for listing in suite.listings()]
    intents = list(dict.fromkeys(str(listing.intent) for listing in suite.listings()))
    async with Client(server, mode="legacy") as client:
        first = read_reply(await client.call_tool("list_tasks", {})).observation
        assert first["total"] == len(everything) > DEFAULT_PAGE_SIZE
        assert [t["task_id"] for t in first["tasks"]] == everything[:DEFAULT_PAGE_SIZE]
        second = read_reply(await client.call_tool("list_tasks", {"offset": 20, "limit": 5})).observation
        assert [t["task_id"] for t in second["tasks"]] == everything[20:25] and second["offset"] == 20
        page = read_reply(await client.call_tool("list_tasks", {"intent": intents[1], "limit": 500})).observation
        assert page["total"] == sum(1 for listing in suite.listings() if listing.intent == intents[1])
        assert {t["intent"] for t in page["tasks"]} == {intents[1]} and len(page["tasks"]) == page["total"]
        unknown = await client.call_tool("list_tasks", {"intent": "teleport"})
        assert unknown.is_error and intents[0] in text_of(unknown)
        paged = await EpisodeClient(client).list_tasks()
        assert [t["task_id"] for t in paged] == everything
        full = json.loads((await client.read_resource(TASKS_URI)).contents[0].text)
        assert sum(len(s["tasks"]) for s in full["suites"]) == len(everything)


# ---- identity, takeover, the trajectory resource --------------------------------------------------------------------


async def test_identity_arguments_and_server_defaults(default_world, suite, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    server = build_server(default_world, [suite], runs, agent_defaults={"kind": "model", "name": "served-model"})
    async with Client(server, mode="legacy") as client:
        await client.call_tool("start_task", {"task_id": task_ids(suite)[0], "episode_id": "inspect-1", "epoch": 1,
                                              "agent_name": "openai/gpt-4o", "agent_kind": "model"})
        await client.call_tool("start_task", {"task_id": task_ids(suite)[1], "episode_id": "plain-1"})
    first = read_trajectory(episode_path(runs, "inspect-1")).start
    assert (first.epoch, first.agent.kind, first.agent.name) == (1, "model", "openai/gpt-4o")
    second = read_trajectory(episode_path(runs, "plain-1")).start
    assert (second.epoch, second.agent.kind, second.agent.name) == (0, "model", "served-model")


async def test_an_epoch_past_max_epochs_is_refused(server, suite, tmp_path: Path) -> None:
    """A huge epoch would make scoring's pass^k run for hours; start_task refuses it, as argument or _meta, and
    writes nothing."""
    async with Client(server, mode="legacy") as client:
        by_argument = await client.call_tool("start_task", {"task_id": task_ids(suite)[0], "epoch": 10**9})
        by_meta = await client.call_tool("start_task", {"task_id": task_ids(suite)[0]}, meta={META_EPOCH: 10**9})
        assert by_argument.is_error and f"less than {MAX_EPOCHS}" in text_of(by_argument)
        assert by_meta.is_error and f"from 0 to {MAX_EPOCHS - 1}" in text_of(by_meta)
        assert not list((tmp_path / "runs").rglob("*.jsonl"))
        last = await client.call_tool("start_task", {"task_id": task_ids(suite)[0], "epoch": MAX_EPOCHS - 1,
                                                     "episode_id": "last-epoch"})
        assert not last.is_error, text_of(last)
    assert read_trajectory(episode_path(tmp_path / "runs", "last-epoch")).start.epoch == MAX_EPOCHS - 1


async def test_a_running_episode_cannot_be_taken_over(server, suite, tmp_path: Path) -> None:
    path = episode_path(tmp_path / "runs", "mine")
    async with Client(server, mode="legacy") as owner, Client(server, mode="legacy") as intruder:
        await owner.call_tool("start_task", {"task_id": task_ids(suite)[0], "episode_id": "mine"})
        await owner.call_tool("calculate", {"expression": "1 + 1"})
        before = path.read_bytes()
        refused = await intruder.call_tool("start_task", {"task_id": task_ids(suite)[1], "episode_id": "mine"})
        assert refused.is_error and "already taken" in text_of(refused)
        assert path.read_bytes() == before
        intruder_step = await intruder.call_tool("calculate", {"expression": "2"})
        assert intruder_step.is_error and "no task is running" in text_of(intruder_step)
        assert not (await owner.call_tool("terminate", {"status": "failure"})).is_error
    trajectory = read_trajectory(path)
    assert [s.tool for s in trajectory.steps] == ["calculate", "terminate"] and trajectory.end.status == "terminated"


async def test_a_client_reads_its_own_trajectories_only(server, suite, tmp_path: Path) -> None:
    async with Client(server, mode="legacy") as owner, Client(server, mode="legacy") as other:
        started = read_reply(await owner.call_tool("start_task", {"task_id": task_ids(suite)[0]})).observation
        episode_id = started["episode_id"]
        await owner.call_tool("terminate", {"status": "failure"})
        uri = EPISODE_URI.format(episode_id=episode_id)
        text = (await owner.read_resource(uri)).contents[0].text
        assert text == episode_path(tmp_path / "runs", episode_id).read_text(encoding="utf-8")
        assert [json.loads(line)["event"] for line in text.splitlines()] == ["start", "step", "end"]
        with pytest.raises(Exception, match="no episode"):
            await other.read_resource(uri)


# ---- errors: wording, bounds, faults, the no-episode hint -----------------------------------------------------------


async def test_no_pydantic_wording_reaches_a_client(server, suite) -> None:
    calls = [
        ("list_tasks", {"limit": 0}), ("list_tasks", {"limit": "many"}), ("list_tasks", {"offset": -1}),
        ("list_tasks", {"intent": 5}), ("start_task", {}), ("start_task", {"task_id": ["x"]}),
        ("start_task", {"task_id": task_ids(suite)[0], "epoch": -1}),
        ("start_task", {"task_id": task_ids(suite)[0], "epoch": "first"}),
        ("start_task", {"task_id": task_ids(suite)[0], "agent_kind": "robot"}),
        ("start_task", {"task_id": task_ids(suite)[0], "episode_id": "../x"}),
        ("start_task", {"task_id": "x" * 300}),
    ]
    after_start = [
        ("find_product", {"q": "shirt", "page": "two"}), ("find_product", {"q": ["shirt"], "page": 1}),
        ("find_product", {"page": 1, "colour": "red"}), ("calculate", {"threshold": "lots"}),
        ("terminate", {"status": "maybe"}), (RECORD_MALFORMED_TOOL, {"raw": 1}),
    ]
    async with Client(server, mode="legacy") as client:
        for tool, arguments in calls:
            result = await client.call_tool(tool, arguments)
            text = text_of(result)
            assert result.is_error and text, (tool, arguments)
            assert not [word for word in PYDANTIC_WORDING if word in text], (tool, arguments, text)
        await client.call_tool("start_task", {"task_id": task_ids(suite)[0]})
        for tool, arguments in after_start:
            result = await client.call_tool(tool, arguments)
            text = text_of(result)
            assert result.is_error and not [word for word in PYDANTIC_WORDING if word in text], (tool, text)


async def test_argument_bounds_and_faults_get_clear_errors(server, suite) -> None:
    many_words = " ".join(f"word{i}x" for i in range(1100))
    ids = ",".join(f"id{i}" for i in range(25))
    async with Client(server, mode="legacy") as client:
        await client.call_tool("start_task", {"task_id": task_ids(suite)[0]})
        for tool, arguments, complaint in [
            ("find_product", {"q": many_words, "page": 1}, "q is too long"),
            ("find_product", {"q": "shirt", "page": 1, "shop_id": "s" * 300}, "shop_id is too long"),
            ("web_search", {"q": "w" * 1001}, "q is too long"),
            ("view_product_information", {"product_ids": ids}, "at most 20 product_ids per call (got 25)"),
            ("calculate", {"product_ids": ids}, "at most 20 product_ids"),
            ("recommend_product", {"product_ids": ids}, "at most 20 product_ids"),
            ("calculate", {"expression": "-" * 999 + "1"}, "expression nested too deeply"),
            ("calculate", {"expression": "(" * 300 + "1" + ")" * 300}, "expression nested too deeply"),
        ]:
            result = await client.call_tool(tool, arguments)
            text = text_of(result)
            assert result.is_error and complaint in text, (tool, text)
            assert "try again" not in text and len(text) < 400, (tool, text)


async def test_a_call_without_an_episode_says_what_to_do_and_spots_connection_per_call(server, suite) -> None:
    async with Client(server, mode="legacy") as client:
        fresh = text_of(await client.call_tool("find_product", {"q": "shirt", "page": 1}))
        assert "call list_tasks, then start_task" in fresh and "new MCP connection" not in fresh
    async with Client(server, mode="legacy") as client:  # a client that connects once per call
        await client.call_tool("start_task", {"task_id": task_ids(suite)[0]})
    async with Client(server, mode="legacy") as client:
        hinted = text_of(await client.call_tool("find_product", {"q": "shirt", "page": 1}))
        assert "start_task" in hinted and "new MCP connection for every tool call" in hinted
        assert "keep one connection" in hinted


# ---- a slow call does not stall other sessions ----------------------------------------------------------------------


@pytest.fixture
def slow_provider(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    http = ThreadingHTTPServer(("127.0.0.1", 0), SlowSerper)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{http.server_address[1]}/search"
    monkeypatch.setenv("SHOPBENCH_WEB_SEARCH_PROVIDER", "serper")
    monkeypatch.setenv("SERPER_API_KEY", "test-key")
    monkeypatch.setenv("SHOPBENCH_SERPER_URL", url)
    monkeypatch.setenv("SHOPBENCH_WEB_SEARCH_CACHE", str(tmp_path / "web_search_cache.jsonl"))
    yield url
    http.shutdown()


async def test_a_slow_call_in_one_session_does_not_delay_another(slow_provider, default_world, suite,
                                                                 tmp_path: Path) -> None:
    server = build_server(default_world, [suite], tmp_path / "runs")
    slow_took: list[float] = []
    fast_took: list[float] = []
    async with Client(server, mode="legacy") as slow, Client(server, mode="legacy") as fast:
        await slow.call_tool("start_task", {"task_id": task_ids(suite)[0]})
        await fast.call_tool("start_task", {"task_id": task_ids(suite)[1]})
        await fast.call_tool("find_product", {"q": "warm up", "page": 1})

        async def slow_search() -> None:
            began = time.perf_counter()
            result = await slow.call_tool("web_search", {"q": "popmart latest news"})
            slow_took.append(time.perf_counter() - began)
            assert not result.is_error, text_of(result)

        async def quick_finds() -> None:
            await anyio.sleep(0.2)  # the slow search is under way
            for word in ("shirt", "shoes", "bag", "phone", "lamp", "watch", "cup", "desk"):
                began = time.perf_counter()
                assert not (await fast.call_tool("find_product", {"q": word, "page": 1})).is_error
                fast_took.append(time.perf_counter() - began)

        async with anyio.create_task_group() as group:
            group.start_soon(slow_search)
            group.start_soon(quick_finds)
    assert slow_took[0] >= SlowSerper.delay
    assert max(fast_took) < 0.5 and sum(fast_took) < SlowSerper.delay, fast_took


# ---- HTTP: loopback Host/Origin checks, bearer scheme in any case ---------------------------------------------------


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def post(app: Any, base: str, headers: dict[str, str]) -> int:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base) as http:
        return (await http.post("/mcp", json=INITIALIZE, headers=HEADERS | headers)).status_code


async def test_any_loopback_bind_keeps_dns_rebinding_checks(server) -> None:
    app = http_app(server, host="127.0.0.2")
    async with server.session_manager.run():
        assert await post(app, "http://127.0.0.2:8765", {}) == 200
        assert await post(app, "http://attacker.example:8765", {}) == 421  # a rebound name: refused
        assert await post(app, "http://127.0.0.2:8765", {"Origin": "http://attacker.example"}) == 403
        assert await post(app, "http://127.0.0.2:8765", {"Origin": "http://127.0.0.2:8765"}) == 200


async def test_bearer_scheme_is_case_insensitive(server) -> None:
    app = http_app(server, host="127.0.0.1", token="s3cret")
    async with server.session_manager.run():
        base = "http://127.0.0.1:8765"
        for header in ("Bearer s3cret", "bearer s3cret", "BEARER  s3cret"):
            assert await post(app, base, {"Authorization": header}) == 200, header
        for header in ("Bearer nope", "Basic s3cret", "s3cret", ""):
            assert await post(app, base, {"Authorization": header}) == 401, header
