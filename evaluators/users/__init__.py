"""Who answers `ask_user` besides the rules simulator (mcp_server.shopping.conversation): a model playing the shopper
from the episode's profile, its answers checked against that profile (`--user-model SPEC`), and a person in the
shopper's seat (`shopbench play --as-user`). Import the module you need: the package imports nothing, so `serve`
loads no model before it can answer."""
