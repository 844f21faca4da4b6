"""The judge through the local Discord (issue 19): extra points with a reason, the confirmation of a
result with its signed protocol, and a tournament of three `fiim` games whose table sums their points.
The games are whole random games (tests/bot/leak_games.py) played to their end."""

from __future__ import annotations

import csv
import io
import json

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Role
from leak_games import play

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
    closed = await fake.slash(judge, "mafia tournament end", channel=text)
    assert "Турнир закрыт" in closed.content
