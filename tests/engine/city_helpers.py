"""A driver for `city` scenario tests: the seats, a day played to its end, the new event fields."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import KEY_FIELDS, Table

KEY_FIELDS.update(
    {
        "blocked": ("seats",),
        "cannot_act": ("seat",),
        "acquitted": ("seat",),
        "immunity": ("seats",),
        "immunity_lost": ("seat",),
        "permission": ("seat", "target", "allow"),
        "nominees": ("seats",),
        "refused": ("seat", "reason"),
        "restricted": ("seat", "speech", "vote"),
        "rating_penalty": ("seat", "points"),
        "passed": ("seat",),
    }
)

CIV = "civilian"
# 1 don, 2 lawyer, 3 mafioso, 4 sheriff, 5 agent, 6 ranger, 7 doctor, 8 maniac, 9…11 civilians.
ELEVEN = [
    "don",
    "city_lawyer",
    "mafioso",
    "city_sheriff",
    "agent",
    "ranger",
    "doctor",
    "maniac",
    CIV,
    CIV,
    CIV,
]
DON, LAWYER, MAFIOSO, SHERIFF, AGENT, RANGER, DOCTOR, MANIAC = range(1, 9)


class CityTable(Table):
    def __init__(self, roles: Sequence[str], options: Sequence[str] = (), seed: int = 1, **kw: Any) -> None:
        super().__init__("city", roles, options, seed)
        if kw:
            import engine

            self.state, self.events = engine.new_game(self.ruleset, list(roles), seed, **kw)

    def day(
        self,
        nominations: Sequence[tuple[int, int]] = (),
        votes: Sequence[tuple[int, Sequence[int]]] = (),
        revote: Sequence[tuple[int, Sequence[int]]] | None = None,
        lift: Sequence[int] | None = None,
    ) -> list[Any]:
        """A city day from wherever the game stands to nightfall (or the end): night victims' words are
        closed, every speaker passes after his nominations, then the ballots; the car crash's defences
        are closed, the revote and the vote to leave together use ``revote`` and ``lift``."""
        return self.club_day(nominations, [votes] + ([revote] if revote is not None else []), lift)


def city(roles: Sequence[str] = ELEVEN, *options: str, seed: int = 1, **kw: Any) -> CityTable:
    return CityTable(roles, options, seed, **kw)


def start(roles: Sequence[str] = ELEVEN, *options: str, **kw: Any) -> CityTable:
    """A game at the start of day 1 (after the acquaintance night)."""
    t = city(roles, *options, **kw)
    t.until(lambda s: s.day == 1)
    return t


def at_night(roles: Sequence[str] = ELEVEN, *options: str, **kw: Any) -> CityTable:
    """A game after a quiet day 1, at the first night with shots."""
    t = start(roles, *options, **kw)
    t.day()
    return t
