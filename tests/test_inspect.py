"""The Inspect AI task package: `inspect eval shopbench/...` with Inspect's mockllm scripted, scored by Inspect and
by `shopbench score` on the same episodes — the numbers must agree.

mockllm is given token usage on every output so Inspect never counts tokens with tiktoken (which would download)."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, ModelUsage, get_model

from benchmarks.shoppingbench.worldgen.heuristic import records_in
from evaluators.integrations.gym.rewards import oracle_reference
from evaluators.results.scoring import score_run
from mcp_server.shopping.world_build import WorldTools
from mcp_server.trajectory import iter_episode_files, read_trajectory

USAGE = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)


def _text(content: str) -> ModelOutput:
    output = ModelOutput.from_content("mockllm/model", content)
    output.usage = USAGE
    return output


def _call(name: str, arguments: dict[str, Any]) -> ModelOutput:
    output = ModelOutput.for_tool_call("mockllm/model", name, arguments)
    output.usage = USAGE
    return output


def _near_miss(task: Any) -> str:
    return str(task.targets[0].title[0].rsplit(" ", 1)[0])  # the title without its sizes: near neighbours


def partial_task(default_world) -> str:
    """The first product task after product-0000 whose title, searched without its sizes, also finds a product of
    another title (picked by that property, not by number: each generator version draws other tasks)."""
    tools = WorldTools(default_world.products)
    for task in default_world.tasks("generated")[1:]:
        if task.intent == "product":
            found = records_in(tools.call("find_product", {"q": _near_miss(task), "page": 1}))
            if any(card["title"] != task.targets[0].title[0] for card in found):
                return task.task_id
    raise AssertionError("no product task has a near neighbour of another title")


def scripted_shopper(default_world, partial: str):
    """product-0000 and voucher-0000: the oracle's moves. `partial`: a turn with no call, then recommends a product
    that is not the target (a partial rule score), then terminates."""
    tasks = {task.instruction: task for task in default_world.tasks("generated")}

    def play(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        instruction = next(m.text for m in messages if isinstance(m, ChatMessageUser))
        task = tasks[instruction]
        turn = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        if task.task_id == partial:
            plan: list[Any] = [None, ("find_product", {"q": _near_miss(task), "page": 1}),
                               ("recommend_product", {"product_ids": "__first_hit__"}),
                               ("terminate", {"status": "success"})]
            move = plan[min(turn, len(plan) - 1)]
            if move is None:
                return _text("Let me think about what the user wants.")
            if move[0] == "recommend_product":
                hits = [m for m in messages if m.role == "tool" and m.function == "find_product"]
                # a hit with another title (same-title listings of other shops can meet every stated field)
                found = json.loads(hits[-1].text)
                other = next(p["product_id"] for p in found if p["title"] != task.targets[0].title[0])
                return _call("recommend_product", {"product_ids": other})
            return _call(*move)
        name, arguments = oracle_reference(task)[min(turn, 3)]
        return _call(name, arguments)

    return play


def test_entry_point_is_declared():
    assert any(ep.name == "shopbench" and ep.value == "shopbench.inspect_tasks"
               for ep in entry_points(group="inspect_ai"))


def test_inspect_scores_equal_shopbench_score_and_epochs_give_pass_k(default_world, tmp_path):
    run = tmp_path / "run"
    partial = partial_task(default_world)
    tasks = ["product-0000", partial, "voucher-0000"]
    model = get_model("mockllm/model", custom_outputs=scripted_shopper(default_world, partial))
    [log] = inspect_eval("shopbench/shoppingbench", model=model, epochs=2, sample_id=tasks,
                         task_args={"intent": "product,voucher", "runs": str(run)},
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    shop = score_run(run)
    assert len(iter_episode_files(run)) == 6 and shop.epochs == 2
    by_episode = {score.episode_id: score for score in shop.scores}
    per_task: dict[str, list[float]] = {}
    for sample in log.samples:
        inspect_score = sample.scores["shoppingbench_score"]
        mine = by_episode[inspect_score.metadata["episode_id"]]
        assert mine.task_id == sample.id and mine.epoch == sample.epoch - 1
        assert inspect_score.value == {"ASR": float(mine.success), "CAR": mine.rule, "exact_id": mine.exact_id}
        assert inspect_score.metadata["fields"] == {name: getattr(mine, name) for name in
                                                    ("title", "price", "service", "sku_attrs", "shop", "budget", "kw")}
        per_task.setdefault(sample.id, []).append(mine.rule)
    assert 0 < per_task[partial][0] < 1 and per_task["product-0000"] == [1.0, 1.0]
    metrics = log.results.scores[0].metrics
    assert metrics["ASR"].value == pytest.approx(shop.overall_asr.value)
    assert metrics["CAR"].value == pytest.approx(shop.overall_car.value)
    assert shop.overall_asr.value == pytest.approx((1 / 2 + 1) / 2)  # product: 1 of 2 tasks; voucher: 1 of 1
    product = next(summary for summary in shop.intents if summary.intent == "product")
    assert product.pass_k == {1: pytest.approx(0.5), 2: pytest.approx(0.5)}

    trajectories = [read_trajectory(path) for path in iter_episode_files(run)]
    assert {(t.start.task_id, t.start.epoch) for t in trajectories} == {(task, e) for task in tasks for e in (0, 1)}
    for trajectory in trajectories:
        agent = trajectory.start.agent
        assert agent.name == "mockllm/model" and agent.kind == "model"
        assert agent.details["harness"] == "inspect_ai"
        assert agent.details["inspect_sample_id"] == trajectory.start.task_id
        assert agent.details["inspect_epoch"] == trajectory.start.epoch
        assert trajectory.end is not None and trajectory.end.status == "terminated"
        assert all(step.usage is not None and step.usage.input_tokens == 10 for step in trajectory.steps)
    thinking = next(t for t in trajectories if t.start.task_id == partial)
    assert thinking.steps[0].malformed is not None and thinking.steps[0].malformed.raw.startswith("Let me think")
    assert [step.tool for step in thinking.steps] == ["", "find_product", "recommend_product", "terminate"]


def test_intentionqa_inspect_task_scores_scripted_answers_as_shopbench_score(tmp_path):
    from benchmarks.intentionqa.prompts import question_text
    from benchmarks.registry import question_benchmark

    run = tmp_path / "run"
    gold = {question_text(item): item.gold_ind for item in question_benchmark("intentionqa").load()}
    wrong = {"A": "b.", "B": "C", "C": "Answer: D", "D": " a"}

    def answer(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        """Right (written a few ways) for some questions, wrong or unreadable for others."""
        question = messages[-1].text
        letter = gold[question]
        pick = sum(map(ord, question)) % 4
        return _text([f"{letter}", f" {letter.lower()}.", wrong[letter], "I cannot tell"][pick])

    model = get_model("mockllm/model", custom_outputs=answer)
    [log] = inspect_eval("shopbench/intentionqa", model=model, limit=8, task_args={"runs": str(run)},
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    shop = score_run(run)
    assert len(shop.scores) == 8
    values = {str(sample.id): sample.scores["intentionqa_score"].value for sample in log.samples}
    assert values == {item: float(score.score or 0.0) for item, score in shop.scores.items()}
    assert 0 < sum(values.values()) < 8  # the script is neither all right nor all wrong
    metrics = log.results.scores[0].metrics
    assert metrics["overall"].value == pytest.approx(shop.summary["overall"])
    for task, value in shop.summary["tasks"].items():
        if value is not None:
            assert metrics[f"task:{task}"].value == pytest.approx(value)


@pytest.mark.parametrize(("task", "benchmark"), [("shopbench/shopping_mmlu", "shopping-mmlu"),
                                                 ("shopbench/session_intent", "session-intent")])
def test_other_question_benchmarks_score_in_inspect_as_in_shopbench(tmp_path, task, benchmark):
    run = tmp_path / "run"
    replies = ["A", "B", "1", "yes", "C. because", "no"]

    def answer(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return _text(replies[sum(map(ord, messages[-1].text)) % len(replies)])

    [log] = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=answer), limit=6,
                         task_args={"runs": str(run)}, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    shop = score_run(run)
    assert shop.benchmark == benchmark and len(shop.scores) == 6
    values = {str(sample.id): sample.scores[f"{benchmark}_score"].value for sample in log.samples}
    assert values == {item: float(score.score or 0.0) for item, score in shop.scores.items()}
    assert log.results.scores[0].metrics["overall"].value == pytest.approx(shop.summary["overall"])


def test_every_registered_benchmark_is_an_inspect_task_with_its_builder_s_options(tmp_path):
    """Tasks come from the registry: a benchmark registered in the test folder is an Inspect task too, scored as
    `shopbench score` scores it, and no task is written out by hand."""
    from inspect_ai.util import registry_create

    import examples.tiny_bench  # noqa: F401 - registers "tiny-bench"
    from shopbench.inspect_tasks import register_tasks

    register_tasks()
    tiny = registry_create("task", "shopbench/tiny_bench", runs=str(tmp_path / "unused"))
    assert tiny.metadata["benchmark"] == "tiny-bench" and len(tiny.dataset) == 4
    run = tmp_path / "run"
    answers = {"What colour is a ripe banana?": "yellow", "What colour is fresh grass?": "blue",
               "What colour is a lemon?": "Yellow", "How many wheels has a bicycle?": "2"}

    def answer(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return _text(answers[messages[-1].text.removesuffix("\nAnswer:")])

    [log] = inspect_eval("shopbench/tiny_bench", model=get_model("mockllm/model", custom_outputs=answer),
                         task_args={"runs": str(run)}, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    shop = score_run(run)
    assert shop.benchmark == "tiny-bench" and shop.summary["overall"] == 0.75
    assert log.results.scores[0].metrics["overall"].value == pytest.approx(0.75)


def test_no_module_imports_inspect_s_private_modules():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    private = []
    for part in ("benchmarks", "mcp_server", "evaluators", "shopbench_tui", "shopbench"):
        for path in sorted((root / part).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                private += [f"{path.relative_to(root)}:{node.lineno}" for name in names
                            if name.startswith("inspect_ai.") and any(p.startswith("_") for p in name.split("."))]
    assert not private, private
