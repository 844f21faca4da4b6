"""Buttons and selects of a game. Their custom_id says what they act on —
``mafia:g:<game>:<serial>:<action>[:<arg>]`` — so they work after a restart and a stale one (from an
earlier step or game) is recognised and refused.

The handlers for each action live in the cogs (``roles``, ``voting``, ``variants``), registered in
``mafiabot.game.actions.ACTIONS``; a click reaches them through the game service, which finds the
game's table. Everything here reads only the game's session. What a preset adds to the panel or to a
private prompt (city's «Разрешаю», a court ballot, the golden minute…) comes from the functions in
``PANEL_EXTRAS`` and ``PROMPT_EXTRAS``, so the core controls below stay those every preset shares.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from engine import queries
from engine.registry import STEP_KINDS
from mafiabot.errors import answering
from mafiabot.game.session import GameSession
from mafiabot.views import MafiaView

# Items a preset adds to the public panel for the current step.
PANEL_EXTRAS: list[Callable[[GameSession], list[discord.ui.Item[Any]]]] = []
# A seat's private prompt where a preset needs one of its own: (text, items), or None to fall through.
PROMPT_EXTRAS: list[Callable[[GameSession, int], tuple[str, list[discord.ui.Item[Any]]] | None]] = []
# Lines a preset adds to the panel's status text (city: who has immunity).
STATUS_EXTRAS: list[Callable[[GameSession], list[str]]] = []
# Events after which the seats that may act now get their prompt privately.
PROMPT_EVENTS: set[str] = {"night_step", "question", "tiebreak_ballot"}

# The argument is a seat, or a word (the ability chosen between two, «kill» / «check»).
_TEMPLATE = r"mafia:g:(?P<game>\d+):(?P<serial>\d+):(?P<action>[a-z_]+)(?::(?P<arg>[a-z0-9_]+))?"


def custom_id(game: int, serial: int, action: str, arg: int | str = "") -> str:
    return f"mafia:g:{game}:{serial}:{action}" + (f":{arg}" if arg != "" else "")


class GameItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=_TEMPLATE):
    """Every game button and select. One class for both: discord.py keys dynamic items by their
    template and re-registers the class of each item it sends, so two classes sharing the template
    would replace each other and a click would reach the wrong one."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        self.match: re.Match[str] | None = None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameItem:
        obj = cls(item)
        obj.match = match
        return obj

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert self.match is not None
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        m = self.match
        games = interaction.client.games  # the bot's game service: it knows the game's table
        click = games.click(
            interaction, int(m["game"]), int(m["serial"]), m["action"], m["arg"] or "", values
        )
        await answering(interaction, click)


def button(
    session: GameSession, action: str, label: str, style: discord.ButtonStyle, arg: int | str = ""
) -> GameItem:
    cid = custom_id(session.game_id, session.serial, action, arg)
    return GameItem(discord.ui.Button(label=label, custom_id=cid, style=style))


def seat_select(session: GameSession, action: str, placeholder: str, seats: list[int]) -> GameItem:
    options = [
        discord.SelectOption(label=f"№{seat} {session.name_of(seat)}"[:100], value=str(seat))
        for seat in seats
    ]
    cid = custom_id(session.game_id, session.serial, action)
    return GameItem(discord.ui.Select(custom_id=cid, placeholder=placeholder, options=options[:25]))


def panel_items(session: GameSession) -> list[discord.ui.Item[Any]]:
    """The public panel's controls: «Моя роль», and those of the current step (panel.py lays them out)."""
    s = session.state
    items: list[discord.ui.Item[Any]] = [button(session, "role", "Моя роль", discord.ButtonStyle.secondary)]
    if s.over:
        return items
    step = s.step
    if s.phase == "night" or step.kind in ("question", "tiebreak"):
        items.append(button(session, "turn", "Мой ход", discord.ButtonStyle.primary))
    elif step.kind == "speech":
        items.append(button(session, "pass", "Пас", discord.ButtonStyle.secondary))
        if step.round == "day":
            free = _nominable(session)
            if free:
                items.append(seat_select(session, "nominate", "Выставить кандидатуру", free))
    elif step.kind == "nominations":
        free = _nominable(session)
        if free:
            items.append(seat_select(session, "nominate", "Выставить кандидатуру", free))
    elif step.kind == "vote":
        label = f"Голосую: №{step.seat} {session.name_of(step.seat)}"[:80]
        items.append(button(session, "vote", label, discord.ButtonStyle.danger, step.seat))
        if s.ruleset.voting.withdraw:  # D-CL3: a hand may go down until the count closes
            items.append(button(session, "unvote", "Снять голос", discord.ButtonStyle.secondary, step.seat))
    for extra in PANEL_EXTRAS:
        items += extra(session)
    return items


def prompted_seats(session: GameSession) -> set[int]:
    """Who gets a private prompt now: the actors, the maniac or the tie-breaker asked, and the voters of
    a private ballot (a court)."""
    s = session.state
    if s.step.kind in ("question", "tiebreak"):
        return {s.step.seat}
    seats = set(queries.actors(s))
    if hasattr(STEP_KINDS.get(s.step.kind), "choices"):
        seats |= queries.voters(s)
    return seats


def _nominable(session: GameSession) -> list[int]:
    s = session.state
    taken = {t for _, t in s.nominations}
    return [x for x in s.living() if x not in taken]


def prompt_for(session: GameSession, seat: int) -> tuple[str, discord.ui.View] | None:
    """A seat's private controls for the current step (night action, the maniac's answer, a tie-break)."""
    s = session.state
    view = MafiaView(timeout=None)
    for extra in PROMPT_EXTRAS:
        found = extra(session, seat)
        if found is not None:
            text, items = found
            for item in items:
                view.add_item(item)
            return text, view
    if s.step.kind == "question" and s.step.seat == seat:
        view.add_item(button(session, "yes", "Да", discord.ButtonStyle.success))
        view.add_item(button(session, "no", "Нет", discord.ButtonStyle.secondary))
        return "Вы играете за мирных жителей? Ответ будет объявлен всем.", view
    if s.step.kind == "tiebreak" and s.step.seat == seat:
        view.add_item(seat_select(session, "tiebreak", "Кого исключить?", list(s.step.candidates)))
        return "Ваш голос решающий.", view
    options = queries.targets_for(s, seat)
    if not options:
        return None
    role = s.ruleset.roles[s.role_of(seat)].display
    for name, targets in options.items():
        if not targets:
            continue
        action = "propose" if name == "team" else "act"
        placeholder = "Цель команды" if name == "team" else "Выберите игрока"
        view.add_item(seat_select(session, action, placeholder, targets))
    if "team" not in options and queries.is_optional(s, seat):
        view.add_item(button(session, "skip", "Пропустить", discord.ButtonStyle.secondary))
    return f"{role}, ваш ход. Выберите игрока.", view
