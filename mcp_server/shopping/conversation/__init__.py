"""ShoppingBench played as a conversation: the `ask_user` tool and the per-episode sandbox that answers it
(`tool.py`), and the deterministic rules user (`rules_user.py`, reading questions through `questions.toml`)."""
