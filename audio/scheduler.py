"""An ordered, never-overlapping queue of announcements, independent of Discord.

The player (in ``mafiabot``) supplies ``play``: a coroutine that sends one clip's packets and returns when
the clip has finished. The queue calls it for one announcement at a time, in the order they were queued,
and tells each waiter when its own announcement has been spoken, so a phase change can wait for the host
to finish speaking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from audio.announcer import Announcement

log = logging.getLogger(__name__)

PlayFn = Callable[[Announcement], Awaitable[None]]


@dataclass(frozen=True)
class Played:
    phrase_id: str
    started: float
    ended: float
    clip_duration: float


class AnnouncementQueue:
    def __init__(self, play: PlayFn, *, on_text: PlayFn | None = None) -> None:
        self._play = play
        self._on_text = on_text
        self._items: asyncio.Queue[tuple[Announcement, asyncio.Future[Played]]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self.history: list[Played] = []

    def put(self, announcement: Announcement) -> asyncio.Future[Played]:
        """Queue an announcement; the future resolves once it has been played (or skipped)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Played] = loop.create_future()
        self._items.put_nowait((announcement, done))
        if self._worker is None or self._worker.done():
            self._worker = loop.create_task(self._run(), name="announcement-queue")
        return done

    async def say(self, announcement: Announcement) -> Played:
        """Queue and wait until this announcement has been spoken."""
        return await self.put(announcement)

    @property
    def pending(self) -> int:
        return self._items.qsize()

    async def drain(self) -> None:
        """Wait until everything queued so far has been played."""
        await self._items.join()

    async def close(self) -> None:
        """Stop after the current announcement; queued ones are dropped (their futures are cancelled)."""
        while not self._items.empty():
            _, done = self._items.get_nowait()
            done.cancel()
            self._items.task_done()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            announcement, done = await self._items.get()
            started = loop.time()
            try:
                if self._on_text is not None:
                    await self._on_text(announcement)
                if announcement.clip is not None:
                    await self._play(announcement)
            except asyncio.CancelledError:
                done.cancel()
                self._items.task_done()
                raise
            except Exception:  # a broken voice connection must not stop the game's announcements
                log.exception("playing %s failed", announcement.phrase_id)
            played = Played(announcement.phrase_id, started, loop.time(), announcement.duration)
            self.history.append(played)
            if not done.done():
                done.set_result(played)
            self._items.task_done()
