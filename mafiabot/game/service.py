"""The game service: every lobby and running table of the bot, their persistence and restarts.

It owns the locks (one per session), the timers (inside the sessions) and the storage calls; cogs
call its methods and render what they return.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

import engine
from engine.commands import Abort, Command, command_from_json
from mafiabot.errors import UserFacingError
from mafiabot.game.lobby import Lobby
from mafiabot.game.session import GameSession, SeatInfo
from mafiabot.game.table import Table

if TYPE_CHECKING:
    from mafiabot.bot import MafiaBot
    from mafiabot.storage import Storage

log = logging.getLogger(__name__)

REQUIRED_VOICE = ("connect", "speak", "mute_members", "move_members")
REQUIRED_TEXT = ("send_messages", "manage_threads")


class GameService:
    def __init__(self, bot: MafiaBot, storage: Storage | None) -> None:
        self.bot = bot
        self.storage = storage
        self.lobbies: dict[int, Lobby] = {}  # by voice channel id
        self.tables: dict[int, Table] = {}  # by voice channel id
        self._ids = 0
        self.mute_spectators = True
        self.leave_grace = 60.0
        self.voice_connect_timeout = 15.0
        self._pending: set[tuple[int, int]] = set()  # pending unmutes when there is no database
        self.announcer: Any = None
        # Cogs that follow every game: conduct records fouls as they happen, ratings rate finished games.
        self.event_hooks: list[Callable[[Table, list[engine.Event]], Awaitable[None]]] = []
        self.finish_hooks: list[Callable[[Table], Awaitable[None]]] = []
        self.restore_hooks: list[Callable[[Table], Awaitable[None]]] = []  # before a resumed table runs
        from mafiabot.game.immunity import ImmunityKeeper
        from mafiabot.game.pacing import PacingKeeper

        self.immunity = ImmunityKeeper(self)
        self.pacing = PacingKeeper(self)  # how long the steps of dead roles last (D-G8)

    # -- lookups ----------------------------------------------------------------------------------

    def table_by_id(self, game_id: int) -> Table | None:
        return next((t for t in self.tables.values() if t.game_id == game_id), None)

    def table_of_member(self, guild_id: int, user_id: int) -> Table | None:
        for table in self.tables.values():
            if table.guild.id == guild_id and table.session.seat_of(user_id) is not None:
                return table
        return None

    # -- lobby ------------------------------------------------------------------------------------

    def open_lobby(
        self,
        *,
        guild_id: int,
        text_channel_id: int,
        voice_channel_id: int,
        creator_id: int,
        creator_name: str,
        ruleset_id: str,
        options: tuple[str, ...],
        nicknames: bool = False,
    ) -> Lobby:
        if voice_channel_id in self.lobbies or voice_channel_id in self.tables:
            raise UserFacingError("В этом голосовом канале уже идёт набор или игра: одна игра на канал.")
        try:
            engine.load_ruleset(ruleset_id, options)
        except engine.RulesetError as exc:
            raise UserFacingError(f"Не получилось загрузить правила: {exc.message}.") from None
        lobby = Lobby(guild_id, text_channel_id, voice_channel_id, creator_id, ruleset_id, options)
        lobby.nicknames = nicknames
        lobby.players.append(creator_id)
        lobby.names[creator_id] = creator_name
        self.lobbies[voice_channel_id] = lobby
        return lobby

    def join(self, lobby: Lobby, member: discord.Member) -> None:
        if (
            member.voice is None
            or member.voice.channel is None
            or member.voice.channel.id != lobby.voice_channel_id
        ):
            raise UserFacingError(f"Чтобы играть, зайдите в голосовой канал <#{lobby.voice_channel_id}>.")
        if member.id in lobby.players:
            raise UserFacingError("Вы уже в списке игроков.")
        counts = lobby.counts()
        if counts and len(lobby.players) >= counts[-1]:
            raise UserFacingError(f"Мест нет: эти правила рассчитаны самое большее на {counts[-1]} игроков.")
        lobby.players.append(member.id)
        lobby.names[member.id] = member.display_name

    def leave(self, lobby: Lobby, user_id: int) -> None:
        if user_id not in lobby.players:
            raise UserFacingError("Вас нет в списке игроков.")
        lobby.players.remove(user_id)
        if not lobby.players:
            self.lobbies.pop(lobby.voice_channel_id, None)

    def missing_permissions(self, guild: discord.Guild, lobby: Lobby) -> list[str]:
        me = guild.me
        voice = guild.get_channel(lobby.voice_channel_id)
        text = guild.get_channel(lobby.text_channel_id)
        missing = []
        if voice is not None:
            perms = voice.permissions_for(me)
            missing += [p for p in REQUIRED_VOICE if not getattr(perms, p)]
        if text is not None:
            perms = text.permissions_for(me)
            missing += [p for p in REQUIRED_TEXT if not getattr(perms, p)]
        return missing

    def describe_lobby(self, lobby: Lobby, guild: discord.Guild) -> str:
        me = guild.me
        optional = [] if me is None or me.guild_permissions.manage_nicknames else ["manage_nicknames"]
        return lobby.describe(self.missing_permissions(guild, lobby), optional)

    def check_start(self, lobby: Lobby, guild: discord.Guild, by: int) -> None:
        """Everything that can stop a start, checked before anything happens."""
        if by != lobby.creator_id:
            raise UserFacingError("Начать игру может только тот, кто открыл набор.")
        ruleset = lobby.ruleset
        n = len(lobby.players)
        try:
            engine.composition(ruleset, n)
        except engine.IllegalCommand as exc:
            raise UserFacingError(str(exc)) from None
        missing = self.missing_permissions(guild, lobby)
        if missing:
            from mafiabot.errors import permission_names

            raise UserFacingError(f"Боту не хватает прав: {permission_names(missing)}.")

    async def start(self, lobby: Lobby, guild: discord.Guild, by: int) -> Table:
        self.check_start(lobby, guild, by)
        ruleset = lobby.ruleset
        n = len(lobby.players)
        text_channel = guild.get_channel(lobby.text_channel_id)
        assert isinstance(text_channel, discord.abc.Messageable)
        seed = secrets.randbits(31)
        order = list(lobby.players)
        secrets.SystemRandom().shuffle(order)  # seats are shuffled and announced (D-G9)
        roles = engine.deal(ruleset, n, seed)
        seats = [SeatInfo(i + 1, uid, lobby.names.get(uid, str(uid))) for i, uid in enumerate(order)]
        started_at = time.time()
        game_id = await self._create_game_record(lobby, seed, seats, roles, started_at)
        self.lobbies.pop(lobby.voice_channel_id, None)
        table = Table(self, guild, text_channel, lobby.voice_channel_id, lobby.creator_id)
        immune = await self.immunity.take(guild.id, ruleset, {s.seat: s.user_id for s in seats})
        table.session = GameSession(
            game_id=game_id,
            ruleset=ruleset,
            seats=seats,
            roles=roles,
            seed=seed,
            listener=table,
            immune=immune,
            pacing=await self.pacing.for_guild(guild.id),
        )
        self.tables[lobby.voice_channel_id] = table
        table.start_workers()
        table.save_timers()
        await self._join_voice(table, guild, lobby.voice_channel_id)
        seating = "\n".join(f"№{s.seat} — <@{s.user_id}>" for s in seats)
        table.post(f"**Рассадка**\n{seating}\nРоли розданы: нажмите «Моя роль», копия — в личных сообщениях.")
        await table.session.start()
        if lobby.nicknames and guild.me is not None and guild.me.guild_permissions.manage_nicknames:
            table.number_nicknames()
        log.info("Game started with %d players", n, extra={"guild_id": guild.id, "game_id": game_id})
        return table

    def _announcer(self) -> Any:
        """The bot's one Announcer (TTS engine + clip cache), made on first use."""
        if self.__dict__.get("announcer") is None:
            from audio.announcer import Announcer
            from audio.cache import ClipCache
            from audio.cli import default_cache_dir
            from audio.engines import make_engine

            audio_settings = self.bot.settings.audio
            cache = ClipCache(audio_settings.cache_dir or default_cache_dir())
            self.announcer = Announcer(make_engine(audio_settings.engine), cache)
        return self.announcer

    async def _join_voice(self, table: Table, guild: discord.Guild, voice_channel_id: int) -> None:
        """The host speaks in the game channel; without voice the game goes on in text (and says why)."""
        from mafiabot.game.speaker import Speaker

        volume = self.bot.settings.audio.volume
        if self.storage is not None:
            storage = self.storage
            settings = await asyncio.to_thread(storage.guild_settings, guild.id)
            if not settings.audio_enabled:
                return
            volume = settings.volume
        channel = guild.get_channel(voice_channel_id)
        if not isinstance(channel, discord.VoiceChannel | discord.StageChannel):
            return
        speaker = Speaker(self._announcer(), game_id=table.game_id, volume=volume)
        if await speaker.connect(channel, timeout=self.voice_connect_timeout):
            table.speaker = speaker
        else:
            await speaker.close()
            why = speaker.failure
            table.post(
                f"🔇 Не удалось подключиться к голосовому каналу ({why}): ведущий будет писать текстом."
            )

    async def _create_game_record(
        self, lobby: Lobby, seed: int, seats: list[SeatInfo], roles: list[str], started_at: float
    ) -> int:
        if self.storage is None:
            self._ids += 1
            return self._ids
        from mafiabot.storage import SeatAssignment

        storage = self.storage
        ruleset = lobby.ruleset

        def create() -> int:
            game = storage.create_game(
                guild_id=lobby.guild_id,
                voice_channel_id=lobby.voice_channel_id,
                text_channel_id=lobby.text_channel_id,
                ruleset_id=lobby.ruleset_id,
                seed=seed,
                options={o: True for o in lobby.options},
                at=datetime.fromtimestamp(started_at, UTC),
            )
            assert game.id is not None
            storage.set_participants(
                game.id,
                [
                    SeatAssignment(
                        seat=s.seat,
                        user_id=s.user_id,
                        display_name=s.name,
                        role_id=roles[s.seat - 1],
                        side_id=ruleset.roles[roles[s.seat - 1]].side,
                    )
                    for s in seats
                ],
            )
            return game.id

        return await asyncio.to_thread(create)

    # -- commands ---------------------------------------------------------------------------------

    async def submit(
        self, table: Table, command: Command, *, serial: int | None = None
    ) -> list[engine.Event]:
        return await table.session.submit(command, serial=serial)

    async def save_timers(self, table: Table) -> None:
        """Store what a restart needs beyond the command log: the clock, the creator, voice originals."""
        if self.storage is not None:
            storage = self.storage
            await asyncio.to_thread(storage.set_timers, table.game_id, table.timer_state())

    def pause(self, table: Table) -> None:
        table.session.pause()
        table.refresh_panel()
        table.save_timers()

    def resume(self, table: Table) -> None:
        table.session.resume()
        table.refresh_panel()
        table.save_timers()

    def extend(self, table: Table, seconds: float) -> None:
        table.session.extend(seconds)
        table.refresh_panel()
        table.save_timers()

    async def persist_command(self, game_id: int, command: Command) -> None:
        if self.storage is not None:
            storage = self.storage
            await asyncio.to_thread(storage.append_command, game_id, command.to_json())

    async def stop(self, table: Table, reason: str) -> None:
        """A moderator stops the game: nobody wins, everyone is unmuted."""
        if not table.session.over:
            await table.session.submit(Abort(reason=reason))
            if self.storage is not None:
                storage = self.storage
                await asyncio.to_thread(storage.abort_game, table.game_id, reason)
        await self._close(table)

    async def finished(self, table: Table) -> None:
        """The engine ended the game: store the results, give voice back, close the table."""
        s = table.session.state
        if self.storage is not None and "aborted" not in s.flags:
            from mafiabot.storage import SeatResult

            storage = self.storage
            # The engine counts fouls as its rules need them (city: by the day, D-F1); the game's total
            # is what the fouls table holds (withdrawn ones left out), when the conduct cog keeps it.
            rows = await asyncio.to_thread(storage.fouls, table.game_id)
            recorded = Counter(row.seat for row in rows)
            winners = list(s.winners or ())
            results = []
            for info in table.session.seats:
                side = s.ruleset.roles[s.role_of(info.seat)].side
                won = side in winners or (
                    s.role_of(info.seat) == "maniac" and "maniac_town" in s.flags and "town" in winners
                )
                result = "draw" if s.draw else ("win" if won else "loss")
                fouls = max(recorded[info.seat], s.fouls_of(info.seat))
                results.append(SeatResult(seat=info.seat, result=result, fouls=fouls))
            await asyncio.to_thread(storage.finish_game, table.game_id, winners=winners, results=results)
            for finish_hook in self.finish_hooks:
                await finish_hook(table)
        await self._close(table)

    async def _close(self, table: Table) -> None:
        """Give voice back and stop the table's timers and workers; what is queued is still sent."""
        if table.closed:
            return
        table.closed = True
        if self.tables.get(table.voice_channel_id) is table:
            del self.tables[table.voice_channel_id]
        for task in table.leave_timers.values():
            task.cancel()
        table.restore_nicknames()
        await table.voice.release()
        await table.session.close()
        await self._save_pacing(table)
        if table.speaker is not None:
            await table.speaker.queue.drain()  # the last lines (the winners) are still heard
            await table.speaker.close()
        table.stop_sending()

    async def _save_pacing(self, table: Table) -> None:
        try:
            await self.pacing.save(table.guild.id)
        except Exception:  # the lengths are a nicety: losing them must not keep a game from closing
            log.exception("Could not store the night pacing", extra={"guild_id": table.guild.id})

    def record_of(self, table: Table) -> dict[str, Any]:
        s = table.session
        return {
            "ruleset": s.ruleset.id,
            "options": {o: True for o in s.ruleset.selected_options},
            "seed": s.seed,
            "seats": list(s.roles),
            "players": [{"seat": i.seat, "user_id": str(i.user_id), "name": i.name} for i in s.seats],
            "commands": [c.to_json() for c in s.log],
        }

    # -- voice events -----------------------------------------------------------------------------

    async def remember_pending_unmute(self, guild_id: int, user_id: int) -> None:
        if self.storage is not None:
            storage = self.storage
            await asyncio.to_thread(storage.add_pending_unmute, guild_id, user_id)
        else:
            self._pending.add((guild_id, user_id))

    async def on_voice_state_update(
        self, member: discord.Member, before: discord.VoiceState, after: discord.VoiceState
    ) -> None:
        # Bookkeeping first, with no await in between: discord.py runs each event's listener as its own
        # task, so a quick leave-and-return must not see the return handled before the leave.
        for table in self.tables.values():
            if table.guild.id == member.guild.id:
                table.voice.observed(member.id)
        joined = after.channel is not None and (
            before.channel is None or before.channel.id != after.channel.id
        )
        left_table = None
        if before.channel is not None and (after.channel is None or after.channel.id != before.channel.id):
            left_table = self.tables.get(before.channel.id)
            if left_table is not None:
                self._start_leave_timer(left_table, member.id)
        joined_table = self.tables.get(after.channel.id) if after.channel is not None else None
        if joined_table is not None:
            task = joined_table.leave_timers.pop(member.id, None)
            if task is not None:
                task.cancel()
        if left_table is not None:
            await left_table.voice.member_left(member)
        if joined:
            await self._unmute_if_pending(member)

    async def _unmute_if_pending(self, member: discord.Member) -> None:
        key = (member.guild.id, member.id)
        pending = False
        if self.storage is not None:
            storage = self.storage
            pending = await asyncio.to_thread(storage.pop_pending_unmute, member.guild.id, member.id)
        elif key in self._pending:
            self._pending.discard(key)
            pending = True
        if pending and member.voice is not None and member.voice.mute:
            table = self.tables.get(member.voice.channel.id) if member.voice.channel else None
            if table is None:
                await member.edit(mute=False, reason="Мафия: снимаем заглушение после игры")

    def _start_leave_timer(self, table: Table, user_id: int) -> None:
        seat = table.session.seat_of(user_id)
        if seat is None or seat not in table.session.state.alive or table.session.over:
            return

        async def expire() -> None:
            await asyncio.sleep(self.leave_grace)
            table.leave_timers.pop(user_id, None)
            if seat in table.session.state.alive and not table.session.over:
                try:
                    await table.session.submit(engine.Remove(seat=seat, reason="left"))
                except engine.IllegalCommand:
                    log.info("Could not remove seat %s after leaving", seat, extra={"game_id": table.game_id})

        table.leave_timers[user_id] = asyncio.create_task(expire(), name=f"leave {user_id}")

    # -- restart ----------------------------------------------------------------------------------

    async def restore(self) -> None:
        """Resume every running game stored for the guilds the bot is in, at the step it was in."""
        if self.storage is None:
            return
        storage = self.storage
        games = await asyncio.to_thread(storage.running_games)
        for game in games:
            try:
                await self._restore_one(game)
            except Exception:
                log.exception(
                    "Could not resume a game", extra={"game_id": game.id, "guild_id": game.guild_id}
                )

    async def _restore_one(self, game: Any) -> None:
        assert self.storage is not None
        storage = self.storage
        guild = self.bot.get_guild(game.guild_id)
        if guild is None:
            return
        participants = await asyncio.to_thread(storage.participants, game.id)
        log_rows = await asyncio.to_thread(storage.command_log, game.id)
        commands = [command_from_json(row) for row in log_rows]
        ruleset = engine.load_ruleset(game.ruleset_id, game.options or {})
        seats = []
        for p in participants:
            member = guild.get_member(p.user_id)
            seats.append(SeatInfo(p.seat, p.user_id, member.display_name if member else str(p.user_id)))
        roles = [p.role_id for p in participants]
        text_channel = guild.get_channel(game.text_channel_id)
        if not isinstance(text_channel, discord.abc.Messageable):
            return
        timers = game.timers or {}
        original = {int(uid): bool(muted) for uid, muted in (timers.get("voice_original") or {}).items()}
        table = Table(
            self, guild, text_channel, game.voice_channel_id, int(timers.get("creator_id", 0)), original
        )
        table.nick_original = {int(uid): nick for uid, nick in (timers.get("nicknames") or {}).items()}
        table.session = GameSession(
            game_id=game.id,
            ruleset=ruleset,
            seats=seats,
            roles=roles,
            seed=game.seed,
            listener=table,
            commands=commands,
            immune=[int(x) for x in timers.get("immune", [])],
            pacing=await self.pacing.for_guild(guild.id),
        )
        table.session.restore_clock(timers)
        for restore_hook in self.restore_hooks:
            await restore_hook(table)
        self.tables[game.voice_channel_id] = table
        table.start_workers()
        await self._join_voice(table, guild, game.voice_channel_id)
        table.post("Бот перезапущен: игра продолжается с того же места.")
        table.refresh_panel()
        table.session._arm()
        log.info("Game resumed", extra={"guild_id": guild.id, "game_id": game.id})

    async def shutdown(self) -> None:
        """The bot is closing: stop timers and workers without ending games; they resume on the next
        start, with the mutes they need (the voice controller reconciles them then)."""
        for table in list(self.tables.values()):
            await table.shutdown()
            await self.save_timers(table)
            await self._save_pacing(table)
        self.tables.clear()
        if self.storage is not None:
            self.storage.close()
