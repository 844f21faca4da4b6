"""The bot's REST requests through the lean client (mafiabot/rest.py) against the stand-in: a whole game's
requests, and what stays aiohttp's (uploads; everything with ``[bot] lean_rest = false``)."""

from __future__ import annotations

import dataclasses
import io

import aiohttp
import discord
import test_game_full  # (the module: its test imported by name would be collected here a second time)
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot
from mafiabot.config import load_settings
from mafiabot.rest import LeanSession


def session_of(client: discord.Client) -> object:
    return client.http._HTTPClient__session  # type: ignore[attr-defined]


async def test_a_whole_games_requests_go_through_the_lean_client_and_the_game_ends_as_before(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    await test_game_full.test_classic_seven_players_town_wins(
        bot, fake, club
    )  # (every check of that game, as before)
    session = session_of(bot)
    assert isinstance(session, LeanSession)
    uploads = [
        c
        for c in fake.calls
        if c.method == "POST" and c.route.endswith("/messages") and c.json and c.json.get("attachments")
    ]
    assert len(uploads) == 1  # the game's record file (multipart: aiohttp's)
    # Every request the stand-in saw: the login's own (made before the session is wrapped), the upload,
    # and the rest through the lean client (over a hundred).
    assert len(fake.calls) == 1 + session.passed + session.lean
    assert session.passed == 1
    assert session.lean > 100


async def test_an_upload_goes_through_aiohttp(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    session = session_of(bot)
    assert isinstance(session, LeanSession)
    lean, passed = session.lean, session.passed
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("записи", file=discord.File(io.BytesIO(b"{}"), filename="game.json"))
    await channel.send("строка")
    assert (session.lean, session.passed) == (lean + 1, passed + 1)
    sent = fake.messages(club.text)[-2:]
    assert sent[0].files == {"game.json": b"{}"} and sent[1].content == "строка"


async def test_the_kill_switch_keeps_every_request_on_aiohttp(fake: FakeDiscord, club: Club) -> None:
    settings = load_settings(None, {"MAFIABOT_TOKEN": fake.token, "MAFIABOT_LEAN_REST": "false"})
    assert settings.lean_rest is False
    assert load_settings(None, {"MAFIABOT_TOKEN": fake.token}).lean_rest is True  # (the default: on)
    settings = dataclasses.replace(settings, database_url="sqlite://")
    bot = MafiaBot(settings, guild_ready_timeout=0.05)
    async with fake.connect(bot):
        session = session_of(bot)
        assert type(session) is aiohttp.ClientSession
        channel = bot.get_channel(club.text.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("строка")
        assert fake.messages(club.text)[-1].content == "строка"
