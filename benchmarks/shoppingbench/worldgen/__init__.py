"""Generated ShoppingBench worlds: catalog, task sets for the four intents, and the knowledge corpus.

Pure data and logic (no Lucene): solvability checks take the search as an injected `finder`.
"""
