"""What the shopbench agent runner tells a model, beyond the reference system prompt (prompts.py).

`native` protocol: the backend's own tool calling; the system prompt is the MCP agent instructions' rules.
`paper` protocol: the reference's text format; the system prompt is `reference_system_prompt(tools)` and tool results
come back as a user turn wrapped in `<obs>...</obs>`, each result tagged with its tool_call_id (rule 1 of the
reference prompt). The observation wrapping is shopbench's reading of the reference prompt; its hash is recorded
with every run.
"""

from __future__ import annotations

NATIVE_SYSTEM_PROMPT = """\
You are a shopping assistant in an online shop. Solve the user's request with the tools, one step at a time.
- Use find_product to search (change q, page, shop_id, price, service or sort when results miss).
- Use view_product_information to check details such as color, size, material or model.
- Use web_search for facts you are unsure of, and calculate for arithmetic and voucher totals.
- Do not ask the user anything. When you have found the products, call recommend_product with their product_ids,
  comma-separated, in the order the user named them. Only the last recommendation counts.
- Then call terminate (status success, or failure when you cannot go further)."""

PAPER_OBSERVATION_OPEN = "<obs>"
PAPER_OBSERVATION_CLOSE = "</obs>"

MALFORMED_NATIVE = "Your reply could not be run: {problem}. Reply with a call to one of the tools."
MALFORMED_PAPER = (
    "Your reply could not be run: {problem}. Write <think>your reasoning</think> then "
    '<tool_call>[{{"name": "tool name", "parameters": {{...}}}}]</tool_call>.'
)
