"""Which player plays a run, and whether the options given apply to it: an installed agent's player with `--agent`,
else the benchmark's player part (evaluators.parts). Decided here, above both players' modules, so that neither the
run's configuration nor the players name another module in a string to reach it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.names import did_you_mean
from benchmarks.registry import BenchmarkSpec
from evaluators.harness.config import OPTION_FLAGS, RunConfig, RunOptionError, check_execution
from evaluators.harness.orchestrate import RunDirError
from evaluators.harness.players import Player
from evaluators.parts import parts_for
from mcp_server.protocol import MAX_EPOCHS


def player_class(config: RunConfig, spec: BenchmarkSpec) -> Any:
    """The class that plays this run: the installed-agent player with `--agent`, else the benchmark's player part
    (called with the config and spec)."""
    if config.execution.agent is not None:
        from evaluators.harness.installed import InstalledAgentPlayer  # its bridge and agents load only for --agent

        return InstalledAgentPlayer
    return parts_for(spec).load("player")


def make_player(config: RunConfig, spec: BenchmarkSpec) -> Player:
    """The benchmark's player (its parts' `player`, or the installed agent `--agent` names) for this run; a bad
    model spec or agent fails here, before any world is opened."""
    player: Player = player_class(config, spec)(config, spec)
    return player


def check_options(spec: BenchmarkSpec, config: RunConfig) -> None:
    """Refuse options that mean nothing for this benchmark (silently ignoring them would mislead): its player says
    which it takes and which of them chooses among the benchmark's promptings."""
    player = player_class(config, spec)
    takes: tuple[str, ...] = player.options_for(spec)
    given = [flag for name, flag in OPTION_FLAGS.items()
             if name not in takes and getattr(config.options, name) is not None]
    if given:
        accepted = ", ".join(OPTION_FLAGS[name] for name in takes) or "none of them"
        raise RunOptionError(f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to {spec.name} "
                             f"({player.plays}, which takes {accepted})")
    chosen = getattr(config.options, player.prompting_option)
    if chosen is not None and chosen not in spec.promptings:
        hint = did_you_mean(chosen, spec.promptings)
        raise RunOptionError(f"{spec.name} supports {OPTION_FLAGS[player.prompting_option]} "
                             f"{', '.join(spec.promptings)}; not {chosen!r}" + (f".{hint}" if hint else ""))
    epochs = config.selection.epochs
    if not 1 <= epochs <= MAX_EPOCHS:
        raise RunOptionError(f"--epochs must be 1 to {MAX_EPOCHS} (epochs are numbered 0..{MAX_EPOCHS - 1}); "
                             f"got {epochs}")
    check_execution(config.execution)
    out = config.execution.out
    if config.execution.resume and (out is None or not Path(out).is_dir()):
        where = "needs --out (the run folder to continue)" if out is None else f"{out} does not exist"
        raise RunDirError(f"--resume {where}; start a new run without --resume")
