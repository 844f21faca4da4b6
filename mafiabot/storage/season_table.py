"""The season's whole table for the club's web pages: every column a leaderboard sorts by, in one read."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import col

from mafiabot.ratings import POINTS_TRACK, Team
from mafiabot.storage.models import Game, GameStatus, Participant
from mafiabot.storage.reports import ReportsMixin
from mafiabot.storage.standings import TRACKS


@dataclass(frozen=True)
class SeasonRow:
    """One player of a season: his tracks, finished games and wins (in all, as red, as black), fouls."""

    user_id: int
    display_name: str
    points: float
    elo_red: float
    elo_black: float
    games: int
    wins: int
    red_games: int
    red_wins: int
    black_games: int
    black_wins: int
    fouls: int


class SeasonTableMixin(ReportsMixin):
    def season_table(self, guild_id: int, season_id: int | None = None) -> tuple[int, list[SeasonRow]]:
        """The season (its id) and its players by season points, best first (ties: more games, user id):
        everyone who finished a game of it or has a rating change in it."""
        with self._session() as session:
            season_id = self._season_for(session, guild_id, None, season_id, self.clock())
            totals = {t: self._track_totals(session, guild_id, season_id, t) for t in TRACKS}
            seats = session.execute(
                sa.select(col(Participant.user_id), col(Participant.side_id), col(Participant.result))
                .join(Game, col(Game.id) == col(Participant.game_id))
                .where(col(Game.guild_id) == guild_id, col(Game.season_id) == season_id)
                .where(col(Game.status) == GameStatus.FINISHED)
            ).all()
            fouls = self._season_fouls(session, guild_id, season_id)
            users = sorted({u for values, games in totals.values() for u in (*values, *games)})
            names = self._names(session, guild_id, users)
        config = self.elo_config
        counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for user_id, side_id, result in seats:
            team = config.team_of(side_id)
            won = int(result == "win")
            mine = counts[user_id]
            mine["games"] += 1
            mine["wins"] += won
            if team is not None:
                mine[f"{team.value}_games"] += 1
                mine[f"{team.value}_wins"] += won
        points, points_games = totals[POINTS_TRACK]
        red, _ = totals[Team.RED.track]
        black, _ = totals[Team.BLACK.track]
        rows = [
            SeasonRow(
                user_id=u,
                display_name=names.get(u, str(u)),
                points=points.get(u, 0.0),
                elo_red=red.get(u, config.base),
                elo_black=black.get(u, config.base),
                games=counts[u]["games"],
                wins=counts[u]["wins"],
                red_games=counts[u]["red_games"],
                red_wins=counts[u]["red_wins"],
                black_games=counts[u]["black_games"],
                black_wins=counts[u]["black_wins"],
                fouls=int(fouls.get(u, 0)),
            )
            for u in users
        ]
        rows.sort(key=lambda r: (-r.points, -points_games.get(r.user_id, 0), r.user_id))
        return season_id, rows

    def display_names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """The names the server's players had at their last game, by user id."""
        with self._session() as session:
            return self._names(session, guild_id, user_ids)

    def player_known(self, guild_id: int, user_id: int) -> bool:
        """Has the member played on this server (a player's page exists only then)?"""
        with self._session() as session:
            return bool(self._names(session, guild_id, [user_id]))
