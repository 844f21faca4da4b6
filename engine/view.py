"""Hidden information: what one seat may know (boardgame.io's playerView, for Mafia)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import queries
from engine.events import Event
from engine.state import GameState


def known_roles(s: GameState, seat: int) -> dict[int, str]:
    """Roles this seat has seen: its own, those shown to everyone, and those shown to it privately."""
    return {
        x: s.role_of(x)
        for x in range(1, s.n_seats + 1)
        if x == seat or x in s.revealed or (seat, x) in s.knowledge
    }


def view_for(s: GameState, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: a spectator who sees only public information)."""
    public = {
        "ruleset": s.ruleset.id,
        "phase": s.phase,  # "day": talk and vote; "night": role steps
        "phase_name": s.phase_name,  # as the ruleset names it (blood: night, dawn, day, sunset)
        "day": s.day,
        "night": s.night,
        "step": {
            "kind": s.step.kind,
            "seat": s.step.seat,
            "round": s.step.round,
            "candidates": list(s.step.candidates),
            "seconds": s.step.seconds,
            "night_step": s.step.night_step if s.phase == "night" else "",
        },
        "seats": s.n_seats,
        "alive": sorted(s.alive),
        "nominations": [list(n) for n in s.nominations],
        "speakers": sorted(queries.speakers(s)),
        "fouls": {str(x): c for x, c in s.fouls},
        "immune": sorted(s.immune),  # city D-C5: announced at the start of day 1
        "winners": list(s.winners) if s.winners is not None else None,
    }
    if s.step.kind == "vote":
        public["ballots"] = [list(b) for b in s.ballots]
    if seat is None:
        public["roles"] = {str(x): s.role_of(x) for x in sorted(s.revealed)}
        return public
    roles = known_roles(s, seat)
    public["you"] = seat
    public["roles"] = {str(x): r for x, r in sorted(roles.items())}
    team = s.team_of(seat)
    if team:
        public["team"] = s.team_members(team, living_only=False)
    public["awake"] = seat in queries.awake(s)
    public["may_act"] = queries.targets_for(s, seat)
    public["may_vote"] = seat in queries.voters(s)
    return public


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may learn of (``None``: public events only)."""
    if seat is None:
        return [e for e in events if e.audience.kind == "public"]
    return [e for e in events if e.audience.includes(seat)]
