"""A first look at a hosted game: lobby, start, deal, and the night muting."""

from __future__ import annotations

import random
import secrets

import pytest
from fakediscord import Club, FakeDiscord

import engine
from mafiabot.bot import MafiaBot


async def test_lobby_start_and_deal(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    players = club.players[:7]
    for p in players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(players[0], "mafia new", channel=club.text, ruleset="classic")
    assert not opened.ephemeral
    lobby_id = opened.message.id

    def lobby_message():
        return next(m for m in fake.messages(club.text) if m.id == lobby_id)

    for p in players[1:]:
        await fake.click(p, lobby_message(), label="Присоединиться")
    start = await fake.click(players[0], lobby_message(), label="Начать игру")
    assert start.callback_type == 6
    games = bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, what="the game panel")
    await table.settled()
    texts = [m.content for m in fake.messages(club.text)]
    assert any("Рассадка" in t for t in texts), texts
    for p in players:
        assert fake.dms(p), p
    print("\n".join(texts))


async def test_the_deal_and_the_hosts_timing_do_not_follow_from_the_games_seed(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed is published with the game's record and drives the engine's public lots; were the deal
    ``deal(seed)`` and the night's timing ``Random(seed)``, a player could try all 2**31 seeds against
    what the game shows (a lot, a step's length) and read the seating of the roles. Every draw of the
    service is made distinct here (1, 2, 3…): the roles come from a draw of their own, never stored."""
    drawn = iter(range(1, 100))
    monkeypatch.setattr(secrets, "randbits", lambda bits: next(drawn))
    players = club.players[:7]
    for p in players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(players[0], "mafia new", channel=club.text, ruleset="classic")
    for p in players[1:]:
        await fake.click(p, opened.message, label="Присоединиться")
    await fake.click(players[0], opened.message, label="Начать игру")
    games = bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, what="the game panel")
    await table.settled()
    session = table.session
    rules = engine.load_ruleset("classic")
    assert engine.deal(rules, 7, 1) != engine.deal(rules, 7, 2)  # (so that the test can tell them apart)
    assert session.seed == 1
    assert list(session.roles) == engine.deal(rules, 7, 2)
    # The host's timing: not the generator a seed would give.
    seeded = random.Random(1 ^ 0xC0FFEE)  # as the host's draws were made before
    assert [session._rng.random() for _ in range(3)] != [seeded.random() for _ in range(3)]
