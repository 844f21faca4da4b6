"""The reconciler: drives Discord's voice state to what the ledger owes and the running games need.

It runs on start (after the games were resumed), on every voice connect of a member in the ledger, when
the bot's permissions change, after a game's end, and every `interval` seconds. A member a running
table owns (he is in its voice channel) is the table's; every other member in the ledger is owed his own
state: given back if he is in voice, on his next connect if not (Discord refuses to edit a member who is
not in voice). A refusal keeps him owed, and the moderator is told once, in the game's channel, who could
not be given his voice back and why; the next attempt comes with the permission or the next round.
A round's edits go out together, spread over the main bot and its helper bots (crew.py), so the end of
a sixteen-player game gives the whole table its voice back at once; whoever muted a member, the
ledger's row is what is owed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping

import discord

from mafiabot.game.crew import Crew
from mafiabot.game.ledger import Owed, VoiceLedger
from mafiabot.i18n import DEFAULT, known_language, text
from mafiabot.retry import nonce, retried

log = logging.getLogger(__name__)

# Why Discord refused, as the ledger keeps it (a code, said in the server's language when told):
# ``no-permission`` or ``http-<status>``; a row stored before the codes keeps its words.
NO_MUTE_PERMISSION = "no-permission"
# A stopping bot lets the settles under way finish this long (their ledger writes go to the group commit,
# which must be done before the database closes; an edit Discord does not answer is not waited for).
STOP_WAIT_SECONDS = 5.0


def failure_text(failure: str, language: str) -> str:
    if failure == NO_MUTE_PERMISSION:
        return text(language, "unmute-failed-no-permission")
    if failure.startswith("http-") and failure[5:].isdigit():
        return text(language, "unmute-failed-http", status=failure[5:])
    return failure


class Reconciler:
    def __init__(
        self,
        client: discord.Client,
        ledger: VoiceLedger,
        *,
        owned: Callable[[discord.Member], bool],
        guilds: Callable[[int], bool] = lambda guild_id: True,
        interval: float = 60.0,
        crew: Crew | None = None,
    ) -> None:
        self.client = client
        self.ledger = ledger
        self.crew = crew or Crew()  # the main bot and its helper bots: who makes each edit
        self._owned = owned  # a running table has this member in its channel: its mutes are the table's
        self._guilds = guilds  # the servers of this process's shards: the others' rows are theirs
        self.interval = interval
        self._locks: dict[int, asyncio.Lock] = {}  # per server (_guild_lock)
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._under_way: set[asyncio.Future[None]] = set()  # one per settle running (stop waits for them)
        self.given_back = 0  # confirmed by Discord (tests and benchmarks)

    @property
    def stopped(self) -> bool:
        return self._stopped

    def start(self) -> None:
        if self._task is None and not self._stopped:
            self._task = asyncio.create_task(self._every_interval(), name="voice reconciler")

    async def stop(self) -> None:
        self._stopped = True  # the bot is closing: a restore still under way must not start a round
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._under_way:  # (what they confirmed is written before the database closes)
            await asyncio.wait(list(self._under_way), timeout=STOP_WAIT_SECONDS)

    async def _every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.settle()
            except Exception:  # a database or Discord outage: the next round tries again
                log.exception("Voice reconciliation failed; it runs again in %.0f s", self.interval)

    async def on_connect(self, member: discord.Member) -> None:
        """A member connected to voice (or moved): if the ledger owes him, now Discord lets us pay."""
        await self.settle(member.guild.id, user_id=member.id)

    async def settle(
        self,
        guild_id: int | None = None,
        *,
        user_id: int | None = None,
        game_id: int | None = None,
        sent: Mapping[int, bool] | None = None,
        known: Mapping[int, bool] | None = None,
    ) -> list[Owed]:
        """Give back what can be given back now; returns the rows still owed (not in voice, refused).
        ``sent``: mutes a table sent whose voice state discord.py has not cached yet (the member's state
        as Discord has it, where the cache is behind). ``known`` (with ``guild_id``): what the ledger
        owes members the caller held itself (as its hold returned it); their edits leave before the
        ledger is read, beside the read (see _pay)."""
        under_way = asyncio.get_running_loop().create_future()
        self._under_way.add(under_way)
        try:
            return await self._settle(guild_id, user_id, game_id, sent or {}, known or {})
        except Exception:
            if self._stopped:  # the bot closed under this round (its database, its HTTP session): what
                return []  # is still owed stays in the ledger, and the next start settles it
            raise
        finally:
            self._under_way.discard(under_way)
            under_way.set_result(None)

    async def _settle(
        self,
        guild_id: int | None,
        user_id: int | None,
        game_id: int | None,
        sent: Mapping[int, bool],
        known: Mapping[int, bool],
    ) -> list[Owed]:
        if self._stopped:
            return []  # the bot is closing: the next start settles
        if guild_id is not None:
            async with self._guild_lock(guild_id):
                if self._stopped:
                    return []
                early = self._start_known(guild_id, known, sent)
                if early:
                    await asyncio.sleep(0)  # their requests are under way before the read takes a thread
                try:
                    rows = await self.ledger.owed(guild_id, user_id=user_id, game_id=game_id)
                    return await self._pay(guild_id, rows, sent, early)
                finally:  # every edit is answered before the lock goes (a read that failed: still owed)
                    await asyncio.gather(*(edit for _, edit in early.values()), return_exceptions=True)
        # A round over every server: one server after another, each under its own lock. A row another
        # settle paid meanwhile is seen paid in Discord's state (_without_edit) and only let go again.
        by_guild: dict[int, list[Owed]] = {}
        for row in await self.ledger.owed(None, user_id=user_id, game_id=game_id):
            by_guild.setdefault(row.guild_id, []).append(row)
        left: list[Owed] = []
        for guild, rows in by_guild.items():
            async with self._guild_lock(guild):
                if self._stopped:
                    return left
                left += await self._pay(guild, rows, sent)
        return left

    def _guild_lock(self, guild_id: int) -> asyncio.Lock:
        """One server's settles one at a time (no member edited twice at once); servers in parallel: a
        table's end never waits for another server's give-back (300 tables stopped at once used to
        give their voice back one server after another)."""
        lock = self._locks.get(guild_id)
        if lock is None:
            lock = self._locks[guild_id] = asyncio.Lock()
        return lock

    def _start_known(
        self, guild_id: int, known: Mapping[int, bool], sent: Mapping[int, bool]
    ) -> dict[int, tuple[bool, asyncio.Future[str | None]]]:
        """The give-back of members whose owed state the caller knows: each edit Discord must be asked
        for leaves now, before the ledger's read (a database round trip, behind a loaded bot's other
        writes). Nobody leaves the ledger here: _pay lets a member go once his row, as read, asks for
        the state Discord confirmed."""
        if not known or not self._guilds(guild_id):
            return {}
        guild = self.client.get_guild(guild_id)
        early: dict[int, tuple[bool, asyncio.Future[str | None]]] = {}
        for user_id, original in known.items():
            member = guild.get_member(user_id) if guild is not None else None
            if member is None or self._owned(member) or member.voice is None or member.voice.channel is None:
                continue  # the read decides (the table's again, or owed until he connects)
            if sent.get(user_id, member.voice.mute) == original:
                continue  # nothing to ask Discord: the read's row is let go as it stands
            edit = asyncio.ensure_future(self._give_back(guild_id, member, original))
            early[user_id] = (original, edit)
        return early

    async def _pay(
        self,
        guild_id: int,
        rows: list[Owed],
        sent: Mapping[int, bool],
        early: Mapping[int, tuple[bool, asyncio.Future[str | None]]] | None = None,
    ) -> list[Owed]:
        """One server's owed rows: given back together, spread over the main bot and its helpers (each
        token has its own bucket there). ``early``: edits already under way (_start_known), each the
        outcome of its member's row if it asked for the state the row owes."""
        early = early or {}
        if not self._guilds(guild_id):
            return []  # another shard's server: its rows are that process's
        left: list[Owed] = []
        paying: list[Owed] = []
        edits: list[Awaitable[str | None]] = []
        confirmed: list[Owed] = []  # Discord has each one's own state: let go, all in one write
        for row in rows:
            state = sent
            started = early.get(row.user_id)
            if started is not None:
                original, edit = started
                if original == row.original_mute:
                    paying.append(row)
                    edits.append(edit)
                    continue
                # The row owes another state than the caller knew (never, unless its memory is
                # wrong): the ledger is the truth, so after that edit, the row's own.
                await asyncio.gather(edit, return_exceptions=True)
                state = {**sent, row.user_id: original}
            found = self._without_edit(row, state, confirmed)
            if isinstance(found, discord.Member):
                paying.append(row)
                edits.append(self._give_back(row.guild_id, found, row.original_mute))
            elif found is not None:
                left.append(row)
        outcomes = await asyncio.gather(*edits, return_exceptions=True)
        refused: dict[str, list[Owed]] = {}
        failed: BaseException | None = None
        released = 0
        for row, outcome in zip(paying, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                failed = failed or outcome  # (raised once what Discord confirmed is written)
                continue
            if outcome is None:
                confirmed.append(row)
                released += 1
                continue
            left.append(row)
            if outcome:
                refused.setdefault(outcome, []).append(row)
        # Only now, every edit answered: what Discord confirmed leaves the ledger, and what it refused is
        # remembered, in one transaction (the group commit's; writes gathered in one turn share it).
        await asyncio.gather(
            self.ledger.released(confirmed),
            *(self.ledger.refused(guild_id, [r.user_id for r in owed], why) for why, owed in refused.items()),
        )
        self.given_back += released
        if failed is not None:
            raise failed
        for failure, owed in refused.items():
            await self._tell(guild_id, failure, [r for r in owed if not r.told])
        return left

    def _without_edit(
        self, row: Owed, sent: Mapping[int, bool], confirmed: list[Owed]
    ) -> discord.Member | str | None:
        """None: settled (added to ``confirmed``: Discord has his own state) or the table's; "": owed
        until he connects; the member: Discord must be asked."""
        guild = self.client.get_guild(row.guild_id)
        member = guild.get_member(row.user_id) if guild is not None else None
        if member is None:
            return ""  # not on the server (or not seen yet): kept for when he is
        if self._owned(member):
            return None
        if member.voice is None or member.voice.channel is None:
            return ""
        if sent.get(row.user_id, member.voice.mute) == row.original_mute:
            confirmed.append(row)  # Discord's own state confirms it
            return None
        return member

    async def _give_back(self, guild_id: int, member: discord.Member, original: bool) -> str | None:
        """None: Discord confirmed it; "": owed until he connects; else why Discord refused."""
        try:
            await self.crew.set_mute(
                member,
                original,
                reason=text(self._language(guild_id), "audit-unmute"),
                what="Giving a member his voice back",
            )
        except discord.Forbidden:
            log.warning("Cannot give a member his voice back: no permission", extra={"guild_id": guild_id})
            return NO_MUTE_PERMISSION
        except discord.HTTPException as error:
            if error.status == 400:  # he left voice meanwhile: his next connect
                return ""
            log.warning("Cannot give a member his voice back: %s", error, extra={"guild_id": guild_id})
            return f"http-{error.status}"
        return None

    def _language(self, guild_id: int) -> str:
        """The server's language (as last read), else the bot's."""
        settings = getattr(self.client, "settings", None)
        return known_language(guild_id, getattr(getattr(settings, "game", None), "language", DEFAULT))

    async def _tell(self, guild_id: int, failure: str, rows: list[Owed]) -> None:
        """Once per member and refusal: say in the game's channel who is still muted and why."""
        by_channel: dict[int, list[Owed]] = {}
        for row in rows:
            by_channel.setdefault(row.text_channel_id, []).append(row)
        guild = self.client.get_guild(guild_id)
        for channel_id, owed in by_channel.items():
            channel = guild.get_channel(channel_id) if guild is not None else None
            who = ", ".join(f"<@{row.user_id}>" for row in owed)
            if not isinstance(channel, discord.abc.Messageable):
                log.warning(
                    "Members left muted (%s), no channel to say so", failure, extra={"guild_id": guild_id}
                )
                continue
            language = self._language(guild_id)
            said = text(language, "unmute-failed", who=who, why=failure_text(failure, language))
            try:
                await retried(
                    functools.partial(
                        channel.send, said, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce()
                    ),
                    what="Telling the moderator about members left muted",
                    extra={"guild_id": guild_id},
                )
            except discord.HTTPException:
                log.exception("Could not tell the moderator who is left muted", extra={"guild_id": guild_id})
                continue
            await self.ledger.mark_told(guild_id, [row.user_id for row in owed])
