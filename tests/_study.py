"""Shared by the study tests and perf/bench_study_serve.py: generated SessionIntentBench items without a model, and
a key press that waits for the screen it was pressed on to go."""

from __future__ import annotations

from pathlib import Path

from benchmarks.session_intent.trees import (
    Branch,
    GeneratedSessionItem,
    IntentionTree,
    TreeProduct,
    add_children,
    sample_items,
)
from tests.test_tui_play import until


def generated_items(path: Path) -> list[GeneratedSessionItem]:
    """Two sessions' trees grown by hand (two intentions per step), four task instances sampled from each."""
    items = []
    for session in ("s1", "s2"):
        tree = IntentionTree(session_id=session, products=[TreeProduct(title=f"{session} product {i}",
                                                                       attributes={"colour": f"c{i}"})
                                                          for i in range(3)])
        frontier = [None]
        for step in range(3):
            frontier = [node for parent in frontier for node in add_children(tree, parent, [
                Branch(intention=f"intention {step}.{b} after {parent.node_id if parent else 'start'}",
                       valued_attribute=f"colour {b}", comparison=f"cheaper {b}") for b in range(2)])]
        items += sample_items(tree, per_session=4, seed=1)
    path.write_text("".join(item.model_dump_json() + "\n" for item in items))
    return items


async def press_on(pilot, *keys: str) -> None:
    """Press keys and wait until the screen they were pressed on has gone."""
    shown = pilot.app.screen
    await pilot.press(*keys)
    await until(pilot, lambda: pilot.app.screen is not shown)
