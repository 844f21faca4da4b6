"""The cycle of phases as data (issue 3 part 3): a ruleset names its phases and says which talk and vote
and which wake roles in turn; `blood` runs intro day → night → dawn → day → sunset → night … while the
other presets keep their two-phase cycle."""

from __future__ import annotations

from pathlib import Path

import pytest
from blood_helpers import bl, execute

import engine
from engine import RulesetError, load_ruleset
from engine.view import view_for

BLOOD = 'extends = "blood"\nid = "x"\ntitle = "x"\n'


@pytest.mark.parametrize(
    ("body", "key", "message"),
    [
        (BLOOD + '[phase_kinds]\ndawn = "nap"\n', "phase_kinds.dawn", "talk or steps"),
        (BLOOD + 'cycle = ["night", "dusk", "day"]\n', "cycle[1]", "no kind"),
        (BLOOD + 'intro_phases = ["morning"]\n', "intro_phases[0]", "no kind"),
        (BLOOD + 'cycle = ["dawn", "day"]\n', "cycle", "talking phase"),
        (BLOOD + '[phase_kinds]\ndawn = "talk"\n', "night.steps[0].phase", "no phase of steps"),
        (
            'extends = "classic"\nid = "x"\ntitle = "x"\ncycle = ["day", "dawn"]\n',
            "cycle[1]",
            "no kind",
        ),
    ],
)
def test_invalid_cycles_name_the_file_and_the_key(tmp_path: Path, body: str, key: str, message: str) -> None:
    path = tmp_path / "variant.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(path))
    assert message in str(info.value) and info.value.key == key


def test_the_two_phase_presets_keep_their_cycle() -> None:
    """classic starts with a day, the others with a night; day and night alternate, named as before."""
    firsts = {"classic": "day", "simple": "night", "hobbyworld": "night", "city": "night"}
    for preset, first in firsts.items():
        ruleset = load_ruleset(preset)
        second = "night" if first == "day" else "day"
        assert [ruleset.phase_at(i) for i in range(5)] == [first, second, first, second, first]
        assert ruleset.talks("day") and not ruleset.talks("night")


def test_blood_names_its_phases_and_the_view_shows_them() -> None:
    ruleset = load_ruleset("blood")
    names = [ruleset.phase_at(i) for i in range(7)]
    assert names == ["day", "night", "dawn", "day", "sunset", "night", "dawn"]
    t = bl(["hunter", "hunter", "count", "vampire", "vampire", "vampire", "vampire"])
    assert (t.s.phase, t.s.phase_name) == ("night", "day")  # the intro day: roles woken in turn
    view = view_for(t.s, 4)
    assert (view["phase"], view["phase_name"]) == ("night", "day") and view["awake"] is False
    execute(t, 7)
    assert (t.s.phase, t.s.phase_name, t.s.step.night_step) == ("night", "day", "hunters")
    assert engine.queries.awake(t.s) == {1, 2} and engine.queries.speakers(t.s) == frozenset()
    t.until(lambda s: s.phase == "day")
    assert t.s.phase_name == "night" and engine.queries.speakers(t.s) == set(t.s.alive)
