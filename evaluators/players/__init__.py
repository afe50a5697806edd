"""What plays an episode through the MCP server: the agent loop and its chat protocols (agent/), the question
player (question.py), the baselines (baselines/), the MCP sessions both use (sessions.py) and what a model call costs
(pricing.py). The run pipeline (evaluators.harness) chooses and drives them; they import nothing of it."""
