"""What every part of the storage service shares: the engine, the clock and a session helper."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


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

    def _now(self, at: datetime | None) -> datetime:
        value = at if at is not None else self.clock()
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session
