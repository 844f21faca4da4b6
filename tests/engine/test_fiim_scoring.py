"""FIIM tournament scoring (docs/rules/FIIM.md F.14, D-FI15) and a tournament of three games."""

from __future__ import annotations

import csv
import io

import pytest
from fiim_helpers import DON, M2, M3, SHERIFF, day_one, fiim

from engine import Act, AwardVictory, Foul, Remove
from engine.errors import IllegalCommand
from engine.kinds.fiim_scoring import (
    Standing,
    TournamentGame,
    check_extra,
    place_key,
    places,
    profile_of,
    score_game,
    standings,
    standings_csv,
    tie_breaks_of,
)

PLAYERS = list("ABCDEFGHIJ")
ROTATED = PLAYERS[1:] + PLAYERS[:1]  # game 2: seat 1 is B … seat 10 is A


def _town_win_with_best_move() -> TournamentGame:
    """Seat 7 is shot on the first night and names 1, 2, 4 (two blacks); the blacks are then removed."""
    t = day_one()
    t.day()
    t.shoot({DON: 7, M2: 7, M3: 7})
    t.send(Act(seat=7, targets=(1, 2, 4)))
    t.send(*[Remove(seat=x, reason="insult") for x in (DON, M2, M3)])
    assert t.s.winners == ("town",)
    return TournamentGame(PLAYERS, t.s, t.events)


def _team_defeat_of_the_reds() -> TournamentGame:
    t = day_one()
    t.send(AwardVictory(seat=SHERIFF, reason="bet"))
    return TournamentGame(ROTATED, t.s, t.events, extra={1: 0.3})


def _draw_after_a_fourth_foul() -> TournamentGame:
    t = fiim()
    t.send(*[Foul(seat=9, reason="night")] * 4)
    while not t.s.over:
        t.day()
        if not t.s.over:
            t.shoot({})
    assert t.s.draw
    return TournamentGame(PLAYERS, t.s, t.events)


def test_one_game_scores_win_best_move_and_penalties() -> None:
    """F.14: «Win (every member of the winning team, dead or alive) +1»; «Best move: … 2 of 3 black
    +0.25»; «Removed (disqualified) −0.5»."""
    g = _town_win_with_best_move()
    scores = {s.seat: s for s in score_game(g.state, g.events, g.players)}
    assert scores[7].total == 1.25 and scores[7].best_move == 0.25 and scores[7].first_night_victim
    assert [scores[x].total for x in (1, 2, 3)] == [-0.5, -0.5, -0.5]
    assert {scores[x].total for x in (4, 5, 6, 8, 9, 10)} == {1.0}


def test_three_of_three_is_04_and_a_black_victims_move_scores_nothing() -> None:
    """F.14: «3 of 3 named seats black (red first-night victim) +0.4»; D-FI13: «a black victim's best move
    is recorded but scores 0»."""
    t = day_one()
    t.day()
    t.shoot({DON: 7, M2: 7, M3: 7})
    t.send(Act(seat=7, targets=(1, 2, 3)))
    t.send(AwardVictory(seat=5, reason="oath"))
    scores = score_game(t.s, t.events, PLAYERS)
    assert scores[6].best_move == 0.4
    t = day_one()
    t.day()
    t.shoot({DON: M2, M2: M2, M3: M2})
    t.send(Act(seat=M2, targets=(1, 3, 4)))
    t.send(AwardVictory(seat=5, reason="oath"))
    assert score_game(t.s, t.events, PLAYERS)[M2 - 1].best_move == 0.0


def test_four_fouls_and_team_defeat_cost_half_a_point() -> None:
    """F.14: «Left by 4 fouls −0.5»; D-FI15: «team defeat: the offender −0.5 as a removal»."""
    g = _draw_after_a_fourth_foul()
    scores = score_game(g.state, g.events, g.players)
    assert scores[8].penalty == -0.5 and not any(s.won for s in scores)
    g = _team_defeat_of_the_reds()
    scores = score_game(g.state, g.events, g.players, g.extra)
    assert scores[SHERIFF - 1].total == -0.5
    assert scores[0].total == 1.3  # seat 1 (the don) won and has the judge's 0.3


def test_extra_points_are_checked() -> None:
    """D-FI15: «any real number in [−1, +1] step 0.05»; bad input gets a clear message."""
    prof = profile_of(fiim().s)
    assert check_extra(-0.35, prof) == -0.35
    for bad in (1.05, -2.0, 0.33):
        with pytest.raises(IllegalCommand):
            check_extra(bad, prof)
    g = _team_defeat_of_the_reds()
    with pytest.raises(IllegalCommand):
        score_game(g.state, g.events, g.players, {11: 0.1})
    with pytest.raises(IllegalCommand):
        score_game(g.state, g.events, g.players[:9])
    with pytest.raises(IllegalCommand):
        score_game(fiim().s, [], PLAYERS)


def test_a_tournament_of_three_games() -> None:
    games = [_town_win_with_best_move(), _team_defeat_of_the_reds(), _draw_after_a_fourth_foul()]
    table = standings(games)
    assert [(s.player, s.total) for s in table] == [
        ("D", 2.0),
        ("G", 1.25),
        ("F", 1.0),
        ("H", 1.0),
        ("J", 1.0),
        ("B", 0.8),
        ("C", 0.5),
        ("E", 0.5),
        ("I", 0.5),
        ("A", -0.5),
    ]
    assert all(s.games == 3 for s in table)
    rows = list(csv.reader(io.StringIO(standings_csv(table))))
    assert rows[0] == [
        "place",
        "player",
        "games",
        "wins",
        "win",
        "best_move",
        "penalty",
        "extra",
        "ci",
        "total",
        "additional",
        "role_wins",
        "first_night",
    ]
    assert rows[1] == ["1", "D", "3", "2", "2", "0", "0", "0", "0", "2", "0", "1", "0"]
    assert rows[6] == ["6", "B", "3", "1", "1", "0", "-0.5", "0.3", "0", "0.8", "-0.2", "1", "0"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "3", "3", "6", "7", "7", "7", "10"]
    assert len(rows) == 11


def _row(
    player: str, wins: int = 1, extra: float = 0.0, role_wins: int = 0, first_night: int = 0
) -> Standing:
    return Standing(
        player,
        games=2,
        wins=wins,
        win_points=float(wins),
        best_move=0.0,
        penalty=0.0,
        extra=extra,
        ci=0.0,
        total=wins + extra,
        role_wins=role_wins,
        first_night=first_night,
    )


def test_equal_totals_are_placed_by_the_tie_breaks() -> None:
    """FIIM.md F.14 gives the points but no order for equal totals; the profile's ``tie_breaks`` follow
    mafiaratings' default sorting "(epg)wsk" ([MR-scoring] include/scoring.php): the additional points
    (extra, penalty, best move), then wins, then wins as sheriff or don, then first-night deaths; rows
    equal in all of them share a place."""
    assert tie_breaks_of(fiim().s) == ("additional", "wins", "role_wins", "first_night")
    rows = [
        _row("a"),
        _row("e"),
        _row("b", wins=0, extra=1.0),
        _row("c", role_wins=1),
        _row("d", role_wins=1, first_night=1),
    ]
    table = sorted(rows, key=place_key)
    assert [r.player for r in table] == ["b", "d", "c", "a", "e"]
    assert places(table) == [1, 2, 3, 4, 4]
    by_wins = sorted(rows, key=lambda r: place_key(r, ("wins",)))
    assert [r.player for r in by_wins] == ["a", "c", "d", "e", "b"]


def test_first_night_compensation_is_an_option() -> None:
    """D-FI15: Ci «for red first-night victims whose team lost … off by default»; profile mr45 = (1.2,
    0.18, 0.3)."""
    t = day_one()
    t.day()
    t.shoot({DON: 8, M2: 8, M3: 8})
    t.advance()  # no best move
    t.send(AwardVictory(seat=5, reason="oath"))
    game = TournamentGame(PLAYERS, t.s, t.events)
    assert next(s for s in standings([game]) if s.player == "H").ci == 0.0
    assert next(s for s in standings([game], ci="mr45") if s.player == "H").ci == 0.3
    # A tournament's scoring profile may carry it: fiim_mr19_ci is fiim_mr19 with Ci mr45 (data, D-FI15).
    assert next(s for s in standings([game], "fiim_mr19_ci") if s.player == "H").ci == 0.3
    plain, with_ci = (score_game(t.s, t.events, PLAYERS, profile=p) for p in ("fiim_mr19", "fiim_mr19_ci"))
    assert plain == with_ci  # the same points per game
    with pytest.raises(IllegalCommand):
        standings([game], ci="nope")
