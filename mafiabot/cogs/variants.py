"""What the presets beyond classic and simple add: city's «Разрешаю / Запрещаю» and «Кто выставлен?»
and the vote to leave together; an ability chosen between two or with two targets; the judge's (the
queen's) acquittal; classic's court, golden minute, bets and the two-player cards; city's mafia chat."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from engine import queries
from engine.commands import Act, AskNominees, Permit, Vote, Withdraw
from mafiabot.bot import MafiaBot
from mafiabot.cogs._play import Reply, first_int, require_seat, submit
from mafiabot.game import preset_controls
from mafiabot.game.actions import ACTIONS
from mafiabot.game.service import GameService
from mafiabot.game.table import Table
from mafiabot.game.team_chat import TeamChats
from mafiabot.i18n import text


async def _permit(
    interaction: discord.Interaction[Any], table: Table, serial: int, values: list[str], allow: bool
) -> None:
    seat = await require_seat(interaction, table)
    if seat is not None:
        target = first_int(values)
        ok = ("answer-permit" if allow else "answer-forbid", {"seat": target})
        await submit(interaction, table, Permit(seat=seat, target=target, allow=allow), serial, ok)


async def permit(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    await _permit(i, t, serial, v, True)


async def forbid(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    await _permit(i, t, serial, v, False)


async def nominees(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        lang = t.session.language
        listed = ", ".join(text(lang, "card-mate", seat=x) for x in queries.nominees(t.session.state))
        ok: Reply = ("answer-nominees", {"seats": listed}) if listed else "answer-no-nominees"
        await submit(i, t, AskNominees(seat=seat), serial, ok)


async def withdraw(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    """FIIM D-FI8: «Я отзываю игрока № …» in one's own minute."""
    seat = await require_seat(i, t)
    if seat is not None:
        await submit(i, t, Withdraw(seat=seat), serial, "answer-withdrawn")


async def lift(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        # The engine answers a second vote here with a foul alone, not the «refused» the ballot gives.
        again = any(v == seat for v, _ in t.session.state.ballots)
        ok = "answer-voted-again-foul" if again else "answer-lift-vote"
        await submit(i, t, Vote(seat=seat), serial, ok)


async def ability(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    """A night ability chosen by name (``arg``: kill, check; ``one`` for a role's only one) with as many
    targets as the select gave."""
    seat = await require_seat(i, t)
    if seat is not None:
        act = "" if arg == "one" else arg
        command = Act(seat=seat, targets=tuple(int(x) for x in v), act=act)
        await submit(i, t, command, serial, "answer-chosen")


async def acquit(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        await submit(i, t, Act(seat=seat, targets=(int(arg or 0),)), serial, "answer-acquitted")


async def court(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    """A judge's ballot: «Казнить» is a vote for the accused, «Помиловать» takes it back (candidate 0)."""
    seat = await require_seat(i, t)
    if seat is not None:
        candidate = int(arg or 0)
        ok = "answer-court-execute" if candidate else "answer-court-pardon"
        await submit(i, t, Vote(seat=seat, candidate=candidate), serial, ok)


async def court_pick(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        target = first_int(v)
        await submit(i, t, Vote(seat=seat, candidate=target), serial, ("answer-proposed", {"seat": target}))


async def golden(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        await submit(i, t, Act(seat=seat, targets=(seat,)), serial, "answer-golden")


async def bet(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        target = first_int(v)
        await submit(i, t, Act(seat=seat, targets=(target,)), serial, ("answer-bet", {"seat": target}))


async def hidden(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        await submit(i, t, Vote(seat=seat), serial, "answer-hidden-card")


async def opponent(i: discord.Interaction[Any], t: Table, serial: int, arg: str, v: list[str]) -> None:
    seat = await require_seat(i, t)
    if seat is not None:
        other = next((x for x in t.session.state.living() if x != seat), 0)
        await submit(i, t, Act(seat=seat, targets=(other,)), serial, "answer-opponent-card")


class VariantsCog(commands.Cog, name="Variants"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        self.chats = TeamChats()

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        preset_controls.install()
        self.games.event_hooks.append(self.chats.on_events)
        self.games.restore_hooks.append(self.chats.on_restored)
        ACTIONS.update(
            {
                "permit": permit,
                "forbid": forbid,
                "nominees": nominees,
                "withdraw": withdraw,
                "lift": lift,
                "ability": ability,
                "acquit": acquit,
                "court": court,
                "court_pick": court_pick,
                "golden": golden,
                "bet": bet,
                "hidden": hidden,
                "opponent": opponent,
            }
        )

    async def cog_unload(self) -> None:
        if self.chats.on_events in self.games.event_hooks:
            self.games.event_hooks.remove(self.chats.on_events)
        if self.chats.on_restored in self.games.restore_hooks:
            self.games.restore_hooks.remove(self.chats.on_restored)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(VariantsCog(bot))
