"""What the pages show: the season's table (sortable), a player's profile with his chart, a game's
protocol with its seats, votes and points, all in Russian and escaped."""

from __future__ import annotations

import io
import re
from urllib.parse import parse_qs, urlsplit

from club_seed import GUILD, NAMES, USERS
from PIL import Image
from web_helpers import Site

from mafiabot.web import links


def _rows(page: str) -> list[str]:
    body = page.split('id="board"')[1].split("<tbody>")[1].split("</tbody>")[0]
    return re.findall(r'data-user="(\d+)"', body)


async def test_the_leaderboard_lists_the_season_and_sorts_by_any_column(site: Site) -> None:
    link = site.server.link(GUILD, "/top")
    key = parse_qs(urlsplit(link).query)[links.KEY_PARAM][0]
    status, page = await site.get(link)
    assert status == 200 and "Сезон 1" in page and 'lang="ru"' in page
    _, table = site.storage.season_table(GUILD)
    by_points = [str(r.user_id) for r in table if r.games]
    assert _rows(page) == by_points
    assert len(by_points) == len(USERS)  # everyone played at least one finished game
    status, page = await site.get(f"/g/{GUILD}/top?sort=fouls&k={key}")
    assert _rows(page)[0] == str(USERS[1])  # the only foul of the season
    status, page = await site.get(f"/g/{GUILD}/top?sort=name&order=asc&k={key}")
    names = [next(r.display_name for r in table if str(r.user_id) == u) for u in _rows(page)]
    assert names == sorted(names, key=str.casefold)
    status, page = await site.get(f"/g/{GUILD}/top?sort=elo_black&k={key}")
    values = [next(r.elo_black for r in table if str(r.user_id) == u) for u in _rows(page)]
    assert values == sorted(values, reverse=True)
    # A name is the member's own text: shown, never run as markup.
    assert "&lt;b&gt;Мила&lt;/b&gt;" in page and "<b>Мила</b>" not in page
    assert (await site.get(f"/g/{GUILD}/top?season=7&k={key}"))[0] == 404


async def test_the_profile_has_its_numbers_and_a_chart_of_the_library(site: Site) -> None:
    user = USERS[0]
    link = site.server.link(GUILD, f"/player/{user}", track="elo_red")
    status, page = await site.get(link)
    assert status == 200 and f"<h1>{NAMES[0]}</h1>" in page
    shown = site.storage.player_profile(GUILD, user)
    assert f"Игры<b>{shown.games}</b>" in page
    assert 'id="roles"' in page and 'id="sides"' in page
    chart = re.search(r'<img class="chart" alt="[^"]*" src="([^"]+)"', page)
    assert chart is not None
    async with site.http.get(site.root + chart.group(1).replace("&amp;", "&")) as response:
        assert response.status == 200 and response.content_type == "image/png"
        image = Image.open(io.BytesIO(await response.read()))
    assert image.size == (800, 400) and image.info["Title"] == f"{NAMES[0]} — Эло за красных"
    for game_id in site.seeded.finished:
        if f"/game/{game_id}?" in page:
            break
    else:
        raise AssertionError("the profile links none of the player's games")


async def test_a_finished_games_protocol(site: Site) -> None:
    game_id = site.seeded.finished[0]
    record = site.storage.game_record(game_id)
    status, page = await site.get(site.server.link(GUILD, f"/game/{game_id}"))
    assert status == 200
    seats = page.split('id="seats"')[1].split("</table>")[0]
    for p in record.participants:
        assert f"№{p.seat}</td>" in seats
    assert "Мафия" in seats and "мирные" in seats  # roles and sides after the end
    assert "record.json" in page and "Ход игры" in page
    assert re.search(r"<h3>Ночь 1</h3>", page) and re.search(r"<h3>День 1</h3>", page)
    assert re.search(r'class="vote">За №\d+ [^(]+ голосуют \(\d+\): №\d+', page)
    # the night's actions, shown after the end
    assert re.search(r'<li class="[a-z ]*private" data-private="скрыто за столом">', page)
    assert "Игрок №2, день 1: перебивал" in page  # the foul
    assert "+1.0" in seats  # a winner's season point


async def test_the_games_list_links_each_game_of_the_server(site: Site) -> None:
    status, page = await site.get(site.server.link(GUILD, "/games"))
    assert status == 200
    for game_id in [*site.seeded.finished, site.seeded.running]:
        assert f"#{game_id}</a>" in page
    assert f"#{site.seeded.other_guild_game}</a>" not in page
    row = page.split(f"#{site.seeded.running}</a>")[1].split("</tr>")[0]
    assert "идёт" in row and "победа" not in row
    assert "победа: мирные" in page or "победа: мафия" in page


async def test_a_server_without_tournaments_says_how_to_open_one(site: Site) -> None:
    status, page = await site.get(site.server.link(GUILD, "/tournaments"))
    assert status == 200 and "турниров ещё не было" in page and "/mafia tournament start" in page
    assert (await site.get(site.server.link(GUILD, "/tournaments", t="7")))[0] == 404
    assert (await site.get(site.server.link(GUILD, "/tournament/7.csv")))[0] == 404
