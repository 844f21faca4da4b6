"""Scenario tests for the `simple` preset, written from seed 004 and RULESETS.md sections 8, 9.2, 10.6
and 10.7 (D-F5, D-F6).

Each test states the commands and the events it expects, so that a rule change reads as a diff.
"""

from __future__ import annotations

import pytest
from helpers import Table, act, brief, phrases, shot, table

import engine
from engine import Answer, Claim, Foul, IllegalCommand, Nominate, Propose, Remove, Skip, Vote
from engine.errors import IllegalTarget, NotYourTurn, WrongPhase

CIV = "civilian"
# 1 don, 2 mafioso, 3 putana, 4 doctor, 5 commissar, 6 maniac, 7…10 civilians.
TEN = ["don", "mafioso", "putana", "doctor", "commissar", "maniac", CIV, CIV, CIV, CIV]
# 12 players as the seed deals them: 1 don, 2-3 mafiosi, 4 putana, 5 doctor, 6 commissar, 7 maniac.
TWELVE = ["don", "mafioso", "mafioso", "putana", "doctor", "commissar", "maniac", CIV, CIV, CIV, CIV, CIV]


def start(seats: list[str] = TEN) -> Table:
    """A game at the start of day 1's speeches (after the acquaintance night)."""
    t = table("simple", seats)
    t.until(lambda s: s.day == 1)
    return t


# -- D-S1, D-S2 phases ---------------------------------------------------------------------------


def test_acquaintance_night_then_day_one_with_speeches_and_a_vote() -> None:
    """D-S2: «An acquaintance night (the mafia incl. the don meet; no actions, no kills), then Day 1 with
    discussion and vote»; D-S3: «teammates see who the don is»; 8.5: «Тот, кто получил половину или
    более голосов - признан виновным»."""
    t = table("simple", TEN)
    t.simple_day([(7, 2)], [(2, [1, 3, 4, 5, 6])])
    assert brief(t.events, "announce", "night_step", "awake", "speech", "nominated", "executed") == [
        ("announce", "game_start"),
        ("announce", "intro_night_falls"),
        ("night_step", "mafia_meets"),
        ("awake", "mafia_meets", (1, 2)),
        ("announce", "day_breaks"),
        *[("speech", seat, "day") for seat in range(1, 7)],
        ("speech", 7, "day"),
        ("nominated", 7, 2),
        *[("speech", seat, "day") for seat in range(8, 11)],
        ("announce", "vote_start"),
        ("executed", 2),
        ("speech", 2, "farewell"),
    ]
    members = [e for e in t.events if e.type == "team_members"]
    assert [(e.audience.to_json(), e.get("seats"), e.get("leader")) for e in members] == [
        ({"seats": [1]}, [1, 2], [1]),
        ({"seats": [2]}, [1, 2], [1]),
    ]
    assert not any(e.type in ("killed", "check", "action") for e in t.events)


def test_night_order() -> None:
    """D-S1: «1 putana, 2 mafia (don + mafiosi), 3 maniac, 4 doctor, 5 commissar»."""
    t = start()
    events = t.simple_day()
    events += t.night(act(3, 7), act(6, 8), act(4, 9))
    assert [(e.get("step"), e.phrase) for e in events if e.type == "night_step"] == [
        ("putana", "sm_putana_wakes"),
        ("mafia", "sm_mafia_wakes"),
        ("maniac", "sm_maniac_wakes"),
        ("doctor", "sm_doctor_wakes"),
        ("commissar", "sm_commissar_wakes"),
    ]


def test_a_player_killed_tonight_still_acts() -> None:
    """D-S1: «All effects take place at the end of the night; a player killed tonight still acts»: the
    commissar shot by the mafia still learns his result; both victims fall at dawn."""
    t = start()
    t.simple_day()
    events = t.night(act(3, 7), shot("mafia", 5), act(6, 8), act(4, 9), act(5, 1))
    assert brief(events, "check", "killed") == [("check", 5, 1, "mafia"), ("killed", 5), ("killed", 8)]


def test_a_doctor_killed_tonight_still_heals_and_victims_come_in_seat_order() -> None:
    """D-S1: «a player killed tonight still acts»; D-G11: «victims are announced in ascending seat
    order (never in kill order …)»: the mafia (step 2) kills 9, the maniac (step 3) kills 4, whose heal
    still saves 7."""
    t = start()
    t.simple_day()
    events = t.night(act(3, 8), shot("mafia", 9), act(6, 4), act(4, 7))
    assert brief(events, "killed") == [("killed", 4), ("killed", 9)]
    t.simple_day()
    events = t.night(act(3, 10), shot("mafia", 7), act(6, 2))
    assert brief(events, "killed") == [("killed", 2), ("killed", 7)]


def test_first_speaker_rotates_by_day() -> None:
    """Issue 2 part 4: «ordered speech turns (first speaker rotating by day…)»; D-S5: «Nominations
    during the speeches»."""
    t = start()
    t.simple_day()
    t.night(act(3, 7), act(6, 8), act(4, 9))
    t.simple_day()
    speakers = [e.get("seat") for e in t.events if e.type == "speech" and e.get("purpose") == "day"]
    assert speakers == [*range(1, 11), 2, 3, 4, 5, 6, 7, 9, 10, 1]


# -- the roles -----------------------------------------------------------------------------------


def test_don_breaks_the_mafias_ties() -> None:
    """D-S3: «Group choice (D-H8); the don's proposal breaks ties»."""
    t = start(TWELVE)
    t.simple_day()
    events = t.night(act(4, 8), Propose(seat=2, target=9), Propose(seat=1, target=10), act(7, 11), act(5, 5))
    assert brief(events, "proposal", "killed") == [
        ("proposal",),
        ("proposal",),
        ("killed", 10),
        ("killed", 11),
    ]


def test_the_mafias_majority_decides() -> None:
    """D-H8 (D-S3): the team's target is the most proposed one."""
    t = start(TWELVE)
    t.simple_day()
    events = t.night(
        act(4, 8),
        Propose(seat=1, target=10),
        Propose(seat=2, target=9),
        Propose(seat=3, target=9),
        act(7, 11),
        act(5, 5),
    )
    assert brief(events, "killed") == [("killed", 9), ("killed", 11)]


def test_putana_visiting_the_don_makes_the_mafia_miss() -> None:
    """004: «Если «Путана» пригласит в гости одного из мафиози, то это не влияет на выстрел «Мафии» (за
    исключением, если будет приглашен «Дон», в этом случае мафия промахивается).» D-S3: «not announced,
    the mafia not told»."""
    t = start()
    t.simple_day()
    events = t.night(act(3, 1), shot("mafia", 7), act(6, 8), act(4, 9))
    assert brief(events, "killed") == [("killed", 8)]
    missed = [e for e in events if e.type == "team_missed"]
    assert [(e.get("reason"), e.audience.to_json()) for e in missed] == [("blocked", "host")]


@pytest.mark.parametrize("don_alive", [True, False])
def test_putana_visiting_a_mafioso_does_not_stop_the_shot(don_alive: bool) -> None:
    """004: «Если «Путана» пригласит в гости одного из мафиози, то это не влияет на выстрел «Мафии»» —
    also when that mafioso is the last one left (D-S3: «Other mafiosi have no ability for her to
    block»)."""
    t = start()
    if not don_alive:
        t.simple_day([(7, 1)], [(1, [2, 3, 4, 5, 6])])
    else:
        t.simple_day()
    events = t.night(act(3, 2), shot("mafia", 7), act(6, 8), act(4, 9))
    assert brief(events, "killed", "team_missed") == [("killed", 7), ("killed", 8)]


def test_the_mafia_may_kill_its_own_player() -> None:
    """004: «Мафия может специально убить ночью своего игрока»; D-G4."""
    t = start()
    t.simple_day()
    events = t.night(act(3, 7), shot("mafia", 2), act(6, 8), act(4, 9))
    assert brief(events, "killed") == [("killed", 2), ("killed", 8)]


def test_putana_must_invite_someone_else_and_not_the_same_player_twice_running() -> None:
    """004: «ВНИМАНИЕ: Путана обязана приглашать одного из жителей города в гости.» «Нельзя 2 ночи
    подряд приглашать в гости одного и того же жителя.» D-S9: «not herself («приглашая его к себе»)»."""
    t = start()
    t.simple_day()
    t.to_step("putana")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Skip(seat=3))
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(3, 3))
    t.night(act(3, 7), act(6, 8), act(4, 9))
    t.simple_day()
    t.to_step("putana")
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(3, 7))
    t.night(act(3, 9), act(6, 10), act(4, 4))
    t.simple_day()
    # Two nights later the same guest is allowed again.
    events = t.night(act(3, 7), act(6, 2), act(4, 5))
    assert brief(events, "action", "killed") == [("action",), ("action",), ("action",), ("killed", 2)]


def test_putana_visiting_the_doctor_the_maniac_or_the_commissar() -> None:
    """004: «Если путана, приглашает «Доктора», то он … забывает дать жителю города целебное зелье. В
    случаи если в гости будет приглашен «Маньяк», то он забывает о своей жестокости этой ночью.» D-S4:
    «Putana-blocked → `priv_check_nothing`»; D-S9: «Her visit does not protect»."""
    t = start()
    t.simple_day()
    doctor = t.night(act(3, 4), shot("mafia", 7), act(6, 10), act(4, 7))
    t.simple_day()
    maniac = t.night(act(3, 6), shot("mafia", 8), act(6, 9), act(4, 4))
    t.simple_day()
    commissar = t.night(act(3, 5), act(6, 3), act(4, 9), act(5, 1))
    assert brief(doctor, "killed") == [("killed", 7), ("killed", 10)]
    assert brief(maniac, "killed") == [("killed", 8)]
    assert brief(commissar, "check", "check_nothing", "killed") == [("check_nothing", 5), ("killed", 3)]
    nothing = next(e for e in commissar if e.type == "check_nothing")
    assert (nothing.phrase, nothing.audience.to_json()) == ("priv_check_nothing", {"seats": [5]})


def test_doctor_must_heal_himself_allowed_but_not_the_same_player_twice_running() -> None:
    """004: доктор «обязательно даёт одному жителю целебное зелье (в том числе можно его оставить
    себе)… Нельзя 2 ночи подряд давать зелье одному и тому же жителю.» D-S10: «self allowed any number
    of times within the two-nights rule»."""
    t = start()
    t.simple_day()
    t.to_step("doctor")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Skip(seat=4))
    t = start()
    t.simple_day()
    first = t.night(act(3, 7), shot("mafia", 4), act(6, 4), act(4, 4))
    t.simple_day()
    t.to_step("putana")
    t.send(act(3, 8))
    t.to_step("maniac")
    t.send(act(6, 9))
    t.to_step("doctor")
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(4, 4))
    t.send(act(4, 10))
    t.to_day()
    t.simple_day()
    third = t.night(act(3, 7), shot("mafia", 4), act(6, 4), act(4, 4))
    assert brief(first, "killed") == []
    assert brief(third, "killed") == []
    assert 4 in t.s.alive


def test_commissar_sees_mafia_or_not_mafia_and_may_skip() -> None:
    """D-S4: «мафия» (don, mafiosi) / «не мафия» (everyone else, the maniac included). Optional each
    night.»"""
    t = start()
    t.simple_day()
    first = t.night(act(3, 7), act(6, 8), act(4, 9), act(5, 6))
    t.simple_day()
    t.to_step("commissar")
    skipped = t.send(Skip(seat=5))
    second = t.to_day()
    assert brief(first, "check") == [("check", 5, 6, "not_mafia")]
    assert brief(skipped + second, "check", "action_skipped") == [("action_skipped",)]


def test_maniac_must_choose_and_a_timeout_kills_nobody() -> None:
    """D-S13: «Mandatory choice each night («вырезает по одному гражданину»); timeout → no kill»;
    004: «будь то мафия или мирный житель»."""
    t = start()
    t.simple_day()
    t.to_step("maniac")
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Skip(seat=6))
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(6, 6))
    t = start()
    t.simple_day()
    quiet = t.night(act(3, 7), act(4, 9))
    t.simple_day()
    mafia = t.night(act(3, 8), act(6, 1), act(4, 4))
    assert brief(quiet, "killed") == []
    assert brief(mafia, "killed") == [("killed", 1)]


@pytest.mark.parametrize(("seat", "step"), [(3, "putana"), (6, "maniac"), (5, "commissar")])
def test_no_self_targets_except_the_doctor(seat: int, step: str) -> None:
    """D-G4: «no ability may target its own user unless listed here: … simple doctor»."""
    t = start()
    t.simple_day()
    t.to_step(step)
    with pytest.raises(IllegalTarget):
        engine.apply(t.s, act(seat, seat))


# -- D-S5 voting -----------------------------------------------------------------------------------


def test_half_of_the_living_is_enough_less_is_not() -> None:
    """8.5: «Тот, кто получил половину или более голосов - признан виновным … Если никто из выставленных
    игроков не набрал половину и более голосов, то все остаются за столом и наступает ночь»; D-S5:
    «threshold = half of the living players rounded up»."""
    t = start()
    below = t.simple_day([(7, 2)], [(2, [1, 3, 4, 5])])
    assert brief(below, "vote_count", "no_elimination", "executed") == [
        ("vote_count", 2, 4, "main"),
        ("no_elimination", "below_threshold"),
    ]
    assert phrases(below, "no_elimination") == [("no_elimination", "sm_nobody_voted_out")]
    assert t.s.phase == "night"
    t.night(act(3, 7), shot("mafia", 8), act(6, 9), act(4, 4))
    # 8 living: 4 votes are half.
    half = t.simple_day([(7, 2)], [(2, [3, 4, 5, 7])])
    assert brief(half, "vote_count", "no_elimination", "executed") == [
        ("vote_count", 2, 4, "main"),
        ("executed", 2),
    ]


def test_equal_top_is_nobody() -> None:
    """D-S5: «equal top → nobody eliminated (no tie rule in the seed)»."""
    t = start()
    events = t.simple_day([(7, 2), (8, 7)], [(2, [1, 3, 4, 5, 6]), (7, [2, 7, 8, 9, 10])])
    assert brief(events, "vote_count", "tie", "no_elimination", "executed") == [
        ("vote_count", 2, 5, "main"),
        ("vote_count", 7, 5, "main"),
        ("tie", (2, 7)),
        ("no_elimination", "tie"),
    ]
    assert phrases(events, "tie") == [("tie", "sm_vote_tie")]


def test_nominations_only_in_ones_own_speech_and_one_vote_each() -> None:
    """D-S5: «Nominations during the speeches; one ballot, one vote per living player or abstention»."""
    t = start()
    assert t.s.step.seat == 1
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Nominate(seat=2, target=1))
    t.simple_day([(1, 2), (3, 4)], None)
    assert t.s.step.kind == "vote" and t.s.step.seat == 2
    t.send(engine.Vote(seat=5, candidate=2))
    t.advance()
    with pytest.raises(engine.errors.AlreadyActed):
        engine.apply(t.s, engine.Vote(seat=5, candidate=4))


def test_no_nominations_no_vote() -> None:
    """8.5: «Если никто из выставленных игроков не набрал половину…, то все остаются за столом и
    наступает ночь» — with nobody nominated there is nothing to vote on."""
    t = start()
    events = t.simple_day()
    assert brief(events, "ballot", "no_elimination") == [("no_elimination", "no_vote")]
    assert t.s.phase == "night"


# -- D-S6, D-S7 wins and the maniac's question ---------------------------------------------------


def test_mafia_wins_against_the_maniac() -> None:
    """004: «Если в городе остается маньяк и мафия то побеждает мафия»; D-S6 2: «mafia living and
    mafia ≥ all other living players (maniac included) → mafia wins»."""
    t = start(["don", "maniac", CIV])
    events = t.simple_day([(1, 3)], [(3, [1, 2])])
    events += t.advance()  # the farewell speech
    assert brief(events, "executed", "game_over") == [("executed", 3), ("game_over", ("mafia",))]
    # Issue 13: the result is told at the vote, before the farewell, and not again at the end.
    assert phrases(events, "result_decided", "speech", "game_over")[-3:] == [
        ("result_decided", "sm_mafia_wins"),
        ("speech", None),  # (simple has no farewell line)
        ("game_over", None),
    ]


def test_mafia_wins_at_parity() -> None:
    """D-S6 2: «mafia ≥ all other living players»."""
    t = start(["don", "mafioso", "doctor", "putana", CIV, CIV])
    events = t.simple_day([(1, 5)], [(5, [1, 2, 6])])
    events += t.advance()
    assert not t.s.over  # 2 mafia against 3
    events += t.night(act(4, 3), shot("mafia", 6), act(3, 3))
    assert brief(events, "executed", "killed", "game_over") == [
        ("executed", 5),
        ("killed", 6),
        ("game_over", ("mafia",)),
    ]


def test_nobody_left_is_a_draw() -> None:
    """D-S6 1: «nobody living → draw»."""
    t = start(["don", "maniac"])
    t.simple_day()
    events = t.night(shot("mafia", 2), act(2, 1))
    assert brief(events, "killed", "game_over") == [("killed", 1), ("killed", 2), ("game_over", ())]


def test_the_maniac_answers_yes_and_the_town_wins() -> None:
    """004: «Если же всю мафию в игре убили, то ведущий обращается к играющим с вопросом «Играет ли
    маньяк за мирных жителей?». Если маньяк публично утвердительно ответит на этот вопрос, то он
    считается обычным мирным жителем и игра на этом заканчивается (победа мирных жителей).» D-S7: «Only
    the real maniac's answer counts»."""
    t = start(["don", "mafioso", "maniac", CIV, CIV, CIV])
    t.simple_day([(4, 1)], [(1, [2, 3, 4, 5])])
    t.advance()
    events = t.night(act(3, 2))
    assert brief(events, "killed", "announce", "question")[-3:] == [
        ("killed", 2),
        ("announce", "maniac_question"),
        ("question", 3),
    ]
    question = next(e for e in events if e.type == "question")
    assert (question.phrase, question.audience.to_json()) == ("priv_maniac_question", {"seats": [3]})
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Answer(seat=4, yes=True))
    events = t.send(Answer(seat=3, yes=True))
    assert brief(events, "maniac_answer", "game_over") == [("maniac_answer", True), ("game_over", ("town",))]
    answer = events[0]
    assert (answer.phrase, answer.get("seat"), answer.audience.to_json()) == (
        "sm_maniac_joins_town",
        3,
        "public",
    )
    assert phrases(events, "game_over") == [("game_over", "sm_town_wins")]


def test_a_silent_maniac_plays_on_alone_and_the_town_wins_when_he_goes() -> None:
    """004: «Если же он промолчит, значит, играет сам за себя, и тогда игра продолжается до тех пор, пока
    не победят мирные жители или маньяк.» D-S6 5: «town wins when he is eliminated»."""
    t = start(["don", "maniac", CIV, CIV, CIV, CIV])
    events = t.simple_day([(3, 1)], [(1, [2, 3, 4, 5])])
    events += t.advance()  # farewell
    events += t.advance()  # no answer in time
    assert brief(events, "executed", "question", "maniac_answer", "game_over") == [
        ("executed", 1),
        ("question", 2),
        ("maniac_answer", False),
    ]
    assert phrases(events, "maniac_answer") == [("maniac_answer", "sm_maniac_silent")]
    events = t.night(act(2, 3))
    events += t.simple_day([(4, 2)], [(2, [4, 5, 6])])
    events += t.advance()
    assert brief(events, "killed", "executed", "question", "game_over") == [
        ("killed", 3),
        ("executed", 2),
        ("game_over", ("town",)),
    ]


def test_a_silent_maniac_wins_with_at_most_one_other_player() -> None:
    """D-S6 5: «maniac playing for himself: … he wins when at most one other player is living» — also
    right after his silence; an explicit «Нет» is the same as silence (D-S7)."""
    t = start(["don", "maniac", CIV])
    events = t.simple_day([(3, 1)], [(1, [2, 3])])
    events += t.advance()
    events += t.send(Answer(seat=2, yes=False))
    assert brief(events, "executed", "question", "maniac_answer", "game_over") == [
        ("executed", 1),
        ("question", 2),
        ("maniac_answer", False),
        ("game_over", ("solo",)),
    ]
    assert phrases(events, "game_over") == [("game_over", "sm_maniac_wins")]


def test_a_silent_maniac_wins_by_killing_down_to_one() -> None:
    """D-S6 5 at a later night."""
    t = start(["don", "maniac", CIV, CIV, CIV])
    t.simple_day([(3, 1)], [(1, [2, 3, 4])])
    t.advance()
    t.advance()
    events = t.night(act(2, 3))
    events += t.simple_day([(4, 5)], [(5, [2, 4])])
    events += t.advance()
    assert brief(events, "killed", "executed", "game_over") == [
        ("killed", 3),
        ("executed", 5),
        ("game_over", ("solo",)),
    ]


# -- D-S8 reveal and claims, D-S12 wording -------------------------------------------------------


def test_roles_stay_hidden_and_night_victims_may_only_claim_commissar() -> None:
    """D-S8: «Roles are not revealed on death …; all roles at game end. Night victims have no speech,
    only a button «Я комиссар» (`sm_claims_commissar`) — the seed lets any night victim say that.
    Day-voted players get 30 s free speech (doc).» 004: «Если ЛЮБОГО игрока убивают днём голосованием
    он может сказать что он комиссар и приводить любые факты и доводы в течении отведенных ему 30
    секунд.» D-S12: victims «named without the killer (`sm_player_killed`)»."""
    t = start()
    day = t.simple_day([(7, 2)], [(2, [1, 3, 4, 5, 6])])
    farewell = [e for e in day if e.type == "speech" and e.get("purpose") == "farewell"]
    assert [(e.get("seat"), e.get("seconds")) for e in farewell] == [(2, 30)]
    executed = next(e for e in day if e.type == "executed")
    assert "role" not in executed.data and executed.phrase == "sm_voted_out"
    night = t.night(act(3, 7), shot("mafia", 8), act(6, 9), act(4, 4))
    killed = [e for e in night if e.type == "killed"]
    assert [(e.get("seat"), e.phrase, "role" in e.data) for e in killed] == [
        (8, "sm_player_killed", False),
        (9, "sm_player_killed", False),
    ]
    assert brief(night, "claim_offer") == [("claim_offer", 8), ("claim_offer", 9)]
    assert engine.view_for(t.s, 7)["roles"] == {"7": CIV}
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Claim(seat=7))  # not a night victim
    claim = t.send(Claim(seat=8))
    assert [(e.type, e.get("seat"), e.phrase, e.audience.to_json()) for e in claim] == [
        ("claim", 8, "sm_claims_commissar", "public")
    ]
    with pytest.raises(NotYourTurn):
        engine.apply(t.s, Claim(seat=8))  # once


def test_compositions() -> None:
    """8.1: «1. «Мирные жители» – 9 человек. В том числе «Комиссар», «Путана», «Доктор», «Маньяк». 2.
    «Мафия» - 3 человека, в том числе «Дон».» D-S11: «8–16 players; mafia = ⌊N/4⌋ including the don
    …; commissar, putana, doctor and maniac always present; the rest civilians»."""
    ruleset = engine.load_ruleset("simple")
    assert engine.player_counts(ruleset) == list(range(8, 17))
    for n in range(8, 17):
        table_ = engine.composition(ruleset, n)
        assert table_["don"] == 1 and table_["don"] + table_.get("mafioso", 0) == n // 4
        assert all(table_[r] == 1 for r in ("commissar", "putana", "doctor", "maniac"))
        assert sum(table_.values()) == n
    assert engine.composition(ruleset, 12) == {
        "don": 1,
        "mafioso": 2,
        "commissar": 1,
        "putana": 1,
        "doctor": 1,
        "maniac": 1,
        CIV: 5,
    }


def test_dead_roles_are_still_called() -> None:
    """D-G8: «every role in the composition is called every night … (random 5–15 s when nobody can
    act), whether or not its holder is alive». The public event is the same as a living doctor's: its
    timer does not tell that nobody can act."""
    living = start()
    living.simple_day()
    night = living.night(act(3, 7), act(6, 8))
    alive_doctor = next(e for e in night if e.type == "night_step" and e.get("step") == "doctor")
    t = start()
    t.simple_day([(7, 4)], [(4, [1, 2, 3, 5, 6])])
    events = t.night(act(3, 7), act(6, 8))
    doctor = next(e for e in events if e.type == "night_step" and e.get("step") == "doctor")
    assert doctor == alive_doctor and doctor.phrase == "sm_doctor_wakes"
    assert ("awake", "doctor") not in [b[:2] for b in brief(events, "awake")]


# -- D-F6 bans, D-F5 removals --------------------------------------------------------------------


def test_third_ban_removes_the_player_and_bans_carry_over_days() -> None:
    """004: «4. После 3-го бана (самоубийство)»; D-F6: «no daily reset; the third ban eliminates the
    player». D-F5: «Immediate elimination without last words; role handling as the preset's death rules
    (… simple: hidden …)»."""
    t = start()
    events = t.send(Foul(seat=7, reason="шум"))
    t.simple_day()
    t.night(act(3, 8), act(6, 9), act(4, 4))
    events += t.send(Foul(seat=7, reason="шум"), Foul(seat=7, reason="шум"))
    assert brief(events, "foul", "removed", "speech") == [
        ("foul", 7, 1),
        ("foul", 7, 2),
        ("foul", 7, 3),
        ("removed", 7, "fouls"),
    ]
    assert phrases(events, "foul", "removed") == [
        ("foul", "sm_ban_given"),
        ("foul", "sm_ban_given"),
        ("foul", "sm_ban_given"),
        ("removed", "sm_player_banned_out"),
    ]
    removed = events[-1]
    assert "role" not in removed.data
    assert 7 not in t.s.alive
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Foul(seat=7, reason="шум"))


def test_confession_removes_the_player_and_the_win_check_follows() -> None:
    """004: «5. В случае признания игроком в том, что он является «Мафией» (самоубийство).» D-F6: «A
    public confession of being mafia → moderator command, the player is eliminated»; D-G7: the win check
    follows a removal."""
    t = start(["don", "maniac", CIV, CIV, CIV])
    events = t.send(Remove(seat=1, reason="confession"))
    assert brief(events, "removed", "question") == [("removed", 1, "confession"), ("question", 2)]
    assert phrases(events, "removed") == [("removed", "sm_player_confessed")]


def test_a_removed_nominee_cancels_the_vote() -> None:
    """D-F5: «a removed nominee cancels the day's vote if it happens before voting (doc)» — 001:
    «Если игровой стол днём покинул игрок, выставленный на голосование, голосование не состоится»."""
    t = start()
    t.send(Nominate(seat=1, target=7))
    events = t.send(Remove(seat=7, reason="fouls"))
    events += t.simple_day()
    assert brief(events, "removed", "ballot", "no_elimination") == [
        ("removed", 7, "fouls"),
        ("no_elimination", "no_vote"),
    ]


def test_a_nominee_removed_during_the_vote_is_not_voted_out_twice() -> None:
    """D-F5: «Immediate elimination without last words»; 001, quoted for removals in RULESETS.md 9.1:
    «если удаление случилось в момент голосования, голоса засчитываются, голосование не отменяется» —
    the ballot goes on, and the removed nominee who gets half the votes is not eliminated again (no
    second `executed`, no farewell speech)."""
    t = start()
    t.simple_day([(7, 2), (8, 3)], None)
    events = t.send(Vote(seat=1, candidate=2), Vote(seat=3, candidate=2), Remove(seat=2, reason="fouls"))
    events += t.send(Vote(seat=4, candidate=2), Vote(seat=5, candidate=2), Vote(seat=6, candidate=2))
    events += t.advance(2)
    assert brief(events, "removed", "vote_count", "executed", "speech", "no_elimination") == [
        ("removed", 2, "fouls"),
        ("vote_count", 2, 5, "main"),
        ("vote_count", 3, 0, "main"),
    ]
    assert t.s.phase == "night"


def test_a_removal_during_the_vote_asks_the_maniac_then_the_vote_goes_on() -> None:
    """D-S7: the question is «Asked publicly (exact line) as soon as the last mafia member is
    eliminated while the maniac lives»; D-F5 / 001: «если удаление случилось в момент голосования,
    голоса засчитываются, голосование не отменяется» — after his silence the ballot resumes."""
    t = start(["don", "maniac", CIV, CIV, CIV, CIV])
    t.simple_day([(3, 4), (4, 5)], None)
    events = t.send(Vote(seat=3, candidate=4), Remove(seat=1, reason="confession"))
    events += t.advance()  # no answer from the maniac
    assert (t.s.step.kind, t.s.step.seat) == ("vote", 4)
    events += t.send(Vote(seat=5, candidate=4), Vote(seat=6, candidate=4))
    events += t.advance(2)
    assert brief(events, "voted", "removed", "question", "maniac_answer", "vote_count", "executed") == [
        ("voted", 3, 4),
        ("removed", 1, "confession"),
        ("question", 2),
        ("maniac_answer", False),
        ("voted", 5, 4),
        ("voted", 6, 4),
        ("vote_count", 4, 3, "main"),
        ("vote_count", 5, 0, "main"),
        ("executed", 4),
    ]


def test_a_confessing_speaker_hands_the_floor_on_after_the_question() -> None:
    """D-F5: «Immediate elimination without last words»; D-S7: the question comes at once, then the
    day goes on with the next speaker."""
    t = start(["don", "maniac", CIV, CIV, CIV, CIV])
    assert t.s.step.seat == 1
    events = t.send(Remove(seat=1, reason="confession"))
    events += t.advance()
    assert brief(events, "removed", "question", "maniac_answer", "speech") == [
        ("removed", 1, "confession"),
        ("question", 2),
        ("maniac_answer", False),
        ("speech", 2, "day"),
    ]


def test_a_removal_at_night_asks_the_maniac_and_the_night_step_still_counts() -> None:
    """D-S7 (the question «as soon as the last mafia member is eliminated»), D-F6 (a ban can come at
    any time): the doctor's step interrupted by the question is resumed and his heal still counts."""
    t = start(["don", "maniac", "doctor", CIV, CIV, CIV])
    t.simple_day()
    t.to_step("maniac")
    t.send(act(2, 4))
    t.to_step("doctor")
    events = t.send(act(3, 4), Remove(seat=1, reason="confession"))
    events += t.advance()  # the maniac is silent
    assert (t.s.step.kind, t.s.step.night_step) == ("night", "doctor")
    events += t.to_day()
    assert brief(events, "removed", "question", "maniac_answer", "killed") == [
        ("removed", 1, "confession"),
        ("question", 2),
        ("maniac_answer", False),
    ]
    assert 4 in t.s.alive


def test_a_removed_speaker_loses_the_rest_of_his_speech() -> None:
    """D-F5: «Immediate elimination without last words»: the next speaker's turn starts at once."""
    t = start()
    assert t.s.step.seat == 1
    events = t.send(Remove(seat=1, reason="confession"))
    assert brief(events, "removed", "speech") == [("removed", 1, "confession"), ("speech", 2, "day")]


def test_putana_is_not_woken_at_the_acquaintance_night() -> None:
    """D-S2: «no actions, no kills» on the acquaintance night."""
    t = table("simple", TEN)
    assert t.s.step.kind == "meet"
    with pytest.raises(WrongPhase):
        engine.apply(t.s, act(3, 7))
