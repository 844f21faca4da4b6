"""`/mafia voice`: the host's voice on this server — on or off, and its volume."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError


class VoiceSettingsCog(commands.Cog, name="VoiceSettings"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="voice", description="Голос ведущего на сервере: включить/выключить, громкость"
    )
    @app_commands.describe(enabled="Говорить ли ведущему в голосовом канале", volume="Громкость, % (10–200)")
    @app_commands.default_permissions(manage_guild=True)
    async def voice(
        self,
        interaction: discord.Interaction[MafiaBot],
        enabled: bool | None = None,
        volume: app_commands.Range[int, 10, 200] | None = None,
    ) -> None:
        member = interaction.user
        if interaction.guild is None or not isinstance(member, discord.Member):
            raise UserFacingError("Эта команда работает только на сервере.")
        if not interaction.permissions.manage_guild:
            raise UserFacingError("Настраивать голос ведущего может только тот, кто управляет сервером.")
        storage = self.bot.games.storage
        if storage is None:
            raise UserFacingError("База данных недоступна: настройки не сохранить.")
        changes: dict[str, object] = {}
        if enabled is not None:
            changes["audio_enabled"] = enabled
        if volume is not None:
            changes["volume"] = volume / 100
        guild_id = interaction.guild.id
        if changes:
            settings = await asyncio.to_thread(storage.update_guild_settings, guild_id, **changes)
        else:
            settings = await asyncio.to_thread(storage.guild_settings, guild_id)
        state = "говорит" if settings.audio_enabled else "молчит (только текст)"
        loudness = round(settings.volume * 100)
        await interaction.response.send_message(
            f"Ведущий {state}; громкость {loudness} %. Изменения действуют со следующей игры.", ephemeral=True
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(VoiceSettingsCog(bot))
