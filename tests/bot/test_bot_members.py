"""DMs, voice states, server mutes, permissions and the member-edit rate limit."""

from __future__ import annotations

import asyncio

import discord
import pytest
from fakediscord import MEMBER_EDIT, ChannelType, Club, FakeDiscord
from fakediscord import permissions as perms

from mafiabot.bot import MafiaBot
from mafiabot.cogs.readiness import DM_TEXT


def member(bot: MafiaBot, club: Club, index: int) -> discord.Member:
    guild = bot.get_guild(club.id)
    assert guild is not None
    found = guild.get_member(club.players[index].id)
    assert found is not None
    return found


async def test_check_sends_a_dm_and_reviews_the_voice_channel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)

    answer = await fake.slash(player, "mafia check", channel=club.text)
    assert answer.callback_type == 5  # deferred: the DM is sent first
    report = await answer.wait_followup()

    dm = await fake.wait_for_dm(player)
    assert dm.content == DM_TEXT
    assert report.ephemeral
    assert "✅ Личные сообщения" in report.content
    assert f"✅ Голосовой канал <#{club.voice.id}>: все нужные права есть." in report.content
    assert f"✅ Текстовый канал <#{club.text.id}>: все нужные права есть." in report.content


@pytest.mark.club(bot_permissions=perms.MOVE_MEMBERS)
async def test_check_reports_closed_dms_and_missing_permissions(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    player.user.dms_open = False
    await fake.join_voice(player, club.voice)

    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    assert fake.dms(player) == []
    assert "❌ Не могу написать вам в личные сообщения" in report.content
    assert "Отключать участникам микрофон" in report.content


async def test_voice_joins_moves_and_leaves_reach_the_cache(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    lobby = await fake.add_channel(club, "Лобби", ChannelType.GUILD_VOICE)
    player = club.players[2]

    await fake.join_voice(player, club.voice, self_mute=True)
    state = member(bot, club, 2).voice
    assert (
        state is not None
        and state.channel is not None
        and state.channel.id == club.voice.id
        and state.self_mute
    )

    await fake.move_voice(player, lobby)
    state = member(bot, club, 2).voice
    assert state is not None and state.channel is not None and state.channel.id == lobby.id

    await fake.leave_voice(player)
    assert member(bot, club, 2).voice is None


async def test_server_mute_comes_back_as_a_voice_state(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    await fake.join_voice(club.players[0], club.voice)
    await fake.join_voice(club.players[1], club.voice)

    # The member edit the voice controller makes (its own tests show it sends only what changes).
    for index in (0, 1):
        await member(bot, club, index).edit(mute=True, reason="убит ночью")
    await fake.gateway.flush()

    assert fake.voice_state(club.players[0]).mute  # type: ignore[union-attr]
    assert member(bot, club, 0).voice.mute  # type: ignore[union-attr]
    calls = fake.calls_to(MEMBER_EDIT, status=200)
    assert [c.json for c in calls] == [{"mute": True}, {"mute": True}]
    assert calls[0].reason == "убит ночью"


@pytest.mark.club(bot_permissions=perms.MOVE_MEMBERS)
async def test_muting_without_permission_is_forbidden(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    await fake.join_voice(club.players[0], club.voice)
    with pytest.raises(discord.Forbidden) as raised:
        await member(bot, club, 0).edit(mute=True)
    assert raised.value.code == 50013
    assert fake.forbidden == [(perms.MUTE_MEMBERS, club.voice.id)]
    assert not fake.voice_state(club.players[0]).mute  # type: ignore[union-attr]


def test_member_edits_default_to_ten_per_ten_seconds(fake: FakeDiscord) -> None:
    limit = fake.rate_limits.routes[MEMBER_EDIT]
    assert (limit.requests, limit.per) == (10, 10.0)


async def test_advertised_member_bucket_is_respected(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 3, 0.2)
    for player in club.players[:9]:
        await fake.join_voice(player, club.voice)

    members = [member(bot, club, i) for i in range(9)]
    await asyncio.gather(*(m.edit(mute=True) for m in members))
    await fake.gateway.flush()

    assert all(m.voice is not None and m.voice.mute for m in members)
    assert len(fake.calls_to(MEMBER_EDIT, status=200)) == 9


async def test_a_429_storm_on_member_edits_is_waited_out(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    # A hidden limit, like Discord's sub-limits: no headers to pace by, so every excess edit gets a 429
    # and discord.py must sleep `retry_after` and retry (it gives up after five tries).
    fake.rate_limits.set(MEMBER_EDIT, 2, 0.25, hidden=True)
    for player in club.players[:8]:
        await fake.join_voice(player, club.voice)

    members = [member(bot, club, i) for i in range(8)]
    await asyncio.gather(*(m.edit(mute=True) for m in members))
    await fake.gateway.flush()

    assert all(m.voice is not None and m.voice.mute for m in members)
    assert all(fake.voice_state(p).mute for p in club.players[:8])  # type: ignore[union-attr]
    assert len(fake.calls_to(MEMBER_EDIT, status=200)) == 8
    assert len(fake.calls_to(MEMBER_EDIT, status=429)) >= 3  # it was a storm
    assert fake.rate_limits.limited
