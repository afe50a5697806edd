"""`list_tasks` and `start_task`: the typed tools (validated by the SDK) that list the hosted suites' tasks and start
an episode on one, on the calling client's connection. Their argument errors are reworded without pydantic's text
(mcp_server.server).

`reserve_episode` starts an episode for a client that has not connected yet (an installed agent the harness is
about to run) and gives it an address of its own; on that address both tools answer with the reserved episode."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from mcp_server.episode_tools import meta_int, meta_str, request_meta
from mcp_server.episodes import Episode, EpisodeError
from mcp_server.protocol import MAX_EPOCHS, META_AGENT, META_EPISODE_ID, META_EPOCH, StartedEpisode, TaskListing
from mcp_server.server_state import ClientState, ServerState, ShopbenchContext, state_of
from mcp_server.suites import SuiteWorld, TaskSuite
from mcp_server.toolbox import describe_validation_error
from mcp_server.trajectory import AgentInfo, AgentKindValue, EndStatus, Usage

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 500


class TaskPage(BaseModel):
    """One page of list_tasks."""

    tasks: list[TaskListing]
    total: int = Field(description="Tasks matching the filters, on all pages.")
    offset: int
    limit: int


async def list_tasks(
    ctx: ShopbenchContext,
    benchmark: Annotated[
        str | None, Field(description='List one benchmark only, e.g. "shoppingbench" (default: all).')
    ] = None,
    intent: Annotated[
        str | None,
        Field(description='List one intent only: a ShoppingBench intent (e.g. "product", "voucher") or a '
              'question benchmark\'s task name (default: all).'),
    ] = None,
    limit: Annotated[
        int, Field(ge=1, le=MAX_PAGE_SIZE, description=f"Most tasks to return (1 to {MAX_PAGE_SIZE}).")
    ] = DEFAULT_PAGE_SIZE,
    offset: Annotated[int, Field(ge=0, description="Tasks to skip, for the next page (offset + limit).")] = 0,
) -> TaskPage:
    """List tasks you can start, a page at a time: {tasks: [{task_id, benchmark, task_set, intent}], total,
    offset, limit} (never answers). The shopbench://tasks resource has the full list."""
    state = state_of(ctx)
    reserved = state.reserved_client(ctx)
    if reserved is not None and reserved.episode is not None:  # its own task is the one it can play
        listings = [reserved.episode.listing]
    else:
        listings = _listings(state, benchmark)
    if intent is not None:
        chosen = [listing for listing in listings if listing.intent == intent]
        if not chosen:
            known = sorted({str(listing.intent) for listing in listings if listing.intent is not None})
            raise ToolError(f"no task has intent {intent!r}; intents: {', '.join(known)}")
        listings = chosen
    return TaskPage(tasks=listings[offset : offset + limit], total=len(listings), offset=offset, limit=limit)


async def start_task(
    task_id: Annotated[str, Field(max_length=200, description="The task to start: a task_id from list_tasks.")],
    ctx: ShopbenchContext,
    benchmark: Annotated[
        str | None, Field(max_length=100, description="The task's benchmark, when a task id exists in several.")
    ] = None,
    task_set: Annotated[
        str | None, Field(max_length=200, description="The task's task set, when a task id exists in several.")
    ] = None,
    episode_id: Annotated[
        str | None,
        Field(max_length=128, description="Id for the new episode (1-128 of A-Z a-z 0-9 . _ -, starting with a "
              "letter or digit); it must not name an existing episode. Default: a fresh id."),
    ] = None,
    epoch: Annotated[
        int | None,
        Field(ge=0, lt=MAX_EPOCHS, description=f"Epoch of this run of the task, for repeated runs (0 to "
              f"{MAX_EPOCHS - 1}; default 0)."),
    ] = None,
    agent_name: Annotated[
        str | None,
        Field(max_length=200, description="Who plays, e.g. the model name (default: the server's --agent-name, "
              "else this MCP client's name)."),
    ] = None,
    agent_kind: Annotated[
        AgentKindValue | None,
        Field(title="Agent Kind", description="What plays: model, human, mcp-client or baseline (default: the "
              "server's --agent-kind, else mcp-client)."),
    ] = None,
) -> StartedEpisode:
    """Begin an episode on a task on this connection and return the user's instruction. Starting a task while
    another is running abandons the running one. The identity arguments (episode_id, epoch, agent_name,
    agent_kind) are for clients that cannot send request _meta; see the shopbench://tools resource."""
    state = state_of(ctx)
    reserved = state.reserved_client(ctx)
    if reserved is not None and reserved.reserved is not None and reserved.episode is not None:
        # The harness started this client's episode before the agent ran: starting a task gives it back.
        return reserved.reserved.model_copy(update={"episode": reserved.episode.status})
    suite = _suite_for(state, task_id, benchmark, task_set)
    client = state.client(ctx)
    meta = request_meta(ctx)
    agent = _agent(ctx, meta, state.agent_defaults, name=agent_name, kind=agent_kind)
    chosen_id = episode_id or meta_str(meta, META_EPISODE_ID)
    chosen_epoch = epoch if epoch is not None else meta_int(meta, META_EPOCH, MAX_EPOCHS)
    episode, started = await _begin(state, suite, task_id, agent, chosen_id, chosen_epoch)
    previous = client.episode
    client.episode = episode
    client.started.add(episode.episode_id)
    if previous is not None and not previous.over:
        await state.run(functools.partial(previous.abandon, "another task was started"))
    return started


async def _begin(state: ServerState, suite: TaskSuite, task_id: str, agent: AgentInfo, episode_id: str | None,
                 epoch: int) -> tuple[Episode, StartedEpisode]:
    """Create the episode (its start event written, in the worker pool) and what start_task answers with; an
    episode that cannot start is a ToolError saying why."""
    world_label, world_info = recorded_world(suite.world)

    def begin() -> tuple[Episode, dict[str, Any]]:
        episode = Episode(
            state.runs_dir,
            suite,
            task_id,
            agent=agent,
            sandbox=state.sandboxes[id(suite)],
            episode_id=episode_id,
            epoch=epoch,
            max_steps=state.max_steps,
            world=world_label,
            world_info=world_info,
        )
        return episode, suite.start_details(task_id)

    try:
        episode, details = await state.run(begin)
    except EpisodeError as error:
        raise ToolError(str(error)) from None
    except ValidationError as error:
        raise ToolError(f"start_task: {describe_validation_error(error)}") from None
    return episode, StartedEpisode(
        episode_id=episode.episode_id,
        task_id=task_id,
        benchmark=suite.benchmark,
        task_set=episode.listing.task_set,
        intent=episode.listing.intent,
        kind=suite.kind,
        instruction=episode.instruction,
        max_steps=episode.max_steps,
        tools=list(episode.tools),
        **details,
        episode=episode.status,
    )


@dataclass(frozen=True)
class Reservation:
    """An episode the harness started for an installed agent, and the address token that reaches it."""

    token: str
    started: StartedEpisode
    client: ClientState

    @property
    def episode(self) -> Episode:
        assert self.client.episode is not None  # set when reserved, never cleared
        return self.client.episode


async def reserve_episode(
    state: ServerState,
    task_id: str,
    *,
    agent: AgentInfo,
    episode_id: str | None = None,
    epoch: int = 0,
    benchmark: str | None = None,
    usage: Callable[[], Usage | None] | None = None,
) -> Reservation:
    """Start an episode before its agent runs and give it an address of its own (mcp_server.transports serves it
    at /e/<token>/mcp): the agent's first tool call is already inside the episode, and nothing it can call reaches
    another one. `usage` supplies each step's usage (see ClientState.usage). Raises ToolError when the episode
    cannot start."""
    suite = _suite_for(state, task_id, benchmark, None)
    episode, started = await _begin(state, suite, task_id, agent, episode_id, epoch)
    client = ClientState(episode=episode, started={episode.episode_id}, reserved=started, usage=usage)
    token = secrets.token_urlsafe(24)
    state.reservations[token] = client
    return Reservation(token, started, client)


def release_episode(state: ServerState, reservation: Reservation, status: EndStatus, message: str) -> None:
    """Close the episode's address (and its open sessions) and end the episode with `status` and `message` if it is
    still running (one event written: quick enough for the event loop, and safe where nothing more may be awaited,
    as when a run is being cancelled)."""
    state.reservations.pop(reservation.token, None)
    for released in state.on_release:
        released(reservation.token)
    reservation.episode.stop(status, message)


@functools.cache
def task_tools() -> tuple[Tool, ...]:
    """list_tasks and start_task as typed tools, built once per process like the episode tools (deriving their
    argument models and schemas from the signatures costs ~15 ms, which every run would pay again); each call finds
    its server through the request's context."""
    return (
        Tool.from_function(list_tasks, annotations=ToolAnnotations(read_only_hint=True)),
        Tool.from_function(start_task),
    )


# ---- helpers ---------------------------------------------------------------------------------------------------


def _listings(state: ServerState, benchmark: str | None) -> list[TaskListing]:
    if benchmark is None:
        return state.listings
    _check_benchmark(state, benchmark)
    return [listing for listing in state.listings if listing.benchmark == benchmark]


def _check_benchmark(state: ServerState, benchmark: str | None) -> None:
    """An error naming the benchmarks served when `benchmark` is none of them."""
    if benchmark is not None and not any(suite.benchmark == benchmark for suite in state.suites):
        raise ToolError(f"no benchmark {benchmark!r} here; benchmarks: {', '.join(_benchmarks(state.suites))}")


def _suite_for(state: ServerState, task_id: str, benchmark: str | None, task_set: str | None) -> TaskSuite:
    _check_benchmark(state, benchmark)
    holders = state.holders.get(task_id, set())
    matches = [
        suite
        for suite in state.suites
        if (suite.benchmark, suite.task_set) in holders
        and (benchmark is None or suite.benchmark == benchmark)
        and (task_set is None or suite.task_set == task_set)
    ]
    if not matches:
        raise ToolError(f"no task {task_id!r}; call list_tasks for the task ids")
    if len(matches) > 1:
        where = ", ".join(f"benchmark={suite.benchmark} task_set={suite.task_set}" for suite in matches)
        raise ToolError(f"task {task_id!r} exists in several task sets ({where}); pass benchmark and task_set")
    return matches[0]


def _benchmarks(suites: list[TaskSuite]) -> list[str]:
    return list(dict.fromkeys(suite.benchmark for suite in suites))


def _agent(ctx: ShopbenchContext, meta: dict[str, Any], defaults: dict[str, Any], *, name: str | None = None,
           kind: str | None = None) -> AgentInfo:
    """Who plays: the start_task arguments, else `_meta` shopbench/agent, else the server's defaults, else the MCP
    client's name from initialize."""
    supplied = meta.get(META_AGENT)
    if supplied is not None:
        try:
            base = AgentInfo.model_validate(supplied).model_dump()
        except ValidationError as error:
            raise ToolError(f"_meta {META_AGENT}: {describe_validation_error(error)}") from None
    else:
        params = ctx.request_context.session.client_params
        info = params.client_info if params is not None else None
        details = {"client_version": info.version} if info is not None else {}
        base = {"kind": "mcp-client", "name": info.name if info is not None else "unknown", "details": details}
        base |= defaults
    chosen = {key: value for key, value in (("name", name), ("kind", kind)) if value is not None}
    return AgentInfo.model_validate(base | chosen)


@functools.cache
def recorded_world(world: SuiteWorld | None) -> tuple[str | None, dict[str, Any] | None]:
    """What an episode records of its suite's world: "name@content_hash" and the world's info (None, None for a suite
    without one). Worked out once per world: every start_task records it."""
    if world is None:
        return None, None
    info = world.info.model_dump(mode="json")
    return f"{info.get('name')}@{info.get('content_hash')}", info
