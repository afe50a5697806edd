"""A screen for any agentic benchmark that brings no screen of its own: the episode's tools as the server lists them,
a field per parameter, and what each call returned — so a benchmark registered with a toy sandbox tool is playable
in `shopbench play` without a line of TUI code."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from shopbench_tui.play.episode_screen import EpisodeScreen
from shopbench_tui.play.screen_registry import register_play_screen
from shopbench_tui.play.session import PlaySession
from shopbench_tui.widgets import ObservationView


@register_play_screen(kind="agentic")
class ToolsScreen(EpisodeScreen):
    """An episode played by calling its tools: pick a tool, fill its parameters (empty ones are left out), call it
    (ctrl+s). Values are read as the tool's input schema types them; the server checks them, as for an agent."""

    DEFAULT_CSS = """
    ToolsScreen #instruction { height: auto; max-height: 8; padding: 0 1; }
    ToolsScreen #tool-arguments { height: auto; }
    ToolsScreen #tool-description { color: $text-muted; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+s", "call", "call the tool", priority=True)]

    def __init__(self, session: PlaySession, elapsed: Callable[[], float]) -> None:
        super().__init__(session, elapsed)
        self.schemas: dict[str, dict[str, Any]] = {}

    def compose(self) -> ComposeResult:
        task = self.session.task or {}
        yield Header()
        yield self.status_bar()
        yield Static(Text(task.get("instruction", "")), id="instruction")
        tools = task.get("tools", [])
        yield Select([(name, name) for name in tools], value=tools[0], allow_blank=False, id="tool")
        yield Static("", id="tool-description")
        yield Vertical(id="tool-arguments")
        yield Button("Call (ctrl+s)", id="call", variant="primary")
        yield ObservationView(id="outcome")
        yield Footer()

    def on_mount(self) -> None:
        self.load_schemas()

    @work(exclusive=True, group="schemas")
    async def load_schemas(self) -> None:
        self.schemas = await self.session.tool_schemas()
        await self.show_parameters(str(self.query_one("#tool", Select).value))

    @on(Select.Changed, "#tool")
    async def tool_chosen(self, event: Select.Changed) -> None:
        if self.schemas:
            await self.show_parameters(str(event.value))

    async def show_parameters(self, tool: str) -> None:
        """A labelled field for each parameter of the tool (its description, type, and whether it is required)."""
        schema = self.schemas.get(tool, {})
        self.query_one("#tool-description", Static).update(Text(schema.get("description") or ""))
        form = self.query_one("#tool-arguments", Vertical)
        await form.remove_children()
        required = set(schema.get("input_schema", {}).get("required", []))
        fields = []
        for name, spec in schema.get("input_schema", {}).get("properties", {}).items():
            flag = "required" if name in required else "optional"
            fields += [Label(f"{name} ({_type_of(spec)}, {flag}): {spec.get('description', '')}"),
                       Input(placeholder=name, id=f"arg-{name}", classes="argument")]
        await form.mount_all(fields)
        if fields:
            fields[1].focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "call":
            self.action_call()

    def on_input_submitted(self) -> None:
        self.action_call()

    def action_call(self) -> None:
        tool = str(self.query_one("#tool", Select).value)
        properties = self.schemas.get(tool, {}).get("input_schema", {}).get("properties", {})
        arguments = {
            field.id.removeprefix("arg-"): _typed(field.value.strip(), properties.get(field.id.removeprefix("arg-")))
            for field in self.query(".argument").results(Input)
            if field.id and field.value.strip()
        }
        self.call(tool, arguments)

    @work(exclusive=True, group="tool")
    async def call(self, tool: str, arguments: dict[str, Any]) -> None:
        outcome = await self.act(tool, arguments)
        await self.query_one("#outcome", ObservationView).show(outcome.observation, outcome.is_error)


def _type_of(schema: dict[str, Any] | None) -> str:
    """A parameter's JSON type ("string" when the schema says none); of a nullable one, the type that is not null."""
    if not schema:
        return "string"
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "string")
    if kind is None and isinstance(schema.get("anyOf"), list):
        return next((_type_of(option) for option in schema["anyOf"] if option.get("type") != "null"), "string")
    return str(kind or "string")


def _typed(text: str, schema: dict[str, Any] | None) -> Any:
    """The field's text as the parameter's type; text that does not read as that type is sent as typed, and the
    server answers with an error the player can act on (a step, as for an agent's malformed call)."""
    kind = _type_of(schema)
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text)
        if kind == "boolean":
            return {"true": True, "false": False}[text.lower()]
        if kind in ("array", "object"):
            return json.loads(text)
    except (ValueError, KeyError):
        return text
    return text
