"""The catalog's Lucene index and `find_product`'s reference semantics (SPEC §1.3) at a few milliseconds.

The reference retrieves up to 100,000 BM25 hits and filters them in Python (1.6 s a query on 2.5M products). Filter
clauses do not change BM25 scores, so a Lucene BooleanQuery with the BM25 query as its MUST clause and the filters as
FILTER clauses returns, in the same order, the first 50 hits that the reference would keep; only those 50 are sorted
and paged. The index is written through Lucene's own classes so the filters have the fields they need: price as a
DoubleField (points and doc values), shop_id and each service as StringFields, plus `id` as BinaryDocValues because
Anserini's searcher breaks score ties on it.

Speed (perf/bench_search.py --stages): at 2.5M products Lucene's filtered top-n search is most of a query's time;
the rest is kept small by crossing into Java few times (each pyjnius call and each Java object brought into Python
costs microseconds): filter queries and constants are reused, a page's stored records come back from one call, and an
unsorted page searches only the top page * 10.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Unpack

from benchmarks.shoppingbench.schema import Product
from mcp_server.shopping.search import index_build, lucene_runtime
from mcp_server.shopping.search.backends import FindOptions

PAGE_SIZE = 10
MAX_PAGE = 5
KEPT_HITS = 50
"""The reference keeps the first 50 hits that pass the filters, then sorts and pages only those."""

SORTS: dict[str, tuple[str, bool]] = {
    "order": ("sold_count", True),
    "priceasc": ("price", False),
    "pricedesc": ("price", True),
}
"""find_product's sort values: (doc-values field, descending). Any other value (e.g. "default") keeps BM25 order."""

ID_ORDER = "id_order"
"""SortedDocValues copy of `id` the index is sorted by (the `id` doc values stay binary, as Anserini reads them)."""

CARD_FIELDS = ("product_id", "shop_id", "title", "price", "service", "sold_count")
"""What find_product shows of each hit."""

_FILTERS_KEPT = 4096
"""Filter queries kept for reuse (per service, per shop id); each store starts over when full."""

MAX_CLAUSES = 1024
"""Lucene's maxClauseCount: a query holds one clause per distinct analyzed word, plus one per filter."""

RECORDS_KEPT = 2048
"""Products kept in Python once a search page or a lookup has read them (the store starts over when full)."""


class QueryTooLongError(ValueError):
    """A query with more distinct words than Lucene accepts; the message is meant for the agent."""


class ProductIndex:
    """BM25 search over a catalog's `contents`, with find_product's filters, sorts and pages."""

    def __init__(self, index_dir: Path, content_hash: str) -> None:
        self.index_dir, self.content_hash = index_dir, content_hash
        self._records: dict[str, str | Product] = {}
        """id → the stored record (as read for a search page) or its Product (once looked up). Agents look at the
        products a search showed them, then recommend them: kept here, those lookups never cross into Java, whose
        first call after an idle spell (a model's reply) costs ~60 µs and a document lookup ~0.4 ms."""
        with lucene_runtime.java_lock:
            self._open()

    def _open(self) -> None:
        autoclass = lucene_runtime.autoclass
        # Anserini's searcher (what pyserini's LuceneSearcher wraps) supplies the analyzer and BM25 parameters, and
        # looks products up by id. find() searches the same reader through a plain IndexSearcher with the same
        # settings: the index is one segment sorted by id, so Lucene's own order (score, then document number) is
        # Anserini's (score, then id), and its top-50 search, which skips documents that cannot make the top 50, keeps
        # the right one of tied documents. Sorting and paging the kept hits stays in Java.
        # (Top-n here is Lucene's TopScoreDocCollector: exact, pruning only documents that cannot enter the top n.)
        self._anserini = lucene_runtime.simple_searcher(self.index_dir)
        self._analyzer = self._anserini.get_analyzer()
        reader = autoclass("org.apache.lucene.index.DirectoryReader").open(
            autoclass("org.apache.lucene.store.FSDirectory").open(autoclass("java.nio.file.Paths").get(str(self.index_dir)))
        )
        self._searcher = autoclass("org.apache.lucene.search.IndexSearcher")(
            lucene_runtime.cast("org.apache.lucene.index.IndexReader", reader)
        )
        self._searcher.setSimilarity(self._anserini.get_similarity())
        sort, sort_field = autoclass("org.apache.lucene.search.Sort"), autoclass("org.apache.lucene.search.SortField")
        field_type = autoclass("org.apache.lucene.search.SortField$Type")
        numeric_sort_field = autoclass("org.apache.lucene.search.SortedNumericSortField")
        types = {"sold_count": field_type.LONG, "price": field_type.DOUBLE}
        rescorer = autoclass("org.apache.lucene.search.SortRescorer")
        self._rescorers = {}
        for name, (field, descending) in SORTS.items():
            # Sorting by (key, BM25 order) is exactly a stable sort by key of the BM25-ordered hits.
            key = (numeric_sort_field if field == "price" else sort_field)(field, types[field], descending)
            order = sort(key, sort_field.FIELD_SCORE, sort_field.FIELD_DOC)
            self._rescorers[name] = (rescorer(order), order)
        self._top_docs = autoclass("org.apache.lucene.search.TopDocs")
        self._scored_docs = autoclass("io.anserini.search.ScoredDocs")
        self._query_generator = autoclass("io.anserini.search.query.BagOfWordsQueryGenerator")()
        self._boolean_query = autoclass("org.apache.lucene.search.BooleanQuery$Builder")
        occur = autoclass("org.apache.lucene.search.BooleanClause$Occur")
        self._must, self._filter = occur.MUST, occur.FILTER  # a static field read is a JNI call: read once
        self._term_query = autoclass("org.apache.lucene.search.TermQuery")
        self._term = autoclass("org.apache.lucene.index.Term")
        self._shop_queries: dict[str, Any] = {}
        # A service filter is written as the one-term range [s, s], which matches exactly what TermQuery(s) matches.
        # Lucene's query cache never caches a TermQuery (cheap to read from postings) but caches a range query used
        # often: each service then becomes a bitset of the whole index (2.5M bits, 300 KB), which a common word's
        # hits are checked against faster than against the service's long postings list (a third less search time
        # for queries with a service filter at 2.5M products). Shop filters stay TermQuery: a shop's few postings
        # lead the search themselves, and thousands of shops' bitsets would only churn the cache.
        self._service_queries: dict[str, Any] = {}
        self._term_range = autoclass("org.apache.lucene.search.TermRangeQuery")
        # DoubleField's range query is an IndexOrDocValuesQuery: it checks the price doc values of the documents the
        # BM25 clause leads to, instead of first collecting every document in the range from the points (which costs
        # in proportion to the range, millions of documents at the paper's scale). Same matches either way.
        self._double_field = autoclass("org.apache.lucene.document.DoubleField")
        self._count = self._anserini.get_total_num_docs()

    @classmethod
    def open_or_build(cls, catalog_path: Path, index_root: Path, *, progress: bool = True) -> ProductIndex:
        """The index of the catalog (official corpus JSONL, optionally gzipped) under index_root/<content hash>/,
        built on first use."""
        catalog_path, index_root = Path(catalog_path), Path(index_root)

        def build(out_dir: Path) -> None:
            index_build.index_jsonl(
                catalog_path, out_dir, _ProductIndexer, label="catalog", progress=progress, sort_by=ID_ORDER
            )

        index_dir, key = index_build.open_or_build(catalog_path, index_root, build, is_current=_is_sorted_by_id)
        with index_build.opening(index_dir):
            return cls(index_dir, key)

    def find(self, q: str, **options: Unpack[FindOptions]) -> list[dict[str, Any]]:
        """One page (up to 10 products) of find_product, per SPEC §1.3; an invalid page gives []."""
        page = options.get("page", 1)
        if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= MAX_PAGE:
            return []
        try:
            with lucene_runtime.java_lock:
                raws = self._page_raws(q, page, options)
        except Exception as error:  # pyjnius raises JavaException, named by the Java class it wraps
            if "TooManyClauses" not in str(getattr(error, "classname", "")):
                raise
            raise QueryTooLongError(
                f"the query is too long: it has more than {MAX_CLAUSES:,} distinct words (with the filters), the most "
                "the search engine takes; search with a few words"
            ) from None
        return self._cards(raws)

    def _cards(self, raws: list[str]) -> list[dict[str, Any]]:
        """find_product's cards of these stored records, which are kept for later lookups (a record already kept
        stays as it is: once looked up, it is a Product, which a later lookup need not parse and validate again)."""
        products: list[dict[str, Any]] = []
        for raw in raws:
            record = json.loads(raw)
            if record["id"] not in self._records:
                self._remember(record["id"], raw)
            products.append(card(record["product"]))
        return products

    def _remember(self, product_id: str, record: str | Product) -> None:
        if product_id not in self._records and len(self._records) >= RECORDS_KEPT:
            self._records.clear()
        self._records[product_id] = record

    def _page_raws(self, q: str, page: int, options: FindOptions) -> list[str]:
        """The stored records of one page; the caller holds java_lock. Each step is a method of its own so that
        perf/bench_search.py can time them one by one."""
        sort = options.get("sort", "default")
        return self._raws(self._page_hits(self._kept(self._filtered_query(q, options), page, sort), page, sort))

    def _kept(self, query: Any, page: int, sort: str) -> Any:
        """The hits the page is cut from (TopDocs), in BM25 order: all KEPT_HITS when they are to be sorted, else only
        the first page * PAGE_SIZE. Those are the same hits: Lucene's top n is exact (score, then document number), so
        a shorter top list is a prefix of a longer one, and a top 10 is found faster than a top 50."""
        return self._searcher.search(query, KEPT_HITS if sort in self._rescorers else page * PAGE_SIZE)

    def _page_hits(self, kept: Any, page: int, sort: str) -> Any:
        """The kept hits of one page, after the sort if one is asked for (TopDocs)."""
        start = (page - 1) * PAGE_SIZE
        if sort in self._rescorers:
            rescorer, order = self._rescorers[sort]
            resorted = rescorer.rescore(self._searcher, kept, KEPT_HITS)
            resorted = lucene_runtime.cast("org.apache.lucene.search.TopFieldDocs", resorted)
            return self._top_docs.merge(order, start, PAGE_SIZE, [resorted])
        return kept if start == 0 else self._top_docs.merge(start, PAGE_SIZE, [kept])

    def _raws(self, page_hits: Any) -> list[str]:
        """The stored records of these hits. Anserini's ScoredDocs reads all their documents in one Java call; reading
        them one by one cost three calls and two Java objects brought into Python per hit."""
        documents = self._scored_docs.fromTopDocs(page_hits, self._searcher).lucene_documents
        return [document.get("raw") for document in documents]

    def _filtered_query(self, q: str, options: FindOptions) -> Any:
        shop_id, services = options.get("shop_id"), options.get("services", ())
        price_min, price_max = options.get("price_min"), options.get("price_max")
        bm25 = self._query_generator.buildQuery("contents", self._analyzer, lucene_runtime.java_string(q))
        if not services and shop_id is None and price_min is None and price_max is None:
            return bm25  # what a BooleanQuery holding it alone rewrites to
        builder = self._boolean_query()
        builder.add(bm25, self._must)
        for service in dict.fromkeys(services):
            builder.add(self._service_filter(service), self._filter)
        if shop_id is not None:
            builder.add(self._shop_filter(shop_id), self._filter)
        if price_min is not None or price_max is not None:
            low = -math.inf if price_min is None else float(price_min)
            high = math.inf if price_max is None else float(price_max)
            builder.add(self._double_field.newRangeQuery("price", low, high), self._filter)
        return builder.build()

    def _service_filter(self, service: str) -> Any:
        """The query of documents offering `service` (see _open), kept for reuse: the query cache knows it by value,
        and reusing it saves building it."""
        query = self._service_queries.get(service)
        if query is None:
            if len(self._service_queries) >= _FILTERS_KEPT:
                self._service_queries.clear()
            value = lucene_runtime.java_string(service)
            query = self._term_range.newStringRange("service", value, value, True, True)
            self._service_queries[service] = query
        return query

    def _shop_filter(self, shop_id: str) -> Any:
        """TermQuery on shop_id, kept for reuse (Lucene queries are immutable; 4,096 of them take a few MB)."""
        query = self._shop_queries.get(shop_id)
        if query is None:
            if len(self._shop_queries) >= _FILTERS_KEPT:
                self._shop_queries.clear()
            query = self._term_query(self._term("shop_id", lucene_runtime.java_string(shop_id)))
            self._shop_queries[shop_id] = query
        return query

    def get(self, product_ids: Iterable[str]) -> dict[str, Product]:
        """The products with these ids, in the order asked; unknown ids are left out. (The Products are shared with
        later lookups: read them, do not change them.)"""
        found: dict[str, Product] = {}
        for product_id in product_ids:
            if product_id in found:
                continue
            kept = self._records.get(product_id)
            if isinstance(kept, Product):
                found[product_id] = kept
                continue
            if kept is None:
                with lucene_runtime.java_lock:
                    document = self._anserini.doc(lucene_runtime.java_string(product_id))
                    kept = None if document is None else document.get("raw")
            if kept is not None:
                found[product_id] = Product.model_validate(json.loads(kept)["product"])
                self._remember(product_id, found[product_id])
        return found

    def __len__(self) -> int:
        return self._count

    def close(self) -> None:
        with lucene_runtime.java_lock:
            self._anserini.close()
            self._searcher.getIndexReader().close()


def _is_sorted_by_id(index_dir: Path) -> bool:
    """Whether the index has the layout find() relies on (one segment, documents in id order)."""
    autoclass = lucene_runtime.autoclass
    with lucene_runtime.java_lock:
        path = autoclass("java.nio.file.Paths").get(str(index_dir))
        reader = autoclass("org.apache.lucene.index.DirectoryReader").open(
            autoclass("org.apache.lucene.store.FSDirectory").open(path)
        )
        try:
            leaves = reader.leaves()
            if leaves.size() != 1:
                return False
            sort = leaves.get(0).reader().getMetaData().getSort()
            return sort is not None and sort.toString() == index_build.index_order(ID_ORDER).toString()
        finally:
            reader.close()


def card(product: dict[str, Any]) -> dict[str, Any]:
    """find_product's card of one product (CARD_FIELDS)."""
    return {name: product[name] for name in CARD_FIELDS}


class _ProductIndexer:
    """Turns official corpus lines into Lucene documents on one indexing thread.

    Lucene documents and fields are reused between lines (one document per set of services), so a line costs a
    handful of pyjnius calls instead of building a dozen Java objects.
    """

    def __init__(self, writer: Any) -> None:
        autoclass = lucene_runtime.autoclass
        self._writer = writer
        self._store = autoclass("org.apache.lucene.document.Field$Store")
        self._string_field = autoclass("org.apache.lucene.document.StringField")
        self._document = autoclass("org.apache.lucene.document.Document")
        self._id = self._string_field("id", "", self._store.YES)
        self._id_sort = autoclass("org.apache.lucene.document.BinaryDocValuesField")(
            "id", autoclass("org.apache.lucene.util.BytesRef")(b"")
        )
        self._id_order = autoclass("org.apache.lucene.document.SortedDocValuesField")(
            ID_ORDER, autoclass("org.apache.lucene.util.BytesRef")(b"")
        )
        self._contents = autoclass("org.apache.lucene.document.TextField")("contents", "", self._store.NO)
        self._raw = autoclass("org.apache.lucene.document.StoredField")("raw", "")
        self._shop = self._string_field("shop_id", "", self._store.NO)
        # DoubleField = DoublePoint (range filter) + doc values (price sorts) in one field.
        self._price = autoclass("org.apache.lucene.document.DoubleField")("price", 0.0, self._store.NO)
        self._sold_count = autoclass("org.apache.lucene.document.NumericDocValuesField")("sold_count", 0)
        self._fields = [self._id, self._id_sort, self._id_order, self._contents, self._raw, self._shop]
        self._fields += [self._price, self._sold_count]
        self._documents: dict[tuple[str, ...], Any] = {}

    def _document_for(self, services: tuple[str, ...]) -> Any:
        document = self._documents.get(services)
        if document is None:
            document = self._document()
            for field in self._fields:
                document.add(field)
            for service in services:
                document.add(self._string_field("service", lucene_runtime.java_string(service), self._store.NO))
            self._documents[services] = document
        return document

    def parse(self, line: str) -> tuple[str, str, str, str, float, int, tuple[str, ...]]:
        try:
            record = json.loads(line)
            product = record["product"]
            product_id, contents, shop_id = record["id"], record["contents"], product["shop_id"]
            price, sold_count = float(product["price"]), int(product["sold_count"])
            services = tuple(sorted(set(product["service"])))
            card(product)  # find_product shows these fields: a record without them fails here, not at query time
        except json.JSONDecodeError as error:
            raise index_build.BadRecord(f"not valid JSON ({error.msg} at column {error.colno})") from None
        except (KeyError, TypeError, ValueError) as error:
            raise index_build.BadRecord(f"not an official corpus record: {error!r}") from None
        if not all(isinstance(value, str) for value in (product_id, contents, shop_id, *services)):
            raise index_build.BadRecord("id, contents, product.shop_id and product.service must be strings")
        return line, product_id, contents, shop_id, price, sold_count, services

    def write(self, parsed: tuple[str, str, str, str, float, int, tuple[str, ...]]) -> None:
        line, product_id, contents, shop_id, price, sold_count, services = parsed
        java_string = lucene_runtime.java_string
        self._id.setStringValue(java_string(product_id))
        id_bytes = product_id.encode("utf-8")
        self._id_sort.setBytesValue(id_bytes)
        self._id_order.setBytesValue(id_bytes)
        self._contents.setStringValue(java_string(contents))
        self._raw.setStringValue(java_string(line))
        self._shop.setStringValue(java_string(shop_id))
        self._price.setDoubleValue(price)
        self._sold_count.setLongValue(sold_count)
        self._writer.addDocument(self._document_for(services))
