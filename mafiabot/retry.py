"""Discord calls that must not be lost to a passing fault: 5xx answers, 429s and a dropped connection
are retried with backoff.

discord.py retries 500, 502, 504 and 524 itself, waits out a 429 up to five times, and raises a 503 at
once (`DiscordServerError`); a member edit or a game message that fails that way is retried here a few
more times, with growing, jittered pauses. So is a connection that closed or broke before its answer
(aiohttp's `ServerDisconnectedError`, `ClientOSError`: discord.py retries only a reset socket): the call
may have been carried out, so only calls that can be repeated go through here — a member's mute and a
message edit set a state, and a new message carries a `nonce()`, with which Discord answers a repeated
send with the message it already created. Everything else (403, 404, 400) is Discord's answer and is
raised at once: retrying it would change nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 5
FIRST_PAUSE = 0.5  # seconds; doubled after each failure (0.5, 1, 2, 4: about 7.5 s in all)


def nonce() -> str:
    """A new message's nonce (Discord takes at most 25 characters): made once per message, before the
    first attempt, so that every attempt of that message carries the same one."""
    return secrets.token_hex(12)


def passing(error: BaseException) -> bool:
    """A fault worth retrying: the server failed, asked us to slow down, or the link broke."""
    if isinstance(error, discord.DiscordServerError | discord.RateLimited | aiohttp.ClientConnectionError):
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
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientConnectionError) as error:
            if not passing(error) or attempt == attempts:
                raise
            log.warning("%s failed (%s), attempt %d of %d", what, error, attempt, attempts, extra=extra)
            await asyncio.sleep(pause * random.uniform(0.8, 1.2))
            pause *= 2
    raise AssertionError("unreachable")
