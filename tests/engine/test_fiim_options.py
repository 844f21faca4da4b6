"""`fiim`'s club choices that change play (docs/rules/FIIM.md D-FI4, D-FI5, D-FI7, D-FI8, D-FI9, D-FI12,
D-FI13, D-FI15): each [params] key with the default and its alternative, through the engine's public
commands."""

from __future__ import annotations

import pytest
from fiim_helpers import DON, M2, M3, SHERIFF, day_one, fiim
from helpers import brief

from engine import Act, Foul, Nominate, OnRecord, Pass, Propose, Remove, Withdraw, command_from_json, queries
from engine.errors import IllegalCommand
from engine.kinds.fiim import best_move
from engine.kinds.fiim_day import records_on_record


def _day_order(t) -> list[int]:  # type: ignore[no-untyped-def]
    """The day's speakers in the order the host gives them the floor (everyone passes)."""
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    order = []
    day = t.s.day
    while t.s.step.kind == "speech" and t.s.step.round == "day" and t.s.day == day:
        order.append(t.s.step.seat)
        t.send(Pass(seat=t.s.step.seat))
    return order


# -- D-FI4 night0_checks ---------------------------------------------------------------------------


def test_night_zero_checks_are_a_club_option() -> None:
    """D-FI4: «No checks on night 0 (config `fiim.night0_checks = false`)»; with true the don and the
    sheriff check on night 0 (and nobody is shot)."""
    t = fiim("night0_checks")
    t.advance()  # the meeting's minute
    assert (t.s.step.kind, t.s.step.night_step, t.s.step.seconds) == ("night", "don", 15)
    t.send(Act(seat=DON, targets=(SHERIFF,)))
    t.advance()
    assert t.s.step.night_step == "sheriff"
    t.send(Act(seat=SHERIFF, targets=(M2,)))
    t.until(lambda s: s.day == 1)
    assert brief(t.events, "check") == [("check", DON, SHERIFF, True), ("check", SHERIFF, M2, "mafia")]
    assert t.s.alive == frozenset(range(1, 11)) and not brief(t.events, "killed")
    assert [e.data["step"] for e in t.events if e.type == "night_step"] == ["mafia_meets", "don", "sheriff"]


def test_without_night_zero_checks_a_woken_checker_cannot_act() -> None:
    t = fiim()
    t.advance()
    assert (t.s.step.kind, t.s.step.night_step) == ("meet", "don_meets")
    with pytest.raises(IllegalCommand):
        t.send(Act(seat=DON, targets=(SHERIFF,)))


# -- D-FI5 call_all_seats --------------------------------------------------------------------------


def test_calling_every_seat_lets_the_blacks_pick_a_gone_seat_which_is_a_miss() -> None:
    """D-FI5: «each living black gets a private prompt with the living seats (plus dead seats if
    `fiim.call_all_seats = true`)»; «all picks are the same living seat» — any other is a miss."""
    for options, allowed in (((), False), (("call_all_seats",), True)):
        t = day_one(*options)
        t.day()
        t.shoot({DON: 7, M2: 7, M3: 7})
        t.day()
        t.to_night()
        assert (7 in queries.targets_for(t.s, DON).get("team", [])) is allowed
        if not allowed:
            with pytest.raises(IllegalCommand):
                t.send(Propose(seat=DON, target=7))
            continue
        new = t.shoot({DON: 7, M2: 7, M3: 7})
        assert not brief(new, "killed") and len(t.s.alive) == 9


# -- D-FI7 rotation --------------------------------------------------------------------------------


def test_the_opener_rotates_by_default() -> None:
    """D-FI7: «day n the next living seat after day n−1's first speaker, skipping seats that are gone»;
    [MR 6.3 option 1]: «если игрок номер 1 убит ночью, стол по прежнему открывает игрок номер 2»."""
    t = day_one()
    assert _day_order(t) == list(range(1, 11))
    t.shoot({DON: 1, M2: 1, M3: 1})
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    assert _day_order(t) == list(range(2, 11))


def test_the_closer_rotates_where_the_club_says_so() -> None:
    """D-FI7 `fiim.rotation = "closer"`, [MR 6.3 option 2]: «во второй день стол откроет игрок номер 2, а
    закроет номер 1 … Если же игрок номер 1 убит ночью, стол открывает игрок номер 3, а закрывает номер 2»."""
    t = day_one("closer_rotation")
    assert _day_order(t) == list(range(1, 11))
    t.shoot({})
    assert _day_order(t) == [*range(2, 11), 1]
    t2 = day_one("closer_rotation")
    _day_order(t2)
    t2.shoot({DON: 1, M2: 1, M3: 1})
    t2.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    assert _day_order(t2) == [*range(3, 11), 2]
    t3 = day_one("closer_rotation")
    _day_order(t3)
    t3.shoot({})
    _day_order(t3)  # day 2 closed by 1
    t3.shoot({DON: 2, M2: 2, M3: 2})  # the next closer would be 2: it passes to 3
    t3.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    assert _day_order(t3) == [*range(4, 11), 1, 3]


# -- D-FI8 withdraw --------------------------------------------------------------------------------


def _at_speech(*options: str):  # type: ignore[no-untyped-def]
    t = day_one(*options)
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day")
    return t


def test_a_nomination_is_withdrawn_explicitly_in_ones_own_minute() -> None:
    """D-FI8 `fiim.withdraw = "explicit"`, [MR 7.5 option 1]: «Отзывание игрока с голосования … Судья в
    ответ произносит фразу: «Отозвано». Отзывание игрока обязательно для выставления другого игрока»."""
    t = _at_speech()
    t.send(Nominate(seat=1, target=5))
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=1, target=6))  # one nomination: the first must be withdrawn
    with pytest.raises(IllegalCommand):
        t.send(Withdraw(seat=2))  # not his minute
    new = t.send(Withdraw(seat=1))
    gone = [e for e in new if e.type == "nomination_withdrawn"]
    assert [(e.audience.kind, e.data, e.phrase) for e in gone] == [
        ("public", {"seat": 5, "by": 1}, "fiim_withdrawn")
    ]
    with pytest.raises(IllegalCommand):
        t.send(Withdraw(seat=1))  # nothing left to withdraw
    t.send(Nominate(seat=1, target=6), Pass(seat=1))
    assert t.s.nominations == ((1, 6),)
    with pytest.raises(IllegalCommand):
        t.send(Withdraw(seat=1))  # his minute is over


def test_a_new_nomination_withdraws_the_old_one_automatically_where_the_club_says_so() -> None:
    """D-FI8 `"auto"`, [MR 7.5 option 2]: «Оно происходит автоматически при следующем выставлении»; a
    seat nominated by another is not accepted and the old nomination stays."""
    t = _at_speech("withdraw_auto")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=2, target=5))
    new = t.send(Nominate(seat=2, target=7))
    assert brief(new, "nomination_withdrawn", "nominated") == [
        ("nomination_withdrawn",),
        ("nominated", 2, 7),
    ]
    assert t.s.nominations == ((1, 5), (2, 7))
    new = t.send(Withdraw(seat=2))  # «Отзывание игрока не обязательно»: still possible alone
    assert brief(new, "nomination_withdrawn") == [("nomination_withdrawn",)]
    assert t.s.nominations == ((1, 5),)


def test_a_nomination_cannot_be_withdrawn_where_the_club_says_so() -> None:
    """D-FI8 `"none"`, [MR 7.5 option 3]: «Отозвать кандидатуру невозможно»."""
    t = _at_speech("withdraw_none")
    t.send(Nominate(seat=1, target=5))
    with pytest.raises(IllegalCommand):
        t.send(Withdraw(seat=1))
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=1, target=6))
    assert t.s.nominations == ((1, 5),)


@pytest.mark.parametrize(("option", "allowed"), [((), False), (("night_victim_nominates",), True)])
def test_who_nominates_in_a_last_word(option: tuple[str, ...], allowed: bool) -> None:
    """D-FI8: «No nominations in last words, tie speeches or the best move (`fiim.night_victim_nominates
    = false`, an [MR] option)»; with the option ([MR] RULES_KILLED_NOMINATE_ALLOWED) the night's victim
    nominates in his last minute, once, and his nominee is voted on; nobody else may in his minute."""
    t = day_one(*option)
    t.day()
    t.shoot({DON: 8, M2: 8, M3: 8})
    t.advance()  # no best move named
    assert (t.s.step.round, t.s.step.seat) == ("night_words", 8)
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=1, target=5))  # not his minute
    if not allowed:
        with pytest.raises(IllegalCommand):
            t.send(Nominate(seat=8, target=5))
        return
    new = t.send(Nominate(seat=8, target=5))
    assert brief(new, "nominated") == [("nominated", 8, 5)]
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=8, target=6))  # one nomination a day
    t.send(Pass(seat=8))
    new = t.day(nominations=[(1, 6)], votes=[[(5, [1, 2, 3, 4, 6, 7])]])
    assert brief(new, "executed") == [("executed", 5)]


def test_no_nominations_in_tie_words_or_the_best_move() -> None:
    """D-FI8: «No nominations in last words, tie speeches or the best move»."""
    t = _at_speech("night_victim_nominates")
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    t.until(lambda s: s.step.kind == "vote")
    t.ballot([(5, [1, 2, 3, 4, 5])])
    assert (t.s.step.round, t.s.step.seat) == ("tie_word", 5)
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=5, target=7))
    t.day(votes=[[(5, [1])]])  # 6 leaves
    t.shoot({DON: 8, M2: 8, M3: 8})
    assert t.s.step.kind == "best_move"  # one player gone before the victim: granted
    with pytest.raises(IllegalCommand):
        t.send(Nominate(seat=8, target=7))


# -- D-FI9 stop_when_decided -----------------------------------------------------------------------


def test_the_ballot_stops_once_the_votes_left_cannot_change_it() -> None:
    """D-FI9: «The ballot may stop early once no candidate can overtake the leader
    (`fiim.stop_when_decided = true`, [EF] `alwaysContinueVoting = false`)»: six of ten on the first of
    three nominees — the four votes left cannot bring another level, so the others are not called and he
    leaves; the table hears why (fiim_vote_decided)."""
    t = day_one()
    new = t.day(nominations=[(1, 5), (2, 6), (3, 7)], votes=[[(5, [1, 2, 3, 4, 6, 7])]])
    assert brief(new, "ballot") == [("ballot", 5, "main")]
    [decided] = [e for e in new if e.type == "ballot_decided"]
    assert (decided.data["skipped"], decided.audience.kind, decided.phrase) == (
        [6, 7],
        "public",
        "fiim_vote_decided",
    )
    assert brief(new, "executed") == [("executed", 5)]


def test_a_tie_is_decided_early_too_and_only_then() -> None:
    """D-FI9 with F.8: 4 and 4 on the first two of three, two votes left: the third cannot reach four, so
    the tie of the first two is settled without him; 4 and 2 with four left is not (he could tie)."""
    t = day_one()
    new = t.day(
        nominations=[(1, 5), (2, 6), (3, 7)], votes=[[(5, [1, 2, 3, 4]), (6, [5, 6, 7, 8])], []], lift=[]
    )
    assert brief(new, "tie")[:1] == [("tie", (5, 6))]
    assert brief(new, "ballot")[:2] == [("ballot", 5, "main"), ("ballot", 6, "main")]
    t2 = day_one()
    new = t2.day(nominations=[(1, 5), (2, 6), (3, 7)], votes=[[(5, [1, 2, 3, 4]), (6, [5, 6])], []], lift=[])
    assert not [e for e in new if e.type == "ballot_decided" and e.data["round"] == "main"]
    assert brief(new, "tie")[:1] == [("tie", (5, 7))]


def test_the_whole_ballot_where_the_club_says_so() -> None:
    """D-FI9 `fiim.stop_when_decided = false` (the `whole_ballot` option): every nominee is called, the
    last gets the unused votes ([MR 7.13]), and the result is the same."""
    t = day_one("whole_ballot")
    new = t.day(nominations=[(1, 5), (2, 6), (3, 7)], votes=[[(5, [1, 2, 3, 4, 6, 7])]])
    counts = [(e.data["candidate"], e.data["count"]) for e in new if e.type == "vote_count"]
    assert counts == [(5, 6), (6, 0), (7, 4)] and not brief(new, "ballot_decided")
    assert brief(new, "executed") == [("executed", 5)]


# -- D-FI12 mute_next_day --------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "silent_day"), [((), 1), (("mute_next_day",), 2)])
def test_the_third_fouls_lost_speech_is_today_or_tomorrow(option: tuple[str, ...], silent_day: int) -> None:
    """D-FI12: «The speech is lost at the player's next regular speech, which may be the same day
    (`fiim.mute_next_day = false`)»; with true it is the next day's speech."""
    t = _at_speech(*option)
    t.send(*[Foul(seat=5, reason="talk")] * 3)
    lost = []
    for _ in range(2):
        t.until(lambda s: s.step.kind == "speech" and s.step.round == "day" and s.step.seat == 5)
        turn = [e for e in t.events if e.type == "speech"][-1]
        if turn.data["seconds"] == 0:
            lost.append(t.s.day)
        t.day()
        t.shoot({})
    assert lost == [silent_day]


# -- D-FI13 best_move ------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "granted"), [((), False), (("best_move_mr",), True)])
def test_who_may_name_a_best_move_after_a_removal(option: tuple[str, ...], granted: bool) -> None:
    """D-FI13: [EF] «grants it only when at most one player is gone before the victim (any means)»;
    [MR 8.17] (`best_move = "mr"`) refuses it only when «two or more players already left by the day-1
    vote». Day 1: seat 5 voted out, seat 9 removed during his farewell; seat 7 is shot on night 1."""
    t = _at_speech(*option)
    t.send(Nominate(seat=1, target=5), Pass(seat=1), Nominate(seat=2, target=6))
    t.until(lambda s: s.step.kind == "vote")
    t.ballot([(5, [1, 2, 3, 4, 7, 8])])
    assert t.s.step.round == "farewell" and t.s.step.seat == 5
    t.send(Remove(seat=9, reason="insult"))
    t.day()
    t.shoot({DON: 7, M2: 7, M3: 7})
    assert (t.s.step.kind == "best_move") is granted
    if granted:
        t.send(Act(seat=7, targets=(1, 2, 3)))
        assert best_move(t.s) == (7, (1, 2, 3))


# -- D-FI15 on_record ------------------------------------------------------------------------------


def test_colours_on_record_are_not_taken_by_default() -> None:
    """D-FI15: «colours "on record" not scored (`fiim.on_record = "none"`)», [MR 6.7 option 1]."""
    t = _at_speech()
    with pytest.raises(IllegalCommand):
        t.send(OnRecord(seat=1, targets=(2,), colours=("black",)))


def test_a_night_victim_leaves_colours_on_record() -> None:
    """[MR 6.7 option 2] `on_record = "night_victims"`: «Игроки убитые ночью могут оставлять цвета под
    протокол. Эти цвета записываются судьей»; [MR 6.8]: «Поменять оставленных игроков … нельзя»."""
    t = _at_speech("on_record_night_victims")
    with pytest.raises(IllegalCommand):
        t.send(OnRecord(seat=1, targets=(2,), colours=("black",)))  # a day speech
    t.day()
    t.shoot({DON: 8, M2: 8, M3: 8})
    t.advance()  # no best move named
    assert (t.s.step.round, t.s.step.seat) == ("night_words", 8)
    for bad in (((8,), ("red",)), ((1, 2, 3, 4), ("black",) * 4), ((1,), ("green",)), ((1, 2), ("red",))):
        with pytest.raises(IllegalCommand):
            t.send(OnRecord(seat=8, targets=bad[0], colours=bad[1]))
    command = OnRecord(seat=8, targets=(1, 4), colours=("black", "red"))
    assert command_from_json(command.to_json()) == command
    new = t.send(command)
    assert [(e.type, e.audience.kind) for e in new] == [("on_record", "public")]
    with pytest.raises(IllegalCommand):
        t.send(OnRecord(seat=8, targets=(2,), colours=("black",)))
    assert records_on_record(t.s) == [(2, 8, "night_words", {1: "black", 4: "red"})]


def test_in_any_speech_colours_may_be_left_on_record() -> None:
    t = _at_speech("on_record_any")
    t.send(OnRecord(seat=1, targets=(2, 3), colours=("black", "black")), Pass(seat=1))
    t.send(OnRecord(seat=2, targets=(1,), colours=("red",)))
    assert records_on_record(t.s) == [(1, 1, "day", {2: "black", 3: "black"}), (1, 2, "day", {1: "red"})]
