"""A driver for `city` scenario tests: the seats, a day played to its end, the new event fields."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import KEY_FIELDS, Table

from engine import Advance, Nominate, Pass, Vote

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
        "lift_ballot": ("seats",),
        "lift_count": ("count", "eligible", "passed"),
        "leave_together": ("seats",),
        "restricted": ("seat", "speech", "vote"),
        "victory_awarded": ("seat", "winners"),
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
        new = self.until(lambda s: s.phase == "day" or s.over)
        pending = list(nominations)
        rounds = [votes] + ([revote] if revote is not None else [])
        day = self.state.day
        while self.state.phase == "day" and self.state.day == day and not self.state.over:
            step = self.state.step
            if step.kind == "speech" and step.round == "day":
                for by, target in [n for n in pending if n[0] == step.seat]:
                    pending.remove((by, target))
                    new.extend(self.send(Nominate(seat=by, target=target)))
                new.extend(self.send(Pass(seat=step.seat)))
            elif step.kind == "vote":
                new.extend(self.ballot(rounds.pop(0) if rounds else ()))
            elif step.kind == "lift":
                new.extend(self.send(*[Vote(seat=v) for v in (lift or ())]))
                new.extend(self.send(Advance()))
            else:
                new.extend(self.advance())
        assert not pending, f"not nominated: {pending}"
        return new


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
