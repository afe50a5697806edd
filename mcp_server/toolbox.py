"""Episode tools in general: how a suite declares the tools its episodes accept, and how a call is checked.

A suite (mcp_server.suites) names its tools as `EpisodeTool`s: the name, the description and the pydantic model of the
arguments (whose JSON Schema is what MCP clients see), the observation's type (for the output schema), hints for
clients, and what a successful call does to its episode (`Effect`: end it, remember something for the end event). The
calls themselves run in the suite's sandbox (`ToolRunner`), which raises `ToolCallError` with a message the agent
can act on. The ShoppingBench tools are in mcp_server.shopping.tools, the question benchmarks' `submit_answer` in
mcp_server.qa_suites.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from mcp_server.trajectory import EndStatus


class ToolCallError(ValueError):
    """A call the sandbox cannot run; the message is the observation the agent sees (never a target)."""


class Arguments(BaseModel):
    """Tool arguments: unknown parameters are refused, so a misspelt name is reported rather than ignored."""

    model_config = ConfigDict(extra="forbid")


M = TypeVar("M", bound=Arguments)


@dataclass(frozen=True)
class Effect:
    """What a successful call does to its episode besides its observation."""

    ends: EndStatus | None = None
    """The episode ends with this status (terminate: "terminated", submit_answer: "submitted")."""
    recorded: dict[str, Any] = field(default_factory=dict)
    """Fields of the end event this call decides (the last recommendation, terminate's status, the answer)."""


@dataclass(frozen=True)
class EpisodeTool:
    """One tool an episode accepts."""

    name: str
    description: str
    arguments: type[Arguments]
    observation: Any = str
    """The type of what a call returns (JSON-able), for the tool's output schema."""
    read_only: bool = True
    """The call changes nothing outside the episode's reading (clients' readOnlyHint)."""
    open_world: bool = False
    """The call reaches outside the sandbox, e.g. a live web search (clients' openWorldHint)."""
    effect: Callable[[dict[str, Any]], Effect] | None = None
    """What a successful call (its validated arguments as given) does to the episode; None: nothing."""


def tool_table(*tools: EpisodeTool) -> dict[str, EpisodeTool]:
    """Tools by name, in the order given (the order clients list them)."""
    return {tool.name: tool for tool in tools}


class ToolRunner(Protocol):
    """Where a suite's tool calls run: validates a call and returns its observation (JSON-able), or raises
    ToolCallError for a malformed one. A call answered by the episode's user (`ask_user`) returns a
    mcp_server.users.UserAnswer: `Episode.call` shows its text and records its turn with the step."""

    def call(self, tool: str, arguments: Any) -> Any: ...


def validate_arguments(tool: str, model: type[M], arguments: Any) -> M:
    """The arguments as the tool's model, or a ToolCallError saying in one sentence per problem what is wrong."""
    if not isinstance(arguments, dict):
        raise ToolCallError(f"{tool}: arguments must be a JSON object, got {type(arguments).__name__}")
    try:
        return model.model_validate(arguments)
    except ValidationError as error:
        raise ToolCallError(f"{tool}: {describe_validation_error(error, model)}") from None


def describe_validation_error(error: ValidationError, model: type[BaseModel] | None = None) -> str:
    """pydantic's errors reworded for an agent, without pydantic's own wording or links. The limits a tool declares
    on its arguments (`Field(max_length=...)`, `Field(ge=..., le=...)`) are its checks, so their errors say the
    limit plainly; `model`, the one validated, lets a number out of range name both ends of it."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown parameter {where!r}")
        elif item["type"] == "missing":
            problems.append(f"missing required parameter {where!r}")
        elif item["type"] == "string_too_long":
            limit = item.get("ctx", {}).get("max_length")
            problems.append(f"{where} is too long ({len(item['input'])} characters; at most {limit})")
        elif item["type"] in ("greater_than_equal", "less_than_equal") and (span := _range(model, item["loc"])):
            problems.append(f"{where} must be {span} (got {_shown(item.get('input'))})")
        else:
            problems.append(f"{where}: {item['msg']} (got {_shown(item.get('input'))})")
    return "; ".join(problems)


def _range(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> str | None:
    """"LOW to HIGH" for a parameter of `model` declared with both ends (`Field(ge=LOW, le=HIGH)`), else None."""
    declared = model.model_fields.get(str(loc[0])) if model is not None and len(loc) == 1 else None
    ends = {end: getattr(bound, end) for bound in (declared.metadata if declared else ()) for end in ("ge", "le")
            if hasattr(bound, end)}
    return f"{ends['ge']} to {ends['le']}" if len(ends) == 2 else None


def _shown(value: Any, limit: int = 80) -> str:
    """A rejected value as the error shows it: its repr, cut short when long."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"
