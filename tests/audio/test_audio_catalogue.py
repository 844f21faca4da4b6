"""The phrase catalogue is ANNOUNCEMENTS.md, complete, and every phrase renders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from audio import catalogue_md, phrases

SAMPLE_PARAMS = {
    "seat": 3,
    "target": 7,
    "seats": [2, 5, 9],
    "count": 4,
    "name": "Аня",
    "role": "Мафиози",
    "preset": "Мафия от Hobby World",
    "teams": ["мафия", "маньяк"],
    "seats_list": [(1, "Аня"), {"seat": 2, "name": "Борис"}],
    "roles_list": [(1, "Аня", "Мафиози"), {"seat": 2, "name": "Борис", "role": "Мирный житель"}],
    "role_description": "Ночью выбирает жертву вместе с мафией.",
    "members": [(2, "Дон"), {"seat": 8, "role": "Адвокат"}],
}

PRESETS = phrases.presets()


def test_catalogue_is_exactly_the_tables_of_announcements_md(announcements_md: str) -> None:
    fresh = catalogue_md.parse(announcements_md)
    committed = [
        (p.id, p.text, list(p.presets), p.spoken, list(p.placeholders)) for p in phrases.all_phrases()
    ]
    expected = [(p["id"], p["text"], p["presets"], p["spoken"], p["placeholders"]) for p in fresh["phrases"]]
    assert committed == expected, "ANNOUNCEMENTS.md changed: python -m audio.catalogue_md <path> regenerates"
    assert phrases.generic_events() == list(fresh["generic_events"])


def test_every_id_in_announcements_md_is_in_the_catalogue(announcements_md: str) -> None:
    # Independent of the parser: any backticked id opening a table row.
    ids = re.findall(r"^\| `([a-z0-9_]+)` \|", announcements_md, flags=re.MULTILINE)
    assert len(ids) == len(set(ids))
    for phrase_id in ids:
        assert phrases.get(phrase_id).id == phrase_id
    assert {p.id for p in phrases.all_phrases()} == set(ids)
    assert len(ids) == 321
    # The spec's own count was not updated when `priv_team_roles` was added (it still says 320).
    total = re.search(r"\*\*Total: (\d+) phrases\*\*", announcements_md)
    assert total is not None and int(total.group(1)) == 320


def test_every_preset_has_its_own_and_the_shared_lines() -> None:
    prefixes = {"hobbyworld": "hw_", "city": "city_", "classic": "cl_", "blood": "bl_", "simple": "sm_"}
    for preset, prefix in prefixes.items():
        ids = {p.id for p in phrases.all_phrases(preset)}
        assert {"game_start", "game_draw", "game_over_roles", "time_up"} <= ids
        assert {p.id for p in phrases.all_phrases() if p.id.startswith(prefix)} <= ids
        others = tuple(other for other in prefixes.values() if other != prefix)
        assert not [p.id for p in phrases.all_phrases(preset) if p.id.startswith(others)]
        fixed = phrases.fixed_phrases(preset)
        assert fixed and all(p.spoken and not p.placeholders for p in fixed)
    assert "priv_plate_mafia" in {p.id for p in phrases.all_phrases("classic", spoken=False)}
    assert "priv_plate_mafia" not in {p.id for p in phrases.all_phrases("city")}
    with pytest.raises(ValueError):
        phrases.all_phrases("werewolves")


@pytest.mark.parametrize("phrase", phrases.all_phrases(), ids=lambda p: p.id)
def test_every_phrase_renders_in_words_and_digits(phrase: phrases.Phrase) -> None:
    words = phrases.render(phrase.id, SAMPLE_PARAMS)
    digits = phrases.render(phrase.id, SAMPLE_PARAMS, numbers="digits")
    for text in (words, digits):
        assert "{" not in text and "}" not in text
    if phrase.placeholders:
        assert words != phrase.text
    else:
        assert words == digits == phrase.text
    if set(phrase.placeholders) & {"seat", "target", "seats", "count", "seats_list", "roles_list", "members"}:
        assert not re.search(r"\d", words), words
        assert re.search(r"\d", digits), digits


def test_generic_events_point_at_phrases_of_the_right_preset() -> None:
    assert phrases.generic_phrase_ids("night_falls", "city") == ["city_night_falls"]
    assert phrases.generic_phrase_ids("night_falls", "classic") == ["cl_first_night_falls", "cl_night_falls"]
    assert phrases.generic_phrase_ids("acquittal", "classic") == []
    for event in phrases.generic_events():
        for preset in PRESETS:
            for phrase_id in phrases.generic_phrase_ids(event, preset):
                assert preset in phrases.get(phrase_id).presets, (event, preset, phrase_id)
    with pytest.raises(phrases.UnknownPhrase):
        phrases.generic_phrase_ids("sunrise", "city")


def test_errors_are_typed_and_say_what_is_wrong() -> None:
    with pytest.raises(phrases.UnknownPhrase, match="no_such_phrase"):
        phrases.render("no_such_phrase", {})
    with pytest.raises(phrases.MissingPlaceholder, match="name"):
        phrases.render("hw_lynched", {"seat": 3, "role": "Мафиози"})
    bad = [{"seat": 0}, {"seat": "3"}, {"seat": True}, {"seat": 2.0}, {"seat": -1}]
    for params in bad:
        with pytest.raises(phrases.InvalidParam):
            phrases.render("city_nominated", params)
    for params in ({"seats": []}, {"seats": "3, 5"}, {"seats": [3, None]}):
        with pytest.raises(phrases.InvalidParam):
            phrases.render("city_nominees_list", params)
    with pytest.raises(phrases.InvalidParam):
        phrases.render("game_seating", {"seats_list": [(1,)]})
    with pytest.raises(phrases.InvalidParam):
        phrases.render("hw_lynched", {"seat": 3, "name": 42, "role": "Мафиози"})
    assert issubclass(phrases.UnknownPhrase, LookupError)
    assert issubclass(phrases.InvalidParam, ValueError)


def test_extra_params_are_ignored_and_names_are_single_line() -> None:
    text = phrases.render("sm_player_killed", {"seat": 1, "name": "  Аня\nКрасная  ", "role": "x", "day": 2})
    assert text == "Этой ночью убит игрок номер один, Аня Красная."


def test_lists_render_as_the_rules_show_them() -> None:
    seating = phrases.render("game_seating", SAMPLE_PARAMS)
    assert seating == "Рассадка: один — Аня; два — Борис."
    assert phrases.render("game_seating", SAMPLE_PARAMS, numbers="digits") == "Рассадка: 1 — Аня; 2 — Борис."
    roles = phrases.render("game_over_roles", SAMPLE_PARAMS)
    assert roles == "Игра окончена. Роли игроков: один — Аня — Мафиози; два — Борис — Мирный житель."
    assert phrases.render("foul_victory_awarded", {"teams": "мафия"}).endswith("присуждается: мафия.")
    assert phrases.render("foul_victory_awarded", SAMPLE_PARAMS).endswith("присуждается: мафия и маньяк.")


def test_prebuild_items_cover_fixed_and_seat_phrases() -> None:
    items = phrases.prebuild_items()
    texts = [item.text for item in items]
    assert len(texts) == len(set(texts))
    assert {p.text for p in phrases.fixed_phrases()} <= set(texts)
    for seat in range(1, 21):
        assert phrases.render("city_speech_turn", {"seat": seat}) in texts
        assert phrases.render("sm_vote_start", {"count": seat}) in texts
    assert phrases.render("cl_vote_result", {"count": 0}) in texts
    assert not any(p.id.startswith("priv_") for p in phrases.fixed_phrases())
    per_preset = {preset: {item.text for item in phrases.prebuild_items(preset)} for preset in PRESETS}
    assert set().union(*per_preset.values()) == set(texts)


def test_readme_documents_every_placeholder() -> None:
    readme = (Path(phrases.__file__).parent / "README.md").read_text(encoding="utf-8")
    for name in phrases.iter_placeholders():
        assert f"`{name}`" in readme, name
