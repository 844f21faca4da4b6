"""`/mafia` in the players' language: an ``app_commands.Translator`` that gives Discord the English text of
every command, parameter and choice from the catalogue (mafiabot/locales/en/commands.ftl).

The commands' own text (in the cogs) is Russian and is what Discord shows by default and to Russian
clients; every other client language gets the English. A key is derived from where the text is, so a
cog needs no key of its own: ``cmd-mafia-new`` (a command's description), ``cmd-mafia-new--ruleset`` (a
parameter's), ``choice-classic`` (a choice's name, by its value); a context menu's name, which is no id,
names its key (``locale_str("Мафия: профиль", key="cmd-menu-profile")``).
tests/bot/test_command_localisations.py fails when a command, parameter, choice or context menu has no
English.

Why the source text stays Russian when a bot's `[game] language` is English: Discord's localisations go by
each member's client language, not by the server, and every client language but Russian and Ukrainian
gets the English here; the source text is what only those clients read (Discord has no per-server text for
a global command), so a Russian-reading member sees the commands in his own language on any server, and
the answers follow the server's language.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from mafiabot.i18n import has, text

ENGLISH = "en"
_RUSSIAN_CLIENTS = {discord.Locale.russian, discord.Locale.ukrainian}  # read the Russian default


def key_for(context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalogue key of a piece of a command, or None for what stays as written (the names)."""
    where, data = context.location, context.data
    location = app_commands.TranslationContextLocation
    if where in (location.command_description, location.group_description):
        return "cmd-" + str(data.qualified_name).replace(" ", "-")
    if where is location.parameter_description:
        return "cmd-" + str(data.command.qualified_name).replace(" ", "-") + "--" + str(data.name)
    if where is location.choice_name:
        return f"choice-{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        if locale in _RUSSIAN_CLIENTS:
            return None
        key = string.extras.get("key") or key_for(context)  # a context menu's name names its key
        if key is None or not has(ENGLISH, key):
            return None
        return text(ENGLISH, key)
