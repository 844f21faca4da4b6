"""Helper bots (issue 20): light clients of other bot tokens that only log in and server-mute members.

Discord lets one token make ten member edits per ten seconds in a guild; a transition that changes
sixteen mutes waits ten seconds for the rest, and for those seconds some players can talk while others
cannot. Every token has its own bucket, so a server that invites one or two helper bots (their own
applications, with Mute Members) gets the whole table muted or unmuted at once (crew.py spreads a burst
across them). A helper logs in over REST only (discord.py's `login`: no gateway, no cache, no game
state); the main bot hands it each edit and sees the result in its own gateway like any other change.

Tokens are secrets: never logged (the log's redaction covers them, mafiabot/__main__.py), never in a
repr. A helper whose token Discord refuses is left out and said in the log by its number only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from mafiabot.config import Secret
from mafiabot.quota import PER_SECOND, Quota

log = logging.getLogger(__name__)

# How long a helper's edit may take before the main bot does it instead (a helper whose connection
# hangs must not hold a burst up; Discord answers an edit in well under a second).
PATIENCE = 5.0


class HelperGone(Exception):
    """The helper could not make the edit (refused, rate limited, logged out, timed out); the main bot
    makes it. `rest` is how long to leave the helper out: in this guild (`guild_wide`) or everywhere."""

    def __init__(self, why: str, rest: float, *, guild_wide: bool = True) -> None:
        super().__init__(why)
        self.why, self.rest, self.guild_wide = why, rest, guild_wide


class Helper:
    """One helper token's client. `number` (1, 2, …) names it in logs and in `/mafia check`."""

    def __init__(
        self, number: int, token: Secret, *, per_second: int = PER_SECOND, lean: bool = True
    ) -> None:
        self.number = number
        self._token = token
        # Its own token's global limit (mafiabot/quota.py).
        self.quota = Quota(per_second, name=f"helper {number}")
        # No gateway connection is ever opened; the guilds intent only keeps discord.py from warning.
        # A 429 longer than 30 s (the least discord.py allows) is raised, not slept on: the main bot
        # takes the edit over at once.
        self.client = discord.Client(intents=discord.Intents(guilds=True), max_ratelimit_timeout=30.0)
        self.quota.fit(self.client.http, lean=lean)
        self.user_id: int | None = None
        self.application_id: int | None = None
        self.edits = 0  # confirmed by Discord (benchmarks and tests)

    def __repr__(self) -> str:
        return f"<Helper {self.number} user_id={self.user_id}>"

    @property
    def logged_in(self) -> bool:
        return self.user_id is not None and not self.client.is_closed()

    async def log_in(self) -> bool:
        try:
            await self.client.login(self._token.get())
        except (discord.LoginFailure, discord.HTTPException, OSError) as error:
            log.warning("Helper bot %d could not log in (%s); the main bot mutes alone", self.number, error)
            await self.client.close()
            return False
        assert self.client.user is not None
        self.user_id = self.client.user.id
        self.application_id = self.client.application_id
        log.info("Helper bot %d logged in as %s (id %s)", self.number, self.client.user, self.user_id)
        return True

    async def set_mute(self, member: discord.Member, mute: bool, reason: str) -> None:
        """Server-mute or unmute the member; HelperGone when the main bot has to do it."""
        if not self.logged_in:
            raise HelperGone("not logged in", float("inf"), guild_wide=False)
        try:
            async with asyncio.timeout(PATIENCE):
                await self.client.http.edit_member(member.guild.id, member.id, mute=mute, reason=reason)
        except discord.Forbidden as error:  # not on the server (50001) or no Mute Members there (50013)
            raise HelperGone(f"refused ({error.code})", 60.0) from error
        except discord.RateLimited as error:
            raise HelperGone("rate limited", error.retry_after) from error
        except discord.HTTPException as error:
            if error.status == 401:  # the token was reset: this helper is gone for good
                await self.client.close()
                raise HelperGone("its token was refused", float("inf"), guild_wide=False) from error
            raise HelperGone(f"Discord answered {error.status}", 10.0) from error
        except Exception as error:  # a hung or closed connection, a client closed under the edit
            raise HelperGone(type(error).__name__, 10.0, guild_wide=False) from error
        self.edits += 1

    async def close(self) -> None:
        await self.client.close()


async def log_in_all(
    tokens: Sequence[Secret], *, per_second: int = PER_SECOND, lean: bool = True
) -> list[Helper]:
    """Log every helper token in (at once); those Discord refuses are left out."""
    helpers = [
        Helper(number, token, per_second=per_second, lean=lean)
        for number, token in enumerate(tokens, start=1)
        if token
    ]
    results = await asyncio.gather(*(helper.log_in() for helper in helpers))
    return [helper for helper, ok in zip(helpers, results, strict=True) if ok]
