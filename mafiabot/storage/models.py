"""Database tables of the bot (SQLModel).

Discord ids (guild, user, channel, role) are 64-bit snowflakes and use BIGINT; row ids are plain
integers so that SQLite's rowid autoincrement works. Every timestamp is stored as UTC (see `UTCDateTime`).
Any change here needs a new Alembic revision in `migrations/versions/`; a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend.

    SQLite has no timezone support, so values are stored naive in UTC and get their tzinfo back on read;
    naive input is refused rather than guessed.
    """

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; pass an aware UTC datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC)


def _snowflake(*, nullable: bool = False, index: bool = False) -> Any:
    return Field(sa_type=sa.BigInteger, nullable=nullable, index=index)


def _json(default_factory: Any) -> Any:
    return Field(default_factory=default_factory, sa_type=sa.JSON, nullable=False)


def _time(*, nullable: bool = False) -> Any:
    return Field(default=None, sa_type=UTCDateTime, nullable=nullable)


class GameStatus:
    """A game's life, one row from the lobby to the end: lobby → running → over → finished | aborted.

    ``over``: the log is over (stored with its last command), the results and the release are not yet;
    a restart closes such a game. A lobby that never starts is deleted with its members.
    """

    LOBBY = "lobby"
    RUNNING = "running"
    OVER = "over"
    FINISHED = "finished"
    ABORTED = "aborted"
    LIVE = (RUNNING, OVER)  # a game the bot holds: it resumes (or closes) after a restart


class Player(SQLModel, table=True):
    """A member of a guild who has played at least once; `display_name` is refreshed on every game."""

    __tablename__ = "players"
    __table_args__ = (sa.UniqueConstraint("guild_id", "user_id", name="uq_players_guild_user"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    user_id: int = _snowflake()
    display_name: str = Field(sa_type=sa.String(100))


class Season(SQLModel, table=True):
    """A rating period of one guild; the open season has `ended_at` NULL. Old seasons are kept."""

    __tablename__ = "seasons"
    __table_args__ = (sa.UniqueConstraint("guild_id", "number", name="uq_seasons_guild_number"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    number: int
    name: str = Field(sa_type=sa.String(100))
    started_at: datetime = _time()
    ended_at: datetime | None = _time(nullable=True)


class Game(SQLModel, table=True):
    """One game, running or over. Its command log lives in `game_commands`, one row per command."""

    __tablename__ = "games"
    __table_args__ = (sa.Index("ix_games_guild_status", "guild_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    season_id: int = Field(foreign_key="seasons.id", index=True)
    voice_channel_id: int = _snowflake()
    text_channel_id: int = _snowflake()
    ruleset_id: str = Field(sa_type=sa.String(40))
    options: dict[str, Any] = _json(dict)
    seed: int = Field(sa_type=sa.BigInteger)
    status: str = Field(default=GameStatus.RUNNING, sa_type=sa.String(20))
    created_at: datetime = _time()
    ended_at: datetime | None = _time(nullable=True)
    end_reason: str | None = Field(default=None, sa_type=sa.String(200), nullable=True)
    winners: list[str] = _json(list)
    # Phase deadline and other timer state, so that a restarted bot resumes with the time that was left.
    # Added in revision 0002; the server default fills games created before it.
    timers: dict[str, Any] = Field(
        default_factory=dict,
        sa_type=sa.JSON,
        nullable=False,
        sa_column_kwargs={"server_default": sa.text("'{}'")},
    )
    # The part of a running game's clock that rarely changes (its language, timers, members' own voice
    # states and nicknames, …: games.SETTLED), stored apart from the step's few moving values in
    # ``timers`` and only when it changes (revision 0008, issue 18). Read back into ``timers`` (the
    # storage's load of a game); a game stored before it has it all in ``timers`` and this empty.
    timers_static: dict[str, Any] = Field(
        default_factory=dict,
        sa_type=sa.JSON,
        nullable=False,
        sa_column_kwargs={"server_default": sa.text("'{}'")},
    )


class GameCommand(SQLModel, table=True):
    """One command of a game's engine log. A row per command makes an append a single INSERT."""

    __tablename__ = "game_commands"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    command: dict[str, Any] = _json(dict)
    created_at: datetime = _time()


class Participant(SQLModel, table=True):
    """A seat of a game: who sat there, their role and side, and how the game ended for them."""

    __tablename__ = "participants"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "seat", name="uq_participants_game_seat"),
        sa.Index("ix_participants_user", "user_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    seat: int
    user_id: int = _snowflake()
    role_id: str = Field(sa_type=sa.String(40))
    side_id: str = Field(sa_type=sa.String(40))
    result: str | None = Field(default=None, sa_type=sa.String(10), nullable=True)  # win / loss / draw
    fouls: int = 0
    points: float = 0.0
    removed: bool = False  # removed from the table (fouls, immediate removal)
    left: bool = False  # left the game before its end (D-F4)


class Foul(SQLModel, table=True):
    """A foul («замечание»): who gave it (NULL `given_by` with `automatic` for the bot's own) and when."""

    __tablename__ = "fouls"
    __table_args__ = (sa.Index("ix_fouls_game", "game_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    seat: int
    user_id: int = _snowflake(index=True)
    reason: str = Field(sa_type=sa.String(200))
    given_by: int | None = _snowflake(nullable=True)
    given_at: datetime = _time()
    day: int
    automatic: bool = False
    withdrawn_by: int | None = _snowflake(nullable=True)
    withdrawn_at: datetime | None = _time(nullable=True)
    withdrawn_reason: str | None = Field(default=None, sa_type=sa.String(200), nullable=True)


class RatingChange(SQLModel, table=True):
    """One change of one rating track; a player's rating is the sum of his changes in the season."""

    __tablename__ = "rating_changes"
    __table_args__ = (sa.Index("ix_rating_changes_board", "guild_id", "season_id", "track", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    season_id: int = Field(foreign_key="seasons.id")
    user_id: int = _snowflake()
    game_id: int | None = Field(default=None, foreign_key="games.id", nullable=True, index=True)
    track: str = Field(sa_type=sa.String(20))  # points / elo_red / elo_black
    delta: float
    reason: str = Field(sa_type=sa.String(200))
    created_at: datetime = _time()


class LobbyMember(SQLModel, table=True):
    """A player in a lobby (a game with status ``lobby``), in join order; the rows go at the start."""

    __tablename__ = "lobby_members"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    display_name: str = Field(sa_type=sa.String(100))
    position: int


class MuteHold:
    """Where a member the bot changed stands in the voice ledger."""

    HELD = "held"  # a game holds his mute: the game's step decides it
    GIVE_BACK = "give_back"  # no game wants him any more: his own state is owed to him


class HeldMute(SQLModel, table=True):
    """The voice ledger: a member whose server mute the bot changed, stored *before* the change.

    `original_mute` is his own state before the game. The row goes only once Discord confirmed the
    state given back; `failure` (why the last attempt was refused) and `told` (the moderator was told
    once in `text_channel_id`) are for a refusal that must wait, e.g. a lost permission.
    """

    __tablename__ = "voice_mutes"
    __table_args__ = (sa.Index("ix_voice_mutes_game", "game_id"),)

    guild_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    game_id: int | None = Field(default=None, nullable=True)
    voice_channel_id: int = _snowflake()
    text_channel_id: int = _snowflake()
    original_mute: bool = False
    state: str = Field(default=MuteHold.HELD, sa_type=sa.String(20))
    failure: str | None = Field(default=None, sa_type=sa.String(200), nullable=True)
    told: bool = False
    created_at: datetime = _time()
    updated_at: datetime = _time()


class GuildSettings(SQLModel, table=True):
    """Per-guild settings; a guild without a row uses the defaults below."""

    __tablename__ = "guild_settings"

    guild_id: int = Field(sa_type=sa.BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    host_role_id: int | None = _snowflake(nullable=True)
    volume: float = 1.0
    audio_enabled: bool = True
    ruleset_defaults: dict[str, Any] = _json(dict)


class JudgeAward(SQLModel, table=True):
    """The judge's extra points («доп. баллы», FIIM.md F.14, D-FI15) to one seat of a game, with why."""

    __tablename__ = "judge_awards"
    __table_args__ = (sa.Index("ix_judge_awards_game", "game_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    seat: int
    points: float
    reason: str = Field(sa_type=sa.String(200))
    given_by: int = _snowflake()
    given_at: datetime = _time()


class GameProtocol(SQLModel, table=True):
    """A finished game's protocol as its judge confirmed and the bot signed it (mafiabot.game.protocol)."""

    __tablename__ = "game_protocols"

    game_id: int = Field(foreign_key="games.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    confirmed_by: int = _snowflake()
    confirmed_at: datetime = _time()
    sha256: str = Field(sa_type=sa.String(64))
    signed: dict[str, Any] = _json(dict)


class SigningKey(SQLModel, table=True):
    """The bot's protocol key (an Ed25519 seed), made at its first signature when none is configured."""

    __tablename__ = "signing_keys"

    id: int | None = Field(default=None, primary_key=True)
    seed: str = Field(sa_type=sa.String(64))
    created_at: datetime = _time()


class Tournament(SQLModel, table=True):
    """A series of games on one server with one table of points (issue 19, «Tournament mode»)."""

    __tablename__ = "tournaments"
    __table_args__ = (sa.Index("ix_tournaments_guild", "guild_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    name: str = Field(sa_type=sa.String(100))
    judge_id: int = _snowflake()
    scoring: str = Field(sa_type=sa.String(40))
    created_at: datetime = _time()
    closed_at: datetime | None = _time(nullable=True)


class TournamentGame(SQLModel, table=True):
    """A confirmed game of a tournament, in the order the judge confirmed them."""

    __tablename__ = "tournament_games"

    tournament_id: int = Field(foreign_key="tournaments.id", primary_key=True)
    game_id: int = Field(foreign_key="games.id", primary_key=True)
    position: int


class TournamentSchedule(SQLModel, table=True):
    """A tournament's seating schedule (FIIM.md F.2, engine/kinds/fiim_schedule.py): how it was drawn."""

    __tablename__ = "tournament_schedules"

    tournament_id: int = Field(foreign_key="tournaments.id", primary_key=True)
    seating: str = Field(sa_type=sa.String(10))  # "fixed": seats per game; "drawn": players only
    seed: int = Field(sa_type=sa.BigInteger)
    games: int
    created_at: datetime = _time()


class TournamentSeat(SQLModel, table=True):
    """One place of a scheduled game: seat ``position`` (or, when seats are drawn, the draw's order)."""

    __tablename__ = "tournament_seats"

    tournament_id: int = Field(foreign_key="tournaments.id", primary_key=True)
    game_no: int = Field(primary_key=True)
    position: int = Field(primary_key=True)
    user_id: int = _snowflake()
    name: str = Field(sa_type=sa.String(100))


class BotState(SQLModel, table=True):
    """What the bot keeps about itself rather than a server: e.g. the fingerprint of the commands it last
    published to Discord, so that a restart does not publish them again unchanged."""

    __tablename__ = "bot_state"

    key: str = Field(sa_type=sa.String(100), primary_key=True)
    value: str = Field(sa_type=sa.String(200))
    updated_at: datetime = _time()
