"""Lucene search for the sandbox: the catalog (find_product) and the offline web_search corpus.

Everything reaches Pyserini through `lucene_runtime`; the indexes are built by `index_build`.
"""
