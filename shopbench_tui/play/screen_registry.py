"""Which screen a person plays a benchmark's episodes on: the TUI's part of a benchmark's registration.

A screen class is registered for one benchmark (`@register_play_screen(name="shoppingbench")`: the shopping
screen) or as the default of an episode format (`kind="qa"`: the question screen; `kind="agentic"`: a form for any
suite's tools), and `play_screen_for(benchmark)` finds the benchmark's own, else its kind's. The built-in screens'
modules are listed here and imported on first use; a plugin registers by importing its module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from benchmarks.part_registry import PartRegistry
from benchmarks.registry import get_benchmark
from shopbench_tui.play.episode_screen import EpisodeScreen

BUILTINS = ("shopbench_tui.play.screens", "shopbench_tui.play.tools_screen")
S = TypeVar("S", bound=type[EpisodeScreen])

SCREENS: PartRegistry[type[EpisodeScreen]] = PartRegistry("play screen", BUILTINS)


def register_play_screen(*, name: str | None = None, kind: str | None = None) -> Callable[[S], S]:
    """Class decorator: this screen plays the benchmark `name`, or every benchmark of `kind` without its own."""

    def decorate(screen: S) -> S:
        SCREENS.add(screen, name=name, kind=kind)
        return screen

    return decorate


def play_screen_for(benchmark: str) -> type[EpisodeScreen]:
    """The screen registered for this benchmark, else for its kind."""
    return SCREENS.find(get_benchmark(benchmark))
