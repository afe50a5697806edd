"""What a conversational run measures beside ASR and CAR (issue 31), on hand-built trajectories whose answers are
known: held-back constraints uncovered by asking, questions, unanswered questions, assumed recommendations (each
held constraint judged alone by the scorer's own checks), and simulator-error episodes reported apart. A run
without a user scores, prints and reports exactly as before."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from benchmarks.shoppingbench.conversation.profile import profile_of
from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target
from evaluators.results.reports import label_runs, write_report
from evaluators.results.reports.compare import compare
from evaluators.results.reports.readers import ShoppingBenchReader
from evaluators.results.reports.tables import ScoredRun
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import ShoppingBenchResult, score_trajectories
from mcp_server.trajectory import (
    AgentInfo,
    EndEvent,
    RunManifest,
    StartEvent,
    StepEvent,
    UserTurn,
    episode_path,
    read_manifest,
    write_manifest,
)

TASK_SET = "convo-test"
BACKPACK = Target(product_id="p-gold", title=["Acme Laptop Backpack 15 inch"],
                  sku_options=[{"color_family": "red"}], attributes=[{"brand": ["acme"]}], service=["COD"],
                  price=[{"less than": [0, 500.0]}])
MUG = Target(product_id="m-gold", title=["Zen Ceramic Coffee Mug"], attributes=[{"material": ["ceramic"]}])
LAMP = Target(product_id="l-gold", title=["Lumo Desk Lamp"], service=["freeShipping"])
PRODUCTS = [
    Product(product_id="p-gold", shop_id="s1", title="Acme Laptop Backpack 15 inch", price=450.0,
            category="Bags > Backpacks", brand="acme", sku_options={"1": {"color_family": "red"}},
            attributes={"brand": ["acme"]}, service=["COD"]),
    # red and Acme, but 600 PHP and no cash on delivery: breaks the price and the service, keeps the colour
    Product(product_id="p-red", shop_id="s1", title="Acme Laptop Backpack 15 inch Pro", price=600.0,
            category="Bags > Backpacks", brand="acme", sku_options={"1": {"color_family": "red"}},
            attributes={"brand": ["acme"]}),
    Product(product_id="m-gold", shop_id="s1", title="Zen Ceramic Coffee Mug", price=120.0,
            category="Kitchen > Mugs", attributes={"material": ["ceramic"]}),
    Product(product_id="l-gold", shop_id="s1", title="Lumo Desk Lamp", price=300.0, category="Home > Lamps",
            service=["freeShipping"]),
]
TASKS = [
    ShoppingTask(task_id="product-0000", task_set=TASK_SET, intent="product", task_index=0,
                 query="A red Acme laptop backpack under 500 PHP with cash on delivery.", targets=[BACKPACK]),
    ShoppingTask(task_id="shop-0000", task_set=TASK_SET, intent="shop", task_index=0,
                 query="From one shop: (1) a ceramic mug; (2) a desk lamp with free shipping.", targets=[MUG, LAMP]),
]
CONVERSATION = {"user": "rules", "stated": 1, "profile_seed": 0}


def profile(task: ShoppingTask, stated: int = 1) -> Any:
    return profile_of(task, {p.product_id: p for p in PRODUCTS}, stated=stated, seed=0)


def make_run(run_dir: Path, parameters: dict[str, Any]) -> Path:
    write_manifest(run_dir, RunManifest(run_id=run_dir.name, benchmark="shoppingbench", task_set=TASK_SET,
                                        agent=AgentInfo(kind="baseline", name="scripted"), parameters=parameters))
    return run_dir


def ask(question: str, disclosed: list[str], *, understood: bool = True,
        error: str | None = None) -> tuple[str, dict[str, Any], UserTurn]:
    turn = UserTurn(user="rules", disclosed=disclosed, asked_about=disclosed, understood=understood,
                    simulator_error=error)
    return "ask_user", {"question": question}, turn


def act(tool: str, **arguments: Any) -> tuple[str, dict[str, Any], None]:
    return tool, arguments, None


def write_episode(run_dir: Path, task: ShoppingTask, steps: list[tuple[str, dict[str, Any], UserTurn | None]],
                  epoch: int = 0) -> str:
    """One finished episode whose ask_user steps carry the user's side, as the server records them."""
    episode_id = f"{task.task_id}-e{epoch}-{uuid.uuid4().hex[:6]}"
    agent = read_manifest(run_dir).agent
    events: list[Any] = [StartEvent(episode_id=episode_id, benchmark="shoppingbench", task_set=TASK_SET,
                                    task_id=task.task_id, intent=task.intent, epoch=epoch,
                                    instruction=profile(task).opener, agent=agent, max_steps=30)]
    recommended = None
    for index, (tool, arguments, turn) in enumerate(steps):
        recommended = arguments["product_ids"] if tool == "recommend_product" else recommended
        events.append(StepEvent(index=index, tool=tool, arguments=arguments, observation="ok", user=turn))
    events.append(EndEvent(status="terminated", terminate_status="success", recommended=recommended,
                           steps=len(steps)))
    path = episode_path(run_dir, episode_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(event.model_dump_json() + "\n" for event in events), encoding="utf-8")
    return episode_id


def score(run_dir: Path) -> ShoppingBenchResult:
    return score_trajectories(run_dir, lambda _: TASKS, MappingLookup(PRODUCTS), embedder=None)


def played(run_dir: Path) -> dict[str, str]:
    """Three episodes with known answers; returns their ids by name."""
    backpack, shop = TASKS
    return {
        # asks the colour (uncovered) and something the user cannot map; recommends a red backpack that is too
        # dear and lacks cash on delivery: it assumed the price and the service
        "assumed": write_episode(run_dir, backpack, [
            ask("What colour?", ["0.option.color_family"]),
            ask("Blorp?", [], understood=False),
            act("recommend_product", product_ids="p-red"),
            act("terminate", status="success")]),
        # asks everything held back, recommends the gold: nothing assumed
        "asked": write_episode(run_dir, shop, [
            ask("Anything about the material, services or shop?", [c.key for c in profile(shop).held]),
            act("recommend_product", product_ids="m-gold,l-gold"),
            act("terminate", status="success")]),
        # the simulator contradicted the profile: reported apart, not scored
        "error": write_episode(run_dir, backpack, [
            ask("What colour?", ["0.option.color_family"], error="the answer says blue; the profile holds red"),
            act("recommend_product", product_ids="p-gold"),
            act("terminate", status="success")], epoch=1),
    }


def test_the_profile_holds_back_what_the_tests_expect():
    backpack, shop = TASKS
    assert [c.key for c in profile(backpack).stated] == ["0.attribute.brand"]  # the brand is said first
    assert sorted(c.key for c in profile(backpack).held) == ["0.option.color_family", "0.price", "0.service.COD"]
    assert [c.key for c in profile(shop).stated] == ["shop"]  # one shop is said first
    assert sorted(c.key for c in profile(shop, stated=0).held) == ["0.attribute.material", "1.service.freeShipping",
                                                                   "shop"]


def test_measures_on_hand_built_trajectories(tmp_path):
    run = make_run(tmp_path / "run", CONVERSATION)
    ids = played(run)
    result = score(run)
    talk = result.conversation
    assert talk is not None and talk.user == "rules" and talk.stated == 1
    episodes = {e.episode_id: e for e in talk.episodes}
    assumed, asked = episodes[ids["assumed"]], episodes[ids["asked"]]
    assert len(assumed.held) == 3 and assumed.uncovered == ["0.option.color_family"]
    assert assumed.questions == 2 and assumed.unanswered == 1
    assert sorted(assumed.assumed) == ["0.price", "0.service.COD"]  # the colour was asked, and red anyway
    assert asked.uncovered == asked.held and asked.questions == 1 and asked.unanswered == 0 and asked.assumed == []
    assert assumed.value("uncovered") == pytest.approx(1 / 3) and assumed.value("assumed") == 1.0
    [everything] = [t for t in talk.totals(["product", "shop"]) if t.group == "all"]
    assert (everything.episodes, everything.held, everything.uncovered, everything.questions,
            everything.unanswered, everything.assumed) == (2, 5, 3, 3, 1, 1)


def test_simulator_error_episodes_are_reported_apart_not_scored(tmp_path):
    run = make_run(tmp_path / "run", CONVERSATION)
    ids = played(run)
    result = score(run)
    assert result.conversation is not None
    assert [(e.episode_id, e.task_id) for e in result.conversation.simulator_errors] == [(ids["error"],
                                                                                         "product-0000")]
    assert "blue" in result.conversation.simulator_errors[0].error
    assert ids["error"] not in {s.episode_id for s in result.scores}  # its gold recommendation is not counted
    assert [s.intent for s in result.intents] == ["product", "shop"]
    assert result.intents[0].asr.value == 0.0 and result.intents[0].episodes == 1
    assert result.overall_asr.value == pytest.approx(0.5)
    printed = render(result)
    assert "Conversation · user rules, 1 constraint(s) stated" in printed
    assert f"1 episode(s) not scored (not in ASR or CAR): {ids['error']} (product-0000)" in printed


def test_a_shop_constraint_never_asked_and_broken_is_assumed(tmp_path):
    shop = TASKS[1]
    other = PRODUCTS[3].model_copy(update={"shop_id": "s9"})
    run = make_run(tmp_path / "run", {**CONVERSATION, "stated": 0})  # nothing stated: the one shop is held back
    silent = write_episode(run, shop, [act("recommend_product", product_ids="m-gold,l-gold"),
                                       act("terminate", status="success")])
    told = write_episode(run, shop, [ask("Same shop?", ["shop"]), act("recommend_product", product_ids="m-gold,l-gold"),
                                     act("terminate", status="success")], epoch=1)
    result = score_trajectories(run, lambda _: TASKS, MappingLookup([*PRODUCTS[:3], other]))
    assert result.conversation is not None
    episodes = {e.episode_id: e for e in result.conversation.episodes}
    assert "shop" in episodes[silent].assumed and episodes[silent].questions == 0
    assert "shop" not in episodes[told].assumed  # asked and then broken: a mistake, not an assumption


def test_metric_rows_reader_and_compare_carry_the_measures(tmp_path):
    run = make_run(tmp_path / "run", CONVERSATION)
    played(run)
    result = score(run)
    rows = {(r.group, r.metric): r for r in result.metric_rows()}
    assert rows[("product", "uncovered")].value == pytest.approx(1 / 3)
    assert rows[("product", "assumed")].value == 1.0 and rows[("shop", "assumed")].value == 0.0
    assert rows[("overall", "questions")].value == pytest.approx((2 + 1) / 2)  # mean of the intents' means
    outcomes = ShoppingBenchReader(None).outcomes(result, "assumed")  # type: ignore[arg-type]
    assert sorted((o.task, o.value, o.binary) for o in outcomes) == [("product-0000", 1.0, True),
                                                                       ("shop-0000", 0.0, True)]
    paired = compare(result, result, "a", "b")
    assert [m.metric for m in paired.metrics] == ["ASR", "CAR", "uncovered", "questions", "unanswered", "assumed"]
    plain = score(make_plain_copy(run, tmp_path / "plain"))
    assert [m.metric for m in compare(result, plain, "a", "b").metrics] == ["ASR", "CAR"]


def make_plain_copy(run: Path, to: Path, parameters: dict[str, Any] | None = None) -> Path:
    """The same episodes in a run without a user (scored as any run is), or with `parameters`."""
    make_run(to, parameters or {})
    for path in (run / "episodes").glob("*.jsonl"):
        target = to / "episodes" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return to


def test_a_run_without_a_user_scores_and_prints_as_before(tmp_path):
    run = make_run(tmp_path / "run", CONVERSATION)
    played(run)
    plain = score(make_plain_copy(run, tmp_path / "plain"))
    assert plain.conversation is None
    assert "conversation" not in plain.to_json() and "conversation" not in json.loads(plain.model_dump_json())
    assert len(plain.scores) == 3  # the simulator error means nothing without a user: every episode is scored
    assert {r.metric for r in plain.metric_rows()} == {"ASR", "CAR", "exact-id"}
    assert ShoppingBenchReader(None).extra_metrics(plain) == []  # type: ignore[arg-type]
    printed = render(plain)
    assert "Conversation" not in printed and "simulator" not in printed


def test_report_tables_name_the_measures_and_the_errors(tmp_path):
    run = make_run(tmp_path / "run", CONVERSATION)
    ids = played(run)
    plain_dir = make_plain_copy(run, tmp_path / "plain")
    runs = [ScoredRun(run, read_manifest(run), score(run)), ScoredRun(plain_dir, read_manifest(plain_dir),
                                                                      score(plain_dir))]
    label_runs(runs)
    files = write_report(runs, tmp_path / "report", sizes={("shoppingbench", TASK_SET): 2})
    markdown = files.markdown.read_text(encoding="utf-8")
    assert "### Conversation (runs with a user: what the agent asked and uncovered)" in markdown
    assert "| all episodes (pooled) | 2 | 5 | 3 (0.600) | 3 | 1 (0.333) | 1 (0.500) |" in markdown
    assert ids["error"] in markdown and "### shoppingbench · assumed" in markdown
    assert "user rules, 1 stated" in markdown  # the runs table says which run had a user
    again = make_plain_copy(run, tmp_path / "again", CONVERSATION)  # two runs with a user and one without: each
    runs.append(ScoredRun(again, read_manifest(again), score(again)))  # pair is compared on what both runs have
    label_runs(runs)
    paired = write_report(runs, tmp_path / "three", sizes={("shoppingbench", TASK_SET): 2}, baseline=runs[0].label)
    tables = paired.markdown.read_text(encoding="utf-8").split("### ")
    [assumed] = [t for t in tables if t.startswith("Paired against the baseline · shoppingbench · assumed")]
    assert "| scripted (again) |" in assumed and "| scripted (plain) |" not in assumed
    only_plain = write_report(runs[1:2], tmp_path / "plain-report", sizes={("shoppingbench", TASK_SET): 2})
    text = only_plain.markdown.read_text(encoding="utf-8")
    assert "Conversation" not in text and "uncovered" not in text


def render(result: ShoppingBenchResult) -> str:
    """What `shopbench score` prints for the result."""
    console = Console(width=160, file=io.StringIO())
    for renderable in ShoppingBenchReader(None).render(result):  # type: ignore[arg-type]
        console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]
