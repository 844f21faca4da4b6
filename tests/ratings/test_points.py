"""Season points against hand-computed tables."""

from __future__ import annotations

import pytest

from mafiabot.ratings import (
    BestMove,
    PointsRules,
    RatingError,
    Reason,
    Result,
    SeatOutcome,
    best_move_points,
    extra_points,
    game_points,
)

W, L, D = Result.WIN, Result.LOSS, Result.DRAW
BLACK = {2, 5}  # seat 7 is the maniac: a third party, not black


def seats(**overrides: SeatOutcome) -> list[SeatOutcome]:
    """Seven seats, town (1, 3, 4, 6) won; user id = 100 + seat."""
    result = {1: W, 2: L, 3: W, 4: W, 5: L, 6: W, 7: L}
    table = {s: SeatOutcome(s, 100 + s, r) for s, r in result.items()}
    for key, value in overrides.items():
        table[int(key[1:])] = value
    return list(table.values())


def totals(awards) -> dict[int, float]:
    out: dict[int, float] = {}
    for a in awards:
        out[a.user_id] = round(out.get(a.user_id, 0.0) + a.points, 6)
    return out


def test_the_issue_example_table() -> None:
    """Town wins; seat 1 (first killed) names 2, 5, 7 (two black); seat 4 left; seat 2 removed by fouls."""
    outcome = seats(
        s4=SeatOutcome(4, 104, W, left_early=True),
        s2=SeatOutcome(2, 102, L, removed_by_fouls=True),
    )
    points = game_points(outcome, black_seats=BLACK, best_move=BestMove(1, (2, 5, 7)))
    assert totals(points.awards) == {101: 1.3, 102: -0.5, 103: 1.0, 104: -5.0, 106: 1.0}
    assert points.total_for(105) == 0 and points.total_for(107) == 0
    assert round(points.total(), 6) == -2.2
    best = [a for a in points.awards if a.reason is Reason.BEST_MOVE]
    assert [(a.user_id, a.points, a.note) for a in best] == [(101, 0.3, "2, 5, 7")]


@pytest.mark.parametrize(
    ("suspects", "expected"),
    [((2, 5, 3), 0.3), ((2, 3, 4), 0.0), ((3, 4, 6), 0.0), ((2, 5, 7), 0.3)],
)
def test_best_move_two_of_three(suspects: tuple[int, int, int], expected: float) -> None:
    assert best_move_points(BestMove(1, suspects), BLACK) == expected


def test_best_move_three_of_three() -> None:
    assert best_move_points(BestMove(1, (2, 5, 8)), {2, 5, 8}) == 0.5


def test_best_move_must_name_three_other_seats() -> None:
    with pytest.raises(RatingError):
        best_move_points(BestMove(1, (2, 2, 5)), BLACK)
    with pytest.raises(RatingError):
        best_move_points(BestMove(1, (1, 2, 5)), BLACK)
    with pytest.raises(RatingError):
        game_points(seats(), black_seats=BLACK, best_move=BestMove(1, (2, 5, 9)))
    with pytest.raises(RatingError):
        game_points(seats(), black_seats=BLACK, best_move=BestMove(9, (2, 5, 3)))


def test_black_player_can_make_the_best_move_too() -> None:
    """The first player killed may be a mafioso (killed by the maniac); the rule does not care."""
    points = game_points(seats(), black_seats=BLACK, best_move=BestMove(2, (5, 3, 4)))
    assert points.total_for(102) == 0.0
    points = game_points(seats(), black_seats={2, 5, 6}, best_move=BestMove(2, (5, 6, 3)))
    assert points.total_for(102) == 0.3


def test_leaving_forfeits_the_win_and_does_not_stack_with_removal() -> None:
    outcome = seats(s3=SeatOutcome(3, 103, W, removed_by_fouls=True, left_early=True))
    points = game_points(outcome, black_seats=BLACK, best_move=BestMove(3, (2, 5, 7)))
    assert [(a.points, a.reason) for a in points.awards if a.user_id == 103] == [(-5.0, Reason.LEFT_EARLY)]


def test_removed_by_fouls_keeps_the_team_result() -> None:
    points = game_points(seats(s6=SeatOutcome(6, 106, W, removed_by_fouls=True)), black_seats=BLACK)
    assert points.total_for(106) == 0.5


def test_a_draw_gives_nothing() -> None:
    outcome = [SeatOutcome(s, 100 + s, D) for s in range(1, 8)]
    assert game_points(outcome, black_seats=BLACK).awards == []


def test_configured_values() -> None:
    rules = PointsRules(win=2.0, left_early=-3.0)
    outcome = seats(s4=SeatOutcome(4, 104, W, left_early=True))
    assert totals(game_points(outcome, black_seats=BLACK, rules=rules).awards)[104] == -3.0
    assert totals(game_points(outcome, black_seats=BLACK, rules=rules).awards)[101] == 2.0


def test_extra_points_are_capped_per_game() -> None:
    first = extra_points(101, 0.3, "  отличная речь ")
    assert (first.points, first.reason, first.note) == (0.3, Reason.MODERATOR, "отличная речь")
    assert extra_points(101, 0.2, "ещё", already_given=[0.3]).points == 0.2
    with pytest.raises(RatingError, match="capped"):
        extra_points(101, 0.3, "ещё", already_given=[0.3])
    with pytest.raises(RatingError, match="reason"):
        extra_points(101, 0.1, "  ")
    with pytest.raises(RatingError, match="positive"):
        extra_points(101, -0.1, "штраф")
    assert extra_points(101, 1.0, "турнир", rules=PointsRules(extra_cap=1.0)).points == 1.0
