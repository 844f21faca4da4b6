"""The running steps' clocks are kept for a restart by one heartbeat per process (mafiabot/game/clock.py):
a table's clock is stored when it changes otherwise than by the time going by, never because time went
by, so what the bot writes while its tables wait does not grow with the number of tables."""

from __future__ import annotations

import asyncio

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.clock import ClockKeeper, at_restart, moved, shard_label
from mafiabot.game.group_commit import GroupCommit


@pytest.fixture
def clubs(fake: FakeDiscord) -> list[Club]:
    return [fake.create_club(players=10, name=f"Клуб {n}") for n in range(1, 4)]


@pytest.fixture
def club(clubs: list[Club]) -> Club:
    return clubs[0]  # the `bot` fixture's club; the bot knows every club from its start


async def _beats(group: GroupCommit, count: int) -> None:
    """Until the process has stored ``count`` more heartbeats (a bound, not a measurement)."""
    target = group.beats + count
    async with asyncio.timeout(30):
        while group.beats < target:
            await asyncio.sleep(0.05)


async def _writes_while_waiting(group: GroupCommit) -> tuple[int, int, int]:
    """Clocks, heartbeats and transactions stored over four heartbeats while every table waits."""
    await _beats(group, 1)  # (what moved before is stored with this one)
    clocks, beats, transactions = group.clocks, group.beats, group.transactions
    await _beats(group, 4)
    return group.clocks - clocks, group.beats - beats, group.transactions - transactions


async def test_waiting_tables_store_no_clock_and_one_heartbeat_whatever_their_number(
    bot: MafiaBot, fake: FakeDiscord, clubs: list[Club]
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    drivers = [TableDriver(fake, club, bot, club.players) for club in clubs]
    group = bot.games.records.group
    assert group is not None

    await drivers[0].start("simple")
    await drivers[0].skip_step()  # the first speech: a minute of waiting
    one = await _writes_while_waiting(group)
    for d in drivers[1:]:
        await d.start("simple")
        await d.skip_step()
    three = await _writes_while_waiting(group)
    # Nothing but the heartbeat, one row in one transaction each time, for one table as for three
    # (each table used to store its clock twice a second: 8 rows here for one table, 24 for three).
    assert one == three == (0, 4, 4), (one, three)

    # A step's change is stored once, with the next heartbeat (not in a transaction of its own).
    clocks, beats, transactions = group.clocks, group.beats, group.transactions
    serial = drivers[1].table.session.serial  # type: ignore[union-attr]
    await drivers[1].pass_speech()
    await _beats(group, 2)
    assert group.clocks - clocks == 1
    # (the pass's own command is one transaction; its clock rode on a heartbeat's)
    assert group.transactions - transactions == group.beats - beats + 1
    stored = bot.games.storage.game(drivers[1].table.game_id).timers  # type: ignore[union-attr]
    assert stored["serial"] == serial + 1 and stored["running"] and stored["beat"] == bot.games.clocks.key


async def test_a_pause_is_stored_at_once_and_a_paused_clock_is_not_stored_again(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players)
    await d.start("simple")
    await d.skip_step()
    group = bot.games.records.group
    storage = bot.games.storage
    assert group is not None and storage is not None and d.table is not None
    paused = await fake.slash(d.players[0], "mafia pause", channel=club.text)
    assert paused.ephemeral
    await d.settled()
    stored = storage.game(d.table.game_id).timers
    assert stored["paused"] and not stored["running"] and "beat" not in stored
    assert stored["left"] == pytest.approx(d.table.session.paused_left)
    assert await _writes_while_waiting(group) == (0, 4, 4)


def test_a_restart_gives_a_running_clock_the_time_it_had_at_its_process_s_last_heartbeat() -> None:
    anchor = {
        "serial": 4,
        "left": 50.0,
        "paused": False,
        "running": True,
        "beat": "all a",
        "stored_at": 1000.0,
    }
    beats = {"all a": 1012.5, "0/2 b": 1040.0}
    resumed = at_restart(anchor, beats)
    # 12.5 s of the step went by before the last heartbeat; the time after it (the crash, the time
    # down) does not count, and the clock is stopped until the restart gives it back.
    assert resumed["left"] == pytest.approx(37.5) and not resumed["running"] and "beat" not in resumed
    assert resumed["stored_at"] == 1012.5 and resumed["serial"] == 4
    # Another process's heartbeat is not this clock's.
    assert at_restart({**anchor, "beat": "0/2 c"}, beats)["left"] == 50.0  # (no heartbeat of its own yet)
    assert at_restart({**anchor, "left": 10.0}, beats)["left"] == 0.0  # its time ran out before the crash
    assert at_restart({**anchor, "stored_at": 1020.0}, beats)["left"] == 50.0  # stored after the heartbeat
    # A paused or held clock does not run; a clean stop's clock and one stored before the heartbeat
    # (a row of an older bot, which stored its clock twice a second) are taken as stored.
    assert at_restart({**anchor, "paused": True}, beats)["left"] == 50.0
    assert at_restart({**anchor, "running": False}, beats)["left"] == 50.0
    old = {"serial": 4, "left": 50.0, "paused": False, "stored_at": 1000.0, "dealt": True}
    assert at_restart(old, beats) == old


def test_a_clock_is_stored_again_only_when_time_alone_does_not_explain_it() -> None:
    anchor = {"serial": 4, "left": 50.0, "paused": False, "running": True, "beat": "k", "stored_at": 1000.0}
    assert not moved(anchor, {**anchor, "left": 40.0, "stored_at": 1010.0})  # the time went by
    assert moved(anchor, {**anchor, "left": 70.0, "stored_at": 1010.0})  # extended
    assert moved(anchor, {**anchor, "left": 0.0, "stored_at": 1010.0})  # closing early (all voted)
    assert moved(anchor, {**anchor, "serial": 5, "left": 60.0, "stored_at": 1010.0})  # a new step
    held = {**anchor, "running": False}
    assert moved(anchor, held) and not moved(held, {**held, "stored_at": 1010.0})
    assert moved(None, anchor)


def test_a_process_s_heartbeat_names_its_shards() -> None:
    assert shard_label((), 1) == shard_label((0, 1), 2) == "all"
    assert shard_label((1,), 2) == "1/2" and shard_label((3, 0), 4) == "0,3/4"

    class Records:
        group = None

    first, second = ClockKeeper(Records(), "0/2"), ClockKeeper(Records(), "0/2")  # type: ignore[arg-type]
    assert first.key.startswith("0/2 ") and first.key != second.key  # a restart beats on a row of its own
