"""Red team: a user option naming somebody who is not a member of the server.

Discord's client offers members in a user option, but a member's id typed or pasted (or one who left the
server a moment ago) reaches the bot as a user without a member. The commands that want a member
(«/mafia foul player») must answer that privately, not fail as a bug."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.i18n import text


@pytest.mark.club(players=8)
async def test_a_user_who_is_not_a_member_is_refused_privately(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    stranger = fake.world.add_user("stranger")  # on Discord, not on this server
    before = (len(table.session.log), d.muted_seats(), len(fake.messages(club.text)))
    [foul] = [c for c in fake.commands[None] if c["name"] == "mafia"]
    sub = next(o for o in foul["options"] if o["name"] == "foul")
    reason = next(o for o in sub["options"] if o["name"] == "reason")["choices"][0]["value"]
    answer = await fake.slash(d.players[0], "mafia foul", channel=club.text, reason=reason, player=stranger)
    assert answer.ephemeral and answer.content == text("ru", "error-not-a-member"), answer.callback
    await d.settled()
    assert (len(table.session.log), d.muted_seats(), len(fake.messages(club.text))) == before
