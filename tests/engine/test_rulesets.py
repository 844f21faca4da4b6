"""Rulesets are data: every bundled preset loads, and every mistake in a file is a clear error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from engine.errors import RulesetError
from engine.rules import available_presets, load_ruleset, role_catalogue, with_requirements

ROOT = Path(__file__).resolve().parents[2]
RULESETS_MD = ROOT / "docs" / "rules" / "RULESETS.md"


def test_every_bundled_preset_loads_with_every_option() -> None:
    """Red-DiscordBot style: load every bundled file and report all failures together."""
    failures = []
    for name in available_presets():
        try:
            base = load_ruleset(name)
            for option in base.options:
                load_ruleset(name, with_requirements(name, option))
        except RulesetError as exc:
            failures.append(str(exc))
    assert not failures
    assert {"classic", "simple"} <= set(available_presets())


@pytest.mark.parametrize("preset", ["classic", "simple", "city", "hobbyworld", "blood"])
def test_default_timers_are_the_decisions(preset: str) -> None:
    """D-G5: «single-role night step 30 s; group kill (mafia, yakuza, hunters) 60 s …; vote 30 s per
    ballot»."""
    rules = load_ruleset(preset)
    assert (rules.timer("night_step"), rules.timer("group_kill"), rules.timer("vote")) == (30, 60, 30)


def test_catalogue_holds_every_role_id_of_the_spec() -> None:
    text = RULESETS_MD.read_text(encoding="utf-8")
    section = text.split("## 3. Canonical role ids", 1)[1].split("### 3.1", 1)[0]
    ids = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M))
    assert len(ids) >= 50
    assert ids == set(role_catalogue())


HEAD = 'extends = "classic"\nid = "x"\ntitle = "x"\n'


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("body", "key", "message"),
    [
        ('extends = "classic"\nid = "x"\ntitle = "x"\n[timers\n', "", "malformed TOML"),
        ('extends = "classic"\nid = "x"\ntitle = "x"\ncolour = "red"\n', "colour", "unknown key"),
        ('extends = "classic"\nid = "x"\ntitle = "x"\n[roles.wizard]\n', "roles.wizard", "unknown role id"),
        (
            'extends = "classic"\nid = "x"\ntitle = "x"\n[roles.doctor]\n'
            'abilities = [{ kind = "teleport", step = "doctor" }]\n',
            "roles.doctor.abilities[0].kind",
            "unknown ability kind",
        ),
        ('extends = "classic"\nid = "x"\ntitle = "x"\n[timers]\nvote = "fast"\n', "timers.vote", "integer"),
        (
            HEAD + "[compositions]\n20 = { mafioso = 2, civilian = 4 }\n",
            "compositions.20",
            "add up to 6",
        ),
        (
            'extends = "classic"\nid = "x"\ntitle = "x"\n[voting]\nties = "coin"\n',
            "voting.ties",
            "unknown tie",
        ),
        (
            'extends = "classic"\nid = "x"\ntitle = "x"\n[day]\nnormal = ["dance"]\n',
            "day.normal[0]",
            "unknown day step",
        ),
        ('extends = "nowhere"\nid = "x"\ntitle = "x"\n', "", "no such preset"),
        (
            HEAD + '[teams.mafia]\nside = "mafia"\nkill_step = "lunch"\n',
            "teams.mafia.kill_step",
            "no night step",
        ),
        # Issue 3 part 5: every invalid override names the file and the key.
        (
            HEAD + "[compositions]\n7 = { wizard = 1, civilian = 6 }\n",
            "compositions.7.wizard",
            "not in this ruleset",
        ),
        (HEAD + '[teams.mafia]\nside = "pirates"\n', "teams.mafia.side", "unknown side"),
        (
            HEAD + '[roles.sheriff]\nabilities = [{ kind = "kill", step = "duel" }]\n',
            "roles.sheriff.abilities[0].step",
            "no night step",
        ),
        (
            HEAD + '[roles.sheriff]\nabilities = [{ kind = "kill" }]\n',
            "roles.sheriff.abilities[0].step",
            "missing",
        ),
        (
            HEAD + "[roles.immortal]\nnight_immune = 1\n",
            "roles.immortal.night_immune",
            "must be of type bool",
        ),
        (HEAD + '[roles.mafioso]\nteam = "gang"\n', "roles.mafioso.team", "unknown team"),
        (HEAD + "[reveal]\non_lynch = false\n", "reveal.on_lynch", "unknown key"),
        (HEAD + '[voting]\nabstain = "maybe"\n', "voting.abstain", "must be allowed or last_candidate"),
        (HEAD + 'win_check = "coin"\n', "win_check", "unknown win check"),
        (
            HEAD + '[[night.intro]]\nid = "x"\nrole = "mafioso"\nkind = "meet"\nshows = "pirates"\n',
            "night.intro[0].shows",
            "known team",
        ),
        (HEAD + 'extends = "classic"\n', "", "malformed TOML"),
        (HEAD + '[teams.mafia]\nside = "mafia"\nchat = "yes"\n', "teams.mafia.chat", "must be of type bool"),
        (
            HEAD + 'cycle = ["night", "day", "dusk"]\n'
            '[phase_kinds]\nnight = "steps"\nday = "talk"\ndusk = "talk"\n',
            "phase_names.dusk",
            "Russian name",
        ),
    ],
)
def test_invalid_files_name_the_file_and_the_key(tmp_path: Path, body: str, key: str, message: str) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert message in str(info.value)
    assert info.value.key == key or key == ""
    assert "variant.toml" in str(info.value) or "nowhere" in str(info.value)


@pytest.mark.parametrize(
    ("option", "key", "message"),
    [
        (
            '[options.fast]\ndescription = "x"\npatch = { timers = { vote = "soon" } }\n',
            "options.fast.patch.timers.vote",
            "integer",
        ),
        (
            '[options.fast]\ndescription = "x"\npatch = { voting = { speed = 2 } }\n',
            "options.fast.patch.voting.speed",
            "unknown key",
        ),
        (
            '[options.fast]\ndescription = "x"\npatch = { day = 3 }\n',
            "options.fast.patch.day",
            "must be a table",
        ),
        (
            '[options.fast]\ndescription = "x"\nadd_extras = ["wizard"]\n',
            "options.fast.add_extras[0]",
            "not in this ruleset",
        ),
        ("[options.fast]\npatch = {}\n", "options.fast.description", "missing required key"),
    ],
)
def test_an_option_patch_that_breaks_the_schema_names_the_option(
    tmp_path: Path, option: str, key: str, message: str
) -> None:
    """Issue 3 part 5: «a clear error for every invalid override» — an option of a server's file is
    checked at its own key when it is selected."""
    path = _write(tmp_path, HEAD + option)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path, ["fast"])
    assert info.value.key == key and message in str(info.value) and "variant.toml" in str(info.value)


def test_the_documented_example_loads_with_every_option_of_its_base() -> None:
    """The example file extends `classic`, so the classic variants are its options too."""
    path = str(ROOT / "examples" / "club-variant.toml")
    for option in load_ruleset("classic").options:
        load_ruleset(path, with_requirements(path, option))
    judges = load_ruleset(path, ["judges", "golden_minute"])
    assert judges.timer("discussion") == 180 and judges.params["golden_minute"]
    deck = engine.composition(load_ruleset(path, ["whole_deck"]), 10)  # the club's own deck (D-CL16)
    assert deck == {"mafioso": 4, "commissar": 1, "doctor": 1, "maniac": 1, "civilian": 8}


def test_options_that_need_or_rule_out_each_other() -> None:
    """002, the judges' game: sub-variants 1 and 3 are variants *of* it, and in variant 1 «комиссар,
    адвокат и ниндзя не участвуют в игре». The message is for the player who picks the variants."""
    with pytest.raises(RulesetError) as needs:
        load_ruleset("classic", ["judges_checks_excluded"])
    assert needs.value.key == "options.judges_checks_excluded"
    assert "играется только вместе с «Игра с судьями" in needs.value.message
    with pytest.raises(RulesetError) as clash:
        load_ruleset("classic", ["judges", "judges_checks_excluded", "lawyer"])
    assert "нельзя сочетать с «Адвокат, подкупленный мафией" in clash.value.message
    with pytest.raises(RulesetError, match="нельзя сочетать"):
        load_ruleset("classic", ["judges", "judges_checks_allowed", "judges_checks_excluded"])
    variant_one = load_ruleset("classic", ["judges", "judges_checks_excluded"])
    assert "commissar" not in engine.composition(variant_one, 10)
    assert with_requirements("classic", "judges_checks_allowed") == ("judges", "judges_checks_allowed")
    assert with_requirements("classic", "golden_minute") == ("golden_minute",)


@pytest.mark.parametrize("field", ["requires", "excludes"])
def test_an_option_naming_an_unknown_option_is_an_error(tmp_path: Path, field: str) -> None:
    body = f'[options.fast]\ndescription = "x"\n{field} = ["slow"]\n'
    path = _write(tmp_path, HEAD + body)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert info.value.key == f"options.fast.{field}[0]" and "slow" in info.value.message


def test_unknown_option_is_an_error() -> None:
    with pytest.raises(RulesetError, match=r"options\.golden"):
        load_ruleset("classic", ["golden"])


def test_a_variant_extends_a_preset_and_overrides_keys() -> None:
    variant = load_ruleset(str(ROOT / "examples" / "club-variant.toml"))
    base = load_ruleset("classic")
    assert variant.id == "classic-club"
    assert variant.timer("discussion") == 180 and base.timer("discussion") == 300
    assert variant.timer("night_step") == base.timer("night_step")  # inherited
    assert variant.voting.self_vote is False and base.voting.self_vote is True
    assert variant.roles["doctor"].abilities[0].self_target == "never"
    assert 6 in variant.compositions and 7 in variant.compositions


def test_variant_changes_play(tmp_path: Path) -> None:
    """The variant forbids self-votes: the engine refuses one."""
    variant = load_ruleset(str(ROOT / "examples" / "club-variant.toml"))
    roles = ["mafioso", "commissar", "civilian", "civilian", "civilian", "civilian"]
    state, _ = engine.new_game(variant, roles, 1)
    while state.step.kind != "nominations":
        state, _ = engine.apply(state, engine.Advance())
    with pytest.raises(engine.IllegalCommand, match="себя"):
        engine.apply(state, engine.Nominate(seat=2, target=2))
    state, _ = engine.apply(state, engine.Nominate(seat=2, target=1))
    while state.step.kind != "vote":
        state, _ = engine.apply(state, engine.Advance())
    with pytest.raises(engine.IllegalCommand, match="себя"):
        engine.apply(state, engine.Vote(seat=1, candidate=1))


def test_options_change_the_composition() -> None:
    base = load_ruleset("classic")
    assert engine.composition(base, 10) == {"mafioso": 3, "commissar": 1, "civilian": 6}
    extra = load_ruleset("classic", ["maniac", "doctor", "yakuza"])
    assert engine.composition(extra, 12) == {
        "mafioso": 2,
        "yakuza": 2,
        "commissar": 1,
        "civilian": 5,
        "maniac": 1,
        "doctor": 1,
    }
    with pytest.raises(engine.IllegalCommand):
        engine.composition(base, 5)


def test_what_the_bot_shows_of_a_preset_is_in_its_file() -> None:
    """Issue 11 item 3: the summary, the phase names and the team chat are preset data."""
    for name in available_presets():
        rules = load_ruleset(name)
        assert rules.summary and rules.title
        assert set(rules.intro_phases) | set(rules.loop_phases) <= set(rules.phase_names)
    blood = load_ruleset("blood").phase_names
    assert [blood[p] for p in ("night", "dawn", "day", "sunset")] == ["Ночь", "Рассвет", "День", "Закат"]
    chats = {
        name: [t for t, team in load_ruleset(name).teams.items() if team.chat] for name in available_presets()
    }
    want = {"blood": [], "city": ["mafia"], "classic": [], "fiim": ["mafia"], "hobbyworld": [], "simple": []}
    assert chats == want


def test_a_variant_behaves_like_its_parent(tmp_path: Path) -> None:
    """A server's variant of city keeps city's mafia chat, summary and phase names (it used to lose the
    chat, which was switched on the preset id)."""
    path = _write(tmp_path, 'extends = "city"\nid = "club"\ntitle = "Клубная"\n[timers]\nspeech = 45\n')
    variant, city = load_ruleset(path), load_ruleset("city")
    assert variant.id == "club" and variant.teams["mafia"].chat
    assert (variant.summary, variant.phase_names) == (city.summary, city.phase_names)


def test_a_preset_text_parsed_once_is_handed_out_as_a_copy_of_its_own() -> None:
    from engine.rules import loader

    text = '[roles.don]\nside = "mafia"\nlist = [1, 2]\n'
    first = loader._read_toml(text, "a.toml")
    first["roles"]["don"]["list"].append(3)
    first["extra"] = True
    assert loader._read_toml(text, "a.toml") == {"roles": {"don": {"side": "mafia", "list": [1, 2]}}}
    with pytest.raises(RulesetError, match="malformed TOML"):
        loader._read_toml("[roles", "b.toml")
