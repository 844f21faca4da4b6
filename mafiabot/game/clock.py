"""The running steps' clocks, kept for a restart by one heartbeat per process (issue 18).

A restarted bot gives each game's step the time it had left (promise 3); a killed bot cannot store
anything on its way out, and the time it spends down must not count against the step. Each table used
to store its clock twice a second for that: at a thousand tables, two thousand rows a second and a task
waking per table twice a second, whether anything happened or not.

Now a table stores its clock only when it changes in a way time alone does not explain — a new step, a
pause or a resume, the host's opening line holding it, a step extended or closing early, a restart —
as an *anchor*: the time left (``left``) at a wall instant (``stored_at``), whether it was running
then, and the key of the heartbeat that vouches for it (``beat``). And once per ``BEAT_EVERY`` the
process stores its heartbeat, its wall time, in one row of its own, in one transaction with the anchors
that moved since the last one. A running clock's time left at any instant the process was alive is
``left - (then - stored_at)``; a killed process's last heartbeat bounds when it died, so on restart

    time left = anchor's left - (last heartbeat - anchor's instant), at least 0

which costs a step at most ``BEAT_EVERY`` (and the transaction's time) to a crash, as the per-table
stores did, and nothing of the time the bot was down. A paused or held clock does not run: its anchor
is its time left. A clean stop stores each clock stopped (no heartbeat counts against it).

The heartbeat's key names the process's shards and a token drawn at start, so a restarted process never
writes the row its dead predecessor's anchors name (that row stays as the crash left it), and two shard
processes on one database never read each other's. The anchors of one heartbeat go with it or before
it: an anchor not yet stored when the process died belongs to a change after its last heartbeat (a new
step then starts afresh at the restart, the whole of its time given, at most ``BEAT_EVERY`` too much).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from mafiabot.chaos import kill_point

if TYPE_CHECKING:
    from mafiabot.game.records import GameRecords

log = logging.getLogger(__name__)

BEAT_EVERY = 0.5  # seconds between two heartbeats: what a kill -9 may cost a running step
# A running clock whose time left is this close to what its anchor says is not stored again (the
# clock's own reading moves by microseconds between the stores' computations).
SLACK = 0.05


def shard_label(shard_ids: Collection[int], shard_count: int) -> str:
    """Which shards a process runs, for its heartbeat's key ("all" when it runs them all)."""
    if not shard_ids or set(shard_ids) == set(range(shard_count)):
        return "all"
    return ",".join(map(str, sorted(shard_ids))) + f"/{shard_count}"


def moved(stored: Mapping[str, Any] | None, now: Mapping[str, Any]) -> bool:
    """Does the clock ``now`` differ from the anchor ``stored`` otherwise than by the time gone by?"""
    if stored is None:
        return True
    if any(stored.get(k) != now.get(k) for k in ("serial", "paused", "running", "beat")):
        return True
    left, anchored = now.get("left"), stored.get("left")
    if left is None or anchored is None:
        return bool(left != anchored)
    expected = float(anchored)
    if stored.get("running"):
        gone = float(now.get("stored_at", 0.0)) - float(stored.get("stored_at", 0.0))
        expected = max(0.0, expected - gone)
    return abs(float(left) - expected) > SLACK


def at_restart(timers: Mapping[str, Any], beats: Mapping[str, float]) -> dict[str, Any]:
    """The stored clock of a game whose process stopped, as it was when it stopped: a running anchor
    loses the time from its instant to its process's last heartbeat, and is then a stopped clock (the
    time the bot was down does not count). A clock stored before anchors (no ``running``), a paused
    or held one, or one stored by a clean stop is as it was stored."""
    left = timers.get("left")
    if left is None or not timers.get("running") or timers.get("paused") or "beat" not in timers:
        return dict(timers)
    anchored_at = float(timers.get("stored_at", 0.0))
    # No heartbeat at all: the process died before its first, within BEAT_EVERY of the anchor.
    last = beats.get(str(timers["beat"]), anchored_at)
    gone = max(0.0, last - anchored_at)
    stopped = {k: v for k, v in timers.items() if k != "beat"}
    # (stored_at: when that time left was true; a restore's store meanwhile keeps it, stopped.)
    at = max(last, anchored_at)
    return {**stopped, "left": max(0.0, float(left) - gone), "running": False, "stored_at": at}


class Table(Protocol):
    """A running table, as the keeper sees it (mafiabot.game.table.Table)."""

    anchor: dict[str, Any] | None  # its clock as last stored

    @property
    def game_id(self) -> int: ...

    @property
    def keeps_time(self) -> bool:
        """The game is on (not over, not closed): its clock is kept."""

    def timer_state(self) -> dict[str, Any]: ...

    def stored(self, clock: dict[str, Any]) -> None: ...


class ClockKeeper:
    """The process's heartbeat and the anchors of its tables' clocks (one task, whatever the tables)."""

    def __init__(self, records: GameRecords, label: str = "all") -> None:
        self.records = records
        # A new token each start: the dead process's row is left as its crash left it.
        self.key = f"{label} {secrets.token_hex(6)}"
        self._keeping: set[Table] = set()  # tables whose clock is right (a resumed one's given back)
        self._moved: set[Table] = set()  # ... of them, those whose clock may have changed since stored
        self._task: asyncio.Task[None] | None = None
        self._someone = asyncio.Event()  # a table keeps time: the heartbeat runs
        self.stopped = False

    def keep(self, table: Table) -> None:
        if self.stopped or self.records.group is None:
            return
        self._keeping.add(table)
        self._moved.add(table)
        self._someone.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="clock heartbeat")

    def drop(self, table: Table) -> None:
        self._keeping.discard(table)
        self._moved.discard(table)

    def touch(self, table: Table) -> None:
        """The table's game changed: its clock is looked at (and stored if it moved) with the next
        heartbeat. A set's add: no task, no wake-up of its own."""
        if table in self._keeping:
            self._moved.add(table)

    async def stop(self) -> None:
        """No more heartbeats (a stopping bot stores its clocks stopped, table by table)."""
        self.stopped = True
        self._keeping.clear()
        self._moved.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.stopped:
            if not self._keeping:
                self._someone.clear()
                await self._someone.wait()
                continue
            # On a grid of the loop's clock: a slow write does not push every later heartbeat back.
            await asyncio.sleep((math.floor(loop.time() / BEAT_EVERY) + 1) * BEAT_EVERY - loop.time())
            try:
                await self.beat()
            except Exception:  # the database is down: the next heartbeat takes the same clocks
                log.warning("Could not store the heartbeat", exc_info=True)

    async def beat(self) -> None:
        """One heartbeat, with the clocks that moved since they were stored."""
        group = self.records.group
        if group is None:
            return
        now = time.time()  # (before the clocks are read: the heartbeat vouches for no later instant)
        looked, self._moved = self._moved, set()
        clocks: dict[int, dict[str, Any]] = {}
        tables: dict[int, Table] = {}
        for table in looked:
            if table not in self._keeping:
                continue
            if not table.keeps_time:  # over (its end touched it): its clock is not kept any more
                self.drop(table)
                continue
            clock = table.timer_state()
            if moved(table.anchor, clock):
                clocks[table.game_id] = clock
                tables[table.game_id] = table
        if not self._keeping:
            return  # (no game this process keeps is on: no heartbeat has anything to vouch for)
        try:
            await group.beat(self.key, now, clocks)
        except Exception:
            self._moved |= set(tables.values())  # looked at again with the next heartbeat
            raise
        for game_id, table in tables.items():
            table.stored(clocks[game_id])
        kill_point("timers_stored")  # (the chaos harness: the clocks, as a restart reads them, are stored)
