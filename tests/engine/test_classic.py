"""Scenario tests for the `classic` preset, written from seed 002 and RULESETS.md section 6 and 10.4.

Each test states the commands and the events it expects, so that a rule change reads as a diff.
Seats are explicit; the options are passed as a server would select them.
"""

from __future__ import annotations

import pytest
from helpers import Table, act, brief, phrases, shot, table

import engine
from audio import phrases as catalogue
from engine import Command, IllegalCommand, Nominate, Skip, TeamAct, Unvote, Vote, queries
from engine.errors import AlreadyActed, DeadPlayer, IllegalTarget, NotYourTurn, WrongPhase

CIV = "civilian"
# 1, 2 mafia; 3 commissar; 4…7 honest citizens.
BASE7 = ["mafioso", "mafioso", "commissar", CIV, CIV, CIV, CIV]
BASE8 = [*BASE7, CIV]
ALL_OPTIONS = ("yakuza", "ninja", "maniac", "sheriff", "lawyer", "doctor", "immortal", "werewolf")
# 1, 2 mafia; 3 yakuza, 4 ninja; 5 maniac; 6 sheriff; 7 lawyer; 8 commissar; 9 doctor; 10 citizen;
# 11 immortal; 12 werewolf.
FULL = [
    "mafioso",
    "mafioso",
    "yakuza",
    "ninja",
    "maniac",
    "sheriff",
    "classic_lawyer",
    "commissar",
    "doctor",
    CIV,
    "immortal",
    "werewolf",
]


def to_day(t: Table, day: int) -> None:
    t.until(lambda s: s.day == day and s.step.kind != "dawn")


# -- the base game ---------------------------------------------------------------------------------


def test_day_one_introductions_then_the_acquaintance_night() -> None:
    """6.5: «Каждый из участников игры по очереди сообщает всем остальным о том, что он честный
    горожанин…»; 6.6: «Ведущий объявляет: «Мафия проснулась и знакомится»» — D-CL10: night 1 is
    acquaintance only, no kills or checks; day 2 opens with nobody killed."""
    t = table("classic", BASE7)
    t.until(lambda s: s.day == 2)
    assert brief(t.events, "announce", "speech", "night_step", "awake", "team_members", "killed") == [
        ("announce", "game_start"),
        ("announce", "intro_day"),
        *[("speech", seat, "intro") for seat in range(1, 8)],
        ("announce", "first_night_falls"),
        ("night_step", "mafia_meets"),
        ("awake", "mafia_meets", (1, 2)),
        ("team_members", (1, 2)),
        ("team_members", (1, 2)),
        ("announce", "day_breaks"),
        ("announce", "discussion_start"),
    ]
    assert phrases(t.events, "night_step", "night_step_ended") == [
        ("night_step", "cl_mafia_meets"),
        ("night_step_ended", "cl_mafia_met"),
    ]
    # Each mafioso is shown the other's seat, and only that.
    members = [e for e in t.events if e.type == "team_members"]
    assert [e.audience.to_json() for e in members] == [{"seats": [1]}, {"seats": [2]}]
    assert "roles" not in members[0].data


def test_nobody_acts_on_the_acquaintance_night() -> None:
    """D-CL10: «No kills or checks; every ability starts on night 2 (the commissar's step is under
    «Ночь вторая и далее»)»."""
    t = table("classic", BASE7)
    t.until(lambda s: s.phase == "night")
    assert t.s.step.kind == "meet"
    for command in (act(3, 1), TeamAct(team="mafia", target=4)):
        with pytest.raises(WrongPhase):
            engine.apply(t.s, command)


def test_night_order_with_every_extra_character() -> None:
    """6.9: «Порядок ходов …: 1. Мафия 2. Якудза (Ниндзя одновременно с Якудза) 3. Маньяк 4. Шериф
    5. Адвокат 6. Комиссар 7. Доктор»; D-CL10: the yakuza also meets on night 1, apart from the mafia."""
    t = table("classic", FULL, *ALL_OPTIONS)
    t.until(lambda s: s.day == 2)
    assert brief(t.events, "night_step", "awake") == [
        ("night_step", "mafia_meets"),
        ("awake", "mafia_meets", (1, 2)),
        ("night_step", "yakuza_meets"),
        ("awake", "yakuza_meets", (3, 4)),
    ]
    events = t.night()
    assert brief(events, "night_step", "awake") == [
        ("night_step", "mafia"),
        ("awake", "mafia", (1, 2)),
        ("night_step", "yakuza"),
        ("awake", "yakuza", (3, 4)),
        ("night_step", "maniac"),
        ("awake", "maniac", (5,)),
        ("night_step", "sheriff"),
        ("awake", "sheriff", (6,)),
        ("night_step", "lawyer"),
        ("awake", "lawyer", (7,)),
        ("night_step", "commissar"),
        ("awake", "commissar", (8,)),
        ("night_step", "doctor"),
        ("awake", "doctor", (9,)),
    ]


def test_mafia_kill_and_the_commissar_plates() -> None:
    """6.9: «Ведущий показывает таблички «мафия», «честный» или «убит». Табличка «убит» означает, что
    указанный игрок только что был «убит» «мафией» (статус «убитых» ночью не раскрывается).»
    6.7: «Сегодня ночью мафия коварно убила такого-то» (D-CL12: the exact line, the mafia being the
    only killer)."""
    t = table("classic", BASE7)
    to_day(t, 2)
    first = t.night(shot("mafia", 4), act(3, 1))
    second_day = t.classic_day()
    second = t.night(shot("mafia", 5), act(3, 6))
    t.classic_day()
    third = t.night(shot("mafia", 6), act(3, 6))
    checks = [e for e in first + second + third if e.type == "check"]
    assert brief(checks) == [
        ("check", 3, 1, "mafia"),
        ("check", 3, 6, "not_mafia"),
        ("check", 3, 6, "killed"),
    ]
    assert [e.phrase for e in checks] == [
        "priv_plate_mafia_of",
        "priv_plate_honest_of",
        "priv_plate_killed_of",
    ]
    assert all(e.audience.to_json() == {"seats": [3]} for e in checks)
    # Issue 13: the result says whose plate it is (the project's own lines, audio/data/project_phrases.json).
    shown = [catalogue.render(e.phrase, e.params, numbers="digits") for e in checks]
    assert shown == [
        "Игрок номер 1. Табличка: «мафия».",
        "Игрок номер 6. Табличка: «честный».",
        "Игрок номер 6. Табличка: «убит».",
    ]
    killed = [e for e in first + second + third + second_day if e.type == "killed"]
    assert [(e.get("seat"), e.phrase, "role" in e.data) for e in killed] == [
        (4, "cl_player_killed", False),
        (5, "cl_player_killed", False),
        (6, "cl_player_killed", False),
    ]


def test_commissar_check_is_optional() -> None:
    """D-CL6: «Checks are optional; from night 2.»"""
    t = table("classic", BASE7)
    to_day(t, 2)
    t.to_step("commissar")
    events = t.send(Skip(seat=3))
    assert brief(events) == [("action_skipped",)]
    assert brief(t.advance(), "check") == []


@pytest.mark.parametrize(
    ("role", "options", "plate"),
    [
        ("mafioso", (), "mafia"),
        ("yakuza", ("yakuza",), "mafia"),
        ("ninja", ("yakuza", "ninja"), "not_mafia"),
        (CIV, (), "not_mafia"),
        ("maniac", ("maniac",), "not_mafia"),
        ("sheriff", ("sheriff",), "not_mafia"),
        ("doctor", ("doctor",), "not_mafia"),
        ("immortal", ("immortal",), "not_mafia"),
        ("classic_lawyer", ("lawyer",), "not_mafia"),
        ("werewolf", ("werewolf",), "not_mafia"),
    ],
)
def test_commissar_statuses(role: str, options: tuple[str, ...], plate: str) -> None:
    """D-CL6: «мафия»: mafiosi, yakuza (not ninja), activated werewolf … «честный»: honest citizens,
    sheriff, doctor, immortal, maniac, lawyer, dormant werewolf, ninja». 002 on the ninja: «при попытке
    «комиссара» узнать статус «ниндзя» он видит «честный»»."""
    seats = ["mafioso", "mafioso", "commissar", role, CIV, CIV, CIV]
    t = table("classic", seats, *options)
    to_day(t, 2)
    events = t.night(act(3, 4))
    assert brief(events, "check") == [("check", 3, 4, plate)]


@pytest.mark.parametrize(
    ("players", "options", "table_"),
    [
        (7, (), {"mafioso": 2, "commissar": 1, CIV: 4}),
        (10, (), {"mafioso": 3, "commissar": 1, CIV: 6}),
        (13, (), {"mafioso": 4, "commissar": 1, CIV: 8}),
        (15, (), {"mafioso": 5, "commissar": 1, CIV: 9}),
        (11, ("yakuza",), {"mafioso": 2, "yakuza": 2, "commissar": 1, CIV: 6}),
        (15, ("yakuza", "ninja"), {"mafioso": 3, "yakuza": 1, "ninja": 1, "commissar": 1, CIV: 9}),
        (9, ("maniac", "doctor"), {"mafioso": 3, "commissar": 1, "maniac": 1, "doctor": 1, CIV: 3}),
    ],
)
def test_compositions(players: int, options: tuple[str, ...], table_: dict[str, int]) -> None:
    """D-CL1: «7 → 2, 8–10 → 3, 11–13 → 4, 14–15 → 5; one commissar; the rest honest citizens …
    enabling the yakuza splits the mafia count (mafia gets the larger half; the ninja, if enabled, is
    one of the yakuza); maniac, sheriff, lawyer, doctor, immortal and werewolf replace honest
    citizens»."""
    assert engine.composition(engine.load_ruleset("classic", options), players) == table_


@pytest.mark.parametrize(("players", "options"), [(10, ("yakuza",)), (11, ("ninja",))])
def test_compositions_refused(players: int, options: tuple[str, ...]) -> None:
    """D-CL1: «yakuza: a clan of ≥2»; the ninja «is one of the yakuza» (option: «вместе с вариантом
    «якудза»»)."""
    with pytest.raises(IllegalCommand):
        engine.composition(engine.load_ruleset("classic", options), players)


# -- D-CL2 wins ------------------------------------------------------------------------------------


def test_town_wins_when_the_mafia_is_gone() -> None:
    """D-CL2 3: «no clan member, no dormant werewolf and no maniac living → honest win»."""
    t = table("classic", BASE7)
    events = t.classic_day([(3, 1)], [(1, [3, 4, 5, 6, 7])])
    events += t.night(shot("mafia", 4))
    events += t.classic_day([(3, 2)], [(2, [3, 5, 6])])
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 1),
        ("killed", 4),
        ("executed", 2),
        ("game_over", ("town",)),
    ]
    assert phrases(events, "game_over") == [("game_over", "cl_honest_win")]
    # D-G7: «When the game ends every role is revealed».
    assert engine.view_for(t.s, 4)["roles"] == {str(i + 1): r for i, r in enumerate(BASE7)}


def test_mafia_wins_with_a_strict_majority_only() -> None:
    """D-CL2 4: «a clan whose living members are strictly more than all other living players wins …
    (Strict majority applies to the mafia also in games without yakuza — «Каждый клан».)» — 002:
    «побеждает в том случае, если игроков данного клана осталось больше, чем других игроков»."""
    t = table("classic", BASE7)
    events = t.classic_day([(1, 4)], [(4, [1, 2, 3, 5, 6, 7])])
    events += t.night(shot("mafia", 5))
    events += t.classic_day([(1, 6)], [(6, [1, 2, 3, 7])])
    # Two mafiosi against two others: the game goes on into the night.
    assert not t.s.over and t.s.phase == "night"
    events += t.night(shot("mafia", 7))
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 4),
        ("killed", 5),
        ("executed", 6),
        ("killed", 7),
        ("game_over", ("mafia",)),
    ]
    assert phrases(events, "game_over") == [("game_over", "cl_mafia_win")]


def test_yakuza_clan_wins_on_its_own() -> None:
    """002: «Каждый клан играет сам за себя и побеждает в том случае, если игроков данного клана
    осталось больше, чем других игроков»; D-CL17: «Mafia and yakuza may target each other»."""
    t = table("classic", ["mafioso", "yakuza", "yakuza", CIV, CIV], "yakuza")
    to_day(t, 2)
    events = t.night(shot("mafia", 4), shot("yakuza", 1))
    assert brief(events, "killed", "game_over") == [("killed", 1), ("killed", 4), ("game_over", ("yakuza",))]
    assert phrases(events, "game_over") == [("game_over", "cl_yakuza_win")]


def test_maniac_wins_only_alone_and_keeps_the_town_from_winning() -> None:
    """002: маньяк «Может победить, только если останется один»; D-CL2 3: no honest win while the
    maniac lives."""
    t = table("classic", ["mafioso", "maniac", CIV, CIV], "maniac")
    events = t.classic_day([(3, 1)], [(1, [2, 3, 4])])
    assert not t.s.over
    events += t.night(act(2, 3))
    assert not t.s.over
    events += t.classic_day([(2, 4)], [(4, [2])])
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 1),
        ("killed", 3),
        ("executed", 4),
        ("game_over", ("solo",)),
    ]
    assert phrases(events, "game_over") == [("game_over", "cl_maniac_win")]


def test_town_wins_when_the_maniac_is_the_last_threat() -> None:
    """D-CL2 3: honest win once no clan member and no maniac lives."""
    t = table("classic", ["mafioso", "maniac", CIV, CIV, CIV], "maniac")
    events = t.classic_day([(3, 1)], [(1, [2, 3, 4, 5])])
    events += t.night(act(2, 3))
    events += t.classic_day([(4, 2)], [(2, [4, 5])])
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 1),
        ("killed", 3),
        ("executed", 2),
        ("game_over", ("town",)),
    ]


def test_nobody_left_is_a_draw() -> None:
    """D-CL2 1: «nobody living → draw»; D-CL17: the sheriff shot by the mafia still shoots."""
    t = table("classic", ["mafioso", "sheriff", CIV], "sheriff")
    events = t.classic_day([(1, 3)], [(3, [1, 2])])
    assert not t.s.over  # one mafioso against one other is no strict majority
    events += t.night(shot("mafia", 2), act(2, 1))
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 3),
        ("killed", 1),
        ("killed", 2),
        ("game_over", ()),
    ]
    assert phrases(events, "game_over") == [("game_over", "game_draw")]
    assert t.s.draw


def test_lawyer_is_not_counted_in_the_clan() -> None:
    """D-CL5: the lawyer «plays for the mafia (wins with it) but is not a clan member … not counted in
    D-CL2»: one mafioso and the lawyer against one citizen is no mafia win, and the mafia gone with the
    lawyer alive is an honest win."""
    t = table("classic", ["mafioso", "classic_lawyer", CIV, CIV], "lawyer")
    events = t.classic_day([(1, 3)], [(3, [1, 2, 4])])
    assert not t.s.over
    events += t.night()
    events += t.classic_day([(4, 1)], [(1, [4])])
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 3),
        ("executed", 1),
        ("game_over", ("town",)),
    ]


def test_lawyer_wins_with_the_mafia() -> None:
    """D-CL2 4: «a clan … wins (its allies too)»: the winners are the mafia side, the lawyer's side."""
    t = table("classic", ["mafioso", "mafioso", "classic_lawyer", CIV, CIV], "lawyer")
    events = t.classic_day([(1, 4)], [(4, [1, 2, 3])])
    assert not t.s.over  # 2 mafiosi against the lawyer and a citizen: not strictly more
    events += t.night(shot("mafia", 5))
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 4),
        ("killed", 5),
        ("game_over", ("mafia",)),
    ]
    assert t.s.winners == (t.ruleset.roles["classic_lawyer"].side,)


# -- D-CL3 voting and ties -------------------------------------------------------------------------


def test_abstainers_go_to_the_last_candidate() -> None:
    """6.8: «Воздерживаться при голосовании запрещено. Голоса игроков, которые не проголосовали,
    отдаются последнему кандидату.»"""
    t = table("classic", BASE7)
    to_day(t, 2)
    events = t.classic_day([(4, 1), (1, 4)], [(1, [3, 4])])
    assert brief(events, "nominated", "speech", "ballot", "vote_count", "abstainers_added", "executed") == [
        ("nominated", 4, 1),
        ("nominated", 1, 4),
        ("speech", 1, "last_word"),
        ("speech", 4, "last_word"),
        ("ballot", 1, "main"),
        ("vote_count", 1, 2, "main"),
        ("ballot", 4, "main"),
        ("abstainers_added", (1, 2, 5, 6, 7), 4),
        ("vote_count", 4, 5, "main"),
        ("executed", 4),
    ]


def test_one_vote_per_player_and_self_votes_allowed() -> None:
    """D-CL3: «each voter votes for exactly one candidate … Self-votes allowed.»"""
    t = table("classic", BASE7)
    t.classic_day([(4, 1), (1, 4)], None)
    assert t.s.step.kind == "vote" and t.s.step.seat == 1
    t.send(Vote(seat=1, candidate=1))
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, Vote(seat=1, candidate=1))
    t.advance()
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, Vote(seat=1, candidate=4))


def test_a_hand_may_go_down_until_the_count_closes() -> None:
    """D-CL3: «each voter votes for exactly one candidate and may change until the candidate's count
    closes («три»)». Seat 3 raises his hand for 1, lowers it and votes for 4 instead; after the count of
    1 closes, nobody can take back a vote for 1."""
    t = table("classic", BASE7)
    t.classic_day([(4, 1), (1, 4)], None)
    assert t.s.step.kind == "vote" and t.s.step.seat == 1
    events = t.send(Vote(seat=3, candidate=1), Vote(seat=2, candidate=1), Unvote(seat=3))
    assert brief(events, "voted", "unvoted") == [("voted", 3, 1), ("voted", 2, 1), ("unvoted", 3, 1)]
    assert 3 in queries.voters(t.s) and 2 not in queries.voters(t.s)
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Unvote(seat=3))  # his hand is down already
    events = t.advance()
    events += t.send(Vote(seat=3, candidate=4))
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Unvote(seat=2))  # the count of 1 is closed
    events += t.advance()
    assert brief(events, "vote_count") == [("vote_count", 1, 1, "main"), ("vote_count", 4, 6, "main")]


def test_where_the_book_does_not_say_so_a_vote_stays() -> None:
    """Only classic's D-CL3 lets a hand go down; simple's ballot keeps every vote cast."""
    t = table("classic", BASE7)
    with pytest.raises(WrongPhase):
        engine.apply(t.s, Unvote(seat=1))
    simple = table("simple", ["mafioso", "don", "commissar", "putana", "doctor", "maniac", *["civilian"] * 6])
    simple.simple_day([(1, 7)], None)
    assert simple.s.step.kind == "vote"
    simple.send(Vote(seat=2, candidate=7))
    with pytest.raises(AlreadyActed, match="не снимают"):
        engine.apply(simple.s, Unvote(seat=2))


def test_two_of_three_tied_revote_between_them() -> None:
    """6.8: «Если кандидатов было больше чем два, и за двоих из них проголосовало одинаковое
    количество голосов, причем, это количество было максимальным, то проводится еще одно голосование,
    при котором выставляются кандидатуры только этих двоих.»"""
    t = table("classic", BASE7)
    events = t.classic_day([(4, 5), (5, 6), (6, 7)], [(5, [1, 2, 3]), (6, [4, 5, 6]), (7, [7])])
    events += t.ballot([(5, [1, 2, 3, 4])])
    assert brief(events, "ballot", "vote_count", "tie", "executed") == [
        ("ballot", 5, "main"),
        ("vote_count", 5, 3, "main"),
        ("ballot", 6, "main"),
        ("vote_count", 6, 3, "main"),
        ("ballot", 7, "main"),
        ("vote_count", 7, 1, "main"),
        ("tie", (5, 6)),
        ("ballot", 5, "revote"),
        ("vote_count", 5, 4, "revote"),
        ("ballot", 6, "revote"),
        ("vote_count", 6, 3, "revote"),
        ("executed", 5),
    ]


def test_three_tied_revote_among_all_then_nobody() -> None:
    """D-CL3: «three or more tied for most → revote among all tied; still tied among three or more →
    nobody eliminated»."""
    t = table("classic", [*BASE8, CIV])
    votes = [(1, [4, 5, 6]), (2, [7, 8, 9]), (3, [1, 2, 3])]
    events = t.classic_day([(4, 1), (5, 2), (6, 3)], votes)
    events += t.ballot(votes)
    assert brief(events, "tie", "ballot", "no_elimination", "executed") == [
        ("ballot", 1, "main"),
        ("ballot", 2, "main"),
        ("ballot", 3, "main"),
        ("tie", (1, 2, 3)),
        ("ballot", 1, "revote"),
        ("ballot", 2, "revote"),
        ("ballot", 3, "revote"),
        ("tie", (1, 2, 3)),
        ("no_elimination", "tie"),
    ]
    assert t.s.phase == "night"


def test_two_tied_speak_revote_then_the_citizen_killed_last_night_decides() -> None:
    """6.8: «В том случае, если в голосовании участвовали два кандидата и он получили равное количество
    голосов, каждому из них предоставляется слово, после чего производится повторное голосование. В том
    случае, если голосующие не изменили своего решения …, в голосовании участвует последний убитый
    прошлой ночью честный горожанин.» (D-CL3: a private 30 s ballot between the two.)"""
    t = table("classic", BASE7)
    to_day(t, 2)
    t.night(shot("mafia", 4))
    votes = [(1, [3, 5, 6]), (3, [1, 2, 7])]
    events = t.classic_day([(3, 1), (1, 3)], votes)
    events += t.until(lambda s: s.step.kind == "vote")
    events += t.ballot(votes)
    assert t.s.step.kind == "tiebreak"
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Vote(seat=5, candidate=1))
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, Vote(seat=4, candidate=5))
    events += t.send(Vote(seat=4, candidate=1))
    assert brief(events, "speech", "tie", "ballot", "tiebreak_ballot", "tiebreak_vote", "executed") == [
        ("speech", 1, "last_word"),
        ("speech", 3, "last_word"),
        ("ballot", 1, "main"),
        ("ballot", 3, "main"),
        ("tie", (1, 3)),
        ("speech", 1, "tie_word"),
        ("speech", 3, "tie_word"),
        ("ballot", 1, "after_words"),
        ("ballot", 3, "after_words"),
        ("tie", (1, 3)),
        ("tiebreak_ballot", 4, (1, 3)),
        ("tiebreak_vote", 4, 1),
        ("executed", 1),
    ]
    ballot = next(e for e in events if e.type == "tiebreak_ballot")
    assert ballot.audience.to_json() == {"seats": [4]}


def test_two_tied_in_a_revote_speak_then_the_dead_citizen_decides() -> None:
    """D-CL3: «Two candidates tied (first vote or revote) → a 30 s word each, revote; still tied → the
    tie-breaker» — here after a first ballot of three where two tied for most."""
    t = table("classic", [*BASE8, CIV])
    to_day(t, 2)
    t.night(shot("mafia", 9))
    main = [(4, [1, 2, 3]), (5, [5, 6, 7]), (6, [4, 8])]
    pair = [(4, [1, 2, 3, 8]), (5, [4, 5, 6, 7])]
    events = t.classic_day([(1, 4), (2, 5), (3, 6)], main)
    events += t.ballot(pair)
    events += t.until(lambda s: s.step.kind == "vote")
    events += t.ballot(pair)
    words = [e for e in events if e.type == "speech" and e.get("purpose") == "tie_word"]
    assert [(e.get("seat"), e.get("seconds")) for e in words] == [(4, 30), (5, 30)]
    assert brief(events, "tie", "ballot", "tiebreak_ballot") == [
        ("ballot", 4, "main"),
        ("ballot", 5, "main"),
        ("ballot", 6, "main"),
        ("tie", (4, 5)),
        ("ballot", 4, "revote"),
        ("ballot", 5, "revote"),
        ("tie", (4, 5)),
        ("ballot", 4, "after_words"),
        ("ballot", 5, "after_words"),
        ("tie", (4, 5)),
        ("tiebreak_ballot", 9, (4, 5)),
    ]
    assert brief(t.send(Vote(seat=9, candidate=5)), "executed") == [("executed", 5)]


def test_two_tied_on_day_two_nobody_is_eliminated() -> None:
    """D-CL3: «If there is no such player (day 2, …) or he does not answer → nobody is eliminated»."""
    t = table("classic", BASE8)
    votes = [(1, [3, 4, 5, 6]), (3, [1, 2, 7, 8])]
    events = t.classic_day([(3, 1), (1, 3)], votes)
    events += t.until(lambda s: s.step.kind == "vote")
    events += t.ballot(votes)
    assert brief(events, "tie", "tiebreak_ballot", "no_elimination", "executed") == [
        ("tie", (1, 3)),
        ("tie", (1, 3)),
        ("no_elimination", "tie"),
    ]
    assert t.s.phase == "night"


def test_the_tiebreaker_who_does_not_answer_saves_both() -> None:
    """D-CL3: «… or he does not answer → nobody is eliminated that day»."""
    t = table("classic", BASE7)
    to_day(t, 2)
    t.night(shot("mafia", 4))
    votes = [(1, [3, 5, 6]), (3, [1, 2, 7])]
    t.classic_day([(3, 1), (1, 3)], votes)
    t.until(lambda s: s.step.kind == "vote")
    t.ballot(votes)
    assert t.s.step.kind == "tiebreak"
    assert brief(t.advance(), "no_elimination", "executed") == [("no_elimination", "tie")]


@pytest.mark.parametrize(
    ("night", "breaker"),
    [
        # Two honest victims: the one whose killing step came last in the night order (the maniac's).
        ((shot("mafia", 10), act(5, 9)), 9),
        # The victims were mafiosi: no honest citizen died, nobody decides.
        ((shot("mafia", 1), act(5, 2)), 0),
        # The doctor saved the mafia's target (and the maniac let his time run out): nobody decides.
        ((shot("mafia", 10), act(4, 10)), 0),
    ],
)
def test_which_dead_citizen_breaks_the_tie(night: tuple[Command, ...], breaker: int) -> None:
    """D-CL3: «the town-side player killed last night (if several, the one whose killing step came last
    in the night order) … If there is no such player (day 2, a save, the victim was not honest) …
    nobody is eliminated»."""
    seats = ["mafioso", "mafioso", "commissar", "doctor", "maniac", CIV, CIV, CIV, CIV, CIV, CIV, CIV]
    t = table("classic", seats, "doctor", "maniac")
    to_day(t, 2)
    t.night(*night)
    t.until(lambda s: s.step.kind == "nominations")
    living = t.s.living()
    voters_a, voters_b = living[: len(living) // 2], living[len(living) // 2 :]
    assert len(voters_a) == len(voters_b)
    t.classic_day([(6, 7), (7, 6)], [(7, voters_a), (6, voters_b)])
    t.until(lambda s: s.step.kind == "vote")
    events = t.ballot([(7, voters_a), (6, voters_b)])
    if breaker:
        assert brief(events, "tiebreak_ballot") == [("tiebreak_ballot", breaker, (7, 6))]
    else:
        assert brief(events, "tiebreak_ballot", "no_elimination") == [("no_elimination", "tie")]


# -- D-CL4 the «убит» plate ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("killer", "options"),
    [
        (shot("mafia", 10), ()),
        (shot("yakuza", 10), ("yakuza",)),
        (act(5, 10), ("maniac",)),
        (act(6, 10), ("sheriff",)),
    ],
)
def test_killed_plate_after_any_earlier_kill(killer: Command, options: tuple[str, ...]) -> None:
    """D-CL4: «Shown when the target was successfully hit tonight by a kill resolved before the
    commissar's step (mafia, yakuza, maniac, sheriff)»."""
    t = table("classic", FULL, *options)
    to_day(t, 2)
    events = t.night(killer, act(8, 10))
    assert brief(events, "check", "killed") == [("check", 8, 10, "killed"), ("killed", 10)]


def test_killed_plate_even_when_the_doctor_saves_and_for_the_lawyer_too() -> None:
    """D-CL4: «… even if the doctor later saves or revives him (the doctor acts last). The same
    three-valued answer is given to the lawyer (step 5).»"""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.night(shot("mafia", 10), act(7, 10), act(8, 10), act(9, 10))
    assert brief(events, "check", "killed") == [("check", 7, 10, "killed"), ("check", 8, 10, "killed")]
    assert ("announce", "nobody_killed") in brief(events, "announce")


def test_no_killed_plate_for_the_immortal() -> None:
    """D-CL4: «… and is not night-immune (immortal, judge)»; 002: бессмертный «ночью он абсолютно
    неуязвим»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.night(shot("mafia", 11), act(5, 11), act(6, 11), act(8, 11))
    assert brief(events, "check", "killed") == [("check", 8, 11, "not_mafia")]
    assert ("announce", "nobody_killed") in brief(events, "announce")


# -- D-CL5 the lawyer ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "plate"),
    [(1, "mafia"), (3, "mafia"), (4, "mafia"), (5, "not_mafia"), (8, "not_mafia"), (10, "not_mafia")],
)
def test_lawyer_statuses(target: int, plate: str) -> None:
    """002: адвокат «Так же, как и комиссар, может ночью узнавать статус одного игрока»; ниндзя «при
    попытке «адвоката» — «мафия»»; D-CL5: ««мафия» for mafia and yakuza clan members (incl. ninja …),
    «честный» for others»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.night(act(7, target))
    assert brief(events, "check") == [("check", 7, target, plate)]
    assert next(e for e in events if e.type == "check").audience.to_json() == {"seats": [7]}


def test_lawyer_does_not_wake_with_the_mafia() -> None:
    """D-CL5: «he does not wake with the mafia, the mafia does not know him»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.events + t.night()
    assert ("awake", "mafia_meets", (1, 2)) in brief(events, "awake")
    assert ("awake", "mafia", (1, 2)) in brief(events, "awake")
    assert all(7 not in e.get("seats") for e in events if e.type == "team_members")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, engine.Propose(seat=7, target=10))


# -- D-CL7 the werewolf ----------------------------------------------------------------------------


def test_werewolf_sleeps_until_a_mafioso_is_eliminated_then_joins_the_next_night() -> None:
    """002: «как только одну из Мафий убивают, ближайшей же ночью Мафией становитесь вы, приобретая все
    функции этой роли»; D-CL7: «From the next night he wakes with the clan that lost the member, takes
    part in its kill and checks show «мафия». Before that: no action, woken with nobody, checks show
    «честный»»."""
    seats = ["mafioso", "mafioso", "commissar", "werewolf", CIV, CIV, CIV, CIV]
    t = table("classic", seats, "werewolf")
    to_day(t, 2)
    first = t.night(shot("mafia", 5), act(3, 4))
    assert brief(first, "awake", "check") == [
        ("awake", "mafia", (1, 2)),
        ("awake", "commissar", (3,)),
        ("check", 3, 4, "not_mafia"),
    ]
    day = t.classic_day([(3, 1)], [(1, [3, 4, 6, 7, 8])])
    assert brief(day, "executed", "team_joined", "awake") == [
        ("executed", 1),
        ("team_joined", 4, "mafia"),
        ("awake", "mafia", (2, 4)),
    ]
    joined = next(e for e in day if e.type == "team_joined")
    assert joined.audience.to_json() == {"seats": [4]}
    assert joined.phrase == "priv_werewolf_turned"
    second = t.night(engine.Propose(seat=4, target=6), engine.Propose(seat=2, target=6), act(3, 4))
    assert brief(second, "check", "killed") == [("check", 3, 4, "mafia"), ("killed", 6)]


def test_werewolf_joins_the_night_after_a_night_kill_not_the_same_night() -> None:
    """D-CL7: «the trigger is the first elimination (night or day) of any member of a mafia clan. From
    the next night he wakes with the clan»."""
    seats = ["mafioso", "mafioso", "commissar", "werewolf", "maniac", CIV, CIV, CIV]
    t = table("classic", seats, "werewolf", "maniac")
    to_day(t, 2)
    first = t.night(shot("mafia", 6), act(5, 1))
    assert brief(first, "killed", "team_joined") == [("killed", 1), ("killed", 6)]
    second = t.night(shot("mafia", 7), act(5, 8))
    assert brief(second, "team_joined", "awake")[:2] == [
        ("team_joined", 4, "mafia"),
        ("awake", "mafia", (2, 4)),
    ]


def test_werewolf_joins_the_mafia_when_both_clans_lose_a_member_at_once() -> None:
    """D-CL7: «he wakes with the clan that lost the member (mafia if both lost one at once)» — here the
    yakuza's loss has the lower seat and is announced first."""
    seats = ["yakuza", "yakuza", "mafioso", "mafioso", "werewolf", CIV, CIV, CIV, CIV]
    t = table("classic", seats, "yakuza", "werewolf")
    to_day(t, 2)
    events = t.night(shot("mafia", 1), shot("yakuza", 3))
    events += t.to_night()
    assert brief(events, "killed", "team_joined") == [
        ("killed", 1),
        ("killed", 3),
        ("team_joined", 5, "mafia"),
    ]


def test_the_werewolf_joining_at_nightfall_can_give_the_mafia_the_majority() -> None:
    """D-G7: «win conditions are evaluated after every batch of eliminations (…, after 002's
    werewolf/judge changes)»; D-CL7: «From the next night he wakes with the clan that lost the member»
    — one mafioso and the werewolf against one citizen is a strict majority (D-CL2 4)."""
    t = table("classic", ["mafioso", "mafioso", "werewolf", CIV], "werewolf")
    to_day(t, 2)
    events = t.classic_day([(4, 1)], [(1, [2, 3, 4])])
    assert brief(events, "executed", "team_joined", "night_step", "game_over") == [
        ("executed", 1),
        ("team_joined", 3, "mafia"),
        ("game_over", ("mafia",)),
    ]


def test_a_dormant_werewolf_keeps_the_town_from_winning() -> None:
    """D-CL2: «a living dormant werewolf counts as a mafia member only for step 3» — the last mafioso's
    execution is no honest win: the werewolf becomes the mafia and shoots."""
    t = table("classic", ["mafioso", "werewolf", CIV, CIV, CIV], "werewolf")
    events = t.classic_day([(3, 1)], [(1, [2, 3, 4, 5])])
    assert not t.s.over
    events += t.night(shot("mafia", 3))
    events += t.classic_day([(4, 2)], [(2, [4, 5])])
    assert brief(events, "executed", "team_joined", "killed", "game_over") == [
        ("executed", 1),
        ("team_joined", 2, "mafia"),
        ("killed", 3),
        ("executed", 2),
        ("game_over", ("town",)),
    ]


# -- D-CL8 the doctor ------------------------------------------------------------------------------


def test_doctor_variant_one_heals_self_repeats_skips_and_is_never_announced() -> None:
    """002: «1-й вариант: … «Ночью» доктор «лечит» выбранного наугад игрока. Днем не объявляется, кого
    именно «вылечил» доктор.» D-CL8: «heals one living player (self allowed, repeats allowed, skip
    allowed); the heal cancels every night kill on him»."""
    seats = ["mafioso", "mafioso", "commissar", "doctor", "maniac", CIV, CIV, CIV]
    t = table("classic", seats, "doctor", "maniac")
    to_day(t, 2)
    first = t.night(shot("mafia", 4), act(5, 4), act(4, 4))
    t.classic_day()
    second = t.night(shot("mafia", 4), act(5, 6), act(4, 4))
    t.classic_day()
    t.to_step("doctor")
    third = t.send(Skip(seat=4))
    third += t.to_day()
    assert brief(first, "killed", "announce")[-3:] == [
        ("announce", "day_breaks"),
        ("announce", "nobody_killed"),
        ("announce", "discussion_start"),
    ]
    assert brief(second, "killed") == [("killed", 6)]
    assert brief(third, "action_skipped", "killed") == [("action_skipped",)]
    assert all(e.type not in ("protected", "saved") for e in t.events)


def test_doctor_variant_two_is_shown_the_victims_and_revives_one() -> None:
    """002: «2-й вариант: «Ночью» доктор «просыпается» последним. Ведущий показывает, какие игроки
    «убиты», и доктор, по своему выбору, реанимирует любого из «убитых» игроков или нет.» D-CL8: «the
    revived player simply stays; nothing is announced»."""
    seats = ["mafioso", "mafioso", "commissar", "doctor", "maniac", CIV, CIV, CIV]
    t = table("classic", seats, "doctor_revive", "maniac")
    to_day(t, 2)
    events = t.night(shot("mafia", 6), act(5, 7), act(4, 7))
    assert brief(events, "night_step", "victims_shown", "killed")[-3:] == [
        ("night_step", "doctor"),
        ("victims_shown", 4, (6, 7)),
        ("killed", 6),
    ]
    shown_event = next(e for e in events if e.type == "victims_shown")
    assert shown_event.audience.to_json() == {"seats": [4]}
    assert phrases(events, "night_step")[-1] == ("night_step", "cl_doctor2_wakes")


def test_doctor_variant_two_revives_only_tonights_victims_himself_included() -> None:
    """D-CL8: «may revive one of them (himself included if he is a victim) or none»."""
    seats = ["mafioso", "mafioso", "commissar", "doctor", "maniac", CIV, CIV, CIV]
    t = table("classic", seats, "doctor_revive", "maniac")
    to_day(t, 2)
    t.to_step("doctor")
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(4, 6))  # nobody died tonight
    t = table("classic", seats, "doctor_revive", "maniac")
    to_day(t, 2)
    events = t.night(shot("mafia", 4), act(5, 6), act(4, 4))
    assert brief(events, "victims_shown", "killed") == [("victims_shown", 4, (4, 6)), ("killed", 6)]
    assert 4 in t.s.alive


# -- D-CL11 reveal, D-CL12 wording ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "revealed", "phrase"),
    [((), True, "cl_lynched"), (("hidden_roles",), False, "cl_lynched_hidden")],
)
def test_lynched_card_is_shown_unless_hidden_roles(
    options: tuple[str, ...], revealed: bool, phrase: str
) -> None:
    """6.7: «Игрок, который в результате голосования признан виновным, открывает и показывает всем свою
    карту»; 6.18 special moment 1: «рекомендуется вообще не разглашать статус «убитых» игроков» (D-CL11,
    option `hidden_roles`). Night victims are never revealed; every role is shown at the end."""
    t = table("classic", BASE7, *options)
    events = t.classic_day([(3, 1)], [(1, [3, 4, 5, 6, 7])])
    events += t.night(shot("mafia", 4))
    executed = next(e for e in events if e.type == "executed")
    killed = next(e for e in events if e.type == "killed")
    assert ("role" in executed.data, executed.phrase) == (revealed, phrase)
    if revealed:
        assert executed.get("role") == "mafioso"
        assert engine.view_for(t.s, 5)["roles"].get("1") == "mafioso"
    else:
        assert "1" not in engine.view_for(t.s, 5)["roles"]
    assert "role" not in killed.data
    assert "4" not in engine.view_for(t.s, 5)["roles"]
    events += t.classic_day([(3, 2)], [(2, [3, 5, 6])])
    assert brief(events, "game_over") == [("game_over", ("town",))]
    assert engine.view_for(t.s, 5)["roles"] == {str(i + 1): r for i, r in enumerate(BASE7)}


@pytest.mark.parametrize(
    ("extra", "options", "phrase"),
    [
        (CIV, (), "cl_player_killed"),
        ("doctor", ("doctor",), "cl_player_killed"),
        ("immortal", ("immortal",), "cl_player_killed"),
        ("werewolf", ("werewolf",), "cl_player_killed"),
        ("maniac", ("maniac",), "cl_player_killed_neutral"),
        ("sheriff", ("sheriff",), "cl_player_killed_neutral"),
        ("yakuza", ("yakuza",), "cl_player_killed_neutral"),
    ],
)
def test_night_death_wording(extra: str, options: tuple[str, ...], phrase: str) -> None:
    """D-CL12: «With the mafia as the only killer, the exact «Сегодня ночью мафия коварно убила {name}»;
    when yakuza, maniac or sheriff is in play, every victim is announced with the neutral
    `cl_player_killed_neutral` so the killer is not revealed.»"""
    t = table("classic", ["mafioso", "mafioso", "commissar", extra, CIV, CIV, CIV], *options)
    to_day(t, 2)
    events = t.night(shot("mafia", 5))
    assert phrases(events, "killed") == [("killed", phrase)]


# -- D-CL17 timing, roles ------------------------------------------------------------------------


def test_all_kills_take_effect_at_the_end_of_the_night() -> None:
    """D-CL17: «All classic night kills take effect at the end of the night; a player targeted earlier
    still acts»: the commissar and the sheriff shot by the mafia still act; the immortal «survives every
    night kill»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.night(shot("mafia", 6), shot("yakuza", 8), act(5, 11), act(6, 1), act(8, 2))
    assert brief(events, "check", "killed") == [
        ("check", 8, 2, "mafia"),
        ("killed", 1),
        ("killed", 6),
        ("killed", 8),
    ]
    assert 11 in t.s.alive


def test_victims_are_announced_in_seat_order() -> None:
    """D-G11: «victims are announced in ascending seat order (never in kill order …)»: the mafia
    (first in the night) kills 7, the maniac (third) kills 3."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    events = t.night(shot("mafia", 10), act(5, 3))
    assert brief(events, "killed") == [("killed", 3), ("killed", 10)]


def test_maniac_must_kill_and_sheriff_may_pass() -> None:
    """002: маньяк «Каждую ночь убивает любого игрока» (D-G3: mandatory); шериф «"Ночью" может
    «убить» любого игрока, но может и не делать этого» and «может «убить» «честного» игрока»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    t.to_step("maniac")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Skip(seat=5))
    t.send(act(5, 2))
    t.to_step("sheriff")
    assert brief(t.send(Skip(seat=6))) == [("action_skipped",)]
    events = t.to_day()
    assert brief(events, "killed") == [("killed", 2)]
    events = t.night(act(5, 9), act(6, 10))
    assert brief(events, "killed") == [("killed", 9), ("killed", 10)]


def test_yakuza_and_ninja_shoot_as_one_clan_unknown_to_the_mafia() -> None:
    """002: «Якудза» не знает, кто принадлежит к «мафии», а «мафия» не знает, кто «якудза»»; «Ниндзя
    … Ночью «просыпается» вместе со своим кланом». D-H8 group choice: the most proposed target."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    members = [e for e in t.events if e.type == "team_members"]
    assert [(e.audience.to_json(), e.get("team"), e.get("seats")) for e in members] == [
        ({"seats": [1]}, "mafia", [1, 2]),
        ({"seats": [2]}, "mafia", [1, 2]),
        ({"seats": [3]}, "yakuza", [3, 4]),
        ({"seats": [4]}, "yakuza", [3, 4]),
    ]
    events = t.night(engine.Propose(seat=3, target=10), engine.Propose(seat=4, target=10))
    assert brief(events, "awake", "killed")[1] == ("awake", "yakuza", (3, 4))
    assert brief(events, "killed") == [("killed", 10)]


@pytest.mark.parametrize(
    ("seat", "options"),
    [(5, ("maniac",)), (6, ("sheriff",)), (7, ("lawyer",)), (8, ())],
)
def test_no_ability_targets_its_own_user(seat: int, options: tuple[str, ...]) -> None:
    """D-G4: «no ability may target its own user unless listed here: … classic doctor (both
    variants)»."""
    t = table("classic", FULL, *ALL_OPTIONS)
    to_day(t, 2)
    t.to_step(t.ruleset.roles[FULL[seat - 1]].abilities[0].step)
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(seat, seat))


def test_the_group_kill_is_mandatory_and_disagreement_is_a_miss() -> None:
    """D-G3: «Mandatory (no skip button): … every group kill choice (mafia / yakuza / hunters — the
    book's procedure ends with a choice; failure to agree is a miss, D-H8)»; «может» → optional (the
    commissar's check)."""
    t = table("classic", BASE7)
    to_day(t, 2)
    t.to_step("mafia")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Skip(seat=1))
    assert not queries.is_optional(t.s, 1)
    events = t.send(engine.Propose(seat=1, target=4), engine.Propose(seat=2, target=5))
    events += t.to_step("commissar")
    assert queries.is_optional(t.s, 3)
    events += t.to_day()
    assert brief(events, "team_missed", "killed") == [("team_missed", "mafia", "no_target")]


def test_the_mafia_may_shoot_its_own_member() -> None:
    """D-G4: «Group kills may target any living player, including the group's own members (000/002/003
    do not forbid it)»."""
    t = table("classic", BASE7)
    to_day(t, 2)
    events = t.night(shot("mafia", 2))
    assert brief(events, "killed") == [("killed", 2)]


def test_dead_roles_are_still_called() -> None:
    """D-G8: «city, simple, classic (night deaths hidden): every role in the composition is called every
    night with its wake/sleep lines and a normal wait (random 5–15 s when nobody can act), whether or not
    its holder is alive.» The public event of the dead commissar's step is the very event of a living
    commissar's step: its timer does not tell that nobody can act (the host's wait is the bot's)."""
    living = table("classic", BASE7)
    living.classic_day([(1, 5)], [(5, [1, 2, 3, 4, 6, 7])])
    night = living.night(shot("mafia", 4))
    alive_step = next(e for e in night if e.type == "night_step" and e.get("step") == "commissar")
    t = table("classic", BASE7)
    events = t.classic_day([(1, 3)], [(3, [1, 2, 4, 5, 6, 7])])
    events += t.night(shot("mafia", 4))
    events = events[next(i for i, e in enumerate(events) if e.type == "executed") :]
    steps = [e for e in events if e.type == "night_step"]
    assert [(e.get("step"), e.phrase) for e in steps] == [
        ("mafia", "cl_mafia_wakes"),
        ("commissar", "cl_commissar_wakes"),
    ]
    assert steps[1] == alive_step
    assert brief(events, "awake") == [("awake", "mafia", (1, 2))]
    assert ("night_step_ended", "cl_commissar_sleeps") in phrases(events, "night_step_ended")


def test_roles_not_in_the_game_are_never_called() -> None:
    """D-G8: «roles not in the composition are never called»."""
    t = table("classic", BASE7, *ALL_OPTIONS)
    to_day(t, 2)
    assert [e.get("step") for e in t.night() if e.type == "night_step"] == ["mafia", "commissar"]


def test_eliminated_players_take_no_part() -> None:
    """D-G6: «eliminated players … cannot use game buttons»; 000: «Убитые не могут никаким образом
    участвовать в игре: ни обсуждать, ни голосовать, ни комментировать»."""
    t = table("classic", BASE7)
    t.classic_day([(1, 3)], [(3, [1, 2, 4, 5, 6, 7])])
    t.to_step("commissar")
    with pytest.raises(DeadPlayer):
        engine.apply(t.s, act(3, 1))
    t.to_day()
    t.until(lambda s: s.step.kind == "nominations")
    with pytest.raises(DeadPlayer):
        engine.apply(t.s, Nominate(seat=3, target=1))
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, Nominate(seat=1, target=3))
    t.send(Nominate(seat=1, target=5))
    t.until(lambda s: s.step.kind == "vote")
    with pytest.raises(DeadPlayer):
        engine.apply(t.s, Vote(seat=3, candidate=5))
    assert 3 not in queries.voters(t.s) and 3 not in queries.speakers(t.s)


def test_who_may_speak_vote_and_act_at_each_step() -> None:
    """Issue 2 part 4: «The engine says at each moment who may speak, who may vote and for whom, who is
    awake»; 6.7: the discussion is open to all («Комиссар участвует в обсуждении наравне со всеми»),
    then each candidate's «последнее слово»; 6.9: only the woken role has its eyes open."""
    t = table("classic", BASE7)
    assert (queries.speakers(t.s), queries.awake(t.s)) == ({1}, set(range(1, 8)))
    t.until(lambda s: s.phase == "night")
    assert (queries.speakers(t.s), queries.awake(t.s), queries.actors(t.s)) == (set(), {1, 2}, set())
    t.until(lambda s: s.step.kind == "discussion")
    assert queries.speakers(t.s) == set(range(1, 8))
    t.classic_day([(4, 1), (5, 2)], None)
    t.until(lambda s: s.step.kind == "vote")
    assert (queries.speakers(t.s), queries.voters(t.s)) == (set(), set(range(1, 8)))
    t.send(Vote(seat=4, candidate=1))
    assert queries.voters(t.s) == set(range(1, 8)) - {4}
    t.advance(2)
    t.to_step("mafia")
    assert (queries.awake(t.s), queries.actors(t.s)) == (
        set(t.s.living()) & {1, 2},
        set(t.s.living()) & {1, 2},
    )
    assert queries.targets_for(t.s, 1) == {"team": t.s.living()}
    t.to_step("commissar")
    assert queries.awake(t.s) == {3} and queries.targets_for(t.s, 3) == {
        "": [x for x in t.s.living() if x != 3]
    }


def test_classic_has_no_fouls() -> None:
    """RULESETS.md 9.3: «`hobbyworld`, `classic` and `blood` contain no conduct rules beyond the game
    rules»; D-F7: «"none" for the others»."""
    t = table("classic", BASE7)
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, engine.Foul(seat=1, reason="x"))


def test_nomination_rules() -> None:
    """6.7: «ведущий предлагает выдвинуть подозреваемых … Выдвигаются кандидатуры» — D-CL3 one
    nomination per player (issue 2: «who may nominate whom, how many»); nobody nominates during the
    discussion or for an eliminated player."""
    t = table("classic", BASE7)
    t.until(lambda s: s.step.kind == "discussion")
    with pytest.raises(WrongPhase):
        engine.apply(t.s, Nominate(seat=4, target=1))
    t.advance()
    t.send(Nominate(seat=4, target=1))
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, Nominate(seat=4, target=2))
    with pytest.raises(AlreadyActed):
        engine.apply(t.s, Nominate(seat=5, target=1))
    t.send(Nominate(seat=5, target=5))  # self-nomination is allowed in classic
