"""`fiim` (docs/rules/FIIM.md): ties and the lift, the best move, fouls over the whole game, removals,
team defeat, the draw — each D-FI decision with the test that holds it."""

from __future__ import annotations

import pytest
from fiim_helpers import DON, M2, M3, SHERIFF, day_one, fiim
from helpers import brief

from engine import Act, AwardVictory, Foul, Nominate, OnRecord, Pass, Remove, queries
from engine.errors import IllegalCommand


def test_timers_are_the_fiim_ones() -> None:
    """F.12: meeting 60 s, shot 15 s, checks 15 s, speech 60 s, tie speech 30 s, last words 60 s, best
    move 20 s, 5 s per candidate (D-FI9)."""
    r = fiim().ruleset
    timers = (
        "meet",
        "group_kill",
        "night_step",
        "speech",
        "tie_word",
        "farewell",
        "night_words",
        "best_move",
    )
    assert [r.timer(k) for k in timers] == [60, 15, 15, 60, 30, 60, 60, 20]
    assert (r.timer("vote"), r.timer("short_speech")) == (5, 30)


def _tie_to_lift(t, lift):  # type: ignore[no-untyped-def]
    return t.day(
        nominations=[(1, 5), (2, 6)],
        votes=[[(5, [1, 2, 3, 4, 5])], [(5, [1, 2, 3, 4, 5])]],
        lift=lift,
    )


def test_a_tie_gets_30_s_speeches_a_revote_then_the_lift() -> None:
    """F.8 ties: «each tied player speaks 30 s, in nomination order»; «Revote among the tied only, same
    order»; «The same result twice in a row … → the lift vote»; D-FI10: «yes-votes must exceed half of all
    living players»; F.9: each of a lifted group gets his last word."""
    t = day_one()
    new = _tie_to_lift(t, lift=[1, 2, 3, 4, 7, 8])
    words = [
        (e.data["seat"], e.data["seconds"])
        for e in new
        if e.type == "speech" and e.data["purpose"] == "tie_word"
    ]
    assert words == [(5, 30), (6, 30)]
    assert brief(new, "ballot") == [
        ("ballot", 5, "main"),
        ("ballot", 6, "main"),
        ("ballot", 5, "after_words"),
        ("ballot", 6, "after_words"),
    ]
    assert brief(new, "lift_ballot", "lift_count", "leave_together") == [
        ("lift_ballot", (5, 6)),
        ("lift_count", 6, 10, True),
        ("leave_together", (5, 6)),
    ]
    farewells = [e.data["seat"] for e in new if e.type == "speech" and e.data["purpose"] == "farewell"]
    assert farewells == [5, 6] and t.s.alive == frozenset({1, 2, 3, 4, 7, 8, 9, 10})


def test_the_lift_fails_on_half_of_the_table() -> None:
    """F.8 ties 4: «if most vote no or it is equal, everybody stays and night falls»."""
    t = day_one()
    new = _tie_to_lift(t, lift=[1, 2, 3, 4, 7])
    assert brief(new, "lift_count", "no_elimination") == [
        ("lift_count", 5, 10, False),
        ("no_elimination", "lift_failed"),
    ]
    assert len(t.s.alive) == 10 and t.s.phase == "night"


def test_a_different_tie_repeats_the_speeches_and_the_revote() -> None:
    """F.8 ties 3: «A tie between a *different* set (e.g. fewer players) → new round of 30 s speeches and
    revote among that set; repeat»."""
    t = day_one()
    new = t.day(
        nominations=[(1, 5), (2, 6), (3, 7), (4, 8)],
        votes=[
            [(5, [1, 2, 3]), (6, [4, 5, 6]), (7, [7])],  # 3-3-1-3: 5, 6 and 8 tied
            [(5, [1, 2, 3, 4, 5]), (6, [6, 7, 8, 9, 10])],  # 5-5-0: now 5 and 6
            [(5, [1, 2, 3, 4, 5])],  # 5-5 again: the lift
        ],
        lift=[],
    )
    assert brief(new, "tie") == [("tie", (5, 6, 8)), ("tie", (5, 6)), ("tie", (5, 6))]
    words = [e.data["seat"] for e in new if e.type == "speech" and e.data["purpose"] == "tie_word"]
    assert words == [5, 6, 8, 5, 6]
    assert brief(new, "lift_ballot") == [("lift_ballot", (5, 6))]


def test_a_tie_of_the_whole_table_sends_it_to_the_night() -> None:
    """F.8 ties 5: «If the tie covers every living player … no lift vote: night falls»."""
    t = day_one()
    nominations = [(x, x % 10 + 1) for x in range(1, 11)]
    votes = [[(c, [c]) for c in [x % 10 + 1 for x in range(1, 10)]]]
    new = t.day(nominations=nominations, votes=votes)
    assert brief(new, "tie") == [("tie", tuple(x % 10 + 1 for x in range(1, 11)))]
    assert brief(new, "no_elimination", "lift_ballot") == [("no_elimination", "tie")]


def test_revote_order_may_be_reversed() -> None:
    """D-FI9: «Revotes use the same order (`fiim.revote_order = "same"` | `"reverse"`)»; the tie speeches
    stay in nomination order."""
    t = day_one("revote_reverse")
    new = t.day(nominations=[(1, 5), (2, 6)], votes=[[(5, [1, 2, 3, 4, 5])], [(6, [1, 2, 3, 4, 5])]], lift=[])
    words = [e.data["seat"] for e in new if e.type == "speech" and e.data["purpose"] == "tie_word"]
    assert words == [5, 6]
    assert brief(new, "ballot")[2:] == [("ballot", 6, "after_words"), ("ballot", 5, "after_words")]


def _four_left(*options: str):  # type: ignore[no-untyped-def]
    """Removals in night 0 leave the don and three reds (1, 4, 5, 6); day 1's vote is cancelled by them."""
    t = fiim(*options)
    t.send(*[Remove(seat=x, reason="insult") for x in (M2, M3, 7, 8, 9, 10)])
    new = t.day(nominations=[(1, 5), (4, 6)], votes=[[(5, [1, 4])]])
    assert brief(new, "no_elimination") == [("no_elimination", "cancelled")]
    t.shoot({})
    return t


@pytest.mark.parametrize(("option", "lifted"), [((), True), (("no_lift_2_of_4",), False)])
def test_lifting_two_of_four_is_a_club_option(option: tuple[str, ...], lifted: bool) -> None:
    """D-FI11: «both allowed, as in any round …; keys `fiim.lift_2_of_4 = true`, `fiim.lift_3_of_9`»."""
    t = _four_left(*option)
    assert t.s.living() == [1, 4, 5, 6]
    new = t.day(nominations=[(4, 5), (5, 6)], votes=[[(5, [1, 4])], [(5, [1, 4])]], lift=[])
    assert bool(brief(new, "lift_ballot")) is lifted
    if not lifted:
        assert brief(new, "no_elimination") == [("no_elimination", "tie")]


def test_best_move_of_the_first_night_victim() -> None:
    """F.9 / D-FI13: «at dawn, before his last word, the victim gets a private 20 s prompt to pick exactly
    three distinct seats other than his own»; «announced … at the start of his last word»."""
    t = day_one()
    t.day()
    t.shoot({DON: 7, M2: 7, M3: 7})
    assert (t.s.step.kind, t.s.step.seat, t.s.step.seconds) == ("best_move", 7, 20)
    offer = [e for e in t.events if e.type == "best_move_offer"]
    assert [e.audience.seats for e in offer] == [(7,)]
    assert queries.speakers(t.s) == frozenset()
    for bad in ((1, 2), (1, 2, 2), (1, 2, 7), (1, 2, 11)):
        with pytest.raises(IllegalCommand):
            t.send(Act(seat=7, targets=bad))
    with pytest.raises(IllegalCommand):
        t.send(Act(seat=5, targets=(1, 2, 3)))
    new = t.send(Act(seat=7, targets=(3, 1, 2)))
    shown = [e for e in new if e.type == "best_move"]
    assert [(e.audience.kind, e.data["seats"]) for e in shown] == [("public", [1, 2, 3])]
    assert (t.s.step.kind, t.s.step.round, t.s.step.seat, t.s.step.seconds) == (
        "speech",
        "night_words",
        7,
        60,
    )
    from engine.kinds.fiim import best_move

    assert best_move(t.s) == (7, (1, 2, 3))


def test_no_best_move_after_two_departures_nor_on_a_later_night() -> None:
    """D-FI13: «Granted only for the night-1 victim and only if at most one player left before him»."""
    t = day_one()
    _tie_to_lift(t, lift=[1, 2, 3, 4, 7, 8])  # 5 and 6 leave on day 1
    t.shoot({DON: 7, M2: 7, M3: 7})
    assert t.s.step.kind == "speech" and t.s.step.round == "night_words"
    t2 = day_one()
    t2.day()
    t2.shoot({})
    t2.day()
    t2.shoot({DON: 7, M2: 7, M3: 7})
    assert not [e for e in t2.events if e.type == "best_move_offer"]


def test_a_best_move_not_named_in_time_is_lost() -> None:
    t = day_one()
    t.day()
    t.shoot({DON: 8, M2: 8, M3: 8})
    t.advance()
    assert t.s.step.round == "night_words" and not [e for e in t.events if e.type == "best_move"]


def test_the_third_foul_costs_the_next_regular_speech_once() -> None:
    """F.13: «3 — loses his next regular speech, once only …; keeps the right to nominate and vote»;
    fouls count over the whole game."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    new = t.send(*[Foul(seat=5, reason="talk")] * 3)
    assert brief(new, "foul") == [("foul", 5, 1), ("foul", 5, 2), ("foul", 5, 3)]
    t.send(*[Pass(seat=x) for x in (1, 2, 3, 4)])
    assert t.s.step.seat == 5 and queries.speakers(t.s) == frozenset()
    turn = [e for e in t.events if e.type == "speech"][-1]
    assert (turn.data["seconds"], turn.phrase) == (0, "city_speech_skipped_fouls")
    t.send(Nominate(seat=5, target=9))
    t.day()
    t.shoot({})
    t.until(lambda s: s.step.kind == "speech" and s.step.seat == 5)
    assert queries.speakers(t.s) == frozenset({5}) and t.s.fouls_of(5) == 3


def test_a_third_foul_player_speaks_in_the_tie_and_loses_a_later_regular_speech() -> None:
    """F.13: the 3rd foul costs «his next regular speech, once only (not a last word, not a tie speech —
    a 3rd-foul player caught in a revote does speak then and misses a later regular speech)» [MR 9.5,
    9.8]."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6), Pass(seat=2))
    t.send(*[Pass(seat=x) for x in (3, 4, 5)])  # 5 has spoken today
    t.send(*[Foul(seat=5, reason="talk")] * 3)
    t.until(lambda s: s.step.kind == "vote")
    t.ballot([(5, [1, 2, 3, 4, 5])])
    assert (t.s.step.round, t.s.step.seat, t.s.step.seconds) == ("tie_word", 5, 30)
    assert queries.speakers(t.s) == frozenset({5})
    new = t.day(votes=[[(5, [1])]])  # the revote: 6 is voted out
    assert brief(new, "executed") == [("executed", 6)]
    t.shoot({})
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day" and s.step.seat == 5)
    turn = [e for e in t.events if e.type == "speech"][-1]
    assert turn.data["seconds"] == 0 and queries.speakers(t.s) == frozenset()


def test_the_third_foul_leaves_a_ten_second_turn_to_nominate_only() -> None:
    """D-FI8: «a "Выставить" button available only to the current speaker during his minute (…; also to
    a 3-foul player at the moment his skipped speech would be — he gets a 10 s nomination-only turn)»;
    F.13: «keeps the right to nominate and vote». The turn is the ``nomination_turn`` timer; nobody may
    speak in it, colours on record need a speech (D-FI15), and once it ends nothing more is accepted."""
    t = day_one("on_record_any")
    assert t.s.ruleset.timer("nomination_turn") == 10
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(*[Foul(seat=5, reason="talk")] * 3)
    t.send(*[Pass(seat=x) for x in (1, 2, 3, 4)])
    turn = [e for e in t.events if e.type == "speech"][-1]
    assert (turn.data["seat"], turn.data["seconds"], turn.data["nomination_seconds"]) == (5, 0, 10)
    assert (t.s.step.seat, t.s.step.seconds, queries.speakers(t.s)) == (5, 10, frozenset())
    with pytest.raises(IllegalCommand):
        t.send(OnRecord(seat=5, targets=(1,), colours=("black",)))
    new = t.send(Nominate(seat=5, target=9))
    assert brief(new, "nominated") == [("nominated", 5, 9)]
    t.advance()  # the 10 s are up
    assert (t.s.step.seat, t.s.step.seconds, queries.speakers(t.s)) == (6, 60, frozenset({6}))
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=5, target=8))
    t.day()
    t.shoot({})
    t.until(lambda s: s.step.kind == "speech" and s.step.seat == 5)
    assert (t.s.step.seconds, queries.speakers(t.s)) == (60, frozenset({5}))  # lost once only


def test_a_technical_foul_counts_as_a_foul_and_is_named_in_the_log() -> None:
    """D-FI16: «a technical foul counts exactly like a foul and is listed separately in the game log»."""
    t = day_one()
    new = t.send(Foul(seat=6, reason="talk"), Foul(seat=6, reason="technical"))
    assert [(e.data["count"], e.data["reason"]) for e in new if e.type == "foul"] == [
        (1, "talk"),
        (2, "technical"),
    ]


def test_the_fourth_foul_removes_without_last_words_and_cancels_the_vote() -> None:
    """F.13: «4 — leaves the table at once, without last word»; «the current or nearest vote is not held»
    (D-FI12 `removal_cancels_vote = "always"`)."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    new = t.send(*[Foul(seat=9, reason="talk")] * 4)
    assert brief(new, "removed") == [("removed", 9, "fouls")]
    assert "role" not in next(e for e in new if e.type == "removed").data
    new = t.day()
    assert brief(new, "no_elimination", "ballot") == [("no_elimination", "cancelled")]
    # Seat 9 was not nominated: the table is not told «Выставленный игрок покинул стол» (the city's line).
    assert [e.phrase for e in new if e.type == "no_elimination"] == ["fiim_vote_cancelled"]
    assert not [e for e in new if e.type == "speech" and e.data["seat"] == 9]


@pytest.mark.parametrize("when", ["ballot", "tie_word", "lift"])
def test_a_removal_during_the_vote_stops_it(when: str) -> None:
    """F.13 / D-FI12 `removal_cancels_vote = "always"`, [MR 9.10 option 1]: «the current or nearest vote
    is not held» — a removal while the ballot, the tie's words or the lift are under way stops the vote:
    nobody leaves by it and night falls."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    if when == "ballot":
        t.until(lambda s: s.step.kind == "vote")
    elif when == "tie_word":
        t.until(lambda s: s.step.kind == "vote")
        t.ballot([(5, [1, 2, 3, 4, 5])])
        assert (t.s.step.kind, t.s.step.round) == ("speech", "tie_word")
    else:
        t.until(lambda s: s.step.kind == "vote")
        t.ballot([(5, [1, 2, 3, 4, 5])])
        t.until(lambda s: s.step.kind == "vote")
        t.ballot([(5, [1, 2, 3, 4, 5])])
        assert t.s.step.kind == "lift"
    new = t.send(Remove(seat=9, reason="insult"))
    assert brief(new, "removed", "no_elimination") == [
        ("removed", 9, "insult"),
        ("no_elimination", "cancelled"),
    ]
    assert t.s.phase == "night" and {5, 6} <= t.s.alive
    t.until(lambda s: s.phase == "day")
    new = t.day(nominations=[(3, 7), (4, 8)], votes=[[(7, [1, 2, 3, 4, 5, 6])]])
    assert brief(new, "executed") == [("executed", 7)]  # the next day's vote is held


def test_a_removal_after_the_result_cancels_the_next_vote() -> None:
    """F.13: «If it happens during the vote after the result is determined, and he is not the one voted
    out, the next vote is not held»: a removal during the voted-out player's last word."""
    t = day_one()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    t.until(lambda s: s.step.kind == "vote")
    t.ballot([(5, [1, 2, 3, 4, 6, 7])])
    assert (t.s.step.round, t.s.step.seat) == ("farewell", 5)
    t.send(Remove(seat=9, reason="insult"))
    assert 5 not in t.s.alive and t.s.step.round == "farewell"  # the result stands, his minute goes on
    t.day()
    t.shoot({})
    new = t.day(nominations=[(3, 7), (4, 8)], votes=[[(7, [1, 2, 3, 4, 6])]])
    assert brief(new, "no_elimination", "ballot") == [("no_elimination", "cancelled")]


@pytest.mark.parametrize(
    ("option", "removed", "held"),
    [
        ("removal_never_cancels", 5, True),
        ("removal_cancels_if_nominated", 9, True),
        ("removal_cancels_if_nominated", 5, False),
    ],
)
def test_the_anti_monster_rule_is_a_club_option(option: str, removed: int, held: bool) -> None:
    """D-FI12: «`fiim.removal_cancels_vote = "always"` default | `"never"` | `"if_nominated"`»."""
    t = day_one(option)
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6), Pass(seat=2))
    t.send(Nominate(seat=3, target=7))
    t.send(Remove(seat=removed, reason="insult"))
    new = t.day()
    assert bool(brief(new, "ballot")) is held


def test_with_three_or_four_left_the_lost_speech_is_30_s() -> None:
    """F.13 / D-FI12: «with only 3–4 players left he gets a 30 s speech instead of none»."""
    for option, seconds in (((), 30), (("no_short_speech",), 0)):
        t = _four_left(*option)
        t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
        t.send(*[Foul(seat=6, reason="talk")] * 3)
        t.until(lambda s: s.step.kind == "speech" and s.step.seat == 6)
        turn = [e for e in t.events if e.type == "speech"][-1]
        assert turn.data["seconds"] == seconds
        t.send(Pass(seat=6))
        assert t.s.step.seconds == 60  # the next speaker's minute is whole


def test_removal_and_team_defeat() -> None:
    """F.13: removal offences remove without last words; «Team defeat: the offender's team loses at once»."""
    t = day_one()
    new = t.send(Remove(seat=6, reason="insult"))
    assert brief(new, "removed") == [("removed", 6, "insult")]
    new = t.send(AwardVictory(seat=M2, reason="oath"))
    assert brief(new, "victory_awarded", "game_over") == [
        ("victory_awarded", M2, ("town",)),
        ("game_over", ("town",)),
    ]
    t2 = day_one()
    new = t2.send(AwardVictory(seat=SHERIFF, reason="bet"))
    assert brief(new, "game_over") == [("game_over", ("mafia",))]


def test_three_rounds_without_departures_are_a_draw() -> None:
    """F.11 / D-FI14: «Draw: if nobody leaves during three consecutive nights and days»."""
    t = day_one()
    for _ in range(2):
        t.day()
        t.shoot({DON: 5, M2: 6})
        assert not t.s.over
    new = t.day()
    assert brief(new, "quiet_draw", "game_over") == [("quiet_draw", 3), ("game_over", ())]
    assert t.s.draw


def test_a_departure_restarts_the_count() -> None:
    t = day_one()
    t.day()
    t.shoot({DON: 5, M2: 5, M3: 5})
    for _ in range(2):
        t.day()
        t.shoot({})
    t.day()
    assert not t.s.over
    t.shoot({})
    t.day()
    assert t.s.over and t.s.draw


def test_black_wins_at_parity_red_when_the_blacks_are_out() -> None:
    """F.11: «Red wins when all blacks are out; black wins when blacks ≥ reds at the table»."""
    t = fiim()
    t.send(*[Remove(seat=x, reason="insult") for x in (5, 6, 7, 8)])
    assert brief(t.events, "game_over") == [("game_over", ("mafia",))]
    t = fiim()
    t.send(*[Remove(seat=x, reason="insult") for x in (DON, M2, M3)])
    assert brief(t.events, "game_over") == [("game_over", ("town",))]
