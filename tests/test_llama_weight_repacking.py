"""Every llama.cpp model is loaded without weight repacking unless asked (llama.cpp's AMX matmul segfaults on some
hosts that report AMX, upstream issue 20824), through the backend's one builder, also when loads overlap."""

from __future__ import annotations

import ast
import ctypes
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from evaluators.models.llama_cpp.loading import REPACK_ENV, _load, build_llama, embedded_model_path, requantized

REPO = Path(__file__).resolve().parent.parent
BUILDER = REPO / "evaluators" / "models" / "llama_cpp" / "loading.py"
PLAIN_BUFFERS = {"CPU", "CPU_Mapped"}
"""llama.cpp's own CPU buffers; any other model buffer (CPU_REPACK, AMX, ...) holds repacked weights."""


@pytest.fixture(scope="module")
def q4_0_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Q4_0 copy of the embedded model: a type llama.cpp repacks on any AVX2 (or AMX, or ARM dot-product) CPU, so
    repacking shows in the load log on this project's machines, which lack AMX (the shipped Q4_1 and its Q8_0 copy
    are repacked on AMX CPUs only)."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SHOPBENCH_HOME", str(home))
        return requantized(embedded_model_path(), "Q4_0")


@contextmanager
def llama_cpp_log() -> Iterator[list[str]]:
    """llama.cpp's log lines while the block runs (llama-cpp-python's own callback drops them when not verbose)."""
    import llama_cpp
    from llama_cpp import _logger

    lines: list[str] = []

    @llama_cpp.llama_log_callback
    def collect(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        lines.append(text.decode(errors="replace"))

    llama_cpp.llama_log_set(collect, ctypes.c_void_p(0))
    try:
        yield lines
    finally:
        llama_cpp.llama_log_set(_logger.llama_log_callback, ctypes.c_void_p(0))


def model_buffers(lines: list[str]) -> set[str]:
    """The buffer types llama.cpp put the model's weights in ("load_tensors: CPU_REPACK model buffer size = ...")."""
    return set(re.findall(r"(\S+) model buffer size", "".join(lines)))


def test_no_code_builds_a_llama_outside_the_backends_builder():
    """A `Llama(...)` built anywhere else would load with repacking on, as the q8_0 test once did and crashed the
    whole pytest session on an AMX host."""
    offenders = []
    sources = [path for top in REPO.iterdir() if not top.name.startswith(".")  # not .venv, .git, the cache
               for path in ([top] if top.suffix == ".py" else top.rglob("*.py"))]
    assert BUILDER in sources
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            called = node.func if isinstance(node, ast.Call) else None
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            subclasses = isinstance(node, ast.ClassDef) and any(
                getattr(base, "id", getattr(base, "attr", None)) == "Llama" for base in node.bases)
            if (name == "Llama" or subclasses) and path != BUILDER:
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not offenders, f"build llama.cpp models with evaluators.models.llama_cpp.loading.build_llama: {offenders}"


def test_models_load_without_extra_buffers_unless_repacking_is_asked_for(q4_0_model, monkeypatch):
    monkeypatch.delenv(REPACK_ENV, raising=False)
    with llama_cpp_log() as lines:
        llm = build_llama(q4_0_model, n_ctx=256, n_threads=1)
    assert llm.model_params.use_extra_bufts is False
    assert model_buffers(lines) and model_buffers(lines) <= PLAIN_BUFFERS, model_buffers(lines)
    assert llm.tokenize(b"chips")  # a working model
    llm.close()

    monkeypatch.setenv(REPACK_ENV, "1")
    with llama_cpp_log() as lines:
        llm = build_llama(q4_0_model, n_ctx=256, n_threads=1)
    assert llm.model_params.use_extra_bufts is True
    import llama_cpp

    if re.search(r"\b(AVX2|AMX_INT8) = 1", llama_cpp.llama_print_system_info().decode()):
        assert model_buffers(lines) - PLAIN_BUFFERS, model_buffers(lines)  # the log check above can see repacking
    llm.close()


def test_the_backends_cached_model_is_loaded_without_extra_buffers(q4_0_model, monkeypatch):
    monkeypatch.delenv(REPACK_ENV, raising=False)
    assert _load(q4_0_model, 256, 0).model_params.use_extra_bufts is False


def test_overlapping_loads_each_keep_their_own_setting_and_change_nothing_process_wide(q4_0_model):
    """Loads started together from threads, half asking for repacking: each gets what it asked for, llama.cpp's
    defaults are left as they were, and stdout/stderr still point where they did (llama-cpp-python points them at
    /dev/null during a quiet load)."""
    import llama_cpp

    before = [(os.fstat(fd).st_dev, os.fstat(fd).st_ino) for fd in (1, 2)]
    start = threading.Barrier(4)
    loaded: dict[int, bool] = {}

    def load(index: int) -> None:
        start.wait()
        llm = build_llama(q4_0_model, repack=index % 2 == 1, n_ctx=128, n_threads=1)
        loaded[index] = llm.model_params.use_extra_bufts
        llm.close()

    threads = [threading.Thread(target=load, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loaded == {0: False, 1: True, 2: False, 3: True}
    assert llama_cpp.llama_model_default_params().use_extra_bufts is True
    assert [(os.fstat(fd).st_dev, os.fstat(fd).st_ino) for fd in (1, 2)] == before
