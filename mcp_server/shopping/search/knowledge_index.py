"""The offline web_search corpus: BM25 (Pyserini defaults) over each document's title and content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_server.shopping.search import index_build, lucene_runtime


class KnowledgeIndex:
    """Search over a JSONL corpus of {url, title, content} documents, indexed once per corpus content hash."""

    def __init__(self, index_dir: Path, content_hash: str) -> None:
        self.index_dir, self.content_hash = index_dir, content_hash
        with lucene_runtime.java_lock:
            self._searcher = lucene_runtime.simple_searcher(index_dir)
            self._count = self._searcher.get_total_num_docs()

    @classmethod
    def open_or_build(cls, corpus_path: Path, index_root: Path, *, progress: bool = True) -> KnowledgeIndex:
        corpus_path, index_root = Path(corpus_path), Path(index_root)

        def build(out_dir: Path) -> None:
            index_build.index_jsonl(corpus_path, out_dir, _KnowledgeIndexer, label="knowledge", progress=progress)

        index_dir, key = index_build.open_or_build(corpus_path, index_root, build)
        with index_build.opening(index_dir):
            return cls(index_dir, key)

    def search(self, q: str, max_results: int = 10) -> list[dict[str, str]]:
        """The best `max_results` documents for `q`, best first, as {url, title, content}."""
        if max_results < 1:
            return []
        with lucene_runtime.java_lock:
            hits = self._searcher.search(lucene_runtime.java_string(q), max_results)
            raws = [hit.lucene_document.get("raw") for hit in hits]
        documents = [json.loads(raw) for raw in raws]
        return [{"url": d["url"], "title": d["title"], "content": d["content"]} for d in documents]

    def __len__(self) -> int:
        return self._count

    def close(self) -> None:
        with lucene_runtime.java_lock:
            self._searcher.close()


class _KnowledgeIndexer:
    """Turns corpus lines into Lucene documents (id = url; contents = title and content; the line stored raw)."""

    def __init__(self, writer: Any) -> None:
        autoclass = lucene_runtime.autoclass
        store = autoclass("org.apache.lucene.document.Field$Store")
        self._writer = writer
        self._id = autoclass("org.apache.lucene.document.StringField")("id", "", store.YES)
        self._id_sort = autoclass("org.apache.lucene.document.BinaryDocValuesField")(
            "id", autoclass("org.apache.lucene.util.BytesRef")(b"")
        )
        self._contents = autoclass("org.apache.lucene.document.TextField")("contents", "", store.NO)
        self._raw = autoclass("org.apache.lucene.document.StoredField")("raw", "")
        self._document = autoclass("org.apache.lucene.document.Document")()
        for field in (self._id, self._id_sort, self._contents, self._raw):
            self._document.add(field)

    def parse(self, line: str) -> tuple[str, str, str]:
        try:
            document = json.loads(line)
            url, title, content = document["url"], document["title"], document["content"]
        except json.JSONDecodeError as error:
            raise index_build.BadRecord(f"not valid JSON ({error.msg} at column {error.colno})") from None
        except (KeyError, TypeError) as error:
            raise index_build.BadRecord(f"not a {{url, title, content}} document: missing {error}") from None
        if not all(isinstance(value, str) for value in (url, title, content)):
            raise index_build.BadRecord("url, title and content must be strings")
        return line, url, f"{title}\n{content}"

    def write(self, parsed: tuple[str, str, str]) -> None:
        line, url, contents = parsed
        self._id.setStringValue(lucene_runtime.java_string(url))
        self._id_sort.setBytesValue(url.encode("utf-8"))
        self._contents.setStringValue(lucene_runtime.java_string(contents))
        self._raw.setStringValue(lucene_runtime.java_string(line))
        self._writer.addDocument(self._document)
