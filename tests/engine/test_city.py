"""Scenario tests for the `city` night, written from seed 001 and RULESETS.md section 5 and 10.3 (D-C*).

Most tests use the option ``sleepers_stay`` so that a role that is not the subject of the test may stay
idle without leaving the table (D-C17 has tests of its own below). Seats: 1 don, 2 lawyer, 3 mafioso,
4 sheriff, 5 agent, 6 ranger, 7 doctor, 8 maniac, 9…11 civilians.
"""

from __future__ import annotations

import pytest
from city_helpers import (
    AGENT,
    CIV,
    DOCTOR,
    DON,
    ELEVEN,
    LAWYER,
    MAFIOSO,
    MANIAC,
    RANGER,
    SHERIFF,
    at_night,
    city,
    start,
)
from helpers import act, brief, shot

import engine
from audio import phrases
from engine import Propose, Skip, queries
from engine.errors import IllegalCommand, IllegalTarget, NotYourTurn
from engine.rules import with_requirements

QUIET = "sleepers_stay"
DEATHS = ("killed", "removed", "mafia_missed", "announce")


def morning(events: list[engine.Event]) -> list[tuple[object, ...]]:
    """The morning's public lines and departures."""
    keys = {"day_breaks", "nobody_killed", "revealed_left"}
    return [
        b
        for b in brief(events, "killed", "removed", "mafia_missed", "announce")
        if b[0] != "announce" or b[1] in keys
    ]


# -- phases, intro night, composition --------------------------------------------------------------


def test_intro_night_wakes_the_active_roles_in_the_book_order_without_actions() -> None:
    """5.4: «ведущий знакомится с активными персонажами: вновь поочередно "будит" агента, команду мафии с
    доном и адвокатом, шерифа, рейнджера, доктора и маньяка. Затем наступает "утро"»; D-G12: the mafia
    sees each member's role."""
    t = city()
    t.until(lambda s: s.day == 1)
    assert brief(t.events, "night_step", "awake") == [
        ("night_step", "agent_meets"),
        ("awake", "agent_meets", (5,)),
        ("night_step", "mafia_meets"),
        ("awake", "mafia_meets", (1, 2, 3)),
        ("night_step", "sheriff_meets"),
        ("awake", "sheriff_meets", (4,)),
        ("night_step", "ranger_meets"),
        ("awake", "ranger_meets", (6,)),
        ("night_step", "doctor_meets"),
        ("awake", "doctor_meets", (7,)),
        ("night_step", "maniac_meets"),
        ("awake", "maniac_meets", (8,)),
    ]
    members = [e for e in t.events if e.type == "team_members"]
    assert [e.get("roles") for e in members] == [{"1": "don", "2": "city_lawyer", "3": "mafioso"}] * 3
    # D-G12: the city's message names each member's role, «номер 1 — дон, номер 2 — адвокат, …»
    assert {e.phrase for e in members} == {"priv_team_roles"}
    assert members[0].params["members"] == [
        {"seat": 1, "role": "Дон"},
        {"seat": 2, "role": "Адвокат"},
        {"seat": 3, "role": "Мафия"},
    ]
    assert [e.phrase for e in t.events if e.type == "night_step"][:2] == [
        "city_agent_wakes",
        "city_intro_mafia_wakes",
    ]
    assert not any(e.type in ("action", "check", "killed") for e in t.events)
    assert t.s.step.kind == "speech" and t.s.step.seat == 1
    lines = [e.phrase for e in t.events if e.type == "announce"]
    assert lines[1:3] == ["city_night_falls", "city_roles_dealing"]


def test_night_order_is_d_c2() -> None:
    """D-C2: 1 agent, 2 mafia team, 3 don's sheriff check, 4 lawyer alone, 5 sheriff, 6 ranger, 7 doctor,
    8 maniac (the maniac «Просыпается последним»)."""
    t = start(ELEVEN, QUIET)
    events = t.day() + t.night()
    steps = [b[1] for b in brief(events, "night_step")]
    assert steps == ["agent", "mafia", "don", "lawyer", "sheriff", "ranger", "doctor", "maniac"]


@pytest.mark.parametrize("players", range(7, 17))
def test_composition_table_is_exact(players: int) -> None:
    """5.2: «На 7 человек: 2 мафии: Дон, Мафия; 1 Шериф; 1 Рейнджер; 3 Мирных жителя» … «На 16 человек: 5
    мафий: Дон, Адвокат, 3 Мафии; 1 Шериф; 1 Рейнджер; 1 Агент; 1 Доктор; 6 Мирных жителя; 1 Маньяк»;
    D-C18: «Рейнджер/Агент» is the agent by default, the ranger with the option."""
    table = {
        7: ("don mafioso", 1, 1, 0, 0, 3, 0),
        8: ("don mafioso", 1, 0, 1, 0, 3, 1),
        9: ("don city_lawyer", 1, 0, 1, 0, 4, 1),
        10: ("don city_lawyer", 1, 0, 1, 0, 5, 1),
        11: ("don city_lawyer mafioso", 1, 1, 1, 0, 4, 1),
        12: ("don city_lawyer mafioso", 1, 1, 1, 0, 5, 1),
        13: ("don city_lawyer mafioso mafioso", 1, 1, 1, 1, 4, 1),
        14: ("don city_lawyer mafioso mafioso", 1, 1, 1, 1, 5, 1),
        15: ("don city_lawyer mafioso mafioso", 1, 0, 1, 1, 7, 1),
        16: ("don city_lawyer mafioso mafioso mafioso", 1, 1, 1, 1, 6, 1),
    }
    mafia, sheriff, ranger, agent, doctor, civilians, maniac = table[players]
    expected: dict[str, int] = {}
    for role in mafia.split():
        expected[role] = expected.get(role, 0) + 1
    counts = {"city_sheriff": sheriff, "ranger": ranger, "agent": agent, "doctor": doctor}
    counts.update({"civilian": civilians, "maniac": maniac})
    expected.update({k: v for k, v in counts.items() if v})
    assert engine.composition(engine.load_ruleset("city"), players) == expected
    swapped = engine.composition(engine.load_ruleset("city", ["ranger"]), players)
    if players in (8, 9, 10, 15):
        assert swapped == {**{k: v for k, v in expected.items() if k != "agent"}, "ranger": 1}
    else:
        assert swapped == expected


# -- mafia and don (D-C4, D-C10) -------------------------------------------------------------------


def test_don_designates_the_shot_and_checks_for_the_sheriff() -> None:
    """Дон: «При наличии Дона за столом именно он должен показать ночной отстрел от мафии»; «Ведущий
    показывает ему, является ли проверяемый доном игрок шерифом.»"""
    t = at_night(ELEVEN, QUIET)
    t.to_step("mafia")
    t.send(Propose(seat=LAWYER, target=10), Propose(seat=MAFIOSO, target=10), Propose(seat=DON, target=9))
    events = t.night(act(DON, SHERIFF))
    assert brief(events, "check") == [("check", DON, SHERIFF, True)]
    assert [e.phrase for e in events if e.type == "check"] == ["priv_don_sheriff_yes"]
    assert morning(events) == [("announce", "day_breaks"), ("killed", 9)]
    t.day()
    events = t.night(act(DON, 10))
    assert brief(events, "check") == [("check", DON, 10, False)]
    assert [e.phrase for e in events if e.type == "check"] == ["priv_don_sheriff_no"]
    # Only a positive answer tells the don a role.
    assert engine.view_for(t.s, DON)["roles"].get(str(SHERIFF)) == "city_sheriff"
    assert str(10) not in engine.view_for(t.s, DON)["roles"]


def test_don_who_shows_nobody_is_a_miss() -> None:
    """«Если Дон не успел это сделать до окончания минуты, выделенной на ночное общение мафии, ведущий
    объявляет промах» — even when the others agree."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("mafia")
    t.send(Propose(seat=LAWYER, target=10), Propose(seat=MAFIOSO, target=10))
    events = t.night()
    assert morning(events) == [("announce", "day_breaks"), ("mafia_missed",)]
    assert [e.phrase for e in events if e.type == "mafia_missed"] == ["city_mafia_missed"]


def test_without_the_don_the_mafia_must_show_the_same_player() -> None:
    """«Если Дона за столом уже нет, то мафия должна успеть договориться и показать одного и того же
    игрока на отстрел, иначе ведущий объявит также промах мафии.»"""
    t = start(ELEVEN, QUIET)
    t.day([(4, DON), (5, 9)], [(DON, [4, 5, 6, 7, 8, 9, 10])])
    t.to_step("mafia")
    t.send(Propose(seat=LAWYER, target=10), Propose(seat=MAFIOSO, target=11))
    assert morning(t.night()) == [("announce", "day_breaks"), ("mafia_missed",)]
    t.day()
    t.to_step("mafia")
    t.send(Propose(seat=LAWYER, target=10), Propose(seat=MAFIOSO, target=10))
    assert morning(t.night()) == [("announce", "day_breaks"), ("killed", 10)]


def test_mafia_cannot_refuse_and_a_self_shot_is_a_miss() -> None:
    """«Мафия не может отказаться от выстрела»; «За попытку самострела мафией … ведущий объявляет:
    «мафия промахнулась»» (D-C4: a mafia member is on the list, and choosing him misses)."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("mafia")
    assert queries.targets_for(t.s, DON)["team"] == list(range(1, 12))
    assert not queries.is_optional(t.s, DON)  # D-G3: no skip button for the team's shot
    with pytest.raises(IllegalCommand):
        t.send(Skip(seat=DON))
    events = t.night(shot("mafia", MAFIOSO))
    assert morning(events) == [("announce", "day_breaks"), ("mafia_missed",)]
    assert MAFIOSO in t.s.alive


# -- lawyer (D-C9) ---------------------------------------------------------------------------------


def test_lawyer_saves_once_with_an_alibi_but_not_from_the_maniac() -> None:
    """Адвокат: «один раз за игру он показывает ведущему, кого из игроков хочет спасти. Не может спасти
    от выстрела маньяка. Игрок, на которого указал адвокат, получает алиби и одновременно лечится.»"""
    t = at_night(ELEVEN, QUIET)
    events = t.night(shot("mafia", 9), act(LAWYER, 9))
    assert morning(events) == [("announce", "day_breaks"), ("announce", "nobody_killed")]
    # The alibi the next day: the condemned player stays at the table.
    events = t.day([(1, 9), (2, 10)], [(9, [1, 2, 3, 4, 5, 6, 7])])
    assert brief(events, "acquitted", "executed") == [("acquitted", 9)]
    assert [e.phrase for e in events if e.type == "acquitted"] == ["city_alibi"]
    prompts = [(e.get("seat"), e.phrase) for e in t.events if e.type == "prompt"]
    assert prompts == [(LAWYER, "priv_lawyer_save_prompt")]  # night 1 only: not at the intro, not after use
    # Used once: the lawyer is still woken, but cannot choose (and is not asked).
    t.to_step("lawyer")
    assert LAWYER not in queries.actors(t.s)
    with pytest.raises(IllegalCommand):
        t.send(act(LAWYER, 10))


def test_lawyer_cannot_heal_the_maniacs_victim() -> None:
    """«от выстрела маньяка вылечить не может»."""
    t = at_night(ELEVEN, QUIET)
    events = t.night(shot("mafia", 10), act(LAWYER, 9), act(MANIAC, 9))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 9), ("killed", 10)]


def test_lawyer_may_save_himself() -> None:
    """D-C9: any living player including himself."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("mafia")
    t.send(shot("mafia", 9))
    t.to_step("lawyer")
    assert LAWYER in queries.targets_for(t.s, LAWYER)[""]
    assert morning(t.night(act(LAWYER, LAWYER))) == [("announce", "day_breaks"), ("killed", 9)]


# -- sheriff ---------------------------------------------------------------------------------------


def test_sheriff_sees_mafia_thumbs_down_and_the_maniac_thumbs_up() -> None:
    """Шериф: «Мирные игроки и маньяк обозначаются поднятым вверх большим пальцем, мафия – опущенным вниз
    большим пальцем.»"""
    t = at_night(ELEVEN, QUIET)
    results = []
    for target in (LAWYER, MANIAC, DON, 9):
        events = t.night(act(SHERIFF, target))
        results += [(e.get("target"), e.get("result"), e.phrase) for e in events if e.type == "check"]
        t.day()
    assert results[0] == (LAWYER, "mafia", "priv_city_sheriff_mafia")
    assert results[1] == (MANIAC, "not_mafia", "priv_city_sheriff_civilian")
    assert (DON, "mafia", "priv_city_sheriff_mafia") in results


def test_sheriff_must_check() -> None:
    """D-C17 makes the sheriff's check mandatory: no skip."""
    t = at_night()
    t.to_step("sheriff")
    assert not queries.is_optional(t.s, SHERIFF)
    with pytest.raises(IllegalCommand):
        t.send(Skip(seat=SHERIFF))


# -- ranger (D-C8) ---------------------------------------------------------------------------------


def test_ranger_shoots_once_from_the_second_night_and_then_the_maniac_cannot() -> None:
    """Рейнджер: «1 раз за игру, начиная со второй ночи, может показать ведущему, кого он хочет убить»;
    Маньяк: «Если перед маньяком был выстрел от рейнджера, маньяк стрелять не может, ведущий покажет ему
    это ночью»; D-C8: the ranger is told «Сегодня вы не можете стрелять» on night 1 and after his shot."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("ranger")
    assert RANGER not in queries.actors(t.s)
    assert [(e.type, e.phrase) for e in t.events[-1:]] == [("cannot_act", "priv_cannot_shoot")]
    with pytest.raises(IllegalCommand) as refused:
        t.send(act(RANGER, 9))
    # The book's first night with shots is the engine's night 2 (D-C3): the message names no number.
    assert str(refused.value) == f"Игрок {RANGER} не может использовать способность этой ночью."
    t.night()
    t.day()
    events = t.night(shot("mafia", 10), act(RANGER, 9))
    told = [e for e in events if e.type == "cannot_act"]
    assert [(e.get("seat"), e.audience.to_json()) for e in told] == [(MANIAC, {"seats": [MANIAC]})]
    assert morning(events) == [("announce", "day_breaks"), ("killed", 9), ("killed", 10)]
    t.day()
    t.to_step("ranger")
    assert RANGER not in queries.actors(t.s)


def test_ranger_shot_is_healed_by_the_doctor_and_a_skipped_ranger_leaves_the_maniac_free() -> None:
    """D-C8/D-C16: «Doctor and lawyer can heal his shot»; «if the ranger skipped or was blocked, the
    maniac may shoot»."""
    t = at_night(ELEVEN, QUIET)
    t.night(shot("mafia", 11))
    t.day()
    events = t.night(shot("mafia", 10), act(RANGER, 9), act(DOCTOR, 9))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 10)]
    t.day()
    t.to_step("ranger")
    assert RANGER not in queries.actors(t.s)  # used, although his target survived
    t2 = at_night(ELEVEN, QUIET)
    t2.night(shot("mafia", 11))
    t2.day()
    t2.to_step("mafia")
    t2.send(shot("mafia", 10))
    t2.to_step("ranger")
    t2.send(Skip(seat=RANGER))
    events = t2.night(act(MANIAC, 9))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 9), ("killed", 10)]


def test_blocked_ranger_keeps_his_shot() -> None:
    """D-C8: «The shot is consumed only when he fires unblocked.»"""
    t = at_night(ELEVEN, QUIET)
    t.night(shot("mafia", 11))
    t.day()
    events = t.night(act(AGENT, RANGER), shot("mafia", 10))
    assert [e.get("seats") for e in events if e.type == "blocked"] == [[RANGER]]
    t.day()
    t.to_step("ranger")
    assert RANGER in queries.actors(t.s)


# -- agent (D-C6, D-C7) ----------------------------------------------------------------------------


def test_agent_blocks_every_night_not_himself_and_not_the_same_player_twice() -> None:
    """Агент: «Агент не может две ночи подряд ходить к одному и тому же игроку. Отказаться от хода Агент
    также не может, к себе пойти не может.»"""
    t = at_night(ELEVEN, QUIET)
    t.to_step("agent")
    assert AGENT not in queries.targets_for(t.s, AGENT)[""]
    with pytest.raises(IllegalCommand):
        t.send(Skip(seat=AGENT))
    with pytest.raises(IllegalTarget):
        t.send(act(AGENT, AGENT))
    t.night(act(AGENT, 9), shot("mafia", 11))
    t.day()
    t.to_step("agent")
    assert 9 not in queries.targets_for(t.s, AGENT)[""]
    with pytest.raises(IllegalTarget):
        t.send(act(AGENT, 9))


def test_agent_blocking_a_mafia_member_stops_the_shot_without_a_miss_line() -> None:
    """«Если заблокирован любой член команды мафии, выстрела от мафии не будет»; D-C7: «the whole team is
    told so at its wake-up and there is no mafia shot (not announced as a miss)»."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("agent")
    t.send(act(AGENT, MAFIOSO))
    t.advance()
    assert t.s.step.night_step == "mafia"
    assert queries.actors(t.s) == frozenset()
    blocked = [e for e in t.events if e.type == "blocked"]
    assert [(e.get("seats"), e.phrase) for e in blocked] == [([1, 2, 3], "priv_blocked")]
    with pytest.raises(NotYourTurn):
        t.send(Propose(seat=DON, target=9))
    events = t.night()
    assert morning(events) == [("announce", "day_breaks"), ("announce", "nobody_killed")]


def test_agent_blocks_the_maniac_and_any_active_role() -> None:
    """«то же самое с маньяком. Блокировка любого активного персонажа приведет к невозможности выполнения
    им своей функции, ведущий покажет это при помощи скрещенных на груди рук.»"""
    t = at_night(ELEVEN, QUIET)
    events = t.night(act(AGENT, MANIAC), shot("mafia", 10))
    assert [(e.get("seats"), e.audience.to_json()) for e in events if e.type == "blocked"] == [
        ([MANIAC], {"seats": [MANIAC]})
    ]
    t.day()
    t.to_step("agent")
    t.send(act(AGENT, DOCTOR))
    t.to_step("doctor")
    assert DOCTOR not in queries.actors(t.s)
    with pytest.raises(NotYourTurn):
        t.send(act(DOCTOR, 9))


def test_agents_target_has_an_alibi_the_next_day_only() -> None:
    """«Днем у игрока, у которого был Агент, будет алиби. Если мирный город отправит его на казнь, игрок
    останется за столом, а ведущий объявит о том, что у игрока есть алиби»; D-C20: only the next day."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(AGENT, MANIAC), shot("mafia", 11))
    events = t.day([(1, MANIAC), (2, 9)], [(MANIAC, [1, 2, 3])])
    assert brief(events, "acquitted", "executed") == [("acquitted", MANIAC)]
    t.night(act(AGENT, 9), shot("mafia", 10))
    events = t.day([(1, MANIAC), (2, 9)], [(MANIAC, [1, 2, 3])])
    assert brief(events, "acquitted", "executed") == [("executed", MANIAC)]


def test_killed_agent_takes_his_target_with_him() -> None:
    """«Если ночью был убит Агент, он покидает стол вместе с игроком, к которому ходил ночью.»"""
    t = at_night(ELEVEN, QUIET)
    events = t.night(act(AGENT, 9), shot("mafia", AGENT))
    assert morning(events) == [("announce", "day_breaks"), ("killed", AGENT), ("killed", 9)]


def test_agent_link_and_heals() -> None:
    """«Если в Агента стреляют, а заблокированного агентом игрока вылечил доктор или адвокат, умирает
    только Агент; если при этом вылечили агента, то выживают оба.» D-C6: the heal of the linked player
    works even when the agent was shot by the maniac."""
    t = at_night(ELEVEN, QUIET)
    assert morning(t.night(act(AGENT, 9), shot("mafia", AGENT), act(DOCTOR, 9))) == [
        ("announce", "day_breaks"),
        ("killed", AGENT),
    ]
    t = at_night(ELEVEN, QUIET)
    events = t.night(act(AGENT, 9), shot("mafia", AGENT), act(DOCTOR, AGENT), act(LAWYER, 9))
    assert morning(events) == [("announce", "day_breaks"), ("announce", "nobody_killed")]
    t = at_night(ELEVEN, QUIET)
    events = t.night(act(AGENT, 9), shot("mafia", 10), act(MANIAC, AGENT), act(DOCTOR, 9))
    assert morning(events) == [("announce", "day_breaks"), ("killed", AGENT), ("killed", 10)]
    t = at_night(ELEVEN, QUIET)
    events = t.night(act(AGENT, 9), shot("mafia", 10), act(MANIAC, AGENT), act(DOCTOR, AGENT))
    assert morning(events) == [("announce", "day_breaks"), ("killed", AGENT), ("killed", 9), ("killed", 10)]


def test_agent_voted_out_takes_nobody() -> None:
    """D-C6: the link applies only when the agent is shot at night — not by vote or removal."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(AGENT, 9), shot("mafia", 11))
    events = t.day([(1, AGENT), (2, 10)], [(AGENT, [1, 2, 3])])
    assert brief(events, "executed", "killed") == [("executed", AGENT)]
    assert 9 in t.s.alive


# -- doctor (D-C11, D-C16) -------------------------------------------------------------------------


def test_doctor_heals_the_mafia_shot_but_never_the_maniacs() -> None:
    """Доктор: «Просыпается каждую ночь и показывает ведущему, кого он лечит … От выстрела маньяка
    вылечить не может»; D-C16: a healed player shot by both the mafia and the maniac dies."""
    t = at_night(ELEVEN, QUIET)
    assert morning(t.night(shot("mafia", 9), act(DOCTOR, 9))) == [
        ("announce", "day_breaks"),
        ("announce", "nobody_killed"),
    ]
    t.day()
    assert morning(t.night(shot("mafia", 10), act(DOCTOR, 10), act(MANIAC, 10))) == [
        ("announce", "day_breaks"),
        ("killed", 10),
    ]


def test_doctor_not_twice_running_self_once_and_cannot_refuse() -> None:
    """«Доктор не может лечить одного и того же игрока две ночи подряд. Себя доктор может лечить один раз
    за игру … Отказаться от лечения не может.»"""
    t = at_night(ELEVEN, QUIET)
    t.to_step("doctor")
    with pytest.raises(IllegalCommand):
        t.send(Skip(seat=DOCTOR))
    t.night(act(DOCTOR, DOCTOR))
    t.day()
    t.to_step("doctor")
    legal = queries.targets_for(t.s, DOCTOR)[""]
    assert DOCTOR not in legal
    t.night(act(DOCTOR, 9))
    t.day()
    t.to_step("doctor")
    legal = queries.targets_for(t.s, DOCTOR)[""]
    assert 9 not in legal and DOCTOR not in legal  # self is used up for good


def test_blocked_doctor_breaks_the_two_nights_chain() -> None:
    """D-C11: the rule «compares with the previous night's actual heal (a blocked night has no heal and
    breaks the chain)»."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(DOCTOR, 9), shot("mafia", 11))
    t.day()
    t.night(act(AGENT, DOCTOR), shot("mafia", 10))
    t.day()
    t.to_step("doctor")
    assert 9 in queries.targets_for(t.s, DOCTOR)[""]


# -- maniac ----------------------------------------------------------------------------------------


def test_maniac_may_skip_shoots_last_and_leaves_with_the_exact_line() -> None:
    """Маньяк: «Просыпается последним, может не стрелять»; «Когда маньяк покидает стол, ведущий всегда
    говорит: «Наш стол покинул маньяк»» — the only role the host names (5.9)."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("mafia")
    t.send(shot("mafia", MANIAC))
    t.to_step("maniac")
    assert queries.is_optional(t.s, MANIAC)
    t.send(Skip(seat=MANIAC))
    events = t.night()
    assert morning(events) == [("announce", "day_breaks"), ("killed", MANIAC), ("announce", "revealed_left")]
    left = [
        e
        for e in events
        if (e.type in ("killed", "announce") and e.get("seat", 0) == MANIAC)
        or e.get("key") == "revealed_left"
    ]
    assert [(e.phrase, e.params) for e in left] == [
        ("city_maniac_left_seat", {"seat": MANIAC, "role": "Маньяк"}),
        ("city_maniac_left", {"seat": MANIAC, "role": "Маньяк"}),
    ]
    assert MANIAC in t.s.revealed


def test_other_roles_are_not_named_on_leaving() -> None:
    """5.9: «Ведущий не называет роли покинувших стол игроков, за исключением Маньяка.»"""
    t = at_night(ELEVEN, QUIET)
    events = t.night(shot("mafia", SHERIFF))
    killed = [e for e in events if e.type == "killed"]
    assert [(e.data, e.phrase, e.params) for e in killed] == [
        ({"seat": SHERIFF}, "city_player_left", {"seat": SHERIFF})
    ]
    events = t.day([(1, 9), (2, 10)], [(9, [1, 2, 3, 5, 6])])
    assert [(e.data, e.phrase) for e in events if e.type == "executed"] == [({"seat": 9}, "city_player_left")]
    assert t.s.revealed == frozenset()


def test_nobody_shoots_himself() -> None:
    """«Самострела нет ни у кого!» (D-C4): no killer may choose himself."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("maniac")
    assert MANIAC not in queries.targets_for(t.s, MANIAC)[""]
    with pytest.raises(IllegalTarget):
        t.send(act(MANIAC, MANIAC))


# -- immunity (5.8, D-C5) --------------------------------------------------------------------------


def test_immunity_is_announced_and_makes_the_first_night_shots_miss() -> None:
    """«Иммунитет действует при игре от 9 человек»; «стрельбу в иммунитетного игрока … ведущий объявляет:
    «мафия промахнулась»»; «Если в иммунитетного игрока стрелял маньяк, ведущий не озвучит выстрел
    маньяка»; D-C5: only night-1 shots."""
    t = start(ELEVEN, QUIET, immune=[9, 10])
    assert [(e.type, e.get("seats"), e.phrase) for e in t.events if e.type == "immunity"] == [
        ("immunity", [9, 10], "city_immunity_list")
    ]
    assert engine.view_for(t.s, None)["immune"] == [9, 10]
    t.day()
    events = t.night(shot("mafia", 9), act(MANIAC, 10))
    assert morning(events) == [("announce", "day_breaks"), ("mafia_missed",)]
    t.day()
    events = t.night(shot("mafia", 9), act(MANIAC, 10))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 9), ("killed", 10)]


def test_immunity_does_not_stop_the_agent_link() -> None:
    """D-C5: «It does not protect against votes or the agent link.»"""
    t = start(ELEVEN, QUIET, immune=[9])
    t.day()
    events = t.night(act(AGENT, 9), shot("mafia", AGENT))
    assert morning(events) == [("announce", "day_breaks"), ("killed", AGENT), ("killed", 9)]


def test_immunity_only_from_nine_players() -> None:
    """«Иммунитет действует при игре от 9 человек.»"""
    seats = ["don", "mafioso", "city_sheriff", "agent", CIV, CIV, CIV, "maniac"]
    t = start(seats, QUIET, immune=[5])
    assert t.s.immune == frozenset()
    assert not any(e.type == "immunity" for e in t.events)


def test_immunity_is_lost_by_a_day_one_nomination_or_by_the_moderator() -> None:
    """«Игрок лишается его, если он в первый день выставил игрока, или вскрылся любой ролью, прикрываясь
    иммунитетом» (D-C5: the second by a moderator command)."""
    t = start(ELEVEN, QUIET, immune=[1, 9])
    events = t.day([(1, 10), (2, 11)])
    assert [(e.get("seat"), e.phrase) for e in events if e.type == "immunity_lost"] == [
        (1, "city_immunity_lost")
    ]
    assert t.s.immune == frozenset({9})
    events = t.send(engine.RevokeImmunity(seat=9))
    assert brief(events) == [("immunity_lost", 9)]
    assert t.s.immune == frozenset()
    with pytest.raises(IllegalCommand):
        t.send(engine.RevokeImmunity(seat=9))


# -- D-C17: failure to wake ------------------------------------------------------------------------


def test_sheriff_agent_or_doctor_who_does_not_wake_leaves_silently() -> None:
    """«Если шериф, агент или доктор ночью не проснулись, когда их будил ведущий, – игроки молча
    покидают стол»; D-C17: at dawn, announced only with city_player_left; a blocked one stays."""
    t = at_night()
    events = t.night(act(AGENT, DOCTOR), shot("mafia", 11))
    removed = [e for e in events if e.type == "removed"]
    assert [(e.get("seat"), e.get("reason"), e.phrase) for e in removed] == [
        (SHERIFF, "asleep", "city_player_left")
    ]
    assert morning(events) == [("announce", "day_breaks"), ("removed", SHERIFF, "asleep"), ("killed", 11)]
    # Removed players leave silently: only the night victim gets his thirty seconds (D-C14).
    assert brief(events, "speech")[:1] == [("speech", 11, "night_words")]


def test_sleepers_stay_option() -> None:
    """D-C17 config ``city.remove_sleepers = false``: the step is skipped."""
    t = at_night(ELEVEN, QUIET)
    events = t.night(shot("mafia", 11))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 11)]


# -- D-C14: night victims' words --------------------------------------------------------------------


def test_night_victims_get_thirty_seconds_and_may_name_their_role() -> None:
    """D-C14: «Players eliminated at night (incl. the agent link) get 30 s at the start of the day, in
    which they may name their role» («могут назвать свою роль»)."""
    t = at_night(ELEVEN, QUIET)
    t.night(act(AGENT, 9), shot("mafia", AGENT))
    assert t.s.step.kind == "speech" and t.s.step.round == "night_words" and t.s.step.seat == AGENT
    assert queries.speakers(t.s) == frozenset({AGENT})
    speech = [e for e in t.events if e.type == "speech"][-1]
    assert (speech.phrase, speech.params, speech.get("seconds")) == (
        "city_night_victim_words",
        {"seat": AGENT},
        30,
    )
    t.advance()
    assert t.s.step.seat == 9 and queries.speakers(t.s) == frozenset({9})
    t.advance()
    assert t.s.step.round == "day"


# -- D-C1: wins ------------------------------------------------------------------------------------


def test_town_wins_when_mafia_and_maniac_are_gone() -> None:
    """D-C1 2: «no mafia and no maniac living → town (red) wins»."""
    seats = ["don", "city_sheriff", "agent", CIV, CIV, CIV, CIV]
    t = start(seats, QUIET)
    events = t.day([(2, 1), (3, 4)], [(1, [2, 3, 4, 5])])
    assert brief(events, "executed", "game_over") == [("executed", 1), ("game_over", ("town",))]
    # Issue 13: «announce the result when the rules decide it; the farewell may follow».
    order = [(e.type, e.phrase) for e in events if e.type in ("result_decided", "speech", "game_over")]
    assert order[-3:] == [
        ("result_decided", "city_town_wins"),
        ("speech", "city_farewell"),
        ("game_over", None),
    ]


def test_mafia_wins_at_parity_even_with_the_maniac_alive() -> None:
    """D-C1 3: «mafia living and mafia ≥ all other living players (maniac included) → mafia wins»."""
    seats = ["don", "mafioso", "agent", "maniac", CIV]
    t = start(seats, QUIET)
    t.day()
    events = t.night(act(3, 4), shot("mafia", 5))
    assert brief(events, "killed", "game_over") == [("killed", 5), ("game_over", ("mafia",))]


def test_maniac_wins_one_on_one() -> None:
    """D-C1 4: «maniac living, no mafia, and at most one other living player → maniac wins»."""
    seats = ["don", "maniac", CIV, CIV]
    t = start(seats, QUIET)
    t.day([(3, 1), (4, 3)], [(1, [2, 3, 4])])
    events = t.night(act(2, 3))
    assert brief(events, "killed", "game_over") == [("killed", 3), ("game_over", ("solo",))]
    assert [e.phrase for e in events if e.type == "game_over"] == ["city_maniac_wins"]


def test_every_ability_kind_city_uses_has_a_scenario_here() -> None:
    """Kinds used by `city` (with every option) and the scenario tests above that exercise them:
    ``city_block`` (agent), ``city_save`` (lawyer), ``check_is_role`` (don), ``check_status`` (sheriff),
    ``kill`` (ranger, maniac), ``protect`` (doctor) and the ``leaves_table`` hook (D-C17)."""
    ruleset = engine.load_ruleset("city")
    for options in [(), *[with_requirements("city", o) for o in ruleset.options]]:
        variant = engine.load_ruleset("city", options)
        used = {a.kind for r in variant.roles.values() for a in r.abilities}
        hooks = {a.params.get("if_idle") for r in variant.roles.values() for a in r.abilities} - {None}
        assert used == {"city_block", "city_save", "check_is_role", "check_status", "kill", "protect"}
        assert hooks == {"leaves_table"}


def test_a_player_shot_at_night_still_acts_that_night() -> None:
    """D-C19: «all city night actions take effect together at dawn; a player shot that night still
    performs his own action»: the sheriff shot by the mafia gets his answer, the doctor's heal holds."""
    t = at_night(ELEVEN, QUIET)
    events = t.night(shot("mafia", SHERIFF), act(SHERIFF, DON), act(MANIAC, DOCTOR), act(DOCTOR, SHERIFF))
    assert brief(events, "check") == [("check", SHERIFF, DON, "mafia")]
    assert morning(events) == [("announce", "day_breaks"), ("killed", DOCTOR)]


def test_a_removed_agent_takes_nobody_with_him() -> None:
    """D-F5: «a removed agent triggers no link» (the link needs a night shot, D-C6)."""
    t = at_night(ELEVEN, QUIET)
    t.to_step("agent")
    t.send(act(AGENT, 9))
    fouls = [engine.Foul(seat=AGENT, reason="peeking")] * 4
    events = t.send(*fouls, engine.Remove(seat=AGENT, reason="peeking"))
    assert brief(events, "removed") == [("removed", AGENT, "peeking")]
    events = t.night(shot("mafia", 10))
    assert morning(events) == [("announce", "day_breaks"), ("killed", 10)]
    assert 9 in t.s.alive


def test_nobody_left_is_a_draw() -> None:
    """D-C1 1: «nobody living → draw» — here all three tied players leave together."""
    seats = ["don", "maniac", CIV]
    t = start(seats, QUIET)
    votes = [(2, [1]), (3, [2]), (1, [3])]
    events = t.day([(1, 2), (2, 3), (3, 1)], votes, revote=[(1, [3]), (2, [1]), (3, [2])], lift=[1, 2, 3])
    assert brief(events, "leave_together", "game_over") == [("leave_together", (1, 2, 3)), ("game_over", ())]
    # Issue 13: the result is told as the three leave, before their farewells.
    assert [e.phrase for e in events if e.type == "result_decided"] == ["game_draw"]
    told = next(i for i, e in enumerate(events) if e.type == "result_decided")
    assert [e.data["seat"] for e in events[told:] if e.type == "speech"] == [1, 2, 3]


def test_a_whole_night_exact_events() -> None:
    """A night with every role acting, as one readable log (D-C2 order, D-C7, D-C9, D-C16, D-C19): the
    agent blocks the maniac; the don designates 9 over the lawyer's 10 and finds the sheriff; the lawyer
    saves 9; the sheriff finds the lawyer; the ranger shoots the don, whom the doctor heals."""
    t = start(ELEVEN, QUIET)
    t.day()
    t.night()
    t.day()
    events = [e for e in t.events if e.type in ("night_step", "awake")][-2:]
    events += t.send(act(AGENT, MANIAC)) + t.advance()
    events += t.send(Propose(seat=DON, target=9), Propose(seat=LAWYER, target=10))
    events += t.night(
        act(DON, SHERIFF), act(LAWYER, 9), act(SHERIFF, LAWYER), act(RANGER, DON), act(DOCTOR, DON)
    )
    acted = [("action",), ("action_accepted",)]
    assert brief(events) == [
        ("night_step", "agent"),
        ("awake", "agent", (AGENT,)),
        *acted,
        ("night_step_ended",),
        ("night_step", "mafia"),
        ("awake", "mafia", (DON, LAWYER, MAFIOSO)),
        ("proposal",),
        ("proposal",),
        ("night_step_ended",),
        ("night_step", "don"),
        ("awake", "don", (DON,)),
        *acted,
        ("check", DON, SHERIFF, True),
        ("night_step_ended",),
        ("night_step", "lawyer"),
        ("awake", "lawyer", (LAWYER,)),
        ("prompt",),
        *acted,
        ("night_step_ended",),
        ("night_step", "sheriff"),
        ("awake", "sheriff", (SHERIFF,)),
        *acted,
        ("check", SHERIFF, LAWYER, "mafia"),
        ("night_step_ended",),
        ("night_step", "ranger"),
        ("awake", "ranger", (RANGER,)),
        *acted,
        ("night_step_ended",),
        ("night_step", "doctor"),
        ("awake", "doctor", (DOCTOR,)),
        *acted,
        ("night_step_ended",),
        ("night_step", "maniac"),
        ("awake", "maniac", (MANIAC,)),
        ("blocked", (MANIAC,)),
        ("night_step_ended",),
        ("announce", "day_breaks"),
        ("announce", "nobody_killed"),
        ("speech", 3, "day"),
    ]


@pytest.mark.parametrize("players", [7, 8, 9])
def test_the_intro_wakes_the_lawyer_only_where_one_is_dealt(players: int) -> None:
    """5.4 wakes «команду мафии с доном и адвокатом»; at 7–8 players (5.2) there is no lawyer, and the
    host must not name one (issue 13: the project's line city_intro_mafia_wakes_no_lawyer)."""
    ruleset = engine.load_ruleset("city")
    roles = engine.deal(ruleset, players, seed=3)
    t = city(roles)
    t.until(lambda s: s.day == 1)
    (meet,) = [e for e in t.events if e.type == "night_step" and e.get("step") == "mafia_meets"]
    lawyer = "city_lawyer" in roles
    assert meet.phrase == ("city_intro_mafia_wakes" if lawyer else "city_intro_mafia_wakes_no_lawyer")
    text = phrases.render(meet.phrase, {})
    assert ("адвокат" in text) is lawyer, text
