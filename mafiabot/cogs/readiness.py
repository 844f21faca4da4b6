"""`/mafia check`: can the bot reach this player privately, run a game in their voice channel, and is
its voice end-to-end encrypted (with the privacy code players can compare with their client's)?"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError, permission_names, reply_ephemeral
from mafiabot.game.speaker import e2ee_status, format_privacy_code

try:  # discord.py speaks DAVE through davey; without it Discord refuses the bot's voice (close 4017)
    from davey import DAVE_PROTOCOL_VERSION
except ImportError:  # pragma: no cover - davey is a dependency; this is what the line reports
    DAVE_PROTOCOL_VERSION = 0

log = logging.getLogger(__name__)

DM_TEXT = "Проверка связи: личные сообщения работают. Во время игры сюда придёт ваша роль."
# What hosting a game in a voice channel needs: join, speak, mute the eliminated, move players.
VOICE_PERMISSIONS = ("connect", "speak", "mute_members", "move_members")


def missing_voice_permissions(
    channel: discord.VoiceChannel | discord.StageChannel, me: discord.Member
) -> list[str]:
    granted = channel.permissions_for(me)
    return [name for name in VOICE_PERMISSIONS if not getattr(granted, name)]


def voice_encryption_line(guild: discord.Guild) -> str:
    voice = guild.voice_client
    if isinstance(voice, discord.VoiceClient) and voice.is_connected():
        encrypted, code = e2ee_status(voice)
        where = voice.channel.mention
        if encrypted and code is not None:
            return (
                f"🔒 Голос в {where} защищён сквозным шифрованием (DAVE). Код приватности: "
                f"{format_privacy_code(code)} — он должен совпасть с кодом в вашем Discord."
            )
        return f"⚠️ Голос в {where} пока не защищён сквозным шифрованием: ключи ещё согласуются."
    if DAVE_PROTOCOL_VERSION < 1:
        return "❌ Бот не умеет сквозное шифрование голоса (DAVE): Discord не пустит его в голосовой канал."
    return "➖ Бот сейчас не в голосовом канале; голос игры будет защищён сквозным шифрованием (DAVE)."


class ReadinessCog(commands.Cog):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @app_commands.command(name="check", description="Проверить, что бот может вести игру с вами")
    async def check(self, interaction: discord.Interaction[MafiaBot]) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or interaction.guild is None:
            raise UserFacingError("Эта команда работает только на сервере.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = []
        try:
            await member.send(DM_TEXT)
        except discord.Forbidden:
            lines.append("❌ Не могу написать вам в личные сообщения: разрешите их в настройках сервера.")
        else:
            lines.append("✅ Личные сообщения: отправил вам проверочное сообщение.")
        voice = member.voice
        if voice is None or voice.channel is None:
            lines.append("➖ Вы не в голосовом канале: зайдите в канал, где будет игра, и проверьте снова.")
        else:
            missing = missing_voice_permissions(voice.channel, interaction.guild.me)
            if missing:
                lines.append(
                    f"❌ В канале {voice.channel.mention} боту не хватает прав: {permission_names(missing)}."
                )
            else:
                lines.append(f"✅ Канал {voice.channel.mention}: бот может вести здесь игру.")
        lines.append(voice_encryption_line(interaction.guild))
        log.info("Readiness checked: %s", "; ".join(lines))
        await reply_ephemeral(interaction, "\n".join(lines))


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ReadinessCog(bot))
