"""What every game-action handler shares: who clicked, is the click current, and the reply."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

import engine
from mafiabot.errors import expired, note_expired, reply_ephemeral
from mafiabot.game.actions import Handler
from mafiabot.game.table import ALONGSIDE, CARRIED, EXPIRED, PanelClick, Table
from mafiabot.i18n import DEFAULT, text

log = logging.getLogger(__name__)


def seat_of(interaction: discord.Interaction[Any], table: Table) -> int | None:
    return table.session.seat_of(interaction.user.id)


async def require_seat(interaction: discord.Interaction[Any], table: Table) -> int | None:
    seat = seat_of(interaction, table)
    if seat is None:
        await reply_ephemeral(interaction, text(table.session.language, "error-not-playing"))
    return seat


# Discord fails an interaction that is not answered within 3 s. A click is answered once its command is
# applied and stored; if that takes longer (a busy table, a slow database), the click is acknowledged
# first («думает…») and answered in its place when done.
ACK_AFTER = 2.0
DEADLINE = 3.0  # Discord's, from the click


class _LateAcknowledgement:
    """Acknowledges a click that is still not answered when it is ``ACK_AFTER`` old. A timer, not a task:
    nearly every click is answered well before, and a task per click (created, scheduled, cancelled) was
    a measurable part of a click's CPU with a thousand tables (issue 18). A click on the panel is
    acknowledged as an update to come (DEFERRED_UPDATE_MESSAGE): the panel's change may still answer it
    (by editing @original, or as the panel's own edit when it is ready while the acknowledgement is
    under way), and otherwise a private followup does. Neither waits for the other: whichever is under
    way first is the click's acknowledgement."""

    def __init__(self, interaction: discord.Interaction[Any], click: PanelClick | None = None) -> None:
        self.interaction = interaction
        self.click = click
        self.task: asyncio.Task[None] | None = None
        # Discord's 3 s run from the click (its id's time, on Discord's clock), not from when the bot took
        # it: a click that waited in a busy bot (a burst of every table at once) is acknowledged that much
        # sooner, at once if it is already ACK_AFTER old. Never later than ACK_AFTER from now, as before:
        # so too where the click looks past Discord's 3 s already (a clock far ahead of Discord's must not
        # cost the acknowledgement; a click that is really that late is expired either way).
        age = time.time() - interaction.created_at.timestamp()
        delay = ACK_AFTER if age >= DEADLINE else min(ACK_AFTER, max(0.0, ACK_AFTER - age))
        self.timer = asyncio.get_running_loop().call_later(delay, self._start)

    def _start(self) -> None:
        if not self.interaction.response.is_done():
            self.task = asyncio.create_task(self._defer(), name="acknowledging a slow click")

    async def _defer(self) -> None:
        if self.click is None:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer(ephemeral=True, thinking=True)
            return
        if self.click.lock.locked():
            # The panel's change is under way as the click's answer: that is its acknowledgement, and
            # one sent behind it, after its answer came, would come later still (issue 18).
            return
        async with self.click.lock:  # (free: taken at once) the panel's change does not wait for it
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()

    async def settle(self) -> bool:
        """Stop the acknowledgement if it has not begun; if it has, let it finish (the answer follows).
        False when it came too late (noted)."""
        self.timer.cancel()
        task, self.task = self.task, None
        if task is None:
            return True
        try:
            await task
        except discord.HTTPException as error:  # it failed: the answer that follows says the rest
            if expired(error):  # the loop was so late that even the acknowledgement came after 3 s
                note_expired(self.interaction)
                return False
            log.warning("Acknowledging a click failed", exc_info=True)
        return True


# A click's answer: a catalogue key, or a key with its arguments (``("answer-voted", {"seat": 3})``).
Reply = str | tuple[str, dict[str, Any]]


def reply_text(language: str, ok: Reply) -> str:
    key, args = (ok, {}) if isinstance(ok, str) else ok
    return text(language, key, **args)


async def submit(
    interaction: discord.Interaction[Any], table: Table, command: engine.Command, serial: int, ok: Reply
) -> bool:
    """Submit one command for the clicking player and answer them: a click on the panel whose command
    changes it by the panel's change itself (one request, issue 18), any other privately. A refusal
    (the engine's, a stale button) propagates to the component's error handler, which answers it."""
    click = PanelClick(interaction) if table.is_panel(interaction.message) else None
    guard = _LateAcknowledgement(interaction, click)
    try:
        events = await interaction.client.games.submit(table, command, serial=serial)
        # D-F2: a self-nomination, self-vote or second vote the preset refuses with a foul is no error.
        refused = next((e for e in events if e.type == "refused"), None)
        # (no await between the command's refresh of the panel and this: the refresh is still queued)
        if refused is None and click is not None and table.carry_answer(click):
            outcome = await click.outcome
            if outcome == CARRIED:
                return True
            if outcome == EXPIRED:
                note_expired(interaction)
                return True
            # The panel's change went as its own edit while «думает…» was under way: once that is in,
            # nothing is left to answer (or, too late, nothing can be).
            if outcome == ALONGSIDE and (not await guard.settle() or interaction.response.is_done()):
                return True
    finally:
        await guard.settle()
    if refused is not None:
        language = table.session.language
        if language == DEFAULT:
            answer = text(language, "answer-refused-foul", message=refused.get("message"))
        else:  # the engine's sentence is Russian: the refusal's kind in the server's language
            answer = text(language, "answer-refused-foul-plain")
        await reply_ephemeral(interaction, answer)
        return False
    await reply_ephemeral(interaction, reply_text(table.session.language, ok))
    return True


Build = Callable[[int, str, list[str]], tuple[engine.Command, Reply]]


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
    """The one seat a single-choice select sent. Discord sends exactly one value for such a select: any
    other count (or a value that is no number) is a forged or damaged click, refused by the game service
    with a line for the player (it answers a ValueError so) and changing nothing."""
    if len(values) != 1:
        raise ValueError(f"a single-choice select sent {len(values)} values")
    return int(values[0])
