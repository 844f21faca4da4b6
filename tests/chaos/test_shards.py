"""Past one process: two `mafiabot run` processes, each running one of two Discord shards, share one
PostgreSQL. Each owns the games of its shard's servers; one killed (SIGKILL) and started again resumes
its own game, while the other process's game goes on and is never resumed twice. Each process has a
heartbeat of its own (mafiabot/game/clock.py): the killed one's game resumes with the time its speech
had at its own last heartbeat, however long the other's went on beating."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fakediscord import FakeDiscord
from pg_databases import fresh_database

from chaos.bot_process import BotProcess
from chaos.outside import Database, OutsideTable

MEMBER_EDIT = "PATCH /guilds/{guild_id}/members/{user_id}"


@pytest.fixture
def postgres() -> Iterator[str]:
    """A new, empty PostgreSQL database for the two processes."""
    with fresh_database("mafiabot_shards") as url:
        yield url


@pytest.fixture
async def shards(
    fake: FakeDiscord, tmp_path: Path, postgres: str
) -> AsyncIterator[tuple[BotProcess, BotProcess]]:
    processes = []
    for shard in (0, 1):
        (tmp_path / f"shard{shard}").mkdir()
        processes.append(
            BotProcess(fake, tmp_path / f"shard{shard}", database_url=postgres, shards=((shard,), 2))
        )
    try:
        yield processes[0], processes[1]
    finally:
        for process in processes:
            if process.running:
                await process.kill()


async def passed(fake: FakeDiscord, table: OutsideTable) -> int:
    """The current speaker passes; returns the next speaker, once the panel shows him."""
    speaker = table.speaker()
    assert speaker is not None
    answer = await fake.click(table.member(speaker), table.panel(), label="Пас")  # type: ignore[arg-type]
    # Answered privately, or by the panel's change itself (UPDATE_MESSAGE: the pass changed the panel).
    assert answer.callback_type == 7 or answer.content == "Пас.", (answer.callback_type, answer.content)
    await fake.wait_for(lambda: table.speaker() not in (None, speaker), timeout=30, what="the next speech")
    return table.speaker()  # type: ignore[return-value]


async def test_each_shard_process_resumes_only_its_own_games(
    fake: FakeDiscord, shards: tuple[BotProcess, BotProcess]
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 1000, 1)
    # One server on each shard, by Discord's rule (guild_id >> 22) % shard_count.
    clubs = [fake.create_club(players=7, name=f"shard {shard}", shard=(shard, 2)) for shard in (0, 1)]
    assert [(club.id >> 22) % 2 for club in clubs] == [0, 1]
    first, second = shards
    await first.start()
    await second.start()  # (both could start at once: the migration takes a lock)
    # Each process was told only about its own server.
    sessions = {s.shard: s for s in fake.gateway.shards.values()}
    for shard, club in enumerate(clubs):
        created = [p["d"]["id"] for p in sessions[shard].backlog if p["t"] == "GUILD_CREATE"]
        assert created == [str(club.id)]
    tables = [OutsideTable(fake, club, club.players[:7]) for club in clubs]
    for table in tables:
        await table.start("classic")
    await passed(fake, tables[0])
    await passed(fake, tables[1])
    db = Database(first.database_url)
    games = {game["guild_id"]: game["id"] for game in db.games()}
    assert set(games) == {clubs[0].id, clubs[1].id}

    await asyncio.sleep(1.2)  # into shard 0's speech: both heartbeats are stored meanwhile
    await first.kill()  # shard 0's process crashes
    killed_at = first.killed_at
    stored = db.stored(games[clubs[0].id])
    own, other = stored.timers["beat"], db.stored(games[clubs[1].id]).timers["beat"]
    assert own.startswith("0/2 ") and other.startswith("1/2 "), (own, other)
    last_beat = db.beats()[own]
    # The other process's game goes on meanwhile, and so does its heartbeat.
    before = len(db.stored(games[clubs[1].id]).commands)
    await passed(fake, tables[1])
    assert len(db.stored(games[clubs[1].id]).commands) == before + 1
    assert not second.log_has("Game resumed"), "the other process took over a game it does not own"
    await fake.wait_for(lambda: db.beats()[other] > killed_at + 2.0, timeout=30, what="the other's heartbeat")
    assert db.beats()[own] == last_beat, "the dead process's heartbeat is as it left it"
    left_at_kill = stored.timers["left"] - (killed_at - stored.timers["stored_at"])

    await first.start()
    assert first.log_has("Restored 1 running game(s)")
    await fake.wait_for(
        lambda: any("игра продолжается" in text for text in tables[0].texts()), timeout=30, what="the resume"
    )
    await fake.wait_for(
        lambda: db.stored(games[clubs[0].id]).timers.get("stored_at", 0) > killed_at, what="the resumed clock"
    )
    resumed = db.stored(games[clubs[0].id])
    assert resumed.status == "running" and resumed.commands == stored.commands
    # The speech lost at most a heartbeat's interval to the crash, none of the time the process was down
    # while the other process beat on (a heartbeat shared by the two would have counted all of it).
    assert resumed.timers["serial"] == stored.timers["serial"]
    deadline = resumed.timers["stored_at"] + resumed.timers["left"]
    lost = left_at_kill - (deadline - first.log_time("Game resumed"))
    assert -1.0 < lost < 1.0, f"the speech lost {lost:.2f} s: {stored.timers} {resumed.timers} {killed_at}"
    assert tables[0].speaker() == stored.state().step.seat  # at the step it was in
    await passed(fake, tables[0])
    await passed(fake, tables[1])
    assert not second.log_has("Game resumed")
    assert len([t for t in tables[1].texts() if "игра продолжается" in t]) == 0
    db.close()
