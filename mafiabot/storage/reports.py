"""Read models over stored games and ratings: leaderboards, profiles, history, records, CSV export."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from mafiabot.disclosure import summary_shown
from mafiabot.ratings import POINTS_TRACK, Team
from mafiabot.storage.base import StorageError
from mafiabot.storage.models import (
    Foul,
    Game,
    GameCommand,
    GameStatus,
    Participant,
    Player,
    RatingChange,
    Season,
)
from mafiabot.storage.standings import TRACKS, StandingsMixin


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    display_name: str
    value: float
    games: int


@dataclass(frozen=True)
class Tally:
    games: int = 0
    wins: int = 0


@dataclass(frozen=True)
class GameSummary:
    """One game as one player saw it."""

    game_id: int
    ruleset_id: str
    status: str
    created_at: datetime
    ended_at: datetime | None
    seat: int
    role_id: str
    side_id: str
    result: str | None
    points: float
    fouls: int


@dataclass(frozen=True)
class Profile:
    guild_id: int
    user_id: int
    display_name: str
    season_id: int
    games: int
    wins: int
    by_side: dict[str, Tally]
    by_role: dict[str, Tally]
    points: float
    elo_red: float
    elo_black: float
    fouls: int
    last_games: list[GameSummary] = field(default_factory=list)


@dataclass(frozen=True)
class GameRecord:
    game: Game
    participants: list[Participant]
    fouls: list[Foul]  # withdrawn ones too, with who withdrew them
    commands: list[dict[str, Any]]
    rating_changes: list[RatingChange]


@dataclass(frozen=True)
class Board:
    """One page of a leaderboard and how many players qualify in all."""

    rows: list[BoardRow]
    total: int


class ReportsMixin(StandingsMixin):
    def leaderboard(
        self,
        guild_id: int,
        *,
        season_id: int | None = None,
        track: str = POINTS_TRACK,
        min_games: int = 0,
        limit: int = 10,
        offset: int = 0,
    ) -> Board:
        """Players of a season by `track`, best first (ties: more games, then lower user id)."""
        if track not in TRACKS:
            raise StorageError(f"unknown rating track {track!r}")
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            values, games = self._track_totals(session, guild_id, season_id, track)
            qualified = [
                (u, values.get(u, self._start(track)), n) for u, n in games.items() if n >= min_games
            ]
            qualified.sort(key=lambda r: (-r[1], -r[2], r[0]))
            page = qualified[offset : offset + limit]
            names = self._names(session, guild_id, [u for u, _, _ in page])
            rows = [
                BoardRow(offset + i + 1, u, names.get(u, str(u)), value, n)
                for i, (u, value, n) in enumerate(page)
            ]
            return Board(rows, len(qualified))

    def _start(self, track: str) -> float:
        return 0.0 if track == POINTS_TRACK else self.elo_config.base

    def _track_totals(
        self, session: Session, guild_id: int, season_id: int, track: str
    ) -> tuple[dict[int, float], dict[int, int]]:
        """Per user: the track's value, and the games that count for it (finished games for points, rated
        games for an Elo track)."""
        sums = session.execute(
            sa.select(
                col(RatingChange.user_id),
                sa.func.sum(col(RatingChange.delta)),
                sa.func.count(sa.distinct(col(RatingChange.game_id))),
            )
            .where(col(RatingChange.guild_id) == guild_id, col(RatingChange.season_id) == season_id)
            .where(col(RatingChange.track) == track)
            .group_by(col(RatingChange.user_id))
        ).all()
        start = self._start(track)
        values = {u: start + float(total) for u, total, _ in sums}
        if track != POINTS_TRACK:
            return values, {u: int(n) for u, _, n in sums}
        played = session.execute(
            sa.select(col(Participant.user_id), sa.func.count(col(Participant.id)))
            .join(Game, col(Game.id) == col(Participant.game_id))
            .where(
                col(Game.guild_id) == guild_id,
                col(Game.season_id) == season_id,
                col(Game.status) == GameStatus.FINISHED,
            )
            .group_by(col(Participant.user_id))
        ).all()
        return values, {u: int(n) for u, n in played}

    def _season_fouls(self, session: Session, guild_id: int, season_id: int) -> dict[int, int]:
        """Per user: the fouls of the season's games that stand (withdrawn ones do not count)."""
        rows = session.execute(
            sa.select(col(Foul.user_id), sa.func.count(col(Foul.id)))
            .join(Game, col(Game.id) == col(Foul.game_id))
            .where(col(Game.guild_id) == guild_id, col(Game.season_id) == season_id)
            .where(col(Foul.withdrawn_at).is_(None))
            .group_by(col(Foul.user_id))
        ).all()
        return {int(u): int(n) for u, n in rows}

    def _names(self, session: Session, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        query = select(Player).where(col(Player.guild_id) == guild_id, col(Player.user_id).in_(user_ids))
        return {p.user_id: p.display_name for p in session.exec(query)}

    def player_profile(
        self, guild_id: int, user_id: int, *, season_id: int | None = None, last_games: int = 5
    ) -> Profile:
        """A player's season: games and wins by side and by role, points, both Elo ratings, fouls."""
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            seats = session.exec(
                select(Participant)
                .join(Game, col(Game.id) == col(Participant.game_id))
                .where(
                    col(Game.guild_id) == guild_id,
                    col(Game.season_id) == season_id,
                    col(Game.status) == GameStatus.FINISHED,
                )
                .where(col(Participant.user_id) == user_id)
            ).all()
            by_side: dict[str, Tally] = defaultdict(Tally)
            by_role: dict[str, Tally] = defaultdict(Tally)
            for p in seats:
                won = int(p.result == "win")
                by_side[p.side_id] = Tally(by_side[p.side_id].games + 1, by_side[p.side_id].wins + won)
                by_role[p.role_id] = Tally(by_role[p.role_id].games + 1, by_role[p.role_id].wins + won)
            sums = dict(
                session.execute(
                    sa.select(col(RatingChange.track), sa.func.sum(col(RatingChange.delta)))
                    .where(col(RatingChange.guild_id) == guild_id, col(RatingChange.season_id) == season_id)
                    .where(col(RatingChange.user_id) == user_id)
                    .group_by(col(RatingChange.track))
                ).all()
            )
            fouls = session.execute(
                sa.select(sa.func.count(col(Foul.id)))
                .join(Game, col(Game.id) == col(Foul.game_id))
                .where(
                    col(Game.guild_id) == guild_id,
                    col(Game.season_id) == season_id,
                    col(Foul.user_id) == user_id,
                )
                .where(col(Foul.withdrawn_at).is_(None))
            ).scalar_one()
            base = self.elo_config.base
            return Profile(
                guild_id=guild_id,
                user_id=user_id,
                display_name=self._names(session, guild_id, [user_id]).get(user_id, str(user_id)),
                season_id=season_id,
                games=len(seats),
                wins=sum(t.wins for t in by_side.values()),
                by_side=dict(by_side),
                by_role=dict(by_role),
                points=float(sums.get(POINTS_TRACK, 0.0)),
                elo_red=base + float(sums.get(Team.RED.track, 0.0)),
                elo_black=base + float(sums.get(Team.BLACK.track, 0.0)),
                fouls=int(fouls),
                last_games=self._history(session, guild_id, user_id, last_games, None),
            )

    def game_history(
        self, guild_id: int, user_id: int, *, limit: int = 20, before_game_id: int | None = None
    ) -> list[GameSummary]:
        """A player's games in every season, newest first; page with `before_game_id`."""
        with self._session() as session:
            return self._history(session, guild_id, user_id, limit, before_game_id)

    def _history(
        self, session: Session, guild_id: int, user_id: int, limit: int, before_game_id: int | None
    ) -> list[GameSummary]:
        query = (
            select(Participant, Game)
            .join(Game, col(Game.id) == col(Participant.game_id))
            .where(col(Game.guild_id) == guild_id, col(Participant.user_id) == user_id)
        )
        if before_game_id is not None:
            query = query.where(col(Game.id) < before_game_id)
        rows = session.exec(query.order_by(col(Game.id).desc()).limit(limit)).all()
        # Every reader of a history shows it outside the game: a running game's role stays face down here.
        return [
            summary_shown(
                GameSummary(
                    game_id=g.id or 0,
                    ruleset_id=g.ruleset_id,
                    status=g.status,
                    created_at=g.created_at,
                    ended_at=g.ended_at,
                    seat=p.seat,
                    role_id=p.role_id,
                    side_id=p.side_id,
                    result=p.result,
                    points=p.points,
                    fouls=p.fouls,
                )
            )
            for p, g in rows
        ]

    def recent_games(
        self, guild_id: int, *, limit: int = 20, before_game_id: int | None = None
    ) -> list[Game]:
        with self._session() as session:
            query = select(Game).where(col(Game.guild_id) == guild_id, col(Game.status) != GameStatus.LOBBY)
            if before_game_id is not None:
                query = query.where(col(Game.id) < before_game_id)
            return list(session.exec(query.order_by(col(Game.id).desc()).limit(limit)))

    def game_record(self, game_id: int) -> GameRecord:
        """Everything stored about one game, secrets included: show it through mafiabot.disclosure."""
        with self._session() as session:
            game = self._game(session, game_id)
            return GameRecord(
                game=game,
                participants=list(
                    session.exec(
                        select(Participant)
                        .where(col(Participant.game_id) == game_id)
                        .order_by(col(Participant.seat))
                    )
                ),
                fouls=list(
                    session.exec(
                        select(Foul)
                        .where(col(Foul.game_id) == game_id)
                        .order_by(col(Foul.given_at), col(Foul.id))
                    )
                ),
                commands=[
                    c.command
                    for c in session.exec(
                        select(GameCommand)
                        .where(col(GameCommand.game_id) == game_id)
                        .order_by(col(GameCommand.seq))
                    )
                ],
                rating_changes=list(
                    session.exec(
                        select(RatingChange)
                        .where(col(RatingChange.game_id) == game_id)
                        .order_by(col(RatingChange.id))
                    )
                ),
            )

    def rating_history(
        self, guild_id: int, user_id: int, *, track: str, season_id: int | None = None
    ) -> list[tuple[datetime, float]]:
        """The track's value after each change, oldest first, starting from the season's start: the chart."""
        if track not in TRACKS:
            raise StorageError(f"unknown rating track {track!r}")
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            season = session.get_one(Season, season_id)
            rows = session.exec(
                select(RatingChange)
                .where(col(RatingChange.guild_id) == guild_id, col(RatingChange.season_id) == season_id)
                .where(col(RatingChange.user_id) == user_id, col(RatingChange.track) == track)
                .order_by(col(RatingChange.created_at), col(RatingChange.id))
            ).all()
            value = self._start(track)
            points = [(season.started_at, value)]
            for r in rows:
                value += r.delta
                points.append((r.created_at, value))
            return points

    def export_season_csv(self, guild_id: int, season_id: int | None = None) -> str:
        """The season's table for moderators: one row per player who finished a game or has a rating."""
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            totals = {t: self._track_totals(session, guild_id, season_id, t) for t in TRACKS}
            wins = dict(
                session.execute(
                    sa.select(col(Participant.user_id), sa.func.count(col(Participant.id)))
                    .join(Game, col(Game.id) == col(Participant.game_id))
                    .where(col(Game.guild_id) == guild_id, col(Game.season_id) == season_id)
                    .where(col(Game.status) == GameStatus.FINISHED, col(Participant.result) == "win")
                    .group_by(col(Participant.user_id))
                ).all()
            )
            fouls = self._season_fouls(session, guild_id, season_id)
            users = sorted({u for values, games in totals.values() for u in (*values, *games)})
            names = self._names(session, guild_id, users)
        points_values, points_games = totals[POINTS_TRACK]
        users.sort(key=lambda u: (-points_values.get(u, 0.0), u))
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "rank",
                "user_id",
                "display_name",
                "games",
                "wins",
                "points",
                "elo_red",
                "red_games",
                "elo_black",
                "black_games",
                "fouls",
            ]
        )
        for rank, u in enumerate(users, start=1):
            red_values, red_games = totals[Team.RED.track]
            black_values, black_games = totals[Team.BLACK.track]
            writer.writerow(
                [
                    rank,
                    u,
                    names.get(u, str(u)),
                    points_games.get(u, 0),
                    wins.get(u, 0),
                    f"{points_values.get(u, 0.0):.2f}",
                    f"{red_values.get(u, self.elo_config.base):.1f}",
                    red_games.get(u, 0),
                    f"{black_values.get(u, self.elo_config.base):.1f}",
                    black_games.get(u, 0),
                    fouls.get(u, 0),
                ]
            )
        return out.getvalue()
