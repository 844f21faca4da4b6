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
collection walks, so a full collection afterwards walks only what was made since. Tables opened later
live for an hour and would fill the oldest generation again, so whenever a full collection stopped the
process longer than ``FREEZE_AFTER_PAUSE`` (20 ms), its survivors are frozen too (on the event loop's next
turn): each long full collection is then followed by short ones. Python's own thresholds are left as
they are (young collections, and a full one when what was promoted since the last exceeds a quarter of
what that one left).

**What freezing costs.** A frozen object is never examined by the collector again (until
``gc.unfreeze()``). Reference counting still frees it as usual when its last reference goes; but a group
of frozen objects that refer to each other (a cycle) and later become unreachable is not freed: a table
is one (it and its voice controller refer to each other), so a game frozen while it ran and ended later
stays in memory, with whatever it held, and so does a click's discord.py Interaction (which refers to
itself through its response) frozen while it was being answered. Hence the **thaw**: every
``thaw_every`` seconds (``[bot] gc_thaw_minutes``, 10 by default) everything frozen is given back
(``gc.unfreeze()``) to one full collection, which frees what died meanwhile, and what survives is frozen
again. That full collection walks the whole heap — the pause every full collection had before (≈ 0.4 s
at a thousand tables), once per interval instead of every few seconds — and bounds what a freeze can
keep to what died in one interval (``gc_thaw_minutes = 0``: never, what died frozen stays for the life of
the process). Each freeze comes right after a full collection (garbage already unreachable is not
frozen), and the bot's own per-click objects are kept free of cycles
(tests/bot/test_bot_gc.py), so that what a click leaves is freed by reference counting and never needs
a collection. Freezing itself costs nothing per object (it moves whole generation lists).
The policy is on by default; ``[bot] gc_freeze = false`` (``MAFIABOT_GC_FREEZE=false``) switches it off,
and the collector then runs as Python's default.

**The probe** (``Probe``; off unless asked for, e.g. by the load model through tests/chaos/run_bot.py's
``MAFIABOT_GC_PROBE=FILE``) appends one line per collection to a file — its start on the system's
monotonic clock, generation, pause in seconds, objects collected — and on SIGUSR2 writes a census of the
tracked objects by type beside it (the frozen ones only counted: Python does not list them), so that the
heap can be compared before the first game and after many.
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


# A full collection that stopped the process longer than this has its survivors frozen right after.
FREEZE_AFTER_PAUSE = 0.02  # seconds


def freeze_survivors() -> tuple[int, float]:
    """A full collection, then everything still alive moved out of the collector's reach (see the
    module's docstring). Returns the number of frozen objects and the seconds it took."""
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count(), time.perf_counter() - started


class CollectorPolicy:
    """Freezes once the bot has started (``freeze_after_start``), again after any full collection that
    took longer than ``FREEZE_AFTER_PAUSE``, and every ``thaw_every`` seconds gives every frozen object
    back to one full collection before freezing again (``stop`` ends it)."""

    def __init__(
        self, *, enabled: bool = True, thaw_every: float = 600.0, freeze_after: float = FREEZE_AFTER_PAUSE
    ) -> None:
        self.enabled = enabled
        self.thaw_every = thaw_every
        self.freeze_after = (
            freeze_after  # seconds: a full collection longer than this is followed by a freeze
        )
        self.freezes = 0  # after a long full collection (the start's and the thaws' not counted)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thawing: asyncio.Task[None] | None = None
        self._full_since = 0.0
        self._pending = False

    def freeze_after_start(self) -> None:
        if not self.enabled or self._loop is not None:
            return
        frozen, took = freeze_survivors()
        log.info("Collector: %d objects frozen after the start (%.0f ms)", frozen, took * 1000)
        self._loop = asyncio.get_running_loop()
        gc.callbacks.append(self._collected)
        if self.thaw_every > 0:
            self._thawing = self._loop.create_task(self._thaw(), name="gc-thaw")

    def stop(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._thawing is not None:
            self._thawing.cancel()
            self._thawing = None

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        """(gc.callbacks, in whichever thread collected.) A long full collection: its survivors are
        frozen on the event loop's next turn, so the next full collections walk only what came since."""
        if info["generation"] != 2:
            return
        if phase == "start":
            self._full_since = time.perf_counter()
        elif time.perf_counter() - self._full_since > self.freeze_after and not self._pending:
            self._pending = True
            assert self._loop is not None
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
                self._loop.call_soon_threadsafe(self._freeze)

    def _freeze(self) -> None:
        self._pending = False
        gc.freeze()
        self.freezes += 1

    async def _thaw(self) -> None:
        while True:
            await asyncio.sleep(self.thaw_every)
            started = time.perf_counter()
            gc.unfreeze()  # everything frozen is walked once more: cycles that died meanwhile are freed
            found = gc.collect()
            gc.freeze()
            log.info(
                "Collector: thawed, %d unreachable objects freed, %d frozen again (%.0f ms)",
                found,
                gc.get_freeze_count(),
                (time.perf_counter() - started) * 1000,
            )


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
    """The tracked objects alive now (after a full collection: what is unreachable is not counted), by
    type (module.qualname); the frozen ones only counted, Python does not list them."""
    gc.collect()
    young = collections.Counter(_kind(o) for o in gc.get_objects())
    frozen = gc.get_freeze_count()
    lines = [f"# census at {time.monotonic():.3f}: {sum(young.values())} tracked, {frozen} frozen"]
    lines += [f"{n} {kind}" for kind, n in young.most_common(top)]
    return "\n".join(lines) + "\n"


def _kind(obj: object) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"
