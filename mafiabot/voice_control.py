"""Server-side mute of players in voice: the one Discord call the game makes most often.

Discord allows about 10 member edits per 10 s per guild, so the helper skips members who are not in
voice or are already in the wanted state, and leaves 429 handling to discord.py, which waits out
`retry_after` for the bucket.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

log = logging.getLogger(__name__)


async def set_server_mute(
    members: Iterable[discord.Member], muted: bool, *, reason: str | None = None
) -> list[discord.Member]:
    """Mute (or unmute) each member in voice whose state differs; returns the members changed."""
    changed = []
    for member in members:
        if member.voice is None or member.voice.mute == muted:
            continue
        await member.edit(mute=muted, reason=reason)
        changed.append(member)
    if changed:
        log.info(
            "%s %d member(s)",
            "Muted" if muted else "Unmuted",
            len(changed),
            extra={"guild_id": changed[0].guild.id},
        )
    return changed
