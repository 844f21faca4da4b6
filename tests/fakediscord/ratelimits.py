"""Discord-shaped rate limits: a fixed window per (route, major parameter) bucket.

Every answer carries `X-RateLimit-*` headers; a request over the limit gets 429 with `retry_after`
(and the `Via` header: discord.py treats a 429 without it as a Cloudflare ban). A bucket can also be
*hidden* — enforced without advertising it, like Discord's undocumented sub-limits — which is how a
test provokes a real 429 storm: discord.py cannot pace itself and must wait out each `retry_after`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"
MESSAGE_SEND = "POST /channels/{channel_id}/messages"


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


@dataclass
class RateLimits:
    """Per-test configuration and the record of what happened (`limited` counts every 429 served)."""

    default: Limit = field(default_factory=lambda: Limit(50, 1.0))
    routes: dict[str, Limit] = field(default_factory=lambda: {MEMBER_EDIT: Limit(10, 10.0)})
    clock: Callable[[], float] = time.monotonic
    limited: list[tuple[str, str]] = field(default_factory=list)  # (route, major parameter) per 429
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)

    def set(self, route: str, requests: int, per: float, *, hidden: bool = False) -> None:
        """Configure one route template, e.g. `set(MEMBER_EDIT, 3, 0.3)`; resets its windows."""
        self.routes[route] = Limit(requests, per, hidden)
        for key in [key for key in self._windows if key[0] == route]:
            del self._windows[key]

    def check(self, route: str, major: str) -> Decision:
        limit = self.routes.get(route, self.default)
        now = self.clock()
        window = self._windows.get((route, major))
        if window is None or now - window.started >= limit.per:
            window = self._windows[(route, major)] = _Window(now)
        reset_after = max(0.0, window.started + limit.per - now)
        allowed = window.used < limit.requests
        if allowed:
            window.used += 1
        else:
            self.limited.append((route, major))
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
