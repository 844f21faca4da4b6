"""Seasons, players and games: creation, the command log, timers, the end of a game."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from mafiabot.chaos import kill_point
from mafiabot.storage.base import NotFound, StorageBase, StorageError
from mafiabot.storage.ledger import LedgerWrite, give_back_game, hold_mutes, write_ledger
from mafiabot.storage.models import BotState, Game, GameCommand, GameStatus, Participant, Player, Season

_GAMES: sa.Table = Game.__table__  # type: ignore[attr-defined]
_COMMANDS: sa.Table = GameCommand.__table__  # type: ignore[attr-defined]

# The group commit's statements (``write_batch``: every click's command, every clock, every heartbeat) run on
# the driver's own connection (StorageBase._writing), as SQL written once here: SQLAlchemy's execution of
# a statement (its compiled cache, the expanding IN lists rendered anew, the result's wrapping) cost more
# CPU than SQLite's own work, the commit's fsync included (issue 18; benchmarks/storage_click.py). The
# columns' own types turn the values into what SQLAlchemy would have sent (the JSON, UTCDateTime).
_OVER = (
    sa.update(_GAMES)
    .where(_GAMES.c.id.in_(sa.bindparam("ids", expanding=True)))
    .values(status=GameStatus.OVER)
)


BatchResult = tuple[list[int | StorageError], dict[int, StorageError]]

# The keys of a running game's clock (mafiabot.game.table.Table.timer_state) that rarely change from step
# to step: ≈ 770 of its ≈ 920 bytes at a ten-player table. The group commit stores them in
# ``games.timers_static`` only when they changed since it last did, and the rest (the step's serial, time
# left, instant, heartbeat, …) in ``timers`` each time (issue 18); a game is read with both in ``timers``.
SETTLED = frozenset(
    {"dealt", "creator_id", "language", "timers", "mute_spectators", "voice_original", "nicknames"}
)


@sa.event.listens_for(Game, "load")
def _whole_clock(game: Game, _context: Any) -> None:
    """A game's clock as it was given: its static part under the moving one (a game stored before
    revision 0008, or by ``set_timers``, has it all in ``timers``)."""
    static = game.timers_static
    if static:
        set_committed_value(game, "timers", {**static, **(game.timers or {})})


class _BatchSql:
    """The group commit's SQL and its values' conversions for one engine's dialect."""

    def __init__(self, dialect: sa.Dialect) -> None:
        self.mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self.lock = " FOR UPDATE OF g" if dialect.name == "postgresql" else ""  # writes to a game take turns
        m = self.mark
        self.append = (
            f"INSERT INTO game_commands (game_id, seq, command, created_at) VALUES ({self.marks(4)})"
        )
        self.clock = f"UPDATE games SET timers = {m} WHERE id = {m}"
        self.clock_static = f"UPDATE games SET timers = {m}, timers_static = {m} WHERE id = {m}"
        self.beat = f"UPDATE bot_state SET value = {m}, updated_at = {m} WHERE key = {m}"
        self.beat_first = f"INSERT INTO bot_state (value, updated_at, key) VALUES ({m}, {m}, {m})"
        # A command alone (a click when the bot is not busy), on PostgreSQL: its game's row locked if it is
        # running, its number counted and the row inserted, in one statement committed alone (one round
        # trip; StorageBase._writing_alone). No row back: the game is not running, or not there.
        self.append_alone = (
            "INSERT INTO game_commands (game_id, seq, command, created_at) SELECT g.id,"
            " COALESCE((SELECT max(c.seq) FROM game_commands c WHERE c.game_id = g.id), -1) + 1,"
            f" {m}, {m} FROM (SELECT id FROM games WHERE id = {m} AND status = {m} FOR UPDATE) g"
            " RETURNING seq"
        )
        self.alone = dialect.name == "postgresql"
        # Many rows in one statement (PostgreSQL: _execute's ``many``), with the values of each in a row.
        self.append_many = self._many(self._append_many) if self.alone else None
        self.clock_many = self._many(self._clock_many) if self.alone else None
        self.clock_static_many = self._many(self._clock_static_many) if self.alone else None
        self.game_status = f"SELECT status FROM games WHERE id = {m}"
        self.json = _processor(_COMMANDS.c.command.type, dialect)
        self.time = _processor(_COMMANDS.c.created_at.type, dialect)

    def status(self, count: int, *, last_seq: bool) -> str:
        """The games' status (and, with ``last_seq``, each one's last command) in one statement. On
        PostgreSQL it locks their rows, and the last command is read with the statement's snapshot: one
        of the same game committed meanwhile by another transaction would not be seen, and the insert
        would then fail on the (game, seq) key, failing the batch, never losing or overwriting a command;
        the bot writes a game's commands from here alone (one process per game, under _writing's lock)."""
        last = ", (SELECT max(c.seq) FROM game_commands c WHERE c.game_id = g.id)" if last_seq else ""
        return f"SELECT g.id, g.status{last} FROM games g WHERE g.id IN ({self.marks(count)}){self.lock}"

    def marks(self, count: int) -> str:
        return ", ".join([self.mark] * count)

    @staticmethod
    def _many(make: Callable[[int], str]) -> Callable[[int], str]:
        return functools.lru_cache(maxsize=64)(make)  # (a text per count of rows, made once)

    @staticmethod
    def _append_many(count: int) -> str:
        rows = ", ".join(["(%s, %s, %s, %s)"] * count)
        return f"INSERT INTO game_commands (game_id, seq, command, created_at) VALUES {rows}"

    @staticmethod
    def _clock_many(count: int) -> str:
        rows = ", ".join(["(%s::json, %s::bigint)"] * count)
        return f"UPDATE games SET timers = v.t FROM (VALUES {rows}) AS v (t, id) WHERE games.id = v.id"

    @staticmethod
    def _clock_static_many(count: int) -> str:
        rows = ", ".join(["(%s::json, %s::json, %s::bigint)"] * count)
        return (
            "UPDATE games SET timers = v.t, timers_static = v.s"
            f" FROM (VALUES {rows}) AS v (t, s, id) WHERE games.id = v.id"
        )


def _processor(column_type: sa.types.TypeEngine[Any], dialect: sa.Dialect) -> Callable[[Any], Any]:
    """What SQLAlchemy does to a value of this column's type before the driver gets it (on PostgreSQL
    a JSON value is wrapped for psycopg, on SQLite it is serialized; a time is made naive UTC, …)."""
    process = column_type.dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else _same


def _same(value: Any) -> Any:
    return value


def _execute(
    cursor: Any, statement: str, rows: Sequence[Sequence[Any]], many: Callable[[int], str] | None = None
) -> None:
    """``statement`` for each of ``rows``: one row alone without executemany, which psycopg runs in a
    pipeline of its own (≈ 70 µs of CPU more for a single row; sqlite3 takes either alike). ``many``
    (PostgreSQL): the one statement that writes that many rows at once, given their values in a row:
    psycopg's pipelined executemany cost about twice its CPU, in the bot and in the server (issue 18:
    a heartbeat's clocks, ≈ 13 µs a clock of each; a busy turn's commands)."""
    if len(rows) == 1:
        cursor.execute(statement, rows[0])
    elif rows and many is not None:
        cursor.execute(many(len(rows)), [value for row in rows for value in row])
    elif rows:
        cursor.executemany(statement, rows)


# A process's heartbeat (mafiabot.game.clock): one row of ``bot_state`` per running process, its wall
# time twice a second. A running step's clock is stored only when it changes in a way time alone does not
# explain, with the heartbeat's key; a restart counts the step's time as gone until that heartbeat.
BEAT_PREFIX = "clock beat "
_STATE: sa.Table = BotState.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class SeatAssignment:
    """Who sits where after the deal."""

    seat: int
    user_id: int
    display_name: str
    role_id: str
    side_id: str


@dataclass(frozen=True)
class SeatResult:
    """How the game ended for one seat."""

    seat: int
    result: str  # win / loss / draw
    fouls: int = 0
    points: float = 0.0
    removed: bool = False
    left: bool = False


class GamesMixin(StorageBase):
    _batch_sql: _BatchSql | None = None  # (made at the first write_batch, for the engine's dialect)

    # --- seasons -------------------------------------------------------------------------------------

    def current_season(self, guild_id: int, *, at: datetime | None = None) -> Season:
        """The guild's open season; the first call for a guild opens season 1."""
        with self._session() as session:
            return self._current_season(session, guild_id, self._now(at))

    def _current_season(self, session: Session, guild_id: int, now: datetime) -> Season:
        query = select(Season).where(Season.guild_id == guild_id, col(Season.ended_at).is_(None))
        season = session.exec(query).first()
        if season is not None:
            return season
        season = Season(guild_id=guild_id, number=1, name="", started_at=now)  # named when shown (i18n)
        if session.get_bind().dialect.name != "postgresql":
            session.add(season)  # SQLite: sessions take turns (StorageBase), nobody can race us here
            session.flush()
            return season
        try:
            # Two tables of a new guild may start at once; the unique (guild, number) lets one win.
            with session.begin_nested():
                session.add(season)
        except IntegrityError:
            return session.exec(query).one()
        return season

    def start_new_season(
        self, guild_id: int, name: str | None = None, *, at: datetime | None = None
    ) -> Season:
        """Close the open season (its games and ratings stay) and open the next one."""
        now = self._now(at)
        with self._session() as session:
            current = self._current_season(session, guild_id, now)
            current.ended_at = now
            session.add(current)
            season = Season(
                guild_id=guild_id,
                number=current.number + 1,
                name=name or "",  # the bot's own «Season N» is said in the server's language
                started_at=now,
            )
            session.add(season)
            session.flush()
            return season

    def seasons(self, guild_id: int) -> list[Season]:
        with self._session() as session:
            query = select(Season).where(Season.guild_id == guild_id).order_by(col(Season.number))
            return list(session.exec(query))

    def season(self, guild_id: int, number: int) -> Season:
        with self._session() as session:
            query = select(Season).where(Season.guild_id == guild_id, Season.number == number)
            season = session.exec(query).first()
            if season is None:
                raise NotFound(f"guild {guild_id} has no season {number}")
            return season

    # --- players -------------------------------------------------------------------------------------

    def upsert_player(self, guild_id: int, user_id: int, display_name: str) -> Player:
        with self._session() as session:
            return self._upsert_player(session, guild_id, user_id, display_name)

    def _upsert_player(self, session: Session, guild_id: int, user_id: int, display_name: str) -> Player:
        query = select(Player).where(Player.guild_id == guild_id, Player.user_id == user_id)
        player = session.exec(query).first()
        if player is None:
            player = Player(guild_id=guild_id, user_id=user_id, display_name=display_name[:100])
        else:
            player.display_name = display_name[:100]
        session.add(player)
        session.flush()
        return player

    def player(self, guild_id: int, user_id: int) -> Player | None:
        with self._session() as session:
            query = select(Player).where(Player.guild_id == guild_id, Player.user_id == user_id)
            return session.exec(query).first()

    # --- games ---------------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        guild_id: int,
        voice_channel_id: int,
        text_channel_id: int,
        ruleset_id: str,
        seed: int,
        options: dict[str, Any] | None = None,
        at: datetime | None = None,
        creator_id: int | None = None,
        seats: Sequence[SeatAssignment] = (),
        hold: dict[int, bool] | None = None,
    ) -> Game:
        """A new running game in the guild's open season, with its deal and its creator (the moderator), in
        one transaction: a crash leaves the whole game or nothing, never a game without its seats.
        ``hold``: members of its voice channel the game holds in the voice ledger from the start (their
        own state), in the same transaction; changed in place to what the ledger owes each."""
        now = self._now(at)
        with self._session() as session:
            game = self._add_game(
                session,
                now,
                guild_id=guild_id,
                voice_channel_id=voice_channel_id,
                text_channel_id=text_channel_id,
                ruleset_id=ruleset_id,
                options=dict(options or {}),
                seed=seed,
                status=GameStatus.RUNNING,
                timers={} if creator_id is None else {"creator_id": creator_id},
            )
            if seats:
                self._set_participants(session, game, seats)
            self._hold_from_start(session, now, game, hold)
            return game

    @staticmethod
    def _hold_from_start(session: Session, now: datetime, game: Game, hold: dict[int, bool] | None) -> None:
        if hold:
            hold.update(
                hold_mutes(
                    session,
                    now,
                    guild_id=game.guild_id,
                    game_id=game.id,
                    voice_channel_id=game.voice_channel_id,
                    text_channel_id=game.text_channel_id,
                    originals=dict(hold),
                )
            )

    def _add_game(self, session: Session, now: datetime, *, guild_id: int, **columns: Any) -> Game:
        """A new game row in the guild's open season, flushed so that it has its id."""
        season = self._current_season(session, guild_id, now)
        assert season.id is not None
        game = Game(guild_id=guild_id, season_id=season.id, created_at=now, winners=[], **columns)
        session.add(game)
        session.flush()
        return game

    def game(self, game_id: int) -> Game:
        with self._session() as session:
            return self._game(session, game_id)

    def _game(self, session: Session, game_id: int, *, lock: bool = False) -> Game:
        query = select(Game).where(Game.id == game_id)
        if lock:
            query = query.with_for_update()
        game = session.exec(query).first()
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    def _running_game(
        self, session: Session, game_id: int, statuses: tuple[str, ...] = GameStatus.LIVE
    ) -> Game:
        game = self._game(session, game_id, lock=True)
        if game.status not in statuses:
            raise StorageError(f"game {game_id} is {game.status}, not running")
        return game

    def running_games(self, guild_id: int | None = None) -> list[Game]:
        """Games to resume (or, when their log is over, to close) after a restart, oldest first."""
        with self._session() as session:
            query = select(Game).where(col(Game.status).in_(GameStatus.LIVE))
            if guild_id is not None:
                query = query.where(Game.guild_id == guild_id)
            return list(session.exec(query.order_by(col(Game.id))))

    def set_participants(self, game_id: int, seats: Sequence[SeatAssignment]) -> list[Participant]:
        """Record the deal (replacing an earlier one of the same running game) and refresh player names."""
        with self._session() as session:
            return self._set_participants(session, self._running_game(session, game_id), seats)

    def _set_participants(
        self, session: Session, game: Game, seats: Sequence[SeatAssignment]
    ) -> list[Participant]:
        assert game.id is not None
        if len({s.seat for s in seats}) != len(seats):
            raise StorageError("a seat is given twice")
        session.execute(sa.delete(Participant).where(col(Participant.game_id) == game.id))
        rows = []
        for s in sorted(seats, key=lambda s: s.seat):
            self._upsert_player(session, game.guild_id, s.user_id, s.display_name)
            row = Participant(
                game_id=game.id, seat=s.seat, user_id=s.user_id, role_id=s.role_id, side_id=s.side_id
            )
            session.add(row)
            rows.append(row)
        session.flush()
        return rows

    def participants(self, game_id: int) -> list[Participant]:
        with self._session() as session:
            query = select(Participant).where(Participant.game_id == game_id).order_by(col(Participant.seat))
            return list(session.exec(query))

    def seat_names(self, game_id: int) -> dict[int, str]:
        """The name each seat's player had when the game was dealt (the bot may not know him now)."""
        with self._session() as session:
            game = self._game(session, game_id)
            query = (
                select(Participant.seat, Player.display_name)
                .join(Player, col(Player.user_id) == col(Participant.user_id))
                .where(Participant.game_id == game_id, Player.guild_id == game.guild_id)
            )
            return {seat: name for seat, name in session.exec(query)}

    def mark_participant(
        self, game_id: int, seat: int, *, removed: bool | None = None, left: bool | None = None
    ) -> None:
        """Flag a seat as removed from the table or gone before the end, as it happens."""
        with self._session() as session:
            self._running_game(session, game_id)
            query = select(Participant).where(Participant.game_id == game_id, Participant.seat == seat)
            row = session.exec(query).first()
            if row is None:
                raise NotFound(f"game {game_id} has no seat {seat}")
            if removed is not None:
                row.removed = removed
            if left is not None:
                row.left = left
            session.add(row)
            if left:  # a player who left the game is owed his voice, in the same transaction
                give_back_game(session, game_id, self._now(None), [row.user_id])

    # --- command log and timers ----------------------------------------------------------------------

    def append_command(
        self, game_id: int, command: dict[str, Any], *, at: datetime | None = None, over: bool = False
    ) -> int:
        """Append one engine command to a running game's log; returns its position (0-based). ``over``:
        the command ends the game, which is then ``over`` (in the same transaction) until it is closed."""
        (result,) = self.write_batch([(game_id, command)], {}, at=at, over={game_id} if over else ())[0]
        if isinstance(result, StorageError):
            raise result
        return result

    def write_batch(
        self,
        commands: Sequence[tuple[int, dict[str, Any]]],
        timers: Mapping[int, dict[str, Any]],
        *,
        at: datetime | None = None,
        over: Collection[int] = (),
        ledger: Sequence[LedgerWrite] = (),
        beat: tuple[str, float] | None = None,
    ) -> BatchResult:
        """The bot's group commit (mafiabot.game.group_commit): the commands and clocks of one turn of
        its event loop in one transaction. Returns each command's position in its game's log or why it
        was refused, and the clocks refused (by game); a refusal stores nothing of that write only.
        ``over``: games whose command here ends them: stored ``over`` with it (a clock is still taken).
        ``ledger``: the voice ledger's writes of the turn, in order, after the games' rows are locked
        (the order finish_game and abort_game take them in: PostgreSQL finds no deadlock between them).
        ``beat``: the process's heartbeat (its key, its wall time), stored with the clocks it vouches for.

        The driver's own SQL, not SQLAlchemy's execution nor its ORM (see _BatchSql; issue 18). On SQLite
        the transaction takes the write lock first, so its reads (a game's status and last command) and
        its writes are one; on PostgreSQL the games' rows are locked (FOR UPDATE) as they are read."""
        now = self._now(at)
        ids = sorted({game_id for game_id, _ in commands} | set(timers))
        sql = self._batch_sql
        if sql is None:
            sql = self._batch_sql = _BatchSql(self.engine.dialect)
        if sql.alone and len(commands) == 1 and not (timers or over or ledger or beat):
            return self._append_alone(sql, *commands[0], now)

        known = self._writer.statics  # (read and changed under the writers' lock)
        statics: dict[int, dict[str, Any]] = {}  # the static parts this transaction writes

        def transaction(connection: sa.Connection, driver: Any) -> BatchResult:
            cursor = driver.cursor()
            status: dict[int, str] = {}
            last: dict[int, int] = {}
            if ids:
                cursor.execute(sql.status(len(ids), last_seq=bool(commands)), ids)
                for game_id, state, *seq in cursor.fetchall():
                    status[game_id] = state
                    if seq and seq[0] is not None:
                        last[game_id] = seq[0]

            def refusal(
                game_id: int, statuses: tuple[str, ...] = (GameStatus.RUNNING,)
            ) -> StorageError | None:
                if game_id not in status:
                    return NotFound(f"no game {game_id}")
                if status[game_id] not in statuses:
                    return StorageError(f"game {game_id} is {status[game_id]}, not running")
                return None

            seqs: list[int | StorageError] = []
            if commands:
                created = sql.time(now)
                rows: list[tuple[int, int, Any, Any]] = []
                for game_id, command in commands:
                    refused = refusal(game_id)
                    if refused is not None:
                        seqs.append(refused)
                        continue
                    seq = last[game_id] = last.get(game_id, -1) + 1
                    rows.append((game_id, seq, sql.json(command), created))
                    seqs.append(seq)
                _execute(cursor, sql.append, rows, sql.append_many)
                ended = {row[0] for row in rows} & set(over)
                if ended:  # the game's last command and its status "over" commit together
                    connection.execute(_OVER, {"ids": sorted(ended)})
            clocks_refused = {g: r for g in timers if (r := refusal(g, GameStatus.LIVE)) is not None}
            clocks: list[tuple[Any, int]] = []
            whole: list[tuple[Any, Any, int]] = []
            statics.clear()
            for game_id, value in timers.items():
                if game_id in clocks_refused:
                    continue
                moving: dict[str, Any] = {}
                static: dict[str, Any] = {}
                for key, part in value.items():
                    (static if key in SETTLED else moving)[key] = part
                if known.get(game_id) == static:  # (a dict's comparison: ≈ 4 times cheaper than its JSON)
                    clocks.append((sql.json(moving), game_id))
                else:
                    whole.append((sql.json(moving), sql.json(static), game_id))
                    statics[game_id] = copy.deepcopy(static)  # (as written, whatever its giver does next)
            _execute(cursor, sql.clock, clocks, sql.clock_many)
            _execute(cursor, sql.clock_static, whole, sql.clock_static_many)
            write_ledger(connection, ledger, now)
            if beat is not None:
                key, wall = beat
                values = (repr(float(wall)), sql.time(now), BEAT_PREFIX + key)
                cursor.execute(sql.beat, values)
                if cursor.rowcount == 0:
                    cursor.execute(sql.beat_first, values)
            kill_point("mid_transaction")  # the rows are written, not committed: they must not survive
            return seqs, clocks_refused

        return self._writing(transaction, committed=lambda: known.update(statics))

    def _append_alone(
        self, sql: _BatchSql, game_id: int, command: dict[str, Any], now: datetime
    ) -> BatchResult:
        """write_batch of one command and nothing else, on PostgreSQL: one statement, its own transaction."""

        def statement(driver: Any) -> BatchResult:
            cursor = driver.cursor()
            kill_point("mid_transaction")  # (nothing is written before the statement commits)
            cursor.execute(sql.append_alone, (sql.json(command), sql.time(now), game_id, GameStatus.RUNNING))
            row = cursor.fetchone()
            if row is not None:
                return [row[0]], {}
            cursor.execute(sql.game_status, (game_id,))
            found = cursor.fetchone()
            if found is None:
                return [NotFound(f"no game {game_id}")], {}
            return [StorageError(f"game {game_id} is {found[0]}, not running")], {}

        return self._writing_alone(statement)

    def command_log(self, game_id: int) -> list[dict[str, Any]]:
        with self._session() as session:
            self._game(session, game_id)
            query = select(GameCommand).where(GameCommand.game_id == game_id).order_by(col(GameCommand.seq))
            return [row.command for row in session.exec(query)]

    def clock_beats(self) -> dict[str, float]:
        """Every process's last heartbeat (its wall time), by key (mafiabot.game.clock)."""
        query = sa.select(_STATE.c.key, _STATE.c.value).where(_STATE.c.key.startswith(BEAT_PREFIX))
        with self.engine.connect() as connection:
            return {key[len(BEAT_PREFIX) :]: float(value) for key, value in connection.execute(query)}

    def forget_beats(self, keep: Collection[str]) -> int:
        """Delete the heartbeats but ``keep`` (those a running game's clock still names); how many."""
        query = sa.delete(_STATE).where(
            _STATE.c.key.startswith(BEAT_PREFIX), _STATE.c.key.not_in([BEAT_PREFIX + k for k in keep])
        )
        with self._sqlite_lock or nullcontext(), self.engine.begin() as connection:
            return connection.execute(query).rowcount

    def set_timers(self, game_id: int, timers: dict[str, Any]) -> None:
        """Replace the running game's timer state (phase deadline as ISO text, paused flag, …)."""
        with self._forgetting_static(game_id), self._session() as session:
            game = self._running_game(session, game_id)
            game.timers = dict(timers)
            game.timers_static = {}
            session.add(game)

    @contextmanager
    def _forgetting_static(self, game_id: int) -> Iterator[None]:
        """Around a transaction that sets the game's clock whole (its static part too): the group commit
        forgets the static part it stored, before and after (the next clock it writes is whole)."""
        writer = self._writer
        with writer.lock:
            writer.statics.pop(game_id, None)
        try:
            yield
        finally:
            with writer.lock:
                writer.statics.pop(game_id, None)

    # --- the end -------------------------------------------------------------------------------------

    def finish_game(
        self,
        game_id: int,
        *,
        winners: Sequence[str],
        results: Sequence[SeatResult],
        reason: str | None = None,
        at: datetime | None = None,
    ) -> Game:
        """Close a running game: winners (side ids), each seat's result; timers are cleared."""
        with self._session() as session:
            return self._finish_game(session, game_id, winners, results, reason, self._now(at))

    def _finish_game(
        self,
        session: Session,
        game_id: int,
        winners: Sequence[str],
        results: Sequence[SeatResult],
        reason: str | None,
        now: datetime,
    ) -> Game:
        game = self._running_game(session, game_id)
        seats = {p.seat: p for p in session.exec(select(Participant).where(Participant.game_id == game_id))}
        for r in results:
            if r.result not in ("win", "loss", "draw"):
                raise StorageError(f"unknown result {r.result!r}")
            row = seats.get(r.seat)
            if row is None:
                raise NotFound(f"game {game_id} has no seat {r.seat}")
            row.result, row.fouls, row.points = r.result, r.fouls, r.points
            row.removed, row.left = r.removed or row.removed, r.left or row.left
            session.add(row)
        game.status = GameStatus.FINISHED
        game.winners = list(winners)
        game.ended_at = now
        game.end_reason = reason
        game.timers = {}
        game.timers_static = {}
        session.add(game)
        give_back_game(session, game_id, now)  # the voice ledger: the same transaction as the status
        session.flush()
        return game

    def abort_game(self, game_id: int, reason: str, *, at: datetime | None = None) -> Game:
        """Stop a running game without a result; it is kept, but rates nobody."""
        with self._session() as session:
            game = self._running_game(session, game_id)
            game.status = GameStatus.ABORTED
            game.ended_at = self._now(at)
            give_back_game(session, game_id, game.ended_at)  # the voice ledger, with the status
            game.end_reason = reason[:200]
            game.timers = {}
            game.timers_static = {}
            session.add(game)
            session.flush()
            return game
