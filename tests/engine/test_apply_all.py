"""``apply_all`` and ``apply_in_place`` (the simulator's path, issue 18 item 5) apply a batch of commands as
``apply`` would one by one: the same states, the same events, stopping where the game ends; a refused
command leaves apply_all's state and events as they were."""

from __future__ import annotations

import pytest

import engine
from engine.commands import Advance, Command, Pass, Vote
from engine.errors import GameOver, IllegalCommand
from engine.events import Event
from engine.game import apply, apply_all
from engine.simulate import play_random_game
from engine.state import GameState


def _one_by_one(state: GameState, commands: list[Command]) -> tuple[GameState, list[Event], int]:
    events: list[Event] = []
    done = 0
    for command in commands:
        state, more = apply(state, command)
        events += more
        done += 1
        if state.over:
            break
    return state, events, done


@pytest.mark.parametrize(("preset", "players"), [("simple", 12), ("city", 10), ("blood", 10), ("fiim", 10)])
def test_batches_give_the_states_and_events_of_apply(preset: str, players: int) -> None:
    """Every window of up to five commands of a random game, from every state of it."""
    ruleset = engine.load_ruleset(preset)
    for seed in range(3):
        game = play_random_game(ruleset, players, seed)
        state, _ = engine.new_game(ruleset, game.roles, seed)
        for i, command in enumerate(game.commands):
            batch = game.commands[i : i + 5]
            expected_state, expected_events, expected_done = _one_by_one(state, batch)
            out: list[Event] = [Event("earlier")]
            got, done = apply_all(state, batch, out)
            assert done == expected_done
            assert out == [Event("earlier"), *expected_events]
            assert got.__dict__ == expected_state.__dict__
            state, _ = apply(state, command)
        assert state.over and state.__dict__ == game.final.__dict__


def test_commands_after_the_end_are_not_applied() -> None:
    ruleset = engine.load_ruleset("simple")
    game = play_random_game(ruleset, 12, 1)
    state, opening = engine.new_game(ruleset, game.roles, 1)
    out: list[Event] = []
    final, done = apply_all(state, [*game.commands, Advance(), Advance()], out)
    assert done == len(game.commands) and final.over
    assert final.__dict__ == game.final.__dict__ and opening + out == game.events
    with pytest.raises(GameOver):
        apply_all(final, [Advance()], out)


def test_a_refused_command_changes_nothing() -> None:
    ruleset = engine.load_ruleset("simple")
    state, _ = engine.new_game(ruleset, engine.deal(ruleset, 12, 4), 4)
    while state.step.kind != "speech":
        state, _ = apply(state, Advance())
    before = dict(state.__dict__)
    speaker = state.step.seat
    out: list[Event] = [Event("earlier")]
    with pytest.raises(IllegalCommand):  # a pass, then a vote while nobody is voted on
        apply_all(state, [Pass(seat=speaker), Vote(seat=speaker, candidate=speaker)], out)
    assert out == [Event("earlier")] and state.__dict__ == before and not state.over


@pytest.mark.parametrize("preset", ["classic", "simple", "hobbyworld", "city", "blood", "fiim"])
def test_the_simulator_on_its_draft_plays_what_apply_replays(preset: str) -> None:
    """The simulator plays on one draft (apply_in_place): its events and final state are those of its
    commands applied one by one."""
    ruleset = engine.load_ruleset(preset)
    for seed in range(4):
        game = play_random_game(ruleset, 10, seed)
        state, events = engine.replay(ruleset, game.roles, seed, game.commands)
        assert type(game.final) is GameState and game.final.over
        assert game.final.__dict__ == state.__dict__ and game.events == events
