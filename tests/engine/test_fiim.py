"""`fiim` (docs/rules/FIIM.md): night 0, the shot, the checks, speeches and nominations, the vote."""

from __future__ import annotations

from fiim_helpers import BLACKS, DON, M2, M3, SHERIFF, day_one, fiim
from helpers import brief

from engine import Act, Nominate, Pass, Propose, Vote, queries
from engine.errors import IllegalCommand


def test_night_zero_is_the_blacks_meeting_then_the_don_and_sheriff_are_woken() -> None:
    """F.4 / D-FI4: «the three blacks unmask and see each other — the only time in the game they open
    eyes together»; «Exactly 1 minute»; «no kills, no checks»; «→ don woken 10 s, told nothing new … →
    sheriff woken 10 s (acquaintance only) → Day 1»."""
    t = fiim()
    assert t.s.step.kind == "meet" and t.s.step.seconds == 60
    assert queries.awake(t.s) == set(BLACKS)
    met = [e for e in t.events if e.type == "team_members"]
    assert sorted(e.audience.seats for e in met) == [(1,), (2,), (3,)]
    assert all(e.data["roles"] == {"1": "don", "2": "mafioso", "3": "mafioso"} for e in met)
    new = t.until(lambda s: s.day == 1)
    steps = [(e.data["step"], e.data["seconds"], e.phrase) for e in new if e.type == "night_step"]
    assert steps == [("don_meets", 10, "fiim_don_meets"), ("sheriff_meets", 10, "fiim_sheriff_meets")]
    assert [e.audience.seats for e in new if e.type == "awake"] == [(DON,), (SHERIFF,)]
    assert not [e for e in t.events if e.type in ("check", "killed", "proposal")]
    assert t.s.alive == frozenset(range(1, 11))


def test_every_living_black_on_one_seat_kills() -> None:
    """F.6: «If all of them shoot the same player, that player leaves at the end of the night»."""
    t = day_one()
    t.day()
    new = t.shoot({DON: 7, M2: 7, M3: 7})
    assert brief(new, "killed") == [("killed", 7)]
    assert 7 not in t.s.alive


def test_different_picks_or_a_missing_pick_are_a_miss_nobody_is_told() -> None:
    """F.6: «If any black shoots a different player … or does not shoot, it is a miss («промах») and nobody
    leaves»; D-FI5: «Nobody is told whether a miss happened; the morning says only who left»."""
    for picks in ({DON: 7, M2: 7, M3: 8}, {DON: 7, M2: 7}):
        t = day_one()
        t.day()
        new = t.shoot(picks)
        assert t.s.alive == frozenset(range(1, 11))
        public = [e for e in new if e.audience.kind == "public"]
        assert "mafia_missed" not in {e.type for e in public}
        assert "city_nobody_left" in [e.phrase for e in public]
        assert all(not e.audience.seats for e in new if e.type == "team_missed")  # the host's log only


def test_a_blacks_pick_is_seen_by_him_alone() -> None:
    """D-FI5: «no black sees another's pick»."""
    t = day_one()
    t.day()
    t.to_step("mafia")
    new = t.send(Propose(seat=M2, target=9))
    picks = [e for e in new if e.type == "proposal"]
    assert [e.audience.seats for e in picks] == [(M2,)]


def test_blacks_may_shoot_their_own_or_themselves() -> None:
    """D-FI5: «Targets are unrestricted (any living seat, own team and self included)»."""
    t = day_one()
    t.day()
    t.shoot({DON: M2, M2: M2, M3: M2})
    assert M2 not in t.s.alive


def test_the_dons_and_sheriffs_checks() -> None:
    """F.6: the don «nods (this is the sheriff) or shakes (not)»; the sheriff is answered «black» for
    `mafioso` or `don`, «red» otherwise. One check each per night."""
    t = day_one()
    t.day()
    new = t.shoot({}, [Act(seat=DON, targets=(SHERIFF,)), Act(seat=SHERIFF, targets=(M3,))])
    checks = [e for e in new if e.type == "check"]
    assert [(e.audience.seats, e.data["target"], e.data["result"]) for e in checks] == [
        ((DON,), SHERIFF, True),
        ((SHERIFF,), M3, "mafia"),
    ]
    assert [e.phrase for e in checks] == ["priv_don_sheriff_yes", "fiim_sheriff_black"]


def test_a_shot_checker_still_checks_and_dead_checkers_are_called() -> None:
    """D-FI6: «A checker shot this night still checks»; «the don and sheriff steps always run»."""
    t = day_one()
    t.day()
    new = t.shoot({DON: SHERIFF, M2: SHERIFF, M3: SHERIFF}, [Act(seat=SHERIFF, targets=(DON,))])
    assert [e.data["result"] for e in new if e.type == "check"] == ["mafia"]
    t.day()
    t.shoot({})
    assert [e.data["step"] for e in t.events if e.type == "night_step"][-3:] == ["mafia", "don", "sheriff"]


def test_speeches_rotate_the_opener() -> None:
    """F.7 / D-FI7: «day 1 seat 1; day n the next living seat after day n−1's first speaker, skipping
    seats that are gone (including tonight's victim)»; 60 s each."""
    t = day_one()
    t.day()
    speeches = [e.data for e in t.events if e.type == "speech" and e.data["purpose"] == "day"]
    assert [d["seat"] for d in speeches] == list(range(1, 11))
    assert {d["seconds"] for d in speeches} == {60}
    t.shoot({DON: 2, M2: 2, M3: 2})
    t.day()
    order = [e.data["seat"] for e in t.events if e.type == "speech" and e.data["purpose"] == "day"]
    assert order[10:] == [3, 4, 5, 6, 7, 8, 9, 10, 1]


def test_nominations_in_ones_own_minute_one_each_none_twice() -> None:
    """F.7: «only during one's own minute»; «At most one nomination per player per day»; «Nominating an
    already nominated player is not accepted»; D-FI8: self-nomination allowed."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    assert t.s.step.seat == 1
    try:
        t.send(Nominate(seat=2, target=5))
        raise AssertionError("a nomination out of turn was accepted")
    except IllegalCommand:
        pass
    t.send(Nominate(seat=1, target=5))
    for again in (Nominate(seat=1, target=6),):
        try:
            t.send(again)
            raise AssertionError("a second nomination was accepted")
        except IllegalCommand:
            pass
    t.send(Pass(seat=1))
    try:
        t.send(Nominate(seat=2, target=5))
        raise AssertionError("a nominated player was nominated again")
    except IllegalCommand:
        pass
    t.send(Nominate(seat=2, target=2))
    assert t.s.nominations == ((1, 5), (2, 2))


def test_day_one_with_one_nominee_has_no_vote() -> None:
    """F.8: «Day 1 with exactly 1 nominee → no vote, night falls»; «0 nominees → no vote»."""
    t = day_one()
    new = t.day(nominations=[(1, 5)])
    assert brief(new, "no_elimination", "ballot", "executed") == [("no_elimination", "no_vote")]
    assert t.s.phase == "night"


def test_later_a_lone_nominee_leaves_with_his_minute() -> None:
    """F.8: «Day 2+ with exactly 1 nominee → that player leaves»; F.9: a 1-minute last word."""
    t = day_one()
    t.day()
    t.shoot({})
    new = t.day(nominations=[(5, 8)])
    assert brief(new, "lone_nominee", "executed") == [("lone_nominee", 8), ("executed", 8)]
    words = [e.data for e in new if e.type == "speech" and e.data["purpose"] == "farewell"]
    assert words == [{"seat": 8, "purpose": "farewell", "seconds": 60}]
    # F.9: «Последнее слово … Одна минута.» (the city's farewell line says thirty seconds)
    assert [e.phrase for e in new if e.type == "speech" and e.data["purpose"] == "farewell"] == [
        "fiim_last_word"
    ]
    assert "role" not in next(e for e in new if e.type == "executed").data  # F.10


def test_everybody_votes_unused_votes_go_to_the_last_nominee() -> None:
    """F.8 ballot 3: «whoever has not voted when the last candidate is reached has his vote given to the
    last candidate»; 4: «The single candidate with the most votes leaves»."""
    t = day_one()
    new = t.day(nominations=[(1, 5), (2, 6), (3, 7)], votes=[[(5, [1, 2, 3, 4]), (6, [5, 6])]])
    counts = [(e.data["candidate"], e.data["count"]) for e in new if e.type == "vote_count"]
    assert counts[:3] == [(5, 4), (6, 2), (7, 4)]
    assert brief(new, "tie")[:1] == [("tie", (5, 7))]


def test_a_second_vote_is_refused_without_a_foul() -> None:
    """F.8 ballot 3 / D-FI9: «each living player may press "за" once in the whole ballot; a second vote is
    refused (not fouled)»."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    t.until(lambda s: s.step.kind == "vote")
    t.send(Vote(seat=9, candidate=5))
    t.advance()
    try:
        t.send(Vote(seat=9, candidate=6))
        raise AssertionError("a second vote was accepted")
    except IllegalCommand:
        pass
    assert t.s.fouls == ()


def test_plurality_winner_leaves_and_gets_last_words() -> None:
    t = day_one()
    new = t.day(nominations=[(1, 5), (2, 6)], votes=[[(5, [1, 2, 3, 4, 6, 7])]])
    assert brief(new, "executed") == [("executed", 5)]
    assert [e.data["seconds"] for e in new if e.type == "speech" and e.data["purpose"] == "farewell"] == [60]
