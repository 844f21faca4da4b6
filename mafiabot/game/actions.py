"""The handlers of the game's buttons and selects, by action name (``mafia:g:<game>:<serial>:<action>``).
The cogs register them (``roles``, ``voting``, ``variants``); the game service runs the one a click names,
with the game's table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from mafiabot.game.table import Table

# (interaction, table, serial of the step the control was made for, its argument, the select's values)
Handler = Callable[[discord.Interaction[Any], Table, int, str, list[str]], Awaitable[None]]
ACTIONS: dict[str, Handler] = {}
