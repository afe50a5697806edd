"""ShoppingBench's sandbox, apart from the generic episode server: its six tools (tools), the world they are played
in (world; built by world_build), product and knowledge search (search/), the calculator, the live web search,
the tools' output models (tool_outputs) and the suite that registers it all with the server (suite).

The generic server (episodes, transports, trajectories, server) imports nothing from here
(tests/test_import_graph.py checks): the suite supplies what is its own — its agent instructions and prompts, its
tools and sandbox, and how its world is opened.
"""
