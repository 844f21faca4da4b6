"""`/mafia help` and `/mafia rules`: what the bot does and which rulebooks it plays."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot, bind_interaction
from mafiabot.presets import PRESETS, PRESETS_BY_ID, PresetInfo
from mafiabot.views import MafiaView

HELP_TEXT = (
    "**Как начать игру**\n"
    "1. Зайдите в голосовой канал, где будете играть.\n"
    "2. Напишите `/mafia new` (правила и варианты подскажет сам Discord) — появится набор с кнопками.\n"
    "3. Игроки заходят в тот же голосовой канал и нажимают «Присоединиться».\n"
    "4. Открывший набор (или ведущий сервера) нажимает «Начать игру»: бот рассадит игроков и раздаст роли.\n"
    "Перед игрой откройте личные сообщения от участников сервера: туда придёт копия вашей роли "
    "(сама роль всегда видна по кнопке «Моя роль»).\n\n"
    "**Бот-ведущий игры «Мафия»**\n"
    "Бот ведёт партию в голосовом канале: раздаёт роли, объявляет фазы голосом, даёт слово по очереди, "
    "считает голоса и выключает микрофон тем, кому сейчас не говорить.\n\n"
    "**Команды**\n"
    "`/mafia new` — открыть набор в игру.\n"
    "`/mafia rules` — правила, по которым можно играть.\n"
    "`/mafia check` — проверить личные сообщения и права бота в ваших каналах.\n"
    "`/mafia rating`, `/mafia top`, `/mafia history` — рейтинг, таблица сезона, ваши игры "
    "(профиль игрока — и в меню участника: «Приложения → Мафия: профиль»).\n"
    "`/mafia stop`, `pause`, `resume`, `extend`, `skip`, `kick` — для ведущего игры.\n"
    "`/mafia-admin` — настройки сервера (роль ведущего, голос, таймеры, зрители, язык, тайм-аут набора, "
    "свои варианты правил файлом); "
    "видна тем, кто управляет сервером.\n"
    "`/mafia help` — эта справка."
)


def preset_text(info: PresetInfo) -> str:
    return f"**{info.title}** (`{info.id}`), {info.players}.\n{info.summary}"


class PresetRulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:rules:(?P<preset>[a-z]+)"
):
    """A button showing one rulebook's summary; its custom_id names the preset, so it outlives restarts."""

    def __init__(self, preset: str) -> None:
        info = PRESETS_BY_ID[preset]
        super().__init__(
            discord.ui.Button(
                label=info.title, style=discord.ButtonStyle.secondary, custom_id=f"mafia:rules:{preset}"
            )
        )
        self.preset = preset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PresetRulesButton:
        preset = match["preset"]
        if preset not in PRESETS_BY_ID:
            raise ValueError(f"unknown preset {preset!r}")
        return cls(preset)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bind_interaction(interaction)
        await interaction.response.send_message(preset_text(PRESETS_BY_ID[self.preset]), ephemeral=True)


def rules_view() -> MafiaView:
    view = MafiaView(timeout=None)
    for info in PRESETS:
        view.add_item(PresetRulesButton(info.id))
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
        await interaction.response.send_message(HELP_TEXT, ephemeral=True)

    @app_commands.command(name="rules", description="Правила, по которым бот умеет вести игру")
    @app_commands.describe(preset="Показать сразу эти правила")
    @app_commands.choices(preset=[app_commands.Choice(name=info.title, value=info.id) for info in PRESETS])
    async def rules(self, interaction: discord.Interaction[MafiaBot], preset: str | None = None) -> None:
        if preset is not None:
            await interaction.response.send_message(preset_text(PRESETS_BY_ID[preset]), ephemeral=True)
            return
        lines = [f"• **{info.title}** — {info.players}" for info in PRESETS]
        await interaction.response.send_message(
            "Выберите правила, чтобы узнать о них больше:\n" + "\n".join(lines),
            view=rules_view(),
            ephemeral=True,
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(HelpCog(bot))
