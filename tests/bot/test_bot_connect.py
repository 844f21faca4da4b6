"""The bot logs in to the stand-in, syncs /mafia, and answers basic commands."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import discord.gateway
import discord.http
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms

from mafiabot.__main__ import _serve
from mafiabot.bot import MafiaBot
from mafiabot.config import Secret, Settings


def test_discord_py_still_has_the_attributes_the_stand_in_redirects() -> None:
    # If a discord.py upgrade renames these, every bot test would silently talk to the real Discord.
    assert discord.version_info[:2] == (2, 7)
    assert discord.http.Route.BASE.startswith("https://discord.com/api/v10")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("wss://gateway.discord.gg")


async def test_bot_connects_and_syncs_mafia_globally(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    assert bot.user is not None and bot.user.id == fake.world.bot_user.id
    synced = {c["name"]: c for c in fake.commands[None]}
    assert set(synced) == {"mafia", "mafia-admin", "Мафия: профиль"}
    subcommands = {option["name"] for option in synced["mafia"]["options"]}
    assert {"help", "rules", "check", "new", "rating"} <= subcommands and "voice" not in subcommands
    # The moderators' group is a command of its own: Discord hides it from members without Manage
    # Server only at the top level (default_permissions on a subcommand does nothing).
    admin = synced["mafia-admin"]
    assert int(admin["default_member_permissions"]) == perms.MANAGE_GUILD
    assert {o["name"] for o in admin["options"]} >= {
        "host-role",
        "voice",
        "spectators",
        "timers",
        "lobby-timeout",
    }
    assert synced["mafia"].get("default_member_permissions") is None
    assert synced["Мафия: профиль"]["type"] == 2  # a member's context menu
    guild = bot.get_guild(club.id)
    assert guild is not None


async def test_the_bot_does_not_ask_for_every_member_list_at_start(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Discord allows 120 gateway commands a minute: chunking every server at start made READY wait
    minutes for a bot in hundreds of servers. Members come with the events instead."""
    guild = bot.get_guild(club.id)
    assert guild is not None and not guild.chunked
    assert fake.gateway.chunk_requests == []
    assert [m.id for m in guild.members] == [fake.world.bot_user.id]  # a large server: only the bot inline
    await fake.join_voice(club.players[0], club.voice)
    member = guild.get_member(club.players[0].id)  # known from his voice state
    assert member is not None and member.display_name == club.players[0].user.username


async def test_help_is_answered_ephemerally(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    answer = await fake.slash(club.players[0], "mafia help", channel=club.text)
    assert answer.ephemeral
    assert answer.content.startswith("**Как начать игру**"), answer.content
    assert answer.content.index("/mafia new") < answer.content.index("/mafia rules")
    assert fake.messages(club.text) == []  # nobody else sees it


def _settings(fake: FakeDiscord, tmp_path: Path) -> Settings:
    # Every bot opens its database in setup_hook: a test's own, not a file where the tests run.
    return Settings(token=Secret(fake.token), database_url=f"sqlite:///{tmp_path}/bot.db")


async def test_a_broken_cog_is_logged_and_the_others_still_load(
    fake: FakeDiscord, club: Club, logged_errors: list[logging.LogRecord], tmp_path: Path
) -> None:
    settings = _settings(fake, tmp_path)
    cogs = ("mafiabot.cogs.help", "mafiabot.cogs.no_such_cog", "mafiabot.cogs.readiness")
    client = MafiaBot(settings, cogs=cogs, guild_ready_timeout=0.05)
    async with fake.connect(client):
        assert list(client.failed_cogs) == ["mafiabot.cogs.no_such_cog"]
        assert {c.name for c in client.mafia.commands} == {"help", "rules", "check"}
        answer = await fake.slash(club.players[0], "mafia check", channel=club.text)
        assert answer.callback_type == 5
        await answer.wait_followup()
    assert [r.getMessage() for r in logged_errors] == [
        "Cog mafiabot.cogs.no_such_cog failed to load; the others go on"
    ]
    logged_errors.clear()


async def test_the_game_cogs_work_without_the_lobby_cog(
    fake: FakeDiscord, club: Club, logged_errors: list[logging.LogRecord], tmp_path: Path
) -> None:
    """The game service is the bot's, not the lobby cog's: with the lobby cog failing to load, the
    cogs that act on games still load and answer."""
    settings = _settings(fake, tmp_path)
    cogs = ("mafiabot.cogs.no_such_lobby", "mafiabot.cogs.moderation", "mafiabot.cogs.conduct")
    client = MafiaBot(settings, cogs=cogs, guild_ready_timeout=0.05)
    async with fake.connect(client):
        assert list(client.failed_cogs) == ["mafiabot.cogs.no_such_lobby"]
        assert {"stop", "skip", "foul", "conduct"} <= {c.name for c in client.mafia.commands}
        answer = await fake.slash(club.players[0], "mafia skip", channel=club.text)
        assert answer.ephemeral and answer.content == "Здесь сейчас нет игры."
    logged_errors.clear()


async def test_a_wrong_token_ends_run_with_a_clear_message(
    fake: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    with fake.redirect_discord():
        assert await _serve(Settings(token=Secret("not-the-token"))) == 1
    assert "rejected the token" in capsys.readouterr().out
    assert fake.gateway.identifies == 0


async def test_the_token_is_never_logged_even_at_debug(
    fake: FakeDiscord, club: Club, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    caplog.set_level(logging.DEBUG)
    client = MafiaBot(_settings(fake, tmp_path), guild_ready_timeout=0.05)
    async with fake.connect(client):
        await fake.slash(club.players[0], "mafia help", channel=club.text)
        voice_channel = client.get_channel(club.voice.id)
        assert isinstance(voice_channel, discord.VoiceChannel)
        voice = await voice_channel.connect(timeout=10)
        await voice.disconnect()
    assert "Sending voice websocket frame" in caplog.text  # discord.py did log at debug
    assert fake.token not in caplog.text


async def test_a_restart_publishes_the_commands_only_when_they_changed(
    fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    """Discord asks bots not to sync their commands at every start (and counts each new command against
    200 creates a day): the commands' fingerprint is stored once Discord took them, a start with the same
    commands publishes nothing, and `mafiabot run --sync-commands` publishes anyway."""
    settings = _settings(fake, tmp_path)
    first = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(first):
        pass
    assert fake.command_syncs == {None: 1}
    ids = {c["name"]: c["id"] for c in fake.commands[None]}
    created = fake.command_creates[None]
    assert created == len(ids) == 3

    second = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(second):
        answer = await fake.slash(club.players[0], "mafia help", channel=club.text)
        assert answer.ephemeral  # the commands Discord has still work
    assert fake.command_syncs == {None: 1}

    forced = MafiaBot(settings, guild_ready_timeout=0.05)
    forced.force_sync = True
    async with fake.connect(forced):
        pass
    assert fake.command_syncs == {None: 2}
    assert {c["name"]: c["id"] for c in fake.commands[None]} == ids  # updated in place, nothing created
    assert fake.command_creates[None] == created


async def test_changed_commands_are_published_again(fake: FakeDiscord, club: Club, tmp_path: Path) -> None:
    settings = _settings(fake, tmp_path)
    cogs = ("mafiabot.cogs.help", "mafiabot.cogs.readiness")
    first = MafiaBot(settings, cogs=cogs, guild_ready_timeout=0.05)
    async with fake.connect(first):
        pass
    assert {o["name"] for o in fake.commands[None][0]["options"]} == {"help", "rules", "check"}
    more = MafiaBot(settings, cogs=(*cogs, "mafiabot.cogs.lobby"), guild_ready_timeout=0.05)
    async with fake.connect(more):
        assert "new" in {o["name"] for o in fake.commands[None][0]["options"]}
    assert fake.command_syncs == {None: 2}


async def test_the_stand_in_refuses_the_201st_command_created_in_a_day(
    fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    client = MafiaBot(_settings(fake, tmp_path), cogs=(), guild_ready_timeout=0.05)
    async with fake.connect(client):
        assert client.application_id is not None
        route = discord.http.Route(
            "PUT", "/applications/{application_id}/commands", application_id=client.application_id
        )
        body = [{"name": f"c{n}", "description": "x", "type": 1} for n in range(100)]
        await client.http.request(route, json=body)
        await client.http.request(route, json=body)  # the same hundred: updates, not creates
        more = [{"name": f"d{n}", "description": "x", "type": 1} for n in range(99)]
        await client.http.request(route, json=more)  # replaces them: with /mafia at start, 200 today
        assert fake.command_creates[None] == 200
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.request(route, json=[{"name": "e", "description": "x", "type": 1}])
    assert refused.value.status == 400 and refused.value.code == 30034
