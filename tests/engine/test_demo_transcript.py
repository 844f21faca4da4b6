"""`python -m engine demo` tells a game in Russian words: names of players, roles, teams and sides, what a
check showed; never a raw id («agent_meets», «town»), a Python value («False») or an English word."""

from __future__ import annotations

import re

import pytest

import engine
from engine.__main__ import main
from engine.demo import transcript

# Latin letters a Russian line may hold: a preset's own title («Мафия (Hobby World)»).
_TITLES_IN_LATIN = re.compile(r"Hobby World")
_LATIN = re.compile(r"[A-Za-z]")


@pytest.mark.parametrize("preset", engine.available_presets())
def test_every_line_is_russian_words(preset: str) -> None:
    for seed in (1, 2, 3, 7):
        lines = transcript(preset, 10 if preset != "blood" else 12, seed)
        bad = [line for line in lines if _LATIN.search(_TITLES_IN_LATIN.sub("", line))]
        assert bad == [], f"{preset} seed {seed}: {bad[:3]}"
        assert any(line.startswith(("Победа: ", "Ничья.")) for line in lines), lines[-3:]


def test_the_known_bad_lines_are_named() -> None:
    lines = transcript("city", 10, 3)
    assert "  Ночью просыпается: Агент (знакомство)" in lines
    assert "  Ночью просыпается: мафия (знакомство)" in lines
    assert any(re.fullmatch(r"  \[лично №\d+ \w+\] проверка игрока №\d+: нет, не Шериф", x) for x in lines)
    assert "Победа: мафия." in lines
    town = transcript("classic", 10, 7)
    assert any(x.startswith("Победа: ") for x in town)
    assert any(x.startswith("Роли: №1 ") and " — " in x for x in town)


def test_a_town_win_and_a_solo_side_are_said_in_words() -> None:
    from engine.demo import side_name

    city = engine.load_ruleset("city")
    assert side_name("town", city) == "мирные жители" and side_name("solo", city) == "Маньяк"


def test_the_command_prints_russian_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--ruleset", "city", "--players", "10", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Демо-игра «Городская мафия»: 10 игроков, сид 3.")
    for raw in ("agent_meets", "False", "True", "town", "mafia_meets"):
        assert raw not in out
