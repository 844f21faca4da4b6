"""The message catalogues (mafiabot/locales, mafiabot/i18n.py): every language has every key with the same
variables; plural forms follow each language's rules; every role and phase of every preset has a name in
both; and no module of the bot or the voice writes player-facing text inline (a few exempt, each for its
reason)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from mafiabot import i18n

REPO = Path(__file__).resolve().parents[2]

# Every module of the bot and of the voice writes its player-facing text in the catalogues: a Cyrillic string
# literal in one fails this test (docstrings, comments, a command's own text and what players type aside),
# except in these, each for its reason.
EXEMPT = {
    "audio/numbers.py": "the Russian voice's numbers in words and their grammatical forms: the voice's "
    "language data (phrases_en.py holds English's)",
    "audio/phrases.py": "the Russian phrase catalogue's grammar: the words its sentences are built with "
    "(«номер», «и») and the noun a count governs; the phrases themselves are data (audio/data)",
    "audio/names.py": "the pattern of a name the Russian voice can say (Cyrillic letters), no text",
    "mafiabot/offences.py": "the rulebook's offences: the conduct commands' choices as Discord shows them "
    "to Russian clients (every other reads commands.ftl's English) and the words a foul is stored in "
    "(said in the server's language wherever shown: stored_reason_shown)",
}


def _modules() -> list[Path]:
    return sorted(path for package in ("mafiabot", "audio") for path in (REPO / package).rglob("*.py"))


def test_every_language_has_every_key_with_the_same_variables() -> None:
    # The commands' English (commands.ftl) translates the cogs' own Russian text: it has no Russian twin;
    # nor has a role's English card (role-about-*: in Russian the card says the rulebook's words).
    own = ("cmd-", "choice-", "role-about-", "summary-", "variant-")
    catalogues = {
        language: {k: v for k, v in i18n.catalogue(language).items() if not k.startswith(own)}
        for language in i18n.LANGUAGES
    }
    reference = catalogues[i18n.DEFAULT]
    problems = []
    for language, messages in catalogues.items():
        for key in sorted(set(reference) - set(messages)):
            problems.append(f"{language} lacks {key}")
        for key in sorted(set(messages) - set(reference)):
            problems.append(f"{language} has {key}, which {i18n.DEFAULT} lacks")
        for key in sorted(set(reference) & set(messages)):
            if reference[key] != messages[key]:
                problems.append(
                    f"{language} {key} uses {sorted(messages[key])}, not {sorted(reference[key])}"
                )
    assert problems == []


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        (
            "ru",
            {1: "1 фол", 2: "2 фола", 4: "4 фола", 5: "5 фолов", 11: "11 фолов", 21: "21 фол", 22: "22 фола"},
        ),
        ("en", {1: "1 foul", 2: "2 fouls", 5: "5 fouls", 21: "21 fouls"}),
    ],
)
def test_plural_forms_follow_the_language(language: str, counts: dict[int, str]) -> None:
    assert {n: i18n.text(language, "seat-fouls", count=n) for n in counts} == counts


def test_every_role_and_phase_of_every_preset_has_a_name_in_each_language() -> None:
    missing = []
    for preset in engine.available_presets():
        rules = engine.load_ruleset(preset)
        keys = [f"role-{role}" for role in rules.roles] + [f"phase-{name}" for name in rules.phase_names]
        for language in i18n.LANGUAGES:
            missing += [f"{language} {preset} {key}" for key in keys if not i18n.has(language, key)]
    assert missing == []


def test_every_variant_has_english_and_no_code_reaches_a_player() -> None:
    missing, coded = [], []
    for preset in engine.available_presets():
        for name, description in engine.load_ruleset(preset).options.items():
            if not i18n.has("en", f"variant-{preset}-{name}"):
                missing.append(f"{preset}-{name}")
            for language in i18n.LANGUAGES:
                shown = i18n.variant_about(language, preset, name, description)
                if "D-" in shown or "особый момент" in shown:
                    coded.append(f"{language} {preset}-{name}: {shown}")
    assert (missing, coded) == ([], [])


def test_every_role_has_an_english_card() -> None:
    roles = {role for preset in engine.available_presets() for role in engine.load_ruleset(preset).roles}
    assert sorted(r for r in roles if not i18n.has("en", f"role-about-{r}")) == []


def test_a_missing_key_falls_back_to_russian_then_to_the_key() -> None:
    assert i18n.text("en", "control-pass") == "Pass" and i18n.text("ru", "control-pass") == "Пас"
    assert i18n.text("de", "control-pass") == "Пас"  # a language the bot does not speak: the default
    assert i18n.language_of("en-US") == "en" and i18n.language_of(None) == "ru"
    assert i18n.text("en", "no-such-key") == "no-such-key"


def _inline_russian(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Docstrings, an attribute's too: a string standing alone as a statement is never shown.
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    # A command's own Russian (its name, description, parameters) is the Translator's source text: the
    # English is in commands.ftl (tests/bot/test_command_localisations.py checks it).
    commands = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for outer in [*node.decorator_list, *getattr(node, "keywords", [])]
        for inner in ast.walk(outer)
    }
    # …and so is a command group's (``app_commands.Group(name=…, description="…")``).
    commands |= {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Group"
        for inner in ast.walk(node)
    }
    # …and a context menu's name (``locale_str("Мафия: профиль", key=…)``: its English is in commands.ftl).
    commands |= {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "locale_str"
        for inner in ast.walk(node)
    }
    # What players type (the judge's «3ч 5к») is input, not text shown: its line says so.
    lines = path.read_text(encoding="utf-8").splitlines()
    typed = {n + 1 for n, line in enumerate(lines) if "# i18n: what players type" in line}
    found = []
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
        if (
            id(node) not in docstrings
            and id(node) not in commands
            and getattr(node, "lineno", 0) not in typed
            and any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in text)
        ):
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value[:40]!r}")
    return found


def test_no_module_writes_player_facing_text_inline() -> None:
    found = [
        line
        for module in _modules()
        if str(module.relative_to(REPO)) not in EXEMPT
        for line in _inline_russian(module)
    ]
    assert found == [], "move these strings to mafiabot/locales: " + "; ".join(found)


def test_every_exemption_is_still_needed() -> None:
    """An exempt module that has lost its Russian (or is gone) leaves the list."""
    assert [
        module for module in EXEMPT if not (REPO / module).exists() or not _inline_russian(REPO / module)
    ] == []


def test_the_web_pages_templates_and_scripts_write_no_russian() -> None:
    """The pages' words come from the catalogues (``t("web-…")``), in the server's language."""
    web = REPO / "mafiabot" / "web"
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted([*(web / "templates").glob("*.html"), *(web / "static").glob("*")])
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in line)
    ]
    assert found == []


def test_a_season_the_bot_named_is_said_in_the_servers_language() -> None:
    """Stored with no name (or, stored earlier, as the Russian «Сезон 2»); a name moderators gave stays."""
    from types import SimpleNamespace

    own, earlier = SimpleNamespace(number=2, name=""), SimpleNamespace(number=2, name="Сезон 2")
    assert [i18n.season_name("en", s) for s in (own, earlier)] == ["Season 2", "Season 2"]
    assert [i18n.season_name("ru", s) for s in (own, earlier)] == ["Сезон 2", "Сезон 2"]
    assert i18n.season_name("en", SimpleNamespace(number=3, name="Весна")) == "Весна"


def test_no_message_names_a_decision_code() -> None:
    """The project's decision codes («D-FI8») are for the spec's readers, never for a player."""
    import re

    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted(i18n.LOCALES.glob("*/*.ftl"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if not line.lstrip().startswith("#") and re.search(r"\bD-[A-Z]+\d", line)
    ]
    assert found == []


def test_every_side_of_every_preset_is_named_in_the_records() -> None:
    """The game's card (/mafia game) and the web pages name a seat's side and the winners in words: the
    loner's «solo» and hobbyworld's «yakuza» were shown as their ids, in both languages. Both name them
    through `i18n.rating_side`."""
    sides = {
        role.side
        for preset in engine.available_presets()
        for role in engine.load_ruleset(preset).roles.values()
    }
    raw = [
        f"{language} {side}"
        for side in sorted(sides)
        for language in i18n.LANGUAGES
        if not i18n.has(language, f"rating-side-{side}")
        or i18n.rating_side(side, language) != i18n.text(language, f"rating-side-{side}")
    ]
    assert raw == []


def test_a_formatted_message_is_kept_by_its_arguments_and_their_types(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18: the panel formats the same dozen messages at every click; each is formatted once per
    language, key and arguments, and kept (a bounded store, emptied when full)."""
    first = i18n.text("ru", "seat-fouls", count=2)
    assert first == "2 фола" and i18n.text("ru", "seat-fouls", count=2) is first  # kept, not formatted again
    assert i18n.text("en", "seat-fouls", count=2) != first  # by language
    assert i18n.text("ru", "seat-fouls", count=5) != first  # by argument
    # 2 and 2.0 are one dictionary key, not one argument: Fluent reads a float otherwise.
    assert i18n.text("ru", "seat-fouls", count=2.0) == i18n._format("ru", "seat-fouls", {"count": 2.0})
    # An argument that cannot be a key is formatted each time, as before.
    assert i18n.text("ru", "panel-alive", seats=["1", "2"]) == i18n._format(
        "ru", "panel-alive", {"seats": ["1", "2"]}
    )
    monkeypatch.setattr(i18n, "FORMATTED_MAX", 3)
    for seat in range(10):
        assert i18n.text("ru", "seat-fouls", count=seat) == i18n._format("ru", "seat-fouls", {"count": seat})
        assert len(i18n._FORMATTED) <= 3
