"""Red team: component clicks whose payload lacks what Discord always sends (the clicked message), or
that come from a thread or a private chat: each is answered, nothing is logged as the bot's failure."""

from __future__ import annotations

from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

MESSAGE_COMPONENT = 3


@pytest.mark.club(players=8)
async def test_game_clicks_without_their_message_are_answered(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    panel = d.panel()
    ids = {b["label"]: b["custom_id"] for b in panel.buttons()}
    role, passing = ids[d.t("control-role")], ids[d.t("control-pass")]
    for who, custom_id, channel in (
        (d.member(2), role, club.text),
        (d.member(2), role, fake.world.dm_channel(d.member(2).user)),
        (d.member(3), passing, club.text),
        (d.member(1), passing, fake.world.dm_channel(d.member(1).user)),  # the speaker's own «Пас»
    ):
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        record = await fake._interact(who, channel, MESSAGE_COMPONENT, data, message=None, wait=True)
        assert record.callback is not None, (custom_id, channel.id)
        await d.settled()
    assert d.state.step.seat == 2, "the speaker's own «Пас» counted, from wherever it came"
    d.assert_mutes()
