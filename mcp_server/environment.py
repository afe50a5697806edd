"""One way into the sandbox: `open_environment` gives every player — `serve`, `run`, `play`, Inspect, Gym, the
installed-agent runner — the same suites, world and MCP server for the benchmarks it names, with one place for the
defaults (the step limit is `mcp_server.protocol.DEFAULT_MAX_STEPS`, which `max_steps=None` means everywhere)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_server.protocol import TaskListing
from mcp_server.suite_registry import build_suites
from mcp_server.suites import NotPlayable, SuiteOptions, SuiteWorld, TaskSuite, check_playable

if TYPE_CHECKING:
    from mcp_server.background_sandboxes import BackgroundSandboxes
    from mcp_server.server import ShopbenchServer
    from mcp_server.users import UserSource


@dataclass
class Environment:
    """The suites of the chosen benchmarks, their world (None when none needs one) and the MCP server over them.

    The server is built on first use: a run played against a remote `shopbench serve` checks its selection here and
    never opens the world's search indexes in its own process. With `background` its sandboxes (Java, the Lucene
    indexes) open in a thread `open_in_background()` starts, so it answers clients at once: `serve` over
    stdio, whose client waits seconds for the handshake."""

    suites: list[TaskSuite]
    world: SuiteWorld | None
    runs_dir: Path
    max_steps: int | None = None
    agent_defaults: Mapping[str, Any] = field(default_factory=dict)
    single_client: bool = False
    background: bool = False

    @functools.cached_property
    def server(self) -> ShopbenchServer:
        """The one MCPServer every player talks to (in memory, over stdio or over HTTP)."""
        from mcp_server.server import build_server

        return build_server(self.world, self.suites, self.runs_dir, max_steps=self.max_steps,
                            agent_defaults=dict(self.agent_defaults), single_client=self.single_client,
                            sandboxes=self._background_sandboxes if self.background else None)

    @functools.cached_property
    def _background_sandboxes(self) -> BackgroundSandboxes:
        from mcp_server.background_sandboxes import BackgroundSandboxes

        return BackgroundSandboxes(self.suites)

    def open_in_background(self) -> None:
        """Start opening the sandboxes of an environment opened with `background=True` (once the transport holds
        stdout: the JVM may write there); the first start_task waits for its suite's. Nothing when not."""
        if self.background:
            self._background_sandboxes.start()

    def selection(
        self,
        *,
        intents: Sequence[str] | None = None,
        task_ids: list[str] | None = None,
        limit: int | None = None,
    ) -> list[tuple[TaskSuite, TaskListing]]:
        """The tasks chosen by intent, id and `limit`; raises NotPlayable (one line naming the fix) before anything is
        written when the suites cannot start episodes here or nothing is selected."""
        return check_playable(self.suites, intents=tuple(intents) if intents else None, task_ids=task_ids,
                              limit=limit)


def open_environment(
    benchmarks: Sequence[str],
    *,
    runs_dir: Path,
    world: Path | SuiteWorld | None = None,
    task_set: str | None = None,
    items: Path | str | None = None,
    prompting: str | None = None,
    shots: int = 0,
    seed: int = 0,
    max_steps: int | None = None,
    agent_defaults: Mapping[str, Any] | None = None,
    single_client: bool = False,
    background: bool = False,
    build_world: bool = True,
    user: UserSource | None = None,
    stated: int = 1,
) -> Environment:
    """The environment for these registered benchmarks: their suites, the world the agentic ones need (opened from
    `world`, or the default world) and, on first use, the server writing episodes under `runs_dir`.

    `task_set` (agentic: the world's task set), `items` (one question benchmark's items file), `prompting`, `shots`
    and `seed` (question prompts) choose what is served; `max_steps` (None: DEFAULT_MAX_STEPS) bounds an episode;
    `agent_defaults` names who plays when a client does not; `single_client` (stdio) treats every request as one
    client; `background` opens the server's sandboxes in a thread (see Environment). `build_world=False` refuses
    (WorldNotBuilt) to spend a minute building the default world when it is missing. Unknown names raise
    UnknownBenchmarkError; bad data DataFileError; a missing world FileNotFoundError, a missing task set
    UnknownTaskSet. `user` (who answers `ask_user`: `--user`, `--user-model`, `--as-user`) plays the task sets that
    can be conversations as such, their openers stating `stated` constraints. Nothing is written here."""
    served = SuiteOptions(world=world, task_set=task_set, items=items, prompting=prompting, shots=shots, seed=seed,
                          build_world=build_world, user=user, stated=stated)
    opened, suites = build_suites(list(benchmarks), served)
    if user is not None and not any(getattr(suite, "user", None) is user for suite in suites):
        names = ", ".join(suite.benchmark for suite in suites)
        raise NotPlayable(f"--user: {names} cannot be played as a conversation (no task set of it holds back what "
                          "the user wants)")
    return Environment(suites=suites, world=opened, runs_dir=Path(runs_dir), max_steps=max_steps,
                       agent_defaults=dict(agent_defaults or {}), single_client=single_client,
                       background=background)
