"""Trajectory distillation export (the paper's "Trajectory Distillation" and "Cold Start with SFT").

The paper keeps only trajectories that are absolute successes (rejection sampling) and cuts each into one training
sample per step: input = the user instruction plus the history of earlier thoughts, tool calls and observations;
output = the reasoning and the next tool call. Samples are written as JSONL in the chat-messages format most SFT
trainers read:

- format "messages": `{"messages": [user, assistant, tool, ..., assistant], "metadata": {...}}`, where the LAST
  assistant message is the sample's target;
- format "prompt-completion": `{"prompt": [...history], "completion": [target assistant message], "metadata"}`
  (TRL's conversational prompt-completion form, which makes the input/output split explicit).

Assistant turns carry the thought as `content` and the call as an OpenAI-style `tool_calls` entry; tool turns carry
the observation as JSON text. Success comes from the run's scorer, so a sample never comes from a failed episode.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from benchmarks.jsonl import write_jsonl
from evaluators.scoring import ScoreOptions, score_run
from mcp_server.trajectory import StepEvent, Trajectory, iter_episode_files, read_manifest, read_trajectory

SampleFormat = Literal["messages", "prompt-completion"]


@dataclass
class ExportSummary:
    episodes: int
    successes: int
    samples: int
    path: Path


def _call_id(step: StepEvent) -> str:
    return f"call_{step.index}"


def assistant_turn(step: StepEvent) -> dict[str, Any]:
    """The reasoning and the tool call of one step."""
    return {
        "role": "assistant",
        "content": step.thought or "",
        "tool_calls": [{
            "id": _call_id(step),
            "type": "function",
            "function": {"name": step.tool, "arguments": json.dumps(step.arguments, ensure_ascii=False)},
        }],
    }


def tool_turn(step: StepEvent) -> dict[str, Any]:
    """What the tool returned (an error's text when the call failed)."""
    observation = step.observation
    content = observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)
    return {"role": "tool", "tool_call_id": _call_id(step), "name": step.tool, "content": content}


def step_samples(trajectory: Trajectory, run_id: str, fmt: SampleFormat = "messages") -> Iterator[dict[str, Any]]:
    """One sample per step: history before the step → the step's reasoning and call."""
    history: list[dict[str, Any]] = [{"role": "user", "content": trajectory.start.instruction}]
    for step in trajectory.steps:
        target = assistant_turn(step)
        metadata = {
            "run_id": run_id,
            "episode_id": trajectory.episode_id,
            "benchmark": trajectory.start.benchmark,
            "task_set": trajectory.start.task_set,
            "task_id": trajectory.start.task_id,
            "intent": trajectory.start.intent,
            "step": step.index,
            "agent": trajectory.start.agent.name,
        }
        if fmt == "messages":
            yield {"messages": [*history, target], "metadata": metadata}
        else:
            yield {"prompt": list(history), "completion": [target], "metadata": metadata}
        history += [target, tool_turn(step)]


def export_sft(
    run_dir: Path,
    out: Path,
    *,
    success: Mapping[str, bool] | None = None,
    options: ScoreOptions | None = None,
    fmt: SampleFormat = "messages",
) -> ExportSummary:
    """Write the step samples of the run's successful episodes to `out` (JSONL). `success` (episode id → success)
    comes from an existing score; without it the run is scored through the registry with `options`."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if success is None:
        success = score_run(run_dir, options).episode_success()
    episodes = successes = 0

    def samples() -> Iterator[dict[str, Any]]:
        nonlocal episodes, successes
        for path in iter_episode_files(run_dir):
            try:
                trajectory = read_trajectory(path)
            except ValueError:
                continue
            episodes += 1
            if trajectory.finished and success.get(trajectory.episode_id, False):
                successes += 1
                yield from step_samples(trajectory, manifest.run_id, fmt)

    count = write_jsonl(out, samples())
    return ExportSummary(episodes=episodes, successes=successes, samples=count, path=Path(out))
