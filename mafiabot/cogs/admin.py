"""`/mafia-admin`: the server's settings, for its moderators only.

A group of its own, because Discord applies `default_permissions` to a top-level command only (on a
subcommand of `/mafia` it does nothing): members without Manage Server do not even see it, and a server
can give it to other roles in its integration settings. Every change is checked here as well.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from mafiabot import i18n
from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError, language_of
from mafiabot.game import server_settings as keys
from mafiabot.game.server_settings import ServerSettings, server_settings
from mafiabot.i18n import has, text
from mafiabot.storage import Storage

# The languages the bot's texts and the host's voice exist in, each named in its own language.
LANGUAGES = {code: text(code, f"language-name-{code}") for code in i18n.LANGUAGES}


def settings_text(s: ServerSettings, *, volume: float, audio: bool, language: str) -> str:
    """The server's settings, in ``language`` (the server's own)."""
    timers = dict(s.timers)

    def seconds(value: int | None) -> str:
        return (
            text(language, "admin-timer-seconds", seconds=value)
            if value
            else text(language, "admin-timer-rules")
        )

    role = f"<@&{s.host_role_id}>" if s.host_role_id else text(language, "admin-host-role-none")
    return "\n".join(
        [
            text(language, "admin-title"),
            text(language, "admin-host-role", role=role),
            text(language, "admin-language", name=LANGUAGES[language]),
            text(language, "admin-voice-on" if audio else "admin-voice-off", volume=round(volume * 100)),
            text(language, "admin-spectators-muted" if s.mute_spectators else "admin-spectators-open"),
            text(
                language,
                "admin-timers",
                speech=seconds(timers.get("speech_seconds")),
                night=seconds(timers.get("night_action_seconds")),
            ),
            text(language, "admin-lobby-minutes", minutes=s.lobby_minutes),
        ]
    )


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    commands.GroupCog,
    name="Admin",
    group_name="mafia-admin",
    group_description="Мафия: настройки сервера (для модераторов)",
):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        super().__init__()

    def _storage(self, interaction: discord.Interaction[Any]) -> tuple[Storage, int]:
        if interaction.guild is None or not isinstance(interaction.user, discord.Member):
            raise UserFacingError("error-server-only")
        if not interaction.permissions.manage_guild:
            raise UserFacingError("admin-only-managers")
        storage = self.bot.games.storage
        if storage is None:
            raise UserFacingError("admin-no-database")
        return storage, interaction.guild.id

    async def _answer(
        self, interaction: discord.Interaction[Any], storage: Storage, guild_id: int, done: str, **args: Any
    ) -> None:
        row = await asyncio.to_thread(storage.guild_settings, guild_id)
        current = await server_settings(storage, guild_id)
        language = current.game(self.bot.settings.game).language
        shown = settings_text(current, volume=row.volume, audio=row.audio_enabled, language=language)
        done = text(language, done, **args) if has(language, done) else done
        await interaction.response.send_message(
            f"{done}\n\n{shown}" if done else shown,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="show", description="Показать настройки бота на этом сервере")
    async def show(self, interaction: discord.Interaction[MafiaBot]) -> None:
        storage, guild_id = self._storage(interaction)
        await self._answer(interaction, storage, guild_id, "")

    @app_commands.command(name="host-role", description="Роль ведущих: её участники управляют любой игрой")
    @app_commands.describe(role="Роль ведущих", clear="Убрать роль ведущих")
    async def host_role(
        self,
        interaction: discord.Interaction[MafiaBot],
        role: discord.Role | None = None,
        clear: bool = False,
    ) -> None:
        storage, guild_id = self._storage(interaction)
        if role is None and not clear:
            raise UserFacingError("admin-role-needed")
        if role is not None and clear:
            raise UserFacingError("admin-role-or-clear")
        role_id = None if role is None else role.id
        await asyncio.to_thread(storage.update_guild_settings, guild_id, host_role_id=role_id)
        await self._answer(
            interaction, storage, guild_id, "admin-role-cleared" if clear else "admin-role-set"
        )

    @app_commands.command(name="voice", description="Голос ведущего: включить/выключить, громкость")
    @app_commands.describe(enabled="Говорить ли ведущему в голосовом канале", volume="Громкость, % (10–200)")
    async def voice(
        self,
        interaction: discord.Interaction[MafiaBot],
        enabled: bool | None = None,
        volume: app_commands.Range[int, 10, 200] | None = None,
    ) -> None:
        storage, guild_id = self._storage(interaction)
        changes: dict[str, object] = {}
        if enabled is not None:
            changes["audio_enabled"] = enabled
        if volume is not None:
            changes["volume"] = volume / 100
        if changes:
            await asyncio.to_thread(storage.update_guild_settings, guild_id, **changes)
        await self._answer(interaction, storage, guild_id, "admin-next-game" if changes else "")

    @app_commands.command(
        name="spectators", description="Выключать ли микрофон зрителям в голосовом канале игры"
    )
    @app_commands.describe(muted="True: зрители без микрофона (по умолчанию); False: с микрофоном")
    async def spectators(self, interaction: discord.Interaction[MafiaBot], muted: bool) -> None:
        storage, guild_id = self._storage(interaction)
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.SPECTATORS, muted)
        await self._answer(interaction, storage, guild_id, "admin-next-game")

    @app_commands.command(name="timers", description="Время речи и ночного хода в играх сервера")
    @app_commands.describe(
        speech="Речь, секунд (10–600)", night="Ночной ход, секунд (5–300)", reset="Вернуть время правил"
    )
    async def timers(
        self,
        interaction: discord.Interaction[MafiaBot],
        speech: app_commands.Range[int, 10, 600] | None = None,
        night: app_commands.Range[int, 5, 300] | None = None,
        reset: bool = False,
    ) -> None:
        storage, guild_id = self._storage(interaction)
        if reset and (speech is not None or night is not None):
            raise UserFacingError("admin-timers-or-reset")
        if not reset and speech is None and night is None:
            raise UserFacingError("admin-timers-needed")
        current = dict((await server_settings(storage, guild_id)).timers)
        if reset:
            current = {}
        if speech is not None:
            current["speech_seconds"] = speech
        if night is not None:
            current["night_action_seconds"] = night
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.TIMERS, current)
        await self._answer(interaction, storage, guild_id, "admin-next-lobby")

    @app_commands.command(name="language", description="Язык бота на сервере")
    @app_commands.describe(language="Язык сообщений и голоса ведущего")
    @app_commands.choices(language=[app_commands.Choice(name=n, value=c) for c, n in LANGUAGES.items()])
    async def language(self, interaction: discord.Interaction[MafiaBot], language: str) -> None:
        storage, guild_id = self._storage(interaction)
        if language not in LANGUAGES:
            raise UserFacingError("admin-no-such-language", languages=", ".join(LANGUAGES.values()))
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.LANGUAGE, language)
        await self._answer(interaction, storage, guild_id, "admin-language-saved")

    @app_commands.command(
        name="lobby-timeout", description="Через сколько минут закрывать набор, если игру не начали"
    )
    @app_commands.describe(minutes="Минут (5–240)")
    async def lobby_timeout(
        self, interaction: discord.Interaction[MafiaBot], minutes: app_commands.Range[int, 5, 240]
    ) -> None:
        storage, guild_id = self._storage(interaction)
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.LOBBY_MINUTES, minutes)
        await self._answer(interaction, storage, guild_id, "admin-next-lobby")

    @app_commands.command(name="variant", description="Загрузить свой вариант правил (файл .toml)")
    @app_commands.describe(
        file="Файл правил, который продолжает правила бота (как examples/club-variant.toml)"
    )
    async def variant(self, interaction: discord.Interaction[MafiaBot], file: discord.Attachment) -> None:
        storage, guild_id = self._storage(interaction)
        if not file.filename.lower().endswith(".toml"):
            raise UserFacingError("admin-variant-not-toml")
        if file.size > MAX_VARIANT_BYTES:
            raise UserFacingError("admin-variant-too-big", kilobytes=MAX_VARIANT_BYTES // 1024)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the file is fetched first
        try:
            rules = (await file.read()).decode("utf-8")
        except UnicodeDecodeError:
            raise UserFacingError("admin-variant-not-utf8") from None
        ruleset = await asyncio.to_thread(check_variant, rules)
        values = dict((await asyncio.to_thread(storage.guild_settings, guild_id)).ruleset_defaults or {})
        variants = {**(values.get(keys.VARIANTS) or {}), ruleset.id: rules}
        if len(variants) > MAX_VARIANTS:
            raise UserFacingError("admin-variant-too-many", count=MAX_VARIANTS)
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.VARIANTS, variants)
        language = (await server_settings(storage, guild_id)).game(self.bot.settings.game).language
        await interaction.followup.send(
            text(language, "admin-variant-saved", title=ruleset.title, id=ruleset.id), ephemeral=True
        )

    @app_commands.command(name="variant-remove", description="Удалить свой вариант правил с сервера")
    @app_commands.describe(variant="Id варианта (как в /mafia new)")
    async def variant_remove(self, interaction: discord.Interaction[MafiaBot], variant: str) -> None:
        storage, guild_id = self._storage(interaction)
        values = dict((await asyncio.to_thread(storage.guild_settings, guild_id)).ruleset_defaults or {})
        variants = dict(values.get(keys.VARIANTS) or {})
        if variant not in variants:
            known = ", ".join(sorted(variants))
            if not known:
                raise UserFacingError(
                    "admin-variant-unknown", known=text(language_of(interaction), "admin-variant-none")
                )
            raise UserFacingError("admin-variant-unknown", known=known)
        games = self.bot.games
        busy = [
            t for t in games.tables.values() if t.guild.id == guild_id and t.session.ruleset.id == variant
        ] + [
            lobby
            for lobby in games.lobbies.values()
            if lobby.guild_id == guild_id and lobby.ruleset_id == variant
        ]
        if busy:
            raise UserFacingError("admin-variant-busy")
        del variants[variant]
        await asyncio.to_thread(storage.set_guild_value, guild_id, keys.VARIANTS, variants)
        await self._answer(interaction, storage, guild_id, "admin-variant-removed", id=variant)


MAX_VARIANT_BYTES = 64 * 1024
MAX_VARIANTS = 10
VARIANT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def check_variant(text: str) -> engine.Ruleset:
    """A server's variant as the engine will play it, or a clear refusal: TOML that `extends` one of the
    bundled rulebooks (never another file), with an id of its own, and rules the engine accepts."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserFacingError("admin-variant-bad-toml", why=str(exc)) from None
    presets = engine.available_presets()
    if data.get("extends") not in presets:
        raise UserFacingError("admin-variant-extends", presets=", ".join(presets))
    variant_id = data.get("id")
    if not isinstance(variant_id, str) or not VARIANT_ID.match(variant_id):
        raise UserFacingError("admin-variant-id")
    if variant_id in presets:
        raise UserFacingError("admin-variant-id-taken", id=variant_id)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / f"{variant_id}.toml"
        path.write_text(text, encoding="utf-8")
        try:
            ruleset = engine.load_ruleset(str(path))
            engine.player_counts(ruleset)
        except engine.RulesetError as exc:
            raise UserFacingError("admin-variant-invalid", why=exc.message) from None
    return ruleset


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(AdminCog(bot))
