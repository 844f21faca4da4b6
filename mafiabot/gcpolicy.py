"""The bot process's policy for Python's cyclic garbage collector (issue 18), and a probe that times it.

**Why a policy.** CPython frees most objects by reference counting; the cyclic collector only finds
groups of objects that refer to each other and are no longer reachable. It runs in generations: a young
collection (generation 0) every 2,000 or so new container objects, a middle one every ten young ones, and
a full one (generation 2) when the objects promoted to the oldest generation since the last full
collection exceed a quarter of it. A full collection walks *every* tracked container object in the
process, and stops the event loop while it does: at a thousand tables (discord.py's cache of a thousand
servers with their members, channels, roles and voice states, every module, every game) that was 370–505
ms, about every 7 s (BENCHMARKS.md, issue 18), the steady model's p99 on its own.

**What the policy does.** Once the bot has started and restored its games, it collects once and then
*freezes* (``gc.freeze()``) everything alive: those objects move to a permanent generation that no
collection walks, so a full collection afterwards walks only what was made since (the games opened
later, their states, per-click objects that lived long enough to be promoted). With ``refreeze_every``
(seconds; 0: never) it does the same again from time to time — a full collection, then a freeze of its
survivors — so that tables opened after the start (long-lived: a game lasts an hour) leave the full
collections too; a full collection still runs in between whenever the collector's own threshold asks.

**What freezing costs.** A frozen object is never examined by the collector again (until
``gc.unfreeze()``). Reference counting still frees it as usual when its last reference goes; but a group
of frozen objects that refer to each other (a cycle) and later become unreachable is never freed: it
stays in memory for the life of the process. That is the price, and why the policy collects *before*
each freeze (garbage already unreachable is not frozen) and why the project keeps the objects that live
across a freeze — guilds, members, tables, game states — free of cycles that die while the process
runs, or freed by reference counting (a table's end drops its references; see tests/bot/test_bot_gc.py).
A frozen object that only refers to young ones keeps those alive as before (the young ones are still
collected when unreachable through frozen ones). Freezing also takes no CPU per object beyond the one
collection before it (it moves whole generation lists).

The cyclic garbage a click makes is kept low too (tests/bot/test_bot_gc.py): what reference counting
frees never reaches a collection at all. The policy is on by default and is switched off with
``[bot] gc_freeze = false`` (``MAFIABOT_GC_FREEZE=false``): then the collector runs as Python's default.

**The probe** (``Probe``; off unless asked for, e.g. by the load model through tests/chaos/run_bot.py's
``MAFIABOT_GC_PROBE=FILE``) appends one line per collection to a file — its start on the system's
monotonic clock, generation, pause in seconds, objects collected — and on SIGUSR2 writes a census of the
tracked objects by type (and whether frozen) beside it, so that the heap can be compared before the first
game and after many.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import signal
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def freeze_survivors() -> tuple[int, float]:
    """A full collection, then everything still alive moved out of the collector's reach (see the
    module's docstring). Returns the number of frozen objects and the seconds it took."""
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count(), time.perf_counter() - started


class CollectorPolicy:
    """Freezes once after the start (``freeze_after_start``) and, with ``refreeze_every`` seconds, again
    from time to time while the bot runs (``start``/``stop``)."""

    def __init__(self, *, enabled: bool = True, refreeze_every: float = 0.0) -> None:
        self.enabled = enabled
        self.refreeze_every = refreeze_every
        self._task: asyncio.Task[None] | None = None

    def freeze_after_start(self) -> None:
        if not self.enabled:
            return
        frozen, took = freeze_survivors()
        log.info("Collector: %d objects frozen after the start (%.0f ms)", frozen, took * 1000)

    def start(self) -> None:
        if self.enabled and self.refreeze_every > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._refreeze(), name="gc-refreeze")

    async def _refreeze(self) -> None:
        while True:
            await asyncio.sleep(self.refreeze_every)
            frozen, took = freeze_survivors()
            log.info("Collector: %d objects frozen (%.0f ms)", frozen, took * 1000)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


class Probe:
    """Times every collection of this process (``gc.callbacks``) into ``path``, one line each:
    ``<start, time.monotonic()> <generation> <pause in s> <collected> <uncollectable>``; line-buffered,
    so a killed process has written what it measured. SIGUSR2 writes ``census(…)`` to ``path.census``
    (appended, one block per signal)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = path.open("a", buffering=1, encoding="ascii")
        self._started = 0.0
        self._previous: Any = None  # SIGUSR2's handler before ours

    def install(self) -> None:
        gc.callbacks.append(self._callback)
        with contextlib.suppress(ValueError):  # (not the main thread: no census)
            self._previous = signal.signal(signal.SIGUSR2, self._census)

    def uninstall(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)
        if self._previous is not None:
            signal.signal(signal.SIGUSR2, self._previous)
        self._file.close()

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.monotonic()
            return
        took = time.monotonic() - self._started
        generation, found, kept = info["generation"], info["collected"], info["uncollectable"]
        self._file.write(f"{self._started:.6f} {generation} {took:.6f} {found} {kept}\n")

    def _census(self, signum: int, frame: Any) -> None:
        with (self.path.parent / (self.path.name + ".census")).open("a", encoding="utf-8") as out:
            out.write(census())


def census(top: int = 400) -> str:
    """The tracked objects now, by type (module.qualname), the young and the frozen counted apart."""
    young = collections.Counter(_kind(o) for o in gc.get_objects())
    frozen = gc.get_freeze_count()
    lines = [f"# census at {time.monotonic():.3f}: {sum(young.values())} tracked, {frozen} frozen"]
    lines += [f"{n} {kind}" for kind, n in young.most_common(top)]
    return "\n".join(lines) + "\n"


def _kind(obj: object) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"
