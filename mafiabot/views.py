"""The base of every view the bot sends.

discord.py gives each view with a timeout (every ephemeral one gets 15 minutes) a task that
`Client.close()` does not stop; views made from `MafiaView` are all stopped when the bot closes.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

import discord

from mafiabot.errors import GENERIC_FAILURE, reply_ephemeral
from mafiabot.logs import bind, hidden

log = logging.getLogger(__name__)

_open_views: weakref.WeakSet[MafiaView | MafiaLayoutView] = weakref.WeakSet()


class MafiaView(discord.ui.View):
    def __init__(self, *, timeout: float | None = 180.0) -> None:
        super().__init__(timeout=timeout)
        _open_views.add(self)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bind(guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        # The item's label or value can be a night target: without the "secrets" switch only its kind.
        log.error(
            "View %s failed on %s %s", type(self).__name__, type(item).__name__, hidden(item), exc_info=error
        )
        await reply_ephemeral(interaction, GENERIC_FAILURE)


class MafiaLayoutView(discord.ui.LayoutView):
    """The same for a Components V2 layout (the game panel)."""

    def __init__(self, *, timeout: float | None = 180.0) -> None:
        super().__init__(timeout=timeout)
        _open_views.add(self)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bind(guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        log.error(
            "View %s failed on %s %s", type(self).__name__, type(item).__name__, hidden(item), exc_info=error
        )
        await reply_ephemeral(interaction, GENERIC_FAILURE)


def stop_all_views() -> None:
    for view in list(_open_views):
        view.stop()
