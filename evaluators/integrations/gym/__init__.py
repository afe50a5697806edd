"""ShoppingBench as a Gymnasium environment, for RL trainers (the paper's GRPO stage) and scripted policies.

`import evaluators.integrations.gym` registers `shopbench/ShoppingBench-v0` in Gymnasium's registry:

    import gymnasium as gym
    import evaluators.integrations.gym  # noqa: F401  (registers the environment)

    env = gym.make("shopbench/ShoppingBench-v0", world=None, task_set="generated", intent="voucher")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step({"name": "find_product", "arguments": {"q": "tent", "page": 1}})

or, without the import, `gym.make("shopbench:shopbench/ShoppingBench-v0", ...)` (Gymnasium imports the `shopbench`
package first, which registers it). The former path `evaluators.gym` is kept as an alias. Many episodes at
once: `gym.make_vec("shopbench/ShoppingBench-v0", num_envs=8, vectorization_mode="sync", ...)` (the envs of one process
share the world's index). See evaluators.integrations.gym.env for spaces, actions and rewards, and docs/RECIPES.md.
"""

from __future__ import annotations

import gymnasium

from evaluators.integrations.gym.env import AnyText, ShoppingBenchEnv, tool_list
from evaluators.integrations.gym.rewards import ToolReward, correctness, oracle_reference, step_reward

ENV_ID = "shopbench/ShoppingBench-v0"

__all__ = ["ENV_ID", "AnyText", "ShoppingBenchEnv", "ToolReward", "correctness", "oracle_reference", "step_reward",
           "tool_list"]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="evaluators.integrations.gym.env:ShoppingBenchEnv",
                       disable_env_checker=False)
