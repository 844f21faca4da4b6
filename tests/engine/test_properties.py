"""Property tests over random legal games, for every preset and every player count of its table."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import queries
from engine.commands import Act, Propose, Vote
from engine.simulate import play_random_game
from engine.view import events_for, known_roles, view_for

CASES = [
    (preset, n)
    for preset in ("classic", "simple", "hobbyworld", "city", "blood")
    for n in engine.player_counts(engine.load_ruleset(preset))
]


@pytest.mark.parametrize(("preset", "players"), CASES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_are_sound(preset: str, players: int, seed: int) -> None:
    ruleset = engine.load_ruleset(preset)
    game = play_random_game(ruleset, players, seed)

    # Every random game ends, with exactly one game_over.
    assert game.final.over
    assert sum(1 for e in game.events if e.type == "game_over") == 1

    # Replaying the command log reproduces the final state and every event, exactly.
    state, events = engine.replay(ruleset, game.roles, seed, game.commands)
    assert state == game.final
    assert [e.to_json() for e in events] == [e.to_json() for e in game.events]

    # Walk the game again, checking each step.
    state, _ = engine.new_game(ruleset, game.roles, seed)
    for command in game.commands:
        if isinstance(command, (Act, Propose)):
            # No dead player acts, and only a woken actor does.
            assert command.seat in state.alive
            assert command.seat in queries.actors(state)
        if isinstance(command, Vote) and state.step.kind == "vote":
            assert command.seat in state.alive and command.seat not in state.no_vote
        snapshot = _snapshot(state)
        previous = state
        state, new_events = engine.apply(state, command)
        # Applying a command never changes the state it was applied to.
        assert _snapshot(previous) == snapshot
        # A seat's view never holds another seat's hidden role unless the rules showed it to that seat.
        for seat in range(1, len(game.roles) + 1):
            roles = view_for(state, seat)["roles"]
            for other, role in roles.items():
                x = int(other)
                assert role == state.role_of(x)
                assert x == seat or x in state.revealed or (seat, x) in state.knowledge
            for ev in events_for(new_events, seat):
                if ev.type in ("role_dealt", "check") and ev.data.get("result") in ruleset.roles:
                    assert ev.audience.includes(seat)
    assert state == game.final


def _snapshot(state: engine.GameState) -> tuple[object, ...]:
    return tuple(getattr(state, f.name) for f in fields(state) if f.name != "ruleset")


def test_knowledge_only_grows_through_rules() -> None:
    """A civilian in `classic` knows only his own role until someone is lynched (roles shown)."""
    ruleset = engine.load_ruleset("classic")
    game = play_random_game(ruleset, 10, 3)
    state, _ = engine.new_game(ruleset, game.roles, 3)
    civilian = game.roles.index("civilian") + 1
    assert known_roles(state, civilian) == {civilian: "civilian"}
    for command in game.commands:
        state, _ = engine.apply(state, command)
        expected = {x for x in state.revealed} | {civilian}
        assert set(known_roles(state, civilian)) == expected
