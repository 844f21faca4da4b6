"""Property tests over random legal games, for every preset and every player count of its table."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from soundness import sound_steps

import engine
from engine.simulate import play_random_game
from engine.view import known_roles

CASES = [
    (preset, n)
    for preset in ("classic", "simple", "hobbyworld", "city", "blood", "fiim")
    for n in engine.player_counts(engine.load_ruleset(preset))
]


@pytest.mark.parametrize(("preset", "players"), CASES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_are_sound(preset: str, players: int, seed: int) -> None:
    ruleset = engine.load_ruleset(preset)
    game = play_random_game(ruleset, players, seed)
    assert sum(1 for _ in sound_steps(ruleset, game.roles, seed, game)) == len(game.commands)


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
