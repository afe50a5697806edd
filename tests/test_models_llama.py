"""The embedded SmolLM2-135M GGUF through llama.cpp: grammar-constrained calls, end to end through the sandbox."""

from __future__ import annotations

import json

from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.models import ChatMessage, ToolSpec, get_model
from evaluators.models.llama_cpp.grammar import ARGUMENT_MAX_CHARS, tool_call_schema
from evaluators.models.llama_cpp.loading import build_llama
from evaluators.models.llama_cpp.prompt import SUMMARISED, SUMMARY_CHUNK, render_messages
from evaluators.players.agent.observations import compact_observation
from mcp_server.shopping.tools import SHOPPING_TOOLS
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory

TOOLS = [ToolSpec(name=s.name, description=s.description, parameters=s.arguments.model_json_schema())
         for s in SHOPPING_TOOLS.values()]


def test_schema_is_one_call_to_a_known_tool_with_bounded_strings():
    schema = tool_call_schema(TOOLS)
    names = [branch["properties"]["name"]["const"] for branch in schema["oneOf"]]
    assert names == list(SHOPPING_TOOLS)
    find = schema["oneOf"][0]["properties"]["arguments"]
    assert find["properties"]["q"]["maxLength"] == ARGUMENT_MAX_CHARS
    assert find["additionalProperties"] is False and find["required"] == ["q", "page"]
    assert find["properties"]["page"]["enum"] == [1, 2, 3, 4, 5]  # the grammar cannot ask for page 1000000
    web = next(b for b in schema["oneOf"] if b["properties"]["name"]["const"] == "web_search")
    assert web["properties"]["arguments"]["properties"]["max_results"]["enum"] == list(range(1, 21))
    terminate = schema["oneOf"][-1]["properties"]["arguments"]["properties"]["status"]
    assert "maxLength" not in terminate  # enums stay as they are


def test_history_renders_as_plain_turns_and_old_observations_are_elided():
    call = {"id": "c0", "name": "find_product", "arguments": {"q": "bag", "page": 1}}
    messages = [
        ChatMessage(role="system", content="S"),
        ChatMessage(role="user", content="I want a bag."),
        ChatMessage(role="assistant", content="search", tool_calls=[call]),
        ChatMessage(role="tool", content="x" * 5000, tool_call_id="c0", name="find_product"),
        ChatMessage(role="assistant", content="", tool_calls=[{**call, "id": "c1"}]),
        ChatMessage(role="tool", content="y" * 50, tool_call_id="c1", name="find_product"),
    ]
    rendered = render_messages(messages, TOOLS, budget_chars=3000)
    assert [turn["role"] for turn in rendered] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert "find_product(q, page, shop_id?" in rendered[0]["content"]
    assert json.loads(rendered[2]["content"]) == {"thought": "search", "name": "find_product",
                                                   "arguments": {"q": "bag", "page": 1}}
    assert rendered[3]["content"].startswith(f"Observation from find_product {SUMMARISED}: xxx")
    assert len(rendered[3]["content"]) < 300
    assert rendered[5]["content"] == "Observation from find_product:\n" + "y" * 50


def test_identity_records_the_model_file_hash():
    identity = get_model("llama-cpp:smollm2?shipped").identity()
    assert identity["file"] == "SmolLM2-135M-Instruct.Q4_1.gguf" and len(identity["sha256"]) == 64
    assert "requantized" not in identity and identity["settings"]["n_batch"] == 512


def test_the_embedded_model_runs_from_a_q8_0_copy_recorded_with_its_source(tmp_path, monkeypatch):
    """The copy is made once under $SHOPBENCH_HOME/models, named by the source's hash, the same bytes every time, and
    it predicts the same next tokens as the shipped file (to within activation rounding: an exact F16 copy of the
    Q4_1 weights agrees with the shipped file on ~95% of next tokens too)."""
    import numpy as np

    monkeypatch.setenv("SHOPBENCH_HOME", str(tmp_path))
    identity = get_model("llama-cpp:smollm2").identity()
    shipped = get_model("llama-cpp:smollm2?shipped").identity()
    copy = tmp_path / "models" / identity["file"]
    assert copy.is_file() and identity["file"].endswith(".Q8_0.gguf")
    assert identity["requantized"]["to"] == "Q8_0"
    assert identity["requantized"]["from_sha256"] == shipped["sha256"] != identity["sha256"]
    assert shipped["sha256"][:16] in identity["file"]
    assert not list(copy.parent.glob("*.partial"))
    again = tmp_path / "again"
    monkeypatch.setenv("SHOPBENCH_HOME", str(again))
    assert get_model("llama-cpp:smollm2").identity()["sha256"] == identity["sha256"]  # deterministic

    text = "\n".join(["Observation from find_product:", compact_observation(PAGE),
                      "I want the cheapest crunchy chips; recommend it and then terminate."]) * 2

    def predictions(path: str) -> np.ndarray:
        llm = build_llama(path, n_ctx=1024, n_threads=1, logits_all=True)
        tokens = llm.tokenize(text.encode(), add_bos=False)
        llm.eval(tokens)
        best = np.asarray(llm.scores[: len(tokens)]).argmax(axis=1)
        llm.close()
        return best

    from evaluators.models.llama_cpp.loading import embedded_model_path

    agreement = float((predictions(str(copy)) == predictions(str(embedded_model_path()))).mean())
    assert agreement >= 0.9, agreement


def test_unknown_flags_are_named():
    import pytest

    from evaluators.models import ModelSpecError

    with pytest.raises(ModelSpecError, match="'fast'"):
        get_model("llama-cpp:smollm2?shipped,fast")
    assert get_model("llama-cpp:smollm2?required_only,shipped").identity()["grammar"] == "required parameters only"


async def test_smollm2_plays_episodes_end_to_end_with_valid_calls(default_world, tmp_path):
    result = await run_benchmark(RunConfig(benchmark="shoppingbench", model="llama-cpp:smollm2",
                                           world=default_world.root, intents=("product",), limit=2, max_steps=3,
                                           max_tokens=200, n_ctx=4096, out=tmp_path, cache=False))
    assert result.summary.completed == 2 and not result.summary.failed
    manifest = read_manifest(tmp_path)
    assert manifest.agent.kind == "model" and manifest.agent.details["sha256"]
    for path in iter_episode_files(tmp_path):
        trajectory = read_trajectory(path)
        assert trajectory.finished and 1 <= len(trajectory.steps) <= 3
        assert trajectory.end.status in {"terminated", "step_limit"}
        for step in trajectory.steps:
            assert step.tool in SHOPPING_TOOLS  # the grammar allows only real tools
            assert step.usage.output_tokens > 0 and step.usage.latency_s > 0


def test_the_embedded_model_is_held_to_required_parameters():
    schema = tool_call_schema(TOOLS, required_only=True)
    find = schema["oneOf"][0]["properties"]["arguments"]
    assert set(find["properties"]) == {"q", "page"}
    calculate = schema["oneOf"][2]["properties"]["arguments"]
    assert "expression" in calculate["properties"]  # a tool with no required parameter keeps them all
    assert get_model("llama-cpp:smollm2").identity()["grammar"] == "required parameters only"


async def test_a_long_history_is_trimmed_to_the_context_window():
    from evaluators.models import GenerateConfig, ModelOptions

    model = get_model("llama-cpp:smollm2", ModelOptions(n_ctx=1024))
    hits = json.dumps([{"product_id": str(2449059468 + i), "shop_id": str(3001974 + i), "price": 59.0 + i}
                       for i in range(40)])
    messages = [ChatMessage(role="system", content="S"), ChatMessage(role="user", content="I want chips.")]
    for i in range(3):
        call = {"id": f"c{i}", "name": "find_product", "arguments": {"q": "chips", "page": i + 1}}
        messages += [ChatMessage(role="assistant", content="", tool_calls=[call]),
                     ChatMessage(role="tool", content=hits, tool_call_id=f"c{i}", name="find_product")]
    output = await model.generate(messages, TOOLS, GenerateConfig(max_tokens=64))
    assert output.usage.input_tokens <= 1024 - 64
    assert output.tool_calls and output.tool_calls[0].name in SHOPPING_TOOLS


PAGE = json.dumps([{"product_id": str(2449059468 + i), "shop_id": str(3001974 + i), "title": f"Crunchy chips {i}",
                    "price": 59.0 + i, "service": ["COD"], "sold_count": i} for i in range(10)])


def test_a_page_of_products_is_rendered_as_a_table():
    table = compact_observation(PAGE)
    lines = table.split("\n")
    assert lines[0] == "product_id | shop_id | title | price | service | sold_count"
    assert lines[1] == "2449059468 | 3001974 | Crunchy chips 0 | 59.0 | COD | 0" and len(lines) == 11
    assert compact_observation('{"answer": 1}') == '{"answer": 1}'  # not a list of records: unchanged


def test_old_observations_are_summarised_a_chunk_at_a_time_and_earlier_text_stays_put():
    """Summaries come in whole chunks, so between chunks each step's prompt extends the previous one."""
    def episode(steps: int) -> list[ChatMessage]:
        messages = [ChatMessage(role="system", content="S"), ChatMessage(role="user", content="I want chips.")]
        for i in range(steps):
            call = {"id": f"c{i}", "name": "find_product", "arguments": {"q": "chips", "page": 1 + i % 5}}
            messages += [ChatMessage(role="assistant", content="", tool_calls=[call]),
                         ChatMessage(role="tool", content=PAGE, tool_call_id=f"c{i}", name="find_product")]
        return messages

    budget = 9000
    previous: list[dict] | None = None
    extended = 0
    for steps in range(1, 16):
        rendered = render_messages(episode(steps), TOOLS, budget)
        summarised = [i for i, turn in enumerate(rendered) if SUMMARISED in turn["content"]]
        assert len(summarised) % SUMMARY_CHUNK == 0 or len(summarised) == steps - 1
        assert SUMMARISED not in rendered[-1]["content"]  # the latest observation is always in full
        assert sum(len(turn["content"]) for turn in rendered) <= budget
        if previous is not None and rendered[: len(previous)] == previous:
            extended += 1
        previous = rendered
    assert extended >= 9  # of 14 steps, all but the few where a chunk was summarised


async def test_the_second_step_of_an_episode_evaluates_only_the_new_tokens():
    from evaluators.models import GenerateConfig, ModelOptions

    model = get_model("llama-cpp:smollm2", ModelOptions(n_ctx=4096))
    config = GenerateConfig(max_tokens=48, temperature=0.0, seed=0)
    messages = [ChatMessage(role="system", content="S"), ChatMessage(role="user", content="I want chips.")]
    first = await model.generate(messages, TOOLS, config)
    one = dict(model.last_stats)
    assert one["evaluated"] > 0 and one["generated"] > 0  # (an earlier test's prompt may share the system prefix)
    call = first.tool_calls[0]
    name = call.name or "find_product"
    messages += [ChatMessage(role="assistant", content=first.text,
                             tool_calls=[{"id": "c0", "name": name, "arguments": call.arguments}]),
                 ChatMessage(role="tool", content=PAGE, tool_call_id="c0", name=name)]
    await model.generate(messages, TOOLS, config)
    two = model.last_stats
    new_tokens = two["prompt_tokens"] - one["prompt_tokens"]
    assert new_tokens > 200  # the page of products
    assert two["reused"] >= one["prompt_tokens"] - 2  # the whole first prompt came from the KV cache
    assert two["evaluated"] <= new_tokens + 2
