"""The stand-in's other bot accounts (issue 20): each token logs in as its own bot and application,
spends its own rate-limit buckets and its own global limit, and is refused what Discord refuses a bot
that is not on the server, lacks a permission, or whose token was reset."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.accounts import BotAccount
from fakediscord.ratelimits import MEMBER_EDIT, RateLimits

from mafiabot.bot import MafiaBot


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_each_token_has_its_own_member_edit_bucket_per_guild() -> None:
    clock = Clock()
    limits = RateLimits(clock=clock)
    main = [limits.check(MEMBER_EDIT, "guild").allowed for _ in range(11)]
    assert main == [True] * 10 + [False]  # Discord's 10 per 10 s per guild
    helper = [limits.check(MEMBER_EDIT, "guild", "helper-token").allowed for _ in range(11)]
    assert helper == [True] * 10 + [False]  # its own ten, untouched by the main bot's
    assert limits.limited_tokens == ["", "helper-token"]
    assert limits.check(MEMBER_EDIT, "another guild", "helper-token").allowed
    clock.now += 10.0
    assert (
        limits.check(MEMBER_EDIT, "guild").allowed
        and limits.check(MEMBER_EDIT, "guild", "helper-token").allowed
    )


def test_the_global_limit_is_per_token() -> None:
    clock = Clock()
    limits = RateLimits(clock=clock)
    for i in range(50):
        assert limits.check("GET /channels/{channel_id}", str(i), "a").allowed
    refused = limits.check("GET /channels/{channel_id}", "x", "a")
    assert not refused.allowed and refused.headers["X-RateLimit-Global"] == "true"
    assert limits.check("GET /channels/{channel_id}", "x", "b").allowed  # another bot's 50 a second
    assert limits.check("GET /channels/{channel_id}", "x").allowed  # and the main bot's
    clock.now += 1.0
    assert limits.check("GET /channels/{channel_id}", "x", "a").allowed


@contextlib.asynccontextmanager
async def logged_in(fake: FakeDiscord, account: BotAccount) -> AsyncIterator[discord.Client]:
    """A REST-only client of the account (discord.py's `login`, no gateway), as the bot's helpers are."""
    client = discord.Client(intents=discord.Intents.none())
    with fake.redirect_discord():
        await client.login(account.token)
        try:
            yield client
        finally:
            await client.close()


async def test_a_second_account_logs_in_as_its_own_bot_and_application(
    bot: MafiaBot, fake: FakeDiscord
) -> None:
    helper = fake.add_bot_account("helper-1")
    async with logged_in(fake, helper) as client:
        assert client.user is not None and client.user.id == helper.id and client.user.bot
        assert client.application_id == helper.id
    assert bot.user is not None and bot.user.id == fake.world.bot_user.id
    gets = [c for c in fake.calls if c.route == "GET /users/@me"]
    assert {c.bot_id for c in gets} == {fake.world.bot_user.id, helper.id}


async def test_member_edits_of_a_second_account_spend_its_own_bucket(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 3, 60.0, hidden=True)  # hidden: a 429 would be served, not avoided
    for player in club.players[:6]:
        await fake.join_voice(player, club.voice)
    helper = fake.add_bot_account()
    await fake.invite_bot(club, helper)
    guild = bot.get_guild(club.id)
    assert guild is not None and guild.get_member(helper.id) is not None  # the bot sees its helper
    async with logged_in(fake, helper) as client:
        for player in club.players[:3]:
            member = guild.get_member(player.id)
            assert member is not None
            await member.edit(mute=True)  # the main bot's three
            await client.http.edit_member(club.id, player.id, mute=False)  # and the helper's three
    assert not fake.rate_limits.limited  # six edits in one guild within the window, no 429
    edits = fake.calls_to(MEMBER_EDIT, status=200)
    assert [c.bot_id for c in edits] == [fake.world.bot_user.id, helper.id] * 3
    assert not any(p.mute for p in club.players[:3])


async def test_discord_refuses_an_account_off_the_server_without_the_permission_or_revoked(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    helper = fake.add_bot_account()
    async with logged_in(fake, helper) as client:
        with pytest.raises(discord.Forbidden) as off_server:
            await client.http.edit_member(club.id, player.id, mute=True)
        assert off_server.value.code == 50001  # Missing Access: the bot is not on the server
        member = await fake.invite_bot(club, helper, permissions=perms.VIEW_CHANNEL | perms.CONNECT)
        with pytest.raises(discord.Forbidden) as no_permission:
            await client.http.edit_member(club.id, player.id, mute=True)
        assert no_permission.value.code == 50013
        await fake.give_role(member, club.bot_role)
        await client.http.edit_member(club.id, player.id, mute=True)
        assert player.mute
        await fake.kick_bot(club, helper)
        with pytest.raises(discord.Forbidden):
            await client.http.edit_member(club.id, player.id, mute=False)
        fake.revoke_token(helper)
        with pytest.raises(discord.HTTPException) as revoked:
            await client.http.edit_member(club.id, player.id, mute=False)
        assert revoked.value.status == 401
    assert player.mute  # none of the refused edits changed anything
    guild = bot.get_guild(club.id)
    assert guild is not None and guild.get_member(helper.id) is None  # the kick reached the main bot


async def test_a_second_account_on_the_gateway_gets_its_own_ready(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    helper = fake.add_bot_account()
    await fake.invite_bot(club, helper)
    main_session = fake.gateway.session
    client = discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
    async with fake.connect(client, token=helper.token):
        assert client.user is not None and client.user.id == helper.id
        guild = client.get_guild(club.id)
        assert guild is not None and guild.me is not None and guild.me.id == helper.id
    assert fake.gateway.session is main_session  # the bot under test keeps its session
