"""A local copy of an episode played against a remote `shopbench serve`, so the run dir is complete either way.

In-process runs need none of this (the server writes into the run dir). Against a remote server the trajectory is
written on the server's machine; this writes the same events here, built from what the client saw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp_server.trajectory import (
    AgentInfo,
    EndEvent,
    EndStatus,
    StartEvent,
    StepEvent,
    TrajectoryWriter,
    Usage,
    episode_path,
    now,
)


class LocalRecorder:
    def __init__(self, run_dir: Path, episode_id: str, agent: AgentInfo, epoch: int, world: str | None) -> None:
        self.episode_id = episode_id
        self.writer = TrajectoryWriter(episode_path(run_dir, episode_id))
        self.agent, self.epoch, self.world = agent, epoch, world
        self.steps = 0
        self.recommended: str | None = None
        self.terminate_status: str | None = None
        self._last = now()
        self._done = False

    def started(self, info: dict[str, Any]) -> None:
        """The local file is named by the run's episode id; the server's own id is kept in the agent details."""
        agent = self.agent.model_copy(update={"details": {**self.agent.details,
                                                          "remote_episode_id": info.get("episode_id")}})
        self.writer.write(
            StartEvent(
                episode_id=self.episode_id,
                benchmark=info["benchmark"],
                task_set=info["task_set"],
                task_id=info["task_id"],
                intent=info.get("intent"),
                epoch=self.epoch,
                world=self.world,
                instruction=info["instruction"],
                agent=agent,
                max_steps=int(info["max_steps"]),
            )
        )
        self._last = now()

    def stepped(self, tool: str, arguments: dict[str, Any], observation: Any, is_error: bool,
                thought: str | None, usage: Usage | None) -> None:
        ended = now()
        self.writer.write(
            StepEvent(index=self.steps, tool=tool, arguments=arguments, observation=observation, is_error=is_error,
                      thought=thought, usage=usage, started_at=self._last, ended_at=ended)
        )
        self._last = ended
        self.steps += 1
        if not is_error and tool == "recommend_product":
            self.recommended = arguments.get("product_ids")
        if not is_error and tool == "terminate":
            self.terminate_status = arguments.get("status")

    def ended(self, status: EndStatus, message: str | None = None) -> None:
        if self._done or self.steps == 0 and status == "error" and not self.writer.path.exists():
            return
        self._done = True
        self.writer.write(EndEvent(status=status, terminate_status=self.terminate_status,
                                   recommended=self.recommended, message=message, steps=self.steps))
