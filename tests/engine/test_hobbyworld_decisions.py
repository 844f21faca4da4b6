"""`hobbyworld`: the decisions of RULESETS.md 10.2 (D-H*) and 10.1 (D-G*) that change play, and the
sequential night of 4.9 (``night.deaths = "immediate"``)."""

from __future__ import annotations

import pytest
from helpers import act, brief, shot
from hobbyworld_helpers import acquit, day, hw, lynch, next_night, to_ballot, vote

import engine
from engine import Advance, IllegalCommand, Nominate, Propose
from engine.kinds.hobbyworld_deck import pick_composition

CIVS = ["civilian"] * 5
HW = engine.load_ruleset("hobbyworld")


# -- the sequential night (4.9) --------------------------------------------------------------------


def test_an_actor_killed_earlier_tonight_is_ineffective() -> None:
    """«Если лидер был убит выстрелом, ведущий всё равно вызывает его, делая вид, будто с лидером всё в
    порядке, но его способность пропадает впустую, а наутро он объявляется мёртвым.»"""
    t = hw(["mafioso", "mafioso", "sheriff", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(shot("mafia", 3), act(3, 1))
    assert brief(events, "night_step", "awake", "killed") == [
        ("night_step", "sheriff"),
        ("awake", "sheriff", (3,)),
        ("killed", 3),
    ]


def test_end_of_night_presets_still_let_tonight_s_victims_act() -> None:
    """The classic/simple mode is unchanged: there a player killed tonight still acts (D-S1)."""
    t = engine.load_ruleset("simple")
    assert t.night_deaths == "end_of_night"


# -- decisions ---------------------------------------------------------------------------------------


def test_d_h3_composition_picker() -> None:
    """D-H3: one leader, ranges at their lower bound by default, loner replacing a mafioso (warning below
    10), snitch only with a role checker, yakuza from 12 without loners and special mafiosi."""
    assert pick_composition(HW, 10) == ({"civilian": 6, "detective": 1, "mafioso": 3}, [])
    deck, warnings = pick_composition(HW, 16, leader="sheriff", special_civilians=2, special_mafiosi=2)
    assert deck == {
        "beauty": 1,
        "civilian": 8,
        "doctor": 1,
        "godfather": 1,
        "lawyer": 1,
        "mafioso": 3,
        "sheriff": 1,
    }
    assert warnings == []
    deck, warnings = pick_composition(HW, 9, loner="maniac")
    assert deck == {"civilian": 5, "detective": 1, "mafioso": 2, "maniac": 1} and len(warnings) == 1
    # the snitch is skipped by the default picks when nobody learns roles, and warned about when named
    deck, _ = pick_composition(HW, 15, leader="sheriff", special_mafiosi=2)
    assert "snitch" not in deck
    _, warnings = pick_composition(HW, 15, leader="sheriff", special_mafiosi=["snitch"])
    assert warnings and "Стукач" in warnings[0]
    assert pick_composition(HW, 12, yakuza=True)[0] == {
        "civilian": 6,
        "detective": 1,
        "doctor": 1,
        "mafioso": 2,
        "yakuza": 2,
    }
    assert pick_composition(HW, 14, yakuza=True)[0]["mafioso"] == 3  # D-H9 (5): the larger half
    _, warnings = pick_composition(HW, 10, leader="journalist")
    assert warnings and "стреляющих" in warnings[0]
    for bad in (
        dict(players=11, yakuza=True),
        dict(players=12, yakuza=True, loner="ripper"),
        dict(players=10, leader="doctor"),
        dict(players=10, special_civilians=2),
        dict(players=10, special_civilians=["doctor", "doctor"]),
        dict(players=5),
        dict(players=17),
    ):
        with pytest.raises(IllegalCommand):
            pick_composition(HW, **bad)  # type: ignore[arg-type]


def test_d_h3_dealing_follows_the_options() -> None:
    """The preset's options choose the leader, the loner, the yakuza and the upper bounds."""
    ruleset = engine.load_ruleset("hobbyworld", ["maniac", "jailer", "more_specials"])
    assert engine.composition(ruleset, 10) == {
        "civilian": 5,
        "doctor": 1,
        "jailer": 1,
        "mafioso": 1,
        "godfather": 1,
        "maniac": 1,
    }
    with pytest.raises(IllegalCommand):
        engine.composition(engine.load_ruleset("hobbyworld", ["yakuza"]), 10)
    for n in range(6, 17):
        assert engine.composition(HW, n) == dict(HW.compositions[n])


def test_d_h4_blocks_reach_only_later_steps() -> None:
    """D-H4: a thief blocking the beauty changes nothing (she acted first); a beauty blocking the thief
    cancels the thief."""
    t = hw(["thief", "mafioso", "beauty", "doctor", *CIVS, "civilian", "civilian"])
    lynch(t, 11)
    events = t.night(act(1, 3), act(3, 5), shot("mafia", 5))
    assert brief(events, "killed") == []  # the beauty's target could not be killed
    events = next_night(t, 10, act(3, 1), act(1, 4), act(4, 6), shot("mafia", 6))
    assert brief(events, "killed") == []  # the thief was blocked, so the doctor's save stood


def test_d_h5_an_ineffective_checker_learns_nothing() -> None:
    """D-H5: «Этой ночью вам ничего не удалось узнать»; a blocked jailer jails nobody."""
    t = hw(["thief", "mafioso", "jailer", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(1, 3), act(3, 2))
    assert brief(events, "check", "check_nothing", "jailed") == [("check_nothing", 3)]
    assert t.s.jail == ()


def test_d_h6_the_only_mafioso_blocked_and_other_criminals() -> None:
    """D-H6: «Если же выбран мафиози, но есть и другие преступники, то убийство происходит, как обычно» —
    and the sleepwalker does not keep the shot alive."""
    t = hw(["mafioso", "mafioso", "beauty", *CIVS, "civilian"])
    lynch(t, 9)
    assert brief(t.night(act(3, 1), shot("mafia", 4)), "killed") == [("killed", 4)]
    t = hw(["mafioso", "sleepwalker", "beauty", *CIVS, "civilian"])
    lynch(t, 9)
    assert brief(t.night(act(3, 1), shot("mafia", 4)), "killed", "team_missed") == [
        ("team_missed", "mafia", "blocked")
    ]


def test_d_h7_no_extra_shot_when_the_sleepwalker_is_saved() -> None:
    """D-H7: the extra shot comes only if the mafia's attempt actually kills the sleepwalker."""
    t = hw(["mafioso", "mafioso", "sleepwalker", "doctor", *CIVS, "civilian"])
    lynch(t, 10)
    events = t.night(act(4, 3), shot("mafia", 3))
    assert brief(events, "extra_shot", "killed") == []


def test_d_h8_group_choice_by_proposals() -> None:
    """D-H8: the most proposed player is the target; a tie for most or no proposal is no shot."""
    t = hw(["mafioso", "mafioso", "sleepwalker", *CIVS, "civilian"])
    lynch(t, 9)
    t.to_step("mafia")
    t.send(Propose(seat=1, target=4), Propose(seat=2, target=4), Propose(seat=3, target=5))
    assert brief(t.to_day(), "killed") == [("killed", 4)]
    lynch(t, 8)
    t.to_step("mafia")
    t.send(Propose(seat=1, target=5), Propose(seat=2, target=6))
    assert brief(t.to_day(), "killed", "team_missed") == [("team_missed", "mafia", "no_target")]


def test_d_h9_simultaneous_shots() -> None:
    """«если мафия своим выстрелом убила одного из якудза, то этот якудза всё равно сохраняет право на
    предсмертный выстрел этой ночью»; both groups on one target make one death."""
    roles = ["mafioso", "mafioso", "yakuza", "yakuza", *CIVS, "civilian", "civilian", "civilian"]
    t = hw(roles, "yakuza")
    lynch(t, 12)
    assert brief(t.night(shot("mafia", 3), shot("yakuza", 1)), "killed") == [("killed", 1), ("killed", 3)]
    lynch(t, 11)
    assert brief(t.night(shot("mafia", 5), shot("yakuza", 5)), "killed") == [("killed", 5)]


def test_d_h9_a_yakuza_killing_the_sleepwalker_gets_nothing() -> None:
    roles = ["mafioso", "mafioso", "yakuza", "yakuza", "sleepwalker", *CIVS, "civilian", "civilian"]
    t = hw(roles, "yakuza")
    lynch(t, 12)
    events = t.night(shot("yakuza", 5))
    assert brief(events, "extra_shot", "killed") == [("killed", 5)]


def test_d_h10_doctor_beauty_and_bodyguard() -> None:
    """D-H10: a protected ward costs the bodyguard nothing; a protected bodyguard who takes the attempt
    does not die; seed 000: «Если в течение этой ночи выбранный телохранителем игрок должен быть убит, он
    не умирает, вместо него погибает телохранитель» — the mafia's and the sheriff's shots at the ward
    both fail, and the bodyguard dies once."""
    t = hw(["mafioso", "mafioso", "bodyguard", "doctor", "sheriff", *CIVS, *CIVS])
    lynch(t, 15)
    assert brief(t.night(act(4, 6), act(3, 6), shot("mafia", 6)), "killed") == []
    assert brief(next_night(t, 14, act(4, 3), act(3, 6), shot("mafia", 6)), "killed") == []
    events = next_night(t, 13, act(3, 7), shot("mafia", 7), act(5, 7))
    assert brief(events, "killed") == [("killed", 3)]
    assert 7 in t.state.alive


def test_d_h10_the_ward_survives_the_night_even_after_the_bodyguard_was_shot() -> None:
    """Seed 000, «Если в течение этой ночи выбранный телохранителем игрок должен быть убит, он не умирает»
    (D-H10 as revised): the mafia shoots the bodyguard himself, the sheriff then shoots the ward — the
    bodyguard dies, once, and the ward lives; a protected bodyguard makes every attempt on the ward fail
    and lives too."""
    t = hw(["mafioso", "mafioso", "bodyguard", "doctor", "sheriff", *CIVS, *CIVS])
    lynch(t, 15)
    events = t.night(act(3, 7), shot("mafia", 3), act(5, 7))
    assert brief(events, "killed") == [("killed", 3)]
    assert 7 in t.state.alive
    t = hw(["mafioso", "mafioso", "bodyguard", "doctor", "sheriff", *CIVS, *CIVS])
    lynch(t, 15)
    events = t.night(act(4, 3), act(3, 7), shot("mafia", 7), act(5, 7))
    assert brief(events, "killed") == []


def test_d_h11_no_self_targets() -> None:
    """D-H11: no role may choose itself; the journalist picks two players other than himself."""
    t = hw(["mafioso", "mafioso", "journalist", "bodyguard", *CIVS, "civilian"])
    lynch(t, 10)
    t.to_step("bodyguard")
    with pytest.raises(IllegalCommand):
        t.send(act(4, 4))
    t.to_step("journalist")
    for targets in ((3, 1), (1, 1), (1,)):
        with pytest.raises(IllegalCommand):
            t.send(act(3, *targets))


def test_d_h13_a_framed_leader_is_no_leader_for_the_fan() -> None:
    """D-H13/D-H14: «Нет» for a framed target (he counts as a mafioso)."""
    t = hw(["snitch", "mafioso", "fan", "sheriff", *CIVS, "civilian"])
    lynch(t, 10)
    assert brief(t.night(act(1, 4), act(3, 4)), "check") == [("check", 3, 4, False)]


def test_d_h14_the_jailer_jails_a_framed_loner_but_not_a_plain_one() -> None:
    """«На одиночку действие тюремщика не распространяется, однако тюремщик всё равно узнаёт его роль»;
    «Если тюремщик проверил роль игрока, оклеветанного стукачом, то этот игрок считается мафиози и попадает
    в тюрьму» (D-H14: the frame wins)."""
    t = hw(["snitch", "mafioso", "jailer", "swindler", *CIVS, "civilian", "civilian", "civilian"])
    lynch(t, 12)
    assert brief(t.night(act(3, 4)), "check", "jailed") == [("check", 3, 4, "swindler")]
    events = next_night(t, 11, act(1, 4), act(3, 4))
    assert brief(events, "check", "jailed") == [("check", 3, 4, "mafioso"), ("jailed", 4)]


def test_d_h14_the_journalist_sees_a_framed_civilian_as_a_criminal() -> None:
    t = hw(["snitch", "mafioso", "journalist", *CIVS, "civilian"])
    lynch(t, 9)
    assert brief(t.night(act(1, 4), act(3, 4, 2)), "check") == [("check", 3, 4, "same")]


def test_d_h15_prisoners_do_not_shoot_and_are_freed_mid_night() -> None:
    """D-H15: a jailed mafioso is not among the shooters (the mafia misses if nobody else is free); the
    jailer's death frees the prisoners at once, for the later steps of the same night."""
    t = hw(["mafioso", "godfather", "jailer", "maniac", *CIVS, *CIVS])
    lynch(t, 14)
    t.night(act(3, 1))
    next_night(t, 13, act(3, 2))
    assert t.s.prisoners() == {1, 2}
    lynch(t, 12)
    t.to_step("mafia")
    events = t.send(shot("mafia", 5)) + t.advance()
    assert brief(events, "team_missed") == [("team_missed", "mafia", "blocked")]
    events += t.night(act(4, 3), act(2, 6))
    assert brief(events, "killed", "released", "vote_denied") == [
        ("killed", 3),
        ("released", (1, 2)),
        ("vote_denied", 6),
    ]


def test_d_h16_the_judge_cannot_acquit_whom_he_voted_for() -> None:
    """«если … судья высказался в его защиту (не поднял руку)» — a raised hand gives no offer; his own
    acquittal is allowed («судья фактически может обеспечить себе иммунитет»)."""
    t = hw(["mafioso", "mafioso", "judge", *CIVS, "civilian"])
    day(t, [(4, 9)], [(9, [3, 4])])
    assert t.s.step.kind == "acquittal"
    with pytest.raises(IllegalCommand):
        t.send(acquit(3, 9))
    assert brief(t.advance(), "executed") == [("executed", 9)]
    events = day(t, [(4, 3), (4, 5)], [(3, [1, 2]), (5, [4])])
    events += t.send(acquit(3, 3))
    assert brief(events, "acquitted", "executed") == [("acquitted", 3), ("executed", 5)]


def test_d_h17_runoff_then_lot() -> None:
    """D-H17: a tie for most → one runoff among the tied; still tied → the lot (`hw_vote_tie_random`)."""
    t = hw(["mafioso", "mafioso", *CIVS, "civilian"], seed=3)
    events = day(t, [(1, 5), (2, 6), (3, 7)], [(5, [1, 2]), (6, [3, 4]), (7, [8])])
    assert brief(events, "tie") == [("tie", (5, 6))]
    assert t.s.step.round == "runoff" and t.s.step.candidates == (5, 6)
    events = t.ballot([(5, [1]), (6, [2])])
    lot = next(e for e in events if e.type == "lot")
    assert lot.phrase == "hw_vote_tie_random" and lot.get("seats") == [5, 6]
    assert brief(events, "executed") == [("executed", lot.get("seat"))]


def test_d_h17_no_lynch_option_and_no_nominations() -> None:
    """D-H17: no nominations → every living player is a candidate; `no_lynch_on_tie` leaves a second tie
    without a lynch."""
    t = hw(["mafioso", "mafioso", *CIVS, "civilian"], "no_lynch_on_tie")
    events = to_ballot(t)
    assert brief(events, "announce")[-2:] == [("announce", "no_nominations"), ("announce", "vote_start")]
    assert t.s.step.candidates == tuple(range(1, 9))
    t.ballot([])
    events = t.ballot([])
    assert brief(events, "no_elimination", "executed") == [("no_elimination", "tie")]
    assert t.s.phase == "night"


def test_d_h17_sequential_majority() -> None:
    """«выбрать только одного кандидата и проголосовать за него; если за осуждение выскажется меньше
    половины участников, то счесть его невиновным и выбрать следующего подозреваемого»."""
    t = hw(["mafioso", "mafioso", *CIVS, "civilian"], "sequential_voting")
    events = to_ballot(t, [(1, 3), (2, 4)])
    assert t.s.step.candidates == (3,)
    events += t.ballot([(3, [1, 2, 5])])  # 3 of 8: innocent
    assert t.s.step.candidates == (4,)
    events += t.ballot([(4, [1, 2, 5, 6])])  # 4 of 8: half → condemned
    assert brief(events, "no_elimination", "executed") == [
        ("no_elimination", "below_threshold"),
        ("executed", 4),
    ]
    innocent = next(e for e in events if e.type == "no_elimination")
    assert (innocent.phrase, innocent.params) == ("hw_candidate_innocent", {"seat": 3})


def test_d_h17_sequential_all_innocent_then_most_votes() -> None:
    """D-H17: every candidate innocent → a new round among the others; nobody left → the most votes today."""
    t = hw(["mafioso", "mafioso", "civilian", "civilian"], "sequential_voting")
    to_ballot(t, [(1, 3)])
    t.ballot([(3, [1])])
    assert t.s.step.kind == "nominations"
    t.send(Nominate(seat=3, target=4), Advance())
    t.ballot([])
    assert t.s.step.kind == "nominations"
    t.advance()  # nobody nominated: every other player in turn
    t.ballot([])
    events = t.ballot([])
    assert brief(events, "executed") == [("executed", 3)]  # one vote, the most today


def test_d_h18_the_swindler_s_target_cannot_vote_himself() -> None:
    """D-H18: the target cannot choose; if the swindler cannot vote, the target votes freely."""
    t = hw(["mafioso", "mafioso", "swindler", "godfather", *CIVS, "civilian", "civilian"])
    lynch(t, 11)
    t.night(act(3, 5))
    to_ballot(t, [(6, 7)])
    with pytest.raises(IllegalCommand, match="аферист"):
        t.send(vote(5, 7))
    t.advance()
    t.night(act(3, 5), act(4, 3))  # the godfather takes the swindler's vote
    to_ballot(t, [(6, 8)])
    t.send(vote(5, 8))


def test_d_h19_the_deprived_player_does_not_count() -> None:
    """D-H19 with the sequential variant: «Голосование проводится так, как если бы этого игрока не было»."""
    t = hw(["godfather", "mafioso", *CIVS, "civilian", "civilian", "civilian"], "sequential_voting")
    lynch(t, 10)
    t.night(act(1, 3))
    events = to_ballot(t, [(4, 5)]) + t.ballot([(5, [4, 6, 7, 8])])  # 4 of the 8 voters: half
    assert brief(events, "executed") == [("executed", 5)]


@pytest.mark.parametrize(
    ("roles", "winners"),
    [
        (["mafioso", "civilian", "civilian"], None),
        (["mafioso", "civilian"], ("mafia",)),
        (["civilian", "civilian"], ("town",)),
        (["maniac", "civilian"], None),
        (["maniac"], ("solo",)),
        (["yakuza", "mafioso", "civilian"], None),
        (["yakuza", "civilian"], ("yakuza",)),
        (["mafioso", "maniac", "civilian", "civilian"], None),
        (["mafioso", "maniac"], ("mafia",)),
        ([], ()),
    ],
)
def test_d_h20_win_evaluation(roles: list[str], winners: tuple[str, ...] | None) -> None:
    """D-H20: draw; the lone loner; town when no criminal and no loner lives; a criminal group at parity
    with everyone else once the other group is gone."""
    from engine.kinds.hobbyworld import hobbyworld

    t = hw(["civilian"] * 3 + roles)
    state = t.s
    alive = frozenset(range(4, 4 + len(roles)))
    assert hobbyworld(engine.GameState(**{**_fields(state), "alive": alive})) == winners


def test_d_h20_literal_town_win_option() -> None:
    from engine.kinds.hobbyworld import hobbyworld

    t = hw(["civilian", "civilian", "maniac", "mafioso"], "loner_may_survive")
    assert hobbyworld(engine.GameState(**{**_fields(t.s), "alive": frozenset({1, 2, 3})})) == ("town",)


def _fields(state: engine.GameState) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(state, f.name) for f in fields(state)}


def test_d_h22_no_reveal_to_a_player_killed_before_the_priest() -> None:
    """D-H22: the checked player is told only if he is still living when the priest acts."""
    t = hw(["mafioso", "mafioso", "priest", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(shot("mafia", 4), act(3, 4, name="check"))
    assert brief(events, "check", "priest_revealed") == [("check", 3, 4, "civilian")]


def test_d_h23_the_ripper_kills_the_sleepwalker_and_mafiosi() -> None:
    """D-H23: any player whose true role is not `civilian`."""
    t = hw(["mafioso", "mafioso", "ripper", "sleepwalker", *CIVS, "civilian"])
    lynch(t, 10)
    assert brief(t.night(act(3, 4)), "killed") == [("killed", 4)]


def test_d_g8_dead_roles_are_not_called() -> None:
    """D-G8: roles eliminated on earlier days are skipped (their death was announced with the role)."""
    t = hw(["mafioso", "mafioso", "doctor", *CIVS, "civilian"])
    lynch(t, 3)
    events = t.night(shot("mafia", 4))
    assert ("night_step", "doctor") not in brief(events, "night_step")


def test_d_h9_the_ward_survives_both_group_shots_and_the_bodyguard_dies_once() -> None:
    """D-H9 (3) as revised: «a bodyguard's ward survives every attempt of the night and the bodyguard dies
    once in his place» (seed 000: «Если в течение этой ночи … должен быть убит, он не умирает»)."""
    roles = ["mafioso", "mafioso", "yakuza", "yakuza", "bodyguard", *CIVS, "civilian", "civilian"]
    t = hw(roles, "yakuza")
    lynch(t, 12)
    events = t.night(act(5, 6), shot("mafia", 6), shot("yakuza", 6))
    assert brief(events, "killed") == [("killed", 5)]


def test_d_h9_the_beauty_on_the_only_yakuza_stops_the_yakuza_shot() -> None:
    """D-H9 (6) after «Если красотка выбрала единственного мафиози в игре, то мафия в эту ночь никого не
    убивает»: the same for the yakuza; the mafia still shoots."""
    roles = ["mafioso", "mafioso", "yakuza", "beauty", *CIVS, "civilian", "civilian", "civilian"]
    t = hw(roles, "yakuza")
    lynch(t, 12)
    events = t.night(act(4, 3), shot("mafia", 5), shot("yakuza", 6))
    assert brief(events, "killed", "team_missed") == [("team_missed", "yakuza", "blocked"), ("killed", 5)]


def test_a_prisoner_s_record_entry_is_accepted_without_effect() -> None:
    """Issue 2 part 6: «An entry that another role's action made ineffective (the actor was blocked,
    jailed, or killed earlier that night …) is accepted and simply has no effect»."""
    from engine.record import play_record

    seats = ["godfather", "mafioso", "jailer", *CIVS, "civilian", "civilian"]
    record = {
        "ruleset": "hobbyworld",
        "seats": seats,
        "script": [
            {"night": []},
            {"day": {"nominations": [[3, 10]], "votes": [[10, [3]]]}},
            {"night": [{"seat": 3, "target": 1}]},
            {"day": {"nominations": [[3, 9]], "votes": [[9, [3]]]}},
            {"night": [{"seat": 1, "target": 4}, {"team": "mafia", "target": 5}]},
        ],
    }
    events = play_record(record).events
    assert brief(events, "jailed", "vote_denied", "killed") == [("jailed", 1), ("killed", 5)]


def test_d_h16_sequential_last_resort_acquitted_then_the_next_most_voted() -> None:
    """D-H16 with D-H17's last resort: the judge acquits the most voted player of the day; the day still
    ends with one lynch («каждый день один (и только один) игрок»)."""
    t = hw(["mafioso", "mafioso", "judge", "civilian"], "sequential_voting")
    to_ballot(t)  # nobody nominated: every player in turn, all found innocent
    t.ballot([(1, [4])])
    for _ in range(3):
        t.ballot([])
    assert t.s.step.kind == "acquittal" and t.s.step.seat == 1
    events = t.send(acquit(3, 1))
    assert brief(events, "acquitted", "lot", "executed")[0] == ("acquitted", 1)
    assert len(brief(events, "executed")) == 1  # (and the mafia, two of three, wins)


def test_d_h5_true_result_variant() -> None:
    """D-H5 ``ineffective_check_feedback = "true_result"``: the blocked checker learns the true result, but
    his check has no other effect (the jailer jails nobody)."""
    t = hw(["thief", "mafioso", "jailer", *CIVS, "civilian"], "true_result_checks")
    lynch(t, 9)
    events = t.night(act(1, 3), act(3, 2))
    assert brief(events, "check", "check_nothing", "jailed") == [("check", 3, 2, "mafioso")]
    assert t.s.jail == ()


def test_d_h17_an_innocent_cannot_be_nominated_again_that_day() -> None:
    """«нельзя несколько раз за день голосовать за одного и того же игрока» — in the new round of
    nominations the candidates already voted on today are refused."""
    t = hw(["mafioso", "mafioso", *CIVS, "civilian"], "sequential_voting")
    to_ballot(t, [(1, 3)])
    t.ballot([])
    assert t.s.step.kind == "nominations"
    with pytest.raises(IllegalCommand, match="уже голосовали"):
        t.send(Nominate(seat=4, target=3))


def test_the_mafia_is_not_called_when_only_the_sleepwalker_is_left_of_it() -> None:
    """«Разумеется, вызываются только те персонажи, которые находятся в игре»; «Если игрок с особой ролью
    убит, вызывать его ночью, разумеется, не нужно»: with every mafioso out (their roles shown), the
    mafia is not in the game, and the sleepwalker, who only wakes «всякий раз, когда ведущий объявляет о
    том, что проснулась мафия», is not woken alone (D-G8, D-H7). The yakuza keeps the game going."""
    roles = ["mafioso", "mafioso", "yakuza", "yakuza", "detective", "sleepwalker", *CIVS, "civilian"]
    t = hw(roles, "yakuza")
    first = lynch(t, 1)
    first += t.night(shot("yakuza", 2))
    assert ("night_step", "mafia") in brief(first, "night_step")  # the sleepwalker still wakes with 2
    events = lynch(t, 12)
    events += t.night(shot("yakuza", 7))
    assert not t.s.over
    assert brief(events, "night_step") == [("night_step", "yakuza"), ("night_step", "detective")]
    with pytest.raises(IllegalCommand):
        engine.apply(t.s, Propose(seat=6, target=8))


def test_a_prisoner_jailed_and_freed_in_one_night_is_not_named() -> None:
    """«утром ведущий объявляет, кто стал заключённым»; «Если тюремщик убит, все заключённые выходят на
    свободу»: a mafioso the jailer jails and who is free again before the morning (the maniac killed the
    jailer at a later step) is not announced as a prisoner, and no public release names him — that would
    tell the table what the jailer's check found. Prisoners announced on an earlier morning are named as
    freed (D-H15)."""
    t = hw(["mafioso", "mafioso", "mafioso", "jailer", "maniac", *CIVS, *CIVS])
    lynch(t, 15)
    t.night(act(4, 1))
    assert t.s.prisoners() == {1}
    events = lynch(t, 14)
    events += t.night(act(4, 2), act(5, 4))
    assert brief(events, "killed", "jailed", "released") == [("killed", 4), ("released", (1,))]
    assert t.s.prisoners() == set()
