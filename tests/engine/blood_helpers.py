"""Driving a `blood` table in scenario tests. The game starts with the intro day (the hunters meet),
then each cycle is a night of talk and vote (7.5), then dawn, day and sunset, where roles act in turn
(7.3). The night's talk is driven like `hobbyworld`'s day (:mod:`hobbyworld_helpers`)."""

from __future__ import annotations

from collections.abc import Sequence

from helpers import Table, table
from hobbyworld_helpers import lynch

from engine import Command, Event


def bl(roles: Sequence[str], *options: str, seed: int = 1) -> Table:
    return table("blood", roles, *options, seed=seed)


def execute(t: Table, seat: int, by: int | None = None) -> list[Event]:
    """A night's vote whose only candidate is ``seat`` (nobody acquits him)."""
    return lynch(t, seat, by)


def cycle(t: Table, *commands: Command) -> list[Event]:
    """Dawn, day and sunset from wherever the game stands, each command sent at its step; returns the
    events up to the next night's discussion (its announcements included)."""
    return t.night(*commands)


def next_cycle(t: Table, spare: int, *commands: Command) -> list[Event]:
    """Execute ``spare`` at the night, then play the cycle."""
    execute(t, spare)
    return cycle(t, *commands)


def phases_and_steps(t: Table) -> list[tuple[str, str]]:
    """Advance to the next talk phase, noting (phase name, step) of every step opened on the way."""
    seen = []
    while True:
        if t.s.phase == "night":
            seen.append((t.s.phase_name, t.s.step.night_step))
        t.advance()
        if t.s.phase != "night" or t.s.over:
            return seen
