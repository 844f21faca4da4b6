"""`hobbyworld`: the phase cycle, the intro night, the night order, the morning, the loner's win and the
simulator's command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import act, brief, phrases, shot
from hobbyworld_helpers import hw, lynch, next_night

from engine import Advance, Nominate

ROOT = Path(__file__).resolve().parents[2]
CIVS = ["civilian"] * 5
EVERY_NIGHT_ROLE = [
    "beauty",
    "thief",
    "snitch",
    "doctor",
    "bodyguard",
    "lawyer",
    "mafioso",
    "yakuza",
    "detective",
    "priest",
    "judge",
    "journalist",
    "jailer",
    "sheriff",
    "maniac",
    "ripper",
    "fan",
    "godfather",
    "swindler",
]


def test_intro_night_wakes_the_groups_and_each_special_role_without_actions() -> None:
    """«Затем ведущий говорит: «Проснулась мафия». … «Мафия познакомилась и снова заснула»»; «Если в игре
    участвуют другие особые персонажи, например лидер, ведущий также по очереди «будит» их»; «Во время
    «вводной» ночи не происходит никакой стрельбы, а также никто не пользуется способностями.»"""
    t = hw(["mafioso", "lawyer", "sleepwalker", "detective", *CIVS])
    t.until(lambda s: s.phase == "day")
    assert phrases(t.events, "announce", "night_step", "night_step_ended")[1:10] == [
        ("announce", "hw_intro_night_falls"),
        ("night_step", "hw_intro_mafia_wakes"),
        ("night_step_ended", "hw_intro_mafia_sleeps"),
        ("night_step", "hw_lawyer_wakes"),
        ("night_step_ended", "hw_lawyer_sleeps"),
        ("night_step", "hw_detective_wakes"),
        ("night_step_ended", "hw_detective_sleeps"),
        ("announce", "hw_day_breaks"),
        ("announce", "hw_discussion_start"),
    ]
    assert brief(t.events, "awake") == [
        ("awake", "mafia_meets", (1, 2, 3)),
        ("awake", "lawyer", (2,)),
        ("awake", "detective", (4,)),
    ]
    assert all(e.get("actors") == [] for e in t.events if e.type == "awake")


def test_the_night_order_is_the_book_s() -> None:
    """«Ночью ведущий вызывает персонажей и даёт им действовать в следующем порядке: Красотка Вор Стукач
    Доктор Телохранитель Адвокат Мафиози стреляют Якудза стреляют Лидер Маньяк либо Потрошитель
    Поклонница Крёстный отец Аферист» (a custom table may seat all six leaders and both loners)."""
    t = hw([*EVERY_NIGHT_ROLE, *CIVS, *CIVS, *CIVS])
    events = lynch(t, 34)
    events += t.to_day()
    lynched = next(i for i, e in enumerate(events) if e.type == "executed")
    assert brief(events[lynched:], "night_step") == [
        ("night_step", s)
        for s in [
            "beauty",
            "thief",
            "snitch",
            "doctor",
            "bodyguard",
            "lawyer",
            "mafia",
            "yakuza",
            "detective",
            "priest",
            "judge",
            "journalist",
            "jailer",
            "sheriff",
            "maniac",
            "ripper",
            "fan",
            "godfather",
            "swindler",
        ]
    ]


def test_the_morning_announces_the_dead_with_their_roles_then_prisoners_and_denials() -> None:
    """«он сообщает всем игрокам, кто был убит этой ночью: названные игроки демонстрируют свои карты»;
    «утром ведущий объявляет, кто стал заключённым»; «Наутро ведущий объявляет, кто из игроков не может
    голосовать». Victims in seat order (D-G11)."""
    t = hw(["mafioso", "godfather", "jailer", "sheriff", *CIVS, "civilian"])
    lynch(t, 10)
    events = t.night(shot("mafia", 9), act(3, 1), act(4, 5), act(2, 6))
    morning = [e for e in events if e.type in ("killed", "jailed", "vote_denied")]
    assert brief(morning) == [("killed", 5), ("killed", 9), ("jailed", 1), ("vote_denied", 6)]
    assert [e.phrase for e in morning] == ["hw_player_killed"] * 2 + ["hw_player_jailed", "hw_vote_denied"]
    assert all(e.audience.kind == "public" for e in morning)


def test_the_loner_wins_alone() -> None:
    """«Одиночка — это третья сторона в игре. Одиночка побеждает в том случае, если все игроки кроме него
    убиты.»"""
    t = hw(["mafioso", "maniac", "civilian", "civilian"])
    lynch(t, 4)
    events = next_night(t, 1, act(2, 3))
    over = next(e for e in events if e.type == "game_over")
    assert over.get("winners") == ["solo"]
    assert over.phrase == "hw_loner_wins" and over.params == {"seat": 2, "role": "Маньяк"}


def test_the_mafia_wins_at_parity() -> None:
    """«При численном равенстве сторон также побеждает мафия.»"""
    t = hw(["mafioso", "mafioso", "civilian", "civilian", "civilian", "civilian"])
    lynch(t, 6)
    events = t.night(shot("mafia", 5))
    assert brief(events, "game_over") == [("game_over", ("mafia",))]


def test_simulate_command_line() -> None:
    """`python -m engine simulate --ruleset hobbyworld` plays random games and prints wins per side."""
    for args in (["--players", "10"], ["--players", "12", "--option", "yakuza"]):
        result = subprocess.run(
            [sys.executable, "-m", "engine", "simulate", "--ruleset", "hobbyworld", "--games", "20", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("hobbyworld, ")
        assert "town" in result.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--ruleset", "hobbyworld", "--option", "yakuza"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "12" in refused.stderr


def test_the_composition_table_is_the_book_s() -> None:
    """D-H1: «6 41 0 2 0» … «16 11 1 1–2 5 1–2»: civilians + criminals = players in every row."""
    import engine

    table = engine.load_ruleset("hobbyworld").params["table"]
    assert sorted(int(n) for n in table) == list(range(6, 17))
    for n, (civ, leader, sc_low, sc_high, crim, sm_low, sm_high) in table.items():
        assert civ + crim == int(n) and leader == 1
        assert 0 <= sc_low <= sc_high <= 2 and 0 <= sm_low <= sm_high <= 2
    assert table["6"] == [4, 1, 0, 0, 2, 0, 0] and table["16"] == [11, 1, 1, 2, 5, 1, 2]


def test_timers_and_no_last_words() -> None:
    """D-G5: a 7-minute discussion with nominations open, 30 s per ballot and per night step, 60 s for a
    group's shot, 15 s for the judge; D-H21: the lynched player only shows his card."""
    t = hw(["mafioso", "mafioso", "judge", *CIVS])
    t.until(lambda s: s.step.kind == "nominations")
    assert t.s.step.seconds == 420
    events = lynch(t, 8)
    assert [e.get("seconds") for e in events if e.type == "night_step"] == [60]  # the mafia's shot
    assert brief(events, "executed", "speech") == [("executed", 8)]
    t.advance()
    assert t.s.step.night_step == "judge" and t.s.step.seconds == 30
    t2 = hw(["mafioso", "mafioso", "judge", *CIVS])
    to_vote = t2.until(lambda s: s.step.kind == "nominations")
    assert to_vote is not None
    t2.send(Nominate(seat=1, target=8), Advance())
    assert t2.s.step.kind == "vote" and t2.s.step.seconds == 30
    t2.advance()
    assert t2.s.step.kind == "acquittal" and t2.s.step.seconds == 15
