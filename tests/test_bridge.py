"""The model bridge through the official `anthropic` and `openai` SDKs: each wire format, streaming and not, with
tool calls both ways, the agent's tool names mapped to shopbench's and back, and each call in its episode's ledger.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import openai
import pytest

from evaluators.bridge import ModelBridge
from evaluators.models import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, TokenUsage, ToolCall, ToolSpec

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}, "page": {"type": "integer"}}, "required": ["q"]}
SEARCH = ToolCall(id="call_1", name="find_product", arguments={"q": "red shoes", "page": 2})


class Recorder(ModelAPI):
    """Calls find_product until it has seen a tool result, then answers with text; keeps every request."""

    spec = "recorder"

    def __init__(self) -> None:
        self.requests: list[tuple[list[ChatMessage], list[ToolSpec] | None, GenerateConfig | None]] = []

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        self.requests.append((messages, tools, config))
        usage = TokenUsage(input_tokens=1000 + len(messages), output_tokens=7)
        if any(message.role == "tool" for message in messages):
            return ModelOutput(text=f"saw {messages[-1].content}", usage=usage, model="recorder-1")
        return ModelOutput(text="searching", tool_calls=[SEARCH], usage=usage, model="recorder-1")


class Prices:
    def cost(self, spec: str, model_name: str, usage: TokenUsage) -> float | None:
        return usage.input_tokens * 1e-6 + usage.output_tokens * 2e-6


@pytest.fixture
async def bridge():
    async with ModelBridge(prices=Prices()) as running:
        yield running


def anthropic_tools(prefix: str) -> list[dict[str, Any]]:
    return [
        {"name": f"{prefix}find_product", "description": "search", "input_schema": SCHEMA},
        {"name": "Bash", "description": "run a shell command", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search"},
    ]


def check_model_view(model: Recorder, request: int = 0) -> None:
    """The model saw shopbench's names only: the agent's prefix gone, its own tools withheld."""
    messages, tools, _ = model.requests[request]
    assert [tool.name for tool in tools or []] == ["find_product"]
    assert tools and tools[0].parameters == SCHEMA
    for message in messages:
        for call in message.tool_calls or []:
            assert call.name == "find_product"
        if message.role == "tool":
            assert (message.name, message.tool_call_id) == ("find_product", "call_1")


async def test_anthropic_messages_round_trip(bridge):
    model = Recorder()
    episode = bridge.open_episode(model)
    client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="unused", max_retries=0)
    tools = anthropic_tools("mcp__shopbench__")
    first = await client.messages.create(model="claude-x", max_tokens=300, system="be brief", tools=tools,
                                         messages=[{"role": "user", "content": "find red shoes"}])
    assert first.stop_reason == "tool_use"
    call = next(block for block in first.content if block.type == "tool_use")
    assert (call.id, call.name, call.input) == ("call_1", "mcp__shopbench__find_product", SEARCH.arguments)
    assert (first.usage.input_tokens, first.usage.output_tokens) == (1002, 7)
    history = [
        {"role": "user", "content": "find red shoes"},
        {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id,
                                      "content": [{"type": "text", "text": '[{"product_id": "7"}]'}]}]},
    ]
    async with client.messages.stream(model="claude-x", max_tokens=300, tools=tools, messages=history) as stream:
        second = await stream.get_final_message()
    assert second.stop_reason == "end_turn"
    assert [block.text for block in second.content if block.type == "text"] == ['saw [{"product_id": "7"}]']
    async with client.messages.stream(model="claude-x", max_tokens=300, tools=tools,
                                      messages=history[:1]) as stream:
        streamed = await stream.get_final_message()
    assert [block.model_dump() for block in streamed.content] == [block.model_dump() for block in first.content]
    assert streamed.usage.output_tokens == 7
    check_model_view(model, 0)
    check_model_view(model, 1)
    assert model.requests[0][0][0] == ChatMessage(role="system", content="be brief")
    assert model.requests[0][2] == GenerateConfig(max_tokens=300)
    ledger = episode.ledger
    assert [(c.wire, c.stream, c.tool_calls, c.sent_calls) for c in ledger.calls] == [
        ("anthropic-messages", False, ("find_product",), ("mcp__shopbench__find_product",)),
        ("anthropic-messages", True, (), ()),
        ("anthropic-messages", True, ("find_product",), ("mcp__shopbench__find_product",)),
    ]
    assert ledger.hidden_tools == ["Bash", "web_search"]
    assert ledger.identity == {"spec": "recorder"}
    assert {(c.requested_model, c.model) for c in ledger.calls} == {("claude-x", "recorder-1")}
    assert [c.input_tokens for c in ledger.calls] == [1002, 1003, 1001]  # system+user, +assistant+tool, user alone
    assert (ledger.input_tokens, ledger.output_tokens) == (3006, 21)
    assert ledger.cost_usd == pytest.approx(3006 * 1e-6 + 21 * 2e-6)


async def test_openai_chat_round_trip(bridge):
    model = Recorder()
    bridge.server_tools = frozenset({"find_product"})  # bare names (qwen-code's old style) count once this is known
    episode = bridge.open_episode(model, config=GenerateConfig(temperature=0.0, max_tokens=64, seed=3))
    client = openai.AsyncOpenAI(base_url=episode.openai_base_url, api_key="unused", max_retries=0)
    tools = [{"type": "function", "function": {"name": "find_product", "description": "search", "parameters": SCHEMA}},
             {"type": "function", "function": {"name": "run_shell_command", "parameters": {"type": "object"}}}]
    ask = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "find red shoes"}]
    first = await client.chat.completions.create(model="m", messages=ask, tools=tools, temperature=0.9)
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    (call,) = choice.message.tool_calls or []
    assert (call.id, call.function.name, json.loads(call.function.arguments)) == (
        "call_1", "find_product", SEARCH.arguments)
    chunks = [chunk async for chunk in await client.chat.completions.create(
        model="m", messages=ask, tools=tools, stream=True, stream_options={"include_usage": True})]
    deltas = [tc for chunk in chunks for choice in chunk.choices for tc in choice.delta.tool_calls or []]
    assert [(d.id, d.function.name, d.function.arguments) for d in deltas] == [
        ("call_1", "find_product", call.function.arguments)]
    assert chunks[-1].usage and (chunks[-1].usage.prompt_tokens, chunks[-1].usage.completion_tokens) == (1002, 7)
    history = [*ask, choice.message.model_dump(exclude_none=True),
               {"role": "tool", "tool_call_id": call.id, "content": [{"type": "text", "text": "[]"}]}]
    async with client.chat.completions.stream(model="m", messages=history, tools=tools) as stream:
        final = await stream.get_final_completion()
    assert final.choices[0].message.content == "saw []"
    check_model_view(model, 0)
    check_model_view(model, 2)
    assert [config for _, _, config in model.requests] == [GenerateConfig(temperature=0.0, max_tokens=64, seed=3)] * 3
    assert [(c.wire, c.stream, c.sent_calls) for c in episode.ledger.calls] == [
        ("openai-chat", False, ("find_product",)), ("openai-chat", True, ("find_product",)), ("openai-chat", True, ())]
    assert episode.ledger.hidden_tools == ["run_shell_command"]


async def test_openai_responses_round_trip(bridge):
    model = Recorder()
    episode = bridge.open_episode(model)
    client = openai.AsyncOpenAI(base_url=episode.openai_base_url, api_key="unused", max_retries=0)
    # Codex offers each MCP server's tools as one namespace, beside its own tools.
    tools: list[Any] = [
        {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
        {"type": "namespace", "name": "mcp__shopbench", "description": "shopbench",
         "tools": [{"type": "function", "name": "find_product", "description": "search", "parameters": SCHEMA}]},
        {"type": "web_search"},
    ]
    ask = [{"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "be brief"}]},
           {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "find red shoes"}]}]
    first = await client.responses.create(model="m", input=ask, tools=tools, store=False)
    message, call = first.output
    assert message.type == "message" and message.content[0].text == "searching"
    assert call.type == "function_call"
    assert (call.call_id, call.name, call.namespace, json.loads(call.arguments)) == (
        "call_1", "find_product", "mcp__shopbench", SEARCH.arguments)
    assert first.usage and (first.usage.input_tokens, first.usage.output_tokens) == (1002, 7)
    async with client.responses.stream(model="m", input=ask, tools=tools, store=False) as stream:
        streamed = await stream.get_final_response()
    def essentials(item: Any) -> tuple[Any, ...]:
        if item.type == "message":
            return item.type, item.role, [part.text for part in item.content]
        return item.type, item.call_id, item.name, item.namespace, item.arguments

    assert [essentials(item) for item in streamed.output] == [essentials(item) for item in first.output]
    assert streamed.usage and streamed.usage.total_tokens == 1009
    history = [*ask, call.model_dump(exclude_none=True),
               {"type": "function_call_output", "call_id": call.call_id, "output": "[]"}]
    answer = await client.responses.create(model="m", input=history, tools=tools, store=False)
    assert answer.output_text == "saw []"
    check_model_view(model, 0)
    check_model_view(model, 2)
    assert model.requests[0][0][0] == ChatMessage(role="system", content="be brief")
    assert [(c.wire, c.stream, c.sent_calls) for c in episode.ledger.calls] == [
        ("openai-responses", False, ("mcp__shopbench__find_product",)),
        ("openai-responses", True, ("mcp__shopbench__find_product",)),
        ("openai-responses", False, ()),
    ]
    assert episode.ledger.hidden_tools == ["exec_command", "web_search"]


@pytest.mark.parametrize("flavour", ["anthropic", "openai"])
async def test_api_models_behind_the_bridge_reach_the_host_their_sdk_variable_names(bridge, monkeypatch, flavour):
    """An agent speaking one wire format, a provider model speaking the other, the provider's host named the way
    its SDK reads it (ANTHROPIC_BASE_URL, OPENAI_BASE_URL): the bridge's model calls go there."""
    from evaluators.models import get_model
    from tests._fake_llm import FakeLLMServer, shopping_policy

    with FakeLLMServer(flavour, shopping_policy) as upstream:
        monkeypatch.setenv(f"{flavour.upper()}_API_KEY", "sk-test")
        monkeypatch.setenv(f"{flavour.upper()}_BASE_URL", upstream.base_url)
        model = get_model(f"{flavour}:{'claude-sonnet-4-0' if flavour == 'anthropic' else 'gpt-4.1'}")
        episode = bridge.open_episode(model)
        tools: list[Any] = [{"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
                            {"type": "namespace", "name": "mcp__shopbench", "tools": [
                                {"type": "function", "name": "find_product", "parameters": SCHEMA}]}]
        if flavour == "anthropic":  # the agent is Codex (Responses); the model Anthropic's
            client = openai.AsyncOpenAI(base_url=episode.openai_base_url, api_key="unused", max_retries=0)
            reply = await client.responses.create(model="m", input="find a shirt", tools=tools, store=False)
            call = next(item for item in reply.output if item.type == "function_call")
            assert (call.namespace, call.name) == ("mcp__shopbench", "find_product")
        else:  # the agent is Claude Code (Messages); the model OpenAI's
            client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="unused", max_retries=0)
            answer = await client.messages.create(model="m", max_tokens=100, tools=anthropic_tools("mcp__shopbench__"),
                                                  messages=[{"role": "user", "content": "find a shirt"}])
            assert [b.name for b in answer.content if b.type == "tool_use"] == ["mcp__shopbench__find_product"]
        await model.aclose()
    (sent,) = upstream.requests
    offered = [t.get("name") or t["function"]["name"] for t in sent["tools"]]
    assert offered == ["find_product"]  # canonical, and nothing of the agent's own
    (call_record,) = episode.ledger.calls
    assert call_record.model.startswith("fake-") and call_record.input_tokens == 101
    assert call_record.cost_usd == pytest.approx(101e-6 + 10 * 2e-6)
