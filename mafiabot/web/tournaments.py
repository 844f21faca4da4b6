"""A server's tournaments (issue 19): each one's standings under its scoring profile, as `/mafia tournament
table` shows them, and their CSV. Only confirmed games count, and a confirmed game's protocol was posted
in the channel with the judge's signature, so nothing here is a secret of a running game."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.kinds import fiim_scoring
from mafiabot.game import protocol
from mafiabot.i18n import text
from mafiabot.web.server import CLUB, SERVER, Club, WebServer


def add_routes(app: web.Application) -> None:
    app.router.add_get("/g/{guild}/tournaments", tournaments)
    app.router.add_get("/g/{guild}/tournament/{tournament}.csv", standings_csv)


async def _standings(server: WebServer, tournament: Any) -> list[fiim_scoring.Standing]:
    table: list[fiim_scoring.Standing] = await server.read(
        protocol.stored_standings, server.storage, tournament
    )
    return table  # read in a thread: every game is replayed


async def _chosen(server: WebServer, club: Club, wanted: str | None) -> tuple[Any, list[Any]]:
    storage = server.storage
    assert storage is not None
    every = list(reversed(await server.read(storage.tournaments, club.guild_id)))  # the newest first
    if wanted is None or wanted == "":
        return (every[0] if every else None), every
    chosen = next((t for t in every if str(t.id) == wanted), None)
    if chosen is None:
        raise web.HTTPNotFound(text=text(club.language, "web-no-tournament"))
    return chosen, every


async def tournaments(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    chosen, every = await _chosen(server, club, request.query.get("t"))
    table = await _standings(server, chosen) if chosen is not None else []
    return server.render(
        request,
        "tournaments.html",
        chosen=chosen,
        tournaments=every,
        table=table,
        places=fiim_scoring.places(table) if table else [],
    )


async def standings_csv(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    chosen, _ = await _chosen(server, club, request.match_info["tournament"])
    table = await _standings(server, chosen)
    return web.Response(
        text=fiim_scoring.standings_csv(table),
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="tournament-{chosen.id}.csv"'},
    )
