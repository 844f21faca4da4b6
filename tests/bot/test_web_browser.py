"""The club's pages in a real browser (headless Chromium over the DevTools protocol), from the running
bot with a seeded database: each page's content, a column sort, the chart, a phone's width, and the live
table following a game driven through the local Discord. Screenshots go to $MAFIABOT_SCREENSHOTS
(`./scripts/screenshots` refreshes the README's, in docs/screenshots/), else to the test's own folder."""

from __future__ import annotations

import io
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver
from PIL import Image
from web.chromium import Page, page_in_browser
from web.club_seed import seed_club

from mafiabot.bot import MafiaBot
from mafiabot.storage import Storage


@pytest.fixture
def club_games(club: Club, tmp_path: Path) -> list[int]:
    """Four finished classic games of the club's twelve, in the bot's database before it starts."""
    storage = Storage.open(f"sqlite:///{tmp_path}/bot.db")
    try:
        members = [(p.id, p.user.username) for p in club.players]
        return seed_club(storage, club.id, members, other_guild=None, running=False).finished
    finally:
        storage.close()


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[Page]:
    async with page_in_browser(tmp_path / "chromium", 1100, 800) as opened:
        yield opened


def _shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("MAFIABOT_SCREENSHOTS") or tmp_path / "screenshots")


def _links(content: str) -> dict[str, str]:
    return dict(re.findall(r"^([^:\n]+): (http\S+)$", content, re.M))


@pytest.mark.club(players=12)
@pytest.mark.web(enabled=True, port=0)
async def test_the_pages_in_a_browser(
    club_games: list[int], bot: MafiaBot, fake: FakeDiscord, club: Club, page: Page, tmp_path: Path
) -> None:
    shots = _shots(tmp_path)
    links = _links((await fake.slash(club.players[0], "mafia web", channel=club.text)).content)

    await page.goto(links["Таблица сезона"])
    assert await page.evaluate("document.documentElement.lang") == "ru"
    assert await page.evaluate("document.querySelectorAll('#board tbody tr').length") == 12
    assert await page.evaluate("document.querySelector('h1').textContent") == "Таблица сезона: Сезон 1"
    await page.screenshot(shots / "leaderboard.png")
    # A click on «Замечания» sorts by fouls: the one fouled player comes first.
    fouled = await page.evaluate("""(() => { const a = document.querySelector('th[data-column="fouls"] a');
        a.click(); return true; })()""")
    assert fouled
    await page.wait_for("location.search.includes('sort=fouls')", "the sorted table")
    await page.wait_for("document.readyState === 'complete'", "the sorted table's load")
    first = await page.evaluate("document.querySelector('#board tbody tr td:last-child').textContent")
    assert first == "1"

    await page.size(390, 800, mobile=True)  # a phone: the page fits, the table scrolls in its box
    await page.goto(links["Таблица сезона"])
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await page.screenshot(shots / "leaderboard-phone.png")
    await page.size(1100, 800)

    await page.goto(links["Ваш профиль"])
    await page.wait_for("document.querySelector('img.chart').complete", "the chart")
    assert await page.evaluate("document.querySelector('img.chart').naturalWidth") == 800
    assert await page.evaluate("document.querySelectorAll('#roles tbody tr').length") >= 1
    await page.screenshot(shots / "profile.png", full=True)

    await page.goto(links["Игры"])
    game_id = club_games[0]
    await page.evaluate(f"document.querySelector('a[href*=\"/game/{game_id}?\"]').click()")
    await page.wait_for(f"location.pathname.endsWith('/game/{game_id}')", "the protocol")
    await page.wait_for("document.readyState === 'complete'", "the protocol's load")
    seats = await page.evaluate(
        "[...document.querySelectorAll('#seats tbody tr')].map(r => r.cells[2].textContent)"
    )
    assert len(seats) == 10 and "Мафия" in seats
    headings = await page.evaluate("[...document.querySelectorAll('h3')].map(h => h.textContent)")
    assert headings[:3] == ["Начало игры", "День 1", "Ночь 1"]
    assert await page.evaluate(
        "document.querySelector('#record').href.endsWith('record.json') ||"
        " document.querySelector('#record').href.includes('record.json?')"
    )
    await page.screenshot(shots / "protocol.png")

    # The live table of a game driven through the local Discord.
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start()
    links = _links((await fake.slash(club.players[0], "mafia web", channel=club.text)).content)
    await page.goto(links[f"Стол игры #{table.game_id}"])
    speaker = d.state.step.seat
    await page.wait_for("document.body.dataset.updates >= 1", "the stream's first table")
    assert await page.evaluate("document.querySelector('.seat.speaking .number').textContent") == str(speaker)
    assert await page.evaluate("document.getElementById('step').textContent") == f"Говорит игрок №{speaker}"
    await page.wait_for("/^\\d+:\\d\\d$/.test(document.getElementById('clock').textContent)", "the countdown")
    await d.pass_speech()
    following = d.state.step.seat
    await page.wait_for(
        f"document.querySelector('.seat.speaking .number')?.textContent === '{following}'", "the next speaker"
    )
    assert await page.evaluate("document.querySelectorAll('.seat .role:not(:empty)').length") == 0
    await page.screenshot(shots / "live.png")
    await page.goto(links[f"Для OBS (#{table.game_id})"])
    await page.wait_for("document.body.dataset.updates >= 1", "the stream's first table")
    overlay = Image.open(io.BytesIO(await page.screenshot(shots / "live-transparent.png", transparent=True)))
    assert overlay.mode == "RGBA" and overlay.getpixel((overlay.width - 2, overlay.height - 2))[3] == 0
    assert overlay.getpixel((40, 40))[3] > 0  # the bar over the video is drawn
