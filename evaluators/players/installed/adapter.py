"""What an adapter says about one installed agent: how to install it, how to start it for one episode (its command
line, its environment, the config files it reads), and where its own transcript and usage are.

An adapter only writes files into the episode's fresh folders and returns a command line; the runner
(evaluators.players.installed.runner) starts it, ends it and keeps its output. Every adapter allows the agent
shopbench's MCP tools and nothing else, with the agent's own permission settings: a call to its shell, file, web or
sub-agent tools is refused by the agent itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from benchmarks.errors import Refusal
from mcp_server.protocol import SERVER_NAME

MAX_EVENT_CHARS = 1024 * 1024
"""The longest stdout line read as an event: the usage lines are short, and a huge line parsed would cost the
harness many times its size in memory."""
VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?(?:[-+.][0-9A-Za-z.-]+)?")


class AgentSetupError(Refusal, RuntimeError):
    """The agent cannot be found, installed or started (one line saying what to do)."""


@dataclass(frozen=True)
class EpisodeSetup:
    """What an adapter writes one episode's agent from: where it runs and what it may reach."""

    workdir: Path
    """The agent's working directory: fresh and empty (nothing of the world, no task files)."""
    home: Path
    """Its HOME and config home: fresh, holding only what the adapter writes."""
    mcp_url: str
    """The episode's own MCP endpoint (streamable HTTP, loopback): shopbench's tools, inside the started episode."""
    base_url: str
    """The model bridge for this episode, as ANTHROPIC_BASE_URL."""
    openai_base_url: str
    """The same, as OPENAI_BASE_URL (…/v1)."""
    api_key: str
    """The bridge's key (the agent never sees a real API key: the bridge calls the model)."""
    model: str
    """The model name the agent is told (the bridge answers with the run's model whatever it asks for)."""
    prompt: str
    mcp_key: str = ""
    """The credential the episode's MCP address asks for (`Authorization: Bearer`, mcp_server.episode_keys)."""


@dataclass
class Launch:
    """How to start the agent: its command line and its whole environment (nothing is inherited). The command line
    holds no secret, address or prompt (any user of the machine reads it in /proc/<pid>/cmdline): they go in the
    environment, in 0600 files, or on stdin."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    stdin: Path | None = None
    """A file read as the agent's stdin (its prompt); None: /dev/null."""


class AgentAdapter:
    """One installed agent. Subclasses set the class attributes and write `launch`."""

    name: ClassVar[str]
    """What `--agent` takes and trajectories name."""
    package: ClassVar[str | None] = None
    """The pinned npm package ("name@version") installed on first use; None: found on the command line only."""
    executable: ClassVar[str] = ""
    """The package's executable (node_modules/.bin/<executable>)."""
    wire: ClassVar[str] = ""
    """The model API it speaks to the bridge (anthropic-messages, openai-responses, openai-chat)."""
    shell_tool: ClassVar[str] = ""
    """The agent's own shell tool, which its permission settings refuse (what the refusal test asks for)."""
    fixed_flags: ClassVar[list[str]] = []
    """The fixed flags it runs with (what `flags` returns)."""

    def launch(self, executable: Path, setup: EpisodeSetup) -> Launch:
        """Write the agent's config files into `setup.home` and return its command line and environment."""
        raise NotImplementedError

    def flags(self) -> list[str]:
        """The fixed flags it runs with (recorded in the manifest)."""
        return list(self.fixed_flags)

    def version(self, executable: Path) -> str:
        """The version the executable reports (`--version`), e.g. "2.1.332"."""
        return executable_version([str(executable), "--version"])

    def session_files(self, setup: EpisodeSetup) -> list[Path]:
        """The agent's own session transcript files, copied beside the trajectory."""
        return []

    def reported_usage(self, stdout: Iterable[str]) -> dict[str, Any]:
        """Tokens and cost as the agent reports them on stdout, read line by line (its own count; the bridge's
        ledger is the run's)."""
        return {}

    def agent_details(self, executable: Path | None) -> dict[str, Any]:
        """What identifies this agent beyond its name and version (recorded in the manifest and trajectories)."""
        return {"package": self.package} if self.package else {}


def base_env(setup: EpisodeSetup) -> dict[str, str]:
    """The environment every agent starts from: PATH (to find node), a locale, and its fresh HOME; never the user's
    HOME, API keys or anything else."""
    return {"PATH": agent_path(), "HOME": str(setup.home), "LANG": "C.UTF-8"}


def agent_path() -> str:
    """The PATH an agent gets: this process's, with node's folder first."""
    path = os.environ.get("PATH", os.defpath)
    node = shutil.which("node")
    return path if node is None else f"{Path(node).parent}{os.pathsep}{path}"


def mcp_servers(setup: EpisodeSetup, **extra: Any) -> dict[str, Any]:
    """The common `mcpServers` config shape with shopbench's endpoint and its credential (each agent adds its own
    keys)."""
    return {"mcpServers": {SERVER_NAME: {"type": "http", "url": setup.mcp_url, "headers": mcp_headers(setup),
                                         **extra}}}


def mcp_headers(setup: EpisodeSetup) -> dict[str, str]:
    return {"Authorization": f"Bearer {setup.mcp_key}"} if setup.mcp_key else {}


def prompt_file(setup: EpisodeSetup) -> Path:
    """The prompt in a 0600 file of the agent's home (what it reads on stdin)."""
    return write_private(setup.home / "prompt.txt", setup.prompt)


def write_json(path: Path, data: Any) -> Path:
    return write_private(path, json.dumps(data, indent=2))


def write_private(path: Path, text: str) -> Path:
    """Write a new file readable by this user only (0600), never through a symlink or over an existing file: an
    agent's config holds its episode's address and credentials."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    with os.fdopen(os.open(path, flags, 0o600), "w", encoding="utf-8") as out:
        out.write(text)
    return path


def executable_version(argv: list[str]) -> str:
    """The first version number an executable prints for `argv` (stdout, then stderr)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                              check=False)
    except (OSError, subprocess.SubprocessError) as error:
        raise AgentSetupError(f"{argv[0]} could not be run ({error})") from None
    found = VERSION.search(done.stdout) or VERSION.search(done.stderr)
    if done.returncode != 0 or found is None:
        shown = (done.stderr or done.stdout).strip().splitlines()
        raise AgentSetupError(f"{' '.join(argv)} exited {done.returncode} without a version"
                              f"{': ' + shown[-1] if shown else ''}")
    return found.group(0)


def json_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL stream (an agent's stdout), one at a time, skipping lines that are not and lines
    longer than MAX_EVENT_CHARS."""
    for line in lines:
        if len(line) > MAX_EVENT_CHARS:
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def result_usage(stdout: Iterable[str], *, with_cost: bool = False) -> dict[str, Any]:
    """Tokens, turns and permission denials from the last `result` event of a stream-json stdout (the shape Claude
    Code and qwen-code share), and its `total_cost_usd` when `with_cost`; {} without one."""
    result = None
    for event in json_lines(stdout):
        if event.get("type") == "result":
            result = event
    if result is None:
        return {}
    usage = result.get("usage") or {}
    tokens = {"input_tokens": usage.get("input_tokens"), "output_tokens": usage.get("output_tokens")}
    cost = {"cost_usd": result.get("total_cost_usd")} if with_cost else {}
    return tokens | cost | {"turns": result.get("num_turns"),
                            "permission_denials": result.get("permission_denials") or []}


def newest_files(root: Path, pattern: str) -> list[Path]:
    """Files under `root` matching `pattern` (the agent's session files), oldest first."""
    return sorted(root.glob(pattern), key=lambda path: path.stat().st_mtime) if root.is_dir() else []
