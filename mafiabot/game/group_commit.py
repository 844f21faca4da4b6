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
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mafiabot.storage import Storage
    from mafiabot.storage.ledger import LedgerWrite

log = logging.getLogger(__name__)


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
                stored = await asyncio.to_thread(
                    self.storage.write_batch,
                    [(game_id, command) for game_id, command, _ in commands],
                    {game_id: value for game_id, (value, _) in timers.items()},
                    over=ending,
                    ledger=[write for write, _ in ledger],
                    beat=None if beat is None else beat[0],
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
