"""Group commit: the commands and clocks the running games store during one turn of the event loop go
to the database in one transaction, and each caller resumes once that transaction is committed.

A click's command must be durable before the click is answered (the write-ahead order of
``GameService.submit``: prepare, store, accept). Committing every command alone made the database's
commit (an fsync, a round trip to PostgreSQL) and a worker thread the price of every click, and a
thousand tables' clocks, stored twice a second each, queued in front of the clicks. Here whatever
arrives while one transaction is being written waits for the next, which takes it all: under load a
transaction carries many commands, with no load it carries one and costs what it did before.

A game's clock is replaced, not appended: of several stores of the same game in one batch only the
newest is written (all of their callers are told when it is committed).

The voice ledger's writes (ledger.py: a hold before a mute, a release after Discord confirmed the
unmute, …) join the same transaction, in the order they came: a hold's caller sends its mute only once
the hold is committed, as before, but a turn's holds and releases of many tables share one commit
instead of a transaction and a worker thread each.

The process's heartbeat (mafiabot/game/clock.py) goes the same way, with the clocks that changed since
the last one.

The transactions are written by one thread of the group commit's own (``WritingThread``), fed through a
queue, instead of a worker of the loop's executor through ``asyncio.to_thread`` each: the hand-off there
and back costs about half the CPU (≈ 20 µs against ≈ 35 µs, ≈ 11 µs of it in the loop's thread against
≈ 22 µs; benchmarks/storage_click.py), and every transaction is one (issue 18).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mafiabot.storage import Storage
    from mafiabot.storage.ledger import LedgerWrite

log = logging.getLogger(__name__)

T = TypeVar("T")

_Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]

IDLE_SECONDS = 10.0  # a writing thread with nothing to write this long ends (the next write starts one)


class WritingThread:
    """One thread that runs the calls handed to it, one at a time in the order given, each answered on
    its caller's loop. It starts with the first call and ends once idle for IDLE_SECONDS or stopped (a
    daemon: a process that exits does not wait for it; a call under way then is as a crash leaves it,
    rolled back and never answered)."""

    def __init__(self, name: str = "group commit") -> None:
        self.name = name
        self._lock = threading.Lock()  # a call is never put for a thread that has decided to end
        self._calls: queue.SimpleQueue[_Call] | None = None  # the running thread's, None when none runs

    def run(self, call: Callable[[], T]) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            calls = self._calls
            if calls is None:
                calls = self._calls = queue.SimpleQueue()
                threading.Thread(target=self._serve, args=(calls,), name=self.name, daemon=True).start()
            calls.put((loop, future, call))
        return future

    async def stop(self) -> None:
        """The thread ends once the calls handed to it before are answered (a later call starts another)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            calls, self._calls = self._calls, None
            if calls is None:
                return
            stopped: asyncio.Future[None] = loop.create_future()
            calls.put((loop, stopped, _STOP))
        await stopped

    def _serve(self, calls: queue.SimpleQueue[_Call]) -> None:
        while True:
            try:
                loop, future, call = calls.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if calls.empty():
                        if self._calls is calls:
                            self._calls = None
                        return
                continue
            try:
                result, failure = (None if call is _STOP else call()), None
            except BaseException as exc:  # (answered to the caller, whatever it is)
                result, failure = None, exc
            with contextlib.suppress(RuntimeError):  # (the caller's loop is closed: nobody waits)
                loop.call_soon_threadsafe(_answer, future, result, failure)
            if call is _STOP:
                return


def _STOP() -> None:
    """(WritingThread.stop's mark in its queue)"""


def _answer(future: asyncio.Future[Any], result: Any, failure: BaseException | None) -> None:
    if future.done():
        return
    if failure is not None:
        future.set_exception(failure)
    else:
        future.set_result(result)


class BatchFailed(Exception):
    """The transaction that carried this write failed as a whole (the database is down, …)."""


class GroupCommit:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._commands: list[tuple[int, dict[str, Any], asyncio.Future[int]]] = []
        self._timers: dict[int, tuple[dict[str, Any], list[asyncio.Future[None]]]] = {}
        self._ending: set[int] = set()  # games whose waiting command ends them (stored "over" with it)
        self._ledger: list[tuple[LedgerWrite, asyncio.Future[None]]] = []
        self._beat: tuple[tuple[str, float], list[asyncio.Future[None]]] | None = None
        self._writer: asyncio.Task[None] | None = None
        self.thread = WritingThread()
        self.transactions = 0  # committed (tests and benchmarks)
        self.largest = 0  # the most writes one transaction carried
        self.clocks = 0  # clocks written (tests and benchmarks: they must not grow with waiting tables)
        self.beats = 0  # heartbeats written

    async def append_command(self, game_id: int, command: dict[str, Any], *, over: bool = False) -> int:
        """Store one command; returns its position in the game's log once it is committed. ``over``:
        the command ends the game (the game is stored ``over`` in the same transaction)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._commands.append((game_id, command, future))
        if over:
            self._ending.add(game_id)
        self._wake()
        return await future

    async def save_timers(self, game_id: int, timers: dict[str, Any]) -> None:
        """Replace the game's stored clock; returns once it is committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        _, waiting = self._timers.get(game_id, (None, []))
        self._timers[game_id] = (timers, [*waiting, future])
        self._wake()
        await future

    async def write_ledger(self, write: LedgerWrite) -> None:
        """One write of the voice ledger; returns once it is committed (a hold's ``owed`` is filled)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._ledger.append((write, future))
        self._wake()
        await future

    async def close(self) -> None:
        """Every write waiting is committed and the writing thread ends (the bot is closing)."""
        await self.idle()
        await self.thread.stop()

    async def idle(self) -> None:
        """Returns once nothing is waiting to be written (tests, and a caller about to read)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def beat(self, key: str, at: float, clocks: dict[int, dict[str, Any]]) -> None:
        """The process's heartbeat (its key, the wall time ``at``) with the clocks it vouches for, in
        one transaction; returns once it is committed. A refused clock (a game over) is left out."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self._beat[1] if self._beat is not None else []
        self._beat = ((key, at), [*waiting, future])
        for game_id, value in clocks.items():
            _, others = self._timers.get(game_id, (None, []))
            self._timers[game_id] = (value, others)
        self._wake()
        await future

    def _wake(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="group commit")

    async def _write(self) -> None:
        while self._commands or self._timers or self._ledger or self._beat:
            # One turn of the loop: the other clicks and clocks of this iteration join the transaction.
            await asyncio.sleep(0)
            commands, self._commands = self._commands, []
            timers, self._timers = self._timers, {}
            ending, self._ending = self._ending, set()
            ledger, self._ledger = self._ledger, []
            self.largest = max(self.largest, len(commands) + len(timers) + len(ledger))
            beat, self._beat = self._beat, None
            beaten = [] if beat is None else beat[1]
            try:
                stored = await self.thread.run(
                    functools.partial(
                        self.storage.write_batch,
                        [(game_id, command) for game_id, command, _ in commands],
                        {game_id: value for game_id, (value, _) in timers.items()},
                        over=ending,
                        ledger=[write for write, _ in ledger],
                        beat=None if beat is None else beat[0],
                    )
                )
            except Exception as exc:  # every caller is told; each decides (a click is NotStored)
                waiting = [f for *_, f in commands] + [f for _, fs in timers.values() for f in fs]
                for future in waiting + [f for _, f in ledger] + beaten:
                    if not future.done():
                        failure = BatchFailed(f"{type(exc).__name__}: {exc}")
                        failure.__cause__ = exc
                        future.set_exception(failure)
                continue
            self.transactions += 1
            seqs, clocks = stored
            self.clocks += len(timers) - len(clocks)
            self.beats += beat is not None
            for future in beaten:
                if not future.done():
                    future.set_result(None)
            for (_, _, future), seq in zip(commands, seqs, strict=True):
                if not future.done():
                    future.set_exception(seq) if isinstance(seq, Exception) else future.set_result(seq)
            for game_id, (_, futures) in timers.items():
                refused = clocks.get(game_id)
                for future in futures:
                    if not future.done():
                        future.set_exception(refused) if refused is not None else future.set_result(None)
            for _, future in ledger:
                if not future.done():
                    future.set_result(None)
