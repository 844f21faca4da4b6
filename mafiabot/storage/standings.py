"""Writing rating changes: rating a finished game, a moderator's extra points; the season's running totals."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from mafiabot.ratings import (
    POINTS_TRACK,
    BestMove,
    EloConfig,
    FinishedGame,
    PlayerStanding,
    PointsRules,
    RatedSeat,
    RatingDelta,
    Reason,
    Result,
    SeasonLedger,
    Team,
    extra_points,
    ledger_from_totals,
)
from mafiabot.storage.base import NotFound, StorageError
from mafiabot.storage.games import GamesMixin, SeatResult
from mafiabot.storage.models import GameStatus, Participant, RatingChange, Season

TRACKS = (POINTS_TRACK, Team.RED.track, Team.BLACK.track)
ELO_TRACKS = (Team.RED.track, Team.BLACK.track)

log = logging.getLogger(__name__)


class StandingsMixin(GamesMixin):
    elo_config: EloConfig = EloConfig()
    points_rules: PointsRules = PointsRules()

    # --- writing -------------------------------------------------------------------------------------

    def record_rating_changes(
        self,
        guild_id: int,
        deltas: Iterable[RatingDelta],
        *,
        game_id: int | None = None,
        season_id: int | None = None,
        at: datetime | None = None,
    ) -> list[RatingChange]:
        """Store rating changes in the game's season (or the given one, or the open one)."""
        now = self._now(at)
        with self._session() as session:
            season_id = self._season_for(session, guild_id, game_id, season_id, now)
            rows = [
                RatingChange(
                    guild_id=guild_id,
                    season_id=season_id,
                    user_id=d.user_id,
                    game_id=game_id,
                    track=_checked_track(d.track),
                    delta=d.delta,
                    reason=d.reason[:200],
                    created_at=now,
                )
                for d in deltas
            ]
            session.add_all(rows)
            session.flush()
            return rows

    def _season_for(
        self, session: Session, guild_id: int, game_id: int | None, season_id: int | None, now: datetime
    ) -> int:
        if game_id is not None:
            game = self._game(session, game_id)
            if game.guild_id != guild_id:
                raise StorageError(f"game {game_id} belongs to another guild")
            return game.season_id
        if season_id is not None:
            season = session.get(Season, season_id)
            if season is None or season.guild_id != guild_id:
                raise NotFound(f"guild {guild_id} has no season with id {season_id}")
            return season_id
        season = self._current_season(session, guild_id, now)
        assert season.id is not None
        return season.id

    def season_ledger(self, guild_id: int, season_id: int | None = None) -> SeasonLedger:
        """The season's running totals, ready to rate the next game."""
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            return self._ledger(session, guild_id, season_id)

    def _ledger(self, session: Session, guild_id: int, season_id: int) -> SeasonLedger:
        standings: dict[int, PlayerStanding] = defaultdict(PlayerStanding)
        sums = session.execute(
            sa.select(
                col(RatingChange.user_id), col(RatingChange.track), sa.func.sum(col(RatingChange.delta))
            )
            .where(col(RatingChange.guild_id) == guild_id, col(RatingChange.season_id) == season_id)
            .group_by(col(RatingChange.user_id), col(RatingChange.track))
        )
        base = self.elo_config.base
        for user_id, track, total in sums:
            if track == POINTS_TRACK:
                standings[user_id].points = float(total)
            elif track == Team.RED.track:
                standings[user_id].red = base + float(total)
            elif track == Team.BLACK.track:
                standings[user_id].black = base + float(total)
        rated = session.execute(
            sa.select(col(RatingChange.user_id), sa.func.count(sa.distinct(col(RatingChange.game_id))))
            .where(col(RatingChange.guild_id) == guild_id, col(RatingChange.season_id) == season_id)
            .where(col(RatingChange.track).in_(ELO_TRACKS))
            .group_by(col(RatingChange.user_id))
        )
        for user_id, count in rated:
            standings[user_id].rated_games = int(count)
        return ledger_from_totals(
            black_wins=self._decided_games(session, season_id, self.elo_config.black_sides),
            red_wins=self._decided_games(session, season_id, self.elo_config.red_sides),
            standings=standings,
            config=self.elo_config,
            rules=self.points_rules,
        )

    def _decided_games(self, session: Session, season_id: int, sides: frozenset[str]) -> int:
        """Elo-rated games of the season won by one of `sides` (what the side offset is fitted to)."""
        rated = (
            sa.select(col(RatingChange.game_id))
            .where(col(RatingChange.season_id) == season_id, col(RatingChange.track).in_(ELO_TRACKS))
            .distinct()
        )
        query = (
            sa.select(sa.func.count(sa.distinct(col(Participant.game_id))))
            .where(col(Participant.game_id).in_(rated))
            .where(col(Participant.result) == Result.WIN.value, col(Participant.side_id).in_(sides))
        )
        return int(session.execute(query).scalar_one())

    def rate_game(
        self, game_id: int, *, best_move: BestMove | None = None, at: datetime | None = None
    ) -> list[RatingDelta]:
        """Rate a finished game on both tracks, store the changes and each seat's points; once per game.

        A removed seat counts as removed by fouls (−0.5); a seat that left counts as leaving early (−5).
        """
        with self._session() as session:
            return self._rate_game(session, game_id, best_move, self._now(at))

    def finish_and_rate_game(
        self,
        game_id: int,
        *,
        winners: Sequence[str],
        results: Sequence[SeatResult],
        reason: str | None = None,
        best_move: BestMove | None = None,
        at: datetime | None = None,
    ) -> list[RatingDelta]:
        """`finish_game` and `rate_game` in one transaction: a crash between the two can no longer
        leave a finished game that nobody rated. A rating that fails (a bug) is logged and the game is
        closed unrated all the same: a stuck table is worse than a rating to redo by hand."""
        now = self._now(at)
        with self._session() as session:
            self._finish_game(session, game_id, winners, results, reason, now)
            try:
                with session.begin_nested():
                    return self._rate_game(session, game_id, best_move, now)
            except (StorageError, sa.exc.SQLAlchemyError, ValueError):
                log.exception("Could not rate the game", extra={"game_id": game_id})
                return []

    def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes stored for one game (its rating and a moderator's extra points)."""
        with self._session() as session:
            query = select(RatingChange).where(col(RatingChange.game_id) == game_id)
            return list(session.exec(query.order_by(col(RatingChange.id))))

    def _rate_game(
        self, session: Session, game_id: int, best_move: BestMove | None, now: datetime
    ) -> list[RatingDelta]:
        game = self._game(session, game_id, lock=True)
        if game.status != GameStatus.FINISHED:
            raise StorageError(f"game {game_id} is {game.status}; only finished games are rated")
        already = session.exec(
            select(col(RatingChange.id)).where(
                col(RatingChange.game_id) == game_id,
                ~col(RatingChange.reason).startswith(Reason.MODERATOR.value),
            )
        ).first()
        if already is not None:
            raise StorageError(f"game {game_id} is already rated")
        seats = list(session.exec(select(Participant).where(col(Participant.game_id) == game_id)))
        if any(p.result is None for p in seats):
            raise StorageError(f"game {game_id} has seats without a result")
        # Games of one season are rated one after another: each starts from the totals of the last.
        season_row = sa.select(col(Season.id)).where(col(Season.id) == game.season_id)
        session.execute(season_row.with_for_update())
        ledger = self._ledger(session, game.guild_id, game.season_id)
        finished = FinishedGame(
            seats=[
                RatedSeat(
                    p.seat,
                    p.user_id,
                    p.side_id,
                    Result(p.result or Result.DRAW),
                    removed_by_fouls=p.removed and not p.left,
                    left_early=p.left,
                )
                for p in seats
            ],
            best_move=best_move,
        )
        deltas = ledger.rate_game(finished)
        points: dict[int, float] = defaultdict(float)
        for d in deltas:
            session.add(
                RatingChange(
                    guild_id=game.guild_id,
                    season_id=game.season_id,
                    user_id=d.user_id,
                    game_id=game_id,
                    track=d.track,
                    delta=d.delta,
                    reason=d.reason[:200],
                    created_at=now,
                )
            )
            if d.track == POINTS_TRACK:
                points[d.user_id] += d.delta
        for p in seats:
            p.points = points[p.user_id]
            session.add(p)
        return deltas

    def add_extra_points(
        self,
        game_id: int,
        *,
        user_id: int,
        amount: float,
        reason: str,
        given_by: int,
        at: datetime | None = None,
    ) -> RatingChange:
        """A moderator's extra points for a player of a game, within the per-game cap (`PointsRules`)."""
        now = self._now(at)
        with self._session() as session:
            game = self._game(session, game_id, lock=True)
            seat = session.exec(
                select(Participant).where(
                    col(Participant.game_id) == game_id, col(Participant.user_id) == user_id
                )
            ).first()
            if seat is None:
                raise NotFound(f"user {user_id} did not play game {game_id}")
            given = session.exec(
                select(col(RatingChange.delta)).where(
                    col(RatingChange.game_id) == game_id,
                    col(RatingChange.user_id) == user_id,
                    col(RatingChange.reason).startswith(Reason.MODERATOR.value),
                )
            ).all()
            award = extra_points(user_id, amount, reason, already_given=given, rules=self.points_rules)
            row = RatingChange(
                guild_id=game.guild_id,
                season_id=game.season_id,
                user_id=user_id,
                game_id=game_id,
                track=POINTS_TRACK,
                delta=award.points,
                reason=f"{Reason.MODERATOR.value}: {award.note} (by {given_by})"[:200],
                created_at=now,
            )
            seat.points += award.points
            session.add_all([row, seat])
            session.flush()
            return row


def _checked_track(track: str) -> str:
    if track not in TRACKS:
        raise StorageError(f"unknown rating track {track!r}")
    return track
