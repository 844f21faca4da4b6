"""The random players (engine/simulate.py) draw few values, but their choices keep the odds they always had:
each legal option uniform, with the chances the module names; fresh players at every call (random_commands,
as the bot's benchmarks and the demo's habits call them) and one table's players through a whole game
(play_random_game) alike."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest

import engine
from engine.commands import Command, Foul, Vote
from engine.game import apply_in_place, deal, new_game
from engine.rng import Rng
from engine.simulate import RandomPlayers, play_random_game, players_rng, random_commands
from engine.state import Draft, thaw

TABLES = {"classic": 10, "simple": 12, "hobbyworld": 10, "city": 10, "blood": 10, "fiim": 10}


@pytest.mark.parametrize("preset", TABLES)
def test_fresh_players_at_every_call_send_legal_commands(preset: str) -> None:
    """random_commands, called on every state of a game with no memory of the calls before: every command
    it sends is legal (apply_in_place would raise), a ballot's voters among them."""
    ruleset = engine.load_ruleset(preset)
    for seed in range(4):
        rnd = Rng(seed)
        state, events = new_game(ruleset, deal(ruleset, TABLES[preset], seed), seed)
        s = thaw(state)
        calls = 0
        while s.phase != "over":
            apply_in_place(s, random_commands(s, rnd), events)
            calls += 1
            assert calls < 5_000


def _ballot(preset: str, size: int) -> Draft:
    """A state at the first call of a ballot of ``size`` candidates, nobody deprived of his vote."""
    ruleset = engine.load_ruleset(preset)
    for seed in range(200):
        game = play_random_game(ruleset, TABLES[preset], seed)
        state, events = new_game(ruleset, game.roles, seed)
        s = thaw(state)
        for command in game.commands:
            step = s.step
            if step.kind == "vote" and len(step.candidates) == size and not s.ballots and not s.no_vote:
                return s
            apply_in_place(s, [command], events)
    raise AssertionError(f"no ballot of {size} in {preset}")


def _expected(voter: int, candidates: tuple[int, ...], self_vote: bool) -> list[Fraction]:
    """The chance that ``voter`` votes for each candidate when each call asks him with the chance
    1 / (candidates still to call), as the simulator always did: uniform, but a candidate who may not vote
    for himself is not asked at his own call, so his share goes to the candidates after him."""
    k = len(candidates)
    if self_vote or voter not in candidates:
        return [Fraction(1, k)] * k
    j = candidates.index(voter)
    after = k - j - 1
    return [
        Fraction(1, k) if i < j else Fraction(0) if i == j else Fraction(1, k) * (1 + Fraction(1, after))
        for i in range(k)
    ]


@pytest.mark.parametrize("preset", ["city", "simple"])
@pytest.mark.parametrize("fresh", [False, True], ids=["one-table", "fresh-each-call"])
def test_a_voter_picks_a_uniform_candidate_of_those_left(preset: str, fresh: bool) -> None:
    """A ballot of four, played 3,000 times from its first call: each voter's votes for each candidate
    are within 0.04 of the chances the simulator always gave (five standard errors)."""
    start = _ballot(preset, 4)
    ruleset = start.ruleset
    candidates = start.step.candidates
    runs = 3_000
    tally: Counter[tuple[int, int]] = Counter()
    for run in range(runs):
        rnd = Rng(run * 1_000_003 + 1)
        players = RandomPlayers(ruleset)
        players.fouls = False
        s, out = copy.copy(start), []
        while s.step.kind == "vote" and s.step.candidates is candidates:
            commands = random_commands(s, rnd) if fresh else players.commands(s, rnd)
            commands = [c for c in commands if not isinstance(c, Foul)] or commands[-1:]
            tally.update((c.seat, c.candidate) for c in commands if isinstance(c, Vote))
            apply_in_place(s, commands, out)
    for voter in sorted(start.alive):
        seen = [tally[voter, c] / runs for c in candidates]
        wanted = _expected(voter, candidates, ruleset.voting.self_vote)
        assert all(abs(x - float(w)) < 0.04 for x, w in zip(seen, wanted, strict=True)), (voter, seen, wanted)


def test_a_foul_comes_at_one_call_in_a_hundred() -> None:
    """The players hold the number of calls until the next foul (a geometric draw): over whole games, the
    share of calls that send a foul is the chance 0.01 of each call (±0.002: five standard errors)."""
    ruleset = engine.load_ruleset("simple")
    calls = fouls = 0
    for seed in range(200):
        players, rnd = RandomPlayers(ruleset), players_rng(seed)
        state, events = new_game(ruleset, deal(ruleset, 12, seed), seed)
        s = thaw(state)
        while s.phase != "over":
            commands: Sequence[Command] = players.commands(s, rnd)
            calls += 1
            fouls += isinstance(commands[0], Foul)
            apply_in_place(s, commands, events)
    assert calls > 20_000
    assert abs(fouls / calls - 0.01) < 0.002, fouls / calls


def test_games_of_neighbouring_seeds_draw_apart() -> None:
    """Rng(seed + 1) draws what Rng(seed) draws after its first value; the players of games seed and
    seed + 1 do not share their draws."""
    assert Rng(1).random() == (lambda r: (r.random(), r.random())[1])(Rng(0))
    first = [players_rng(seed).random() for seed in range(50)]
    second = [(lambda r: (r.random(), r.random())[1])(players_rng(seed)) for seed in range(50)]
    assert not set(first) & set(second)
