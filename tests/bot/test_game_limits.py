"""A game under Discord's message limits: quick hand-overs never push the panel past 5 edits per 5 s."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord
from fakediscord.ratelimits import MEMBER_EDIT, MESSAGE_EDIT
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.table import PANEL_EDIT_INTERVAL


async def test_quick_hand_overs_keep_the_panel_under_the_edit_limit(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    d = TableDriver(fake, club, bot, club.players[:10])
    fake.rate_limits.set(MEMBER_EDIT, 1000, 1.0)  # the member-edit bucket is the voice controller's
    table = await d.start("classic")
    table.panel_edit_interval = PANEL_EDIT_INTERVAL  # as the bot runs it (the driver turns it off)
    # Hidden, like Discord's sub-limits: discord.py cannot pace itself, so any excess is a real 429.
    fake.rate_limits.set(MESSAGE_EDIT, 5, 5.0, hidden=True)
    for _ in range(7):  # seven speakers pass as fast as they can click
        await d.pass_speech()
    await d.settled()
    assert [route for route, _ in fake.rate_limits.limited if route == MESSAGE_EDIT] == []
    assert d.panel().text == table.status_text()  # the last edit shows where the table is now
