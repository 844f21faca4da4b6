"""A driver for `fiim` scenario tests (docs/rules/FIIM.md): a fixed deal and a day played to its end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import KEY_FIELDS, Table

from engine import Act, Advance, Nominate, Pass, Propose, Vote

KEY_FIELDS.update(
    {
        "best_move_offer": ("seat",),
        "best_move": ("seat", "seats"),
        "lift_ballot": ("seats",),
        "lift_count": ("count", "eligible", "passed"),
        "leave_together": ("seats",),
        "lone_nominee": ("seat",),
        "victory_awarded": ("seat", "winners"),
        "quiet_draw": ("rounds",),
    }
)

CIV = "civilian"
# 1 don, 2 and 3 mafiosi, 4 sheriff, 5…10 civilians.
DEAL = ["don", "mafioso", "mafioso", "city_sheriff", CIV, CIV, CIV, CIV, CIV, CIV]
DON, M2, M3, SHERIFF = 1, 2, 3, 4
BLACKS = (DON, M2, M3)


class FiimTable(Table):
    def __init__(self, options: Sequence[str] = (), roles: Sequence[str] = DEAL, seed: int = 1) -> None:
        super().__init__("fiim", roles, options, seed)

    def shoot(self, picks: dict[int, int], checks: Sequence[Act] = ()) -> list[Any]:
        """One shooting night: each black in ``picks`` picks his own seat; the don's and sheriff's checks."""
        return self.night(*[Propose(seat=b, target=t) for b, t in picks.items()], *checks)

    def day(
        self,
        nominations: Sequence[tuple[int, int]] = (),
        votes: Sequence[Sequence[tuple[int, Sequence[int]]]] = (),
        lift: Sequence[int] | None = None,
        best_move: Sequence[int] | None = None,
    ) -> list[Any]:
        """A day from wherever the game stands to nightfall (or the end): the best move if offered, every
        last word and speech passed (nominations in their author's speech), each ballot round from
        ``votes``, the tie speeches closed, the lift vote with ``lift``'s yes-voters."""
        new = self.until(lambda s: s.phase == "day" or s.over)
        pending = list(nominations)
        rounds = list(votes)
        day = self.state.day
        while self.state.phase == "day" and self.state.day == day and not self.state.over:
            step = self.state.step
            if step.kind == "best_move":
                if best_move is not None:
                    new.extend(self.send(Act(seat=step.seat, targets=tuple(best_move))))
                else:
                    new.extend(self.advance())
            elif step.kind == "speech" and step.round == "day":
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


def fiim(*options: str, roles: Sequence[str] = DEAL, seed: int = 1) -> FiimTable:
    return FiimTable(options, roles, seed)


def day_one(*options: str) -> FiimTable:
    """A game at the start of day 1 (after the «договорка»)."""
    t = fiim(*options)
    t.until(lambda s: s.day == 1)
    return t
