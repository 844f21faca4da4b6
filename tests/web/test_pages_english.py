"""The club's pages on an English server (issue 16): every heading, column, status, role, side and line
of a game's course in English; what is left in Cyrillic is only what the members wrote themselves (their
names, the club's name, a foul's reason) and what the bot named itself in Russian before (a season)."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Iterator

import pytest
from club_seed import GUILD, NAMES, USERS, store_game
from web_helpers import Site

from mafiabot import i18n

CYRILLIC = re.compile("[А-Яа-яЁё]+")
THEIRS = [*NAMES, "Клуб «Полночь»", "перебивал"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.remember_language(GUILD, "en")
    yield
    i18n.remember_language(GUILD, None)


def _russian(page: str) -> list[str]:
    shown = html.unescape(page)
    for own in THEIRS:
        shown = shown.replace(html.unescape(own), "")
    return CYRILLIC.findall(shown)


async def test_the_pages_of_an_english_server_are_in_english(site: Site) -> None:
    game_id = site.seeded.finished[0]
    pages = {}
    for path in (
        "/top",
        "/games",
        f"/game/{game_id}",
        f"/player/{USERS[0]}",
        "/tournaments",
        "/live",
        "/game/999999",
    ):
        status, pages[path] = await site.get(site.server.link(GUILD, path))
        assert status == (404 if path == "/game/999999" else 200), (path, pages[path][:300])
    assert '<html lang="en">' in pages["/top"] and "Season table: " in pages["/top"]
    game = pages[f"/game/{game_id}"]
    assert "The course of the game" in game and re.search(r"<h3>Night 1</h3>", game)
    assert re.search(r'class="vote">For #\d+ [^(]+ \(\d+\): #\d+', game), game
    assert '<li class="private" data-private="hidden at the table">' in game or "hidden at the table" in game
    # (A path no page has answers in the bot's language: a server's own would tell whom the bot serves.)
    assert "There is no game #999999 on this server." in pages["/game/999999"]
    leaks = {path: _russian(page) for path, page in pages.items()}
    assert {path: found for path, found in leaks.items() if found} == {}


@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("hobbyworld", ("more_specials", "maniac"), 16),
        ("blood", ("more_specials", "wolf"), 16),
        ("city", (), 12),
        ("simple", (), 10),
        ("fiim", (), 10),
    ],
)
async def test_the_course_of_each_presets_game_is_in_english(
    site: Site, preset: str, options: tuple[str, ...], players: int
) -> None:
    """The classic game above aside, every preset's own roles, steps, sides and lines (a richer deck where
    the preset has special roles) are in English on an English server."""
    game_id = await asyncio.to_thread(store_game, site.storage, preset, options, players, 11)
    # A foul as the bot stores it: the rulebook's words, then the moderator's note.
    await asyncio.to_thread(
        site.storage.add_foul,
        game_id,
        seat=1,
        user_id=USERS[0],
        reason="Маты: loud",
        day=1,
        given_by=USERS[1],
    )
    status, page = await site.get(site.server.link(GUILD, f"/game/{game_id}"))
    assert status == 200, page[:300]
    assert "The course of the game" in page and "<h3>Night 1</h3>" in page, page
    roles = {role: i18n.text("en", f"role-{role}") for role in ("maniac", "wolf", "don")}
    named = {"hobbyworld": "maniac", "blood": "wolf", "city": "don", "simple": "don", "fiim": "don"}[preset]
    assert roles[named] in page and "Swearing: loud" in page, page
    assert _russian(page) == [], _russian(page)
