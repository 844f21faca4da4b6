"""A driver for `fiim` scenario tests (docs/rules/FIIM.md): a fixed deal and a day played to its end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import KEY_FIELDS, Table

from engine import Act, Propose

KEY_FIELDS.update(
    {
        "best_move_offer": ("seat",),
        "best_move": ("seat", "seats"),
        "lone_nominee": ("seat",),
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
        return self.club_day(nominations, votes, lift, best_move)


def fiim(*options: str, roles: Sequence[str] = DEAL, seed: int = 1) -> FiimTable:
    return FiimTable(options, roles, seed)


def day_one(*options: str) -> FiimTable:
    """A game at the start of day 1 (after the «договорка»)."""
    t = fiim(*options)
    t.until(lambda s: s.day == 1)
    return t
