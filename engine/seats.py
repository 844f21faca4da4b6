"""Who is where at the table: the holders of a night step and the order of a day's speeches.

Plain questions about the seats, asked by the night (who wakes), the day (who speaks first) and the
queries the bot makes; they change nothing.
"""

from __future__ import annotations

from engine.rules.model import StepDef
from engine.state import GameState

# Speeches of players who are leaving or have left: they hold the floor although not living.
PARTING_ROUNDS = frozenset({"farewell", "night_words"})


def speech_lost(s: GameState, seat: int) -> bool:
    """The seat's turn now is silent for his fouls. Fouls reset daily (city): every speech of that day
    but a parting one. Fouls over the whole game (FIIM F.13): his regular speech only, «not a last word,
    not a tie speech — a 3rd-foul player caught in a revote does speak then» [MR 9.5, 9.8]."""
    if seat not in s.no_speech or s.step.round in PARTING_ROUNDS:
        return False
    return s.step.round == "day" or s.ruleset.conduct.daily_reset


def holders_of(s: GameState, step: StepDef, living_only: bool = True) -> list[int]:
    # The deal's memo (Ruleset.seating), the last deal told by identity without the call.
    rules, roles = s.ruleset, s.roles
    last = rules.last_deal[0]
    memo = last[1] if roles is last[0] else rules.seating(roles)
    if step.team:
        if s.team_joins:
            return s.team_members(step.team, living_only)
        seats = memo[1].get(step.team, ())  # team_members without joins
    else:
        seats = memo[0].get(step.role, ())
    if not living_only:
        return list(seats)
    return list(filter(s.alive.__contains__, seats))  # the living ones, without a comprehension's frame


def first_speaker_order(s: GameState) -> list[int]:
    """Living seats clockwise, starting from the seat whose turn it is today (rotating by day)."""
    living = sorted(s.alive)  # s.living(), without the call
    if not living:
        return []
    start = (s.day - 1) % len(s.roles) + 1  # s.n_seats
    first = living[0]
    for x in living:  # the first living seat from ``start`` on (a loop: no generator made)
        if x >= start:
            first = x
            break
    i = living.index(first)
    return living[i:] + living[:i]
