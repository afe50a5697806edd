"""A ShoppingBench world: catalog + search indexes + task sets + knowledge corpus, in one folder.

    WORLD/world.json, catalog.jsonl.gz, knowledge.jsonl, tasks/<set>/…, index/<hash>/, knowledge_index/<hash>/

Worlds are generated from a seed (benchmarks.shoppingbench.worldgen) or imported from the official corpus file.
world.json is written last, so a folder without it is an unfinished build, never mistaken for a world.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from benchmarks.home import shopbench_home
from benchmarks.jsonl import DataFileError, iter_lines, read_json_model, read_jsonl, write_jsonl
from benchmarks.shoppingbench.schema import CorpusRecord, Product, ShoppingTask
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR, OFFICIAL_SET, load_official, load_task_set

if TYPE_CHECKING:
    from mcp_server.search.knowledge_index import KnowledgeIndex
    from mcp_server.search.product_index import ProductIndex

CATALOG = "catalog.jsonl.gz"
KNOWLEDGE = "knowledge.jsonl"
WORLD_JSON = "world.json"
GENERATED_SET = "generated"
DEFAULT_PRODUCTS = 5_000
DEFAULT_SEED = 0
DEFAULT_TASKS_PER_INTENT = 100
TASK_SAMPLE = 20_000
"""Products read back from a big catalog to draw tasks from (whole shops, so shop tasks have choices)."""
KNOWLEDGE_CANDIDATES = 5
"""Knowledge tasks drafted per one kept: the rest fail the solvability check (their documents stay as distractors)."""
CALL_MEMORY = 20_000


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
            from mcp_server.search.product_index import ProductIndex

            self._products = ProductIndex.open_or_build(self.root / CATALOG, self.root / "index")
        return self._products

    @property
    def knowledge(self) -> KnowledgeIndex:
        if self._knowledge is None:
            from mcp_server.search.knowledge_index import KnowledgeIndex

            self._knowledge = KnowledgeIndex.open_or_build(self.root / KNOWLEDGE, self.root / "knowledge_index")
        return self._knowledge

    def task_sets(self) -> list[str]:
        folder = self.root / "tasks"
        local = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        return local + ([OFFICIAL_SET] if OFFICIAL_SET not in local else [])

    def tasks(self, task_set: str) -> list[ShoppingTask]:
        if task_set == OFFICIAL_SET:
            return load_official()
        folder = self.root / "tasks" / task_set
        if not folder.is_dir():
            raise KeyError(f"no task set {task_set!r} in world {self.info.name}; known: {', '.join(self.task_sets())}")
        key = (task_set, _stamp(*sorted(folder.iterdir())))
        if key not in self._task_sets:
            self._task_sets[key] = load_task_set(folder, task_set)
        return list(self._task_sets[key])

    @property
    def is_official_corpus(self) -> bool:
        return self.info.source == "imported"

    def __repr__(self) -> str:
        return f"World({self.root}, {self.info.products} products, {self.info.source})"


class WorldTools:
    """The world's tools as the task generator's check plays them: exactly the sandbox an agent talks to (a refused
    call gives its error text, as an agent sees it), plus product lookup by id for judging the outcome."""

    def __init__(self, products: ProductIndex, knowledge: KnowledgeIndex | None = None) -> None:
        from mcp_server.tools import Sandbox

        self.products = products
        self.sandbox = Sandbox(products, knowledge, knowledge)
        self._seen: dict[str, Any] = {}

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """The observation of one call; calls are pure, so repeated ones (the check replays an instruction after
        each added constraint) are answered from memory."""
        from mcp_server.tools import ToolCallError

        key = json.dumps([name, arguments], sort_keys=True)
        if key in self._seen:
            return self._seen[key]
        try:
            observation = self.sandbox.call(name, arguments)
        except ToolCallError as error:
            observation = str(error)
        if name != "recommend_product" and len(self._seen) < CALL_MEMORY:
            self._seen[key] = observation
        return observation

    def get(self, ids: list[str]) -> dict[str, Product]:
        return self.products.get(ids)


def _stamp(*paths: Path) -> tuple[int, ...]:
    """What changes when any of these files is rewritten: inode, size and modification time of each."""
    stamp: list[int] = []
    for path in paths:
        status = path.stat()
        stamp += [status.st_ino, status.st_size, status.st_mtime_ns]
    return tuple(stamp)


def generate_world(out: Path, *, products: int, seed: int, tasks_per_intent: int = DEFAULT_TASKS_PER_INTENT,
                   name: str | None = None, progress: bool = True) -> World:
    """Generate a world: catalog, product index, checked task sets for the four intents, knowledge corpus.

    Every task is checked against the world's own tools: its instruction states its constraints exactly and the
    scripted `heuristic` shopper solves it from the instruction alone (benchmarks.shoppingbench.worldgen.tasks)."""
    from benchmarks.shoppingbench.worldgen.catalog import GENERATOR_VERSION, generate_catalog
    from benchmarks.shoppingbench.worldgen.knowledge import knowledge_world, solvable_knowledge_tasks
    from benchmarks.shoppingbench.worldgen.tasks import generate_tasks, sample_products, write_task_set
    from mcp_server.search.knowledge_index import KnowledgeIndex
    from mcp_server.search.product_index import ProductIndex

    out = Path(out).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    catalog = out / CATALOG
    with _step(progress, f"generating {products:,} products"):
        generate_catalog(catalog, products, seed)
    index = ProductIndex.open_or_build(catalog, out / "index", progress=progress)
    with _step(progress, "generating checked tasks and the knowledge corpus"):
        sample = sample_products(catalog, products, TASK_SAMPLE, seed)
        tasks = generate_tasks(sample, seed=seed, per_intent=tasks_per_intent, tools=WorldTools(index),
                               task_set=GENERATED_SET)
        candidates, documents = knowledge_world(sample, seed=seed, count=KNOWLEDGE_CANDIDATES * tasks_per_intent,
                                                task_set=GENERATED_SET)
        write_jsonl(out / KNOWLEDGE, documents)
        knowledge = KnowledgeIndex.open_or_build(out / KNOWLEDGE, out / "knowledge_index", progress=progress)
        tasks["web"] = solvable_knowledge_tasks(candidates, WorldTools(index, knowledge), tasks_per_intent)
        write_task_set(out / "tasks" / GENERATED_SET, tasks)
    info = WorldInfo(name=name or out.name, seed=seed, products=products, content_hash=catalog_hash(catalog),
                     generator_version=GENERATOR_VERSION, source="generated")
    _write_info(out, info)
    return World.open(out)


def import_world(documents: Path, out: Path, *, progress: bool = True) -> World:
    """A world over the official corpus file: every line is checked against the corpus schema while it is copied.

    The world is built in a temporary folder beside `out` and renamed to `out` only when complete, so a failed or
    interrupted import leaves nothing behind. A bad corpus file (truncated or fake gzip, invalid UTF-8, a directory,
    a record off the schema) is a DataFileError naming its file and line; an `out` that exists and is not an empty
    folder is refused (FileExistsError) before anything is read."""
    documents, out = Path(documents).expanduser(), Path(out).expanduser()
    if not documents.exists():
        raise FileNotFoundError(f"{documents}: no such file")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} already exists and is not an empty folder; choose another --out or remove it")
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}-import-", dir=out.parent))
    try:
        catalog = building / CATALOG
        count = 0
        with (_step(progress, f"importing {documents}"), open(catalog, "wb") as raw,
              gzip.GzipFile(filename="", mode="wb", compresslevel=3, fileobj=raw, mtime=0) as sink):
            for number, line in iter_lines(documents):
                _check_record(documents, number, line)
                sink.write(line.encode("utf-8") + b"\n")
                count += 1
        if count == 0:
            raise DataFileError(documents, 1, "no product records (the file is empty)")
        write_jsonl(building / KNOWLEDGE, official_knowledge_documents())
        info = WorldInfo(name=out.name, seed=None, products=count, content_hash=catalog_hash(catalog),
                         generator_version=None, source="imported")
        _write_info(building, info)
        if out.is_dir():
            out.rmdir()  # empty (checked above); fails loudly if something appeared there meanwhile
        os.rename(building, out)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return World.open(out)


def _check_record(path: Path, number: int, line: str) -> None:
    try:
        CorpusRecord.model_validate_json(line)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise DataFileError(path, number, f"{where}: {first['msg']}") from None


def official_knowledge_documents() -> list[dict]:
    """An offline stand-in for the live web search of the official knowledge tasks: one document per question,
    stating the fact its answer rests on (what a web search for the question would return)."""
    documents = []
    for number, record in read_jsonl(OFFICIAL_DIR / "synthesize_web_simpleqa_test.jsonl"):
        question = record["query"].split("?")[0].strip() + "?"
        documents.append({"url": f"https://facts.shopbench.example/official/{number}", "title": question,
                          "content": f"{question} {record['Knowledge_Attribute']}."})
    return documents


def default_world(home: Path | None = None) -> World:
    """The default world under $SHOPBENCH_HOME/worlds/default-v<GENERATOR_VERSION>-<generator fingerprint>,
    generated on first use (in a temporary folder, renamed into place when complete, so an interrupted build is never
    reused) and opened afterwards. A new generator version or generator code means a new folder: older worlds are
    left as they are and the new one is built on first use."""
    from benchmarks.shoppingbench.worldgen.catalog import GENERATOR_VERSION

    home = Path(home).expanduser() if home else shopbench_home()
    root = home / "worlds" / f"default-v{GENERATOR_VERSION}-{generator_fingerprint()}"
    if (root / WORLD_JSON).is_file():
        return World.open(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{root.name}-", dir=root.parent))
    try:
        generate_world(building, products=DEFAULT_PRODUCTS, seed=DEFAULT_SEED,
                       tasks_per_intent=DEFAULT_TASKS_PER_INTENT, name="default", progress=True)
        if root.exists():  # a half-built folder from an older layout, or another process won the race
            if (root / WORLD_JSON).is_file():
                return World.open(root)
            shutil.rmtree(root)
        os.rename(building, root)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return World.open(root)


GENERATOR_MODULES = ("catalog", "tasks", "knowledge", "phrasing", "heuristic", "vocab")
"""The modules whose code decides what a seed generates (and which tasks the check keeps)."""


def generator_fingerprint() -> str:
    """A short hash of the generator's source as the running process imported it: the default world's folder
    carries it with GENERATOR_VERSION, so a process whose generator code differs (even between version bumps, even
    one that imported the code before it was edited) never opens a world another one built."""
    import hashlib
    import importlib

    digest = hashlib.sha256()
    for module in GENERATOR_MODULES:
        digest.update(importlib.import_module(f"benchmarks.shoppingbench.worldgen.{module}").SOURCE_DIGEST.encode())
    return digest.hexdigest()[:8]


def catalog_hash(catalog: Path) -> str:
    """The catalog's content hash, the same key its index folder is named by."""
    from mcp_server.search.index_build import content_hash

    return content_hash(catalog)


def _write_info(root: Path, info: WorldInfo) -> None:
    partial = root / (WORLD_JSON + ".partial")
    partial.write_text(json.dumps(info.model_dump(), indent=2) + "\n", encoding="utf-8")
    os.replace(partial, root / WORLD_JSON)


@contextlib.contextmanager
def _step(progress: bool, message: str) -> Iterator[None]:
    if not progress:
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield
