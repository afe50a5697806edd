"""`shopbench run shopping-mmlu|intentionqa|session-intent`: ask a model every question, record each as an episode.

Questions go straight to the model (no tools). Each item is one episode in the shared trajectory format — a start
event (the question as instruction), one `submit_answer` step and an end event whose `answer` is the raw model text
(CoT-SC: the JSON list of its samples) — so `shopbench score RUN_DIR`, the reports and the TUI treat QA runs like any
other. Concurrency, resume, the response cache, retries and the manifest come from evaluators.runs. A model call
that still fails after the retries ends its episode with status "error" (IntentionQA reports such items as invalid);
`--resume` asks them again.

`random` and `majority` are answered here, per benchmark (benchmarks/<name>/baselines.py): random is seeded by
(seed, item id), majority reads each task's gold answers and is labelled as such.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.qa import BASELINES, QuestionBenchmark, QuestionPrompt, question_benchmark, task_set_label
from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput
from evaluators.runs.manifest import git_revision, new_run_id, open_run, package_versions, prompt_hashes, update_notes
from evaluators.runs.orchestrate import ProgressSink, RunSummary, WorkUnit, run_episodes
from mcp_server.trajectory import (
    AgentInfo,
    EndEvent,
    RunManifest,
    StartEvent,
    StepEvent,
    TrajectoryWriter,
    Usage,
    episode_path,
    now,
)

MAJORITY_LABEL = "majority (reads each task's gold answers; a label-skew probe, not a model)"


@dataclass
class QARunConfig:
    benchmark: str
    model: str
    items: Path | None = None
    """Items file or folder (default: the bundled items)."""
    prompting: str | None = None
    """Default: the benchmark's first protocol (zero-shot)."""
    shots: int = 0
    limit: int | None = None
    concurrency: int = 1
    out: Path | None = None
    resume: bool = False
    seed: int = 0
    cache: bool = True
    model_options: dict[str, Any] = field(default_factory=dict)
    """Passed to evaluators.models.ModelOptions (n_ctx, n_gpu_layers, timeout_s, ...)."""


@dataclass
class QARunResult:
    run_dir: Path
    summary: RunSummary
    items: int


def episode_id_for(item_id: str) -> str:
    """A file-safe episode id for an item id ("task1:FS_1" → "task1_FS_1-<hash>"), unique per item."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", item_id).strip("._-") or "item"
    if safe == item_id:
        return item_id
    return f"{safe[:100]}-{hashlib.sha1(item_id.encode()).hexdigest()[:8]}"


async def run_qa(config: QARunConfig, progress: ProgressSink | None = None) -> QARunResult:
    """Run a question benchmark end to end and return the run directory (score it with evaluators.scoring)."""
    questions = question_benchmark(config.benchmark)
    prompting = config.prompting or questions.promptings[0]
    loaded = questions.load(config.items)
    prompt_for = questions.prompter(loaded, prompting, config.shots, config.seed)
    items = [item for item in loaded if questions.runnable(item)]
    if config.limit is not None:
        items = items[: config.limit]
    task_set = task_set_label(questions, config.items)
    answerer = _answerer(questions, config, loaded, prompting)
    run_dir = Path(config.out) if config.out else Path("runs") / new_run_id(f"{questions.name}-{_slug(config.model)}")
    sample = prompt_for(items[0]) if items else None
    manifest = RunManifest(
        run_id=run_dir.name,
        benchmark=questions.name,
        task_set=task_set,
        agent=answerer.agent,
        parameters={
            "prompting": prompting,
            "shots": config.shots,
            "limit": config.limit,
            "seed": config.seed,
            "temperature": sample.temperature if sample else None,
            "samples": sample.samples if sample else 1,
            "cache": config.cache,
        },
        prompts=prompt_hashes({"system": sample.system or "", "first_question": sample.user} if sample else {}),
        packages=package_versions(),
        git_revision=git_revision(),
    )
    manifest = open_run(run_dir, manifest, config.resume)

    async def play(unit: WorkUnit) -> None:
        # The episode is written whole once the answer is in (one fsync): a crash during the model call leaves no
        # file, and the unit is simply asked again on resume.
        item = unit.payload
        prompt = prompt_for(item)
        start = StartEvent(
            episode_id=unit.episode_id, benchmark=questions.name, task_set=task_set, task_id=unit.item_id,
            intent=questions.task_of(item), instruction=prompt.text(), agent=manifest.agent, max_steps=1,
        )
        writer = TrajectoryWriter(episode_path(run_dir, unit.episode_id))
        try:
            texts, usage = await answerer.answer(item, unit.item_id, prompt)
        except Exception as error:
            message = f"{type(error).__name__}: {error}"[:2000]
            writer.write_all([start, EndEvent(status="error", message=message, steps=0)])
            raise
        answer = texts[0] if prompt.samples == 1 else json.dumps(texts, ensure_ascii=False)
        observation = {"recorded": True} if prompt.samples == 1 else {"recorded": True, "samples": texts}
        step = StepEvent(index=0, tool="submit_answer", arguments={"answer": answer}, observation=observation,
                         usage=usage, started_at=start.started_at, ended_at=now())
        writer.write_all([start, step, EndEvent(status="submitted", answer=answer, steps=1)])

    units = [WorkUnit(episode_id=episode_id_for(questions.item_id(i)), item_id=questions.item_id(i), payload=i)
             for i in items]
    try:
        summary = await run_episodes(run_dir, units, play, concurrency=config.concurrency, resume=config.resume,
                                     progress=progress)
    finally:
        await answerer.close()
    update_notes(run_dir, **answerer.notes(), failed_episodes=len(summary.failed))
    return QARunResult(run_dir=run_dir, summary=summary, items=len(items))


class _Answerer:
    """Turns a prompt into raw answer texts: a model backend (cached, retried) or a baseline."""

    def __init__(self, agent: AgentInfo, model: ModelAPI | None = None, answers: dict[str, str] | None = None,
                 rng_seed: int = 0, questions: QuestionBenchmark | None = None) -> None:
        self.agent, self.model, self.answers, self.seed, self.questions = agent, model, answers, rng_seed, questions
        self.prompting = "zero-shot"
        self.retry_stats: Any = None
        self.cached: Any = None

    async def answer(self, item: Any, item_id: str, prompt: QuestionPrompt) -> tuple[list[str], Usage | None]:
        if self.model is None:
            if self.answers is not None:
                return [self.answers[item_id]] * prompt.samples, None
            assert self.questions is not None
            rng = random.Random(f"{self.seed}:{item_id}")
            return [self.questions.random_answer(item, rng, self.prompting) for _ in range(prompt.samples)], None
        messages = ([ChatMessage(role="system", content=prompt.system)] if prompt.system else []) + [
            ChatMessage(role="user", content=prompt.user)
        ]
        texts, usage = [], Usage(input_tokens=0, output_tokens=0, latency_s=0.0)
        for sample in range(prompt.samples):
            config = GenerateConfig(temperature=prompt.temperature, max_tokens=prompt.max_tokens,
                                    seed=self.seed + sample)
            output: ModelOutput = await self.model.generate(messages, None, config)
            texts.append(output.text)
            usage.input_tokens = (usage.input_tokens or 0) + output.usage.input_tokens
            usage.output_tokens = (usage.output_tokens or 0) + output.usage.output_tokens
            usage.latency_s = (usage.latency_s or 0.0) + output.latency_s
        return texts, usage

    def notes(self) -> dict[str, Any]:
        notes: dict[str, Any] = {}
        if self.retry_stats is not None:
            notes.update(retries=self.retry_stats.retries, gave_up=self.retry_stats.gave_up)
        if self.cached is not None:
            notes.update(cache_hits=self.cached.hits, cache_misses=self.cached.misses)
        return notes

    async def close(self) -> None:
        if self.model is not None:
            await self.model.aclose()


def _answerer(questions: QuestionBenchmark, config: QARunConfig, loaded: list[Any], prompting: str) -> _Answerer:
    if config.model == "random":
        agent = AgentInfo(kind="baseline", name="random", details={"seed": config.seed})
        answerer = _Answerer(agent, rng_seed=config.seed, questions=questions)
        answerer.prompting = prompting
        return answerer
    if config.model == "majority":
        agent = AgentInfo(kind="baseline", name="majority", details={"label": MAJORITY_LABEL})
        return _Answerer(agent, answers=questions.majority_answers(loaded, prompting))
    assert config.model not in BASELINES
    from evaluators.models._registry import ModelOptions, get_model
    from evaluators.runs.cache import CachedModel, ResponseCache
    from evaluators.runs.retry import RetryingModel, RetryStats

    backend = get_model(config.model, ModelOptions(seed=config.seed, **config.model_options))
    stats = RetryStats()
    model: ModelAPI = RetryingModel(backend, stats=stats)
    cached = None
    if config.cache:
        model = cached = CachedModel(model, ResponseCache())
    answerer = _Answerer(AgentInfo(kind="model", name=config.model, details=backend.identity()), model,
                         rng_seed=config.seed)
    answerer.retry_stats, answerer.cached = stats, cached
    return answerer


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", spec).strip("-")[:40] or "model"
