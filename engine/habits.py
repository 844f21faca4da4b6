"""Simulated players with a few sensible habits, for the demo (and any simulation that wants them).

Each player knows only what the rules tell him: his own role, his team's members (a team wakes
together), and the results of his own checks (the ``check`` events addressed to him). With that:

* a team never shoots one of its own, and its members agree on one target;
* a checker does not check again a seat he already checked, nor one of his own team (with none left he
  holds his check);
* a town killer (classic's sheriff) shoots a seat his own checks found black, else he may hold fire;
* by day a player nominates a seat he knows to be black, a black player nominates a red one;
* a voter raises his hand for the nominee he suspects most: one his checks found black, one nominated
  by more players; never his own teammate, never a seat his checks cleared.

Steps these habits do not cover are played as the random simulator plays them (engine/simulate.py).
Pure: randomness comes from the game's Rng.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import queries
from engine.commands import Act, Advance, Command, Nominate, Pass, Propose, Skip, Vote
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply, deal, new_game
from engine.rng import Rng
from engine.rules import Ruleset
from engine.simulate import MAX_COMMANDS, SimulatedGame, random_commands
from engine.state import GameState

BLACK, RED = "black", "red"


class Habits:
    """The table's memory: what each seat has learned from its own checks."""

    def __init__(self) -> None:
        self.known: dict[int, dict[int, str]] = {}  # viewer -> {seat: BLACK | RED}
        self.checked: dict[int, set[int]] = {}  # checker -> seats he has checked (whatever he learned)

    def observe(self, s: GameState, events: Iterable[Event]) -> None:
        for ev in events:
            if ev.type != "check" or "target" not in ev.data:
                continue
            result = ev.data.get("result")
            seen: str | None = None
            if result == "mafia" or result is True:
                seen = BLACK
            elif result in ("not_mafia", False):
                seen = RED
            elif isinstance(result, str) and result in s.ruleset.roles:
                seen = BLACK if s.ruleset.roles[result].side == "mafia" else RED
            if seen is not None:
                self.known.setdefault(int(ev.data["seat"]), {})[int(ev.data["target"])] = seen

    # -- what a seat believes ----------------------------------------------------------------------

    def teammates(self, s: GameState, seat: int) -> set[int]:
        team = s.team_of(seat)
        return {x for x in range(1, s.n_seats + 1) if team and s.team_of(x) == team} - {seat}

    def black(self, s: GameState, seat: int) -> bool:
        return s.ruleset.roles[s.role_of(seat)].side == "mafia"

    def suspicion(self, s: GameState, viewer: int, seat: int) -> float:
        if seat in self.teammates(s, viewer) or seat == viewer:
            return -100.0
        known = self.known.get(viewer, {}).get(seat)
        if known == BLACK:
            return 10.0
        if known == RED:
            return -10.0
        score = float(sum(1 for _, target in s.nominations if target == seat))
        if self.black(s, viewer):  # a black player pushes the reds out
            score += 2.0
        return score

    # -- what a seat does ---------------------------------------------------------------------------

    def commands(self, s: GameState, rnd: Rng) -> Sequence[Command]:
        step = s.step
        if step.kind == "night" and queries.actors(s):
            return self._night(s, rnd)
        if step.kind == "speech" and step.round == "day" and step.seat in s.alive:
            return self._speech(s, rnd)
        if step.kind == "vote":
            return self._vote(s)
        return random_commands(s, rnd)

    def _night(self, s: GameState, rnd: Rng) -> list[Command]:
        out: list[Command] = []
        team_pick: dict[str, int] = {}
        for seat in sorted(queries.actors(s)):
            own = self.teammates(s, seat) | {seat}
            abilities = s.ruleset.roles[s.role_of(seat)].abilities
            role_abilities = {ab.act: ab for ab in abilities if ab.step == s.step.night_step}
            for name, targets in queries.targets_for(s, seat).items():
                if not targets:
                    continue
                if name == "team":
                    team = s.team_of(seat)
                    if team not in team_pick:
                        outside = [t for t in targets if t not in own] or targets
                        team_pick[team] = max(
                            outside, key=lambda t: (self.suspicion(s, seat, t), rnd.random())
                        )
                    out.append(Propose(seat=seat, target=team_pick[team]))
                    break
                ability = role_abilities.get(name)
                kind = ability.kind if ability is not None else ""
                known = self.known.get(seat, {})
                if kind.startswith("check"):
                    done = self.checked.setdefault(seat, set())
                    fresh = [t for t in targets if t not in known and t not in done and t not in own]
                    if not fresh and queries.is_optional(s, seat):
                        out.append(Skip(seat=seat))  # every seat he could check is checked already
                        break
                    picks = rnd.shuffled(fresh or [t for t in targets if t not in done] or targets)
                    done.update(picks[: queries.targets_needed(s, seat, name)])
                elif kind == "kill" and not self.black(s, seat):
                    black = [t for t in targets if known.get(t) == BLACK]
                    if not black and queries.is_optional(s, seat):
                        out.append(Skip(seat=seat))
                        break
                    picks = black or rnd.shuffled([t for t in targets if t not in own] or targets)
                else:
                    picks = rnd.shuffled([t for t in targets if t not in own or kind == "protect"] or targets)
                needed = queries.targets_needed(s, seat, name)
                if len(picks) >= needed:
                    out.append(Act(seat=seat, targets=tuple(picks[:needed]), act=name))
                break
        return [*out, Advance()]

    def _speech(self, s: GameState, rnd: Rng) -> list[Command]:
        step = s.step
        speaker = step.seat
        out: list[Command] = []
        nominated = {t for _, t in s.nominations} | s.cleared
        mine = sum(1 for by, _ in s.nominations if by == speaker)
        free = [x for x in s.living() if x not in nominated and x != speaker]
        if free and mine < s.ruleset.voting.nominations_per_player:
            best = max(free, key=lambda t: (self.suspicion(s, speaker, t), rnd.random()))
            if self.suspicion(s, speaker, best) > 0 or rnd.random() < 0.3:
                out.append(Nominate(seat=speaker, target=best))
        out.append(Pass(seat=speaker))
        return out

    def _vote(self, s: GameState) -> list[Command]:
        step = s.step
        candidates = [step.seat, *step.queue]
        out: list[Command] = []
        for voter in sorted(queries.voters(s)):
            choice = max(candidates, key=lambda c: (self.suspicion(s, voter, c), -c))
            if choice == step.seat and self.suspicion(s, voter, choice) > -10:
                out.append(Vote(seat=voter, candidate=step.seat))
        return [*out, Advance()]


def play_sensible_game(
    ruleset: Ruleset, players: int, seed: int, roles: list[str] | None = None
) -> SimulatedGame:
    """A whole game of sensible players (see the module's docstring)."""
    rnd = Rng(seed)
    roles = roles or deal(ruleset, players, seed)
    state, events = new_game(ruleset, roles, seed)
    habits = Habits()
    habits.observe(state, events)
    log: list[Command] = []
    while state.phase != "over":
        for command in habits.commands(state, rnd):
            try:
                state, more = apply(state, command)
            except IllegalCommand:
                continue  # a habit the preset does not allow here (the engine said no): the table goes on
            log.append(command)
            events += more
            habits.observe(state, more)
            if state.phase == "over":
                break
        if len(log) > MAX_COMMANDS:
            raise AssertionError(f"game with seed {seed} did not end after {MAX_COMMANDS} commands")
    return SimulatedGame(roles, seed, log, events, state)
