"""A season as a fold over finished games: both tracks updated game by game, in order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mafiabot.ratings.elo import EloConfig, EloSeat, Team, elo_changes, side_offset
from mafiabot.ratings.errors import RatingError
from mafiabot.ratings.points import (
    Award,
    BestMove,
    PointsRules,
    Reason,
    Result,
    SeatOutcome,
    game_points,
)

POINTS_TRACK = "points"


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a finished game with everything both tracks need."""

    seat: int
    user_id: int
    side_id: str
    result: Result
    removed_by_fouls: bool = False
    left_early: bool = False


@dataclass(frozen=True)
class FinishedGame:
    seats: Sequence[RatedSeat]
    best_move: BestMove | None = None
    # A moderator's extra points for this game, already checked by `points.extra_points`.
    extras: Sequence[Award] = ()


@dataclass(frozen=True)
class RatingDelta:
    """One change on one track; what storage records in `rating_changes`."""

    user_id: int
    track: str  # "points", "elo_red" or "elo_black"
    delta: float
    reason: str


@dataclass
class PlayerStanding:
    points: float = 0.0
    red: float | None = None  # None until the first game on that track: shown as the base rating
    black: float | None = None
    rated_games: int = 0  # Elo-rated games on either track, for K


@dataclass
class SeasonLedger:
    """Running totals of one guild's season; `rate_game` returns the deltas to store and applies them."""

    config: EloConfig = field(default_factory=EloConfig)
    rules: PointsRules = field(default_factory=PointsRules)
    black_wins: int = 0
    red_wins: int = 0
    players: dict[int, PlayerStanding] = field(default_factory=dict)

    def standing(self, user_id: int) -> PlayerStanding:
        """The player's totals (a fresh standing, not stored, for a player without games)."""
        return self.players.get(user_id) or PlayerStanding()

    def _standing_for_update(self, user_id: int) -> PlayerStanding:
        return self.players.setdefault(user_id, PlayerStanding())

    def rating(self, user_id: int, team: Team) -> float:
        standing = self.standing(user_id)
        value = standing.red if team is Team.RED else standing.black
        return self.config.base if value is None else value

    def offset(self) -> float:
        return side_offset(self.black_wins, self.red_wins, self.config)

    def rate_game(self, game: FinishedGame) -> list[RatingDelta]:
        deltas = self.preview(game)
        winner = duel_winner(game.seats, self.config)
        for d in deltas:
            standing = self._standing_for_update(d.user_id)
            if d.track == POINTS_TRACK:
                standing.points += d.delta
            elif d.track == Team.RED.track:
                standing.red = self.rating(d.user_id, Team.RED) + d.delta
            else:
                standing.black = self.rating(d.user_id, Team.BLACK) + d.delta
        elo_rated = {d.user_id for d in deltas if d.track != POINTS_TRACK}
        for user_id in elo_rated:
            self._standing_for_update(user_id).rated_games += 1
        # Only Elo-rated games (both teams present) inform the side offset.
        if elo_rated and winner is Team.BLACK:
            self.black_wins += 1
        elif elo_rated and winner is Team.RED:
            self.red_wins += 1
        return deltas

    def preview(self, game: FinishedGame) -> list[RatingDelta]:
        """The deltas `rate_game` would return, without changing the ledger."""
        black_seats = {s.seat for s in game.seats if self.config.team_of(s.side_id) is Team.BLACK}
        outcomes = [
            SeatOutcome(s.seat, s.user_id, s.result, s.removed_by_fouls, s.left_early) for s in game.seats
        ]
        points = game_points(outcomes, black_seats=black_seats, best_move=game.best_move, rules=self.rules)
        deltas = [_points_delta(a) for a in [*points.awards, *game.extras]]

        elo_seats = []
        for s in game.seats:
            team = self.config.team_of(s.side_id)
            if team is not None:
                games = self.standing(s.user_id).rated_games
                elo_seats.append(EloSeat(s.user_id, team, self.rating(s.user_id, team), games))
        winner = duel_winner(game.seats, self.config)
        for change in elo_changes(elo_seats, winner, offset=self.offset(), config=self.config):
            deltas.append(RatingDelta(change.user_id, change.team.track, change.delta, Reason.ELO.value))
        return deltas


def duel_winner(seats: Iterable[RatedSeat], config: EloConfig | None = None) -> Team | None:
    """Red or black if that team won; None for a draw or a third party's win."""
    config = config or EloConfig()
    winners = {config.team_of(s.side_id) for s in seats if s.result is Result.WIN} - {None}
    if len(winners) > 1:
        raise RatingError("red and black cannot both win a game")
    return next(iter(winners), None)


def _points_delta(award: Award) -> RatingDelta:
    reason = award.reason.value if not award.note else f"{award.reason.value}: {award.note}"
    return RatingDelta(award.user_id, POINTS_TRACK, award.points, reason)


def ledger_from_totals(
    *,
    black_wins: int,
    red_wins: int,
    standings: Mapping[int, PlayerStanding],
    config: EloConfig | None = None,
    rules: PointsRules | None = None,
) -> SeasonLedger:
    """A ledger resumed from stored totals (what `Storage.season_ledger` builds)."""
    return SeasonLedger(
        config=config or EloConfig(),
        rules=rules or PointsRules(),
        black_wins=black_wins,
        red_wins=red_wins,
        players=dict(standings),
    )
