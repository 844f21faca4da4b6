"""The short chaos run of CI: the bot is SIGKILLed once at every named point of its lifecycle, and a few
times at random, in whole games; after every restart the harness checks issue 12's promises (see
monkey.py). The soak (`scripts/chaos`) runs the same for hundreds of kills across every preset."""

from __future__ import annotations

import random

import pytest
from fakediscord import Club, FakeDiscord

from chaos.bot_process import BotProcess
from chaos.monkey import POINTS, ChaosTable, Figures, named_point_game


def _assert_clean(figures: Figures) -> None:
    assert figures.lost_commands == figures.doubled_commands == 0, figures.defects
    assert figures.zombie_games == 0, figures.defects
    assert figures.wrong_mutes == 0 and figures.wrong_step == 0, figures.defects
    assert all(lost <= 1.0 for lost in figures.time_lost), figures.time_lost
    assert figures.left_muted == 0, figures.defects
    assert figures.lost_lobbies == 0, figures.defects
    assert not figures.defects


@pytest.mark.parametrize("point", POINTS)
async def test_a_kill_at_a_named_point_loses_nothing(
    fake: FakeDiscord, club: Club, bot_process: BotProcess, point: str
) -> None:
    figures = Figures()
    chaos = ChaosTable(fake, club, bot_process, random.Random(point), figures)
    # Ten steps after the restart, then stopped: the soak (scripts/chaos) plays these games to their end.
    await named_point_game(chaos, point, stop_after_kill=10)
    assert figures.named_kills == 1, figures.defects
    _assert_clean(figures)


async def test_random_kills_in_a_whole_game_lose_nothing(
    fake: FakeDiscord, club: Club, bot_process: BotProcess
) -> None:
    figures = Figures()
    chaos = ChaosTable(fake, club, bot_process, random.Random(12), figures)
    while figures.kills < 3 and figures.games < 6:  # a game may end before the killer's moment
        assert await chaos.open_game("classic"), figures.defects
        await chaos.play(kill_each=(0.3, 2.5), max_kills=3 - figures.kills)
    assert figures.kills >= 1
    _assert_clean(figures)


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_kill_while_a_lobby_fills_loses_no_lobby_and_no_answered_join(
    fake: FakeDiscord, club: Club, bot_process: BotProcess, seed: int
) -> None:
    """SIGKILLed at a random join (right after the click: answered or not), the lobby comes back with
    everyone the bot answered, its message shows them, its buttons fill and start it, and the game
    seats exactly its players; the game is then stopped and must close with nobody muted."""
    figures = Figures()
    chaos = ChaosTable(fake, club, bot_process, random.Random(seed), figures)
    assert await chaos.open_game("classic", kill_in_lobby=True), figures.defects
    assert figures.lobby_kills == 1 and figures.kills == 1, figures.defects
    await chaos.wait_for_panel()
    await chaos.stop_game()
    await chaos.check_closed()
    _assert_clean(figures)
