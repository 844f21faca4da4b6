"""Gateway life: a RECONNECT is resumed (not re-identified) and events sent meanwhile are replayed."""

from __future__ import annotations

import asyncio

import discord
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


async def test_reconnect_is_resumed_and_missed_events_replayed(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    heard = asyncio.create_task(bot.wait_for("message", check=lambda m: m.content == "пока вас не было"))
    first_session = fake.gateway.session

    fake.gateway.request_reconnect()
    # Sent while the bot is reconnecting; `say` returns once the bot has resumed and processed it.
    await fake.say(player, club.text, "пока вас не было")
    assert fake.gateway.resumes == 1

    message: discord.Message = await asyncio.wait_for(heard, timeout=5)
    assert message.author.id == player.id
    assert fake.gateway.identifies == 1
    assert fake.gateway.session is first_session
    answer = await fake.slash(player, "mafia help", channel=club.text)  # and it still works
    assert answer.ephemeral


async def test_heartbeats_are_acknowledged(bot: MafiaBot, fake: FakeDiscord) -> None:
    # discord.py heartbeats as soon as it gets HELLO, then on its own thread; a missing ACK would make
    # it reconnect. `flush` asks for one more heartbeat, which also proves events are processed in order.
    before = fake.gateway.heartbeats
    await fake.gateway.flush()
    assert fake.gateway.heartbeats > before >= 1
    assert bot.latency < float("inf")
