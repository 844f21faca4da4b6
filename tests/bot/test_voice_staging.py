"""Pre-staged mutes (issue 20, item 2): when a step's clock runs out, the rules fix the next state
before the bot has stored it; its mutes go out beside the write, its unmutes only once the game is
there (nobody is unmuted before he may speak), and a write the database refuses takes them back."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from engine.commands import Command
from mafiabot.bot import MafiaBot


def _run_out(d: TableDriver) -> None:
    """Move the game's clock so that the current step ends at once (as test_game_timers does)."""
    assert d.table is not None
    session = d.table.session
    deadline = session.deadline()
    assert deadline is not None
    shift = deadline - 0.05 - time.time()
    session.clock = lambda: time.time() + shift
    session.extend(0)  # re-arm the step's timer by the moved clock


class HeldStore:
    """The game's command store, held at a gate the test opens (and failing there, if told to)."""

    def __init__(self, d: TableDriver, monkeypatch: pytest.MonkeyPatch) -> None:
        self.records = d.games.records
        self.store = self.records.append_command
        self.reached, self.gate = asyncio.Event(), asyncio.Event()
        self.fail = False
        monkeypatch.setattr(self.records, "append_command", self.append_command)

    async def append_command(self, game_id: int, command: Command, **kwargs: Any) -> Any:
        self.reached.set()
        await self.gate.wait()
        if self.fail:
            raise OSError("the database is gone")
        return await self.store(game_id, command, **kwargs)


async def test_a_speech_that_runs_out_mutes_its_speaker_while_stored_and_unmutes_the_next_after(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.state.step.kind == "speech" and d.state.step.seat == 1
    first, second = d.member(1), d.member(2)
    store = HeldStore(d, monkeypatch)
    _run_out(d)
    await fake.wait_for(
        lambda: (state := fake.voice_state(first)) is not None and state.mute, what="the speaker muted"
    )
    assert store.reached.is_set() and d.state.step.seat == 1, "muted while the step's end is being stored"
    voice = fake.voice_state(second)
    assert voice is not None and voice.mute, "the next speaker is not unmuted before the game is his"
    store.gate.set()
    await d.until(lambda: d.state.step.seat == 2, "the next speech")
    await d.settled()
    d.assert_mutes()


async def test_a_step_s_end_the_database_refuses_gives_the_speaker_his_voice_back(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    first, second = d.member(1), d.member(2)
    store = HeldStore(d, monkeypatch)
    store.fail = True
    _run_out(d)
    await fake.wait_for(
        lambda: (state := fake.voice_state(first)) is not None and state.mute, what="the speaker muted"
    )
    store.gate.set()  # the write fails: the game is still in his speech, so his voice comes back
    await fake.wait_for(
        lambda: (state := fake.voice_state(first)) is not None and not state.mute, what="his voice back"
    )
    assert d.state.step.seat == 1
    voice = fake.voice_state(second)
    assert voice is not None and voice.mute
    store.fail = False  # the timer tries the step's end again (session.STORE_RETRY) and stores it
    await d.until(lambda: d.state.step.seat == 2, "the next speech")
    await d.settled()
    d.assert_mutes()
