"""A tiny driver for scenario tests: seat a game, play it through :func:`engine.apply`, and read the
events back as short tuples (type plus the fields that matter).

Only the public entry points are used (``new_game``, ``apply``, commands); the driver never touches
the state except to read where the game stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import engine
from engine import Act, Advance, Command, Event, GameState, Nominate, Pass, Propose, TeamAct, Vote

# The fields that identify an event in a readable diff.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    # the club rules' day (city, fiim)
    "lift_ballot": ("seats",),
    "lift_count": ("count", "eligible", "passed"),
    "leave_together": ("seats",),
    "victory_awarded": ("seat", "winners"),
    "killed": ("seat",),
    "executed": ("seat",),
    "removed": ("seat", "reason"),
    "check": ("seat", "target", "result"),
    "check_nothing": ("seat",),
    "game_over": ("winners",),
    "night_step": ("step",),
    "awake": ("step", "seats"),
    "speech": ("seat", "purpose"),
    "nominated": ("seat", "target"),
    "ballot": ("candidate", "round"),
    "voted": ("seat", "candidate"),
    "unvoted": ("seat", "candidate"),
    "vote_count": ("candidate", "count", "round"),
    "abstainers_added": ("seats", "candidate"),
    "tie": ("seats",),
    "no_elimination": ("reason",),
    "tiebreak_ballot": ("seat", "candidates"),
    "tiebreak_vote": ("seat", "candidate"),
    "question": ("seat",),
    "maniac_answer": ("yes",),
    "team_joined": ("seat", "team"),
    "team_missed": ("team", "reason"),
    "victims_shown": ("seat", "seats"),
    "claim_offer": ("seat",),
    "claim": ("seat",),
    "foul": ("seat", "count"),
    "announce": ("key",),
    "team_members": ("seats",),
    # classic variants
    "judges_named": ("seats",),
    "team_shown": ("seat", "seats"),
    "court_sent": ("seat", "judges"),
    "court_verdict": ("seat", "verdict"),
    "acquitted": ("seat",),
    "court_must_choose": ("seats",),
    "court_refused": ("seat",),
    "golden_window": ("seats",),
    "golden_minute": ("seat",),
    "bet": ("seat", "target"),
    "bets_result": ("seats",),
    "card_opened": ("seat", "role"),
}


def brief(events: Iterable[Event], *types: str) -> list[tuple[Any, ...]]:
    """``(type, key fields…)`` of each event of the given types (all types if none given), in order."""
    out = []
    for e in events:
        if types and e.type not in types:
            continue
        values = tuple(_plain(e.get(k)) for k in KEY_FIELDS.get(e.type, ()))
        out.append((e.type, *values))
    return out


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def phrases(events: Iterable[Event], *types: str) -> list[tuple[str, str | None]]:
    """``(type, phrase id)`` of each event of the given types."""
    return [(e.type, e.phrase) for e in events if not types or e.type in types]


class Table:
    """One game: the state, every event so far, and the commands sent."""

    def __init__(self, preset: str, roles: Sequence[str], options: Sequence[str] = (), seed: int = 1) -> None:
        self.ruleset = engine.load_ruleset(preset, list(options))
        self.state, self.events = engine.new_game(self.ruleset, list(roles), seed)
        self.log: list[Command] = []

    # -- low level -------------------------------------------------------------------------------

    @property
    def s(self) -> GameState:
        return self.state

    def send(self, *commands: Command) -> list[Event]:
        """Apply the commands in order; return the events they caused."""
        new: list[Event] = []
        for c in commands:
            self.state, more = engine.apply(self.state, c)
            self.log.append(c)
            new.extend(more)
        self.events.extend(new)
        return new

    def advance(self, times: int = 1) -> list[Event]:
        return self.send(*[Advance()] * times)

    def until(self, done: Any, limit: int = 200) -> list[Event]:
        """Advance until ``done(state)`` holds (checked before each advance)."""
        new: list[Event] = []
        for _ in range(limit):
            if done(self.state):
                return new
            new.extend(self.advance())
        raise AssertionError(f"never reached the wanted point; now at {self.state.step}")

    # -- phases ----------------------------------------------------------------------------------

    def to_night(self) -> list[Event]:
        """Play on (advancing every step) until a night where abilities are used."""
        return self.until(lambda s: s.phase == "night" and not s.intro and s.step.kind == "night")

    def to_step(self, step_id: str) -> list[Event]:
        """Play on to the night step ``step_id``."""
        return self.until(lambda s: s.phase == "night" and s.step.night_step == step_id)

    def to_day(self) -> list[Event]:
        return self.until(lambda s: s.phase == "day" or s.over)

    def to_kind(self, kind: str) -> list[Event]:
        return self.until(lambda s: s.step.kind == kind or s.over)

    def night(self, *commands: Command) -> list[Event]:
        """Play one night from wherever the game stands: each command is sent when its step comes up
        (``Act`` at the seat's ability step, ``TeamAct`` at the team's step), every step is closed,
        and the night ends at dawn. Returns the events from here to the next day (or the end)."""
        new = self.to_night()
        pending = list(commands)
        night = self.state.night
        while self.state.phase == "night" and self.state.night == night:
            if self.state.step.kind == "night":
                here = self.state.step.night_step
                for c in [c for c in pending if self._step_of(c) == here]:
                    pending.remove(c)
                    new.extend(self.send(c))
            new.extend(self.advance())
        assert not pending, f"never sent: {pending}"
        return new

    def _step_of(self, c: Command) -> str:
        if isinstance(c, TeamAct):
            return self.ruleset.teams[c.team].kill_step
        if isinstance(c, Propose):
            return self.ruleset.teams[self.state.team_of(c.seat)].kill_step
        assert isinstance(c, Act), c
        role = self.state.role_of(c.seat)
        return next(a.step for a in self.ruleset.roles[role].abilities if not c.act or a.act == c.act)

    def classic_day(
        self,
        nominations: Sequence[tuple[int, int]] = (),
        votes: Sequence[tuple[int, Sequence[int]]] | None = (),
    ) -> list[Event]:
        """A classic day to its first ballot's end: morning, discussion, the nominations, the last
        words, then one ballot (``votes``: ``(candidate, voters)``; missing candidates get no raised
        hands; ``None``: stop when the ballot opens). Returns the events; the game may stop in a tie
        step."""
        new = self.until(lambda s: s.step.kind == "nominations" or s.over)
        if self.state.over:
            return new
        new.extend(self.send(*[Nominate(seat=a, target=b) for a, b in nominations]))
        new.extend(self.advance())
        new.extend(self.until(lambda s: s.step.kind != "speech" or s.step.round != "last_word"))
        if self.state.step.kind == "vote" and votes is not None:
            new.extend(self.ballot(votes))
        return new

    def ballot(self, votes: Sequence[tuple[int, Sequence[int]]]) -> list[Event]:
        """Vote on each candidate now on the ballot, in ballot order, closing each count; a ballot that
        stops once its result is clear (fiim D-FI9) calls no more candidates, and none is voted for."""
        table = {c: list(v) for c, v in votes}
        new: list[Event] = []
        for candidate in self.state.step.candidates:
            if any(e.type == "ballot_decided" for e in new):
                assert not table.pop(candidate, []), f"{candidate} was not called: the ballot was decided"
                continue
            assert self.state.step.kind == "vote" and self.state.step.seat == candidate
            new.extend(self.send(*[Vote(seat=v, candidate=candidate) for v in table.pop(candidate, [])]))
            new.extend(self.advance())
        assert not table, f"not on the ballot: {table}"
        return new

    def speeches(self, nominations: Sequence[tuple[int, int]] = ()) -> list[Event]:
        """Simple: the speeches of the day; each nomination is made in its author's speech."""
        new = self.until(lambda s: (s.step.kind == "speech" and s.step.round == "day") or s.over)
        pending = list(nominations)
        while self.state.step.kind == "speech" and self.state.step.round == "day":
            seat = self.state.step.seat
            while pending and pending[0][0] == seat:
                by, target = pending.pop(0)
                new.extend(self.send(Nominate(seat=by, target=target)))
            new.extend(self.send(Pass(seat=seat)))
        assert not pending, f"not nominated in speaking order: {pending}"
        return new

    def simple_day(
        self,
        nominations: Sequence[tuple[int, int]] = (),
        votes: Sequence[tuple[int, Sequence[int]]] | None = (),
    ) -> list[Event]:
        """A simple day: speeches with nominations, then the ballot if one is held (``None``: stop
        when the ballot opens)."""
        new = self.speeches(nominations)
        if self.state.step.kind == "vote" and votes is not None:
            new.extend(self.ballot(votes))
        return new

    def club_day(
        self,
        nominations: Sequence[tuple[int, int]] = (),
        rounds: Sequence[Sequence[tuple[int, Sequence[int]]]] = (),
        lift: Sequence[int] | None = None,
        best_move: Sequence[int] | None = None,
    ) -> list[Event]:
        """A day of the club rules (city, fiim) from wherever the game stands to nightfall (or the end):
        the best move if offered (``best_move``'s three seats, else it is closed), every other step
        closed, every day speech passed after its author's nominations, each ballot from ``rounds`` in
        turn (none left: nobody votes), and the vote to leave together with ``lift``'s yes-voters."""
        new = self.until(lambda s: s.phase == "day" or s.over)
        pending = list(nominations)
        left = list(rounds)
        day = self.state.day
        while self.state.phase == "day" and self.state.day == day and not self.state.over:
            step = self.state.step
            if step.kind == "best_move" and best_move is not None:
                new.extend(self.send(Act(seat=step.seat, targets=tuple(best_move))))
            elif step.kind == "speech" and step.round == "day":
                for by, target in [n for n in pending if n[0] == step.seat]:
                    pending.remove((by, target))
                    new.extend(self.send(Nominate(seat=by, target=target)))
                new.extend(self.send(Pass(seat=step.seat)))
            elif step.kind == "vote":
                new.extend(self.ballot(left.pop(0) if left else ()))
            elif step.kind == "lift":
                new.extend(self.send(*[Vote(seat=v) for v in (lift or ())]))
                new.extend(self.send(Advance()))
            else:
                new.extend(self.advance())
        assert not pending, f"not nominated: {pending}"
        return new


def table(preset: str, roles: Sequence[str], *options: str, seed: int = 1) -> Table:
    return Table(preset, roles, options, seed)


def act(seat: int, *targets: int, name: str = "") -> Act:
    return Act(seat=seat, targets=tuple(targets), act=name)


def shot(team: str, target: int) -> TeamAct:
    return TeamAct(team=team, target=target)
