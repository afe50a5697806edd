"""Trajectory distillation export (the paper's "Trajectory Distillation" and "Cold Start with SFT").

The paper keeps only trajectories that are absolute successes (rejection sampling) and cuts each into one training
sample per step: input = the user instruction plus the history of earlier reasoning, tool calls and observations;
output = the reasoning and the next tool call. Each sample here is the conversation exactly as the model saw it:

- the system prompt of the run's protocol (manifest `parameters.protocol`): `native` sends shopbench's system prompt
  and the tool schemas as function tools; `paper` sends the reference system prompt, which lists the tools in its
  text, and the turns in the reference's `<think>`/`<tool_call>` text with observations in `<obs>...</obs>`;
- a malformed model turn (StepEvent.malformed, or older runs' tool "invalid_tool_call" with arguments {error, raw})
  appears as the assistant's raw text followed by the feedback the model was shown; it is never a training target,
  nor is a call the sandbox rejected (both stay in later samples' history, as the model saw them);
- reasoning comes from the step's thought. Where there is none, or the agent is a scripted baseline whose notes are
  not reasoning (the oracle's), the target has empty content and `metadata.reasoning` says so — never a placeholder.

Formats:
- "trl": `{"messages": [...], "tools": [...], "metadata": {...}}` — the conversational format with tools that
  Hugging Face TRL's SFTTrainer reads (tool-call arguments as JSON objects, as chat templates expect); the LAST
  assistant message is the sample's target;
- "prompt-completion": TRL's conversational prompt-completion form (`prompt`, `completion`, `tools`, `metadata`);
- "openai": OpenAI's chat fine-tuning JSONL (`messages`, `tools`, `parallel_tool_calls`; arguments as JSON strings;
  history assistant turns carry `weight: 0` so only the target is learned). OpenAI refuses unknown keys, so the
  metadata goes to a sidecar file `<out>.meta.jsonl`, line for line.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeGuard

from benchmarks.jsonl import write_jsonl
from benchmarks.shoppingbench.agent_prompts import (
    NATIVE_SYSTEM_PROMPT,
    PAPER_OBSERVATION_CLOSE,
    PAPER_OBSERVATION_OPEN,
)
from benchmarks.shoppingbench.prompts import reference_system_prompt
from evaluators.results.run_names import run_kind
from evaluators.results.scoring import ScoreOptions, score_run
from evaluators.results.trajectory_stats import INVALID_CALL_TOOL
from mcp_server.shopping.tools import SHOPPING_TOOLS
from mcp_server.toolbox import EpisodeTool
from mcp_server.trajectory import (
    RunManifest,
    StepEvent,
    Trajectory,
    iter_episode_files,
    read_manifest,
    read_trajectory,
)

SampleFormat = Literal["trl", "prompt-completion", "openai"]
FORMATS: tuple[SampleFormat, ...] = ("trl", "prompt-completion", "openai")


def is_format(name: str) -> TypeGuard[SampleFormat]:
    """Whether `name` is one of FORMATS (a command-line --format)."""
    return name in FORMATS


NO_REASONING = "none: the step recorded no thought"
BASELINE_REASONING = "none: a scripted baseline's notes are not reasoning"


@dataclass
class ExportSummary:
    episodes: int
    successes: int
    samples: int
    path: Path
    dropped_episodes: Counter[str] = field(default_factory=Counter)
    """Why episodes gave no samples: unreadable, unfinished, not successful."""
    steps: int = 0
    """Steps of the kept episodes."""
    dropped_steps: Counter[str] = field(default_factory=Counter)
    """Steps of kept episodes that are not targets: malformed turn, rejected call."""
    without_reasoning: int = 0

    def line(self) -> str:
        """One line saying what was kept and why the rest was dropped."""
        text = (f"{self.samples} samples from {self.successes} successful of {self.episodes} episodes "
                f"({self.samples} of {self.steps} steps kept")
        if self.dropped_steps:
            text += "; not targets: " + ", ".join(f"{n} {why}" for why, n in sorted(self.dropped_steps.items()))
        text += ")"
        if self.dropped_episodes:
            text += "; episodes dropped: " + ", ".join(f"{n} {why}" for why, n in sorted(self.dropped_episodes.items()))
            text += " (only successful episodes are distilled)"
        if self.without_reasoning:
            text += f"; {self.without_reasoning} targets have no reasoning (marked in metadata.reasoning)"
        return f"{text} → {self.path}"


def tool_schemas(tools: Mapping[str, EpisodeTool] = SHOPPING_TOOLS) -> list[dict[str, Any]]:
    """The tools (default: the six ShoppingBench tools) as the agent receives them: name, description, JSON Schema
    of the arguments."""
    return [{"name": spec.name, "description": spec.description, "parameters": spec.arguments.model_json_schema()}
            for spec in tools.values()]


def function_tools() -> list[dict[str, Any]]:
    """The tools in the OpenAI / chat-template function format."""
    return [{"type": "function", "function": tool} for tool in tool_schemas()]


def malformed_turn(step: StepEvent) -> tuple[str, str] | None:
    """(raw model text, feedback shown) for a malformed turn, in the current or the older recording."""
    if step.malformed is not None:
        return step.malformed.raw, _text(step.observation)
    if step.tool == INVALID_CALL_TOOL:
        return str(step.arguments.get("raw", "")), _text(step.observation)
    return None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _call_id(step: StepEvent) -> str:
    return f"call_{step.index}"


class Conversation:
    """Builds the messages of one protocol from trajectory steps."""

    def __init__(self, protocol: str, json_arguments: bool) -> None:
        if protocol not in ("native", "paper"):
            raise ValueError(f"unknown protocol {protocol!r} in the run manifest (native or paper)")
        self.protocol = protocol
        self.json_arguments = json_arguments

    def opening(self, instruction: str) -> list[dict[str, Any]]:
        system = NATIVE_SYSTEM_PROMPT if self.protocol == "native" else reference_system_prompt(tool_schemas())
        return [{"role": "system", "content": system}, {"role": "user", "content": instruction}]

    def tools(self) -> list[dict[str, Any]] | None:
        """Tools handed to the chat template (paper: None, the system prompt lists them)."""
        return function_tools() if self.protocol == "native" else None

    def assistant(self, step: StepEvent, reasoning: str | None) -> dict[str, Any]:
        bad = malformed_turn(step)
        if bad is not None:
            return {"role": "assistant", "content": bad[0]}
        if self.protocol == "paper":
            call = json.dumps([{"name": step.tool, "parameters": step.arguments}], ensure_ascii=False)
            return {"role": "assistant", "content": f"<think>{reasoning or ''}</think>\n<tool_call>{call}</tool_call>"}
        arguments: Any = json.dumps(step.arguments, ensure_ascii=False) if self.json_arguments else step.arguments
        return {"role": "assistant", "content": reasoning or "", "tool_calls": [
            {"id": _call_id(step), "type": "function", "function": {"name": step.tool, "arguments": arguments}}]}

    def observation(self, step: StepEvent) -> dict[str, Any]:
        bad = malformed_turn(step)
        content = bad[1] if bad is not None else _text(step.observation)
        if self.protocol == "paper":
            name = None if bad is not None else step.tool
            body = json.dumps([{"tool_call_id": _call_id(step), "name": name, "content": step.observation}],
                              ensure_ascii=False)
            return {"role": "user", "content": f"{PAPER_OBSERVATION_OPEN}{body}{PAPER_OBSERVATION_CLOSE}"}
        if bad is not None:
            return {"role": "user", "content": content}
        return {"role": "tool", "tool_call_id": _call_id(step), "name": step.tool, "content": content}


def _reasoning(step: StepEvent, trajectory: Trajectory) -> tuple[str | None, str]:
    if run_kind(trajectory.start.agent) == "baseline":  # an agent driven by a scripted baseline too
        return None, BASELINE_REASONING
    if step.thought and step.thought.strip():
        return step.thought, "from the step's thought"
    return None, NO_REASONING


def step_samples(trajectory: Trajectory, manifest: RunManifest, fmt: SampleFormat = "trl",
                 summary: ExportSummary | None = None) -> Iterator[dict[str, Any]]:
    """One sample per step that is a valid call the sandbox ran: the conversation before it → that step."""
    protocol = str(manifest.parameters.get("protocol") or "native")
    conversation = Conversation(protocol, json_arguments=fmt == "openai")
    history = conversation.opening(trajectory.start.instruction)
    tools = conversation.tools()
    for step in trajectory.steps:
        reasoning, source = _reasoning(step, trajectory)
        target = conversation.assistant(step, reasoning)
        why_not = "malformed turn" if malformed_turn(step) is not None else "rejected call" if step.is_error else None
        if summary is not None:
            summary.steps += 1
            if why_not:
                summary.dropped_steps[why_not] += 1
            elif reasoning is None:
                summary.without_reasoning += 1
        if why_not is None:
            metadata = {
                "run_id": manifest.run_id,
                "episode_id": trajectory.episode_id,
                "benchmark": trajectory.start.benchmark,
                "task_set": trajectory.start.task_set,
                "task_id": trajectory.start.task_id,
                "intent": trajectory.start.intent,
                "step": step.index,
                "agent": trajectory.start.agent.name,
                "agent_kind": trajectory.start.agent.kind,
                "protocol": protocol,
                "reasoning": source,
            }
            yield _sample(history, target, tools, metadata, fmt)
        history = [*history, target, conversation.observation(step)]


def _sample(history: list[dict[str, Any]], target: dict[str, Any], tools: list[dict[str, Any]] | None,
            metadata: dict[str, Any], fmt: SampleFormat) -> dict[str, Any]:
    if fmt == "openai":
        messages = [{**m, "weight": 0} if m["role"] == "assistant" else m for m in history]
        record: dict[str, Any] = {"messages": [*messages, {**target, "weight": 1}]}
        if tools is not None:
            record.update(tools=tools, parallel_tool_calls=False)
        return {"record": record, "metadata": metadata}
    if fmt == "prompt-completion":
        record = {"prompt": list(history), "completion": [target]}
    else:
        record = {"messages": [*history, target]}
    if tools is not None:
        record["tools"] = tools
    record["metadata"] = metadata
    return {"record": record}


def export_sft(
    run_dir: Path,
    out: Path,
    *,
    success: Mapping[str, bool] | None = None,
    options: ScoreOptions | None = None,
    fmt: SampleFormat = "trl",
) -> ExportSummary:
    """Write the step samples of the run's successful episodes to `out` (JSONL). `success` (episode id → success)
    comes from an existing score; without it the run is scored through the registry with `options`."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    run_dir, out = Path(run_dir), Path(out)
    manifest = read_manifest(run_dir)
    if success is None:
        success = score_run(run_dir, options).episode_success()
    summary = ExportSummary(episodes=0, successes=0, samples=0, path=out)
    metadata: list[dict[str, Any]] = []

    def samples() -> Iterator[dict[str, Any]]:
        for path in iter_episode_files(run_dir):
            summary.episodes += 1
            try:
                trajectory = read_trajectory(path)
            except ValueError:
                summary.dropped_episodes["unreadable"] += 1
                continue
            if not trajectory.finished:
                summary.dropped_episodes["unfinished"] += 1
                continue
            if not success.get(trajectory.episode_id, False):
                summary.dropped_episodes["not successful"] += 1
                continue
            summary.successes += 1
            for sample in step_samples(trajectory, manifest, fmt, summary):
                if "metadata" in sample:
                    metadata.append(sample["metadata"])
                yield sample["record"]

    summary.samples = write_jsonl(out, samples())
    if fmt == "openai":
        write_jsonl(out.with_name(out.stem + ".meta.jsonl"), metadata)
    return summary
