"""Roles and night actions: «Моя роль», «Мой ход», the target selects, skip, the maniac's answer."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from engine.commands import Act, Answer, Propose, Skip, Vote
from mafiabot.bot import MafiaBot
from mafiabot.cogs._play import first_int, player_action, require_seat
from mafiabot.game.actions import ACTIONS
from mafiabot.game.components import GameItem, prompt_for, role_name
from mafiabot.game.table import Table
from mafiabot.i18n import role_about, text
from mafiabot.view_helpers import send_private


def _mate(table: Table, team: str, seat: int) -> str:
    """D-G12: «№2», or «№2 — Дон» where the preset shows the team's roles (city), or who the leader is
    (simple's don)."""
    s, lang = table.session.state, table.session.language
    tdef, role = s.ruleset.teams[team], s.role_of(seat)
    if tdef.show_roles or (tdef.show_leader and role == tdef.leader):
        return text(lang, "card-mate-role", seat=seat, role=role_name(table.session, role))
    return text(lang, "card-mate", seat=seat)


async def my_role(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is None:
        return
    s, lang = table.session.state, table.session.language
    role_id = s.role_of(seat)
    about = role_about(lang, s.ruleset, role_id)
    name = role_name(table.session, role_id)
    lines = [text(lang, "card-you", seat=seat, role=name, about=about).rstrip()]
    team = s.team_of(seat)
    if team:
        mates = [x for x in s.team_members(team, living_only=False) if x != seat]
        if mates:
            lines.append(text(lang, "card-team", mates=", ".join(_mate(table, team, x) for x in mates)))
    inbox = table.inbox.get(seat, [])[-10:]
    if inbox:
        lines.append("\n" + text(lang, "card-inbox") + "\n" + "\n".join(inbox))
    await send_private(interaction, "\n".join(lines))


async def my_turn(
    interaction: discord.Interaction[Any], table: Table, serial: int, arg: str, values: list[str]
) -> None:
    seat = await require_seat(interaction, table)
    if seat is None:
        return
    prompt = prompt_for(table.session, seat)
    if prompt is None:
        await send_private(interaction, text(table.session.language, "answer-not-your-turn"))
        return
    shown, view = prompt
    await send_private(interaction, shown, view)


act = player_action(lambda seat, arg, values: (Act(seat=seat, targets=(first_int(values),)), "answer-chosen"))
propose = player_action(
    lambda seat, arg, values: (
        Propose(seat=seat, target=first_int(values)),
        ("answer-proposed", {"seat": first_int(values)}),
    )
)
# City D-C10: a member's pick while the don lives is a proposal to him (issue 13).
suggest = player_action(
    lambda seat, arg, values: (
        Propose(seat=seat, target=first_int(values)),
        ("answer-suggested", {"seat": first_int(values)}),
    )
)
skip = player_action(lambda seat, arg, values: (Skip(seat=seat), "answer-skipped"))
_yes = player_action(lambda seat, arg, values: (Answer(seat=seat, yes=True), "answer-answered"))
_no = player_action(lambda seat, arg, values: (Answer(seat=seat, yes=False), "answer-answered"))
tiebreak = player_action(
    lambda seat, arg, values: (Vote(seat=seat, candidate=first_int(values)), "answer-vote-taken")
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
