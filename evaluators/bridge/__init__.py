"""The model bridge: installed agents (Claude Code, Codex, qwen-code, ...) call shopbench models over the wire
formats they speak — Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, streaming or not — and every
call is counted in its episode's ledger.

The agent offers shopbench's tools under its own names; the model sees them under shopbench's names and nothing
else the agent offers (`_tool_names`). One module per wire format, one for the server, one for the accounting,
and a scripted policy for adapter tests (`_policy`).
"""

from evaluators.bridge._ledger import BridgeCall, EpisodeLedger, Prices
from evaluators.bridge._policy import ScriptedPolicy
from evaluators.bridge._server import BridgeEpisode, ModelBridge
from evaluators.bridge._tool_names import ToolNames

__all__ = ["BridgeCall", "BridgeEpisode", "EpisodeLedger", "ModelBridge", "Prices", "ScriptedPolicy", "ToolNames"]
