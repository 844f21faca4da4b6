"""A season of random games: points add up, and Elo changes cancel as README.md says."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiabot.ratings import (
    POINTS_TRACK,
    BestMove,
    EloConfig,
    FinishedGame,
    RatedSeat,
    Result,
    SeasonLedger,
    Team,
)

USERS = list(range(1, 16))
FAST = settings(max_examples=40, deadline=None)


@st.composite
def finished_games(draw: st.DrawFn) -> FinishedGame:
    n = draw(st.integers(min_value=6, max_value=12))
    users = draw(st.permutations(USERS))[:n]
    n_black = draw(st.integers(min_value=1, max_value=n // 3))
    n_solo = draw(st.integers(min_value=0, max_value=1))
    sides = ["mafia"] * n_black + ["solo"] * n_solo + ["town"] * (n - n_black - n_solo)
    sides = draw(st.permutations(sides))
    outcome = draw(st.sampled_from(["town", "mafia", "draw"] + ["solo"] * n_solo))
    seats = []
    for seat, (user, side) in enumerate(zip(users, sides, strict=True), start=1):
        result = Result.DRAW if outcome == "draw" else Result.WIN if side == outcome else Result.LOSS
        left = draw(st.integers(min_value=0, max_value=7)) == 0
        removed = draw(st.integers(min_value=0, max_value=7)) == 0
        seats.append(RatedSeat(seat, user, side, result, removed_by_fouls=removed, left_early=left))
    best_move = None
    if draw(st.booleans()):
        maker = draw(st.integers(min_value=1, max_value=n))
        others = [s for s in range(1, n + 1) if s != maker]
        a, b, c = draw(st.lists(st.sampled_from(others), min_size=3, max_size=3, unique=True))
        best_move = BestMove(maker, (a, b, c))
    return FinishedGame(seats, best_move)


def expected_points(game: FinishedGame) -> dict[int, float]:
    """The points table of README.md, computed again without the library."""
    points: dict[int, float] = defaultdict(float)
    by_seat = {s.seat: s for s in game.seats}
    for s in game.seats:
        if s.left_early:
            points[s.user_id] -= 5.0
            continue
        points[s.user_id] += 1.0 if s.result is Result.WIN else 0.0
        points[s.user_id] -= 0.5 if s.removed_by_fouls else 0.0
    move = game.best_move
    if move is not None and not by_seat[move.seat].left_early:
        hits = sum(by_seat[seat].side_id == "mafia" for seat in move.suspects)
        points[by_seat[move.seat].user_id] += {3: 0.5, 2: 0.3}.get(hits, 0.0)
    return points


def play_season(games: list[FinishedGame], config: EloConfig) -> None:
    ledger = SeasonLedger(config=config)
    totals: dict[tuple[int, str], float] = defaultdict(float)
    for game in games:
        rated_before = {s.user_id: ledger.standing(s.user_id).rated_games for s in game.seats}
        wins_before = (ledger.black_wins, ledger.red_wins)
        deltas = ledger.rate_game(game)
        for d in deltas:
            totals[d.user_id, d.track] += d.delta

        points: dict[int, float] = defaultdict(float)
        for d in deltas:
            if d.track == POINTS_TRACK:
                points[d.user_id] += d.delta
        expected = expected_points(game)
        for user in {*points, *expected}:
            assert points[user] == pytest.approx(expected[user], abs=1e-9)

        elo = [d for d in deltas if d.track != POINTS_TRACK]
        side_of = {s.user_id: s.side_id for s in game.seats}
        # Every red and black seat is rated once, on the track of the side he played; third parties never.
        assert sorted(d.user_id for d in elo) == sorted(u for u, side in side_of.items() if side != "solo")
        for d in elo:
            assert d.track == (Team.BLACK.track if side_of[d.user_id] == "mafia" else Team.RED.track)
        ks = {d.user_id: config.k_factor(rated_before[d.user_id]) for d in elo}
        assert sum(d.delta / ks[d.user_id] for d in elo) == pytest.approx(0.0, abs=1e-9)
        if len(set(ks.values())) == 1:
            assert sum(d.delta for d in elo) == pytest.approx(0.0, abs=1e-9)
        # The offset follows only decided red–black games.
        winners = {s.side_id for s in game.seats if s.result is Result.WIN}
        assert (ledger.black_wins - wins_before[0], ledger.red_wins - wins_before[1]) == (
            int(winners == {"mafia"}),
            int(winners == {"town"}),
        )

    for user in USERS:
        standing = ledger.standing(user)
        assert standing.points == pytest.approx(totals[user, POINTS_TRACK], abs=1e-9)
        assert ledger.rating(user, Team.RED) == pytest.approx(config.base + totals[user, Team.RED.track])
        assert ledger.rating(user, Team.BLACK) == pytest.approx(config.base + totals[user, Team.BLACK.track])
    elo_games = sum(1 for g in games for s in g.seats if s.side_id != "solo")
    assert sum(ledger.standing(u).rated_games for u in USERS) == elo_games


@FAST
@given(st.lists(finished_games(), min_size=1, max_size=30))
def test_a_season_adds_up(games: list[FinishedGame]) -> None:
    play_season(games, EloConfig())


@FAST
@given(st.lists(finished_games(), min_size=1, max_size=15))
def test_with_one_k_for_everybody_every_game_sums_to_zero(games: list[FinishedGame]) -> None:
    """provisional_games = 0: everybody has K = 16, so Σ Δ = 0 in every game, offset or not."""
    play_season(games, EloConfig(provisional_games=0))


@FAST
@given(st.lists(finished_games(), min_size=20, max_size=40))
def test_mixed_k_seasons_still_cancel_when_normalised(games: list[FinishedGame]) -> None:
    """Long enough that settled (K 16) and provisional (K 32) players meet; Σ Δ/K = 0 is checked inside."""
    play_season(games, EloConfig(provisional_games=3))
