"""SIGKILL, the crash a supervisor, the OOM killer or a power cut gives the bot: every test here kills
`mafiabot run` in its own process and starts it again on the same database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import Club, FakeDiscord

from chaos.bot_process import BotProcess
from chaos.outside import Database, OutsideTable


async def test_a_crash_right_after_the_game_is_stored_keeps_its_moderator_and_sends_the_deal(
    fake: FakeDiscord, club: Club, bot_process: BotProcess
) -> None:
    await bot_process.start(kill_at="game_created:1")
    table = OutsideTable(fake, club, club.players[:7])
    for p in table.players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(table.players[0], "mafia new", channel=club.text, ruleset="classic")
    table.lobby_message_id = opened.message.id
    for p in table.players[1:]:
        await fake.click(p, table.lobby_message(), label="Присоединиться")
    await fake.click(table.players[0], table.lobby_message(), label="Начать игру", wait=False)
    await bot_process.wait()
    assert not table.seats(), "the bot died before it posted the deal"

    await bot_process.start()
    await fake.wait_for(table.seats, what="the seating, sent after the restart")
    await fake.wait_for(table.panel, what="the panel")
    assert [t.startswith("**Рассадка**") for t in table.texts()].count(True) == 1
    # Every player has his role card in private.
    await fake.wait_for(lambda: all(fake.dms(p) for p in table.players), what="the role cards")
    # The creator is still the moderator (his id was stored with the game, not after it).
    paused = await fake.slash(table.players[0], "mafia pause", channel=club.text)
    assert paused.content == "Пауза.", paused.content


async def test_a_crash_mid_speech_costs_the_speech_under_a_second(
    fake: FakeDiscord, club: Club, bot_process: BotProcess
) -> None:
    await bot_process.start()
    table = OutsideTable(fake, club, club.players[:7])
    await table.start("classic")
    first = table.speaker()
    assert first is not None
    await fake.click(table.member(first), table.panel(), label="Пас")  # type: ignore[arg-type]
    await fake.wait_for(lambda: table.speaker() not in (None, first), what="the second speech")
    db = Database(bot_process.database_url)
    (game,) = db.games()
    await asyncio.sleep(2.2)  # into the speech: the process's heartbeat has been stored since it began
    await bot_process.kill()
    killed_at = bot_process.killed_at
    stored = db.stored(game["id"])
    assert stored.timers["running"], stored.timers
    # The step's clock was stored when the speech began, not since (the time alone moved it); the
    # process's heartbeat was, twice a second, and it is what tells how much of the speech was gone.
    beat = db.beats()[stored.timers["beat"]]
    assert beat - stored.timers["stored_at"] > 1.0, (beat, stored.timers)
    left_at_kill = stored.timers["left"] - (killed_at - stored.timers["stored_at"])
    serial = stored.timers["serial"]

    await asyncio.sleep(3.0)  # the bot is down; this must not count against the speech
    await bot_process.start()
    await fake.wait_for(
        lambda: db.stored(game["id"]).timers.get("stored_at", 0) > killed_at, what="the resumed clock"
    )
    resumed = db.stored(game["id"]).timers
    assert resumed["serial"] == serial
    # The speech's deadline after the restart, against the moment the game resumed.
    deadline = resumed["stored_at"] + resumed["left"]
    lost = left_at_kill - (deadline - bot_process.log_time("Game resumed"))
    # (A busy machine may log the resume a little after the clock restarted: a gain, never a loss.)
    assert -1.0 < lost < 1.0, (
        f"the speech lost {lost:.2f} s to the crash: {stored.timers} {resumed} {killed_at}"
    )
    db.close()


async def test_a_database_that_cannot_be_used_stops_the_bot_at_start(
    fake: FakeDiscord, club: Club, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not a database" * 100)
    bot = BotProcess(fake, tmp_path, database_url=f"sqlite:///{broken}")
    await bot.spawn()
    assert await bot.wait() == 3
    assert fake.gateway.identifies == 0, "it never connected"
    assert bot.log_has("the database cannot be used") and bot.log_has("--memory-only")
    # The operator may ask to play without one.
    await bot.start(extra_args=("--memory-only",))
    assert bot.log_has("Memory-only mode")
    await bot.kill()
