"""The README's picture of the game panel: a classic game played through the local Discord to the
second day's nominations (a nominee, a player out), its panel and a player's role card as the
stand-in holds them, drawn as Discord's dark theme draws them (tests/fakediscord/render.py) and
photographed in headless Chromium. The picture goes to $MAFIABOT_SCREENSHOTS (`./scripts/screenshots`
refreshes docs/screenshots/panel.png), else to the test's folder; the test checks that the drawing shows
what the messages say."""

from __future__ import annotations

import io
import os
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.render import page_html
from game_driver import MEMBER_EDIT, TableDriver
from PIL import Image
from web.chromium import Page, page_in_browser

from mafiabot.bot import MafiaBot


@pytest.fixture
async def page(tmp_path: Path) -> AsyncIterator[Page]:
    async with page_in_browser(tmp_path / "chromium", 820, 600) as opened:
        yield opened


# The Russian server's picture and the English one's, each as a client in its language draws it.
SERVERS = [
    pytest.param("ru", "в личных сообщениях игрока №1", " · до ", "panel.png", id="ru"),
    pytest.param(
        "en",
        "in player 1's direct messages",
        " · ends ",
        "panel-en.png",
        marks=pytest.mark.game(language="en"),
        id="en",
    ),
]


@pytest.mark.parametrize(("language", "where", "until", "picture"), SERVERS)
async def test_the_panel_and_a_role_card_drawn_as_discord_draws_them(
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
    page: Page,
    tmp_path: Path,
    language: str,
    where: str,
    until: str,
    picture: str,
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("classic")
    while d.state.step.kind != "nominations":  # day 2, after the introductions and a night
        assert not d.state.over
        await d.skip_step()
    by, target, out = sorted(d.state.alive)[:3]
    await d.nominate(by, target)
    await fake.slash(d.players[0], "mafia kick", channel=club.text, seat=out)
    await d.settled()
    panel = d.panel()
    card = fake.dms(d.member(1))[0]  # the first private message: seat 1's role card
    names = {m.id: m.user.username for m in club.players}

    html = page_html(
        # (the stand-in's channel is «игра»; an English server's would have its own name)
        [(panel, f"#{club.text.name}" if language == "ru" else "#game"), (card, where)],
        author=fake.world.users[bot.user.id].username if bot.user else "mafiabot",
        now=time.time(),
        names=lambda user_id: names.get(user_id, str(user_id)),
        client=language,
    )
    source = tmp_path / "panel.html"
    source.write_text(html, encoding="utf-8")
    await page.goto(source.as_uri())

    shown = await page.evaluate("document.body.innerText")
    for line in panel.text.splitlines():  # every seat of the grid, the step, the nomination
        visible = re.sub(r"\*\*|~~|`", "", line).split(until)[0]
        assert visible in shown, (visible, shown)
    for item in panel.items():
        if item.get("label"):
            assert item["label"] in shown
    accent = panel.components[0]["accent_color"]
    border = await page.evaluate("getComputedStyle(document.querySelector('.container')).borderLeftColor")
    assert border == f"rgb({accent >> 16}, {(accent >> 8) & 255}, {accent & 255})"
    assert card.text.splitlines()[0].replace("**", "") in shown

    await page.size(820, 100)  # the page's own height, then a picture of all of it
    height = await page.evaluate("document.documentElement.scrollHeight")
    await page.size(820, int(height))
    shots = Path(os.environ.get("MAFIABOT_SCREENSHOTS") or tmp_path / "screenshots")
    png = await page.screenshot(shots / picture)
    assert Image.open(io.BytesIO(png)).size == (820, int(height))
