"""Who may open a server's pages: signed links for one server that expire, public pages by choice, and
nothing of a running game beyond what the table sees, whatever the address asks for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from club_seed import GUILD, OTHER_GUILD, USERS
from web_helpers import NOW, SECRET, Site

from mafiabot.web import links
from mafiabot.web.server import PUBLIC_KEY

ROOT = Path(__file__).resolve().parents[2]


def _key(link: str) -> str:
    return parse_qs(urlsplit(link).query)[links.KEY_PARAM][0]


def test_a_key_opens_one_server_until_it_expires() -> None:
    key = links.sign(SECRET, GUILD, int(NOW) + 60)
    assert links.check(SECRET, GUILD, key, NOW) is None
    assert links.check(SECRET, GUILD, key, NOW + 60) == "expired"
    assert links.check(SECRET, OTHER_GUILD, key, NOW) is not None
    assert links.check(b"another secret", GUILD, key, NOW) is not None
    expiry, _, signature = key.partition(".")
    assert links.check(SECRET, GUILD, f"{int(expiry) + 3600}.{signature}", NOW) is not None  # longer life
    flipped = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    assert links.check(SECRET, GUILD, f"{expiry}.{flipped}", NOW) is not None
    for broken in ("", ".", "abc", f"{expiry}.", f"-1.{signature}", f"{expiry}.{signature}\u00e9"):
        assert links.check(SECRET, GUILD, broken, NOW) is not None, broken


async def test_private_pages_need_a_signed_unexpired_link_for_their_own_server(site: Site) -> None:
    link = site.server.link(GUILD, "/top")
    status, page = await site.get(link)
    assert status == 200 and "Таблица сезона" in page

    # Without a key signed for this server: the answer of a server the bot does not serve (a 403 would
    # tell a stranger that this server uses the bot).
    stranger = 930_000_000_000_000_001
    unknown = await site.get(f"/g/{stranger}/top")
    assert unknown[0] == 404
    assert await site.get(f"/g/{GUILD}/top") == unknown  # no key
    other = site.server.link(OTHER_GUILD, "/top")
    assert (await site.get(f"/g/{GUILD}/top?k={_key(other)}"))[0] == 404  # another server's key
    expiry, _, signature = _key(link).partition(".")
    tampered = signature[:5] + ("x" if signature[5] != "x" else "y") + signature[6:]
    assert (await site.get(f"/g/{GUILD}/top?k={expiry}.{tampered}"))[0] == 404
    assert (await site.get(f"/g/{GUILD}/top?k={int(expiry) + 1}.{signature}"))[0] == 404  # a longer life
    assert (await site.get(f"/g/{GUILD}/top?k=garbage"))[0] == 404

    site.clock.now = NOW + site.server.settings.link_hours * 3600 + 1
    status, page = await site.get(link)
    assert status == 403 and "Срок действия ссылки истёк" in page
    for path in ("/games", f"/player/{USERS[0]}", f"/game/{site.seeded.finished[0]}"):
        assert (await site.get(f"/g/{GUILD}{path}?k={_key(link)}"))[0] == 403, path


async def test_ids_of_other_servers_are_pages_that_do_not_exist(site: Site) -> None:
    key = _key(site.server.link(GUILD))
    # A game of the other server, through this server's (valid) link: as if it did not exist.
    status, page = await site.get(f"/g/{GUILD}/game/{site.seeded.other_guild_game}?k={key}")
    assert status == 404 and "нет" in page
    assert (await site.get(f"/g/{GUILD}/game/{site.seeded.other_guild_game}/record.json?k={key}"))[0] == 404
    assert (await site.get(f"/g/{GUILD}/game/999999?k={key}"))[0] == 404
    assert (await site.get(f"/g/{GUILD}/player/123?k={key}"))[0] == 404  # never played here
    assert (await site.get(f"/g/{GUILD}/player/12x?k={key}"))[0] == 404
    # A server the bot does not serve: 404 with or without a key signed for it.
    stranger = 930_000_000_000_000_001
    assert (await site.get(site.server.link(stranger, "/top")))[0] == 404
    assert (await site.get("/g/not-a-number/top"))[0] == 404
    site.server.allowed = (OTHER_GUILD,)  # the allow-list
    assert (await site.get(site.server.link(GUILD, "/top")))[0] == 404


async def test_a_server_may_make_its_pages_public(site: Site) -> None:
    site.storage.set_guild_value(GUILD, PUBLIC_KEY, True)
    status, page = await site.get(f"/g/{GUILD}/top")
    assert status == 200
    assert f'href="/g/{GUILD}/player/{USERS[0]}?season=1"' in page  # its links carry no key
    assert (await site.get(f"/g/{OTHER_GUILD}/top"))[0] == 404  # the other server stays private
    site.storage.set_guild_value(GUILD, PUBLIC_KEY, False)
    assert (await site.get(f"/g/{GUILD}/top"))[0] == 404


async def test_a_running_games_protocol_shows_the_table_only(site: Site) -> None:
    running = site.seeded.running
    key = _key(site.server.link(GUILD))
    status, page = await site.get(f"/g/{GUILD}/game/{running}?k={key}")
    assert status == 200 and 'id="running"' in page
    assert "<h3>Ночь 1</h3>" in page and 'class="speech"' in page  # the public course of the game is there
    for role in ("Мафия", "Комиссар", "Дон", "Доктор", "Честный горожанин"):
        # Roles appear only where the rules showed them (a lynch shows the card): never in the seats.
        seats = page.split('id="seats"')[1].split("</table>")[0]
        assert role not in seats
    assert "скрыто за столом" not in page and "private" not in page  # no host or seat lines at all
    assert "record.json" not in page
    assert (await site.get(f"/g/{GUILD}/game/{running}/record.json?k={key}"))[0] == 404
    # The player's history: the running game without its role.
    status, profile = await site.get(f"/g/{GUILD}/player/{USERS[0]}?k={key}")
    row = profile.split(f"#{running}</a>")[1].split("</tr>")[0]
    assert "идёт" in row and all(r not in row for r in ("Мафия", "Комиссар", "Дон", "горожанин"))


async def test_a_finished_games_record_downloads_and_replays(site: Site, tmp_path: Path) -> None:
    game_id = site.seeded.finished[0]
    key = _key(site.server.link(GUILD))
    async with site.http.get(f"{site.root}/g/{GUILD}/game/{game_id}/record.json?k={key}") as response:
        assert response.status == 200
        assert response.headers["Content-Disposition"] == f'attachment; filename="mafia-game-{game_id}.json"'
        assert response.headers["Referrer-Policy"] == "no-referrer"
        record = json.loads(await response.text())
    assert [p["name"] for p in record["players"]][:2] == ["Аня", "Борис"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["type"] == "game_over" or any(e["type"] == "game_over" for e in events)
