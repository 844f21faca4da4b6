"""No side door to a secret (issue 13): while a game runs, the rating commands show its seats and public
events, never a role; once it is over they show everything."""

from __future__ import annotations

import pytest
from conduct_helpers import Game
from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot
from mafiabot.disclosure import ENDED
from mafiabot.storage import GameStatus


def test_the_rule_knows_the_storage_statuses() -> None:
    assert {GameStatus.FINISHED, GameStatus.ABORTED} == ENDED
    assert GameStatus.RUNNING not in ENDED


@pytest.mark.parametrize("preset", ["city", "hobbyworld"])
async def test_a_running_game_shows_seats_not_roles(
    preset: str, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot, players=10)
    table = await g.start(preset)
    await g.skip_until(lambda s: s.phase == "day" and s.day == 1)
    roles = {x: g.state.ruleset.roles[g.state.role_of(x)].display for x in range(1, 11)}
    for seat in (1, 5, 10):
        player = g.member(seat)
        line = f"#{table.game_id} "
        profile = await fake.slash(g.players[1], "mafia rating", channel=club.text, player=player)
        assert not profile.ephemeral and line in profile.content
        assert f"№{seat} · идёт" in profile.content, profile.content
        own = await fake.slash(player, "mafia rating", channel=club.text)
        history = await fake.slash(g.players[1], "mafia history", channel=club.text, player=player)
        for answer in (profile, own, history):
            shown = next(x for x in answer.content.splitlines() if x.startswith(line))
            assert shown.endswith(f"№{seat} · идёт"), shown
            assert not any(role in shown for role in roles.values()), shown

    record = await fake.slash(g.players[3], "mafia game", channel=club.text, game_id=table.game_id)
    assert f"**Игра #{table.game_id}** · {preset}" in record.content
    card = record.content.splitlines()[1:]
    assert [x.split(">")[0] for x in card] == [f"№{x} <@{g.member(x).id}" for x in range(1, 11)]
    assert all(x.endswith("замечаний 0") for x in card), card
    text = record.message.files[f"mafia-game-{table.game_id}.txt"].decode()
    head, _, events = text.partition("\n\n")
    assert head.splitlines()[1:] == [
        *(f"№{x} {g.member(x).user.username}" for x in range(1, 11)),
        "(игра идёт: роли и ночные ходы откроются после её окончания)",
    ]
    assert "[лично]" not in events and "Ваша роль" not in events
    assert events.startswith("Игра начинается.")

    await fake.slash(g.moderator, "mafia stop", channel=club.text)
    await fake.wait_for(lambda: not g.games.tables, what="the table to close")
    await g.settled()
    over = await fake.slash(g.players[1], "mafia history", channel=club.text, player=g.member(5))
    assert f"№5 {roles[5]} · остановлена · +0.0" in over.content, over.content
    record = await fake.slash(g.players[3], "mafia game", channel=club.text, game_id=table.game_id)
    assert f"№5 <@{g.member(5).id}> — {roles[5]} (" in record.content
