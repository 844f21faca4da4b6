"""Persistence of games, conduct and ratings (SQLModel over SQLite or PostgreSQL).

    storage = Storage.open("sqlite:///mafiabot.db")   # migrates to head, then serves
    game = storage.create_game(guild_id=…, voice_channel_id=…, text_channel_id=…, ruleset_id="city", seed=7)
    storage.append_command(game.id, {"type": "vote", …})

Every method is synchronous and opens its own session; call them from the bot with `asyncio.to_thread`.
"""

from __future__ import annotations

import sqlalchemy as sa

from mafiabot.ratings import EloConfig, PointsRules
from mafiabot.storage.base import Clock, NotFound, StorageError, utc_now
from mafiabot.storage.bot_state import BotStateMixin
from mafiabot.storage.conduct import ConductMixin
from mafiabot.storage.games import SeatAssignment, SeatResult
from mafiabot.storage.judging import JudgingMixin
from mafiabot.storage.ledger import LedgerMixin
from mafiabot.storage.lobbies import LobbiesMixin, StoredLobby
from mafiabot.storage.migrate import DEFAULT_URL, make_engine, upgrade
from mafiabot.storage.models import (
    Foul,
    Game,
    GameStatus,
    GuildSettings,
    HeldMute,
    LobbyMember,
    MuteHold,
    Participant,
    Player,
    RatingChange,
    Season,
)
from mafiabot.storage.reports import Board, BoardRow, GameRecord, GameSummary, Profile, Tally
from mafiabot.storage.season_table import SeasonRow, SeasonTableMixin


class Storage(ConductMixin, SeasonTableMixin, LobbiesMixin, LedgerMixin, JudgingMixin, BotStateMixin):
    """The bot's one entry point to the database."""

    def __init__(
        self,
        engine: sa.Engine,
        clock: Clock = utc_now,
        *,
        elo_config: EloConfig | None = None,
        points_rules: PointsRules | None = None,
    ) -> None:
        super().__init__(engine, clock)
        self.elo_config = elo_config or EloConfig()
        self.points_rules = points_rules or PointsRules()

    @classmethod
    def open(cls, url: str = DEFAULT_URL, clock: Clock = utc_now, *, migrate: bool = True) -> Storage:
        """Connect to `url`, bring the schema to head unless told not to, and serve."""
        engine = make_engine(url)
        if migrate:
            upgrade(engine)
        return cls(engine, clock)

    def integrity_problem(self) -> str | None:
        """What is wrong with the database file or server, or None. SQLite checks its pages and indexes
        (a file cut short by a full disk, a bad copy); PostgreSQL, which guards its own pages, answers."""
        try:
            with self.engine.connect() as connection:
                if self.engine.dialect.name == "sqlite":
                    rows = [r[0] for r in connection.exec_driver_sql("PRAGMA integrity_check").all()]
                    return None if rows == ["ok"] else "integrity check: " + "; ".join(rows[:3])
                connection.exec_driver_sql("SELECT 1").all()
        except sa.exc.SQLAlchemyError as exc:
            return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        return None

    def close(self) -> None:
        self._writer.close()
        self.engine.dispose()


__all__ = [
    "DEFAULT_URL",
    "Board",
    "BoardRow",
    "Clock",
    "Foul",
    "Game",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "GuildSettings",
    "HeldMute",
    "LobbyMember",
    "MuteHold",
    "NotFound",
    "Participant",
    "Player",
    "Profile",
    "RatingChange",
    "Season",
    "SeasonRow",
    "SeatAssignment",
    "SeatResult",
    "Storage",
    "StorageError",
    "StoredLobby",
    "Tally",
    "make_engine",
    "upgrade",
]
