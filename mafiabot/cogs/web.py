"""`/mafia web`: the club's web pages (mafiabot.web) — links for the member who asks, and for moderators
the choice between public pages and private ones. The cog starts the web server in the bot's process
when `[web] enabled` is set, and stops it with the bot."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot
from mafiabot.cogs._conduct_parts import is_moderator
from mafiabot.errors import UserFacingError
from mafiabot.web import links
from mafiabot.web.app import make_server
from mafiabot.web.server import PUBLIC_KEY, WebServer

log = logging.getLogger(__name__)

OFF = "Веб-страницы клуба выключены: владелец бота включает их в разделе [web] настроек (enabled = true)."


class WebCog(commands.Cog, name="Web"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        self.server: WebServer | None = None

    async def cog_load(self) -> None:
        settings = self.bot.settings
        if not settings.web.enabled:
            return
        secret = settings.web.secret.get()
        token = settings.token.get()
        if not secret and not token:
            raise RuntimeError("[web] needs a secret (or the bot's token) to sign its links")
        self.server = make_server(
            settings.web,
            secret=secret.encode("utf-8") if secret else links.derive_secret(token),
            storage=self.bot.games.storage,
            guild_name=self._guild_name,
            allowed=settings.guild_ids,
            games=self.bot.games,
        )
        await self.server.start()

    async def cog_unload(self) -> None:
        if self.server is not None:
            server, self.server = self.server, None
            await server.stop()

    def _guild_name(self, guild_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        return guild.name if guild is not None else None

    @app_commands.command(
        name="web", description="Страницы клуба: таблица, профиль, игры, стол для трансляции"
    )
    @app_commands.describe(public="Для ведущих: открыть страницы всем (True) или только по ссылкам (False)")
    async def web(self, interaction: discord.Interaction[MafiaBot], public: bool | None = None) -> None:
        member = interaction.user
        if interaction.guild is None or not isinstance(member, discord.Member):
            raise UserFacingError("Эта команда работает только на сервере.")
        server = self.server
        if server is None:
            raise UserFacingError(OFF)
        storage = self.bot.games.storage
        if storage is None:
            raise UserFacingError("База данных недоступна: страниц нет.")
        guild_id = interaction.guild.id
        if public is not None:
            if not await is_moderator(member, self.bot.games):
                raise UserFacingError("Это для ведущих: право «Управлять сервером» или роль ведущего.")
            await asyncio.to_thread(storage.set_guild_value, guild_id, PUBLIC_KEY, public)
        is_public = await asyncio.to_thread(server.is_public, guild_id)
        known = await asyncio.to_thread(storage.player_known, guild_id, member.id)
        lines = []
        if public is not None:
            lines.append(
                "Страницы сервера теперь открыты всем, у кого есть адрес."
                if public
                else "Страницы сервера теперь закрыты: только по ссылкам, которые даёт /mafia web."
            )
        lines.append(f"Таблица сезона: {server.link(guild_id, '/top', public=is_public)}")
        if known:
            lines.append(f"Ваш профиль: {server.link(guild_id, f'/player/{member.id}', public=is_public)}")
        lines.append(f"Игры: {server.link(guild_id, '/games', public=is_public)}")
        running = sorted(t.game_id for t in self.bot.games.tables.in_guild(guild_id) if t.dealt)
        for game_id in running:  # the stream's overlay: the transparent one is for OBS's browser source
            path = f"/live/{game_id}"
            lines.append(f"Стол игры #{game_id}: {server.link(guild_id, path, public=is_public)}")
            lines.append(
                f"Для OBS (#{game_id}): {server.link(guild_id, path, public=is_public, transparent=1)}"
            )
        if not is_public:
            until = int(server.clock()) + server.settings.link_hours * 3600
            lines.append(
                f"Ссылки действуют до <t:{until}:f>; не пересылайте их тем, кому не следует их видеть."
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(WebCog(bot))
