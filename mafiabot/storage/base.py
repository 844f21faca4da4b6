"""What every part of the storage service shares: the engine, the clock and a session helper."""

from __future__ import annotations

import select
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlmodel import Session

Clock = Callable[[], datetime]
T = TypeVar("T")


def utc_now() -> datetime:
    return datetime.now(UTC)


_SQLITE_LOCKS: weakref.WeakKeyDictionary[sa.Engine, threading.RLock] = weakref.WeakKeyDictionary()
_SQLITE_LOCKS_GUARD = threading.Lock()


def _sqlite_lock(engine: sa.Engine) -> threading.RLock:
    """One lock per engine, shared by every Storage built on it."""
    with _SQLITE_LOCKS_GUARD:
        return _SQLITE_LOCKS.setdefault(engine, threading.RLock())


class _Writer:
    """The group commit's connection of one engine (StorageBase._writing), kept open between its
    transactions, and the lock its writers take turns at."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.connection: sa.Connection | None = None
        # The static part of each game's clock as this process's group commit last committed it, by game:
        # a clock whose static part is equal is written without it (games.SETTLED).
        self.statics: dict[int, dict[str, Any]] = {}

    def close(self) -> None:
        with self.lock:
            connection, self.connection = self.connection, None
            if connection is not None:
                connection.close()


def _writer(engine: sa.Engine) -> _Writer:
    """One per engine, shared by every Storage built on it (a test's many, or a restart's new one): kept
    on the engine itself, as a weak dictionary would keep it alive (its connection names the engine)."""
    with _SQLITE_LOCKS_GUARD:
        writer: _Writer | None = getattr(engine, "_mafiabot_writer", None)
        if writer is None:
            writer = _Writer()
            setattr(engine, "_mafiabot_writer", writer)  # noqa: B010
        return writer


class StorageError(Exception):
    """A request the stored data cannot satisfy (unknown game, a game that is no longer running, …)."""


class NotFound(StorageError, LookupError):
    pass


class StorageBase:
    """Sync and thread-safe per call: every method opens its own session, so the bot may run each one in
    `asyncio.to_thread`. Returned rows are detached snapshots; changing them changes nothing stored."""

    def __init__(self, engine: sa.Engine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self.clock = clock
        # SQLite has one writer at a time and answers a second one with "database is locked" (or, for a
        # read-then-write like the next command number, a duplicate); one process owns the file, so its
        # threads take turns here. PostgreSQL locks rows instead (`with_for_update`).
        self._sqlite_lock = _sqlite_lock(engine) if engine.dialect.name == "sqlite" else None
        self._writer = _writer(engine)  # the group commit's connection (``_writing``)

    def _now(self, at: datetime | None) -> datetime:
        value = at if at is not None else self.clock()
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with (
            self._sqlite_lock or nullcontext(),
            Session(self.engine, expire_on_commit=False) as session,
            session.begin(),
        ):
            yield session

    def _writing(
        self, body: Callable[[sa.Connection, Any], T], committed: Callable[[], None] | None = None
    ) -> T:
        """``body(connection, driver)`` in one transaction of the group commit (``write_batch``: every
        click's and every clock's write), with the connection, begun, and the driver's own connection
        under it, for the hot statements, which run there without SQLAlchemy's execution path (issue 18:
        that cost ≈ 270 µs of CPU a transaction of one command on SQLite, the commit itself ≈ 60 µs).

        The connection stays open between transactions: no pool checkout and return, and on PostgreSQL
        no pre-ping round trip, each time. A transaction that fails rolls back and its connection is
        dropped (invalidated): the next one starts on a fresh one. One that failed before its commit on
        a connection kept from before (a PostgreSQL server restarted meanwhile: what the pool's pre-ping
        caught) runs again once on a fresh connection; nothing of it was committed. A failed commit is
        not run again (it may have been committed). SQLite's transaction takes the write lock at its
        start (BEGIN IMMEDIATE), so that its reads and its writes are one. ``committed`` runs once the
        transaction is committed, still under the writers' lock."""
        dbapi = self.engine.dialect.loaded_dbapi
        writer = self._writer
        with self._sqlite_lock or nullcontext(), writer.lock:
            for again in (True, False):
                connection = writer.connection
                kept = connection is not None and not connection.invalidated and not connection.closed
                if connection is None or not kept:
                    connection = writer.connection = self.engine.connect()
                written = False
                try:
                    with connection.begin():
                        driver: Any = connection.connection.driver_connection
                        if self._sqlite_lock is not None:
                            driver.execute("BEGIN IMMEDIATE")
                        result = body(connection, driver)
                        written = True
                    if committed is not None:
                        committed()
                    return result
                except BaseException as exc:
                    writer.connection = None
                    connection.invalidate()
                    connection.close()
                    stale = kept and not written and isinstance(exc, (dbapi.Error, sa.exc.DBAPIError))
                    if not (again and stale):
                        raise
        raise AssertionError("unreachable")

    def _writing_alone(self, body: Callable[[Any], T]) -> T:
        """``body(driver)`` on the group commit's kept PostgreSQL connection in autocommit: its one
        statement is its own transaction, committed (synchronous_commit as the server has it) before its
        result comes back. One round trip instead of four (BEGIN, the read, the write, COMMIT): a click's
        command alone (``write_batch``; issue 18, benchmarks/storage_click.py).

        Such a statement that fails is never run again: it may have been committed. So a kept connection
        the server has dropped meanwhile (a restart: it told the idle connection so, or closed it, and the
        socket has something to read) is replaced before the statement is sent, as the retry of
        ``_writing`` would have after its first statement failed."""
        writer = self._writer
        with writer.lock:
            connection = writer.connection
            if connection is None or connection.invalidated or connection.closed or _dropped(connection):
                if connection is not None:
                    connection.invalidate()
                    connection.close()
                connection = writer.connection = self.engine.connect()
            driver: Any = connection.connection.driver_connection
            try:
                driver.autocommit = True
                result = body(driver)
                driver.autocommit = False
            except BaseException:
                writer.connection = None
                connection.invalidate()
                connection.close()
                raise
            return result


def _dropped(connection: sa.Connection) -> bool:
    """Whether an idle kept connection has something to read: the server's farewell or its close (an
    idle session is sent nothing else by the bot's database)."""
    driver: Any = connection.connection.driver_connection
    try:
        readable, _, _ = select.select([driver.fileno()], [], [], 0)
    except (OSError, ValueError, AttributeError):
        return True
    return bool(readable)
