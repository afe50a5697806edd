"""The prompt a llama.cpp model reads: plain chat turns any GGUF template accepts, fitted to the context window.

The steps of an episode share the KV cache: each step's prompt is the previous step's prompt plus the new turns
(earlier text is never rewritten, except when old observations must be summarised to fit, which happens a chunk at a
time), so llama.cpp evaluates only the new suffix. How an observation is shown and summarised comes from the
ContextHints the backend was given (the agent protocol's); what is summarised, when, and what is cut is decided
here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from evaluators.models.base import ChatMessage, ToolSpec
from evaluators.models.context import ContextHints

CHARS_PER_TOKEN = 3
"""A first cut by characters; the prompt is then measured in tokens and trimmed until it fits."""
SUMMARISED = "(summarised to fit the context window)"
SUMMARY_CHUNK = 4
"""Old observations are summarised this many at a time, so the prompt's earlier text changes (and the KV cache must
be re-evaluated from there) once every few steps rather than at every step."""
CUT = " …(cut to fit the context window)"
OBSERVATION = "Observation from"
PLAIN = ContextHints()


def describe_tools(tools: list[ToolSpec], hints: ContextHints = PLAIN) -> str:
    """A compact tool list (names, parameters, one line each): small models and slow CPUs pay for every token."""
    lines = ["Reply with one tool call as JSON: "
             '{"thought": "<short reasoning>", "name": "<tool>", "arguments": {...}}. Tools:']
    for tool in tools:
        properties = (tool.parameters or {}).get("properties", {})
        required = set((tool.parameters or {}).get("required", []))
        params = ", ".join(f"{name}{'' if name in required else '?'}" for name in properties)
        summary = tool.description.strip().split(". ")[0].rstrip(".")
        lines.append(f"- {tool.name}({params}): {summary}.")
    example = hints.example(tools)
    if example:
        lines.append(example)
    return "\n".join(lines)


def render_messages(messages: list[ChatMessage], tools: list[ToolSpec] | None, budget_chars: int,
                    hints: ContextHints = PLAIN) -> list[dict[str, str]]:
    """Plain system/user/assistant turns that any GGUF chat template accepts: calls become the JSON the model
    writes, tool results become user turns. The oldest observations are summarised when the prompt would not fit."""
    rendered: list[dict[str, str]] = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            call = message.tool_calls[0]
            body: dict[str, Any] = {"name": call.name, "arguments": call.arguments}
            if message.content:
                body = {"thought": message.content, **body}
            rendered.append({"role": "assistant", "content": json.dumps(body, ensure_ascii=False)})
        elif message.role == "tool":
            observation = f"{OBSERVATION} {message.name or 'tool'}:\n{hints.show(message.content)}"
            rendered.append({"role": "user", "content": observation})
        else:
            rendered.append({"role": message.role, "content": message.content})
    if tools:
        description = describe_tools(tools, hints)
        if rendered and rendered[0]["role"] == "system":
            rendered[0] = {"role": "system", "content": rendered[0]["content"] + "\n\n" + description}
        else:
            rendered.insert(0, {"role": "system", "content": description})
    summarise_to_fit(rendered, len, budget_chars, hints)
    return rendered


def _observation_turns(rendered: list[dict[str, str]]) -> list[int]:
    """Indices of the observations that may be summarised: never the system prompt, the instruction, or the last
    turn; oldest first."""
    return [i for i in range(2, len(rendered) - 1)
            if rendered[i]["role"] == "user" and rendered[i]["content"].startswith(OBSERVATION)
            and SUMMARISED not in rendered[i]["content"]]


def _summary(content: str, hints: ContextHints) -> str:
    """A rendered observation ("Observation from X:\\n<body>") as its summarised stand-in."""
    head, _, body = content.partition(":\n")
    return f"{head} {SUMMARISED}: {hints.summarise(body)}"


def summarise_to_fit(rendered: list[dict[str, str]], size: Callable[[str], int], budget: int,
                     hints: ContextHints = PLAIN) -> None:
    """Summarise the oldest observations, SUMMARY_CHUNK at a time, until the prompt's `size` fits `budget`: the
    most recent observations stay in full, and because the count summarised only grows in whole chunks, the prompt's
    earlier text stays the same from one step to the next between chunks (so the KV cache is reused)."""
    sizes = [size(turn["content"]) for turn in rendered]
    total = sum(sizes)
    if total <= budget:
        return
    candidates = _observation_turns(rendered)
    summaries = {i: _summary(rendered[i]["content"], hints) for i in candidates}
    savings = [sizes[i] - size(summaries[i]) for i in candidates]
    count = 0
    while count < len(candidates) and total > budget:
        step = candidates[count : count + SUMMARY_CHUNK]
        total -= sum(savings[count : count + len(step)])
        count += len(step)
    for i in candidates[:count]:
        rendered[i]["content"] = summaries[i]


def trim_to_tokens(llm: Any, rendered: list[dict[str, str]], limit: int, hints: ContextHints = PLAIN) -> None:
    """Summarise old observations, then (rarely) elide their summaries, then cut the latest turn, until the prompt
    fits `limit` tokens."""
    counts: dict[str, int] = {}

    def tokens(text: str) -> int:
        if text not in counts:
            counts[text] = len(llm.tokenize(text.encode(), add_bos=False)) + 5  # + the template's markers
        return counts[text]

    def total() -> int:
        return sum(tokens(turn["content"]) for turn in rendered)

    summarise_to_fit(rendered, tokens, limit, hints)
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
