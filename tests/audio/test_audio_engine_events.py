"""The rules engine's events and the phrase catalogue agree: every phrase it emits exists for its preset,
renders with the params it sends (plus the bot's seat → name map), and is spoken exactly when public."""

from __future__ import annotations

import pytest

from audio import phrases
from engine import available_presets, load_ruleset, player_counts
from engine.simulate import play_random_game


@pytest.mark.parametrize("preset", available_presets())
def test_every_phrase_of_random_games_renders(preset: str) -> None:
    ruleset = load_ruleset(preset)
    counts = player_counts(ruleset)
    emitted: set[str] = set()
    games = 0
    for players in (counts[0], counts[-1]):
        names = {seat: f"Игрок {seat}" for seat in range(1, players + 1)}
        for seed in range(4):
            try:
                game = play_random_game(ruleset, players, seed)
            except AssertionError as exc:
                # The simulator's own legality bugs belong to the engine's tests; this test is about the
                # phrases of the games that can be played, and most must be.
                if "the simulator sent an illegal" not in str(exc):
                    raise
                continue
            games += 1
            for event in game.events:
                if event.phrase is None:
                    continue
                emitted.add(event.phrase)
                phrase = phrases.get(event.phrase)
                assert preset in phrase.presets, (event.phrase, preset)
                assert phrase.spoken == (event.audience.kind == "public"), (event.phrase, event.audience)
                spoken = phrases.render(event.phrase, event.params, names=names)
                mirror = phrases.render(event.phrase, event.params, numbers="digits", names=names)
                assert "{" not in spoken + mirror
                if "name" in phrase.placeholders:
                    assert names[event.params["seat"]] in spoken
    assert games >= 4, f"only {games} of 8 random {preset} games could be played"
    assert len(emitted) > 20


def test_names_fill_name_and_list_rows() -> None:
    names = {1: "Аня", 2: "Борис", 3: "Вера"}
    assert (
        phrases.render("sm_player_killed", {"seat": 2}, names=names)
        == "Этой ночью убит игрок номер два, Борис."
    )
    rows = [{"seat": 1, "role": "Мафия", "role_id": "mafioso"}, {"seat": 3, "role": "Доктор"}]
    assert phrases.render("game_over_roles", {"roles_list": rows}, names=names) == (
        "Игра окончена. Роли игроков: один — Аня — Мафия; три — Вера — Доктор."
    )
    team = [{"seat": 2, "role": "Дон"}, {"seat": 8, "role": "Адвокат"}, {"seat": 9, "role": "Мафия"}]
    assert phrases.render("priv_team_roles", {"members": team}, numbers="digits") == (
        "Ваша команда: номер 2 — дон, номер 8 — адвокат, номер 9 — мафия."
    )
    assert phrases.render("priv_team_roles", {"members": [(1, "FBI")]}) == "Ваша команда: номер один — FBI."
    seating = phrases.render("game_seating", {"seats_list": [{"seat": 1}, {"seat": 2}]}, names=names)
    assert seating == "Рассадка: один — Аня; два — Борис."
    explicit = phrases.render("sm_player_killed", {"seat": 2, "name": "Боря"}, names=names)
    assert explicit.endswith("Боря.")
    with pytest.raises(phrases.MissingPlaceholder):
        phrases.render("sm_player_killed", {"seat": 9}, names=names)
