"""A ShoppingBench world: catalog + search indexes + task sets + knowledge corpus, in one folder, opened.

    WORLD/world.json, catalog.jsonl.gz, knowledge.jsonl, tasks/<set>/…, index/<hash>/, knowledge_index/<hash>/

Worlds are generated from a seed (benchmarks.shoppingbench.worldgen) or imported from the official corpus file by
mcp_server.shopping.world_build; this module opens them. world.json is written last, so a folder without it is an
unfinished build, never mistaken for a world.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from benchmarks.jsonl import read_json_model
from benchmarks.shoppingbench.schema import ShoppingTask
from benchmarks.shoppingbench.tasks import OFFICIAL_SET, load_official, load_task_set
from mcp_server.suites import UnknownTaskSet

if TYPE_CHECKING:
    from mcp_server.shopping.search.backends import WebSearchBackend
    from mcp_server.shopping.search.knowledge_index import KnowledgeIndex
    from mcp_server.shopping.search.product_index import ProductIndex

CATALOG = "catalog.jsonl.gz"
KNOWLEDGE = "knowledge.jsonl"
WORLD_JSON = "world.json"
GENERATED_SET = "generated"


class WorldInfo(BaseModel):
    name: str
    seed: int | None
    products: int
    content_hash: str
    """Content hash of catalog.jsonl.gz (the name of its index folder)."""
    generator_version: str | None
    source: Literal["generated", "imported"]


class World:
    """An opened world folder; indexes are built or opened on first use.

    `World.open` gives every caller in a process the same World for an unchanged folder, so a process that runs many
    runs, servers or environments on one world (Inspect, a notebook, the Gym vector env, the tests) opens its Lucene
    indexes and parses its task sets once. A folder rewritten since (a new world.json, catalog or task file) opens
    afresh."""

    _opened: dict[tuple[Path, tuple[int, ...]], World] = {}

    def __init__(self, root: Path, info: WorldInfo) -> None:
        self.root, self.info = root, info
        self._products: ProductIndex | None = None
        self._knowledge: KnowledgeIndex | None = None
        self._task_sets: dict[tuple[str, tuple[int, ...]], list[ShoppingTask]] = {}

    @classmethod
    def open(cls, root: Path) -> World:
        root = Path(root).expanduser()
        try:
            key = (root.resolve(), _stamp(root / WORLD_JSON, root / CATALOG))
        except FileNotFoundError:
            return cls._read(root)  # says what is missing
        if key not in cls._opened:
            cls._opened[key] = cls._read(root)
        return cls._opened[key]

    @classmethod
    def _read(cls, root: Path) -> World:
        path = root / WORLD_JSON
        if not path.is_file():
            raise FileNotFoundError(
                f"{root} is not a shopbench world (no {WORLD_JSON}); create one with `shopbench world generate` "
                "or `shopbench world import`")
        info = read_json_model(path, WorldInfo)
        if not (root / CATALOG).is_file():
            raise FileNotFoundError(f"{root} is not a complete world: {CATALOG} is missing")
        return cls(root, info)

    @property
    def products(self) -> ProductIndex:
        if self._products is None:
            from mcp_server.shopping.search.product_index import ProductIndex

            self._products = ProductIndex.open_or_build(self.root / CATALOG, self.root / "index")
        return self._products

    @property
    def knowledge(self) -> KnowledgeIndex:
        if self._knowledge is None:
            from mcp_server.shopping.search.knowledge_index import KnowledgeIndex

            self._knowledge = KnowledgeIndex.open_or_build(self.root / KNOWLEDGE, self.root / "knowledge_index")
        return self._knowledge

    def web_search(self) -> WebSearchBackend:
        """Where this world's web_search answers come from: its offline corpus, unless the environment names a live
        provider (mcp_server.shopping.web_search_live, with a replay cache in the world's folder)."""
        from mcp_server.shopping.web_search_live import web_search_backend

        return web_search_backend(self)

    def task_sets(self) -> list[str]:
        folder = self.root / "tasks"
        local = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        return local + ([OFFICIAL_SET] if OFFICIAL_SET not in local else [])

    def tasks(self, task_set: str) -> list[ShoppingTask]:
        if task_set == OFFICIAL_SET:
            return load_official()
        folder = self.root / "tasks" / task_set
        if not folder.is_dir():
            known = ", ".join(self.task_sets())
            raise UnknownTaskSet(f"no task set {task_set!r} in world {self.info.name}; known: {known}")
        key = (task_set, _stamp(*sorted(folder.iterdir())))
        if key not in self._task_sets:
            self._task_sets[key] = load_task_set(folder, task_set)
        return list(self._task_sets[key])

    @property
    def is_official_corpus(self) -> bool:
        return self.info.source == "imported"

    def __repr__(self) -> str:
        return f"World({self.root}, {self.info.products} products, {self.info.source})"


def _stamp(*paths: Path) -> tuple[int, ...]:
    """What changes when any of these files is rewritten: inode, size and modification time of each."""
    stamp: list[int] = []
    for path in paths:
        status = path.stat()
        stamp += [status.st_ino, status.st_size, status.st_mtime_ns]
    return tuple(stamp)


GENERATOR_MODULES = ("catalog", "tasks", "knowledge", "real_facts", "brand_facts", "place_facts", "obscure_facts",
                     "phrasing", "reading", "offers", "heuristic", "vocab", "wording", "sentences")
"""The modules whose code decides what a seed generates (and which tasks the check keeps)."""


def generator_fingerprint() -> str:
    """A short hash of the generator's source as the running process imported it: the default world's folder
    carries it with GENERATOR_VERSION, so a process whose generator code differs (even between version bumps, even
    one that imported the code before it was edited) never opens a world another one built. A module not imported
    yet is hashed from its file, which is what it would be imported from (a server finds its world without the
    generator's imports)."""
    import hashlib
    import importlib.util
    import sys

    from benchmarks.shoppingbench.worldgen import source_digest

    digest = hashlib.sha256()
    for module in (f"benchmarks.shoppingbench.worldgen.{name}" for name in GENERATOR_MODULES):
        imported = sys.modules.get(module)
        if imported is not None:
            digest.update(imported.SOURCE_DIGEST.encode())
        else:
            spec = importlib.util.find_spec(module)
            assert spec is not None and spec.origin is not None, module
            digest.update(source_digest(spec.origin).encode())
    return digest.hexdigest()[:8]


