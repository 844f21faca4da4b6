"""`/mafia check`: can the bot reach this player privately, and run a game here and in their voice
channel (every permission it lacks, by channel: `mafiabot.needs`)? Is its voice end-to-end encrypted
(with the privacy code players can compare with their client's)?"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot import needs
from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError, reply_ephemeral
from mafiabot.game.speaker import e2ee_status, format_privacy_code

try:  # discord.py speaks DAVE through davey; without it Discord refuses the bot's voice (close 4017)
    from davey import DAVE_PROTOCOL_VERSION
except ImportError:  # pragma: no cover - davey is a dependency; this is what the line reports
    DAVE_PROTOCOL_VERSION = 0

log = logging.getLogger(__name__)

DM_TEXT = "Проверка связи: личные сообщения работают. Во время игры сюда придёт ваша роль."


def permission_report(
    me: discord.Member,
    text: discord.abc.GuildChannel | None,
    voice: discord.abc.GuildChannel | None,
) -> list[str]:
    """One line per channel: ✅ when the bot has all it needs, ❌ with what blocks a game, ⚠️ notes."""
    found = needs.missing(me, text=text, voice=voice)
    lines = []
    places: tuple[tuple[needs.Place, discord.abc.GuildChannel | None], ...] = (
        ("text", text),
        ("voice", voice),
        ("threads", text),
    )
    for place, channel in places:
        if channel is None:
            continue
        blocking = [m for m in found if m.need.place == place and not m.need.optional]
        title = needs.PLACE_NAMES[place]
        where = f"{title} в {channel.mention}" if place == "threads" else f"{title} {channel.mention}"
        if blocking:
            only = blocking[0].need.presets
            suffix = f" (нужно для правил {', '.join(sorted(only))})" if only else ""
            lines.append(
                f"❌ {where[0].upper()}{where[1:]}: боту не хватает прав: "
                f"{needs.names(m.need.permission for m in blocking)}{suffix}."
            )
        else:
            lines.append(f"✅ {where[0].upper()}{where[1:]}: все нужные права есть.")
    lines += [f"⚠️ {note[0].upper()}{note[1:]}." for note in needs.optional_lines(found)]
    return lines


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
        guild = interaction.guild
        if not isinstance(member, discord.Member) or guild is None or guild.me is None:
            raise UserFacingError("Эта команда работает только на сервере.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = []
        try:
            await member.send(DM_TEXT)
        except discord.Forbidden:
            lines.append("❌ Не могу написать вам в личные сообщения: разрешите их в настройках сервера.")
        else:
            lines.append("✅ Личные сообщения: отправил вам проверочное сообщение.")
        text = interaction.channel if isinstance(interaction.channel, discord.TextChannel) else None
        voice = member.voice.channel if member.voice is not None else None
        if voice is None:
            lines.append("➖ Вы не в голосовом канале: зайдите в канал, где будет игра, и проверьте снова.")
        elif isinstance(voice, discord.StageChannel):
            lines.append(f"❌ {voice.mention}: {needs.STAGE_REFUSAL}")
            voice = None
        lines += permission_report(guild.me, text, voice)
        lines.append(voice_encryption_line(guild))
        log.info("Readiness checked: %s", "; ".join(lines))
        await reply_ephemeral(interaction, "\n".join(lines))


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ReadinessCog(bot))
