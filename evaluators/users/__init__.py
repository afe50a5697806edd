"""Who answers `ask_user` besides the rules simulator (mcp_server.shopping.conversation): a model playing the shopper
from the episode's profile, its answers checked against that profile (`--user-model SPEC`), and a person in the
shopper's seat (`shopbench play --as-user`)."""

from evaluators.users.model_user import ModelUserSource
from evaluators.users.person import PersonLeft, PersonUserSource, Question

__all__ = ["ModelUserSource", "PersonLeft", "PersonUserSource", "Question"]
