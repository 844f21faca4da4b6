"""`/mafia help` and `/mafia rules`: what the bot does and which rulebooks it plays."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot, bind_interaction
from mafiabot.errors import language_of
from mafiabot.i18n import DEFAULT, text
from mafiabot.presets import PRESETS, PRESETS_BY_ID, PresetInfo, info_in
from mafiabot.views import MafiaView

HELP_TEXT = text(DEFAULT, "help-text")  # (``help-text`` in the catalogues; the Russian here for tests)


def preset_text(info: PresetInfo, language: str = DEFAULT) -> str:
    info = info_in(info, language)
    return text(
        language, "rules-preset", title=info.title, id=info.id, players=info.players, summary=info.summary
    )


class PresetRulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:rules:(?P<preset>[a-z]+)"
):
    """A button showing one rulebook's summary; its custom_id names the preset, so it outlives restarts."""

    def __init__(self, preset: str, language: str = DEFAULT) -> None:
        info = PRESETS_BY_ID.get(preset)
        super().__init__(
            discord.ui.Button(
                label=info_in(info, language).title if info else preset,  # (in the answer's language)
                style=discord.ButtonStyle.secondary,
                custom_id=f"mafia:rules:{preset}",
            )
        )
        self.preset = preset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PresetRulesButton:
        return cls(match["preset"])  # an unknown preset (a forged or an old id) is answered by the callback

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bind_interaction(interaction)
        language = language_of(interaction)
        info = PRESETS_BY_ID.get(self.preset)
        shown = preset_text(info, language) if info else text(language, "table-damaged-button")
        await interaction.response.send_message(shown, ephemeral=True)


def rules_view(language: str = DEFAULT) -> MafiaView:
    view = MafiaView(timeout=None)
    for info in PRESETS:
        view.add_item(PresetRulesButton(info.id, language))
    return view


class HelpCog(commands.Cog):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PresetRulesButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PresetRulesButton)

    @app_commands.command(name="help", description="Что умеет бот-ведущий и как начать игру")
    async def help(self, interaction: discord.Interaction[MafiaBot]) -> None:
        await interaction.response.send_message(text(language_of(interaction), "help-text"), ephemeral=True)

    @app_commands.command(name="rules", description="Правила, по которым бот умеет вести игру")
    @app_commands.describe(preset="Показать сразу эти правила")
    @app_commands.choices(preset=[app_commands.Choice(name=info.title, value=info.id) for info in PRESETS])
    async def rules(self, interaction: discord.Interaction[MafiaBot], preset: str | None = None) -> None:
        language = language_of(interaction)
        if preset is not None:
            await interaction.response.send_message(
                preset_text(PRESETS_BY_ID[preset], language), ephemeral=True
            )
            return
        shown = [info_in(info, language) for info in PRESETS]
        lines = [text(language, "rules-line", title=info.title, players=info.players) for info in shown]
        await interaction.response.send_message(
            text(language, "rules-choose") + "\n" + "\n".join(lines),
            view=rules_view(language),
            ephemeral=True,
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(HelpCog(bot))
