"""Moderator controls of a running game: stop, pause, resume, extend, skip a step, remove a player."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

import engine
from mafiabot.bot import MafiaBot
from mafiabot.errors import UserFacingError
from mafiabot.game.service import GameService
from mafiabot.game.table import Table
from mafiabot.i18n import text


class ModerationCog(commands.Cog, name="Moderation"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def _step(self, interaction: discord.Interaction[MafiaBot]) -> tuple[Table, int]:
        """The moderator's table and the step he meant: its serial is read as the command arrives, before
        anything awaits, so a «Пас» that lands first makes a skip stale instead of letting it end the
        next speech too."""
        found = self._find(interaction)
        serial = found.session.serial if found is not None else 0
        return await self._table(interaction), serial

    def _find(self, interaction: discord.Interaction[MafiaBot]) -> Table | None:
        table = self.games.tables.in_text_channel(interaction.channel_id)
        voice = getattr(interaction.user, "voice", None)
        if table is None and voice is not None and voice.channel is not None:
            table = self.games.tables.get(voice.channel.id)
        return table

    async def _table(self, interaction: discord.Interaction[MafiaBot]) -> Table:
        """The game of this text channel or of the moderator's voice channel; moderators only."""
        member = interaction.user
        if not isinstance(member, discord.Member):
            raise UserFacingError("error-server-only")
        table = self._find(interaction)
        if table is None:
            raise UserFacingError("mod-no-game")
        if not await self._is_moderator(member, table):
            raise UserFacingError("mod-not-moderator")
        return table

    async def _is_moderator(self, member: discord.Member, table: Table) -> bool:
        if member.id == table.creator_id or member.guild_permissions.manage_guild:
            return True
        storage = self.games.storage
        if storage is None:
            return False
        settings = await asyncio.to_thread(storage.guild_settings, member.guild.id)
        role_id = getattr(settings, "host_role_id", None)
        return bool(role_id) and any(r.id == role_id for r in member.roles)

    @app_commands.command(name="stop", description="Остановить игру (все микрофоны будут включены)")
    async def stop(self, interaction: discord.Interaction[MafiaBot]) -> None:
        table = await self._table(interaction)
        # Answered beside the stop, not before it: the table's voice given back waits for no round trip.
        answer = asyncio.create_task(
            interaction.response.send_message(text(table.session.language, "mod-stopping"), ephemeral=True)
        )
        try:
            await self.games.stop(table, f"stopped by {interaction.user.id}")
        finally:
            await answer

    @app_commands.command(name="pause", description="Поставить таймер игры на паузу")
    async def pause(self, interaction: discord.Interaction[MafiaBot]) -> None:
        table = await self._table(interaction)
        await self.games.pause(table)
        await interaction.response.send_message(text(table.session.language, "mod-paused"), ephemeral=True)

    @app_commands.command(name="resume", description="Продолжить игру после паузы")
    async def resume(self, interaction: discord.Interaction[MafiaBot]) -> None:
        table = await self._table(interaction)
        await self.games.resume(table)
        await interaction.response.send_message(text(table.session.language, "mod-resumed"), ephemeral=True)

    @app_commands.command(name="extend", description="Добавить время к текущему шагу")
    @app_commands.describe(seconds="Сколько секунд добавить")
    async def extend(
        self, interaction: discord.Interaction[MafiaBot], seconds: app_commands.Range[int, 5, 600]
    ) -> None:
        table = await self._table(interaction)
        await self.games.extend(table, seconds)
        await interaction.response.send_message(
            text(table.session.language, "mod-extended", seconds=seconds), ephemeral=True
        )

    @app_commands.command(name="skip", description="Завершить текущий шаг игры досрочно")
    async def skip(self, interaction: discord.Interaction[MafiaBot]) -> None:
        table, serial = await self._step(interaction)
        await self.games.submit(table, engine.Advance(), serial=serial)
        await interaction.response.send_message(text(table.session.language, "mod-skipped"), ephemeral=True)

    @app_commands.command(name="kick", description="Удалить игрока из-за стола")
    @app_commands.describe(seat="Номер игрока")
    async def kick(
        self, interaction: discord.Interaction[MafiaBot], seat: app_commands.Range[int, 1, 20]
    ) -> None:
        table, serial = await self._step(interaction)
        await self.games.submit(table, engine.Remove(seat=seat, reason="moderator"), serial=serial)
        await interaction.response.send_message(
            text(table.session.language, "mod-kicked", seat=seat), ephemeral=True
        )


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ModerationCog(bot))
