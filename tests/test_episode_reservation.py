"""Episodes reserved for installed agents (issue 20): the harness starts an episode before its agent runs and serves
it at an address of its own; the official MCP client over streamable HTTP finds itself inside that episode."""

from __future__ import annotations

import logging

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp_server.environment import open_environment
from mcp_server.episode_client import EpisodeClient, read_reply
from mcp_server.episode_keys import episode_key
from mcp_server.task_tools import release_episode, reserve_episode
from mcp_server.trajectory import AgentInfo, Usage, episode_path, iter_episode_files, read_trajectory
from mcp_server.transports import serve_reserved_episodes

AGENT = AgentInfo(kind="mcp-client", name="an-installed-agent", details={"version": "1.0"})


@pytest.fixture
def environment(default_world, tmp_path):
    return open_environment(["shoppingbench"], runs_dir=tmp_path / "run", world=default_world, max_steps=4)


def _client(url: str, key: str):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
    return Client(streamable_http_client(url, http_client=http), mode="legacy")


async def test_an_agent_on_a_reserved_address_plays_that_episode_only(environment, tmp_path, caplog):
    state = environment.server.state
    (first, second) = [listing.task_id for _, listing in environment.selection(limit=1, intents=["product", "shop"])]
    spent = [Usage(input_tokens=120, output_tokens=7, latency_s=0.5, cost_usd=0.001)]
    reservation = await reserve_episode(state, first, agent=AGENT, episode_id="reserved-e0",
                                        usage=lambda: spent.pop() if spent else None)
    assert reservation.started.task_id == first and reservation.started.instruction
    async with serve_reserved_episodes(environment.server) as base:
        url, key = f"{base}/e/{reservation.token}/mcp", episode_key(reservation.token)
        async with _client(url, key) as session:
            page = read_reply(await session.call_tool("list_tasks", {}))
            assert [task["task_id"] for task in page.observation["tasks"]] == [first]
            # Its first call is already inside the episode; its step carries what the model calls cost.
            found = read_reply(await session.call_tool("find_product", {"q": "shoes", "page": 1}))
            assert not found.is_error and found.status is not None and found.status.steps_used == 1
            # start_task gives back its own episode, whatever task it names, and starts nothing.
            again = read_reply(await session.call_tool("start_task", {"task_id": second}))
            assert not again.is_error
            assert (again.observation["episode_id"], again.observation["task_id"]) == ("reserved-e0", first)
            assert again.observation["episode"]["steps_used"] == 1
        # A second connection (an agent that reconnects) lands in the same episode: closing the first ended nothing.
        async with _client(url, key) as session:
            reply = await EpisodeClient(session).call("view_product_information", {"product_ids": "x"})
            assert reply.status is not None and reply.status.steps_used == 2
        # The plain endpoint and unknown addresses are refused: an agent reaches its own episode and nothing else.
        async with httpx.AsyncClient() as http:
            for path in ("/mcp", "/e/AAAAAAAAAAAAAAAAAAAAAAAA/mcp"):
                response = await http.post(base + path, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                assert response.status_code == 404, path
            # The address without its episode's credential (or with another's) opens nothing, and is logged.
            initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}
            with caplog.at_level(logging.WARNING, logger="shopbench.security"):
                for headers in ({}, {"Authorization": "Bearer " + episode_key("another-token")}):
                    response = await http.post(url, json=initialize, headers=headers)
                    assert response.status_code == 401, headers
            assert len([r for r in caplog.records if "refused a request" in r.getMessage()]) == 2
        release_episode(state, reservation, "agent_exited", "the agent exited without calling terminate")
        async with httpx.AsyncClient() as http:
            closed = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert closed.status_code == 404
    trajectory = read_trajectory(episode_path(tmp_path / "run", "reserved-e0"))
    assert [step.tool for step in trajectory.steps] == ["find_product", "view_product_information"]
    assert trajectory.steps[0].usage == Usage(input_tokens=120, output_tokens=7, latency_s=0.5, cost_usd=0.001)
    assert trajectory.steps[1].usage is None
    assert trajectory.start.agent == AGENT
    assert trajectory.end is not None and trajectory.end.status == "agent_exited"
    assert trajectory.end.message == "the agent exited without calling terminate"
    assert [path.stem for path in iter_episode_files(tmp_path / "run")] == ["reserved-e0"]


async def test_releasing_an_ended_episode_keeps_its_end(environment, tmp_path):
    state = environment.server.state
    task = environment.selection(limit=1, intents=["product"])[0][1].task_id
    reservation = await reserve_episode(state, task, agent=AGENT, episode_id="ends-itself")
    async with serve_reserved_episodes(environment.server) as base, \
            _client(f"{base}/e/{reservation.token}/mcp", episode_key(reservation.token)) as session:
        reply = await EpisodeClient(session).call("terminate", {"status": "failure"})
        assert reply.ended
    release_episode(state, reservation, "timeout", "the episode's time ran out")
    end = read_trajectory(episode_path(tmp_path / "run", "ends-itself")).end
    assert end is not None and (end.status, end.terminate_status) == ("terminated", "failure")
