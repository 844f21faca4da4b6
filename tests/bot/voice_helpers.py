"""Voice set-ups the voice ledger and reconciler tests share."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


async def muted_in_voice(fake: FakeDiscord, bot: MafiaBot, club: Club, index: int) -> int:
    """Club player ``index`` joins the game's voice channel and is server-muted (by the bot's own edit,
    seen back through the gateway); returns his user id."""
    player = club.players[index]
    await fake.join_voice(player, club.voice)
    guild = bot.get_guild(club.id)
    assert guild is not None
    member = guild.get_member(player.id)
    assert member is not None
    await member.edit(mute=True)
    await fake.gateway.flush()
    return player.id
