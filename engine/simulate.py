"""Random legal games: a smoke test of every rule path and a first balance report.

Every choice is random but legal (the simulator asks :mod:`engine.queries` what is allowed), so any
IllegalCommand raised here is a bug in the engine.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter

from engine import abilities, queries
from engine.commands import Act, Advance, Answer, Command, Foul, Nominate, Pass, Permit, Propose, Skip, Vote
from engine.composition import composition
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply, apply_in_place, deal, new_game, replay
from engine.registry import STEP_KINDS
from engine.rng import _TWO_64, Rng
from engine.rules import Ruleset
from engine.state import GameState, freeze, thaw

MAX_COMMANDS = 20_000
_ADVANCE = Advance()  # commands are immutable: every Advance of the simulator is this one
_PASSES: dict[int, Pass] = {}  # one Pass per seat
_PICKS: dict[tuple[type[Command], int, int], Command] = {}
_SKIPS: dict[int, Command] = {}
_ACTS: dict[tuple[int, tuple[int, ...], str], Command] = {}
_VOTES: dict[int, dict[int, Command]] = {}  # for each candidate, each seat's Vote
_FIRST, _SECOND = itemgetter(0), itemgetter(1)  # of a pair (ballot, nomination), in C
_PICKED_FIELD: dict[type[Command], str] = {Vote: "candidate", Propose: "target", Nominate: "target"}


def _pass(seat: int) -> Pass:
    """``Pass(seat=seat)``, made once per seat (see _pick)."""
    found = _PASSES.get(seat)
    if found is None:
        found = _PASSES[seat] = Pass(seat=seat)
    return found


def _skip(seat: int) -> Command:
    """``Skip(seat=seat)``, made once per seat (see _pick)."""
    found = _SKIPS.get(seat)
    if found is None:
        found = _SKIPS[seat] = Skip(seat=seat)
    return found


def _act(seat: int, targets: tuple[int, ...], act: str) -> Command:
    """``Act(seat=seat, targets=targets, act=act)``, made once per seat, targets and act (see _pick)."""
    key = (seat, targets, act)
    found = _ACTS.get(key)
    if found is None:
        if len(_ACTS) >= 65536:  # a bound for abilities of many targets
            _ACTS.clear()
        found = _ACTS[key] = Act(seat=seat, targets=targets, act=act)
    return found


def _voters_in_order(s: GameState) -> list[int]:
    """``sorted(queries.voters(s))`` at a vote, with the same shortcut as voters where nobody is jailed or
    bound to another's vote: the living who have not voted yet and may vote, in seat order."""
    if s.jail or s.vote_links:
        return sorted(queries.voters(s))
    voted = set(map(_FIRST, s.ballots))
    if not s.ruleset.voting.self_vote:
        voted.add(s.step.seat)  # the candidate may not vote for himself
    return sorted(s.alive.difference(voted, s.no_vote))


def _pick(kind: type[Command], seat: int, other: int) -> Command:
    """``Vote(seat=seat, candidate=other)``, ``Propose(seat=seat, target=other)`` or ``Nominate(...)``,
    made once per seat and choice: commands are immutable values, so one object serves every game."""
    key = (kind, seat, other)
    found = _PICKS.get(key)
    if found is None:
        found = _PICKS[key] = kind(seat=seat, **{_PICKED_FIELD[kind]: other})  # type: ignore[call-arg]
    return found


@dataclass
class SimulatedGame:
    roles: list[str]
    seed: int
    commands: list[Command]
    events: list[Event]
    final: GameState


def random_commands(s: GameState, rnd: Rng) -> list[Command]:
    """Commands a table of random players might send now, ending with the host's Advance."""
    out: list[Command] = []
    step = s.step
    if s.alive and s.ruleset.conduct.kind != "none":
        left = rnd._left or rnd._refill()  # rnd.random() written out: a draw for every call
        if left.pop() / _TWO_64 < 0.01:
            out.append(Foul(seat=rnd.choice(s.living()), reason="random"))
            return out
    if step.kind == "night":
        # What queries.actors, targets_for, is_optional and targets_needed answer, with the step, its
        # actors and each actor's abilities looked up once.
        night_step = s.ruleset.night_step(step.night_step)
        actors = abilities.actors_of_step(s, night_step)  # in seat order, each seat once
        if night_step.team:
            team_pick = 0
            for seat in actors:
                if not team_pick or rnd.random() < 0.2:
                    team_pick = rnd.choice(abilities.team_targets(s))
                out.append(_pick(Propose, seat, team_pick))
        for seat in actors if not night_step.team else ():
            now = abilities.abilities_now(s, seat, night_step.id)
            if len(now) == 1:  # the common case, the lines below for one ability (the same draws)
                ab = now[0]
                if ab.optional and rnd.random() < 0.2:
                    out.append(_skip(seat))
                    continue
                targets = abilities.legal_targets(s, seat, ab)
                if not targets:
                    continue
                rnd.below(1)  # rnd.choice among the abilities with targets, here one: it draws a value
                name, ab_targets = ab.act, ab.targets
            else:
                if all(ab.optional for ab in now) and rnd.random() < 0.2:
                    out.append(_skip(seat))
                    continue
                options = {ab.act: abilities.legal_targets(s, seat, ab) for ab in now}
                acts = [(name, ts) for name, ts in options.items() if ts]
                if not acts:
                    continue
                name, targets = rnd.choice(acts)
                ab_targets = next((ab.targets for ab in now if ab.act == name), 1)
            picks = tuple(rnd.shuffled(targets)[:ab_targets])
            if len(picks) == ab_targets:
                out.append(_act(seat, picks, name))
    elif step.kind == "speech":
        if step.round == "day":  # a day speech: the speaker may nominate, and (001) permit others to talk
            speaker, voting, nominations = step.seat, s.ruleset.voting, s.nominations
            already = list(map(_FIRST, nominations)).count(speaker) if nominations else 0
            if speaker in s.alive and already < voting.nominations_per_player and rnd.random() < 0.6:
                nominated = set(map(_SECOND, nominations)) | s.cleared  # cleared: voted on already today
                if not voting.self_nomination:
                    nominated.add(speaker)
                free = sorted(s.alive.difference(nominated))
                if free:
                    out.append(_pick(Nominate, speaker, rnd.choice(free)))
            if s.ruleset.params.get("speech_permissions") and rnd.random() < 0.1:
                others = [x for x in sorted(s.alive) if x != speaker and x not in s.no_speech]
                if speaker not in s.no_speech and others:
                    target = rnd.choice(others)
                    out.append(Permit(seat=speaker, target=target, allow=target not in step.permitted))
                    return out
        if rnd.random() < 0.3:
            out.append(_pass(step.seat))
            return out
    elif step.kind == "nominations":
        living = s.living()
        nominated = {t for _, t in s.nominations} | s.cleared  # cleared: voted on already today
        self_nomination = s.ruleset.voting.self_nomination
        for seat in living:
            if rnd.random() < 0.25:
                free = [x for x in living if x not in nominated]
                if not self_nomination and seat in free:
                    free.remove(seat)
                if free:
                    target = rnd.choice(free)
                    nominated.add(target)
                    out.append(_pick(Nominate, seat, target))
    elif step.kind == "vote":
        chance = 1.0 / max(1, len(step.queue) + 1)
        candidate = step.seat
        votes = _VOTES.get(candidate)
        if votes is None:
            votes = _VOTES[candidate] = {}
        left = rnd._left  # rnd.random() written out: a draw for every voter
        for seat in _voters_in_order(s):
            if not left:
                left = rnd._refill()
            if left.pop() / _TWO_64 < chance:
                vote = votes.get(seat)
                if vote is None:
                    vote = votes[seat] = Vote(seat=seat, candidate=candidate)
                out.append(vote)
    elif step.kind == "tiebreak":
        if rnd.random() < 0.8:
            out.append(Vote(seat=step.seat, candidate=rnd.choice(step.candidates)))
            return out
    elif step.kind == "lift":
        for seat in sorted(queries.voters(s)):
            if rnd.random() < 0.5:
                out.append(Vote(seat=seat))
    elif hasattr(STEP_KINDS.get(step.kind), "choices"):
        # A vote of a preset's own step (classic court): each voter picks one of his choices.
        kind = STEP_KINDS[step.kind]
        for seat in sorted(queries.voters(s)):
            choices = kind.choices(s, seat)
            if choices and rnd.random() < 0.5:
                out.append(Vote(seat=seat, candidate=rnd.choice(choices)))
        actors = sorted(queries.actors(s)) if hasattr(kind, "act") else []
        if actors and rnd.random() < 0.3:  # the two-player game: «Мафия — соперник»
            seat = rnd.choice(actors)
            out.append(Act(seat=seat, targets=(rnd.choice(queries.targets_for(s, seat)[""]),)))
            return out
        if out and rnd.random() < 0.5:
            return out  # the step may have ended; the next call looks again
    elif s.phase == "day" and queries.actors(s):
        for seat in sorted(queries.actors(s)):
            targets = queries.targets_for(s, seat).get("", [])
            needed = getattr(STEP_KINDS.get(step.kind), "count", 1)  # FIIM's best move names three
            if len(targets) >= needed and rnd.random() < 0.5:
                out.append(Act(seat=seat, targets=tuple(rnd.shuffled(targets)[:needed])))
                return out
    elif step.kind == "question" and rnd.random() < 0.5:
        out.append(Answer(seat=step.seat, yes=rnd.random() < 0.5))
        return out
    out.append(_ADVANCE)
    return out


def play_random_game(
    ruleset: Ruleset, players: int, seed: int, roles: list[str] | None = None
) -> SimulatedGame:
    rnd = Rng(seed)
    roles = roles or deal(ruleset, players, seed)
    state, events = new_game(ruleset, roles, seed)
    # The simulator is the only owner of its game and reads each state once, to choose the next commands:
    # it plays on one private draft, which the engine changes command by command as apply would (the
    # states apply would hand out, without a copy of the state per command), and freezes it at the end.
    s = thaw(state)
    log: list[Command] = []
    while s.phase != "over":  # not s.over, without the property's call
        commands = random_commands(s, rnd)
        try:
            done = apply_in_place(s, commands, events)
        except IllegalCommand:
            _name_the_illegal(ruleset, roles, seed, log, commands)
            raise
        log += commands if done == len(commands) else commands[:done]
        if len(log) > MAX_COMMANDS:
            raise AssertionError(f"game with seed {seed} did not end after {MAX_COMMANDS} commands")
    return SimulatedGame(roles, seed, log, events, freeze(s))


def _name_the_illegal(
    ruleset: Ruleset, roles: list[str], seed: int, log: list[Command], commands: list[Command]
) -> None:
    """The simulator's commands are legal by construction: replay the game and apply the refused batch one
    command at a time to name the one refused."""
    state, _ = replay(ruleset, roles, seed, log)
    for command in commands:
        try:
            state, _ = apply(state, command)
        except IllegalCommand as exc:
            raise AssertionError(f"the simulator sent an illegal {command}: {exc}") from exc


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def simulate(
    ruleset: Ruleset, players: int, games: int, seed: int, progress: Callable[[int], None] | None = None
) -> Counter[str]:
    composition(ruleset, players)  # a clear error before anything runs
    wins: Counter[str] = Counter()
    for i in range(games):
        game = play_random_game(ruleset, players, seed + i)
        winners = game.final.winners or ()
        wins["+".join(winners) if winners else "draw"] += 1
        if progress:
            progress(i + 1)
    return wins
