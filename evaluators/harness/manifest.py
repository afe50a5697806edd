"""Reproducibility info for a run: package versions, git revision, prompt hashes; and the resume/merge checks.

A run's manifest is written when it starts. Resuming or merging is allowed only when the parts that decide the
results (benchmark, task set, agent identity, parameters, prompts, world) are identical; versions and revision are
informative and a change is noted rather than refused.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcp_server.episodes import git_revision
from mcp_server.episodes import package_versions as installed_versions
from mcp_server.qa_suites import QASuite
from mcp_server.suites import TaskSuite
from mcp_server.trajectory import (
    MANIFEST_FILE,
    RunManifest,
    manifest_lock,
    prompt_hashes,
    read_manifest,
    write_manifest,
)

KEY_PACKAGES = (
    "shopbench",
    "mcp",
    "pydantic",
    "pyserini",
    "llama_cpp_python",
    "openai",
    "anthropic",
    "sentence-transformers",
    "torch",
)
DECISIVE_FIELDS = ("benchmark", "task_set", "agent", "parameters", "prompts", "world")
"""Manifest fields that must match for a resume or a merge; `parameters.shard` is ignored when merging."""


__all__ = [
    "DECISIVE_FIELDS", "KEY_PACKAGES", "ManifestMismatch", "decisive", "demonstration_parameters", "differences",
    "git_revision", "new_run_id", "open_run", "package_versions", "prompt_hashes", "update_notes",
]


def package_versions(names: tuple[str, ...] = KEY_PACKAGES) -> dict[str, str]:
    """Installed versions of the packages that can change a run's results."""
    return installed_versions(names)


def demonstration_parameters(suite: TaskSuite) -> dict[str, Any]:
    """`{"demonstrations": {rule, count, ids}}` for a suite that holds items out as few-shot demonstrations, else {}.

    Which items a run serves follows from it, so it is a parameter (a resume or merge must match it); a suite that
    holds nothing out adds nothing, and zero-shot manifests stay as they were."""
    held_out = suite.demonstrations if isinstance(suite, QASuite) else None
    if held_out is None:
        return {}
    return {"demonstrations": {"rule": held_out.rule, "count": len(held_out.ids), "ids": held_out.ids}}


def conversation_parameters(suite: TaskSuite) -> dict[str, Any]:
    """A task set played as a conversation: its user, opener size and profile seed (the suite's manifest
    parameters), which decide what the agent is told and answered; {} for any other, so their manifests stay as
    they were."""
    from mcp_server.shopping.suite import ConversationalShoppingSuite

    return suite.manifest_parameters() if isinstance(suite, ConversationalShoppingSuite) else {}


def new_run_id(label: str) -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return f"{label}-{stamp}-{uuid.uuid4().hex[:6]}"


def decisive(manifest: RunManifest, ignore_parameters: tuple[str, ...] = ()) -> dict[str, Any]:
    data = manifest.model_dump(mode="json", include=set(DECISIVE_FIELDS))
    data["parameters"] = {k: v for k, v in data["parameters"].items() if k not in ignore_parameters}
    return data


def differences(a: dict[str, Any], b: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted paths where two manifests' decisive parts differ (for a readable refusal)."""
    paths = []
    for key in sorted(set(a) | set(b)):
        left, right = a.get(key), b.get(key)
        if isinstance(left, dict) and isinstance(right, dict):
            paths += differences(left, right, f"{prefix}{key}.")
        elif left != right:
            paths.append(f"{prefix}{key}: {left!r} != {right!r}")
    return paths


class ManifestMismatch(RuntimeError):
    pass


def open_run(run_dir: Path, manifest: RunManifest, resume: bool) -> RunManifest:
    """Write the manifest of a new run, or on resume check it against the stored one and keep the stored run id."""
    run_dir = Path(run_dir)
    if resume and (run_dir / MANIFEST_FILE).exists():
        stored = read_manifest(run_dir)
        diff = differences(decisive(stored), decisive(manifest))
        if diff:
            raise ManifestMismatch(f"cannot resume {run_dir}: the run differs from the stored one: " + "; ".join(diff))
        resumed = stored.notes.get("resumed", [])
        stored.notes["resumed"] = [
            *resumed,
            {"at": datetime.now(UTC).isoformat(), "git_revision": manifest.git_revision, "packages": manifest.packages},
        ]
        write_manifest(run_dir, stored)
        return stored
    write_manifest(run_dir, manifest)
    return manifest


def update_notes(run_dir: Path, **notes: Any) -> None:
    """Merge counters (retries, cache hits, failures) into the stored manifest's notes."""
    with manifest_lock(run_dir):
        manifest = read_manifest(run_dir)
        manifest.notes.update(notes)
        write_manifest(run_dir, manifest)
