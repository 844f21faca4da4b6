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
from mafiabot.errors import UserFacingError, language_of, reply_ephemeral
from mafiabot.game.crew import BUCKET, Crew, helpers_advised, helpers_needed
from mafiabot.game.speaker import e2ee_status, format_privacy_code
from mafiabot.i18n import DEFAULT, text

try:  # discord.py speaks DAVE through davey; without it Discord refuses the bot's voice (close 4017)
    from davey import DAVE_PROTOCOL_VERSION
except ImportError:  # pragma: no cover - davey is a dependency; this is what the line reports
    DAVE_PROTOCOL_VERSION = 0

log = logging.getLogger(__name__)

DM_TEXT = text(DEFAULT, "check-dm-text")  # (``check-dm-text`` in the catalogues; the Russian for tests)


def _first_up(line: str) -> str:
    return line[:1].upper() + line[1:]


def permission_report(
    me: discord.Member,
    channel_text: discord.abc.GuildChannel | None,
    voice: discord.abc.GuildChannel | None,
    language: str = DEFAULT,
) -> list[str]:
    """One line per channel: ✅ when the bot has all it needs, ❌ with what blocks a game, ⚠️ notes."""
    found = needs.missing(me, text=channel_text, voice=voice)
    lines = []
    places: tuple[tuple[needs.Place, discord.abc.GuildChannel | None], ...] = (
        ("text", channel_text),
        ("voice", voice),
        ("threads", channel_text),
    )
    for place, channel in places:
        if channel is None:
            continue
        blocking = [m for m in found if m.need.place == place and not m.need.optional]
        where = text(language, f"check-place-{place}", channel=channel.mention)
        if blocking:
            only = blocking[0].need.presets
            listed = needs.names((m.need.permission for m in blocking), language)
            if only:
                presets = ", ".join(sorted(only))
                lines.append(
                    text(language, "check-place-missing-for", place=where, names=listed, presets=presets)
                )
            else:
                lines.append(text(language, "check-place-missing", place=where, names=listed))
        else:
            lines.append(text(language, "check-place-ready", place=where))
    lines += [
        text(language, "check-optional", note=_first_up(note))
        for note in needs.optional_lines(found, language)
    ]
    return lines


def _advice(players: int, language: str) -> str:
    needed, advised = helpers_needed(players), helpers_advised(players)
    size = text(language, "check-helpers-advice-size", players=players, needed=needed)
    return (
        text(language, "check-helpers-advice-better", size=size, advised=advised)
        if advised > needed
        else size
    )


def helper_lines(crew: Crew, voice: discord.abc.GuildChannel, language: str = DEFAULT) -> list[str]:
    """Which helper bots can mute in this voice channel, and how many a table of its size needs."""
    players = sum(1 for m in getattr(voice, "members", []) if not m.bot)
    sizes = sorted({10, 16, *([players] if players > 1 else [])})
    advice = text(
        language, "check-helpers-advice", bucket=BUCKET, sizes=", ".join(_advice(n, language) for n in sizes)
    )
    if not crew.helpers:
        return [text(language, "check-helpers-none", bucket=BUCKET, advice=advice)]
    ready = crew.ready_helpers(voice)
    lines = [
        text(
            language, "check-helpers-ready", channel=voice.mention, ready=len(ready), total=len(crew.helpers)
        )
    ]
    for helper in crew.helpers:
        if helper in ready:
            continue
        on_server = helper.user_id is not None and voice.guild.get_member(helper.user_id) is not None
        why = text(language, "check-helper-cannot-mute" if on_server else "check-helper-not-invited")
        lines.append(text(language, "check-helper-down", number=helper.number, why=why))
    if len(ready) < helpers_needed(max(players, 10)):
        lines.append(text(language, "check-warning", advice=advice))
    else:
        lines.append(text(language, "check-info", advice=advice))
    return lines


def voice_encryption_line(guild: discord.Guild, language: str = DEFAULT) -> str:
    voice = guild.voice_client
    if isinstance(voice, discord.VoiceClient) and voice.is_connected():
        encrypted, code = e2ee_status(voice)
        where = voice.channel.mention
        if encrypted and code is not None:
            return text(language, "check-voice-encrypted", channel=where, code=format_privacy_code(code))
        return text(language, "check-voice-not-yet", channel=where)
    if DAVE_PROTOCOL_VERSION < 1:
        return text(language, "check-voice-no-dave")
    return text(language, "check-voice-away")


class ReadinessCog(commands.Cog):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @app_commands.command(name="check", description="Проверить, что бот может вести игру с вами")
    async def check(self, interaction: discord.Interaction[MafiaBot]) -> None:
        member = interaction.user
        guild = interaction.guild
        if not isinstance(member, discord.Member) or guild is None or guild.me is None:
            raise UserFacingError("check-server-only")
        language = language_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = []
        try:
            await member.send(text(language, "check-dm-text"))
        except discord.Forbidden:
            lines.append(text(language, "check-dm-closed"))
        else:
            lines.append(text(language, "check-dm-open"))
        channel = interaction.channel if isinstance(interaction.channel, discord.TextChannel) else None
        voice = member.voice.channel if member.voice is not None else None
        if voice is None:
            lines.append(text(language, "check-no-voice"))
        elif isinstance(voice, discord.StageChannel):
            lines.append(f"❌ {voice.mention}: {text(language, 'need-stage')}")
            voice = None
        lines += permission_report(guild.me, channel, voice, language)
        if voice is not None:
            await self.bot.games.crew.meet(guild)  # the helpers' members, if not cached yet
            lines += helper_lines(self.bot.games.crew, voice, language)
        lines.append(voice_encryption_line(guild, language))
        log.info("Readiness checked: %s", "; ".join(lines))
        await reply_ephemeral(interaction, "\n".join(lines))


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ReadinessCog(bot))
