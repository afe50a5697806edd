"""Join shard runs (or any runs of the same configuration) into one run directory.

Refuses runs whose decisive manifest fields differ (shard number aside) and any episode finished in two inputs.
Unfinished episodes are not copied: the merged run lists them in its notes so they can be rerun.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.errors import Refusal
from evaluators.harness.manifest import ManifestMismatch, decisive, differences, new_run_id
from evaluators.harness.orchestrate import episode_state, transcript_dir
from mcp_server.trajectory import EPISODES_DIR, iter_episode_files, read_manifest, write_manifest


@dataclass
class MergeResult:
    out: Path
    episodes: int = 0
    unfinished: list[str] = field(default_factory=list)


class MergeError(Refusal, RuntimeError):
    pass


def merge_runs(runs: list[Path], out: Path) -> MergeResult:
    if not runs:
        raise MergeError("nothing to merge")
    out = Path(out)
    if (out / EPISODES_DIR).exists() and any((out / EPISODES_DIR).iterdir()):
        raise MergeError(f"{out} already holds episodes; merge into a new directory")
    manifests = [read_manifest(run) for run in runs]
    reference = decisive(manifests[0], ignore_parameters=("shard",))
    for run, manifest in zip(runs[1:], manifests[1:], strict=True):
        diff = differences(reference, decisive(manifest, ignore_parameters=("shard",)))
        if diff:
            raise ManifestMismatch(f"{run} is not the same run as {runs[0]}: " + "; ".join(diff))
    sources: dict[str, Path] = {}
    result = MergeResult(out=out)
    for run in runs:
        for path in iter_episode_files(run):
            episode_id = path.stem
            if episode_state(run, episode_id) != "finished":
                result.unfinished.append(f"{run}:{episode_id}")
                continue
            if episode_id in sources:
                raise MergeError(f"episode {episode_id} is finished in both {sources[episode_id]} and {run}")
            sources[episode_id] = run
    (out / EPISODES_DIR).mkdir(parents=True, exist_ok=True)
    for episode_id, run in sorted(sources.items()):
        shutil.copy2(Path(run) / EPISODES_DIR / f"{episode_id}.jsonl", out / EPISODES_DIR / f"{episode_id}.jsonl")
        if (transcript := transcript_dir(run, episode_id)).is_dir():  # an installed agent's, beside its episode
            shutil.copytree(transcript, transcript_dir(out, episode_id))
    merged = manifests[0].model_copy(deep=True)
    merged.run_id = new_run_id("merged")
    merged.parameters.pop("shard", None)
    merged.notes = {
        "merged_from": [
            {"run": str(run), "run_id": m.run_id, **m.notes} for run, m in zip(runs, manifests, strict=True)
        ],
        "unfinished_not_merged": result.unfinished,
    }
    write_manifest(out, merged)
    result.episodes = len(sources)
    return result
