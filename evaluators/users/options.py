"""`--user-model SPEC` beside `--user NAME`: what a run's environment is opened with (`user`, `stated`).

A model user is built from the run's own settings (its seed, its response cache, llama.cpp's context and GPU layers)
and registered under its name ("model:<spec>") with mcp_server.users' hook, so `conversation_options` checks
`--stated` the same way for every user. Each process that opens the environment (the run's, or a Ray worker) builds
its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.errors import BadInput
from evaluators.models import ModelOptions
from mcp_server.suite_registry import conversation_options
from mcp_server.users import register_user_source


class UserOptionError(BadInput):
    """--user and --user-model given together."""


def conversation_for(user: str | None, user_model: str | None, stated: int | None, *, seed: int = 0,
                     cache: bool = True, cache_path: Path | None = None,
                     options: ModelOptions | None = None) -> dict[str, Any]:
    """open_environment's `user` and `stated`: the model user `user_model` names (ModelSpecError for a spec no
    backend takes), else `--user`'s (mcp_server.suite_registry.conversation_options)."""
    if user_model is None:
        return conversation_options(user, stated)
    if user is not None:
        raise UserOptionError(f"give --user or --user-model, not both (--user {user} --user-model {user_model})")
    from evaluators.users.model_user import ModelUserSource  # a model and its SDK load only when a model plays the user

    source = ModelUserSource(user_model, seed=seed, cache=cache, cache_path=cache_path, options=options)
    register_user_source(source.name, lambda: source)
    return conversation_options(source.name, stated)
