"""The engine's refusals as players read them (mafiabot/errors.py): by the refusal's message id and
arguments in the server's language, never its Russian sentence on an English server; one without an id
by its kind; every id the engine names is in both catalogues."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine
from engine.commands import Pass, Vote
from mafiabot import i18n
from mafiabot.errors import UserFacingError, engine_refusal, refusal

REPO = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _refused(command: engine.Command) -> engine.IllegalCommand:
    rules = engine.load_ruleset("classic")
    state, _ = engine.new_game(rules, engine.deal(rules, 7, 1), 1)
    with pytest.raises(engine.IllegalCommand) as caught:
        engine.apply(state, command)
    return caught.value


def test_a_refusal_is_said_by_its_id_in_the_servers_language() -> None:
    error = _refused(Vote(seat=2, candidate=3))  # the first day opens with speeches, not a vote
    assert error.key == "no-vote-now"
    assert refusal(error, "en") == "There is no vote now."
    assert refusal(error, "ru") == "Сейчас нет голосования."


def test_a_refusal_names_its_seat() -> None:
    rules = engine.load_ruleset("classic")
    state, _ = engine.new_game(rules, engine.deal(rules, 7, 1), 1)
    speaker = state.step.seat
    other = next(x for x in range(1, 8) if x != speaker)
    error = _refused(Pass(seat=other))
    assert refusal(error, "en") == f"Player {speaker} is speaking now."


def test_a_refusal_without_an_id_is_said_by_its_kind_in_english() -> None:
    error = engine.errors.IllegalTarget("Нельзя.")
    assert refusal(error, "en") == "You cannot choose this player." and refusal(error, "ru") == "Нельзя."
    assert (
        refusal(UserFacingError("lobby-full", count=12), "en")
        == "No seats left: these rules are for 12 players at most."
    )


def test_every_id_the_engine_names_is_in_both_catalogues() -> None:
    keys = set()
    for path in (REPO / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "key" and isinstance(kw.value, ast.Constant):
                        keys.add(str(kw.value.value))
                    elif kw.arg == "key" and isinstance(kw.value, ast.IfExp):  # one id or another
                        keys |= {
                            str(c.value)
                            for c in (kw.value.body, kw.value.orelse)
                            if isinstance(c, ast.Constant)
                        }
    assert keys, "the engine names its refusals"
    for language in i18n.LANGUAGES:
        assert sorted(k for k in keys if not i18n.has(language, f"illegal-{k}")) == [], language
    assert not any(
        CYRILLIC.search(i18n.text("en", f"illegal-{k}", seat=1, candidate=2, count=2)) for k in keys
    )


def test_every_foul_and_removal_reason_has_english() -> None:
    from mafiabot.offences import (
        AUTO_REASONS,
        FOUL_REASONS,
        PENALTY_REASONS,
        REMOVAL_REASONS,
        reason_shown,
    )

    missing = [
        reason
        for table in (FOUL_REASONS, AUTO_REASONS, REMOVAL_REASONS, PENALTY_REASONS)
        for reason, label in table.items()
        if CYRILLIC.search(reason_shown("en", reason, label))
    ]
    assert missing == []
    assert reason_shown("ru", "swearing", FOUL_REASONS["swearing"]) == "Маты"


_REFUSALS = {
    "IllegalCommand",
    "WrongPhase",
    "NotYourTurn",
    "DeadPlayer",
    "IllegalTarget",
    "AlreadyActed",
    "GameOver",
}


def _refusal_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in sorted((REPO / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = (
                    node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                )
                if name in _REFUSALS:
                    calls.append((f"{path.relative_to(REPO)}:{node.lineno}", node))
    return calls


def test_every_engine_refusal_names_a_message_id() -> None:
    """A refusal with only its Russian sentence would reach an English server as its kind's vague words."""
    assert [
        where
        for where, call in _refusal_calls()
        if call.args and not any(k.arg == "key" for k in call.keywords)
    ] == []


def test_every_refusal_passes_what_its_messages_name() -> None:
    """Each message's variables are among the arguments its refusal passes, in both languages (a missing
    one would be said as «{$seat}»)."""
    catalogues = {language: i18n.catalogue(language) for language in i18n.LANGUAGES}
    problems = []
    for where, call in _refusal_calls():
        for kw in call.keywords:
            if kw.arg != "key":
                continue
            keys = [kw.value] if not isinstance(kw.value, ast.IfExp) else [kw.value.body, kw.value.orelse]
            passed = {k.arg for k in call.keywords if k.arg not in ("key", None)}
            for node in keys:
                assert isinstance(node, ast.Constant), where
                for language, messages in catalogues.items():
                    wanted = messages.get(f"illegal-{node.value}")
                    if wanted is None:
                        problems.append(f"{where}: {language} lacks illegal-{node.value}")
                    elif not wanted <= passed:
                        problems.append(
                            f"{where}: {language} illegal-{node.value} names {sorted(wanted - passed)}"
                        )
    assert problems == []


def _deck_refusals() -> list[engine.IllegalCommand]:
    """The refusals of choosing a table's roles (hobbyworld's and blood's pickers, a preset's table):
    what a lobby's variants or a server's own rules file can run into."""
    from engine.kinds import blood, hobbyworld_deck

    hw, bl = engine.load_ruleset("hobbyworld"), engine.load_ruleset("blood")
    bad = [
        lambda: engine.composition(hw, 5),
        lambda: engine.composition(engine.load_ruleset("classic"), 3),
        lambda: hobbyworld_deck.pick_composition(hw, 10, leader="doctor"),
        lambda: hobbyworld_deck.pick_composition(hw, 10, loner="doctor"),
        lambda: hobbyworld_deck.pick_composition(hw, 10, special_civilians=2),
        lambda: hobbyworld_deck.pick_composition(hw, 10, special_civilians=["doctor", "doctor"]),
        lambda: hobbyworld_deck.pick_composition(hw, 12, special_mafiosi=["doctor"]),
        lambda: hobbyworld_deck.pick_composition(hw, 16, special_mafiosi=5),
        lambda: blood.pick_composition(bl, 10, lord="dampir"),
        lambda: blood.pick_composition(bl, 10, werewolf="count"),
        lambda: blood.pick_composition(bl, 12, special_vampires=["ghoul", "ghoul"]),
        lambda: blood.pick_composition(bl, 12, special_hunters=["dampir"]),
    ]
    found = []
    for choice in bad:
        with pytest.raises(engine.IllegalCommand) as caught:
            choice()
        found.append(caught.value)
    return found


def test_a_deck_refusal_names_roles_and_columns_in_words_without_codes() -> None:
    """Issue 16: «Each «особый мирный житель» role is in a game only once (D-H3)» on an English server;
    ««doctor» is not a leader»; «The rules «classic» are for …». Roles and columns of special roles are
    named in the server's language, and no decision code or id reaches either language."""
    refusals = _deck_refusals()
    assert {e.key for e in refusals} >= {
        "hobbyworld-players",
        "players-for-rules",
        "not-leader",
        "not-loner",
        "deck-role-count",
        "deck-unique-role",
        "deck-not-kind",
        "deck-lacks-roles",
        "not-vampire-lord",
        "not-werewolf",
    }
    ids = {
        role for preset in ("hobbyworld", "blood", "classic") for role in engine.load_ruleset(preset).roles
    }
    problems = []
    for error in refusals:
        english, russian = engine_refusal(error, "en"), engine_refusal(error, "ru")
        if CYRILLIC.search(english) or re.search("[A-Za-z]", russian):
            problems.append(f"{error.key}: {english} / {russian}")
        for said in (english, russian):
            if "D-" in said or "_" in said or any(f"«{role}»" in said for role in ids | {"classic"}):
                problems.append(f"{error.key}: {said}")
    assert problems == []
    assert (
        engine_refusal(refusals[2], "en")
        == "«Doctor» is not a leader. There can be only one leader in a game."
    )
    assert (
        engine_refusal(refusals[5], "ru") == "Каждая роль «особый мирный житель» бывает в игре только одна."
    )


def test_a_protocol_of_a_game_not_over_is_refused_in_the_servers_language() -> None:
    """mafiabot/game/protocol.py refuses by a message id too (it had only its Russian sentence)."""
    from engine.simulate import play_random_game
    from mafiabot.game import protocol

    game = play_random_game(engine.load_ruleset("fiim"), 10, 3)
    record = {
        "ruleset": "fiim",
        "options": {},
        "seed": 3,
        "seats": list(game.roles),
        "players": [{"seat": i, "user_id": str(1000 + i), "name": f"p{i}"} for i in range(1, 11)],
        "commands": [c.to_json() for c in game.commands[: len(game.commands) // 2]],
    }
    with pytest.raises(engine.IllegalCommand) as caught:
        protocol.build(record)
    assert refusal(caught.value, "en") == "A protocol is signed only once the game is over."
    assert refusal(caught.value, "ru") == "Протокол подписывается только после окончания игры."
