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
from mafiabot.i18n import has, text
from mafiabot.views import MafiaView

# Items a preset adds to the public panel for the current step (GameItems: the panel keeps no view).
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
        # (MafiaBot takes a click on a game's item from INTERACTION_CREATE itself, before discord.py would
        # build a view around it to come here: this is only the way of a client without that path.)
        await game_click(interaction, self.match)


# The custom ids of GameItem, as discord.py matches them. MafiaBot takes a click on one to game_click
# straight from the gateway, without the view discord.py would build around the item (bot.py).
GAME_ITEM = re.compile(_TEMPLATE)


async def game_click(interaction: discord.Interaction[Any], m: re.Match[str]) -> None:
    """A click on a game's button or select (``m``: its custom id matched by GAME_ITEM)."""
    data: Any = interaction.data or {}
    values = [str(v) for v in data.get("values", [])]
    games = interaction.client.games  # the bot's game service: it knows the game's table
    click = games.click(interaction, int(m["game"]), int(m["serial"]), m["action"], m["arg"] or "", values)
    await answering(interaction, click)


def button(
    session: GameSession, action: str, label: str, style: discord.ButtonStyle, arg: int | str = ""
) -> GameItem:
    cid = custom_id(session.game_id, session.serial, action, arg)
    return GameItem(discord.ui.Button(label=label, custom_id=cid, style=style))


def seat_select(session: GameSession, action: str, placeholder: str, seats: list[int]) -> GameItem:
    options = [
        discord.SelectOption(
            label=text(session.language, "seat-option", seat=seat, name=session.name_of(seat))[:100],
            value=str(seat),
        )
        for seat in seats
    ]
    cid = custom_id(session.game_id, session.serial, action)
    return GameItem(discord.ui.Select(custom_id=cid, placeholder=placeholder, options=options[:25]))


def _button(
    session: GameSession, action: str, label: str, style: discord.ButtonStyle, arg: int | str = ""
) -> Any:
    """`button`'s component as Discord reads it, without discord.py's item (issue 18: the panel's)."""
    cid = custom_id(session.game_id, session.serial, action, arg)
    return {"type": 2, "style": style.value, "disabled": False, "label": label, "custom_id": cid}


def _seat_select(session: GameSession, action: str, placeholder: str, seats: list[int]) -> Any:
    """`seat_select`'s component as Discord reads it, without discord.py's item."""
    lang = session.language
    options = [
        {
            "label": text(lang, "seat-option", seat=seat, name=session.name_of(seat))[:100],
            "value": str(seat),
            "default": False,
        }
        for seat in seats[:25]
    ]
    return {
        "type": 3,
        "custom_id": custom_id(session.game_id, session.serial, action),
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "placeholder": placeholder,
        "options": options,
    }


def panel_controls(session: GameSession) -> list[dict[str, Any]]:
    """The public panel's controls as Discord reads them (buttons and selects): «Моя роль», and those of
    the current step (panel.py lays them out). Drawn as their dicts, not as discord.py's items: the panel
    is drawn at every click and sent as its components (issue 18); a click on one reaches the game by its
    custom id (GameItem), so no view of them is kept. A preset's extras are GameItems too (a click on any
    other item would need its view stored)."""
    s, lang = session.state, session.language
    secondary = discord.ButtonStyle.secondary
    items = [_button(session, "role", text(lang, "control-role"), secondary)]
    if s.over:
        return items
    step = s.step
    if s.phase == "night" or step.kind in ("question", "tiebreak"):
        items.append(_button(session, "turn", text(lang, "control-turn"), discord.ButtonStyle.primary))
    elif step.kind == "speech":
        items.append(_button(session, "pass", text(lang, "control-pass"), secondary))
        if step.round == "day" or queries.may_nominate_in_last_word(s, step.seat):
            free = _nominable(session)
            if free:
                items.append(_seat_select(session, "nominate", text(lang, "control-nominate"), free))
    elif step.kind == "nominations":
        free = _nominable(session)
        if free:
            items.append(_seat_select(session, "nominate", text(lang, "control-nominate"), free))
    elif step.kind == "vote":
        label = text(lang, "control-vote", seat=step.seat, name=session.name_of(step.seat))[:80]
        items.append(_button(session, "vote", label, discord.ButtonStyle.danger, step.seat))
        if s.ruleset.voting.withdraw:  # D-CL3: a hand may go down until the count closes
            unvote = text(lang, "control-unvote")
            items.append(_button(session, "unvote", unvote, secondary, step.seat))
    for extra in PANEL_EXTRAS:
        for item in extra(session):
            if not isinstance(item, GameItem):
                raise TypeError(f"the panel's controls are GameItems, not {type(item).__name__}")
            items.append(item.to_component_dict())
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
    s, lang = session.state, session.language
    view = MafiaView(timeout=None)
    for extra in PROMPT_EXTRAS:
        found = extra(session, seat)
        if found is not None:
            said, items = found
            for item in items:
                view.add_item(item)
            return said, view
    if s.step.kind == "question" and s.step.seat == seat:
        view.add_item(button(session, "yes", text(lang, "control-yes"), discord.ButtonStyle.success))
        view.add_item(button(session, "no", text(lang, "control-no"), discord.ButtonStyle.secondary))
        return text(lang, "prompt-question"), view
    if s.step.kind == "tiebreak" and s.step.seat == seat:
        choices = list(s.step.candidates)
        view.add_item(seat_select(session, "tiebreak", text(lang, "control-tiebreak"), choices))
        return text(lang, "prompt-tiebreak"), view
    options = queries.targets_for(s, seat)
    if not options:
        return None
    role = role_name(session, s.role_of(seat))
    for name, targets in options.items():
        if not targets:
            continue
        action = "propose" if name == "team" else "act"
        placeholder = text(lang, "control-team-target" if name == "team" else "control-target")
        view.add_item(seat_select(session, action, placeholder, targets))
    if "team" not in options and queries.is_optional(s, seat):
        view.add_item(button(session, "skip", text(lang, "control-skip"), discord.ButtonStyle.secondary))
    return text(lang, "prompt-your-turn", role=role), view


def role_name(session: GameSession, role: str) -> str:
    """A role's name: in Russian the rulebook's own (classic's civilian is «Честный горожанин»), in
    another language the catalogue's (a server's own variant's new role keeps its own name)."""
    key = f"role-{role}"
    if session.language != "ru" and has(session.language, key):
        return text(session.language, key)
    return session.state.ruleset.roles[role].display
