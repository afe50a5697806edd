"""Local GGUF models through llama.cpp: `llama-cpp:<path.gguf>` or `llama-cpp:smollm2` (the embedded default).

With tools, decoding is constrained by a grammar (grammar.py) so even a 135M model always emits a well-formed call to
a real tool; the tool list is also described in the system prompt so the model can choose (prompt.py). Loaded
models are cached per process (one load per file and settings, loading.py); calls are serialised because a Llama
object is not thread-safe.

Speed on a small CPU: the steps of an episode share the KV cache (see prompt.py); `LlamaCppModel.last_stats`
reports how many prompt tokens were evaluated and how many were reused, from llama.cpp's own counters. Threads are
the physical cores, prompts are evaluated in batches of 512.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelSpecError,
    TokenUsage,
    ToolSpec,
)
from evaluators.models.context import ContextHints
from evaluators.models.llama_cpp.grammar import grammar, parse_constrained_call, tool_call_schema
from evaluators.models.llama_cpp.loading import (
    FAST_TYPE,
    LOCK,
    N_BATCH,
    REPACK_ENV,
    THREADS_ENV,
    _load,
    embedded_model_path,
    perf_counters,
    physical_cores,
    requantized,
    set_threads,
    sha256_of,
    threads_now,
)
from evaluators.models.llama_cpp.prompt import CHARS_PER_TOKEN, render_messages, trim_to_tokens
from evaluators.models.options import ModelOptions

EMBEDDED = "smollm2"
REQUIRED_ONLY_DEFAULT = {EMBEDDED}
"""Models whose grammar admits required parameters only: SmolLM2-135M fills every optional parameter with junk
(shop_id "1234567890", price "415") and then repeats the failing call, so for it filters are left out. Other
models get every parameter; `llama-cpp:<path>?required_only` (or ModelOptions.extra) opts in."""


class LlamaCppModel(ModelAPI):
    def __init__(self, spec: str, path: Path, n_ctx: int, n_gpu_layers: int, required_only: bool = False,
                 requantize: str | None = None, hints: ContextHints | None = None) -> None:
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
        self.hints = hints or ContextHints()
        """How tool results are shown and summarised to fit the context (the agent protocol's, or plain)."""
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
        rendered = render_messages(messages, tools, (self.n_ctx - config.max_tokens) * CHARS_PER_TOKEN,
                                   self.hints)
        trim_to_tokens(llm, rendered, self.n_ctx - config.max_tokens - 16, self.hints)
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
            request["grammar"] = grammar(json.dumps(tool_call_schema(tools, self.required_only)))
        with LOCK:
            began = time.perf_counter()
            threads = threads_now()
            set_threads(llm, threads)
            evaluated_before, generated_before, prompt_ms_before, decode_ms_before = perf_counters(llm)
            response = llm.create_chat_completion(**request)
            evaluated_after, generated_after, prompt_ms_after, decode_ms_after = perf_counters(llm)
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


def llama_cpp_model(rest: str, options: ModelOptions) -> ModelAPI:
    name, _, flag_text = rest.partition("?")
    flags = {flag for flag in flag_text.split(",") if flag}
    if unknown := flags - {"required_only", "shipped"}:
        raise ModelSpecError(f"llama-cpp: unknown flag {sorted(unknown)[0]!r} (known: required_only, shipped)")
    path = embedded_model_path() if name == EMBEDDED else Path(name).expanduser()
    required_only = ("required_only" in flags or name in REQUIRED_ONLY_DEFAULT
                     or bool(options.extra.get("required_only")))
    requantize = FAST_TYPE if name == EMBEDDED and "shipped" not in flags else None
    return LlamaCppModel(f"llama-cpp:{rest}", path, options.n_ctx, options.n_gpu_layers, required_only, requantize,
                         options.hints)
