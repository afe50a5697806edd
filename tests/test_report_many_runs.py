"""Reports that still read with a dozen runs (issue 21): every figure legible at 2, 5 and 12 runs, a leaderboard that
ranks runs by the primary metric, each run paired with the baseline on shared tasks only, report.html rendered by
headless Chromium, and the leaderboard in `shopbench results` at 80 and 160 columns.

Runs are written with mcp_server.trajectory's own models over 16 official tasks (4 per intent, interleaved) and scored
by the real scorer; a run that "solves s" recommends the right products for the first s tasks, so its ASR is s / 16.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from _figure_text import text_problems, visible_texts
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from matplotlib.container import BarContainer

from evaluators.results.reports import benchmark_figures, label_runs, pairwise, write_report
from evaluators.results.reports.baseline import BaselineError, all_pairs, choose_baselines
from evaluators.results.reports.figure_style import SMALL_FONT
from evaluators.results.reports.leaderboard import leaderboards
from evaluators.results.reports.plots import pairs_figure
from evaluators.results.reports.tables import ScoredRun, assess_coverage
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories
from mcp_server.trajectory import read_manifest

SIZES = {("shoppingbench", "official"): None}
"""Coverage is judged against the runs reported together (the official set is far bigger)."""
INTENTS = ("product", "shop", "voucher", "web")


@dataclass(frozen=True)
class Spec:
    name: str
    kind: str
    solves: int
    """The first `solves` of the tasks it plays are right."""
    plays: int = 16
    """It plays the first `plays` of the 16 tasks."""
    epochs: int = 1


TWELVE = [
    Spec("claude-sonnet-4", "model", 13), Spec("alice", "human", 9, plays=14),
    Spec("gpt-4.1", "model", 11), Spec("heuristic", "baseline", 16), Spec("random", "baseline", 2, epochs=2),
    Spec("qwen3-32b", "model", 8), Spec("llama-cpp:qwen2.5-7b-instruct-q4_k_m", "model", 4),
    Spec("bob", "human", 14), Spec("claude-code", "mcp-client", 12), Spec("naive", "baseline", 1),
    Spec("mistral-small-3.1-24b-instruct", "model", 6), Spec("gemma-3-27b-it", "model", 7),
]
"""Models, humans (one of them played 14 of the 16 tasks), baselines (one over two epochs) and an MCP client."""


@pytest.fixture(scope="module")
def official():
    tasks, products = official_catalog()
    by_intent = {intent: [t for t in tasks if t.intent == intent][:4] for intent in INTENTS}
    return tasks, products, [by_intent[intent][i] for i in range(4) for intent in INTENTS]


def write_run(root: Path, spec: Spec, chosen: list, world: dict | None = None) -> Path:
    """The run folder of `spec` over the `chosen` tasks."""
    run = make_run(root / spec.name.replace(":", "_"), kind=spec.kind, name=spec.name, world=world)
    for epoch in range(spec.epochs):
        for index, task in enumerate(chosen[:spec.plays]):
            right = index < spec.solves and (epoch == 0 or index % 2 == 0)  # later epochs solve half as many
            ids = ",".join(t.product_id for t in task.targets) if right else "wrong-id"
            write_episode(run, task, recommend(ids), epoch=epoch,
                          output_tokens=None if spec.kind == "human" else 50)
    return run


def play(root: Path, spec: Spec, official) -> ScoredRun:
    tasks, products, chosen = official
    run = write_run(root, spec, chosen)
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    return ScoredRun(run, read_manifest(run), result)


def scored(root: Path, specs: list[Spec], official) -> list[ScoredRun]:
    runs = [play(root, spec, official) for spec in specs]
    label_runs(runs)
    assess_coverage(runs, SIZES)
    return runs


@pytest.fixture(scope="module")
def twelve(tmp_path_factory, official) -> list[ScoredRun]:
    return scored(tmp_path_factory.mktemp("twelve"), TWELVE, official)


@pytest.mark.parametrize("count", [2, 5, 12])
def test_no_text_runs_past_its_figure_or_over_another(twelve, count) -> None:
    runs = twelve[:count]
    comparisons = pairwise(runs)
    figures = []
    for board in leaderboards(runs):
        figures += list(benchmark_figures(board.runs, comparisons))
        figures.append(("pairs", pairs_figure(board.runs, all_pairs(board.runs), board.metric)))
    stems = [stem for stem, _ in figures]
    assert stems == ["shoppingbench_ASR", "shoppingbench_CAR", "shoppingbench_humans_vs_models",
                     "shoppingbench_paired_ASR", "pairs"]
    for stem, figure in figures:
        assert text_problems(figure) == [], stem
        texts = visible_texts(figure)
        assert min(text.get_fontsize() for text in texts) >= SMALL_FONT, f"{stem}: text shrunk below a readable size"
        legend = [t.get_text() for legend in figure.legends for t in legend.get_texts()]
        if stem in ("shoppingbench_ASR", "shoppingbench_CAR"):  # every run in the one figure, its kind named
            assert len(legend) == count and all(f"({run.kind})" in " ".join(legend) for run in runs)


def test_a_figure_grows_with_its_runs_and_humans_and_baselines_look_apart(twelve) -> None:
    from evaluators.results.reports.plots import rate_figure

    small, large = rate_figure(twelve[:2], "ASR"), rate_figure(twelve, "ASR")
    assert large.get_size_inches()[1] > 2.5 * small.get_size_inches()[1]
    bars = {}
    for container in large.axes[0].containers:
        if not isinstance(container, BarContainer):
            continue
        patch = container.patches[0]
        bars[container.get_label()] = (patch.get_facecolor(), patch.get_hatch())
    styles = {kind: {bars[label] for label in bars if label.endswith(f"({kind})")} for kind in
              ("model", "human", "baseline")}
    assert all(hatch for _, hatch in styles["human"] | styles["baseline"]) and not any(
        hatch for _, hatch in styles["model"])
    assert not styles["human"] & styles["baseline"] and len({colour for colour, _ in bars.values()}) == len(bars)


def test_leaderboard_ranks_runs_by_the_primary_metric(tmp_path, official) -> None:
    solves = {"m05": 5, "m12": 12, "tie-x": 9, "m16": 16, "m01": 1, "tie-y": 9, "m14": 14}
    runs = scored(tmp_path, [Spec(name, "model", count) for name, count in solves.items()], official)
    (board,) = leaderboards(runs)
    assert board.ranked_by_overall and board.shared_tasks == 16  # every run covers the 16 tasks reported together
    order = ["m16", "m14", "m12", "tie-x", "tie-y", "m05", "m01"]
    assert [run.label for run in board.runs] == order
    assert [standing.rank for standing in board.standings] == [1, 2, 3, 4, 4, 6, 7]  # a tie shares its rank
    assert [standing.shared.value for standing in board.standings] == pytest.approx([solves[n] / 16 for n in order])

    files = write_report(runs, tmp_path / "report", sizes=SIZES)
    markdown = files.markdown.read_text()
    board_text = markdown[markdown.index("### Leaderboard"):markdown.index("![")]
    ranked = re.findall(r"^\| (\d+) \| ([\w-]+) \| model \| (\d\.\d{3}) ", board_text, re.MULTILINE)
    assert [(int(rank), name, float(value)) for rank, name, value in ranked] == [
        (rank, name, round(solves[name] / 16, 3)) for rank, name in zip([1, 2, 3, 4, 4, 6, 7], order, strict=True)]
    assert markdown.index("### Leaderboard") < markdown.index("### Runs (grouped by agent kind)")


def test_leaderboard_gives_pass_k_for_a_run_of_several_epochs(twelve) -> None:
    (board,) = leaderboards(twelve)
    assert board.ks == [2] and "pass^2" in board.headers()
    by_label = {standing.run.label: standing for standing in board.standings}
    random = by_label["random"].run.result
    per_intent = [summary.pass_k[2] for summary in random.intents]
    assert by_label["random"].pass_k[2] == pytest.approx(sum(per_intent) / len(per_intent)) == 1 / 16  # the scorer's
    assert by_label["gpt-4.1"].pass_k == {}  # one epoch: no pass^2 ("–")
    row = next(cells for cells in board.rows() if cells[1] == "gpt-4.1")
    assert row[board.headers().index("pass^2")] == "–"


def test_a_run_that_skipped_tasks_is_ranked_on_the_tasks_all_played(tmp_path, official) -> None:
    # "cherry" played 4 tasks and solved 3 (0.75 of its own); "full" played all 16 and solved only the first 4:
    # 0.25 of its own, but 1.00 on the 4 tasks both played, where cherry has 0.75
    runs = scored(tmp_path, [Spec("cherry", "model", 3, plays=4), Spec("full", "model", 4)], official)
    assert runs[0].result.overall_asr.value > runs[1].result.overall_asr.value
    (board,) = leaderboards(runs)
    assert [run.label for run in board.runs] == ["full", "cherry"] and board.shared_tasks == 4
    assert board.headers()[3] == "ASR, 4 shared tasks"


def test_baseline_pairs_every_run_with_the_named_one_on_shared_tasks_only(tmp_path, official) -> None:
    specs = [Spec("model-a", "model", 10, plays=12), Spec("model-b", "model", 6), Spec("alice", "human", 5, plays=7),
             Spec("naive", "baseline", 1, plays=14)]
    runs = scored(tmp_path, specs, official)
    played = {run.label: run.task_keys() for run in runs}

    default = choose_baselines(runs)["shoppingbench"]
    assert default.run.label == "model-b" and "best-covered model run, 16 tasks" in default.text()

    files = write_report(runs, tmp_path / "report", sizes=SIZES, baseline=str(runs[2].run_dir))
    comparisons = pairwise(runs, str(runs[2].run_dir))
    assert sorted(c.a for c in comparisons) == ["model-a", "model-b", "naive"] and {c.b for c in comparisons} == {
        "alice"}
    for comparison in comparisons:
        shared = played[comparison.a] & played["alice"]
        assert comparison.shared == len(shared) == comparison.metrics[0].overall.n
        assert sum(group.n for group in comparison.metrics[0].groups) == len(shared)
    markdown = files.markdown.read_text()
    assert "Baseline for shoppingbench: alice (named with --baseline)." in markdown
    table = markdown[markdown.index("### Paired against the baseline · shoppingbench · ASR"):]
    for comparison in comparisons:
        assert f"| {comparison.a} | {comparison.shared} |" in table  # n (paired): the shared tasks, never a run's own
    assert "| alice |" not in table.split("\n\n")[1]  # the baseline is not paired with itself

    with pytest.raises(BaselineError, match="names none of the runs; give a run folder or one of: model-a"):
        write_report(runs, tmp_path / "nope", sizes=SIZES, baseline="gpt-5")
    assert not (tmp_path / "nope").exists()  # refused before anything is written


def test_report_baseline_and_all_pairs_from_the_command_line(default_world, tmp_path) -> None:
    from typer.testing import CliRunner

    from shopbench.cli import app

    task_set = next(name for name in default_world.task_sets() if name != "official")
    tasks = [t for t in default_world.tasks(task_set) if t.intent == "shop"][:4]
    dirs = []
    for name, right in (("a", 4), ("b", 1), ("c", 2)):
        run = make_run(tmp_path / name, name=name, world={"path": str(default_world.root)})
        for index, task in enumerate(tasks):
            write_episode(run, task, recommend(",".join(x.product_id for x in task.targets) if index < right else "x"))
        dirs.append(str(run))
    out = tmp_path / "out"
    outcome = CliRunner().invoke(app, ["report", *dirs, "--baseline", dirs[2], "--all-pairs", "--out", str(out)])
    assert outcome.exit_code == 0, outcome.output
    markdown = (out / "report.md").read_text()
    assert "Baseline for shoppingbench: c (named with --baseline)." in markdown
    assert "### All pairs · shoppingbench · ASR: row − column" in markdown
    row_a = next(line for line in markdown.splitlines() if line.startswith("| a |  |"))  # a, then its cells
    assert "+0.750" in row_a and "+0.500" in row_a  # a − b (4 of 4 vs 1 of 4), a − c (vs 2 of 4)
    assert (out / "shoppingbench_pairs_ASR.png").is_file() and (out / "shoppingbench_paired_ASR.png").is_file()
    bad = CliRunner().invoke(app, ["report", *dirs, "--baseline", "nobody", "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "error: --baseline 'nobody' names none of the runs" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


CHROMIUM = "/usr/bin/chromium"


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    """Debian's chromium, headless, offline, with a throwaway profile (the Makefile's install step installs it)."""
    found = shutil.which("chromium") or CHROMIUM
    assert Path(found).exists(), "chromium is missing: `make install` installs Debian's chromium"
    return subprocess.run([found, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=120,
                          check=True)


def test_report_html_renders_in_headless_chromium(twelve, tmp_path) -> None:
    import matplotlib.image

    files = write_report(twelve[:5], tmp_path / "report", sizes=SIZES)
    shot = tmp_path / "report.png"
    chromium(f"--screenshot={shot}", "--window-size=1400,1800", files.html.as_uri(), profile=tmp_path / "profile")
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (1800, 1400)
    top = pixels[:900]  # the first screen: title, notes and the leaderboard
    assert top.std() > 0.05 and (top.mean(axis=2) < 0.5).mean() > 0.005, "the page rendered blank"

    dom = chromium("--dump-dom", files.html.as_uri(), profile=tmp_path / "profile").stdout
    board = re.search(r"<table class=\"leaderboard\">(.*?)</table>", dom, re.DOTALL)
    assert board is not None, "no leaderboard in the rendered page"
    rows = re.findall(r"<tr class=\"kind-([\w-]+)\">\s*<td>(\d+)</td>\s*<td>([^<]+)</td>", board.group(1))
    (expected,) = leaderboards(twelve[:5])
    assert [(kind, int(rank), label) for kind, rank, label in rows] == [
        (s.run.kind, s.rank, s.run.label) for s in expected.standings]
    assert [label for _, _, label in rows][:2] == ["heuristic", "claude-sonnet-4"]
    images = re.findall(r"<img src=\"([^\"]+)\"", dom)
    assert images and all((files.html.parent / image).is_file() for image in images)


@pytest.fixture(scope="module")
def world_runs(default_world, tmp_path_factory) -> list[Path]:
    """The twelve runs over tasks of the default world (`shopbench results` scores them as `score` does)."""
    task_set = next(name for name in default_world.task_sets() if name != "official")
    by_intent = {intent: [t for t in default_world.tasks(task_set) if t.intent == intent][:4] for intent in INTENTS}
    chosen = [by_intent[intent][i] for i in range(4) for intent in INTENTS]
    root = tmp_path_factory.mktemp("world-twelve")
    return [write_run(root, spec, chosen, world={"path": str(default_world.root)}) for spec in TWELVE]


@pytest.mark.parametrize("width", [80, 160])
async def test_results_shows_the_leaderboard(world_runs, width) -> None:
    from textual.widgets import DataTable

    from evaluators.results.reports import load_runs
    from shopbench_tui.results import ResultsApp

    runs = load_runs(world_runs)
    assess_coverage(runs)
    (expected,) = leaderboards(runs)
    assert len({s.rank for s in expected.standings}) > 6  # a ranking, not a tie of all
    app = ResultsApp(world_runs)
    async with app.run_test(size=(width, 50)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.query_one("#leaderboard-0", DataTable)
        rows = [table.get_row_at(index) for index in range(table.row_count)]
        assert [(str(row[0]), str(row[1]), str(row[2])) for row in rows] == [
            (str(s.rank), s.run.label, s.run.kind) for s in expected.standings]
        columns = list(table.columns.values())
        assert [str(c.label) for c in columns[:4]] == ["#", "run", "kind", "ASR, 14 shared tasks"]
        shown = sum(column.get_render_width(table) for column in columns[:4])
        assert shown <= width, "rank, run, kind and score do not fit the terminal"
        assert table.region.width == width  # the table spans the terminal (a wider one scrolls)
