"""City immunity across games (D-C5): «Иммунитет даётся игрокам, отстреленным в предыдущей игре в первую
ночь, либо покинувшим стол в результате голосования в первый день. Иммунитет действует при игре от 9
человек.»"""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver

import engine
from engine.simulate import play_random_game
from mafiabot.bot import MafiaBot
from mafiabot.game.immunity import KEY, earned


def test_the_first_nights_victims_and_the_first_days_condemned_earn_it() -> None:
    ruleset = engine.load_ruleset("city")
    checked = 0
    for seed in range(40):
        game = play_random_game(ruleset, 10, seed)
        state, _ = engine.new_game(ruleset, game.roles, seed)
        found: set[int] = set()
        expected: set[int] = set()
        for command in game.commands:
            state, events = engine.apply(state, command)
            found |= earned(state, events)
            for ev in events:
                # City's acquaintance night is engine night 1, so the first shots are announced on day 2.
                if ev.type == "killed" and state.phase == "day" and state.day == 2:
                    expected.add(ev.data["seat"])
                if ev.type == "executed" and state.day == 1:
                    expected.add(ev.data["seat"])
        assert found == expected, seed
        checked += bool(expected)
    assert checked >= 10  # the rule was exercised, not vacuously true


@pytest.mark.club(players=10)
async def test_a_new_city_game_of_nine_makes_them_immune_once(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    storage = bot.games.storage  # type: ignore[attr-defined]
    earners = [club.players[2].user.id, club.players[5].user.id]
    storage.update_guild_settings(club.id, ruleset_defaults={KEY: [str(u) for u in earners]})
    driver = TableDriver(fake, club, bot, club.players[:9])
    table = await driver.start("city")
    immune_users = {table.session.user_of(seat) for seat in table.session.state.immune}
    assert immune_users == set(earners)
    assert storage.guild_settings(club.id).ruleset_defaults[KEY] == []  # it does not carry further
    assert table.timer_state()["immune"] == sorted(table.session.state.immune)  # kept for a restart


@pytest.mark.club(players=10)
async def test_a_moderator_takes_immunity_away(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """«Игрок лишается его, если … вскрылся любой ролью, прикрываясь иммунитетом» (a moderator's call)."""
    earner = club.players[3]
    storage = bot.games.storage  # type: ignore[attr-defined]
    storage.update_guild_settings(club.id, ruleset_defaults={KEY: [str(earner.user.id)]})
    driver = TableDriver(fake, club, bot, club.players[:9])
    await driver.start("city")
    seat = driver.seat(earner)
    assert driver.state.immune == {seat}
    refused = await fake.slash(club.players[1], "mafia conduct immunity", channel=club.text, seat=seat)
    assert refused.ephemeral and driver.state.immune == {seat}
    done = await fake.slash(club.players[0], "mafia conduct immunity", channel=club.text, seat=seat)
    assert done.ephemeral and "лишён иммунитета" in done.content
    assert driver.state.immune == set()
