"""Generated ShoppingBench worlds: catalog, task sets for the four intents, and the knowledge corpus.

Pure data and logic (no Lucene): the checks play tasks against an injected `Tools` (heuristic.Tools), which
mcp_server.world_build.WorldTools implements over a world's indexes.
"""

import hashlib
from pathlib import Path


def source_digest(path: str) -> str:
    """sha256 of a module's source, taken when the module is imported: what the running code was compiled from."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
