"""Whole random games of every preset through the local Discord: nothing public tells a secret before
the end (issue 13). A few games here (MAFIABOT_LEAK_GAMES per preset, default 1, to keep CI short);
by hand `MAFIABOT_LEAK_GAMES=50 pytest -s tests/bot/test_leak_games.py`, the figure in BENCHMARKS.md."""

from __future__ import annotations

import os

import pytest
from fakediscord import Club, FakeDiscord
from leak_games import Outcome, RandomTable, check, play

import engine
from mafiabot.bot import MafiaBot

GAMES = int(os.environ.get("MAFIABOT_LEAK_GAMES", "1"))
PLAYERS = {"blood": 9, "city": 9, "classic": 9, "fiim": 10, "hobbyworld": 9, "simple": 9}  # fiim: exactly 10


@pytest.mark.club(players=10)
@pytest.mark.parametrize("preset", engine.available_presets())
@pytest.mark.parametrize("game", range(GAMES))
async def test_random_games_leak_nothing(
    preset: str, game: int, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    outcome = await play(fake, club, bot, preset, seed=1000 + game, players=PLAYERS.get(preset, 9))
    o = outcome
    print(
        f"LEAK {preset} seed {o.seed}: over={o.over} steps={o.steps} public={o.public_outputs} "
        f"spoken={o.spoken} checks={o.checks} leaks={len(o.leaks)}"
    )
    assert outcome.public_outputs > 20 and outcome.checks > 0 and outcome.spoken > 5
    assert outcome.leaks == [], outcome.leaks[:5]


@pytest.mark.club(players=10)
async def test_the_oracle_sees_a_leak(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """The check is not blind: a role card posted in the game's channel is caught."""
    import random

    d = RandomTable(fake, club, bot, 9, random.Random(1))
    await d.start("city")
    card = next(m.text for m in fake.dms(d.member(1)) if m.text.startswith("Ваша роль"))
    await d.table.channel.send(f"(утечка) {card}")  # type: ignore[union-attr]
    role = d.state.ruleset.roles[d.state.role_of(2)].display
    await d.table.channel.send(f"Говорят, №2 — {role}")  # type: ignore[union-attr]
    d.voice.lines.append(
        (len(fake.calls) - 1, f"Игрок номер три — {d.state.ruleset.roles[d.state.role_of(3)].display}")
    )
    d.marks.append((len(fake.calls), frozenset(d.state.revealed)))
    outcome = Outcome("city", 1)
    check(d, outcome)
    assert any("private line" in leak for leak in outcome.leaks), outcome.leaks
    assert any("hidden role of seat 2" in leak for leak in outcome.leaks), outcome.leaks
    assert any("hidden role of seat 3" in leak for leak in outcome.leaks), outcome.leaks  # said aloud
