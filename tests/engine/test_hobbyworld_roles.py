"""`hobbyworld` (seed 000): one scenario per role, quoting the rulebook, asserting the exact events.

Every game starts with the intro night and a first day that lynches someone: the seat lists end with a
spare civilian who is lynched on day 1 (:func:`lynch`)."""

from __future__ import annotations

import pytest
from helpers import act, brief, shot
from hobbyworld_helpers import acquit, day, hw, lynch, next_night, to_ballot, vote

from engine import IllegalCommand

CIVS = ["civilian"] * 5


def _first_night(roles: list[str], *options: str) -> object:
    t = hw(roles, *options)
    lynch(t, len(roles))
    return t


def test_mafioso_and_civilian() -> None:
    """«Мафиози открывают глаза и жестами договариваются, кого убить … Наутро жертва мафии объявляется
    убитой (если её никто не защитил)»; «названные игроки демонстрируют свои карты и сразу же выбывают»."""
    t = hw(["mafioso", "mafioso", *CIVS, "civilian"])
    lynch(t, 8)
    events = t.night(shot("mafia", 3))
    killed = [e for e in events if e.type == "killed"]
    assert brief(killed) == [("killed", 3)]
    assert killed[0].phrase == "hw_player_killed"
    assert killed[0].params == {"seat": 3, "role": "Мирный житель"}


def test_godfather_denies_a_vote() -> None:
    """Крёстный отец: «Этот игрок не может голосовать днём.» «Наутро ведущий объявляет, кто из игроков не
    может голосовать»."""
    t = hw(["godfather", "mafioso", *CIVS, "civilian"])
    lynch(t, 8)
    events = t.night(act(1, 3))
    assert brief(events, "vote_denied") == [("vote_denied", 3)]
    to_ballot(t, [(4, 5)])
    with pytest.raises(IllegalCommand, match="лишён права голоса"):
        t.send(vote(3, 5))


def test_thief_blocks_the_doctor() -> None:
    """Вор: «Этот игрок не может пользоваться своими способностями этой ночью» — the doctor's save has
    no effect and the mafia's victim dies."""
    t = hw(["thief", "mafioso", "doctor", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(1, 3), act(3, 4), shot("mafia", 4))
    assert brief(events, "killed") == [("killed", 4)]


def test_lawyer_sees_the_card() -> None:
    """Адвокат: «Может узнать роль одного игрока.» «Ведущий показывает адвокату маленькую карточку с ролью
    проверяемого игрока.»"""
    t = hw(["lawyer", "mafioso", "doctor", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(1, 3))
    assert brief(events, "check") == [("check", 1, 3, "doctor")]
    check = next(e for e in events if e.type == "check")
    assert check.audience.seats == (1,) and check.phrase == "priv_role_card"


def test_snitch_frames_for_every_check() -> None:
    """Стукач: «Если этой ночью кто-нибудь проверяет выбранного игрока (хочет узнать его роль), ведущий
    должен показать карточку мафиози вместо настоящей роли игрока.»"""
    t = hw(["snitch", "mafioso", "detective", "doctor", *CIVS, "civilian"])
    lynch(t, 10)
    events = t.night(act(1, 4), act(3, 4, name="check"))
    assert brief(events, "check") == [("check", 3, 4, "mafioso")]
    assert (3, 4) not in t.s.knowledge


def test_doctor_protects_another_player() -> None:
    """Доктор: «Перед стрельбой может выбрать другого игрока. Этот игрок не может быть убит этой ночью.»
    — nobody is told of the save."""
    t = hw(["mafioso", "mafioso", "doctor", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(3, 4), shot("mafia", 4))
    assert brief(events, "killed", "announce")[:2] == [
        ("announce", "day_breaks"),
        ("announce", "nobody_killed"),
    ]
    with pytest.raises(IllegalCommand):
        t.night(act(3, 3))  # «другого игрока»


def test_bodyguard_dies_instead() -> None:
    """Телохранитель: «Если в течение этой ночи выбранный телохранителем игрок должен быть убит, он не
    умирает, вместо него погибает телохранитель.»"""
    t = hw(["mafioso", "mafioso", "bodyguard", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(3, 4), shot("mafia", 4))
    assert brief(events, "killed") == [("killed", 3)]


def test_sleepwalker_wakes_with_the_mafia_and_gives_an_extra_shot() -> None:
    """Лунатик: «Всякий раз, когда ведущий объявляет о том, что проснулась мафия, лунатик также открывает
    глаза»; «они могут убить его ночью, и сразу после этого они получают право ещё на один выстрел»."""
    t = hw(["mafioso", "mafioso", "sleepwalker", *CIVS, "civilian"])
    assert brief(t.events, "team_members") == [("team_members", (1, 2, 3))] * 3
    lynch(t, 9)
    t.to_step("mafia")
    events = t.send(shot("mafia", 3)) + t.advance()
    assert t.s.step.night_step == "mafia" and t.s.step.round == "extra"
    events += t.send(shot("mafia", 4)) + t.to_day()
    assert brief(events, "extra_shot", "killed") == [("extra_shot", "mafia"), ("killed", 3), ("killed", 4)]
    extra = next(e for e in events if e.type == "extra_shot")
    assert extra.audience.seats == (1, 2) and extra.phrase == "priv_mafia_extra_shot"


def test_beauty_blocks_and_protects() -> None:
    """Красотка: «Этот игрок не может пользоваться своими способностями этой ночью, но также не может
    быть убит.» «Если красотка выбрала единственного мафиози в игре, то мафия в эту ночь никого не
    убивает.»"""
    t = hw(["mafioso", "beauty", "sheriff", *CIVS, "civilian", "civilian"])
    lynch(t, 10)
    events = t.night(act(2, 3), act(3, 4), shot("mafia", 3))
    assert brief(events, "killed") == []  # the sheriff is blocked, and the beauty's choice cannot die
    events = next_night(t, 9, act(2, 1), shot("mafia", 4))
    assert brief(events, "killed", "team_missed") == [("team_missed", "mafia", "blocked")]


def test_fan_learns_a_leader() -> None:
    """Поклонница: «Может выбрать одного игрока. Если это лидер, узнаёт его роль.» «Ведущий кивает, если
    это лидер, и отрицательно качает головой, если это не лидер.»"""
    t = hw(["mafioso", "mafioso", "fan", "judge", *CIVS, "civilian", "civilian"])
    lynch(t, 11)
    events = t.night(act(3, 4))
    assert brief(events, "check") == [("check", 3, 4, "judge")]
    assert next(e for e in events if e.type == "check").phrase == "priv_fan_yes"
    t.to_kind("acquittal")
    t.advance()  # seat 11 lynched (the judge did not acquit)
    events = t.night(act(3, 1))
    assert brief(events, "check") == [("check", 3, 1, False)]
    assert next(e for e in events if e.type == "check").phrase == "priv_fan_no"


def test_detective_shoots_or_checks() -> None:
    """Детектив: «Может либо застрелить одного игрока, либо узнать его роль.»"""
    t = hw(["mafioso", "mafioso", "detective", *CIVS, "civilian", "civilian", "civilian"])
    lynch(t, 11)
    events = t.night(act(3, 1, name="check"))
    assert brief(events, "check", "killed") == [("check", 3, 1, "mafioso")]
    events = next_night(t, 10, act(3, 1, name="kill"))
    assert brief(events, "check", "killed") == [("killed", 1)]
    with pytest.raises(IllegalCommand, match="Выберите действие"):
        next_night(t, 9, act(3, 2))


def test_priest_is_revealed_to_the_checked_player() -> None:
    """Священник: «Этот игрок узнаёт личность священника»: the host «дотрагивается до проверяемого, чтобы
    тот открыл глаза и узнал, кто из игроков священник»."""
    t = hw(["mafioso", "mafioso", "priest", *CIVS, "civilian", "civilian"])
    lynch(t, 10)
    events = t.night(act(3, 2, name="check"))
    assert brief(events, "check", "priest_revealed") == [
        ("check", 3, 2, "mafioso"),
        ("priest_revealed", 2, 3),
    ]
    assert next(e for e in events if e.type == "priest_revealed").audience.seats == (2,)
    assert (2, 3) in t.s.knowledge
    events = next_night(t, 9, act(3, 2, name="kill"))
    assert brief(events, "killed", "priest_revealed") == [("killed", 2)]


def test_judge_checks_at_night_and_acquits_by_day() -> None:
    """Судья: «Ночью может узнать роль одного игрока. Днём может спасти от суда Линча одного игрока.»"""
    t = hw(["mafioso", "mafioso", "judge", *CIVS, "civilian"])
    events = day(t, [(4, 9)], [(9, [1, 2, 4])])
    assert t.s.step.kind == "acquittal"
    assert brief(events, "acquittal_offer") == [("acquittal_offer", 3, 9)]
    events = t.send(acquit(3, 9))
    # the only remaining candidate: none; so a new round of nominations among the others (D-H16)
    assert brief(events, "acquitted") == [("acquitted", 9)]
    assert t.s.step.kind == "nominations"
    events = t.send(*[]) + day(t, [(4, 8)])
    assert brief(events, "executed", "acquittal_offer") == [("executed", 8)]  # once a day
    events = t.night(act(3, 1))
    assert brief(events, "check") == [("check", 3, 1, "mafioso")]


def test_journalist_compares_sides() -> None:
    """Журналист: «Может выбрать двух игроков, чтобы узнать, одинаковые у них стороны или разные.» «При
    этом особые роли не учитываются.»"""
    t = hw(["godfather", "mafioso", "journalist", "sleepwalker", *CIVS, "civilian", "civilian"])
    lynch(t, 11)
    events = t.night(act(3, 1, 2))
    assert brief(events, "check") == [("check", 3, 1, "same")]
    events = next_night(t, 10, act(3, 4, 1))
    assert brief(events, "check") == [("check", 3, 4, "different")]
    assert next(e for e in events if e.type == "check").phrase == "priv_different_side"


def test_jailer_jails_a_criminal_until_he_dies() -> None:
    """Тюремщик: «Если этот игрок преступник, он сразу отправляется в тюрьму. После смерти тюремщика все
    заключённые выходят из тюрьмы.» «Заключённые не имеют права голосовать, стрелять»."""
    t = hw(["mafioso", "mafioso", "jailer", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(3, 1))
    assert brief(events, "check", "jailed") == [("check", 3, 1, "mafioso"), ("jailed", 1)]
    assert t.s.prisoners() == {1}
    to_ballot(t, [(4, 5)])
    with pytest.raises(IllegalCommand, match="в тюрьме"):
        t.send(vote(1, 5))
    events = t.advance()  # seat 5 is lynched and the night falls
    events += t.night(shot("mafia", 3))
    assert brief(events, "in_jail", "killed", "released") == [
        ("in_jail", (1,)),
        ("killed", 3),
        ("released", (1,)),
    ]
    assert t.s.prisoners() == frozenset()


def test_sheriff_shoots() -> None:
    """Шериф: «Может застрелить одного игрока.» «Наутро жители обнаруживают на улицах одним трупом
    больше.»"""
    t = hw(["mafioso", "mafioso", "sheriff", *CIVS, "civilian"])
    lynch(t, 9)
    events = t.night(act(3, 1), shot("mafia", 4))
    assert brief(events, "killed") == [("killed", 1), ("killed", 4)]


def test_maniac_shoots() -> None:
    """Маньяк: «Может застрелить одного игрока.»"""
    t = hw(["mafioso", "mafioso", "maniac", *CIVS, "civilian", "civilian"])
    lynch(t, 10)
    events = t.night(act(3, 1))
    assert brief(events, "killed") == [("killed", 1)]


def test_ripper_spares_ordinary_civilians() -> None:
    """Потрошитель: «Может застрелить одного из игроков, если тот не обыватель.»"""
    t = hw(["mafioso", "mafioso", "ripper", "doctor", *CIVS, "civilian", "civilian"])
    lynch(t, 11)
    assert brief(t.night(act(3, 5)), "killed") == []
    assert brief(next_night(t, 10, act(3, 4)), "killed") == [("killed", 4)]


def test_swindler_links_a_vote() -> None:
    """Аферист: «Днём этот игрок голосует так же, как аферист.» «ведущий говорит выбранному игроку, как он
    должен проголосовать (ориентируясь на то, как проголосовал аферист)»."""
    t = hw(["mafioso", "mafioso", "swindler", *CIVS, "civilian", "civilian"])
    lynch(t, 10)
    t.night(act(3, 4))
    events = day(t, [(5, 6), (5, 7)], [(6, [3, 5]), (7, [6])])
    assert brief(events, "vote_linked", "voted") == [
        ("vote_linked", 4),
        ("voted", 3, 6),
        ("voted", 4, 6),
        ("voted", 5, 6),
        ("voted", 6, 7),
    ]
    assert brief(events, "executed") == [("executed", 6)]


def test_yakuza_shoots_after_the_mafia() -> None:
    """«Якудза делает свой выстрел сразу после мафии»; «роли мафиози делятся пополам между мафией и
    якудзой»."""
    t = hw(["mafioso", "mafioso", "yakuza", "yakuza", *CIVS, "civilian", "civilian", "civilian"], "yakuza")
    t.until(lambda s: s.phase == "day")
    assert brief(t.events, "team_members") == [("team_members", (1, 2))] * 2 + [("team_members", (3, 4))] * 2
    lynch(t, 12)
    events = t.night(shot("mafia", 5), shot("yakuza", 6))
    assert brief(events, "killed") == [("killed", 5), ("killed", 6)]
