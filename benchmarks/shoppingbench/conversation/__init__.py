"""A shopper who does not say everything at once: each task's gold constraints as a user profile (`profile.py`),
some said in the opener and the rest held back until the agent asks, and the words a shopper says them in
(`wording.py`). Pure data and logic; the simulated users that answer from a profile live in
mcp_server.shopping.conversation."""
