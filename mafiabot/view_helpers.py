"""Small helpers for answering interactions with private (ephemeral) content."""

from __future__ import annotations

from typing import Any

import discord

from mafiabot import answers


async def send_private(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None = None
) -> None:
    """Answer the interaction privately whether or not it was answered already. After a «думает…»
    acknowledgement the first answer takes its place (a followup would leave it spinning)."""
    extra: dict[str, Any] = {} if view is None else {"view": view}
    if not interaction.response.is_done():
        if view is None:  # (without the message discord.py would build of Discord's reply, issue 18)
            await answers.send_private(interaction, text[:2000])
        else:
            await interaction.response.send_message(text[:2000], ephemeral=True, **extra)
    elif replaces_thinking(interaction):
        await interaction.edit_original_response(content=text[:2000], **extra)
    else:
        await interaction.followup.send(text[:2000], ephemeral=True, **extra)


def replaces_thinking(interaction: discord.Interaction[Any]) -> bool:
    """True once, for the first answer after ``defer(thinking=True)``."""
    thinking = interaction.response.type == discord.InteractionResponseType.deferred_channel_message
    if not thinking or interaction.extras.get("thinking_replaced"):
        return False
    interaction.extras["thinking_replaced"] = True
    return True
