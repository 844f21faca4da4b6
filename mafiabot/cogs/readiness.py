"""`/mafia check`: can the bot reach this player privately, and run a game here and in their voice
channel (every permission it lacks, by channel: `mafiabot.needs`)? Is its voice end-to-end encrypted
(with the privacy code players can compare with their client's)? How many helper bots are ready to mute
there, and how many a table needs to change every mute in under a second (mafiabot/game/crew.py)?"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot import needs
from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError, reply_ephemeral
from mafiabot.game.crew import BUCKET, Crew, helpers_advised, helpers_needed
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


def _advice(players: int) -> str:
    needed, advised = helpers_needed(players), helpers_advised(players)
    return f"{players} игроков — {needed or 'не нужно'}" + (f" (лучше {advised})" if advised > needed else "")


def helper_lines(crew: Crew, voice: discord.abc.GuildChannel) -> list[str]:
    """Which helper bots can mute in this voice channel, and how many a table of its size needs."""
    players = sum(1 for m in getattr(voice, "members", []) if not m.bot)
    sizes = sorted({10, 16, *([players] if players > 1 else [])})
    advice = (
        f"Discord даёт каждому боту {BUCKET} изменений микрофона за 10 с на сервере; чтобы весь стол "
        f"заглушался и включался меньше чем за секунду, ботов-помощников нужно: "
        + ", ".join(_advice(n) for n in sizes)
        + ". Помощник — отдельное приложение Discord с правами «Просматривать канал», «Подключаться» и "
        "«Отключать участникам микрофон»: ссылку-приглашение печатает `mafiabot invite --helper`, "
        "токен — в `[voice] helper_tokens` у владельца бота."
    )
    if not crew.helpers:
        return [f"➖ Ботов-помощников нет: больше {BUCKET} микрофонов сразу бот меняет с ожиданием. {advice}"]
    ready = crew.ready_helpers(voice)
    lines = [f"🤝 Боты-помощники в {voice.mention}: готовы {len(ready)} из {len(crew.helpers)}."]
    for helper in crew.helpers:
        if helper in ready:
            continue
        on_server = helper.user_id is not None and voice.guild.get_member(helper.user_id) is not None
        why = "нет права «Отключать участникам микрофон» в канале" if on_server else "не приглашён на сервер"
        lines.append(f"⚠️ Помощник {helper.number}: {why}; его работу делает основной бот.")
    if len(ready) < helpers_needed(max(players, 10)):
        lines.append(f"⚠️ {advice}")
    else:
        lines.append(f"ℹ️ {advice}")
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
        if voice is not None:
            await self.bot.games.crew.meet(guild)  # the helpers' members, if not cached yet
            lines += helper_lines(self.bot.games.crew, voice)
        lines.append(voice_encryption_line(guild))
        log.info("Readiness checked: %s", "; ".join(lines))
        await reply_ephemeral(interaction, "\n".join(lines))


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ReadinessCog(bot))
