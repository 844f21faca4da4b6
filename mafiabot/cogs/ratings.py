"""Ratings: placeholder while the commands are written."""

from __future__ import annotations

from discord.ext import commands

from mafiabot.bot import MafiaBot


class RatingsCog(commands.Cog, name="Ratings"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(RatingsCog(bot))
