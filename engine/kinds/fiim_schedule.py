"""A tournament's seating schedule (docs/rules/FIIM.md F.2: «Seats are drawn at random or fixed by the
tournament schedule» [MR 4.2]; issue 19: «a series of games with a seating schedule (seats fixed per game,
or drawn)»).

For N players over M games of ten seats: who plays each game, and — when the schedule fixes the seats —
where each sits. Nobody plays two games more than another (the ones who have played least go in first,
ties drawn), and fixed seats are spread: each game is seated by the assignment that repeats the fewest
seats a player already had (a minimum-cost assignment, so a player reaches seat 1 and seat 10 as evenly
as the series allows; with exactly ten players over ten games every player sits every seat once). With
``fixed = False`` only the players of each game are scheduled and the bot's deal draws their seats.
Pure: the randomness is the caller's ``seed`` (engine.rng), so a stored seed redraws the same schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import IllegalCommand
from engine.rng import seed_state, shuffled

SEATS = 10  # F.2: exactly ten players
MAX_GAMES = 50


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule: its number (from 1) and its players — in seat order when ``fixed``,
    otherwise in the order they were drawn (their seats are drawn at the table)."""

    number: int
    players: tuple[str, ...]
    fixed: bool


def seating_schedule(
    players: Sequence[str], games: int, seed: int, *, fixed: bool = True, seats: int = SEATS
) -> list[ScheduledGame]:
    if len(set(players)) != len(players):
        raise IllegalCommand("В списке турнира игрок назван дважды.", key="schedule-twice")
    if len(players) < seats:
        raise IllegalCommand(
            f"Для расписания нужно не меньше {seats} игроков, а не {len(players)}.",
            key="schedule-too-few",
            seats=seats,
            count=len(players),
        )
    if not 1 <= games <= MAX_GAMES:
        raise IllegalCommand(
            f"Игр в расписании — от 1 до {MAX_GAMES}, а не {games}.",
            key="schedule-games",
            most=MAX_GAMES,
            games=games,
        )
    rng = seed_state(seed)
    if len(players) == seats and fixed:
        return _latin(list(players), games, rng)
    played = dict.fromkeys(players, 0)
    sat: dict[tuple[str, int], int] = {}
    out = []
    for number in range(1, games + 1):
        pool, rng = shuffled(rng, players)
        pool.sort(key=lambda p: played[p])  # stable: the least played first, equals in drawn order
        chosen = pool[:seats]
        for p in chosen:
            played[p] += 1
        if fixed:
            cost = [[sat.get((p, seat), 0) for seat in range(seats)] for p in chosen]
            order = assign(cost)
            seated = [""] * seats
            for p, seat in zip(chosen, order, strict=True):
                seated[seat] = p
                sat[p, seat] = sat.get((p, seat), 0) + 1
            chosen = seated
        out.append(ScheduledGame(number, tuple(chosen), fixed))
    return out


def _latin(players: list[str], games: int, rng: int) -> list[ScheduledGame]:
    """Ten players over up to ten games: a Latin square under a drawn relabelling of players, seats and
    games, so each player sits each seat once in ten games (from the eleventh game the square repeats)."""
    n = len(players)
    players, rng = shuffled(rng, players)
    shifts, rng = shuffled(rng, range(n))
    out = []
    for number in range(1, games + 1):
        shift = shifts[(number - 1) % n]
        out.append(ScheduledGame(number, tuple(players[(i + shift) % n] for i in range(n)), True))
    return out


def assign(cost: Sequence[Sequence[int]]) -> list[int]:
    """A minimum-cost assignment of rows to columns of a square matrix (the Hungarian method with
    potentials, O(n³)): ``result[row]`` is the row's column."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)  # row potentials (1-based; 0 is the virtual start)
    v = [0.0] * (n + 1)  # column potentials
    owner = [0] * (n + 1)  # owner[column] = the row assigned to it
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        col0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col0] = True
            r0, delta, col1 = owner[col0], inf, 0
            for col in range(1, n + 1):
                if used[col]:
                    continue
                reduced = cost[r0 - 1][col - 1] - u[r0] - v[col]
                if reduced < least[col]:
                    least[col], way[col] = reduced, col0
                if least[col] < delta:
                    delta, col1 = least[col], col
            for col in range(n + 1):
                if used[col]:
                    u[owner[col]] += delta
                    v[col] -= delta
                else:
                    least[col] -= delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0:  # flip the augmenting path back to the start
            prev = way[col0]
            owner[col0] = owner[prev]
            col0 = prev
    result = [0] * n
    for col in range(1, n + 1):
        result[owner[col] - 1] = col - 1
    return result
