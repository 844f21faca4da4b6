"""The day: «Пас», nominations and votes."""

from __future__ import annotations

from discord.ext import commands

from engine.commands import Nominate, Pass, Unvote, Vote
from mafiabot.bot import MafiaBot
from mafiabot.cogs._play import first_int, player_action
from mafiabot.game.actions import ACTIONS

pass_turn = player_action(lambda seat, arg, values: (Pass(seat=seat), "answer-pass"))

nominate = player_action(
    lambda seat, arg, values: (
        Nominate(seat=seat, target=first_int(values)),
        ("answer-nominated", {"seat": first_int(values)}),
    )
)

vote = player_action(
    lambda seat, arg, values: (
        Vote(seat=seat, candidate=int(arg or 0)),
        ("answer-voted", {"seat": int(arg or 0)}),
    )
)

# D-CL3: a voter may lower his hand until the candidate's count closes.
unvote = player_action(
    lambda seat, arg, values: (Unvote(seat=seat), ("answer-unvoted", {"seat": int(arg or 0)}))
)


class VotingCog(commands.Cog, name="Voting"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        ACTIONS.update({"pass": pass_turn, "nominate": nominate, "vote": vote, "unvote": unvote})


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(VotingCog(bot))
