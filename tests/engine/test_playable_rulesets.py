"""Issue 15 (3): «Rulesets that cannot be played load anyway: negative or zero timers, a composition
without any mafia, an unknown role in `params.deck`». Each is refused when the file is loaded, with the
file and the key named (RULESETS.md 2: «Every problem is a RulesetError naming the file and the key»)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.errors import RulesetError

HEAD = 'extends = "classic"\nid = "x"\ntitle = "x"\n'


def _refused(tmp_path: Path, body: str) -> RulesetError:
    path = tmp_path / "variant.toml"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(path))
    assert "variant.toml" in str(info.value)
    return info.value


@pytest.mark.parametrize(
    ("timer", "seconds"), [("vote", 0), ("speech", -5), ("night_step", 0), ("farewell", -1)]
)
def test_a_timer_of_no_time_is_refused(tmp_path: Path, timer: str, seconds: int) -> None:
    """D-G5: «Default timers (all configurable)» — configurable, but a ballot, a speech or a night step
    of 0 or fewer seconds cannot be played; only the farewell may be 0 (D-H21: no last words)."""
    error = _refused(tmp_path, f"[timers]\n{timer} = {seconds}\n")
    assert error.key == f"timers.{timer}"
    assert str(seconds) in error.message


def test_a_farewell_of_zero_seconds_leaves_the_last_words_out(tmp_path: Path) -> None:
    """D-H21 «no last words» is written ``farewell = 0`` (hobbyworld, blood, classic): still loads."""
    path = tmp_path / "variant.toml"
    path.write_text(HEAD + "[timers]\nfarewell = 0\n", encoding="utf-8")
    assert load_ruleset(str(path)).timer("farewell") == 0


def test_a_table_without_mafia_is_refused(tmp_path: Path) -> None:
    """002: «Если убили всю мафию, в том числе и «судью-мафия», то победили «честные»» — a table dealt
    without any mafia has been won by the town before it starts."""
    error = _refused(tmp_path, "[compositions]\n7 = { mafioso = 0, commissar = 1, civilian = 6 }\n")
    assert error.key == "compositions.7"
    assert "no mafia" in error.message and "mafia" in error.message


def test_blood_s_hunters_count_as_its_mafia(tmp_path: Path) -> None:
    """RULESETS.md 2: `hunters` are «The `mafia` of Blood Vengeance (strike by day)»; a blood table
    without hunters is refused the same way."""
    path = tmp_path / "variant.toml"
    path.write_text(
        'extends = "blood"\nid = "x"\ntitle = "x"\n'
        "[compositions]\n6 = { count = 1, vampire = 5, hunter = 0 }\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(path))
    assert info.value.key == "compositions.6" and "hunters" in info.value.message


@pytest.mark.parametrize(
    ("deck", "key"),
    [
        ('["mafioso", "wizard", "civilian"]', "params.deck[1]"),
        ("{ mafioso = 2, wizard = 1 }", "params.deck.wizard"),
        ('"mafioso"', "params.deck"),
    ],
)
def test_a_deck_with_an_unknown_role_is_refused(tmp_path: Path, deck: str, key: str) -> None:
    """D-CL16: «The seed gives no deck; the server configures one» — a card the ruleset has no role for
    is refused at load, not when the deck is dealt."""
    error = _refused(tmp_path, f"[params]\ndeck = {deck}\n")
    assert error.key == key


def test_every_bundled_preset_and_the_example_are_playable() -> None:
    """The checks refuse nothing the project ships (every option is loaded in test_rulesets)."""
    for name in ("classic", "simple", "hobbyworld", "city", "blood", "examples/club-variant.toml"):
        load_ruleset(name)
