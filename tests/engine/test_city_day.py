"""Scenario tests for the `city` day and the club's conduct rules: seed 001, RULESETS.md 5.5–5.6, 9.1,
D-C12…D-C14, D-C20 and D-F1…D-F5. Seats as in :mod:`city_helpers` (1 don, 2 lawyer, 3 mafioso,
4 sheriff, 5 agent, 6 ranger, 7 doctor, 8 maniac, 9…11 civilians)."""

from __future__ import annotations

import pytest
from city_helpers import AGENT, ELEVEN, MANIAC, at_night, start
from helpers import act, brief, shot

import engine
from engine import AskNominees, AwardVictory, Foul, Nominate, Pass, Permit, Remove, Vote, queries
from engine.errors import AlreadyActed, IllegalCommand, IllegalTarget, NotYourTurn

QUIET = "sleepers_stay"


# -- speeches (5.5, D-C12) -------------------------------------------------------------------------


def test_speeches_in_seat_order_rotating_from_the_next_living_seat() -> None:
    """«У каждого игрока есть одна минута …»; D-C12: «day 1 starts with seat 1; each later day starts with
    the next living seat after the previous day's first speaker»."""
    t = start(ELEVEN, QUIET)
    t.day()
    assert [b[1] for b in brief(t.events, "speech")] == list(range(1, 12))
    speech = next(e for e in t.events if e.type == "speech")
    assert (speech.phrase, speech.get("seconds")) == ("city_speech_turn", 60)
    t.night()
    t.day([(3, 2), (4, 9)], [(2, [1, 3, 4, 5])])  # day 2 starts with seat 2, who is voted out
    t.night()
    t.day()  # so day 3 starts with the next living seat after 2
    days = [[b[1] for b in brief(t.events, "speech") if b[2] == "day"][i : i + 11] for i in (11, 22)]
    assert days == [[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1], [3, 4, 5, 6, 7, 8, 9, 10, 11, 1]]


def test_pass_ends_the_minute() -> None:
    """«Минуту речи игрок может завершить досрочно словом «пас».»"""
    t = start(ELEVEN, QUIET)
    events = t.send(Pass(seat=1))
    assert [(e.type, e.phrase) for e in events][:2] == [
        ("passed", "city_speech_pass"),
        ("speech_ended", None),
    ]
    assert t.s.step.seat == 2


def test_speaker_permits_and_forbids_another_player() -> None:
    """«В свою минуту игрок может также разрешить говорить другому игроку, а затем отозвать разрешение
    (например, - «разрешаю 5», «запрещаю 5»).»"""
    t = start(ELEVEN, QUIET)
    assert queries.speakers(t.s) == frozenset({1})
    events = t.send(Permit(seat=1, target=5))
    assert brief(events) == [("permission", 1, 5, True)]
    assert [(e.phrase, e.params) for e in events] == [("city_speech_allow", {"seat": 1, "target": 5})]
    assert queries.speakers(t.s) == frozenset({1, 5})
    with pytest.raises(NotYourTurn):
        t.send(Permit(seat=5, target=6))
    events = t.send(Permit(seat=1, target=5, allow=False))
    assert [(e.phrase, e.get("allow")) for e in events] == [("city_speech_forbid", False)]
    assert queries.speakers(t.s) == frozenset({1})
    # The minute goes on (issue 13): a permission does not restart the speech's clock.
    started = t.s.step.started_at
    t.state, _ = engine.apply(t.s, Permit(seat=1, target=7, at=started + 20.0))
    assert t.s.step.started_at == started and t.s.step.permitted == (7,)
    t.send(Pass(seat=1))
    assert queries.speakers(t.s) == frozenset({2})  # the permission ends with the minute
    with pytest.raises(IllegalTarget):
        t.send(Permit(seat=2, target=2))


def test_who_is_nominated() -> None:
    """«Также игрок может спросить у ведущего: «Кто выставлен?»»."""
    t = start(ELEVEN, QUIET)
    t.send(Nominate(seat=1, target=9), Pass(seat=1), Nominate(seat=2, target=10))
    events = t.send(AskNominees(seat=2))
    assert [(e.type, e.get("seats"), e.phrase) for e in events] == [
        ("nominees", [9, 10], "city_nominees_list")
    ]
    assert queries.nominees(t.s) == [9, 10]
    with pytest.raises(NotYourTurn):
        t.send(AskNominees(seat=3))


def test_nominations_only_in_ones_own_minute_one_each_never_oneself() -> None:
    """«выставить кандидатуру на голосование» in one's minute; «нельзя выставлять себя … за это ставится
    замечание» (D-C12, D-F2: refused with a foul)."""
    t = start(ELEVEN, QUIET)
    with pytest.raises(NotYourTurn):
        t.send(Nominate(seat=2, target=9))
    events = t.send(Nominate(seat=1, target=1))
    assert brief(events) == [("refused", 1, "self_nomination"), ("foul", 1, 1)]
    assert t.s.nominations == ()
    t.send(Nominate(seat=1, target=9))
    with pytest.raises(AlreadyActed):
        t.send(Nominate(seat=1, target=10))
    t.send(Pass(seat=1))
    with pytest.raises(AlreadyActed):  # D-C12: an already nominated player is not nominated again
        t.send(Nominate(seat=2, target=9))


# -- voting (5.6, D-C13) ---------------------------------------------------------------------------


def test_a_vote_needs_two_nominees() -> None:
    """«Для активации голосования должно быть выставлено хотя бы два игрока.»"""
    t = start(ELEVEN, QUIET)
    events = t.day([(1, 9)])
    assert [(e.type, e.get("reason"), e.phrase) for e in events if e.type == "no_elimination"] == [
        ("no_elimination", "no_vote", "city_no_vote")
    ]
    assert t.s.phase == "night"


def test_most_votes_leaves_with_a_farewell_and_the_role_unnamed() -> None:
    """«Засчитываются все голоса до слова «спасибо»»; «Игрок может не голосовать»; D-C14: «a player
    eliminated by the vote gets a 30 s farewell»."""
    t = start(ELEVEN, QUIET)
    events = t.day([(1, 9), (2, 10)], [(9, [1, 2, 3, 4]), (10, [5, 6])])
    assert brief(events, "ballot", "vote_count", "executed", "speech")[-6:] == [
        ("ballot", 9, "main"),
        ("vote_count", 9, 4, "main"),
        ("ballot", 10, "main"),
        ("vote_count", 10, 2, "main"),
        ("executed", 9),
        ("speech", 9, "farewell"),
    ]
    lines = [e.phrase for e in events if e.type in ("announce", "vote_count", "executed", "speech", "ballot")]
    tail = lines[lines.index("city_vote_start") : -1]
    assert tail == [
        "city_vote_start",
        "city_vote_candidate",
        "city_vote_thanks",
        "city_vote_result",
        "city_vote_candidate",
        "city_vote_thanks",
        "city_vote_result",
        "city_vote_accepted",
        "city_player_left",
        "city_farewell",
    ]


def test_self_vote_and_second_vote_are_refused_with_a_foul() -> None:
    """«нельзя … голосовать за себя»; «За … голосование за себя, повторное голосование … – замечание»."""
    t = start(ELEVEN, QUIET)
    t.send(Nominate(seat=1, target=9), Pass(seat=1), Nominate(seat=2, target=10))
    t.to_kind("vote")
    events = t.send(Vote(seat=9, candidate=9), Vote(seat=1, candidate=9), Vote(seat=1, candidate=9))
    assert brief(events) == [
        ("refused", 9, "self_vote"),
        ("foul", 9, 1),
        ("voted", 1, 9),
        ("refused", 1, "second_vote"),
        ("foul", 1, 1),
    ]
    t.advance()
    events = t.send(Vote(seat=1, candidate=10))
    assert brief(events) == [("refused", 1, "second_vote"), ("foul", 1, 2)]


def test_car_crash_defences_revote_then_leaving_together() -> None:
    """«Если игроки набрали равное количество голосов, ведущий объявляет «автокатастрофу», игрокам даются
    поочерёдно оправдательные 30 секунд, после чего город приступает к повторному голосованию. При
    повторной автокатастрофе начинается голосование за то, чтобы игроки вместе покинули игровой стол …
    Игроки вместе покидают стол, если большая часть города за это проголосует. Игроку, покидающему стол,
    даются 30 секунд для «прощальной» речи.»"""
    t = start(ELEVEN, QUIET)
    events = t.day(
        [(1, 10), (2, 9)],
        [(10, [1, 2, 3]), (9, [4, 5, 6])],
        revote=[(9, [1, 2]), (10, [3, 4])],
        lift=[1, 2, 3, 4, 5, 6],
    )
    kinds = ("tie", "speech", "ballot", "lift_ballot", "lift_count", "leave_together", "executed")
    assert brief(events, *kinds)[-15:] == [
        ("ballot", 10, "main"),
        ("ballot", 9, "main"),
        ("tie", (10, 9)),
        ("speech", 9, "tie_word"),
        ("speech", 10, "tie_word"),
        ("ballot", 9, "after_words"),
        ("ballot", 10, "after_words"),
        ("tie", (9, 10)),
        ("lift_ballot", (9, 10)),
        ("lift_count", 6, 11, True),
        ("leave_together", (9, 10)),
        ("executed", 9),
        ("executed", 10),
        ("speech", 9, "farewell"),
        ("speech", 10, "farewell"),
    ]
    phrases = [e.phrase for e in events if e.phrase]
    for key in (
        "city_car_crash",
        "city_defence_turn",
        "city_revote",
        "city_car_crash_again",
        "city_leave_together",
    ):
        assert key in phrases
    assert t.s.alive == frozenset(range(1, 12)) - {9, 10}


def test_leaving_together_needs_more_than_half_of_the_voters() -> None:
    """«При равном количестве голосов игровой стол не покидает никто, город уходит в ночь»; D-C13:
    "leave" must be more than half of the eligible voters, the tied players included."""
    t = start(ELEVEN, QUIET)
    votes = [(10, [1]), (9, [2])]
    events = t.day([(1, 10), (2, 9)], votes, revote=votes, lift=[1, 2, 3, 4, 5])
    assert brief(events, "lift_count", "no_elimination", "executed") == [
        ("lift_count", 5, 11, False),
        ("no_elimination", "lift_failed"),
    ]
    assert [e.phrase for e in events if e.type == "no_elimination"] == ["city_nobody_leaves"]
    assert t.s.phase == "night" and len(t.s.alive) == 11


def test_a_second_vote_to_leave_together_is_refused_with_a_foul() -> None:
    """001: «повторное голосование – замечание» (D-F2) holds for the vote on leaving together as for the
    day's ballot: the voter is told privately why, gets the foul, and his vote counts once."""
    t = start(ELEVEN, QUIET)
    votes = [(10, [1]), (9, [2])]
    events = t.day([(1, 10), (2, 9)], votes, revote=votes, lift=[1, 1, 2, 3, 4, 5])
    refused = [e for e in events if e.type == "refused"]
    assert [(e.get("seat"), e.get("reason"), e.audience.seats) for e in refused] == [(1, "second_vote", (1,))]
    assert brief(events, "foul", "lift_count") == [("foul", 1, 1), ("lift_count", 5, 11, False)]


def test_an_alibi_keeps_one_of_the_leaving_players() -> None:
    """D-C13: «An alibi player who would be eliminated stays (city_alibi); the rest of a leave-together
    group still leaves»."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(AGENT, 9), shot("mafia", 11))
    votes = [(10, [1]), (9, [2])]
    events = t.day([(2, 10), (3, 9)], votes, revote=votes, lift=[1, 2, 3, 4, 5, 6])
    assert brief(events, "acquitted", "leave_together", "executed") == [
        ("acquitted", 9),
        ("leave_together", (10,)),
        ("executed", 10),
    ]


def test_single_alibi_player_condemned_nobody_leaves() -> None:
    """D-C20 / D-C13: «if he was the only one, nobody leaves (no re-vote)»."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(AGENT, 9), shot("mafia", 11))
    events = t.day([(2, 10), (3, 9)], [(9, [1, 2, 3])])
    assert brief(events, "acquitted", "executed", "ballot") == [
        ("ballot", 10, "main"),
        ("ballot", 9, "main"),
        ("acquitted", 9),
    ]
    assert t.s.phase == "night"


def test_removed_nominee_cancels_the_vote_but_not_during_it() -> None:
    """9.1: «Если игровой стол днём покинул игрок, выставленный на голосование, голосование не состоится,
    если удаление случилось в момент голосования, голоса засчитываются, голосование не отменяется.»"""
    t = start(ELEVEN, QUIET)
    t.send(Nominate(seat=1, target=9), Pass(seat=1), Nominate(seat=2, target=10))
    events = t.send(Remove(seat=9, reason="insults"))
    assert [(e.type, e.get("reason"), e.phrase) for e in events] == [("removed", "insults", "foul_removed")]
    events = t.day()
    assert [(e.get("reason"), e.phrase) for e in events if e.type == "no_elimination"] == [
        ("cancelled", "city_vote_cancelled")
    ]
    t2 = start(ELEVEN, QUIET)
    t2.send(Nominate(seat=1, target=9), Pass(seat=1), Nominate(seat=2, target=10))
    t2.to_kind("vote")
    t2.send(*[Vote(seat=v, candidate=9) for v in (1, 2, 3)])
    t2.advance()
    t2.send(Remove(seat=10, reason="threats"))
    events = t2.advance()
    assert brief(events, "executed") == [("executed", 9)]


def test_tied_player_removed_during_the_defences_ends_the_vote() -> None:
    """9.1: a removal «в момент голосования» keeps the vote; a tied player removed during the car crash's
    defences is off the revote, and the one left alone is not voted on again (decision)."""
    t = start(ELEVEN, QUIET)
    t.send(Nominate(seat=1, target=9), Pass(seat=1), Nominate(seat=2, target=10))
    t.to_kind("vote")
    t.send(Vote(seat=1, candidate=9))
    t.advance()
    t.send(Vote(seat=2, candidate=10))
    t.advance()
    assert (t.s.step.kind, t.s.step.round, t.s.step.seat) == ("speech", "tie_word", 9)
    events = t.send(Remove(seat=9, reason="threats"))
    events += t.advance()
    assert brief(events, "removed", "no_elimination", "ballot") == [
        ("removed", 9, "threats"),
        ("no_elimination", "tie"),
    ]
    assert t.s.phase == "night" and 10 in t.s.alive


# -- conduct (9.1, D-F1…D-F5) ----------------------------------------------------------------------


def test_three_fouls_silence_four_deny_the_vote_the_next_day() -> None:
    """«Замечания обнуляются каждый день. Игрок, набравший в предыдущий день 3 замечания, не может
    говорить, но может выставить для голосования кандидатуру и голосовать, 4 замечания – нельзя также
    голосовать.»"""
    t = start(ELEVEN, QUIET)
    t.send(*[Foul(seat=1, reason="speech out of turn")] * 3, *[Foul(seat=2, reason="shouting")] * 4)
    assert t.s.fouls_of(2) == 4
    t.day()
    events = t.night() + t.day([(1, 9), (3, 10)], [(9, [1, 3, 4])])
    assert brief(events, "restricted") == [("restricted", 1, False, True), ("restricted", 2, False, False)]
    assert [e.phrase for e in events if e.type == "restricted"] == ["foul_muted", "foul_no_vote"]
    # Issue 13: said after «Наступает утро» (and the night's news), before the first speech.
    said = [e.phrase for e in events if e.phrase and e.audience.kind == "public"]
    morning = said.index("city_morning")
    assert morning < said.index("foul_muted") < said.index("foul_no_vote") < said.index("city_speech_turn")
    muted = [e for e in events if e.type == "speech" and e.get("seat") in (1, 2)]
    assert [(e.phrase, e.get("seconds")) for e in muted] == [("city_speech_skipped_fouls", 0)] * 2
    assert brief(events, "nominated", "executed") == [
        ("nominated", 3, 10),
        ("nominated", 1, 9),
        ("executed", 9),
    ]
    assert t.s.fouls == ()


def test_muted_speaker_holds_no_floor_and_four_fouls_cannot_vote() -> None:
    """D-F1: with 3 fouls «skips his speech but may still nominate (button) and vote»; with 4 «he also
    loses his vote that next day (nominating stays allowed)»."""
    t = start(ELEVEN, QUIET)
    t.send(*[Foul(seat=2, reason="x")] * 4)
    t.day()
    t.night()
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day" and s.step.seat == 2)
    assert queries.speakers(t.s) == frozenset()
    with pytest.raises(NotYourTurn):
        t.send(Permit(seat=2, target=3))
    t.send(Nominate(seat=2, target=9))
    t.until(lambda s: s.step.kind == "speech" and s.step.seat == 3)
    t.send(Nominate(seat=3, target=10))
    t.to_kind("vote")
    assert 2 not in queries.voters(t.s)
    with pytest.raises(NotYourTurn):
        t.send(Vote(seat=2, candidate=9))


def test_fouls_given_at_night_count_toward_the_next_day() -> None:
    """D-F1: «Fouls given at night count toward the following day.»"""
    t = start(ELEVEN, QUIET)
    t.send(*[Foul(seat=1, reason="x")] * 2)
    t.day()
    t.send(Foul(seat=1, reason="x"))  # at night: counts for day 2, not day 1
    events = t.night()
    assert brief(events, "restricted") == []
    assert t.s.fouls_of(1) == 1
    t.send(*[Foul(seat=1, reason="x")] * 2)
    events = t.day() + t.night() + t.day()
    assert brief(events, "restricted") == [("restricted", 1, False, True)]


def test_five_fouls_remove_at_once_silently() -> None:
    """«За 5 замечаний- удаление с игрового стола»; D-F5: «Immediate elimination without last words; role
    handling as the preset's death rules»."""
    t = start(ELEVEN, QUIET)
    events = t.send(*[Foul(seat=MANIAC, reason="x")] * 5)
    assert brief(events, "foul", "removed", "announce") == [
        *[("foul", MANIAC, n) for n in range(1, 6)],
        ("removed", MANIAC, "fouls"),
        ("announce", "revealed_left"),
    ]
    assert [e.phrase for e in events if e.type == "removed"] == ["foul_removed"]
    assert next(e.phrase for e in events if e.type == "foul") == "foul_given"


def test_an_award_to_several_teams_is_not_followed_by_one_team_s_win_line() -> None:
    """D-F3 «присуждение победы противоположным командам»: where two teams are awarded (the town and the
    maniac against a mafioso) the award's line names both, and the end does not then say «Победили мирные
    жители» alone (it did: the first winner's line); an award to one team still ends with its line."""
    events = start(ELEVEN, QUIET).send(AwardVictory(seat=1, reason="collusion"))
    ended = next(e for e in events if e.type == "game_over")
    assert ended.data["winners"] == ["town", "solo"] and ended.data.get("announced") is True
    assert not ended.phrase
    seats = ["don", "city_sheriff", "maniac", "civilian", "civilian", "civilian", "civilian", "civilian"]
    t = start(seats, QUIET)
    t.send(*[Foul(seat=3, reason="x")] * 5)  # the maniac is removed
    ended = next(
        e for e in t.send(AwardVictory(seat=1, reason="talk after leaving")) if e.type == "game_over"
    )
    assert ended.phrase == "city_town_wins" and not ended.data.get("announced")


def test_victory_awarded_to_the_opposing_teams() -> None:
    """«За открытую договоренность с обсуждением «кому отдать победу» и т.д. - присуждение победы
    противоположным командам, сидящим за игровым столом» (D-F3)."""
    t = start(ELEVEN, QUIET)
    events = t.send(AwardVictory(seat=1, reason="collusion"))
    assert brief(events, "victory_awarded", "game_over") == [
        ("victory_awarded", 1, ("town", "solo")),
        ("game_over", ("town", "solo")),
    ]
    awarded = next(e for e in events if e.type == "victory_awarded")
    assert awarded.phrase == "foul_victory_awarded"
    assert awarded.params == {"teams": "мирные жители — красная команда, маньяк"}
    seats = ["don", "city_sheriff", "maniac", "civilian", "civilian", "civilian", "civilian", "civilian"]
    t2 = start(seats, QUIET)
    t2.send(Foul(seat=3, reason="x"))
    t2.send(*[Foul(seat=3, reason="x")] * 4)  # the maniac is removed
    events = t2.send(AwardVictory(seat=1, reason="talk after leaving"))
    assert brief(events, "game_over") == [("game_over", ("town",))]


def test_leaving_the_game_costs_rating_points() -> None:
    """«Если игрок покинул игру до её завершения … он получает «-5» баллов в рейтинге» (D-F4)."""
    t = start(ELEVEN, QUIET)
    events = t.send(Remove(seat=9, reason="left"))
    assert brief(events, "removed", "rating_penalty") == [("removed", 9, "left"), ("rating_penalty", 9, -5)]
    assert [e.phrase for e in events if e.type == "rating_penalty"] == ["foul_rating_penalty"]


def test_no_conduct_commands_where_the_preset_has_none() -> None:
    """D-F7: the city system applies where a preset enables it."""
    t = engine.new_game(
        engine.load_ruleset("classic"), ["mafioso", "mafioso", "commissar"] + ["civilian"] * 4, 1
    )
    with pytest.raises(IllegalCommand):
        engine.apply(t[0], AwardVictory(seat=1))
    with pytest.raises(IllegalCommand):
        engine.apply(t[0], Permit(seat=1, target=2))


def test_oaths_and_arguments_are_a_foul_by_day_and_a_removal_at_night() -> None:
    """9.1 lists «клятвы, споры» both as «замечание, либо удаление» and among «удаление из текущей игры»;
    D-F2: «Offences in both lists (клятвы, споры): foul by day, removal after «в городе ночь»»."""
    t = start(ELEVEN, QUIET)
    events = t.send(Foul(seat=9, reason="oath"))
    assert brief(events, "foul", "removed") == [("foul", 9, 1)]
    t.day()
    assert t.s.phase == "night"
    events = t.send(Foul(seat=10, reason="argument"))
    assert brief(events, "foul", "removed") == [("removed", 10, "argument")]
    assert [e.phrase for e in events if e.type == "removed"] == ["foul_removed"]
