"""A tournament's seating schedule (docs/rules/FIIM.md F.2: «Seats are drawn at random or fixed by the
tournament schedule» [MR 4.2]; issue 19: «a seating schedule (seats fixed per game, or drawn)»)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.errors import IllegalCommand
from engine.kinds.fiim_schedule import assign, seating_schedule

TEN = [f"p{i}" for i in range(1, 11)]


def test_ten_players_over_ten_games_sit_every_seat_once() -> None:
    """F.2 with the schedule fixing seats: ten players, ten games, each player in each seat exactly once."""
    games = seating_schedule(TEN, 10, seed=7)
    assert [g.number for g in games] == list(range(1, 11)) and all(g.fixed for g in games)
    for g in games:
        assert sorted(g.players) == sorted(TEN)
    for player in TEN:
        assert sorted(g.players.index(player) for g in games) == list(range(10))


@pytest.mark.parametrize(("players", "games"), [(13, 8), (20, 10), (25, 12), (11, 30)])
def test_more_players_play_evenly_and_move_seats(players: int, games: int) -> None:
    """Nobody plays two games more than another, and fixed seats repeat as little as the series allows:
    nobody sits the same seat twice before he has played ten games."""
    names = [f"p{i}" for i in range(1, players + 1)]
    for seed in range(5):
        schedule = seating_schedule(names, games, seed=seed)
        played = Counter(p for g in schedule for p in g.players)
        assert set(played) == set(names) or games * 10 < players
        assert max(played.values()) - min(played.get(p, 0) for p in names) <= 1
        for g in schedule:
            assert len(set(g.players)) == 10
        for p in names:
            seats = [g.players.index(p) for g in schedule if p in g.players]
            assert max(Counter(seats).values()) <= (len(seats) + 9) // 10, (seed, p, seats)


def test_the_seed_draws_the_schedule() -> None:
    """The randomness is passed in: the same seed gives the same schedule, another seed another one."""
    names = [f"p{i}" for i in range(1, 15)]
    assert seating_schedule(names, 6, seed=3) == seating_schedule(names, 6, seed=3)
    assert seating_schedule(names, 6, seed=3) != seating_schedule(names, 6, seed=4)


def test_drawn_seats_schedule_only_the_players() -> None:
    """«Seats are drawn at random»: the schedule names each game's ten players; the deal seats them."""
    names = [f"p{i}" for i in range(1, 16)]
    schedule = seating_schedule(names, 3, seed=1, fixed=False)
    assert not any(g.fixed for g in schedule)
    assert Counter(p for g in schedule for p in g.players) == Counter(dict.fromkeys(names, 2))


def test_a_schedule_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(IllegalCommand, match="не меньше 10"):
        seating_schedule(TEN[:9], 3, seed=1)
    with pytest.raises(IllegalCommand, match="дважды"):
        seating_schedule([*TEN, "p1"], 3, seed=1)
    with pytest.raises(IllegalCommand):
        seating_schedule(TEN, 0, seed=1)


def test_the_assignment_is_a_minimum() -> None:
    """The seats of a game are a minimum-cost assignment (checked against every permutation)."""
    costs = [[(r * 7 + c * 3 + r * c) % 5 for c in range(6)] for r in range(6)]
    found = assign(costs)
    assert sorted(found) == list(range(6))
    best = min(sum(costs[r][p[r]] for r in range(6)) for p in itertools.permutations(range(6)))
    assert sum(costs[r][found[r]] for r in range(6)) == best
