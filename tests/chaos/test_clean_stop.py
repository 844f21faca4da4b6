"""SIGTERM and SIGINT are a clean stop, not a crash, on either event loop: `systemctl restart` in the
middle of a speech loses nothing, and the speech goes on with the time it had left."""

from __future__ import annotations

import re
import signal
import time

import pytest
from fakediscord import Club, FakeDiscord

from chaos.bot_process import BotProcess
from chaos.outside import Database, OutsideTable
from mafiabot.game.service import RESTART_NOTICE


# Each stop on one of the two event loops `mafiabot run` may run on ([bot] event_loop): uvloop, the
# default where it is installed (every other chaos test runs on it too), and asyncio's own.
@pytest.mark.parametrize(
    ("sig", "event_loop", "loop_used"),
    [(signal.SIGTERM, "auto", "uvloop"), (signal.SIGINT, "asyncio", "asyncio")],
)
async def test_a_stop_mid_speech_exits_0_and_the_speech_goes_on_with_its_time(
    fake: FakeDiscord,
    club: Club,
    bot_process: BotProcess,
    sig: signal.Signals,
    event_loop: str,
    loop_used: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MAFIABOT_EVENT_LOOP", event_loop)
    await bot_process.start()
    assert bot_process.log_has(f"Event loop: {loop_used} ("), bot_process.lines[:5]
    # The collector's policy (mafiabot/gcpolicy.py): what the start made is frozen once it has restored.
    await bot_process.wait_for_log("objects frozen after the start")
    table = OutsideTable(fake, club, club.players[:7])
    await table.start("classic")
    first = table.speaker()
    assert first is not None
    await fake.click(table.member(first), table.panel(), label="Пас")  # type: ignore[arg-type]
    await fake.wait_for(lambda: table.speaker() not in (None, first), what="the second speech")
    speaker = table.speaker()
    assert speaker is not None
    await fake.wait_for(lambda: table.muted() == set(table.seats()) - {speaker}, what="the speech's mutes")
    db = Database(bot_process.database_url)
    (game,) = db.games()
    log_before = db.stored(game["id"]).commands
    old_panel = table.panel()
    assert old_panel is not None

    stopped_at = time.time()
    assert await bot_process.terminate(sig) == 0
    assert time.time() - stopped_at < 20, "the stop is bounded"
    assert table.texts().count(RESTART_NOTICE) == 1, "each running game is told once"
    assert fake.world.bot_user.id not in club.guild.voice_states, "the host left voice"
    assert table.muted() == set(table.seats()) - {speaker}, "the table waits as it was"
    stored = db.stored(game["id"])
    assert stored.status == "running" and stored.commands == log_before
    left = stored.timers["left"]
    assert 0 < left <= 60

    # Downtime does not count against the speech.
    time.sleep(1.5)
    restarted_at = time.time()
    await bot_process.start()
    panel = await fake.wait_for(
        lambda: (p := table.panel()) is not None and p.id != old_panel.id and p, what="the new panel"
    )
    resumed_at = time.time()
    assert any("Бот перезапущен" in t for t in table.texts())
    assert table.speaker() == speaker
    found = re.search(r"<t:(\d+):R>", panel.text)
    assert found is not None, panel.text
    # The deadline is the time left counted from the resume (the panel shows whole seconds, so give or
    # take one): not before the restart began plus what was left (the downtime did not count), not after
    # the new panel was seen plus what was left (no time was given). Bounds, not a stopwatch: however
    # slow the machine, the resume lies between the two.
    deadline = int(found[1])
    assert restarted_at + left - 1 <= deadline <= resumed_at + left + 1, (restarted_at, resumed_at, left)
    assert db.stored(game["id"]).commands == log_before
    assert table.muted() == set(table.seats()) - {speaker}

    # And the speech is still the speaker's to end.
    await fake.click(table.member(speaker), table.panel(), label="Пас")  # type: ignore[arg-type]
    await fake.wait_for(lambda: table.speaker() not in (None, speaker), what="the next speech")
    assert len(db.stored(game["id"]).commands) == len(log_before) + 1
    db.close()
