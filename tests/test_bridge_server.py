"""The model bridge as a server: one ledger per episode, a closed episode and a missing key refused, bad bodies
named in one line, model failures answered the way agents retry, slow streams kept alive, and the scripted
baselines playing through an agent's tool names (the offline way every agent adapter is tested)."""

from __future__ import annotations

import asyncio
import json
import logging

import anthropic
import httpx
import openai
import pytest

import evaluators.players.baselines  # noqa: F401 - registers the baselines as model specs
from evaluators.bridge import ModelBridge, ScriptedPolicy
from evaluators.models import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    TokenUsage,
    ToolCall,
    ToolSpec,
    TransientModelError,
    get_model,
)

TOOL = {"name": "mcp__shopbench__find_product", "description": "search",
        "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}
HELLO = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "hello"}], "tools": [TOOL]}


class Fixed(ModelAPI):
    """Answers every request with one output (or raises one error), after `delay_s`."""

    def __init__(self, output: ModelOutput | None = None, error: Exception | None = None, delay_s: float = 0.0):
        self.spec = "fixed"
        self.output, self.error, self.delay_s = output, error, delay_s

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        await asyncio.sleep(self.delay_s)
        if self.error is not None:
            raise self.error
        assert self.output is not None
        return self.output


async def post(url: str, body: object, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        return await client.post(url, content=json.dumps(body), headers=headers)


async def test_episodes_keep_their_own_ledgers_and_close():
    async with ModelBridge() as bridge:
        assert bridge.url.startswith("http://127.0.0.1:")
        one = bridge.open_episode(Fixed(ModelOutput(text="one", usage=TokenUsage(input_tokens=3), model="a")))
        two = bridge.open_episode(Fixed(ModelOutput(text="two", model="b")))
        assert one.base_url != two.base_url
        for episode, times in ((one, 2), (two, 1)):
            client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="x", max_retries=0)
            for _ in range(times):
                await client.messages.create(**HELLO)
        assert [c.model for c in one.ledger.calls] == ["a", "a"] and [c.model for c in two.ledger.calls] == ["b"]
        assert one.ledger.cost_usd is None  # no price table: unknown, never a guess
        one.close()
        refused = await post(f"{one.base_url}/v1/messages", HELLO)
        assert refused.status_code == 404 and refused.json()["error"]["type"] == "not_found_error"
        assert len(one.ledger.calls) == 2
        async with httpx.AsyncClient() as client:
            models = (await client.get(f"{two.openai_base_url}/models")).json()
        assert [entry["id"] for entry in models["data"]] == ["fixed"]


async def test_a_required_key_is_checked():
    async with ModelBridge(key="s3cret") as bridge:
        episode = bridge.open_episode(Fixed(ModelOutput(text="hi")))
        wrong = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="guess", max_retries=0)
        with pytest.raises(anthropic.AuthenticationError):
            await wrong.messages.create(**HELLO)
        right = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="s3cret", max_retries=0)
        assert (await right.messages.create(**HELLO)).content[0].text == "hi"
        bearer = openai.AsyncOpenAI(base_url=episode.openai_base_url, api_key="s3cret", max_retries=0)
        reply = await bearer.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
        assert reply.choices[0].message.content == "hi"
        assert len(episode.ledger.calls) == 2


async def test_an_episode_s_own_key_opens_that_episode_only(caplog):
    async with ModelBridge(key="run-key") as bridge:
        mine = bridge.open_episode(Fixed(ModelOutput(text="mine")), key="mine-key")
        theirs = bridge.open_episode(Fixed(ModelOutput(text="theirs")), key="their-key")
        with caplog.at_level(logging.WARNING, logger="shopbench.security"):
            for key in ("their-key", "run-key", "guess"):
                client = anthropic.AsyncAnthropic(base_url=mine.base_url, api_key=key, max_retries=0)
                with pytest.raises(anthropic.AuthenticationError):
                    await client.messages.create(**HELLO)
        assert len([r for r in caplog.records if "refused a call without its key" in r.getMessage()]) == 3
        right = anthropic.AsyncAnthropic(base_url=mine.base_url, api_key="mine-key", max_retries=0)
        assert (await right.messages.create(**HELLO)).content[0].text == "mine"
        assert (len(mine.ledger.calls), len(theirs.ledger.calls)) == (1, 0)


async def test_bad_bodies_are_named_in_one_line():
    async with ModelBridge() as bridge:
        model = Fixed(ModelOutput(text="hi"))
        episode = bridge.open_episode(model)
        cases = [
            (f"{episode.base_url}/v1/messages", {"messages": [{"role": "robot", "content": "x"}]},
             "messages[0].role must be user, assistant or system, got 'robot'"),
            (f"{episode.openai_base_url}/chat/completions",
             {"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f",
                                                                                           "arguments": "{oops"}}]}]},
             "messages[0].tool_calls[0].function.arguments is not valid JSON"),
            (f"{episode.openai_base_url}/responses", {"input": "x", "previous_response_id": "resp_1"},
             "previous_response_id is not supported"),
            (f"{episode.openai_base_url}/responses", {"input": [{"type": "computer_call"}]},
             "input[0].type 'computer_call' is not supported"),
            (f"{episode.base_url}/v1/messages", {"messages": "hello"}, "messages must be list, got str"),
        ]
        for url, body, problem in cases:
            answer = await post(url, body)
            assert answer.status_code == 400, (url, body)
            assert problem in answer.json()["error"]["message"]
        garbage = await post(f"{episode.base_url}/v1/messages", "not an object")
        assert garbage.status_code == 400
        assert episode.ledger.calls == []  # nothing reached the model


async def test_model_failures_are_answered_as_agents_retry_them_and_recorded():
    async with ModelBridge() as bridge:
        busy = bridge.open_episode(Fixed(error=TransientModelError("rate limited")))
        with pytest.raises(anthropic.APIStatusError) as caught:
            await anthropic.AsyncAnthropic(base_url=busy.base_url, api_key="x", max_retries=0).messages.create(**HELLO)
        assert caught.value.status_code == 529  # Anthropic's "overloaded": Claude Code backs off and retries
        chat = openai.AsyncOpenAI(base_url=busy.openai_base_url, api_key="x", max_retries=0)
        with pytest.raises(openai.InternalServerError) as failed:
            await chat.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
        assert failed.value.status_code == 503
        broken = bridge.open_episode(Fixed(error=ValueError("the oracle needs the gold task")))
        answer = await post(f"{broken.base_url}/v1/messages", HELLO)
        assert answer.status_code == 500
        assert "ValueError: the oracle needs the gold task" in answer.json()["error"]["message"]
        assert [c.error for c in busy.ledger.calls] == ["TransientModelError: rate limited"] * 2
        assert broken.ledger.errors == ["ValueError: the oracle needs the gold task"]


async def test_cached_calls_cost_nothing_and_malformed_calls_are_dropped():
    class Prices:
        def cost(self, spec: str, model_name: str, usage: TokenUsage) -> float | None:
            return 1.0

    output = ModelOutput(text="thinking", usage=TokenUsage(input_tokens=5, output_tokens=5), cached=True,
                         tool_calls=[ToolCall(id="bad", name="find_product", parse_error="not JSON"),
                                     ToolCall(id="x/1", name="find_product", arguments={"q": "a"}),
                                     ToolCall(id="x/1", name="find_product", arguments={"q": "b"})])
    async with ModelBridge(prices=Prices()) as bridge:
        episode = bridge.open_episode(Fixed(output))
        reply = await anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="x").messages.create(**HELLO)
    calls = [block for block in reply.content if block.type == "tool_use"]
    assert [(call.id, call.input) for call in calls] == [("x_1", {"q": "a"}), ("x_1_1", {"q": "b"})]
    (call,) = episode.ledger.calls
    assert (call.cached, call.cost_usd, call.dropped_calls) == (True, 0.0, ("not JSON",))


async def test_a_slow_model_is_streamed_with_keepalives():
    slow = Fixed(ModelOutput(text="late", tool_calls=[ToolCall(id="c", name="find_product", arguments={})]),
                 delay_s=0.3)
    async with ModelBridge(keepalive_s=0.05) as bridge:
        episode = bridge.open_episode(slow)
        async with httpx.AsyncClient() as client, client.stream("POST", f"{episode.base_url}/v1/messages",
                                 content=json.dumps({**HELLO, "stream": True})) as response:
            raw = (await response.aread()).decode()
        assert response.status_code == 200
        assert raw.startswith(": waiting for the model\n\n") and raw.count(": waiting") >= 3
        client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="x", max_retries=0)
        async with client.messages.stream(**HELLO) as stream:
            final = await stream.get_final_message()
        assert final.content[1].name == "mcp__shopbench__find_product"
        slow.error = TransientModelError("gone")
        async with client.messages.stream(**HELLO) as stream:
            with pytest.raises(anthropic.APIStatusError, match="gone"):
                await stream.get_final_message()
        assert [c.error for c in episode.ledger.calls] == [None, None, "TransientModelError: gone"]


async def test_a_policy_call_to_a_tool_not_offered_reaches_the_agent_unchanged():
    """The hook for the agents' refusal tests: the bridge neither hides nor renames a call the model makes to a
    tool outside shopbench's (here `Bash`, which this agent did not even offer)."""
    policy = ScriptedPolicy([("find_product", {"q": "tea"}), ("Bash", {"command": "cat /etc/passwd"})])
    async with ModelBridge() as bridge:
        episode = bridge.open_episode(policy)
        client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="x", max_retries=0)
        history: list[dict] = [{"role": "user", "content": "buy tea"}]
        names = []
        for refusal in ("[]", "No such tool available: Bash"):
            reply = await client.messages.create(**{**HELLO, "messages": history})
            call = reply.content[0]
            names.append(call.name)
            history += [{"role": "assistant", "content": [call.model_dump(exclude_none=True)]},
                        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id,
                                                      "content": refusal, "is_error": refusal != "[]"}]}]
        final = await client.messages.create(**{**HELLO, "messages": history})
    assert names == ["mcp__shopbench__find_product", "Bash"]
    assert final.content[0].text == "done"
    assert policy.results == {"find_product": "[]", "Bash": "No such tool available: Bash"}
    assert policy.seen_tools == [["find_product"]] * 3
    assert [c.sent_calls for c in episode.ledger.calls] == [("mcp__shopbench__find_product",), ("Bash",), ()]


@pytest.mark.parametrize("prefix", ["mcp__shopbench__", "shopbench__", "shopbench_"])
async def test_scripted_baselines_play_through_the_agents_tool_names(prefix):
    instruction = "I want a red cotton t-shirt under 300 pesos with free shipping."
    tools = [{"name": f"{prefix}{name}", "description": name, "input_schema": {"type": "object"}}
             for name in ("find_product", "view_product_information", "recommend_product", "terminate")]
    tools.append({"name": "Read", "description": "read a file", "input_schema": {"type": "object"}})
    async with ModelBridge() as bridge:
        for spec in ("heuristic", "naive"):
            episode = bridge.open_episode(get_model(spec))
            client = anthropic.AsyncAnthropic(base_url=episode.base_url, api_key="x", max_retries=0)
            reply = await client.messages.create(model="m", max_tokens=100, tools=tools,
                                                 messages=[{"role": "user", "content": instruction}])
            (call,) = [block for block in reply.content if block.type == "tool_use"]
            assert call.name == f"{prefix}find_product", spec
            assert isinstance(call.input, dict) and call.input.get("q"), spec
            assert episode.ledger.calls[0].hidden_tools == ("Read",)


async def test_keep_alive_calls_are_all_answered_on_one_connection():
    """Agents keep one connection open: every call on it is answered, in turn. (How long they take — a server socket
    without TCP_NODELAY made each wait 40 ms for the client's delayed ACK — is perf/bench_keepalive.py's figure.)"""
    async with ModelBridge() as bridge:
        episode = bridge.open_episode(Fixed(ModelOutput(text="hi")))
        texts, connections = [], set()
        async with httpx.AsyncClient() as client:
            for _ in range(10):
                answer = await client.post(f"{episode.base_url}/v1/messages", content=json.dumps(HELLO))
                texts.append(answer.json()["content"][0]["text"])
                connections.add(answer.extensions["network_stream"].get_extra_info("client_addr"))
    assert texts == ["hi"] * 10 and len(connections) == 1
    assert len(episode.ledger.calls) == 10
