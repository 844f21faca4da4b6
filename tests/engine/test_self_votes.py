"""Issue 15 (3): «the simulator and `queries.voters` offer self-votes that the variant forbids (so such a
ballot can also never close early)». Where the rules say «нельзя … голосовать за себя» (001; a club's
variant with ``voting.self_vote = false``), the candidate is not among the voters of his own ballot."""

from __future__ import annotations

from pathlib import Path

from helpers import Table

from engine import Vote, load_ruleset, queries
from engine.simulate import play_random_game, simulate

CLUB = str(Path(__file__).resolve().parents[2] / "examples" / "club-variant.toml")
SEATS = ["mafioso", "mafioso", "commissar", "civilian", "civilian", "civilian", "civilian"]


def _on_the_ballot(t: Table) -> None:
    t.classic_day(nominations=[(3, 1), (4, 2)], votes=None)
    assert t.state.step.kind == "vote" and t.state.step.seat == 1


def test_the_candidate_is_no_voter_of_his_own_ballot_in_the_club_variant() -> None:
    """examples/club-variant.toml: «no self-votes» — seat 1 on the ballot is not offered a vote for
    himself; the others are, and once they have all voted nobody is left to wait for."""
    t = Table(CLUB, SEATS)
    t.to_day()
    t.advance()  # day 1 of classic is the introduction; the first vote is on day 2
    t.to_night()
    t.to_day()
    _on_the_ballot(t)
    assert queries.voters(t.state) == frozenset({2, 3, 4, 5, 6, 7})
    t.send(*[Vote(seat=x, candidate=1) for x in (2, 3, 4, 5, 6, 7)])
    assert queries.voters(t.state) == frozenset()


def test_classic_still_lets_the_candidate_vote_for_himself() -> None:
    """002 has no such rule: classic's candidate may raise his hand on his own ballot."""
    t = Table("classic", SEATS)
    t.to_night()
    t.to_day()
    _on_the_ballot(t)
    assert 1 in queries.voters(t.state)


def test_the_club_variant_s_last_candidate_gets_no_vote_of_his_own() -> None:
    """002: «Голоса игроков, которые не проголосовали, отдаются последнему кандидату» — but where
    self-votes are forbidden the last candidate's own abstention is not counted for him."""
    t = Table(CLUB, SEATS)
    t.to_night()
    t.to_day()
    _on_the_ballot(t)
    t.advance()  # nobody votes for 1
    events = t.advance()  # nobody votes for 2 either: the abstainers go to 2, but not 2 himself
    added = [e for e in events if e.type == "abstainers_added"]
    assert added and added[0].data["seats"] == [1, 3, 4, 5, 6, 7]


def test_the_simulator_plays_the_club_variant() -> None:
    """`python -m engine simulate --ruleset examples/club-variant.toml` crashed with an AssertionError
    (the simulator sent a forbidden self-vote or self-nomination); every choice is now legal."""
    ruleset = load_ruleset(CLUB)
    wins = simulate(ruleset, 10, 40, 1)
    assert sum(wins.values()) == 40
    for seed in range(10):
        game = play_random_game(ruleset, 8, seed)
        ballots = [e for e in game.events if e.type == "voted"]
        assert all(e.data["seat"] != e.data["candidate"] for e in ballots)


def test_city_offers_no_self_vote_that_would_earn_a_foul() -> None:
    """001: «нельзя выставлять себя, голосовать за себя … за это ставится замечание» — the simulator no
    longer earns that foul by sending the self-vote, and the city's ballot can close early."""
    ruleset = load_ruleset("city")
    for seed in range(10):
        game = play_random_game(ruleset, 10, seed)
        assert not [e for e in game.events if e.type == "refused" and e.data["reason"] == "self_vote"]
