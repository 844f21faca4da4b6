"""What a click costs the database path (issue 18 item 1), driving the storage API as the bot does. Run by
hand, not a test.

python benchmarks/storage_click.py [--database sqlite|postgresql] [--clicks 400] [--games 100]
    [--clocks 100] [--loop uvloop|asyncio]

A «Пас» at a running table stores its command through the group commit (mafiabot/game/group_commit.py:
``Storage.write_batch`` with one command when the bot is not busy) and, with the process's next
heartbeat (twice a second), the new step's clock; it writes nothing to the voice ledger
(tests/bot/test_voice_ledger_writes.py). This prints:

- the statements and commits of one click's transaction and of one heartbeat, as the driver saw them
  (SQLite's trace callback on every connection of the engine: BEGIN and COMMIT included);
- CPU of the thread that writes (``time.thread_time``): a transaction of one command, of ten, a
  heartbeat alone and with ``--clocks`` clocks (per clock); on SQLite also the commit alone (a raw
  transaction of one INSERT committed, less the same rolled back: the WAL's write and fsync under
  synchronous=FULL), and what synchronous=NORMAL would make of it (not what the bot uses);
- the group commit end to end on the bot's kind of event loop: ``--clicks`` clicks one after the other,
  each awaiting its command's commit, the CPU of the loop's thread and of the others per click (the
  hand-off to the writing thread and back included), and the same hand-off with nothing to write.

On PostgreSQL, each of the writing thread's figures also gives the server's CPU per transaction (its
processes, from /proc: the postmaster, its children alive and those it reaped, so the machine must run the
server; other databases of the same server count too, so keep it otherwise idle) and the round trips per
transaction (the server's answers that end with ReadyForQuery, in libpq's trace).

Wall time is not the point (the commit waits for the disk); figures swing with the machine's load: write
``uptime`` beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqlalchemy as sa
from _local import scratch_postgres

from mafiabot.game.group_commit import GroupCommit
from mafiabot.storage import Storage
from mafiabot.storage import games as games_module
from mafiabot.storage.migrate import json_text

PASS = {"type": "pass", "seat": 3}
# A running table's clock as Table.timer_state stores it (ten players).
CLOCK: dict[str, Any] = {
    "serial": 41,
    "left": 57.25,
    "paused": False,
    "running": True,
    "immune": None,
    "beat": "all 0123456789ab",
    "stored_at": 1764590000.125,
    "dealt": True,
    "creator_id": 412345678901234567,
    "language": "ru",
    "timers": {"speech": 60, "last_words": 30, "night_role": 20, "vote": 15, "defence": 30},
    "mute_spectators": True,
    "voice_original": {str(412345678901234500 + i): False for i in range(10)},
    "nicknames": {str(412345678901234500 + i): None for i in range(10)},
}


class Trace:
    """Every statement SQLite ran on the engine's connections (the driver's own trace callback)."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.on = False

    def __call__(self, statement: str) -> None:
        if self.on:
            self.statements.append(" ".join(statement.split())[:90])

    @contextmanager
    def counting(self) -> Iterator[list[str]]:
        self.statements = []
        self.on = True
        try:
            yield self.statements
        finally:
            self.on = False


class Server:
    """PostgreSQL's server processes' CPU (``cpu()``, seconds) and the group commit's round trips."""

    def __init__(self, storage: Storage) -> None:
        with storage.engine.connect() as connection:
            backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        self.postmaster = int(self._stat(backend)[1])

    @staticmethod
    def _stat(pid: int | str) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    def cpu(self) -> float:
        fields = self._stat(self.postmaster)
        ticks = sum(int(x) for x in fields[11:15])  # its own, and its reaped children's
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = self._stat(entry.name)
                except OSError:
                    continue
                if int(fields[1]) == self.postmaster:
                    ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def tracing(self, storage: Storage) -> Callable[[], int]:
        """Trace the group commit's kept connection (libpq's trace, to a file); the function returned
        ends the trace and says how many round trips it saw."""
        writer = storage._writer
        with writer.lock:
            if writer.connection is None:
                writer.connection = storage.engine.connect()
            driver: Any = writer.connection.connection.driver_connection
        path = Path(tempfile.mkstemp(prefix="storage-click-trace-")[1])
        fd = os.open(path, os.O_WRONLY)
        driver.pgconn.trace(fd)

        def end() -> int:
            driver.pgconn.untrace()  # (libpq's file flushed and closed)
            trips = 0
            with path.open("rb") as lines:
                for line in lines:  # (the server ends each answer with ReadyForQuery)
                    trips += b"\tB\t" in line and b"\tReadyForQuery" in line
            path.unlink()
            return trips

        return end


SERVER: Server | None = None
STORAGE: Storage | None = None


def cpu_per_call(call: Callable[[int], object], n: int, repeat: int = 3) -> float:
    """Median over ``repeat`` rounds of this thread's CPU per call, µs. On PostgreSQL, prints the
    server's CPU and the round trips per call beside it."""
    rounds, served, trips = [], [], []
    for _ in range(repeat):
        server = SERVER.cpu() if SERVER is not None else 0.0
        traced = SERVER.tracing(STORAGE) if SERVER is not None and STORAGE is not None else None
        start = time.thread_time()
        for i in range(n):
            call(i)
        rounds.append((time.thread_time() - start) / n * 1e6)
        if SERVER is not None:
            served.append((SERVER.cpu() - server) / n * 1e6)
        if traced is not None:
            trips.append(traced() / n)
    if SERVER is not None:
        print(
            f"    (the server {statistics.median(served):.0f} µs, {statistics.median(trips):.2f} round trips"
            f" a call, beside {statistics.median(rounds):.0f} µs here)"
        )
    return statistics.median(rounds)


def database(kind: str) -> tuple[str, Callable[[], None]]:
    if kind == "sqlite":
        return f"sqlite:///{tempfile.mkdtemp(dir='/var/tmp')}/click.db", lambda: None
    return scratch_postgres("mafiabot_click")


def clock_bytes() -> None:
    """A clock's JSON as written: whole, and its part that moves from step to step (games.SETTLED)."""
    settled = getattr(games_module, "SETTLED", frozenset())
    whole = len(json_text(CLOCK))
    moving = len(json_text({k: v for k, v in CLOCK.items() if k not in settled}))
    print(f"  a clock's JSON: {whole} bytes, of which the step writes {moving} (the rest when it changes)")


def statements(storage: Storage, trace: Trace, games: list[int]) -> None:
    storage.write_batch([(games[0], PASS)], {}, beat=("warm", 1.0))  # the heartbeat's row exists
    with trace.counting() as seen:
        storage.write_batch([(games[0], PASS)], {})
    print(f"  a click's transaction: {len(seen)} statements: " + " | ".join(seen))
    with trace.counting() as seen:
        storage.write_batch([], {games[1]: CLOCK, games[2]: CLOCK}, beat=("warm", 2.0))
    print(f"  a heartbeat with two clocks: {len(seen)} statements: " + " | ".join(seen))


def thread_cpu(storage: Storage, games: list[int], clocks: int, n: int) -> None:
    one = cpu_per_call(lambda i: storage.write_batch([(games[i % len(games)], PASS)], {}), n)
    ten = cpu_per_call(
        lambda i: storage.write_batch([(games[(i * 10 + k) % len(games)], PASS) for k in range(10)], {}),
        max(1, n // 5),
    )
    beat = cpu_per_call(lambda i: storage.write_batch([], {}, beat=("warm", 3.0 + i)), n)

    def heartbeat(i: int) -> None:  # (each clock's step moved on: its serial and time left)
        moved = {**CLOCK, "serial": 100 + i, "left": 57.25 - i / 100}
        storage.write_batch([], {g: moved for g in games[:clocks]}, beat=("warm", 3.0 + i))

    many = cpu_per_call(heartbeat, max(1, n // 4))
    print(
        f"  the writing thread's CPU: a transaction of 1 command {one:.0f} µs, of 10 commands {ten:.0f} µs "
        f"({ten / 10:.0f} µs a command); a heartbeat {beat:.0f} µs, with {clocks} clocks {many:.0f} µs "
        f"({(many - beat) / max(1, clocks):.1f} µs a clock)"
    )


def sqlite_commit(url: str, games: list[int], n: int) -> None:
    """The commit alone: a raw transaction of one command's INSERT committed, less the same rolled back."""
    path = url.removeprefix("sqlite:///")
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    seq = [10**6]

    def transaction(end: str) -> Callable[[int], object]:
        def run(i: int) -> None:
            seq[0] += 1
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "INSERT INTO game_commands (game_id, seq, command, created_at) VALUES (?, ?, ?, ?)",
                (games[i % len(games)], seq[0], '{"type": "pass", "seat": 3}', "2026-12-06 10:00:00.000000"),
            )
            connection.execute(end)

        return run

    for synchronous in ("FULL", "NORMAL"):
        connection.execute(f"PRAGMA synchronous={synchronous}")
        committed = cpu_per_call(transaction("COMMIT"), n)
        rolled_back = cpu_per_call(transaction("ROLLBACK"), n)
        wall = time.perf_counter()
        transaction("COMMIT")(0)
        wall = (time.perf_counter() - wall) * 1e6
        label = "the bot's" if synchronous == "FULL" else "not used, for the record"
        print(
            f"  SQLite's commit, synchronous={synchronous} ({label}): {committed - rolled_back:.0f} µs "
            f"of CPU (raw transaction {committed:.0f}, rolled back {rolled_back:.0f}), "
            f"one commit's wall {wall:.0f} µs"
        )
    connection.close()


async def group_commit(storage: Storage, games: list[int], n: int) -> None:
    group = GroupCommit(storage)
    for i in range(20):  # warm: the writing thread started, the statements prepared
        await group.append_command(games[i % len(games)], PASS)

    async def clicks() -> None:
        for i in range(n):
            await group.append_command(games[i % len(games)], PASS)

    loop_cpu, process_cpu = time.thread_time(), time.process_time()
    await clicks()
    loop_cpu, process_cpu = time.thread_time() - loop_cpu, time.process_time() - process_cpu
    print(
        f"  the group commit, {n} clicks one after the other ({group.transactions} transactions): "
        f"{process_cpu / n * 1e6:.0f} µs of CPU a click, the loop's thread {loop_cpu / n * 1e6:.0f} µs, "
        f"the others {(process_cpu - loop_cpu) / n * 1e6:.0f} µs"
    )

    def nothing() -> None:
        pass

    loop_cpu, process_cpu = time.thread_time(), time.process_time()
    for _ in range(n):
        await asyncio.to_thread(nothing)
    loop_cpu, process_cpu = time.thread_time() - loop_cpu, time.process_time() - process_cpu
    print(
        f"  asyncio.to_thread of nothing: {process_cpu / n * 1e6:.0f} µs of CPU a hand-off "
        f"(the loop's thread {loop_cpu / n * 1e6:.0f} µs)"
    )
    thread = getattr(group, "thread", None)
    if thread is not None:  # the group commit's own writing thread (before it, asyncio.to_thread)
        loop_cpu, process_cpu = time.thread_time(), time.process_time()
        for _ in range(n):
            await thread.run(nothing)
        loop_cpu, process_cpu = time.thread_time() - loop_cpu, time.process_time() - process_cpu
        print(
            f"  the group commit's writing thread, nothing to write: {process_cpu / n * 1e6:.0f} µs of CPU "
            f"a hand-off (the loop's thread {loop_cpu / n * 1e6:.0f} µs)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--clicks", type=int, default=400)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clocks", type=int, default=100)
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop")
    args = parser.parse_args()
    url, drop = database(args.database)
    storage = Storage.open(url)
    trace = Trace()
    global SERVER, STORAGE
    if args.database == "postgresql":
        SERVER, STORAGE = Server(storage), storage
    else:
        storage.engine.dispose()  # every connection from here on is traced
        sa.event.listen(storage.engine, "connect", lambda dbapi, _record: dbapi.set_trace_callback(trace))
    try:
        games = []
        for i in range(max(args.games, args.clocks, 3)):
            game = storage.create_game(
                guild_id=1, voice_channel_id=2 + i, text_channel_id=3, ruleset_id="classic", seed=i
            )
            assert game.id is not None
            games.append(game.id)
        print(f"{args.database}, {threading.active_count()} thread(s), load {os.getloadavg()[0]:.2f}:")
        clock_bytes()
        if args.database == "sqlite":
            statements(storage, trace, games)
        thread_cpu(storage, games, args.clocks, args.clicks)
        if args.database == "sqlite":
            sqlite_commit(url, games, args.clicks)
        if args.loop == "uvloop":
            import uvloop

            uvloop.run(group_commit(storage, games, args.clicks))
        else:
            asyncio.run(group_commit(storage, games, args.clicks))
        print(f"  (load {os.getloadavg()[0]:.2f} at the end)")
    finally:
        storage.close()
        drop()


if __name__ == "__main__":
    main()
