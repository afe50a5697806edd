"""Live `web_search` with a replay cache.

The reference calls a live search API (Serper, Google results) with no cache, so its runs cannot be repeated.
shopbench answers `web_search` from the world's offline corpus unless a provider is chosen:

    SHOPBENCH_WEB_SEARCH_PROVIDER=serper  SERPER_API_KEY=...   (SERPER_KEY, the reference's name, also works)

Every live answer is appended to a JSONL cache (SHOPBENCH_WEB_SEARCH_CACHE, default `<world>/web_search_cache.jsonl`)
and replayed for the same (provider, query, max_results) afterwards; without a key, cached queries still replay.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import httpx

from benchmarks.errors import BadInput
from mcp_server.shopping.search.backends import WebSearchBackend
from mcp_server.toolbox import ToolCallError

PROVIDER_ENV = "SHOPBENCH_WEB_SEARCH_PROVIDER"
CACHE_ENV = "SHOPBENCH_WEB_SEARCH_CACHE"
SERPER_URL_ENV = "SHOPBENCH_SERPER_URL"
"""Override of the Serper endpoint (tests point it at a local server)."""
CACHE_FILE = "web_search_cache.jsonl"


class WorldFolder(Protocol):
    """What the live search needs of a world (mcp_server.shopping.world.World): its offline corpus and its folder."""

    @property
    def root(self) -> Path: ...

    @property
    def knowledge(self) -> WebSearchBackend: ...


class SerperProvider:
    """google.serper.dev, as the reference uses it: organic results mapped to {url, title, content}."""

    name = "serper"
    default_url = "https://google.serper.dev/search"

    def __init__(self, api_key: str, url: str | None = None, timeout_s: float = 30.0) -> None:
        self.api_key, self.url, self.timeout_s = api_key, url or self.default_url, timeout_s

    def search(self, q: str, max_results: int) -> list[dict[str, Any]]:
        payload: dict[str, Any] = {"q": q}
        if max_results > 10:  # Serper returns 10 organic results unless asked for more
            payload["num"] = max_results
        response = httpx.post(
            self.url, json=payload, headers={"X-API-KEY": self.api_key}, timeout=self.timeout_s
        )
        response.raise_for_status()
        organic = response.json().get("organic", [])
        return [
            {"url": item.get("link", ""), "title": item.get("title", ""), "content": item.get("snippet", "")}
            for item in organic[:max_results]
        ]


class ReplayCache:
    """Append-only JSONL of live answers, loaded once; safe to share between the server's sessions."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").split("\n"):  # not splitlines: JSON keeps U+2028 raw
                try:
                    entry = json.loads(line)
                    self._entries[(entry["provider"], entry["q"], entry["max_results"])] = entry["results"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # a torn last line from a crash; every complete line is kept

    def get(self, provider: str, q: str, max_results: int) -> list[dict[str, Any]] | None:
        return self._entries.get((provider, q, max_results))

    def put(self, provider: str, q: str, max_results: int, results: list[dict[str, Any]]) -> None:
        entry = {
            "provider": provider,
            "q": q,
            "max_results": max_results,
            "results": results,
            "fetched_at": datetime.now(UTC).isoformat(),
        }
        with self._lock:
            self._entries[(provider, q, max_results)] = results
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
                handle.flush()
                os.fsync(handle.fileno())


class CachedLiveSearch:
    """Replays the cache first; on a miss calls the provider (when a key is set) and records the answer."""

    def __init__(self, provider_name: str, provider: SerperProvider | None, cache: ReplayCache) -> None:
        self.provider_name, self.provider, self.cache = provider_name, provider, cache

    def search(self, q: str, max_results: int = 10) -> list[dict[str, Any]]:
        cached = self.cache.get(self.provider_name, q, max_results)
        if cached is not None:
            return cached
        if self.provider is None:
            raise ToolCallError("web_search: this query is not in the replay cache and no live search key is set")
        try:
            results = self.provider.search(q, max_results)
        except (httpx.HTTPError, ValueError) as error:
            problem = type(error).__name__
            raise ToolCallError(f"web_search: the live search provider failed ({problem}); try again") from None
        self.cache.put(self.provider_name, q, max_results, results)
        return results


def web_search_backend(world: WorldFolder, env: dict[str, str] | None = None) -> WebSearchBackend:
    """The backend the environment asks for: the world's offline corpus unless a live provider is named."""
    env = dict(os.environ) if env is None else env
    provider = env.get(PROVIDER_ENV, "offline").strip().lower() or "offline"
    if provider == "offline":
        return world.knowledge
    if provider != "serper":
        raise BadInput(f"{PROVIDER_ENV}={provider!r} is not a provider; choose 'offline' or 'serper'")
    cache = ReplayCache(Path(env.get(CACHE_ENV) or Path(world.root) / CACHE_FILE))
    key = env.get("SERPER_API_KEY") or env.get("SERPER_KEY")
    live = SerperProvider(key, url=env.get(SERPER_URL_ENV)) if key else None
    return CachedLiveSearch("serper", live, cache)
