"""Random legal games: a smoke test of every rule path and a first balance report.

Every choice is random but legal (the simulator asks :mod:`engine.queries` and :mod:`engine.abilities`
what is allowed), so any IllegalCommand raised here is a bug in the engine. The players (RandomPlayers)
draw from their own Rng (players_rng), the engine from the game's state.
"""

from __future__ import annotations

import hashlib
import math
import struct
from bisect import insort
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import filterfalse
from operator import countOf, itemgetter

from engine import abilities, queries
from engine.commands import Act, Advance, Answer, Command, Foul, Nominate, Pass, Permit, Propose, Skip, Vote
from engine.composition import composition
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import apply, apply_in_place, deal, new_game, replay
from engine.registry import STEP_KINDS
from engine.rng import _TWO_64, Rng
from engine.rules import Ruleset
from engine.rules.model import AbilityDef, StepDef
from engine.state import GameState, freeze, thaw

MAX_COMMANDS = 20_000
_TWO_64_INT = 1 << 64
_ADVANCE = Advance()  # commands are immutable: every Advance of the simulator is this one
_PASSES: dict[int, Pass] = {}  # one Pass per seat
_PASS_ALONE: dict[int, tuple[Command]] = {}  # (Pass,) per seat
_ADVANCE_ALONE = (_ADVANCE,)
_PICKS: dict[type[Command], dict[int, dict[int, Command]]] = {}  # [kind][seat][other] (see _pick)
_PROPOSALS = _PICKS[Propose] = {}  # [seat][target]
_NOMINATIONS = _PICKS[Nominate] = {}  # [seat][target]
_SKIPS: dict[int, Command] = {}
_ACTS: dict[tuple[int, tuple[int, ...], str], Command] = {}
_ACTS1: dict[str, dict[int, dict[int, Command]]] = {}  # act -> seat -> target -> Act of one target
_VOTES: dict[int, dict[int, Command]] = {}  # for each candidate, each seat's Vote
_FIRST, _SECOND = itemgetter(0), itemgetter(1)  # of a pair (ballot, nomination), in C
_PICKED_FIELD: dict[type[Command], str] = {Vote: "candidate", Propose: "target", Nominate: "target"}


def _pass(seat: int) -> Pass:
    """``Pass(seat=seat)``, made once per seat (see _pick)."""
    found = _PASSES.get(seat)
    if found is None:
        found = _PASSES[seat] = Pass(seat=seat)
    return found


def _pass_alone(seat: int) -> tuple[Command]:
    """``(_pass(seat),)``, made once per seat: a speech that ends in a pass and nothing else."""
    found = _PASS_ALONE.get(seat)
    if found is None:
        found = _PASS_ALONE[seat] = (_pass(seat),)
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


def _act1(seat: int, target: int, act: str) -> Command:
    """``_act(seat, (target,), act)``, found by three keys instead of one built of three (the common Act)."""
    by_seat = _ACTS1.get(act)
    if by_seat is None:
        by_seat = _ACTS1[act] = {}
    by_target = by_seat.get(seat)
    if by_target is None:
        by_target = by_seat[seat] = {}
    found = by_target.get(target)
    if found is None:
        found = by_target[target] = Act(seat=seat, targets=(target,), act=act)
    return found


def _voters_in_order(s: GameState, living: list[int]) -> list[int]:
    """``sorted(queries.voters(s))`` at a vote, with the same shortcut as voters where nobody is jailed or
    bound to another's vote: the living (``living``, in seat order) who have not voted yet and may vote."""
    if s.jail or s.vote_links:
        return sorted(queries.voters(s))
    voted = set(map(_FIRST, s.ballots))
    if not s.ruleset.voting.self_vote:
        voted.add(s.step.seat)  # the candidate may not vote for himself
    voted.update(s.no_vote)
    return [x for x in living if x not in voted]


def _vote_of(votes: dict[int, Command], seat: int, candidate: int) -> Command:
    """``Vote(seat=seat, candidate=candidate)`` from ``votes``, the candidate's votes (see _pick)."""
    vote = votes.get(seat)
    if vote is None:
        vote = votes[seat] = Vote(seat=seat, candidate=candidate)
    return vote


def _pick(kind: type[Command], seat: int, other: int) -> Command:
    """``Vote(seat=seat, candidate=other)``, ``Propose(seat=seat, target=other)`` or ``Nominate(...)``,
    made once per seat and choice: commands are immutable values, so one object serves every game. Read
    as ``_PICKS[kind][seat][other]`` (in a try, this on a KeyError): no key tuple to build and hash."""
    by_seat = _PICKS.setdefault(kind, {}).setdefault(seat, {})
    found = by_seat.get(other)
    if found is None:
        found = by_seat[other] = kind(seat=seat, **{_PICKED_FIELD[kind]: other})  # type: ignore[call-arg]
    return found


@dataclass
class SimulatedGame:
    roles: list[str]
    seed: int
    commands: list[Command]
    events: list[Event]
    final: GameState


# The simulator's draws. A draw is one 64-bit value v of the players' Rng, uniform on [0, 2**64); a chance p
# is the test v < p * 2**64 (_AT[p]); a pick among n items is item (v * n) >> 64. Where a chance and a pick
# go together («with chance p, a uniform one of these»), one value serves both: v below the threshold is
# uniform below it, and (v * n) // threshold picks. Where two independent chances are asked at one step,
# the high and low 32 bits of one value answer them (_AT32_…). A value costs ≈ 500 instructions (its share
# of PlayersRng's batch of 32, and the pop): SplitMix64's (Rng) cost ≈ 1,500.
_AT = {p: int(p * 2**64) for p in (0.1, 0.2, 0.25, 0.3, 0.5, 0.8)}
_AT32_30, _AT32_60 = int(0.3 * 2**32), int(0.6 * 2**32)
_LOW32 = (1 << 32) - 1
_FOUL_CHANCE = 0.01  # of each call, at a table with fouls
_LOG_NO_FOUL = math.log1p(-_FOUL_CHANCE)


class RandomPlayers:
    """The random players of one table: the commands they might send now, ending with the host's Advance.

    Every choice is uniform among the legal ones, with the chances each step names (the same as before
    issue 18 item 5 made the players lean); what they keep down is the number of draws (see _AT), with
    what one game remembers between calls:

    * a foul: each call has the chance _FOUL_CHANCE of one on a uniform living seat, and the players hold
      the number of calls until the next one, a geometric draw (the same odds, one draw a foul, not one a
      call);
    * a vote: each voter votes for the candidate called with the chance 1 / (candidates still to call),
      the same as picking a uniform one of them; the players keep each voter's pick for the round, so a
      voter draws once a ballot, not once a candidate, and the last candidate takes every voter left.

    Fresh players (random_commands) draw both at their first call, which gives the same odds.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        # Calls before the next foul, drawn at the first call (-1); at a table without fouls, more calls
        # than any game makes.
        self.until_foul = -1 if ruleset.conduct.kind != "none" else 1 << 62
        voting = ruleset.voting
        self.per_player = voting.nominations_per_player  # nominations
        self.self_nomination = voting.self_nomination
        self.self_vote = voting.self_vote
        self.permissions = bool(ruleset.params.get("speech_permissions"))
        self.night_step = ruleset.night_step
        self.night_steps: dict[str, StepDef] = {}  # night_step's answers, by id
        self.blocks_known = ruleset.blocks_known
        self.all_seats = bool(ruleset.params.get("call_all_seats"))  # a team may target every seat
        self.by_role: dict[str, tuple[int, ...]] | None = None  # the deal's seats of each role
        self.alive: frozenset[int] = frozenset()  # the state's last set of the living, and sorted:
        self.living: list[int] = []
        self.ballot: tuple[int, ...] = ()  # the candidates of the vote round of the picks below
        self.ballot_picks: dict[int, list[int]] = {}  # candidate -> voters who picked him, this round
        self.asked_ballot: tuple[int, ...] = ()  # the same where some are jailed or bound (_vote_asking):
        self.picks: dict[int, int] = {}  # voter -> candidate, this round
        self.by_kind: dict[str, Callable[[GameState, Rng], Sequence[Command]]] = {
            "night": self._night,
            "speech": self._speech,
            "vote": self._vote,
            "nominations": self._nominations,
            "tiebreak": self._tiebreak,
            "lift": self._lift,
            "question": self._question,
        }

    def commands(self, s: GameState, rnd: Rng) -> Sequence[Command]:
        alive = s.alive
        if alive is not self.alive:
            self.alive, self.living = alive, sorted(alive)
        calls = self.until_foul
        if calls > 0:  # at a table without fouls the count never runs out (see __init__)
            self.until_foul = calls - 1
        elif alive:
            if calls < 0:  # the first call
                calls = self._calls_to_foul(rnd)
            if not calls:
                self.until_foul = self._calls_to_foul(rnd)
                seat = self.living[((rnd._left or rnd._refill()).pop() * len(alive)) >> 64]
                return [Foul(seat=seat, reason="random")]
            self.until_foul = calls - 1
        by_kind = self.by_kind.get(s.step.kind)
        if by_kind is None:
            return self._preset_step(s, rnd)
        return by_kind(s, rnd)

    @staticmethod
    def _calls_to_foul(rnd: Rng) -> int:
        """The calls before the next foul: at least k of them with the chance (1 - _FOUL_CHANCE) ** k."""
        v = (rnd._left or rnd._refill()).pop()
        return int(math.log((v + 0.5) / _TWO_64) / _LOG_NO_FOUL)

    def _night(self, s: GameState, rnd: Rng) -> list[Command]:
        # What queries.actors, targets_for, is_optional and targets_needed answer, with the step, its
        # actors and each actor's abilities looked up once.
        out: list[Command] = []
        step_id = s.step.night_step
        night_step = self.night_steps.get(step_id)
        if night_step is None:
            night_step = self.night_steps[step_id] = self.night_step(step_id)
        left = rnd._left
        if night_step.team:
            members = abilities.actors_of_step(s, night_step)  # in seat order, each seat once
            if not members:
                out.append(_ADVANCE)
                return out
            # Each member proposes: the first a uniform target, each next one a new uniform target with
            # the chance 0.2, else the last one proposed.
            # abilities.team_targets: the living in seat order (the players keep them) or every seat.
            targets = self.living if not self.all_seats else abilities.team_targets(s)
            n, at = len(targets), _AT[0.2]
            team_pick = 0
            for seat in members:
                v = (left or rnd._refill()).pop()
                left = rnd._left
                if not team_pick:
                    team_pick = targets[(v * n) >> 64]
                elif v < at:
                    team_pick = targets[(v * n) // at]
                try:
                    out.append(_PROPOSALS[seat][team_pick])
                except KeyError:
                    out.append(_pick(Propose, seat, team_pick))
            out.append(_ADVANCE)
            return out
        actors: Sequence[int]
        if s.jail or night_step.kind != "act":
            actors = abilities.actors_of_step(s, night_step)
        else:
            # actors_of_step where nobody is jailed: the role's living seats with an ability tonight (the
            # dead and those without one are passed over below), less those blocked where a blocked role
            # is told so (city D-C7).
            if self.by_role is None:
                self.by_role = s.ruleset.seats_by_role(s.roles)
            actors = self.by_role.get(night_step.role, ())
            if self.blocks_known and s.ledger.blocked:
                actors = list(filterfalse(s.ledger.blocked.__contains__, actors))  # in C: no cells
        alive, roles, night = s.alive, s.roles, s.night
        kept = s.ruleset.abilities_now  # abilities.abilities_now's table: (abilities, plain from night)
        for seat in actors:
            if seat not in alive:
                continue
            try:  # abilities.abilities_now(s, seat, step_id), without the call where they are plain tonight
                now, plain_from = kept[roles[seat - 1]][step_id]
                if plain_from > night:
                    now = abilities.abilities_now(s, seat, step_id)
            except KeyError:
                now = abilities.abilities_now(s, seat, step_id)
            if not now:
                continue
            if len(now) == 1:  # the common case: with the chance 0.2 an optional one is skipped
                ab = now[0]
                v = (left or rnd._refill()).pop()
                left = rnd._left
                if ab.optional:
                    if v < _AT[0.2]:
                        out.append(_skip(seat))
                        continue
                    v -= _AT[0.2]
                    span = _TWO_64_INT - _AT[0.2]
                else:
                    span = _TWO_64_INT
                targets = abilities.legal_targets(s, seat, ab, self.living)
                if not targets:
                    continue
                name, count = ab.act, ab.targets
                if count == 1:
                    target = targets[(v * len(targets)) // span]
                    try:
                        out.append(_ACTS1[name][seat][target])
                    except KeyError:
                        out.append(_act1(seat, target, name))
                    continue
            else:
                chosen = _choose_ability(s, rnd, seat, now)
                if chosen is None:
                    continue
                if not chosen:
                    out.append(_skip(seat))
                    continue
                name, targets, count = chosen
            picks = _sample(rnd, targets, count)
            if picks is not None:
                out.append(_act(seat, picks, name))
        out.append(_ADVANCE)
        return out

    def _speech(self, s: GameState, rnd: Rng) -> Sequence[Command]:
        """The speaker passes with the chance 0.3; in a day speech he first nominates a uniform free seat
        with the chance 0.6 (while he has nominations left), and where the preset has permissions
        (city) he allows or forbids a uniform other seat to talk with the chance 0.1."""
        step = s.step
        speaker = step.seat
        v = (rnd._left or rnd._refill()).pop()
        end: Command
        alone: tuple[Command]
        if v & _LOW32 < _AT32_30:
            end = _PASSES.get(speaker) or _pass(speaker)
            alone = _PASS_ALONE.get(speaker) or _pass_alone(speaker)
        else:
            end, alone = _ADVANCE, _ADVANCE_ALONE
        if step.round != "day":
            return alone  # a tuple made once: most calls send one command
        nominate = None
        nominations = s.nominations
        high = v >> 32
        if (
            high < _AT32_60
            and speaker in s.alive
            and (not nominations or countOf(map(_FIRST, nominations), speaker) < self.per_player)
        ):
            # A uniform living seat; where he may not be nominated, a uniform one of those who may,
            # which leaves each of them the same chance (1 / living + (taken / living) / free).
            living = self.living
            target = living[(high * len(living)) // _AT32_60]
            if (
                target in s.cleared  # voted on already today
                or (target == speaker and not self.self_nomination)
                or (nominations and target in map(_SECOND, nominations))
            ):
                barred = (speaker,) if not self.self_nomination else ()
                free = sorted(s.alive.difference(map(_SECOND, nominations), s.cleared, barred))
                target = free[((rnd._left or rnd._refill()).pop() * len(free)) >> 64] if free else 0
            if target:
                try:
                    nominate = _NOMINATIONS[speaker][target]
                except KeyError:
                    nominate = _pick(Nominate, speaker, target)
        if self.permissions:
            w = (rnd._left or rnd._refill()).pop()
            if w < _AT[0.1] and speaker not in s.no_speech:
                no_speech, others = s.no_speech, []  # a loop: no cells for a comprehension
                for x in self.living:
                    if x != speaker and x not in no_speech:
                        others.append(x)
                if others:
                    target = others[(w * len(others)) // _AT[0.1]]
                    permit = Permit(seat=speaker, target=target, allow=target not in step.permitted)
                    return (permit,) if nominate is None else (nominate, permit)
        return alone if nominate is None else (nominate, end)

    def _nominations(self, s: GameState, rnd: Rng) -> list[Command]:
        """Each living seat nominates a uniform free seat with the chance 0.25."""
        out: list[Command] = []
        living = self.living
        nominated = {t for _, t in s.nominations} | s.cleared  # cleared: voted on already today
        at = _AT[0.25]
        left = rnd._left
        for seat in living:
            v = (left or rnd._refill()).pop()
            left = rnd._left
            if v < at:
                free = [x for x in living if x not in nominated and (self.self_nomination or x != seat)]
                if free:
                    target = free[(v * len(free)) // at]
                    nominated.add(target)
                    out.append(_pick(Nominate, seat, target))
        out.append(_ADVANCE)
        return out

    def _vote(self, s: GameState, rnd: Rng) -> list[Command]:
        """Each voter votes for the candidate called with the chance 1 / (candidates still to call): the
        voter's pick among them, drawn once in the round (see the class)."""
        step = s.step
        candidate, queue = step.seat, step.queue
        votes = _VOTES.get(candidate)
        if votes is None:
            votes = _VOTES[candidate] = {}
        if not queue:  # the last candidate: every voter left
            out = []  # a loop: no cells for a comprehension
            for seat in _voters_in_order(s, self.living):
                out.append(votes.get(seat) or _vote_of(votes, seat, candidate))
            out.append(_ADVANCE)
            return out
        if s.jail or s.vote_links:
            return self._vote_asking(s, rnd, votes)
        if step.candidates is not self.ballot:
            self._new_ballot(s, rnd)
        out = []
        alive, no_vote = s.alive, s.no_vote
        for seat in self.ballot_picks.pop(candidate, ()):
            if seat == candidate and not self.self_vote:
                # He may not vote for himself: a uniform one of the candidates after him instead.
                later = queue[((rnd._left or rnd._refill()).pop() * len(queue)) >> 64]
                insort(self.ballot_picks.setdefault(later, []), seat)
            elif seat in alive and seat not in no_vote:  # fouls may have taken his vote since
                out.append(votes.get(seat) or _vote_of(votes, seat, candidate))
        out.append(_ADVANCE)
        return out

    def _new_ballot(self, s: GameState, rnd: Rng) -> None:
        """Each voter's pick among the candidates still to call, by candidate, in seat order: the living
        who may vote and have not voted yet. Where a voter may not vote for himself, the candidate called
        now picks among those after him (he is not asked now, and a later call would ask him again)."""
        step = s.step
        self.ballot = step.candidates
        candidate, queue = step.seat, step.queue
        n = len(queue) + 1
        picks: dict[int, list[int]] = {}
        skipped = set(map(_FIRST, s.ballots))
        skipped.update(s.no_vote)
        left = rnd._left
        for seat in self.living:
            if seat in skipped:
                continue
            if seat == candidate and not self.self_vote:
                pick = queue[((left or rnd._refill()).pop() * (n - 1)) >> 64]
            else:
                k = ((left or rnd._refill()).pop() * n) >> 64
                pick = queue[k - 1] if k else candidate
            left = rnd._left
            found = picks.get(pick)
            if found is None:
                picks[pick] = [seat]
            else:
                found.append(seat)
        self.ballot_picks = picks

    def _vote_asking(self, s: GameState, rnd: Rng, votes: dict[int, Command]) -> list[Command]:
        """_vote where somebody is jailed or votes as another does: the voters the rules name now, each
        with his pick, drawn when he is first asked or when his pick has been called without him."""
        step = s.step
        candidate, queue = step.seat, step.queue
        if step.candidates is not self.asked_ballot:
            self.asked_ballot, self.picks = step.candidates, {}
        picks = self.picks
        n = len(queue) + 1
        out: list[Command] = []
        left = rnd._left
        for seat in _voters_in_order(s, self.living):
            pick = picks.get(seat)
            if pick is None or (pick != candidate and pick not in queue):
                k = ((left or rnd._refill()).pop() * n) >> 64
                left = rnd._left
                pick = picks[seat] = queue[k - 1] if k else candidate
            if pick == candidate:
                out.append(_vote_of(votes, seat, candidate))
        out.append(_ADVANCE)
        return out

    def _tiebreak(self, s: GameState, rnd: Rng) -> list[Command]:
        """The tiebreaker names a uniform tied seat with the chance 0.8."""
        step = s.step
        v = (rnd._left or rnd._refill()).pop()
        if v < _AT[0.8]:
            return [Vote(seat=step.seat, candidate=step.candidates[(v * len(step.candidates)) // _AT[0.8]])]
        return [_ADVANCE]

    def _lift(self, s: GameState, rnd: Rng) -> list[Command]:
        """Each voter votes to lift with the chance 0.5: one bit of a draw each."""
        out: list[Command] = []
        bits = 0
        for i, seat in enumerate(sorted(queries.voters(s))):
            if not i % 64:
                bits = (rnd._left or rnd._refill()).pop()
            if bits >> (i % 64) & 1:
                out.append(Vote(seat=seat))
        out.append(_ADVANCE)
        return out

    def _question(self, s: GameState, rnd: Rng) -> list[Command]:
        """The asked maniac answers with the chance 0.5, «yes» or «no» alike (two bits of one draw)."""
        v = (rnd._left or rnd._refill()).pop()
        if v & 1:
            return [Answer(seat=s.step.seat, yes=bool(v & 2))]
        return [_ADVANCE]

    def _preset_step(self, s: GameState, rnd: Rng) -> list[Command]:
        out: list[Command] = []
        step = s.step
        kind = STEP_KINDS.get(step.kind)
        if kind is not None and hasattr(kind, "choices"):
            # A vote of a preset's own step (classic court): each voter picks a uniform one of his choices
            # with the chance 0.5.
            for seat in sorted(queries.voters(s)):
                choices = kind.choices(s, seat)
                v = (rnd._left or rnd._refill()).pop()
                if choices and v < _AT[0.5]:
                    out.append(Vote(seat=seat, candidate=choices[(v * len(choices)) // _AT[0.5]]))
            actors = sorted(queries.actors(s)) if hasattr(kind, "act") else []
            if actors and rnd.random() < 0.3:  # the two-player game: «Мафия — соперник»
                seat = rnd.choice(actors)
                out.append(Act(seat=seat, targets=(rnd.choice(queries.targets_for(s, seat)[""]),)))
                return out
            if out and rnd.random() < 0.5:
                return out  # the step may have ended; the next call looks again
        elif s.phase == "day" and queries.actors(s):
            # A day ability (the judge's acquittal, FIIM's best move): each actor in turn, with the chance
            # 0.5, names as many uniform seats as it takes, and the first who does ends the call.
            for seat in sorted(queries.actors(s)):
                targets = queries.targets_for(s, seat).get("", [])
                needed = getattr(kind, "count", 1)  # FIIM's best move names three
                if len(targets) >= needed and rnd.random() < 0.5:
                    picks = _sample(rnd, targets, needed)
                    assert picks is not None
                    out.append(Act(seat=seat, targets=picks))
                    return out
        out.append(_ADVANCE)
        return out


def _choose_ability(
    s: GameState, rnd: Rng, seat: int, now: Sequence[AbilityDef]
) -> tuple[str, list[int], int] | tuple[()] | None:
    """An actor's pick among several abilities tonight: () to skip (where all are optional, with the chance
    0.2), else a uniform one of those with legal targets, with its targets and their number, or None where
    none has any."""
    if all(ab.optional for ab in now) and rnd.random() < 0.2:
        return ()
    options = {ab.act: abilities.legal_targets(s, seat, ab) for ab in now}
    acts = [(name, ts) for name, ts in options.items() if ts]
    if not acts:
        return None
    name, targets = rnd.choice(acts)
    return name, targets, next((ab.targets for ab in now if ab.act == name), 1)


def _sample(rnd: Rng, items: list[int], count: int) -> tuple[int, ...] | None:
    """``count`` distinct uniform items in a uniform order (a partial shuffle: a draw each), or None if
    there are fewer."""
    if len(items) < count:
        return None
    pool = list(items)
    picks = []
    for _ in range(count):
        picks.append(pool.pop(((rnd._left or rnd._refill()).pop() * len(pool)) >> 64))
    return tuple(picks)


_UNPACK_BATCH = struct.Struct("<32Q").unpack  # a batch of 32 values from 256 bytes


class PlayersRng(Rng):
    """The random players' draws: the wrapper's interface (``_left``, ``_refill``, ``random``, …) over values
    that are SHAKE-128's output for the game's seed and a batch number, 32 values a batch. Python's big
    integers make SplitMix64's batch of 32 (Rng) cost ≈ 45,000 instructions, SHAKE-128's 256 bytes ≈ 17,000
    (cachegrind); the players draw ≈ 100–150 values a game. Each seed's stream is its own: the games of
    seeds 0, 1, 2, … do not read one stream at shifts (see players_rng)."""

    def __init__(self, seed: int) -> None:  # no Rng.__init__: no SplitMix64 state
        self._key = b"mafiabot random players %d batch " % seed
        self._batches = 0
        self._refill()

    @property
    def state(self) -> int:
        raise AttributeError("the players' draws have no SplitMix64 state")

    def _refill(self) -> list[int]:
        self._batches += 1
        digest = hashlib.shake_128(self._key + b"%d" % self._batches).digest(256)
        left = self._left = list(_UNPACK_BATCH(digest))
        return left


def players_rng(seed: int) -> Rng:
    """The draws of the random players of game ``seed`` (PlayersRng). Not ``Rng(seed)``: SplitMix64's state
    is the seed times its step (plus a constant), so that ``Rng(seed + 1)`` draws what ``Rng(seed)`` draws
    after its first value, and the games of seeds 0, 1, 2, … would read one stream at shifts of one draw
    (their fouls fell on the same few values: 2.2 % of the calls where the chance is 1 %)."""
    return PlayersRng(seed)


def random_commands(s: GameState, rnd: Rng) -> Sequence[Command]:
    """Commands a table of random players might send now, ending with the host's Advance (RandomPlayers,
    fresh for this call: a game played call by call keeps one RandomPlayers instead)."""
    return RandomPlayers(s.ruleset).commands(s, rnd)


def play_random_game(
    ruleset: Ruleset, players: int, seed: int, roles: list[str] | None = None
) -> SimulatedGame:
    rnd = players_rng(seed)
    roles = roles or deal(ruleset, players, seed)
    state, events = new_game(ruleset, roles, seed)
    # The simulator is the only owner of its game and reads each state once, to choose the next commands:
    # it plays on one private draft, which the engine changes command by command as apply would (the
    # states apply would hand out, without a copy of the state per command), and freezes it at the end.
    s = thaw(state)
    log: list[Command] = []
    table = RandomPlayers(ruleset)  # the random players (``players`` is their number)
    by_kind, preset_step = table.by_kind, table._preset_step
    until_foul = table.until_foul
    commands: Sequence[Command] = ()
    done = 0
    while s.phase != "over":  # not s.over, without the property's call
        # table.commands(s, rnd), written out where no foul is due (a call less a batch): the count of
        # calls to the next foul is kept here, and table.commands itself draws when it runs out.
        if until_foul > 0:
            until_foul -= 1
            alive = s.alive
            if alive is not table.alive:
                table.alive, table.living = alive, sorted(alive)
            try:  # by_kind.get(kind, preset_step), by a subscript (no method call)
                choose = by_kind[s.step.kind]
            except KeyError:
                choose = preset_step
            commands = choose(s, rnd)
        else:
            table.until_foul = until_foul
            commands = table.commands(s, rnd)
            until_foul = table.until_foul
        try:
            done = apply_in_place(s, commands, events)
        except IllegalCommand:
            _name_the_illegal(ruleset, roles, seed, log, commands)
            raise
        log.extend(commands)  # whole: only the last batch can be cut short by the game's end (below)
        if len(log) > MAX_COMMANDS:
            raise AssertionError(f"game with seed {seed} did not end after {MAX_COMMANDS} commands")
    del log[len(log) - len(commands) + done :]  # the commands of the last batch after the game ended
    return SimulatedGame(roles, seed, log, events, freeze(s))


def _name_the_illegal(
    ruleset: Ruleset, roles: list[str], seed: int, log: list[Command], commands: Sequence[Command]
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
