"""`blood` (seed 003): the decisions of RULESETS.md 10.5 (D-B*) and the `hobbyworld` decisions they carry
over (D-B8), each with the play it changes."""

from __future__ import annotations

import pytest
from blood_helpers import bl, cycle, execute, next_cycle, phases_and_steps
from helpers import act, brief, shot
from hobbyworld_helpers import acquit, day

import engine
from engine import IllegalCommand, Propose, queries
from engine.kinds.blood import pick_composition

BL = engine.load_ruleset("blood")
VAMPS = ["vampire"] * 5


def test_d_b2_intro_day_then_night_dawn_day_sunset() -> None:
    """D-B2: intro day (the hunters and the neophyte meet, other special roles are woken without acting)
    → night (announcements, discussion, vote, execution) → dawn → day (the hunters' strike) → sunset →
    night …; D-B5: inside dawn and sunset, 000's order with the substitutions (7.3)."""
    roles = ["hunter", "hunter_leader", "monk", "scout", "neophyte", "lamia", "dampir", "nosferatu"]
    roles += ["bride", "ghoul", "count", "wolf", "vampire", "vampire"]
    t = bl(roles)
    intro = [e for e in t.events if e.type in ("announce", "night_step")]
    assert [e.phrase for e in intro[1:]] == ["bl_intro_day", "bl_intro_hunters_wake"]
    assert brief(t.events, "awake")[0] == ("awake", "hunters_meet", (1, 2, 3, 4, 5))
    assert t.s.phase_name == "day" and t.s.intro
    seen = phases_and_steps(t)
    assert seen == [
        ("day", "hunters_meet"),
        *[("day", s) for s in ("lamia", "monk", "dampir", "nosferatu", "scout", "count", "wolf", "bride")],
        ("day", "hunter_leader"),
    ]
    assert t.s.phase_name == "night" and t.s.phase == "day"  # the vampires talk and vote at night
    lines = [e.phrase for e in t.events if e.type == "announce"]
    assert lines[-2:] == ["bl_night_falls", "bl_discussion_start"]
    execute(t, 14)
    assert t.s.phase_name == "dawn"
    seen = phases_and_steps(t)
    assert seen == [
        ("dawn", "lamia"),
        ("dawn", "monk"),
        ("dawn", "dampir"),
        ("dawn", "nosferatu"),
        ("dawn", "scout"),
        ("day", "hunters"),
        ("sunset", "count"),
        ("sunset", "wolf"),
        ("sunset", "bride"),
        ("sunset", "hunter_leader"),
    ]
    lines = [e.phrase for e in t.events if e.type == "announce"]
    assert lines[-6:] == [
        "bl_dawn",
        "bl_day",
        "bl_sunset",
        "bl_night_falls",
        "bl_nobody_killed",
        "bl_discussion_start",
    ]


def test_d_b2_nobody_acts_on_the_intro_day() -> None:
    """D-B2 (mirrors 4.6): «no strikes or abilities» on the intro day."""
    t = bl(["hunter", "hunter", "count", *VAMPS, "vampire"])
    while t.s.intro and t.s.phase == "night":
        assert queries.actors(t.s) == frozenset()
        with pytest.raises(IllegalCommand):
            t.send(act(3, 1))
        t.advance()


def test_d_b1_d_b3_composition_picker() -> None:
    """D-B3: 000's table with the columns substituted; one lord (D-B1), the count by default; specials at
    the lower bound, picked in the order dampir, lamia, nosferatu, bride, neophyte, ghoul and
    hunter_leader, scout, monk; a werewolf replaces one hunter, with a warning below 10 players."""
    assert pick_composition(BL, 10) == ({"count": 1, "hunter": 3, "vampire": 6}, [])
    deck, warnings = pick_composition(BL, 16, lord="queen", special_vampires=2, special_hunters=2)
    assert deck == {
        "dampir": 1,
        "hunter": 3,
        "hunter_leader": 1,
        "lamia": 1,
        "queen": 1,
        "scout": 1,
        "vampire": 8,
    }
    assert warnings == []
    deck, warnings = pick_composition(BL, 9, werewolf="kitsune")
    assert deck == {"count": 1, "hunter": 2, "kitsune": 1, "vampire": 5} and len(warnings) == 1
    deck, _ = pick_composition(BL, 7, special_hunters=["monk"], werewolf="wolf")
    assert deck == {"count": 1, "monk": 1, "vampire": 4, "wolf": 1}
    for bad in (
        dict(players=10, lord="dampir"),
        dict(players=10, special_vampires=2),
        dict(players=12, special_vampires=["ghoul", "ghoul"]),
        dict(players=12, special_hunters=["dampir"]),
        dict(players=10, werewolf="count"),
        dict(players=5),
        dict(players=17),
    ):
        with pytest.raises(IllegalCommand):
            pick_composition(BL, **bad)  # type: ignore[arg-type]
    ruleset = engine.load_ruleset("blood", ["wolf", "prince", "more_specials"])
    assert engine.composition(ruleset, 11) == {
        "dampir": 1,
        "hunter": 2,
        "hunter_leader": 1,
        "lamia": 1,
        "prince": 1,
        "vampire": 4,
        "wolf": 1,
    }
    for n in range(6, 17):
        assert engine.composition(BL, n) == dict(BL.compositions[n])
        deck = engine.composition(BL, n)
        assert sum(deck.get(lord, 0) for lord in ("queen", "revenant", "prince", "count")) == 1


@pytest.mark.parametrize(
    ("roles", "winners"),
    [
        (["vampire", "vampire", "ghoul"], ("vampires",)),
        (["hunter", "vampire"], ("hunters",)),
        (["hunter", "scout", "vampire", "neophyte", "wolf"], None),
        (["hunter", "hunter", "vampire", "neophyte"], ("hunters",)),  # the neophyte is a vampire
        (["wolf"], ("solo",)),
        (["kitsune", "vampire"], None),  # D-H20: the werewolf must be gone too
        (["hunter", "wolf"], ("hunters",)),
        ([], ()),
    ],
)
def test_d_b4_win_evaluation(roles: list[str], winners: tuple[str, ...] | None) -> None:
    """D-B4 = D-H20 with M = hunters, T = vampires (incl. the neophyte), L = the werewolf; the werewolf
    «побеждает в том случае, если все игроки кроме него убиты»."""
    from engine.kinds.blood import blood

    seats = [*roles, "vampire", "vampire"]
    state, _ = engine.new_game(BL, seats, 1)
    state = engine.state.thaw(state)
    engine.state.put(state, alive=frozenset(range(1, len(roles) + 1)))
    assert blood(state) == winners


def test_d_b4_win_lines_and_the_literal_option() -> None:
    """The win lines; with ``werewolf_may_survive`` the vampires win once the hunters are gone."""
    t = bl(["hunter", "wolf", "vampire", "vampire", "vampire", "vampire"])
    events = execute(t, 1)
    assert t.s.over is False and brief(events, "game_over") == []
    t = bl(["hunter", "wolf", "vampire", "vampire", "vampire", "vampire"], "werewolf_may_survive")
    events = execute(t, 1)
    over = next(e for e in events if e.type == "game_over")
    assert over.get("winners") == ["vampires"] and over.phrase == "bl_vampires_win"
    t = bl(["hunter", "hunter", "vampire", "vampire", "vampire"])
    events = execute(t, 3)
    over = next(e for e in events if e.type == "game_over")
    assert over.get("winners") == ["hunters"] and over.phrase == "bl_hunters_win"
    t = bl(["wolf", "vampire", "vampire", "hunter"])
    execute(t, 4)
    events = cycle(t, act(1, 2))
    events += execute(t, 3)
    over = next(e for e in events if e.type == "game_over")
    assert over.phrase == "bl_werewolf_win" and over.params == {"seat": 1, "role": "Вервольф"}


def test_d_b6_ghoul_protected_attempts_do_not_count() -> None:
    """D-B6: «Если упырь защищён (дампиром, носферату или ламией), считается, что покушения на него не
    было»: a protected ghoul's attempt is not counted, nosferatu dies in his place (not counted either);
    the next unprotected attempt is the first, the one after it kills."""
    t = bl(["hunter", "hunter", "ghoul", "dampir", "nosferatu", *VAMPS, "vampire", "vampire"])
    execute(t, 12)
    assert brief(cycle(t, act(4, 3), shot("hunters", 3)), "killed") == []
    assert brief(next_cycle(t, 11, act(5, 3), shot("hunters", 3)), "killed") == [("killed", 5)]
    assert brief(next_cycle(t, 10, shot("hunters", 3)), "killed") == []
    assert brief(next_cycle(t, 9, shot("hunters", 3)), "killed") == [("killed", 3)]


def test_d_b6_two_attempts_in_one_cycle_kill_the_ghoul() -> None:
    """D-B6: counted attempts are the hunters' strike, the count, the wolf and the kitsune; «the second
    kills him, even in the same cycle»."""
    t = bl(["hunter", "hunter", "ghoul", "count", *VAMPS, "vampire"])
    execute(t, 10)
    assert brief(cycle(t, shot("hunters", 3), act(4, 3)), "killed") == [("killed", 3)]
    t = bl(["hunter", "hunter", "ghoul", "kitsune", *VAMPS, "vampire"])
    execute(t, 10)
    assert brief(cycle(t, act(4, 3)), "killed") == []
    assert brief(next_cycle(t, 9, act(4, 3)), "killed") == [("killed", 3)]


def test_d_b7_no_self_targets() -> None:
    """D-B7: the nosferatu cannot choose himself (he would die instead of himself); the dampir picks
    «другого игрока»; no other blood role targets itself (D-G4); the revenant picks two others."""
    roles = ["hunter", "scout", "nosferatu", "dampir", "lamia", "bride", "revenant", "vampire", "vampire"]
    for seat, step, targets in (
        (3, "nosferatu", (3,)),
        (4, "dampir", (4,)),
        (5, "lamia", (5,)),
        (2, "scout", (2,)),
        (6, "bride", (6,)),
        (7, "revenant", (7, 1)),
    ):
        t = bl(roles)
        execute(t, 9)
        t.to_step(step)
        with pytest.raises(IllegalCommand):
            t.send(act(seat, *targets))


def test_d_b8_the_cycle_s_news_at_the_start_of_the_night() -> None:
    """D-B8: «Deaths of a dawn–day–sunset cycle are announced at the start of the next night, together
    with new prisoners and the player who cannot vote»; victims in seat order with their role (D-G11)."""
    t = bl(["hunter", "hunter_leader", "hunter", "prince", "count", *VAMPS, "vampire", "vampire"])
    execute(t, 12)
    events = cycle(t, shot("hunters", 9), act(4, 3), act(5, 7), act(2, 6))
    assert brief(events, "announce", "killed", "jailed", "vote_denied") == [
        ("announce", "sunset_starts"),
        ("announce", "day_breaks"),
        ("killed", 7),
        ("killed", 9),
        ("jailed", 3),
        ("vote_denied", 6),
        ("announce", "nominations"),
    ]
    assert [e.params.get("role") for e in events if e.type == "killed"] == ["Вампир", "Вампир"]


def test_d_b8_killed_earlier_in_the_cycle_acts_in_vain() -> None:
    """D-B8 (as 000): «the lord killed by the hunters acts in vain» — he is still called at sunset; a role
    eliminated on an earlier cycle is not called any more (D-G8)."""
    t = bl(["hunter", "hunter", "count", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, shot("hunters", 3), act(3, 1))
    assert brief(events, "killed") == [("killed", 3)]
    assert ("awake", "count", (3,)) in brief(events, "awake")
    events = next_cycle(t, 9, shot("hunters", 4))
    assert all(e.get("step") != "count" for e in events if e.type == "night_step")


def test_d_b9_protection_and_block_last_until_the_next_night() -> None:
    """D-B9: «до следующей ночи» = from the dawn step to the start of the next night: the dampir's save
    covers the count's sunset kill and the monk's block covers the hunter_leader's sunset vote ban; a
    protection does not carry over to the next cycle."""
    t = bl(["hunter", "hunter_leader", "monk", "dampir", "count", *VAMPS, "vampire", "vampire"])
    execute(t, 12)
    events = cycle(t, act(4, 6), act(3, 2), shot("hunters", 6), act(5, 6), act(2, 7))
    assert brief(events, "killed", "vote_denied") == []
    events = next_cycle(t, 11, act(5, 6))
    assert brief(events, "killed") == [("killed", 6)]


def test_d_b10_queen_acquits_once_each_night() -> None:
    """D-B10: «раз за ночь» = once per night-time vote, exactly like the judge's once per day: she can
    acquit again the next night."""
    t = bl(["hunter", "hunter", "queen", *VAMPS, "vampire", "vampire", "vampire"])
    day(t, [(4, 11)], [(11, [1, 2])])
    events = t.send(acquit(3, 11))
    assert brief(events, "acquitted") == [("acquitted", 11)]
    assert t.s.step.kind == "nominations"  # no other candidate had a vote: new nominations (D-H16)
    events = day(t, [(4, 10)], [(10, [1])])
    assert brief(events, "executed", "acquittal_offer") == [("executed", 10)]
    cycle(t, shot("hunters", 9))
    events = day(t, [(4, 8)], [(8, [1])])
    assert brief(events, "acquittal_offer") == [("acquittal_offer", 3, 8)]
    assert brief(t.send(acquit(3, 8)), "acquitted") == [("acquitted", 8)]


def test_d_h16_queen_cannot_acquit_whom_she_voted_for() -> None:
    t = bl(["hunter", "hunter", "queen", *VAMPS, "vampire"])
    day(t, [(4, 9)], [(9, [1, 3])])
    assert t.s.step.kind == "acquittal" and queries.actors(t.s) == frozenset()
    with pytest.raises(IllegalCommand):
        t.send(acquit(3, 9))


def test_d_h5_a_blocked_scout_learns_nothing() -> None:
    """D-H5 (via D-B8): the lamia's target is called as usual and told «Этой ночью вам ничего не удалось
    узнать»."""
    t = bl(["scout", "hunter", "lamia", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(3, 1), act(1, 4))
    assert brief(events, "check", "check_nothing") == [("check_nothing", 1)]
    assert next(e for e in events if e.type == "check_nothing").phrase == "priv_check_nothing"


def test_d_h6_lamia_on_one_of_two_hunters() -> None:
    """D-H6 (lamia): «Если ламия выбрала единственного охотника в игре, то он никого не убивает» — with
    another hunter effective the strike happens; the neophyte does not keep it alive."""
    t = bl(["hunter", "hunter", "lamia", *VAMPS, "vampire"])
    execute(t, 9)
    assert brief(cycle(t, act(3, 1), shot("hunters", 4)), "killed") == [("killed", 4)]
    t = bl(["hunter", "neophyte", "lamia", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(3, 1), shot("hunters", 4))
    assert brief(events, "killed", "team_missed") == [("team_missed", "hunters", "blocked")]


def test_d_h7_no_extra_strike_when_the_neophyte_is_saved() -> None:
    t = bl(["hunter", "hunter", "neophyte", "dampir", *VAMPS, "vampire"])
    execute(t, 10)
    events = cycle(t, act(4, 3), shot("hunters", 3))
    assert brief(events, "extra_shot", "killed") == []


def test_d_h8_hunters_choose_by_proposals() -> None:
    """D-H8: the most proposed target; a tie → no strike."""
    t = bl(["hunter", "hunter", "neophyte", *VAMPS, "vampire"])
    execute(t, 9)
    t.to_step("hunters")
    t.send(Propose(seat=1, target=4), Propose(seat=2, target=5))
    events = t.to_kind("nominations")
    assert brief(events, "killed", "team_missed") == [("team_missed", "hunters", "no_target")]


def test_a_record_may_name_or_omit_a_phase_where_nobody_could_act() -> None:
    """Issue 2 part 6 (records list the phases in the order the preset runs them): a dawn without dawn
    roles passes at once; the script may name it with nothing in it, or leave it out."""
    from engine.record import RecordError, play_record

    def record(*dawn: dict[str, object]) -> dict[str, object]:
        night = {"night": {"nominations": [[4, 6]], "votes": [[6, [1, 2, 4]]]}}
        strike = {"day": [{"team": "hunters", "target": 4}]}
        seats = ["hunter", "hunter", "count", "vampire", "vampire", "vampire"]
        script = [{"day": []}, night, *dawn, strike, {"sunset": []}]
        return {"ruleset": "blood", "seed": 1, "seats": seats, "script": script}

    named = play_record(record({"dawn": []}))
    omitted = play_record(record())
    assert [e.to_json() for e in named.events] == [e.to_json() for e in omitted.events]
    assert brief(named.events, "killed") == [("killed", 4)]
    with pytest.raises(RecordError, match="nobody could act"):
        play_record(record({"dawn": [{"seat": 3, "target": 4}]}))


def test_d_h4_blocks_reach_only_later_steps() -> None:
    """D-H4 (via D-B8): a monk blocking the lamia changes nothing (she acted first at dawn); the lamia
    blocking the monk cancels the monk."""
    t = bl(["monk", "hunter", "lamia", "count", *VAMPS, "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 4), act(1, 3), shot("hunters", 4), act(4, 5))
    assert brief(events, "killed") == []  # the count is protected and blocked by the lamia
    events = next_cycle(t, 9, act(3, 1), act(1, 4), shot("hunters", 6), act(4, 2))
    assert brief(events, "killed") == [("killed", 2), ("killed", 6)]


def test_d_h10_dampir_and_nosferatu() -> None:
    """D-H10 (via D-B8): a protected ward costs the nosferatu nothing; a nosferatu dying in his ward's
    place while the dampir protects him: nobody dies."""
    t = bl(["hunter", "hunter", "dampir", "nosferatu", *VAMPS, "vampire"])
    execute(t, 10)
    assert brief(cycle(t, act(3, 5), act(4, 5), shot("hunters", 5)), "killed") == []
    assert brief(next_cycle(t, 9, act(3, 4), act(4, 6), shot("hunters", 6)), "killed") == []


def test_d_h15_the_prince_killed_by_day_frees_the_prisoner_for_the_sunset() -> None:
    """D-H15 (via D-B8): «Если князь убит, все заключённые выходят на свободу и получают все свои права
    назад» — at once: a hunter_leader jailed on an earlier cycle acts at the sunset after the hunters
    killed the prince; the release is announced with the prince's death at the night."""
    t = bl(["hunter_leader", "hunter", "prince", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 1))
    assert brief(events, "jailed") == [("jailed", 1)]
    execute(t, 9)
    t.to_step("hunters")
    assert 1 not in queries.actors(t.s)
    t.send(shot("hunters", 3))
    t.to_step("hunter_leader")
    assert 1 in queries.actors(t.s)
    events = t.send(act(1, 5)) + t.to_kind("nominations")
    assert brief(events, "killed", "released", "vote_denied") == [
        ("killed", 3),
        ("released", (1,)),
        ("vote_denied", 5),
    ]


def test_d_h17_d_h21_the_night_vote_runoff_lot_and_no_last_words() -> None:
    """D-H17 at night (D-B8): a tie for most → one runoff among the tied; still tied → the lot; nobody
    nominated → every living player is a candidate. D-H21: the executed player has no last words."""
    t = bl(["hunter", "hunter", *VAMPS, "vampire"], seed=3)
    events = day(t, [(3, 4), (5, 6)], [(4, [1, 2]), (6, [3, 5])])
    assert brief(events, "tie", "ballot")[-2:] == [("tie", (4, 6)), ("ballot", 4, "runoff")]
    tie_line = next(e for e in events if e.type == "announce" and e.get("key") == "vote_tie")
    assert tie_line.phrase == "bl_vote_tie" and tie_line.params == {"seats": [4, 6]}
    events = t.ballot([(4, [1]), (6, [3])])
    lot = next(e for e in events if e.type == "lot")
    assert lot.phrase == "bl_vote_tie_random" and lot.get("seat") in (4, 6)
    assert brief(events, "executed", "speech") == [("executed", lot.get("seat"))]
    cycle(t)
    events = day(t)
    lines = [e for e in events if e.type == "announce"]
    at = [e.phrase for e in lines].index("bl_no_nominations")
    assert lines[at + 1].phrase == "bl_vote_start" and lines[at + 1].params == {"seats": t.s.living()}
