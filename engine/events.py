"""Events: what happened, and who may know it.

Every event has a type, an audience and a flat mapping of fields. Events that the host announces
carry ``phrase`` (an id from ANNOUNCEMENTS.md) and ``params`` (its placeholders).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PUBLIC = "public"
HOST = "host"
SEATS = "seats"
TEAM = "team"


_set = object.__setattr__


@dataclass(frozen=True, slots=True, init=False)
class Audience:
    """Who may learn of an event: everyone, the host only, some seats, or a team (resolved to seats)."""

    kind: str = PUBLIC
    seats: tuple[int, ...] = ()
    team: str | None = None

    def __init__(self, kind: str = PUBLIC, seats: tuple[int, ...] = (), team: str | None = None) -> None:
        # Faster than the generated __init__ of a frozen record (see Event); the same fields.
        _set(self, "kind", kind)
        _set(self, "seats", seats)
        _set(self, "team", team)

    def includes(self, seat: int) -> bool:
        if self.kind == PUBLIC:
            return True
        if self.kind == HOST:
            return False
        return seat in self.seats

    def to_json(self) -> Any:
        if self.kind in (PUBLIC, HOST):
            return self.kind
        if self.kind == TEAM:
            return {"team": self.team, "seats": list(self.seats)}
        return {"seats": list(self.seats)}


EVERYONE = Audience(PUBLIC)
HOST_ONLY = Audience(HOST)


_SEATS: dict[tuple[int, ...], Audience] = {}  # audiences are immutable: one per group of seats will do


def to_seats(*seats: int) -> Audience:
    found = _SEATS.get(seats)
    if found is None:
        if len(_SEATS) >= 4096:  # a bound for a long run over many tables
            _SEATS.clear()
        found = _SEATS[seats] = Audience(SEATS, tuple(sorted(set(seats))))
    return found


def to_team(team: str, seats: tuple[int, ...] | list[int]) -> Audience:
    return Audience(TEAM, tuple(sorted(seats)), team)


@dataclass(frozen=True, init=False)
class Event:
    type: str
    audience: Audience = EVERYONE
    data: dict[str, Any] = field(default_factory=dict)
    phrase: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        type: str,
        audience: Audience = EVERYONE,
        data: dict[str, Any] | None = None,
        phrase: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # The dataclass's own __init__ of a frozen record sets the fields one by one through
        # object.__setattr__, at twice the cost (a game makes about two events a command); this one writes
        # the same fields straight into the instance's dictionary, in the order of the fields (reading the
        # frozen record's __dict__ is allowed; tests check the result is the same record).
        fields = self.__dict__
        fields["type"] = type
        fields["audience"] = audience
        fields["data"] = {} if data is None else data
        fields["phrase"] = phrase
        fields["params"] = {} if params is None else params

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data, "audience": self.audience.to_json()}
        if self.phrase is not None:
            out["phrase"] = self.phrase
            out["params"] = dict(self.params)
        return out

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)
