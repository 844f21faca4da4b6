"""Online engine first, offline engine when it fails: a game never waits on a dead network."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from audio.engines.base import Engine
from audio.pcm import Pcm

log = logging.getLogger(__name__)


class FallbackEngine(Engine):
    """Speaks with ``primary``; when it fails, speaks that phrase with ``secondary`` and, for ``cooldown``
    seconds, does not try ``primary`` for phrases it has not cached. Never raises: when both engines fail
    it returns empty PCM and the caller posts the text only.

    An outage is logged once (warning) when it starts and once (info) when the primary works again.

    A game speaks with one voice from start to end: ``for_one_game`` gives it its own engine, which
    starts with the offline voice while the bot's online one rests, and once it falls back keeps the
    fallback to the end of the game (a voice that changes mid-game sounds like a second host).
    """

    def __init__(
        self,
        primary: Engine,
        secondary: Engine,
        *,
        cooldown: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.secondary = secondary
        self.cooldown = cooldown
        self._clock = clock
        self._retry_primary_at = 0.0
        self._outage = False
        self._secondary_broken = False
        self.fallbacks = 0
        self.name = primary.name
        self.voice = primary.voice
        self._game_of: FallbackEngine | None = None  # the bot's engine, for a game's own one
        self._for_good = False  # a game's engine that has fallen back: the secondary to the end

    def for_one_game(self) -> FallbackEngine:
        """An engine for one game: the voice it starts with (the secondary while the primary rests) is
        the voice of the whole game but for one fall back, which then lasts to its end."""
        game = FallbackEngine(self.primary, self.secondary, cooldown=self.cooldown, clock=self._clock)
        game._game_of = self
        game._for_good = self.degraded
        return game

    @property
    def degraded(self) -> bool:
        """True while the primary engine is resting after a failure (for a game's engine: for good)."""
        if self._game_of is not None:
            return self._for_good
        return self._clock() < self._retry_primary_at

    def cache_sources(self) -> list[str]:
        if self._game_of is not None:  # one voice per game: never a clip of the other engine
            return [self.secondary.source] if self._for_good else [self.primary.source]
        # A clip the offline engine made during an outage is reused only while the outage lasts.
        return [self.primary.source, self.secondary.source] if self.degraded else [self.primary.source]

    def synthesize(self, text: str) -> Pcm:
        if not self.degraded:
            try:
                pcm = self.primary.synthesize(text)
            except Exception as exc:  # any failure of the online engine must end in the offline one
                self._primary_failed(exc)
            else:
                if self._outage:
                    log.info(
                        "%s works again after %d fallback phrase(s)", self.primary.source, self.fallbacks
                    )
                    self._outage = False
                return pcm
        self.fallbacks += 1
        try:
            return self.secondary.synthesize(text)
        except Exception as exc:
            if not self._secondary_broken:
                log.error("fallback engine %s failed too, text only: %s", self.secondary.source, exc)
                self._secondary_broken = True
            return Pcm(b"", self.secondary.source)

    def _primary_failed(self, exc: Exception) -> None:
        if self._game_of is not None:
            self._for_good = True
            self._game_of._primary_failed(exc)  # the bot's engine logs the outage and rests the primary
            return
        self._retry_primary_at = self._clock() + self.cooldown
        if not self._outage:
            log.warning(
                "%s failed (%s); speaking with %s, retrying %s in %.0f s",
                self.primary.source, exc, self.secondary.source, self.primary.name, self.cooldown,
            )  # fmt: skip
            self._outage = True
