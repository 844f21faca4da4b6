"""The bot logs in to the stand-in, syncs /mafia, and answers basic commands."""

from __future__ import annotations

import discord
import discord.gateway
import discord.http
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


def test_discord_py_still_has_the_attributes_the_stand_in_redirects() -> None:
    # If a discord.py upgrade renames these, every bot test would silently talk to the real Discord.
    assert discord.version_info[:2] == (2, 7)
    assert discord.http.Route.BASE.startswith("https://discord.com/api/v10")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("wss://gateway.discord.gg")


async def test_bot_connects_and_syncs_mafia_globally(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    assert bot.user is not None and bot.user.id == fake.world.bot_user.id
    assert [c["name"] for c in fake.commands[None]] == ["mafia"]
    subcommands = {option["name"] for option in fake.commands[None][0]["options"]}
    assert {"help", "rules", "check"} <= subcommands
    guild = bot.get_guild(club.id)
    assert guild is not None and guild.chunked
    assert len(guild.members) == len(club.players) + 2  # players, the owner, the bot
    assert fake.gateway.chunk_requests


async def test_help_is_answered_ephemerally(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    answer = await fake.slash(club.players[0], "mafia help", channel=club.text)
    assert answer.ephemeral
    assert "/mafia rules" in answer.content
    assert fake.messages(club.text) == []  # nobody else sees it
