"""Small helpers for answering interactions with private (ephemeral) content."""

from __future__ import annotations

from typing import Any

import discord


async def send_private(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> None:
    if interaction.response.is_done():
        if view is None:
            await interaction.followup.send(text[:2000], ephemeral=True)
        else:
            await interaction.followup.send(text[:2000], ephemeral=True, view=view)
    elif view is None:
        await interaction.response.send_message(text[:2000], ephemeral=True)
    else:
        await interaction.response.send_message(text[:2000], ephemeral=True, view=view)
