"""The pages of one server: the season's leaderboard, the recent games, a player's profile with his
rating chart, a game's protocol and its record. The access middleware (server.py) has let the request in
for ``request[CLUB]``; every id in the address is checked to belong to that server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from mafiabot.disclosure import HIDDEN, is_over
from mafiabot.game.records import stored_game_record
from mafiabot.i18n import rating_side, text
from mafiabot.ratings import POINTS_TRACK
from mafiabot.storage import GameRecord, NotFound
from mafiabot.web import protocol
from mafiabot.web.server import CLUB, SERVER, Club, WebServer

# The leaderboard's columns: the key of its sort link, its heading, and how a row sorts by it.
# (The heading is a catalogue key: ``web-col-<key>``.)
COLUMNS: dict[str, tuple[str, Any]] = {
    "name": ("web-col-name", lambda r: r.display_name.casefold()),
    "points": ("web-col-points", lambda r: r.points),
    "elo_red": ("web-col-elo_red", lambda r: r.elo_red),
    "elo_black": ("web-col-elo_black", lambda r: r.elo_black),
    "games": ("web-col-games", lambda r: r.games),
    "wins": ("web-col-wins", lambda r: r.wins),
    "red_wins": ("web-col-red_wins", lambda r: r.red_wins),
    "black_wins": ("web-col-black_wins", lambda r: r.black_wins),
    "fouls": ("web-col-fouls", lambda r: r.fouls),
}
HISTORY = 30  # games on a profile


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", home)
    app.router.add_get("/g/{guild}", front)
    app.router.add_get("/g/{guild}/", front)
    app.router.add_get("/g/{guild}/top", leaderboard)
    app.router.add_get("/g/{guild}/games", games)
    app.router.add_get("/g/{guild}/player/{user}", profile)
    app.router.add_get("/g/{guild}/player/{user}/chart.png", chart)
    app.router.add_get("/g/{guild}/game/{game}", game)
    app.router.add_get("/g/{guild}/game/{game}/record.json", record)


def _number(text: str | None, *, default: int | None = None) -> int | None:
    """A number from the address; anything else is a page that does not exist."""
    if text is None or text == "":
        return default
    if not text.isdigit() or len(text) > 20:
        raise web.HTTPNotFound()
    return int(text)


async def home(request: web.Request) -> web.StreamResponse:
    # No list of servers: which clubs the bot serves is not for anyone who finds the address.
    return request.app[SERVER].render(request, "home.html")


async def front(request: web.Request) -> web.StreamResponse:
    club: Club = request[CLUB]
    raise web.HTTPFound(club.href("/top"))


async def _season(server: WebServer, club: Club, number: int | None) -> tuple[Any, list[Any]]:
    """The season the address names (``season=N``), else the current one, and all of the server's."""
    storage = server.storage
    assert storage is not None
    seasons = await server.read(storage.seasons, club.guild_id)
    if number is None:
        current = await server.read(storage.current_season, club.guild_id)
        return current, seasons or [current]
    chosen = next((s for s in seasons if s.number == number), None)
    if chosen is None:
        raise web.HTTPNotFound(text=text(club.language, "web-no-season", season=number))
    return chosen, seasons


async def leaderboard(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    season, seasons = await _season(server, club, _number(request.query.get("season")))
    sort = request.query.get("sort", "points")
    if sort not in COLUMNS:
        sort = "points"
    ascending = request.query.get("order") == "asc"
    assert server.storage is not None
    _, rows = await server.read(server.storage.season_table, club.guild_id, season.id)
    rows = [r for r in rows if r.games or r.points]
    ranked = {r.user_id: i for i, r in enumerate(rows, start=1)}  # the rank is by points, however sorted
    rows.sort(key=COLUMNS[sort][1], reverse=not ascending)  # stable: ties keep the points order
    return server.render(
        request,
        "board.html",
        season=season,
        seasons=seasons,
        rows=rows,
        ranked=ranked,
        columns=COLUMNS,
        sort=sort,
        ascending=ascending,
        win_rate=_rate,
        # A click on the sorted column turns it round; another column starts best first (names: А–Я).
        next_order=lambda key: (
            ("" if ascending else "asc") if key == sort else ("asc" if key == "name" else "")
        ),
    )


def _rate(wins: int, games: int) -> str:
    return f"{100 * wins / games:.0f}%" if games else "—"


async def games(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    assert server.storage is not None
    before = _number(request.query.get("before"))
    rows = await server.read(server.storage.recent_games, club.guild_id, limit=30, before_game_id=before)
    return server.render(
        request,
        "games.html",
        games=rows,
        title=lambda ruleset_id: protocol.ruleset_title(ruleset_id, club.language),
        statuses=protocol.statuses(club.language),
        sides=lambda side: rating_side(side, club.language),
        is_over=is_over,
        more=rows[-1].id if len(rows) == 30 else None,
    )


async def _player(server: WebServer, club: Club, user_text: str) -> int:
    user_id = _number(user_text)
    assert user_id is not None and server.storage is not None
    if not await server.read(server.storage.player_known, club.guild_id, user_id):
        raise web.HTTPNotFound(text=text(club.language, "web-no-player"))
    return user_id


async def profile(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    user_id = await _player(server, club, request.match_info["user"])
    season, seasons = await _season(server, club, _number(request.query.get("season")))
    track = request.query.get("track", POINTS_TRACK)
    if track not in protocol.TRACKS:
        track = POINTS_TRACK
    storage = server.storage
    assert storage is not None
    shown = await server.read(
        storage.player_profile, club.guild_id, user_id, season_id=season.id, last_games=0
    )
    history = await server.read(storage.game_history, club.guild_id, user_id, limit=HISTORY)
    return server.render(
        request,
        "profile.html",
        profile=shown,
        season=season,
        seasons=seasons,
        track=track,
        tracks=protocol.tracks(club.language),
        history=history,
        hidden=HIDDEN,
        role_name=lambda role, ruleset_id="": protocol.role_name(role, ruleset_id, club.language),
        side_name=lambda side: rating_side(side, club.language),
        results=protocol.results(club.language),
        title=lambda ruleset_id: protocol.ruleset_title(ruleset_id, club.language),
        win_rate=_rate,
    )


async def chart(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    user_id = await _player(server, club, request.match_info["user"])
    season, _ = await _season(server, club, _number(request.query.get("season")))
    track = request.query.get("track", POINTS_TRACK)
    if track not in protocol.TRACKS:
        raise web.HTTPNotFound()
    storage = server.storage
    assert storage is not None
    points = await server.read(
        storage.rating_history, club.guild_id, user_id, track=track, season_id=season.id
    )
    name = (await server.read(storage.display_names, club.guild_id, [user_id]))[user_id]
    from mafiabot.ratings.chart import rating_chart

    label = protocol.tracks(club.language)[track]
    png = await asyncio.to_thread(rating_chart, points, name=name, track=label, language=club.language)
    return web.Response(body=png, content_type="image/png")


async def _record(server: WebServer, club: Club, game_text: str) -> tuple[GameRecord, dict[int, str]]:
    game_id = _number(game_text)
    assert game_id is not None and server.storage is not None
    storage = server.storage
    try:
        stored = await server.read(storage.game_record, game_id)
    except NotFound:
        stored = None
    if stored is None or stored.game.guild_id != club.guild_id:
        raise web.HTTPNotFound(text=text(club.language, "ratings-no-game", game=str(game_id)))
    names = await server.read(storage.display_names, club.guild_id, [p.user_id for p in stored.participants])
    return stored, {p.seat: names.get(p.user_id, str(p.user_id)) for p in stored.participants}


async def game(request: web.Request) -> web.StreamResponse:
    server, club = request.app[SERVER], request[CLUB]
    stored, names = await _record(server, club, request.match_info["game"])
    shown = await asyncio.to_thread(protocol.build, stored, names, club.language)
    live = server.games is not None and server.games.table_by_id(shown.game_id) is not None
    tracks = protocol.tracks(club.language)
    return server.render(request, "game.html", game=shown, tracks=tracks, live=live)


async def record(request: web.Request) -> web.StreamResponse:
    """The game's record, replayable by ``python -m engine replay``: every role and night target, so
    only once the game is over."""
    server, club = request.app[SERVER], request[CLUB]
    stored, names = await _record(server, club, request.match_info["game"])
    if not is_over(stored.game.status):
        raise web.HTTPNotFound(text=text(club.language, "web-record-later"))
    data = json.dumps(stored_game_record(stored, names), ensure_ascii=False, indent=1)
    return web.Response(
        text=data,
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="mafia-game-{stored.game.id}.json"'},
    )
