"""The offline web_search corpus: BM25 over title + content, built once per corpus content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.jsonl import DataFileError
from mcp_server.shopping.search.knowledge_index import KnowledgeIndex

DOCUMENTS = [
    {"url": "https://kb.example/violin", "title": "Choosing a violin bow", "content": "Horsehair and pernambuco wood."},
    {"url": "https://kb.example/shoes", "title": "Running shoes", "content": "Cushioning, drop and stability."},
    {"url": "https://kb.example/tea", "title": "Green tea", "content": "Steep at 80 degrees; rich in catechins."},
    {"url": "https://kb.example/emoji", "title": "Emoji 😀 keyboards", "content": "Typing 𝒳 and friends."},
] + [
    {"url": f"https://kb.example/f/{i}", "title": f"Filler page {i}", "content": "nothing useful"} for i in range(30)
]


def write_corpus(path: Path, documents: list[dict]) -> Path:
    path.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def knowledge(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeIndex:
    root = tmp_path_factory.mktemp("knowledge")
    corpus = write_corpus(root / "knowledge.jsonl", DOCUMENTS)
    index = KnowledgeIndex.open_or_build(corpus, root / "index", progress=False)
    yield index
    index.close()


def test_search_returns_whole_documents_best_first(knowledge: KnowledgeIndex) -> None:
    assert len(knowledge) == len(DOCUMENTS)
    results = knowledge.search("what wood is a violin bow made of")
    assert results[0] == DOCUMENTS[0]
    assert all(set(r) == {"url", "title", "content"} for r in results)


def test_title_and_content_are_both_searched(knowledge: KnowledgeIndex) -> None:
    assert knowledge.search("running")[0]["url"] == "https://kb.example/shoes"  # title only
    assert knowledge.search("catechins")[0]["url"] == "https://kb.example/tea"  # content only
    assert knowledge.search("emoji 😀")[0] == DOCUMENTS[3]  # stored text comes back intact


def test_max_results_bounds_the_list(knowledge: KnowledgeIndex) -> None:
    assert len(knowledge.search("filler page", max_results=5)) == 5
    assert len(knowledge.search("filler page")) == 10
    assert len(knowledge.search("filler page", max_results=20)) == 20
    assert knowledge.search("filler page", max_results=0) == []


def test_no_match_gives_nothing(knowledge: KnowledgeIndex) -> None:
    assert knowledge.search("zyzzyva") == []
    assert knowledge.search("") == []


def test_same_corpus_reuses_the_index_and_a_changed_one_gets_its_own(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "knowledge.jsonl", DOCUMENTS[:3])
    first = KnowledgeIndex.open_or_build(corpus, tmp_path / "index", progress=False)
    again = KnowledgeIndex.open_or_build(corpus, tmp_path / "index", progress=False)
    assert again.index_dir == first.index_dir
    write_corpus(corpus, DOCUMENTS[:2])
    changed = KnowledgeIndex.open_or_build(corpus, tmp_path / "index", progress=False)
    assert changed.index_dir != first.index_dir and len(changed) == 2
    assert sorted(p.name for p in (tmp_path / "index").iterdir()) == sorted([first.content_hash, changed.content_hash])
    for index in (first, again, changed):
        index.close()


def test_a_bad_line_names_file_and_line(tmp_path: Path) -> None:
    corpus = tmp_path / "knowledge.jsonl"
    corpus.write_text(json.dumps(DOCUMENTS[0]) + "\n\n" + json.dumps({"url": "u", "title": "t"}) + "\n")
    with pytest.raises(DataFileError) as error:
        KnowledgeIndex.open_or_build(corpus, tmp_path / "index", progress=False)
    assert error.value.path == corpus and error.value.line == 3
    assert list((tmp_path / "index").iterdir()) == []
