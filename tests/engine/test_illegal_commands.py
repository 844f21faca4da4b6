"""Bad input: every illegal command raises a typed error with a readable message, and changes nothing."""

from __future__ import annotations

from dataclasses import fields

import pytest

import engine
from engine import errors
from engine.commands import Act, Advance, Answer, Nominate, Pass, Propose, Skip, TeamAct, Vote

ROLES = ["don", "mafioso", "commissar", "putana", "doctor", "maniac", "civilian", "civilian"]


def _snapshot(state: engine.GameState) -> tuple[object, ...]:
    return tuple(getattr(state, f.name) for f in fields(state))


def _until(state: engine.GameState, kind: str, night_step: str = "") -> engine.GameState:
    for _ in range(200):
        if state.step.kind == kind and (not night_step or state.step.night_step == night_step):
            return state
        state, _ = engine.apply(state, Advance())
    raise AssertionError(f"never reached {kind} {night_step}")


def _reject(state: engine.GameState, command: engine.Command, error: type[Exception]) -> None:
    before = _snapshot(state)
    with pytest.raises(error) as info:
        engine.apply(state, command)
    assert str(info.value)  # a message a player can read
    assert _snapshot(state) == before


def test_night_commands_out_of_turn_are_refused() -> None:
    state, _ = engine.new_game(engine.load_ruleset("simple"), ROLES, 5)
    state = _until(state, "night", "putana")  # skips the acquaintance night and day 1
    _reject(state, Act(seat=3, targets=(1,)), errors.NotYourTurn)  # the commissar at the putana's step
    _reject(state, Act(seat=4, targets=(4,)), errors.IllegalTarget)  # «приглашая его к себе»
    _reject(state, Act(seat=4, targets=(1, 2)), errors.IllegalTarget)
    _reject(state, Act(seat=4, targets=(99,)), errors.IllegalTarget)
    _reject(state, Skip(seat=4), errors.IllegalCommand)  # «Путана обязана приглашать»
    _reject(state, Propose(seat=1, target=3), errors.NotYourTurn)
    _reject(state, TeamAct(team="mafia", target=3), errors.NotYourTurn)
    _reject(state, Vote(seat=1, candidate=2), errors.WrongPhase)
    _reject(state, Nominate(seat=1, target=2), errors.WrongPhase)
    _reject(state, Pass(seat=1), errors.WrongPhase)
    _reject(state, Answer(seat=6, yes=True), errors.WrongPhase)


def test_day_commands_out_of_turn_are_refused() -> None:
    state, _ = engine.new_game(engine.load_ruleset("simple"), ROLES, 5)
    state = _until(state, "speech")
    speaker = state.step.seat
    other = next(x for x in state.living() if x != speaker)
    _reject(
        state, Nominate(seat=other, target=speaker), errors.NotYourTurn
    )  # nominations in one's own speech
    _reject(state, Pass(seat=other), errors.NotYourTurn)
    _reject(state, Nominate(seat=speaker, target=42), errors.IllegalTarget)
    state, _ = engine.apply(state, Nominate(seat=speaker, target=other))
    _reject(state, Nominate(seat=speaker, target=speaker), errors.AlreadyActed)
    state = _until(state, "vote")
    _reject(state, Vote(seat=speaker, candidate=speaker), errors.IllegalTarget)  # not on the ballot now
    state, _ = engine.apply(state, Vote(seat=speaker, candidate=other))
    _reject(state, Vote(seat=speaker, candidate=other), errors.AlreadyActed)


def test_dead_players_cannot_act_and_finished_games_take_nothing() -> None:
    ruleset = engine.load_ruleset("classic")
    roles = ["mafioso", "mafioso", "commissar", "civilian", "civilian", "civilian", "civilian"]
    state, _ = engine.new_game(ruleset, roles, 2)
    state = _until(state, "nominations")
    state, _ = engine.apply(state, Nominate(seat=4, target=3))
    state = _until(state, "vote")
    state, _ = engine.apply(state, Advance())  # nobody votes: abstainers go to the only candidate
    assert 3 not in state.alive
    _reject(state, Nominate(seat=3, target=1), errors.IllegalCommand)
    state = _until(state, "night", "commissar")
    _reject(state, Act(seat=3, targets=(1,)), errors.DeadPlayer)
    state, _ = engine.apply(state, engine.Abort(reason="test"))
    assert state.over
    _reject(state, Advance(), errors.GameOver)


def test_unknown_roles_and_fouls_without_conduct_are_refused() -> None:
    with pytest.raises(errors.IllegalCommand, match="wizard"):
        engine.new_game(engine.load_ruleset("classic"), ["wizard", "civilian"], 1)
    state, _ = engine.new_game(engine.load_ruleset("classic"), ["mafioso", "commissar", "civilian"], 1)
    _reject(state, engine.Foul(seat=1, reason="talking"), errors.IllegalCommand)
