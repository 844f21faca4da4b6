"""The live table for streams (an OBS browser source): seats, who is out, who speaks and for how long,
the nominees and the fouls, pushed as server-sent events while the game runs.

What it shows is :func:`public_table`, built from the engine's view for a spectator
(``engine.view_for(state, None)``), the players' names from the seating, and the step's deadline exactly
as the game panel shows it: never at night (a dead role's step is drawn shorter, D-G8) and never while a
moderator has paused. A night action changes nothing in it; the stream sends a table only when it
differs from the last one sent, so not even the moment of a private event reaches a viewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

import engine
from mafiabot.game.panel import PANEL_STEPS, phase_title
from mafiabot.i18n import rating_side, text
from mafiabot.storage import NotFound
from mafiabot.web import protocol
from mafiabot.web.server import CLUB, SERVER, WebServer

if TYPE_CHECKING:
    from mafiabot.game.table import Table

POLL = 0.5  # seconds between two looks at a table (the countdown's pauses, a resume) besides its events
HEARTBEAT = 15.0  # a comment line keeps proxies from closing a quiet stream


def public_table(table: Table) -> dict[str, Any]:
    """What anyone watching the game may know now, as JSON-ready data."""
    session = table.session
    state = session.state
    view = engine.view_for(state, None)
    step = view["step"]
    names = {info.seat: info.name for info in session.seats}
    night = view["phase"] == "night"
    phase_name = state.ruleset.phase_names.get(view["phase_name"], view["phase_name"])
    deadline = None if night or session.manually_paused else session.deadline()
    nominees = {t for _, t in view["nominations"] if t in view["alive"]} if view["phase"] == "day" else set()
    # The seat on the floor; a ballot's seat is its candidate, not a speaker.
    speaking = step["seat"] if step["kind"] == "speech" and not night else None
    roles = view["roles"]
    over = view["winners"] is not None
    return {
        "game_id": table.game_id,
        "rules": protocol.ruleset_title(view["ruleset"], session.language),
        "phase": text(session.language, "web-live-over") if over else phase_title(state, session.language),
        "step": ""
        if over or step["kind"] not in PANEL_STEPS
        else text(session.language, f"step-{step['kind']}", seat=step["seat"], phase=phase_name),
        "night": night,
        "deadline": deadline,
        "paused": session.manually_paused,
        "winners": [rating_side(w, session.language) for w in view["winners"] or []],
        "seats": [
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "alive": seat in view["alive"],
                "speaking": seat == speaking,
                "nominee": seat in nominees,
                "fouls": int(view["fouls"].get(str(seat), 0)),
                # Only a card the rules have turned face up for everyone (a lynch in hobbyworld…).
                "role": protocol.role_name(roles[str(seat)], view["ruleset"], session.language)
                if str(seat) in roles
                else "",
            }
            for seat in range(1, view["seats"] + 1)
        ],
    }


def add_routes(app: web.Application) -> None:
    app.router.add_get("/g/{guild}/live", tables)
    app.router.add_get("/g/{guild}/live/{game}", live_page)
    app.router.add_get("/g/{guild}/live/{game}/events", stream)


def _running(server: WebServer, guild_id: int) -> list[Table]:
    games = server.games
    if games is None:
        return []
    return sorted(
        (t for t in games.tables.in_guild(guild_id) if not t.closed and t.dealt),
        key=lambda t: t.game_id,
    )


def _table(request: web.Request) -> Table | None:
    """The running table the address names, if it is this server's; None for one that has ended."""
    server, club = request.app[SERVER], request[CLUB]
    text = request.match_info["game"]
    if not text.isdigit() or len(text) > 20:
        raise web.HTTPNotFound()
    game_id = int(text)
    table = next((t for t in _running(server, club.guild_id) if t.game_id == game_id), None)
    return table


async def _ended_or_missing(request: web.Request) -> web.StreamResponse:
    """A game that is not running here: its protocol if it was this server's, else no such page."""
    server, club = request.app[SERVER], request[CLUB]
    game_id = int(request.match_info["game"])
    if server.storage is not None:
        try:
            game = await server.read(server.storage.game, game_id)
        except NotFound:
            game = None
        if game is not None and game.guild_id == club.guild_id:
            raise web.HTTPFound(club.href(f"/game/{game_id}"))
    raise web.HTTPNotFound(text=text(club.language, "web-live-not-running"))


async def tables(request: web.Request) -> web.StreamResponse:
    server = request.app[SERVER]
    running = [public_table(t) for t in _running(server, request[CLUB].guild_id)]
    return server.render(request, "live_list.html", tables=running)


async def live_page(request: web.Request) -> web.StreamResponse:
    table = _table(request)
    if table is None:
        return await _ended_or_missing(request)
    server = request.app[SERVER]
    transparent = request.query.get("transparent") in ("1", "true", "yes")
    snapshot = public_table(table)
    return server.render(
        request,
        "live.html",
        table=snapshot,
        snapshot=json.dumps(snapshot, ensure_ascii=False),
        transparent=transparent,
        now=time.time(),
    )


async def stream(request: web.Request) -> web.StreamResponse:
    """Server-sent events: a ``table`` event with the whole public table each time it changes."""
    table = _table(request)
    if table is None:
        raise web.HTTPNotFound(text=text(request[CLUB].language, "web-live-not-running"))
    server = request.app[SERVER]
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    # The viewer may close the page at any moment (aiohttp's reset errors are ConnectionResetErrors).
    task = asyncio.current_task()
    assert task is not None
    server.streams.add(task)
    try:
        with contextlib.suppress(ConnectionResetError):
            await _follow(table, server, response, request)
    finally:
        server.streams.discard(task)
    return response


async def _follow(
    table: Table, server: WebServer, response: web.StreamResponse, request: web.Request
) -> None:
    sent: str | None = None
    quiet = 0.0
    while not server.closing:
        if request.transport is None or request.transport.is_closing():
            return  # the viewer has gone
        snapshot = public_table(table)
        shown = json.dumps(snapshot, ensure_ascii=False)
        if shown != sent:
            # With the server's clock, for the countdown of a viewer whose own clock is off.
            data = json.dumps({**snapshot, "now": time.time()}, ensure_ascii=False)
            await response.write(f"event: table\ndata: {data}\n\n".encode())
            sent, quiet = shown, 0.0
        elif quiet >= HEARTBEAT:
            await response.write(b": still here\n\n")
            quiet = 0.0
        if table.closed or table.session.over:
            break
        waited = time.monotonic()
        await server.changed(POLL)
        quiet += time.monotonic() - waited
    await response.write_eof()
