"""The club's web server: an aiohttp application inside the bot's process, started by the web cog.

Every page of a server lives under ``/g/<guild id>/``. Before any page runs, :func:`_access` decides:
a server the bot does not serve (not joined, outside the allow-list) is 404 like a page that does not
exist; a server whose pages are private (the default) needs the ``k`` of a link `/mafia web` signed for
that server, unexpired (404 without such a key, as for a server the bot does not serve; 403 with the
reason for a signed key that expired). Pages read the database in a thread, and show
stored games only through mafiabot.disclosure.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from mafiabot.config import WebSettings
from mafiabot.i18n import DEFAULT, known_language, season_name, text
from mafiabot.web import links
from mafiabot.web.throttle import Throttle, retry_after

if TYPE_CHECKING:
    from mafiabot.game.service import GameService
    from mafiabot.storage import Storage

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
PUBLIC_KEY = "web_public"  # the server's choice, kept with its stored values (storage.set_guild_value)


@dataclass(frozen=True)
class Club:
    """The server a request is for, once let in: its id and name, and the key its links carry."""

    guild_id: int
    name: str
    key: str  # "" for public pages
    language: str = DEFAULT  # the server's (its `/mafia-admin language`, else the bot's)

    def href(self, path: str = "/", **params: Any) -> str:
        """A link to another page of this server, carrying the key."""
        query = {k: v for k, v in params.items() if v is not None and v != ""}
        if self.key:
            query[links.KEY_PARAM] = self.key
        suffix = f"?{urlencode(query)}" if query else ""
        return f"/g/{self.guild_id}{path}{suffix}"


class WebServer:
    def __init__(
        self,
        settings: WebSettings,
        *,
        secret: bytes,
        storage: Storage | None,
        guild_name: Callable[[int], str | None],
        allowed: tuple[int, ...] = (),
        games: GameService | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.secret = secret
        self.storage = storage
        self.guild_name = guild_name
        self.allowed = allowed
        self.games = games
        self.clock = clock
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,  # every name on a page is a member's own text
            undefined=jinja2.StrictUndefined,
        )
        self.throttle = Throttle(settings.requests_per_minute, time.monotonic)
        self.app = web.Application(middlewares=[_headers, _throttle, _access])
        self.app[SERVER] = self
        self.app.router.add_static("/static/", HERE / "static", name="static")
        self._runner: web.AppRunner | None = None
        self._change = asyncio.Event()  # set (and replaced) when a game's state may have changed
        self.closing = False  # stop() has begun: live streams end
        self.streams: set[asyncio.Task[Any]] = set()  # the live streams being served
        self.port = settings.port  # the port bound (a test's 0 becomes a real one)

    async def start(self) -> None:
        if self.games is not None:
            self.games.event_hooks.append(self._on_events)
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("Web pages served on %s:%s", self.settings.host, self.port)

    async def stop(self) -> None:
        if self.games is not None and self._on_events in self.games.event_hooks:
            self.games.event_hooks.remove(self._on_events)
        self.closing = True
        await self._on_events(None, None)  # a live stream sees it at once, and ends
        if self.streams:
            await asyncio.wait(self.streams, timeout=5)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _on_events(self, table: Any, events: Any) -> None:
        """A game changed (the game service's hook): every live table looks again now."""
        change, self._change = self._change, asyncio.Event()
        change.set()

    async def changed(self, timeout: float) -> None:
        """Until a game changes, or ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._change.wait(), timeout)

    def base_url(self) -> str:
        if self.settings.base_url:
            return self.settings.base_url
        return WebSettings(host=self.settings.host, port=self.port).public_url()

    def link(self, guild_id: int, path: str = "/", *, public: bool = False, **params: Any) -> str:
        """The full address of one of the server's pages, with a key that works for `link_hours`."""
        key = (
            ""
            if public
            else links.sign(self.secret, guild_id, int(self.clock()) + self.settings.link_hours * 3600)
        )
        return self.base_url() + Club(guild_id, "", key).href(path, **params)

    def is_public(self, guild_id: int) -> bool:
        if self.storage is None:
            return False
        values = self.storage.guild_settings(guild_id).ruleset_defaults or {}
        return values.get(PUBLIC_KEY) is True

    def language(self, guild_id: int | None = None) -> str:
        """A server's language as last read, else the bot's; a page of no server is in the bot's."""
        default = self.games.settings.game.language if self.games is not None else DEFAULT
        return known_language(guild_id, default)

    def render(self, request: web.Request, template: str, status: int = 200, **context: Any) -> web.Response:
        club = request.get(CLUB)
        language = club.language if club is not None else self.language()

        def say(key: str, **args: Any) -> str:
            return text(language, key, **args)

        body = self.templates.get_template(template).render(
            club=club, t=say, lang=language, season_name=partial(season_name, language), **context
        )
        return web.Response(text=body, content_type="text/html", charset="utf-8", status=status)

    async def read(self, work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A storage call, in a thread; 503 when the bot has no database."""
        if self.storage is None:
            raise web.HTTPServiceUnavailable(text=text(self.language(), "web-error-no-database"))
        return await asyncio.to_thread(work, *args, **kwargs)


SERVER = web.AppKey("server", WebServer)
CLUB = web.RequestKey("club", Club)  # set by the access check on every page of a server

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The key is in the address: no page may hand it on (Referer), be cached or be indexed."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = _error_page(request, exc)
    except Exception:
        log.exception("A web page failed: %s", request.path)
        failed = text(request.app[SERVER].language(), "web-error-500")
        response = _error_page(request, web.HTTPInternalServerError(text=failed))
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Robots-Tag", "noindex")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    )
    club = request.get(CLUB)
    if club is not None and club.key:
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _error_page(request: web.Request, exc: web.HTTPException) -> web.StreamResponse:
    if exc.status < 400:
        return exc  # a redirect
    server = request.app[SERVER]
    club = request.get(CLUB)
    language = club.language if club is not None else server.language()
    plain = text(language, f"web-error-{exc.status}") if exc.status in (403, 404, 503) else ""
    reason = exc.text if exc.text and not exc.text.startswith(f"{exc.status}:") else plain
    page = server.render(request, "error.html", status=exc.status, code=exc.status, reason=reason)
    if "Retry-After" in exc.headers:
        page.headers["Retry-After"] = exc.headers["Retry-After"]
    return page


@web.middleware
async def _throttle(request: web.Request, handler: Handler) -> web.StreamResponse:
    server = request.app[SERVER]
    client = request.remote or ""
    if server.settings.forwarded_for:
        # The proxy appends the address it saw: the last hop is the one a client cannot forge.
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",") if h.strip()]
        client = hops[-1] if hops else client
    wait = server.throttle.wait(client)
    if wait > 0:
        raise web.HTTPTooManyRequests(
            headers={"Retry-After": retry_after(wait)}, text=text(server.language(), "web-error-429")
        )
    return await handler(request)


@web.middleware
async def _access(request: web.Request, handler: Handler) -> web.StreamResponse:
    guild_text = request.match_info.get("guild")
    if guild_text is None:
        return await handler(request)
    server = request.app[SERVER]
    if not guild_text.isdigit() or len(guild_text) > 20:
        raise web.HTTPNotFound()
    guild_id = int(guild_text)
    name = server.guild_name(guild_id)
    if name is None or (server.allowed and guild_id not in server.allowed):
        raise web.HTTPNotFound()  # the same answer as for a server that does not exist
    key = request.query.get(links.KEY_PARAM, "")
    if not await server.read(server.is_public, guild_id):
        # Without a key signed for this server its private pages answer like a server the bot does not
        # serve: a 403 would tell anyone which servers use the bot. A signed key proves its holder was
        # given a link there, so he may learn why it no longer opens.
        if not key or not links.signed_for(server.secret, guild_id, key):
            raise web.HTTPNotFound()
        problem = links.check(server.secret, guild_id, key, server.clock())
        if problem is not None:
            language = server.language(guild_id)
            said = text(language, f"web-link-{problem}") + " " + text(language, "web-link-renew")
            raise web.HTTPForbidden(text=said)
    else:
        key = ""  # public pages link to each other without one
    request[CLUB] = Club(guild_id, name, key, server.language(guild_id))
    return await handler(request)
