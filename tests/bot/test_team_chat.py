"""Which games get a team's night chat: the preset's data decides, so a variant keeps its parent's."""

from __future__ import annotations

from pathlib import Path

import engine
from engine.rng import Rng
from engine.simulate import deal, random_commands
from mafiabot.game.team_chat import awake_team, has_chat


def test_a_variant_of_city_keeps_the_mafia_chat(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('extends = "city"\nid = "club"\ntitle = "Клубная"\n', encoding="utf-8")
    variant = engine.load_ruleset(str(path))
    roles = ["don", "mafioso", "city_sheriff", "doctor", "civilian", "civilian", "civilian"]
    state, _ = engine.new_game(variant, roles, seed=1)
    assert has_chat(state)
    classic, _ = engine.new_game(engine.load_ruleset("classic"), ["mafioso", "commissar", "civilian"], seed=1)
    assert not has_chat(classic)


def test_the_chat_is_open_only_while_a_team_with_chat_is_awake() -> None:
    """Every state of random games: city's chat is open at its mafia's steps; hobbyworld has none."""
    for preset, expect in (("city", {"mafia"}), ("hobbyworld", set())):
        rules, seen = engine.load_ruleset(preset), set()
        for seed in range(3):
            rnd = Rng(seed)
            state, _ = engine.new_game(rules, deal(rules, 9, seed), seed)
            while not state.over:
                for command in random_commands(state, rnd):
                    state, _ = engine.apply(state, command)
                    seen.add(awake_team(state))
        assert seen - {None} == expect, (preset, seen)
