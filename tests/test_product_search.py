"""find_product's reference semantics (SPEC §1.3) on the Lucene product index.

Two kinds of test. Rule tests use a catalog where every "widget" has the same contents, so every BM25 score ties and
the reference order is simply ascending product id: each filter, sort and page rule then has an expected answer that
is plain to read. The oracle test compares random queries and filters on a generated catalog with the reference
method itself: an index built by Anserini's own indexer (JsonCollection), every hit retrieved through Pyserini's
LuceneSearcher, filtered in Python, cut at 50, sorted, paged.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from benchmarks.jsonl import DataFileError, write_jsonl
from benchmarks.shoppingbench.schema import SERVICES, CorpusRecord, Product
from mcp_server.shopping.search import lucene_runtime
from mcp_server.shopping.search.product_index import CARD_FIELDS, ProductIndex
from mcp_server.shopping.search.reference import ReferenceFind, reference_page

N_WIDGETS = 120
SHOPS = ("shop0", "shop1", "shop2")


def widget(i: int) -> Product:
    return Product(
        product_id=f"w{i:03d}",
        shop_id=SHOPS[i % 3],
        title="Acme Widget",
        price=[99.0, 250.0, 10.5, 1000.0, 250.0, 42.0, 99.0][i % 7] + (i // 7),
        sold_count=[5, 100, 5, 0, 100, 7][i % 6],
        service=[s for bit, s in enumerate(SERVICES) if (i >> bit) & 1],
        attributes={"color": ["blue"]},
    )


WIDGETS = [widget(i) for i in range(N_WIDGETS)]
OTHERS = [
    Product(product_id="g001", shop_id="shop0", title="Garden Gadget", price=5.0, service=["COD"]),
    Product(product_id="u001", shop_id="shop0", title="풳 lamp", price=5.0),
    Product(product_id="u002", shop_id="shop0", title="𝒳 lamp", price=5.0),
]


@pytest.fixture(scope="module")
def widget_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    products = WIDGETS + OTHERS
    random.Random(3).shuffle(products)  # index order differs from id order, so ties really are broken by id
    path = tmp_path_factory.mktemp("widgets") / "catalog.jsonl.gz"
    write_jsonl(path, (CorpusRecord.of(p) for p in products))
    return path


@pytest.fixture(scope="module")
def widgets(widget_catalog: Path) -> ProductIndex:
    index = ProductIndex.open_or_build(widget_catalog, widget_catalog.parent / "index", progress=False)
    yield index
    index.close()


def card(product: Product) -> dict[str, Any]:
    return {name: getattr(product, name) for name in CARD_FIELDS}


def expected(
    keep=lambda p: True, sort_key=None, page: int = 1
) -> list[dict[str, Any]]:
    """The reference on the all-ties widget catalog: id order, filter, first 50, stable sort, page."""
    kept = [p for p in sorted(WIDGETS, key=lambda p: p.product_id) if keep(p)][:50]
    if sort_key is not None:
        kept.sort(key=sort_key)
    return [card(p) for p in kept[(page - 1) * 10 : page * 10]]


def ids(results: list[dict[str, Any]]) -> list[str]:
    return [r["product_id"] for r in results]


def test_index_size_and_cards(widgets: ProductIndex) -> None:
    assert len(widgets) == N_WIDGETS + len(OTHERS)
    results = widgets.find("widget")
    assert results == expected()
    assert all(set(r) == set(CARD_FIELDS) for r in results)


@pytest.mark.parametrize("page", [1, 2, 3, 4, 5])
def test_pages_walk_the_first_fifty_ten_at_a_time(widgets: ProductIndex, page: int) -> None:
    assert widgets.find("acme widgets", page=page) == expected(page=page)
    assert len(widgets.find("acme widgets", page=page)) == 10


@pytest.mark.parametrize("page", [0, 6, -1, 100])
def test_invalid_page_gives_nothing(widgets: ProductIndex, page: int) -> None:
    assert widgets.find("widget", page=page) == []


def test_last_page_may_be_short_or_empty(widgets: ProductIndex) -> None:
    # shop1 has 40 widgets: pages 1-4 are full, page 5 is empty (not an error).
    assert [len(widgets.find("widget", shop_id="shop1", page=p)) for p in range(1, 6)] == [10, 10, 10, 10, 0]


def test_shop_filter_is_exact(widgets: ProductIndex) -> None:
    for page in (1, 4):
        assert widgets.find("widget", shop_id="shop1", page=page) == expected(lambda p: p.shop_id == "shop1", page=page)
    assert widgets.find("widget", shop_id="shop") == []
    assert widgets.find("widget", shop_id="SHOP1") == []


@pytest.mark.parametrize(
    ("low", "high"),
    [(99.0, 250.0), (100.0, None), (None, 99.0), (250.0, 250.0), (2000.0, None), (None, 10.0), (300.0, 100.0)],
)
def test_price_range_is_inclusive_and_either_side_may_be_open(
    widgets: ProductIndex, low: float | None, high: float | None
) -> None:
    def keep(p: Product) -> bool:
        return (low is None or p.price >= low) and (high is None or p.price <= high)

    assert any(p.price == 99.0 for p in WIDGETS) and any(p.price == 250.0 for p in WIDGETS)
    for page in (1, 2):
        assert widgets.find("widget", price_min=low, price_max=high, page=page) == expected(keep, page=page)


@pytest.mark.parametrize(
    "services",
    [[s] for s in SERVICES] + [["official", "COD"], ["freeShipping", "flashsale"], list(SERVICES), ["COD", "COD"]],
)
def test_every_requested_service_is_required(widgets: ProductIndex, services: list[str]) -> None:
    results = widgets.find("widget", services=services)
    assert results == expected(lambda p: set(services) <= set(p.service))
    assert results and all(set(services) <= set(r["service"]) for r in results)


def test_filters_combine(widgets: ProductIndex) -> None:
    def keep(p: Product) -> bool:
        return p.shop_id == "shop2" and 50 <= p.price <= 300 and "COD" in p.service

    results = widgets.find("widget", shop_id="shop2", price_min=50, price_max=300, services=["COD"])
    assert results == expected(keep)
    assert results


SORTS = {
    "order": lambda p: -p.sold_count,
    "priceasc": lambda p: p.price,
    "pricedesc": lambda p: -p.price,
}


@pytest.mark.parametrize("sort", sorted(SORTS))
@pytest.mark.parametrize("page", [1, 3, 5])
def test_sorts_apply_to_the_kept_fifty_and_keep_bm25_order_on_ties(
    widgets: ProductIndex, sort: str, page: int
) -> None:
    assert widgets.find("widget", sort=sort, page=page) == expected(sort_key=SORTS[sort], page=page)


def test_sort_happens_only_after_the_cut_at_fifty(widgets: ProductIndex) -> None:
    cheapest = min(WIDGETS, key=lambda p: p.price)
    assert sorted(WIDGETS, key=lambda p: p.product_id).index(cheapest) < 50  # sanity: then check one beyond 50
    beyond = sorted(WIDGETS, key=lambda p: p.product_id)[50:]
    best_seller_beyond = max(beyond, key=lambda p: (p.sold_count, -int(p.product_id[1:])))
    shown = {r["product_id"] for page in range(1, 6) for r in widgets.find("widget", sort="order", page=page)}
    assert len(shown) == 50
    assert best_seller_beyond.product_id not in shown
    assert shown == {p.product_id for p in sorted(WIDGETS, key=lambda p: p.product_id)[:50]}


def test_sold_count_ties_keep_id_order(widgets: ProductIndex) -> None:
    results = [r for page in range(1, 6) for r in widgets.find("widget", sort="order", page=page)]
    for a, b in zip(results, results[1:], strict=False):
        assert (-a["sold_count"], a["product_id"]) < (-b["sold_count"], b["product_id"])


@pytest.mark.parametrize("sort", ["default", "bogus", "", "PRICEASC"])
def test_unknown_sort_keeps_bm25_order(widgets: ProductIndex, sort: str) -> None:
    assert widgets.find("widget", sort=sort) == expected()


def test_bm25_ranks_and_unmatched_queries(widgets: ProductIndex) -> None:
    assert ids(widgets.find("garden gadget")) == ["g001"]
    assert widgets.find("widget gadget")[0]["product_id"] == "g001"  # rarer term outweighs the common one
    assert widgets.find("nonexistentword") == []
    assert widgets.find("") == []
    assert widgets.find("the of and") == []  # stopwords only


def test_a_query_over_lucenes_clause_limit_is_refused_as_too_long(widgets: ProductIndex) -> None:
    from mcp_server.shopping.search.product_index import MAX_CLAUSES, QueryTooLongError

    under = " ".join(f"w{i}x" for i in range(MAX_CLAUSES - 24))
    assert widgets.find(under) == []  # as many distinct words as Lucene takes: searched, nothing matches
    over = " ".join(f"w{i}x" for i in range(MAX_CLAUSES + 76)) + " widget"
    with pytest.raises(QueryTooLongError, match="query is too long: it has more than 1,024 distinct words"):
        widgets.find(over)
    assert widgets.find("widget") == expected()  # the searcher is unharmed


def test_characters_outside_the_basic_plane_reach_lucene_intact(widgets: ProductIndex) -> None:
    assert ids(widgets.find("풳")) == ["u001"]
    assert ids(widgets.find("𝒳 lamp"))[0] == "u002"
    assert sorted(ids(widgets.find("lamp"))) == ["u001", "u002"]


def test_get_returns_known_products_in_the_asked_order(widgets: ProductIndex) -> None:
    found = widgets.get(["w005", "nope", "g001", "w005"])
    assert list(found) == ["w005", "g001"]
    assert found["w005"] == WIDGETS[5]
    assert found["g001"] == OTHERS[0]
    assert widgets.get([]) == {}


def test_index_is_built_once_and_reused(widget_catalog: Path, widgets: ProductIndex) -> None:
    assert widgets.index_dir.parent == widget_catalog.parent / "index"
    assert widgets.index_dir.name == widgets.content_hash
    before = {p.name: p.stat().st_mtime_ns for p in widgets.index_dir.iterdir()}
    again = ProductIndex.open_or_build(widget_catalog, widget_catalog.parent / "index", progress=False)
    assert again.index_dir == widgets.index_dir
    assert {p.name: p.stat().st_mtime_ns for p in again.index_dir.iterdir()} == before
    assert again.find("widget") == widgets.find("widget")
    again.close()


def test_leftovers_of_a_killed_build_are_never_used(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.jsonl"
    write_jsonl(catalog, [CorpusRecord.of(p) for p in WIDGETS[:12]])
    from mcp_server.shopping.search.index_build import _HOST, content_hash

    leftover = tmp_path / "index" / f".{content_hash(catalog)}.building-{_HOST}-999999999-1"
    leftover.mkdir(parents=True)
    (leftover / "write.lock").write_text("")
    index = ProductIndex.open_or_build(catalog, tmp_path / "index", progress=False)
    assert len(index) == 12
    assert not leftover.exists()
    assert [p.name for p in (tmp_path / "index").iterdir()] == [index.content_hash]
    index.close()


def test_an_index_in_an_older_layout_is_rebuilt(tmp_path: Path) -> None:
    """find() relies on one segment sorted by id; an index folder written otherwise is replaced, not trusted."""
    from mcp_server.shopping.search import index_build
    from mcp_server.shopping.search.product_index import _ProductIndexer

    catalog = tmp_path / "catalog.jsonl"
    write_jsonl(catalog, [CorpusRecord.of(p) for p in WIDGETS[:30]])
    stale = tmp_path / "index" / index_build.content_hash(catalog)
    index_build.index_jsonl(catalog, stale, _ProductIndexer, label="old", progress=False)  # unsorted layout
    index = ProductIndex.open_or_build(catalog, tmp_path / "index", progress=False)
    assert index.index_dir == stale
    assert ids(index.find("widget")) == [f"w{i:03d}" for i in range(10)]
    index.close()


def test_a_bad_catalog_line_names_file_and_line_and_leaves_no_index(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.jsonl"
    lines = [json.dumps(CorpusRecord.of(p).model_dump()) for p in (WIDGETS * 6)[:700]]
    lines[612] = '{"id": "x", "contents": "no product here"}'
    catalog.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataFileError) as error:
        ProductIndex.open_or_build(catalog, tmp_path / "index", progress=False)
    assert error.value.path == catalog and error.value.line == 613
    assert list((tmp_path / "index").iterdir()) == []


# --- the oracle: the reference method on an index built by Anserini's own indexer -------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[ProductIndex, Any, list[dict]]:
    from benchmarks.shoppingbench.worldgen.catalog import generate_catalog

    root = tmp_path_factory.mktemp("generated")
    catalog = root / "catalog.jsonl.gz"
    generate_catalog(catalog, 3000, seed=11)
    records = [json.loads(line) for line in _gunzip_lines(catalog)]
    collection = root / "collection"
    collection.mkdir()
    (collection / "docs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    reference_index = root / "anserini-index"
    lucene_runtime.autoclass("io.anserini.index.IndexCollection").main(
        ["-collection", "JsonCollection", "-input", str(collection), "-index", str(reference_index),
         "-generator", "DefaultLuceneDocumentGenerator", "-threads", "1", "-storeRaw", "-quiet"]
    )
    index = ProductIndex.open_or_build(catalog, root / "index", progress=False)
    yield index, lucene_runtime.lucene_searcher(reference_index), records
    index.close()


def _gunzip_lines(path: Path) -> list[str]:
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [line for line in handle if line.strip()]


class Reference:
    """SPEC §1.3 as the reference does it: all BM25 hits from LuceneSearcher, filtered in Python, cut, sorted, paged
    (mcp_server.shopping.search.reference), with each query's hits fetched once."""

    def __init__(self, searcher: Any, size: int) -> None:
        self.searcher, self.size, self.hits = searcher, size, {}

    def all_hits(self, q: str) -> list[dict]:
        if q not in self.hits:
            hits = self.searcher.search(q, self.size)
            self.hits[q] = [json.loads(h.lucene_document.get("raw"))["product"] for h in hits]
        return self.hits[q]

    def find(self, q: str, page: int, shop_id: str | None, price_min: float | None, price_max: float | None,
             services: Sequence[str], sort: str) -> list[dict]:
        return reference_page(self.all_hits(q), page=page, shop_id=shop_id, price_min=price_min, price_max=price_max,
                              services=services, sort=sort)


def test_pages_equal_the_reference_method_on_random_queries(generated: tuple[ProductIndex, Any, list[dict]]) -> None:
    index, searcher, records = generated
    reference = Reference(searcher, len(records))
    rng = random.Random(5)
    shops = sorted({r["product"]["shop_id"] for r in records})
    titles = [r["product"]["title"].split() for r in records]
    queries = [" ".join(rng.sample(words, min(len(words), rng.randint(1, 3)))) for words in rng.sample(titles, 40)]
    queries += ["black", "for men", "usb cable", "the", "zzzz unknown"]
    cases = 0
    nonempty = 0
    for q in queries:
        for _ in range(6):
            price_min = rng.choice([None, None, float(rng.randint(0, 500)), 100.0])
            price_max = rng.choice([None, None, float(rng.randint(200, 5000))])
            services = rng.sample(SERVICES, rng.choice([0, 0, 1, 1, 2]))
            shop_id = rng.choice([None, None, None, rng.choice(shops)])
            if shop_id is None and rng.random() < 0.3 and reference.all_hits(q):
                shop_id = rng.choice(reference.all_hits(q))["shop_id"]
            sort = rng.choice(["default", "order", "priceasc", "pricedesc", "bogus"])
            page = rng.choice([1, 1, 1, 2, 3, 5, 6])
            want = reference.find(q, page, shop_id, price_min, price_max, services, sort)
            got = index.find(q, page=page, shop_id=shop_id, price_min=price_min, price_max=price_max,
                             services=services, sort=sort)
            assert got == want, (q, page, shop_id, price_min, price_max, services, sort)
            cases += 1
            nonempty += bool(want)
    assert cases == len(queries) * 6 and nonempty > cases // 4  # the comparison is not vacuous


def test_the_reference_way_with_k_hits_sees_only_those(generated: tuple[ProductIndex, Any, list[dict]]) -> None:
    """ReferenceFind (what perf/bench_search.py times) walks the first k hits only; with k covering every hit it gives
    ProductIndex's pages."""
    index, searcher, records = generated
    everything, first_20 = ReferenceFind(searcher, k=len(records)), ReferenceFind(searcher, k=20)
    for q, sort in [("black", "default"), ("cable", "priceasc"), ("for men", "order")]:
        for page in (1, 2, 3):
            want = index.find(q, page=page, sort=sort, price_min=10.0)
            assert everything.find(q, page=page, sort=sort, price_min=10.0) == want
        assert everything.last_hit_count > 20 and len(index.find(q, page=3)) == 10
        assert first_20.find(q, page=3) == [] and first_20.last_hit_count == 20
        assert len(first_20.find(q, page=2)) == 10


def test_bm25_hits_and_scores_equal_anserinis_own_index(generated: tuple[ProductIndex, Any, list[dict]]) -> None:
    """Our Lucene documents score exactly as those Anserini's indexer writes (same analyzer, norms, ties)."""
    index, searcher, records = generated
    ours = lucene_runtime.simple_searcher(index.index_dir)
    for q in ["black leather", "usb c charger fast", "women dress summer", "gaming mouse", "organic"]:
        want = [(h.docid, h.score) for h in searcher.search(q, 200)]
        got = [(h.docid, h.score) for h in ours.search(q, 200)]
        assert got == want and want, q
    ours.close()


def test_concurrent_finds_from_many_threads_match_sequential_ones(widgets: ProductIndex) -> None:
    """pyjnius shares bound-method state between threads; the runtime's lock keeps concurrent searches apart."""
    from concurrent.futures import ThreadPoolExecutor

    calls = [
        {"q": "widget", "shop_id": shop, "sort": sort, "page": page}
        for shop in (None, *SHOPS)
        for sort in ("default", "priceasc", "order")
        for page in (1, 2)
    ] * 3
    sequential = [widgets.find(**call) for call in calls]
    with ThreadPoolExecutor(max_workers=6) as pool:
        concurrent = list(pool.map(lambda call: widgets.find(**call), calls))
    assert concurrent == sequential
    assert len({json.dumps(r) for r in sequential}) > 10


def test_service_filters_cached_as_bitsets_give_the_same_pages(tmp_path: Path) -> None:
    """Lucene's query cache turns an often-used service filter into a bitset, but only on a segment of 10,000 or more
    documents: on such an index, pages found through the cached bitsets equal those of a searcher with no cache."""
    from benchmarks.shoppingbench.worldgen.catalog import generate_catalog

    catalog = tmp_path / "catalog.jsonl.gz"
    generate_catalog(catalog, 12_000, seed=4, workers=1)
    index = ProductIndex.open_or_build(catalog, tmp_path / "index", progress=False)
    uncached = ProductIndex(index.index_dir, index.content_hash)
    uncached._searcher.setQueryCache(None)
    cache = lucene_runtime.cast("org.apache.lucene.search.LRUQueryCache", index._searcher.getQueryCache())
    hits_before = cache.getHitCount()
    rng = random.Random(8)
    calls = [
        {"q": q, "services": rng.sample(SERVICES, rng.choice([1, 1, 2])), "sort": rng.choice(["default", "order"]),
         "page": rng.choice([1, 2, 3])}
        for q in ["black", "cable", "women dress", "usb charger", "steel", "phone case", "set"]
        for _ in range(6)
    ]
    nonempty = 0
    for call in calls * 2:
        got = index.find(**call)
        assert got == uncached.find(**call), call
        nonempty += bool(got)
    assert cache.getHitCount() > hits_before  # the bitsets were used
    assert nonempty > len(calls)
    uncached.close()
    index.close()


class _CountingSearcher:
    """Anserini's searcher with its id lookups counted (every other call passes through)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.lookups = inner, 0

    def doc(self, product_id: Any) -> Any:
        self.lookups += 1
        return self.inner.doc(product_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_products_a_search_showed_are_looked_up_without_the_index(
    widget_catalog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = ProductIndex.open_or_build(widget_catalog, widget_catalog.parent / "index", progress=False)
    counting = _CountingSearcher(index._anserini)
    monkeypatch.setattr(index, "_anserini", counting)
    try:
        shown = ids(index.find("widget"))
        looked_up = index.get(shown)
        assert looked_up == {pid: WIDGETS[int(pid[1:])] for pid in shown}
        assert counting.lookups == 0  # every record came with the search page
        assert ids(index.find("widget")) == shown
        assert all(index.get([pid])[pid] is looked_up[pid] for pid in shown)  # searched again: not parsed again
        assert index.get(["g001", "nope"]) == {"g001": OTHERS[0]}
        assert counting.lookups == 2
        assert index.get(["g001", "nope"]) == {"g001": OTHERS[0]}
        assert counting.lookups == 3  # g001 was kept; an unknown id is asked again (it may be a typo fixed later)
    finally:
        index.close()


def test_the_kept_records_start_over_when_full(widget_catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mcp_server.shopping.search.product_index.RECORDS_KEPT", 15)
    index = ProductIndex.open_or_build(widget_catalog, widget_catalog.parent / "index", progress=False)
    try:
        first, second = ids(index.find("widget")), ids(index.find("widget", page=2))
        assert len(index._records) == 5  # 10 kept, then full at 15: started over with the last 5 of page 2
        assert index.get(first + second) == {pid: WIDGETS[int(pid[1:])] for pid in first + second}
        assert len(index._records) <= 15
    finally:
        index.close()
