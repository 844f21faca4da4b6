"""``abilities_now`` answers from a table kept with the ruleset where nothing but the night counts (issue 18
item 5): at every night step of random games, for every seat, it gives what the rules give."""

from __future__ import annotations

import pytest

import engine
from engine.abilities import _allowed, _team_may_target, abilities_now, legal_targets, team_targets
from engine.game import apply
from engine.simulate import play_random_game
from engine.state import GameState


def _abilities_by_the_rules(state: GameState, seat: int, step_id: str) -> list[object]:
    """abilities_now as RULESETS.md states it: from its night on, within its uses, not after the shot it
    must not follow (city D-C8)."""
    out = []
    for ab in state.ruleset.ability_for_step(state.role_of(seat), step_id):
        used = next((n for x, st, n in state.uses if x == seat and st == step_id), 0)
        after = ab.params.get("not_after")
        if ab.from_night > state.night or (ab.uses and used >= ab.uses):
            continue
        if after and any(st == after for _, st, _ in state.ledger.chosen):
            continue
        out.append(ab)
    return out


@pytest.mark.parametrize(
    ("preset", "options"),
    [("simple", ()), ("city", ("ranger",)), ("classic", ("maniac", "doctor")), ("blood", ())],
)
def test_abilities_now_at_every_night_step(preset: str, options: tuple[str, ...]) -> None:
    """abilities_now answers from a table kept with the ruleset where nothing but the night counts."""
    ruleset = engine.load_ruleset(preset, options)
    for seed in range(6):
        game = play_random_game(ruleset, 12 if preset in ("simple", "classic") else 10, seed)
        state, _ = engine.new_game(ruleset, game.roles, seed)
        for command in game.commands:
            if state.step.kind == "night":
                for seat in range(1, state.n_seats + 1):
                    expected = _abilities_by_the_rules(state, seat, state.step.night_step)
                    assert list(abilities_now(state, seat, state.step.night_step)) == expected
            state, _ = apply(state, command)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("simple", ()),
        ("city", ("ranger",)),
        ("classic", ("maniac", "doctor")),
        ("classic", ("judges",)),
        ("hobbyworld", ("more_specials", "maniac")),
        ("blood", ()),
        ("fiim", ()),
    ],
)
def test_a_target_is_allowed_where_it_is_among_the_legal_targets(
    preset: str, options: tuple[str, ...]
) -> None:
    """An act's target is checked without the sorted list of legal targets (abilities._allowed) and a team's
    without the list of the living (abilities._team_may_target), and the legal targets are made from the
    living a caller keeps (the simulator): at every night step of random games, for every seat, ability and
    seat at the table (and one past it), the same answers as the lists'."""
    ruleset = engine.load_ruleset(preset, options)
    players = 12 if preset in ("simple", "classic") else 10
    for seed in range(4):
        game = play_random_game(ruleset, players, seed)
        state, _ = engine.new_game(ruleset, game.roles, seed)
        for command in game.commands:
            if state.step.kind == "night":
                seats = range(0, state.n_seats + 2)
                team = team_targets(state)
                assert [t for t in seats if _team_may_target(state, t)] == [t for t in seats if t in team]
                for seat in range(1, state.n_seats + 1):
                    for ab in state.ruleset.ability_for_step(state.role_of(seat), state.step.night_step):
                        legal = legal_targets(state, seat, ab)
                        assert [t for t in seats if _allowed(state, seat, ab, t)] == legal
                        assert legal_targets(state, seat, ab, state.living()) == legal
            state, _ = apply(state, command)
