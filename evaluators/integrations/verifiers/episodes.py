"""A rollout's episode on the environment's server: one in-process MCP connection per rollout, held by a task of its
own, and who plays as the trajectory records it.

verifiers runs a rollout's setup and turns inside `asyncio.wait_for` (another task) and its cleanup outside it; an
MCP client's task group must be left in the task that entered it, so each connection lives in a holder task that
enters it, hands the session over and leaves it when the rollout closes it. Closing the connection of an episode that
is still running makes the server record it as abandoned, as for any client that goes away.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluators.integrations.environments import default_runs_dir as runs_dir_for
from evaluators.integrations.environments import shared_environment as shared
from mcp_server.environment import Environment
from mcp_server.episode_client import EpisodeClient
from mcp_server.protocol import StartedEpisode
from mcp_server.server import ShopbenchServer
from mcp_server.suites import TaskSuite
from mcp_server.trajectory import AgentInfo, AgentKind, Usage

HARNESS = "verifiers"


def default_runs_dir(benchmark: str) -> Path:
    return runs_dir_for("verifiers", benchmark)


def shared_environment(benchmark: str, runs: str | Path | None, **choices: Any) -> Environment:
    """The environment of this benchmark, run folder (default runs/verifiers-<benchmark>-<time>) and choices (world,
    task set, items, ...), opened once per process: every verifiers environment loaded with them shares its world's
    indexes and its server."""
    return shared(benchmark, runs if runs else default_runs_dir(benchmark), **choices)


def rollout_agent(model: str, *, example_id: Any, rollout: int) -> AgentInfo:
    """Who plays, as the trajectory records it: the model name verifiers was given, the example and its rollout."""
    return AgentInfo(kind=AgentKind.model, name=model,
                     details={"harness": HARNESS, "verifiers_example_id": example_id, "verifiers_rollout": rollout})


@dataclass
class Connection:
    """One rollout's MCP connection (the official client over an in-memory transport) and its episode reader."""

    client: EpisodeClient
    _close: asyncio.Event
    _holder: asyncio.Task[None]

    @classmethod
    async def open(cls, server: ShopbenchServer) -> Connection:
        from mcp import Client

        opened: asyncio.Future[EpisodeClient] = asyncio.get_running_loop().create_future()
        close = asyncio.Event()

        async def hold() -> None:
            try:
                async with Client(server, mode="legacy") as session:
                    opened.set_result(EpisodeClient(session))
                    await close.wait()
            except BaseException as error:
                if not opened.done():
                    opened.set_exception(error)
                raise

        holder = asyncio.create_task(hold())
        return cls(await opened, close, holder)

    async def aclose(self) -> None:
        """Close the connection (the server abandons an episode still running on it)."""
        self._close.set()
        await self._holder


class Rollouts:
    """The episodes an environment's rollouts play, by verifiers' trajectory id: each rollout's connection, and how
    many rollouts each task has had (the k-th rollout of a task is its epoch k, so `shopbench score` gives pass^k of
    a group of rollouts)."""

    def __init__(self, environment: Environment, suite: TaskSuite) -> None:
        self.environment, self.suite = environment, suite
        self.open: dict[str, Connection] = {}
        self._started: dict[str, int] = {}

    async def start(self, state: dict[str, Any]) -> StartedEpisode:
        """Open the rollout's connection and start its episode on the example's task; `state["shopbench"]` says
        which episode it is and where it is recorded."""
        task_id = state["info"]["task_id"]
        connection = await Connection.open(self.environment.server)
        self.open[state["trajectory_id"]] = connection
        epoch = self._started.get(task_id, 0)
        self._started[task_id] = epoch + 1
        started = await connection.client.start(
            task_id, benchmark=self.suite.benchmark, task_set=self.suite.task_set, epoch=epoch,
            agent=rollout_agent(state["model"], example_id=state["example_id"], rollout=epoch),
        )
        state["shopbench"] = {"episode_id": started.episode_id, "run_dir": str(self.environment.runs_dir),
                              "task_id": task_id, "task_set": started.task_set, "epoch": epoch}
        return started

    def client(self, state: dict[str, Any]) -> EpisodeClient | None:
        """The rollout's episode client; None once closed (or when its setup failed)."""
        connection = self.open.get(state["trajectory_id"])
        return None if connection is None else connection.client

    async def close(self, state: dict[str, Any]) -> None:
        connection = self.open.pop(state["trajectory_id"], None)
        if connection is not None:
            await connection.aclose()


def turn_usage(state: dict[str, Any]) -> Usage:
    """The rollout's last model call (tokens, time), recorded with the step it led to."""
    step = state["trajectory"][-1]
    used = step["response"].usage if step.get("response") is not None else None
    spans = state["timing"].model.spans
    latency = round(spans[-1].end - spans[-1].start, 4) if spans else None
    if used is None:
        return Usage(latency_s=latency)
    return Usage(input_tokens=used.prompt_tokens, output_tokens=used.completion_tokens, latency_s=latency)


def message_text(content: Any) -> str:
    """A verifiers message's content as text (a string, or text parts)."""
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(getattr(part, "text", None) or (part.get("text", "") if isinstance(part, dict) else "")
                   for part in content)
