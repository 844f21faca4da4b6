"""Issue 13's small untruths a player notices, through the local Discord."""

from __future__ import annotations

import copy

from fakediscord import Club, FakeDiscord
from fakediscord.world import Message
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot


def _custom_id(message: Message, action: str) -> str:
    for c in message.items():
        parts = c.get("custom_id", "").split(":")
        if len(parts) > 4 and parts[4] == action:
            return str(c["custom_id"])
    raise LookupError(action)


async def test_pass_right_after_permit_is_not_stale(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """«Разрешаю N» keeps the speech: a «Пас» from the panel as it was a moment before ends the speech
    (it used to be refused as «Этот шаг игры уже закончился»), and the speech's clock is not restarted."""
    fake.rate_limits.set(MEMBER_EDIT, 200, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("city", "sleepers_stay")
    for _ in range(20):
        if d.state.phase == "day" and d.state.step.kind == "speech" and d.state.step.round == "day":
            break
        await d.skip_step()
    await d.settled()
    speaker = d.state.step.seat
    assert d.table is not None
    serial = d.table.session.serial
    started = d.state.step.started_at
    before = copy.deepcopy(d.panel())  # the speaker's client has not seen the permit's edit yet
    answer = await fake.select(d.member(speaker), d.panel(), _custom_id(d.panel(), "permit"), ["3"])
    await d.settled()
    assert answer.content == "Разрешаю говорить игроку №3.", answer.content
    assert d.state.step.started_at == started  # the speech's clock goes on
    assert d.table.session.serial == serial
    passed = await fake.click(d.member(speaker), before, label="Пас")
    await d.settled()
    assert "уже закончился" not in passed.content, passed.content
    assert d.state.step.seat != speaker or d.state.step.kind != "speech"
