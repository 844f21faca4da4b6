"""What the bot asks the engine at every moment: who may speak, who is awake, who may vote and for
whom, which targets a seat may choose. The voice controller mutes by these answers."""

from __future__ import annotations

from engine.abilities import abilities_now, actors_of_step, legal_targets, team_targets
from engine.ballot import may_vote
from engine.day import victim_nominates
from engine.registry import STEP_KINDS
from engine.seats import PARTING_ROUNDS, holders_of, speech_lost
from engine.state import GameState


def speakers(s: GameState) -> frozenset[int]:
    """Seats that may talk now: the speaker; everyone living in a free discussion; nobody at night."""
    step = s.step
    if s.phase == "over":
        return frozenset(range(1, s.n_seats + 1))
    if s.phase != "day":
        return frozenset()
    if step.kind == "speech":
        if step.round in PARTING_ROUNDS:
            return frozenset({step.seat})
        if speech_lost(s, step.seat):
            return frozenset()
        if not s.no_speech:
            return frozenset({step.seat, *step.permitted})
        return frozenset({step.seat, *(x for x in step.permitted if x not in s.no_speech)})
    if step.kind in ("discussion", "nominations") or getattr(STEP_KINDS.get(step.kind), "free_talk", False):
        return frozenset(x for x in s.alive if x not in s.no_speech)
    return frozenset()


def nominees(s: GameState) -> list[int]:
    """«Кто выставлен?»: the players nominated today and still at the table, in nomination order."""
    return [t for _, t in s.nominations if t in s.alive]


def awake(s: GameState) -> frozenset[int]:
    """Seats whose eyes are open: everyone living by day, the woken role or team at night."""
    if s.phase == "day":
        return frozenset(s.alive)
    if s.phase == "night" and s.step.kind in ("night", "meet"):
        step = s.ruleset.night_step(s.step.night_step, s.intro)
        return frozenset(holders_of(s, step))
    return frozenset()


def voters(s: GameState) -> frozenset[int]:
    if s.step.kind == "vote":
        voted = dict(s.ballots)  # by voter
        if not s.ruleset.voting.self_vote:
            voted[s.step.seat] = s.step.seat  # the candidate may not vote for himself (city, club variants)
        if not s.jail and not s.vote_links:  # may_vote, when nobody is jailed or bound to another's vote
            no_vote = s.no_vote
            return frozenset([x for x in s.alive if x not in voted and x not in no_vote])
        return frozenset([x for x in s.alive if x not in voted and may_vote(s, x)])
    if s.step.kind == "tiebreak":
        return frozenset({s.step.seat})
    kind = STEP_KINDS.get(s.step.kind)
    if kind is not None and hasattr(kind, "voters"):
        return frozenset(kind.voters(s))
    return frozenset()


def actors(s: GameState) -> frozenset[int]:
    """Seats that may submit an action at the current step (a night ability, or a day ability such as
    the judge's acquittal)."""
    step = s.step
    if s.phase == "night":
        if step.kind != "night":
            return frozenset()
        return frozenset(actors_of_step(s, s.ruleset.night_step(step.night_step)))
    kind = STEP_KINDS.get(step.kind)
    if s.phase == "day" and kind is not None and hasattr(kind, "actors"):
        return frozenset(kind.actors(s))
    return frozenset()


def targets_for(s: GameState, seat: int) -> dict[str, list[int]]:
    """Legal targets of each action the seat may take now, by action name ("" for the only one,
    "team" for a team's shot)."""
    if s.phase == "night" and s.step.kind == "night":
        step = s.ruleset.night_step(s.step.night_step)
        if seat not in actors_of_step(s, step):  # actors(s), with the step looked up once
            return {}
        if step.team:
            return {"team": team_targets(s)}
        return {ab.act: legal_targets(s, seat, ab) for ab in abilities_now(s, seat, step.id)}
    if seat not in actors(s):  # outside a night step only a day step kind has actors
        return {}
    return {"": list(STEP_KINDS[s.step.kind].targets(s, seat))}


def is_optional(s: GameState, seat: int) -> bool:
    if s.phase != "night" or s.step.kind != "night":
        return True
    if s.step.night_step in s.ruleset.team_step_ids():
        return False  # D-G3: a group kill choice is mandatory
    return all(ab.optional for ab in abilities_now(s, seat, s.step.night_step))


def targets_needed(s: GameState, seat: int, act: str) -> int:
    """How many targets the seat's action ``act`` takes now (the journalist picks two)."""
    if s.phase != "night":
        return 1
    for ab in abilities_now(s, seat, s.step.night_step):
        if ab.act == act:
            return ab.targets
    return 1


def may_nominate_in_last_word(s: GameState, seat: int) -> bool:
    """FIIM D-FI8 ``night_victim_nominates``: the night's victim, in his last minute, may nominate."""
    return victim_nominates(s, seat)
