"""The embedder scoring uses: NumPy BERT vectors against sentence-transformers' own (the model the scores were
designed with), threshold decisions unchanged, and no torch import on the way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.shoppingbench.tasks import load_official
from evaluators.results import embeddings
from evaluators.results.embeddings import Embedder, MeanPoolEncoder, NumpyBert, default_model_path, gelu_
from tests._cold_python import run_python

EDGE_CASES = [
    "",
    "   padded with spaces   ",
    "Stainless steel insulated water bottle 1 litre",
    "STAINLESS STEEL INSULATED WATER BOTTLE 1 LITRE!",
    "无线蓝牙耳机 降噪 长续航",
    "Café crème brûlée set 🍮 — 4 ramekins (½ cup)",
    "word " * 400,  # beyond the model's 256 tokens: truncated as sentence-transformers truncates
    "a",
]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """Real product titles of the official tasks (short to long) and the edge cases."""
    titles = sorted({title for task in load_official() for target in task.targets for title in target.title[:1]})
    return titles[::4] + EDGE_CASES


@pytest.fixture(scope="module")
def reference(texts: list[str]) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(default_model_path()), device="cpu", local_files_only=True)
    return model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)


@pytest.fixture(scope="module")
def encoder() -> MeanPoolEncoder:
    model = embeddings._load_model(default_model_path())
    assert isinstance(model, MeanPoolEncoder)  # the bundled model takes the light path
    return model


@pytest.fixture(scope="module")
def ours(texts: list[str], encoder: MeanPoolEncoder) -> np.ndarray:
    return encoder.encode(texts)


def test_vectors_equal_sentence_transformers(texts: list[str], reference: np.ndarray, ours: np.ndarray) -> None:
    assert len(texts) > 200
    assert ours.shape == reference.shape == (len(texts), 384)
    assert np.abs(ours - reference).max() < 2e-6
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


def test_cosines_and_threshold_decisions_equal_sentence_transformers(reference: np.ndarray, ours: np.ndarray) -> None:
    ours_cos, their_cos = ours @ ours.T, reference @ reference.T
    assert np.abs(ours_cos - their_cos).max() < 2e-6
    for threshold in (0.5, 0.8):  # the title thresholds of the ShoppingBench rules
        near = np.abs(their_cos - threshold) < 2e-6  # only a pair this close could be decided otherwise
        assert np.array_equal((ours_cos >= threshold) | near, (their_cos >= threshold) | near)


def test_batching_and_threads_do_not_change_vectors(texts: list[str], ours: np.ndarray, encoder: MeanPoolEncoder,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    some = texts[::6] + EDGE_CASES
    together = ours[[texts.index(text) for text in some]]  # encoded in batches of BATCH_TOKENS on every core
    one_by_one = np.stack([encoder.encode([text])[0] for text in some])
    assert np.abs(together - one_by_one).max() < 1e-6
    monkeypatch.setattr(embeddings, "BATCH_TOKENS", 64)  # many small batches over the worker threads
    assert np.abs(encoder.encode(some) - together).max() < 1e-6
    monkeypatch.setattr(embeddings, "_cores", lambda: 1)
    assert np.abs(encoder.encode(some) - together).max() < 1e-6
    assert encoder.encode([]).shape == (0, 384)


def test_gelu_matches_torch_and_the_exact_erf() -> None:
    import torch
    from scipy.special import erf

    x = np.linspace(-12, 12, 300_001, dtype=np.float32).reshape(-1, 1) * np.ones((1, 7), np.float32)
    ours = gelu_(x.copy())
    assert np.abs(ours - torch.nn.functional.gelu(torch.from_numpy(x)).numpy()).max() < 4e-6
    exact = 0.5 * x.astype(np.float64) * (1 + erf(x.astype(np.float64) / np.sqrt(2)))
    assert np.abs(ours - exact).max() < 4e-6


def test_other_folders_fall_back_to_sentence_transformers(tmp_path: Path) -> None:
    """A folder that is not a float32 BERT with safetensors gets no NumPy model (SentenceTransformer loads it)."""
    assert NumpyBert.load(default_model_path()) is not None
    (tmp_path / "config.json").write_text('{"model_type": "roberta"}', encoding="utf-8")
    assert NumpyBert.load(tmp_path) is None
    assert NumpyBert.load(tmp_path / "missing") is None


def test_scoring_encodes_without_importing_torch(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from evaluators.results.embeddings import load_embedder\n"
        "embedder = load_embedder()\n"
        "print(round(embedder.cosine('red wool scarf', 'scarf in red wool'), 3))\n"
        "assert 'torch' not in sys.modules and 'transformers' not in sys.modules, 'torch was imported'\n"
    )
    done = run_python(code, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert 0.8 < float(done.stdout) <= 1.0
    cached = Embedder(default_model_path(), "minilm", embeddings.VectorCache(next(tmp_path.rglob("*.sqlite"))))
    assert cached.encode(["red wool scarf"]).shape == (1, 384) and cached._model is None
