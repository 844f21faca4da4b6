"""Every line the engine asks the host to say exists in the phrase catalogue and renders with the
params the event carries; every event the host must announce has a phrase (issue 3 part 6, issue 6)."""

from __future__ import annotations

import pytest

import engine
from audio import phrases
from engine.simulate import play_random_game

# Events the host announces aloud in every preset, whatever happens in the game.
MUST_SPEAK = {"killed", "executed", "removed", "game_over", "ballot", "night_step", "vote_count"}


def _presets() -> list[str]:
    return [p for p in engine.available_presets() if _loads(p)]


def _loads(preset: str) -> bool:
    try:
        engine.load_ruleset(preset)
    except engine.RulesetError:
        return False
    return True


@pytest.mark.parametrize("preset", _presets())
def test_preset_phrase_ids_exist(preset: str) -> None:
    ruleset = engine.load_ruleset(preset)
    ids = set(ruleset.phrases.values())
    for step in (*ruleset.night_steps, *ruleset.intro_night):
        ids |= {step.wake, step.sleep} - {""}
    for role in ruleset.roles.values():
        for ability in role.abilities:
            ids |= set(dict(ability.params.get("phrases", {})).values())
    missing = sorted(i for i in ids if not _known(i))
    assert not missing, f"{preset}: unknown phrase ids {missing}"


def _known(phrase_id: str) -> bool:
    try:
        phrases.get(phrase_id)
    except phrases.UnknownPhrase:
        return False
    return True


@pytest.mark.parametrize("preset", _presets())
def test_events_render_with_their_params(preset: str) -> None:
    ruleset = engine.load_ruleset(preset)
    players = engine.player_counts(ruleset)[len(engine.player_counts(ruleset)) // 2]
    for seed in range(6):
        game = play_random_game(ruleset, players, seed)
        for ev in game.events:
            if ev.type in MUST_SPEAK and ev.audience.kind == "public":
                if ev.type == "night_step" and not ev.phrase:
                    continue  # a step without a line of its own (RULESETS: roles woken with others)
                if ev.type == "game_over" and ev.data.get("announced"):
                    # told by its result_decided line before the last word (issue 13), which must speak
                    told = [e for e in game.events if e.type == "result_decided"]
                    assert told and told[-1].phrase, f"{preset}: {ev.data} was never told"
                    continue
                assert ev.phrase, f"{preset}: {ev.type} {ev.data} has no host phrase"
            if ev.phrase:
                params = dict(ev.params)
                seat = params.get("seat")
                if isinstance(seat, int):
                    params.setdefault("name", f"Игрок {seat}")
                if "roles_list" in params:
                    params["roles_list"] = [{**r, "name": f"Игрок {r['seat']}"} for r in params["roles_list"]]
                text = phrases.render(ev.phrase, params)
                assert text and "{" not in text


def test_the_phrase_tables_know_exactly_the_bundled_presets() -> None:
    """The presets are listed once, as files in engine/presets/; ANNOUNCEMENTS.md has a column for each."""
    assert sorted(phrases.presets()) == engine.available_presets()
