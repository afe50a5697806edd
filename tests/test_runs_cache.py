"""The response cache: keys that tell requests apart, writes behind the caller that are seen at once and all kept."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import evaluators.players.baselines  # noqa: F401 - registers the baselines as model specs
from evaluators.harness.cache import CachedModel, ResponseCache, cache_key
from evaluators.harness.retry import RetryingModel
from evaluators.models.base import ChatMessage, GenerateConfig, ModelOutput, ToolCall, ToolSpec

CHAT = [ChatMessage(role="system", content="sys"), ChatMessage(role="user", content="find a red\nshirt")]
TOOLS = [ToolSpec(name="find_product", description="d", parameters={"type": "object", "properties": {}})]


def test_cache_key_tells_every_part_apart() -> None:
    identity, config = {"spec": "m", "file": "x"}, GenerateConfig()
    base = cache_key(identity, config, CHAT, TOOLS)
    assert base == cache_key(dict(reversed(identity.items())), config, list(CHAT), list(TOOLS))  # same request
    others = [
        cache_key({"spec": "m2", "file": "x"}, config, CHAT, TOOLS),
        cache_key(identity, GenerateConfig(seed=1), CHAT, TOOLS),
        cache_key(identity, config, CHAT, None),
        cache_key(identity, config, CHAT[:1], TOOLS),
        cache_key(identity, config, [*CHAT, ChatMessage(role="assistant", content="")], TOOLS),
        # a newline inside a message must not read as a message boundary
        cache_key(identity, config, [CHAT[0], ChatMessage(role="user", content="find a red"),
                                     ChatMessage(role="user", content="shirt")], TOOLS),
    ]
    assert len({base, *others}) == len(others) + 1


def test_entries_written_behind_are_seen_at_once_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    outputs = {f"k{i}": ModelOutput(text=f"answer {i}", tool_calls=[ToolCall(id="c", name="t")]) for i in range(200)}
    for key, output in outputs.items():
        cache.put(key, output)
        assert cache.get(key) == output  # seen before (or after) the writer thread wrote it
    assert cache.get("missing") is None
    cache.close()
    rows = dict(sqlite3.connect(path).execute("SELECT key, output FROM responses").fetchall())
    assert set(rows) == set(outputs)
    reopened = ResponseCache(path)
    assert all(reopened.get(key) == output for key, output in outputs.items())
    reopened.close()
    assert not [t for t in threading.enumerate() if t.name == "shopbench-response-cache"]


async def test_a_repeated_request_is_answered_from_the_cache(tmp_path: Path) -> None:
    from evaluators.models import get_model

    calls = []

    class Counting(RetryingModel):
        async def generate(self, messages, tools=None, config=None):  # type: ignore[no-untyped-def]
            calls.append(1)
            return ModelOutput(text="hello")

    model = CachedModel(Counting(get_model("random")), ResponseCache(tmp_path / "c.sqlite"))
    first = await model.generate(CHAT, TOOLS)
    second = await model.generate(CHAT, TOOLS)
    assert not first.cached and second.cached and second.text == "hello" and len(calls) == 1
    assert (model.hits, model.misses) == (1, 1)
    model.cache.close()
