"""The stand-in's faults, seen through the real discord.py: what the bot must survive (issue 12)."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from fakediscord import MEMBER_EDIT, MESSAGE_SEND, Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Overwrite

from mafiabot.bot import MafiaBot


def _member(bot: MafiaBot, club: Club, index: int = 0) -> discord.Member:
    guild = bot.get_guild(club.id)
    assert guild is not None
    member = guild.get_member(club.players[index].id)
    assert member is not None
    return member


async def test_a_503_on_a_member_edit_is_raised_by_discord_py_and_changes_nothing(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    fake.faults.fail(MEMBER_EDIT, status=503, times=1)
    with pytest.raises(discord.DiscordServerError):
        await _member(bot, club).edit(mute=True)
    assert not player.mute  # the edge answered: the edit never reached the member
    await _member(bot, club).edit(mute=True)  # the fault was for one request
    assert player.mute
    assert [c.status for c in fake.calls_to(MEMBER_EDIT)] == [503, 200]


async def test_a_503_on_a_message_drops_it_unless_someone_retries(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    fake.faults.fail(MESSAGE_SEND, status=503, times=None)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("Игрок №3 убит")
    fake.faults.clear()
    await channel.send("Игрок №3 убит")
    assert [m.content for m in fake.messages(club.text)] == ["Игрок №3 убит"]
    assert fake.faults.served == [(MESSAGE_SEND, 503)]


async def test_a_dropped_connection_raises_and_a_repeated_nonce_is_answered_with_the_same_message(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    fake.faults.drop(MESSAGE_SEND)  # lost on the way there: nothing is sent
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("Игрок №3 убит", nonce="a1")
    assert fake.messages(club.text) == []
    fake.faults.drop(MESSAGE_SEND, served=True)  # carried out, its answer lost
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("Игрок №3 убит", nonce="a1")
    [sent] = fake.messages(club.text)
    again = await channel.send("Игрок №3 убит", nonce="a1")  # discord.py sets enforce_nonce with it
    assert again.id == sent.id and len(fake.messages(club.text)) == 1
    other = await channel.send("Игрок №3 убит", nonce="a2")
    assert other.id != sent.id
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", nonce="n" * 26)
    assert refused.value.status == 400


async def test_mute_members_lost_and_given_back(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT & ~perms.MUTE_MEMBERS)
    guild = bot.get_guild(club.id)
    assert guild is not None and guild.me is not None
    assert not guild.me.guild_permissions.mute_members  # the bot's cache learnt it (GUILD_ROLE_UPDATE)
    with pytest.raises(discord.Forbidden):
        await _member(bot, club).edit(mute=True)
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT)
    assert guild.me.guild_permissions.mute_members
    await _member(bot, club).edit(mute=True)
    assert player.mute


async def test_a_member_who_left_voice_cannot_be_unmuted_until_he_returns(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    await _member(bot, club).edit(mute=True)
    await fake.leave_voice(player)
    with pytest.raises(discord.HTTPException) as refused:
        await _member(bot, club).edit(mute=False)
    assert refused.value.status == 400 and refused.value.code == 40032
    await fake.join_voice(player, club.voice)
    assert fake.voice_state(player).mute  # type: ignore[union-attr]  # the server mute came back with him
    await _member(bot, club).edit(mute=False)
    assert not player.mute


async def test_invalid_session_makes_the_bot_identify_again_with_new_objects(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    old_guild = bot.get_guild(club.id)
    assert old_guild is not None
    ready_again = asyncio.create_task(bot.wait_for("ready", timeout=20))
    fake.gateway.invalidate_session()
    await fake.gateway.wait_identified(2)
    await ready_again  # discord.py re-read the guilds (chunked) and said so
    new_guild = bot.get_guild(club.id)
    assert new_guild is not None and new_guild is not old_guild
    assert fake.gateway.resumes == 0
    # The old object no longer hears anything: a member joining voice shows only in the new one.
    await fake.join_voice(club.players[0], club.voice)
    old_channel, new_channel = old_guild.get_channel(club.voice.id), new_guild.get_channel(club.voice.id)
    assert isinstance(old_channel, discord.VoiceChannel) and isinstance(new_channel, discord.VoiceChannel)
    assert [m.id for m in new_channel.members] == [club.players[0].id]
    assert old_channel.members == []


async def test_an_upload_needs_attach_files(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    club.text.overwrites.append(Overwrite(club.bot_role.id, 0, deny=perms.ATTACH_FILES))
    with pytest.raises(discord.Forbidden):
        await channel.send("Протокол игры:", file=discord.File(io.BytesIO(b"{}"), filename="game.json"))
    await channel.send("Протокол игры не приложен.")  # text alone still goes
    assert [m.content for m in fake.messages(club.text)] == ["Протокол игры не приложен."]
