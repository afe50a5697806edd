"""Sandbox tools, live web search with its replay cache, episodes and the ShoppingBench suite, on the default world
(real Pyserini)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from mcp_server.episodes import Episode, EpisodeError
from mcp_server.http_launch import free_port
from mcp_server.qa_suites import QUESTION_TOOLS, AnswerSheet
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.tools import SHOPPING_TOOLS, Sandbox, ToolCallError, parse_price
from mcp_server.shopping.world import GENERATED_SET
from mcp_server.suites import TaskListing
from mcp_server.trajectory import AgentInfo, Usage, read_manifest, read_trajectory

AGENT = AgentInfo(kind="baseline", name="pytest")


@pytest.fixture(scope="module")
def sandbox(default_world) -> Sandbox:
    return Sandbox.for_world(default_world)


@pytest.fixture(scope="module")
def suite(default_world) -> ShoppingSuite:
    return ShoppingSuite(default_world, GENERATED_SET)


# ---- find_product -------------------------------------------------------------------------------------------------


def test_find_product_returns_the_reference_fields(sandbox: Sandbox) -> None:
    hits = sandbox.call("find_product", {"q": "shirt", "page": 1})
    assert 0 < len(hits) <= 10
    assert all(set(hit) == {"product_id", "shop_id", "title", "price", "service", "sold_count"} for hit in hits)


def test_find_product_filters_reach_the_index(sandbox: Sandbox) -> None:
    hits = sandbox.call("find_product", {"q": "shirt", "page": 1, "price": "100-2000", "sort": "priceasc"})
    prices = [hit["price"] for hit in hits]
    assert prices and all(100 <= p <= 2000 for p in prices) and prices == sorted(prices)
    shop = hits[0]["shop_id"]
    in_shop = sandbox.call("find_product", {"q": "shirt", "page": 1, "shop_id": shop})
    assert in_shop and {hit["shop_id"] for hit in in_shop} == {shop}
    cod = sandbox.call("find_product", {"q": "shirt", "page": 1, "service": "COD,default,bogus"})
    assert cod and all("COD" in hit["service"] for hit in cod)
    at_most = sandbox.call("find_product", {"q": "shirt", "page": 1, "price": "-300", "sort": "pricedesc"})
    assert all(hit["price"] <= 300 for hit in at_most)
    assert [h["price"] for h in at_most] == sorted((h["price"] for h in at_most), reverse=True)


def test_find_product_pages_do_not_overlap_and_unknown_sort_is_ignored(sandbox: Sandbox) -> None:
    page1 = sandbox.call("find_product", {"q": "shirt", "page": 1})
    page2 = sandbox.call("find_product", {"q": "shirt", "page": 2})
    assert page2 and not {h["product_id"] for h in page1} & {h["product_id"] for h in page2}
    assert sandbox.call("find_product", {"q": "shirt", "page": 1, "sort": "cheapest"}) == page1


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        ({"q": "shirt", "page": 6}, "page must be 1 to 5"),
        ({"q": "shirt", "page": 0}, "page must be 1 to 5"),
        ({"q": "shirt", "page": "two"}, "page: "),
        ({"q": "shirt"}, "missing required parameter 'page'"),
        ({"q": "  ", "page": 1}, "q is empty"),
        ({"q": 42, "page": 1}, "q: "),
        ({"q": "shirt", "page": 1, "price": "cheap"}, 'price must look like "100-500"'),
        ({"q": "shirt", "page": 1, "price": "500-100"}, "lower bound 500 is above"),
        ({"q": "shirt", "page": 1, "color": "red"}, "unknown parameter 'color'"),
    ],
)
def test_malformed_find_product_calls_are_errors(sandbox: Sandbox, arguments: dict, complaint: str) -> None:
    with pytest.raises(ToolCallError, match=complaint):
        sandbox.call("find_product", arguments)


def test_price_strings() -> None:
    assert parse_price("100-500") == (100, 500)
    assert parse_price("100-") == (100, None)
    assert parse_price("-99.5") == (None, 99.5)
    with pytest.raises(ToolCallError):
        parse_price("-")


# ---- view, web search, recommend, terminate, unknown tools --------------------------------------------------------


def test_view_product_information_returns_known_ids_only(sandbox: Sandbox) -> None:
    hits = sandbox.call("find_product", {"q": "shirt", "page": 1})
    ids = [hits[0]["product_id"], hits[1]["product_id"]]
    viewed = sandbox.call("view_product_information", {"product_ids": f"{ids[0]}, nosuchid ,{ids[1]}"})
    assert [v["product_id"] for v in viewed] == ids
    expected = {"product_id", "title", "price", "shop_id", "short_description", "description", "sku_options",
                "attributes", "service"}
    assert set(viewed[0]) == expected
    with pytest.raises(ToolCallError, match="no product has the id"):
        sandbox.call("view_product_information", {"product_ids": "nosuchid"})
    with pytest.raises(ToolCallError, match="empty"):
        sandbox.call("view_product_information", {"product_ids": " , "})


def test_web_search_reads_the_offline_corpus(sandbox: Sandbox) -> None:
    results = sandbox.call("web_search", {"q": "university", "max_results": 3})
    assert 0 < len(results) <= 3 and set(results[0]) == {"url", "title", "content"}
    for bad in (0, 21):
        with pytest.raises(ToolCallError, match="1 to 20"):
            sandbox.call("web_search", {"q": "university", "max_results": bad})


def test_recommend_confirms_the_exact_string_and_flags_unknown_ids(sandbox: Sandbox) -> None:
    pid = sandbox.call("find_product", {"q": "shirt", "page": 1})[0]["product_id"]
    assert sandbox.call("recommend_product", {"product_ids": pid}).endswith(f"{pid}.")
    text = sandbox.call("recommend_product", {"product_ids": f"{pid}, {pid}"})
    assert f"' {pid}'" in text  # the scorer reads " id" (with the space) as an unknown id, so the agent is told
    with pytest.raises(ToolCallError):
        sandbox.call("terminate", {"status": "done"})
    with pytest.raises(ToolCallError, match="unknown tool 'buy_now'"):
        sandbox.call("buy_now", {})
    with pytest.raises(ToolCallError, match="must be a JSON object"):
        sandbox.call("terminate", ["success"])


# ---- live web search and its replay cache --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fake_serper():
    """A local stand-in for google.serper.dev on loopback, answering like the real API."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    calls: list[dict] = []

    async def search(request: Request) -> JSONResponse:
        body = await request.json()
        calls.append({"body": body, "key": request.headers.get("x-api-key")})
        if body["q"] == "explode":
            return JSONResponse({"message": "boom"}, status_code=500)
        organic = [{"link": f"https://e.x/{i}", "title": f"{body['q']} {i}", "snippet": f"fact {i}"} for i in range(12)]
        return JSONResponse({"organic": organic})

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Route("/search", search, methods=["POST"])]),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/search", calls
    server.should_exit = True
    thread.join(timeout=5)


def test_live_web_search_records_and_replays(default_world, fake_serper, tmp_path: Path) -> None:
    from mcp_server.shopping.web_search_live import web_search_backend

    url, calls = fake_serper
    cache = tmp_path / "cache.jsonl"
    live_env = {"SHOPBENCH_WEB_SEARCH_PROVIDER": "serper", "SERPER_API_KEY": "k1", "SHOPBENCH_SERPER_URL": url,
                "SHOPBENCH_WEB_SEARCH_CACHE": str(cache)}
    live = Sandbox(default_world.products, None, web_search_backend(default_world, live_env))
    results = live.call("web_search", {"q": "who won", "max_results": 3})
    assert results == [{"url": f"https://e.x/{i}", "title": f"who won {i}", "content": f"fact {i}"} for i in range(3)]
    assert calls[-1] == {"body": {"q": "who won"}, "key": "k1"}
    assert live.call("web_search", {"q": "who won", "max_results": 3}) == results
    assert len(calls) == 1  # the second answer came from the cache

    replay_env = {k: v for k, v in live_env.items() if k != "SERPER_API_KEY"}
    replay = Sandbox(default_world.products, None, web_search_backend(default_world, replay_env))
    assert replay.call("web_search", {"q": "who won", "max_results": 3}) == results
    with pytest.raises(ToolCallError, match="not in the replay cache"):
        replay.call("web_search", {"q": "never asked"})
    with pytest.raises(ToolCallError, match="provider failed"):
        live.call("web_search", {"q": "explode"})
    assert len(cache.read_text().splitlines()) == 1  # failures are not cached
    assert web_search_backend(default_world, {}) is default_world.knowledge
    with pytest.raises(ValueError, match="not a provider"):
        web_search_backend(default_world, {"SHOPBENCH_WEB_SEARCH_PROVIDER": "bing"})


# ---- episodes -----------------------------------------------------------------------------------------------------


def test_episode_records_every_step_and_ends_at_terminate(suite, sandbox, tmp_path: Path) -> None:
    task_id = suite.listings()[0].task_id
    episode = Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox, epoch=1, world="default@x")
    assert episode.instruction == suite.instruction(task_id)
    usage = Usage(input_tokens=10, output_tokens=3, latency_s=0.5)
    found = episode.call("find_product", {"q": "shirt", "page": 1}, thought="search first", usage=usage)
    pid = found.observation[0]["product_id"]
    assert episode.call("find_product", {"q": "shirt", "page": 9}).is_error
    episode.call("recommend_product", {"product_ids": "x"})
    episode.call("recommend_product", {"product_ids": f"{pid}, y"})
    done = episode.call("terminate", {"status": "success"})
    assert done.ended and episode.over
    late = episode.call("find_product", {"q": "shirt", "page": 1})
    assert late.is_error and "episode is over" in late.observation

    trajectory = read_trajectory(episode.path)
    assert trajectory.start.task_id == task_id and trajectory.start.epoch == 1 and trajectory.start.agent == AGENT
    assert [s.tool for s in trajectory.steps] == ["find_product", "find_product", "recommend_product",
                                                  "recommend_product", "terminate"]
    assert trajectory.steps[0].thought == "search first" and trajectory.steps[0].usage == usage
    assert trajectory.steps[1].is_error and "page must be 1 to 5" in trajectory.steps[1].observation
    assert trajectory.end.status == "terminated" and trajectory.end.terminate_status == "success"
    assert trajectory.end.recommended == f"{pid}, y"  # the last recommendation, exactly as passed
    assert trajectory.end.steps == 5
    assert read_manifest(tmp_path).parameters["max_steps"] == 30


def test_step_limit_ends_the_episode_and_malformed_calls_count(suite, sandbox, tmp_path: Path) -> None:
    episode = Episode(tmp_path, suite, suite.listings()[0].task_id, agent=AGENT, sandbox=sandbox, max_steps=2)
    assert episode.call("fly", {}).is_error
    assert episode.call("calculate", {"expression": "2+2"}).observation == 4
    assert episode.over and episode.end.status == "step_limit"
    assert "step limit of 2" in episode.call("calculate", {"expression": "1"}).observation
    assert len(read_trajectory(episode.path).steps) == 2


def test_episode_ids_are_checked_and_finished_episodes_never_overwritten(suite, sandbox, tmp_path: Path) -> None:
    task_id = suite.listings()[0].task_id
    with pytest.raises(EpisodeError, match="not allowed"):
        Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox, episode_id="../escape")
    with pytest.raises(EpisodeError, match="no task"):
        Episode(tmp_path, suite, "product-9999999", agent=AGENT, sandbox=sandbox)
    running = Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox, episode_id="ep1")
    running.call("calculate", {"expression": "1"})
    before = running.path.read_bytes()
    with pytest.raises(EpisodeError, match="already taken"):  # running: an id names one episode
        Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox, episode_id="ep1")
    assert running.path.read_bytes() == before
    running.call("terminate", {"status": "failure"})
    trajectory = read_trajectory(running.path)
    assert [s.tool for s in trajectory.steps] == ["calculate", "terminate"]
    with pytest.raises(EpisodeError, match="already taken"):  # finished
        Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox, episode_id="ep1")
    abandoned = Episode(tmp_path, suite, task_id, agent=AGENT, sandbox=sandbox)
    abandoned.abandon("test over")
    assert read_trajectory(abandoned.path).end.status == "abandoned"


class OneQuestion:
    """A minimal question suite (the TaskSuite protocol, kind "qa")."""

    benchmark, task_set, kind = "intentionqa", "sample", "qa"
    max_steps: int | None = None  # the server's limit, so the malformed calls below do not end the episode
    tools, world, demonstrations = QUESTION_TOOLS, None, None
    agent_instructions = "Answer with submit_answer."
    prompts: dict[str, str] = {}

    def open_sandbox(self) -> AnswerSheet:
        return AnswerSheet()

    def start_details(self, task_id: str) -> dict:
        return {}

    def listings(self) -> list[TaskListing]:
        return [TaskListing(task_id="task1:7", benchmark=self.benchmark, task_set=self.task_set, intent="task1")]

    def instruction(self, task_id: str) -> str:
        return {"task1:7": "Why would someone buy A with B? A. ... B. ... C. ... D. ..."}[task_id]

    def unavailable_reason(self) -> None:
        return None

    def manifest_parameters(self) -> dict:
        return {}


def test_qa_episode_ends_at_submit_answer_with_the_raw_answer(tmp_path: Path) -> None:
    episode = Episode(tmp_path, OneQuestion(), "task1:7", agent=AGENT)
    assert episode.tools == ("submit_answer",)
    assert episode.call("find_product", {"q": "x", "page": 1}).is_error  # no sandbox in a question episode
    assert episode.call("submit_answer", {"answer": 3}).is_error
    assert episode.call("submit_answer", {"answer": " Answer: B\n"}).ended
    end = read_trajectory(episode.path).end
    assert end.status == "submitted" and end.answer == " Answer: B\n"


def test_official_set_is_listed_but_needs_the_official_world(default_world, tmp_path: Path) -> None:
    official = ShoppingSuite(default_world, "official")
    assert len(official.listings()) == 900
    reason = official.unavailable_reason()
    assert "shopbench world import documents.jsonl.gz --out DIR" in reason and "--world DIR" in reason
    with pytest.raises(EpisodeError, match="official"):
        Episode(tmp_path, official, official.listings()[0].task_id, agent=AGENT,
                sandbox=Sandbox.for_world(default_world))


def test_tool_specs_cover_the_six_reference_tools() -> None:
    assert list(SHOPPING_TOOLS) == ["find_product", "view_product_information", "calculate", "web_search",
                                    "recommend_product", "terminate"]
    assert SHOPPING_TOOLS["find_product"].arguments.model_json_schema()["required"] == ["q", "page"]
