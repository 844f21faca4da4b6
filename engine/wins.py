"""Win checks, registered by name. Each returns None (play on), a tuple of winning sides (empty =
draw), or ``"ask_maniac"`` (simple, D-S7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.registry import win_check
from engine.rules.model import RoleDef
from engine.state import GameState


def seats_of_side(s: GameState, side: str) -> tuple[int, ...]:
    """The seats (ascending) whose dealt role plays for ``side``: roles never change, so this is worked
    out once per deal (a win check that reads it must not count joins, as simple's and city's)."""
    facts = s.ruleset.deal_facts(s.roles)
    found: tuple[int, ...] | None = facts.get(f"side:{side}")
    if found is None:
        found = facts[f"side:{side}"] = _dealt_side(s.roles, s.ruleset.roles, side)
    return found


def _dealt_side(roles: tuple[str, ...], defs: Mapping[str, RoleDef], side: str) -> tuple[int, ...]:
    """The seats whose dealt role plays for ``side`` (a function of its own: the generator would make
    seats_of_side's names cells at every call)."""
    return tuple(x for x in range(1, len(roles) + 1) if defs[roles[x - 1]].side == side)


def _clan_members(s: GameState) -> dict[str, list[int]]:
    """Living members of each killing team (a joined werewolf counts; the classic lawyer does not)."""
    if s.team_joins:
        return _members(s, s.living())
    # Nobody joined: each seat's clan follows from the deal alone, so it is worked out once per deal.
    facts = s.ruleset.deal_facts(s.roles)
    dealt: dict[str, tuple[int, ...]] | None = facts.get("clans")
    if dealt is None:
        # Tuples, not lists: a memo kept for the whole run is then no work for the garbage collector.
        dealt = facts["clans"] = {t: tuple(m) for t, m in _members(s, range(1, s.n_seats + 1)).items()}
    found, alive = {}, s.alive.__contains__
    for tid, seats in dealt.items():
        found[tid] = list(filter(alive, seats))
    return found


def _members(s: GameState, seats: Iterable[int]) -> dict[str, list[int]]:
    """The members of each killing team among ``seats`` (ascending)."""
    killing = s.ruleset.killing_teams()
    clans: dict[str, list[int]] = {tid: [] for tid, _ in killing}
    by_side: dict[str, str] = s.ruleset.lookups("killing_team_by_side")
    if not by_side:
        by_side.update({t.side: tid for tid, t in killing})
    roles, dealt, joined = s.ruleset.roles, s.roles, s.team_joins
    for seat in seats:
        role = roles[dealt[seat - 1]]
        team = s.team_of(seat) if joined else role.team
        if not team and not role.joins_team_on_loss:
            # A clan member who does not wake with it: the mafia judge (D-CL2, D-CL9).
            team = by_side.get(role.side, "")
        if team in clans and role.counts_for_win:
            clans[team].append(seat)
    return clans


def _dormant(s: GameState) -> list[int]:
    joined = {x for x, _ in s.team_joins}
    return [x for x in s.living() if s.ruleset.roles[s.roles[x - 1]].joins_team_on_loss and x not in joined]


@win_check("classic_clans")
def classic_clans(s: GameState) -> Any:
    """D-CL2, after «Каждый клан … побеждает в том случае, если игроков данного клана осталось больше,
    чем других игроков» and the maniac «Может победить, только если останется один»."""
    living = s.living()
    if not living:
        return ()
    alive = s.alive
    maniacs = list(filter(alive.__contains__, s.ruleset.seats_by_role(s.roles).get("maniac", ())))
    if maniacs and len(living) == 1:
        return ("solo",)
    clans = _clan_members(s)
    if not any(clans.values()) and not _dormant(s) and not maniacs:
        return ("town",)
    for tid, members in clans.items():
        if members and len(members) > len(living) - len(members):
            return (s.ruleset.teams[tid].side,)
    return None


@win_check("simple")
def simple(s: GameState) -> Any:
    """D-S6 and 004: «Если в городе остается маньяк и мафия то побеждает мафия»; the maniac's
    question when the last mafioso is gone (D-S7)."""
    alive = s.alive
    if not alive:
        return ()
    # seats_of_side(s, "mafia") and the maniac's seats, from the deal's memo without the calls once kept
    rules = s.ruleset
    last = rules.last_deal[0]
    memo = last[1] if s.roles is last[0] else rules.seating(s.roles)
    mafia_seats = memo[2].get("side:mafia")
    if mafia_seats is None:
        mafia_seats = seats_of_side(s, "mafia")
    maniac_seats = memo[0].get("maniac", ())
    mafia = len(alive.intersection(mafia_seats))
    if mafia and mafia >= len(alive) - mafia:
        return ("mafia",)
    if mafia:
        return None
    if alive.isdisjoint(maniac_seats) or "maniac_town" in s.flags:
        return ("town",)
    if "maniac_asked" not in s.flags:
        return "ask_maniac"
    if len(alive) <= 2:
        return ("solo",)
    return None
