"""Discord calls that must not be lost to a passing fault: 5xx answers and 429s are retried with backoff.

discord.py retries 500, 502, 504 and 524 itself, waits out a 429 up to five times, and raises a 503 at
once (`DiscordServerError`); a member edit or a game message that fails that way is retried here a few
more times, with growing, jittered pauses. Everything else (403, 404, 400) is Discord's answer and is
raised at once: retrying it would change nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 5
FIRST_PAUSE = 0.5  # seconds; doubled after each failure (0.5, 1, 2, 4: about 7.5 s in all)


def passing(error: BaseException) -> bool:
    """A fault worth retrying: the server failed or asked us to slow down."""
    if isinstance(error, discord.DiscordServerError | discord.RateLimited):
        return True
    return isinstance(error, discord.HTTPException) and (error.status >= 500 or error.status == 429)


async def retried(
    call: Callable[[], Awaitable[T]],
    *,
    what: str,
    attempts: int = ATTEMPTS,
    first_pause: float = FIRST_PAUSE,
    extra: dict[str, object] | None = None,
) -> T:
    """`await call()`, again after a passing fault, `attempts` times in all; the last error is raised."""
    pause = first_pause
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except (discord.HTTPException, discord.RateLimited) as error:
            if not passing(error) or attempt == attempts:
                raise
            log.warning("%s failed (%s), attempt %d of %d", what, error, attempt, attempts, extra=extra)
            await asyncio.sleep(pause * random.uniform(0.8, 1.2))
            pause *= 2
    raise AssertionError("unreachable")
