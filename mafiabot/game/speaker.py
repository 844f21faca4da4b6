"""The host's voice at the table: joins the game's voice channel, plays each public announcement in
order (cached Opus clips: no ffmpeg at game time), and holds a step's timer while its opening line is
spoken, so that a speaker's minute starts after «Слово игроку …» has ended.

If the bot cannot join voice (permissions, region, no connection) the game goes on with the text
mirror only, and the table says why.

Discord voice is end-to-end encrypted (DAVE): after joining, the channel's clients first agree on a
group key, and until then nobody can decrypt what the bot sends. The first line therefore waits (a
moment on Discord, at most `E2EE_WAIT`) for the group; the log says whether voice is end-to-end
encrypted and gives the privacy code players see in their clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Mapping
from typing import Any

import discord

from audio.announcer import Announcement, Announcer
from audio.scheduler import AnnouncementQueue, Played

log = logging.getLogger(__name__)

CLOSE_E2EE_REQUIRED = 4017  # Discord's voice gateway: this client does not speak DAVE
E2EE_REQUIRED_TEXT = "voice-e2ee-required"  # a message id: the table says it in its language
E2EE_WAIT = 5.0  # seconds the first line waits for the voice group's key; then it is said regardless
E2EE_POLL = 0.05  # discord.py signals no event when the group is ready; its state is polled


def e2ee_status(voice: discord.VoiceClient | None) -> tuple[bool, str | None]:
    """(end-to-end encrypted now, privacy code): the code is what clients show to compare."""
    if voice is None or not voice.is_connected():
        return False, None
    code = voice.voice_privacy_code
    return code is not None, code


def format_privacy_code(code: str) -> str:
    """Groups of five digits, as Discord's clients show the voice privacy code."""
    return " ".join(code[i : i + 5] for i in range(0, len(code), 5))


class ClipSource(discord.AudioSource):
    """A cached clip as an ``is_opus()`` source: discord.py sends its packets as they are."""

    def __init__(self, packets: tuple[bytes, ...]) -> None:
        self._packets = iter(packets)

    def read(self) -> bytes:
        return next(self._packets, b"")

    def is_opus(self) -> bool:
        return True


REJOIN_ATTEMPTS = 3


class Speaker:
    def __init__(self, announcer: Announcer, *, game_id: int) -> None:
        # The announcer is this game's: its voice and the server's volume (applied when a clip is cached).
        self.announcer = announcer
        self.game_id = game_id
        self.voice: discord.VoiceClient | None = None
        self.failure: str | None = None
        self.queue = AnnouncementQueue(self._play)
        self._pending: asyncio.Queue[
            tuple[str, dict[str, Any], Mapping[int, str], asyncio.Future[Played]] | None
        ]
        self._pending = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._e2ee_known: bool | None = None  # encrypted at the last line (None: nothing said yet)
        self._channel: discord.VoiceChannel | discord.StageChannel | None = None
        self._timeout = 15.0
        self.rejoins = 0  # voice connections made again after a drop (tests)

    async def connect(
        self, channel: discord.VoiceChannel | discord.StageChannel, *, timeout: float = 15
    ) -> bool:
        """Join the game channel; False (with ``failure`` set) if that is not possible."""
        self._start_worker()
        self._channel, self._timeout = channel, timeout
        try:
            self.voice = await channel.connect(timeout=timeout, reconnect=False, self_deaf=True)
        except (discord.ClientException, discord.HTTPException, TimeoutError, OSError, RuntimeError) as exc:
            self.failure = str(exc) or type(exc).__name__
            if isinstance(exc, discord.ConnectionClosed) and exc.code == CLOSE_E2EE_REQUIRED:
                self.failure = E2EE_REQUIRED_TEXT
            log.warning("Could not join voice: %s", self.failure, extra={"game_id": self.game_id})
            return False
        self._e2ee_known = None
        return True

    async def wait_for_e2ee(self, timeout: float = E2EE_WAIT) -> bool:
        """Wait until the voice group's key is agreed (True), or the timeout passes (False); logs it."""
        voice = self.voice
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while voice is not None and voice.is_connected() and not e2ee_status(voice)[0]:
            if loop.time() >= deadline:
                break
            await asyncio.sleep(E2EE_POLL)
        encrypted, code = e2ee_status(voice)
        if encrypted and code is not None:
            log.info(
                "Voice is end-to-end encrypted (DAVE); privacy code %s",
                format_privacy_code(code),
                extra={"game_id": self.game_id},
            )
        else:
            log.warning("Voice is not end-to-end encrypted yet", extra={"game_id": self.game_id})
        return encrypted

    def _start_worker(self) -> None:
        if self._worker is None:
            self._worker = asyncio.create_task(self._prepare_loop(), name=f"game {self.game_id} speaker")

    def say(self, phrase_id: str, params: dict[str, Any], names: Mapping[int, str]) -> asyncio.Future[Played]:
        """Queue a line; the future resolves when it has been spoken (at once when there is no audio)."""
        self._start_worker()
        done: asyncio.Future[Played] = asyncio.get_running_loop().create_future()
        self._pending.put_nowait((phrase_id, params, names, done))
        return done

    async def _prepare_loop(self) -> None:
        # Clips are prepared in order on a worker thread, so a slow TTS never blocks the game loop and
        # lines are still spoken in the order the events happened.
        while True:
            item = await self._pending.get()
            if item is None:
                return
            phrase_id, params, names, done = item
            try:
                announcement = await self.announcer.prepare_async(phrase_id, params, names=names)
            except Exception:
                log.exception("Could not prepare %s", phrase_id, extra={"game_id": self.game_id})
                if not done.done():
                    done.set_result(Played(phrase_id, 0.0, 0.0, 0.0))
                continue
            played = self.queue.put(announcement)
            played.add_done_callback(functools.partial(_copy_result, target=done))

    async def _rejoin(self) -> discord.VoiceClient | None:
        """The voice connection dropped (4006, a cut TCP link): discord.py was told not to reconnect by
        itself, so the host joins again here, a bounded number of times, and goes on speaking."""
        old, channel = self.voice, self._channel
        if old is None or channel is None:
            return None
        # discord.py's websocket poller ends with the close it was not told to handle; that is the drop
        # said here, not an error nobody retrieved.
        poller = getattr(getattr(old, "_connection", None), "_runner", None)
        if isinstance(poller, asyncio.Task) and poller.done() and not poller.cancelled():
            log.warning("Voice dropped: %s", poller.exception(), extra={"game_id": self.game_id})
        for attempt in range(1, REJOIN_ATTEMPTS + 1):
            try:
                await old.disconnect(force=True)
                self.voice = await channel.connect(timeout=self._timeout, reconnect=False, self_deaf=True)
            except (
                discord.ClientException,
                discord.HTTPException,
                TimeoutError,
                OSError,
                RuntimeError,
            ) as exc:
                log.warning(
                    "Rejoining voice failed (%s), attempt %d of %d",
                    exc,
                    attempt,
                    REJOIN_ATTEMPTS,
                    extra={"game_id": self.game_id},
                )
                await asyncio.sleep(attempt)
                continue
            self.rejoins += 1
            self._e2ee_known = None  # a new connection: its end-to-end encryption is checked again
            log.info("Voice rejoined after a drop", extra={"game_id": self.game_id})
            return self.voice
        self._channel = None  # given up: the game goes on in text
        return None

    async def _play(self, announcement: Announcement) -> None:
        voice = self.voice
        if announcement.clip is None:
            return
        if voice is not None and not voice.is_connected():
            voice = await self._rejoin()
        if voice is None or not voice.is_connected():
            return
        # Wait for the group before the first line, and again when it was lost (discord.py reconnected
        # voice, or the group is being re-created); not before every line while there is none at all.
        if not e2ee_status(voice)[0] and self._e2ee_known is not False:
            self._e2ee_known = await self.wait_for_e2ee()
        elif self._e2ee_known is None:
            self._e2ee_known = await self.wait_for_e2ee(0)
        else:
            self._e2ee_known = e2ee_status(voice)[0]
        loop = asyncio.get_running_loop()
        finished: asyncio.Future[Exception | None] = loop.create_future()

        def settle(error: Exception | None) -> None:
            if not finished.done():
                finished.set_result(error)

        def after(error: Exception | None) -> None:
            # discord.py's player thread calls this, possibly after the bot (and its loop) has closed;
            # then nobody waits for the clip any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, error)

        voice.play(ClipSource(announcement.clip.packets), after=after)
        error = await finished
        if error is not None:
            log.warning("Playback failed: %s", error, extra={"game_id": self.game_id})

    async def close(self) -> None:
        self._pending.put_nowait(None)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        await self.queue.close()
        if self.voice is not None:
            with contextlib.suppress(Exception):
                await self.voice.disconnect(force=True)
            self.voice = None


def _copy_result(source: asyncio.Future[Played], *, target: asyncio.Future[Played]) -> None:
    if target.done():
        return
    if source.cancelled():
        target.cancel()
    elif source.exception() is not None:
        target.set_result(Played("", 0.0, 0.0, 0.0))
    else:
        target.set_result(source.result())
