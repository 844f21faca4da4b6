"""Who makes each member edit of a burst: the main bot or one of its helper bots (helpers.py, issue 20).

Discord's member-edit bucket is per token: ten edits per ten seconds in a guild (and 50 requests a
second in all). The crew counts what each token has spent per guild and gives each edit to the hand
with the most room left, the main bot first among equals; so one transition of sixteen mutes goes out
at once over two or three tokens instead of waiting ten seconds for the main bot's bucket. A helper is
skipped where it cannot help — not on the server, no Mute Members in the member's channel (as the
main bot's cache shows it), out of room, or resting after a refusal, a 429, a timeout or a lost token —
and then the main bot makes the edit, with its retries (retry.py), exactly as without helpers.

Every token also has Discord's global limit (mafiabot/quota.py keeps it for each client): an edit goes
to the hand with the most room in both its guild's bucket and its token's second, so when the main
bot's second is full of messages and panels of other tables, the helpers take the mutes; within a
full second an edit leaves before the token's other requests (the next speaker's unmute first).

Who made an edit does not matter to the voice ledger: every member is held in it before any edit, and
whoever muted him, the main bot gives his own state back; so a helper that crashes or vanishes in the
middle of a burst leaves nobody muted.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Sequence

import discord

from mafiabot.game.helpers import Helper, HelperGone
from mafiabot.quota import MAY_SPEAK, MUTE, NEXT_SPEAKER, Quota, urgent
from mafiabot.retry import ATTEMPTS, retried

log = logging.getLogger(__name__)

BUCKET, WINDOW = 10, 10.0  # Discord's member edits per guild per token, and its window (seconds)
# discord.py holds a call in its bucket's exit, after Discord applied the edit, until the bucket resets
# (up to ten seconds) whenever the bucket's last edit is spent, or whenever more requests are in flight
# than its count of what is left: a burst waiting on such a call waits for nothing. So the crew keeps
# one edit of each bucket back and has at most two edits of one token in one guild in flight; within
# those, no call ever waits (measured against the local Discord: nine at once held one call ten s).
USABLE = BUCKET - 1
IN_FLIGHT = 2
MEETING = 3.0  # seconds to wait for the helpers' members (a gateway request) before a table's first burst


def helpers_needed(players: int) -> int:
    """Helpers that let one transition change every mute of the table at once, the buckets full."""
    return max(0, math.ceil(players / BUCKET) - 1)


def helpers_advised(players: int) -> int:
    """One more than needed: room left for the edits just before a transition (a hand-over, another
    transition within ten seconds), so the whole table still changes in under a second."""
    return helpers_needed(players) + 1


class Budget:
    """One token's member edits of the last window, per guild; its requests of the last second in all
    are its quota's (every request of the token, not only edits)."""

    def __init__(self, clock: Callable[[], float], quota: Quota) -> None:
        self._clock = clock
        self.quota = quota
        self._sent: dict[int, deque[float]] = {}
        self.resting: dict[int | None, float] = {}  # guild id (None: everywhere) -> until when
        # Edits given to this token and not yet answered: a burst's edits are all given out before the
        # first of them reaches the token's quota, which would otherwise still look empty.
        self.pending = 0

    def edits_left(self, guild_id: int) -> int:
        """Edits this token can still make in the guild without meeting its bucket."""
        now = self._clock()
        if max(self.resting.get(guild_id, 0.0), self.resting.get(None, 0.0)) > now:
            return 0
        sent = self._sent.get(guild_id)
        if sent is None:  # (no edit here yet: no deque made for asking)
            return USABLE
        while sent and now - sent[0] >= WINDOW:
            sent.popleft()
        return max(0, USABLE - len(sent))

    def room(self, guild_id: int, level: int = MUTE) -> int:
        """Edits it can make at once: within the bucket and within its token's second. Never below
        none: with more edits given than its second has places, a token whose bucket is spent (none
        left) had "more room" than this one and was given edits that discord.py then held until its
        bucket reset, past the helper's patience (the helper was rested everywhere for it)."""
        return max(0, min(self.edits_left(guild_id), self.quota.room(level) - self.pending))

    def queue(self, level: int = MUTE) -> int:
        """How long a new edit's wait in the token's second would be (in requests ahead of it)."""
        return self.quota.backlog(level) + self.pending

    def spend(self, guild_id: int) -> None:
        self._sent.setdefault(guild_id, deque()).append(self._clock())
        self.pending += 1

    def done(self) -> None:
        self.pending = max(0, self.pending - 1)

    def rest(self, guild_id: int | None, seconds: float) -> None:
        self.resting[guild_id] = self._clock() + seconds


class Crew:
    def __init__(
        self,
        helpers: Sequence[Helper] = (),
        *,
        quota: Quota | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.helpers = list(helpers)
        self._clock = clock
        self.quota = quota or Quota()  # the main bot's (none given: a client without one, in tests)
        self._main = Budget(clock, self.quota)
        self._budgets = {helper.number: Budget(clock, helper.quota) for helper in self.helpers}
        self.by_main = 0  # edits the main bot made (benchmarks and tests)
        self._lanes: dict[tuple[int, int], asyncio.Semaphore] = {}  # (helper number or 0, guild id)

    def enlist(self, helpers: Sequence[Helper]) -> None:
        """Helper bots that logged in (the bot's start: they log in after the game service is built)."""
        for helper in helpers:
            self.helpers.append(helper)
            self._budgets[helper.number] = Budget(self._clock, helper.quota)

    def forget_spending(self) -> None:
        """Start every token's count afresh (tests and benchmarks that reset the local Discord's windows)."""
        self._main = Budget(self._clock, self.quota)
        self._budgets = {helper.number: Budget(self._clock, helper.quota) for helper in self.helpers}

    async def meet(self, guild: discord.Guild) -> None:
        """Ask Discord for the helpers' members on this server, those the bot has not cached: it does
        not fetch every server's member list at start, and only a member it knows shows whether a
        helper is on the server and may mute there. (Later invites, kicks and role changes come as
        events.) A helper that does not come is not on the server; the main bot does its work."""
        missing = [
            h.user_id for h in self.helpers if h.user_id is not None and guild.get_member(h.user_id) is None
        ]
        if not missing:
            return
        try:
            async with asyncio.timeout(MEETING):
                await guild.query_members(user_ids=missing, limit=len(missing), cache=True)
        except (TimeoutError, discord.ClientException) as error:
            log.warning("The helper bots' members did not come (%s)", error, extra={"guild_id": guild.id})

    def usable(self, helper: Helper, channel: discord.abc.GuildChannel) -> bool:
        """On the server, logged in, with Mute Members in this channel (as the main bot's cache has it)."""
        if not helper.logged_in or helper.user_id is None:
            return False
        me = channel.guild.get_member(helper.user_id)
        return me is not None and channel.permissions_for(me).mute_members

    def _pick(self, member: discord.Member, level: int) -> Helper | None:
        """The helper with the most room for this member, if it has more than the main bot. When no
        hand has room (every token's second full: hundreds of tables stopped at once), the one whose
        queue is shortest among those with edits left in the guild, the main bot first among equals:
        left to the main bot, every such edit queued behind its messages (3,000 unmutes at 50 a
        second, the helpers idle beside it: measured at 300 tables)."""
        channel = member.voice.channel if member.voice is not None else None
        if channel is None or not self.helpers:
            return None
        guild_id = member.guild.id
        best, room = None, self._main.room(guild_id, level)
        for helper in self.helpers:
            budget = self._budgets[helper.number]
            here = budget.room(guild_id, level)
            if here > room and self.usable(helper, channel):
                best, room = helper, here
        if room > 0:
            return best
        queue = (self._main.edits_left(guild_id) == 0, self._main.queue(level))
        for helper in self.helpers:
            budget = self._budgets[helper.number]
            if budget.edits_left(guild_id) == 0 or not self.usable(helper, channel):
                continue
            theirs = (False, budget.queue(level))
            if theirs < queue:
                best, queue = helper, theirs
        return best

    async def set_mute(
        self,
        member: discord.Member,
        mute: bool,
        *,
        reason: str,
        what: str,
        attempts: int = ATTEMPTS,
        next_speaker: bool = False,
    ) -> None:
        """Mute or unmute the member by whichever hand has room; the main bot's errors are raised
        (discord.Forbidden, discord.HTTPException) as a plain `member.edit` would raise them.
        `next_speaker`: his unmute is the most urgent request of a full second (mafiabot/quota.py)."""
        level = MUTE if mute else NEXT_SPEAKER if next_speaker else MAY_SPEAK
        with urgent(level):
            await self._set_mute(member, mute, reason=reason, what=what, attempts=attempts, level=level)

    async def _set_mute(
        self, member: discord.Member, mute: bool, *, reason: str, what: str, attempts: int, level: int
    ) -> None:
        helper = self._pick(member, level)
        if helper is not None:
            budget = self._budgets[helper.number]
            budget.spend(member.guild.id)
            try:
                async with self._lane(helper.number, member.guild.id):
                    await helper.set_mute(member, mute, reason)
                return
            except HelperGone as gone:
                budget.rest(member.guild.id if gone.guild_wide else None, gone.rest)
                log.warning(
                    "Helper bot %d could not %s a member (%s); the main bot does it",
                    helper.number,
                    "mute" if mute else "unmute",
                    gone.why,
                    extra={"guild_id": member.guild.id},
                )
            finally:
                budget.done()
        main = self._main
        main.spend(member.guild.id)
        # Member.edit's request without the discord.Member it builds of Discord's answer, which nobody
        # reads (the voice state comes back by the gateway; issue 18), as the helpers send theirs.
        edit_member = member._state.http.edit_member
        try:
            async with self._lane(0, member.guild.id):
                await retried(
                    lambda: edit_member(member.guild.id, member.id, mute=mute, reason=reason),
                    what=what,
                    attempts=attempts,
                    extra={"guild_id": member.guild.id},
                )
        finally:
            main.done()
        self.by_main += 1

    def _lane(self, hand: int, guild_id: int) -> asyncio.Semaphore:
        lane = self._lanes.get((hand, guild_id))
        if lane is None:
            lane = self._lanes[(hand, guild_id)] = asyncio.Semaphore(IN_FLIGHT)
        return lane

    def room(self, member: discord.Member) -> int:
        """How many edits for members of this one's channel can go out now without meeting a bucket.
        (A full second of a token is no reason to send them one by one: its quota lets them go within
        the second, in order.)"""
        channel = member.voice.channel if member.voice is not None else None
        guild_id = member.guild.id
        total = self._main.edits_left(guild_id)
        if channel is not None:
            for helper in self.helpers:
                if self.usable(helper, channel):
                    total += self._budgets[helper.number].edits_left(guild_id)
        return total

    def ready_helpers(self, channel: discord.abc.GuildChannel) -> list[Helper]:
        """The helpers that can mute in this channel now (for `/mafia check`)."""
        return [helper for helper in self.helpers if self.usable(helper, channel)]

    async def close(self) -> None:
        for helper in self.helpers:
            await helper.close()
