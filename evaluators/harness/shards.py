"""Deterministic sharding: shard i of n plays every n-th unit of the run's unit list, starting at the i-th.

Every shard must be started with the same options (the manifests must match for `shopbench merge`), so each builds
the same unit list and the shards partition it exactly, with balanced sizes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from benchmarks.errors import BadInput

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    index: int
    """1-based."""
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def select(self, units: Sequence[T]) -> list[T]:
        return list(units[self.index - 1 :: self.count])


def parse_shard(text: str) -> Shard:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match:
        raise BadInput(f"--shard takes i/n with 1 <= i <= n (e.g. 1/4), got {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if not 1 <= index <= count:
        raise BadInput(f"--shard takes i/n with 1 <= i <= n (e.g. 1/4), got {text!r}")
    return Shard(index, count)
