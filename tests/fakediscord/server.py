"""`FakeDiscord`: the stand-in's lifecycle, its records, and waiting on them without sleeping."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import discord
from aiohttp import web

from . import routes_app, routes_guild  # noqa: F401  (importing them registers the routes)
from .accounts import BotAccount, BotAccounts
from .admin import ServerAdmin
from .driver import Driver, InteractionRecord
from .faults import Faults
from .gateway import Gateway
from .ratelimits import RateLimits
from .rest import API_PREFIX, Rest, RestCall
from .tls import trust_test_certificate
from .voice import VoiceServer
from .world import User, World

# The listen backlog of the REST server: the kernel caps it at net.core.somaxconn (4096 here).
BACKLOG = 4096


class FakeDiscord(Driver, ServerAdmin, BotAccounts):
    """An in-process Discord on 127.0.0.1: REST and gateway on one port, voice on TLS + UDP.

    Everything runs on the test's event loop; `wait_for` wakes whenever the stand-in records
    something (a REST call, a gateway frame, an audio packet), so tests never sleep.
    """

    def __init__(self, *, token: str | None = None) -> None:
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.world = World()
        self.tokens = {self.token: self.world.bot_user}  # every valid token (accounts.py adds others)
        self.revoke_after: dict[str, int] = {}
        self.revoked: dict[str, User] = {}
        self.accounts: list[BotAccount] = []  # other bot accounts (accounts.py)
        self.rate_limits = RateLimits()
        self.faults = Faults()
        self.calls: list[RestCall] = []
        # Called with every request as it reaches the stand-in, before it is carried out (or held, or
        # failed): a test looks at the bot's other state at that moment (e.g. what its database holds).
        self.arrivals: list[Callable[[RestCall], None]] = []
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []  # exceptions inside the stand-in: bugs to fix here
        self.forbidden: list[tuple[int, int]] = []  # (missing permission bits, channel or guild id)
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global) -> synced
        self.command_creates: dict[int | None, int] = {}  # commands created today, per scope
        self.command_syncs: dict[int | None, int] = {}  # bulk overwrites, per scope
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.rest = Rest(self)
        self.uploads: dict[str, bytes] = {}  # what members attached to commands, served as the CDN
        self.gateway = Gateway(self)
        self.voice = VoiceServer(self)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._waiters: list[asyncio.Future[None]] = []

    # -- lifecycle -------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/cdn/{key}/{name}", self._cdn)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        # Discord takes a burst of new connections at once (a bot's first requests of a thousand tables'
        # clicks open hundreds); aiohttp's default listen backlog of 128 did not: the kernel dropped the
        # connections past it and the client's retry came a second later (a second more on those clicks).
        await web.TCPSite(self._runner, "127.0.0.1", 0, backlog=BACKLOG).start()
        self.port = self._runner.addresses[0][1]
        certificate = trust_test_certificate()
        if certificate.aiohttp_was_imported:
            raise RuntimeError(
                "aiohttp was imported before tests/conftest.py set SSL_CERT_FILE: "
                "the fake voice gateway's certificate would not be trusted"
            )
        await self.voice.start(certificate.server_context())

    async def stop(self) -> None:
        await self.gateway.close_all()
        await self.voice.stop()
        if self._runner is not None:
            await self._runner.cleanup()
        for waiter in self._waiters:
            waiter.cancel()

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        """Discord's CDN for the files members attach to a command (an attachment's url points here)."""
        data = self.uploads.get(request.match_info["key"])
        if data is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=data, content_type="application/octet-stream")

    @property
    def cdn_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/cdn"

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextlib.contextmanager
    def redirect_discord(self) -> Iterator[None]:
        """Point discord.py's REST base URL and gateway URL here, restoring them afterwards."""
        import discord.gateway
        import discord.http
        import yarl

        route, gateway = discord.http.Route, discord.gateway.DiscordWebSocket
        saved = route.BASE, gateway.DEFAULT_GATEWAY
        route.BASE, gateway.DEFAULT_GATEWAY = self.api_base, yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            route.BASE, gateway.DEFAULT_GATEWAY = saved

    @contextlib.asynccontextmanager
    async def connect(
        self, client: discord.Client, *, timeout: float = 60.0, token: str | None = None
    ) -> AsyncIterator[None]:
        """Run `client` against the stand-in: start it, wait for READY, and close it on exit.

        Use a short `guild_ready_timeout` on the client: discord.py waits that long after the last
        GUILD_CREATE before it is ready. `token`: another bot account's (accounts.py). The generous
        `timeout` is for a loaded machine (a bot's first start in a process imports and migrates).
        """
        with self.redirect_discord():
            runner = asyncio.create_task(client.start(token or self.token), name="discord client under test")
            ready = asyncio.create_task(client.wait_until_ready(), name="waiting for READY")
            try:
                await asyncio.wait([runner, ready], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                if not ready.done():
                    if runner.done():
                        runner.result()  # raises why the client stopped, e.g. LoginFailure
                    raise TimeoutError(f"the client was not ready after {timeout}s")
                yield
            finally:
                ready.cancel()
                await client.close()
                await runner
                # discord.py's voice socket reader sleeps in select() for up to 30 s after it is stopped.
                self.voice.wake_client_sockets()

    def check(self) -> None:
        """Called at teardown: a request the stand-in does not know, or could not handle, fails the test."""
        if self.server_errors:
            raise AssertionError(
                "the stand-in failed while serving the bot:\n" + "\n".join(self.server_errors)
            )
        if self.voice.audio.not_end_to_end:
            raise AssertionError(
                f"the bot sent {self.voice.audio.not_end_to_end} voice frame(s) that the channel's listener "
                "could not decrypt end to end (before the DAVE group was agreed, or for a stale epoch)"
            )
        listeners = [li for channel in self.voice.dave.listeners.values() for li in channel]
        failures = [failure for listener in listeners for failure in listener.failures]
        if failures:
            raise AssertionError(f"a simulated listener could not process DAVE messages: {failures}")
        if self.unknown_routes:
            raise AssertionError(
                "the bot called REST routes the stand-in does not serve (add them to tests/fakediscord/"
                f"routes_*.py if real Discord has them): {self.unknown_routes}"
            )

    # -- records and waiting -----------------------------------------------------------------------------

    def notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "") -> Any:
        """Return `predicate()` once it is truthy, re-checking whenever the stand-in records something."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (result := predicate()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what or predicate}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining)
        return result

    def dispatch(self, event: str, data: Any) -> None:
        self.gateway.dispatch(event, data)
        self.notify()

    def calls_to(self, route: str, *, status: int | None = None) -> list[RestCall]:
        """Recorded calls to a route template, e.g. `calls_to(MEMBER_EDIT)`."""
        return [c for c in self.calls if c.route == route and (status is None or c.status == status)]

    async def wait_for_call(
        self,
        route: str,
        predicate: Callable[[RestCall], bool] = lambda call: True,
        *,
        count: int = 1,
        timeout: float = 5.0,
    ) -> list[RestCall]:
        """Wait until `count` calls to `route` match `predicate`; returns them."""

        def matching() -> list[RestCall] | None:
            found = [c for c in self.calls_to(route) if predicate(c)]
            return found if len(found) >= count else None

        return await self.wait_for(matching, timeout=timeout, what=f"{count} call(s) to {route}")
