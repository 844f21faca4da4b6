"""The bot's own messages come back as MESSAGE_CREATE: they reach no on_message listener (issue 18: two
tasks per message for listeners that ignore a bot), but while a wait_for("message") waits they are
dispatched as discord.py does (it hears them, and so do the listeners); a member's message always
reaches the listeners."""

from __future__ import annotations

import asyncio

import discord
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


async def test_own_messages_skip_the_listeners_but_not_wait_for(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    heard: list[discord.Message] = []

    async def listener(message: discord.Message) -> None:
        heard.append(message)

    bot.add_listener(listener, "on_message")
    try:
        channel = bot.get_channel(club.text.id)
        assert isinstance(channel, discord.TextChannel)
        waited = asyncio.create_task(bot.wait_for("message", check=lambda m: m.content == "с ожиданием"))
        await asyncio.sleep(0)
        await channel.send("с ожиданием")
        assert (await asyncio.wait_for(waited, timeout=5)).author.id == bot.user.id  # type: ignore[union-attr]
        await channel.send("без ожидания")
        await fake.say(club.players[0], club.text, "от игрока")
        await fake.gateway.flush()  # every event so far is processed
        await asyncio.sleep(0.05)  # and the listeners' tasks have run
        assert [m.content for m in heard] == ["с ожиданием", "от игрока"]  # not «без ожидания»
    finally:
        bot.remove_listener(listener, "on_message")


async def test_own_edits_are_not_parsed_unless_someone_listens(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The bot's own edits (the panel's, at every click) come back as MESSAGE_UPDATE: discord.py would
    build the whole message for edit listeners the bot does not have, so it is not parsed (issue 18);
    while a wait_for("raw_message_edit") waits it is, as discord.py does."""
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("первое")
    before = bot.own_edits_unread
    await sent.edit(content="второе")
    await fake.gateway.flush()
    assert bot.own_edits_unread == before + 1
    waited = asyncio.create_task(bot.wait_for("raw_message_edit", check=lambda e: e.message_id == sent.id))
    await asyncio.sleep(0)
    await sent.edit(content="третье")
    edit: discord.RawMessageUpdateEvent = await asyncio.wait_for(waited, timeout=5)
    assert edit.message.content == "третье" and edit.message.author.id == bot.user.id  # type: ignore[union-attr]
    assert bot.own_edits_unread == before + 1
