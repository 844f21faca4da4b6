"""The live table of a game driven through the local Discord: its stream sends the public table, a pass
moves the speaker on it, nothing of the deal is in it, and another server's address finds no game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.web.server import WebServer


def web_of(bot: MafiaBot) -> WebServer:
    cog: Any = bot.get_cog("Web")
    assert cog is not None and cog.server is not None
    server: WebServer = cog.server
    return server


async def tables(response: aiohttp.ClientResponse) -> AsyncIterator[dict[str, Any]]:
    """The ``table`` events of a server-sent event stream, as they come."""
    event = ""
    async for raw in response.content:
        line = raw.decode("utf-8").rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "table":
            yield json.loads(line[6:])


@pytest.mark.web(enabled=True, port=0)
async def test_a_pass_moves_the_speaker_on_the_live_table(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start()
    server = web_of(bot)
    answer = await fake.slash(club.players[0], "mafia web", channel=club.text)
    assert f"Стол игры #{table.game_id}: http" in answer.content
    assert f"/live/{table.game_id}?transparent=1&k=" in answer.content
    link = server.link(club.id, f"/live/{table.game_id}/events")
    roles = set(table.session.roles)
    async with aiohttp.ClientSession() as http:
        async with http.get(server.link(club.id, "/live")) as response:
            assert response.status == 200 and f"Игра #{table.game_id}" in await response.text()
        async with http.get(server.link(club.id, f"/live/{table.game_id}", transparent=1)) as response:
            page = await response.text()
            assert response.status == 200 and 'class="live transparent"' in page
        async with http.get(link, timeout=aiohttp.ClientTimeout(total=60)) as response:
            assert response.status == 200 and response.content_type == "text/event-stream"
            stream = tables(response)
            first = await anext(stream)
            speaker = d.state.step.seat
            assert [s["seat"] for s in first["seats"] if s["speaking"]] == [speaker]
            assert [s["name"] for s in first["seats"]] == [i.name for i in table.session.seats]
            assert all(s["alive"] and not s["role"] for s in first["seats"])
            assert first["deadline"] is not None and first["step"] == f"Говорит игрок №{speaker}"
            await d.pass_speech()
            moved = await anext(stream)
            assert [s["seat"] for s in moved["seats"] if s["speaking"]] == [d.state.step.seat] != [speaker]
            for shown in (first, moved):
                text = json.dumps(shown, ensure_ascii=False)
                assert not any(f'"{role}"' in text for role in roles)

        # The same game through another server's address (a server the bot serves, its own valid link).
        other = club.id + 1
        known = server.guild_name
        server.guild_name = lambda guild_id: "другой клуб" if guild_id == other else known(guild_id)
        assert (await http.get(server.link(other, "/live"))).status == 200
        for path in (f"/live/{table.game_id}", f"/live/{table.game_id}/events"):
            async with http.get(server.link(other, path)) as response:
                assert response.status == 404, path
    await d.skip_step()
