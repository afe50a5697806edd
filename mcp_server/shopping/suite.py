"""ShoppingBench task sets as server suites: listings and instructions, never targets; the six sandbox tools."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from benchmarks.errors import BadInput
from benchmarks.shoppingbench.conversation.instructions import CONVERSATIONAL_AGENT_INSTRUCTIONS
from benchmarks.shoppingbench.conversation.profile import UserProfile, profile_of
from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS, REFERENCE_SYSTEM_PROMPT
from benchmarks.shoppingbench.schema import ShoppingTask
from benchmarks.shoppingbench.tasks import OFFICIAL_SET
from mcp_server.protocol import TaskListing
from mcp_server.shopping.conversation import rules_user  # noqa: F401  (registers `--user rules`)
from mcp_server.shopping.conversation.tool import ASK_USER, ConversationSandbox
from mcp_server.shopping.tools import SHOPPING_TOOLS, Sandbox
from mcp_server.shopping.world import GENERATED_SET
from mcp_server.suite_registry import register_suite
from mcp_server.suites import SuiteOptions
from mcp_server.toolbox import ToolRunner

if TYPE_CHECKING:
    from benchmarks.qa import Demonstrations
    from benchmarks.registry import BenchmarkSpec
    from mcp_server.shopping.world import World
    from mcp_server.users import UserSource

BENCHMARK = "shoppingbench"


@register_suite(name=BENCHMARK)
class ShoppingSuite:
    """One task set of a world. The official set lists everywhere but starts only in a world imported from the
    official corpus, because its targets are products of that corpus."""

    benchmark = BENCHMARK
    kind: Literal["agentic", "qa"] = "agentic"
    max_steps: int | None = None
    agent_instructions = MCP_AGENT_INSTRUCTIONS
    prompts = {"reference_system_prompt": REFERENCE_SYSTEM_PROMPT}
    tools = SHOPPING_TOOLS
    takes_items = False
    demonstrations: Demonstrations | None = None

    def __init__(self, world: World, task_set: str) -> None:
        self.world, self.task_set = world, task_set
        self._tasks = {task.task_id: task for task in world.tasks(task_set)}
        self._listings = [  # built once: every start_task looks its task up here
            TaskListing(task_id=task.task_id, benchmark=self.benchmark, task_set=self.task_set, intent=task.intent)
            for task in self._tasks.values()
        ]

    @classmethod
    def open(cls, spec: BenchmarkSpec, options: SuiteOptions) -> ShoppingSuite:
        """The suite of the chosen task set (default: the world's generated set) in the chosen world; played as a
        conversation when the options name a user."""
        from mcp_server.shopping.world_build import open_world  # building worlds loads only when a world is opened

        world, task_set = open_world(options), options.task_set or GENERATED_SET
        if options.user is not None:
            return ConversationalShoppingSuite(world, task_set, user=options.user, stated=options.stated,
                                               seed=options.seed)
        return cls(world, task_set)

    def listings(self) -> list[TaskListing]:
        return list(self._listings)

    def instruction(self, task_id: str) -> str:
        return self._tasks[task_id].instruction

    def start_details(self, task_id: str) -> dict[str, Any]:
        return {}

    def open_sandbox(self) -> Sandbox:
        """The sandbox tools over the world (opening its indexes on first use in the process)."""
        return Sandbox.for_world(self.world)

    def manifest_parameters(self) -> dict[str, Any]:
        return {}

    def task(self, task_id: str) -> ShoppingTask:
        """The full task, targets included — for scorers and the TUI's end screen, never for the agent."""
        return self._tasks[task_id]

    def unavailable_reason(self) -> str | None:
        if self.task_set == OFFICIAL_SET and not self.world.is_official_corpus:
            return (
                "the official ShoppingBench tasks need a world imported from the official 2.5M-product corpus: run "
                "`shopbench world import documents.jsonl.gz --out DIR`, then serve or run with `--world DIR`. This "
                f"world ({self.world.info.name}) is not that corpus."
            )
        return None


class ConversationalShoppingSuite(ShoppingSuite):
    """A task set played as a conversation (`--user`): each task's opener, from its profile
    (benchmarks.shoppingbench.conversation.profile_of, built from the task's gold), names the product kinds and
    `stated` constraints; `ask_user` is listed and answered by the episode's user from the profile; the gold and its
    scoring are the task's own."""

    agent_instructions = CONVERSATIONAL_AGENT_INSTRUCTIONS
    tools = {**SHOPPING_TOOLS, ASK_USER.name: ASK_USER}

    def __init__(self, world: World, task_set: str, *, user: UserSource, stated: int = 1, seed: int = 0) -> None:
        if stated < 0:
            raise BadInput(f"--stated must be 0 or more, not {stated}")
        super().__init__(world, task_set)
        self.user, self.stated, self.seed = user, stated, seed
        self._profiles: dict[str, UserProfile] = {}

    def instruction(self, task_id: str) -> str:
        return self.profile(task_id).opener

    def episode_sandbox(self, task_id: str, shared: ToolRunner) -> ToolRunner:
        """The shared sandbox, with `ask_user` answered by this task's user."""
        return ConversationSandbox(shared, self.user.for_profile(self.profile(task_id)))

    def manifest_parameters(self) -> dict[str, Any]:
        """The user, the opener's size and the profile seed: they decide what the agent is told and answered."""
        return {"user": self.user.name, "stated": self.stated, "profile_seed": self.seed, **self.user.parameters()}

    def profile(self, task_id: str) -> UserProfile:
        """The task's shopper (gold included) — for the user, scorers and the TUI, never for the agent. Built once
        per task, from the targets' products in the world."""
        if task_id not in self._profiles:
            task = self._tasks[task_id]
            products = self.world.products.get(target.product_id for target in task.targets)
            self._profiles[task_id] = profile_of(task, products, stated=self.stated, seed=self.seed)
        return self._profiles[task_id]
