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


async def test_own_messages_are_not_parsed_unless_someone_waits_for_one(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The bot's own messages (every line, panel and answer) come back as MESSAGE_CREATE: discord.py
    would build the whole message for listeners that ignore it, so it is not parsed (issue 18), but the
    channel's last message is kept as discord.py keeps it; while a wait_for("message") waits it is."""
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    before = bot.own_messages_unread
    sent = await channel.send("без ожидания")
    await fake.gateway.flush()
    assert bot.own_messages_unread == before + 1
    assert channel.last_message_id == sent.id
    waited = asyncio.create_task(bot.wait_for("message", check=lambda m: m.content == "с ожиданием"))
    await asyncio.sleep(0)
    await channel.send("с ожиданием")
    assert (await asyncio.wait_for(waited, timeout=5)).author.id == bot.user.id  # type: ignore[union-attr]
    assert bot.own_messages_unread == before + 1
    await fake.say(club.players[0], club.text, "от игрока")  # a member's message is parsed as ever
    await fake.gateway.flush()
    assert bot.own_messages_unread == before + 1 and channel.last_message_id != sent.id


async def test_events_nobody_hears_stop_at_the_bot_and_whoever_listens_hears_them(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """discord.py dispatches `socket_event_type` with every gateway event; nothing in the bot hears it,
    so the bot's dispatch drops it before discord.py's chain (issue 18); a listener, an `on_` handler set
    with `@bot.event` and a `wait_for` each still hear it."""
    before = bot.unheard_events
    await fake.say(club.players[0], club.text, "раз")
    await fake.gateway.flush()
    assert bot.unheard_events > before
    heard: list[str] = []

    async def listener(event_type: str) -> None:
        heard.append(f"listener {event_type}")

    async def on_socket_event_type(event_type: str) -> None:
        heard.append(f"handler {event_type}")

    bot.add_listener(listener, "on_socket_event_type")
    bot.event(on_socket_event_type)
    try:
        waited = asyncio.create_task(bot.wait_for("socket_event_type", check=lambda t: t == "MESSAGE_CREATE"))
        await asyncio.sleep(0)
        await fake.say(club.players[0], club.text, "два")
        await fake.gateway.flush()
        assert await asyncio.wait_for(waited, timeout=5) == "MESSAGE_CREATE"
        await asyncio.sleep(0.05)  # the listeners' tasks have run
        assert {"listener MESSAGE_CREATE", "handler MESSAGE_CREATE"} <= set(heard)
    finally:
        bot.remove_listener(listener, "on_socket_event_type")
        del bot.on_socket_event_type  # type: ignore[attr-defined]
