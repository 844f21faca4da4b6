"""`blood` property tests with rich decks: for every player count 6–16, a deck by the book's table (D-B3)
at the upper bounds, rotating the lord, the special vampires and hunters, the werewolf and the voting
variant, so that every role and rule path is played by random legal games."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from soundness import assert_lines_render, sound_steps

import engine
from engine import rng
from engine.kinds.blood import pick_composition
from engine.simulate import play_random_game

LORDS = ["queen", "revenant", "prince", "count"]
SPECIAL_VAMPIRES = ["dampir", "lamia", "nosferatu", "bride", "neophyte", "ghoul"]
SPECIAL_HUNTERS = ["hunter_leader", "scout", "monk"]
WEREWOLVES = ["wolf", "kitsune"]


def deck(players: int, variant: int) -> tuple[list[str], list[str]]:
    """The roles (unshuffled) and the options of the ``variant``-th rich table for ``players``."""
    ruleset = engine.load_ruleset("blood")
    row = [int(x) for x in ruleset.params["table"][str(players)]]
    k = players + variant
    sv = [SPECIAL_VAMPIRES[(k + i) % 6] for i in range(row[3])]
    sh = [SPECIAL_HUNTERS[(k + i) % 3] for i in range(row[6])]
    werewolf = WEREWOLVES[k % 2] if players >= 10 and variant == 1 else None
    counts, _ = pick_composition(
        ruleset, players, lord=LORDS[k % 4], special_vampires=sv, special_hunters=sh, werewolf=werewolf
    )
    options = ["sequential_voting"] if k % 3 == 0 else []
    return [r for r, n in sorted(counts.items()) for _ in range(n)], options


CASES = [(n, v) for n in range(6, 17) for v in (0, 1)]


@pytest.mark.parametrize(("players", "variant"), CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_rich_random_games_are_sound(players: int, variant: int, seed: int) -> None:
    roles, options = deck(players, variant)
    seats, _ = rng.shuffled(rng.seed_state(seed), roles)
    ruleset = engine.load_ruleset("blood", options)
    game = play_random_game(ruleset, players, seed, roles=seats)

    # One execution a night at most (D-H17 at night: the lot makes it exactly one).
    executions = Counter(night for night, e in _by_night(game.events) if e.type == "executed")
    assert all(n == 1 for n in executions.values())

    for step in sound_steps(ruleset, seats, seed, game):
        for ev in step.events:
            if ev.type == "check" and ev.get("result") in ruleset.roles:
                assert ev.audience.seats == (ev.get("seat"),)
            if ev.type == "killed":
                # D-B8: the cycle's deaths are announced only as the night begins.
                assert any(e.type == "announce" and e.get("key") == "day_breaks" for e in step.events)


def _by_night(events: list[engine.Event]) -> list[tuple[int, engine.Event]]:
    out, night = [], 0
    for e in events:
        if e.type == "announce" and e.get("key") == "day_breaks":
            night += 1
        out.append((night, e))
    return out


def test_every_role_is_played_by_the_rich_decks() -> None:
    roles = {r for n, v in CASES for r in deck(n, v)[0]}
    assert roles == set(engine.load_ruleset("blood").roles)


@pytest.mark.parametrize(("players", "variant"), [(n, v) for n in (8, 12, 16) for v in (0, 1)])
def test_every_host_line_renders_with_its_params(players: int, variant: int) -> None:
    """Issue 3 part 6: every event that a phrase needs carries the data for its placeholders."""
    roles, options = deck(players, variant)
    ruleset = engine.load_ruleset("blood", options)
    for seed in range(3):
        seats, _ = rng.shuffled(rng.seed_state(seed), roles)
        assert_lines_render(play_random_game(ruleset, players, seed, roles=seats).events)


def test_simulate_command_line() -> None:
    """`python -m engine simulate --ruleset blood` plays random games and prints wins per side."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "simulate",
            "--ruleset",
            "blood",
            "--games",
            "20",
            "--option",
            "wolf",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "blood, 10 players, 20 games" in result.stdout
    assert "vampires" in result.stdout or "hunters" in result.stdout
