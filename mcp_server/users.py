"""Who answers an agent's questions in a conversational episode: the protocols between a suite's `ask_user` tool and
whatever plays the user (a deterministic simulator, a model, a person).

A command's `--user` / `--user-model` / `--as-user` choose a `UserSource`; a suite makes one `User` per episode from
its task's profile (`for_profile`), and each `ask_user` call is one `answer`. The answer's text is what the agent
reads; its `UserTurn` is recorded with the step (mcp_server.episodes) and never shown. Nothing here knows shopping:
ShoppingBench's profile and rules user are in benchmarks.shoppingbench.conversation and
mcp_server.shopping.conversation.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from mcp_server.trajectory import UserTurn


@dataclass(frozen=True)
class UserAnswer:
    """One answer of the user: returned by a tool runner, recorded by `Episode.call`."""

    text: str
    """What the agent reads (the ask_user observation)."""
    turn: UserTurn
    """Recorded with the step, never shown."""


class User(Protocol):
    """The user of one episode, holding its task's profile."""

    def answer(self, question: str) -> UserAnswer: ...


class UserSource(Protocol):
    """What a command chose to play the user: makes one User per episode and says what the manifest records."""

    name: str
    """"rules" | "model:<spec>" | "person"."""

    def parameters(self) -> dict[str, Any]:
        """What decides its answers, for the run's manifest (seed, temperature, a hash of its rules or guidelines,
        the model's identity)."""
        ...

    def for_profile(self, profile: Any) -> User:
        """The user of one episode, answering from its task's profile (the suite's own type)."""
        ...


class UnknownUser(ValueError):
    """`--user` named no registered user source: one line naming the ones there are."""


USER_SOURCES: dict[str, Callable[[], UserSource]] = {}
"""`--user NAME` → what makes its source; built-ins register when BUILTIN_USERS are imported, others (a person in the
TUI, a plugin) with `register_user_source`."""
BUILTIN_USERS: tuple[str, ...] = ("mcp_server.shopping.conversation.rules_user",)
"""Modules whose import registers the built-in user sources (named by string: the generic server imports no
benchmark's room)."""


def register_user_source(name: str, factory: Callable[[], UserSource]) -> None:
    """Make `--user NAME` choose the source `factory()` makes (registering a name again replaces it)."""
    USER_SOURCES[name] = factory


def user_source(name: str) -> UserSource:
    """The user source `--user NAME` chose; UnknownUser, in one line, for a name none registered."""
    for module in BUILTIN_USERS:
        importlib.import_module(module)
    if name not in USER_SOURCES:
        raise UnknownUser(f"no user {name!r}: --user takes {', '.join(sorted(USER_SOURCES))}")
    return USER_SOURCES[name]()


def conversation_options(user: str | None, stated: int | None) -> dict[str, Any]:
    """open_environment's `user` and `stated` for `--user NAME --stated N`, the same on every face (run, serve, play,
    Inspect, Gym, verifiers); {} without a user: the task sets as they are. `--stated` alone, or below 0, is a
    ValueError in one line; an unknown user is UnknownUser."""
    if user is None:
        if stated is not None:
            raise ValueError("--stated sets how much a conversation's first message says: it needs --user (e.g. "
                             "--user rules)")
        return {}
    if stated is not None and stated < 0:
        raise ValueError(f"--stated must be 0 or more, not {stated}")
    return {"user": user_source(user), "stated": 1 if stated is None else stated}
