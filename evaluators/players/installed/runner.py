"""One installed agent on one started episode: its prompt, its fresh folders, its run, and its transcript.

The episode's folders (working directory and config home) are made empty for it and deleted after it; their path is
the same for the same run and episode, so the agent's prompt (which names its working directory) repeats and the
response cache can answer a replayed episode. What is kept is the transcript folder beside the trajectory
(`episodes/<episode_id>.agent/`): the prompt, the agent's stdout (its own JSON event stream), its stderr, its own
session files, and `agent.json` (how it ended, what it reported, what the bridge counted).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS
from evaluators.players.installed.adapter import AgentAdapter, EpisodeSetup
from evaluators.players.installed.process import AgentExit, run_agent
from mcp_server.protocol import StartedEpisode

STARTED_NOTE = """\
Your task has already been started for you on the shopbench MCP server (episode {episode_id}): do not call \
list_tasks or start_task. Solve it with the shopbench tools ({tools}); you have at most {max_steps} tool calls."""
PROMPT = "{instructions}\n{note}\n\nThe request:\n{instruction}\n"


def agent_prompt(started: StartedEpisode) -> str:
    """The benchmark's agent instructions, a note that the episode is already running, and the task's instruction
    (the question, for a question benchmark)."""
    note = STARTED_NOTE.format(episode_id=started.episode_id, tools=", ".join(started.tools),
                               max_steps=started.max_steps)
    return PROMPT.format(instructions=MCP_AGENT_INSTRUCTIONS, note=note, instruction=started.instruction)


def prompt_templates() -> dict[str, str]:
    """The prompt's fixed texts (hashed into the run's manifest)."""
    return {"mcp_agent_instructions": MCP_AGENT_INSTRUCTIONS, "agent_started_note": STARTED_NOTE,
            "agent_prompt": PROMPT}


@contextlib.contextmanager
def episode_folders(run_dir: Path, episode_id: str) -> Iterator[tuple[Path, Path]]:
    """A fresh, empty working directory and config home for one episode's agent, deleted afterwards. They live in
    the system's temporary folder (never in the run folder or the world), at a path fixed by run and episode."""
    key = hashlib.sha256(f"{Path(run_dir).resolve()}\0{episode_id}".encode()).hexdigest()[:12]
    root = Path(tempfile.gettempdir()) / "shopbench-agents" / f"{episode_id[:80]}-{key}"
    shutil.rmtree(root, ignore_errors=True)
    workdir, home = root / "work", root / "home"
    workdir.mkdir(parents=True)
    home.mkdir()
    try:
        yield workdir, home
    finally:
        shutil.rmtree(root, ignore_errors=True)


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
