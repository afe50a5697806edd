"""One installed agent on one started episode: its prompt, its fresh folders, its run, and its transcript.

The episode's folders (working directory and config home) are made empty and private for it and deleted after it
(evaluators.players.installed.private). What is kept is the transcript folder beside the trajectory
(`episodes/<episode_id>.agent/`): the prompt, the agent's stdout (its own JSON event stream), its stderr, its own
session files, and `agent.json` (how it ended, what it reported, what the bridge counted).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from evaluators.players.installed.adapter import AgentAdapter, EpisodeSetup
from evaluators.players.installed.process import AgentExit, run_agent
from mcp_server.protocol import StartedEpisode

STARTED_NOTE = """\
Your task has already been started for you on the shopbench MCP server (episode {episode_id}): do not call \
list_tasks or start_task. Solve it with the shopbench tools ({tools}); you have at most {max_steps} tool calls."""
PROMPT = "{instructions}\n{note}\n\nThe request:\n{instruction}\n"


def agent_prompt(started: StartedEpisode, instructions: str) -> str:
    """The benchmark's agent instructions (its suite's: mcp_server.suites.TaskSuite.agent_instructions), a note that
    the episode is already running, and the task's instruction (the question, for a question benchmark)."""
    note = STARTED_NOTE.format(episode_id=started.episode_id, tools=", ".join(started.tools),
                               max_steps=started.max_steps)
    return PROMPT.format(instructions=instructions, note=note, instruction=started.instruction)


def prompt_templates(instructions: str) -> dict[str, str]:
    """The prompt's fixed texts (hashed into the run's manifest)."""
    return {"mcp_agent_instructions": instructions, "agent_started_note": STARTED_NOTE, "agent_prompt": PROMPT}


async def run_episode_agent(adapter: AgentAdapter, executable: Path | None, setup: EpisodeSetup, transcript: Path,
                            *, timeout_s: float, grace_s: float, episode_over: Callable[[], bool],
                            finished: Callable[[int], bool] | None = None) -> tuple[AgentExit, dict[str, Any]]:
    """Start the agent on its episode and keep its transcript; returns how it ended and the usage it reported."""
    transcript.mkdir(parents=True, exist_ok=True)
    (transcript / "prompt.txt").write_text(setup.prompt, encoding="utf-8")
    launch = adapter.launch(executable or Path(), setup)
    stdout = transcript / "stdout.jsonl"
    ended = await run_agent(launch, cwd=setup.workdir, stdout=stdout, stderr=transcript / "stderr.log",
                            timeout_s=timeout_s, episode_over=episode_over, grace_s=grace_s, finished=finished)
    for index, path in enumerate(adapter.session_files(setup)):
        session = transcript / "session"
        session.mkdir(exist_ok=True)
        shutil.copy2(path, session / (path.name if index == 0 else f"{index}-{path.name}"))
    with open(stdout, encoding="utf-8", errors="replace") as lines:  # read as a stream: it may be large
        reported = adapter.reported_usage(lines)
    return ended, reported


def write_summary(transcript: Path, ended: AgentExit, reported: dict[str, Any], **more: Any) -> None:
    """`agent.json`: how the agent's process ended, what it reported, and what the harness counted."""
    summary = {"exit": asdict(ended), "reported_by_agent": reported, **more}
    (transcript / "agent.json").write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
