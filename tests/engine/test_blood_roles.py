"""`blood` (seed 003, «Кровная месть», part 2): one scenario per role, quoting the rulebook, asserting the
exact events.

Every game starts with the intro day and a night that executes someone: the seat lists end with a spare
vampire who is executed at the first night (:func:`execute`)."""

from __future__ import annotations

import pytest
from blood_helpers import bl, cycle, execute, next_cycle
from helpers import act, brief, shot
from hobbyworld_helpers import acquit, day, to_ballot, vote

from engine import IllegalCommand, Propose, queries

VAMPS = ["vampire"] * 5


def test_hunters_strike_by_day() -> None:
    """«Днём ведущий объявляет «Охотники собрались и выбирают жертву». Охотники открывают глаза и жестами
    договариваются, кого убить. … «Охотники нанесли удар и расходятся». В начале ближайшей ночи жертва
    охотников объявляется убитой (если её никто не защитил).»"""
    t = bl(["hunter", "hunter", *VAMPS, "vampire"])
    execute(t, 8)
    start = max(i for i, e in enumerate(t.events) if e.type == "executed")
    cycle(t, shot("hunters", 3))
    events = t.events[start:]
    assert [(e.type, e.phrase) for e in events if e.type in ("night_step", "night_step_ended", "killed")] == [
        ("night_step", "bl_hunters_wake"),
        ("night_step_ended", "bl_hunters_sleep"),
        ("killed", "bl_player_killed"),
    ]
    killed = next(e for e in events if e.type == "killed")
    assert killed.get("seat") == 3 and killed.params == {"seat": 3, "role": "Вампир"}
    strike = next(e for e in events if e.type == "awake")
    assert strike.audience.seats == (1, 2) and t.s.phase_name == "night"


def test_special_hunters_take_part_in_the_strike() -> None:
    """«Не забывайте, что особые персонажи охотников также принимают участие в убийстве.»"""
    t = bl(["hunter_leader", "scout", "monk", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    t.to_step("hunters")
    assert brief(t.events[-2:], "awake") == [("awake", "hunters", (1, 2, 3))]
    t.send(Propose(seat=1, target=4), Propose(seat=2, target=4), Propose(seat=3, target=5))
    events = t.to_kind("nominations")
    assert brief(events, "killed") == [("killed", 4)]


def test_queen_checks_at_sunset() -> None:
    """Королева: «На закате может узнать роль одного игрока.» «Ведущий показывает королеве карту с ролью
    проверяемого игрока. Затем ведущий говорит: «Королева вернулась в замок».»"""
    t = bl(["hunter", "hunter", "queen", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(3, 1))
    assert brief(events, "check") == [("check", 3, 1, "hunter")]
    check = next(e for e in events if e.type == "check")
    assert check.audience.seats == (3,) and check.phrase == "priv_role_card"
    assert check.params == {"seat": 1, "role": "Охотник"}
    assert [e.phrase for e in events if e.type in ("night_step", "night_step_ended")][-2:] == [
        "bl_queen_wakes",
        "bl_queen_sleeps",
    ]


def test_queen_acquits_once_a_night() -> None:
    """Королева: «Ночью, если по итогам голосования игрок должен быть казнён, но королева высказалась в его
    защиту (не подняла руку), ведущий объявляет, что игрок оправдан. … Однако королева может блокировать
    голосование подобным образом только раз за ночь: следующий осуждённый уже наверняка будет казнён.»"""
    t = bl(["hunter", "hunter", "queen", *VAMPS, "vampire"])
    events = day(t, [(4, 9), (5, 8)], [(9, [1, 2, 4, 5]), (8, [6])])
    assert t.s.step.kind == "acquittal"
    assert brief(events, "acquittal_offer") == [("acquittal_offer", 3, 9)]
    offer = next(e for e in events if e.type == "acquittal_offer")
    assert offer.audience.seats == (3,) and offer.phrase == "priv_judge_offer"
    events = t.send(acquit(3, 9))
    acquitted = next(e for e in events if e.type == "acquitted")
    assert acquitted.phrase == "bl_queen_acquits" and acquitted.params == {"seat": 9}
    # «следующий осуждённый уже наверняка будет казнён»: seat 8, the next with most votes, no offer.
    assert brief(events, "acquitted", "acquittal_offer", "executed") == [("acquitted", 9), ("executed", 8)]
    assert next(e for e in events if e.type == "executed").phrase == "bl_executed"


def test_queen_may_save_herself() -> None:
    """«королева способна обеспечить себе иммунитет во время ночного голосования. Однако она может быть
    казнена, если потратит свою возможность на другого игрока, а сама станет следующим подозреваемым.»"""
    t = bl(["hunter", "hunter", "queen", *VAMPS, "vampire"])
    day(t, [(1, 3), (4, 9)], [(3, [1, 2, 4]), (9, [5, 6])])
    events = t.send(acquit(3, 3))
    assert brief(events, "acquitted", "executed") == [("acquitted", 3), ("executed", 9)]
    t2 = bl(["hunter", "hunter", "queen", *VAMPS, "vampire"])
    day(t2, [(1, 9), (4, 3)], [(9, [1, 2, 4]), (3, [5, 6])])
    events = t2.send(acquit(3, 9))
    assert brief(events, "acquitted", "executed") == [("acquitted", 9), ("executed", 3)]


def test_revenant_compares_sides() -> None:
    """Ревенант: «На закате может выбрать двух игроков, чтобы узнать, одинаковые у них стороны или
    разные.» «При этом особые роли не учитываются. Например, главарь и разведчица находятся на одной
    стороне — охотников; равно как и ламия с дампиром — оба вампиры.»"""
    t = bl(["hunter_leader", "scout", "revenant", "lamia", "dampir", *VAMPS, "vampire", "vampire"])
    execute(t, 12)
    events = cycle(t, act(3, 1, 2))
    assert brief(events, "check") == [("check", 3, 1, "same")]
    assert next(e for e in events if e.type == "check").phrase == "priv_same_side"
    events = next_cycle(t, 11, act(3, 4, 5))
    assert brief(events, "check") == [("check", 3, 4, "same")]
    events = next_cycle(t, 10, act(3, 1, 4))
    check = next(e for e in events if e.type == "check")
    assert brief([check]) == [("check", 3, 1, "different")]
    assert check.phrase == "priv_different_side" and check.params == {"seat": 1, "target": 4}


def test_prince_jails_a_hunter_until_he_dies() -> None:
    """Князь: «На закате может узнать роль одного игрока. Если этот игрок охотник, он сразу отправляется в
    тюрьму. После смерти князя все заключённые выходят из тюрьмы.» «в начале ночи ведущий объявляет, кто
    стал заключённым. Заключённые не имеют права голосовать, убивать, пользоваться способностями, однако
    могут участвовать в обсуждении.»"""
    t = bl(["hunter", "hunter_leader", "prince", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 2))
    assert brief(events, "check", "jailed") == [("check", 3, 2, "hunter_leader"), ("jailed", 2)]
    jailed = next(e for e in events if e.type == "jailed")
    assert jailed.phrase == "bl_player_jailed" and jailed.audience.kind == "public"
    to_ballot(t, [(2, 9)])
    with pytest.raises(IllegalCommand, match="тюрьме"):
        t.send(vote(2, 9))
    t.ballot([(9, [4])])
    # The prisoner is woken with the hunters but cannot choose; the hunters kill the prince.
    t.to_step("hunters")
    assert 2 not in queries.actors(t.s) and t.s.prisoners() == {2}
    events = t.send(shot("hunters", 3)) + t.to_kind("nominations")
    assert brief(events, "killed", "released") == [("killed", 3), ("released", (2,))]
    assert next(e for e in events if e.type == "released").phrase == "bl_prisoners_released"
    assert t.s.prisoners() == frozenset()


def test_prince_does_not_jail_a_werewolf() -> None:
    """«На оборотня действие князя не распространяется, однако князь всё равно узнаёт его роль.»"""
    t = bl(["hunter", "hunter", "prince", "wolf", *VAMPS, "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 4))
    assert brief(events, "check", "jailed") == [("check", 3, 4, "wolf")]


def test_count_kills_at_sunset() -> None:
    """Граф: «На закате может убить одного игрока.» «Ночью жители обнаруживают в городе одним трупом
    больше.»"""
    t = bl(["hunter", "hunter", "count", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, shot("hunters", 4), act(3, 1))
    assert brief(events, "killed") == [("killed", 1), ("killed", 4)]
    assert [e.phrase for e in events if e.type in ("night_step", "night_step_ended")][-2:] == [
        "bl_count_wakes",
        "bl_count_sleeps",
    ]


def test_dampir_protects_another_player_until_the_next_night() -> None:
    """Дампир: «На рассвете может выбрать другого игрока. Этот игрок не может быть убит до следующей
    ночи.» «ни убийца не должен узнать, что его удар сорвался, ни сам счастливчик не должен узнать»."""
    t = bl(["hunter", "hunter", "dampir", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(3, 4), shot("hunters", 4))
    assert brief(events, "killed", "announce")[-3:] == [
        ("announce", "day_breaks"),
        ("announce", "nobody_killed"),
        ("announce", "nominations"),
    ]
    phrases = [e.phrase for e in events if e.type == "announce"]
    assert phrases[-2:] == ["bl_nobody_killed", "bl_discussion_start"]
    with pytest.raises(IllegalCommand):
        next_cycle(t, 8, act(3, 3))  # «другого игрока»


def test_nosferatu_dies_instead() -> None:
    """Носферату: «На рассвете может выбрать одного игрока. Погибает вместо этого игрока, если тот должен
    быть убит до следующей ночи.» «Защищённый игрок не должен узнать, что его пытались убить.»"""
    t = bl(["hunter", "hunter", "nosferatu", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(3, 4), shot("hunters", 4))
    assert brief(events, "killed") == [("killed", 3)]
    assert all(4 not in e.audience.seats for e in events if e.audience.kind == "seats")


def test_neophyte_wakes_with_the_hunters_and_gives_an_extra_strike() -> None:
    """Новообращённый: «Всякий раз, когда ведущий днём объявляет о том, что охотники выбирают себе жертву
    (а также во время «вводного» дня), новообращённый также открывает глаза и ведёт себя как охотник.»
    «Если настоящие охотники вычиcлят новообращённого …, они могут убить его днём, и сразу после этого
    получают право ещё на один удар.»"""
    t = bl(["hunter", "hunter", "neophyte", *VAMPS, "vampire"])
    assert brief(t.events, "team_members") == [("team_members", (1, 2, 3))] * 3
    execute(t, 9)
    t.to_step("hunters")
    events = t.send(shot("hunters", 3)) + t.advance()
    assert t.s.step.night_step == "hunters" and t.s.step.round == "extra"
    events += t.send(shot("hunters", 4)) + t.to_kind("nominations")
    assert brief(events, "extra_shot", "killed") == [("extra_shot", "hunters"), ("killed", 3), ("killed", 4)]
    extra = next(e for e in events if e.type == "extra_shot")
    assert extra.audience.seats == (1, 2) and extra.phrase == "priv_hunters_extra_strike"


def test_lamia_blocks_and_protects() -> None:
    """Ламия: «Этот игрок не может пользоваться своими способностями до следующей ночи, но также не может
    быть убит.» «Если ламия выбрала единственного охотника в игре, то он никого не убивает в этот день.»"""
    t = bl(["hunter", "lamia", "count", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, act(2, 3), shot("hunters", 3), act(3, 4))
    assert brief(events, "killed") == []  # the count is blocked, and the lamia's choice cannot die
    events = next_cycle(t, 9, act(2, 1), shot("hunters", 4))
    assert brief(events, "killed", "team_missed") == [("team_missed", "hunters", "blocked")]


def test_bride_looks_for_the_lord() -> None:
    """Невеста: «На закате может выбрать одного игрока. Если это повелитель вампиров, узнаёт его роль.»
    «Ведущий кивает, если это повелитель вампиров, и отрицательно качает головой, если это не он.»"""
    t = bl(["hunter", "hunter", "bride", "revenant", *VAMPS, "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 4))
    check = next(e for e in events if e.type == "check")
    assert brief([check]) == [("check", 3, 4, "revenant")]
    assert check.phrase == "priv_bride_yes" and check.params == {"seat": 4, "role": "Ревенант"}
    events = next_cycle(t, 9, act(3, 5))
    check = next(e for e in events if e.type == "check")
    assert brief([check]) == [("check", 3, 5, False)] and check.phrase == "priv_bride_no"


def test_ghoul_is_killed_only_at_the_second_attempt() -> None:
    """Упырь: «Если упырь впервые за игру стал целью убийства, он остаётся жив. При этом ведущий никому не
    должен сообщать, что его пытались убить. Однако второго покушения упырь уже не переживёт.»"""
    t = bl(["hunter", "hunter", "ghoul", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, shot("hunters", 3))
    assert brief(events, "killed") == []
    assert all(3 not in e.audience.seats for e in events if e.audience.kind == "seats")
    events = next_cycle(t, 9, shot("hunters", 3))
    assert brief(events, "killed") == [("killed", 3)]


def test_ghoul_is_executed_like_anyone() -> None:
    """Упырь: «Способность упыря не распространяется на ночную казнь.»"""
    t = bl(["hunter", "hunter", "ghoul", *VAMPS, "vampire"])
    events = execute(t, 3)
    assert brief(events, "executed") == [("executed", 3)]


def test_hunter_leader_denies_a_vote() -> None:
    """Главарь: «На закате может выбрать одного игрока. Этот игрок не может голосовать этой ночью.» «Ночью
    ведущий объявляет, кто из игроков не может голосовать (однако он вправе участвовать в обсуждении и быть
    обвинённым). Голосование проводится так, как если бы этого игрока не было.»"""
    t = bl(["hunter_leader", "hunter", *VAMPS, "vampire"])
    execute(t, 8)
    events = cycle(t, act(1, 3))
    denied = next(e for e in events if e.type == "vote_denied")
    assert brief(events, "vote_denied") == [("vote_denied", 3)]
    assert denied.phrase == "bl_vote_denied" and denied.params == {"seat": 3}
    to_ballot(t, [(3, 4)])
    with pytest.raises(IllegalCommand, match="лишён права голоса"):
        t.send(vote(3, 4))


def test_monk_blocks_until_the_next_night() -> None:
    """Монах: «На рассвете может выбрать одного игрока. Этот игрок не может пользоваться своими
    способностями до следующей ночи.» «ведущий вызывает этого игрока и даёт ему совершить действие, как
    положено, однако ни к каким последствиям это не приводит»."""
    t = bl(["monk", "hunter", "count", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(1, 3), act(3, 4), shot("hunters", 5))
    assert brief(events, "killed") == [("killed", 5)]
    assert brief(events, "awake")[-1] == ("awake", "count", (3,))  # the count is still called


def test_scout_sees_the_card_at_dawn() -> None:
    """Разведчица: «На рассвете может узнать роль одного игрока.» «Ведущий показывает разведчице карту с
    ролью проверяемого игрока. Затем ведущий говорит: «Разведчица скрылась».»"""
    t = bl(["scout", "hunter", "dampir", *VAMPS, "vampire"])
    execute(t, 9)
    events = cycle(t, act(1, 3))
    assert brief(events, "check") == [("check", 1, 3, "dampir")]
    check = next(e for e in events if e.type == "check")
    assert check.audience.seats == (1,) and check.params == {"seat": 3, "role": "Дампир"}
    assert (1, 3) in t.s.knowledge


def test_wolf_kills_at_sunset() -> None:
    """Вервольф: «На закате может убить одного игрока.» «Ночью жители обнаруживают в городе одним трупом
    больше.»"""
    t = bl(["hunter", "hunter", "wolf", *VAMPS, "vampire", "vampire"])
    execute(t, 10)
    events = cycle(t, act(3, 1), shot("hunters", 4))
    assert brief(events, "killed") == [("killed", 1), ("killed", 4)]
    assert [e.phrase for e in events if e.type == "night_step"][-1] == "bl_wolf_wakes"


def test_kitsune_spares_ordinary_vampires() -> None:
    """Кицунэ: «Если выбранный игрок не обычный вампир (иными словами, он охотник, повелитель или другой
    особый вампир), он убит, о чём ведущий сообщает ночью.»"""
    t = bl(["hunter", "hunter", "kitsune", "count", *VAMPS, "vampire", "vampire"])
    execute(t, 11)
    events = cycle(t, act(3, 5), shot("hunters", 6))
    assert brief(events, "killed") == [("killed", 6)]
    events = next_cycle(t, 10, act(3, 4), shot("hunters", 7))
    assert brief(events, "killed") == [("killed", 4), ("killed", 7)]
    events = next_cycle(t, 9, act(3, 1), shot("hunters", 8))
    assert brief(events, "killed") == [("killed", 1), ("killed", 8)]


def test_a_whole_cycle_with_every_dawn_and_sunset_role() -> None:
    """One cycle as an exact event log (7.3): the lamia blocks the monk (his block of the dampir is in
    vain), the dampir protects the queen, the nosferatu guards seat 13, the scout sees the ghoul, whom the
    hunters strike — his first attempt, he lives (D-B6); the queen sees the hunter_leader, the kitsune kills
    the bride, who is still called and learns nothing (D-B8, D-H5), the hunter_leader takes seat 13's
    vote. The night opens with the cycle's news (D-B8)."""
    roles = ["hunter", "hunter_leader", "monk", "scout", "neophyte", "lamia", "dampir", "nosferatu", "ghoul"]
    t = bl([*roles, "queen", "bride", "kitsune", "vampire", "vampire"])
    execute(t, 14)
    start = max(i for i, e in enumerate(t.events) if e.type == "executed")
    cycle(
        t,
        *(act(6, 3), act(3, 7), act(7, 10), act(8, 13), act(4, 9), shot("hunters", 9)),
        *(act(10, 2), act(12, 11), act(11, 10), act(2, 13)),
    )
    shown = [e for e in t.events[start:] if e.type not in ("action", "action_accepted", "night_step_ended")]
    assert [(*brief([e])[0], e.phrase) for e in shown] == [
        ("executed", 14, "bl_executed"),
        ("announce", "night_falls", "bl_dawn"),
        ("night_step", "lamia", "bl_lamia_wakes"),
        ("awake", "lamia", (6,), None),
        ("night_step", "monk", "bl_monk_wakes"),
        ("awake", "monk", (3,), None),
        ("night_step", "dampir", "bl_dampir_wakes"),
        ("awake", "dampir", (7,), None),
        ("night_step", "nosferatu", "bl_nosferatu_wakes"),
        ("awake", "nosferatu", (8,), None),
        ("night_step", "scout", "bl_scout_wakes"),
        ("awake", "scout", (4,), None),
        ("check", 4, 9, "ghoul", "priv_role_card"),
        ("announce", "day_starts", "bl_day"),
        ("night_step", "hunters", "bl_hunters_wake"),
        ("awake", "hunters", (1, 2, 3, 4, 5), None),
        ("announce", "sunset_starts", "bl_sunset"),
        ("night_step", "queen", "bl_queen_wakes"),
        ("awake", "queen", (10,), None),
        ("check", 10, 2, "hunter_leader", "priv_role_card"),
        ("night_step", "kitsune", "bl_kitsune_wakes"),
        ("awake", "kitsune", (12,), None),
        ("night_step", "bride", "bl_bride_wakes"),
        ("awake", "bride", (11,), None),
        ("check_nothing", 11, "priv_check_nothing"),
        ("night_step", "hunter_leader", "bl_hunter_leader_wakes"),
        ("awake", "hunter_leader", (2,), None),
        ("announce", "day_breaks", "bl_night_falls"),
        ("killed", 11, "bl_player_killed"),
        ("vote_denied", 13, "bl_vote_denied"),
        ("announce", "nominations", "bl_discussion_start"),
    ]
