"""How often one client may ask for pages: a token bucket per client address.

The pages read the database in threads and a live table streams: without a limit one script could keep
the bot's process busy. A client over the limit gets 429 with Retry-After; the buckets of clients that have
been quiet long enough to be full again are forgotten, so the memory stays bounded by the clients of the
last minute.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

FORGET_AFTER = 10_000  # buckets kept before the full ones are dropped


@dataclass
class _Bucket:
    tokens: float
    at: float


class Throttle:
    """``per_minute`` requests a minute per client, in bursts of up to ``burst``; 0 turns it off."""

    def __init__(self, per_minute: int, clock: Callable[[], float], *, burst: int | None = None) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(10, per_minute // 4))
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def wait(self, client: str) -> float:
        """0 if ``client`` may be served now (and counts the request), else the seconds until he may."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= FORGET_AFTER:
                self._forget(now)
            bucket = self._buckets[client] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _forget(self, now: float) -> None:
        for client, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.at) * self.rate >= self.burst:
                del self._buckets[client]


def retry_after(seconds: float) -> str:
    """The Retry-After header's whole seconds, never 0 for a refused request."""
    return str(max(1, math.ceil(seconds)))
