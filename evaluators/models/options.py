"""What building a backend takes besides its spec string: the options (CLI flags, test settings) and the factory's
shape. Apart from the registry so a provider's module can name them without importing the registry that loads it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evaluators.models.base import ModelAPI
from evaluators.models.context import ContextHints


@dataclass(frozen=True)
class ModelOptions:
    """Backend options that are not part of the spec string (CLI flags, test settings)."""

    n_gpu_layers: int = 0
    """llama.cpp: layers offloaded to the GPU (needs a CUDA build of llama-cpp-python; -1 = all)."""
    n_ctx: int = 8192
    """llama.cpp: context window in tokens."""
    timeout_s: float = 120.0
    """HTTP backends: seconds before a request counts as timed out (a transient error)."""
    seed: int = 0
    """Baselines: the seed their choices derive from."""
    hints: ContextHints = field(default_factory=ContextHints)
    """Backends that must fit a chat into a small context: how tool results may be shown and shortened (the agent
    protocol that writes them knows; the default knows nothing of any benchmark)."""
    extra: dict[str, Any] = field(default_factory=dict)


Factory = Callable[[str, ModelOptions], ModelAPI]
"""Builds a backend from the spec's argument (what follows "provider:") and the options."""
