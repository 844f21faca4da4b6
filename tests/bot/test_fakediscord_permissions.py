"""The stand-in computes permissions as Discord documents them and refuses with Discord's codes."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from fakediscord import ChannelType, Club, FakeDiscord, OpusFrames, encode_opus, tone_pcm
from fakediscord import permissions as perms
from fakediscord.world import Overwrite, World

from mafiabot.bot import MafiaBot


def _world() -> tuple[World, Club]:
    world = World()
    guild = world.add_guild("g")
    bot_role = world.add_role(guild, "bot", perms.MUTE_MEMBERS)
    world.add_member(guild, world.bot_user, roles=[bot_role])
    text = world.add_channel(guild, "t")
    voice = world.add_channel(guild, "v", ChannelType.GUILD_VOICE)
    players = [world.add_member(guild, world.add_user(f"p{i}")) for i in range(2)]
    return world, Club(guild, text, voice, players, bot_role)


def test_overwrites_apply_everyone_then_roles_then_the_member() -> None:
    world, club = _world()
    guild, text, bot = club.guild, club.text, world.bot_user.id
    text.overwrites = [Overwrite(guild.id, 0, deny=perms.SEND_MESSAGES)]
    assert not world.permissions(guild, bot, text) & perms.SEND_MESSAGES
    text.overwrites.append(Overwrite(club.bot_role.id, 0, allow=perms.SEND_MESSAGES))
    assert world.permissions(guild, bot, text) & perms.SEND_MESSAGES  # a role's allow beats @everyone's deny
    text.overwrites.append(Overwrite(bot, 1, deny=perms.SEND_MESSAGES))
    assert not world.permissions(guild, bot, text) & perms.SEND_MESSAGES  # the member's own is last


def test_implicit_denials_view_send_connect_and_threads() -> None:
    world, club = _world()
    guild, text, voice, bot = club.guild, club.text, club.voice, world.bot_user.id
    text.overwrites = [Overwrite(guild.id, 0, deny=perms.SEND_MESSAGES)]
    bits = world.permissions(guild, bot, text)
    assert bits & perms.VIEW_CHANNEL and not bits & (perms.ATTACH_FILES | perms.EMBED_LINKS)
    text.overwrites = [Overwrite(guild.id, 0, deny=perms.VIEW_CHANNEL)]
    assert world.permissions(guild, bot, text) == 0
    voice.overwrites = [Overwrite(guild.id, 0, deny=perms.CONNECT)]
    bits = world.permissions(guild, bot, voice)
    assert bits & perms.VIEW_CHANNEL and not bits & (perms.SPEAK | perms.MUTE_MEMBERS)

    text.overwrites = [Overwrite(guild.id, 0, deny=perms.SEND_MESSAGES)]
    thread = world.add_channel(guild, "ночь", ChannelType.PRIVATE_THREAD, parent_id=text.id)
    assert world.permissions(guild, bot, thread) == 0  # a private thread: members and moderators only
    thread.thread_members.add(bot)
    bits = world.permissions(guild, bot, thread)
    # Send Messages is not inherited: in threads Send Messages in Threads decides, attachments with it.
    assert bits & perms.SEND_MESSAGES_IN_THREADS and bits & perms.ATTACH_FILES


def test_the_owner_and_administrators_bypass_everything() -> None:
    world, club = _world()
    guild, text = club.guild, club.text
    text.overwrites = [Overwrite(guild.id, 0, deny=perms.VIEW_CHANNEL)]
    assert world.permissions(guild, guild.owner_id, text) == perms.ALL
    admin = world.add_role(guild, "admin", perms.ADMINISTRATOR)
    club.players[0].roles.append(admin.id)
    assert world.permissions(guild, club.players[0].id, text) == perms.ALL


def test_role_hierarchy_for_nicknames() -> None:
    world, club = _world()
    guild = club.guild
    bot, player = guild.members[world.bot_user.id], club.players[0]
    owner = guild.members[guild.owner_id]
    assert perms.outranks(guild, bot, player)
    assert not perms.outranks(guild, bot, owner)
    high = world.add_role(guild, "старейшина")  # created after the bot's role: above it
    player.roles.append(high.id)
    assert not perms.outranks(guild, bot, player)


def _guild(bot: MafiaBot, club: Club) -> discord.Guild:
    guild = bot.get_guild(club.id)
    assert guild is not None
    return guild


async def test_uploads_need_attach_files_and_a_hidden_channel_is_missing_access(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = _guild(bot, club).get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.ATTACH_FILES)
    await channel.send("без файла")  # plain text still goes
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("протокол", file=discord.File(io.BytesIO(b"{}"), filename="p.json"))
    assert refused.value.code == 50013
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.EMBED_LINKS)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(embed=discord.Embed(title="итоги"))
    assert refused.value.code == 50013
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("никто не увидит")
    assert refused.value.code == 50001
    assert [m.content for m in fake.messages(club.text)] == ["без файла"]


async def test_nicknames_follow_the_role_hierarchy(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    guild = _guild(bot, club)
    await guild.chunk()  # the bot knows only members in voice until it asks (no chunking at start)
    player, owner = guild.get_member(club.players[0].id), guild.get_member(club.guild.owner_id)
    assert player is not None and owner is not None
    await player.edit(nick="1 · player1")
    assert club.players[0].nick == "1 · player1"
    with pytest.raises(discord.Forbidden) as refused:
        await owner.edit(nick="1 · хозяин")
    assert refused.value.code == 50013
    above = fake.world.add_role(club.guild, "старейшина")
    await fake.give_role(club.players[1], above)
    elder = guild.get_member(club.players[1].id)
    assert elder is not None
    with pytest.raises(discord.Forbidden):
        await elder.edit(nick="2 · старейшина")
    assert club.players[1].nick is None


async def test_thread_rules_lock_reopen_and_members(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    guild = _guild(bot, club)
    channel = guild.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(
        name="ночь", type=discord.ChannelType.private_thread, invitable=False
    )
    await thread.add_user(discord.Object(club.players[0].id))
    thread = await thread.edit(archived=True, locked=True)
    with pytest.raises(discord.HTTPException) as refused:
        await thread.add_user(discord.Object(club.players[1].id))
    assert refused.value.code == 50083  # an archived thread takes no new members
    await fake.set_role_permissions(club, club.bot_role, perms.BOT_DEFAULT & ~perms.MANAGE_THREADS)
    with pytest.raises(discord.Forbidden):
        await thread.edit(archived=False, locked=False)  # a locked thread reopens only with Manage Threads
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("ночь")
    assert refused.value.code == 50083
    await fake.set_overwrite(club.text, club.bot_role, deny=perms.CREATE_PRIVATE_THREADS)
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="ещё", type=discord.ChannelType.private_thread)


@pytest.mark.club(bot_permissions=0)
async def test_overwrites_grant_only_what_the_bot_has(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    guild = _guild(bot, club)
    channel = guild.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden):
        await channel.set_permissions(guild.default_role, send_messages=False)
    await fake.set_role_permissions(club, club.bot_role, perms.MANAGE_ROLES)
    await channel.set_permissions(guild.default_role, send_messages=False)  # @everyone gave it that
    with pytest.raises(discord.Forbidden):
        await channel.set_permissions(guild.default_role, mute_members=True)  # the bot has no such right


async def test_voice_without_connect_gets_no_answer_and_without_speak_is_not_heard(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = bot.get_channel(club.voice.id)
    assert isinstance(channel, discord.VoiceChannel)
    everyone = club.guild.everyone
    await fake.set_overwrite(club.voice, everyone, deny=perms.CONNECT)
    with pytest.raises(TimeoutError):  # Discord ignores the join: discord.py gives up waiting
        await channel.connect(timeout=0.3, reconnect=False)
    assert bot.user is not None and bot.user.id not in club.guild.voice_states
    await fake.set_overwrite(club.voice, everyone, deny=perms.SPEAK)
    voice = await channel.connect(timeout=10, self_deaf=True)
    try:
        assert club.guild.voice_states[bot.user.id].suppress
        loop = asyncio.get_running_loop()
        finished = loop.create_future()
        voice.play(
            OpusFrames(encode_opus(tone_pcm(440.0, 0.2))),
            after=lambda error: loop.call_soon_threadsafe(finished.set_result, error),
        )
        assert await asyncio.wait_for(finished, timeout=10) is None
        await fake.wait_for(
            lambda: fake.voice.audio.not_relayed > 0, what="frames the channel does not relay"
        )
        assert fake.voice.audio.of(bot.user.id) == []
    finally:
        await voice.disconnect()
