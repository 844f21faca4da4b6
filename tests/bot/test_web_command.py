"""`/mafia web` through the local Discord: the bot serves its pages in its own process, hands out
signed links privately, and lets a moderator open the server's pages to everyone."""

from __future__ import annotations

import re

import aiohttp
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Member
from test_ratings import host, season  # noqa: F401  (fixtures: a moderator, two rated games stored)

from mafiabot.bot import MafiaBot


def _links(content: str) -> dict[str, str]:
    return {label: url for label, url in re.findall(r"^([^:\n]+): (http\S+)$", content, re.M)}


@pytest.mark.club(players=12)
@pytest.mark.web(enabled=True, port=0)
async def test_the_command_hands_out_private_links_that_open_the_pages(
    season: list[int],  # noqa: F811
    host: Member,  # noqa: F811
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
) -> None:
    player = club.players[0]
    answer = await fake.slash(player, "mafia web", channel=club.text)
    assert answer.ephemeral
    found = _links(answer.content)
    assert set(found) == {"Таблица сезона", "Ваш профиль", "Игры"}, answer.content
    assert "Ссылки действуют до <t:" in answer.content
    async with aiohttp.ClientSession() as http:
        async with http.get(found["Таблица сезона"]) as response:
            page = await response.text()
            assert response.status == 200, page
        assert "player1" in page and club.guild.name in page
        async with http.get(found["Ваш профиль"]) as response:
            assert response.status == 200 and "<h1>player1</h1>" in await response.text()
        bare = found["Игры"].split("?")[0]
        async with http.get(bare) as response:
            assert response.status == 404  # the same page without the key: as if the server had no pages

        refused = await fake.slash(player, "mafia web", channel=club.text, public=True)
        assert refused.ephemeral and refused.content.startswith("Это для ведущих")
        async with http.get(bare) as response:
            assert response.status == 404  # nothing changed

        opened = await fake.slash(host, "mafia web", channel=club.text, public=True)
        assert opened.content.startswith("Страницы сервера теперь открыты всем")
        assert "?k=" not in opened.content and "действуют до" not in opened.content
        async with http.get(bare) as response:
            assert response.status == 200


async def test_without_web_settings_the_command_says_they_are_off(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    answer = await fake.slash(club.players[0], "mafia web", channel=club.text)
    assert answer.ephemeral and answer.content.startswith("Веб-страницы клуба выключены")
