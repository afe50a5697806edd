"""The Gymnasium environment's import path before it moved to evaluators.integrations.gym, kept as an alias so that
scripts written against it still work: `import evaluators.gym` registers `shopbench/ShoppingBench-v0`, and
`gymnasium.make("evaluators.gym:shopbench/ShoppingBench-v0")` finds it."""

from __future__ import annotations

from evaluators.integrations.gym import (
    ENV_ID,
    AnyText,
    ShoppingBenchEnv,
    ToolReward,
    correctness,
    oracle_reference,
    step_reward,
    tool_list,
)

__all__ = ["ENV_ID", "AnyText", "ShoppingBenchEnv", "ToolReward", "correctness", "oracle_reference", "step_reward",
           "tool_list"]
