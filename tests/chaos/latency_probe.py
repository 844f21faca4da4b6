"""Opt-in latency probes for benchmarks/load_model.py, in the bot's process and in the stand-in's (never on
by default: `run_bot.py` installs them only when MAFIABOT_LATENCY_PROBE names a file).

What they record, as JSON lines flushed about once a second into that file (`read` reads it back):

- ``in``: when the bot's process took an INTERACTION_CREATE (its parser: the bot's own for a game's
  click, else discord.py's state's), and ``out``:
  when the bot asked to answer it (discord.py's webhook adapter called for the callback request). With the
  stand-in's own times (the frame sent, the callback arrived) they split a click's acknowledgement into
  the stand-in's queue, the way to the bot's loop, the bot's work and the way back. Both processes read the
  same clock (CLOCK_MONOTONIC is one clock per machine on Linux).
- ``lag``: the event loop's lateness: a task that sleeps 10 ms and measures by how much it woke late
  (one record per second: the ticks, and every tick later than 5 ms with its time).
- ``gc``: every collection longer than 2 ms (generation, start, duration, objects found).
- ``conn``: every connection the bot's HTTP client opened (aiohttp's TCPConnector: discord.py's has no
  limit, so a request that finds every pooled connection busy opens one more).
- ``tx``: every transaction of the group commit (Storage.write_batch in its thread: start, end, the
  commands, clocks and ledger writes it carried): a click is answered only once its command is committed.
- ``stall``: what the loop's thread was running while the loop was late by more than 40 ms: a watcher
  thread samples the thread's Python stack every 5 ms then; the samples are counted by stack. (A thread
  needs the GIL to look, so a collection shows as a ``gc`` record, not as samples.)

MAFIABOT_PROBE_GC_OFF=1 also disables the collector once the bot is connected: a measurement of the
tail without it, never a way to run a bot (its cyclic garbage then grows without bound).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

TICK = 0.010  # the lag probe's sleep
LATE = 0.005  # a tick later than this is written out
STALL = 0.040  # the loop late by more than this: its thread's stack is sampled
SAMPLE = 0.005  # how often, while it is


class Probe:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[Any] = []
        self.lock = threading.RLock()  # (a collection may start, and call on_gc, while it is held)
        self.last_tick = 0.0  # when the lag task last ran (0: not started)
        self.ticks = 0
        self.late: list[tuple[float, float]] = []
        self.stalls: collections.Counter[tuple[str, ...]] = collections.Counter()
        self._gc_started = 0.0
        self._loop_thread = 0

    def add(self, record: Any) -> None:
        with self.lock:
            self.records.append(record)

    def flush(self) -> None:
        with self.lock:
            records, self.records = self.records, []
            ticks, self.ticks = self.ticks, 0
            late, self.late = self.late, []
            stalls, self.stalls = self.stalls, collections.Counter()
        now = time.monotonic()
        records.append(["lag", now, ticks, late])
        records.extend(["stall", now, list(stack), n] for stack, n in stalls.items())
        with self.path.open("a", encoding="utf-8") as out:
            out.writelines(json.dumps(r) + "\n" for r in records)

    # -- in the loop -------------------------------------------------------------------------------

    async def lag(self) -> None:
        while True:
            before = time.monotonic()
            self.last_tick = before
            await asyncio.sleep(TICK)
            late = time.monotonic() - before - TICK
            self.ticks += 1
            if late > LATE:
                self.late.append((round(before, 4), round(late, 4)))

    async def flusher(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            await asyncio.to_thread(self.flush)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop_thread = threading.get_ident()
        self.last_tick = time.monotonic()
        self._tasks = [loop.create_task(self.lag()), loop.create_task(self.flusher())]
        threading.Thread(target=self._watch, name="latency probe", daemon=True).start()

    # -- outside it ----------------------------------------------------------------------------------

    def _watch(self) -> None:
        while True:
            time.sleep(SAMPLE)
            if time.monotonic() - self.last_tick <= STALL + TICK:
                continue
            frame = sys._current_frames().get(self._loop_thread)
            if frame is None or time.monotonic() - self.last_tick <= STALL + TICK:
                continue  # (the loop came back while this thread waited for the GIL)
            stack: list[str] = []
            while frame is not None and len(stack) < 40:
                code = frame.f_code
                stack.append(f"{_short(code.co_filename)}:{code.co_name}:{frame.f_lineno}")
                frame = frame.f_back
            with self.lock:
                self.stalls[tuple(reversed(stack))] += 1

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            self._gc_started = now
        elif now - self._gc_started > 0.002:
            self.add(
                [
                    "gc",
                    info["generation"],
                    round(self._gc_started, 4),
                    round(now - self._gc_started, 4),
                    info.get("collected", 0),
                ]
            )


def _short(filename: str) -> str:
    for marker in ("site-packages/", "/mafiabot/", "/engine/", "/tests/", "/python3.11/"):
        if marker in filename:
            return marker.strip("/") + "/" + filename.split(marker, 1)[1]
    return filename


def install_in_bot(path: str) -> None:
    """Hook the bot's process (before discord.py runs): the interactions taken and answered, the loop's
    lag from the bot's READY on, the collector's pauses."""
    import discord.state
    import discord.webhook.async_ as webhooks

    from mafiabot.storage import Storage

    probe = Probe(Path(path))
    gc.callbacks.append(probe.on_gc)
    write_batch = Storage.write_batch

    def timed_batch(self: Any, commands: Any, timers: Any, **kwargs: Any) -> Any:
        began = time.monotonic()
        try:
            return write_batch(self, commands, timers, **kwargs)
        finally:
            ended = time.monotonic()
            carried = (len(commands), len(timers), len(kwargs.get("ledger", ())))
            probe.add(["tx", round(began, 5), round(ended, 5), *carried])

    state = discord.state.ConnectionState
    parse_interaction, parse_ready = state.parse_interaction_create, state.parse_ready
    adapter = webhooks.AsyncWebhookAdapter
    respond = adapter.create_interaction_response

    def parse_interaction_create(self: Any, data: Any) -> None:
        probe.add(["in", data["id"], round(time.monotonic(), 5)])
        parse_interaction(self, data)

    def create_interaction_response(self: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
        probe.add(["out", str(interaction_id), round(time.monotonic(), 5)])
        return respond(self, interaction_id, *args, **kwargs)

    def ready(self: Any, data: Any) -> None:
        if not probe.last_tick:
            probe.start(asyncio.get_running_loop())
            if os.environ.get("MAFIABOT_PROBE_GC_OFF") == "1":
                gc.disable()
        parse_ready(self, data)

    import aiohttp

    connect = aiohttp.TCPConnector._create_connection

    async def counted_connection(self: Any, *args: Any, **kwargs: Any) -> Any:
        probe.add(["conn", round(time.monotonic(), 4)])
        return await connect(self, *args, **kwargs)

    aiohttp.TCPConnector._create_connection = counted_connection  # type: ignore[method-assign]
    state.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
    # The bot takes a game's clicks from INTERACTION_CREATE itself (its own parser, set at its start,
    # d0f1e7e): taken there too (the earlier time is kept, as read).
    from mafiabot.bot import MafiaBot

    bot_parse = MafiaBot._interaction_create

    def bot_interaction_create(self: Any, data: Any) -> None:
        probe.add(["in", data["id"], round(time.monotonic(), 5)])
        bot_parse(self, data)

    MafiaBot._interaction_create = bot_interaction_create  # type: ignore[method-assign]
    state.parse_ready = ready  # type: ignore[method-assign]
    adapter.create_interaction_response = create_interaction_response  # type: ignore[method-assign]
    Storage.write_batch = timed_batch  # type: ignore[method-assign]


def install_here(path: Path) -> Probe:
    """The same lag, stall and collector probes in the calling process (the stand-in's and the load
    generator's): started on the running loop."""
    probe = Probe(path)
    gc.callbacks.append(probe.on_gc)
    probe.start(asyncio.get_running_loop())
    return probe


def read(path: Path) -> dict[str, Any]:
    """The file's records, by kind: ``in``/``out`` {interaction id: time}, ``late`` [(time, lateness)],
    ``ticks`` [(time, count)], ``gc`` [(generation, start, duration, found)], ``stall`` [(time, stack,
    count)], ``tx`` [(start, end, commands, clocks, ledger writes)], ``conn`` [time]."""
    found: dict[str, Any] = {
        "in": {},
        "out": {},
        "late": [],
        "ticks": [],
        "gc": [],
        "stall": [],
        "tx": [],
        "conn": [],
    }
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        kind = record[0]
        if kind in ("in", "out"):
            found[kind].setdefault(record[1], record[2])
        elif kind == "lag":
            found["ticks"].append((record[1], record[2]))
            found["late"].extend(tuple(x) for x in record[3])
        elif kind in ("gc", "tx"):
            found[kind].append(tuple(record[1:]))
        elif kind == "conn":
            found["conn"].append(record[1])
        elif kind == "stall":
            found["stall"].append((record[1], tuple(record[2]), record[3]))
    return found
