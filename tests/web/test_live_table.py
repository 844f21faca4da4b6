"""The live table shows what a spectator may know: it is built from the engine's public view, so a
command that tells nobody at the table anything (a night action, a private choice) changes nothing in
it, in whole random games of every preset."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import engine
from engine.simulate import play_random_game
from mafiabot.game.session import SeatInfo
from mafiabot.web.live import public_table

PRESETS = ["classic", "simple", "hobbyworld", "city", "blood", "fiim"]


def _stand_in(state: engine.GameState, seats: int) -> Any:
    """What public_table reads of a table: its game id and its session (the real engine state)."""
    session = SimpleNamespace(
        state=state,
        seats=[SeatInfo(i, 1000 + i, f"игрок {i}") for i in range(1, seats + 1)],
        manually_paused=False,
        deadline=lambda: 1_800_000_000.0,
        language="ru",
    )
    return SimpleNamespace(game_id=1, session=session)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_command_nobody_hears_of_changes_nothing_on_the_live_table(preset: str) -> None:
    rules = engine.load_ruleset(preset)
    checked, players = 0, 10
    for seed in range(3):
        game = play_random_game(rules, players, seed)
        state, _ = engine.new_game(rules, game.roles, seed)
        for command in game.commands:
            before = public_table(_stand_in(state, players))
            state, events = engine.apply(state, command)
            if not any(e.audience.kind == "public" for e in events):
                assert public_table(_stand_in(state, players)) == before, (seed, command)
                checked += 1
            if state.over:
                break
    assert checked > 0  # the games had private commands to check


def test_no_role_is_on_the_table_before_the_rules_show_it() -> None:
    rules = engine.load_ruleset("classic")
    game = play_random_game(rules, 10, 5)
    state, _ = engine.new_game(rules, game.roles, 5)
    for command in game.commands:
        table = public_table(_stand_in(state, 10))
        shown = {s["seat"]: s["role"] for s in table["seats"] if s["role"]}
        revealed = engine.view_for(state, None)["roles"]
        assert set(shown) == {int(x) for x in revealed}
        if table["night"]:
            assert table["deadline"] is None  # no countdown at night (D-G8)
        on_floor = [s["seat"] for s in table["seats"] if s["speaking"]]
        assert on_floor == ([state.step.seat] if state.step.kind == "speech" and not table["night"] else [])
        state, _ = engine.apply(state, command)
