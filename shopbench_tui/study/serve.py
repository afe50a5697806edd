"""`shopbench study serve`: the study's Textual screens in web browsers through textual-serve (its xterm.js page
and its per-connection app process), one link per participant.

`/p/<token>` is a participant's page; its websocket `/ws/<token>` starts `shopbench study play STUDY --participant
<token>` for that participant alone, so a browser reaches nothing but that participant's queue: the app has no
shell, no file dialogs and no command palette, and textual-serve's only other routes are its static files. An
unknown token gets no app process; on a loopback address a participant id opens the seat too (the researcher trying
the study), on any other address only the invitation token does. At most `max_participants` participants have app
processes at once: one more is refused with a message before any process starts (the same participant coming back
is not one more: a reload may reach the server before the old page's process has ended). A reload closes the
websocket (textual-serve stops that process: the episode running is recorded as abandoned) and the new page resumes
at the same task, which is played again."""

from __future__ import annotations

import ipaddress
import shlex
import sys
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from evaluators.studies.manifest import Participant, Study

TEMPLATE = "app_index.html"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class StudyServer(Server):
    """textual-serve's Server with a route per participant instead of one app for everyone."""

    def __init__(self, study: Study, *, host: str = "127.0.0.1", port: int = 8000, max_participants: int = 20,
                 public_url: str | None = None) -> None:
        super().__init__(command="", host=host, port=port, title=f"shopbench study {study.manifest.name}",
                         public_url=public_url)
        self.study, self.max_participants = study, max_participants
        self.running: dict[str, int] = {}
        """participant id → app processes running for them now."""

    def link(self, seat: Participant) -> str:
        return f"{self.public_url}/p/{seat.token}"

    def seat_for(self, given: str) -> Participant | None:
        """The participant a link names: by token anywhere, by participant id on a loopback address only."""
        seat = self.study.manifest.participant(given)
        if seat is None or (given != seat.token and not is_loopback(self.host)):
            return None
        return seat

    def command_for(self, seat: Participant) -> str:
        return " ".join(shlex.quote(part) for part in (sys.executable, "-m", "shopbench.cli", "study", "play",
                                                         str(self.study.folder), "--participant", seat.token))

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_root, name="index"),
            web.get("/p/{token}", self.handle_participant, name="participant"),
            web.get("/ws/{token}", self.handle_participant_socket, name="websocket"),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        app.on_startup.append(self.on_startup)
        return app

    async def on_startup(self, app: web.Application) -> None:
        self.console.print(f"Serving study {self.study.manifest.name!r} on {self.public_url} "
                           f"(at most {self.max_participants} participants at once); links:")
        for seat in self.study.manifest.participants:
            self.console.print(f"  {seat.participant_id}  {self.link(seat)}")

    async def handle_root(self, request: web.Request) -> web.Response:
        return web.Response(text="Open the link from your invitation.\n")

    async def handle_participant(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        if self.seat_for(token) is None:
            raise web.HTTPNotFound(text="No such participant link.\n")
        ws_url = f"{self.public_url}/ws/{token}".replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        context: dict[str, Any] = {
            "font_size": 16, "app_websocket_url": ws_url, "config": {"static": {"url": f"{self.public_url}/static/"}},
            "application": {"name": self.title}}
        return aiohttp_jinja2.render_template(TEMPLATE, request, context)

    async def handle_participant_socket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket handler, for one participant's app process (refused before it starts when the
        link is no participant's or the study is full)."""
        seat = self.seat_for(request.match_info["token"])
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        others = [p for p, count in self.running.items() if count and seat and p != seat.participant_id]
        if seat is None or len(others) >= self.max_participants:
            reason = "no such participant" if seat is None else "the study is full right now: try again later"
            await websocket.close(message=reason.encode())
            return websocket
        width = _int(request.query.get("width"), 80)
        height = _int(request.query.get("height"), 24)
        self.running[seat.participant_id] = self.running.get(seat.participant_id, 0) + 1
        async def close() -> None:
            await websocket.close()

        service = AppService(self.command_for(seat), write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=close, download_manager=self.download_manager, debug=self.debug)
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        finally:
            await service.stop()
            self.running[seat.participant_id] -= 1
        return websocket


def _int(value: str | None, default: int) -> int:
    return int(value) if value and value.isdigit() else default
