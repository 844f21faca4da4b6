"""After a restart: every stored lobby of the guilds the bot is in opens again, and every running game
resumes at the step it was in, with the time it had left, the mutes it needs and the cogs' own memory of
it (the restore hooks); a game whose log is over (status ``over``) is closed."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import discord

from engine.commands import command_from_json
from mafiabot.game.clock import at_restart
from mafiabot.game.server_settings import server_settings
from mafiabot.game.service import GameService, seating_text
from mafiabot.game.session import GameSession, SeatInfo
from mafiabot.i18n import text
from mafiabot.presets import load_ruleset

log = logging.getLogger(__name__)


async def restore(games: GameService) -> None:
    """Resume the stored games, then let the reconciler give back what the voice ledger owes from before
    the restart (a game's members are its table's from now on) and keep at it every round."""
    if games.storage is not None:
        try:
            opened = await games.lobbies.reopen(games.client, games.settings.game)
        except Exception:
            log.exception("Could not reopen the stored lobbies")
        else:
            log.info("Reopened %d lobby(ies)", opened)
            for lobby in list(games.lobbies.values()):
                for reopen_hook in games.reopen_hooks:
                    try:
                        await reopen_hook(lobby)
                    except Exception:  # its message stays as it was; the lobby itself is open
                        log.exception("A reopened lobby's hook failed", extra={"guild_id": lobby.guild_id})
        stored = await asyncio.to_thread(games.storage.running_games)
        # Every process's last heartbeat: a running step's time left is its anchor's less the time
        # from the anchor to its process's last heartbeat (mafiabot/game/clock.py).
        beats = await asyncio.to_thread(games.storage.clock_beats)
        # One database, several processes (shards): each resumes only the games of its own servers.
        for game in [g for g in stored if games.settings.owns(g.guild_id)]:
            try:
                await _restore_one(games, game, beats)
            except Exception:
                log.exception(
                    "Could not resume a game", extra={"game_id": game.id, "guild_id": game.guild_id}
                )
        # The heartbeats no running game's clock names (those of processes long gone) are not kept.
        named = {str(beat) for g in stored if (beat := (g.timers or {}).get("beat")) is not None}
        try:
            await asyncio.to_thread(games.storage.forget_beats, named | {games.clocks.key})
        except Exception:
            log.warning("Could not forget the old heartbeats", exc_info=True)
    try:
        await games.reconciler.settle()
    except Exception:  # the database or Discord is down: the periodic round tries again
        if not games.reconciler.stopped:  # (a bot closing during its start cuts the round short)
            log.exception("Giving back what the voice ledger owes failed at start")
    games.reconciler.start()
    log.info("Restored %d running game(s)", len(games.tables))  # the crash harness waits for this line


async def _restore_one(games: GameService, game: Any, beats: dict[str, float]) -> None:
    storage = games.storage
    assert storage is not None
    guild = games.client.get_guild(game.guild_id)
    if guild is None:
        return
    participants = await asyncio.to_thread(storage.participants, game.id)
    names = await asyncio.to_thread(storage.seat_names, game.id)  # a member not cached keeps his name
    log_rows = await asyncio.to_thread(storage.command_log, game.id)
    commands = [command_from_json(row) for row in log_rows]
    server = await server_settings(storage, game.guild_id)
    ruleset = load_ruleset(game.ruleset_id, game.options or {}, server.game(games.settings.game))
    # The clock as it was when the last process stopped: what a running step had at its last heartbeat.
    timers = at_restart(game.timers or {}, beats)
    if kept := {k: v for k, v in (timers.get("timers") or {}).items() if k in ruleset.timers}:
        # The game's timers as the server's settings made them at its start (a moderator may have
        # changed the server's since: that is for the next game); stored before this: the server's now.
        ruleset = dataclasses.replace(ruleset, timers={**ruleset.timers, **kept})
    seats = []
    for p in participants:
        member = guild.get_member(p.user_id)
        name = member.display_name if member else names.get(p.seat, str(p.user_id))
        seats.append(SeatInfo(p.seat, p.user_id, name))
    roles = [p.role_id for p in participants]
    text_channel = guild.get_channel(game.text_channel_id)
    if not isinstance(text_channel, discord.abc.Messageable):
        return
    original = {int(uid): bool(muted) for uid, muted in (timers.get("voice_original") or {}).items()}
    table = games.new_table(
        guild, text_channel, game.voice_channel_id, int(timers.get("creator_id", 0)), original
    )
    table.mute_spectators = bool(timers.get("mute_spectators", server.mute_spectators))
    table.nick_original = {int(uid): nick for uid, nick in (timers.get("nicknames") or {}).items()}
    # Games stored before this flag existed had been dealt if they had stored a clock at all.
    table.dealt = bool(timers.get("dealt", "serial" in timers))
    table.held_clock = {
        k: timers[k] for k in ("serial", "left", "paused", "running", "immune", "stored_at") if k in timers
    }
    table.session = GameSession(
        game_id=game.id,
        ruleset=ruleset,
        seats=seats,
        roles=roles,
        seed=game.seed,
        listener=games,
        commands=commands,
        immune=[int(x) for x in timers.get("immune", [])],
        pacing=await games.pacing.for_guild(guild.id),
    )
    # The game's own language, stored with its clock; a game stored before it was: the server's now.
    table.session.language = str(timers.get("language") or server.game(games.settings.game).language)
    for restore_hook in games.restore_hooks:
        await restore_hook(table)
    await games.seat(table)
    if table.session.over:
        # The last command was stored, the end was not: close the game now (results, ratings, the
        # table's voice given back) rather than resume a game that is already over.
        table.post(text(table.session.language, "table-ended-while-down"))
        games.game_over(table)
        log.info("Game closed on restore", extra={"guild_id": guild.id, "game_id": game.id})
        return
    await games.host_voice.join(table)
    table.post(text(table.session.language, "table-restarted"))
    if not table.dealt:  # the bot went down between storing the game and posting its deal
        table.post(seating_text(seats, table.session.language))
        async with table.session.lock:
            await games.show(table, table.session.opening_events)
        table.mark_dealt()
    # The step's clock starts again only now: joining voice took time the step must not lose.
    table.session.restore_clock(timers)
    table.refresh_panel()
    table.session.arm()
    table.save_timers()
    table.start_keeping_time()
    log.info("Game resumed", extra={"guild_id": guild.id, "game_id": game.id})
