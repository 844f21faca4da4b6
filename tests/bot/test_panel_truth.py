"""The panel tells the truth (issue 13): while the host speaks a step's opening line the clock has not
started (no countdown, and no «пауза»: only a moderator's pause is one); when it starts the panel shows the
countdown at once; at night the host's line changes nothing on the panel, so it cannot tell the table
whether the step's role is alive or has acted."""

from __future__ import annotations

import asyncio

from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot


async def test_the_host_line_holds_the_clock_without_a_pause(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    assert d.state.step.kind == "speech" and d.state.step.seat == 1
    speaking: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    table.hold_clock(speaking)  # as when the host says «Слово предоставляется игроку номер 1»
    table.refresh_panel()
    await d.settled()
    first = d.panel().text.splitlines()[0]
    assert first.endswith("Говорит игрок №1"), first
    assert table.session.deadline() is None
    speaking.set_result(None)
    await asyncio.sleep(0)  # the future's callbacks run on the next turn of the loop
    await d.settled()
    deadline = table.session.deadline()
    assert deadline is not None
    assert d.panel().text.splitlines()[0].endswith(f"Говорит игрок №1 · до <t:{int(deadline)}:R>")

    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.content == "Пауза."
    await d.settled()
    assert d.panel().text.splitlines()[0].endswith("Говорит игрок №1 · пауза")


async def test_at_night_the_host_line_changes_nothing_on_the_panel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    while d.state.phase != "night":
        await d.skip_step()
    assert table.panel is not None
    before = (d.panel().text, d.panel().components)
    edits = len(fake.calls)
    speaking: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    table.hold_clock(speaking)
    table.refresh_panel()
    await d.settled()
    assert (d.panel().text, d.panel().components) == before
    speaking.set_result(None)
    await asyncio.sleep(0)  # the future's callbacks run on the next turn of the loop
    await d.settled()
    assert (d.panel().text, d.panel().components) == before
    panel_edits = [c for c in fake.calls[edits:] if c.method == "PATCH" and str(table.panel.id) in c.path]
    assert panel_edits == [], "no edit of the panel at night while nothing public changed"
