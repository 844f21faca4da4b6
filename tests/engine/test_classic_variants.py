"""Scenario tests for the variants of `classic` (seed 002 «Дополнительные варианты игр», RULESETS.md
6.13–6.18 and D-CL7, D-CL9, D-CL11, D-CL13…D-CL16, D-G1). Each test quotes the seed sentence it plays
and asserts the exact events.
"""

from __future__ import annotations

import pytest
from helpers import Table, act, brief, phrases, shot, table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import Act, IllegalCommand, Nominate, Vote
from engine.errors import AlreadyActed, IllegalTarget, NotYourTurn
from engine.simulate import play_random_game
from engine.view import view_for

CIV = "civilian"
# 1, 2 mafia; 3 commissar; 4, 5 honest judges; 6 the mafia judge; 7, 8 honest citizens.
JUDGES8 = [
    "mafioso",
    "mafioso",
    "commissar",
    "tribunal_judge",
    "tribunal_judge",
    "tribunal_judge_mafia",
    CIV,
    CIV,
]


def judges_table(*options: str, seats: list[str] | None = None) -> Table:
    t = table("classic", seats or JUDGES8, "judges", *options)
    t.until(lambda s: s.day == 2 and s.step.kind != "dawn")
    return t


def send_to_court(t: Table, accused: int, by: int = 7) -> list[engine.Event]:
    """The players nominate ``accused`` alone and everyone votes for him: he is sent to court."""
    events = t.classic_day([(by, accused)], votes=None)
    voters = [x for x in t.s.living() if x != accused]
    events += t.ballot([(accused, voters)])
    assert t.s.step.kind == "court" and t.s.step.seat == accused
    return events


# -- judges (D-CL9) --------------------------------------------------------------------------------


def test_judges_are_named_and_the_mafia_judge_learns_the_mafia_on_night_one() -> None:
    """002: «"Судья-мафия" должен знать всю «мафию», при этом «мафия» не должна знать «судью-мафия» …
    в 1-ю ночью, после того, как «мафия» уснула, просыпается «судья-мафия». Вся «мафия» поднимает руки,
    не открывая глаз … В последующие ночи «судья-мафия» не просыпается.» D-CL9: the three judges are
    named publicly at the start."""
    t = judges_table()
    assert brief(t.events, "judges_named", "night_step", "team_members", "team_shown") == [
        ("judges_named", (4, 5, 6)),
        ("night_step", "mafia_meets"),
        ("team_members", (1, 2)),
        ("team_members", (1, 2)),
        ("night_step", "judge_mafia_meets"),
        ("team_shown", 6, (1, 2)),
    ]
    shown = next(e for e in t.events if e.type == "team_shown")
    assert shown.audience.to_json() == {"seats": [6]} and shown.phrase == "priv_judge_mafia_team"
    assert phrases(t.events, "night_step", "night_step_ended")[-2:] == [
        ("night_step", "cl_judge_mafia_wakes"),
        ("night_step_ended", "cl_judge_mafia_sleeps"),
    ]
    # The mafia is not shown the mafia judge, and he never wakes again nor shoots.
    assert all(6 not in e.get("seats") for e in t.events if e.type == "team_members")
    night = t.night(shot("mafia", 7))
    assert ("night_step", "judge_mafia_meets") not in brief(night, "night_step")
    assert 6 not in t.s.team_members("mafia")


def test_the_court_kills_by_a_strict_majority() -> None:
    """002: «игроки только обсуждают подозреваемых и голосованием решают, кого представить суду.
    «Судьи» большинством голосов решают «убить» данного игрока или нет.» D-CL9: 2 of 3; only the
    result is announced; each verdict is secret."""
    t = judges_table()
    events = send_to_court(t, 1)
    assert brief(events, "court_sent", "court_ballot") == [
        ("court_sent", 1, (4, 5, 6)),
        *[("court_ballot",)] * 3,
    ]
    ballots = [e for e in events if e.type == "court_ballot"]
    assert [e.audience.to_json() for e in ballots] == [{"seats": [j]} for j in (4, 5, 6)]
    votes = t.send(Vote(seat=4, candidate=1), Vote(seat=6, candidate=1), Vote(seat=6, candidate=0))
    assert all(e.audience.kind != "public" for e in votes)
    t.send(Vote(seat=5, candidate=1))
    events = t.advance()
    assert brief(events, "court_verdict", "executed", "acquitted") == [
        ("court_verdict", 1, "kill"),
        ("executed", 1),
    ]
    assert [e.phrase for e in events if e.type in ("court_verdict", "executed")] == [
        "cl_court_kill",
        "cl_lynched",
    ]


def test_one_judge_of_three_spares_and_the_players_present_the_next_candidate() -> None:
    """002: «Если «судьи» данного игрока не «убивают», игроки выставляют следующую кандидатуру.»
    D-CL9: «A spared player cannot be sent again that day»."""
    t = judges_table()
    send_to_court(t, 7, by=8)
    t.send(Vote(seat=4, candidate=7))
    events = t.advance()
    assert brief(events, "acquitted", "announce") == [("acquitted", 7), ("announce", "nominations")]
    assert next(e for e in events if e.type == "acquitted").phrase == "cl_court_spare"
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, Nominate(seat=8, target=7))
    events = t.send(Nominate(seat=8, target=1)) + t.advance()
    t.until(lambda s: s.step.kind == "vote")
    t.ballot([(1, [2, 3, 4, 5, 6, 7, 8])])
    assert t.s.step.kind == "court" and t.s.step.seat == 1


def test_an_accused_judge_does_not_sit_and_needs_both_others() -> None:
    """002: «"Судья", которого представили на суд, не имеет права голоса при голосовании «судей» за
    него» — D-CL9: the court is the living judges other than the accused; 2 of 2 kill."""
    t = judges_table()
    events = send_to_court(t, 4)
    assert brief(events, "court_sent") == [("court_sent", 4, (5, 6))]
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Vote(seat=4, candidate=4))
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Vote(seat=7, candidate=4))
    t.send(Vote(seat=5, candidate=4))
    assert brief(t.advance(), "acquitted", "executed") == [("acquitted", 4)]


def test_the_judges_must_kill_one_player_after_the_third_spare() -> None:
    """002: «Днем «судьи» обязаны «убить» одного игрока.» D-CL9: after the third spared candidate the
    court picks one of the day's spared by majority."""
    t = judges_table()
    send_to_court(t, 7, by=8)
    t.advance()
    for accused in (8, 3):
        t.send(Nominate(seat=1, target=accused))
        t.until(lambda s: s.step.kind == "vote")
        t.ballot([(accused, [x for x in t.s.living() if x != accused])])
        events = t.advance()
    assert brief(events, "acquitted", "court_must_choose") == [
        ("acquitted", 3),
        ("court_must_choose", (3, 7, 8)),
    ]
    assert [e.phrase for e in events if e.type == "announce"] == ["cl_court_must_choose"]
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, Vote(seat=4, candidate=1))
    t.send(Vote(seat=4, candidate=8), Vote(seat=5, candidate=8), Vote(seat=6, candidate=3))
    assert brief(t.advance(), "court_verdict", "executed") == [("court_verdict", 8, "kill"), ("executed", 8)]
    assert t.s.phase == "night"


def test_the_court_must_kill_when_nobody_more_is_sent() -> None:
    """D-CL9: «(or when nobody is left to send), the court must pick one of the day's spared candidates
    to kill by majority (random among ties)»."""
    t = judges_table()
    send_to_court(t, 7, by=8)
    t.advance()  # spared
    events = t.advance()  # nobody nominated in the new round
    assert brief(events, "no_elimination", "court_must_choose") == [
        ("no_elimination", "no_vote"),
        ("court_must_choose", (7,)),
    ]
    assert brief(t.advance(), "court_verdict") == [("court_verdict", 7, "kill")]
    # The next day starts afresh: the court must kill again.
    t.night(shot("mafia", 3))
    send_to_court(t, 8, by=1)
    t.advance()  # spared
    events = t.advance()
    assert brief(events, "court_must_choose") == [("court_must_choose", (8,))]


def test_judges_cannot_be_killed_at_night() -> None:
    """002: «"Судья" не может быть «убит» ночью.» D-CL9: attempts fail silently; D-CL4: no «убит» plate."""
    t = judges_table("judges_checks_allowed")
    t.classic_day()
    events = t.night(shot("mafia", 4), act(3, 4))
    assert brief(events, "killed", "check") == [("check", 3, 4, "not_mafia")]
    assert ("announce", "nobody_killed") in brief(events, "announce")
    assert 4 in t.s.alive


@pytest.mark.parametrize(
    ("options", "target", "plate"),
    [
        ((), 6, None),  # sub-variant 2 (default): «не имеют права узнавать статус «судей»»
        (("judges_checks_allowed",), 6, "mafia"),  # 3: «могут узнать кто из «судей» принадлежит «мафии»»
        (("judges_checks_allowed",), 5, "not_mafia"),
    ],
)
def test_commissar_and_lawyer_sub_variants(options: tuple[str, ...], target: int, plate: str | None) -> None:
    """002: «2-й вариант: «комиссар» и «адвокат» участвуют в игре, но не имеют права узнавать статус
    «судей»» «3-й вариант: «комиссар» и «адвокат» могут узнать кто из «судей» принадлежит «мафии»»
    (D-CL6, D-CL9 `judges_checks`)."""
    seats = [*JUDGES8[:7], "classic_lawyer"]
    t = judges_table(*options, seats=seats)
    t.classic_day()
    t.to_step("lawyer")
    if plate is None:
        with pytest.raises(IllegalTarget):
            engine.apply(t.s, act(8, target))
        t.advance()
        with pytest.raises(IllegalTarget):
            engine.apply(t.s, act(3, target))
        return
    t.send(act(8, target))
    t.advance()
    events = t.send(act(3, target)) + t.advance()
    lawyer = [e for e in t.events if e.type == "check" and e.get("seat") == 8]
    assert brief(lawyer) == [("check", 8, target, plate)]
    assert brief(events, "check") == [("check", 3, target, plate)]


def test_judges_compositions() -> None:
    """D-CL9: «Судей в игре три человека: два — «честных» и один — «мафия»» (they replace honest
    citizens, as every extra character, D-CL1); sub-variant 1: ««комиссар», «адвокат» и «ниндзя» не
    участвуют в игре»."""
    ruleset = engine.load_ruleset("classic", ["judges"])
    assert engine.composition(ruleset, 10) == {
        "mafioso": 3,
        "commissar": 1,
        CIV: 3,
        "tribunal_judge": 2,
        "tribunal_judge_mafia": 1,
    }
    excluded = engine.load_ruleset("classic", ["judges", "judges_checks_excluded"])
    assert engine.composition(excluded, 7) == {
        "mafioso": 2,
        CIV: 2,
        "tribunal_judge": 2,
        "tribunal_judge_mafia": 1,
    }


def test_the_last_judge_is_not_sent_to_court() -> None:
    """002: «В игре можно «убить» только двоих судей» — D-CL9: once two judges are dead the last one
    cannot be sent to court; the players present the next candidate."""
    t = judges_table()
    send_to_court(t, 4)
    t.send(Vote(seat=5, candidate=4), Vote(seat=6, candidate=4))
    t.advance()
    t.night(shot("mafia", 7))
    send_to_court(t, 6, by=8)
    t.send(Vote(seat=5, candidate=6))
    t.advance()
    t.night(shot("mafia", 3))
    events = t.classic_day([(8, 5)], votes=None)
    events += t.ballot([(5, [1, 2, 8])])
    assert brief(events, "court_refused", "announce")[-2:] == [
        ("court_refused", 5),
        ("announce", "nominations"),
    ]


def test_a_lone_mafia_judge_wins_for_the_mafia() -> None:
    """002: «Если остался только один «судья», и он «мафия», то победила «мафия».» (D-CL2 step 5)"""
    t = judges_table()
    send_to_court(t, 4)
    t.send(Vote(seat=5, candidate=4), Vote(seat=6, candidate=4))
    t.advance()
    t.night(shot("mafia", 7))
    send_to_court(t, 5, by=8)
    events = t.send(Vote(seat=6, candidate=5)) + t.advance()
    assert brief(events, "executed", "game_over") == [("executed", 5), ("game_over", ("mafia",))]


def test_the_town_wins_only_when_the_mafia_judge_is_gone_too() -> None:
    """002: «Если убили всю мафию, в том числе и «судью-мафия», то победили «честные».» (D-CL2: the
    mafia judge is a clan member.)"""
    t = judges_table()
    for mafioso in (1, 2):
        send_to_court(t, mafioso)
        t.send(Vote(seat=4, candidate=mafioso), Vote(seat=5, candidate=mafioso))
        events = t.advance()
        assert brief(events, "game_over") == []
        if mafioso == 1:
            t.night(shot("mafia", 8))
    t.to_day()
    send_to_court(t, 6, by=3)
    events = t.send(Vote(seat=4, candidate=6), Vote(seat=5, candidate=6)) + t.advance()
    assert brief(events, "game_over") == [("game_over", ("town",))]


# -- golden minute (D-CL15) ------------------------------------------------------------------------

BASE8 = ["mafioso", "mafioso", "commissar", CIV, CIV, CIV, CIV, CIV]


def test_golden_minute_once_per_game_after_the_last_word() -> None:
    """002: «Если игрок, попавший в число подозреваемых, уже сказал свое последнее слово, … он может
    взять «золотую минуту» и в течение одной минуты (условно) выступить дополнительно. «Золотая минута»
    предоставляется каждому игроку только один раз за всю игру.» (D-CL15: 60 s, before the vote)"""
    t = table("classic", BASE8, "golden_minute")
    t.until(lambda s: s.day == 2)
    events = t.classic_day([(3, 1), (4, 5)], votes=None)
    assert brief(events, "speech", "golden_window")[-3:] == [
        ("speech", 1, "last_word"),
        ("speech", 5, "last_word"),
        ("golden_window", (1, 5)),
    ]
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Act(seat=3, targets=(3,)))
    events = t.send(Act(seat=5, targets=(5,)))
    assert brief(events) == [("golden_minute", 5), ("speech", 5, "golden_minute")]
    assert events[0].phrase == "cl_golden_minute" and events[1].get("seconds") == 60
    assert engine.queries.speakers(t.s) == frozenset({5})
    events = t.advance()
    assert brief(events, "golden_window") == [("golden_window", (1,))]
    events = t.advance()
    assert brief(events, "announce", "ballot")[:2] == [("announce", "vote_start"), ("ballot", 1, "main")]
    t.ballot([(1, [2, 3, 4, 5, 6, 7, 8])])  # 1 executed
    t.night(shot("mafia", 8))
    t.classic_day([(3, 5)], votes=None)
    assert t.s.step.kind == "vote"  # 5 has used his minute: no window at all


def test_no_golden_minute_without_the_option() -> None:
    t = table("classic", BASE8)
    t.until(lambda s: s.day == 2)
    events = t.classic_day([(3, 1)], votes=None)
    assert brief(events, "golden_window") == [] and t.s.step.kind == "vote"


# -- bets (D-CL14) ---------------------------------------------------------------------------------


def test_bets_after_the_introductions_settled_at_the_end() -> None:
    """002: «Игроки говорят о себе, почему они «честные». Начинают от игрока, сидящего слева от ведущего,
    и идут по часовой стрелке. После выступления последнего игрока все желающие … могут заключить пари на
    то, кто относится к «мафии». Обсуждения при этом не допускаются. Просто игроки заявляют: «Я считаю,
    что такой-то игрок мафия».» D-CL14: announced publicly, settled at the end (who guessed right)."""
    t = table("classic", BASE8, "bets")
    events = t.until(lambda s: s.step.kind == "bets")
    assert brief(events, "speech", "announce")[-2:] == [("speech", 8, "intro"), ("announce", "bets_open")]
    assert engine.queries.speakers(t.s) == frozenset()  # «Обсуждения при этом не допускаются»
    events = t.send(act(3, 1), act(4, 5), act(1, 4))
    assert brief(events) == [("bet", 3, 1), ("bet", 4, 5), ("bet", 1, 4)]
    assert [(e.phrase, e.params) for e in events][:1] == [("cl_bet_recorded", {"seat": 3, "target": 1})]
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, act(3, 2))
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(5, 5))
    events = t.advance()
    assert brief(events, "night_step")[:1] == [("night_step", "mafia_meets")]
    t.to_day()
    t.classic_day([(3, 1)], [(1, [2, 3, 4, 5, 6, 7, 8])])
    t.night(shot("mafia", 6))
    t.classic_day([(3, 2)], [(2, [3, 4, 5, 7, 8])])
    assert brief(t.events, "game_over", "bets_result")[-2:] == [
        ("game_over", ("town",)),
        ("bets_result", (3,)),
    ]
    result = next(e for e in t.events if e.type == "bets_result")
    assert result.phrase == "cl_bets_result" and result.get("bets") == [[1, 4], [3, 1], [4, 5]]


# -- reduced games (D-CL13) ------------------------------------------------------------------------


def test_four_to_six_players_start_with_a_day_vote() -> None:
    """002: «В этом случае в игре участвует один мафиози … игра сразу начинается с дня, когда горожане
    должны выбрать подозреваемого в связях с мафией, проголосовать за него и «убить». Если этот «убитый»
    игрок окажется мафиози, значит игра закончилась победой честных граждан.»"""
    ruleset = engine.load_ruleset("classic", ["reduced"])
    assert [engine.composition(ruleset, n) for n in (4, 6)] == [
        {"mafioso": 1, CIV: 3},
        {"mafioso": 1, CIV: 5},
    ]
    t = table("classic", ["mafioso", CIV, CIV, CIV, CIV], "reduced")
    events = t.classic_day([(2, 1)], [(1, [2, 3, 4, 5])])
    assert brief(t.events, "announce", "speech")[:3] == [
        ("announce", "game_start"),
        ("announce", "small_day_start"),
        ("announce", "discussion_start"),
    ]
    assert brief(events, "executed", "game_over") == [("executed", 1), ("game_over", ("town",))]


def test_four_to_six_players_play_on_with_a_real_first_night() -> None:
    """002: «В противном случае — игра продолжается … Далее игра проходит как обычно.» D-CL13: no
    acquaintance night; the mafioso shoots on night 1."""
    t = table("classic", ["mafioso", CIV, CIV, CIV, CIV], "reduced")
    events = t.classic_day([(1, 2)], [(2, [1, 3, 4, 5])])
    events += t.night(shot("mafia", 3))
    assert brief(events, "night_step", "killed") == [("night_step", "mafia"), ("killed", 3)]


def test_four_to_six_players_day_one_tie_then_nobody() -> None:
    """D-CL13: «day-1 ties: revote once, then nobody eliminated (no dead citizen yet)»; 002: «для
    голосования привлекается честный горожанин, убитый ночью накануне» — there is none on day 1."""
    t = table("classic", ["mafioso", CIV, CIV, CIV], "reduced")
    t.classic_day([(1, 2), (2, 1)], [(2, [1, 3]), (1, [2, 4])])
    t.until(lambda s: s.step.kind == "vote")
    events = t.ballot([(2, [1, 3]), (1, [2, 4])])
    assert brief(events, "no_elimination") == [("no_elimination", "tie")]


@pytest.mark.parametrize(
    ("votes", "winners"),
    [
        ([(1, [2, 3])], ("town",)),  # the mafioso is found
        ([(2, [1, 3])], ("mafia",)),  # «будет убит честный горожанин»
    ],
)
def test_three_players_is_a_game_of_one_turn(votes: list[tuple[int, list[int]]], winners: tuple[str]) -> None:
    """002: «Полностью аналогично варианту на 4–6 игроков с тем только отличием, что это «игра одного
    хода». … Если на этом первом ходу вычислить мафиози не удастся, то есть будет убит честный
    горожанин, то игра заканчивается победой мафии.»"""
    t = table("classic", ["mafioso", CIV, CIV], "reduced")
    t.classic_day([(3, votes[0][0])], votes)
    assert brief(t.events, "game_over") == [("game_over", winners)]


def test_three_players_a_tie_is_a_mafia_win() -> None:
    """D-CL13: «anything else (an honest player eliminated, or a tie after one revote) → mafia win»."""
    t = table("classic", ["mafioso", CIV, CIV], "reduced")
    t.classic_day([(1, 2), (2, 3), (3, 1)], [(2, [1]), (3, [2]), (1, [3])])
    t.ballot([(2, [1]), (3, [2]), (1, [3])])
    assert brief(t.events, "no_elimination", "game_over") == [
        ("no_elimination", "tie"),
        ("game_over", ("mafia",)),
    ]


@pytest.mark.parametrize(
    ("seats", "winners"),
    [([CIV, CIV], ("town",)), (["mafioso", CIV], ("mafia",))],
)
def test_two_players_agree_on_the_hidden_card(seats: list[str], winners: tuple[str]) -> None:
    """002: «Если игроки сошлись на том, что «мафия» закрытая карта, карта открывается. Если закрытая
    карта — «мафия», значит, победили честные, если закрытая карта — «честный», то победила «мафия».»"""
    t = table("classic", seats, "reduced")
    assert brief(t.events, "announce")[-1] == ("announce", "two_players_start")
    assert engine.queries.speakers(t.s) == frozenset({1, 2})  # «после чего начинается обсуждение»
    events = t.send(Vote(seat=1))
    assert brief(events, "card_opened") == []  # «Мафия — закрытая карта» needs both players
    events = t.send(Vote(seat=2))
    hidden = "mafioso" if winners == ("town",) else CIV
    assert brief(events, "card_opened", "game_over") == [("card_opened", 0, hidden), ("game_over", winners)]
    assert next(e for e in events if e.type == "card_opened").phrase == "cl_two_players_reveal"


@pytest.mark.parametrize(("seats", "winners"), [(["mafioso", CIV], ("town",)), ([CIV, CIV], ("mafia",))])
def test_two_players_one_accuses_the_other(seats: list[str], winners: tuple[str]) -> None:
    """002: «Если один из игроков пришел к выводу, что второй игрок — «мафия», он требует открыть карты
    и, если тот действительно «мафия», то победа «честных». Если же второй игрок оказался честным
    горожанином, то победа мафии.»"""
    t = table("classic", seats, "reduced")
    events = t.send(Act(seat=2, targets=(1,)))
    assert brief(events, "card_opened", "game_over") == [("card_opened", 1, seats[0]), ("game_over", winners)]


def test_two_players_deal_two_of_three_cards() -> None:
    """002: «Из колоды берется три карты, две из которых «честные» и одна «мафия». … третья карта
    кладется закрытой.» D-CL13: undecided at the end of the time → nobody wins (a decision)."""
    ruleset = engine.load_ruleset("classic", ["reduced"])
    deals = {tuple(sorted(engine.deal(ruleset, 2, seed))) for seed in range(20)}
    assert deals == {(CIV, CIV), (CIV, "mafioso")}
    t = table("classic", [CIV, CIV], "reduced")
    assert brief(t.advance(), "game_over") == [("game_over", ())]


# -- whole deck (D-CL16), no host (D-G1), hidden statuses (D-CL11), werewolf (D-CL7) ----------------


def test_the_whole_deck_is_dealt_and_the_counts_stay_secret() -> None:
    """002: «интересно брать всю колоду целиком. После того, как колода была тщательно перетасована,
    игрокам раздаются карты … Количество «мафии» и игровых ролей при таком варианте случайно и известно
    только ведущему»."""
    ruleset = engine.load_ruleset("classic", ["whole_deck"])
    deck = engine.composition(ruleset, 9)
    assert sum(deck.values()) == 21
    hands = [engine.deal(ruleset, 9, seed) for seed in range(30)]
    assert all(len(h) == 9 for h in hands)
    assert len({h.count("mafioso") for h in hands}) > 1  # the number of mafiosi varies
    _state, events = engine.new_game(ruleset, hands[0], 1)
    started = next(e for e in events if e.type == "game_started")
    assert set(started.data) == {"ruleset", "options", "seats"}
    with pytest.raises(IllegalCommand):
        engine.composition(ruleset, 22)


def test_the_whole_deck_calls_every_role_of_the_deck_and_names_no_killer() -> None:
    """002, special moment 3: «Количество «мафии» и игровых ролей при таком варианте случайно и известно
    только ведущему». D-CL16: the counts are not announced — so the night does not tell them either: every
    role of the deck is called, dealt or not (as a dead role is, D-G8), and a night victim is announced
    without naming the mafia (D-CL12's neutral line), since a maniac or a sheriff may be in the deal. Here
    the deal holds the mafia, a commissar and citizens only; before, only the mafia's and the commissar's
    steps were called and the victim was «убит мафией», which told the table no maniac, sheriff, lawyer
    or doctor was dealt."""
    deal = ["mafioso", "mafioso", "commissar", "civilian", "civilian", "civilian", "civilian"]
    t = table("classic", deal, "whole_deck")
    events = t.night(shot("mafia", 4), act(3, 1))
    called = [e.get("step") for e in events if e.type == "night_step" and e.get("step") != "mafia_meets"]
    assert called == ["mafia", "maniac", "sheriff", "lawyer", "commissar", "doctor"]
    undealt = [
        e
        for e in events
        if e.type == "night_step" and e.get("step") != "mafia" and e.get("step") != "commissar"
    ]
    assert all(e.audience.to_json() == "public" for e in undealt)
    assert not [
        e for e in events if e.type == "awake" and e.get("step") not in ("mafia_meets", "mafia", "commissar")
    ]
    killed = next(e for e in events if e.type == "killed")
    assert (killed.get("seat"), killed.phrase) == (4, "cl_player_killed_neutral")
    plain = table("classic", deal)  # the same deal without the whole deck: the composition is public
    events = plain.night(shot("mafia", 4), act(3, 1))
    called = [e.get("step") for e in events if e.type == "night_step" and e.get("step") != "mafia_meets"]
    assert called == ["mafia", "commissar"]
    assert next(e for e in events if e.type == "killed").phrase == "cl_player_killed"


def test_no_preset_host_counts_to_ten() -> None:
    """002: «ведущий после фразы «Наступила ночь. Все жители города уснули» вместе со всеми закрывает
    глаза и объявляет: «Мафия проснулась и знакомится. Считаю до десяти. Раз, два, ..., десять. Мафия
    познакомилась и уснула»» — D-G1: only the ten-second count survives."""
    t = table("classic", BASE8, "nohost_countdown")
    t.until(lambda s: s.day == 2)
    assert phrases(t.events, "night_step", "night_step_ended") == [
        ("night_step", "cl_nohost_mafia_meets_count"),
        ("night_step_ended", None),
    ]
    assert next(e for e in t.events if e.type == "night_step").get("seconds") == 10
    assert ("announce", "cl_night_falls") in phrases(t.events, "announce")


def test_hidden_statuses_of_the_eliminated() -> None:
    """002, special moment 1: «рекомендуется вообще не разглашать статус «убитых» игроков» (D-CL11:
    every role is shown at the end)."""
    t = table("classic", BASE8, "hidden_roles")
    t.until(lambda s: s.day == 2)
    events = t.classic_day([(3, 4)], [(4, [1, 2, 3, 5, 6, 7, 8])])
    executed = next(e for e in events if e.type == "executed")
    assert executed.phrase == "cl_lynched_hidden" and "role" not in executed.data
    assert 4 not in t.s.revealed


def test_werewolf_becomes_mafia_the_next_night() -> None:
    """002: «как только одну из Мафий убивают, ближайшей же ночью Мафией становитесь вы, приобретая все
    функции этой роли» (D-CL7: a member's first elimination; he wakes and shoots with the clan)."""
    seats = ["mafioso", "mafioso", "commissar", "werewolf", CIV, CIV, CIV, CIV]
    t = table("classic", seats, "werewolf")
    t.until(lambda s: s.day == 2)
    events = t.classic_day([(3, 1)], [(1, [2, 3, 4, 5, 6, 7, 8])])
    events += t.night(shot("mafia", 5), act(3, 4))
    assert brief(events, "executed", "team_joined", "awake", "check", "killed") == [
        ("executed", 1),
        ("team_joined", 4, "mafia"),
        ("awake", "mafia", (2, 4)),
        ("awake", "commissar", (3,)),
        ("check", 3, 4, "mafia"),
        ("killed", 5),
    ]


def test_variants_combine() -> None:
    """Options patch tables key by key, so judges, golden minute, bets and the countdown play together."""
    ruleset = engine.load_ruleset("classic", ["bets", "golden_minute", "judges", "nohost_countdown"])
    assert (
        ruleset.params["acquittal"] == "court" and ruleset.params["bets"] and ruleset.params["golden_minute"]
    )
    assert [s.id for s in ruleset.intro_night][-1] == "judge_mafia_meets"
    assert ruleset.win_check == "classic_judges"


# -- properties of random games with the variants --------------------------------------------------

VARIANT_CASES = [
    (("judges",), 7),
    (("judges",), 10),
    (("judges", "judges_checks_allowed", "lawyer"), 12),
    (("judges", "judges_checks_excluded", "golden_minute"), 9),
    (("golden_minute", "bets", "maniac", "doctor"), 8),
    (("nohost_countdown", "yakuza", "ninja"), 14),
    (("whole_deck",), 9),
    (("whole_deck",), 15),
    *[(("reduced",), n) for n in (2, 3, 4, 5, 6)],
]


@pytest.mark.parametrize(("options", "players"), VARIANT_CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_variant_games_are_sound(options: tuple[str, ...], players: int, seed: int) -> None:
    """The core properties (issue 2) for the variants: one game_over, replay reproduces everything, no
    dead or unwoken seat acts, only judges sit on the court, and no hidden role leaks into a view."""
    ruleset = engine.load_ruleset("classic", options)
    game = play_random_game(ruleset, players, seed)
    assert game.final.over
    assert sum(1 for e in game.events if e.type == "game_over") == 1
    state, events = engine.replay(ruleset, game.roles, seed, game.commands)
    assert state == game.final
    assert [e.to_json() for e in events] == [e.to_json() for e in game.events]
    state, _ = engine.new_game(ruleset, game.roles, seed)
    for command in game.commands:
        if isinstance(command, (Act, engine.Propose)):
            assert command.seat in state.alive and command.seat in engine.queries.actors(state)
        if isinstance(command, Vote) and state.step.kind in ("court", "court_choice"):
            assert state.role_of(command.seat) in ("tribunal_judge", "tribunal_judge_mafia")
            assert command.seat in state.alive
        state, _ = engine.apply(state, command)
        for seat in range(1, players + 1):
            for other in view_for(state, seat)["roles"]:
                x = int(other)
                assert x == seat or x in state.revealed or (seat, x) in state.knowledge


def test_a_tie_in_the_forced_choice_is_drawn_by_lot() -> None:
    """D-CL9: «the court must pick one of the day's spared candidates to kill by majority (random among
    ties)» — the lot comes from the game's seeded generator, so a replay draws the same."""
    picks = set()
    for seed in range(8):
        t = table("classic", JUDGES8, "judges", seed=seed)
        t.until(lambda s: s.day == 2 and s.step.kind != "dawn")
        send_to_court(t, 7, by=8)
        t.advance()  # spared
        t.send(Nominate(seat=7, target=8))
        t.until(lambda s: s.step.kind == "vote")
        t.ballot([(8, [1, 2, 3, 4, 5, 6, 7])])
        t.advance()  # spared
        events = t.advance()  # nobody more is sent
        assert brief(events, "court_must_choose") == [("court_must_choose", (7, 8))]
        t.send(Vote(seat=4, candidate=7), Vote(seat=5, candidate=8))
        verdict = brief(t.advance(), "court_verdict")
        assert verdict in ([("court_verdict", 7, "kill")], [("court_verdict", 8, "kill")])
        picks.add(verdict[0][1])
        again = engine.replay(t.ruleset, JUDGES8, seed, t.log)[0]
        assert again == t.s
    assert picks == {7, 8}


def test_judges_checks_excluded_deals_no_commissar() -> None:
    """002: «1-й вариант: «комиссар», «адвокат» и «ниндзя» не участвуют в игре»."""
    ruleset = engine.load_ruleset("classic", ["judges", "judges_checks_excluded"])
    for n in engine.player_counts(ruleset):
        deck = engine.composition(ruleset, n)
        assert "commissar" not in deck and deck["tribunal_judge"] == 2 and deck["tribunal_judge_mafia"] == 1


@pytest.mark.parametrize(
    ("options", "players"), [(["judges", "golden_minute", "bets"], 9), (["reduced"], 2), (["whole_deck"], 11)]
)
def test_simulate_cli_plays_the_variants(options: list[str], players: int) -> None:
    """`python -m engine simulate --ruleset classic --option judges …` plays and prints the wins."""
    import subprocess
    import sys

    args = ["--ruleset", "classic", "--players", str(players), "--games", "20"]
    args += [f"--option={o}" for o in options]
    result = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert f"classic, {players} players, 20 games" in result.stdout
