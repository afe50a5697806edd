"""A response cache that makes a repeated run free.

Keyed by sha256 of (model identity, GenerateConfig, tools, messages): the same request to the same model with the
same decoding parameters is answered from disk, marked `cached=True`. Each part is hashed as its compact JSON, one
per line (pydantic's own serializer: a growing chat history costs microseconds a message, not a re-encoding of the
whole history through Python's json module on every call). Runs vary `config.seed` per epoch, so epochs
sampled at temperature > 0 are not collapsed into one answer. Stored in one sqlite file (default
$SHOPBENCH_HOME/cache/responses.sqlite), safe to share between runs and processes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from benchmarks.home import shopbench_home
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolSpec, WrappedModel

log = logging.getLogger("shopbench.cache")


def default_cache_path() -> Path:
    return shopbench_home() / "cache" / "responses.sqlite"


KEY_VERSION = b"shopbench-response-cache/2\n"
"""First line of every hashed key: keys made another way (version 1 hashed one sorted JSON document) never match."""
_TOOLS = TypeAdapter(list[ToolSpec])


def cache_key(
    identity: dict[str, Any], config: GenerateConfig, messages: list[ChatMessage], tools: list[ToolSpec] | None
) -> str:
    """sha256 over lines: the version, the identity (sorted JSON), the config, the tools (or null), then one line per
    message. Compact JSON never holds a raw newline, so the lines cannot run into each other."""
    digest = hashlib.sha256(KEY_VERSION)
    digest.update(json.dumps(identity, sort_keys=True, ensure_ascii=False).encode())
    digest.update(b"\n")
    digest.update(config.model_dump_json().encode())
    digest.update(b"\n")
    digest.update(b"null" if tools is None else _TOOLS.dump_json(tools))
    for message in messages:
        digest.update(b"\n")
        digest.update(message.model_dump_json().encode())
    return digest.hexdigest()


class ResponseCache:
    """The sqlite store. Writes go behind: `put` hands the entry to one writer thread with its own connection, so the
    caller of a model (the event loop, between a model's reply and the next tool call) never waits on sqlite's
    write, which a busy disk can hold for milliseconds; `get` sees entries still waiting, and `close` writes them
    all. A write that fails is logged, never fatal (the entry is only a saving)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = self._connect()
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, output TEXT NOT NULL)")
        self._db.commit()
        self._pending: dict[str, str] = {}
        """key → output JSON, put but not yet written."""
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        db.execute("PRAGMA synchronous=NORMAL")  # a lost last entry after a power cut costs one model call
        db.execute("PRAGMA journal_mode=WAL")
        return db

    def get(self, key: str) -> ModelOutput | None:
        with self._lock:
            raw = self._pending.get(key)
            if raw is None:
                row = self._db.execute("SELECT output FROM responses WHERE key = ?", (key,)).fetchone()
                raw = None if row is None else row[0]
        return None if raw is None else ModelOutput.model_validate_json(raw)

    def put(self, key: str, output: ModelOutput) -> None:
        raw = output.model_dump_json()
        with self._lock:
            self._pending[key] = raw
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_behind, name="shopbench-response-cache",
                                                daemon=True)
                self._writer.start()
        self._queue.put(key)

    def _write_behind(self) -> None:
        db = self._connect()
        try:
            stop = False
            while not stop:
                keys = [self._queue.get()]
                while True:  # everything waiting goes in one transaction
                    try:
                        keys.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = None in keys
                with self._lock:
                    batch = [(key, self._pending[key]) for key in dict.fromkeys(keys) if key in self._pending]
                try:
                    db.executemany("INSERT OR REPLACE INTO responses (key, output) VALUES (?, ?)", batch)
                    db.commit()
                except sqlite3.Error as error:
                    log.warning("response cache %s: %d entries not written (%s)", self.path, len(batch), error)
                with self._lock:
                    for key, raw in batch:
                        if self._pending.get(key) is raw:
                            del self._pending[key]
        finally:
            db.close()

    def close(self) -> None:
        """Write what is still waiting, then close."""
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            self._queue.put(None)
            writer.join()
        with self._lock:
            self._db.close()


@dataclass
class CacheCounts:
    """Shared by the per-episode copies of one CachedModel (see bind_episode)."""

    hits: int = 0
    misses: int = 0


class CachedModel(WrappedModel):
    """Answers repeated requests from the cache; counts hits and misses for the manifest."""

    def __init__(self, inner: ModelAPI, cache: ResponseCache) -> None:
        super().__init__(inner)
        self.cache = cache
        self.counts = CacheCounts()
        self._identity = inner.identity()

    @property
    def hits(self) -> int:
        return self.counts.hits

    @property
    def misses(self) -> int:
        return self.counts.misses

    def identity(self) -> dict[str, Any]:
        return self._identity

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        config = config or GenerateConfig()
        key = cache_key(self._identity, config, messages, tools)
        stored = self.cache.get(key)
        if stored is not None:
            self.counts.hits += 1
            return stored.model_copy(update={"cached": True, "latency_s": 0.0})
        self.counts.misses += 1
        output = await self.inner.generate(messages, tools, config)
        self.cache.put(key, output)
        return output
