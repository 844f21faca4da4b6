"""Team Elo against hand-computed examples (numbers worked out with a calculator, to 2–4 decimals)."""

from __future__ import annotations

import math

import pytest

from mafiabot.ratings import EloConfig, EloSeat, RatingError, Team, elo_changes, expected_black, side_offset

RED, BLACK = Team.RED, Team.BLACK


def table(red: list[float], black: list[float], games: int = 0) -> list[EloSeat]:
    seats = [EloSeat(100 + i, RED, r, games) for i, r in enumerate(red)]
    return seats + [EloSeat(200 + i, BLACK, r, games) for i, r in enumerate(black)]


def by_user(changes) -> dict[int, float]:
    return {c.user_id: c.delta for c in changes}


def test_readme_example_seven_red_three_black() -> None:
    changes = by_user(elo_changes(table([1500] * 7, [1500] * 3), RED))
    assert changes[100] == pytest.approx(32 * 0.5 * 5 / 7) == pytest.approx(11.4286, abs=1e-4)
    assert changes[200] == pytest.approx(-32 * 0.5 * 5 / 3) == pytest.approx(-26.6667, abs=1e-4)
    assert sum(changes.values()) == pytest.approx(0, abs=1e-9)


def test_stronger_black_team_with_an_offset() -> None:
    """Red 1500 on average, black 1600, offset for 30 black wins to 10 red: 400·log10(2) = 120.41.

    E_black = 1 / (1 + 10^((1500 − 1720.41) / 400)) = 1 / (1 + 0.28117) = 0.78053.
    Black wins: each of 2 black (K 16) gains 16 · 0.21947 · 4/2 = 7.0230; each of 6 red loses 2.3410.
    """
    offset = side_offset(30, 10)
    assert offset == pytest.approx(120.4120, abs=1e-4)
    assert expected_black(1500, 1600, offset) == pytest.approx(0.78053, abs=1e-5)
    seats = table([1450, 1550, 1500, 1500, 1480, 1520], [1650, 1550], games=20)
    changes = by_user(elo_changes(seats, BLACK, offset=offset))
    assert changes[200] == changes[201] == pytest.approx(7.0230, abs=1e-3)
    assert changes[100] == pytest.approx(-2.3410, abs=1e-3)
    assert sum(changes.values()) == pytest.approx(0, abs=1e-9)


def test_upset_moves_more_than_the_expected_result() -> None:
    favourite_wins = by_user(elo_changes(table([1500] * 6, [1600] * 2), BLACK))[200]
    upset = by_user(elo_changes(table([1500] * 6, [1600] * 2), RED))[100]
    # K = 32 (new players); at even odds a black player would gain 32 · ½ · 2 and a red one 32 · ½ · 4/6.
    assert favourite_wins < 32 * 0.5 * 2 and upset > 32 * 0.5 * 4 / 6


def test_k_is_32_for_the_first_15_games() -> None:
    config = EloConfig()
    assert [config.k_factor(n) for n in (0, 14, 15, 100)] == [32, 32, 16, 16]
    mixed = [EloSeat(1, RED, 1500, 14), EloSeat(2, RED, 1500, 15), EloSeat(3, BLACK, 1500, 0)]
    changes = {c.user_id: c for c in elo_changes(mixed, RED)}
    assert (changes[1].k, changes[2].k, changes[3].k) == (32, 16, 32)
    # N/2 = 1.5; red share 1.5/2, black 1.5/1; E = ½.
    assert (changes[1].delta, changes[2].delta, changes[3].delta) == pytest.approx((12.0, 6.0, -24.0))
    # K differs, so the sum is not zero, but the K-normalised sum is.
    assert sum(c.delta for c in changes.values()) == pytest.approx(-6.0)
    assert sum(c.delta / c.k for c in changes.values()) == pytest.approx(0.0, abs=1e-12)


def test_side_offset() -> None:
    assert side_offset(0, 0) == 0.0  # a new server
    assert side_offset(17, 17) == 0.0
    assert side_offset(10, 30) == pytest.approx(-side_offset(30, 10))
    assert side_offset(5, 0, EloConfig(offset_prior_games=10)) == pytest.approx(400 * math.log10(10 / 5))
    assert side_offset(0, 0, EloConfig(offset_prior_games=0)) == 0.0
    with pytest.raises(RatingError):
        side_offset(3, 0, EloConfig(offset_prior_games=0))
    with pytest.raises(RatingError):
        side_offset(-1, 0)


def test_a_draw_between_equal_teams_moves_nobody() -> None:
    assert all(c.delta == 0 for c in elo_changes(table([1500] * 5, [1500] * 2), None))


def test_nobody_is_rated_without_both_teams() -> None:
    assert elo_changes(table([1500] * 5, []), RED) == []
    assert elo_changes(table([], [1500] * 3), BLACK) == []


def test_same_player_twice_is_refused() -> None:
    with pytest.raises(RatingError):
        elo_changes([EloSeat(1, RED, 1500, 0), EloSeat(1, BLACK, 1500, 0)], RED)


def test_third_parties_are_not_on_a_team() -> None:
    config = EloConfig()
    assert [config.team_of(s) for s in ("town", "vampires", "mafia", "hunters", "solo", "yakuza")] == [
        RED,
        RED,
        BLACK,
        BLACK,
        None,
        None,
    ]
