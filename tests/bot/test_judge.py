"""The judge through the local Discord (issue 19): extra points with a reason, the confirmation of a
result with its signed protocol, and a tournament of three `fiim` games whose table sums their points.
The games are whole random games (tests/bot/leak_games.py) played to their end."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import re
from typing import Any

import aiohttp
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.driver import Upload
from fakediscord.world import Role
from game_driver import MEMBER_EDIT, TableDriver
from leak_games import play

from engine import load_ruleset
from engine.simulate import play_random_game
from mafiabot.bot import MafiaBot
from mafiabot.game import protocol


def _signed(message: object) -> dict:  # type: ignore[type-arg]
    files = message.files  # type: ignore[attr-defined]
    [name] = [n for n in files if n.startswith("mafia-protocol-")]
    return json.loads(files[name])  # type: ignore[no-any-return]


@pytest.fixture
def host_role(fake: FakeDiscord, club: Club) -> Role:
    """The server's host role for the judge (made before the bot connects, like any existing role)."""
    role = fake.world.add_role(club.guild, "Судья")
    club.players[0].roles.append(role.id)
    return role


@pytest.mark.club(players=10)
@pytest.mark.web(enabled=True, port=0)
async def test_a_tournament_of_three_confirmed_games(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[attr-defined]
    judge, text = club.players[0], club.text
    stranger = club.players[9]
    started = await fake.slash(judge, "mafia tournament start", channel=text, name="Кубок клуба")
    assert "Открыт турнир «Кубок клуба»" in started.content
    again = await fake.slash(judge, "mafia tournament start", channel=text, name="Второй")
    assert again.ephemeral and "уже" in again.content
    key = await fake.slash(judge, "mafia judge key", channel=text)
    public = key.content.split("`")[1]
    bodies = []
    for game in range(3):
        outcome = await play(fake, club, bot, "fiim", seed=2000 + game, players=10)
        assert outcome.over, outcome
        if game == 0:
            refused = await fake.slash(
                stranger, "mafia judge points", channel=text, seat=2, points=0.3, reason="x"
            )
            assert refused.ephemeral and "судья" in refused.content
            wrong = await fake.slash(
                judge, "mafia judge points", channel=text, seat=2, points=2.0, reason="x"
            )
            assert wrong.ephemeral and "от -1 до 1" in wrong.content, wrong.content
            step = await fake.slash(
                judge, "mafia judge points", channel=text, seat=2, points=0.33, reason="x"
            )
            assert step.ephemeral and "шагом" in step.content, step.content
            given = await fake.slash(
                judge, "mafia judge points", channel=text, seat=2, points=0.3, reason="лучший игрок"
            )
            assert given.ephemeral and "игроку №2 +0.3" in given.content, given.content
        confirmed = await fake.slash(judge, "mafia judge confirm", channel=text)
        assert not confirmed.ephemeral and "подтвердил результат" in confirmed.content, confirmed.content
        signed = _signed(confirmed.message)
        assert signed["sha256"] in confirmed.content
        assert protocol.verify(signed, public) is None
        bodies.append(signed["protocol"])
        twice = await fake.slash(judge, "mafia judge confirm", channel=text)
        assert twice.ephemeral and "уже подтверждён" in twice.content
        late = await fake.slash(judge, "mafia judge points", channel=text, seat=3, points=0.1, reason="x")
        assert late.ephemeral and "не записаны" in late.content
    assert [a["points"] for a in bodies[0]["awards"]] == [0.3]
    assert next(p for p in bodies[0]["points"] if p["seat"] == 2)["extra"] == 0.3
    table = await fake.slash(judge, "mafia tournament table", channel=text)
    [name] = [n for n in table.message.files if n.endswith(".csv")]
    rows = list(csv.DictReader(io.StringIO(table.message.files[name].decode("utf-8"))))
    expected: dict[str, float] = {}
    for body in bodies:
        for p in body["points"]:
            player = body["seats"][p["seat"] - 1]["player"]
            expected[player] = round(expected.get(player, 0.0) + p["total"], 4)
    assert {r["player"]: float(r["total"]) for r in rows} == expected
    assert all(r["games"] == "3" for r in rows) and len(rows) == 10
    assert [float(r["total"]) for r in rows] == sorted((float(r["total"]) for r in rows), reverse=True)
    assert "Турнир «Кубок клуба»" in table.content
    # The same standings on the club's web pages, and the same CSV.
    web: Any = bot.get_cog("Web")
    async with aiohttp.ClientSession() as http:
        async with http.get(web.server.link(club.id, "/tournaments")) as response:
            page = await response.text()
            assert response.status == 200, page
        assert "Турнир «Кубок клуба»" in page
        shown = re.findall(r"<td class=\"left\">([^<]+)</td>", page.split('id="standings"')[1])
        assert [html.unescape(n) for n in shown] == [r["player"] for r in rows]
        async with http.get(web.server.link(club.id, "/tournament/999.csv")) as response:
            assert response.status == 404
        csv_link = re.search(r'href="([^"]+\.csv[^"]*)"', page)
        assert csv_link is not None
        async with http.get(web.server.base_url() + html.unescape(csv_link[1])) as response:
            assert response.status == 200
            assert await response.text() == table.message.files[name].decode("utf-8")
    closed = await fake.slash(judge, "mafia tournament end", channel=text)
    assert "Турнир закрыт" in closed.content


async def test_a_tournament_is_opened_with_the_chosen_scoring(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 19 item 3: «a table of results under a chosen scoring profile (FIIM by default, its variants
    as data)»: /mafia tournament start offers the fiim preset's [params.scoring_profiles]; the tournament
    keeps the one chosen and says which."""
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[attr-defined]
    storage = bot.games.storage
    assert storage is not None
    judge, text = club.players[0], club.text
    plain = await fake.slash(judge, "mafia tournament start", channel=text, name="Лига")
    assert "Очки по профилю ФИИМ (mafiaratings №19): победа +1" in plain.content, plain.content
    assert storage.open_tournament(club.id).scoring == "fiim_mr19"  # type: ignore[union-attr]
    await fake.slash(judge, "mafia tournament end", channel=text)
    chosen = await fake.slash(
        judge, "mafia tournament start", channel=text, name="Кубок", scoring="fiim_mr19_ci"
    )
    assert "компенсация Ci" in chosen.content, chosen.content
    assert storage.open_tournament(club.id).scoring == "fiim_mr19_ci"  # type: ignore[union-attr]
    # The choices are the preset's profiles, no more and no fewer.
    start = bot.tree.get_command("mafia").get_command("tournament").get_command("start")  # type: ignore[union-attr]
    offered = {c.value for c in start.get_parameter("scoring").choices}  # type: ignore[union-attr]
    assert offered == set(load_ruleset("fiim").params["scoring_profiles"])


@pytest.mark.club(players=12)
async def test_a_tournament_seating_schedule_is_drawn_stored_and_shown(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """FIIM.md F.2: «Seats are drawn at random or fixed by the tournament schedule» [MR 4.2]: twelve
    players over four games, seats fixed; then everyone in the judge's voice channel with seats drawn."""
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[attr-defined]
    judge, text = club.players[0], club.text
    early = await fake.slash(judge, "mafia tournament schedule", channel=text, games=4)
    assert early.ephemeral and "Открытого турнира нет" in early.content, early.content
    await fake.slash(judge, "mafia tournament start", channel=text, name="Лига")
    nobody = await fake.slash(judge, "mafia tournament schedule", channel=text, games=4)
    assert nobody.ephemeral and "голосовой канал" in nobody.content, nobody.content
    few = " ".join(f"<@{p.id}>" for p in club.players[:9])
    short = await fake.slash(judge, "mafia tournament schedule", channel=text, games=4, players=few)
    assert short.ephemeral and "не меньше 10" in short.content, short.content
    assert "Названо 9 игроков" in short.content
    stranger = await fake.slash(club.players[5], "mafia tournament schedule", channel=text, games=4)
    assert stranger.ephemeral and "судья" in stranger.content

    everyone = " ".join(f"<@{p.id}>" for p in club.players)
    made = await fake.slash(judge, "mafia tournament schedule", channel=text, games=4, players=everyone)
    assert not made.ephemeral and "рассадка на 4 игры" in made.content, made.content
    assert "места по расписанию" in made.content
    lines = [line for line in made.content.splitlines() if line.startswith("Игра ")]
    assert len(lines) == 4 and lines[0].startswith("Игра 1: 1 "), made.content
    [name] = [n for n in made.message.files if n.endswith("-seating.csv")]
    rows = list(csv.DictReader(io.StringIO(made.message.files[name].decode("utf-8"))))
    assert len(rows) == 40 and {r["seat"] for r in rows} == {str(x) for x in range(1, 11)}
    games_of: dict[str, int] = {}
    for r in rows:
        games_of[r["user_id"]] = games_of.get(r["user_id"], 0) + 1
    assert set(games_of) == {str(p.id) for p in club.players}
    names = {str(p.id): p.nick or p.user.global_name or p.user.username for p in club.players}
    assert all(r["player"] == names[r["user_id"]] for r in rows)  # fetched: not cached, not in voice
    assert max(games_of.values()) - min(games_of.values()) <= 1  # 40 places for 12: 3 or 4 games each
    shown = await fake.slash(club.players[7], "mafia tournament seating", channel=text)
    assert shown.content == made.content  # stored: anyone reads the same schedule

    for p in club.players[:10]:
        await fake.join_voice(p, club.voice)
    drawn = await fake.slash(judge, "mafia tournament schedule", channel=text, games=2, seating="drawn")
    assert "места жребием за столом" in drawn.content, drawn.content
    [name] = [n for n in drawn.message.files if n.endswith("-seating.csv")]
    rows = list(csv.DictReader(io.StringIO(drawn.message.files[name].decode("utf-8"))))
    assert len(rows) == 20 and {r["seat"] for r in rows} == {""}
    assert {r["user_id"] for r in rows} == {str(p.id) for p in club.players[:10]}


def _body(seed: int) -> dict:  # type: ignore[type-arg]
    game = play_random_game(load_ruleset("fiim"), 10, seed)
    record = {
        "ruleset": "fiim",
        "options": {},
        "seed": seed,
        "seats": list(game.roles),
        "players": [{"seat": i, "user_id": str(1000 + i), "name": f"игрок{i}"} for i in range(1, 11)],
        "commands": [c.to_json() for c in game.commands],
    }
    return protocol.build(record, game_id=4, confirmed_by="1", confirmed_at="2026-12-01T20:00:00+00:00")


def _file(signed: object, name: str = "mafia-protocol-4.json") -> Upload:
    return Upload(name, json.dumps(signed, ensure_ascii=False).encode("utf-8"))


async def test_a_protocol_file_is_verified_and_a_tampered_one_refused(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """`/mafia judge verify`: the bot checks an uploaded protocol's fingerprint and its own signature, and
    replays the record inside it (as `python -m mafiabot.game.protocol FILE --key` does); anything else is
    refused, saying why."""
    seed = bot.games.storage.protocol_key(None, protocol.new_key)  # type: ignore[attr-defined]
    body = _body(11)
    signed = protocol.sign(body, seed)
    who, text = club.players[3], club.text  # anyone may check a protocol

    async def verify(upload: Upload, **extra: str) -> str:
        answer = await fake.slash(who, "mafia judge verify", channel=text, file=upload, **extra)
        assert answer.ephemeral, answer.content
        return answer.content

    said = await verify(_file(signed))
    assert said.startswith("Протокол игры #4 (fiim) подлинный: подписан этим ботом"), said
    assert signed["sha256"] in said

    changed = copy.deepcopy(signed)
    changed["protocol"]["points"][0]["total"] += 1
    said = await verify(_file(changed))
    assert said == "Протокол «mafia-protocol-4.json» не принят: файл изменён после подписи " + (
        "(SHA-256 не совпадает с протоколом)."
    ), said
    changed["sha256"] = protocol.fingerprint(changed["protocol"])
    assert "подпись не сходится" in await verify(_file(changed))
    forged = copy.deepcopy(body)
    forged["points"][0]["total"] += 1
    assert "не переигрывается" in await verify(_file(protocol.sign(forged, seed)))
    other = protocol.new_key()
    by_other = protocol.sign(body, other)
    assert "подписан другим ключом" in await verify(_file(by_other))
    said = await verify(_file(by_other), key=protocol.public_key(other))
    assert "подлинный: подписан названным ключом" in said, said
    assert "не подписанный протокол" in await verify(Upload("x.json", b"{not json"))
    assert "не подписанный протокол" in await verify(Upload("x.json", b'{"protocol": 1}'))


@pytest.mark.club(players=10)
async def test_a_game_of_the_schedule_is_seated_as_scheduled(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """FIIM.md F.2, «fixed by the tournament schedule»: when the players of the next scheduled game start a
    game, they sit where the schedule puts them, and the seating says so."""
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[attr-defined]
    judge, text = club.players[0], club.text
    await fake.slash(judge, "mafia tournament start", channel=text, name="Лига")
    everyone = " ".join(f"<@{p.id}>" for p in club.players)
    made = await fake.slash(judge, "mafia tournament schedule", channel=text, games=2, players=everyone)
    assert not made.ephemeral, made.content
    storage = bot.games.storage
    assert storage is not None
    tournament = storage.open_tournament(club.id)
    assert tournament is not None and tournament.id is not None
    found = storage.schedule(tournament.id)
    assert found is not None
    first = [p.user_id for p in found[1][0]]
    assert sorted(first) == sorted(p.id for p in club.players)

    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    table = await d.start("fiim")
    assert [s.user_id for s in table.session.seats] == first
    assert any("по расписанию турнира «Лига», игра 1" in t for t in d.public_texts())
