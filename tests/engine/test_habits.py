"""The demo's simulated players (engine/habits.py) keep their habits in every preset: a team never shoots
one of its own, a checker never checks a seat twice, and every game ends."""

from __future__ import annotations

import pytest

import engine
from engine.commands import Act, Propose, Vote
from engine.habits import play_sensible_game
from engine.rules import Ruleset

SEEDS = range(8)


def _checks(ruleset: Ruleset, roles: list[str], command: Act) -> bool:
    abilities = ruleset.roles[roles[command.seat - 1]].abilities
    return any(ab.kind.startswith("check") and ab.act == command.act for ab in abilities)


@pytest.mark.parametrize("preset", engine.available_presets())
def test_sensible_players_keep_their_habits(preset: str) -> None:
    ruleset = engine.load_ruleset(preset)
    players = 10 if 10 in engine.player_counts(ruleset) else max(engine.player_counts(ruleset))
    for seed in SEEDS:
        game = play_sensible_game(ruleset, players, seed)
        assert game.final.over, (preset, seed)
        team = {seat: ruleset.roles[role].team for seat, role in enumerate(game.roles, start=1)}
        checked: set[tuple[int, int]] = set()
        state, _ = engine.new_game(ruleset, game.roles, seed)
        for command in game.commands:
            if isinstance(command, Propose):
                assert team[command.target] != team[command.seat], (preset, seed, "shot its own", command)
            if isinstance(command, Act) and _checks(ruleset, game.roles, command):
                others = {x for x in state.alive if x != command.seat}
                exhausted = others <= {t for s, t in checked if s == command.seat}
                for (
                    target
                ) in command.targets:  # a second check only of one who must check and has checked all
                    assert exhausted or (command.seat, target) not in checked, (preset, seed, command)
                    checked.add((command.seat, target))
            if isinstance(command, Vote) and team[command.seat] and command.candidate:
                teammates = {s for s, t in team.items() if t == team[command.seat]}
                assert command.candidate not in teammates or command.candidate == command.seat, (preset, seed)
            state, _ = engine.apply(state, command)
