"""Small helpers for answering interactions with private (ephemeral) content."""

from __future__ import annotations

from typing import Any

import discord

from mafiabot.errors import replaces_thinking


async def send_private(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> None:
    extra: dict[str, Any] = {} if view is None else {"view": view}
    if not interaction.response.is_done():
        await interaction.response.send_message(text[:2000], ephemeral=True, **extra)
    elif replaces_thinking(interaction):
        await interaction.edit_original_response(content=text[:2000], **extra)
    else:
        await interaction.followup.send(text[:2000], ephemeral=True, **extra)
