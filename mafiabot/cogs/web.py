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
from mafiabot.errors import UserFacingError, language_of
from mafiabot.i18n import DEFAULT, text
from mafiabot.web import links
from mafiabot.web.app import make_server
from mafiabot.web.server import PUBLIC_KEY, WebServer

log = logging.getLogger(__name__)

OFF = text(DEFAULT, "web-off")  # (``web-off`` in the catalogues; the Russian for tests)


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
            raise UserFacingError("check-server-only")
        server = self.server
        if server is None:
            raise UserFacingError("web-off")
        storage = self.bot.games.storage
        if storage is None:
            raise UserFacingError("web-no-database")
        guild_id = interaction.guild.id
        if public is not None:
            if not await is_moderator(member, self.bot.games):
                raise UserFacingError("ratings-moderators")
            await asyncio.to_thread(storage.set_guild_value, guild_id, PUBLIC_KEY, public)
        is_public = await asyncio.to_thread(server.is_public, guild_id)
        known = await asyncio.to_thread(storage.player_known, guild_id, member.id)
        lang = language_of(interaction)
        lines = []
        if public is not None:
            lines.append(text(lang, "web-now-public" if public else "web-now-private"))
        lines.append(text(lang, "web-board", link=server.link(guild_id, "/top", public=is_public)))
        if known:
            mine = server.link(guild_id, f"/player/{member.id}", public=is_public)
            lines.append(text(lang, "web-profile", link=mine))
        lines.append(text(lang, "web-games", link=server.link(guild_id, "/games", public=is_public)))
        running = sorted(t.game_id for t in self.bot.games.tables.in_guild(guild_id) if t.dealt)
        for game_id in running:  # the stream's overlay: the transparent one is for OBS's browser source
            path = f"/live/{game_id}"
            table = server.link(guild_id, path, public=is_public)
            lines.append(text(lang, "web-table", game=str(game_id), link=table))
            obs = server.link(guild_id, path, public=is_public, transparent=1)
            lines.append(text(lang, "web-obs", game=str(game_id), link=obs))
        if not is_public:
            until = int(server.clock()) + server.settings.link_hours * 3600
            lines.append(text(lang, "web-links-until", until=str(until)))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(WebCog(bot))
