"""Constants and small fakes shared by the storage tests (imported by name: storage_helpers)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mafiabot.storage import SeatAssignment

GUILD = 900_000_000_000_000_001  # a real snowflake needs 64 bits
OTHER_GUILD = 900_000_000_000_000_002
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


SEATS_7 = [
    SeatAssignment(1, 101, "Аня", "civilian", "town"),
    SeatAssignment(2, 102, "Борис", "mafioso", "mafia"),
    SeatAssignment(3, 103, "Вера", "commissar", "town"),
    SeatAssignment(4, 104, "Глеб", "civilian", "town"),
    SeatAssignment(5, 105, "Дина", "don", "mafia"),
    SeatAssignment(6, 106, "Егор", "doctor", "town"),
    SeatAssignment(7, 107, "Жанна", "maniac", "solo"),
]
