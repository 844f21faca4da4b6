"""Discord-shaped rate limits: a fixed window per (token, route, major parameter) bucket, the global
limit per token, and the invalid-request limit.

Buckets belong to the token that spends them, as on Discord: a second bot (another application's
token) in the same guild has its own 10 member edits per 10 s there and its own 50 requests a second,
which is what the bot's helper tokens rely on (issue 20). The invalid-request count is per address,
so every token of one process shares it.

Every answer carries `X-RateLimit-*` headers; a request over a bucket gets 429 with `retry_after`
(and the `Via` header: discord.py treats a 429 without it as a Cloudflare ban). Defaults are Discord's:
member edits 10 per 10 s per guild, message creates and message edits 5 per 5 s per channel, every
other route 50 per second per bucket, and at most 50 requests a second in all (the global limit;
interaction callbacks and their webhooks are exempt). A bucket can also be *hidden* — enforced without
advertising it, like Discord's undocumented sub-limits — which is how a test provokes a real 429 storm.

Invalid requests (answers 401, 403 and 429, except a 429 of a shared bucket) are counted over ten
minutes: at 10,000 Discord bans the bot's IP for a while; here every later request is answered 429
without `Via`, which discord.py reports as a Cloudflare ban, and `banned` is set. `peak_invalid` is the
most seen in any ten minutes (how close a run came).

Drivers that play games at machine speed (steps skipped faster than people can talk) lift the message
buckets with `fast_forward()`; a benchmark keeps Discord's limits to see what a real game meets.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"
MESSAGE_CREATE = "POST /channels/{channel_id}/messages"
MESSAGE_SEND = MESSAGE_CREATE  # the name the fault tests use
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
GLOBAL_PER_SECOND = 50
INVALID_LIMIT, INVALID_WINDOW = 10_000, 600.0
_EXEMPT_FROM_GLOBAL = ("POST /interactions/", "POST /webhooks/", "PATCH /webhooks/", "GET /webhooks/")


def discord_limits() -> dict[str, Limit]:
    return {MEMBER_EDIT: Limit(10, 10.0), MESSAGE_CREATE: Limit(5, 5.0), MESSAGE_EDIT: Limit(5, 5.0)}


@dataclass
class Limit:
    requests: int
    per: float  # seconds
    hidden: bool = False


@dataclass
class _Window:
    started: float
    used: int = 0


@dataclass
class Decision:
    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = "user"  # "global" for the global limit, "ban" once banned

    @property
    def is_global(self) -> bool:
        return self.scope != "user"


@dataclass
class RateLimits:
    """Per-test configuration and the record of what happened (`limited` counts every 429 served)."""

    default: Limit = field(default_factory=lambda: Limit(50, 1.0))
    routes: dict[str, Limit] = field(default_factory=discord_limits)
    token_routes: dict[tuple[str, str], Limit] = field(default_factory=dict)  # one account's own
    global_limit: Limit = field(default_factory=lambda: Limit(GLOBAL_PER_SECOND, 1.0))
    clock: Callable[[], float] = time.monotonic
    limited: list[tuple[str, str]] = field(default_factory=list)  # (route, major parameter) per 429
    limited_tokens: list[str] = field(default_factory=list)  # the token of each 429 in `limited`
    waited: float = 0.0  # sum of the retry_after of every 429 served
    invalid: deque[float] = field(default_factory=deque)  # times of 401/403/429 in the last ten minutes
    invalid_total: int = 0
    peak_invalid: int = 0
    banned: bool = False
    _windows: dict[tuple[str, str, str], _Window] = field(default_factory=dict)  # (token, route, major)
    _global: dict[str, _Window] = field(default_factory=dict)  # per token

    def set(
        self, route: str, requests: int, per: float, *, hidden: bool = False, token: str | None = None
    ) -> None:
        """Configure one route template, e.g. `set(MEMBER_EDIT, 3, 0.3)`; resets its windows. With
        `token`, for that bot account only (one whose bucket a test wants spent or hidden)."""
        if token is None:
            self.routes[route] = Limit(requests, per, hidden)
        else:
            self.token_routes[(token, route)] = Limit(requests, per, hidden)
        for key in [key for key in self._windows if key[1] == route and token in (None, key[0])]:
            del self._windows[key]

    def spend(self, route: str, major: str, token: str = "") -> None:
        """Use up a bucket's window from now, as the account's own requests just before would have (the
        main bot's token is ""): a test that needs a table's queue to be behind its channel's limit."""
        limit = self.token_routes.get((token, route)) or self.routes.get(route, self.default)
        self._windows[(token, route, major)] = _Window(self.clock(), used=limit.requests)

    def fast_forward(self) -> None:
        """Lift the message buckets for a driver that plays faster than people do (see the module)."""
        for route in (MESSAGE_CREATE, MESSAGE_EDIT):
            self.set(route, 1000, 1.0)

    def check(self, route: str, major: str, token: str = "") -> Decision:
        """May `token` make this request now? (Its own buckets and its own global limit.)"""
        now = self.clock()
        if self.banned:
            return Decision(False, {"Retry-After": "3600"}, retry_after=3600.0, scope="ban")
        if not route.startswith(_EXEMPT_FROM_GLOBAL):
            decision = self._check_global(now, token)
            if decision is not None:
                self.limited.append((route, "global"))
                self.limited_tokens.append(token)
                self.waited += decision.retry_after
                return decision
        limit = self.token_routes.get((token, route)) or self.routes.get(route, self.default)
        window = self._windows.get((token, route, major))
        if window is None or now - window.started >= limit.per:
            window = self._windows[(token, route, major)] = _Window(now)
        reset_after = max(0.0, window.started + limit.per - now)
        allowed = window.used < limit.requests
        if allowed:
            window.used += 1
        else:
            self.limited.append((route, major))
            self.limited_tokens.append(token)
            self.waited += reset_after
        headers = {}
        if not limit.hidden:
            headers = {
                "X-RateLimit-Limit": str(limit.requests),
                "X-RateLimit-Remaining": str(max(0, limit.requests - window.used)),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
            }
        if not allowed:
            headers.update({"Retry-After": f"{max(1, round(reset_after))}", "X-RateLimit-Scope": "user"})
            headers["Via"] = "1.1 google"
        return Decision(allowed, headers, retry_after=reset_after)

    def _check_global(self, now: float, token: str) -> Decision | None:
        limit = self.global_limit
        window = self._global.get(token)
        if window is None or now - window.started >= limit.per:
            window = self._global[token] = _Window(now)
        if window.used < limit.requests:
            window.used += 1
            return None
        retry = max(0.0, window.started + limit.per - now)
        headers = {
            "Retry-After": f"{max(1, round(retry))}",
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": "1.1 google",
        }
        return Decision(False, headers, retry_after=retry, scope="global")

    def answered(self, status: int, *, shared: bool = False) -> None:
        """Count an invalid request (401, 403, 429 unless of a shared bucket); ban at Discord's limit."""
        if status not in (401, 403, 429) or shared:
            return
        now = self.clock()
        self.invalid.append(now)
        self.invalid_total += 1
        while self.invalid and now - self.invalid[0] > INVALID_WINDOW:
            self.invalid.popleft()
        self.peak_invalid = max(self.peak_invalid, len(self.invalid))
        if len(self.invalid) >= INVALID_LIMIT:
            self.banned = True
