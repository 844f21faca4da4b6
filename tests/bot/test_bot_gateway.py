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


async def test_the_bot_is_sent_only_the_events_it_uses(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """Issue 18: every event Discord sends is parsed and dispatched. The bot asks (its IDENTIFY's intents)
    for servers, members, voice states and the servers' messages: a player typing, and the bot's own
    DMs coming back, send it nothing; a player's message in a server still reaches it (text fouls)."""
    session = fake.gateway.session
    assert session is not None
    player = club.players[0]
    await fake.typing(player, club.text)
    guild = bot.get_guild(club.id)
    assert guild is not None
    member = await guild.fetch_member(player.id)
    sent = await member.send("ваша роль: мирный")
    await fake.gateway.flush()
    assert session.dropped == {"TYPING_START": 1, "MESSAGE_CREATE": 1}
    assert not [p for p in session.backlog if p["t"] == "MESSAGE_CREATE" and p["d"]["id"] == str(sent.id)]

    heard = asyncio.create_task(bot.wait_for("message", check=lambda m: m.content == "я печатал"))
    await asyncio.sleep(0)
    await fake.say(player, club.text, "я печатал")
    assert (await asyncio.wait_for(heard, timeout=5)).author.id == player.id
