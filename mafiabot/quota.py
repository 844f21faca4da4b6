"""Discord's global limit kept by the bot itself: at most so many requests a second per token (issue 20).

Discord allows a bot token 50 requests a second in all its servers (interaction callbacks and their
webhooks aside). discord.py keeps each route's bucket from the answers' headers, but the global limit
only after the fact: a 429 marked global makes its client hold every new request until `retry_after`,
then send the refused one again (`HTTPClient.request`). Nothing is lost that way, but with hundreds of
tables on one token it is a refusal every second, each one counted towards Discord's ban of the bot's
address, and whatever is next in line, a speaker's unmute or a panel, waits the same.

So every token's client (the main bot's and each helper's) has a `Quota`, a middleware of its aiohttp
session (`Quota.keep`): aiohttp awaits it before a request leaves, so each request that
really goes out — after discord.py's own bucket waits, its retries included — first takes a place in
the token's last second. When the second is full, requests wait and leave in order of urgency: the
unmute of the next speaker, then every other unmute (whoever may speak now), then mutes, then the rest
(messages, panels, everything else); in arrival order within each. A 429 that still says global (another
process on the same token, a clock that disagrees) pauses the quota for its `retry_after`, beside
discord.py's own pause, which stays as it is.

A request holds its place from when it leaves until a second after its answer came: Discord counts
it at some moment in between, and the network does not keep the spacing (a request sent late can
overtake one sent early). Counted from departure alone, a second's requests could arrive in the same
second of Discord's as the next second's and exceed the limit (the stand-in in the same process showed
it: three 429s in a run of six tables). Held until a second after the answer, any `per_second + 1`
requests that Discord saw within one second would all have been in the quota when the last of them
left, which it does not allow: so the limit holds in every second, whatever the jitter, at the cost
of one round trip per place (≈ 45 a second at 100 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import aiohttp
from discord.utils import MISSING

log = logging.getLogger(__name__)

PER_SECOND = 50  # Discord's global limit per token
STUCK = 30.0  # a request without an answer this long no longer holds its place (a lost answer)
WINDOW = 1.0
REPORT_EVERY = 10.0  # seconds between two log lines about requests that waited (only while they do)
NEXT_SPEAKER, MAY_SPEAK, MUTE, ORDINARY = 0, 1, 2, 3  # how urgent a request is (lower leaves first)
_EXEMPT = ("/interactions/", "/webhooks/")  # Discord does not count these towards the global limit

SWEEP_EVERY = 60.0  # seconds between two sweeps of discord.py's idle rate-limit buckets (sweep_seldom)
CONNECTIONS = 100  # connections to one host (Discord's API) a token's client keeps at most (cap_connections)

urgency: ContextVar[int] = ContextVar("mafiabot_request_urgency", default=ORDINARY)


@contextlib.contextmanager
def urgent(level: int) -> Iterator[None]:
    """The requests made inside (in this task) leave a full second in this order (see the module)."""
    token = urgency.set(level)
    try:
        yield
    finally:
        urgency.reset(token)


def counted(url: object) -> bool:
    """Does Discord count this request towards the token's global limit? (Its REST API only: not the
    gateway's or a voice server's websocket, not the CDN, not interaction callbacks and webhooks.)"""
    path = getattr(url, "path", "")
    return isinstance(path, str) and counted_path(path)


def counted_path(path: str) -> bool:
    """`counted` of a URL's path (or its path and query)."""
    return path.startswith("/api/") and not any(part in path for part in _EXEMPT)


class Place:
    """One request's place in its token's second (from its departure until a second after its answer)."""

    __slots__ = ("left",)

    def __init__(self, left: float) -> None:
        self.left = left


class Quota:
    """One token's requests that may still count in Discord's current second, and those waiting."""

    def __init__(
        self,
        per_second: int = PER_SECOND,
        *,
        clock: Callable[[], float] = time.monotonic,
        name: str = "the token",
    ) -> None:
        self.per_second = per_second
        self._clock = clock
        self.name = name  # in the log: "the bot", "helper 2" (never the token)
        self._flying: dict[Place, None] = {}  # sent, no answer yet (in departure order)
        self._answered: deque[float] = deque()  # when the answers of the last second came
        self._queue: list[tuple[int, int, asyncio.Future[Place]]] = []  # (urgency, arrival, its turn)
        self._arrivals = itertools.count()
        self._waiting = [0, 0, 0, 0]  # requests waiting, per urgency
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._paused_until = 0.0
        self.requests = 0  # requests counted (benchmarks and tests)
        self.delayed = 0  # of them, those that had to wait for a place
        self.refused = 0  # 429s marked global that came all the same
        self.waited = 0.0  # seconds the delayed requests waited in all
        self.longest = 0.0  # the longest wait for a place
        # What the operator reads in the log (at most once per REPORT_EVERY while requests wait): how
        # long the token's queue makes its requests wait, i.e. whether it needs helpers or a higher limit.
        self._report = [self._clock(), 0, 0, 0.0, 0.0]  # since, requests, delayed, waited, longest

    def _used(self, now: float) -> int:
        while self._answered and now - self._answered[0] >= WINDOW:
            self._answered.popleft()
        while self._flying:
            oldest = next(iter(self._flying))
            if now - oldest.left < STUCK:
                break
            del self._flying[oldest]
        return len(self._flying) + len(self._answered)

    def _free(self, now: float) -> bool:
        return now >= self._paused_until and self._used(now) < self.per_second

    def room(self, level: int = ORDINARY) -> int:
        """Places left now for a request of this urgency (those waiting before it taken)."""
        now = self._clock()
        if now < self._paused_until:
            return 0
        ahead = sum(self._waiting[: level + 1])
        return max(0, self.per_second - self._used(now) - ahead)

    def backlog(self, level: int = ORDINARY) -> int:
        """Requests ahead of a new one of this urgency: those in the last second and those waiting
        before it (a full token's queue: the longer it is, the later a new request leaves)."""
        return self._used(self._clock()) + sum(self._waiting[: level + 1])

    async def take(self, level: int = ORDINARY) -> Place:
        """Wait for a place (at once when there is one and nobody waits); `answered` gives it back."""
        now = self._clock()
        self.requests += 1
        if not self._queue and self._free(now):
            return self._seat(now)
        self.delayed += 1
        turn: asyncio.Future[Place] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (level, next(self._arrivals), turn))
        self._waiting[level] += 1
        turn.add_done_callback(lambda _: self._left_queue(level))
        self._schedule()
        try:
            place = await turn
        except asyncio.CancelledError:  # a caller's timeout: its place goes to the next one
            if turn.done() and not turn.cancelled():
                self.answered(turn.result())
            raise
        self._note_wait(place.left - now)
        return place

    def _note_wait(self, seconds: float) -> None:
        self.waited += seconds
        self.longest = max(self.longest, seconds)
        report = self._report
        report[2] += 1
        report[3] += seconds
        report[4] = max(report[4], seconds)
        now = self._clock()
        if now - report[0] >= REPORT_EVERY:
            since, requests, delayed, waited, longest = report
            log.info(
                "Requests of %s that waited for Discord's global limit: %d got their place in the "
                "last %.0f s (%d new requests), %.2f s on average, the longest %.2f s",
                self.name,
                delayed,
                now - since,
                self.requests - requests,
                waited / delayed,
                longest,
            )
            self._report = [now, self.requests, 0, 0.0, 0.0]

    def _seat(self, now: float) -> Place:
        place = Place(now)
        self._flying[place] = None
        return place

    def answered(self, place: Place) -> None:
        """The request's answer came (or it failed): its place is free a second from now."""
        if place in self._flying:
            del self._flying[place]
            self._answered.append(self._clock())
            self._schedule()

    def _left_queue(self, level: int) -> None:
        self._waiting[level] -= 1

    def _schedule(self) -> None:
        """Wake the queue when the first place comes free (earlier than planned, if it now will)."""
        if not self._queue:
            return
        now = self._clock()
        if now < self._paused_until:
            at = self._paused_until
        elif self._used(now) < self.per_second:
            at = now
        else:  # the first answer to leave the second, or the oldest request that never got one
            candidates = [self._answered[0] + WINDOW] if self._answered else []
            if self._flying:
                candidates.append(next(iter(self._flying)).left + STUCK)
            at = min(candidates, default=now + WINDOW)
        if self._timer is not None:
            if self._timer_at <= at:
                return
            self._timer.cancel()
        # (a hair later than exact: a timer that fires early would find the place not free yet)
        self._timer_at = at
        self._timer = asyncio.get_running_loop().call_later(max(0.0, at - now) + 0.001, self._let_go)

    def _let_go(self) -> None:
        self._timer = None
        now = self._clock()
        while self._queue and self._free(now):
            _, _, turn = heapq.heappop(self._queue)
            if not turn.done():  # (else its caller gave up)
                turn.set_result(self._seat(now))
        while self._queue and self._queue[0][2].done():
            heapq.heappop(self._queue)
        self._schedule()

    def pause(self, seconds: float) -> None:
        """Discord refused a request under the global limit all the same: send nothing for a while."""
        self._paused_until = max(self._paused_until, self._clock() + seconds)
        if self._timer is not None:  # (a wake-up planned before the pause would find it paused)
            self._timer.cancel()
            self._timer = None
        self._schedule()

    def fit(self, http: Any, *, lean: bool = True) -> None:
        """Fit a discord.py `HTTPClient` (the bot's, or a helper bot's) for many tables: the quota kept
        (`keep`), its rate-limit buckets swept seldom (`sweep_seldom`), its connections capped
        (`cap_connections`) and, with `lean` (``[bot] lean_rest``), its plain REST requests sent through
        the lean client (`lean_requests`)."""
        self.keep(http)
        sweep_seldom(http)  # (discord.py's rate-limit buckets: not walked at every new one)
        cap_connections(http)  # (a burst's requests share a hundred connections, not one each)
        if lean:
            lean_requests(http, self)

    def keep(self, http: Any) -> None:
        """Keep the quota for a discord.py `HTTPClient`: every request its session sends takes its place
        first, as an aiohttp client middleware (around the connection, the request's bytes and its
        answer's head; a retry is a request again). The session is made at login (`static_login`, each
        time), whose own request (the bot's user) goes out before the middleware can join the new
        session: the login as a whole holds a place for it.

        Not discord.py's `http_trace` (an aiohttp trace), which did the same from its request-start and
        request-end signals: with any trace configured aiohttp sends every signal of every request (its
        headers and each chunk sent, each chunk received, the connection reused), each with a parameters
        object and an await — ≈ 25 µs of a request's ≈ 240 µs in the bot's process (issue 18,
        benchmarks/request_cpu.py), where the middleware is one call."""
        login = http.static_login

        async def static_login(token: str) -> Any:
            place = await self.take(urgency.get())
            try:
                user = await login(token)
            finally:
                self.answered(place)
            # (discord.py's session and aiohttp's middlewares of a session already made are private
            # names: tests/bot/test_quota.py fails if either changes, by the requests it counts)
            session = http._HTTPClient__session
            if self.middleware not in session._middlewares:
                session._middlewares = (*session._middlewares, self.middleware)
            return user

        setattr(http, "static_login", static_login)  # noqa: B010  (a method of the instance)

    async def middleware(
        self, request: aiohttp.ClientRequest, handler: aiohttp.ClientHandlerType
    ) -> aiohttp.ClientResponse:
        """One request through a kept session (`keep`): its place from before it leaves until its
        answer's head came (or it failed); a 429 marked global pauses the quota."""
        place = await self.take(urgency.get()) if counted(request.url) else None
        try:
            response = await handler(request)
        finally:
            if place is not None:
                self.answered(place)
        if response.status == 429:
            self.refused_by(response.headers)
        return response

    def refused_by(self, headers: Any) -> None:
        """A 429's headers: one marked global pauses the quota for its Retry-After."""
        if headers.get("X-RateLimit-Global", "").lower() != "true":
            return
        self.refused += 1
        try:
            retry_after = float(headers.get("Retry-After", "1"))
        except ValueError:
            retry_after = 1.0
        log.warning("Discord's global limit met all the same; nothing sent for %.2f s", retry_after)
        self.pause(retry_after)


def sweep_seldom(
    http: Any, *, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic
) -> None:
    """discord.py's HTTP client keeps a rate-limit bucket per route and channel, server or DM, and drops
    those idle for five minutes by walking every bucket it has — each time it makes a new one, once
    it has 256 (``HTTPClient._try_clear_expired_ratelimits``). A bot at hundreds of tables has thousands
    (a DM channel each player, a text channel and a server each table), and a new one comes with every
    game's first DMs, a panel's first move, a server's first edit: a walk of them all each time (issue
    18: 2.6 % of the event loop at 300 tables, and it grows with them). Here the same sweep runs at most
    once per ``every`` seconds: idle buckets still go, up to ``every`` later than before."""
    sweep = http._try_clear_expired_ratelimits
    due = clock() + every

    def seldom() -> None:
        nonlocal due
        now = clock()
        if now < due:
            return
        due = now + every
        sweep()

    setattr(http, "_try_clear_expired_ratelimits", seldom)  # noqa: B010  (a method of the instance)


def cap_connections(http: Any, *, per_host: int = CONNECTIONS) -> None:
    """discord.py gives aiohttp a connector without any limit (`TCPConnector(limit=0)`), so every request
    in flight opens a connection of its own when none is free: a burst of every table at once left the
    bot ≈ 1,100 connections to Discord's API, which aiohttp then reuses in turn (first in, first out)
    and so keeps alive. Each later request costs ≈ 10 % more CPU on such a pool (benchmarks/request_cpu.py
    --pool), and on Discord each new connection is a TLS handshake. Here the connector discord.py would
    make at login keeps at most `per_host` connections to one host (Discord's API is one; its gateway's
    and voice servers' websockets are others): a request past them waits for the next one free, in
    order. A connector given to the client is left as it is."""
    login = http.static_login
    ours: aiohttp.TCPConnector | None = None

    async def static_login(token: str) -> Any:
        nonlocal ours
        if http.connector is MISSING or (http.connector is ours and ours.closed):  # (a login after a close)
            ours = http.connector = aiohttp.TCPConnector(limit=0, limit_per_host=per_host)
        return await login(token)

    setattr(http, "static_login", static_login)  # noqa: B010  (a method of the instance)


def lean_requests(http: Any, quota: Quota | None = None, *, per_host: int = CONNECTIONS) -> None:
    """Send a discord.py `HTTPClient`'s plain REST requests through `mafiabot.rest.LeanSession`, which wraps
    the aiohttp session each login makes (everything else still goes to that session): ≈ 40 % less CPU a
    request (issue 18, benchmarks/request_cpu.py). The quota, if given, is kept there as the middleware
    keeps it for aiohttp's requests; at most `per_host` connections to the API, as `cap_connections`."""
    login = http.static_login

    async def static_login(token: str) -> Any:
        from discord.http import Route

        from mafiabot.rest import LeanSession

        user = await login(token)
        session = http._HTTPClient__session
        if not isinstance(session, LeanSession):
            http._HTTPClient__session = LeanSession(
                session,
                api=Route.BASE,
                limit=per_host,
                quota=quota,
                counted=counted_path,
                urgency=urgency.get,
            )
        return user

    setattr(http, "static_login", static_login)  # noqa: B010  (a method of the instance)
