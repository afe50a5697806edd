"""Grader audit: successful ShoppingBench episodes whose recommended ids the agent had no way to know.

The reference scorer checks only what was recommended, so an agent that guesses or is leaked a product id scores like
one that found it. This audit never changes a score; it flags, for reviewers, each successful episode with a
recommended id that
- never appeared in anything the agent received (the instruction or any tool observation): "never seen", or
- appeared only after the agent had already named it in a call (e.g. it viewed the gold ids before any search showed
  them, as the oracle baseline does): "named before seen".
Ids are matched as whole tokens in the JSON text of the observations, so id "12" is not found inside "123".
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from mcp_server.trajectory import Trajectory, iter_episode_files, read_trajectory


class AuditFlag(BaseModel):
    episode_id: str
    task_id: str
    intent: str | None
    never_seen: list[str] = Field(default_factory=list)
    named_before_seen: list[str] = Field(default_factory=list)

    def text(self) -> str:
        parts = []
        if self.never_seen:
            parts.append("never seen: " + ", ".join(self.never_seen))
        if self.named_before_seen:
            parts.append("named before seen: " + ", ".join(self.named_before_seen))
        return "; ".join(parts)


class AuditResult(BaseModel):
    successes: int
    """Successful episodes audited."""
    flags: list[AuditFlag] = Field(default_factory=list)

    def text(self) -> str:
        if not self.successes:
            return "no successes"
        if not self.flags:
            return f"0 of {self.successes} successes flagged"
        return f"{len(self.flags)} of {self.successes} successes use ids not seen first"


def _mentions(identifier: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(identifier)}(?![\w-])", text) is not None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def audit_trajectory(trajectory: Trajectory, recommended: list[str]) -> tuple[list[str], list[str]]:
    """(never seen, named before seen) among the `recommended` ids of one episode."""
    received = [trajectory.start.instruction] + [_text(step.observation) for step in trajectory.steps]
    never_seen, premature = [], []
    for identifier in dict.fromkeys(i for i in recommended if i.strip()):
        seen_at = next((index for index, text in enumerate(received) if _mentions(identifier, text)), None)
        if seen_at is None:
            never_seen.append(identifier)
            continue
        # received[0] is the instruction (seen before step 0); received[k + 1] is step k's observation, seen only
        # after step k's call was made. The id is grounded if it was received before the first call naming it.
        named_at = next((step.index for step in trajectory.steps
                         if _mentions(identifier, _text(step.arguments))), None)
        if named_at is not None and seen_at > named_at:
            premature.append(identifier)
    return never_seen, premature


def audit_run(run_dir: Path, result: Any) -> AuditResult:
    """Audit a scored ShoppingBench run (its results reader asks; question benchmarks recommend nothing)."""
    successful = {s.episode_id: s for s in result.scores if s.success and s.episode_id}
    audit = AuditResult(successes=len(successful))
    for path in iter_episode_files(run_dir):
        try:
            trajectory = read_trajectory(path)
        except (ValueError, OSError):
            continue
        score = successful.get(trajectory.episode_id)
        if score is None:
            continue
        ids = (score.answer or "").split(",")
        never_seen, premature = audit_trajectory(trajectory, [i.strip() for i in ids])
        if never_seen or premature:
            audit.flags.append(AuditFlag(episode_id=trajectory.episode_id, task_id=score.task_id,
                                         intent=score.intent, never_seen=never_seen, named_before_seen=premature))
    return audit
