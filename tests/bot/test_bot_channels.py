"""Channels with permission overwrites, private threads, and members coming and going."""

from __future__ import annotations

import discord
import pytest
from fakediscord import ChannelType, Club, FakeDiscord
from fakediscord import permissions as perms

from mafiabot.bot import MafiaBot


def guild_of(bot: MafiaBot, club: Club) -> discord.Guild:
    guild = bot.get_guild(club.id)
    assert guild is not None
    return guild


async def test_private_channel_with_overwrites_and_a_private_thread(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    guild = guild_of(bot, club)
    await guild.chunk()  # the bot knows only members in voice until it asks (no chunking at start)
    don = guild.get_member(club.players[0].id)
    assert don is not None and guild.me is not None
    hidden = discord.PermissionOverwrite(view_channel=False)
    allowed = discord.PermissionOverwrite(view_channel=True, send_messages=True)
    channel = await guild.create_text_channel(
        "мафия-ночь", overwrites={guild.default_role: hidden, don: allowed, guild.me: allowed}
    )

    stored = fake.world.channels[channel.id]
    by_id = {ow.id: ow for ow in stored.overwrites}
    assert by_id[club.id].deny == perms.VIEW_CHANNEL
    assert by_id[don.id].allow == perms.VIEW_CHANNEL | perms.SEND_MESSAGES
    # Discord answers with strings; discord.py read them back into the same overwrites.
    assert channel.overwrites_for(don) == allowed and channel.overwrites_for(guild.default_role) == hidden

    thread = await channel.create_thread(
        name="ночной чат", type=discord.ChannelType.private_thread, invitable=False
    )
    await thread.add_user(don)
    assert fake.world.channels[thread.id].type == ChannelType.PRIVATE_THREAD
    assert fake.world.channels[thread.id].thread_members == {fake.world.bot_user.id, don.id}
    await thread.send("Мафия, познакомьтесь.")
    assert [m.content for m in fake.messages(fake.world.channels[thread.id])] == ["Мафия, познакомьтесь."]

    await channel.delete()
    assert channel.id not in fake.world.channels


@pytest.mark.club(bot_permissions=perms.MUTE_MEMBERS)
async def test_creating_a_channel_needs_manage_channels(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    with pytest.raises(discord.Forbidden):
        await guild_of(bot, club).create_text_channel("мафия-ночь")
    assert fake.forbidden == [(perms.MANAGE_CHANNELS, club.id)]


async def test_members_joining_and_leaving_reach_the_cache(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    newcomer = await fake.add_player(club, "newcomer")
    assert guild_of(bot, club).get_member(newcomer.id) is not None

    await fake.join_voice(newcomer, club.voice)
    await fake.remove_player(club, newcomer)
    assert guild_of(bot, club).get_member(newcomer.id) is None


async def test_messages_reach_the_bot_and_the_bot_edits_its_own(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    said = await fake.say(club.players[0], club.text, "всем привет")
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    received = await channel.fetch_message(said.id)
    assert received.content == "всем привет" and received.author.id == club.players[0].id

    sent = await channel.send("Голосование открыто")
    await sent.edit(content="Голосование закрыто")
    assert [m.content for m in fake.messages(club.text)] == ["всем привет", "Голосование закрыто"]
    await sent.delete()
    assert [m.content for m in fake.messages(club.text)] == ["всем привет"]
