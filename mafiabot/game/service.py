"""The game service: the running tables of the bot and the one door through which every game changes.

A player's click, a moderator's command, a foul, a withdrawal, the timer, a player leaving voice: each
goes through :meth:`GameService.submit` (or, for what is not an engine command, :meth:`withdraw` and
the clock methods), which takes the game's lock, applies the change, stores it, and then shows it — the
cogs' hooks hear the events, the table renders them, mutes and speaks. The service listens to each
session (a step's time running out comes back here as an ``Advance``).

The bot builds one service in ``MafiaBot.setup_hook`` and every cog uses it. Its helpers, one job each:
``lobbies`` (the open lobbies), ``records`` (the database), ``presence`` (voice-state events),
``host_voice`` (the host's TTS), ``immunity`` and ``pacing`` (what a server remembers between games),
``ledger`` and ``reconciler`` (who the bot muted, and giving everyone his own state back);
``mafiabot.game.restart`` resumes the stored games after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

import engine
from engine.commands import Abort, Advance, Command
from mafiabot.chaos import kill_point
from mafiabot.config import Settings
from mafiabot.errors import NotStored, UserFacingError, language_of, reply_ephemeral
from mafiabot.game.actions import ACTIONS
from mafiabot.game.clock import ClockKeeper, shard_label
from mafiabot.game.crew import Crew
from mafiabot.game.host_voice import HostVoice
from mafiabot.game.immunity import ImmunityKeeper
from mafiabot.game.ledger import VoiceLedger
from mafiabot.game.lobbies import Lobbies, check_start
from mafiabot.game.lobby import Lobby
from mafiabot.game.pacing import PacingKeeper
from mafiabot.game.presence import Presence
from mafiabot.game.reconciler import Reconciler
from mafiabot.game.records import GameRecords, game_record
from mafiabot.game.session import GameSession, SeatInfo
from mafiabot.game.table import PANEL_EDIT_INTERVAL, Table
from mafiabot.game.tables import Tables
from mafiabot.i18n import DEFAULT, text

if TYPE_CHECKING:
    from mafiabot.storage import Storage

log = logging.getLogger(__name__)

RESTART_NOTICE = text(DEFAULT, "table-restarting")
# A stopping bot waits this long for the last lines of games that ended just before it (within the
# process's own STOP_SECONDS).
CLOSING_WAIT_SECONDS = 10.0
DAMAGED = text(DEFAULT, "table-damaged-button")


def seating_text(seats: list[SeatInfo], language: str = "ru") -> str:
    rows = [text(language, "table-seating-row", seat=s.seat, user=str(s.user_id)) for s in seats]
    return "\n".join([text(language, "table-seating-title"), *rows, text(language, "table-seating-dealt")])


EventHook = Callable[[Table, list[engine.Event]], Awaitable[None]]
TableHook = Callable[[Table], Awaitable[None]]
LobbyHook = Callable[[Lobby], Awaitable[None]]


class GameService:
    def __init__(self, client: discord.Client, storage: Storage | None, settings: Settings) -> None:
        self.client = client
        self.settings = settings
        self.records = GameRecords(storage)
        # The running steps' clocks and the process's heartbeat, for a restart (one task in all).
        self.clocks = ClockKeeper(self.records, shard_label(settings.shard_ids, settings.shard_count))
        self.tables = Tables()  # by voice channel id, and by game, server and text channel
        self.closing: set[Table] = set()  # closed tables whose last lines are still being sent
        self.lobbies = Lobbies(self.tables, storage)
        self.mute_spectators = True
        self.panel_edit_interval = PANEL_EDIT_INTERVAL
        self.host_voice = HostVoice(settings.audio, self.records)
        self.ledger = VoiceLedger(storage, self.records.group)  # its writes join the group commit
        # The main bot alone until its helper bots log in (MafiaBot.setup_hook); the bot's own quota of
        # requests a second (mafiabot/quota.py) tells the crew how busy the main token is.
        self.crew = Crew(quota=getattr(client, "quota", None))
        self.reconciler = Reconciler(
            client, self.ledger, owned=self._owns, guilds=settings.owns, crew=self.crew
        )
        self.presence = Presence(self.tables, self.reconciler, self.submit)
        self.immunity = ImmunityKeeper(storage)
        self.pacing = PacingKeeper(storage)  # how long the steps of dead roles last (D-G8)
        # Cogs that follow every game: conduct records fouls as they happen, ratings rate finished games.
        self.event_hooks: list[EventHook] = [self.immunity.on_events]
        self.finish_hooks: list[TableHook] = [self.immunity.on_finish]
        self.restore_hooks: list[TableHook] = []  # before a resumed table runs
        self.reopen_hooks: list[LobbyHook] = []  # each lobby reopened after a restart (its message)

    @property
    def storage(self) -> Storage | None:
        return self.records.storage

    def table_by_id(self, game_id: int) -> Table | None:
        return self.tables.by_game(game_id)

    def _owns(self, member: discord.Member) -> bool:
        """A running table has the member in its voice channel: his mute is that table's to decide."""
        channel = member.voice.channel if member.voice is not None else None
        table = self.tables.get(channel.id) if channel is not None else None
        return table is not None and table.owns_voice and table.guild.id == member.guild.id

    async def meet_voice_members(self, guild: discord.Guild, channel: discord.abc.GuildChannel) -> None:
        """A lobby opened: ask Discord for the members in its voice channel the bot does not know yet.
        (The bot does not fetch every server's member list at start; members in voice normally come
        with the server and their voice state, so this is usually nothing.)"""
        voice_states = getattr(channel, "voice_states", {})
        missing = [uid for uid in voice_states if guild.get_member(uid) is None][:100]
        if missing:
            try:
                await guild.query_members(user_ids=missing, cache=True)
            except TimeoutError:
                log.warning("The voice channel's members did not come", extra={"guild_id": guild.id})
        # The helper bots too, now: met at the table's first burst instead, the start's mutes waited
        # for the answer (a gateway round trip, more on a loaded bot).
        await self.crew.meet(guild)

    def guild_seen_again(self, guild: discord.Guild) -> None:
        """discord.py made a new object for the guild (a new session after INVALID_SESSION)."""
        for table in self.tables.in_guild(guild.id):
            table.rebind(guild)

    def permissions_may_have_changed(self, guild_id: int) -> None:
        """A role, a channel or the bot's own member changed: each running table of the server compares its
        voice with what its step needs again, so that a mute refused while the bot lacked Mute Members is
        made (and a speaker left muted is given his voice) when the permission comes back, not only at the
        next step. Without it still, a convergence sends nothing (VoiceController._edit)."""
        for table in self.tables.in_guild(guild_id):
            if not table.closed:
                table.voice.update()

    # -- the one door -------------------------------------------------------------------------------

    async def submit(
        self, table: Table, command: Command, *, serial: int | None = None
    ) -> list[engine.Event]:
        """Apply one command to the table's game: lock, apply, store, then show (hooks, render, mutes,
        speech). ``serial`` (from a button) must name the current step. A refusal (engine.IllegalCommand,
        StaleAction) changes nothing; the error handler answers it."""
        session = table.session
        async with session.lock:
            move = session.prepare(command, serial=serial)
            if isinstance(command, Advance):  # the step ended by the rules: its mutes go beside the write
                table.stage(move.after)
            # Write ahead: the command is stored before the game in memory moves on, so a write the
            # database refuses leaves the game exactly as the log (and a restart) has it.
            try:
                await self.records.append_command(session.game_id, move.command, over=move.after.over)
            except Exception as exc:
                table.voice.unstage()
                log.warning("Could not store a command", exc_info=True, extra={"game_id": session.game_id})
                raise NotStored() from exc
            kill_point("command_committed")
            events = session.accept(move)
            table.voice.unstage()
            await self.show(table, events)
            session.arm()
        return events

    async def withdraw(
        self, table: Table, command: Command | None, persist: Callable[[bool], Awaitable[None]]
    ) -> bool:
        """Take a command (a foul) out of a running game, as if never given; ``persist(taken_out)``
        stores the withdrawal under the same lock. False when the game no longer holds the command (it
        is over, or the bot was restarted since) and only the record changes."""
        session = table.session
        async with session.lock:
            position = None if command is None or session.over else session.position_of(command)
            if position is not None:
                session.withdraw({position})
            await persist(position is not None)
            table.refresh()
            session.arm()
        return position is not None

    async def pause(self, table: Table) -> None:
        await self._clock(table, table.session.pause)

    async def resume(self, table: Table) -> None:
        await self._clock(table, table.session.resume)

    async def extend(self, table: Table, seconds: float) -> None:
        await self._clock(table, lambda: table.session.extend(seconds))

    async def _clock(self, table: Table, change: Callable[[], None]) -> None:
        async with table.session.lock:
            change()
            table.save_timers()  # stored in order with the table's output (an anchor: clock.py)
            table.refresh_panel()

    async def show(self, table: Table, events: list[engine.Event]) -> None:
        ending = table.session.over and not table.finished
        if ending:  # stored «over»: the voice goes back before the hooks and the end's rendering
            kill_point("game_over_in_memory")
            self.give_voice_back(table)
            await asyncio.sleep(0)  # the give-back starts (its ledger read) before anything else runs
        for hook in self.event_hooks:
            await hook(table, events)
        table.show(events)
        if ending:
            table.enqueue(lambda: self.end(table))  # after everything the end itself says

    def game_over(self, table: Table) -> None:
        """The game's log is over (stored «over» with its last command): the players' voice is given back
        at once, ahead of the table's queue; the results and the close follow the end's messages."""
        self.give_voice_back(table)
        table.enqueue(lambda: self.end(table))  # after everything the end itself says

    @staticmethod
    def give_voice_back(table: Table) -> None:
        table.finished = True  # the table no longer owns its members' mutes: the reconciler pays them
        table.give_voice_back()

    # -- the session's listener ---------------------------------------------------------------------

    async def on_due(self, session: GameSession, serial: int) -> None:
        table = self.table_by_id(session.game_id)
        if table is not None and table.session is session:
            await self.submit(table, Advance(), serial=serial)

    async def on_tick(self, session: GameSession, seconds_left: int) -> None:
        table = self.table_by_id(session.game_id)
        if table is not None and table.session is session:
            table.countdown(seconds_left)

    # -- clicks -------------------------------------------------------------------------------------

    async def click(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        serial: int,
        action: str,
        arg: str,
        values: list[str],
    ) -> None:
        """A game's button or select (``mafia:g:…``): the handler its action names runs with the table."""
        table = self.table_by_id(game_id)
        handler = ACTIONS.get(action)
        if table is None or handler is None:
            await reply_ephemeral(interaction, text(language_of(interaction), "error-game-over"))
            return
        try:
            await handler(interaction, table, serial, arg, values)
        except engine.IllegalCommand:
            raise  # the engine's own refusal (a ValueError too): answered with its words
        except ValueError:
            # A forged or damaged id or value (letters where a seat number belongs): the handlers read
            # them with int(); the player gets a line, not a traceback, and nothing changes.
            log.info("Unreadable component %s:%s %s", action, arg[:20], values[:3])
            await reply_ephemeral(interaction, text(table.session.language, "table-damaged-button"))

    # -- a game's life ------------------------------------------------------------------------------

    def new_table(
        self,
        guild: discord.Guild,
        text_channel: discord.abc.Messageable,
        voice_channel_id: int,
        creator_id: int,
        voice_original: Mapping[int, bool] | None = None,
    ) -> Table:
        return Table(
            self.records,
            guild,
            text_channel,
            voice_channel_id,
            creator_id,
            voice_original,
            reconciler=self.reconciler,
            clocks=self.clocks,
            mute_spectators=self.mute_spectators,
            panel_edit_interval=self.panel_edit_interval,
        )

    async def seat(self, table: Table) -> None:
        """The table with its session joins the running games; its sender and voice workers start."""
        self.tables[table.voice_channel_id] = table
        table.start_workers()

    async def _scheduled_seats(self, guild_id: int, players: list[int]) -> tuple[list[int], int, str] | None:
        """The seats of the server's open tournament's next scheduled game with exactly these players
        (FIIM.md F.2, «fixed by the tournament schedule»), its number and the tournament's name; None
        when there is no such game (no tournament, no fixed schedule, other players)."""
        storage = self.storage
        if storage is None:
            return None
        tournament = await asyncio.to_thread(storage.open_tournament, guild_id)
        if tournament is None or tournament.id is None:
            return None
        found = await asyncio.to_thread(storage.schedule, tournament.id)
        if found is None or found[0].seating != "fixed":
            return None
        played = await asyncio.to_thread(storage.tournament_games_played, tournament.id)
        for number, places in enumerate(found[1], 1):
            if number > played and {p.user_id for p in places} == set(players):
                return [p.user_id for p in places], number, tournament.name
        return None

    async def start(self, lobby: Lobby, guild: discord.Guild, by: int) -> Table:
        check_start(lobby, guild, by)
        if lobby.starting:
            raise UserFacingError("lobby-starting")
        lobby.starting = True
        try:
            return await self._start(lobby, guild)
        except BaseException:
            lobby.starting = False  # (refused: the lobby is as it was, and may be started again)
            raise

    async def _start(self, lobby: Lobby, guild: discord.Guild) -> Table:
        ruleset = lobby.ruleset
        n = len(lobby.players)
        text_channel = guild.get_channel(lobby.text_channel_id)
        assert isinstance(text_channel, discord.abc.Messageable)
        # The game's seed drives the engine's public draws (a tie's lot), its pacing nothing, and it is
        # published with the game's record at the end; the deal has a secret of its own, drawn here and
        # never kept, so that nothing seen during the game (a lot drawn, a step's length) narrows the
        # seed down to the seating of the roles (2**31 seeds are few enough to try every one).
        seed = secrets.randbits(31)
        order = list(lobby.players)
        secrets.SystemRandom().shuffle(order)  # seats are shuffled and announced (D-G9)
        scheduled = await self._scheduled_seats(guild.id, order)
        if scheduled is not None:
            order, game_no, tournament = scheduled
        roles = engine.deal(ruleset, n, secrets.randbits(64))
        seats = [SeatInfo(i + 1, uid, lobby.names.get(uid, str(uid))) for i, uid in enumerate(order)]
        started_at = time.time()
        table = self.new_table(guild, text_channel, lobby.voice_channel_id, lobby.creator_id)
        table.mute_spectators = lobby.mute_spectators  # the server's setting, before the first mute
        # The members in the channel go into the voice ledger with the game itself (one write, not
        # two, before the first mute: issue 20); which of them the opening mutes is the table's to say.
        hold = table.voice.first_holds(set(lobby.players), spectators=lobby.mute_spectators)
        game_id, held = await self.records.create_game(lobby, seed, seats, roles, started_at, hold)
        table.voice.held(held)
        kill_point("game_created")
        self.lobbies.pop(lobby.voice_channel_id, None)
        immune = await self.immunity.take(guild.id, ruleset, {s.seat: s.user_id for s in seats})
        table.session = GameSession(
            game_id=game_id,
            ruleset=ruleset,
            seats=seats,
            roles=roles,
            seed=seed,
            listener=self,
            immune=immune,
            pacing=await self.pacing.for_guild(guild.id),
        )
        table.session.language = lobby.game.language  # the server's when the lobby opened, to the end
        await self.seat(table)
        table.save_timers()
        await self.host_voice.join(table)
        if scheduled is not None:
            table.post(text(table.session.language, "table-seating-scheduled", name=tournament, game=game_no))
        table.post(seating_text(seats, table.session.language))
        async with table.session.lock:
            await self.show(table, table.session.opening_events)
            table.session.arm()
        table.mark_dealt()  # after the seating and the opening: a restart before it re-sends them
        table.start_keeping_time()
        if lobby.nicknames and guild.me is not None and guild.me.guild_permissions.manage_nicknames:
            table.number_nicknames()
        log.info("Game started with %d players", n, extra={"guild_id": guild.id, "game_id": game_id})
        return table

    async def stop(self, table: Table, reason: str) -> None:
        """A moderator stops the game: nobody wins, everyone is unmuted."""
        if not table.session.over:
            await self.submit(table, Abort(reason=reason))
            # (The end, queued by the submit, stores it too when it comes first: a busy bot's thread
            # pool can run its write before this one; either stores the same reason.)
            await self.records.abort(table.game_id, reason, if_running=True)
            kill_point("after_stop")
        await self._close(table)

    async def end(self, table: Table) -> None:
        """The engine ended the game: the game's file, the results stored, voice given back."""
        await table.send_record(game_record(table.session))
        if "aborted" in table.session.state.flags:
            # stop() stores the abort itself; this is for a stop the bot crashed in the middle of (or
            # one whose own write has not run yet), with the reason its command gave.
            last = table.session.log[-1] if table.session.log else None
            reason = last.reason if isinstance(last, Abort) else "stopped"
            await self.records.abort(table.game_id, reason, if_running=True)
        if await self.records.finish(table.session):
            for finish_hook in self.finish_hooks:
                await finish_hook(table)
        await self._close(table)

    async def _close(self, table: Table) -> None:
        """Give voice back and stop the table's timers and workers; what is queued is still sent."""
        if table.closed:
            return
        if self.tables.get(table.voice_channel_id) is table:
            del self.tables[table.voice_channel_id]
        self.closing.add(table)  # a stopping bot still lets its last lines go out (shutdown)
        try:
            await table.release()
        finally:
            table.after_sent_all(lambda: self.closing.discard(table))
        await self._save_pacing(table)

    async def _save_pacing(self, table: Table) -> None:
        try:
            await self.pacing.save(table.guild.id)
        except Exception:  # the lengths are a nicety: losing them must not keep a game from closing
            log.exception("Could not store the night pacing", extra={"guild_id": table.guild.id})

    async def _put_away(self, table: Table) -> None:
        """One table of a stopping bot: its clock stops now, the table is told once, what is queued is
        sent, and the time its step had left is stored for the next start."""
        await table.session.close()
        timers = table.timer_state()
        if not table.session.over:
            table.post(text(table.session.language, "table-restarting"))
        await table.shutdown()
        if not table.session.over:
            try:
                await self.records.save_timers(table.game_id, timers)
            except Exception:
                log.exception("Could not store the timers", extra={"game_id": table.game_id})
        await self._save_pacing(table)

    async def _let_closing_finish(self) -> None:
        """A game that ended just before the stop has left ``tables``, but its last lines (the result,
        the roles, the record) are still in its queue: they go out first, within a bound."""
        senders = [task for table in self.closing if (task := table.sending()) is not None]
        if senders:
            await asyncio.wait(senders, timeout=CLOSING_WAIT_SECONDS)

    async def shutdown(self) -> None:
        """The bot is closing: stop timers and workers without ending games; they resume on the next
        start, with the mutes they need (the voice controller reconciles them then)."""
        await self.reconciler.stop()
        await self.clocks.stop()  # each table's clock is stored stopped, below: no heartbeat counts
        tables = list(self.tables.values())
        self.tables.clear()
        await asyncio.gather(*(self._put_away(table) for table in tables), self._let_closing_finish())
        if self.records.group is not None:
            await self.records.group.close()  # (its thread ends with what it had to write committed)
        if self.storage is not None:
            self.storage.close()
