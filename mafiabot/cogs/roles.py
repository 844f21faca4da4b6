"""Roles and night actions: «Моя роль», «Мой ход», the target selects, skip, the maniac's answer."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from engine.commands import Act, Answer, Propose, Skip, Vote
from engine.state import GameState
from mafiabot.bot import MafiaBot
from mafiabot.cogs._play import first_int, player_action, require_seat
from mafiabot.game.actions import ACTIONS
from mafiabot.game.components import GameItem, prompt_for
from mafiabot.game.table import Table
from mafiabot.view_helpers import send_private


def _mate(s: GameState, team: str, seat: int) -> str:
    """D-G12: «№2», or «№2 — Дон» where the preset shows the team's roles (city), or who the leader is
    (simple's don)."""
    tdef, role = s.ruleset.teams[team], s.role_of(seat)
    if tdef.show_roles or (tdef.show_leader and role == tdef.leader):
        return f"№{seat} — {s.ruleset.roles[role].display}"
    return f"№{seat}"


async def my_role(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is None:
        return
    s = table.session.state
    role = s.ruleset.roles[s.role_of(seat)]
    lines = [f"Вы — игрок №{seat}. Ваша роль: **{role.display}**. {role.description}"]
    team = s.team_of(seat)
    if team:
        mates = [x for x in s.team_members(team, living_only=False) if x != seat]
        if mates:
            lines.append("Ваша команда: " + ", ".join(_mate(s, team, x) for x in mates))
    inbox = table.inbox.get(seat, [])[-10:]
    if inbox:
        lines.append("\n**Ваши сообщения**\n" + "\n".join(inbox))
    await send_private(interaction, "\n".join(lines))


async def my_turn(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is None:
        return
    prompt = prompt_for(table.session, seat)
    if prompt is None:
        await send_private(interaction, "Сейчас не ваш ход.")
        return
    text, view = prompt
    await send_private(interaction, text, view)


act = player_action(lambda seat, arg, values: (Act(seat=seat, targets=(first_int(values),)), "Выбор принят."))
propose = player_action(
    lambda seat, arg, values: (
        Propose(seat=seat, target=first_int(values)),
        f"Ваш выбор: №{first_int(values)}.",
    )
)
# City D-C10: a member's pick while the don lives is a proposal to him (issue 13).
suggest = player_action(
    lambda seat, arg, values: (
        Propose(seat=seat, target=first_int(values)),
        f"Вы предложили дону игрока №{first_int(values)}. Решает дон.",
    )
)
skip = player_action(lambda seat, arg, values: (Skip(seat=seat), "Вы пропустили ход."))
_yes = player_action(lambda seat, arg, values: (Answer(seat=seat, yes=True), "Ответ принят."))
_no = player_action(lambda seat, arg, values: (Answer(seat=seat, yes=False), "Ответ принят."))
tiebreak = player_action(
    lambda seat, arg, values: (Vote(seat=seat, candidate=first_int(values)), "Голос принят.")
)


class RolesCog(commands.Cog, name="Roles"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        ACTIONS.update(
            {
                "role": my_role,
                "turn": my_turn,
                "act": act,
                "propose": propose,
                "suggest": suggest,
                "skip": skip,
                "yes": _yes,
                "no": _no,
                "tiebreak": tiebreak,
            }
        )
        self.bot.add_dynamic_items(GameItem)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(RolesCog(bot))
