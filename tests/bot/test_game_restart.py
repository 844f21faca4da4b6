"""The bot stops mid-game and starts again on the same database: the game goes on where it was."""

from __future__ import annotations

import time

import pytest
from fakediscord import MESSAGE_SEND, Club, FakeDiscord
from game_driver import MEMBER_EDIT, Restart, TableDriver

from mafiabot.bot import MafiaBot


async def test_the_game_continues_at_the_same_speech_with_the_same_mutes(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.pass_speech()
    await d.pass_speech()
    assert d.table is not None
    old_panel = d.panel()
    speaker, serial, log = d.state.step.seat, d.table.session.serial, len(d.table.session.log)
    muted = d.muted_seats()
    deadline = d.table.session.deadline()
    assert deadline is not None and muted == d.all_seats() - {speaker}

    async with restart() as second:
        d.bot = second
        table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        d.table = table
        await d.settled()
        edits_after_restart = len(fake.calls_to(MEMBER_EDIT))
        assert d.state.step.kind == "speech" and d.state.step.seat == speaker
        assert table.session.serial == serial and len(table.session.log) == log
        assert d.muted_seats() == muted
        resumed = table.session.deadline()
        assert resumed is not None and abs(resumed - deadline) < 2.0, "the speech keeps its time"
        assert any("Бот перезапущен" in t for t in d.public_texts())

        # The panel posted before the restart still works: its buttons name the game and the step.
        answer = await fake.click(d.member(speaker), old_panel, label="Пас")
        assert answer.ephemeral and answer.content == "Пас."
        await d.settled()
        assert d.state.step.seat != speaker
        d.assert_mutes()
        # Exactly the hand-over's two edits: the restart itself re-sent no mute.
        assert len(fake.calls_to(MEMBER_EDIT)) == edits_after_restart + 2


async def test_a_pause_and_a_pending_unmute_survive_the_restart(
    bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.games.presence.leave_grace = 600.0
    await d.start("classic")
    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.ephemeral
    await d.settled()
    assert d.table is not None
    left = d.table.session.paused_left
    assert left is not None
    leaver = d.member(5)
    assert fake.voice_state(leaver).mute  # type: ignore[union-attr]
    await fake.leave_voice(leaver)
    await d.settled()

    async with restart() as second:
        d.bot = second
        table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        d.table = table
        await d.settled()
        assert table.session.paused_left == pytest.approx(left) and table.session.deadline() is None
        started = time.time()
        resumed = await fake.slash(d.players[0], "mafia resume", channel=club.text)
        assert resumed.ephemeral and resumed.content == "Продолжаем.", "the creator is still the moderator"
        deadline = table.session.deadline()
        assert deadline is not None and started + left - 1 < deadline < time.time() + left + 0.1

        stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
        assert stopped.ephemeral
        await fake.wait_for(lambda: not d.games.tables, what="the stop")
        await d.settled()
        assert d.muted_seats() == set()
        # The player who left while muted is unmuted when they next connect.
        assert leaver.mute
        await fake.join_voice(leaver, club.voice)
        await fake.wait_for(lambda: not leaver.mute, what="the pending unmute after the restart")


async def test_the_deal_counts_as_posted_only_once_the_seating_is_sent(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """The table is stored whenever its clock moves (a step, a pause, the voice originals: clock.py);
    while the seating waits in the queue (Discord answers 503) what is stored must still say «not dealt»,
    or a crash then would leave the players without their seats for good (a restart re-sends the deal
    only when it was not sent)."""
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    storage = d.games.storage
    assert storage is not None
    fake.faults.fail(MESSAGE_SEND, status=503, times=3)
    await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game")
    await fake.wait_for(
        lambda: (
            fake.faults.served.count((MESSAGE_SEND, 503)) >= 2
            and storage.game(table.game_id).timers.get("stored_at")
        ),
        timeout=10,
        what="the clock stored while the seating fails",
    )
    await table.keep_timers()  # a store meanwhile (a pause, a new member's voice), and the heartbeat's
    await d.games.clocks.beat()
    assert not any(t.startswith("**Рассадка**") for t in d.public_texts())
    assert storage.game(table.game_id).timers.get("dealt") is False

    d.table = table
    await fake.wait_for(lambda: any(t.startswith("**Рассадка**") for t in d.public_texts()), timeout=20)
    await d.settled()
    assert storage.game(table.game_id).timers.get("dealt") is True
