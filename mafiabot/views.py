"""The base of every view the bot sends.

discord.py gives each view with a timeout (every ephemeral one gets 15 minutes) a task that
`Client.close()` does not stop; views made from `MafiaView` are all stopped when the bot closes.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

import discord

from mafiabot.errors import expired, language_of, note_expired, reply_ephemeral
from mafiabot.i18n import text
from mafiabot.logs import bind, hidden

log = logging.getLogger(__name__)

_open_views: weakref.WeakSet[MafiaView | MafiaLayoutView] = weakref.WeakSet()


class _TableViewBehaviour:
    """What every view of the bot does on a click and on a failure, whichever discord.py base it has."""

    def _register(self) -> None:
        _open_views.add(self)  # type: ignore[arg-type]

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bind(guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        if expired(error):  # answered after Discord's 3 s: nothing to tell, nobody to tell it
            note_expired(interaction)
            return
        # The item's label or value can be a night target: without the "secrets" switch only its kind.
        log.error(
            "View %s failed on %s %s", type(self).__name__, type(item).__name__, hidden(item), exc_info=error
        )
        await reply_ephemeral(interaction, text(language_of(interaction), "error-generic"))


class MafiaView(_TableViewBehaviour, discord.ui.View):
    def __init__(self, *, timeout: float | None = 180.0) -> None:
        super().__init__(timeout=timeout)
        self._register()


class MafiaLayoutView(_TableViewBehaviour, discord.ui.LayoutView):
    """The same for a Components V2 layout (the game panel)."""

    def __init__(self, *, timeout: float | None = 180.0) -> None:
        super().__init__(timeout=timeout)
        self._register()


def stop_all_views() -> None:
    for view in list(_open_views):
        view.stop()
