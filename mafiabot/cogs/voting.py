"""The day: «Пас», nominations and votes."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from engine.commands import Nominate, Pass, Vote
from mafiabot.bot import MafiaBot
from mafiabot.cogs._play import first_int, require_seat, submit
from mafiabot.game.components import ACTIONS
from mafiabot.game.table import Table


async def pass_turn(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is not None:
        await submit(interaction, table, Pass(seat=seat), serial, "Пас.")


async def nominate(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is not None:
        target = first_int(values)
        await submit(
            interaction, table, Nominate(seat=seat, target=target), serial, f"Вы выставили игрока №{target}."
        )


async def vote(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is not None:
        candidate = int(arg or 0)
        await submit(
            interaction,
            table,
            Vote(seat=seat, candidate=candidate),
            serial,
            f"Ваш голос против №{candidate} принят.",
        )


class VotingCog(commands.Cog, name="Voting"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        ACTIONS.update({"pass": pass_turn, "nominate": nominate, "vote": vote})


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(VotingCog(bot))
