"""Run machinery on its own: retries with backoff, the response cache, prices, shards, resume bookkeeping, merge."""

from __future__ import annotations

import pytest

import evaluators.players.baselines  # noqa: F401 - registers the baselines as model specs
from evaluators.harness.backend import prepare_model
from evaluators.harness.manifest import ManifestMismatch, open_run
from evaluators.harness.merge import MergeError, merge_runs
from evaluators.harness.orchestrate import PARTIAL_DIR, RunDirError, WorkUnit, episode_state, run_episodes
from evaluators.harness.retry import RetryPolicy
from evaluators.harness.shards import parse_shard
from evaluators.models import ChatMessage, GenerateConfig, ModelOptions, TokenUsage, ToolSpec
from evaluators.players.pricing import PriceTable
from mcp_server.trajectory import (
    AgentInfo,
    EndEvent,
    RunManifest,
    StartEvent,
    TrajectoryWriter,
    episode_path,
    iter_episode_files,
    read_manifest,
)
from tests._fake_llm import FakeLLMServer

CHAT = [ChatMessage(role="user", content="Find a shirt.")]
TOOLS = [ToolSpec(name="terminate", parameters={"type": "object", "properties": {"status": {"type": "string"}}})]
FAST = RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05)


def _policy(body):
    return "", [("terminate", {"status": "success"})]


async def test_429_and_500_are_retried_with_backoff_and_counted(tmp_path):
    with FakeLLMServer("openai", _policy, script=[429, 500]) as fake:
        prepared = prepare_model(f"openai-compatible:{fake.base_url}#m", cache=False, retry=FAST)
        output = await prepared.model.generate(CHAT, TOOLS)
        await prepared.aclose()
    assert output.tool_calls[0].name == "terminate"
    assert len(fake.requests) == 3
    counters = prepared.counters()
    assert counters["retries"] == 2 and counters["gave_up"] == 0
    assert "RateLimitError" in counters["transient_errors"][0] and "500" in counters["transient_errors"][1]


async def test_a_timeout_is_retried():
    with FakeLLMServer("openai", _policy, script=[1.5]) as fake:
        prepared = prepare_model(f"openai-compatible:{fake.base_url}#m", ModelOptions(timeout_s=0.3), cache=False,
                                 retry=FAST)
        output = await prepared.model.generate(CHAT, TOOLS)
        await prepared.aclose()
    assert output.tool_calls[0].name == "terminate" and prepared.retry_stats.retries == 1


async def test_retries_give_up_after_the_limit():
    from evaluators.models import TransientModelError

    with FakeLLMServer("openai", _policy, script=[503] * 10) as fake:
        prepared = prepare_model(f"openai-compatible:{fake.base_url}#m", cache=False, retry=FAST)
        with pytest.raises(TransientModelError):
            await prepared.model.generate(CHAT, TOOLS)
        await prepared.aclose()
    assert len(fake.requests) == FAST.max_retries + 1 and prepared.retry_stats.gave_up == 1


async def test_cache_answers_a_repeated_request_without_http(tmp_path):
    cache = tmp_path / "responses.sqlite"
    config = GenerateConfig(temperature=0, seed=1)
    with FakeLLMServer("openai", _policy) as fake:
        first = prepare_model(f"openai-compatible:{fake.base_url}#m", cache_path=cache)
        fresh = await first.model.generate(CHAT, TOOLS, config)
        await first.aclose()
        again = prepare_model(f"openai-compatible:{fake.base_url}#m", cache_path=cache)
        cached = await again.model.generate(CHAT, TOOLS, config)
        other_seed = await again.model.generate(CHAT, TOOLS, config.model_copy(update={"seed": 2}))
        await again.aclose()
    assert not fresh.cached and cached.cached and not other_seed.cached
    assert cached.tool_calls == fresh.tool_calls and cached.usage == fresh.usage
    assert len(fake.requests) == 2  # the first call and the other seed; the repeat made none
    assert again.counters()["cache_hits"] == 1 and again.counters()["cache_misses"] == 1


def test_prices_match_the_longest_prefix_and_a_file_extends_them(tmp_path):
    table = PriceTable.load()
    usage = TokenUsage(input_tokens=1_000_000, output_tokens=1_000_000)
    assert table.cost("openai:gpt-4.1-mini", "gpt-4.1-mini-2025-04-14", usage) == pytest.approx(2.0)
    assert table.cost("openai:gpt-4.1", "gpt-4.1-2025-04-14", usage) == pytest.approx(10.0)
    assert table.cost("llama-cpp:smollm2", "x.gguf", usage) == 0.0
    for baseline in ("heuristic", "naive", "random", "oracle"):  # every scripted baseline runs here, for nothing
        assert table.cost(baseline, baseline, usage) == 0.0
    assert table.cost("openai-compatible:http://h/v1#my-model", "my-model", usage) is None
    prices = tmp_path / "prices.toml"
    prices.write_text('["my-model"]\ninput = 1.0\noutput = 3.0\n')
    assert PriceTable.load(prices).cost("openai-compatible:http://h/v1#my-model", "my-model", usage) == 4.0
    bad = tmp_path / "bad.json"
    bad.write_text('{"m": {"input": 1}}')
    with pytest.raises(ValueError, match="bad.json"):
        PriceTable.load(bad)


def test_shards_partition_the_units_exactly():
    units = list(range(11))
    shards = [parse_shard(f"{i}/3").select(units) for i in (1, 2, 3)]
    assert sorted(u for shard in shards for u in shard) == units
    assert [len(s) for s in shards] == [4, 4, 3]
    for bad in ("0/3", "4/3", "1-3", "a/b"):
        with pytest.raises(ValueError, match="i/n"):
            parse_shard(bad)


AGENT = AgentInfo(kind="baseline", name="scripted")


def _manifest(**parameters) -> RunManifest:
    return RunManifest(run_id="r", benchmark="test", task_set="s", agent=AGENT, parameters=parameters)


def _write_episode(run_dir, unit: WorkUnit, finish: str | None = "terminated") -> None:
    with TrajectoryWriter(episode_path(run_dir, unit.episode_id)) as writer:
        writer.write(StartEvent(episode_id=unit.episode_id, benchmark="test", task_set="s", task_id=unit.item_id,
                                epoch=unit.epoch, instruction="do it", agent=AGENT, max_steps=3))
        if finish:
            writer.write(EndEvent(status=finish))


def _units(n: int) -> list[WorkUnit]:
    return [WorkUnit(episode_id=f"t{i}-e0", item_id=f"t{i}") for i in range(n)]


async def test_resume_skips_finished_and_replays_unfinished_and_failed(tmp_path):
    units = _units(5)
    _write_episode(tmp_path, units[0])
    _write_episode(tmp_path, units[1], finish=None)  # killed mid-episode
    _write_episode(tmp_path, units[2], finish="error")  # the harness failed
    played: list[str] = []

    async def play(unit: WorkUnit) -> None:
        played.append(unit.episode_id)
        if unit.item_id == "t4":
            raise RuntimeError("model exploded")
        _write_episode(tmp_path, unit)

    with pytest.raises(RunDirError, match="--resume"):
        await run_episodes(tmp_path, units, play)
    summary = await run_episodes(tmp_path, units, play, concurrency=2, resume=True)
    assert sorted(played) == ["t1-e0", "t2-e0", "t3-e0", "t4-e0"]
    assert summary.skipped == 1 and summary.completed == 3 and list(summary.failed) == ["t4-e0"]
    assert "model exploded" in summary.failed["t4-e0"]
    assert sorted(p.name for p in (tmp_path / PARTIAL_DIR).iterdir()) == ["t1-e0.attempt1.jsonl",
                                                                          "t2-e0.attempt1.jsonl"]
    assert [episode_state(tmp_path, u.episode_id) for u in units] == ["finished"] * 4 + ["missing"]
    played.clear()
    summary = await run_episodes(tmp_path, units[:4], play, resume=True)
    assert played == [] and summary.skipped == 4


def test_resume_refuses_a_different_run(tmp_path):
    open_run(tmp_path, _manifest(temperature=0.0), resume=False)
    open_run(tmp_path, _manifest(temperature=0.0), resume=True)
    assert len(read_manifest(tmp_path).notes["resumed"]) == 1
    with pytest.raises(ManifestMismatch, match="parameters.temperature: 0.0 != 0.7"):
        open_run(tmp_path, _manifest(temperature=0.7), resume=True)


def test_merge_joins_shards_and_refuses_mismatches_and_duplicates(tmp_path):
    units = _units(4)
    a, b, c, d = (tmp_path / name for name in "abcd")
    open_run(a, _manifest(shard="1/2"), resume=False)
    open_run(b, _manifest(shard="2/2"), resume=False)
    for unit in units[:2]:
        _write_episode(a, unit)
    _write_episode(b, units[2])
    _write_episode(b, units[3], finish=None)
    result = merge_runs([a, b], tmp_path / "merged")
    assert result.episodes == 3 and result.unfinished == [f"{b}:t3-e0"]
    assert [p.stem for p in iter_episode_files(tmp_path / "merged")] == ["t0-e0", "t1-e0", "t2-e0"]
    merged = read_manifest(tmp_path / "merged")
    assert "shard" not in merged.parameters and len(merged.notes["merged_from"]) == 2

    open_run(c, _manifest(shard="2/2", temperature=1.0), resume=False)
    with pytest.raises(ManifestMismatch, match="temperature"):
        merge_runs([a, c], tmp_path / "m2")
    open_run(d, _manifest(shard="2/2"), resume=False)
    _write_episode(d, units[0])
    with pytest.raises(MergeError, match="t0-e0 is finished in both"):
        merge_runs([a, d], tmp_path / "m3")
    with pytest.raises(MergeError, match="already holds episodes"):
        merge_runs([a, b], tmp_path / "merged")


async def test_episode_binding_reaches_a_baseline_inside_retry_and_cache_wrappers(tmp_path):
    from benchmarks.shoppingbench.schema import ShoppingTask, Target
    from evaluators.harness.cache import CachedModel, ResponseCache
    from evaluators.harness.retry import RetryingModel
    from evaluators.models import EpisodeContext, bind_episode, get_model

    wrapped = CachedModel(RetryingModel(get_model("oracle")), ResponseCache(tmp_path / "c.sqlite"))
    task = ShoppingTask(task_id="shop-0000", task_set="s", intent="shop", task_index=0, query="q",
                        targets=[Target(product_id="a", title=["A"]), Target(product_id="b", title=["B"])])
    bound = bind_episode(wrapped, EpisodeContext(episode_id="shop-0000-e0", item_id="shop-0000", gold=task))
    assert bound is not wrapped and bound.cache is wrapped.cache
    first = await bound.generate(CHAT, TOOLS)
    assert first.tool_calls[0].name == "find_product" and first.tool_calls[0].arguments["q"] == "A"
    assert wrapped.misses == 1  # counters are shared with the per-episode copy
    wrapped.cache.close()  # its writer thread ends (a later test counts the cache's writer threads)
