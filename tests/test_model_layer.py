"""The model layer knows no benchmark: providers are imported only when chosen, and what the llama.cpp backend does
to a chat's observations comes from the agent protocol that wrote them (ContextHints), not from the backend."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.models import ChatMessage, ModelAPI, ModelOptions, ModelOutput, ToolCall, ToolSpec, register_backend
from evaluators.models.context import ContextHints
from evaluators.models.llama_cpp.prompt import SUMMARISED, render_messages
from evaluators.players.agent.observations import ObservationHints

REPO = Path(__file__).resolve().parent.parent
BENCHMARK_WORDS = ("shoppingbench", "find_product", "recommend_product", "product_id")
"""What only a benchmark's player may know: its name, its tools, its observations' fields."""
SHARED_DATA_MODULES = ("benchmarks.home", "benchmarks.names", "benchmarks.errors")
"""What the model layer may import of the data layer: where files live, how a mistyped name is answered, and the
refusal types every layer raises."""

TOOLS = [
    ToolSpec(name="find_product", description="Search the catalog. Returns a page.",
             parameters={"type": "object", "properties": {"q": {"type": "string"},
                                                          "page": {"type": "integer", "minimum": 1, "maximum": 5},
                                                          "shop_id": {"type": "string"}},
                         "required": ["q", "page"]}),
    ToolSpec(name="terminate", description="End the task.",
             parameters={"type": "object", "properties": {"status": {"enum": ["success", "failure"]}},
                         "required": ["status"]}),
]
PAGE = json.dumps([{"product_id": str(2449059468 + i), "shop_id": str(3001974 + i), "title": f"Crunchy chips {i}",
                    "price": 59.0 + i, "service": ["COD"], "sold_count": i} for i in range(12)])
RENDERED_AT_485C014 = "45e7a5f3803560ac5b2f0df12c9c8c252a6148a5bc0648f90059fa8aeaf2760c"
"""sha256 of the llama.cpp backend's rendering of `_episode()` at 485c014 (budget 4,000 characters)."""


def _episode() -> list[ChatMessage]:
    messages = [ChatMessage(role="system", content="S"), ChatMessage(role="user", content="I want chips.")]
    for i in range(9):
        call = ToolCall(id=f"c{i}", name="find_product", arguments={"q": "chips", "page": 1 + i % 5})
        messages += [ChatMessage(role="assistant", content="look", tool_calls=[call]),
                     ChatMessage(role="tool", content=PAGE if i % 3 else "no results for that", tool_call_id=f"c{i}",
                                 name="find_product")]
    return messages


def test_the_model_layer_names_no_benchmark():
    """Not by name, tool or field, and it imports nothing of the data layer but where files live and the wording
    every refusal of a mistyped name shares (benchmarks.names: no benchmark in it)."""
    found = []
    for path in sorted((REPO / "evaluators" / "models").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(REPO)}: {word}" for word in BENCHMARK_WORDS if word in text]
        for node in ast.walk(ast.parse(text)):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(REPO)}: imports {name}" for name in names
                      if name.split(".")[0] == "benchmarks" and name not in SHARED_DATA_MODULES]
    assert not found, found


def test_a_provider_is_imported_only_when_chosen():
    """A fresh process that builds an OpenAI model (no key: refused) has loaded no other provider's module."""
    code = ("import sys\nfrom evaluators.models import get_model, ModelSpecError\n"
            "try:\n    get_model('openai:gpt-4.1')\nexcept ModelSpecError as e:\n    print('refused:', e)\n"
            "print(sorted(m for m in sys.modules if m.startswith('evaluators.models.')))")
    env = {key: value for key, value in os.environ.items() if key != "OPENAI_API_KEY"}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    refused, loaded = done.stdout.strip().splitlines()
    assert refused == "refused: openai: set OPENAI_API_KEY"
    assert "evaluators.models.openai" in loaded
    assert "anthropic" not in loaded and "llama_cpp" not in loaded


def test_the_protocols_hints_render_the_chat_as_before_and_plain_hints_know_no_benchmark():
    rendered = render_messages(_episode(), TOOLS, 4000, ObservationHints())
    assert hashlib.sha256(json.dumps(rendered).encode()).hexdigest() == RENDERED_AT_485C014
    plain = render_messages(_episode(), TOOLS, 4000)
    assert "Example:" not in plain[0]["content"]  # the worked find_product call is the protocol's
    summaries = [turn["content"] for turn in plain if SUMMARISED in turn["content"]]
    assert summaries and not any("products:" in summary for summary in summaries)
    assert plain[-1]["content"].startswith('Observation from find_product:\n[{"product_id"')  # shown as written
    assert rendered[-1]["content"].startswith("Observation from find_product:\nproduct_id | shop_id | title")


class _Terminates(ModelAPI):
    spec = "hints-probe"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        return ModelOutput(tool_calls=[ToolCall(id="t", name="terminate", arguments={"status": "failure"})],
                           model="hints-probe")


GIVEN: list[ContextHints] = []


@register_backend("hints-probe", needs_argument=False, help="test model: records its hints, then terminates")
def _hints_probe(rest: str, options: ModelOptions) -> ModelAPI:
    GIVEN.append(options.hints)
    return _Terminates()


async def test_a_run_hands_its_protocol_hints_to_the_backend(default_world, tmp_path):
    await run_benchmark(RunConfig(benchmark="shoppingbench", model="hints-probe", world=default_world.root, limit=1,
                                  intents=("product",), out=tmp_path, cache=False))
    assert len(GIVEN) == 1 and isinstance(GIVEN[0], ObservationHints)
