"""`fiim` (docs/rules/FIIM.md): the edition's keys and their defaults (D-FI1), the role ids and what their
checks answer (D-FI2), the numbering of nights and days and which night is "the first" (D-FI3), and the
decisions' smaller points not held elsewhere (D-FI6, D-FI11, D-FI14)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fiim_helpers import BLACKS, CIV, DEAL, DON, M2, M3, SHERIFF, day_one, fiim
from helpers import brief

from audio import phrases
from engine import Act, Foul, Nominate, Remove, deal, load_ruleset, queries
from engine.kinds.city import shot_night
from engine.kinds.fiim_scoring import first_night_victims, score_game

FIIM_MD = Path(__file__).resolve().parents[2] / "docs" / "rules" / "FIIM.md"

# Every `fiim.<key>` FIIM.md names, with the default its decision gives (D-FI1: «All keys are prefixed
# `fiim.`»). TOML has no null: D-FI15's «`fiim.ci = null`» (off) is the empty string.
DEFAULTS: dict[str, Any] = {
    "night0_checks": False,  # D-FI4 «No checks on night 0 (config `fiim.night0_checks = false`)»
    "call_all_seats": False,  # D-FI5 «plus dead seats if `fiim.call_all_seats = true`, default false»
    "rotation": "opener",  # D-FI7 «`fiim.rotation = "opener"` (default) | `"closer"`»
    "withdraw": "explicit",  # D-FI8 «`fiim.withdraw = "explicit"` default | `"auto"` | `"none"`»
    "self_nomination": True,  # D-FI8 «`fiim.self_nomination = true`»
    "night_victim_nominates": False,  # D-FI8 «`fiim.night_victim_nominates = false`»
    "stop_when_decided": True,  # D-FI9 «(`fiim.stop_when_decided = true`, [EF] …)»
    "revote_order": "same",  # D-FI9 «`fiim.revote_order = "same"` | `"reverse"`»
    "lift_2_of_4": True,  # D-FI11 «keys `fiim.lift_2_of_4 = true`, `fiim.lift_3_of_9 = true`»
    "lift_3_of_9": True,
    "mute_next_day": False,  # D-FI12 «(`fiim.mute_next_day = false`, …)»
    "short_speech_at_3_4": True,  # D-FI12 «(`fiim.short_speech_at_3_4 = true`, …)»
    "removal_cancels_vote": "always",  # D-FI12 «`"always"` default | `"never"` | `"if_nominated"`»
    "scoring": "fiim_mr19",  # D-FI15 «`fiim.scoring = "fiim_mr19"` default»
    "ci": "",  # D-FI15 «**off by default** (`fiim.ci = null`)»
    "on_record": "none",  # D-FI15 «colours "on record" not scored (`fiim.on_record = "none"`)»
}
# The alternatives the decisions name, each a lobby option that sets only its key.
ALTERNATIVES = {
    "night0_checks": {"night0_checks": True},
    "call_all_seats": {"call_all_seats": True},
    "closer_rotation": {"rotation": "closer"},
    "withdraw_auto": {"withdraw": "auto"},
    "withdraw_none": {"withdraw": "none"},
    "revote_reverse": {"revote_order": "reverse"},
    "no_lift_2_of_4": {"lift_2_of_4": False},
    "no_lift_3_of_9": {"lift_3_of_9": False},
    "mute_next_day": {"mute_next_day": True},
    "no_short_speech": {"short_speech_at_3_4": False},
    "removal_never_cancels": {"removal_cancels_vote": "never"},
    "removal_cancels_if_nominated": {"removal_cancels_vote": "if_nominated"},
    "ci": {"ci": "mr45"},
    "on_record_any": {"on_record": "any"},
    "whole_ballot": {"stop_when_decided": False},
    "night_victim_nominates": {"night_victim_nominates": True},
}


def test_every_key_the_spec_names_is_the_presets_with_the_decisions_default() -> None:
    """D-FI1: «where they differ the rule follows [EF] … and the alternative becomes a config key. All
    keys are prefixed `fiim.`»: each `fiim.<key>` of FIIM.md is a key of the preset's [params] (FIIM.md
    has no key the preset lacks), and the plain preset plays the decision's default."""
    named = set(re.findall(r"`fiim\.([a-z0-9_]+)", FIIM_MD.read_text(encoding="utf-8")))
    assert named == set(DEFAULTS)
    params = load_ruleset("fiim").params
    assert {key: params.get(key) for key in DEFAULTS} == DEFAULTS


@pytest.mark.parametrize("option", sorted(ALTERNATIVES))
def test_each_alternative_edition_is_a_lobby_option_of_its_key(option: str) -> None:
    """D-FI1: «where sources differ the decision names a config key, so a club can choose its edition»:
    the alternative is a lobby option that changes its key only."""
    plain, chosen = load_ruleset("fiim").params, load_ruleset("fiim", [option]).params
    changed = {k: chosen[k] for k in chosen if chosen[k] != plain.get(k)}
    assert changed == ALTERNATIVES[option]


# -- D-FI2 ------------------------------------------------------------------------------------------


def test_the_role_ids_and_sides() -> None:
    """D-FI2: «reuse `civilian`, `mafioso`, `don`, `city_sheriff`»; F.1: red = 6 `civilian` + 1 sheriff,
    black = 2 `mafioso` + 1 `don`, always 10 seats (F.2)."""
    r = load_ruleset("fiim")
    assert r.compositions == {10: {"civilian": 6, "city_sheriff": 1, "mafioso": 2, "don": 1}}
    assert {role: r.roles[role].side for role in r.roles} == {
        "civilian": "town",
        "city_sheriff": "town",
        "mafioso": "mafia",
        "don": "mafia",
    }
    assert not r.roles["civilian"].abilities and not r.roles["mafioso"].abilities


def test_the_don_asks_is_this_the_sheriff_and_is_answered_truthfully() -> None:
    """D-FI2: «`don` (fiim) — checks "is this the sheriff?"»; F.6 «What actors are told»: «Шериф» /
    «Не шериф», to the don alone."""
    answers = ((SHERIFF, True, "priv_don_sheriff_yes"), (7, False, "priv_don_sheriff_no"))
    for target, answer, phrase in answers:
        t = day_one()
        t.day()
        new = t.shoot({}, [Act(seat=DON, targets=(target,))])
        checks = [e for e in new if e.type == "check"]
        assert [(e.audience.seats, e.data["target"], e.data["result"], e.phrase) for e in checks] == [
            ((DON,), target, answer, phrase)
        ]


@pytest.mark.parametrize(
    ("target", "result", "phrase"),
    [
        (DON, "mafia", "fiim_sheriff_black"),
        (M2, "mafia", "fiim_sheriff_black"),
        (7, "not_mafia", "fiim_sheriff_red"),
    ],
)
def test_the_sheriff_is_answered_black_or_red(target: int, result: str, phrase: str) -> None:
    """D-FI2: «`city_sheriff` (fiim) — answers «Чёрный»/«Красный», no maniac exists»; F.6: «black
    (`mafioso` or `don`)», «red» otherwise — in the FIIM colour words, not the city's «Мафия»/«Мирный»."""
    t = day_one()
    t.day()
    new = t.shoot({}, [Act(seat=SHERIFF, targets=(target,))])
    [check] = [e for e in new if e.type == "check"]
    assert (check.audience.seats, check.data["result"], check.phrase) == ((SHERIFF,), result, phrase)
    word = "чёрный" if result == "mafia" else "красный"
    assert phrases.render(phrase, {"seat": target}).endswith(f"— {word}.")


def test_the_don_does_not_designate_the_shot_he_shoots_like_any_black() -> None:
    """D-FI2: the don «does not designate the shot, shoots like any black»; `mafioso` «shoots
    individually»: the team has no leader, and without the don's own pick the others' agreement is a
    miss."""
    assert load_ruleset("fiim").teams["mafia"].leader == ""
    t = day_one()
    t.day()
    t.to_step("mafia")
    assert {DON, M2, M3} <= set(queries.actors(t.s))
    new = t.shoot({M2: 7, M3: 7})
    assert not brief(new, "killed") and 7 in t.s.alive
    new = t.shoot({DON: 8, M2: 8, M3: 8})
    assert brief(new, "killed") == [("killed", 8)]


# -- D-FI3 ------------------------------------------------------------------------------------------


def test_night_zero_is_the_meeting_night_one_the_first_shot_and_day_n_follows_night_n_minus_1() -> None:
    """D-FI3: «engine nights are numbered 0 (deal + meeting) and 1, 2, … (shots)»; «Days are 1, 2, … (day
    n follows night n−1)». The engine's own counter starts at 1 for the meeting (fiim.toml); its FIIM
    number is `shot_night`."""
    t = fiim()
    assert (t.s.phase, shot_night(t.s)) == ("night", 0)
    assert not [e for e in t.events if e.type == "night_step" and e.data["step"] == "mafia"]
    t.until(lambda s: s.phase == "day")
    assert t.s.day == 1
    t.day()
    assert (t.s.phase, shot_night(t.s)) == ("night", 1)
    t.to_step("mafia")  # night 1 is the first night the blacks shoot
    t.shoot({})
    assert t.s.day == 2
    t.day()
    assert shot_night(t.s) == 2
    t.shoot({})
    assert t.s.day == 3


def test_the_first_night_of_the_best_move_and_of_scoring_is_night_one() -> None:
    """D-FI3: «"first night" in best-move and Ci rules means night 1 (the first night with a shot)»: the
    victim of night 1 is offered the best move and counted as the first-night victim; after a miss on
    night 1 the victim of night 2 is neither (night 0, the meeting, has no shot)."""
    t = day_one()
    t.day()
    t.shoot({DON: 7, M2: 7, M3: 7})
    assert (t.s.step.kind, t.s.step.seat) == ("best_move", 7)
    assert first_night_victims(t.events) == [7]

    t2 = day_one()
    t2.day()
    t2.shoot({DON: 7, M2: 7, M3: 8})  # a miss on night 1
    t2.day()
    t2.shoot({DON: 7, M2: 7, M3: 7})
    assert brief(t2.events, "killed") == [("killed", 7)]
    assert not brief(t2.events, "best_move_offer") and first_night_victims(t2.events) == []
    t2.send(*[Remove(seat=x, reason="insult") for x in BLACKS])
    assert t2.s.over
    scores = score_game(t2.s, t2.events, [f"p{x}" for x in range(1, 11)])
    assert not any(sc.first_night_victim for sc in scores)


def test_with_night_zero_checks_night_one_is_still_the_first_shot() -> None:
    """D-FI3 with D-FI4's `night0_checks`: the zero night's checks do not make it a shooting night."""
    t = fiim("night0_checks")
    t.until(lambda s: s.day == 1)
    assert brief(t.events, "check") == []  # nobody checked: the steps passed
    t.day()
    t.shoot({DON: 9, M2: 9, M3: 9})
    assert (t.s.step.kind, t.s.step.seat) == ("best_move", 9)
    assert first_night_victims(t.events) == [9]


# -- D-FI6, D-FI11 -----------------------------------------------------------------------------------


def test_the_shot_sheriff_is_checked_truly_and_a_seat_may_be_checked_again() -> None:
    """D-FI6: «A checker shot this night still checks (he leaves at the end of the night)»; «Repeated
    checks of the same seat are allowed. The don's check result for a dead sheriff is still truthful»;
    «the don and sheriff steps always run for their full time …; a dead checker simply gets no prompt»."""
    t = day_one()
    t.day()
    new = t.shoot(
        {DON: SHERIFF, M2: SHERIFF, M3: SHERIFF},
        [Act(seat=DON, targets=(SHERIFF,)), Act(seat=SHERIFF, targets=(M2,))],
    )
    assert brief(new, "check") == [("check", DON, SHERIFF, True), ("check", SHERIFF, M2, "mafia")]
    assert SHERIFF not in t.s.alive
    t.day()
    new = t.shoot({}, [Act(seat=DON, targets=(7,))])
    t.day()
    new += t.shoot({}, [Act(seat=DON, targets=(7,))])
    assert brief(new, "check") == [("check", DON, 7, False), ("check", DON, 7, False)]
    steps = [e.data["step"] for e in new if e.type == "night_step"]
    assert steps.count("sheriff") == 2  # the dead sheriff's step is still called, each night
    assert not [e for e in new if e.type == "awake" and SHERIFF in e.audience.seats]


def test_lifting_three_of_nine_is_a_club_option() -> None:
    """D-FI11: «keys `fiim.lift_2_of_4 = true`, `fiim.lift_3_of_9 = true`» ([MR 7.23]: «Если за столом
    девять игроков и трое из них дважды набирают одинаковое число голосов»): with the option off the
    town goes to the night without the lift."""
    for options, lifted in (((), True), (("no_lift_3_of_9",), False)):
        t = fiim(*options)
        t.send(Remove(seat=10, reason="insult"))  # nine at the table; day 1's vote is cancelled by it
        t.day()
        t.shoot({})
        three_way = [(5, [1, 2, 3]), (6, [4, 5, 6])]  # 3-3-3
        new = t.day(nominations=[(2, 5), (3, 6), (4, 7)], votes=[three_way, three_way], lift=[])
        assert brief(new, "tie")[-1:] == [("tie", (5, 6, 7))]
        assert bool(brief(new, "lift_ballot")) is lifted, brief(new, "no_elimination", "lift_ballot")


def test_the_deal_is_the_ten_fiim_cards_in_any_order() -> None:
    """F.2 / D-FI2: «uniform random permutation of the 10 roles»: every deal holds the same ten cards, and
    the seeds put the sheriff and the don on different seats."""
    ruleset = load_ruleset("fiim")
    deals = [deal(ruleset, 10, seed) for seed in range(30)]
    assert all(sorted(d) == sorted(DEAL) for d in deals)
    assert sorted(DEAL).count(CIV) == 6
    assert len({d.index("don") for d in deals}) > 1 and len({d.index("city_sheriff") for d in deals}) > 1


# -- D-FI14 ------------------------------------------------------------------------------------------


def test_the_result_is_fixed_at_the_kill_and_the_last_word_cannot_change_it() -> None:
    """D-FI14: «the result is frozen, the final last word (if any) is given, then the game ends»; F.11 /
    [MR 8.20 option 1]: «только по окончании заключительной минуты останавливает игру … замечания и
    удаления полученные во время последней речи не могут изменить результат игры»."""
    t = fiim()
    t.send(*[Remove(seat=x, reason="insult") for x in (5, 6, 7)])  # three blacks, four reds
    t.day()
    new = t.shoot({DON: 8, M2: 8, M3: 8})  # three and three: the blacks have won
    told = [(e.type, e.phrase) for e in new if e.type in ("result_decided", "speech")]
    assert told == [("result_decided", "fiim_mafia_wins"), ("speech", "fiim_last_word")]
    assert (t.s.step.round, t.s.step.seat, t.s.over) == ("night_words", 8, False)
    new = t.send(*[Foul(seat=M2, reason="talk")] * 4)  # a black removed: two blacks, three reds
    assert brief(new, "removed", "game_over") == [("removed", M2, "fouls")]
    assert (t.s.step.round, t.s.step.seat, t.s.over) == ("night_words", 8, False)  # his minute goes on
    new = t.advance()  # the minute ends: the game, with the result told at the kill
    assert brief(new, "game_over") == [("game_over", ("mafia",))] and t.s.winners == ("mafia",)


def test_a_removal_in_the_voted_out_players_last_word_changes_nothing() -> None:
    """D-FI14 / [MR 9.11]: «Если во время последнего слова игрока после подведения итогов последнего
    голосования происходит удаление, то результат игры определяется результатом голосования»: the reds
    win when the last black is voted out, though a red is removed in his minute."""
    t = fiim()
    t.send(*[Remove(seat=x, reason="insult") for x in (M2, M3)])  # the don alone among seven reds
    t.day()
    t.shoot({DON: 9})
    t.until(lambda s: s.step.kind == "speech" and s.step.round == "day" and s.step.seat == 4)
    t.send(Nominate(seat=4, target=DON))
    new = t.until(lambda s: s.step.kind == "speech" and s.step.round == "farewell")
    assert brief(new, "executed") == [("executed", DON)]  # the lone nominee on day 2 leaves
    assert t.s.step.seat == DON
    new = t.send(Remove(seat=5, reason="insult"))
    assert not t.s.over and t.s.step.round == "farewell"
    new = t.advance()
    assert t.s.over and t.s.winners == ("town",)
