"""A table's private messages: the players' DM channels are the table's to keep (issue 18)."""

from __future__ import annotations

import discord
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver

from mafiabot.bot import MafiaBot

OPEN_DM = "POST /users/@me/channels"


async def test_a_table_opens_each_players_dm_channel_once(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """discord.py remembers only the last 128 DM channels it used: with more players than that in the
    process (other tables'), every DM of a game asked Discord for the player's channel again, one
    request more per DM. The table keeps its players' channels, so a DM is one request however many
    players the process has."""
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    await d.settled()  # the roles are dealt: every player's channel was opened once
    players = {d.member(seat).id for seat in d.all_seats()}
    opened = [c for c in fake.calls if c.route == OPEN_DM and int(c.json["recipient_id"]) in players]
    assert len(opened) == len(players)
    # Other tables' players, 130 of them, each sent a DM since: the game's channels are out of
    # discord.py's own cache.
    for n in range(130):
        other = fake.world.add_user(f"other-table-{n}")
        await bot.create_dm(discord.Object(id=other.id))
    mark = len(fake.calls)
    for seat in d.all_seats():
        table.dm(seat, f"второе сообщение, место {seat}")
    await d.settled()
    assert [c for c in fake.calls[mark:] if c.route == OPEN_DM] == []
    for seat in d.all_seats():
        assert d.dm_texts(seat)[-1].endswith(f"второе сообщение, место {seat}"), d.dm_texts(seat)[-1]
