"""The project's additions to the catalogue (audio/data/project_phrases.json): a {seats} phrase names one
seat in the singular (issue 13), and nothing of ANNOUNCEMENTS.md's own texts changes."""

from __future__ import annotations

import re

import pytest

from audio import phrases
from engine.events import Event
from mafiabot.game.render import render

# {seats} phrases that are said of two or more seats only: ties, a car crash, the three judges.
ALWAYS_SEVERAL = {
    "hw_vote_tie",
    "city_car_crash",
    "city_car_crash_again",
    "cl_vote_tie_two",
    "cl_judges_named",
    "bl_vote_tie",
}
PLURAL = re.compile(r"игрок(и|ами|ов|ам) номер \{seats\}", flags=re.IGNORECASE)


def test_every_plural_seats_phrase_has_a_one_seat_form_or_needs_none() -> None:
    singular = phrases.singular_forms()
    plural = {p.id for p in phrases.all_phrases() if PLURAL.search(p.text)}
    assert plural - ALWAYS_SEVERAL == set(singular), (
        "a new «игроки номер {seats}» phrase needs a one-seat form"
    )
    assert not ALWAYS_SEVERAL & set(singular)


@pytest.mark.parametrize("phrase_id", sorted(phrases.singular_forms()))
def test_one_seat_is_named_in_the_singular(phrase_id: str) -> None:
    one = phrases.render(phrase_id, {"seats": [6], "count": 1}, numbers="digits")
    several = phrases.render(phrase_id, {"seats": [6, 8], "count": 1}, numbers="digits")
    assert re.search(r"игрок(а)? номер 6", one, flags=re.IGNORECASE) and "игроки" not in one.lower(), one
    assert several.startswith(phrases.get(phrase_id).text.split("{")[0])  # ANNOUNCEMENTS.md's own text
    assert "игроки" in several.lower() or "игроков" in several
    assert "6 и 8" in several
    assert "шесть" in phrases.render(phrase_id, {"seats": [6]})


def test_the_issues_two_lines() -> None:
    left = Event("left_together", phrase="city_leave_together", params={"seats": [3]})
    line = render(left, lambda seat: f"игрок{seat}")
    assert line is not None and line.text == "Игрок номер 3 покидает игровой стол."
    vote = Event("vote_started", phrase="cl_vote_start", params={"seats": [6]})
    line = render(vote, lambda seat: "")
    assert line is not None and line.text == "Начинаем голосование. Кандидат: игрок номер 6."


def test_the_catalogue_itself_is_untouched() -> None:
    ids = {p.id for p in phrases.all_phrases()}
    assert not ids & {p.id for p in phrases.project_phrases()}
    assert phrases.get("city_leave_together").text == "Игроки номер {seats} вместе покидают игровой стол."
