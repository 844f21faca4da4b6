"""A slash command's options read against what the bot declared, before discord.py parses them.

Discord's client sends an option only of its declared type, inside its bounds and choices; discord.py
trusts that, so a value a modified client forged («abc» for a seat, a list for a text, a user id that is
no number) failed inside discord.py or the command (``int('abc')`` in its namespace, ``'<=' between int
and str`` in a range) and was logged as the bot's failure, some without any answer. ``forged_option``
names the first option that Discord itself would never have sent, so the command is refused privately
and never runs."""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Kind

SUBCOMMANDS = (1, 2)  # a subcommand, a group of them
AUTOCOMPLETE = 4  # an interaction's type: the choices for what a member is typing
_MENUS = {2: "users", 3: "messages"}  # a context menu's kind: where Discord resolves its target
_RESOLVED = {Kind.user: ("users",), Kind.channel: ("channels",), Kind.role: ("roles",),
             Kind.mentionable: ("users", "roles"), Kind.attachment: ("attachments",)}  # fmt: skip
_LARGEST = 2**53  # Discord's integers are doubles' exact ones
_LONGEST = 6000  # the longest text option Discord takes


def _number(value: Any, integer: bool) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if integer:
        return isinstance(value, int) and -_LARGEST < value < _LARGEST
    return math.isfinite(value)


def _wrong_type(kind: Kind, value: Any) -> bool:
    """Not a value of the option's type as Discord sends it (a resolved one as its id's digits)."""
    if kind in _RESOLVED:
        return not isinstance(value, str) or not value.isdigit()
    if kind in (Kind.integer, Kind.number):
        return not _number(value, kind is Kind.integer)
    if kind is Kind.boolean:
        return not isinstance(value, bool)
    return not isinstance(value, str)


def _bad_value(parameter: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> bool:
    kind = parameter.type
    if _wrong_type(kind, value):
        return True
    if kind is Kind.string:
        shortest, longest = parameter.min_value or 1, parameter.max_value or _LONGEST  # (its lengths)
        if not shortest <= len(value) <= longest:
            return True
    elif kind in (Kind.integer, Kind.number):
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            return True
    elif kind is Kind.boolean:
        return False
    elif kind in _RESOLVED:
        return not any(value in (resolved.get(where) or {}) for where in _RESOLVED[kind])
    choices = [choice.value for choice in parameter.choices]
    return bool(choices) and not parameter.autocomplete and value not in choices


def _bad_typed(parameter: app_commands.Parameter, value: Any, focused: bool) -> bool:
    """An option of an autocomplete request: the focused one is what is typed so far, always text; the
    others as chosen, of their type (an id a number)."""
    if focused:
        return not isinstance(value, str) or len(value) > _LONGEST
    return _wrong_type(parameter.type, value)


def forged_option(tree: app_commands.CommandTree[Any], data: Any) -> str | None:
    """The name of the first option of this chat command's interaction (``data``: INTERACTION_CREATE's)
    that Discord would not have sent, or None when they all are as declared (or the command is not the
    bot's: discord.py answers that itself); «target» for a context menu's target Discord did not resolve."""
    inner = data.get("data")
    if not isinstance(inner, dict):
        return None
    if inner.get("type") in _MENUS:  # a context menu: its target, resolved by Discord
        target, resolved = inner.get("target_id"), inner.get("resolved")
        found = resolved.get(_MENUS[inner["type"]]) if isinstance(resolved, dict) else None
        if not isinstance(target, str) or not target.isdigit() or not isinstance(found, dict):
            return "target"
        return None if target in found else "target"
    if inner.get("type", 1) != 1:
        return None
    guild = str(inner.get("guild_id"))
    command: Any = tree.get_command(
        str(inner.get("name")), guild=discord.Object(int(guild)) if guild.isdigit() else None
    )
    options = inner.get("options") or []
    resolved = inner.get("resolved") or {}
    if not isinstance(options, list) or not isinstance(resolved, dict):
        return "options"
    while isinstance(command, app_commands.Group):
        sub = next((o for o in options if isinstance(o, dict) and o.get("type") in SUBCOMMANDS), None)
        if sub is None:
            return None  # (discord.py refuses a group without its subcommand)
        command = command.get_command(str(sub.get("name")))
        options = sub.get("options") or []
        if not isinstance(options, list):
            return "options"
    if not isinstance(command, app_commands.Command):
        return None
    parameters = {p.display_name: p for p in command.parameters}
    typing = data.get("type") == AUTOCOMPLETE  # the member is still typing: values need not be complete
    given = set()
    for option in options:
        if not isinstance(option, dict):
            return "options"
        name = str(option.get("name"))
        parameter = parameters.get(name)
        if parameter is None or name in given or option.get("type") != parameter.type.value:
            return name[:40]
        given.add(name)
        value = option.get("value")
        if typing:
            if _bad_typed(parameter, value, bool(option.get("focused"))):
                return name
        elif _bad_value(parameter, value, resolved):
            return name
    if typing:
        return None
    missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
    return missing[0] if missing else None
