"""What every part of the storage service shares: the engine, the clock and a session helper."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


_SQLITE_LOCKS: weakref.WeakKeyDictionary[sa.Engine, threading.RLock] = weakref.WeakKeyDictionary()
_SQLITE_LOCKS_GUARD = threading.Lock()


def _sqlite_lock(engine: sa.Engine) -> threading.RLock:
    """One lock per engine, shared by every Storage built on it."""
    with _SQLITE_LOCKS_GUARD:
        return _SQLITE_LOCKS.setdefault(engine, threading.RLock())


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
