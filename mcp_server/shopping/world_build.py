"""Building worlds: generating one from a seed, importing the official corpus, and the default world built on first
use, and opening the world a command chose (`open_world`). Opening a world that exists is mcp_server.shopping.world's;
this module writes the folder it opens (world.json last, so a folder without it is an unfinished build, never mistaken
for a world).
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
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from benchmarks.errors import Refusal
from benchmarks.home import shopbench_home
from benchmarks.jsonl import DataFileError, iter_lines, read_jsonl, write_jsonl
from benchmarks.shoppingbench.schema import CorpusRecord, Product
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR
from mcp_server.shopping.tools import Sandbox, ToolCallError
from mcp_server.shopping.world import (
    CATALOG,
    GENERATED_SET,
    KNOWLEDGE,
    WORLD_JSON,
    World,
    WorldInfo,
    generator_fingerprint,
)

if TYPE_CHECKING:
    from mcp_server.shopping.search.knowledge_index import KnowledgeIndex
    from mcp_server.shopping.search.product_index import ProductIndex
    from mcp_server.suites import SuiteOptions

DEFAULT_PRODUCTS = 5_000
DEFAULT_SEED = 0
DEFAULT_TASKS_PER_INTENT = 100
TASK_SAMPLE = 20_000
"""Products read back from a big catalog to draw tasks from (whole shops, so shop tasks have choices)."""
KNOWLEDGE_CANDIDATES = 8
"""Knowledge tasks drafted per one kept: the rest fail the solvability check (their documents stay as distractors).
Drafts are checked only until enough are kept, so a large world, whose loosely named listings are more often
ambiguous, reaches its count at no cost to a small one."""
CALL_MEMORY = 20_000


class WorldTools:
    """The world's tools as the task generator's check plays them: exactly the sandbox an agent talks to (a refused
    call gives its error text, as an agent sees it), plus product lookup by id for judging the outcome."""

    def __init__(self, products: ProductIndex, knowledge: KnowledgeIndex | None = None) -> None:
        self.products = products
        self.sandbox = Sandbox(products, knowledge, knowledge)
        self._seen: dict[str, Any] = {}

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """The observation of one call; calls are pure, so repeated ones (the check replays an instruction after
        each added constraint) are answered from memory."""
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


def generate_world(out: Path, *, products: int, seed: int, tasks_per_intent: int = DEFAULT_TASKS_PER_INTENT,
                   name: str | None = None, progress: bool = True) -> World:
    """Generate a world: catalog, product index, checked task sets for the four intents, knowledge corpus.

    Every task is checked against the world's own tools: its instruction states its constraints exactly and the
    scripted `heuristic` shopper solves it from the instruction alone (benchmarks.shoppingbench.worldgen.tasks)."""
    from benchmarks.shoppingbench.worldgen.catalog import GENERATOR_VERSION, generate_catalog
    from benchmarks.shoppingbench.worldgen.knowledge import knowledge_world, solvable_knowledge_tasks
    from benchmarks.shoppingbench.worldgen.tasks import generate_tasks, sample_products, write_task_set
    from mcp_server.shopping.search.knowledge_index import KnowledgeIndex
    from mcp_server.shopping.search.product_index import ProductIndex

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


class WorldNotBuilt(Refusal, FileNotFoundError):
    """The default world is asked for without building it (`build=False`) and is not built yet."""

    def __init__(self, root: Path) -> None:
        named = os.environ.get("SHOPBENCH_HOME")
        where = f"$SHOPBENCH_HOME is {named}" if named else f"$SHOPBENCH_HOME is not set and $HOME is {Path.home()}"
        super().__init__(f"the default world is not built yet in {root} ({where})")
        self.root = root


def open_world(options: SuiteOptions) -> World:
    """The world a command chose (the default world when it named none), opened once for all its suites: the opened
    world is kept on `options`."""
    if not isinstance(options.opened, World):
        chosen = options.world
        if chosen is None:
            options.opened = default_world(build=options.build_world)
        elif isinstance(chosen, World):
            options.opened = chosen
        elif isinstance(chosen, (str, Path)):
            options.opened = World.open(Path(chosen))
        else:
            raise TypeError(f"ShoppingBench is played in a ShoppingBench world, not {chosen!r}")
    return options.opened


def default_world(home: Path | None = None, *, build: bool = True) -> World:
    """The default world under $SHOPBENCH_HOME/worlds/default-v<GENERATOR_VERSION>-<generator fingerprint>,
    generated on first use (in a temporary folder, renamed into place when complete, so an interrupted build is never
    reused) and opened afterwards. A new generator version or generator code means a new folder: older worlds are
    left as they are and the new one is built on first use. `build=False` raises WorldNotBuilt instead of building
    (about a minute)."""
    from benchmarks.shoppingbench.worldgen.catalog import GENERATOR_VERSION

    home = Path(home).expanduser() if home else shopbench_home()
    root = home / "worlds" / f"default-v{GENERATOR_VERSION}-{generator_fingerprint()}"
    if (root / WORLD_JSON).is_file():
        return World.open(root)
    if not build:
        raise WorldNotBuilt(root)
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


def catalog_hash(catalog: Path) -> str:
    """The catalog's content hash, the same key its index folder is named by."""
    from mcp_server.shopping.search.index_build import content_hash

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
