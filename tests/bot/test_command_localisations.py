"""`/mafia` in English for every client that does not read Russian (mafiabot/commands_i18n.py): every
command, parameter and choice reaches Discord with its English localisation, and the stand-in refuses
localisations Discord would (an unknown locale, a description past 100 characters)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.checks import InvalidForm, check_command

from mafiabot.bot import MafiaBot


def _walk(command: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any], str]]:
    """(where, object, the key whose localisations to check) for each command, option and choice."""
    here = f"{path} {command['name']}".strip()
    found = [(here, command, "description")]
    for option in command.get("options") or []:
        found += _walk(option, here)
    for choice in command.get("choices") or []:
        found.append((f"{here}={choice['value']}", choice, "name"))
    return found


async def test_every_command_parameter_and_choice_has_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    missing = []
    chat = [c for c in fake.commands[None] if c.get("type", 1) == 1]  # context menus have no description
    assert {c["name"] for c in chat} >= {"mafia"}
    for where, item, key in [found for command in chat for found in _walk(command)]:
        localised = item.get(f"{key}_localizations") or {}
        english = localised.get("en-US")
        if not english or localised.get("en-GB") != english or localised.get("de") != english:
            missing.append(where)
        assert "ru" not in localised, where  # Russian clients read the commands' own text
        assert not any("а" <= ch.lower() <= "я" for ch in english or ""), (where, english)
    assert missing == [], "add them to mafiabot/locales/en/commands.ftl: " + ", ".join(missing)


async def test_every_client_language_but_russian_reads_english_even_a_context_menu(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Discord shows a command's own text only to a client whose language has no localisation: here the
    Russian and Ukrainian ones. Every other reads English, the members' context menu's name too (it had
    none: «Мафия: профиль» for everyone)."""
    russian = {"ru", "uk"}
    others = {locale.value for locale in discord.Locale} - russian
    [menu] = [c for c in fake.commands[None] if c.get("type") == 2]
    assert menu["name"] == "Мафия: профиль"
    names = menu.get("name_localizations") or {}
    assert {names.get(locale) for locale in others} == {"Mafia: profile"} and not russian & set(names)
    [mafia] = [c for c in fake.commands[None] if c["name"] == "mafia"]
    for where, item, key in _walk(mafia):
        localised = item.get(f"{key}_localizations") or {}
        assert set(localised) == others, where


@pytest.mark.parametrize(
    "command",
    [
        {"name": "mafia", "description": "x", "description_localizations": {"xx": "y"}},
        {"name": "mafia", "description": "x", "description_localizations": {"en-US": "y" * 101}},
        {"name": "mafia", "description": ""},
        {"name": "m" * 33, "description": "x"},
        {
            "name": "mafia",
            "description": "x",
            "options": [{"name": "o", "description": "d", "choices": [{"name": ""}]}],
        },
    ],
)
def test_the_stand_in_refuses_what_discord_refuses(command: dict[str, Any]) -> None:
    with pytest.raises(InvalidForm):
        check_command(command)
