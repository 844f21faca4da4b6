"""Season points, club style: a small table of awards, each with its reason. See README.md here."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from mafiabot.ratings.errors import RatingError


class Result(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class Reason(StrEnum):
    """Why points or rating moved; stored verbatim in `rating_changes.reason`."""

    WIN = "win"
    BEST_MOVE = "best_move"
    REMOVED_BY_FOULS = "removed_by_fouls"
    LEFT_EARLY = "left_early"
    MODERATOR = "moderator"
    ELO = "elo"


@dataclass(frozen=True)
class PointsRules:
    """The point values; a server may configure them. Defaults are the issue's club table."""

    win: float = 1.0
    best_move_three: float = 0.5
    best_move_two: float = 0.3
    removed_by_fouls: float = -0.5
    left_early: float = -5.0
    # The most extra points a moderator may give one player for one game, in total.
    extra_cap: float = 0.5


@dataclass(frozen=True)
class SeatOutcome:
    """How a game ended for one seat, as the points rules need it."""

    seat: int
    user_id: int
    result: Result
    removed_by_fouls: bool = False
    left_early: bool = False  # D-F4: left voice past the grace period, used a leave command, or was removed
    # for fouls and a moderator marked it deliberate


@dataclass(frozen=True)
class BestMove:
    """«Лучший ход»: the first player killed at night names three suspects."""

    seat: int
    suspects: tuple[int, int, int]


@dataclass(frozen=True)
class Award:
    user_id: int
    points: float
    reason: Reason
    note: str = ""


@dataclass(frozen=True)
class GamePoints:
    awards: list[Award] = field(default_factory=list)

    def total_for(self, user_id: int) -> float:
        return sum(a.points for a in self.awards if a.user_id == user_id)

    def total(self) -> float:
        return sum(a.points for a in self.awards)


def best_move_points(
    move: BestMove, black_seats: Collection[int], rules: PointsRules = PointsRules()
) -> float:
    """+0.5 for three of three black suspects, +0.3 for two of three, nothing otherwise."""
    suspects = move.suspects
    if len(set(suspects)) != 3:
        raise RatingError(f"a best move names three different seats, got {suspects}")
    if move.seat in suspects:
        raise RatingError("the best move cannot name its own maker")
    hits = sum(1 for seat in suspects if seat in black_seats)
    if hits == 3:
        return rules.best_move_three
    if hits == 2:
        return rules.best_move_two
    return 0.0


def game_points(
    seats: Sequence[SeatOutcome],
    *,
    black_seats: Collection[int] = (),
    best_move: BestMove | None = None,
    rules: PointsRules = PointsRules(),
) -> GamePoints:
    """The points every seat earns from one finished game.

    A player who left early forfeits the win and takes only the leaving penalty; a player removed by
    fouls keeps his team's result (he is eliminated like a killed player) and takes the removal penalty.
    Removal marked deliberate is `left_early` and costs −5 instead of −0.5, not both (D-F4).
    """
    by_seat = {s.seat: s for s in seats}
    if len(by_seat) != len(seats):
        raise RatingError("a seat appears twice")
    awards: list[Award] = []
    for s in seats:
        if s.left_early:
            awards.append(Award(s.user_id, rules.left_early, Reason.LEFT_EARLY))
            continue
        if s.result is Result.WIN:
            awards.append(Award(s.user_id, rules.win, Reason.WIN))
        if s.removed_by_fouls:
            awards.append(Award(s.user_id, rules.removed_by_fouls, Reason.REMOVED_BY_FOULS))
    if best_move is not None:
        maker = by_seat.get(best_move.seat)
        if maker is None:
            raise RatingError(f"best move by seat {best_move.seat}, who is not in the game")
        if any(seat not in by_seat for seat in best_move.suspects):
            raise RatingError("a best move names a seat that is not in the game")
        value = best_move_points(best_move, black_seats, rules)
        if value and not maker.left_early:
            suspects = ", ".join(str(seat) for seat in best_move.suspects)
            awards.append(Award(maker.user_id, value, Reason.BEST_MOVE, note=suspects))
    return GamePoints(awards)


def extra_points(
    user_id: int,
    amount: float,
    reason: str,
    *,
    already_given: Iterable[float] = (),
    rules: PointsRules = PointsRules(),
) -> Award:
    """A moderator's extra points for one player in one game: positive, with a reason, within the cap.

    `already_given` are the extra points this player already has for the same game; the cap bounds the
    total, so several small awards cannot add up past it.
    """
    if not reason.strip():
        raise RatingError("extra points need a reason")
    if amount <= 0:
        raise RatingError("extra points are positive; penalties have their own rules")
    total = sum(already_given) + amount
    if total > rules.extra_cap + 1e-9:
        raise RatingError(f"extra points for one game are capped at {rules.extra_cap:g} (would be {total:g})")
    return Award(user_id, amount, Reason.MODERATOR, note=reason.strip())
