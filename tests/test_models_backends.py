"""Backends chosen by spec string, and the OpenAI / Anthropic backends against loopback fakes of their HTTP APIs."""

from __future__ import annotations

import pytest

import evaluators.players.baselines  # noqa: F401 - registers the baselines as model specs
from evaluators.models import (
    ChatMessage,
    GenerateConfig,
    ModelOptions,
    ModelSpecError,
    ToolSpec,
    TransientModelError,
    backends,
    get_model,
)
from tests._fake_llm import FakeLLMServer

TOOLS = [
    ToolSpec(name="find_product", description="Search.", parameters={
        "type": "object", "properties": {"q": {"type": "string"}, "page": {"type": "integer"}}, "required": ["q"]}),
    ToolSpec(name="terminate", description="Stop.", parameters={
        "type": "object", "properties": {"status": {"enum": ["success", "failure"]}}, "required": ["status"]}),
]
CHAT = [ChatMessage(role="system", content="Be brief."), ChatMessage(role="user", content="Find a shirt.")]


def test_every_provider_is_registered():
    assert set(backends()) >= {"llama-cpp", "openai", "openai-compatible", "anthropic", "random", "oracle"}


def test_unknown_provider_gets_a_did_you_mean():
    with pytest.raises(ModelSpecError, match="Did you mean 'anthropic'"):
        get_model("antropic:claude-sonnet-4-0")


def test_arguments_are_checked():
    with pytest.raises(ModelSpecError, match="needs an argument"):
        get_model("openai")
    with pytest.raises(ModelSpecError, match="takes no argument"):
        get_model("oracle:gpt")
    with pytest.raises(ModelSpecError, match="<base url>#<model>"):
        get_model("openai-compatible:http://localhost:8000/v1")
    with pytest.raises(ModelSpecError, match="no model file"):
        get_model("llama-cpp:/nonexistent/model.gguf")


def test_missing_api_key_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        get_model("openai:gpt-4.1")
    with pytest.raises(ModelSpecError, match="ANTHROPIC_API_KEY"):
        get_model("anthropic:claude-sonnet-4-0")


def _script_policy(body):
    return "searching", [("find_product", {"q": "shirt", "page": 1})]


async def test_openai_native_tool_call_round_trip(monkeypatch):
    with FakeLLMServer("openai", _script_policy) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        model = get_model("openai:gpt-4.1")
        output = await model.generate(CHAT, TOOLS, GenerateConfig(temperature=0, max_tokens=64, seed=7))
        await model.aclose()
    request = fake.requests[0]
    assert request["model"] == "gpt-4.1" and request["temperature"] == 0 and request["seed"] == 7
    assert [t["function"]["name"] for t in request["tools"]] == ["find_product", "terminate"]
    assert output.text == "searching" and output.model == "fake-gpt-4.1"
    assert [(c.name, c.arguments) for c in output.tool_calls] == [("find_product", {"q": "shirt", "page": 1})]
    assert output.usage.input_tokens == 101 and output.usage.output_tokens == 10


async def test_openai_compatible_spec_carries_url_and_model(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeLLMServer("openai", _script_policy) as fake:
        model = get_model(f"openai-compatible:{fake.base_url}#Qwen/Qwen3-4B")
        assert model.identity()["model"] == "Qwen/Qwen3-4B"
        output = await model.generate(CHAT, TOOLS)
        await model.aclose()
    assert fake.requests[0]["model"] == "Qwen/Qwen3-4B" and output.tool_calls[0].name == "find_product"


async def test_openai_bad_argument_json_becomes_a_parse_error(monkeypatch):
    with FakeLLMServer("openai", _script_policy) as fake:
        fake.render = lambda body, text, calls: {  # a provider returning broken JSON arguments
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
                         "tool_calls": [{"id": "c1", "type": "function",
                                         "function": {"name": "find_product", "arguments": '{"q": '}}]}}],
        }
        model = get_model(f"openai-compatible:{fake.base_url}#m")
        output = await model.generate(CHAT, TOOLS)
        await model.aclose()
    assert output.tool_calls[0].name == "find_product"
    assert output.tool_calls[0].parse_error.startswith("arguments are not valid JSON")


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_openai_retryable_statuses_are_transient(monkeypatch, status):
    with FakeLLMServer("openai", _script_policy, script=[status]) as fake:
        model = get_model(f"openai-compatible:{fake.base_url}#m")
        with pytest.raises(TransientModelError, match=str(status) if status >= 500 else "RateLimit"):
            await model.generate(CHAT, TOOLS)
        await model.aclose()


async def test_openai_client_error_is_not_transient():
    with FakeLLMServer("openai", _script_policy, script=[400]) as fake:
        model = get_model(f"openai-compatible:{fake.base_url}#m")
        with pytest.raises(Exception) as raised:
            await model.generate(CHAT, TOOLS)
        await model.aclose()
    assert not isinstance(raised.value, TransientModelError)


async def test_timeout_is_transient():
    with FakeLLMServer("openai", _script_policy, script=[2.0]) as fake:
        model = get_model(f"openai-compatible:{fake.base_url}#m", ModelOptions(timeout_s=0.3))
        with pytest.raises(TransientModelError, match="Timeout"):
            await model.generate(CHAT, TOOLS)
        await model.aclose()


async def test_anthropic_native_tool_use_round_trip(monkeypatch):
    with FakeLLMServer("anthropic", _script_policy, script=[529]) as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        model = get_model("anthropic:claude-test")
        with pytest.raises(TransientModelError, match="529"):
            await model.generate(CHAT, TOOLS)
        history = [
            *CHAT,
            ChatMessage(role="assistant", content="look", tool_calls=[
                {"id": "toolu_a", "name": "find_product", "arguments": {"q": "x", "page": 1}}]),
            ChatMessage(role="tool", content='[{"product_id": "p1"}]', tool_call_id="toolu_a", name="find_product"),
            ChatMessage(role="user", content="Your reply could not be run."),
        ]
        output = await model.generate(history, TOOLS, GenerateConfig(max_tokens=99, stop=["END"]))
        await model.aclose()
    request = fake.requests[1]
    assert request["system"] == "Be brief." and request["max_tokens"] == 99 and request["stop_sequences"] == ["END"]
    assert request["temperature"] == 0
    assert [t["name"] for t in request["tools"]] == ["find_product", "terminate"]
    assert [m["role"] for m in request["messages"]] == ["user", "assistant", "user"]
    assert request["messages"][1]["content"][1] == {"type": "tool_use", "id": "toolu_a", "name": "find_product",
                                                    "input": {"q": "x", "page": 1}}
    assert request["messages"][2]["content"][0]["type"] == "tool_result"
    assert request["messages"][2]["content"][1] == {"type": "text", "text": "Your reply could not be run."}
    assert output.model == "fake-claude-sonnet-4" and output.text == "searching"
    assert [(c.name, c.arguments) for c in output.tool_calls] == [("find_product", {"q": "shirt", "page": 1})]
    assert output.usage.output_tokens == 10
