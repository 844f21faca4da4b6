"""The host's phrases in English (audio/data/phrases_en.json): every phrase of ANNOUNCEMENTS.md and of
the project's additions has an English text with the same placeholders, and renders for speech with
English numbers and for the text mirror with digits; a Russian game renders as before."""

from __future__ import annotations

import re

from audio import phrases, phrases_en

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_every_phrase_has_english_with_the_same_placeholders() -> None:
    ids = {p.id for p in phrases.all_phrases()} | {p.id for p in phrases.project_phrases()}
    assert phrases_en.ids() == ids
    for phrase_id in ids:
        english = phrases_en.text(phrase_id)
        assert sorted(_PLACEHOLDER.findall(english)) == sorted(phrases.get(phrase_id).placeholders), phrase_id
        assert not CYRILLIC.search(english), phrase_id
    for phrase_id, russian in phrases.singular_forms().items():
        english = phrases_en.singular(phrase_id)
        assert english and sorted(_PLACEHOLDER.findall(english)) == sorted(_PLACEHOLDER.findall(russian))


def test_english_numbers_and_lists() -> None:
    said = phrases.render("hw_vote_start", {"seats": [3, 5, 12]}, language="en")
    assert said == "The vote begins. The suspects: players number three, five and twelve."
    mirror = phrases.render("hw_vote_start", {"seats": [3]}, language="en", numbers="digits")
    assert mirror == "The vote begins. The suspect: player number 3."
    needed = phrases.render("sm_vote_start", {"count": 21}, language="en")
    assert needed.endswith("at least twenty-one votes.")
    # A count said with no noun after it: «1 votes» was the city's and simple's result for one vote.
    for phrase_id in ("city_vote_result", "sm_vote_result"):
        one = phrases.render(phrase_id, {"seat": 3, "count": 1}, language="en", numbers="digits")
        assert one == "Votes for player number 3: 1.", one
    assert phrases_en.cardinal(105) == "one hundred and five" and phrases_en.cardinal(40) == "forty"
    team = phrases.render("priv_team_roles", {"members": [{"seat": 2, "role": "Don"}]}, language="en")
    assert team == "Your team: number two — Don."


def test_an_unpronounceable_name_is_left_out_in_english_too() -> None:
    said = phrases.render(
        "hw_player_killed",
        {"seat": 4, "name": "xX_Slayer_Xx 🔥", "role": "Doctor"},
        language="en",
        speakable=lambda name: name.isalpha(),
    )
    assert said == "Tonight player number four was killed. The player's role: Doctor."


def test_every_spoken_phrase_renders_in_english() -> None:
    params = {
        "seat": 2,
        "target": 3,
        "seats": [1, 4],
        "count": 2,
        "name": "Ann",
        "role": "Doctor",
        "role_description": "Heals one player a night.",
        "preset": "Classic Mafia",
        "teams": "the town",
        "seats_list": [{"seat": 1, "name": "Ann"}],
        "roles_list": [{"seat": 1, "name": "Ann", "role": "Doctor"}],
        "members": [{"seat": 1, "role": "Don"}],
    }
    for phrase in [*phrases.all_phrases(), *phrases.project_phrases()]:
        said = phrases.render(phrase.id, params, language="en")
        assert said and "{" not in said and not CYRILLIC.search(said), phrase.id
