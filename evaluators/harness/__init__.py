"""The run harness: `shopbench run` for every benchmark (run.py), its options (config.py), its players (players.py),
and the machinery they share.

- `run_episodes(run_dir, units, episode_fn, concurrency=, resume=, progress=)` (orchestrate): plays WorkUnits with
  bounded concurrency; resume skips finished episodes and replays unfinished ones (partial files set aside).
- `prepare_model(spec, options, cache=, retry=)` (backend): a backend wrapped in retries with backoff and the
  response cache; `PreparedModel.counters()` for the manifest.
- `open_run` / `update_notes` / `package_versions` / `git_revision` / `prompt_hashes` (manifest): reproducibility
  info and the resume check; `merge_runs` (merge) joins shards chosen with `parse_shard` (shards).
- `RichProgress` (progress): the bar; signals and run_log: stopping in order, the run's log file.

Submodules are imported on use (`from evaluators.harness.orchestrate import run_episodes`) so that importing one
part does not pull in rich or sqlite.
"""
