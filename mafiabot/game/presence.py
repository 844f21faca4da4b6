"""Who is in the games' voice channels: a living player who leaves is removed from the table after a
grace period (unless he comes back); a member the voice ledger owes is given his own state back when he
next connects (the reconciler)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

import engine
from mafiabot.game.reconciler import Reconciler
from mafiabot.game.table import Table
from mafiabot.game.tables import Tables

log = logging.getLogger(__name__)

# The game service's door: apply a command to a table's game.
Submit = Callable[[Table, engine.Command], Awaitable[list[engine.Event]]]


class Presence:
    def __init__(self, tables: Tables, reconciler: Reconciler, submit: Submit) -> None:
        self.tables = tables  # by voice channel id
        self.reconciler = reconciler
        self.submit = submit
        self.leave_grace = 60.0

    async def on_voice_state_update(
        self, member: discord.Member, before: discord.VoiceState, after: discord.VoiceState
    ) -> None:
        left_table, joined = self.observe(member, before, after)
        if left_table is not None:
            await left_table.voice.member_left(member)
        if joined:
            await self.reconciler.on_connect(member)  # Discord lets us edit him only now he is in voice

    @staticmethod
    def moved(before: discord.VoiceState, after: discord.VoiceState) -> bool:
        """Did the member join, leave or change channels (else his mute or the like changed)? Only such
        a change has anything to await (MafiaBot.dispatch observes the others without a task)."""
        return (before.channel.id if before.channel else None) != (
            after.channel.id if after.channel else None
        )

    def observe(
        self, member: discord.Member, before: discord.VoiceState, after: discord.VoiceState
    ) -> tuple[Table | None, bool]:
        """The bookkeeping of a voice-state change, with no await: the table he left (its leave timer
        started), and whether he joined a channel. discord.py runs each event's listener as its own task,
        so a quick leave-and-return must not see the return handled before the leave."""
        for table in self.tables.in_guild(member.guild.id):  # a dictionary lookup, not a walk of all
            table.voice.observed(member.id, after.mute)
        joined = after.channel is not None and self.moved(before, after)
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
        return left_table, joined

    def _start_leave_timer(self, table: Table, user_id: int) -> None:
        seat = table.session.seat_of(user_id)
        if seat is None or seat not in table.session.state.alive or table.session.over:
            return

        async def expire() -> None:
            await asyncio.sleep(self.leave_grace)
            table.leave_timers.pop(user_id, None)
            if seat in table.session.state.alive and not table.session.over:
                try:
                    await self.submit(table, engine.Remove(seat=seat, reason="left"))
                except engine.IllegalCommand:
                    log.info("Could not remove seat %s after leaving", seat, extra={"game_id": table.game_id})

        table.leave_timers[user_id] = asyncio.create_task(expire(), name=f"leave {user_id}")
