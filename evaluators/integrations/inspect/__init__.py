"""shopbench as an Inspect AI task package (`pip install shopbench[inspect]`).

    inspect eval shopbench/shoppingbench --model openai/gpt-4.1 -T task_set=generated -T intent=voucher --limit 20
    inspect eval shopbench/intentionqa --model openai/gpt-4.1 -T prompting=cot --limit 100

Modules: `tasks` (the @task functions), `solvers` (a ReAct agent over the episode's MCP tools; a question answerer),
`scorers` (shopbench's scorers as Inspect scorers), `episodes` (the eval's in-process MCP server and one connection
per sample). Nothing here imports Inspect at package import, so `evaluators` stays importable without the extra.
"""
