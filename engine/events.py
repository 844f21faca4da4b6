"""Events: what happened, and who may know it.

Every event has a type, an audience and a flat mapping of fields. Events that the host announces
carry ``phrase`` (an id from ANNOUNCEMENTS.md) and ``params`` (its placeholders).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

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


# The audiences of groups of seats by the seats (to_seats's table): a caller that holds the seats in order
# reads ``AUDIENCES.get(seats) or to_seats(*seats)``, without the call where the group is kept.
AUDIENCES = _SEATS


def to_seats(*seats: int) -> Audience:
    found = _SEATS.get(seats)
    if found is None:
        if len(_SEATS) >= 4096:  # a bound for a long run over many tables
            _SEATS.clear()
        found = _SEATS[seats] = Audience(SEATS, tuple(sorted(set(seats))))
    return found


_TEAMS: dict[tuple[str, tuple[int, ...]], Audience] = {}  # one per team and seats, as _SEATS


def to_team(team: str, seats: tuple[int, ...] | list[int]) -> Audience:
    key = (team, tuple(seats))
    found = _TEAMS.get(key)
    if found is None:
        if len(_TEAMS) >= 4096:
            _TEAMS.clear()
        found = _TEAMS[key] = Audience(TEAM, tuple(sorted(seats)), team)
    return found


# An event carries five fields and is built about twice per command and read mostly by the bot: it is a
# tuple (built in C, no instance dictionary to fill) whose fields are read by name through C getters.
# Most events have no placeholders: they share one empty, read-only ``params`` instead of a fresh
# dictionary each (every reader copies params before adding to them).
EVENT_FIELDS = ("type", "audience", "data", "phrase", "params")
NO_PARAMS: Mapping[str, Any] = MappingProxyType({})
_tuple_new = tuple.__new__


class Event(tuple[Any, ...]):
    """What happened (``type`` and ``data``), who may know it (``audience``) and, where the host announces
    it, the phrase id (ANNOUNCEMENTS.md) and its placeholders (``params``). Immutable: a tuple of the five
    fields in that order, equal to another event with equal fields."""

    __slots__ = ()

    if TYPE_CHECKING:
        type: str
        audience: Audience
        data: dict[str, Any]
        phrase: str | None
        params: Mapping[str, Any]
    else:
        type = property(itemgetter(0), doc="The event's kind, e.g. ``night_step``.")
        audience = property(itemgetter(1), doc="Who may learn of it.")
        data = property(itemgetter(2), doc="Its fields, a flat mapping.")
        phrase = property(itemgetter(3), doc="The host's phrase id, or None.")
        params = property(itemgetter(4), doc="The phrase's placeholders (read-only where there are none).")

    def __new__(
        cls,
        type: str,
        audience: Audience = EVERYONE,
        data: dict[str, Any] | None = None,
        phrase: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Event:
        if data is None:
            data = {}
        return _tuple_new(cls, (type, audience, data, phrase, NO_PARAMS if params is None else params))

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle rebuild it from its fields
        return tuple(self)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(EVENT_FIELDS, self, strict=True))
        return f"Event({fields})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data, "audience": self.audience.to_json()}
        if self.phrase is not None:
            out["phrase"] = self.phrase
            out["params"] = dict(self.params)
        return out

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


# ``Event(*fields)`` with all five fields given in order, built in C without Event.__new__'s frame: the
# busiest events of the rules (speeches, votes, night steps, host lines) are made with it.
if TYPE_CHECKING:

    def event_of(fields: tuple[str, Audience, dict[str, Any], str | None, Mapping[str, Any]], /) -> Event: ...

else:
    event_of = partial(_tuple_new, Event)


# The busiest events of a game are the same values over and over (a seat's speech ending, a seat's vote
# for a candidate, a night step's call): an event is immutable, so such an event is made once, kept in a
# table of its kind under the values that vary, and the same object is handed out each time (no tuple,
# dictionaries or collector's tracking per event). Only events whose fields are all plain values (ints,
# strings, None: no list a reader could change) are kept. A table is emptied when it grows past a bound.
_TABLE_BOUND = 4096


def interned_in(table: dict[Any, Any], path: tuple[Any, ...], key: Any, fields: tuple[Any, ...]) -> Event:
    """``interned(table[path[0]]…[path[-1]], key, fields)``, the inner tables made on first use. A table of
    tables is read as ``table[a][b][key]`` (in a ``try``, interned_in on a KeyError): keys of plain values
    instead of one tuple of them to build, hash and compare, ≈ 400 instructions fewer a lookup (measured
    under cachegrind). ``key`` and each part of ``path`` must together tell apart every two events."""
    for part in path:
        inner = table.get(part)
        if inner is None:
            if len(table) >= _TABLE_BOUND:
                table.clear()
            inner = table[part] = {}
        table = inner
    return interned(table, key, fields)


def interned(table: dict[Any, Event], key: Any, fields: tuple[Any, ...]) -> Event:
    """``Event(*fields)``, kept in ``table`` under ``key`` (the values of ``fields`` that vary): the event
    for ``key`` on a miss of ``table.get(key)``. ``key`` must tell apart every two events of the table."""
    if len(table) >= _TABLE_BOUND:
        table.clear()
    found = table[key] = _tuple_new(Event, fields)
    return found
