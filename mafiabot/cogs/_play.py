"""What every game-action handler shares: who clicked, is the click current, and the reply."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

import engine
from mafiabot.errors import reply_ephemeral
from mafiabot.game.actions import Handler
from mafiabot.game.table import Table

log = logging.getLogger(__name__)


def seat_of(interaction: discord.Interaction[Any], table: Table) -> int | None:
    return table.session.seat_of(interaction.user.id)


async def require_seat(interaction: discord.Interaction[Any], table: Table) -> int | None:
    seat = seat_of(interaction, table)
    if seat is None:
        await reply_ephemeral(interaction, "Вы не играете в этой партии.")
    return seat


# Discord fails an interaction that is not answered within 3 s. A click is answered once its command is
# applied and stored; if that takes longer (a busy table, a slow database), the click is acknowledged
# first («думает…») and answered in its place when done.
ACK_AFTER = 2.0


async def _acknowledge_later(interaction: discord.Interaction[Any], started: asyncio.Event) -> None:
    await asyncio.sleep(ACK_AFTER)
    started.set()
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def submit(
    interaction: discord.Interaction[Any], table: Table, command: engine.Command, serial: int, ok: str
) -> bool:
    """Submit one command for the clicking player and answer them privately. A refusal (the engine's,
    a stale button) propagates to the component's error handler, which answers it."""
    started = asyncio.Event()
    guard = asyncio.create_task(_acknowledge_later(interaction, started))
    try:
        events = await interaction.client.games.submit(table, command, serial=serial)
    finally:
        await _settle(guard, started)
    # D-F2: a self-nomination, self-vote or second vote the preset refuses with a foul is no error.
    refused = next((e for e in events if e.type == "refused"), None)
    if refused is not None:
        await reply_ephemeral(interaction, f"{refused.get('message')} Вам замечание.")
        return False
    await reply_ephemeral(interaction, ok)
    return True


async def _settle(guard: asyncio.Task[None], started: asyncio.Event) -> None:
    """Stop the acknowledgement if it has not begun; if it has, let it finish (the answer follows it)."""
    if not started.is_set():
        guard.cancel()
    try:
        await guard
    except asyncio.CancelledError:
        pass
    except discord.HTTPException:  # the acknowledgement failed: the answer that follows says the rest
        log.warning("Acknowledging a click failed", exc_info=True)


Build = Callable[[int, str, list[str]], tuple[engine.Command, str]]


def player_action(build: Build) -> Handler:
    """A handler for a player's click: it resolves the seat, builds one command from the click
    (``build(seat, arg, values)`` gives the command and the private reply) and submits it."""

    async def handler(
        interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
    ) -> None:
        seat = await require_seat(interaction, table)
        if seat is not None:
            command, ok = build(seat, arg, values)
            await submit(interaction, table, command, serial, ok)

    return handler


def first_int(values: list[str]) -> int:
    return int(values[0]) if values else 0
